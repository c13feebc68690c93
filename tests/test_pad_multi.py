"""Three players and four-player partnerships in the scorepad, through Flask's test client.

The forms (who may go out, the deal form's two games, the start form's
optional players 3 and 4 and the two table options), the errors in players'
words next to their fields, and what the sheet and hand pages say: who sat
out, who played whom, per-team totals and the settlement. A whole game of
each, played to the end in chromium, is in test_pad_multi_browser.py.
"""

from __future__ import annotations

import html
import re

import pytest
import test_pad
from sheet_kit import as_stored
from test_pad import quick, showdown_of, token

from api.pad import forms_start, views_sheet
from scorekeeper.cards import parse_card
from scorekeeper.sheet import score_sheet

THREE = {"player_0": "Ana", "player_1": "Bor", "player_2": "Cy"}
FOUR = {**THREE, "player_3": "Dan"}


def text(response) -> str:
    """The page's words: names and bold run on (``Cy.``), other tags are spaces, entities
    read (``Ana & Cy``)."""
    return words(response.get_data(as_text=True))


def words(page: str) -> str:
    """The words of a page's HTML (or of a piece of it), as :func:`text` reads them."""
    page = re.sub(r"</?(bdi|b)>", "", page)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def start(client, names, preset="standard", dealer="0", **extra) -> str:
    data = {
        "csrf_token": token(client),
        **names,
        "preset": preset,
        "options_for": preset,
        "dealer": dealer,
        **extra,
    }
    response = client.post("/games", data=data)
    assert response.status_code == 303, text(response)
    return response.headers["Location"]


def deal(client, game, first, second, path="/hand", **extra):
    """Post a partnership deal: each game ``(knocker, kind, k, d)`` or ``"void"``."""
    data = {"csrf_token": token(client, game), "mode": "deal", **extra}
    for i, given in enumerate((first, second)):
        if given == "void":
            data[f"g{i}_kind"] = "void"
            continue
        knocker, kind, k, d = given
        data.update(
            {
                f"g{i}_knocker": str(knocker),
                f"g{i}_kind": kind,
                f"g{i}_knocker_deadwood": str(k),
                f"g{i}_defender_deadwood": str(d),
            }
        )
    return client.post(game + path, data=data)


def radios(page: str, name: str) -> list[str]:
    return re.findall(rf'name="{name}" value="(\d)"', page)


# ----------------------------------------------------------------------------- start form


def test_the_start_form_takes_three_or_four_players_and_the_table_options(client):
    page = client.get("/").get_data(as_text=True)
    for i in range(4):
        assert f'id="player_{i}"' in page
    assert 'name="three_player_dealer"' in page and 'name="partnership_netting"' in page
    assert "players 1 and 3 against 2 and 4" in text(client.get("/"))
    three = start(client, THREE, three_player_dealer="rotate")
    page = text(client.get(three))
    assert "Ana vs Bor vs Cy" in page and "three player dealer rotate" in page
    assert "Next hand: Ana deals and sits out; Bor plays Cy." in page
    four = start(client, FOUR, dealer="3", partnership_netting="per_game")
    page = text(client.get(four))
    assert "Ana & Cy vs Bor & Dan" in page and "partnership netting per game" in page
    # Dan's team deals first: each partner deals their own game
    assert "Next deal: Bor deals to Ana; Dan deals to Cy." in page


@pytest.mark.parametrize(
    "names, dealer, field, words",
    [
        ({**THREE, "player_2": "", "player_3": "Dan"}, "0", "player_2", "Type player 3's name too"),
        ({**THREE, "player_2": "ana"}, "0", "player_2", "need different names"),
        (THREE, "3", "dealer", "Player 4 has no name, so cannot deal"),
    ],
)
def test_the_start_form_refuses_players_out_of_place(client, names, dealer, field, words):
    response = client.post(
        "/games",
        data={
            "csrf_token": token(client),
            **names,
            "preset": "standard",
            "options_for": "standard",
            "dealer": dealer,
        },
    )
    assert response.status_code == 422
    assert re.search(
        rf'id="err-{field}"[^>]*>[^<]*{re.escape(words)}',
        html.unescape(response.get_data(as_text=True)),
    )


