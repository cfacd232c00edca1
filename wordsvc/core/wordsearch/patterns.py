"""Search patterns, result order and cursors: the pure parts every word search shares.

A pattern (:func:`compile_pattern`): ``?`` is one letter, ``*`` any run of
letters (also none), ``[aeiou]`` one letter of a set, ``[^aeiou]`` one letter
not in it; anything else is a literal letter, and the apostrophe and hyphen
stand for themselves (no wildcard matches them). At most
:data:`MAX_PATTERN_CHARS` characters; every fault is reported at once, with
its place. A compiled pattern matches in linear time whatever its stars, and
gives an index hints: the letters a match has, its literal prefix and runs.

Results are ordered by commonness (the lexicon's rank, smaller first,
:data:`UNRANKED` last) then by code point; a :class:`Bound` is a place in that
order, and a cursor (:func:`encode_cursor`) is a bound made opaque and bound
to its query.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

from ..text import WORD_PUNCTUATION, normalize

__all__ = [
    "MAX_PATTERN_CHARS",
    "UNRANKED",
    "Bound",
    "CursorError",
    "Pattern",
    "PatternError",
    "compile_pattern",
    "decode_cursor",
    "encode_cursor",
    "letter_count",
    "sort_rank",
]

#: The issue's bound: a longer pattern is refused before any work.
MAX_PATTERN_CHARS = 32
#: The sort rank of a form the lexicon gives no commonness for: after every rank.
UNRANKED = 1 << 30


# ---------------------------------------------------------------- patterns


class PatternError(ValueError):
    """A pattern that cannot be read; ``problems`` lists every fault, each with its position."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


def letter_count(form: str) -> int:
    """Letters of a form: its characters less apostrophes and hyphens (``don't`` has 4)."""
    return len(form) - sum(form.count(ch) for ch in WORD_PUNCTUATION)


# A token is ("lit", char) | ("any", "") | ("set", chars) | ("not", chars) | ("star", "").
Token = tuple[str, str]

_LETTER = r"[^\n'\-]"
#: One UTF-8 encoded character that is not a newline, an apostrophe or a hyphen.
_LETTER_UTF8 = rb"(?:[^\n'\-\x80-\xff]|[\xc0-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf7][\x80-\xbf]{3})"


@dataclass(frozen=True)
class Pattern:
    """A compiled pattern: a matcher for one form, and hints an index can use.

    ``min_letters``/``max_letters``: the letters a matching form has (``None``:
    no upper bound, the pattern has a ``*``); ``prefix``: the literal text
    every match starts with; ``fragments``: the literal runs every match holds.
    """

    text: str
    tokens: tuple[Token, ...]

    @cached_property
    def min_letters(self) -> int:
        return sum(1 for kind, ch in self.tokens if kind != "star" and ch not in WORD_PUNCTUATION)

    @cached_property
    def max_letters(self) -> int | None:
        return None if any(kind == "star" for kind, _ in self.tokens) else self.min_letters

    @cached_property
    def scan_bytes(self) -> int:
        """Bytes of a form list a scan for this pattern reads for one unit of work (about a microsecond, :mod:`wordsvc.core.work`).

        The cost model bench/work_units.py fits: a regex with a literal
        prefix jumps from one candidate line to the next (about 2 bytes a
        nanosecond); one of fixed length fails each line within a few
        letters (about 1); one with a ``*`` before its first literal reads
        every line to its end and back (about 0.15).

        >>> [compile_pattern(p).scan_bytes for p in ("qu*", "?u??", "*ing")]
        [2048, 1024, 128]
        """
        if self.prefix:
            return 2048
        return 1024 if self.max_letters is not None else 128

    @cached_property
    def prefix(self) -> str:
        out = []
        for kind, ch in self.tokens:
            if kind != "lit":
                break
            out.append(ch)
        return "".join(out)

    @cached_property
    def fragments(self) -> tuple[str, ...]:
        runs, run = [], []
        for kind, ch in self.tokens:
            if kind == "lit":
                run.append(ch)
            elif run:
                runs.append("".join(run))
                run = []
        if run:
            runs.append("".join(run))
        return tuple(runs)

    @cached_property
    def regex(self) -> re.Pattern[str]:
        """Matches a whole form with ``fullmatch``."""
        return re.compile(_body(self.tokens, _atom_str, _LETTER))

    def scanner(self, encoding: str) -> tuple[re.Pattern[bytes], re.Pattern[bytes]] | None:
        """Regexes for forms stored as text in ``encoding`` (``latin-1`` or ``utf-8``), one form a line.

        The first finds matching lines in text where every form is preceded
        and followed by ``\\n`` (group 1 is the form); the second matches one
        encoded form with ``fullmatch``. ``None``: the pattern holds a letter
        the encoding cannot hold, so nothing stored in it can match.
        """
        cached = self._scanners.get(encoding)
        if cached is None and encoding not in self._scanners:
            if encoding == "utf-8":
                body = _body(self.tokens, _atom_utf8, _LETTER_UTF8).encode("latin-1")
            else:
                try:
                    body = _body(self.tokens, _atom_str, _LETTER).encode(encoding)
                except UnicodeEncodeError:
                    body = b""
            cached = (re.compile(b"\n(" + body + b")(?=\n)"), re.compile(body)) if body else None
            self._scanners[encoding] = cached
        return cached

    @cached_property
    def _scanners(self) -> dict[str, tuple[re.Pattern[bytes], re.Pattern[bytes]] | None]:
        return {}

    def matches(self, form: str) -> bool:
        return self.regex.fullmatch(form) is not None


