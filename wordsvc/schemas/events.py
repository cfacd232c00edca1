"""The ledger's documents: event, table, round, token and ruling bodies, and their answers (docs/ledger.md)."""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, fields, post_load, validate

from ..core.ids import EXPORT_FORMAT, ID_PATTERN, RESERVED_IDS
from ..core.scoring import RoundPlay
from .common import MAX_PLAYERS, BoundedList, LexiconStamp, Strict, StrictBoolean, WordField, check_text, lang_field, name_field, ruleset_field
from .rounds import MAX_ROUNDS, RoundBody, RoundResultOut, read_round
from .validate import MAX_VERDICTS

#: Longest correction reason, event name and token label.
MAX_REASON = 500
MAX_NAME = 200
#: Rows of each kind (tables, revisions, tokens, audit entries, players, sessions, seats) an import document may hold: every table and
#: every revision has an audit entry, so an event the API built fits while its log does; the highest audit sequence number asked after.
MAX_IMPORT_ROWS, MAX_SEQ = 100_000, 2**31 - 1
_ROWS = f"At most {MAX_IMPORT_ROWS:,} rows"


def id_field(required: bool = False, **kwargs: Any) -> fields.String:
    return fields.String(
        required=required,
        validate=[
            validate.Length(max=64),
            validate.Regexp(ID_PATTERN, error="must be 1 to 64 lowercase letters, digits, - or _ (starting with a letter or digit)"),
            validate.NoneOf(sorted(RESERVED_IDS), error="is reserved: {values}"),
        ],
        **kwargs,
    )


def _text(max_length: int, required: bool = True, **kwargs: Any) -> fields.String:
    return fields.String(required=required, validate=[validate.Length(min=1, max=max_length), check_text], **kwargs)


class EventBody(Strict):
    id = id_field(load_default=None, metadata={"description": "The event's id in URLs; a random one when left out."})
    name = _text(MAX_NAME)
    ruleset = ruleset_field()
    lang = lang_field()
    private = StrictBoolean(load_default=False, metadata={"description": "Games, standings and the audit need a token of the event."})
    deals = fields.String(
        load_default="none",
        validate=validate.OneOf(("none", "seeded")),
        metadata={"description": "`seeded`: the service deals every round from a secret seed it commits to now and reveals on close (docs/deals.md)."},
    )
    duplicate = StrictBoolean(load_default=False, metadata={"description": "Every table gets the same deal, seat for seat (needs seeded deals); standings add matchpoints."})
    format = fields.String(
        load_default=None, validate=validate.Length(min=1, max=64),
        metadata={"description": "The tournament format its players are ranked by across sessions: `total` (default), `table-points`, `wins` or `average` (formats/, docs/standings.md)."},
    )


class GameBody(Strict):
    players = BoundedList(name_field(), required=True, validate=validate.Length(min=1, max=MAX_PLAYERS), metadata={"description": "In seat order."})


class CorrectionSchema(Strict):
    reason = _text(MAX_REASON)


class RoundSubmission(RoundBody):
    """``/score-round``'s body without ruleset or language; a director's correction adds ``correction``."""

    correction = fields.Nested(CorrectionSchema, load_default=None)

    @post_load
    def _make(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        play = RoundPlay(tuple(data["players"]), data["round"], tuple(data["challenges"]), data["bonus_choice"])
        return {"play": play, "correction": data["correction"]["reason"] if data["correction"] else None}


_SUBMISSION_KEYS = frozenset(RoundSubmission().fields)


def load_round_submission(data: Any, schema: RoundSubmission | None = None) -> dict[str, Any]:
    """What ``RoundSubmission().load(data)`` gives, read directly when it is plainly well formed (as :func:`load_round_request`).

    A plain round with no correction, no ruleset or language and no
    challenges is read by the same direct reader as ``/score-round``; any
    other body goes to the schema, which names every problem.
    """
    direct = read_round_submission(data)
    return direct if direct is not None else (schema or RoundSubmission()).load(data)  # type: ignore[no-any-return]


def read_round_submission(data: Any) -> dict[str, Any] | None:
    """The direct reading of :func:`load_round_submission`; ``None`` when unsure."""
    if type(data) is not dict or "correction" in data or "ruleset" in data or "lang" in data or not data.keys() <= _SUBMISSION_KEYS:
        return None
    direct = read_round(data)
    return None if direct is None else {"play": direct["play"], "correction": None}


class TokenBody(Strict):
    role = fields.String(required=True, validate=validate.OneOf(("director", "referee", "kiosk", "viewer")))
    table = id_field(load_default=None, metadata={"description": "A referee or kiosk token for this table only."})
    label = _text(MAX_NAME, required=False, load_default=None)


class JudgeBody(Strict):
    words = BoundedList(WordField(), required=True, validate=validate.Length(min=1, max=MAX_VERDICTS))
    table = id_field(required=True)
    round = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=MAX_ROUNDS))


