"""Word search, pure: patterns, result order and paging, time budgets, near misses.

Three questions a player asks of a lexicon, answered here without any I/O:

- *which words fit this pattern* (:func:`find_words`): ``?`` is one letter,
  ``*`` any run of letters (also none), ``[aeiou]`` one letter of a set,
  ``[^aeiou]`` one letter not in it; anything else is a literal letter, and
  the apostrophe and hyphen stand for themselves (no wildcard matches them).
- *which words these cards lay* (:func:`anagram_words`);
- *which words are close to this one* (:func:`suggest`): Damerau edits (a
  deletion, insertion, substitution or swap of neighbours) over the letters of
  the ruleset's deck, one edit first, two when the lexicon can prune them.

Every word any of them returns as playable has passed
:func:`wordsvc.core.verdict.judge` (or :func:`~wordsvc.core.verdict.judge_cards`
for a laying) under the ruleset: the verdict is the single source of truth,
the indexes only propose. Results are ordered by commonness (the lexicon's
rank, smaller first, unranked last) then by code point, and paged by an
opaque cursor naming the last position seen.

The index a search scans is anything that follows :class:`FormSource`: the
compiled one lives in :mod:`wordsvc.data.search_index`; :class:`PlainScan`
is the reference (a sorted scan of an enumerable lexicon), used by the tests
and for small lexicons.

Every search runs against a :class:`Deadline`; a search that meets it returns
what it found with ``truncated`` set and a cursor to go on from, instead of
running on.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

from .candidates import CandidateSource, letter_key
from .cards import Cards
from .errors import InvalidRequest
from .lexicon import Lexicon
from .ruleset import Ruleset
from .text import WORD_PUNCTUATION, normalize
from .verdict import Verdict, judge, judge_cards

__all__ = [
    "MAX_PATTERN_CHARS",
    "ORDINARY",
    "UNRANKED",
    "AnagramHit",
    "AnagramResult",
    "Bound",
    "CursorError",
    "Deadline",
    "FormSource",
    "Pattern",
    "PatternError",
    "PlainScan",
    "SuggestResult",
    "Suggestion",
    "WordHit",
    "WordPage",
    "WordQuery",
    "anagram_words",
    "compile_pattern",
    "decode_cursor",
    "edits1",
    "edits2",
    "encode_cursor",
    "find_words",
    "letter_count",
    "suggest",
]

#: The issue's bound: a longer pattern is refused before any work.
MAX_PATTERN_CHARS = 32
#: The sort rank of a form the lexicon gives no commonness for: after every rank.
UNRANKED = 1 << 30
#: The class name a ``classes`` filter uses for a reading with no class.
ORDINARY = "ordinary"
#: Reason codes that mean the deck cannot lay the word within the largest hand.
_UNLAID = frozenset({"not_spellable", "too_long", "invalid_characters"})


# ---------------------------------------------------------------- time budget


class Deadline:
    """A point on the monotonic clock a search must not run past.

    >>> Deadline(60).expired
    False
    >>> Deadline(0).expired
    True
    """

    __slots__ = ("_clock", "at")

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self.at = clock() + seconds

    @property
    def expired(self) -> bool:
        return self._clock() >= self.at

    def remaining(self) -> float:
        return max(0.0, self.at - self._clock())


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


# ---------------------------------------------------------------- sources


Scanned = tuple[int, str] | Bound


class FormSource(Protocol):
    """Forms of a lexicon in result order: what :func:`find_words` scans."""

    def scan(self, pattern: Pattern, letters: tuple[int, int], start: Bound | None, deadline: Deadline, playable: Ruleset | None = None) -> Iterator[Scanned]:
        """``(rank, form)`` of every form matching ``pattern`` with ``letters[0]..letters[1]`` letters, in order, from ``start``.

        ``playable``: only forms this ruleset may accept are wanted (the
        source may leave out forms it knows it refuses). When ``deadline``
        expires first, the last item is a :class:`Bound`: everything before
        it has been looked at, nothing after it.
        """
        ...

    def prefilter(self, ruleset: Ruleset) -> Callable[[str], bool] | None:
        """A quick test that is False only for forms the ruleset surely refuses (``None``: no such test)."""
        ...


class PlainScan:
    """The reference :class:`FormSource`: every form of an enumerable lexicon, sorted, tested one by one."""

    def __init__(self, lexicon: Lexicon, rank: Callable[[str], int | None] | None = None):
        self.lexicon = lexicon
        self._rank = rank or getattr(lexicon, "rank", None) or (lambda form: None)

    @cached_property
    def ordered(self) -> list[tuple[int, str]]:
        return sorted((sort_rank(self._rank(form)), form) for form in self.lexicon.forms())

    def scan(self, pattern: Pattern, letters: tuple[int, int], start: Bound | None, deadline: Deadline, playable: Ruleset | None = None) -> Iterator[Scanned]:
        lo, hi = letters
        for n, (rank, form) in enumerate(self.ordered):
            if n % 512 == 0 and deadline.expired:
                yield Bound(rank, form, after=False)
                return
            if start is not None and not start.admits(rank, form):
                continue
            if lo <= letter_count(form) <= hi and pattern.matches(form):
                yield rank, form

    def prefilter(self, ruleset: Ruleset) -> Callable[[str], bool] | None:
        return None


# ---------------------------------------------------------------- /words


@dataclass(frozen=True)
class WordQuery:
    """``classes`` None: playable forms only; else forms with a reading of one of these classes (``ordinary``: none)."""

    pattern: Pattern
    min_len: int | None = None
    max_len: int | None = None
    classes: frozenset[str] | None = None
    limit: int = 50
    start: Bound | None = None

    def scope(self, ruleset: Ruleset, lexicon: Lexicon) -> str:
        """What a cursor of this query is bound to (not the limit: a client may change it between pages)."""
        classes = ",".join(sorted(self.classes)) if self.classes is not None else "-"
        return f"words|{lexicon.info.id}|{lexicon.info.sha256}|{ruleset.id}|{self.pattern.text}|{self.min_len}|{self.max_len}|{classes}"


@dataclass(frozen=True)
class WordHit:
    word: str
    letters: int
    classes: tuple[str, ...]
    points: int | None
    cards: Cards | None
    rank: int | None
    valid: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "word": self.word,
            "letters": self.letters,
            "points": self.points,
            "cards": [face.upper() for face in self.cards] if self.cards is not None else None,
            "classes": list(self.classes),
            "rank": self.rank,
            "valid": self.valid,
        }


@dataclass(frozen=True)
class WordPage:
    hits: tuple[WordHit, ...]
    next: Bound | None
    truncated: bool


def find_words(query: WordQuery, ruleset: Ruleset, lexicon: Lexicon, source: FormSource, deadline: Deadline) -> WordPage:
    """One page of the forms matching ``query``, in result order, each judged under ``ruleset``.

    Reads one form past the page to know whether a next page exists. Stops at
    ``deadline`` with what it found: ``truncated`` when the page is short,
    with ``next`` where to go on.
    """
    lo = max(query.pattern.min_letters, query.min_len or 1, 1)
    cap = [query.pattern.max_letters, query.max_len]
    if query.classes is None:  # a playable word fits the largest hand
        cap.append(ruleset.max_hand * max((len(face) for face in ruleset.deck.cards), default=1))
    hi = min(c for c in cap if c is not None) if any(c is not None for c in cap) else 1 << 16
    if lo > hi:
        return WordPage((), None, False)
    keep = _word_filter(query, ruleset, lexicon, source)
    hits: list[WordHit] = []
    last: tuple[int, str] | None = None  # the key of the last hit on the page
    playable = ruleset if query.classes is None else None
    stream = _with_house_words(source.scan(query.pattern, (lo, hi), query.start, deadline, playable), query, ruleset, lexicon, (lo, hi))
    for item in stream:
        if isinstance(item, Bound):  # the source met the deadline
            if len(hits) >= query.limit:
                return WordPage(tuple(hits), _after(last), False)
            return WordPage(tuple(hits), item, True)
        rank, form = item
        hit = keep(form, rank)
        if hit is not None:
            if len(hits) >= query.limit:  # one past the page: there is a next one
                return WordPage(tuple(hits), _after(last), False)
            hits.append(hit)
            last = item
        if deadline.expired:
            if len(hits) >= query.limit:
                return WordPage(tuple(hits), _after(last), False)
            return WordPage(tuple(hits), Bound(rank, form, after=True), True)
    return WordPage(tuple(hits), None, False)


def _after(key: tuple[int, str] | None) -> Bound | None:
    return None if key is None else Bound(key[0], key[1], after=True)


def _word_filter(query: WordQuery, ruleset: Ruleset, lexicon: Lexicon, source: FormSource) -> Callable[[str, int], WordHit | None]:
    if query.classes is None:
        quick = source.prefilter(ruleset)
        banned, allow, refuse = ruleset.banned_classes, ruleset.house_allow, ruleset.house_refuse

        def keep(form: str, rank: int) -> WordHit | None:
            if form in refuse or (quick is not None and not quick(form)):
                return None
            if form not in allow and not any(not (classes & banned) for classes in lexicon.readings(form)):
                return None
            verdict = judge(form, ruleset, lexicon)
            return _hit(verdict, rank) if verdict.valid else None

        return keep
    wanted = query.classes

    def keep_classes(form: str, rank: int) -> WordHit | None:
        readings = lexicon.readings(form) or ((frozenset(),) if form in ruleset.house_allow else ())
        if not any((classes & wanted) or (not classes and ORDINARY in wanted) for classes in readings):
            return None
        return _hit(judge(form, ruleset, lexicon), rank)

    return keep_classes


def _hit(verdict: Verdict, rank: int) -> WordHit:
    laid = not any(reason.code in _UNLAID for reason in verdict.reasons)
    best = verdict.spellings[0] if laid and verdict.spellings else None
    return WordHit(
        verdict.normalized,
        letter_count(verdict.normalized),
        tuple(verdict.classes),
        best.points if best else None,
        best.cards if best else None,
        None if rank == UNRANKED else rank,
        verdict.valid,
    )


def _with_house_words(stream: Iterator[Scanned], query: WordQuery, ruleset: Ruleset, lexicon: Lexicon, letters: tuple[int, int]) -> Iterator[Scanned]:
    """The source's forms, with the ruleset's house words the lexicon lacks merged in (unranked)."""
    extra = sorted(
        (UNRANKED, form)
        for form in ruleset.house_allow
        if not lexicon.readings(form)
        and letters[0] <= letter_count(form) <= letters[1]
        and query.pattern.matches(form)
        and (query.start is None or query.start.admits(UNRANKED, form))
    )
    if not extra:
        yield from stream
        return
    pending = iter(extra)
    nxt = next(pending, None)
    for item in stream:
        if isinstance(item, Bound):
            yield Bound(*min((item.rank, item.form, item.after), (*nxt, False))) if nxt else item
            return
        while nxt is not None and nxt < item:
            yield nxt
            nxt = next(pending, None)
        yield item
    while nxt is not None:
        yield nxt
        nxt = next(pending, None)


# ---------------------------------------------------------------- /suggest


def edits1(word: str, alphabet: Iterable[str], has_prefix: Callable[[str], bool] | None = None) -> Iterator[str]:
    """Every string one Damerau edit from ``word`` over ``alphabet`` (with repeats).

    ``has_prefix(p)`` False promises that no word starts with ``p``: edits
    past that point are not generated.

    >>> sorted(set(edits1("ab", "ab")))
    ['a', 'aa', 'aab', 'aba', 'abb', 'b', 'ba', 'bab', 'bb']
    """
    for candidate, _ in _edits_from(word, 0, sorted(set(alphabet)), has_prefix):
        yield candidate


def edits2(word: str, alphabet: Iterable[str], has_prefix: Callable[[str], bool] | None = None) -> Iterator[str]:
    """Every string two Damerau edits from ``word`` (and some one or none away), with repeats.

    The left edit comes first and the second lies at or after its end, so
    each pair of edit places is tried once; ``has_prefix`` prunes as in
    :func:`edits1`, which is what makes two edits affordable on a trie.
    """
    letters = sorted(set(alphabet))
    for first, end in _edits_from(word, 0, letters, has_prefix):
        for candidate, _ in _edits_from(first, end, letters, has_prefix):
            yield candidate


def _edits_from(word: str, start: int, letters: Sequence[str], has_prefix: Callable[[str], bool] | None) -> Iterator[tuple[str, int]]:
    """``(candidate, end)`` for each edit at a position >= ``start``; ``end``: where the edit's text ends in the candidate."""
    n = len(word)
    for i in range(start, n + 1):
        head = word[:i]
        if has_prefix is not None and i and not has_prefix(head):
            return
        for ch in letters:
            yield head + ch + word[i:], i + 1  # insertion
        if i < n:
            tail = word[i + 1 :]
            yield head + tail, i  # deletion
            for ch in letters:
                if ch != word[i]:
                    yield head + ch + tail, i + 1  # substitution
            if i + 1 < n and word[i] != word[i + 1]:
                yield head + word[i + 1] + word[i] + word[i + 2 :], i + 2  # swap of neighbours


