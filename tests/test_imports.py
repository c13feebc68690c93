"""Importers (issue 11): real OpenSpiel histories and real Neller logs replay as scored there.

OpenSpiel deals are played by pyspiel at test time (tests/openspiel_kit.py)
and a fixed sample of them is in tests/data; the Neller logs in tests/data
were printed by Neller's own Java GinRummyGame (see tests/data/README.md).
Each side's numbers are read here independently of the importer: pyspiel's
state (returns, deadwood, layoffs) and the log's own lines.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from openspiel_kit import PARAMS, play
from openspiel_kit import kind as ending
from test_api import Client

from api import create_app
from scorekeeper.cards import parse_card
from scorekeeper.cli import main
from scorekeeper.errors import RecordError
from scorekeeper.imports import import_text
from scorekeeper.openspiel import openspiel_record
from scorekeeper.openspiel_ids import OPENSPIEL_MELDS, openspiel_rules
from scorekeeper.recording import rules_value
from scorekeeper.records import replay

DATA = Path(__file__).parent / "data"
NELLER_LOG = DATA / "neller-60-games.log.gz"


def as_options(rules: str | dict) -> dict:
    """A record's rules as a dict of options."""
    return {"preset": rules} if isinstance(rules, str) else rules


def replayed(record) -> dict:
    return replay(record).to_dict()


def returns_of(result: dict) -> list[int]:
    """A replayed deal's points as OpenSpiel's returns (player 0, player 1)."""
    points = [0, 0]
    if result["winner_player"] is not None:
        points[result["winner_player"]] = result["points"]
        points[1 - result["winner_player"]] = -result["points"]
    return points


def check_against_openspiel(record: dict, facts: dict) -> str:
    """The replay of an imported deal agrees with what pyspiel scored; its outcome."""
    result = replayed(record)
    assert returns_of(result) == facts["returns"]
    knocked = facts["knocked"]
    if any(knocked):
        knocker = knocked.index(True)
        assert result["knocker_player"] == knocker
        deadwood = [0, 0]
        deadwood[knocker] = result["knocker"]["deadwood"]
        deadwood[1 - knocker] = result["defender"]["deadwood"]
        assert deadwood == facts["deadwood"]
        assert sorted(x["card"] for x in result["defender"]["layoffs"]) == sorted(facts["layoffs"])
        return result["outcome"]
    assert result["void"] and facts["returns"] == [0, 0]
    return "void"


# --------------------------------------------------------------------------- OpenSpiel


def test_meld_ids_are_openspiels():
    pyspiel = pytest.importorskip("pyspiel")
    state = pyspiel.load_game("gin_rummy").new_initial_state()
    for meld_id, meld in enumerate(OPENSPIEL_MELDS):
        text = state.action_to_string(0, 56 + meld_id).split("Action: ")[-1]
        assert text == "".join(card.code for card in meld)


@pytest.mark.slow
def test_openspiel_deals_played_by_pyspiel_import_and_replay_as_scored(tmp_path):
    """``scorekeeper import --from openspiel`` refuses nothing pyspiel played to its end.

    The repeated moves among them (the top discard taken and thrown straight
    back by both players in turn) are void deals under the preset's
    ``repeated_discard: void``, 0-0 as OpenSpiel scores them.
    """
    pytest.importorskip("pyspiel")
    deals = play(2026, 600)
    source, out = tmp_path / "deals.jsonl", tmp_path / "records.jsonl"
    source.write_text("".join(json.dumps(deal["entry"]) + "\n" for deal in deals))
    run = CliRunner().invoke(main, ["import", "--from", "openspiel", str(source), "-o", str(out)])
    assert run.exit_code == 0 and "imported 600 record(s), 0 refused" in run.stderr, run.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == len(deals)
    outcomes: Counter = Counter()
    for record, deal in zip(records, deals, strict=True):
        assert record["rules"] == "openspiel" or record["rules"]["preset"] == "openspiel"
        outcome = check_against_openspiel(record, deal["facts"])
        if ending(deal) == "repeated move":
            assert outcome == "void" and record["actions"][-1].startswith("discard ")
            # the same deal played on under repeated_discard: play_on is not over
            with pytest.raises(RecordError, match="the actions end before the hand is over"):
                replay(
                    {
                        **record,
                        "rules": {**as_options(record["rules"]), "repeated_discard": "play_on"},
                    }
                )
            outcome = "repeated move"
        outcomes[outcome] += 1
    assert outcomes["knock"] > 100 and outcomes["void"] > 100, outcomes
    assert outcomes["gin"] and outcomes["undercut"] and outcomes["repeated move"] >= 3, outcomes
    assert sum(outcomes.values()) == 600


