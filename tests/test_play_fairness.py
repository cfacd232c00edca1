"""Verifiable deals (wordsvc/core/play/fairness.py, verify.py; examples/verify-seed.mjs): the commitment, the seed from the seats' nonces, the game log.

The vectors (tests/play_seed_vectors.json) fix the byte encodings: each setup's
commitment, game seed and round-1 deal are checked here in Python, against
the engine's own first round, and by the JavaScript verifier under ``node``
(skipped visibly without node 18+). Whole random games (``RandomPlayer`` seats,
the HASH lexicon) give logs that verify, in Python and in JavaScript, and
every kind of tampering (the server seed, a nonce, the commitment, a move, a
total, a deal digest, the final digest) is caught with its own report.
"""

from __future__ import annotations

import copy
import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from play_lexicon import HASH

from wordsvc.core.deal import deal
from wordsvc.core.play import (
    Discard,
    Draw,
    FairnessError,
    GameState,
    Knobs,
    Move,
    Take,
    apply,
    check_nonce,
    check_reveal,
    commitment,
    face_of,
    game_log,
    game_seed,
    move_from_dict,
    move_to_dict,
    new_game,
    verify_log,
)
from wordsvc.core.play.random_player import RandomPlayer
from wordsvc.core.ruleset import Ruleset
from wordsvc.data.rulesets import load_rulesets

BOOK = load_rulesets()
REPO = Path(__file__).resolve().parent.parent
_VECTORS = json.loads((REPO / "tests" / "play_seed_vectors.json").read_text(encoding="utf-8"))
VECTORS, GAME = _VECTORS["setups"], _VECTORS["game"]
VERIFY_JS = REPO / "examples" / "verify-seed.mjs"
DEAL_JS = REPO / "examples" / "deal.mjs"
SERVER_SEED = "9e" * 32


# --- the vectors --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector_commitment_seed_and_first_deal(vector):
    ruleset = BOOK.get(vector["ruleset"])
    assert commitment(vector["server_seed"]) == vector["commitment"]
    assert game_seed(vector["server_seed"], vector["nonces"]) == vector["seed"]
    assert check_reveal(vector["commitment"], vector["server_seed"], vector["nonces"], vector["seed"]) == []
    dealt = deal(ruleset, len(vector["nonces"]), 1, vector["seed"])
    first = vector["round_1"]
    assert ([list(hand) for hand in dealt.hands], dealt.face_up, dealt.dealer, dealt.digest()) == (
        first["hands"],
        first["face_up"],
        first["dealer"],
        first["deal_digest"],
    )


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector_first_round_is_the_engines(vector):
    """The game started from the derived seed holds the vector's hands (as faces; the engine keeps hands sorted) and face-up card."""
    ruleset = BOOK.get(vector["ruleset"])
    names = [f"P{i}" for i in range(len(vector["nonces"]))]
    state = new_game(ruleset, game_seed(vector["server_seed"], vector["nonces"]), names, HASH)
    r = state.current
    assert [sorted(map(face_of, hand)) for hand in r.hands] == [sorted(hand) for hand in vector["round_1"]["hands"]]
    assert face_of(r.discard_pile[0]) == vector["round_1"]["face_up"]


def test_vectors_cover_the_edge_cases():
    nonces = [n for v in VECTORS for n in v["nonces"]]
    assert None in nonces and "" in nonces and any(n is not None and len(n) == 64 for n in nonces) and "-" in nonces and "_" in nonces
    pair = {tuple(v["nonces"]): v["seed"] for v in VECTORS if v["server_seed"] == "0123456789abcdef" * 4}
    assert pair[("ab", "")] != pair[("a", "b")], "the length prefix keeps the nonces apart"
    absent = {v["seed"] for v in VECTORS if v["server_seed"] == "00" * 32 and all(not n for n in v["nonces"])}
    assert len(absent) == 1, "no nonce and an empty nonce are the same"


def test_the_vector_games_log_verifies_and_its_replay_holds_each_rounds_deal():
    """The stored whole game: its log replays, and each round begins with the vector's hands (as faces, sorted) and face-up card."""
    log = GAME["log"]
    assert verify(log).ok
    ruleset = BOOK.get(log["ruleset"])
    state = new_game(ruleset, log["seed"], log["players"], HASH, Knobs.from_dict(log["knobs"]))
    seen = []
    for doc in log["moves"]:
        if not seen or seen[-1][0] != state.current.number:
            r = state.current
            seen.append((r.number, r.dealer, [sorted(map(face_of, hand)) for hand in r.hands], face_of(r.discard_pile[0])))
        state = apply(state, move_from_dict(doc), ruleset, HASH)
    assert seen == [(v["number"], v["dealer"], [sorted(hand) for hand in v["hands"]], v["face_up"]) for v in GAME["rounds"]]
    assert [v["number"] for v in GAME["rounds"]] == list(range(1, len(ruleset.rounds) + 1))


