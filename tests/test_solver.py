"""The solver: the best play of a hand, checked against an exhaustive reference.

The reference is written the dumb way on purpose. It lists every way each
subset of the hand's cards lays each word of the lexicon
(:meth:`Deck.spellings`), keeps those :func:`judge_cards` accepts, then
enumerates every arrangement of the hand into such words (each multiset of
card groups once), scores each by the rules and sorts them. The solver must
agree on the best score every time, on the tie-breaks (longest word, then
most words), on the runners-up, on going out and on the face-up advice.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from functools import cache

import pytest
from problem_shape import messages

from wordsvc.core.cards import parse_cards
from wordsvc.core.errors import InvalidRequest
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.ruleset import LongestMeasure
from wordsvc.core.solver import solver as solver_module
from wordsvc.core.solver.candidates import MemoryCandidates
from wordsvc.core.solver.solver import Solver
from wordsvc.core.verdict import judge_cards

#: A few hundred words: short common ones, anagram families, and words for
#: the double-letter cards (QU, TH, ER, IN, CL).
FIXTURE_WORDS = """
a an at as am ad ah ai al ar ax ay be by de do ed eh el em en er es et ex go ha he hi ho id if in is it la li lo ma me mi
mo mu my na ne no nu of oh oi om on op or os ow ox oy pa pe pi qi re si so ta ti to uh um un up us ut we ye yo
ace act add age ago aid aim air ale all and ant any ape apt arc are arm art ash ask ate bad bag ban bar bat bay bed bee
bet bid big bin bit bog boy bud bug bun bus but cab can cap car cat cod cog con cop cot cow cry cub cup cut dab dad dam
day den did die dig dim din dip doe dog don dot dry due dug dye ear eat eel egg ego elf elm end era ere eta eve eye fan
far fat fed fee few fig fin fir fit gap gas gel gem get gin god got gum gun gut guy had ham has hat hay hen her hid him
hip his hit hog hop hot hub hue hug hum hut ice icy ill imp ink inn ion ire its lad lag lap lay lea led leg let lid lie
lip lit log lot low mad man map mar mat may men met mid mob mop mud mug nag nap net nil nip nit nod nor not nun nut oar
oat odd ode oil old one opt orb ore our out owe own pad pal pan par pat pay pea peg pen per pet pie pig pin pit pod pop
pot pun pup put qua rag ram ran rap rat ray red rib rid rig rim rip rod roe rot row rub rug run rut rye sad sag sat saw
say sea see set sew she shy sin sip sir sit sob son sop sow soy spa spy sub sue sum sun sup tab tad tag tan tap tar tea
tee ten the thy tic tie tin tip toe ton too top tot tow toy try tug two urn use yes yet yon you
stone tones notes onset tenor toner inert inter niter nitre train ratio irate retain retina stare tears rates aster tares
alert alter later earth heart hater reins resin rinse risen siren satin stain saint taint least slate steal stale tales
teals easel lease ideas aside aides arise raise dates sated stead treads trades darts start tarts rants snare earns
nears saner learn renal lines liens stole lotus louts tolus poets estop stope pesto topes spore prose ropes pores repos
quiz quit quite quiet quilt queen quest equip squint inquire inquiring quiddler quits suite
thin then there their other three throw cloth clothe clear clean clip cling clingy clint thump them this that with
mung piny yon gamin thing things night nights tight might sight eight weight height ether tether theirs
cinder incline clinic citrine inherit thinner
get seated dear café
""".split()

INFO = LexiconInfo(id="solver-fixture", lang="en-US", version="1", sha256="2" * 64, fold_diacritics=True)
FIXTURE = MemoryLexicon({word: [()] for word in FIXTURE_WORDS} | {"steve": [("proper_noun",)], "usa": [("abbreviation",)]}, INFO)

#: Cards the fixture lays often: hands dealt from these (with the deck's counts) have many words.
FRIENDLY = frozenset("a e i o u s t r n l d h p m y g c b".split()) | {"th", "er", "in", "qu", "cl"}


@pytest.fixture(scope="module")
def solver(standard):
    return Solver(standard, FIXTURE, MemoryCandidates.from_lexicon(FIXTURE))


def deal(rng, deck, size, friendly):
    cards = [face for face, card in deck.cards.items() if not friendly or face in FRIENDLY for _ in range(card.count)]
    return rng.sample(cards, size)


# ---------------------------------------------------------------- the reference


class Reference:
    """Every play of a hand, by brute force over the lexicon's words and ``judge_cards``."""

    def __init__(self, ruleset, lexicon):
        self.ruleset = ruleset
        self.lexicon = lexicon
        self.layings: dict[tuple[str, ...], list[tuple[str, tuple[str, ...]]]] = {}
        for form in lexicon.forms():
            for cards in ruleset.deck.spellings(form, max_cards=ruleset.max_hand):
                if judge_cards(cards, ruleset, lexicon).valid:
                    self.layings.setdefault(tuple(sorted(cards)), []).append((form, cards))
        self.judged: dict[tuple[str, ...], bool] = {}

    def plays(self, hand, free):
        """Every play as ``(score, longest, words, signature, leftovers)``; ``free``: cards discarded (scored 0)."""
        deck = self.ruleset.deck
        total = Counter(hand)
        groups = [Counter(key) for key in self.layings]
        measure = self.ruleset.longest_measure
        found = []

        def size(key):
            return len(key) if measure is LongestMeasure.CARDS else len("".join(key))

        def walk(left: Counter, chosen: list[tuple[str, ...]], order: list[str], last: tuple[str, int]):
            remaining = [face for face in order if left[face]]
            if not remaining:
                leftovers = total - sum((Counter(c) for c in chosen), Counter())
                found.append(self._score(chosen, leftovers, free, size))
                return
            face = remaining[0]
            # leave every remaining copy of this face: card groups use the first copies
            rest = left.copy()
            rest[face] = 0
            walk(rest, chosen, order, ("", 0))
            start = last[1] if last[0] == face else 0  # two groups sharing a face: one order only
            for gi in range(start, len(groups)):
                group = groups[gi]
                if group[face] and all(left[f] >= n for f, n in group.items()):
                    walk(left - group, [*chosen, tuple(sorted(group.elements()))], order, (face, gi))

        walk(total, [], sorted(total, key=lambda f: (-deck.value(f), f)), ("", 0))
        return [play for play in found if play is not None]

    def best_score(self, hand, discard):
        """The best score alone, by a recursion over subsets of card positions; the discard tried card by card."""
        deck = self.ruleset.deck
        n = len(hand)
        words = {}
        for mask in range(1, 1 << n):
            faces = tuple(sorted(hand[i] for i in range(n) if mask >> i & 1))
            if faces in self.layings:
                words[mask] = deck.points(faces)

        @cache
        def best(mask):
            if not mask:
                return 0
            low = mask & -mask
            found = best(mask ^ low) - deck.value(hand[low.bit_length() - 1])
            sub = mask
            while sub:
                if sub & low and sub in words:
                    found = max(found, words[sub] + best(mask ^ sub))
                sub = (sub - 1) & mask
            return found

        everything = (1 << n) - 1
        if discard:
            return max(best(everything ^ (1 << d)) for d in range(n))
        return best(everything)

    def _score(self, chosen, leftovers, free, size):
        deck = self.ruleset.deck
        left = sorted(leftovers.elements(), key=lambda f: -deck.value(f))
        if len(left) < free:
            return None
        signature = tuple(sorted(chosen))
        score = sum(deck.points(group) for group in chosen) - deck.points(left[free:])
        longest = max((size(group) for group in chosen), default=0)
        return (score, longest, len(chosen), signature, tuple(left))