def test_openspiel_parameters_become_rule_options():
    rules = [rules_value(openspiel_rules(params)) for params in PARAMS]
    assert rules[0] == "openspiel"
    assert rules[1] == {"preset": "openspiel", "oklahoma": True}  # no spade doubling
    assert rules[2] == {"preset": "openspiel", "knock_limit": 5}
    assert rules[3] == {"preset": "openspiel", "gin_bonus": 20, "undercut_bonus": 10}
    # under oklahoma OpenSpiel ignores knock_card: the upcard sets the limit
    assert rules[4] == {"preset": "openspiel", "oklahoma": True, "undercut_bonus": 20}
    assert openspiel_rules({"oklahoma": True}).knock_limit_for(parse_card("As")) == 0


def test_openspiel_sample_without_pyspiel():
    entries = (DATA / "openspiel-sample.jsonl").read_text()
    facts = [
        json.loads(line)
        for line in (DATA / "openspiel-sample-facts.jsonl").read_text().splitlines()
    ]
    result = import_text("openspiel", entries)
    assert result.errors == []
    assert len(result.records) == len(facts) == 40
    outcomes = Counter(
        check_against_openspiel(r, f) for r, f in zip(result.records, facts, strict=True)
    )
    assert set(outcomes) == {"gin", "knock", "undercut", "tie", "void"}
    repeated = [25, 26, 29, 30, 34]  # the sample's repeated moves: void, 0-0
    for line in repeated:
        assert replay(result.records[line - 1]).void
    for record in result.records:
        assert record["dealer"] == 1 and record["stock_complete"] is False
    actions = [record["actions"] for record in result.records]
    assert any(
        a[-2:] == ["draw discard", a[-1]] and a[-1].startswith("knock") for a in actions
    )  # a knock at the wall, after OpenSpiel's 55 there


def test_openspiel_faults_name_line_and_position():
    sample = (DATA / "openspiel-sample.jsonl").read_text().splitlines()
    good = json.loads(sample[0])
    cut = {"history": good["history"][:40], "params": {}}
    bad_action = {"history": [*good["history"][:21], 99], "params": {}}
    dealt = good["history"][0]
    wrong = {"history": [*good["history"][:21], 54, 54, 53, dealt], "params": {}}
    text = "\n".join(
        [
            sample[0],
            "{not json",
            json.dumps(cut),
            json.dumps(bad_action),
            json.dumps({"history": good["history"], "params": {"num_ranks": 10}}),
            json.dumps({"history": good["history"], "params": {"decks": 2}}),
            json.dumps(wrong),
            "",
            sample[1],
        ]
    )
    result = import_text("openspiel", text)
    assert len(result.records) == 2
    assert result.records[0] == openspiel_record(good)
    assert result.records[1] == openspiel_record(json.loads(sample[1]), line=9)
    faults = [(e.line, e.position) for e in result.errors]
    assert faults == [(2, None), (3, 40), (4, 21), (5, None), (6, None), (7, 24)]
    messages = [str(e) for e in result.errors]
    assert messages[1].startswith("line 3, position 40: the history ends before the deal is")
    assert "num_ranks" in messages[3] and "'decks'" in messages[4]
    assert "dealt twice" in messages[5]
    with pytest.raises(RecordError, match="unknown source 'bga': use openspiel or neller"):
        import_text("bga", sample[0])


# --------------------------------------------------------------------------- Neller


def neller_text() -> str:
    return gzip.decompress(NELLER_LOG.read_bytes()).decode()


