"""The hand form (:mod:`api.pad.routes_hands`): its fields' values, its mode, its page.

Three and four players (RULES.md section 8): a hand form names only the
players of the hand being entered (:func:`hand_seatings`, the core's
:func:`~scorekeeper.seating.seatings`); with four it is the deal form
(``mode=deal``: both games of the deal, quick entry per game;
``mode=deal_cards``: a tap grid per player, and for each game that ends in a
knock what was laid down, chosen as in a two-player card hand:
:func:`_play_choices`). A deal record is two-player only (:func:`modes_for`).
The offline queue of the hand form keeps one hand (or deal) at a time at three
or four: the seating of the next hand depends on the last one, which only the
server knows, so the form refuses a second until the first is saved.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from flask import request
from markupsafe import Markup
from werkzeug.wrappers import Response

from scorekeeper.cards import DECK
from scorekeeper.errors import ScorekeeperError
from scorekeeper.gamesheet import GameSheet
from scorekeeper.rules import Rules
from scorekeeper.seating import Seating, seatings
from scorekeeper.sheet import PartnershipHandRecord, PartnershipSheet

from ..i18n import _
from . import declared as pad_declared
from . import forms_hand, forms_play, terms, views_sheet, web
from . import labels as pad_labels
from .blueprint import render


def modes_for(players: int) -> tuple[str, ...]:
    """How a hand of a game of ``players`` can be entered: a deal record is two-player
    only, a partnership deal is entered game by game in one form (``deal``: quick,
    ``deal_cards``: a tap grid per player)."""
    return {2: ("quick", "cards", "record"), 3: ("quick", "cards"), 4: ("deal", "deal_cards")}[
        players
    ]


def hand_seatings(sheet: GameSheet, n: int | None = None) -> list[Seating]:
    """Who plays hand ``n`` of a game's sheet (``None``: the next hand): the
    :func:`~scorekeeper.seating.seatings` of its dealer, with four players of its
    deal's games (the sheet's ``next_games``, or the deal's ``games`` when correcting)."""
    if n is None:
        scored = sheet.scored
        games = scored.next_games if isinstance(scored, PartnershipSheet) else ()
        return seatings(sheet.players, sheet.next_dealer, games)
    hand = sheet.hands[n - 1]
    record = hand.record
    games = record.games if isinstance(record, PartnershipHandRecord) else ()
    return seatings(sheet.players, hand.dealer, games)


def hand_defaults(sheet: GameSheet, n: int | None) -> dict[str, Any]:
    """Form values: empty for a new hand, the stored input when correcting hand ``n``."""
    values: dict[str, Any] = {
        **_quick_values(None),
        "upcard": "",
        "record": "",
        **{f"cards_{p}": [] for p in range(len(sheet.players))},
        **{f"g{i}_{name}": value for i in (0, 1) for name, value in _quick_values(None).items()},
        "g0_upcard": "",
        "g1_upcard": "",
        **{
            prefix + name: value
            for prefix in PLAY_PREFIXES
            for name, value in _play_values({}).items()
        },
    }
    if n is None:
        return values
    hand = sheet.hands[n - 1]
    given = hand.input or {}
    kind = given.get("kind")
    if kind in ("void", "quick"):
        values.update(_quick_values(given))
    elif kind == "deal" or isinstance(hand.record, PartnershipHandRecord):
        for i, (game, seating) in enumerate(
            zip(
                given.get("games") or [{"kind": "void"}] * 2,
                hand_seatings(sheet, n),
                strict=True,
            )
        ):
            values.update({f"g{i}_{name}": value for name, value in _quick_values(game).items()})
            values[f"g{i}_upcard"] = game.get("upcard") or ""
            if game["kind"] == "cards":
                k = game["knocker"]
                values.update(
                    {
                        f"g{i}_knocker": str(k),
                        f"g{i}_cards_{k}": game["knocker_cards"],
                        f"g{i}_cards_{seating.other(k)}": game["defender_cards"],
                        **{f"g{i}_{name}": value for name, value in _play_values(game).items()},
                    }
                )
    elif kind == "cards":
        k = given["knocker"]
        values.update(knocker=str(k))
        values[f"cards_{k}"] = list(given["knocker_cards"])
        values[f"cards_{hand_seatings(sheet, n)[0].other(k)}"] = list(given["defender_cards"])
        values.update(_play_values(given))
    elif kind == "record":
        values["record"] = json.dumps(given.get("record"), indent=1)
    values["upcard"] = given.get("upcard") or ""
    return values


