"""Reading a problem's ``errors`` (path -> entries, each ``{"code", "message"}``) as the tests compare it."""

from __future__ import annotations

from typing import Any


def messages(errors: dict[str, list[dict[str, Any]]]) -> dict[str, list[str]]:
    """``errors`` as path -> its messages, in order."""
    return {path: [entry["message"] for entry in entries] for path, entries in errors.items()}


def codes(errors: dict[str, list[dict[str, Any]]]) -> dict[str, list[str]]:
    """``errors`` as path -> its entries' codes, in order."""
    return {path: [entry["code"] for entry in entries] for path, entries in errors.items()}
