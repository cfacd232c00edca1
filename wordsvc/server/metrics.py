"""What the server counts itself, through prometheus_client: what never reached the app.

- ``wordsvc_server_rejected_total{reason}``: requests and connections the
  server refused or cut (``timeout_headers``, ``timeout_body``,
  ``timeout_write``, ``bad_request``, ``bad_framing``, ``tls_on_plain_port``,
  ``too_large``, ``headers_too_large``, ``not_implemented``,
  ``too_many_connections``);
- ``wordsvc_server_connections``: open connections, summed over live workers
  (``multiprocess_mode="livesum"``).

prometheus_client picks its storage when it is first imported: in memory, or
files under ``PROMETHEUS_MULTIPROC_DIR`` that every worker writes and the
app's ``/metrics`` reads through ``MultiProcessCollector``. So nothing here
imports it until :func:`init`, which the master calls after setting that
variable and before forking; until then the counting functions do nothing.
"""

from __future__ import annotations

from typing import Any

__all__ = ["connection_closed", "connection_opened", "init", "rejected"]

_metrics: dict[str, Any] = {}
_reasons: dict[str, Any] = {}


def init() -> None:
    """Create the server's metrics (once); call it after ``PROMETHEUS_MULTIPROC_DIR`` is set."""
    if _metrics:
        return
    from prometheus_client import Counter, Gauge

    _metrics["rejected"] = Counter("wordsvc_server_rejected", "Requests or connections the server refused before the app saw them.", ["reason"])
    _metrics["connections"] = Gauge("wordsvc_server_connections", "Open client connections.", multiprocess_mode="livesum")


def rejected(reason: str) -> None:
    child = _reasons.get(reason)
    if child is None and _metrics:
        child = _reasons[reason] = _metrics["rejected"].labels(reason=reason)
    if child is not None:
        child.inc()


def connection_opened() -> None:
    if _metrics:
        _metrics["connections"].inc()


def connection_closed() -> None:
    if _metrics:
        _metrics["connections"].dec()
