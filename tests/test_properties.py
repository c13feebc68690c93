"""Property tests: the fast rules core against the brute-force oracle in brute_force.py.

Hands come from uniformly random cards and from meld-dense hands (3 suits x
6-7 consecutive ranks, where sets and runs overlap and the solver has real
choices). Knocks are 20 distinct cards plus the upcard: the knocker's hand is
random, dense, from a narrow 3 x 4-5 block, or built from random melds plus a
few low cards (usually a legal knock); the defender's is random, drawn next to
the knocker's cards (layoff-heavy), meld-rich, or from one 4-suit block shared
with the knocker. Illegal knocks must raise RuleError in the core too.

Each property tries a quarter of its examples in the default run and all of them in
the soak tier (``sweep``: conftest.py's ``sweep_examples``).
"""

from __future__ import annotations

from itertools import combinations

import brute_force as bf
import pytest
from conftest import sweep_examples
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import scorekeeper as sk
from scorekeeper import RuleError, Rules
from scorekeeper.knock import KnockResult

RANKS = bf.RANKS
CODES = bf.ALL_CODES
STANDARD = {
    "knock_limit": 10,
    "oklahoma": False,
    "ace_upcard": "gin_only",
    "spade_doubles": False,
    "gin_bonus": 25,
    "big_gin_bonus": None,
    "undercut_bonus": 25,
}
FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
pytestmark = pytest.mark.sweep


# --------------------------------------------------------------------------- the oracle itself


def arr(*melds: str) -> frozenset:
    """An arrangement written as meld strings: arr("As 2s 3s", "7c 7d 7h")."""
    return frozenset(frozenset(m.split()) for m in melds)


def test_oracle_melds_and_deadwood():
    assert bf.is_run("As 2s 3s".split())
    assert not bf.is_run("Qs Ks As".split())
    assert not bf.is_run("Ks As 2s".split())
    assert not bf.is_run("4s 5s 7s".split())
    assert bf.is_set("7c 7d 7s".split()) and bf.is_set("7c 7d 7s 7h".split())
    assert not bf.is_set("7c 7d".split())
    assert bf.deadwood("") == 0
    assert bf.deadwood("Ks") == 10
    assert bf.deadwood("As 2s 3s 4s") == 0
    assert bf.deadwood("Qs Ks As") == 21
    assert bf.deadwood("Ks As 2s") == 13
    # 7s in the run (7h 7d dead, 14) beats 7s in the set (8s 9s dead, 17)
    assert bf.deadwood("7s 7h 7d 8s 9s") == 14
    assert bf.optimal_arrangements("7s 7h 7d 8s 9s") == {arr("7s 8s 9s")}
    assert bf.deadwood("3c 3d 3h 4h 5h") == 6


def test_oracle_arrangements_ties_and_canonical_runs():
    # three ways to leave two ten-point cards
    assert bf.deadwood("Ts Js Qs Ks Kc Kd Tc Td") == 20
    assert bf.optimal_arrangements("Ts Js Qs Ks Kc Kd Tc Td") == {
        arr("Ts Tc Td", "Js Qs Ks"),
        arr("Ks Kc Kd", "Ts Js Qs"),
        arr("Ts Tc Td", "Ks Kc Kd"),
    }
    # 3-8 cut as 3-5 + 6-8 (or 3-6 + ...) is the same arrangement
    assert len(list(bf.arrangements_all(bf.hand("3s 4s 5s 6s 7s 8s")))) > 3
    assert bf.optimal_arrangements("3s 4s 5s 6s 7s 8s") == {arr("3s 4s 5s 6s 7s 8s")}
    assert bf.canonical([frozenset({"3s", "4s", "5s"}), frozenset({"7s", "8s", "9s"})]) == arr(
        "3s 4s 5s", "7s 8s 9s"
    )


def test_oracle_gin_after_discard():
    options = bf.discard_options("As 2s 3s 3c 2d 3d 4d 5d Ah 2h 3h")
    assert [c for c, d in options.items() if d == 0] == ["3c"]
    # without 5d: As-3s, Ah-3h, 2d-4d and 3c left over
    assert options["5d"] == 3
    assert len(options) == 11


