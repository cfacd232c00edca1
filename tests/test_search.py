"""Word search: patterns against a plain scan, anagrams of cards, cursors, suggestions, budgets.

The reference for every search is the dumbest one that can be right: walk
every form, match it with an independent glob matcher, judge it, sort it.
The small fixture is compiled into a real lexicon and search index in a
temporary folder, so the compiled path is what is tested; the tests on the
real English lexicon are skipped when it is not built.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from wordsvc.core.errors import InvalidRequest
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.solver.candidates import MemoryCandidates
from wordsvc.core.verdict import judge, judge_cards
from wordsvc.core.wordsearch.queries import (
    MAX_PATTERN_CHARS,
    UNRANKED,
    Bound,
    CursorError,
    PatternError,
    PlainScan,
    WordQuery,
    anagram_words,
    compile_pattern,
    decode_cursor,
    edits1,
    encode_cursor,
    find_words,
    suggest,
)
from wordsvc.core.work import Work
from wordsvc.data.lexicons import CompiledLexicon, compile_lexicon
from wordsvc.data.search_index import NO_POINTS, SearchIndex, build_search_index

ENGLISH = Path(__file__).resolve().parents[1] / "build" / "lexicons" / "en-US"
needs_english = pytest.mark.skipif(not (ENGLISH / "search" / "meta.json").is_file(), reason="English lexicon and search index not built")

#: form, classes, rank: common words, rare ones, unranked ones, classes, non-ASCII, a hyphen and an apostrophe.
ROWS = (
    ("the", "", 10), ("them", "", 10), ("then", "", 20), ("theme", "", 35), ("thee", "", 80), ("tee", "", 50),
    ("tea", "", 10), ("eat", "", 10), ("ate", "", 20), ("eta", "", 70), ("tae", "", 80), ("ta", "", 60),
    ("quiz", "", 20), ("quit", "", 10), ("quite", "", 10), ("quiet", "", 10), ("quilt", "", 35), ("quint", "", 70),
    ("quizzed", "", 50), ("pizzazz", "", 60), ("zit", "", 40), ("it", "", 10), ("ti", "", 70), ("a", "", 10),
    ("inquiring", "", 50), ("incomprehensibilities", "", 80), ("clothing", "", 20), ("cloth", "", 20),
    ("derby", "", 50), ("Derby", "proper_noun", 50), ("Steve", "proper_noun", 50), ("USA", "abbreviation", 50),
    ("don't", "contraction", 20), ("John's", "proper_noun,possessive", 50), ("well-being", "hyphenated", 60),
    ("café", "", 60), ("naïve", "", 60), ("zebra", "", 35), ("zero", "", 20), ("zeros", "", 35), ("zeroes", "", 70),
    ("abba", "", None), ("abbey", "", None), ("xyst", "", None), ("qat", "", None), ("aa", "", None),
    ("eerie", "", 55), ("ewe", "", 55), ("queue", "", 35), ("queued", "", 50), ("aqueduct", "", 60),
)  # fmt: skip


@pytest.fixture(scope="session")
def fixture_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lexicon") / "fx"
    rows = ((form, frozenset(c for c in classes.split(",") if c), rank) for form, classes, rank in ROWS)
    compile_lexicon(rows, out, {"id": "fx", "lang": "en-US", "version": "1", "fold_diacritics": True})
    build_search_index(out, log=lambda line: None)
    return out


@pytest.fixture(scope="session")
def fx(fixture_dir: Path) -> CompiledLexicon:
    return CompiledLexicon(fixture_dir)


@pytest.fixture(scope="session")
def fx_index(fx: CompiledLexicon) -> SearchIndex:
    return SearchIndex(fx)


@pytest.fixture(scope="session")
def english() -> CompiledLexicon:
    return CompiledLexicon(ENGLISH)


# ---------------------------------------------------------------- the reference


def glob(pattern: str, form: str) -> bool:
    """An independent matcher: ? one letter, * any run of letters, [..] / [^..] sets; ' and - literal."""

    @cache
    def at(i: int, j: int) -> bool:
        if i == len(pattern):
            return j == len(form)
        ch = pattern[i]
        if ch == "*":
            return at(i + 1, j) or (j < len(form) and form[j] not in "'-" and at(i, j + 1))
        if j == len(form):
            return False
        if ch == "?":
            return form[j] not in "'-" and at(i + 1, j + 1)
        if ch == "[":
            end = pattern.index("]", i)
            members = pattern[i + 1 : end]
            negated = members[:1] in ("^", "!")
            inside = form[j] in members.lstrip("^!")
            return (inside != negated) and form[j] not in "'-" and at(end + 1, j + 1)
        return form[j] == ch and at(i + 1, j + 1)

    return at(0, 0)


