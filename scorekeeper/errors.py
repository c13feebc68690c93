"""The exceptions the domain raises; all are ``ValueError`` subclasses.

Every error is one of two kinds, as python-chess tells an
``InvalidMoveError`` from an ``IllegalMoveError``:

* :class:`InvalidInputError` (``kind`` ``"invalid"``): the input cannot be
  read: a bad card, a malformed action or meld list, an unknown rule option
  or a bad value, a record or JSON of the wrong shape;
* :class:`IllegalPlayError` (``kind`` ``"illegal"``): the input reads fine
  but the rules or the game's state forbid it: a knock over the limit, a
  layoff that does not fit, cards that are no meld, a discard of the card
  just taken, a draw from a stock down to its last two cards, a hand after
  the end of the game (the :class:`Conflict` errors).

Each error carries a machine-readable ``code`` (``bad_card``,
``knock_over_limit``, ...), its ``params`` (the card, the limit, the
count, ...: JSON-ready values, cards as codes) and ``field``, the input at
fault. The message is for people reading logs and the JSON API; the
scorepad words its own messages from ``code`` and ``params``.

The historical classes stay for callers that catch them: :class:`CardError`
(always invalid), :class:`RuleError` and :class:`RecordError`. The latter two
hold both kinds, so the domain raises their concrete subclasses:
:class:`InvalidValueError` / :class:`RuleViolation` and
:class:`InvalidRecordError` / :class:`IllegalRecordError`. An error that
restates another one at a wider place (a record step, a hand of an
imported game) is a new error built by :meth:`ScorekeeperError.restate` or
:meth:`ScorekeeperError.restating`, raised ``from`` the original: a caught
error is never changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self, cast


class ScorekeeperError(ValueError):
    """Base class of every error about bad input to the domain.

    ``code`` is a stable machine-readable reason (the class's ``default_code``
    unless a more precise one is given), ``params`` the values the message is
    made of, ``field`` the input at fault (or ``None``).
    """

    kind: ClassVar[str] = ""
    """``"invalid"`` or ``"illegal"`` for the concrete classes (see the module docs)."""

    default_code: ClassVar[str] = "invalid"

    invalid_class: ClassVar[type[ScorekeeperError]]
    illegal_class: ClassVar[type[ScorekeeperError]]
    """The concrete classes :meth:`restating` picks from (set for RuleError, RecordError)."""

    field: str | None = None

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
        field: str | None = None,
    ):
        super().__init__(message)
        self.code = code or self.default_code
        self.params = dict(params or {})
        self.field = field

    @property
    def message(self) -> str:
        """The message for people (``str(error)``)."""
        return str(self.args[0]) if self.args else ""

    def restate(self, message: str, *, field: str | None) -> Self:
        """A new error of the same class, code and params with another message and field.

        Used to place an error in a wider input (``hands.2.knocker``); raise
        it ``from`` this one. This one is left as it is.
        """
        new = type(self).__new__(type(self), message)
        new.__dict__.update(self.__dict__)
        new.args = (message,)
        new.params = dict(self.params)
        new.field = field
        return new

    def within(self, label: str, place: str) -> Self:
        """This error placed in a wider input: ``"<label>: <message>"``, field ``place.<field>``.

        E.g. ``within("hand 3", "hands.2")`` of a ``knocker`` error gives
        field ``hands.2.knocker`` (``place`` alone when this error has none).
        """
        return self.restate(
            f"{label}: {self}", field=f"{place}.{self.field}" if self.field else place
        )

    @classmethod
    def restating(cls, cause: ScorekeeperError, message: str, **attrs: Any) -> Self:
        """An error of this family (``RuleError``, ``RecordError``) telling ``cause`` again.

        It keeps the cause's code, params and kind (an illegal play stays
        illegal), with this message and ``attrs`` (``field``, ``step``, ...).
        """
        target = cls.illegal_class if isinstance(cause, IllegalPlayError) else cls.invalid_class
        return cast(Self, target(message, code=cause.code, params=cause.params, **attrs))


class InvalidInputError(ScorekeeperError):
    """The input cannot be read (notation): bad cards, a malformed action, rules or record."""

    kind = "invalid"


class IllegalPlayError(ScorekeeperError):
    """The input reads fine but the rules, or the game as it stands, forbid it."""

    kind = "illegal"
    default_code = "illegal"


class CardError(InvalidInputError):
    """A card, a list of cards or a meld list is malformed (always invalid input).

    ``token`` is the offending text or card code and ``position`` its 1-based
    position in the list, when known; ``field`` names the input it came from.
    """

    default_code = "bad_card"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
        token: str | None = None,
        position: int | None = None,
        field: str | None = None,
    ):
        super().__init__(message, code=code, params=params, field=field)
        self.token = token
        self.position = position


class RuleError(ScorekeeperError):
    """A rule option or input value is bad, or a play breaks the rules.

    ``option`` (also ``field``) names the option or input concerned, when
    there is one. The domain raises the concrete :class:`InvalidValueError`
    and :class:`RuleViolation`.
    """

    default_code = "rule"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
        option: str | None = None,
    ):
        super().__init__(message, code=code, params=params, field=option)
        self.option = option

    def restate(self, message: str, *, field: str | None) -> Self:
        new = super().restate(message, field=field)
        new.option = field
        return new


class InvalidValueError(RuleError, InvalidInputError):
    """An unknown rule option, a bad option or input value, a malformed action.

    Codes: ``unknown_option``, ``bad_option_value``, ``bad_value``,
    ``bad_action``, ``missing_value``, ...
    """

    default_code = "bad_value"


class RuleViolation(RuleError, IllegalPlayError):
    """A play the rules forbid (a knock over the limit, an action out of turn, ...)."""

    default_code = "illegal"


class RecordError(ScorekeeperError):
    """A deal or match record is malformed or describes an illegal play.

    ``step`` is the index into the record's ``actions`` (``None`` for the
    header), ``deal`` the index of the deal in a match record. The domain
    raises the concrete :class:`InvalidRecordError` and
    :class:`IllegalRecordError`.
    """

    default_code = "bad_record"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
        step: int | None = None,
        deal: int | None = None,
        field: str | None = None,
    ):
        super().__init__(message, code=code, params=params, field=field)
        self.step = step
        self.deal = deal


class InvalidRecordError(RecordError, InvalidInputError):
    """A record of the wrong shape: not JSON, unknown keys, bad cards, a malformed action."""


class IllegalRecordError(RecordError, IllegalPlayError):
    """A well-formed record whose play breaks the rules (at ``step``) or the dealer rotation."""

    default_code = "illegal"


RuleError.invalid_class, RuleError.illegal_class = InvalidValueError, RuleViolation
RecordError.invalid_class, RecordError.illegal_class = InvalidRecordError, IllegalRecordError


class Conflict(IllegalPlayError):
    """The request does not fit the stored game as it stands.

    Codes: ``game_over`` (no hand after the end, or a correction that would
    end the game early), ``nothing_to_undo``, ``dealer_rotation`` (a
    correction that would change who deals a later recorded hand),
    ``dealer_sits_out`` (a three-player correction that would make a later
    hand's player its dealer) and ``stale`` (:class:`Stale`). The web layer answers 409.
    """

    default_code = "conflict"


class Stale(Conflict):
    """The write was based on an older version of the game's log than the stored one.

    ``expected`` is the version the request was based on, ``version`` the
    current one (the number of log entries); both are in ``params`` too.
    """

    default_code = "stale"

    def __init__(self, expected: int, version: int):
        super().__init__(
            f"the game has changed: it is at version {version}, this change was"
            f" based on version {expected}; reload the sheet and try again",
            params={"expected": expected, "version": version},
        )
        self.expected = expected
        self.version = version
