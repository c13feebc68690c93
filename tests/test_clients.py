"""Clients generated from the OpenAPI document play a whole game against a real server.

The served document is validated (openapi-spec-validator), openapi-generator's
``typescript-fetch`` client is compiled with ``tsc --strict`` (typescript from
npm, tests/package.json), then two generators write a Python client from
it, once per session:
openapi-generator 7 (``python``, pydantic models; PyPI
``openapi-generator-cli``, which runs Java) and openapi-python-client
(attrs models, httpx). Each client, imported from its temporary folder,
plays through the live gunicorn server (``live``, rate limits off): a game
with every kind of hand (quick, cards, a deal record, void), the unfinished
game read back, an undo, a correction, ``Prefer: return=minimal``, a
replayed request, the export and an import of it, the players' stats; games
to their end with two players and no stake, three and a stake (a list of
payments), four and no stake (a null settlement), each read back and then
read with ``If-None-Match`` (304, no body); a knock verified, the replay of
a normal deal and of a void one, and the void one analysed.
Every answer must be parsed by the client into its documented model (a
generated client raises, or gives nothing, on an answer its document does
not describe).

The two clients differ in how operations and bodies are called;
:class:`Pydantic` and :class:`Attrs` give both one way
(:class:`Generated`), so one scenario runs through each.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import today
from engine_kit import void_deal
from openapi_spec_validator import validate

from api import create_app
from scorekeeper import simulate

BIN = Path(sys.executable).parent


@pytest.fixture(scope="session")
def document(tmp_path_factory) -> Path:
    """The served OpenAPI document, as a file."""
    app = create_app({"DB": ":memory:"})
    path = tmp_path_factory.mktemp("openapi") / "openapi.json"
    path.write_text(json.dumps(app.test_client().get("/api/openapi.json").json))
    return path


def test_the_document_validates(document):
    spec = json.loads(document.read_text())
    validate(spec)
    operations = [
        operation
        for item in spec["paths"].values()
        for method, operation in item.items()
        if method != "parameters"
    ]
    ids = [op["operationId"] for op in operations]
    assert len(ids) == len(set(ids)) == len(operations)
    assert spec["servers"]


JAVA = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
"""The JVM's options for openapi-generator (``JAVA_TOOL_OPTIONS``): a run of a few
seconds, which the JVM's optimizing compiler and parallel collector only slow (threads
of their own on a busy machine): half the CPU time with its first compiler alone and
the serial collector (measured: 5.7 s -> 3.0 s, 2026-12-06)."""


def _generate(argv: list[str], folder: Path) -> None:
    env = {**os.environ, "JAVA_TOOL_OPTIONS": JAVA}
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, cwd=folder, env=env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def lower(headers: Any) -> dict[str, str]:
    """Response headers by lower-case name (httpx gives them so)."""
    return {name.lower(): value for name, value in headers.items()}


class Generated:
    """A generated client at ``url``: ``call(operation, token=None, body=(model, dict), **params)``
    answers ``(status, headers (lower-case names), the parsed model as a dict)``.

    The answer must parse into the documented model (not None, not an error).
    """

    def __init__(self, package: str, url: str, document: dict):
        self.package = package
        self.url = url
        self.document = document

    def model(self, name: str) -> Any:
        return getattr(importlib.import_module(f"{self.package}.models"), name)

    def branch(self, name: str, value: dict) -> str:
        """The component a body of component ``name`` is: for a ``oneOf`` by one key's value
        (a hand by its kind), the one that value names."""
        chooser = self.document["components"]["schemas"][name].get("discriminator")
        if chooser is None:
            return name
        return chooser["mapping"][value[chooser["propertyName"]]].rsplit("/", 1)[1]


class Pydantic(Generated):
    """openapi-generator's ``python`` client."""

    def call(self, operation, token=None, body=None, **params):
        client = importlib.import_module(self.package)
        config = client.Configuration(host=self.url, access_token=token)
        with client.ApiClient(config) as api_client:
            api = client.ApiV1Api(api_client)
            if body is not None:
                model, value = body
                snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in model)[1:]
                params[snake] = self.model(model).from_dict(value)
            answer = getattr(api, f"{operation}_with_http_info")(**params)
        assert answer.data is not None and not isinstance(answer.data, self.model("Error"))
        # to_json, not to_dict: a list branch of a oneOf stays a list of models in to_dict
        return answer.status_code, lower(answer.headers), json.loads(answer.data.to_json())

    def unchanged(self, game_id: str, etag: str) -> tuple[int, dict[str, str], bytes]:
        """Read the sheet with ``If-None-Match``: the generator raises on every status
        outside 2xx, so the 304 arrives as its ``ApiException`` (status, headers, no body)."""
        client = importlib.import_module(self.package)
        config = client.Configuration(host=self.url)
        with client.ApiClient(config) as api_client, pytest.raises(client.ApiException) as raised:
            client.ApiV1Api(api_client).get_game(game_id=game_id, if_none_match=etag)
        return raised.value.status, lower(raised.value.headers), raised.value.body or b""


