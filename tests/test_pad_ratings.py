"""The scorepad's ladder and a player's rating panel, through Flask's test client over a
real SQLite file: the filters, their refusals in the page's language, the chart's
points, and the words in another language."""

from __future__ import annotations

import re

from store_kit import quick

from api import i18n
from scorekeeper.store import games
from scorekeeper.store.ratings import player_rating
from scorekeeper.store.sqlite import Storage


def play(db, pairs):
    """Finished games of two to 50, each won by its first player with one gin."""
    store = Storage(str(db), durable=False)
    try:
        for first, second in pairs:
            sheet, _ = games.create_game(store, [first, second], rules={"target": 50})
            games.add_hand(store, sheet.id, quick(0, 0, 40))
        return {name: player_rating(store, name) for pair in pairs for name in pair}
    finally:
        store.close()


def ladder_names(html: str) -> list[str]:
    block = html.split('<table class="ladder">', 1)[1].split("</table>", 1)[0]
    return re.findall(r"<bdi>([^<]+)</bdi>", block)


def test_the_ladder_lists_by_rating_and_filters(client, db):
    rated = play(db, [("Ana", "Bor"), ("Ana", "Cy"), ("Bor", "Cy"), ("Dan", "Eva")])
    html = client.get("/ladder").get_data(as_text=True)
    order = sorted(rated, key=lambda n: -rated[n].rating)
    assert ladder_names(html) == order and order[0] == "Ana"
    assert f'<td class="num">{rated["Ana"].rating}</td>' in html
    regulars = client.get("/ladder?min=2&days=7").get_data(as_text=True)
    assert ladder_names(regulars) == ["Ana", "Bor", "Cy"]
    assert "Nobody on the ladder yet" in client.get("/ladder?min=3").get_data(as_text=True)


def test_bad_filters_are_refused_with_a_word_in_the_page_language(client, db):
    play(db, [("Ana", "Bor")])
    bad = client.get("/ladder?min=zero&days=12")
    assert bad.status_code == 422
    html = bad.get_data(as_text=True)
    assert 'id="err-min"' in html and 'id="err-days"' in html and "<table" not in html
    client.set_cookie(i18n.LANG_COOKIE, "sl")
    sl = client.get("/ladder?min=0").get_data(as_text=True)
    assert "Vpišite celo število partij od 1 do 1.000." in sl and "Lestvica" in sl
    assert client.get("/ladder?after=nonsense").status_code == 400


def test_a_players_page_draws_the_ratings_history(client, db):
    rated = play(db, [("Ana", "Bor"), ("Ana", "Cy"), ("Ana", "Dan")])
    html = client.get("/players?name=Ana").get_data(as_text=True)
    svg = html.split('<svg class="rating-chart"', 1)[1].split("</svg>", 1)[0]
    points = re.search(r'<polyline class="line" points="([^"]+)"', svg).group(1).split()
    assert len(points) == rated["Ana"].games == 3
    heights = [float(p.split(",")[1]) for p in points]
    assert heights[0] > heights[1] > heights[2]  # three wins: the line climbs (y grows down)
    assert f'<strong class="rating-number">{rated["Ana"].rating}</strong>' in html
    assert "from 3 games" in html and 'role="img"' in svg and "<title" in svg
    assert 'href="/ladder"' in html
    client.set_cookie(i18n.LANG_COOKIE, "pl")
    assert "z 3 partii" in client.get("/players?name=Ana").get_data(as_text=True)


def test_the_players_page_links_to_the_ladder(client):
    html = client.get("/players").get_data(as_text=True)
    assert 'href="/ladder"' in html and "The ladder: players by rating" in html
