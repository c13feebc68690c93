"""Scorepad edit rights and form keys through Flask's test client on a real SQLite file.

Edit rights live server-side per device (a signed device id cookie): the
phone that starts a game holds them, hands them over by a link whose
secret the store keeps only hashed, sees and revokes the phones holding
them. Every form that changes a sheet carries an idempotency key and the
sheet version: sent twice it stores once; built from an older version it
stores nothing and says the sheet changed, keeping what was typed. The
browser tests (test_pad_rights_browser.py) drive the same through chromium.
"""

from __future__ import annotations

import hashlib
import html
import re
import sqlite3

from api import create_app

QUICK = {
    "mode": "quick",
    "knocker": "0",
    "kind": "knock",
    "knocker_deadwood": "3",
    "defender_deadwood": "12",
}


def new_app(db, secret="test"):
    return create_app({"DB": str(db), "SECRET_KEY": secret, "TESTING": True})


def page(client, path) -> str:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.get_data(as_text=True)


def fields(markup: str, form_action: str) -> dict[str, str]:
    """The hidden fields of the form posting to ``form_action`` on a page."""
    form = re.search(
        rf'<form[^>]*action="{re.escape(form_action)}"[^>]*>(.*?)</form>', markup, re.S
    )
    assert form, form_action
    return {
        name: html.unescape(value)
        for name, value in re.findall(
            r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(1)
        )
    }


def start(client) -> str:
    token = fields(page(client, "/"), "/games")["csrf_token"]
    response = client.post(
        "/games",
        data={
            "csrf_token": token,
            "player_0": "Ana",
            "player_1": "Bor",
            "preset": "standard",
            "options_for": "standard",
            "dealer": "0",
        },
    )
    assert response.status_code == 303
    return response.headers["Location"]


def hand_form(client, game) -> dict[str, str]:
    return fields(page(client, game + "/hand"), game + "/hand")


def version(client, game) -> int:
    return client.get("/api/v1" + game).json["version"]


def text(response) -> str:
    plain = re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))
    return html.unescape(re.sub(r"\s+", " ", plain))


def hand_over(owner, game) -> str:
    """Make a hand-over link on the owner's phones page; returns the link (path + query)."""
    csrf = fields(page(owner, game + "/phones"), game + "/handover")["csrf_token"]
    made = owner.post(game + "/handover", data={"csrf_token": csrf, "action": "new"})
    assert made.status_code == 303
    shown = page(owner, made.headers["Location"])
    assert "<svg" in shown and 'class="qr"' in shown
    assert not re.search(r"\sstyle=|<script>", shown)  # the CSP allows neither
    link = html.unescape(re.search(r'id="handover-link" value="([^"]+)"', shown).group(1))
    return link.split("localhost", 1)[1]


def join(client, link, label="Bor's phone"):
    markup = page(client, link)
    return client.post(
        link.split("?")[0], data={**fields(markup, link.split("?")[0]), "label": label}
    )


# ----------------------------------------------------------------------------- hand-over


def test_a_second_phone_takes_over_by_the_hand_over_link(client, db):
    game = start(client)
    other = client.application.test_client()
    assert other.get(game + "/hand").status_code == 403
    link = hand_over(client, game)
    assert other.get(game + "/hand").status_code == 403  # opening the link grants nothing
    assert "Keep the score on this phone" in page(other, link)
    joined = join(other, link)
    assert joined.status_code == 303 and joined.headers["Location"].endswith("done=joined")
    assert other.post(game + "/hand", data={**hand_form(other, game), **QUICK}).status_code == 303
    assert version(client, game) == 1
    # the owner sees both phones; the secret is stored only as its SHA-256
    phones = text(client.get(game + "/phones"))
    assert "The phone that started the game this phone" in phones and "Bor's phone" in phones
    secret = re.search(r"key=([\w-]+)", link).group(1)
    with sqlite3.connect(db) as conn:
        stored = conn.execute("SELECT secret_hash FROM handovers").fetchall()
        assert stored == [(hashlib.sha256(secret.encode()).hexdigest(),)]
        devices = [row[0] for row in conn.execute("SELECT device_hash FROM edit_rights")]
        dump = "\n".join(conn.iterdump())
    assert secret not in dump and other.get_cookie("sk_device").value not in dump
    assert len(devices) == 2 and all(re.fullmatch(r"[0-9a-f]{64}", d) for d in devices)


