"""Issue 10's review of the scorepad through Flask's test client (as test_pad.py).

Players' records and head to head, the tally of games chained by "new game with the
same players", Hollywood score cards, the game-over line, voided hands, messages in
players' words and both hands' card counts at once, named table headers. The layout
at 360 px, the keyboard and the contrast are checked in chromium
(test_pad_review_browser.py).
"""

from __future__ import annotations

import html
import json
import re

from test_pad import ANA, BOR, quick, start, text, token

import scorekeeper as sk
from api import get_storage
from scorekeeper.store import games

TECHNICAL = re.compile(r"\b[a-z]+_[a-z_]+\b|\w\.\w+ must|\[\d+\]|index into")
"""What a message in players' words never holds: option keys, field paths, indexes."""


def errors(response) -> list[str]:
    page = response.get_data(as_text=True)
    return [
        html.unescape(re.sub(r"<[^>]+>", "", m))
        for m in re.findall(r'<p class="(?:error|banner)"[^>]*>(.*?)</p>', page, re.S)
    ]


def store_of(client):
    with client.application.app_context():
        return get_storage()


def game_id(url: str) -> str:
    return url.rsplit("/", 1)[1]


# ----------------------------------------------------------------------------- records


def test_a_players_record_is_reached_from_the_sheet_and_the_start_page(client):
    game = start(client, target="30")
    quick(client, game, 0, "gin", 0, 10)  # Ana gin 35: over
    sheet = client.get(game).get_data(as_text=True)
    assert 'href="/players?name=Ana"' in sheet and 'href="/players?name=Bor"' in sheet
    assert 'action="/players"' in client.get("/").get_data(as_text=True)
    with client.application.app_context():
        games.import_game(
            get_storage(),
            {
                "players": ["Ana", "Bor"],
                "rules": {"target": 30},
                "hands": [
                    {"kind": "quick", "knocker": 1, "knocker_deadwood": 0, "defender_deadwood": 30}
                ],
            },
        )
    page = client.get("/players?name=ANA")
    assert page.status_code == 200
    words = text(page)
    for row in (
        "Games 1",
        "Games won 1",
        "Games lost 0",
        "Hands played 1",
        "Hands won 1",
        "Gins 1",
        "Undercuts 0",
        "Average hand won 35 points",
    ):
        assert row in words, row
    assert "1 imported game is left out" in words
    assert 'href="/players/vs?name=Ana&amp;other=Bor"' in page.get_data(as_text=True)
    versus = text(client.get("/players/vs?name=Ana&other=bor"))
    assert "Ana vs Bor" in versus and "Games won 1 0" in versus and "Hands won 1 0" in versus


def test_a_player_not_found_is_told_in_players_words(client):
    response = client.get("/players?name=Zed")
    assert response.status_code == 404
    assert errors(response) == [
        "Nobody called \u201c\u2068Zed\u2069\u201d has played on this"
        " scorepad yet. Check the spelling (capitals and spaces around"
        " the name do not matter)."
    ]
    assert client.get("/players?name=+").status_code == 422
    assert "Type a player's name." in errors(client.get("/players?name="))
    assert client.get("/players").status_code == 200
    start(client)
    missing = client.get("/players/vs?name=Ana&other=Zed")
    assert missing.status_code == 404 and "have not played each other" in text(missing)


# ----------------------------------------------------------------------------- the tally


def test_rematches_are_chained_and_tallied(client):
    first = start(client, target="30", stake="0.05")
    quick(client, first, 1, "gin", 0, 10)  # Bor gin 35: over
    response = client.post(first + "/rematch", data={"csrf_token": token(client, first)})
    second = response.headers["Location"]
    assert store_of(client).game(game_id(second)).follows == game_id(first)
    assert "The tally, game by game" not in text(client.get(first))  # first of its chain
    quick(client, second, 0, "knock", 2, 12)  # Ana 10: still on
    sheet = text(client.get(second))
    assert "Game 2 with the same players" in sheet
    assert "Ana owes Bor" in sheet and "The tally, game by game" in sheet
    one = games.load_sheet(store_of(client), game_id(first)).result
    tally = text(client.get(second + "/tally"))
    paid = f"{one.settlement.amount:.2f} ({one.net} points)"
    assert f"Game 1 : Bor won. Ana pays Bor {paid}." in tally
    assert f"Running total: Ana owes Bor {paid}." in tally
    assert "Game 2 : Being played." in tally
    quick(client, second, 0, "gin", 0, 30)  # Ana 10 + 55: over
    two = games.load_sheet(store_of(client), game_id(second)).result
    points = two.nets[0] + one.nets[0]
    money = two.settlement.amount - one.settlement.amount
    assert points > 0
    assert f"Bor owes Ana {money:.2f} ({points} points)." in text(client.get(second + "/tally"))
    assert client.get("/games/nope/tally").status_code == 404


# ----------------------------------------------------------------------------- Hollywood