# --- nonces, commitments, seeds -----------------------------------------------------------------------------------


@pytest.mark.parametrize("nonce", ["a", "Z", "0", "-", "_", "a" * 64, "Alice-2026_x"])
def test_a_nonce_of_up_to_64_safe_characters_is_taken_as_it_is(nonce):
    assert check_nonce(nonce) == nonce


def test_an_absent_nonce_is_empty():
    assert check_nonce(None) == "" == check_nonce("")


@pytest.mark.parametrize("nonce", ["a" * 65, "a b", "é", "a.b", "a/b", "ａ", "a\n", 7, b"ab"])
def test_a_malformed_nonce_is_refused_naming_the_field(nonce):
    with pytest.raises(FairnessError) as refused:
        check_nonce(nonce)
    assert refused.value.field == "nonce"
    assert isinstance(refused.value, ValueError)


@pytest.mark.parametrize("seed", ["00" * 31, "0A" * 32, "g" * 64, None])
def test_a_malformed_server_seed_is_refused_naming_the_field(seed):
    for call in (lambda: commitment(seed), lambda: game_seed(seed, [""])):
        with pytest.raises(FairnessError) as refused:
            call()
        assert refused.value.field == "server_seed"


def test_the_seed_depends_on_every_nonce_their_order_and_the_seat_count():
    seeds = {game_seed(SERVER_SEED, nonces) for nonces in (["a", "b"], ["b", "a"], ["a", "c"], ["a", "b", ""], ["ab", ""], ["", "ab"], ["a"], ["", ""], [""])}
    assert len(seeds) == 9
    assert game_seed(SERVER_SEED, ["a", "b"]) != game_seed("9f" + SERVER_SEED[2:], ["a", "b"])


def test_commitment_seed_and_events_commitment_are_in_separate_domains():
    from wordsvc.core.deal import commitment as event_commitment

    assert len({commitment(SERVER_SEED), game_seed(SERVER_SEED, []), event_commitment(SERVER_SEED)}) == 3


def test_a_list_of_nonces_is_required():
    with pytest.raises(FairnessError) as refused:
        game_seed(SERVER_SEED, "ab")
    assert refused.value.field == "nonces"


def test_check_reveal_names_what_does_not_hold():
    nonces = ["x", ""]
    seed = game_seed(SERVER_SEED, nonces)
    assert check_reveal(commitment(SERVER_SEED), SERVER_SEED, nonces, seed) == []
    assert [p.split(":")[0] for p in check_reveal("0" * 64, SERVER_SEED, nonces, seed)] == ["commitment"]
    assert [p.split(":")[0] for p in check_reveal(commitment(SERVER_SEED), SERVER_SEED, ["y", ""], seed)] == ["seed"]
    assert [p.split(":")[0] for p in check_reveal(commitment(SERVER_SEED), SERVER_SEED, ["x y", ""], seed)] == ["nonce"]
    assert [p.split(":")[0] for p in check_reveal(commitment(SERVER_SEED), "nope", nonces, seed)] == ["server_seed"]


# --- whole games and their logs -----------------------------------------------------------------------------------


def play(ruleset: Ruleset, nonces: list[str | None], rng: random.Random, knobs: Knobs | None = None) -> tuple[GameState, list[Move], list[GameState]]:
    """A whole game of random legal moves dealt from the derived seed: the final state, the moves, the state at each round's start."""
    seed = game_seed(SERVER_SEED, nonces)
    state = new_game(ruleset, seed, [f"P{i}" for i in range(len(nonces))], HASH, knobs)
    player = RandomPlayer(ruleset, HASH, rng)
    moves: list[Move] = []
    starts = [state]
    while not state.over:
        number = state.current.number
        move = player.move(state)
        state = apply(state, move, ruleset, HASH)
        moves.append(move)
        if not state.over and state.current.number != number:
            starts.append(state)
    return state, moves, starts


