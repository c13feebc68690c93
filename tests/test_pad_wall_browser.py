"""The director's round tools and the wall of a 40-player night in chromium (issue 29).

A 40-player Swiss is made and played through the API (round 1 over, round 2 under way
with a 30-minute clock). The wall at 1920 x 1080, its pages turning every 2 s
(``?turn=2``), shows every player's standings row and every table within one cycle of
pages, each on the screen, in type of 28 px or more, with the round clock and the QR
code of the event's page (screenshots tests/artifacts/wall-*.png). The director prints
the round's 20 table cards: in print media four to a sheet, and chromium's A4 PDF of the
page has 5 pages. The players' page lists the round by name ("Ana: table 7 v Bor"),
byes said so. A round whose clock runs out while the test watches: the wall and a
table's sheet count down to "Time is up", and the director's page then offers "time
called" unfolded for each table still playing.
"""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime, timedelta

import pytest
import requests
from browser_kit import AXE, CHROMIUM, Words, axe_problems, overflow, watch_errors
from playwright.sync_api import expect
from test_pad_browser import ARTIFACTS
from test_pad_events_browser import PAGE_EVERY, next_check, server  # noqa: F401  (server: a fixture)

pytestmark = [
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (tests/run.sh installs it)"
    ),
    pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (tests/run.sh)"),
]

FORTY = [f"{first}{n}" for n, first in enumerate(["Ana", "Bor", "Cene", "Dušan", "Eva"] * 8)]
SCREEN = {"width": 1920, "height": 1080}
PHONE = {"width": 360, "height": 740}
t = Words("en")


def api(url: str, method: str, path: str, token: str | None = None, **body) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = requests.request(
        method, f"{url}/api/v1{path}", json=body or None, headers=headers, timeout=30
    )
    assert response.status_code in (200, 201), response.text
    return response.json()


def finish(url: str, match: dict, winner: int) -> None:
    """Gins by seat ``winner`` until the match's game is over (one, worth 105, mostly)."""
    hand = {"kind": "quick", "knocker": winner, "knocker_deadwood": 0, "defender_deadwood": 80}
    path = f"/games/{match['game_id']}/hands"
    while api(url, "POST", path, match["edit_token"], **hand)["sheet"]["status"] != "over":
        pass


def new_event(url: str, players: list[str], rounds: int) -> tuple[dict, str]:
    body = {"name": "Thursday club", "players": players, "format": "swiss", "rounds": rounds}
    made = api(url, "POST", "/events", **body)
    return made, made["director_token"]


@pytest.fixture(scope="module")
def night(server):  # noqa: F811
    """The 40-player Swiss: round 1 played, round 2 paired, 6 of its tables finished, its
    clock at 30 minutes."""
    event, token = new_event(server, FORTY, 5)
    for match in api(server, "POST", f"/events/{event['id']}/rounds", token)["matches"]:
        finish(server, match, match["table"] % 2)
    second = api(server, "POST", f"/events/{event['id']}/rounds", token)
    for match in second["matches"][:6]:
        finish(server, match, 0)
    api(server, "PUT", f"/events/{event['id']}/clock", token, minutes=30)
    return event, token, second


def context_page(browser, viewport, **options):
    page = browser.new_context(viewport=viewport, device_scale_factor=1, **options).new_page()
    watch_errors(page)
    return page


def direct(page, url: str, event_id: str, token: str) -> None:
    """This browser directs the event (the director token pasted on the restore page)."""
    page.goto(f"{url}/events/{event_id}/restore")
    page.get_by_label(t("The director token")).fill(token)
    page.get_by_role("button", name=t("Direct the event on this phone")).click()
    expect(page).to_have_url(re.compile(rf"/events/{event_id}/director"))


SHOWN = """() => {
  const on = (el) => el.getClientRects().length > 0;
  const inside = (el) => { const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; };
  const rows = [...document.querySelectorAll('table.standings tbody tr')].filter(on);
  const tables = [...document.querySelectorAll('ul.tables li')].filter(on);
  return {
    players: rows.map((r) => r.querySelector('th').textContent.trim()),
    tables: tables.map((li) => li.querySelector('.table-no').textContent.trim()),
    off: [...rows, ...tables].filter((el) => !inside(el)).map((el) => el.textContent.trim()),
  };
}"""

SMALL = """() => {
  const small = [];
  for (const el of document.querySelectorAll('#wall-board *')) {
    if (!el.getClientRects().length) continue;
    const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (text && size < 28) small.push(`${el.tagName} ${size}px: ${el.textContent.slice(0, 30)}`);
  }
  return small;
}"""


