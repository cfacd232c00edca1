"""Post-round analysis (``POST /analyse-round`` and a stored round's ``/analysis``) against the solver called directly.

The HTTP tests run in process on the built lexicons (skipped when English is
not built; Icelandic and Estonian each skip alone), with the blueprint
registered on the test's own app and a temporary SQLite ledger. Every
player's ``best`` is checked against a solver of its own, made apart from the
app's, solving the same cards with no discard; the service-level tests use
the small in-memory lexicon of conftest to reach the solver's edge cases.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from problem_shape import messages

from wordsvc.core.cards import parse_cards
from wordsvc.core.deal import deal
from wordsvc.core.scoring import PlayerPlay, RoundPlay
from wordsvc.core.solver.candidates import MemoryCandidates
from wordsvc.core.solver.solver import Solver
from wordsvc.data.rulesets import ruleset_document, ruleset_from_document
from wordsvc.schemas.analysis import EventRoundAnalysisOut, RoundAnalysisOut
from wordsvc.service.analysis import SnapshotSolvers, SolverMissed, analyse_round

BUILD = Path(__file__).resolve().parents[1] / "build" / "lexicons"
needs_english = pytest.mark.skipif(not (BUILD / "en-US" / "anagrams.json").is_file(), reason="English lexicon and anagram index not built")


# ---------------------------------------------------------------- the app, the ledger, a solver of the test's own


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from wordsvc.config import Settings
    from wordsvc.web.app import create_app
    from wordsvc.web.views.analysis import bp

    if not (BUILD / "en-US" / "anagrams.json").is_file():
        pytest.skip("English lexicon and anagram index not built")
    database = tmp_path_factory.mktemp("ledger") / "l.db"
    app = create_app(Settings.from_env({**os.environ, "WORDSVC_DATABASE_URL": f"sqlite:///{database}"}))
    if "analysis" not in app.blueprints:
        app.register_blueprint(bp)
    return app


@pytest.fixture(scope="module")
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture(scope="module")
def reference(app: Any) -> Any:
    """Solvers apart from the app's (own caches): the solver called directly."""
    from wordsvc.service.solvers import Solvers

    return Solvers.from_data_dir(app.extensions["wordsvc"], app.extensions["wordsvc.settings"].data_dir)


@pytest.fixture(scope="module")
def admin(app: Any) -> str:
    from wordsvc.web.views.ledger_access import ledger

    with app.app_context():
        return ledger().tokens.create_admin_token()[1]


def needs_language(app: Any, reference: Any, ruleset: str) -> None:
    from wordsvc.data.anagram_index import AnagramIndexError

    svc = app.extensions["wordsvc"]
    lang = svc.ruleset(ruleset).language
    if lang not in svc.languages.lexicons:
        pytest.skip(f"lexicon {lang} not built")
    try:
        reference.get(ruleset)
    except AnagramIndexError as err:
        pytest.skip(f"no solver for {ruleset}: {err}")


