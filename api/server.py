"""The production server: gunicorn running the app, as ``scorekeeper serve`` starts it.

``gunicorn wsgi:app`` works as well; this module only saves typing the
options and lets ``--db`` choose the database file. Migrations run once in
the master before the workers start.
"""

from __future__ import annotations

import os

from gunicorn.app.base import BaseApplication

from scorekeeper.storage import Storage


class Server(BaseApplication):
    """gunicorn with the scorekeeper app and the given settings."""

    def __init__(self, options: dict):
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        """Apply the settings given (gunicorn's own names: bind, workers, ...)."""
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        """Build the app in each worker."""
        from . import create_app

        return create_app()


def serve(host: str = "127.0.0.1", port: int = 8000, workers: int = 2,
          db: str | None = None, threads: int = 1) -> None:
    """Run gunicorn on ``host:port`` until interrupted; ``db`` sets ``SCOREKEEPER_DB``."""
    if db is not None:
        os.environ["SCOREKEEPER_DB"] = db
    Storage()
    Server({"bind": f"{host}:{port}", "workers": workers, "threads": threads,
            "proc_name": "scorekeeper", "control_socket_disable": True}).run()
