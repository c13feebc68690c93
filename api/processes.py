"""``serve``'s processes: nginx in front, a child of ``serve`` in a process group of its
own, started and stopped (gracefully, before gunicorn: :class:`api.server.FrontFirst`);
children that die with their parent (the kernel's parent-death signal); and the private
folders of runs that died, removed by the next ``serve``. :mod:`api.server` composes
them (see its module docs for why nginx runs before gunicorn).
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

from . import nginx

INSTALL = (
    "scorekeeper serve needs nginx and its nchan module: apt-get install nginx libnginx-mod-nchan"
)
"""The one line ``serve`` exits with where nginx is missing."""


def find_nginx() -> str:
    """The nginx binary (Debian's ``/usr/sbin/nginx``, else on the ``PATH``), with nchan.

    Exits with :data:`INSTALL` if either is missing.
    """
    found = shutil.which("nginx", path=os.pathsep.join(["/usr/sbin", os.environ.get("PATH", "")]))
    if found is None or not os.path.exists(nginx.NCHAN_MODULE):
        sys.exit(INSTALL)
    return found


RUN_PREFIX = "scorekeeper-"
"""The private folders' names in the temporary directory begin so."""

RUN_MARK = "serve.pid"
"""The file in a run's folder naming its ``serve`` process: pid and start time."""


def started_at(pid: int) -> str | None:
    """Process ``pid``'s start time (clock ticks since boot, from ``/proc``), or ``None``
    where no such process runs: with the pid, it names one process for good."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return None
    return None if fields[0] == "Z" else fields[19]


def mark_run(folder: str) -> None:
    """Write :data:`RUN_MARK` into this run's folder."""
    pid = os.getpid()
    with open(os.path.join(folder, RUN_MARK), "w", encoding="ascii") as mark:
        mark.write(f"{pid} {started_at(pid)}\n")


def remove_dead_runs() -> None:
    """Remove the private folders that ``serve`` runs which died left in the temporary
    directory (their :data:`RUN_MARK` names a process that no longer runs)."""
    top = tempfile.gettempdir()
    for name in os.listdir(top):
        folder = os.path.join(top, name)
        if not name.startswith(RUN_PREFIX):
            continue
        try:
            with open(os.path.join(folder, RUN_MARK), encoding="ascii") as mark:
                pid, started = mark.read().split()
        except (OSError, ValueError):  # not a run's folder, or one not yet marked
            continue
        if started_at(int(pid)) != started:
            shutil.rmtree(folder, ignore_errors=True)


PR_SET_PDEATHSIG = 1
"""prctl(2)'s option: the signal a process gets when its parent (thread) ends."""

_LIBC = ctypes.CDLL(None, use_errno=True)


def die_with_parent(parent: int) -> None:
    """Ask the kernel to send this process SIGTERM when its parent ``parent`` dies (and
    stop at once if it already has)."""
    if _LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent:  # the parent died before the request took hold
        os.kill(os.getpid(), signal.SIGTERM)


def start_nginx(
    binary: str, folder: str, conf: str, host: str, port: int
) -> subprocess.Popen[bytes]:
    """Run nginx in the foreground with ``conf``; return once it listens (or exit with why not)."""
    process = subprocess.Popen(
        [binary, "-p", folder + "/", "-c", conf, "-e", os.path.join(folder, "error.log")],
        start_new_session=True,  # its workers in its group: ended together (_end_group)
        preexec_fn=functools.partial(die_with_parent, os.getpid()),
    )
    target = "::1" if host == "::" else "127.0.0.1" if host == "0.0.0.0" else host
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"nginx exited with status {process.returncode} (its reason is above)")
        with contextlib.suppress(OSError), socket.create_connection((target, port), 0.5):
            return process
        time.sleep(0.02)
    stop_nginx(process)
    sys.exit(f"nginx did not listen on {host}:{port} within 10 s")


def stop_without(proxy: subprocess.Popen[bytes], stopping: threading.Event) -> None:
    """Stop the server (SIGTERM to this process, gunicorn's master) if nginx exits first:
    without it nothing answers, and a supervisor should see ``serve`` end."""
    status = proxy.wait()
    _end_group(proxy)
    if not stopping.is_set():
        logging.getLogger(__package__).error("nginx exited (status %s): stopping", status)
        os.kill(os.getpid(), signal.SIGTERM)


def _end_group(proxy: subprocess.Popen[bytes]) -> None:
    """Kill what is left of nginx's process group: the workers of a master that was killed
    (they would go on holding the port, answering 502)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proxy.pid, signal.SIGKILL)


def stop_front(proxy: subprocess.Popen[bytes], stopping: threading.Event) -> None:
    """Stop nginx, as ``serve`` stops (not a crash to stop the server for: ``stopping``)."""
    stopping.set()
    stop_nginx(proxy)


def stop_nginx(process: subprocess.Popen[bytes]) -> None:
    """Stop nginx gracefully (SIGQUIT: requests under way finish, idle connections close)."""
    if process.poll() is None:
        process.send_signal(signal.SIGQUIT)
    try:
        process.wait(nginx.SHUTDOWN_TIMEOUT + 5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    _end_group(process)
