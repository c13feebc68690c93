"""The count of changes to what the ratings are a fold of, kept by the database itself.

``rating_changes`` holds one row, ``n``, that triggers raise by one in the transaction
of every write that may change the rated games (:mod:`scorekeeper.store.sql_ratings`):

* a game inserted ended, a game whose status, end or version (its log: a hand, an undo,
  a correction) changes while or when it is ended, a game deleted that was ended;
* a game linked to or unlinked from a bot key (``key_games``), or a key made a bot or
  not (``api_keys.bot``);
* a club night's match linked or unlinked (``event_matches``) or ended by its director
  (``event_match_ends``);
* a seat of a game changed (``game_players``: an insert when the game is ended).

No code of the store's writes runs for it: the triggers are the database's, so a hand
added to a game going on costs one trigger condition, false. ``rating_state.changes``
is ``n`` as the cache's last refresh read it, in the same snapshot as the games it
compared or folded: equal, the cache is the fold of today's games (one row read,
whatever the number of games); else :func:`~scorekeeper.store.ratings.refresh` compares
the fingerprints as before, and saves the ``n`` it read with them. A change commits
with its raise of ``n``, so a refresh never sees one without the other.

On PostgreSQL two transactions raising ``n`` take turns on its row (as on SQLite, whose
writes take turns anyway); a hand added to a game going on does not raise it.
"""

from __future__ import annotations

COUNTER = (
    "CREATE TABLE rating_changes (id INTEGER PRIMARY KEY, n BIGINT NOT NULL, xact TEXT)",
    "INSERT INTO rating_changes (id, n) VALUES (1, 0)",
    # -1: no refresh has read the count yet (the next one compares the fingerprints)
    "ALTER TABLE rating_state ADD COLUMN changes BIGINT NOT NULL DEFAULT -1",
)
"""The count and the cache's copy of it (types valid in both backends)."""

SELECT_CHANGES = (
    "SELECT s.changes, c.n FROM rating_state s, rating_changes c WHERE s.id = 1 AND c.id = 1"
)
"""The count as the cache last read it, and the count now: one row each."""

BUMP = "UPDATE rating_changes SET n = n + 1 WHERE id = 1;"

_GAME_CHANGED = (
    "(OLD.status = 'over' OR NEW.status = 'over') AND (OLD.status <> NEW.status"
    " OR OLD.version <> NEW.version OR OLD.finished {differs} NEW.finished)"
)
"""An update of a game that may change the rated games (``differs``: the backend's null-safe
"not equal")."""

_SQLITE_WHEN = {
    "games_rated_new AFTER INSERT ON games": "NEW.status = 'over'",
    "games_rated_change AFTER UPDATE ON games": _GAME_CHANGED.format(differs="IS NOT"),
    "games_rated_gone AFTER DELETE ON games": "OLD.status = 'over'",
    "key_games_rated_new AFTER INSERT ON key_games": (
        "EXISTS (SELECT 1 FROM api_keys a WHERE a.id = NEW.key_id AND a.bot)"
    ),
    "key_games_rated_change AFTER UPDATE ON key_games": "1",
    "key_games_rated_gone AFTER DELETE ON key_games": (
        "EXISTS (SELECT 1 FROM api_keys a WHERE a.id = OLD.key_id AND a.bot)"
    ),
    "api_keys_rated_bot AFTER UPDATE OF bot ON api_keys": "OLD.bot IS NOT NEW.bot",
    "event_matches_rated_new AFTER INSERT ON event_matches": "1",
    "event_matches_rated_change AFTER UPDATE ON event_matches": "1",
    "event_matches_rated_gone AFTER DELETE ON event_matches": "1",
    "event_match_ends_rated_new AFTER INSERT ON event_match_ends": "1",
    "event_match_ends_rated_change AFTER UPDATE ON event_match_ends": "1",
    "event_match_ends_rated_gone AFTER DELETE ON event_match_ends": "1",
    "game_players_rated_new AFTER INSERT ON game_players": (
        "EXISTS (SELECT 1 FROM games g WHERE g.id = NEW.game_id AND g.status = 'over')"
    ),
    "game_players_rated_change AFTER UPDATE ON game_players": "1",
    "game_players_rated_gone AFTER DELETE ON game_players": "1",
}
"""SQLite's triggers (name, event, table) and when each raises the count."""

SQLITE_TRIGGERS = tuple(
    f"CREATE TRIGGER {head} FOR EACH ROW WHEN {when} BEGIN {BUMP} END"
    for head, when in _SQLITE_WHEN.items()
)

_PG_FUNCTION = """CREATE FUNCTION count_rating_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_TABLE_NAME = 'key_games' THEN
            IF NOT EXISTS (SELECT 1 FROM api_keys a WHERE a.bot AND (
                (TG_OP <> 'DELETE' AND a.id = NEW.key_id)
                OR (TG_OP <> 'INSERT' AND a.id = OLD.key_id))) THEN
                RETURN NULL;
            END IF;
        ELSIF TG_TABLE_NAME = 'game_players' AND TG_OP = 'INSERT' THEN
            IF NOT EXISTS (SELECT 1 FROM games g WHERE g.id = NEW.game_id
                AND g.status = 'over') THEN
                RETURN NULL;
            END IF;
        END IF;
        UPDATE rating_changes SET n = n + 1, xact = pg_current_xact_id()::text
            WHERE id = 1 AND xact IS DISTINCT FROM pg_current_xact_id()::text;
        RETURN NULL;
    END $$"""
"""PostgreSQL's trigger function: the conditions a ``WHEN`` cannot hold (a subquery), and
once a transaction (``xact``): each update of a row is a new version of it, and a
transaction that changes many games (a ``COPY``) would else pile up as many versions of
the one row, each found after all those before."""

_PG_WHEN = {
    "games_rated_new AFTER INSERT ON games": "NEW.status = 'over'",
    "games_rated_change AFTER UPDATE ON games": _GAME_CHANGED.format(differs="IS DISTINCT FROM"),
    "games_rated_gone AFTER DELETE ON games": "OLD.status = 'over'",
    "key_games_rated AFTER INSERT OR UPDATE OR DELETE ON key_games": "",
    "api_keys_rated_bot AFTER UPDATE OF bot ON api_keys": "OLD.bot IS DISTINCT FROM NEW.bot",
    "event_matches_rated AFTER INSERT OR UPDATE OR DELETE ON event_matches": "",
    "event_match_ends_rated AFTER INSERT OR UPDATE OR DELETE ON event_match_ends": "",
    "game_players_rated AFTER INSERT OR UPDATE OR DELETE ON game_players": "",
}
"""PostgreSQL's triggers and the ``WHEN`` of each (none: the function decides)."""

POSTGRES_TRIGGERS = (
    _PG_FUNCTION,
    *(
        f"CREATE TRIGGER {head} FOR EACH ROW{f' WHEN ({when})' if when else ''}"
        " EXECUTE FUNCTION count_rating_change()"
        for head, when in _PG_WHEN.items()
    ),
)
