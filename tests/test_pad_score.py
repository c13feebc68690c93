"""The pad's own scorer (``api/static/pad-score.js``) is the core, hand for hand.

Issue 21: hands waiting to sync are scored on the phone, and the rules must not
fork. Random games, generated here from a seeded random over the core's own
lists (every preset, every option and each of its values: ``CHOICES``,
``BOOLEANS``, ``POINTS`` and the numbers; a new option of those lists is
covered without a change here, one of a new sort fails
:func:`test_every_option_is_generated`), with two, three and four players, are
typed as the pad's forms post them (the fields the offline queue keeps). Each
hand goes through the server's own path (the form read by the route's
:func:`~api.pad.routes_hands._hand_input` from the request as
:func:`~api.pad.hand_page.submitted` reads it, typed once by
:func:`~scorekeeper.handinput.parse_hand`, then the core's one move,
:func:`~scorekeeper.game.apply`, on the game's
:class:`~scorekeeper.tally.GameState`) and through the script in node, one
process for the whole batch. The soak tier (``pytest -m soak``) scores 10,000
hands and more, until every preset, option value, table, outcome and refusal
has been seen; the default run a twentieth of them (about 9 s). Compared:
each hand's entry, record and the summary after it (totals, boxes, next
dealer, game end, result with its bonuses and settlement), or the refusal's
code and field; the whole game scored from scratch; and the hands of each
game's tail scored as waiting hands after the sheet the server sent
(``provisional``). About a fifth of the hands are typed card by card (hands
built round melds, with cards the other hand's melds can take: the meld search
and the layoffs are compared too). Some hands are wrong on purpose (over the
knock limit, a missing upcard, the dealer going out, a card in both hands, a
hand after the end), and a few are what the page leaves to the server (a deal
record, a card hand with a declared play). A card hand's refusal is compared as
the core gives it (:func:`~scorekeeper.hands.evaluate_hand`); the route words it
for players on the form.
"""

from __future__ import annotations

import json
import random
import subprocess
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from conftest import soak_shares
from flask import request
from werkzeug.datastructures import MultiDict

from api import create_app
from api.pad.hand_page import modes_for, submitted
from api.pad.routes_hands import _hand_input
from scorekeeper.cards import DECK, RANKS, parse_card
from scorekeeper.errors import RuleError, ScorekeeperError
from scorekeeper.game import apply, evaluate
from scorekeeper.handinput import parse_hand
from scorekeeper.rules import BOOLEANS, CHOICES, POINTS, Rules
from scorekeeper.seating import seatings
from scorekeeper.sheet import GameSeat, score_sheet
from scorekeeper.tally import GameState

SCRIPT = Path(__file__).resolve().parent.parent / "api" / "static" / "pad-score.js"

NODE = """
import { addHand, provisional, scoreSheet, Refused, NeedsServer } from %s;
let input = "";
for await (const chunk of process.stdin) input += chunk;
const told = (error) => {
  if (error instanceof Refused) return { refused: [error.code, error.field] };
  if (error instanceof NeedsServer) return { server: error.kind };
  throw error;
};
console.log(JSON.stringify(JSON.parse(input).map((game) => {
  let sheet = game.start;
  const hands = game.hands.map((fields) => {
    try {
      const added = addHand(sheet, fields);
      sheet = added.sheet;
      return added;
    } catch (error) {
      return told(error);
    }
  });
  const { players, rules, stake } = game.start;
  const entries = hands.filter((hand) => hand.entry).map((hand) => hand.entry);
  const later = provisional(game.server, game.queued);
  return {
    hands,
    whole: scoreSheet(entries, { players, rules, dealer: game.dealer, stake }),
    later: { ...later, stopped: later.stopped && { index: later.stopped.index,
                                                   ...told(later.stopped.error) } },
  };
})));
"""

HANDS = 10_000
"""At least this many hands scored (refused ones and card hands come on top)."""