class Attrs(Generated):
    """openapi-python-client's client."""

    def call(self, operation, token=None, body=None, **params):
        client = importlib.import_module(f"{self.package}.client")
        http = (
            client.AuthenticatedClient(base_url=self.url, token=token)
            if token
            else client.Client(base_url=self.url)
        )
        if body is not None:  # a oneOf is no model here: the body is the branch's
            model, value = body
            params["body"] = self.model(self.branch(model, value)).from_dict(value)
        module = importlib.import_module(f"{self.package}.api.api_v1.{operation}")
        with http:
            answer = module.sync_detailed(client=http, **params)
        assert answer.parsed is not None and not isinstance(answer.parsed, self.model("Error")), (
            answer
        )
        return int(answer.status_code), lower(answer.headers), answer.parsed.to_dict()

    def unchanged(self, game_id: str, etag: str) -> tuple[int, dict[str, str], bytes]:
        """Read the sheet with ``If-None-Match``: (status, headers, body)."""
        client = importlib.import_module(f"{self.package}.client")
        module = importlib.import_module(f"{self.package}.api.api_v1.get_game")
        with client.Client(base_url=self.url) as http:
            answer = module.sync_detailed(client=http, game_id=game_id, if_none_match=etag)
        assert answer.parsed is None, answer
        return int(answer.status_code), lower(answer.headers), answer.content


@pytest.fixture(scope="session")
def generated(document, tmp_path_factory) -> Path:
    """Both clients generated into one folder (put on ``sys.path``)."""
    folder = tmp_path_factory.mktemp("clients")
    java = shutil.which("java")
    assert java, "openapi-generator needs Java (tests/run.sh installs default-jre-headless)"
    _generate(
        [
            str(BIN / "openapi-generator-cli"),
            "generate",
            "-g",
            "python",
            "-i",
            str(document),
            "-o",
            "pydantic",
            "--package-name",
            "sk_pydantic",
        ],
        folder,
    )
    config = folder / "opc.json"
    config.write_text(json.dumps({"post_hooks": [], "package_name_override": "sk_attrs"}))
    _generate(
        [
            str(BIN / "openapi-python-client"),
            "generate",
            "--path",
            str(document),
            "--output-path",
            "sk_attrs",
            "--meta",
            "none",
            "--config",
            str(config),
        ],
        folder,
    )
    sys.path[:0] = [str(folder / "pydantic"), str(folder)]
    return folder


TSC = Path(__file__).parent / "node_modules" / ".bin" / "tsc"