def log_of(ruleset: Ruleset, nonces: list[str | None], rng: random.Random, knobs: Knobs | None = None) -> tuple[dict[str, Any], list[GameState]]:
    state, moves, starts = play(ruleset, nonces, rng, knobs)
    log = game_log(state, moves, ruleset, commitment=commitment(SERVER_SEED), server_seed=SERVER_SEED, nonces=nonces)
    return json.loads(json.dumps(log)), starts  # as a reader gets it: through JSON


def verify(log: dict[str, Any]):
    return verify_log(log, lambda rid: BOOK.get(rid) if rid in BOOK.rulesets else None, lambda stamp: HASH if dict(stamp) == HASH.info.stamp() else None)


@pytest.fixture(scope="module")
def game() -> tuple[dict[str, Any], list[GameState]]:
    return log_of(BOOK.get("standard"), ["Alice-1", None, "zz"], random.Random(52))


def test_a_random_games_log_has_the_documented_fields(game):
    log, starts = game
    assert list(log) == [
        "format",
        "ruleset",
        "lexicon",
        "players",
        "knobs",
        "commitment",
        "server_seed",
        "nonces",
        "seed",
        "moves",
        "rounds",
        "totals",
        "digest",
    ]
    assert log["format"] == "wordsvc-game-log-1"
    assert log["nonces"] == ["Alice-1", "", "zz"]
    assert log["lexicon"] == HASH.info.stamp()
    assert [r["number"] for r in log["rounds"]] == list(range(1, 9)) == [s.current.number for s in starts]
    assert log["totals"] == [sum(r["totals"][seat] for r in log["rounds"]) for seat in range(3)]


@pytest.mark.parametrize("ruleset_id", ["standard", "junior-rules", "challenge", "islenska"])
def test_a_random_games_log_verifies(ruleset_id):
    log, _ = log_of(BOOK.get(ruleset_id), ["n1", "", "n-3"][: 2 + (ruleset_id != "challenge")], random.Random(ruleset_id))
    report = verify(log)
    assert report.ok, report.problem
    assert (report.moves, report.rounds) == (len(log["moves"]), len(BOOK.get(ruleset_id).rounds))
    assert report.line().startswith("ok:")


def test_a_log_under_the_draw_pile_knob_verifies():
    log, _ = log_of(BOOK.get("junior-rules"), ["a", "b"], random.Random(7), Knobs(draw_pile_out="end_round", discard_taken_card=False))
    assert verify(log).ok


def tampered(log: dict[str, Any], change) -> dict[str, Any]:
    out = copy.deepcopy(log)
    change(out)
    return out


@pytest.mark.parametrize(
    ("change", "first_word"),
    [
        (lambda log: log.update(server_seed="9f" + log["server_seed"][2:]), "commitment"),
        (lambda log: log.update(commitment="0" * 64), "commitment"),
        (lambda log: log["nonces"].__setitem__(0, "Alice-2"), "seed"),
        (lambda log: log["nonces"].__setitem__(1, "x"), "seed"),
        (lambda log: log.update(nonces=log["nonces"][:2]), "seed"),
        (lambda log: log.update(seed=game_seed(SERVER_SEED, ["x", "", "zz"])), "seed"),
        (lambda log: log["rounds"][3].update(deal_digest="0" * 64), "round 4"),
        (lambda log: log["rounds"][2]["totals"].__setitem__(0, log["rounds"][2]["totals"][0] + 1), "round 3"),
        (lambda log: log["totals"].__setitem__(1, log["totals"][1] - 1), "totals"),
        (lambda log: log.update(digest="0" * 64), "digest"),
        (lambda log: log.update(rounds=log["rounds"][:-1]), "rounds"),
        (lambda log: log["moves"].pop(), "rounds"),
        (lambda log: log["moves"].__setitem__(4, {"kind": "draw"}), "move 4"),
        (lambda log: log.update(format="wordsvc-game-log-0"), "format"),
        (lambda log: log.pop("digest"), "digest"),
        (lambda log: log.update(ruleset="junior-rules"), "round 1"),  # another deck, another deal
        (lambda log: log.update(ruleset="no-such-rules"), "ruleset"),
        (lambda log: log["lexicon"].update(version="2"), "lexicon"),
        (lambda log: log["knobs"].update(draw_pile_out="sideways"), "setup"),
        (lambda log: log["knobs"].update(discard_taken_card=False), ("move", "digest")),  # a move refused, or another final state
    ],
)
def test_tampering_with_a_log_is_caught_and_named(game, change, first_word):
    report = verify(tampered(game[0], change))
    assert not report.ok
    assert report.problem.startswith(first_word if isinstance(first_word, tuple) else (first_word,)), report.problem
    assert report.line().startswith("FAILED: ")