NAMES = ("Ana", "Bor", "Cy", "Dee")
CODES = [card.code for card in DECK]
ACES = [code for code in CODES if code[0] == "A"]
NUMBERS = {
    "knock_limit": lambda rng: rng.choice([0, 1, rng.randint(0, 10)]),
    "big_gin_bonus": lambda rng: rng.choice([None, rng.randint(0, 60)]),
    "target": lambda rng: rng.choice([rng.randint(1, 40), rng.randint(41, 250)]),
    "max_discard_draws": lambda rng: rng.choice([None, rng.randint(1, 100)]),
}
"""The options that are numbers (or null) outside ``POINTS``, and a value of each."""


def test_every_option_is_generated():
    """Every option of Rules is one the generator varies: a new one cannot go untested."""
    options = {field.name for field in fields(Rules)} - {"based_on"}
    assert options == {*CHOICES, *BOOLEANS, *POINTS, *NUMBERS}


def random_rules(rng: random.Random, preset: str, players: int) -> Rules:
    """The preset with a random share of its options changed to random values."""
    options: dict[str, Any] = {}
    for name, allowed in CHOICES.items():
        if rng.random() < 0.3:
            options[name] = rng.choice(allowed)
    for name in BOOLEANS:
        if rng.random() < 0.3:
            options[name] = rng.random() < 0.5
    for name in POINTS:
        if rng.random() < 0.3:
            options[name] = rng.choice([0, rng.randint(1, 60)])
    for name, value in NUMBERS.items():
        if rng.random() < 0.3:
            options[name] = value(rng)
    if players != 2:  # Hollywood is for two: the core refuses it at three or four
        options["scoring"] = "single"
    return Rules.preset(preset, **options)


def quick_fields(
    rng: random.Random, rules: Rules, seating: Any, prefix: str
) -> list[tuple[str, str]]:
    """One quick hand as the form posts it (mostly right, now and then wrong)."""
    count = len(seating.names)
    knocker = str(rng.choice(seating.seats))
    if rng.random() < 0.03:
        knocker = rng.choice(["", "x", str(rng.randrange(count)), "9"])
    big = 6 if rules.big_gin_bonus is not None else 1
    kind = rng.choices(["knock", "gin", "big_gin", "void", "fold"], [60, 15, big, 8, 1])[0]
    upcard = upcard_for(rng, rules)
    up = parse_card(upcard) if upcard in CODES else None
    limit = rules.knock_limit_for(up) if up or not rules.oklahoma else rules.knock_limit
    mine = str(rng.randint(1, limit)) if limit else "0"
    if kind != "knock":
        mine = rng.choice(["", "0"])
    if rng.random() < 0.08:  # over the limit by one most often
        mine = rng.choice(["0", str(limit + 1), str(limit + 1), "", "x", "100", " 3 "])
    theirs = str(rng.choice([0, rng.randint(0, 30), rng.randint(0, 98)]))
    if kind == "knock" and rng.random() < 0.15:
        theirs = mine  # a tie: an undercut, or no score
    if rng.random() < 0.03:
        theirs = rng.choice(["", "99", "-1", "7.5", " 12 "])
    form = [("knocker", knocker), ("kind", kind), ("knocker_deadwood", mine)]
    form.append(("defender_deadwood", theirs))
    if upcard or rng.random() < 0.5:
        form.append(("upcard", upcard))
    return [(prefix + name, value) for name, value in form]


