"""The anagram index the solver draws its candidates from, built next to a compiled lexicon.

Built once by ``wordsvc build`` (:func:`build_anagram_index` for every
compiled lexicon; :func:`build_anagram_index_from_forms` for a word list that
proposes candidates to an analyser), loaded memory-mapped in milliseconds, so
the server's workers share one copy. :class:`AnagramIndex` answers the solver's
:class:`~wordsvc.core.solver.candidates.CandidateSource` protocol; a probe is one
marisa look-up.

Files, in the lexicon's folder (``build/lexicons/<id>/``):

``anagrams.marisa``  a marisa-trie of every *prefix* of every key. A key is
                     :func:`~wordsvc.core.solver.candidates.letter_key` of a form's
                     deck letters (English folds diacritics: café is keyed
                     ``acef``); the prefixes let the solver prune its walk.
``anagrams.offsets`` little-endian uint32, one per trie key id plus one: the
                     entry of key id ``i`` is ``words[off[i]:off[i+1]]``.
``anagrams.words``   one entry per prefix, UTF-8 lines: the letters that can
                     follow the prefix (so the walk never probes a dead end),
                     then the spellings keyed exactly by it, if any: the deck
                     letters of the forms (``cafe``), which is what cards lay
                     and what :func:`~wordsvc.core.verdict.judge_cards` looks
                     up.
``anagrams.json``    format, counts, the letter limit, what it was built from
                     (for a lexicon: its sha256, checked at load) and the
                     sha256 of the three files.

Only forms of letters (no apostrophe or hyphen: no card shows them) of at
most :data:`MAX_LETTERS` deck letters are indexed.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from array import array
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate, compress, islice, repeat
from operator import add, not_
from pathlib import Path

import marisa_trie

from ..core import problem_codes as codes
from ..core.errors import InvalidRequest, out_of_descriptors
from ..core.lexicon import Lexicon
from ..core.ruleset import Ruleset
from ..core.solver.candidates import layable
from ..core.text import fold_diacritics
from .card_savings import card_savings
from .lexicons import CompiledLexicon, map_file
from .rulesets import load_rulesets

__all__ = [
    "DEFAULT_RULESET",
    "FORMAT",
    "MAX_LETTERS",
    "AnagramIndex",
    "AnagramIndexError",
    "AnagramIndexes",
    "build_anagram_index",
    "build_anagram_index_from_forms",
    "deck_limits",
    "index_files",
    "plays",
]

FORMAT = "wordsvc-anagrams/2"
#: A word holds at most 12 cards (the largest standard hand, 10, plus the
#: card drawn and the face-up card) of at most 2 letters: 24 letters.
MAX_LETTERS = 24
_FILES = ("anagrams.marisa", "anagrams.offsets", "anagrams.words")
_META = "anagrams.json"


class AnagramIndexError(ValueError):
    """An anagram index that is missing, malformed, or built from other data than its lexicon's."""


def index_files(folder: str | Path) -> list[Path]:
    """The files of the index in ``folder``, meta last."""
    return [Path(folder) / name for name in (*_FILES, _META)]


Limits = tuple[int, dict[str, int]]


def deck_limits(rulesets: Iterable[Ruleset]) -> Limits:
    """What an index must cover for these rulesets: the most cards in a word, and each multi-letter face's most copies."""
    max_cards, multi = 0, {}
    for ruleset in rulesets:
        max_cards = max(max_cards, ruleset.max_hand)
        for card in ruleset.deck.cards.values():
            if len(card.face) > 1:
                multi[card.face] = max(multi.get(card.face, 0), card.count)
    return max_cards, multi


def _default_limits() -> Limits:
    return deck_limits(load_rulesets())


def build_anagram_index(lexicon_dir: str | Path, limits: Limits | None = None, max_letters: int = MAX_LETTERS) -> dict[str, object]:
    """Index every layable form of the compiled lexicon in ``lexicon_dir``, into the same folder.

    ``limits`` (:func:`deck_limits`; default: every ruleset of the rulesets
    folder) drops forms no deck can lay in one word. Returns the meta
    written plus ``seconds``, the build time.
    """
    lexicon = CompiledLexicon(lexicon_dir)
    return build_anagram_index_from_forms(
        lexicon.forms(),
        lexicon_dir,
        fold=lexicon.info.fold_diacritics,
        keep=lexicon.info.fold_keep,
        source={"lexicon": lexicon.info.id, "lexicon_sha256": lexicon.info.sha256},
        limits=limits,
        max_letters=max_letters,
    )


