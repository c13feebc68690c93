"""The play a card form declares: the knocker's arrangement, the defender's layoffs.

:func:`declare_play` adds it to a :func:`~api.pad.forms_hand.cards_input` hand,
:func:`check_cards` verifies the hand without storing it (with
:func:`~scorekeeper.knock.verify_knock`). Whatever is wrong raises an error
whose message is for players and which names the form field at fault: a plain
:class:`RuleError` (code ``rule``, which :func:`~api.pad.labels.worded` leaves
as it is), raised from the domain's error when it rewords one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.declarations import place_layoffs
from scorekeeper.errors import RuleError, ScorekeeperError
from scorekeeper.knock import KnockResult, verify_knock
from scorekeeper.rules import Rules
from scorekeeper.seating import Seating

from ..i18n import _
from .forms_hand import selection
from .labels import worded

NO_MELDS = "-"
"""The form value of an arrangement without melds."""


def arrangement_value(melds: Any) -> str:
    """An arrangement as one form value: cards by spaces, melds by ``|`` (``-``: no melds).

    >>> arrangement_value([["5s", "6s", "7s"], ["8c", "8d", "8h"]])
    '5s 6s 7s|8c 8d 8h'
    """
    return "|".join(" ".join(meld) for meld in melds) or NO_MELDS


def arrangement_melds(value: str) -> list[list[str]]:
    """The melds of an :func:`arrangement_value`; :class:`RuleError` (``arrangement``) if bad."""
    if value == NO_MELDS:
        return []
    melds = []
    for part in value.split("|"):
        codes, problem = selection(part.split())  # the page's own values: codes
        if problem or not codes:
            raise RuleError(
                _("Choose the arrangement laid down from the list."), option="arrangement"
            )
        melds.append(codes)
    return melds


def declare_play(
    hand: Mapping[str, Any], arrangement: str, layoffs: Any, prefix: str = ""
) -> dict[str, Any]:
    """A :func:`cards_input` hand with the play the table declares, when it declares one.

    ``arrangement`` is the chosen :func:`arrangement_value` (empty: not
    chosen, the hand is scored as the best play); ``layoffs`` the cards the
    defender laid off (checkbox values, without their melds: each goes where
    it fits, :func:`~scorekeeper.declarations.place_layoffs`), or ``None`` for the
    defender's best layoffs. Raises :class:`RuleError` naming
    ``<prefix>arrangement`` or ``<prefix>layoffs`` (``g1_layoffs``: a game of
    a partnership deal, as :func:`cards_form_input` names its fields), in
    players' words.
    """
    try:
        if not arrangement:
            return dict(hand)
        melds = arrangement_melds(arrangement)
        declared: dict[str, Any] = {**hand, "knocker_melds": melds}
        if layoffs is None:
            return declared
        codes, problem = selection(layoffs)
        if problem:
            raise RuleError(problem, option="layoffs")
        try:
            placed = place_layoffs(melds, codes)
        except ScorekeeperError as error:
            raise RuleError(worded(error), option="layoffs") from error
    except RuleError as error:
        if not prefix:
            raise
        raise error.restate(str(error), field=prefix + str(error.field)) from error
    declared["layoffs"] = [x.to_dict() for x in placed]
    return declared


def check_cards(
    rules: Rules,
    hand: Mapping[str, Any],
    seating: Seating | None = None,
    prefix: str = "",
) -> KnockResult:
    """Verify a :func:`cards_input` hand without storing it (the verify result).

    The melds and layoffs :func:`declare_play` adds are scored as declared.
    Errors are re-raised as :class:`RuleError` in players' words, naming the
    field: ``knocker_cards``, ``defender_cards``, ``upcard``, ``arrangement``
    or ``layoffs``; with a ``seating``, a hand's cards are named by the tap
    grid of the player concerned, ``<prefix>cards_<p>`` (and
    ``<prefix>upcard``), as :func:`cards_form_input` names them. A declared
    meld with a card the knocker no longer holds means the cards were
    changed after the arrangement was chosen, and says so.
    """
    try:
        return verify_knock(
            hand["knocker_cards"],
            hand["defender_cards"],
            rules=rules,
            upcard=hand.get("upcard"),
            knocker_melds=hand.get("knocker_melds"),
            layoffs=hand.get("layoffs"),
        )
    except ScorekeeperError as error:
        field = _card_field(error)
        if field == "arrangement" and error.code == "card_not_in_hand":
            raise RuleError(
                _(
                    "The cards changed after the arrangement was chosen: choose the"
                    " arrangement laid down again."
                ),
                option=field,
            ) from error
        if seating is not None:
            knocker = hand["knocker"]
            field = prefix + {
                "knocker_cards": f"cards_{knocker}",
                "upcard": "upcard",
                "defender_cards": f"cards_{seating.other(knocker)}",
            }.get(field, field)
        raise RuleError(worded(error), option=field) from error


def _card_field(error: ScorekeeperError) -> str:
    field = getattr(error, "field", None) or ""
    if field.startswith("knocker_melds"):
        return "arrangement"
    if field.startswith("layoffs"):
        return "layoffs"
    if field.startswith("defender"):
        return "defender_cards"
    if field == "upcard":
        return "upcard"
    return "knocker_cards"
