"""systemd units of a club's server (``scorekeeper deploy systemd``): gunicorn behind nginx.

Three units: ``scorekeeper-migrate.service`` runs the database migrations once
(a one-shot the server requires, so they run before any worker starts),
and ``scorekeeper.service`` runs gunicorn (``gthread`` workers, the same
settings as ``scorekeeper serve``'s, :data:`api.server.BEHIND_NGINX`) on a
unix socket in :data:`api.nginx.RUN_DIR`, where the nginx site of
:func:`api.nginx.club_site` finds it. Both read ``/etc/scorekeeper/env``
(``SCOREKEEPER_DB``, ``SCOREKEEPER_SECRET_KEY``); the app is told it is
behind one proxy (``PROXY_HOPS``) and where nginx's live publisher is
(``LIVE_PUBLISH_SOCKET``). ``scorekeeper-live.service`` is the server's one
listener (:func:`api.live.listen`): with PostgreSQL it republishes every
server's changes to this nginx (with SQLite it has nothing to do and ends).
Pure string building.
"""

from __future__ import annotations

import shlex

from .nginx import RUN_DIR
from .server import BEHIND_NGINX

ENV_FILE = "/etc/scorekeeper/env"
"""The settings file both units read (the database, the secret key)."""

FLAGS = {
    "worker_class": "--worker-class",
    "proc_name": "--name",
    "control_socket_disable": "--no-control-socket",
    "keepalive": "--keep-alive",
    "limit_request_line": "--limit-request-line",
    "limit_request_fields": "--limit-request-fields",
    "limit_request_field_size": "--limit-request-field_size",
}
"""gunicorn's command-line flag of each of :data:`api.server.BEHIND_NGINX`'s settings."""


def gunicorn_command(bin_dir: str, workers: int, threads: int) -> list[str]:
    """The gunicorn command line of ``scorekeeper.service``."""
    argv = [f"{bin_dir}/gunicorn", "--bind", f"unix:{RUN_DIR}/gunicorn.sock"]
    argv += ["--workers", str(workers), "--threads", str(threads)]
    for key, value in BEHIND_NGINX.items():
        argv += [FLAGS[key]] if value is True else [FLAGS[key], str(value)]
    return [*argv, "api:create_app()"]


def units(bin_dir: str, user: str = "scorekeeper", workers: int = 2, threads: int = 2) -> str:
    """The three units, each after a ``# /etc/systemd/system/<name>`` line.

    ``bin_dir`` is the ``bin`` folder of the installation (its ``python``
    and ``gunicorn``); ``user`` the account the server runs as.
    """
    migrate = shlex.join([f"{bin_dir}/python", "-c", "from api import create_app; create_app()"])
    live = shlex.join([f"{bin_dir}/python", "-m", "api.live", "--publish-socket"])
    live += f" {RUN_DIR}/publish.sock --db ${{SCOREKEEPER_DB}}"
    return (
        "# /etc/systemd/system/scorekeeper-migrate.service\n"
        "[Unit]\n"
        "Description=scorekeeper: the database migrations, once before the server starts\n"
        "After=network-online.target postgresql.service\n"
        "\n"
        "[Service]\n"
        "Type=oneshot\n"
        f"User={user}\n"
        f"EnvironmentFile={ENV_FILE}\n"
        f"ExecStart={migrate}\n"
        "\n"
        "# /etc/systemd/system/scorekeeper.service\n"
        "[Unit]\n"
        "Description=scorekeeper: gunicorn behind nginx\n"
        "Requires=scorekeeper-migrate.service\n"
        "After=scorekeeper-migrate.service network-online.target postgresql.service\n"
        "Before=nginx.service\n"
        "\n"
        "[Service]\n"
        "Type=notify\n"
        f"User={user}\n"
        "Group=www-data\n"
        "RuntimeDirectory=scorekeeper\n"
        "RuntimeDirectoryMode=0750\n"
        "RuntimeDirectoryPreserve=yes\n"
        f"EnvironmentFile={ENV_FILE}\n"
        "Environment=SCOREKEEPER_PROXY_HOPS=1\n"
        f"Environment=SCOREKEEPER_LIVE_PUBLISH_SOCKET={RUN_DIR}/publish.sock\n"
        f"ExecStart={shlex.join(gunicorn_command(bin_dir, workers, threads))}\n"
        "ExecReload=/bin/kill -s HUP $MAINPID\n"
        "KillMode=mixed\n"
        "TimeoutStopSec=40\n"
        "Restart=on-failure\n"
        "\n"
        "[Install]\n"
        "WantedBy=multi-user.target\n"
        "\n"
        "# /etc/systemd/system/scorekeeper-live.service\n"
        "[Unit]\n"
        "Description=scorekeeper: live sheets, every server's changes to this nginx\n"
        "After=scorekeeper.service nginx.service postgresql.service\n"
        "\n"
        "[Service]\n"
        f"User={user}\n"
        f"EnvironmentFile={ENV_FILE}\n"
        f"ExecStart={live}\n"
        "Restart=on-failure\n"
        "\n"
        "[Install]\n"
        "WantedBy=multi-user.target\n"
    )
