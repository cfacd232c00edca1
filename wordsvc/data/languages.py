"""The languages wordsvc serves: where each lexicon comes from and how it is built and loaded.

``LANGUAGES`` is the manifest. A ``wordlist`` language is compiled from a
word list in ``wordlists/`` (committed, or generated at set-up by the
builder script named); an ``analyzer`` language judges forms with a
morphological analyser instead of a list (Estonian: Vabamorf).

Language tags follow BCP 47 loosely: matched case-insensitively, with the
aliases listed (``en`` is ``en-US``, ``is-IS`` is ``is``). An unknown tag is
an error listing the supported ones, never a fallback to English.
"""

from __future__ import annotations

import importlib
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import LanguageBuilding, UnknownLanguage
from ..core.lexicon import Lexicon
from .lexicons import CompiledLexicon

__all__ = ["BUILDING_FILE", "LANGUAGES", "Language", "Languages", "building_languages", "default_data_dir", "wordlists_dir"]

SCOWL_CREDIT = "SCOWL (Spell Checker Oriented Word Lists), Copyright 2000-2020 Kevin Atkinson; see wordlists/en/COPYING-SCOWL."
BIN_CREDIT = "Beygingarlýsing íslensks nútímamáls. Stofnun Árna Magnússonar í íslenskum fræðum. Höfundur og ritstjóri Kristín Bjarnadóttir."


@dataclass(frozen=True)
class Language:
    id: str
    name: str
    aliases: tuple[str, ...]
    kind: str  # "wordlist" or "analyzer"
    source: str
    licence: str
    attribution: str
    wordlist: str | None = None  # path under wordlists/
    builder: str | None = None  # script under wordlists/ that writes the word list at set-up
    analyzer: str | None = None  # "module:Class" for analyzer languages
    fold_diacritics: bool = False
    meta: dict[str, object] = field(default_factory=dict)


#: The English lists' filter (wordlists/en/README.md) asks web2, whose entry in Debian's miscfiles is public domain.
SCOWL_LICENCE = "SCOWL copyright notice (MIT-like, see wordlists/en/COPYING-SCOWL); word-game filter decided with web2 (public domain)"
#: What the English lists' source lines say besides their size and categories.
SCOWL_FILTERED = "(Debian package scowl), with the word-game filter (letter plurals, symbols, ...: wordlists/en/README.md)"

LANGUAGES: tuple[Language, ...] = (
    Language(
        id="en-US",
        name="English (American)",
        aliases=("en",),
        kind="wordlist",
        wordlist="en/en-US.tsv",
        source=f"SCOWL size <= 80, english + american + variant_1 {SCOWL_FILTERED}",
        licence=SCOWL_LICENCE,
        attribution=SCOWL_CREDIT,
        fold_diacritics=True,
    ),
    Language(
        id="en-GB",
        name="English (British)",
        aliases=(),
        kind="wordlist",
        wordlist="en/en-GB.tsv",
        source=f"SCOWL size <= 80, english + british + british_z + british_variant_1 {SCOWL_FILTERED}",
        licence=SCOWL_LICENCE,
        attribution=SCOWL_CREDIT,
        fold_diacritics=True,
    ),
    Language(
        id="en-US-common",
        name="English (American), common words",
        aliases=(),
        kind="wordlist",
        wordlist="en/en-US-common.tsv",
        source=f"SCOWL size <= 60 (the size SCOWL recommends for spell checking), english + american + variant_1 {SCOWL_FILTERED}",
        licence=SCOWL_LICENCE,
        attribution=SCOWL_CREDIT,
        fold_diacritics=True,
    ),
    Language(
        id="en-US-large",
        name="English (American), large",
        aliases=(),
        kind="wordlist",
        wordlist="en/en-US-large.tsv",
        source=f"SCOWL size <= 95 (SCOWL's largest, 'insane'), english + american + variant_1 {SCOWL_FILTERED}",
        licence=SCOWL_LICENCE,
        attribution=SCOWL_CREDIT,
        fold_diacritics=True,
    ),
    Language(
        id="is",
        name="Íslenska",
        aliases=("is-IS",),
        kind="wordlist",
        builder="is/build_bin.py",
        source="BÍN (Beygingarlýsing íslensks nútímamáls) through the PyPI package islenska, only_bin",
        licence="CC BY-SA 4.0 (data); MIT (islenska package code)",
        attribution=BIN_CREDIT,
    ),
    Language(
        id="et",
        name="Eesti",
        aliases=("et-EE",),
        kind="analyzer",
        analyzer="wordsvc.data.estonian:VabamorfLexicon",
        source="Vabamorf morphological analyser through the PyPI package estnltk",
        licence="Vabamorf: LGPL (Filosoft); estnltk: GPL-2.0-only OR Apache-2.0",
        attribution="Vabamorf, Filosoft and the Institute of the Estonian Language; estnltk, University of Tartu.",
    ),
)


def wordlists_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "wordlists"


def default_data_dir() -> Path:
    """Where ``wordsvc build`` writes compiled lexicons: ``build/`` in the source tree."""
    return Path(__file__).resolve().parents[2] / "build"


#: Written into the data folder by ``wordsvc build`` while it works: ``{"pid": ..., "languages": [ids still to do]}``.
BUILDING_FILE = "building.json"

