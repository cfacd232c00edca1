"""The languages wordsvc serves: where each lexicon comes from and how it is built and loaded.

``LANGUAGES`` is every lexicon the manifests describe: one
``wordlists/<folder>/manifest.yaml`` per folder (docs/languages.md says how
to add a language). A ``wordlist`` language is compiled from a word list in
``wordlists/`` (committed, or generated at set-up by the builder script
named); an ``analyzer`` language judges forms with a morphological analyser
instead of a list (Estonian: Vabamorf).

Language tags follow BCP 47 loosely: matched case-insensitively, with the
aliases listed (``en`` is ``en-US``, ``is-IS`` is ``is``). An unknown tag is
an error listing the supported ones, never a fallback to English.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import LanguageBuilding, UnknownLanguage
from ..core.lexicon import Lexicon
from .lexicons import CompiledLexicon

__all__ = ["BUILDING_FILE", "LANGUAGES", "Language", "Languages", "building_languages", "default_data_dir", "read_manifest", "read_manifests", "wordlists_dir"]

#: What a manifest's lexicon may say, and what it must.
_FIELDS = {"id", "name", "aliases", "kind", "source", "licence", "attribution", "wordlist", "builder", "analyzer", "fold_diacritics", "fold_keep",
           "package", "list_sha256", "filter", "deck", "deck_plan", "double_examples", "ruleset", "locale"}  # fmt: skip
_REQUIRED = ("id", "name", "kind", "source", "licence", "attribution")
#: A word with one double card in brackets and the rest single letters: ``(ch)ico``, ``i(ch)``.
_ONE_DOUBLE = re.compile(r"[^()\s]*\([^()\s]{2,}\)[^()\s]*")


@dataclass(frozen=True)
class Language:
    """One lexicon as its folder's ``manifest.yaml`` describes it (docs/languages.md)."""

    id: str
    name: str
    aliases: tuple[str, ...]
    kind: str  # "wordlist" or "analyzer"
    source: str
    licence: str
    attribution: str
    wordlist: str | None = None  # a committed word list, its path under wordlists/
    builder: str | None = None  # a script under wordlists/ that writes the word list at set-up
    analyzer: str | None = None  # "module:Class" for analyzer languages
    fold_diacritics: bool = False
    #: with ``fold_diacritics``, the letters folding keeps: cards of their own (Spanish ñ, Danish å)
    fold_keep: str = ""
    #: the Debian package the list comes from, ``{"name": ..., "version": ...}``; empty for a source that is none
    package: dict[str, str] = field(default_factory=dict)
    #: the sha256 of the list the builder writes from ``package`` at its version (tests/test_wordlist_bytes.py rebuilds it)
    list_sha256: str | None = None
    #: the filter: each class a form may carry (a ruleset may ban it) or be dropped for, with the reason
    filter: dict[str, str] = field(default_factory=dict)
    deck: str | None = None  # rulesets/decks/<deck>.yaml
    #: how ``wordsvc derive-deck`` derives the deck: ``alphabet`` (the letters of its cards), and where the language names
    #: them, ``doubles`` (face -> copies), ``values`` ([low, high]), ``double_cap``, ``why``; ``file`` when the derived
    #: deck is written under another name than ``deck`` (English: its published deck is not derived)
    deck_plan: dict[str, object] = field(default_factory=dict)
    #: words of the lexicon each laid with one double card of its deck in brackets (``i(ch)``, ``(ch)ico``): the kiosk's
    #: hint shows the first whose card the table's deck has
    double_examples: tuple[str, ...] = ()
    ruleset: str | None = None  # the ruleset that plays this lexicon
    locale: str | None = None  # the pages' and messages' locale of a table in this language
    meta: dict[str, object] = field(default_factory=dict)


def read_manifest(path: Path) -> list[Language]:
    """The lexicons of one ``wordlists/<folder>/manifest.yaml``; ``ValueError`` naming every problem at once."""
    import yaml  # only data/ reads files, and only here does it need YAML for languages

    document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    folder = path.parent.name
    entries = document.get("lexicons") if isinstance(document, dict) else None  # beside it, "anchors" holds what entries share (YAML anchors)
    if not isinstance(entries, list) or not entries:
        raise ValueError(f"{path}: a manifest is a mapping with a non-empty list 'lexicons'")
    problems: list[str] = []
    out = []
    for index, entry in enumerate(entries):
        where = f"{path}: lexicons[{index}]"
        if not isinstance(entry, dict):
            problems.append(f"{where}: not a mapping")
            continue
        found = [f"{where}: unknown field {name!r}" for name in sorted(set(entry) - _FIELDS)]
        found += [f"{where}: missing {name!r}" for name in _REQUIRED if name not in entry]
        kind = entry.get("kind")
        if kind not in ("wordlist", "analyzer"):
            found.append(f"{where}: kind must be wordlist or analyzer, not {kind!r}")
        elif kind == "wordlist" and ("wordlist" in entry) == ("builder" in entry):
            found.append(f"{where}: a wordlist lexicon names exactly one of 'wordlist' (committed) and 'builder' (a script)")
        elif kind == "analyzer" and "analyzer" not in entry:
            found.append(f"{where}: an analyzer lexicon names its 'analyzer' (module:Class)")
        found += [f"{where}: {name} {entry[name]!r} is no file in wordlists/{folder}/" for name in ("wordlist", "builder") if name in entry and not (path.parent / str(entry[name])).is_file()]
        examples = entry.get("double_examples", [])
        if not isinstance(examples, list) or not all(isinstance(word, str) and _ONE_DOUBLE.fullmatch(word) for word in examples):
            found.append(f"{where}: double_examples is a list of words, each with one double card in brackets ((ch)ico), not {examples!r}")
        if found:
            problems += found
            continue
        values = dict(entry)
        values["double_examples"] = tuple(examples)
        values["aliases"] = tuple(str(a) for a in values.get("aliases") or ())
        for name in ("wordlist", "builder"):
            if name in values:
                values[name] = f"{folder}/{values[name]}"
        values["package"] = {str(k): str(v) for k, v in (values.get("package") or {}).items()}
        values["filter"] = {str(k): str(v) for k, v in (values.get("filter") or {}).items()}
        out.append(Language(**values))
    if problems:
        raise ValueError("; ".join(problems))
    return out


def read_manifests(root: Path) -> tuple[Language, ...]:
    """Every lexicon of every ``<root>/*/manifest.yaml``: folders in the order of ``<root>/order.txt``, then the rest by name."""
    order_file = root / "order.txt"
    order = [line.strip() for line in order_file.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")] if order_file.is_file() else []
    folders = sorted((p.parent for p in root.glob("*/manifest.yaml")), key=lambda f: (order.index(f.name) if f.name in order else len(order), f.name))
    languages = [lang for folder in folders for lang in read_manifest(folder / "manifest.yaml")]
    ids = [lang.id for lang in languages]
    doubled = sorted({i for i in ids if ids.count(i) > 1})
    if doubled:
        raise ValueError(f"lexicon ids given by two manifests: {', '.join(doubled)}")
    return tuple(languages)


def wordlists_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "wordlists"


#: Every lexicon the manifests describe, read once at import (a handful of small YAML files).
LANGUAGES: tuple[Language, ...] = read_manifests(wordlists_dir())


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

    def language(self, tag: str) -> Language:
        """The manifest's entry of the lexicon a tag names (as :meth:`resolve`: it must be loaded)."""
        return self.languages[self.resolve(tag)]

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
