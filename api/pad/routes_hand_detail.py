"""One stored hand: its page (the showdown, what was missed) and the replay of its deal record."""

from __future__ import annotations

from flask import abort, url_for
from werkzeug.wrappers import Response

from scorekeeper.errors import ScorekeeperError

from ..i18n import _
from . import declared as pad_declared
from . import labels as pad_labels
from . import replay as pad_replay
from . import rights, views_hand
from .blueprint import bp, load, render
from .routes_game import voided
from .routes_tools import replay_page


@bp.get("/games/<game_id>/hands/<int:n>")
def hand(game_id: str, n: int) -> Response:
    sheet = load(game_id)
    if not 1 <= n <= len(sheet.hands):
        abort(404, _("There is no hand %(n)s on this sheet.", n=n))
    record = sheet.hands[n - 1]
    before = sheet.hands[n - 2].totals if n > 1 else [0] * len(record.totals)
    view = views_hand.hand_view(record, sheet.players, before)
    was = (voided(sheet) or {}).get(n)
    return render(
        "pad/hand_detail.html",
        sheet=sheet,
        record=record,
        view=view,
        n=n,
        unit="deal" if len(sheet.players) == 4 else "hand",
        sides=pad_labels.sides_html(sheet.players),
        was=views_hand.describe_hand(was, sheet.players) if was else None,
        missed=pad_declared.missed_by_game(record, sheet.players, sheet.rules),
        game_id=game_id,
        editable=rights.can_edit(game_id),
        title=pad_labels.game_title(sheet.players),
    )


@bp.get("/games/<game_id>/hands/<int:n>/replay")
def hand_replay(game_id: str, n: int) -> Response:
    sheet = load(game_id)
    if not 1 <= n <= len(sheet.hands):
        abort(404, _("There is no hand %(n)s on this sheet.", n=n))
    given = sheet.hands[n - 1].input or {}
    if given.get("kind") != "record":
        abort(
            404,
            _(
                "Hand %(n)s was not entered from a deal record, so there is nothing to replay.",
                n=n,
            ),
        )
    try:
        steps = pad_replay.replay_steps(given["record"], sheet.players, sheet.rules)
    except ScorekeeperError as error:
        abort(409, pad_labels.worded(error))
    return replay_page(
        steps,
        None,
        pad_replay.analysis_view(given["record"], sheet.players, sheet.rules),
        lambda k: url_for("pad.hand_replay", game_id=game_id, n=n, step=k),
        game_id=game_id,
        n=n,
    )