def analysed(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/analyse-round", json=body)
    assert response.status_code == 200, response.get_json()
    data = response.get_json()
    assert RoundAnalysisOut().validate(data) == {}
    return data


def assert_against_the_solver(client: Any, reference: Any, body: dict[str, Any], data: dict[str, Any]) -> None:
    """Each player's best is the directly called solver's for the same cards; played is the round's; missed the difference."""
    ruleset = body.get("ruleset", "standard")
    scored = client.post("/score-round", json=body).get_json()
    assert [p["name"] for p in data["players"]] == [p["name"] for p in body["players"]]
    for player, mine, result in zip(body["players"], data["players"], scored["players"], strict=True):
        solution = reference.solve([face.lower() for face in mine["cards"]], ruleset, body.get("lang"), discard=False)
        assert mine["best"] == solution.best.score, mine
        assert mine["best_words"] == solution.to_dict()["words"]
        assert mine["could_go_out"] is solution.best.goes_out
        assert mine["played"] == result["word_points"] - result["unused_points"]
        assert mine["missed"] == mine["best"] - mine["played"] >= 0
        laid = [face for word in result["words"] for face in word["cards"]]
        assert Counter(mine["cards"]) == Counter(laid + [face.upper() for face in parse_cards(player.get("unused", []))])


# ---------------------------------------------------------------- POST /analyse-round


def test_a_player_who_could_have_gone_out_missed_the_difference(client, reference):
    body = {"round": 1, "players": [{"name": "ann", "words": ["at"], "unused": "c"}, {"name": "bob", "words": ["cat"], "went_out": True}]}
    data = analysed(client, body)
    ann, bob = data["players"]
    assert ann["cards"] == ["A", "T", "C"] and ann["could_go_out"] and ann["missed"] > 0
    assert sorted(ann["best_words"][0]["cards"]) == ["A", "C", "T"] and ann["best_unused"] == []
    assert (bob["missed"], bob["could_go_out"], bob["best"]) == (0, True, bob["played"])
    assert data["ruleset"] == "standard" and data["round"] == 1 and data["lexicon"]["id"] == "en-US"
    assert_against_the_solver(client, reference, body, data)


def test_an_invalid_word_counts_as_unused_cards_and_the_best_play_lays_them(client, reference):
    body = {"round": 1, "players": [{"name": "cy", "words": ["oge"]}, {"name": "di", "words": ["tea"]}]}
    data = analysed(client, body)
    cy = data["players"][0]
    assert cy["played"] < 0 < cy["best"] and cy["could_go_out"]  # EGO
    assert_against_the_solver(client, reference, body, data)


def test_a_bigger_round_with_leftovers_and_several_words(client, reference):
    body = {
        "round": 5,  # seven cards each
        "players": [
            {"name": "ann", "words": ["(qu)it"], "unused": "xmes"},
            {"name": "bob", "words": ["the", "zoo"], "unused": "n"},
            {"name": "cy", "unused": "(cl)ownsre"},
        ],
    }
    data = analysed(client, body)
    assert_against_the_solver(client, reference, body, data)
    assert data["players"][2]["played"] < 0 < data["players"][2]["best"]


def test_in_a_challenge_round_an_unchallenged_invalid_word_can_beat_every_valid_play(client, reference):
    body = {
        "ruleset": "challenge",
        "round": 1,
        "players": [{"name": "ann", "words": ["xzq"]}, {"name": "bob", "words": ["oge"]}, {"name": "cy", "words": ["cat"]}],
        "challenges": [{"by": "cy", "player": "bob", "word": 0}, {"by": "ann", "player": "cy", "word": 0}],
    }
    data = analysed(client, body)
    ann, bob, cy = data["players"]
    assert ann["played"] > ann["best"] and ann["missed"] == 0  # it stood: played counts it, no valid play comes near
    assert bob["missed"] == bob["best"] - bob["played"] > 0  # challenged and invalid: unused cards
    assert cy["missed"] == 0 and cy["played"] == cy["best"]  # a valid word challenged: the penalty is the challenger's, not in played
    solution = reference.solve(["x", "z", "q"], "challenge", discard=False)
    assert ann["best"] == solution.best.score


def test_a_player_with_no_cards_is_analysed_without_the_solver(client):
    data = analysed(client, {"players": [{"name": "ann"}, {"name": "bob", "words": ["cat"]}]})
    assert data["players"][0] == {
        "name": "ann", "cards": [], "played": 0, "best": 0, "best_words": [], "best_unused": [], "missed": 0, "could_go_out": True,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("body", "status", "errors"),
    [
        (
            {"round": 1, "players": [{"name": "ann", "words": ["cat", "a"]}]},
            422,
            {"players": ["1 player(s); ruleset standard is for 2 to 8"], "players.0": ["holds 4 card(s); round 1 deals 3"]},
        ),
        ({"players": [{"name": "ann", "words": ["c1t"]}, {"name": "bob"}]}, 422, None),
        ({"players": [{"name": "ann"}, {"name": "bob"}], "extra": 1}, 422, {"extra": ["Unknown field"]}),
        ({"players": [{"name": "ann"}, {"name": "bob"}], "ruleset": "nope"}, 404, None),
        ({"players": [{"name": "ann"}, {"name": "bob"}], "lang": "xx"}, 404, None),
    ],
)
def test_analyse_round_refuses_what_score_round_refuses(client, body, status, errors):
    response = client.post("/analyse-round", json=body)
    assert response.status_code == status and response.mimetype == "application/problem+json"
    assert client.post("/score-round", json=body).status_code == status
    if errors is not None:
        assert messages(response.get_json()["errors"]) == errors


def test_both_routes_are_heavy_requests(app, client):
    from wordsvc.web.admission import Admission

    kept = app.extensions["wordsvc.admission"]
    app.extensions["wordsvc.admission"] = Admission(1)
    app.extensions["wordsvc.admission"].enter("a test holding the only slot", lane="long")
    try:
        for response in (client.post("/analyse-round", json={"players": [{"name": "ann"}]}), client.get("/events/e/games/t/rounds/1/analysis")):
            assert response.status_code == 503 and response.headers["Retry-After"] == "1"
    finally:
        app.extensions["wordsvc.admission"] = kept


@pytest.mark.parametrize(
    ("ruleset", "players"),
    [
        ("islenska", [{"name": "anna", "words": ["rún"]}, {"name": "jón", "unused": "sat"}, {"name": "sigga", "words": ["(ar)"], "unused": "i"}]),
        ("eesti", [{"name": "mari", "words": ["kass"]}, {"name": "jüri", "unused": "töö"}, {"name": "kalle", "words": ["(st)ei"], "unused": "l"}]),
    ],
)
def test_icelandic_and_estonian_rounds_equal_their_solvers(app, client, reference, ruleset, players):
    needs_language(app, reference, ruleset)
    body = {"ruleset": ruleset, "players": players}
    data = analysed(client, body)
    assert data["ruleset"] == ruleset
    assert_against_the_solver(client, reference, body, data)
    laid_nothing = data["players"][1]
    assert laid_nothing["could_go_out"] and laid_nothing["missed"] == laid_nothing["best"] - laid_nothing["played"] > 0


@pytest.mark.parametrize("seed", range(24))
def test_missed_is_best_minus_played_and_never_negative_on_dealt_rounds(app, client, reference, seed):
    """Dealt hands, each laid as one of the solver's runner-up plays, nothing, or one long (mostly invalid) word."""
    svc = app.extensions["wordsvc"]
    ruleset = svc.ruleset("standard")
    number, seats = seed % 8 + 1, seed % 3 + 2
    dealt = deal(ruleset, seats, number, f"{seed + 1:064x}")
    players = []
    for i, hand in enumerate(dealt.hands):
        way = (seed + i) % 3
        if way == 0:
            solution = reference.solve(list(hand), "standard", discard=False, top=3)
            play = (solution.alternatives or (solution.best,))[-1]
            words = [list(word.cards) for word in play.words]
            unused = list(play.unused)
        else:
            words, unused = ([list(hand)], []) if way == 1 else ([], list(hand))
        players.append({"name": f"p{i}", "words": words, "unused": unused})
    body = {"round": number, "players": players}
    assert_against_the_solver(client, reference, body, analysed(client, body))


# ---------------------------------------------------------------- a stored round


def make_event(client: Any, admin: str, event_id: str, ruleset: str = "standard", private: bool = False) -> str:
    created = client.post("/events", json={"name": event_id, "id": event_id, "ruleset": ruleset, "private": private}, headers=bearer(admin))
    assert created.status_code == 201, created.get_json()
    return created.get_json()["director_token"]["token"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


ROUND_1 = {"players": [{"name": "ann", "words": ["at"], "unused": "c"}, {"name": "bob", "words": ["xzq"]}, {"name": "cy", "words": ["tea"]}]}
ROUND_2 = {"players": [{"name": "ann", "words": ["cat"], "unused": "e"}, {"name": "bob", "unused": "(qu)its"}, {"name": "cy", "words": ["the", "o"]}]}


def test_a_stored_round_is_analysed_as_its_body_would_be(app, client, reference, admin):
    director = make_event(client, admin, "club-night")
    assert client.put("/events/club-night/games/t1", json={"players": ["ann", "bob", "cy"]}, headers=bearer(director)).status_code == 201
    for number, body in ((1, ROUND_1), (2, ROUND_2)):
        assert client.put(f"/events/club-night/games/t1/rounds/{number}", json=body, headers=bearer(director)).status_code == 201
        response = client.get(f"/events/club-night/games/t1/rounds/{number}/analysis")  # public: no token
        assert response.status_code == 200, response.get_json()
        data = response.get_json()
        assert EventRoundAnalysisOut().validate(data) == {}
        assert (data["event"], data["game"], data["round"], data["revision"]) == ("club-night", "t1", number, 1)
        stored = client.get(f"/events/club-night/games/t1/rounds/{number}").get_json()["history"][-1]["body"]  # the play in its one order
        stateless = analysed(client, {**stored, "round": number})
        assert {k: v for k, v in data.items() if k not in ("event", "game", "revision")} == stateless
        assert_against_the_solver(client, reference, {**stored, "round": number}, stateless)
    from wordsvc.web.views.analysis import snapshot_solvers
    from wordsvc.web.views.best_meld import solvers
    from wordsvc.web.views.ledger_access import ledger

    with app.app_context():  # the snapshot is the loaded standard ruleset: its warm solver serves the event
        assert snapshot_solvers().get(*ledger().events.scoring_context(None, "club-night")) is solvers().get("standard")


def test_the_analysis_follows_a_correction_to_the_current_revision(client, admin):
    director = make_event(client, admin, "corrected")
    client.put("/events/corrected/games/t1", json={"players": ["ann", "bob", "cy"]}, headers=bearer(director))
    etag = client.put("/events/corrected/games/t1/rounds/1", json=ROUND_1, headers=bearer(director)).headers["ETag"]
    fixed = {**ROUND_1, "players": [{"name": "ann", "words": ["cat"]}, *ROUND_1["players"][1:]], "correction": {"reason": "ann laid CAT"}}
    assert client.put("/events/corrected/games/t1/rounds/1", json=fixed, headers={**bearer(director), "If-Match": etag}).status_code == 200
    data = client.get("/events/corrected/games/t1/rounds/1/analysis").get_json()
    assert data["revision"] == 2 and data["players"][0]["missed"] == 0 and data["players"][0]["played"] == data["players"][0]["best"]


def test_a_private_event_needs_one_of_its_tokens_and_missing_things_are_404(client, admin):
    director = make_event(client, admin, "private-one", private=True)
    client.put("/events/private-one/games/t1", json={"players": ["ann", "bob", "cy"]}, headers=bearer(director))
    client.put("/events/private-one/games/t1/rounds/1", json=ROUND_1, headers=bearer(director))
    assert client.get("/events/private-one/games/t1/rounds/1/analysis").status_code == 401
    other = make_event(client, admin, "other-one")
    assert client.get("/events/private-one/games/t1/rounds/1/analysis", headers=bearer(other)).status_code == 403
    assert client.get("/events/private-one/games/t1/rounds/1/analysis", headers=bearer(director)).status_code == 200
    for url in ("/events/private-one/games/t1/rounds/2/analysis", "/events/private-one/games/t9/rounds/1/analysis", "/events/nope/games/t1/rounds/1/analysis"):
        assert client.get(url, headers=bearer(director)).status_code == 404, url
    assert client.get("/events/import/games/t1/rounds/1/analysis", headers=bearer(admin)).status_code == 404  # the reserved id is never an event


@pytest.mark.parametrize(("ruleset", "players"), [("islenska", ["anna", "jón"]), ("eesti", ["mari", "jüri"])])
def test_a_stored_icelandic_or_estonian_round_uses_the_event_snapshot(app, client, reference, admin, ruleset, players):
    needs_language(app, reference, ruleset)
    director = make_event(client, admin, f"{ruleset}-night", ruleset)
    client.put(f"/events/{ruleset}-night/games/t1", json={"players": players}, headers=bearer(director))
    body = {
        "players": [
            {"name": players[0], "unused": "sat" if ruleset == "islenska" else "kas"},
            {"name": players[1], "words": ["sár" if ruleset == "islenska" else "töö"]},
        ]
    }
    assert client.put(f"/events/{ruleset}-night/games/t1/rounds/1", json=body, headers=bearer(director)).status_code == 201, ruleset
    data = client.get(f"/events/{ruleset}-night/games/t1/rounds/1/analysis").get_json()
    assert data["ruleset"] == ruleset and data["lexicon"]["id"] == app.extensions["wordsvc"].ruleset(ruleset).language
    assert_against_the_solver(client, reference, {**body, "ruleset": ruleset, "round": 1}, data)


# ---------------------------------------------------------------- the service: snapshots and the solver's edge cases


@pytest.fixture
def memory_solvers(rulesets, lexicon) -> Iterator[Any]:
    from wordsvc.data.languages import Languages
    from wordsvc.service import Service
    from wordsvc.service.solvers import Solvers

    service = Service(rulesets, Languages({"en-US": lexicon}))
    yield Solvers(service, lambda lex, ruleset: MemoryCandidates.from_lexicon(lex))


BOB = PlayerPlay("bob", (), tuple("xyz"))  # a second player: a round needs two


def cards_of(*words: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(word) for word in words)


def test_a_snapshot_equal_to_the_loaded_ruleset_shares_its_solver(memory_solvers, standard, lexicon):
    snapshots = SnapshotSolvers(memory_solvers)
    copy = ruleset_from_document("standard", ruleset_document(standard))
    assert snapshots.get(copy, lexicon) is memory_solvers.get("standard")


def test_a_changed_snapshot_gets_its_own_solver_scoring_its_own_card_values(memory_solvers, standard, lexicon):
    document = ruleset_document(standard)
    document["deck"]["e"]["value"] += 10  # as if the YAML had changed since the event began
    changed = ruleset_from_document("standard", document)
    snapshots = SnapshotSolvers(memory_solvers, kept=1)
    solver = snapshots.get(changed, lexicon)
    assert solver is not memory_solvers.get("standard") and snapshots.get(ruleset_from_document("standard", document), lexicon) is solver
    play = RoundPlay((PlayerPlay("ann", cards_of("at"), ("e",)), BOB), 1)
    ann = analyse_round(play, solver).players[0]
    assert ann.best.score == memory_solvers.get("standard").solve("tea").best.score + 10 and ann.missed == ann.best.score - ann.played
    document["deck"]["t"]["value"] += 1
    assert snapshots.get(ruleset_from_document("standard", document), lexicon) is not solver  # kept=1: the older one went


def test_a_valid_play_beating_an_exact_solver_is_a_solver_bug_never_an_answer(standard, lexicon):
    blind = Solver(standard, lexicon, MemoryCandidates(["at"]))  # knows AT, not TEA
    with pytest.raises(SolverMissed, match="valid play"):
        analyse_round(RoundPlay((PlayerPlay("ann", cards_of("tea")), BOB), 1), blind)


def test_beyond_an_analysers_exhaustive_hands_the_players_own_valid_play_is_the_best_known(standard, lexicon):
    blind = Solver(standard, lexicon, MemoryCandidates(["at"]), eager=False, exhaustive_cards=2)  # as Vabamorf past seven cards
    ann = analyse_round(RoundPlay((PlayerPlay("ann", cards_of("tea")), BOB), 1), blind).players[0]
    assert [w.word for w in ann.best.words] == ["tea"] and ann.missed == 0 and ann.best.goes_out


def test_a_lexicon_without_an_anagram_index_answers_503(rulesets, lexicon, tmp_path):
    from wordsvc.data.languages import Languages
    from wordsvc.service import Service
    from wordsvc.service.solvers import Solvers
    from wordsvc.web.app import create_app
    from wordsvc.web.views.analysis import bp

    service = Service(rulesets, Languages({"en-US": lexicon}))
    app = create_app(service=service)
    if "analysis" not in app.blueprints:
        app.register_blueprint(bp)
    app.extensions["wordsvc.solvers"] = Solvers.from_data_dir(service, tmp_path)
    response = app.test_client().post("/analyse-round", json={"players": [{"name": "ann", "words": ["cat"]}]})
    assert response.status_code == 503 and "no word index" in response.get_json()["detail"]


def test_a_seeded_event_adds_the_best_play_of_the_dealt_cards_for_those_who_may_see_the_deal(app, client, reference, admin):
    bearer = {"Authorization": f"Bearer {admin}"}
    created = client.post("/events", json={"name": "seeded", "id": "analysed-seeded", "deals": "seeded"}, headers=bearer).get_json()
    director = {"Authorization": f"Bearer {created['director_token']['token']}"}
    assert client.put("/events/analysed-seeded/games/t1", json={"players": ["ann", "bob"]}, headers=director).status_code == 201
    dealt = client.get("/events/analysed-seeded/games/t1/rounds/2/deal", headers=director).get_json()
    body = {"players": [{"name": s["player"], "unused": s["hand"]} for s in dealt["seats"]]}  # nobody laid a word: every card unused
    assert client.put("/events/analysed-seeded/games/t1/rounds/2", json=body, headers=director).status_code == 201
    seen = client.get("/events/analysed-seeded/games/t1/rounds/2/analysis", headers=director).get_json()
    assert EventRoundAnalysisOut().validate(seen) == {}
    for seat, mine in zip(dealt["seats"], seen["dealt"], strict=True):
        solution = reference.solve([face.lower() for face in seat["hand"]], "standard", None, discard=False)
        assert (mine["name"], mine["cards"], mine["best"]) == (seat["player"], seat["hand"], solution.best.score)
    public = client.get("/events/analysed-seeded/games/t1/rounds/2/analysis").get_json()
    assert "dealt" not in public  # before the reveal only the table's referee and the director see a deal


def test_another_languages_ruleset_is_refused_422_naming_the_ruleset_the_solver_is_not_built_for(client: Any) -> None:
    """An index covers the decks its lexicon is played with: Spanish LL with the Icelandic lexicon is a client's mix-up, not a missing index."""
    if not (BUILD / "is" / "anagrams.json").is_file():
        pytest.skip("Icelandic lexicon and anagram index not built")
    answer = client.post("/best-meld", json={"hand": "abcdefgh", "ruleset": "espanol", "lang": "is"})
    assert answer.status_code == 422, answer.get_data(as_text=True)
    assert messages(answer.get_json()["errors"]) == {"ruleset": ["not played with lexicon is: use one of is's rulesets or standard"]}
    assert client.post("/best-meld", json={"hand": "abcdefgh", "ruleset": "standard", "lang": "is"}).status_code == 200
