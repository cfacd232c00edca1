"""Deals by the q1 specification (docs/deals.md): the test vectors, the stream, rejection, the shuffle, the deal's layout.

``tests/deal_vectors.json`` holds deals (deal id -> cards) of several decks,
player counts and rounds; ``python tests/test_deal.py --write`` rebuilds it
(only when the specification's version changes: q1 deals never change).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from wordsvc.core.deal import DealError, _below, _stream, canonical_deck, commitment, deal, deal_digest, fingerprint, parse_seed, table_seed
from wordsvc.data.rulesets import load_rulesets

VECTORS = Path(__file__).with_name("deal_vectors.json")
CASES = [
    ("standard", 2, 1, "00" * 32),
    ("standard", 4, 1, "00" * 32),
    ("standard", 4, 2, "00" * 32),
    ("standard", 8, 8, "ff" * 32),
    ("standard", 5, 6, hashlib.sha256(b"wordsvc").hexdigest()),
    ("islenska", 3, 4, "0123456789abcdef" * 4),
    ("eesti", 6, 7, "fedcba9876543210" * 4),
    ("standard", 3, 3, table_seed("11" * 32, "t1")),
    ("standard", 3, 3, table_seed("11" * 32, None)),
    ("standard", 4, 1, table_seed("11" * 32, "s2-t3")),  # table 3 of a tournament's session 2 (docs/tournaments.md)
    ("standard", 2, 1, "608e3861e4aa5a94f91369477792567e6c09d55d1690b92f7799cefc7aebcaa5"),  # rejects one draw (x = 4294967286 below 79)
]


@pytest.fixture(scope="module")
def rulesets():
    return load_rulesets()


def vectors(rulesets) -> dict:
    out = []
    for ruleset_id, players, round_number, seed in CASES:
        dealt = deal(rulesets.get(ruleset_id), players, round_number, seed)
        out.append(
            {
                "deal_id": dealt.id,
                "ruleset": ruleset_id,
                "deck": canonical_deck(rulesets.get(ruleset_id).deck),
                "players": players,
                "round": round_number,
                "hand_size": rulesets.get(ruleset_id).hand_size(round_number),
                "seed": seed,
                "dealer": dealt.dealer,
                "hands": [list(h) for h in dealt.hands],
                "face_up": dealt.face_up,
                "draw_pile": list(dealt.draw_pile),
                "digest": dealt.digest(),
            }
        )
    stream = _stream(parse_seed("00" * 32), 1)
    first = [next(stream) for _ in range(16)]
    return {
        "spec": "q1",
        "stream": {"seed": "00" * 32, "round": 1, "first_uint32": first},
        "tables": {"event_seed": "11" * 32, "commitment": commitment("11" * 32), "t1": table_seed("11" * 32, "t1"), "s2-t3": table_seed("11" * 32, "s2-t3"), "duplicate": table_seed("11" * 32, None)},
        "deals": out,
    }


def test_the_vectors_in_the_repository_are_what_the_code_deals(rulesets) -> None:
    assert json.loads(VECTORS.read_text(encoding="utf-8")) == vectors(rulesets)


def test_the_stream_is_sha256_of_prefix_seed_round_and_counter() -> None:
    seed = bytes(range(32))
    block = hashlib.sha256(b"wordsvc-deal-q1\x00" + seed + (3).to_bytes(4, "big") + (1).to_bytes(8, "big")).digest()
    stream = _stream(seed, 3)
    values = [next(stream) for _ in range(16)]
    assert values[8:] == [int.from_bytes(block[i : i + 4], "big") for i in range(0, 32, 4)]


def test_drawing_rejects_the_top_of_the_range_instead_of_folding_it() -> None:
    n = 3  # 2^32 mod 3 = 1: the single value 2^32 - 1 must be rejected
    assert _below(iter([2**32 - 1, 7]), n) == 7 % 3
    assert _below(iter([2**32 - 2]), n) == (2**32 - 2) % 3
    stream = _stream(bytes(32), 1)
    assert Counter(_below(stream, 7) for _ in range(7000)).keys() == set(range(7))  # every value comes, none outside the range


def test_a_deal_lays_out_the_shuffled_deck_as_the_specification_says(rulesets) -> None:
    standard = rulesets.get("standard")
    dealt = deal(standard, 3, 2, "ab" * 32)
    hand = standard.hand_size(2)
    assert dealt.dealer == 1 and all(len(h) == hand for h in dealt.hands)
    every = [face for h in dealt.hands for face in h] + [dealt.face_up, *dealt.draw_pile]
    assert Counter(every) == Counter(canonical_deck(standard.deck))  # every card exactly once
    assert dealt.id == f"q1.{fingerprint(canonical_deck(standard.deck))}.3.{hand}.2.{'ab' * 32}"
    assert dealt.digest() == deal_digest(dealt.hands, dealt.face_up, dealt.draw_pile)
    from wordsvc.core.deal import shuffled

    order = shuffled(canonical_deck(standard.deck), parse_seed("ab" * 32), 2)
    assert dealt.hands[2][0] == order[0] and dealt.hands[0][0] == order[1] and dealt.face_up == order[3 * hand]


def test_the_canonical_order_sorts_faces_by_their_bytes(rulesets) -> None:
    cards = canonical_deck(rulesets.get("standard").deck)
    assert len(cards) == 118 and cards[:10] == ["a"] * 10 and cards.index("cl") == cards.index("c") + 2
    icelandic = list(dict.fromkeys(canonical_deck(rulesets.get("islenska").deck)))
    assert icelandic == sorted(icelandic, key=lambda f: f.encode("utf-8"))


def test_bad_input_names_its_field(rulesets) -> None:
    standard = rulesets.get("standard")
    for kwargs, field in [({"seed": "AB" * 32}, "seed"), ({"seed": "ab"}, "seed"), ({"round_number": 9}, "round"), ({"players": 9}, "players"), ({"players": 1}, "players")]:
        args = {"players": 2, "round_number": 1, "seed": "00" * 32, **kwargs}
        with pytest.raises(DealError) as err:
            deal(standard, **args)
        assert err.value.field == field


def test_every_seed_gives_another_deal_and_each_round_its_own(rulesets) -> None:
    standard = rulesets.get("standard")
    deals = {deal(standard, 4, r, f"{s:064x}").hands for s in range(20) for r in (1, 2)}
    assert len(deals) == 40


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    VECTORS.write_text(json.dumps(vectors(load_rulesets()), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {VECTORS}")
