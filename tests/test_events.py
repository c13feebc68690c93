"""The pure event core (scorekeeper/events.py): pairings, brackets and standings.

Events are played to the end with results hypothesis draws (who wins each
match, the final totals) and checked against what each format promises.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.errors import Conflict, InvalidValueError
from scorekeeper.event_brackets import champion, seed_order
from scorekeeper.event_pairing import next_round
from scorekeeper.event_standings import standings
from scorekeeper.events import Event, Format, MatchResult, PlayedRound, Round, swiss_rounds_most

NAMES = [f"P{i:02}" for i in range(1, 41)]


def play(event: Event, draw: st.DataObject, limit: int = 200) -> list[tuple[Round, PlayedRound]]:
    """Play ``event`` to its end, ``draw`` choosing each winner and final totals."""
    rounds: list[tuple[Round, PlayedRound]] = []
    while (paired := next_round(event, [p for _, p in rounds])) is not None:
        assert paired.number == len(rounds) + 1
        assert [m.table for m in paired.matches] == list(range(1, len(paired.matches) + 1))
        assert paired.matches, "a paired round has a match"
        results = []
        for match in paired.matches:
            winner = draw.draw(st.sampled_from(match.players))
            win_total = draw.draw(st.integers(100, 400))
            lose_total = draw.draw(st.integers(0, win_total - 1))
            totals = (
                (win_total, lose_total) if winner == match.players[0] else (lose_total, win_total)
            )
            results.append(MatchResult(match.players, totals, winner))
        rounds.append((paired, paired.played(results)))
        assert len(rounds) < limit
    return rounds


def everyone_once(round_: Round, event: Event) -> None:
    seated = [name for m in round_.matches for name in m.players] + list(round_.byes)
    assert sorted(seated) == sorted(event.players)


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(2, 16), st.data())
def test_round_robin_meets_everyone_once(count, draw):
    event = Event(tuple(NAMES[:count]), Format.ROUND_ROBIN)
    rounds = play(event, draw)
    assert len(rounds) == count - 1 + count % 2
    meetings = Counter(frozenset(m.players) for r, _ in rounds for m in r.matches)
    assert set(meetings) == {frozenset(p) for p in combinations(event.players, 2)}
    assert set(meetings.values()) == {1}
    for paired, _ in rounds:
        everyone_once(paired, event)
        assert len(paired.byes) == count % 2
    byes = Counter(name for r, _ in rounds for name in r.byes)
    assert all(n == 1 for n in byes.values()) and len(byes) == count % 2 * count


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(2, 20), st.data())
def test_swiss_never_rematches_and_byes_once(count, draw):
    rounds_wanted = draw.draw(st.integers(1, swiss_rounds_most(count)))
    event = Event(tuple(NAMES[:count]), Format.SWISS, rounds_wanted)
    rounds = play(event, draw)
    assert len(rounds) == rounds_wanted
    meetings = Counter(frozenset(m.players) for r, _ in rounds for m in r.matches)
    assert set(meetings.values()) == {1}
    byes = Counter(name for r, _ in rounds for name in r.byes)
    assert all(n == 1 for n in byes.values())
    for paired, _ in rounds:
        everyone_once(paired, event)
        assert len(paired.byes) == count % 2


def test_a_swiss_of_the_most_rounds_always_finishes():
    """Six players, the later name always winning: a fourth round could not be paired
    (the unplayed pairs were two triangles), so three is the most; three finish."""
    event = Event(tuple("ABCDEF"), Format.SWISS, swiss_rounds_most(6))
    played: list[PlayedRound] = []
    while (paired := next_round(event, played)) is not None:
        played.append(
            paired.played([MatchResult(m.players, (0, 100), m.players[1]) for m in paired.matches])
        )
    assert len(played) == 3


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(3, 24), st.data())
def test_swiss_round_two_pairs_winners_with_winners(count, draw):
    event = Event(tuple(NAMES[:count]), Format.SWISS, 2)
    rounds = play(event, draw)
    first = rounds[0][1]
    winners = {m.winner for m in first.matches} | set(first.byes)
    second = rounds[1][0]
    mixed = sum(1 for m in second.matches if len(winners & set(m.players)) == 1)
    # odd winners leave exactly one winner to meet a loser (or take the bye: not
    # here, the bye goes to the lowest group and winners have had theirs)
    assert mixed == len(winners) % 2 if count % 2 == 0 else mixed <= 1
    if count % 2:
        assert second.byes[0] not in winners  # the bye goes to the lowest score group


def test_swiss_bye_goes_to_the_lowest_group():
    event = Event(tuple(NAMES[:5]), Format.SWISS, 3)
    first = next_round(event, [])
    assert first is not None and len(first.byes) == 1
    results = [MatchResult(m.players, (150, 50), m.players[0]) for m in first.matches]
    second = next_round(event, [first.played(results)])
    assert second is not None
    losers = {m.players[1] for m in first.matches}
    assert second.byes[0] in losers


@settings(max_examples=examples(80), deadline=None)
@given(st.integers(2, 33), st.sampled_from(list(Format)[2:]), st.data())
def test_elimination_ends_with_one_champion(count, fmt, draw):
    event = Event(tuple(NAMES[:count]), fmt)
    rounds = play(event, draw)
    winner = champion(event, [p for _, p in rounds])
    assert winner in event.players
    losses = Counter(m.loser for _, p in rounds for m in p.matches)
    lives = 1 if fmt is Format.SINGLE_ELIMINATION else 2
    assert losses[winner] < lives
    assert all(losses[name] == lives for name in event.players if name != winner)
    # the last match played decides it
    assert rounds[-1][1].matches[-1].winner == winner
    if fmt is Format.DOUBLE_ELIMINATION:
        check_grand_final(rounds)


def check_grand_final(rounds):
    """The reset is played exactly when the losers' side wins the first grand final."""
    losses: Counter[str] = Counter()
    first_final = None
    for index, (_, played) in enumerate(rounds):
        for match in played.matches:
            a, b = match.players
            if (
                first_final is None
                and len(set(losses) & {a, b}) == 1
                and index == _final_round(rounds)
            ):
                first_final = match
            losses[match.loser] += 1
    final = rounds[_final_round(rounds)][1].matches
    assert len(final) == 1
    grand = final[0]
    unbeaten = grand.players[0]
    reset_played = len(rounds) == _final_round(rounds) + 2
    assert reset_played == (grand.winner != unbeaten)
    if reset_played:
        (reset,) = rounds[-1][1].matches
        assert set(reset.players) == set(grand.players)


