"""The store's typed sheet (issue 9) serialises byte for byte as the dict it replaced.

The services of :mod:`scorekeeper.store.games` hand out a
:class:`~scorekeeper.gamesheet.GameSheet` and
:class:`~scorekeeper.gamesheet.StoredHand`; until they did, they handed
out dicts, built two ways: from the log (``game_sheet``: a read, a create,
an import, a repeated request) and, for a write's answer, from the game's
stored summary and sheet rows (``_Scored.sheet`` and ``_dated``). The two
differ in bytes: the log keeps JSON with sorted keys, the rows keep the
order a hand was submitted in. :func:`old_sheet` and :func:`old_answer`
below are copies of those builders as they were, kept here only as the
reference: for games of two, three and four players and Hollywood, with
quick, cards, void and record hands, undos and corrections (answered whole
and minimal), repeated requests, creates and imports, on both backends,
every answer's ``json.dumps(x.to_dict())`` must be its reference's
``json.dumps``, key order included.

Why copies of the old builders rather than API answers recorded before the
change: the reference then runs on the very same stored game (its random
id, its times, its log and rows), so the comparison is exact with nothing
masked; and it follows the core's scoring as it evolves, where recorded
answers would go stale at the first legitimate change of a sheet.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import fields

import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sheet_kit import scored_game
from store_kit import quick

from scorekeeper import simulate
from scorekeeper.bots import simulate_match
from scorekeeper.gamesheet import GameSheet, GameStatus, StoredHand
from scorekeeper.hands import HandKind, evaluate_hand
from scorekeeper.rules import Rules
from scorekeeper.sheet import score_sheet
from scorekeeper.store import games
from scorekeeper.store.base import StoredGame
from scorekeeper.store.games import effective_hands

KNOCKER = "As 2s 3s 7c 7d 7h 9d Td Jd 2c"
DEFENDER = "4s 5s 6s 8c 8d 8h Kd Qd Jh Th"
VOID = {"kind": "void"}


def old_sheet(game: Mapping, log: list) -> dict:
    """The sheet dict as the store built it before it was typed (the reference)."""
    hands = effective_hands(log)
    sheet = score_sheet(
        [h.entry for h in hands],
        players=game["players"],
        rules=game["rules"],
        dealer=game["dealer"],
        stake=game["stake"],
    )
    body = sheet.to_dict()
    for record, hand in zip(body["hands"], hands, strict=True):
        record.update(
            seq=hand.seq,
            kind=hand.kind,
            input=hand.input,
            detail=hand.detail,
            corrected=hand.corrected,
        )
    return {
        "id": game["id"],
        "created": game["created"],
        "updated": game["updated"],
        "status": "over" if sheet.over else "active",
        "version": len(log),
        "dealer": game["dealer"],
        **body,
    }


def old_answer(game: Mapping, rows: list[dict] | None) -> dict:
    """A write's answer as the store built it before it was typed (the reference): the
    game after the write, its stored summary, and its rows' records (``None``: minimal)."""
    body = {
        key: rows if key == "hands" else value
        for key, value in game["scored"].items()
        if key != "hands" or rows is not None
    }
    sheet = {"id": game["id"], "dealer": game["dealer"], **body}
    return {
        "id": sheet["id"],
        "created": game["created"],
        "updated": game["updated"],
        "status": game["status"],
        "version": game["version"],
        **sheet,
    }


def game_dict(game: StoredGame) -> dict:
    """A stored game as the dict the store handed out before it was typed."""
    found = {f.name: getattr(game, f.name) for f in fields(game)}
    return {**found, "scored": None if game.scored is None else game.scored.data}


def same_bytes(typed, reference) -> None:
    assert json.dumps(typed.to_dict()) == json.dumps(reference)
    assert type(typed).from_dict(typed.to_dict()) == typed
    assert type(typed).from_dict(json.loads(json.dumps(typed.to_dict()))) == typed


