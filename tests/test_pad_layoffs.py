"""The scorepad's card entry records what the table did: the knocker's arrangement and the
defender's layoffs, scored as declared, with what the best play would have changed.

Hand worked out: Ana holds A-2-3 of hearts, 3c 3d, three nines, As 2c. She may lay down
the threes as a set (deadwood Ah 2h As 2c = 6; nothing of Bor's fits) or A-2-3 of hearts
(deadwood 3c 3d As 2c = 9; Bor's 4h then 5h fit it). Bor melds three kings; his deadwood
is 4h 5h Js Qs 8d 6s Tc = 53. Best play: the set, Ana scores 53 - 6 = 47.
"""

from __future__ import annotations

import json
import re

import pytest
from test_pad import showdown_of, start, text, token

from api.pad.declared import play_choice, review_words
from scorekeeper import verify_knock
from scorekeeper.knock import knock_arrangements

ANA = "Ah 2h 3h 3c 3d 9s 9d 9c As 2c".split()
BOR = "4h 5h Kc Kd Ks Js Qs 8d 6s Tc".split()
SETS = "3c 3d 3h|9c 9d 9s"
RUN = "9c 9d 9s|Ah 2h 3h"


def cards_form(client, game, action, **extra):
    return client.post(
        game + "/hand",
        data={
            "csrf_token": token(client, game),
            "mode": "cards",
            "knocker": "0",
            "cards_0": ANA,
            "cards_1": BOR,
            "action": action,
            **extra,
        },
    )


def stored(client, game) -> dict:
    sheet = client.get("/api/v1/games/" + game.rsplit("/", 1)[1]).get_json()
    return sheet


def radios(html: str) -> list[tuple[str, bool]]:
    return [
        (v, bool(c)) for v, c in re.findall(r'name="arrangement" value="([^"]+)"( checked)?', html)
    ]


def boxes(html: str) -> list[tuple[str, bool]]:
    return [(v, bool(c)) for v, c in re.findall(r'name="layoffs" value="([^"]+)"( checked)?', html)]


def test_checking_the_cards_offers_every_arrangement_the_best_chosen(client):
    game = start(client)
    response = cards_form(client, game, "check")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert radios(html) == [(SETS, True), (RUN, False)]
    assert boxes(html) == []  # nothing of Bor's fits the sets
    assert "Nothing Bor holds fits these melds" in text(response)
    data = json.loads(re.search(r'id="play-data">(.*?)</script>', html, re.S).group(1))
    assert [(a["value"], [x["card"]["code"] for x in a["layoffs"] if x["best"]]) for a in data] == [
        (SETS, []),
        (RUN, ["4h", "5h"]),
    ]
    assert "Ana knocks and scores 47" in text(response)
    assert "With the best play" not in text(response)


def test_a_worse_arrangement_and_a_missed_layoff_are_scored_as_declared(client):
    game = start(client)
    # without JavaScript: choose the run, ask for its layoffs (the best ticked: 4h 5h)
    shown = cards_form(client, game, "check", arrangement=RUN, layoffs_for=SETS)
    html = shown.get_data(as_text=True)
    assert radios(html) == [(SETS, False), (RUN, True)]
    assert boxes(html) == [("4h", True), ("5h", True)]
    assert "Ana knocks and scores 35" in text(shown)  # 53 - 4 - 5 - 9
    # Bor only laid off the 4h: 49 - 9 = 40
    checked = cards_form(client, game, "check", arrangement=RUN, layoffs_for=RUN, layoffs=["4h"])
    words = text(checked)
    assert "Ana knocks and scores 40" in words
    assert boxes(checked.get_data(as_text=True)) == [("4h", True), ("5h", False)]
    assert (
        "Ana could have knocked with 3 less deadwood by melding 3♣ 3♦ 3♥: 12 points." in words
    )  # 47 against Bor's best reply, not 35
    assert "Bor could have laid off 5♥: 5 points." in words  # 40 against 35
    saved = cards_form(client, game, "save", arrangement=RUN, layoffs_for=RUN, layoffs=["4h"])
    assert saved.status_code == 303
    sheet = stored(client, game)
    hand = sheet["hands"][0]
    assert hand["input"]["knocker_melds"] == [["9c", "9d", "9s"], ["Ah", "2h", "3h"]]
    assert hand["input"]["layoffs"] == [{"card": "4h", "meld": ["Ah", "2h", "3h"]}]
    assert (hand["points"], sheet["totals"]) == (40, [40, 0])
    page = text(client.get(game))
    assert "Ana knocked: 40" in page
    assert "Bor could have laid off 5♥: 5 points." in page
    assert "Ana could have knocked with 3 less deadwood" in page
    detail = text(showdown_of(client, saved))
    assert "deadwood 49 after layoffs" in detail and "served better" not in detail
    assert "Bor could have laid off 5♥: 5 points." in detail
    # correcting it shows the declared play chosen again
    edit = client.get(game + "/hands/1/edit").get_data(as_text=True)
    assert radios(edit) == [(SETS, False), (RUN, True)]
    assert boxes(edit) == [("4h", True), ("5h", False)]


