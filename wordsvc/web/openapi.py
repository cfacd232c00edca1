"""The OpenAPI 3 document, generated from the marshmallow schemas, and the /docs page.

Paths are listed here once; request and response bodies come from
:mod:`wordsvc.schemas`, so a field added there shows here, and so do the
query parameters of every GET endpoint that reads its query with a schema
(:data:`QUERY_SCHEMAS`): the lists below give their order and prose, the
schema their type, limits and whether they are required. Every limit a
schema enforces is stated: apispec reads marshmallow's validators, and
:func:`_wordsvc_fields` adds what it cannot see (the card fields' own
shapes, :func:`~wordsvc.schemas.common.check_text` as a pattern). A test
checks every response of the service against the document, and another
that each stated limit is the one enforced. Every operation is named
(:data:`OPERATIONS`) for the clients generated from the document
(docs/clients.md).
"""

from __future__ import annotations

import html
import json
from functools import lru_cache
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import Schema, fields

from .. import __version__
from ..config import SETTINGS
from ..core.ids import ID_PATTERN
from ..core.problem_codes import REGISTRY
from ..schemas import analysis as analysis_schemas
from ..schemas import best_meld as solver_schemas
from ..schemas import common, rounds, validate
from ..schemas import events as ledger_schemas
from ..schemas import solitaire as solitaire_schemas
from ..schemas.deals import DealOut, DealQuery
from ..schemas.lexicons import MAX_DIFF_LIMIT, DiffQuery, LexiconDiffOut
from ..schemas.qr import QrBody
from ..schemas.words import AnagramsQuery, SuggestQuery, WordsQuery
from .openapi_documents import DOCUMENT_ENDPOINTS, DOCUMENT_OPERATIONS, DOCUMENT_QUERIES, NOT_JSON, STREAM_SCHEMAS
from .openapi_tournaments import CSV_COLUMNS, TOURNAMENT_ENDPOINTS, TOURNAMENT_OPERATIONS, TOURNAMENT_QUERIES, TOURNAMENT_SCHEMAS
from .problems import PROBLEM_TYPES
from .views import pages
from .views import words as search

__all__ = ["ENDPOINTS", "OPERATIONS", "QUERY_SCHEMAS", "docs_html", "spec"]

PROBLEM = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}


def _json(schema: str) -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}


#: Statuses any operation may answer, whatever its own: some come from the HTTP server before the app sees the
#: request (431: request line and headers too large; 503 when it holds all the connections it takes), and 503 also while the language asked
#: for is still building or as many expensive requests run as the worker admits (with Retry-After).
ANY_OPERATION = {
    405: "method not allowed",
    431: "request header fields too large",
    500: "internal error",
    503: "unavailable for now: the server is full or shutting down, the language is still building, or too many expensive requests run (see Retry-After)",
}


def _errors(*statuses: int) -> dict[str, Any]:
    return {str(code): {"description": ANY_OPERATION.get(code) or PROBLEM_TYPES[code][0].replace("-", " "), "content": PROBLEM} for code in statuses}


