"""Solitaire: the layout the q1 deal gives, moves played one by one (illegal ones, rebuilding, winning), and the solver
against an exhaustive search of every sequence of moves on small layouts.
"""

from __future__ import annotations

import random
from itertools import permutations
from pathlib import Path

import pytest

from wordsvc.core.deal import canonical_deck, parse_seed, shuffled
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.ruleset import SolitaireRules as Rules
from wordsvc.core.solitaire import STATE_UNITS, Layout, Pile, SolitaireError, deal_layout, solve
from wordsvc.core.verdict import judge_cards
from wordsvc.core.work import Work
from wordsvc.data.rulesets import load_rulesets

WORDS = ("at", "ta", "tea", "eat", "ate", "sat", "set", "net", "ten", "tan", "ant", "nest", "sent", "stone", "tones", "notes", "one", "on", "no", "so")
LEXICON = MemoryLexicon({w: [()] for w in WORDS}, LexiconInfo(id="solitaire", lang="en-US", version="1", sha256="4" * 64, fold_diacritics=True))
BUILT = (Path(__file__).resolve().parents[1] / "build" / "lexicons" / "en-US" / "anagrams.json").is_file()


@pytest.fixture(scope="module")
def standard():
    return load_rulesets().get("standard")


def words_of(standard):
    """Every word some of the top cards lay, by trying every ordering of every subset (the dumb way)."""

    def find(tops):
        found = set()
        for size in range(2, len(tops) + 1):
            for order in set(permutations(tops, size)):
                if judge_cards(order, standard, LEXICON).valid:
                    found.add(order)
        return sorted(found)

    return find


def layout(*piles: str) -> Layout:
    """Piles written bottom first, e.g. ``"eta"``: face down all but the top."""
    return Layout(tuple(Pile(tuple(p), max(len(p) - 1, 0)) for p in piles))


def test_the_layout_is_the_q1_shuffle_dealt_into_eight_piles_of_six(standard) -> None:
    seed = "42" * 32
    dealt = deal_layout(standard, seed)
    order = shuffled(canonical_deck(standard.deck), parse_seed(seed), 1)
    assert [p.cards for p in dealt.piles] == [tuple(order[6 * i : 6 * i + 6]) for i in range(8)]
    assert all(p.down == 5 for p in dealt.piles) and dealt.cards_left == 48
    assert deal_layout(standard, seed) == dealt  # the same seed, the same layout


def test_a_word_takes_top_cards_and_turns_up_the_cards_under_them() -> None:
    start = layout("xt", "ye", "za")
    after = start.lay([0, 1, 2])  # T E A, as the word is spelled
    assert [p.cards for p in after.piles] == [("x",), ("y",), ("z",)] and [p.down for p in after.piles] == [0, 0, 0]
    assert [face for _, face in after.tops()] == ["x", "y", "z"]
    with pytest.raises(SolitaireError, match="at most one card from each pile"):
        start.lay([0, 0])
    with pytest.raises(SolitaireError, match="no face-up top card"):
        start.lay([5])


def test_an_emptied_pile_is_rebuilt_with_another_piles_top_card_which_turns_up_the_next(standard) -> None:
    start = layout("t", "sea", "n")
    emptied = start.lay([0])
    rebuilt = emptied.rebuild(0, 1, Rules())
    assert rebuilt.piles[0] == Pile(("a",), 0) and rebuilt.piles[1] == Pile(("s", "e"), 1)  # E is turned up
    kept_down = emptied.rebuild(0, 1, Rules(turn_after_rebuild=False))
    assert kept_down.piles[1].top is None  # the knob: the exposed card stays face down
    with pytest.raises(SolitaireError, match="not empty"):
        start.rebuild(1, 2, Rules())
    with pytest.raises(SolitaireError, match="do not rebuild"):
        emptied.rebuild(0, 1, Rules(rebuild=False))


def test_the_game_is_won_when_every_card_is_in_a_word(standard) -> None:
    start = layout("t", "a")
    assert not start.won and start.lay([1, 0]).won


def exhaustive(start: Layout, find, rules: Rules) -> int:
    """The most cards any sequence of moves lays: every word, every rebuild (even useless ones, within a depth), no memory."""

    def walk(state: Layout, rebuilds: int) -> int:
        best = 0
        tops = state.tops()
        for cards in find(tuple(f for _, f in tops)):
            piles, free = [], list(tops)
            for face in cards:
                k = next(k for k, (_, f) in enumerate(free) if f == face)
                piles.append(free.pop(k)[0])
            best = max(best, len(cards) + walk(state.lay(piles), rebuilds))
        if rules.rebuild and rebuilds < 3:
            for to, pile in enumerate(state.piles):
                if not pile.cards:
                    for source, other in enumerate(state.piles):
                        if source != to and other.top is not None:
                            best = max(best, walk(state.rebuild(to, source, rules), rebuilds + 1))
        return best

    return walk(start, 0)