def build_anagram_index_from_forms(
    forms: Iterable[str],
    out_dir: str | Path,
    fold: bool,
    source: dict[str, object],
    limits: Limits | None = None,
    max_letters: int = MAX_LETTERS,
    keep: str = "",
) -> dict[str, object]:
    """Index ``forms`` (normalized, as :func:`~wordsvc.core.text.normalize` gives them) into ``out_dir``.

    A form is kept when its deck letters are letters only, at most
    ``max_letters``, and few enough for ``limits``: a word of more letters
    than the most cards a word may hold needs multi-letter cards, and a form
    whose multi-letter faces (counted generously: overlaps allowed,
    :func:`~.card_savings.card_savings_of`) cannot save enough cards is
    dropped. ``source`` goes into the meta; its
    ``lexicon_sha256``, if any, is what the loader checks. Files are written
    under temporary names, then renamed. Returns the meta plus ``seconds``.

    The forms are filtered by :func:`_kept`, a million at a time, in bulk;
    what is kept is indexed as before. The files depend on the set of
    spellings kept and nothing else, not on the order of ``forms``.
    """
    started = time.perf_counter()
    max_cards, multi = limits if limits is not None else _default_limits()
    first_spelling: dict[str, str] = {}  # each key's first spelling
    several: dict[str, set[str]] = {}  # every spelling of a key that has more than one
    for batch in _kept(forms, fold, max_letters, max_cards, multi, keep):
        for key, letters in zip(map("".join, map(sorted, batch)), batch, strict=True):  # letter_key(letters), without the call
            known = first_spelling.setdefault(key, letters)
            if known != letters:
                several.setdefault(key, {known}).add(letters)
    keys, count = len(first_spelling), len(first_spelling) + sum(len(found) - 1 for found in several.values())
    prefixes = list(_prefixes(sorted(first_spelling)))
    trie = marisa_trie.Trie(prefixes)
    spelled = dict(zip(first_spelling, map(add, first_spelling.values(), repeat("\n")), strict=True))
    spelled.update((key, "".join(f"{s}\n" for s in sorted(found))) for key, found in several.items())
    del several
    # each prefix's entry (the letters that follow it, then its spellings), in the order of `prefixes`, then by key id
    entries = map(str.encode, map(add, map(add, _following(prefixes), repeat("\n")), map(spelled.get, prefixes, repeat(""))))
    del spelled
    by_id = [b""] * len(trie)
    for key_id, entry in zip(map(trie.__getitem__, prefixes), entries, strict=True):
        by_id[key_id] = entry
    first = "".join(prefix for prefix in prefixes if len(prefix) == 1)
    del prefixes
    ends = list(accumulate(map(len, by_id), initial=0))
    if ends[-1] >= 1 << 32:
        raise AnagramIndexError("more than 4 GB of spellings")
    offsets = array("I", ends)
    del ends
    if sys.byteorder != "little":  # pragma: no cover - the file is little-endian everywhere
        offsets.byteswap()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    partial = {name: out / f"{name}.partial" for name in _FILES}
    trie.save(str(partial["anagrams.marisa"]))
    partial["anagrams.offsets"].write_bytes(offsets.tobytes())
    with partial["anagrams.words"].open("wb") as handle:
        handle.writelines(by_id)
    (out / _META).unlink(missing_ok=True)  # no meta, no index: a reader never pairs old meta with new files
    for name, path in partial.items():
        path.replace(out / name)
    meta: dict[str, object] = {
        "format": FORMAT,
        **source,
        "fold_diacritics": fold,
        **({"fold_keep": keep} if keep else {}),
        "max_letters": max_letters,
        "max_cards": max_cards,
        "multi": multi,
        "keys": keys,
        "prefixes": len(trie),
        "first": first,
        "spellings": count,
        "bytes": sum((out / name).stat().st_size for name in _FILES),
        "sha256": _digest(out),
    }
    (out / _META).write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return {**meta, "seconds": round(time.perf_counter() - started, 2)}


#: Forms filtered at a time: a stream of millions is never held whole, and each bulk step stays long.
BATCH = 1 << 20


