"""Issue 29's night on the pages: a 40-player Swiss of 5 rounds, two withdrawals after
round 2 and a late entry before round 3, run from a director's phone with two table
phones and the wall in chromium.

The director (a 360 x 740 phone) creates the event on /events/new, pairs every round on
the director page, and after round 2 withdraws two players and enters a late one there.
In rounds 1, 3 (the first after the changes) and 5, tables 1 and 2 are two more phones
(contexts of their own): they open their table card's hand-over link, take the scoring
and enter a quick hand on the pad's form that ends their game. Every other result is
entered through the JSON API with the match's derived edit token, to keep the test
fast (the winners drawn by a seeded random). The wall (1920 x 1080, its own context) is
followed through one cycle of its pages, once in round 3 and once on the final
standings: its clock paused and run on by a page's time (10 s) at a time, the wall's own
timer turns each page with no wait. Within the cycle every one of the 41 standings rows
and every table of the round is on the screen, none cut (no column past the standings'
edge, no name or withdrawn mark cut short), in type of 28 px or more; each page is a
screenshot (tests/artifacts/night-wall-*.png; the director's page night-director-*.png).

Checked: nobody meets anybody twice, the standings equal
:func:`event_kit.reference_standings` recomputed from the games' own final sheets and
the byes, and the withdrawn players are marked so on the API's standings and the wall.

Measured on the shared 2-core machine at a load average of 16 to 22: 75 to 100 s for
the test, of which 26 to 28 s of CPU for the test, its server and chromium together (a
quiet machine was not to be had).
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
import requests
from browser_kit import watch_errors
from event_kit import reference_standings, served_lines
from playwright.sync_api import expect
from test_pad_browser import ARTIFACTS, quick_hand
from test_pad_events_browser import (  # noqa: F401  (server is a fixture)
    PHONE,
    checked,
    context_page,
    event_json,
    next_check,
    pytestmark,
    server,
    t,
)
from test_pad_events_formats_browser import create_on_page, finals, pair_on_page, play_by_api
from test_pad_wall_browser import SMALL

FORTY = [
    *("Ana Novak", "Bor Kralj", "Cene Zupan", "Dušan Horvat", "Eva Kos", "Filip Vidmar"),
    *("Gal Golob", "Helena Turk", "Iztok Božič", "Jana Kovač", "Klemen Mlakar", "Lara Zajc"),
    *("Miha Potočnik", "Nina Hribar", "Oskar Petek", "Petra Kavčič", "Rok Oblak"),
    *("Sara Rozman", "Tilen Kolar", "Urša Kastelic", "Vid Žagar", "Zala Koren", "Žiga Mežnar"),
    *("Alenka Bizjak", "Blaž Dolenc", "Cvetka Zupančič", "Domen Jerman", "Ema Kern"),
    *("Franc Pirc", "Gaja Sever", "Hana Lesjak", "Igor Rupnik", "Jure Jazbec", "Katja Leban"),
    *("Luka Pavlin", "Maja Zorko", "Nejc Štrukelj", "Borislava Kovačević-Novak", "Pia Erjavec"),
    "Rene Hočevar",
]
GONE = ["Eva Kos", "Borislava Kovačević-Novak"]
"""Withdrawn after round 2: they play no round from 3 on."""
LATE = "Tjaša Medved"
"""Entered before round 3."""
SCREEN = {"width": 1920, "height": 1080}

SHOWN = """() => {
  const board = document.querySelector('[data-wall]');
  const on = (el) => el.getClientRects().length > 0;
  const name = (row) => row.querySelector('th bdi').textContent.trim();
  const inside = (el) => { const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; };
  const rows = [...board.querySelectorAll('table.standings tbody tr')].filter(on);
  const tables = [...board.querySelectorAll('ul.tables li')].filter(on);
  const where = board.querySelector('.wall-page');
  const edge = board.querySelector('.wall-standings').getBoundingClientRect().right + 1;
  return {
    page: Number(board.dataset.page || 1),
    pages: where.hidden ? 1 : Number(where.textContent.match(/\\d+/g).pop()),
    players: rows.map(name),
    marked: rows.filter((r) => r.querySelector('th .small')).map(name),
    tables: tables.map((li) => (li.querySelector('.table-no') || li).textContent.trim()),
    off: [...rows, ...tables].filter((el) => !inside(el)).map((el) => el.textContent.trim()),
    clipped: [...board.querySelectorAll('table.standings thead th'), ...rows.map(
      (r) => [...r.children, ...r.querySelectorAll('.withdrawn')]).flat()].filter(on).filter(
      (el) => el.getBoundingClientRect().right > edge || el.scrollWidth > el.clientWidth + 1,
    ).map((el) => el.textContent.trim()),
  };
}"""
"""What the wall shows now: its page, the standings rows and tables on the screen, the
rows marked withdrawn, any row not wholly on the screen, and any standings cell (or
withdrawn mark) cut: past the standings' right edge or wider than its box (an ellipsis)."""


