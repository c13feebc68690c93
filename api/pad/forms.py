"""What players type into the scorepad's forms, read into domain inputs.

The start form (players, rules preset and options, dealer, stake) becomes a
new game's settings; the hand forms become the hand inputs of
:mod:`scorekeeper.store.hands` (which scores them): the quick way (who went out,
knock or gin, two deadwood counts), card by card (checked with
:func:`~scorekeeper.knock.verify_knock`), a pasted deal record, or with four
players the two games of a deal (:func:`deal_input`). Who may go out is one of
the two players of the hand (:class:`Seating`: with three the dealer sits out,
with four each game has its pair). Whatever
is wrong raises an error (or, for the start form, an errors dict) whose
message is for players and which names the form field at fault: a plain
:class:`RuleError` or :class:`RecordError` (codes ``rule``, ``bad_record``,
which :func:`~api.pad.labels.worded` leaves as they are), raised from the
domain's error when it rewords one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from scorekeeper.cards import parse_card
from scorekeeper.engine import cut_for_dealer
from scorekeeper.errors import CardError, RecordError, RuleError, RuleViolation, ScorekeeperError
from scorekeeper.knock import KnockResult, place_layoffs, verify_knock
from scorekeeper.names import clean_name, name_key
from scorekeeper.records import DEAL_FORMAT
from scorekeeper.rules import PRESETS, Rules
from scorekeeper.store.hands import MAX_DEADWOOD
from scorekeeper.store.sheets import GameSheet

from ..bodies import Unstorable, load_json
from .labels import card_info, worded

OPTION_LABELS = {
    "knock_limit": "Knock limit (most deadwood you may knock with)",
    "oklahoma": "Oklahoma: the first upcard sets the knock limit",
    "ace_upcard": "Oklahoma ace upcard",
    "spade_doubles": "A spade upcard doubles the hand",
    "gin_bonus": "Gin bonus",
    "big_gin_bonus": "Big gin bonus (11 cards; empty = not allowed)",
    "undercut_bonus": "Undercut bonus",
    "box_bonus": "Box bonus (per hand won, at the end)",
    "game_bonus": "Game bonus",
    "shutout": "Shutout",
    "target": "Points to win the game",
    "next_dealer": "Who deals next",
    "wall": "When the stock is down to 2 cards",
    "scoring": "Scoring",
    "first_dealer": "Cutting for the first deal",
    "tie": "A tied knock (equal deadwood)",
    "discard_taken": "The card just taken from the discard pile",
    "max_discard_draws": "Draws from the discard pile before the hand is void (empty = no cap)",
    "three_player_dealer": "Three players: who deals (and sits out) next",
    "partnership_netting": "Four players (two teams): what a team scores",
}

CHOICE_LABELS = {
    "ace_upcard": {"gin_only": "gin only", "one": "knock with 1"},
    "shutout": {"double_bonus": "double the game bonus", "double_total": "double the total"},
    "next_dealer": {"winner": "the winner", "loser": "the loser", "alternate": "take turns"},
    "wall": {
        "void_at_two": "the hand is void",
        "knock_only_at_two": "only a knock from the discard",
    },
    "scoring": {"single": "one game", "hollywood": "Hollywood (three games)"},
    "first_dealer": {
        "low": "the lower card deals",
        "high": "the higher card deals",
        "random": "a coin toss",
    },
    "tie": {"undercut": "is an undercut", "no_score": "scores nothing"},
    "discard_taken": {
        "forbidden": "may not be thrown back that turn",
        "allowed": "may be thrown back at once",
    },
    "three_player_dealer": {"loser": "the loser of the hand", "rotate": "round the table"},
    "partnership_netting": {
        "per_deal": "the difference of its two games, each deal",
        "per_game": "every game its players win (netted at the end)",
    },
}

PRESET_NOTES = {
    "standard": "Knock with 10 or less; gin 25, undercut 25, box 25, game 100, to 100.",
    "classic": "Older scoring: gin 20, undercut 10, box 20.",
    "modern": "Big gin 31; a shutout doubles the winner's total.",
    "oklahoma": "The first upcard sets the knock limit, spades double, undercut 20, the deal"
    " alternates, to 150.",
    "straight": "No knocking: only gin ends a hand.",
    "hollywood": "Three games scored at once.",
    "slovenian": "As standard, with box 20 (the Slovenian rules).",
    "openspiel": "As OpenSpiel plays: a tie scores nothing, the card taken may be thrown"
    " back, the hand is void at 50 discard draws.",
}


def rules_form(rules: Rules | None = None) -> list[dict[str, Any]]:
    """The fields of the options form: every option of RULES.md section 9.

    Each is ``{"name", "label", "kind" ("number", "choice", "bool",
    "optional_number"), "value", "choices": [(value, label)], "min", "max"}``.
    """
    rules = rules or PRESETS["standard"]
    values = rules.to_dict()
    fields = []
    for name, label in OPTION_LABELS.items():
        field: dict[str, Any] = {"name": name, "label": label, "value": values[name]}
        if name in CHOICE_LABELS:
            field.update(kind="choice", choices=list(CHOICE_LABELS[name].items()))
        elif isinstance(values[name], bool):
            field.update(
                kind="bool",
                choices=[("on", "on"), ("off", "off")],
                value="on" if values[name] else "off",
            )
        elif name in ("big_gin_bonus", "max_discard_draws"):
            field.update(
                kind="optional_number",
                min=0 if name == "big_gin_bonus" else 1,
                max=10_000,
                value="" if values[name] is None else values[name],
            )
        else:
            field.update(
                kind="number",
                min=1 if name == "target" else 0,
                max=10 if name == "knock_limit" else 10_000,
            )
        fields.append(field)
    return fields


def preset_values() -> dict[str, dict[str, Any]]:
    """Every preset's options as form values (booleans ``on``/``off``, null as "")."""
    result = {}
    for name, rules in PRESETS.items():
        result[name] = {field["name"]: field["value"] for field in rules_form(rules)}
    return result