def test_the_owner_revokes_a_phone_and_rotates_or_ends_the_link(client):
    game = start(client)
    other = client.application.test_client()
    old = hand_over(client, game)
    join(other, old)
    markup = page(client, game + "/phones")
    right = re.findall(r'action="(' + re.escape(game) + r'/phones/\d+/revoke)"', markup)
    assert len(right) == 2
    revoked = client.post(right[1], data=fields(markup, right[1]))
    assert revoked.headers["Location"].endswith("done=revoked")
    assert other.get(game + "/hand").status_code == 403
    assert "read-only" in text(other.get(game))
    # a new link replaces the old one
    new = hand_over(client, game)
    refused = other.get(old)  # the revoked phone is told so (issue 27)
    assert refused.status_code == 403 and "right to keep the score" in text(refused)
    stranger = client.application.test_client().get(old)  # a phone never handed it: replaced
    assert stranger.status_code == 403 and "no longer works" in text(stranger)
    stale = other.post(
        old.split("?")[0],
        data={
            "csrf_token": fields(page(other, new), new.split("?")[0])["csrf_token"],
            "key": old.split("key=")[1],
        },
    )
    assert stale.status_code == 403 and other.get(game + "/hand").status_code == 403
    # turned off, the new link stops working too
    client.post(
        game + "/handover",
        data={**fields(page(client, game + "/phones"), game + "/handover"), "action": "off"},
    )
    assert other.get(new).status_code == 403
    # the owner can give up its own right: the sheet is then read-only there too
    markup = page(client, game + "/phones")
    mine = re.findall(r'action="(' + re.escape(game) + r'/phones/\d+/revoke)"', markup)
    assert len(mine) == 1
    client.post(mine[0], data=fields(markup, mine[0]))
    assert client.get(game + "/hand").status_code == 403


def test_a_revoked_phone_cannot_rejoin_by_the_link_it_joined_by(client):
    game = start(client)
    other = client.application.test_client()
    link = hand_over(client, game)
    join(other, link)
    markup = page(client, game + "/phones")
    right = re.findall(r'action="(' + re.escape(game) + r'/phones/\d+/revoke)"', markup)
    client.post(right[1], data=fields(markup, right[1]))
    assert "A hand-over link is active" not in text(client.get(game + "/phones"))
    refused = other.get(link)  # the true cause: this phone's right was revoked
    assert refused.status_code == 403 and "was revoked" in text(refused)
    assert "no longer works" not in text(refused)
    secret = link.split("key=")[1]
    again = other.post(
        link.split("?")[0],
        data={"csrf_token": fields(page(other, "/"), "/games")["csrf_token"], "key": secret},
    )
    assert again.status_code == 403 and other.get(game + "/hand").status_code == 403


def test_a_refused_phone_label_is_named_and_grants_nothing(client):
    game = start(client)
    other = client.application.test_client()
    link = hand_over(client, game)
    refused = join(other, link, label="Bor\u202e")
    assert refused.status_code == 422
    assert 'id="err-label"' in refused.get_data(as_text=True)
    assert other.get(game + "/hand").status_code == 403
    assert join(other, link, label="").status_code == 303
    assert "A phone that joined by the hand-over link" in text(client.get(game + "/phones"))


def test_rights_survive_a_restart_and_need_the_signed_device_id(client, db):
    game = start(client)
    device = client.get_cookie("sk_device").value
    restarted = new_app(db).test_client()  # a new process: the same file and key
    restarted.set_cookie("sk_device", device)
    assert restarted.get(game + "/hand").status_code == 200
    forged = new_app(db).test_client()
    forged.set_cookie("sk_device", device[:-3] + "abc")
    assert forged.get(game + "/hand").status_code == 403
    other_key = new_app(db, secret="another key").test_client()
    other_key.set_cookie("sk_device", device)
    assert other_key.get(game + "/hand").status_code == 403


