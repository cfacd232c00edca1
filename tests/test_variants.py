"""The published variants as data: the 16-round full game, Quiddler Junior's rules, the daily puzzle's scoring.

Worked examples of each new ruleset on the real English lexicon (skipped when
it is not built); held-back rounds scored by a scorer written here from the
variants' rules; and the solver's best play under the new knobs (length
bonuses, unused cards that cost nothing, one-card words) against a brute
force over every subset of the hand.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.scoring import PlayerPlay, RoundPlay, score_round
from wordsvc.core.solver.candidates import MemoryCandidates
from wordsvc.core.solver.solver import Solver
from wordsvc.core.verdict import judge_cards
from wordsvc.data.rulesets import load_rulesets

BUILT = (Path(__file__).resolve().parents[1] / "build" / "lexicons" / "en-US" / "meta.json").is_file()
needs_english = pytest.mark.skipif(not BUILT, reason="the en-US lexicon is not built; run `make setup`")


@pytest.fixture(scope="module")
def rulesets():
    return load_rulesets()


@pytest.fixture(scope="module")
def service():
    from wordsvc.service import Service

    return Service.from_settings()


def play(*players: tuple[str, list[str], str]) -> RoundPlay:
    return RoundPlay(tuple(PlayerPlay(name, tuple(tuple(w) for w in words), tuple(unused)) for name, words, unused in players))


# ---------------------------------------------------------------- worked examples (the README's table)


@needs_english
def test_the_full_game_is_sixteen_rounds_with_ten_dealt_twice(service) -> None:
    ruleset = service.ruleset("full-game")
    assert ruleset.rounds == (3, 4, 5, 6, 7, 8, 9, 10, 10, 9, 8, 7, 6, 5, 4, 3)
    rounds = [RoundPlay(play(("ann", [], "e" * n), ("bob", [], "a" * n)).players, None) for n in ruleset.rounds]
    game = service.score_game(["ann", "bob"], rounds, "full-game")
    assert game.complete and len(game.rounds) == 16  # no round is missing, none is past the end
    assert game.to_dict()["players"][0]["round_totals"] == [0] * 16  # every hand unused: floored at 0


@needs_english
def test_junior_rules_charge_nothing_for_unused_cards_and_take_one_card_words_and_names(service) -> None:
    # Ann: A (2) + STEVE (a name, allowed) S 3 + T 3 + E 2 + V 11 + E 2 = 21, unused Z costs nothing; Bob: CAT 13, unused X nothing.
    result = score_round(play(("ann", ["a", "steve"], "z"), ("bob", ["cat"], "xq")), service.ruleset("junior-rules"), service.lexicon(service.ruleset("junior-rules"), None))
    ann, bob = result.to_dict()["players"]
    assert [w["valid"] for w in ann["words"]] == [True, True] and ann["unused_points"] == 0 and bob["unused_points"] == 0
    assert ann["word_points"] == 2 + 21 and bob["word_points"] == 13
    assert [b["kind"] for b in ann["bonuses"]] == ["longest_word", "most_words"]  # STEVE is the longest; two words are the most
    assert ann["total"] == 2 + 21 + 20 and bob["total"] == 13
    standard = score_round(play(("ann", ["a", "steve"], "z"), ("bob", ["cat"], "xq")), service.ruleset("standard"), service.lexicon(service.ruleset("standard"), None))
    assert [w["valid"] for w in standard.to_dict()["players"][0]["words"]] == [False, False]  # the standard rules refuse both


@needs_english
def test_the_daily_puzzle_adds_a_bonus_for_each_long_word(service) -> None:
    # STONES: S 3 T 3 O 2 N 5 E 2 S 3 = 18, six letters +5; the two cards left (Q 15, E 2) cost 17.
    ruleset = service.ruleset("daily-puzzle")
    result = score_round(RoundPlay(play(("solo", ["stones"], "qe"),).players, 1), ruleset, service.lexicon(ruleset, None)).to_dict()
    (solo,) = result["players"]
    assert solo["words"][0]["length_bonus"] == 5 and solo["words"][0]["points"] == 18 + 5
    assert solo["bonuses"] == [] and result["bonuses"] == []  # no longest-word or most-words bonus
    assert solo["total"] == 18 + 5 - 17 == 6


def test_the_length_bonus_takes_the_largest_size_a_word_reaches(rulesets) -> None:
    daily = rulesets.get("daily-puzzle")
    assert [daily.word_bonus(n) for n in range(2, 16)] == [0, 0, 0, 2, 5, 10, 20, 30, 40, 40, 40, 40, 40, 40]
    assert rulesets.get("standard").word_bonus(12) == 0


# ---------------------------------------------------------------- held-back rounds, an independent scorer

WORDS = ("a", "i", "at", "cat", "tea", "eat", "stone", "stones", "tones", "notes", "onset", "heart", "earth", "hearts", "earths")
LEXICON = MemoryLexicon({w: [()] for w in WORDS}, LexiconInfo(id="variants", lang="en-US", version="1", sha256="3" * 64, fold_diacritics=True))


def independent(ruleset, round_play: RoundPlay) -> dict[str, int]:
    """The round totals from the variants' rules alone: values (+ length bonus) of valid words, unused cost, sole-leader bonuses, floor."""
    value = {face: card.value for face, card in ruleset.deck.cards.items()}
    bonus_table = dict(ruleset.length_bonus)
    base, counted = {}, {}
    for p in round_play.players:
        good = [w for w in p.words if "".join(w) in WORDS and len(w) >= ruleset.min_cards]
        bad = [w for w in p.words if w not in good]
        length = [max([b for n, b in bonus_table.items() if len("".join(w)) >= n], default=0) for w in good]
        left = sum(value[c] for w in bad for c in w) + sum(value[c] for c in p.unused)
        base[p.name] = sum(value[c] for w in good for c in w) + sum(length) - (left if ruleset.unused.value == "subtract" else 0)
        counted[p.name] = good
    for kind, measure in (("longest_word", lambda ws: max((len("".join(w)) for w in ws), default=0)), ("most_words", len)):
        points = ruleset.bonus_points[kind]
        scores = {n: measure(ws) for n, ws in counted.items()}
        best = max(scores.values())
        leaders = [n for n, s in scores.items() if s == best]
        if points and best > 0 and len(leaders) == 1:
            base[leaders[0]] += points
    return {n: (max(0, t) if ruleset.floor.value == "total" else t) for n, t in base.items()}