def follow_the_wall(wall, name: str) -> dict:
    """Follow one cycle of the wall's pages, each turned by the wall's own timer: the
    page's clock (Playwright's, installed before the wall was opened) is paused and run
    on by one page's time (``data-turn``, 10 s by default) at a time, so each page is
    looked at and photographed as it stands, with no wait; the clock runs again after.
    The union of what the pages showed, and their number."""
    wall.clock.pause_at(wall.evaluate("Date.now()") / 1000 + 1)  # (seconds, in Python)
    turn = wall.evaluate("Number(document.querySelector('[data-wall]').dataset.turn)")
    seen: list[dict] = []
    for _ in range(wall.evaluate(SHOWN)["pages"]):
        now = wall.evaluate(SHOWN)
        shot = ARTIFACTS / f"night-wall-{name}-{now['page']}-of-{now['pages']}.png"
        wall.screenshot(path=str(shot))
        assert now["off"] == [], f"page {now['page']}: rows off the screen"
        assert now["clipped"] == [], f"page {now['page']}: cut by the standings' edge"
        assert wall.evaluate(SMALL) == [], f"page {now['page']}: type under 28 px"
        seen.append(now)
        wall.clock.run_for(turn * 1000)
    assert wall.evaluate(SHOWN)["page"] == seen[0]["page"]  # the cycle is over: page 1 again
    assert sorted(shown["page"] for shown in seen) == list(range(1, len(seen) + 1))
    wall.clock.resume()
    return {
        "pages": len(seen),
        "players": [name for shown in seen for name in shown["players"]],
        "marked": {name for shown in seen for name in shown["marked"]},
        "tables": [table for shown in seen for table in shown["tables"]],
    }


def expect_the_whole_night(wall, players: list[str], round_: dict, name: str) -> None:
    """Within one cycle of its pages the wall has shown every standings row once and every
    table (and bye) of ``round_`` once, the withdrawn players marked."""
    shown = follow_the_wall(wall, name)
    assert 2 <= shown["pages"] <= 5
    assert sorted(shown["players"]) == sorted(players)  # each row on one page only
    assert shown["marked"] == set(GONE)
    tables = [t("Table %(table)s", table=match["table"]) for match in round_["matches"]]
    byes = [t("%(name)s has a bye this round.", name=bye) for bye in round_["byes"]]
    assert sorted(shown["tables"]) == sorted(tables + byes)


def roster_changes_on_the_page(director) -> None:
    """The director withdraws GONE and enters LATE on the director page."""
    for name in GONE:
        director.locator("#withdraw-player").select_option(name)
        director.get_by_role("button", name=t("Withdraw the player")).click()
        expect(director.locator("#roster-part .notice")).to_contain_text(f"{name} is withdrawn")
    director.get_by_role("form", name=t("Late entry")).get_by_label(t("Player")).fill(LATE)
    director.get_by_role("button", name=t("Add the player")).click()
    expect(director.locator("#roster-part .notice")).to_contain_text(f"{LATE} is entered")


