"""A new game's settings, checked: :func:`check_new_game` gives its :class:`GameSettings`.

Games are for two, three or four players (RULES.md section 8); player
names are cleaned by :func:`~scorekeeper.names.clean_name` and must be
different players (different :func:`~scorekeeper.names.name_key`: stats
match names by it); the rules are parsed here, at the edge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from .errors import InvalidValueError, RuleError
from .names import clean_name, name_key
from .rules import Rules
from .sheet import check_dealer, check_start


@dataclass(frozen=True, slots=True)
class GameSettings:
    """What a game is scored with: players, rules, first dealer and stake."""

    players: tuple[str, ...]
    rules: Rules
    dealer: int
    stake: float | None

    def dealt_by(self, dealer: Any) -> GameSettings:
        """These settings with first dealer ``dealer`` instead (refused unless a player's
        index, as :func:`check_new_game` refuses it)."""
        check_dealer(dealer, len(self.players))
        return replace(self, dealer=dealer)


def check_new_game(
    players: Any, rules: Any = None, dealer: Any = 0, stake: Any = None
) -> GameSettings:
    """Validate a new game's settings; returns them with the cleaned names and the rules.

    Each name goes through :func:`~scorekeeper.names.clean_name`; a refused
    name is reported as field ``players``, the message saying which player
    (the API's schema, checked first, names ``players.<i>``).
    """
    if (
        isinstance(players, str)
        or not isinstance(players, Sequence)
        or len(players) not in (2, 3, 4)
        or not all(isinstance(p, str) for p in players)
    ):
        raise InvalidValueError(
            "players must be a list of 2, 3 or 4 names", code="bad_players", option="players"
        )
    names = []
    for i, name in enumerate(players):
        try:
            names.append(clean_name(name, field="players"))
        except RuleError as error:
            raise error.restate(f"player {i + 1}: {error}", field="players") from error
    if len({name_key(name) for name in names}) != len(names):
        raise InvalidValueError(
            "the players need different names (letter case, and how"
            " an accent is encoded, do not count)",
            code="bad_players",
            option="players",
        )
    parsed = Rules.from_dict(rules)
    check_start(names, parsed, dealer, stake)
    return GameSettings(tuple(names), parsed, dealer, stake)
