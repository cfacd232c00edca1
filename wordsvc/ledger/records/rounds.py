"""Rounds: a table's round submitted, repeated, corrected, previewed and read, with its revisions and running totals.

A round is only ever added to: the first submission is revision 1, a
director's correction (with a reason and ``If-Match`` naming the revision
it replaces) the next one, and every revision is kept. The play is checked
against the table's seating and the round's rules, put in its one order
(:func:`~wordsvc.ledger._db.plays.in_order`) and scored under the event's
snapshot before the write; the write itself (:class:`~wordsvc.ledger._db.database.Writer`)
only re-reads what another process may have stored meanwhile.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, bindparam, func, select
from sqlalchemy.exc import IntegrityError

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest, Problems
from ...core.ruleset import Ruleset
from ...core.scoring import RoundPlay, check_round, score_round
from .._db.canonical import canonical, now
from .._db.plays import in_order, play_document
from .._db.prepared import Prepared
from .._db.schema import events, games, hosted, revisions
from ..errors import Conflict, NotFound, PreconditionFailed, PreconditionRequired
from ..integrity.receipts import Appended
from .access import require_director, require_read, require_referee
from .deals import Deals
from .principals import Principal
from .store import BRIEF, EVENT_COLUMNS, INSERT_REVISION, OF_GAME, Store

__all__ = ["Rounds", "Submitted", "current_totals", "history", "round_view", "running"]


@dataclass(frozen=True)
class Submitted:
    """The answer to a round submission: ``status`` 201 (stored), 200 (the same play again, or a correction)."""

    status: int
    round: dict[str, Any]


class Rounds:
    """Submitting, correcting, previewing and reading a table's rounds."""

    def __init__(self, store: Store, deals: Deals):
        self.store = store
        self.deals = deals

    def submit_round(
        self,
        actor: Principal | None,
        event_id: str,
        game_id: str,
        number: int,
        play: RoundPlay,
        correction: str | None = None,
        if_match: str | None = None,
    ) -> Submitted:
        """Store round ``number`` of a table (201), answer a repeat of the current play (200), or apply a director's correction.

        The hot path of the ledger: a few prepared statements, the play scored
        before the write, the write batched with others (:class:`~wordsvc.ledger._db.database.Writer`),
        the answer built from what the write read.
        """
        store = self.store
        if correction is None:
            actor = require_referee(actor, event_id, game_id)
        else:
            actor = require_director(actor, event_id, "correct a round")
        where = {"event": event_id, "game": game_id, "round": number}
        event, rows, players, ruleset = self._table_round(where)
        current = _current(rows, number)
        play = RoundPlay(play.players, number, play.challenges, play.bonus_choice)
        _check_play(play, players, ruleset, game_id)  # the play as sent, so every problem's path is the client's own
        play = in_order(play, players)  # then its one order: the same play in another order is the same document
        body = play_document(play)
        body_text = canonical(body)
        body_sha = _sha(body_text)
        if correction is None and current is not None and current.body_sha256 == body_sha:
            return Submitted(200, self._stored_round(event_id, game_id, players, number))
        if correction is not None:
            _check_correction(current, if_match, body_sha, game_id, number)
        elif current is not None:
            raise _differs(game_id, number, current)

        lexicon = store.event_lexicon(event)
        result = score_round(play, ruleset, lexicon).to_dict()
        result_text = canonical(result)
        totals = {p["name"]: p["total"] for p in result["players"]}
        totals_text = canonical(totals)
        dealt = self.deals.deal(event, game_id, len(players), number) if event.deals == "seeded" else None

        def work(conn: Connection) -> tuple[int, int, Sequence[Any], Appended | None]:
            """What another process stored meanwhile decides: store the next revision, or answer as the stored one.

            A table's revisions are only ever added to, so the same count as
            the read above means the same rows: the write reads them again
            only when another request has written to this table meanwhile.
            The event's status and the table's seats are read again under the
            lock: a close, swap or redraw that committed after the read above
            refuses this write (the play was checked against those seats).
            """
            table = _STATUS.first(conn, {"event": event_id, "game": game_id})  # under the chain's lock, as every reseat and close
            if table.status == "closed":  # a close that committed first wins
                raise Conflict(f"Event {event_id} is closed: its rounds are final.", {"event": ["closed"]}, code=codes.EVENT_CLOSED)
            if json.loads(table.players_json) != players:  # a swap or redraw that committed first wins: the play was checked against other seats
                raise _reseated(game_id, number)
            if correction is None and conn.execute(select(hosted.c.status).where(hosted.c.event_id == event_id, hosted.c.game_id == game_id)).first():
                raise Conflict(  # a hosted table's rounds are stored by its game as they are played; a director corrects them
                    f"Table {game_id} is hosted: its rounds are stored as its game plays them; a director may correct one.",
                    {"game": ["hosted"]},
                    code=codes.TABLE_HOSTED,
                )
            seen = rows
            if _COUNT.first(conn, where).revisions != len(rows):
                seen = BRIEF.all(conn, where)
            latest = _current(seen, number)
            if correction is None and latest is not None:
                if latest.body_sha256 != body_sha:
                    raise _differs(game_id, number, latest)
                return 200, 0, seen, None
            if correction is not None:
                _check_correction(latest, if_match, body_sha, game_id, number)
            revision = 1 if latest is None else latest.revision + 1
            INSERT_REVISION.execute(
                conn,
                {
                    "event_id": event_id,
                    "game_id": game_id,
                    "round": number,
                    "revision": revision,
                    "body_json": body_text,
                    "body_sha256": body_sha,
                    "result_json": result_text,
                    "totals_json": totals_text,
                    "reason": correction,
                    "actor": actor.token,
                    "created_at": now(),
                    "deal_digest": dealt.digest() if dealt else None,
                    "deal_id": dealt.id if dealt else None,
                },
            )
            payload: dict[str, Any] = {
                "game": game_id,
                "round": number,
                "revision": revision,
                "body": body,
                "body_sha256": body_sha,
                "result_sha256": _sha(result_text),
            }
            if dealt is not None:
                payload["deal_digest"] = dealt.digest()
            if correction is not None:
                payload["reason"] = correction
            appended = store.append(conn, event_id, actor, "round.corrected" if correction is not None else "round.submitted", payload)
            return (201 if correction is None else 200), revision, seen, appended

        try:
            status, revision, seen, appended = store.writer.run(event_id, work)
        except (IntegrityError, store.engine.dialect.dbapi.IntegrityError):  # type: ignore[union-attr]  # only if a writer bypassed the chain lock; the key keeps one revision anyway
            raise Conflict(
                f"Round {number} of table {game_id} was stored by another request just now; read it and retry.", code=codes.STORED_MEANWHILE
            ) from None
        if not revision:  # another request stored this very play first
            return Submitted(200, self._stored_round(event_id, game_id, players, number))
        view = {
            "event": event_id,
            "game": game_id,
            "round": number,
            "revision": revision,
            "revisions": revision,
            "etag": etag(body_sha),
            "result": result,
            "running_totals": running(players, {**_round_totals(seen), number: totals}, number),
            "deal_digest": dealt.digest() if dealt else None,
            "receipt": store.receipts.of_write(event_id, appended),
        }
        return Submitted(status, view)

    def preview_round(self, actor: Principal | None, event_id: str, game_id: str, number: int, play: RoundPlay) -> dict[str, Any]:
        """What submitting ``play`` as round ``number`` would store: every check of a submission, the result under the snapshot and the
        running totals with it; nothing is written or audited. ``stored`` is the round's current ETag, if it has been submitted."""
        actor = require_referee(actor, event_id, game_id)
        where = {"event": event_id, "game": game_id, "round": number}
        event, rows, players, ruleset = self._table_round(where)
        current = _current(rows, number)
        play = RoundPlay(play.players, number, play.challenges, play.bonus_choice)
        _check_play(play, players, ruleset, game_id)
        result = score_round(play, ruleset, self.store.event_lexicon(event)).to_dict()
        totals = _round_totals(rows)
        totals[number] = {p["name"]: p["total"] for p in result["players"]}
        return {
            "event": event_id,
            "game": game_id,
            "round": number,
            "result": result,
            "running_totals": running(players, totals, number),
            "stored": etag(current.body_sha256) if current is not None else None,
        }

    def round(self, actor: Principal | None, event_id: str, game_id: str, number: int) -> dict[str, Any]:
        """A round's current revision, its result and the running totals through it, and every revision kept."""
        store = self.store
        event = store.event_row(event_id)
        require_read(actor, event_id, event.private)
        with store.engine.connect() as conn:
            row = store.game_row(conn, event_id, game_id)
            if row is None:
                raise NotFound(
                    f"Event {event_id} has no table {game_id!r}.", {"game": [f"no table {game_id!r} in event {event_id}"]}, code=codes.TABLE_NOT_FOUND
                )
            revs = history(conn, event_id, game_id)
        if number not in revs:
            raise NotFound(f"Round {number} of table {game_id} has not been submitted.", {"round": ["not submitted"]}, code=codes.ROUND_NOT_FOUND)
        receipts = store.receipts.round_receipts(event_id, game_id)
        view = round_view(event_id, game_id, json.loads(row.players_json), revs[number], current_totals(revs), number, receipts)
        view["history"] = [
            {
                "revision": r.revision,
                "at": r.created_at,
                "actor": r.actor,
                "reason": r.reason,
                "body": json.loads(r.body_json),
                "result": json.loads(r.result_json),
            }
            for r in revs[number]
        ]
        return view

    def _table_round(self, where: dict[str, Any]) -> tuple[Any, list[Any], list[str], Ruleset]:
        """What a submission or a preview of a round reads first: the event, the table's revision rows, its seats and the ruleset."""
        event, rows = self.store.readers.read(lambda reader: (_EVENT_GAME.first(reader, where), BRIEF.all(reader, where)))
        return event, rows, _open_table(event, where["event"], where["game"]), self.store.ruleset(event)

    def _stored_round(self, event_id: str, game_id: str, players: list[str], number: int) -> dict[str, Any]:
        with self.store.engine.connect() as conn:
            revs = history(conn, event_id, game_id)
        return round_view(event_id, game_id, players, revs[number], current_totals(revs), number, self.store.receipts.round_receipts(event_id, game_id))


