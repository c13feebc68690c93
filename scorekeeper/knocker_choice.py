"""The knocker's choice: the arrangement laid down when the melds are not declared (RULES.md 5).

Every legal arrangement is considered, not only the optimal ones: the one
chosen maximises the knocker's result against the defender's best reply
(see :mod:`scorekeeper.knock` for the tie-breaks), found by a branch and bound
over the knocker's packings (:mod:`scorekeeper.packings`).
"""

from __future__ import annotations

from .arrangements import first_arrangement
from .layoffs import _REACH, LayoffOption, Reply, _best_reply, _layoff_reach, layoff_options
from .melds import mask_deadwood, mask_points, meld_sort_key
from .packings import Packing, packing_order, packings_within
from .rules import Rules
from .showdown_scoring import _net

Choice = tuple[list[int], int, list[LayoffOption] | None, Reply | None]
"""The knocker's melds (in display order) and deadwood, with their layoff options against the
defender's cards and the defender's best reply to them when the choice worked them out."""


def _choose_knocker_melds(hand: int, other: int, limit: int, rules: Rules, big: bool) -> Choice:
    """The knocker's best legal arrangement against the defender's best reply.

    Returns ``(melds, deadwood, options, reply)``: ``options`` are the melds'
    :func:`~scorekeeper.layoffs.layoff_options` against ``other`` when the choice needed
    them (``None`` for gin, big gin and hands over the limit, ``[]`` when nothing can be
    laid off), ``reply`` the defender's best reply to them when worked out.

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
