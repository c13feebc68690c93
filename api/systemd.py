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

Sandbox (:data:`HARDENING`, in every unit): no privileges to gain and no
capabilities, the file system read-only but for the folders the service
writes (systemd's ``RuntimeDirectory`` for the sockets, ``StateDirectory``
``/var/lib/scorekeeper`` for a SQLite database; ``ProtectSystem=strict``),
no home folders, a private ``/tmp``, no devices, the kernel's tunables,
modules, logs and clock out of reach, only unix and IP sockets, the system
calls of ``@system-service``, files created private (``UMask=0077``).
``systemd-analyze security --offline=true`` rates each unit 1.5 ("OK"; 9.2
before); ``tests/test_deploy_units.py`` keeps it at 2.5 or lower. Left
open, because the service needs them: the network (PostgreSQL may be on
another machine) and ``chown`` (gunicorn gives its socket its own owner).

Who reaches the sockets: only nginx's workers and the app's account.

* gunicorn's ``gunicorn.sock`` (:data:`api.nginx.APP_SOCKET`): the units run
  as ``--user`` with the group :data:`SOCKET_GROUP`, whose only other member is
  the account nginx's workers run as (Debian's ``www-data``:
  ``usermod -aG scorekeeper-web www-data``). ``/run/scorekeeper`` is the
  user's, that group's, mode ``0710`` (the group may pass, not list);
  gunicorn makes the socket ``0660`` (``--umask 0o117``). A process of the
  ``www-data`` *group* (another user added to it, a unit with
  ``Group=www-data``) is neither owner nor in the group: it cannot connect.
* nginx's live publisher ``live/publish.sock`` (:data:`api.nginx.PUBLISH_SOCKET`):
  nginx's master (root) makes it, world-writable as nginx makes unix
  sockets, in ``/run/scorekeeper/live``, which the server unit makes ``0700``
  (``ExecStartPre``): only the app's account (the app and the listener)
  gets to it. nginx's workers need no path to it (they accept on the socket
  the master opened).

Not covered: another program running as the very account nginx's workers
use (``www-data``) shares their rights, as it shares everything else of
nginx's (its logs, its temporary files).
"""

from __future__ import annotations

import os
import shlex

from .nginx import APP_SOCKET, PUBLISH_SOCKET
from .server import BEHIND_NGINX

ENV_FILE = "/etc/scorekeeper/env"
"""The settings file both units read (the database, the secret key)."""

SOCKET_GROUP = "scorekeeper-web"
"""The units' group: the app's account and nginx's workers' (see the module docs)."""

HARDENING = """\
NoNewPrivileges=yes
CapabilityBoundingSet=
AmbientCapabilities=
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
DevicePolicy=closed
PrivateMounts=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
ProtectProc=invisible
ProcSubset=pid
LockPersonality=yes
MemoryDenyWriteExecute=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
RestrictNamespaces=yes
RemoveIPC=yes
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
SystemCallArchitectures=native
SystemCallFilter=@system-service
SystemCallErrorNumber=EPERM
UMask=0077
"""
"""The sandbox of every unit (see the module docs)."""

STATE = "StateDirectory=scorekeeper\nStateDirectoryMode=0700\n"
"""``/var/lib/scorekeeper``, the units' one writable folder besides the sockets'."""

FLAGS = {
    "worker_class": "--worker-class",
    "proc_name": "--name",
    "control_socket_disable": "--no-control-socket",
    "umask": "--umask",
    "keepalive": "--keep-alive",
    "limit_request_line": "--limit-request-line",
    "limit_request_fields": "--limit-request-fields",
    "limit_request_field_size": "--limit-request-field_size",
}
"""gunicorn's command-line flag of each of :data:`api.server.BEHIND_NGINX`'s settings."""


def gunicorn_command(bin_dir: str, workers: int, threads: int) -> list[str]:
    """The gunicorn command line of ``scorekeeper.service``."""
    argv = [f"{bin_dir}/gunicorn", "--bind", f"unix:{APP_SOCKET}"]
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
    live += f" {PUBLISH_SOCKET} --db ${{SCOREKEEPER_DB}}"
    return (
        "# /etc/systemd/system/scorekeeper-migrate.service\n"
        "[Unit]\n"
        "Description=scorekeeper: the database migrations, once before the server starts\n"
        "After=network-online.target postgresql.service\n"
        "\n"
        "[Service]\n"
        "Type=oneshot\n"
        f"User={user}\n"
        f"Group={SOCKET_GROUP}\n"
        f"{STATE}"
        f"EnvironmentFile={ENV_FILE}\n"
        f"ExecStart={migrate}\n"
        f"{HARDENING}"
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
        f"Group={SOCKET_GROUP}\n"
        "RuntimeDirectory=scorekeeper\n"
        "RuntimeDirectoryMode=0710\n"
        "RuntimeDirectoryPreserve=yes\n"
        f"{STATE}"
        f"EnvironmentFile={ENV_FILE}\n"
        "Environment=SCOREKEEPER_PROXY_HOPS=1\n"
        f"Environment=SCOREKEEPER_LIVE_PUBLISH_SOCKET={PUBLISH_SOCKET}\n"
        f"ExecStartPre=/bin/mkdir -p -m 0700 {os.path.dirname(PUBLISH_SOCKET)}\n"
        f"ExecStart={shlex.join(gunicorn_command(bin_dir, workers, threads))}\n"
        "ExecReload=/bin/kill -s HUP $MAINPID\n"
        "KillMode=mixed\n"
        "TimeoutStopSec=40\n"
        "Restart=on-failure\n"
        f"{HARDENING}"
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
        f"Group={SOCKET_GROUP}\n"
        f"EnvironmentFile={ENV_FILE}\n"
        f"ExecStart={live}\n"
        "Restart=on-failure\n"
        f"{HARDENING}"
        "\n"
        "[Install]\n"
        "WantedBy=multi-user.target\n"
    )
