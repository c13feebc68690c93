"""The director's right on the scorepad through Flask's test client on a real SQLite file:
handing it to another phone by the director's link (and revoking it), the recovery link
made with the event, the director token posted on a form, the old director cookie, and a
revoked table phone kept out of a table card opened again. The browser test
(test_pad_directors_browser.py) hands the right over through chromium."""

from __future__ import annotations

import html
import re

import pytest
from markupsafe import escape
from test_pad_events import made, pair
from test_pad_rights import fields, page, text

from api import create_app

pytestmark = pytest.mark.fast

PLAYERS = "Ana\nBor\nCene\nDana"


def director(client, event_id: str) -> int:
    return client.get(f"/events/{event_id}/director").status_code


def hand_over(client, event_id: str) -> str:
    """Make a director's link on the director page; returns it (path and query)."""
    action = f"/events/{event_id}/directors/handover"
    hidden = fields(page(client, f"/events/{event_id}/director"), action)
    response = client.post(action, data={**hidden, "action": "new"})
    assert response.status_code == 303
    shown = page(client, response.headers["Location"])
    assert "<svg" in shown and 'class="qr"' in shown
    assert not re.search(r"\sstyle=|<script>", shown)  # the CSP allows neither
    link = re.search(r'id="director-link-text" value="([^"]+)"', shown).group(1)
    return html.unescape(link).removeprefix("http://localhost")


def take(client, link: str, label: str = ""):
    """Open a director's link and press its button."""
    action = link.split("?")[0]
    shown = page(client, link)
    assert "Direct the event on this phone" in shown
    return client.post(action, data={**fields(shown, action), "label": label})


def revoke(client, event_id: str, label: str):
    """Revoke the director phone labelled ``label`` from the director page."""
    shown = page(client, f"/events/{event_id}/director")
    right = re.search(
        rf"<b>(?:<bdi[^>]*>)?{re.escape(str(escape(label)))}<.*?action=\"(/events/{event_id}/directors/\d+/revoke)\"",
        shown,
        re.S,
    ).group(1)
    return client.post(right, data=fields(shown, right))


def test_the_director_hands_the_right_over_and_revokes_it(client, module_app):
    event_id, _ = made(client, new_players=PLAYERS)
    shown = text(client.get(f"/events/{event_id}/director"))
    assert "Director's phones" in shown and "The phone that created the event this phone" in shown
    link = hand_over(client, event_id)
    helper = module_app.test_client()
    assert director(helper, event_id) == 403
    page(helper, link)  # opening the link changes nothing
    assert director(helper, event_id) == 403
    joined = take(helper, link, "Bor's phone")
    assert joined.status_code == 303
    assert "This phone now directs the event." in text(helper.get(joined.headers["Location"]))
    assert pair(helper, event_id).status_code == 303  # a director in full
    listed = text(client.get(f"/events/{event_id}/director"))
    assert "The phone that created the event this phone" in listed and "Bor's phone" in listed
    assert "A director's link is active" in listed
    # revoked: no page, and the link it came by ends with it
    assert revoke(client, event_id, "Bor's phone").status_code == 303
    assert "That phone no longer directs the event." in text(
        client.get(f"/events/{event_id}/director?phones=revoked")
    )
    assert director(helper, event_id) == 403
    assert helper.get(link).status_code == 403
    assert take(module_app.test_client(), hand_over(client, event_id)).status_code == 303
    # giving one's own right up
    assert revoke(client, event_id, "The phone that created the event").status_code == 303
    assert director(client, event_id) == 403


def test_the_director_link_is_turned_off_and_a_refused_label_is_named(client, module_app):
    event_id, _ = made(client, new_players=PLAYERS)
    link = hand_over(client, event_id)
    other = module_app.test_client()
    action = link.split("?")[0]
    refused = other.post(action, data={**fields(page(other, link), action), "label": "X" * 200})
    assert refused.status_code == 422 and 'id="err-label"' in refused.get_data(as_text=True)
    assert director(other, event_id) == 403
    hidden = fields(page(client, f"/events/{event_id}/director"), action + "ors/handover")
    off = client.post(action + "ors/handover", data={**hidden, "action": "off"})
    assert off.headers["Location"].endswith("phones=off")
    gone = other.get(link)
    assert gone.status_code == 403 and "This director's link no longer works" in text(gone)
    assert "Direct the event on this phone" not in text(gone)