def test_hollywood_with_three_players_is_refused_above_the_form(client):
    response = client.post(
        "/games",
        data={
            "csrf_token": token(client),
            **THREE,
            "preset": "hollywood",
            "options_for": "hollywood",
            "dealer": "0",
        },
    )
    assert response.status_code == 422
    assert "Hollywood scoring is for two players only" in text(response)


def test_cut_for_the_deal_among_three_and_four():
    import random

    for count in (3, 4):
        dealers = {
            forms_start.game_from_form(
                {**FOUR, "player_3": "Dan" if count == 4 else "", "dealer": "cut"},
                random.Random(seed),
            )[0]["dealer"]
            for seed in range(40)
        }
        assert dealers == set(range(count))


def test_a_start_form_naming_no_dealer_has_the_cut_made_recorded_and_shown(client):
    """RULES.md 3: "Cut for it", or no dealer at all, has the service cut for the players;
    the sheet says who cut what and who deals first, as the game records it, and the same
    form sent again (its key) draws the same cut: it finds the game it made."""
    names = {"player_0": "Ana", "player_1": "Bor"}
    for dealer in ("cut", None):
        for players in (names, THREE):
            data = {"csrf_token": token(client), **players, "preset": "standard"}
            data.update(
                {"options_for": "standard", "form_key": f"start-form-cut-{dealer}-{len(players)}"}
            )
            if dealer is not None:
                data["dealer"] = dealer
            first, again = client.post("/games", data=data), client.post("/games", data=data)
            assert first.status_code == again.status_code == 303, text(first)
            assert again.headers["Location"] == first.headers["Location"]
            game = client.get("/api/v1" + first.headers["Location"]).json
            seats = list(players.values())
            cuts = ", ".join(
                f"{name} {parse_card(code).symbol.replace('T', '10')}"
                for name, code in zip(seats, game["cut"], strict=True)
            )
            said = f"The cut for the first deal: {cuts}. {seats[game['dealer']]} deals first."
            page = client.get(first.headers["Location"]).get_data(as_text=True)
            shown = re.search(r"<p [^>]*data-cut>(.*?)</p>", page, re.S)[1]
            assert html.unescape(re.sub(r"<[^>]+>", "", shown)) == said
    named = start(client, names, dealer="1")
    assert "data-cut" not in client.get(named).get_data(as_text=True)


# ----------------------------------------------------------------------------- three players


def test_three_players_offer_only_the_two_who_play_and_say_who_sits_out(client):
    game = start(client, THREE)  # Ana deals first and sits out
    html = client.get(game + "/hand").get_data(as_text=True)
    assert radios(html, "knocker") == ["1", "2"]
    assert "Ana deals this hand and sits out: Bor plays Cy." in text(client.get(game + "/hand"))
    assert ">Record<" not in html  # a deal record is two-player only
    cards = client.get(game + "/hand?mode=cards").get_data(as_text=True)
    assert 'name="cards_1"' in cards and 'name="cards_2"' in cards and 'name="cards_0"' not in cards
    response = quick(client, game, 0, "knock", 3, 12)
    assert response.status_code == 422
    assert re.search(
        r'id="err-knocker"[^>]*>Ana deals this hand and sits out: choose one of'
        r" the two who play it\.",
        response.get_data(as_text=True),
    )
    preview = quick(client, game, 2, "knock", 3, 12, action="check")
    assert "Cy beat Bor: 9" in text(preview) and "Nothing is saved yet" in text(preview)
    assert quick(client, game, 2, "knock", 3, 12).status_code == 303
    page = text(client.get(game))
    assert "knock Cy beat Bor: 9 Ana sat out" in page
    assert "Next hand: Bor deals and sits out; Ana plays Cy." in page  # the loser deals
    assert re.findall(r'class="total">(\d+)<', client.get(game).get_data(as_text=True)) == [
        "0",
        "0",
        "9",
    ]
    assert radios(client.get(game + "/hand").get_data(as_text=True), "knocker") == ["0", "2"]
    detail = text(client.get(game + "/hands/1"))
    assert "Ana dealt and sat out" in detail and "Cy went out with deadwood 3; Bor had 12" in detail