@dataclass(frozen=True)
class Suggestion:
    word: str
    distance: int
    rank: int | None
    points: int | None
    cards: Cards | None

    def to_dict(self) -> dict[str, object]:
        cards = [face.upper() for face in self.cards] if self.cards is not None else None
        return {"word": self.word, "distance": self.distance, "rank": self.rank, "points": self.points, "cards": cards}


@dataclass(frozen=True)
class SuggestResult:
    word: str
    suggestions: tuple[Suggestion, ...]
    max_distance: int
    truncated: bool


def suggest(
    word: str,
    ruleset: Ruleset,
    lexicon: Lexicon,
    limit: int = 10,
    deadline: Deadline | None = None,
    *,
    known: Callable[[str], bool] | None = None,
    has_prefix: Callable[[str], bool] | None = None,
    rank: Callable[[str], int | None] | None = None,
    prefilter: Callable[[str], bool] | None = None,
    max_distance: int = 2,
) -> SuggestResult:
    """Up to ``limit`` playable words close to ``word``: by edit distance, then commonness, then code point.

    Candidates are generated over the deck's letters; ``known(candidate)``
    (default: the lexicon has readings for it) picks the forms, each is judged
    under ``ruleset`` (unless ``prefilter``, a :meth:`FormSource.prefilter`,
    already rules it out) and only valid ones are kept. One edit is always tried
    in full (a few hundred look-ups). Two edits are tried when one gave fewer
    than ``limit`` words and ``has_prefix`` can prune them (a trie: some
    thousands of look-ups; an analyser has none, so it gets one edit); they
    stop at ``deadline``, and ``truncated`` says so. ``word`` itself is never
    suggested.
    """
    deadline = deadline or Deadline(0.05)
    target = _plain_letters(word)
    alphabet = sorted(ch for ch in ruleset.deck.letters if len(ch) == 1)
    known = known or (lambda candidate: bool(lexicon.readings(candidate)))
    rank = rank or getattr(lexicon, "rank", None)
    house = ruleset.house_allow
    found: list[Suggestion] = []
    truncated = False
    tried = 0

    def take(forms: set[str], distance: int) -> None:
        """Judge the forms most common first, until the list is full: the rest could only rank below."""
        for form in sorted(forms, key=lambda f: (sort_rank(rank(f) if rank is not None else None), f)):
            if len(found) >= limit:
                return
            if form not in house and prefilter is not None and not prefilter(form):
                continue
            verdict = judge(form, ruleset, lexicon)
            if verdict.valid:
                best = verdict.spellings[0]
                found.append(Suggestion(form, distance, rank(form) if rank is not None else None, best.points, best.cards))

    if target:
        tried = 1
        near: set[str] = set()
        for n, candidate in enumerate(edits1(target, alphabet, has_prefix)):
            if candidate not in near and (candidate in house or known(candidate)):
                near.add(candidate)
            if n % 64 == 63 and deadline.expired:
                truncated = True
                break
        near.discard(target)
        take(near, 1)
        if max_distance >= 2 and len(found) < limit and has_prefix is not None and not truncated:
            tried = 2
            far, truncated = _two_edits(target, alphabet, known, has_prefix, house, deadline)
            take(far - near - {target}, 2)
    return SuggestResult(target, tuple(found), tried, truncated)


