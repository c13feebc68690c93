"""The director's roster forms on the scorepad (api/pad/routes_roster.py) through Flask's
test client on a real SQLite file: withdraw a player, add a late entry, swap two players
(a rematch asks first), and the page saying why a form is not there."""

from __future__ import annotations

import html
import re

import pytest
from test_pad_events import create, finish, pair
from test_pad_rights import fields, page

from scorekeeper.store.events import match_key
from scorekeeper.store.games import derive_token

pytestmark = pytest.mark.fast

FIVE = "Ana\nBor\nCene\nDana\nEva"


def director(client, event_id):
    return page(client, f"/events/{event_id}/director")


def post_form(client, event_id, action, **data):
    """Send the director page's form that posts to ``action`` with ``data``."""
    hidden = fields(director(client, event_id), action)
    return client.post(action, data={**hidden, **data})


def words(markup: str) -> str:
    """A page's text: its tags (names in <bdi>) left out."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def followed(client, response) -> str:
    """The page a form's 303 leads to, as :func:`words`."""
    assert response.status_code == 303, response.get_data(as_text=True)
    return words(page(client, response.headers["Location"]))


def seated(client, event_id, number) -> list[list[str]]:
    found = client.get(f"/api/v1/events/{event_id}").get_json()["rounds"][number - 1]
    return [match["players"] for match in found["matches"]] + [[name] for name in found["byes"]]


def test_withdraw_and_enter_from_the_directors_page(client):
    event_id = create(client, format="swiss", rounds="2", new_players=FIVE)
    shown = followed(
        client, post_form(client, event_id, f"/events/{event_id}/withdrawals", player="Eva")
    )
    assert "Eva is withdrawn: they play no more rounds." in shown
    assert "withdrawn from round 1" in shown  # in the standings
    assert "<option>Eva</option>" not in shown  # no second withdrawal offered
    shown = followed(
        client, post_form(client, event_id, f"/events/{event_id}/entries", player=" Filip ")
    )
    assert "Filip is entered: they play from the next round paired." in shown
    assert pair(client, event_id).status_code == 303
    players = {name for table in seated(client, event_id, 1) for name in table}
    assert players == {"Ana", "Bor", "Cene", "Dana", "Filip"}
    # a name on the roster already: said on the page, in words
    refused = post_form(client, event_id, f"/events/{event_id}/entries", player="ana")
    assert refused.status_code == 409
    assert "Ana is on the roster already." in words(refused.get_data(as_text=True))


def test_a_round_robin_says_why_it_takes_no_late_entry(client):
    event_id = create(client, new_players="Ana\nBor\nCene\nDana")
    assert f'action="/events/{event_id}/entries"' in director(client, event_id)
    assert pair(client, event_id).status_code == 303
    shown = director(client, event_id)
    assert f'action="/events/{event_id}/entries"' not in shown
    assert "A round robin takes late entries before round 1 only" in words(shown)
    assert "Only a Swiss round can be changed by hand" in words(shown)
    # in the director's language (here French, with its no-break space before the colon)
    french = client.get(f"/events/{event_id}/director", headers={"Accept-Language": "fr"})
    assert "n'accepte d'inscription tardive qu'avant la ronde 1\u00a0:" in words(
        french.get_data(as_text=True)
    )


def test_a_swap_and_a_rematch_asked_first(client):
    event_id = create(client, format="swiss", rounds="2", new_players="Ana\nBor\nCene\nDana")
    assert pair(client, event_id).status_code == 303
    first = seated(client, event_id, 1)
    body = client.get(f"/api/v1/events/{event_id}").get_json()
    secret = client.application.config["SECRET_KEY"]
    for match in body["rounds"][0]["matches"]:
        key = match_key(event_id, 1, match["table"])
        finish(client, match["game_id"], derive_token(secret, match["game_id"], key))
    assert pair(client, event_id).status_code == 303
    (a, b), (c, d) = seated(client, event_id, 2)
    met = {frozenset(table) for table in first}
    other = c if frozenset((a, c)) in met else d  # a's first opponent: swapped with b, a rematch
    action = f"/events/{event_id}/rounds/2/swaps"
    asked = post_form(client, event_id, action, first=b, second=other)
    assert asked.status_code == 409
    text = asked.get_data(as_text=True)
    assert "Swap anyway?" in words(text) and "would meet a second time" in words(text)
    assert seated(client, event_id, 2) == [[a, b], [c, d]]  # nothing changed yet
    response = client.post(action, data={**fields(text, action), "confirm": "yes"})
    shown = followed(client, response)
    assert "The players are swapped. Tables 1, 2 have new games: print their cards again." in shown
    after = {frozenset(table) for table in seated(client, event_id, 2)}
    assert frozenset((a, other)) in after
    # the new games are this phone's to keep the score of, as when it pairs
    for match in client.get(f"/api/v1/events/{event_id}").get_json()["rounds"][1]["matches"]:
        assert client.get(f"/games/{match['game_id']}/phones").status_code == 200
