"""The word-search index: built beside a compiled lexicon, memory-mapped, scanned in result order.

``wordsvc build`` calls :func:`build_search_index` for every compiled
(enumerable) lexicon; the service opens it with :class:`SearchIndexes`.
Files, in ``build/lexicons/<id>/search/``:

``forms.txt``   every form, one a line, in *sections*: one per (commonness
                rank, letters, kind), sections in that order, the lines of a
                section in code-point order. So a scan in file order is a
                scan in result order within a length, a pattern of known
                length reads only its own sections, and a scan can stop as
                soon as a page is full. Kind 0 holds the forms playable under
                the index ruleset as far as classes and deck go (a reading
                it allows, laid within the largest hand), kind 1 the rest: a
                search for playable words under that ruleset, or a stricter
                one with the same deck, reads kind 0 only. Latin-1 when every form fits
                (English, Icelandic), else UTF-8; ``\\n`` before and after
                every form, so one bytes regex finds whole lines.
``points.u16``  per key id of the lexicon's ``forms.marisa``: the best
                points of the form laid with the index ruleset's deck within
                its largest hand; 65535 when it cannot be laid (a letter or a
                card too few, or too many cards).
``meta.json``   format, the lexicon's sha256 (a stale index is rebuilt, and
                refused at load), the ruleset and deck the points are for,
                the section table and, per character and pair of
                neighbouring characters, about how many forms hold it
                (counted on a sample of some 100,000 forms, to pick the
                rarest literal of a pattern).

An *entry* of the index (:meth:`SearchIndex.entry`) is a form with its
language, classes, letters, best points and rank: the classes and rank come
from the compiled lexicon's own arrays (``readings.u16``, ``ranks.u8``),
addressed by the same key id, so they are not stored twice.

Why not whoosh: measured on the same machine (docs/search.md), a whoosh
index of the 336 k English forms takes minutes to build and 80 MB, its term
check is 10 times slower than the trie's, and its fuzzy and prefix queries
are slower than edit candidates on the trie and a scan of this file; an
Icelandic one (3.5 M forms) would be well over a gigabyte. These files are
under 5 MB for English and are shared by every worker.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import time
from array import array
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import marisa_trie

from ..core.cards import Deck
from ..core.errors import out_of_descriptors
from ..core.lexicon import Lexicon
from ..core.ruleset import Ruleset
from ..core.text import fold_diacritics
from ..core.wordsearch.queries import SCAN_BYTES, UNRANKED, Bound, Pattern, Scanned, letter_count
from ..core.work import Work
from .lexicons import CompiledLexicon, map_file
from .rulesets import RulesetBook, load_rulesets

__all__ = ["FORMAT", "NO_POINTS", "SearchIndex", "SearchIndexError", "SearchIndexes", "build_search_index", "index_ruleset"]

FORMAT = "wordsvc-search/1"
FOLDER = "search"
#: ``points.u16`` value of a form the deck cannot lay within the largest hand.
NO_POINTS = 0xFFFF
#: Bytes of text a regex scan reads between two checks of the work budget: about 1 ms of regex work.
CHUNK = 1 << 16
#: Units of work a literal search charges for each line it finds and tests with the whole pattern (about 0.5 us).
LINE_TEST = 1
#: A literal is searched for directly (instead of running the regex on every
#: line) when at most this share of forms holds its rarest letter pair: the
#: regex costs about 0.13 us a line, a literal hit about 1.3 us (measured).
LITERAL_SHARE = 0.1


class SearchIndexError(ValueError):
    """A search index that is missing, malformed or built from other data than the lexicon's."""


# ---------------------------------------------------------------- build


def index_ruleset(book: RulesetBook, lang: str) -> Ruleset | None:
    """The ruleset whose deck the index's points are for: the language's own base ruleset.

    A ruleset of exactly this language that extends no other comes first
    (``standard`` for en-US, ``islenska`` for is), then any of the language;
    a language with none borrows ``standard`` when it shares its primary tag
    (en-GB). ``None``: points are left unknown.
    """
    own = sorted((r for r in book if r.language.lower() == lang.lower()), key=lambda r: (r.extends is not None, r.id != "standard", r.id))
    if own:
        return own[0]
    standard = book.rulesets.get("standard")
    if standard is not None and standard.language.split("-")[0].lower() == lang.split("-")[0].lower():
        return standard
    return None