@pytest.mark.parametrize("ruleset_id", ["full-game", "junior-rules", "daily-puzzle"])
def test_held_back_rounds_score_as_the_rules_say(rulesets, ruleset_id: str) -> None:
    ruleset = rulesets.get(ruleset_id)
    rng = random.Random(ruleset_id)
    deck = [face for face, card in ruleset.deck.cards.items() if len(face) == 1 for _ in range(card.count)]
    players = ["ann", "bob", "cy"][: max(ruleset.players_min, min(3, ruleset.players_max))]
    for _ in range(60):
        number = rng.randrange(1, len(ruleset.rounds) + 1)
        hand = ruleset.hand_size(number)
        pile = deck[:]
        rng.shuffle(pile)
        seats = []
        for name in players:
            cards = [pile.pop() for _ in range(hand)]
            words, left = [], list(cards)
            for word in rng.sample(WORDS, len(WORDS)):
                if len(word) <= len(left) and all(left.count(c) >= word.count(c) for c in set(word)) and rng.random() < 0.7:
                    for c in word:
                        left.remove(c)
                    words.append(word)
            if rng.random() < 0.3 and len(left) >= 2:  # a word that is not one
                words.append("".join(left[:2]))
                left = left[2:]
            seats.append((name, words, "".join(left)))
        round_play = RoundPlay(play(*seats).players, number)
        got = {p.name: p.total for p in score_round(round_play, ruleset, LEXICON).players}
        assert got == independent(ruleset, round_play), (ruleset_id, seats)


# ---------------------------------------------------------------- the solver under the new knobs, against a brute force


def brute_best(ruleset, hand: list[str]) -> int:
    """The best score of exactly ``hand``: every subset of its cards as a word or not, by the rules' arithmetic."""
    n = len(hand)
    value = {face: card.value for face, card in ruleset.deck.cards.items()}
    words: dict[int, int] = {}
    for mask in range(1, 1 << n):
        cards = [hand[i] for i in range(n) if mask >> i & 1]
        if len(cards) < max(1, ruleset.min_cards):
            continue
        best_word = None
        from itertools import permutations

        for order in set(permutations(cards)):
            if judge_cards(order, ruleset, LEXICON).valid:
                best_word = sum(value[c] for c in cards) + ruleset.word_bonus(sum(len(c) for c in cards))
                break
        if best_word is not None:
            words[mask] = best_word

    @cache
    def best(mask: int) -> int:
        if not mask:
            return 0
        low = mask & -mask
        found = best(mask ^ low) - ruleset.unused_cost(value[hand[low.bit_length() - 1]])
        for sub, points in words.items():
            if sub & low and sub & mask == sub:
                found = max(found, points + best(mask ^ sub))
        return found

    return best((1 << n) - 1)


@pytest.mark.parametrize("ruleset_id", ["junior-rules", "daily-puzzle", "full-game"])
def test_the_solver_finds_the_brute_forces_best_under_each_variants_knobs(rulesets, ruleset_id: str) -> None:
    ruleset = rulesets.get(ruleset_id)
    solver = Solver(ruleset, LEXICON, MemoryCandidates.from_lexicon(LEXICON))
    rng = random.Random(ruleset_id)
    pool = list("aaaiieeeeoosssttttnnnrrhhcq")
    for _ in range(40):
        size = rng.randint(2, min(7, ruleset.max_hand))
        hand = rng.sample(pool, size)
        solution = solver.solve(tuple(hand), discard=False)
        assert solution.best.score == brute_best(ruleset, hand), (ruleset_id, hand, solution.to_dict()["words"])
        if ruleset.unused.value == "ignore":
            assert solution.best.score >= 0  # nothing left over can cost anything


def test_bad_knobs_are_all_reported_at_once(tmp_path: Path) -> None:
    from wordsvc.core.errors import RulesetError

    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "english.yaml").write_text((Path(__file__).resolve().parents[1] / "rulesets" / "decks" / "english.yaml").read_text())
    (tmp_path / "standard.yaml").write_text((Path(__file__).resolve().parents[1] / "rulesets" / "standard.yaml").read_text())
    (tmp_path / "odd.yaml").write_text("extends: standard\nunused: sometimes\nbonuses:\n  length: {0: 2, 5: -1}\n")
    with pytest.raises(RulesetError) as err:
        load_rulesets(tmp_path)
    problems = "\n".join(err.value.problems["rulesets"])
    assert "odd.yaml: unused: must be one of: subtract, ignore" in problems
    assert "bonuses.length" in problems and problems.count("odd.yaml") >= 2, problems