def rules_from_form(form: Mapping[str, Any]) -> Rules:
    """Rules from the start-a-game form.

    ``preset`` names the preset chosen; ``options_for`` the preset whose
    values the option fields were showing (without JavaScript they do not
    follow a change of preset). Every field that differs from
    ``options_for``'s value is applied on top of the chosen preset, so
    untouched fields take the chosen preset's values. Raises
    :class:`RuleError` naming the option.
    """
    name = form.get("preset") or "standard"
    if name not in PRESETS:
        raise RuleError("Choose one of the rule presets.", option="preset")
    shown_name = form.get("options_for") or name
    values = preset_values()
    shown = values.get(shown_name, values[name])
    overrides: dict[str, Any] = {}
    for field in rules_form(PRESETS[name]):
        key = field["name"]
        if key not in form:
            continue
        raw = str(form[key]).strip()
        if raw == str(shown[key]):
            continue
        if field["kind"] == "bool":
            if raw not in ("on", "off"):
                raise RuleError(f"{OPTION_LABELS[key]}: choose on or off.", option=key)
            overrides[key] = raw == "on"
        elif field["kind"] == "choice":
            if raw not in CHOICE_LABELS[key]:
                raise RuleError(
                    f"{OPTION_LABELS[key]}: choose one of the listed values.", option=key
                )
            overrides[key] = raw
        else:
            if raw == "" and field["kind"] == "optional_number":
                overrides[key] = None
                continue
            if not re.fullmatch(r"\d{1,5}", raw):
                raise RuleError(
                    f"{OPTION_LABELS[key]}: type a whole number from {field['min']}"
                    f" to {field['max']}.",
                    option=key,
                )
            overrides[key] = int(raw)
    try:
        return Rules.preset(name, **overrides)
    except RuleError as error:
        raise RuleError(worded(error), option=error.option) from error


