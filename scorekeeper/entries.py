"""Checking score-sheet entries: players, stake, seats and each hand's entry.

Every bad entry raises :class:`~scorekeeper.errors.RuleError` naming the hand
(and game) and the key at fault (see :mod:`scorekeeper.sheet`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import InvalidValueError, RuleViolation
from .paper import OUTCOMES, Entry, GameRecord, GameSeat
from .results import Outcome, field_values
from .rules import Rules, is_whole_number


def check_players(players: Any) -> list[str]:
    if isinstance(players, (str, bytes, Mapping)) or not isinstance(players, Sequence):
        raise InvalidValueError(
            "players must be a list of 2, 3 or 4 names", code="bad_players", option="players"
        )
    names = list(players)
    if len(names) not in (2, 3, 4):
        raise InvalidValueError(
            f"players must be a list of 2, 3 or 4 names, not {len(names)}",
            code="bad_players",
            option="players",
        )
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise InvalidValueError(
                f"player {i} must have a non-empty name, not {name!r}",
                code="bad_players",
                option="players",
            )
    if len(set(names)) != len(names):
        raise InvalidValueError(
            "player names must be distinct", code="bad_players", option="players"
        )
    return names


def check_stake(stake: Any) -> float | None:
    if stake is None:
        return None
    if (
        not isinstance(stake, (int, float))
        or isinstance(stake, bool)
        or not math.isfinite(stake)
        or stake < 0
    ):
        raise InvalidValueError(
            f"stake must be a number >= 0 or null, not {stake!r}",
            code="bad_value",
            params={"value": stake},
            option="stake",
        )
    return stake


def check_seat(
    value: Any,
    key: str,
    names: Sequence[str],
    seats: Sequence[int],
    sitting_out: int | None = None,
    *,
    label: str = "",
) -> int:
    """``value`` as the index of a player of a hand, or a :class:`RuleError` naming ``key``.

    It must be a player index (``bad_value``), not the three-player dealer
    ``sitting_out`` (``dealer_sits_out``) and one of the hand's two
    ``seats`` (``not_in_this_game``); ``label`` (``hand 3``) starts the
    message.
    """
    where = f"{label}: " if label else ""
    if not is_whole_number(value) or not 0 <= value < len(names):
        raise InvalidValueError(
            f"{where}{key} must be a player index 0..{len(names) - 1}, not {value!r}",
            code="bad_value",
            params={"value": value},
            option=key,
        )
    if value == sitting_out:
        raise RuleViolation(
            f"{where}{key} {names[value]} deals this hand and sits out",
            code="dealer_sits_out",
            params={"player": names[value]},
            option=key,
        )
    if value not in seats:
        raise RuleViolation(
            f"{where}{key} must be {names[seats[0]]} ({seats[0]}) or"
            f" {names[seats[1]]} ({seats[1]}), who play this game",
            code="not_in_this_game",
            params={"player": names[value]},
            option=key,
        )
    return value


def parse_deal(
    entry: Any, n: int, rules: Rules, names: list[str], games: Sequence[GameSeat]
) -> tuple[GameRecord, ...]:
    """The two games of a four-player deal entry, each parsed and annotated."""
    label = f"hand {n}"
    if not isinstance(entry, Mapping):
        raise InvalidValueError(
            f"{label}: an entry must be an object", code="bad_value", option="hands"
        )
    raw = entry.get("games")
    if raw is None:
        if entry.get("void") is True:
            raw = [{"void": True}, {"void": True}]
        else:
            raise InvalidValueError(
                f"{label}: a four-player entry needs games: [game 1, game 2] (or void: true)",
                code="missing_value",
                option="games",
            )
    if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Sequence) or len(raw) != 2:
        raise InvalidValueError(
            f"{label}: games must be a list of two entries, one per game",
            code="bad_value",
            option="games",
        )
    parsed = tuple(
        GameRecord(
            **field_values(game),
            **field_values(
                parse_entry(sub, f"{label}, game {game.game}", rules, names, game.players)
            ),
        )
        for game, sub in zip(games, raw, strict=True)
    )
    if entry.get("void") is True and not all(g.void for g in parsed):
        raise InvalidValueError(
            f"{label}: a void deal cannot have a game result", code="bad_value", option="void"
        )
    return parsed


def _parse_tie(entry: Mapping[str, Any], label: str, rules: Rules) -> Entry:
    """A tied knock's entry: nobody wins, 0 points, allowed only under ``tie: no_score``."""
    if rules.tie != "no_score":
        raise RuleViolation(
            f"{label}: a tied knock is an undercut under these rules (tie is {rules.tie})",
            code="tie_is_undercut",
            option="outcome",
        )
    for key in ("winner", "loser"):
        if entry.get(key) is not None:
            raise InvalidValueError(f"{label}: a tie has no {key}", code="bad_value", option=key)
    if entry.get("points") not in (None, 0):
        raise InvalidValueError(
            f"{label}: a tie scores no points", code="bad_value", option="points"
        )
    return Entry(outcome=Outcome.TIE)