def history(conn: Connection, event_id: str, game_id: str) -> dict[int, list[Any]]:
    """A table's rounds: round number -> its revisions, oldest first."""
    found: dict[int, list[Any]] = {}
    for row in _HISTORY.all(conn, {"event": event_id, "game": game_id}):
        found.setdefault(row.round, []).append(row)
    return found


def round_view(
    event_id: str,
    game_id: str,
    players: list[str],
    revs: list[Any],
    totals: dict[int, dict[str, int]],
    number: int,
    receipts: Callable[[int, int], dict[str, Any] | None],
) -> dict[str, Any]:
    """A round's current revision as answered, with the receipt of the entry that stored it."""
    current = revs[-1]
    return {
        "event": event_id,
        "game": game_id,
        "round": number,
        "revision": current.revision,
        "revisions": len(revs),
        "etag": etag(current.body_sha256),
        "result": json.loads(current.result_json),
        "running_totals": running(players, totals, number),
        "deal_digest": current.deal_digest,
        "receipt": receipts(number, current.revision),
    }


def current_totals(revs: dict[int, list[Any]]) -> dict[int, dict[str, int]]:
    """Each round's totals in its current revision, from :func:`history`."""
    return {number: json.loads(rows[-1].totals_json) for number, rows in revs.items()}