def test_oracle_layoffs():
    run = [frozenset("6s 7s 8s".split())]
    assert frozenset({"9s", "Ts", "Js"}) in bf.layoff_sets(bf.hand("9s Ts Js"), run)
    assert bf.layoff_sets(bf.hand("Ts Js"), run) == {frozenset()}  # 9s is missing
    assert bf.layoff_sets(bf.hand("5s 4s 3c"), run) == {
        frozenset(),
        frozenset({"5s"}),
        frozenset({"5s", "4s"}),
    }
    assert bf.layoff_sets(bf.hand("As"), [frozenset("Js Qs Ks".split())]) == {frozenset()}
    sets = [frozenset("7c 7d 7h".split())]
    assert bf.layoff_sets(bf.hand("7s 8s"), sets) == {frozenset(), frozenset({"7s"})}
    # 7s may go on the set or extend the run 8-T; only on the run can 6s follow
    both = [frozenset("7c 7d 7h".split()), frozenset("8s 9s Ts".split())]
    assert frozenset({"7s", "6s"}) in bf.layoff_sets(bf.hand("7s 6s"), both)
    assert bf.defender_best(bf.hand("7s 6s 2c"), both) == 2
    # a card and its meld: the run grows from the knocker's own cards only
    assert bf.layoffs_are_legal(run, {"9s": run[0], "Ts": run[0]})
    assert not bf.layoffs_are_legal(run, {"Ts": run[0]})
    assert not bf.layoffs_are_legal(sets, {"7s": sets[0], "8s": sets[0]})


def test_oracle_knock_sets_beat_runs():
    knocker = "As 5s 6s 7s 5c 6c 7c 5d 6d 7d"
    defender = "3s 4s 8s 4c 8c 4d 8d 5h 6h 7h"
    result = bf.verify_knock(knocker, defender, STANDARD)
    assert (result.outcome, result.winner, result.points) == ("knock", "knocker", 2)
    assert (result.knocker_deadwood, result.best_deadwood) == (1, 3)
    sets = ["5s 5c 5d", "6s 6c 6d", "7s 7c 7d"]
    runs = ["5s 6s 7s", "5c 6c 7c", "5d 6d 7d"]
    by_runs = bf.verify_knock(knocker, defender, STANDARD, knocker_melds=runs)
    assert (by_runs.outcome, by_runs.winner, by_runs.points) == ("undercut", "defender", 26)
    by_sets = bf.verify_knock(knocker, defender, STANDARD, knocker_melds=sets)
    assert (by_sets.outcome, by_sets.points) == ("knock", 2)


def test_oracle_scoring_examples():
    rules = STANDARD
    # K = 10 (Kd), D = 10 (Qd), nothing to lay off: a tie is an undercut, 0 + 25
    tie = bf.verify_knock("As 2s 3s 7c 7d 7h 4h 5h 6h Kd", "Tc Jc Qc 2d 3d 4d 8s 9s Ts Qd", rules)
    assert (tie.outcome, tie.winner, tie.points) == ("undercut", "defender", 25)
    assert (tie.knocker_deadwood, tie.best_deadwood) == (10, 10)
    # 9d 9s Ac: 19 > 10
    with pytest.raises(bf.IllegalKnock):
        bf.verify_knock("As 2s 3s 4s 7c 7d 7h 9d 9s Ac", "2c 3c 4c 5c 6c 7s 8s 9h Th Jh", rules)
    # gin: 25 + D, never undercut, even against 0
    gin = bf.verify_knock("As 2s 3s 4s 7c 7d 7h 9d Td Jd", "Ac 2c 3c 4c 5c 8s 8h 8d Qh Kh", rules)
    assert (gin.outcome, gin.winner, gin.points) == ("gin", "knocker", 25 + 20)
    gin0 = bf.verify_knock("As 2s 3s 4s 7c 7d 7h 9d Td Jd", "Ac 2c 3c 8s 8h 8d Qh Qs Qd Qc", rules)
    assert (gin0.outcome, gin0.winner, gin0.points) == ("gin", "knocker", 25)
    # Laying 2s-4s (K = 1) lets 5s 6s go off: D = 1, undercut. Keeping 2s-4s as
    # deadwood (K = 10, D = 12) wins 2: any arrangement within the limit is legal.
    knocker = "2s 3s 4s 7c 7d 7h Jd Qd Kd Ac"
    defender = "5s 6s Ad 9c 9h 9d 9s Tc Th Td"
    best = bf.verify_knock(knocker, defender, rules)
    assert (best.outcome, best.winner, best.points) == ("knock", "knocker", 2)
    assert best.optimal_pairs == {(10, 12)}
    laid = bf.verify_knock(
        knocker, defender, rules, knocker_melds=["2s 3s 4s", "7c 7d 7h", "Jd Qd Kd"]
    )
    assert (laid.outcome, laid.winner, laid.points) == ("undercut", "defender", 25)
    assert (laid.knocker_deadwood, laid.best_deadwood) == (1, 1)


