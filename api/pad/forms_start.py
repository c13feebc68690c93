"""The start form (players, rules preset and options, dealer, stake), read into a new
game's settings, and the options form's fields and words.

What is wrong comes back as an errors dict mapping each form field at fault to a
message for players (:func:`game_from_form`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from scorekeeper.cut import first_dealer
from scorekeeper.errors import RuleError
from scorekeeper.names import clean_name, name_key
from scorekeeper.rules import PRESETS, Rules

from ..i18n import _
from .labels import worded
from .options import CHOICE_LABELS, OPTION_LABELS


def rules_form(rules: Rules | None = None) -> list[dict[str, Any]]:
    """The fields of the options form: every option of RULES.md section 9.

    Each is ``{"name", "label", "kind" ("number", "choice", "bool",
    "optional_number"), "value", "choices": [(value, label)], "min", "max"}``.
    """
    rules = rules or PRESETS["standard"]
    values = rules.to_dict()
    fields = []
    for name, label in OPTION_LABELS.items():
        field: dict[str, Any] = {"name": name, "label": label, "value": values[name]}
        if name in CHOICE_LABELS:
            field.update(kind="choice", choices=list(CHOICE_LABELS[name].items()))
        elif isinstance(values[name], bool):
            field.update(
                kind="bool",
                # Translators: the two values of an on/off rule option.
                choices=[("on", _("on")), ("off", _("off"))],
                value="on" if values[name] else "off",
            )
        elif name in ("big_gin_bonus", "max_discard_draws"):
            field.update(
                kind="optional_number",
                min=0 if name == "big_gin_bonus" else 1,
                max=10_000,
                value="" if values[name] is None else values[name],
            )
        else:
            field.update(
                kind="number",
                min=1 if name == "target" else 0,
                max=10 if name == "knock_limit" else 10_000,
            )
        fields.append(field)
    return fields


def preset_values() -> dict[str, dict[str, Any]]:
    """Every preset's options as form values (booleans ``on``/``off``, null as "")."""
    result = {}
    for name, rules in PRESETS.items():
        result[name] = {field["name"]: field["value"] for field in rules_form(rules)}
    return result


def rules_from_form(form: Mapping[str, Any]) -> Rules:
    """Rules from the start-a-game form.

    ``preset`` names the preset chosen; ``options_for`` the preset whose
    values the option fields were showing (without JavaScript they do not
    follow a change of preset). Every field that differs from
    ``options_for``'s value is applied on top of the chosen preset, so
    untouched fields take the chosen preset's values. Raises
    :class:`RuleError` naming the option.
    """
    name = form.get("preset") or "standard"
    if name not in PRESETS:
        raise RuleError(_("Choose one of the rule presets."), option="preset")
    shown_name = form.get("options_for") or name
    values = preset_values()
    shown = values.get(shown_name, values[name])
    overrides: dict[str, Any] = {}
    for field in rules_form(PRESETS[name]):
        key = field["name"]
        if key not in form:
            continue
        raw = str(form[key]).strip()
        if raw == str(shown[key]):
            continue
        if field["kind"] == "bool":
            if raw not in ("on", "off"):
                raise RuleError(
                    _("%(option)s: choose on or off.", option=OPTION_LABELS[key]), option=key
                )
            overrides[key] = raw == "on"
        elif field["kind"] == "choice":
            if raw not in CHOICE_LABELS[key]:
                raise RuleError(
                    _("%(option)s: choose one of the listed values.", option=OPTION_LABELS[key]),
                    option=key,
                )
            overrides[key] = raw
        else:
            if raw == "" and field["kind"] == "optional_number":
                overrides[key] = None
                continue
            if not re.fullmatch(r"\d{1,5}", raw):
                raise RuleError(
                    _(
                        "%(option)s: type a whole number from %(low)s to %(high)s.",
                        option=OPTION_LABELS[key],
                        low=field["min"],
                        high=field["max"],
                    ),
                    option=key,
                )
            overrides[key] = int(raw)
    try:
        return Rules.preset(name, **overrides)
    except RuleError as error:
        raise RuleError(worded(error), option=error.option) from error