def test_the_recovery_link_gives_a_new_phone_the_right_and_outlives_revokes(client, module_app):
    event_id, recovery = made(client, new_players=PLAYERS)
    shown = text(client.get(f"/events/{event_id}/director"))
    assert recovery.split("key=")[1] not in shown  # shown once, when the event is made
    new_phone = module_app.test_client()
    assert take(new_phone, recovery).status_code == 303
    assert director(new_phone, event_id) == 200
    assert "A phone that used the recovery link this phone" in text(
        new_phone.get(f"/events/{event_id}/director")
    )
    # the lost phone is revoked; the recovery link still works
    assert revoke(new_phone, event_id, "The phone that created the event").status_code == 303
    assert director(client, event_id) == 403
    assert take(module_app.test_client(), recovery).status_code == 303
    # the lost phone sending its create form again gets neither the right nor the link
    again = made_again(client)
    assert again.status_code == 303 and director(client, event_id) == 403


def made_again(client):
    """The create form of a made event sent again (the browser's Back, then Send)."""
    hidden = fields(page(client, "/events/new"), "/events")
    data = {**hidden, "name": "Twice", "format": "round_robin", "new_players": "A\nB"}
    first = client.post("/events", data=data)
    event_id = re.search(r'href="/events/([\w-]+)/director"', first.get_data(as_text=True))[1]
    revoke(client, event_id, "The phone that created the event")
    return client.post("/events", data=data)


def test_the_director_token_restores_the_right_by_a_posted_form(client):
    made = client.post(
        "/api/v1/events", json={"name": "Night", "players": ["Ana", "Bor"], "format": "round_robin"}
    ).get_json()
    event_id, token = made["id"], made["director_token"]
    refused = client.get(f"/events/{event_id}/director")
    assert refused.status_code == 403
    form = page(client, f"/events/{event_id}/restore")
    action = f"/events/{event_id}/restore"
    assert re.search(rf'<form method="post" action="{action}"', form)  # the token is posted
    hidden = fields(form, action)
    wrong = client.post(action, data={**hidden, "token": token + "x"})
    assert wrong.status_code == 403
    assert "This is not the event's director token." in text(wrong)
    assert director(client, event_id) == 403
    right = client.post(action, data={**hidden, "token": f" {token}\n"})
    assert right.status_code == 303 and director(client, event_id) == 200
    assert token not in right.headers["Location"]
    assert "A phone that used the director token" in text(
        client.get(f"/events/{event_id}/director")
    )


def test_an_old_director_cookie_becomes_a_right_that_can_be_revoked(client, module_app):
    made = client.post(
        "/api/v1/events", json={"name": "Night", "players": ["Ana", "Bor"], "format": "round_robin"}
    ).get_json()
    event_id, token = made["id"], made["director_token"]
    old = module_app.test_client()
    old.set_cookie("sk_director", token, path=f"/events/{event_id}")
    first = old.get(f"/events/{event_id}/director")
    assert first.status_code == 200
    assert any(
        c.startswith("sk_director=;") and "Max-Age=0" in c
        for c in first.headers.getlist("Set-Cookie")
    )
    assert old.get_cookie("sk_director", path=f"/events/{event_id}") is None
    assert director(old, event_id) == 200  # the right, kept server-side
    restore = page(client, f"/events/{event_id}/restore")
    hidden = fields(restore, f"/events/{event_id}/restore")
    client.post(f"/events/{event_id}/restore", data={**hidden, "token": token})
    assert revoke(client, event_id, "The phone that created the event").status_code == 303
    old.set_cookie("sk_director", token, path=f"/events/{event_id}")  # kept somewhere
    assert director(old, event_id) == 403


