"""The walk of one quick hand through the JSON API, traced with ``sys.setprofile``.

One real request (the Flask test client, a real SQLite file): its hand's cards
are parsed once, at the edge, and its rules not at all (the game's row holds
them read); the modules of our own packages it passes through are counted
(an entry: a module not seen before becomes the running one; a return: a
module already left becomes the running one again).
"""

from __future__ import annotations

import re
import sys
from collections import Counter

from api import create_app
from scorekeeper.rescore import GAME_FORMAT, GAME_VERSION, rescore_game

HAND = {
    "kind": "quick",
    "knocker": 0,
    "knocker_deadwood": 5,
    "defender_deadwood": 20,
    "upcard": "7h",
}
OURS = ("scorekeeper", "api")
RULES_PARSING = {"from_dict", "preset", "_validate"}

MODULES = 31
"""The most modules of ours the walk may enter (measured: 31 since every request's hooks live
in api/lifecycle.py (api.drain and api.security's hook, api's session and long-stream hooks
and api.bodies' JSON refusal before); 32 before that with the players' running totals
(store/totals.py, store/sql_totals.py, names.py), 29 before them. Issue 28 asks 8, which is
not reached: the walk passes 14 modules of the core (handinput, cards, rules, game, tally,
hands, entries, knock, knock_results, paper, results, settle, gamesheet, names: reading and
scoring a hand, each an idea of its own), 10 of the store (games, sql, sqlite, base, tokens,
scored, answers, tallies, totals, sql_totals: a write, its backend, its rows, its scored
state, its answer, the pairs of hands and the players' totals) and 7 of the web layer (api,
lifecycle, limits, credentials, bodies, schemas, v1); eight would put the web layer, the
store's backends and the core's types in a few modules of many ideas)."""

RETURNS = 148
"""The most returns to a module already left (measured: 148, of which 73 within the store, 42
within the core, 14 within the web layer, 19 between layers; 169 before this issue's second
pass (2026-12-06), whose cuts were: a write's totals read its game's seats once and take its
facts from the row it holds (from 6 SELECTs to 2, and no second fold of the names), its
players' rows changed by one executemany per table, the game's row read once per request
(the token check's read is the write's while its locked row has the same version and
token), and the request hooks in one module (no return to api.drain after each). Issue 28
asks 20, which is not reached without merging modules of different ideas: the store's 73
are mostly a typed value of another module being built (a dataclass's ``__init__`` runs in
the module that defines it: SheetRow, Summary, Decision, LogEntry are store.base's, 14
returns) and a statement run through the backend (store.sql, 23); the core's 42 are the
scoring of one hand across the modules named in :data:`MODULES`. Before the totals: 134;
158 before the store's JSON encoders were taken as the encoder's own methods, the write's
answer was built by one call and a new hand scored by one call of the scored state; 161
before the typed entry was taken as it is.)"""


class Walk:
    """What a profiled stretch of code did: the running module of ours after each change,
    the card codes parsed and the calls that parse rules."""

    def __init__(self) -> None:
        self.stack: list[str | None] = []
        self.modules: list[str] = []
        self.calls: Counter[tuple[str, str]] = Counter()
        self.cards_parsed = 0

    def __call__(self, frame, event, arg) -> None:
        if event == "call":
            module = frame.f_globals.get("__name__", "")
            ours = module if module.split(".")[0] in OURS else None
            self.stack.append(ours)
            if ours:
                self.calls[ours, frame.f_code.co_name] += 1
                if ours == "scorekeeper.cards" and frame.f_code.co_name == "parse_card":
                    self.cards_parsed += isinstance(frame.f_locals.get("token"), str)
        elif event == "return":
            if self.stack:
                self.stack.pop()
        else:
            return
        running = next((m for m in reversed(self.stack) if m), None)
        if running and (not self.modules or self.modules[-1] != running):
            self.modules.append(running)

    @property
    def entered(self) -> list[str]:
        return list(dict.fromkeys(self.modules))

    @property
    def returns(self) -> int:
        return len(self.modules) - len(self.entered)

    @property
    def rules_parsed(self) -> int:
        return sum(
            n
            for (module, name), n in self.calls.items()
            if module == "scorekeeper.rules" and name in RULES_PARSING
        )


