"""Verifiable deals of a hosted game: a committed server seed, the seats' nonces, and the game's seed derived from both.

A table draws a secret 32-byte **server seed** when it is created (the
caller draws it, from :mod:`secrets`: nothing here is random) and publishes
its :func:`commitment` at once. Each seat may add a **nonce** when it sits
down (:func:`check_nonce`). When the game starts, its seed, the one
:func:`~wordsvc.core.play.engine.new_game` takes and every round's q1 deal
comes from (docs/deals.md), is :func:`game_seed` of the server seed and every
seat's nonce in seat order. The server is bound to its seed before any nonce
is known, and no player knows the server seed, so neither can steer the
cards. After the game the server seed and the nonces are revealed and anyone
can redo the derivation (:func:`check_reveal`) and replay the game
(:mod:`wordsvc.core.play.verify`).

Byte encodings (docs/play.md, "Verifiable deals"), every hash SHA-256 and
every hex value lower case, as in docs/deals.md:

- commitment = SHA-256( ``"wordsvc-commit-p1"`` || 0x00 || server seed (32 bytes) );
- game seed = SHA-256( ``"wordsvc-game-seed-p1"`` || 0x00 || server seed (32 bytes)
  || P (4 bytes, big-endian) || for each seat in order: len(nonce) (4 bytes,
  big-endian) || nonce (ASCII) ).

Each value has its own domain, so a commitment is never a game seed, nor an
event's commitment (docs/deals.md section 8, which hashes the bare seed), and
the lengths make the encoding of the nonces unambiguous (``["ab", ""]`` and
``["a", "b"]`` give different seeds).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from ..deal import DealError, parse_seed

__all__ = ["NONCE_MAX", "FairnessError", "check_nonce", "check_reveal", "commitment", "game_seed"]

_COMMIT = b"wordsvc-commit-p1\x00"
_GAME_SEED = b"wordsvc-game-seed-p1\x00"
#: The longest nonce: 64 characters, room for a hex SHA-256 or a UUID with some to spare, and a bound on what a seat
#: may make the server store and hash.
NONCE_MAX = 64
_NONCE = re.compile(rf"[A-Za-z0-9_-]{{0,{NONCE_MAX}}}")


class FairnessError(ValueError):
    """A value of the commit-reveal that is malformed: ``field`` names it (``nonce``, ``server_seed``, ``nonces``)."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


def _seed_bytes(field: str, seed_hex: str) -> bytes:
    try:
        return parse_seed(seed_hex)
    except DealError:
        raise FairnessError(field, f"{field} is 64 lowercase hex digits (32 bytes)") from None


def commitment(server_seed_hex: str) -> str:
    """The hex SHA-256 a table publishes at its creation, under the domain ``wordsvc-commit-p1``, of the server seed's 32 bytes."""
    return hashlib.sha256(_COMMIT + _seed_bytes("server_seed", server_seed_hex)).hexdigest()


def check_nonce(text: str | None) -> str:
    """A seat's nonce as it enters the derivation: up to 64 characters of ``A-Z a-z 0-9 _ -``; absent (``None``) is ``""``.

    The alphabet is ASCII so the nonce's bytes are its characters, in any
    language, with no normalization to agree on; the empty string is the same
    as no nonce. Anything else raises :class:`FairnessError` (field ``nonce``).
    """
    if text is None:
        return ""
    if not isinstance(text, str) or not _NONCE.fullmatch(text):
        raise FairnessError("nonce", f"a nonce is up to {NONCE_MAX} characters of A-Z, a-z, 0-9, _ and -")
    return text


def game_seed(server_seed_hex: str, nonces: Sequence[str | None]) -> str:
    """The game's seed (64 hex digits): SHA-256 under ``wordsvc-game-seed-p1`` of the server seed, the seat count and each nonce length-prefixed, in seat order."""
    if isinstance(nonces, str):
        raise FairnessError("nonces", "the nonces are a list, one a seat")
    raw = _GAME_SEED + _seed_bytes("server_seed", server_seed_hex) + len(nonces).to_bytes(4, "big")
    for nonce in nonces:
        data = check_nonce(nonce).encode("ascii")
        raw += len(data).to_bytes(4, "big") + data
    return hashlib.sha256(raw).hexdigest()


def check_reveal(commitment_hex: str, server_seed: str, nonces: Sequence[str | None], seed: str) -> list[str]:
    """What does not hold of a reveal, each problem in words; empty when the commitment and the seed both follow from the server seed and nonces.

    Checks that ``server_seed`` is 64 lowercase hex digits, that its
    :func:`commitment` is ``commitment_hex``, that every nonce is well formed,
    and that :func:`game_seed` of them is ``seed``. A malformed value is a
    problem, not an exception: a verifier reports it.
    """
    try:
        committed = commitment(server_seed)
    except FairnessError as err:
        return [f"server_seed: {err}"]
    problems = []
    if committed != commitment_hex:
        problems.append(f"commitment: the server seed's commitment is {committed}, the table published {commitment_hex}")
    try:
        derived = game_seed(server_seed, nonces)
    except FairnessError as err:
        return [*problems, f"{err.field}: {err}"]
    if derived != seed:
        problems.append(f"seed: the server seed and nonces give {derived}, the game was dealt from {seed}")
    return problems
