"""The PostgreSQL database's schema: its ordered :data:`MIGRATIONS`, one function per step.

:meth:`.postgres.PostgresStore.migrate` runs the steps the database has not had, in
order, when a store opens it (holding an advisory lock: servers started at once migrate
one at a time).

Tables (created by :data:`MIGRATIONS`; ``schema_version`` holds the one
row saying which of them ran):

* ``players``: id, name as first entered, ``name_key`` (NOT NULL UNIQUE:
  lookups go by it) and created.
* ``games``: id, players (JSON), rules snapshot (JSON), first dealer,
  stake, created, updated, status, the edit token's SHA-256 hash and
  ``imported`` (true for a game brought in by ``games.import_game``), and
  ``follows`` (migration 5): the game this one is a rematch of, or NULL.
* ``game_players``: which player sits in which seat of a game.
* ``hands``: the append-only log, primary key (game, seq), the idempotency
  key unique per game. A trigger refuses UPDATE, DELETE and TRUNCATE.
* the scored state (migration 3, see :mod:`scorekeeper.store.base`):
  ``games.version``, ``games.scored`` and ``sheet_hands``, as in SQLite's
  schema 4.
* API keys (migration 6): ``api_keys`` (name, the key's SHA-256 hash,
  created, revoked), ``key_games`` (the key a game was created with) and
  ``retired_tokens`` (edit tokens replaced by a rotation).
* events (migration 7): ``events``, ``event_rounds`` and ``event_matches``,
  and (migration 8) ``event_match_ends``, as in SQLite's schemas 8 and 9.
* the rights around an event (migration 9): ``director_rights``,
  ``director_links`` and ``card_generations``, as in SQLite's schema 10.
* ``games.cut`` (migration 10): the cards cut for the first deal, as in
  SQLite's schema 11.
* ``player_words`` (migration 11): each player's search words, in the "C"
  collation (see :mod:`scorekeeper.store.finding`), and the index
  ``games_created``, as in SQLite's schema 12.
* ``api_keys.bot`` (migration 12) and the ratings (migration 13):
  ``games.finished`` and the fold's cache, as in SQLite's schemas 13 and 14.
* the round clock (migration 14): ``event_rounds.clock_started`` and
  ``clock_minutes``, as in SQLite's migration of the same name.
* ``event_roster`` and ``event_rounds.walkovers`` (migration 15):
  as in SQLite.
* ``seasons`` and the index ``events_created`` (migration 16), as in SQLite's
  schema 17 (:mod:`scorekeeper.store.sql_seasons`).
* ``game_results`` (migration 17): each finished game's winner and final totals,
  kept by the trigger ``games_result``, as in SQLite's schema 18.
* ``player_games``, ``hand_pairs``, ``key_games.created``, ``games.won_by`` and
  ``games_updated`` (migration 18), as in SQLite's schema 19; then ``ANALYZE`` of the schema's own
  tables (:func:`analyze_own_tables`).
* ``player_totals`` and ``rival_totals`` (the migration after them), as in SQLite's
  schema (:mod:`scorekeeper.store.totals`).
* ``rating_changes`` and ``rating_state.changes`` (the migration after them), kept
  by the trigger function ``count_rating_change``, as in SQLite's schema
  (:mod:`scorekeeper.store.sql_rating_changes`).
* the indexes ``player_words_player`` and ``key_games_game_key`` (the migration after
  it, PostgreSQL's alone: :mod:`scorekeeper.store.finding`).
"""

from __future__ import annotations

from collections.abc import Callable

import psycopg
import psycopg.sql

from . import tallies, totals_schema
from .finding import (
    BACKFILL_WORD,
    GAMES_CREATED_INDEX,
    SEARCH_INDEXES,
    SELECT_ALL_PLAYERS,
    word_rows,
)
from .sql import pyformat
from .sql_clock import ADD_CLOCK
from .sql_events import EVENT_TABLES, MATCH_END_TABLE
from .sql_game_rows import ADD_CUT
from .sql_rating_changes import COUNTER, POSTGRES_TRIGGERS
from .sql_ratings import ADD_BOT, RATING_TABLES, migrate_rating_line
from .sql_rights import rights_tables
from .sql_roster import ADD_WALKOVERS, ROSTER_TABLE
from .sql_seasons import POSTGRES_RESULT_TRIGGER, SEASON_TABLES