def test_changing_any_move_is_caught(game):
    """A move changed for another (draw for take, another card discarded) is refused later or leaves other totals or another final state."""
    log = game[0]
    rng = random.Random(3)
    changed = 0
    for index in rng.sample(range(len(log["moves"])), 40):
        move = log["moves"][index]
        if move["kind"] in ("draw", "take"):
            other = {**move, "kind": "take" if move["kind"] == "draw" else "draw"}
        elif move["kind"] == "discard":
            other = {**move, "card": "e.1" if move["card"] != "e.1" else "a.1"}
        else:
            continue
        report = verify(tampered(log, lambda doc, i=index, m=other: doc["moves"].__setitem__(i, m)))
        assert not report.ok, (index, move, other)
        changed += 1
    assert changed >= 20


def test_a_ruleset_or_lexicon_not_at_hand_is_reported_not_passed(game):
    log = game[0]
    assert verify_log(log, lambda rid: None, lambda stamp: HASH).problem.startswith("ruleset 'standard' is not known here")
    assert "not available here" in verify_log(log, lambda rid: BOOK.get(rid), lambda stamp: None).problem


def test_a_log_that_would_not_verify_is_not_made():
    ruleset = BOOK.get("standard")
    nonces = ["a", "b"]
    state = new_game(ruleset, game_seed(SERVER_SEED, nonces), ["Ann", "Bob"], HASH)
    state2 = apply(state, Draw(1), ruleset, HASH)
    good = {"commitment": commitment(SERVER_SEED), "server_seed": SERVER_SEED, "nonces": nonces}
    assert game_log(state2, [Draw(1)], ruleset, **good)["moves"] == [move_to_dict(Draw(1))]
    with pytest.raises(ValueError, match="moves"):
        game_log(state2, [], ruleset, **good)
    with pytest.raises(ValueError, match="seed"):
        game_log(state2, [Draw(1)], ruleset, **{**good, "nonces": ["a", "c"]})
    with pytest.raises(ValueError, match="ruleset"):
        game_log(state2, [Draw(1)], BOOK.get("junior-rules"), **good)


def test_an_unfinished_games_log_replays_to_its_state():
    """A log may be made mid-game (the server publishes it only after the game): it replays, its finished rounds only listed."""
    ruleset = BOOK.get("standard")
    nonces = ["a", "b"]
    state = new_game(ruleset, game_seed(SERVER_SEED, nonces), ["Ann", "Bob"], HASH)
    moves: list[Move] = [Take(1), Discard(1, state.current.hands[1][0])]
    for move in moves:
        state = apply(state, move, ruleset, HASH)
    log = game_log(state, moves, ruleset, commitment=commitment(SERVER_SEED), server_seed=SERVER_SEED, nonces=nonces)
    assert log["rounds"] == [] and log["totals"] == [0, 0]
    assert verify(log).ok


# --- the JavaScript verifier --------------------------------------------------------------------------------------

# Reads [[module, name, ...args], ...] on stdin, calls that module's export, prints the answers as one JSON list.
DRIVER = """
import process from "node:process";
const modules = { verify: await import(process.argv[1]), deal: await import(process.argv[2]) };
let input = "";
for await (const chunk of process.stdin) input += chunk;
const answers = JSON.parse(input).map(([module, name, ...args]) => {
  try {
    return { ok: modules[module][name](...args) };
  } catch (err) {
    return { error: String(err && err.message) };
  }
});
process.stdout.write(JSON.stringify(answers));
"""


