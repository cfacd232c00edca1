"""Entry signatures: each audit entry signed with the service's key as it is written, so that an entry someone else appended shows.

A hash chain, its Merkle tree and the checkpoints handed out catch an entry
edited or a tail cut off; none of them catches an entry *appended* by
someone who can write the database: it links to the newest entry as a
write would, every earlier receipt still holds (the log only grew), and
the service would sign the new head. So the service signs every entry it
writes, with the Ed25519 key it keeps outside the database (the checkpoints'
key, :mod:`.checkpoints`), and before it writes to a chain or signs a head of
it, it checks that the chain's newest entry carries one of its signatures
(:class:`Vouch`). A signed entry vouches for every entry before it, since its
hash covers theirs and the service signed it only after the same check;
so one verification per change of head suffices, never a pass over the log.

The signed message is four lines of ASCII, each ended by a line feed:
``wordsvc-entry/v1``, the chain, the entry's seq in decimal and its hash in
64 lowercase hex digits. ``key_id`` names the key as a checkpoint does; the
signature is standard base64.

Entries nobody signed can still be right: those written before entries were
signed, by a service without a key, or imported from another service's
export. A signed *decision* covers them: ``event.imported`` (the import's
check, payload ``entries``) and ``audit.accepted`` (an operator's, ``wordsvc
audit accept``, payload ``upto``) vouch for every entry up to that number.
:func:`signature_problems` is the offline check (``wordsvc audit verify
--public-key``): every entry signed by a key given, or covered by a decision
that is.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from ...core import problem_codes as codes
from ..errors import Conflict
from .audit import HOUSE
from .checkpoints import Signer

__all__ = ["DECISIONS", "ENTRY_FORMAT", "Keys", "Signatures", "Unvouched", "Vouch", "entry_message", "sign_entry", "signature_problem", "signature_problems"]

log = logging.getLogger(__name__)

#: The first line of every signed entry message: what it is and the version of its layout.
ENTRY_FORMAT = "wordsvc-entry/v1"
#: Actions whose signed entry vouches for the entries before it, and the payload field saying up to which.
DECISIONS = {"event.imported": "entries", "audit.accepted": "upto"}
Keys = Mapping[str, Ed25519PublicKey]


def entry_message(chain: str, seq: int, entry_hash: str) -> bytes:
    """The exact bytes an entry's signature covers."""
    return f"{ENTRY_FORMAT}\n{chain}\n{seq}\n{entry_hash}\n".encode("ascii")


def sign_entry(signer: Signer, chain: str, seq: int, entry_hash: str) -> tuple[str | None, str | None]:
    """``(key_id, signature)`` of an entry the service writes now; ``(None, None)`` for a service without a key."""
    if signer.key is None:
        return None, None
    return signer.key_id, base64.b64encode(signer.key.sign(entry_message(chain, seq, entry_hash))).decode("ascii")


def signature_problem(entry: Mapping[str, Any], keys: Keys) -> str | None:
    """Why ``entry`` (``chain``, ``seq``, ``hash``, ``key_id``, ``signature``) is not signed by one of ``keys`` (by key id); ``None`` if it is."""
    found = _check(entry, keys)
    return None if found is None else found[1]


def _check(entry: Mapping[str, Any], keys: Keys) -> tuple[str, str] | None:
    """``(kind, message)``: ``unsigned``, ``other`` (a key not given) or ``altered`` (a signature that fails); ``None`` when signed."""
    seq, kid, signature = entry.get("seq"), entry.get("key_id"), entry.get("signature")
    if kid is None or signature is None:
        return "unsigned", f"audit entry {seq}: unsigned"
    key = keys.get(kid) if isinstance(kid, str) else None
    if key is None:
        return "other", f"audit entry {seq}: signed by key {kid!r}, not by {_named(keys)}"
    try:
        key.verify(base64.b64decode(signature, validate=True), entry_message(entry["chain"], seq, entry["hash"]))  # type: ignore[arg-type]
    except (InvalidSignature, ValueError, TypeError, KeyError, binascii.Error, UnicodeEncodeError):
        return "altered", f"audit entry {seq}: its signature does not verify with key {kid}: the entry or its signature was altered"
    return None


@dataclass
class Signatures:
    """What :func:`signature_problems` found: each entry that fails, and each run of entries not signed that a signed decision covers."""

    problems: list[str] = field(default_factory=list)
    covered: list[str] = field(default_factory=list)


