"""Issue 21's fixes to the scorepad through Flask's test client: the duplicate guard
(two phones typing the same hand), replay's jumps, a Hollywood card's "needs", the
Oklahoma upcard first on the form and the sheet row's hindsight note.

The browser side (three melds in the live strip at 360 px, the guard's buttons) is
in test_pad_table_fixes_browser.py.
"""

from __future__ import annotations

import html
import json
import random
import re

import test_pad_layoffs
import test_pad_multi
from test_pad import quick, start, text, token

import scorekeeper as sk
from api.pad import replay as pad_replay


def opened_at(client, game) -> str:
    """The sheet version a hand form opened now carries."""
    form = client.get(game + "/hand?mode=quick").get_data(as_text=True)
    return re.search(r'name="version" value="(\d+)"', form).group(1)


def test_a_second_phone_typing_the_same_hand_is_offered_to_discard_it(client):
    game = start(client)
    quick(client, game, 0, "knock", 2, 10)
    version = opened_at(client, game)  # both phones open the form at version 1
    first = quick(client, game, 1, "gin", 0, 12, version=version, form_key="phone-one-123456")
    assert first.status_code == 303
    # the second phone typed the same hand as quick entry, other deadwood for the knocker
    # is impossible with gin, so the same winner, kind and points: Bor's gin for 37
    second = quick(client, game, 1, "gin", 0, 12, version=version, form_key="phone-two-123456")
    assert second.status_code == 409
    page = second.get_data(as_text=True)
    assert "The sheet changed" in page
    assert "What you typed matches hand 2, saved meanwhile" in text(second)
    discard = re.search(r'<div class="actions" data-same="2">(.*?)</div>', page, re.S).group(1)
    # Discard mine is the main button (a link back to the sheet: nothing saved), first;
    # Save anyway is the secondary one, sending the kept form
    assert re.findall(
        r"<(a|button) class=\"([^\"]*)\"[^>]*>([^<]+)<",
        discard.replace('type="submit" form="hand-form" name="action" value="save" ', ""),
    ) == [("a", "button", "Discard mine"), ("button", "secondary", "Save anyway")]
    assert f'href="{game}"' in discard
    assert 'id="hand-form"' in page
    assert len(client.get("/api/v1" + game).json["hands"]) == 2  # nothing saved
    # Save anyway sends the form as it came back (a fresh key, the current version)
    fields = dict(re.findall(r'name="(form_key|version)" value="([^"]+)"', page))
    again = quick(client, game, 1, "gin", 0, 12, action="save", **fields)
    assert again.status_code == 303
    assert len(client.get("/api/v1" + game).json["hands"]) == 3


def test_a_second_phone_typing_another_hand_keeps_the_changed_flow(client):
    game = start(client)
    version = opened_at(client, game)
    assert quick(client, game, 0, "knock", 2, 10, version=version).status_code == 303
    for other in (("0", "knock", 3, 10), ("1", "knock", 2, 10), ("0", "gin", 0, 10)):
        response = quick(client, game, *other, version=version)  # points, winner, kind
        assert response.status_code == 409
        page = response.get_data(as_text=True)
        assert "The sheet changed" in page and "What you typed is kept below." in page
        assert "Discard mine" not in page and "data-same" not in page
    assert len(client.get("/api/v1" + game).json["hands"]) == 1


def test_a_correction_typed_twice_is_offered_to_discard_it(client):
    game = start(client)
    quick(client, game, 0, "knock", 2, 10)
    form = client.get(game + "/hands/1/edit?mode=quick").get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', form).group(1)
    data = {"mode": "quick", "knocker": "1", "kind": "gin", "knocker_deadwood": "0"}
    data |= {"defender_deadwood": "5", "version": version}
    for key, status in (("phone-one-123456", 303), ("phone-two-123456", 409)):
        response = client.post(
            game + "/hands/1/edit",
            data={**data, "form_key": key, "csrf_token": token(client, game)},
        )
        assert response.status_code == status
    assert "What you typed matches hand 1" in text(response)
    assert "Discard mine" in text(response)


def test_three_players_and_a_partnership_deal_typed_twice_are_offered_to_discard_it(client):
    three = test_pad_multi.start(client, test_pad_multi.THREE)  # Ana deals: Bor plays Cy
    version = opened_at(client, three)
    for key, status in (("phone-one-123456", 303), ("phone-two-123456", 409)):
        response = quick(client, three, 1, "knock", 3, 12, version=version, form_key=key)
        assert response.status_code == status
    # Bor sits out the next hand: the second phone's hand is read as hand 1 was dealt
    assert "What you typed matches hand 1" in text(response)
    version = opened_at(client, three)
    form = client.get(three + "/hand").get_data(as_text=True)
    who = re.search(r'name="knocker" value="(\d)"', form).group(1)  # one who plays hand 2
    assert quick(client, three, who, "knock", 3, 12, version=version).status_code == 303
    response = quick(client, three, who, "knock", 4, 12, version=version)
    assert response.status_code == 409 and "Discard mine" not in text(response)

    four = test_pad_multi.start(client, test_pad_multi.FOUR)
    games = ((0, "knock", 4, 14), (3, "gin", 0, 20))
    version = opened_at(client, four)
    for key, status in (("phone-one-123456", 303), ("phone-two-123456", 409)):
        response = test_pad_multi.deal(client, four, *games, version=version, form_key=key)
        assert response.status_code == status
    assert "What you typed matches deal 1, saved meanwhile" in text(response)
    other = ((0, "knock", 4, 14), (3, "gin", 0, 21))  # one game's points differ
    response = test_pad_multi.deal(client, four, *other, version=version)
    assert response.status_code == 409 and "Discard mine" not in text(response)


