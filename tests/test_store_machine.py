"""A stored game driven by hypothesis's state machine against a plain model (RULES.md 6-8).

The machine plays random sequences of writes on one game in a real SQLite
file (:class:`~scorekeeper.store.sqlite.Storage` in a temporary directory)
through the services of :mod:`scorekeeper.store.games`: quick hands (a
knocker and two deadwood counts valid for the rules), void hands, bad hands,
undos, corrections (in and out of range), replays of a request with its
Idempotency-Key, a key reused for another request, and stale writes (an
``expected_version`` other than the current one). Next to it runs a model
written from the rule book alone: a list of hands, each scored from its
deadwood counts, and a game (or three Hollywood columns) scored from that
list. After every step the stored sheet must match the model (totals,
boxes, dealers, each hand, status, the result with its bonuses and
settlement), the version must be the number of log entries, and the log
must have kept every earlier entry and grown by exactly one entry for an
accepted write and by none for a refused or replayed one, which must also
leave the game's row (status, updated) as it was. Refused writes
must raise the refusal the services document (``game_over``,
``nothing_to_undo``, :class:`NotFound`, :class:`KeyReused`, :class:`Stale`,
:class:`RuleError` naming the field).

The model's rule numbers are RULES.md section 9's table, written out here.
The code's ``oklahoma`` preset does not follow that column yet (see
:func:`test_oklahoma_preset_is_the_rule_books`), so the Oklahoma game is
created with the column's options spelled out.
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
from pathlib import Path

import pytest
from conftest import examples
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    invariant,
    multiple,
    rule,
)

from scorekeeper.errors import Conflict, RuleError, Stale
from scorekeeper.gamesheet import GameSheet
from scorekeeper.rules import Rules
from scorekeeper.sheet import Payment
from scorekeeper.store.games import add_hand, correct_hand, create_game, load_sheet, undo_last
from scorekeeper.store.refusals import KeyReused, NotFound
from scorekeeper.store.sqlite import Storage

CODES = [r + s for s in "cdhs" for r in "A23456789TJQK"]

# RULES.md section 9, the options the scoring of quick hands depends on.
STANDARD = {
    "knock_limit": 10,
    "oklahoma": False,
    "spade_doubles": False,
    "gin_bonus": 25,
    "big_gin_bonus": None,
    "undercut_bonus": 25,
    "box_bonus": 25,
    "game_bonus": 100,
    "shutout": "double_bonus",
    "target": 100,
    "next_dealer": "winner",
    "scoring": "single",
}
TABLE = {
    "standard": STANDARD,
    "modern": STANDARD | {"big_gin_bonus": 31, "shutout": "double_total"},
    "oklahoma": STANDARD
    | {
        "oklahoma": True,
        "spade_doubles": True,
        "undercut_bonus": 20,
        "target": 150,
        "next_dealer": "alternate",
    },
    "hollywood": STANDARD | {"scoring": "hollywood"},
}
GAMES = {
    "standard": ("standard", {}),
    "modern": ("modern", {}),
    "oklahoma": ("oklahoma", {}),
    "hollywood": ("hollywood", {"target": 50}),
}
"""Each machine's game: a preset and the options set on top of it. The Oklahoma
column is spelled out (see the module docs); the Hollywood game plays to 50 so
that its three columns can all close within the steps of one example."""

VOID = {"kind": "void"}


# --------------------------------------------------------------------------- the model


def card_value(code: str) -> int:
    return min("A23456789TJQK".index(code[0]) + 1, 10)


def knock_limit(rules: dict, upcard: str | None) -> int:
    """RULES.md 8: under Oklahoma the upcard's value (an ace: gin only), else the option."""
    if not rules["oklahoma"]:
        return rules["knock_limit"]
    return 0 if upcard[0] == "A" else min(card_value(upcard), rules["knock_limit"])


