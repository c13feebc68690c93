"""The scorepad's blueprint and what every page of it shares.

One blueprint, ``pad``, whose views live in the ``routes_*`` modules (one per family
of pages, see :mod:`api.pad`); here are its hooks and helpers. Views are thin:
parse the form, call :mod:`scorekeeper`, render a template from ``templates/pad/``
(:func:`render`). Forms carry a CSRF token (:mod:`api.pad.web`), checked before
any view runs: a POST without a good one gets the "page expired" page with what
it had typed (:func:`_kept_fields`). Pages send a Content-Security-Policy without
inline scripts (:func:`api.pad.web.finish`), and only a phone holding an edit
right (:mod:`api.pad.rights`: the one that started the game, and those it handed
the right to) may change a game (:func:`require_edit`); everyone else with the
link sees the sheet read-only. Errors are pages in players' words: an HTTP
error, storage that is full or out of reach, anything unexpected (logged).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, make_response, render_template, request, url_for
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.wrappers import Response

from scorekeeper.gamesheet import GameSheet
from scorekeeper.store import games
from scorekeeper.store.base import StoredGame
from scorekeeper.store.refusals import (
    NotFound,
    StorageBusy,
    StorageError,
    StorageFull,
    StorageUnavailable,
)

from .. import get_storage, limits
from ..folders import TEMPLATES
from ..i18n import _, current_language, ngettext
from . import labels as pad_labels
from . import rights, terms, views_result, web
from .card_letters import typed_example
from .script_words import typed_help

bp = Blueprint("pad", __name__, template_folder=TEMPLATES)


# ----------------------------------------------------------------------------- plumbing


@bp.before_request
def _csrf() -> Response | None:
    if request.method == "POST" and not web.csrf_ok():
        return render("pad/expired.html", 400, fields=_kept_fields(), back=_back_link())
    return None


@bp.after_request
def _finish(response: Response) -> Response:
    return web.finish(response)


@bp.app_context_processor
def _globals() -> dict[str, Any]:
    return {
        "csrf_field": web.csrf_field,
        "change_fields": web.change_fields,
        "four_colour": web.four_colour(),
    }


bp.add_app_template_filter(terms.capfirst, "capfirst")
bp.add_app_template_filter(pad_labels.bdi, "bdi")
bp.add_app_template_filter(pad_labels.isolated, "isolated")
bp.add_app_template_filter(pad_labels.matchup, "matchup")
bp.add_app_template_filter(pad_labels.moment, "moment")
bp.add_app_template_filter(views_result.winner_line, "winner_line")
bp.add_app_template_global(typed_help, "typed_help")


@bp.app_template_global("typed_example")
def _typed_example() -> str:
    """The typed-cards field's example in the page's language (its placeholder)."""
    return typed_example(current_language())


@bp.app_template_filter("shared")
def shared(text: str) -> str:
    """Plain text for another app (a link preview's title): without the isolates around
    names (:func:`~api.pad.labels.isolated`), which chat apps show as boxes."""
    return text.translate(_NO_ISOLATES).strip()


_NO_ISOLATES = dict.fromkeys(range(0x2066, 0x206A))


@bp.errorhandler(HTTPException)
def _http_error(error: HTTPException) -> Response:
    if error.code == 429:
        wait = limits.retry_after()
        page = HTTPException(
            ngettext(
                "Too many of these from your network just now (at most %(limit)s),"
                " so nothing was done. Wait %(num)d second and send it again.",
                "Too many of these from your network just now (at most %(limit)s),"
                " so nothing was done. Wait %(num)d seconds and send it again.",
                wait,
                limit=error.description,
            )
        )
        page.code = 429
        response = render("pad/error.html", 429, error=page)
        response.headers["Retry-After"] = str(wait)
        return response
    return render("pad/error.html", error.code or 500, error=error)


@bp.errorhandler(StorageFull)
@bp.errorhandler(StorageBusy)
@bp.errorhandler(StorageUnavailable)
def _unavailable(error: StorageError) -> Response:
    full = isinstance(error, StorageFull)
    page = HTTPException(
        _(
            "The server's disk is full, so nothing was saved. Go back and send it again once"
            " whoever runs the server has made room."
        )
        if full
        else _(
            "The server could not save this just now (too busy, or its database is out of"
            " reach for a moment), so nothing was saved. Go back and send it again."
        )
    )
    page.code = 507 if full else 503
    return render("pad/error.html", page.code, error=page)


@bp.errorhandler(Exception)
def _unexpected(error: Exception) -> Response:
    current_app.logger.exception("scorepad error", exc_info=error)
    return render(
        "pad/error.html",
        500,
        error=InternalServerError(
            _("Something went wrong on the server. Go back, look at the sheet and try again.")
        ),
    )


def render(template: str, status: int = 200, **context: Any) -> Response:
    """A template of ``templates/pad/`` rendered with ``context``, as a response with ``status``."""
    return make_response(render_template(template, **context), status)


def _kept_fields() -> list[tuple[str, str]]:
    """What a refused form had typed, to send again (minus the stale token).

    Only for a form this site's own page sent (its ``Origin`` is this site:
    a page left open until its token went stale). A POST from anywhere
    else, or one that hides its origin, gets nothing back: offering its
    fields again with a fresh token would let another site's forged form be
    stored by one click of the owner.
    """
    if not web.origin_is_here():
        return []
    return [(k, v) for k, values in request.form.lists() for v in values if k != web.CSRF_FIELD]


def _back_link() -> str:
    """Where a refused POST sends the player: the game's sheet, else the start page."""
    game_id = (request.view_args or {}).get("game_id")
    return url_for("pad.sheet", game_id=game_id) if game_id else url_for("pad.home")


def load(game_id: str) -> GameSheet:
    try:
        return games.load_sheet(get_storage(), game_id)
    except NotFound:
        abort(404, _("There is no game at this address. Check the link."))


def game_row(game_id: str) -> StoredGame:
    try:
        return get_storage().game(game_id)
    except NotFound:
        abort(404, _("There is no game at this address. Check the link."))


def require_edit(game_id: str) -> StoredGame:
    game = game_row(game_id)
    if not rights.can_edit(game_id):
        abort(
            403,
            _(
                "This sheet is read-only here: this phone has no right to change it."
                " Whoever keeps the score can hand it over (Phones and hand-over, at"
                " the foot of their sheet); if it is your game, open your hand-over"
                " link on this phone."
            ),
        )
    return game


def form_errors(error: BaseException, default: str = "form") -> dict[str, str]:
    field = getattr(error, "field", None) or getattr(error, "option", None) or default
    return {field: pad_labels.worded(error)}
