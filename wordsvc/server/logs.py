"""Log lines of the server: one per request (the access log) and one per server event.

Each is a stdlib :mod:`logging` record carrying ``event`` (``request``,
``listening``, ``worker_started``, ``worker_ready``, ``worker_stopped``, ``worker_exited``,
``worker_recycled``, ``drain_begun``, ``drain_finished``, ...) and its fields.
``json`` writes one object a line (``ts``, ``level``, ``event``, then the
fields), ``plain`` the same fields as ``key=value`` after the time, level and
event. The app's own log records, when nothing else has configured logging,
get the same format, with ``event`` ``log``. Client faults are counted and
logged as a line, never with a traceback.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

__all__ = ["configure_logging", "log", "log_event"]

log = logging.getLogger("wordsvc.server")


def _stamp(record: logging.LogRecord) -> str:
    return datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    fields: dict[str, Any] | None = getattr(record, "fields", None)
    if fields is not None:
        return fields
    return {"logger": record.name, "message": record.getMessage()}


class JsonFormatter(logging.Formatter):
    """``{"ts": ..., "level": ..., "event": ..., <fields>}`` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        out = {"ts": _stamp(record), "level": record.levelname.lower(), "event": getattr(record, "event", "log"), **_fields(record)}
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


class PlainFormatter(logging.Formatter):
    """``<ts> <LEVEL> <event> key=value ...``, for a person at a terminal."""

    def format(self, record: logging.LogRecord) -> str:
        parts = [_stamp(record), record.levelname, getattr(record, "event", "log")]
        parts += [f"{key}={value}" for key, value in _fields(record).items()]
        line = " ".join(parts)
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


def configure_logging(log_format: str, level: str) -> None:
    """Give the server's logger a stderr handler; the root logger too, if nothing configured it."""
    formatter: logging.Formatter = JsonFormatter() if log_format == "json" else PlainFormatter()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter)
    numeric = logging.getLevelName(level.upper())
    numeric = numeric if isinstance(numeric, int) else logging.INFO
    for handler_ in list(log.handlers):
        log.removeHandler(handler_)
    log.addHandler(handler)
    log.setLevel(numeric)
    log.propagate = False
    root = logging.getLogger()
    if not root.handlers:
        root_handler = logging.StreamHandler(sys.stderr)
        root_handler.setFormatter(formatter)
        root.addHandler(root_handler)
        root.setLevel(numeric)


def log_event(event: str, level: int = logging.INFO, **fields: Any) -> None:
    """Log one server event with its fields (a no-op below the configured level).

    The record is made and handled directly: ``Logger.log`` would also walk
    the stack for the caller's file and line, which no line here shows and
    which costs as much as the rest on a busy access log.
    """
    if log.isEnabledFor(level):
        log.handle(log.makeRecord(log.name, level, "", 0, event, (), None, extra={"event": event, "fields": fields}))
