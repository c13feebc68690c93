"""Every claim of a deal's analysis re-derived by brute force (issue 19).

:func:`check_deal` walks a deal record on its own (hands, discard pile and
stock followed card by card from the record, not from the engine) and
checks each claim :func:`scorekeeper.analysis.analyse` makes against
:mod:`brute_force`, which enumerates every meld, arrangement and set of
layoffs. The scoring of a showdown is written here again from RULES.md
section 6. Only the cards and melds laid down in the showdown are read from
the replayed result (they are what was played, the input of the review), and
they are checked to be legal first.

A claim is one statement the analysis makes (a typed result, and the
sentence :func:`scorekeeper.analysis_remarks.remarks` words it in); each is counted by
its kind (:data:`KINDS`). The sentences are checked to say what was checked,
and every claim the analysis should make to be made (a missing passed-up meld,
knock or gin is as false as a wrong one).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import combinations
from pathlib import Path
from typing import Any

import brute_force as bf

from scorekeeper.actions import Phase, Verb, parse_action
from scorekeeper.analysis import SUMMARY_KEYS, DealAnalysis, MatchAnalysis, PlayerSummary, analyse
from scorekeeper.analysis_decisions import BigGinDecision, DiscardDecision, DrawDecision
from scorekeeper.analysis_remarks import remarks
from scorekeeper.bots import GreedyPlayer, play, simulate
from scorekeeper.cards import Card
from scorekeeper.declarations import place_layoffs
from scorekeeper.engine import Deal
from scorekeeper.knock import verify_knock
from scorekeeper.knock_review import KnockReview, review_knock
from scorekeeper.melds import mask_all_melds, mask_deadwood
from scorekeeper.recording import deal_record
from scorekeeper.records import DEAL_FORMAT, replay_deal
from scorekeeper.rules import Rules

KINDS: dict[str, str] = {
    "discard": "a discard's (a knock's, a gin's) deadwood kept, against the least and the best"
    " discards",
    "kept": "a discard off the best (the 'kept' sentence)",
    "passed_up": "a meld the card offered makes, passed up, with the deadwood taking it leaves",
    "missed_knock": "a knock possible and not made, with the least deadwood",
    "missed_gin": "gin possible and not gone",
    "big_gin": "a big gin measured: nothing kept, nothing given away",
    "summary": "a player's summary of a deal or of a match",
    "knocker": "the knocker's arrangement against the best one, both against the best reply",
    "arrangement": "a costly arrangement (the 'arrangement' sentence): the best melds and those"
    " not laid down",
    "defender": "the defender's reply against the best reply to the same arrangement",
    "layoff": "a missed layoff made alone, with what that change is worth",
    "rearranged": "a missed layoff that needs the reply rearranged, with the best reply's worth",
    "needless": "a card laid off that the best reply keeps in the defender's own melds",
}
"""Each kind of claim the analysis makes (:func:`~scorekeeper.analysis.analyse`,
:func:`~scorekeeper.knock_review.review_knock`), and what it claims."""


TEN_THOUSAND: dict[str, tuple[str, ...]] = {
    "test_analysis_claims.py": ("knocker", "defender", "layoff"),
    "test_analysis_claims_rearranged.py": ("rearranged",),
    "test_analysis_claims_needless.py": ("needless", "arrangement"),
    "test_analysis_claims_decisions.py": (
        "discard",
        "kept",
        "passed_up",
        "missed_knock",
        "missed_gin",
    ),
    "test_analysis_claims_big_gin.py": ("big_gin", "summary"),
}
"""The slow test module that counts at least 10,000 claims of each kind in the soak tier,
500 by default (each kind in one module, so that xdist runs them side by side)."""


def ten_thousand(count: Counter, module: str, share: int = 1) -> None:
    """Check that ``module`` (a test's ``__file__``) counted 10,000 claims or more of each
    of its kinds (:data:`TEN_THOUSAND`), or ``1/share`` of that on a share of its deals
    (``conftest.soak_shares``: a twentieth by default, the whole in the soak tier)."""
    least = 10_000 // share
    short = [kind for kind in TEN_THOUSAND[Path(module).name] if count[kind] < least]
    assert not short, (short, dict(count))


_BIT = {code: 1 << bf.index(code) for code in bf.ALL_CODES}
_VALUE = tuple(bf.value(code) for code in bf.ALL_CODES)
_LEAST: dict[tuple[int, int], int] = {}


def mask(cards: Iterable[str]) -> int:
    """The cards as bits, by :func:`brute_force.index`."""
    return sum(_BIT[card] for card in cards)


def least(cards: int, melded: int = 0) -> int:
    """The least deadwood of the cards (bits) with every card of ``melded`` in a meld
    (1,000 when they cannot all be): the lowest card is deadwood (unless it must be
    melded) or in one meld with cards above it (a set of its rank, or a run it starts: the
    cards below it in its suit are gone), every way tried (memoised)."""
    melded &= cards
    known = _LEAST.get((cards, melded))
    if known is not None:
        return known
    if not cards:
        return 0
    if len(_LEAST) > 1_000_000:
        _LEAST.clear()
    low = (cards & -cards).bit_length() - 1
    rest = cards ^ 1 << low
    best = 1000 if melded >> low & 1 else _VALUE[low] + least(rest, melded)
    same = [1 << other for other in range(low + 13, 52, 13) if rest >> other & 1]
    for size in (2, 3):
        for others in combinations(same, size):
            best = min(best, least(rest ^ sum(others), melded))
    run, top = 1 << low, low - low % 13 + 13
    for card in range(low + 1, top):
        if not rest >> card & 1:
            break
        run |= 1 << card
        if card - low >= 2:
            best = min(best, least(cards ^ run, melded))
    best = min(best, 1000)
    _LEAST[cards, melded] = best
    return best


def deadwood(cards: Iterable[str]) -> int:
    """The least deadwood of ``cards`` (:func:`least`)."""
    return least(mask(cards))


def melded_sets(cards: int) -> set[int]:
    """Every set of the cards (bits) that one arrangement of them melds: the lowest card
    is deadwood or in one meld with cards above it, as :func:`least` has it."""
    found = set()

    def arrange(left: int, melded: int) -> None:
        if not left:
            found.add(melded)
            return
        low = left & -left
        rest, at = left ^ low, low.bit_length() - 1
        arrange(rest, melded)
        same = [1 << other for other in range(at + 13, 52, 13) if rest >> other & 1]
        for size in (2, 3):
            for others in combinations(same, size):
                meld = low | sum(others)
                arrange(left ^ meld, melded | meld)
        run = low
        for card in range(at + 1, at - at % 13 + 13):
            if not rest >> card & 1:
                break
            run |= 1 << card
            if card - at >= 2:
                arrange(left ^ run, melded | run)

    arrange(cards, 0)
    return found


def discard_options(hand: frozenset[str]) -> dict[str, int]:
    """For each card of an 11-card hand, the least deadwood of the other 10: the least of
    every arrangement of the 11 that leaves the card out of its melds, less the card."""
    own = [(card, _BIT[card], bf.value(card)) for card in hand]
    best = dict.fromkeys(hand, 1000)
    for melded in melded_sets(mask(hand)):
        left = sum(value for _, bit, value in own if not melded & bit)
        for card, bit, value in own:
            if not melded & bit and left - value < best[card]:
                best[card] = left - value
    return best


def melds_with(cards: frozenset[str], card: str) -> list[frozenset[str]]:
    """Every meld of ``cards`` that holds ``card``: a set of its rank, a run through it."""
    at, suit = bf.rank(card), bf.suit(card)
    same = [bf.RANKS[at] + other for other in bf.SUITS if other != suit]
    same = [other for other in same if other in cards]
    found = [frozenset((card, *others)) for size in (2, 3) for others in combinations(same, size)]
    low = high = at
    while low > 0 and bf.RANKS[low - 1] + suit in cards:
        low -= 1
    while high < 12 and bf.RANKS[high + 1] + suit in cards:
        high += 1
    for start in range(low, at + 1):
        for end in range(max(at, start + 2), high + 1):
            found.append(frozenset(bf.RANKS[r] + suit for r in range(start, end + 1)))
    return found


def _verb(action: str) -> tuple[str, str | None]:
    words = action.split()
    if words[0] in ("discard", "knock", "gin"):
        return words[0], words[1]
    return " ".join(words), None


def walk(record: Mapping[str, Any]) -> Iterable[dict[str, Any]]:
    """Each action of a deal record with what its player held and saw before it.

    Yields ``{"step", "player", "verb", "card", "hand", "top", "taken", "offer",
    "open"}`` (``offer``: the upcard is being offered; ``taken``: the card drawn from
    the pile this turn; ``open``: the player may take the top of the pile instead of
    the stock, not when both passed the upcard and the non-dealer must draw from the
    stock, nor at the wall, where a pass ends the hand), then a last
    ``{"verb": "end", "hands": [...]}``.
    """
    dealer = record["dealer"]
    hands = [set(h) for h in record["hands"]]
    pile = [record["upcard"]]
    stock = list(record["stock"])
    turn, passes, offer, taken, drawn = 1 - dealer, 0, True, None, False
    for step, action in enumerate(record["actions"]):
        verb, card = _verb(action)
        must_stock = passes == 2 and not drawn
        yield {
            "step": step,
            "player": turn,
            "verb": verb,
            "card": card,
            "hand": frozenset(hands[turn]),
            "top": pile[-1] if pile else None,
            "taken": taken,
            "offer": offer,
            "passes": passes,
            "open": bool(pile) and (offer or (verb == "draw stock" and not must_stock)),
        }
        drawn = drawn or verb.startswith("draw")
        if verb == "pass":
            passes += 1
            turn = 1 - turn
            offer = passes < 2
        elif verb == "draw discard":
            taken = pile.pop()
            hands[turn].add(taken)
        elif verb == "draw stock":
            hands[turn].add(stock.pop(0))
            taken = None
        elif verb in ("discard", "knock", "gin"):
            hands[turn].remove(card)
            pile.append(card)
            turn, taken, offer = 1 - turn, None, False
    yield {"verb": "end", "hands": [frozenset(h) for h in hands]}


def _net(k: int, d: int, rules: Mapping[str, Any], mult: int, big: bool = False) -> int:
    """The knocker's points (+ won, - lost) for deadwood ``k`` against ``d`` (RULES.md 6)."""
    if big:
        return (d + rules["big_gin_bonus"]) * mult
    if k == 0:
        return (d + rules["gin_bonus"]) * mult
    if k < d:
        return (d - k) * mult
    if k == d and rules["tie"] == "no_score":
        return 0
    return -((k - d) + rules["undercut_bonus"]) * mult


_REPLIES: dict[tuple[frozenset[str], frozenset[frozenset[str]]], int] = {}


def _best_reply(defender: frozenset[str], melds: Iterable[frozenset[str]], gin: bool) -> int:
    """The defender's least deadwood against ``melds``: own melds and layoffs together."""
    if gin:
        return deadwood(defender)
    key = (defender, bf.canonical(melds))
    if key not in _REPLIES:
        if len(_REPLIES) > 100_000:
            _REPLIES.clear()
        _REPLIES[key] = min(deadwood(defender - s) for s in bf.layoff_sets(defender, key[1]))
    return _REPLIES[key]


def check_showdown(
    knocker: frozenset[str],
    defender: frozenset[str],
    played: Any,
    review: KnockReview,
    rules: Mapping[str, Any],
    upcard: str | None,
    count: Counter,
) -> None:
    """Check a review (:func:`review_knock`) of the showdown ``played`` (its knocker and
    defender parts, as laid down) by brute force."""
    mult = bf.multiplier(rules, upcard)
    limit = bf.knock_limit(rules, upcard)
    big = len(knocker) == 11
    melds = [frozenset(m) for m in played.knocker.melds]
    own = [frozenset(m) for m in played.defender.melds]
    laid = {x.card: frozenset(x.meld) for x in played.defender.layoffs}
    # what was laid down is legal
    assert all(bf.is_meld(m) for m in melds + own)
    assert sum(map(len, melds)) == len(frozenset().union(*melds)) and set().union(*melds) <= knocker
    assert sum(map(len, own)) == len(frozenset().union(*own)) and set().union(*own) <= defender
    assert bf.layoffs_are_legal(melds, laid) and not set(laid) & set().union(*own)
    k = bf.arrangement_deadwood(knocker, melds)
    gin = k == 0
    loose = defender - set().union(*own) - set(laid)
    d = bf.points(loose)
    assert (played.knocker.deadwood, played.defender.deadwood) == (k, d)
    scored = _net(k, d, rules, mult, big)
    assert k == 0 or not big

    # the knocker: the arrangement laid down and the best legal one, against the best reply
    most = 0 if big else limit
    if big:  # every legal arrangement melds all 11 cards; nothing is laid off on big gin
        assert least(mask(knocker)) == 0
        legal = {bf.canonical(melds)}
    else:
        legal = {
            bf.canonical(a)
            for a in bf.arrangements_all(knocker)
            if bf.arrangement_deadwood(knocker, a) <= most
        }
    options = []
    for arrangement in legal:
        dead = bf.arrangement_deadwood(knocker, arrangement)
        reply = _best_reply(defender, list(arrangement), dead == 0)
        options.append((_net(dead, reply, rules, mult, big), -dead))
    best_points, minus_dead = max(options)
    best_d = _best_reply(defender, melds, gin)
    points = _net(k, best_d, rules, mult, big)
    mine = review.knocker
    assert (mine.deadwood, mine.best_deadwood) == (k, -minus_dead)
    assert (mine.points, mine.best_points, mine.cost) == (points, best_points, best_points - points)
    count["knocker"] += 1
    if mine.cost:
        # the best melds: a legal arrangement worth the best points; those not laid down
        best = [frozenset(m) for m in mine.best_melds]
        assert all(bf.is_meld(m) for m in best) and set().union(*best) <= knocker
        assert sum(map(len, best)) == len(frozenset().union(*best))
        dead = bf.arrangement_deadwood(knocker, best)
        assert dead == mine.best_deadwood <= most
        assert _net(dead, _best_reply(defender, best, dead == 0), rules, mult, big) == best_points
        missed = [frozenset(m) for m in mine.missed_melds]
        assert len(missed) == len(set(missed)) and set(missed) == set(best) - set(melds)
        count["arrangement"] += 1
    else:
        assert mine.best_melds == mine.missed_melds == ()

    # the defender: the reply laid down against the best reply to the same arrangement
    theirs = review.defender
    assert (theirs.deadwood, theirs.best_deadwood) == (d, best_d)
    assert (theirs.points, theirs.best_points) == (-scored, -points)
    assert theirs.cost == scored - points >= 0
    count["defender"] += 1
    if not theirs.cost:
        assert theirs.missed_layoffs == theirs.needless_layoffs == ()
        return
    every = bf.layoff_sets(defender, melds)
    best_sets = [s for s in every if deadwood(defender - s) == best_d]
    before = frozenset(laid)
    # own melds and layoffs kept as laid down: the knocker's melds with what was laid on them
    grown = [m | {card for card, onto in laid.items() if onto == m} for m in melds]
    alone = bf.layoff_sets(loose, grown)
    for claim in theirs.missed_layoffs:
        assert claim.card not in laid
        if claim.rearranged:
            # no layoff keeping own melds as laid down reaches the card ...
            assert not any(claim.card in s for s in alone)
            # ... and a best reply lays off the cards named, worth the points
            assert any(set(claim.cards) <= s for s in best_sets)
            assert not set(claim.cards) & before and claim.points == theirs.cost
            count["rearranged"] += 1
        else:
            cards = frozenset(claim.cards)
            assert claim.cards[-1] == claim.card and len(cards) == len(claim.cards)
            assert cards <= loose and cards in alone
            for needed in cards - {claim.card}:
                assert cards - {needed} not in alone
            changed = _net(k, d - bf.points(cards), rules, mult, big)
            assert claim.points == scored - changed > 0
            count["layoff"] += 1
    # one best reply lays off every missed card and keeps each needless one in own melds
    named = {x.card for x in theirs.missed_layoffs}
    needless = frozenset(theirs.needless_layoffs)
    assert len(needless) == len(theirs.needless_layoffs) and needless <= before
    keeps = mask(needless)
    assert any(
        named <= s and not needless & s and least(mask(defender - s), keeps) == best_d
        for s in best_sets
    )
    count["needless"] += len(needless)


def check_deal(record: Mapping[str, Any], count: Counter) -> list[dict[str, int]]:
    """Check every claim of ``analyse(record)`` (a deal record) by brute force: each
    decision, each player's summary, the showdown and the remarks (the sentences).
    Returns each player's summary as re-derived here."""
    report = analyse(record)
    assert isinstance(report, DealAnalysis)
    rules = Rules.from_dict(record.get("rules")).to_dict()
    upcard = record["upcard"]
    limit = bf.knock_limit(rules, upcard)
    steps = {fact.step: fact for fact in report.decisions}
    sums = [dict.fromkeys(SUMMARY_KEYS, 0) for _ in record["players"]]
    said: list[tuple[Any, ...]] = []
    seen = list(walk(record))
    end = seen.pop()
    for state in seen:
        fact = steps.pop(state["step"], None)
        hand, top, verb, player = state["hand"], state["top"], state["verb"], state["player"]
        mine = sums[player]
        words: list[tuple[str, dict[str, Any]]] = []
        if verb in ("pass", "draw stock"):
            made = melds_with(hand | {top}, top) if state["open"] else []
            if not made:
                assert fact is None, fact
                continue
            assert isinstance(fact, DrawDecision) and fact.passed_up.card == top
            assert (fact.player, fact.kind) == (player, "draw")
            meld = frozenset(fact.passed_up.meld)
            assert meld in made and len(meld) == max(map(len, made))
            barred = set() if rules["discard_taken"] == "allowed" else {top}
            after = discard_options(hand | {top})
            with_it = min(v for c, v in after.items() if c not in barred)
            assert fact.passed_up.deadwood_with_it == with_it
            mine["missed_melds"] += 1
            count["passed_up"] += 1
            words.append(
                (
                    "passed_up",
                    {"card": (top,), "meld": fact.passed_up.meld, "deadwood_with_it": with_it},
                )
            )
        elif verb in ("discard", "knock", "gin"):
            assert isinstance(fact, DiscardDecision) and fact.action.endswith(state["card"])
            assert (fact.player, fact.kind) == (player, "discard" if verb == "discard" else "knock")
            barred = set() if rules["discard_taken"] == "allowed" else {state["taken"]}
            after = {c: v for c, v in discard_options(hand).items() if c not in barred}
            best = min(after.values())
            kept = after[state["card"]]
            assert (fact.deadwood, fact.best_deadwood, fact.cost) == (kept, best, kept - best)
            assert set(fact.best_discards) == {c for c, v in after.items() if v == best}
            assert len(fact.best_discards) == len(set(fact.best_discards))
            mine["deadwood_given_away"] += kept - best
            count["discard"] += 1
            if kept > best:
                mine["discards_off_best"] += 1
                count["kept"] += 1
                words.append(
                    (
                        "kept",
                        {
                            "deadwood": kept,
                            "best_deadwood": best,
                            "best_discards": fact.best_discards,
                        },
                    )
                )
            knock = best if verb == "discard" and best <= limit else None
            assert fact.knock_available == knock
            if knock is not None:
                mine["missed_knocks"] += 1
                count["missed_knock"] += 1
                words.append(("knock", {"knock_available": knock}))
            big = rules["big_gin_bonus"] is not None and deadwood(hand) == 0
            gin = (best == 0 or big) and (verb == "discard" or kept > 0)
            assert fact.gin_available == gin
            if gin:
                mine["missed_gins"] += 1
                count["missed_gin"] += 1
                words.append(("gin", {}))
        elif verb == "big gin":
            assert isinstance(fact, BigGinDecision) and (fact.player, fact.kind) == (
                player,
                "big_gin",
            )
            assert rules["big_gin_bonus"] is not None and len(hand) == 11 and deadwood(hand) == 0
            assert (fact.deadwood, fact.best_deadwood, fact.cost) == (0, 0, 0)
            count["big_gin"] += 1
        else:
            assert fact is None, fact
        said += [
            ("decision", kind, player, {"action": fact.action, **values}, state["step"] + 1)
            for kind, values in words
        ]
    assert not steps, steps
    result = replay_deal(record)
    if result.void:
        assert report.showdown is None
    else:
        said += _check_shown(record, report, result, end["hands"], count, sums)
    assert report.summary == tuple(
        PlayerSummary(name, **mine) for name, mine in zip(record["players"], sums, strict=True)
    )
    count["summary"] += len(sums)
    summaries = [("summary", "summary", seat, mine, None) for seat, mine in enumerate(sums)]
    assert [
        (x.part, x.kind, x.player, dict(x.values), x.step) for x in remarks(report)
    ] == summaries + said
    return sums


def _check_shown(
    record: Mapping[str, Any],
    report: DealAnalysis,
    result: Any,
    hands: list[frozenset[str]],
    count: Counter,
    sums: list[dict[str, int]],
) -> list[tuple[Any, ...]]:
    """Check the showdown of a deal's analysis (:func:`check_showdown`); add its costs to
    the players' summaries and return what its remarks say."""
    rules = Rules.from_dict(record.get("rules")).to_dict()
    upcard = record["upcard"]
    shown = report.showdown
    assert shown is not None
    knocker = result.knocker_player
    assert shown.knocker.player == knocker and shown.defender.player == 1 - knocker
    played = result.showdown
    assert played is not None and knocker is not None
    assert set(played.knocker.cards) == hands[knocker]
    assert set(played.defender.cards) == hands[1 - knocker]
    review = review_knock(played, rules=record.get("rules"), upcard=upcard)
    check_showdown(hands[knocker], hands[1 - knocker], played, review, rules, upcard, count)
    # the analysis and the pad's review say the same of the same hand
    assert shown.knocker.to_dict() == {
        "player": knocker,
        **{key: getattr(review.knocker, key) for key in shown.knocker.to_dict() if key != "player"},
    }
    theirs = shown.defender
    assert theirs.missed_layoff_worth == review.defender.missed_layoffs
    assert set(theirs.missed_layoffs) == {x.card for x in review.defender.missed_layoffs}
    assert len(theirs.missed_layoffs) == len(review.defender.missed_layoffs)
    assert (theirs.points, theirs.best_points, theirs.cost) == (
        review.defender.points,
        review.defender.best_points,
        review.defender.cost,
    )
    assert (theirs.deadwood, theirs.best_deadwood) == (
        review.defender.deadwood,
        review.defender.best_deadwood,
    )
    sums[knocker]["showdown_cost"] += review.knocker.cost
    sums[1 - knocker]["showdown_cost"] += review.defender.cost
    said: list[tuple[Any, ...]] = []
    if review.knocker.cost:
        mine = review.knocker
        values = {"points": mine.points, "best_points": mine.best_points}
        said.append(("showdown", "arrangement", knocker, values, None))
    missed = review.defender.missed_layoffs
    said += [
        ("showdown", "layoffs", 1 - knocker, {"cards": x.cards, "points": x.points}, None)
        for x in missed
        if not x.rearranged
    ]
    whole = [x for x in missed if x.rearranged]
    if whole:
        assert len({(x.cards, x.points) for x in whole}) == 1  # the best reply, said once
        values = {"cards": whole[0].cards, "points": whole[0].points}
        said.append(("showdown", "rearranged", 1 - knocker, values, None))
    return said


def check_match(record: Mapping[str, Any], count: Counter) -> None:
    """Check every deal of a match record (:func:`check_deal`, each as a deal record of its
    own) and each player's summary of the match: the deals' added up."""
    report = analyse(record)
    assert isinstance(report, MatchAnalysis)
    totals = [dict.fromkeys(SUMMARY_KEYS, 0) for _ in record["players"]]
    header = {"format": DEAL_FORMAT, "rules": record["rules"], "players": record["players"]}
    for deal in record["deals"]:
        for mine, sums in zip(totals, check_deal({**deal, **header}, count), strict=True):
            for key, value in sums.items():
                mine[key] += value
    assert report.summary == tuple(
        PlayerSummary(name, **mine) for name, mine in zip(record["players"], totals, strict=True)
    )
    count["summary"] += len(totals)


def with_showdown(record: Mapping[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A knocked deal record with a showdown laid down at random (any legal knocker
    arrangement, any own melds, any layoffs of the rest), or ``None`` for a deal with no
    knock. Gin keeps the knocker's melds undeclared."""
    last = record["actions"][-1]
    if not last.startswith(("knock", "gin")):
        return None
    *_, knocked, end = walk(record)
    ours, theirs = end["hands"][knocked["player"]], end["hands"][1 - knocked["player"]]
    showdown = _lay_down(ours, theirs, last.split()[0], record.get("rules"), record["upcard"], rng)
    if showdown is None:
        return None
    return {**record, "showdown": showdown}


class Careless(GreedyPlayer):
    """Plays as the greedy bot but for its ``faults``, each given in to ``often`` (0 to 1)
    of the times it could:

    * ``"stock"``: does not take the upcard or a discard (melds passed up);
    * ``"stay"``: does not knock (discards the same card);
    * ``"no_gin"``: does not go gin: discards the same card or, one time in twenty,
      knocks with another card when it can (gin missed by knocking);
    * ``"break"``: discards a card at random (melds broken, discards off the best);
    * ``"feed"``: discards a card that makes a meld with the other player's hand (it
      peeks), when it holds one.

    Whatever its faults, it goes big gin when it can (taking the discard for it).
    """

    kind = "careless"

    def __init__(self, faults: Iterable[str], often: float = 1.0):
        self.faults = frozenset(faults)
        self.often = often

    def _gives_in(self, fault: str, rng: random.Random) -> bool:
        return fault in self.faults and rng.random() < self.often

    def choose(self, deal: Deal, rng: random.Random) -> tuple[str, Card | None]:
        if deal.phase != Phase.DISCARD:
            top, hand = deal.top, deal.hand_mask(deal.turn)
            if deal.wall or deal.must_draw_stock or top is None:
                return super().choose(deal, rng)
            if deal.big_gin_allowed and not mask_deadwood(hand | top.bit):
                return Verb.DRAW_DISCARD, None
            if self._gives_in("stock", rng):
                return (Verb.PASS if deal.phase == Phase.UPCARD_OFFER else Verb.DRAW_STOCK), None
            return super().choose(deal, rng)
        verb, card = super().choose(deal, rng)
        if deal.wall or verb == Verb.BIG_GIN:
            return verb, card
        legal = deal.legal_actions()
        if verb == Verb.GIN and self._gives_in("no_gin", rng):
            knocks = [action for action in legal if action.startswith("knock ")]
            if knocks and rng.random() < 0.05:
                return parse_action(rng.choice(knocks))
            verb = Verb.DISCARD
        if verb == Verb.KNOCK and self._gives_in("stay", rng):
            verb = Verb.DISCARD
        if verb != Verb.DISCARD:
            return verb, card
        plain = [parse_action(action)[1] for action in legal if action.startswith("discard ")]
        other = deal.hand_mask(1 - deal.turn)
        feeding = [c for c in plain if c and any(m & c.bit for m in mask_all_melds(other | c.bit))]
        if feeding and self._gives_in("feed", rng):
            return verb, rng.choice(feeding)
        if self._gives_in("break", rng):
            return verb, rng.choice(plain)
        return verb, card


FAULTS = ("stock", "stay", "no_gin", "break", "feed")
"""The faults of :class:`Careless` players."""

SETUPS = ("faults", "gin", "feed", "big")
"""How :func:`careless` sets a deal up."""


def careless(seed: int, setup: str) -> dict[str, Any]:
    """A deal record played by two :class:`Careless` bots, dealt from the seed (standard,
    modern or Oklahoma rules by turns), as ``setup`` (:data:`SETUPS`) has it:

    * ``"faults"``: their faults drawn at random;
    * ``"gin"``: each dealt 10 melded cards; neither knocks nor goes gin (a gin and a
      knock missed every turn, but now and then a gin missed by knocking);
    * ``"feed"``: one never takes a card offered, the other feeds it cards that meld with
      its hand (melds passed up, discards off the best), and neither knocks;
    * ``"big"``: modern rules; the non-dealer holds 10 of 11 cards that meld, the 11th
      the upcard or the top of the stock (big gin).
    """
    rng = random.Random(seed)
    rules = Rules.from_dict(
        "modern" if setup == "big" else ("standard", "modern", "oklahoma")[seed % 3]
    )
    dealer = rng.randrange(2)
    deck = list(bf.ALL_CODES)
    rng.shuffle(deck)
    faults = [{fault for fault in FAULTS if rng.random() < 0.4} for _ in range(2)]
    if setup == "gin":
        faults = [{"stay", "no_gin"}, {"stay", "no_gin"}]
        first = _melded(rng, 10, deck)
        second = _melded(rng, 10, [card for card in deck if card not in first])
        deck = first + second + [card for card in deck if card not in first + second]
    elif setup == "feed":
        feeder = rng.randrange(2)
        faults[feeder] |= {"feed", "stay"}
        faults[1 - feeder] = {"stock", "stay"}
    elif setup == "big":
        melded = _melded(rng, 11, deck)
        rest = [card for card in deck if card not in melded]
        faults[1 - dealer] = {"stock"}  # it waits for the 11th card
        if rng.random() < 0.5:  # the upcard
            deck = melded[:10] + rest[:10] + melded[10:] + rest[10:]
        else:  # the top of the stock
            deck = melded[:10] + rest[:11] + melded[10:] + rest[11:]
    hands = [deck[:10], deck[10:20]]
    if dealer == 0:  # the first ten are the non-dealer's
        hands.reverse()
    deal = Deal(hands, deck[20], deck[21:], dealer=dealer, rules=rules, names=("ann", "bob"))
    play(deal, [Careless(mine) for mine in faults], rng)
    return deal_record(deal, seed=seed)


def _melded(rng: random.Random, size: int, cards: Iterable[str]) -> list[str]:
    """``size`` of ``cards`` that all meld, in random order: melds drawn at random."""
    every = bf.all_melds(frozenset(cards))
    while True:
        chosen: set[str] = set()
        while len(chosen) < size:
            meld = rng.choice(every)
            if len(chosen) + len(meld) <= size and not meld & chosen:
                chosen |= meld
            elif rng.random() < 0.2:
                break
        if len(chosen) == size:
            return rng.sample(sorted(chosen), size)


def simulated(seed: int, rules: str = "standard") -> dict[str, Any]:
    """A deal record played by two :class:`Careless` bots that knock or go gin half the
    time they would (or, one seed in four, by the simulator's random and greedy bots)."""
    if seed % 4 == 0:
        return simulate(seed, rules=rules, players=("random", "greedy"))
    rng = random.Random(seed)
    deal = Deal.shuffled(rng, rules=Rules.from_dict(rules))
    play(deal, [Careless(("stay", "no_gin"), 0.5) for _ in "ab"], rng)
    return deal_record(deal, seed=seed)


def showdowns(record: Mapping[str, Any], rng: random.Random, count: int) -> Iterable[Any]:
    """Up to ``count`` showdowns of a knocked deal laid down at random, scored
    (:func:`verify_knock`): ``(knocker cards, defender cards, result)``. Half the time the
    defender's own melds take a card some best reply lays off (to be rearranged)."""
    last = record["actions"][-1].split()[0]
    if last not in ("knock", "gin"):
        return
    *_, knocked, end = walk(record)
    ours, theirs = end["hands"][knocked["player"]], end["hands"][1 - knocked["player"]]
    rules, upcard = record.get("rules"), record["upcard"]
    for _ in range(count):
        shown = _lay_down(ours, theirs, last, rules, upcard, rng)
        if shown is None:
            return
        yield (
            ours,
            theirs,
            verify_knock(sorted(ours), sorted(theirs), rules=rules, upcard=upcard, **shown),
        )


def dense_showdowns(seed: int, count: int, steers: tuple[str, ...]) -> Iterable[Any]:
    """``count`` showdowns dealt from the aces to the fives only (melds, layoffs and melds
    that could be laid off are common there), laid down at random as :func:`showdowns`
    does, steered in turn by ``steers`` (see :func:`_lay_down`):
    ``(knocker cards, defender cards, result)``, standard rules."""
    rng = random.Random(seed)
    low = [c for c in bf.ALL_CODES if bf.rank(c) < 5]
    made = 0
    while made < count:
        cards = rng.sample(low, 20)
        ours, theirs = frozenset(cards[:10]), frozenset(cards[10:])
        if deadwood(ours) > 10:
            continue
        for steer in steers:  # a few showdowns of each deal
            shown = _lay_down(ours, theirs, "knock", "standard", None, rng, steer)
            if shown is not None:
                made += 1
                yield ours, theirs, verify_knock(cards[:10], cards[10:], **shown)


def _lay_down(
    ours: frozenset[str],
    theirs: frozenset[str],
    verb: str,
    rules_value: Any,
    upcard: str | None,
    rng: random.Random,
    steer: str | None = None,
) -> dict[str, Any] | None:
    """A showdown part laid down at random (see :func:`with_showdown`), or ``None``.
    ``steer``: with ``"rearrange"``, the defender's own melds hold as many cards the best
    reply lays off as they can; with ``"lay_off"``, they hold none and nothing is laid
    off (``None`` when no own melds can); with ``"needless"``, the knocker keeps more
    deadwood than it must (``None`` when it cannot: costly arrangements) and the defender
    makes no melds and lays off the most points it can (cards own melds would keep);
    unsteered, half the time as with ``"rearrange"`` if they can."""
    rules = Rules.from_dict(rules_value).to_dict()
    showdown: dict[str, Any] = {}
    melds: list[frozenset[str]] = []
    if verb == "knock":
        limit = bf.knock_limit(rules, upcard)
        legal = [a for a in bf.arrangements_all(ours) if bf.arrangement_deadwood(ours, a) <= limit]
        if steer == "needless":
            least_kept = min(bf.arrangement_deadwood(ours, a) for a in legal)
            legal = [a for a in legal if bf.arrangement_deadwood(ours, a) > least_kept]
            if not legal:
                return None
        melds = list(rng.choice(legal))
        if not bf.arrangement_deadwood(ours, melds):
            return None  # gin laid down: nothing to lay off
        showdown["knocker_melds"] = [sorted(m) for m in melds]
    if steer == "needless" and melds:
        cards = max(sorted(bf.layoff_sets(theirs, melds), key=sorted), key=bf.points)
        showdown["defender_melds"] = []
        showdown["layoffs"] = [x.to_dict() for x in place_layoffs(melds, sorted(cards))]
        return showdown
    choices = list(bf.arrangements_all(theirs))
    if melds and (steer in ("rearrange", "lay_off") or (not steer and rng.random() < 0.5)):
        reply = verify_knock(
            sorted(ours), sorted(theirs), rules=rules_value, upcard=upcard, knocker_melds=melds
        )
        wanted = {x.card for x in reply.defender.layoffs}
        most = max(len(set().union(*a) & wanted) for a in choices)
        holding = [a for a in choices if most and len(set().union(*a) & wanted) == most]
        if steer == "lay_off":
            holding = [a for a in choices if wanted and not set().union(*a) & wanted]
        if not holding and steer:
            return None
        choices = holding or choices
    own = list(rng.choice(choices))
    showdown["defender_melds"] = [sorted(m) for m in own]
    if steer == "lay_off":
        showdown["layoffs"] = []
    elif melds:
        rest = theirs - set().union(*own)
        cards = rng.choice(sorted(bf.layoff_sets(rest, melds), key=sorted))
        showdown["layoffs"] = [x.to_dict() for x in place_layoffs(melds, sorted(cards))]
    return showdown