MAX_PLAYERS = 4
"""Name fields on the start form: two players, three, or four in two partnerships."""


def game_from_form(
    form: Mapping[str, Any], rng: Any = None
) -> tuple[dict[str, Any], dict[str, str]]:
    """The settings of a new game from the start form, and every problem found.

    Returns ``({"players", "rules" (a Rules), "dealer", "stake"}, errors)``
    where ``errors`` maps form fields (``player_0`` .. ``player_3``, an
    option name, ``dealer``, ``stake``) to messages for players (a name
    is refused as :func:`~scorekeeper.names.clean_name` refuses it, and the
    players must be different by :func:`~scorekeeper.names.name_key`); the
    settings are only complete when ``errors`` is empty.

    Players 1 and 2 are needed, 3 and 4 are optional: two names make a
    two-player game, three a three-player one, four two partnerships
    (players 1 and 3 against 2 and 4, :data:`~scorekeeper.sheet.TEAMS`).
    A fourth name without a third is refused on ``player_2`` rather than
    moved up, since moving it would change the partnerships. ``dealer`` is
    a player's number from 0 (with four, that player's team deals first)
    or ``cut``: the cut of the rules' ``first_dealer`` option picks the
    dealer (:func:`~scorekeeper.engine.cut_for_dealer`, drawing from
    ``rng``, by default the system's random source).
    """
    import secrets

    errors: dict[str, str] = {}
    names = []
    raws = [str(form.get(f"player_{i}", "")) for i in range(MAX_PLAYERS)]
    count = 4 if raws[3].strip() else 3 if raws[2].strip() else 2
    if not raws[2].strip() and raws[3].strip():
        errors["player_2"] = (
            "Type player 3's name too: with four players, 1 and 3 play against 2 and 4."
        )
    for i, raw in enumerate(raws[:count]):
        try:
            names.append(clean_name(raw))
        except RuleError as error:
            names.append(raw.strip())
            errors.setdefault(
                f"player_{i}", "Type a name for this player." if not raw.strip() else worded(error)
            )
    for i in range(1, len(names)):
        if f"player_{i}" not in errors and any(
            f"player_{j}" not in errors and name_key(names[i]) == name_key(names[j])
            for j in range(i)
        ):
            errors[f"player_{i}"] = "The players need different names."
    rules = None
    try:
        rules = rules_from_form(form)
    except RuleError as error:
        errors[error.option or "preset"] = str(error)
    dealer_raw = str(form.get("dealer", "0"))
    if dealer_raw == "cut":
        dealer = cut_for_dealer(
            rules or PRESETS["standard"], rng or secrets.SystemRandom(), players=len(names)
        )
    elif dealer_raw in tuple(str(p) for p in range(len(names))):
        dealer = int(dealer_raw)
    else:
        dealer = 0
        errors["dealer"] = (
            "Choose who deals first."
            if dealer_raw not in ("2", "3")
            else f"Player {int(dealer_raw) + 1} has no name, so cannot deal: choose"
            " who deals first among the players named."
        )
    stake = None
    raw = str(form.get("stake", "")).strip().replace(",", ".")
    if raw:
        if not re.fullmatch(r"\d{1,6}(\.\d{1,4})?", raw):
            errors["stake"] = "Type the stake per point as a number, like 0.05, or leave it empty."
        else:
            stake = float(raw)
    return {"players": names, "rules": rules, "dealer": dealer, "stake": stake}, errors


def selection(text: Any) -> tuple[list[str], str | None]:
    """Card codes from a form field (text or list), and a message if it is malformed.

    Unknown or repeated cards give a message; the codes that could be read
    are still returned, so the page can keep what the player tapped.
    """
    if isinstance(text, str):
        tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    else:
        tokens = [str(t) for t in text or ()]
    codes: list[str] = []
    problem = None
    for token in tokens:
        try:
            code = parse_card(token).code
        except CardError:
            problem = problem or f"{token!r} is not a card (try 10♠, Ts or 7h)."
            continue
        if code in codes:
            problem = problem or f"{card_info(code)['label']} is in there twice."
            continue
        codes.append(code)
    return codes, problem


