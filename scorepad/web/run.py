"""`scorepad serve` from start to Ctrl-C: the socket bound (a port in use is a sentence, not a
traceback), the address and its QR code printed, the app served by uvicorn until it is stopped."""

from __future__ import annotations

import contextlib
import errno
import importlib.util
import socket
import sys
from typing import Any, TextIO

from scorepad.app.config import load_config
from scorepad.errors import UserError
from scorepad.locale import _
from scorepad.web.live import opened
from scorepad.web.tokens import kept_token

EVERYWHERE = ("0.0.0.0", "::", "")
"""Hosts that listen on every network of the machine: anyone on them who has the address sees the game."""


def missing_extra() -> str | None:
    """The sentence that says how to install what `serve` needs, when it is not installed."""
    for module in ("starlette", "uvicorn", "sse_starlette", "segno"):
        if importlib.util.find_spec(module) is None:
            return _("scorepad serve needs the extra that brings {module}: pip install 'scorepad[serve]'").format(
                module=module)
    return None


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, or a plain sentence when the address cannot be had."""
    if not 0 <= port <= 65535:
        raise UserError(_("--port: write a port number from 1 to 65535 (0: any free port)"))
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError):
        raise UserError(_("--host: {host} is not an address or a name of this machine").format(host=host)) from None
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise UserError(_("port {port} on {host} is in use (another `scorepad serve`?); choose another with "
                              "--port").format(port=port, host=host)) from None
        raise UserError(_("cannot listen on {host} port {port}: {reason}").format(
            host=host, port=port, reason=exc.strerror)) from None
    sock.set_inheritable(True)
    return sock


def shown_host(host: str, sock: socket.socket) -> str:
    """The host to print in the address: the one given, or for every network the address this machine
    has on its local network (what a phone at the table can reach)."""
    if host not in EVERYWHERE:
        return f"[{host}]" if ":" in host else host
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))   # no packet is sent: this only picks the interface a route would use
        return str(probe.getsockname()[0])
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()


def qr(text: str, out: TextIO) -> None:
    """The address as a QR code drawn in the terminal, for a phone's camera."""
    import segno  # the extra: imported once missing_extra() has said it is there

    segno.make(text, error="m").terminal(out=out, compact=True)


def serve(spec: str | None, game: str | None, host: str, port: int, keep_tokens: bool, lang: str | None,
          fallback: str, scorer: bool = False, out: TextIO | None = None) -> None:
    """Serve the live page until Ctrl-C (or SIGTERM): first line on stdout the viewer address, then
    with `scorer` the scorer's."""
    problem = missing_extra()
    if problem:
        raise UserError(problem)
    out = out or sys.stdout
    if game is not None:
        with opened(spec) as store:
            game = str(store.game(game).id)   # GAME is checked now, and kept by its id (a rename cannot move it)
    else:
        with opened(spec):
            pass   # the database is opened (and made) once, so its mistakes are said before anything is served
    token = kept_token("viewer", keep_tokens, load_config() if keep_tokens else {})
    scorer_token = kept_token("scorer", keep_tokens, load_config() if keep_tokens else {}) if scorer else None
    sock = bind(host, port)
    base = f"http://{shown_host(host, sock)}:{sock.getsockname()[1]}"
    address = f"{base}/t/{token}/"
    out.write(address + "\n")
    if scorer_token:
        out.write(f"{base}/s/{scorer_token}/\n")
    out.flush()
    if host in EVERYWHERE:
        print(_("warning: listening on every network: anyone there who has the address can see the game"),
              file=sys.stderr, flush=True)
    qr(address, out)
    out.flush()
    from scorepad.web.server import Settings  # starlette, from the extra: checked above

    run(sock, Settings(spec, game, token, lang, fallback, scorer_token))


def run(sock: socket.socket, settings: Any) -> None:
    import uvicorn  # the extra: imported once missing_extra() has said it is there

    from scorepad.web.server import create_app  # starlette, from the extra (as above)

    app = create_app(settings)
    config: Any = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                                 timeout_graceful_shutdown=2, server_header=False)
    # uvicorn stops cleanly on Ctrl-C, then raises it again: here it is the way to stop, not an error
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run(sockets=[sock])
