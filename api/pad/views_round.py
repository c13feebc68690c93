"""The current round as the event's pages show it beyond its tables: the round clock
(time left, whether time is up) and the pairings list by player name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.names import fold, plain
from scorekeeper.store.event_clock import seconds_left
from scorekeeper.store.event_results import RoundClock


def shown_time(seconds: int) -> str:
    """Seconds as a clock shows them: ``m:ss`` below an hour, else ``h:mm:ss``.

    >>> shown_time(0), shown_time(65), shown_time(3600 * 2 + 5)
    ('0:00', '1:05', '2:00:05')
    """
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def clock_view(clock: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The clock's JSON (``None``: none) with ``left`` (whole seconds, 0 once time is up),
    ``shown`` (:func:`shown_time`) and ``over`` (time is up): a page's figures, which its
    script counts down from (static/pad-clock.js)."""
    if clock is None:
        return None
    left = seconds_left(RoundClock(**clock))
    return {**clock, "left": left, "shown": shown_time(left), "over": left == 0}


def pairings(round_: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """Each player of the round by name (accents and letter case aside): ``player``,
    ``table`` and ``opponents`` (in seat order); a player with a bye has table ``None``."""
    if round_ is None:
        return []
    lines = [
        {
            "player": name,
            "table": match["table"],
            "opponents": [o for o in match["players"] if o != name],
        }
        for match in round_["matches"]
        for name in match["players"]
    ]
    lines += [{"player": name, "table": None, "opponents": []} for name in round_["byes"]]
    return sorted(lines, key=lambda line: (plain(line["player"]), fold(line["player"])))
