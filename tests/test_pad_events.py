"""Club night pages through Flask's test client on a real SQLite file: creating an event
from the roster, the director's page (its cookie, pairing, the tables, the table card's
QR code), the read-only event page and the wall page's ETag. The browser test
(test_pad_events_browser.py) plays a whole round robin through chromium."""

from __future__ import annotations

import html
import re

import pytest
from test_pad_rights import fields, page

from scorekeeper.store.events import match_key
from scorekeeper.store.games import derive_token

pytestmark = pytest.mark.fast

ROSTER = ["Ana", "Bor", "Cene", "Dana"]


def known_players(client, names=ROSTER) -> None:
    """Games of these players through the API, so the server knows them."""
    for first, second in zip(names[::2], names[1::2], strict=True):
        response = client.post("/api/v1/games", json={"players": [first, second], "dealer": 0})
        assert response.status_code == 201


def create(client, **form) -> str:
    """Send the new event form; the event's id (the made page's link to its director page)."""
    return made(client, **form)[0]


def made(client, **form) -> tuple[str, str]:
    """Send the new event form: the event's id and its recovery link (path and query), from
    the page saying the event is made."""
    hidden = fields(page(client, "/events/new"), "/events")
    data = {"name": "Friday club", "format": "round_robin", "preset": "standard", **hidden, **form}
    response = client.post("/events", data=data)
    assert response.status_code == 200, response.get_data(as_text=True)
    shown = response.get_data(as_text=True)
    found = re.search(r'href="/events/([\w-]+)/director"', shown)
    link = re.search(r'<a href="http://localhost(/events/[\w-]+/direct\?key=[\w-]+)"', shown)
    assert found and link, shown
    return found.group(1), link.group(1)


def pair(client, event_id: str):
    hidden = fields(page(client, f"/events/{event_id}/director"), f"/events/{event_id}/rounds")
    return client.post(f"/events/{event_id}/rounds", data=hidden)


def finish(client, game_id: str, token: str) -> None:
    """Gin after gin for the first player until the game is over (through the API)."""
    for _ in range(10):
        response = client.post(
            f"/api/v1/games/{game_id}/hands",
            json={"kind": "quick", "knocker": 0, "knocker_deadwood": 0, "defender_deadwood": 60},
            headers={"Authorization": f"Bearer {token}"},
        )
        if response.status_code == 409:
            return
        assert response.status_code == 201, response.get_data(as_text=True)
        if client.get(f"/api/v1/games/{game_id}").get_json()["over"]:
            return


def test_create_from_the_roster_and_new_names(client):
    known_players(client)
    form = page(client, "/events/new")
    for name in ROSTER:
        assert f'name="players" value="{name}"' in form
    event_id = create(client, players=["Ana", "Cene"], new_players="Eva\n\nFilip\n")
    body = client.get(f"/api/v1/events/{event_id}").get_json()
    assert body["players"] == ["Ana", "Cene", "Eva", "Filip"]  # ticked, then typed
    assert body["format"] == "round_robin"
    assert body["rules"]["gin_bonus"] == 25
    director = client.get(f"/events/{event_id}/director")
    assert director.status_code == 200
    assert "Friday club" in director.get_data(as_text=True)


def test_the_form_says_what_is_wrong(client):
    hidden = fields(page(client, "/events/new"), "/events")
    response = client.post(
        "/events", data={**hidden, "name": "", "format": "swiss", "new_players": "Ana\nBor"}
    )
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert "Type a name for the event." in text
    assert "A Swiss event of these players takes 1 round: type 1." in text
    response = client.post("/events", data={**hidden, "name": "X", "new_players": "Ana"})
    assert "Choose from 2 to 128 players" in response.get_data(as_text=True)
    for rounds in ("0", "3", "²", "9" * 5000):
        response = client.post(
            "/events",
            data={
                **hidden,
                "name": "X",
                "format": "swiss",
                "rounds": rounds,
                "new_players": "A\nB\nC",
            },
        )
        assert response.status_code == 422, rounds
        assert "takes 1 to 2 rounds: type how many." in response.get_data(as_text=True)
    response = client.post("/events", data={**hidden, "name": "X" * 200, "new_players": "A\nB"})
    assert response.status_code == 422 and 'id="err-name"' in response.get_data(as_text=True)


def test_a_repeated_form_makes_one_event(client):
    hidden = fields(page(client, "/events/new"), "/events")
    data = {**hidden, "name": "Once", "format": "swiss", "rounds": "2", "new_players": "A\nB\nC"}
    first = client.post("/events", data=data)
    again = client.post("/events", data=data)
    assert first.status_code == again.status_code == 200
    assert first.get_data(as_text=True) == again.get_data(as_text=True)  # the same recovery


