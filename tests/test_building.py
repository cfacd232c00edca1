"""Building: a lexicon's two indexes built side by side are the files built one after the other; and languages come
online while the service runs (a language still being built answers 503, then serves once built)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wordsvc.config import Settings
from wordsvc.core.errors import LanguageBuilding, UnknownLanguage
from wordsvc.data import build as build_module
from wordsvc.data import languages as languages_module
from wordsvc.data.anagram_index import deck_limits
from wordsvc.data.build import build_all, build_indexes
from wordsvc.data.languages import BUILDING_FILE, Languages, building_languages
from wordsvc.data.lexicons import compile_lexicon, read_wordlist_columns
from wordsvc.data.rulesets import load_rulesets
from wordsvc.service import Service
from wordsvc.web.app import create_app


def compile_tiny(data_dir: Path, lang_id: str, words: list[str]) -> None:
    compile_lexicon(((w, frozenset(), None) for w in words), data_dir / "lexicons" / lang_id, {"id": lang_id, "lang": lang_id, "version": "t1"})


def mark_building(data_dir: Path, languages: list[str], pid: int | None = None) -> None:
    (data_dir / BUILDING_FILE).write_text(json.dumps({"pid": pid or os.getpid(), "languages": languages}), encoding="utf-8")


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    compile_tiny(tmp_path, "en-US", ["quiz", "top"])
    return tmp_path


@pytest.fixture(autouse=True)
def no_throttle(monkeypatch):
    monkeypatch.setattr(languages_module, "REFRESH_SECONDS", 0.0)


def test_a_language_a_live_build_names_is_building_not_unknown(data_dir):
    mark_building(data_dir, ["is"])
    langs = Languages.load(data_dir, only=("en-US", "is"))
    assert sorted(langs.lexicons) == ["en-US"] and langs.building == {"is"}
    with pytest.raises(LanguageBuilding) as caught:
        langs.resolve("is-IS")
    assert caught.value.retry_after > 0 and "is" in caught.value.problems["lang"][0]
    with pytest.raises(UnknownLanguage):
        langs.resolve("xx")


def test_a_language_comes_online_when_its_build_is_done(data_dir):
    mark_building(data_dir, ["is"])
    langs = Languages.load(data_dir, only=("en-US", "is"))
    compile_tiny(data_dir, "is", ["hestur"])  # written, but the build still names it: indexes may be missing
    with pytest.raises(LanguageBuilding):
        langs.resolve("is")
    (data_dir / BUILDING_FILE).unlink()
    assert langs.resolve("is") == "is"
    assert langs.get("is").readings("hestur") is not None and langs.building == frozenset()


def test_a_marker_left_by_a_dead_builder_is_ignored(data_dir):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    mark_building(data_dir, ["is"], pid=int(dead.stdout))
    assert building_languages(data_dir) == frozenset()
    with pytest.raises(UnknownLanguage):
        Languages.load(data_dir, only=("en-US", "is")).resolve("is")


def test_build_all_names_what_is_left_and_removes_the_marker_at_the_end(tmp_path):
    seen: list[list[str]] = []

    def log(line: str) -> None:
        status = json.loads((tmp_path / BUILDING_FILE).read_text(encoding="utf-8"))
        seen.append(status["languages"])

    build_all(tmp_path, only=("en-US", "en-GB"), log=log)
    assert seen[0] == ["en-US", "en-GB"] and seen[-1] == ["en-GB"]
    assert not (tmp_path / BUILDING_FILE).exists()
    assert (tmp_path / "lexicons" / "en-GB" / "meta.json").is_file()


def test_http_503_with_retry_after_names_the_language_and_ready_lists_it(data_dir, rulesets):
    mark_building(data_dir, ["is"])
    settings = Settings.from_env({"WORDSVC_DATA_DIR": str(data_dir)})
    client = create_app(settings, Service(rulesets, Languages.load(data_dir, only=("en-US", "is")))).test_client()
    response = client.get("/validate?word=hestur&lang=is")
    assert response.status_code == 503 and response.mimetype == "application/problem+json"
    assert int(response.headers["Retry-After"]) > 0 and "(is)" in response.get_json()["detail"]
    assert client.get("/validate?word=quiz").status_code == 200
    ready = client.get("/ready").get_json()
    assert ready["languages"] == ["en-US"] and ready["building"] == ["is"]
    compile_tiny(data_dir, "is", ["hestur"])
    (data_dir / BUILDING_FILE).unlink()
    assert client.get("/validate?word=hestur&lang=is&ruleset=islenska").status_code == 200
    assert client.get("/ready").get_json()["building"] == []


def test_indexes_built_side_by_side_are_the_files_built_one_after_the_other(tmp_path, monkeypatch):
    header, rows = read_wordlist_columns(Path(__file__).parents[1] / "wordlists" / "en" / "en-US-common.tsv")
    meta = {"id": "en-US", "lang": "en-US", "version": header["version"], "fold_diacritics": True}
    limits = deck_limits(load_rulesets())
    files = {}
    for cpus in (2, 1):
        folder = tmp_path / str(cpus)
        compile_lexicon(rows, folder, meta)
        monkeypatch.setattr(build_module, "usable_cpus", lambda cpus=cpus: cpus)
        lines: list[str] = []
        build_indexes(folder, limits, force=True, log=lines.append)
        assert [line.split(":")[1].split(" of ")[0].strip() for line in lines] == ["anagram index", "search index"]
        files[cpus] = {path.relative_to(folder): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}
    assert files[2] == files[1] and len(files[2]) == 11  # the lexicon, its anagram index and its search index


def test_a_generated_list_is_made_again_when_its_builder_or_the_builders_kit_changes(tmp_path, monkeypatch):
    """The stamp beside a generated list is the sha256 of the builder and of every module of ``wordlists/_builder``."""
    import shutil

    lang = next(lang for lang in languages_module.LANGUAGES if lang.builder)
    root = tmp_path / "wordlists"
    shutil.copytree(languages_module.wordlists_dir() / "_builder", root / "_builder")
    (root / lang.builder).parent.mkdir(parents=True)
    shutil.copy(languages_module.wordlists_dir() / lang.builder, root / lang.builder)
    monkeypatch.setattr(build_module, "wordlists_dir", lambda: root)
    stamps = [build_module.builder_sha256(lang)]
    with (root / "_builder" / "listfile.py").open("a", encoding="utf-8") as kit:
        kit.write("\n")
    stamps.append(build_module.builder_sha256(lang))
    with (root / lang.builder).open("a", encoding="utf-8") as builder:
        builder.write("\n")
    stamps.append(build_module.builder_sha256(lang))
    assert len(set(stamps)) == 3