#: Seconds a request for a language that is still building is told to wait (the Retry-After header).
RETRY_BUILDING = 15

#: Seconds between two looks at the data folder for languages whose build has finished.
REFRESH_SECONDS = 1.0


def building_languages(data_dir: Path) -> frozenset[str]:
    """The languages a live ``wordsvc build`` has still to finish (none if no build runs, or its process is gone)."""
    try:
        status = json.loads((data_dir / BUILDING_FILE).read_text(encoding="utf-8"))
        os.kill(int(status["pid"]), 0)  # signal 0: is the builder alive?
    except (OSError, ValueError, KeyError, TypeError):
        return frozenset()
    return frozenset(str(lang) for lang in status.get("languages", ()))


class Languages:
    """The lexicons that are available, by language tag.

    Made by :meth:`load` from a data folder, it also knows the languages a
    running ``wordsvc build`` is still building there: a request for one of
    them is :class:`LanguageBuilding` (503 with Retry-After), and it comes
    online in this process by itself once its build is done (the folder is
    looked at again at most once a second, and only when a request names a
    language that is not loaded, or ``/ready`` asks).
    """

    def __init__(self, lexicons: dict[str, Lexicon], languages: tuple[Language, ...] = LANGUAGES, data_dir: Path | None = None, only: tuple[str, ...] | None = None):
        self.lexicons = dict(lexicons)
        self.manifest = {lang.id: lang for lang in languages if only is None or lang.id in only}
        self.data_dir = data_dir
        self.building: frozenset[str] = frozenset()
        #: Called with each lexicon opened after start (a build finished), e.g. to share a cache budget with it.
        self.on_open: list[Callable[[Lexicon], None]] = []
        self._lock = threading.Lock()
        self._looked = 0.0
        self._index()

    def _index(self) -> None:
        self.languages = {lang_id: lang for lang_id, lang in self.manifest.items() if lang_id in self.lexicons}
        tags: dict[str, str] = {}
        for lang in self.languages.values():
            for tag in (lang.id, *lang.aliases):
                tags[tag.lower()] = lang.id
        self._tags = tags

    @classmethod
    def load(cls, data_dir: str | Path | None = None, only: tuple[str, ...] | None = None) -> Languages:
        """Every built lexicon under ``data_dir`` (and every analyser that imports), less those still building."""
        data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        languages = cls({}, LANGUAGES, data_dir, only)
        languages.refresh(force=True)
        return languages

    def refresh(self, force: bool = False) -> None:
        """Open every language of the manifest whose build has finished since the last look (at most once a second)."""
        if self.data_dir is None or (not force and time.monotonic() - self._looked < REFRESH_SECONDS):
            return
        with self._lock:
            self._looked = time.monotonic()
            building = building_languages(self.data_dir)
            opened = {}
            for lang in self.manifest.values():
                if lang.id in self.lexicons or lang.id in building:
                    continue
                lexicon = _open(lang, self.data_dir)
                if lexicon is not None:
                    opened[lang.id] = lexicon
            self.building = building & set(self.manifest) - set(self.lexicons) - set(opened)
            if opened:
                self.lexicons = {**self.lexicons, **opened}
                self._index()
                for lexicon in opened.values():
                    for hook in self.on_open:
                        hook(lexicon)

    @property
    def tags(self) -> list[str]:
        """Every tag accepted, as written in the manifest (matching ignores case)."""
        return sorted((tag for lang in self.languages.values() for tag in (lang.id, *lang.aliases)), key=str.lower)

    def resolve(self, tag: str) -> str:
        """The lexicon id a BCP 47 tag names; :class:`LanguageBuilding` while it builds, :class:`UnknownLanguage` if none."""
        key = tag.strip().lower()
        found = self._tags.get(key)
        if found is None:
            self.refresh()
            found = self._tags.get(key)
        if found is None:
            pending = next((lang for lang in self.manifest.values() if lang.id in self.building and key in {t.lower() for t in (lang.id, *lang.aliases)}), None)
            if pending is not None:
                raise LanguageBuilding(
                    f"The {pending.name} lexicon ({pending.id}) is still being built; it comes online by itself when the build is done.",
                    {"lang": [f"{pending.id} is building; try again in {RETRY_BUILDING} s"]},
                    retry_after=RETRY_BUILDING,
                )
            supported = ", ".join(self.tags)
            raise UnknownLanguage(
                f"No lexicon for language {tag!r}; supported: {supported}.",
                {"lang": [f"unknown language; supported: {supported}"]},
            )
        return found

    def get(self, tag: str) -> Lexicon:
        lang_id = self.resolve(tag)  # first: resolving may open a lexicon, replacing the mapping
        return self.lexicons[lang_id]

    def __iter__(self) -> Iterator[Language]:
        return iter(self.languages.values())


def _open(lang: Language, data_dir: Path) -> Lexicon | None:
    if lang.kind == "analyzer":
        module_name, _, class_name = (lang.analyzer or "").partition(":")
        try:
            module = importlib.import_module(module_name)
            return getattr(module, class_name)()  # type: ignore[no-any-return]
        except ImportError:
            return None
    folder = data_dir / "lexicons" / lang.id
    if not (folder / "meta.json").is_file():
        return None
    return CompiledLexicon(folder)  # a broken build is an error, not a missing language