def neller_facts(text: str) -> list[dict]:
    """What the log itself states, game by game: per hand the scores and deadwoods."""
    games: list[dict] = []
    game = {"hands": []}
    hand: dict = {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if m := re.fullmatch(r"Player (\d) starts\.", line):
            hand = {
                "starter": int(m[1]),
                "layoffs": [],
                "knocker_deadwood": None,
                "defender_deadwood": None,
                "winner": None,
                "points": 0,
            }
            game["hands"].append(hand)
        elif m := re.fullmatch(r"Player (\d) melds .* with (\d+) deadwood from .*", line):
            hand["knocker"], hand["knocker_deadwood"] = int(m[1]), int(m[2])
        elif m := re.fullmatch(r"Player (\d) goes gin with melds .*", line):
            hand["knocker"], hand["knocker_deadwood"] = int(m[1]), 0
        elif m := re.fullmatch(r"Player \d lays off (\w\w) on .*", line):
            hand["layoffs"].append(m[1].lower()[0].upper() + m[1][1].lower())
        elif m := re.fullmatch(r"Player \d has (\d+) deadwood with .*", line):
            hand["defender_deadwood"] = int(m[1])
        elif m := re.fullmatch(
            r"Player (\d) (?:scores|undercuts and scores) .*?(\d+)"
            r"(?: total points)?\.",
            line,
        ):
            hand["winner"], hand["points"] = int(m[1]), int(m[2])
        elif line == "Player\tScore":
            hand["totals"] = [int(lines[i + 1].split("\t")[1]), int(lines[i + 2].split("\t")[1])]
        elif m := re.fullmatch(r"Player (\d) wins\.", line):
            game["winner"] = int(m[1])
            games.append(game)
            game = {"hands": []}
    return games


def test_neller_games_replay_as_the_java_program_scored_them():
    text = neller_text()
    facts = neller_facts(text)
    result = import_text("neller", text)
    assert result.errors == []
    assert len(result.records) == len(facts) == 60
    outcomes: Counter = Counter()
    for record, game in zip(result.records, facts, strict=True):
        assert record["format"] == "gin-rummy-match/1"
        replay_result = replayed(record)
        sheet = replay_result["sheet"]
        assert len(replay_result["deals"]) == len(game["hands"])
        for deal, hand, row in zip(
            replay_result["deals"], game["hands"], sheet["hands"], strict=True
        ):
            assert deal["dealer"] == 1 - hand["starter"]
            assert row["totals"] == hand["totals"]
            if hand["knocker_deadwood"] is None:
                assert deal["void"]
                outcomes["void"] += 1
                continue
            outcomes[deal["outcome"]] += 1
            assert deal["knocker_player"] == hand["knocker"]
            assert deal["winner_player"] == hand["winner"]
            assert deal["points"] == hand["points"]
            assert deal["knocker"]["deadwood"] == hand["knocker_deadwood"]
            assert deal["defender"]["deadwood"] == hand["defender_deadwood"]
            assert [x["card"] for x in deal["defender"]["layoffs"]] == hand["layoffs"]
        assert sheet["over"] and sheet["result"]["winner"] == game["winner"]
        # no game or box bonus in Neller's framework: the final totals are the points
        assert sheet["result"]["final"] == game["hands"][-1]["totals"]
    assert outcomes["knock"] > 100 and outcomes["undercut"] > 5 and outcomes["gin"] > 5
    assert outcomes["void"] > 0


def test_neller_faults_name_the_line_and_other_games_still_import():
    lines = neller_text().splitlines()
    ends = [i for i, line in enumerate(lines) if re.fullmatch(r"Player \d wins\.", line)]
    first, second, third = (
        lines[: ends[0] + 1],
        lines[ends[0] + 1 : ends[1] + 1],
        lines[ends[1] + 1 : ends[2] + 1],
    )
    # game 2: a line the log never prints
    odd = list(second)
    odd[5] = "Player 0 sneezes."
    # game 3: a running total that is not what the hand scored
    tampered = list(third)
    at = tampered.index("Player\tScore") + 1
    tampered[at] = "0\t99"
    offset2 = len(first)
    offset3 = offset2 + len(second)
    text = "\n".join(first + odd + tampered + first[:30])
    result = import_text("neller", text)
    assert len(result.records) == 1
    assert [e.line for e in result.errors] == [
        offset2 + 6,
        offset3 + at + 1,
        len(first + odd + tampered) + 30,
    ]
    assert "not a line of Neller's verbose log" in str(result.errors[0])
    assert "running totals" in str(result.errors[1])
    assert "ends before the game is over" in str(result.errors[2])
    forfeit = list(first)
    forfeit[10] = "Player 1 discards 5H illegally and forfeits."
    fault = import_text("neller", "\n".join(forfeit)).errors[0]
    assert fault.line == 11 and "forfeit" in str(fault)
    # the last discard of hand 1 made a card the player does not hold: the replay's
    # refusal, at that line
    illegal = list(first)
    hand_end = illegal.index("Player\tScore")
    at = max(i for i, line in enumerate(illegal[:hand_end]) if " discards " in line)
    player = int(illegal[at].split()[1])
    seen = set(re.findall(r"\b[A2-9TJQK][CDHS]\b", "\n".join(illegal[:hand_end])))
    card = next(r + u for r in "A23456789TJQK" for u in "CDHS" if r + u not in seen)
    illegal[at] = f"Player {player} discards {card}."
    fault = import_text("neller", "\n".join(illegal)).errors[0]
    assert fault.line == at + 1 and "does not hold" in str(fault), str(fault)


# --------------------------------------------------------------------------- CLI and API


def test_cli_import_writes_good_records_and_reports_bad_lines(tmp_path):
    sample = (DATA / "openspiel-sample.jsonl").read_text().splitlines()
    source = tmp_path / "deals.jsonl"
    source.write_text("\n".join([sample[0], '{"history": [1, 2]}', sample[2]]) + "\n")
    out = tmp_path / "out.jsonl"
    run = CliRunner().invoke(main, ["import", "--from", "openspiel", str(source), "-o", str(out)])
    assert run.exit_code == 1
    assert "line 2, position 2: the history ends during the deal" in run.stderr
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert written == [
        openspiel_record(json.loads(sample[0])),
        openspiel_record(json.loads(sample[2]), line=3),
    ]
    log = tmp_path / "neller.log"
    lines = neller_text().splitlines()
    end = lines.index(next(x for x in lines if re.fullmatch(r"Player \d wins\.", x)))
    log.write_text("\n".join(lines[: end + 1]))
    run = CliRunner().invoke(main, ["import", "--from", "neller", str(log)])
    assert run.exit_code == 0, run.stderr
    assert replayed(json.loads(run.stdout))["sheet"]["over"]


@pytest.fixture
def call(tmp_path):
    return Client(create_app({"DB": str(tmp_path / "api.db"), "TESTING": True}))


def test_api_imports(call):
    sample = (DATA / "openspiel-sample.jsonl").read_text().splitlines()
    text = "\n".join([sample[0], "[1]", sample[1]])
    answer = call("POST", "/api/v1/imports/openspiel", json={"text": text})
    assert answer.status_code == 200
    assert answer.json["records"] == [
        openspiel_record(json.loads(sample[0])),
        openspiel_record(json.loads(sample[1]), line=3),
    ]
    assert answer.json["errors"] == [
        {"line": 2, "position": None, "message": str(import_text("openspiel", text).errors[0])}
    ]
    lines = neller_text().splitlines()
    end = lines.index(next(x for x in lines if re.fullmatch(r"Player \d wins\.", x)))
    answer = call("POST", "/api/v1/imports/neller", json={"text": "\n".join(lines[: end + 1])})
    assert answer.status_code == 200 and answer.json["errors"] == []
    assert replayed(answer.json["records"][0])["sheet"]["over"]
    assert call("POST", "/api/v1/imports/pokerstars", json={"text": ""}).status_code == 404
    assert call("POST", "/api/v1/imports/neller", json={"txt": ""}).status_code == 422
    big = call("POST", "/api/v1/imports/neller", json={"text": "x" * (2 * 1024 * 1024)})
    assert big.status_code == 413
    spec = call.client.get("/api/openapi.json").json["paths"]["/api/v1/imports/{source}"]
    assert spec["parameters"][0]["schema"]["enum"] == ["openspiel", "neller"]
    assert spec["post"]["requestBody"]["content"]["application/json"]["schema"]


# --------------------------------------------------------------------------- damaged input

EDITS = st.tuples(
    st.sampled_from(["drop", "repeat", "change"]), st.integers(0, 10_000), st.integers(0, 240)
)


def edited(items: list, edit: tuple) -> list:
    kind, where, value = edit
    at = where % len(items)
    if kind == "drop":
        return items[:at] + items[at + 1 :]
    if kind == "repeat":
        return [*items[:at], items[at], *items[at:]]
    return [*items[:at], value, *items[at + 1 :]]


def imports_cleanly(source: str, text: str) -> None:
    """Damaged input gives faults naming a line of it, and records that replay."""
    result = import_text(source, text)
    lines = len(text.splitlines())
    assert all(1 <= fault.line <= lines for fault in result.errors)
    for record in result.records:
        replayed(record)


@settings(max_examples=examples(150), deadline=None, derandomize=True)
@given(line=st.integers(0, 39), edits=st.lists(EDITS, min_size=1, max_size=3))
def test_damaged_openspiel_histories_are_refused_by_line_or_import_faithfully(line, edits):
    entries = (DATA / "openspiel-sample.jsonl").read_text().splitlines()
    entry = json.loads(entries[line])
    for edit in edits:
        entry["history"] = edited(entry["history"], edit)
    imports_cleanly("openspiel", "\n".join([*entries[:3], json.dumps(entry)]))


@settings(max_examples=examples(150), deadline=None, derandomize=True)
@given(edits=st.lists(EDITS, min_size=1, max_size=3))
def test_damaged_neller_logs_are_refused_by_line_or_import_faithfully(edits):
    lines = neller_text().splitlines()
    end = lines.index(next(x for x in lines if re.fullmatch(r"Player \d wins\.", x)))
    game = lines[: end + 1]
    cards = [f"Player 0 draws {r}{s}." for r in "A5TK" for s in "CDHS"]
    for kind, where, value in edits:
        game = edited(game, (kind, where, cards[value % len(cards)]))
    imports_cleanly("neller", "\n".join(game))
