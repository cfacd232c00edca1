"""Build the Spanish word list from Debian's hunspell-es (es_ES) and wspanish.

Contract: writes the wordsvc word list v1 (gzip when ``--out`` ends in
``.gz``; sorted lines, gzip ``mtime`` 0, so the same package versions give
the same bytes)::

    # wordsvc word list v1
    # id: es
    # version: hunspell-es-<deb version>-wspanish-<deb version>-filter<FILTER_VERSION>
    # source: ...
    # filter: ...
    # columns: form<TAB>classes<TAB>rank
    canción<TAB><TAB>1
    cancion<TAB><TAB>1

Where the forms come from (README.md beside this file has the counts and
the evidence):

- every form of every stem of ``/usr/share/hunspell/es_ES.dic`` under its
  affix rules, expanded by :mod:`wordlists._builder.hunspell` (rank 1); wspanish
  (``/usr/share/dict/spanish``, 86,016 lemmas and no inflected forms) adds
  the lemmas hunspell-es lacks (rank 2: archaisms and rare words);
- the class of a form is its stem's (:func:`stem_class`): Spanish capitalises
  only names, so a capitalised stem is ``proper_noun``; a stem in capitals
  (``ONU``, ``DVD``) or a lowercase one without a vowel (``km``, ``sr``,
  ``qu``) is ``abbreviation``; so is a short lowercase stem that hunspell-es
  inflects at most for gender and number, that wspanish lacks, and that is
  spelled as no Spanish word is (:func:`abbreviation_rule`: hunspell-es
  stores its abbreviations without their full stop, ``tfno``, ``izq``,
  ``máx``), and the few with no such evidence (:data:`HAND_ABBREVIATIONS`);
  a stem holding a space, hyphen, period, apostrophe, digit or any other
  character no card shows, or one of the few pieces of foreign phrases
  (:data:`FRAGMENTS`), is dropped (:func:`dropped_because`);
- Spanish word games lay accented vowels with plain tiles (Spanish Scrabble
  has no accented tiles) but keep Ñ a letter of its own: every form with
  á é í ó ú ü also gets its plain spelling (``canción`` and ``cancion``),
  and ñ is never folded (:func:`plain_vowels`); the manifest's
  ``fold_diacritics`` folds the same way, with ``fold_keep: ñ``.

Standard library only besides the builders' kit (:mod:`wordlists._builder`:
the list file, the options, the hunspell expander). Run from the checkout's
root: ``python -m wordlists.es.build_es --out es.tsv.gz``
"""

from __future__ import annotations

import collections
import re
import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from wordlists._builder import debian_version, entries, file_sha256, header, parser, write_list
from wordlists._builder.hunspell import expand, read_affixes, read_dictionary

