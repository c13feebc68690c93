"""A season's table (scorekeeper/seasons.py): both rules, every tie-break, casual games
on and off, the days counted (issue 29, item 2)."""

from __future__ import annotations

import pytest

from scorekeeper.errors import InvalidInputError
from scorekeeper.events import Event, Format, MatchResult, PlayedRound
from scorekeeper.seasons import CasualGames, Measure, Night, Season, TableRule, season_table


def night(day, players, *rounds, byes=()):
    """A round robin night of ``players`` on ``day``; each round a list of
    (winner, loser, winner's total, loser's total)."""
    played = tuple(
        PlayedRound(
            tuple(MatchResult((w, lo), (tw, tl), w) for w, lo, tw, tl in matches),
            tuple(byes[i]) if i < len(byes) else (),
        )
        for i, matches in enumerate(rounds)
    )
    return Night(f"e-{day}", f"Night {day}", day, Event(tuple(players), Format.ROUND_ROBIN), played)


def casual(winner, loser, won_by=50, games=1):
    """``games`` casual games ``winner`` won against ``loser``, each by ``won_by``."""
    return CasualGames(winner, loser, games, won_by * games)


def season(rule="wins", casual_games=False, **kwargs):
    return Season("Spring", "2026-03-01", "2026-03-31", TableRule(rule), casual_games, **kwargs)


def rows(table, *fields):
    return [tuple(getattr(line, f) for f in ("rank", "player", *fields)) for line in table]


def test_wins_rule_adds_up_the_nights_matches():
    nights = [
        night("2026-03-03", "ABCD", [("A", "B", 130, 20), ("C", "D", 110, 90)]),
        night("2026-03-10", "ABC", [("C", "A", 120, 100)], byes=[("B",)]),
    ]
    table = season_table(season(), nights, [])
    assert rows(table, "events", "won", "lost", "net_points", "points") == [
        (1, "C", 2, 2, 0, 40, 2),
        (2, "A", 2, 1, 1, 90, 1),
        (3, "B", 2, 1, 1, -110, 1),  # the bye: a win worth 0 points
        (4, "D", 1, 0, 1, -20, 0),
    ]
    assert table[0].tie_break is None and table[2].tie_break is Measure.NET_POINTS
    assert table[1].to_dict()["tie_break"] is None  # a point ahead of B: no tie-break needed


def test_head_to_head_breaks_a_tie_of_wins_and_net_points_and_says_so():
    nights = [
        night("2026-03-03", "AB", [("B", "A", 120, 100)]),
        night("2026-03-04", "AB", [("A", "B", 120, 100)]),
        night("2026-03-05", "ABC", [("A", "C", 150, 100)], [("B", "C", 140, 100)]),
        night("2026-03-06", "AB", [("B", "A", 110, 100)]),
        night("2026-03-07", "ABC", [("A", "C", 110, 100)]),
    ]
    table = season_table(season(), nights, [])
    assert rows(table, "points", "net_points", "head_to_head", "tie_break")[:2] == [
        (1, "B", 3, 50, 2, None),
        (2, "A", 3, 50, 1, Measure.HEAD_TO_HEAD),
    ]


def test_players_level_on_everything_share_a_rank():
    nights = [night("2026-03-03", "ABCD", [("A", "B", 120, 100), ("C", "D", 120, 100)])]
    table = season_table(season(), nights, [])
    assert rows(table, "tie_break") == [
        (1, "A", None),
        (1, "C", None),
        (3, "B", None),
        (3, "D", None),
    ]


def test_placement_rule_gives_points_by_each_nights_place():
    nights = [
        night("2026-03-03", "ABC", [("A", "B", 150, 100)], [("A", "C", 150, 100)]),
        night("2026-03-10", "ABC", [("C", "B", 150, 100)], [("C", "A", 150, 100)]),
    ]
    table = season_table(season("placement"), nights, [])
    # night 1: A 10, then B and C level on 1 loss and -50 each, sharing 2nd: 8 each
    # night 2: C 10, B and A share 2nd: 8 each
    assert rows(table, "points", "won", "net_points", "tie_break") == [
        (1, "A", 18, 2, 50, None),
        (1, "C", 18, 2, 50, None),
        (3, "B", 16, 0, -100, None),
    ]


