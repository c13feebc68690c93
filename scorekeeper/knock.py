"""Knock verification: a knock's legality and its scored showdown (RULES.md 5-6).

:func:`verify_knock` takes the knocker's cards (10, or 11 for big gin) and
the defender's 10 and returns the scored showdown, from the steps of their own
modules: :mod:`~scorekeeper.knocker_choice` (the knocker's melds),
:mod:`~scorekeeper.layoffs` (the defender's), :mod:`~scorekeeper.declarations`
(what a table declares) and :mod:`~scorekeeper.showdown_scoring` (the points).
Choices it makes, each the one a careful tournament director would make:

* **Knocker's melds not declared:** every legal arrangement is considered,
  not only the optimal ones (RULES.md 5 lets the knocker lay out any
  arrangement within the limit, and it decides what can be laid off). The
  one chosen maximises the knocker's result against the defender's best
  reply; ties go to the lower knocker deadwood, then to the first found.
  A hand that can go gin always goes gin (nothing beats it).
* **Defender:** own melds and layoffs are chosen together to minimise the
  defender's deadwood; among equal results the fewest layoffs are shown.
  A card that could join a set or extend a run is tried in both places.
* **Declared defender melds** (a physical table) are taken as the
  defender's melds: the other cards are laid off (optimally, unless layoffs
  are declared too) or count as deadwood. ``best_deadwood`` always reports
  what an optimal defender would have had.
* **Declared layoffs** are validated as a whole: the cards laid on one run
  must extend it into one longer run; a set of three takes only its fourth
  card. Layoffs against gin or big gin are refused.
* With declared defender melds but undeclared knocker melds, the knocker's
  arrangement is still chosen against the optimal defender: the knocker lays
  down first and cannot know what the defender will do wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import starmap
from typing import Any

from .arrangements import mask_arrangements
from .cards import DECK, Card, parse_cards, parse_mask
from .declarations import _parse_layoffs, _parse_melds
from .errors import CardError, RuleViolation
from .knock_results import Breakdown as Breakdown
from .knock_results import DefenderHand as DefenderHand
from .knock_results import KnockArrangement as KnockArrangement
from .knock_results import KnockerHand as KnockerHand
from .knock_results import KnockResult as KnockResult
from .knock_results import Layoff as Layoff
from .knock_results import Score as Score
from .knocker_choice import _choose_knocker_melds
from .layoffs import LayoffOption, Reply, _best_reply, _layoff_list, layoff_options
from .melds import (
    codes_of,
    hand_mask,
    mask_codes,
    mask_deadwood,
    mask_points,
    meld_codes,
    meld_sort_key,
)
from .packings import packings_in_order
from .results import slot_builder
from .rules import Rules
from .showdown_scoring import _breakdown, _scored, knocker_points


def over_limit(
    dead: int, limit: int, rules: Rules, upcard: Card | None
) -> tuple[str, dict[str, Any]]:
    """Why a knock with ``dead`` deadwood is illegal: the message and its params.

    ``("deadwood 12 exceeds the knock limit 4 set by the upcard 4s", {"deadwood":
    12, "limit": 4, "upcard": "4s"})``: the upcard is named (message and
    params) only when Oklahoma lowered the limit. The code is ``knock_over_limit``.
    """
    params: dict[str, Any] = {"deadwood": dead, "limit": limit}
    message = f"deadwood {dead} exceeds the knock limit {limit}"
    if rules.oklahoma and upcard is not None and limit < rules.knock_limit:
        message += f" set by the upcard {upcard}"
        params["upcard"] = upcard.code
    if limit == 0:
        message += ": only gin ends the hand"
    return message, params


def verify_knock(
    knocker: Any,
    defender: Any,
    *,
    rules: Rules | Mapping[str, Any] | str | None = None,
    upcard: str | Card | None = None,
    knocker_melds: Iterable[Any] | None = None,
    defender_melds: Iterable[Any] | None = None,
    layoffs: Iterable[Any] | None = None,
) -> KnockResult:
    """Check a knock and score the hand (see the module docs for the choices).

    ``knocker`` is 10 cards (11 for big gin), ``defender`` 10; ``upcard`` is
    the deal's first upcard (Oklahoma knock limit and spade doubling); melds
    are lists of card lists or strings like ``"5s 6s 7s"``; layoffs are
    ``{"card": code, "meld": [codes of the knocker meld]}``. Raises
    :class:`RuleError` for an illegal knock, :class:`CardError` for bad cards.
    """
    rules = Rules.from_dict(rules)
    hand, other = _read_hands(knocker, defender)
    up = parse_cards([upcard], field="upcard")[0] if upcard is not None else None
    limit = rules.knock_limit_for(up)
    multiplier = rules.multiplier_for(up)
    big = _is_big_gin(hand, rules)
    fixed = None
    if defender_melds is not None:
        fixed = _parse_melds(defender_melds, other, field="defender_melds", owner="defender")
    if knocker_melds is None:
        melds, dead, options, reply = _choose_knocker_melds(hand, other, limit, rules, big)
        shown = melds
    else:
        melds = _parse_melds(knocker_melds, hand, field="knocker_melds", owner="knocker")
        dead, options, reply = mask_points(hand & ~sum(melds)), None, None
        shown = sorted(melds, key=meld_sort_key)
    # the fault lies with the declared melds when there are some, else with the hand
    _check_knock(
        dead, limit, rules, up, big, "knocker" if knocker_melds is None else "knocker_melds"
    )
    if dead == 0:  # gin
        side = _gin_reply(other, fixed, layoffs)
    else:
        side = _defender_reply(other, fixed, melds, options, reply, layoffs)
    outcome, winner, difference, bonus = _scored(dead, side[1], rules, big)
    # positional, in field order, slot by slot (see slot_builder)
    return _new_knock_result(
        outcome,
        winner,
        (difference + bonus) * multiplier,
        _new_knocker_hand(codes_of(hand), _melds_shown(shown), codes_of(hand & ~sum(melds)), dead),
        _defender_hand(other, fixed, side),
        _breakdown(difference, bonus, multiplier),
    )


_new_knock_result = slot_builder(KnockResult)
_new_knocker_hand = slot_builder(KnockerHand)
_new_defender_hand = slot_builder(DefenderHand)
"""The results of :func:`verify_knock`, built from their fields in order, slot by slot
(:func:`~scorekeeper.results.slot_builder`)."""


def _read_hands(knocker: Any, defender: Any) -> tuple[int, int]:
    """The knocker's and the defender's cards as masks (10 or 11, and 10), checked apart."""
    hand = parse_mask(knocker, count=(10, 11), field="knocker")
    other = parse_mask(defender, count=10, field="defender")
    if hand & other:
        card = DECK[(hand & other & -(hand & other)).bit_length() - 1]
        raise CardError(
            f"{card} is in both the knocker's and the defender's hand",
            code="card_in_both_hands",
            params={"card": card.code},
            token=card.code,
            field="defender",
        )
    return hand, other


def _is_big_gin(hand: int, rules: Rules) -> bool:
    """Whether the knocker shows 11 cards (big gin), refused when the rules have no bonus."""
    if hand.bit_count() == 11:
        if rules.big_gin_bonus is None:
            raise RuleViolation(
                "big gin (11 cards) is not allowed under these rules"
                " (big_gin_bonus is null): the knocker must hold 10 cards",
                code="big_gin_not_allowed",
                option="knocker",
            )
        return True
    return False


def _check_knock(
    dead: int, limit: int, rules: Rules, upcard: Card | None, big: bool, at_fault: str
) -> None:
    """Refuse a big gin with deadwood, or a knock over the limit (``at_fault`` names why)."""
    if big and dead:
        raise RuleViolation(
            f"big gin needs all 11 cards melded; deadwood is {dead}",
            code="big_gin_deadwood",
            params={"deadwood": dead},
            option=at_fault,
        )
    if dead > limit:
        message, params = over_limit(dead, limit, rules, upcard)
        raise RuleViolation(message, code="knock_over_limit", params=params, option=at_fault)


DefenderReply = tuple[int, int, list[tuple[int, int]], int]
"""What the defender makes of a knock: (best deadwood, deadwood, layoffs as (card bit,
knocker meld) pairs in laying order, the cards left unmelded and not laid off as a mask, or
the cards not laid off when the defender's melds are declared)."""


def _gin_reply(other: int, fixed: list[int] | None, layoffs: Iterable[Any] | None) -> DefenderReply:
    """The defender's reply to gin: nothing laid off (declared layoffs are refused)."""
    if layoffs:
        raise RuleViolation("no layoffs against gin", code="layoff_on_gin", option="layoffs")
    best = mask_deadwood(other)
    if fixed is None:
        return best, best, [], other
    available = other & ~sum(fixed)
    return best, mask_points(available), [], available


def _defender_reply(
    other: int,
    fixed: list[int] | None,
    melds: list[int],
    options: list[LayoffOption] | None,
    reply: Reply | None,
    layoffs: Iterable[Any] | None,
) -> DefenderReply:
    """The defender's reply to a knock on ``melds``: the declared layoffs, else the best.

    ``options`` and ``reply`` are the melds' :func:`~scorekeeper.layoffs.layoff_options`
    against ``other`` and the best reply to them, when the knocker's choice worked them out
    (else ``None``).
    """
    if options is None:
        options = layoff_options(melds, other)
    best, laid, combo = reply if reply is not None else _best_reply(options, other, mask_deadwood)
    if fixed is None and layoffs is None:
        return best, best, _layoff_list(options, combo), other & ~laid
    available = other & ~sum(fixed) if fixed is not None else other
    evaluate = mask_points if fixed is not None else mask_deadwood
    if layoffs is not None:
        pairs = _parse_layoffs(layoffs, melds, available)
        left = available & ~sum(bit for bit, _ in pairs)
        return best, evaluate(left), pairs, left
    options = layoff_options(melds, available)
    best_fixed, laid, combo = _best_reply(options, available, evaluate)
    return best, best_fixed, _layoff_list(options, combo), available & ~laid


def _defender_hand(other: int, fixed: list[int] | None, reply: DefenderReply) -> DefenderHand:
    """The defender's hand as the result shows it: own melds (the declared ones, else the
    first optimal arrangement of what is left after laying off), layoffs and deadwood."""
    best, dead, pairs, left = reply
    if fixed is None:
        melds, left = mask_arrangements(left)[0]
    else:
        melds = fixed
    return _new_defender_hand(
        codes_of(other),
        _melds_shown(sorted(melds, key=meld_sort_key)),
        tuple(starmap(_layoff, pairs)),
        codes_of(left),
        dead,
        best,
    )


def _melds_shown(melds: list[int]) -> tuple[tuple[str, ...], ...]:
    """Melds (in display order, :func:`~scorekeeper.melds.meld_sort_key`) as a result holds them."""
    return tuple(map(meld_codes, melds))


_LAYOFFS: dict[tuple[int, int], Layoff] = {}
"""The layoffs made so far, by (card bit, meld): a result is immutable, so one serves every
knock that lays that card on that meld (a deck has a few thousand)."""


def _layoff(bit: int, meld: int) -> Layoff:
    """The :class:`Layoff` of a card (its bit) on a meld (from :data:`_LAYOFFS`)."""
    layoff = _LAYOFFS.get((bit, meld))
    if layoff is None:
        layoff = _LAYOFFS[bit, meld] = Layoff(DECK[bit.bit_length() - 1].code, meld_codes(meld))
    return layoff


def knock_arrangements(
    knocker: Any,
    defender: Any,
    *,
    rules: Rules | Mapping[str, Any] | str | None = None,
    upcard: str | Card | None = None,
) -> list[KnockArrangement]:
    """Every arrangement the knocker may lay down, the best first (RULES.md 5).

    Any arrangement whose deadwood is within the knock limit is legal, gin or
    not (a hand that could go gin may be laid down as a knock); runs of one
    suit that touch count as one run (see :mod:`scorekeeper.arrangements`). The
    first is the one :func:`verify_knock` chooses when the melds are not
    declared; the others follow by the knocker's points against the
    defender's best reply (most first), then by deadwood (least first). A
    hand has few: at most a dozen or so, most hands one or two. Big gin (11
    cards) is laid down all melded. Raises as :func:`verify_knock` does.

    >>> for a in knock_arrangements("Ah 2h 3h 3c 3d 9s 9d 9c As 2c",
    ...                             "4h 5h Kc Kd Ks Js Qs 8d 6s Tc"):
    ...     print(a.melds, a.deadwood, a.points, [x.card for x in a.layoffs])
    (('3c', '3d', '3h'), ('9c', '9d', '9s')) 6 47 []
    (('9c', '9d', '9s'), ('Ah', '2h', '3h')) 9 35 ['4h', '5h']
    """
    best = verify_knock(knocker, defender, rules=rules, upcard=upcard)
    rules = Rules.from_dict(rules)
    up = parse_cards([upcard], field="upcard")[0] if upcard is not None else None
    hand = hand_mask(best.knocker.cards)
    limit = 0 if len(best.knocker.cards) == 11 else rules.knock_limit_for(up)
    found = [best]
    for _, packing in packings_in_order(hand, limit):
        shown = verify_knock(
            knocker,
            defender,
            rules=rules,
            upcard=upcard,
            knocker_melds=[mask_codes(meld) for meld in packing],
        )
        if shown.knocker.melds != best.knocker.melds:
            found.append(shown)
    found[1:] = sorted(found[1:], key=lambda r: (-knocker_points(r), r.knocker.deadwood))
    return [
        KnockArrangement(
            melds=r.knocker.melds,
            deadwood_cards=r.knocker.deadwood_cards,
            deadwood=r.knocker.deadwood,
            outcome=r.outcome,
            points=knocker_points(r),
            defender_deadwood=r.defender.deadwood,
            layoffs=r.defender.layoffs,
        )
        for r in found
    ]