#: Bumped whenever the filter decides differently; part of the list's version.
FILTER_VERSION = 2
#: The letters the Spanish deck lays (after plain_vowels): a-z and ñ. CH, LL and RR are cards of two of them.
DECK_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzñ")
#: Vowel letters: a lowercase stem with none of them is an abbreviation or symbol (km, sr, pp, cfr); y is the word "y".
#: The u of qu is no vowel (Spanish writes qu only before e and i, the u silent): the stem qu has none.
VOWELS = frozenset("aeiouyáéíóúü")
#: es_ES.aff's flags for gender (G: -o to -a) and number (S: the plural). A stem with no other flag is at most a noun
#: or adjective; an abbreviation of es_ES.dic has no flag or only these (dcho/G, hno/GS, pág/S).
NOMINAL_FLAGS = frozenset("GS")
#: The spelling evidence judges stems of at most this many letters: es_ES.dic's abbreviations are short (tfno, geogr, dupdo).
SHORT = 5
#: A consonant run begins (ends) Spanish words when at least this many wspanish lemmas begin (end) with it.
ATTESTED = 3
#: s and a consonant begin the English loans Spanish keeps as spelled (sport, stand, swing, show); Spanish itself writes es- (estand).
S_CLUSTER_SECOND = frozenset("chklmnptw")
#: The one-syllable words Spanish writes with an accent, the tilde diacrítica (Ortografía de la lengua española, 2010),
#: and the plural tés: no other monosyllable carries one, so máx, núm, pág, cód are abbreviations.
DIACRITIC_MONOSYLLABLES = frozenset({"dé", "él", "más", "mí", "qué", "quién", "cuál", "cuán", "sé", "sí", "té", "tú", "tés"})
#: Spanish words the final-cluster rule would take, English loans kept in their English spelling (DLE entries:
#: rock, jazz, hall, swing, yang, ...), by hand: their spelling is evidence of English, not of an abbreviation.
LOANWORDS = frozenset({"crack", "hall", "halls", "hertz", "jazz", "rock", "sport", "swing", "yang", "york"})
#: es_ES.dic abbreviations stored without their full stop that no evidence tells from a word: spelled as Spanish
#: words are (ap., caj., cent., ef., ej., gob., gral., ib., pat., rep.), with no flag and not in wspanish. By hand,
#: the ones the solver played (README.md); each is in RLA-ES's own list of abbreviations too.
HAND_ABBREVIATIONS = frozenset({"ap", "caj", "cent", "ef", "ej", "gob", "gral", "ib", "pat", "rep"})
#: Pieces of foreign or fixed phrases that wspanish (ab, aellas, bon, dix, et, zis) and es_ES.dic (dix, et) hold as
#: words, no Spanish word alone: ab (ab initio), et (et al.), bon (bon vivant), dix, zis (zis, zas), aellas (a ellas).
#: By hand (README.md); dropped from both lists.
FRAGMENTS = frozenset({"ab", "aellas", "bon", "dix", "et", "zis"})
#: The marks Spanish tiles do not show: the acute accent and the diaeresis (güe). The tilde of ñ stays.
FOLDED_MARKS = frozenset("\u0301\u0308")
#: Why a stem is dropped, in the order the checks run (the first that applies names it).
DROP_CHECKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("multi_word", re.compile(r"\s")),
    ("hyphen", re.compile(r"-")),
    ("period", re.compile(r"\.")),
    ("apostrophe", re.compile(r"['´’]")),
    ("digit", re.compile(r"\d")),
    ("unlayable", re.compile(r"[^a-zA-ZáéíóúüñÁÉÍÓÚÜÑ]")),
)



def dropped_because(stem: str) -> str | None:
    """The drop class of a stem no card can lay (``multi_word``, ``hyphen``, ...) or no word alone (``fragment``), or ``None`` when it stays."""
    for name, pattern in DROP_CHECKS:
        if pattern.search(stem):
            return name
    return "fragment" if stem in FRAGMENTS else None


def consonant_runs(word: str) -> tuple[str, str]:
    """The consonants before the first vowel and after the last one of ``word`` (lowercase, accents plain): ``tfno`` -> (``tfn``, ``""``).

    qu is the consonant q (its u is silent); y is a vowel unless a vowel follows (``hoy``, ``yate``).
    """
    word = plain_vowels(word.lower()).replace("qu", "q")
    kinds = [ch in VOWELS and not (ch == "y" and word[i + 1 : i + 2] in set("aeiou")) for i, ch in enumerate(word)]
    if True not in kinds:
        return word, ""
    first, last = kinds.index(True), len(kinds) - 1 - kinds[::-1].index(True)
    return word[:first], word[last + 1 :]


class Spelling(NamedTuple):
    """What wspanish's lemmas (a second list, lemmas only) say of Spanish spelling: the lemmas, and how many begin and end with each consonant run."""

    lemmas: frozenset[str]
    initial: collections.Counter[str]
    final: collections.Counter[str]

    @classmethod
    def of(cls, words: Iterable[str]) -> Spelling:
        lemmas = frozenset(unicodedata.normalize("NFC", w) for w in words)
        runs = [consonant_runs(w) for w in lemmas]
        return cls(lemmas, collections.Counter(i for i, _ in runs if i), collections.Counter(f for _, f in runs if f))


