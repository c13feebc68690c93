"""A partnership deal entered card by card records what each table did: per game, the
knocker's arrangement and the defender's layoffs, scored as declared, with what the best
play would have changed, through Flask's test client (chromium: test_pad_layoffs_browser.py).

Ana deals first: game 1 is Ana v Bor, game 2 Cy v Dan (RULES.md section 8), each with its
own deck. Worked by hand (RULES.md section 6, standard rules):

* Game 1, the hand of test_pad_layoffs.py: Ana knocks with A-2-3 of hearts, 3c 3d, three
  nines, As 2c. The threes as a set leave her 6 (nothing of Bor's fits): Bor's 53 - 6 =
  47, the best. A-2-3 of hearts leaves her 9 and takes Bor's 4h then 5h. The table
  laid down the run and Bor laid off only the 4h: 53 - 4 = 49, Ana scores 49 - 9 = 40.
* Game 2: Dan knocks with 4-5-6 of hearts, three nines, three kings (deadwood As = 1),
  his only arrangement. Cy holds 7h 7c 7d: his 7h fits Dan's run, but kept in his own
  set Cy has 2s 3s Qh Jh Td 8d 5c = 48, Dan scores 47 (the best). Cy laid the 7h off:
  62, Dan scores 61.

Declared, the deal is 40 for Ana & Cy against 61 for Bor & Dan: per deal netting, Bor &
Dan +21 (with the best play both games were 47: nobody would have scored).
"""

from __future__ import annotations

import re

import pytest
from test_pad import showdown_of, token
from test_pad_multi import FOUR, start, text, words

ANA = "Ah 2h 3h 3c 3d 9s 9d 9c As 2c".split()
BOR = "4h 5h Kc Kd Ks Js Qs 8d 6s Tc".split()
DAN = "4h 5h 6h 9s 9d 9c Ks Kd Kc As".split()
CY = "7h 7c 7d 2s 3s Qh Jh Td 8d 5c".split()
SETS = "3c 3d 3h|9c 9d 9s"
RUN = "9c 9d 9s|Ah 2h 3h"
DANS = "9c 9d 9s|Kc Kd Ks|4h 5h 6h"
GIN = "4c 5c 6c 7c 8c 8d 8h 9c 9d 9h".split()
AGAINST_GIN = "Kc Kd 2s 3s 4s Qh Jh 7d 6d 5d".split()

DECLARED = {
    "g0_arrangement": RUN,
    "g0_layoffs_for": RUN,
    "g0_layoffs": ["4h"],
    "g1_arrangement": DANS,
    "g1_layoffs_for": DANS,
    "g1_layoffs": ["7h"],
}


def deal_cards(client, game, action, path="/hand", **extra):
    """Post the deal's cards: Ana knocks against Bor, Dan against Cy."""
    return client.post(
        game + path,
        data={
            "csrf_token": token(client, game),
            "mode": "deal_cards",
            "action": action,
            "g0_knocker": "0",
            "g0_cards_0": ANA,
            "g0_cards_1": BOR,
            "g1_knocker": "3",
            "g1_cards_3": DAN,
            "g1_cards_2": CY,
            **extra,
        },
    )


def sheet_of(client, game) -> dict:
    return client.get("/api/v1/games/" + game.rsplit("/", 1)[1]).get_json()


def game_part(html: str, i: int) -> str:
    """The deal form's fieldset of game ``i`` (up to the next game's, or the actions)."""
    start_at = html.index(f'data-game="{i}"')
    end = (
        html.find('data-game="1"', start_at + 1)
        if i == 0
        else html.find('class="actions"', start_at)
    )
    return html[start_at:end]


def radios(html: str, prefix: str) -> list[tuple[str, bool]]:
    return [
        (v, bool(c))
        for v, c in re.findall(rf'name="{prefix}arrangement" value="([^"]+)"( checked)?', html)
    ]


def boxes(html: str, prefix: str) -> list[tuple[str, bool]]:
    return [
        (v, bool(c))
        for v, c in re.findall(rf'name="{prefix}layoffs" value="([^"]+)"( checked)?', html)
    ]