def score_hand(rules: dict, hand: dict) -> dict:
    """A hand input scored by RULES.md 6: ``{"void", "winner", "outcome", "points"}``."""
    if hand["kind"] == "void":
        return {"void": True, "winner": None, "outcome": None, "points": 0}
    knocker, k, d = hand["knocker"], hand["knocker_deadwood"], hand["defender_deadwood"]
    upcard = hand.get("upcard")
    double = 2 if rules["spade_doubles"] and upcard[1] == "s" else 1
    if hand.get("big_gin"):
        winner, outcome, points = knocker, "big_gin", rules["big_gin_bonus"] + d
    elif k == 0:
        winner, outcome, points = knocker, "gin", rules["gin_bonus"] + d
    elif k < d:
        winner, outcome, points = knocker, "knock", d - k
    else:
        winner, outcome, points = 1 - knocker, "undercut", k - d + rules["undercut_bonus"]
    return {"void": False, "winner": winner, "outcome": outcome, "points": points * double}


def close_column(rules: dict, column: dict, winner: int) -> None:
    """RULES.md 7: game, box and shutout bonuses of a game ``winner`` has just won."""
    loser = 1 - winner
    shutout = column["boxes"][loser] == 0
    game_bonus = rules["game_bonus"] * (2 if shutout and rules["shutout"] == "double_bonus" else 1)
    final = [
        t + rules["box_bonus"] * b for t, b in zip(column["totals"], column["boxes"], strict=True)
    ]
    final[winner] += game_bonus
    if shutout and rules["shutout"] == "double_total":
        final[winner] *= 2
    column.update(over=True, winner=winner, shutout=shutout, game_bonus=game_bonus, final=final)


def model_sheet(rules: dict, dealer: int, hands: list[dict]) -> dict:
    """The game a list of scored hands makes (RULES.md 7, Hollywood 8).

    A single game is one column both players have opened; Hollywood has three
    that each player opens one by one with wins. ``ended`` is the hand after
    which the game (every column) was over, ``None`` while it goes on.
    """
    hollywood = rules["scoring"] == "hollywood"
    columns = [
        {"totals": [0, 0], "boxes": [0, 0], "opened": [not hollywood] * 2, "over": False}
        for _ in range(3 if hollywood else 1)
    ]
    won = [0, 0]
    rows, ended = [], None
    for n, hand in enumerate(hands, 1):
        row = {"n": n, "dealer": dealer}
        if not hand["void"]:
            winner = hand["winner"]
            won[winner] += 1
            fresh = next((c for c in columns if not c["over"] and not c["opened"][winner]), None)
            if fresh is not None:
                fresh["opened"][winner] = True
            for column in columns:
                if not column["over"] and column["opened"][winner]:
                    column["totals"][winner] += hand["points"]
                    column["boxes"][winner] += 1
                    if column["totals"][winner] >= rules["target"]:
                        close_column(rules, column, winner)
            dealer = {"winner": winner, "loser": 1 - winner, "alternate": 1 - dealer}[
                rules["next_dealer"]
            ]
        row["totals"] = [sum(c["totals"][p] for c in columns) for p in (0, 1)]
        row["over"] = all(c["over"] for c in columns)
        rows.append(row)
        if row["over"] and ended is None:
            ended = n
    return {
        "rows": rows,
        "columns": columns,
        "boxes": won,
        "next_dealer": dealer,
        "over": all(c["over"] for c in columns),
        "ended": ended,
        "totals": [sum(c["totals"][p] for c in columns) for p in (0, 1)],
    }


# --------------------------------------------------------------------------- inputs


@st.composite
def quick_hands(draw, rules: dict, legal: bool = True, least: int = 0) -> dict:
    """A quick hand valid for ``rules`` or, with ``legal`` False, over the knock limit.

    ``least`` is the defender's least deadwood (a high one makes a big hand).
    """
    upcard = draw(st.sampled_from(CODES)) if rules["oklahoma"] else None
    limit = knock_limit(rules, upcard)
    big = legal and rules["big_gin_bonus"] is not None and draw(st.booleans())
    if big:
        k = 0
    elif legal:
        k = draw(st.integers(0, limit))
    else:
        k = draw(st.integers(limit + 1, limit + 5))
    hand = {
        "kind": "quick",
        "knocker": draw(st.integers(0, 1)),
        "knocker_deadwood": k,
        "defender_deadwood": draw(st.integers(least, 98)),
    }
    if upcard is not None:
        hand["upcard"] = upcard
    if big:
        hand["big_gin"] = True
    return hand


