"""The step-by-step viewer of a deal record: every state of the deal, for people.

The record is played by :func:`scorekeeper.records.play_steps` (which
checks every action and the showdown); this module only says what each
step looks like and rewords the record's errors for players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.engine import DRAW_DISCARD, SHOWDOWN, parse_action
from scorekeeper.errors import RecordError
from scorekeeper.melds import deadwood
from scorekeeper.records import DEAL_FORMAT, load_deal, play_steps

from .labels import GRID_SUITS, card_info, cards_info, friendly
from .views import showdown_view

_VERB_WORDS = {"pass": "passes", "draw stock": "draws from the stock",
               "draw discard": "takes", "discard": "discards", "knock": "knocks, discarding",
               "gin": "goes gin, discarding", "big gin": "goes big gin"}


def replay_steps(record: Any, names: Sequence[str] | None = None,
                 rules: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Every state of a recorded deal, for the step-by-step viewer.

    Step 0 is the deal; each later step follows one action; the last is the
    showdown (or the void hand). Each step is ``{"n", "text" (what just
    happened), "hands": [{"name", "cards", "count", "deadwood", "to_act"}],
    "upcard", "pile" (bottom first), "top", "stock", "new" (card codes
    that just moved), "showdown" (a :func:`~api.pad.views.showdown_view`
    on the last step), "void"}``. ``names`` label the players (default: the
    record's); with ``rules`` (a stored game's) the record is replayed under
    the game's rules and players, as :func:`~scorekeeper.store.hands.evaluate_hand`
    scored it. Raises :class:`RecordError` like :func:`~scorekeeper.replay`,
    in players' words and on the ``record`` field when a play is illegal.
    """
    if rules is not None and isinstance(record, Mapping):
        record = {**record, "format": record.get("format", DEAL_FORMAT),
                  "rules": dict(rules), "players": list(names or ())}
    deal, actions, declared = load_deal(record)
    labels = list(names) if names else list(deal.names)

    def snapshot(n: int, text: str, moved: Sequence[str] = ()) -> dict[str, Any]:
        acting = None if deal.over or deal.phase == SHOWDOWN else deal.turn
        hands = []
        for p in (0, 1):
            cards = sorted(deal.hand(p), key=lambda c: (GRID_SUITS.index(c.suit), c.rank))
            hands.append({"name": labels[p], "cards": cards_info(cards), "count": len(cards),
                          "deadwood": deadwood(cards), "to_act": acting == p,
                          "dealer": deal.dealer == p})
        pile = deal.discard_pile
        return {"n": n, "text": text, "hands": hands, "upcard": card_info(deal.upcard),
                "pile": cards_info(pile), "top": card_info(pile[-1]) if pile else None,
                "stock": deal.stock_left, "new": list(moved), "showdown": None, "void": False,
                "knock_limit": deal.knock_limit}

    steps = [snapshot(0, f"{labels[deal.dealer]} deals. The upcard is"
                         f" {card_info(deal.upcard)['label']}; {labels[1 - deal.dealer]}"
                         " may take it or pass.", ())]
    held = [{c.code for c in deal.hand(p)} for p in (0, 1)]
    try:
        for step, action, player in play_steps(deal, actions, declared):
            before, after = held[player], {c.code for c in deal.hand(player)}
            held[player] = after
            moved = sorted(after - before) + sorted(before - after)
            steps.append(snapshot(step + 1, _action_text(labels[player], action, after - before),
                                  moved))
    except RecordError as error:
        raise _in_players_words(error, actions) from None
    if deal.void:
        steps[-1]["void"] = True
        steps[-1]["text"] += " The stock is down to two cards: the hand is void."
    else:
        result = deal.result  # play_steps ended the hand, and not void: a showdown
        assert result is not None and result.showdown is not None
        knocker, showdown = result.knocker_player, result.showdown
        assert knocker is not None
        last = snapshot(len(steps), "Showdown.")
        last["showdown"] = showdown_view(showdown, [labels[knocker], labels[1 - knocker]])
        last["text"] = last["showdown"]["headline"]
        steps.append(last)
    return steps


def record_error(error: RecordError, record: Any) -> RecordError:
    """An error from scoring a deal record in a game, in players' words, on ``record``.

    :func:`~scorekeeper.store.hands.evaluate_hand` prefixes the replay's message
    with ``record:`` and its field with ``record.``; the step is reworded as
    the viewer counts it (from 1), so the hand form shows the same message
    as :func:`replay_steps`.
    """
    detail = str(error).removeprefix("record: ")
    field = (error.field or "").removeprefix("record").removeprefix(".")
    inner = RecordError(detail, step=error.step, field=field or None)
    if error.step is not None:
        actions = record.get("actions") if isinstance(record, Mapping) else None
        return _in_players_words(inner, actions if isinstance(actions, Sequence) else ())
    return RecordError(friendly(inner), field="record")


def _in_players_words(error: RecordError, actions: Sequence[Any]) -> RecordError:
    """A :func:`~scorekeeper.records.play_steps` error reworded for the record field.

    ``step 3: cannot discard Js: ...`` becomes ``Step 4 ('discard Js') is
    not legal: Cannot discard J♠: ...`` (steps counted from 1, as shown).
    """
    step = error.step
    detail = str(error).removeprefix(f"step {step}: ")
    if error.field == "showdown":
        lead, detail = "The showdown is not legal: ", detail.removeprefix("showdown: ")
    elif step is not None and step < len(actions):
        lead = f"Step {step + 1} ({actions[step]!r}) is not legal: "
    else:
        return RecordError("The record stops before the hand is over.", step=step,
                           field="record")
    return RecordError(lead + friendly(RecordError(detail)), step=step, field="record")


def _action_text(name: str, action: str, drawn: set[str]) -> str:
    """What one (legal, so parseable) action did, in a sentence (``Ana takes 7♥.``)."""
    verb, card = parse_action(action)
    text = f"{name} {_VERB_WORDS[verb]}"
    if verb == DRAW_DISCARD:
        text += " " + card_info(next(iter(drawn)))["label"] if drawn else " the discard"
    if card is not None:
        text += " " + card_info(card)["label"]
    return text + "."
