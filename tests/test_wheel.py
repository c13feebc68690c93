"""The wheel is the whole program: built, installed into a fresh venv, served from elsewhere.

``pip wheel --no-deps`` builds it from this checkout (hatchling in pip's
isolated build environment, with no warning), ``pip --python`` installs it without its
dependencies into a new venv, and a ``.pth`` file lends that venv this
interpreter's site-packages for flask, gunicorn and the rest (a ``.pth``
path is added as it is: the ``.pth`` files inside, such as an editable
install's finder, are not run). The build runs on a copy of the files it
reads, so that nothing a build leaves stays in the checkout. The installed
``scorekeeper serve`` then runs from a temporary folder without ``PYTHONPATH``:
pages, templates, the compiled catalogs of the six languages, static files and
the OpenAPI document must all come out of the wheel.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
import requests
from serve_kit import spawn, stop_soon

from api.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent


def _run(*argv, **kwargs) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, **kwargs)
    assert done.returncode == 0, f"{argv}\n{done.stdout}\n{done.stderr}"
    return done.stdout


SOURCES = ("pyproject.toml", "README.md", "LICENSE", "wsgi.py", "scorekeeper", "api", "templates")
"""What the build reads from the checkout."""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    source, dist = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("dist")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy2(ROOT / name, source / name)
    (source / LEFT_BY_A_COMPILED_BUILD).write_bytes(b"\x7fELF")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(dist), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
        env=_clean_env(),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "warning" not in (done.stdout + done.stderr).lower(), done.stdout + done.stderr
    (built,) = dist.glob("scorekeeper-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh venv holding the wheel (and this interpreter's packages for its dependencies)."""
    home = tmp_path_factory.mktemp("venv")
    _run(sys.executable, "-m", "venv", "--without-pip", str(home))
    python = home / "bin" / "python"
    _run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        str(python),
        "install",
        "-q",
        "--no-deps",
        "--no-index",
        str(wheel),
        env=_clean_env(),
    )
    site = Path(
        _run(
            str(python),
            "-c",
            "import sysconfig; print(sysconfig.get_path('purelib'))",
            env=_clean_env(),
        ).strip()
    )
    lent = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (site / "zz_lent_dependencies.pth").write_text("".join(f"{p}\n" for p in sorted(lent)))
    return home


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


SOURCES_ONLY = ("*.po", "*.pot", "api/translations/README", "api/translations/babel.cfg", "*.so")
"""Files of the checkout the wheel leaves out: the catalogs' sources (it ships the .mo), and
compiled modules a compiled build left beside the sources (docs/contributors/compiled.md)."""

LEFT_BY_A_COMPILED_BUILD = "scorekeeper/melds.cpython-311-x86_64-linux-gnu.so"
"""A compiled module a build with mypyc leaves in the checkout it ran in: without its shared
``*__mypyc`` module (which the pure wheel does not carry) it cannot be imported."""


