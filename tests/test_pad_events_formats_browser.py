"""A Swiss night and a double-elimination cup in chromium: the director's phone, two table
phones and the wall (issue 22; the round robin is test_pad_events_browser.py).

Each event is made on /events/new and every round is paired on the director page. In
round 1 tables 1 and 2 are phones that join from their table cards; the other matches
are played through the JSON API with their derived edit tokens, the winner chosen by
the test (the better seed, with upsets). In the Swiss, round 2's table 1 is ended by the
director on the page ("Time called") after one hand. The wall, in its own context,
ends on the final standings the API serves, and those equal
:func:`event_kit.reference_standings` computed from the games' own final totals (the
director's result for the match ended on the page).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter

import pytest
import requests
from event_kit import reference_standings, seats_to_win, served_lines
from playwright.sync_api import expect
from test_api_event_play import better_seed_wins
from test_api_events import quick
from test_pad_events_browser import (  # noqa: F401  (server is a fixture)
    PAGE_EVERY,
    PHONE,
    SECRET,
    WALL,
    checked,
    context_page,
    event_json,
    finish_on_phone,
    next_check,
    pytestmark,
    server,
    shot,
    t,
)

from scorekeeper.store.events import match_key
from scorekeeper.store.games import derive_token


def create_on_page(director, url: str, name: str, fmt: str, players, rounds=None) -> str:
    """The director makes the event on /events/new with new names; its id."""
    director.goto(url + "/events/new")
    director.fill("#event-name", name)
    director.locator("label.choice", has_text=re.compile(f"^{t(fmt)}$")).click()
    if rounds is not None:
        director.fill("#rounds", str(rounds))
    director.fill("#new-players", "\n".join(players))
    director.get_by_role("button", name=t("Create the event")).click()
    # the event is made: its recovery card first (shown once), then the director's page
    expect(director.locator("#recovery-title")).to_have_text(t("The director's recovery card"))
    director.get_by_role("link", name=t("Go to the director's page")).click()
    expect(director).to_have_url(re.compile(r"/events/[\w-]+/director$"))
    return director.url.rsplit("/", 2)[1]


def pair_on_page(director, number: int) -> None:
    director.get_by_role("button", name=t("Pair the next round")).click()
    expect(director.locator("p.notice")).to_contain_text(
        t("Round %(number)s is paired: hand each table its card.", number=number)
    )


def token(event_id: str, number: int, match: dict) -> dict:
    key = match_key(event_id, number, match["table"])
    return {"Authorization": f"Bearer {derive_token(SECRET, match['game_id'], key)}"}


def play_by_api(url: str, event_id: str, number: int, match: dict, winner: int) -> None:
    """Quick hands (:func:`event_kit.seats_to_win`) until the match's game is over."""
    margin = (7 * number + 5 * match["table"]) % 31
    hands = f"{url}/api/v1/games/{match['game_id']}/hands"
    for knocker, own, other in itertools.cycle(seats_to_win(winner, margin)):
        response = requests.post(
            hands, json=quick(knocker, own, other), headers=token(event_id, number, match)
        )
        assert response.status_code == 201, response.text
        if response.json()["sheet"]["status"] == "over":
            return


def finals(url: str, event_id: str) -> list[tuple[list[str], list[int], int]]:
    """Every finished match so far: (players, final totals, winner's index), from each
    game's own sheet, or the director's result for a match ended on the page."""
    found = []
    for round_ in event_json(url, event_id)["rounds"]:
        for match in round_["matches"]:
            if not match["finished"]:
                continue
            if match["ended_by_director"]:
                totals, winner = match["totals"], match["players"].index(match["winner"])
            else:
                sheet = requests.get(f"{url}/api/v1/games/{match['game_id']}").json()
                assert sheet["status"] == "over"
                totals, winner = sheet["result"]["final"], sheet["result"]["winner"]
            found.append((match["players"], totals, winner))
    return found


def phones_play_round_one(director, tables, url: str, event_id: str, matches) -> None:
    """Tables 1 and 2 join from their cards and play on their phones."""
    for phone, match in zip(tables, matches[:2], strict=True):
        director.goto(f"{url}/events/{event_id}/tables/{match['game_id']}/card")
        link = director.locator(".card-link a").get_attribute("href")
        finish_on_phone(phone, url, link, 1, match)
    director.goto(f"{url}/events/{event_id}/director")