def test_each_game_of_the_deal_offers_its_own_choice_the_best_chosen(client):
    game = start(client, FOUR)
    response = deal_cards(client, game, "check")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    first, second = game_part(html, 0), game_part(html, 1)
    # each game's fields in its own part of the form, prefixed by the game: no clash
    assert radios(first, "g0_") == [(SETS, True), (RUN, False)] and boxes(first, "g0_") == []
    assert radios(second, "g1_") == [(DANS, True)] and boxes(second, "g1_") == [("7h", False)]
    assert radios(html, "") == [] and boxes(html, "") == []
    assert radios(first, "g1_") == [] and radios(second, "g0_") == []
    assert 'name="g0_layoffs_for" value="3c 3d 3h|9c 9d 9s"' in first
    assert "Nothing Bor holds fits these melds" in words(first)
    assert "Game 1: what was laid down" in words(first)
    assert "Game 2: what was laid down Dan's melds" in words(second)
    assert "What Cy laid off" in words(second) and "7♥ on 4♥ 5♥ 6♥ (best)" not in words(second)
    assert "Ana knocks and scores 47." in words(first)
    assert "Dan knocks and scores 47." in words(second)
    assert "With the best play" not in text(response)
    assert sheet_of(client, game)["hands"] == []


def test_a_worse_play_is_chosen_saved_and_scored_as_declared_game_by_game(client):
    game = start(client, FOUR)
    # without JavaScript: game 1's run chosen, its layoffs asked for (the best ticked);
    # game 2 untouched keeps its own choice
    shown = deal_cards(
        client,
        game,
        "check",
        g0_arrangement=RUN,
        g0_layoffs_for=SETS,
        g1_arrangement=DANS,
        g1_layoffs_for=DANS,
    )
    html = shown.get_data(as_text=True)
    assert radios(html, "g0_") == [(SETS, False), (RUN, True)]
    assert boxes(html, "g0_") == [("4h", True), ("5h", True)]
    assert boxes(html, "g1_") == [("7h", False)]
    assert "Ana knocks and scores 35." in words(game_part(html, 0))  # 53 - 4 - 5 - 9
    checked = deal_cards(client, game, "check", **DECLARED)
    html = checked.get_data(as_text=True)
    first, second = words(game_part(html, 0)), words(game_part(html, 1))
    assert boxes(html, "g0_") == [("4h", True), ("5h", False)]
    assert boxes(html, "g1_") == [("7h", True)]
    assert "Ana knocks and scores 40." in first and "Dan knocks and scores 61." in second
    # each game's hindsight in its own part: what the best play would have changed
    assert (
        "Ana could have knocked with 3 less deadwood by melding 3♣ 3♦ 3♥: 12 points." in first
    )  # 47 against Bor's best reply, not 35
    assert "Bor could have laid off 5♥: 5 points." in first  # 40 against 35
    assert "Cy could have kept 7♥ for own melds: 14 points." in second  # 61 against 47
    assert "Cy could have" not in first and "Bor could have" not in second
    assert sheet_of(client, game)["hands"] == []  # a check stores nothing

    saved = deal_cards(client, game, "save", **DECLARED)
    assert saved.status_code == 303
    sheet = sheet_of(client, game)
    record = sheet["hands"][0]
    one, two = record["input"]["games"]
    assert one["knocker_melds"] == [["9c", "9d", "9s"], ["Ah", "2h", "3h"]]
    assert one["layoffs"] == [{"card": "4h", "meld": ["Ah", "2h", "3h"]}]
    assert two["knocker_melds"] == [["9c", "9d", "9s"], ["Kc", "Kd", "Ks"], ["4h", "5h", "6h"]]
    assert two["layoffs"] == [{"card": "7h", "meld": ["4h", "5h", "6h"]}]
    assert [(g["winner"], g["points"]) for g in record["games"]] == [(0, 40), (3, 61)]
    assert sheet["totals"] == [0, 21]  # Bor & Dan 61 - Ana & Cy 40

    page = text(client.get(game))
    assert "Ana v Bor: knock Ana beat Bor: 40 Cy v Dan: knock Dan beat Cy: 61" in page
    assert "Bor & Dan +21" in page
    assert (
        "Game 1: Ana could have knocked with 3 less deadwood by melding 3♣ 3♦ 3♥:"
        " 12 points. Bor could have laid off 5♥: 5 points. Game 2: Cy could"
        " have kept 7♥ for own melds: 14 points."
    ) in page
    detail = showdown_of(client, saved).get_data(as_text=True)
    game_1 = words(detail[detail.index('id="game-1"') : detail.index('id="game-2"')])
    game_2 = words(detail[detail.index('id="game-2"') :])
    assert "Bor: deadwood 49 after layoffs" in game_1
    assert "Bor could have laid off 5♥: 5 points." in game_1 and "Cy could" not in game_1
    assert "Cy: deadwood 62 after layoffs" in game_2
    assert "Cy could have kept 7♥ for own melds: 14 points." in game_2

    # correcting the deal shows each game's declared play chosen again
    edit = client.get(game + "/hands/1/edit").get_data(as_text=True)
    assert radios(edit, "g0_") == [(SETS, False), (RUN, True)]
    assert boxes(edit, "g0_") == [("4h", True), ("5h", False)]
    assert radios(edit, "g1_") == [(DANS, True)] and boxes(edit, "g1_") == [("7h", True)]
    # game 2 corrected to the best play: Dan 47 against Ana's 40, Bor & Dan +7
    fixed = deal_cards(client, game, "save", path="/hands/1/edit", **{**DECLARED, "g1_layoffs": []})
    assert fixed.status_code == 303
    sheet = sheet_of(client, game)
    assert "layoffs" in sheet["hands"][0]["input"]["games"][1]
    assert sheet["totals"] == [0, 7]
    page = text(client.get(game))
    assert "Game 2:" not in page and "Game 1: Ana could have knocked" in page


