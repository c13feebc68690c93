"""Hostile input: schemathesis over every operation (but the live stream) of a real server,
sizes, fuzzed input.

The OpenAPI document is built from the app (the same code the live server
runs, and the test checks the server serves the same document) when the
test runs, not when it is collected (a schema from a fixture: collecting,
or deselecting, costs nothing). Each operation gets a couple of hundred
cases (schemathesis' examples, coverage and fuzzing phases, valid and
invalid data, hypothesis derandomized: the same cases each run) sent to the
live server, and every response must be no 5xx, a documented status and a
body that fits the documented schema; invalid data must be refused, and
valid data accepted unless the rules refuse what it means (the document is
as strict as the request validation: :func:`valid_data_accepted`).

Most cases that name a game are pointed at a real game, and most writes
carry its edit token, so that generated hands reach the scoring and the
store instead of stopping at 404 or 401.

Then: bodies over the size limit get 413 (with and without a
Content-Length), every documented request string and list has a maximum
and going over it is a 422 naming the field; hypothesis fuzzes card
notation (parsed, or a CardError naming the input) and hand inputs to a
real SQLite store (stored whole, or refused with the log unchanged).
"""

from __future__ import annotations

import functools
import re

import marshmallow as ma
import pytest
import requests
import schemathesis
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api import create_app, request_docs
from api import schemas as s
from scorekeeper import CardError, parse_cards
from scorekeeper.errors import Conflict, ScorekeeperError
from scorekeeper.names import REFUSED_BEYOND_BMP
from scorekeeper.store import games
from scorekeeper.store.sqlite import Storage


@functools.cache
def spec() -> dict:
    """The OpenAPI document, built from the app (once, when a test first asks for it)."""
    return create_app({"DB": ":memory:"}).test_client().get("/api/openapi.json").json


REJECTIONS = [
    "400",
    "401",
    "403",
    "404",
    "405",
    "406",
    "409",
    "413",
    "415",
    "422",
    "428",
    "429",
    "5xx",
]
"""What counts as refusing invalid data: schemathesis' own list plus 413, which every body
endpoint documents (a generated string past ``maxLength`` can also pass the body limit)."""

ACCEPTANCES = ["2xx", "3xx", "401", "403", "404", "409", "413", "429", "5xx"]
"""What counts as accepting valid data: schemathesis' own list plus 413 (a body the
document allows can still pass the body limit: 1,000 hands of 52 cards each)."""

SHAPE_REASONS = frozenset(
    {"unknown_option", "unknown_preset", "bad_option_value", "unknown_key", "misplaced_key"}
)
"""Domain refusals that the document describes (rule options and their values, a record's
keys): valid data never gets them."""


SAMPLE = 10
"""The default run's cases per operation (examples and fuzzing phases; the soak tier's run
has 100 and the coverage phase, every boundary case the document defines)."""


def read_schema(phases: dict) -> schemathesis.BaseSchema:
    """The document the live server serves, as schemathesis reads it with ``phases``."""
    return schemathesis.openapi.from_dict(
        spec(),
        config=SchemathesisConfig.from_dict(
            {
                "checks": {
                    "negative_data_rejection": {"expected-statuses": REJECTIONS},
                    "positive_data_acceptance": {"expected-statuses": ACCEPTANCES},
                },
                "phases": phases,
            }
        ),
    )


@pytest.fixture(scope="module")
def api_schema(live):
    """The document, every phase (built as the test runs, not as it is collected)."""
    return read_schema({})


@pytest.fixture(scope="module")
def api_sample(live):
    """The document, without the coverage phase (the default run's bounded sample)."""
    return read_schema({"coverage": {"enabled": False}})


schema = schemathesis.pytest.from_fixture("api_schema").exclude(operation_id="gameEvents")
"""Every operation but the live event stream: it is nginx's (nchan), not the app's, and a
stream that is asked for stays open (a request would wait for its end); test_live tests it."""

