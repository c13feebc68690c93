"""Response schemas derived from the result types: one description per shape.

The rules core and the store return frozen :class:`~scorekeeper.results.Result`
dataclasses whose ``to_dict()`` is the JSON the API serves. :class:`Shapes`
builds the marshmallow schema of such a type from its typed fields (for the
OpenAPI document only: answers are written by ``to_dict()``, never by these
schemas):

* ``int``, ``float``, ``str``, ``bool`` are the JSON types; a
  :class:`~enum.StrEnum` is a string of its values; ``tuple[X, ...]`` a
  list of X; a ``Mapping`` an object; ``X | None`` nullable; a result a
  nested schema (a component of the document, named by its class or by the
  name it is given).
* A union of results is one schema: the fields of every member, in order of
  appearance, a field required when every member has it, its type the union
  of its types in the members (``HandRecord | HollywoodHandRecord``: the
  Hollywood fields optional). A union of a result and a list of them (a
  settlement) is a ``oneOf`` (nullable as a whole, never in a branch: a
  generator reads ``nullable`` beside the ``oneOf``, not inside it). Its
  list's items name the result by an alias of its own (``SettlementItem``:
  an ``allOf`` of ``Settlement``, :meth:`Shapes.aliases`): typescript-fetch
  imports each branch's model, and one name twice does not compile.
* A field's description is its docstring's first paragraph (the string
  literal below it in the class body), where it has one.
* A result whose ``to_dict()`` lays a part out flat (a stored sheet around
  its core sheet) is told so (``flat``): that field's fields take its place
  (the outer fields of the same name win); fields that are no keys of the
  JSON are left out.

Every schema made is kept (:meth:`Shapes.components`, the aliases
:meth:`Shapes.aliases`), so the document can register the ones only named
inside a ``oneOf``.
"""

from __future__ import annotations

import ast
import functools
import inspect
import sys
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import fields as dataclass_fields
from enum import StrEnum
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from scorekeeper.results import Result

_SCALARS: dict[Any, type[fields.Field[Any]]] = {
    int: fields.Integer,
    float: fields.Float,
    str: fields.String,
    bool: fields.Boolean,
}


def _options(kind: Any) -> list[Any]:
    """The alternatives of a type: the members of a union (flattened), else the type itself."""
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        return [option for arg in typing.get_args(kind) for option in _options(arg)]
    return [kind]


def _is_result(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, Result)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


@functools.cache
def _classes(module: str) -> dict[str, ast.ClassDef]:
    """The top-level classes of a module's source by name (each module parsed once)."""
    try:
        source = inspect.getsource(sys.modules[module])
    except (KeyError, OSError, TypeError):
        return {}
    return {node.name: node for node in ast.parse(source).body if isinstance(node, ast.ClassDef)}


def field_docs(cls: type) -> dict[str, str]:
    """The first paragraph of each field's docstring in the body of ``cls`` (not its bases)."""
    body = _classes(cls.__module__).get(cls.__qualname__)
    if body is None:
        return {}
    docs = {}
    for statement, following in zip(body.body, body.body[1:], strict=False):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            text = inspect.cleandoc(following.value.value).split("\n\n")[0]
            docs[statement.target.id] = " ".join(text.split())
    return docs


class _Field:
    """One field of a shape being derived: its types, how many members have it, its docs."""

    def __init__(self) -> None:
        self.types: list[Any] = []
        self.members = 0
        self.description: str | None = None
        self.extra: dict[str, Any] = {}


