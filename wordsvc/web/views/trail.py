"""A ledger event's audit trail over HTTP: its entries, its signed checkpoint, inclusion and consistency proofs (docs/ledger.md).

Reads only: who may read them is the event's read rule (a private event
needs a token of the event); the ledger decides.
"""

from __future__ import annotations

from flask import Response, jsonify

from ...core import problem_codes as codes
from ...schemas.events import (
    AuditOut,
    AuditQuery,
    CheckpointOut,
    ConsistencyProofOut,
    ConsistencyQuery,
    InclusionProofOut,
    ProofQuery,
)
from ..endpoints import PUBLIC, Endpoint, Resource
from ..ledger_problems import ACCESS, INTEGRITY
from ..parameters import EVENT
from ..requests import query_args
from .ledger_access import ledger, principal

__all__ = ["bp"]

bp = Resource("trail", __name__)

AUDIT_QUERY, PROOF_QUERY, CONSISTENCY_QUERY = AuditQuery(), ProofQuery(), ConsistencyQuery()


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/audit",
        operation_id="getAudit",
        tag="ledger",
        summary="The audit trail",
        description="Append-only, hash-chained entries of every write; `wordsvc audit verify` recomputes the chain.",
        parameters=[EVENT],
        query=AuditQuery,
        answers={200: AuditOut},
        errors=(400, 401, 403, 404, 422),
        access=PUBLIC,
        problems=(*ACCESS, codes.CHAIN_NOT_FOUND),
    )
)
def audit_log(event: str) -> Response:
    query = AUDIT_QUERY.load(query_args())
    return jsonify(ledger().trail.audit_entries(principal(), event, query["after"], query["limit"]))


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/checkpoint",
        operation_id="getCheckpoint",
        tag="ledger",
        summary="The event's signed head",
        description="How many audit entries the event's log holds, their RFC 9162 Merkle root and the time, signed with the service's Ed25519 key (unsigned, "
        "`signature` null, without WORDSVC_LEDGER_KEY_FILE). Keep it: a later log must extend it (docs/ledger.md). 409 if the chain has a gap, or ends "
        "with an entry the service did not sign: then every answer that would sign a head, and every write, is a 409 until an operator decides "
        "(`wordsvc audit accept`).",
        parameters=[EVENT],
        answers={200: CheckpointOut},
        errors=(401, 403, 404, 409),
        access=PUBLIC,
        problems=(*ACCESS, *INTEGRITY, codes.CHAIN_NOT_FOUND),
    )
)
def checkpoint(event: str) -> Response:
    return jsonify(ledger().trail.checkpoint(principal(), event))


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/proof",
        operation_id="getInclusionProof",
        tag="ledger",
        summary="An entry's inclusion proof",
        description="That audit entry `seq` is in the tree of the log's first `tree_size` entries (default: all): the entry's hash, that tree's root and the "
        "RFC 9162 audit path. 422 for a seq past tree_size or a tree_size past the log (a log shorter than a receipt's tree lost entries).",
        parameters=[EVENT],
        query=ProofQuery,
        answers={200: InclusionProofOut},
        errors=(400, 401, 403, 404, 409, 422),
        access=PUBLIC,
        problems=(*ACCESS, *INTEGRITY, codes.CHAIN_NOT_FOUND, codes.PROOF_OUT_OF_RANGE),
    )
)
def inclusion_proof(event: str) -> Response:
    query = PROOF_QUERY.load(query_args())
    return jsonify(ledger().trail.inclusion_proof(principal(), event, query["seq"], query["tree_size"]))


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/consistency",
        operation_id="getConsistencyProof",
        tag="ledger",
        summary="A consistency proof",
        description="That the tree of the log's first `from` entries (a checkpoint's tree_size) is the start of the tree of its first `to` (default: all): "
        "both roots and the RFC 9162 proof. 422 for from past to or to past the log.",
        parameters=[EVENT],
        query=ConsistencyQuery,
        answers={200: ConsistencyProofOut},
        errors=(400, 401, 403, 404, 409, 422),
        access=PUBLIC,
        problems=(*ACCESS, *INTEGRITY, codes.CHAIN_NOT_FOUND, codes.PROOF_OUT_OF_RANGE),
    )
)
def consistency_proof(event: str) -> Response:
    query = CONSISTENCY_QUERY.load(query_args())
    return jsonify(ledger().trail.consistency_proof(principal(), event, query["first"], query["second"]))
