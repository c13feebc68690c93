"""Rule options and presets (RULES.md section 9).

A :class:`Rules` is an immutable record of every option a game is scored
under. Presets are named starting points; every option can be overridden on
top of one, and ``to_dict()`` / ``from_dict()`` round-trip the full snapshot
that a game stores. Unknown options and bad values raise
:class:`~scorekeeper.errors.InvalidValueError` (a ``RuleError``) naming the
option: code ``unknown_option``, ``unknown_preset`` or ``bad_option_value``
with the option, the value and what is allowed in ``params``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, TypeGuard

from .cards import Card
from .errors import InvalidValueError

CHOICES = {
    "ace_upcard": ("gin_only", "one"),
    "shutout": ("double_bonus", "double_total"),
    "next_dealer": ("winner", "loser", "alternate"),
    "wall": ("void_at_two", "knock_only_at_two"),
    "scoring": ("single", "hollywood"),
    "first_dealer": ("low", "high", "random"),
    "tie": ("undercut", "no_score"),
    "discard_taken": ("forbidden", "allowed"),
    "repeated_discard": ("play_on", "void"),
    "three_player_dealer": ("loser", "rotate"),
    "partnership_netting": ("per_deal", "per_game"),
}
BOOLEANS = ("oklahoma", "spade_doubles")
POINTS = ("gin_bonus", "undercut_bonus", "box_bonus", "game_bonus")
MAX_POINTS = 10_000


@dataclass(frozen=True)
class Rules:
    """Every option of RULES.md section 9; the defaults are the standard preset.

    ``based_on`` names the preset the options started from (informational:
    the options themselves are what counts); ``to_dict()`` calls it
    ``preset``. ``three_player_dealer`` and ``partnership_netting`` only
    matter at a table of three or four (RULES.md section 8; every preset has
    ``loser`` and ``per_deal``): a two-player game records them and ignores
    them.
    """

    based_on: str = "standard"
    knock_limit: int = 10
    oklahoma: bool = False
    ace_upcard: str = "gin_only"
    spade_doubles: bool = False
    gin_bonus: int = 25
    big_gin_bonus: int | None = None
    undercut_bonus: int = 25
    box_bonus: int = 25
    game_bonus: int = 100
    shutout: str = "double_bonus"
    target: int = 100
    next_dealer: str = "winner"
    wall: str = "void_at_two"
    scoring: str = "single"
    first_dealer: str = "low"
    tie: str = "undercut"
    discard_taken: str = "forbidden"
    max_discard_draws: int | None = None
    repeated_discard: str = "play_on"
    three_player_dealer: str = "loser"
    partnership_netting: str = "per_deal"

    def __post_init__(self) -> None:
        _validate(self)

    @classmethod
    def preset_names(cls) -> tuple[str, ...]:
        """The names :meth:`preset` accepts."""
        return tuple(PRESETS)

    @classmethod
    def preset(cls, name: str = "standard", **overrides: Any) -> Rules:
        """The preset called ``name`` with ``overrides`` applied on top.

        >>> Rules.preset("oklahoma").target
        150
        >>> Rules.preset("standard", gin_bonus=20).gin_bonus
        20
        """
        if name not in PRESETS:
            raise InvalidValueError(
                f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}",
                code="unknown_preset",
                params={"preset": name},
                option="preset",
            )
        for key in overrides:
            _check_known(key)
        return replace(PRESETS[name], **overrides)

    def differences(self) -> dict[str, Any]:
        """The options that differ from the preset this rules object is based on."""
        base = PRESETS.get(self.based_on, PRESETS["standard"]).to_dict()
        return {k: v for k, v in self.to_dict().items() if k != "preset" and base[k] != v}

    def to_dict(self) -> dict[str, Any]:
        """Every option as plain JSON-ready values, ``preset`` first."""
        # every option is a plain value (no asdict: its deep copies cost a write a tenth of
        # its scoring, and each write's scoring asks twice)
        return {"preset": self.based_on, **{name: getattr(self, name) for name in _OPTIONS}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | str | Rules | None) -> Rules:
        """Rules from a preset name, or a dict ``{"preset": name, **options}``.

        ``None`` gives the standard preset; a :class:`Rules` is returned as is.
        Options missing from the dict keep the preset's values.
        """
        if data is None:
            return PRESETS["standard"]
        if isinstance(data, Rules):
            return data
        if isinstance(data, str):
            return cls.preset(data)
        if not isinstance(data, Mapping):
            raise InvalidValueError(
                "rules must be a preset name or an object of options",
                code="bad_rules",
                option="rules",
            )
        options = dict(data)
        name = options.pop("preset", "standard")
        if not isinstance(name, str):
            raise InvalidValueError(
                "preset must be a string",
                code="bad_option_value",
                params={"option": "preset", "value": name},
                option="preset",
            )
        return cls.preset(name, **options)

    def knock_limit_for(self, upcard: Card | None = None) -> int:
        """The knock limit of a deal whose first upcard is ``upcard`` (a Card).

        Oklahoma: the upcard's point value (never above ``knock_limit``); an
        ace means gin only (0) or 1 by ``ace_upcard``.
        """
        if not self.oklahoma:
            return self.knock_limit
        if upcard is None:
            raise InvalidValueError(
                "Oklahoma rules need the upcard to set the knock limit",
                code="missing_upcard",
                option="upcard",
            )
        if upcard.rank == 0:
            return min(0 if self.ace_upcard == "gin_only" else 1, self.knock_limit)
        return min(upcard.value, self.knock_limit)

    def multiplier_for(self, upcard: Card | None = None) -> int:
        """2 when ``spade_doubles`` is on and the first upcard is a spade, else 1.

        With ``spade_doubles`` on, the upcard is needed (RULES.md 6): ``None``
        raises :class:`RuleError` naming ``upcard``.
        """
        if not self.spade_doubles:
            return 1
        if upcard is None:
            raise InvalidValueError(
                "spade_doubles is on: the upcard is needed to score the"
                " hand (a spade upcard doubles it)",
                code="missing_upcard",
                option="upcard",
            )
        return 2 if upcard.suit == "s" else 1


def _check_known(key: str) -> None:
    if key not in _FIELD_NAMES:
        raise InvalidValueError(
            f"unknown rule option {key!r}",
            code="unknown_option",
            params={"option": key},
            option=key,
        )


def is_whole_number(value: Any) -> TypeGuard[int]:
    """True for an int that is not a bool (JSON's true/false are no numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _validate(rules: Rules) -> None:
    if not isinstance(rules.based_on, str):
        raise InvalidValueError(
            "preset must be a string",
            code="bad_option_value",
            params={"option": "preset", "value": rules.based_on},
            option="preset",
        )
    if not is_whole_number(rules.knock_limit) or not 0 <= rules.knock_limit <= 10:
        raise InvalidValueError(
            f"knock_limit must be a whole number from 0 to 10, not {rules.knock_limit!r}",
            code="bad_option_value",
            params={"option": "knock_limit", "value": rules.knock_limit, "low": 0, "high": 10},
            option="knock_limit",
        )
    for name in BOOLEANS:
        if not isinstance(getattr(rules, name), bool):
            raise InvalidValueError(
                f"{name} must be true or false",
                code="bad_option_value",
                params={"option": name, "value": getattr(rules, name), "allowed": [True, False]},
                option=name,
            )
    for name in POINTS:
        value = getattr(rules, name)
        if not is_whole_number(value) or not 0 <= value <= MAX_POINTS:
            raise InvalidValueError(
                f"{name} must be a whole number from 0 to {MAX_POINTS}, not {value!r}",
                code="bad_option_value",
                params={"option": name, "value": value, "low": 0, "high": MAX_POINTS},
                option=name,
            )
    optional = (("big_gin_bonus", 0, "not allowed"), ("max_discard_draws", 1, "no cap"))
    for name, low, null in optional:
        _check_optional_number(name, getattr(rules, name), low, null)
    if not is_whole_number(rules.target) or not 1 <= rules.target <= MAX_POINTS:
        raise InvalidValueError(
            f"target must be a whole number from 1 to {MAX_POINTS}, not {rules.target!r}",
            code="bad_option_value",
            params={"option": "target", "value": rules.target, "low": 1, "high": MAX_POINTS},
            option="target",
        )
    for name, allowed in CHOICES.items():
        value = getattr(rules, name)
        if value not in allowed:
            raise InvalidValueError(
                f"{name} must be one of {', '.join(allowed)}, not {value!r}",
                code="bad_option_value",
                params={"option": name, "value": value, "allowed": list(allowed)},
                option=name,
            )


def _check_optional_number(name: str, value: Any, low: int, null: str) -> None:
    """An option that is null (meaning ``null``) or a whole number from ``low`` to MAX_POINTS."""
    if value is not None and (not is_whole_number(value) or not low <= value <= MAX_POINTS):
        raise InvalidValueError(
            f"{name} must be null ({null}) or a whole number from {low} to {MAX_POINTS},"
            f" not {value!r}",
            code="bad_option_value",
            params={"option": name, "value": value, "low": low, "high": MAX_POINTS},
            option=name,
        )


_OPTIONS = tuple(f.name for f in fields(Rules) if f.name != "based_on")
"""The options' names, in :meth:`Rules.to_dict`'s order."""
_FIELD_NAMES = frozenset(_OPTIONS)

_STANDARD = Rules()
PRESETS: dict[str, Rules] = {
    "standard": _STANDARD,
    "classic": replace(
        _STANDARD, based_on="classic", gin_bonus=20, undercut_bonus=10, box_bonus=20
    ),
    "modern": replace(_STANDARD, based_on="modern", big_gin_bonus=31, shutout="double_total"),
    "oklahoma": replace(
        _STANDARD,
        based_on="oklahoma",
        oklahoma=True,
        spade_doubles=True,
        target=150,
        undercut_bonus=20,
        next_dealer="alternate",
        first_dealer="random",
    ),
    "straight": replace(_STANDARD, based_on="straight", knock_limit=0),
    "hollywood": replace(_STANDARD, based_on="hollywood", scoring="hollywood"),
    "slovenian": replace(_STANDARD, based_on="slovenian", box_bonus=20),
    "openspiel": replace(
        _STANDARD,
        based_on="openspiel",
        tie="no_score",
        discard_taken="allowed",
        max_discard_draws=50,
        repeated_discard="void",
        wall="knock_only_at_two",
    ),
}