def compile_pattern(text: str) -> Pattern:
    """Read ``text`` into a :class:`Pattern`, or raise :class:`PatternError` naming every fault.

    >>> p = compile_pattern("Qu?[aeiou]*")
    >>> p.matches("quiet"), p.matches("quart"), p.min_letters, p.prefix
    (True, False, 4, 'qu')
    """
    if len(text) > MAX_PATTERN_CHARS:
        raise PatternError([f"at most {MAX_PATTERN_CHARS} characters (got {len(text)})"])
    source = normalize(text.strip())
    if not source:
        raise PatternError(["must not be empty: give letters and ? * [..] wildcards"])
    problems: list[str] = []
    tokens: list[Token] = []
    i = 0
    while i < len(source):
        ch = source[i]
        where = f"character {i + 1}"
        if ch == "[":
            end = source.find("]", i + 1)
            if end < 0:
                problems.append(f"{where}: '[' is never closed by ']'")
                break
            members = source[i + 1 : end]
            kind = "set"
            if members[:1] in ("^", "!"):
                kind, members = "not", members[1:]
            bad = sorted({m for m in members if not _is_letter(m)})
            if not members:
                problems.append(f"{where}: empty set '[]': list the letters, e.g. [aeiou]")
            elif bad:
                shown = " ".join(repr(b) for b in bad)
                hint = "; ranges such as a-e are not supported, list the letters" if "-" in bad else ""
                problems.append(f"{where}: a set holds letters only, not {shown}{hint}")
            tokens.append((kind, "".join(sorted(set(members)))))
            i = end + 1
            continue
        if ch == "]":
            problems.append(f"{where}: ']' without '['")
        elif ch == "?":
            tokens.append(("any", ""))
        elif ch == "*":
            if not tokens or tokens[-1][0] != "star":
                tokens.append(("star", ""))
        elif _is_letter(ch) or ch in WORD_PUNCTUATION:
            tokens.append(("lit", ch))
        else:
            problems.append(f"{where}: {ch!r} is not a letter or one of ? * [ ]")
        i += 1
    if problems:
        raise PatternError(problems)
    return Pattern(source, tuple(tokens))


def _is_letter(ch: str) -> bool:
    return unicodedata.category(ch)[0] in ("L", "M")


def _atom_str(kind: str, chars: str) -> str:
    if kind == "lit":
        return re.escape(chars)
    if kind == "any":
        return _LETTER
    members = "".join(re.escape(ch) for ch in chars)
    return f"[{members}]" if kind == "set" else f"[^{members}\\n'\\-]"