def _two_edits(
    word: str, letters: Sequence[str], known: Callable[[str], bool], has_prefix: Callable[[str], bool], house: frozenset[str], deadline: Deadline
) -> tuple[set[str], bool]:
    """The known forms two edits from ``word`` (:func:`edits2`, inlined: it is the hot loop), and whether the deadline cut it."""
    hits: set[str] = set()
    for step, (first, end) in enumerate(_edits_from(word, 0, letters, has_prefix)):
        if step % 16 == 15 and deadline.expired:
            return hits, True
        n = len(first)
        for i in range(end, n + 1):
            head = first[:i]
            if i and not has_prefix(head):
                break
            rest = first[i:]
            for ch in letters:
                candidate = head + ch + rest
                if known(candidate) or candidate in house:
                    hits.add(candidate)
            if i < n:
                tail = first[i + 1 :]
                candidate = head + tail
                if known(candidate) or candidate in house:
                    hits.add(candidate)
                own = first[i]
                for ch in letters:
                    if ch != own:
                        candidate = head + ch + tail
                        if known(candidate) or candidate in house:
                            hits.add(candidate)
                if i + 1 < n and own != first[i + 1]:
                    candidate = head + first[i + 1] + own + first[i + 2 :]
                    if known(candidate) or candidate in house:
                        hits.add(candidate)
    return hits, False


