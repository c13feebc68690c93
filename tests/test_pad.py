"""The scorepad pages through Flask's test client, and its domain helpers.

The browser tests (test_pad_browser.py) drive the same pages in chromium;
these check what is quicker to check here: CSRF refusals, edit rights,
security headers, pages without JavaScript, Hollywood and Oklahoma sheets,
and the wording and arithmetic of scorekeeper's pad_* modules.
"""

from __future__ import annotations

import html
import json
import re
import sqlite3

import pytest
from sheet_kit import as_stored

import scorekeeper as sk
from api.pad import forms_hand, forms_start, terms, views_hand, views_sheet
from api.pad import labels as pad_labels
from api.pad import replay as pad_replay
from scorekeeper.cards import Card
from scorekeeper.errors import RuleError
from scorekeeper.handinput import QuickHand, VoidHand
from scorekeeper.names import MAX_NAME_LENGTH
from scorekeeper.rules import Rules

ANA = "As 2s 3s 4c 4d 4h 9d Td Jd 2c".split()
BOR = "5s 6s 4s 7c 8c 9c Kh Qh Jh 3d".split()


def token(client, path="/") -> str:
    html = client.get(path).get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def start(client, preset="standard", **extra) -> str:
    data = {
        "csrf_token": token(client),
        "player_0": "Ana",
        "player_1": "Bor",
        "preset": preset,
        "options_for": preset,
        "dealer": "0",
        **extra,
    }
    response = client.post("/games", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def quick(client, game, knocker, kind, k, d, **extra):
    return client.post(
        game + "/hand",
        data={
            "csrf_token": token(client, game),
            "mode": "quick",
            "knocker": str(knocker),
            "kind": kind,
            "knocker_deadwood": str(k),
            "defender_deadwood": str(d),
            **extra,
        },
    )


def text(response) -> str:
    """What a page says: its markup and its scripts' data (``<script>`` blocks) left out."""
    page = re.sub(r"<script\b.*?</script>", " ", response.get_data(as_text=True), flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def showdown_of(client, saved):
    """The page of the hand a card form saved: the form lands on the sheet, whose notice
    ("Hand 1 added.") links to the hand's showdown."""
    assert saved.status_code == 303 and "/hands/" not in saved.headers["Location"]
    sheet = client.get(saved.headers["Location"]).get_data(as_text=True)
    link = re.search(r'<a href="([^"]+)">See the showdown</a>', sheet)
    assert link, "the sheet's notice links to the showdown"
    return client.get(html.unescape(link.group(1)))


# ----------------------------------------------------------------------------- pages


def test_pages_send_csp_and_have_no_inline_script_or_style(client):
    game = start(client)
    quick(client, game, 0, "knock", 3, 12)
    for path in ("/", game, game + "/hand?mode=cards", game + "/hands/1", "/check", "/replay"):
        response = client.get(path)
        assert response.status_code == 200, path
        csp = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        html = response.get_data(as_text=True)
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag or 'type="application/json"' in tag, (path, tag)
        assert not re.search(r"\sstyle=", html), path
        assert not re.search(r"\son[a-z]+=", html), path


def test_post_without_a_valid_csrf_token_is_refused_and_keeps_the_fields(client):
    game = start(client)
    form = {"mode": "quick", "knocker": "1", "defender_deadwood": "37"}
    response = client.post(game + "/hand", data=form, headers={"Origin": "http://localhost"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "Send again" in html and 'value="37"' in html
    for origin in ({}, {"Origin": "null"}, {"Origin": "http://localhost:8001"}):
        # not from this site's own page: nothing to send again (see test_attacks.py)
        html = client.post(game + "/hand", data=form, headers=origin).get_data(as_text=True)
        main = html.split("<main")[1].split("</main>")[0]
        # nothing typed comes back (the game's id, in its links, may hold a "37" by chance)
        typed_back = html.replace(game.rsplit("/", 1)[1], "")
        assert "Nothing was saved" in main and "37" not in typed_back, origin
        assert "<form" not in main, origin
    assert (
        client.post(
            "/games", data={"csrf_token": "forged", "player_0": "X", "player_1": "Y"}
        ).status_code
        == 400
    )
    assert (
        client.post(
            game + "/undo",
            data={"csrf_token": token(client)},
            headers={"Origin": "https://evil.example"},
        ).status_code
        == 400
    )
    assert "No hands yet" in text(client.get(game))


def test_only_the_starting_browser_may_edit(client, tmp_path):
    game = start(client)
    cookie = client.get_cookie("sk_device")
    assert cookie is not None and cookie.http_only
    assert client.get_cookie("sk_edit_" + game.rsplit("/", 1)[1]) is None  # rights: server-side
    other = client.application.test_client()
    assert other.get(game).status_code == 200
    assert "read-only" in text(other.get(game))
    response = quick(other, game, 0, "knock", 3, 12)
    assert response.status_code == 403 and "read-only" in text(response)
    assert other.get(game + "/hand").status_code == 403


def test_a_full_disk_is_a_clear_page_and_the_sheet_stays_whole(client):
    game = start(client)
    conn = client.application.extensions["scorekeeper.store.sqlite"].db.conn  # this thread's
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages + 1}")
    responses = [quick(client, game, i % 2, "knock", 3, 5) for i in range(40)]
    saved = sum(r.status_code == 303 for r in responses)
    full = [r for r in responses if r.status_code != 303]
    assert full and {r.status_code for r in full} == {507}
    assert "disk is full, so nothing was saved" in text(full[0])
    conn.execute("PRAGMA max_page_count = 1073741823")
    assert client.get("/api/v1" + game).json["version"] == saved
    assert quick(client, game, 0, "knock", 3, 5).status_code == 303  # room again


def test_quick_errors_are_next_to_their_field_and_keep_what_was_typed(client):
    game = start(client)
    response = quick(client, game, 0, "knock", 11, 40)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert re.search(r'id="err-knocker_deadwood"[^>]*>A knock needs 10 or less', html)
    assert 'value="40"' in html and 'value="11"' in html
    response = client.post(
        game + "/hand",
        data={
            "csrf_token": token(client),
            "mode": "quick",
            "kind": "knock",
            "defender_deadwood": "5",
        },
    )
    assert "Choose who went out" in text(response)


def test_cards_check_then_save_and_duplicate_card(client):
    game = start(client)
    data = {
        "csrf_token": token(client),
        "mode": "cards",
        "knocker": "0",
        "cards_0": ANA,
        "cards_1": BOR,
        "action": "check",
    }
    response = client.post(game + "/hand", data=data)
    assert response.status_code == 200 and "Ana knocks and scores 1" in text(response)
    assert "No hands yet" in text(client.get(game))
    twice = {**data, "cards_1": [*BOR[:9], "As"]}
    response = client.post(game + "/hand", data=twice)
    assert response.status_code == 422
    assert re.search(
        r'id="err-cards_1"[^>]*>A♠ is tapped for both players', response.get_data(as_text=True)
    )
    response = client.post(game + "/hand", data={**data, "action": "save"})
    assert response.status_code == 303
    assert "Ana knocked: 1" in text(client.get(game))


def notice(client, response) -> str:
    """The HTML of the notice of the sheet a form's answer (a 303) leads to."""
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    found = re.search(r'<div class="notice saved".*?</div>', page, re.S)
    assert found, "the sheet has the saved hand's notice"
    return found.group(0)


def test_every_save_lands_on_the_sheet_with_undo_and_the_showdown(client):
    game = start(client)
    added = notice(client, quick(client, game, 0, "knock", 3, 12))
    assert "Hand 1 added." in added and "See the showdown" not in added  # counts only
    undo = re.search(r'<form method="post" action="([^"]+)".*?</form>', added, re.S)
    assert undo and undo.group(1) == game + "/undo"
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', undo.group(0)))
    assert fields["version"] == "1"  # version-checked: the sheet after hand 1
    cards = {"csrf_token": token(client), "mode": "cards", "knocker": "0"}
    saved = client.post(game + "/hand", data={**cards, "cards_0": ANA, "cards_1": BOR})
    assert "/hands/" not in saved.headers["Location"]
    added = notice(client, saved)
    assert "Hand 2 added." in added and f'href="{game}/hands/2">See the showdown' in added
    assert "Ana knocks and scores 1" in text(showdown_of(client, saved))
    # the first notice's Undo is stale now: it takes back nothing
    stale = client.post(game + "/undo", data=fields)
    assert "done=changed" in stale.headers["Location"] and "Ana knocked: 1" in text(
        client.get(game)
    )
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', added))
    undone = client.post(game + "/undo", data=fields)
    assert undone.headers["Location"].endswith("done=undone&n=2")
    assert "Hand 2 taken back." in text(client.get(undone.headers["Location"]))
    corrected = client.post(game + "/hands/1/edit", data={**cards, "cards_0": ANA, "cards_1": BOR})
    shown = notice(client, corrected)
    assert "Hand 1 corrected; the sheet is recomputed." in shown
    assert "See the showdown" in shown and "Undo" not in shown  # Undo takes back the last hand
    other = start(client)
    deal = {k: v for k, v in sk.simulate(24, dealer=0).items() if k not in ("rules", "players")}
    record = {"csrf_token": token(client), "mode": "record", "record": json.dumps(deal)}
    added = notice(client, client.post(other + "/hand", data=record))
    assert "Hand 1 added." in added and "See the showdown" in added and "Undo" in added


def test_void_correct_and_undo(client):
    game = start(client)
    quick(client, game, 0, "knock", 3, 12)  # Ana 9
    quick(client, game, 1, "gin", 0, 20)  # Bor 45
    response = client.post(game + "/hands/1/void", data={"csrf_token": token(client)})
    assert response.status_code == 303
    page = text(client.get(game))
    assert "Void hand" in page and "Bor went gin: 45" in page
    client.post(
        game + "/hands/2/edit",
        data={
            "csrf_token": token(client),
            "mode": "quick",
            "knocker": "1",
            "kind": "gin",
            "knocker_deadwood": "0",
            "defender_deadwood": "5",
        },
    )
    assert "Bor went gin: 30" in text(client.get(game))
    client.post(game + "/undo", data={"csrf_token": token(client)})
    assert "Bor went gin" not in text(client.get(game))


def test_hollywood_sheet_shows_three_columns(client):
    game = start(client, "hollywood")
    for _ in range(3):
        quick(client, game, 0, "gin", 0, 10)  # 35 each: columns 1, 1-2, 1-3
    html = client.get(game).get_data(as_text=True)
    assert "Hollywood: three games" in html
    rows = re.findall(r'<tr><th scope="row">(\d)</th>(.*?)</tr>', html, re.S)
    assert [row[0] for row in rows] == ["1", "2", "3"]
    assert "105" in rows[0][1] and "70" in rows[1][1] and "35" in rows[2][1]


def test_oklahoma_needs_the_upcard_and_spades_double(client):
    game = start(client, "oklahoma")
    response = quick(client, game, 0, "knock", 3, 12)
    assert response.status_code == 422 and "Pick the first upcard" in text(response)
    response = quick(client, game, 0, "knock", 3, 12, upcard="5s")
    assert response.status_code == 303
    assert "Ana knocked: 18" in text(client.get(game))  # (12 - 3) x 2


def test_start_form_errors_and_custom_options(client):
    response = client.post(
        "/games",
        data={
            "csrf_token": token(client),
            "player_0": "Ana",
            "player_1": "ana",
            "preset": "standard",
            "options_for": "standard",
            "gin_bonus": "x",
            "stake": "lots",
        },
    )
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "need different names" in html and "whole number" in html and "stake per point" in html
    assert 'value="lots"' in html
    game = start(client, "standard", gin_bonus="30", target="50")
    assert "gin bonus 30" in text(client.get(game)) and "to 50" in text(client.get(game))
    limited = start(client, "standard", knock_limit="7")
    assert 'name="knocker_deadwood" min="0" max="7"' in client.get(
        limited + "/hand?mode=quick"
    ).get_data(as_text=True)


def test_game_over_and_rematch(client):
    game = start(client, stake="0.10")
    for _ in range(3):
        quick(client, game, 1, "gin", 0, 10)
    page = text(client.get(game))
    assert "Game over: Bor wins" in page and "Ana pays Bor 38.00" in page  # (105+75+200) x 0.1
    assert "stake 0.1 a point" in page
    assert 'role="group" aria-label="Bor: 105 points, 3 boxes"' in client.get(game).get_data(
        as_text=True
    )
    response = client.post(game + "/rematch", data={"csrf_token": token(client)})
    assert response.status_code == 303
    assert "Bor deals" in text(client.get(response.headers["Location"]))


def test_replay_page_without_javascript(client):
    record = sk.simulate(11, dealer=1)
    response = client.post(
        "/replay", data={"csrf_token": token(client), "record": json.dumps(record), "step": "2"}
    )
    # a good record is answered with a link carrying it: stepping is GET, Back works
    assert response.status_code == 303 and response.headers["Location"].startswith("/replay?r=")
    response = client.get(response.headers["Location"])
    assert response.status_code == 200 and "Step 2 of" in text(response)
    response = client.post("/replay", data={"csrf_token": token(client), "record": "[1"})
    assert response.status_code == 422 and "not a deal record" in text(response)
    bad_dealer = json.dumps({**record, "dealer": 5})
    response = client.post("/replay", data={"csrf_token": token(client), "record": bad_dealer})
    assert response.status_code == 422
    assert "Dealer must be 0 or 1" in text(response)
    assert bad_dealer in response.get_data(as_text=True).replace("&#34;", '"')


def test_a_bad_deal_record_in_a_game_is_shown_next_to_the_record(client):
    game = start(client)
    record = sk.simulate(11, dealer=0)
    record.pop("rules"), record.pop("players")
    taken = record["actions"].index("draw discard")
    bad = {**record, "actions": [*record["actions"][: taken + 1], "discard " + record["upcard"]]}
    response = client.post(
        game + "/hand",
        data={"csrf_token": token(client, game), "mode": "record", "record": json.dumps(bad)},
    )
    assert response.status_code == 422
    page = html.unescape(text(response))
    # the step is counted from 1, as the replay viewer shows it
    upcard = terms.card_info(record["upcard"])["label"]
    assert f"Step {taken + 2} ('discard {upcard}') is not legal" in page
    assert "just taken from the discard pile" in page
    other = {k: v for k, v in sk.simulate(11, dealer=1).items() if k not in ("rules", "players")}
    response = client.post(
        game + "/hand",
        data={"csrf_token": token(client, game), "mode": "record", "record": json.dumps(other)},
    )
    assert response.status_code == 422
    assert "Ana (0) deals this hand, not Bor (1)" in text(response)


def test_four_colour_setting_and_live_melds(client):
    response = client.post(
        "/settings", data={"csrf_token": token(client), "four_colour": "on", "next": "/check"}
    )
    assert response.headers["Location"] == "/check"
    assert 'class="four"' in client.get("/check").get_data(as_text=True)
    data = client.get("/pad/melds?cards=As 2s 3s Kd").get_json()
    assert data["deadwood"] == 10 and data["melds"][0][0]["name"] == "ace of spades"
    assert client.get("/pad/melds?cards=As As").status_code == 422


# ----------------------------------------------------------------------------- domain helpers


def test_card_info_labels_for_people_and_screen_readers():
    assert terms.card_info("Ts") == {
        "code": "Ts",
        "rank": "10",
        "suit": "s",
        "symbol": "♠",
        "label": "10♠",
        "name": "ten of spades",
        "suit_name": "spades",
    }
    grid = terms.card_grid()
    assert [row["suit"] for row in grid] == list("shdc")
    assert all(len(row["cards"]) == 13 for row in grid)


@pytest.mark.parametrize(
    ("kind", "k", "d", "field", "words"),
    [
        ("knock", "12", "20", "knocker_deadwood", "10 or less"),
        ("knock", "", "20", "knocker_deadwood", "whole number"),
        ("gin", "4", "20", "knocker_deadwood", "Gin means no deadwood"),
        ("knock", "3", "99", "defender_deadwood", "at most 98"),
        ("big_gin", "0", "20", "kind", "not played"),
        ("fold", "0", "1", "kind", "Choose"),
    ],
)
def test_quick_input_refusals(kind, k, d, field, words):
    with pytest.raises(RuleError) as error:
        forms_hand.quick_input(Rules.preset("standard"), "0", kind, k, d)
    assert error.value.option == field and words in str(error.value)


def test_quick_input_builds_hand_inputs():
    quick = forms_hand.quick_input(Rules.preset(), "1", "knock", "0", "7")
    assert quick == QuickHand(knocker=1, knocker_deadwood=0, defender_deadwood=7)
    assert quick.data == {
        "kind": "quick",
        "knocker": 1,
        "knocker_deadwood": 0,
        "defender_deadwood": 7,
    }
    void = forms_hand.quick_input(Rules.preset(), "", "void")
    assert isinstance(void, VoidHand) and void.data == {"kind": "void"}
    big = forms_hand.quick_input(Rules.preset("modern"), "0", "big_gin", "", "12")
    assert big.big_gin is True and big.data["big_gin"] is True
    upcard = forms_hand.quick_input(Rules.preset("oklahoma"), "0", "knock", "3", "12", "5s")
    assert upcard.upcard == Card("5s") and upcard.data["upcard"] == "5s"
    with pytest.raises(RuleError, match="only gin ends a hand"):
        forms_hand.quick_input(Rules.preset("straight"), "0", "knock", "3", "12")


def test_rules_from_form_follows_the_chosen_preset_without_javascript():
    values = forms_start.preset_values()["standard"]
    # Oklahoma chosen while the fields still show the standard values: Oklahoma's apply.
    rules = forms_start.rules_from_form({"preset": "oklahoma", "options_for": "standard", **values})
    assert rules == Rules.preset("oklahoma")
    # A field changed from what was shown is applied on top of the chosen preset.
    rules = forms_start.rules_from_form(
        {"preset": "oklahoma", "options_for": "standard", **values, "undercut_bonus": "10"}
    )
    assert rules == Rules.preset("oklahoma", undercut_bonus=10)
    rules = forms_start.rules_from_form({"preset": "standard", **values, "big_gin_bonus": "40"})
    assert rules.big_gin_bonus == 40


def test_showdown_view_and_what_could_be_laid_off():
    result = sk.verify_knock(ANA, BOR)
    view = views_hand.showdown_view(result, ["Ana", "Bor"])
    assert view["headline"] == "<bdi>Ana</bdi> knocks and scores 1."  # names isolated
    assert view["breakdown"] == "1 deadwood difference = 1"
    possible = {(x["card"]["code"], x["meld"][0]["code"]) for x in view["could_lay_off"]}
    assert possible == {("4s", "4c"), ("4s", "As"), ("5s", "As"), ("6s", "As")}
    undercut = views_hand.showdown_view(
        sk.verify_knock("As 2s 3s 4c 4d 4h 9d Td Jd Tc", "5c 5d 5h 7c 8c 9c Kh Qh Jh 2d"),
        ["Ana", "Bor"],
    )
    assert undercut["outcome"] == "undercut"
    assert "Undercut! <bdi>Bor</bdi> scores" in undercut["headline"]
    # /check names the players "the knocker" and "the defender": a sentence starts capitalised
    gin = views_hand.showdown_view(
        sk.verify_knock("As 2s 3s 4c 5c 6c 7d 8d 9d Td", "Ac Ad Ah 2h 3h 4h 5h 6h 7h 8h"),
        ["the knocker", "the defender"],
    )
    assert gin["headline"] == "Gin! <bdi>The knocker</bdi> scores 25."


def test_chart_geometry():
    sheet = sk.sheet.score_sheet(
        [{"winner": 0, "points": 50, "outcome": "knock"}], players=["A", "B"]
    )
    chart = views_sheet.chart(as_stored(sheet), width=100, height=60)
    assert chart["lines"][0]["points"] == "8.0,52.0 92.0,30.0"
    assert chart["target_y"] == 8.0 and chart["lines"][1]["total"] == 0
    # Hollywood totals are three games summed: no single target line fits them
    hollywood = sk.sheet.score_sheet(
        [{"winner": 0, "points": 50, "outcome": "knock"}], players=["A", "B"], rules="hollywood"
    )
    assert views_sheet.chart(as_stored(hollywood))["target_y"] is None


def _refusal(call, *args, **kwargs):
    with pytest.raises(sk.ScorekeeperError) as caught:
        call(*args, **kwargs)
    return caught.value


def test_worded_messages():
    """Worded from each error's code and params (the domain's messages are not parsed)."""
    error = _refusal(sk.parse_cards, "Ts 3h Ts", field="knocker")
    assert pad_labels.worded(error) == "Duplicate card 10♠ at position 3 (already at position 1)."
    oklahoma = _refusal(
        sk.verify_knock,
        "As 2s 3s 4c 5c 6c 7d 8d 9d 5h",
        "Ac Ad Ah 2h 3h Jh Kh Qh Qs Qc",
        rules="oklahoma",
        upcard="4h",
    )
    assert (
        pad_labels.worded(oklahoma)
        == "These cards leave 5 deadwood; a knock needs 4 or less (set by the upcard 4♥)."
    )
    straight = _refusal(
        sk.verify_knock,
        "As 2s 3s 4c 5c 6c 7d 8d 9d 5h",
        "Ac Ad Ah 2h 3h Jh Kh Qh Qs Qc",
        rules={"knock_limit": 0},
    )
    assert pad_labels.worded(straight) == "These cards leave 5 deadwood: only gin ends the hand."
    ace = _refusal(
        sk.verify_knock,
        "As 2s 3s 4c 5c 6c 7d 8d 9d 5h",
        "Ac Ad Kc 2h 3h Jh Kh Qh Qs Qc",
        rules="oklahoma",
        upcard="Ah",
    )
    assert (
        pad_labels.worded(ace)
        == "These cards leave 5 deadwood; under the upcard A♥ only gin ends the hand."
    )


def test_replay_steps_of_a_simulated_deal():
    record = sk.simulate(5, dealer=0)
    steps = pad_replay.replay_steps(record)
    result = sk.replay(record)
    assert len(steps) == len(record["actions"]) + (1 if not result.void else 0) + 1
    assert [len(h["cards"]) for h in steps[0]["hands"]] == [10, 10]
    assert steps[0]["stock"] == 31 and steps[0]["pile"][0]["code"] == record["upcard"]
    last = steps[-1]
    assert last["void"] == result.void
    if not result.void:
        assert last["showdown"]["points"] == result.points
    # actions are free in case and card notation, and read the same either way
    shouted = {
        **record,
        "actions": [re.sub(r"\bT([cdhs])$", r"10\1", a).upper() for a in record["actions"]],
    }
    assert [s["text"] for s in pad_replay.replay_steps(shouted)] == [s["text"] for s in steps]


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Ana\u202eroB", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        ("A\u200dna", "U+200D (ZERO WIDTH JOINER)"),
        ("Ana\r\nBor", "U+000D"),
        ("Bo\u00adr", "U+00AD (SOFT HYPHEN)"),
        ("\u3164", "U+3164 (HANGUL FILLER)"),
        ("Bor\u2800", "U+2800 (BRAILLE PATTERN BLANK)"),
        ("Bor\U000e0020", "U+E0020 (TAG SPACE)"),
    ],
)
def test_the_start_form_refuses_a_deceiving_name_next_to_its_field(client, tmp_path, name, shown):
    response = client.post(
        "/games",
        data={
            "csrf_token": token(client),
            "player_0": "Cy",
            "player_1": name,
            "preset": "standard",
            "options_for": "standard",
            "dealer": "0",
        },
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    error = re.search(r'<p class="error" id="err-player_1" role="alert">([^<]*)</p>', page)
    assert error and shown in html.unescape(error.group(1))
    assert 'id="err-player_0"' not in page
    with sqlite3.connect(tmp_path / "pad.db") as db:  # no game was started
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 0


def test_the_start_form_takes_names_as_one_player_would(client):
    response = client.post(
        "/games",
        data={
            "csrf_token": token(client),
            "player_0": "E\u0301mile",
            "player_1": "\u00c9MILE ",
            "preset": "standard",
            "options_for": "standard",
            "dealer": "0",
        },
    )
    assert response.status_code == 422 and "need different names" in response.get_data(as_text=True)
    limit = f'maxlength="{MAX_NAME_LENGTH}"'
    assert limit in client.get("/").get_data(as_text=True)


def test_every_name_on_the_pages_is_isolated(client):
    rtl, other = "\u05e9\u05e8\u05d4 1", "Bor <b>"  # Hebrew "Sara 1"; markup stays text
    game = start(client, stake="0.10", player_0=rtl, player_1=other)
    for _ in range(3):
        quick(client, game, 1, "gin", 0, 10)
    page = client.get(game).get_data(as_text=True)
    bare = re.sub(r"<bdi>[^<]*</bdi>", "", page)
    for shown in (rtl, html.escape(other)):
        assert f"<bdi>{shown}</bdi>" in page
        # outside <bdi>: only in attributes and the page title (isolated there); a link
        # preview's og:title is plain text for other apps (issue 27: isolates show as boxes)
        outside = [m.start() for m in re.finditer(re.escape(shown), bare)]
        for at in outside:
            context = bare[max(0, at - 120) : at]
            assert (
                'aria-label="' in context
                or "<desc" in context
                or bare[at - 1] == "\u2068"
                or bare.rfind('<meta property="og:title"', 0, at) > bare.rfind(">", 0, at)
            ), bare[at - 120 : at + 40]
    assert "<title>\u2068" + rtl + "\u2069 vs \u2068" + html.escape(other) in page
    assert "<bdi>Bor &lt;b&gt;</bdi> went gin: 35" in page
    assert "<bdi>" + rtl + "</bdi> pays <bdi>Bor &lt;b&gt;</bdi>" in page
    detail = client.get(game + "/hands/1").get_data(as_text=True)
    assert "<bdi>Bor &lt;b&gt;</bdi> went out" in detail and f"<bdi>{rtl}</bdi> 0" in detail