def card_hand(rng: random.Random, size: int, free: set[str], near: list[str]) -> list[str]:
    """``size`` cards of ``free`` (taken from it): a few melds, perhaps some cards of
    ``near`` (that the other hand's melds could take), low cards for the rest."""
    hand: list[str] = []
    room = size - rng.choice([0, 1, 1, 2, 2, 3])  # mostly some deadwood
    for _ in range(rng.choice([0, 1, 2, 2, 3, 3])):
        if rng.random() < 0.5:
            suit, length = rng.choice("cdhs"), rng.choice([3, 3, 4, 5])
            low = rng.randrange(14 - length)
            meld = [RANKS[r] + suit for r in range(low, low + length)]
        else:
            rank = rng.choice(RANKS)
            meld = [rank + suit for suit in rng.sample("cdhs", rng.choice([3, 3, 4]))]
        if len(hand) + len(meld) <= room and free.issuperset(meld):
            hand += meld
            free -= set(meld)
    for code in rng.sample(near, min(len(near), rng.choice([0, 0, 1, 2, 3]))):
        if len(hand) < size and code in free:
            hand.append(code)
            free.discard(code)
    rest = sorted(free, key=lambda code: rng.random() + RANKS.index(code[0]) / 8)
    hand += rest[: size - len(hand)]
    free -= set(hand)
    return rng.sample(hand, len(hand))


def upcard_for(rng: random.Random, rules: Rules) -> str:
    """The first upcard as the form's list posts it ("" when not known)."""
    if rules.oklahoma or rules.spade_doubles:
        return rng.choice([*CODES, *ACES]) if rng.random() < 0.97 else ""
    return rng.choice([*CODES, "zz"]) if rng.random() < 0.05 else ""


def cards_fields(
    rng: random.Random, rules: Rules, seating: Any, prefix: str
) -> list[tuple[str, str]]:
    """One hand typed card by card (the tap grids of its two players)."""
    knocker = rng.choice(seating.seats)
    if rng.random() < 0.08 and prefix:
        return [(prefix + "knocker", "void")]
    other = seating.other(knocker)
    free = set(CODES)
    big = rules.big_gin_bonus is not None and rng.random() < 0.1
    mine = card_hand(rng, 11 if big else 10, free, [])
    near = [r + c[1] for c in mine for r in RANKS if abs(RANKS.index(r) - RANKS.index(c[0])) == 1]
    near += [c[0] + suit for c in mine for suit in "cdhs"]
    theirs = card_hand(rng, 10, free, near)
    fault = rng.random()
    if fault < 0.02:
        theirs[0] = mine[0]  # in both hands
    elif fault < 0.04:
        mine.pop()
    elif fault < 0.05:
        theirs[-1] = rng.choice(["zz", theirs[0]])
    form = [("knocker", str(knocker)), ("upcard", upcard_for(rng, rules))]
    form += [(f"cards_{knocker}", code) for code in mine]
    form += [(f"cards_{other}", code) for code in theirs]
    if rng.random() < 0.03:
        form.append(("arrangement", "0"))  # a play declared after the server's check
    return [(prefix + name, value) for name, value in form]


def hand_fields(rng: random.Random, rules: Rules, summary_: dict) -> list[tuple[str, str]]:
    """A hand of the pad's form (its [name, value] pairs, as the queue keeps them)."""
    players = summary_["players"]
    games = [GameSeat.from_dict(game) for game in summary_.get("next_games", ())]
    seated = seatings(players, summary_["next_dealer"], games)
    modes = modes_for(len(players))
    mode = rng.choices([modes[0], modes[1], rng.choice([*modes, "bogus"])], [75, 22, 3])[0]
    form = [("csrf_token", "token"), ("form_key", f"pad-{rng.getrandbits(64):016x}")]
    form.append(("mode", mode))
    typed = cards_fields if mode in ("cards", "deal_cards") else quick_fields
    if len(players) == 4:
        for i, seating in enumerate(seated):
            form += typed(rng, rules, seating, f"g{i}_")
    else:
        form += typed(rng, rules, seated[0], "")
    return [*form, ("action", "save")]


