"""nginx's error pages are static files of the package, and its configuration names them.

``api/nginx/errors/`` holds what :mod:`api.nginx.pages` writes from the catalogs (after a
change of their words or a catalog: ``python -m api.nginx.pages``); the site from
``api/nginx/site.conf.j2`` sends every refusal to one of those files, in every language,
and inlines none. The files served (headers, status, language) are checked through a
real nginx in test_front.py, test_refused_bodies.py, test_live_caps.py and test_deploy.py.
"""

from __future__ import annotations

import re

from api import nginx
from api.i18n import LANGUAGES
from api.nginx import pages

SITE = nginx.Site(listen=("127.0.0.1:8000",), app_socket="/r/g.sock", publish_socket="/r/p.sock")


def test_the_pages_on_disk_are_what_the_catalogs_make():
    on_disk = {
        str(path.relative_to(nginx.ERROR_PAGES)): path.read_text(encoding="utf-8")
        for path in nginx.ERROR_PAGES.rglob("*")
        if path.is_file()
    }
    made = pages.files()
    stale = sorted(name for name in made if on_disk.get(name) != made[name])
    assert stale == [], f"run python -m api.nginx.pages: {stale} differ"
    assert sorted(on_disk) == sorted(made)


def test_every_refusal_goes_to_a_page_file_in_every_language():
    text = nginx.site(SITE)
    targets = re.findall(r"error_page (\d+) (?:=\d+ )?(\S+);", text)
    assert {int(status) for status, _ in targets} >= set(nginx.ERRORS)
    for _, target in targets:
        if not target.startswith(nginx.ERROR_PATH):
            continue  # the stream's unknown game: a location of its own
        name = target.removeprefix(nginx.ERROR_PATH)
        for lang in LANGUAGES:
            path = nginx.ERROR_PAGES / name.replace(nginx.PAGE_LANGUAGE, lang)
            assert path.is_file(), target
    assert f'alias "{nginx.ERROR_PAGES}/";' in text


def test_the_configuration_inlines_no_page():
    for text in (nginx.site(SITE), nginx.club_site("scores.example.org")):
        assert "<html" not in text and "too_large" not in text
        assert text.count("location ") <= 12, text.count("location ")