def plain_scan(pattern: str, ruleset, lexicon, classes=None, min_len=None, max_len=None) -> list[str]:
    """Every playable form (or of ``classes``) matching, sorted by (rank, form): what /words must return."""
    found = []
    literals = Counter(re.sub(r"\[[^]]*\]|[?*]", "", pattern))  # letters every match holds: a quick necessary test
    width = None if "*" in pattern else len(re.sub(r"\[[^]]*\]", "?", pattern))
    for form in lexicon.forms():
        letters = len(form) - form.count("'") - form.count("-")
        if (min_len and letters < min_len) or (max_len and letters > max_len):
            continue
        if width is not None and len(form) != width:
            continue
        if any(form.count(ch) < n for ch, n in literals.items()) or not glob(pattern, form):
            continue
        verdict = judge(form, ruleset, lexicon)
        if classes is None and not verdict.valid:
            continue
        if classes is not None and not any((c & classes) or (not c and "ordinary" in classes) for c in verdict.readings):
            continue
        rank = lexicon.rank(form) if hasattr(lexicon, "rank") else None
        found.append((UNRANKED if rank is None else rank, form))
    return [form for _, form in sorted(found)]


def all_pages(source, pattern, ruleset, lexicon, limit=50, **filters) -> list[str]:
    query = WordQuery(compile_pattern(pattern), limit=limit, **filters)
    words: list[str] = []
    while True:
        page = find_words(query, ruleset, lexicon, source, Work.unbounded())
        assert not page.truncated
        assert len(page.hits) <= limit
        words += [hit.word for hit in page.hits]
        if page.next is None:
            return words
        query = WordQuery(query.pattern, query.min_len, query.max_len, query.classes, limit, page.next)


# ---------------------------------------------------------------- patterns


FIXTURE_PATTERNS = (
    "*", "t*", "th?", "?e?", "*e", "*e*e*", "q*", "qu?[aeiou]*", "[qz]*", "[^t]*", "?[^aeiou]?", "*z*z*",
    "caf?", "café", "na?ve", "don't", "don?t", "well-*", "*-being", "a*a", "*i*i*", "[aeiou][aeiou]*", "x*", "*q",
)  # fmt: skip


@pytest.mark.parametrize("pattern", FIXTURE_PATTERNS)
def test_pattern_on_the_compiled_index_equals_a_plain_scan(pattern, fx, fx_index, standard):
    assert all_pages(fx_index, pattern, standard, fx) == plain_scan(pattern, standard, fx)


@pytest.mark.parametrize("pattern", FIXTURE_PATTERNS)
def test_pattern_on_the_reference_scan_equals_a_plain_scan(pattern, fx, standard):
    assert all_pages(PlainScan(fx), pattern, standard, fx, limit=3) == plain_scan(pattern, standard, fx)


@pytest.mark.parametrize(("pattern", "classes"), [("*", {"proper_noun"}), ("*", {"ordinary"}), ("d*", {"proper_noun", "contraction"}), ("*'*", {"possessive"})])
def test_classes_filter_lists_forms_of_those_classes_playable_or_not(pattern, classes, fx, fx_index, standard):
    expected = plain_scan(pattern, standard, fx, classes=frozenset(classes))
    assert all_pages(fx_index, pattern, standard, fx, classes=frozenset(classes)) == expected
    assert expected  # the fixture has some of each


def test_length_filters_bound_the_letters(fx, fx_index, standard):
    assert all_pages(fx_index, "*", standard, fx, min_len=4, max_len=5) == plain_scan("*", standard, fx, min_len=4, max_len=5)


def test_random_patterns_match_the_plain_scan(fx, fx_index, standard):
    rng = random.Random(6)
    for _ in range(150):
        pattern = "".join(rng.choice(["?", "*", "e", "t", "a", "q", "[aeu]", "[^e]", "z"]) for _ in range(rng.randint(1, 6)))
        assert all_pages(fx_index, pattern, standard, fx, limit=4) == plain_scan(pattern, standard, fx), pattern