def test_the_best_play_saved_has_nothing_to_regret(client):
    game = start(client)
    assert cards_form(client, game, "save", arrangement=SETS, layoffs_for=SETS).status_code == 303
    assert stored(client, game)["totals"] == [47, 0]
    page = text(client.get(game))
    assert "Ana knocked: 47" in page and "could have" not in page


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        (
            {"arrangement": RUN, "layoffs_for": RUN, "layoffs": ["5h"]},
            "layoffs",
            "5♥ cannot be laid off on A♥ 2♥ 3♥ without 4♥ laid off first.",
        ),
        (
            {"arrangement": SETS, "layoffs_for": SETS, "layoffs": ["4h"]},
            "layoffs",
            "4♥ fits none of the melds laid down.",
        ),
        (
            {"arrangement": RUN, "layoffs_for": RUN, "layoffs": ["Kc"]},
            "layoffs",
            "K♣ fits none of the melds laid down.",
        ),
        (
            {"arrangement": RUN, "layoffs_for": RUN, "layoffs": ["4x"]},
            "layoffs",
            "'4x' is not a card",
        ),
        (
            {"arrangement": "9c 9d 9s", "layoffs_for": "9c 9d 9s"},
            "arrangement",
            "These cards leave 15 deadwood; a knock needs 10 or less.",
        ),
        (
            {"arrangement": "9c 9d 9s|Ah 2h 3h 4h", "layoffs_for": "9c 9d 9s|Ah 2h 3h 4h"},
            "arrangement",
            "The cards changed after the arrangement was chosen",
        ),
        (
            {"arrangement": RUN, "layoffs_for": SETS, "layoffs": ["4h"]},
            "layoffs",
            "Tick what \u2068Bor\u2069 laid off on this arrangement, then save.",
        ),
        # a damaged or forged form: no meld of the deck in the arrangement (was a 500)
        (
            {
                "arrangement": "Ah 2h 3c|9c 9d 9s",
                "layoffs_for": "Ah 2h 3c|9c 9d 9s",
                "layoffs": ["Ac"],
            },
            "layoffs",
            "A♣ cannot be laid off on 3♣ A♥ 2♥",
        ),
    ],
)
def test_bad_or_ill_fitting_play_is_refused_in_words_and_nothing_is_stored(
    client, extra, field, message
):
    game = start(client)
    response = cards_form(client, game, "save", **extra)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    error = re.search(rf'id="err-{field}" role="alert">([^<]*)<', html)
    assert error and message in error.group(1).replace("&#39;", "'")
    assert stored(client, game)["hands"] == []


def said(knocker, defender, **declared) -> list[str]:
    laid = verify_knock(knocker, defender, **declared)
    return [re.sub(r"</?bdi>", "", str(s)) for s in review_words(laid, {}, None, ["Ana", "Bor"])]