def test_the_wall_shows_every_row_and_table_within_one_cycle(browser, server, night):  # noqa: F811
    event, _, second = night
    wall = context_page(browser, SCREEN)
    wall.goto(f"{server}/events/{event['id']}/wall?turn=2")
    where = wall.locator(".wall-page")
    expect(where).to_have_text(re.compile(t.pattern("Page %(page)s of %(pages)s")))
    first = where.text_content()
    pages = int(re.findall(r"\d+", first)[-1])
    assert 2 <= pages <= 5
    assert wall.evaluate(SMALL) == []
    standings, tables = wall.evaluate(
        "() => [document.querySelector('table.standings').getBoundingClientRect().right,"
        " document.querySelector('.wall-tables').getBoundingClientRect().left]"
    )
    assert standings <= tables  # side by side, never over each other
    clock = wall.locator(".round-clock")
    expect(clock).to_contain_text(t("Time left: %(time)s", time=""))
    expect(clock.locator(".clock-time")).to_have_text(re.compile(r"^(30:00|29:[0-5]\d)$"))
    qr = wall.locator(".wall-qr svg.qr").bounding_box()
    assert qr["width"] >= 200 and qr["y"] + qr["height"] <= SCREEN["height"]
    assert axe_problems(wall, "the wall of 40 players") == []
    players, tables, seen = set(), set(), []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for _ in range(pages):
        shown = where.text_content()
        page = wall.evaluate(SHOWN)
        assert page["off"] == [], f"{shown}: rows off the screen"
        players |= set(page["players"])
        tables |= set(page["tables"])
        seen.append(shown)
        number = re.findall(r"\d+", shown)[0]
        wall.screenshot(path=str(ARTIFACTS / f"wall-{number}-of-{pages}.png"))
        expect(where).not_to_have_text(shown)  # the next page, turned by itself
    assert len(set(seen)) == pages  # one full cycle: every page once
    # a result comes in: the board is replaced, and paged again at once
    finish(server, second["matches"][6], 1)
    expect(wall.locator("ul.tables li.finished")).to_have_count(7)
    expect(where).to_be_visible()
    assert 0 < wall.locator("table.standings tbody tr:visible").count() < 40
    assert players == set(FORTY)
    assert tables == {t("Table %(table)s", table=n) for n in range(1, 21)}


def test_without_the_script_every_row_is_there(browser, server, night):  # noqa: F811
    event, _, _ = night
    wall = context_page(browser, SCREEN, java_script_enabled=False)
    wall.goto(f"{server}/events/{event['id']}/wall")
    assert wall.locator("table.standings tbody tr:visible").count() == 40
    assert wall.locator("ul.tables li:visible").count() == 20
    expect(wall.locator(".round-clock .clock-time")).to_have_text(re.compile(r"^\d+:\d\d$"))


def test_every_table_card_of_the_round_prints_four_to_an_a4_sheet(browser, server, night):  # noqa: F811
    event, token, _ = night
    page = context_page(browser, PHONE)
    direct(page, server, event["id"], token)
    page.get_by_role(
        "link", name=t("Print every table card of this round (A4, four to a sheet)")
    ).click()
    expect(page).to_have_url(re.compile(rf"/events/{event['id']}/rounds/2/cards$"))
    second = api(server, "GET", f"/events/{event['id']}")["rounds"][1]
    cards = page.locator("article.table-card")
    expect(cards).to_have_count(20)
    assert overflow(page) == [] and axe_problems(page, "a round's table cards") == []
    for match in second["matches"]:
        card = cards.nth(match["table"] - 1)
        expect(card.locator(".card-table")).to_have_text(t("Table %(table)s", table=match["table"]))
        expect(card.locator(".card-players")).to_contain_text(match["players"][0])
        assert card.locator("svg.qr").count() == 1
        link = card.locator(".card-link a").get_attribute("href")
        assert f"/games/{match['game_id']}/join" in link or match["game_id"] in link
    page.emulate_media(media="print")
    sheets = page.locator(".card-sheet")
    expect(sheets).to_have_count(5)
    for i in range(5):
        boxes = [b.bounding_box() for b in sheets.nth(i).locator(".table-card").all()]
        assert len(boxes) == 4
        assert len({(round(b["x"]), round(b["y"])) for b in boxes}) == 4  # two by two
    assert page.locator(".top, footer, .no-print").evaluate_all(
        "els => els.every((el) => getComputedStyle(el).display === 'none')"
    )
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 px an inch
    page.screenshot(path=str(ARTIFACTS / "wall-cards-print.png"), full_page=True)
    pdf = page.pdf(format="A4", print_background=True)
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 5


def test_the_players_page_lists_the_round_by_name(browser, server, night):  # noqa: F811
    event, _, _ = night
    page = context_page(browser, PHONE)
    page.goto(f"{server}/events/{event['id']}")
    second = api(server, "GET", f"/events/{event['id']}")["rounds"][1]
    expected = {}
    for match in second["matches"]:
        a, b = match["players"]
        expected[a] = t(
            "%(name)s: table %(table)s v %(opponent)s", name=a, table=match["table"], opponent=b
        )
        expected[b] = t(
            "%(name)s: table %(table)s v %(opponent)s", name=b, table=match["table"], opponent=a
        )
    lines = page.locator("ul.pairings li")
    expect(lines).to_have_count(40)
    by_name = sorted(expected, key=lambda name: name.replace("š", "s").casefold())
    assert lines.all_text_contents() == [expected[name] for name in by_name]
    assert overflow(page) == [] and axe_problems(page, "the pairings by name") == []
    # an odd night: the bye is said so
    five, token = new_event(server, FORTY[:5], 2)
    paired = api(server, "POST", f"/events/{five['id']}/rounds", token)
    page.goto(f"{server}/events/{five['id']}")
    bye = page.locator("ul.pairings li.bye")
    expect(bye).to_have_text(t("%(name)s: a bye this round", name=paired["byes"][0]))
    expect(page.locator("ul.pairings li")).to_have_count(5)


