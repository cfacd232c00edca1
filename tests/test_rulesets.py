from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from wordsvc.core.errors import RulesetError, UnknownRuleset
from wordsvc.core.ruleset import BonusTie, Floor, LongestMeasure, TwoPlayers, WordCheck
from wordsvc.data.rulesets import default_rulesets_dir, load_rulesets

SHIPPED = default_rulesets_dir()
STANDARD_BANS = {"proper_noun", "abbreviation", "contraction", "possessive", "hyphenated", "prefix", "suffix", "letter_plural", "symbol", "run_together", "roman_numeral", "rare_short"}


def test_the_shipped_rulesets_include_the_five_of_issue_2_and_the_language_ones(rulesets):
    ids = {r.id for r in rulesets}
    assert {"standard", "letters-minimum", "two-player-one-bonus", "challenge", "no-floor"} <= ids
    assert {"islenska", "eesti"} <= ids


def test_an_unknown_ruleset_id_raises_unknown_ruleset(rulesets):
    with pytest.raises(UnknownRuleset):
        rulesets.get("nonesuch")


def test_standard_holds_the_defaults_of_the_rules(rulesets):
    r = rulesets.get("standard")
    assert r.extends is None
    assert r.language == "en-US"
    assert (r.deck.size, r.deck.total_value) == (118, 592)
    assert r.rounds == (3, 4, 5, 6, 7, 8, 9, 10)
    assert (r.players_min, r.players_max) == (2, 8)
    assert (r.min_cards, r.min_letters) == (2, 0)
    assert r.banned_classes == STANDARD_BANS
    assert r.house_allow == r.house_refuse == frozenset()
    assert r.word_check is WordCheck.AUTOMATIC
    assert r.bonus_points == {"longest_word": 10, "most_words": 10}
    assert r.longest_measure is LongestMeasure.LETTERS
    assert r.bonus_tie is BonusTie.NOBODY
    assert r.two_players is TwoPlayers.BOTH
    assert r.floor is Floor.TOTAL


def _differences(rulesets, ruleset_id):
    base, variant = rulesets.get("standard"), rulesets.get(ruleset_id)
    fields = ["language", "rounds", "players_min", "players_max", "min_cards", "min_letters", "banned_classes", "house_allow", "house_refuse",
              "word_check", "bonus_points", "longest_measure", "bonus_tie", "two_players", "floor"]  # fmt: skip
    changed = {f: getattr(variant, f) for f in fields if getattr(variant, f) != getattr(base, f)}
    assert variant.extends == "standard"
    assert variant.deck.cards == base.deck.cards
    return changed


def test_letters_minimum_needs_two_letters_not_two_cards(rulesets):
    assert _differences(rulesets, "letters-minimum") == {"min_cards": 1, "min_letters": 2}


def test_two_player_one_bonus_lets_two_players_choose_the_bonus(rulesets):
    assert _differences(rulesets, "two-player-one-bonus") == {"two_players": TwoPlayers.CHOICE}


def test_challenge_lets_words_stand_unless_challenged(rulesets):
    assert _differences(rulesets, "challenge") == {"word_check": WordCheck.CHALLENGE}


def test_no_floor_lets_round_totals_go_negative(rulesets):
    assert _differences(rulesets, "no-floor") == {"floor": Floor.NONE}


def test_bonuses_in_play_follow_the_two_player_rule(rulesets):
    choice = rulesets.get("two-player-one-bonus")
    assert choice.bonuses_in_play(2, "most_words") == ("most_words",)
    assert choice.bonuses_in_play(2, "longest_word") == ("longest_word",)
    assert choice.bonuses_in_play(3, None) == ("longest_word", "most_words")
    assert rulesets.get("standard").bonuses_in_play(2, None) == ("longest_word", "most_words")


def test_hand_size_is_the_rounds_entry(rulesets):
    standard = rulesets.get("standard")
    assert [standard.hand_size(n) for n in range(1, 9)] == [3, 4, 5, 6, 7, 8, 9, 10]
    assert standard.max_hand == 10


# ---- broken rulesets in a folder of their own