def test_hollywood_cards_show_each_game_and_the_shutout_on_the_right_card(client):
    game = start(client, "hollywood")
    for points in ("10", "20", "5"):
        quick(client, game, 1, "gin", 0, points)  # Bor, seat 2, wins game 1
    quick(client, game, 0, "knock", 2, 30)
    page = client.get(game).get_data(as_text=True)
    cards = re.findall(r'<div class="games">(.*?)</div>', page, re.S)
    totals = [re.findall(r"<b>(.*?)</b>", card) for card in cards]
    assert totals == [["·", "28", "·"], ["110", "75", "30"]]  # not 28 and 215
    bor = page[page.index('class="player p1"') :]
    assert '<div class="shutout">Shutout in game 1</div>' in bor
    assert (
        "shutout"
        not in page[page.index('class="player p0"') : page.index('class="player p1"')].lower()
    )
    first_column = re.search(r"<tr><th scope=\"row\">1</th>(.*?)</tr>", page, re.S).group(1)
    finals = re.search(r"wins (\d+) – (\d+) ?, shutout", text_of(first_column))  # a span: " ,"
    assert finals and int(finals.group(1)) > int(finals.group(2)) == 0  # winner first


def text_of(fragment: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment))


def test_every_table_header_has_a_name(client):
    game = start(client, "hollywood")
    for hand in range(40):
        if games.load_sheet(store_of(client), game_id(game)).status == "over":
            break
        quick(client, game, 1 if hand % 3 == 0 else 0, "gin", 0, 25)
    regular = start(client, target="30")
    quick(client, regular, 0, "gin", 0, 10)
    for url in (game, regular):
        page = client.get(url).get_data(as_text=True)
        assert "Game over" in page
        headers = re.findall(r"<th\b[^>]*>(.*?)</th>", page, re.S)
        assert headers and all(text_of(h).strip() for h in headers), headers


# ----------------------------------------------------------------------------- game over


def test_when_box_bonuses_make_the_winner_pay_the_line_says_so(client):
    game = start(client, stake="0.05")
    for _ in range(9):
        quick(client, game, 1, "knock", 5, 6)  # Bor: 9 boxes of 1 point
    quick(client, game, 0, "gin", 0, 75)  # Ana 100: wins the game
    result = games.load_sheet(store_of(client), game_id(game)).result
    assert result.winner == 0 and result.nets[0] < 0  # Ana 225, Bor 234
    over = text(client.get(game))
    assert "Net:" not in over and "-9" not in over
    assert (
        "Ana wins the game, but the box bonuses count for more: Ana pays Bor 0.45"
        " (9 points)." in over
    )


def test_the_game_over_line_without_a_stake_is_in_points(client):
    game = start(client, target="30")
    quick(client, game, 1, "gin", 0, 10)
    result = games.load_sheet(store_of(client), game_id(game)).result
    assert f"Ana pays Bor {result.net} points." in text(client.get(game))


# ----------------------------------------------------------------------------- voided hands


def test_a_voided_hand_keeps_what_it_was_struck_through(client):
    game = start(client)
    quick(client, game, 0, "knock", 3, 12)  # Ana 9
    quick(client, game, 1, "void", "", "")  # void from the start
    client.post(game + "/hands/1/void", data={"csrf_token": token(client, game)})
    page = client.get(game).get_data(as_text=True)
    one = re.search(r'<tr id="hand-1" class="voided">(.*?)</tr>', page, re.S).group(1)
    assert ">voided</span>" in one
    assert re.search(r"<del>.*Ana</bdi> knocked: 9</del>", one, re.S)
    assert "Void hand: nobody scores" in one and "(corrected)" in one
    detail = client.get(game + "/hands/1").get_data(as_text=True)
    assert re.search(r"Before it was voided: <del>.*Ana</bdi> knocked: 9</del>", detail)
    assert "Before it was voided" not in client.get(game + "/hands/2").get_data(as_text=True)
    two = re.search(r'<tr id="hand-2" class="voided">(.*?)</tr>', page, re.S).group(1)
    assert "<del>" not in two and "Void hand: nobody scores" in two


# ----------------------------------------------------------------------------- words


def test_form_and_record_messages_are_in_players_words(client):
    for field, value in (
        ("scoring", "zzz"),
        ("next_dealer", "x"),
        ("gin_bonus", "-1"),
        ("knock_limit", "x"),
    ):
        response = client.post(
            "/games",
            data={
                "csrf_token": token(client),
                "player_0": "Ana",
                "player_1": "Bor",
                "preset": "standard",
                "options_for": "standard",
                "dealer": "0",
                field: value,
            },
        )
        assert response.status_code == 422
        [message] = errors(response)
        assert not TECHNICAL.search(message), message
    game = start(client)
    base = {**sk.simulate(7, dealer=0), "players": ["Ana", "Bor"]}
    for url, change, words in (
        (
            game + "/hand",
            {"players": ["Ana", ""]},
            "The record's players must be this game's players",
        ),
        ("/replay", {"players": ["Ana", ""]}, "The record's players must be two different names"),
        (
            game + "/hand",
            {"dealer": 5},
            "Dealer must be 0 or 1 in the record (0: the first player, 1: the second)",
        ),
        (game + "/hand", {"actions": "pass"}, "The record's actions must be a list"),
    ):
        response = client.post(
            url,
            data={
                "csrf_token": token(client, url),
                "mode": "record",
                "record": json.dumps({**base, **change}),
            },
        )
        [message] = errors(response)
        assert message.startswith(words) and not TECHNICAL.search(message), message


