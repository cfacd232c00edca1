"""Estonian lexicon: every inflected form judged by Vabamorf, as shipped in PyPI ``estnltk``.

Estonian has too many forms to list (14 cases, two numbers, productive
compounds, the -ki/-gi clitic), so this lexicon asks a morphological analyser
instead of holding a word list: :class:`VabamorfLexicon` answers
:meth:`~VabamorfLexicon.readings` and cannot enumerate (``forms()`` raises).

Lean loading: importing ``estnltk`` pulls in pandas, nltk, matplotlib and
more (1.6 s, 184 MB). Only two things are needed from its wheel: the compiled
SWIG module ``estnltk/vabamorf/_vabamorf*.so`` and the lexicon files in
``estnltk/vabamorf/dct/``. This module locates the package without importing
it and loads that extension module by file, so ``pip install --no-deps
estnltk==1.7.5`` is the whole install (``requirements/estonian-nodeps.txt``).
That leans on estnltk internals (file layout, the six-argument ``analyze``),
hence the exact pin and :data:`ESTNLTK_VERSION`. Nothing is loaded at import
time: the constructor does it.

Class mapping of one Vabamorf analysis (see ``wordlists/et/README.md``):
part of speech ``H`` -> ``proper_noun``; ``Y`` -> ``abbreviation``; ``_`` in
the root (a compound boundary, lexicalised like ``raud_tee`` or productive
like ``kassi_kool``: Vabamorf does not tell them apart) -> ``compound``; a
non-empty clitic field (``gi``/``ki``) -> ``clitic``; a hyphen in the form ->
``hyphenated``. Everything else (nouns, verbs, adjectives, ...) is ordinary,
``G`` (an indeclinable genitive attribute) included, also when the form
Capitalised is a proper noun (``tartu``: ``G``; ``Tartu``: ``H``): the
lexicon gives ``G`` to few names (70 of the 566 settlement names it knows,
no person names), where Estonian writes the attribute lowercase (``eesti
keel``, ``viini vorst``), and analyses ``eesti`` and ``tartu`` alike, so a
rule that read ``G`` as a name would refuse ``eesti`` and ``soome`` too
(``wordlists/et/README.md``, "Genitive attributes").
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.metadata
import importlib.util
import os
import threading
from collections.abc import Iterable, Iterator
from functools import cache
from itertools import islice
from pathlib import Path
from typing import NamedTuple

from ..core.budget import BudgetedCache, Doorkeeper, MemoryBudget
from ..core.lexicon import LexiconInfo, Readings
from ..core.text import has_invalid_characters

__all__ = ["ESTNLTK_VERSION", "NAME_CLASSES", "READING_BYTES", "CacheInfo", "VabamorfLexicon"]

#: The estnltk release whose internals this loader was written and tested against.
ESTNLTK_VERSION = "1.7.5"

#: Default bound of the verdict cache, in forms, while it has no shared budget
#: (:meth:`VabamorfLexicon.share_budget`): about 12 MB a process.
DEFAULT_CACHE_SIZE = 65_536
#: What a cached verdict costs, key plus readings (whose class sets are
#: shared) plus the dict's slot: 8,464 entries freed 1.4 MiB (tracemalloc).
READING_BYTES = 180

#: Parts of speech a variant spelling (Capitalised, UPPER) may contribute.
_NAME_LIKE = frozenset({"H", "Y"})
#: Their classes: the only readings a form not read as written may have.
NAME_CLASSES = frozenset({"proper_noun", "abbreviation"})

_INSTALL_HINT = "pip install --no-deps -r requirements/estonian-nodeps.txt"


class CacheInfo(NamedTuple):
    """The verdict cache's counters, in the shape of ``functools``' (``maxsize``: ``None`` under a shared budget)."""

    hits: int
    misses: int
    maxsize: int | None
    currsize: int


class VabamorfLexicon:
    """Readings of a normalized Estonian form, by Vabamorf analysis without guessing.

    ``readings(form)`` analyses ``form`` with disambiguation, guessing and
    proper-name guessing off, so an unknown string gets no reading and ``()``
    comes back. Forms are case-folded but Vabamorf is case-sensitive: it finds
    ``Tallinn`` and ``EKI`` but not ``tallinn`` or ``eki``. So the form is also
    analysed Capitalised and with its first hyphen part in capitals (``EKI``,
    ``USA-le``), and those spellings add only their proper-noun and
    abbreviation readings (``Emajõgi`` loses the ordinary reading ``emajõgi``
    has; ``KASS`` adds nothing new). Only the first letter is raised: Vabamorf
    reads any ``Known-Known`` pair as a name (``Kass-Koer``), so
    ``Ida-Virumaa`` is not found from ``ida-virumaa``. A form that is empty,
    holds a space, digit or punctuation other than an inner hyphen or
    apostrophe, or does not start and end with a letter gets ``()`` without a
    call: Vabamorf would read ``3`` as a numeral and strip ``kass.`` to
    ``kass``.

    Verdicts are kept in a least-recently-used cache of ``cache_size`` forms
    (0 turns it off), or in the service's memory budget once it is shared
    (:meth:`share_budget`): an uncached verdict costs one Vabamorf call of 2-3
    spellings, 150-500 µs measured; a cached one under a microsecond. A form
    is cached on its second sighting (a :class:`~wordsvc.core.budget.Doorkeeper`
    of 1 MiB): most forms asked about are asked once (random strings,
    misspellings, a solver's arrangements), and keeping each would push out
    the words asked for again and again. Make one per process: it is safe
    across fork() and threads, but each holds its own analyser (34 MB) and
    cache.

    Raises ModuleNotFoundError when estnltk is not installed.
    """

    def __init__(self, cache_size: int = DEFAULT_CACHE_SIZE):
        package = _estnltk_dir()
        self._module_dir = package / "vabamorf"
        self._dct_dir = _speller_lexicon_dir(self._module_dir / "dct")
        self._vm = _load_extension(self._module_dir)
        self._lock = threading.Lock()
        self._open()
        files = {name: _sha256(self._dct_dir / name) for name in ("et.dct", "et3.dct")}
        combined = hashlib.sha256("".join(f"{digest}  {name}\n" for name, digest in files.items()).encode())
        estnltk_version = importlib.metadata.version("estnltk")
        self.info = LexiconInfo(
            id="et",
            lang="et",
            version=f"estnltk {estnltk_version}; Vabamorf lexicon {self._dct_dir.name}",
            sha256=combined.hexdigest(),
            entries=None,
            source=f"Vabamorf analyser and its {self._dct_dir.name} speller lexicon, from the PyPI wheel estnltk {estnltk_version}",
            licence="estnltk: GPL-2.0-only OR Apache-2.0; Vabamorf: LGPL (Filosoft)",
            attribution=(
                "Vabamorf, copyright 2014 Filosoft (LGPL), through EstNLTK, copyright University of Tartu. "
                "Lexicon compiled by Filosoft from Ü. Viks' Väike vormisõnastik, the Kaalep-Muischnek "
                "frequency dictionary and Institute of the Estonian Language sources."
            ),
            fold_diacritics=False,
            enumerable=False,
            extra={"lexicon_files": files, "sha256_of": "sha256sum lines of et.dct and et3.dct", "estnltk": estnltk_version},
        )
        self._cache: BudgetedCache[str, Readings] | None = None
        if cache_size > 0:
            self._cache = BudgetedCache("estonian.readings", READING_BYTES, max_entries=cache_size)
        self._door = Doorkeeper()
        self._maxsize: int | None = cache_size
        self._hits = self._misses = 0  # counted without a lock: figures for benchmarks, not for decisions

    def readings(self, form: str) -> Readings:
        """Class sets of every reading of the normalized ``form``; ``()`` if not a word."""
        cache = self._cache
        if cache is None:
            self._misses += 1
            return self._analyse(form)
        found = cache.recent.get(form)
        if found is None:
            found = cache.get(form)
        if found is None:
            self._misses += 1
            found = self._analyse(form)
            if self._door.admit(form):
                cache.put(form, found)
        else:
            self._hits += 1
        return found

    def at_hand(self, form: str) -> bool:
        """Whether ``form``'s readings are cached; a miss runs the analyser, under a lock a solver's bulk analysis may hold for a while."""
        return self._cache is not None and form in self._cache

    def share_budget(self, budget: MemoryBudget) -> None:
        """Keep verdicts in ``budget`` (the service's one budget for every cache) instead of a bound of their own."""
        if self._cache is not None:
            self._cache.attach(budget)
            self._maxsize = None

    def forms(self) -> Iterator[str]:
        """Always raises: Vabamorf analyses forms but exposes no list of them."""
        raise TypeError("the Vabamorf lexicon cannot enumerate its forms")

    def words_among(self, forms: Iterable[str], banned: frozenset[str] = frozenset(), batch: int = 1000) -> Iterator[str]:
        """The ``forms`` (lower-case letters only) that may have a reading of no class in ``banned``, in bulk.

        When names and abbreviations are both banned, only the form as written
        can hold an allowed reading (the Capitalised and UPPER variants add
        nothing else), so it alone is analysed, a ``batch`` forms a call and
        uncached: about 150,000 forms a second against a few tens of thousands
        through :meth:`readings`. What comes out may still be refused (a
        lower-case abbreviation such as ``dj``); what stays out has no allowed
        reading. For the solver's exhaustive small hands and
        :func:`~wordsvc.data.estonian_candidates.short_forms`, not for verdicts.
        """
        if not NAME_CLASSES <= banned:
            yield from (form for form in forms if any(not classes & banned for classes in self.readings(form)))
            return
        forms = iter(forms)
        while chunk := list(islice(forms, batch)):
            with self._lock:
                if self._pid != os.getpid():
                    self._open()
                analysed = self._morf.analyze(self._vm.StringVector(chunk), False, False, False, False, False)
            yield from (form for form, (_word, analyses) in zip(chunk, analysed, strict=True) if len(analyses))

    def cache_info(self) -> CacheInfo:
        """Hits, misses, bound and size of the verdict cache."""
        return CacheInfo(self._hits, self._misses, self._maxsize, len(self._cache) if self._cache is not None else 0)

    def cache_clear(self) -> None:
        """Forget every cached verdict and the counters (for benchmarks; verdicts never go stale)."""
        if self._cache is not None:
            self._cache.clear()
        self._hits = self._misses = 0

    def _open(self) -> None:
        """Make the analyser; again in a forked child (see :meth:`_analyse`).

        Vabamorf keeps et.dct and et3.dct open and reads them on demand: a
        forked worker would share those file offsets with its parent and its
        siblings. estnltk likewise makes one analyser per process id.
        """
        self._morf = self._vm.Vabamorf(str(self._dct_dir / "et.dct"), str(self._dct_dir / "et3.dct"))
        self._pid = os.getpid()

    def _analyse(self, form: str) -> Readings:
        if has_invalid_characters(form) or not (form[0].isalpha() and form[-1].isalpha()):
            return ()
        head, dash, tail = form.partition("-")
        spellings = [form]
        for variant in (form[0].upper() + form[1:], head.upper() + dash + tail):
            if variant not in spellings:
                spellings.append(variant)
        with self._lock:
            if self._pid != os.getpid():
                self._open()
            # analyze(words, disambiguate, guess, phonetic, propername, stem):
            # the words are analysed one by one, the batch only saves calls.
            analysed = self._morf.analyze(self._vm.StringVector(spellings), False, False, False, False, False)
        hyphenated = bool(dash)
        found = set()
        for index, (_word, analyses) in enumerate(analysed):
            for analysis in analyses:
                pos = analysis.partofspeech
                if index and pos not in _NAME_LIKE:
                    continue
                found.add(_classes(pos, "_" in analysis.root, bool(analysis.clitic), hyphenated))
        return tuple(sorted(found, key=sorted))


@cache
def _classes(pos: str, compound: bool, clitic: bool, hyphenated: bool) -> frozenset[str]:
    """The class set of one analysis; cached so that equal sets are one object."""
    names = []
    if pos == "H":
        names.append("proper_noun")
    elif pos == "Y":
        names.append("abbreviation")
    if compound:
        names.append("compound")
    if clitic:
        names.append("clitic")
    if hyphenated:
        names.append("hyphenated")
    return frozenset(names)


def _estnltk_dir() -> Path:
    """The installed estnltk package folder, found without importing the package."""
    spec = importlib.util.find_spec("estnltk")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"estnltk is not installed; run: {_INSTALL_HINT}", name="estnltk")
    return Path(next(iter(spec.submodule_search_locations)))


def _speller_lexicon_dir(root: Path) -> Path:
    """The newest ``<date>_sp`` lexicon folder: the standard-language (speller) lexicon.

    The ``_nosp`` variant adds slang (``mersu``, ``kodukas``) that a speller,
    and a word game, should refuse.
    """
    candidates = sorted(p for p in root.glob("*_sp") if (p / "et.dct").is_file() and (p / "et3.dct").is_file())
    if not candidates:
        raise FileNotFoundError(f"no Vabamorf speller lexicon (*_sp/et.dct, et3.dct) under {root}")
    return candidates[-1]


def _load_extension(module_dir: Path):
    """Load ``_vabamorf`` by file under its own dotted name, leaving ``sys.modules`` alone.

    The name must end in ``_vabamorf``: CPython finds the module's init
    function (``PyInit__vabamorf``) by that last component.
    """
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = module_dir / f"_vabamorf{suffix}"
        if path.is_file():
            spec = importlib.util.spec_from_file_location("estnltk.vabamorf._vabamorf", path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
    raise ModuleNotFoundError(
        f"estnltk has no Vabamorf extension for this Python in {module_dir} (expected estnltk=={ESTNLTK_VERSION}); run: {_INSTALL_HINT}",
        name="estnltk.vabamorf._vabamorf",
    )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