def _migrate_1(conn: psycopg.Connection) -> None:
    """The first schema: players, games, game_players and the append-only hand log."""
    conn.execute("""
        CREATE TABLE players (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            name text NOT NULL,
            name_key text NOT NULL UNIQUE,
            created text NOT NULL);
        CREATE TABLE games (
            id text PRIMARY KEY,
            players text NOT NULL,
            rules text NOT NULL,
            dealer integer NOT NULL,
            stake double precision,
            created text NOT NULL,
            updated text NOT NULL,
            status text NOT NULL,
            token_hash text NOT NULL,
            imported boolean NOT NULL DEFAULT false);
        CREATE TABLE game_players (
            game_id text NOT NULL REFERENCES games (id),
            seat integer NOT NULL,
            player_id bigint NOT NULL REFERENCES players (id),
            PRIMARY KEY (game_id, seat));
        CREATE INDEX game_players_player ON game_players (player_id);
        CREATE TABLE hands (
            game_id text NOT NULL REFERENCES games (id),
            seq integer NOT NULL,
            kind text NOT NULL,
            payload text NOT NULL,
            result text NOT NULL,
            idempotency_key text,
            created text NOT NULL,
            PRIMARY KEY (game_id, seq),
            UNIQUE (game_id, idempotency_key));
        CREATE FUNCTION hands_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'the hand log is append-only'; END $$;
        CREATE TRIGGER hands_no_change BEFORE UPDATE OR DELETE ON hands
            FOR EACH ROW EXECUTE FUNCTION hands_append_only();
        CREATE TRIGGER hands_no_truncate BEFORE TRUNCATE ON hands
            FOR EACH STATEMENT EXECUTE FUNCTION hands_append_only();
    """)


def _migrate_2(conn: psycopg.Connection) -> None:
    """Games created with an ``Idempotency-Key``: the key (unique) and its request's hash.

    Both NULL for a game created without a key (a unique index allows many
    NULLs), as in SQLite's schema 3.
    """
    conn.execute(
        "ALTER TABLE games ADD COLUMN idempotency_key text UNIQUE, ADD COLUMN request_hash text"
    )


def _migrate_3(conn: psycopg.Connection) -> None:
    """Scorepad edit rights kept server-side: ``edit_rights`` and ``handovers``."""
    conn.execute("""
        CREATE TABLE edit_rights (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            game_id text NOT NULL REFERENCES games (id),
            device_hash text NOT NULL,
            label text NOT NULL,
            created text NOT NULL,
            revoked text,
            UNIQUE (game_id, device_hash));
        CREATE INDEX edit_rights_device ON edit_rights (device_hash);
        CREATE TABLE handovers (
            game_id text PRIMARY KEY REFERENCES games (id),
            secret_hash text NOT NULL,
            created text NOT NULL);
    """)


def _migrate_4(conn: psycopg.Connection) -> None:
    """The scored state: ``games.version`` (counted from the log), ``games.scored`` (NULL:
    the next write to a game scores its log once and fills it) and ``sheet_hands``."""
    conn.execute("""
        ALTER TABLE games ADD COLUMN version integer NOT NULL DEFAULT 0,
            ADD COLUMN scored text;
        UPDATE games SET version = (SELECT count(*) FROM hands h WHERE h.game_id = games.id);
        CREATE TABLE sheet_hands (
            game_id text NOT NULL REFERENCES games (id),
            n integer NOT NULL,
            entry text NOT NULL,
            record text NOT NULL,
            summary text NOT NULL,
            PRIMARY KEY (game_id, n));
    """)


def _migrate_5(conn: psycopg.Connection) -> None:
    """Rematches: ``games.follows``, the game a game is a rematch of (NULL for the games
    stored before: each starts its own chain), as in SQLite's schema 6."""
    conn.execute("ALTER TABLE games ADD COLUMN follows text REFERENCES games (id)")


def _migrate_6(conn: psycopg.Connection) -> None:
    """API keys: ``api_keys``, ``key_games`` and ``retired_tokens``, as in SQLite's schema 7."""
    conn.execute("""
        CREATE TABLE api_keys (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            name text NOT NULL,
            key_hash text NOT NULL UNIQUE,
            created text NOT NULL,
            revoked text);
        CREATE UNIQUE INDEX api_keys_name ON api_keys (name) WHERE revoked IS NULL;
        CREATE TABLE key_games (
            game_id text PRIMARY KEY REFERENCES games (id),
            key_id bigint NOT NULL REFERENCES api_keys (id));
        CREATE INDEX key_games_key ON key_games (key_id);
        CREATE TABLE retired_tokens (
            game_id text NOT NULL REFERENCES games (id),
            token_hash text NOT NULL,
            retired text NOT NULL,
            PRIMARY KEY (game_id, token_hash));
    """)


def _migrate_7(conn: psycopg.Connection) -> None:
    """Events: ``events``, ``event_rounds`` and ``event_matches``, as in SQLite's schema 8
    (the same statements: their types are valid in both)."""
    for statement in EVENT_TABLES:
        conn.execute(statement)


def _migrate_8(conn: psycopg.Connection) -> None:
    """Matches ended by the event's director: ``event_match_ends``, as in SQLite's schema 9."""
    conn.execute(MATCH_END_TABLE)


def _migrate_9(conn: psycopg.Connection) -> None:
    """The rights around an event: ``director_rights``, ``director_links`` and
    ``card_generations``, as in SQLite's schema 10."""
    for statement in rights_tables("bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY"):
        conn.execute(statement)


def _migrate_10(conn: psycopg.Connection) -> None:
    """The cut for the first deal: ``games.cut``, as in SQLite's schema 11."""
    conn.execute(ADD_CUT)


