"""nginx's error pages as static files: ``errors/`` beside this module, served by nginx.

The API's JSON error (``errors/<status>.json``) and the scorepad's HTML page in each
language (``errors/<lang>/<status>.html``, its words from the gettext catalogs, English
where a catalog has none) for each of :data:`api.nginx.ERRORS`, named by nginx's status.
They are files of the package (they ship in the wheel), written by
``python -m api.nginx.pages`` after a change of their words or of a catalog;
``tests/test_nginx_pages.py`` checks the files say what this module writes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from babel.numbers import format_decimal
from babel.support import Translations

from ..i18n import LANGUAGES, N_, TRANSLATIONS
from . import ERROR_PAGES, ERRORS, MAX_BODY

PAGE_WORDS = {
    400: N_("The request could not be read."),
    408: N_("The page took too long to arrive: nothing was saved. Try again."),
    413: N_("That form is too large (over %(bytes)s bytes): nothing was saved."),
    414: N_("That address is too long."),
    494: N_("The request's header fields are too large."),
    497: N_("This address speaks HTTPS only: open it with https://."),
    429: N_("Too many connections at once from this address: try again in a moment."),
    502: N_("The server is not answering: nothing was saved. Try again in a moment."),
    503: N_("The server is busy: nothing was saved. Try again in a moment."),
    504: N_("The server took too long to answer: look at the sheet before sending again."),
}
"""What the scorepad's pages say for each of :data:`~api.nginx.ERRORS` (its paths are not
the API's), in English; each language's page says it from that language's catalog."""


def body(status: int) -> str:
    """The API's JSON error for nginx's ``status``, as :mod:`api.errors` answers."""
    _, code, message, field = ERRORS[status]
    return json.dumps({"error": {"code": code, "message": message, "field": field}})


def page(status: int, lang: str) -> str:
    """The scorepad's error page for ``status`` in ``lang`` (the pad's style sheet, no script),
    its words from the language's catalog (English where it has none)."""
    words = Translations.load(str(TRANSLATIONS), [lang])
    message = words.gettext(PAGE_WORDS[status]) % {"bytes": format_decimal(MAX_BODY, locale=lang)}
    back = words.gettext("Back to the start")
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{message}</title><link rel="stylesheet" href="/static/pad.css"></head>'
        f'<body><main id="main"><h1>{message}</h1>'
        f'<p><a href="/">{back}</a></p></main></body></html>'
    )


def files() -> dict[str, str]:
    """Every page: its path under ``errors/`` -> its text."""
    made = {f"{status}.json": body(status) for status in ERRORS}
    for lang in LANGUAGES:
        made |= {f"{lang}/{status}.html": page(status, lang) for status in ERRORS}
    return made


def write(folder: Path = ERROR_PAGES) -> None:
    """Write :func:`files` into ``folder``."""
    for name, text in files().items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else ERROR_PAGES)
