"""A rating's history as a line chart drawn on the server: the geometry of an inline SVG.

No script draws it (the pages' Content-Security-Policy allows none from elsewhere, and
a phone on a club's Wi-Fi should not wait for one): :func:`chart` gives the polyline's
points, the grid lines and their labels in the SVG's own units
(:data:`WIDTH` x :data:`HEIGHT`), and ``templates/pad/rating_chart.html`` writes the
``<svg>``; its colours are the stylesheet's, so it follows the light and dark schemes.
Games are evenly spaced along the x axis (one club night's games would otherwise lie
on top of each other); the first and the last game's days are written under it.

The line is drawn from at most four games in each of the :data:`COLUMNS` columns of the
chart (one SVG unit wide): the column's first, last, lowest and highest rating, which
the database picks (:func:`scorekeeper.store.ratings.player_line`). Between them the
line would only go up and down within the column, inside the band they span: it looks
the same as one through every game, and costs the same for 10,000 games as for 1,000.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from scorekeeper.store.sql_ratings import RatingLine

from ..i18n import format_date

WIDTH, HEIGHT = 320, 180
"""The chart's size in SVG units (it is drawn as wide as the page, keeping its shape)."""
LEFT, RIGHT, TOP, BOTTOM = 42, 10, 10, 24
"""The margins: the ratings' labels on the left, the days below."""
STEPS = (10, 20, 25, 50, 100, 200, 250, 500)
"""The spacings of the grid lines, the first that gives at most :data:`LINES` lines."""
LINES = 5
COLUMNS = WIDTH - LEFT - RIGHT
"""The columns of the line: one per SVG unit of its width."""


@dataclass(frozen=True, slots=True)
class Tick:
    """A label beside the chart at ``x``, ``y``, with its text anchor."""

    x: float
    y: float
    label: str
    anchor: str = "end"


@dataclass(frozen=True, slots=True)
class Chart:
    """What the template draws: the line's ``points`` (SVG text), its last point, the
    grid's ratings (``grid``: their lines and labels) and the days (``days``)."""

    points: str
    last: tuple[float, float]
    grid: tuple[Tick, ...]
    days: tuple[Tick, ...]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT


def chart(line: RatingLine | None) -> Chart | None:
    """The chart of a rating's history ``line`` (:data:`COLUMNS` columns); ``None`` without
    a rated game."""
    if line is None:
        return None
    ratings = [rating for _, rating in line.points]
    low, high = _bounds(min(ratings), max(ratings))
    step = next(s for s in STEPS if (high - low) / s <= LINES - 1)
    low, high = step * math.floor(low / step), step * math.ceil(high / step)

    def y(rating: float) -> float:
        return round(TOP + (HEIGHT - TOP - BOTTOM) * (high - rating) / (high - low), 1)

    def x(n: int) -> float:
        span = WIDTH - LEFT - RIGHT
        return round(LEFT + (span * (n - 1) / (line.games - 1) if line.games > 1 else span / 2), 1)

    points = [(x(n), y(rating)) for n, rating in line.points]
    grid = tuple(Tick(LEFT - 4, y(value), str(value)) for value in range(low, high + 1, step))
    first, last = line.first, line.last
    days = [Tick(LEFT, HEIGHT - 6, _day(first.finished), "start")]
    if _day(last.finished) != days[0].label:
        days.append(Tick(WIDTH - RIGHT, HEIGHT - 6, _day(last.finished)))
    return Chart(" ".join(f"{px},{py}" for px, py in points), points[-1], grid, tuple(days))


def _bounds(low: int, high: int) -> tuple[int, int]:
    """The ratings' range widened to at least 40 points around its middle."""
    middle = (low + high) / 2
    half = max((high - low) / 2, 20)
    return math.floor(middle - half), math.ceil(middle + half)


def _day(finished: str) -> str:
    """The day a game ended, in the locale's short form."""
    return format_date(datetime.fromisoformat(finished), "short")
