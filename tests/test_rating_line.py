"""A long rating history on the pad's page of a player, on SQLite and PostgreSQL: the
database picks each column's first, last, lowest and highest game, so the chart draws at
most four points a column of it, the same band as a line through every game."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

from store_kit import quick

from api.pad.chart import COLUMNS, HEIGHT, LEFT, RIGHT, WIDTH, chart
from scorekeeper.ratings import Folded, Skill, Step
from scorekeeper.store import games, ratings

GAMES = 10_000
START = datetime(2026, 1, 5, 18, tzinfo=UTC)


def long_history(store, name: str) -> list[int]:
    """A rated history of :data:`GAMES` games for ``name`` in the store's ratings (what a
    fold of as many games leaves there, saved by the store as a fold is), with a spike up
    and one down; its ratings, game by game."""
    sheet, _ = games.create_game(store, [name, "Bor"], rules={"target": 50})
    games.add_hand(store, sheet.id, quick(0, 0, 40))
    ratings.refresh(store)  # the real game folded: the count of changes read
    player = store.player(name).id
    rng = random.Random(31)
    walk = [1000]
    for _ in range(GAMES - 1):
        walk.append(walk[-1] + rng.randint(-12, 12))
    walk[4321], walk[7777] = max(walk) + 300, min(walk) - 300
    steps = tuple(
        Step(player, n, f"game-{n}", finished(n), rating) for n, rating in enumerate(walk, 1)
    )
    skill = Skill(30.0, 2.0, GAMES, finished(GAMES))
    inputs = store.rating_inputs()
    store.save_ratings(
        inputs.state, inputs.state, Folded({player: skill}, steps), scratch=True,
        changes=inputs.changes,
    )  # fmt: skip
    return walk


def finished(n: int) -> str:
    """When game ``n`` of the history ended: one an hour."""
    return (START + timedelta(hours=n)).isoformat().replace("+00:00", "Z")


def kept(walk: list[int], columns: int) -> list[tuple[int, int]]:
    """Each column's first, last, lowest (the first of equals) and highest (the last of
    equals) ``(game number, rating)``, counted here game by game."""
    found: dict[int, list[tuple[int, int]]] = {}
    for n, rating in enumerate(walk, 1):
        found.setdefault((n - 1) * columns // max(len(walk) - 1, 1), []).append((n, rating))
    points = set()
    for column in found.values():
        by_rating = sorted(column, key=lambda point: (point[1], point[0]))
        points |= {column[0], column[-1], by_rating[0], by_rating[-1]}
    return sorted(points)


def test_the_database_gives_each_columns_first_last_lowest_and_highest(store):
    walk = long_history(store, "Ana")
    line = ratings.player_line(store, "ana", COLUMNS)
    assert line is not None and line.games == GAMES
    assert list(line.points) == kept(walk, COLUMNS)
    assert len(line.points) <= 4 * (COLUMNS + 1) < GAMES
    assert line.points[0] == (1, walk[0]) and line.points[-1] == (GAMES, walk[-1])
    assert (4322, max(walk)) in line.points and (7778, min(walk)) in line.points
    assert (line.first.game_id, line.first.finished) == ("game-1", finished(1))
    assert (line.last.game_id, line.last.rating) == (f"game-{GAMES}", walk[-1])
    # a history of fewer games than columns is every game
    assert ratings.player_line(store, "Bor", COLUMNS) is None  # no longer rated here
    short = ratings.player_line(store, "Ana", GAMES)
    assert short is not None and list(short.points) == list(enumerate(walk, 1))


def test_the_chart_of_10000_games_draws_the_same_band_from_few_points(store, app):
    walk = long_history(store, "Ana")
    html = app.test_client().get("/players?name=Ana").get_data(as_text=True)
    svg = html.split('<svg class="rating-chart"', 1)[1].split("</svg>", 1)[0]
    drawn = re.search(r'<polyline class="line" points="([^"]+)"', svg).group(1).split()
    points = [tuple(map(float, point.split(","))) for point in drawn]
    assert len(points) <= 4 * (COLUMNS + 1)
    with app.test_request_context():  # every game, drawn the same way
        full = chart(ratings.player_line(store, "Ana", GAMES))
    every = [tuple(map(float, point.split(","))) for point in full.points.split()]
    assert len(every) == GAMES and points[0] == every[0] and points[-1] == every[-1]
    assert set(points) <= set(every)  # games of the history, on the same scale
    # every game lies in the band the line drawn spans at its place (one unit either side)
    assert all(within(point, points) for point in every)
    assert max(y for _, y in points) < HEIGHT and LEFT <= points[0][0] < points[-1][0]
    assert points[-1][0] == WIDTH - RIGHT and f"From {walk[0]} to " in svg


def within(point: tuple[float, float], line: list[tuple[float, float]]) -> bool:
    """Whether ``point`` lies between the lowest and highest of ``line`` within one unit
    of its x."""
    near = [y for x, y in line if abs(x - point[0]) <= 1]
    return min(near) <= point[1] <= max(near)