@pytest.fixture(scope="module")
def reference(standard):
    return Reference(standard, FIXTURE)


def signature(play):
    return tuple(sorted(tuple(sorted(word.cards)) for word in play.words))


def assert_legal(play, hand, ruleset, lexicon):
    """A play uses exactly the hand's cards, lays only valid words, and scores what it says."""
    used = Counter()
    for word in play.words:
        verdict = judge_cards(word.cards, ruleset, lexicon)
        assert verdict.valid, (word, verdict.reasons)
        assert word.word == "".join(word.cards)
        assert word.points == ruleset.deck.points(word.cards)
        used.update(word.cards)
    used.update(play.unused)
    used.update(play.discards)
    assert used == Counter(hand)
    assert play.score == sum(w.points for w in play.words) - ruleset.deck.points(play.unused)


# ---------------------------------------------------------------- against the reference


def _hands(seed, count, sizes):
    rng = random.Random(seed)
    return [(sizes[i % len(sizes)], i % 3 != 0, rng.random() < 0.5, rng.randrange(1 << 30)) for i in range(count)]


@pytest.mark.parametrize(("size", "friendly", "discard", "seed"), _hands(20241129, 300, [3, 4, 5, 6, 7, 8, 9]))
def test_best_play_equals_the_exhaustive_reference(size, friendly, discard, seed, solver, reference, standard):
    rng = random.Random(seed)
    hand = deal(rng, standard.deck, size, friendly)
    plays = reference.plays(hand, 1 if discard else 0)
    best = max(plays, key=lambda p: p[:3])
    result = solver.solve(hand, discard=discard, top=3)
    assert_legal(result.best, hand, standard, FIXTURE)
    assert result.best.rank() == best[:3], hand
    assert len(result.best.discards) == (1 if discard else 0)
    # runners-up: the next best scores, each a distinct legal play
    ranked = sorted({p[3]: p for p in plays}.values(), key=lambda p: p[:3], reverse=True)
    others = [p for p in ranked if p[3] != signature(result.best)]
    assert [p.score for p in result.alternatives] == [p[0] for p in others[:3]]
    for play in result.alternatives:
        assert_legal(play, hand, standard, FIXTURE)
        assert signature(play) != signature(result.best)
    assert len({signature(p) for p in result.alternatives}) == len(result.alternatives)
    # going out: every card laid but the discard
    outs = [p for p in plays if len(p[4]) == (1 if discard else 0)]
    assert result.can_go_out == bool(outs)
    if outs:
        assert result.go_out.score == max(p[0] for p in outs)
        assert result.go_out.goes_out
        assert_legal(result.go_out, hand, standard, FIXTURE)
    # the longest word, then the most words
    with_words = [p for p in plays if p[2]]
    if with_words:
        assert (result.longest_word.longest, result.longest_word.score) == max((p[1], p[0]) for p in with_words)
        assert (len(result.most_words.words), result.most_words.score) == max((p[2], p[0]) for p in with_words)
        assert_legal(result.longest_word, hand, standard, FIXTURE)
        assert_legal(result.most_words, hand, standard, FIXTURE)
    else:
        assert result.longest_word is None and result.most_words is None