def test_three_players_correct_void_and_undo(client):
    game = start(client, THREE)
    quick(client, game, 2, "knock", 3, 12)  # hand 1: Cy beats Bor 9; Bor deals
    quick(client, game, 0, "gin", 0, 10)  # hand 2: Ana beats Cy 35; Cy deals
    edit = client.get(game + "/hands/1/edit").get_data(as_text=True)
    assert radios(edit, "knocker") == ["1", "2"] and 'value="2" checked' in edit
    # Bor winning hand 1 would make Cy the loser, so Cy (who played hand 2) would deal it
    response = client.post(
        game + "/hands/1/edit",
        data={
            "csrf_token": token(client),
            "mode": "quick",
            "knocker": "1",
            "kind": "gin",
            "knocker_deadwood": "0",
            "defender_deadwood": "5",
        },
    )
    assert response.status_code == 409
    assert "With this correction Cy would deal a later hand that they played" in text(response)
    client.post(
        game + "/hands/1/edit",
        data={
            "csrf_token": token(client),
            "mode": "quick",
            "knocker": "2",
            "kind": "knock",
            "knocker_deadwood": "2",
            "defender_deadwood": "12",
        },
    )
    assert "Cy beat Bor: 10" in text(client.get(game))
    client.post(game + "/undo", data={"csrf_token": token(client)})
    client.post(game + "/hands/1/void", data={"csrf_token": token(client)})
    page = text(client.get(game))
    assert "Void hand: nobody scores (corrected) Ana sat out" in page
    assert "Next hand: Ana deals and sits out" in page  # a void hand: the same dealer


def test_three_player_rotation_option(client):
    game = start(client, THREE, three_player_dealer="rotate")
    quick(client, game, 2, "knock", 3, 12)  # Cy beats Bor; the seat moves on
    assert "Next hand: Bor deals and sits out; Ana plays Cy." in text(client.get(game))
    quick(client, game, 0, "knock", 3, 12)
    assert "Next hand: Cy deals and sits out; Ana plays Bor." in text(client.get(game))


def test_three_player_settlement_in_words():
    # Ana 100 (2 boxes), Bor 15 (1), Cy 68 (2): finals 250, 40, 118
    entries = [
        {"winner": 1, "loser": 2, "points": 15, "outcome": "knock"},
        {"winner": 0, "loser": 1, "points": 55, "outcome": "gin"},
        {"winner": 2, "loser": 0, "points": 27, "outcome": "undercut"},
        {"void": True},
        {"winner": 2, "loser": 1, "points": 41, "outcome": "gin"},
        {"winner": 0, "loser": 2, "points": 45, "outcome": "gin"},
    ]
    sheet = score_sheet(entries, players=["Ana", "Bor", "Cy"], stake=0.1)
    view = views_sheet.sheet_view(as_stored(sheet))
    assert [str(line) for line in view["result"]["payments"]] == [
        "<bdi>Bor</bdi> pays <bdi>Ana</bdi> 21.00 (210 points).",
        "<bdi>Cy</bdi> pays <bdi>Ana</bdi> 13.20 (132 points).",
    ]
    sheet = score_sheet(entries, players=["Ana", "Bor", "Cy"])
    assert [
        str(line) for line in views_sheet.sheet_view(as_stored(sheet))["result"]["payments"]
    ] == [
        "<bdi>Bor</bdi> pays <bdi>Ana</bdi> 210 points.",
        "<bdi>Cy</bdi> pays <bdi>Ana</bdi> 132 points.",
    ]


def test_a_three_player_shutout_doubles_against_that_loser_only_in_words():
    # Bor beats Cy 40, Ana beats Bor 30, Ana beats Cy 75 (gin): Cy won no hand.
    # Ana 105 + 2 boxes 50 = 155; + 100 against Bor (65): 190; + 200 against Cy (0): 355.
    entries = [
        {"winner": 1, "loser": 2, "points": 40, "outcome": "knock"},
        {"winner": 0, "loser": 1, "points": 30, "outcome": "knock"},
        {"winner": 0, "loser": 2, "points": 75, "outcome": "gin"},
    ]
    sheet = score_sheet(entries, players=["Ana", "Bor", "Cy"], stake=0.1)
    assert [
        str(line) for line in views_sheet.sheet_view(as_stored(sheet))["result"]["payments"]
    ] == [
        "<bdi>Bor</bdi> pays <bdi>Ana</bdi> 19.00 (190 points).",
        "<bdi>Cy</bdi> pays <bdi>Ana</bdi> 35.50 (355 points). <bdi>Cy</bdi> won no hand:"
        " shutout, doubled against <bdi>Cy</bdi> only.",
    ]


