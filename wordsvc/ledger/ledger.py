"""The ledger's operations: events, games, rounds, tokens, judge rulings, export, import, verify.

Every write runs in one transaction (:class:`~wordsvc.ledger.database.Writer`)
that holds its event's audit chain (:func:`~wordsvc.ledger.database.lock_chain`),
re-reads what it depends on, writes its rows and appends its audit entry:
so a write is all there or not at all, and two processes racing on one
round store one revision. Scoring happens before the transaction; it needs
no lock.

Who may do what is checked here too (:mod:`.access`), so the CLI and the
web layer cannot disagree.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, and_, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..core.budget import MemoryBudget
from ..core.deal import Deal, DealError, commitment, deal, new_seed, table_seed
from ..core.errors import InvalidRequest, Problems
from ..core.ids import EXPORT_FORMAT, ID_PATTERN, is_id
from ..core.lexicon import Lexicon
from ..core.names import confusable_pairs
from ..core.ruleset import Ruleset
from ..core.scoring import RoundPlay, check_round, score_round
from ..core.verdict import judge
from ..data.names import mixed_script, skeleton
from ..data.rulesets import ruleset_document, ruleset_from_document
from .access import require_admin, require_director, require_read, require_referee
from .audit import GENESIS, HOUSE, Records, make_entry, token_problems, verify, verify_chain
from .canonical import canonical, now, sha256_of
from .checkpoints import Signer
from .database import Writer, connect, upgrade
from .errors import Conflict, Forbidden, NotFound, PreconditionFailed, PreconditionRequired, Unauthorized
from .imports import check_import
from .plays import in_order, play_document, play_from_document
from .prepared import Prepared, Readers
from .receipts import Appended, Receipts, tree_root
from .schema import audit, events, games, revisions, tokens
from .tokens import Principal, hash_token, matches, new_token, token_id

__all__ = ["EXPORT_FORMAT", "LOCAL", "Ledger", "Submitted"]

#: The actor of the command line (whoever can run ``wordsvc`` on the machine can open the database anyway).
LOCAL = Principal("local", "admin")
#: Rulesets rebuilt from event snapshots, remembered by sha256.
_SNAPSHOTS_KEPT = 64


@dataclass(frozen=True)
class Submitted:
    """The answer to a round submission: ``status`` 201 (stored), 200 (the same play again, or a correction)."""

    status: int
    round: dict[str, Any]


class Ledger:
    """The ledger on one database. ``lexicons(lang)`` gives the loaded lexicon of a language."""

    def __init__(
        self,
        engine: Engine,
        lexicons: Callable[[str], Lexicon],
        budget: MemoryBudget | None = None,
        on_commit: Callable[[int, float], None] | None = None,
        signer: Signer | None = None,
    ):
        self.engine = engine
        self.writer = Writer(engine, on_commit)
        self.readers = Readers(engine)
        self.lexicons = lexicons
        self.budget = budget
        self.receipts = Receipts(engine, signer or Signer())
        self._rulesets: dict[str, Ruleset] = {}

    @classmethod
    def open(
        cls,
        url: str,
        lexicons: Callable[[str], Lexicon],
        budget: MemoryBudget | None = None,
        on_commit: Callable[[int, float], None] | None = None,
        signer: Signer | None = None,
    ) -> Ledger:
        """Connect, bring the schema up to date, and close the connections (a pre-fork master must not share them).

        ``on_commit(writes, seconds)`` hears of every write transaction (:class:`~wordsvc.ledger.database.Writer`);
        ``signer`` signs the checkpoints (unsigned without one: :mod:`.checkpoints`)."""
        engine = connect(url)
        upgrade(engine)
        engine.dispose()
        return cls(engine, lexicons, budget, on_commit, signer)

    def close(self) -> None:
        """Close the ledger's connections (its threads' readers and the pool)."""
        self.readers.close()
        self.writer.close()
        self.engine.dispose()

    # --- tokens --------------------------------------------------------------------------------

    def authenticate(self, token: str) -> Principal:
        """The principal of a bearer token; :class:`Unauthorized` (one answer for every failure) if it is not a live token."""
        tid = token_id(token)
        row = self.readers.read(lambda reader: _TOKEN.first(reader, {"id": tid})) if tid else None
        stored = row.secret_sha256 if row is not None else None
        if not matches(token, stored) or row is None or row.revoked_at is not None:
            raise Unauthorized("The bearer token is not valid.", {"authorization": ["not a valid token"]})
        return Principal(row.id, row.role, row.event_id, row.table_id)

    def create_admin_token(self, label: str | None = None, actor: Principal = LOCAL) -> tuple[str, str]:
        """``(id, token)`` of a new admin token; the token is shown once and never stored."""

        def work(conn: Connection) -> tuple[str, str]:
            tid, token = self._insert_token(conn, "admin", None, None, label)
            self._append(conn, HOUSE, actor, "token.issued", {"id": tid, "role": "admin", "table": None})
            return tid, token

        return self.writer.run(HOUSE, work)

    def issue_token(self, actor: Principal | None, event_id: str, role: str, table: str | None = None, label: str | None = None) -> dict[str, Any]:
        """A director's (or admin's) new director, referee or viewer token for the event; ``token`` is in the answer only."""
        self._event_row(event_id)
        actor = require_director(actor, event_id)

        def work(conn: Connection) -> tuple[str, str, Appended]:
            if table is not None and self._game_row(conn, event_id, table) is None:
                raise InvalidRequest(f"Event {event_id} has no table {table!r}.", {"table": [f"no table {table!r} in event {event_id}"]})
            tid, token = self._insert_token(conn, role, event_id, table, label)
            return tid, token, self._append(conn, event_id, actor, "token.issued", {"id": tid, "role": role, "table": table})

        tid, token, appended = self.writer.run(event_id, work)
        issued = {"id": tid, "token": token, "role": role, "event": event_id, "table": table, "label": label}
        return {**issued, "receipt": self.receipts.of_write(event_id, appended)}

    def revoke_token(self, actor: Principal | None, event_id: str, tid: str) -> dict[str, Any]:
        self._event_row(event_id)
        actor = require_director(actor, event_id)

        def work(conn: Connection) -> Appended | tuple[int, str] | None:
            row = conn.execute(select(tokens).where(tokens.c.id == tid, tokens.c.event_id == event_id)).first()
            if row is None:
                raise NotFound(f"Event {event_id} has no token {tid!r}.", {"token": [f"no token {tid!r} in event {event_id}"]})
            if row.revoked_at is None:
                conn.execute(update(tokens).where(tokens.c.id == tid).values(revoked_at=now()))
                return self._append(conn, event_id, actor, "token.revoked", {"id": tid})
            return self.receipts.find(conn, event_id, ("token.revoked",), lambda p: p.get("id") == tid)  # revoked before: that entry's receipt

        receipt = self._receipt(event_id, self.writer.run(event_id, work))
        return {**self._token_view(self._token_row(tid)), "receipt": receipt}

    def list_tokens(self, actor: Principal | None, event_id: str) -> list[dict[str, Any]]:
        self._event_row(event_id)
        require_director(actor, event_id)
        with self.engine.connect() as conn:
            rows = conn.execute(select(tokens).where(tokens.c.event_id == event_id).order_by(tokens.c.created_at, tokens.c.id)).all()
        return [self._token_view(row) for row in rows]

    def revoke_admin_token(self, tid: str, actor: Principal = LOCAL) -> None:
        def work(conn: Connection) -> None:
            row = conn.execute(select(tokens).where(tokens.c.id == tid, tokens.c.role == "admin")).first()
            if row is None:
                raise NotFound(f"No admin token {tid!r}.", {"token": [f"no admin token {tid!r}"]})
            if row.revoked_at is None:
                conn.execute(update(tokens).where(tokens.c.id == tid).values(revoked_at=now()))
                self._append(conn, HOUSE, actor, "token.revoked", {"id": tid})

        self.writer.run(HOUSE, work)

    def token_event(self, tid: str) -> str | None:
        """The event a token belongs to (``None`` for an admin token); :class:`NotFound` if there is no such token."""
        row = self._token_row(tid)
        if row is None:
            raise NotFound(f"No token {tid!r}.", {"token": [f"no token {tid!r}"]})
        return row.event_id  # type: ignore[no-any-return]

    # --- events ---------------------------------------------------------------------------------

    def create_event(
        self,
        actor: Principal | None,
        ruleset: Ruleset,
        lexicon: Lexicon,
        name: str,
        event_id: str | None = None,
        private: bool = False,
        deals: str = "none",
        duplicate: bool = False,
    ) -> dict[str, Any]:
        """A new event under a snapshot of ``ruleset`` and ``lexicon``'s stamp; the answer carries the director token, once.

        With ``deals="seeded"`` the service draws the event's secret seed and
        publishes its commitment (docs/deals.md, section 8); a ``duplicate``
        event deals every table the same cards.
        """
        actor = require_admin(actor)
        event_id = event_id or f"e{secrets.token_hex(4)}"
        _check_id(event_id, "id")
        if duplicate and deals != "seeded":
            raise InvalidRequest("A duplicate event needs the service's deals: send \"deals\": \"seeded\".", {"duplicate": ['needs "deals": "seeded"']})
        seed = new_seed() if deals == "seeded" else None
        document = ruleset_document(ruleset)
        row = {
            "id": event_id,
            "name": name,
            "private": private,
            "ruleset_id": ruleset.id,
            "ruleset_json": canonical(document),
            "ruleset_sha256": sha256_of(document),
            "lexicon_json": canonical(lexicon.info.stamp()),
            "created_at": now(),
            "deals": deals,
            "duplicate": duplicate,
            "deal_seed": seed,
            "deal_commitment": commitment(seed) if seed else None,
            "status": "open",
        }

        def work(conn: Connection) -> tuple[str, str, Appended]:
            if conn.execute(select(events.c.id).where(events.c.id == event_id)).first() is not None:
                raise Conflict(f"There is already an event {event_id!r}.", {"id": ["taken"]})
            conn.execute(insert(events).values(row))
            self._append(conn, event_id, actor, "event.created", _event_payload(row))
            return self._issue_director(conn, event_id, actor)

        return self._with_director(actor, event_id, self.writer.run(event_id, work))

    def event(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        row = self._event_row(event_id)
        require_read(actor, row.id, row.private)
        with self.engine.connect() as conn:
            game_rows = conn.execute(select(games).where(games.c.event_id == event_id).order_by(games.c.created_at, games.c.id)).all()
            rounds = conn.execute(select(revisions.c.game_id, revisions.c.round).where(revisions.c.event_id == event_id).distinct()).all()
            snapshot = json.loads(_RULESET_JSON.first(conn, {"event": event_id})[0])
        played: dict[str, int] = {}
        for game_id, _ in rounds:
            played[game_id] = played.get(game_id, 0) + 1
        return {
            "id": row.id,
            "name": row.name,
            "private": bool(row.private),
            "status": row.status,
            "created_at": row.created_at,
            "ruleset": {"id": row.ruleset_id, "sha256": row.ruleset_sha256, "rounds": snapshot["rounds"], "snapshot": snapshot},
            "lexicon": json.loads(row.lexicon_json),
            "deals": self._deals_view(row),
            "games": [{"id": g.id, "players": json.loads(g.players_json), "rounds_played": played.get(g.id, 0)} for g in game_rows],
        }

    def close_event(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        """Close the event (a director's audited decision): no more rounds, and a seeded event's seed is revealed."""
        self._event_row(event_id)
        actor = require_director(actor, event_id, "close the event")

        def work(conn: Connection) -> Appended | tuple[int, str] | None:
            row = conn.execute(select(events.c.status, events.c.deal_seed).where(events.c.id == event_id)).one()
            if row.status != "closed":
                conn.execute(update(events).where(events.c.id == event_id).values(status="closed", closed_at=now()))
                return self._append(conn, event_id, actor, "event.closed", {"seed": row.deal_seed})
            return self.receipts.find(conn, event_id, ("event.closed",), lambda p: True)  # closed before: that entry's receipt

        receipt = self._receipt(event_id, self.writer.run(event_id, work))
        return {**self.event(actor, event_id), "receipt": receipt}

    def round_deal(self, actor: Principal | None, event_id: str, game_id: str, number: int) -> dict[str, Any]:
        """The cards a seeded event deals a table in round ``number`` (docs/deals.md).

        Before the event is closed: a referee of the table gets the round once
        the round before it is stored (round 1 at once), a director any
        round, nobody else anything; the deal id (which holds the table's
        seed) is left out. After closing: anyone who may read the event, with
        the deal id.
        """
        event = self._event_row(event_id)
        if event.private:
            require_read(actor, event_id, True)  # who may not read a private event learns nothing of it, not even whether it deals
        if event.deals != "seeded":
            raise NotFound(f"Event {event_id} has no seeded deals; it was created without \"deals\": \"seeded\".", {"event": ["no seeded deals"]})
        closed = event.status == "closed"
        if closed:
            require_read(actor, event_id, event.private)
        else:
            actor = require_referee(actor, event_id, game_id)
        with self.engine.connect() as conn:
            game = self._game_row(conn, event_id, game_id)
            if game is None:
                raise NotFound(f"Event {event_id} has no table {game_id!r}.", {"game": [f"no table {game_id!r} in event {event_id}"]})
            played = {row.round for row in _BRIEF.all(conn, {"event": event_id, "game": game_id})}
        if not closed and actor.role == "referee" and number > 1 and number - 1 not in played:
            raise Forbidden(f"Round {number} is dealt once round {number - 1} of table {game_id} is stored; a director may ask sooner.", {"round": ["not yet"]})
        players = json.loads(game.players_json)
        try:
            dealt = self._deal(event, game_id, len(players), number)
        except DealError as err:
            raise InvalidRequest(f"No deal: {err}.", {err.field: [str(err)]}) from None
        view = {
            "event": event_id,
            "game": game_id,
            "round": number,
            "dealer": dealt.dealer,
            "seats": [{"player": name, "hand": [face.upper() for face in hand]} for name, hand in zip(players, dealt.hands, strict=True)],
            "face_up": dealt.face_up.upper(),
            "draw_pile": [face.upper() for face in dealt.draw_pile],
            "digest": dealt.digest(),
            "deal_id": dealt.id if closed else None,
        }
        return view

    def accept_lexicon(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        """Move the event to the lexicon loaded now (a director's audited decision); nothing happens if it is the same, 409 once closed."""
        row = self._event_row(event_id)
        actor = require_director(actor, event_id)
        new = self.lexicons(json.loads(row.lexicon_json)["id"]).info.stamp()

        def work(conn: Connection) -> Appended | tuple[int, str] | None:
            old = json.loads(conn.execute(select(events.c.lexicon_json).where(events.c.id == event_id)).scalar_one())
            if new != old:
                _refuse_if_closed(conn, event_id, "its rounds stay scored under the lexicon it had")
                conn.execute(update(events).where(events.c.id == event_id).values(lexicon_json=canonical(new)))
                return self._append(conn, event_id, actor, "lexicon.accepted", {"from": old, "to": new})
            # the lexicon it has already: the receipt of the entry that gave it (the last acceptance, else the creation)
            return self.receipts.find(conn, event_id, ("lexicon.accepted", "event.created"), lambda p: p.get("to", p.get("lexicon")) == new)

        receipt = self._receipt(event_id, self.writer.run(event_id, work))
        return {**self.event(actor, event_id), "receipt": receipt}

    # --- games ------------------------------------------------------------------------------------

    def put_game(self, actor: Principal | None, event_id: str, game_id: str, players: Sequence[str]) -> tuple[bool, dict[str, Any]]:
        """Seat a table; ``(created, game)``. The same players again is a no-op; different players are a 409."""
        event = self._event_row(event_id)
        actor = require_director(actor, event_id)
        _check_id(game_id, "game")
        ruleset = self._ruleset(event)
        problems = Problems()
        if not ruleset.players_min <= len(players) <= ruleset.players_max:
            problems.add("players", f"{len(players)} player(s); ruleset {ruleset.id} is for {ruleset.players_min} to {ruleset.players_max}")
        seen: dict[str, int] = {}  # by name without case: "Ann" and "ann" at one table is a slip, not two players
        for i, name in enumerate(players):
            key = name.casefold()
            if key in seen:
                problems.add(f"players.{i}", f"duplicate player name {name!r} (also seat {seen[key]}; names are compared without case)")
            seen.setdefault(key, i)
            mixed = mixed_script(name)
            if mixed:
                problems.add(f"players.{i}", f"{name!r} mixes scripts a reader cannot tell apart ({', '.join(sorted(s.title() for s in mixed))})")
        for i, j in confusable_pairs(players, skeleton):
            if players[i].casefold() != players[j].casefold():  # the same name twice is said above
                problems.add(f"players.{j}", f"{players[j]!r} looks like {players[i]!r} (seat {i}): give players names people can tell apart")
        problems.raise_if_any("The table cannot be seated; see errors.")

        def work(conn: Connection) -> Appended | tuple[int, str] | None:
            row = self._game_row(conn, event_id, game_id)
            if row is None and event.duplicate:
                seated = {len(json.loads(text)) for (text,) in conn.execute(select(games.c.players_json).where(games.c.event_id == event_id))}
                if seated and seated != {len(players)}:
                    raise InvalidRequest(
                        f"Every table of duplicate event {event_id} seats {seated.pop()} players, so that each seat gets the same cards.",
                        {"players": ["must be as many as at the other tables"]},
                    )
            if row is None:
                _refuse_if_closed(conn, event_id, "no more tables can be seated")
                conn.execute(insert(games).values(event_id=event_id, id=game_id, players_json=canonical(list(players)), created_at=now()))
                return self._append(conn, event_id, actor, "game.created", {"game": game_id, "players": list(players)})
            if json.loads(row.players_json) != list(players):
                raise Conflict(
                    f"Table {game_id} of event {event_id} is seated with other players: {', '.join(json.loads(row.players_json))}.",
                    {"players": ["differ from the stored seating"]},
                )
            return self.receipts.find(conn, event_id, ("game.created",), lambda p: p.get("game") == game_id)  # seated before: that entry's receipt

        done = self.writer.run(event_id, work)
        return isinstance(done, Appended), {**self.game(actor, event_id, game_id), "receipt": self._receipt(event_id, done)}

    def game(self, actor: Principal | None, event_id: str, game_id: str) -> dict[str, Any]:
        event = self._event_row(event_id)
        require_read(actor, event_id, event.private)
        with self.engine.connect() as conn:
            row = self._game_row(conn, event_id, game_id)
            if row is None:
                raise NotFound(f"Event {event_id} has no table {game_id!r}.", {"game": [f"no table {game_id!r} in event {event_id}"]})
            history = self._history(conn, event_id, game_id)
        players = json.loads(row.players_json)
        totals = _current_totals(history)
        receipts = self.receipts.round_receipts(event_id, game_id)
        rounds = [self._round_view(event_id, game_id, players, history[n], totals, n, receipts) for n in sorted(history)]
        return {"event": event_id, "id": game_id, "players": players, "rounds": rounds, "totals": _running(players, totals, None)}

    # --- rounds -----------------------------------------------------------------------------------

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
        before the write, the write batched with others (:class:`~wordsvc.ledger.database.Writer`),
        the answer built from what the write read.
        """
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

        lexicon = self._event_lexicon(event)
        result = score_round(play, ruleset, lexicon).to_dict()
        result_text = canonical(result)
        totals = {p["name"]: p["total"] for p in result["players"]}
        totals_text = canonical(totals)
        dealt = self._deal(event, game_id, len(players), number) if event.deals == "seeded" else None

        def work(conn: Connection) -> tuple[int, int, Sequence[Any], Appended | None]:
            """What another process stored meanwhile decides: store the next revision, or answer as the stored one.

            A table's revisions are only ever added to, so the same count as
            the read above means the same rows: the write reads them again
            only when another request has written to this table meanwhile.
            """
            if _STATUS.first(conn, {"event": event_id}).status == "closed":  # under the chain's lock: a close that committed first wins
                raise Conflict(f"Event {event_id} is closed: its rounds are final.", {"event": ["closed"]})
            seen = rows
            if _COUNT.first(conn, where).revisions != len(rows):
                seen = _BRIEF.all(conn, where)
            latest = _current(seen, number)
            if correction is None and latest is not None:
                if latest.body_sha256 != body_sha:
                    raise _differs(game_id, number, latest)
                return 200, 0, seen, None
            if correction is not None:
                _check_correction(latest, if_match, body_sha, game_id, number)
            revision = 1 if latest is None else latest.revision + 1
            _INSERT_REVISION.execute(
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
            payload: dict[str, Any] = {"game": game_id, "round": number, "revision": revision, "body": body, "body_sha256": body_sha, "result_sha256": _sha(result_text)}
            if dealt is not None:
                payload["deal_digest"] = dealt.digest()
            if correction is not None:
                payload["reason"] = correction
            appended = self._append(conn, event_id, actor, "round.corrected" if correction is not None else "round.submitted", payload)
            return (201 if correction is None else 200), revision, seen, appended

        try:
            status, revision, seen, appended = self.writer.run(event_id, work)
        except (IntegrityError, self.engine.dialect.dbapi.IntegrityError):  # type: ignore[union-attr]  # only if a writer bypassed the chain lock; the key keeps one revision anyway
            raise Conflict(f"Round {number} of table {game_id} was stored by another request just now; read it and retry.") from None
        if not revision:  # another request stored this very play first
            return Submitted(200, self._stored_round(event_id, game_id, players, number))
        view = {
            "event": event_id,
            "game": game_id,
            "round": number,
            "revision": revision,
            "revisions": revision,
            "etag": _etag(body_sha),
            "result": result,
            "running_totals": _running(players, {**_round_totals(seen), number: totals}, number),
            "deal_digest": dealt.digest() if dealt else None,
            "receipt": self.receipts.of_write(event_id, appended),
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
        result = score_round(play, ruleset, self._event_lexicon(event)).to_dict()
        totals = _round_totals(rows)
        totals[number] = {p["name"]: p["total"] for p in result["players"]}
        return {
            "event": event_id,
            "game": game_id,
            "round": number,
            "result": result,
            "running_totals": _running(players, totals, number),
            "stored": _etag(current.body_sha256) if current is not None else None,
        }

    def _table_round(self, where: dict[str, Any]) -> tuple[Any, list[Any], list[str], Ruleset]:
        """What a submission or a preview of a round reads first: the event, the table's revision rows, its seats and the ruleset."""
        event, rows = self.readers.read(lambda reader: (_EVENT_GAME.first(reader, where), _BRIEF.all(reader, where)))
        return event, rows, _open_table(event, where["event"], where["game"]), self._ruleset(event)

    def round(self, actor: Principal | None, event_id: str, game_id: str, number: int) -> dict[str, Any]:
        """A round's current revision, its result and the running totals through it, and every revision kept."""
        event = self._event_row(event_id)
        require_read(actor, event_id, event.private)
        with self.engine.connect() as conn:
            row = self._game_row(conn, event_id, game_id)
            if row is None:
                raise NotFound(f"Event {event_id} has no table {game_id!r}.", {"game": [f"no table {game_id!r} in event {event_id}"]})
            history = self._history(conn, event_id, game_id)
        if number not in history:
            raise NotFound(f"Round {number} of table {game_id} has not been submitted.", {"round": ["not submitted"]})
        receipts = self.receipts.round_receipts(event_id, game_id)
        view = self._round_view(event_id, game_id, json.loads(row.players_json), history[number], _current_totals(history), number, receipts)
        view["history"] = [
            {"revision": r.revision, "at": r.created_at, "actor": r.actor, "reason": r.reason, "body": json.loads(r.body_json), "result": json.loads(r.result_json)}
            for r in history[number]
        ]
        return view

    def standings(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        """Every seated player by total, highest first; equal totals share a rank (1, 2, 2, 4)."""
        event = self._event_row(event_id)
        require_read(actor, event_id, event.private)
        with self.engine.connect() as conn:
            game_rows = conn.execute(select(games).where(games.c.event_id == event_id).order_by(games.c.created_at, games.c.id)).all()
            rows = _EVENT_TOTALS.all(conn, {"event": event_id})
        current: dict[tuple[str, int], str] = {(r.game_id, r.round): r.totals_json for r in rows}  # ordered by revision: the last one wins
        per_game: dict[str, list[dict[str, int]]] = {}
        for (gid, _), text in current.items():
            per_game.setdefault(gid, []).append(json.loads(text))
        lines = []
        for game in game_rows:
            results = per_game.get(game.id, [])
            for name in json.loads(game.players_json):
                lines.append({"player": name, "table": game.id, "rounds": len(results), "total": sum(totals.get(name, 0) for totals in results)})
        answer: dict[str, Any] = {"event": event_id, "standings": _ranked(lines, "total")}
        if event.duplicate:
            answer["duplicate"] = _ranked(_matchpoints(game_rows, current), "matchpoints")
        answer["checkpoint"] = self.receipts.checkpoint(event_id)
        return answer

    def scoring_context(self, actor: Principal | None, event_id: str) -> tuple[Ruleset, Lexicon]:
        """The event's snapshot ruleset and its lexicon (409 if the loaded lexicon is no longer the event's): what its rounds are scored under."""
        event = self._event_row(event_id)
        require_read(actor, event_id, event.private)
        return self._ruleset(event), self._event_lexicon(event)

    # --- judge ------------------------------------------------------------------------------------

    def judge(self, actor: Principal | None, event_id: str, table: str, round_number: int, words: Sequence[str]) -> dict[str, Any]:
        """Judge mode under the event's snapshot, recorded: acceptable or not, how many words, the lexicon; never which word."""
        event = self._event_row(event_id)
        actor = require_referee(actor, event_id, table)
        ruleset = self._ruleset(event)
        problems = Problems()
        with self.engine.connect() as conn:
            if self._game_row(conn, event_id, table) is None:
                problems.add("table", f"no table {table!r} in event {event_id}")
        if not 1 <= round_number <= len(ruleset.rounds):
            problems.add("round", f"must be between 1 and {len(ruleset.rounds)} in ruleset {ruleset.id}")
        problems.raise_if_any("The ruling cannot be recorded; see errors.")
        lexicon = self._event_lexicon(event)
        acceptable = all(judge(word, ruleset, lexicon).valid for word in words)
        ruling = {"acceptable": acceptable, "count": len(words), "ruleset": event.ruleset_id, "lexicon": lexicon.info.stamp()}
        payload = {"table": table, "round": round_number, "words": list(words), **ruling}

        def work(conn: Connection) -> Appended:
            _refuse_if_closed(conn, event_id, "its play, and its rulings, are over")
            return self._append(conn, event_id, actor, "judge.ruling", payload)

        appended = self.writer.run(event_id, work)
        return {**ruling, "table": table, "round": round_number, "audit_seq": appended.seq, "receipt": self.receipts.of_write(event_id, appended)}

    # --- audit, export, import, verify ------------------------------------------------------------

    def audit_entries(self, actor: Principal | None, event_id: str, after: int = 0, limit: int = 1000) -> dict[str, Any]:
        event = self._event_row(event_id)
        require_read(actor, event_id, event.private)
        with self.engine.connect() as conn:
            rows = conn.execute(select(audit).where(audit.c.chain == event_id, audit.c.seq > after).order_by(audit.c.seq).limit(limit)).all()
            head = _LAST_ENTRY.first(conn, {"chain": event_id})
        return {"event": event_id, "head": {"seq": head.seq, "hash": head.hash} if head else None, "entries": [_entry(row) for row in rows]}

    def checkpoint(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        """The event's signed tree head now: how many audit entries its log holds and their Merkle root (:mod:`.checkpoints`)."""
        event = self._event_row(event_id)
        require_read(actor, event_id, event.private)
        return self.receipts.checkpoint(event_id)

    def inclusion_proof(self, actor: Principal | None, event_id: str, seq: int, tree_size: int | None = None) -> dict[str, Any]:
        """That audit entry ``seq`` is in the event's tree of ``tree_size`` entries (default: all), as RFC 9162 proves it."""
        event = self._event_row(event_id)
        require_read(actor, event_id, event.private)
        return self.receipts.inclusion(event_id, seq, tree_size)

    def consistency_proof(self, actor: Principal | None, event_id: str, first: int, second: int | None = None) -> dict[str, Any]:
        """That the event's tree of ``first`` entries is the start of its tree of ``second`` (default: all), as RFC 9162 proves it."""
        event = self._event_row(event_id)
        require_read(actor, event_id, event.private)
        return self.receipts.consistency(event_id, first, second)

    def export(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        """Everything needed to rebuild the event elsewhere, as one JSON document (no token secrets or hashes), with the signed head of
        the entries it holds (a closed event's is its final checkpoint, or one that extends it if tokens changed since)."""
        self._event_row(event_id)
        require_director(actor, event_id, "export the event")
        records = self._records(event_id)
        root = tree_root([entry["hash"] for entry in records.audit])
        return {
            "format": EXPORT_FORMAT,
            "event": records.event,
            "games": records.games,
            "revisions": records.revisions,
            "tokens": records.tokens,
            "audit": records.audit,
            "checkpoint": self.receipts.signer.checkpoint(event_id, len(records.audit), root),
        }

    def import_event(self, actor: Principal | None, document: dict[str, Any]) -> dict[str, Any]:
        """Rebuild an exported event; refused (422) unless its chain and rows verify, 409 if the id is taken. Gives a new director token."""
        actor = require_admin(actor)
        records, _ = check_import(document, self._loaded_lexicon)  # every row as a write would have it, every problem at once
        problems = verify(records)
        if problems:
            raise InvalidRequest(f"The export does not verify: {problems[0]}.", {"audit": problems[:50]})
        event = records.event
        event_id = event["id"]
        _check_id(event_id, "event.id")

        def work(conn: Connection) -> tuple[str, str, Appended]:
            if conn.execute(select(events.c.id).where(events.c.id == event_id)).first() is not None:
                raise Conflict(f"There is already an event {event_id!r}.", {"event.id": ["taken"]})
            conn.execute(insert(events).values(_event_row_of(event)))
            for game in records.games:
                conn.execute(insert(games).values(event_id=event_id, id=game["id"], players_json=canonical(game["players"]), created_at=game["created_at"]))
            for r in records.revisions:
                _INSERT_REVISION.execute(
                    conn,
                    {
                        "event_id": event_id,
                        "game_id": r["game"],
                        "round": r["round"],
                        "revision": r["revision"],
                        "body_json": canonical(r["body"]),
                        "body_sha256": r["body_sha256"],
                        "result_json": canonical(r["result"]),
                        "totals_json": canonical(_totals_of(r["result"])),
                        "reason": r.get("reason"),
                        "actor": r["actor"],
                        "created_at": r["created_at"],
                        "deal_digest": r.get("deal_digest"),
                        "deal_id": r.get("deal_id"),
                    },
                )
            for e in records.audit:
                conn.execute(insert(audit).values(_audit_row(e)))
            self._append(conn, event_id, actor, "event.imported", {"entries": len(records.audit), "head": records.audit[-1]["hash"]})
            return self._issue_director(conn, event_id, actor)

        return self._with_director(actor, event_id, self.writer.run(event_id, work))

    def verify(self, event_id: str) -> list[str]:
        """Problems that show the event's rows or audit chain were edited, deleted or reordered (``[]``: it verifies)."""
        self._event_row(event_id)
        return verify(self._records(event_id, reveal=True))

    def verify_house(self) -> list[str]:
        """The admin tokens' chain, checked as an event's is, and the admin token rows against it."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(audit).where(audit.c.chain == HOUSE).order_by(audit.c.seq)).all()
            admins = conn.execute(select(tokens).where(tokens.c.event_id.is_(None)).order_by(tokens.c.created_at, tokens.c.id)).all()
        entries = [_entry(row) for row in rows]
        if not entries:
            return [f"token {admin.id}: no audit entry issued it" for admin in admins]
        return verify_chain(HOUSE, entries) or token_problems(entries, [self._token_view(admin) for admin in admins])

    def log(self, event_id: str) -> list[dict[str, Any]]:
        """Every audit entry of the event, in order (the command line's: it acts as the machine's administrator)."""
        with self.engine.connect() as conn:
            return [_entry(row) for row in conn.execute(select(audit).where(audit.c.chain == event_id).order_by(audit.c.seq))]

    def event_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return [row.id for row in conn.execute(select(events.c.id).order_by(events.c.created_at, events.c.id))]

    # --- internals -------------------------------------------------------------------------------

    def _records(self, event_id: str, reveal: bool = False) -> Records:
        """The event as an export holds it; the seed and the deal ids (which hold it) only once the event is closed, or with ``reveal``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(events).where(events.c.id == event_id)).one()
            game_rows = conn.execute(select(games).where(games.c.event_id == event_id).order_by(games.c.created_at, games.c.id)).all()
            rev_rows = conn.execute(
                select(revisions).where(revisions.c.event_id == event_id).order_by(revisions.c.game_id, revisions.c.round, revisions.c.revision)
            ).all()
            token_rows = conn.execute(select(tokens).where(tokens.c.event_id == event_id).order_by(tokens.c.created_at, tokens.c.id)).all()
            audit_rows = conn.execute(select(audit).where(audit.c.chain == event_id).order_by(audit.c.seq)).all()
        return Records(
            event={
                "id": row.id,
                "name": row.name,
                "private": bool(row.private),
                "ruleset_id": row.ruleset_id,
                "ruleset": json.loads(row.ruleset_json),
                "ruleset_sha256": row.ruleset_sha256,
                "lexicon": json.loads(row.lexicon_json),
                "created_at": row.created_at,
                "deals": row.deals,
                "duplicate": bool(row.duplicate),
                "deal_commitment": row.deal_commitment,
                "status": row.status,
                "deal_seed": row.deal_seed if row.status == "closed" or reveal else None,
            },
            games=[{"id": g.id, "players": json.loads(g.players_json), "created_at": g.created_at} for g in game_rows],
            revisions=[
                {
                    "game": r.game_id,
                    "round": r.round,
                    "revision": r.revision,
                    "body": json.loads(r.body_json),
                    "body_sha256": r.body_sha256,
                    "result": json.loads(r.result_json),
                    "totals": json.loads(r.totals_json),
                    "reason": r.reason,
                    "actor": r.actor,
                    "created_at": r.created_at,
                    "deal_digest": r.deal_digest,
                    "deal_id": r.deal_id if row.status == "closed" or reveal else None,
                }
                for r in rev_rows
            ],
            tokens=[self._token_view(t) for t in token_rows],
            audit=[_entry(a) for a in audit_rows],
        )

    def _event_row(self, event_id: str) -> Any:
        with self.engine.connect() as conn:
            row = _EVENT.first(conn, {"event": event_id})
        if row is None:
            raise NotFound(f"No event {event_id!r}.", {"event": [f"no event {event_id!r}"]})
        return row

    def _game_row(self, conn: Connection, event_id: str, game_id: str) -> Any:
        return _GAME.first(conn, {"event": event_id, "game": game_id})

    def _token_row(self, tid: str) -> Any:
        with self.engine.connect() as conn:
            return conn.execute(select(tokens).where(tokens.c.id == tid)).first()

    def _history(self, conn: Connection, event_id: str, game_id: str) -> dict[int, list[Any]]:
        """Round number -> its revisions, oldest first."""
        history: dict[int, list[Any]] = {}
        for row in _HISTORY.all(conn, {"event": event_id, "game": game_id}):
            history.setdefault(row.round, []).append(row)
        return history

    def _stored_round(self, event_id: str, game_id: str, players: list[str], number: int) -> dict[str, Any]:
        with self.engine.connect() as conn:
            history = self._history(conn, event_id, game_id)
        return self._round_view(event_id, game_id, players, history[number], _current_totals(history), number, self.receipts.round_receipts(event_id, game_id))

    def _round_view(
        self,
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
            "etag": _etag(current.body_sha256),
            "result": json.loads(current.result_json),
            "running_totals": _running(players, totals, number),
            "deal_digest": current.deal_digest,
            "receipt": receipts(number, current.revision),
        }

    def _issue_director(self, conn: Connection, event_id: str, actor: Principal) -> tuple[str, str, Appended]:
        """A new event's director token (created or imported), audited; ``(id, token, its entry)``."""
        tid, token = self._insert_token(conn, "director", event_id, None, "director")
        return tid, token, self._append(conn, event_id, actor, "token.issued", {"id": tid, "role": "director", "table": None})

    def _with_director(self, actor: Principal, event_id: str, issued: tuple[str, str, Appended]) -> dict[str, Any]:
        """The event as answered to the one who made it: with its director token, shown this once, and the write's receipt."""
        view = self.event(actor, event_id)
        view["director_token"] = {"id": issued[0], "token": issued[1]}
        view["receipt"] = self.receipts.of_write(event_id, issued[2])
        return view

    def _receipt(self, event_id: str, done: Appended | tuple[int, str] | None) -> dict[str, Any] | None:
        """The receipt of what a write appended, or of the earlier entry ``(seq, hash)`` a repeat found (``None`` if none)."""
        return self.receipts.of_write(event_id, done) if isinstance(done, Appended) else self.receipts.of_entry(event_id, done)

    def _insert_token(self, conn: Connection, role: str, event_id: str | None, table: str | None, label: str | None) -> tuple[str, str]:
        while True:
            tid, token = new_token()
            if _TOKEN.first(conn, {"id": tid}) is None:
                break
        conn.execute(
            insert(tokens).values(id=tid, secret_sha256=hash_token(token), role=role, event_id=event_id, table_id=table, label=label, created_at=now())
        )
        return tid, token

    def _token_view(self, row: Any) -> dict[str, Any]:
        return {"id": row.id, "role": row.role, "event": row.event_id, "table": row.table_id, "label": row.label, "created_at": row.created_at, "revoked_at": row.revoked_at}

    def _append(self, conn: Connection, chain: str, actor: Principal, action: str, payload: dict[str, Any]) -> Appended:
        """Append an audit entry to ``chain``, in the write's own transaction (which holds the chain's lock); the entry and the tree after it."""
        before = self.receipts.trees.current(conn, chain)  # the newest entry, read with what the event's tree needs
        prev = before.last.hex() if before.size else GENESIS
        entry = make_entry(chain, before.size + 1, prev, actor.actor(), action, payload, now())
        _INSERT_ENTRY.execute(conn, _audit_row(entry))
        return self.receipts.appended(chain, before, entry["hash"])

    def _deals_view(self, event: Any) -> dict[str, Any]:
        seed = None
        if event.deals == "seeded" and event.status == "closed":
            seed = self.readers.read(lambda reader: _SEED.first(reader, {"event": event.id}))[0]
        return {"mode": event.deals, "duplicate": bool(event.duplicate), "commitment": event.deal_commitment, "seed": seed}

    def _deal(self, event: Any, game_id: str, players: int, number: int) -> Deal:
        """Round ``number`` of a table of a seeded event, from the event's secret seed (docs/deals.md, section 8)."""
        seed = self.readers.read(lambda reader: _SEED.first(reader, {"event": event.id}))[0]
        if seed is None:  # imported from an export taken before the reveal, which leaves the seed out
            raise Conflict(f"Event {event.id} was imported without its seed (exported while open): it cannot deal.", {"event": ["no seed"]})
        return deal(self._ruleset(event), players, number, table_seed(seed, None if event.duplicate else game_id))

    def _ruleset(self, event: Any) -> Ruleset:
        """The event's ruleset, rebuilt from its snapshot (never from the YAML on disk) and remembered by its sha256."""
        ruleset = self._rulesets.get(event.ruleset_sha256)
        if ruleset is None:
            with self.engine.connect() as conn:
                snapshot = json.loads(_RULESET_JSON.first(conn, {"event": event.id})[0])
            ruleset = ruleset_from_document(event.ruleset_id, snapshot)
            if self.budget is not None:
                ruleset.deck.share_budget(self.budget)
            if len(self._rulesets) >= _SNAPSHOTS_KEPT:
                self._rulesets.pop(next(iter(self._rulesets)))
            self._rulesets[event.ruleset_sha256] = ruleset
        return ruleset

    def _loaded_lexicon(self, stamp: dict[str, Any]) -> Lexicon | None:
        """The loaded lexicon with this stamp's language and sha256, else ``None``."""
        try:
            lexicon = self.lexicons(str(stamp["id"]))
        except Exception:  # not a language this service has: no lexicon to score with
            return None
        return lexicon if lexicon.info.sha256 == stamp.get("sha256") else None

    def _event_lexicon(self, event: Any) -> Lexicon:
        """The loaded lexicon of the event's language, only while it is the one the event accepted (else 409 naming both)."""
        stamp = json.loads(event.lexicon_json)
        lexicon = self.lexicons(stamp["id"])
        loaded = lexicon.info.stamp()
        if loaded["sha256"] != stamp["sha256"]:
            raise Conflict(
                f"Event {event.id} was created with lexicon {stamp['id']} {stamp['version']} ({stamp['sha256'][:12]}); "
                f"the service now has {loaded['id']} {loaded['version']} ({loaded['sha256'][:12]}). A director accepts it with POST /events/{event.id}/lexicon.",
                {"lexicon": [f"event: {canonical(stamp)}", f"loaded: {canonical(loaded)}"]},
            )
        return lexicon


# Statements of the busy paths, written once in Core and run on the driver's cursor (:mod:`.prepared`).
_b = bindparam
_TOKEN = Prepared(
    select(tokens.c.id, tokens.c.secret_sha256, tokens.c.role, tokens.c.event_id, tokens.c.table_id, tokens.c.revoked_at).where(tokens.c.id == _b("id"))
)
_EVENT_COLUMNS = (
    events.c.id,
    events.c.name,
    events.c.private,
    events.c.ruleset_id,
    events.c.ruleset_sha256,
    events.c.lexicon_json,
    events.c.created_at,
    events.c.deals,
    events.c.duplicate,
    events.c.deal_commitment,
    events.c.status,
)
_SEED = Prepared(select(events.c.deal_seed).where(events.c.id == _b("event")))
_EVENT = Prepared(select(*_EVENT_COLUMNS).where(events.c.id == _b("event")))
_EVENT_GAME = Prepared(
    select(*_EVENT_COLUMNS, games.c.players_json)
    .select_from(events.outerjoin(games, and_(games.c.event_id == events.c.id, games.c.id == _b("game"))))
    .where(events.c.id == _b("event"))
)
_RULESET_JSON = Prepared(select(events.c.ruleset_json).where(events.c.id == _b("event")))
_GAME = Prepared(select(games.c.event_id, games.c.id, games.c.players_json, games.c.created_at).where(games.c.event_id == _b("event"), games.c.id == _b("game")))
_OF_GAME = (revisions.c.event_id == _b("event"), revisions.c.game_id == _b("game"))
_COUNT = Prepared(select(func.count().label("revisions")).select_from(revisions).where(*_OF_GAME))
_STATUS = Prepared(select(events.c.status).where(events.c.id == _b("event")))
_HISTORY = Prepared(select(*revisions.c).where(*_OF_GAME).order_by(revisions.c.round, revisions.c.revision))
_BRIEF = Prepared(select(revisions.c.round, revisions.c.revision, revisions.c.body_sha256, revisions.c.totals_json).where(*_OF_GAME).order_by(revisions.c.round, revisions.c.revision))
_EVENT_TOTALS = Prepared(
    select(revisions.c.game_id, revisions.c.round, revisions.c.totals_json)
    .where(revisions.c.event_id == _b("event"))
    .order_by(revisions.c.game_id, revisions.c.round, revisions.c.revision)
)
_LAST_ENTRY = Prepared(select(audit.c.seq, audit.c.hash).where(audit.c.chain == _b("chain")).order_by(audit.c.seq.desc()).limit(1))
_INSERT_REVISION = Prepared(insert(revisions).values({c.name: _b(c.name) for c in revisions.c}))
_INSERT_ENTRY = Prepared(insert(audit).values({c.name: _b(c.name) for c in audit.c}))


def _event_payload(row: dict[str, Any]) -> dict[str, Any]:
    """What the audit records of a new event: everything but the secret seed (its commitment is public)."""
    return {
        "id": row["id"],
        "name": row["name"],
        "private": row["private"],
        "ruleset_id": row["ruleset_id"],
        "ruleset": json.loads(row["ruleset_json"]),
        "ruleset_sha256": row["ruleset_sha256"],
        "lexicon": json.loads(row["lexicon_json"]),
        "deals": row["deals"],
        "duplicate": row["duplicate"],
        "deal_commitment": row["deal_commitment"],
    }


def _event_row_of(event: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": event["id"],
        "name": event["name"],
        "private": event["private"],
        "ruleset_id": event["ruleset_id"],
        "ruleset_json": canonical(event["ruleset"]),
        "ruleset_sha256": event["ruleset_sha256"],
        "lexicon_json": canonical(event["lexicon"]),
        "created_at": event["created_at"],
        "deals": event.get("deals", "none"),
        "duplicate": event.get("duplicate", False),
        "deal_seed": event.get("deal_seed"),
        "deal_commitment": event.get("deal_commitment"),
        "status": event.get("status", "open"),
    }


def _entry(row: Any) -> dict[str, Any]:
    return {
        "chain": row.chain,
        "seq": row.seq,
        "at": row.at,
        "actor": {"token": row.actor_token, "role": row.actor_role},
        "action": row.action,
        "payload": json.loads(row.payload_json),
        "prev": row.prev_hash,
        "hash": row.hash,
    }


def _audit_row(entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "chain": entry["chain"],
        "seq": entry["seq"],
        "at": entry["at"],
        "actor_token": entry["actor"]["token"],
        "actor_role": entry["actor"]["role"],
        "action": entry["action"],
        "payload_json": canonical(entry["payload"]),
        "prev_hash": entry["prev"],
        "hash": entry["hash"],
    }


def records_of(document: Any) -> Records:
    """An export document as :class:`Records`, or a 422 naming what is missing."""
    problems = Problems()
    if not isinstance(document, dict):
        raise InvalidRequest("An import is an export document: a JSON object.", {"body": ["must be an object"]})
    if document.get("format") != EXPORT_FORMAT:
        problems.add("format", f"must be {EXPORT_FORMAT!r}")
    for key, kind in (("event", dict), ("games", list), ("revisions", list), ("tokens", list), ("audit", list)):
        if not isinstance(document.get(key), kind):
            problems.add(key, f"must be {'an object' if kind is dict else 'a list'}")
    problems.raise_if_any("The import is not an export document; see errors.")
    try:
        records = Records(document["event"], document["games"], document["revisions"], document["tokens"], document["audit"])
        for row in records.revisions:
            play_from_document(row["body"], row["round"])  # a body must read back as a play
        _ = [records.event[k] for k in ("id", "name", "private", "ruleset_id", "ruleset", "ruleset_sha256", "lexicon", "created_at")]
        _ = [(g["id"], g["players"], g["created_at"]) for g in records.games]
        _ = [(r["game"], r["revision"], r["body_sha256"], r["result"], r["actor"], r["created_at"]) for r in records.revisions]
    except (KeyError, TypeError, AttributeError) as err:
        what = f"the field {err.args[0]!r}" if isinstance(err, KeyError) and err.args else "a field"
        raise InvalidRequest(f"The export document is incomplete: {what} is missing or malformed.", {"body": [f"{what} is missing or malformed"]}) from None
    return records


def _check_id(value: str, field: str) -> None:
    if not is_id(value):
        raise InvalidRequest(f"{field} must be 1 to 64 lowercase letters, digits, - or _.", {field: ["must match " + ID_PATTERN]})


def _refuse_if_closed(conn: Connection, event_id: str, what: str) -> None:
    """409 if the event is closed, read in the write's own transaction (a close that commits first wins)."""
    if conn.execute(select(events.c.status).where(events.c.id == event_id)).scalar_one() == "closed":
        raise Conflict(f"Event {event_id} is closed: {what}.", {"event": ["closed"]})


def _open_table(event: Any, event_id: str, game_id: str) -> list[str]:
    """The players seated at an open event's table, from an ``_EVENT_GAME`` row: 404 without the event or the table, 409 once it is closed."""
    if event is None:
        raise NotFound(f"No event {event_id!r}.", {"event": [f"no event {event_id!r}"]})
    if event.players_json is None:
        raise NotFound(f"Event {event_id} has no table {game_id!r}.", {"game": [f"no table {game_id!r} in event {event_id}"]})
    if event.status == "closed":
        raise Conflict(f"Event {event_id} is closed: its rounds can no longer change.", {"event": ["closed"]})
    return json.loads(event.players_json)  # type: ignore[no-any-return]


def _check_play(play: RoundPlay, seated: list[str], ruleset: Ruleset, game_id: str, rules: bool = True) -> None:
    """The table's seating and (with ``rules``, or when the seating is wrong) the round's own rules: every problem at once (422)."""
    problems = Problems()
    names = [p.name for p in play.players]
    for i, name in enumerate(names):
        if name not in seated:
            problems.add(f"players.{i}.name", f"{name!r} is not seated at table {game_id} (seated: {', '.join(seated)})")
    for name in seated:
        if name not in names:
            problems.add("players", f"{name} is seated at table {game_id} but has no entry in this round")
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
        raise NotFound(f"Round {number} of table {game_id} has not been submitted; there is nothing to correct.", {"round": ["not submitted"]})
    if if_match is None:
        raise PreconditionRequired(
            f"A correction names the revision it replaces: send If-Match: {_etag(current.body_sha256)}.", {"if-match": ["required for a correction"]}
        )
    tags = [tag.strip() for tag in if_match.split(",")]
    if "*" not in tags and _etag(current.body_sha256) not in tags:  # RFC 9110 §13.1.1: * matches any current representation
        raise PreconditionFailed(
            f"Round {number} of table {game_id} has changed: its current ETag is {_etag(current.body_sha256)} (revision {current.revision}).",
            {"if-match": ["not the current revision"]},
        )
    if current.body_sha256 == body_sha:
        raise InvalidRequest("The correction changes nothing: it is the current play.", {"correction": ["changes nothing"]})


def _differs(game_id: str, number: int, current: Any) -> Conflict:
    return Conflict(
        f"Round {number} of table {game_id} is already stored with a different play (revision {current.revision}); "
        "a director corrects it with a correction reason and If-Match.",
        {"body": ["differs from the stored round"]},
    )


def _etag(body_sha: str) -> str:
    return f'"{body_sha}"'


def _ranked(lines: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """``lines`` by ``key``, highest first; equal values share a rank (1, 2, 2, 4)."""
    lines = sorted(lines, key=lambda line: (-line[key], line["player"], line["table"]))
    ranked: list[dict[str, Any]] = []
    for i, line in enumerate(lines):
        rank = ranked[-1]["rank"] if ranked and ranked[-1][key] == line[key] else i + 1
        ranked.append({"rank": rank, **line})
    return ranked


def _matchpoints(game_rows: Sequence[Any], current: dict[tuple[str, int], str]) -> list[dict[str, Any]]:
    """Duplicate scoring: in each round, each player against everyone who held the same seat's cards: 2 per player beaten, 1 per tie."""
    held: dict[tuple[int, int], list[tuple[str, str, int]]] = {}  # (round, seat) -> (table, player, round total)
    for game in game_rows:
        for seat, name in enumerate(json.loads(game.players_json)):
            for (gid, number), text in current.items():
                if gid == game.id:
                    held.setdefault((number, seat), []).append((game.id, name, json.loads(text).get(name, 0)))
    points: dict[tuple[str, str], list[int]] = {}
    for game in game_rows:
        for seat, name in enumerate(json.loads(game.players_json)):
            points[(game.id, name)] = [seat, 0, 0]  # seat, matchpoints, rounds
    for group in held.values():
        for table, name, total in group:
            mine = points[(table, name)]
            mine[1] += sum(2 if total > other else 1 if total == other else 0 for t, n, other in group if (t, n) != (table, name))
            mine[2] += 1
    return [{"player": name, "table": table, "seat": seat, "rounds": rounds, "matchpoints": mp} for (table, name), (seat, mp, rounds) in points.items()]


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


def _totals_of(result: dict[str, Any]) -> dict[str, int]:
    """A round result's totals by player: what standings and running totals add up (audit verify holds them to the result)."""
    return {p["name"]: p["total"] for p in result["players"]}


def _current_totals(history: dict[int, list[Any]]) -> dict[int, dict[str, int]]:
    return {number: json.loads(revs[-1].totals_json) for number, revs in history.items()}


def _running(players: list[str], totals: dict[int, dict[str, int]], through: int | None) -> list[dict[str, Any]]:
    """Each seated player's total over the rounds up to ``through`` (all when ``None``)."""
    sums = dict.fromkeys(players, 0)
    for number, by_name in totals.items():
        if through is None or number <= through:
            for name in sums:
                sums[name] += by_name.get(name, 0)
    return [{"name": name, "total": total} for name, total in sums.items()]