def test_oracle_limits_doubling_and_big_gin():
    okla = {**STANDARD, "oklahoma": True, "spade_doubles": True}
    assert bf.knock_limit(okla, "Ah") == 0
    assert bf.knock_limit({**okla, "ace_upcard": "one"}, "Ah") == 1
    assert bf.knock_limit(okla, "Kh") == 10
    assert bf.knock_limit(okla, "4c") == 4
    assert bf.knock_limit({**okla, "knock_limit": 3}, "9c") == 3
    assert bf.multiplier(okla, "4s") == 2 and bf.multiplier(okla, "4h") == 1
    assert bf.multiplier(STANDARD, "4s") == 1
    knocker = "2s 3s 4s 7c 7d 7h Jd Qd Kd 3c"  # K = 3
    defender = "Ac 2c Kc 4c 5c 8s 8h 8d Qh Kh"  # D = 1 + 2 + 10 + 4 + 5 + 10 + 10
    assert bf.deadwood(defender) == 42
    with pytest.raises(bf.IllegalKnock):
        bf.verify_knock(knocker, defender, okla, upcard="2h")
    doubled = bf.verify_knock(knocker, defender, okla, upcard="9s")
    assert (doubled.outcome, doubled.points) == ("knock", 2 * (42 - 3))
    single = bf.verify_knock(knocker, defender, okla, upcard="3h")
    assert (single.outcome, single.points) == ("knock", 42 - 3)
    eleven = "7c 7d 7h 7s 8s 9s Ts 5c 5d 5h 5s"
    defender = "Ac 2c Kc 4c 6c 8c 8h 8d Qh Kh"  # D = 1 + 2 + 10 + 4 + 6 + 10 + 10
    with pytest.raises(bf.IllegalKnock):
        bf.verify_knock(eleven, defender, STANDARD)
    big = bf.verify_knock(eleven, defender, {**STANDARD, "big_gin_bonus": 31})
    assert (big.outcome, big.winner, big.points) == ("big_gin", "knocker", 31 + 43)
    with pytest.raises(bf.IllegalKnock):
        bf.verify_knock(
            "7c 7d 7h 7s 8s 9s Ts 5c 5d 5h 4s", defender, {**STANDARD, "big_gin_bonus": 31}
        )


# --------------------------------------------------------------------------- strategies


@st.composite
def dense_pool(draw, suits: int = 3, widths: tuple[int, ...] = (6, 7)) -> list[str]:
    """All cards of ``suits`` suits x ``width`` consecutive ranks."""
    chosen = draw(st.sampled_from(list(combinations("cdhs", suits))))
    width = draw(st.sampled_from(widths))
    low = draw(st.integers(0, 13 - width))
    return [RANKS[r] + s for s in chosen for r in range(low, low + width)]


def some(pool, n: int):
    return st.lists(
        st.sampled_from(sorted(pool, key=bf.index)), min_size=n, max_size=n, unique=True
    )


def random_hand(n: int):
    return some(CODES, n)


@st.composite
def dense_hand(draw, n: int) -> list[str]:
    return draw(some(draw(dense_pool()), n))


def hands(n: int):
    return st.one_of(random_hand(n), dense_hand(n))


@st.composite
def rules_and_upcard(draw, rest: list[str]):
    """Rules (a preset, sometimes with overrides) and an upcard from ``rest``."""
    name = draw(
        st.sampled_from(
            [
                "standard",
                "standard",
                "standard",
                "classic",
                "modern",
                "oklahoma",
                "oklahoma",
                "straight",
            ]
        )
    )
    overrides = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "knock_limit": st.sampled_from([0, 3, 5, 7, 9, 10, 10, 10, 10, 10, 10, 10]),
                "undercut_bonus": st.sampled_from([0, 10, 25]),
                "gin_bonus": st.sampled_from([0, 20, 25]),
                "ace_upcard": st.sampled_from(["gin_only", "one"]),
                "spade_doubles": st.booleans(),
            },
        )
    )
    rules = Rules.preset(name, **overrides)
    upcard = draw(st.sampled_from(sorted(rest, key=bf.index)))
    if not (rules.oklahoma or rules.spade_doubles) and draw(st.booleans()):
        upcard = None  # only rules that read the upcard need it (RULES.md 6, 8)
    return rules, upcard