def test_a_gin_game_has_no_layoffs_to_choose_and_a_void_game_no_choice(client):
    game = start(client, FOUR)
    response = client.post(
        game + "/hand",
        data={
            "csrf_token": token(client, game),
            "mode": "deal_cards",
            "action": "check",
            "g0_knocker": "void",
            "g1_knocker": "3",
            "g1_cards_3": GIN,
            "g1_cards_2": AGAINST_GIN,
        },
    )
    html = response.get_data(as_text=True)
    assert radios(html, "g0_") == [] and 'name="g0_layoffs_for"' not in html
    second = game_part(html, 1)
    # as in a two-player hand: the gin first and chosen, no layoffs against gin
    assert radios(second, "g1_")[0] == ("8c 8d 8h|9c 9d 9h|4c 5c 6c 7c", True)
    assert boxes(second, "g1_") == [] and "No layoffs against gin." in words(second)
    # Cy: Kc Kd Qh Jh (40) beside 2-3-4 of spades and 5-6-7 of diamonds: 25 + 40
    assert "Gin! Dan scores 65." in words(second)
    saved = client.post(
        game + "/hand",
        data={
            "csrf_token": token(client, game),
            "mode": "deal_cards",
            "action": "save",
            "g0_knocker": "void",
            "g1_knocker": "3",
            "g1_cards_3": GIN,
            "g1_cards_2": AGAINST_GIN,
            "g1_arrangement": "8c 8d 8h|9c 9d 9h|4c 5c 6c 7c",
            "g1_layoffs_for": "8c 8d 8h|9c 9d 9h|4c 5c 6c 7c",
        },
    )
    assert saved.status_code == 303
    sheet = sheet_of(client, game)
    assert sheet["totals"] == [0, 65] and sheet["hands"][0]["input"]["games"][0] == {"kind": "void"}
    assert "could have" not in text(client.get(game))


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        ({"g1_layoffs": ["5c"]}, "g1_layoffs", "Game 2: 5♣ fits none of the melds laid down."),
        ({"g1_layoffs": ["4x"]}, "g1_layoffs", "Game 2: '4x' is not a card"),
        (
            {"g1_arrangement": "zz", "g1_layoffs_for": "zz"},
            "g1_arrangement",
            "Game 2: Choose the arrangement laid down from the list.",
        ),
        (
            {"g1_arrangement": DANS + " As", "g1_layoffs_for": DANS + " As", "g1_layoffs": []},
            "g1_arrangement",
            "Game 2: 4♥ 5♥ 6♥ A♠ is not a meld",
        ),
        # a forged arrangement of no meld with a layoff ticked (was a 500 for two players)
        (
            {
                "g0_arrangement": "Ah 2h 3c|9c 9d 9s",
                "g0_layoffs_for": "Ah 2h 3c|9c 9d 9s",
                "g0_layoffs": ["Ac"],
            },
            "g0_layoffs",
            "Game 1: A♣ cannot be laid off on 3♣ A♥ 2♥",
        ),
        (
            {"g0_arrangement": "9c 9d 9s", "g0_layoffs_for": "9c 9d 9s", "g0_layoffs": []},
            "g0_arrangement",
            "Game 1: These cards leave 15 deadwood; a knock needs 10 or less.",
        ),
        (
            {"g0_layoffs_for": SETS},
            "g0_layoffs",
            "Game 1: Tick what \u2068Bor\u2069 laid off on this arrangement, then save.",
        ),
    ],
)
def test_a_bad_or_forged_play_is_refused_naming_its_game_and_nothing_is_stored(
    client, extra, field, message
):
    game = start(client, FOUR)
    response = deal_cards(client, game, "save", **{**DECLARED, **extra})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    error = re.search(rf'id="err-{field}" role="alert">([^<]*)<', html)
    assert error and message in error.group(1).replace("&#39;", "'"), html
    assert f'href="#err-{field}"' in html  # the summary at the top leads to it
    assert sheet_of(client, game)["hands"] == []