def signature_problems(entries: Sequence[Mapping[str, Any]], keys: Keys) -> Signatures:
    """Every entry of a chain (in order, its hashes checked already) neither signed by one of ``keys`` nor covered by a later signed decision.

    A decision covers the entries up to the number in its payload when that
    entry's hash is the ``head`` it names, whatever their signatures: unsigned,
    by another key, or one that fails (an entry replayed with a signature
    copied from another). Covered entries are listed, never passed silently.
    """
    checks = [_check(entry, keys) for entry in entries]
    covers: list[tuple[int, int]] = []  # for each entry, (the highest entry a signed decision after it covers, that decision's seq)
    cover = (0, 0)
    for entry, found in zip(reversed(entries), reversed(checks), strict=True):
        covers.append(cover)
        upto = _decides(entry, entries) if found is None else 0
        if upto > cover[0]:
            cover = (upto, entry["seq"])
    covers.reverse()
    result = Signatures()
    runs: list[tuple[int, int, int]] = []  # (first seq, last seq, the decision's seq)
    for entry, found, (upto, by) in zip(entries, checks, covers, strict=True):
        if found is None:
            continue
        kind, message = found
        if entry["seq"] > upto:
            result.problems.append(message + ("" if kind == "altered" else _UNVOUCHED))
        elif runs and runs[-1][1] == entry["seq"] - 1 and runs[-1][2] == by:
            runs[-1] = (runs[-1][0], entry["seq"], by)
        else:
            runs.append((entry["seq"], entry["seq"], by))
    for first, last, by in runs:
        which = f"entry {first}" if first == last else f"entries {first} to {last}"
        result.covered.append(f"{which} not signed by {_named(keys)}: vouched for by entry {by} ({entries[by - 1]['action']})")
    return result


_UNVOUCHED = ": appended by someone without the service's key, or written before entries were signed and never accepted (wordsvc audit accept)"


def _decides(entry: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]) -> int:
    """The entry up to which a decision vouches for every entry (0 if ``entry`` is no decision, or names a head the log does not have)."""
    name = DECISIONS.get(str(entry.get("action")))
    payload = entry.get("payload")
    if name is None or not isinstance(payload, dict):
        return 0
    upto = payload.get(name)
    if type(upto) is not int or not 1 <= upto < entry["seq"] or entries[upto - 1].get("hash") != payload.get("head"):
        return 0
    return upto


def _named(keys: Keys) -> str:
    return f"key{'s' if len(keys) > 1 else ''} {', '.join(sorted(keys))}"


class Unvouched(Conflict):
    """A chain whose newest entry the service did not sign: it writes nothing after it and signs no head of it until an operator decides."""

    code = codes.LOG_UNVERIFIED


class Vouch:
    """The service's check, before it writes to a chain or signs a head of it, that the chain's newest entry is one it signed.

    Inactive for a service without a key: it signs nothing, so it can require
    nothing. ``signer.trusted`` are the keys whose signatures count as the
    service's (its own, and earlier ones after a rotation).
    """

    def __init__(self, signer: Signer):
        self.signer = signer
        self.keys = signer.trusted
        self.active = signer.key is not None
        self._logged: set[tuple[str, str]] = set()

    def check(self, chain: str, newest: Mapping[str, Any]) -> None:
        """:class:`Unvouched` (409) unless ``newest`` (``seq``, ``hash``, ``key_id``, ``signature``) is signed by a trusted key; logged once."""
        if not self.active or self._own(chain, newest):
            return
        found = _check({**newest, "chain": chain}, self.keys)
        if found is None:
            return
        seq, kind = newest.get("seq"), found[0]
        why = {
            "unsigned": "it is unsigned",
            "other": f"it names key {newest.get('key_id')!r}, not one of the service's",
            "altered": "its signature does not verify",
        }[kind]
        whose, name = ("The admin tokens' chain", " --house") if chain == HOUSE else (f"The audit log of event {chain}", f" {chain}")
        detail = (
            f"{whose} ends with entry {seq}, which this service did not sign ({why}): someone wrote to the database without the service. "
            f"Writes and signed answers are refused until an operator checks the log (wordsvc audit verify{'' if chain == HOUSE else name}) "
            f'and decides (wordsvc audit accept{name} --upto {seq}; docs/ledger.md, "Entry signatures").'
        )
        if (chain, str(newest.get("hash"))) not in self._logged:
            if len(self._logged) >= 4096:  # once per head and process is the aim; a process refusing thousands of chains logs them again
                self._logged.clear()
            self._logged.add((chain, str(newest.get("hash"))))
            log.error(
                "audit chain %s: entry %s, the newest, is not signed by the service's key (%s); writes and checkpoints refused until wordsvc audit accept",
                chain,
                seq,
                why,
            )
        raise Unvouched(detail, {"audit": [f"entry {seq} is not signed by the service's key"]}, code=codes.LOG_UNVERIFIED)

    def _own(self, chain: str, newest: Mapping[str, Any]) -> bool:
        """Whether ``newest`` carries the very signature this service's key makes of it (another worker's or replica's entry, the usual case).

        Ed25519 signatures are deterministic (RFC 8032, section 5.1.6): the key
        signs a message one way only, so signing it again and comparing is the
        same test as verifying with its public key, and cheaper (one signing
        against a verification's two scalar multiplications), in the write's
        transaction. An entry signed by another trusted key is
        verified as any other (:func:`_check`).
        """
        if newest.get("key_id") != self.signer.key_id or not isinstance(newest.get("signature"), str) or not isinstance(newest.get("hash"), str):
            return False
        _, expected = sign_entry(self.signer, chain, newest["seq"], newest["hash"])
        return hmac.compare_digest(expected or "", newest["signature"])