def _q(name: str, description: str, required: bool = False, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": required, "description": description, "schema": schema or {"type": "string"}}


COMMON_QUERY = [
    _q("ruleset", "Ruleset id; default: the ruleset `lang`'s lexicon is played with (`deutsch` for `de`), else `standard`."),
    _q("lang", "BCP 47 language tag of the lexicon (default: the ruleset's language); alone, it also picks its own ruleset and deck."),
    _q("locale", "Language of messages (`en`, `et`, `is`); else Accept-Language."),
]

#: (method, path, summary, description, parameters, request schema, response schema, error statuses)
ENDPOINTS: list[tuple[str, str, str, str, list[dict[str, Any]], str | None, str | None, tuple[int, ...]]] = [
    (
        "get",
        "/validate",
        "Judge one word",
        "The verdict on a word: plain letters (every way to lay it) or compact cards such as `(qu)iz`; a refused word also gets `suggestions`.",
        [_q("word", "The word.", True), *COMMON_QUERY, _q("suggest", "`false`: no suggestions for a refused word.")],
        None,
        "Verdict",
        (400, 404, 422),
    ),
    (
        "post",
        "/validate",
        "Judge many words",
        "Verdicts in request order and whether all are valid; with `judge: true`, only whether the whole play is acceptable.",
        [],
        "ValidateBody",
        "VerdictsOrJudge",
        (400, 404, 413, 415, 422),
    ),
    (
        "post",
        "/score-round",
        "Score a round",
        "Each player's words, unused cards, challenges, bonuses and total.",
        [],
        "RoundRequest",
        "RoundResult",
        (400, 404, 413, 415, 422),
    ),
    (
        "post",
        "/score-game",
        "Score a game",
        "Each round's result, running totals and the winner(s).",
        [],
        "GameRequest",
        "GameResult",
        (400, 404, 413, 415, 422),
    ),
    ("get", "/rulesets", "List rulesets", "Id, name, description, language and parent of every ruleset.", [], None, "RulesetList", ()),
    (
        "get",
        "/rulesets/{ruleset_id}",
        "Show a ruleset",
        "The fully resolved ruleset, deck included.",
        [{"name": "ruleset_id", "in": "path", "required": True, "schema": {"type": "string"}}],
        None,
        "Ruleset",
        (404,),
    ),
    (
        "get",
        "/languages",
        "List lexicons",
        "Every loaded lexicon: id, tags, version, sha256, entries, source, licence, attribution, and the ruleset it is played with.",
        [],
        None,
        "LanguageList",
        (),
    ),
    (
        "get",
        "/lexicons/diff",
        "What changed between two lexicons",
        "The forms `to` has and `from` has not (`added`) and the reverse (`removed`), each counted and listed in code-point order, "
        f"a page of at most {MAX_DIFF_LIMIT} of each side from `offset`; with `ruleset`, only the forms it accepts as words, so a form "
        "newly banned by class shows as removed. An analyser lexicon (`et`) cannot list its forms: 422 naming the side. "
        "A first diff of two large lexicons takes up to about 2 s (a heavy request); its further pages are answered from a cache.",
        [
            _q("from", "The lexicon before (id or tag, `GET /languages`).", True),
            _q("to", "The lexicon after.", True),
            _q("ruleset", "Compare only the forms this ruleset accepts (default: every form)."),
            _q("limit", f"Forms listed of each side, 0 to {MAX_DIFF_LIMIT} (default 100; 0: counts only)."),
            _q("offset", "Forms of each side to skip (default 0)."),
            _q("locale", "Language of messages (`en`, `et`, `is`); else Accept-Language."),
        ],
        None,
        "LexiconDiff",
        (400, 404, 422, 503),
    ),
    (
        "post",
        "/analyse-round",
        "Analyse a round",
        "For each player, in order: the cards they ended with (their words' cards, then their unused cards), `played` (what they scored from them: "
        "the round's word_points - unused_points, before bonuses, the floor and challenge penalties), `best` (the exact solver's best play of exactly "
        "those cards, no discard), `missed` (best - played; 0 when an unchallenged invalid word scored more) and `could_go_out` (the best play lays "
        "every card). The body of /score-round; a heavy request.",
        [],
        "RoundRequest",
        "RoundAnalysis",
        (400, 404, 413, 415, 422, 503),
    ),
    (
        "get",
        "/deal",
        "Deal a round from a seed",
        "The round's hands (seat order; the dealer passes left each round), face-up card and draw pile, dealt by the q1 specification "
        "(docs/deals.md) that any language can reproduce: SHA-256 counter stream, rejection sampling, Fisher-Yates. "
        "Too many players for the deck, a round the ruleset does not have or a malformed seed: 422 naming the field.",
        [_q("ruleset", "Ruleset id (default `standard`): its deck and hand sizes."), _q("players", "Seats.", True), _q("round", "Round, 1 first.", True), _q("seed", "64 hex digits; random when left out.")],
        None,
        "Deal",
        (400, 404, 422),
    ),
    (
        "get",
        "/solitaire/deal",
        "Deal a solitaire layout",
        "8 piles of 6 (5 face down, the top face up; `piles` and `depth` for other sizes) from the q1 shuffle of a seed (docs/deals.md, section 9).",
        [_q("ruleset", "Ruleset id (default `standard`): its deck."), _q("seed", "64 hex digits; random when left out."), _q("piles", "Piles (default 8)."), _q("depth", "Cards a pile (default 6).")],
        None,
        "SolitaireDeal",
        (400, 404, 422),
    ),
    (
        "post",
        "/solitaire/move",
        "Play a solitaire move",
        "A word (the piles whose face-up top cards make it, in the word's order): valid or not with the verdict's reason, and the layout after it "
        "(the card under each used one turned up; unchanged when the word is refused). Or a rebuild: the top card of pile `from` onto the empty pile `to`.",
        [],
        "SolitaireMoveBody",
        "SolitaireMove",
        (400, 404, 413, 415, 422),
    ),
    (
        "post",
        "/solitaire/solve",
        "Solve a solitaire layout",
        "Whether the layout can be cleared and a way to do it, else the most cards some sequence of moves lays; exact within `budget_ms`, "
        "`truncated` past it (the full 48 cards usually are). A heavy request.",
        [],
        "SolitaireSolveBody",
        "SolitaireSolution",
        (400, 404, 413, 415, 422, 503),
    ),
    ("get", "/health", "Process is up", "Constant answer; also the bare endpoint of the HTTP benchmark.", [], None, "Health", ()),
    (
        "get",
        "/ready",
        "Ready for traffic",
        "200 once a lexicon is loaded (languages still building are listed under `building`); 503 while none is, and from SIGTERM on.",
        [],
        None,
        "Ready",
        (503,),
    ),
    (
        "get",
        "/metrics",
        "Prometheus metrics",
        "Requests by endpoint and status, latency histograms, in-flight and shed requests, cache sizes, lexicon stamps; "
        "Prometheus text exposition format, for all workers.",
        [],
        None,
        None,
        (),
    ),
    ("get", "/openapi.json", "This document", "OpenAPI 3.0 description of the API.", [], None, None, ()),
    ("get", "/docs", "Human-readable docs", "This API as an HTML page that needs no internet access.", [], None, None, ()),
    ("get", "/console", "The referee console", "An HTML page (docs/pages.md): sign in with a token, enter rounds from the slip, corrections, standings.", [], None, None, ()),
    ("get", "/judge", "The judge kiosk", "An HTML page (docs/pages.md): a challenge's words judged acceptable or not, never which word; recorded in the event's audit.", [], None, None, ()),
    (
        "post",
        "/qr",
        "A QR code",
        "The text as a QR code, SVG (made by segno; 4 modules of quiet zone, no size: a viewBox), for the console's sign-in links (docs/pages.md). "
        "No token; nothing is stored, the body is never logged, and the answer is Cache-Control: no-store.",
        [],
        "QrBody",
        None,
        (400, 413, 415, 422),
    ),
    ("get", "/assets/{name}", "The pages' assets", "common.js, console.js, dashboard.js, judge.js, pages.css: served as committed, with ETag.",
     [{"name": "name", "in": "path", "required": True, "description": "The asset's file name.", "schema": {"type": "string", "enum": list(pages.ASSETS)}}], None, None, (404,)),
]

BEST_MELD = (
    "post",
    "/best-meld",
    "Best play for a hand",
    "The exact best arrangement of a hand into words (points of words minus unused cards), with the discard chosen when the hand "
    "has drawn; `top` next-best plays, the best longest-word and most-words plays; `face_up` advice on taking the discard pile's card.",
    [],
    "BestMeldRequest",
    "BestMeld",
    (400, 404, 413, 415, 422, 503),
)

def _in_path(name: str, description: str) -> dict[str, Any]:
    schema = {"type": "integer", "minimum": 0, "maximum": rounds.MAX_ROUNDS} if name == "round" else {"type": "string", "pattern": ID_PATTERN, "maxLength": 64}
    return {"name": name, "in": "path", "required": True, "description": description, "schema": schema}


EVENT, GAME, ROUND = _in_path("event", "The event's id."), _in_path("game", "The table's id within the event."), _in_path("round", "The round number, 1 first.")
IF_MATCH = {"name": "If-Match", "in": "header", "required": False, "description": "A correction's: the round's current ETag.", "schema": {"type": "string"}}
#: Who may call a ledger operation: ``token`` (a bearer token the operation's role allows) or ``public`` (a token only for private events).
TOKEN, PUBLIC = "token", "public"

#: The ledger's operations (docs/ledger.md): (method, path, summary, description, parameters, request schema, {status: response schema}, error statuses, access)
LEDGER_ENDPOINTS: list[tuple[str, str, str, str, list[dict[str, Any]], str | None, dict[int, str], tuple[int, ...], str]] = [
    ("post", "/events", "Create an event", "Admin token. Snapshots the ruleset and the lexicon stamp; the answer carries the event's director token, once.",
     [], "EventBody", {201: "Event"}, (400, 401, 403, 404, 409, 413, 415, 422), TOKEN),
    ("post", "/events/import", "Import an event", "Admin token. An export document; refused (422) unless its audit chain and rows verify, its own checkpoint "
     "(when present) is the head of exactly its entries and every round scores as stored; 409 if the id is taken. The answer carries a new director token. "
     "Limits: the body at most WORDSVC_MAX_IMPORT_BODY bytes (16 MiB unless the server sets more; 413 past it) and each list at most 100,000 rows (422). "
     "A larger event moves with `wordsvc event export EVENT -o FILE` and `wordsvc event import FILE` on a machine that reaches the receiving "
     "database (the same checks, no body limit; docs/ledger.md, \"Moving an event\").", [], "ImportBody", {201: "Event"}, (400, 401, 403, 409, 413, 415, 422), TOKEN),
    ("get", "/whoami", "Who a token is", "Any live token: its id, role, event and table (never the token). 401 without one.", [], None, {200: "Whoami"}, (401,), TOKEN),
    ("get", "/events/{event}", "An event", "Its ruleset snapshot, lexicon stamp, status and tables.", [EVENT], None, {200: "Event"}, (401, 403, 404), PUBLIC),
    ("put", "/events/{event}/games/{game}", "Seat a table", "Director token. Players in seat order; 201 the first time, 200 for the same players again, 409 for others.",
     [EVENT, GAME], "GameBody", {201: "Game", 200: "Game"}, (400, 401, 403, 404, 409, 413, 415, 422), TOKEN),
    ("get", "/events/{event}/games/{game}", "A table", "Each round's current revision, result and running totals; the table's totals.",
     [EVENT, GAME], None, {200: "Game"}, (401, 403, 404, 409), PUBLIC),
    ("put", "/events/{event}/games/{game}/rounds/{round}", "Submit a round",
     "Referee or director token. The body of /score-round without ruleset or language. First time 201; the same play again 200 with the stored result; "
     "another play 409, unless a director sends `correction` with If-Match: the round's ETag (a stale one is 412, none is 428).",
     [EVENT, GAME, ROUND, IF_MATCH], "RoundSubmission", {201: "Round", 200: "Round"}, (400, 401, 403, 404, 409, 412, 413, 415, 422, 428), TOKEN),
    ("post", "/events/{event}/games/{game}/rounds/{round}/preview", "Preview a round",
     "Referee or director token. The submission's body without `correction`: every check a submission makes, the result under the event's snapshot "
     "and the running totals with it; nothing is stored or audited.",
     [EVENT, GAME, ROUND], "RoundSubmission", {200: "RoundPreview"}, (400, 401, 403, 404, 409, 413, 415, 422), TOKEN),
    ("get", "/events/{event}/games/{game}/rounds/{round}", "A round", "Its current revision with ETag, running totals and every revision kept.",
     [EVENT, GAME, ROUND], None, {200: "RoundDetail"}, (401, 403, 404, 409), PUBLIC),
    ("get", "/events/{event}/games/{game}/rounds/{round}/deal", "A seeded event's deal",
     "The round's cards by seat, face-up card and draw pile (docs/deals.md). Before the event is closed: the table's referee once the round "
     "before is stored, a director at any time; after closing: anyone who may read the event, with the deal id.",
     [EVENT, GAME, ROUND], None, {200: "RoundDeal"}, (401, 403, 404, 422), PUBLIC),
    ("get", "/events/{event}/games/{game}/rounds/{round}/analysis", "Analyse a stored round",
     "The /analyse-round answer for the round's current revision (with event, game, revision), under the event's ruleset snapshot and lexicon; "
     "played is rescored from the stored play under that lexicon. 409 while the loaded lexicon is not the event's. A heavy request.",
     [EVENT, GAME, ROUND], None, {200: "EventRoundAnalysis"}, (401, 403, 404, 409, 503), PUBLIC),
    ("post", "/events/{event}/close", "Close an event", "Director token. The event is final: no more rounds, tables, judge rulings or lexicon changes (409); a seeded event's seed is revealed (audited).",
     [EVENT], None, {200: "Event"}, (401, 403, 404, 409), TOKEN),
    ("get", "/events/{event}/standings", "Standings", "Rank, player, table, rounds played, total; equal totals share a rank. CSV with Accept: text/csv or format=csv (a name that would start a spreadsheet formula, with = + - or @, gets a leading apostrophe there).",
     [EVENT], None, {200: "Standings"}, (400, 401, 403, 404, 409, 422), PUBLIC),
    ("get", "/events/{event}/export", "Export an event", "Director token. Everything needed to rebuild the event elsewhere (no token secrets).",
     [EVENT], None, {200: "ExportDocument"}, (401, 403, 404, 409), TOKEN),
    ("post", "/events/{event}/judge", "A recorded judge ruling", "Referee or director token. Acceptable or not, the count and the lexicon, never which word; recorded in the audit.",
     [EVENT], "JudgeBody", {200: "JudgeRuling"}, (400, 401, 403, 404, 409, 413, 415, 422), TOKEN),
    ("get", "/events/{event}/audit", "The audit trail", "Append-only, hash-chained entries of every write; `wordsvc audit verify` recomputes the chain.",
     [EVENT], None, {200: "Audit"}, (400, 401, 403, 404, 422), PUBLIC),
    ("get", "/events/{event}/checkpoint", "The event's signed head",
     "How many audit entries the event's log holds, their RFC 9162 Merkle root and the time, signed with the service's Ed25519 key (unsigned, "
     "`signature` null, without WORDSVC_LEDGER_KEY_FILE). Keep it: a later log must extend it (docs/ledger.md). 409 if the chain has a gap, or ends "
     "with an entry the service did not sign: then every answer that would sign a head, and every write, is a 409 until an operator decides "
     "(`wordsvc audit accept`).",
     [EVENT], None, {200: "Checkpoint"}, (401, 403, 404, 409), PUBLIC),
    ("get", "/events/{event}/proof", "An entry's inclusion proof",
     "That audit entry `seq` is in the tree of the log's first `tree_size` entries (default: all): the entry's hash, that tree's root and the "
     "RFC 9162 audit path. 422 for a seq past tree_size or a tree_size past the log (a log shorter than a receipt's tree lost entries).",
     [EVENT], None, {200: "InclusionProof"}, (400, 401, 403, 404, 409, 422), PUBLIC),
    ("get", "/events/{event}/consistency", "A consistency proof",
     "That the tree of the log's first `from` entries (a checkpoint's tree_size) is the start of the tree of its first `to` (default: all): "
     "both roots and the RFC 9162 proof. 422 for from past to or to past the log.",
     [EVENT], None, {200: "ConsistencyProof"}, (400, 401, 403, 404, 409, 422), PUBLIC),
    ("post", "/events/{event}/lexicon", "Accept the loaded lexicon", "Director token. Moves the event to the lexicon the service has loaded now (audited); 409 if the event is closed.",
     [EVENT], None, {200: "Event"}, (401, 403, 404, 409), TOKEN),
    ("post", "/events/{event}/tokens", "Issue a token", "Director token. A director, referee (optionally for one table) or viewer token, shown once.",
     [EVENT], "TokenBody", {201: "IssuedToken"}, (400, 401, 403, 404, 409, 413, 415, 422), TOKEN),
    ("get", "/events/{event}/tokens", "The event's tokens", "Director token. Ids, roles, tables, revocation; never a secret.", [EVENT], None, {200: "TokenList"}, (401, 403, 404), TOKEN),
    ("delete", "/events/{event}/tokens/{token_id}", "Revoke a token", "Director token.",
     [EVENT, {"name": "token_id", "in": "path", "required": True, "description": "The token's id.", "schema": {"type": "string"}}], None, {200: "Token"},
     (401, 403, 404, 409), TOKEN),
]

#: (method, path) -> (operationId, tag). Generated clients name their methods after the operationId (``validateWord``,
#: Python's ``validate_word``) and group them by the tag (docs/clients.md); every operation has both.
OPERATIONS: dict[tuple[str, str], tuple[str, str]] = {
    ("get", "/validate"): ("validateWord", "words"),
    ("post", "/validate"): ("validateWords", "words"),
    ("get", "/words"): ("findWords", "words"),
    ("get", "/anagrams"): ("findAnagrams", "words"),
    ("get", "/suggest"): ("suggestWords", "words"),
    ("get", "/lexicons/diff"): ("diffLexicons", "words"),
    ("post", "/score-round"): ("scoreRound", "scoring"),
    ("post", "/score-game"): ("scoreGame", "scoring"),
    ("post", "/best-meld"): ("bestMeld", "scoring"),
    ("post", "/analyse-round"): ("analyseRound", "scoring"),
    ("get", "/deal"): ("dealRound", "deals"),
    ("get", "/solitaire/deal"): ("dealSolitaire", "solitaire"),
    ("post", "/solitaire/move"): ("playSolitaireMove", "solitaire"),
    ("post", "/solitaire/solve"): ("solveSolitaire", "solitaire"),
    ("get", "/rulesets"): ("listRulesets", "catalogue"),
    ("get", "/rulesets/{ruleset_id}"): ("getRuleset", "catalogue"),
    ("get", "/languages"): ("listLanguages", "catalogue"),
    ("get", "/health"): ("getHealth", "service"),
    ("get", "/ready"): ("getReady", "service"),
    ("get", "/metrics"): ("getMetrics", "service"),
    ("get", "/openapi.json"): ("getOpenapi", "service"),
    ("get", "/docs"): ("getDocs", "service"),
    ("get", "/console"): ("getConsolePage", "pages"),
    ("get", "/judge"): ("getJudgePage", "pages"),
    ("get", "/assets/{name}"): ("getAsset", "pages"),
    ("post", "/qr"): ("makeQrCode", "pages"),
    ("post", "/events"): ("createEvent", "ledger"),
    ("post", "/events/import"): ("importEvent", "ledger"),
    ("get", "/whoami"): ("whoami", "ledger"),
    ("get", "/events/{event}"): ("getEvent", "ledger"),
    ("put", "/events/{event}/games/{game}"): ("seatTable", "ledger"),
    ("get", "/events/{event}/games/{game}"): ("getTable", "ledger"),
    ("put", "/events/{event}/games/{game}/rounds/{round}"): ("submitRound", "ledger"),
    ("post", "/events/{event}/games/{game}/rounds/{round}/preview"): ("previewRound", "ledger"),
    ("get", "/events/{event}/games/{game}/rounds/{round}"): ("getRound", "ledger"),
    ("get", "/events/{event}/games/{game}/rounds/{round}/deal"): ("getRoundDeal", "ledger"),
    ("get", "/events/{event}/games/{game}/rounds/{round}/analysis"): ("analyseStoredRound", "ledger"),
    ("post", "/events/{event}/close"): ("closeEvent", "ledger"),
    ("get", "/events/{event}/standings"): ("getStandings", "ledger"),
    ("get", "/events/{event}/export"): ("exportEvent", "ledger"),
    ("post", "/events/{event}/judge"): ("recordJudgeRuling", "ledger"),
    ("get", "/events/{event}/audit"): ("getAudit", "ledger"),
    ("get", "/events/{event}/checkpoint"): ("getCheckpoint", "ledger"),
    ("get", "/events/{event}/proof"): ("getInclusionProof", "ledger"),
    ("get", "/events/{event}/consistency"): ("getConsistencyProof", "ledger"),
    ("post", "/events/{event}/lexicon"): ("acceptLexicon", "ledger"),
    ("post", "/events/{event}/tokens"): ("issueToken", "ledger"),
    ("get", "/events/{event}/tokens"): ("listTokens", "ledger"),
    ("delete", "/events/{event}/tokens/{token_id}"): ("revokeToken", "ledger"),
    **TOURNAMENT_OPERATIONS,
    **DOCUMENT_OPERATIONS,
}

#: The ledger's query schemas, as QUERY_SCHEMAS.
LEDGER_QUERIES: dict[str, type[Schema]] = {
    "/events/{event}/standings": ledger_schemas.StandingsQuery,
    "/events/{event}/audit": ledger_schemas.AuditQuery,
    "/events/{event}/proof": ledger_schemas.ProofQuery,
    "/events/{event}/consistency": ledger_schemas.ConsistencyQuery,
}

EXTRA_SCHEMAS: dict[str, dict[str, Any]] = {
    "VerdictsOrJudge": {"oneOf": [{"$ref": "#/components/schemas/Verdicts"}, {"$ref": "#/components/schemas/Judge"}]},
    "RulesetList": {
        "type": "object",
        "required": ["rulesets"],
        "properties": {"rulesets": {"type": "array", "items": {"$ref": "#/components/schemas/RulesetSummary"}}},
    },
    "RulesetSummary": {
        "type": "object",
        "required": ["id", "name", "description", "language", "extends"],
        "properties": {k: {"type": "string", "nullable": k == "extends"} for k in ("id", "name", "description", "language", "extends")},
    },
    "Ruleset": {
        "allOf": [
            {"$ref": "#/components/schemas/RulesetSummary"},
            {
                "type": "object",
                "required": ["players", "rounds", "deck", "words", "bonuses", "floor", "unused", "solitaire"],
                "properties": {
                    "players": {"type": "object", "properties": {"min": {"type": "integer"}, "max": {"type": "integer"}}},
                    "rounds": {"type": "array", "items": {"type": "integer"}, "description": "Hand size of each round."},
                    "deck": {
                        "type": "object",
                        "properties": {
                            "cards": {
                                "type": "array",
                                "items": {
                                    "type": "object",
                                    "properties": {"face": {"type": "string"}, "count": {"type": "integer"}, "value": {"type": "integer"}},
                                },
                            },
                            "size": {"type": "integer"},
                            "total_value": {"type": "integer"},
                        },
                    },
                    "words": {"type": "object", "additionalProperties": True, "description": "What a word needs and which are refused (docs/rules.md)."},
                    "bonuses": {"type": "object", "additionalProperties": True, "description": "The bonuses, their measure and ties (docs/rules.md)."},
                    "floor": {"type": "string", "enum": ["total", "before_bonuses", "none"]},
                    "unused": {"type": "string", "enum": ["subtract", "ignore"], "description": "Whether cards left over cost their value."},
                    "solitaire": {"type": "object", "additionalProperties": True, "description": "Solitaire's piles, depth and rebuilding knobs."},
                },
            },
        ]
    },
    "LanguageList": {
        "type": "object",
        "required": ["languages"],
        "properties": {
            "languages": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id", "name", "tags", "version", "sha256", "entries", "source", "licence", "attribution", "ruleset"],
                    "properties": {
                        "id": {"type": "string"},
                        "name": {"type": "string"},
                        "tags": {"type": "array", "items": {"type": "string"}},
                        "version": {"type": "string"},
                        "sha256": {"type": "string"},
                        "entries": {"type": "integer", "nullable": True, "description": "Distinct forms; null for an analyser."},
                        "source": {"type": "string"},
                        "licence": {"type": "string"},
                        "attribution": {"type": "string"},
                        "ruleset": {
                            "type": "string",
                            "description": "The ruleset this lexicon is played with: the one a request naming this language and no ruleset gets.",
                        },
                    },
                },
            }
        },
    },
    "Health": {"type": "object", "required": ["status"], "properties": {"status": {"type": "string", "enum": ["ok"]}}},
    "Ready": {
        "type": "object",
        "required": ["status", "languages", "building", "rulesets"],
        "properties": {
            "status": {"type": "string", "enum": ["ready"]},
            "languages": {"type": "array", "items": {"type": "string"}, "description": "Lexicons loaded and answering."},
            "building": {"type": "array", "items": {"type": "string"}, "description": "Lexicons `wordsvc build` is still building: 503 with Retry-After until done."},
            "rulesets": {"type": "integer"},
        },
    },
}