def abbreviation_rule(stem: str, flags: str, spelling: Spelling) -> str | None:
    """Which spelling rule makes the lowercase ``stem`` an abbreviation, or ``None``.

    Only a short stem (2 to :data:`SHORT` letters) that hunspell-es inflects at most for gender and number
    (:data:`NOMINAL_FLAGS`) and that wspanish lacks is judged; it is an abbreviation when it is
    spelled as no Spanish word is:

    - ``initial``: it begins with consonants that begin fewer than :data:`ATTESTED` wspanish lemmas (``tfno``, ``dcho``, ``mtro``, ``hno``);
    - ``final``: it has no plural in hunspell-es and ends with consonants that end fewer than :data:`ATTESTED` lemmas,
      a plural s aside (``adv``, ``izq``, ``fig``, ``rev``; :data:`LOANWORDS` kept);
    - ``accent``: one vowel, accented, and no tilde diacrítica (``máx``, ``núm``, ``pág``, ``cód``).
    """
    if not 2 <= len(stem) <= SHORT or set(flags) - NOMINAL_FLAGS or stem in spelling.lemmas:
        return None
    initial, final = consonant_runs(stem)
    if len(initial) >= 2 and not (initial[0] == "s" and initial[1] in S_CLUSTER_SECOND) and spelling.initial[initial] < ATTESTED:
        return "initial"
    core = final[:-1] if len(final) >= 2 and final.endswith("s") else final
    if core and "S" not in flags and stem not in LOANWORDS and spelling.final[core] < ATTESTED:
        return "final"
    vowels = [ch for ch in stem if ch in VOWELS]
    if len(vowels) == 1 and plain_vowels(vowels[0]) != vowels[0] and stem not in DIACRITIC_MONOSYLLABLES:
        return "accent"
    return None


def stem_class(stem: str, flags: str = "", spelling: Spelling | None = None, why: collections.Counter[str] | None = None) -> str:
    """``""`` (ordinary), ``proper_noun`` or ``abbreviation`` for a stem that stays, by how Spanish writes it.

    ``spelling`` (wspanish's evidence) enables :func:`abbreviation_rule`; ``why`` counts the stems each abbreviation rule took.
    """
    rule = None
    if len(stem) >= 2 and any(ch.isupper() for ch in stem[1:]):
        rule = "capitals"  # ONU, DVD, iPad-like spellings
    elif stem[:1].isupper():
        if len(stem) > 1:
            return "proper_noun"  # Madrid, Luisa
        rule = "capitals"  # C, G, I: letters as symbols
    elif len(stem) >= 2 and not VOWELS & set(stem.replace("qu", "q")):
        rule = "no_vowel"  # km, sr, pp, cfr, qu
    elif stem in HAND_ABBREVIATIONS:
        rule = "hand"
    elif spelling is not None:
        rule = abbreviation_rule(stem, flags, spelling)
    if rule is None:
        return ""
    if why is not None:
        why[rule] += 1
    return "abbreviation"


def plain_vowels(form: str) -> str:
    """``form`` with á é í ó ú ü as plain vowels, ñ kept: ``canción`` -> ``cancion``, ``pingüino`` -> ``pinguino``, ``año`` stays.

    Deliberately not :func:`wordsvc.core.text.fold_diacritics` (which the
    lexicon folds with, ``fold_keep: ñ``): only the marks of Spanish
    spelling (:data:`FOLDED_MARKS`) are laid plain here, so a form with any
    other mark (``à``, ``ç``, ``ô``: a foreign word) stays unlayable and is
    dropped, and a plain spelling is added only for a Spanish accent.
    """
    if form.isascii():
        return form
    decomposed = unicodedata.normalize("NFD", form)
    return unicodedata.normalize("NFC", "".join(ch for ch in decomposed if ch not in FOLDED_MARKS))


def layable(form: str) -> bool:
    """Whether every letter of ``form`` (lowercased, vowels plain) is on a card."""
    return set(plain_vowels(form.lower())) <= DECK_LETTERS


def hunspell_rows(
    dic: Path, aff: Path, drops: collections.Counter[str], spelling: Spelling | None = None, why: collections.Counter[str] | None = None
) -> dict[tuple[str, str], int]:
    """``(form, classes) -> rank 1`` for every form of every stem that stays; ``drops`` counts the stems dropped by class, ``why`` the abbreviations by rule."""
    affixes = read_affixes(aff)
    rows: dict[tuple[str, str], int] = {}
    for stem, flags in read_dictionary(dic, affixes.encoding):
        stem = unicodedata.normalize("NFC", stem)
        reason = dropped_because(stem)
        if reason:
            drops[reason] += 1
            continue
        cls = stem_class(stem, flags, spelling, why)
        for form in expand(stem, flags, affixes):
            form = unicodedata.normalize("NFC", form)
            if layable(form):
                rows[(form, cls)] = 1
            else:
                drops["unlayable_form"] += 1
    return rows


