"""The Estonian lexicon: real forms judged by Vabamorf (wordsvc.data.estonian).

Skipped when estnltk is not installed. Not ``pytest.importorskip("estnltk")``:
that imports the estnltk package, whose ``__init__`` needs pandas and more,
so under the lean install (``pip install --no-deps``) it would fail and
silently skip every test here; the lexicon itself never imports it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pickle
import subprocess
import sys

import pytest

from wordsvc.core.text import normalize

if importlib.util.find_spec("estnltk") is None:
    pytest.skip("estnltk not installed: pip install --no-deps -r requirements/estonian-nodeps.txt", allow_module_level=True)

from wordsvc.data.estonian import VabamorfLexicon

ORDINARY = frozenset()
COMPOUND = frozenset({"compound"})
PROPER = frozenset({"proper_noun"})
ABBREVIATION = frozenset({"abbreviation"})
CLITIC = frozenset({"clitic"})


@pytest.fixture(scope="module")
def et() -> VabamorfLexicon:
    return VabamorfLexicon()


def readings(lexicon: VabamorfLexicon, word: str) -> set[frozenset[str]]:
    return set(lexicon.readings(normalize(word)))


@pytest.mark.parametrize(
    "word",
    ["kass", "kassi", "kassile", "kassidega", "lugema", "loen", "luges", "loetud", "šokolaad", "žürii", "õun", "äri", "öö"],
)
def test_inflected_nouns_verbs_and_letters_with_diacritics_are_ordinary_words(et, word):
    assert readings(et, word) == {ORDINARY}


@pytest.mark.parametrize("word", ["kassikool", "raudtee", "ülikool"])
def test_productive_and_lexicalised_compounds_are_both_marked_compound(et, word):
    assert readings(et, word) == {COMPOUND}


@pytest.mark.parametrize("word", ["Tallinn", "Tallinnas", "tallinn", "tallinnas", "jüri", "Jüri"])
def test_proper_nouns_are_found_from_the_case_folded_form(et, word):
    assert readings(et, word) == {PROPER}


def test_a_word_that_is_also_a_name_has_both_readings(et):
    assert readings(et, "tartu") == {ORDINARY, PROPER}
    assert readings(et, "emajõgi") == {COMPOUND, COMPOUND | PROPER}


@pytest.mark.parametrize("word", ["jne", "nt", "EKI", "eki", "km"])
def test_abbreviations_are_found_in_lower_and_upper_case(et, word):
    assert readings(et, word) == {ABBREVIATION}


def test_a_hyphenated_inflected_abbreviation_is_marked_both(et):
    assert readings(et, "USA-le") == {ABBREVIATION | {"hyphenated"}}


def test_the_clitic_is_read_from_its_own_field(et):
    assert readings(et, "kasski") == {CLITIC}
    assert readings(et, "minagi") == {CLITIC}
    assert readings(et, "Tallinngi") == {PROPER | CLITIC}


def test_seegi_is_both_a_clitic_form_and_an_ordinary_genitive(et):
    # see + -gi, and the genitive of "seek"
    assert readings(et, "seegi") == {ORDINARY, CLITIC}


@pytest.mark.parametrize("word", ["kassgi", "kassx", "qwerty", "zürii", "sokolaad"])
def test_non_words_and_wrong_clitic_have_no_reading(et, word):
    assert et.readings(normalize(word)) == ()


@pytest.mark.parametrize("form", ["", " ", "kass kass", "kass3", "3", "kass.", "kass'", "-kass", "kass-", "..."])
def test_input_vabamorf_would_misread_is_refused(et, form):
    assert et.readings(form) == ()


def test_readings_are_sorted_tuples_of_frozensets(et):
    result = et.readings("tartu")
    assert isinstance(result, tuple)
    assert all(isinstance(r, frozenset) for r in result)
    assert result == tuple(sorted(result, key=sorted))


def test_info_identifies_estnltk_and_the_lexicon_files(et):
    info = et.info
    assert (info.id, info.lang, info.entries, info.enumerable, info.fold_diacritics) == ("et", "et", None, False, False)
    assert info.version.startswith("estnltk 1.7.5; Vabamorf lexicon ")
    lines = "".join(f"{digest}  {name}\n" for name, digest in info.extra["lexicon_files"].items())
    assert info.sha256 == hashlib.sha256(lines.encode()).hexdigest()
    assert "LGPL" in info.licence and "Apache-2.0" in info.licence and "Filosoft" in info.attribution


def test_forms_cannot_be_enumerated(et):
    with pytest.raises(TypeError):
        et.forms()


def test_repeated_verdicts_come_from_the_cache(et):
    et.readings("kassidega")
    et.readings("kassidega")  # the second sighting lets it in
    hits = et.cache_info().hits
    et.readings("kassidega")
    assert et.cache_info().hits == hits + 1


def test_a_form_is_at_hand_once_its_readings_are_cached(et):
    assert not et.at_hand("koertega")  # a miss would run the analyser (and wait for its lock)
    misses = et.cache_info().misses
    et.readings("koertega")
    assert not et.at_hand("koertega")
    et.readings("koertega")
    assert et.at_hand("koertega") and et.cache_info().misses == misses + 2
    assert not VabamorfLexicon(cache_size=0).at_hand("tartu")


def test_forms_asked_about_once_take_no_room_in_the_cache():
    lexicon = VabamorfLexicon()
    strings = [f"kass{a}{b}" for a in "abdeghijklmnoprstuv" for b in "aeiou"]  # 95 forms, words or not
    verdicts = [lexicon.readings(form) for form in strings]
    # Two other forms can set both of a form's marks in the 1 MiB table: about 1 in 10^6 here.
    assert lexicon.cache_info().currsize == 0
    assert [lexicon.readings(form) for form in strings] == verdicts
    assert lexicon.cache_info().currsize == len(strings)


def test_without_cache_the_verdicts_are_the_same():
    bare = VabamorfLexicon(cache_size=0)
    assert bare.readings("tartu") == (ORDINARY, PROPER)
    assert bare.cache_info().currsize == 0


def test_loading_neither_imports_estnltk_nor_happens_at_module_import():
    probe = (
        "import sys, wordsvc.data.estonian as m\n"
        "before = sorted(n for n in sys.modules if 'estnltk' in n)\n"
        "m.VabamorfLexicon()\n"
        "print(before, sorted(n for n in sys.modules if 'estnltk' in n or n in ('pandas', 'numpy')))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[] []"


def test_forked_workers_get_the_same_verdicts_as_their_parent():
    """Vabamorf reads its lexicon through open files as it goes; shared with forked
    workers, they gave a few wrong verdicts in a thousand (about 6 % on longer runs)."""
    stems = (
        "kass koer maja auto raud tee kool laud aken uks käsi jalg silm vesi leib piim õun pirn mets puu lill meri "
        "järv jõgi saar linn küla tänav raamat kiri sõna keel päev hommik õhtu nädal aasta ema isa laps poiss "
        "tüdruk sõber tallinn tartu pärnu"
    ).split()
    endings = ["", "i", "ile", "idega", "st", "s", "sse", "le", "lt", "ga", "ks", "gi", "ki", "de", "kool", "tee", "maja", "na", "ta"]
    forms = [stem + ending for stem in stems for ending in endings]
    reference = VabamorfLexicon(cache_size=0)
    expected = [reference.readings(f) for f in forms]
    lexicon = VabamorfLexicon(cache_size=0)  # nothing read yet: parent and children read as they go
    children = []
    for _ in range(2):
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            with os.fdopen(write_end, "wb") as out:
                pickle.dump([lexicon.readings(f) for f in forms], out)
            os._exit(0)
        os.close(write_end)
        children.append((pid, read_end))
    assert [lexicon.readings(f) for f in forms] == expected
    for pid, read_end in children:
        with os.fdopen(read_end, "rb") as child_out:
            assert pickle.load(child_out) == expected
        os.waitpid(pid, 0)


def test_short_forms_are_every_string_vabamorf_reads_and_nothing_else(et):
    """The solver's exhaustive short words: the same strings a verdict accepts, found by brute force here."""
    import itertools

    from wordsvc.data.estonian_candidates import short_forms

    alphabet = "aehjknsuõü"
    strings = ["".join(letters) for size in (1, 2, 3) for letters in itertools.product(alphabet, repeat=size)]
    found = short_forms(max_letters=3, alphabet=alphabet, processes=2)
    assert found == sorted(found) and len(set(found)) == len(found)
    assert set(found) <= {s for s in strings if et.readings(s)}
    assert {s for s in strings if any(not r & {"proper_noun", "abbreviation"} for r in et.readings(s))} <= set(found)
    assert {"jah", "kes", "süü", "õun", "nuh"} <= set(found)  # nuh: a word hunspell's list lacks


def test_words_among_keeps_every_form_with_a_reading_the_ban_allows(et):
    forms = ["tallinn", "kass", "kassikool", "eki", "qxz", "kassgi"]
    names = frozenset({"proper_noun", "abbreviation"})
    assert list(et.words_among(forms, banned=names)) == ["kass", "kassikool"]
    assert list(et.words_among(forms, banned=names | {"compound"})) == ["kass", "kassikool"]  # a superset: compounds are judged later
    assert list(et.words_among(forms)) == ["tallinn", "kass", "kassikool", "eki"]
    assert list(et.words_among(forms, banned=frozenset({"abbreviation"}))) == ["tallinn", "kass", "kassikool"]
