"""Typed results (issue 9): frozen dataclasses whose to_dict() is the JSON the API serves.

Every result kind is built from real inputs (verified knocks, simulated deals
and matches, sheets of each table format, stored-hand evaluations) and checked
to round-trip through ``to_dict()``/``from_dict()`` and JSON, to refuse
assignment, and (through the Flask test client on a real SQLite file) to be
exactly what the API returns, key order included.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from conftest import examples
from engine_kit import make_record
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sheet_kit import scored_game

from api import create_app
from scorekeeper import replay, simulate, verify_knock
from scorekeeper.actions import Phase, Verb
from scorekeeper.analysis import DealAnalysis, MatchAnalysis, analyse
from scorekeeper.analysis_decisions import BigGinDecision, DiscardDecision, DrawDecision
from scorekeeper.arrangements import meld_report
from scorekeeper.bots import simulate_deal, simulate_match
from scorekeeper.deal_result import DealResult
from scorekeeper.engine import Deal
from scorekeeper.hands import DeadwoodResult, HandEvaluation, evaluate_hand, score_deadwood
from scorekeeper.knock import KnockResult
from scorekeeper.melds import DiscardReport, MeldReport
from scorekeeper.records import ReplayedDeal, ReplayedMatch
from scorekeeper.results import Outcome, Result, Side, from_plain
from scorekeeper.sheet import (
    AnyHandRecord,
    AnySheet,
    Entry,
    HollywoodSheet,
    PartnershipSheet,
    Sheet,
    ThreePlayerHandRecord,
    score_sheet,
)

KNOCKER = "As 2s 3s 7c 7d 7h 9d Td Jd 2c"
DEFENDER = "4s 5s 6s 8c 8d 8h Kd Qd Jh Th"
GIN = ("As 2s 3s 4c 5c 6c 7d 8d 9d Td", "Ac Ad Ah 2h 3h 4h 5h 6h 7h 8h")


def win(winner, points, outcome="knock", loser=None):
    entry = {"winner": winner, "points": points, "outcome": outcome}
    if loser is not None:
        entry["loser"] = loser
    return entry


def results() -> list[Result]:
    """One of every kind of typed result, from real play."""
    found: list[Result] = [
        verify_knock(KNOCKER, DEFENDER),
        verify_knock(*GIN),
        verify_knock(
            KNOCKER,
            DEFENDER,
            rules="oklahoma",
            upcard="5s",
            defender_melds=[["8c", "8d", "8h"]],
            layoffs=[],
        ),
        score_deadwood(3, 12),
        score_deadwood(0, 30, rules="modern", big_gin=True),
        simulate_deal(4)[1],
        replay(simulate(5)),
        replay(simulate_match(2)),
        replay(simulate_match(4, rules="hollywood")),
        score_sheet([win(0, 60), win(1, 30, "gin"), win(0, 45)], players=["A", "B"], stake=0.1),
        score_sheet(
            [
                win(0, 10),
                win(0, 20),
                win(0, 30),
                win(0, 40),
                win(1, 30, "gin"),
                win(1, 20),
                win(0, 10),
                win(1, 90, "undercut"),
            ],
            players=["A", "B"],
            rules="hollywood",
            stake=1,
        ),
        score_sheet(
            [win(1, 30, loser=2), win(0, 80, "gin", loser=1)], players=["A", "B", "C"], stake=0.5
        ),
        score_sheet(
            [
                {"games": [win(0, 40), win(2, 30)]},
                {"void": True},
                {"games": [win(1, 10), win(2, 60, "gin")]},
            ],
            players=["A", "B", "C", "D"],
            stake=0.5,
        ),
        evaluate_hand({"kind": "void"}),
        evaluate_hand(
            {"kind": "quick", "knocker": 1, "knocker_deadwood": 4, "defender_deadwood": 30}
        ),
        evaluate_hand(
            {"kind": "cards", "knocker": 0, "knocker_cards": KNOCKER, "defender_cards": DEFENDER}
        ),
    ]
    record = simulate(9, dealer=0)
    found.append(evaluate_hand({"kind": "record", "record": record}, players=record["players"]))
    # a void deal: nobody takes anything, everyone discards what they drew
    deal = Deal.shuffled(3, dealer=0)
    while not deal.over:
        legal = deal.legal_actions()
        deal.apply(
            next((a for a in legal if a in ("pass", "draw stock")), None)
            or next(a for a in legal if a.startswith("discard"))
        )
    found.append(deal.result)
    found += [meld_report(KNOCKER), meld_report(f"{KNOCKER} Kc")]
    found += [analyse(simulate(7, players=("random", "greedy"))), analyse(simulate_match(2))]
    # a missed gin and a missed knock (tests/test_analysis.py), and a big gin
    ben = "5c 8c Jc 3d 6d Jd 2h 4h 8h Qh"
    found.append(
        analyse(
            make_record(
                ("As 2s 3s 7c 7d 7h 9d 9h 9c Kc", ben), "4s", actions=["draw discard", "knock As"]
            )
        )
    )
    found.append(
        analyse(
            make_record(
                ("As 2s 3s 7c 7d 7h 9d 9h 9c 5c", "Ac 2c 3c 4d 5d 6d Jh Qh 2h 8s"),
                "Kd",
                "Kh",
                actions=["pass", "pass", "draw stock", "discard Kh", "draw discard", "knock 8s"],
            )
        )
    )
    found.append(
        analyse(
            make_record(
                ("As 2s 3s 4s 5s 6s 7s 8s 9s Ts", "Ac 2c 3c 4d 5d 6d Jh Qh 2h 8c"),
                "Js",
                actions=["draw discard", "big gin"],
                rules="modern",
            )
        )
    )
    return found


RESULTS = results()


def test_every_kind_of_result_is_covered():
    kinds = {type(r) for r in RESULTS}
    assert {
        KnockResult,
        DeadwoodResult,
        DealResult,
        ReplayedDeal,
        ReplayedMatch,
        Sheet,
        HollywoodSheet,
        PartnershipSheet,
        HandEvaluation,
        MeldReport,
        DiscardReport,
        DealAnalysis,
        MatchAnalysis,
    } <= kinds
    decisions = [d for r in RESULTS if isinstance(r, DealAnalysis) for d in r.decisions]
    assert {DrawDecision, BigGinDecision, DiscardDecision} <= {type(d) for d in decisions}
    discards = [d for d in decisions if isinstance(d, DiscardDecision)]
    assert any(d.gin_available for d in discards)
    assert any(d.knock_available is not None for d in discards)
    assert any(d.knock_available is None and not d.gin_available for d in discards)
    assert any(isinstance(r, DealResult) and r.void for r in RESULTS)
    three = next(r for r in RESULTS if isinstance(r, Sheet) and len(r.players) == 3)
    assert all(isinstance(h, ThreePlayerHandRecord) for h in three.hands)


@pytest.mark.parametrize("result", RESULTS, ids=lambda r: type(r).__name__)
def test_to_dict_round_trips(result):
    data = result.to_dict()
    assert json.loads(json.dumps(data)) == data  # plain JSON: lists, strings, numbers
    assert type(result).from_dict(data) == result
    assert type(result).from_dict(json.loads(json.dumps(data))).to_dict() == data


@pytest.mark.parametrize("result", RESULTS, ids=lambda r: type(r).__name__)
def test_results_are_frozen(result):
    first = dataclasses.fields(result)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(result, first, None)
    with pytest.raises((AttributeError, TypeError)):  # slots: no new attributes either
        result.extra = 1
    nested = next(
        (
            getattr(result, f.name)
            for f in dataclasses.fields(result)
            if isinstance(getattr(result, f.name), Result)
        ),
        None,
    )
    if nested is not None:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(nested, dataclasses.fields(nested)[0].name, None)


def test_enums_are_values_and_serialise_as_their_strings():
    result = verify_knock(*GIN)
    assert result.outcome is Outcome.GIN and result.winner is Side.KNOCKER
    assert result.outcome == "gin" and json.dumps(result.outcome) == '"gin"'
    data = result.to_dict()
    assert type(data["outcome"]) is str and type(data["winner"]) is str
    assert list(data) == ["outcome", "winner", "points", "knocker", "defender", "breakdown"]
    assert list(data["defender"]) == [
        "cards",
        "melds",
        "layoffs",
        "deadwood_cards",
        "deadwood",
        "best_deadwood",
    ]
    deal = Deal.shuffled(1)
    assert deal.phase is Phase.UPCARD_OFFER and deal.legal_actions() == [
        Verb.PASS,
        Verb.DRAW_DISCARD,
    ]
    deal.apply("pass")
    assert deal.actions == ["pass"] and type(deal.actions[0]) is str


def test_entries_serialise_as_the_sheet_takes_them():
    assert Entry(void=True).to_dict() == {"void": True}
    entry = Entry(winner=1, loser=0, points=9, outcome=Outcome.KNOCK)
    assert entry.to_dict() == {"winner": 1, "loser": 0, "points": 9, "outcome": "knock"}
    assert Entry.from_dict(entry.to_dict()) == entry
    assert Entry.from_dict({"void": True}) == Entry(void=True)
    # a sheet's hand records fed back as entries give the same sheet
    sheet = next(r for r in RESULTS if isinstance(r, Sheet) and len(r.players) == 2)
    again = score_sheet(
        [h.to_dict() for h in sheet.hands], players=sheet.players, stake=sheet.stake
    )
    assert again == sheet


def same_json(got, expected) -> None:
    """Equal, and with the keys in the same order (the API does not sort them)."""
    assert got == expected
    assert json.dumps(got) == json.dumps(expected)


def test_api_json_is_built_from_to_dict(tmp_path):
    client = create_app({"DB": str(tmp_path / "typed.db"), "TESTING": True}).test_client()
    verified = client.post("/api/v1/verify", json={"knocker": KNOCKER, "defender": DEFENDER})
    same_json(verified.get_json(), verify_knock(KNOCKER, DEFENDER).to_dict())
    for record in (simulate(3), simulate_match(2)):
        replayed = client.post("/api/v1/replay", json=record)
        same_json(replayed.get_json(), replay(record).to_dict())

    created = client.post(
        "/api/v1/games", json={"dealer": 0, "players": ["Ana", "Ben"], "stake": 0.1}
    )
    game_id = created.get_json()["id"]
    auth = {"Authorization": f"Bearer {created.get_json()['edit_token']}"}
    hands = [
        {"kind": "quick", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 20},
        {"kind": "cards", "knocker": 1, "knocker_cards": KNOCKER, "defender_cards": DEFENDER},
        {"kind": "void"},
    ]
    evaluations = []
    for hand in hands:
        added = client.post(f"/api/v1/games/{game_id}/hands", json=hand, headers=auth)
        assert added.status_code == 201, added.get_json()
        evaluations.append(evaluate_hand(hand, players=["Ana", "Ben"]))
        detail = evaluations[-1].detail
        same_json(added.get_json()["hand"]["detail"], None if detail is None else detail.to_dict())
    expected = score_sheet(
        [e.entry.to_dict() for e in evaluations], players=["Ana", "Ben"], stake=0.1
    ).to_dict()
    body = client.get(f"/api/v1/games/{game_id}").get_json()
    for key, value in expected.items():
        if key != "hands":
            same_json(body[key], value)
    for record, want, evaluation in zip(body["hands"], expected["hands"], evaluations, strict=True):
        same_json({key: record[key] for key in want}, want)
        assert list(record)[: len(want)] == list(want)  # the sheet's keys first, in order
        assert record["detail"] == (
            None if evaluation.detail is None else evaluation.detail.to_dict()
        )


# ------------------------------------------------------------------ round trips of real sheets


@settings(deadline=None, max_examples=examples(150), suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_real_sheets_round_trip(data):
    _, _, sheet = scored_game(data)
    data_dict = sheet.to_dict()
    assert type(sheet).from_dict(data_dict) == sheet
    assert from_plain(AnySheet, data_dict) == sheet  # the format read back from the keys
    for hand in sheet.hands:
        assert from_plain(AnyHandRecord, hand.to_dict()) == hand
    assert json.dumps(
        from_plain(AnySheet, json.loads(json.dumps(data_dict))).to_dict()
    ) == json.dumps(data_dict)