@pytest.mark.parametrize("seed", range(60))
def test_face_up_advice_equals_the_reference(seed, solver, reference, standard):
    rng = random.Random(seed)
    discard = seed % 2 == 0
    size = rng.randrange(3, 8)
    cards = deal(rng, standard.deck, size + 1, seed % 3 != 0)
    hand, face_up = cards[:-1], cards[-1]
    result = solver.solve(hand, discard=discard, face_up=face_up.upper())
    keep = max(p[0] for p in reference.plays(hand, 1 if discard else 0))
    take = max(p[0] for p in reference.plays(cards, 2 if discard else 1))
    advice = result.face_up
    assert (advice.keep, advice.play.score, advice.gain, advice.take) == (keep, take, take - keep, take > keep)
    assert len(advice.play.discards) == (2 if discard else 1)
    assert_legal(advice.play, cards, standard, FIXTURE)
    if not discard:
        assert advice.gain >= 0  # taking it and discarding it again gives the hand back


@pytest.mark.parametrize("seed", range(60))
def test_eleven_card_hands_score_what_the_reference_scores(seed, solver, reference, standard):
    rng = random.Random(1000 + seed)
    hand = deal(rng, standard.deck, 11, friendly=seed % 4 != 0)
    result = solver.solve(hand, discard=True)
    assert result.best.score == reference.best_score(hand, discard=True), hand
    assert_legal(result.best, hand, standard, FIXTURE)


@pytest.mark.parametrize("seed", range(40))
def test_repeated_and_double_letter_cards_equal_the_reference(seed, solver, reference, standard):
    """Hands made of few faces, many copies, and double-letter cards (IN vs I+N, ER vs E+R, TH vs T+H)."""
    rng = random.Random(5000 + seed)
    pool = ["e"] * 4 + ["t"] * 3 + ["i"] * 3 + ["n"] * 3 + ["r"] * 2 + ["h", "h", "a", "a", "s", "o"] + ["th", "th", "er", "er", "in", "in", "qu", "cl"]
    hand = rng.sample(pool, rng.randrange(4, 10))
    discard = seed % 2 == 1
    plays = reference.plays(hand, 1 if discard else 0)
    result = solver.solve(hand, discard=discard, top=2)
    assert result.best.rank() == max(p[:3] for p in plays), hand
    assert_legal(result.best, hand, standard, FIXTURE)


class ProbeOnly:
    """A candidate source that can only say whether a prefix leads anywhere (no following letters)."""

    def __init__(self, source):
        self.probe, self.candidates = source.probe, source.candidates


@pytest.mark.parametrize("seed", range(20))
def test_a_source_that_only_probes_gives_the_same_best_play(seed, solver, reference, standard):
    probing = Solver(standard, FIXTURE, ProbeOnly(MemoryCandidates.from_lexicon(FIXTURE)))
    rng = random.Random(7000 + seed)
    hand = deal(rng, standard.deck, 11, friendly=seed % 4 != 0)
    result = probing.solve(hand, discard=True)
    assert result.best.rank() == solver.solve(hand, discard=True).best.rank(), hand
    assert result.best.score == reference.best_score(hand, discard=True), hand


# ---------------------------------------------------------------- the rules' examples


def test_only_get_is_a_word_so_the_hand_scores_two(standard):
    """RULES.md: hand T G E QU Z, only GET a word: GET 11, discard Z, QU unused: 11 - 9 = 2."""
    lexicon = MemoryLexicon(["get"], INFO)
    result = Solver(standard, lexicon, MemoryCandidates.from_lexicon(lexicon)).solve(["T", "G", "E", "QU", "Z"], discard=True)
    assert result.best.score == 2
    assert [(w.word, w.cards) for w in result.best.words] == [("get", ("g", "e", "t"))]
    assert result.best.unused == ("qu",)
    assert result.best.discard == "z"
    assert not result.can_go_out


def test_the_fifty_eight_point_hand_goes_out(standard):
    """RULES.md: A CL G IN TH M P O U Y, then N: a full go-out, discard A, 58 (CLOTH MUNG PINY or CLING THUMP YON)."""
    lexicon = MemoryLexicon(["cloth", "mung", "piny", "cling", "thump", "yon"], INFO)
    result = Solver(standard, lexicon, MemoryCandidates.from_lexicon(lexicon)).solve("a(cl)g(in)(th)mpouyn", discard=True, top=3)
    assert result.best.score == 58
    assert result.best.discard == "a"
    assert result.best.goes_out and result.can_go_out and result.go_out == result.best
    plays = [{w.word for w in play.words} for play in (result.best, *result.alternatives) if play.score == 58]
    assert sorted(map(sorted, plays)) == [["cling", "thump", "yon"], ["cloth", "mung", "piny"]]
    # CLING THUMP YON: longest 5 and 3 words, like CLOTH MUNG PINY; the tie is broken by group order, but both are listed
    assert result.best.longest == 5 and len(result.best.words) == 3


def test_the_fifty_eight_point_hand_with_more_words_still_scores_fifty_eight(solver):
    result = solver.solve("a(cl)g(in)(th)mpouyn", discard=True)
    assert result.best.score == 58 and result.best.goes_out
    assert result.best.discard in {"a", "o"}  # any 2-point card: every go-out scores the hand minus the discard


