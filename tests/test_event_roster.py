"""The director's roster changes in the pure core (scorekeeper/event_roster.py and the
pairers of scorekeeper/events.py): withdrawals, late entries, walkovers and swaps.

Events are played to the end with hypothesis choosing the results and when players
withdraw or enter, and checked against what each format promises.
"""

from __future__ import annotations

import functools
from collections import Counter
from itertools import combinations

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from test_events import NAMES

from scorekeeper.errors import Conflict, InvalidValueError
from scorekeeper.event_brackets import champion
from scorekeeper.event_pairing import next_round
from scorekeeper.event_roster import enter, entries_open, swap, withdraw
from scorekeeper.event_standings import standings
from scorekeeper.events import Event, Format, MatchResult, PlayedRound, Round


def result(match_players: tuple[str, str], winner: str) -> MatchResult:
    totals = (120, 40) if winner == match_players[0] else (40, 120)
    return MatchResult(match_players, totals, winner)


def play_with_changes(
    event: Event, draw: st.DataObject
) -> tuple[Event, list[tuple[Round, PlayedRound]]]:
    """Play ``event`` to its end; before each round, ``draw`` may withdraw a player or
    enter a new one (where the format still takes one), as long as a round is left to
    pair. Returns the event as changed and
    the rounds."""
    rounds: list[tuple[Round, PlayedRound]] = []
    while True:
        played = [p for _, p in rounds]
        if next_round(event, played) is None:  # over: no change is taken then
            return event, rounds
        if draw.draw(st.booleans()) and len(event.playing(len(rounds) + 1)) > 1:
            name = draw.draw(st.sampled_from(event.playing(len(rounds) + 1)))
            changed = withdraw(event, len(rounds), name)
            if pairable(changed, played):
                event = changed
        if entries_open(event, len(rounds)) and draw.draw(st.booleans()):
            event = enter(event, len(rounds), f"Late {len(event.players)}")
        paired = next_round(event, played)
        if paired is None:  # a knockout's both finalists withdrew: over, no champion
            assert champion(event, played) is None
            return event, rounds
        playing = event.playing(paired.number)
        for winner, gone in paired.walkovers:  # a walkover: a withdrawn player and one playing
            assert winner in playing and gone not in playing
        seated = [name for m in paired.matches for name in m.players] + list(paired.byes)
        assert set(seated) <= set(playing) and len(seated) == len(set(seated))
        results = [result(m.players, draw.draw(st.sampled_from(m.players))) for m in paired.matches]
        rounds.append((paired, paired.played(results)))


def pairable(event: Event, played: list[PlayedRound]) -> bool:
    """Whether ``event``'s next round can be paired. A Swiss may be left with none (two
    players who met, both left, say): the pairer then refuses (``no_pairing``), and this
    checks by search, apart from its matching, that every seating would be a rematch."""
    try:
        next_round(event, played)
    except Conflict as refused:
        assert refused.code == "no_pairing", refused
        met = {frozenset(m.players) for r in played for m in r.matches}
        had_bye = {name for r in played for name in r.byes}
        assert not rematch_free(event.playing(len(played) + 1), met, had_bye)
        return False
    return True


