"""The pages that need no game: check a knock, replay a pasted deal record, the live
meld read-out of the tap grid (JSON) and the settings (the four-colour deck, the
language)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask import abort, jsonify, redirect, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from scorekeeper.errors import RecordError, ScorekeeperError
from scorekeeper.rules import PRESETS, Rules

from .. import i18n
from ..i18n import _
from . import forms_hand, forms_play, options, terms, views_hand, web
from . import labels as pad_labels
from . import replay as pad_replay
from .blueprint import bp, form_errors, render


def replay_page(
    steps: Sequence[Mapping[str, Any]],
    record_text: str | None,
    analysis: Mapping[str, Any],
    link: Callable[[int], str] | None,
    **context: Any,
) -> Response:
    """The replay page at the step the request asks for (``step``, kept within the
    record's ``steps``): a pasted record's (``record_text``) or a stored hand's.
    ``showdown`` is the step where the hand goes down (the knock or gin; ``None`` for a
    void hand), the page's jump "to the showdown" beside the one "to the end"."""
    try:
        step = int(request.values.get("step", 0))
    except ValueError:
        step = 0
    step = max(0, min(step, len(steps) - 1))
    return render(
        "pad/replay.html",
        steps=steps,
        step=step,
        showdown=len(steps) - 2 if len(steps) > 1 and steps[-1]["showdown"] else None,
        current=steps[step],
        record_text=record_text,
        analysis=analysis,
        link=link,
        **context,
    )


@bp.route("/replay", methods=["GET", "POST"])
def replay() -> Response:
    """Step through a pasted deal record, with the analysis of its decisions.

    A good record posted here is answered by a redirect to ``/replay?r=...``
    (the record packed into the link) so that stepping is GET links and Back
    works; a record too long for a link is stepped by posting it again.
    """
    packed = request.args.get("r") if request.method == "GET" else None
    try:
        text = (
            pad_replay.unpack_record(packed)
            if packed
            else request.form.get("record", "")
            if request.method == "POST"
            else ""
        )
    except RecordError as error:
        return render(
            "pad/replay.html", 400, steps=None, errors={"record": str(error)}, record_text=""
        )
    if not text.strip():
        errors = {"record": _("Paste a deal record first.")} if request.method == "POST" else {}
        return render(
            "pad/replay.html", 422 if errors else 200, steps=None, errors=errors, record_text=text
        )
    try:
        record = forms_hand.parse_record(text)
        steps = pad_replay.replay_steps(record)
    except ScorekeeperError as error:
        # the record is the page's only field: every error belongs next to it
        return render(
            "pad/replay.html",
            422,
            steps=None,
            errors={"record": pad_labels.worded(error)},
            record_text=text,
        )
    if request.method == "POST":
        packed = pad_replay.pack_record(text)
        if packed is not None:
            return redirect(url_for("pad.replay", r=packed, step=request.form.get("step", 0)), 303)
    return replay_page(
        steps,
        text,
        pad_replay.analysis_view(record),
        (lambda k: url_for("pad.replay", r=packed, step=k)) if packed else None,
        errors={},
    )


@bp.route("/check", methods=["GET", "POST"])
def check() -> Response:
    form = {
        "preset": request.form.get("preset", "standard"),
        "upcard": request.form.get("upcard", ""),
        "knocker_cards": request.form.getlist("knocker_cards"),
        "defender_cards": request.form.getlist("defender_cards"),
    }
    errors: dict[str, str] = {}
    view = None
    status = 200
    if request.method == "POST":
        try:
            rules = Rules.preset(form["preset"] if form["preset"] in PRESETS else "standard")
            hand = forms_hand.cards_input(
                rules, 0, form["knocker_cards"], form["defender_cards"], form["upcard"]
            )
            view = views_hand.showdown_view(
                forms_play.check_cards(rules, hand), [_("the knocker"), _("the defender")]
            )
        except ScorekeeperError as error:
            errors = dict(error.params.get("fields") or form_errors(error))
            status = 422
    return render(
        "pad/check.html",
        status,
        form=form,
        errors=errors,
        view=view,
        presets=list(PRESETS),
        preset_names=options.PRESET_NAMES,
        grid_rows=terms.card_grid(),
    )


@bp.get("/pad/melds")
def melds() -> ResponseReturnValue:
    """Live read-out of the tap grid: ``?cards=As 2s 3s`` -> deadwood and best melds."""
    codes, problem = forms_hand.selection(request.args.get("cards", "").split())  # the ticks
    if problem:
        return jsonify({"message": problem}), 422
    if len(codes) > 11:
        return jsonify(
            {"message": _("%(count)s cards: a hand has 10 (11 for big gin).", count=len(codes))}
        ), 422
    return jsonify(views_hand.live_melds(codes))


def _back() -> Response:
    """The redirect after a setting: to the form's ``next`` when it is a page of this site,
    else to the start page; a ``next`` holding a control character is refused."""
    given = request.form.get("next")
    if given and web.has_controls(given):
        abort(
            400,
            _(
                "next: the page to go back to holds a control character (a tab or a line"
                " break); open the settings from a page of this site."
            ),
        )
    return redirect(web.safe_next(given, url_for("pad.home")), 303)


@bp.post("/settings")
def settings() -> Response:
    response = _back()
    if request.form.get("four_colour") == "on":
        response.set_cookie(
            web.DECK_COOKIE,
            "4",
            max_age=web.COOKIE_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure,
        )
    else:
        response.delete_cookie(web.DECK_COOKIE)
    return response


@bp.post("/language")
def language() -> Response:
    """The language switch: keep the chosen language (``lang``) in the ``sk_lang`` cookie."""
    chosen = request.form.get("lang", "")
    if chosen not in i18n.LANGUAGES:
        abort(
            400,
            _(
                "lang: choose one of the languages offered (%(codes)s).",
                codes=", ".join(i18n.LANGUAGES),
            ),
        )
    response = _back()
    response.set_cookie(
        i18n.LANG_COOKIE,
        chosen,
        max_age=web.COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )
    return response