def test_ties_prefer_the_longest_word_then_the_most_words(solver):
    result = solver.solve("a(cl)g(in)(th)mpouyn", discard=True, top=5)
    tied = [p for p in result.alternatives if p.score == result.best.score]
    assert tied, "the go-out hand has several 58-point plays"
    for play in tied:
        assert (play.longest, len(play.words)) <= (result.best.longest, len(result.best.words))


def test_a_hand_with_no_word_leaves_every_card_unused(solver, standard):
    result = solver.solve(["X", "J", "Z", "Q", "V"])
    assert result.best.words == ()
    assert result.best.score == -(12 + 13 + 14 + 15 + 11)
    assert sorted(result.best.unused) == ["j", "q", "v", "x", "z"]
    assert result.alternatives == () and not result.can_go_out and result.go_out is None


def test_a_hand_with_no_word_discards_its_most_valuable_card(solver):
    result = solver.solve("xjzqv", discard=True)
    assert result.best.discard == "q"
    assert result.best.score == -(12 + 13 + 14 + 11)


def test_double_letter_cards_score_as_laid(solver):
    assert solver.solve("(qu)iz").best.score == 25
    assert solver.solve("quiz").best.score == 35


def test_without_a_discard_every_card_may_be_laid(solver):
    result = solver.solve("(qu)iz")
    assert result.best.goes_out and result.best.discards == () and result.can_go_out


def test_a_discard_is_compulsory_even_when_every_card_could_be_laid(solver):
    result = solver.solve("(qu)iz", discard=True)
    assert len(result.best.discards) == 1
    assert result.best.score < 25


# ---------------------------------------------------------------- ruleset knobs


def test_a_banned_class_is_never_played(solver):
    result = solver.solve("steve")
    assert "steve" not in {w.word for w in result.best.words}


def test_house_words_are_played_and_house_refusals_are_not(standard):
    ruleset = dataclasses.replace(standard, house_allow=frozenset({"xyq"}), house_refuse=frozenset({"quiz"}))
    solver = Solver(ruleset, FIXTURE, MemoryCandidates.from_lexicon(FIXTURE))
    result = solver.solve("xyq(qu)iz")
    words = {w.word for w in result.best.words}
    assert "xyq" in words and "quiz" not in words


def test_the_letters_minimum_lets_a_lone_double_card_be_a_word(rulesets):
    ruleset = rulesets.get("letters-minimum")
    solver = Solver(ruleset, FIXTURE, MemoryCandidates.from_lexicon(FIXTURE))
    result = solver.solve(["IN"])
    assert [(w.word, w.cards) for w in result.best.words] == [("in", ("in",))]
    assert result.best.score == 7


def test_the_standard_minimum_refuses_a_lone_double_card(solver):
    assert solver.solve(["IN"]).best.words == ()


def test_longest_word_in_cards_when_the_ruleset_measures_cards(standard, reference):
    ruleset = dataclasses.replace(standard, longest_measure=LongestMeasure.CARDS)
    solver = Solver(ruleset, FIXTURE, MemoryCandidates.from_lexicon(FIXTURE))
    result = solver.solve("(th)instoe", top=2)
    assert result.best.longest == max(len(w.cards) for w in result.best.words)


def test_diacritics_are_laid_with_plain_letters_where_the_lexicon_folds_them(standard):
    folded = MemoryLexicon(["café"], INFO)
    solver = Solver(standard, folded, MemoryCandidates.from_lexicon(folded))
    assert [(w.word, w.cards) for w in solver.solve("cafe").best.words] == [("cafe", ("c", "a", "f", "e"))]
    plain = MemoryLexicon(["café"], dataclasses.replace(INFO, fold_diacritics=False))
    solver = Solver(standard, plain, MemoryCandidates.from_lexicon(plain))
    assert solver.solve("cafe").best.words == ()


def test_anagrams_of_the_same_cards_are_one_group(solver):
    result = solver.solve("eat")
    (word,) = result.best.words
    assert {word.word, *(w for w, _ in word.anagrams)} == {"eat", "ate", "tea", "eta"}
    assert result.alternatives == ()


# ---------------------------------------------------------------- errors and the safety net


def test_bad_hands_name_every_problem_with_its_path(solver):
    with pytest.raises(InvalidRequest) as caught:
        solver.solve(["A", "X1", "Z", "Z", "Z"], face_up="ß")
    problems = caught.value.problems
    assert problems["hand.1"] == ["no card 'X1' in the deck of ruleset standard"]
    assert problems["hand"] == ["3 Z cards; the deck holds 2"]
    assert "face_up" in problems


def test_a_hand_larger_than_the_largest_deal_plus_one_is_refused(solver):
    with pytest.raises(InvalidRequest) as caught:
        solver.solve("aaaaaaaaaaaa")
    assert "no hand in ruleset standard holds more than 11" in caught.value.problems["hand"][0]


def test_a_face_up_card_the_hand_holds_every_copy_of_is_refused(solver):
    with pytest.raises(InvalidRequest) as caught:
        solver.solve("zz", face_up="z")
    assert caught.value.problems["face_up"] == ["the hand already holds every Z card of the deck"]


def test_face_up_names_a_double_card_plainly(solver):
    assert solver.solve("uiz", face_up="QU").face_up.card == "qu"