def parse_entry(
    entry: Any,
    label: str,
    rules: Rules,
    names: list[str],
    seats: tuple[int, ...],
    need_loser: bool = False,
    sitting_out: int | None = None,
) -> Entry:
    """One two-player hand entry, checked, as an :class:`Entry` (the loser filled in).

    ``seats`` are the two players of the hand; ``sitting_out`` the three-player dealer.
    """
    if not isinstance(entry, Mapping):
        raise InvalidValueError(
            f"{label}: an entry must be an object", code="bad_value", option="hands"
        )
    if entry.get("games") is not None:
        raise InvalidValueError(
            f"{label}: only a four-player deal entry has games", code="bad_value", option="games"
        )
    void = entry.get("void", False)
    if not isinstance(void, bool):
        raise InvalidValueError(
            f"{label}: void must be true or false, not {void!r}",
            code="bad_value",
            params={"value": void},
            option="void",
        )
    if void:
        return _parse_void(entry, label)
    if entry.get("outcome") == Outcome.TIE:
        return _parse_tie(entry, label, rules)

    def seat(key: str) -> int:
        if key not in entry or entry[key] is None:
            raise InvalidValueError(f"{label}: {key} is missing", code="missing_value", option=key)
        return check_seat(entry[key], key, names, seats, sitting_out, label=label)

    winner = seat("winner")
    other = seats[1] if winner == seats[0] else seats[0]
    if entry.get("loser") is None and not need_loser:
        loser = other
    else:
        loser = seat("loser")
        if loser == winner:
            raise InvalidValueError(
                f"{label}: loser must not be the winner", code="bad_value", option="loser"
            )
    outcome, points = _outcome_and_points(entry, label, rules)
    return Entry(winner=winner, loser=loser, points=points, outcome=Outcome(outcome))


def _parse_void(entry: Mapping[str, Any], label: str) -> Entry:
    """A void hand's entry: nobody wins, no points."""
    for key in ("winner", "loser", "outcome"):
        if entry.get(key) is not None:
            raise InvalidValueError(
                f"{label}: a void hand has no {key}", code="bad_value", option=key
            )
    if entry.get("points") not in (None, 0):
        raise InvalidValueError(
            f"{label}: a void hand scores no points", code="bad_value", option="points"
        )
    return Entry(void=True)


def _outcome_and_points(entry: Mapping[str, Any], label: str, rules: Rules) -> tuple[str, int]:
    """A won hand's ``outcome`` and ``points``, checked against each other and the rules."""
    if "outcome" not in entry or entry["outcome"] is None:
        raise InvalidValueError(
            f"{label}: outcome is missing", code="missing_value", option="outcome"
        )
    outcome = entry["outcome"]
    if outcome not in OUTCOMES:
        raise InvalidValueError(
            f"{label}: outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}",
            code="bad_value",
            params={"value": outcome},
            option="outcome",
        )
    if "points" not in entry or entry["points"] is None:
        raise InvalidValueError(
            f"{label}: points is missing", code="missing_value", option="points"
        )
    points = entry["points"]
    if not is_whole_number(points) or points < 0:
        raise InvalidValueError(
            f"{label}: points must be a whole number >= 0, not {points!r}",
            code="bad_value",
            params={"value": points},
            option="points",
        )
    if outcome == "big_gin" and rules.big_gin_bonus is None:
        raise RuleViolation(
            f"{label}: big gin is not allowed under these rules (big_gin_bonus is null)",
            code="big_gin_not_allowed",
            option="outcome",
        )
    if outcome in ("knock", "undercut") and rules.knock_limit == 0:
        raise RuleViolation(
            f"{label}: with knock limit 0 only gin ends a hand, not {outcome}",
            code="gin_only",
            params={"outcome": outcome},
            option="outcome",
        )
    least = {
        "knock": 1,
        "gin": rules.gin_bonus,
        "undercut": rules.undercut_bonus,
        "big_gin": rules.big_gin_bonus or 0,
    }[outcome]  # None was refused above
    if points < least:
        raise RuleViolation(
            f"{label}: points {points} are too few for"
            f" {outcome.replace('_', ' ')} (at least {least})",
            code="too_few_points",
            params={"points": points, "least": least, "outcome": outcome},
            option="points",
        )
    return outcome, points
