"""Recording a deal (issue 3): the deal record of a deal played so far.

:func:`deal_record` writes a :class:`~scorekeeper.engine.Deal` as a deal
record (``gin-rummy-deal/1``, see :mod:`scorekeeper.records`), and
:func:`rules_value` its rules, compactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import Deal
from .errors import InvalidRecordError
from .record_checks import NOTE_KEYS
from .records import DEAL_FORMAT
from .rules import PRESETS, Rules


def deal_record(
    deal: Deal, *, players: Sequence[str] | None = None, **notes: Any
) -> dict[str, Any]:
    """The deal record of a deal played so far (cards as dealt, actions, no showdown).

    ``players`` defaults to the deal's names; ``notes`` (``seed``,
    ``comment``) are copied in. Rules are written compactly: the preset name,
    or the preset and the options that differ from it.
    """
    record: dict[str, Any] = {
        "format": DEAL_FORMAT,
        "rules": rules_value(deal.rules),
        "players": list(players if players is not None else deal.names),
        "dealer": deal.dealer,
        "hands": [[card.code for card in hand] for hand in deal.dealt],
        "upcard": deal.upcard.code,
        "stock": [card.code for card in deal.initial_stock],
        "actions": deal.actions,
    }
    if not deal.stock_complete:
        record["stock_complete"] = False
    for key, value in notes.items():
        if key not in NOTE_KEYS:
            raise InvalidRecordError(
                f"unknown note {key!r}: use {' or '.join(NOTE_KEYS)}",
                code="unknown_key",
                params={"key": key},
                field=key,
            )
        if value is not None:
            record[key] = value
    return record


def rules_value(rules: Rules) -> str | dict[str, Any]:
    """Rules as a record writes them: a preset name, or the preset plus its changes."""
    base = rules.based_on if rules.based_on in PRESETS else "standard"
    changes = rules.differences()
    return {"preset": base, **changes} if changes else base