class ImportedEvent(Strict):
    """The ``event`` of an export document: what an import needs named here, the rest checked by the ledger with the audit chain."""

    class Meta:
        unknown = INCLUDE

    id = id_field(required=True)
    name = _text(MAX_NAME)
    private = StrictBoolean(required=True)
    ruleset_id = fields.String(required=True, validate=validate.Length(min=1, max=64))
    ruleset = fields.Dict(required=True, metadata={"description": "The ruleset the event snapshotted, resolved."})
    ruleset_sha256 = fields.String(required=True, validate=[validate.Length(equal=64), validate.Regexp(r"^[0-9a-f]{64}$")])
    lexicon = fields.Dict(required=True, metadata={"description": "The lexicon stamp the event snapshotted."})
    created_at = fields.String(required=True, validate=validate.Length(min=1, max=64))


class ImportBody(Strict):
    """An export document; its contents are checked by the ledger, which verifies its audit chain before storing anything.

    Each list holds at most :data:`MAX_IMPORT_ROWS` rows, and the whole body
    at most ``WORDSVC_MAX_IMPORT_BODY`` bytes; a larger event moves with
    ``wordsvc event export`` and ``wordsvc event import`` (docs/ledger.md, "Moving an event").
    """

    format = fields.String(required=True, validate=validate.OneOf([EXPORT_FORMAT]))
    event = fields.Nested(ImportedEvent, required=True)
    games = BoundedList(fields.Dict(), required=True, validate=validate.Length(max=MAX_IMPORT_ROWS), metadata={"description": f"{_ROWS}: the tables."})
    revisions = BoundedList(fields.Dict(), required=True, validate=validate.Length(max=MAX_IMPORT_ROWS), metadata={"description": f"{_ROWS}: every revision of every round."})
    tokens = BoundedList(fields.Dict(), required=True, validate=validate.Length(max=MAX_IMPORT_ROWS), metadata={"description": f"{_ROWS}: the tokens, without secrets or hashes."})
    audit = BoundedList(fields.Dict(), required=True, validate=validate.Length(min=1, max=MAX_IMPORT_ROWS), metadata={"description": f"{_ROWS}: the audit entries."})
    checkpoint = fields.Dict(
        load_default=None,
        metadata={"description": "The export's checkpoint, as exported: when present it must be the head of exactly the entries in `audit` "
                  "(and signed, if it names a key this service trusts); not kept (the importing ledger's own checkpoints extend the same tree)."},
    )  # fmt: skip
    players = BoundedList(fields.Dict(), load_default=None, validate=validate.Length(max=MAX_IMPORT_ROWS), metadata={"description": "A tournament's players."})
    sessions = BoundedList(fields.Dict(), load_default=None, validate=validate.Length(max=MAX_IMPORT_ROWS), metadata={"description": "A tournament's sessions."})
    seats = BoundedList(fields.Dict(), load_default=None, validate=validate.Length(max=MAX_IMPORT_ROWS), metadata={"description": "Who sat where in each session."})
    schedule = fields.Dict(load_default=None, allow_none=True, metadata={"description": "A published schedule."})


class AuditQuery(Strict):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_SEQ), metadata={"description": "Entries after this sequence number."})
    limit = fields.Integer(load_default=1000, validate=validate.Range(min=1, max=1000))


class ProofQuery(Strict):
    seq = fields.Integer(required=True, validate=validate.Range(min=1, max=MAX_SEQ), metadata={"description": "The audit entry to prove, 1 first."})
    tree_size = fields.Integer(
        load_default=None, validate=validate.Range(min=1, max=MAX_SEQ), metadata={"description": "The tree to prove it in: its first this many entries (default: all)."}
    )


class ConsistencyQuery(Strict):
    first = fields.Integer(
        data_key="from", required=True, validate=validate.Range(min=1, max=MAX_SEQ), metadata={"description": "The older tree's size (a checkpoint's tree_size)."}
    )
    second = fields.Integer(data_key="to", load_default=None, validate=validate.Range(min=1, max=MAX_SEQ), metadata={"description": "The newer tree's size (default: all)."})