def test_cookies_stay_few_and_small_and_last_a_season(client):
    for _ in range(30):
        game = start(client)
    response = client.get(game)
    cookies = response.headers.getlist("Set-Cookie")
    assert cookies and all("Max-Age=10368000" in c and "HttpOnly" in c for c in cookies)
    jar = [client.get_cookie(name) for name in ("sk_csrf", "sk_device", "sk_deck")]
    held = [c for c in jar if c is not None]
    assert len(held) == 2 and sum(len(c.key) + len(c.value) for c in held) < 300
    assert text(client.get("/")).count(" vs Bor") == 8  # the 8 last games


# ----------------------------------------------------------------------------- form keys


def test_a_form_sent_twice_stores_one_hand_and_shows_the_sheet(client):
    game = start(client)
    form = {**hand_form(client, game), **QUICK}
    assert client.post(game + "/hand", data=form).headers["Location"].endswith("done=added&n=1")
    again = client.post(game + "/hand", data=form)
    assert again.status_code == 303 and "done=again" in again.headers["Location"]
    assert "already saved" in text(client.get(again.headers["Location"]))
    assert version(client, game) == 1


def test_a_stale_form_says_the_sheet_changed_and_keeps_what_was_typed(client):
    game = start(client)
    mine = hand_form(client, game)
    client.post(game + "/hand", data={**hand_form(client, game), **QUICK})  # another phone
    typed = {
        **mine,
        "mode": "quick",
        "knocker": "1",
        "kind": "knock",
        "knocker_deadwood": "4",
        "defender_deadwood": "29",
    }
    response = client.post(game + "/hand", data=typed)
    assert response.status_code == 409 and version(client, game) == 1
    body = response.get_data(as_text=True)
    assert "The sheet changed" in text(response) and "Hand 2" in text(response)
    assert 'value="29"' in body and 'name="knocker" value="1" checked' in body
    kept = fields(body, game + "/hand")
    assert kept["version"] == "1" and kept["form_key"] != mine["form_key"]
    assert 'class="total">9<' in body  # Ana's 9 is shown
    assert client.post(game + "/hand", data={**typed, **kept}).status_code == 303
    assert version(client, game) == 2


def test_a_used_form_with_other_values_is_not_stored_again(client):
    game = start(client)
    form = {**hand_form(client, game), **QUICK}
    client.post(game + "/hand", data=form)
    response = client.post(game + "/hand", data={**form, "defender_deadwood": "20"})
    assert response.status_code == 409 and "already saved" in text(response)
    assert 'value="20"' in response.get_data(as_text=True) and version(client, game) == 1


def test_the_hand_form_may_be_kept_for_back_so_it_comes_back_with_its_key(client):
    # Back after saving must bring the form back as it was built (its key, its
    # version), not a fresh one filled with the restored values: so the form is
    # cacheable privately (browsers show it from cache on Back); other pages are not.
    game = start(client)
    assert client.get(game + "/hand").headers["Cache-Control"] == "private, no-cache"
    assert client.get(game).headers["Cache-Control"] == "no-store"


def test_a_form_with_errors_keeps_its_key_and_version(client):
    game = start(client)
    form = hand_form(client, game)
    response = client.post(game + "/hand", data={**form, **QUICK, "knocker_deadwood": "12"})
    assert response.status_code == 422
    assert fields(response.get_data(as_text=True), game + "/hand") == form


def test_undo_and_void_are_idempotent_and_version_checked(client):
    game = start(client)
    for _ in range(2):
        client.post(game + "/hand", data={**hand_form(client, game), **QUICK})
    undo = fields(page(client, game), game + "/undo")
    assert client.post(game + "/undo", data=undo).headers["Location"].endswith("n=2")
    assert "done=again" in client.post(game + "/undo", data=undo).headers["Location"]
    assert version(client, game) == 3  # two hands, one undo
    stale_void = fields(page(client, game + "/hands/1"), game + "/hands/1/void")
    client.post(game + "/hand", data={**hand_form(client, game), **QUICK})
    changed = client.post(game + "/hands/1/void", data=stale_void)
    assert "done=changed" in changed.headers["Location"] and version(client, game) == 4
    assert "changed on another phone" in text(client.get(changed.headers["Location"]))
    void = fields(page(client, game + "/hands/1"), game + "/hands/1/void")
    assert "done=voided" in client.post(game + "/hands/1/void", data=void).headers["Location"]
    assert "done=again" in client.post(game + "/hands/1/void", data=void).headers["Location"]
    assert version(client, game) == 5


