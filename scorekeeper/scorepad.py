"""What the table-side scorepad shows, computed here so the web layer only renders.

The HTML pages in ``api/pad.py`` call these helpers: card labels for people
and screen readers, the 4 x 13 card grid, a hand entered the quick way (who
went out, knock or gin, two deadwood counts) or card by card, checked with
messages for players and turned into the hand inputs of
:mod:`scorekeeper.hands` (which scores them), the verified showdown as shown
(with what the defender could have laid off), one-line hand summaries, the
running-totals chart geometry and player-facing wording of domain errors.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .cards import DECK, RANKS, SUIT_NAMES, SUIT_SYMBOLS, parse_card, parse_cards
from .errors import CardError, RecordError, RuleError, ScorekeeperError
from .hands import MAX_DEADWOOD
from .knock import verify_knock
from .melds import arrangements
from .records import DEAL_FORMAT
from .rules import PRESETS, Rules

GRID_SUITS = "shdc"
"""Row order of the card grid: spades, hearts, diamonds, clubs (colours alternate)."""

OUTCOME_LABELS = {"knock": "knock", "gin": "gin", "big_gin": "big gin",
                  "undercut": "undercut", "void": "void"}

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
}

CHOICE_LABELS = {
    "ace_upcard": {"gin_only": "gin only", "one": "knock with 1"},
    "shutout": {"double_bonus": "double the game bonus", "double_total": "double the total"},
    "next_dealer": {"winner": "the winner", "loser": "the loser", "alternate": "take turns"},
    "wall": {"void_at_two": "the hand is void",
             "knock_only_at_two": "only a knock from the discard"},
    "scoring": {"single": "one game", "hollywood": "Hollywood (three games)"},
}

PRESET_NOTES = {
    "standard": "Knock with 10 or less; gin 25, undercut 25, box 25, game 100, to 100.",
    "classic": "Older scoring: gin 20, undercut 10, box 20.",
    "modern": "Big gin 31; a shutout doubles the winner's total.",
    "oklahoma": "The first upcard sets the knock limit, spades double, to 150.",
    "straight": "No knocking: only gin ends a hand.",
    "hollywood": "Three games scored at once.",
}


# ----------------------------------------------------------------------------- cards


def card_info(card: Any) -> dict[str, str]:
    """A card as the pages show it.

    >>> card_info("Ts")["label"], card_info("Ts")["name"]
    ('10♠', 'ten of spades')
    """
    card = parse_card(card)
    rank = RANKS[card.rank]
    return {
        "code": card.code,
        "rank": "10" if rank == "T" else rank,
        "suit": card.suit,
        "symbol": SUIT_SYMBOLS[card.suit],
        "label": ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card.suit],
        "name": card.name,
        "suit_name": SUIT_NAMES[card.suit],
    }


def cards_info(cards: Any) -> list[dict[str, str]]:
    """:func:`card_info` of each card, in the given order."""
    return [card_info(card) for card in parse_cards(cards)] if cards else []


def card_grid() -> list[dict[str, Any]]:
    """The 4 x 13 tap grid: one row per suit (``GRID_SUITS`` order), ace to king."""
    return [{"suit": suit, "suit_name": SUIT_NAMES[suit], "symbol": SUIT_SYMBOLS[suit],
             "cards": [card_info(card) for card in DECK if card.suit == suit]}
            for suit in GRID_SUITS]


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


def live_melds(cards: Any) -> dict[str, Any]:
    """The live read-out while cards are tapped: deadwood and the best melds.

    ``{"count", "deadwood", "melds", "deadwood_cards", "ties"}``; the cards
    are lists of :func:`card_info`. Raises :class:`CardError` for bad cards.
    """
    codes = parse_cards(cards)
    if not codes:
        return {"count": 0, "deadwood": 0, "melds": [], "deadwood_cards": [], "ties": 0}
    found = arrangements(codes)
    best = found[0]
    return {"count": len(codes), "deadwood": best["deadwood"],
            "melds": [cards_info(meld) for meld in best["melds"]],
            "deadwood_cards": cards_info(best["deadwood_cards"]), "ties": len(found) - 1}


# ----------------------------------------------------------------------------- rules form


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
            field.update(kind="bool", choices=[("on", "on"), ("off", "off")],
                         value="on" if values[name] else "off")
        elif name == "big_gin_bonus":
            field.update(kind="optional_number", min=0, max=10_000,
                         value="" if values[name] is None else values[name])
        else:
            field.update(kind="number", min=1 if name == "target" else 0,
                         max=10 if name == "knock_limit" else 10_000)
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
    shown = preset_values().get(shown_name, preset_values()[name])
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
                raise RuleError(f"Choose one of the listed values for {key}.", option=key)
            overrides[key] = raw
        else:
            if raw == "" and field["kind"] == "optional_number":
                overrides[key] = None
                continue
            if not re.fullmatch(r"\d{1,5}", raw):
                raise RuleError(f"Type a whole number from {field['min']} to {field['max']}.",
                                option=key)
            overrides[key] = int(raw)
    try:
        return Rules.preset(name, **overrides)
    except RuleError as error:
        raise RuleError(friendly(error), option=error.option) from None


# ----------------------------------------------------------------------------- hands


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
            raise RuleError("Pick the first upcard: in Oklahoma it sets the knock limit.",
                            option="upcard")
        return None
    try:
        return parse_card(upcard)
    except CardError:
        raise RuleError("Pick the first upcard from the list.", option="upcard") from None


def _knocker(value: Any) -> int:
    if str(value) not in ("0", "1"):
        raise RuleError("Choose who went out.", option="knocker")
    return int(value)


def quick_input(
    rules: Rules | Mapping[str, Any] | str | None,
    knocker: Any,
    kind: Any,
    knocker_deadwood: Any = None,
    defender_deadwood: Any = None,
    upcard: Any = None,
) -> dict[str, Any]:
    """The hand input (:mod:`scorekeeper.hands`) of the quick form, checked.

    ``kind`` is ``knock``, ``gin``, ``big_gin`` or ``void`` (the stock ran
    out); ``knocker`` the seat (0 or 1) of the player who went out; the
    deadwood counts are the form's text, the defender's after layoffs. A
    knock with 0 deadwood is a gin (RULES.md 5). Raises :class:`RuleError`
    whose ``option`` names the form field and whose message is for players;
    scoring is left to :func:`~scorekeeper.hands.evaluate_hand`.
    """
    rules = Rules.from_dict(rules)
    if kind == "void":
        return {"kind": "void"}
    if kind not in ("knock", "gin", "big_gin"):
        raise RuleError("Choose knock, gin or void.", option="kind")
    seat = _knocker(knocker)
    if kind == "big_gin" and rules.big_gin_bonus is None:
        raise RuleError("Big gin is not played under these rules.", option="kind")
    up = _upcard(rules, upcard)
    limit = rules.knock_limit_for(up)
    if kind == "knock":
        k = _whole(knocker_deadwood, "knocker_deadwood", "the deadwood of who went out",
                   MAX_DEADWOOD)
        if k and limit == 0:
            why = ("these rules" if not rules.oklahoma
                   else f"the upcard {card_info(up)['label']}")
            raise RuleError(f"Under {why} only gin ends a hand: no knocking.", option="kind")
        if k > limit:
            raise RuleError(f"A knock needs {limit} or less deadwood; {k} is too much.",
                            option="knocker_deadwood")
    else:
        k = 0
        if str(knocker_deadwood or "0").strip() not in ("", "0"):
            raise RuleError("Gin means no deadwood: leave it at 0 or choose knock.",
                            option="knocker_deadwood")
    d = _whole(defender_deadwood, "defender_deadwood", "the other player's deadwood",
               MAX_DEADWOOD)
    hand: dict[str, Any] = {"kind": "quick", "knocker": seat, "knocker_deadwood": k,
                            "defender_deadwood": d}
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
) -> dict[str, Any]:
    """The hand input of the card form, checked (fields ``knocker_cards`` etc.).

    The cards are lists of codes (the tapped checkboxes) or text. Counts,
    unknown and repeated cards, and a card in both hands give messages for
    players; the knock itself is checked by :func:`verify_knock`.
    """
    rules = Rules.from_dict(rules)
    seat = _knocker(knocker)
    mine, problem = selection(knocker_cards)
    if problem:
        raise RuleError(problem, option="knocker_cards")
    theirs, problem = selection(defender_cards)
    if problem:
        raise RuleError(problem, option="defender_cards")
    both = [code for code in theirs if code in mine]
    if both:
        raise RuleError(f"{card_info(both[0])['label']} is tapped for both players; a card"
                        " can be in one hand only.", option="defender_cards")
    allowed = (10, 11) if rules.big_gin_bonus is not None else (10,)
    if len(mine) not in allowed:
        need = "10 cards (11 for big gin)" if len(allowed) == 2 else "10 cards"
        raise RuleError(f"Tap {need} for who went out; {len(mine)} tapped.",
                        option="knocker_cards")
    if len(theirs) != 10:
        raise RuleError(f"Tap 10 cards for the other player; {len(theirs)} tapped.",
                        option="defender_cards")
    up = _upcard(rules, upcard)
    hand: dict[str, Any] = {"kind": "cards", "knocker": seat, "knocker_cards": mine,
                            "defender_cards": theirs}
    if up is not None:
        hand["upcard"] = up.code
    return hand


def check_cards(rules: Rules | Mapping[str, Any] | str | None,
                hand: Mapping[str, Any]) -> dict[str, Any]:
    """Verify a :func:`cards_input` hand without storing it (the verify result).

    Errors are re-raised as :class:`RuleError` in players' words, naming the field.
    """
    try:
        return verify_knock(hand["knocker_cards"], hand["defender_cards"],
                            rules=Rules.from_dict(rules), upcard=hand.get("upcard"))
    except ScorekeeperError as error:
        raise RuleError(friendly(error), option=_card_field(error)) from None


def _card_field(error: ScorekeeperError) -> str:
    field = getattr(error, "field", None) or ""
    if field.startswith("defender") or field == "layoffs":
        return "defender_cards"
    if field == "upcard":
        return "upcard"
    return "knocker_cards"


def could_lay_off(showdown: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every defender card that fits on a knocker meld, with the meld.

    This ignores the defender's own melds (a card used in one could still
    have been laid off instead) and whether layoffs were allowed (none
    against gin), so the page can show what was possible.
    """
    held = {parse_card(c) for c in showdown["defender"]["cards"]}
    found = []
    for meld_codes in showdown["knocker"]["melds"]:
        meld = [parse_card(c) for c in meld_codes]
        if len({c.rank for c in meld}) == 1:
            fits = [c for c in held if c.rank == meld[0].rank] if len(meld) == 3 else []
        else:
            suit = meld[0].suit
            low, high = min(c.rank for c in meld), max(c.rank for c in meld)
            fits = []
            for step, start in ((-1, low - 1), (1, high + 1)):
                rank = start
                while 0 <= rank < 13 and DECK["cdhs".index(suit) * 13 + rank] in held:
                    fits.append(DECK["cdhs".index(suit) * 13 + rank])
                    rank += step
        for card in sorted(fits):
            found.append({"card": card_info(card), "meld": cards_info(meld_codes)})
    return found