# ----------------------------------------------------------------------------- partnerships


def test_the_deal_form_has_both_games_and_only_their_players(client):
    game = start(client, FOUR)  # Ana's team deals first
    html = client.get(game + "/hand").get_data(as_text=True)
    assert radios(html, "g0_knocker") == ["0", "1"] and radios(html, "g1_knocker") == ["2", "3"]
    page = text(client.get(game + "/hand"))
    assert "Deal 1" in page and "Game 1: Ana deals to Bor; Game 2: Cy deals to Dan" in page
    assert "data-queue-one" in html  # offline, one deal at a time: the next pairing is the server's
    response = deal(client, game, (0, "knock", 4, 14), (1, "gin", 0, 20))
    assert response.status_code == 422
    assert re.search(
        r'id="err-g1_knocker"[^>]*>Bor does not play in this game: choose one of'
        r" its two players\.",
        response.get_data(as_text=True),
    )
    response = deal(client, game, (0, "knock", 12, 14), (3, "gin", 0, 20))
    assert re.search(
        r'id="err-g0_knocker_deadwood"[^>]*>A knock needs 10 or less',
        response.get_data(as_text=True),
    )
    assert 'value="20"' in response.get_data(as_text=True)  # what was typed is kept
    preview = text(deal(client, game, (0, "knock", 4, 14), (3, "gin", 0, 20), action="check"))
    assert "Ana beat Bor: 10" in preview and "Dan beat Cy: 45" in preview
    assert "No deals yet" in text(client.get(game))


def test_a_partnership_deal_on_the_sheet_correct_void_and_undo(client):
    game = start(client, FOUR, stake="0.1")
    assert deal(client, game, (0, "knock", 4, 14), (3, "gin", 0, 20)).status_code == 303
    page = text(client.get(game))
    assert "Ana v Bor: knock Ana beat Bor: 10 Cy v Dan: gin Dan beat Cy: 45 Bor & Dan +35" in page
    assert re.findall(r'class="total">(\d+)<', client.get(game).get_data(as_text=True)) == [
        "0",
        "35",
    ]
    # partners swap opponents; the deal passes to the other team
    assert "Next deal: Dan deals to Ana; Bor deals to Cy." in page
    html = client.get(game + "/hand").get_data(as_text=True)
    assert radios(html, "g0_knocker") == ["0", "3"] and radios(html, "g1_knocker") == ["2", "1"]
    detail = text(client.get(game + "/hands/1"))
    assert "Game 1: Ana v Bor" in detail and "Ana went out with deadwood 4; Bor had 14" in detail
    assert "Bor & Dan +35" in detail and "Correct deal 1" in detail
    edit = client.get(game + "/hands/1/edit").get_data(as_text=True)
    assert 'name="g0_knocker_deadwood" min="0" max="10" value="4"' in edit
    deal(client, game, (0, "knock", 4, 14), "void", path="/hands/1/edit")
    assert "Cy v Dan: void Void: nobody scores Ana & Cy +10" in text(client.get(game))
    done = client.post(game + "/hands/1/void", data={"csrf_token": token(client)})
    page = text(client.get(done.headers["Location"]))
    assert "Nobody scores (corrected)" in page and "Deal 1 is now void." in page
    client.post(game + "/undo", data={"csrf_token": token(client)})
    assert "No deals yet" in text(client.get(game))


def test_a_tied_knock_under_no_score_is_a_hand_played_on_the_sheet(client):
    game = start(client, FOUR, preset="openspiel")
    assert deal(client, game, (0, "knock", 6, 6), (3, "knock", 4, 14)).status_code == 303
    page = text(client.get(game))
    assert "Ana v Bor: tie Tie: nobody scores Cy v Dan: knock Dan beat Cy: 10" in page
    game = start(client, {"player_0": "Ana", "player_1": "Bor"}, preset="openspiel")
    assert quick(client, game, 1, "knock", 6, 6).status_code == 303
    assert "tie Tied knock: nobody scores" in text(client.get(game))


