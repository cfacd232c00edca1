"""What the ledger refuses, one class per HTTP status the web layer gives it."""

from __future__ import annotations

from ..core import problem_codes as codes
from ..core.errors import WordsvcError

__all__ = ["Conflict", "Forbidden", "LedgerError", "NotFound", "PreconditionFailed", "PreconditionRequired", "Unauthorized"]


class LedgerError(WordsvcError):
    """Base class; ``status`` is the HTTP status of the answer."""

    status = 400


class Unauthorized(LedgerError):
    """No token, or one that is not valid (never saying whether it exists)."""

    status = 401
    code = codes.TOKEN_INVALID


class Forbidden(LedgerError):
    """A valid token whose role or event does not allow the action."""

    status = 403
    code = codes.ROLE_REQUIRED


class NotFound(LedgerError):
    status = 404


class Conflict(LedgerError):
    """The write contradicts what is stored (a different round body, an event id taken, a changed lexicon)."""

    status = 409


class PreconditionFailed(LedgerError):
    """``If-Match`` names a revision that is no longer current."""

    status = 412
    code = codes.REVISION_STALE


class PreconditionRequired(LedgerError):
    """A correction without ``If-Match``."""

    status = 428
    code = codes.IF_MATCH_REQUIRED