def phones_play(director, tables, url: str, event_id: str, number: int, matches) -> None:
    """Tables 1 and 2 open their card's hand-over link, take the scoring and enter one
    quick hand on the pad's form: a gin against 75 or more, worth 100 or more, ends the
    game (the winner and the margin by round and table)."""
    for phone, match in zip(tables, matches[:2], strict=True):
        director.goto(f"{url}/events/{event_id}/tables/{match['game_id']}/card")
        link = director.locator(".card-link a").get_attribute("href")
        phone.goto(link)
        phone.get_by_role("button", name=t("Keep the score on this phone")).click()
        expect(phone).to_have_url(re.compile(rf"/games/{match['game_id']}"))
        winner = match["players"][(number + match["table"]) % 2]
        quick_hand(phone, winner, "Gin", None, str(75 + (7 * number + match["table"]) % 24))
        expect(phone.locator("#over-title")).to_have_text(
            t("Game over: %(name)s wins", name=winner)
        )
        sheet = requests.get(f"{url}/api/v1/games/{match['game_id']}", timeout=10).json()
        assert sheet["status"] == "over" and sheet["result"]["winner"] == match["players"].index(
            winner
        )
    director.goto(f"{url}/events/{event_id}/director")


@pytest.mark.cost(50)
def test_forty_players_two_withdrawals_and_a_late_entry_on_the_pages(server, browser):  # noqa: F811
    assert len(set(FORTY)) == 40 and set(GONE) <= set(FORTY)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    rng = random.Random(29)
    director = context_page(browser, PHONE)
    tables = [context_page(browser, PHONE), context_page(browser, PHONE)]
    wall = browser.new_context(viewport=SCREEN, device_scale_factor=1).new_page()
    for page in (director, *tables, wall):
        watch_errors(page)
    event_id = create_on_page(director, server, "Thursday club", "Swiss", FORTY, rounds=5)
    wall.clock.install()  # the wall's own time, paused and run on to turn its pages
    wall.goto(f"{server}/events/{event_id}/wall")
    wall.evaluate("window.keptWithoutReload = true")
    everyone = [*FORTY, LATE]
    for number in range(1, 6):
        if number == 3:
            roster_changes_on_the_page(director)
            next_check(wall)
            expect(wall.locator("table.standings tbody tr")).to_have_count(41)
        pair_on_page(director, number)
        round_ = event_json(server, event_id)["rounds"][-1]
        matches = round_["matches"]
        seated = [name for match in matches for name in match["players"]] + round_["byes"]
        playing = FORTY if number < 3 else [name for name in everyone if name not in GONE]
        assert sorted(seated) == sorted(playing)  # everyone playing once, nobody else
        if number == 3:
            next_check(wall)
            expect(wall.locator("h1")).to_contain_text(t("Round %(number)s", number=3))
            checked(director, "director, round 3 paired")
            director.screenshot(path=str(ARTIFACTS / "night-director-round-3.png"), full_page=True)
            expect_the_whole_night(wall, everyone, round_, "round-3")
        on_phones = 2 if number % 2 else 0  # rounds 1, 3 and 5
        if on_phones:
            phones_play(director, tables, server, event_id, number, matches)
        for match in matches[on_phones:]:
            play_by_api(server, event_id, number, match, rng.randrange(2))
        director.goto(f"{server}/events/{event_id}/director")

    expect(director.get_by_role("button", name=t("Pair the next round"))).to_be_disabled()
    event = event_json(server, event_id)
    assert event["over"]
    played = finals(server, event_id)
    pairs = Counter(frozenset(players) for players, _, _ in played)
    assert len(played) == 20 * 2 + 19 * 3 and set(pairs.values()) == {1}  # no rematch
    byes = Counter(name for round_ in event["rounds"] for name in round_["byes"])
    assert len(byes) == 3 and set(byes.values()) == {1}  # 39 players: a bye each round
    expected = reference_standings(everyone, played, swiss=True, byes=byes)
    assert served_lines(event["standings"]) == expected
    marks = {line["player"]: line["withdrawn"] for line in event["standings"]}
    assert marks == {name: 3 if name in GONE else None for name in everyone}

    next_check(wall)
    expect(wall.locator("#standings-title")).to_have_text(t("Final standings"))
    expect_the_whole_night(wall, everyone, event["rounds"][-1], "final")
    rows = wall.locator("table.standings tbody tr th")
    names = [re.sub(r"\s*withdrawn from round \d+$", "", text) for text in rows.all_inner_texts()]
    assert names == [line["player"] for line in event["standings"]]  # in the served order
    assert wall.evaluate("window.keptWithoutReload") is True
    director.screenshot(path=str(ARTIFACTS / "night-director-final.png"), full_page=True)