def _kept(forms: Iterable[str], fold: bool, max_letters: int, max_cards: int, multi: dict[str, int], keep: str = "") -> Iterator[list[str]]:
    """The deck letters of each form the index keeps (see :func:`build_anagram_index_from_forms`), repeats and all, in lists.

    A batch at a time, in C loops (``map``, ``compress``), rather than a
    Python statement a form: letters only (``isalpha``, or
    :func:`~wordsvc.core.solver.candidates.layable` for the few others), at
    most ``max_letters``, and the forms longer than ``max_cards`` whose
    multi-letter faces save enough cards (:func:`~.card_savings.card_savings`,
    the sum this used to take form by form).
    """
    stream = iter(forms)
    while batch := list(islice(stream, BATCH)):
        letters = [fold_diacritics(form, keep) for form in batch] if fold else batch
        alpha = list(map(str.isalpha, letters))
        laid = list(compress(letters, alpha))
        laid += [word for word in compress(letters, map(not_, alpha)) if layable(word)]  # "" is neither
        sizes = list(map(len, laid))
        yield list(compress(laid, map(min(max_cards, max_letters).__ge__, sizes)))
        longer = [word for word, size in zip(laid, sizes, strict=True) if max_cards < size <= max_letters]
        need = [len(word) - max_cards for word in longer]
        yield list(compress(longer, map(int.__ge__, card_savings(longer, multi), need)))


def _following(prefixes: list[str]) -> list[str]:
    """The letters that can follow each of ``prefixes`` (:func:`_prefixes` of sorted keys), in its place.

    :func:`_prefixes` lists a node's children after it and before its next
    sibling, so a stack of the current path finds each one's parent.
    """
    following = [""] * len(prefixes)
    path: list[int] = []  # places of the current path's prefixes
    for place, prefix in enumerate(prefixes):
        while path and len(prefixes[path[-1]]) >= len(prefix):
            path.pop()
        if path:
            following[path[-1]] += prefix[-1]
        path.append(place)
    return following


def _prefixes(keys: list[str]) -> Iterator[str]:
    """Every prefix of the sorted ``keys``, once: only those longer than the common part with the previous key."""
    previous = ""
    for key in keys:
        common = 0
        for a, b in zip(previous, key, strict=False):
            if a != b:
                break
            common += 1
        for end in range(common + 1, len(key) + 1):
            yield key[:end]
        previous = key


def _digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for name in _FILES:
        digest.update((folder / name).read_bytes())
    return digest.hexdigest()


