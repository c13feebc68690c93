"""Settings are read once, by ``create_app``: defaults, instance file, environment, mapping.

Real apps on real SQLite files in tmp_path; the instance folder is a
temporary one (``instance_path``), so the checkout's ``instance/`` is
neither read nor written.
"""

from __future__ import annotations

import sqlite3

from click.testing import CliRunner

from api import create_app, settings
from scorekeeper.cli import main
from scorekeeper.store import games
from scorekeeper.store.sqlite import Storage


def _instance(tmp_path, text: str) -> str:
    folder = tmp_path / "instance"
    folder.mkdir()
    (folder / "config.py").write_text(text)
    return str(folder)


def test_each_source_overrides_the_ones_before_it(tmp_path, monkeypatch):
    folder = _instance(
        tmp_path,
        f"DB = {str(tmp_path / 'file.db')!r}\n"
        "MAX_CONTENT_LENGTH = 2048\nSECRET_KEY = 'from the file'\n",
    )
    monkeypatch.delenv("SCOREKEEPER_DB", raising=False)
    monkeypatch.delenv("SCOREKEEPER_SECRET_KEY", raising=False)
    app = create_app(instance_path=folder)
    assert app.config["DB"] == str(tmp_path / "file.db")
    assert app.config["MAX_CONTENT_LENGTH"] == 2048
    assert app.config["SECRET_KEY"] == "from the file"

    monkeypatch.setenv("SCOREKEEPER_DB", str(tmp_path / "env.db"))
    monkeypatch.setenv("SCOREKEEPER_MAX_CONTENT_LENGTH", "4096")  # read as JSON: a number
    app = create_app(instance_path=folder)
    assert app.config["DB"] == str(tmp_path / "env.db")
    assert app.config["MAX_CONTENT_LENGTH"] == 4096
    assert app.config["SECRET_KEY"] == "from the file"

    app = create_app({"DB": str(tmp_path / "given.db")}, instance_path=folder)
    assert app.config["DB"] == str(tmp_path / "given.db")
    assert app.config["MAX_CONTENT_LENGTH"] == 4096
    assert {path.name for path in tmp_path.glob("*.db")} == {"file.db", "env.db", "given.db"}


def test_the_app_opens_the_file_its_settings_name(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_DB", str(tmp_path / "env.db"))
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "from the environment")
    app = create_app(instance_path=str(tmp_path / "instance"))
    created = app.test_client().post("/api/v1/games", json={"dealer": 0, "players": ["Ana", "Ben"]})
    assert created.status_code == 201
    stored = sqlite3.connect(tmp_path / "env.db").execute("SELECT id FROM games").fetchall()
    assert stored == [(created.json["id"],)]
    assert app.config["SECRET_KEY"] == "from the environment"
    assert not (tmp_path / "instance" / "secret_key").exists()  # no key file needed


def test_an_empty_variable_counts_as_unset(tmp_path, monkeypatch):
    folder = _instance(tmp_path, f"DB = {str(tmp_path / 'file.db')!r}\n")
    monkeypatch.setenv("SCOREKEEPER_DB", "")  # not a private temporary database
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "")
    app = create_app(instance_path=folder)
    assert app.config["DB"] == str(tmp_path / "file.db") and (tmp_path / "file.db").exists()
    assert app.config["SECRET_KEY"] == (tmp_path / "instance" / "secret_key").read_text()


def test_the_command_line_reads_the_settings_the_app_reads(tmp_path, monkeypatch):
    """One loader: the store commands' database is the app's ``DB`` setting unless
    ``--db`` names another."""
    folder = _instance(tmp_path, f"DB = {str(tmp_path / 'file.db')!r}\n")
    monkeypatch.setenv("SCOREKEEPER_DB", str(tmp_path / "env.db"))
    assert settings(instance_path=folder)["DB"] == create_app(instance_path=folder).config["DB"]
    assert settings(instance_path=folder)["DB"] == str(tmp_path / "env.db")
    monkeypatch.delenv("SCOREKEEPER_DB")
    assert settings(instance_path=folder)["DB"] == str(tmp_path / "file.db")
    games.create_game(Storage(tmp_path / "given.db"), ["Ana", "Ben"])
    result = CliRunner().invoke(
        main,
        ["backup", str(tmp_path / "copy.db"), "--db", str(tmp_path / "given.db")],
        env={"SCOREKEEPER_DB": str(tmp_path / "env.db")},
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith("backed up 1 game(s), 0 log entries to ")


def test_backup_takes_the_database_from_the_environment_when_no_option_names_it(tmp_path):
    db = tmp_path / "env.db"
    games.create_game(Storage(db), ["Ana", "Ben"])
    result = CliRunner().invoke(
        main, ["backup", str(tmp_path / "copy.db")], env={"SCOREKEEPER_DB": str(db)}
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith("backed up 1 game(s), 0 log entries to ")


def test_an_app_with_only_the_api_has_a_secret_key(tmp_path, monkeypatch):
    """The key comes with the app, not with the scorepad: a create repeated with its
    Idempotency-Key (its token derived from ``SECRET_KEY``) works without the pages."""
    monkeypatch.delenv("SCOREKEEPER_SECRET_KEY", raising=False)
    folder = tmp_path / "instance"
    app = create_app({"DB": str(tmp_path / "api.db")}, instance_path=str(folder), scorepad=False)
    assert "pad" not in app.blueprints
    assert app.config["SECRET_KEY"] == (folder / "secret_key").read_text()
    client = app.test_client()
    assert client.get("/").status_code == 404  # no scorepad
    keyed = {"Idempotency-Key": "a1b2c3d4e5f6a7b8"}
    first = client.post(
        "/api/v1/games", json={"dealer": 0, "players": ["Ana", "Ben"]}, headers=keyed
    )
    again = client.post(
        "/api/v1/games", json={"dealer": 0, "players": ["Ana", "Ben"]}, headers=keyed
    )
    assert first.status_code == again.status_code == 201, first.text
    assert first.json["edit_token"] == again.json["edit_token"]
