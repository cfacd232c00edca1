"""The ``wordsvc`` command line, run as a subprocess (``python -m wordsvc.cli``).

``check`` and ``score`` load the real compiled lexicon from build/; they are
skipped when it has not been built. ``check-rulesets`` and bad input need no
lexicon.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EN_US = ROOT / "build" / "lexicons" / "en-US"

needs_lexicon = pytest.mark.skipif(
    not (EN_US / "meta.json").is_file(), reason="the en-US lexicon is not built (build/lexicons/en-US); run `make setup` or `wordsvc build`"
)

# Ann: QU-I-Z 25 + T-O-P 11 - M 5 = 31. Bob: CL-O-W-N 27 + G-E-T 11 + longest word 10 = 48. Two words each: no most-words bonus.
ROUND = {
    "ruleset": "standard",
    "round": 5,
    "players": [
        {"name": "Ann", "words": [["QU", "I", "Z"], "t(o)p"], "unused": ["M"]},
        {"name": "Bob", "words": ["(cl)own", "get"], "went_out": True},
    ],
}


def wordsvc(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORDSVC_")}
    return subprocess.run([sys.executable, "-m", "wordsvc.cli", *args], input=stdin, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)


def assert_one_line_error(proc: subprocess.CompletedProcess[str]) -> None:
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("wordsvc: ")
    assert "Traceback" not in proc.stderr


@needs_lexicon
def test_check_prints_the_verdict_json_and_exits_0_for_a_valid_word():
    proc = wordsvc("check", "Quiz")
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    assert set(verdict) == {"word", "normalized", "lang", "ruleset", "valid", "reasons", "classes", "spellings", "lexicon"}
    assert (verdict["word"], verdict["normalized"], verdict["valid"], verdict["ruleset"], verdict["lang"]) == ("Quiz", "quiz", True, "standard", "en-US")
    assert [s["points"] for s in verdict["spellings"]] == [35, 25]
    assert verdict["lexicon"]["id"] == "en-US"
    assert len(verdict["lexicon"]["sha256"]) == 64


@needs_lexicon
def test_check_exits_1_for_a_word_that_is_not_valid():
    proc = wordsvc("check", "pizzazz")
    assert proc.returncode == 1
    assert [r["code"] for r in json.loads(proc.stdout)["reasons"]] == ["not_spellable"]


@needs_lexicon
def test_check_names_the_banned_class_of_a_proper_noun():
    proc = wordsvc("check", "Steve")
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["reasons"][0] | {"message": ""} == {"code": "banned_class", "class": "proper_noun", "message": ""}


@needs_lexicon
def test_check_accepts_cafe_laid_with_the_plain_letters_of_the_deck():
    # SCOWL spells it café only; English lays it C-A-F-E.
    proc = wordsvc("check", "(c)afe")
    assert proc.returncode == 0, proc.stdout
    assert json.loads(proc.stdout)["spellings"] == [{"cards": ["C", "A", "F", "E"], "points": 18}]


@needs_lexicon
def test_check_takes_a_ruleset():
    assert wordsvc("check", "(in)").returncode == 1
    proc = wordsvc("check", "(in)", "--ruleset", "letters-minimum")
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["ruleset"] == "letters-minimum"


@pytest.mark.skipif(not (ROOT / "build" / "lexicons" / "de" / "meta.json").is_file(), reason="the de lexicon is not built; run `make setup`")
def test_check_with_a_language_alone_plays_its_own_ruleset_and_deck():
    proc = wordsvc("check", "schön", "--lang", "de")
    assert proc.returncode == 0, proc.stdout
    assert json.loads(proc.stdout)["ruleset"] == "deutsch"
    english = wordsvc("check", "schön", "--lang", "de", "--ruleset", "standard")
    assert english.returncode == 1 and json.loads(english.stdout)["reasons"][0]["hint"] == {"ruleset": "deutsch"}


@needs_lexicon
def test_check_with_an_unknown_ruleset_exits_2_with_one_line():
    assert_one_line_error(wordsvc("check", "quiz", "--ruleset", "nonesuch"))


@needs_lexicon
def test_score_file_prints_the_round_result(tmp_path):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(ROUND), encoding="utf-8")
    proc = wordsvc("score", str(path))
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert [(p["name"], p["total"]) for p in result["players"]] == [("Ann", 31), ("Bob", 48)]
    assert [(b["kind"], b["winner"]) for b in result["bonuses"]] == [("longest_word", "Bob"), ("most_words", None)]
    assert result["players"][1]["went_out_valid"] is True
    assert result["lexicon"]["id"] == "en-US"


@needs_lexicon
def test_score_reads_stdin_for_dash():
    proc = wordsvc("score", "-", stdin=json.dumps(ROUND))
    assert proc.returncode == 0, proc.stderr
    assert [p["total"] for p in json.loads(proc.stdout)["players"]] == [31, 48]


@needs_lexicon
def test_score_scores_a_game_when_given_rounds():
    body = {k: v for k, v in ROUND.items() if k not in ("ruleset", "round")}
    game = {"ruleset": "standard", "players": ["Ann", "Bob"], "rounds": [
        {"players": [{"name": "Ann", "words": ["top"]}, {"name": "Bob", "words": ["tip"]}]},
        {"players": [{"name": "Ann", "words": ["tops"]}, {"name": "Bob", "words": ["at"], "unused": ["I", "T"]}]},
        {"players": [{"name": "Ann", "words": ["top"], "unused": ["I", "T"]}, {"name": "Bob", "words": ["(qu)iz"], "unused": ["A", "T"]}]},
        {"players": [{"name": "Ann", "words": ["tops", "at"]}, {"name": "Bob", "words": ["clown"], "unused": ["A"]}]},
        body,
    ]}  # fmt: skip
    proc = wordsvc("score", "-", stdin=json.dumps(game))
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    # Round 1: 11 / 11. Round 2: tops 14 + 10 (longest) / at 5 - 5 = 0. Round 3: 11 - 5 = 6 / 25 - 5 + 10 = 30.
    # Round 4: 14 + 5 + 10 (most words) = 29 / 28 - 2 + 10 (longest) = 36. Round 5: 31 / 48.
    ann, bob = result["players"]
    assert ann["round_totals"] == [11, 24, 6, 29, 31]
    assert bob["round_totals"] == [11, 0, 30, 36, 48]
    assert ann["running_totals"] == [11, 35, 41, 70, 101]
    assert bob["running_totals"] == [11, 11, 41, 77, 125]
    assert (result["winners"], result["tie"], result["complete"]) == (["Bob"], False, False)


def test_score_of_bad_json_exits_2_with_one_line():
    assert_one_line_error(wordsvc("score", "-", stdin='{"players": [}'))


def test_score_of_a_json_array_exits_2_with_one_line():
    assert_one_line_error(wordsvc("score", "-", stdin="[1, 2]"))


def test_score_of_a_missing_file_exits_2_with_one_line(tmp_path):
    assert_one_line_error(wordsvc("score", str(tmp_path / "nope.json")))


@needs_lexicon
def test_score_of_a_round_that_does_not_add_up_exits_2_with_one_line():
    bad = {"players": [{"name": "Ann", "words": ["zz", "z"]}, {"name": "Ann", "words": ["(xy)"]}]}
    proc = wordsvc("score", "-", stdin=json.dumps(bad))
    assert_one_line_error(proc)
    for path in ("players.1.name", "players.1.words.0", "players:"):
        assert path in proc.stderr


@needs_lexicon
def test_score_of_a_malformed_request_exits_2_with_one_line():
    proc = wordsvc("score", "-", stdin=json.dumps({"players": [{"name": "Ann", "words": [42]}], "colour": "red"}))
    assert_one_line_error(proc)
    assert "colour" in proc.stderr


def test_check_rulesets_passes_the_shipped_rulesets():
    proc = wordsvc("check-rulesets")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert {line.split(":")[0] for line in proc.stdout.splitlines()} >= {"standard", "letters-minimum", "two-player-one-bonus", "challenge", "no-floor"}


def test_check_rulesets_lists_every_problem_of_a_broken_folder(tmp_path):
    folder = tmp_path / "broken"
    shutil.copytree(ROOT / "rulesets", folder)
    (folder / "neg.yaml").write_text("extends: standard\nname: n\ndescription: d\ndeck:\n  Z: {count: -1, value: 14}\n", encoding="utf-8")
    (folder / "typo.yaml").write_text("extends: standard\nname: t\ndescription: d\ncolour: red\nfloor: sometimes\n", encoding="utf-8")
    (folder / "orphan.yaml").write_text("extends: nonesuch\nname: o\ndescription: d\n", encoding="utf-8")
    proc = wordsvc("check-rulesets", str(folder))
    assert proc.returncode != 0
    assert "Traceback" not in proc.stdout + proc.stderr
    assert set(proc.stdout.splitlines()) == {
        "broken/neg.yaml: deck.Z.count: must be at least 0",
        "broken/typo.yaml: colour: unknown field",
        "broken/typo.yaml: floor: must be one of: total, before_bonuses, none",
        "broken/orphan.yaml: extends: no ruleset 'nonesuch' in broken/",
    }


def test_check_rulesets_of_a_missing_folder_exits_2_with_one_line(tmp_path):
    assert_one_line_error(wordsvc("check-rulesets", str(tmp_path / "nope")))


def test_bad_settings_are_refused_in_one_line_naming_each():
    from wordsvc.config import Settings, SettingsError

    with pytest.raises(SettingsError) as caught:
        Settings.from_env({"WORDSVC_PORT": "eighty", "WORDSVC_LOG_FORMAT": "xml", "WORDSVC_DRAIN_SECONDS": "-1"})
    message = str(caught.value)
    assert "WORDSVC_PORT" in message and "WORDSVC_LOG_FORMAT" in message and "WORDSVC_DRAIN_SECONDS" in message
    assert Settings.from_env({}).port == 8000