def showdown_view(showdown: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """A verified showdown as the pages show it (cards as :func:`card_info`)."""
    k, d, b = showdown["knocker"], showdown["defender"], showdown["breakdown"]
    knocker, defender = names
    outcome = showdown["outcome"]
    winner = knocker if showdown["winner"] == "knocker" else defender
    if outcome == "undercut":
        headline = f"Undercut! {defender} scores {showdown['points']}."
    elif outcome in ("gin", "big_gin"):
        headline = f"{OUTCOME_LABELS[outcome].capitalize()}! {knocker} scores" \
                   f" {showdown['points']}."
    else:
        headline = f"{knocker} knocks and scores {showdown['points']}."
    headline = headline[:1].upper() + headline[1:]
    sums = [f"{b['difference']} deadwood difference"]
    if b["bonus"]:
        sums.append(f"{b['bonus']} {OUTCOME_LABELS[outcome]} bonus")
    line = " + ".join(sums)
    if b["multiplier"] != 1:
        line = f"({line}) x {b['multiplier']} for the spade upcard"
    laid = [{"card": card_info(x["card"]), "meld": cards_info(x["meld"])} for x in d["layoffs"]]
    laid_codes = {x["card"] for x in d["layoffs"]}
    possible = could_lay_off(showdown)
    return {
        "outcome": outcome, "label": OUTCOME_LABELS[outcome], "winner": winner,
        "points": showdown["points"], "headline": headline, "breakdown": f"{line} ="
        f" {showdown['points']}",
        "knocker": {"name": knocker, "melds": [cards_info(m) for m in k["melds"]],
                    "deadwood_cards": cards_info(k["deadwood_cards"]), "deadwood": k["deadwood"]},
        "defender": {"name": defender, "melds": [cards_info(m) for m in d["melds"]],
                     "deadwood_cards": cards_info(d["deadwood_cards"]),
                     "deadwood": d["deadwood"], "best_deadwood": d["best_deadwood"],
                     "layoffs": laid},
        "could_lay_off": possible,
        "missed": [x for x in possible if x["card"]["code"] not in laid_codes],
        "gin": outcome in ("gin", "big_gin"),
    }


def describe_hand(hand: Mapping[str, Any], names: Sequence[str]) -> str:
    """One line for the hand list: ``Ana knocked: 12`` / ``Bor undercut Ana: 29``."""
    if hand.get("void"):
        return "Void hand: nobody scores"
    winner, loser = names[hand["winner"]], names[hand["loser"]]
    outcome = hand["outcome"]
    verb = {"knock": f"{winner} knocked", "gin": f"{winner} went gin",
            "big_gin": f"{winner} went big gin", "undercut": f"{winner} undercut {loser}"}
    return f"{verb.get(outcome, winner)}: {hand['points']}"


def badge(hand: Mapping[str, Any]) -> str:
    """The outcome badge of a hand record: knock, gin, big_gin, undercut or void."""
    return "void" if hand.get("void") else hand.get("outcome") or "void"


# ----------------------------------------------------------------------------- chart


def chart(sheet: Mapping[str, Any], width: int = 320, height: int = 140) -> dict[str, Any]:
    """Geometry of the running-totals line chart (inline SVG).

    ``{"width", "height", "lines": [{"player", "points" (SVG polyline),
    "last": (x, y), "total"}], "target_y", "top"}``; x is the hand number,
    y the total (0 at the bottom), scaled into a ``width`` x ``height`` box
    with a small margin. Totals are per player (per team with four).
    """
    hands = sheet["hands"]
    series_count = len(sheet["totals"])
    rows = [[0] * series_count] + [list(h["totals"]) for h in hands]
    target = sheet["rules"]["target"]
    top = max([target] + [t for row in rows for t in row])
    pad_x, pad_top, pad_bottom = 8, 8, 8
    span_x = max(len(rows) - 1, 1)

    def x(i: int) -> float:
        return round(pad_x + i * (width - 2 * pad_x) / span_x, 1)

    def y(v: int) -> float:
        return round(height - pad_bottom - v * (height - pad_top - pad_bottom) / top, 1)

    lines = []
    for p in range(series_count):
        coords = [(x(i), y(row[p])) for i, row in enumerate(rows)]
        lines.append({"player": p, "points": " ".join(f"{a},{b}" for a, b in coords),
                      "last": coords[-1], "total": rows[-1][p]})
    return {"width": width, "height": height, "lines": lines, "target_y": y(target),
            "top": top, "target": target}


# ----------------------------------------------------------------------------- words


_CODE = re.compile(r"\b([A2-9TJQK])([cdhs])\b")


def friendly(error: BaseException) -> str:
    """A domain error message in words a player understands.

    Strips the field prefix (the message is shown next to the field), and
    writes card codes with suit symbols (``T♠`` becomes ``10♠``).
    """
    message = str(error.args[0]) if error.args else str(error)
    message = re.sub(r"^(knocker|defender|upcard|record)(\[\d+\])?: ", "", message)
    message = re.sub(r"^expected 10 or 11 cards, got (\d+)$",
                     r"Tap 10 cards (11 for big gin); \1 tapped so far.", message)
    message = re.sub(r"^expected 10 cards, got (\d+)$", r"Tap 10 cards; \1 tapped so far.",
                     message)
    message = re.sub(r"^deadwood (\d+) exceeds the knock limit (\d+)",
                     r"These cards leave \1 deadwood; a knock needs \2 or less", message)
    message = _CODE.sub(lambda m: card_info(m.group(0))["label"], message)
    message = message[:1].upper() + message[1:]
    return message if message.endswith((".", "!", "?")) else message + "."


# ----------------------------------------------------------------------------- starting a game


def game_from_form(form: Mapping[str, Any], rng: Any = None
                   ) -> tuple[dict[str, Any], dict[str, str]]:
    """The settings of a new game from the start form, and every problem found.

    Returns ``({"players", "rules" (a Rules), "dealer", "stake"}, errors)``
    where ``errors`` maps form fields (``player_0``, ``player_1``, an
    option name, ``dealer``, ``stake``) to messages for players; the
    settings are only complete when ``errors`` is empty. ``dealer`` may be
    ``cut``: ``rng.randrange(2)`` (default :mod:`secrets`) picks the dealer.
    """
    import secrets

    errors: dict[str, str] = {}
    names = [str(form.get(f"player_{i}", "")).strip() for i in (0, 1)]
    for i, name in enumerate(names):
        if not name:
            errors[f"player_{i}"] = "Type a name for this player."
        elif len(name) > 40:
            errors[f"player_{i}"] = "Keep the name under 40 letters."
    if names[0] and names[0].casefold() == names[1].casefold():
        errors["player_1"] = "The two players need different names."
    rules = None
    try:
        rules = rules_from_form(form)
    except RuleError as error:
        errors[error.option or "preset"] = str(error)
    dealer_raw = str(form.get("dealer", "0"))
    if dealer_raw == "cut":
        dealer = (rng.randrange(2) if rng is not None else secrets.randbelow(2))
    elif dealer_raw in ("0", "1"):
        dealer = int(dealer_raw)
    else:
        dealer = 0
        errors["dealer"] = "Choose who deals first."
    stake = None
    raw = str(form.get("stake", "")).strip().replace(",", ".")
    if raw:
        if not re.fullmatch(r"\d{1,6}(\.\d{1,4})?", raw):
            errors["stake"] = "Type the stake per point as a number, like 0.05, or leave it empty."
        else:
            stake = float(raw)
    return {"players": names, "rules": rules, "dealer": dealer, "stake": stake}, errors


# ----------------------------------------------------------------------------- the sheet


def _money(amount: float) -> str:
    return f"{amount:.2f}"


def _result_view(result: Mapping[str, Any], names: Sequence[str], rules: Mapping[str, Any],
                 boxes: Sequence[int]) -> dict[str, Any]:
    """One finished game's bonuses itemised (a ``score_sheet`` result, the boxes won)."""
    winner = result["winner"]
    rows = []
    for p, name in enumerate(names):
        items = [("Hand points", result["totals"][p])]
        items.append((f"Box bonus ({rules['box_bonus']} a box)", result["box_bonus"][p]))
        if p == winner:
            label = "Game bonus"
            if result["shutout"] and rules["shutout"] == "double_bonus":
                label += " (doubled: shutout)"
            items.append((label, result["game_bonus"]))
            if result["shutout"] and rules["shutout"] == "double_total":
                subtotal = sum(v for _, v in items)
                items.append(("Shutout: total doubled", subtotal))
        rows.append({"name": name, "items": items, "final": result["final"][p],
                     "winner": p == winner, "boxes": boxes[p]})
    return {"winner": names[winner], "loser": names[1 - winner], "rows": rows,
            "table": _table(rows), "shutout": result["shutout"], "net": result["net"],
            "settlement": _settlement(result.get("settlement"), names)}


def _table(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per-player items as table rows: ``{"label", "values": [per player, None if absent]}``."""
    labels: list[str] = []
    for row in rows:
        labels += [label for label, _ in row["items"] if label not in labels]
    return [{"label": label, "values": [dict(row["items"]).get(label) for row in rows]}
            for label in labels]


def _settlement(settlement: Mapping[str, Any] | None, names: Sequence[str]) -> str | None:
    if not settlement:
        return None
    if settlement["amount"] == 0:
        return "Nobody pays anything."
    return (f"{names[settlement['payer']]} pays {names[settlement['payee']]}"
            f" {_money(settlement['amount'])}.")


def sheet_view(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """Everything the score sheet page shows, from a two-player ``game_sheet``.

    Players with totals, boxes, points still needed and who deals next;
    the hand list with badges and one-line summaries; the chart; the
    Hollywood columns; and, once over, the bonuses itemised with the final
    totals, net and settlement.
    """
    names = list(sheet["players"])
    rules = sheet["rules"]
    hollywood = sheet.get("scoring") == "hollywood"
    players = []
    for p, name in enumerate(names):
        players.append({"index": p, "name": name, "total": sheet["totals"][p],
                        "boxes": sheet["boxes"][p], "needed": sheet["needed"][p],
                        "deals_next": sheet["next_dealer"] == p and not sheet["over"]})
    hands = []
    for hand in sheet["hands"]:
        hands.append({"n": hand["n"], "badge": badge(hand), "label":
                      OUTCOME_LABELS[badge(hand)], "text": describe_hand(hand, names),
                      "dealer": names[hand["dealer"]], "totals": hand["totals"],
                      "winner": hand.get("winner"), "corrected": hand.get("corrected", False),
                      "kind": hand.get("kind"),
                      "columns": [c + 1 for c in hand.get("columns", [])]})
    view: dict[str, Any] = {
        "names": names, "players": players, "hands": hands, "rules": rules,
        "hollywood": hollywood, "over": sheet["over"], "target": rules["target"],
        "next_dealer": names[sheet["next_dealer"]], "chart": chart(sheet),
        "stake": sheet.get("stake"), "result": None, "columns": [],
        "title": f"{names[0]} vs {names[1]}",
        "rules_line": rules_summary(rules),
    }
    if hollywood:
        for col in sheet["columns"]:
            view["columns"].append({
                "game": col["game"], "totals": col["totals"], "boxes": col["boxes"],
                "needed": col["needed"], "opened": col["opened"], "over": col["over"],
                "winner": names[col["result"]["winner"]] if col["result"] else None,
                "result": (_result_view(col["result"], names, rules, col["boxes"])
                           if col["result"] else None),
            })
    result = sheet.get("result")
    if result:
        if hollywood:
            winner = result["winner"]
            view["result"] = result_view = {
                "winner": names[winner] if winner is not None else None,
                "rows": [{"name": name, "final": result["final"][p],
                          "items": [("Hand points, three games", result["totals"][p]),
                                    ("Box bonuses", result["box_bonus"][p]),
                                    ("Game bonuses", result["game_bonuses"][p])],
                          "winner": p == winner} for p, name in enumerate(names)],
                "net": result["net"], "shutout": any(result["shutouts"]),
                "table": None,
                "settlement": _settlement(result.get("settlement"), names),
            }
            result_view["table"] = _table(result_view["rows"])
        else:
            view["result"] = _result_view(result, names, rules, sheet["boxes"])
    return view


def rules_summary(rules: Mapping[str, Any]) -> str:
    """A short line naming the preset and what differs from it."""
    current = Rules.from_dict(dict(rules))
    changed = current.differences()
    text = f"{current.based_on} rules"
    if changed:
        text += " with " + ", ".join(f"{k.replace('_', ' ')} {_show(v)}"
                                     for k, v in changed.items())
    return text


def _show(value: Any) -> str:
    if value is None:
        return "not allowed"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value).replace("_", " ")


# ----------------------------------------------------------------------------- records and replay


def parse_record(text: Any) -> Any:
    """A pasted deal record (JSON text) as data; :class:`RecordError` in players' words."""
    if not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except ValueError as error:
        where = f"line {getattr(error, 'lineno', '?')}, column {getattr(error, 'colno', '?')}"
        raise RecordError(f"This is not a deal record: the JSON text breaks at {where}."
                          " Paste the whole record, from { to }.", field="record") from None


def record_input(text: Any) -> dict[str, Any]:
    """The hand input of the record form: ``{"kind": "record", "record": {...}}``."""
    if isinstance(text, str) and not text.strip():
        raise RecordError("Paste a deal record first.", field="record")
    record = parse_record(text)
    if not isinstance(record, Mapping) or record.get("format") != DEAL_FORMAT:
        raise RecordError(f"This is not a deal record: it needs \"format\": \"{DEAL_FORMAT}\".",
                          field="record")
    return {"kind": "record", "record": record}


_VERB_WORDS = {"pass": "passes", "draw stock": "draws from the stock",
               "draw discard": "takes", "discard": "discards", "knock": "knocks, discarding",
               "gin": "goes gin, discarding", "big gin": "goes big gin"}


def replay_steps(record: Any, names: Sequence[str] | None = None,
                 rules: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Every state of a recorded deal, for the step-by-step viewer.

    Step 0 is the deal; each later step follows one action; the last is the
    showdown (or the void hand). Each step is ``{"n", "text" (what just
    happened), "hands": [{"name", "cards", "count", "deadwood", "to_act"}],
    "upcard", "pile" (bottom first), "top", "stock", "new" (card codes
    that just moved), "showdown" (a :func:`showdown_view` on the last step),
    "void"}``. ``names`` label the players (default: the record's); with
    ``rules`` (a stored game's) the record is replayed under the game's rules
    and players, as :func:`~scorekeeper.hands.evaluate_hand` scored it.
    Raises :class:`RecordError` like :func:`~scorekeeper.replay`.
    """
    from .engine import SHOWDOWN
    from .records import SHOWDOWN_KEYS, load_deal

    if rules is not None and isinstance(record, Mapping):
        record = {**record, "format": record.get("format", DEAL_FORMAT),
                  "rules": dict(rules), "players": list(names or ())}
    deal, actions, declared = load_deal(record)
    labels = list(names) if names else list(deal.names)

    def snapshot(n: int, text: str, moved: Sequence[str] = ()) -> dict[str, Any]:
        acting = None if deal.over or deal.phase == SHOWDOWN else deal.turn
        hands = []
        for p in (0, 1):
            cards = sorted(deal.hand(p), key=lambda c: (GRID_SUITS.index(c.suit), c.rank))
            hands.append({"name": labels[p], "cards": cards_info(cards), "count": len(cards),
                          "deadwood": deadwood_of(cards), "to_act": acting == p,
                          "dealer": deal.dealer == p})
        pile = deal.discard_pile
        return {"n": n, "text": text, "hands": hands, "upcard": card_info(deal.upcard),
                "pile": cards_info(pile), "top": card_info(pile[-1]) if pile else None,
                "stock": deal.stock_left, "new": list(moved), "showdown": None, "void": False,
                "knock_limit": deal.knock_limit}

    steps = [snapshot(0, f"{labels[deal.dealer]} deals. The upcard is"
                         f" {card_info(deal.upcard)['label']}; {labels[1 - deal.dealer]}"
                         " may take it or pass.", ())]
    for index, action in enumerate(actions):
        player = deal.turn
        before = {c.code for c in deal.hand(player)}
        try:
            if type(action) is not str:
                raise RuleError(f"an action must be text, not {action!r}", option="actions")
            deal.apply(action)
        except (RuleError, CardError) as error:
            raise RecordError(f"Step {index + 1} ({action!r}) is not legal: {friendly(error)}",
                              step=index, field="record") from None
        after = {c.code for c in deal.hand(player)}
        moved = sorted(after - before) + sorted(before - after)
        steps.append(snapshot(index + 1, _action_text(labels[player], action, after - before,
                                                     deal.void), moved))
    if deal.phase == SHOWDOWN:
        chosen = {k: declared[k] for k in SHOWDOWN_KEYS
                  if declared is not None and declared.get(k) is not None}
        try:
            result = deal.showdown(**chosen)
        except (RuleError, CardError) as error:
            raise RecordError(f"The showdown is not legal: {friendly(error)}",
                              field="record") from None
        knocker = result["knocker_player"]
        last = snapshot(len(steps), "Showdown.")
        last["showdown"] = showdown_view(result, [labels[knocker], labels[1 - knocker]])
        last["text"] = last["showdown"]["headline"]
        steps.append(last)
    elif deal.over:
        steps[-1]["void"] = True
        steps[-1]["text"] += " The stock is down to two cards: the hand is void."
    else:
        raise RecordError("The record stops before the hand is over.", step=len(actions),
                          field="record")
    return steps


def deadwood_of(cards: Any) -> int:
    """The best deadwood of some cards (10 or 11 after a draw)."""
    return arrangements(cards)[0]["deadwood"] if cards else 0


def _action_text(name: str, action: str, drawn: set[str], void: bool) -> str:
    words = action.split()
    verb = " ".join(words[:-1]) if len(words) == 2 and words[0] in ("discard", "knock", "gin") \
        else action
    text = f"{name} {_VERB_WORDS.get(verb.lower(), verb)}"
    if verb == "draw discard" and drawn:
        text += " " + card_info(next(iter(drawn)))["label"]
    elif verb == "draw discard":
        text += " the discard"
    if len(words) == 2 and words[0] in ("discard", "knock", "gin"):
        text += " " + card_info(words[1])["label"]
    return text + "."


# ----------------------------------------------------------------------------- one hand


def hand_view(record: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """One hand of the sheet as its page shows it: summary, input and showdown."""
    given = record.get("input") or {}
    kind = given.get("kind", "quick")
    view: dict[str, Any] = {"n": record["n"], "badge": badge(record),
                            "label": OUTCOME_LABELS[badge(record)],
                            "text": describe_hand(record, names), "kind": kind,
                            "dealer": names[record["dealer"]], "totals": record["totals"],
                            "corrected": record.get("corrected", False), "showdown": None,
                            "counts": None, "upcard": None, "replay": kind == "record"}
    detail = record.get("detail")
    if given.get("upcard"):
        view["upcard"] = card_info(given["upcard"])
    if kind in ("cards", "record") and detail and detail.get("knocker"):
        knocker = given.get("knocker", detail.get("knocker_player"))
        view["showdown"] = showdown_view(detail, [names[knocker], names[1 - knocker]])
        if detail.get("upcard"):
            view["upcard"] = card_info(detail["upcard"])
    elif kind == "quick":
        knocker = given["knocker"]
        view["counts"] = {"knocker": names[knocker], "defender": names[1 - knocker],
                          "knocker_deadwood": given["knocker_deadwood"],
                          "defender_deadwood": given["defender_deadwood"],
                          "breakdown": _breakdown_line(detail) if detail else None}
    return view


def _breakdown_line(detail: Mapping[str, Any]) -> str:
    b = detail["breakdown"]
    line = f"{b['difference']} deadwood difference"
    if b["bonus"]:
        line += f" + {b['bonus']} {OUTCOME_LABELS[detail['outcome']]} bonus"
    if b["multiplier"] != 1:
        line = f"({line}) x {b['multiplier']} for the spade upcard"
    return f"{line} = {detail['points']}"
