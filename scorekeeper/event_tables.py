"""An event's standings and results as tables: rows, CSV text and file names.

The results are one row per match (byes are no matches: the standings count
them): its round, table, the two players, whether it is finished, the
winner and the two final totals (empty while unfinished), its game's id and
how it ended: ``time_called`` when the director ended it before its game was
over (the totals then as they stood, with no game bonus), else empty.
The CSV is RFC 4180 (``csv`` module, CRLF line ends, quoted where needed)
with a header row; names keep every character (the text is UTF-8 when
encoded).

>>> rows = [{"round": 1, "table": 1, "player_a": "Ana", "player_b": "Bor, Jr.",
...     "finished": True, "winner": "Ana", "total_a": 130, "total_b": 20,
...     "game_id": "g1", "ended": TIME_CALLED}]
>>> print(csv_text(RESULTS_COLUMNS, rows), end="")
round,table,player_a,player_b,finished,winner,total_a,total_b,game_id,ended\r
1,1,Ana,"Bor, Jr.",true,Ana,130,20,g1,time_called\r
>>> file_name("Club night: 2 May", "standings")
'club-night-2-may-standings.csv'
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

STANDINGS_COLUMNS = (
    "rank",
    "player",
    "played",
    "won",
    "lost",
    "net_points",
    "byes",
    "opponents_won",
    "walkovers",
    "withdrawn",
)
"""The standings CSV's columns (the keys of a standings line)."""

RESULTS_COLUMNS = (
    "round",
    "table",
    "player_a",
    "player_b",
    "finished",
    "winner",
    "total_a",
    "total_b",
    "game_id",
    "ended",
)
"""The results CSV's columns (the keys of a result row)."""

TIME_CALLED = "time_called"
"""A result row's ``ended`` for a match the director ended (time called)."""


def csv_text(columns: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> str:
    """The rows as CSV under a header row of ``columns``: ``None`` empty, booleans
    ``true``/``false``."""
    out = io.StringIO()
    writer = csv.writer(out)  # RFC 4180: CRLF, quotes doubled, minimal quoting
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row[column]) for column in columns])
    return out.getvalue()


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def file_name(event_name: str, what: str, extension: str = "csv") -> str:
    """A download's file name: the event's name as a slug (ASCII letters and digits
    joined by hyphens; ``event`` when nothing is left), then ``-what.extension``."""
    ascii_name = unicodedata.normalize("NFKD", event_name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-") or "event"
    return f"{slug}-{what}.{extension}"
