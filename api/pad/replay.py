"""The step-by-step viewer of a deal record: every state of the deal, for people.

The record is played by :func:`scorekeeper.records.play_steps` (which
checks every action and the showdown); this module only says what each
step looks like and rewords the record's errors for players.
:func:`analysis_view` shows the sentences of
:func:`scorekeeper.analysis_remarks.remarks` in the viewer's "where it was won or
lost" panel. A pasted record travels in the viewer's
links (:func:`pack_record`), so stepping is plain GET links and Back works.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup

from scorekeeper.actions import Phase, Verb, parse_action
from scorekeeper.analysis import DealAnalysis, analyse
from scorekeeper.analysis_remarks import remarks
from scorekeeper.dealing import WALL
from scorekeeper.engine import Deal
from scorekeeper.errors import RecordError, ScorekeeperError
from scorekeeper.melds import deadwood
from scorekeeper.records import DEAL_FORMAT, load_deal, play_steps
from scorekeeper.rules import Rules

from ..i18n import _, lazy_gettext
from .labels import bdi, html, worded
from .remarks import remark_words
from .terms import GRID_SUITS, card_info, cards_info
from .views_hand import showdown_view

PACKED_LIMIT = 3000
"""The longest packed record put in a link (gunicorn's request line holds 4094 bytes)."""

_ACTION_WORDS = {
    "pass": lazy_gettext("%(name)s passes."),
    "draw stock": lazy_gettext("%(name)s draws from the stock."),
    "draw discard": lazy_gettext("%(name)s takes %(card)s."),
    "discard": lazy_gettext("%(name)s discards %(card)s."),
    "knock": lazy_gettext("%(name)s knocks, discarding %(card)s."),
    "gin": lazy_gettext("%(name)s goes gin, discarding %(card)s."),
    "big gin": lazy_gettext("%(name)s goes big gin."),
}
"""What each action of a replayed deal did, by the record's verb (the card: the one
taken or thrown)."""


def replay_steps(
    record: Any, names: Sequence[str] | None = None, rules: Rules | None = None
) -> list[dict[str, Any]]:
    """Every state of a recorded deal, for the step-by-step viewer.

    Step 0 is the deal; each later step follows one action; the last is the
    showdown (or the void hand). Each step is ``{"n", "text" (what just
    happened, HTML: the names in ``<bdi>``), "hands": [{"name", "cards",
    "count", "deadwood", "to_act"}], "upcard", "pile" (bottom first),
    "top", "stock", "new" (card codes that just moved), "showdown" (a
    :func:`~api.pad.views_hand.showdown_view` on the last step), "void"}``.
    ``names`` label the players (default: the
    record's); with ``rules`` (a stored game's) the record is replayed under
    the game's rules and players, as :func:`~scorekeeper.hands.evaluate_hand`
    scored it. Raises :class:`RecordError` like :func:`~scorekeeper.replay`,
    in players' words and on the ``record`` field when a play is illegal.
    """
    deal, actions, declared = load_deal(_as_played(record, names, rules))
    labels = list(names) if names else list(deal.names)

    def snapshot(n: int, text: str, moved: Sequence[str] = ()) -> dict[str, Any]:
        acting = None if deal.over or deal.phase == Phase.SHOWDOWN else deal.turn
        hands = []
        for p in (0, 1):
            cards = sorted(deal.hand(p), key=lambda c: (GRID_SUITS.index(c.suit), c.rank))
            hands.append(
                {
                    "name": labels[p],
                    "cards": cards_info(cards),
                    "count": len(cards),
                    "deadwood": deadwood(cards),
                    "to_act": acting == p,
                    "dealer": deal.dealer == p,
                }
            )
        pile = deal.discard_pile
        return {
            "n": n,
            "text": text,
            "hands": hands,
            "upcard": card_info(deal.upcard),
            "pile": cards_info(pile),
            "top": card_info(pile[-1]) if pile else None,
            "stock": deal.stock_left,
            "new": list(moved),
            "showdown": None,
            "void": False,
            "knock_limit": deal.knock_limit,
        }

    steps = [
        snapshot(
            0,
            html(
                _("%(dealer)s deals. The upcard is %(upcard)s; %(other)s may take it or pass."),
                dealer=bdi(labels[deal.dealer]),
                upcard=card_info(deal.upcard)["label"],
                other=bdi(labels[1 - deal.dealer]),
            ),
            (),
        )
    ]
    held = [{c.code for c in deal.hand(p)} for p in (0, 1)]
    try:
        for step, action, player in play_steps(deal, actions, declared):
            before, after = held[player], {c.code for c in deal.hand(player)}
            held[player] = after
            moved = sorted(after - before) + sorted(before - after)
            steps.append(
                snapshot(step + 1, _action_text(labels[player], action, after - before), moved)
            )
    except RecordError as error:
        raise _in_players_words(error, actions) from error
    if deal.void:
        steps[-1]["void"] = True
        steps[-1]["text"] += Markup(" ") + html(_void_words(deal))
    else:
        result = deal.result  # play_steps ended the hand, and not void: a showdown
        assert result is not None and result.showdown is not None
        knocker, showdown = result.knocker_player, result.showdown
        assert knocker is not None
        last = snapshot(len(steps), _("Showdown."))
        last["showdown"] = showdown_view(showdown, [labels[knocker], labels[1 - knocker]])
        last["text"] = last["showdown"]["headline"]
        steps.append(last)
    return steps


def _void_words(deal: Deal) -> str:
    """Why a replayed hand ended void, in a sentence (from :attr:`~Deal.void_kind`)."""
    if deal.void_kind == "discard_draws":
        return _(
            "The hand is void: this would be draw %(cap)s from the discard pile"
            " (max_discard_draws).",
            cap=deal.rules.max_discard_draws,
        )
    if deal.void_kind == "repeated_discard":
        return _(
            "The hand is void: %(card)s was taken and discarded straight back twice in a row"
            " (repeated_discard).",
            card=card_info(deal.discard_pile[-1])["label"],
        )
    return _("The hand is void: the stock is down to %(wall)s cards.", wall=WALL)


def _as_played(record: Any, names: Sequence[str] | None, rules: Rules | None) -> Any:
    """The record as a stored game scored it: under the game's rules and players."""
    if rules is not None and isinstance(record, Mapping):
        return {
            **record,
            "format": record.get("format", DEAL_FORMAT),
            "rules": rules.to_dict(),
            "players": list(names or ()),
        }
    return record


def pack_record(text: str) -> str | None:
    """A pasted record as a link parameter (zlib, URL-safe base64); ``None`` if too long."""
    packed = base64.urlsafe_b64encode(zlib.compress(text.encode(), 9)).decode().rstrip("=")
    return packed if len(packed) <= PACKED_LIMIT else None


def unpack_record(packed: str) -> str:
    """The record text of :func:`pack_record`; raises :class:`RecordError` for a bad link."""
    try:
        data = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
        return zlib.decompressobj().decompress(data, 1024 * 1024).decode()
    except (ValueError, binascii.Error, zlib.error) as error:
        raise RecordError(
            _("This replay link is damaged: paste the deal record again."), field="record"
        ) from error


def analysis_view(
    record: Any, names: Sequence[str] | None = None, rules: Rules | None = None
) -> dict[str, Any]:
    """Where the deal was won or lost, in players' words, by viewer step.

    ``{"summary": [sentence per player], "decisions": [(viewer step, sentence)],
    "showdown": [sentences]}``: the sentences of
    :func:`scorekeeper.analysis_remarks.remarks`, as HTML (names in ``<bdi>``, cards as
    labels). A viewer step is the record's step + 1 (step 0 is the deal).
    Takes the record as :func:`replay_steps` does (it must replay).
    """
    report = analyse(_as_played(record, names, rules))
    assert isinstance(report, DealAnalysis)  # replay_steps has refused any other record
    labels = list(names) if names else list(report.players)
    summary: list[Markup] = []
    decisions: list[tuple[int | None, Markup]] = []
    showdown: list[Markup] = []
    for said in remarks(report):
        words = remark_words(said, bdi(labels[said.player]))
        if said.part == "decision":
            decisions.append((said.step, words))
        else:
            (summary if said.part == "summary" else showdown).append(words)
    return {"summary": summary, "decisions": decisions, "showdown": showdown}


def record_error(error: RecordError, record: Any) -> RecordError:
    """An error from scoring a deal record in a game, in players' words, on ``record``.

    The step is counted as the viewer counts it (from 1), so the hand form
    shows the same message as :func:`replay_steps`.
    """
    actions = record.get("actions") if isinstance(record, Mapping) else None
    return _in_players_words(error, actions if isinstance(actions, Sequence) else ())


def _in_players_words(error: RecordError, actions: Sequence[Any]) -> RecordError:
    """A record's error worded from its code for the record field, raised from it.

    An illegal step ``3`` discarding the card just taken becomes ``Step 4
    ('discard Js') is not legal: J♠ was just taken ...`` (steps counted from
    1, as shown); actions that stop early say what was due. The result is a
    plain :class:`RecordError` (code ``bad_record``): its message is final.
    """
    step = error.step
    text = worded(error)
    if step is None:
        return RecordError(text, field="record")
    if error.field is not None and error.field.endswith("showdown"):
        text = _("The showdown is not legal: %(problem)s", problem=text)
    elif step < len(actions):
        text = _(
            "Step %(step)s ('%(action)s') is not legal: %(problem)s",
            step=step + 1,
            action=_shown_action(actions[step]),
            problem=text,
        )
    return RecordError(text, step=step, field="record")


def _shown_action(action: Any) -> str:
    """An action as the record gives it, its card as a label (``discard 4♠``)."""
    try:
        verb, card = parse_action(action)
    except ScorekeeperError:
        return str(action)
    return f"{verb} {card_info(card)['label']}" if card is not None else verb


def _action_text(name: str, action: str, drawn: set[str]) -> Markup:
    """What one (legal, so parseable) action did, in a sentence (``Ana takes 7♥.``; HTML)."""
    verb, card = parse_action(action)
    if verb == Verb.DRAW_DISCARD and not drawn:
        return html(_("%(name)s takes the discard."), name=bdi(name))
    shown = next(iter(drawn)) if verb == Verb.DRAW_DISCARD else card
    return html(
        str(_ACTION_WORDS[verb]),
        name=bdi(name),
        card="" if shown is None else card_info(shown)["label"],
    )
