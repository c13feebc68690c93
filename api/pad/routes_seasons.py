"""A club's seasons on the scorepad (issue 29): create one, read its table, the wall's part.

- ``/seasons/new`` (``POST /seasons``): name, first and last day, the table
  rule (match wins, or placement points per night with the club's own list),
  and whether casual games count; a refusal names its field in the player's
  language. Anyone may create a season, as anyone may create a club night
  (rate-limited as every create is); nothing changes it afterwards. The form's
  key is the create's idempotency key: a double tap makes one season.
- ``/seasons/<id>``: the season's table (every tie-break named), its club
  nights (each linked) and the table as CSV (the API's export).
- the wall's season part: :func:`season_board`, a template global that
  ``templates/pad/season_wall.html`` calls between rounds (the wall's route is
  left as it is).
"""

from __future__ import annotations

import re
from typing import Any

from flask import abort, redirect, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.errors import ScorekeeperError
from scorekeeper.names import MAX_NAME_LENGTH
from scorekeeper.seasons import DEFAULT_PLACEMENT, TableRule
from scorekeeper.store import seasons
from scorekeeper.store.refusals import KeyReused, NotFound

from .. import get_storage, limits
from ..i18n import _, lazy_gettext
from . import web
from .blueprint import bp, form_errors, render

RULE_NAMES = {
    TableRule.WINS.value: lazy_gettext("Match wins"),
    TableRule.PLACEMENT.value: lazy_gettext("Placement points per night"),
}
"""The two table rules' names (the form's choices, the season page's subtitle)."""

# Translators: each note follows its rule's name ("Match wins: then net points..."):
# say how the table ranks without naming the rule again.
RULE_NOTES = {
    TableRule.WINS.value: lazy_gettext(
        "Every match won is a point; ties go to net points, then head to head."
    ),
    TableRule.PLACEMENT.value: lazy_gettext(
        "Each night gives points by place; ties go to match wins, net points, then head to head."
    ),
}

MEASURE_NAMES = {
    "won": lazy_gettext("match wins"),
    "net_points": lazy_gettext("net points"),
    "head_to_head": lazy_gettext("head to head"),
}
"""The tie-breaks' names, as a table line shows the one that separated it."""


def _placement(text: str) -> list[Any]:
    """The placement points typed (space or comma between), numbers as ints and anything
    else as typed (the domain refuses it, naming the field)."""
    return [int(p) if p.isdigit() else p for p in re.split(r"[\s,;]+", text.strip()) if p]


def _new_page(form: dict[str, Any], errors: dict[str, str], status: int = 200) -> Response:
    values = {
        "name": "",
        "first_day": "",
        "last_day": "",
        "table": TableRule.WINS.value,
        "placement": " ".join(map(str, DEFAULT_PLACEMENT)),
        "casual_games": "",
    }
    values.update(form)
    return render(
        "pad/season_new.html",
        status,
        form=values,
        errors=errors,
        rules=RULE_NAMES,
        notes=RULE_NOTES,
        max_name=MAX_NAME_LENGTH,
    )


@bp.get("/seasons/new")
def new_season() -> Response:
    return web.kept_for_back(_new_page({}, {}))


@bp.post("/seasons")
@limits.create_limit
def create_season() -> Response:
    form = request.form.to_dict()
    if not form.get("name", "").strip():
        return _new_page(form, {"name": _("Type a name for the season.")}, 422)
    try:
        stored = seasons.create_season(
            get_storage(),
            form["name"],
            form.get("first_day", ""),
            form.get("last_day", ""),
            form.get("table", ""),
            "casual_games" in form,
            _placement(form.get("placement", "")) if form.get("table") == "placement" else None,
            idempotency_key=web.change_options()["idempotency_key"],
        )
    except KeyReused:
        abort(409, _("This form was already used. Open the new season page again."))
    except ScorekeeperError as error:
        return _new_page(form, form_errors(error), 422)
    return redirect(url_for("pad.season_page", season_id=stored.id), 303)


@bp.get("/seasons/<season_id>")
def season_page(season_id: str) -> Response:
    store = get_storage()
    try:
        stored = store.season(season_id)
    except NotFound:
        abort(404, _("There is no season at this address. Check the link."))
    view, table = seasons.season_parts(store, stored)
    return render(
        "pad/season.html",
        season=view,
        table=table,
        rule_name=RULE_NAMES[stored.table.value],
        rule_note=RULE_NOTES[stored.table.value],
        measures=MEASURE_NAMES,
    )


@bp.app_template_global("season_board")
def season_board(event: dict[str, Any]) -> dict[str, Any] | None:
    """The season a club night counts in and its table (the wall between rounds): the
    season with the latest first day holding the event's day; ``None``: no season."""
    stored = event_season(event)
    if stored is None:
        return None
    store = get_storage()
    return {
        "season": stored,
        "table": seasons.season_standings(store, stored),
        "rule_name": RULE_NAMES[stored.table.value],
        "measures": MEASURE_NAMES,
    }


@bp.app_template_global("event_season")
def event_season(event: dict[str, Any]) -> Any:
    """The season a club night counts in (:func:`~scorekeeper.store.seasons.season_of_day`),
    or ``None``: what the night's pages link to."""
    return seasons.season_of_day(get_storage(), event["created"][:10])