def test_both_games_wrong_at_once_are_both_named(client):
    game = start(client, FOUR)
    response = deal_cards(
        client, game, "save", **{**DECLARED, "g0_layoffs": ["5h"], "g1_layoffs": ["5c"]}
    )
    assert response.status_code == 422
    summary = re.search(
        r'class="error-summary".*?</ul>', response.get_data(as_text=True), re.S
    ).group(0)
    assert re.findall(r'href="#err-([^"]+)"', summary) == ["g0_layoffs", "g1_layoffs"]
    assert "Game 1: 5♥ cannot be laid off on A♥ 2♥ 3♥ without 4♥" in summary
    assert "Game 2: 5♣ fits none of the melds laid down." in summary
    assert sheet_of(client, game)["hands"] == []


def test_a_deal_declared_through_the_api_is_scored_so_and_reviewed_on_the_sheet(client):
    created = client.post(
        "/api/v1/games", json={"dealer": 0, "players": ["Ana", "Bor", "Cy", "Dan"]}
    )
    game_id = created.get_json()["id"]
    auth = {"Authorization": f"Bearer {created.get_json()['edit_token']}"}
    url = f"/api/v1/games/{game_id}/hands"
    one = {
        "kind": "cards",
        "knocker": 0,
        "knocker_cards": ANA,
        "defender_cards": BOR,
        "knocker_melds": [["9c", "9d", "9s"], ["Ah", "2h", "3h"]],
        "layoffs": [{"card": "4h", "meld": ["Ah", "2h", "3h"]}],
    }
    two = {
        "kind": "cards",
        "knocker": 3,
        "knocker_cards": DAN,
        "defender_cards": CY,
        "layoffs": [{"card": "5c", "meld": ["4h", "5h", "6h"]}],
    }
    refused = client.post(url, json={"kind": "deal", "games": [one, two]}, headers=auth)
    assert refused.status_code == 422
    assert refused.get_json()["error"]["field"] == "games.1.layoffs"
    assert client.get(f"/api/v1/games/{game_id}").get_json()["hands"] == []
    # only the layoffs declared in game 2: Dan's melds are his best (his only) ones
    two["layoffs"] = [{"card": "7h", "meld": ["4h", "5h", "6h"]}]
    added = client.post(url, json={"kind": "deal", "games": [one, two]}, headers=auth)
    assert added.status_code == 201
    assert [g["points"] for g in added.get_json()["hand"]["games"]] == [40, 61]
    assert added.get_json()["sheet"]["totals"] == [0, 21]
    page = text(client.get(f"/games/{game_id}"))
    assert (
        "12 points. Bor could have laid off 5♥: 5 points. Game 2: Cy could have kept 7♥"
        " for own melds: 14 points."
    ) in page
