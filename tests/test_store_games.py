"""Stored games (scorekeeper.store.games) on a real SQLite store.

Settings and names, hands, undo, corrections, export and import.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from store_kit import ABC, ABCD, PARTNERSHIP, THREE_PLAYERS, VOID, deal, new_game, quick

from scorekeeper.bots import simulate, simulate_match
from scorekeeper.errors import Conflict, RuleError, Stale
from scorekeeper.results import Outcome
from scorekeeper.rules import Rules
from scorekeeper.sheet import GameRecord, GameSeat, Payment
from scorekeeper.store import games
from scorekeeper.store.refusals import KeyReused, NotFound


def test_create_game_stores_the_rules_snapshot_and_only_a_token_hash(store):
    sheet, token = games.create_game(
        store, ["Ana ", "Ben"], rules={"preset": "classic", "target": 150}, dealer=1, stake=0.1
    )
    game = store.game(sheet.id)
    assert game.players == ("Ana", "Ben")
    assert game.rules.gin_bonus == 20 and game.rules.target == 150
    assert (game.dealer, game.stake, game.status) == (1, 0.1, "active")
    assert token not in game.token_hash and len(game.token_hash) == 64
    assert games.token_matches(game, token) and not games.token_matches(game, token + "x")
    assert not games.token_matches(game, None)
    assert len(sheet.id) >= 16 and sheet.hands == () and sheet.next_dealer == 1


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"players": ["Ana"]}, "players"),
        ({"players": ["Ana", "ana"]}, "players"),
        ({"players": ["Ana", "  "]}, "players"),
        ({"players": ["Ana", "Ben"], "dealer": 2}, "dealer"),
        ({"players": ["Ana", "Ben"], "stake": -1}, "stake"),
        ({"players": ["Ana", "Ben"], "rules": {"gin_bonus": "lots"}}, "gin_bonus"),
        ({"players": ["Ana", "Ben"], "rules": "bridge"}, "preset"),
    ],
)
def test_bad_game_settings_store_nothing(store, backend, settings, field):
    with pytest.raises(RuleError) as error:
        games.create_game(store, **settings)
    assert error.value.field == field
    assert backend.sql("SELECT count(*) FROM games") == [(0,)]


def test_the_store_itself_refuses_a_name_that_is_none_naming_its_seat(store, backend):
    # the check the SQL layer keeps for callers other than games.create_game
    with pytest.raises(RuleError) as error:
        store.create_game(
            game_id="g",
            players=["Ana", "  "],
            rules=Rules.preset(),
            dealer=0,
            stake=None,
            token_hash="0" * 64,
        )
    assert error.value.field == "players.1"
    assert backend.sql("SELECT count(*) FROM games") == [(0,)]
    assert backend.sql("SELECT count(*) FROM players") == [(0,)]


def test_hands_totals_and_the_end_of_the_game(store):
    game_id, _ = new_game(store, stake=0.5)
    hand, sheet, created = games.add_hand(store, game_id, quick(0, 7, 22))
    assert created and hand.n == 1 and hand.points == 15 and hand.winner == 0
    assert hand.kind == "quick" and hand.input == quick(0, 7, 22)
    for _ in range(2):
        _, sheet, _ = games.add_hand(store, game_id, quick(1, 0, 20))  # Ben gins: 45 each
    _, sheet, _ = games.add_hand(store, game_id, {"kind": "void"})
    assert sheet.totals == (15, 90) and sheet.status == "active"
    assert store.game(game_id).status == "active"
    _, sheet, _ = games.add_hand(store, game_id, quick(1, 0, 0))  # Ben gins: 25 more
    assert sheet.totals == (15, 115) and sheet.boxes == (1, 3)
    assert sheet.status == "over" and store.game(game_id).status == "over"
    assert sheet.result.winner == 1 and sheet.result.settlement.payer == 0


def test_a_hand_after_the_end_is_refused_and_stores_nothing(store):
    game_id, _ = new_game(store, rules={"target": 20})
    games.add_hand(store, game_id, quick(0, 0, 10))
    with pytest.raises(Conflict) as error:
        games.add_hand(store, game_id, quick(0, 5, 20))
    assert error.value.code == "game_over"
    assert len(store.log(game_id)) == 1


def test_a_bad_hand_stores_nothing(store):
    game_id, _ = new_game(store)
    with pytest.raises(RuleError) as error:
        games.add_hand(store, game_id, quick(0, 12, 20))
    assert error.value.field == "knocker_deadwood"
    assert store.log(game_id) == []
    with pytest.raises(NotFound):
        games.add_hand(store, "no-such-game", quick(0, 5, 20))


def test_idempotency_key(store):
    game_id, _ = new_game(store)
    first = games.add_hand(store, game_id, quick(0, 5, 20), idempotency_key="k1")
    again = games.add_hand(store, game_id, quick(0, 5, 20), idempotency_key="k1")
    assert first[2] and not again[2] and again[0] == first[0]
    assert len(store.log(game_id)) == 1
    with pytest.raises(KeyReused):
        games.add_hand(store, game_id, quick(0, 6, 20), idempotency_key="k1")
    other, _ = new_game(store)
    assert games.add_hand(store, other, quick(0, 5, 20), idempotency_key="k1")[2]


def test_a_keyed_create_is_stored_once_and_gives_its_token_again(store, backend):
    first = games.create_game(store, ["Ana", "Ben"], idempotency_key="g1", secret="s")
    again = games.create_game(store, ["Ana", "Ben"], idempotency_key="g1", secret="s")
    assert again == first and games.token_matches(store.game(first[0].id), first[1])
    for other in (
        {"players": ["Ana", "Cy"], "secret": "s"},
        {"players": ["Ana", "Ben"], "secret": "another secret"},
    ):
        with pytest.raises(KeyReused):
            games.create_game(store, other["players"], idempotency_key="g1", secret=other["secret"])
    assert backend.sql("SELECT count(*) FROM games") == [(1,)]


def test_a_write_based_on_an_old_version_is_stale_and_stores_nothing(store):
    game_id, _ = new_game(store)
    games.add_hand(store, game_id, quick(0, 5, 20), expected_version=0, idempotency_key="a")
    with pytest.raises(Stale) as error:
        games.add_hand(store, game_id, quick(1, 5, 20), expected_version=0)
    assert (error.value.expected, error.value.version, error.value.code) == (0, 1, "stale")
    assert "version 1" in str(error.value)
    for stale in (
        lambda: games.undo_last(store, game_id, expected_version=3),
        lambda: games.correct_hand(store, game_id, 1, quick(0, 6, 20), expected_version=0),
    ):
        with pytest.raises(Stale):
            stale()
    assert len(store.log(game_id)) == 1
    # a retry of the acknowledged write returns its answer, though its version is old now
    record, sheet, created = games.add_hand(
        store, game_id, quick(0, 5, 20), expected_version=0, idempotency_key="a"
    )
    assert not created and record.n == 1 and sheet.version == 1
    assert games.undo_last(store, game_id, expected_version=1)[1].version == 2


def test_undo_and_correct_are_new_log_entries(store):
    game_id, _ = new_game(store)
    games.add_hand(store, game_id, quick(0, 5, 20))  # Ana 15
    games.add_hand(store, game_id, quick(1, 2, 10))  # Ben 8
    undone, sheet, _ = games.undo_last(store, game_id)
    assert undone.n == 2 and undone.points == 8
    assert sheet.totals == (15, 0) and len(sheet.hands) == 1
    hand, sheet, _ = games.correct_hand(store, game_id, 1, quick(0, 5, 30))
    assert hand.corrected and hand.points == 25 and sheet.totals == (25, 0)
    games.add_hand(store, game_id, quick(1, 0, 10))
    assert [e.kind for e in store.log(game_id)] == ["quick", "quick", "undo", "correct", "quick"]
    sheet = games.load_sheet(store, game_id)
    assert [h.seq for h in sheet.hands] == [4, 5]
    assert sheet.totals == (25, 35) and sheet.version == 5


def test_undo_on_an_empty_sheet_and_correcting_a_missing_hand(store):
    game_id, _ = new_game(store)
    with pytest.raises(Conflict) as error:
        games.undo_last(store, game_id)
    assert error.value.code == "nothing_to_undo"
    with pytest.raises(NotFound) as error:
        games.correct_hand(store, game_id, 1, quick(0, 5, 20))
    assert error.value.field == "n"
    assert store.log(game_id) == []


def test_a_correction_that_changes_who_deals_a_recorded_deal_is_refused(store):
    record = simulate(5, dealer=0)  # the winner deals next: Ana (seat 0) after hand 1
    game_id, _ = new_game(store, players=record["players"])
    games.add_hand(store, game_id, quick(0, 5, 20))
    games.add_hand(store, game_id, {"kind": "record", "record": record})
    with pytest.raises(Conflict, match="hand 2 would be dealt by greedy 2") as error:
        games.correct_hand(store, game_id, 1, quick(1, 5, 20))
    assert (error.value.code, error.value.params) == (
        "dealer_rotation",
        {"hand": 2, "expected": "greedy 2", "dealer": "greedy 1"},
    )
    assert len(store.log(game_id)) == 2


def test_corrections_recompute_the_end_of_the_game(store):
    game_id, _ = new_game(store, rules={"target": 50})
    games.add_hand(store, game_id, quick(0, 5, 20))  # Ana 15
    games.add_hand(store, game_id, quick(0, 5, 25))  # Ana 35
    _, sheet, _ = games.add_hand(store, game_id, quick(0, 0, 0))  # Ana 60: over
    assert sheet.over
    _, sheet, _ = games.correct_hand(store, game_id, 3, quick(0, 5, 6))  # Ana 36: open again
    assert not sheet.over and sheet.status == "active"
    with pytest.raises(Conflict, match="undo the later hands") as error:
        games.correct_hand(store, game_id, 1, quick(0, 0, 40))  # over after hand 1
    assert error.value.code == "game_over"
    assert games.load_sheet(store, game_id).totals == (36, 0)
    games.undo_last(store, game_id)
    _, sheet, _ = games.add_hand(store, game_id, quick(0, 0, 30))
    assert sheet.over and sheet.result.winner == 0


def test_export_and_import_round_trip(store):
    game_id, _ = new_game(store, rules="oklahoma", stake=0.25)
    games.add_hand(store, game_id, quick(0, 3, 20, upcard="5s"))
    games.add_hand(store, game_id, {"kind": "void"})
    games.add_hand(
        store,
        game_id,
        {
            "kind": "cards",
            "knocker": 1,
            "upcard": "Kd",
            "knocker_cards": "As 2s 3s 7c 7d 7h 9d Td Jd 2c",
            "defender_cards": "4s 5s 6s 8c 8d 8h Kd Qd Jh Th",
        },
    )
    games.undo_last(store, game_id)
    record = games.export_game(store, game_id).to_dict()
    assert record["format"] == "scorekeeper.game" and len(record["hands"]) == 2
    sheet, token = games.import_game(store, record)
    original = games.load_sheet(store, game_id)
    assert sheet.id != game_id and token
    assert sheet.totals == original.totals == (34, 0)
    assert sheet.rules == original.rules and sheet.stake == 0.25


def test_import_refuses_a_bad_hand_naming_it(store, backend):
    record = {"players": ["Ana", "Ben"], "hands": [quick(0, 5, 20), quick(0, 15, 20)]}
    with pytest.raises(RuleError) as error:
        games.import_game(store, record)
    assert error.value.field == "hands.1.knocker_deadwood"
    assert str(error.value).startswith("hand 2:")
    assert backend.sql("SELECT count(*) FROM games") == [(0,)]


def test_import_an_engine_match_record(store):
    match = simulate_match(2)
    sheet, _ = games.import_game(store, match)
    assert len(sheet.hands) == len(match["deals"])
    assert all(hand.kind == "record" for hand in sheet.hands)
    assert sheet.over and sheet.status == "over"


def test_names_are_stored_cleaned(store):
    sheet, _ = games.create_game(store, ["  E\u0301mile ", "Ana María"])
    assert store.game(sheet.id).players == ("\u00c9mile", "Ana María")
    assert sheet.players == ("\u00c9mile", "Ana María")


@pytest.mark.parametrize(
    ("players", "words"),
    [
        (["E\u0301mile", "\u00e9MILE"], "different names"),
        (["Straße", "STRASSE"], "different names"),
        (["Ana", "B\u202eob"], "player 2: a name may not hold"),
        (["\x00", "Ben"], "player 1: a name may not hold"),
        (["Ana", "x" * 41], "player 2: a name has at most 40"),
    ],
)
def test_names_that_are_one_player_or_could_deceive_are_refused(store, backend, players, words):
    with pytest.raises(RuleError, match=words) as error:
        games.create_game(store, players)
    assert error.value.field == "players"
    with pytest.raises(RuleError):
        games.import_game(store, {"players": players})
    assert backend.sql("SELECT count(*) FROM games") == [(0,)]
    assert backend.sql("SELECT count(*) FROM players") == [(0,)]


def test_only_imported_games_are_marked_imported(store):
    game_id, _ = new_game(store)
    assert store.game(game_id).imported is False
    copy, _ = games.import_game(store, games.export_game(store, game_id).to_dict())
    assert store.game(copy.id).imported is True
    match, _ = games.import_game(store, simulate_match(1))
    assert store.game(match.id).imported is True


# ----------------------------------------------------------------------------- three players


def test_a_three_player_game_to_the_end(store):
    game_id, _ = new_game(store, players=ABC, dealer=0, stake=0.1)
    hands = THREE_PLAYERS
    for hand in hands:
        record, sheet, _ = games.add_hand(store, game_id, hand)
    assert record.record.sits_out == record.dealer == 1 and record.input == hands[-1]
    assert [h.record.sits_out for h in sheet.hands] == [0, 1, 2, 2, 0, 1]
    assert [(h.winner, h.loser, h.points) for h in sheet.hands if not h.void] == [
        (2, 1, 29),
        (0, 2, 55),
        (1, 0, 65),
        (2, 1, 10),
        (0, 2, 46),
    ]
    assert sheet.totals == (101, 65, 39) and sheet.boxes == (2, 1, 2)
    assert sheet.status == "over" and sheet.next_dealer == 2  # Cy lost the last hand
    result = sheet.result
    # Ana 101 + 2 x 25 + 100 = 251; Ben 65 + 25 = 90; Cy 39 + 2 x 25 = 89
    assert result.final == (251, 90, 89) and result.shutout is False
    assert result.nets == (161 + 162, -161, -162)
    assert result.settlement == (
        Payment(payer=1, payee=0, amount=16.1),
        Payment(payer=2, payee=0, amount=16.2),
    )
    assert sheet == games.load_sheet(store, game_id)
    copy, _ = games.import_game(store, games.export_game(store, game_id).to_dict())
    assert replace(copy, id=sheet.id, created=sheet.created, updated=sheet.updated) == sheet


@pytest.mark.parametrize(
    ("hand", "field", "code"),
    [
        (quick(0, 5, 20), "knocker", "dealer_sits_out"),  # Ana deals hand 1
        (quick(3, 5, 20), "knocker", "bad_value"),
        ({"kind": "record", "record": {}}, "kind", "record_two_players"),
        ({"kind": "deal", "games": [quick(1, 5, 20), quick(2, 5, 20)]}, "kind", "bad_kind"),
    ],
)
def test_a_bad_three_player_hand_is_refused_naming_the_field(store, hand, field, code):
    game_id, _ = new_game(store, players=ABC)
    with pytest.raises(RuleError) as error:
        games.add_hand(store, game_id, hand)
    assert (error.value.field, error.value.code) == (field, code)
    assert field in str(error.value)
    assert store.log(game_id) == [] and store.game(game_id).scored.count == 0
    with pytest.raises(RuleError) as error:
        games.import_game(store, {"players": ABC, "hands": [hand]})
    assert error.value.field == f"hands.0.{field}"


def test_three_player_corrections_keep_who_sat_out(store):
    game_id, _ = new_game(store, players=ABC, rules={"three_player_dealer": "rotate"})
    games.add_hand(store, game_id, quick(1, 5, 20))  # Ana sits out; Ben 15; Ben deals next
    games.add_hand(store, game_id, quick(2, 4, 10))  # Ben sits out; Cy 6; Cy deals next
    with pytest.raises(RuleError) as error:
        games.add_hand(store, game_id, quick(2, 4, 10))
    assert (error.value.field, error.value.code) == ("knocker", "dealer_sits_out")
    _, sheet, _ = games.correct_hand(store, game_id, 1, quick(2, 4, 10))  # Cy 6 instead
    assert sheet.totals == (0, 0, 12) and sheet.next_dealer == 2
    # loser rule: making Ben lose hand 1 would have Ben deal hand 2, which he played
    loser, _ = new_game(store, players=ABC)
    games.add_hand(store, loser, quick(1, 5, 20))  # Ben beats Cy; Cy deals hand 2
    games.add_hand(store, loser, quick(1, 5, 20))  # Ben beats Ana
    with pytest.raises(Conflict, match="undo the later hands") as error:
        games.correct_hand(store, loser, 1, quick(2, 5, 20))
    assert (error.value.code, error.value.field) == ("dealer_sits_out", "n")
    assert len(store.log(loser)) == 2


# ----------------------------------------------------------------------------- partnerships


def test_a_partnership_game_to_the_end(store):
    game_id, _ = new_game(store, players=ABCD, dealer=1, stake=0.5)
    assert games.load_sheet(store, game_id).scored.next_games == (
        GameSeat(game=1, players=(0, 1), dealer=1),
        GameSeat(game=2, players=(2, 3), dealer=3),
    )
    for hand in PARTNERSHIP[:3]:
        games.add_hand(store, game_id, hand)
    # a wrong deal 4 (Ana gin 65, Ben 10: team 0 + 55), corrected to Ana's gin 75
    games.add_hand(store, game_id, deal(quick(0, 0, 40), quick(1, 2, 12)))
    record, sheet, _ = games.correct_hand(store, game_id, 4, PARTNERSHIP[3])
    assert record.record.team_points == (75, 10) and sheet.totals == (95, 15)
    record, sheet, _ = games.add_hand(store, game_id, PARTNERSHIP[4])
    # per deal: team 1 + 15; team 0 + 30; nothing; team 0 + 65; team 0 + 5
    assert [h.totals for h in sheet.hands] == [(0, 15), (30, 15), (30, 15), (95, 15), (100, 15)]
    # team 1 deals first; the deal passes from team to team after every deal
    assert [h.record.dealer_team for h in sheet.hands] == [1, 0, 1, 0, 1]
    assert [[g.dealer for g in h.record.games] for h in sheet.hands] == [
        [1, 3],
        [0, 2],
        [1, 3],
        [0, 2],
        [1, 3],
    ]
    assert record.record.games[1] == GameRecord(
        game=2,
        players=(2, 3),
        dealer=3,
        void=False,
        winner=2,
        loser=3,
        outcome=Outcome.KNOCK,
        points=8,
    )
    assert sheet.boxes == (3, 1) and sheet.status == "over"
    result = sheet.result
    # team 0: 100 + 3 x 25 + 100 = 275; team 1: 15 + 25 = 40; 235 x 0.50
    assert result.final == (275, 40) and result.net == 235
    assert result.settlement == Payment(payer=1, payee=0, amount=117.5)
    assert sheet == games.load_sheet(store, game_id)
    exported = games.export_game(store, game_id).to_dict()
    assert exported["hands"] == PARTNERSHIP
    copy, _ = games.import_game(store, exported)

    def scored(hands):  # the hands as scored (the copy has no correction: other seqs)
        return [replace(h, seq=0, corrected=False) for h in hands]

    assert scored(copy.hands) == scored(sheet.hands) and copy.result == result


def test_a_partnership_game_netted_per_game(store):
    game_id, _ = new_game(
        store,
        players=ABCD,
        dealer=1,
        stake=0.5,
        rules={"preset": "slovenian", "partnership_netting": "per_game"},
    )
    for hand in PARTNERSHIP[:4]:
        _, sheet, _ = games.add_hand(store, game_id, hand)
    # (20, 35); (50, 35); (50, 35); (125, 45): team 0 is past 100
    assert sheet.totals == (125, 45) and sheet.boxes == (3, 2)
    # team 0: 125 + 3 x 20 + 100 = 285; team 1: 45 + 2 x 20 = 85; 200 x 0.50
    assert sheet.result.final == (285, 85)
    assert sheet.result.settlement == Payment(payer=1, payee=0, amount=100.0)
    with pytest.raises(Conflict):
        games.add_hand(store, game_id, PARTNERSHIP[4])
    assert sheet == games.load_sheet(store, game_id)


@pytest.mark.parametrize(
    ("hand", "field", "code"),
    [
        (quick(0, 5, 20), "kind", "bad_kind"),
        ({"kind": "record", "record": {}}, "kind", "record_two_players"),
        (deal("quick 0 5 20", VOID), "games.0.kind", "bad_value"),
        ({"kind": "deal", "games": [quick(0, 5, 20)]}, "games", "bad_games"),
        ({"kind": "deal"}, "games", "bad_games"),
        (deal(quick(2, 5, 20), VOID), "games.0.knocker", "not_in_this_game"),  # 0-1 play game 1
        (deal(VOID, quick(1, 5, 20)), "games.1.knocker", "not_in_this_game"),  # 2-3 play game 2
        (deal(VOID, {"kind": "record", "record": {}}), "games.1.kind", "bad_value"),
        (deal(quick(0, 12, 20), VOID), "games.0.knocker_deadwood", "knock_over_limit"),
    ],
)
def test_a_bad_deal_is_refused_naming_the_field(store, hand, field, code):
    game_id, _ = new_game(store, players=ABCD)
    with pytest.raises(RuleError) as error:
        games.add_hand(store, game_id, hand)
    assert (error.value.field, error.value.code) == (field, code)
    assert store.log(game_id) == [] and store.game(game_id).scored.count == 0


@pytest.mark.parametrize("players", [ABCD[:1], [*ABCD, "Eve"], ["Ana", "Ben", "ana"]])
def test_two_to_four_different_players(store, backend, players):
    with pytest.raises(RuleError) as error:
        games.create_game(store, players)
    assert error.value.field == "players"
    assert backend.sql("SELECT count(*) FROM games") == [(0,)]
