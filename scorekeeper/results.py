"""Typed results: frozen records with the JSON they stand for (issue 9).

Every result the rules core returns (a verified knock, a replayed deal, a
score sheet and its parts) is a frozen, slotted dataclass deriving from
:class:`Result`, whose :meth:`~Result.to_dict` gives the JSON-ready dict:
the fields in declaration order, nested results as dicts, tuples as lists
and :class:`~enum.StrEnum` members as their strings. :meth:`Result.from_dict`
reads such a dict back (``Cls.from_dict(r.to_dict()) == r``).

Choices: sequences are tuples (a result cannot be changed, not even in
place). :meth:`~Result.from_dict` is strict: the keys must be the
fields (those with a default may be left out), else ``ValueError``; so a
field typed as a result, or as a union of results, is read back as the
first of those types (or of their subclasses) that takes the whole dict.
Inputs (entries, hands, records) stay plain dicts: only results are typed.

>>> Outcome.BIG_GIN, Outcome("gin") is Outcome.GIN, f"{Side.KNOCKER}"
(<Outcome.BIG_GIN: 'big_gin'>, True, 'knocker')
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator, Mapping
from dataclasses import MISSING, dataclass, fields
from enum import StrEnum
from typing import Any, Self


class Outcome(StrEnum):
    """How a showdown ended (RULES.md 6).

    ``TIE`` is a tied knock under ``tie: no_score``: nobody scores, so it is
    no outcome of a score sheet entry (the sheet takes it as a void hand).
    """

    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big_gin"
    UNDERCUT = "undercut"
    TIE = "tie"


class Side(StrEnum):
    """A player's part in a showdown: the one who knocked, or the other."""

    KNOCKER = "knocker"
    DEFENDER = "defender"


@dataclass(frozen=True, slots=True)
class Result:
    """A frozen result; subclasses declare their fields in JSON order."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready dict: every field in order, nested values made plain."""
        return {f.name: plain(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The result a :meth:`to_dict` dict stands for (the inverse of :meth:`to_dict`).

        Raises ``ValueError`` when the keys are not this result's fields.
        """
        names = {f.name for f in fields(cls)}
        required = {f.name for f in fields(cls)
                    if f.default is MISSING and f.default_factory is MISSING}
        if not isinstance(data, Mapping) or not required <= set(data) <= names:
            raise ValueError(f"not a {cls.__name__}: it has the keys {sorted(names)}")
        hints = _hints(cls)
        return cls(**{name: _build(hints[name], data[name]) for name in data})


def field_values(result: Result) -> dict[str, Any]:
    """A result's fields as keyword arguments, shallow (to build a wider result from it)."""
    return {f.name: getattr(result, f.name) for f in fields(result)}


def plain(value: Any) -> Any:
    """A value as JSON sees it: results as dicts, tuples as lists, enums as strings."""
    if isinstance(value, Result):
        return value.to_dict()
    if isinstance(value, tuple | list):
        return [plain(item) for item in value]
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    found = _HINTS.get(cls)
    if found is None:
        found = _HINTS[cls] = typing.get_type_hints(cls)
    return found


def _build(kind: Any, value: Any) -> Any:
    """``value`` (plain JSON) as the type ``kind`` of a result field."""
    if value is None:
        return None
    origin = typing.get_origin(kind)
    options = ([arg for arg in typing.get_args(kind) if arg is not type(None)]
               if origin is typing.Union or origin is types.UnionType else [kind])
    if len(options) == 1:
        kind = options[0]
        origin = typing.get_origin(kind)
    records = [arg for arg in options if isinstance(arg, type) and issubclass(arg, Result)]
    if isinstance(value, Mapping) and records:
        return _build_result(records, value)
    if len(options) > 1:
        if isinstance(value, list):
            sequences = [arg for arg in options if typing.get_origin(arg) is tuple]
            return _build(sequences[0], value) if sequences else value
        enums = [arg for arg in options if isinstance(arg, type) and issubclass(arg, StrEnum)]
        return enums[0](value) if enums and isinstance(value, str) else value
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_build(args[0], item) for item in value)
        return tuple(_build(arg, item) for arg, item in zip(args, value, strict=True))
    if isinstance(kind, type) and issubclass(kind, StrEnum):
        return kind(value)
    return value


def _build_result(kinds: list[type[Result]], value: Mapping[str, Any]) -> Result:
    """The first of ``kinds`` (or of their subclasses) whose :meth:`Result.from_dict`
    takes ``value``, those whose fields are exactly its keys tried first."""
    candidates = list(dict.fromkeys(_with_subclasses(kinds)))
    candidates.sort(key=lambda c: {f.name for f in fields(c)} != set(value))
    for candidate in candidates:
        try:
            return candidate.from_dict(value)
        except ValueError:
            continue
    raise ValueError(f"not a {' or '.join(k.__name__ for k in kinds)}: keys {sorted(value)}")


def _with_subclasses(kinds: list[type[Result]]) -> Iterator[type[Result]]:
    """``kinds`` and their subclasses; only slotted classes, as ``dataclass(slots=True)``
    replaces each class by a slotted copy but leaves the original among the subclasses."""
    for kind in kinds:
        if "__slots__" in vars(kind):
            yield kind
            yield from _with_subclasses(kind.__subclasses__())