class AnagramIndex:
    """A built index, memory-mapped: a :class:`~wordsvc.core.solver.candidates.CandidateSource`.

    ``expect_sha256``: the sha256 of the lexicon the index must have been
    built from; :class:`AnagramIndexError` otherwise. A stale index would
    still only propose (the solver judges every word) but would miss the
    lexicon's new words, so it is refused rather than used.
    """

    def __init__(self, folder: str | Path, expect_sha256: str | None = None):
        folder = Path(folder)
        try:
            meta = json.loads((folder / _META).read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            if out_of_descriptors(err):
                raise  # the machine's state, not a missing index: the app answers 503
            raise AnagramIndexError(f"{folder}: no readable {_META}; run `wordsvc build`") from err
        if meta.get("format") != FORMAT:
            raise AnagramIndexError(f"{folder}: format {meta.get('format')!r}, expected {FORMAT}")
        if expect_sha256 is not None and meta.get("lexicon_sha256") != expect_sha256:
            raise AnagramIndexError(f"{folder}: built from lexicon {meta.get('lexicon_sha256')!r}, not {expect_sha256!r}; run `wordsvc build`")
        self.folder = folder
        self.meta = meta
        self.max_letters = int(meta["max_letters"])
        self._first = str(meta["first"])
        self._trie = marisa_trie.Trie()
        self._trie.mmap(str(folder / "anagrams.marisa"))
        self._offsets_map = map_file(folder / "anagrams.offsets")
        self._offsets = memoryview(self._offsets_map).cast("I")
        self._words = map_file(folder / "anagrams.words")
        if len(self._offsets) != len(self._trie) + 1:
            raise AnagramIndexError(f"{folder}: {len(self._offsets)} offsets for {len(self._trie)} prefixes")

    def probe(self, prefix: str) -> Sequence[str] | None:
        found = self.expand(prefix)
        return None if found is None else found[1]

    def expand(self, prefix: str) -> tuple[str, Sequence[str]] | None:
        if not prefix:
            return self._first, ()
        key_id = self._trie.get(prefix)
        if key_id is None:
            return None
        text = self._words[self._offsets[key_id] : self._offsets[key_id + 1] - 1].decode("utf-8")
        at = text.find("\n")
        if at < 0:
            return text, ()
        # a tuple of str, not a list: kept in the solvers' prefix caches, it (and the pair holding it) is then
        # untracked by the garbage collector, whose full collections would otherwise walk every cached answer
        return text[:at], tuple(text[at + 1 :].split("\n"))

    def candidates(self, key: str) -> Sequence[str]:
        return self.probe(key) or ()

    def words(self, every: int = 1) -> Iterator[str]:
        """The words of every ``every``-th entry of the index, in index order (a spread sample when ``every`` > 1)."""
        offsets, blob = self._offsets, self._words
        for key_id in range(0, len(offsets) - 1, every):
            lines = blob[offsets[key_id] : offsets[key_id + 1] - 1].decode("utf-8").split("\n")
            yield from lines[1:]

    def uncovered(self, ruleset: Ruleset) -> list[str]:
        """Why the index may miss words ``ruleset`` can lay (built for smaller hands or fewer multi-letter cards)."""
        problems = []
        if ruleset.max_hand > int(self.meta.get("max_cards", 0)):
            problems.append(f"words of up to {ruleset.max_hand} cards; the index was built for {self.meta.get('max_cards')}")
        multi = self.meta.get("multi", {})
        for card in ruleset.deck.cards.values():
            if len(card.face) > 1 and card.count > multi.get(card.face, 0):
                problems.append(f"{card.count} {card.face.upper()} card(s); the index was built for {multi.get(card.face, 0)}")
        return problems

    def __len__(self) -> int:
        return int(self.meta["keys"])


#: The ruleset any lexicon may be asked with: its deck is in every lexicon's index (``wordsvc build``, :func:`plays`).
DEFAULT_RULESET = "standard"


def plays(ruleset: Ruleset, lexicon: Lexicon) -> bool:
    """Whether ``lexicon``'s index is built for ``ruleset``'s deck: a ruleset of its language, or the default one.

    An index covers the decks its lexicon is played with (docs/languages.md);
    another language's ruleset (Spanish LL with the Icelandic lexicon) is a
    request the solver refuses, 422, rather than an index to build for every
    pair of the languages.
    """
    return ruleset.id == DEFAULT_RULESET or ruleset.language in (lexicon.info.id, lexicon.info.lang)


class AnagramIndexes:
    """The index of each lexicon, opened on first use from ``<data_dir>/lexicons/<lexicon id>/``.

    A compiled lexicon's index must match its sha256; an analyser's (which
    cannot list its words) is whatever word list built it. Either must cover
    the ruleset's deck (:meth:`AnagramIndex.uncovered`).
    """

    def __init__(self, data_dir: str | Path):
        self.data_dir = Path(data_dir)
        self._open: dict[str, AnagramIndex] = {}

    def get(self, lexicon: Lexicon, ruleset: Ruleset | None = None) -> AnagramIndex:
        info = lexicon.info
        index = self._open.get(info.id)
        if index is None:
            folder = self.data_dir / "lexicons" / info.id
            index = AnagramIndex(folder, info.sha256 if isinstance(lexicon, CompiledLexicon) else None)
            self._open[info.id] = index
        problems = index.uncovered(ruleset) if ruleset is not None else []
        if problems and ruleset is not None and not plays(ruleset, lexicon):
            raise InvalidRequest(
                f"Ruleset {ruleset.id} is not played with lexicon {info.id}: its solver covers the decks of {info.id}'s own rulesets "
                f"and {DEFAULT_RULESET}'s, and {ruleset.id}'s deck has cards they lack ({'; '.join(problems)}).",
                {"ruleset": [f"not played with lexicon {info.id}: use one of {info.id}'s rulesets or {DEFAULT_RULESET}"]},
                code=codes.UNKNOWN_RULESET,
            )
        if problems:
            raise AnagramIndexError(f"the anagram index of {info.id} does not cover ruleset {ruleset.id}: {'; '.join(problems)}; run `wordsvc build --force`")  # type: ignore[union-attr]
        return index
