"""Where the web layer's files are: its Jinja templates, in a checkout and installed."""

from __future__ import annotations

from pathlib import Path


def _templates() -> str:
    """The Jinja templates: ``api/templates/`` when installed, else the checkout's top level.

    The checkout keeps ``templates/`` beside ``api/`` (a project rule); the
    wheel ships the same files as ``api/templates/`` (``package-dir`` in
    ``pyproject.toml``), since a top-level ``templates`` would land loose in
    site-packages.
    """
    here = Path(__file__).resolve().parent
    installed = here / "templates"
    return str(installed if installed.is_dir() else here.parent / "templates")


TEMPLATES = _templates()
"""The template folder of the app and the scorepad blueprint (see :func:`_templates`)."""