def test_many_stars_cost_no_more_than_their_length():
    pattern = compile_pattern("*a" * 15 + "*b")
    assert not pattern.matches("a" * 40)  # backtracking regexes take minutes on this


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        ("", ["must not be empty: give letters and ? * [..] wildcards"]),
        ("ab[c", ["character 3: '[' is never closed by ']'"]),
        ("a]b", ["character 2: ']' without '['"]),
        ("[]x", ["character 1: empty set '[]': list the letters, e.g. [aeiou]"]),
        ("[a-e]", ["character 1: a set holds letters only, not '-'; ranges such as a-e are not supported, list the letters"]),
        ("a1 b", ["character 2: '1' is not a letter or one of ? * [ ]", "character 3: ' ' is not a letter or one of ? * [ ]"]),
        ("?" * (MAX_PATTERN_CHARS + 1), [f"at most {MAX_PATTERN_CHARS} characters (got {MAX_PATTERN_CHARS + 1})"]),
    ],
)
def test_bad_pattern_names_every_fault_with_its_place(text, problems):
    with pytest.raises(PatternError) as caught:
        compile_pattern(text)
    assert caught.value.problems == problems


def test_pattern_hints_give_lengths_and_literal_prefix():
    pattern = compile_pattern("Qu?[AEIOU]*s")
    assert (pattern.min_letters, pattern.max_letters, pattern.prefix, pattern.fragments) == (5, None, "qu", ("qu", "s"))
    assert compile_pattern("t?e").max_letters == 3


# ---------------------------------------------------------------- paging and budgets


def test_cursor_pages_have_no_gaps_and_no_repeats(fx, fx_index, standard):
    whole = plain_scan("*", standard, fx)
    for limit in (1, 2, 7):
        paged = all_pages(fx_index, "*", standard, fx, limit=limit)
        assert paged == whole
        assert len(set(paged)) == len(paged)


def test_cursor_round_trips_and_refuses_tampering_or_another_query():
    bound = Bound(35, "quilt", after=True)
    token = encode_cursor(bound, "scope-a")
    assert decode_cursor(token, "scope-a") == bound
    for bad in (token[:-3] + "AAA", "not a cursor", "", token + "x"):
        with pytest.raises(CursorError):
            decode_cursor(bad, "scope-a")
    with pytest.raises(CursorError):
        decode_cursor(token, "scope-b")


@pytest.mark.parametrize("chunk", [16, 1 << 16])
@pytest.mark.parametrize("pattern", ["*", "*n*", "?u*", "[aeiou]*", "*z", "qu*", "??"])
@pytest.mark.parametrize("source", ["index", "plain scan"])
def test_a_query_past_its_budget_returns_what_it_found_and_resumes_without_gaps(chunk, pattern, source, fx, fx_index, standard, monkeypatch):
    import wordsvc.data.search_index as search_index

    monkeypatch.setattr(search_index, "CHUNK", chunk)  # small chunks: the budget runs out mid-section
    scan = fx_index if source == "index" else PlainScan(fx)
    whole = plain_scan(pattern, standard, fx)
    cut = 0
    for units in range(1, 80, 3):
        query = WordQuery(compile_pattern(pattern), limit=7)
        collected: list[str] = []
        for _ in range(5000):
            page = find_words(query, standard, fx, scan, Work(units))
            collected += [hit.word for hit in page.hits]
            cut += page.truncated
            if page.next is None:
                break
            query = WordQuery(query.pattern, limit=7, start=page.next)
        assert collected == whole, units
    assert cut  # some budget ran out mid-way


def test_a_spent_budget_gives_a_truncated_page_with_a_cursor(fx, fx_index, standard):
    page = find_words(WordQuery(compile_pattern("*")), standard, fx, fx_index, Work(1))
    assert page.truncated and page.next is not None


@pytest.mark.parametrize("pattern", ["*", "*n*", "?u*", "[aeiou]*"])
def test_a_budget_stops_a_query_at_the_same_form_every_time(pattern, fx, fx_index, standard):
    """The page a budget gives depends on the query and the index alone: the same units, the same page, the same work counted."""
    for units in (3, 17, 60):
        pages = []
        for _ in range(3):
            work = Work(units)
            page = find_words(WordQuery(compile_pattern(pattern), limit=500), standard, fx, fx_index, work)
            pages.append((page, work.spent))
        assert pages[0] == pages[1] == pages[2]


