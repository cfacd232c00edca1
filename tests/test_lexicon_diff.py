"""What changed between two lexicons: wordsvc.data.lexicon_diff, GET /lexicons/diff and `wordsvc lexicon diff`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wordsvc.core.errors import UnknownLanguage
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.text import fold_diacritics, normalize
from wordsvc.data.languages import Languages
from wordsvc.data.lexicon_diff import DiffCache, LexiconNotListable, SortedForms, diff_lexicons, resolve_sides
from wordsvc.data.lexicons import read_wordlist
from wordsvc.schemas.lexicons import MAX_DIFF_LIMIT, LexiconDiffOut

ROOT = Path(__file__).resolve().parents[1]

OLD = MemoryLexicon(
    {"quiz": [()], "cat": [()], "lm": [()], "derby": [(), ("proper_noun",)], "zebra": [()]},
    LexiconInfo(id="en-US", lang="en-US", version="old", sha256="a" * 64, entries=5, fold_diacritics=True),
)
NEW = MemoryLexicon(
    {"quiz": [()], "cat": [()], "lm": [("symbol",)], "derby": [("proper_noun",)], "aardvark": [()], "qi": [()], "café": [()]},
    LexiconInfo(id="en-GB", lang="en-GB", version="new", sha256="b" * 64, entries=8, fold_diacritics=True),
)


class Analyser(MemoryLexicon):
    def forms(self):
        raise TypeError("an analyser cannot list its words")


ANALYSER = Analyser(["kass"], LexiconInfo(id="et", lang="et", version="1", sha256="c" * 64, enumerable=False))


def test_a_diff_lists_the_forms_added_and_removed_in_code_point_order():
    diff = diff_lexicons(OLD, NEW)
    assert list(diff.added) == ["aardvark", "cafe", "café", "qi"]  # the plain spelling of café is a form too
    assert list(diff.removed) == ["zebra"]
    assert (diff.source.id, diff.target.id, diff.ruleset) == ("en-US", "en-GB", None)


def test_with_a_ruleset_a_form_whose_every_reading_is_now_banned_shows_as_removed(standard):
    diff = diff_lexicons(OLD, NEW, standard)
    assert list(diff.removed) == ["derby", "lm", "zebra"]  # lm is a symbol now, derby only the town
    assert list(diff.added) == ["aardvark", "cafe", "café", "qi"]
    assert diff.ruleset == "standard"


def test_the_reverse_diff_swaps_the_sides():
    forward, backward = diff_lexicons(OLD, NEW), diff_lexicons(NEW, OLD)
    assert (list(forward.added), list(forward.removed)) == (list(backward.removed), list(backward.added))


def test_a_lexicon_against_itself_has_no_changes():
    diff = diff_lexicons(NEW, NEW)
    assert (len(diff.added), len(diff.removed)) == (0, 0)


def test_an_analyser_cannot_be_diffed_and_the_error_names_the_side():
    with pytest.raises(LexiconNotListable) as err:
        diff_lexicons(OLD, ANALYSER)
    assert list(err.value.problems) == ["to"]
    with pytest.raises(LexiconNotListable) as err:
        diff_lexicons(ANALYSER, OLD)
    assert list(err.value.problems) == ["from"]


def test_unknown_lexicons_are_named_by_their_side_at_once():
    languages = Languages({"en-US": OLD, "en-GB": NEW, "et": ANALYSER})
    with pytest.raises(UnknownLanguage) as err:
        resolve_sides(languages, "xx", "yy")
    assert sorted(err.value.problems) == ["from", "to"]
    with pytest.raises(LexiconNotListable) as err:
        resolve_sides(languages, "et", "et-EE")
    assert sorted(err.value.problems) == ["from", "to"]
    assert resolve_sides(languages, "en", "EN-gb") == (OLD, NEW)


def test_sorted_forms_page_by_offset_and_limit():
    forms = SortedForms(["a", "b", "é", "z"])
    assert (len(forms), forms.page(0, 2), forms.page(2, 10), forms.page(9, 3)) == (4, ["a", "b"], ["é", "z"], [])
    assert forms.nbytes == len("abéz".encode()) + 4 * 5


def test_the_cache_answers_again_from_memory_and_keeps_a_bounded_number(standard):
    cache = DiffCache(max_entries=2)
    first = cache.get(OLD, NEW)
    assert cache.get(OLD, NEW) is first
    cache.get(NEW, OLD)
    cache.get(OLD, NEW, standard)
    assert len(cache) == 2 and cache.get(OLD, NEW) is not first


# ---------------------------------------------------------------- HTTP


@pytest.fixture(scope="module")
def client(rulesets):
    from wordsvc.service import Service
    from wordsvc.web.app import create_app

    return create_app(service=Service(rulesets, Languages({"en-US": OLD, "en-GB": NEW, "et": ANALYSER}))).test_client()


def test_get_lexicons_diff_answers_the_documented_shape(client):
    response = client.get("/lexicons/diff?from=en-US&to=en-GB&limit=2")
    assert response.status_code == 200
    body = LexiconDiffOut().load(response.get_json())
    assert body["added"] == {"count": 4, "forms": ["aardvark", "cafe"], "more": True}
    assert body["removed"] == {"count": 1, "forms": ["zebra"], "more": False}
    assert (body["from_"]["id"], body["to"]["id"], body["ruleset"], body["offset"], body["limit"]) == ("en-US", "en-GB", None, 0, 2)


def test_the_next_page_starts_at_offset_plus_limit(client):
    page = client.get("/lexicons/diff?from=en-US&to=en-GB&limit=2&offset=2&ruleset=standard").get_json()
    assert page["added"] == {"count": 4, "forms": ["café", "qi"], "more": False}
    assert page["removed"] == {"count": 3, "forms": ["zebra"], "more": False}


def test_limit_zero_gives_the_counts_only(client):
    page = client.get("/lexicons/diff?from=en-US&to=en-GB&limit=0").get_json()
    assert (page["added"]["forms"], page["added"]["count"], page["added"]["more"]) == ([], 4, True)


@pytest.mark.parametrize(
    "query, status, fields",
    [
        ("from=en-US&to=et", 422, ["to"]),
        ("from=et&to=en-US", 422, ["from"]),
        ("from=xx&to=en-US", 404, ["from"]),
        ("from=xx&to=yy", 404, ["from", "to"]),
        ("to=en-US", 422, ["from"]),
        ("from=en-US&to=en-GB&ruleset=nope", 404, ["ruleset"]),
        (f"from=en-US&to=en-GB&limit={MAX_DIFF_LIMIT + 1}", 422, ["limit"]),
        ("from=en-US&to=en-GB&offset=-1", 422, ["offset"]),
        ("from=en-US&to=en-GB&side=both", 422, ["side"]),
    ],
)
def test_bad_input_is_a_problem_naming_the_field(client, query, status, fields):
    response = client.get(f"/lexicons/diff?{query}")
    assert response.status_code == status and response.content_type == "application/problem+json"
    assert sorted(response.get_json()["errors"]) == fields


def test_the_endpoint_is_in_the_openapi_document_with_its_limits():
    from wordsvc.web.openapi import spec

    operation = spec()["paths"]["/lexicons/diff"]["get"]
    params = {p["name"]: p for p in operation["parameters"]}
    assert {"from", "to", "ruleset", "limit", "offset", "locale"} == set(params)
    assert params["from"]["required"] and params["to"]["required"] and not params["ruleset"]["required"]
    assert (params["limit"]["schema"]["minimum"], params["limit"]["schema"]["maximum"]) == (0, MAX_DIFF_LIMIT)
    assert params["from"]["schema"]["maxLength"] == 35
    assert {"404", "422", "503"} <= set(operation["responses"])


# ---------------------------------------------------------------- the real sizes, against the word lists


def wordlist_forms(list_id: str) -> set[str]:
    """The forms a lexicon compiled from ``wordlists/en/<id>.tsv`` holds: normalized, and plain spellings of words with diacritics."""
    _, rows = read_wordlist(ROOT / "wordlists" / "en" / f"{list_id}.tsv")
    forms = {normalize(form) for form, _, _ in rows}
    return forms | {fold_diacritics(form) for form in forms}


@pytest.fixture(scope="module")
def english():
    from wordsvc.data.lexicons import CompiledLexicon

    folders = {lang: ROOT / "build" / "lexicons" / lang for lang in ("en-US-common", "en-US", "en-US-large")}
    if not all((f / "meta.json").is_file() for f in folders.values()):
        pytest.skip("the English lexicons are not built; run `wordsvc build`")
    return {lang: CompiledLexicon(folder) for lang, folder in folders.items()}


@pytest.mark.parametrize("smaller, larger", [("en-US-common", "en-US"), ("en-US", "en-US-large")])
def test_the_diff_between_two_sizes_is_the_difference_of_their_word_lists(english, smaller, larger):
    diff = diff_lexicons(english[smaller], english[larger])
    expected = sorted(wordlist_forms(larger) - wordlist_forms(smaller))
    assert list(diff.added) == expected and len(diff.removed) == 0
    assert len(english[smaller]) + len(diff.added) == len(english[larger])


def test_wordsvc_lexicon_diff_prints_the_api_answer_and_every_form_with_all(english):
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORDSVC_")}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "wordsvc.cli", "lexicon", "diff", *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)

    shown = run("en-US-common", "en-US", "--limit", "3", "--ruleset", "standard")
    assert shown.returncode == 0, shown.stderr
    body = LexiconDiffOut().load(json.loads(shown.stdout))
    assert body["ruleset"] == "standard" and len(body["added"]["forms"]) == 3 and body["removed"]["count"] == 0
    every = run("en-US", "en-US-large", "--all").stdout.splitlines()
    assert every[0].startswith("# en-US -> en-US-large: ") and len(every) == 1 + len(diff_lexicons(english["en-US"], english["en-US-large"]).added)
    refused = run("en-US", "et")
    assert refused.returncode == 2 and "to:" in refused.stderr and "Traceback" not in refused.stderr