def core_add(state: GameState, fields_: list, rules: Rules) -> tuple[dict, GameState]:
    """The hand added as the server adds it: the pad's route reads the form, the hand
    input is typed at the edge (:func:`~scorekeeper.handinput.parse_hand`) and the core's
    :func:`~scorekeeper.game.apply` scores it after ``state``. The answer (the entry, the
    record and the summary after it, or the refusal) and the state after it.

    Called in a POST request's context; the request is given the hand's form data
    as parsed (one request context for all hands: building one per hand would be
    most of the test's time).
    """
    sheet = state.summary(rules)
    players = sheet["players"]
    request._get_current_object().__dict__["form"] = MultiDict(fields_)
    values = submitted(len(players))
    mode = request.form.get("mode", "")
    modes = modes_for(len(players))
    mode = mode if mode in modes else modes[0]
    if mode == "record":
        return {"server": mode}, state
    games = [GameSeat.from_dict(game) for game in sheet.get("next_games", ())]
    try:
        hand = _hand_input(rules, mode, values, seatings(players, sheet["next_dealer"], games))
        shape = hand if isinstance(hand, dict) else hand.data  # the quick form's: typed
        played = shape.get("games", [shape])
        if any(
            one["kind"] == "cards" and values[prefix + "arrangement"]
            for one, prefix in zip(
                played, ("g0_", "g1_") if "games" in shape else ("",), strict=True
            )
        ):
            return {"server": "declared"}, state  # the route's declared_hand scores it
        typed = parse_hand(hand) if isinstance(hand, dict) else hand  # quick: typed already
        record, after = apply(rules, state, typed)
        entry = evaluate(rules, state, typed).entry.to_dict()  # the entry apply logs
    except ScorekeeperError as error:
        assert isinstance(error, RuleError), error
        # the page refuses a hand after the end as a whole (no field): the API names the log
        field = None if error.code == "game_over" else error.field
        return {"refused": [error.code, field]}, state
    answer = {"entry": entry, "record": record.to_dict(), "sheet": after.summary(rules)}
    return answer, after


def plain(data: Any) -> Any:
    """``data`` as JSON gives it back (tuples are lists)."""
    return json.loads(json.dumps(data))


def random_game(rng: random.Random, preset: str, players: int) -> dict:
    """One game: its start, every hand typed, and the core's answer to each."""
    rules = random_rules(rng, preset, players)
    dealer = rng.randrange(players)
    stake = rng.choice([None, None, 1, 0.05, 0.25, 2.5, 0.1, 1.005, 0.015])
    state = GameState.start(rules, NAMES[:players], dealer, stake)
    start = state.summary(rules)
    hands, expected, entries = [], [], []
    while len(hands) < 120:
        fields_ = hand_fields(rng, rules, state.summary(rules))
        answer, state = core_add(state, fields_, rules)
        hands.append(fields_)
        expected.append(plain(answer))
        if "sheet" in answer:
            entries.append(answer["entry"])
        elif state.over:
            break  # a hand after the end was refused: the game is done
    split = rng.randrange(len(hands) + 1)
    before = [answer["entry"] for answer in expected[:split] if "entry" in answer]
    server = score_sheet(before, players=NAMES[:players], rules=rules, dealer=dealer, stake=stake)
    whole = score_sheet(entries, players=NAMES[:players], rules=rules, dealer=dealer, stake=stake)
    return {
        "rules": rules,
        "given": {
            "start": plain(start),
            "dealer": dealer,
            "hands": [[list(pair) for pair in fields_] for fields_ in hands],
            "server": plain(server.to_dict()),
            "queued": [[list(pair) for pair in fields_] for fields_ in hands[split:]],
        },
        "expected": expected,
        "whole": plain(whole.to_dict()),
        "split": split,
    }


def expected_later(game: dict) -> dict:
    """What the waiting hands after the split give: the core's answers up to the first
    hand it refuses (or leaves to the server)."""
    records, sheet = [], game["given"]["server"]
    for index, answer in enumerate(game["expected"][game["split"] :]):
        if "sheet" not in answer:
            stopped = {"index": index, **answer}
            return {"sheet": sheet, "records": records, "stopped": stopped}
        records.append(answer["record"])
        sheet = answer["sheet"]
    return {"sheet": sheet, "records": records, "stopped": None}


