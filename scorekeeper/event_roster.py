"""The director's changes to an event's roster and pairings: withdrawals, late entries, swaps.

Pure rules on :mod:`.events`; the store applies them (:mod:`.store.event_roster`).

* **Withdrawal** (:func:`withdraw`): the player plays no round from the next
  one to be paired (``paired + 1``: a round already paired is played as
  paired; its match may be ended by the director, time called). Played
  matches stay and count. Refused once the event is over (``event_over``),
  for a player withdrawn already (``already_withdrawn``) and, in a Swiss,
  when fewer than two players would be left to pair (``too_few_players``; a
  round robin's or a knockout's remaining matches are walkovers then).
* **Late entry** (:func:`enter`): a new player joins the roster. Swiss: from
  the next round to be paired, with a zero score, while a round is left to
  pair. Round robin and knockouts: before round 1 only (the schedule, the
  bracket are made of the whole roster); afterwards ``entries_closed``.
* **Swap** (:func:`swap`): two players of a paired Swiss round change places
  (each takes the other's table and seat, or bye). A round robin's schedule
  and a knockout's bracket fix who meets whom, so they take no swap
  (``swap_not_allowed``). A swap that makes two players meet again is a
  ``rematch`` (409) unless confirmed.

>>> event = Event(("Ana", "Bor", "Cy", "Dan"), Format.SWISS, 2)
>>> withdraw(event, 1, "bor").withdrawn
(('Bor', 2),)
>>> enter(event, 1, " Eve ").entered
(('Eve', 2),)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .errors import Conflict, InvalidValueError
from .event_pairing import circle_rounds
from .events import MAX_PLAYERS, Event, Format
from .names import clean_name, name_key


def roster_name(event: Event, name: object, *, field: str = "player") -> str:
    """The roster's spelling of ``name`` (letter case and spaces around it do not count);
    an :class:`~scorekeeper.errors.InvalidValueError` ``unknown_player`` naming ``field``
    when nobody of that name is on the roster."""
    key = name_key(name, field=field)
    for player in event.players:
        if name_key(player) == key:
            return player
    raise InvalidValueError(
        f"{field}: {name!r} is not on this event's roster",
        code="unknown_player",
        params={"player": str(name)},
        option=field,
    )


def withdraw(event: Event, paired: int, name: object) -> Event:
    """``event`` with the player ``name`` withdrawn from round ``paired + 1`` on (``paired``:
    the rounds paired so far). The caller refuses it once the event is over."""
    player = roster_name(event, name)
    if event.withdrawn_from(player) is not None:
        raise Conflict(
            f"{player!r} is already withdrawn (from round {event.withdrawn_from(player)})",
            code="already_withdrawn",
            params={"player": player, "round": event.withdrawn_from(player)},
        )
    number = paired + 1
    changed = replace(event, withdrawn=(*event.withdrawn, (player, number)))
    if event.format is Format.SWISS and len(changed.playing(number)) < 2:
        raise Conflict(
            f"withdrawing {player!r} would leave fewer than two players",
            code="too_few_players",
            params={"player": player},
        )
    return changed


def rounds_in_all(event: Event) -> int | None:
    """The rounds the event plays whatever its results (Swiss, round robin), else ``None``."""
    if event.format is Format.SWISS:
        return event.rounds
    if event.format is Format.ROUND_ROBIN:
        return len(circle_rounds(event.players))
    return None


def entries_open(event: Event, paired: int) -> bool:
    """Whether a late entry may join now (``paired`` rounds paired so far): before round
    1 in every format; later, in a Swiss with a round left to pair."""
    if paired == 0:
        return True
    return event.format is Format.SWISS and paired < (event.rounds or 0)


def enter(event: Event, paired: int, name: object) -> Event:
    """``event`` with the new player ``name`` on its roster, playing from round ``paired +
    1`` (see the module docs)."""
    player = clean_name(name, field="player")
    if not entries_open(event, paired):
        raise Conflict(
            f"a {event.format} event takes no entry after round {paired} is paired"
            if event.format is not Format.SWISS
            else "no round is left to pair: the event takes no entry",
            code="entries_closed",
            params={"format": event.format.value, "round": paired},
        )
    for other in event.players:
        if name_key(other) == name_key(player):
            raise Conflict(
                f"{other!r} is already on the roster",
                code="already_entered",
                params={"player": other},
            )
    if len(event.players) >= MAX_PLAYERS:
        raise Conflict(
            f"an event takes at most {MAX_PLAYERS} players",
            code="event_full",
            params={"max": MAX_PLAYERS},
        )
    entered = event.entered if paired == 0 else (*event.entered, (player, paired + 1))
    return replace(event, players=(*event.players, player), entered=entered)


@dataclass(frozen=True, slots=True)
class Swap:
    """A swap worked out: the tables whose players change (table, new players in seat
    order), the round's new byes and the pairs that meet again (confirmed)."""

    tables: tuple[tuple[int, tuple[str, str]], ...]
    byes: tuple[str, ...]
    rematches: tuple[tuple[str, str], ...]


def swap(
    event: Event,
    met: Sequence[tuple[str, str]],
    tables: Sequence[tuple[int, tuple[str, str]]],
    byes: Sequence[str],
    names: object,
    *,
    confirm: bool = False,
) -> Swap:
    """Swap the two players ``names`` in a paired round of ``event`` whose ``tables`` are
    ``(table, players)`` and whose ``byes`` are given; ``met`` are the pairs of the rounds
    before it. Each player takes the other's seat (or bye). Refused (409 ``rematch``)
    when a new pair met before, unless ``confirm``."""
    if event.format is not Format.SWISS:
        raise Conflict(
            f"a {event.format} event's pairings follow its schedule or bracket: no swap",
            code="swap_not_allowed",
            params={"format": event.format.value},
        )
    if not isinstance(names, list | tuple) or len(names) != 2:
        raise InvalidValueError("players: two players' names", option="players")
    first, second = (roster_name(event, name, field="players") for name in names)
    places = {name: table for table, pair in tables for name in pair}
    for name in (first, second):
        if name not in places and name not in byes:
            raise InvalidValueError(
                f"players: {name!r} does not play this round",
                code="not_in_round",
                params={"player": name},
                option="players",
            )
    if first == second or (first in places and places.get(first) == places.get(second)):
        raise InvalidValueError(
            f"players: {first!r} and {second!r} play each other already",
            code="same_table",
            params={"players": [first, second]},
            option="players",
        )
    swapped = {first: second, second: first}
    changed = tuple(
        (table, (swapped.get(pair[0], pair[0]), swapped.get(pair[1], pair[1])))
        for table, pair in tables
        if first in pair or second in pair
    )
    before = {frozenset(pair) for pair in met}
    again = tuple(pair for _, pair in changed if frozenset(pair) in before)
    if again and not confirm:
        shown = "; ".join(f"{a} v {b}" for a, b in again)
        raise Conflict(
            f"after the swap, {shown} would meet again: confirm to swap anyway",
            code="rematch",
            params={"pairs": [list(pair) for pair in again]},
        )
    new_byes = tuple(swapped.get(name, name) for name in byes)
    return Swap(changed, new_byes, again)
