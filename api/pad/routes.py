"""The table-side scorepad: HTML pages for a phone beside the cards (issue 5).

Thin views: parse the form, call :mod:`scorekeeper` (games, hands, the
scorepad's ``pad_forms``, ``pad_views``, ``pad_replay`` and ``pad_labels``),
render a template from ``templates/pad/``. Every page works without
JavaScript; ``static/pad.js`` only adds the live deadwood of the tap grids
and a few comforts. Forms carry a CSRF token (:mod:`api.pad.web`), pages
send a Content-Security-Policy without inline scripts, and only a phone
holding an edit right (:mod:`api.pad.rights`: the one that started the
game, and those it handed the right to) may change it; everyone else with
the link sees the sheet read-only.

Every form that changes a sheet carries an idempotency key and the sheet
version it was built from. Sent again (Back then Save, a double tap, a
reload), it stores nothing new and shows the sheet ("already saved"); built
from an older version than the stored one (another phone changed the game
meanwhile), it stores nothing and shows "the sheet changed" with the
current sheet, the hand form keeping what was typed (with a fresh key and
the current version, so saving again is a deliberate second step). A form
sent again with the same key but other values (Back, an edit, Save) is
treated the same way: that form was already used.

Starting a game (the start form, and "new game with the same players")
is idempotent too: the form's key is the create's idempotency key, so a
double tap or Back then Start shows the game the form made instead of a
second one. The edit right goes to this phone only while nobody holds one
on that game (a new game): a phone whose right was revoked gets nothing
back by sending its old form again. The start page gives a phone its
device id before the form is sent, so a first answer lost on the way
still leaves the right with the phone that retries.

Three and four players (RULES.md section 8): a hand form names only the
players of the hand being entered (:func:`~api.pad.forms.seatings`); with
four it is the deal form (``mode=deal``: both games of the deal, quick
entry per game; ``mode=deal_cards``: a tap grid per player, and for each
game that ends in a knock what was laid down, chosen as in a two-player
card hand: :func:`_declared`). A deal record is two-player only
(:func:`modes_for`). The offline queue of the hand form keeps one hand (or
deal) at a time at three or four: the seating of the next hand depends on
the last one, which only the server knows, so the form refuses a second
until the first is saved.

Routes: ``/`` (start a game), ``/games/<id>`` (the sheet),
``/games/<id>/hand`` (enter a hand: quick, cards or record; a deal),
``/games/<id>/hands/<n>`` (one hand; ``/edit`` corrects it, ``/void``
voids it, ``/replay`` steps through its deal record), ``/games/<id>/undo``,
``/games/<id>/rematch`` (a new game that follows this one) and
``/games/<id>/tally`` (the running tally of the games so chained),
``/players?name=...`` (a player's record) and ``/players/vs?name=...&other=...``
(two players head to head), ``/check`` (check a knock without a game),
``/replay`` (step through a pasted deal record), ``/pad/melds`` (JSON for
the live read-out), ``/settings`` (the four-colour deck), and edit rights:
``/games/<id>/phones`` (who may edit, revoke, make a hand-over link),
``/games/<id>/handover`` and ``/games/<id>/join?key=...`` (take the right).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, InternalServerError

from scorekeeper.errors import Conflict, RecordError, RuleError, ScorekeeperError, Stale
from scorekeeper.names import MAX_NAME_LENGTH, fold
from scorekeeper.rules import PRESETS, Rules
from scorekeeper.sheet import Entry
from scorekeeper.store import games, stats
from scorekeeper.store.base import (
    KeyReused,
    NotFound,
    StorageBusy,
    StorageError,
    StorageFull,
    StorageUnavailable,
)
from scorekeeper.store.sheets import GameSheet

from .. import TEMPLATES, get_storage, limits
from ..schemas import check_json_size
from . import declared as pad_declared
from . import forms as pad_forms
from . import labels as pad_labels
from . import replay as pad_replay
from . import rights, web
from . import views as pad_views

bp = Blueprint("pad", __name__, template_folder=TEMPLATES)


def modes_for(players: int) -> tuple[str, ...]:
    """How a hand of a game of ``players`` can be entered: a deal record is two-player
    only, a partnership deal is entered game by game in one form (``deal``: quick,
    ``deal_cards``: a tap grid per player)."""
    return {2: ("quick", "cards", "record"), 3: ("quick", "cards"), 4: ("deal", "deal_cards")}[
        players
    ]


@bp.record_once
def _setup(state) -> None:
    web.ensure_secret_key(state.app)


# ----------------------------------------------------------------------------- plumbing


@bp.before_request
def _csrf() -> Any:
    if request.method == "POST" and not web.csrf_ok():
        return _render("pad/expired.html", 400, fields=_kept_fields(), back=_back_link())
    return None


@bp.before_request
def _old_edit_cookies() -> None:
    if any(name.startswith(rights.OLD_COOKIE) for name in request.cookies):
        rights.adopt_old_cookies()


@bp.after_request
def _finish(response):
    return web.finish(response)


@bp.app_context_processor
def _globals() -> dict[str, Any]:
    return {
        "csrf_field": web.csrf_field,
        "change_fields": web.change_fields,
        "four_colour": web.four_colour(),
    }


bp.add_app_template_filter(pad_labels.capfirst, "capfirst")
bp.add_app_template_filter(pad_labels.bdi, "bdi")
bp.add_app_template_filter(pad_labels.isolated, "isolated")
bp.add_app_template_filter(pad_labels.matchup, "matchup")


@bp.errorhandler(HTTPException)
def _http_error(error: HTTPException):
    if error.code == 429:
        wait = limits.retry_after()
        page = HTTPException(
            f"Too many of these from your network just now (at most"
            f" {error.description}), so nothing was done. Wait {wait} seconds"
            " and send it again."
        )
        page.code = 429
        response = _render("pad/error.html", 429, error=page)
        response.headers["Retry-After"] = str(wait)
        return response
    return _render("pad/error.html", error.code or 500, error=error)


@bp.errorhandler(StorageFull)
@bp.errorhandler(StorageBusy)
@bp.errorhandler(StorageUnavailable)
def _unavailable(error: StorageError):
    full = isinstance(error, StorageFull)
    page = HTTPException(
        "The server's disk is full, so nothing was saved. Go back and send it again once"
        " whoever runs the server has made room."
        if full
        else "The server could not save this just now (too busy, or its database is out of"
        " reach for a moment), so nothing was saved. Go back and send it again."
    )
    page.code = 507 if full else 503
    return _render("pad/error.html", page.code, error=page)


@bp.errorhandler(Exception)
def _unexpected(error: Exception):
    current_app.logger.exception("scorepad error", exc_info=error)
    return _render(
        "pad/error.html",
        500,
        error=InternalServerError(
            "Something went wrong on the server. Go back, look at the sheet and try again."
        ),
    )


def _render(template: str, status: int = 200, **context: Any):
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


def _load(game_id: str) -> GameSheet:
    try:
        return games.load_sheet(get_storage(), game_id)
    except NotFound:
        abort(404, "There is no game at this address. Check the link.")


def _game_row(game_id: str) -> dict:
    try:
        return get_storage().game(game_id)
    except NotFound:
        abort(404, "There is no game at this address. Check the link.")


def _require_edit(game_id: str) -> dict:
    game = _game_row(game_id)
    if not rights.can_edit(game_id):
        abort(
            403,
            "This sheet is read-only here: this phone has no right to change it."
            " Whoever keeps the score can hand it over (Phones and hand-over, at"
            " the foot of their sheet); if it is your game, open your hand-over"
            " link on this phone.",
        )
    return game


def _form_errors(error: BaseException, default: str = "form") -> dict[str, str]:
    field = getattr(error, "field", None) or getattr(error, "option", None) or default
    return {field: pad_labels.worded(error)}


# ----------------------------------------------------------------------------- start


@bp.get("/")
def home():
    web.ensure_device_id()  # before the form is sent: see the module docs
    return web.kept_for_back(_start_page({}, {}))


def _start_page(form: dict, errors: dict, status: int = 200):
    values = {
        **{f"player_{i}": "" for i in range(pad_forms.MAX_PLAYERS)},
        "preset": "standard",
        "dealer": "0",
        "stake": "",
        **form,
    }
    preset = values["preset"] if values["preset"] in PRESETS else "standard"
    try:
        shown = pad_forms.rules_from_form(form) if form else PRESETS[preset]
    except ScorekeeperError:
        shown = PRESETS[preset]
    fields = pad_forms.rules_form(shown)
    for field in fields:
        if field["name"] in form:
            field["value"] = form[field["name"]]
    return _render(
        "pad/start.html",
        status,
        form=values,
        errors=errors,
        fields=fields,
        max_name=MAX_NAME_LENGTH,
        presets=list(PRESETS),
        notes=pad_forms.PRESET_NOTES,
        preset_values=pad_forms.preset_values(),
        options_for=preset,
        recent=rights.recent_games(),
    )


@bp.post("/games")
def start_game():
    form = request.form.to_dict()
    if form.get("action") == "show_preset":
        form.pop("options_for", None)
        for field in pad_forms.rules_form():
            form.pop(field["name"], None)
        return _start_page(form, {})
    settings, errors = pad_forms.game_from_form(form)
    if errors:
        return _start_page(form, errors, 422)
    try:
        sheet, _ = games.create_game(
            get_storage(),
            settings["players"],
            settings["rules"].to_dict(),
            settings["dealer"],
            settings["stake"],
            **_create_options(),
        )
    except KeyReused:
        return _start_page(
            form,
            {
                "form": "This form has already started a game. Check the"
                " names and options, then press Start again for"
                " a new one."
            },
            409,
        )
    except ScorekeeperError as error:
        errors = _form_errors(error, "player_0")
        if "players" in errors:  # about the players together: above the form
            errors["form"] = errors.pop("players")
        return _start_page(form, errors, 422)
    return _started(sheet.id)


def _create_options() -> dict[str, Any]:
    """A start form's create options: its key and the secret a keyed game's token derives from."""
    return {
        "idempotency_key": web.change_options()["idempotency_key"],
        "secret": current_app.config["SECRET_KEY"],
    }


def _started(game_id: str):
    """After a start form: the edit right to this phone if nobody holds one (see the
    module docs), and the sheet."""
    if not get_storage().edit_rights(game_id):
        rights.grant(game_id, rights.STARTER_LABEL)
    return redirect(url_for("pad.sheet", game_id=game_id), 303)


# ----------------------------------------------------------------------------- the sheet


@bp.get("/games/<game_id>")
def sheet(game_id: str):
    data = _load(game_id)
    editable = rights.can_edit(game_id)
    return _render(
        "pad/sheet.html",
        sheet=data,
        view=pad_views.sheet_view(data, _voided(data)),
        tally=_tally(data),
        missed=pad_declared.missed_by_hand(data),
        editable=editable,
        game_id=game_id,
        done=request.args.get("done"),
        share_url=url_for("pad.sheet", game_id=game_id, _external=True),
    )


def _voided(sheet: GameSheet) -> dict[int, Entry] | None:
    """What the sheet's hands made void by a correction had scored (``voided_originals``).

    Read from the log only when there is such a hand; ``None`` when the log
    moved on since the sheet was loaded (the next load shows them).
    """
    if not any(hand.void and hand.corrected for hand in sheet.hands):
        return None
    log = get_storage().log(sheet.id)
    return pad_views.voided_originals(log, sheet.hands) if len(log) == sheet.version else None


@bp.post("/games/<game_id>/undo")
def undo(game_id: str):
    _require_edit(game_id)
    try:
        undone, _, created = games.undo_last(
            get_storage(), game_id, full=False, **web.change_options()
        )
    except (Stale, KeyReused):
        return redirect(url_for("pad.sheet", game_id=game_id, done="changed"), 303)
    except Conflict:
        return redirect(url_for("pad.sheet", game_id=game_id, done="nothing"), 303)
    if not created:
        return redirect(url_for("pad.sheet", game_id=game_id, done="again"), 303)
    return redirect(
        url_for("pad.sheet", game_id=game_id, done="undone", n=undone.n if undone else None), 303
    )


@bp.post("/games/<game_id>/rematch")
def rematch(game_id: str):
    _require_edit(game_id)
    old = _load(game_id)
    try:
        sheet, _ = games.create_game(
            get_storage(),
            old.players,
            old.rules,
            old.next_dealer,
            old.stake,
            follows=game_id,
            **_create_options(),
        )
    except KeyReused:  # the same key for another game's rematch: a forged or broken form
        abort(409, "This form was already used. Open the sheet again to start a new game.")
    return _started(sheet.id)


# ----------------------------------------------------------------------------- hands


def _hand_defaults(sheet: GameSheet, n: int | None) -> dict[str, Any]:
    """Form values: empty for a new hand, the stored input when correcting hand ``n``."""
    values: dict[str, Any] = {
        **_quick_values(None),
        "upcard": "",
        "record": "",
        **{f"cards_{p}": [] for p in range(len(sheet.players))},
        **{f"g{i}_{name}": value for i in (0, 1) for name, value in _quick_values(None).items()},
        "g0_upcard": "",
        "g1_upcard": "",
        **{
            prefix + name: value
            for prefix in PLAY_PREFIXES
            for name, value in _play_values({}).items()
        },
    }
    if n is None:
        return values
    hand = sheet.hands[n - 1]
    given = hand.input or {}
    kind = given.get("kind")
    if kind in ("void", "quick"):
        values.update(_quick_values(given))
    elif kind == "deal" or hasattr(hand, "games"):
        for i, (game, seating) in enumerate(
            zip(
                given.get("games") or [{"kind": "void"}] * 2,
                pad_forms.seatings(sheet, n),
                strict=True,
            )
        ):
            values.update({f"g{i}_{name}": value for name, value in _quick_values(game).items()})
            values[f"g{i}_upcard"] = game.get("upcard") or ""
            if game["kind"] == "cards":
                k = game["knocker"]
                values.update(
                    {
                        f"g{i}_knocker": str(k),
                        f"g{i}_cards_{k}": game["knocker_cards"],
                        f"g{i}_cards_{seating.other(k)}": game["defender_cards"],
                        **{f"g{i}_{name}": value for name, value in _play_values(game).items()},
                    }
                )
    elif kind == "cards":
        k = given["knocker"]
        values.update(knocker=str(k))
        values[f"cards_{k}"] = list(given["knocker_cards"])
        values[f"cards_{pad_forms.seatings(sheet, n)[0].other(k)}"] = list(given["defender_cards"])
        values.update(_play_values(given))
    elif kind == "record":
        values["record"] = json.dumps(given.get("record"), indent=1)
    values["upcard"] = given.get("upcard") or ""
    return values


PLAY_PREFIXES = ("", "g0_", "g1_")
"""The field prefixes of the declared play: a hand of two or three players, the games of a
deal (:func:`~api.pad.declared.declare_from_form`)."""


def _play_values(given: Mapping[str, Any]) -> dict[str, Any]:
    """The declared-play fields of a stored card hand: its arrangement (empty when it
    declared none) and the layoffs (``None``: the best reply's, as it was scored)."""
    if given.get("knocker_melds") is None:
        return {"arrangement": "", "layoffs_for": "", "layoffs": None}
    value = pad_forms.arrangement_value(given["knocker_melds"])
    laid = given.get("layoffs")
    return {
        "arrangement": value,
        "layoffs_for": value,
        "layoffs": None if laid is None else [x["card"] for x in laid],
    }


def _quick_values(given: Mapping[str, Any] | None) -> dict[str, str]:
    """The quick fields of a stored quick or void hand (empty ones for ``None``)."""
    if given is None:
        return {"knocker": "", "kind": "knock", "knocker_deadwood": "", "defender_deadwood": ""}
    if given.get("kind") == "void":
        return {**_quick_values(None), "kind": "void"}
    if given.get("kind") != "quick":  # cards: nothing to show as counts
        return _quick_values(None)
    return {
        "knocker": str(given["knocker"]),
        "kind": "big_gin"
        if given.get("big_gin")
        else ("gin" if given["knocker_deadwood"] == 0 else "knock"),
        "knocker_deadwood": str(given["knocker_deadwood"]),
        "defender_deadwood": str(given["defender_deadwood"]),
    }


def _default_mode(sheet: GameSheet, n: int | None) -> str:
    modes = modes_for(len(sheet.players))
    mode = request.values.get("mode")
    if mode in modes:
        return mode
    if n is not None:
        given = sheet.hands[n - 1].input or {}
        kind = given.get("kind")
        if kind == "deal" and any(game["kind"] == "cards" for game in given["games"]):
            return "deal_cards"
        if kind in modes:
            return kind
    return modes[0]


def _hand_page(
    game_id: str,
    sheet: GameSheet,
    n: int | None,
    mode: str,
    form: dict,
    errors: dict,
    status: int = 200,
    preview: dict | None = None,
    change: dict | None = None,
    changed: dict | None = None,
    previews: list | None = None,
):
    """The hand form. ``change`` is the submitted form's key and version (kept when
    the form comes back with errors or a preview), new ones by default;
    ``changed`` the sheet view to show above it when the sheet changed.

    The form is :func:`~api.pad.web.kept_for_back` (the same key on Back)."""
    rules = Rules.from_dict(sheet.rules)
    names = sheet.players
    seatings = pad_forms.seatings(sheet, n)
    change = change or {"idempotency_key": None, "expected_version": sheet.version}
    choices = (
        _play_choices(sheet.rules, form, seatings, previews is not None)
        if mode in ("cards", "deal_cards")
        else None
    )
    response = _render(
        "pad/hand.html",
        status,
        game_id=game_id,
        sheet=sheet,
        n=n,
        mode=mode,
        choices=choices,
        form_key=change["idempotency_key"],
        form_version=change["expected_version"],
        changed=changed,
        modes=modes_for(len(names)),
        form=form,
        errors=errors,
        names=names,
        seatings=seatings,
        unit="deal" if len(names) == 4 else "hand",
        deals=[_deal_line(i, seating) for i, seating in enumerate(seatings, 1)]
        if len(names) == 4
        else None,
        grid_rows=pad_labels.card_grid(),
        big_gin=rules.big_gin_bonus is not None,
        needs_upcard=rules.oklahoma or rules.spade_doubles,
        straight=rules.knock_limit == 0 and not rules.oklahoma,
        knock_limit=rules.knock_limit,
        preview=preview,
        previews=previews,
        title=pad_labels.game_title(names),
        next_dealer=names[sheet.next_dealer],
    )
    web.kept_for_back(response)
    return response


def _deal_line(number: int, seating: pad_forms.Seating) -> Markup:
    """One game of a partnership deal as the deal form heads it: ``Game 1: Ana deals to Bor``."""
    names, dealer = seating.names, seating.dealer
    return Markup("Game {}: {} deals to {}").format(
        number, pad_labels.bdi(names[dealer]), pad_labels.bdi(names[seating.other(dealer)])
    )


def _prefixes(seatings: list) -> list[str]:
    """The field prefix of each hand of the form: ``g0_``, ``g1_`` for a deal's games."""
    return [f"g{i}_" for i in range(len(seatings))] if len(seatings[0].names) == 4 else [""]


def _play_choices(rules: dict, values: dict, seatings: list, checked: bool) -> list[dict | None]:
    """The arrangement and layoff choice of each card hand of the form (the hand, or each
    game of a deal), with its ``prefix``, ``game`` (a deal's game number, else ``None``)
    and ``sides`` (knocker, defender). ``None`` where there is none to show: not checked
    yet and no arrangement chosen, a void game, or cards that are no legal knock (the
    form's errors say why)."""
    choices: list[dict | None] = []
    for i, (prefix, seating) in enumerate(zip(_prefixes(seatings), seatings, strict=True)):
        arrangement = values.get(prefix + "arrangement") or ""
        choice = None
        if checked or arrangement:
            try:
                hand = pad_forms.cards_form_input(rules, values, seating, prefix)
                choice = {
                    **pad_declared.play_choice(
                        rules, hand, arrangement, values.get(prefix + "layoffs")
                    ),
                    "prefix": prefix,
                    "game": i + 1 if prefix else None,
                    "sides": [
                        seating.names[hand["knocker"]],
                        seating.names[seating.other(hand["knocker"])],
                    ],
                }
            except ScorekeeperError:
                pass
        choices.append(choice)
    return choices


@bp.get("/games/<game_id>/hand")
def new_hand(game_id: str):
    _require_edit(game_id)
    sheet = _load(game_id)
    if sheet.over:
        return redirect(url_for("pad.sheet", game_id=game_id), 303)
    return _hand_page(
        game_id, sheet, None, _default_mode(sheet, None), _hand_defaults(sheet, None), {}
    )


@bp.get("/games/<game_id>/hands/<int:n>/edit")
def edit_hand(game_id: str, n: int):
    _require_edit(game_id)
    sheet = _load(game_id)
    if not 1 <= n <= len(sheet.hands):
        abort(404, f"There is no hand {n} on this sheet.")
    return _hand_page(game_id, sheet, n, _default_mode(sheet, n), _hand_defaults(sheet, n), {})


def _submitted(players: int) -> dict[str, Any]:
    form = request.form
    values: dict[str, Any] = {
        key: form.get(key, "")
        for key in ("knocker", "kind", "knocker_deadwood", "defender_deadwood", "upcard", "record")
    }
    for p in range(players):
        values[f"cards_{p}"] = form.getlist(f"cards_{p}")
    for i in (0, 1):
        for name in pad_forms.DEAL_FIELDS:
            values[f"g{i}_{name}"] = form.get(f"g{i}_{name}", "")
        for p in range(players if players == 4 else 0):
            values[f"g{i}_cards_{p}"] = form.getlist(f"g{i}_cards_{p}")
    for prefix in PLAY_PREFIXES:
        arrangement = values[prefix + "arrangement"] = form.get(prefix + "arrangement", "")
        values[prefix + "layoffs_for"] = form.get(prefix + "layoffs_for", "")
        values[prefix + "layoffs"] = form.getlist(prefix + "layoffs") if arrangement else None
    return values


def _hand_input(rules: dict, mode: str, values: dict, seatings: list) -> dict:
    """The hand input of the submitted form; raises RuleError naming the form field."""
    seating = seatings[0]
    if mode in ("deal", "deal_cards"):
        return pad_forms.deal_input(rules, values, seatings, cards=mode == "deal_cards")
    if mode == "quick":
        return pad_forms.quick_input(
            rules,
            values["knocker"],
            values["kind"],
            values["knocker_deadwood"],
            values["defender_deadwood"],
            values["upcard"],
            seating=seating,
        )
    if mode == "cards":
        return pad_forms.cards_form_input(rules, values, seating)
    hand = pad_forms.record_input(values["record"])
    try:
        check_json_size(hand["record"])
    except ValidationError as error:
        raise RecordError(
            f"This record is too large to keep: {error.messages[0]}.", field="record"
        ) from None
    return hand


def _declared(
    sheet: GameSheet, hand: dict, values: dict, seatings: list, saving: bool
) -> tuple[dict, list[dict | None]]:
    """The hand of a card form with the play the table declared, and its verified showdown
    as the page shows it (with what the best play would have changed), the same way for
    a hand of two or three players and for each game of a partnership deal (``None``: a
    void game). Raises a :class:`RuleError` with every game's errors (``params["fields"]``),
    each at its field; an error about a deal's declared play names its game (``Game 2:
    ...``, at ``g1_layoffs``)."""
    names = sheet.players
    four = len(names) == 4
    hands = (hand.get("games") or [{"kind": "void"}] * 2) if four else [hand]
    played: list[dict] = []
    shown: list[dict | None] = []
    errors: dict[str, str] = {}
    for i, (prefix, seating, one) in enumerate(
        zip(_prefixes(seatings), seatings, hands, strict=True)
    ):
        if one["kind"] != "cards":
            played.append(one)
            shown.append(None)
            continue
        try:
            one = pad_declared.declare_from_form(
                sheet.rules, one, values, seating, prefix, saving=saving
            )
            checked = pad_forms.check_cards(sheet.rules, one, seating, prefix)
        except RuleError as error:
            field = str(error.field)
            play = prefix and field in (prefix + "arrangement", prefix + "layoffs")
            errors[field] = (f"Game {i + 1}: " if play else "") + pad_labels.worded(error)
            continue
        sides = [names[one["knocker"]], names[seating.other(one["knocker"])]]
        view = pad_views.showdown_view(checked, sides)
        view["hindsight"] = pad_declared.review_words(
            checked, sheet.rules, one.get("upcard"), sides
        )
        played.append(one)
        shown.append(view)
    if errors:
        field, message = next(iter(errors.items()))
        raise RuleError(message, option=field, params={"fields": errors})
    if not four:
        return played[0], shown
    return ({**hand, "games": played} if hand["kind"] == "deal" else hand), shown


def _card_errors(error: ScorekeeperError, values: dict, seatings: list) -> dict[str, str]:
    """An error next to its field: a card error at the grid of the player it is about
    (both grids' at once: :func:`~.forms.cards_input`'s ``params["fields"]``), a store
    error about one game of a deal (``games.1.knocker``) at that game's field."""
    errors = dict(error.params.get("fields") or _form_errors(error))
    seating = seatings[0]
    seat = str(values.get("knocker"))
    if seat in (str(p) for p in seating.seats):
        s = int(seat)
        for field, target in (
            ("knocker_cards", f"cards_{s}"),
            ("defender_cards", f"cards_{seating.other(s)}"),
        ):
            if field in errors:
                errors[target] = errors.pop(field)
    for field in list(errors):
        parts = field.split(".")
        if len(parts) == 3 and parts[0] == "games" and parts[1] in ("0", "1"):
            errors[f"g{parts[1]}_{parts[2]}"] = errors.pop(field)
    return errors


@bp.post("/games/<game_id>/hand")
def add_hand(game_id: str):
    return _save_hand(game_id, None)


@bp.post("/games/<game_id>/hands/<int:n>/edit")
def correct_hand(game_id: str, n: int):
    return _save_hand(game_id, n)


def _save_hand(game_id: str, n: int | None):
    _require_edit(game_id)
    sheet = _load(game_id)
    if n is not None and not 1 <= n <= len(sheet.hands):
        abort(404, f"There is no hand {n} on this sheet.")
    modes = modes_for(len(sheet.players))
    mode = request.form.get("mode", "")
    if mode not in modes:
        mode = modes[0]
    values = _submitted(len(sheet.players))
    seatings = pad_forms.seatings(sheet, n)
    change = web.change_options()
    if change["expected_version"] is None:
        change["expected_version"] = sheet.version
    hand = None
    try:
        hand = _hand_input(sheet.rules, mode, values, seatings)
        if mode in ("quick", "deal") and request.form.get("action") == "check":
            previews = pad_views.quick_previews(sheet.rules, hand, seatings)
            return _hand_page(
                game_id, sheet, n, mode, values, {}, preview=previews[0], previews=previews
            )
        if mode in ("cards", "deal_cards"):
            hand, showdowns = _declared(
                sheet, hand, values, seatings, saving=request.form.get("action") != "check"
            )
            if request.form.get("action") == "check":
                return _hand_page(
                    game_id,
                    sheet,
                    n,
                    mode,
                    values,
                    {},
                    preview=showdowns[0],
                    change=change,
                    previews=showdowns,
                )
        store = get_storage()
        if n is None:
            record, _, created = games.add_hand(store, game_id, hand, full=False, **change)
        else:
            record, _, created = games.correct_hand(store, game_id, n, hand, full=False, **change)
    except (Stale, KeyReused) as error:  # before Conflict: Stale is one
        return _changed(game_id, n, mode, values, error)
    except Conflict as error:  # before ScorekeeperError: a Conflict is one
        return _hand_page(
            game_id, sheet, n, mode, values, {"form": pad_labels.worded(error)}, 409, change=change
        )
    except ScorekeeperError as error:
        if isinstance(error, RecordError):
            error = pad_replay.record_error(error, hand["record"] if hand else None)
        return _hand_page(
            game_id,
            sheet,
            n,
            mode,
            values,
            _card_errors(error, values, seatings),
            422,
            change=change,
        )
    if not created:  # this form was saved before: show the sheet as it is
        return redirect(
            url_for("pad.sheet", game_id=game_id, done="again", n=record.n if record else None), 303
        )
    number = record.n if record else len(sheet.hands) + 1
    if mode in ("quick", "deal") and n is None:  # the card forms show the showdown
        return redirect(url_for("pad.sheet", game_id=game_id, done="added", n=number), 303)
    return redirect(
        url_for("pad.hand", game_id=game_id, n=number, done="corrected" if n else "added"), 303
    )


def _changed(game_id: str, n: int | None, mode: str, values: dict, error: Exception):
    """The hand form again after a stale or already-used form: "the sheet changed",
    the current sheet above it, what was typed kept, a new key and the current version."""
    sheet = _load(game_id)
    if n is not None and n > len(sheet.hands):
        return redirect(url_for("pad.sheet", game_id=game_id, done="changed"), 303)
    reason = "used" if isinstance(error, KeyReused) else "changed"
    return _hand_page(
        game_id,
        sheet,
        n,
        mode,
        values,
        {},
        409,
        changed={"reason": reason, "view": pad_views.sheet_view(sheet)},
    )


@bp.post("/games/<game_id>/hands/<int:n>/void")
def void_hand(game_id: str, n: int):
    _require_edit(game_id)
    try:
        _, _, created = games.correct_hand(
            get_storage(), game_id, n, {"kind": "void"}, full=False, **web.change_options()
        )
    except NotFound:
        abort(404, f"There is no hand {n} on this sheet.")
    except (Stale, KeyReused):
        return redirect(url_for("pad.sheet", game_id=game_id, done="changed"), 303)
    except ScorekeeperError as error:  # a Conflict or a bad hand: both 409 here
        abort(409, pad_labels.worded(error))
    return redirect(
        url_for("pad.sheet", game_id=game_id, done="voided" if created else "again", n=n), 303
    )


@bp.get("/games/<game_id>/hands/<int:n>")
def hand(game_id: str, n: int):
    sheet = _load(game_id)
    if not 1 <= n <= len(sheet.hands):
        abort(404, f"There is no hand {n} on this sheet.")
    record = sheet.hands[n - 1]
    before = sheet.hands[n - 2].totals if n > 1 else [0] * len(record.totals)
    view = pad_views.hand_view(record, sheet.players, before)
    was = (_voided(sheet) or {}).get(n)
    return _render(
        "pad/hand_detail.html",
        sheet=sheet,
        record=record,
        view=view,
        n=n,
        unit="deal" if len(sheet.players) == 4 else "hand",
        sides=pad_labels.sides_html(sheet.players),
        was=pad_views.describe_hand(was, sheet.players) if was else None,
        missed=pad_declared.missed_by_game(record, sheet.players, sheet.rules),
        game_id=game_id,
        editable=rights.can_edit(game_id),
        done=request.args.get("done"),
        title=pad_labels.game_title(sheet.players),
    )


# ----------------------------------------------------------------------------- edit rights


@bp.get("/games/<game_id>/phones")
def phones(game_id: str):
    """Who may change the game, and the hand-over link (shown once, just after it is made)."""
    _require_edit(game_id)
    sheet = _load(game_id)
    key = request.args.get("key", "")
    link = rights.handover_url(game_id, key) if rights.handover_matches(game_id, key) else None
    return _render(
        "pad/phones.html",
        sheet=sheet,
        game_id=game_id,
        title=pad_labels.game_title(sheet.players),
        phones=rights.phones(game_id),
        handover=rights.handover(game_id),
        link=link,
        qr=rights.qr_svg(link) if link else None,
        done=request.args.get("done"),
    )


@bp.post("/games/<game_id>/handover")
def handover(game_id: str):
    """Make a new hand-over link (the old one stops working), or turn it off."""
    _require_edit(game_id)
    if request.form.get("action") == "off":
        rights.end_handover(game_id)
        return redirect(url_for("pad.phones", game_id=game_id, done="off"), 303)
    secret = rights.new_handover(game_id)
    return redirect(url_for("pad.phones", game_id=game_id, key=secret, _anchor="link"), 303)


@bp.post("/games/<game_id>/phones/<int:right_id>/revoke")
def revoke(game_id: str, right_id: int):
    _require_edit(game_id)
    rights.revoke(game_id, right_id)
    if not rights.can_edit(game_id):  # this phone gave its own right up
        return redirect(url_for("pad.sheet", game_id=game_id), 303)
    return redirect(url_for("pad.phones", game_id=game_id, done="revoked"), 303)


def _join_page(game_id: str, key: str, errors: dict, status: int = 200):
    sheet = _load(game_id)
    valid = rights.handover_matches(game_id, key)
    return _render(
        "pad/join.html",
        status if valid else 403,
        sheet=sheet,
        game_id=game_id,
        title=pad_labels.game_title(sheet.players),
        key=key if valid else "",
        valid=valid,
        already=rights.can_edit(game_id),
        errors=errors,
        label=request.form.get("label", ""),
    )


@bp.get("/games/<game_id>/join")
def join_page(game_id: str):
    """What a hand-over link opens: a button to take the right (a GET changes nothing,
    so a link preview in a chat app cannot use the link up)."""
    return _join_page(game_id, request.args.get("key", ""), {})


@bp.post("/games/<game_id>/join")
def join(game_id: str):
    key = request.form.get("key", "")
    if not rights.handover_matches(game_id, key):
        return _join_page(game_id, key, {})
    try:
        label = rights.clean_label(request.form.get("label"))
    except ScorekeeperError as error:
        return _join_page(game_id, key, _form_errors(error, "label"), 422)
    rights.grant(game_id, label)
    return redirect(url_for("pad.sheet", game_id=game_id, done="joined"), 303)


# ----------------------------------------------------------------------------- replay


@bp.get("/games/<game_id>/hands/<int:n>/replay")
def hand_replay(game_id: str, n: int):
    sheet = _load(game_id)
    if not 1 <= n <= len(sheet.hands):
        abort(404, f"There is no hand {n} on this sheet.")
    given = sheet.hands[n - 1].input or {}
    if given.get("kind") != "record":
        abort(404, f"Hand {n} was not entered from a deal record, so there is nothing to replay.")
    try:
        steps = pad_replay.replay_steps(given["record"], sheet.players, sheet.rules)
    except ScorekeeperError as error:
        abort(409, pad_labels.worded(error))
    step = _step_number(len(steps))
    return _render(
        "pad/replay.html",
        steps=steps,
        step=step,
        current=steps[step],
        record_text=None,
        game_id=game_id,
        n=n,
        analysis=pad_replay.analysis_view(given["record"], sheet.players, sheet.rules),
        link=lambda k: url_for("pad.hand_replay", game_id=game_id, n=n, step=k),
    )


def _step_number(count: int) -> int:
    try:
        step = int(request.values.get("step", 0))
    except ValueError:
        step = 0
    return max(0, min(step, count - 1))


@bp.route("/replay", methods=["GET", "POST"])
def replay():
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
        return _render(
            "pad/replay.html", 400, steps=None, errors={"record": str(error)}, record_text=""
        )
    if not text.strip():
        errors = {"record": "Paste a deal record first."} if request.method == "POST" else {}
        return _render(
            "pad/replay.html", 422 if errors else 200, steps=None, errors=errors, record_text=text
        )
    try:
        record = pad_forms.parse_record(text)
        steps = pad_replay.replay_steps(record)
    except ScorekeeperError as error:
        # the record is the page's only field: every error belongs next to it
        return _render(
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
    step = _step_number(len(steps))
    return _render(
        "pad/replay.html",
        steps=steps,
        step=step,
        current=steps[step],
        record_text=text,
        errors={},
        analysis=pad_replay.analysis_view(record),
        link=(lambda k: url_for("pad.replay", r=packed, step=k)) if packed else None,
    )


# ----------------------------------------------------------------------------- check a knock


@bp.route("/check", methods=["GET", "POST"])
def check():
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
            hand = pad_forms.cards_input(
                rules, 0, form["knocker_cards"], form["defender_cards"], form["upcard"]
            )
            view = pad_views.showdown_view(
                pad_forms.check_cards(rules, hand), ["the knocker", "the defender"]
            )
        except ScorekeeperError as error:
            errors = dict(error.params.get("fields") or _form_errors(error))
            status = 422
    return _render(
        "pad/check.html",
        status,
        form=form,
        errors=errors,
        view=view,
        presets=list(PRESETS),
        grid_rows=pad_labels.card_grid(),
    )


# ----------------------------------------------------------------------------- JSON, settings


@bp.get("/pad/melds")
def melds():
    """Live read-out of the tap grid: ``?cards=As 2s 3s`` -> deadwood and best melds."""
    codes, problem = pad_forms.selection(request.args.get("cards", ""))
    if problem:
        return jsonify({"message": problem}), 422
    if len(codes) > 11:
        return jsonify({"message": f"{len(codes)} cards: a hand has 10 (11 for big gin)."}), 422
    return jsonify(pad_views.live_melds(codes))


@bp.post("/settings")
def settings():
    given = request.form.get("next")
    if given and web.has_controls(given):
        abort(
            400,
            "next: the page to go back to holds a control character (a tab or a line"
            " break); open the settings from a page of this site.",
        )
    target = web.safe_next(given, url_for("pad.home"))
    response = redirect(target, 303)
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


# ----------------------------------------------------------------------------- tally, records


def _tally(sheet: GameSheet) -> dict | None:
    """The rematch tally's view for a sheet's foot, when a game of two or three follows
    another (partnerships settle per team: no running tally for them)."""
    if len(sheet.players) == 4:
        return None
    tally = stats.rematch_tally(get_storage(), sheet.id)
    return pad_views.tally_view(tally) if len(tally["games"]) > 1 else None


@bp.get("/games/<game_id>/tally")
def tally(game_id: str):
    """Every game of the chain of rematches up to this one: who won, who paid, the total."""
    if len(_game_row(game_id)["players"]) == 4:
        abort(404, "The running tally is kept for games of two or three players.")
    found = stats.rematch_tally(get_storage(), game_id)
    return _render("pad/tally.html", tally=pad_views.tally_view(found), game_id=game_id)


def _record(name: str) -> tuple[dict | None, str | None]:
    """A player's record by name, or ``None`` and what to tell the player instead."""
    if not name.strip():
        return None, "Type a player's name."
    try:
        return stats.player_stats(get_storage(), name), None
    except NotFound:
        return None, (
            f"Nobody called “{pad_labels.isolated(name.strip())}” has"
            " played on this scorepad yet. Check the spelling (capitals and spaces"
            " around the name do not matter)."
        )
    except ScorekeeperError as error:
        return None, pad_labels.worded(error)


@bp.get("/players")
def players():
    """A player's record (``?name=``), or the search form with what went wrong."""
    name = request.args.get("name")
    if name is None:
        return _render("pad/players.html", record=None, error=None, name="")
    found, error = _record(name)
    return _render(
        "pad/players.html",
        200 if found else (422 if not name.strip() else 404),
        record=pad_views.record_view(found) if found else None,
        error=error,
        name=name,
    )


@bp.get("/players/vs")
def head_to_head():
    """Two players head to head (``?name=...&other=...``), from the first one's record."""
    found, error = _record(request.args.get("name", ""))
    if found is None:
        abort(404, error)
    other = request.args.get("other", "")
    rival = next((r for r in found["head_to_head"] if fold(r["opponent"]) == fold(other)), None)
    if rival is None:
        abort(
            404,
            f"{pad_labels.isolated(found['name'])} and"
            f" {pad_labels.isolated(other.strip()) if other.strip() else 'that player'}"
            " have not played each other on this scorepad.",
        )
    return _render("pad/head_to_head.html", name=found["name"], rival=rival)