def test_the_director_page_needs_the_directors_right(client, module_app):
    event_id = create(client, new_players="Ana\nBor\nCene\nDana")
    other = module_app.test_client()
    refused = other.get(f"/events/{event_id}/director")
    assert refused.status_code == 403
    shown = html.unescape(refused.get_data(as_text=True))
    assert "<h1>For the director only</h1>" in shown
    assert "Only the event's director can open this page" in shown
    assert f'<a href="/events/{event_id}">' in shown
    assert refused.headers["Cache-Control"] == "no-store"
    greek = other.get(f"/events/{event_id}/director", headers={"Accept-Language": "el"})
    assert greek.status_code == 403 and '<html lang="el"' in greek.get_data(as_text=True)
    other.set_cookie("sk_director", "not-the-token", path=f"/events/{event_id}")
    assert other.get(f"/events/{event_id}/director").status_code == 403
    # the right is kept server-side (by the device id): no token in any cookie
    assert client.get_cookie("sk_director", path=f"/events/{event_id}") is None
    assert f'<a href="/events/{event_id}/restore">' in shown  # the way back for a director
    second = create(client, name="Second", new_players="Ana\nBor")
    assert client.get(f"/events/{second}/director").status_code == 200
    assert client.get(f"/events/{event_id}/director").status_code == 200
    assert other.get(f"/events/{event_id}").status_code == 200  # the event page: everyone
    assert client.get("/events/nosuchevent1/director").status_code == 404


def test_pair_play_and_the_table_card(client, module_app):
    event_id = create(client, new_players="Ana\nBor\nCene\nDana")
    director = page(client, f"/events/{event_id}/director")
    assert "No round paired yet" in director
    response = pair(client, event_id)
    assert response.status_code == 303
    director = page(client, response.headers["Location"])
    assert "Round 1 is paired" in director
    # the page says only what it knows: nothing from the address is shown as a notice
    forged = page(client, f"/events/{event_id}/director?done=Pay+up&error=Pay+up")
    assert "Pay up" not in forged and "is paired" not in forged
    body = client.get(f"/api/v1/events/{event_id}").get_json()
    matches = body["rounds"][0]["matches"]
    assert len(matches) == 2
    assert director.count("Table card with QR code") == 2
    assert re.search(r"<button type=\"submit\" disabled[^>]*>Pair the next round", director)
    assert "2 tables are still playing this round." in director
    # the director's phone may change each table's game (the pad's edit right)
    for match in matches:
        assert "+ Quick hand" in page(client, f"/games/{match['game_id']}")
    # the table card: the event, round, table, players, a hand-over link and its QR code
    card = page(client, f"/events/{event_id}/tables/{matches[0]['game_id']}/card")
    assert "Friday club" in card and "Table 1" in card and "Round 1" in card
    for name in matches[0]["players"]:
        assert name in card
    assert "<svg" in card and 'class="qr"' in card
    link = re.search(r'<a href="(http://localhost/games/[\w-]+/join\?key=[\w-]+)"', card).group(1)
    assert card == page(client, f"/events/{event_id}/tables/{matches[0]['game_id']}/card")
    table_phone = module_app.test_client()
    joined = page(table_phone, link.removeprefix("http://localhost"))
    assert "Keep the score on this phone" in joined
    assert (
        module_app.test_client()
        .get(f"/events/{event_id}/tables/{matches[0]['game_id']}/card")
        .status_code
        == 403
    )
    assert client.get(f"/events/{event_id}/tables/{body['id']}x/card").status_code == 404
    # the games' API edit tokens derive from the secret key
    for match in matches:
        token = derive_token("test", match["game_id"], match_key(event_id, 1, match["table"]))
        finish(client, match["game_id"], token)
    director = page(client, f"/events/{event_id}/director")
    assert "tables are still playing" not in director
    assert director.count(" won</span>") == 2
    assert pair(client, event_id).status_code == 303
    assert len(client.get(f"/api/v1/events/{event_id}").get_json()["rounds"]) == 2
    # pairing again while round 2 plays changes nothing
    assert pair(client, event_id).status_code == 303
    assert len(client.get(f"/api/v1/events/{event_id}").get_json()["rounds"]) == 2


