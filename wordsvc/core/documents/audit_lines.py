"""An audit entry told in the event's language, for the printed audit summary: what kind of change it was, and one line of what it did.

The entries themselves (``GET /events/{e}/audit``) are the record; this is a
reminder of what each one did, every word of it in the document's language
(docs/documents.md, "Language"). A line shows what a director recognises,
names, ids, tables, words laid, the reason typed, and leaves out what a line
cannot hold or must not show: seeds, hashes and signatures, whole snapshots (a
ruleset, a format, a round's result). Nothing secret is ever in a payload (a
token entry holds the token's id, never its secret).

Each action the ledger writes has its kind (``audit.kind.<action>``) and a
line of its own below; an action this code does not know (written by a newer
service and imported) is shown by its name, the line pointing to the full entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...i18n import DOCUMENT_CATALOG
from .words import Words

__all__ = ["LINE_LENGTH", "actor_label", "audit_kind", "audit_line"]

#: Characters in a summary: what a landscape A4 column at 7 pt holds on two lines.
LINE_LENGTH = 160

Payload = Mapping[str, Any]


def audit_kind(action: str, locale: str) -> str:
    """What kind of change ``action`` is, in ``locale``: ``round.corrected`` is "Round corrected", "Umferð leiðrétt"; an unknown action its own name."""
    key = f"audit.kind.{action}"
    catalog = DOCUMENT_CATALOG.get(locale, DOCUMENT_CATALOG["en"])
    return catalog.get(key, action)


def actor_label(actor: Mapping[str, Any], locale: str) -> str:
    """Who wrote an entry: the role in ``locale`` and the token's id, or "(command line)" for the machine's own administrator."""
    words = Words(locale)
    token = str(actor.get("token", ""))
    return f"{words.role(actor.get('role'))} ({words('audit.local')})" if token == "local" else f"{words.role(actor.get('role'))} {token}"


def audit_line(action: str, payload: Payload, locale: str = "en") -> str:
    """One line of what the entry did, in ``locale``, at most :data:`LINE_LENGTH` characters.

    >>> audit_line("player.registered", {"player": "p01", "name": "Ann", "club": None, "rating_id": None, "checked_in": True, "joined": 1})
    'p01: Ann; checked in: yes'
    >>> audit_line("token.issued", {"id": "ab12", "role": "referee", "table": "t1"}, "is")
    'dómari á borði t1, auðkenni ab12'
    """
    words = Words(locale)
    line = _LINES.get(action)
    text = line(words, payload) if line is not None else words("audit.other")
    return text if len(text) <= LINE_LENGTH else text[: LINE_LENGTH - 1] + "…"


# --- one function a kind of entry ---------------------------------------------------------------------


def _event(t: Words, p: Payload) -> str:
    return t(
        "audit.line.event",
        name=p.get("name", ""),
        ruleset=p.get("ruleset_id", ""),
        lexicon=_stamp(p.get("lexicon")),
        private=t.answer(p.get("private")),
        seeded=t.answer(p.get("deals") == "seeded"),
        duplicate=t.answer(p.get("duplicate")),
    )


def _closed(t: Words, p: Payload) -> str:
    return t("audit.line.seed") if p.get("seed") else ""


def _imported(t: Words, p: Payload) -> str:
    return t.count("audit.line.imported", int(p.get("entries", 0)))


def _lexicon(t: Words, p: Payload) -> str:
    return t("audit.line.lexicon", before=_stamp(p.get("from")), after=_stamp(p.get("to")))


def _token(t: Words, p: Payload) -> str:
    if p.get("table"):
        return t("audit.line.token_table", role=t.role(p.get("role")), table=p["table"], id=p.get("id", ""))
    return t("audit.line.token", role=t.role(p.get("role")), id=p.get("id", ""))


def _revoked(t: Words, p: Payload) -> str:
    return t("audit.line.id", id=p.get("id", ""))


def _seated(t: Words, p: Payload) -> str:
    players = ", ".join(map(str, p.get("players", [])))
    if p.get("session") is not None:
        return t("audit.line.table_session", session=p["session"], table=p.get("game", ""), players=players)
    return t("audit.line.table", table=p.get("game", ""), players=players)


def _round(t: Words, p: Payload) -> str:
    """``table s1-t2, round 3: Ann RAT CAT; Bob –``: the plays as the referee sent them, a dash for a player who laid nothing."""
    plays = "; ".join(
        f"{player.get('name', '?')} {' '.join(''.join(word).upper() for word in player.get('words', [])) or '–'}"
        for player in (p.get("body") or {}).get("players", [])
    )
    if p.get("reason") is not None or int(p.get("revision") or 1) > 1:
        return t("audit.line.correction", table=p.get("game", ""), round=p.get("round", "?"), revision=p.get("revision", "?"), reason=p.get("reason") or "", plays=plays)
    return t("audit.line.round", table=p.get("game", ""), round=p.get("round", "?"), plays=plays)


def _ruling(t: Words, p: Payload) -> str:
    said = list(p.get("words", []))
    verdict = t("audit.acceptable") if p.get("acceptable") else t("audit.unacceptable")
    words = " ".join(str(word).upper() for word in said)
    return t.count("audit.line.ruling", int(p.get("count", len(said))), table=p.get("table", ""), round=p.get("round", "?"), words=words, verdict=verdict)


def _registered(t: Words, p: Payload) -> str:
    parts = [t("audit.line.player", player=p.get("player", ""), name=p.get("name", ""))]
    if p.get("club"):
        parts.append(t("audit.line.club", club=p["club"]))
    if p.get("rating_id"):
        parts.append(t("audit.line.rating_id", rating_id=p["rating_id"]))
    parts.append(t("audit.line.checked_in", answer=t.answer(p.get("checked_in"))))
    if int(p.get("joined") or 1) > 1:
        parts.append(t("audit.line.joined", n=p["joined"]))
    return "; ".join(parts)


def _checked_in(t: Words, p: Payload) -> str:
    return f"{p.get('player', '')}; {t('audit.line.joined', n=p.get('joined', 1))}"


def _withdrawn(t: Words, p: Payload) -> str:
    return f"{p.get('player', '')}; {t('audit.line.left', n=p.get('from', '?'))}"


def _deleted(t: Words, p: Payload) -> str:
    return t("audit.line.player", player=p.get("player", ""), name=p.get("name", ""))


def _size(t: Words, size: object) -> list[str]:
    if not isinstance(size, Mapping) or size.get("target") is None:
        return []
    parts = [t("audit.line.size", target=size["target"])]
    if size.get("remainder") in ("smaller", "larger"):
        parts.append(t(f"audit.size.{size['remainder']}"))
    return parts


def _tables(t: Words, tables: Sequence[Any]) -> str:
    """``2 tables: s1-t1 p1 p2 p3; s1-t2 p4 p5 p6``: each table by its id and its players' ids in seat order."""
    seated = "; ".join(f"{table.get('game', '')} {' '.join(map(str, table.get('players', [])))}" for table in tables if isinstance(table, Mapping))
    return f"{t.count('audit.line.tables', len(tables))}: {seated}"


