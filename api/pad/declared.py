"""The play a table declares at the showdown, and what optimal play would have changed.

A hand entered card by card can say what was laid down: the knocker's
arrangement (any legal one, :func:`~scorekeeper.knock.knock_arrangements`,
the best preselected) and the defender's layoffs (the cards that fit the
chosen arrangement, the best reply preselected). :func:`play_choice` is
that choice as the hand form shows it; :func:`hindsight` says, in players'
words, what the best play would have changed
(:func:`~scorekeeper.knock_review.review_knock`: each player measured on their
own choice), on the hand form, the hand's page and the sheet
(:func:`missed_by_game`, :func:`missed_by_hand`).

Every game of a four-player partnership deal entered card by card is
declared the same way (:func:`declare_from_form`, one function for both),
its fields prefixed with the game (``g0_arrangement``, ``g1_layoffs``), so
the two games' choices cannot mix; the sheet's line of a deal leads each
sentence with its game (``Game 2: Dan could have ...``).

Choices: a card that fits two melds is one checkbox (the server places it,
:func:`~scorekeeper.declarations.place_layoffs`), shown with the first meld it
fits. A declared arrangement is matched to the list by its melds, whatever
their order, a run split where it touches another (declared through the
API) taken as the one run the list has; one that matches none leaves the
best checked (an unreadable one too: the form's error names it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup

from scorekeeper.analysis_remarks import layoff_remarks
from scorekeeper.cards import parse_cards
from scorekeeper.errors import RuleError, ScorekeeperError
from scorekeeper.gamesheet import GameSheet, StoredHand
from scorekeeper.knock import KnockResult, knock_arrangements
from scorekeeper.knock_review import KnockReview, review_knock
from scorekeeper.melds import hand_mask, mask_points, meld_kind
from scorekeeper.results import Outcome
from scorekeeper.rules import Rules
from scorekeeper.seating import Seating
from scorekeeper.sheet import PartnershipHandRecord, ThreePlayerHandRecord

from ..i18n import _
from .forms_play import arrangement_melds, arrangement_value, check_cards, declare_play
from .labels import bdi, html, isolated, point_count
from .remarks import remark_words
from .terms import both, card_info, cards_info
from .views_hand import layoff_fits


def _meld_set(melds: Any) -> frozenset[int]:
    """Melds as a set of masks, runs of one suit that touch merged (as the list has them)."""
    runs: list[int] = []
    others: list[int] = []
    for meld in melds:
        (runs if meld_kind(parse_cards(meld)) == "run" else others).append(hand_mask(meld))
    merged: list[int] = []
    for run in sorted(runs):
        high, low = merged[-1].bit_length() - 1 if merged else -2, (run & -run).bit_length() - 1
        if high + 1 == low and high // 13 == low // 13:
            merged[-1] |= run
        else:
            merged.append(run)
    return frozenset(merged + others)


def play_choice(
    rules: Rules,
    hand: Mapping[str, Any],
    arrangement: str,
    layoffs: Sequence[str] | None,
) -> dict[str, Any]:
    """The arrangement and layoff choice of a checked card hand, for the hand form.

    ``arrangement`` is the form's value (empty: the best is chosen) and
    ``layoffs`` the cards ticked (``None``: the best reply's are ticked).
    Returns ``{"arrangements": [{"value", "melds", "deadwood_cards",
    "deadwood", "gin", "best", "checked", "layoffs": [{"card", "meld",
    "best", "checked"}]}], "chosen": the checked one, "layoffs_for": its
    value, "data": the same per arrangement for ``pad.js``}``. Raises the
    domain's errors for a hand that is no legal knock.
    """
    found = knock_arrangements(
        hand["knocker_cards"], hand["defender_cards"], rules=rules, upcard=hand.get("upcard")
    )
    try:
        wanted = _meld_set(arrangement_melds(arrangement)) if arrangement else None
    except ScorekeeperError:  # a damaged or forged value: the form's error says so
        wanted = None
    index = next((i for i, a in enumerate(found) if _meld_set(a.melds) == wanted), 0)
    shown = []
    for i, option in enumerate(found):
        gin = option.outcome in (Outcome.GIN, Outcome.BIG_GIN)
        best_laid = {x.card for x in option.layoffs}
        ticked = best_laid if i != index or layoffs is None else set(layoffs)
        fits: dict[str, dict[str, Any]] = {}
        if not gin:
            for fit in layoff_fits(option.melds, hand["defender_cards"]):
                fits.setdefault(
                    fit["card"]["code"],
                    {
                        **fit,
                        "best": fit["card"]["code"] in best_laid,
                        "checked": fit["card"]["code"] in ticked,
                    },
                )
        shown.append(
            {
                "value": arrangement_value(option.melds),
                "melds": [cards_info(meld) for meld in option.melds],
                "deadwood_cards": cards_info(option.deadwood_cards),
                "deadwood": option.deadwood,
                "gin": gin,
                "best": i == 0,
                "checked": i == index,
                "layoffs": list(fits.values()),
            }
        )
    return {
        "arrangements": shown,
        "chosen": shown[index],
        "layoffs_for": shown[index]["value"],
        "data": [{"value": a["value"], "gin": a["gin"], "layoffs": a["layoffs"]} for a in shown],
    }


def best_layoffs(
    rules: Rules,
    hand: Mapping[str, Any],
    arrangement: str,
    seating: Seating | None = None,
    prefix: str = "",
) -> list[str]:
    """The cards the defender's best reply lays off on the chosen arrangement (errors
    name the form's fields as :func:`~.forms_play.check_cards` does)."""
    result = check_cards(rules, declare_play(hand, arrangement, None, prefix), seating, prefix)
    return [x.card for x in result.defender.layoffs]


def declare_from_form(
    rules: Rules,
    hand: Mapping[str, Any],
    values: dict[str, Any],
    seating: Seating,
    prefix: str = "",
    *,
    saving: bool,
) -> dict[str, Any]:
    """A card hand of the hand form with the play its form declares, the same way for a
    hand of two or three players and for each game of a partnership deal.

    The fields are ``<prefix>arrangement`` (empty: the hand is scored as the
    best play), ``<prefix>layoffs`` and ``<prefix>layoffs_for``, the
    arrangement the layoffs were ticked for (``prefix`` ``g0_``, ``g1_``: a
    game of a deal). Layoffs ticked for another arrangement (one chosen
    without JavaScript, then Check or Save) are replaced in ``values`` by the
    best reply's to the new one, so the form shows them ticked; saving them
    is refused, asking to tick what the defender laid off: a play the table
    has not seen is never stored. Errors name ``<prefix>arrangement`` or
    ``<prefix>layoffs`` (:func:`~.forms_play.declare_play`).
    """
    arrangement = values.get(prefix + "arrangement") or ""
    if arrangement and values.get(prefix + "layoffs_for") != arrangement:
        values[prefix + "layoffs"] = best_layoffs(rules, hand, arrangement, seating, prefix)
        if saving:
            defender = seating.names[seating.other(hand["knocker"])]
            raise RuleError(
                _(
                    "Tick what %(name)s laid off on this arrangement, then save.",
                    name=isolated(defender),
                ),
                option=prefix + "layoffs",
            )
    return declare_play(hand, arrangement, values.get(prefix + "layoffs"), prefix)


def _melds_words(melds: Sequence[Sequence[str]]) -> str:
    return both([" ".join(card_info(c)["label"] for c in meld) for meld in melds])


def _cards_words(codes: Sequence[str]) -> str:
    return " ".join(card_info(code)["label"] for code in codes)


def hindsight(review: KnockReview, names: Sequence[str]) -> list[Markup]:
    """What the best play would have changed, one sentence per player who lost points.

    ``names`` are the knocker's and the defender's. ``Ana could have knocked
    with 3 less deadwood by melding 5♠ 6♠ 7♠: 3 points.``, ``Bor could have
    laid off 7♥: 8 points.`` The points are what each player's own choice
    cost them, the other's play taken as the best (see
    :func:`~scorekeeper.knock_review.review_knock`); a missed layoff's, what laying
    off that card alone changes (:func:`~scorekeeper.analysis_remarks.layoff_remarks`).
    """
    knocker, defender = (bdi(name) for name in names)
    said = []
    mine, theirs = review.knocker, review.defender
    if mine.cost:
        melds = _melds_words(mine.missed_melds)
        cost = point_count(mine.cost)
        if mine.best_deadwood == 0:
            text = html(
                _("%(knocker)s could have gone gin by melding %(melds)s: %(points)s."),
                knocker=knocker,
                melds=melds,
                points=cost,
            )
        elif mine.best_deadwood < mine.deadwood:
            text = html(
                _(
                    "%(knocker)s could have knocked with %(less)s less deadwood by melding"
                    " %(melds)s: %(points)s."
                ),
                knocker=knocker,
                less=mine.deadwood - mine.best_deadwood,
                melds=melds,
                points=cost,
            )
        elif mine.best_melds:  # the deadwood was no worse: the defender's layoffs made the loss
            text = html(
                _(
                    "%(knocker)s could have laid down %(melds)s instead, leaving %(defender)s"
                    " less to lay off: %(points)s."
                ),
                knocker=knocker,
                melds=_melds_words(mine.best_melds),
                defender=defender,
                points=cost,
            )
        else:
            text = html(
                _(
                    "%(knocker)s could have laid down no melds instead, leaving %(defender)s"
                    " less to lay off: %(points)s."
                ),
                knocker=knocker,
                defender=defender,
                points=cost,
            )
        said.append(text)
    if not theirs.cost:
        return said
    rearranged = any(x.rearranged for x in theirs.missed_layoffs)
    layoffs = layoff_remarks(1, theirs.missed_layoffs)
    if theirs.needless_layoffs:  # the best reply as a whole: it melds what was laid off
        layoffs = [x for x in layoffs if x.kind == "layoffs"]
    said += [remark_words(x, defender) for x in layoffs]
    alone = {card for x in theirs.missed_layoffs if not x.rearranged for card in x.cards}
    shown = {"defender": defender, "points": point_count(theirs.cost)}
    if theirs.needless_layoffs:
        kept = _cards_words(theirs.needless_layoffs)
        if theirs.missed_layoffs:
            laid = _cards_words([x.card for x in theirs.missed_layoffs])
            said.append(
                html(
                    _(
                        "%(defender)s could have laid off %(laid)s and kept %(kept)s for own"
                        " melds: %(points)s."
                    ),
                    laid=laid,
                    kept=kept,
                    **shown,
                )
            )
        else:
            said.append(
                html(
                    _("%(defender)s could have kept %(kept)s for own melds: %(points)s."),
                    kept=kept,
                    **shown,
                )
            )
    elif not rearranged and mask_points(hand_mask(alone)) != theirs.deadwood - theirs.best_deadwood:
        # the layoffs that could be made alone do not make the best reply
        said.append(
            html(
                _("%(defender)s could have had %(best)s deadwood, not %(deadwood)s: %(points)s."),
                best=theirs.best_deadwood,
                deadwood=theirs.deadwood,
                **shown,
            )
        )
    return said


def review_words(
    result: KnockResult, rules: Rules, upcard: str | None, names: Sequence[str]
) -> list[Markup]:
    """:func:`hindsight` of a scored showdown (a verify result)."""
    return hindsight(review_knock(result, rules=rules, upcard=upcard), names)


def _regrets(
    given: Mapping[str, Any],
    detail: Mapping[str, Any] | None,
    rules: Rules,
    names: Sequence[str],
    seats: Sequence[int],
) -> list[Markup]:
    """:func:`hindsight` of one stored two-player hand between ``seats``, when it was
    entered card by card with a declared play (the others were scored as the best play:
    nothing to say)."""
    if (
        given.get("kind") != "cards"
        or not detail
        or not detail.get("knocker")
        or not ("knocker_melds" in given or "layoffs" in given)
    ):
        return []
    k = given["knocker"]
    defender = seats[1] if k == seats[0] else seats[0]
    try:
        return review_words(
            KnockResult.from_dict(detail), rules, given.get("upcard"), [names[k], names[defender]]
        )
    except (ScorekeeperError, ValueError):  # not reviewable: the sheet still shows
        return []


def missed_by_game(record: StoredHand, names: Sequence[str], rules: Rules) -> list[list[Markup]]:
    """What the best play would have changed in a sheet's hand record, per game: one list
    of :func:`hindsight` sentences for a hand of two or three players, one per game of a
    partnership deal (empty lists: nothing to say)."""
    given = record.input or {}
    detail = record.detail or {}
    core = record.record
    if isinstance(core, PartnershipHandRecord):
        return [
            _regrets(sub, sub_detail, rules, names, game.players)
            for game, sub, sub_detail in zip(
                core.games,
                given.get("games") or [{}] * 2,
                detail.get("games") or [None] * 2,
                strict=True,
            )
        ]
    out = core.sits_out if isinstance(core, ThreePlayerHandRecord) else None
    seats = [p for p in range(len(names)) if p != out]
    return [_regrets(given, detail, rules, names, seats)]


def missed_by_hand(sheet: GameSheet) -> dict[int, list[Markup]]:
    """For the sheet: hand number -> :func:`missed_by_game`'s sentences of each hand entered
    with a declared play; a deal's are one line per game, led by the game (``Game 2: Dan
    could have ...``: the sheet's line of a deal holds both games)."""
    found = {}
    for record in sheet.hands:
        games = missed_by_game(record, sheet.players, sheet.rules)
        said = (
            games[0]
            if len(games) == 1
            else [
                html(_("Game %(n)s: %(said)s"), n=i, said=Markup(" ").join(sentences))
                for i, sentences in enumerate(games, 1)
                if sentences
            ]
        )
        if said:
            found[record.n] = said
    return found
