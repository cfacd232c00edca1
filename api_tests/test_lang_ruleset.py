"""A request that names a language and no ruleset is judged under that language's own ruleset, with its own deck.

``GET /validate?word=schön&lang=de`` is played with ``deutsch`` (whose deck has
an Ö), not ``standard``'s English deck; ``/languages`` names each lexicon's
ruleset; every endpoint that takes ``lang`` does the same; a ruleset whose deck
cannot lay a word the language's own deck lays says so, naming that ruleset.
The words come from each language's held list (``wordlists/<folder>/held.tsv``,
words chosen by hand, not from the lexicon's source): every word held as
accepted must be accepted with ``lang`` alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import requests

from .conftest import REPO

TIMEOUT = 30


def languages(base_url: str) -> dict[str, dict[str, Any]]:
    answer = requests.get(f"{base_url}/languages", timeout=TIMEOUT)
    assert answer.status_code == 200, answer.text
    return {lang["id"]: lang for lang in answer.json()["languages"]}


def held_accepted(lang: str) -> list[str]:
    """The words ``wordlists/<lang>/held.tsv`` holds as accepted (``accept`` and ``gap`` rows), as a player types them."""
    path = REPO / "wordlists" / lang / "held.tsv"
    rows = [line.split("\t") for line in Path(path).read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    return [word for word, expected, _ in rows if expected in ("accept", "gap")]


HELD = sorted(p.parent.name for p in (REPO / "wordlists").glob("*/held.tsv"))


def test_every_language_names_the_ruleset_it_is_played_with(base_url: str) -> None:
    found = languages(base_url)
    rulesets = {r["id"]: r for r in requests.get(f"{base_url}/rulesets", timeout=TIMEOUT).json()["rulesets"]}
    assert found["en-US"]["ruleset"] == "standard" and found["de"]["ruleset"] == "deutsch" and found["es"]["ruleset"] == "espanol"
    for lang in found.values():
        assert lang["ruleset"] in rulesets, lang


@pytest.mark.parametrize("lang", HELD)
def test_every_held_word_of_a_language_is_accepted_with_lang_alone(base_url: str, lang: str) -> None:
    own = languages(base_url)[lang]["ruleset"]
    words = held_accepted(lang)
    with requests.Session() as session:
        for word in words:
            answer = session.get(f"{base_url}/validate", params={"word": word, "lang": lang, "suggest": "false"}, timeout=TIMEOUT)
            assert answer.status_code == 200, answer.text
            verdict = answer.json()
            assert (verdict["valid"], verdict["ruleset"]) == (True, own), verdict
        judged = session.post(f"{base_url}/validate", json={"words": words[:100], "lang": lang}, timeout=TIMEOUT).json()
        assert judged["valid"] is True and {v["ruleset"] for v in judged["verdicts"]} == {own}
        ruling = session.post(f"{base_url}/validate", json={"words": words[:5], "lang": lang, "judge": True}, timeout=TIMEOUT).json()
        assert (ruling["acceptable"], ruling["ruleset"]) == (True, own)


@pytest.mark.parametrize(
    ("lang", "word", "own"),
    [("de", "schön", "deutsch"), ("de", "häuser", "deutsch"), ("es", "niño", "espanol"), ("pl", "jeść", "polski"), ("pl", "książka", "polski")],
)
def test_a_ruleset_whose_deck_cannot_lay_the_word_names_the_ruleset_that_can(base_url: str, lang: str, word: str, own: str) -> None:
    alone = requests.get(f"{base_url}/validate", params={"word": word, "lang": lang}, timeout=TIMEOUT).json()
    assert (alone["valid"], alone["ruleset"]) == (True, own), alone
    english = requests.get(f"{base_url}/validate", params={"word": word, "lang": lang, "ruleset": "standard", "suggest": "false"}, timeout=TIMEOUT).json()
    assert english["valid"] is False and english["ruleset"] == "standard"
    (reason,) = english["reasons"]
    assert reason["code"] == "not_spellable" and reason["hint"] == {"ruleset": own}
    assert f"ruleset={own}" in reason["message"]
    german = requests.get(f"{base_url}/validate", params={"word": word, "lang": lang, "ruleset": "standard", "locale": "de"}, timeout=TIMEOUT).json()
    assert german["reasons"][0]["hint"] == {"ruleset": own} and "Regelwerk" in german["reasons"][0]["message"]


def test_a_word_no_deck_of_the_language_lays_gets_no_hint(base_url: str) -> None:
    """PIZZAZZ needs more Z cards than any deck holds: no ruleset is named."""
    verdict = requests.get(f"{base_url}/validate", params={"word": "pizzazz", "lang": "en-US", "suggest": "false"}, timeout=TIMEOUT).json()
    assert [r["code"] for r in verdict["reasons"]] == ["not_spellable"] and "hint" not in verdict["reasons"][0]


def test_no_lang_and_no_ruleset_is_still_the_standard_ruleset(base_url: str) -> None:
    verdict = requests.get(f"{base_url}/validate", params={"word": "quiz"}, timeout=TIMEOUT).json()
    assert (verdict["ruleset"], verdict["lexicon"]["id"]) == ("standard", "en-US")


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/words", {"pattern": "sch?n", "limit": "20"}),
        ("/anagrams", {"cards": "nöhcs", "all": "true"}),
        ("/suggest", {"word": "schöm", "limit": "10"}),
    ],
)
def test_the_search_endpoints_take_the_languages_own_ruleset_with_lang_alone(base_url: str, path: str, params: dict[str, str]) -> None:
    answer = requests.get(f"{base_url}{path}", params={**params, "lang": "de"}, timeout=TIMEOUT)
    assert answer.status_code == 200, answer.text
    found = answer.json()
    assert found["ruleset"] == "deutsch"
    assert "schön" in str(found).lower(), found


def test_best_meld_and_scoring_take_the_languages_own_ruleset_with_lang_alone(base_url: str) -> None:
    best = requests.post(f"{base_url}/best-meld", json={"hand": "schönxq", "lang": "de"}, timeout=TIMEOUT)
    assert best.status_code == 200, best.text
    assert "schön" in str(best.json()).lower()
    scored = requests.post(
        f"{base_url}/score-round",
        json={"lang": "de", "round": 2, "players": [{"name": "Anna", "words": ["s(ch)ön"]}, {"name": "Bernd", "words": ["gut"], "unused": ["e"]}]},
        timeout=TIMEOUT,
    )
    assert scored.status_code == 200, scored.text
    assert scored.json()["players"][0]["words"][0]["valid"] is True
