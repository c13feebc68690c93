"""Finding players by any part of a name, and the names near one that matched nobody.

Each player's name is kept as its words (:func:`~scorekeeper.names.search_words`: folded as
the name's key, accents removed, split at what is not a letter or digit) in the table
``player_words``, indexed by word (SQLite's schema 10, PostgreSQL's 9). A search's words
each begin a word of the name, in any order: "zo", "NOV" and "novák zora" find "Zora
Novak"; "ovak" does not. Each of a search's words is a range of the index (from the word
to the word followed by the last code point; PostgreSQL keeps the words in the "C"
collation, so ranges are code point ranges there as in SQLite), and the players holding
all of them are their ``INTERSECT``: no game is read to find a player.

Near names (:func:`near_names`, "did you mean") are for a search that found nobody: the
first :data:`POOL` names known here, by name key, each word scored against the search's
words with :class:`difflib.SequenceMatcher`: a bounded cost whatever the store's size.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher
from statistics import fmean

from ..names import MAX_NAME_LENGTH, fold, search_words
from .protocol import Store

LAST = "\U0010ffff"
"""The last code point: every word that begins with ``w`` lies in ``[w, w + LAST)``."""

WORDS_COLUMNS = "word, player_id"
INSERT_WORDS = (
    f"INSERT INTO player_words ({WORDS_COLUMNS}) SELECT ?, id FROM players WHERE name_key = ?"
    " ON CONFLICT DO NOTHING"
)
"""A word of the player with that name key."""
BACKFILL_WORD = f"INSERT INTO player_words ({WORDS_COLUMNS}) VALUES (?, ?) ON CONFLICT DO NOTHING"
SELECT_ALL_PLAYERS = "SELECT id, name FROM players"
GAMES_CREATED_INDEX = "CREATE INDEX games_created ON games (created, id)"
"""The games by when they were made: the games page's order and its date range."""
SEARCH_INDEXES = (
    "CREATE INDEX player_words_player ON player_words (player_id, word)",
    "CREATE INDEX key_games_game_key ON key_games (game_id, key_id)",
)
"""What a walk of a search asks of each game it meets (:mod:`~scorekeeper.store.listing`),
on PostgreSQL: whether a player of the game has a word in the search's range (one probe
of the player's words, not a read of the range: a surname one player in ten has 1,000
words there), and whose API key made the game (read from the index alone)."""

_HAS_WORD = "SELECT player_id FROM player_words WHERE word >= ? AND word < ?"
SELECT_MATCHING = "SELECT name FROM players WHERE id IN ({}) ORDER BY name_key LIMIT ?"
MATCHING_GAMES = "SELECT s.game_id FROM player_games s WHERE s.player_id IN ({})"
"""The games of the players a search matches (:func:`matching`), for
:mod:`~scorekeeper.store.listing`."""

POOL = 2000
"""Names at most compared with a search that found nobody."""

NEAR_WORDS = 3
"""A search's words at most compared with the names (its first ones)."""

NEAR = 0.75
"""How close (:class:`difflib.SequenceMatcher` ratio, 0 to 1) a name's word must be to a
search's word, on average over the search's words, to be suggested."""


def terms(text: str) -> list[str]:
    """The words a search is made of (:func:`~scorekeeper.names.search_words`) from at most
    its first :data:`~scorekeeper.names.MAX_NAME_LENGTH` characters: a longer search finds
    no more, and costs no more."""
    return search_words(text[:MAX_NAME_LENGTH])


def matching(words: Sequence[str]) -> tuple[str, list[str]]:
    """The subquery of the ids of the players with a word beginning with each of ``words``
    (at least one), and its parameters."""
    params = [bound for word in words for bound in (word, word + LAST)]
    return " INTERSECT ".join([_HAS_WORD] * len(words)), params


def word_rows(players: Iterable[tuple[int, str]]) -> list[tuple[str, int]]:
    """The ``player_words`` rows of ``(id, name)`` players (a migration's backfill)."""
    return [(word, player_id) for player_id, name in players for word in search_words(name)]


def find_players(store: Store, text: str, limit: int) -> list[str]:
    """The names of the players with a word beginning with each word of ``text`` (case and
    accents aside), by name key, at most ``limit``; none for blank text."""
    words = terms(text)
    return store.players_matching(words, limit) if words else []


def near_names(store: Store, text: str, count: int = 3) -> list[str]:
    """At most ``count`` names known here close to ``text`` (closest first): "Zora Novak"
    for "Zorra" or "Nowak"; the first :data:`POOL` names by name key are looked at."""
    wanted = terms(text)[:NEAR_WORDS]
    if not wanted:
        return []
    scored = []
    for name in store.player_names(POOL):
        score = closeness(wanted, search_words(name))
        if score >= NEAR:
            scored.append((-score, fold(name), name))
    return [name for *_, name in sorted(scored)[:count]]


def closeness(wanted: Sequence[str], words: Sequence[str]) -> float:
    """How close a name's ``words`` are to a search's ``wanted`` words: the mean over the
    wanted words of the best ratio against a name's word (or its beginning, one letter
    longer than the wanted word: a search types the start of a word)."""
    return fmean(max((_ratio(one, word) for word in words), default=0.0) for one in wanted)


def _ratio(typed: str, word: str) -> float:
    return max(
        SequenceMatcher(None, typed, word).ratio(),
        SequenceMatcher(None, typed, word[: len(typed) + 1]).ratio(),
    )
