"""Structured errors: kinds (invalid input vs illegal play), codes, params, and how they show.

Real calls into the domain, a real SQLite store, the real Flask app: each
error is provoked, not built by hand (except to check that restating leaves
the original alone).
"""

from __future__ import annotations

import ast
import html
import json
from pathlib import Path

import pytest
from test_pad import start, text, token

import scorekeeper as sk
from api import create_app
from api.pad import labels as pad_labels
from api.pad import terms
from scorekeeper import errors
from scorekeeper.errors import (
    CardError,
    Conflict,
    IllegalPlayError,
    IllegalRecordError,
    InvalidInputError,
    InvalidRecordError,
    InvalidValueError,
    RecordError,
    RuleError,
    RuleViolation,
    ScorekeeperError,
    Stale,
)
from scorekeeper.hands import evaluate_hand
from scorekeeper.rules import MAX_POINTS, Rules
from scorekeeper.store import games
from scorekeeper.store.refusals import NotFound, StorageError
from scorekeeper.store.sqlite import Storage

KNOCKER = "As 2s 3s 4c 5c 6c 7d 8d 9d 5h"  # deadwood 5 (the 5h)
DEFENDER = "Ac Ad Ah 2h 3h Jh Kh Qh Qs Kd"


def refusal(call, *args, **kwargs) -> ScorekeeperError:
    with pytest.raises(ScorekeeperError) as caught:
        call(*args, **kwargs)
    return caught.value


def invalid(error: ScorekeeperError) -> bool:
    """Notation: exactly an invalid input, never both kinds."""
    return (
        isinstance(error, InvalidInputError)
        and not isinstance(error, IllegalPlayError)
        and error.kind == "invalid"
    )


def illegal(error: ScorekeeperError) -> bool:
    return (
        isinstance(error, IllegalPlayError)
        and not isinstance(error, InvalidInputError)
        and error.kind == "illegal"
    )


@pytest.fixture
def store(tmp_path):
    storage = Storage(tmp_path / "errors.db")
    yield storage
    storage.close()


def deal_record(**changes) -> tuple[dict, int]:
    """A simulated deal whose first ``draw discard`` takes the upcard; and that step."""
    record = sk.simulate(11, dealer=0)
    return {**record, **changes}, record["actions"].index("draw discard")


# ----------------------------------------------------------------------------- notation


def test_card_notation_errors_carry_code_and_params():
    duplicate = refusal(sk.parse_cards, "Ts 3h Ts", field="knocker")
    assert isinstance(duplicate, CardError) and invalid(duplicate)
    assert (duplicate.code, duplicate.params, duplicate.field) == (
        "duplicate_card",
        {"card": "Ts", "position": 3, "first": 1},
        "knocker",
    )
    count = refusal(sk.parse_cards, "As 2s 3s", count=10, field="defender")
    assert (count.code, count.params) == ("wrong_card_count", {"expected": [10], "count": 3})
    unknown = refusal(sk.parse_cards, "As Zz", field="knocker")
    assert (unknown.code, unknown.params, unknown.field) == (
        "bad_card",
        {"token": "Zz", "position": 2},
        "knocker",
    )
    assert invalid(count) and invalid(unknown)


def test_rule_option_errors_are_invalid_values():
    unknown = refusal(Rules.from_dict, {"bonus": 3})
    assert isinstance(unknown, InvalidValueError) and isinstance(unknown, RuleError)
    assert invalid(unknown)
    assert (unknown.code, unknown.params, unknown.field) == (
        "unknown_option",
        {"option": "bonus"},
        "bonus",
    )
    value = refusal(Rules.from_dict, {"gin_bonus": -3})
    assert (value.code, value.field) == ("bad_option_value", "gin_bonus")
    assert value.params == {"option": "gin_bonus", "value": -3, "low": 0, "high": MAX_POINTS}
    assert value.option == "gin_bonus"  # the historical attribute still works


def test_record_notation_errors():
    not_json = refusal(sk.replay, "{nope")
    assert isinstance(not_json, InvalidRecordError) and invalid(not_json)
    assert not_json.code == "bad_json" and "detail" in not_json.params
    record, _ = deal_record(actions=["dance"])
    action = refusal(sk.replay, record)
    assert isinstance(action, RecordError) and invalid(action)
    assert (action.code, action.step, action.field) == ("bad_action", 0, "actions")
    assert action.params == {"action": "dance"}
    card = refusal(sk.replay, {**record, "actions": ["discard Zz"]})
    assert invalid(card) and card.code == "bad_card" and card.params["token"] == "Zz"


# ----------------------------------------------------------------------------- illegal plays


