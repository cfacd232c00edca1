"""Printed documents over HTTP: ``GET /events/{event}/documents/{kind}`` answers a PDF (docs/documents.md).

Load, call, dump: the views are read from the ledger with the reader's own
token, so a document follows the read rules of the JSON it is made from (a
private event needs a token; the audit summary a director's); the pure
builders in :mod:`wordsvc.core.documents` lay them out in the event's
language, and :mod:`wordsvc.service.pdf` draws them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from flask import Response, current_app, request

from ...core import documents as docs
from ...core import problem_codes as codes
from ...ledger import NotFound, require_director
from ...schemas.tournaments import DocumentQuery
from ...service.pdf import render_pdf
from ..admission import heavy
from ..endpoints import PDF, PUBLIC, Endpoint, Resource
from ..ledger_problems import ACCESS
from ..parameters import EVENT, KIND
from ..requests import query_args
from .ledger_access import ledger, principal

__all__ = ["bp", "console_link", "public_base"]

bp = Resource("documents", __name__)

DOCUMENT_QUERY = DocumentQuery()
#: Audit entries read per call while gathering an event's whole log (the API's own page limit).
AUDIT_PAGE = 1000


def console_link(event: str, table: str) -> str:
    """The console opened at ``table`` of ``event``: what a scorecard's QR code holds. Never a token.

    Absolute on the venue's address, ``WORDSVC_PUBLIC_URL``, when it is set
    (a laptop answering on 127.0.0.1 prints codes phones can reach, and a
    reverse proxy's outside address is not the one the request came in on);
    else on the address the request used.
    """
    return f"{public_base()}/console#event={quote(event, safe='')}&table={quote(table, safe='')}"


def public_base() -> str:
    """The address devices reach the service at, without a trailing slash: WORDSVC_PUBLIC_URL, else the request's own."""
    return current_app.extensions["wordsvc.settings"].public_url or request.host_url.rstrip("/")


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/documents/{kind}",
        operation_id="getDocument",
        tag="documents",
        summary="A printable document (PDF)",
        description="A print-ready PDF in the event's language (its lexicon's): `seating` (the wall sheet and a slip per table) and `scorecards` (a page per "
        "table: players in seat order, a row per round with its hand size, a QR code that opens the console at that table, without a token) of "
        "`session` (default: the latest; an event without sessions prints its tables' scorecards); `standings`, `crosstable` (a grid of who met "
        "whom up to 16 players, a row per game beyond), `results` (the overall standings after the last session with each player's games); "
        "`audit` (who changed what; a director token). Every word in the event's language; any field the API accepts lays out. The read rules of "
        'the JSON each comes from: a private event needs a token. `Content-Disposition: inline; filename="<event>-<kind>.pdf"`. '
        "Documents have a lane of their own: 503 with `Retry-After` when it is full.",
        parameters=[EVENT, KIND],
        query=DocumentQuery,
        answers={200: PDF},
        errors=(400, 401, 403, 404, 422, 503),
        access=PUBLIC,
        problems=(*ACCESS, codes.DOCUMENT_NOT_FOUND, codes.SESSION_NOT_FOUND, codes.STANDINGS_NOT_YET),
    )
)
@heavy(lane="documents")  # a long event's PDFs take up to seconds of a thread: a lane of their own, so they never hold an analysis's slot
def document(event: str, kind: str) -> Response:
    if kind not in docs.DOCUMENT_KINDS:
        raise NotFound(
            f"There is no document {kind!r}; there are {', '.join(docs.DOCUMENT_KINDS)}.",
            {"kind": [f"one of {', '.join(docs.DOCUMENT_KINDS)}"]},
            code=codes.DOCUMENT_NOT_FOUND,
        )
    query = DOCUMENT_QUERY.load(query_args())
    layout = _build(kind, event, query["session"])
    response = Response(render_pdf(layout), mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{event}-{kind}.pdf"'
    response.headers["Cache-Control"] = "no-store"
    return response


def _build(kind: str, event_id: str, session: int | None) -> docs.Document:
    store, actor = ledger(), principal()
    if kind == "audit":
        require_director(actor, event_id, "read the audit summary")
    event = store.events.event(actor, event_id)
    printed = datetime.now(UTC).strftime("%Y-%m-%d %H:%M")
    if kind in ("seating", "scorecards"):
        seated = _session(event_id, session)
        if kind == "seating":
            if seated is None:
                raise NotFound(
                    f"Event {event_id} has no session seated: there is no seating to print.", {"session": ["no session seated"]}, code=codes.SESSION_NOT_FOUND
                )
            return docs.seating_document(event, seated, printed)
        tables = seated["tables"] if seated is not None else event["games"]
        return docs.scorecards_document(event, tables, lambda table: console_link(event_id, table), printed, seated["number"] if seated else None)
    if kind == "standings":
        return docs.standings_document(event, _standings(event_id), printed)
    if kind == "crosstable":
        return docs.crosstable_document(event, store.tournament_standings.crosstable(actor, event_id), store.players.players(actor, event_id), printed)
    if kind == "results":
        standings = _standings(event_id)
        crosstable = store.tournament_standings.crosstable(actor, event_id) if "overall" in standings else None
        return docs.results_document(event, standings, crosstable, printed)
    return docs.audit_document(event, _audit(event_id), printed)


def _standings(event_id: str) -> dict[str, Any]:
    """The standings a document prints: a tournament's after its last complete session while it is provisional.

    Paper says "after session k" (docs/documents.md), so until the tournament's last session is complete it prints
    the standings as they stood once every game of session k was played, never a session half played.
    """
    standings = ledger().standings.standings(principal(), event_id)
    overall = standings.get("overall")
    if overall and overall["provisional"] and 0 < overall["completed"] < (overall["through"] or 0):
        standings = ledger().standings.standings(principal(), event_id, overall["completed"])
    return standings


def _session(event_id: str, number: int | None) -> dict[str, Any] | None:
    """Session ``number`` (404 when there is none such), or the latest, or None for an event without sessions."""
    if number is not None:
        return ledger().sessions.session(principal(), event_id, number)
    seated = ledger().sessions.sessions(principal(), event_id)["sessions"]
    return seated[-1] if seated else None


def _audit(event_id: str) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    while True:
        page = ledger().trail.audit_entries(principal(), event_id, entries[-1]["seq"] if entries else 0, AUDIT_PAGE)["entries"]
        entries += page
        if len(page) < AUDIT_PAGE:
            return entries