@pytest.mark.parametrize("seed", range(40))
def test_the_solver_lays_as_many_cards_as_an_exhaustive_search_on_small_layouts(standard, seed: int) -> None:
    rng = random.Random(seed)
    pool = list("aaeeeooosssttttnnn")
    rng.shuffle(pool)
    piles, depth = rng.choice([(3, 2), (4, 2), (3, 3), (2, 3)])
    start = layout(*("".join(pool[i * depth : (i + 1) * depth]) for i in range(piles)))
    rules = Rules(rebuild=seed % 3 != 0)
    find = words_of(standard)
    found = solve(start, find, rules)
    assert not found.truncated
    assert found.cards_laid == exhaustive(start, find, rules), [p.cards for p in start.piles]
    assert found.won == (found.cards_laid == start.cards_left)
    replay = start  # the moves given are legal and lay what they claim
    for move in found.moves:
        if move.rebuild is None:
            assert tuple(replay.piles[i].top for i in move.piles) == move.cards and judge_cards(move.cards, standard, LEXICON).valid
            replay = replay.lay(move.piles)
        else:
            replay = replay.rebuild(*move.rebuild, rules)
    assert start.cards_left - replay.cards_left == found.cards_laid


def test_past_its_budget_the_solver_says_truncated(standard) -> None:
    found = solve(layout("tnn", "ete", "ost", "sea", "oot", "nas"), words_of(standard), Rules(), Work(1))
    assert found.truncated and not found.won and found.states == 1  # the first layout is always looked at


def test_a_budget_stops_the_solver_at_the_same_layout_every_time(standard) -> None:
    """The budget counts layouts, not time: the same budget gives the same moves, layouts and work on every run."""
    dealt = layout("tnn", "ete", "ost", "sea", "oot", "nas")
    assert solve(dealt, words_of(standard), Rules()).states > 40  # unbounded: more layouts than either budget allows
    for units in (STATE_UNITS * 5, STATE_UNITS * 40):
        runs = []
        for _ in range(2):
            work = Work(units)
            found = solve(dealt, words_of(standard), Rules(), work)
            runs.append((found.moves, found.cards_laid, found.states, found.truncated, work.spent))
        assert runs[0] == runs[1] and runs[0][3]
        assert runs[0][2] == units // STATE_UNITS  # only layouts are charged here: the budget allows this many


@pytest.mark.skipif(not BUILT, reason="the en-US lexicon is not built")
def test_the_api_deals_moves_and_solves(tmp_path) -> None:
    import os

    from wordsvc.config import Settings
    from wordsvc.web.app import create_app

    client = create_app(Settings.from_env({**os.environ, "WORDSVC_DATABASE_URL": f"sqlite:///{tmp_path / 'l.db'}"})).test_client()
    dealt = client.get(f"/solitaire/deal?seed={'00' * 32}").get_json()
    piles = dealt["layout"]["piles"]
    assert len(piles) == 8 and all(p["face_down"] == 5 and len(p["cards"]) == 6 for p in piles)
    small = {"piles": [{"cards": ["X", "T"], "face_down": 1}, {"cards": ["Y", "E"], "face_down": 1}, {"cards": ["A"], "face_down": 0}]}
    moved = client.post("/solitaire/move", json={"layout": small, "word": [0, 1, 2]}).get_json()
    assert moved["valid"] and moved["word"] == "tea" and moved["layout"]["piles"][0] == {"cards": ["X"], "face_down": 0}
    refused = client.post("/solitaire/move", json={"layout": small, "word": [2, 1, 0]}).get_json()
    assert not refused["valid"] and refused["reason"]["code"] and refused["layout"] == small  # AET is no word: nothing moves
    bad = client.post("/solitaire/move", json={"layout": small, "word": [0, 0]})
    assert bad.status_code == 422 and "word" in bad.get_json()["errors"]
    both = client.post("/solitaire/move", json={"layout": small, "word": [0], "rebuild": {"to": 0, "from": 1}})
    assert both.status_code == 422
    hidden_top = client.post("/solitaire/move", json={"layout": {"piles": [{"cards": ["A"], "face_down": 1}]}, "word": [0]})
    assert hidden_top.status_code == 422 and "layout.piles.0.face_down" in hidden_top.get_json()["errors"]
    solved = client.post("/solitaire/solve", json={"layout": small, "budget": 2_000_000}).get_json()
    assert solved["cards_laid"] >= 3 and not solved["truncated"] and solved["moves"][0]["cards"]


def test_the_rebuild_knob_can_move_only_a_card_that_covers_face_down_ones() -> None:
    start = layout("t", "sea", "n").lay([0])  # pile 0 empty; pile 1 covers S and E; pile 2 is a lone N
    covering = Rules(rebuild_from="covering")
    assert start.rebuild(0, 1, covering).piles[0] == Pile(("a",), 0)
    with pytest.raises(SolitaireError, match="covers face-down cards"):
        start.rebuild(0, 2, covering)
    assert start.rebuild(0, 2, Rules()).piles[0] == Pile(("n",), 0)  # the default: any pile's top


def test_a_word_given_as_cards_takes_the_piles_whose_tops_they_are() -> None:
    start = layout("xt", "ya", "ze")
    assert start.piles_of(("t", "e", "a")) == [0, 2, 1]
    with pytest.raises(SolitaireError, match="no face-up top card 'Q'"):
        start.piles_of(("q",))
