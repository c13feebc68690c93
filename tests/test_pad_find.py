"""The games page, the roster and the links between games and players (issue 21),
through Flask's test client."""

from __future__ import annotations

import re
import time

from store_kit import quick

from scorekeeper.store import games
from scorekeeper.store.sqlite import Storage


def stored(db, players, hands=(), **settings):
    """A game stored straight into the database: its id (a moment apart from the last)."""
    store = Storage(str(db), durable=False)
    try:
        sheet, _ = games.create_game(store, list(players), **settings)
        for hand in hands:
            games.add_hand(store, sheet.id, hand)
    finally:
        store.close()
    time.sleep(0.002)  # times are kept to the millisecond: each game after the last
    return sheet.id


def listed(html: str) -> list[str]:
    """The ids of the games a page lists, in order."""
    block = html.split('<ul class="games">', 1)[1].split("</ul>", 1)[0]
    return re.findall(r'href="/games/([^"/]+)"', block)


def older(html: str) -> str | None:
    found = re.search(r'<a href="([^"]+)" rel="next">', html)
    return found.group(1).replace("&amp;", "&") if found else None


def test_the_games_page_lists_every_game_newest_first_a_page_at_a_time(client, db):
    ids = [stored(db, (f"P{i}", "Quinn")) for i in range(45)]
    first = client.get("/games")
    assert first.status_code == 200
    html = first.get_data(as_text=True)
    assert listed(html) == ids[:24:-1]
    assert "Newest games" not in html
    second = client.get(older(html)).get_data(as_text=True)
    assert listed(second) == ids[24:4:-1] and "Newest games" in second
    third = client.get(older(second)).get_data(as_text=True)
    assert listed(third) == ids[4::-1] and older(third) is None


def test_a_listed_game_shows_its_date_score_and_status(client, db):
    over = stored(db, ("Ana", "Bor"), [quick(0, 0, 20)], rules={"target": 10})
    playing = stored(db, ("Ana", "Cy"), [quick(1, 3, 12)])
    html = client.get("/games").get_data(as_text=True)
    assert listed(html) == [playing, over]
    lines = html.split('<li class="game-line">')[1:]
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT[^"]+">', lines[0])
    assert "Score: 0 – 9" in lines[0] and "Being played" in lines[0]
    # a finished game: its finals with the bonuses (as its sheet's Final row), not the hands' 45
    store = Storage(str(db), durable=False)
    try:
        final = store.game(over).scored.data["result"]["final"]
    finally:
        store.close()
    assert final[0] > 45 and f"Score: {final[0]} – {final[1]}" in lines[1]
    assert "Finished. Winner: <bdi>Ana</bdi>" in lines[1]


def test_a_search_keeps_one_players_games_and_pages_within_them(client, db):
    emile = [stored(db, ("Émile", f"P{i}")) for i in range(22)]
    stored(db, ("Ana", "Bor"))
    html = client.get("/games", query_string={"player": " e\u0301mile "}).get_data(as_text=True)
    assert listed(html) == emile[:1:-1]
    assert 'value="e\u0301mile"' in html  # the search kept, trimmed
    rest = client.get(older(html)).get_data(as_text=True)
    assert listed(rest) == emile[1::-1]
    nobody = client.get("/games", query_string={"player": "Nobody"}).get_data(as_text=True)
    assert "No games with this player yet." in nobody and '<ul class="games">' not in nobody


def test_a_bad_search_or_page_says_what_is_wrong(client, db):
    long = client.get("/games", query_string={"player": "x" * 300})
    assert long.status_code == 422 and "A name has at most" in long.get_data(as_text=True)
    bad = client.get("/games", query_string={"after": "nonsense"})
    assert bad.status_code == 400
    assert "This page of games does not exist" in bad.get_data(as_text=True)


def test_the_roster_is_suggested_on_the_start_form(client, db):
    stored(db, ("Ana", "Bor"))
    html = client.get("/").get_data(as_text=True)
    roster = html.split('<datalist id="roster">', 1)[1].split("</datalist>", 1)[0]
    assert re.findall(r'value="([^"]+)"', roster) == ["Ana", "Bor"]
    for i in range(4):
        field = re.search(rf'<input type="text" id="player_{i}"[^>]*>', html, re.S).group(0)
        assert 'list="roster"' in field and "autocomplete" not in field


def test_home_record_and_games_link_to_each_other(client, db):
    game = stored(db, ("Ana", "Bor"), [quick(0, 3, 12)])
    home = client.get("/").get_data(as_text=True)
    assert 'href="/games"' in home and 'href="/players"' in home
    players = client.get("/players").get_data(as_text=True)
    assert 'href="/players?name=Ana"' in players and 'href="/players?name=Bor"' in players
    record = client.get("/players", query_string={"name": "ana"}).get_data(as_text=True)
    assert 'href="/games?player=Ana"' in record
    found = client.get("/games", query_string={"player": "Ana"}).get_data(as_text=True)
    assert listed(found) == [game]
