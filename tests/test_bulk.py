"""Bulk replay: ``scorekeeper replay --jobs N`` and ``--scheduler`` (a Dask cluster).

Whatever runs the records (one process, a pool, a ``distributed``
LocalCluster on loopback), the output must be the one-process output: same
lines in input order, same errors, same exit status.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from test_cli import BAD, BAD_MESSAGE, KNOCK

from scorekeeper import replay, simulate
from scorekeeper.bots import simulate_match
from scorekeeper.bulk import PARTITION_SIZE
from scorekeeper.cli import main
from scorekeeper.cli.options import PROGRESS_AFTER


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """A JSON Lines file of deals and a match, with a bad record and a bad line inside.

    Long enough for the progress bar and for several Dask partitions.
    """
    records = [simulate(seed) for seed in range(max(PROGRESS_AFTER, 2 * PARTITION_SIZE) + 20)]
    records[7] = BAD
    records[30] = simulate_match(2)
    records[150] = KNOCK
    lines = [json.dumps(record) for record in records]
    lines.insert(60, "{oops")
    path = tmp_path_factory.mktemp("bulk") / "archive.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, records


def run(*args: str):
    return CliRunner().invoke(main, ["replay", *args])


def same_run(one, other) -> None:
    assert (other.exit_code, other.stdout, other.stderr.count("\n")) == (
        one.exit_code,
        one.stdout,
        one.stderr.count("\n"),
    )
    errors = [line for line in one.stderr.splitlines() if line.startswith("line ")]
    assert errors == [line for line in other.stderr.splitlines() if line.startswith("line ")]


def test_jobs_give_the_one_process_output_in_input_order(archive):
    path, records = archive
    one = run("--json", "--jobs", "1", str(path))
    assert one.exit_code == 1
    assert f"line 8: {BAD_MESSAGE}" in one.stderr and "line 61: not valid JSON" in one.stderr
    good = [replay(r).to_dict() for i, r in enumerate(records) if i != 7]
    assert [
        json.loads(line) for line in one.stdout.splitlines() if "error" not in json.loads(line)
    ] == good
    pooled = run("--json", "--jobs", "2", str(path))
    same_run(one, pooled)
    assert pooled.stderr.count("replaying") >= 1
    assert f"2 bad record(s) of {len(records) + 1}" in pooled.stderr
    same_run(run("--jobs", "1", str(path)), run("--jobs", "3", str(path)))


def test_default_jobs_and_a_single_record(archive):
    path, _ = archive
    same_run(run("--json", "--jobs", "1", str(path)), run("--json", str(path)))
    one = CliRunner().invoke(main, ["replay", "--jobs", "4", "-"], input=json.dumps(KNOCK))
    assert one.exit_code == 0 and "Ana scores 45" in one.stdout


@pytest.mark.slow
def test_replay_on_a_local_dask_cluster_equals_the_local_replay(archive):
    distributed = pytest.importorskip("distributed")
    path, _ = archive
    local = run("--json", "--jobs", "1", str(path))
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        on_cluster = run("--json", "--scheduler", cluster.scheduler_address, str(path))
        human = run("--scheduler", cluster.scheduler_address, str(path))
    same_run(local, on_cluster)
    same_run(run("--jobs", "1", str(path)), human)


@pytest.mark.slow
def test_scheduler_refusals():
    both = run("--jobs", "2", "--scheduler", "tcp://127.0.0.1:9", "-")
    assert both.exit_code == 2 and "--jobs and --scheduler cannot be combined" in both.stderr
    away = CliRunner().invoke(
        main, ["replay", "--scheduler", "tcp://127.0.0.1:9", "-"], input=json.dumps(KNOCK)
    )
    assert away.exit_code == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in away.stderr