def deck_signature(ruleset: Ruleset | None) -> str:
    """What the points depend on: the deck's cards and the largest hand."""
    if ruleset is None:
        return "none"
    cards = sorted((c.face, c.count, c.value) for c in ruleset.deck.cards.values())
    return hashlib.sha256(json.dumps([cards, ruleset.max_hand]).encode()).hexdigest()


class PointsTable:
    """Best points of a form laid with one deck within its largest hand, fast enough for millions of forms.

    The common case costs one pass: when no multi-letter card is worth more
    than its letters as single cards (true of every deck shipped: QU 9 against
    Q+U 19, IN 7 against I+N 7), laying every letter as a single card is best
    whenever the deck holds enough of them and the hand is large enough. Any
    other word goes to :meth:`~wordsvc.core.cards.Deck.spellings`, which is
    exact, unless even using every multi-letter card it could cannot bring it
    within the hand.
    """

    def __init__(self, deck: Deck, max_cards: int):
        self.deck, self.max_cards = deck, max_cards
        cards = deck.cards
        self.single = {face: card.value for face, card in cards.items() if len(face) == 1}
        self.copies = {face: card.count for face, card in cards.items() if len(face) == 1}
        self.multi = [face for face in cards if len(face) > 1]
        self.letters = deck.letters
        self.single_letters = frozenset(self.single)
        self.multi_copies = [(face, cards[face].count) for face in self.multi]
        self.pairs_only = all(len(face) == 2 for face in self.multi)
        #: The most letters multi-letter cards can save in one word: every copy laid.
        self.max_saving = sum(cards[face].count * (len(face) - 1) for face in self.multi)
        self.singles_best = all(all(ch in self.single for ch in face) and cards[face].value <= sum(self.single[ch] for ch in face) for face in self.multi)

    def best(self, letters: str) -> int | None:
        if not letters or not self.letters.issuperset(letters):
            return None
        n = len(letters)
        if self.singles_best and n <= self.max_cards and self.single_letters.issuperset(letters):
            distinct = set(letters)
            if len(distinct) == n or all(letters.count(ch) <= self.copies[ch] for ch in distinct):
                return sum(map(self.single.__getitem__, letters))
        if n > self.max_cards and (n > self.max_cards + self.max_saving or n - self._most_merges(letters) > self.max_cards):
            return None
        ways = self.deck.spellings(letters, max_cards=self.max_cards)
        return self.deck.points(ways[0]) if ways else None

    def _most_merges(self, letters: str) -> int:
        """An upper bound on the letters multi-letter cards can save in ``letters``.

        The places where a card fits, at most as many per card as the deck
        holds (``str.count`` undercounts overlapping places such as ``ara``,
        which cannot both be laid anyway); with two-letter cards only, also
        the most places that do not overlap, chosen greedily by end.
        """
        capped = sum(min(letters.count(face), count) * (len(face) - 1) for face, count in self.multi_copies)
        if not self.pairs_only or len(letters) - capped > self.max_cards:
            return capped
        places = []
        for face in self.multi:
            at = letters.find(face)
            while at >= 0:
                places.append((at + 2, at))
                at = letters.find(face, at + 1)
        places.sort()
        apart, free = 0, 0
        for end, at in places:
            if at >= free:
                apart, free = apart + 1, end
        return min(apart, capped)


