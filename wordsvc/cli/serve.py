"""``wordsvc serve``: the HTTP API, served by :mod:`wordsvc.server` with the settings of :mod:`wordsvc.config`.

The app is named by its import path, so the CLI never imports the web
layer. ``--build`` first starts ``wordsvc build`` in the background (its own
process group, stopped with the server): the languages already built answer
at once, the others come online as their builds finish. The ledger's
database is migrated before the workers start.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from ..config import Settings
from ..data.languages import BUILDING_FILE
from ..ledger import connect, upgrade
from ..ledger.integrity.checkpoints import Signer
from ..server import ServerOptions, run
from ..server.logs import configure_logging, log_event

__all__ = ["APP", "add_parsers", "lan_addresses", "server_options", "venue_notice"]

#: The WSGI app factory the server loads.
APP = "wordsvc.web.app:create_app"
#: The one path whose body may be larger than WORDSVC_MAX_BODY (WORDSVC_MAX_IMPORT_BODY): an exported event.
IMPORT_PATH = "/events/import"


def add_parsers(sub: Any) -> None:
    settings = Settings.from_env()
    serve_cmd = sub.add_parser("serve", help="serve the HTTP API")
    serve_cmd.add_argument("--host", default=settings.host)
    serve_cmd.add_argument("--port", type=int, default=settings.port)
    serve_cmd.add_argument("--workers", type=int, default=settings.workers)
    serve_cmd.add_argument("--build", action="store_true", help="build the languages not built yet in the background while serving")
    serve_cmd.set_defaults(run=_serve)


def server_options(settings: Settings, host: str, port: int, workers: int) -> ServerOptions:
    """The server's options from the service's settings; recycling after N requests gets up to 10 % jitter."""
    return ServerOptions(
        host=host,
        port=port,
        workers=workers,
        threads=settings.threads,
        header_timeout=settings.header_timeout,
        body_timeout=settings.body_timeout,
        keepalive_timeout=settings.keepalive_timeout,
        max_body=settings.max_body,
        body_limits={IMPORT_PATH: max(settings.max_import_body, settings.max_body)},
        drain_seconds=settings.drain_seconds,
        max_streams=settings.max_streams,
        max_client_streams=max(1, settings.max_streams // 2),
        stream_heartbeat=settings.stream_heartbeat,
        max_worker_rss_mb=settings.max_worker_rss_mb,
        max_requests=settings.max_requests,
        max_requests_jitter=settings.max_requests // 10,
        log_format=settings.log_format,
        cors_origins=settings.cors_origins,
        log_level=settings.log_level,
    )


def _serve(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    options = server_options(settings, args.host, args.port, args.workers)
    engine = connect(settings.database_url)
    upgrade(engine)  # the ledger's migrations, once, before any worker opens it
    engine.dispose()
    Signer.from_file(settings.ledger_key_file, settings.ledger_public_keys)  # a key file that cannot be read stops the service here, not in a worker's first write
    _tell_addresses(settings, args.host, args.port)
    builder = _start_build(settings.data_dir) if args.build else None
    try:
        return run(APP, options)
    finally:
        if builder is not None and builder.poll() is None:
            os.killpg(builder.pid, signal.SIGTERM)
            builder.wait(timeout=30)


def _tell_addresses(settings: Settings, host: str, port: int) -> None:
    """The venue notice on stderr: readable lines in the plain log format, one ``venue`` record in the JSON one (one object a line)."""
    addresses = lan_addresses() if host in ALL_INTERFACES else []
    notice = venue_notice(host, port, settings.public_url, addresses)
    if settings.log_format == "plain":
        print(notice, file=sys.stderr, flush=True)
        return
    configure_logging(settings.log_format, settings.log_level)
    consoles = [f"{_url(a, port)}/console" for a in addresses] if host in ALL_INTERFACES else [f"{_url(host, port)}/console"]
    advice = " ".join(line for line in notice.splitlines()[1:] if not line.startswith("  "))
    log_event("venue", consoles=consoles, public_url=settings.public_url, notice=advice)


#: The addresses that bind every interface: then the service answers on the machine's network addresses too.
ALL_INTERFACES = ("0.0.0.0", "::", "")


def venue_notice(host: str, port: int, public_url: str | None, addresses: list[str]) -> str:
    """What ``wordsvc serve`` tells the person starting it about the address devices use (docs/venue.md).

    Bound to every interface, the addresses of this machine that other
    devices on its network can open, one a line; bound to one address, that
    one, and for a loopback address that no phone reaches it. Then the
    public URL, or what setting it does.
    """
    lines: list[str] = []
    if host in ALL_INTERFACES:
        lines.append("Serving on every network interface. Phones and tablets on this network can open:")
        lines += [f"  {_url(address, port)}/console" for address in addresses] or ["  (no network address found: is this machine on a network?)"]
    else:
        lines.append(f"Serving on {_url(host, port)}/console")
        if _loopback(host):
            lines.append("Only this machine can reach that address. For phones on the venue's network: WORDSVC_HOST=0.0.0.0 (docs/venue.md).")
    if public_url:
        lines.append(f"Links, QR codes and printed scorecards use WORDSVC_PUBLIC_URL: {public_url}")
    elif host in ALL_INTERFACES:
        lines.append("Links and QR codes use the address the director's browser opened; set WORDSVC_PUBLIC_URL to one of the above to make it certain.")
    else:
        lines.append("Links and QR codes use the address the director's browser opened.")
    return "\n".join(lines)


def lan_addresses() -> list[str]:
    """This machine's non-loopback IP addresses: the one its default route leaves by first, then those its host name resolves to.

    The standard library has no list of interfaces; connecting a UDP socket
    sends nothing but makes the kernel pick the address it would send from.
    """
    found: list[str] = []
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):  # documentation addresses (RFC 5737, RFC 3849)
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))
                found.append(sock.getsockname()[0])
        except OSError:
            continue
    try:
        found += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, type=socket.SOCK_STREAM)]
    except OSError:
        pass
    usable = [a for a in found if not _loopback(a) and not ipaddress.ip_address(a.split("%")[0]).is_link_local]
    return list(dict.fromkeys(usable))


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _start_build(data_dir: Path, wait: float = 30.0) -> subprocess.Popen[bytes]:
    """``wordsvc build`` for every language, its output on our stderr, once it has written ``building.json``.

    Waiting for the file (a second or so: the builder's imports) means the
    service loads knowing what is still building, so those languages answer
    503 "building" from the first request on, not 404.
    """
    builder = subprocess.Popen([sys.executable, "-m", "wordsvc.cli", "build"], stdin=subprocess.DEVNULL, stdout=sys.stderr, start_new_session=True)
    marker, deadline = data_dir / BUILDING_FILE, time.monotonic() + wait
    while builder.poll() is None and time.monotonic() < deadline and f'"pid": {builder.pid},' not in _read(marker):
        time.sleep(0.05)
    return builder


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""
