"""Invariants of round scoring on random rounds dealt from the English deck.

Each example deals hands from the shuffled 118-card deck (so no card is used
more often than the deck holds), splits every hand into unused cards and
words, and makes a random subset of those words valid in a fresh
MemoryLexicon.
"""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.ruleset import BONUS_KINDS, Floor, TwoPlayers, WordCheck
from wordsvc.core.scoring import PlayerPlay, RoundPlay, score_round
from wordsvc.data.rulesets import load_rulesets

BOOK = load_rulesets()
STANDARD = BOOK.get("standard")
RULESETS = [
    STANDARD,
    BOOK.get("letters-minimum"),
    BOOK.get("no-floor"),
    BOOK.get("two-player-one-bonus"),
    dataclasses.replace(STANDARD, id="before-bonuses", floor=Floor.BEFORE_BONUSES),
]
FULL_DECK = tuple(face for face, card in STANDARD.deck.cards.items() for _ in range(card.count))
INFO = LexiconInfo(id="prop", lang="en-US", version="1", sha256="2" * 64, fold_diacritics=True)

SETTINGS = settings(max_examples=200, deadline=None, database=None)


@st.composite
def rounds(draw):
    """``(play, ruleset, lexicon)``: a dealt round, every hand split into words and unused cards."""
    ruleset = draw(st.sampled_from(RULESETS))
    count = draw(st.integers(ruleset.players_min, ruleset.players_max))
    number = draw(st.integers(1, len(ruleset.rounds)))
    hand = ruleset.hand_size(number)
    # A seeded shuffle deals far faster than st.permutations of 118 cards, and still replays.
    deck = random.Random(draw(st.integers(0, 2**32 - 1))).sample(FULL_DECK, count * hand)
    players, valid = [], set()
    for i in range(count):
        cards = deck[i * hand : (i + 1) * hand]
        kept = draw(st.integers(0, hand))
        unused, rest = cards[:kept], cards[kept:]
        words, j = [], 0
        while j < len(rest):
            size = draw(st.integers(1, len(rest) - j))
            word = tuple(rest[j : j + size])
            words.append(word)
            if draw(st.booleans()):
                valid.add("".join(word))
            j += size
        players.append(PlayerPlay(f"P{i}", tuple(words), tuple(unused), went_out=False))
    choice = draw(st.sampled_from(BONUS_KINDS)) if ruleset.two_players is TwoPlayers.CHOICE and count == 2 else None
    return RoundPlay(tuple(players), number, (), choice), ruleset, MemoryLexicon(sorted(valid), INFO)


def summary(result):
    return {p.name: (p.word_points, p.unused_points, p.challenge_penalty, sorted(p.bonuses), p.total) for p in result.players}


@SETTINGS
@given(rounds())
def test_a_round_total_is_never_negative_under_a_floor(case):
    play, ruleset, lexicon = case
    result = score_round(play, ruleset, lexicon)
    if ruleset.floor is Floor.NONE:
        return
    assert all(p.total >= 0 for p in result.players)


@SETTINGS
@given(rounds(), st.randoms(use_true_random=False))
def test_the_order_of_players_and_of_their_words_changes_no_score(case, rnd: random.Random):
    play, ruleset, lexicon = case
    before = summary(score_round(play, ruleset, lexicon))
    players = [dataclasses.replace(p, words=tuple(rnd.sample(p.words, len(p.words)))) for p in play.players]
    rnd.shuffle(players)
    after = summary(score_round(dataclasses.replace(play, players=tuple(players)), ruleset, lexicon))
    assert after == before


@SETTINGS
@given(rounds())
def test_word_points_plus_unused_points_are_the_value_of_every_card_held(case):
    play, ruleset, lexicon = case
    assert ruleset.word_check is WordCheck.AUTOMATIC and not play.challenges
    result = score_round(play, ruleset, lexicon)
    for held, scored in zip(play.players, result.players, strict=True):
        cards = [face for word in held.words for face in word] + list(held.unused)
        assert scored.word_points + scored.unused_points == ruleset.deck.points(cards)


@SETTINGS
@given(rounds())
def test_round_total_is_words_minus_unused_plus_bonuses_then_floored(case):
    play, ruleset, lexicon = case
    for p in score_round(play, ruleset, lexicon).players:
        base = p.word_points - p.unused_points - p.challenge_penalty
        bonus = sum(points for _, points in p.bonuses)
        expected = {Floor.TOTAL: max(0, base + bonus), Floor.BEFORE_BONUSES: max(0, base) + bonus, Floor.NONE: base + bonus}[ruleset.floor]
        assert p.total == expected
