"""Club night words and marks (issue 27): a time-called result marked on every page, in
results.csv and in ``scorekeeper replay``; a roster naming a player twice refused on the
new-event form; a table's sheet naming its event, and the start page listing this
phone's club nights.

Pages and exports through Flask's test client on a real SQLite file; the command line
through click's runner on the same file; the store's look-ups on both backends.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re

from click.testing import CliRunner
from test_pad_events import create, pair
from test_pad_rights import fields, page

from scorekeeper.cli import main
from scorekeeper.store import events
from scorekeeper.store.events import match_key
from scorekeeper.store.games import create_game, derive_token, hash_token

GIN_FOR_SECOND = {"kind": "quick", "knocker": 1, "knocker_deadwood": 0, "defender_deadwood": 0}


def gin_for_second(client, event_id: str, match: dict, table: int, to_the_end: bool) -> None:
    """Gin by the match's second player (through the API): once, or until the game is over."""
    token = derive_token("test", match["game_id"], match_key(event_id, 1, table))
    url = f"/api/v1/games/{match['game_id']}"
    while True:
        hand = client.post(
            f"{url}/hands", json=GIN_FOR_SECOND, headers={"Authorization": f"Bearer {token}"}
        )
        assert hand.status_code == 201
        if not to_the_end or client.get(url).get_json()["over"]:
            return


def played_round(client) -> tuple[str, dict, dict]:
    """A round robin of four, round 1 paired on this phone: table 1 time called (its
    second player leading 25 to 0 after one gin), table 2 played to its end (its second
    player winning). Returns (event id, table 1's match, table 2's match) as the API
    gives them."""
    event_id = create(client, new_players="Ana\nBor\nCene\nDana")
    assert pair(client, event_id).status_code == 303
    first, second = client.get(f"/api/v1/events/{event_id}").get_json()["rounds"][0]["matches"]
    gin_for_second(client, event_id, first, 1, to_the_end=False)
    end = f"/events/{event_id}/tables/{first['game_id']}/end"
    hidden = fields(page(client, f"/events/{event_id}/director"), end)
    assert client.post(end, data={**hidden, "winner": first["players"][1]}).status_code == 303
    gin_for_second(client, event_id, second, 2, to_the_end=True)
    return event_id, first, second


def table_state(shown: str, table: int) -> str:
    """The text of table ``table``'s line on an event page (tags dropped, spaces single)."""
    lines = re.findall(r"<li class=\"(?:finished|playing)\">(.*?)</li>", shown, re.S)
    line = next(item for item in lines if f"Table {table}<" in item)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", line))).strip()


def test_a_time_called_result_is_marked_with_the_winners_score_first(client):
    event_id, first, second = played_round(client)
    winner, loser = first["players"][1], first["players"][0]
    final = client.get(f"/api/v1/events/{event_id}").get_json()["rounds"][0]["matches"][1]
    assert final["winner"] == final["players"][1]
    lost, won = final["totals"]
    for path in (f"/events/{event_id}/director", f"/events/{event_id}", f"/events/{event_id}/wall"):
        shown = page(client, path)
        assert table_state(shown, 1).startswith(f"Table 1 {first['players'][0]} vs")
        assert f"{winner} won 25 – 0 time called" in table_state(shown, 1), path
        assert f"{final['winner']} won {won} – {lost}" in table_state(shown, 2), path
        assert "time called" not in table_state(shown, 2)
        assert shown.count('class="time-called"') == 1, path
    slovene = client.get(f"/events/{event_id}", headers={"Accept-Language": "sl"})
    assert "čas je potekel" in slovene.get_data(as_text=True)
    # the table's sheet: its event, round and table, and the director's end
    sheet = html.unescape(page(client, f"/games/{first['game_id']}"))
    assert re.search(
        rf'<p class="event-line"><a href="/events/{event_id}">(<bdi>)?Friday club(</bdi>)?</a>'
        r" · Round 1 · Table 1</p>",
        sheet,
    ), sheet
    note = re.sub(
        r"<[^>]+>", "", re.search(r'class="notice time-called-note">(.*?)</p>', sheet).group(1)
    )
    assert note == f"Time called: the director ended this match. {winner} won 25 – 0."
    other = html.unescape(page(client, f"/games/{second['game_id']}"))
    assert "Round 1 · Table 2</p>" in other and "time-called-note" not in other
    assert loser in sheet