def _atom_utf8(kind: str, chars: str) -> str:
    """The atom as a bytes-regex source, written as latin-1 text (one char per byte)."""

    def enc(ch: str) -> str:
        return re.escape(ch.encode("utf-8")).decode("latin-1")

    if kind == "lit":
        return enc(chars)
    any_letter = _LETTER_UTF8.decode("latin-1")
    if kind == "any":
        return any_letter
    ascii_ = "".join(re.escape(ch) for ch in chars if ord(ch) < 128)
    wide = [enc(ch) for ch in chars if ord(ch) >= 128]
    options = ([f"[{ascii_}]"] if ascii_ else []) + wide
    one_of = "(?:" + "|".join(options) + ")"
    return one_of if kind == "set" else f"(?!{one_of}){any_letter}"


def _body(tokens: Sequence[Token], atom: Callable[[str, str], str], letter: str | bytes) -> str:
    """The regex of a token run, linear-time whatever the stars.

    Between two stars a segment of fixed width is taken at its leftmost fit
    and never revisited (an atomic group): a glob match exists if and only if
    the leftmost choice of every middle segment leads to one, so no
    backtracking is lost, and ``*a*a*a*a*b`` costs no more than its length.
    A segment that starts with an ASCII letter skips to that letter with a
    negated class instead of trying every position (three times faster).
    """
    letter_s = letter.decode("latin-1") if isinstance(letter, bytes) else letter
    segments: list[list[Token]] = [[]]
    for token in tokens:
        if token[0] == "star":
            segments.append([])
        else:
            segments[-1].append(token)

    def text(segment: list[Token]) -> str:
        return "".join(atom(kind, chars) for kind, chars in segment)

    if len(segments) == 1:
        return text(segments[0])
    head, *middle, tail = segments
    out = [text(head)]
    for segment in middle:
        kind, first = segment[0]
        if kind == "lit" and first.isascii() and first not in WORD_PUNCTUATION:
            skip = f"[^{re.escape(first)}\\n'\\-]*{re.escape(first)}"
            out.append(f"(?>{skip})" if len(segment) == 1 else f"(?>(?:{skip})+?{text(segment[1:])})")
        else:
            out.append(f"(?>{letter_s}*?{text(segment)})")
    out.append(f"{letter_s}*{text(tail)}")
    return "".join(out)


# ---------------------------------------------------------------- order, bounds and cursors


@dataclass(frozen=True, order=True)
class Bound:
    """A place in result order: forms sort by ``(rank, form)``.

    ``after`` False: the place *at* ``(rank, form)``, which is still to be
    seen; True: the place just after it. A form at key ``k`` lies at or past
    the bound when ``(*k, False) >= (rank, form, after)``.
    """

    rank: int
    form: str
    after: bool = True

    def admits(self, rank: int, form: str) -> bool:
        return (rank, form, False) >= (self.rank, self.form, self.after)


class CursorError(ValueError):
    """A cursor that was not given out for this query (edited, truncated, or from another one)."""


def encode_cursor(bound: Bound, scope: str) -> str:
    """An opaque token for ``bound``; ``scope`` names the query it belongs to.

    The token is base64url of the position and a keyed 64-bit checksum over
    it and the scope: enough to refuse a cursor that was edited or sent with
    another pattern, filter, ruleset or lexicon. It is not a secret.
    """
    payload = json.dumps([1, bound.rank, bound.form, int(bound.after)], ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(payload + _check(payload, scope)).rstrip(b"=").decode("ascii")


def decode_cursor(token: str, scope: str) -> Bound:
    """The bound a token stands for; :class:`CursorError` if it is not this query's."""
    refusal = "not a cursor of this query: pass next_cursor back unchanged, with the same pattern, filters, ruleset and language"
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        payload, check = raw[:-8], raw[-8:]
        if len(raw) <= 8 or check != _check(payload, scope):
            raise CursorError(refusal)
        version, rank, form, after = json.loads(payload.decode("utf-8"))
        if version != 1 or not isinstance(rank, int) or not isinstance(form, str) or after not in (0, 1):
            raise CursorError(refusal)
    except (ValueError, TypeError) as err:
        raise CursorError(refusal) from err
    return Bound(rank, form, bool(after))


def _check(payload: bytes, scope: str) -> bytes:
    return hashlib.blake2b(payload, key=hashlib.sha256(scope.encode("utf-8")).digest(), digest_size=8).digest()


def sort_rank(rank: int | None) -> int:
    return UNRANKED if rank is None else rank