def _session(t: Words, p: Payload) -> str:
    request = p.get("request") or {}
    method = request.get("method")
    parts = [t("audit.line.session", session=p.get("session", "?"), method=t(f"method.{method}") if t.has(f"method.{method}") else method)]
    parts += _size(t, request.get("size"))
    if p.get("unfinished"):
        parts.append(t("audit.line.unfinished"))
    return ", ".join(parts) + "; " + _tables(t, p.get("tables", []))


def _reseated(t: Words, p: Payload) -> str:
    return t("audit.line.draw", session=p.get("session", "?"), draws=p.get("draws", "?")) + "; " + _tables(t, p.get("tables", []))


def _schedule(t: Words, p: Payload) -> str:
    parts = [t.count("audit.line.sessions", int(p.get("sessions", 0))), t.count("audit.line.players", len(p.get("players", [])))]
    return ", ".join(parts + _size(t, p.get("size")))


def _rated(t: Words, p: Payload) -> str:
    return t("audit.line.rated" if p.get("rated") else "audit.line.unrated", reason=p.get("reason") or "")


def _accepted(t: Words, p: Payload) -> str:
    return t.count("audit.line.accepted", int(p.get("upto", 0)))


def _stamp(stamp: object) -> str:
    """A lexicon stamp as ``id version``: the sha256 that pins it is in the full entry."""
    if isinstance(stamp, Mapping):
        return " ".join(str(stamp[key]) for key in ("id", "version") if stamp.get(key) is not None)
    return str(stamp or "")


_LINES: dict[str, Callable[[Words, Payload], str]] = {
    "event.created": _event,
    "event.closed": _closed,
    "event.imported": _imported,
    "lexicon.accepted": _lexicon,
    "token.issued": _token,
    "token.revoked": _revoked,
    "game.created": _seated,
    "game.reseated": _seated,
    "round.submitted": _round,
    "round.corrected": _round,
    "judge.ruling": _ruling,
    "player.registered": _registered,
    "player.checked_in": _checked_in,
    "player.withdrawn": _withdrawn,
    "player.deleted": _deleted,
    "session.created": _session,
    "session.reseated": _reseated,
    "schedule.published": _schedule,
    "ratings.changed": _rated,
    "audit.accepted": _accepted,
}