PLAY_PREFIXES = ("", "g0_", "g1_")
"""The field prefixes of the declared play: a hand of two or three players, the games of a
deal (:func:`~api.pad.declared.declare_from_form`)."""


def _play_values(given: Mapping[str, Any]) -> dict[str, Any]:
    """The declared-play fields of a stored card hand: its arrangement (empty when it
    declared none) and the layoffs (``None``: the best reply's, as it was scored)."""
    if given.get("knocker_melds") is None:
        return {"arrangement": "", "layoffs_for": "", "layoffs": None}
    value = forms_play.arrangement_value(given["knocker_melds"])
    laid = given.get("layoffs")
    return {
        "arrangement": value,
        "layoffs_for": value,
        "layoffs": None if laid is None else [x["card"] for x in laid],
    }


def _quick_values(given: Mapping[str, Any] | None) -> dict[str, str]:
    """The quick fields of a stored quick or void hand (empty ones for ``None``)."""
    if given is None:
        return {"knocker": "", "kind": "knock", "knocker_deadwood": "", "defender_deadwood": ""}
    if given.get("kind") == "void":
        return {**_quick_values(None), "kind": "void"}
    if given.get("kind") != "quick":  # cards: nothing to show as counts
        return _quick_values(None)
    return {
        "knocker": str(given["knocker"]),
        "kind": "big_gin"
        if given.get("big_gin")
        else ("gin" if given["knocker_deadwood"] == 0 else "knock"),
        "knocker_deadwood": str(given["knocker_deadwood"]),
        "defender_deadwood": str(given["defender_deadwood"]),
    }


def default_mode(sheet: GameSheet, n: int | None) -> str:
    modes = modes_for(len(sheet.players))
    mode = request.values.get("mode")
    if mode in modes:
        return mode
    if n is not None:
        given = sheet.hands[n - 1].input or {}
        kind: str | None = given.get("kind")
        if kind == "deal" and any(game["kind"] == "cards" for game in given["games"]):
            return "deal_cards"
        if kind in modes:
            return kind
    return modes[0]


def hand_page(
    game_id: str,
    sheet: GameSheet,
    n: int | None,
    mode: str,
    form: dict[str, Any],
    errors: dict[str, Any],
    status: int = 200,
    preview: dict[str, Any] | None = None,
    change: dict[str, Any] | None = None,
    changed: dict[str, Any] | None = None,
    previews: Sequence[dict[str, Any] | None] | None = None,
) -> Response:
    """The hand form. ``change`` is the submitted form's key and version (kept when
    the form comes back with errors or a preview), new ones by default;
    ``changed`` the sheet view to show above it when the sheet changed.

    The form is :func:`~api.pad.web.kept_for_back` (the same key on Back)."""
    rules = sheet.rules
    names = sheet.players
    seatings = hand_seatings(sheet, n)
    change = change or {"idempotency_key": None, "expected_version": sheet.version}
    choices = (
        _play_choices(rules, form, seatings, previews is not None)
        if mode in ("cards", "deal_cards")
        else None
    )
    response = render(
        "pad/hand.html",
        status,
        game_id=game_id,
        sheet=sheet,
        n=n,
        mode=mode,
        choices=choices,
        form_key=change["idempotency_key"],
        form_version=change["expected_version"],
        changed=changed,
        modes=modes_for(len(names)),
        form=form,
        errors=errors,
        names=names,
        seatings=seatings,
        unit="deal" if len(names) == 4 else "hand",
        deals=[_deal_line(i, seating) for i, seating in enumerate(seatings, 1)]
        if len(names) == 4
        else None,
        grid_rows=terms.card_grid(),
        big_gin=rules.big_gin_bonus is not None,
        needs_upcard=rules.oklahoma or rules.spade_doubles,
        straight=rules.knock_limit == 0 and not rules.oklahoma,
        knock_limit=rules.knock_limit,
        upcard_limits=upcard_limits(rules),
        preview=preview,
        previews=previews,
        title=pad_labels.game_title(names),
        next_dealer=names[sheet.next_dealer],
        live_state=views_sheet.sheet_state(sheet) if n is None and not sheet.over else None,
    )
    web.kept_for_back(response)
    return response