def rematch_free(players: tuple[str, ...], met: set[frozenset[str]], had_bye: set[str]) -> bool:
    """Whether ``players`` can all be seated with nobody meeting again (one bye, to a player
    who had none, when they are odd), by trying every seating."""

    @functools.cache
    def seated(left: frozenset[str]) -> bool:
        if not left:
            return True
        first = min(left)
        return any(
            frozenset((first, other)) not in met and seated(left - {first, other})
            for other in left - {first}
        )

    everyone = frozenset(players)
    if len(everyone) % 2 == 0:
        return seated(everyone)
    return any(seated(everyone - {bye}) for bye in everyone - had_bye)


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(4, 20), st.data())
def test_swiss_pairs_around_withdrawals_never_rematches(count, draw):
    event = Event(tuple(NAMES[:count]), Format.SWISS, draw.draw(st.integers(2, count // 2)))
    event, rounds = play_with_changes(event, draw)
    assert len(rounds) == event.rounds
    meetings = Counter(frozenset(m.players) for r, _ in rounds for m in r.matches)
    assert set(meetings.values()) == {1}
    for paired, _ in rounds:  # every player still playing is seated, nobody else
        seated = [name for m in paired.matches for name in m.players] + list(paired.byes)
        assert sorted(seated) == sorted(event.playing(paired.number))
        assert paired.walkovers == () and len(paired.byes) <= 1
    byes = Counter(name for r, _ in rounds for name in r.byes)
    assert all(n == 1 for n in byes.values())
    lines = {line.player: line for line in standings(event, [p for _, p in rounds])}
    entered, gone = dict(event.entered), dict(event.withdrawn)
    for name in event.players:  # a round a match or a bye, from entering to withdrawing
        assert lines[name].withdrawn == gone.get(name)
        rounds_in = gone.get(name, len(rounds) + 1) - entered.get(name, 1)
        assert lines[name].played + lines[name].byes == rounds_in


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(3, 10), st.data())
def test_round_robin_keeps_its_schedule_the_withdrawn_players_opponents_walk_over(count, draw):
    event = Event(tuple(NAMES[:count]), Format.ROUND_ROBIN)
    event, rounds = play_with_changes(event, draw)
    everyone = len(event.players)
    assert len(rounds) == everyone - 1 + everyone % 2
    # every pair meets once, or has a walkover once, or neither plays by then
    met = Counter(frozenset(m.players) for r, _ in rounds for m in r.matches)
    walked = Counter(frozenset(w) for r, _ in rounds for w in r.walkovers)
    assert not set(met) & set(walked) and set(met.values()) | set(walked.values()) <= {1}
    gone = dict(event.withdrawn)
    for pair in combinations(event.players, 2):
        if not set(pair) & set(gone):
            assert met[frozenset(pair)] == 1
    for paired, _ in rounds:
        for winner, loser in paired.walkovers:
            assert gone[loser] <= paired.number < gone.get(winner, paired.number + 1)
    lines = standings(event, [p for _, p in rounds])
    walkovers = Counter(winner for r, _ in rounds for winner, _ in r.walkovers)
    assert {line.player: line.walkovers for line in lines} == {
        name: walkovers[name] for name in event.players
    }


@pytest.mark.parametrize("kind", [Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION])
@settings(max_examples=examples(40), deadline=None)
@given(count=st.integers(3, 12), draw=st.data())
def test_a_knockout_with_withdrawals_ends_with_a_champion_still_playing(kind, count, draw):
    event = Event(tuple(NAMES[:count]), kind)
    event, rounds = play_with_changes(event, draw)
    played = [p for _, p in rounds]
    gone = dict(event.withdrawn)
    winner = champion(event, played)
    assert winner is None or winner not in gone
    for paired, _ in rounds:
        for through, loser in paired.walkovers:
            assert gone[loser] <= paired.number < gone.get(through, paired.number + 1)
    lines = {line.player: line for line in standings(event, played)}
    assert sum(line.walkovers for line in lines.values()) == sum(
        len(r.walkovers) for r, _ in rounds
    )


def test_a_knockout_final_won_by_walkover():
    event = Event(("Ana", "Bor", "Cy", "Dan"), Format.SINGLE_ELIMINATION)
    first = next_round(event, [])
    assert first is not None
    played = [first.played([result(m.players, m.players[0]) for m in first.matches])]
    event = withdraw(event, 1, "bor")
    final = next_round(event, played)
    assert final is not None and final.matches == () and final.walkovers == (("Ana", "Bor"),)
    played.append(final.played([]))
    assert next_round(event, played) is None and champion(event, played) == "Ana"
    ana, bor = (line for line in standings(event, played) if line.player in ("Ana", "Bor"))
    assert (ana.won, ana.walkovers, ana.played, ana.withdrawn) == (2, 1, 1, None)
    assert (bor.won, bor.lost, bor.played, bor.withdrawn) == (1, 0, 1, 2)


def test_double_elimination_grand_final_by_walkover_owes_no_reset():
    """The winners' side player withdraws before the grand final: the losers' side one goes
    through by walkover and is the champion (no reset: nobody is left to play it)."""
    event = Event(("Ana", "Bor"), Format.DOUBLE_ELIMINATION)
    first = next_round(event, [])
    assert first is not None
    played = [first.played([result(("Ana", "Bor"), "Ana")])]
    event = withdraw(event, 1, "Ana")
    rounds = []
    while (paired := next_round(event, played)) is not None:
        assert paired.matches == ()
        rounds.append(paired)
        played.append(paired.played([]))
    assert rounds[0].walkovers == (("Bor", "Ana"),) and len(rounds) == 1  # no reset
    assert champion(event, played) == "Bor"


def test_withdrawal_and_entry_refusals():
    event = Event(("Ana", "Bor", "Cy"), Format.SWISS, 2)
    with pytest.raises(InvalidValueError) as unknown:
        withdraw(event, 0, "Zed")
    assert (unknown.value.code, unknown.value.field) == ("unknown_player", "player")
    once = withdraw(event, 0, "Ana")
    with pytest.raises(Conflict) as again:
        withdraw(once, 1, "ANA")
    assert again.value.code == "already_withdrawn"
    with pytest.raises(Conflict) as few:
        withdraw(once, 0, "Bor")
    assert few.value.code == "too_few_players"
    with pytest.raises(Conflict) as twice:
        enter(event, 1, " bor ")
    assert twice.value.code == "already_entered"
    with pytest.raises(Conflict) as closed:
        enter(event, 2, "Dan")
    assert closed.value.code == "entries_closed"
    for kind in (Format.ROUND_ROBIN, Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION):
        other = Event(("Ana", "Bor", "Cy"), kind)
        assert enter(other, 0, "Dan").players == ("Ana", "Bor", "Cy", "Dan")
        with pytest.raises(Conflict) as late:
            enter(other, 1, "Dan")
        assert late.value.code == "entries_closed"


def test_a_swap_changes_two_tables_and_needs_a_confirmation_for_a_rematch():
    event = Event(("Ana", "Bor", "Cy", "Dan", "Eva"), Format.SWISS, 3)
    tables = [(1, ("Ana", "Bor")), (2, ("Cy", "Dan"))]
    worked = swap(event, [], tables, ["Eva"], ["ana", "Dan"])
    assert worked.tables == ((1, ("Dan", "Bor")), (2, ("Cy", "Ana"))) and worked.byes == ("Eva",)
    with_bye = swap(event, [], tables, ["Eva"], ["Eva", "Cy"])
    assert with_bye.tables == ((2, ("Eva", "Dan")),) and with_bye.byes == ("Cy",)
    with pytest.raises(Conflict) as rematch:
        swap(event, [("Bor", "Dan")], tables, ["Eva"], ["Ana", "Dan"])
    assert rematch.value.code == "rematch" and rematch.value.params["pairs"] == [["Dan", "Bor"]]
    confirmed = swap(event, [("Bor", "Dan")], tables, ["Eva"], ["Ana", "Dan"], confirm=True)
    assert confirmed.rematches == (("Dan", "Bor"),)
    with pytest.raises(InvalidValueError) as same:
        swap(event, [], tables, ["Eva"], ["Ana", "Bor"])
    assert (same.value.code, same.value.field) == ("same_table", "players")
    gone = withdraw(event, 1, "Eva")
    with pytest.raises(InvalidValueError) as absent:
        swap(gone, [], tables, [], ["Eva", "Ana"])
    assert absent.value.code == "not_in_round"
    with pytest.raises(Conflict) as fixed:
        swap(Event(("Ana", "Bor", "Cy", "Dan"), Format.ROUND_ROBIN), [], tables, [], ["Ana", "Cy"])
    assert fixed.value.code == "swap_not_allowed"


def test_a_swiss_left_with_only_rematches_is_refused_by_name():
    """Four players, two rounds: P01 withdraws at once, P02 beats P03 (P04's bye), then P04
    withdraws: the two left have met, so round 2 is refused (``no_pairing``), never a
    rematch, and the test's own search agrees no seating is left."""
    event = withdraw(Event(tuple(NAMES[:4]), Format.SWISS, 2), 0, NAMES[0])
    first = next_round(event, [])
    assert first is not None and first.byes == (NAMES[3],)
    played = [first.played([result(first.matches[0].players, NAMES[1])])]
    event = withdraw(event, 1, NAMES[3])
    with pytest.raises(Conflict, match="round 2: no pairing without rematches") as refused:
        next_round(event, played)
    assert refused.value.code == "no_pairing" and not pairable(event, played)
