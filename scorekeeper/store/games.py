"""Stored games: creating them, entering, undoing and correcting hands, and the sheet.

A game's log (see :mod:`scorekeeper.store.sqlite`) is the truth; the sheet is
always derived from it by :func:`~scorekeeper.sheet.score_sheet`. Log entries:

* a new hand: kind ``quick``, ``cards``, ``record`` or ``void``, the
  submitted hand as payload, ``{"entry", "detail"}`` (see
  :func:`~scorekeeper.hands.evaluate_hand`) as result;
* ``undo``: payload ``{}``, result ``{"undoes": seq, "hand": n}``; it takes
  back the last hand still on the sheet;
* ``correct``: payload ``{"hand": n, "with": hand}``, result ``{"replaces":
  seq, "entry", "detail"}``; hand ``n`` is scored as ``hand`` instead.

So nothing is lost (the log keeps every entry) and nothing is counted
twice (the effective hand list is rebuilt from the log each time).

Constant-cost writes: a write scores from the game's kept state, not its log
(:mod:`scorekeeper.store.scored`); :func:`load_sheet` and the answers to
repeated requests still score the log (:mod:`scorekeeper.store.answers`).

Choices: games are for two, three or four players (RULES.md section 8; the
hand inputs of :mod:`scorekeeper.hands` name the knocker by player
index; Hollywood scoring is for two, as :func:`~scorekeeper.sheet.score_sheet`
says). A three-player hand is scored knowing its dealer (who sits out), a
four-player deal knowing its pairings (the sheet's ``next_games``); both
come from the game's scored state. A hand after the end of the game is
refused, and so is a correction that would end the game before its last
hand, or (three players) would make a later hand's player its dealer
(``dealer_sits_out``: under ``three_player_dealer: loser`` the loser deals
next, so changing who lost changes who sits out later): undo the later
hands first. An undo or a correction may reopen a finished game. A
four-player game's ``dealer`` is any player of the first dealing team.
Player names are cleaned by :func:`~scorekeeper.names.clean_name` and must
be different players (different :func:`~scorekeeper.names.name_key`:
stats match names by it).

Idempotency (as Stripe's API does it): a write repeated with its
``idempotency_key`` writes nothing and returns the first answer, rebuilt
from the log: the answer to log entry N is the sheet of the log's first N
entries (the game as it was then), so it stays the same after later hands,
undos and corrections. A game created (or imported) with a key is found
again by it, its edit token derived again (:mod:`scorekeeper.store.tokens`).
Export and import: :mod:`scorekeeper.store.exchange`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import wraps
from typing import Any, ParamSpec

from ..errors import Conflict, RuleError
from ..game import evaluate
from ..gamesheet import GameSheet
from ..handinput import HandInput, parse_hand
from ..newgame import GameSettings
from ..newgame import check_new_game as check_new_game
from ..rules import Rules
from ..tally import GameState
from .answers import Answer, Made, Written, as_answered, game_sheet, written
from .answers import load_sheet as load_sheet
from .answers import minimal_sheet as minimal_sheet
from .base import Decision, GameView, SheetRow, StoredGame, Summary
from .creating import NewGame, store_game
from .event_rounds import check_change
from .exchange import export_game as export_game
from .exchange import import_game as import_game
from .protocol import Store
from .refusals import NotFound
from .scored import (
    EffectiveHand,
    Scored,
    as_hand,
    empty_sheet,
    fresh,
    scored_rows,
)
from .scored import effective_hands as effective_hands
from .scored import empty_summary as empty_summary
from .scored import score_log as score_log
from .tokens import derive_token as derive_token
from .tokens import hash_request as hash_request
from .tokens import hash_token as hash_token
from .tokens import lot as lot
from .tokens import new_game_id as new_game_id
from .tokens import new_token as new_token
from .tokens import token_matches as token_matches


def create_game(
    store: Store,
    players: Any,
    rules: Any = None,
    dealer: Any = 0,
    stake: Any = None,
    *,
    idempotency_key: str | None = None,
    secret: str | None = None,
    follows: str | None = None,
    owner: int | None = None,
    cut: Sequence[str] | None = None,
    checked: GameSettings | None = None,
) -> tuple[GameSheet, str]:
    """Store a new game; returns ``(sheet, edit token)``. The token is not kept, only its hash.

    ``rules`` are a :class:`~scorekeeper.rules.Rules` or anything
    :meth:`~scorekeeper.rules.Rules.from_dict` reads.

    With an ``idempotency_key`` (and the ``secret`` its token is derived
    under), a repeat of the same request returns the same game and token,
    and the sheet as it was created; see the module docs. ``follows`` is
    the id of the game this one is a rematch of (the scorepad's "new game
    with the same players"; it must exist, else ``NotFound``). ``owner`` is the id of
    the API key creating it (:mod:`scorekeeper.store.access`). ``cut`` is the cards cut
    for the first dealer (codes, one per player), recorded and shown with the game.
    ``checked`` is what :func:`check_new_game` gives for these settings when the caller
    has it (they are not checked again).
    """
    game = check_new_game(players, rules, dealer, stake) if checked is None else checked
    given = rules.to_dict() if isinstance(rules, Rules) else rules  # as the request sent them
    create: dict[str, Any] = {"players": players, "rules": given, "dealer": dealer, "stake": stake}
    if follows is not None:
        store.game(follows)
        create["follows"] = follows
    if cut is not None:
        create["cut"] = list(cut)
    sheet = empty_sheet(game)
    return store_game(
        store,
        game,
        NewGame(scored=empty_summary(game, sheet), follows=follows, cut=cut, sheet=sheet),
        [],
        {"create": create},
        idempotency_key,
        secret,
        owner,
    )


def write_hand(
    store: Store,
    game_id: str,
    hand: HandInput | Mapping[str, Any],
    *,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    full: bool = True,
    known: StoredGame | None = None,
) -> Written:
    """Enter a new hand (:func:`add_hand` answers it typed: ``(hand record, sheet, created)``).

    Raises :class:`~scorekeeper.errors.Conflict` (``game_over``) once the
    game has ended, and the domain's errors for a bad hand; either way
    nothing is stored. A repeated ``idempotency_key`` returns the first
    answer again (``created`` False), whatever happened to the game since.
    With ``expected_version`` (the sheet's ``version`` the change is based
    on), a game that has moved on raises :class:`~scorekeeper.errors.Stale`;
    the same holds for :func:`undo_last` and :func:`correct_hand`.

    The write reads the game's row only: it costs the same at hand 1,000 as
    at hand 10. With ``full`` False the sheet comes without ``hands`` (its
    other keys as always), so the answer does not grow with the game either;
    a repeated request always gets the whole sheet. ``known`` is the game as the request
    read it before (its token checked): the write takes it when its row still holds it.
    """
    answer: list[Made] = []
    parsed = _parsed(hand)

    def decide(game: StoredGame, view: GameView) -> Decision:
        decision, every = Scored(game, view).add(parsed, full)
        answer.append(Made(decision.rows[-1].record, decision.scored, every))
        return decision

    return written(
        *store.append(
            game_id,
            parsed.kind.value,
            dict(parsed.data),
            decide,
            idempotency_key=idempotency_key,
            expected_version=expected_version,
            known=known,
        ),
        answer,
    )


def write_undo(
    store: Store,
    game_id: str,
    *,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    full: bool = True,
    known: StoredGame | None = None,
) -> Written:
    """Take back the last hand on the sheet (:func:`undo_last` answers it typed: ``(the
    undone hand record, sheet, created)``).

    Raises :class:`~scorekeeper.errors.Conflict` (``nothing_to_undo``) when
    the sheet has no hand, and (``decided_later_pairing``) when the game is a
    knockout's match whose result decided a later round's pairing
    (:func:`~scorekeeper.store.event_rounds.check_change`; so does
    :func:`correct_hand`). It goes back to the summary kept with the hand
    before: no scoring. ``full`` as for :func:`add_hand`.
    """
    answer: list[Made] = []

    def decide(game: StoredGame, view: GameView) -> Decision:
        state = Scored(game, view)
        n = state.count
        if not n:
            raise Conflict("there is no hand to undo", code="nothing_to_undo")
        rows = state.rows(max(n - 1, 1))
        undone = rows[-1].record
        scored = Summary(state.before(n, rows).summary(game.rules))
        check_change(view.event(), game, scored)
        every = state.records(1)[: n - 1] if full else None
        answer.append(Made(undone, scored, every))
        return state.change({"undoes": undone["seq"], "hand": n}, scored, n, [])

    entry, created, game, log = store.append(
        game_id,
        "undo",
        {},
        decide,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        known=known,
    )
    if created:
        return written(entry, created, game, log, answer)
    game, log = as_answered(entry, game, log)
    again = game_sheet(game, log[:-1]).hands[-1], game_sheet(game, log), created
    return Written(game, created, again=again)


def write_correction(
    store: Store,
    game_id: str,
    n: int,
    hand: HandInput | Mapping[str, Any],
    *,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    full: bool = True,
    known: StoredGame | None = None,
) -> Written:
    """Score hand ``n`` (1-based) as ``hand`` instead (:func:`correct_hand` answers it typed:
    ``(hand record, sheet, created)``).

    Raises :class:`~scorekeeper.store.refusals.NotFound` for a hand not on the
    sheet and :class:`~scorekeeper.errors.Conflict` (``game_over``) when the
    corrected totals would end the game before its last hand. Hands ``n``
    and later are scored again from the summary kept with hand ``n - 1``.
    ``full`` as for :func:`add_hand`.
    """
    answer: list[Made] = []
    parsed = _parsed(hand)

    def decide(game: StoredGame, view: GameView) -> Decision:
        state = Scored(game, view)
        if not 1 <= n <= state.count:
            raise NotFound(f"there is no hand {n} on the sheet (it has {state.count})", field="n")
        rows = state.rows(max(n - 1, 1))
        later = rows[1:] if n > 1 else rows
        replaced = later[0].record
        before = state.before(n, rows)
        changed = [
            fresh(game.version + 1, parsed, evaluate(game.rules, before, parsed), True),
            *(as_hand(row) for row in later[1:]),
        ]
        rescored = _rescored(game, changed, before)
        _check_deal_records(game, later[1:], rescored[1:])
        scored = rescored[-1].summary
        check_change(view.event(), game, scored)
        every = [*state.records(1)[: n - 1], *(row.record for row in rescored)] if full else None
        answer.append(Made(rescored[0].record, scored, every))
        return state.change({"replaces": replaced["seq"], **changed[0].result}, scored, n, rescored)

    return written(
        *store.append(
            game_id,
            "correct",
            {"hand": n, "with": dict(parsed.data)},
            decide,
            idempotency_key=idempotency_key,
            expected_version=expected_version,
            known=known,
        ),
        answer,
    )


def _rescored(game: StoredGame, changed: list[EffectiveHand], before: GameState) -> list[SheetRow]:
    """A correction's hands scored again from ``before``: a later hand the corrected totals
    refuse (the game would end before it, or its player would deal it) is a conflict."""
    try:
        return scored_rows(game, changed, before)[0]
    except RuleError as error:
        if error.code not in ("game_over", "dealer_sits_out"):
            raise
        raise Conflict(
            f"with this correction {error}; undo the later hands first",
            field="n",
            code=error.code,
            params=error.params,
        ) from error


def _check_deal_records(game: StoredGame, old: Sequence[SheetRow], new: Sequence[SheetRow]) -> None:
    """Refuse a correction after which a later deal record's dealer is not the hand's."""
    for was, now in zip(old, new, strict=True):
        record = now.record
        if was.record["kind"] != "record":
            continue
        dealer = was.record["detail"]["dealer"]
        if dealer != record["dealer"]:
            raise Conflict(
                f"with this correction hand {record['n']} would be dealt by"
                f" {game.players[record['dealer']]}, but its deal record has"
                f" {game.players[dealer]} dealing; undo the later hands first",
                field="n",
                code="dealer_rotation",
                params={
                    "hand": record["n"],
                    "expected": game.players[record["dealer"]],
                    "dealer": game.players[dealer],
                },
            )


def _parsed(hand: HandInput | Mapping[str, Any]) -> HandInput:
    """A hand input as the core takes it (JSON is read here, at the store's edge)."""
    return parse_hand(hand) if isinstance(hand, Mapping) else hand


P = ParamSpec("P")
"""The parameters of a write (:func:`_typed` keeps them)."""


def _typed(write: Callable[P, Written]) -> Callable[P, Answer]:
    """``write`` answering typed (:meth:`Written.typed`)."""

    @wraps(write)
    def typed(*args: P.args, **kwargs: P.kwargs) -> Answer:
        return write(*args, **kwargs).typed()

    return typed


add_hand = _typed(write_hand)


undo_last = _typed(write_undo)


correct_hand = _typed(write_correction)
