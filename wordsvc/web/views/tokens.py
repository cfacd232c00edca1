"""Tokens over HTTP: who a token is, and a director issuing, listing and revoking an event's tokens (docs/ledger.md).

A token is shown once, when issued; the ledger keeps only its hash, and no
answer carries a secret again.
"""

from __future__ import annotations

from flask import Response, jsonify

from ...core import problem_codes as codes
from ...ledger import require_director
from ...schemas.events import (
    IssuedTokenOut,
    TokenBody,
    TokenListOut,
    TokenOut,
    WhoamiOut,
)
from ..endpoints import TOKEN, Endpoint, Resource
from ..ledger_problems import ACCESS, TOKENS, WRITE
from ..parameters import EVENT
from ..requests import read_json
from .ledger_access import created_response, ledger, principal, writer

__all__ = ["bp"]

bp = Resource("tokens", __name__)

TOKEN_BODY = TokenBody()


@bp.declare(
    Endpoint(
        method="get",
        path="/whoami",
        operation_id="whoami",
        tag="ledger",
        summary="Who a token is",
        description="Any live token: its id, role, event and table (never the token). 401 without one.",
        answers={200: WhoamiOut},
        errors=(401,),
        access=TOKEN,
        problems=(codes.TOKEN_MISSING, codes.TOKEN_INVALID),
    )
)
def whoami() -> Response:
    actor = writer()
    return jsonify({"id": actor.token, "role": actor.role, "event": actor.event, "table": actor.table})


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/tokens",
        operation_id="issueToken",
        tag="ledger",
        summary="Issue a token",
        description="Director token. A director, referee (optionally for one table) or viewer token, shown once.",
        parameters=[EVENT],
        body=TokenBody,
        answers={201: IssuedTokenOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE, *TOKENS),
    )
)
def issue_token(event: str) -> Response:
    actor = require_director(writer(), event)
    body = TOKEN_BODY.load(read_json())
    issued = ledger().tokens.issue_token(actor, event, body["role"], body["table"], body["label"])
    return created_response(issued, f"/events/{event}/tokens/{issued['id']}")


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/tokens",
        operation_id="listTokens",
        tag="ledger",
        summary="The event's tokens",
        description="Director token. Ids, roles, tables, revocation; never a secret.",
        parameters=[EVENT],
        answers={200: TokenListOut},
        errors=(401, 403, 404),
        access=TOKEN,
        roles=("director",),
        problems=(*ACCESS,),
    )
)
def list_tokens(event: str) -> Response:
    return jsonify({"tokens": ledger().tokens.list_tokens(principal(), event)})


@bp.declare(
    Endpoint(
        method="delete",
        path="/events/{event}/tokens/{token_id}",
        operation_id="revokeToken",
        tag="ledger",
        summary="Revoke a token",
        description="Director token.",
        parameters=[EVENT, {"name": "token_id", "in": "path", "required": True, "description": "The token's id.", "schema": {"type": "string"}}],
        answers={200: TokenOut},
        errors=(401, 403, 404, 409),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE, *TOKENS),
    )
)
def revoke_token(event: str, token_id: str) -> Response:
    return jsonify(ledger().tokens.revoke_token(writer(), event, token_id))
