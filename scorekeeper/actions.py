"""A deal's phases and its actions as text (RULES.md 4-5, issue 3).

Actions are text, as in deal records: ``pass`` (decline the upcard),
``draw stock``, ``draw discard`` (also takes the upcard during the offer),
``discard Xx``, ``knock Xx`` (discard Xx face down and knock; with deadwood
0 it is gin), ``gin Xx`` and ``big gin``. :func:`parse_action` reads one
and :func:`format_action` writes its canonical text;
:class:`~scorekeeper.engine.Deal` plays them, phase by phase (:class:`Phase`).
"""

from __future__ import annotations

from enum import StrEnum

from .cards import Card, parse_card
from .errors import CardError, InvalidValueError, RuleError


class Phase(StrEnum):
    """The phases of a deal, in the order they first occur."""

    UPCARD_OFFER = "upcard_offer"
    DRAW = "draw"
    DISCARD = "discard"
    SHOWDOWN = "showdown"
    OVER = "over"


class Verb(StrEnum):
    """The kind of an action; ``discard``, ``knock`` and ``gin`` take a card."""

    PASS = "pass"
    DRAW_STOCK = "draw stock"
    DRAW_DISCARD = "draw discard"
    DISCARD = "discard"
    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big gin"


VERBS = tuple(Verb)
"""Every action verb; ``discard``, ``knock`` and ``gin`` take a card."""


ACTION_HELP = "use pass, draw stock, draw discard, discard Xx, knock Xx, gin Xx or big gin"

_ACTIONS: dict[str, tuple[Verb, Card | None]] = {}
_BARE = {
    "pass": Verb.PASS,
    "draw stock": Verb.DRAW_STOCK,
    "draw discard": Verb.DRAW_DISCARD,
    "big gin": Verb.BIG_GIN,
}
WITH_CARD = (Verb.DISCARD, Verb.KNOCK, Verb.GIN)
"""The verbs that take a card."""


def parse_action(text: str) -> tuple[Verb, Card | None]:
    """An action's text as ``(verb, card)``; ``card`` is ``None`` for bare verbs.

    Case and spacing are free and cards take any notation of
    :func:`~scorekeeper.cards.parse_card`. Raises :class:`RuleError` for
    anything that is not an action.

    >>> parse_action("Knock 10s")
    (<Verb.KNOCK: 'knock'>, Card('Ts'))
    """
    found = _ACTIONS.get(text) if isinstance(text, str) else None
    if found is not None:
        return found
    if not isinstance(text, str):
        raise InvalidValueError(
            f"an action must be text such as 'discard Qs', not {text!r}",
            code="bad_action",
            params={"action": repr(text)},
            option="actions",
        )
    words = text.split()
    key = " ".join(words).lower()
    if key in _BARE:
        found = (_BARE[key], None)
    elif len(words) == 2 and words[0].lower() in WITH_CARD:
        try:
            found = (Verb(words[0].lower()), parse_card(words[1]))
        except CardError as error:
            raise RuleError.restating(
                error, f"{error} (in action {text!r})", option="actions"
            ) from error
    else:
        raise InvalidValueError(
            f"unknown action {text!r}: {ACTION_HELP}",
            code="bad_action",
            params={"action": text},
            option="actions",
        )
    if len(_ACTIONS) < 4096:
        _ACTIONS[text] = found
    return found


def format_action(verb: str, card: Card | None = None) -> str:
    """The canonical text of an action: ``"discard Qs"``, ``"pass"``."""
    return str(verb) if card is None else f"{verb} {card.code}"
