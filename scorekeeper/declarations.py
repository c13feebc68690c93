"""Declared melds and layoffs: what a physical table says it lays down (RULES.md 5).

The melds a player declares are read and checked against the hand
(:func:`_parse_melds`); declared layoffs are checked as a whole, each card
against the knocker meld it is laid on (:func:`_parse_layoffs`), or placed on
the knocker's melds when named without them (:func:`place_layoffs`).
:func:`~scorekeeper.knock.verify_knock` scores the knock with them.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product

from .cards import DECK, Card, cards_mask, parse_cards
from .errors import CardError, InvalidValueError, RuleViolation
from .knock_results import Layoff
from .layoffs import _chains, _fits
from .melds import mask_codes, meld_kind


def _parse_melds(spec: object, hand: int, *, field: str, owner: str) -> list[int]:
    """Declared melds (lists of cards or strings) as masks, checked against the hand."""
    if isinstance(spec, str) or not isinstance(spec, Iterable):
        raise CardError(f"{field} must be a list of melds", code="bad_melds", field=field)
    melds = []
    used = 0
    for i, item in enumerate(spec):
        where = f"{field}[{i}]"
        cards = parse_cards(item, field=where)
        mask = cards_mask(cards)
        for card in cards:
            if not hand & card.bit:
                raise CardError(
                    f"{where}: {card} is not in the {owner}'s hand",
                    code="card_not_in_hand",
                    params={"card": card.code, "owner": owner, "meld": i},
                    token=card.code,
                    field=field,
                )
            if used & card.bit:
                raise CardError(
                    f"{where}: {card} is already in another meld",
                    code="card_in_two_melds",
                    params={"card": card.code, "meld": i},
                    token=card.code,
                    field=field,
                )
        if meld_kind(cards) is None:
            raise RuleViolation(
                f"{where}: {' '.join(c.code for c in cards)} is not a meld (a set is 3 or 4"
                " cards of one rank, a run 3 or more consecutive cards of one suit, ace low)",
                code="not_a_meld",
                params={"cards": [c.code for c in cards], "meld": i},
                option=field,
            )
        used |= mask
        melds.append(mask)
    return melds


def _parse_layoffs(spec: object, knocker_melds: list[int], available: int) -> list[tuple[int, int]]:
    """Declared layoffs as (card bit, knocker meld) pairs, validated as a whole."""
    if isinstance(spec, str) or not isinstance(spec, Iterable):
        raise CardError(
            "layoffs must be a list of {card, meld} objects", code="bad_layoffs", field="layoffs"
        )
    pairs = []
    laid = 0
    for i, item in enumerate(spec):
        where = f"layoffs[{i}]"
        if not isinstance(item, dict) or "card" not in item or "meld" not in item:
            raise CardError(
                f"{where}: a layoff is an object with a card and a meld",
                code="bad_layoffs",
                params={"layoff": i},
                field="layoffs",
            )
        card = parse_cards([item["card"]], field=f"{where}.card")[0]
        meld = cards_mask(parse_cards(item["meld"], field=f"{where}.meld"))
        if meld not in knocker_melds:
            raise InvalidValueError(
                f"{where}: {' '.join(mask_codes(meld))} is not one of the knocker's melds",
                code="not_a_knocker_meld",
                params={"meld": mask_codes(meld), "layoff": i},
                option="layoffs",
            )
        if not available & card.bit:
            raise CardError(
                f"{where}: {card} is not among the defender's unmelded cards",
                code="card_not_available",
                params={"card": card.code, "layoff": i},
                token=card.code,
                field="layoffs",
            )
        if laid & card.bit:
            raise CardError(
                f"{where}: {card} is laid off twice",
                code="card_laid_off_twice",
                params={"card": card.code, "layoff": i},
                token=card.code,
                field="layoffs",
            )
        laid |= card.bit
        pairs.append((card.bit, meld))
    for meld in knocker_melds:
        onto = [bit for bit, target in pairs if target == meld]
        if onto and not _fits(meld, onto):
            cards = [DECK[b.bit_length() - 1].code for b in onto]
            raise RuleViolation(
                f"layoffs: {' '.join(cards)} cannot be laid off on {' '.join(mask_codes(meld))}",
                code="layoff_does_not_fit",
                params={"cards": cards, "meld": mask_codes(meld)},
                option="layoffs",
            )
    return pairs


def place_layoffs(
    knocker_melds: Iterable[str | Iterable[str | Card]], cards: str | Iterable[str | Card]
) -> list[Layoff]:
    """The knocker meld each laid-off card goes on, for cards named without their meld.

    A table says "I lay off 7h and 8h"; a card that fits two melds (the
    fourth of a set and the end of a run, or the gap between two runs of one
    suit) goes where every meld can take all the cards laid on it, the
    first such placement in the melds' order. Raises :class:`RuleViolation`
    (code ``layoff_does_not_fit``, params ``cards`` and ``meld``, and
    ``missing``: the cards a run would need laid off first) when the cards
    cannot all be laid off; checks only the fit (:func:`~scorekeeper.knock.verify_knock`
    checks whose cards they are).

    >>> [x.to_dict() for x in place_layoffs(["4h 5h 6h", "Kc Kd Ks"], ["8h", "7h", "Kh"])]
    [{'card': '8h', 'meld': ['4h', '5h', '6h']}, {'card': '7h', 'meld': ['4h', '5h', '6h']}, \
{'card': 'Kh', 'meld': ['Kc', 'Kd', 'Ks']}]
    """
    melds = [cards_mask(parse_cards(meld, field="knocker_melds")) for meld in knocker_melds]
    laid = parse_cards(cards, field="layoffs")
    candidates = []
    for card in laid:
        places = [meld for meld in melds if any(card.bit in chain for chain in _chains(meld))]
        if not places:
            raise RuleViolation(
                f"layoffs: {card} fits none of the knocker's melds",
                code="layoff_does_not_fit",
                params={"cards": [card.code], "meld": None, "missing": []},
                option="layoffs",
            )
        candidates.append(places)
    for choice in product(*candidates):
        if all(
            _fits(meld, [c.bit for c, m in zip(laid, choice, strict=True) if m == meld])
            for meld in set(choice)
        ):
            return [
                Layoff(card=c.code, meld=tuple(mask_codes(m)))
                for c, m in zip(laid, choice, strict=True)
            ]
    # no placement fits: name the first meld that cannot take its cards in the first one
    first = [places[0] for places in candidates]
    meld = next(
        m
        for m in melds
        if not _fits(m, [c.bit for c, p in zip(laid, first, strict=True) if p == m])
    )
    onto = [c for c, p in zip(laid, first, strict=True) if p == meld]
    missing = _gaps(meld, sum(c.bit for c in onto))
    names = [c.code for c in onto]
    raise RuleViolation(
        f"layoffs: {' '.join(names)} cannot be laid off on"
        f" {' '.join(mask_codes(meld))}"
        + (f" without {' '.join(mask_codes(missing))}" if missing else ""),
        code="layoff_does_not_fit",
        params={"cards": names, "meld": mask_codes(meld), "missing": mask_codes(missing)},
        option="layoffs",
    )


def _gaps(meld: int, laid: int) -> int:
    """The cards between a run and the farthest card laid on each of its ends, not laid."""
    gaps = 0
    for chain in _chains(meld):
        reached = [i for i, bit in enumerate(chain) if laid & bit]
        if reached:
            gaps |= sum(bit for bit in chain[: reached[-1]] if not laid & bit)
    return gaps