class StandingsQuery(Strict):
    format = fields.String(load_default=None, validate=validate.OneOf(("json", "csv")), metadata={"description": "`csv`, or send Accept: text/csv."})
    session = fields.Integer(load_default=None, validate=validate.Range(min=1, max=64), metadata={"description": "A tournament's overall standings after this session."})


# --- answers -------------------------------------------------------------------------------------------

_HEX = {"description": "SHA-256, 64 lowercase hex digits."}


class CheckpointOut(Strict):
    """An event's signed tree head (docs/ledger.md, "Receipts and checkpoints")."""

    event = fields.String(required=True)
    tree_size = fields.Integer(required=True, metadata={"description": "How many audit entries the tree covers (entries 1 to tree_size)."})
    root = fields.String(required=True, metadata={"description": "The RFC 9162 Merkle root of those entries' hashes, hex."})
    timestamp = fields.String(required=True, metadata={"description": "When the service signed it, ISO 8601 UTC."})
    key_id = fields.String(allow_none=True, required=True, metadata={"description": "First 16 hex digits of SHA-256 of the raw public key; null when unsigned."})
    signature = fields.String(
        allow_none=True, required=True, metadata={"description": "Ed25519 over the checkpoint's message, base64; null when the service has no key (WORDSVC_LEDGER_KEY_FILE)."}
    )


class ReceiptOut(Strict):
    """That an audit entry is in the event's tree, and the signed head of that tree."""

    event = fields.String(required=True)
    seq = fields.Integer(required=True, metadata={"description": "The audit entry the write made (its last one, if it made several)."})
    entry_hash = fields.String(required=True, metadata=_HEX)
    tree_size = fields.Integer(required=True, metadata={"description": "The tree the entry is in: right after the write in a write's answer, the current one elsewhere."})
    root = fields.String(required=True, metadata=_HEX)
    checkpoint = fields.Nested(CheckpointOut, required=True)


def receipt_field(required: bool = True) -> fields.Nested:
    return fields.Nested(
        ReceiptOut, allow_none=True, required=required, metadata={"description": "The receipt of the audit entry behind this answer; keep it to check the log later."}
    )


class InclusionProofOut(Strict):
    event = fields.String(required=True)
    seq = fields.Integer(required=True)
    entry_hash = fields.String(required=True, metadata=_HEX)
    tree_size = fields.Integer(required=True)
    root = fields.String(required=True, metadata={"description": "The root of the tree of the first tree_size entries."})
    proof = fields.List(fields.String(), required=True, metadata={"description": "RFC 9162 inclusion proof of leaf seq - 1, hex, nearest the leaf first."})


class ConsistencyProofOut(Strict):
    event = fields.String(required=True)
    first = fields.Integer(data_key="from", required=True, metadata={"description": "The older tree's size."})
    second = fields.Integer(data_key="to", required=True, metadata={"description": "The newer tree's size."})
    from_root = fields.String(required=True, metadata=_HEX)
    to_root = fields.String(required=True, metadata=_HEX)
    proof = fields.List(fields.String(), required=True, metadata={"description": "RFC 9162 consistency proof, hex."})


class TotalOut(Strict):
    name = fields.String(required=True)
    total = fields.Integer(required=True)


class SecretTokenOut(Strict):
    id = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "Shown once: the ledger keeps only its hash."})


class EventGameOut(Strict):
    id = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    rounds_played = fields.Integer(required=True)


class RulesetSnapshotOut(Strict):
    id = fields.String(required=True)
    sha256 = fields.String(required=True, metadata={"description": "SHA-256 of the snapshot's canonical JSON."})
    rounds = fields.List(fields.Integer(), required=True)
    snapshot = fields.Dict(required=True, metadata={"description": "The resolved ruleset the event scores under, as a ruleset file would write it."})


class DealsOut(Strict):
    mode = fields.String(required=True, metadata={"description": "`none` or `seeded`."})
    duplicate = fields.Boolean(required=True)
    commitment = fields.String(allow_none=True, required=True, metadata={"description": "SHA-256 of the secret event seed, published at creation."})
    seed = fields.String(allow_none=True, required=True, metadata={"description": "The event seed, revealed when the event is closed."})