@pytest.fixture
def folder(tmp_path) -> Path:
    """``tmp_path/rs`` with a copy of standard.yaml and decks/english.yaml."""
    root = tmp_path / "rs"
    (root / "decks").mkdir(parents=True)
    shutil.copy(SHIPPED / "standard.yaml", root / "standard.yaml")
    shutil.copy(SHIPPED / "decks" / "english.yaml", root / "decks" / "english.yaml")
    return root


def variant(folder: Path, name: str, body: str, parent: str | None = "standard") -> None:
    head = f"extends: {parent}\n" if parent else ""
    (folder / f"{name}.yaml").write_text(f"{head}name: {name}\ndescription: a test variant\n{body}", encoding="utf-8")


def problems(folder: Path) -> list[str]:
    with pytest.raises(RulesetError) as info:
        load_rulesets(folder)
    return info.value.problems["rulesets"]


def test_a_copy_of_standard_loads(folder):
    assert [r.id for r in load_rulesets(folder)] == ["standard"]


def test_a_variant_states_only_what_it_changes(folder):
    variant(folder, "short", "rounds: [2, 3, 4, 5, 6, 7]\nplayers: {max: 6}\n")
    short = load_rulesets(folder).get("short")
    assert short.rounds == (2, 3, 4, 5, 6, 7)
    assert (short.players_min, short.players_max) == (2, 6)
    assert short.deck.size == 118


def test_a_variant_may_change_one_card_of_the_parents_deck(folder):
    # Issue 2: "with extends: so a variant states only what it changes"; the deck is a knob.
    variant(folder, "three-z", "deck:\n  Z: {count: 3, value: 14}\n")
    deck = load_rulesets(folder).get("three-z").deck
    assert deck.count("z") == 3
    assert deck.size == 119


def test_a_variant_may_remove_a_card_with_null(folder):
    variant(folder, "no-cl", "deck:\n  CL: null\n")
    deck = load_rulesets(folder).get("no-cl").deck
    assert "cl" not in deck
    assert deck.size == 116


def test_a_negative_card_count_is_reported_with_its_key_path(folder):
    variant(folder, "neg", "deck:\n  Z: {count: -1, value: 14}\n")
    assert "rs/neg.yaml: deck.Z.count: must be at least 0" in problems(folder)


def test_a_negative_count_in_a_deck_file_is_reported_in_that_file(folder):
    deck = folder / "decks" / "english.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("Z: {count: 2, value: 14}", "Z: {count: -2, value: 14}"), encoding="utf-8")
    assert "rs/decks/english.yaml: cards.Z.count: must be at least 0" in problems(folder)


def test_an_unknown_key_is_an_error(folder):
    variant(folder, "typo", "colour: red\nbonuses: {longest: 5}\n")
    found = problems(folder)
    assert "rs/typo.yaml: colour: unknown field" in found
    assert "rs/typo.yaml: bonuses.longest: unknown field" in found


def test_a_bad_enum_value_is_an_error(folder):
    variant(folder, "enum", "floor: sometimes\nwords: {check: referee}\n")
    found = problems(folder)
    assert "rs/enum.yaml: floor: must be one of: total, before_bonuses, none" in found
    assert "rs/enum.yaml: words.check: must be one of: automatic, challenge" in found


def test_extending_an_unknown_parent_is_an_error(folder):
    variant(folder, "orphan", "", parent="nonesuch")
    assert problems(folder) == ["rs/orphan.yaml: extends: no ruleset 'nonesuch' in rs/"]


def test_an_extends_cycle_is_an_error(folder):
    variant(folder, "a", "", parent="b")
    variant(folder, "b", "", parent="a")
    assert sorted(problems(folder)) == ["rs/a.yaml: extends: cycle a -> b -> a", "rs/b.yaml: extends: cycle b -> a -> b"]


def test_a_deck_too_small_for_the_largest_round_and_most_players_is_an_error(folder):
    variant(folder, "crowd", "players: {max: 12}\n")
    assert problems(folder) == ["rs/crowd.yaml: deck: 118 cards cannot deal round 8 (10 cards) to 12 players and turn up a discard (121 needed)"]


def test_a_deck_exactly_big_enough_is_fine(folder):
    variant(folder, "eleven", "players: {max: 11}\n")  # 11 * 10 + 1 = 111 <= 118
    assert load_rulesets(folder).get("eleven").players_max == 11


