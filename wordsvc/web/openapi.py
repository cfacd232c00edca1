"""The OpenAPI 3 document, derived from the endpoints' declarations and the marshmallow schemas, and the /docs page.

Every endpoint is declared once, on its view
(:class:`~wordsvc.web.endpoints.Endpoint`); this module reads those records
from every blueprint (:data:`~wordsvc.web.views.BLUEPRINTS`) and names the
schemas they give as classes (:data:`COMPONENTS`). Request and response
bodies come from :mod:`wordsvc.schemas`, so a field added there shows here,
and so do the query parameters of every endpoint that reads its query with
a schema: the declaration gives their order and prose, the schema their
type, limits and whether they are required. Every limit a schema enforces
is stated: apispec reads marshmallow's validators, and
:func:`_wordsvc_fields` adds what it cannot see (the card fields' own
shapes, :func:`~wordsvc.schemas.common.check_text` as a pattern). A test
checks every response of the service against the document, and another
that each stated limit is the one enforced. Every operation is named (its
declaration's ``operation_id`` and ``tag``) for the clients generated from
the document (docs/clients.md).
"""

from __future__ import annotations

import copy
import html
import json
from functools import lru_cache
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import Schema, fields

from .. import __version__
from ..config import SETTINGS
from ..core.problem_codes import REGISTRY
from ..schemas import analysis as analysis_schemas
from ..schemas import best_meld as solver_schemas
from ..schemas import common, play, rounds, validate
from ..schemas import events as ledger_schemas
from ..schemas import solitaire as solitaire_schemas
from ..schemas import tournaments as t
from ..schemas import words as search
from ..schemas.deals import DealOut
from ..schemas.lexicons import LexiconDiffOut
from ..schemas.qr import QrBody
from .endpoint_codes import endpoint_codes
from .endpoints import TOKEN, Content, Endpoint, JsonSchema
from .openapi_schemas import EXTRA_SCHEMAS, STREAM_SCHEMAS
from .problems import PROBLEM_TYPES
from .views import BLUEPRINTS

__all__ = ["COMPONENTS", "declared", "docs_html", "query_schemas", "spec"]

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