sample = schemathesis.pytest.from_fixture("api_sample").exclude(operation_id="gameEvents")
"""The same operations, for the bounded sample."""


def valid_data_accepted(ctx, response, case):
    """schemathesis' positive_data_acceptance, but for the refusals no document can spare
    valid data: the domain's of what it means (a 422 with a ``reason``: ten cards that are
    no hand, a knock over the limit; the document says which requests are well formed, the
    rules which are playable) and an ``Idempotency-Key`` used before for another request.
    The domain's refusals that the document does describe (:data:`SHAPE_REASONS`) still
    fail it."""
    if response.status_code == 422 and case.meta is not None:
        error = response.json()["error"]
        reason = error.get("reason")
        if error["code"] == "idempotency_key_reused" or reason not in {None, *SHAPE_REASONS}:
            return None
        if refused_beyond_the_pattern(error):
            return None
    return positive_data_acceptance(ctx, response, case)


def refused_beyond_the_pattern(error: dict) -> bool:
    """Whether ``error`` refuses a name for a character beyond U+FFFF: no pattern every tool
    reads can spell those, so the document says them in words (``NAME_DESCRIPTION``)."""
    named = re.search(r"character U\+([0-9A-F]{5,6}) ", error.get("message", ""))
    return named is not None and BEYOND_BMP.fullmatch(chr(int(named.group(1), 16))) is not None


BEYOND_BMP = re.compile(f"[{REFUSED_BEYOND_BMP}]")


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
    valid_data_accepted,
]


@pytest.fixture(scope="module")
def session():
    """One keep-alive connection for all the cases."""
    with requests.Session() as session:
        yield session


@pytest.fixture(scope="module")
def target(live):
    """A real game with a few hands: (id, its edit token)."""
    url, auth = live.new_game(rules={"target": 10_000})
    for _ in range(3):
        requests.post(f"{url}/hands", json={"kind": "void"}, headers=auth, timeout=10)
    return url.rsplit("/", 1)[1], auth["Authorization"]


def test_the_live_server_serves_this_document(live):
    assert requests.get(f"{live.url}/api/openapi.json", timeout=10).json() == spec()


@pytest.fixture
def node_id(request):
    """The test's node id where schemathesis' lazy schemas look for it (``_nodeid``, which
    pytest 9.2 renamed): they rename the test per operation in reports, then restore it."""
    request.node._nodeid = request.node.nodeid


@sample.parametrize()
@settings(
    max_examples=SAMPLE, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck)
)
def test_a_sample_gets_no_5xx_and_every_response_as_documented(
    case, node_id, live, session, target
):
    call_and_validate(case, live, target, session)


@pytest.mark.soak
@schema.parametrize()
@settings(
    max_examples=100, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck)
)
def test_no_5xx_and_every_response_as_documented(case, node_id, live, session, target):
    call_and_validate(case, live, target, session)


def call_and_validate(case, live, target, session) -> None:
    """Send ``case``, pointed at the real game most often, and check the response."""
    game_id, authorization = target
    path = case.path_parameters or {}
    generated = path.get("game_id")
    if generated and sum(map(ord, generated)) % 5:  # four cases in five: the real game
        path["game_id"] = game_id
        if case.method != "GET" and sum(map(ord, generated)) % 7:  # mostly with its token
            case.headers = {**(case.headers or {}), "Authorization": authorization}
    if path.get("name") and sum(map(ord, path["name"])) % 3:
        path["name"] = "Ana"
    case.call_and_validate(base_url=live.url, session=session, checks=CHECKS)


# ----------------------------------------------------------------------------- sizes