def test_time_called_ends_a_match_and_frees_the_next_round(client, module_app):
    event_id = create(client, new_players="Ana\nBor\nCene\nDana")
    assert pair(client, event_id).status_code == 303
    matches = client.get(f"/api/v1/events/{event_id}").get_json()["rounds"][0]["matches"]
    first, second = matches
    # table 1: one gin for its second player, who leads 25 - 0; table 2 not started (level)
    token = derive_token("test", first["game_id"], match_key(event_id, 1, 1))
    response = client.post(
        f"/api/v1/games/{first['game_id']}/hands",
        json={"kind": "quick", "knocker": 1, "knocker_deadwood": 0, "defender_deadwood": 0},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 201
    seen = client.get(f"/events/{event_id}/director")
    director = seen.get_data(as_text=True)
    assert director.count("Time called: end this match") == 2
    # the page follows the event (pad-follow.js): a 304 while it holds; its refusals no ETag
    assert f"data-follow={seen.headers['ETag']}" in director
    again = client.get(
        f"/events/{event_id}/director", headers={"If-None-Match": seen.headers["ETag"]}
    )
    assert again.status_code == 304 and again.get_data() == b""
    end = f"/events/{event_id}/tables/{first['game_id']}/end"
    hidden = fields(director, end)
    leader = first["players"][1]
    assert re.search(rf'value="{leader}" required checked', director)  # the leader is chosen
    # another phone may not end it (its form would not even carry this phone's CSRF token)
    other = module_app.test_client()
    assert other.post(end, data={**hidden, "winner": leader}).status_code in (400, 403)
    assert not client.get(f"/api/v1/events/{event_id}").get_json()["rounds"][0]["matches"][0][
        "finished"
    ]
    assert client.post(end, data={**hidden, "winner": leader}).status_code == 303
    # a repeat (a double tap) shows the page again and changes nothing
    assert client.post(end, data={**hidden, "winner": first["players"][0]}).status_code == 303
    # level totals and no winner chosen (no JavaScript, nothing ticked): the page says so
    level = f"/events/{event_id}/tables/{second['game_id']}/end"
    refused = client.post(level, data=fields(page(client, f"/events/{event_id}/director"), level))
    assert refused.status_code == 422 and "ETag" not in refused.headers
    assert "level" in html.unescape(refused.get_data(as_text=True))
    body = client.get(f"/api/v1/events/{event_id}").get_json()
    ended = body["rounds"][0]["matches"][0]
    assert ended["finished"] and ended["ended_by_director"] and ended["winner"] == leader
    assert ended["totals"] == [0, 25]
    moved = client.get(
        f"/events/{event_id}/director", headers={"If-None-Match": seen.headers["ETag"]}
    )
    assert moved.status_code == 200 and moved.headers["ETag"] != seen.headers["ETag"]
    director = moved.get_data(as_text=True)
    assert director.count("Time called: end this match") == 1
    # the results to keep, linked under the standings (the API's public exports)
    for path in re.findall(r'<a href="(/api/v1/events/[^"]+/export/[^"]+)" download>', director):
        assert client.get(path).status_code == 200, path
    assert len(re.findall(r"/export/", director)) == 4
    assert "1 table is still playing this round." in director


def test_the_event_page_and_the_wall(client, module_app):
    event_id = create(client, new_players="Ana\nBor\nCene")
    pair(client, event_id)
    viewer = module_app.test_client()
    shown = viewer.get(f"/events/{event_id}")
    event = shown.get_data(as_text=True)
    assert "Round 1" in event and "Standings" in event and "has a bye this round" in event
    assert "pad-follow.js" in event and f"data-follow={shown.headers['ETag']}" in event
    assert "Pair the next round" not in event
    wall = viewer.get(f"/events/{event_id}/wall")
    assert wall.status_code == 200
    text = wall.get_data(as_text=True)
    assert 'class="wall"' in text and "pad-follow.js" in text and "<nav" not in text
    etag = wall.headers["ETag"]
    assert f"data-follow={etag}" in text
    same = viewer.get(f"/events/{event_id}/wall", headers={"If-None-Match": etag})
    assert same.status_code == 304 and same.get_data() == b""
    game_id = client.get(f"/api/v1/events/{event_id}").get_json()["rounds"][0]["matches"][0][
        "game_id"
    ]
    token = derive_token("test", game_id, match_key(event_id, 1, 1))
    finish(client, game_id, token)
    changed = viewer.get(f"/events/{event_id}/wall", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    for path in (f"/events/{event_id}", f"/events/{event_id}/wall"):  # one event, one ETag
        assert (
            viewer.get(path, headers={"If-None-Match": changed.headers["ETag"]}).status_code == 304
        )
    assert " won</span>" in changed.get_data(as_text=True)
    assert viewer.get("/events/nosuchevent1").status_code == 404
