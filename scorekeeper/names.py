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
DEL), every Default_Ignorable_Code_Point of Unicode (the bidirectional
controls U+200E/F, U+061C, U+202A-202E, U+2066-2069; the zero-width
characters U+200B-200D, U+2060, U+FEFF; the soft hyphen U+00AD; the Hangul
fillers U+115F, U+1160, U+3164, U+FFA0; the variation selectors; the tag
characters U+E0000-E007F ...), and a few more that show nothing or break
the line: the blank braille pattern U+2800, the line and paragraph
separators U+2028/9 and the interlinear annotation characters U+FFF9-FFFB.
Other spaces inside a name are kept as typed.

A player is found by any word of the name (:func:`search_words`): the
name folded as for its key, its accents removed, split at everything
that is not a letter or a digit ("Zora Novak" is found by "zo", "NOV",
"Žora" and "novák").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from .errors import InvalidValueError

MAX_NAME_LENGTH = 40
"""Longest player name, in characters after cleaning (the one home of this limit)."""

_IGNORABLE_IN_BMP = (
    "\u00ad\u034f\u061c"  # soft hyphen, combining grapheme joiner, Arabic letter mark
    "\u115f\u1160\u17b4\u17b5"  # Hangul choseong/jungseong fillers, Khmer inherent vowels
    "\u180b-\u180f"  # Mongolian free variation selectors, vowel separator
    "\u200b-\u200f"  # zero-width space, non-joiner, joiner; left-to-right, right-to-left marks
    "\u202a-\u202e"  # bidi embeddings and overrides
    "\u2060-\u206f"  # word joiner, invisible operators, bidi isolates, deprecated formats
    "\u3164\ufe00-\ufe0f\ufeff\uffa0"  # Hangul filler, variation selectors, BOM, filler
    "\ufff0-\ufff8"  # reserved
)

REFUSED_BEYOND_BMP = (
    "\U0001bca0-\U0001bca3"  # shorthand format controls
    "\U0001d173-\U0001d17a"  # musical beam and phrase controls
    "\U000e0000-\U000e0fff"  # tag characters, variation selectors 17-256, reserved
)
"""The refused characters beyond U+FFFF (all default-ignorable), as the inside of a
regular expression class."""

DEFAULT_IGNORABLE = _IGNORABLE_IN_BMP + REFUSED_BEYOND_BMP
"""Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt of Unicode 17), as
the inside of a regular expression class."""

REFUSED_IN_BMP = (
    "\x00-\x1f\x7f-\x9f"  # C0 controls, DEL, C1 controls
    + _IGNORABLE_IN_BMP
    + "\u2028\u2029"  # line and paragraph separators
    + "\u2800"  # braille pattern blank
    + "\ufff9-\ufffb"  # interlinear annotation anchor, separator, terminator
)
"""The refused characters up to U+FFFF, as the inside of a regular expression class that
both Python and JSON Schema (ECMA) regular expressions read: the OpenAPI document's
pattern. (Characters beyond U+FFFF have no spelling in a pattern that every tool reads:
jsonschema-rs, which schemathesis generates with, rewrites them as ``\\U`` escapes that
ECMA refuses; so the document states :data:`REFUSED_BEYOND_BMP` in words.)"""

REFUSED_CHARACTERS = REFUSED_IN_BMP + REFUSED_BEYOND_BMP
"""The characters a name may not hold, as the inside of a (Python) regular expression class."""

_REFUSED = re.compile(f"[{REFUSED_CHARACTERS}]")


def _describe(char: str) -> str:
    """``U+202E (RIGHT-TO-LEFT OVERRIDE)`` for a refused character."""
    name = unicodedata.name(char, "") or (
        "control character" if unicodedata.category(char) == "Cc" else "reserved character"
    )
    return f"U+{ord(char):04X} ({name})"


def fold(name: str) -> str:
    """The comparison form of a name: NFC, trimmed, casefolded; refuses nothing.

    :func:`name_key` is this on a cleaned name; the store's migration uses it
    on names stored before they were cleaned.
    """
    return unicodedata.normalize("NFC", name).strip().casefold()


_UNMARKED = str.maketrans(
    {"ł": "l", "ø": "o", "đ": "d", "ð": "d", "ı": "i", "æ": "ae", "œ": "oe", "þ": "th"}
)
"""The letters that carry an accent without decomposing into letter and mark (Polish ł,
Norwegian ø and æ, Slovenian đ ...), and their plain letters."""

_WORD = re.compile(r"[^\W_]+")


def plain(text: str) -> str:
    """``text`` folded (:func:`fold`) without accents: ``"Žóra"`` -> ``"zora"``."""
    parts = unicodedata.normalize("NFD", fold(text))
    bare = "".join(char for char in parts if not unicodedata.combining(char))
    return unicodedata.normalize("NFC", bare).translate(_UNMARKED)


def search_words(text: str) -> list[str]:
    """The words a name is found by, or a search is made of: :func:`plain` without the
    characters no name may hold (:data:`REFUSED_CHARACTERS`), split at every character
    that is not a letter or a digit, each word once, in order; a text without a letter or
    digit is its one word (nothing for blank text).

    >>> search_words("Jean-Luc  Šubić")
    ['jean', 'luc', 'subic']
    """
    bare = _REFUSED.sub("", plain(text))  # no name holds one: a search drops them
    return list(dict.fromkeys(_WORD.findall(bare))) or ([bare] if bare else [])


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


def repeated(names: Iterable[str]) -> list[list[str]]:
    """The names that are one player (equal by :func:`fold`), grouped in the order given,
    each as written: only the groups of two or more.

    >>> repeated(["Ana", "Bor", "ana", "Cy", "ANA", "bor"])
    [['Ana', 'ana', 'ANA'], ['Bor', 'bor']]
    """
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(fold(name), []).append(name)
    return [group for group in groups.values() if len(group) > 1]