def build_search_index(
    lexicon_dir: str | Path, rulesets_dir: str | Path | None = None, force: bool = False, log: Callable[[str], Any] = print
) -> dict[str, Any]:
    """Build (or keep, when up to date) the search index of the compiled lexicon in ``lexicon_dir``.

    Idempotent: skipped when ``meta.json`` names the lexicon's sha256 and the
    same ruleset deck. Returns the meta, with ``seconds`` when it was built.
    """
    lexicon_dir = Path(lexicon_dir)
    lexicon = CompiledLexicon(lexicon_dir)
    ruleset = index_ruleset(load_rulesets(rulesets_dir), lexicon.info.lang)
    out = lexicon_dir / FOLDER
    signature = deck_signature(ruleset)
    meta_path = out / "meta.json"
    if not force and meta_path.is_file():
        old = json.loads(meta_path.read_text(encoding="utf-8"))
        if old.get("format") == FORMAT and old.get("lexicon_sha256") == lexicon.info.sha256 and old.get("deck_signature") == signature:
            log(f"{lexicon.info.id}: search index up to date ({old['entries']} forms)")
            return dict(old)
    started = time.perf_counter()
    trie = marisa_trie.Trie()
    trie.mmap(str(lexicon_dir / "forms.marisa"))
    ranks = (lexicon_dir / "ranks.u8").read_bytes()
    points = array("H", [NO_POINTS]) * len(trie)
    fold = lexicon.info.fold_diacritics
    table_ = PointsTable(ruleset.deck, ruleset.max_hand) if ruleset is not None else None
    sections: dict[tuple[int, int, int], list[str]] = {}
    reading_ids = memoryview((lexicon_dir / "readings.u16").read_bytes()).cast("H")
    banned = ruleset.banned_classes if ruleset is not None else frozenset()
    allowed = [any(not (set(c) & banned) for c in combo) for combo in json.loads((lexicon_dir / "meta.json").read_text(encoding="utf-8"))["readings"]]
    holding: Counter[str] = Counter()
    sample = max(1, len(trie) // 100_000)  # letter statistics from about 100,000 forms are plenty
    for form, key_id in trie.iteritems():
        if key_id % sample == 0:
            holding.update({*form, *(form[i : i + 2] for i in range(len(form) - 1))})
        found = table_.best(fold_diacritics(form, lexicon.info.fold_keep) if fold else form) if table_ is not None else None
        if found is not None:
            points[key_id] = min(found, NO_POINTS - 1)
        kind = 0 if found is not None and allowed[reading_ids[key_id]] else 1
        sections.setdefault((ranks[key_id] or UNRANKED, len(form) - form.count("'") - form.count("-"), kind), []).append(form)
    encoding = "latin-1" if _fits_latin1(sections) else "utf-8"
    out.mkdir(parents=True, exist_ok=True)
    table = []
    offset = 1
    with (out / "forms.txt.partial").open("wb") as handle:
        handle.write(b"\n")
        for (rank, letters, kind), forms in sorted(sections.items()):
            text = "".join(f"{form}\n" for form in sorted(forms)).encode(encoding)
            handle.write(text)
            table.append([rank, letters, kind, offset, offset + len(text), len(forms)])
            offset += len(text)
    (out / "points.u16.partial").write_bytes(points.tobytes())
    (out / "forms.txt.partial").replace(out / "forms.txt")
    (out / "points.u16.partial").replace(out / "points.u16")
    meta: dict[str, Any] = {
        "format": FORMAT,
        "lexicon": lexicon.info.id,
        "lang": lexicon.info.lang,
        "lexicon_sha256": lexicon.info.sha256,
        "ruleset": ruleset.id if ruleset is not None else None,
        "banned": sorted(banned),
        "deck_signature": signature,
        "encoding": encoding,
        "entries": len(trie),
        "laid": sum(1 for p in points if p != NO_POINTS),
        "ranked": sum(len(forms) for (rank, _, _), forms in sections.items() if rank != UNRANKED),
        "playable": sum(len(forms) for (_, _, kind), forms in sections.items() if kind == 0),
        "holding": {part: n * sample for part, n in sorted(holding.items())},
        "sections": table,
    }
    meta_path.write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    seconds = round(time.perf_counter() - started, 2)
    log(f"{lexicon.info.id}: search index of {len(trie)} forms in {seconds} s ({offset / 1e6:.1f} MB, points for {meta['ruleset']})")
    return {**meta, "seconds": seconds}


def _fits_latin1(sections: dict[tuple[int, int, int], list[str]]) -> bool:
    try:
        for forms in sections.values():
            "".join(forms).encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


# ---------------------------------------------------------------- load and scan


class _Expired(Exception):
    """A section scan spent the work budget."""


class SearchIndex:
    """A built index, memory-mapped: a :class:`~wordsvc.core.wordsearch.queries.FormSource` for one compiled lexicon."""

    def __init__(self, lexicon: CompiledLexicon):
        folder = lexicon.folder / FOLDER
        try:
            meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            if out_of_descriptors(err):
                raise  # the machine's state, not a missing index: the app answers 503
            raise SearchIndexError(f"{folder}: no readable meta.json; run `wordsvc build`") from err
        if meta.get("format") != FORMAT:
            raise SearchIndexError(f"{folder}: format {meta.get('format')!r}, expected {FORMAT}")
        if meta.get("lexicon_sha256") != lexicon.info.sha256:
            raise SearchIndexError(f"{folder}: built from another version of {lexicon.info.id}; run `wordsvc build`")
        self.lexicon = lexicon
        self.meta = meta
        self.encoding: str = meta["encoding"]
        self.entries: int = meta["entries"]
        self._holding: dict[str, int] = meta["holding"]
        self._trie = marisa_trie.Trie()
        self._trie.mmap(str(lexicon.folder / "forms.marisa"))
        self._text = map_file(folder / "forms.txt")
        self._points_map = map_file(folder / "points.u16")
        self._points = memoryview(self._points_map).cast("H")
        self._ranks = map_file(lexicon.folder / "ranks.u8")
        self._reading_ids = memoryview(map_file(lexicon.folder / "readings.u16")).cast("H")
        lexicon_meta = json.loads((lexicon.folder / "meta.json").read_text(encoding="utf-8"))
        self._readings = [tuple(frozenset(c) for c in combo) for combo in lexicon_meta["readings"]]
        self._groups: dict[int, list[tuple[int, int, int, int]]] = {}
        for rank, letters, kind, start, end, _count in meta["sections"]:
            self._groups.setdefault(rank, []).append((letters, kind, start, end))
        self._banned = frozenset(meta["banned"])
        self._ranks_in_order = sorted(self._groups)
        self._signature = meta["deck_signature"]
        self._allowed: dict[frozenset[str], bytes] = {}
        self._decks: dict[tuple[str, int, int], bool] = {}

    # -- entries

    def entry(self, form: str) -> dict[str, Any] | None:
        """The index entry of ``form``: form, language, classes, letters, best points, rank (``None``: not a form)."""
        key_id = self._trie.get(form)
        if key_id is None:
            return None
        points = self._points[key_id]
        return {
            "form": form,
            "lang": self.meta["lang"],
            "classes": sorted(set().union(*self._readings[self._reading_ids[key_id]])),
            "letters": letter_count(form),
            "points": None if points == NO_POINTS else points,
            "points_ruleset": self.meta["ruleset"],
            "rank": self._ranks[key_id] or None,
        }

    # -- look-ups for suggestions

    @property
    def known(self) -> Callable[[str], bool]:
        """``known(form)``: True when ``form`` is a form of the lexicon (one trie look-up, 0.6 us; a bare C method)."""
        return self._trie.__contains__  # type: ignore[no-any-return]

    def has_prefix(self, prefix: str) -> bool:
        """True when some form starts with ``prefix``."""
        return next(self._trie.iterkeys(prefix), None) is not None

    def rank(self, form: str) -> int | None:
        key_id = self._trie.get(form)
        return None if key_id is None else self._ranks[key_id] or None

    # -- FormSource

    def prefilter(self, ruleset: Ruleset) -> Callable[[str], bool]:
        """False only for forms ``ruleset`` surely refuses: every reading banned, or (same deck) not layable."""
        banned = ruleset.banned_classes
        allowed = self._allowed.get(banned)
        if allowed is None:
            allowed = self._allowed[banned] = bytes(any(not (c & banned) for c in combo) for combo in self._readings)
        same_deck = self._same_deck(ruleset)
        house = ruleset.house_allow
        trie, reading_ids, points = self._trie, self._reading_ids, self._points

        def quick(form: str) -> bool:
            key_id = trie.get(form)
            if key_id is None or form in house:
                return True
            if not allowed[reading_ids[key_id]]:
                return False
            return not same_deck or points[key_id] != NO_POINTS

        return quick

    def scan(self, pattern: Pattern, letters: tuple[int, int], start: Bound | None, work: Work, playable: Ruleset | None = None) -> Iterator[Scanned]:
        scanner = pattern.scanner(self.encoding)
        if scanner is None:
            return
        literal = self._literal(pattern)
        lo, hi = letters
        kinds = (0,) if playable is not None and self._covers(playable) else (0, 1)
        for rank in self._ranks_in_order:
            if start is not None and rank < start.rank:
                continue
            sections = [(start_, end) for n, kind, start_, end in self._groups[rank] if lo <= n <= hi and kind in kinds]
            begin = start if start is not None and start.rank == rank else None
            scans = [_SectionScan(self._text, s, e, scanner, literal, work, SCAN_BYTES if literal else pattern.scan_bytes) for s, e in sections]
            try:
                yield from self._merge(rank, scans, begin)
            except _Expired:
                yield self._resume(rank, scans)
                return

    def _covers(self, ruleset: Ruleset) -> bool:
        """True when kind 0 holds every form ``ruleset`` can accept: same deck, bans at least as much, no house words."""
        return self._same_deck(ruleset) and ruleset.banned_classes >= self._banned and not ruleset.house_allow

    def _same_deck(self, ruleset: Ruleset) -> bool:
        key = (ruleset.id, id(ruleset.deck), ruleset.max_hand)
        same = self._decks.get(key)
        if same is None:
            same = self._decks[key] = deck_signature(ruleset) == self._signature
        return same

    def _merge(self, rank: int, scans: list[_SectionScan], begin: Bound | None) -> Iterator[tuple[int, str]]:
        if begin is not None:
            at = begin.form.encode(self.encoding, "replace")
            for scan in scans:
                scan.seek(at, begin.after)
        heap: list[tuple[bytes, int]] = []
        for n, scan in enumerate(scans):
            head = scan.next()
            if head is not None:
                heap.append((head, n))
        heapq.heapify(heap)
        decode = self.encoding
        while heap:
            form, n = heap[0]
            yield rank, form.decode(decode)
            head = scans[n].next()
            if head is None:
                heapq.heappop(heap)
            else:
                heapq.heapreplace(heap, (head, n))

    def _resume(self, rank: int, scans: list[_SectionScan]) -> Bound:
        """Where a scan cut short goes on: the smallest form some section has not yet looked at or handed out."""
        frontiers = [f for f in (s.frontier() for s in scans) if f is not None]
        if not frontiers:  # every section was done: go on with the next rank
            return Bound(rank + 1, "", after=False)
        return Bound(rank, min(frontiers).decode(self.encoding), after=False)

    def _literal(self, pattern: Pattern) -> bytes | None:
        """The literal to search for instead of running the regex on every line, if one is rare enough."""
        if pattern.prefix:
            return None  # the regex engine already jumps to a literal prefix
        best: tuple[float, int, str] | None = None
        for fragment in pattern.fragments:
            parts = [fragment[i : i + 2] for i in range(len(fragment) - 1)] or [fragment]
            share = min(self._holding.get(part, 0) for part in parts) / max(self.entries, 1)
            if best is None or (share, -len(fragment)) < best[:2]:
                best = (share, -len(fragment), fragment)
        if best is None or best[0] > LITERAL_SHARE:
            return None
        try:
            return best[2].encode(self.encoding)
        except UnicodeEncodeError:
            return None


class _SectionScan:
    """One section of ``forms.txt``, scanned forward for matching lines; ``pos`` is always a line's leading ``\\n``.

    Charges ``work`` for the bytes it reads (``per_unit`` bytes a unit: the
    pattern's cost for a regex, :data:`~wordsvc.core.wordsearch.queries.SCAN_BYTES`
    for a literal search) and for each line a literal search tests
    (:data:`LINE_TEST`), and checks it
    between chunks and tests: the place a scan stops at depends on the
    pattern and the index alone.
    """

    def __init__(self, text: Any, start: int, end: int, scanner: tuple[Any, Any], literal: bytes | None, work: Work, per_unit: int):
        self.text = text
        self.pos = start - 1
        self.end = end - 1  # the last line's trailing \n
        self.line, self.whole = scanner
        self.literal = literal
        self.work = work
        self.per_unit = per_unit
        self.read = 0  # bytes read and not yet charged (less than per_unit)
        self.pending: bytes | None = None  # the match handed out and not yet passed

    def seek(self, form: bytes, after: bool) -> None:
        """Skip the lines before ``form`` (and ``form`` itself when ``after``): a binary search on line starts."""
        text, lo, hi = self.text, self.pos, self.end
        while lo < hi:
            mid = (lo + hi) // 2
            lead = text.rfind(b"\n", lo, mid + 1)
            nxt = text.find(b"\n", lead + 1)
            line = text[lead + 1 : nxt]
            if line < form or (after and line == form):
                lo = nxt
            else:
                hi = lead
        self.pos = lo

    def next(self) -> bytes | None:
        """The next matching form, or ``None`` at the end; raises :class:`_Expired` when the work budget is spent."""
        self.pending = None
        found = self._next_literal() if self.literal is not None else self._next_regex()
        self.pending = found
        return found

    def frontier(self) -> bytes | None:
        """The smallest form of the section not yet handed out: the pending match, or the line at ``pos``."""
        if self.pending is not None:
            return self.pending
        return self._here() if self.pos < self.end else None

    def _charge(self, read: int, tests: int = 0) -> bool:
        """Count ``read`` bytes and ``tests`` line tests; True when the budget is spent."""
        units, self.read = divmod(self.read + read, self.per_unit)
        return self.work.spend(units + tests * LINE_TEST)

    def _next_regex(self) -> bytes | None:
        text, end = self.text, self.end
        while self.pos < end:
            stop = min(end, self.pos + CHUNK)
            if stop < end:
                stop = text.find(b"\n", stop)
            match = self.line.search(text, self.pos, stop + 1)
            if match is not None:  # the caller checks the budget after each form it is handed
                self._charge(match.end() - self.pos)
                self.pos = match.end()
                return match.group(1)  # type: ignore[no-any-return]
            spent = self._charge(stop - self.pos)
            self.pos = stop
            if stop < end and spent:
                raise _Expired
        return None

    def _next_literal(self) -> bytes | None:
        text, end, literal, whole = self.text, self.end, self.literal, self.whole
        while self.pos < end:
            hit = text.find(literal, self.pos, end)
            if hit < 0:
                self._charge(end - self.pos)
                self.pos = end
                return None
            lead = text.rfind(b"\n", self.pos, hit)
            nxt = text.find(b"\n", hit)
            spent = self._charge(nxt - self.pos, 1)
            self.pos = nxt
            if whole.fullmatch(text, lead + 1, nxt) is not None:
                return text[lead + 1 : nxt]  # type: ignore[no-any-return]
            if spent and self.pos < end:
                raise _Expired
        return None

    def _here(self) -> bytes:
        nxt = self.text.find(b"\n", self.pos + 1)
        return self.text[self.pos + 1 : nxt]  # type: ignore[no-any-return]



class SearchIndexes:
    """The search index of each compiled lexicon, opened on first use; ``None`` for a lexicon without one."""

    def __init__(self) -> None:
        self._open: dict[str, SearchIndex | None] = {}

    def get(self, lexicon: Lexicon) -> SearchIndex | None:
        key = f"{lexicon.info.id}@{lexicon.info.sha256}"
        if key not in self._open:
            self._open[key] = SearchIndex(lexicon) if isinstance(lexicon, CompiledLexicon) and (lexicon.folder / FOLDER).is_dir() else None
        return self._open[key]