def wspanish_rows(words: Iterable[str], known: dict[tuple[str, str], int], drops: collections.Counter[str]) -> dict[tuple[str, str], int]:
    """``(form, classes) -> rank 2`` for the wspanish lemmas hunspell-es lacks in any reading.

    wspanish writes everything in lowercase, names too (``españa``,
    ``andrés``): a lemma whose capitalised spelling hunspell-es holds as a
    name, and that hunspell-es does not hold in lowercase, is taken as that
    name (``proper_noun``, written capitalised).
    """
    lowercase = {form for form, _ in known if not form[:1].isupper()}
    names = {form for form, cls in known if cls == "proper_noun"}
    rows: dict[tuple[str, str], int] = {}
    for word in words:
        word = unicodedata.normalize("NFC", word)
        if word in lowercase:
            continue
        reason = dropped_because(word)
        if reason or not layable(word):
            drops[f"wspanish_{reason or 'unlayable'}"] += 1
            continue
        capital = word[:1].upper() + word[1:]
        if capital in names:
            drops["wspanish_name"] += 1
            continue  # hunspell-es has it already, as the name it is
        rows[(word, "")] = 2
    return rows


def with_plain_spellings(rows: dict[tuple[str, str], int]) -> dict[tuple[str, str], int]:
    """``rows`` and, for each form with an accented vowel, its plain spelling with the same classes (smallest rank kept)."""
    out = dict(rows)
    for (form, cls), rank in rows.items():
        plain = plain_vowels(form)
        if plain != form:
            out[(plain, cls)] = min(rank, out.get((plain, cls), rank))
    return out


def main(argv: list[str] | None = None) -> int:
    options = parser(__doc__)
    options.add_argument("--dic", type=Path, default=Path("/usr/share/hunspell/es_ES.dic"))
    options.add_argument("--aff", type=Path, default=Path("/usr/share/hunspell/es_ES.aff"))
    options.add_argument("--wspanish", type=Path, default=Path("/usr/share/dict/spanish"))
    args = options.parse_args(argv)

    drops: collections.Counter[str] = collections.Counter()
    why: collections.Counter[str] = collections.Counter()
    words = list(entries(args.wspanish, package="wspanish", nfc=False))
    rows = hunspell_rows(args.dic, args.aff, drops, Spelling.of(words), why)
    rows.update(wspanish_rows(words, rows, drops))
    rows = with_plain_spellings(rows)
    hunspell_es, wspanish = debian_version("hunspell-es", "unknown"), debian_version("wspanish", "unknown")
    head = header(
        "es",
        f"hunspell-es-{hunspell_es}-wspanish-{wspanish}-filter{FILTER_VERSION}",
        f"hunspell-es {hunspell_es} (es_ES.dic sha256 {file_sha256(args.dic)}, es_ES.aff sha256 {file_sha256(args.aff)}), "
        f"wspanish {wspanish} (spanish sha256 {file_sha256(args.wspanish)})",
        "stems with a space, hyphen, period, apostrophe, digit or other character no card lays, and pieces of foreign phrases, dropped; "
        "capitalised stems proper_noun; capitals, no vowel, or a short uninflected stem wspanish lacks spelled as no Spanish word is, "
        "abbreviation; accented vowels also spelled plain, ñ kept (wordlists/es/build_es.py)",
    )
    write_list(args.out, head, (f"{form}\t{cls}\t{rank}" for (form, cls), rank in sorted(rows.items())), level=9, sync_flush=True)
    classes = collections.Counter(cls or "ordinary" for _, cls in rows)
    print(
        f"{args.out}: {len(rows)} lines; classes {dict(sorted(classes.items()))}; abbreviation stems by rule {dict(sorted(why.items()))}; "
        f"dropped {dict(sorted(drops.items()))}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
