"""JSON the service can keep: decoding request bodies (and pasted records) with their limits.

Python's ``json`` decodes three things the service cannot store or send
back, and each used to end in a 500 after nothing was stored:

* nesting ~1,000 deep exhausts the decoder's recursion (``RecursionError``);
* integers of more than 4,300 digits cannot become ``int`` (``ValueError``),
  nor be written out again;
* a lone UTF-16 surrogate (``"\\ud800"``) decodes to a ``str`` that has no
  UTF-8 encoding, so SQLite and the response refuse it.

:func:`load_json` decodes and then walks the document (iteratively, so it
cannot overflow itself) and raises :class:`Unstorable` naming the first
place at fault as a dotted path (``players.0``, ``record.comment``):
nesting deeper than :data:`MAX_JSON_DEPTH`, an integer longer than
:data:`MAX_INT_DIGITS` digits, a string or key with a surrogate. Only the
recursion overflow cannot say where (the decoder gives up before any
path exists): it names the whole ``body``. These limits are far above
anything a game needs (records nest 5 deep, scores have a few digits) and
the request schemas bound the real sizes afterwards.

:class:`Parser` is the API's webargs parser with this decoder: such a body
is a 422 naming the field (``{"error": {"code": "invalid", "field":
"players.0", ...}}``), like any other invalid field.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Request
from webargs import core
from webargs.flaskparser import FlaskParser, abort, is_json_request

MAX_JSON_DEPTH = 32
"""Deepest nesting of arrays and objects accepted in any JSON input."""

MAX_INT_DIGITS = 100
"""Most digits of an integer in any JSON input."""


class Unstorable(ValueError):
    """JSON that decodes but cannot be kept; ``field`` is the dotted path at fault."""

    def __init__(self, message: str, field: str):
        super().__init__(f"{field}: {message}")
        self.message = message
        self.field = field


class _LongInt:
    """An integer literal over :data:`MAX_INT_DIGITS` digits, kept until its place is known."""

    def __init__(self, text: str):
        self.digits = len(text.lstrip("-"))


_MAYBE_SURROGATE = re.compile(r"[\ud800-\udfff]|\\u[dD][89a-fA-F]")
"""A lone surrogate in JSON text, as a character or an escape (``\\udc00``), or what may be
one (an escaped backslash before ``udc00``): where it does not match, no string has one."""


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= c <= "\udfff" for c in text)


def _problem(value: Any) -> str | None:
    if isinstance(value, _LongInt):
        return f"a whole number of {value.digits} digits; at most {MAX_INT_DIGITS} are accepted"
    if isinstance(value, str) and _has_surrogate(value):
        return "text with a lone UTF-16 surrogate (like \\ud800), which is not a character"
    return None


def check_document(document: Any) -> None:
    """Raise :class:`Unstorable` for the first thing in ``document`` that cannot be kept."""
    stack: list[tuple[Any, tuple[str, ...]]] = [(document, ())]
    while stack:
        value, path = stack.pop()
        where = ".".join(path) or "body"
        problem = _problem(value)
        if problem:
            raise Unstorable(problem, where)
        if isinstance(value, dict | list):
            if len(path) >= MAX_JSON_DEPTH:
                raise Unstorable(f"nesting deeper than {MAX_JSON_DEPTH} levels", where)
            items = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
            for key, item in reversed(items):
                if isinstance(key, str) and _has_surrogate(key):
                    raise Unstorable(_problem(key) or "", where)
                stack.append((item, (*path, str(key))))


def load_json(data: str | bytes) -> Any:
    """Decode JSON text, refusing (:class:`Unstorable`) what cannot be kept.

    Invalid JSON raises :class:`json.JSONDecodeError` (and undecodable bytes
    :class:`UnicodeDecodeError`) as :func:`json.loads` does.
    """
    text = data.decode("utf-8") if isinstance(data, bytes) else data

    long_ints = 0

    def parse_int(literal: str) -> int | _LongInt:
        nonlocal long_ints
        if len(literal.lstrip("-")) > MAX_INT_DIGITS:
            long_ints += 1
            return _LongInt(literal)
        return int(literal)

    try:
        document = json.loads(text, parse_int=parse_int)
    except RecursionError:
        raise Unstorable(f"nesting deeper than {MAX_JSON_DEPTH} levels", "body") from None
    # The walk looks for what may be there: a long integer, a surrogate, more arrays and
    # objects than the depth allowed (a bracket inside a string counts too: the walk then
    # just finds nothing). Most bodies have none of these and skip it.
    if (
        long_ints
        or text.count("[") + text.count("{") > MAX_JSON_DEPTH
        or _MAYBE_SURROGATE.search(text)
    ):
        check_document(document)
    return document


class Parser(FlaskParser):
    """webargs' Flask parser decoding JSON bodies with :func:`load_json`."""

    def _raw_load_json(self, req: Request) -> Any:
        if not is_json_request(req):
            return core.missing
        try:
            return load_json(req.get_data(cache=True))
        except Unstorable as error:
            messages: Any = [error.message]
            for key in reversed(error.field.split(".")):
                messages = {key: messages}
            abort(422, messages={"json": messages})
