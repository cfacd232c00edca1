"""What the attack scenarios of ``bench/attacks.py`` share: raw sockets, a /health probe in its own process, the server's counters.

- :func:`connect` opens a plain socket to the server from a given loopback
  address: the attackers speak from ``127.0.0.2`` and up, so the server sees
  them as other clients than the probe (``127.0.0.1``), as it would an
  outside attacker and a load balancer's health check.
- :class:`Probe` runs ``GET /health`` every :data:`PROBE_INTERVAL` seconds, a
  new connection each (as a load balancer does), in a process of its own, so
  the attack's threads and their GIL never slow it; :meth:`Probe.stop` gives
  every probe's start, duration and status (or the error that ended it).
- :class:`Responses` parses a stream of HTTP/1.1 responses (pipelined answers).
- :func:`counters` reads the server's own counters from ``/metrics``, and
  :func:`log_findings` what its log says (requests by status, tracebacks,
  events).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from common import HOST, summary

__all__ = [
    "ATTACKER",
    "PROBE_INTERVAL",
    "Health",
    "Probe",
    "Responses",
    "connect",
    "counter_delta",
    "counters",
    "get",
    "group",
    "log_events",
    "log_findings",
    "read_answer",
]

#: The attackers' first address; more attackers take the next ones (every 127.x.y.z is the loopback on Linux).
ATTACKER = "127.0.0.2"
#: Seconds between two /health probes (test_admission's probe sleeps as long between its requests).
PROBE_INTERVAL = 0.05
#: A probe unanswered for this long counts as failed (a load balancer's check gives up after a few seconds).
PROBE_TIMEOUT = 5.0

#: The probe, a process of its own: GET /health until its stdin closes, then one JSON list of [start s, duration s, status or error].
_PROBE = r"""
import http.client, json, select, sys, time
host, port, interval, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
out, t0 = [], time.monotonic()
while True:
    started = time.perf_counter()
    try:
        conn = http.client.HTTPConnection(host, port, timeout=timeout)
        conn.request("GET", "/health")
        response = conn.getresponse()
        response.read()
        status = response.status
        conn.close()
    except Exception as err:
        status = type(err).__name__
    out.append([time.monotonic() - t0, time.perf_counter() - started, status])
    if select.select([sys.stdin], [], [], interval)[0]:
        break
print(json.dumps(out))
"""


def connect(port: int, source: str = ATTACKER, timeout: float | None = 10.0) -> socket.socket:
    """A TCP connection to the server from ``source`` (any free port of it)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.settimeout(timeout)
    sock.connect((HOST, port))
    return sock


def get(port: int, path: str, source: str = HOST, timeout: float = 30.0) -> tuple[int, bytes, float]:
    """``GET path`` on a new connection from ``source``: (status, body, seconds)."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout, source_address=(source, 0))
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read(), time.perf_counter() - started
    finally:
        conn.close()


# ---------------------------------------------------------------- reading answers


class Responses:
    """HTTP/1.1 responses parsed from the bytes of one connection as they come (every answer of this server has a Content-Length)."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.parsed: list[tuple[int, dict[str, str], bytes]] = []

    def feed(self, data: bytes) -> None:
        self.buffer += data
        at = 0
        while True:
            end = self.buffer.find(b"\r\n\r\n", at)
            if end < 0:
                break
            lines = self.buffer[at:end].decode("latin-1").split("\r\n")
            headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
            length = int(headers.get("content-length", "0"))
            if len(self.buffer) < end + 4 + length:
                break
            self.parsed.append((int(lines[0].split()[1]), headers, bytes(self.buffer[end + 4 : end + 4 + length])))
            at = end + 4 + length
        del self.buffer[:at]


def read_answer(sock: socket.socket, timeout: float = 15.0) -> tuple[int | str, str, float]:
    """The first response on ``sock``: (status, its problem detail or the start of its body, seconds waited).

    The status is a string when none came: ``"closed"`` (the server closed
    the connection first), ``"reset"``, or ``"timeout"``.
    """
    started = time.perf_counter()
    sock.settimeout(timeout)
    parser = Responses()
    try:
        while not parser.parsed:
            data = sock.recv(65536)
            if not data:
                return "closed", "", time.perf_counter() - started
            parser.feed(data)
    except ConnectionResetError:
        return "reset", "", time.perf_counter() - started
    except TimeoutError:
        return "timeout", "", time.perf_counter() - started
    status, headers, body = parser.parsed[0]
    detail = body[:120].decode(errors="replace")
    if headers.get("content-type", "").startswith("application/problem+json"):
        detail = str(json.loads(body).get("detail", ""))
    return status, detail, time.perf_counter() - started


# ---------------------------------------------------------------- /health from a process of its own


