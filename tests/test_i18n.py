"""The six languages (issue 20): the catalogs are complete, and each request gets its language.

The catalog check extracts every message from the code and templates as
``pybabel extract`` does (Babel in-process, with the map in
``api/translations/babel.cfg``), then reads each language's ``messages.po``:
every extracted message must be there, translated, not fuzzy, with all the
language's plural forms (Babel's count: Slovenian 4, Polish 3, ...) and the
same ``%(name)s`` placeholders as the English; and the shipped ``messages.mo``
must be exactly what compiling that ``.po`` gives. The checker is itself
tried on a small catalog made here with each of those faults.

The language choice goes through the app: ``Accept-Language``, the switch's
cookie, the switch's form.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.catalog import PYTHON_FORMAT, Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from api import i18n

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != "en"]
KEYWORDS = {**DEFAULT_KEYWORDS, "lazy_gettext": None, "N_": None}
"""What ``pybabel extract -k lazy_gettext -k N_`` looks for (api/translations/README)."""


def extracted(root: Path = ROOT) -> Catalog:
    """Every message of the code and templates under ``root``, as ``pybabel extract`` finds them."""
    with open(root / "api/translations/babel.cfg", encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    catalog = Catalog()
    for filename, lineno, message, comments, context in extract_from_dir(
        str(root),
        method_map,
        options_map,
        keywords=KEYWORDS,
        comment_tags=("Translators:",),
        strip_comment_tags=True,
    ):
        catalog.add(
            message, locations=[(filename, lineno)], auto_comments=comments, context=context
        )
    return catalog


def placeholders(text: str) -> Counter[str]:
    """The ``%`` placeholders of ``text`` (``%(name)s``, ``%d``), ``%%`` not counted."""
    return Counter(
        f"%({name})" + conversion if name else "%" + conversion
        for name, _flags, conversion in PYTHON_FORMAT.findall(text)
        if conversion != "%"
    )


def catalog_problems(template: Catalog, folder: Path, lang: str) -> list[str]:
    """Everything wrong with ``lang``'s catalog in ``folder`` (``<lang>/LC_MESSAGES/``)
    against the extracted ``template``: one line a problem, naming the message."""
    where = folder / lang / "LC_MESSAGES"
    if not (where / "messages.po").is_file():
        return [f"{lang}: no catalog {where / 'messages.po'}"]
    with open(where / "messages.po", "rb") as po:
        catalog = read_po(po, locale=lang)
    forms = get_plural(lang).num_plurals
    problems = []
    if catalog.num_plurals != forms:
        problems.append(f"{lang}: Plural-Forms has {catalog.num_plurals} forms, not {forms}")
    for wanted in template:
        if not wanted.id:
            continue
        name = repr(wanted.id if isinstance(wanted.id, str) else wanted.id[0])
        message = catalog.get(wanted.id, wanted.context)
        if message is None:
            problems.append(f"{lang}: missing {name}")
            continue
        if message.fuzzy:
            problems.append(f"{lang}: fuzzy {name}")
        if wanted.pluralizable:
            english = placeholders(wanted.id[0]) | placeholders(wanted.id[1])
            strings = message.string if isinstance(message.string, (list, tuple)) else ()
            if len(strings) != forms or not all(strings):
                problems.append(f"{lang}: not all {forms} plural forms of {name}")
        else:
            english = placeholders(wanted.id)
            strings = (message.string,) if isinstance(message.string, str) else ()
            if not all(strings) or not strings:
                problems.append(f"{lang}: untranslated {name}")
        for string in strings:
            if string and placeholders(string) != english:
                problems.append(
                    f"{lang}: placeholders of {name}: {sorted(placeholders(string))}"
                    f" in {string!r}, not {sorted(english)}"
                )
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    mo = where / "messages.mo"
    if not mo.is_file() or mo.read_bytes() != compiled.getvalue():
        problems.append(f"{lang}: {mo} is not the compiled messages.po (run pybabel compile)")
    return problems


@pytest.fixture(scope="module")
def template() -> Catalog:
    return extracted()


def test_extraction_finds_the_pages_and_the_code(template):
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    assert {"Check a knock", "Language", "New game"} <= ids
    assert any(path.startswith("templates/") for m in template for path, _line in m.locations), (
        "no message from the templates"
    )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_in_each_catalog(template, lang):
    problems = catalog_problems(template, i18n.TRANSLATIONS, lang)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])


def _write(folder: Path, catalog: Catalog, lang: str, compile_it: bool = True) -> None:
    where = folder / lang / "LC_MESSAGES"
    where.mkdir(parents=True, exist_ok=True)
    with open(where / "messages.po", "wb") as po:
        write_po(po, catalog)
    if compile_it:
        with open(where / "messages.po", "rb") as po:
            read = read_po(po, locale=lang)
        with open(where / "messages.mo", "wb") as mo:
            write_mo(mo, read)


def test_the_checker_finds_each_kind_of_fault(tmp_path):
    template = Catalog()
    template.add("Language")
    template.add("%(name)s deals", context=None)
    template.add(("%(num)d game", "%(num)d games"))
    template.add("Undo")
    template.add("Replay")
    good = Catalog(locale="sl")
    good.add("Language", "Jezik")
    good.add("%(name)s deals", "%(name)s deli")
    good.add(
        ("%(num)d game", "%(num)d games"),
        ("%(num)d igra", "%(num)d igri", "%(num)d igre", "%(num)d iger"),
    )
    good.add("Undo", "Razveljavi")
    good.add("Replay", "Ponovi")
    _write(tmp_path / "good", good, "sl")
    assert catalog_problems(template, tmp_path / "good", "sl") == []

    bad = Catalog(locale="sl")
    bad.add("Language", "")
    bad.add("%(name)s deals", "%(ime)s deli")
    bad.add(("%(num)d game", "%(num)d games"), ("%(num)d igra", "%(num)d igri", "", ""))
    bad.add("Undo", "Razveljavi", flags=["fuzzy"])
    _write(tmp_path / "bad", bad, "sl")
    (tmp_path / "bad/sl/LC_MESSAGES/messages.mo").write_bytes(b"stale")
    found = "\n".join(catalog_problems(template, tmp_path / "bad", "sl"))
    for fault in (
        "sl: untranslated 'Language'",
        "sl: placeholders of '%(name)s deals'",
        "sl: not all 4 plural forms of '%(num)d game'",
        "sl: fuzzy 'Undo'",
        "sl: missing 'Replay'",
        "is not the compiled messages.po",
    ):
        assert fault in found
    assert catalog_problems(template, tmp_path / "bad", "pl") == [
        f"pl: no catalog {tmp_path / 'bad/pl/LC_MESSAGES/messages.po'}"
    ]


# ----------------------------------------------------------------------------- the choice


def _lang(response) -> str:
    return re.search(r'<html lang="([^"]+)" dir="ltr"', response.get_data(as_text=True)).group(1)


def _token(client) -> str:
    page = client.get("/").get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


@pytest.mark.parametrize(
    ("accept", "lang"),
    [
        ("sl", "sl"),
        ("pl-PL,pl;q=0.9,en;q=0.5", "pl"),
        ("no", "nb"),
        ("de, fr;q=0.5", "fr"),
        ("de", "en"),
    ],
)
def test_accept_language_sets_the_page_language(client, accept, lang):
    assert _lang(client.get("/", headers={"Accept-Language": accept})) == lang


def test_the_cookie_overrides_accept_language_and_unknown_values_are_ignored(client):
    client.set_cookie(i18n.LANG_COOKIE, "fr")
    assert _lang(client.get("/check", headers={"Accept-Language": "sl"})) == "fr"
    client.set_cookie(i18n.LANG_COOKIE, "xx")
    assert _lang(client.get("/check", headers={"Accept-Language": "sl"})) == "sl"


def test_every_page_has_the_switch_with_each_language_in_its_own_name(client):
    for page in (client.get("/"), client.get("/games/nope")):
        body = page.get_data(as_text=True)
        assert 'action="/language"' in body and '<label for="language">' in body
        for code, name in i18n.LANGUAGE_NAMES.items():
            assert f'<option value="{code}" lang="{code}"' in body and f">{name}</option>" in body


def test_the_switch_sets_the_cookie_and_goes_back(client):
    response = client.post(
        "/language", data={"csrf_token": _token(client), "lang": "el", "next": "/check?x=1"}
    )
    assert response.status_code == 303 and response.headers["Location"] == "/check?x=1"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("sk_lang=el;")
    assert "Max-Age=10368000" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert _lang(client.get("/check", headers={"Accept-Language": "fr"})) == "el"


@pytest.mark.parametrize("bad", ["https://evil.example/", "//evil.example/x", "", None])
def test_the_switch_goes_home_from_a_bad_next_like_the_settings(client, bad):
    data = {"csrf_token": _token(client), "lang": "pl"}
    if bad is not None:
        data["next"] = bad
    for route in ("/language", "/settings"):
        response = client.post(route, data=data)
        assert response.status_code == 303 and response.headers["Location"] == "/"


def test_the_switch_refuses_a_control_character_and_an_unknown_language(client):
    response = client.post(
        "/language", data={"csrf_token": _token(client), "lang": "pl", "next": "/\t/evil.example"}
    )
    assert response.status_code == 400 and "control character" in response.get_data(as_text=True)
    response = client.post("/language", data={"csrf_token": _token(client), "lang": "de"})
    assert response.status_code == 400
    assert "lang: choose one of the languages offered (en, sl, pl, fr, nb, el)." in (
        response.get_data(as_text=True)
    )
    assert "Set-Cookie" not in response.headers or "sk_lang" not in response.headers["Set-Cookie"]


def test_the_switch_needs_the_form_token(client):
    response = client.post("/language", data={"lang": "pl", "next": "/"})
    assert response.status_code == 400 and "sk_lang" not in response.headers.get("Set-Cookie", "")


SHOWN_ANOTHER_WAY = {
    "rematch": "a swap's rematch: the swap page asks to confirm it",
    "round_paired": "a double tap on Pair: the director's page shows the round",
    "round_unfinished": "another phone's round: the director's page shows where things are",
}
"""The club night's refusals the scorepad answers with a page of its own, not in words."""


def test_every_refusal_of_a_club_night_has_the_scorepads_words():
    """The director's phone words every refusal of the events' core and store in its
    language (api.pad.wordings), none in the core's English (``no_pairing``: a Swiss
    left with only rematches; ``no_round``: a clock before any round)."""
    from api.pad.wordings import WORDINGS

    top = ROOT / "scorekeeper"
    sources = [*top.glob("event*.py"), *(top / "store").glob("event*.py")]
    raised = {code for path in sources for code in re.findall(r'code="(\w+)"', path.read_text())}
    assert {"no_pairing", "no_round", "event_over"} <= raised
    assert raised - set(WORDINGS) == set(SHOWN_ANOTHER_WAY)