def _errors(endpoint: Endpoint) -> dict[str, Any]:
    """Each error status's answer: a Problem, with ``x-problem-codes``, the registered codes of that status this endpoint can answer.

    The codes are the endpoint's (:func:`~.endpoint_codes.endpoint_codes`),
    in the registry's order (docs/problems.md), so a client can switch over
    them exhaustively; an endpoint that names no domain codes yet lists every
    code the registry gives the status.
    """
    own = endpoint_codes(endpoint)
    return {
        str(status): {
            "description": ANY_OPERATION.get(status) or PROBLEM_TYPES[status][0].replace("-", " "),
            "content": PROBLEM,
            "x-problem-codes": [code.code for code in REGISTRY.values() if status in code.statuses and (own is None or code.code in own)],
        }
        for status in sorted({*endpoint.errors, *ANY_OPERATION})
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



#: The marshmallow schemas the document names, in the order it lists them: a declaration gives a schema as its class, and the
#: document refers to it by this name. The word search's schemas first, Suggestion before them all (the verdict nests it).
COMPONENTS: list[tuple[str, type[Schema]]] = [
    ("Suggestion", search.SuggestionOut),
    ("Words", search.WordsOut),
    ("Anagrams", search.AnagramsOut),
    ("Suggest", search.SuggestOut),
    ("BestMeldRequest", solver_schemas.BestMeldRequest),
    ("BestMeld", solver_schemas.BestMeldOut),
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
    ("PlayerBody", t.PlayerBody),
    ("PlayerLine", t.PlayerLine),
    ("PlayersBody", t.PlayersBody),
    ("CheckInBody", t.CheckInBody),
    ("SessionBody", t.SessionBody),
    ("SwapBody", t.SwapBody),
    ("ScheduleBody", t.ScheduleBody),
    ("RatedBody", t.RatedBody),
    ("EventPlayer", t.EventPlayerOut),
    ("EventPlayerList", t.EventPlayerListOut),
    ("PlayerDeleted", t.PlayerDeletedOut),
    ("Session", t.SessionOut),
    ("SessionList", t.SessionListOut),
    ("Schedule", t.ScheduleOut),
    ("Rated", t.RatedOut),
    ("Crosstable", t.CrosstableOut),
    ("Rating", t.RatingOut),
    ("RatingList", t.RatingListOut),
    ("TableKnobs", play.KnobsBody),
    ("TableClock", play.ClockBody),
    ("BotSeat", play.BotSeat),
    ("TableBody", play.TableBody),
    ("SeatBody", play.SeatBody),
    ("PlayMove", play.MoveSchema),
    ("MoveBody", play.MoveBody),
    ("TableSeat", play.SeatOut),
    ("Table", play.TableOut),
    ("CreatedTable", play.CreatedTableOut),
    ("TableList", play.TablesOut),
    ("SeatTaken", play.SeatTakenOut),
    ("HostBody", play.HostBody),
    ("HandBody", play.HandBody),
    ("IssuedSeat", play.IssuedSeatOut),
    ("HostedTable", play.HostedOut),
    ("PlayedRound", play.FinishedRoundOut),
    ("RoundView", play.RoundViewOut),
    ("PlayState", play.StateOut),
    ("Play", play.PlayOut),
    ("Moved", play.MovedOut),
    ("PlayLog", play.LogOut),
    ("PlayReplay", play.ReplayOut),
    *STREAM_SCHEMAS,
]


def declared() -> list[Endpoint]:
    """Every endpoint's declaration, in the order the app registers their blueprints."""
    return [endpoint for blueprint in BLUEPRINTS for endpoint in blueprint.endpoints]


def query_schemas() -> dict[str, type[Schema]]:
    """path -> the schema its GET view loads the query with, for every endpoint that reads its query with one."""
    return {e.path: e.query for e in declared() if e.method == "get" and e.query is not None}


def _content(answer: Any, names: dict[type, str]) -> dict[str, Any]:
    """An answer's ``content``: a schema by its component's name, a JSON Schema component by its own, other content as declared."""
    if isinstance(answer, Content):
        return copy.deepcopy(dict(answer.media))
    if isinstance(answer, JsonSchema):
        return _json(answer.name)
    try:
        return _json(names[answer])
    except KeyError:
        raise LookupError(f"{answer.__name__} answers an endpoint but is not in COMPONENTS") from None


def _operation(plugin: MarshmallowPlugin, endpoint: Endpoint, names: dict[type, str]) -> dict[str, Any]:
    """The document's operation for one declaration."""
    params = [dict(p) for p in endpoint.parameters]
    if endpoint.query is not None:
        written = [p for p in params if p["in"] == "query"]
        params = [*(p for p in params if p["in"] != "query"), *_query_parameters(plugin, endpoint.query, written)]
    operation: dict[str, Any] = {
        "operationId": endpoint.operation_id,
        "tags": [endpoint.tag],
        "summary": endpoint.summary,
        "description": endpoint.description,
        "parameters": params,
    }
    if endpoint.access is not None:
        operation["security"] = [{"bearer": []}] if endpoint.access == TOKEN else [{}, {"bearer": []}]
    if endpoint.body is not None:
        operation["requestBody"] = {"required": True, "content": _content(endpoint.body, names)}
    responses: dict[str, Any] = {}
    for status, answer in endpoint.answers.items():
        content = _content(answer, names)
        if endpoint.csv:
            content["text/csv"] = {"schema": {"type": "string", "description": endpoint.csv}}
        responses[str(status)] = {"description": "Created" if status == 201 else "OK", "content": content}
        if endpoint.headers:
            responses[str(status)]["headers"] = copy.deepcopy(dict(endpoint.headers))
    operation["responses"] = {**responses, **_errors(endpoint)}
    return operation


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
    for name, schema in COMPONENTS:
        api.components.schema(name, schema=schema)
    for name, body in EXTRA_SCHEMAS.items():
        api.components.schema(name, body)
    names = {schema: name for name, schema in COMPONENTS}
    paths: dict[str, dict[str, Any]] = {}
    for endpoint in declared():
        if endpoint.documented:
            paths.setdefault(endpoint.path, {})[endpoint.method] = _operation(plugin, endpoint, names)
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
    """A self-contained page: endpoints (with the roles that may call them), bodies, error types, settings. No scripts, no CDN."""
    doc = spec()
    roles = {(e.method, e.path): e.roles for e in declared()}
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
            if roles.get((method, path)):
                parts.append("<p>Roles: " + ", ".join(roles[(method, path)]) + "</p>")
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