class Checked:
    """A stored game whose every answer is compared with the reference."""

    def __init__(self, store, backend, sheet: GameSheet):
        self.store, self.backend, self.id = store, backend, sheet.id
        game, log = store.game_and_log(self.id)
        same_bytes(sheet, old_sheet({**game_dict(game), "updated": game.created}, log))
        self.sheet = sheet
        self.answers = 0
        self.submitted: dict[int, dict] = {}

    def reference(self, log_end: int | None = None) -> dict:
        """The reference sheet after the last write (or as log entry ``log_end`` left it)."""
        game, log = self.store.game_and_log(self.id)
        if log_end is not None:
            log = log[:log_end]
            return old_sheet({**game_dict(game), "updated": log[-1].created}, log)
        return old_sheet(game_dict(game), log)

    def rows(self) -> list[dict]:
        """The records of the game's stored sheet rows."""
        return [
            json.loads(record)
            for (record,) in self.backend.sql(
                "SELECT record FROM sheet_hands WHERE game_id = ? ORDER BY n", (self.id,)
            )
        ]

    def written(self) -> dict:
        """The reference of a write's answer (the game as the write left it): the old
        builders made it from the kept rows, whose hands hold their input as submitted
        (the log keeps it with sorted keys) and their detail as :func:`evaluate_hand`
        orders it; both are rebuilt here from what this test submitted."""
        game, log = self.store.game_and_log(self.id)
        sheet = old_sheet(game_dict(game), log)
        for record in sheet["hands"]:
            given = self.submitted[record["seq"]]
            record["input"] = given
            record["detail"] = evaluate_hand(
                given,
                game.rules,
                players=game.players,
                dealer=record["dealer"],
                games=record.get("games"),
            ).to_dict()["detail"]
        return sheet

    def check(self, answer, full: bool, undone: dict | None = None) -> None:
        """A write's answer (whole or minimal) against :meth:`written`; its hand the one it
        wrote, or ``undone``. The rows kept for later answers hold the same bytes
        (:func:`old_answer`)."""
        hand, sheet, created = answer
        assert created
        reference = self.written()
        same_bytes(
            sheet,
            reference
            if full
            else {key: value for key, value in reference.items() if key != "hands"},
        )
        assert sheet.minimal == (not full) and (full or sheet.hands == ())
        assert json.dumps(
            old_answer(game_dict(self.store.game(self.id)), self.rows())
        ) == json.dumps(reference)
        if undone is None:
            version = self.store.game(self.id).version
            undone = next(h for h in reference["hands"] if h["seq"] == version)
        same_bytes(hand, undone)
        assert isinstance(hand, StoredHand)
        self.sheet = sheet
        self.answers += 1

    def add(self, hand: dict, full: bool = True, **key) -> None:
        self.submitted[len(self.store.log(self.id)) + 1] = hand
        self.check(games.add_hand(self.store, self.id, hand, full=full, **key), full)

    def undo(self, full: bool = True, **key) -> None:
        last = self.written()["hands"][-1]
        self.check(games.undo_last(self.store, self.id, full=full, **key), full, last)

    def correct(self, n: int, hand: dict, full: bool = True, **key) -> None:
        self.submitted[len(self.store.log(self.id)) + 1] = hand
        self.check(games.correct_hand(self.store, self.id, n, hand, full=full, **key), full)

    def repeated(self, write, *args) -> None:
        """A keyed write sent twice: the first is answered as a write, the repeat as its
        log entry left the game (from the log: as the store always answered it)."""
        key = f"k{self.answers}"
        write(*args, idempotency_key=key)
        seq = len(self.store.log(self.id))
        again = {
            self.add: games.add_hand,
            self.undo: games.undo_last,
            self.correct: games.correct_hand,
        }[write]
        hand, sheet, created = again(self.store, self.id, *args, idempotency_key=key)
        assert not created
        reference = self.reference(seq)
        same_bytes(sheet, reference)
        same_bytes(
            hand,
            self.reference(seq - 1)["hands"][-1]
            if write == self.undo
            else next(h for h in reference["hands"] if h["seq"] == seq),
        )

    def loaded(self) -> GameSheet:
        sheet = games.load_sheet(self.store, self.id)
        same_bytes(sheet, self.reference())
        return sheet