def test_replay_jumps_to_the_showdown_and_to_the_end(client):
    game = start(client)
    record = {k: v for k, v in sk.simulate(11, dealer=0).items() if k not in ("rules", "players")}
    saved = client.post(
        game + "/hand",
        data={"csrf_token": token(client, game), "mode": "record", "record": json.dumps(record)},
    )
    assert saved.status_code == 303
    page = client.get(game + "/hands/1/replay").get_data(as_text=True)
    last = int(re.search(r"Step 0 of (\d+)", page).group(1))
    jumps = re.findall(r'<a href="([^"]+)" data-jump="(\d+)"[^>]*>([^<]+)</a>', page)
    assert [(int(n), label) for _, n, label in jumps] == [
        (last - 1, "To the showdown"),
        (last, "To the end"),
    ]
    knock = client.get(jumps[0][0].replace("&amp;", "&"))
    assert f"Step {last - 1} of {last}" in text(knock) and "knocks, discarding" in text(knock)
    assert f'data-jump="{last - 1}" aria-current="step"' in knock.get_data(as_text=True)
    end = text(client.get(jumps[1][0].replace("&amp;", "&")))
    assert f"Step {last} of {last}" in end and "knocks and scores" in end


def test_replay_of_a_pasted_record_jumps_without_javascript(client):
    record = json.dumps(sk.simulate(11, dealer=1))
    response = client.post(
        "/replay", data={"csrf_token": token(client), "record": record, "step": "0"}
    )
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert re.findall(r'data-jump="(\d+)"', page) == ["32", "33"]
    # a record too long for a link is stepped by posting it: the jumps post it too
    rng = random.Random(21)
    spaces = "".join(rng.choice(" \t\n\r") for _ in range(8000))
    long = record.replace(", ", "," + spaces, 1)  # whitespace no packing makes short
    assert pad_replay.pack_record(long) is None
    posted = client.post("/replay", data={"csrf_token": token(client), "record": long, "step": "0"})
    assert posted.status_code == 200, posted.status_code
    buttons = re.findall(
        r'<button type="submit" form="replay-steps" name="step" value="(\d+)"',
        posted.get_data(as_text=True),
    )
    assert buttons == ["32", "33"]
    assert 'id="replay-steps"' in posted.get_data(as_text=True)


def test_a_hollywood_card_says_which_game_the_points_are_needed_in(client):
    game = start(client, "hollywood")
    quick(client, game, 0, "gin", 0, 10)  # Ana 35 in game 1
    words = text(client.get(game))
    assert "needs 65 in game 1" in words  # Ana: 100 - 35 in game 1
    assert "needs 100 in game 1" in words  # Bor has opened nothing: game 1 is the nearest
    quick(client, game, 1, "gin", 0, 10)  # Bor opens game 1 (35)
    quick(client, game, 1, "gin", 0, 10)  # Bor: game 1 70, game 2 35
    words = text(client.get(game))
    assert "needs 30 in game 1" in words and "needs 65 in game 1" in words
    plain = text(client.get(start(client)))
    assert "needs 100" in plain and "in game" not in plain  # one game: nothing to tell apart


def test_the_oklahoma_upcard_comes_first_on_the_hand_forms(client):
    game = start(client, "oklahoma")
    for mode in ("quick", "cards"):
        form = client.get(f"{game}/hand?mode={mode}").get_data(as_text=True)
        assert form.index('name="upcard"') < form.index('name="knocker"'), mode
    plain = client.get(start(client) + "/hand?mode=quick").get_data(as_text=True)
    assert 'name="upcard"' not in plain


def test_a_sheet_rows_hindsight_sentences_say_what_they_measure(client):
    """The row of a hand played worse by both (test_pad_layoffs.py's hand: Ana lays down her
    run, Bor lays off only the 4h) says before its two sentences that each measures one
    player's own play against the other's best: 12 and 5 points, not a contradiction."""
    game = start(client)
    layoffs = {"arrangement": test_pad_layoffs.RUN, "layoffs_for": test_pad_layoffs.RUN}
    saved = test_pad_layoffs.cards_form(client, game, "save", **layoffs, layoffs=["4h"])
    assert saved.status_code == 303
    row = re.search(r'<span class="missed small">(.*?)</span>', client.get(game).get_data(True))
    assert (
        re.sub(r"<[^>]+>|\s+", " ", html.unescape(row.group(1))).split()
        == (
            "What each player's own play cost, against the other's best play:"
            " Ana could have knocked with 3 less deadwood by melding 3♣ 3♦ 3♥: 12 points."
            " Bor could have laid off 5♥: 5 points."
        ).split()
    )
