"""A throw-away PostgreSQL server for the tests: initdb into a temporary directory, a private port.

    python tests/pgserver.py start DIR     # prints the superuser URL; the server keeps running
    python tests/pgserver.py stop DIR      # pg_ctl stop (fast)

The tests use the server that SCOREPAD_TEST_PG_URL names (.ci/run starts one); without it the
session fixture starts its own with these functions and stops it at the end. PostgreSQL refuses to
run as root, so as root the server runs as the `postgres` system user (Debian's package makes it).
"""

from __future__ import annotations

import glob
import os
import secrets
import shutil
import socket
import subprocess
import sys
from pathlib import Path

SUPERUSER = "scorepad_admin"


def bin_dir() -> Path | None:
    """Debian's server binaries (initdb is not on PATH there), else PATH's."""
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]),
                            reverse=True):
        if os.path.exists(os.path.join(candidate, "initdb")):
            return Path(candidate)
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def _as_server_user(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    return ["runuser", "-u", "postgres", "--", *cmd]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(directory: Path) -> str:
    """initdb + start on a free port; returns the superuser's URL (with its password).

    `directory` must be new and its parents readable by the server's user (a temporary directory
    under /tmp made by tempfile.mkdtemp is).
    """
    binaries = bin_dir()
    if binaries is None:
        raise RuntimeError("no PostgreSQL server binaries (apt-get install postgresql)")
    directory.mkdir(parents=True, exist_ok=True)
    data = directory / "data"
    password = secrets.token_hex(12)
    pwfile = directory / "pw"
    pwfile.write_text(password + "\n", encoding="utf-8")
    if os.geteuid() == 0:
        shutil.chown(directory, "postgres")
        shutil.chown(pwfile, "postgres")
    subprocess.run(_as_server_user([str(binaries / "initdb"), "-D", str(data), "-U", SUPERUSER, f"--pwfile={pwfile}",
                                    "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8",
                                    "--locale=C.UTF-8"]),
                   check=True, capture_output=True, text=True)
    pwfile.unlink()
    port = free_port()
    options = f"-p {port} -k {directory} -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=100"
    subprocess.run(_as_server_user([str(binaries / "pg_ctl"), "-D", str(data), "-l", str(directory / "log"),
                                    "-o", options, "-w", "-t", "60", "start"]),
                   check=True, capture_output=True)
    (directory / "port").write_text(str(port), encoding="utf-8")
    return f"postgresql://{SUPERUSER}:{password}@127.0.0.1:{port}/postgres"


def stop(directory: Path, mode: str = "fast") -> None:
    binaries = bin_dir()
    if binaries is None or not (directory / "data").exists():
        return
    subprocess.run(_as_server_user([str(binaries / "pg_ctl"), "-D", str(directory / "data"), "-m", mode, "-w",
                                    "stop"]), capture_output=True, check=False)


def restart(directory: Path) -> None:
    """Start a stopped server again on its port (the fault test stops it abruptly)."""
    binaries = bin_dir()
    assert binaries is not None
    port = (directory / "port").read_text(encoding="utf-8")
    options = f"-p {port} -k {directory} -c listen_addresses=127.0.0.1"
    subprocess.run(_as_server_user([str(binaries / "pg_ctl"), "-D", str(directory / "data"), "-l",
                                    str(directory / "log"), "-o", options, "-w", "-t", "60", "start"]),
                   check=True, capture_output=True)


def new_directory() -> Path:
    """A fresh directory for a server under the system's temporary directory."""
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="scorepad-pg-"))
    path.chmod(0o755)
    return path


if __name__ == "__main__":
    action, where = sys.argv[1], Path(sys.argv[2])
    try:
        if action == "start":
            print(start(where))
        elif action == "stop":
            stop(where)
        else:
            raise SystemExit(f"usage: {sys.argv[0]} start|stop DIR")
    except subprocess.CalledProcessError as exc:
        raise SystemExit(f"{' '.join(exc.cmd)} failed:\n{exc.stdout}{exc.stderr}") from None