def wall_shows(wall, url: str, event_id: str, count: int) -> None:
    """The wall (never reloaded) ends on the API's final standings."""
    standings = requests.get(f"{url}/api/v1/events/{event_id}/standings").json()["standings"]
    expect(wall.locator("#standings-title")).to_have_text(t("Final standings"), timeout=2000)
    rows = wall.locator("table.standings tbody tr")
    expect(rows).to_have_count(count)
    names = [rows.nth(i).locator("th").inner_text().strip() for i in range(count)]
    assert names == [line["player"] for line in standings]
    assert wall.evaluate("window.keptWithoutReload") is True


@pytest.mark.cost(45)
def test_a_sixteen_player_swiss_on_the_pages(server, browser):  # noqa: F811
    sixteen = [f"Igralec {seed:02}" for seed in range(1, 17)]
    director = context_page(browser, PHONE)
    director.clock.install()  # its time runs, and is run on to its next check below
    tables = [context_page(browser, PHONE), context_page(browser, PHONE)]
    wall = context_page(browser, WALL)
    event_id = create_on_page(director, server, "Swiss night", "Swiss", sixteen, rounds=4)
    wall.goto(f"{server}/events/{event_id}/wall")
    wall.evaluate("window.keptWithoutReload = true")
    for number in range(1, 5):
        pair_on_page(director, number)
        matches = event_json(server, event_id)["rounds"][-1]["matches"]
        assert sorted(name for m in matches for name in m["players"]) == sorted(sixteen)
        if number == 2:  # winners meet winners, losers meet losers
            winners = {players[won] for players, _, won in finals(server, event_id)}
            assert all(len(winners & set(m["players"])) in (0, 2) for m in matches)
        start = 0
        if number == 1:
            phones_play_round_one(director, tables, server, event_id, matches)
            start = 2
        if number == 2:  # one hand at table 1, then time is called on the page
            first = matches[0]
            hand = quick(1, 0, 30)  # the second player gins: 25 + 30
            response = requests.post(
                f"{server}/api/v1/games/{first['game_id']}/hands",
                json=hand,
                headers=token(event_id, 2, first),
            )
            assert response.status_code == 201
            director.goto(f"{server}/events/{event_id}/director")
            table = director.locator("ul.tables li").nth(0)
            table.get_by_text(t("Time called: end this match")).click()
            # the standings, scrolled sideways, are replaced where they were scrolled to (they
            # fit a 360 px phone in English: a rule added to the page's style sheet, which the
            # replaced part keeps, makes them wider, as a long language's columns are)
            standings = "#standings-part .scroll"
            director.evaluate(
                "document.styleSheets[0].insertRule('#standings-part table { min-width: 640px }')"
            )
            assert director.evaluate(
                f"""() => {{
                  const box = document.querySelector("{standings}");
                  box.scrollLeft = 30;
                  box.dataset.old = "yes";
                  return box.scrollLeft === 30;
                }}"""
            ), "the standings do not scroll sideways at 360 px"
            # the page follows the event, but not under an open "Time called" form: table 2's
            # result comes (the page fetched it) and waits until the form is closed
            with director.expect_response(
                lambda r: r.url.endswith("/director") and r.status == 200
            ):
                play_by_api(server, event_id, number, matches[1], 0)
                next_check(director, PAGE_EVERY)
            director.wait_for_function(f"() => !document.querySelector('{standings}').dataset.old")
            assert director.evaluate(f"document.querySelector('{standings}').scrollLeft") == 30
            director.evaluate(f"document.querySelector('{standings}').scrollLeft = 0")  # shots
            expect(table.locator("details")).to_have_attribute("open", "")
            expect(director.locator("ul.tables li").nth(1)).to_have_class("playing")
            table.get_by_text(t("Time called: end this match")).click()
            next_check(director, PAGE_EVERY)
            expect(director.locator("ul.tables li").nth(1)).to_have_class("finished")
            # the replaced part keeps the focus where it was: on table 1's summary
            expect(table.locator("summary")).to_be_focused()
            table.get_by_text(t("Time called: end this match")).click()
            expect(table.get_by_role("radio", name=first["players"][1], exact=True)).to_be_checked()
            checked(director, "director, time called")
            shot(director, "director-time-called")
            table.get_by_role("button", name=t("End the match")).click()
            expect(table.locator(".winner-chip")).to_contain_text(first["players"][1])
            start = 2
        for match in matches[start:]:
            upset = (number + match["table"]) % 3 == 0
            play_by_api(
                server, event_id, number, match, better_seed_wins(match["players"], sixteen, upset)
            )
        if number == 2:  # the director's page, left open, turns the pair button on by itself
            director.evaluate("window.keptWithoutReload = true")
            next_check(director, PAGE_EVERY)
            pair_button = director.get_by_role("button", name=t("Pair the next round"))
            expect(pair_button).to_be_enabled()
            assert director.evaluate("window.keptWithoutReload") is True
        director.goto(f"{server}/events/{event_id}/director")
    expect(director.get_by_role("button", name=t("Pair the next round"))).to_be_disabled()
    played = finals(server, event_id)
    meetings = Counter(frozenset(players) for players, _, _ in played)
    assert len(meetings) == 32 and set(meetings.values()) == {1}  # no rematch
    standings = requests.get(f"{server}/api/v1/events/{event_id}/standings").json()["standings"]
    assert served_lines(standings) == reference_standings(sixteen, played, swiss=True)
    wall_shows(wall, server, event_id, 16)
    checked(wall, "wall, Swiss over", phone=False)
    shot(wall, "wall-swiss")