class EventOut(Strict):
    id = fields.String(required=True)
    name = fields.String(required=True)
    private = fields.Boolean(required=True)
    status = fields.String(required=True)
    created_at = fields.String(required=True)
    ruleset = fields.Nested(RulesetSnapshotOut, required=True)
    lexicon = fields.Nested(LexiconStamp, required=True)
    games = fields.List(fields.Nested(EventGameOut), required=True)
    deals = fields.Nested(DealsOut, required=True)
    format = fields.Dict(required=True, allow_none=True, metadata={"description": "The tournament format its players are ranked by (docs/standings.md); null: the default."})
    rated = fields.Boolean(required=True, metadata={"description": "Whether its games count in the ratings (docs/ratings.md)."})
    director_token = fields.Nested(SecretTokenOut, metadata={"description": "Only in the answer that created (or imported) the event."})
    receipt = fields.Nested(
        ReceiptOut,
        allow_none=True,
        metadata={"description": "In the answer to a write (create, import, close, lexicon): its entry's receipt; a close's checkpoint is the event's final one."},
    )


class RoundOut(Strict):
    event = fields.String(required=True)
    game = fields.String(required=True)
    round = fields.Integer(required=True)
    revision = fields.Integer(required=True)
    revisions = fields.Integer(required=True)
    etag = fields.String(required=True, metadata={"description": "The current revision's ETag: If-Match of a correction."})
    result = fields.Nested(RoundResultOut, required=True)
    running_totals = fields.List(fields.Nested(TotalOut), required=True, metadata={"description": "Each seated player's total through this round."})
    deal_digest = fields.String(allow_none=True, required=True, metadata={"description": "In a seeded event: the digest of the deal the round was played from."})
    receipt = receipt_field()


class PreviewOut(Strict):
    event = fields.String(required=True)
    game = fields.String(required=True)
    round = fields.Integer(required=True)
    result = fields.Nested(RoundResultOut, required=True)
    running_totals = fields.List(fields.Nested(TotalOut), required=True, metadata={"description": "Each seated player's total through this round, with this play."})
    stored = fields.String(allow_none=True, required=True, metadata={"description": "The round's current ETag if it has been submitted, else null."})


class WhoamiOut(Strict):
    id = fields.String(required=True, metadata={"description": "The token's id (never the token)."})
    role = fields.String(required=True, metadata={"description": "admin, director, referee, kiosk or viewer."})
    event = fields.String(allow_none=True, required=True)
    table = fields.String(allow_none=True, required=True, metadata={"description": "A referee token's one table, or null for every table."})


class RevisionOut(Strict):
    revision = fields.Integer(required=True)
    at = fields.String(required=True)
    actor = fields.String(required=True, metadata={"description": "The id of the token that stored it."})
    reason = fields.String(allow_none=True, required=True)
    body = fields.Dict(required=True, metadata={"description": "The play as stored: cards as faces."})
    result = fields.Nested(RoundResultOut, required=True)


class RoundDetailOut(RoundOut):
    history = fields.List(fields.Nested(RevisionOut), required=True)


class GameOut(Strict):
    event = fields.String(required=True)
    id = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    rounds = fields.List(fields.Nested(RoundOut), required=True)
    totals = fields.List(fields.Nested(TotalOut), required=True)
    receipt = receipt_field(required=False)


class StandingOut(Strict):
    rank = fields.Integer(required=True)
    player = fields.String(required=True)
    table = fields.String(required=True)
    session = fields.Integer(
        required=True, allow_none=True, metadata={"description": "The tournament session of the table (its lines are ranked among that session's only); null for a table seated by name."}
    )
    rounds = fields.Integer(required=True)
    total = fields.Integer(required=True)


class MatchpointOut(Strict):
    rank = fields.Integer(required=True)
    player = fields.String(required=True)
    table = fields.String(required=True)
    seat = fields.Integer(required=True)
    rounds = fields.Integer(required=True)
    matchpoints = fields.Integer(required=True, metadata={"description": "2 for each player beaten, 1 for each tie, among those who held the same seat's cards in a round, summed."})


class StandingsOut(Strict):
    event = fields.String(required=True)
    standings = fields.List(fields.Nested(StandingOut), required=True)
    duplicate = fields.List(fields.Nested(MatchpointOut), metadata={"description": "A duplicate event's ranking by matchpoints, beside the totals."})
    overall = fields.Nested("OverallOut", metadata={"description": "A tournament's players ranked across sessions by its format (docs/standings.md)."})
    checkpoint = fields.Nested(CheckpointOut, required=True, metadata={"description": "The event's signed head when the standings were read."})