def js(calls: list[list[Any]]) -> list[dict[str, Any]]:
    """The answers of verify-seed.mjs and deal.mjs to ``calls``, from one node process; skipped visibly without node 18+."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not on PATH: the JavaScript verifier (examples/verify-seed.mjs) was not run")
    version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    if int(version.lstrip("v").split(".")[0] or 0) < 18:
        pytest.skip(f"node {version} is older than 18: the JavaScript verifier was not run")
    result = subprocess.run(
        [node, "--input-type=module", "-e", DRIVER, VERIFY_JS.as_uri(), DEAL_JS.as_uri()], input=json.dumps(calls), capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    answers = json.loads(result.stdout)
    assert len(answers) == len(calls)
    return answers


def deck_of(ruleset: Ruleset) -> dict[str, Any]:
    """The ruleset as verify-seed.mjs takes it, as ``GET /rulesets/{id}`` lists it: faces in upper case, with counts; the hand sizes."""
    return {"cards": [{"face": face.upper(), "count": card.count} for face, card in ruleset.deck.cards.items()], "handSizes": list(ruleset.rounds)}


def test_the_javascript_verifier_agrees_with_the_vectors():
    calls = []
    for v in VECTORS:
        ruleset = deck_of(BOOK.get(v["ruleset"]))
        calls += [
            ["verify", "commitment", v["server_seed"]],
            ["verify", "gameSeed", v["server_seed"], v["nonces"]],
            ["deal", "deal", {**ruleset, "players": len(v["nonces"]), "round": 1, "seed": v["seed"]}],
        ]
    answers = js(calls)
    for i, v in enumerate(VECTORS):
        made, seed, dealt = (a.get("ok") for a in answers[3 * i : 3 * i + 3])
        assert (made, seed) == (v["commitment"], v["seed"]), v["name"]
        assert (dealt["hands"], dealt["faceUp"], dealt["dealer"], dealt["digest"]) == (
            v["round_1"]["hands"],
            v["round_1"]["face_up"],
            v["round_1"]["dealer"],
            v["round_1"]["deal_digest"],
        )


def test_the_javascript_verifier_deals_the_vector_games_rounds():
    (report,) = js([["verify", "verifyLog", GAME["log"], deck_of(BOOK.get(GAME["log"]["ruleset"]))]])
    assert report["ok"]["ok"], report
    dealt = [{"number": r["number"], "dealer": r["dealer"], "hands": r["hands"], "face_up": r["faceUp"]} for r in report["ok"]["rounds"]]
    assert dealt == GAME["rounds"]


def test_the_javascript_verifier_refuses_malformed_nonces_and_seeds():
    answers = js(
        [
            ["verify", "gameSeed", SERVER_SEED, ["a" * 65]],
            ["verify", "gameSeed", SERVER_SEED, ["é"]],
            ["verify", "commitment", "0A" * 32],
            ["verify", "checkNonce", None],
        ]
    )
    assert ["error" in a for a in answers] == [True, True, True, False]
    assert answers[3]["ok"] == ""


def test_the_javascript_verifier_deals_every_round_of_a_random_game_as_the_engine_did(game):
    log, starts = game
    ruleset = deck_of(BOOK.get("standard"))
    bad_seed = tampered(log, lambda doc: doc.update(server_seed="9f" + doc["server_seed"][2:]))
    bad_nonce = tampered(log, lambda doc: doc["nonces"].__setitem__(2, "zy"))
    bad_deal = tampered(log, lambda doc: doc["rounds"][5].update(deal_digest="1" * 64))
    report, *bad = (a["ok"] for a in js([["verify", "verifyLog", doc, ruleset] for doc in (log, bad_seed, bad_nonce, bad_deal)]))
    assert report["ok"], report["problem"]
    assert report["seed"] == log["seed"]
    for dealt, start in zip(report["rounds"], starts, strict=True):
        r = start.current
        assert dealt["number"] == r.number and dealt["dealer"] == r.dealer
        assert [sorted(hand) for hand in dealt["hands"]] == [sorted(map(face_of, hand)) for hand in r.hands]
        assert dealt["faceUp"] == face_of(r.discard_pile[0])
    assert [(b["ok"], b["problem"].split(":")[0]) for b in bad] == [(False, "commitment"), (False, "seed"), (False, "round 6")]


@pytest.mark.parametrize(
    "change",
    [
        lambda log: log["nonces"].__setitem__(0, 7),
        lambda log: log.update(players=[{"name": "A"}, {"name": "B"}, {"name": "C"}]),
        lambda log: log.update(players=[]),
        lambda log: log["moves"].__setitem__(0, ["draw", 0]),
        lambda log: log["moves"].__setitem__(0, {"kind": "draw", "seat": 99}),
        lambda log: log["rounds"].__setitem__(0, "round 1"),
        lambda log: log.update(knobs={"draw_pile_out": 5}),
        lambda log: log.update(lexicon={}),
        lambda log: log.update(seed="not hex"),
        lambda log: log.update(totals="all of them"),
    ],
)
def test_a_malformed_log_is_a_report_never_an_exception(game, change):
    report = verify(tampered(game[0], change))
    assert not report.ok and report.problem


@pytest.mark.parametrize("document", [None, [], "log", 52, {}])
def test_a_document_that_is_no_log_is_a_report(document):
    assert not verify(document).ok
