"""Cards and domain errors as the scorepad writes them for people.

A card has a label (``10♠``), a name for screen readers (``ten of spades``)
and a place in the 4 x 13 tap grid; an error from the domain is worded
for the player who caused it from its code and params (:func:`worded`,
:data:`WORDINGS`), never by rewriting its English message. The other
scorepad modules write cards and errors only through these.

Player names are written isolated, so that a name in a right-to-left
script (or any name) can never reorder the text around it: in HTML in a
``<bdi>`` element (:func:`bdi`, also the templates' ``bdi`` filter), in
displayed plain text (a page title, a tooltip) between U+2068 FIRST STRONG
ISOLATE and U+2069 POP DIRECTIONAL ISOLATE (:func:`isolated`, the
``isolated`` filter). Text that is read out but never laid out (an
``aria-label``, an SVG ``<desc>``) keeps the bare name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from flask_babel import pgettext
from markupsafe import Markup

from scorekeeper.cards import DECK, SUIT_SYMBOLS, parse_card, parse_cards
from scorekeeper.errors import RecordError, ScorekeeperError
from scorekeeper.sheet import TEAMS

from ..i18n import current_language
from .card_letters import shown_rank

GRID_SUITS = "shdc"
"""Row order of the card grid: spades, hearts, diamonds, clubs (colours alternate)."""


def bdi(name: str) -> Markup:
    """A name for HTML: ``<bdi>name</bdi>``, the name escaped."""
    return Markup("<bdi>{}</bdi>").format(name)


def isolated(name: str) -> str:
    """A name for plain text: between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE."""
    return f"\u2068{name}\u2069"


def side_names(names: Sequence[str]) -> list[str]:
    """The sides of a game in plain text: the players, or with four the two
    partnerships (``Ana & Cy``, :data:`~scorekeeper.sheet.TEAMS`)."""
    if len(names) != 4:
        return list(names)
    return [" & ".join(names[p] for p in team) for team in TEAMS]


def sides_html(names: Sequence[str]) -> list[Markup]:
    """:func:`side_names` for HTML, each name in its own ``<bdi>``."""
    if len(names) != 4:
        return [bdi(name) for name in names]
    return [Markup(" &amp; ").join(bdi(names[p]) for p in team) for team in TEAMS]


def matchup(names: Sequence[str]) -> Markup:
    """Who plays whom, for a heading: ``Ana vs Bor``, ``Ana vs Bor vs Cy``, ``Ana & Cy
    vs Bor & Dan`` (HTML, names isolated; also the templates' ``matchup`` filter)."""
    return Markup(" vs ").join(sides_html(names))


def game_title(names: Sequence[str]) -> str:
    """A game's plain-text title (a page's ``<title>``): ``Ana vs Bor``, names isolated."""
    if len(names) == 4:
        return " vs ".join(" & ".join(isolated(names[p]) for p in team) for team in TEAMS)
    return " vs ".join(isolated(name) for name in names)


def point_count(n: int) -> str:
    """``1 point``, ``12 points``."""
    return f"{n} point{'' if n == 1 else 's'}"


def capfirst(text: str) -> str:
    """The text with its first letter capitalised (a generic label that starts a sentence)."""
    return text[:1].upper() + text[1:]


def _rank_names() -> dict[str, str]:
    # Translators: a rank as it is named in a card's name ("ten" of "ten of spades").
    return {
        "A": pgettext("rank", "ace"),
        "2": pgettext("rank", "two"),
        "3": pgettext("rank", "three"),
        "4": pgettext("rank", "four"),
        "5": pgettext("rank", "five"),
        "6": pgettext("rank", "six"),
        "7": pgettext("rank", "seven"),
        "8": pgettext("rank", "eight"),
        "9": pgettext("rank", "nine"),
        "T": pgettext("rank", "ten"),
        "J": pgettext("rank", "jack"),
        "Q": pgettext("rank", "queen"),
        "K": pgettext("rank", "king"),
    }


def _suit_names() -> dict[str, str]:
    # Translators: a suit as it is named in a card's name ("spades" of "ten of spades").
    return {
        "c": pgettext("suit in a card's name", "clubs"),
        "d": pgettext("suit in a card's name", "diamonds"),
        "h": pgettext("suit in a card's name", "hearts"),
        "s": pgettext("suit in a card's name", "spades"),
    }


def suit_name(suit: str) -> str:
    """A suit's name as a heading of its cards (the grid's rows): ``spades``."""
    # Translators: the name of a suit heading its cards (a row of the card grid).
    names = {
        "c": pgettext("suit", "clubs"),
        "d": pgettext("suit", "diamonds"),
        "h": pgettext("suit", "hearts"),
        "s": pgettext("suit", "spades"),
    }
    return names[suit]


def card_info(card: Any) -> dict[str, str]:
    """A card as the pages show it, in the request's language: its rank with the letter
    the language's decks print (:mod:`api.pad.card_letters`: ``V♠`` in French), its name
    for screen readers (``ten of spades``).

    >>> card_info("Ts")["label"], card_info("Ts")["name"]
    ('10♠', 'ten of spades')
    """
    card = parse_card(card)
    rank, name, suit = _card_words(card.code, current_language())
    return {
        "code": card.code,
        "rank": rank,
        "suit": card.suit,
        "symbol": SUIT_SYMBOLS[card.suit],
        "label": rank + SUIT_SYMBOLS[card.suit],
        "name": name,
        "suit_name": suit,
    }


@cache
def _card_words(code: str, lang: str) -> tuple[str, str, str]:
    """The rank shown, the name and the suit's name of the card ``code`` in ``lang`` (the
    request's): worded once per process, the catalogs do not change while it runs."""
    rank, suit = code[0], code[1]
    # Translators: a card's name, read out by screen readers: "ten of spades".
    name = pgettext(
        "card", "%(rank)s of %(suit)s", rank=_rank_names()[rank], suit=_suit_names()[suit]
    )
    return shown_rank(rank, lang), name, suit_name(suit)


def cards_info(cards: Any) -> list[dict[str, str]]:
    """:func:`card_info` of each card, in the given order."""
    return [card_info(card) for card in parse_cards(cards)] if cards else []


def card_grid() -> list[dict[str, Any]]:
    """The 4 x 13 tap grid: one row per suit (``GRID_SUITS`` order), ace to king."""
    return [
        {
            "suit": suit,
            "suit_name": suit_name(suit),
            "symbol": SUIT_SYMBOLS[suit],
            "cards": [card_info(card) for card in DECK if card.suit == suit],
        }
        for suit in GRID_SUITS
    ]


def _label(code: str) -> str:
    return card_info(code)["label"]


def _labels(codes: Any) -> str:
    return " ".join(_label(code) for code in codes)


def _wrong_count(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    field = error.field or ""
    if field.startswith("hands["):  # a deal record's hand: nothing was tapped
        seat = int(field[6:-1]) + 1 if field[6:-1].isdigit() else "a"
        return (
            f"Player {seat}'s hand in the record has {p['count']} cards; a hand has"
            f" {' or '.join(map(str, p['expected']))}"
        )
    if field == "stock":
        return (
            f"The record's stock has {p['count']} cards; after the deal it has"
            f" {' or '.join(map(str, p['expected']))}"
        )
    if p["expected"] == [10, 11]:
        return f"Tap 10 cards (11 for big gin); {p['count']} tapped so far"
    if p["expected"] == [10]:
        return f"Tap 10 cards; {p['count']} tapped so far"
    return f"Give {' or '.join(map(str, p['expected']))} cards, not {p['count']}"


def _duplicate(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    if "position" in p:
        return (
            f"Duplicate card {_label(p['card'])} at position {p['position']}"
            f" (already at position {p['first']})"
        )
    return f"{_label(p['card'])} appears twice: in {p['first']} and in {p['second']}"


def _bad_card(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    where = f" (position {p['position']})" if p.get("position") is not None else ""
    return f"{p['token']!r}{where} is not a card: use a rank A 2-9 10 J Q K and a suit ♣ ♦ ♥ ♠"


def _over_limit(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    dead, limit, up = p["deadwood"], p["limit"], p.get("upcard")
    if error.field == "knocker_deadwood":
        return f"A knock needs {limit} or less deadwood; {dead} is too much"
    lead = (
        f"Discarding {_label(p['card'])} leaves {dead} deadwood"
        if "card" in p
        else f"These cards leave {dead} deadwood"
    )
    if limit == 0:
        return (
            f"{lead}; under the upcard {_label(up)} only gin ends the hand"
            if up
            else f"{lead}: only gin ends the hand"
        )
    needs = f"{lead}; a knock needs {limit} or less"
    return f"{needs} (set by the upcard {_label(up)})" if up else needs


def _option_value(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    name = str(p.get("option", error.field or "this option")).replace("_", " ")
    name = name[:1].upper() + name[1:]
    if p.get("allowed") == [True, False]:
        return f"{name}: choose on or off"
    if "allowed" in p:
        return f"{name} must be one of {', '.join(map(str, p['allowed']))}"
    if "low" in p:
        return f"{name} must be a whole number from {p['low']} to {p['high']}"
    return f"{name} has a value that cannot be used"


def _game_over(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    if error.field == "n":
        return (
            f"With this correction the game would be over after hand {p['after']};"
            " undo the later hands first"
        )
    return f"The game is over after hand {p['after']}; no more hands can be entered"


def _rotation(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    if "hand" in p:
        return (
            f"With this correction hand {p['hand']} would be dealt by {p['expected']},"
            f" but its deal record has {p['dealer']} dealing; undo the later hands first"
        )
    return (
        f"{p['expected']} ({p['expected_seat']}) deals this hand, not {p['dealer']}"
        f" ({p['dealer_seat']})"
    )


def _sits_out(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    if error.field == "n":  # a correction that re-seats a later hand
        return (
            f"With this correction {p['player']} would deal a later hand that they"
            " played; undo the later hands first"
        )
    return f"{p['player']} deals this hand and sits out: choose one of the two who play it"


def _no_fit(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    cards = _labels(p["cards"])
    if not p.get("meld"):
        return f"{cards} fits none of the melds laid down"
    if p.get("missing"):
        return (
            f"{cards} cannot be laid off on {_labels(p['meld'])} without"
            f" {_labels(p['missing'])} laid off first"
        )
    return f"{cards} cannot be laid off on {_labels(p['meld'])}"


def _bad_value(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    if p.get("key") == "dealer" or error.field == "dealer":
        return (
            f"Dealer must be 0 or 1 in the record (0: the first player, 1: the second),"
            f" not {p.get('value')!r}"
        )
    return str(_original(error))


def _bad_players(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    if isinstance(error, RecordError):  # a deal record's players
        return (
            'The record\'s players must be two different names, like ["Ana", "Bor"], or be left out'
        )
    return "A game is for 2, 3 or 4 players, each with a different name"


Wording = Callable[[Mapping[str, Any], ScorekeeperError], str]

WORDINGS: dict[str, str | Wording] = {
    "bad_card": _bad_card,
    "duplicate_card": _duplicate,
    "wrong_card_count": _wrong_count,
    "card_in_both_hands": "{card} is in both hands; a card can be in one hand only",
    "card_not_in_hand": "{card} is not in the {owner}'s hand",
    "card_in_two_melds": "{card} is in two melds",
    "card_not_available": "{card} is not among the defender's unmelded cards",
    "card_laid_off_twice": "{card} is laid off twice",
    "not_a_meld": "{cards} is not a meld: a set is 3 or 4 cards of one rank, a run 3 or more"
    " cards in a row of one suit (ace low)",
    "not_a_knocker_meld": "{meld} is not one of the knocker's melds",
    "layoff_does_not_fit": _no_fit,
    "layoff_on_gin": "There are no layoffs against gin",
    "knock_over_limit": _over_limit,
    "big_gin_not_allowed": "Big gin is not played under these rules",
    "big_gin_deadwood": "Big gin needs all 11 cards melded; these leave {deadwood} deadwood",
    "gin_deadwood": "Discarding {card} leaves {deadwood} deadwood: gin needs all 10 cards melded",
    "gin_laid_out": "The knocker holds gin and lays it out as gin; the melds given leave"
    " {deadwood} deadwood",
    "unknown_option": "There is no rule option called {option}",
    "unknown_preset": "There is no preset called {preset}",
    "bad_option_value": _option_value,
    "missing_upcard": "Pick the first upcard: in Oklahoma it sets the knock limit",
    "hand_over": "The hand is already over",
    "upcard_offer": "{player} must first take the upcard or pass",
    "stock_exhausted": "The stock is down to {left} cards: {player} may only take the discard"
    " to knock, or pass (the hand is void)",
    "must_draw_stock": "Both players passed the upcard, so {player} must draw from the stock",
    "discard_pile_empty": "The discard pile is empty",
    "cannot_pass": "The upcard offer is over: {player} must draw from the stock or the"
    " discard pile",
    "must_draw": "{player} must draw first",
    "must_discard": "{player} has drawn and must discard, knock or go gin",
    "card_not_held": "{player} does not hold {card}",
    "card_just_taken": "{card} was just taken from the discard pile: it cannot be thrown back"
    " at once",
    "must_knock": "With {left} cards left in the stock, {player} took the discard and may"
    " only knock with it",
    "no_showdown": "Nobody has knocked, so there is no showdown",
    "showdown_on_void": "The hand is void (the stock ran down to 2 cards): there is no showdown",
    "unfinished_hand": "The record stops before the hand is over: {expected}",
    "dealer_rotation": _rotation,
    "players_differ": "The record's players must be this game's players ({players}), or be"
    " left out",
    "rules_differ": "The record's rules differ from this game's rules; leave them out",
    "game_over": _game_over,
    "nothing_to_undo": "There is no hand to undo",
    "stale": "The game has changed meanwhile: reload the sheet and try again",
    "dealer_sits_out": _sits_out,
    "record_two_players": "A deal record is of a two-player deal: with {players} players enter"
    " the hand quickly or card by card",
    "not_in_this_game": "{player} does not play in this game: choose one of its two players",
    "bad_players": _bad_players,
    "hollywood_two_players": "Hollywood scoring is for two players only: leave players 3 and"
    " 4 empty, or choose one-game scoring",
    "bad_value": _bad_value,
    "bad_format": 'This is not a deal record: it needs "format": "gin-rummy-deal/1", not'
    " {format!r}",
    "bad_actions": 'The record\'s actions must be a list, like ["draw stock", "discard 7h"]',
    "name_empty": "Type a name for this player",
    "name_not_text": "A name must be written as text",
    "name_too_long": "A name has at most {limit} characters; this one has {length}",
}
"""How the scorepad words each error code, from the error's ``params``.

A text is formatted with the params (cards as labels such as ``10♠``,
lists of cards joined, lists of names joined with "and"); a function gets
``(params, error)`` for wordings that depend on them.
"""

_CARD_KEYS = ("card", "upcard")
_CARDS_KEYS = ("cards", "meld")


def _shown(params: Mapping[str, Any]) -> dict[str, Any]:
    shown = dict(params)
    for key in _CARD_KEYS:
        if isinstance(shown.get(key), str):
            shown[key] = _label(shown[key])
    for key in _CARDS_KEYS:
        if isinstance(shown.get(key), list):
            shown[key] = _labels(shown[key])
    if isinstance(shown.get("players"), list):
        shown["players"] = " and ".join(map(str, shown["players"]))
    return shown


def _original(error: BaseException) -> BaseException:
    """The error a domain error restates (same code, raised ``from`` it), if any.

    Its message lacks the places restating added (``record: step 3: ...``).
    The scorepad's own errors (plain ``RuleError``/``RecordError``, kind
    ``""``) are their own original.
    """
    while (
        isinstance(error, ScorekeeperError)
        and error.kind
        and isinstance(error.__cause__, ScorekeeperError)
        and error.__cause__.code == error.code
    ):
        error = error.__cause__
    return error


def worded(error: BaseException) -> str:
    """An error in words a player understands, as one sentence.

    A domain error is worded from its ``code`` and ``params`` (:data:`WORDINGS`);
    an error whose code has no wording there keeps the message of the error
    it restates (:func:`_original`; the scorepad's own errors are already
    worded). Either way the sentence starts with a
    capital and ends with a full stop.
    """
    wording = WORDINGS.get(getattr(error, "code", None) or "")
    if wording is not None and isinstance(error, ScorekeeperError):
        message = (
            wording.format(**_shown(error.params))
            if isinstance(wording, str)
            else wording(error.params, error)
        )
    else:
        message = str(_original(error))
    message = message[:1].upper() + message[1:]
    return message if message.endswith((".", "!", "?")) else message + "."