def coverage(game: dict) -> set[tuple]:
    """What a game exercised: its preset, option values, table, outcomes, ending."""
    rules, players = game["rules"], len(game["given"]["start"]["players"])
    seen: set[tuple] = {("preset", rules.based_on), ("players", players)}
    for name in (*CHOICES, *BOOLEANS):
        seen.add((name, getattr(rules, name)))
    for name in (*POINTS, *NUMBERS):
        value = getattr(rules, name)
        seen.add((name, "null" if value is None else "zero" if value == 0 else "number"))
    for fields_, answer in zip(game["given"]["hands"], game["expected"], strict=True):
        typed = "carded" if dict(fields_).get("mode") in ("cards", "deal_cards") else "outcome"
        if "record" in answer:
            record = answer["record"]
            for hand in record.get("games", [record]):
                seen.add((typed, players, "void" if hand["void"] else hand["outcome"]))
        seen.add(("answer", players, next(iter(answer))))
    if game["whole"]["over"]:
        seen.add(("over", players, rules.scoring))
    return seen


def wanted_coverage() -> set[tuple]:
    """Every preset and option value, each table, each outcome, and refusals."""
    wanted: set[tuple] = {("preset", name) for name in Rules.preset_names()}
    wanted |= {(name, value) for name, allowed in CHOICES.items() for value in allowed}
    wanted |= {(name, value) for name in BOOLEANS for value in (True, False)}
    wanted |= {(name, value) for name in POINTS for value in ("zero", "number")}
    wanted |= {(name, "number") for name in NUMBERS}
    wanted |= {("big_gin_bonus", "null"), ("max_discard_draws", "null"), ("knock_limit", "zero")}
    for players in (2, 3, 4):
        wanted.add(("players", players))
        outcomes = ("knock", "gin", "big_gin", "undercut", "tie", "void")
        wanted |= {("outcome", players, outcome) for outcome in outcomes}
        wanted |= {("carded", players, outcome) for outcome in ("knock", "gin", "undercut")}
        wanted |= {("answer", players, kind) for kind in ("entry", "refused", "server")}
        wanted.add(("over", players, "single"))
    wanted |= {("over", 2, "hollywood"), ("carded", 2, "big_gin")}
    return wanted


def in_node(batch: list[dict]) -> list[dict]:
    run = subprocess.run(
        ["node", "--input-type=module", "-e", NODE % json.dumps(SCRIPT.as_uri())],
        input=json.dumps(batch),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return json.loads(run.stdout)


@pytest.mark.slow  # node, and thousands of hands
@pytest.mark.parametrize("share", soak_shares())
def test_the_pad_scores_every_hand_as_the_core_does(share):
    """The whole (soak) scores 10,000 hands and more, until every preset, option value,
    table, outcome and refusal has been seen; the default run's twentieth, 500."""
    rng = random.Random(21)
    games: list[dict] = []
    seen: set[tuple] = set()
    scored = 0
    presets = Rules.preset_names()
    wanted = wanted_coverage() if share == 1 else set()
    with create_app({"DB": ":memory:"}).test_request_context(method="POST"):
        while scored < HANDS // share or not wanted <= seen:
            assert len(games) < 5_000, f"not covered: {sorted(wanted - seen, key=str)}"
            preset = presets[len(games) % len(presets)]
            game = random_game(rng, preset, rng.choice((2, 3, 4)))
            games.append(game)
            seen |= coverage(game)
            scored += sum("entry" in answer for answer in game["expected"])
    answers = in_node([game["given"] for game in games])
    for number, (game, pad) in enumerate(zip(games, answers, strict=True)):
        for n, (core, mine) in enumerate(zip(game["expected"], pad["hands"], strict=True)):
            assert mine == core, f"game {number} ({game['rules']}), hand {n}"
        assert pad["whole"] == game["whole"], f"game {number}"
        assert pad["later"] == expected_later(game), f"game {number}, after hand {game['split']}"