def test_bodies_over_the_limit_get_413_and_change_nothing(live):
    url, auth = live.new_game()
    limit = create_app({"DB": ":memory:"}).config["MAX_CONTENT_LENGTH"]
    big = b'{"kind": "void", "x": "' + b"x" * limit + b'"}'
    headers = {**auth, "Content-Type": "application/json"}
    sized = requests.post(f"{url}/hands", data=big, headers=headers, timeout=30)
    chunked = requests.post(
        f"{url}/hands", data=iter([big[:1000], big[1000:]]), headers=headers, timeout=30
    )  # no Content-Length
    for response in (sized, chunked):
        assert response.status_code == 413
        error = response.json()["error"]
        assert (error["code"], error["field"]) == ("too_large", "body")
        assert str(limit) in error["message"]
    page = requests.post(f"{live.url}/games", data={"player_0": "x" * limit}, timeout=30)
    assert page.status_code == 413 and "text/html" in page.headers["Content-Type"]
    assert requests.get(url, timeout=10).json()["version"] == 0


LONG = "x" * 1001


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/games", {"players": ["Ana", "x" * 41]}, "players.1"),
        ("/games", {"players": ["Ana", "Ben", "Cy", "Dan", "Eve"]}, "players"),
        ("/melds", {"cards": "As " * 134}, "cards"),
        ("/melds", {"cards": ["As"] * 53}, "cards"),
        ("/melds", {"cards": ["As", "x" * 9]}, "cards"),
        (
            "/verify",
            {"knocker": "As", "defender": "2s", "layoffs": [{"card": "As", "meld": "2s"}] * 53},
            "layoffs",
        ),
        ("/verify", {"knocker": "As", "defender": "2s", "rules": {"gin_bonus": LONG}}, "rules"),
        ("/replay", {"format": "gin-rummy-deal/1", "comment": LONG}, None),
        ("/replay", {"format": "gin-rummy-deal/1", "actions": ["draw"] * 1001}, None),
        ("/replay", {"format": "gin-rummy-deal/1", "x": [[[[[[[[[[1]]]]]]]]]]}, None),
        ("/games/import", {"players": ["Ana", "Ben"], "hands": [{"kind": "void"}] * 1001}, "hands"),
        ("/games/import", {"players": ["Ana", "Ben"], "comment": LONG}, "comment"),
        ("/games/import", {"players": ["Ana", "Ben"], "seed": LONG}, "seed"),
        ("/games/import", {"format": "gin-rummy-match/1", "deals": [{"comment": LONG}]}, "deals.0"),
    ],
)
def test_strings_and_lists_have_maximum_lengths(live, path, body, field):
    response = requests.post(f"{live.url}/api/v1{path}", json=body, timeout=10)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid" and error["field"] == field and error["message"]


def test_a_record_hand_with_a_long_comment_is_refused(live):
    url, auth = live.new_game()
    response = requests.post(
        f"{url}/hands",
        headers={**auth, "Idempotency-Key": "x" * 201},
        json={"kind": "void"},
        timeout=10,
    )
    assert response.status_code == 422 and response.json()["error"]["field"] == "Idempotency-Key"
    response = requests.post(
        f"{url}/hands",
        headers=auth,
        timeout=10,
        json={"kind": "record", "record": {"format": "gin-rummy-deal/1", "comment": LONG}},
    )
    error = response.json()["error"]
    assert response.status_code == 422 and error["field"] == "record"
    assert "comment" in error["message"] and "1000" in error["message"]
    assert requests.get(url, timeout=10).json()["version"] == 0