def neighbours(cards: list[str]) -> list[str]:
    """Cards that could lay off on (or meld with) ``cards``: same rank, or same suit
    within two ranks."""
    near = set()
    for code in CODES:
        if code in cards:
            continue
        for card in cards:
            if bf.rank(code) == bf.rank(card) or (
                bf.suit(code) == bf.suit(card) and abs(bf.rank(code) - bf.rank(card)) <= 2
            ):
                near.add(code)
    return sorted(near, key=bf.index)


@st.composite
def meld(draw) -> list[str]:
    """One random run (3-5 cards) or set (3-4 cards)."""
    if draw(st.booleans()):
        length = draw(st.integers(3, 5))
        low = draw(st.integers(0, 13 - length))
        s = draw(st.sampled_from(bf.SUITS))
        return [RANKS[r] + s for r in range(low, low + length)]
    r = draw(st.integers(0, 12))
    return [
        RANKS[r] + s for s in draw(st.sampled_from([*combinations(bf.SUITS, 3), tuple(bf.SUITS)]))
    ]


@st.composite
def meldy_hand(draw, n: int, taken: tuple[str, ...] = ()) -> list[str]:
    """Random disjoint melds, topped up with 0-3 low cards: usually a legal knock."""
    filler = draw(st.integers(0, 3))
    cards: list[str] = []
    for _ in range(12):
        new = draw(meld())
        if len(cards) + len(new) <= n - filler and not set(new) & {*cards, *taken}:
            cards += new
    free = [c for c in CODES if c not in cards and c not in taken]
    low = [c for c in free if bf.rank(c) <= 3]
    return cards + draw(some(low if len(low) >= n - len(cards) else free, n - len(cards)))


@st.composite
def knock_deal(draw, knocker_cards: int = 10):
    """(knocker, defender, rules, upcard); 21 or 22 distinct cards."""
    kind = draw(
        st.sampled_from(["meldy", "meldy", "meldy", "meldy", "narrow", "dense", "block", "random"])
    )
    reply = "-"
    if kind == "random":
        cards = draw(some(CODES, knocker_cards + 10))
        knocker, defender = cards[:knocker_cards], cards[knocker_cards:]
    elif kind == "block":  # both hands from one 4-suit block of ranks
        pool = draw(dense_pool(suits=4, widths=(6, 7)))
        cards = draw(some(pool, knocker_cards + 10))
        knocker, defender = cards[:knocker_cards], cards[knocker_cards:]
    else:
        if kind == "dense":
            knocker = draw(dense_hand(knocker_cards))
        elif kind == "narrow":
            knocker = draw(some(draw(dense_pool(widths=(4, 5))), knocker_cards))
        else:
            knocker = draw(meldy_hand(knocker_cards))
        reply = draw(st.sampled_from(["layoff", "meldy+layoff", "random", "layoff", "meldy"]))
        defender = []
        if reply.startswith("meldy"):
            defender = draw(meldy_hand(10 if reply == "meldy" else 7, tuple(knocker)))
        if reply.endswith("layoff"):  # next to the knocker's cards
            near = [c for c in neighbours(knocker) if c not in defender]
            defender += draw(some(near, min(10 - len(defender), len(near))))
        rest = [c for c in CODES if c not in knocker and c not in defender]
        defender += draw(some(rest, 10 - len(defender)))
    event(f"deal: {kind}, defender {reply}")
    rest = [c for c in CODES if c not in knocker and c not in defender]
    rules, upcard = draw(rules_and_upcard(rest))
    return knocker, defender, rules, upcard


# --------------------------------------------------------------------------- core vs oracle


def as_set(cards) -> frozenset[str]:
    return frozenset(str(c) for c in cards)


def melds_of(melds) -> list[frozenset[str]]:
    return [as_set(m) for m in melds]


