"""Importers: deal and match records from other Gin Rummy systems (issue 11).

:func:`import_text` reads a whole input and returns the records it could
build, in input order, and an :class:`ImportFault` for every part it could
not (the other parts are still imported). Each record carries the rule
options under which it scores exactly as the source system scored it.

The sources (:data:`SOURCES`): ``openspiel``, the histories of OpenSpiel's
``gin_rummy`` (:mod:`scorekeeper.openspiel`), and ``neller``, the verbose
logs of Neller's EAAI ``GinRummyGame`` (:mod:`scorekeeper.neller`). A fault
is an :class:`~scorekeeper.import_faults.ImportFault`, naming the input line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

from .errors import InvalidRecordError
from .import_faults import FaultReport, ImportFault
from .neller import neller_records
from .openspiel import openspiel_records

SOURCES = ("openspiel", "neller")


class ImportedReport(TypedDict):
    """An :class:`Imported` as the API serves it."""

    records: list[dict[str, Any]]
    errors: list[FaultReport]


@dataclass
class Imported:
    """What an import gave: the records in input order and the faults, in input order."""

    records: list[dict[str, Any]] = field(default_factory=list)
    errors: list[ImportFault] = field(default_factory=list)

    def to_dict(self) -> ImportedReport:
        """``{"records": [...], "errors": [{"line", "position", "message"}]}``."""
        return {"records": self.records, "errors": [e.to_dict() for e in self.errors]}


def import_text(source: str, text: str) -> Imported:
    """Import a whole input of ``source`` (``openspiel`` or ``neller``)."""
    readers = {"openspiel": openspiel_records, "neller": neller_records}
    if source not in readers:
        raise InvalidRecordError(
            f"unknown source {source!r}: use {' or '.join(SOURCES)}",
            code="unknown_source",
            params={"source": source},
            field="source",
        )
    result = Imported()
    for item in readers[source](text):
        if isinstance(item, ImportFault):
            result.errors.append(item)
        else:
            result.records.append(item)
    return result