def test_a_revoked_table_phone_is_kept_out_of_its_table_card_opened_again(client, module_app):
    event_id, _ = made(client, new_players=PLAYERS)
    assert pair(client, event_id).status_code == 303
    game_id = client.get(f"/api/v1/events/{event_id}").get_json()["rounds"][0]["matches"][0][
        "game_id"
    ]
    card_page = f"/events/{event_id}/tables/{game_id}/card"
    card = re.search(
        r'<a href="http://localhost(/games/[\w-]+/join\?key=[\w-]+)"', page(client, card_page)
    )[1]
    table = module_app.test_client()
    joined = page(table, card)
    table.post(card.split("?")[0], data={**fields(joined, card.split("?")[0]), "label": "Table"})
    assert "+ Quick hand" in page(table, f"/games/{game_id}")
    phones = page(client, f"/games/{game_id}/phones")
    right = re.search(
        rf'action="(/games/{game_id}/phones/\d+/revoke)"[^>]*\s+data-confirm="Take', phones
    )[1]
    assert client.post(right, data=fields(phones, right)).status_code == 303
    assert "+ Quick hand" not in page(table, f"/games/{game_id}")
    # the director opens the table card again: a new card, the old one stays dead
    again = re.search(
        r'<a href="http://localhost(/games/[\w-]+/join\?key=[\w-]+)"', page(client, card_page)
    )[1]
    assert again != card
    assert table.get(card).status_code == 403
    refused = table.post(
        card.split("?")[0], data={**fields(joined, card.split("?")[0]), "label": "T"}
    )
    assert refused.status_code == 403
    assert "+ Quick hand" not in page(table, f"/games/{game_id}")
    assert (
        again
        == re.search(
            r'<a href="http://localhost(/games/[\w-]+/join\?key=[\w-]+)"', page(client, card_page)
        )[1]
    )
    # the director wants the phone back: the new card
    new = page(table, again)
    table.post(again.split("?")[0], data={**fields(new, again.split("?")[0]), "label": "Table"})
    assert "+ Quick hand" in page(table, f"/games/{game_id}")


def test_wrong_director_tokens_lock_the_guesser_but_never_the_director(tmp_path):
    app = create_app(
        {
            "DB": str(tmp_path / "limited.db"),
            "SECRET_KEY": "test",
            "TESTING": True,
            "WRONG_TOKEN_LIMIT": "2 per minute",
        }
    )
    director_phone = app.test_client()
    event_id = made(director_phone, new_players=PLAYERS)[0]
    guesser = app.test_client()  # the same address (the test client's), no right
    action = f"/events/{event_id}/restore"
    hidden = fields(page(guesser, action), action)
    statuses = [
        guesser.post(action, data={**hidden, "token": f"guess-{i}"}).status_code for i in range(3)
    ]
    assert statuses == [403, 403, 429]
    assert guesser.post(f"/events/{event_id}/rounds", data=hidden).status_code == 429
    # the director, from the same address, is never counted nor refused
    for _ in range(3):
        assert pair(director_phone, event_id).status_code == 303


def test_every_form_giving_a_right_gives_the_phone_its_device_first(client, module_app):
    """The phone holds its device id before it sends a form that gives it a right, so a
    request sent meanwhile without the id (the service worker keeping its first pages)
    cannot come back with another id and take the right's place."""
    event_id, recovery = made(client, new_players=PLAYERS)
    assert pair(client, event_id).status_code == 303
    game_id = client.get(f"/api/v1/events/{event_id}").get_json()["rounds"][0]["matches"][0][
        "game_id"
    ]
    for address in (
        "/events/new",
        "/",
        recovery,
        f"/events/{event_id}/restore",
        f"/games/{game_id}/join?key=nothing",
    ):
        fresh = module_app.test_client()
        fresh.get(address)
        device = fresh.get_cookie("sk_device")
        assert device is not None, address
        fresh.get("/")  # a first page kept by the service worker, sent with the id
        assert fresh.get_cookie("sk_device").value == device.value, address