def _plain_letters(word: str) -> str:
    """The letters of a word as typed or in card notation: ``(QU)iz`` -> ``quiz``."""
    return normalize(word.replace("(", "").replace(")", "").strip())


# ---------------------------------------------------------------- /anagrams


@dataclass(frozen=True)
class AnagramHit:
    word: str
    cards: Cards
    points: int
    rank: int | None

    def to_dict(self) -> dict[str, object]:
        return {"word": self.word, "cards": [face.upper() for face in self.cards], "points": self.points, "letters": len(self.word), "rank": self.rank}


@dataclass(frozen=True)
class AnagramResult:
    cards: Cards
    hits: tuple[AnagramHit, ...]
    truncated: bool


def anagram_words(
    cards: Sequence[str],
    ruleset: Ruleset,
    lexicon: Lexicon,
    source: CandidateSource,
    every_card: bool = True,
    deadline: Deadline | None = None,
    prefilter: Callable[[str], bool] | None = None,
) -> AnagramResult:
    """Every valid word these cards lay, each with its best laying from them; best points first.

    ``every_card``: only words that use all the cards; else any of them.
    Double-letter cards count as laid: ``(qu)izt`` lays QUIZ as QU-I-Z, not
    Q-U-I-Z. A card the deck lacks, or more copies than it holds, is an
    :class:`~wordsvc.core.errors.InvalidRequest`. Every laying is judged with
    :func:`~wordsvc.core.verdict.judge_cards`, unless ``prefilter`` (a
    :meth:`FormSource.prefilter`) already rules the word out.
    """
    deadline = deadline or Deadline(0.05)
    hand = tuple(normalize(face) for face in cards)
    _check_hand(hand, ruleset)
    have = Counter(hand)
    letters = "".join(hand)
    max_cards = min(len(hand), ruleset.max_hand)
    rank_of = getattr(lexicon, "rank", None)
    best: dict[str, AnagramHit] = {}
    truncated = False

    singles = all(len(face) == 1 for face in hand)

    def ways(form: str) -> Iterator[Cards]:
        """The layings of ``form`` from the hand, best points first."""
        if singles:  # the walk took the letters from the hand: one laying, card by card
            if len(form) <= max_cards:
                yield tuple(form)
            return
        for way in ruleset.deck.spellings(form, max_cards=max_cards):
            used = Counter(way)
            if (used == have) if every_card else all(have[face] >= k for face, k in used.items()):
                yield way

    def try_key(found: Sequence[str]) -> None:
        nonlocal truncated
        for form in found:
            if deadline.expired:
                truncated = True
                return
            if form in best or (prefilter is not None and not prefilter(form)):
                continue
            for way in ways(form):
                if judge_cards(way, ruleset, lexicon).valid:
                    best[form] = AnagramHit(form, way, ruleset.deck.points(way), rank_of(form) if rank_of is not None else None)
                    break

    if every_card:
        try_key(source.candidates(letter_key(letters)))
    else:
        truncated = _walk_sub_keys(Counter(letters), source, try_key, deadline) or truncated
    hits = sorted(best.values(), key=lambda h: (-h.points, h.word))
    return AnagramResult(hand, tuple(hits), truncated)


