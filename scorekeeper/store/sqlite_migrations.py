"""The SQLite file's schema: its ordered :data:`MIGRATIONS`, one function per step.

The file's schema version is SQLite's ``user_version``; :meth:`.sqlite.Storage.migrate`
runs the steps a file has not had, in order, when a store opens it.

Tables:

* ``players``: one row per player: the name as first written and its
  ``name_key`` (:func:`~scorekeeper.names.name_key`, unique: lookups go by it).
* ``games``: id (random, not guessable), players (JSON list), the full rules
  snapshot (JSON), first dealer, stake, created, status (``active`` or
  ``over``, kept in step with the log), the SHA-256 hash of the edit token
  and ``imported`` (true for a game made by ``games.import_game``), and,
  for a game created with an ``Idempotency-Key`` (schema 3), the key
  (unique) and the SHA-256 of the creating request, and ``follows`` (schema
  6): the id of the game this one is a rematch of, NULL for a game started afresh.
* ``game_players``: which player sits in which seat of a game (for stats).
* ``hands``: the log. One row per submitted entry: game, sequence number
  (1, 2, ...), kind, the submitted payload (JSON), the computed result
  (JSON), an optional idempotency key (unique per game) and the time.
  Triggers refuse UPDATE and DELETE: corrections and undos are new rows.
* ``edit_rights``: which devices (browsers) may change a game on the
  scorepad: id, game, the SHA-256 hash of the device id (never the id
  itself), label, created, and ``revoked`` (the time, or NULL while the
  right holds); one row per game and device.
* ``handovers``: the game's current hand-over link, as the SHA-256 hash of
  its secret and the time it was made (at most one per game).
* the scored state (schema 5, see :mod:`scorekeeper.store.base`):
  ``games.version`` (log entries), ``games.scored`` (the sheet's summary,
  JSON, NULL until the first write after the migration) and
  ``sheet_hands``: per game, one row per hand on the sheet (``n``, entry,
  record, summary after it), rewritten from the changed hand on.
* API keys (schema 7): ``api_keys`` (name, the SHA-256 hash of the key,
  never the key; created, revoked), ``key_games`` (the key a game was
  created with) and ``retired_tokens`` (edit tokens a rotation replaced, so
  an old token is told it was replaced).
* events (schema 8): ``events`` (name, players, format, rounds, rules and
  stake as JSON or plain values, the SHA-256 hash of the director token,
  an optional Idempotency-Key and request hash), ``event_rounds`` (each
  paired round's byes, JSON) and ``event_matches`` (round, table and the
  stored game each match is); ``event_match_ends`` (schema 9): the matches
  the director ended (the winner, the totals as they stood, JSON, and the
  time).
* the rights around an event (schema 10, :mod:`scorekeeper.store.sql_rights`):
  ``director_rights`` (the phones that may direct it), ``director_links``
  (its hand-over and recovery links, hashed) and ``card_generations`` (how
  often a game's edit right was revoked: its table card's generation).
* ``games.cut`` (schema 11): the cards cut for the first deal (JSON, one
  code per player), NULL when the dealer was named or drawn by lot.
* ``player_words`` (schema 12): each player's search words, primary key
  (word, player) (see :mod:`scorekeeper.store.finding`), and the index
  ``games_created`` on ``games (created, id)``.
* ``api_keys.bot`` (schema 13) and the ratings (schema 14): ``games.finished``
  and the fold's cache (:mod:`~scorekeeper.store.sql_ratings`).
* the round clock (schema 15, :mod:`scorekeeper.store.sql_clock`):
  ``event_rounds.clock_started`` and ``clock_minutes``, NULL while none is set.
* ``event_roster`` and ``event_rounds.walkovers`` (schema 16):
  an event's late entries and withdrawals, each round's walkovers
  (:mod:`scorekeeper.store.sql_roster`).
* ``seasons`` (schema 17, :mod:`scorekeeper.store.sql_seasons`): a club's
  seasons, and the index ``events_created`` on ``events (created)``.
* ``game_results`` (schema 18): each finished game's winner seat and final
  totals, kept by the triggers ``games_result_new`` and ``games_result_change``.
* ``player_games``, ``hand_pairs``, ``key_games.created``, ``games.won_by`` and
  the index ``games_updated`` (schema 19, :mod:`scorekeeper.store.tallies`): each
  player's games by time, each hand's two seats and result, kept by every write,
  so that lists and records read an index at any size; then ``ANALYZE``.
* ``player_totals`` and ``rival_totals`` (the migration after them,
  :mod:`scorekeeper.store.totals`): each player's record and head-to-head lines as
  running totals, changed by every write in its transaction.
* ``rating_changes`` and ``rating_state.changes`` (the migration after them,
  :mod:`scorekeeper.store.sql_rating_changes`): the count of changes to the rated
  games, kept by triggers, so that a ratings read checks one row.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlite_utils

from ..names import fold
from . import tallies, totals_schema
from .finding import BACKFILL_WORD, GAMES_CREATED_INDEX, SELECT_ALL_PLAYERS, word_rows
from .sql_clock import ADD_CLOCK
from .sql_events import EVENT_TABLES, MATCH_END_TABLE
from .sql_game_rows import ADD_CUT
from .sql_rating_changes import COUNTER, SQLITE_TRIGGERS
from .sql_ratings import ADD_BOT, RATING_TABLES, migrate_rating_line
from .sql_rights import rights_tables
from .sql_roster import ADD_WALKOVERS, ROSTER_TABLE
from .sql_seasons import SEASON_TABLES, sqlite_result_triggers


def _migrate_1(db: sqlite_utils.Database) -> None:
    """The first schema: players, games, game_players and the hand log."""
    db.table("players").create(
        {"id": int, "name": str, "created": str}, pk="id", not_null={"name", "created"}
    )
    db.execute("CREATE UNIQUE INDEX players_name ON players (name COLLATE NOCASE)")
    db.table("games").create(
        {
            "id": str,
            "players": str,
            "rules": str,
            "dealer": int,
            "stake": float,
            "created": str,
            "updated": str,
            "status": str,
            "token_hash": str,
        },
        pk="id",
        not_null={"players", "rules", "dealer", "created", "updated", "status", "token_hash"},
    )
    db.table("game_players").create(
        {"game_id": str, "seat": int, "player_id": int},
        pk=("game_id", "seat"),
        not_null={"player_id"},
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
    )
    db.table("game_players").create_index(["player_id"])
    db.table("hands").create(
        {
            "game_id": str,
            "seq": int,
            "kind": str,
            "payload": str,
            "result": str,
            "idempotency_key": str,
            "created": str,
        },
        pk=("game_id", "seq"),
        not_null={"kind", "payload", "result", "created"},
        foreign_keys=[("game_id", "games", "id")],
    )
    db.table("hands").create_index(["game_id", "idempotency_key"], unique=True)
    for action in ("UPDATE", "DELETE"):
        db.execute(
            f"CREATE TRIGGER hands_no_{action.lower()} BEFORE {action} ON hands"
            " BEGIN SELECT RAISE(ABORT, 'the hand log is append-only'); END"
        )


def _migrate_2(db: sqlite_utils.Database) -> None:
    """Players by ``name_key``, and ``games.imported``.

    ``players`` is rebuilt with a ``name_key`` column (NOT NULL UNIQUE) in
    place of the case-insensitive index on ``name``. Rows whose names now
    fold together (:func:`~scorekeeper.names.fold`: "Émile" stored
    decomposed and precomposed, "Straße" and "STRASSE") are merged into the
    oldest (first created, then lowest id), which keeps its id and its name
    as stored; the others' ``game_players`` rows are pointed at it and they
    are deleted. Games keep their ``players`` text as entered. Stored names
    are folded as they are (:func:`~scorekeeper.names.fold` refuses
    nothing): a name the code of its day let through still gets a key.

    ``games.imported`` is added; a game stored before it is marked imported
    when one of its hands was written in the same instant as the game
    (``games.import_game`` writes them in one transaction with one time
    stamp; a hand entered at the table comes in a later request).
    """
    conn = db.conn
    conn.execute(
        "CREATE TABLE players_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
        " name_key TEXT NOT NULL UNIQUE, created TEXT NOT NULL)"
    )
    kept: dict[str, int] = {}
    for player_id, name, created in conn.execute(
        "SELECT id, name, created FROM players ORDER BY created, id"
    ).fetchall():
        key = fold(name)
        if key in kept:
            conn.execute(
                "UPDATE game_players SET player_id = ? WHERE player_id = ?", (kept[key], player_id)
            )
            continue
        kept[key] = player_id
        conn.execute(
            "INSERT INTO players_new (id, name, name_key, created) VALUES (?, ?, ?, ?)",
            (player_id, name, key, created),
        )
    conn.execute("DROP TABLE players")
    conn.execute("ALTER TABLE players_new RENAME TO players")
    conn.execute("ALTER TABLE games ADD COLUMN imported INTEGER NOT NULL DEFAULT 0")
    conn.execute(
        "UPDATE games SET imported = 1 WHERE EXISTS (SELECT 1 FROM hands h"
        " WHERE h.game_id = games.id AND h.created = games.created)"
    )


def _migrate_3(db: sqlite_utils.Database) -> None:
    """Games created with an ``Idempotency-Key``: the key (unique) and its request's hash.

    Both columns are NULL for a game created without a key (SQLite's unique
    index allows many NULLs).
    """
    db.execute("ALTER TABLE games ADD COLUMN idempotency_key TEXT")
    db.execute("ALTER TABLE games ADD COLUMN request_hash TEXT")
    db.execute("CREATE UNIQUE INDEX games_idempotency_key ON games (idempotency_key)")


def _migrate_4(db: sqlite_utils.Database) -> None:
    """Scorepad edit rights kept server-side: ``edit_rights`` and ``handovers``."""
    conn = db.conn
    conn.execute(
        "CREATE TABLE edit_rights (id INTEGER PRIMARY KEY,"
        " game_id TEXT NOT NULL REFERENCES games (id), device_hash TEXT NOT NULL,"
        " label TEXT NOT NULL, created TEXT NOT NULL, revoked TEXT,"
        " UNIQUE (game_id, device_hash))"
    )
    conn.execute("CREATE INDEX edit_rights_device ON edit_rights (device_hash)")
    conn.execute(
        "CREATE TABLE handovers (game_id TEXT PRIMARY KEY REFERENCES games (id),"
        " secret_hash TEXT NOT NULL, created TEXT NOT NULL)"
    )


def _migrate_5(db: sqlite_utils.Database) -> None:
    """The scored state: ``games.version`` (counted from the log), ``games.scored`` (NULL:
    the next write to a game scores its log once and fills it) and ``sheet_hands``."""
    db.execute("ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
    db.execute(
        "UPDATE games SET version = (SELECT count(*) FROM hands h WHERE h.game_id = games.id)"
    )
    db.execute("ALTER TABLE games ADD COLUMN scored TEXT")
    db.execute(
        "CREATE TABLE sheet_hands (game_id TEXT NOT NULL REFERENCES games (id),"
        " n INTEGER NOT NULL, entry TEXT NOT NULL, record TEXT NOT NULL,"
        " summary TEXT NOT NULL, PRIMARY KEY (game_id, n)) WITHOUT ROWID"
    )


def _migrate_6(db: sqlite_utils.Database) -> None:
    """Rematches: ``games.follows``, the game a game is a rematch of (NULL for the games
    stored before: each starts its own chain)."""
    db.execute("ALTER TABLE games ADD COLUMN follows TEXT REFERENCES games (id)")


def _migrate_7(db: sqlite_utils.Database) -> None:
    """API keys: ``api_keys`` (each key's SHA-256 hash, a name unique among unrevoked keys),
    ``key_games`` (which key created a game) and ``retired_tokens`` (edit tokens replaced by
    a rotation)."""
    for statement in (
        "CREATE TABLE api_keys (id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
        " key_hash TEXT NOT NULL UNIQUE, created TEXT NOT NULL, revoked TEXT)",
        "CREATE UNIQUE INDEX api_keys_name ON api_keys (name) WHERE revoked IS NULL",
        "CREATE TABLE key_games (game_id TEXT PRIMARY KEY REFERENCES games (id),"
        " key_id INTEGER NOT NULL REFERENCES api_keys (id)) WITHOUT ROWID",
        "CREATE INDEX key_games_key ON key_games (key_id)",
        "CREATE TABLE retired_tokens (game_id TEXT NOT NULL REFERENCES games (id),"
        " token_hash TEXT NOT NULL, retired TEXT NOT NULL,"
        " PRIMARY KEY (game_id, token_hash)) WITHOUT ROWID",
    ):
        db.execute(statement)


def _migrate_8(db: sqlite_utils.Database) -> None:
    """Events (club nights, tournaments): ``events`` (settings, the director token's SHA-256
    hash, an optional Idempotency-Key), ``event_rounds`` (each paired round's byes) and
    ``event_matches`` (each match of a round: its table and its stored game)."""
    for statement in EVENT_TABLES:
        db.execute(statement)


def _migrate_9(db: sqlite_utils.Database) -> None:
    """Matches ended by the event's director: ``event_match_ends`` (winner, totals, time)."""
    db.execute(MATCH_END_TABLE)


def _migrate_10(db: sqlite_utils.Database) -> None:
    """The rights around an event: ``director_rights``, ``director_links`` and
    ``card_generations`` (:mod:`scorekeeper.store.sql_rights`)."""
    for statement in rights_tables("INTEGER PRIMARY KEY"):
        db.execute(statement)


def _migrate_11(db: sqlite_utils.Database) -> None:
    """The cut for the first deal: ``games.cut`` (JSON, one card code per player; NULL for a
    dealer named or drawn by lot, and for the games stored before)."""
    db.execute(ADD_CUT)


def _migrate_12(db: sqlite_utils.Database) -> None:
    """Players found by any part of their names: ``player_words`` (see
    :mod:`~scorekeeper.store.finding`), filled from the names stored; games by date."""
    db.execute(
        "CREATE TABLE player_words (word TEXT NOT NULL,"
        " player_id INTEGER NOT NULL REFERENCES players (id), PRIMARY KEY (word, player_id))"
    )
    rows = word_rows(db.execute(SELECT_ALL_PLAYERS).fetchall())
    db.conn.executemany(BACKFILL_WORD, rows)
    db.execute(GAMES_CREATED_INDEX)


def _migrate_13(db: sqlite_utils.Database) -> None:
    """Keys made for bots and simulations: ``api_keys.bot`` (see
    :mod:`~scorekeeper.store.sql_ratings`)."""
    db.execute(ADD_BOT)


def _migrate_14(db: sqlite_utils.Database) -> None:
    """Ratings: ``games.finished`` (filled for the games ended before) and the fold's cache
    (:mod:`~scorekeeper.store.sql_ratings`)."""
    for statement in RATING_TABLES:
        db.execute(statement)


def _migrate_15(db: sqlite_utils.Database) -> None:
    """The round clock: ``event_rounds.clock_started`` and ``clock_minutes``
    (:mod:`~scorekeeper.store.sql_clock`)."""
    for statement in ADD_CLOCK:
        db.execute(statement)


def _migrate_roster(db: sqlite_utils.Database) -> None:
    """The director's roster changes: ``event_roster`` (late entries, withdrawals) and each
    round's walkovers, ``event_rounds.walkovers`` (:mod:`scorekeeper.store.sql_roster`)."""
    db.execute(ROSTER_TABLE)
    db.execute(ADD_WALKOVERS)


def _migrate_seasons(db: sqlite_utils.Database) -> None:
    """Seasons: ``seasons`` and the events by creation time
    (:mod:`~scorekeeper.store.sql_seasons`)."""
    for statement in SEASON_TABLES:
        db.execute(statement)


def _migrate_game_results(db: sqlite_utils.Database) -> None:
    """Each finished game's result, kept by triggers: ``game_results``
    (:func:`~scorekeeper.store.sql_seasons.sqlite_result_triggers`)."""
    for statement in sqlite_result_triggers():
        db.execute(statement)


def _migrate_tallies(db: sqlite_utils.Database) -> None:
    """Games and records at any size: ``player_games``, ``key_games.created``,
    ``hand_pairs``, ``games.won_by`` and ``games_updated`` (see
    :mod:`~scorekeeper.store.tallies`), filled from what is stored."""
    for statement in tallies.tables("INTEGER", " WITHOUT ROWID"):
        db.execute(statement)
    tallies.fill(db.conn, str)


def _migrate_totals(db: sqlite_utils.Database) -> None:
    """Each player's record as running totals: ``player_totals`` and ``rival_totals`` (see
    :mod:`~scorekeeper.store.totals`), filled from the games stored."""
    for statement in totals_schema.tables("INTEGER", " WITHOUT ROWID"):
        db.execute(statement)
    totals_schema.fill(db.conn, str)


def _migrate_rating_changes(db: sqlite_utils.Database) -> None:
    """The count of changes to the rated games, kept by triggers, and the ratings cache's
    copy of it: a read checks in one row that nothing changed
    (:mod:`~scorekeeper.store.sql_rating_changes`)."""
    for statement in (*COUNTER, *SQLITE_TRIGGERS):
        db.execute(statement)


MIGRATIONS: tuple[Callable[[sqlite_utils.Database], None], ...] = (
    _migrate_1,
    _migrate_2,
    _migrate_3,
    _migrate_4,
    _migrate_5,
    _migrate_6,
    _migrate_7,
    _migrate_8,
    _migrate_9,
    _migrate_10,
    _migrate_11,
    _migrate_12,
    _migrate_13,
    _migrate_14,
    _migrate_15,
    _migrate_roster,
    _migrate_seasons,
    _migrate_game_results,
    _migrate_tallies,
    _migrate_totals,
    _migrate_rating_changes,
    tallies.migrate_game_keys,
    migrate_rating_line,
)
"""Schema migrations in order; migration ``i`` takes the file to version ``i + 1``."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The schema version this code writes."""
