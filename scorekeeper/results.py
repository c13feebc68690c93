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
from collections.abc import Callable, Iterator, Mapping
from dataclasses import MISSING, dataclass, fields
from enum import StrEnum
from typing import Any, Self, TypeVar


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
        names = _NAMES.get(type(self))
        if names is None:
            names = _NAMES[type(self)] = tuple(f.name for f in fields(self))
        return {name: plain(getattr(self, name)) for name in names}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The result a :meth:`to_dict` dict stands for (the inverse of :meth:`to_dict`).

        Raises ``ValueError`` when the keys are not this result's fields.
        """
        read = _CLASS_READERS.get(cls)
        if read is None:
            read = _CLASS_READERS[cls] = _class_reader(cls)
        result: Self = read(data)
        return result


R = TypeVar("R", bound=Result)
"""A result class."""


def from_plain(kind: Any, value: Any) -> Any:
    """``value`` (plain JSON, as :func:`plain` gives it) read back as type ``kind``.

    ``kind`` is what a result field may be typed as: a result, a union of
    results (the first that takes the whole dict, as for a field), a tuple
    of them, a :class:`~enum.StrEnum`; a result wrapping another one reads
    its part back with it (:meth:`Result.from_dict` for the whole).
    """
    return _reader(kind)(value)


def field_values(result: Result) -> dict[str, Any]:
    """A result's fields as keyword arguments, shallow (to build a wider result from it)."""
    return {f.name: getattr(result, f.name) for f in fields(result)}


def slot_builder(cls: type[R]) -> Callable[..., R]:
    """A function building a ``cls`` from all its fields, in order, as ``cls(*values)``
    does, in less time: for the hot path of :func:`~scorekeeper.knock.verify_knock`.

    A frozen dataclass's ``__init__`` sets each field by name through
    ``object.__setattr__``; the function made here sets each slot through its
    descriptor, and is written out for the class's fields (as :mod:`dataclasses` writes
    ``__init__``): a loop over the fields cost more than it saved. A class with a
    ``__post_init__`` is refused: its checks would not run. Measured side by side
    on bench/core.py's knocks, the verifier's three results built so: 1.044-1.047x.

    >>> from scorekeeper.knock_results import Breakdown
    >>> slot_builder(Breakdown)(9, 25, 2) == Breakdown(9, 25, 2)
    True
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True)
    ... class Checked:
    ...     n: int
    ...     def __post_init__(self) -> None: ...
    >>> slot_builder(Checked)
    Traceback (most recent call last):
    TypeError: Checked checks its fields in __post_init__
    """
    if hasattr(cls, "__post_init__"):  # it would be skipped: build such a class by its call
        raise TypeError(f"{cls.__name__} checks its fields in __post_init__")
    names = [field.name for field in fields(cls)]
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    for name in names:
        namespace[f"set_{name}"] = getattr(cls, name).__set__
    source = "\n".join(
        [
            f"def build({', '.join(names)}):",
            "    result = new(cls)",
            *(f"    set_{name}(result, {name})" for name in names),
            "    return result",
        ]
    )
    exec(source, namespace)
    build: Callable[..., R] = namespace["build"]
    return build


_NAMES: dict[type, tuple[str, ...]] = {}
"""Per result class, its field names in order (what :meth:`Result.to_dict` writes)."""

_AS_THEY_ARE = frozenset({int, str, float, bool, type(None)})
"""The types :func:`plain` gives back unchanged (checked first: most values are these)."""


def plain(value: Any) -> Any:
    """A value as JSON sees it: results as dicts, tuples as lists, enums as strings."""
    if type(value) in _AS_THEY_ARE:
        return value
    if isinstance(value, Result):
        return value.to_dict()
    if isinstance(value, tuple | list):
        return [plain(item) for item in value]
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


_READERS: dict[Any, Callable[[Any], Any]] = {}
"""Per field type, the function reading a plain value back as that type, and per result
class its :meth:`Result.from_dict` (each made once: reading a long game's stored sheet
reads thousands of hand records)."""

_CLASS_READERS: dict[type, Callable[[Any], Any]] = {}


def _reader(kind: Any) -> Callable[[Any], Any]:
    """The function reading plain JSON back as type ``kind`` (see :func:`from_plain`)."""
    found = _READERS.get(kind)
    if found is None:
        found = _READERS[kind] = _value_reader(kind)
    return found


