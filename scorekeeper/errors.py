"""The exceptions the domain raises; all are ``ValueError`` subclasses.

Each carries the detail a caller needs to point at what was wrong: the card
token and its position, the rule option, or the step of a deal record.
"""

from __future__ import annotations


class ScorekeeperError(ValueError):
    """Base class of every error about bad input to the domain."""

    field: str | None = None


class CardError(ScorekeeperError):
    """A card, a list of cards or a meld is malformed.

    ``token`` is the offending text or card code and ``position`` its 1-based
    position in the list, when known; ``field`` names the input it came from.
    """

    def __init__(
        self,
        message: str,
        *,
        token: str | None = None,
        position: int | None = None,
        field: str | None = None,
    ):
        super().__init__(message)
        self.token = token
        self.position = position
        self.field = field


class RuleError(ScorekeeperError):
    """A rule option is unknown or has a bad value, or a play breaks the rules.

    ``option`` (also ``field``) names the option or input concerned, when there is one.
    """

    def __init__(self, message: str, *, option: str | None = None):
        super().__init__(message)
        self.option = option
        self.field = option


class RecordError(ScorekeeperError):
    """A deal or match record is malformed or describes an illegal play.

    ``step`` is the index into the record's ``actions`` (``None`` for the
    header), ``deal`` the index of the deal in a match record.
    """

    def __init__(self, message: str, *, step: int | None = None, deal: int | None = None,
                 field: str | None = None):
        super().__init__(message)
        self.step = step
        self.deal = deal
        self.field = field
