"""The documentation: the README stays short, the mkdocs site builds with ``--strict``.

The site (``mkdocs.yml``, ``docs/``) is built into a temporary folder as a reader
would build it; its command line reference is made from the program (mkdocs-click)
and its API reference renders the document the app serves, both when it is built.
The examples of the README and of the site's pages are doctests (pyproject's
``--doctest-glob``), run with the suite.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
import yaml

from api import STORAGE_KEY, create_app
from scorekeeper.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()

SERVE = (
    "apt-get update -q && apt-get install -y -q nginx libnginx-mod-nchan && python3 -m venv"
    " .venv && .venv/bin/pip install -e . && .venv/bin/scorekeeper serve"
)
"""The README's command that runs the service (on the SQLite default), kept as it was."""


def test_the_readme_is_short_and_gives_the_two_commands():
    lines = README.splitlines()
    assert len(lines) <= 150
    assert f"    {SERVE}" in lines
    assert "    bash tests/run.sh" in lines
    assert "/api/docs" in README  # the explorer
    assert "mkdocs build --strict" in README and "mkdocs serve" in README


def test_the_readmes_links_and_picture_are_in_the_checkout():
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    targets += re.findall(r'<img src="([^"]+)"', README)
    assert "docs/images/sheet.png" in targets
    assert {t for t in targets if t.startswith("docs/") and t.endswith(".md")} >= {
        f"docs/{page}" for page in ("players/index.md", "api/index.md", "guarantees.md")
    }
    assert [t for t in targets if not (ROOT / t).is_file()] == []


def _pages(nav) -> list[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in _pages(value)]
    return [page for item in nav for page in _pages(item)]


def test_every_page_is_in_the_navigation():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    pages = {path.relative_to(ROOT / "docs").as_posix() for path in (ROOT / "docs").rglob("*.md")}
    assert sorted(_pages(config["nav"])) == sorted(pages)


def _commands(command: click.Command, path: str = "scorekeeper") -> list[str]:
    found = [path]
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            found += _commands(sub, f"{path}-{name}")
    return found


def _served_document(tmp_path: Path) -> dict:
    app = create_app({"DB": str(tmp_path / "docs.db"), "SECRET_KEY": "x"}, scorepad=False)
    try:
        return app.test_client().get("/api/openapi.json").get_json()
    finally:
        app.extensions[STORAGE_KEY].close()


@pytest.mark.slow  # mkdocs builds the whole site: about 10 s
def test_the_site_builds_strict_with_its_references_from_the_code(tmp_path):
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    assert not (ROOT / "docs" / "api" / "openapi.json").exists()  # made in the site only
    # the API reference renders the very document the app serves
    built = json.loads((site / "api" / "openapi.json").read_text())
    assert built == _served_document(tmp_path)
    assert "<swagger-ui" not in (site / "api" / "reference" / "index.html").read_text()
    # the command line reference has every command of the program, nested ones too
    cli = (site / "operators" / "cli" / "index.html").read_text()
    missing = [path for path in _commands(main) if f'id="{path}"' not in cli]
    assert missing == [] and "--server-name" in cli
    # nothing is fetched from elsewhere: no web fonts, no CDN
    for page in site.rglob("*.html"):
        text = page.read_text()
        named = re.findall(r'<(?:script|link|img|iframe)\b[^>]*(?:src|href)="(https?:)?//', text)
        assert named == [], page