def quick_input(
    rules: Rules | Mapping[str, Any] | str | None,
    knocker: Any,
    kind: Any,
    knocker_deadwood: Any = None,
    defender_deadwood: Any = None,
    upcard: Any = None,
    seating: Seating | None = None,
) -> dict[str, Any]:
    """The hand input (:mod:`scorekeeper.store.hands`) of the quick form, checked.

    ``kind`` is ``knock``, ``gin``, ``big_gin`` or ``void`` (the stock ran
    out); ``knocker`` the player (index) who went out, one of the two who
    play this hand (``seating``; players 0 and 1 when not given); the
    deadwood counts are the form's text, the defender's after layoffs. A
    knock with 0 deadwood is a gin (RULES.md 5). Raises :class:`RuleError`
    whose ``option`` names the form field and whose message is for players;
    scoring is left to :func:`~scorekeeper.store.hands.evaluate_hand`.
    """
    rules = Rules.from_dict(rules)
    if kind == "void":
        return {"kind": "void"}
    if kind not in ("knock", "gin", "big_gin"):
        raise RuleError("Choose knock, gin or void.", option="kind")
    seat = _knocker(knocker, seating)
    if kind == "big_gin" and rules.big_gin_bonus is None:
        raise RuleError("Big gin is not played under these rules.", option="kind")
    up = _upcard(rules, upcard)
    limit = rules.knock_limit_for(up)
    if kind == "knock":
        k = _whole(
            knocker_deadwood, "knocker_deadwood", "the deadwood of who went out", MAX_DEADWOOD
        )
        if k and limit == 0:
            why = "these rules" if not rules.oklahoma else f"the upcard {card_info(up)['label']}"
            raise RuleError(f"Under {why} only gin ends a hand: no knocking.", option="kind")
        if k > limit:
            raise RuleError(
                f"A knock needs {limit} or less deadwood; {k} is too much.",
                option="knocker_deadwood",
            )
    else:
        k = 0
        if str(knocker_deadwood or "0").strip() not in ("", "0"):
            raise RuleError(
                "Gin means no deadwood: leave it at 0 or choose knock.", option="knocker_deadwood"
            )
    d = _whole(defender_deadwood, "defender_deadwood", "the other player's deadwood", MAX_DEADWOOD)
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
    return hand


