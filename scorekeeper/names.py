"""Player names: one way to clean them, one way to tell whether two are the same player.

A name is stored as typed once cleaned (:func:`clean_name`): Unicode NFC
(so "Émile" typed with a combining accent and with a precomposed "É" is
one string), trimmed, 1 to :data:`MAX_NAME_LENGTH` characters. Two names
are the same player when their keys (:func:`name_key`, the cleaned name
casefolded) are equal: "Ana", "ANA" and "Ana " are one player, and so are
"Straße" and "STRASSE".

Names cannot deceive: characters that are invisible or that change how the
text around them is laid out are refused rather than silently removed
(removing them could make two different-looking inputs one name, or hide
what was typed): C0 and C1 control characters (NUL, TAB, CR, LF ...,
DEL), the bidirectional controls (U+200E/F, U+061C, U+202A-202E,
U+2066-2069) and the zero-width characters (U+200B-200D, U+2060, U+FEFF).
Other spaces inside a name are kept as typed.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from .errors import InvalidValueError

MAX_NAME_LENGTH = 40
"""Longest player name, in characters after cleaning (the one home of this limit)."""

REFUSED_CHARACTERS = (
    "\x00-\x1f\x7f-\x9f"  # C0 controls, DEL, C1 controls
    "\u061c\u200e\u200f"  # Arabic letter mark, left-to-right and right-to-left marks
    "\u202a-\u202e"  # bidi embeddings and overrides
    "\u2066-\u2069"  # bidi isolates
    "\u200b-\u200d\u2060\ufeff"  # zero-width space, non-joiner, joiner, word joiner, BOM
)
"""The characters a name may not hold, as the inside of a regular expression class.

Written so that both Python and JSON Schema (ECMA) regular expressions read it.
"""

_REFUSED = re.compile(f"[{REFUSED_CHARACTERS}]")


def _describe(char: str) -> str:
    """``U+202E (RIGHT-TO-LEFT OVERRIDE)`` for a refused character."""
    name = unicodedata.name(char, "control character")
    return f"U+{ord(char):04X} ({name})"


def fold(name: str) -> str:
    """The comparison form of a name: NFC, trimmed, casefolded; refuses nothing.

    :func:`name_key` is this on a cleaned name; the store's migration uses it
    on names stored before they were cleaned.
    """
    return unicodedata.normalize("NFC", name).strip().casefold()


def clean_name(value: Any, *, field: str = "name") -> str:
    """The name as stored: NFC-normalised and trimmed.

    Raises :class:`~scorekeeper.errors.InvalidValueError` naming ``field`` (its
    ``field``; the message is for people and does not repeat it) for a value
    that is not text, one holding a character of :data:`REFUSED_CHARACTERS`
    anywhere (even at an end: a trailing line break is refused, not
    trimmed; the message names the character and its position), an empty
    name and one longer than :data:`MAX_NAME_LENGTH`.
    """
    if not isinstance(value, str):
        raise InvalidValueError("a name must be text", code="name_not_text", option=field)
    name = unicodedata.normalize("NFC", value)
    bad = _REFUSED.search(name)
    if bad:
        raise InvalidValueError(
            f"a name may not hold the invisible or layout-changing"
            f" character {_describe(bad.group())} (character"
            f" {bad.start() + 1})",
            code="name_character",
            params={"character": _describe(bad.group()), "position": bad.start() + 1},
            option=field,
        )
    name = name.strip()
    if not name:
        raise InvalidValueError("the name is empty", code="name_empty", option=field)
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidValueError(
            f"a name has at most {MAX_NAME_LENGTH} characters, this one has {len(name)}",
            code="name_too_long",
            params={"limit": MAX_NAME_LENGTH, "length": len(name)},
            option=field,
        )
    return name


def name_key(name: Any, *, field: str = "name") -> str:
    """The key that says which player a name is: ``clean_name(name).casefold()``."""
    return clean_name(name, field=field).casefold()
