"""The games page, the roster and the links between games and players (issue 21),
through Flask's test client."""

from __future__ import annotations

import re
import sqlite3
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


# ----------------------------------------------------------------------------- issue 27


def _zora(db, count=24):
    """Zora Novak's games (each against someone else), then two more players': her ids."""
    ids = [stored(db, ("Zora Novak", f"P{i}")) for i in range(count)]
    stored(db, ("Žofia Łęcka", "Bor"))
    stored(db, ("Ana", "Bor"))
    return ids


def test_a_search_finds_a_players_games_by_any_part_of_the_name(client, db):
    zora = _zora(db)
    for typed in ("Zora", "zora", "Novak", "NOVÁK", "nov zo"):
        html = client.get("/games", query_string={"q": typed}).get_data(as_text=True)
        assert listed(html) == zora[:3:-1], typed
        assert f'value="{typed}"' in html  # the search kept in its field
        assert 'href="/games?player=Zora+Novak"' in html  # the one player found
        rest = client.get(older(html)).get_data(as_text=True)
        assert listed(rest) == zora[3::-1] and older(rest) is None
    both = client.get("/games", query_string={"q": "zo"}).get_data(as_text=True)
    assert 'href="/games?player=Zora+Novak"' in both and "player=%C5%BDofia" in both
    assert len(listed(both)) == 20
    assert '<ul class="games">' not in client.get("/games?q=ovak").get_data(as_text=True)


def test_a_search_that_finds_nobody_suggests_near_names(client, db):
    _zora(db, 2)
    response = client.get("/games", query_string={"q": "Zorra", "status": "over"})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Nobody's name here has a word beginning with" in html
    assert "Did you mean:" in html and '<ul class="games">' not in html
    assert 'href="/games?player=Zora+Novak&amp;status=over"' in html  # the filters kept
    nothing = client.get("/games", query_string={"q": "Qwxyz"}).get_data(as_text=True)
    assert "Nobody's name" in nothing and "Did you mean:" not in nothing


def _dated(db, ids_days):
    with sqlite3.connect(db) as conn:
        for game_id, day in ids_days:
            conn.execute("UPDATE games SET created = ? WHERE id = ?", (day, game_id))


def test_the_games_page_keeps_games_by_status_and_days(client, db):
    over = stored(db, ("Ana", "Bor"), [quick(0, 0, 20)], rules={"target": 10})
    may3 = stored(db, ("Ana", "Cy"))
    may5 = stored(db, ("Bor", "Cy"))
    _dated(db, [(over, "2025-05-01T10:00:00.000Z"), (may3, "2025-05-03T23:30:00.000Z")])
    _dated(db, [(may5, "2025-05-05T09:00:00.000Z")])

    def shown(**query):
        return listed(client.get("/games", query_string=query).get_data(as_text=True))

    assert shown(status="over") == [over]
    assert shown(status="active") == [may5, may3]
    assert shown(**{"from": "2025-05-02", "to": "2025-05-04"}) == [may3]
    assert shown(**{"from": "2025-05-04", "tz": "120"}) == [may5, may3]  # 01:30 on the 4th
    assert shown(to="2025-05-03", status="active", q="ana") == [may3]
    html = client.get("/games", query_string={"from": "2025-05-02"}).get_data(as_text=True)
    assert "Games made on or after May 2, 2025" in html
    sl = client.get(
        "/games", query_string={"from": "3. 5. 2025"}, headers={"Accept-Language": "sl"}
    )  # typed as Slovenian writes a day
    assert listed(sl.get_data(as_text=True)) == [may5, may3]
    none = client.get("/games", query_string={"from": "2030-01-01"}).get_data(as_text=True)
    assert "No games found." in none


def test_bad_filters_are_told_at_their_fields(client, db):
    stored(db, ("Ana", "Bor"))
    bad = client.get("/games", query_string={"from": "someday", "status": "won"})
    assert bad.status_code == 422
    html = bad.get_data(as_text=True)
    assert "“\u2068someday\u2069” is not a date: write it as 5/3/25." in html
    assert 'id="err-from"' in html and 'aria-describedby="err-from"' in html
    assert "Choose all games, the games being played or finished games." in html
    backwards = client.get("/games", query_string={"from": "2025-05-03", "to": "2025-05-01"})
    assert backwards.status_code == 422
    assert "The last day is before the first." in backwards.get_data(as_text=True)


def test_the_players_page_finds_a_player_by_part_of_the_name(client, db):
    _zora(db, 3)
    one = client.get("/players", query_string={"name": "Zora"})
    assert one.status_code == 200
    assert "Zora Novak" in one.get_data(as_text=True) and 'class="record"' in one.get_data(
        as_text=True
    )
    several = client.get("/players", query_string={"name": "zo"})
    assert several.status_code == 200
    html = several.get_data(as_text=True)
    assert 'href="/players?name=Zora+Novak"' in html and "Players found:" in html
    missing = client.get("/players", query_string={"name": "Nowak"})
    assert missing.status_code == 404
    html = missing.get_data(as_text=True)
    assert "Did you mean:" in html and 'href="/players?name=Zora+Novak"' in html