def check_layout(cards: list[str], melds: list[frozenset[str]], deadwood_cards, deadwood: int):
    """Melds are real, disjoint melds of ``cards``; the rest is the deadwood."""
    assert all(bf.is_meld(m) for m in melds), melds
    melded = frozenset().union(*melds)
    assert sum(map(len, melds)) == len(melded), f"melds overlap: {melds}"
    assert melded <= frozenset(cards)
    assert as_set(deadwood_cards) == frozenset(cards) - melded
    assert bf.points(deadwood_cards) == deadwood


def check_result(
    result: KnockResult, expected: bf.KnockResult, knocker: list[str], defender: list[str]
):
    got = (result.outcome, result.winner, result.points)
    assert got == (expected.outcome, expected.winner, expected.points), expected
    breakdown = result.breakdown
    assert result.points == (breakdown.difference + breakdown.bonus) * breakdown.multiplier
    k_side, d_side = result.knocker, result.defender
    pair = (k_side.deadwood, d_side.best_deadwood)
    assert pair in expected.optimal_pairs, (pair, expected)
    assert as_set(k_side.cards) == frozenset(knocker)
    assert as_set(d_side.cards) == frozenset(defender)
    k_melds = melds_of(k_side.melds)
    check_layout(knocker, k_melds, k_side.deadwood_cards, k_side.deadwood)
    if expected.outcome in ("knock", "undercut"):  # the melds shown really give that reply
        assert bf.defender_best(frozenset(defender), k_melds) == d_side.best_deadwood
    layoffs = {str(lay.card): as_set(lay.meld) for lay in d_side.layoffs}
    assert len(layoffs) == len(d_side.layoffs)
    if expected.outcome in ("gin", "big_gin"):
        assert not layoffs
    assert bf.layoffs_are_legal(k_melds, layoffs), (k_melds, layoffs)
    own = [c for c in defender if c not in layoffs]
    check_layout(own, melds_of(d_side.melds), d_side.deadwood_cards, d_side.deadwood)


def compare_knock(knocker, defender, rules, upcard, **declared):
    up = None if upcard is None else sk.parse_cards([upcard])[0]
    try:
        expected = bf.verify_knock(knocker, defender, rules, upcard, **declared)
    except bf.IllegalKnock:
        event("illegal knock")
        with pytest.raises(RuleError):
            sk.verify_knock(knocker, defender, rules=rules, upcard=up, **declared)
        return None
    event(f"outcome: {expected.outcome}")
    result = sk.verify_knock(knocker, defender, rules=rules, upcard=up, **declared)
    check_result(result, expected, knocker, defender)
    assert result.defender.deadwood == result.defender.best_deadwood
    if "knocker_melds" in declared:
        assert bf.canonical(melds_of(result.knocker.melds)) == bf.canonical(
            melds_of(declared["knocker_melds"])
        )
    return result


@settings(FAST, max_examples=sweep_examples(2500))
@given(st.one_of(hands(10), hands(11), st.integers(0, 12).flatmap(random_hand)))
def test_deadwood(cards):
    assert sk.deadwood(cards) == bf.deadwood(cards)


@settings(FAST, max_examples=sweep_examples(1200))
@given(st.one_of(hands(10), hands(11)))
def test_arrangements(cards):
    expected = bf.optimal_arrangements(cards)
    got = sk.arrangements(cards)
    best = bf.deadwood(cards)
    for a in got:
        check_layout(cards, melds_of(a.melds), a.deadwood_cards, a.deadwood)
        assert a.deadwood == best
    as_sets = [bf.canonical(melds_of(a.melds)) for a in got]
    assert len(as_sets) == len(set(as_sets)), "an arrangement is listed twice"
    assert set(as_sets) == expected


@settings(FAST, max_examples=sweep_examples(800))
@given(hands(11))
def test_discard_options(cards):
    expected = bf.discard_options(cards)
    got = sk.discard_options(cards)
    assert {o.discard: o.deadwood for o in got} == expected
    assert len(got) == 11
    assert [o.deadwood for o in got] == sorted(o.deadwood for o in got)


@settings(FAST, max_examples=sweep_examples(1000))
@given(knock_deal())
def test_verify_knock(deal):
    knocker, defender, rules, upcard = deal
    compare_knock(knocker, defender, rules, upcard)


