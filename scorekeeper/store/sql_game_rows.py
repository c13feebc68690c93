"""The statements of games and their hands, as both SQL stores run them: a game's row, its
players' seats, its log and its sheet rows (``?`` placeholders: :meth:`.sql.SqlStore.sql`)."""

from __future__ import annotations

from .base import GAME_COLUMNS, LOG_COLUMNS
from .sql_ratings import FINISHED

ADD_CUT = "ALTER TABLE games ADD COLUMN cut TEXT"
"""The cards cut for the first deal (SQLite's schema 10, PostgreSQL's 9): the same statement."""
SELECT_GAME = f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?"
SELECT_VERSION = "SELECT version, token_hash FROM games WHERE id = ?"
SELECT_LOG = f"SELECT {LOG_COLUMNS} FROM hands WHERE game_id = ? ORDER BY seq"
SELECT_ROWS = (
    "SELECT n, entry, record, summary FROM sheet_hands WHERE game_id = ? AND n >= ? ORDER BY n"
)
SELECT_RECORDS = "SELECT record FROM sheet_hands WHERE game_id = ? AND n >= ? ORDER BY n"
DELETE_ROWS = "DELETE FROM sheet_hands WHERE game_id = ? AND n >= ?"
INSERT_ROW = "INSERT INTO sheet_hands (game_id, n, entry, record, summary) VALUES (?, ?, ?, ?, ?)"
INSERT_GAME = (
    f"INSERT INTO games ({GAME_COLUMNS}, idempotency_key, request_hash, won_by)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (idempotency_key) DO NOTHING RETURNING id"
)
SELECT_KEYED_GAME = "SELECT id, request_hash FROM games WHERE idempotency_key = ?"
INSERT_PLAYER = (
    "INSERT INTO players (name, name_key, created) VALUES (?, ?, ?)"
    " ON CONFLICT (name_key) DO NOTHING"
)
INSERT_SEAT = (
    "INSERT INTO game_players (game_id, seat, player_id) SELECT ?, ?, id"
    " FROM players WHERE name_key = ?"
)
INSERT_IMPORTED_HAND = (
    "INSERT INTO hands (game_id, seq, kind, payload, result, created) VALUES (?, ?, ?, ?, ?, ?)"
)
SELECT_KEYED_HAND = "SELECT seq, kind, payload FROM hands WHERE game_id = ? AND idempotency_key = ?"
INSERT_HAND = (
    "INSERT INTO hands (game_id, seq, kind, payload, result, idempotency_key, created)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)
UPDATE_GAME = (
    "UPDATE games SET status = ?, updated = ?, version = ?, scored = ?,"
    f" finished = {FINISHED}, won_by = ? WHERE id = ?"
)
