"""``wordsvc build``: compile every word-list language into ``build/lexicons/<id>/``.

Idempotent: a lexicon is rebuilt only when its word list changed (the word
list's sha256 is kept in ``meta.json``). A language whose word list is made
by a builder script (Icelandic, from the islenska package) has it generated
into ``build/sources/`` first, once.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path

from .languages import LANGUAGES, Language, default_data_dir, wordlists_dir
from .lexicons import COMPILER, compile_lexicon, read_wordlist

__all__ = ["build_all", "build_language"]


def build_all(data_dir: str | Path | None = None, only: tuple[str, ...] | None = None, force: bool = False, log=print) -> None:  # type: ignore[no-untyped-def]
    data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
    for lang in LANGUAGES:
        if lang.kind != "wordlist" or (only is not None and lang.id not in only):
            continue
        build_language(lang, data_dir, force=force, log=log)


def _wordlist_path(lang: Language, data_dir: Path, log) -> Path:  # type: ignore[no-untyped-def]
    if lang.wordlist:
        return wordlists_dir() / lang.wordlist
    assert lang.builder
    target = data_dir / "sources" / f"{lang.id}.tsv.gz"
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        log(f"{lang.id}: generating word list with wordlists/{lang.builder} ...")
        partial = target.with_suffix(".partial.gz")
        subprocess.run([sys.executable, str(wordlists_dir() / lang.builder), "--out", str(partial)], check=True)
        partial.replace(target)
    return target


def build_language(lang: Language, data_dir: Path, force: bool = False, log=print) -> Path:  # type: ignore[no-untyped-def]
    source = _wordlist_path(lang, data_dir, log)
    source_sha = hashlib.sha256(source.read_bytes()).hexdigest()
    out = data_dir / "lexicons" / lang.id
    meta_path = out / "meta.json"
    if not force and meta_path.is_file():
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if meta.get("source_sha256") == source_sha and meta.get("compiler") == COMPILER:
            log(f"{lang.id}: up to date ({meta['entries']} forms, sha256 {meta['sha256'][:12]})")
            return out
    started = time.perf_counter()
    header, rows = read_wordlist(source)
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
            "source_sha256": source_sha,
        },
    )
    log(f"{lang.id}: compiled {info.entries} forms in {time.perf_counter() - started:.1f} s, sha256 {info.sha256[:12]}")
    return out