def test_a_larger_budget_never_gives_fewer_words(fx, fx_index, standard):
    counts = [len(find_words(WordQuery(compile_pattern("*"), limit=500), standard, fx, fx_index, Work(units)).hits) for units in (1, 5, 20, 80, 1 << 30)]
    assert counts == sorted(counts) and counts[0] < counts[-1]


# ---------------------------------------------------------------- the index


def test_index_entries_carry_language_classes_letters_points_and_rank(fx_index):
    assert fx_index.entry("quiz") == {
        "form": "quiz", "lang": "en-US", "classes": [], "letters": 4, "points": 35, "points_ruleset": "standard", "rank": 20,
    }  # fmt: skip
    assert fx_index.entry("derby")["classes"] == ["proper_noun"]
    assert fx_index.entry("pizzazz")["points"] is None  # four Z, the deck has two
    assert fx_index.entry("incomprehensibilities")["points"] is None  # more cards than the largest hand
    assert fx_index.entry("abba")["rank"] is None
    assert fx_index.entry("nope") is None


def test_building_again_keeps_an_up_to_date_index(fixture_dir):
    before = (fixture_dir / "search" / "forms.txt").stat().st_mtime_ns
    lines: list[str] = []
    build_search_index(fixture_dir, log=lines.append)
    assert "up to date" in lines[0]
    assert (fixture_dir / "search" / "forms.txt").stat().st_mtime_ns == before


def test_points_agree_with_the_verdicts_best_spelling(fx, fx_index, standard):
    for form in fx.forms():
        verdict = judge(form, standard, fx)
        laid = [s for s in verdict.spellings if len(s.cards) <= standard.max_hand and "not_spellable" not in [r.code for r in verdict.reasons]]
        points = fx_index._points[fx_index._trie[form]]
        assert (None if points == NO_POINTS else points) == (laid[0].points if laid else None), form


# ---------------------------------------------------------------- anagrams


@pytest.fixture(scope="session")
def source(lexicon) -> MemoryCandidates:
    return MemoryCandidates.from_lexicon(lexicon)


def brute_force(hand, ruleset, lexicon, every_card):
    """Every ordering of every sub-multiset of the hand, judged as a laying: the best points per word."""
    best: dict[str, int] = {}
    sizes = [len(hand)] if every_card else range(1, len(hand) + 1)
    for size in sizes:
        for cards in set(itertools.permutations(hand, size)):
            verdict = judge_cards(cards, ruleset, lexicon)
            if verdict.valid:
                word = "".join(cards)
                best[word] = max(best.get(word, 0), verdict.spellings[0].points)
    return best


def test_double_letter_card_lays_quiz_as_qu_i_z(standard, lexicon, source):
    result = anagram_words(["qu", "i", "z", "t"], standard, lexicon, source, every_card=False)
    quiz = next(hit for hit in result.hits if hit.word == "quiz")
    assert (quiz.cards, quiz.points) == (("qu", "i", "z"), 25)
    assert [hit.word for hit in anagram_words(["qu", "i", "z"], standard, lexicon, source).hits] == ["quiz"]


def test_single_cards_lay_quiz_letter_by_letter(standard, lexicon, source):
    hits = anagram_words(list("quiz"), standard, lexicon, source).hits
    assert [(hit.word, hit.cards, hit.points) for hit in hits] == [("quiz", ("q", "u", "i", "z"), 35)]


@pytest.mark.parametrize("every_card", [True, False])
@pytest.mark.parametrize(
    "hand", [("t", "e", "a"), ("th", "e", "m"), ("qu", "i", "t", "z"), ("t", "o", "p", "s"), ("in", "er", "t"), ("a", "t", "e", "th", "r")]
)
def test_anagrams_equal_a_brute_force_over_every_laying(hand, every_card, standard, lexicon, source):
    result = anagram_words(hand, standard, lexicon, source, every_card=every_card)
    assert {hit.word: hit.points for hit in result.hits} == brute_force(hand, standard, lexicon, every_card)
    assert [hit.points for hit in result.hits] == sorted((hit.points for hit in result.hits), reverse=True)
    for hit in result.hits:
        assert not Counter(hit.cards) - Counter(hand)
        assert judge_cards(hit.cards, standard, lexicon).valid