def test_what_the_best_play_would_have_changed_in_words():
    # Ana's 4-5-6-7 of diamonds and 3-4-5 of hearts (deadwood As Ac 4s = 6) take Bor's 3d 2d
    # and 6h 7h: Bor is left 3c 2c Ah = 6 beside his 5-6-7 of clubs, a tie, so an undercut:
    # Ana -25. Three fours and 5-6-7 of diamonds (deadwood 3h 5h As Ac = 10) take nothing:
    # Bor 24, Ana +14. Her choice cost her 39 points.
    ana, bor = "3h 5d 4s 7d 6d As 5h 4d Ac 4h", "3d 6c 3c 2c 6h 7h 2d 5c 7c Ah"
    first = knock_arrangements(ana, bor)[0]
    worst = knock_arrangements(ana, bor)[-1]
    assert (first.points, worst.points) == (14, -25)
    assert said(ana, bor, knocker_melds=worst.melds) == [
        "Ana could have laid down 4♦ 4♥ 4♠ and 5♦ 6♦ 7♦ instead, leaving Bor less to lay"
        " off: 39 points."
    ]
    # gin laid down as a knock with the 7c as deadwood: Bor 40, gin 40 + 25 = 65, knock 33
    assert said(
        "4c 5c 6c 7c 8c 8d 8h 9c 9d 9h",
        "Kc Kd 2s 3s 4s Qh Jh 7d 6d 5d",
        knocker_melds=["4c 5c 6c", "8c 8d 8h", "9c 9d 9h"],
    ) == ["Ana could have gone gin by melding 4♣ 5♣ 6♣ 7♣: 32 points."]
    # Bor laid off the 7h that made 7-7-7 with his 7c 7d: 62 deadwood against 48
    assert said(
        "4h 5h 6h 9s 9d 9c Ks Kd Kc As",
        "7h 7c 7d 2s 3s Qh Jh Td 8d 5c",
        layoffs=[{"card": "7h", "meld": ["4h", "5h", "6h"]}],
    ) == ["Bor could have kept 7♥ for own melds: 14 points."]
    # Bor melded his four sevens and kept 8h as deadwood (50): laying off 7h and 8h on
    # 4-5-6 of hearts beside 7c 7d 7s leaves 42, but only with his set broken up
    assert said(
        "4h 5h 6h 9s 9d 9c 2c 3d Ac As",
        "7h 7c 7d 7s 8h Kd Qc Jd Ts 2s",
        defender_melds=["7h 7c 7d 7s"],
        layoffs=[],
    ) == ["Bor could have laid off 7♥ 8♥ by rearranging: 8 points."]


def test_the_checked_form_keeps_its_key_and_version_and_saves_once(client):
    game = start(client)
    html = cards_form(
        client, game, "check", arrangement=RUN, layoffs_for=RUN, layoffs=["4h"]
    ).get_data(as_text=True)
    key = re.search(r'name="form_key" value="([^"]+)"', html).group(1)
    version = re.search(r'name="version" value="([^"]+)"', html).group(1)
    for _ in range(2):  # a double tap on Save
        response = cards_form(
            client,
            game,
            "save",
            arrangement=RUN,
            layoffs_for=RUN,
            layoffs=["4h"],
            form_key=key,
            version=version,
        )
        assert response.status_code == 303
    assert "done=again" in response.headers["Location"]
    assert [h["points"] for h in stored(client, game)["hands"]] == [40]


def test_a_declared_run_split_in_two_is_the_one_run_of_the_list():
    # gin is best; 3-8 of spades and three nines leave the 9s (a knock), declared split
    hand = {
        "knocker_cards": "3s 4s 5s 6s 7s 8s 9c 9d 9h 9s".split(),
        "defender_cards": "Kc Kd 2h 3h 4h Qh Jh 7d 6d 5d".split(),
    }
    choice = play_choice({}, hand, "9c 9d 9h|6s 7s 8s|3s 4s 5s", None)
    assert choice["arrangements"][0]["gin"] and not choice["chosen"]["gin"]
    assert choice["chosen"]["value"] == "9c 9d 9h|3s 4s 5s 6s 7s 8s"
    assert choice["chosen"]["deadwood"] == 9