def machine_for(name: str) -> type[RuleBasedStateMachine]:
    """The state machine of the game ``name`` of :data:`GAMES`."""
    preset, overrides = GAMES[name]
    rules = TABLE[preset] | overrides
    hands = quick_hands(rules) | st.just(VOID)

    class StoredGame(RuleBasedStateMachine):
        requests = Bundle("requests")

        def __init__(self):
            super().__init__()
            self.folder = tempfile.mkdtemp(prefix="store-machine-")
            self.store = Storage(Path(self.folder) / "games.db")
            self.keys = itertools.count(1)
            self.hands: list[dict] = []  # the model: scored hands with their log seq
            self.version = 0
            self.log: list[dict] = []
            self.game: dict = {}  # the stored game row (status, updated) after the last step

        def teardown(self):
            self.store.close()
            shutil.rmtree(self.folder, ignore_errors=True)

        # ------------------------------------------------------------ helpers

        def model(self, hands=None) -> dict:
            return model_sheet(rules, self.dealer, self.hands if hands is None else hands)

        def options(self, key: bool, pin: bool) -> dict:
            """Write options: a fresh Idempotency-Key and/or the current version."""
            return {
                "idempotency_key": f"key-{next(self.keys)}" if key else None,
                "expected_version": self.version if pin else None,
            }

        def write(self, op: str, payload, options: dict):
            """One service call: ``add`` (payload a hand), ``undo``, ``correct`` ((n, hand))."""
            if op == "add":
                return add_hand(self.store, self.gid, payload, **options)
            if op == "undo":
                return undo_last(self.store, self.gid, **options)
            return correct_hand(self.store, self.gid, *payload, **options)

        def accepted(self, op, payload, options, result) -> object:
            """After a created entry: the request for the replay bundle (if it had a key)."""
            record, sheet, created = result
            assert created is True
            self.version += 1
            self.check_sheet(sheet)
            if options["idempotency_key"] is None:
                return multiple()
            return (op, payload, options, record, sheet)

        def scored(self, hand: dict, seq: int, corrected: bool) -> dict:
            return {
                **score_hand(rules, hand),
                "seq": seq,
                "kind": hand["kind"],
                "input": hand,
                "corrected": corrected,
            }

        def expected_record(self, n: int, model: dict | None = None) -> dict:
            model = model or self.model()
            hand, row = self.hands[n - 1], model["rows"][n - 1]
            return {
                "n": n,
                "dealer": row["dealer"],
                "totals": row["totals"],
                "game_over_after": row["over"],
                "void": hand["void"],
                "winner": hand["winner"],
                "loser": None if hand["void"] else 1 - hand["winner"],
                "outcome": hand["outcome"],
                "points": hand["points"],
                "seq": hand["seq"],
                "kind": hand["kind"],
                "input": hand["input"],
                "corrected": hand["corrected"],
            }

        def check_record(self, record, n: int, model: dict | None = None) -> None:
            expected = self.expected_record(n, model)
            data = record.to_dict()  # the record as JSON, against the model's
            assert {k: data[k] for k in expected} == expected

        def check_sheet(self, sheet) -> None:
            model = self.model()
            assert sheet.version == self.version
            assert sheet.status == ("over" if model["over"] else "active")
            assert sheet.over is model["over"]
            assert list(sheet.totals) == model["totals"]
            assert list(sheet.boxes) == model["boxes"]
            assert sheet.next_dealer == model["next_dealer"]
            assert sheet.dealer == self.dealer
            assert len(sheet.hands) == len(self.hands)
            for n, record in enumerate(sheet.hands, 1):
                self.check_record(record, n, model)
            if rules["scoring"] == "hollywood":
                self.check_columns(sheet, model)
            else:
                self.check_result(sheet.result, model["columns"][0])

        def check_result(self, result, column: dict) -> None:
            if not column["over"]:
                assert result is None
                return
            winner, final = column["winner"], column["final"]
            net = final[winner] - final[1 - winner]
            data = result.to_dict()  # the result as JSON, against the model's
            assert {
                k: data[k]
                for k in (
                    "winner",
                    "loser",
                    "totals",
                    "game_bonus",
                    "box_bonus",
                    "shutout",
                    "final",
                    "net",
                )
            } == {
                "winner": winner,
                "loser": 1 - winner,
                "totals": column["totals"],
                "game_bonus": column["game_bonus"],
                "box_bonus": [rules["box_bonus"] * b for b in column["boxes"]],
                "shutout": column["shutout"],
                "final": final,
                "net": net,
            }
            if self.stake is None:
                assert result.settlement is None
            else:  # the stake is 5 cents: the amount is exact
                payer, payee = (1 - winner, winner) if net >= 0 else (winner, 1 - winner)
                assert result.settlement == Payment(
                    payer=payer, payee=payee, amount=abs(net) * 5 / 100
                )

        def check_columns(self, sheet: GameSheet, model: dict) -> None:
            for column, expected in zip(sheet.scored.columns, model["columns"], strict=True):
                assert list(column.totals) == expected["totals"]
                assert list(column.boxes) == expected["boxes"]
                assert list(column.opened) == expected["opened"]
                assert column.over is expected["over"]
                if expected["over"]:
                    assert column.result.winner == expected["winner"]
                    assert list(column.result.final) == expected["final"]
                    assert column.result.shutout == expected["shutout"]
            if not model["over"]:
                assert sheet.result is None
                return
            final = [sum(c["final"][p] for c in model["columns"]) for p in (0, 1)]
            winner = None if final[0] == final[1] else int(final[1] > final[0])
            assert list(sheet.result.final) == final
            assert sheet.result.winner == winner
            assert sheet.result.net == abs(final[0] - final[1])

        # ------------------------------------------------------------ steps

        @initialize(dealer=st.integers(0, 1), stake=st.sampled_from([None, 0.05]))
        def create(self, dealer, stake):
            self.dealer, self.stake = dealer, stake
            sheet, token = create_game(
                self.store,
                [" Ana ", "Ben"],
                rules={"preset": preset, **overrides},
                dealer=dealer,
                stake=stake,
            )
            self.gid = sheet.id
            self.game = self.store.game(self.gid)
            assert token and sheet.players == ("Ana", "Ben")
            assert {k: sheet.scored.rules[k] for k in rules} == rules
            self.check_sheet(sheet)

        def add(self, hand: dict, key: bool, pin: bool):
            options = self.options(key, pin)
            if self.model()["over"]:
                with pytest.raises(Conflict) as refused:
                    add_hand(self.store, self.gid, hand, **options)
                assert refused.value.code == "game_over"
                event("a hand after the end of the game refused")
                return multiple()
            result = add_hand(self.store, self.gid, hand, **options)
            self.hands.append(self.scored(hand, self.version + 1, False))
            self.check_record(result[0], len(self.hands))
            return self.accepted("add", hand, options, result)

        @rule(target=requests, hand=quick_hands(rules), key=st.booleans(), pin=st.booleans())
        def add_quick(self, hand, key, pin):
            return self.add(hand, key, pin)

        @rule(
            target=requests, hand=quick_hands(rules, least=40), key=st.booleans(), pin=st.booleans()
        )
        def add_big_hand(self, hand, key, pin):
            """A hand worth many points, so that games end within the steps."""
            return self.add(hand, key, pin)

        @rule(target=requests, key=st.booleans(), pin=st.booleans())
        def add_void(self, key, pin):
            return self.add(dict(VOID), key, pin)

        @rule(hand=quick_hands(rules, legal=False))
        def add_over_the_knock_limit(self, hand):
            with pytest.raises((RuleError, Conflict)) as refused:
                add_hand(self.store, self.gid, hand)
            if self.model()["over"]:
                assert isinstance(refused.value, Conflict) and refused.value.code == "game_over"
            else:
                assert isinstance(refused.value, RuleError)
                assert refused.value.field == "knocker_deadwood"

        @rule(target=requests, key=st.booleans(), pin=st.booleans())
        def undo(self, key, pin):
            options = self.options(key, pin)
            if not self.hands:
                with pytest.raises(Conflict) as refused:
                    undo_last(self.store, self.gid, **options)
                assert refused.value.code == "nothing_to_undo"
                return multiple()
            result = undo_last(self.store, self.gid, **options)
            self.check_record(result[0], len(self.hands))
            self.hands.pop()
            return self.accepted("undo", {}, options, result)

        @rule(target=requests, data=st.data(), hand=hands, key=st.booleans(), pin=st.booleans())
        def correct(self, data, hand, key, pin):
            n = data.draw(st.integers(0, len(self.hands) + 1), label="n")
            options = self.options(key, pin)
            if not 1 <= n <= len(self.hands):
                with pytest.raises(NotFound):
                    correct_hand(self.store, self.gid, n, hand, **options)
                return multiple()
            changed = list(self.hands)
            changed[n - 1] = self.scored(hand, self.version + 1, True)
            ended = self.model(changed)["ended"]
            if ended is not None and ended < len(changed):
                with pytest.raises(Conflict) as refused:
                    correct_hand(self.store, self.gid, n, hand, **options)
                assert refused.value.code == "game_over"
                event("a correction ending the game early refused")
                return multiple()
            result = correct_hand(self.store, self.gid, n, hand, **options)
            self.hands = changed
            self.check_record(result[0], n)
            return self.accepted("correct", (n, hand), options, result)

        @rule(request=requests)
        def replay(self, request):
            """The same request with the same key: its first answer exactly (as Stripe's API
            answers a repeat: the hand and the sheet as they were then), nothing written."""
            op, payload, options, first_record, first_sheet = request
            record, sheet, created = self.write(op, payload, options)
            assert created is False
            event(f"replay of {op}")
            assert (record, sheet) == (first_record, first_sheet)
            self.check_sheet(load_sheet(self.store, self.gid))  # and the game as it is

        @rule(request=requests)
        def reuse_key(self, request):
            """The key of a stored request sent with another request is refused."""
            _, payload, options, *_ = request
            other = ("undo", {}) if payload == VOID else ("add", VOID)
            with pytest.raises(KeyReused):
                self.write(*other, {"idempotency_key": options["idempotency_key"]})

        @rule(data=st.data(), hand=hands, key=st.booleans())
        def stale_write(self, data, hand, key):
            """A write based on another version (mostly an older one) is refused, whatever it is."""
            behind = data.draw(
                st.integers(0, self.version + 2).filter(lambda v: v != self.version),
                label="expected_version",
            )
            op = data.draw(st.sampled_from(["add", "undo", "correct"]), label="op")
            payload = (1, hand) if op == "correct" else hand
            options = self.options(key, False) | {"expected_version": behind}
            with pytest.raises(Stale) as refused:
                self.write(op, payload, options)
            assert (refused.value.expected, refused.value.version) == (behind, self.version)
            assert refused.value.code == "stale"

        @invariant()
        def stored_game_matches_the_model(self):
            log = self.store.log(self.gid)
            assert len(log) == self.version
            assert len(log) - len(self.log) in (0, 1)  # one step, at most one entry
            assert log[: len(self.log)] == self.log  # earlier entries untouched
            game = self.store.game(self.gid)
            if len(log) == len(self.log):  # a refused or replayed step touched nothing
                assert game == self.game
            self.log, self.game = log, game
            self.check_sheet(load_sheet(self.store, self.gid))
            event(f"game over: {self.model()['over']}")
            assert game.status == ("over" if self.model()["over"] else "active")

    StoredGame.__name__ = f"StoredGame_{name}"
    StoredGame.TestCase.settings = settings(
        max_examples=examples(15),
        stateful_step_count=35,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    return StoredGame


TestStandardGame = machine_for("standard").TestCase
TestModernGame = machine_for("modern").TestCase
TestOklahomaGame = machine_for("oklahoma").TestCase
TestHollywoodGame = machine_for("hollywood").TestCase


def test_oklahoma_preset_is_the_rule_books():
    preset = Rules.preset("oklahoma").to_dict()
    assert {k: preset[k] for k in TABLE["oklahoma"]} == TABLE["oklahoma"]


@pytest.mark.parametrize("name", ["standard", "modern", "hollywood"])
def test_other_presets_are_the_rule_books(name):
    preset = Rules.preset(name).to_dict()
    assert {k: preset[k] for k in TABLE[name]} == TABLE[name]