def running(players: list[str], totals: dict[int, dict[str, int]], through: int | None) -> list[dict[str, Any]]:
    """Each seated player's total over the rounds up to ``through`` (all when ``None``)."""
    sums = dict.fromkeys(players, 0)
    for number, by_name in totals.items():
        if through is None or number <= through:
            for name in sums:
                sums[name] += by_name.get(name, 0)
    return [{"name": name, "total": total} for name, total in sums.items()]


def etag(body_sha: str) -> str:
    """A round's ETag: its current revision's body sha256, quoted."""
    return f'"{body_sha}"'


def _open_table(event: Any, event_id: str, game_id: str) -> list[str]:
    """The players seated at an open event's table, from an ``_EVENT_GAME`` row: 404 without the event or the table, 409 once it is closed."""
    if event is None:
        raise NotFound(f"No event {event_id!r}.", {"event": [f"no event {event_id!r}"]}, code=codes.EVENT_NOT_FOUND)
    if event.players_json is None:
        raise NotFound(f"Event {event_id} has no table {game_id!r}.", {"game": [f"no table {game_id!r} in event {event_id}"]}, code=codes.TABLE_NOT_FOUND)
    if event.status == "closed":
        raise Conflict(f"Event {event_id} is closed: its rounds can no longer change.", {"event": ["closed"]}, code=codes.EVENT_CLOSED)
    return json.loads(event.players_json)  # type: ignore[no-any-return]