def test_results_csv_and_json_say_time_called(client, db):
    event_id, first, second = played_round(client)
    text = client.get(f"/api/v1/events/{event_id}/export/results.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert text.splitlines()[0].endswith(",game_id,ended")
    assert [(row["table"], row["finished"], row["ended"]) for row in rows] == [
        ("1", "true", "time_called"),
        ("2", "true", ""),
    ]
    assert (rows[1]["winner"], rows[1]["ended"]) == (second["players"][1], "")
    assert (rows[0]["winner"], rows[0]["total_a"], rows[0]["total_b"]) == (
        first["players"][1],
        "0",
        "25",
    )
    results = client.get(f"/api/v1/events/{event_id}/export/results.json").get_json()["results"]
    assert [row["ended"] for row in results] == ["time_called", None]
    done = CliRunner().invoke(
        main, ["event", "export", event_id, "--what", "results", "--db", str(db), "-o", "-"]
    )
    assert done.exit_code == 0, done.output
    assert done.output.replace("\r\n", "\n") == text.replace("\r\n", "\n")


def test_replay_of_the_event_record_says_time_called(client, db, tmp_path):
    event_id, first, __ = played_round(client)
    record = tmp_path / "event.json"
    done = CliRunner().invoke(
        main, ["event", "export", event_id, "--what", "record", "--db", str(db), "-o", str(record)]
    )
    assert done.exit_code == 0, done.output
    replayed = CliRunner().invoke(main, ["replay", str(record)])
    assert replayed.exit_code == 0, replayed.output
    ana_bor = " vs ".join(first["players"])
    winner, loser = first["players"][1], first["players"][0]
    assert f"round 1, table 1: {ana_bor}: time called: {winner} wins, {winner} 25, {loser} 0" in (
        replayed.output
    )
    assert "not over yet" not in replayed.output
    as_json = CliRunner().invoke(main, ["replay", "--json", str(record)])
    matches = json.loads(as_json.output)["matches"]
    assert matches[0]["ended_by_director"] == {"winner": winner, "totals": [0, 25]}
    assert matches[1]["ended_by_director"] is None


def test_the_new_event_form_refuses_a_player_named_twice(client):
    hidden = fields(page(client, "/events/new"), "/events")
    typed = "Ana\nBor\nana\nCene\nANA\nbor"
    for language, said in (
        ("en", "Each player may be named only once, and capital letters do not count:"),
        ("sl", "Vsak igralec je lahko naveden le enkrat"),
        ("fr", "ne comptent pas\u00a0:"),
    ):
        response = client.post(
            "/events",
            data={
                **hidden,
                "name": "Friday club",
                "format": "round_robin",
                "preset": "standard",
                "new_players": typed,
            },
            headers={"Accept-Language": language},
        )
        assert response.status_code == 422, language
        shown = html.unescape(response.get_data(as_text=True))
        assert said in shown, language
        assert "Ana / ana / ANA; Bor / bor" in shown, language
        assert f">{typed}</textarea>" in shown  # what was typed stays in the form
        assert 'id="err-new_players"' in shown
    # the API refuses the same roster, wherever the names stand in it
    refused = client.post(
        "/api/v1/events",
        json={"name": "x", "players": ["Ana", "Bor", "ana"], "format": "swiss", "rounds": 1},
    )
    assert refused.status_code == 422 and refused.get_json()["error"]["field"] == "players"
    assert "'Ana' and 'ana' are one player" in refused.get_json()["error"]["message"]


def listed(phone, path: str, note: str) -> bool:
    """Whether the phone's start page lists Friday club, linked to ``path``, with ``note``."""
    start = html.unescape(page(phone, "/"))
    link = rf'<a href="{path}">(<bdi>)?Friday club(</bdi>)?</a>\s*<span class="muted small">'
    return re.search(link + re.escape(note) + "</span>", start) is not None


def test_the_start_page_lists_this_phones_club_nights(client, module_app):
    assert "Your club nights on this phone" not in page(client, "/")
    event_id = create(client, new_players="Ana\nBor")
    assert listed(client, f"/events/{event_id}/director", "This phone directs it.")
    assert pair(client, event_id).status_code == 303
    (match,) = client.get(f"/api/v1/events/{event_id}").get_json()["rounds"][0]["matches"]
    card = page(client, f"/events/{event_id}/tables/{match['game_id']}/card")
    link = re.search(r'<a href="http://localhost(/games/[\w-]+/join\?key=[\w-]+)"', card).group(1)
    table = module_app.test_client()
    page(table, "/")
    join = table.post(link, data=fields(page(table, link), link.split("?")[0]))
    assert join.status_code == 303, join.get_data(as_text=True)
    assert listed(table, f"/events/{event_id}", "This phone keeps a table's score.")
    greek = table.get("/", headers={"Accept-Language": "el"}).get_data(as_text=True)
    assert "Οι βραδιές συλλόγου σας σε αυτό το κινητό" in greek
    assert "Your club nights" not in page(module_app.test_client(), "/")


def test_the_store_finds_a_games_event_and_a_devices_events(store):
    made, __ = events.create_event(store, "Night", ["Ana", "Bor", "Cene"], "round_robin")
    other, __ = events.create_event(store, "Other", ["Ana", "Bor"], "round_robin")
    director, player = hash_token("director"), hash_token("player")
    assert store.grant_director(made.id, director, "x")
    (match,) = events.pair_round(store, made.id).matches
    store.grant_edit(match.game_id, player, "y")
    events.pair_round(store, other.id)
    assert store.game_event(match.game_id) == made.id
    loose, __ = create_game(store, ["Ana", "Bor"])
    assert store.game_event(loose.id) is None
    assert [(e.id, e.name, e.directs) for e in store.device_events(director, 8)] == [
        (made.id, "Night", True)
    ]
    assert [(e.id, e.directs) for e in store.device_events(player, 8)] == [(made.id, False)]
    store.grant_director(other.id, player, "z")
    assert [e.id for e in store.device_events(player, 8)] == [other.id, made.id]
    assert [e.id for e in store.device_events(player, 1)] == [other.id]
    assert store.device_events(hash_token("nobody"), 8) == []