def test_a_word_judge_cards_refuses_is_dropped_and_the_hand_solved_again(standard, monkeypatch):
    solver = Solver(standard, FIXTURE, MemoryCandidates.from_lexicon(FIXTURE))
    real = solver_module.judge_cards

    def refuse_quiz(cards, ruleset, lexicon, word=None):
        verdict = real(cards, ruleset, lexicon, word)
        return verdict._replace(reasons=(object(),)) if "".join(cards) == "quiz" else verdict

    monkeypatch.setattr(solver_module, "judge_cards", refuse_quiz)
    result = solver.solve("(qu)iz")
    assert result.best.words == ()
    assert solver.allowed("quiz") is False


def test_the_solution_is_json_with_the_fields_of_the_issue(solver):
    data = json.loads(json.dumps(solver.solve("a(cl)g(in)(th)mpouyn", discard=True, top=2, face_up="E").to_dict()))
    assert {"score", "words", "unused", "discard", "can_go_out", "alternatives", "face_up", "lexicon"} <= set(data)
    assert set(data["words"][0]) >= {"word", "cards", "points"}
    assert data["discard"] in {"A", "O"}
    assert data["lexicon"] == {"id": "solver-fixture", "version": "1", "sha256": "2" * 64}
    assert data["face_up"]["card"] == "E" and isinstance(data["face_up"]["take"], bool)


def test_parse_cards_and_the_solver_agree_on_compact_hands(solver):
    assert solver.solve("a (cl) g").hand == parse_cards(["A", "CL", "G"])


# ---------------------------------------------------------------- the anagram index on disk


MULTI = {"qu": 2, "in": 2, "er": 2, "cl": 2, "th": 2}


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory):
    from wordsvc.data.anagram_index import build_anagram_index_from_forms

    folder = tmp_path_factory.mktemp("anagrams")
    meta = build_anagram_index_from_forms(FIXTURE.forms(), folder, fold=True, source={"lexicon": "solver-fixture", "lexicon_sha256": INFO.sha256}, limits=(10, MULTI))
    assert meta["keys"] == len(MemoryCandidates.from_lexicon(FIXTURE))
    return folder


def test_the_index_on_disk_answers_like_the_one_in_memory(index_dir):
    from wordsvc.data.anagram_index import AnagramIndex

    index = AnagramIndex(index_dir, INFO.sha256)
    memory = MemoryCandidates.from_lexicon(FIXTURE)
    rng = random.Random(7)
    probes = ["".join(sorted(rng.choices("aeinorstlhquc", k=rng.randrange(1, 8)))) for _ in range(2000)]
    for prefix in ["aet", "acef", "iquz", "x", *probes]:
        found, expected = index.probe(prefix), memory.probe(prefix)
        assert (None if found is None else list(found)) == (None if expected is None else list(expected)), prefix
    assert list(index.candidates("acef")) == ["cafe"]


@pytest.mark.parametrize("seed", range(30))
def test_the_solver_on_the_index_on_disk_equals_the_one_in_memory(seed, index_dir, standard, solver):
    from wordsvc.data.anagram_index import AnagramIndex

    on_disk = Solver(standard, FIXTURE, AnagramIndex(index_dir))
    hand = deal(random.Random(seed), standard.deck, 11, friendly=True)
    a, b = on_disk.solve(hand, discard=True, top=2), solver.solve(hand, discard=True, top=2)
    assert a.to_dict() == b.to_dict()


def test_an_index_built_from_another_lexicon_is_refused(index_dir):
    from wordsvc.data.anagram_index import AnagramIndex, AnagramIndexError

    with pytest.raises(AnagramIndexError, match="run `wordsvc build`"):
        AnagramIndex(index_dir, "f" * 64)


def test_the_index_leaves_out_forms_no_deck_can_lay_in_one_word(tmp_path, standard):
    from wordsvc.data.anagram_index import AnagramIndex, build_anagram_index_from_forms

    build_anagram_index_from_forms(["inquiring", "stone", "cling", "don't"], tmp_path, fold=False, source={}, limits=(4, {"in": 1, "qu": 1}))
    index = AnagramIndex(tmp_path)
    assert list(index.candidates("cgiln")) == ["cling"]  # 5 letters, 4 cards with IN
    assert list(index.candidates("enost")) == []  # 5 letters and no double card
    assert list(index.candidates("giiiinnqru")) == []  # needs more double cards than 1 IN and 1 QU
    assert index.probe("'") is None
    assert index.uncovered(standard) == [
        "words of up to 10 cards; the index was built for 4",
        "2 QU card(s); the index was built for 1",
        "2 IN card(s); the index was built for 1",
        "2 ER card(s); the index was built for 0",
        "2 CL card(s); the index was built for 0",
        "2 TH card(s); the index was built for 0",
    ]


