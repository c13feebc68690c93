"""Real OpenSpiel gin_rummy deals for the importer's tests (pyspiel plays them).

:func:`play` plays ``count`` whole deals with seeded random agents that
discard to least deadwood (mostly), play in one of three :data:`STYLES`
and otherwise pick any legal action, so showdowns with non-optimal melds
and layoffs, walls, the draw cap and repeated moves all occur. Each deal is
``{"entry": {"history", "params"}, "facts": {...}}``: the importer's input
and what pyspiel scored (``returns``, ``deadwood`` per player, ``layoffs``
as codes, ``knocked``). Run as a script it writes the fixed sample (deals of every :func:`kind`)
``tests/data/openspiel-sample.jsonl`` (entries) and
``tests/data/openspiel-sample-facts.jsonl`` (facts, line for line).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from scorekeeper.melds import mask_discards
from scorekeeper.openspiel_ids import openspiel_card

PARAMS = (
    {},
    {"oklahoma": True},
    {"knock_card": 5},
    {"gin_bonus": 20, "undercut_bonus": 10},
    {"oklahoma": True, "knock_card": 5, "undercut_bonus": 20},
)
"""The parameter sets played in turn."""

DATA = Path(__file__).parent / "data"
_BY_BIT = {openspiel_card(i).bit: i for i in range(52)}


def _best_discards(hand: list[int]) -> list[int]:
    mask = sum(openspiel_card(card).bit for card in hand)
    options = list(mask_discards(mask))
    least = min(left for _, left in options)
    return [_BY_BIT[bit] for bit, left in options if left == least]


STYLES = ("eager", "patient", "eager", "patient", "eager", "hoarder")
"""How the agents of deal k play (``STYLES[k % 6]``): ``eager`` knock when they may
(mostly); ``patient`` never knock before the wall and there knock or pass at random
(wall knocks, wall passes, undercuts and ties); ``hoarder`` always take the upcard and
never knock (OpenSpiel's cap of 50 upcard draws)."""


def _choose(state, rng: random.Random, style: str) -> int:
    legal = state.legal_actions()
    if legal == [54, 55]:  # the wall
        return rng.choice(legal) if style == "patient" else 55
    if 55 in legal and style == "eager" and rng.random() < 0.9:
        return 55
    player = state.current_player()
    hand = list(state.hands()[player])
    if (
        len(hand) == 11
        and all(a < 52 or a == 55 for a in legal)
        and (style != "eager" or rng.random() < 0.85)
    ):
        taken = state.prev_upcard() if state.history()[-1] == 52 else None
        choices = [card for card in _best_discards(hand) if card in legal and card != taken]
        if not choices and style == "hoarder":
            choices = [card for card in legal if card < 52 and card != taken]
        if choices:
            return rng.choice(choices)
    if 52 in legal and 53 in legal:
        return 52 if style == "hoarder" or rng.random() < 0.3 else 53
    if style != "eager" and 55 in legal:
        legal = [action for action in legal if action != 55]
    return rng.choice(legal)


def play(seed: int, count: int) -> list[dict]:
    """``count`` finished deals, the parameter sets of :data:`PARAMS` in turn."""
    import pyspiel

    rng = random.Random(seed)
    deals = []
    for index in range(count):
        params = PARAMS[index % len(PARAMS)]
        state = pyspiel.load_game("gin_rummy", params).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(_choose(state, rng, STYLES[index % len(STYLES)]))
        deals.append(
            {
                "entry": {"history": list(state.history()), "params": params},
                "facts": {
                    "returns": [int(r) for r in state.returns()],
                    "deadwood": list(state.deadwood()),
                    "layoffs": [openspiel_card(c).code for c in state.layoffs()],
                    "knocked": list(state.knocked()),
                },
            }
        )
    return deals


def kind(deal: dict) -> str:
    """How pyspiel ended a deal: gin, knock, undercut, tie, or how a deal ended unscored."""
    facts, history = deal["facts"], deal["entry"]["history"]
    if any(facts["knocked"]):
        knocker = facts["knocked"].index(True)
        dead = facts["deadwood"]
        if dead[knocker] == 0:
            return "gin"
        if dead[knocker] == dead[1 - knocker]:
            return "tie"
        return "undercut" if facts["returns"][knocker] < 0 else "knock"
    return {52: "draw cap", 54: "wall"}.get(history[-1], "repeated move")


def main() -> None:
    """The fixed sample: up to 5 deals of every :func:`kind` among 3000, then others to 40."""
    deals = play(int(sys.argv[1]) if len(sys.argv) > 1 else 7, 3000)
    chosen: list[dict] = []
    for name in ("gin", "knock", "undercut", "tie", "draw cap", "wall", "repeated move"):
        chosen += [deal for deal in deals if kind(deal) == name][:5]
    chosen += [deal for deal in deals if deal not in chosen][: 40 - len(chosen)]
    chosen.sort(key=deals.index)
    with (
        open(DATA / "openspiel-sample.jsonl", "w") as entries,
        open(DATA / "openspiel-sample-facts.jsonl", "w") as facts,
    ):
        for deal in chosen:
            entries.write(json.dumps(deal["entry"]) + "\n")
            facts.write(json.dumps(deal["facts"]) + "\n")


if __name__ == "__main__":
    main()