def test_the_wheel_carries_code_templates_static_files_and_metadata(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder, prefix in (
        (ROOT / "scorekeeper", "scorekeeper/"),
        (ROOT / "api", "api/"),
        (ROOT / "templates", "api/templates/"),
    ):
        for path in folder.rglob("*"):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            name = prefix + path.relative_to(folder).as_posix()
            left_out = any(Path(name).match(pattern) for pattern in SOURCES_ONLY)
            assert (name in names) != left_out, name
    for language in LANGUAGES[1:]:
        assert f"api/translations/{language}/LC_MESSAGES/messages.mo" in names
    assert {
        "api/static/pad.css",
        "api/static/pad.js",
        "api/templates/pad/error.html",
        "scorekeeper/py.typed",
        "api/py.typed",
        "api/wsgi.py",
    } <= names
    assert LEFT_BY_A_COMPILED_BUILD not in names  # the pure wheel, from a compiled checkout
    # no top-level module: the checkout's wsgi.py is `api.wsgi` under a shorter name
    assert not any(name.startswith(("templates/", "tests/", "bench/", "wsgi")) for name in names)
    info = zipfile.ZipFile(wheel)
    metadata = info.read("scorekeeper-0.1.0.dist-info/METADATA").decode()
    assert "License-Expression: MIT" in metadata and "License-File: LICENSE" in metadata
    # the test tools are a dependency group; the one published extra is Dask's bulk replay
    assert re.findall(r"^Provides-Extra: (.+)$", metadata, re.MULTILINE) == ["dask"]
    assert re.search(r"^Requires-Dist: flask-swagger-ui", metadata, re.MULTILINE)  # /api/docs
    # no test harness (tests/serve_kit.py) and no hand-written front: nginx serves
    assert b"def spawn" not in info.read("api/server.py")
    assert "api/front.py" not in names and "Requires-Dist: h11" not in metadata
    assert (
        info.read("scorekeeper-0.1.0.dist-info/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()
    )


def test_the_installed_server_serves_every_page_from_another_folder(venv, tmp_path):
    where = _run(
        str(venv / "bin" / "python"),
        "-c",
        "import api, scorekeeper; print(api.__file__); print(scorekeeper.__file__)",
        cwd=tmp_path,
        env=_clean_env(),
    ).split()
    assert all(Path(path).is_relative_to(venv) for path in where), where
    process, url = spawn(tmp_path / "installed.db", installed=venv / "bin")
    try:
        pages = {
            path: requests.get(url + path, timeout=10)
            for path in ("/", "/check", "/replay", "/static/pad.css", "/api/openapi.json")
        }
        explorer = _explorer_files(url)
        too_long = requests.get(f"{url}/api/{'x' * 9000}", timeout=10)  # nginx's page file
    finally:
        stop_soon(process, "test_the_installed_server_serves_every_page_from_another_folder")
    for path, response in pages.items():
        assert response.status_code == 200, (path, response.text[:300])
    for path, heading in (
        ("/", "New game"),
        ("/check", "Check a knock"),
        ("/replay", "Replay a deal"),
    ):
        assert f"<h1>{heading}</h1>" in pages[path].text
        assert 'name="csrf_token"' in pages[path].text
    assert pages["/static/pad.css"].content == (ROOT / "api/static/pad.css").read_bytes()
    spec = json.loads(pages["/api/openapi.json"].text)
    assert "/api/v1/games" in spec["paths"] and spec["info"]["title"] == "scorekeeper"
    assert (tmp_path / "installed.db").exists()
    assert too_long.status_code == 414 and too_long.json()["error"]["code"] == "uri_too_long"
    # the API explorer: its page, Swagger UI's files from the flask-swagger-ui package, its script
    assert set(explorer) == {
        "/api/docs",
        "/api/docs/assets/swagger-ui.css",
        "/api/docs/assets/swagger-ui-bundle.js",
        "/static/explorer.js",
        "/static/pad-icon.svg",
    }
    for path, response in explorer.items():
        assert response.status_code == 200, (path, response.text[:300])
    assert explorer["/static/explorer.js"].content == (ROOT / "api/static/explorer.js").read_bytes()
    assert "SwaggerUIBundle" in explorer["/api/docs/assets/swagger-ui-bundle.js"].text


def _explorer_files(url: str) -> dict[str, requests.Response]:
    """``/api/docs`` and every file its page names, as the server answers them."""
    page = requests.get(f"{url}/api/docs", timeout=10)
    named = re.findall(r'(?:src|href)="(/[^"]+)"', page.text)
    return {"/api/docs": page} | {path: requests.get(url + path, timeout=10) for path in named}


def test_the_installed_server_speaks_each_language_from_the_wheels_catalogs(wheel, venv, tmp_path):
    names = set(zipfile.ZipFile(wheel).namelist())
    translated = [lang for lang in LANGUAGES if lang != "en"]
    missing = [
        lang
        for lang in translated
        if f"api/translations/{lang}/LC_MESSAGES/messages.mo" not in names
    ]
    process, url = spawn(tmp_path / "languages.db", installed=venv / "bin")
    try:
        pages = {
            lang: requests.get(url + "/", headers={"Accept-Language": lang}, timeout=10)
            for lang in LANGUAGES
        }
    finally:
        stop_soon(
            process, "test_the_installed_server_speaks_each_language_from_the_wheels_catalogs"
        )
    for lang, response in pages.items():
        assert response.status_code == 200, (lang, response.text[:300])
        assert f'<html lang="{lang}" dir="ltr"' in response.text, lang
    assert "<h1>New game</h1>" in pages["en"].text
    assert not missing, f"no compiled catalog in the wheel for {missing}"
    # the start page's heading comes out of each language's compiled catalog
    assert [lang for lang in translated if "<h1>New game</h1>" in pages[lang].text] == []


def test_an_installed_server_runs_as_gunicorn_api_wsgi_app(venv, tmp_path):
    """The wheel's WSGI entry point is ``api.wsgi:app`` (no top-level ``wsgi`` installed)."""
    missing = _run(
        str(venv / "bin" / "python"),
        "-c",
        "import importlib.util; print(importlib.util.find_spec('wsgi') is None)",
        cwd=tmp_path,
        env=_clean_env(),
    )
    assert missing.strip() == "True"
    process, url = spawn(
        tmp_path / "wsgi.db", wsgi=True, app="api.wsgi:app", python=venv / "bin" / "python"
    )
    try:
        assert requests.get(url + "/api/openapi.json", timeout=10).status_code == 200
    finally:
        stop_soon(process, "test_an_installed_server_runs_as_gunicorn_api_wsgi_app")
    assert (tmp_path / "wsgi.db").exists()
