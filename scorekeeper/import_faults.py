"""The fault of an import (issue 11): a part of another system's record that cannot be read.

Faults name the input line (1-based) and, for OpenSpiel, the position in
the history (0-based index) of the action at fault (``len(history)`` when
the history stops before the deal is over).
"""

from __future__ import annotations

from typing import TypedDict

from .errors import InvalidRecordError


class ImportFault(InvalidRecordError):
    """A part of an import that cannot be read: ``line`` (1-based) and ``position``.

    An invalid input (code ``bad_import``), whatever the reason inside: the
    text is not a record this program can score as its source did.

    ``position`` is the index into an OpenSpiel history, ``None`` when the
    fault is not at one action. The message starts with both:
    ``line 3, position 57: ...``.
    """

    def __init__(self, message: str, *, line: int, position: int | None = None):
        where = f"line {line}" if position is None else f"line {line}, position {position}"
        super().__init__(
            f"{where}: {message}",
            code="bad_import",
            params={"line": line, "position": position},
            field="text",
        )
        self.line = line
        self.position = position

    def to_dict(self) -> FaultReport:
        """``{"line", "position", "message"}`` as the API and the CLI report it."""
        return {"line": self.line, "position": self.position, "message": str(self)}


class FaultReport(TypedDict):
    """An :class:`ImportFault` as the API and the CLI report it."""

    line: int
    position: int | None
    message: str
