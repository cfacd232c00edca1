"""What changed between two lexicons: the forms one has and the other has not.

A director who moves a club from ``en-US`` to ``en-US-large`` (or to a new
SCOWL release) publishes what that means with :func:`diff_lexicons`: the
forms added and removed, sorted in code-point order (the order of
``sorted()``), so the answer is the same on every machine. Forms are the
lexicons' normalized forms (:func:`wordsvc.core.text.normalize`, and for
English the plain spelling of a word with diacritics too: ``cafe`` beside
``café``), exactly what :meth:`~wordsvc.core.lexicon.Lexicon.forms` lists.

With a ruleset, a form counts only when the ruleset accepts it as a word
(some reading of a class it does not ban, or its house list allows it, and
its house list does not refuse it): the diff is then of *playable* forms, and
a form whose only reading a new filter class bans (``lm`` once it is a
``symbol``) shows as removed although both lexicons list it.

An analyser (Estonian: Vabamorf) cannot list its forms, so it cannot be
diffed: :class:`LexiconNotListable`, a request error naming the side.

A diff of the largest English pair (``en-US-common`` to ``en-US-large``,
about 510,000 forms added) takes about a second and is kept compactly
(:class:`SortedForms`: the forms' UTF-8 bytes and one offset each, about
7 MB), so :class:`DiffCache` can answer the next page of it at once.
"""

from __future__ import annotations

import threading
from array import array
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass

from ..core import problem_codes as codes
from ..core.errors import InvalidRequest, LanguageBuilding, UnknownLanguage, WordsvcError
from ..core.lexicon import Lexicon, LexiconInfo
from ..core.ruleset import Ruleset
from .languages import Languages

__all__ = [
    "DEFAULT_CACHED_DIFFS",
    "DiffCache",
    "LexiconDiff",
    "LexiconNotListable",
    "SortedForms",
    "accepted_forms",
    "diff_lexicons",
    "resolve_sides",
]

#: Diffs a :class:`DiffCache` keeps: at most about 30 MB for the largest English pairs.
DEFAULT_CACHED_DIFFS = 4


class LexiconNotListable(InvalidRequest):
    """One side of a diff is an analyser that cannot list its forms (422, naming the side: ``from`` or ``to``)."""

    code = codes.NO_WORD_LIST

    def __init__(self, side: str, lexicon_id: str):
        super().__init__(
            f"The {lexicon_id} lexicon is an analyser that cannot list its words, so it cannot be diffed.",
            {side: [f"{lexicon_id} cannot list its forms; name a word-list lexicon"]},
        )
        self.side = side


class SortedForms:
    """Sorted forms held as one UTF-8 blob and an offset each: a tenth of the memory of a tuple of strings."""

    def __init__(self, forms: Iterable[str]):
        encoded = [form.encode("utf-8") for form in forms]
        self._blob = b"".join(encoded)
        self._offsets = array("I", [0])
        end = 0
        for item in encoded:
            end += len(item)
            self._offsets.append(end)

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def page(self, offset: int, limit: int) -> list[str]:
        """Forms ``offset`` to ``offset + limit`` (fewer at the end; none past it)."""
        stop = min(len(self), offset + limit)
        starts = self._offsets
        return [self._blob[starts[i] : starts[i + 1]].decode("utf-8") for i in range(offset, stop)]

    def __iter__(self) -> Iterator[str]:
        return iter(self.page(0, len(self)))

    @property
    def nbytes(self) -> int:
        return len(self._blob) + self._offsets.itemsize * len(self._offsets)


@dataclass(frozen=True)
class LexiconDiff:
    """Forms of ``target`` that ``source`` lacks (``added``) and the reverse (``removed``), each sorted."""

    source: LexiconInfo
    target: LexiconInfo
    ruleset: str | None
    added: SortedForms
    removed: SortedForms

    def to_dict(self, offset: int = 0, limit: int = 100) -> dict[str, object]:
        """One page of each side, as ``GET /lexicons/diff`` answers and ``wordsvc lexicon diff`` prints it."""

        def side(forms: SortedForms) -> dict[str, object]:
            return {"count": len(forms), "forms": forms.page(offset, limit), "more": offset + limit < len(forms)}

        def stamp(info: LexiconInfo) -> dict[str, object]:
            return {**info.stamp(), "entries": info.entries}

        return {
            "from": stamp(self.source),
            "to": stamp(self.target),
            "ruleset": self.ruleset,
            "offset": offset,
            "limit": limit,
            "added": side(self.added),
            "removed": side(self.removed),
        }


