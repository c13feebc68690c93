"""Replayed records in words: a deal, a match, an exported game, an event."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import parse_card
from ..records import ReplayedDeal, ReplayedMatch
from ..rescore import RescoredEvent, RescoredGame, TimeCalled
from ..results import Outcome
from ..sheet import AnyHandRecord, AnySheet, HollywoodSheet, PartnershipSheet
from .hands import format_showdown, show_cards


def _verb(outcome: Outcome) -> str:
    return {
        Outcome.KNOCK: "knocks",
        Outcome.UNDERCUT: "knocks",
        Outcome.GIN: "goes gin",
        Outcome.BIG_GIN: "goes big gin",
    }[outcome]


def deal_line(result: ReplayedDeal) -> str:
    """One deal result in one line: who went out, who scored, who deals next."""
    names = result.players
    showdown = result.showdown
    if showdown is None or result.knocker_player is None or result.winner_player is None:
        return (
            f"void hand (the stock is down to {result.stock_left} cards);"
            f" {names[result.next_dealer]} deals again"
        )
    knocker = names[result.knocker_player]
    winner = names[result.winner_player]
    undercut = " and is undercut" if showdown.outcome == Outcome.UNDERCUT else ""
    return (
        f"{knocker} {_verb(showdown.outcome)}{undercut}: {winner} scores {result.points};"
        f" {names[result.next_dealer]} deals next"
    )


def format_deal(result: ReplayedDeal) -> str:
    """A replayed deal for people: the hands dealt, the ending and the showdown."""
    names = result.players
    width = max(len(name) for name in names)
    lines = [
        f"{names[result.dealer]} deals; upcard {show_cards([result.upcard])};"
        f" knock limit {result.knock_limit}"
    ]
    for player, name in enumerate(names):
        dealt = sorted(result.dealt[player], key=lambda code: parse_card(code).index)
        lines.append(f"  {name:<{width}}  dealt {show_cards(dealt)}")
    showdown = result.showdown
    if showdown is None or result.knocker_player is None or result.winner_player is None:
        lines.append(
            f"after {result.actions} actions the stock is down to"
            f" {result.stock_left} cards: the hand is void"
        )
        for player, name in enumerate(names):
            lines.append(f"  {name:<{width}}  holds {show_cards(result.hands[player])}")
        lines.append(f"nobody scores; {names[result.next_dealer]} deals again")
        return "\n".join(lines)
    knocker = names[result.knocker_player]
    discard = f", discarding {show_cards([result.discard])}" if result.discard else ""
    lines.append(
        f"{knocker} {_verb(showdown.outcome)}{discard} after {result.actions} actions"
        f" ({result.stock_left} cards left in the stock)"
    )
    lines.append(format_showdown(showdown))
    lines.append(
        f"{names[result.winner_player]} scores {result.points};"
        f" {names[result.next_dealer]} deals next"
    )
    return "\n".join(lines)


def format_match(result: ReplayedMatch, label: str = "match") -> str:
    """A replayed match: one line per deal, then the totals and the result."""
    sheet = result.sheet
    names = sheet.players
    lines = [_sheet_head(sheet, label)]
    hands: Sequence[AnyHandRecord] = sheet.hands
    for index, (deal, hand) in enumerate(zip(result.deals, hands, strict=True)):
        lines.append(f"  deal {index}: {deal_line(deal)}  [{_pair(names, hand.totals)}]")
    return "\n".join([*lines, *_sheet_end(sheet)])


def format_game(result: RescoredGame, label: str = "game") -> str:
    """An exported game scored again: its hands' count, then the totals and the result."""
    sheet = result.sheet
    return "\n".join(
        [_sheet_head(sheet, label), f"  {len(sheet.hands)} hand(s)", *_sheet_end(sheet)]
    )


def format_event(result: RescoredEvent, label: str = "event") -> str:
    """An event record scored again: one line per match, then the standings."""
    lines = [f"{label}: event {result.event.get('name')!r} ({result.event.get('format')})"]
    for match in result.matches:
        names = match.game.players
        where = f"round {match.round}, table {match.table}: {' vs '.join(names)}"
        if match.ended_by_director is not None:
            lines.append(f"  {where}: {time_called(match.ended_by_director, names)}")
        elif match.winner is None or match.final is None:
            lines.append(f"  {where}: not over yet [{_pair(names, match.game.sheet.totals)}]")
        else:
            lines.append(f"  {where}: {match.winner} wins, final {_pair(names, match.final)}")
    lines.append("  standings:")
    for line in result.standings:
        lines.append(
            f"    {line['rank']}. {line['player']}: won {line['won']}, lost {line['lost']},"
            f" net {line['net_points']}"
        )
    return "\n".join(lines)


def time_called(end: TimeCalled, names: Sequence[str]) -> str:
    """A match the director ended, the winner's score first:
    ``time called: Bor wins, Bor 60, Ana 40``."""
    first = 0 if end.winner == names[0] else 1
    order = (first, 1 - first)
    shown = _pair([names[i] for i in order], [end.totals[i] for i in order])
    return f"time called: {end.winner} wins, {shown}"


def _sheet_head(sheet: AnySheet, label: str) -> str:
    names = sheet.players
    return (
        f"{label}: {' vs '.join(names)} ({sheet.scoring} scoring, target {sheet.rules['target']})"
    )


def _sheet_end(sheet: AnySheet) -> list[str]:
    """A sheet's last lines: the totals and boxes, (Hollywood) the columns, the result."""
    names = (
        [" & ".join(sheet.players[seat] for seat in team) for team in sheet.teams]
        if isinstance(sheet, PartnershipSheet)
        else sheet.players
    )
    lines = [f"  totals {_pair(names, sheet.totals)}; boxes {_pair(names, sheet.boxes)}"]
    if isinstance(sheet, HollywoodSheet):
        for column in sheet.columns:
            state = "closed" if column.over else "open"
            lines.append(f"  game {column.game} ({state}): {_pair(names, column.totals)}")
    final = sheet.result
    if final is None:
        lines.append("  not over yet")
    elif final.winner is None:
        lines.append(f"  a tie: final {_pair(names, final.final)}")
    else:
        lines.append(
            f"  {names[final.winner]} wins: final {_pair(names, final.final)}, net {final.net}"
        )
    return lines


def _pair(names: Sequence[str], values: Sequence[object]) -> str:
    return ", ".join(f"{name} {value}" for name, value in zip(names, values, strict=True))
