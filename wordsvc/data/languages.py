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
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import UnknownLanguage
from ..core.lexicon import Lexicon
from .lexicons import CompiledLexicon

__all__ = ["LANGUAGES", "Language", "Languages", "default_data_dir", "wordlists_dir"]

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


LANGUAGES: tuple[Language, ...] = (
    Language(
        id="en-US",
        name="English (American)",
        aliases=("en",),
        kind="wordlist",
        wordlist="en/en-US.tsv",
        source="SCOWL size <= 80, english + american + variant_1 (Debian package scowl)",
        licence="SCOWL copyright notice (MIT-like, see wordlists/en/COPYING-SCOWL)",
        attribution=SCOWL_CREDIT,
        fold_diacritics=True,
    ),
    Language(
        id="en-GB",
        name="English (British)",
        aliases=(),
        kind="wordlist",
        wordlist="en/en-GB.tsv",
        source="SCOWL size <= 80, english + british + british_z + variant_1 (Debian package scowl)",
        licence="SCOWL copyright notice (MIT-like, see wordlists/en/COPYING-SCOWL)",
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


class Languages:
    """The lexicons that are available, by language tag."""

    def __init__(self, lexicons: dict[str, Lexicon], languages: tuple[Language, ...] = LANGUAGES):
        self.lexicons = lexicons
        self.languages = {lang.id: lang for lang in languages if lang.id in lexicons}
        self._tags: dict[str, str] = {}
        for lang in self.languages.values():
            for tag in (lang.id, *lang.aliases):
                self._tags[tag.lower()] = lang.id

    @classmethod
    def load(cls, data_dir: str | Path | None = None, only: tuple[str, ...] | None = None) -> Languages:
        """Every built lexicon under ``data_dir`` (and every analyser that imports)."""
        data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        lexicons: dict[str, Lexicon] = {}
        for lang in LANGUAGES:
            if only is not None and lang.id not in only:
                continue
            lexicon = _open(lang, data_dir)
            if lexicon is not None:
                lexicons[lang.id] = lexicon
        return cls(lexicons)

    @property
    def tags(self) -> list[str]:
        """Every tag accepted, as written in the manifest (matching ignores case)."""
        return sorted((tag for lang in self.languages.values() for tag in (lang.id, *lang.aliases)), key=str.lower)

    def resolve(self, tag: str) -> str:
        """The lexicon id a BCP 47 tag names; :class:`UnknownLanguage` if none."""
        found = self._tags.get(tag.strip().lower())
        if found is None:
            supported = ", ".join(self.tags)
            raise UnknownLanguage(
                f"No lexicon for language {tag!r}; supported: {supported}.",
                {"lang": [f"unknown language; supported: {supported}"]},
            )
        return found

    def get(self, tag: str) -> Lexicon:
        return self.lexicons[self.resolve(tag)]

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
