"""The OpenAPI document's form: what code generators need besides the schemas.

The document is OpenAPI 3.0.3 (schemathesis and every generator read it).
Choices made so that generated clients (openapi-generator's ``python``,
openapi-python-client) read every real answer:

* A nullable object is ``{"allOf": [{"$ref": ...}], "nullable": true}``,
  the 3.0 form, instead of apispec's ``anyOf`` of an untyped nullable
  object and the reference (:func:`nullable`).
* ``nullable`` stands beside a ``type``, an ``allOf`` or a ``oneOf``: on the
  field itself, never inside one branch of a ``oneOf`` (openapi-generator's
  ``python`` client refuses a null there).
* In a request, null means absent: a field the document calls nullable may
  be sent as null, and the request is read as if it were left out
  (:class:`api.schemas.Strict`).
* A field or a schema may give its own document (:func:`shown`): a hand is a
  ``oneOf`` of one schema per kind (with a ``discriminator``), a record a
  ``oneOf`` per format, a record inside a request the record's component.
* Every operation has an ``operationId`` (the method name in generated
  clients); ``servers`` is this server (``/``: the paths begin with
  ``/api/v1``); every header an answer may carry is documented.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import marshmallow as ma

SERVERS = [{"url": "/", "description": "This server (the paths begin with /api/v1)."}]


def nullable(
    self: Any, field: ma.fields.Field[Any], ret: dict[str, Any], **kwargs: Any
) -> dict[str, Any]:
    """apispec attribute function: OpenAPI 3.0's ``nullable`` for a field that allows None.

    Replaces apispec's ``field2nullable`` (bound to its converter like it).
    A reference becomes an ``allOf`` of it (apispec writes one already for
    a nested field with a description); a ``oneOf`` (one result or a list
    of them) is nullable as a whole.
    """
    if not field.allow_none:
        return {}
    if "$ref" in ret:
        return {"allOf": [{"$ref": ret.pop("$ref")}], "nullable": True}
    return {"nullable": True} if {"type", "allOf", "oneOf"} & ret.keys() else {}


def shown(convert: Callable[[Any], dict[str, Any]]) -> Callable[[Any], dict[str, Any]]:
    """apispec's ``convert`` (a field's or a schema's document), but for a field or schema
    that gives its own (``openapi``, a dict): a form the converter cannot derive, such as a
    ``oneOf`` by the value of one field, or a free-form object whose keys the domain checks."""

    def converted(item: Any) -> dict[str, Any]:
        own = getattr(item, "openapi", None)
        return copy.deepcopy(own) if own is not None else convert(item)

    return converted


def install(api: Any) -> None:
    """Make the flask-smorest ``api``'s converter write :func:`nullable` for ``field2nullable``
    and a field's or schema's own document where it has one (:func:`shown`)."""
    converter = api.ma_plugin.converter
    functions = converter.attribute_functions
    functions[functions.index(converter.field2nullable)] = nullable.__get__(converter)
    converter.field2property = shown(converter.field2property)
    converter.schema2jsonschema = shown(converter.schema2jsonschema)