class Shapes:
    """Derives and keeps the response schemas of result types.

    ``names`` names the schemas: a result class, or a union of them, to its
    component name (by default a class's own name; a union must be named).
    Two different shapes under one name are refused. Per result class:
    ``flat`` names the field its ``to_dict()`` lays out flat and the fields
    that are no keys of its JSON (see the module docs); ``extra`` adds to a
    field's document what its type cannot say (a list's length, to the list
    branch of a ``oneOf``; the values of an enum that occur; ``nullable``
    false for a ``None`` that ``to_dict()`` leaves out), for the class and its
    subclasses; ``added`` are the fields the API adds to its JSON; ``given`` are the
    schemas written by hand for result classes (used where such a class is a field).
    """

    def __init__(
        self,
        names: Mapping[Any, str] = {},
        *,
        flat: Mapping[type, tuple[str | None, Iterable[str]]] = {},
        extra: Mapping[type, Mapping[str, Mapping[str, Any]]] = {},
        added: Mapping[type, Mapping[str, fields.Field[Any]]] = {},
        given: Mapping[type, type[ma.Schema]] = {},
    ):
        self._names = {self._key(kind): name for kind, name in names.items()}
        self._flat = {cls: (part, frozenset(omit)) for cls, (part, omit) in flat.items()}
        self._extra = extra
        self._added = added
        self._made: dict[frozenset[type], type[ma.Schema]] = {}
        self._given = {frozenset([cls]): schema for cls, schema in given.items()}
        self._by_name: dict[str, frozenset[type]] = {}
        self._aliases: dict[str, str] = {}

    @staticmethod
    def _key(kind: Any) -> frozenset[type]:
        members = frozenset(_options(kind))
        if not members or not all(_is_result(member) for member in members):
            raise TypeError(f"{kind!r} is not a result type nor a union of them")
        return members

    def name(self, kind: Any) -> str:
        """The component name of a result type or union."""
        key = self._key(kind)
        if key in self._names:
            return self._names[key]
        if len(key) == 1:
            return next(iter(key)).__name__
        raise TypeError(f"name the union {kind!r} (Shapes(names=...))")

    def schema(self, kind: Any) -> type[ma.Schema]:
        """The schema of result type (or union of them) ``kind``, made once."""
        key = self._key(kind)
        made = self._made.get(key) or self._given.get(key)
        if made is not None:
            return made
        name = self.name(kind)
        if self._by_name.setdefault(name, key) != key:
            raise TypeError(f"two shapes named {name}: {sorted(c.__name__ for c in key)}")
        attributes: dict[str, Any] = {
            field_name: self._field(
                field.types,
                required=field.members == len(key),
                description=field.description,
                extra=field.extra,
            )
            for field_name, field in self._merge(key).items()
        }
        for member in key:
            attributes.update(self._added.get(member, {}))
        made = self._made[key] = type(name, (ma.Schema,), attributes)
        return made

    def components(self) -> dict[str, type[ma.Schema]]:
        """Every schema made so far, by component name."""
        return {schema.__name__: schema for schema in self._made.values()}

    def aliases(self) -> dict[str, dict[str, Any]]:
        """The components that only name another (the items of a list beside one of them)."""
        return {alias: {"allOf": [_ref(name)]} for alias, name in self._aliases.items()}

    def _merge(self, key: frozenset[type]) -> dict[str, _Field]:
        """The fields of the members of ``key``, in order of appearance (see the module docs)."""
        shape: dict[str, _Field] = {}
        for member in sorted(key, key=_declared_order):
            hints = typing.get_type_hints(member)
            docs: dict[str, str] = {}
            extra: dict[str, Mapping[str, Any]] = {}
            for cls in reversed(member.__mro__):
                docs.update(field_docs(cls) if _is_result(cls) else {})
                extra.update(self._extra.get(cls, {}))
            flatten, omit = self._flat.get(member, (None, frozenset()))
            own = [f.name for f in dataclass_fields(member) if f.name not in omit]
            inner: dict[str, _Field] = {}
            parts = 1
            if flatten in own:
                inner_key = self._key(hints[flatten])
                inner, parts = self._merge(inner_key), len(inner_key)
            for name in own:
                if name in inner:
                    continue  # placed where the flattened part has it
                if name != flatten:
                    _add(shape, name, [hints[name]], True, docs.get(name), extra.get(name))
                    continue
                for inner_name, field in inner.items():
                    if inner_name in own:  # the outer field wins
                        doc = docs.get(inner_name)
                        more = extra.get(inner_name)
                        _add(shape, inner_name, [hints[inner_name]], True, doc, more)
                    else:
                        present = field.members == parts
                        _add(
                            shape, inner_name, field.types, present, field.description, field.extra
                        )
        return shape

    def _field(
        self,
        kinds: list[Any],
        *,
        required: bool,
        description: str | None,
        extra: Mapping[str, Any],
    ) -> fields.Field[Any]:
        """The marshmallow field of a value of any of ``kinds``."""
        options = list(dict.fromkeys(option for kind in kinds for option in _options(kind)))
        extra = dict(extra)
        nullable = type(None) in options and extra.pop("nullable", True)
        options = [option for option in options if option is not type(None)]
        metadata: dict[str, Any] = {"description": description} if description else {}
        common: dict[str, Any] = {"required": required, "allow_none": nullable}
        results = [option for option in options if _is_result(option)]
        lists = [option for option in options if typing.get_origin(option) is tuple]
        enums = [o for o in options if isinstance(o, type) and issubclass(o, StrEnum)]
        if results and lists and len(results) + len(lists) == len(options):  # one or a list
            items = [arg for kind in lists for arg in _item_types(kind)]
            one = self.schema(_union(results)).__name__
            many = self.schema(_union(items)).__name__
            if many == one:  # typescript-fetch imports a model once per branch: twice is no TS
                many = f"{one}Item"
                self._aliases[many] = one
            array = {"type": "array", "items": _ref(many), **extra}
            return fields.Raw(**common, metadata={"oneOf": [_ref(one), array], **metadata})
        metadata.update(extra)
        if len(results) == len(options):
            return fields.Nested(self.schema(_union(results)), **common, metadata=metadata)
        if len(lists) == len(options):
            items = [arg for kind in lists for arg in _item_types(kind)]
            item = self._field(items, required=False, description=None, extra={})
            return fields.List(item, **common, metadata=metadata)
        if enums and len(enums) == len(options):
            values = list(dict.fromkeys(member.value for enum in enums for member in enum))
            return fields.String(validate=validate.OneOf(values), **common, metadata=metadata)
        if len(options) == 1 and options[0] in _SCALARS:
            return _SCALARS[options[0]](**common, metadata=metadata)
        if len(options) == 1 and typing.get_origin(options[0]) in (Mapping, dict):
            return fields.Dict(**common, metadata=metadata)
        if options == [Any]:
            return fields.Raw(**common, metadata=metadata)
        raise TypeError(f"no schema for a field of type {' | '.join(map(str, kinds))}")


def _add(
    shape: dict[str, _Field],
    name: str,
    kinds: list[Any],
    present: bool,
    doc: str | None,
    extra: Mapping[str, Any] | None,
) -> None:
    """Count a member's field ``name`` (of ``kinds``; ``present`` always) into ``shape``."""
    field = shape.setdefault(name, _Field())
    field.types += kinds
    field.members += present
    field.description = field.description or doc
    field.extra = {**(extra or {}), **field.extra}


def _item_types(kind: Any) -> list[Any]:
    """The item types of ``tuple[X, ...]``."""
    args = typing.get_args(kind)
    if len(args) != 2 or args[1] is not Ellipsis:
        raise TypeError(f"{kind!r}: only tuples of any length (tuple[X, ...]) are lists")
    return [args[0]]


def _union(kinds: list[Any]) -> Any:
    """The union of ``kinds`` (one type: itself)."""
    union = kinds[0]
    for kind in kinds[1:]:
        union = union | kind
    return union


def _declared_order(cls: type) -> tuple[str, int]:
    """Members of a union in the order of their source (a stable order for the fields)."""
    node = _classes(cls.__module__).get(cls.__qualname__)
    return (cls.__module__, 0 if node is None else node.lineno)