def upcard_limits(rules: Rules) -> dict[str, int] | None:
    """Oklahoma: the knock limit each first upcard sets (by card code), which the quick
    form's chips follow (pad-quick.js); ``None`` when the upcard sets no limit."""
    if not rules.oklahoma:
        return None
    return {card.code: rules.knock_limit_for(card) for card in DECK}


def _deal_line(number: int, seating: Seating) -> Markup:
    """One game of a partnership deal as the deal form heads it: ``Game 1: Ana deals to Bor``."""
    names, dealer = seating.names, seating.dealer
    return pad_labels.html(
        _("Game %(n)s: %(dealer)s deals to %(other)s"),
        n=number,
        dealer=pad_labels.bdi(names[dealer]),
        other=pad_labels.bdi(names[seating.other(dealer)]),
    )


def prefixes(seatings: Sequence[Seating]) -> list[str]:
    """The field prefix of each hand of the form: ``g0_``, ``g1_`` for a deal's games."""
    return [f"g{i}_" for i in range(len(seatings))] if len(seatings[0].names) == 4 else [""]


def _play_choices(
    rules: Rules, values: dict[str, Any], seatings: Sequence[Seating], checked: bool
) -> list[dict[str, Any] | None]:
    """The arrangement and layoff choice of each card hand of the form (the hand, or each
    game of a deal), with its ``prefix``, ``game`` (a deal's game number, else ``None``)
    and ``sides`` (knocker, defender). ``None`` where there is none to show: not checked
    yet and no arrangement chosen, a void game, or cards that are no legal knock (the
    form's errors say why)."""
    choices: list[dict[str, Any] | None] = []
    for i, (prefix, seating) in enumerate(zip(prefixes(seatings), seatings, strict=True)):
        arrangement = values.get(prefix + "arrangement") or ""
        choice = None
        if checked or arrangement:
            try:
                hand = forms_hand.cards_form_input(rules, values, seating, prefix)
                choice = {
                    **pad_declared.play_choice(
                        rules, hand, arrangement, values.get(prefix + "layoffs")
                    ),
                    "prefix": prefix,
                    "game": i + 1 if prefix else None,
                    "sides": [
                        seating.names[hand["knocker"]],
                        seating.names[seating.other(hand["knocker"])],
                    ],
                }
            except ScorekeeperError:
                pass
        choices.append(choice)
    return choices


def submitted(players: int) -> dict[str, Any]:
    form = request.form
    values: dict[str, Any] = {
        key: form.get(key, "")
        for key in ("knocker", "kind", "knocker_deadwood", "defender_deadwood", "upcard", "record")
    }
    for p in range(players):
        values[f"cards_{p}"] = form.getlist(f"cards_{p}")
    for i in (0, 1):
        for name in forms_hand.DEAL_FIELDS:
            values[f"g{i}_{name}"] = form.get(f"g{i}_{name}", "")
        for p in range(players if players == 4 else 0):
            values[f"g{i}_cards_{p}"] = form.getlist(f"g{i}_cards_{p}")
    for prefix in PLAY_PREFIXES:
        arrangement = values[prefix + "arrangement"] = form.get(prefix + "arrangement", "")
        values[prefix + "layoffs_for"] = form.get(prefix + "layoffs_for", "")
        values[prefix + "layoffs"] = form.getlist(prefix + "layoffs") if arrangement else None
    return values
