"""The command line: scorekeeper replay and scorekeeper simulate (click)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from engine_kit import make_record

from scorekeeper import replay, simulate
from scorekeeper.bots import simulate_match
from scorekeeper.cli import main

KNOCK = make_record(
    ("4s 5s 6s Qc Qd Qh Ac 2c 3c 9h", "7s 8s Kc Kh Jd Jh 5d 3h 2d 4d"),
    "Js",
    "Kd",
    actions=["pass", "pass", "draw stock", "knock Kd"],
)
BAD = make_record(
    ("Ac 5c 9c Kc 2d 6d Td 3h 7h Js", "2c 6c Tc 3d 7d Jd 4h 8h Qh Ks"),
    "Qd",
    actions=["draw discard", "discard Js", "draw discard", "discard Js"],
)
BAD_MESSAGE = "step 3: cannot discard Js: it was just taken from the discard pile"


@pytest.fixture
def runner():
    return CliRunner()


def test_replay_one_deal_shows_hands_melds_layoffs_and_score(runner):
    result = runner.invoke(main, ["replay", "-"], input=json.dumps(KNOCK))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Ben deals; upcard J♠; knock limit 10" in out
    assert "  Ana  dealt A♣ 2♣ 3♣ Q♣ Q♦ 9♥ Q♥ 4♠ 5♠ 6♠" in out
    assert "Ana knocks, discarding K♦ after 4 actions (30 cards left in the stock)" in out
    assert "knocker   melds [Q♣ Q♦ Q♥] [A♣ 2♣ 3♣] [4♠ 5♠ 6♠]  deadwood 9♥ = 9" in out
    assert "layoffs   7♠ on [4♠ 5♠ 6♠], 8♠ on [4♠ 5♠ 6♠]" in out
    assert "knock: knocker scores 45 (45 + bonus 0)" in out
    assert "Ana scores 45; Ana deals next" in out


def test_replay_json_lines_with_json_output(runner, tmp_path):
    records = [simulate(seed) for seed in range(5)]
    path = tmp_path / "deals.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    result = runner.invoke(main, ["replay", "--json", str(path)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines == [replay(r).to_dict() for r in records]


def test_replay_human_summary_for_many_records(runner, tmp_path):
    path = tmp_path / "deals.jsonl"
    path.write_text(
        "\n".join(json.dumps(simulate(seed)) for seed in range(3)) + "\n\n", encoding="utf-8"
    )
    result = runner.invoke(main, ["replay", str(path)])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("line 1: ") and lines[2].startswith("line 3: ")
    assert lines[-1].startswith("3 of 3 record(s) replayed: ")


def test_a_bad_record_exits_non_zero_with_the_step_message(runner, tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        "\n".join([json.dumps(KNOCK), json.dumps(BAD), "{oops"]) + "\n", encoding="utf-8"
    )
    result = runner.invoke(main, ["replay", str(path)])
    assert result.exit_code == 1
    assert f"line 2: {BAD_MESSAGE}" in result.stderr
    assert "line 3: not valid JSON" in result.stderr
    assert "2 bad record(s) of 3" in result.stderr
    assert result.stdout.startswith("line 1: Ana knocks: Ana scores 45")

    as_json = runner.invoke(main, ["replay", "--json", str(path)])
    assert as_json.exit_code == 1
    lines = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert lines[1] == {
        "record": "line 2",
        "error": BAD_MESSAGE,
        "step": 3,
        "deal": None,
        "field": "actions",
    }


def test_replay_a_match_record(runner):
    record = simulate_match(1)
    result = runner.invoke(main, ["replay", "-"], input=json.dumps(record))
    assert result.exit_code == 0
    sheet = replay(record).sheet
    winner = sheet.players[sheet.result.winner]
    assert f"{winner} wins: final" in result.stdout
    assert result.stdout.count("  deal ") == len(record["deals"])


def test_progress_bar_on_long_files(runner, tmp_path):
    path = tmp_path / "many.jsonl"
    path.write_text(
        "".join(json.dumps(simulate(seed)) + "\n" for seed in range(250)), encoding="utf-8"
    )
    result = runner.invoke(main, ["replay", "--json", str(path)])
    assert result.exit_code == 0
    assert "replaying" in result.stderr
    assert len(result.stdout.splitlines()) == 250


def test_simulate_writes_records_that_replay(runner, tmp_path):
    out = tmp_path / "deals.jsonl"
    result = runner.invoke(
        main,
        ["simulate", "--games", "4", "--seed", "10", "--players", "greedy,random", "-o", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert "simulated 4 deal(s) (seeds 10..13)" in result.stderr
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert records == [simulate(10 + k, players=("greedy", "random")) for k in range(4)]

    matches = runner.invoke(main, ["simulate", "-n", "1", "--match", "--preset", "hollywood"])
    assert matches.exit_code == 0
    assert replay(json.loads(matches.stdout)).sheet.scoring == "hollywood"


def test_simulate_refuses_unknown_players(runner):
    result = runner.invoke(main, ["simulate", "--players", "greedy,clever"])
    assert result.exit_code == 2
    assert "unknown player kind 'clever'" in result.stderr


def installed_command() -> str:
    local = Path(sys.executable).with_name("scorekeeper")
    return str(local) if local.exists() else (shutil.which("scorekeeper") or "scorekeeper")


@pytest.mark.slow
def test_the_installed_command_simulates_and_replays(tmp_path):
    command = installed_command()
    out = tmp_path / "deals.jsonl"
    simulated = subprocess.run(
        [command, "simulate", "--games", "20", "--seed", "3", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert simulated.returncode == 0, simulated.stderr
    replayed = subprocess.run(
        [command, "replay", str(out)], capture_output=True, text=True, timeout=60
    )
    assert replayed.returncode == 0, replayed.stderr
    assert "20 of 20 record(s) replayed" in replayed.stdout
    bad = subprocess.run(
        [command, "replay", "-"], input=json.dumps(BAD), capture_output=True, text=True, timeout=60
    )
    assert bad.returncode == 1
    assert BAD_MESSAGE in bad.stderr


def test_melds_lists_the_arrangements_and_with_eleven_cards_the_discards(runner):
    out = runner.invoke(main, ["melds", "As;2s;3s 3c 2d 3d 4d 5d Ah 2h 3h"])  # any separator
    assert out.exit_code == 0
    assert out.output.startswith("deadwood 2; 1 optimal arrangement(s)")
    assert "discards: 3♣ -> 0, A♥ -> 1" in out.output
    ten = runner.invoke(main, ["melds", "--json", "As;2s;3s 7c 7d 7h 9d Td Jd Kc"])
    report = json.loads(ten.output)
    assert "discards" not in report and report["arrangements"][0]["deadwood_cards"] == ["Kc"]
    bad = runner.invoke(main, ["melds", "As 2s As"])
    assert bad.exit_code == 2 and "duplicate card As at position 3" in bad.output


def test_verify_shows_the_showdown_and_names_bad_cards(runner):
    args = [
        "verify",
        "--knocker",
        "As 5s 6s 7s 5c 6c 7c 5d 6d 7d",
        "--defender",
        "3s 4s 8s 4c 8c 4d 8d 5h 6h 7h",
    ]
    out = runner.invoke(main, args)
    assert out.exit_code == 0
    assert "knocker   melds [5♣ 5♦ 5♠] [6♣ 6♦ 6♠] [7♣ 7♦ 7♠]  deadwood A♠ = 1" in out.output
    assert out.output.rstrip().endswith("knock: knocker scores 2 (2 + bonus 0)")
    assert json.loads(runner.invoke(main, [*args, "--json"]).output)["points"] == 2
    oklahoma = runner.invoke(main, [*args, "--preset", "oklahoma", "--upcard", "Ah"])
    assert oklahoma.exit_code == 2 and "knock limit 0" in oklahoma.output
    bad = runner.invoke(main, ["verify", "--knocker", "As 7z", "--defender", "2s"])
    assert bad.exit_code == 2 and "knocker: unknown card '7z' at position 2" in bad.output