def _walk_sub_keys(letters: Counter[str], source: CandidateSource, visit: Callable[[Sequence[str]], None], deadline: Deadline) -> bool:
    """Visit the forms of every sorted sub-multiset of ``letters`` that the source knows; True if the deadline cut it short."""
    alphabet = sorted(letters)
    stopped = False

    def walk(start: int, prefix: str) -> None:
        nonlocal stopped
        for j in range(start, len(alphabet)):
            ch = alphabet[j]
            key = prefix
            for _ in range(letters[ch]):
                key += ch
                found = source.probe(key)
                if found is None:
                    break
                if found:
                    visit(found)
                if deadline.expired:
                    stopped = True
                    return
                walk(j + 1, key)
                if stopped:
                    return

    walk(0, "")
    return stopped


def _check_hand(hand: Cards, ruleset: Ruleset) -> None:
    deck = ruleset.deck
    problems: dict[str, list[str]] = {}
    for i, face in enumerate(hand):
        if face not in deck:
            problems.setdefault(f"cards.{i}", []).append(f"{face.upper()} is not a card of the {ruleset.id} deck")
    for face, used in deck.over_count(hand).items():
        problems.setdefault("cards", []).append(f"{used} {face.upper()} cards, but the deck holds {deck.count(face)}")
    if problems:
        raise InvalidRequest("The cards do not come from the ruleset's deck; see errors.", problems)