def test_per_game_netting_scores_both_teams(client):
    game = start(client, FOUR, partnership_netting="per_game")
    deal(client, game, (0, "knock", 4, 14), (3, "gin", 0, 20))
    page = text(client.get(game))
    assert "Ana & Cy +10, Bor & Dan +45" in page
    assert re.findall(r'class="total">(\d+)<', client.get(game).get_data(as_text=True)) == [
        "10",
        "45",
    ]


def test_partnership_settlement_in_words():
    # Ana & Cy 123 (3 boxes), Bor & Dan 35 (1): finals 298 and 60
    def win(winner, points, outcome="knock"):
        return {"winner": winner, "points": points, "outcome": outcome}

    entries = [
        {"games": [win(0, 10), win(3, 45, "gin")]},
        {"games": [win(0, 60, "gin"), win(2, 10)]},
        {"games": [{"void": True}, win(2, 27, "undercut")]},
        {"games": [win(3, 7), win(2, 33, "gin")]},
    ]
    sheet = score_sheet(entries, players=["Ana", "Bor", "Cy", "Dan"], stake=0.1)
    result = views_sheet.sheet_view(as_stored(sheet))["result"]
    assert result["winner"] == "Ana & Cy"
    assert [row["final"] for row in result["rows"]] == [298, 60]
    assert [str(line) for line in result["payments"]] == [
        "<bdi>Bor</bdi> &amp; <bdi>Dan</bdi> pay <bdi>Ana</bdi> &amp; <bdi>Cy</bdi> 23.80"
        " (238 points)."
    ]


def test_a_deal_entered_card_by_card(client):
    game = start(client, FOUR)
    page = client.get(game + "/hand?mode=deal_cards").get_data(as_text=True)
    for grid in ("g0_cards_0", "g0_cards_1", "g1_cards_2", "g1_cards_3"):
        assert f'name="{grid}"' in page
    assert 'name="g0_cards_2"' not in page and radios(page, "g1_knocker") == ["2", "3"]
    data = {
        "csrf_token": token(client, game),
        "mode": "deal_cards",
        "g0_knocker": "1",
        "g0_cards_1": test_pad.ANA,
        "g0_cards_0": test_pad.BOR,
        "g1_knocker": "void",
    }
    # Bor went out with Ana's cards of test_pad: deadwood 2 against 3, he scores 1
    check = text(client.post(game + "/hand", data={**data, "action": "check"}))
    assert "Bor knocks and scores 1." in check and "Void: nobody scores" in check
    twice = {**data, "g0_cards_0": [*test_pad.BOR[:9], "As"]}
    response = client.post(game + "/hand", data=twice)
    assert response.status_code == 422
    assert re.search(
        r'id="err-g0_cards_0"[^>]*>A♠ is tapped for both players', response.get_data(as_text=True)
    )
    saved = client.post(game + "/hand", data={**data, "action": "save"})
    assert saved.status_code == 303
    assert "Deal 1 added." in text(client.get(saved.headers["Location"]))
    detail = text(showdown_of(client, saved))
    assert "Bor knocks and scores 1." in detail
    assert "Game 2: Cy v Dan" in detail and "Void: nobody scores" in detail
    assert "Bor & Dan +1" in text(client.get(game))
    edit = client.get(game + "/hands/1/edit").get_data(as_text=True)
    assert 'aria-current="page">Cards<' in edit
    assert (
        'id="g0_p1-As" name="g0_cards_1" value="As" aria-label="ace of spades" checked'
        in re.sub(r"\s+", " ", edit)
    )


def test_three_players_card_by_card(client):
    game = start(client, THREE)  # Ana deals: Bor plays Cy
    data = {
        "csrf_token": token(client, game),
        "mode": "cards",
        "knocker": "2",
        "cards_2": test_pad.ANA,
        "cards_1": test_pad.BOR,
    }
    short = client.post(game + "/hand", data={**data, "cards_1": test_pad.BOR[:9]})
    assert re.search(
        r'id="err-cards_1"[^>]*>Tap 10 cards for the other player; 9 tapped',
        short.get_data(as_text=True),
    )
    saved = client.post(game + "/hand", data={**data, "action": "save"})
    detail = text(showdown_of(client, saved))
    assert "Cy knocks and scores 1." in detail and "Bor: deadwood 3 after layoffs" in detail
    assert "Ana dealt and sat out" in detail
