"""Everything ``wordsvc audit verify`` checks of one event's records, from the database or from an export, in one place.

In order, each step only once the one before holds (a broken chain vouches
for no row): the hash chain and the rows against it
(:func:`~wordsvc.ledger.integrity.audit.verify`); every round scored again
(:mod:`.rescoring`); and, given public keys, every entry signed by one of
them or covered by a signed decision (:mod:`.entry_signatures`). Problems
fail the check; notes say what could not be checked here (a lexicon not
loaded, no key given) or what an operator decided (entries accepted
unsigned), so that a pass never claims more than was checked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from ...core.lexicon import Lexicon
from .audit import Records, verify
from .entry_signatures import signature_problems
from .rescoring import score_problems

__all__ = ["Verified", "verify_event"]


@dataclass
class Verified:
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def verify_event(records: Records, keys: Mapping[str, Ed25519PublicKey], lexicon_of: Callable[[dict[str, Any]], Lexicon | None]) -> Verified:
    """The chain and rows, the scores, and (with ``keys``, by key id) the entries' signatures of one event."""
    problems = verify(records)
    if problems:
        return Verified(problems)
    rescored = score_problems(records, lexicon_of)
    found = Verified(rescored.problems, rescored.notes)
    if keys:
        signed = signature_problems(records.audit, keys)
        found.problems += signed.problems
        found.notes += signed.covered
    else:
        found.notes.append("entry signatures not checked (no key: give --public-key)")
    return found