@pytest.mark.parametrize("fold", [False, True])
def test_the_index_keeps_exactly_the_forms_the_one_form_rule_keeps(tmp_path, fold, monkeypatch):
    """Filtered a batch at a time, the index holds what testing each form by the documented rule keeps, whatever the order."""
    import random

    from wordsvc.core.solver.candidates import deck_letters, layable, letter_key
    from wordsvc.data import anagram_index
    from wordsvc.data.anagram_index import AnagramIndex, build_anagram_index_from_forms

    rng = random.Random(5)
    letters = "qunierstchlaoé'-ð"
    forms = ["".join(rng.choice(letters) for _ in range(rng.randint(0, 16))) for _ in range(6_000)]
    forms += forms[:500]  # repeats change nothing
    multi = {"qu": 2, "in": 2, "er": 1, "th": 2, "st": 1, "nn": 2}

    def kept(form: str) -> bool:
        word = deck_letters(form, fold)
        if not 0 < len(word) <= 14 or not layable(word):
            return False
        return len(word) <= 8 or sum(min(word.count(face), n) * (len(face) - 1) for face, n in multi.items()) >= len(word) - 8

    expected = {deck_letters(form, fold) for form in forms if kept(form)}
    for name, batch in (("one", anagram_index.BATCH), ("many", 1_000)):
        monkeypatch.setattr(anagram_index, "BATCH", batch)  # several batches: what one keeps never depends on another
        meta = build_anagram_index_from_forms(reversed(forms), tmp_path / name, fold=fold, source={}, limits=(8, multi), max_letters=14)
        index = AnagramIndex(tmp_path / name)
        assert set(index.words()) == expected and meta["spellings"] == len(expected)
        assert meta["keys"] == len({letter_key(word) for word in expected})
    for name in ("anagrams.marisa", "anagrams.offsets", "anagrams.words"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "many" / name).read_bytes()


def test_a_compiled_lexicon_gets_its_index_beside_it(tmp_path, standard):
    from wordsvc.data.anagram_index import AnagramIndexes, build_anagram_index, deck_limits
    from wordsvc.data.lexicons import CompiledLexicon, compile_lexicon

    info = compile_lexicon(((w, frozenset(), None) for w in ("tea", "eat", "quiz")), tmp_path / "lexicons" / "tiny", {"id": "tiny", "lang": "en-US", "version": "1"})
    meta = build_anagram_index(tmp_path / "lexicons" / "tiny", deck_limits([standard]))
    assert meta["lexicon_sha256"] == info.sha256 and meta["spellings"] == 3
    lexicon = CompiledLexicon(tmp_path / "lexicons" / "tiny")
    index = AnagramIndexes(tmp_path).get(lexicon, standard)
    assert sorted(index.candidates("aet")) == ["eat", "tea"]
    assert Solver(standard, lexicon, index).solve("(qu)iz").best.score == 25


# ---------------------------------------------------------------- HTTP and CLI


@pytest.fixture(scope="module")
def client(rulesets):
    from wordsvc.data.languages import Languages
    from wordsvc.service import Service
    from wordsvc.service.solvers import Solvers
    from wordsvc.web.app import create_app
    from wordsvc.web.views.best_meld import bp

    service = Service(rulesets, Languages({"en-US": FIXTURE}))
    app = create_app(service=service)
    if "best_meld" not in app.blueprints:
        app.register_blueprint(bp)
    app.extensions["wordsvc.solvers"] = Solvers(service, lambda lexicon, ruleset: MemoryCandidates.from_lexicon(lexicon))
    return app.test_client()


def test_best_meld_answers_the_issue_example(client):
    from wordsvc.schemas.best_meld import BestMeldOut

    body = {"hand": ["A", "CL", "G", "IN", "TH", "M", "P", "O", "U", "Y", "N"], "ruleset": "standard", "lang": "en", "discard": True, "top": 3, "face_up": "E"}
    response = client.post("/best-meld", json=body)
    assert response.status_code == 200, response.get_json()
    data = response.get_json()
    assert BestMeldOut().validate(data) == {}
    assert data["score"] == 58 and data["can_go_out"] and data["discard"] in {"A", "O"}
    assert len(data["alternatives"]) == 3
    assert data["face_up"]["card"] == "E" and data["face_up"]["take"] is False


def test_best_meld_reads_a_compact_hand_and_discards_when_the_hand_has_drawn(client):
    data = client.post("/best-meld", json={"hand": "a(cl)g(in)(th)mpouyn"}).get_json()
    assert data["score"] == 58 and data["discard"] is not None  # 11 cards: more than any deal, so it has drawn
    data = client.post("/best-meld", json={"hand": "a(cl)g(in)(th)mpouyn", "discard": False}).get_json()
    assert data["discard"] is None


@pytest.mark.parametrize(
    ("body", "status", "errors"),
    [
        ({"hand": ["A", "B", "Å", "Z"]}, 422, {"hand.2": ["no card 'Å' in the deck of ruleset standard"]}),
        ({"hand": ["A", 5]}, 422, {"hand.1": ["must be a card face (one or more letters)"]}),
        ({"hand": "abcdefghijkl"}, 422, {"hand": ["12 cards; no hand in ruleset standard holds more than 11 (its largest deal plus the card drawn)"]}),
        ({"hand": "a(cl"}, 422, {"hand": ["unclosed '(' at position 1"]}),
        ({"hand": "abc", "top": 99}, 422, {"top": ["Must be greater than or equal to 0 and less than or equal to 20"]}),
        ({"hand": "abc", "ruleset": "nope"}, 404, None),
        ({"hand": "abc", "lang": "xx"}, 404, None),
        ({"hand": "abc", "extra": 1}, 422, {"extra": ["Unknown field"]}),
    ],
)
def test_best_meld_errors_name_the_field(client, body, status, errors):
    response = client.post("/best-meld", json=body)
    assert response.status_code == status
    assert response.mimetype == "application/problem+json"
    if errors is not None:
        got = messages(response.get_json()["errors"])
        assert set(got) == set(errors)
        assert all(got[path] == messages for path, messages in errors.items() if messages is not None)