def _check_play(play: RoundPlay, seated: list[str], ruleset: Ruleset, game_id: str, rules: bool = True) -> None:
    """The table's seating and (with ``rules``, or when the seating is wrong) the round's own rules: every problem at once (422)."""
    problems = Problems()
    names = [p.name for p in play.players]
    for i, name in enumerate(names):
        if name not in seated:
            problems.add(f"players.{i}.name", f"{name!r} is not seated at table {game_id} (seated: {', '.join(seated)})", code=codes.SEAT_MISMATCH)
    for name in seated:
        if name not in names:
            problems.add("players", f"{name} is seated at table {game_id} but has no entry in this round", code=codes.SEAT_MISMATCH)
    if rules or problems:
        seating = problems.items
        problems = Problems()
        check_round(play, ruleset, problems)
        for path, messages in seating.items():
            for message in messages:
                problems.add(path, message)
    problems.raise_if_any("The round does not add up; see errors.")


def _check_correction(current: Any, if_match: str | None, body_sha: str, game_id: str, number: int) -> None:
    if current is None:
        raise NotFound(
            f"Round {number} of table {game_id} has not been submitted; there is nothing to correct.", {"round": ["not submitted"]}, code=codes.ROUND_NOT_FOUND
        )
    if if_match is None:
        raise PreconditionRequired(
            f"A correction names the revision it replaces: send If-Match: {etag(current.body_sha256)}.", {"if-match": ["required for a correction"]}
        )
    tags = [tag.strip() for tag in if_match.split(",")]
    if "*" not in tags and etag(current.body_sha256) not in tags:  # RFC 9110 §13.1.1: * matches any current representation
        raise PreconditionFailed(
            f"Round {number} of table {game_id} has changed: its current ETag is {etag(current.body_sha256)} (revision {current.revision}).",
            {"if-match": ["not the current revision"]},
        )
    if current.body_sha256 == body_sha:
        raise InvalidRequest("The correction changes nothing: it is the current play.", {"correction": ["changes nothing"]}, code=codes.NOT_CORRECTABLE)


def _differs(game_id: str, number: int, current: Any) -> Conflict:
    return Conflict(
        f"Round {number} of table {game_id} is already stored with a different play (revision {current.revision}); "
        "a director corrects it with a correction reason and If-Match.",
        {"body": ["differs from the stored round"]},
        code=codes.ROUND_DIFFERS,
    )


def _reseated(game_id: str, number: int) -> Conflict:
    return Conflict(
        f"Table {game_id} was reseated while round {number} was being stored: read the table's players again and check the slip against them.",
        {"game": ["reseated"]},
        code=codes.STORED_MEANWHILE,
    )


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _current(rows: Sequence[Any], number: int) -> Any:
    """The current revision of round ``number`` among a table's revision rows (ordered by round, then revision); ``None`` if not submitted."""
    found = None
    for row in rows:
        if row.round == number:
            found = row
    return found


def _round_totals(rows: Sequence[Any]) -> dict[int, dict[str, int]]:
    """Each round's totals in its current revision, from a table's revision rows (ordered by round, then revision: the last one wins)."""
    return {row.round: json.loads(row.totals_json) for row in rows}


# Statements of the hot path (:mod:`.._db.prepared`).
_b = bindparam
_EVENT_GAME = Prepared(
    select(*EVENT_COLUMNS, games.c.players_json)
    .select_from(events.outerjoin(games, and_(games.c.event_id == events.c.id, games.c.id == _b("game"))))
    .where(events.c.id == _b("event"))
)
_COUNT = Prepared(select(func.count().label("revisions")).select_from(revisions).where(*OF_GAME))
_STATUS = Prepared(
    select(events.c.status, games.c.players_json)
    .select_from(events.join(games, and_(games.c.event_id == events.c.id, games.c.id == _b("game"))))
    .where(events.c.id == _b("event"))
)
_HISTORY = Prepared(select(*revisions.c).where(*OF_GAME).order_by(revisions.c.round, revisions.c.revision))
