"""The domain problem codes of the ledger's endpoints, by what they touch: the sets their declarations name (``Endpoint.problems``).

Each set is what the ledger's methods behind a kind of endpoint raise
(:mod:`wordsvc.ledger`): who may call it, the event it names, its tables and
rounds, its players and sessions, its audit trail. A declaration names the
sets of what its view calls, so the OpenAPI document lists per operation
the codes it can answer (:mod:`.endpoint_codes`); the black-box tests hold
every answer to that list.
"""

from __future__ import annotations

from ..core import problem_codes as codes

__all__ = ["ACCESS", "INTEGRITY", "PLAYERS", "ROUNDS", "SESSIONS", "TOKENS", "WRITE"]

#: Any endpoint under ``/events/{event}``: a token missing or not valid, a role that does not allow it, no such event.
ACCESS = (codes.TOKEN_MISSING, codes.TOKEN_INVALID, codes.ROLE_REQUIRED, codes.EVENT_NOT_FOUND)
#: A write to an event: closed, its lexicon changed under it, stored meanwhile by another request, or an audit log that does not
#: verify (the service refuses to build on it).
WRITE = (*ACCESS, codes.EVENT_CLOSED, codes.LEXICON_CHANGED, codes.STORED_MEANWHILE, codes.LOG_UNVERIFIED)
#: A table and its rounds (:mod:`wordsvc.ledger.records.rounds`, ``games``, ``rulings``, ``deals``).
ROUNDS = (
    codes.TABLE_NOT_FOUND,
    codes.ROUND_NOT_FOUND,
    codes.ROUND_OUT_OF_RANGE,
    codes.TABLE_CONFLICT,
    codes.SEAT_MISMATCH,
    codes.PLAYER_COUNT,
    codes.DUPLICATE_NAME,
    codes.NAMES_LOOK_ALIKE,
    codes.MIXED_SCRIPTS,
    codes.NOT_YET,
)
#: An event's players (:mod:`wordsvc.ledger.tournaments.players`).
PLAYERS = (codes.PLAYER_NOT_FOUND, codes.PLAYER_CONFLICT, codes.DUPLICATE_NAME, codes.NAMES_LOOK_ALIKE, codes.MIXED_SCRIPTS)
#: An event's sessions and schedule (:mod:`wordsvc.ledger.tournaments.sessions`).
SESSIONS = (
    codes.SESSION_NOT_FOUND,
    codes.SESSION_CONFLICT,
    codes.SEATING_IMPOSSIBLE,
    codes.TABLE_CONFLICT,
    codes.NO_SEED,
    codes.PLAYER_NOT_FOUND,
    codes.SCHEDULE_CONFLICT,
    codes.SCHEDULE_NOT_FOUND,
    codes.FORMAT_NOT_FOUND,
    codes.INVALID_FORMAT,
)
#: What reading or signing the audit trail can refuse (:mod:`wordsvc.ledger.trail`, :mod:`wordsvc.ledger.integrity`): a gap, a log
#: that does not verify, no signing key (the proofs' own ``proof_out_of_range`` and ``chain_not_found`` are named where they apply).
INTEGRITY = (codes.AUDIT_GAP, codes.LOG_UNVERIFIED, codes.KEY_MISSING)
#: An event's tokens (:mod:`wordsvc.ledger.records.tokens`).
TOKENS = (codes.TOKEN_NOT_FOUND, codes.TABLE_NOT_FOUND)
