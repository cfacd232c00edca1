"""``wordsvc build``: compile every word-list language into ``build/lexicons/<id>/``.

Idempotent: a lexicon is rebuilt only when its word list changed (the word
list's sha256 is kept in ``meta.json``). A language whose word list is made
by a builder (``wordlists/<folder>/build_*.py``, run as a module of the
checkout: :func:`run_builder`) has it generated into ``build/sources/``
first, once, and again when the builder or the builders' kit changes.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from ..core.ruleset import Ruleset
from .anagram_index import DEFAULT_RULESET, Limits, build_anagram_index, deck_limits
from .anagram_index import FORMAT as ANAGRAM_FORMAT
from .estonian_candidates import build_estonian_anagrams
from .languages import BUILDING_FILE, LANGUAGES, Language, default_data_dir, wordlists_dir
from .lexicons import COMPILER, compile_lexicon, read_wordlist_columns
from .rulesets import load_rulesets
from .search_index import build_search_index

__all__ = ["build_all", "build_indexes", "build_language", "builder_sha256", "installed_version", "missing_package", "run_builder", "usable_cpus"]


def build_all(  # type: ignore[no-untyped-def]
    data_dir: str | Path | None = None, only: tuple[str, ...] | None = None, force: bool = False, rulesets_dir: Path | None = None, log=print
) -> None:
    """Every word-list lexicon, then beside each its anagram index (solver, /anagrams) and search index (/words, /suggest).

    While it works, ``building.json`` in the data folder names the languages
    still to do, so a running service answers 503 for them and brings each
    online when its last index is written (:class:`~.languages.Languages`).
    """
    data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
    rulesets = list(load_rulesets(rulesets_dir))
    todo = [lang for lang in LANGUAGES if only is None or lang.id in only]
    with _building(data_dir, [lang.id for lang in todo]) as done:
        for lang in todo:
            missing = missing_package(lang)
            if missing:
                log(f"{lang.id}: not built: {missing} (docs/languages.md)")
            elif lang.kind == "wordlist":
                out = build_language(lang, data_dir, force=force, log=log)
                build_indexes(out, limits_for(lang, rulesets), rulesets_dir, force=force, log=log)
            elif lang.id == "et":  # Vabamorf cannot list its words: the solver's candidates come from myspell-et
                build_estonian_anagrams(data_dir, limits_for(lang, rulesets), force=force, log=log)
            done(lang.id)


def limits_for(lang: Language, rulesets: Iterable[Ruleset]) -> Limits:
    """What a lexicon's anagram index must cover: the decks it is played with, its own language's rulesets and the default.

    Each deck's multi-letter faces let a word of more letters than cards
    into the index, so covering every language's decks would index, for
    Icelandic, the words Spanish LL or Danish EN would shorten: cards no
    Icelandic table holds (and twice the Estonian index's build time). The
    solver refuses another language's ruleset, 422 (:func:`~.anagram_index.plays`).
    """
    tags = {lang.id, *lang.aliases}
    return deck_limits(r for r in rulesets if r.language in tags or r.id == DEFAULT_RULESET)


def installed_version(package: str) -> str | None:
    """The version of a Debian package installed here, else ``None`` (no dpkg, or not installed)."""
    try:
        done = subprocess.run(["dpkg-query", "-W", "-f", "${Status} ${Version}", package], capture_output=True, text=True, check=False)
    except OSError:
        return None
    status, _, version = done.stdout.rpartition(" ")
    return version if done.returncode == 0 and status.endswith("installed") else None


def missing_package(lang: Language) -> str:
    """Why a language's builder cannot run here (its Debian package is not installed), else ``""``.

    Only a builder reads its package at set-up; a committed list (English) or an analyser does not. A
    version other than the manifest's is built, and the list's header names the version it was built from.
    """
    name = lang.package.get("name")
    if not lang.builder or not name:
        return ""
    return "" if installed_version(name) else f"the Debian package {name} is not installed (make setup installs it as root)"


@contextmanager
def _building(data_dir: Path, languages: list[str]) -> Iterator:  # type: ignore[type-arg]
    """``building.json`` names ``languages`` until each is reported done; removed at the end, whatever happens."""
    path = data_dir / BUILDING_FILE
    left = list(languages)

    def write() -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".json.new")
        partial.write_text(json.dumps({"pid": os.getpid(), "languages": left}) + "\n", encoding="utf-8")
        os.replace(partial, path)

    def done(lang_id: str) -> None:
        left.remove(lang_id)
        write()

    write()
    try:
        yield done
    finally:
        path.unlink(missing_ok=True)


def build_indexes(lexicon_dir: Path, limits: Limits, rulesets_dir: Path | None = None, force: bool = False, log=print) -> None:  # type: ignore[no-untyped-def]
    """The anagram index and the search index of a compiled lexicon: side by side, in two processes, when there are two CPUs.

    Each only reads the compiled lexicon and writes files of its own, and
    the two take about as long (the Icelandic ones some 20 s of CPU each),
    so together they take about as long as the slower one. Their log lines
    come here, each index's when it is done.
    """
    steps = [(build_anagrams, (lexicon_dir, limits, force)), (build_search_index, (lexicon_dir, rulesets_dir, force))]
    if usable_cpus() < 2:
        for step, args in steps:
            step(*args, log=log)
        return
    with ProcessPoolExecutor(max_workers=len(steps)) as pool:
        for done in [pool.submit(_logged, step, *args) for step, args in steps]:
            for line in done.result():
                log(line)


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask, where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _logged(step, *args) -> list[str]:  # type: ignore[no-untyped-def]
    """``step(*args)`` in a worker process, its log lines kept to be written by the parent."""
    lines: list[str] = []
    step(*args, log=lines.append)
    return lines


def build_anagrams(lexicon_dir: Path, limits: Limits, force: bool = False, log=print) -> None:  # type: ignore[no-untyped-def]
    """The anagram index, unless it was built from this lexicon for these decks already."""
    meta_path = lexicon_dir / "anagrams.json"
    lexicon_meta = json.loads((lexicon_dir / "meta.json").read_text(encoding="utf-8"))
    if not force and meta_path.is_file():
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        same = (meta.get("format"), meta.get("lexicon_sha256"), meta.get("max_cards"), meta.get("multi"))
        if same == (ANAGRAM_FORMAT, lexicon_meta["sha256"], limits[0], limits[1]):
            log(f"{lexicon_dir.name}: anagram index up to date ({meta['keys']} keys)")
            return
    meta = build_anagram_index(lexicon_dir, limits)
    log(f"{lexicon_dir.name}: anagram index of {meta['keys']} keys in {meta['seconds']:.1f} s")


def _wordlist_path(lang: Language, data_dir: Path, log, force: bool = False) -> Path:  # type: ignore[no-untyped-def]
    """The language's word list: committed, or generated by its builder (again when the builder or the builders' kit changes)."""
    if lang.wordlist:
        return wordlists_dir() / lang.wordlist
    assert lang.builder
    target = data_dir / "sources" / f"{lang.id}.tsv.gz"
    script_sha = builder_sha256(lang)
    stamp = target.with_name(target.name + ".builder-sha256")
    if force or not target.is_file() or not stamp.is_file() or stamp.read_text().strip() != script_sha:
        target.parent.mkdir(parents=True, exist_ok=True)
        log(f"{lang.id}: generating word list with wordlists/{lang.builder} ...")
        partial = target.with_suffix(".partial.gz")
        run_builder(lang, partial)
        partial.replace(target)
        stamp.write_text(script_sha + "\n")
    return target


def run_builder(lang: Language, out: Path) -> None:
    """Write ``lang``'s word list to ``out`` with its builder: ``python -m wordlists.<folder>.<builder> --out OUT``.

    Run from the checkout's root, so the builder imports the builders' kit
    (``wordlists._builder``) and :mod:`wordsvc.core.text` as modules of the
    tree, with no path set up.
    """
    assert lang.builder
    module = "wordlists." + lang.builder.removesuffix(".py").replace("/", ".")
    subprocess.run([sys.executable, "-m", module, "--out", str(out)], cwd=wordlists_dir().parent, check=True)


def builder_sha256(lang: Language) -> str:
    """What a generated word list is stamped with: the sha256 of its builder and of every module of the builders' kit, in name order."""
    assert lang.builder
    digest = hashlib.sha256((wordlists_dir() / lang.builder).read_bytes())
    for module in sorted((wordlists_dir() / "_builder").glob("*.py")):
        digest.update(module.read_bytes())
    return digest.hexdigest()


