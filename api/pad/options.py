"""The rules' options and presets in the players' words (issue 20).

The core (:mod:`scorekeeper.rules`) names each option, choice and preset by an
identifier that never changes; here each gets its translatable words: the
short name an error or the sheet's rules line uses (:data:`OPTION_NAMES`), the
start form's label (:data:`OPTION_LABELS`), each choice's label
(:data:`CHOICE_LABELS`), and each preset's name and note (:data:`PRESET_NAMES`,
:data:`PRESET_NOTES`). tests/test_i18n_words.py fails on an option or preset of
the core that has no words here, so none can appear untranslated.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

OPTION_NAMES = {
    "knock_limit": _l("knock limit"),
    "oklahoma": _l("oklahoma"),
    "ace_upcard": _l("ace upcard"),
    "spade_doubles": _l("spade doubles"),
    "gin_bonus": _l("gin bonus"),
    "big_gin_bonus": _l("big gin bonus"),
    "undercut_bonus": _l("undercut bonus"),
    "box_bonus": _l("box bonus"),
    "game_bonus": _l("game bonus"),
    "shutout": _l("shutout"),
    "target": _l("target"),
    "next_dealer": _l("next dealer"),
    # Translators: the rule for when the stock is down to its last 2 cards (the "wall").
    "wall": _l("wall"),
    "scoring": _l("scoring"),
    "first_dealer": _l("first dealer"),
    # Translators: the rule for a knock whose deadwood equals the other player's.
    "tie": _l("tie"),
    "discard_taken": _l("discard taken"),
    "max_discard_draws": _l("max discard draws"),
    "repeated_discard": _l("repeated discard"),
    "three_player_dealer": _l("three player dealer"),
    "partnership_netting": _l("partnership netting"),
}
"""Each option's short name, lower case, as an error message or the sheet's rules line
(``standard rules, knock limit 8``) names it."""

PRESET_NAMES = {
    "standard": _l("standard"),
    "classic": _l("classic"),
    "modern": _l("modern"),
    "oklahoma": _l("oklahoma"),
    # Translators: the preset "straight gin" (no knocking, only gin ends a hand).
    "straight": _l("straight"),
    "hollywood": _l("hollywood"),
    "slovenian": _l("slovenian"),
    "openspiel": _l("openspiel"),
}
"""Each preset's name, lower case (``standard rules``; the start form capitalises it)."""

OPTION_LABELS = {
    "knock_limit": _l("Knock limit (most deadwood you may knock with)"),
    "oklahoma": _l("Oklahoma: the first upcard sets the knock limit"),
    "ace_upcard": _l("Oklahoma ace upcard"),
    "spade_doubles": _l("A spade upcard doubles the hand"),
    "gin_bonus": _l("Gin bonus"),
    "big_gin_bonus": _l("Big gin bonus (11 cards; empty = not allowed)"),
    "undercut_bonus": _l("Undercut bonus"),
    "box_bonus": _l("Box bonus (per hand won, at the end)"),
    "game_bonus": _l("Game bonus"),
    "shutout": _l("Shutout"),
    "target": _l("Points to win the game"),
    "next_dealer": _l("Who deals next"),
    "wall": _l("When the stock is down to 2 cards"),
    "scoring": _l("Scoring"),
    "first_dealer": _l("Cutting for the first deal"),
    "tie": _l("A tied knock (equal deadwood)"),
    "discard_taken": _l("The card just taken from the discard pile"),
    "max_discard_draws": _l("Draws from the discard pile before the hand is void (empty = no cap)"),
    "repeated_discard": _l(
        "The top discard taken and thrown straight back by both players in turn"
    ),
    "three_player_dealer": _l("Three players: who deals (and sits out) next"),
    "partnership_netting": _l("Four players (two teams): what a team scores"),
}

"""Each option's label on the start form (it may say what the option means)."""

CHOICE_LABELS = {
    "ace_upcard": {"gin_only": _l("gin only"), "one": _l("knock with 1")},
    "shutout": {
        "double_bonus": _l("double the game bonus"),
        "double_total": _l("double the total"),
    },
    "next_dealer": {
        "winner": _l("the winner"),
        "loser": _l("the loser"),
        "alternate": _l("take turns"),
    },
    "wall": {
        "void_at_two": _l("the hand is void"),
        "knock_only_at_two": _l("only a knock from the discard"),
    },
    "scoring": {"single": _l("one game"), "hollywood": _l("Hollywood (three games)")},
    "first_dealer": {
        "low": _l("the lower card deals"),
        "high": _l("the higher card deals"),
        "random": _l("a coin toss"),
    },
    "tie": {"undercut": _l("is an undercut"), "no_score": _l("scores nothing")},
    "discard_taken": {
        "forbidden": _l("may not be thrown back that turn"),
        "allowed": _l("may be thrown back at once"),
    },
    "repeated_discard": {"play_on": _l("play goes on"), "void": _l("the hand is void")},
    "three_player_dealer": {"loser": _l("the loser of the hand"), "rotate": _l("round the table")},
    "partnership_netting": {
        "per_deal": _l("the difference of its two games, each deal"),
        "per_game": _l("every game its players win (netted at the end)"),
    },
}

"""Each choice of a choice option, by option and choice identifier, as the form lists it."""

PRESET_NOTES = {
    "standard": _l("Knock with 10 or less; gin 25, undercut 25, box 25, game 100, to 100."),
    "classic": _l("Older scoring: gin 20, undercut 10, box 20."),
    "modern": _l("Big gin 31; a shutout doubles the winner's total."),
    "oklahoma": _l(
        "The first upcard sets the knock limit, spades double, undercut 20, the deal"
        " alternates, to 150."
    ),
    "straight": _l("No knocking: only gin ends a hand."),
    "hollywood": _l("Three games scored at once."),
    "slovenian": _l("As standard, with box 20 (the Slovenian rules)."),
    "openspiel": _l(
        "As OpenSpiel plays: a tie scores nothing, the card taken may be thrown"
        " back, the hand is void at 50 discard draws or when both throw the same card back."
    ),
}
"""Each preset in one sentence, under the preset menu."""