def cards(knocker: int, **extra) -> dict:
    return {
        "kind": "cards",
        "knocker": knocker,
        "knocker_cards": KNOCKER,
        "defender_cards": DEFENDER,
        **extra,
    }


def record(seed: int, sheet: GameSheet, rules=None) -> dict:
    """A deal record dealt by the sheet's next dealer (its players and rules left out: the
    game's)."""
    played = simulate(seed, rules=rules, dealer=sheet.next_dealer)
    return {
        "kind": "record",
        "record": {key: value for key, value in played.items() if key not in ("players", "rules")},
    }


def play(game: Checked, hands, minimal_every: int = 2) -> None:
    """Enter ``hands`` (functions of the sheet, or inputs), every other one answered minimal."""
    for i, hand in enumerate(hands):
        game.add(hand(game.sheet) if callable(hand) else hand, full=i % minimal_every != 0)


def test_two_players_quick_cards_void_record_undo_correct(store, backend):
    game = Checked(store, backend, games.create_game(store, ["Ana", "Ben"], stake=0.25)[0])
    play(
        game,
        [
            quick(0, 7, 22),
            cards(1),
            VOID,
            quick(1, 0, 30),
            lambda s: record(3, s),
            lambda s: record(8, s),
        ],
    )
    game.undo(full=True)  # the deal records go (a correction before them may move the deal)
    game.undo(full=False)
    game.correct(2, quick(0, 2, 40), full=True)
    game.correct(1, VOID, full=False)
    game.correct(3, cards(0), full=True)
    game.repeated(game.add, quick(0, 0, 60))
    game.repeated(game.undo)
    game.repeated(game.correct, 2, VOID)
    while not game.sheet.over:
        game.add(quick(game.sheet.next_dealer, 0, 60), full=True)
    assert game.loaded().status is GameStatus.OVER
    game.undo(full=False)  # reopens the game
    assert game.sheet.status is GameStatus.ACTIVE and game.loaded().result is None


def test_hollywood(store, backend):
    game = Checked(
        store, backend, games.create_game(store, ["Ana", "Ben"], rules="hollywood", stake=1)[0]
    )
    play(
        game,
        [quick(0, 5, 30), quick(1, 0, 40), cards(0), VOID, lambda s: record(5, s, "hollywood")],
    )
    game.correct(1, cards(1), full=False)
    game.undo()
    game.repeated(game.add, quick(1, 2, 50))
    while not game.sheet.over:
        game.add(quick(game.answers % 2, 0, 70), full=game.answers % 3 == 0)
    sheet = game.loaded()
    assert sheet.result is not None and len(sheet.scored.columns) == 3
    game.correct(len(sheet.hands), VOID)


def three(sheet: GameSheet, kind: str) -> dict:
    """A hand for the next three-player hand: the first seat not dealing knocks."""
    knocker = next(p for p in range(3) if p != sheet.next_dealer)
    return (
        cards(knocker) if kind == "cards" else (VOID if kind == "void" else quick(knocker, 3, 30))
    )


def test_three_players(store, backend):
    game = Checked(store, backend, games.create_game(store, ["Ana", "Ben", "Cy"], stake=0.1)[0])
    play(
        game,
        [lambda s, k=kind: three(s, k) for kind in ("quick", "cards", "void", "quick", "cards")],
    )
    game.undo(full=False)
    game.correct(len(game.loaded().hands), VOID, full=True)  # the last: no deal moves
    game.repeated(game.add, three(game.sheet, "quick"))
    while not game.sheet.over:
        game.add(three(game.sheet, "cards"), full=game.answers % 2 == 0)
    assert game.loaded().result.settlement is not None