def test_illegal_knocks_carry_the_numbers():
    over = refusal(sk.verify_knock, KNOCKER, DEFENDER, rules={"knock_limit": 4})
    assert isinstance(over, RuleViolation) and isinstance(over, RuleError) and illegal(over)
    assert (over.code, over.params, over.field) == (
        "knock_over_limit",
        {"deadwood": 5, "limit": 4},
        "knocker",
    )
    oklahoma = refusal(
        sk.verify_knock, KNOCKER, DEFENDER.replace("Kd", "Kc"), rules="oklahoma", upcard="4h"
    )
    assert oklahoma.params == {"deadwood": 5, "limit": 4, "upcard": "4h"}
    layoff = refusal(
        sk.verify_knock, KNOCKER, DEFENDER, layoffs=[{"card": "Kd", "meld": "7d 8d 9d"}]
    )
    assert illegal(layoff) and (layoff.code, layoff.field) == ("layoff_does_not_fit", "layoffs")
    assert layoff.params == {"cards": ["Kd"], "meld": ["7d", "8d", "9d"]}
    meld = refusal(sk.verify_knock, KNOCKER, DEFENDER, knocker_melds=["As 2s 4c"])
    assert illegal(meld) and meld.code == "not_a_meld"
    assert meld.params == {"cards": ["As", "2s", "4c"], "meld": 0}


def test_an_illegal_step_stays_illegal_in_the_record():
    record, taken = deal_record()
    bad = {**record, "actions": [*record["actions"][: taken + 1], "discard " + record["upcard"]]}
    error = refusal(sk.replay, bad)
    assert isinstance(error, IllegalRecordError) and illegal(error)
    assert (error.code, error.step, error.field) == ("card_just_taken", taken + 1, "actions")
    assert error.params["card"] == record["upcard"]
    assert error.params["action"] == "discard"
    # the engine's own error is the cause, untouched
    assert isinstance(error.__cause__, RuleViolation)
    assert str(error.__cause__).startswith("cannot discard")


def test_game_conflicts_are_domain_errors_not_storage_refusals(store):
    sheet, _ = games.create_game(store, ["Ana", "Ben"], {"target": 20})
    game_id = sheet.id
    empty = refusal(games.undo_last, store, game_id)
    assert isinstance(empty, Conflict) and illegal(empty) and empty.code == "nothing_to_undo"
    games.add_hand(
        store,
        game_id,
        {"kind": "quick", "knocker": 0, "knocker_deadwood": 0, "defender_deadwood": 30},
    )
    over = refusal(
        games.add_hand,
        store,
        game_id,
        {"kind": "quick", "knocker": 0, "knocker_deadwood": 0, "defender_deadwood": 30},
    )
    assert (over.code, over.params) == ("game_over", {"after": 1})
    stale = refusal(games.undo_last, store, game_id, expected_version=0)
    assert isinstance(stale, Stale) and isinstance(stale, Conflict)
    assert (stale.code, stale.params) == ("stale", {"expected": 0, "version": 1})
    for error in (empty, over, stale):
        assert not isinstance(error, StorageError)
    with pytest.raises(NotFound) as missing:
        games.load_sheet(store, "nope")
    assert not isinstance(missing.value, ScorekeeperError)
    assert missing.value.code == "not_found"
    assert len(store.log(game_id)) == 1


