"""The language manifests (wordlists/<folder>/manifest.yaml, docs/languages.md): what each lexicon says of itself, read and checked."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from wordsvc.data.languages import LANGUAGES, read_manifest, read_manifests, wordlists_dir

RULESETS = Path(__file__).resolve().parents[1] / "rulesets"


def test_every_folder_of_wordlists_with_a_list_or_a_builder_has_a_manifest() -> None:
    folders = {p.name for p in wordlists_dir().iterdir() if p.is_dir() and not p.name.startswith("_")}  # _builder: the builders' kit, no language
    assert folders == {p.parent.name for p in wordlists_dir().glob("*/manifest.yaml")}


def test_english_answers_first_and_ids_are_unique() -> None:
    ids = [lang.id for lang in LANGUAGES]
    assert ids[0] == "en-US" and len(ids) == len(set(ids))


@pytest.mark.parametrize("lang", LANGUAGES, ids=lambda lang: lang.id)
def test_each_lexicon_names_its_deck_ruleset_locale_and_filter(lang) -> None:
    assert (RULESETS / "decks" / f"{lang.deck}.yaml").is_file(), lang.deck
    ruleset = yaml.safe_load((RULESETS / f"{lang.ruleset}.yaml").read_text(encoding="utf-8"))
    assert ruleset.get("language", lang.id) in (lang.id, *lang.aliases) or lang.ruleset == "standard"
    assert lang.locale and lang.filter, "a lexicon says its pages' locale and its filter's classes, each with a reason"
    assert all(reason.strip() for reason in lang.filter.values())


def test_a_bad_manifest_is_refused_with_every_problem_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "xx"
    folder.mkdir()
    (folder / "manifest.yaml").write_text(
        "lexicons:\n"
        "  - {id: xx, name: X, kind: wordlist, source: s, licence: l, attribution: a, builder: missing.py, colour: red}\n"
        "  - {id: yy, kind: analyzer, source: s, licence: l, attribution: a, double_examples: ['(ch)ico', 'chico', '(c)ico']}\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError) as refused:
        read_manifest(folder / "manifest.yaml")
    problems = str(refused.value).split("; ")
    assert [p.split(": ", 1)[1] for p in problems] == [
        "lexicons[0]: unknown field 'colour'",
        "lexicons[0]: builder 'missing.py' is no file in wordlists/xx/",
        "lexicons[1]: missing 'name'",
        "lexicons[1]: an analyzer lexicon names its 'analyzer' (module:Class)",
        "lexicons[1]: double_examples is a list of words, each with one double card in brackets ((ch)ico), not ['(ch)ico', 'chico', '(c)ico']",
    ]


def test_two_manifests_may_not_give_one_id(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "list.tsv").write_text("", encoding="utf-8")
        (tmp_path / name / "manifest.yaml").write_text(
            "lexicons:\n  - {id: zz, name: Z, kind: wordlist, wordlist: list.tsv, source: s, licence: l, attribution: a}\n", encoding="utf-8"
        )
    with pytest.raises(ValueError, match="lexicon ids given by two manifests: zz"):
        read_manifests(tmp_path)


def test_set_up_and_the_image_install_every_package_a_builder_reads() -> None:
    root = wordlists_dir().parent
    makefile = (root / "Makefile").read_text(encoding="utf-8")
    listed = next(line for line in makefile.splitlines() if line.startswith("LANGUAGE_PACKAGES :=")).split(":=", 1)[1].split()
    dockerfile = (root / "Dockerfile").read_text(encoding="utf-8")
    read = {lang.package["name"] for lang in LANGUAGES if lang.builder and lang.package.get("name")}
    assert read <= set(listed), f"the Makefile's LANGUAGE_PACKAGES lacks {sorted(read - set(listed))}"
    assert all(f" {name} " in dockerfile.replace("\\\n", " ") for name in read), "the Dockerfile installs every package a builder reads"