def test_cards_the_deck_lacks_or_holds_too_few_of_are_refused(standard, lexicon, source):
    with pytest.raises(InvalidRequest) as caught:
        anagram_words(["zz", "z", "z", "z"], standard, lexicon, source)
    assert caught.value.problems == {"cards.0": ["ZZ is not a card of the standard deck"], "cards": ["3 Z cards, but the deck holds 2"]}


@needs_english
def test_anagrams_of_an_english_hand_use_the_compiled_index(standard, english):
    from wordsvc.data.anagram_index import AnagramIndex, AnagramIndexError

    try:
        index = AnagramIndex(ENGLISH, english.info.sha256)
    except AnagramIndexError as err:
        pytest.skip(f"the English anagram index is not built for this code: {err}")
    hand = ["a", "cl", "g", "in", "th", "m", "p", "o", "u", "y", "n"]
    result = anagram_words(hand, standard, english, index, every_card=False, work=Work.unbounded())
    words = {hit.word for hit in result.hits}
    assert {"unclothing", "clumping", "young"} <= words
    assert all(judge_cards(hit.cards, standard, english).valid for hit in result.hits)


# ---------------------------------------------------------------- suggestions


def distance(a: str, b: str) -> int:
    """Optimal-string-alignment distance (the edits suggest counts)."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i, j in itertools.product(range(1, len(a) + 1), range(1, len(b) + 1)):
        d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
        if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
            d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[-1][-1]


def test_edits1_are_exactly_the_strings_one_edit_away():
    got = set(edits1("tea", "aet"))
    expected = {"".join(p) for n in (2, 3, 4) for p in itertools.product("aet", repeat=n) if distance("tea", "".join(p)) == 1}
    assert got == expected


def test_suggestions_without_a_trie_are_one_edit_away_valid_and_ranked(standard, lexicon):
    result = suggest("tep", standard, lexicon, work=Work.unbounded())
    assert result.max_distance == 1
    assert [s.word for s in result.suggestions] == ["tea", "tip", "top"]  # one edit each, unranked: alphabetical
    assert all(judge(s.word, standard, lexicon).valid for s in result.suggestions)


@needs_english
@pytest.mark.parametrize(
    ("typo", "meant"),
    [("recieve", "receive"), ("teh", "the"), ("seperate", "separate"), ("definately", "definitely"), ("wierd", "weird"),
     ("goverment", "government"), ("occured", "occurred"), ("thier", "their"), ("beleive", "believe"), ("freind", "friend")],
)  # fmt: skip
def test_common_misspellings_suggest_the_word_meant(typo, meant, standard, english):
    index = SearchIndex(english)
    result = suggest(
        typo, standard, english, work=Work.unbounded(), known=index.known, has_prefix=index.has_prefix, rank=index.rank, prefilter=index.prefilter(standard)
    )
    words = [s.word for s in result.suggestions]
    assert meant in words[:5]
    assert len(words) <= 10 and typo not in words
    keys = [(s.distance, UNRANKED if s.rank is None else s.rank, s.word) for s in result.suggestions]
    assert keys == sorted(keys)
    for s in result.suggestions:
        assert judge(s.word, standard, english).valid
        assert distance(typo, s.word) == s.distance


@pytest.mark.slow  # scans every English form once a pattern (up to 9 s): left out of make check, run by make test
@needs_english
@pytest.mark.parametrize("pattern", ["*q*q*", "z??????", "?a?e?", "[xz]*[xz]", "*mb"])
def test_english_patterns_equal_a_plain_scan_of_the_verdicts(pattern, standard, english):
    assert all_pages(SearchIndex(english), pattern, standard, english, limit=100) == plain_scan(pattern, standard, english)


# ---------------------------------------------------------------- HTTP


@pytest.fixture(scope="module")
def client(rulesets, lexicon):
    from wordsvc.data.languages import Languages
    from wordsvc.service import Service
    from wordsvc.web.app import create_app
    from wordsvc.web.views.words import bp

    memory = MemoryLexicon({**{w: [()] for w in ("quiz", "quit", "quite", "quiet", "it", "zit", "tea", "eat", "ate", "the")}}, LexiconInfo(
        id="mem", lang="en-US", version="1", sha256="2" * 64, fold_diacritics=True
    ))  # fmt: skip
    app = create_app(service=Service(rulesets, Languages({"en-US": memory})))
    if "words" not in app.blueprints:
        app.register_blueprint(bp)
    return app.test_client()


def load(schema, response):
    assert response.status_code == 200, response.get_json()
    return schema().load(response.get_json())


def test_words_endpoint_pages_with_its_cursor(client):
    from wordsvc.schemas.words import WordsOut

    first = load(WordsOut, client.get("/words?pattern=qu*&limit=2"))
    assert [w["word"] for w in first["words"]] == ["quiet", "quit"]
    assert first["words"][0]["points"] == 26 and first["words"][0]["valid"]
    second = load(WordsOut, client.get(f"/words?pattern=qu*&limit=2&cursor={first['next_cursor']}"))
    assert [w["word"] for w in second["words"]] == ["quite", "quiz"] and second["next_cursor"] is None


def test_words_endpoint_refuses_a_bad_pattern_cursor_or_limit_with_422(client):
    from wordsvc.schemas.words import WordsOut

    bad = client.get("/words?pattern=q[u&limit=501&cursor=abc")
    assert bad.status_code == 422
    assert set(bad.get_json()["errors"]) == {"pattern", "limit"}
    other = load(WordsOut, client.get("/words?pattern=q*&limit=1"))
    wrong = client.get(f"/words?pattern=t*&cursor={other['next_cursor']}")
    assert wrong.status_code == 422 and list(wrong.get_json()["errors"]) == ["cursor"]


def test_anagrams_endpoint_lays_double_letter_cards(client):
    from wordsvc.schemas.words import AnagramsOut

    body = load(AnagramsOut, client.get("/anagrams?cards=(qu)izt&all=true"))
    assert {"word": "quiz", "cards": ["QU", "I", "Z"], "points": 25, "letters": 4, "rank": None} in body["words"]
    assert client.get("/anagrams?cards=(zz)").status_code == 422


def test_suggest_endpoint_and_the_verdict_helper(client):
    from wordsvc.schemas.words import SuggestOut
    from wordsvc.web.views.words import suggestions

    body = load(SuggestOut, client.get("/suggest?word=quiq"))
    assert ([s["word"] for s in body["suggestions"]], body["valid"], body["max_distance"]) == (["quit", "quiz"], False, 1)
    app = client.application
    with app.app_context():
        svc = app.extensions["wordsvc"]
        ruleset = svc.ruleset("standard")
        assert [s["word"] for s in suggestions("qiuz", ruleset, svc.lexicon(ruleset, None))] == ["quiz"]


def test_a_request_may_set_its_own_budget_within_bounds(client):
    from wordsvc.schemas.words import WordsOut

    assert load(WordsOut, client.get("/words?pattern=*&budget=500000"))["truncated"] is False
    assert load(WordsOut, client.get("/words?pattern=*&budget=1"))["truncated"] is True
    for bad, field in (("budget=500001", "budget"), ("budget=0", "budget"), ("budget_ms=501", "budget_ms"), ("budget=9&budget_ms=9", "budget_ms")):
        refused = client.get(f"/words?pattern=*&{bad}")
        assert refused.status_code == 422 and list(refused.get_json()["errors"]) == [field], bad


@pytest.mark.parametrize("path", ["/words?pattern=*", "/anagrams?cards=aeinrst&all=true", "/suggest?word=qiux"])
def test_the_deprecated_budget_ms_is_a_thousand_units_a_millisecond(client, path):
    for ms in (1, 7):
        old = client.get(f"{path}&budget_ms={ms}").get_json()
        new = client.get(f"{path}&budget={ms * 1000}").get_json()
        assert old == new


def test_an_analyser_that_cannot_list_its_words_is_refused_by_words_and_anagrams(rulesets):
    from wordsvc.data.languages import Languages
    from wordsvc.service import Service
    from wordsvc.web.app import create_app
    from wordsvc.web.views.words import bp

    class Analyser(MemoryLexicon):
        def forms(self):
            raise TypeError("an analyser cannot list its words")

    info = LexiconInfo(id="an", lang="en-US", version="1", sha256="3" * 64, enumerable=False)
    app = create_app(service=Service(rulesets, Languages({"en-US": Analyser(["quiz", "quit"], info)})))
    if "words" not in app.blueprints:
        app.register_blueprint(bp)
    client = app.test_client()
    for url in ("/words?pattern=q*", "/anagrams?cards=quiz"):
        response = client.get(url)
        assert response.status_code == 422 and list(response.get_json()["errors"]) == ["lang"], url
    assert [s["word"] for s in client.get("/suggest?word=quiq").get_json()["suggestions"]] == ["quit", "quiz"]