def _migrate_11(conn: psycopg.Connection) -> None:
    """Players found by any part of their names: ``player_words``, its words compared code
    point by code point (collation "C", as SQLite's), filled from the names stored; games
    by date. As SQLite's schema 12."""
    conn.execute(
        'CREATE TABLE player_words (word text COLLATE "C" NOT NULL,'
        " player_id bigint NOT NULL REFERENCES players (id), PRIMARY KEY (word, player_id))"
    )
    rows = word_rows(conn.execute(SELECT_ALL_PLAYERS).fetchall())
    with conn.cursor() as cursor:
        cursor.executemany(pyformat(BACKFILL_WORD), rows)
    conn.execute(GAMES_CREATED_INDEX)


def _migrate_12(conn: psycopg.Connection) -> None:
    """Keys made for bots and simulations: ``api_keys.bot``, as in SQLite's schema 13."""
    conn.execute(ADD_BOT)


def _migrate_13(conn: psycopg.Connection) -> None:
    """Ratings: ``games.finished`` and the fold's cache, as in SQLite's schema 14."""
    for statement in RATING_TABLES:
        conn.execute(statement)


def _migrate_14(conn: psycopg.Connection) -> None:
    """The round clock: ``event_rounds.clock_started`` and ``clock_minutes``, as in
    SQLite's migration of the same name (:mod:`~scorekeeper.store.sql_clock`)."""
    for statement in ADD_CLOCK:
        conn.execute(statement)


def _migrate_roster(conn: psycopg.Connection) -> None:
    """The director's roster changes: ``event_roster`` and ``event_rounds.walkovers``, as in
    SQLite's schema (the same statements)."""
    conn.execute(ROSTER_TABLE)
    conn.execute(ADD_WALKOVERS)


def _migrate_seasons(conn: psycopg.Connection) -> None:
    """Seasons: ``seasons`` and the events by creation time, as in SQLite's schema 17."""
    for statement in SEASON_TABLES:
        conn.execute(statement)


def _migrate_game_results(conn: psycopg.Connection) -> None:
    """Each finished game's result, kept by a trigger: ``game_results``, as in SQLite's
    schema 18 (:mod:`scorekeeper.store.sql_seasons`)."""
    for statement in POSTGRES_RESULT_TRIGGER:
        conn.execute(statement)


def _migrate_tallies(conn: psycopg.Connection) -> None:
    """Games and records at any size: ``player_games``, ``key_games.created``,
    ``hand_pairs``, ``games.won_by`` and ``games_updated``, as in SQLite's schema 19."""
    for statement in tallies.tables("bigint", ""):
        conn.execute(statement)
    tallies.fill(conn, pyformat)


def _migrate_totals(conn: psycopg.Connection) -> None:
    """Each player's record as running totals: ``player_totals`` and ``rival_totals`` (see
    :mod:`~scorekeeper.store.totals`), filled from the games stored."""
    for statement in totals_schema.tables("bigint", ""):
        conn.execute(statement)
    totals_schema.fill(conn, pyformat)


def _migrate_rating_changes(conn: psycopg.Connection) -> None:
    """The count of changes to the rated games, kept by triggers, and the ratings cache's
    copy of it, as in SQLite's migration of the same name
    (:mod:`~scorekeeper.store.sql_rating_changes`)."""
    for statement in (*COUNTER, *POSTGRES_TRIGGERS):
        conn.execute(statement)


def _migrate_search_indexes(conn: psycopg.Connection) -> None:
    """A search's walk probes a player's words and a game's key by index (SQLite reads the
    search's players once as a list, and its ``key_games`` is its key's index already:
    nothing to add there; see :mod:`~scorekeeper.store.finding`)."""
    for statement in SEARCH_INDEXES:
        conn.execute(statement)


MIGRATIONS: tuple[Callable[[psycopg.Connection], None], ...] = (
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
    _migrate_roster,
    _migrate_seasons,
    _migrate_game_results,
    _migrate_tallies,
    _migrate_totals,
    _migrate_rating_changes,
    _migrate_search_indexes,
    tallies.migrate_game_keys,
    migrate_rating_line,
)
"""Schema migrations in order; migration ``i`` takes the database to version ``i + 1``."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The schema version this code writes."""


def analyze_own_tables(conn: psycopg.Connection) -> None:
    """``ANALYZE`` the tables of the connection's schema (``current_schema()``), and no other.

    A bare ``ANALYZE`` reads every table of the database, other schemas' included (another
    application's, or, in a database shared schema by schema, every other store's), and in
    the migration's transaction holds a lock on each of them until it commits.
    """
    rows = conn.execute(
        "SELECT schemaname, tablename FROM pg_tables WHERE schemaname = current_schema()"
    ).fetchall()
    if rows:
        names = psycopg.sql.SQL(", ").join(psycopg.sql.Identifier(*row) for row in rows)
        conn.execute(psycopg.sql.SQL("ANALYZE {}").format(names))