def test_both_hands_card_counts_are_told_at_once(client):
    game = start(client)
    response = client.post(
        game + "/hand",
        data={
            "csrf_token": token(client, game),
            "mode": "cards",
            "knocker": "1",
            "cards_1": ANA[:9],
            "cards_0": BOR[:8],
            "action": "check",
        },
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Tap 10 cards for who went out; 9 tapped." in page  # Bor went out
    assert "Tap 10 cards for the other player; 8 tapped." in page
    assert re.search(r'id="err-cards_1"[^>]*>Tap 10 cards for who went out', page)
    assert re.search(r'id="err-cards_0"[^>]*>Tap 10 cards for the other player', page)
    assert "These need fixing" in page
    checked = client.post(
        "/check",
        data={
            "csrf_token": token(client, "/check"),
            "knocker_cards": ANA[:9],
            "defender_cards": BOR,
        },
    )
    assert errors(checked) == ["Tap 10 cards for who went out; 9 tapped."]
    both = client.post(
        "/check",
        data={
            "csrf_token": token(client, "/check"),
            "knocker_cards": ANA[:8],
            "defender_cards": BOR[:7],
        },
    )
    assert len(errors(both)) == 2


def test_partnerships_have_no_running_tally(client):
    with client.application.app_context():
        sheet, _ = games.create_game(get_storage(), ["Ana", "Bor", "Cy", "Di"])
        page = client.get(f"/games/{sheet.id}")
        assert page.status_code == 200 and "The tally, game by game" not in text(page)
        assert client.get(f"/games/{sheet.id}/tally").status_code == 404


def test_three_players_tally_who_is_up_and_who_is_down(client):
    # Game 1: Bor beats Cy 40, Ana beats Bor 30, Ana beats Cy 75 by gin (Cy won no hand).
    # Ana 105 + 50 boxes: 255 against Bor (65: Bor pays 190), 355 against Cy (0: shutout).
    with client.application.app_context():
        store = get_storage()
        first, _ = games.create_game(store, ["Ana", "Bor", "Cy"], stake=0.1)
        for knocker, k, d in ((1, 5, 45), (0, 5, 35), (0, 0, 50)):  # 40, 30, gin 50 + 25
            games.add_hand(
                store,
                first.id,
                {
                    "kind": "quick",
                    "knocker": knocker,
                    "knocker_deadwood": k,
                    "defender_deadwood": d,
                },
            )
        second, _ = games.create_game(store, ["Cy", "Ana", "Bor"], stake=0.1, follows=first.id)
    tally = text(client.get(f"/games/{second.id}/tally"))
    assert "Tally: Cy vs Ana vs Bor" in tally
    # seats in the latest game's order: Cy, Ana, Bor
    assert (
        "Game 1 : Ana won. Cy pays Ana 35.50 (355 points). Bor pays Ana 19.00 (190 points)."
        in tally
    )
    assert (
        "Running total: Cy is down 355 points (35.50); Ana is up 545 points (54.50);"
        " Bor is down 190 points (19.00)."
    ) in tally
    assert "Game 2 : Being played." in tally


def test_a_game_of_three_settles_in_the_same_words_on_the_sheet_and_the_tally(client):
    # Ana deals first and sits out; the loser deals next. Bor beats Cy 12, Ana 12, Cy 12,
    # Ana 12, Cy 12, Ana 15 (75, 6 boxes); Cy beats Bor 10; Ana gins Cy, 25 + 75: 100.
    # Finals: Ana 100 + 25 + 100 = 225, Bor 75 + 150 = 225 (even), Cy 10 + 25 = 35
    # (Cy pays 190 points, 19.00 at 0.10). One sentence per loser in both places.
    hands = [
        (1, 1, 13),
        (1, 1, 13),
        (1, 1, 13),
        (1, 1, 13),
        (1, 1, 13),
        (1, 1, 16),
        (2, 1, 11),
        (0, 0, 75),
    ]
    with client.application.app_context():
        store = get_storage()
        game, _ = games.create_game(store, ["Ana", "Bor", "Cy"], stake=0.1)
        for knocker, k, d in hands:
            games.add_hand(
                store,
                game.id,
                {
                    "kind": "quick",
                    "knocker": knocker,
                    "knocker_deadwood": k,
                    "defender_deadwood": d,
                },
            )
        sheet = games.load_sheet(store, game.id)
    assert sheet.over and list(sheet.result.final) == [225, 225, 35]
    said = ["Ana and Bor are even: nobody pays.", "Cy pays Ana 19.00 (190 points)."]
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    payments = re.search(r'<ul class="payments"[^>]*>(.*?)</ul>', page, re.S).group(1)
    assert [
        re.sub(r"</?bdi>", "", line) for line in re.findall(r"<li>(.*?)</li>", payments)
    ] == said
    assert f"Game 1 : Ana won. {' '.join(said)}" in text(client.get(f"/games/{game.id}/tally"))