def test_a_quick_hand_walks_a_short_way(tmp_path):
    app = create_app({"DB": str(tmp_path / "walk.db"), "SECRET_KEY": "test", "TESTING": True})
    client = app.test_client()
    made = client.post(
        "/api/v1/games", json={"players": ["Ana", "Ben"], "dealer": 0, "rules": "oklahoma"}
    ).json
    path = f"/api/v1/games/{made['id']}/hands"
    headers = {"Authorization": f"Bearer {made['edit_token']}"}
    assert client.post(path, json=HAND, headers=headers).status_code == 201  # warm: first use
    walk = Walk()
    sys.setprofile(walk)
    try:
        answer = client.post(path, json=HAND, headers=headers)
    finally:
        sys.setprofile(None)
    assert answer.status_code == 201, answer.json
    assert answer.json["hand"]["points"] == 15 and answer.json["sheet"]["totals"] == [30, 0]
    assert walk.cards_parsed == 1  # the upcard, once
    assert walk.rules_parsed == 0
    assert walk.calls["scorekeeper.entries", "parse_entry"] == 0  # the entry scored is typed
    assert len(walk.entered) <= MODULES, walk.entered
    assert walk.returns <= RETURNS, walk.returns


CREATE_RETURNS = 180
"""The most returns to a module already left in a game's creation (measured: 180 since its
stake is read as a JSON number, not a string, by a field of ours, api.request_fields.Number;
178 since the
first dealer's range check is settle.check_index, the one check of an index option, not a copy
in sheet.py; 176, also since
its row is not read back and its totals take their facts from it (three fewer SELECTs); 176 after
its settings were checked once, in the view, and its empty sheet scored once; 232 before)."""


def test_a_new_game_checks_its_settings_once_and_scores_its_sheet_once(tmp_path):
    """``POST /api/v1/games``: the view checks the settings (its rules parsed there, once) and
    the store takes them as checked; the empty sheet is scored once, for the game's row and
    the answer (before: settings checked twice, rules validated three times, the empty
    sheet's state started four times)."""
    app = create_app({"DB": str(tmp_path / "walk.db"), "SECRET_KEY": "test", "TESTING": True})
    client = app.test_client()
    game = {"players": ["Ana", "Ben"], "dealer": 1, "rules": "oklahoma", "stake": 2}
    assert client.post("/api/v1/games", json=game).status_code == 201  # warm: first use
    walk = Walk()
    sys.setprofile(walk)
    try:
        answer = client.post("/api/v1/games", json={**game, "players": ["Cid", "Dee"]})
    finally:
        sys.setprofile(None)
    assert answer.status_code == 201, answer.json
    sheet = answer.json["game"]
    assert sheet["next_dealer"] == 1 and sheet["stake"] == 2.0 and sheet["needed"] == [150, 150]
    assert walk.calls["scorekeeper.newgame", "check_new_game"] == 1
    assert walk.calls["scorekeeper.rules", "_validate"] == walk.calls["scorekeeper.rules", "preset"]
    assert walk.calls["scorekeeper.rules", "preset"] == 1
    assert walk.calls["scorekeeper.tally", "start"] == walk.calls["scorekeeper.tally", "sheet"] == 1
    assert walk.returns <= CREATE_RETURNS, walk.returns


def test_a_game_scored_again_reads_its_rules_once_and_each_card_once():
    """``scorekeeper replay`` of an exported game folds ``apply`` over its hands, read once:
    its rules are parsed as often for three hands as for one, each upcard once."""
    parsed = []
    for count in (1, 3):
        record = {
            "format": GAME_FORMAT,
            "version": GAME_VERSION,
            "players": ["Ana", "Ben"],
            "rules": {"preset": "oklahoma", "target": 200},
            "hands": [HAND] * count,
        }
        walk = Walk()
        sys.setprofile(walk)
        try:
            game = rescore_game(record)
        finally:
            sys.setprofile(None)
        assert game.sheet.totals == (15 * count, 0)
        assert walk.cards_parsed == count
        parsed.append(walk.rules_parsed)
    assert parsed[0] == parsed[1] > 0


def test_the_pads_quick_form_reads_its_upcard_once(client):
    """The pad's quick form builds the typed hand (its upcard parsed there): the store takes
    it as it is."""
    page = client.get("/").get_data(as_text=True)
    form = {
        "csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1),
        "player_0": "Ana",
        "player_1": "Ben",
        "preset": "oklahoma",
        "options_for": "oklahoma",
        "dealer": "0",
    }
    game = client.post("/games", data=form).headers["Location"]
    hand = {**form, "mode": "quick", "knocker": "0", "kind": "knock", "upcard": "7h"}
    hand.update(knocker_deadwood="5", defender_deadwood="20")
    walk = Walk()
    sys.setprofile(walk)
    try:
        saved = client.post(game + "/hand", data=hand)
    finally:
        sys.setprofile(None)
    assert saved.status_code == 303, saved.get_data(as_text=True)
    assert walk.cards_parsed == 1
    assert '"totals": [15, 0]' in client.get(game).get_data(as_text=True)