def cards_input(
    rules: Rules | Mapping[str, Any] | str | None,
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
    rules = Rules.from_dict(rules)
    seat = _knocker(knocker, seating)
    mine, mine_problem = selection(knocker_cards)
    theirs, theirs_problem = selection(defender_cards)
    problems = {"knocker_cards": mine_problem, "defender_cards": theirs_problem}
    both = [code for code in theirs if code in mine]
    if both and not theirs_problem:
        problems["defender_cards"] = (
            f"{card_info(both[0])['label']} is tapped for both"
            " players; a card can be in one hand only."
        )
    allowed = (10, 11) if rules.big_gin_bonus is not None else (10,)
    if len(mine) not in allowed and not mine_problem:
        need = "10 cards (11 for big gin)" if len(allowed) == 2 else "10 cards"
        problems["knocker_cards"] = f"Tap {need} for who went out; {len(mine)} tapped."
    if len(theirs) != 10 and not problems["defender_cards"]:
        problems["defender_cards"] = f"Tap 10 cards for the other player; {len(theirs)} tapped."
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


NO_MELDS = "-"
"""The form value of an arrangement without melds."""


def arrangement_value(melds: Any) -> str:
    """An arrangement as one form value: cards by spaces, melds by ``|`` (``-``: no melds).

    >>> arrangement_value([["5s", "6s", "7s"], ["8c", "8d", "8h"]])
    '5s 6s 7s|8c 8d 8h'
    """
    return "|".join(" ".join(meld) for meld in melds) or NO_MELDS


def arrangement_melds(value: str) -> list[list[str]]:
    """The melds of an :func:`arrangement_value`; :class:`RuleError` (``arrangement``) if bad."""
    if value == NO_MELDS:
        return []
    melds = []
    for part in value.split("|"):
        codes, problem = selection(part)
        if problem or not codes:
            raise RuleError("Choose the arrangement laid down from the list.", option="arrangement")
        melds.append(codes)
    return melds


def declare_play(
    hand: Mapping[str, Any], arrangement: str, layoffs: Any, prefix: str = ""
) -> dict[str, Any]:
    """A :func:`cards_input` hand with the play the table declares, when it declares one.

    ``arrangement`` is the chosen :func:`arrangement_value` (empty: not
    chosen, the hand is scored as the best play); ``layoffs`` the cards the
    defender laid off (checkbox values, without their melds: each goes where
    it fits, :func:`~scorekeeper.knock.place_layoffs`), or ``None`` for the
    defender's best layoffs. Raises :class:`RuleError` naming
    ``<prefix>arrangement`` or ``<prefix>layoffs`` (``g1_layoffs``: a game of
    a partnership deal, as :func:`cards_form_input` names its fields), in
    players' words.
    """
    try:
        if not arrangement:
            return dict(hand)
        melds = arrangement_melds(arrangement)
        declared: dict[str, Any] = {**hand, "knocker_melds": melds}
        if layoffs is None:
            return declared
        codes, problem = selection(layoffs)
        if problem:
            raise RuleError(problem, option="layoffs")
        try:
            placed = place_layoffs(melds, codes)
        except ScorekeeperError as error:
            raise RuleError(worded(error), option="layoffs") from error
    except RuleError as error:
        if not prefix:
            raise
        raise error.restate(str(error), field=prefix + str(error.field)) from error
    declared["layoffs"] = [x.to_dict() for x in placed]
    return declared


def check_cards(
    rules: Rules | Mapping[str, Any] | str | None,
    hand: Mapping[str, Any],
    seating: Seating | None = None,
    prefix: str = "",
) -> KnockResult:
    """Verify a :func:`cards_input` hand without storing it (the verify result).

    The melds and layoffs :func:`declare_play` adds are scored as declared.
    Errors are re-raised as :class:`RuleError` in players' words, naming the
    field: ``knocker_cards``, ``defender_cards``, ``upcard``, ``arrangement``
    or ``layoffs``; with a ``seating``, a hand's cards are named by the tap
    grid of the player concerned, ``<prefix>cards_<p>`` (and
    ``<prefix>upcard``), as :func:`cards_form_input` names them. A declared
    meld with a card the knocker no longer holds means the cards were
    changed after the arrangement was chosen, and says so.
    """
    try:
        return verify_knock(
            hand["knocker_cards"],
            hand["defender_cards"],
            rules=Rules.from_dict(rules),
            upcard=hand.get("upcard"),
            knocker_melds=hand.get("knocker_melds"),
            layoffs=hand.get("layoffs"),
        )
    except ScorekeeperError as error:
        field = _card_field(error)
        if field == "arrangement" and error.code == "card_not_in_hand":
            raise RuleError(
                "The cards changed after the arrangement was chosen: choose the"
                " arrangement laid down again.",
                option=field,
            ) from error
        if seating is not None:
            knocker = hand["knocker"]
            field = prefix + {
                "knocker_cards": f"cards_{knocker}",
                "upcard": "upcard",
                "defender_cards": f"cards_{seating.other(knocker)}",
            }.get(field, field)
        raise RuleError(worded(error), option=field) from error


def _card_field(error: ScorekeeperError) -> str:
    field = getattr(error, "field", None) or ""
    if field.startswith("knocker_melds"):
        return "arrangement"
    if field.startswith("layoffs"):
        return "layoffs"
    if field.startswith("defender"):
        return "defender_cards"
    if field == "upcard":
        return "upcard"
    return "knocker_cards"


def cards_form_input(
    rules: Rules | Mapping[str, Any] | str | None,
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


def _whole(value: Any, field: str, what: str, high: int) -> int:
    raw = str(value if value is not None else "").strip()
    if not re.fullmatch(r"\d{1,3}", raw):
        raise RuleError(f"Type {what} as a whole number, like 7.", option=field)
    number = int(raw)
    if number > high:
        raise RuleError(f"{what[0].upper()}{what[1:]} can be at most {high}.", option=field)
    return number


def _upcard(rules: Rules, upcard: Any) -> Any:
    if upcard in (None, ""):
        if rules.oklahoma:
            raise RuleError(
                "Pick the first upcard: in Oklahoma it sets the knock limit.", option="upcard"
            )
        return None
    try:
        return parse_card(upcard)
    except CardError:
        raise RuleError("Pick the first upcard from the list.", option="upcard") from None


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
    raise RuleError("Choose who went out.", option="knocker")


class Seating(NamedTuple):
    """Who plays one two-player hand of a game: the game's ``names``, the two
    ``seats`` (player indexes) of this hand and its ``dealer`` (with three
    players the dealer sits out; with four, the dealer of this game)."""

    names: Sequence[str]
    seats: tuple[int, int]
    dealer: int

    @property
    def sits_out(self) -> int | None:
        """The player who deals and sits out this hand (three players), else ``None``."""
        return self.dealer if len(self.names) == 3 else None

    def other(self, seat: int) -> int:
        """The opponent of ``seat`` in this hand."""
        return self.seats[1] if seat == self.seats[0] else self.seats[0]


def seatings(sheet: GameSheet, n: int | None = None) -> list[Seating]:
    """Who plays hand ``n`` of a game's sheet (``None``: the next hand).

    One seating for two or three players (three: the dealer sits out, the
    other two play), two for a partnership deal (its two games, in the
    sheet's order: ``next_games``, or the deal's ``games`` when correcting).
    """
    names = list(sheet.players)
    if len(names) == 4:
        games = sheet.next_games if n is None else sheet.hands[n - 1].games
        return [Seating(names, (game.players[0], game.players[1]), game.dealer) for game in games]
    dealer = sheet.next_dealer if n is None else sheet.hands[n - 1].dealer
    seats = (0, 1) if len(names) == 2 else tuple(p for p in range(3) if p != dealer)
    return [Seating(names, (seats[0], seats[1]), dealer)]


DEAL_FIELDS = ("knocker", "kind", "knocker_deadwood", "defender_deadwood", "upcard")
"""The quick fields of each game of a partnership deal form, prefixed ``g0_``, ``g1_``."""


def deal_input(
    rules: Rules | Mapping[str, Any] | str | None,
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
                quick_input(
                    rules,
                    given["knocker"],
                    given["kind"],
                    given["knocker_deadwood"],
                    given["defender_deadwood"],
                    given["upcard"],
                    seating=seating,
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
        where = "" if error.field == "body" else f" (at {error.field})"
        raise RecordError(
            f"This record cannot be kept: it has {error.message}{where}.", field="record"
        ) from None
    except ValueError as error:
        where = f"line {getattr(error, 'lineno', '?')}, column {getattr(error, 'colno', '?')}"
        raise RecordError(
            f"This is not a deal record: the JSON text breaks at {where}."
            " Paste the whole record, from { to }.",
            field="record",
        ) from None


def record_input(text: Any) -> dict[str, Any]:
    """The hand input of the record form: ``{"kind": "record", "record": {...}}``."""
    if isinstance(text, str) and not text.strip():
        raise RecordError("Paste a deal record first.", field="record")
    record = parse_record(text)
    if not isinstance(record, Mapping) or record.get("format") != DEAL_FORMAT:
        raise RecordError(
            f'This is not a deal record: it needs "format": "{DEAL_FORMAT}".', field="record"
        )
    return {"kind": "record", "record": record}
