"""A deal analysis' remarks (:func:`scorekeeper.analysis_remarks.remarks`) in the players' words.

The core says what a remark is (its ``kind``, the seat and the values: numbers and
card codes); here each kind is a translatable sentence for the scorepad (the
hindsight under a hand, the replay viewer's panel), names in ``<bdi>``, cards as
their labels, each count with its own plural form.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from markupsafe import Markup

from scorekeeper.analysis_remarks import Remark

from ..i18n import _, ngettext
from .labels import html, point_count
from .terms import card_info, either


def _cards(codes: Sequence[str]) -> str:
    return " ".join(card_info(code)["label"] for code in codes)


def _summary(values: dict[str, Any]) -> str:
    return _(
        "%(player)s: gave away %(deadwood)s deadwood in %(discards)s; passed up %(melds)s;"
        " missed %(knocks)s and %(gins)s; the showdown cost %(points)s.",
        player="%(player)s",
        deadwood=values["deadwood_given_away"],
        discards=ngettext("%(num)d discard", "%(num)d discards", values["discards_off_best"]),
        melds=ngettext("%(num)d meld", "%(num)d melds", values["missed_melds"]),
        knocks=ngettext("%(num)d knock", "%(num)d knocks", values["missed_knocks"]),
        gins=ngettext("%(num)d gin", "%(num)d gins", values["missed_gins"]),
        points=point_count(values["showdown_cost"]),
    )


_SENTENCES: dict[str, Callable[[dict[str, Any]], str]] = {
    "summary": _summary,
    "passed_up": lambda v: _(
        "%(player)s passed up %(card)s, which makes %(meld)s (deadwood %(deadwood)s with it).",
        player="%(player)s",
        card=_cards(v["card"]),
        meld=_cards(v["meld"]),
        deadwood=v["deadwood_with_it"],
    ),
    "kept": lambda v: _(
        "%(player)s kept deadwood %(deadwood)s; discarding %(cards)s kept %(best)s.",
        player="%(player)s",
        deadwood=v["deadwood"],
        cards=either([card_info(code)["label"] for code in v["best_discards"]]),
        best=v["best_deadwood"],
    ),
    "knock": lambda v: _(
        "%(player)s could have knocked with %(deadwood)s.",
        player="%(player)s",
        deadwood=v["knock_available"],
    ),
    "gin": lambda v: _("%(player)s could have gone gin."),
    "arrangement": lambda v: _(
        "%(player)s's melds would have scored %(points)s against the best reply; the best"
        " arrangement would have scored %(best)s.",
        player="%(player)s",
        points=v["points"],
        best=v["best_points"],
    ),
    "layoffs": lambda v: _(
        "%(player)s could have laid off %(cards)s: %(points)s.",
        player="%(player)s",
        cards=_cards(v["cards"]),
        points=point_count(v["points"]),
    ),
    "rearranged": lambda v: _(
        "%(player)s could have laid off %(cards)s by rearranging: %(points)s.",
        player="%(player)s",
        cards=_cards(v["cards"]),
        points=point_count(v["points"]),
    ),
}
"""Each remark kind's sentence with its values filled in and ``%(player)s`` left for
the name (filled, escaped, by :func:`remark_words`)."""


def remark_words(remark: Remark, name: Markup) -> Markup:
    """A remark as the scorepad's sentence (HTML): ``name`` (a :func:`~.labels.bdi`
    name) for the player it is about, cards as labels."""
    return html(_SENTENCES[remark.kind](dict(remark.values)), player=name)
