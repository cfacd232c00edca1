"""What the ledger's views share: the app's ledger, opened once per process, and who a request acts as on it.

:func:`ledger` opens the ledger on first use (with the service's lexicons,
its memory budget, the commit metric and the key that signs), so no view
opens its own; :func:`principal` reads the bearer token, and :func:`writer`
is the principal of a write, required before the body is read, so a write
without a token is a 401 whatever its body says; :func:`created_response` is a
write's 201.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from flask import Response, current_app, jsonify, request

from ...core import problem_codes as codes
from ...ledger import Ledger, Principal, Unauthorized, require_admin
from ...ledger.integrity.checkpoints import Signer
from ..metrics import observe_commit
from ..requests import service

__all__ = ["created_response", "creation_policy", "ledger", "principal", "writer"]

_OPENING = threading.Lock()
log = logging.getLogger(__name__)


def ledger() -> Ledger:
    """The app's ledger, opened on first use in this process (``wordsvc serve`` has migrated the database before forking)."""
    extensions = current_app.extensions
    if "wordsvc.ledger" not in extensions:
        with _OPENING:
            if "wordsvc.ledger" not in extensions:
                svc = service()
                settings = extensions["wordsvc.settings"]
                signer = Signer.from_file(settings.ledger_key_file, settings.ledger_public_keys)
                if not signer.signs:
                    log.warning("no WORDSVC_LEDGER_KEY_FILE: audit entries, token rows, checkpoints and receipts are unsigned (docs/ledger.md)")
                extensions["wordsvc.ledger"] = Ledger.open(settings.database_url, svc.languages.get, svc.budget, observe_commit, signer)
    return extensions["wordsvc.ledger"]  # type: ignore[no-any-return]


def principal() -> Principal | None:
    """Who the request acts as: ``None`` without an Authorization header, 401 for one that is not a live bearer token."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("Send the token as Authorization: Bearer wsv_...", {"authorization": ["not a bearer token"]}, code=codes.TOKEN_INVALID)
    return ledger().tokens.authenticate(token.strip())


def writer() -> Principal:
    """The principal of a write, checked before its body is read: every write needs a token (401 first, then the body's 422)."""
    actor = principal()
    if actor is None:
        raise Unauthorized("Writes to the ledger need a bearer token: Authorization: Bearer wsv_...", {"authorization": ["missing"]}, code=codes.TOKEN_MISSING)
    return actor


def creation_policy() -> tuple[Principal | None, int | None]:
    """Who creates an event and how many open creations are left to count, by ``WORDSVC_EVENT_CREATION`` (docs/operations.md).

    ``(actor, open_limit)``: a token sent must be a live one (401) whatever the policy, and is read before the body;
    under ``admin`` only an admin token creates (401 without, 403 for another role) and ``open_limit`` is ``None``.
    """
    settings = current_app.extensions["wordsvc.settings"]
    actor = principal()
    if settings.event_creation == "admin":
        return require_admin(actor), None
    return actor, settings.open_events


def created_response(body: dict[str, Any], location: str) -> Response:
    """A 201 with ``body`` and the new resource's ``Location``."""
    response = jsonify(body)
    response.status_code = 201
    response.headers["Location"] = location
    return response