@settings(FAST, max_examples=sweep_examples(500))
@given(knock_deal(), st.data())
def test_verify_knock_declared_melds(deal, data):
    """The knocker lays down a given legal arrangement, not necessarily the best."""
    knocker, defender, rules, upcard = deal
    limit = bf.knock_limit(rules, upcard)
    legal = sorted(
        {
            bf.canonical(a)
            for a in bf.arrangements_all(frozenset(knocker))
            if bf.arrangement_deadwood(frozenset(knocker), a) <= limit
        },
        key=lambda a: sorted(sorted(m) for m in a),
    )
    if not legal:
        return
    chosen = data.draw(st.sampled_from(legal))
    melds = [sorted(m, key=bf.index) for m in chosen]
    compare_knock(knocker, defender, rules, upcard, knocker_melds=melds)


@settings(FAST, max_examples=sweep_examples(300))
@given(knock_deal(), st.data())
def test_verify_knock_declared_defender_melds(deal, data):
    """A defender who shows some own melds lays off only the rest; ``best_deadwood``
    still reports the optimal defender, and the knocker still plays against that one."""
    knocker, defender, rules, upcard = deal
    own = sorted(bf.optimal_arrangements(defender), key=lambda a: sorted(sorted(m) for m in a))
    fixed = data.draw(st.sampled_from([*own, frozenset()]))
    fixed_melds = [sorted(m, key=bf.index) for m in fixed]
    up = None if upcard is None else sk.parse_cards([upcard])[0]
    try:
        expected = bf.verify_knock(knocker, defender, rules, upcard)
    except bf.IllegalKnock:
        with pytest.raises(RuleError):
            sk.verify_knock(knocker, defender, rules=rules, upcard=up, defender_melds=fixed_melds)
        return
    result = sk.verify_knock(knocker, defender, rules=rules, upcard=up, defender_melds=fixed_melds)
    k_side, d_side = result.knocker, result.defender
    assert (k_side.deadwood, d_side.best_deadwood) in expected.optimal_pairs
    k_melds = melds_of(k_side.melds)
    check_layout(knocker, k_melds, k_side.deadwood_cards, k_side.deadwood)
    assert bf.canonical(melds_of(d_side.melds)) == bf.canonical(fixed)
    available = frozenset(defender) - frozenset().union(*fixed)
    k = k_side.deadwood
    if expected.outcome in ("gin", "big_gin"):
        assert not d_side.layoffs
        d = bf.points(available)
        want = (expected.outcome, "knocker", (d + rules.gin_bonus) * bf.multiplier(rules, upcard))
    else:
        d = bf.defender_with_melds(available, k_melds)
        outcome, winner, points, _ = bf._score(k, d, rules, bf.multiplier(rules, upcard))
        want = (outcome, winner, points)
    event(f"outcome: {want[0]}")
    assert d_side.deadwood == d
    assert (result.outcome, result.winner, result.points) == want
    layoffs = {str(lay.card): as_set(lay.meld) for lay in d_side.layoffs}
    assert bf.layoffs_are_legal(k_melds, layoffs)
    assert set(layoffs) <= available


@settings(FAST, max_examples=sweep_examples(300))
@given(knock_deal(knocker_cards=11))
def test_verify_big_gin(deal):
    knocker, defender, rules, upcard = deal
    compare_knock(knocker, defender, rules, upcard)


@settings(FAST, max_examples=sweep_examples(300))
@given(st.data())
def test_verify_big_gin_dense(data):
    """11 cards of a 3 x 4-5 block often all meld."""
    pool = data.draw(dense_pool(suits=3, widths=(4, 5)))
    knocker = data.draw(some(pool, 11))
    rest = [c for c in CODES if c not in knocker]
    defender = data.draw(some(rest, 10))
    name = data.draw(st.sampled_from(["modern", "standard"]))
    compare_knock(knocker, defender, Rules.preset(name), None)


def test_core_hand_worked_examples():
    options = sk.discard_options("As 2s 3s 3c 2d 3d 4d 5d Ah 2h 3h")
    assert (options[0].discard, options[0].deadwood) == ("3c", 0)
    result = sk.verify_knock("As 5s 6s 7s 5c 6c 7c 5d 6d 7d", "3s 4s 8s 4c 8c 4d 8d 5h 6h 7h")
    assert (result.outcome, result.winner, result.points) == ("knock", "knocker", 2)
    assert result.defender.best_deadwood == 3
