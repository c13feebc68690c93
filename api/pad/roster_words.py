"""How the scorepad words the refusals of the director's roster changes (withdrawals, late
entries, swaps: :mod:`scorekeeper.event_roster`), joined to :data:`api.pad.wordings.WORDINGS`.
Each is a text formatted with the error's params by name (lists of names joined with
"and")."""

from __future__ import annotations

from ..i18n import LazyString, lazy_gettext

ROSTER_WORDINGS: dict[str, LazyString] = {
    "unknown_player": lazy_gettext("%(player)s is not on this event's roster"),
    "already_withdrawn": lazy_gettext("%(player)s is already withdrawn (from round %(round)s)"),
    "too_few_players": lazy_gettext(
        "%(player)s cannot be withdrawn: fewer than two players would be left to pair"
    ),
    "event_over": lazy_gettext("The event is over: no round is left to pair"),
    "entries_closed": lazy_gettext("This event takes no late entry now"),
    "already_entered": lazy_gettext("%(player)s is on the roster already"),
    "event_full": lazy_gettext("An event takes at most %(max)s players"),
    "swap_not_allowed": lazy_gettext(
        "Only a Swiss round can be changed by hand: a round robin's schedule and a"
        " knockout's bracket decide who meets whom"
    ),
    "not_in_round": lazy_gettext("%(player)s does not play this round"),
    "same_table": lazy_gettext("%(players)s play each other already: choose two tables"),
    "swap_started": lazy_gettext(
        "Round %(round)s, table %(table)s has begun: players can be swapped only while"
        " their tables have no hand"
    ),
    "no_pairing": lazy_gettext(
        "Round %(round)s cannot be paired: every pairing left would be a rematch"
    ),
    "no_round": lazy_gettext("No round is paired yet: pair one, then set its clock"),
    "roster_changed": lazy_gettext(
        "The players changed while the round was being paired: pair it again"
    ),
}
"""The roster refusals' wordings by error code."""
