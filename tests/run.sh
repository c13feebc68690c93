#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs what the tests need
# (Debian's chromium, its headless shell, for the browser tests, postgresql for the PostgreSQL
# backend's tests, which start their own server from its binaries, nginx and its
# nchan module for ``scorekeeper serve``, which runs them before gunicorn, and a Java
# runtime for openapi-generator in the generated-client tests; the project
# and its `test` dependency group (PEP 735, which pip reads from 25.1 on) in
# ./.venv; node and npm for axe-core, which the accessibility tests inject
# into the pages, and typescript, whose tsc compiles the generated
# typescript-fetch client, pinned by tests/package-lock.json into
# tests/node_modules),
# then `ruff check` and pytest (in three processes). Extra arguments go to pytest:
# `bash tests/run.sh -m soak` runs the soak tier, the heavy sweeps the default run
# leaves out (tests/conftest.py), as before a release.
set -euo pipefail
cd "$(dirname "$0")/.."

MISSING=""
command -v chromium-headless-shell >/dev/null 2>&1 || MISSING="$MISSING chromium-headless-shell"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || MISSING="$MISSING postgresql"
command -v java >/dev/null 2>&1 || MISSING="$MISSING default-jre-headless"
command -v npm >/dev/null 2>&1 || MISSING="$MISSING nodejs npm"
# nginx with its pub/sub module nchan: scorekeeper serve, and the live sheets
[ -x /usr/sbin/nginx ] || MISSING="$MISSING nginx"
[ -e /usr/lib/nginx/modules/ngx_nchan_module.so ] || MISSING="$MISSING libnginx-mod-nchan"
if [ -n "$MISSING" ]; then
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -q
    # shellcheck disable=SC2086  # one word per package
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $MISSING
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check 'pip>=25.1'
.venv/bin/python -m pip install -q --disable-pip-version-check -e . --group test
npm ci --prefix tests --no-audit --no-fund --loglevel=error

.venv/bin/ruff check .
.venv/bin/ruff format --check .
# Three processes (pytest-xdist), one test file (or test class) per process at a
# time (module fixtures such as a file's own server start once per process; the
# language walks of test_i18n_browser.py are one class each, so they spread). On a 2-core machine a
# third process pays: the tests spend a third of their time waiting for
# servers, browsers and PostgreSQL (measured on one loaded machine: 1.3 of
# 2 cores busy with three, a fifth less time than with two). The costliest files
# go first, in tests/conftest.py's order (LongestFirst), not pytest-xdist's own
# (most tests first, which left the one-test browser walks to the end). The README
# gives the suite's time.
exec .venv/bin/python -m pytest -n 3 --dist loadscope --no-loadscope-reorder "$@"