def test_placement_ties_go_to_match_wins_then_net_points():
    nights = [
        night(
            "2026-03-03",
            "ABC",
            [("A", "B", 150, 100)],
            [("A", "C", 150, 100)],
            [("B", "C", 150, 100)],
        ),
        night(
            "2026-03-10",
            "ABC",
            [("B", "A", 200, 100)],
            [("B", "C", 150, 100)],
            [("A", "C", 150, 100)],
        ),
    ]
    table = season_table(season("placement", placement=(3, 2, 1)), nights, [])
    assert rows(table, "points", "won", "net_points", "tie_break") == [
        (1, "B", 5, 3, 150, None),
        (2, "A", 5, 3, 50, Measure.NET_POINTS),
        (3, "C", 2, 0, -200, None),
    ]


def test_a_placement_list_of_the_clubs_own_and_zero_below_it():
    players = "ABCD"
    results = (
        [("A", "B", 150, 100), ("C", "D", 140, 100)],
        [("A", "C", 150, 100), ("B", "D", 130, 100)],
    )
    table = season_table(
        season("placement", placement=(5, 1)), [night("2026-03-02", players, *results)], []
    )
    assert [(line.player, line.points) for line in table] == [
        ("A", 5),
        ("C", 1),
        ("B", 0),
        ("D", 0),
    ]


def test_casual_games_count_as_matches_under_the_wins_rule_only_when_taken():
    nights = [night("2026-03-03", "AB", [("A", "B", 150, 100)])]
    games = [casual("B", "A", 80), casual("B", "C", 10)]
    off = season_table(season(), nights, games)
    assert rows(off, "points", "net_points", "casual_played") == [
        (1, "A", 1, 50, 0),
        (2, "B", 0, -50, 0),
    ]
    on = season_table(season(casual_games=True), nights, games)
    assert rows(
        on, "points", "won", "lost", "net_points", "events", "casual_played", "casual_won"
    ) == [
        (1, "B", 2, 2, 1, 40, 1, 2, 2),
        (2, "A", 1, 1, 1, -30, 1, 1, 0),
        (3, "C", 0, 0, 1, -10, 0, 1, 0),
    ]


def test_casual_games_under_placement_are_counted_beside_and_rank_nobody():
    nights = [night("2026-03-03", "AB", [("A", "B", 150, 100)])]
    games = [casual("B", "A", games=2)]
    table = season_table(season("placement", casual_games=True), nights, games)
    assert rows(table, "points", "won", "net_points", "casual_played", "casual_won") == [
        (1, "A", 10, 1, 50, 2, 0),
        (2, "B", 8, 0, -50, 2, 2),
    ]


def test_the_first_and_last_days_count_and_no_day_outside():
    nights = [
        night("2026-02-28", "AB", [("B", "A", 150, 100)]),
        night("2026-03-01", "AB", [("A", "B", 150, 100)]),
        night("2026-03-31", "AB", [("A", "B", 150, 100)]),
        night("2026-04-01", "AB", [("B", "A", 150, 100)]),
    ]
    table = season_table(season(), nights, [])  # the store picks the casual games by day
    assert rows(table, "events", "points") == [(1, "A", 2, 2), (2, "B", 2, 0)]


def test_one_player_however_the_name_is_written():
    nights = [
        night("2026-03-03", ["Ana", "Bor"], [("Ana", "Bor", 150, 100)]),
        night("2026-03-04", ["ANA", "bor"], [("ANA", "bor", 150, 100)]),
    ]
    table = season_table(season(), nights, [])
    assert rows(table, "events", "points") == [(1, "Ana", 2, 2), (2, "Bor", 2, 0)]


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        (("Spring", "2026-03-31", "2026-03-01", TableRule.WINS, False), "last_day"),
        (("Spring", "2026-03-01", "31 March", TableRule.WINS, False), "last_day"),
        (("Spring", "2026-02-30", "2026-03-31", TableRule.WINS, False), "first_day"),
        (("Spring", "2026-03-01", "2026-03-31", "league", False), "table"),
        (("  ", "2026-03-01", "2026-03-31", TableRule.WINS, False), "name"),
        (("Spring", "2026-03-01", "2026-03-31", TableRule.PLACEMENT, False, (5, 8)), "placement"),
        (("Spring", "2026-03-01", "2026-03-31", TableRule.PLACEMENT, False, ()), "placement"),
        (("Spring", "2026-03-01", "2026-03-31", TableRule.PLACEMENT, False, (3, -1)), "placement"),
    ],
)
def test_bad_settings_are_refused_naming_the_field(settings, field):
    with pytest.raises(InvalidInputError) as caught:
        Season(*settings)
    assert caught.value.field == field


def test_a_one_day_season_is_a_season():
    one = Season("Cup", "2026-03-01", "2026-03-01", TableRule.WINS, False)
    assert one.covers("2026-03-01") and not one.covers("2026-03-02")
