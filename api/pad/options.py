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

from ..i18n import lazy_gettext

OPTION_NAMES = {
    "knock_limit": lazy_gettext("knock limit"),
    "oklahoma": lazy_gettext("oklahoma"),
    "ace_upcard": lazy_gettext("ace upcard"),
    "spade_doubles": lazy_gettext("spade doubles"),
    "gin_bonus": lazy_gettext("gin bonus"),
    "big_gin_bonus": lazy_gettext("big gin bonus"),
    "undercut_bonus": lazy_gettext("undercut bonus"),
    "box_bonus": lazy_gettext("box bonus"),
    "game_bonus": lazy_gettext("game bonus"),
    "shutout": lazy_gettext("shutout"),
    "target": lazy_gettext("target"),
    "next_dealer": lazy_gettext("next dealer"),
    # Translators: the rule for when the stock is down to its last 2 cards (the "wall").
    "wall": lazy_gettext("wall"),
    "scoring": lazy_gettext("scoring"),
    "first_dealer": lazy_gettext("first dealer"),
    # Translators: the rule for a knock whose deadwood equals the other player's.
    "tie": lazy_gettext("tie"),
    "discard_taken": lazy_gettext("discard taken"),
    "max_discard_draws": lazy_gettext("max discard draws"),
    "repeated_discard": lazy_gettext("repeated discard"),
    "three_player_dealer": lazy_gettext("three player dealer"),
    "partnership_netting": lazy_gettext("partnership netting"),
}
"""Each option's short name, lower case, as an error message or the sheet's rules line
(``standard rules, knock limit 8``) names it."""

PRESET_NAMES = {
    "standard": lazy_gettext("standard"),
    "classic": lazy_gettext("classic"),
    "modern": lazy_gettext("modern"),
    "oklahoma": lazy_gettext("oklahoma"),
    # Translators: the preset "straight gin" (no knocking, only gin ends a hand).
    "straight": lazy_gettext("straight"),
    "hollywood": lazy_gettext("hollywood"),
    "slovenian": lazy_gettext("slovenian"),
    "openspiel": lazy_gettext("openspiel"),
}
"""Each preset's name, lower case (``standard rules``; the start form capitalises it)."""

OPTION_LABELS = {
    "knock_limit": lazy_gettext("Knock limit (most deadwood you may knock with)"),
    "oklahoma": lazy_gettext("Oklahoma: the first upcard sets the knock limit"),
    "ace_upcard": lazy_gettext("Oklahoma ace upcard"),
    "spade_doubles": lazy_gettext("A spade upcard doubles the hand"),
    "gin_bonus": lazy_gettext("Gin bonus"),
    "big_gin_bonus": lazy_gettext("Big gin bonus (11 cards; empty = not allowed)"),
    "undercut_bonus": lazy_gettext("Undercut bonus"),
    "box_bonus": lazy_gettext("Box bonus (per hand won, at the end)"),
    "game_bonus": lazy_gettext("Game bonus"),
    "shutout": lazy_gettext("Shutout"),
    "target": lazy_gettext("Points to win the game"),
    "next_dealer": lazy_gettext("Who deals next"),
    "wall": lazy_gettext("When the stock is down to 2 cards"),
    "scoring": lazy_gettext("Scoring"),
    "first_dealer": lazy_gettext("Cutting for the first deal"),
    "tie": lazy_gettext("A tied knock (equal deadwood)"),
    "discard_taken": lazy_gettext("The card just taken from the discard pile"),
    "max_discard_draws": lazy_gettext(
        "Draws from the discard pile before the hand is void (empty = no cap)"
    ),
    "repeated_discard": lazy_gettext(
        "The top discard taken and thrown straight back by both players in turn"
    ),
    "three_player_dealer": lazy_gettext("Three players: who deals (and sits out) next"),
    "partnership_netting": lazy_gettext("Four players (two teams): what a team scores"),
}

"""Each option's label on the start form (it may say what the option means)."""

CHOICE_LABELS = {
    "ace_upcard": {"gin_only": lazy_gettext("gin only"), "one": lazy_gettext("knock with 1")},
    "shutout": {
        "double_bonus": lazy_gettext("double the game bonus"),
        "double_total": lazy_gettext("double the total"),
    },
    "next_dealer": {
        "winner": lazy_gettext("the winner"),
        "loser": lazy_gettext("the loser"),
        "alternate": lazy_gettext("take turns"),
    },
    "wall": {
        "void_at_two": lazy_gettext("the hand is void"),
        "knock_only_at_two": lazy_gettext("only a knock from the discard"),
    },
    "scoring": {
        "single": lazy_gettext("one game"),
        "hollywood": lazy_gettext("Hollywood (three games)"),
    },
    "first_dealer": {
        "low": lazy_gettext("the lower card deals"),
        "high": lazy_gettext("the higher card deals"),
        "random": lazy_gettext("a coin toss"),
    },
    "tie": {"undercut": lazy_gettext("is an undercut"), "no_score": lazy_gettext("scores nothing")},
    "discard_taken": {
        "forbidden": lazy_gettext("may not be thrown back that turn"),
        "allowed": lazy_gettext("may be thrown back at once"),
    },
    "repeated_discard": {
        "play_on": lazy_gettext("play goes on"),
        "void": lazy_gettext("the hand is void"),
    },
    "three_player_dealer": {
        "loser": lazy_gettext("the loser of the hand"),
        "rotate": lazy_gettext("round the table"),
    },
    "partnership_netting": {
        "per_deal": lazy_gettext("the difference of its two games, each deal"),
        "per_game": lazy_gettext("every game its players win (netted at the end)"),
    },
}

"""Each choice of a choice option, by option and choice identifier, as the form lists it."""

PRESET_NOTES = {
    "standard": lazy_gettext(
        "Knock with 10 or less; gin 25, undercut 25, box 25, game 100, to 100."
    ),
    "classic": lazy_gettext("Older scoring: gin 20, undercut 10, box 20."),
    "modern": lazy_gettext("Big gin 31; a shutout doubles the winner's total."),
    "oklahoma": lazy_gettext(
        "The first upcard sets the knock limit, spades double, undercut 20, the deal"
        " alternates, to 150."
    ),
    "straight": lazy_gettext("No knocking: only gin ends a hand."),
    "hollywood": lazy_gettext("Three games scored at once."),
    "slovenian": lazy_gettext("As standard, with box 20 (the Slovenian rules)."),
    "openspiel": lazy_gettext(
        "As OpenSpiel plays: a tie scores nothing, the card taken may be thrown"
        " back, the hand is void at 50 discard draws or when both throw the same card back."
    ),
}
"""Each preset in one sentence, under the preset menu."""