@dataclass
class Health:
    """What the probe saw: each probe's (start s, duration s, status or error name)."""

    probes: list[tuple[float, float, int | str]]

    @property
    def statuses(self) -> Counter[int | str]:
        return Counter(status for _, _, status in self.probes)

    def figures(self) -> dict[str, float]:
        """n, p50, p99, worst and mean in ms over every probe (a failed one took as long as it waited)."""
        return summary(seconds for _, seconds, _ in self.probes)

    def share(self, status: int | str) -> float:
        return self.statuses[status] / len(self.probes) if self.probes else 0.0

    def line(self) -> str:
        f = self.figures()
        other = {str(k): v for k, v in sorted(self.statuses.items(), key=str) if k != 200}
        return f"p50 {f['p50']:.1f} ms, p99 {f['p99']:.1f} ms, max {f['worst']:.1f} ms over {f['n']:.0f} probes" + (f"; not 200: {other}" if other else "")


class Probe:
    """``GET /health`` every :data:`PROBE_INTERVAL` s from a process of its own, from start until :meth:`stop`."""

    def __init__(self, port: int):
        args = [sys.executable, "-c", _PROBE, HOST, str(port), str(PROBE_INTERVAL), str(PROBE_TIMEOUT)]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def stop(self) -> Health:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        out = self.proc.stdout.read()
        self.proc.wait(PROBE_TIMEOUT + 5)
        return Health([tuple(p) for p in json.loads(out)])  # type: ignore[misc]


def probe_for(port: int, seconds: float) -> Health:
    """/health probed for ``seconds`` with nothing else going on: the baseline."""
    probe = Probe(port)
    time.sleep(seconds)
    return probe.stop()


# ---------------------------------------------------------------- what the server says


def group(pgid: int) -> set[int]:
    """The processes of the process group ``pgid`` alive now (a server's master and workers), from /proc."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[2]) == pgid:  # state, ppid, pgrp after the name
                        found.add(int(entry))
            except OSError:
                continue
    return found


#: The server's own counters: metric family -> the label that tells its series apart ("" for one series).
COUNTERS = {"wordsvc_server_rejected_total": "reason", "wordsvc_requests_shed_total": "endpoint", "wordsvc_out_of_descriptors_total": ""}


_SAMPLE = re.compile(r"(?P<name>[a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(?P<labels>.*)\})? (?P<value>\S+)$")


def counters(port: int) -> tuple[dict[str, float], int, float]:
    """The server's counters from ``/metrics`` ("family" or "family{label}" -> value), the page's size in bytes and the seconds it took."""
    status, body, seconds = get(port, "/metrics")
    if status != 200:
        return {"/metrics status": float(status)}, len(body), seconds
    found: dict[str, float] = {}
    for line in body.decode().splitlines():
        match = _SAMPLE.match(line)
        if match is None or match["name"] not in COUNTERS:
            continue
        label = COUNTERS[match["name"]]
        value = re.search(label + r'="([^"]*)"', match["labels"] or "") if label else None
        key = f"{match['name']}{{{value.group(1)}}}" if value else match["name"]
        found[key] = found.get(key, 0.0) + float(match["value"])
    return found, len(body), seconds


def counter_delta(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """What each counter gained between two readings (only those that moved)."""
    return {k: v - before.get(k, 0.0) for k, v in sorted(after.items()) if v - before.get(k, 0.0)}


def log_events(text: str) -> list[dict[str, Any]]:
    """The JSON lines of a server log (``WORDSVC_LOG_FORMAT=json``, the default)."""
    events = []
    for line in text.splitlines():
        if line.startswith("{"):
            try:
                events.append(json.loads(line))
            except ValueError:
                continue
    return events


@dataclass
class LogFindings:
    statuses: Counter[int] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    tracebacks: int = 0
    warnings: Counter[str] = field(default_factory=Counter)  # warning-level events by name
    errors: list[str] = field(default_factory=list)  # the error-level events, and the lines of a traceback's last line

    def line(self) -> str:
        shown = ", ".join(f"{s}: {n}" for s, n in sorted(self.statuses.items()))
        bad = f"; {self.tracebacks} tracebacks" if self.tracebacks else "; no traceback"
        errors = f"; error events: {self.errors[:3]}" if self.errors else ""
        warnings = f"; warnings: {dict(self.warnings)}" if self.warnings else ""
        return f"log: requests by status {{{shown}}}{bad}{warnings}{errors}"


def log_findings(text: str) -> LogFindings:
    """Requests by status (and refusal reason), tracebacks and error-level events in (part of) a server log."""
    found = LogFindings()
    for event in log_events(text):
        if event.get("event") == "request":
            found.statuses[int(event.get("status", 0))] += 1
            if event.get("reason"):
                found.reasons[str(event["reason"])] += 1
        if event.get("level") == "warning":
            found.warnings[str(event.get("event"))] += 1
        if event.get("level") in ("error", "critical"):
            found.errors.append(f"{event.get('event')}: {str(event.get('message', ''))[:100]}")
    found.tracebacks = text.count("Traceback (most recent call last)")
    return found