def _nodes(schema: dict, where: str, seen: frozenset = frozenset()):
    """Every schema node inside ``schema`` (references followed once): (where, node)."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        if name not in seen:
            component = spec()["components"]["schemas"][name]
            yield from _nodes(component, f"{where}->{name}", seen | {name})
        return
    yield where, schema
    if schema.get("type") == "array":
        yield from _nodes(schema.get("items", {}), f"{where}[]", seen)
    for key in ("oneOf", "anyOf", "allOf"):
        for sub in schema.get(key, []):
            yield from _nodes(sub, where, seen)
    for name, sub in schema.get("properties", {}).items():
        yield from _nodes(sub, f"{where}.{name}", seen)
    if isinstance(schema.get("additionalProperties"), dict):
        yield from _nodes(schema["additionalProperties"], f"{where}.*", seen)


def _request_nodes():
    """Every schema node of every request: path, query and header parameters, bodies."""
    for path, item in spec()["paths"].items():
        for parameter in item.get("parameters", []):  # path parameters
            yield from _nodes(parameter["schema"], f"{path} {parameter['name']}")
        for method, operation in item.items():
            if method == "parameters":
                continue
            for parameter in operation.get("parameters", []):
                yield from _nodes(parameter["schema"], f"{method} {path} {parameter['name']}")
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                yield from _nodes(body["schema"], f"{method} {path} body")


def test_every_documented_request_string_and_list_has_a_maximum():
    missing = [
        where
        for where, node in _request_nodes()
        if (node.get("type") == "string" and not {"maxLength", "enum"} & node.keys())
        or (node.get("type") == "array" and "maxItems" not in node)
    ]
    assert missing == []


def test_every_documented_request_object_names_its_keys():
    """No request object is free-form: the validation refuses unknown keys everywhere (the
    request schemas, the rules object, the records), and the document says so."""
    loose = [
        where
        for where, node in _request_nodes()
        if node.get("type") == "object" and node.get("additionalProperties") is not False
    ]
    assert loose == []


# ----------------------------------------------------------------------------- fuzzing the domain

CARD_TEXT = st.text(
    alphabet=st.sampled_from(
        [*"A23456789TJQK10cdhsCDHS♠♥♦♣", " ", ",", ";", "\t", "x", "é", "\x00", "🂡"]
    ),
    max_size=60,
) | st.text(max_size=30)


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(CARD_TEXT)
def test_card_notation_parses_or_names_the_problem(text):
    try:
        cards = parse_cards(text, field="cards")
    except CardError as error:
        assert str(error).startswith("cards: ") and error.field == "cards"
        return
    assert parse_cards(" ".join(card.code for card in cards)) == cards
    assert len(set(cards)) == len(cards)
    # the documented notation admits all the domain parses (so outside it is always a 4xx)
    assert re.fullmatch(request_docs.CARDS_PATTERN, text)
    assert all(
        re.fullmatch(request_docs.CARD_PATTERN, token)
        for token in re.split(r"[\s,;]+", text)
        if token
    )


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 120) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
HAND_KEYS = [
    "knocker",
    "knocker_deadwood",
    "defender_deadwood",
    "big_gin",
    "upcard",
    "knocker_cards",
    "defender_cards",
    "knocker_melds",
    "defender_melds",
    "layoffs",
    "record",
    "games",
]
HANDS = st.fixed_dictionaries(
    {"kind": st.sampled_from(["quick", "cards", "record", "void", "deal"])},
    optional={
        key: st.integers(-1, 120) | st.booleans() | JSON | st.just("As 2s 3s 4s 5s 6s 7s 8s 9s Ts")
        for key in HAND_KEYS
    },
)


@pytest.fixture(scope="module")
def fuzz_store(tmp_path_factory):
    store = Storage(tmp_path_factory.mktemp("fuzz") / "fuzz.db")
    sheet, _ = games.create_game(store, ["Ana", "Ben"], {"target": 10_000})
    return store, sheet.id


@settings(
    max_examples=examples(300),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(HANDS)
def test_fuzzed_hands_are_stored_whole_or_refused_leaving_the_log_as_it_was(fuzz_store, hand):
    store, game_id = fuzz_store
    try:
        hand = s.HandRequest().load(hand)  # what the API lets through to the domain
    except ma.ValidationError:
        return
    before = store.log(game_id)
    try:
        record, sheet, created = games.add_hand(store, game_id, hand)
    except (ScorekeeperError, Conflict):
        assert store.log(game_id) == before
        return
    assert created and sheet.version == len(before) + 1 and record.input == hand
    assert store.log(game_id)[:-1] == before