def test_a_missing_required_field_in_a_file_without_extends_is_an_error(folder):
    text = (folder / "standard.yaml").read_text(encoding="utf-8")
    (folder / "alone.yaml").write_text("\n".join(line for line in text.splitlines() if not line.startswith("floor:")) + "\n", encoding="utf-8")
    assert problems(folder) == ["rs/alone.yaml: floor: missing data for required field"]


def test_a_missing_knob_is_named_not_a_crash(folder):
    """Only the knobs added after the first rulesets (``unused``, ``bonuses.length``, ``solitaire``) have defaults: the rest are required."""
    text = (folder / "standard.yaml").read_text(encoding="utf-8")
    kept = [line for line in text.splitlines() if not line.strip().startswith(("house_allow:", "tie:"))]
    (folder / "alone.yaml").write_text("\n".join(kept) + "\n", encoding="utf-8")
    assert sorted(problems(folder)) == ["rs/alone.yaml: bonuses.tie: missing data for required field", "rs/alone.yaml: words.house_allow: missing data for required field"]


def test_every_problem_in_every_file_is_reported_at_once(folder):
    variant(folder, "neg", "deck:\n  Z: {count: -1, value: 14}\n")
    variant(folder, "typo", "colour: red\n")
    variant(folder, "enum", "floor: sometimes\n")
    variant(folder, "orphan", "", parent="nonesuch")
    variant(folder, "a", "", parent="b")
    variant(folder, "b", "", parent="a")
    variant(folder, "crowd", "players: {max: 12}\n")
    text = (folder / "standard.yaml").read_text(encoding="utf-8")
    (folder / "alone.yaml").write_text(text.replace("floor: total\n", ""), encoding="utf-8")
    found = problems(folder)
    expected = {
        "rs/neg.yaml: deck.Z.count: must be at least 0",
        "rs/typo.yaml: colour: unknown field",
        "rs/enum.yaml: floor: must be one of: total, before_bonuses, none",
        "rs/orphan.yaml: extends: no ruleset 'nonesuch' in rs/",
        "rs/a.yaml: extends: cycle a -> b -> a",
        "rs/b.yaml: extends: cycle b -> a -> b",
        "rs/crowd.yaml: deck: 118 cards cannot deal round 8 (10 cards) to 12 players and turn up a discard (121 needed)",
        "rs/alone.yaml: floor: missing data for required field",
    }
    assert expected <= set(found)
    assert len(found) == len(set(found))


def test_a_child_of_a_broken_parent_says_so(folder):
    variant(folder, "enum", "floor: sometimes\n")
    variant(folder, "child", "", parent="enum")
    assert "rs/child.yaml: extends: ruleset 'enum' has problems of its own" in problems(folder)


def test_a_file_name_that_is_not_a_ruleset_id_is_an_error(folder):
    shutil.copy(folder / "standard.yaml", folder / "Bad_Name.yaml")
    assert problems(folder) == ["rs/Bad_Name.yaml: file name must be a ruleset id (lowercase letters, digits, hyphens)"]


def test_a_file_that_is_not_yaml_is_an_error(folder):
    (folder / "junk.yaml").write_text("name: [unclosed\n", encoding="utf-8")
    [line] = problems(folder)
    assert line.startswith("rs/junk.yaml: not valid YAML")


def test_an_unknown_deck_file_is_an_error(folder):
    variant(folder, "nodeck", "deck: klingon\n")
    assert problems(folder) == ["rs/nodeck.yaml: deck: no deck file rs/decks/klingon.yaml"]


def test_an_unknown_banned_class_is_an_error(folder):
    variant(folder, "ban", "words: {banned_classes: [swear_word]}\n")
    [line] = problems(folder)
    assert line.startswith("rs/ban.yaml: words.banned_classes.0: must be one of:")


def test_players_min_above_max_is_an_error(folder):
    variant(folder, "upside", "players: {min: 5, max: 3}\n")
    assert problems(folder) == ["rs/upside.yaml: players: min must not exceed max"]


def test_a_deck_named_by_file_replaces_the_inherited_deck_whole():
    book = load_rulesets()
    islenska = book.get("islenska")
    assert islenska.deck.size == 118
    assert "q" not in islenska.deck and "ð" in islenska.deck
