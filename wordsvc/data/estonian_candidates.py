"""Candidates for the Estonian solver: the forms of the hunspell word list and every short word, for an analyser that lists none.

The Estonian lexicon is Vabamorf (:mod:`wordsvc.data.estonian`): it judges a
form but cannot enumerate forms, so the solver's anagram index needs another
list of what to propose. This module makes it from two sources:

- Debian's ``myspell-et`` (``/usr/share/hunspell/et_EE.dic`` and ``.aff``,
  © Institute of the Estonian Language; affix file LGPL-2.1+): ``unmunch``
  (package ``hunspell-tools``) expands the 282k stems with their affixes into
  about 15 million forms in a few seconds;
- Vabamorf itself, asked about *every* string of at most
  :data:`SHORT_LETTERS` letters of the Estonian alphabet (14.9 million
  strings, :func:`short_forms`): the short words hunspell never lists
  (*nuh*, *jep*, *jugad*) are the ones that most often change a small hand's
  best play.

Each form is normalized and indexed like any lexicon's forms
(:func:`~wordsvc.data.anagram_index.build_anagram_index_from_forms`: letters
only, layable in one word by the rulesets' decks).

What it covers, and what not: every word of up to :data:`SHORT_LETTERS`
letters Vabamorf reads as written, and every inflected form of a word
hunspell lists. Not covered: longer forms hunspell does not generate (its
compounding flag is left unexpanded, so productive compounds such as
``kassikool``, which Vabamorf accepts and the ``eesti`` ruleset allows, are
never proposed), names (banned by every ruleset anyway), and longer words
absent from the 2003 list. The solver is exact over the proposed words: each
is judged by Vabamorf itself (``judge_cards``), so a proposal Vabamorf
refuses is never played; a word Vabamorf would accept but neither source
proposes is never found. ``bench/estonian_coverage.py`` measures how often
that changes a hand's best score.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from itertools import chain, product
from pathlib import Path

from ..core.text import normalize
from .anagram_index import FORMAT, Limits, build_anagram_index_from_forms
from .decks import ALPHABETS
from .estonian import NAME_CLASSES, VabamorfLexicon

__all__ = ["AFF", "DIC", "SHORT_LETTERS", "build_estonian_anagrams", "build_estonian_index", "short_forms", "unmunch_batches", "unmunch_forms"]

DIC = Path("/usr/share/hunspell/et_EE.dic")
AFF = Path("/usr/share/hunspell/et_EE.aff")
#: The charset the affix file declares (``SET ISO8859-15``).
ENCODING = "iso-8859-15"

#: Every string of up to this many letters is put to Vabamorf. Five letters
#: are 14.9 million strings, about 150,000 a second a core; six would be 27
#: times as many.
SHORT_LETTERS = 5


def unmunch_forms(dic: Path = DIC, aff: Path = AFF) -> Iterator[str]:
    """Every form ``unmunch`` expands from the word list, normalized (NFC, case-folded), duplicates included.

    Read in batches of lines (:func:`unmunch_batches`); the forms come in
    the order ``unmunch`` writes them.
    """
    return chain.from_iterable(unmunch_batches(dic, aff))


def unmunch_batches(dic: Path = DIC, aff: Path = AFF, size: int = 1 << 24) -> Iterator[list[str]]:
    """:func:`unmunch_forms` as lists, about ``size`` bytes of ``unmunch``'s output each (a million lines).

    Each line is decoded, stripped, dropped when empty or when it holds a
    ``/`` (an affix flag ``unmunch`` left), and normalized, as always; but a
    batch is read, decoded and split at once and its lines go through
    ``map``, not a Python loop a line: 15 million lines in less than half
    the time.
    """
    exe = shutil.which("unmunch")
    if exe is None:
        raise FileNotFoundError("unmunch not found: apt-get install hunspell-tools")
    for path in (dic, aff):
        if not path.is_file():
            raise FileNotFoundError(f"{path} not found: apt-get install myspell-et")
    with subprocess.Popen([exe, str(dic), str(aff)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as proc:
        assert proc.stdout is not None
        rest = b""
        while chunk := proc.stdout.read(size):  # streamed: 15 million lines, 230 MB
            chunk = rest + chunk
            cut = chunk.rfind(b"\n") + 1  # the whole lines now, the rest with the next chunk
            rest = chunk[cut:]
            if cut:
                yield _forms(chunk[:cut])
        if rest:
            yield _forms(rest)
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, exe)


def _forms(lines: bytes) -> list[str]:
    """The normalized forms of whole lines of ``unmunch``'s output: each stripped, none empty or holding a ``/``."""
    return list(map(normalize, (form for form in map(str.strip, lines.decode(ENCODING).split("\n")) if form and "/" not in form)))


def short_forms(max_letters: int = SHORT_LETTERS, alphabet: str = ALPHABETS["et"], processes: int | None = None) -> list[str]:
    """Every string of 1 to ``max_letters`` letters of ``alphabet`` that Vabamorf reads as written, sorted.

    That is every such word but names and upper-case abbreviations (which
    every ruleset bans), and some lower-case abbreviations the solver then
    refuses (:meth:`~wordsvc.data.estonian.VabamorfLexicon.words_among`).

    Exhaustive, so no word this short is missed, whether or not any word
    list has it; split by first letter over ``processes`` worker processes
    (default: one a CPU), each with its own analyser.
    """
    with short_forms_started(max_letters, alphabet, processes) as found:
        return found()


