"""The read-only endpoints: /health, /ready, /rulesets, /rulesets/<id>, /languages, /docs."""

from __future__ import annotations

import re

import requests

from .contract import assert_problem, media_type

RULESET_IDS = {"standard", "challenge", "letters-minimum", "no-floor", "two-player-one-bonus"}


def test_health_says_the_process_is_up(base_url: str) -> None:
    response = requests.get(f"{base_url}/health", timeout=30)
    assert response.status_code == 200
    assert media_type(response) == "application/json"
    assert response.json() == {"status": "ok"}


def test_ready_lists_the_loaded_lexicons_and_rulesets(base_url: str) -> None:
    response = requests.get(f"{base_url}/ready", timeout=30)
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ready"
    assert "en-US" in body["languages"]
    assert body["rulesets"] >= len(RULESET_IDS)


def test_rulesets_lists_every_ruleset_with_its_summary(base_url: str) -> None:
    body = requests.get(f"{base_url}/rulesets", timeout=30).json()
    by_id = {r["id"]: r for r in body["rulesets"]}
    assert RULESET_IDS <= set(by_id)
    for ruleset in body["rulesets"]:
        assert set(ruleset) == {"id", "name", "description", "language", "extends"}
        assert ruleset["name"] and ruleset["description"] and ruleset["language"]
    assert by_id["standard"]["extends"] is None
    assert by_id["standard"]["language"] == "en-US"
    assert by_id["challenge"]["extends"] == "standard"


def test_standard_ruleset_is_fully_resolved_with_the_118_card_deck(base_url: str) -> None:
    ruleset = requests.get(f"{base_url}/rulesets/standard", timeout=30).json()
    assert ruleset["id"] == "standard"
    assert ruleset["rounds"] == [3, 4, 5, 6, 7, 8, 9, 10]
    assert ruleset["players"] == {"min": 2, "max": 8}
    deck = ruleset["deck"]
    assert deck["size"] == 118 and deck["total_value"] == 592
    cards = {card["face"]: (card["count"], card["value"]) for card in deck["cards"]}
    assert sum(count for count, _ in cards.values()) == 118
    assert sum(count * value for count, value in cards.values()) == 592
    assert cards["QU"] == (2, 9) and cards["Z"] == (2, 14) and cards["E"] == (12, 2) and cards["CL"] == (2, 10)
    assert ruleset["words"]["min_cards"] == 2
    assert ruleset["words"]["check"] == "automatic"
    assert "proper_noun" in ruleset["words"]["banned_classes"]
    assert ruleset["bonuses"]["longest_word"] == 10 and ruleset["bonuses"]["most_words"] == 10
    assert ruleset["bonuses"]["tie"] == "nobody" and ruleset["bonuses"]["longest_measure"] == "letters"
    assert ruleset["floor"] == "total"


def test_a_derived_ruleset_is_shown_with_what_it_inherits(base_url: str) -> None:
    ruleset = requests.get(f"{base_url}/rulesets/challenge", timeout=30).json()
    assert ruleset["extends"] == "standard"
    assert ruleset["words"]["check"] == "challenge"
    assert ruleset["deck"]["size"] == 118  # inherited from standard
    assert requests.get(f"{base_url}/rulesets/letters-minimum", timeout=30).json()["words"]["min_letters"] == 2


def test_unknown_ruleset_id_is_404_naming_the_known_ones(base_url: str) -> None:
    body = assert_problem(requests.get(f"{base_url}/rulesets/no-such-rules", timeout=30), 404)
    for known in RULESET_IDS:
        assert known in body["detail"]


def test_languages_describe_each_lexicon_with_provenance(base_url: str) -> None:
    body = requests.get(f"{base_url}/languages", timeout=30).json()
    by_id = {lang["id"]: lang for lang in body["languages"]}
    assert {"en-US", "en-GB"} <= set(by_id)
    for lang in body["languages"]:
        assert {"id", "version", "sha256", "entries", "source", "licence", "attribution"} <= set(lang)
        assert re.fullmatch(r"[0-9a-f]{64}", lang["sha256"]), lang["sha256"]
        assert lang["version"] and lang["source"] and lang["licence"] and lang["attribution"]
        assert lang["entries"] is None or lang["entries"] > 1000
    assert by_id["en-US"]["sha256"] != by_id["en-GB"]["sha256"]


def test_docs_is_a_self_contained_html_page_describing_every_endpoint(base_url: str) -> None:
    response = requests.get(f"{base_url}/docs", timeout=30)
    assert response.status_code == 200
    assert media_type(response) == "text/html"
    page = response.text
    for path in ("/validate", "/score-round", "/score-game", "/rulesets", "/languages", "/health", "/ready", "/openapi.json"):
        assert path in page
    assert "problem" in page.lower()
    # works with no internet access: nothing loaded from another host
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=['\"]?(https?:)?//", page, re.IGNORECASE)