def _final_round(rounds):
    """The index of the round of the first grand final: the first round whose
    only match pits the one player without a loss against a player with one."""
    losses: Counter[str] = Counter()
    for index, (_, played) in enumerate(rounds):
        if len(played.matches) == 1:
            a, b = played.matches[0].players
            if (
                losses[a] == 0
                and losses[b] == 1
                and all(losses[n] >= 2 for n in losses if n not in (a, b))
            ):
                return index
        for match in played.matches:
            losses[match.loser] += 1
    raise AssertionError("no grand final")


@pytest.mark.parametrize("count", [5, 6, 7, 12])
@pytest.mark.parametrize("fmt", [Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION])
def test_byes_go_to_the_top_seeds(count, fmt):
    event = Event(tuple(NAMES[:count]), fmt)
    first = next_round(event, [])
    assert first is not None
    size = 1 << (count - 1).bit_length()
    assert sorted(first.byes) == NAMES[: size - count]
    assert len(first.matches) == (count - (size - count)) // 2


def test_grand_final_reset_when_the_losers_side_wins():
    event = Event(tuple(NAMES[:4]), Format.DOUBLE_ELIMINATION)

    def finish(seat_wins):
        played: list[PlayedRound] = []
        while (paired := next_round(event, played)) is not None:
            results = []
            for m in paired.matches:
                winner = m.players[0] if seat_wins(len(played), m) else m.players[1]
                results.append(
                    MatchResult(m.players, (100, 0) if winner == m.players[0] else (0, 100), winner)
                )
            played.append(paired.played(results))
        return played

    top_wins = finish(lambda _, m: True)
    # winners 2 rounds, losers' bracket 2 rounds (the last in round 3), grand final in round 4
    assert len(top_wins) == 4
    assert champion(event, top_wins) == "P01"
    assert [m.players for m in top_wins[3].matches] == [("P01", "P04")]
    # the losers' side (P04) wins the grand final: the reset follows, P04 wins it too
    reset = finish(lambda index, m: index != 3)
    assert len(reset) == 5
    assert [m.players for m in reset[3].matches] == [("P01", "P04")]
    assert [m.players for m in reset[4].matches] == [("P04", "P01")]
    assert champion(event, reset) == "P04"


