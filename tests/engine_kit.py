"""Helpers for the engine tests: hand-made deal records and an independent scorer.

The scorer re-derives a replayed hand's score from RULES.md with the
brute-force oracle of ``brute_force.py`` (no code from ``scorekeeper``), so
the round-trip tests check the engine against a second implementation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from brute_force import deadwood as least_deadwood
from brute_force import defender_best, is_meld, value

if TYPE_CHECKING:  # only the type: the scorer reads the result, it runs no scorekeeper code
    from scorekeeper.deal_result import DealResult

RANKS = "A23456789TJQK"
SUITS = "cdhs"
DECK = [r + s for s in SUITS for r in RANKS]


def cards(text: str) -> list[str]:
    """Codes from ``"As 2s 3s"``."""
    return text.split()


def make_record(
    hands: tuple[str, str],
    upcard: str,
    stock_top: str = "",
    *,
    dealer: int = 1,
    actions=(),
    rules=None,
    players=("Ana", "Ben"),
    showdown=None,
) -> dict:
    """A deal record; the stock is ``stock_top`` then the rest of the deck in index order.

    With the default ``dealer=1`` Ana (player 0) is the non-dealer and acts first.
    """
    used = cards(hands[0]) + cards(hands[1]) + [upcard] + cards(stock_top)
    assert len(set(used)) == len(used), "test deck has a duplicate"
    stock = cards(stock_top) + [c for c in DECK if c not in used]
    record = {
        "format": "gin-rummy-deal/1",
        "players": list(players),
        "dealer": dealer,
        "hands": [cards(hands[0]), cards(hands[1])],
        "upcard": upcard,
        "stock": stock,
        "actions": list(actions),
    }
    if rules is not None:
        record["rules"] = rules
    if showdown is not None:
        record["showdown"] = showdown
    return record


def draw_and_discard(stock: list[str], first: int, count: int) -> list[str]:
    """Actions for ``count`` turns of drawing stock card ``first + i`` and discarding it."""
    actions = []
    for i in range(first, first + count):
        actions += ["draw stock", f"discard {stock[i]}"]
    return actions


# --------------------------------------------------------------------------- independent scorer


JUNK_A = "Ac 5c 9c Kc 2d 6d Td 3h 7h Js"
JUNK_B = "2c 6c Tc 3d 7d Jd 4h 8h Qh Ks"


def void_deal(dealer: int, *, match: bool = True) -> dict:
    """A deal nobody knocks in: the stock runs down to two cards (a match deal unless ``match``
    is false, then a whole deal record)."""
    record = make_record((JUNK_A, JUNK_B), "Qd", dealer=dealer)
    record["actions"] = ["pass", "pass", *draw_and_discard(record["stock"], 0, 29)]
    return strip(record) if match else record


def strip(record: dict) -> dict:
    """A deal record as a match record's deal (no format, rules or players)."""
    return {k: v for k, v in record.items() if k not in ("format", "rules", "players")}


def check_result(result: DealResult, rules: dict, *, optimal: bool = True) -> None:
    """Re-derive a non-void replay result from its cards and the rules (plain dict options).

    ``rules`` is the full option dict (``Rules.to_dict()``). With ``optimal``
    (no declared showdown) the defender's deadwood must be the least possible;
    otherwise it must not be less than that.
    """
    upcard = result.upcard
    if rules["oklahoma"]:
        limit = (
            min(0 if rules["ace_upcard"] == "gin_only" else 1, rules["knock_limit"])
            if upcard[0] == "A"
            else min(value(upcard), rules["knock_limit"])
        )
    else:
        limit = rules["knock_limit"]
    assert result.knock_limit == limit
    multiplier = 2 if rules["spade_doubles"] and upcard[1] == "s" else 1
    knocker, defender = result.knocker, result.defender
    k_cards = frozenset(knocker.cards)
    d_cards = frozenset(defender.cards)
    assert len(d_cards) == 10 and len(k_cards) in (10, 11) and not k_cards & d_cards
    assert k_cards == frozenset(result.hands[result.knocker_player])
    k_melds = [frozenset(m) for m in knocker.melds]
    assert all(is_meld(m) for m in k_melds)
    assert sum(len(m) for m in k_melds) + len(knocker.deadwood_cards) == len(k_cards)
    assert frozenset().union(*k_melds, knocker.deadwood_cards) == k_cards
    k = sum(value(c) for c in knocker.deadwood_cards)
    assert k == knocker.deadwood <= limit
    d_melds = [frozenset(m) for m in defender.melds]
    assert all(is_meld(m) for m in d_melds)
    laid = [x.card for x in defender.layoffs]
    parts = [*[c for m in d_melds for c in m], *laid, *defender.deadwood_cards]
    assert sorted(parts) == sorted(d_cards)
    d = sum(value(c) for c in defender.deadwood_cards)
    assert d == defender.deadwood
    big = len(k_cards) == 11
    if k == 0:
        assert laid == []
        best = least_deadwood(d_cards)
    else:
        for meld in k_melds:
            extra = {x.card for x in defender.layoffs if frozenset(x.meld) == meld}
            assert not extra or is_meld(meld | extra)
        best = defender_best(d_cards, k_melds)
    assert d == best if optimal else d >= best
    if big:
        outcome, points = "big_gin", rules["big_gin_bonus"] + d
    elif k == 0:
        outcome, points = "gin", rules["gin_bonus"] + d
    elif k < d:
        outcome, points = "knock", d - k
    else:
        outcome, points = "undercut", k - d + rules["undercut_bonus"]
    assert result.outcome == outcome
    assert result.points == points * multiplier
    winner = result.knocker_player if outcome != "undercut" else 1 - result.knocker_player
    assert result.winner_player == winner
