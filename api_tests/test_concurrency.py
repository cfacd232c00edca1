"""Many clients at once: every request answered, none dropped (a tiny version of the load run)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import requests

ROUND = {
    "round": 8,
    "players": [
        {"name": "ann", "words": [["CL", "O", "TH"], ["M", "U", "N", "G"], ["P", "IN", "Y"]], "went_out": True},
        {"name": "bob", "words": [["T", "O", "P"]], "unused": list("AEIOUDS")},
    ],
}


def test_concurrent_requests_are_all_answered_correctly(base_url: str) -> None:
    def one(i: int) -> tuple[int, object]:
        if i % 2:
            response = requests.post(f"{base_url}/score-round", json=ROUND, timeout=20)
            return response.status_code, response.json()["players"][0]["total"]
        response = requests.get(f"{base_url}/validate", params={"word": "quiz"}, timeout=20)
        return response.status_code, response.json()["valid"]

    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(one, range(200)))
    assert all(status == 200 for status, _ in results)
    assert {value for i, (_, value) in enumerate(results) if i % 2} == {78}
    assert {value for i, (_, value) in enumerate(results) if not i % 2} == {True}