def test_every_concrete_error_class_is_one_kind_and_the_domain_raises_only_those():
    concrete = [
        CardError,
        InvalidValueError,
        RuleViolation,
        InvalidRecordError,
        IllegalRecordError,
        Conflict,
        Stale,
    ]
    for cls in concrete:
        assert issubclass(cls, InvalidInputError) != issubclass(cls, IllegalPlayError), cls
        assert issubclass(cls, ValueError)
    kinds = {
        cls
        for cls in vars(errors).values()
        if isinstance(cls, type) and issubclass(cls, ScorekeeperError)
    }
    assert kinds - set(concrete) == {
        ScorekeeperError,
        InvalidInputError,
        IllegalPlayError,
        RuleError,
        RecordError,
    }
    # no raise site in the domain builds one of the kind-less classes
    grouping = {
        "ScorekeeperError",
        "InvalidInputError",
        "IllegalPlayError",
        "RuleError",
        "RecordError",
    }
    root = Path(sk.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            exc = node.exc if isinstance(node, ast.Raise) else None
            if (
                isinstance(exc, ast.Call)
                and isinstance(exc.func, ast.Name)
                and exc.func.id in grouping
            ):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []


# ----------------------------------------------------------------------------- no mutation


def test_restating_leaves_the_original_alone():
    original = refusal(sk.parse_cards, "As As", field="knocker")
    before = (original.args, original.field, dict(original.params), original.code)
    placed = original.restate("hand 2: " + str(original), field="hands.1.knocker")
    assert placed is not original and type(placed) is type(original)
    assert (original.args, original.field, original.params, original.code) == before
    assert (placed.field, placed.code, placed.params) == (
        "hands.1.knocker",
        original.code,
        original.params,
    )
    assert placed.params is not original.params


def test_caught_errors_are_raised_from_not_rewritten(store):
    # parse_cards places parse_card's error on the field
    bad = refusal(sk.parse_cards, "As Zz", field="knocker")
    assert str(bad).startswith("knocker: unknown card") and bad.field == "knocker"
    assert str(bad.__cause__).startswith("unknown card") and bad.__cause__.field is None
    # a deal record in a game: the replay's error is placed under record.
    record, taken = deal_record()
    record.pop("rules"), record.pop("players")
    hand = {
        "kind": "record",
        "record": {
            **record,
            "actions": [*record["actions"][: taken + 1], "discard " + record["upcard"]],
        },
    }
    scored = refusal(evaluate_hand, hand)
    assert scored.field == "record.actions" and str(scored).startswith("record: step")
    assert scored.__cause__.field == "actions" and str(scored.__cause__).startswith("step")
    assert scored.code == scored.__cause__.code == "card_just_taken"
    # an imported game: each hand's error is placed under hands.<i>.
    imported = refusal(
        games.import_game,
        store,
        {
            "players": ["Ana", "Ben"],
            "hands": [
                {"kind": "quick", "knocker": 0, "knocker_deadwood": 5, "defender_deadwood": 9},
                {
                    "kind": "cards",
                    "knocker": 1,
                    "knocker_cards": "As As",
                    "defender_cards": DEFENDER,
                },
            ],
        },
    )
    assert imported.field == "hands.1.knocker" and str(imported).startswith("hand 2: knocker:")
    cause = imported.__cause__
    assert cause.field == "knocker" and str(cause).startswith("knocker: duplicate")
    assert imported.code == cause.code == "duplicate_card" and invalid(imported)
    with pytest.raises(NotFound):  # nothing was stored
        store.player("Ana")


# ----------------------------------------------------------------------------- how they show


def test_the_pad_words_errors_from_codes():
    option = refusal(Rules.from_dict, {"knock_limit": 11})
    assert pad_labels.worded(option) == "Knock limit must be a whole number from 0 to 10."
    layoff = refusal(
        sk.verify_knock, KNOCKER, DEFENDER, layoffs=[{"card": "Kd", "meld": "7d 8d 9d"}]
    )
    assert pad_labels.worded(layoff) == "K♦ cannot be laid off on 7♦ 8♦ 9♦."
    count = refusal(sk.parse_cards, "As 2s 3s", count=(10, 11), field="knocker")
    assert pad_labels.worded(count) == "Tap 10 cards (11 for big gin); 3 tapped so far."
    record, taken = deal_record()
    bad = {**record, "actions": [*record["actions"][: taken + 1], "discard " + record["upcard"]]}
    upcard = terms.card_info(record["upcard"])["label"]
    assert pad_labels.worded(refusal(sk.replay, bad)).startswith(
        f"{upcard} was just taken from the discard pile"
    )
    # the words come from the code: the same code and params word the same whatever the text
    assert (
        pad_labels.worded(
            RuleViolation(
                "anything at all", code="knock_over_limit", params={"deadwood": 12, "limit": 10}
            )
        )
        == "These cards leave 12 deadwood; a knock needs 10 or less."
    )


def test_pad_pages_show_worded_conflicts_and_record_errors(client):
    game = start(client, target="25")
    data = {
        "csrf_token": token(client, game),
        "mode": "quick",
        "knocker": "0",
        "kind": "gin",
        "knocker_deadwood": "0",
        "defender_deadwood": "30",
    }
    assert client.post(game + "/hand", data=data).status_code == 303
    refused = client.post(game + "/hand", data={**data, "csrf_token": token(client, game)})
    assert refused.status_code == 409
    assert "The game is over after hand 1; no more hands can be entered." in text(refused)
    other = start(client)
    record, _ = deal_record(players=["Zed", "Yan"])
    record.pop("rules")
    response = client.post(
        other + "/hand",
        data={"csrf_token": token(client, other), "mode": "record", "record": json.dumps(record)},
    )
    assert response.status_code == 422
    page = html.unescape(text(response))
    assert "The record's players must be this game's players (Ana and Bor), or be left out." in page
    assert "Record.players" not in page and "record.players" not in page


def test_api_error_bodies_keep_their_code_and_add_reason_and_params(tmp_path):
    api = create_app({"DB": str(tmp_path / "api.db"), "TESTING": True}).test_client()
    dup = api.post("/api/v1/verify", json={"knocker": "As As 3s", "defender": DEFENDER})
    assert dup.status_code == 422
    assert dup.json["error"]["code"] == "bad_card" and dup.json["error"]["field"] == "knocker"
    assert dup.json["error"]["reason"] == "duplicate_card"
    assert dup.json["error"]["params"] == {"card": "As", "position": 2, "first": 1}
    over = api.post(
        "/api/v1/verify",
        json={"knocker": KNOCKER, "defender": DEFENDER, "rules": {"knock_limit": 4}},
    ).json["error"]
    assert (over["code"], over["reason"], over["params"]) == (
        "rule",
        "knock_over_limit",
        {"deadwood": 5, "limit": 4},
    )
    created = api.post("/api/v1/games", json={"dealer": 0, "players": ["Ana", "Ben"]}).json
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    undo = api.delete(f"/api/v1/games/{created['id']}/hands/last", headers=auth)
    assert undo.status_code == 409
    assert undo.json["error"]["code"] == undo.json["error"]["reason"] == "nothing_to_undo"
    missing = api.get("/api/v1/games/nope").json["error"]
    assert missing["code"] == "not_found" and "reason" not in missing