def test_an_eight_player_double_elimination_on_the_pages(server, browser):  # noqa: F811
    eight = [f"Seed {seed}" for seed in range(1, 9)]
    director = context_page(browser, PHONE)
    tables = [context_page(browser, PHONE), context_page(browser, PHONE)]
    wall = context_page(browser, WALL)
    event_id = create_on_page(director, server, "Cup", "Double elimination", eight)
    wall.goto(f"{server}/events/{event_id}/wall")
    wall.evaluate("window.keptWithoutReload = true")
    losses: Counter[str] = Counter()
    final_side = None  # who came to the grand final from the losers' bracket
    number = 0
    while len(alive := [name for name in eight if losses[name] < 2]) > 1:
        number += 1
        pair_on_page(director, number)
        matches = event_json(server, event_id)["rounds"][-1]["matches"]
        assert all(losses[name] < 2 for m in matches for name in m["players"])
        if number == 1:
            phones_play_round_one(director, tables, server, event_id, matches)
            for players, _, won in finals(server, event_id):
                losses[players[1 - won]] += 1
        for match in matches[2 if number == 1 else 0 :]:
            players = match["players"]
            if len(alive) == 2:  # the grand final and its reset: the losers' side wins both
                if final_side is None:
                    final_side = next(name for name in players if losses[name] == 1)
                winner = players.index(final_side)
            else:
                winner = better_seed_wins(players, eight, (number + match["table"]) % 3 == 0)
            play_by_api(server, event_id, number, match, winner)
            losses[players[1 - winner]] += 1
        director.goto(f"{server}/events/{event_id}/director")
    expect(director.locator("#pair-why")).to_have_text(
        t("The event is over: every round is played.")
    )
    rounds = event_json(server, event_id)["rounds"]
    assert len(rounds[-1]["matches"]) == len(rounds[-2]["matches"]) == 1  # the reset round
    assert set(rounds[-1]["matches"][0]["players"]) == set(rounds[-2]["matches"][0]["players"])
    assert losses[final_side] == 1 and sum(losses.values()) == 2 * len(eight) - 1
    played = finals(server, event_id)
    standings = requests.get(f"{server}/api/v1/events/{event_id}/standings").json()["standings"]
    assert served_lines(standings) == reference_standings(eight, played, swiss=False)
    assert standings[0]["player"] == final_side
    wall_shows(wall, server, event_id, 8)
    checked(director, "director, cup over")
    shot(director, "director-cup-over")