@pytest.mark.slow  # openapi-generator runs Java, tsc node
def test_the_typescript_client_compiles(document, tmp_path):
    """openapi-generator's ``typescript-fetch`` client compiles with ``tsc --strict``."""
    assert TSC.exists(), "tsc comes from npm: npm ci in tests/ (tests/package.json)"
    _generate(
        [
            str(BIN / "openapi-generator-cli"),
            "generate",
            "-g",
            "typescript-fetch",
            "-i",
            str(document),
            "-o",
            "ts",
        ],
        tmp_path,
    )
    options = ["--strict", "--noEmit", "--target", "es2020", "--module", "esnext"]
    options += ["--moduleResolution", "bundler", "--lib", "es2020,dom"]
    done = subprocess.run(
        [str(TSC), *options, "index.ts"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path / "ts",
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


@pytest.fixture(params=["openapi-generator", "openapi-python-client"])
def client(request, document, generated, live) -> Generated:
    spec = json.loads(document.read_text())
    if request.param == "openapi-generator":
        return Pydantic("sk_pydantic", live.url, spec)
    return Attrs("sk_attrs", live.url, spec)


KNOCK = {
    "knocker_cards": "As 2s 3s 7c 7d 7h 9d Td Jd 2c",
    "defender_cards": "4s 5s 6s 8c 8d 8h Kd Qd Jh Th",
}


VERIFY = {
    "knocker": KNOCK["knocker_cards"],
    "defender": KNOCK["defender_cards"],
}


def quick(knocker: int, k: int, d: int) -> dict:
    return {"kind": "quick", "knocker": knocker, "knocker_deadwood": k, "defender_deadwood": d}


def test_a_whole_game(client):
    record = simulate(5, dealer=0)
    status, headers, new = client.call(
        "create_game",
        body=(
            "GameRequest",
            {"dealer": 0, "players": record["players"], "rules": {"target": 100}, "stake": 0.5},
        ),
    )
    assert status == 201 and headers["location"] == new["url"] and headers["etag"] == '"0"'
    assert new["game"]["result"] is None and new["game"]["status"] == "active"
    game, token = new["id"], new["edit_token"]

    def hand(body: dict, **params: Any) -> tuple[int, dict, dict]:
        return client.call("add_hand", token, body=("HandRequest", body), game_id=game, **params)

    assert hand({"kind": "record", "record": record})[0] == 201
    status, _, void = hand({"kind": "void"})
    assert status == 201 and void["hand"]["void"] and void["hand"]["detail"] is None
    assert void["hand"]["winner"] is None and void["sheet"]["result"] is None
    _, _, cards = hand({"kind": "cards", "knocker": 1, **KNOCK})
    assert cards["hand"]["winner"] == 1 and cards["hand"]["detail"]["knocker"]["deadwood"] == 2
    status, headers, minimal = hand(
        quick(0, 7, 22), prefer="return=minimal", idempotency_key="one-quick-hand"
    )
    assert status == 201 and headers["preference-applied"] == "return=minimal"
    assert minimal["sheet"] is None and minimal["hand"]["points"] == 15
    status, headers, again = hand(
        quick(0, 7, 22), prefer="return=minimal", idempotency_key="one-quick-hand"
    )
    assert headers["idempotent-replayed"] == "true" and again["hand"] == minimal["hand"]

    status, headers, sheet = client.call("get_game", game_id=game)
    assert status == 200 and headers["etag"] == f'"{sheet["version"]}"'
    assert sheet["result"] is None and sheet["status"] == "active"
    assert [h["kind"] for h in sheet["hands"]] == ["record", "void", "cards", "quick"]
    _, _, undone = client.call("undo_last_hand", token, game_id=game, if_match=headers["etag"])
    assert undone["hand"]["n"] == 4 and len(undone["sheet"]["hands"]) == 3
    _, _, corrected = client.call(
        "correct_hand", token, body=("HandRequest", quick(1, 0, 30)), game_id=game, n=3
    )
    assert corrected["hand"]["corrected"] and corrected["hand"]["outcome"] == "gin"
    totals = corrected["sheet"]["totals"]
    while True:  # knocks by seat 0 until the game (to 100) is over
        _, _, last = hand(quick(0, 0, 40))
        if last["sheet"]["over"]:
            break
    result = last["sheet"]["result"]
    assert result["winner"] == 0 and result["settlement"]["payee"] == 0
    assert last["sheet"]["totals"][1] == totals[1]

    _, _, exported = client.call("export_game", game_id=game)
    assert len(exported["hands"]) == len(last["sheet"]["hands"])
    status, _, copy = client.call("import_game", body=("ImportRequest", exported))
    assert status == 201 and copy["id"] != game
    assert copy["game"]["totals"] == last["sheet"]["totals"]
    assert copy["game"]["result"]["final"] == result["final"]
    _, _, stats = client.call("get_player_stats", name=record["players"][0])
    assert stats["games"] >= 1 and stats["head_to_head"]


GAMES = {
    "two players, no stake": (["Ana", "Ben"], None),
    "three players, a stake": (["Ana", "Ben", "Cy"], 0.5),
    "four players, no stake": (["Ana", "Ben", "Cy", "Dan"], None),
}


def gin(sheet: dict) -> dict:
    """A gin (0 against 40) by a player of the next hand (every game of a four-player deal)."""
    if sheet.get("next_games"):
        games = [quick(game["players"][0], 0, 40) for game in sheet["next_games"]]
        return {"kind": "deal", "games": games}
    if len(sheet["players"]) == 3:  # the dealer sits out
        return quick((sheet["next_dealer"] + 1) % 3, 0, 40)
    return quick(0, 0, 40)


@pytest.mark.parametrize("players, stake", GAMES.values(), ids=GAMES)
def test_a_game_to_its_end(client, players, stake):
    _, _, new = client.call(
        "create_game",
        body=(
            "GameRequest",
            {"dealer": 0, "players": players, "rules": {"target": 100}, "stake": stake},
        ),
    )
    game, token, sheet = new["id"], new["edit_token"], new["game"]
    hands = 0
    while not sheet["over"]:
        body = ("HandRequest", gin(sheet))
        status, _, change = client.call("add_hand", token, body=body, game_id=game)
        assert status == 201
        sheet, hands = change["sheet"], hands + 1
    assert sheet["status"] == "over" and len(sheet["hands"]) == hands
    result = sheet["result"]
    if stake is None:
        assert result["settlement"] is None
    else:  # three players: each loser pays the winner
        payments = result["settlement"]
        assert len(payments) == 2 and all(pay["payee"] == result["winner"] for pay in payments)

    status, headers, read = client.call("get_game", game_id=game)
    assert status == 200 and read == sheet and headers["etag"] == f'"{sheet["version"]}"'
    status, headers, body = client.unchanged(game, headers["etag"])
    assert (status, headers["etag"], body) == (304, f'"{sheet["version"]}"', b"")

    # the finished game moved its players' ratings: the ladder and the history read it
    status, _, rating = client.call("get_player_rating", name=players[0].upper())
    assert status == 200 and rating["player"] == players[0]
    assert rating["history"][-1]["game_id"] == game
    assert rating["history"][-1]["rating"] == rating["rating"] and rating["games"] >= 1
    status, _, ladder = client.call("list_ratings", limit=200)
    shown = [line["rating"] for line in ladder["ratings"]]
    assert status == 200 and shown == sorted(shown, reverse=True)


def test_replays(client):
    _, _, verified = client.call("verify_knock", body=("VerifyRequest", VERIFY))
    assert (verified["outcome"], verified["points"]) == ("knock", 18)
    assert verified["defender"]["layoffs"]
    _, _, deal = client.call("replay_record", body=("RecordRequest", simulate(3)))
    assert deal["void"] is False and deal["points"] > 0 and deal["knocker"]["cards"]
    _, _, void = client.call("replay_record", body=("RecordRequest", void_deal(0, match=False)))
    assert void["void"] is True and void["knocker"] is None and void["outcome"] is None
    _, _, analysis = client.call(
        "analyse_record", body=("RecordRequest", void_deal(0, match=False))
    )
    assert analysis["void"] is True and analysis["showdown"] is None and analysis["decisions"]


def test_an_event_with_roster_changes(client):
    """The director's roster changes (issue 29) through each client: the answers parse into
    their documented models (the event with its withdrawals and entries, the swapped
    round with its new games)."""
    body = {"name": "Club", "players": ["Ana", "Bor", "Cy", "Dan", "Eva", "Gus"], "format": "swiss"}
    status, _, made = client.call("create_event", body=("EventRequest", {**body, "rounds": 2}))
    assert status == 201
    token, event_id = made["director_token"], made["id"]

    def roster(operation: str, player: str) -> tuple[int, dict, dict]:
        request = ("PlayerRequest", {"player": player})
        return client.call(operation, token, body=request, event_id=event_id)

    status, _, shown = roster("withdraw_player", "Eva")
    assert status == 200 and shown["withdrawals"] == [{"player": "Eva", "round": 1}]
    status, _, shown = roster("enter_player", "Fil")
    assert status == 201 and shown["entries"] == [{"player": "Fil", "round": 1}]
    _, _, paired = client.call("pair_round", token, event_id=event_id)
    (a, _), (c, _), _ = (match["players"] for match in paired["matches"])
    request = ("SwapRequest", {"players": [a, c], "confirm": False})
    status, _, swapped = client.call(
        "swap_players", token, body=request, event_id=event_id, number=1
    )
    assert status == 200 and [m["table"] for m in swapped["matches"]] == [1, 2]
    assert swapped["rematches"] == [] and swapped["matches"][0]["players"][0] == c
    _, _, event = client.call("get_event", event_id=event_id)
    lines = {line["player"]: line for line in event["standings"]}
    assert lines["Eva"]["withdrawn"] == 1 and lines["Fil"]["withdrawn"] is None
    assert event["rounds"][0]["walkovers"] == []


def test_a_season_and_its_table(client, request):
    """A season made and read through the client: its casual game listed beside the table."""
    winner, loser = f"Sea {request.node.callspec.id}", f"Son {request.node.callspec.id}"
    _, _, new = client.call(
        "create_game", body=("GameRequest", {"dealer": 0, "players": [winner, loser]})
    )
    sheet = new["game"]
    while not sheet["over"]:
        body = ("HandRequest", quick(0, 0, 40))
        sheet = client.call("add_hand", new["edit_token"], body=body, game_id=new["id"])[2]["sheet"]
    day = today()  # read after the game: yesterday too, past midnight
    first, last = str(day - timedelta(days=1)), str(day)
    settings = {"name": "Spring", "first_day": first, "last_day": last, "table": "placement"}
    status, headers, made = client.call(
        "create_season", body=("SeasonRequest", {**settings, "casual_games": True})
    )
    assert status == 201 and headers["location"] == made["url"] and made["casual_games"]
    assert client.call("get_season", season_id=made["id"])[2] == made
    _, _, table = client.call("get_season_table", season_id=made["id"])
    ours = {x["player"]: x for x in table["table"] if x["player"] in (winner, loser)}
    assert (ours[winner]["casual_won"], ours[winner]["casual_played"]) == (1, 1)
    assert (ours[loser]["casual_won"], ours[loser]["points"], ours[loser]["events"]) == (0, 0, 0)
    listed = client.call("list_seasons")[2]["seasons"]
    assert made["id"] in [found["id"] for found in listed]
