"""Where the browser tests find chromium: Debian's package, never a downloaded browser."""

from __future__ import annotations

import shutil

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
"""The chromium binary (tests/run.sh installs Debian's); the browser tests skip without it."""

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
"""chromium's command line: no sandbox (containers), no network chatter of its own."""