def test_seed_order_puts_top_seeds_apart():
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(16)[:4] == [1, 16, 8, 9]


def test_standings_rank_by_wins_net_points_then_head_to_head():
    event = Event(("A", "B", "C", "D"), Format.ROUND_ROBIN)
    rounds = [
        PlayedRound(
            (MatchResult(("A", "B"), (120, 20), "A"), MatchResult(("C", "D"), (110, 10), "C"))
        ),
        PlayedRound(
            (MatchResult(("A", "C"), (0, 100), "C"), MatchResult(("B", "D"), (100, 0), "B"))
        ),
        PlayedRound(
            (MatchResult(("A", "D"), (100, 0), "A"), MatchResult(("B", "C"), (50, 0), "B"))
        ),
    ]
    table = standings(event, rounds)
    assert [(s.rank, s.player, s.played, s.won, s.lost, s.net_points) for s in table] == [
        (1, "C", 3, 2, 1, 150),
        (2, "A", 3, 2, 1, 100),
        (3, "B", 3, 2, 1, 50),
        (4, "D", 3, 0, 3, -300),
    ]


def test_players_level_on_everything_share_a_rank():
    event = Event(("A", "B", "C", "D"), Format.ROUND_ROBIN)
    rounds = [
        PlayedRound(
            (MatchResult(("A", "B"), (100, 0), "A"), MatchResult(("C", "D"), (100, 0), "C"))
        ),
        PlayedRound(
            (MatchResult(("B", "C"), (100, 0), "B"), MatchResult(("A", "D"), (100, 0), "A"))
        ),
        PlayedRound(
            (MatchResult(("C", "A"), (100, 0), "C"), MatchResult(("B", "D"), (100, 0), "B"))
        ),
    ]
    table = standings(event, rounds)
    assert [(s.rank, s.player) for s in table] == [(1, "A"), (1, "B"), (1, "C"), (4, "D")]


def test_standings_head_to_head_breaks_a_tie():
    event = Event(("A", "B"), Format.ROUND_ROBIN)
    rounds = [PlayedRound((MatchResult(("A", "B"), (100, 100), "B"),))]
    assert [(s.rank, s.player) for s in standings(event, rounds)] == [(1, "B"), (2, "A")]


def test_unfinished_matches_do_not_count_and_block_the_next_round():
    event = Event(("A", "B", "C", "D"), Format.ROUND_ROBIN)
    first = next_round(event, [])
    assert first is not None
    open_round = first.played([MatchResult(m.players) for m in first.matches])
    assert all(s.played == 0 for s in standings(event, [open_round]))
    with pytest.raises(Conflict, match="round 1 is still being played"):
        next_round(event, [open_round])


@pytest.mark.parametrize(
    ("players", "fmt", "rounds", "field"),
    [
        (("A",), Format.ROUND_ROBIN, None, "players"),
        (("A", "A"), Format.ROUND_ROBIN, None, "players"),
        (("A", " "), Format.ROUND_ROBIN, None, "players"),
        (("A", "B"), Format.SWISS, None, "rounds"),
        (("A", "B", "C", "D"), Format.SWISS, 3, "rounds"),
        (tuple("ABCDEF"), Format.SWISS, 4, "rounds"),
        (("A", "B"), Format.ROUND_ROBIN, 1, "rounds"),
    ],
)
def test_bad_events_are_refused_naming_the_field(players, fmt, rounds, field):
    with pytest.raises(InvalidValueError) as caught:
        Event(players, fmt, rounds)
    assert caught.value.field == field
