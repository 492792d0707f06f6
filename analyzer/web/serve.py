"""Start the web app on a socket of its own (a free port unless one is asked for), say where
it is, and serve until Ctrl-C."""

from __future__ import annotations

import ipaddress
import socket
import sys

from analyzer.errors import UserError

LOOPBACK = "127.0.0.1"


def open_socket(host: str, port: int) -> socket.socket:
    """A listening socket on ``host`` and ``port`` (0: a free one); one line if it cannot
    be had."""
    if not 0 <= port <= 65535:
        raise UserError(f"bad port {port}: expected 0 (a free one) to 65535")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(64)
    except socket.gaierror:
        raise UserError(f"unknown host {host!r}: give an address such as {LOOPBACK}") from None
    except OSError as exc:
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def address(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def serve(host: str, port: int) -> None:
    """Serve the app until Ctrl-C."""
    try:
        import uvicorn

        from analyzer.web import catalogue
        from analyzer.web.app import create_app
    except ImportError:
        raise UserError("dicelab serve needs the web extra: pip install 'dicelab[web]'") from None
    sock = open_socket(host, port)
    app = create_app()
    catalogue.games()  # read once, before the address is out: the first page loads at once
    print(f"dicelab: serving at {address(sock)} (Ctrl-C stops)", flush=True)
    if not is_loopback(host):
        print(f"dicelab: open to every machine that can reach {host}", file=sys.stderr,
              flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn has shut down, and passes Ctrl-C on
        pass
    print("dicelab: stopped", flush=True)