MAX_PLAYERS = 4
"""Name fields on the start form: two players, three, or four in two partnerships."""


def game_from_form(
    form: Mapping[str, Any], rng: random.Random
) -> tuple[dict[str, Any], dict[str, str]]:
    """The settings of a new game from the start form, and every problem found.

    Returns ``({"players", "rules" (a Rules), "dealer", "cut", "stake"}, errors)``
    where ``errors`` maps form fields (``player_0`` .. ``player_3``, an
    option name, ``dealer``, ``stake``) to messages for players (a name
    is refused as :func:`~scorekeeper.names.clean_name` refuses it, and the
    players must be different by :func:`~scorekeeper.names.name_key`); the
    settings are only complete when ``errors`` is empty.

    Players 1 and 2 are needed, 3 and 4 are optional: two names make a
    two-player game, three a three-player one, four two partnerships
    (players 1 and 3 against 2 and 4, :data:`~scorekeeper.sheet.TEAMS`).
    A fourth name without a third is refused on ``player_2`` rather than
    moved up, since moving it would change the partnerships. ``dealer`` is
    a player's number from 0 (with four, that player's team deals first)
    or ``cut`` (or left out: the form names no dealer): the service cuts for
    the players by the rules' ``first_dealer`` option, drawing from ``rng``
    (:func:`~scorekeeper.cut.first_dealer`); ``cut`` is then the cards cut
    (codes, player order), ``None`` under ``random`` (a draw by lot) or with a
    dealer named.
    """
    errors: dict[str, str] = {}
    names = []
    raws = [str(form.get(f"player_{i}", "")) for i in range(MAX_PLAYERS)]
    count = 4 if raws[3].strip() else 3 if raws[2].strip() else 2
    if not raws[2].strip() and raws[3].strip():
        errors["player_2"] = _(
            "Type player 3's name too: with four players, 1 and 3 play against 2 and 4."
        )
    for i, raw in enumerate(raws[:count]):
        try:
            names.append(clean_name(raw))
        except RuleError as error:
            names.append(raw.strip())
            errors.setdefault(
                f"player_{i}",
                _("Type a name for this player.") if not raw.strip() else worded(error),
            )
    for i in range(1, len(names)):
        if f"player_{i}" not in errors and any(
            f"player_{j}" not in errors and name_key(names[i]) == name_key(names[j])
            for j in range(i)
        ):
            errors[f"player_{i}"] = _("The players need different names.")
    rules = None
    try:
        rules = rules_from_form(form)
    except RuleError as error:
        errors[error.option or "preset"] = str(error)
    dealer_raw = str(form.get("dealer", "")).strip()
    dealer, cut = 0, None
    if dealer_raw in ("", "cut"):
        first = first_dealer(rules or PRESETS["standard"], len(names), rng)
        dealer, cut = first.dealer, first.cut_codes
    elif dealer_raw in tuple(str(p) for p in range(len(names))):
        dealer = int(dealer_raw)
    else:
        errors["dealer"] = (
            _("Choose who deals first.")
            if dealer_raw not in ("2", "3")
            else _(
                "Player %(seat)s has no name, so cannot deal: choose"
                " who deals first among the players named.",
                seat=int(dealer_raw) + 1,
            )
        )
    stake = None
    raw = str(form.get("stake", "")).strip().replace(",", ".")
    if raw:
        if not re.fullmatch(r"\d{1,6}(\.\d{1,4})?", raw):
            errors["stake"] = _(
                "Type the stake per point as a number, like 0.05, or leave it empty."
            )
        else:
            stake = float(raw)
    settings = {"players": names, "rules": rules, "dealer": dealer, "cut": cut, "stake": stake}
    return settings, errors
