"""How the scorepad words each domain error, from its code and params (:data:`WORDINGS`).

The table :func:`api.pad.labels.worded` reads: a text for most codes, a function of
``(params, error)`` for the wordings that depend on them (how many cards were wrong,
which option, which round). Never a rewrite of the error's English message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from scorekeeper.errors import RecordError, ScorekeeperError

from ..i18n import LazyString, _, lazy_gettext
from .options import OPTION_NAMES
from .roster_words import ROSTER_WORDINGS
from .season_words import SEASON_WORDINGS
from .terms import capfirst, either, in_api_terms, term_label, term_labels


def _wrong_count(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    field = error.field or ""
    expected, count = either(p["expected"]), p["count"]
    if field.startswith("hands["):  # a deal record's hand: nothing was tapped
        if field[6:-1].isdigit():
            return _(
                "Player %(seat)s's hand in the record has %(count)s cards; a hand has %(expected)s",
                seat=int(field[6:-1]) + 1,
                count=count,
                expected=expected,
            )
        return _(
            "A player's hand in the record has %(count)s cards; a hand has %(expected)s",
            count=count,
            expected=expected,
        )
    if field == "stock":
        return _(
            "The record's stock has %(count)s cards; after the deal it has %(expected)s",
            count=count,
            expected=expected,
        )
    tapped = not in_api_terms()  # the pad's cards are tapped; the API's are given
    if tapped and p["expected"] == [10, 11]:
        return _("Tap 10 cards (11 for big gin); %(count)s tapped so far", count=count)
    if tapped and p["expected"] == [10]:
        return _("Tap 10 cards; %(count)s tapped so far", count=count)
    return _("Give %(expected)s cards, not %(count)s", expected=expected, count=count)


def _duplicate(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    if "position" in p:
        return _(
            "Duplicate card %(card)s at position %(position)s (already at position %(first)s)",
            card=term_label(p["card"]),
            position=p["position"],
            first=p["first"],
        )
    return _(
        "%(card)s appears twice: in %(first)s and in %(second)s",
        card=term_label(p["card"]),
        first=p["first"],
        second=p["second"],
    )


def _bad_card(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    placed = p.get("position") is not None
    if in_api_terms():  # the API's notation, not the pad's letters
        text = (
            _(
                "%(token)s (position %(position)s) is not a card: use a rank A 2-9 T (or 10)"
                " J Q K and a suit c d h s (or ♣ ♦ ♥ ♠)"
            )
            if placed
            else _(
                "%(token)s is not a card: use a rank A 2-9 T (or 10) J Q K and a suit c d h s"
                " (or ♣ ♦ ♥ ♠)"
            )
        )
    elif placed:
        text = _(
            "%(token)s (position %(position)s) is not a card: use a rank A 2-9 10 J Q K"
            " and a suit ♣ ♦ ♥ ♠"
        )
    else:
        text = _("%(token)s is not a card: use a rank A 2-9 10 J Q K and a suit ♣ ♦ ♥ ♠")
    return text % {"token": repr(p["token"]), "position": p.get("position")}


def _over_limit(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    dead, limit, up = p["deadwood"], p["limit"], p.get("upcard")
    if error.field == "knocker_deadwood":
        return _(
            "A knock needs %(limit)s or less deadwood; %(deadwood)s is too much",
            limit=limit,
            deadwood=dead,
        )
    shown = {"deadwood": dead, "limit": limit, "upcard": term_label(up) if up else ""}
    if "card" in p:
        shown["card"] = term_label(p["card"])
        if limit == 0:
            if up:
                return _(
                    "Discarding %(card)s leaves %(deadwood)s deadwood; under the upcard"
                    " %(upcard)s only gin ends the hand",
                    **shown,
                )
            return _(
                "Discarding %(card)s leaves %(deadwood)s deadwood: only gin ends the hand",
                **shown,
            )
        if up:
            return _(
                "Discarding %(card)s leaves %(deadwood)s deadwood; a knock needs %(limit)s"
                " or less (set by the upcard %(upcard)s)",
                **shown,
            )
        return _(
            "Discarding %(card)s leaves %(deadwood)s deadwood; a knock needs %(limit)s or less",
            **shown,
        )
    if limit == 0:
        if up:
            return _(
                "These cards leave %(deadwood)s deadwood; under the upcard %(upcard)s only"
                " gin ends the hand",
                **shown,
            )
        return _("These cards leave %(deadwood)s deadwood: only gin ends the hand", **shown)
    if up:
        return _(
            "These cards leave %(deadwood)s deadwood; a knock needs %(limit)s or less"
            " (set by the upcard %(upcard)s)",
            **shown,
        )
    return _("These cards leave %(deadwood)s deadwood; a knock needs %(limit)s or less", **shown)


def _option_value(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    key = str(p.get("option", error.field or ""))
    name = capfirst(
        str(OPTION_NAMES[key]) if key in OPTION_NAMES else key.replace("_", " ") or _("this option")
    )
    if in_api_terms() and key:
        name = key
    if p.get("allowed") == [True, False]:
        return _("%(option)s: choose on or off", option=name)
    if "allowed" in p:
        return _(
            "%(option)s must be one of %(allowed)s",
            option=name,
            allowed=", ".join(map(str, p["allowed"])),
        )
    if "low" in p:
        return _(
            "%(option)s must be a whole number from %(low)s to %(high)s",
            option=name,
            low=p["low"],
            high=p["high"],
        )
    return _("%(option)s has a value that cannot be used", option=name)


def _game_over(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    if error.field == "n":
        return _(
            "With this correction the game would be over after hand %(after)s;"
            " undo the later hands first",
            after=p["after"],
        )
    return _(
        "The game is over after hand %(after)s; no more hands can be entered", after=p["after"]
    )


def _match_finished(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    if p.get("ended_by_director"):
        return _("This match has already been ended: its result stands")
    return _("This match's game is already over: its result counts as played")


def _rotation(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    if "hand" in p:
        return _(
            "With this correction hand %(hand)s would be dealt by %(expected)s, but its deal"
            " record has %(dealer)s dealing; undo the later hands first",
            hand=p["hand"],
            expected=p["expected"],
            dealer=p["dealer"],
        )
    return _(
        "%(expected)s (%(expected_seat)s) deals this hand, not %(dealer)s (%(dealer_seat)s)",
        expected=p["expected"],
        expected_seat=p["expected_seat"],
        dealer=p["dealer"],
        dealer_seat=p["dealer_seat"],
    )


def _sits_out(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    if error.field == "n":  # a correction that re-seats a later hand
        return _(
            "With this correction %(player)s would deal a later hand that they played;"
            " undo the later hands first",
            player=p["player"],
        )
    return _(
        "%(player)s deals this hand and sits out: choose one of the two who play it",
        player=p["player"],
    )


def _no_fit(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    cards = term_labels(p["cards"])
    if not p.get("meld"):
        return _("%(cards)s fits none of the melds laid down", cards=cards)
    if p.get("missing"):
        return _(
            "%(cards)s cannot be laid off on %(meld)s without %(missing)s laid off first",
            cards=cards,
            meld=term_labels(p["meld"]),
            missing=term_labels(p["missing"]),
        )
    return _("%(cards)s cannot be laid off on %(meld)s", cards=cards, meld=term_labels(p["meld"]))


def _bad_value(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    if p.get("key") == "dealer" or error.field == "dealer":
        return _(
            "Dealer must be 0 or 1 in the record (0: the first player, 1: the second),"
            " not %(value)s",
            value=repr(p.get("value")),
        )
    return str(original(error))


def _bad_players(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    if isinstance(error, RecordError):  # a deal record's players
        return _(
            'The record\'s players must be two different names, like ["Ana", "Bor"], or be left out'
        )
    return _("A game is for 2, 3 or 4 players, each with a different name")


def _not_in_hand(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    if p.get("owner") == "defender":
        return _("%(card)s is not in the defender's hand", card=term_label(p["card"]))
    return _("%(card)s is not in the knocker's hand", card=term_label(p["card"]))


def _bad_format(p: Mapping[str, Any], error: ScorekeeperError) -> str:
    return _(
        'This is not a deal record: it needs "format": "gin-rummy-deal/1", not %(format)s',
        format=repr(p.get("format")),
    )


def original(error: BaseException) -> BaseException:
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


Wording = Callable[[Mapping[str, Any], ScorekeeperError], str]

WORDINGS: dict[str, LazyString | Wording] = {
    "bad_card": _bad_card,
    "duplicate_card": _duplicate,
    "wrong_card_count": _wrong_count,
    "card_in_both_hands": lazy_gettext("%(card)s is in both hands; a card can be in one hand only"),
    "card_not_in_hand": _not_in_hand,
    "card_in_two_melds": lazy_gettext("%(card)s is in two melds"),
    "card_not_available": lazy_gettext("%(card)s is not among the defender's unmelded cards"),
    "card_laid_off_twice": lazy_gettext("%(card)s is laid off twice"),
    "not_a_meld": lazy_gettext(
        "%(cards)s is not a meld: a set is 3 or 4 cards of one rank, a run 3 or more"
        " cards in a row of one suit (ace low)"
    ),
    "not_a_knocker_meld": lazy_gettext("%(meld)s is not one of the knocker's melds"),
    "layoff_does_not_fit": _no_fit,
    "layoff_on_gin": lazy_gettext("There are no layoffs against gin"),
    "knock_over_limit": _over_limit,
    "big_gin_not_allowed": lazy_gettext("Big gin is not played under these rules"),
    "big_gin_deadwood": lazy_gettext(
        "Big gin needs all 11 cards melded; these leave %(deadwood)s deadwood"
    ),
    "gin_deadwood": lazy_gettext(
        "Discarding %(card)s leaves %(deadwood)s deadwood: gin needs all 10 cards melded"
    ),
    "gin_laid_out": lazy_gettext(
        "The knocker holds gin and lays it out as gin; the melds given leave %(deadwood)s deadwood"
    ),
    "unknown_option": lazy_gettext("There is no rule option called %(option)s"),
    "unknown_preset": lazy_gettext("There is no preset called %(preset)s"),
    "bad_option_value": _option_value,
    "missing_upcard": lazy_gettext("Pick the first upcard: in Oklahoma it sets the knock limit"),
    "hand_over": lazy_gettext("The hand is already over"),
    "upcard_offer": lazy_gettext("%(player)s must first take the upcard or pass"),
    "stock_exhausted": lazy_gettext(
        "The stock is down to %(left)s cards: %(player)s may only take the discard"
        " to knock, or pass (the hand is void)"
    ),
    "must_draw_stock": lazy_gettext(
        "Both players passed the upcard, so %(player)s must draw from the stock"
    ),
    "discard_pile_empty": lazy_gettext("The discard pile is empty"),
    "cannot_pass": lazy_gettext(
        "The upcard offer is over: %(player)s must draw from the stock or the discard pile"
    ),
    "must_draw": lazy_gettext("%(player)s must draw first"),
    "must_discard": lazy_gettext("%(player)s has drawn and must discard, knock or go gin"),
    "card_not_held": lazy_gettext("%(player)s does not hold %(card)s"),
    "card_just_taken": lazy_gettext(
        "%(card)s was just taken from the discard pile: it cannot be thrown back at once"
    ),
    "must_knock": lazy_gettext(
        "With %(left)s cards left in the stock, %(player)s took the discard and may"
        " only knock with it"
    ),
    "no_showdown": lazy_gettext("Nobody has knocked, so there is no showdown"),
    "showdown_on_void": lazy_gettext(
        "The hand is void (the stock ran down to 2 cards): there is no showdown"
    ),
    "unfinished_hand": lazy_gettext("The record stops before the hand is over: %(expected)s"),
    "dealer_rotation": _rotation,
    "players_differ": lazy_gettext(
        "The record's players must be this game's players (%(players)s), or be left out"
    ),
    "rules_differ": lazy_gettext(
        "The record's rules differ from this game's rules; leave them out"
    ),
    "game_over": _game_over,
    "nothing_to_undo": lazy_gettext("There is no hand to undo"),
    "stale": lazy_gettext("The game has changed meanwhile: reload the sheet and try again"),
    "dealer_sits_out": _sits_out,
    "record_two_players": lazy_gettext(
        "A deal record is of a two-player deal: with %(players)s players enter"
        " the hand quickly or card by card"
    ),
    "not_in_this_game": lazy_gettext(
        "%(player)s does not play in this game: choose one of its two players"
    ),
    "bad_players": _bad_players,
    "hollywood_two_players": lazy_gettext(
        "Hollywood scoring is for two players only: leave players 3 and"
        " 4 empty, or choose one-game scoring"
    ),
    "bad_value": _bad_value,
    "bad_format": _bad_format,
    "bad_actions": lazy_gettext(
        'The record\'s actions must be a list, like ["draw stock", "discard 7h"]'
    ),
    "name_empty": lazy_gettext("Type a name for this player"),
    "name_not_text": lazy_gettext("A name must be written as text"),
    "name_too_long": lazy_gettext(
        "A name has at most %(limit)s characters; this one has %(length)s"
    ),
    "match_finished": _match_finished,
    "level_totals": lazy_gettext("The totals are level at %(total)s: name the winner"),
    "decided_later_pairing": lazy_gettext(
        "Round %(round)s, table %(table)s: %(winner)s won this match and round"
        " %(later_round)s was paired on that result. Before it can change, the director"
        " must withdraw round %(later_round)s (and any round after it)"
    ),
    "round_stale": lazy_gettext(
        "Round %(round)s was paired on a result that has changed since: withdraw it"
        " (and any round after it), then pair again"
    ),
    "round_started": lazy_gettext(
        "Round %(round)s cannot be withdrawn: table %(table)s has begun. A round can be"
        " withdrawn only while none of its tables has a hand"
    ),
    "round_not_last": lazy_gettext(
        "Only the last round paired can be withdrawn: withdraw round %(last_round)s first"
    ),
    **SEASON_WORDINGS,
}
"""How the scorepad words each error code, from the error's ``params``, in the
request's language.

A text (a ``lazy_gettext`` message) is formatted with the params by name
(cards as labels such as ``10♠``, lists of cards joined, lists of names
joined with "and"); a function gets ``(params, error)`` for wordings that
depend on them.
"""
WORDINGS.update(ROSTER_WORDINGS)