def _is_result(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, Result)


def _class_reader(cls: type[Result]) -> Callable[[Any], Any]:
    """What :meth:`Result.from_dict` does for ``cls``: the keys must be its fields (those
    with a default may be left out), each read as its field's type (only the fields whose
    type changes a plain value are converted)."""
    names = {f.name for f in fields(cls)}
    required = {
        f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING
    }
    hints = typing.get_type_hints(cls)
    converted = [
        (name, convert) for name in names if (convert := _reader(hints[name])) is not _as_it_is
    ]

    def read(data: Any) -> Any:
        if not isinstance(data, Mapping) or not required <= data.keys() <= names:
            raise ValueError(f"not a {cls.__name__}: it has the keys {sorted(names)}")
        values = dict(data)
        for name, convert in converted:
            if name in values:
                values[name] = convert(values[name])
        return cls(**values)

    return read


def _as_it_is(value: Any) -> Any:
    """The reader of a plain value (a number, a string, a mapping): the value itself."""
    return value


def _value_reader(kind: Any) -> Callable[[Any], Any]:
    """The reader of a field type that is not one result: a union, a tuple, an enum, or
    a plain value (read as it is). ``None`` is always read as ``None``."""
    origin = typing.get_origin(kind)
    options = (
        [arg for arg in typing.get_args(kind) if arg is not type(None)]
        if origin is typing.Union or origin is types.UnionType
        else [kind]
    )
    if len(options) == 1:
        kind = options[0]
        origin = typing.get_origin(kind)
    records = [arg for arg in options if _is_result(arg)]
    as_record = _records_reader(records) if records else None
    if len(options) > 1:
        sequences = [arg for arg in options if typing.get_origin(arg) is tuple]
        as_sequence = _reader(sequences[0]) if sequences else None
        enum = next(
            (arg for arg in options if isinstance(arg, type) and issubclass(arg, StrEnum)), None
        )

        def read_union(value: Any) -> Any:
            if value is None:
                return None
            if as_record is not None and isinstance(value, Mapping):
                return as_record(value)
            if isinstance(value, list):
                return as_sequence(value) if as_sequence is not None else value
            return enum(value) if enum is not None and isinstance(value, str) else value

        return read_union
    if as_record is not None:
        return lambda value: as_record(value) if isinstance(value, Mapping) else value
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _reader(args[0])
            return lambda value: None if value is None else tuple(map(item, value))
        items = [_reader(arg) for arg in args]
        return lambda value: (
            None
            if value is None
            else tuple(read(item) for read, item in zip(items, value, strict=True))
        )
    if isinstance(kind, type) and issubclass(kind, StrEnum):
        enum_kind = kind
        return lambda value: None if value is None else enum_kind(value)
    return _as_it_is


def _records_reader(kinds: list[type[Result]]) -> Callable[[Mapping[str, Any]], Result]:
    """A dict read as the first of ``kinds`` (or of their subclasses, as found when the
    reader is first needed) whose :meth:`Result.from_dict` takes it, those whose fields
    are exactly its keys tried first."""
    candidates = [
        (c, frozenset(f.name for f in fields(c))) for c in dict.fromkeys(_with_subclasses(kinds))
    ]
    orders: dict[frozenset[str], list[type[Result]]] = {}  # per set of keys met

    def read(value: Mapping[str, Any]) -> Result:
        keys = frozenset(value)
        order = orders.get(keys)
        if order is None:
            order = orders[keys] = [c for c, names in candidates if names == keys] + [
                c for c, names in candidates if names != keys
            ]
        for candidate in order:
            try:
                return candidate.from_dict(value)
            except ValueError:
                continue
        raise ValueError(f"not a {' or '.join(k.__name__ for k in kinds)}: keys {sorted(value)}")

    return read


def _with_subclasses(kinds: list[type[Result]]) -> Iterator[type[Result]]:
    """``kinds`` and their subclasses; only slotted classes, as ``dataclass(slots=True)``
    replaces each class by a slotted copy but leaves the original among the subclasses."""
    for kind in kinds:
        if "__slots__" in vars(kind):
            yield kind
            yield from _with_subclasses(kind.__subclasses__())
