"""Exceptions for misuse. Verdicts (a word is not valid) are values, not errors.

Every error carries ``problems``: a mapping from a field path
(``players.1.words.0``) to its messages, so that a caller learns of every
problem in one answer, and ``code``, the answer's problem code from
:mod:`wordsvc.core.problem_codes`. A message made by :meth:`Problems.add`
carries its own code (a :class:`~wordsvc.core.problem_codes.CodedMessage`);
one given as plain text takes the error's. The web layer maps each class to
one HTTP status.
"""

from __future__ import annotations

import errno
from collections.abc import Mapping, Sequence

from . import problem_codes as codes
from .problem_codes import CodedMessage

__all__ = ["InvalidRequest", "LanguageBuilding", "Problems", "RulesetError", "Unavailable", "UnknownLanguage", "UnknownRuleset", "WordsvcError"]


class Problems:
    """Collects ``path -> [message]`` while a request is checked, then raises once.

    Each message carries its problem code: the one given to :meth:`add`, else
    ``code``, the one every problem of this check shares (an import's
    problems are all :data:`~wordsvc.core.problem_codes.INVALID_EXPORT`).
    """

    def __init__(self, code: str | None = None) -> None:
        self.items: dict[str, list[str]] = {}
        self.code = code

    def add(self, path: str | Sequence[object], message: str, code: str | None = None) -> None:
        key = path if isinstance(path, str) else ".".join(str(p) for p in path)
        given = code or getattr(message, "code", None) or self.code
        if given is None:
            raise TypeError(f"a problem at {key!r} needs a problem code")
        self.items.setdefault(key, []).append(CodedMessage(message, given))

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self, detail: str) -> None:
        if self.items:
            raise InvalidRequest(detail, self.items)


class WordsvcError(Exception):
    """Base class: ``detail`` is a sentence, ``problems`` maps field paths to messages, ``code`` names the problem.

    ``code`` defaults to the class's: a raise that knows better names its own
    (``NotFound(..., code=codes.EVENT_NOT_FOUND)``).
    """

    code = codes.INVALID_FIELDS

    def __init__(self, detail: str, problems: Mapping[str, list[str]] | None = None, code: str | None = None):
        super().__init__(detail)
        self.detail = detail
        self.problems = dict(problems or {})
        if code is not None:
            self.code = code


class InvalidRequest(WordsvcError):
    """A request breaks the rules: a card not in the deck, too many copies, ..."""


class UnknownRuleset(WordsvcError):
    """No ruleset has that id."""

    code = codes.UNKNOWN_RULESET


class UnknownLanguage(WordsvcError):
    """No loaded lexicon serves that language tag."""

    code = codes.UNKNOWN_LANGUAGE


class Unavailable(WordsvcError):
    """The service cannot take this request now, but can later: ``retry_after`` seconds (the web answers 503 with Retry-After)."""

    code = codes.NOT_READY

    def __init__(self, detail: str, problems: Mapping[str, list[str]] | None = None, retry_after: int = 1, code: str | None = None):
        super().__init__(detail, problems, code)
        self.retry_after = retry_after


def out_of_descriptors(err: BaseException) -> bool:
    """True when ``err`` (or what it was raised from) is the process or the system running out of file descriptors.

    Such a failure is the machine's state, not the request's fault nor a
    missing file: it is answered 503 and retried, never reported as "not built".
    """
    seen = 0
    while err is not None and seen < 8:
        if isinstance(err, OSError) and err.errno in (errno.EMFILE, errno.ENFILE):
            return True
        err, seen = err.__cause__ or err.__context__, seen + 1  # type: ignore[assignment]
    return False


class LanguageBuilding(Unavailable):
    """The language is known and its lexicon is being built: it comes online by itself when the build is done."""

    code = codes.LANGUAGE_BUILDING


class RulesetError(WordsvcError):
    """A ruleset file is malformed; ``problems`` keys are ``file: key.path``."""

    code = codes.INVALID_RULESET