class SeatDealOut(Strict):
    player = fields.String(required=True)
    hand = fields.List(fields.String(), required=True)


class RoundDealOut(Strict):
    event = fields.String(required=True)
    game = fields.String(required=True)
    round = fields.Integer(required=True)
    dealer = fields.Integer(required=True, metadata={"description": "The dealer's seat; the first card goes to the next seat."})
    seats = fields.List(fields.Nested(SeatDealOut), required=True)
    face_up = fields.String(required=True)
    draw_pile = fields.List(fields.String(), required=True, metadata={"description": "Top card first."})
    digest = fields.String(required=True)
    deal_id = fields.String(allow_none=True, required=True, metadata={"description": "Once the event is closed: the q1 deal id that reproduces the deal."})


class TokenOut(Strict):
    id = fields.String(required=True)
    role = fields.String(required=True)
    event = fields.String(allow_none=True, required=True)
    table = fields.String(allow_none=True, required=True)
    label = fields.String(allow_none=True, required=True)
    created_at = fields.String(required=True)
    revoked_at = fields.String(allow_none=True, required=True)
    receipt = receipt_field(required=False)


class IssuedTokenOut(Strict):
    id = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "Shown once: the ledger keeps only its hash."})
    role = fields.String(required=True)
    event = fields.String(required=True)
    table = fields.String(allow_none=True, required=True)
    label = fields.String(allow_none=True, required=True)
    console = fields.String(
        metadata={
            "description": "A referee token for one table: the console's sign-in link, `/console#event=...&table=...&token=...`, relative to the service. "
            "Opened, it signs in at that table; the token is in the fragment, which browsers never send, and the console removes it from the address."
        }
    )
    receipt = receipt_field()


class TokenListOut(Strict):
    tokens = fields.List(fields.Nested(TokenOut), required=True)


class JudgeRulingOut(Strict):
    acceptable = fields.Boolean(required=True)
    count = fields.Integer(required=True)
    ruleset = fields.String(required=True)
    lexicon = fields.Nested(LexiconStamp, required=True)
    table = fields.String(required=True)
    round = fields.Integer(required=True)
    audit_seq = fields.Integer(required=True, metadata={"description": "The audit entry that records the ruling."})
    receipt = receipt_field()


class ActorOut(Strict):
    token = fields.String(required=True)
    role = fields.String(required=True)


class AuditEntryOut(Strict):
    chain = fields.String(required=True)
    seq = fields.Integer(required=True)
    at = fields.String(required=True)
    actor = fields.Nested(ActorOut, required=True)
    action = fields.String(required=True)
    payload = fields.Dict(required=True)
    prev = fields.String(required=True)
    hash = fields.String(required=True, metadata={"description": "SHA-256 of the entry's canonical JSON without this field (nor key_id and signature)."})
    key_id = fields.String(allow_none=True, required=True, metadata={"description": "The key that signed the entry as it was written; null when unsigned."})
    signature = fields.String(
        allow_none=True, required=True, metadata={"description": "Ed25519 over `wordsvc-entry/v1`, the chain, seq and hash, one line each, base64 (docs/ledger.md, \"Entry signatures\")."}
    )


class AuditHeadOut(Strict):
    seq = fields.Integer(required=True)
    hash = fields.String(required=True)


class AuditOut(Strict):
    event = fields.String(required=True)
    head = fields.Nested(AuditHeadOut, allow_none=True, required=True)
    entries = fields.List(fields.Nested(AuditEntryOut), required=True)


class ExportOut(Strict):
    format = fields.String(required=True)
    event = fields.Dict(required=True)
    games = fields.List(fields.Dict(), required=True)
    revisions = fields.List(fields.Dict(), required=True)
    tokens = fields.List(fields.Dict(), required=True)
    audit = fields.List(fields.Nested(AuditEntryOut), required=True)
    checkpoint = fields.Nested(CheckpointOut, required=True, metadata={"description": "The signed head of exactly the entries in `audit`."})
    players = fields.List(fields.Dict(), required=True, metadata={"description": "A tournament's players (docs/tournaments.md); empty for an event without."})
    sessions = fields.List(fields.Dict(), required=True)
    seats = fields.List(fields.Dict(), required=True)
    schedule = fields.Dict(required=True, allow_none=True)