def test_wordsvc_best_prints_the_answer_as_json(monkeypatch, capsys, rulesets):
    from wordsvc import service as service_module
    from wordsvc.cli import best as solver_cli
    from wordsvc.data.languages import Languages
    from wordsvc.service.solvers import Solvers

    service = service_module.Service(rulesets, Languages({"en-US": FIXTURE}))
    monkeypatch.setattr(service_module.Service, "from_settings", classmethod(lambda cls, settings=None: service))
    monkeypatch.setattr(Solvers, "from_data_dir", classmethod(lambda cls, svc, data_dir: cls(svc, lambda lexicon, ruleset: MemoryCandidates.from_lexicon(lexicon))))
    assert solver_cli.best(["a (cl) g (in) (th) m p o u y n", "--discard", "--top", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["score"] == 58 and len(data["alternatives"]) == 1
    assert solver_cli.best(["A,CL,X1"]) == 2
    assert "hand.2: no card 'X1'" in capsys.readouterr().err


# ---------------------------------------------------------------- other rulesets and decks


@pytest.mark.parametrize("seed", range(40))
def test_the_letters_minimum_ruleset_equals_the_reference(seed, rulesets):
    ruleset = rulesets.get("letters-minimum")
    solver = Solver(ruleset, FIXTURE, MemoryCandidates.from_lexicon(FIXTURE))
    rng = random.Random(9000 + seed)
    hand = deal(rng, ruleset.deck, rng.randrange(3, 9), friendly=True)
    plays = Reference(ruleset, FIXTURE).plays(hand, seed % 2)
    result = solver.solve(hand, discard=bool(seed % 2))
    assert result.best.rank() == max(p[:3] for p in plays), hand
    assert_legal(result.best, hand, ruleset, FIXTURE)


ICELANDIC = """á að af ann anna annar inn inni nú nám nár sár sat sá tá tal talan ár ári árin rann sinn sinna stinn
starir rast mannar nanna sannar rita ritar sting stinga nasa ása tína tinna""".split()


@pytest.mark.parametrize("seed", range(30))
def test_a_deck_with_other_double_cards_equals_the_reference(seed, rulesets):
    """The Icelandic deck's doubles (AR, IN, NA, NN, ST) overlap each other and repeat letters (NN)."""
    ruleset = rulesets.get("islenska")
    lexicon = MemoryLexicon(ICELANDIC, LexiconInfo(id="is-fixture", lang="is", version="1", sha256="3" * 64))
    solver = Solver(ruleset, lexicon, MemoryCandidates.from_lexicon(lexicon))
    rng = random.Random(7000 + seed)
    pool = [face for face, card in ruleset.deck.cards.items() if face in {"a", "á", "n", "s", "t", "r", "i", "í", "g", "m", "ar", "in", "na", "nn", "st"} for _ in range(card.count)]
    hand = rng.sample(pool, rng.randrange(4, 10))
    plays = Reference(ruleset, lexicon).plays(hand, seed % 2)
    result = solver.solve(hand, discard=bool(seed % 2))
    assert result.best.rank() == max(p[:3] for p in plays), hand
    assert_legal(result.best, hand, ruleset, lexicon)


# ---------------------------------------------------------------- an analyser: candidates from another list


#: Words a spell-checker list might propose that the lexicon (the analyser) refuses.
PROPOSED_ONLY = "tae aet ean nae sert toin rinse tinse stean hert quin clin thro inth erst rean neat".split()


@pytest.mark.parametrize("seed", range(60))
def test_a_lazy_solver_judges_only_what_it_plays_and_still_finds_the_best(seed, solver, reference, standard):
    """Candidates from a wider list (as hunspell proposes for Vabamorf): refused words are dropped as plays meet them."""
    proposals = MemoryCandidates([*FIXTURE.forms(), *PROPOSED_ONLY], fold=True)
    lazy = Solver(standard, FIXTURE, proposals, eager=False, exhaustive_cards=0)
    rng = random.Random(3000 + seed)
    hand = deal(rng, standard.deck, rng.randrange(4, 10), friendly=True)
    discard = seed % 2 == 0
    result = lazy.solve(hand, discard=discard, top=2)
    expected = solver.solve(hand, discard=discard, top=2)
    assert result.best.rank() == expected.best.rank() == max(p[:3] for p in reference.plays(hand, int(discard)))
    assert [p.score for p in result.alternatives] == [p.score for p in expected.alternatives]
    for play in (result.best, *result.alternatives):
        assert_legal(play, hand, standard, FIXTURE)


def test_the_solver_is_lazy_for_a_lexicon_that_cannot_list_its_words(standard):
    analyser = MemoryLexicon(["eat"], dataclasses.replace(INFO, enumerable=False))
    lazy = Solver(standard, analyser, MemoryCandidates(["eat", "tae", "aet"]), exhaustive_cards=0)
    assert not lazy.eager
    result = lazy.solve("tae")
    assert [w.word for w in result.best.words] == ["eat"] and result.best.words[0].anagrams == ()


#: The fixture as an analyser would be: it judges every form but lists none.
ANALYSER = MemoryLexicon({word: [()] for word in FIXTURE_WORDS}, dataclasses.replace(INFO, enumerable=False))


@pytest.mark.parametrize("seed", range(80))
def test_small_hands_are_exact_however_few_words_the_source_proposes(seed, reference, standard):
    """A source that proposes nothing: every ordering of a small hand's cards is tried, so the best play is the reference's."""
    exact = Solver(standard, ANALYSER, MemoryCandidates([]))
    assert exact.exhaustive_cards == solver_module.EXHAUSTIVE_CARDS == 7
    rng = random.Random(4000 + seed)
    hand = deal(rng, standard.deck, rng.randrange(3, exact.exhaustive_cards + 1), friendly=True)
    discard = seed % 2 == 0
    result = exact.solve(hand, discard=discard)
    assert result.best.rank() == max(p[:3] for p in reference.plays(hand, int(discard))), hand
    assert_legal(result.best, hand, standard, ANALYSER)


def test_a_hand_beyond_the_exhaustive_size_plays_only_what_the_source_proposes(standard):
    hand = "topseatn"  # eight cards: tones, stone, ... are words, but nothing proposes them
    assert Solver(standard, ANALYSER, MemoryCandidates([])).solve(hand).best.words == ()
    assert Solver(standard, ANALYSER, MemoryCandidates([]), exhaustive_cards=8).solve(hand).best.goes_out


# ---------------------------------------------------------------- Estonian: Vabamorf judges, hunspell proposes


def _vabamorf():
    try:
        from wordsvc.data.estonian import VabamorfLexicon

        return VabamorfLexicon()
    except (ImportError, OSError) as err:
        pytest.skip(f"Vabamorf not available: {err}")


def test_estonian_hands_are_solved_lazily_and_only_vabamorf_words_are_played(rulesets):
    lexicon = _vabamorf()
    ruleset = rulesets.get("eesti")
    proposals = MemoryCandidates(["kass", "kassid", "maja", "ema", "isa", "sai", "kassiks", "skaid", "dkass"])
    solver = Solver(ruleset, lexicon, proposals)
    assert not solver.eager
    result = solver.solve("kassid", top=2)
    assert "kassid" in {w.word for w in result.best.words}
    for play in (result.best, *result.alternatives):
        assert_legal(play, parse_cards("kassid"), ruleset, lexicon)
        assert not {"skaid", "dkass"} & {w.word for w in play.words}


def test_unmunch_expands_the_hunspell_list_into_normalized_forms():
    import itertools
    import shutil

    from wordsvc.core.text import normalize
    from wordsvc.data.estonian_candidates import AFF, DIC, unmunch_forms

    if shutil.which("unmunch") is None or not DIC.is_file() or not AFF.is_file():
        pytest.skip("myspell-et or hunspell-tools not installed")
    forms = list(itertools.islice(unmunch_forms(), 2000))
    assert len(forms) == 2000
    assert all(form and form == normalize(form) for form in forms)


def test_unmunch_batches_cut_at_any_size_give_the_same_forms():
    import itertools
    import shutil

    from wordsvc.data.estonian_candidates import AFF, DIC, unmunch_batches

    if shutil.which("unmunch") is None or not DIC.is_file() or not AFF.is_file():
        pytest.skip("myspell-et or hunspell-tools not installed")
    whole = list(itertools.islice(itertools.chain.from_iterable(unmunch_batches()), 100_000))
    small = list(itertools.islice(itertools.chain.from_iterable(unmunch_batches(size=997)), 100_000))
    assert small == whole and len(whole) == 100_000


def test_a_small_estonian_hand_is_exact_with_no_proposals(rulesets):
    lexicon = _vabamorf()
    result = Solver(rulesets.get("eesti"), lexicon, MemoryCandidates([])).solve("kassid")
    assert [w.word for w in result.best.words] == ["kassid"]


def test_the_built_estonian_index_proposes_short_words_hunspell_lacks(rulesets):
    """nuh is a word to Vabamorf but not in myspell-et: only the exhaustive short words propose it."""
    from wordsvc.data.anagram_index import AnagramIndex, AnagramIndexError
    from wordsvc.data.languages import default_data_dir

    lexicon = _vabamorf()
    try:
        index = AnagramIndex(default_data_dir() / "lexicons" / "et")
    except AnagramIndexError as err:
        pytest.skip(f"the Estonian anagram index is not built: {err}")
    assert "nuh" in index.candidates("hnu")
    best = Solver(rulesets.get("eesti"), lexicon, index, exhaustive_cards=0).solve(["t", "h", "n", "u"], discard=True).best
    assert ([w.word for w in best.words], best.discards, best.score) == (["nuh"], ("t",), 15)


def test_best_meld_without_an_anagram_index_is_503(rulesets, tmp_path):
    from wordsvc.data.languages import Languages
    from wordsvc.service import Service
    from wordsvc.service.solvers import Solvers
    from wordsvc.web.app import create_app
    from wordsvc.web.views.best_meld import bp

    service = Service(rulesets, Languages({"en-US": FIXTURE}))
    app = create_app(service=service)
    if "best_meld" not in app.blueprints:
        app.register_blueprint(bp)
    app.extensions["wordsvc.solvers"] = Solvers.from_data_dir(service, tmp_path)
    response = app.test_client().post("/best-meld", json={"hand": "quiz"})
    assert response.status_code == 503
    assert response.mimetype == "application/problem+json"
    assert "run `wordsvc build`" in response.get_json()["detail"]
