"""Knock verification: legality, layoffs and the score of one hand (RULES.md 5-6).

:func:`verify_knock` takes the knocker's cards (10, or 11 for big gin) and
the defender's 10 and returns the scored showdown. Choices it makes, each the
one a careful tournament director would make:

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

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from itertools import pairwise, product, starmap
from typing import Any

from .cards import DECK, FULL_DECK_MASK, SUIT_MASK, Card, cards_mask, parse_cards, parse_mask
from .errors import CardError, InvalidValueError, RuleViolation
from .knock_results import Breakdown as Breakdown
from .knock_results import DefenderHand as DefenderHand
from .knock_results import KnockArrangement as KnockArrangement
from .knock_results import KnockerHand as KnockerHand
from .knock_results import KnockResult as KnockResult
from .knock_results import Layoff as Layoff
from .knock_results import Score as Score
from .melds import (
    codes_of,
    first_arrangement,
    hand_mask,
    mask_all_melds,
    mask_arrangements,
    mask_codes,
    mask_deadwood,
    mask_points,
    meld_codes,
    meld_kind,
    meld_sort_key,
)
from .packings import Packing, packing_order, packings_in_order, packings_within
from .results import Outcome, Side, slot_builder
from .rules import Rules

_RANK_COLUMN = [sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)]
_ACES = _RANK_COLUMN[0]
_KINGS = _RANK_COLUMN[12]
_WINDOW_STARTS = sum(0x7FF << (13 * s) for s in range(4))
"""The cards that can start three consecutive cards of their suit (ace to jack)."""


def _layoff_reach(hand: int) -> int:
    """Every card that could be laid off first on some meld of ``hand``.

    The union of :func:`_reach_of` over every meld the hand can form, found
    without listing them: a run's chains start next to the ends of the block
    of 3+ consecutive cards it lies in (the cards next to a shorter run inside
    the block are the hand's own), and a set's next card is the fourth of a
    rank held exactly three times.
    """
    start = hand & hand >> 1 & hand >> 2 & _WINDOW_STARTS
    runs = start | start << 1 | start << 2
    ends = (runs << 1 & ~_ACES | runs >> 1 & ~_KINGS) & ~runs
    a = hand & SUIT_MASK
    b = hand >> 13 & SUIT_MASK
    c = hand >> 26 & SUIT_MASK
    d = hand >> 39
    three = ((a & b & (c | d)) | (c & d & (a | b))) & ~(a & b & c & d)
    return (ends | three * _ACES & ~hand) & FULL_DECK_MASK


def _chains_of(meld: int) -> tuple[tuple[int, ...], ...]:
    """The cards that can be laid off on a meld, as chains laid one after another.

    A set of three takes its fourth card; a set of four nothing; a run takes
    the cards below its low end (down to the ace) and above its high end (up
    to the king), each chain in the order they must be laid.
    """
    low = (meld & -meld).bit_length() - 1
    rank = low % 13
    column = _RANK_COLUMN[rank]
    if meld & ~column == 0:
        missing = column & ~meld
        return ((missing,),) if meld.bit_count() == 3 else ()
    suit_base = low - rank
    high_rank = meld.bit_length() - 1 - suit_base
    return (
        tuple(1 << (suit_base + r) for r in range(rank - 1, -1, -1)),
        tuple(1 << (suit_base + r) for r in range(high_rank + 1, 13)),
    )


def _reach_of(meld: int) -> int:
    """The cards that could be laid off first on a meld (the head of each chain)."""
    reach = 0
    for chain in _chains_of(meld):
        if chain:
            reach |= chain[0]
    return reach


LayoffOption = tuple[int, list[int]]
"""A knocker meld and the cumulative masks of one chain of cards that may be laid on it
(the first, 0, lays nothing): see :func:`layoff_options`."""


def layoff_options(melds: Iterable[int], available: int) -> list[LayoffOption]:
    """For each chain with a card in ``available``: (meld, cumulative masks that may be laid).

    The chains come from the table of the deck's melds; a mask that is no
    meld (a stored result read back, say) has them worked out as for one.
    """
    options: list[LayoffOption] = []
    for meld in melds:
        if not _REACH.get(meld, available) & available:
            continue  # no chain of this meld starts with an available card
        chains = _CHAINS.get(meld)
        for chain in _chains_of(meld) if chains is None else chains:
            laid = 0
            prefixes = [0]
            for bit in chain:
                if not available & bit:
                    break
                laid |= bit
                prefixes.append(laid)
            if len(prefixes) > 1:
                options.append((meld, prefixes))
    return options


Reply = tuple[int, int, tuple[int, ...]]
"""The defender's best layoffs (:func:`_best_reply`): (deadwood, laid mask, chosen prefix per
option)."""


def _best_reply(
    options: Sequence[LayoffOption], available: int, evaluate: Callable[[int], int]
) -> Reply:
    """The defender's best layoffs (a :data:`Reply`).

    ``evaluate(mask)`` prices the cards left after laying off (their minimal
    deadwood, or their points when the defender's melds are fixed).
    """
    if not options:
        return evaluate(available), 0, ()
    best: tuple[tuple[int, int], int, tuple[int, ...]] | None = None
    for combo in product(*(prefixes for _, prefixes in options)):
        laid = 0
        for part in combo:
            if laid & part:
                break
            laid |= part
        else:
            key = (evaluate(available & ~laid), laid.bit_count())
            if best is None or key < best[0]:
                best = (key, laid, combo)
    # every option's prefixes start with 0 (lay nothing), so some combo fits
    assert best is not None
    (value, _), laid, combo = best
    return value, laid, combo


def _layoff_list(options: Sequence[LayoffOption], combo: Iterable[int]) -> list[tuple[int, int]]:
    """(card bit, knocker meld) pairs for a chosen combination, in laying order."""
    result = []
    for (meld, prefixes), chosen in zip(options, combo, strict=True):
        for previous, current in pairwise(prefixes):
            if current & ~chosen:
                break
            result.append((current & ~previous, meld))
    return result


def _net(knocker_deadwood: int, defender_deadwood: int, rules: Rules) -> int:
    """The knocker's result of a knock: positive when won, negative when undercut.

    A tie is 0 under ``tie: no_score``.
    """
    if knocker_deadwood < defender_deadwood:
        return defender_deadwood - knocker_deadwood
    if knocker_deadwood == defender_deadwood and rules.tie == "no_score":
        return 0
    return -(knocker_deadwood - defender_deadwood + rules.undercut_bonus)


_ALL_MELDS = mask_all_melds(FULL_DECK_MASK)
"""Every meld of the deck (264 runs, 65 sets): the tables below are keyed by them."""
_CHAINS = {meld: _chains_of(meld) for meld in _ALL_MELDS}


def _chains(meld: int) -> tuple[tuple[int, ...], ...]:
    """The chains of a meld from the table; a mask that is no meld of the deck (a stored
    result read back, cards a table names) has them worked out as for one."""
    return _CHAINS.get(meld) or _chains_of(meld)


_REACH = {meld: _reach_of(meld) for meld in _ALL_MELDS}


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


def _fits(meld: int, bits: list[int]) -> bool:
    """True when all these cards can be laid off together on the meld."""
    laid = sum(bits)
    for chain in _chains(meld):
        for bit in chain:
            if not laid & bit:
                break
            laid &= ~bit
    return laid == 0


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

    ``options`` and ``reply`` are the melds' :func:`layoff_options` against ``other`` and
    the best reply to them, when the knocker's choice worked them out (else ``None``).
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


@cache
def _breakdown(difference: int, bonus: int, multiplier: int) -> Breakdown:
    """The :class:`Breakdown` of these figures, remembered (immutable, and a few hundred)."""
    return Breakdown(difference, bonus, multiplier)


def score_hand(
    knocker_deadwood: int,
    defender_deadwood: int,
    rules: Rules,
    *,
    big_gin: bool = False,
    multiplier: int = 1,
) -> Score:
    """The score of a showdown from the two deadwood counts (RULES.md section 6).

    Big gin when ``big_gin``, gin when the knocker has 0 (never undercut), a
    knock when K < D, else an undercut (a tie included, unless ``tie`` is
    ``no_score``: then a tie is outcome ``tie``, winner ``None``, 0 points);
    ``multiplier`` is 2 for an Oklahoma spade upcard. Returns a :class:`Score`;
    the counts are taken as given (callers check them).

    >>> score_hand(3, 12, Rules.preset("standard")).to_dict()
    {'outcome': 'knock', 'winner': 'knocker', 'points': 9, 'breakdown': {'difference': 9, \
'bonus': 0, 'multiplier': 1}}
    >>> score_hand(6, 6, Rules.preset("openspiel")).winner is None
    True
    """
    outcome, winner, difference, bonus = _scored(
        knocker_deadwood, defender_deadwood, rules, big_gin
    )
    return Score(
        outcome=outcome,
        winner=winner,
        points=(difference + bonus) * multiplier,
        breakdown=Breakdown(difference=difference, bonus=bonus, multiplier=multiplier),
    )


def _scored(k: int, d: int, rules: Rules, big_gin: bool) -> tuple[Outcome, Side | None, int, int]:
    """What :func:`score_hand` scores, as (outcome, winner, difference, bonus)."""
    if big_gin:  # callers refuse big gin when big_gin_bonus is null
        return Outcome.BIG_GIN, Side.KNOCKER, d, rules.big_gin_bonus or 0
    if k == 0:
        return Outcome.GIN, Side.KNOCKER, d, rules.gin_bonus
    if k < d:
        return Outcome.KNOCK, Side.KNOCKER, d - k, 0
    if k == d and rules.tie == "no_score":
        return Outcome.TIE, None, 0, 0
    return Outcome.UNDERCUT, Side.DEFENDER, k - d, rules.undercut_bonus


Choice = tuple[list[int], int, list[LayoffOption] | None, Reply | None]
"""The knocker's melds (in display order) and deadwood, with their layoff options against the
defender's cards and the defender's best reply to them when the choice worked them out."""


def _choose_knocker_melds(hand: int, other: int, limit: int, rules: Rules, big: bool) -> Choice:
    """The knocker's best legal arrangement against the defender's best reply.

    Returns ``(melds, deadwood, options, reply)``: ``options`` are the melds'
    :func:`layoff_options` against ``other`` when the choice needed them (``None`` for
    gin, big gin and hands over the limit, ``[]`` when nothing can be laid off), ``reply``
    the defender's best reply to them when worked out.

    The optimal arrangement is weighed first (a branch and bound): the defender may lay
    nothing, so another arrangement's reply is at most the defender's own minimal
    deadwood, and only those leaving little enough deadwood to beat the optimal one's
    result against its reply (or, leaving as little, to tie it) are listed
    (:func:`~scorekeeper.packings.packings_within`, that deadwood as the limit) and
    weighed (:func:`_best_packing`); often none can, and then no packing is listed. The
    winner is the one a full search in depth-first order would keep.
    """
    melds, dead, beyond = first_arrangement(hand)
    minimum = mask_points(dead)
    melds.sort(key=meld_sort_key)
    if minimum == 0 or big or minimum > limit:
        return melds, minimum, None, None
    if not _layoff_reach(hand) & other:
        # nothing can be laid off whatever the knocker lays: the least deadwood is best
        return melds, minimum, [], None
    options = layoff_options(melds, other)
    reply = _best_reply(options, other, mask_deadwood)
    if limit < beyond:  # the only legal arrangement: no reply to weigh
        return melds, minimum, options, reply
    base = mask_deadwood(other)
    net = _net(minimum, reply[0], rules)
    most = _most_deadwood_beating(net, base, limit, rules)
    if most < beyond and minimum < beyond:  # none of the others could beat it, none ties
        return melds, minimum, options, reply
    packings = packings_within(hand, max(most, minimum))
    chosen = sorted(melds)
    first = next(i for i, (d, p) in enumerate(packings) if d == minimum and sorted(p) == chosen)
    index = _best_packing(packings, other, rules, base, ((net, -minimum), first))
    if index == first:
        return melds, minimum, options, reply
    dead, packing = packings[index]
    melds = sorted(packing, key=meld_sort_key)
    return melds, dead, layoff_options(melds, other), None


def _most_deadwood_beating(net: int, base: int, limit: int, rules: Rules) -> int:
    """The most deadwood (at most ``limit``) a knock may leave and still score more than
    ``net`` against a defender left with ``base`` (-1 if none): the knocker's result only
    falls as its deadwood grows."""
    dead = min(limit, base - net - 1) if net >= 0 else limit
    while dead >= 0 and _net(dead, base, rules) <= net:
        dead -= 1
    return dead


def _best_packing(
    packings: list[Packing], other: int, rules: Rules, base: int, seed: tuple[tuple[int, int], int]
) -> int:
    """The index of the packing with the best key against the defender's best reply (the
    first of equal ones in depth-first order, :func:`~scorekeeper.packings.packing_order`),
    ``seed`` being one packing's key and index, trying the others by their bound, best
    first (see :func:`_choose_knocker_melds`)."""
    per_meld: dict[int, list[LayoffOption]] = {}
    bounds = [(_net(dead, base, rules), -dead) for dead, _ in packings]
    replies: dict[tuple[tuple[int, ...], ...], int] = {}
    best_key, best_index = seed
    for index in sorted(range(len(packings)), key=bounds.__getitem__, reverse=True):
        bound = bounds[index]
        if bound < best_key:
            break
        if index == best_index or (
            bound == best_key and not _comes_first(packings, index, best_index)
        ):
            continue
        dead, packing = packings[index]
        options = []
        for meld in packing:
            if _REACH[meld] & other:
                if meld not in per_meld:
                    per_meld[meld] = layoff_options((meld,), other)
                options += per_meld[meld]
        if options:
            signature = tuple(tuple(prefixes) for _, prefixes in options)
            reply = replies.get(signature)
            if reply is None:
                reply = replies[signature] = _best_reply(options, other, mask_deadwood)[0]
        else:
            reply = base
        key = (_net(dead, reply, rules), -dead)
        if key > best_key or (key == best_key and _comes_first(packings, index, best_index)):
            best_key, best_index = key, index
    return best_index


def _comes_first(packings: list[Packing], index: int, other: int) -> bool:
    """Whether the packing at ``index`` comes before the ``other`` in depth-first order."""
    return packing_order(packings[index][1]) < packing_order(packings[other][1])


def knocker_points(result: Score | KnockResult) -> int:
    """What a scored showdown gives the knocker: + points won, - points lost, 0 for a tie.

    >>> knocker_points(score_hand(9, 2, Rules.preset("standard")))
    -32
    """
    if result.winner == Side.KNOCKER:
        return result.points
    return -result.points if result.winner == Side.DEFENDER else 0


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
    suit that touch count as one run (see :mod:`scorekeeper.melds`). The
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
    cannot all be laid off; checks only the fit (:func:`verify_knock`
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
