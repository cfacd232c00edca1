"""One line of plain words for an audit entry's payload, for the printed audit summary.

The entries themselves (``GET /events/{e}/audit``) are the record; this is a
reminder of what each one did. Nothing secret is ever in a payload (a token
entry holds the token's id, never its secret), yet keys that name a secret,
a seed or a hash are left out all the same, and so are whole snapshots
(a ruleset, a request body): a line stays a line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["LINE_LENGTH", "audit_line"]

#: Characters in a summary: what a landscape A4 column at 7 pt holds on two lines.
LINE_LENGTH = 160

_HIDDEN = ("secret", "seed", "hash", "sha256", "commitment", "signature")
_SNAPSHOTS = {"ruleset", "lexicon", "body", "request", "result", "format", "deck"}


def audit_line(action: str, payload: Mapping[str, Any]) -> str:
    """A short summary of ``payload``: a round by its table, number and plays, anything else by its plain fields.

    >>> audit_line("player.registered", {"player": "p01", "name": "Ann", "club": None, "checked_in": True})
    'player=p01, name=Ann, checked_in=yes'
    """
    if action.startswith("round.") and "game" in payload:
        text = _round_line(payload)
    else:
        text = ", ".join(f"{key}={_value(value)}" for key, value in payload.items() if _shown(key, value))
    return text if len(text) <= LINE_LENGTH else text[: LINE_LENGTH - 1] + "…"


def _shown(key: str, value: Any) -> bool:
    if value is None or key in _SNAPSHOTS or any(word in key.lower() for word in _HIDDEN) or key.lower() == "token":
        return False
    return _value(value) != ""


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float, str)):
        return str(value)
    if isinstance(value, list):
        if all(isinstance(item, (str, int, float)) for item in value):
            return "[" + " ".join(str(item) for item in value) + "]"
        if all(isinstance(item, Mapping) and "game" in item for item in value):  # a session's tables
            return "; ".join(f"{item['game']}: {' '.join(map(str, item.get('players', [])))}" for item in value)
        return f"{len(value)} item(s)"
    if isinstance(value, Mapping):
        return " ".join(f"{k}={_value(v)}" for k, v in value.items() if _shown(k, v) and isinstance(v, (str, int, float, bool)))
    return ""


def _round_line(payload: Mapping[str, Any]) -> str:
    """``s1-t2 round 3 (revision 1): Ann CAT RAT; Bob -`` from a round's entry."""
    head = f"{payload['game']} round {payload.get('round', '?')}"
    if payload.get("revision"):
        head += f" (revision {payload['revision']})"
    plays = []
    for player in (payload.get("body") or {}).get("players", []):
        words = " ".join("".join(card for card in word).upper() for word in player.get("words", [])) or "-"
        plays.append(f"{player.get('name', '?')} {words}")
    return head + (": " + "; ".join(plays) if plays else "")