def deal(sheet: GameSheet, kinds: tuple[str, str]) -> dict:
    """The next four-player deal: each game a quick, cards or void hand, its first player
    knocking."""
    hands = []
    for seat, kind in zip(sheet.scored.next_games, kinds, strict=True):
        knocker = seat.players[0]
        hands.append(
            cards(knocker)
            if kind == "cards"
            else (VOID if kind == "void" else quick(knocker, 2, 25))
        )
    return {"kind": "deal", "games": hands}


@pytest.mark.parametrize("netting", ["per_deal", "per_game"])
def test_four_players(store, backend, netting):
    game = Checked(
        store,
        backend,
        games.create_game(
            store,
            ["Ana", "Ben", "Cy", "Dan"],
            rules={"partnership_netting": netting},
            dealer=1,
            stake=0.5,
        )[0],
    )
    play(
        game,
        [
            lambda s: deal(s, ("quick", "cards")),
            VOID,
            lambda s: deal(s, ("void", "quick")),
            lambda s: deal(s, ("cards", "cards")),
        ],
    )
    game.undo(full=True)
    game.correct(1, {"kind": "deal", "games": [VOID, VOID]}, full=False)
    game.repeated(game.undo)
    while not game.sheet.over:
        game.add(deal(game.sheet, ("cards", "quick")), full=game.answers % 2 == 1)
    assert game.loaded().scored.next_games


def test_created_and_imported_sheets(store, backend):
    sheet, _ = games.create_game(store, ["Ana", "Ben", "Cy"], idempotency_key="c", secret="s")
    Checked(store, backend, sheet)
    again, _ = games.create_game(store, ["Ana", "Ben", "Cy"], idempotency_key="c", secret="s")
    assert again == sheet
    source = Checked(store, backend, games.create_game(store, ["Ana", "Ben"])[0])
    play(source, [quick(0, 7, 22), cards(1), VOID, lambda s: record(4, s)])
    imported, _ = games.import_game(store, games.export_game(store, source.id).to_dict())
    Checked(store, backend, imported)
    assert json.dumps(imported.to_dict()["hands"]) != "[]"
    match, _ = games.import_game(store, simulate_match(2), idempotency_key="m", secret="s")
    Checked(store, backend, match)
    assert match.over and {hand.kind for hand in match.hands} == {HandKind.RECORD}
    again, _ = games.import_game(store, simulate_match(2), idempotency_key="m", secret="s")
    assert again == match


@settings(deadline=None, max_examples=examples(60), suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_stored_sheets_of_every_format_round_trip(data):
    """``X.from_dict(x.to_dict()) == x`` for stored sheets (whole and minimal) and hands
    around real sheets of every table format (their provenance drawn at random)."""
    _, _, scored = scored_game(data)
    hands = tuple(
        StoredHand(
            record=record,
            seq=record.n + data.draw(st.integers(0, 3)),
            kind=data.draw(st.sampled_from(list(HandKind))),
            input={"kind": "void"},
            detail=data.draw(st.sampled_from([None, {"outcome": "gin", "points": 25}])),
            corrected=data.draw(st.booleans()),
        )
        for record in scored.hands
    )
    game = {
        "id": "g",
        "created": "2026-11-30T17:00:00.000Z",
        "updated": "2026-11-30T18:00:00.000Z",
        "dealer": 0,
        "rules": Rules.from_dict(scored.rules),
        "version": len(hands),
        "scored": scored,
    }
    for sheet in (GameSheet.of(**game, hands=hands), GameSheet.of(**game, hands=None)):
        data_dict = sheet.to_dict()
        assert GameSheet.from_dict(data_dict) == sheet
        assert GameSheet.from_dict(json.loads(json.dumps(data_dict))) == sheet
        assert ("hands" in data_dict) is not sheet.minimal
        assert list(data_dict)[:6] == ["id", "created", "updated", "status", "version", "dealer"]
        assert sheet.status == ("over" if scored.over else "active")
    for hand in hands:
        assert StoredHand.from_dict(hand.to_dict()) == hand
        assert hand.totals == hand.record.totals and hand.seq >= hand.n