@contextmanager
def short_forms_started(max_letters: int = SHORT_LETTERS, alphabet: str = ALPHABETS["et"], processes: int | None = None) -> Iterator[Callable[[], list[str]]]:
    """:func:`short_forms` started in its worker processes; the function yielded waits for them and returns the list.

    So the caller can do other work meanwhile (the index reads the hunspell
    forms while the analysers run). Leaving the block early cancels what
    has not started.
    """
    jobs = [(first, alphabet, max_letters) for first in alphabet]
    pool = ProcessPoolExecutor(max_workers=processes or os.cpu_count(), initializer=_open_analyser)
    try:
        futures = [pool.submit(_read_starting_with, job) for job in jobs]
        yield lambda: sorted(chain.from_iterable(future.result() for future in futures))
    finally:
        pool.shutdown(cancel_futures=True)


_analyser = None  # one VabamorfLexicon a worker process of short_forms()


def _open_analyser() -> None:
    global _analyser
    _analyser = VabamorfLexicon(cache_size=0)


def _read_starting_with(job: tuple[str, str, int]) -> list[str]:
    first, alphabet, max_letters = job
    assert _analyser is not None
    strings = (first + "".join(rest) for size in range(max_letters) for rest in product(alphabet, repeat=size))
    return list(_analyser.words_among(strings, banned=NAME_CLASSES))


def build_estonian_index(out_dir: str | Path, lexicon_sha256: str | None = None, limits: Limits | None = None) -> dict[str, object]:
    """The anagram index of the hunspell forms and the short words, in ``out_dir`` (``build/lexicons/et``).

    The short words are found by the analysers in worker processes
    (:func:`short_forms_started`) while this process reads and filters the
    15 million hunspell forms: on two CPUs the two take about as long as the
    analysers alone. ``short_seconds`` in the meta is how long the short
    words took to come in, from the start.
    """
    started = time.perf_counter()
    source: dict[str, object] = {
        "lexicon": "et",
        "candidates": (
            "myspell-et et_EE.dic + et_EE.aff, expanded by unmunch (hunspell-tools); "
            f"and every string of at most {SHORT_LETTERS} letters of the Estonian alphabet Vabamorf reads"
        ),
        "candidates_sha256": _candidates_sha256(),
        "short_letters": SHORT_LETTERS,
        "short_forms": 0,  # filled in, in place, when the short words come in: the index writes its meta after
        "short_seconds": 0.0,
    }
    if lexicon_sha256 is not None:
        source["lexicon_sha256"] = lexicon_sha256
    with short_forms_started() as found:

        def short() -> Iterator[str]:
            words = found()
            source["short_forms"], source["short_seconds"] = len(words), round(time.perf_counter() - started, 1)
            yield from words

        return build_anagram_index_from_forms(chain(unmunch_forms(), short()), out_dir, fold=False, source=source, limits=limits)


def _candidates_sha256() -> str:
    return hashlib.sha256(DIC.read_bytes() + AFF.read_bytes()).hexdigest()


def build_estonian_anagrams(data_dir: str | Path, limits: Limits, force: bool = False, log: Callable[[str], object] = print) -> Path | None:
    """``wordsvc build``'s step for Estonian: the index in ``<data_dir>/lexicons/et``, unless up to date.

    Skipped, with a line in the log, when the word list, ``unmunch`` or the
    Vabamorf lexicon is missing (the solver then answers 503 for Estonian).
    """
    out = Path(data_dir) / "lexicons" / "et"
    if shutil.which("unmunch") is None or not DIC.is_file() or not AFF.is_file():
        log("et: no anagram index (needs apt-get install myspell-et hunspell-tools)")
        return None
    try:
        lexicon_sha256 = VabamorfLexicon(cache_size=0).info.sha256
    except (ImportError, OSError) as err:
        log(f"et: no anagram index (the Vabamorf lexicon does not load: {err})")
        return None
    meta_path = out / "anagrams.json"
    if not force and meta_path.is_file():
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        same = (meta.get("format"), meta.get("candidates_sha256"), meta.get("short_letters"), meta.get("lexicon_sha256"), meta.get("max_cards"), meta.get("multi"))
        if same == (FORMAT, _candidates_sha256(), SHORT_LETTERS, lexicon_sha256, limits[0], limits[1]):
            log(f"et: anagram index up to date ({meta['keys']} keys)")
            return out
    log(f"et: building the anagram index from myspell-et and every Vabamorf word of up to {SHORT_LETTERS} letters (a few minutes) ...")
    meta = build_estonian_index(out, lexicon_sha256, limits)
    log(f"et: anagram index of {meta['keys']} keys ({meta['spellings']} forms) in {meta['seconds']:.0f} s, its {meta['short_forms']} short words found alongside in {meta['short_seconds']:.0f} s")
    return out
