"""Real score sheets of every table format, played at random (hypothesis): :func:`scored_game`."""

from __future__ import annotations

from hypothesis import strategies as st

from scorekeeper.gamesheet import GameSheet, StoredHand
from scorekeeper.hands import HandKind
from scorekeeper.rules import Rules
from scorekeeper.sheet import AnySheet, PartnershipHandRecord, score_sheet

TABLES = [
    (2, None),
    (2, "hollywood"),
    (3, None),
    (3, {"three_player_dealer": "rotate"}),
    (4, None),
    (4, {"partnership_netting": "per_game"}),
]
"""Table formats: two players (single and Hollywood), three (both dealer rules), four (both
nettings)."""


def _two_player_entry(data, seats, rules):
    """A random two-player entry between ``seats`` that the sheet takes under ``rules``."""
    if data.draw(st.integers(0, 9)) == 0:
        return {"void": True}
    winner = data.draw(st.sampled_from(seats))
    outcome = data.draw(st.sampled_from(["knock", "gin", "undercut"]))
    least = {"knock": 1, "gin": rules.gin_bonus, "undercut": rules.undercut_bonus}[outcome]
    return {
        "winner": winner,
        "loser": seats[1] if winner == seats[0] else seats[0],
        "points": data.draw(st.integers(least, least + 40)),
        "outcome": outcome,
    }


def scored_game(data) -> tuple[dict, list[dict], object]:
    """A real game of a random table format played a random number of hands (maybe to its
    end): its settings, its entries and its sheet."""
    players, rules = data.draw(st.sampled_from(TABLES))
    names = ["Ana", "Ben", "Cy", "Dan"][:players]
    target = data.draw(st.sampled_from([60, 100, 150]))
    settings = {
        "players": names,
        "dealer": data.draw(st.integers(0, players - 1)),
        "stake": data.draw(st.sampled_from([None, 0.1, 1])),
        "rules": {
            **(rules if isinstance(rules, dict) else {}),
            **({"preset": rules} if isinstance(rules, str) else {}),
            "target": target,
        },
    }
    entries: list[dict] = []
    sheet = score_sheet(entries, **settings)
    for _ in range(data.draw(st.integers(0, 14))):
        if sheet.over:
            break
        parsed = Rules.from_dict(sheet.rules)
        if players == 4:
            entry = (
                {"void": True}
                if data.draw(st.integers(0, 9)) == 0
                else {
                    "games": [
                        _two_player_entry(data, game.players, parsed) for game in sheet.next_games
                    ]
                }
            )
        else:
            seats = tuple(p for p in range(players) if players == 2 or p != sheet.next_dealer)
            entry = _two_player_entry(data, seats, parsed)
        entries.append(entry)
        sheet = score_sheet(entries, **settings)
    return settings, entries, sheet


def as_stored(core: AnySheet, game_id: str = "g") -> GameSheet:
    """A core sheet as a stored game's sheet (what the scorepad's views read): each hand
    as if entered as the entry it holds, nothing corrected."""
    hands = tuple(
        StoredHand(
            record=record,
            seq=record.n,
            kind=HandKind.VOID
            if record.void
            else HandKind.DEAL
            if isinstance(record, PartnershipHandRecord)
            else HandKind.QUICK,
            input={},
            detail=None,
            corrected=False,
        )
        for record in core.hands
    )
    return GameSheet.of(
        id=game_id,
        created="2026-12-01T20:00:00.000Z",
        updated="2026-12-01T20:00:00.000Z",
        dealer=core.hands[0].dealer if core.hands else core.next_dealer,
        rules=Rules.from_dict(core.rules),
        version=len(hands),
        scored=core,
        hands=hands,
    )