def build_language(lang: Language, data_dir: Path, force: bool = False, log=print) -> Path:  # type: ignore[no-untyped-def]
    source = _wordlist_path(lang, data_dir, log, force)
    source_sha = hashlib.sha256(source.read_bytes()).hexdigest()
    out = data_dir / "lexicons" / lang.id
    meta_path = out / "meta.json"
    if not force and meta_path.is_file():
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        same_folding = (bool(meta.get("fold_diacritics")), meta.get("fold_keep", "")) == (lang.fold_diacritics, lang.fold_keep)
        if meta.get("source_sha256") == source_sha and meta.get("compiler") == COMPILER and same_folding:
            log(f"{lang.id}: up to date ({meta['entries']} forms, sha256 {meta['sha256'][:12]})")
            return out
    started = time.perf_counter()
    header, rows = read_wordlist_columns(source)
    info = compile_lexicon(
        rows,
        out,
        {
            "id": lang.id,
            "lang": lang.id,
            "version": header.get("version") or f"{lang.id}-{source_sha[:12]}",
            "source": header.get("source") or lang.source,
            "licence": lang.licence,
            "attribution": lang.attribution,
            "fold_diacritics": lang.fold_diacritics,
            "fold_keep": lang.fold_keep,
            "source_sha256": source_sha,
        },
    )
    log(f"{lang.id}: compiled {info.entries} forms in {time.perf_counter() - started:.1f} s, sha256 {info.sha256[:12]}")
    return out
