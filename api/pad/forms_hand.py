"""What players type into the hand forms, read into the hand inputs of
:mod:`scorekeeper.hands` (which scores them).

The quick way (who went out, knock or gin, two deadwood counts), card by card
(:func:`cards_input`, the tap grids: :func:`cards_form_input`), a pasted deal
record, or with four players the two games of a deal (:func:`deal_input`). Who
may go out is one of the two players of the hand
(:class:`~scorekeeper.seating.Seating`: with three the dealer sits out, with four
each game has its pair). Whatever is wrong raises an error whose message is
for players and which names the form field at fault: a plain
:class:`RuleError` or :class:`RecordError` (codes ``rule``, ``bad_record``,
which :func:`~api.pad.labels.worded` leaves as they are), raised from the
domain's error when it rewords one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.cards import Card, parse_card
from scorekeeper.errors import CardError, RecordError, RuleError, RuleViolation
from scorekeeper.handinput import MAX_DEADWOOD, QuickHand, VoidHand
from scorekeeper.records import DEAL_FORMAT
from scorekeeper.rules import Rules
from scorekeeper.seating import Seating

from ..bodies import Unstorable, load_json
from ..i18n import _, current_language, lazy_gettext
from .card_letters import CODES, readings, to_core
from .script_words import two_suits
from .terms import card_info


def selection(text: Any) -> tuple[list[str], str | None]:
    """Card codes from a form field (text or list), and a message if it is malformed.

    A card may be typed with the language's own rank and suit letters (``Vk`` in French:
    :func:`~api.pad.card_letters.to_core`); a suit letter that names two suits there is
    refused naming both cards (:func:`~api.pad.card_letters.readings`). That is for
    ``text``: a list holds form values (the grid's ticks, the page's own values), and
    an item written as the core writes a card (``4s``) is that card. Unknown or
    repeated cards give a message;
    the codes that could be read are still returned, so the page can keep what the
    player tapped.
    """
    if isinstance(text, str):
        tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    else:
        tokens = [str(t) for t in text or ()]
    codes: list[str] = []
    problem = None
    lang = current_language()
    for token in tokens:
        two = None if token in CODES and not isinstance(text, str) else readings(token, lang)
        if two is not None:
            first, second = (card_info(code)["label"] for code in two)
            problem = problem or two_suits() % {"text": token, "first": first, "second": second}
            continue
        try:
            code = parse_card(to_core(token, lang)).code
        except CardError:
            problem = problem or _(
                "%(token)s is not a card (try 10♠, Ts or 7h).", token=repr(token)
            )
            continue
        if code in codes:
            problem = problem or _("%(card)s is in there twice.", card=card_info(code)["label"])
            continue
        codes.append(code)
    return codes, problem


def quick_input(
    rules: Rules,
    knocker: Any,
    kind: Any,
    knocker_deadwood: Any = None,
    defender_deadwood: Any = None,
    upcard: Any = None,
    seating: Seating | None = None,
) -> QuickHand | VoidHand:
    """The hand input of the quick form, checked and typed (its upcard parsed here, once;
    ``data`` its JSON, as :mod:`scorekeeper.hands` describes it).

    ``kind`` is ``knock``, ``gin``, ``big_gin`` or ``void`` (the stock ran
    out); ``knocker`` the player (index) who went out, one of the two who
    play this hand (``seating``; players 0 and 1 when not given); the
    deadwood counts are the form's text, the defender's after layoffs. A
    knock with 0 deadwood is a gin (RULES.md 5). Raises :class:`RuleError`
    whose ``option`` names the form field and whose message is for players;
    scoring is left to :func:`~scorekeeper.hands.evaluate_hand`.
    """
    if kind == "void":
        return VoidHand({"kind": "void"})
    if kind not in ("knock", "gin", "big_gin"):
        raise RuleError(_("Choose knock, gin or void."), option="kind")
    seat = _knocker(knocker, seating)
    if kind == "big_gin" and rules.big_gin_bonus is None:
        raise RuleError(_("Big gin is not played under these rules."), option="kind")
    up = _upcard(rules, upcard)
    limit = rules.knock_limit_for(up)
    if kind == "knock":
        k = _whole(knocker_deadwood, "knocker_deadwood", MAX_DEADWOOD)
        if k and limit == 0:
            raise RuleError(
                _("Under these rules only gin ends a hand: no knocking.")
                if not rules.oklahoma
                else _(
                    "Under the upcard %(upcard)s only gin ends a hand: no knocking.",
                    upcard=card_info(up)["label"],
                ),
                option="kind",
            )
        if k > limit:
            raise RuleError(
                _(
                    "A knock needs %(limit)s or less deadwood; %(deadwood)s is too much.",
                    limit=limit,
                    deadwood=k,
                ),
                option="knocker_deadwood",
            )
    else:
        k = 0
        if str(knocker_deadwood or "0").strip() not in ("", "0"):
            raise RuleError(
                _("Gin means no deadwood: leave it at 0 or choose knock."),
                option="knocker_deadwood",
            )
    d = _whole(defender_deadwood, "defender_deadwood", MAX_DEADWOOD)
    hand: dict[str, Any] = {
        "kind": "quick",
        "knocker": seat,
        "knocker_deadwood": k,
        "defender_deadwood": d,
    }
    if kind == "big_gin":
        hand["big_gin"] = True
    if up is not None:
        hand["upcard"] = up.code
    return QuickHand(seat, k, d, kind == "big_gin", up, hand)


def cards_input(
    rules: Rules,
    knocker: Any,
    knocker_cards: Any,
    defender_cards: Any,
    upcard: Any = None,
    seating: Seating | None = None,
) -> dict[str, Any]:
    """The hand input of the card form, checked (fields ``knocker_cards`` etc.).

    The cards are lists of codes (the tapped checkboxes) or text. Counts,
    unknown and repeated cards, and a card in both hands give messages for
    players, both hands' at once: the error names the first field, and its
    ``params["fields"]`` maps each field at fault to its message. The knock
    itself is checked by :func:`verify_knock`.
    """
    seat = _knocker(knocker, seating)
    mine, mine_problem = selection(knocker_cards)
    theirs, theirs_problem = selection(defender_cards)
    problems = {"knocker_cards": mine_problem, "defender_cards": theirs_problem}
    both = [code for code in theirs if code in mine]
    if both and not theirs_problem:
        problems["defender_cards"] = _(
            "%(card)s is tapped for both players; a card can be in one hand only.",
            card=card_info(both[0])["label"],
        )
    allowed = (10, 11) if rules.big_gin_bonus is not None else (10,)
    if len(mine) not in allowed and not mine_problem:
        problems["knocker_cards"] = (
            _("Tap 10 cards (11 for big gin) for who went out; %(count)s tapped.", count=len(mine))
            if len(allowed) == 2
            else _("Tap 10 cards for who went out; %(count)s tapped.", count=len(mine))
        )
    if len(theirs) != 10 and not problems["defender_cards"]:
        problems["defender_cards"] = _(
            "Tap 10 cards for the other player; %(count)s tapped.", count=len(theirs)
        )
    found = {field: message for field, message in problems.items() if message}
    if found:
        field, message = next(iter(found.items()))
        raise RuleError(message, option=field, params={"fields": found})
    up = _upcard(rules, upcard)
    hand: dict[str, Any] = {
        "kind": "cards",
        "knocker": seat,
        "knocker_cards": mine,
        "defender_cards": theirs,
    }
    if up is not None:
        hand["upcard"] = up.code
    return hand


def cards_form_input(
    rules: Rules,
    values: Mapping[str, Any],
    seating: Seating,
    prefix: str = "",
) -> dict[str, Any]:
    """The :func:`cards_input` of a form with a tap grid per player of the hand.

    Fields ``<prefix>knocker``, ``<prefix>cards_<p>`` (the grid of player
    ``p``) and ``<prefix>upcard``; an error about a hand's cards names the
    grid of the player it is about (both grids' errors in ``params["fields"]``).
    """
    raw = str(values.get(f"{prefix}knocker"))
    seat = int(raw) if raw in (str(p) for p in seating.seats) else None
    mine = values.get(f"{prefix}cards_{seat}", []) if seat is not None else []
    theirs = values.get(f"{prefix}cards_{seating.other(seat)}", []) if seat is not None else []
    try:
        return cards_input(rules, raw, mine, theirs, values.get(f"{prefix}upcard"), seating=seating)
    except RuleError as error:
        if seat is None or error.field not in ("knocker_cards", "defender_cards"):
            raise
        grid = {
            "knocker_cards": f"{prefix}cards_{seat}",
            "defender_cards": f"{prefix}cards_{seating.other(seat)}",
        }
        restated = error.restate(str(error), field=grid[error.field])
        if "fields" in error.params:  # both hands at fault: each at its grid
            restated.params["fields"] = {grid[f]: m for f, m in error.params["fields"].items()}
        raise restated from error


_WHOLE_WORDS = {
    "knocker_deadwood": (
        lazy_gettext("Type the deadwood of who went out as a whole number, like 7."),
        lazy_gettext("The deadwood of who went out can be at most %(high)s."),
    ),
    "defender_deadwood": (
        lazy_gettext("Type the other player's deadwood as a whole number, like 7."),
        lazy_gettext("The other player's deadwood can be at most %(high)s."),
    ),
}
"""A deadwood field's refusals, by field: not a whole number, too high."""


def _whole(value: Any, field: str, high: int) -> int:
    raw = str(value if value is not None else "").strip()
    not_whole, too_high = _WHOLE_WORDS[field]
    if not re.fullmatch(r"\d{1,3}", raw):
        raise RuleError(str(not_whole), option=field)
    number = int(raw)
    if number > high:
        raise RuleError(str(too_high) % {"high": high}, option=field)
    return number


def _upcard(rules: Rules, upcard: Any) -> Card | None:
    if upcard in (None, ""):
        if rules.oklahoma:
            raise RuleError(
                _("Pick the first upcard: in Oklahoma it sets the knock limit."), option="upcard"
            )
        return None
    try:
        return parse_card(upcard)
    except CardError:
        raise RuleError(_("Pick the first upcard from the list."), option="upcard") from None


def _knocker(value: Any, seating: Seating | None) -> int:
    """The knocker's player index, one of the hand's two players.

    A player of the game who does not play this hand is refused with the
    domain's code (``dealer_sits_out``: the three-player dealer;
    ``not_in_this_game``: a partnership player of the other game), worded by
    :func:`~api.pad.labels.worded`.
    """
    seats = seating.seats if seating else (0, 1)
    raw = str(value)
    if raw in (str(p) for p in seats):
        return int(raw)
    if seating is not None and raw in (str(p) for p in range(len(seating.names))):
        player = seating.names[int(raw)]
        if int(raw) == seating.sits_out:
            raise RuleViolation(
                f"knocker {player} deals this hand and sits out",
                code="dealer_sits_out",
                params={"player": player},
                option="knocker",
            )
        raise RuleViolation(
            f"knocker {player} does not play this game",
            code="not_in_this_game",
            params={"player": player},
            option="knocker",
        )
    raise RuleError(_("Choose who went out."), option="knocker")


DEAL_FIELDS = ("knocker", "kind", "knocker_deadwood", "defender_deadwood", "upcard")
"""The quick fields of each game of a partnership deal form, prefixed ``g0_``, ``g1_``."""


def deal_input(
    rules: Rules,
    values: Mapping[str, Any],
    games: Sequence[Seating],
    cards: bool = False,
) -> dict[str, Any]:
    """The partnership deal input of the deal form: ``{"kind": "deal", "games": [hand,
    hand]}``, each game's hand a :func:`quick_input` of its fields ``g<i>_knocker``
    etc., or with ``cards`` a :func:`cards_form_input` of ``g<i>_knocker`` and its
    players' grids ``g<i>_cards_<p>`` (``g<i>_knocker`` ``void``: a void game). The two
    games void is a void deal, ``{"kind": "void"}``. An error names the game's field
    (``g1_defender_deadwood``, ``g0_cards_3``)."""
    hands = []
    for i, seating in enumerate(games):
        prefix = f"g{i}_"
        given = {name: values.get(prefix + name) for name in DEAL_FIELDS}
        try:
            if cards:
                hands.append(
                    {"kind": "void"}
                    if given["knocker"] == "void"
                    else cards_form_input(rules, values, seating, prefix)
                )
                continue
            hands.append(
                dict(
                    quick_input(
                        rules,
                        given["knocker"],
                        given["kind"],
                        given["knocker_deadwood"],
                        given["defender_deadwood"],
                        given["upcard"],
                        seating=seating,
                    ).data
                )
            )
        except RuleError as error:
            if (error.option or "").startswith(prefix):
                raise
            raise error.restate(str(error), field=prefix + str(error.option)) from error
    if all(hand["kind"] == "void" for hand in hands):
        return {"kind": "void"}
    return {"kind": "deal", "games": hands}


def parse_record(text: Any) -> Any:
    """A pasted deal record (JSON text) as data; :class:`RecordError` in players' words."""
    if not isinstance(text, str):
        return text
    try:
        return load_json(text)
    except Unstorable as error:
        raise RecordError(
            _("This record cannot be kept: it has %(problem)s.", problem=error.message)
            if error.field == "body"
            else _(
                "This record cannot be kept: it has %(problem)s (at %(field)s).",
                problem=error.message,
                field=error.field,
            ),
            field="record",
        ) from None
    except ValueError as error:
        raise RecordError(
            _(
                "This is not a deal record: the JSON text breaks at line %(line)s, column"
                " %(column)s. Paste the whole record, from { to }.",
                line=getattr(error, "lineno", "?"),
                column=getattr(error, "colno", "?"),
            ),
            field="record",
        ) from None


def record_input(text: Any) -> dict[str, Any]:
    """The hand input of the record form: ``{"kind": "record", "record": {...}}``."""
    if isinstance(text, str) and not text.strip():
        raise RecordError(_("Paste a deal record first."), field="record")
    record = parse_record(text)
    if not isinstance(record, Mapping) or record.get("format") != DEAL_FORMAT:
        raise RecordError(
            _('This is not a deal record: it needs "format": "%(format)s".', format=DEAL_FORMAT),
            field="record",
        )
    return {"kind": "record", "record": record}