def test_a_stale_correction_keeps_the_typed_correction_or_says_the_hand_is_gone(client):
    game = start(client)
    for _ in range(2):
        client.post(game + "/hand", data={**hand_form(client, game), **QUICK})
    edit = game + "/hands/2/edit"
    mine = fields(page(client, edit), edit)
    client.post(
        game + "/hands/1/edit",
        data={
            **fields(page(client, game + "/hands/1/edit"), game + "/hands/1/edit"),
            **QUICK,
            "defender_deadwood": "20",
        },
    )
    response = client.post(edit, data={**mine, **QUICK, "defender_deadwood": "30"})
    assert response.status_code == 409 and "The sheet changed" in text(response)
    assert "Save the correction" in text(response) and 'value="30"' in response.get_data(
        as_text=True
    )
    assert version(client, game) == 3
    # once hand 2 is taken back, its stale correction goes to the sheet, which says so
    undo = fields(page(client, game), game + "/undo")
    client.post(game + "/undo", data=undo)
    gone = client.post(edit, data={**fields(response.get_data(as_text=True), edit), **QUICK})
    assert gone.status_code == 404 and "There is no hand 2" in text(gone)
    assert version(client, game) == 4


# ----------------------------------------------------------------------------- starting games


def games_in(db) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM games").fetchone()[0]


def test_a_start_form_sent_twice_starts_one_game(client, db):
    form = {
        **fields(page(client, "/"), "/games"),
        "player_0": "Ana",
        "player_1": "Bor",
        "preset": "standard",
        "options_for": "standard",
        "dealer": "0",
    }
    assert form["form_key"] and "version" not in form  # a key; no sheet to have a version
    assert client.get("/").headers["Cache-Control"] == "private, no-cache"  # Back keeps it
    first = client.post("/games", data=form)
    again = client.post("/games", data=form)  # a double tap, or Back then Start
    assert first.status_code == again.status_code == 303
    assert first.headers["Location"] == again.headers["Location"]
    assert games_in(db) == 1
    game = first.headers["Location"]
    assert client.get(game + "/hand").status_code == 200  # this phone keeps the right
    # the same form with other names is not a second game in disguise
    changed = client.post("/games", data={**form, "player_1": "Cy"})
    assert changed.status_code == 409 and "already started a game" in text(changed)
    assert games_in(db) == 1


def test_a_revoked_phone_gets_nothing_back_by_sending_its_start_form_again(client, db):
    form = {
        **fields(page(client, "/"), "/games"),
        "player_0": "Ana",
        "player_1": "Bor",
        "preset": "standard",
        "options_for": "standard",
        "dealer": "0",
    }
    game = client.post("/games", data=form).headers["Location"]
    other = client.application.test_client()
    join(other, hand_over(client, game))
    markup = page(other, game + "/phones")
    rights = re.findall(r'action="(' + re.escape(game) + r'/phones/\d+/revoke)"', markup)
    revoked = other.post(rights[0], data=fields(markup, rights[0]))  # the starter's right
    assert revoked.status_code == 303 and client.get(game + "/hand").status_code == 403
    replay = client.post("/games", data=form)
    assert replay.headers["Location"] == game and games_in(db) == 1
    assert client.get(game + "/hand").status_code == 403


def test_new_game_with_the_same_players_twice_is_one_game(client, db):
    game = start(client)
    for _ in range(2):  # two gins of 65: the game is over
        client.post(
            game + "/hand",
            data={
                **hand_form(client, game),
                **QUICK,
                "kind": "gin",
                "knocker_deadwood": "0",
                "defender_deadwood": "40",
            },
        )
    markup = page(client, game)
    form = fields(markup, game + "/rematch")
    assert form["form_key"]
    first = client.post(game + "/rematch", data=form)
    again = client.post(game + "/rematch", data=form)
    assert first.status_code == again.status_code == 303
    assert first.headers["Location"] == again.headers["Location"]
    assert games_in(db) == 2
