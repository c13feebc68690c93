"""A submitted card form checked: the play the table declared, and errors at their fields.

:func:`declared_hand` checks the play of a card form (:mod:`~api.pad.declared`) before the
hand is stored; :func:`card_errors` places an error next to the field it is about. Both serve
the hand routes (:mod:`~api.pad.routes_hands`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.errors import RuleError, ScorekeeperError
from scorekeeper.gamesheet import GameSheet
from scorekeeper.seating import Seating

from ..i18n import _
from . import declared as pad_declared
from . import forms_play, views_hand
from . import labels as pad_labels
from .blueprint import form_errors
from .hand_page import prefixes


def declared_hand(
    sheet: GameSheet,
    hand: dict[str, Any],
    values: dict[str, Any],
    seatings: Sequence[Seating],
    saving: bool,
) -> tuple[dict[str, Any], list[dict[str, Any] | None]]:
    """The hand of a card form with the play the table declared, and its verified showdown
    as the page shows it (with what the best play would have changed), the same way for
    a hand of two or three players and for each game of a partnership deal (``None``: a
    void game). Raises a :class:`RuleError` with every game's errors (``params["fields"]``),
    each at its field; an error about a deal's declared play names its game (``Game 2:
    ...``, at ``g1_layoffs``)."""
    names = sheet.players
    four = len(names) == 4
    hands = (hand.get("games") or [{"kind": "void"}] * 2) if four else [hand]
    played: list[dict[str, Any]] = []
    shown: list[dict[str, Any] | None] = []
    errors: dict[str, str] = {}
    for i, (prefix, seating, one) in enumerate(
        zip(prefixes(seatings), seatings, hands, strict=True)
    ):
        if one["kind"] != "cards":
            played.append(one)
            shown.append(None)
            continue
        try:
            one = pad_declared.declare_from_form(
                sheet.rules, one, values, seating, prefix, saving=saving
            )
            checked = forms_play.check_cards(sheet.rules, one, seating, prefix)
        except RuleError as error:
            field = str(error.field)
            play = prefix and field in (prefix + "arrangement", prefix + "layoffs")
            errors[field] = (
                _("Game %(n)s: %(problem)s", n=i + 1, problem=pad_labels.worded(error))
                if play
                else pad_labels.worded(error)
            )
            continue
        sides = [names[one["knocker"]], names[seating.other(one["knocker"])]]
        view = views_hand.showdown_view(checked, sides)
        view["hindsight"] = pad_declared.review_words(
            checked, sheet.rules, one.get("upcard"), sides
        )
        played.append(one)
        shown.append(view)
    if errors:
        field, message = next(iter(errors.items()))
        raise RuleError(message, option=field, params={"fields": errors})
    if not four:
        return played[0], shown
    return ({**hand, "games": played} if hand["kind"] == "deal" else hand), shown


def card_errors(
    error: ScorekeeperError, values: dict[str, Any], seatings: Sequence[Seating]
) -> dict[str, str]:
    """An error next to its field: a card error at the grid of the player it is about
    (both grids' at once: :func:`~.forms_hand.cards_input`'s ``params["fields"]``), a store
    error about one game of a deal (``games.1.knocker``) at that game's field."""
    errors = dict(error.params.get("fields") or form_errors(error))
    seating = seatings[0]
    seat = str(values.get("knocker"))
    if seat in (str(p) for p in seating.seats):
        s = int(seat)
        for field, target in (
            ("knocker_cards", f"cards_{s}"),
            ("defender_cards", f"cards_{seating.other(s)}"),
        ):
            if field in errors:
                errors[target] = errors.pop(field)
    for field in list(errors):
        parts = field.split(".")
        if len(parts) == 3 and parts[0] == "games" and parts[1] in ("0", "1"):
            errors[f"g{parts[1]}_{parts[2]}"] = errors.pop(field)
    return errors