def one_table_playing(url: str) -> tuple[dict, str, dict, dict]:
    """A 4-player Swiss whose round 1 is paired, its first table over: the event, its
    director token, the finished match and the one still playing."""
    event, token = new_event(url, FORTY[:4], 2)
    first, second = api(url, "POST", f"/events/{event['id']}/rounds", token)["matches"]
    finish(url, first, 0)
    return event, token, first, second


def test_the_clock_counts_down_on_the_wall_a_tables_sheet_and_the_players_page(
    browser,
    server,  # noqa: F811
):
    event, token, first, second = one_table_playing(server)
    api(server, "PUT", f"/events/{event['id']}/clock", token, minutes=20)
    over = context_page(browser, PHONE)  # the finished table's sheet: no clock
    over.goto(f"{server}/games/{first['game_id']}")
    assert over.locator(".round-clock").count() == 0
    for viewport, path in (
        (SCREEN, f"/events/{event['id']}/wall"),
        (PHONE, f"/games/{second['game_id']}"),
        (PHONE, f"/events/{event['id']}"),
    ):
        page = context_page(browser, viewport)
        page.clock.install()  # the page's own time, run on by the test
        page.goto(server + path)
        time = page.locator(".round-clock .clock-time")
        expect(time).to_have_text(re.compile(r"^(20:00|19:[0-5]\d)$"))
        shown = time.text_content()
        page.clock.run_for(3000)
        expect(time).not_to_have_text(shown)  # counting down
        page.clock.fast_forward("20:00")
        expect(page.locator(".round-clock .clock-up")).to_have_text(t("Time is up"))
        expect(page.locator(".round-clock .clock-left")).to_be_hidden()


def test_at_zero_the_director_calls_time_at_each_table_still_playing(
    browser,
    server,  # noqa: F811
):
    event, token, _, second = one_table_playing(server)
    director = context_page(browser, PHONE)
    director.clock.install()  # its time runs, and is run on to its next check at zero
    direct(director, server, event["id"], token)
    assert director.locator(".round-clock").count() == 0
    director.get_by_label(t("Round clock: minutes")).fill("45")
    director.get_by_role("button", name=t("Start the clock")).click()
    time = director.locator(".round-clock .clock-time")
    expect(time).to_have_text(re.compile(r"^(45:00|44:[0-5]\d)$"))
    assert api(server, "GET", f"/events/{event['id']}")["clock"]["minutes"] == 45
    director.get_by_label(t("Round clock: minutes")).fill("0")
    director.get_by_role("button", name=t("Start the clock again")).click()
    expect(director.locator("#err-minutes")).to_have_text(
        t("Type the round's minutes: a whole number from 1 to %(most)s.", most=600)
    )
    # through the API: a minute's round that began 48 s ago, so 12 s are left
    started = datetime.now(UTC) - timedelta(seconds=48)
    path = f"/events/{event['id']}/clock"
    api(server, "PUT", path, token, minutes=1, started=started.isoformat())
    director.goto(f"{server}/events/{event['id']}/director")
    assert director.locator(".end-match.called").count() == 0
    assert director.locator("details.end-match").count() == 1  # folded before zero
    # zero: the page follows the event, "time called" unfolded at the table still playing
    # (its next check for the event made once its own clock says so, not up to 5 s after)
    expect(director.locator(".round-clock .clock-up")).to_have_text(t("Time is up"))
    next_check(director, PAGE_EVERY)
    called = director.locator(".end-match.called")
    expect(called).to_have_count(1)
    alert = "Time is up: %(num)d table is still playing. End it below (time called), or let it"
    alert += " finish."
    plural = "Time is up: %(num)d tables are still playing. End each below (time called), or let"
    plural += " them finish."
    expect(director.get_by_role("alert")).to_have_text(t(alert, plural, num=1))
    assert overflow(director) == [] and axe_problems(director, "time up, director") == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    director.screenshot(path=str(ARTIFACTS / "wall-director-time-up.png"), full_page=True)
    called.get_by_role("radio", name=second["players"][0]).check()  # level totals: who wins
    called.get_by_role("button", name=t("End the match")).click()
    expect(director.locator(".end-match")).to_have_count(0)
    ended = api(server, "GET", f"/events/{event['id']}")["rounds"][0]["matches"][1]
    assert ended["finished"] and ended["ended_by_director"]
    assert ended["winner"] == second["players"][0]