#: path -> the schema its GET view loads the query with; the parameters' schemas are derived from it.
QUERY_SCHEMAS: dict[str, type[Schema]] = {
    "/validate": validate.ValidateQuery,
    "/words": WordsQuery,
    "/anagrams": AnagramsQuery,
    "/suggest": SuggestQuery,
    "/lexicons/diff": DiffQuery,
    "/deal": DealQuery,
    "/solitaire/deal": solitaire_schemas.DealLayoutQuery,
}


#: The branch apispec gives a nullable nested schema beside its ``$ref`` (OpenAPI 3.0 has no ``type: null``): as written,
#: any object or null, which a client generator types as one more, anonymous, object; ``enum: [null]`` makes it null only.
_APISPEC_NULL = {"type": "object", "nullable": True}


def _wordsvc_fields(self: Any, field: fields.Field, ret: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """An apispec attribute function: what marshmallow's validators do not say.

    A field of :mod:`wordsvc.schemas` that reads its value itself (cards,
    words, patterns) says its OpenAPI shape with ``openapi_schema()``;
    :func:`~wordsvc.schemas.common.check_text` is a pattern. A nullable
    nested schema is the schema or null, nothing else (``enum: [null]`` on
    apispec's null branch); a nullable choice is named by a ``title``, so a
    generated client makes one enum of it (openapi-python-client otherwise
    nests a new one for each reading of the null).
    """
    out: dict[str, Any] = {}
    own = getattr(field, "openapi_schema", None)
    if callable(own):
        out.update(own())
    if common.check_text in field.validators:
        out["pattern"] = common.TEXT_PATTERN
    if field.allow_none:
        for branch in ret.get("anyOf", ()):
            if branch == _APISPEC_NULL:
                branch["enum"] = [None]
        if None in ret.get("enum", ()) and field.name:
            out["title"] = "".join(part.capitalize() for part in field.name.split("_"))
    return out


def _query_parameters(plugin: MarshmallowPlugin, schema: type[Schema], written: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``written`` (names, order, prose) with each parameter's schema and ``required`` from ``schema``; a field not written is added."""
    derived = {p["name"]: p for p in plugin.converter.schema2parameters(schema, location="query")}  # type: ignore[union-attr]
    out = []
    for param in written:
        found = derived.pop(param["name"], None)
        if found is None:
            raise LookupError(f"{schema.__name__} reads no query parameter {param['name']!r}, which is documented")
        out.append({**param, "required": found["required"], "schema": _query_value(found["schema"])})
    out.extend({**found, "schema": _query_value(found["schema"])} for found in derived.values())
    return out


def _query_value(schema: dict[str, Any]) -> dict[str, Any]:
    """A query parameter is one string, never null: of a field that reads a string or a list, the string."""
    value = next((branch for branch in schema.get("oneOf", ()) if branch.get("type") == "string"), None)
    if value is not None:
        schema = {**{k: v for k, v in schema.items() if k != "oneOf"}, **value}
    if "enum" in schema:
        schema = {**schema, "enum": [v for v in schema["enum"] if v is not None]}
    return {k: v for k, v in schema.items() if k != "nullable" and not (k == "default" and v is None)}


def _named(method: str, path: str) -> dict[str, Any]:
    """The operation's ``operationId`` and ``tags`` (:data:`OPERATIONS`); an operation left out there is a LookupError."""
    try:
        operation_id, tag = OPERATIONS[(method, path)]
    except KeyError:
        raise LookupError(f"{method.upper()} {path} has no operationId in OPERATIONS") from None
    return {"operationId": operation_id, "tags": [tag]}


@lru_cache(maxsize=1)
def spec() -> dict[str, Any]:
    plugin = MarshmallowPlugin()
    api = APISpec(
        title="wordsvc",
        version=__version__,
        openapi_version="3.0.3",
        plugins=[plugin],
        info={"description": "Dictionary and rules-variant server for the card game Quiddler. Every error is application/problem+json (RFC 9457)."},
    )
    plugin.converter.add_attribute_function(_wordsvc_fields)  # type: ignore[union-attr]
    nested_first = sorted(search.OPENAPI_SCHEMAS, key=lambda pair: pair[0] != "Suggestion")  # named before others nest it
    for name, schema in [*nested_first, ("BestMeldRequest", solver_schemas.BestMeldRequest), ("BestMeld", solver_schemas.BestMeldOut)]:
        api.components.schema(name, schema=schema)  # first: the verdict's suggestions refer to Suggestion
    for name, schema in [
        ("ValidateBody", validate.ValidateBody),
        ("QrBody", QrBody),
        ("RoundRequest", rounds.RoundRequest),
        ("GameRequest", rounds.GameRequest),
        ("Verdict", validate.VerdictOut),
        ("Verdicts", validate.VerdictsOut),
        ("Judge", validate.JudgeOut),
        ("RoundResult", rounds.RoundResultOut),
        ("GameResult", rounds.GameResultOut),
        ("ProblemEntry", common.ProblemEntryOut),
        ("Problem", common.ProblemOut),
        ("LexiconDiff", LexiconDiffOut),
        ("Deal", DealOut),
        ("SolitaireMoveBody", solitaire_schemas.MoveBody),
        ("SolitaireSolveBody", solitaire_schemas.SolveBody),
        ("SolitaireDeal", solitaire_schemas.DealtLayoutOut),
        ("SolitaireMove", solitaire_schemas.MoveOut),
        ("SolitaireSolution", solitaire_schemas.SolutionOut),
        ("RoundAnalysis", analysis_schemas.RoundAnalysisOut),
        ("EventRoundAnalysis", analysis_schemas.EventRoundAnalysisOut),
        ("EventBody", ledger_schemas.EventBody),
        ("GameBody", ledger_schemas.GameBody),
        ("RoundSubmission", ledger_schemas.RoundSubmission),
        ("TokenBody", ledger_schemas.TokenBody),
        ("JudgeBody", ledger_schemas.JudgeBody),
        ("Checkpoint", ledger_schemas.CheckpointOut),
        ("Receipt", ledger_schemas.ReceiptOut),
        ("Event", ledger_schemas.EventOut),
        ("Round", ledger_schemas.RoundOut),
        ("RoundPreview", ledger_schemas.PreviewOut),
        ("Whoami", ledger_schemas.WhoamiOut),
        ("RoundDetail", ledger_schemas.RoundDetailOut),
        ("Game", ledger_schemas.GameOut),
        ("Standings", ledger_schemas.StandingsOut),
        ("Token", ledger_schemas.TokenOut),
        ("IssuedToken", ledger_schemas.IssuedTokenOut),
        ("TokenList", ledger_schemas.TokenListOut),
        ("JudgeRuling", ledger_schemas.JudgeRulingOut),
        ("Audit", ledger_schemas.AuditOut),
        ("InclusionProof", ledger_schemas.InclusionProofOut),
        ("ConsistencyProof", ledger_schemas.ConsistencyProofOut),
        ("ExportDocument", ledger_schemas.ExportOut),
        ("ImportBody", ledger_schemas.ImportBody),
        ("RoundDeal", ledger_schemas.RoundDealOut),
        *TOURNAMENT_SCHEMAS,
        *STREAM_SCHEMAS,
    ]:
        api.components.schema(name, schema=schema)
    for name, body in EXTRA_SCHEMAS.items():
        api.components.schema(name, body)
    paths: dict[str, dict[str, Any]] = {}
    for method, path, summary, description, params, request, response, errors in [*ENDPOINTS, *search.OPENAPI_ENDPOINTS, BEST_MELD]:
        if method == "get" and path in QUERY_SCHEMAS:
            params = _query_parameters(plugin, QUERY_SCHEMAS[path], params)
        operation: dict[str, Any] = {**_named(method, path), "summary": summary, "description": description, "parameters": params}
        if request:
            operation["requestBody"] = {"required": True, "content": _json(request)}
        ok: dict[str, Any] = {"description": "OK"}
        if response:
            ok["content"] = _json(response)
        elif path in ("/docs", "/console", "/judge"):
            ok["content"] = {"text/html": {"schema": {"type": "string"}}}
        elif path == "/assets/{name}":
            ok["content"] = {"text/javascript": {"schema": {"type": "string"}}, "text/css": {"schema": {"type": "string"}}}
        elif path == "/metrics":
            ok["content"] = {"text/plain": {"schema": {"type": "string"}}}
        elif path == "/qr":
            ok["content"] = {"image/svg+xml": {"schema": {"type": "string"}}}
        else:
            ok["content"] = {"application/json": {"schema": {"type": "object", "additionalProperties": True}}}
        operation["responses"] = {"200": ok, **_errors(*sorted({*errors, *ANY_OPERATION}))}
        paths.setdefault(path, {})[method] = operation
    queries = {**LEDGER_QUERIES, **TOURNAMENT_QUERIES, **DOCUMENT_QUERIES}
    for method, path, summary, description, params, request, answers, errors, access in [*LEDGER_ENDPOINTS, *TOURNAMENT_ENDPOINTS, *DOCUMENT_ENDPOINTS]:
        if method == "get" and path in queries:
            params = [*params, *_query_parameters(plugin, queries[path], [])]
        operation = {**_named(method, path), "summary": summary, "description": description, "parameters": params}
        operation["security"] = [{"bearer": []}] if access == TOKEN else [{}, {"bearer": []}]
        if request:
            operation["requestBody"] = {"required": True, "content": _json(request)}
        responses: dict[str, Any] = {}
        for status, schema in answers.items():
            content = dict(NOT_JSON[schema]) if schema in NOT_JSON else _json(schema)
            responses[str(status)] = {"description": "Created" if status == 201 else "OK", "content": content}
            if path in CSV_COLUMNS:
                content["text/csv"] = {"schema": {"type": "string", "description": CSV_COLUMNS[path]}}
            if path.endswith("/standings"):
                content["text/csv"] = {"schema": {"type": "string", "description": "rank,player,table,rounds,total (a tournament: the overall ranking's columns)"}}
                responses[str(status)]["headers"] = {
                    "Wordsvc-Checkpoint": {"description": "With text/csv: the event's checkpoint (as in the JSON standings), canonical JSON.", "schema": {"type": "string"}}
                }
        operation["responses"] = {**responses, **_errors(*sorted({*errors, *ANY_OPERATION}))}
        paths.setdefault(path, {})[method] = operation
    for path, operations in paths.items():
        api.path(path=path, operations=operations)
    api.components.security_scheme("bearer", {"type": "http", "scheme": "bearer", "description": "wsv_... tokens: `wordsvc token create --admin`, an event's director token, or one a director issued."})
    return _problem_codes(api.to_dict())


def _problem_codes(doc: dict[str, Any]) -> dict[str, Any]:
    """``ProblemCode``: every registered code as one named enum, which each problem's ``code`` refers to, so a generated client types it.

    A client treats a value it does not know as its status's generic problem
    (docs/problems.md): a code may be added in any version.
    """
    schemas = doc["components"]["schemas"]
    schemas["ProblemCode"] = {
        "type": "string",
        "enum": list(REGISTRY),
        "description": "A problem's stable code (docs/problems.md). New codes may be added in any version: treat one you do not know as its status's generic problem.",
    }
    for name in ("Problem", "ProblemEntry"):
        schemas[name]["properties"]["code"] = {"$ref": "#/components/schemas/ProblemCode"}  # OpenAPI 3.0: nothing beside a $ref
    return doc


def docs_html() -> str:
    """A self-contained page: endpoints, bodies, error types, settings. No scripts, no CDN."""
    doc = spec()
    parts = [
        "<!doctype html><html lang=en><meta charset=utf-8><title>wordsvc API</title>",
        "<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
        "code,pre{background:#f4f4f4;padding:.1em .3em}pre{padding:.6em;overflow:auto}h2{border-top:1px solid #ccc;padding-top:.6em}</style>",
        f"<h1>wordsvc {html.escape(doc['info']['version'])}</h1><p>{html.escape(doc['info']['description'])}</p>",
        "<p>Machine-readable: <a href=/openapi.json>/openapi.json</a>.</p>",
    ]
    for path, operations in doc["paths"].items():
        for method, op in operations.items():
            parts.append(f"<h2 id='{method}-{html.escape(path)}'><code>{method.upper()} {html.escape(path)}</code>: {html.escape(op['summary'])}</h2>")
            parts.append(f"<p>{html.escape(op['description'])}</p>")
            if op.get("parameters"):
                parts.append(
                    "<ul>"
                    + "".join(
                        f"<li><code>{html.escape(p['name'])}</code>{' (required)' if p.get('required') else ''}: {html.escape(p.get('description', ''))}</li>"
                        for p in op["parameters"]
                    )
                    + "</ul>"
                )
            if "requestBody" in op:
                ref = op["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
                parts.append(f"<p>Body: <a href='#schema-{ref}'>{ref}</a></p>")
            parts.append("<p>Responses: " + ", ".join(html.escape(code) for code in op["responses"]) + "</p>")
    parts.append(
        "<h2>Errors</h2><p>Every error has the shape <a href='#schema-Problem'>Problem</a>: <code>type</code> is one of the problem types below, "
        "one per status; <code>code</code> is the problem's stable code, listed under its type (switch on it, never on a message); "
        "<code>errors</code> maps each field path to its problems, each a <code>code</code> and a <code>message</code> "
        f"(at most {common.MAX_LISTED_ERRORS}; past them <code>{common.MORE_ERRORS}</code> says how many more there are).</p><ul>"
    )
    for status, (slug, _) in PROBLEM_TYPES.items():
        listed = ", ".join(f"<code>{code.code}</code> ({html.escape(code.meaning)})" for code in REGISTRY.values() if status in code.statuses)
        parts.append(f"<li id='problem-{slug}'><code>{status}</code> {slug}{': ' + listed if listed else ''}</li>")
    parts.append("</ul><h2>Schemas</h2>")
    for name, schema in doc["components"]["schemas"].items():
        parts.append(f"<h3 id='schema-{name}'>{name}</h3><pre>{html.escape(json.dumps(schema, indent=1))}</pre>")
    parts.append("<h2>Settings</h2><ul>")
    for name, (default, meaning) in SETTINGS.items():
        parts.append(f"<li><code>{name}</code> (default {html.escape(default)}): {html.escape(meaning)}</li>")
    parts.append("</ul></html>")
    return "\n".join(parts)
