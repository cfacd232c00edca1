"""Canonical JSON: the one byte form that hashes, idempotency and the audit chain agree on.

Keys sorted, no spaces, UTF-8 (not ASCII escapes), integers as integers. A
client in any language reproduces it with its JSON library's "sort keys,
compact separators" options.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

__all__ = ["canonical", "now", "sha256_of"]


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def sha256_of(value: Any) -> str:
    """SHA-256 (hex) of ``value``'s canonical JSON."""
    return hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()


def now() -> str:
    """The current UTC time, ISO 8601 with microseconds: sortable text on every back end."""
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")