def accepted_forms(lexicon: Lexicon, ruleset: Ruleset | None = None) -> set[str]:
    """Every form of ``lexicon``; with ``ruleset``, only those it accepts as words (readings and house lists)."""
    if ruleset is None:
        return set(lexicon.forms())
    readings, banned_hits = lexicon.readings, ruleset.banned_hits
    found = {form for form in lexicon.forms() if not banned_hits(readings(form))}
    return (found | ruleset.house_allow) - ruleset.house_refuse


def resolve_sides(languages: Languages, source: str, target: str) -> tuple[Lexicon, Lexicon]:
    """The two lexicons named, every problem reported at once under its side (``from``, ``to``), never as ``lang``.

    An unknown tag is :class:`UnknownLanguage` (404), one still building
    :class:`LanguageBuilding` (503), an analyser :class:`LexiconNotListable` (422).
    """
    found: dict[str, Lexicon] = {}
    errors: dict[str, WordsvcError] = {}
    for side, tag in (("from", source), ("to", target)):
        try:
            found[side] = languages.get(tag)
        except (UnknownLanguage, LanguageBuilding) as err:
            errors[side] = err
    if errors:
        problems = {side: [m for messages in err.problems.values() for m in messages] for side, err in errors.items()}
        first = next(iter(errors.values()))
        if all(isinstance(err, LanguageBuilding) for err in errors.values()):
            raise LanguageBuilding(first.detail, problems, retry_after=first.retry_after)  # type: ignore[attr-defined]
        unknown = [err for err in errors.values() if isinstance(err, UnknownLanguage)]
        raise UnknownLanguage(unknown[0].detail, problems)
    unlisted = {side: lexicon for side, lexicon in found.items() if not lexicon.info.enumerable}
    if unlisted:
        side, lexicon = next(iter(unlisted.items()))
        err = LexiconNotListable(side, lexicon.info.id)
        for other, more in list(unlisted.items())[1:]:
            err.problems.update(LexiconNotListable(other, more.info.id).problems)
        raise err
    return found["from"], found["to"]


def diff_lexicons(source: Lexicon, target: Lexicon, ruleset: Ruleset | None = None) -> LexiconDiff:
    """What changes from ``source`` to ``target`` (:class:`LexiconNotListable` if either cannot list its forms)."""
    for side, lexicon in (("from", source), ("to", target)):
        if not lexicon.info.enumerable:
            raise LexiconNotListable(side, lexicon.info.id)
    old, new = accepted_forms(source, ruleset), accepted_forms(target, ruleset)
    added, removed = SortedForms(sorted(new - old)), SortedForms(sorted(old - new))
    return LexiconDiff(source.info, target.info, ruleset.id if ruleset else None, added, removed)


class DiffCache:
    """The last few diffs, by the two lexicons' sha256 and the ruleset's bans and house lists, so paging is cheap.

    Thread-safe; two threads asking for the same new diff may both compute
    it (the answer is the same), which is cheaper than holding a lock for a
    second.
    """

    def __init__(self, max_entries: int = DEFAULT_CACHED_DIFFS):
        self.max_entries = max_entries
        self._entries: OrderedDict[Hashable, LexiconDiff] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, source: Lexicon, target: Lexicon, ruleset: Ruleset | None = None) -> LexiconDiff:
        key = (
            source.info.id,
            source.info.sha256,
            target.info.id,
            target.info.sha256,
            None if ruleset is None else (ruleset.id, ruleset.banned_classes, ruleset.house_allow, ruleset.house_refuse),
        )
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                return found
        found = diff_lexicons(source, target, ruleset)
        with self._lock:
            self._entries[key] = found
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)
        return found

    def __len__(self) -> int:
        return len(self._entries)
