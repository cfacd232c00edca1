"""Greedy clients: expensive requests past a worker's bound are refused (503, Retry-After), and health checks are answered beside them.

Also what ``/metrics`` says about it. Against the real server, with the
default bound (``WORDSVC_HEAVY_CONCURRENCY`` = 2 per worker, 2 workers).

Nothing here is timed. The clients go on until the server has refused some of
them and /health has been answered :data:`PROBES` times beside them; the
server's own count of refusals is the clients' count of 503s. That a refusal
comes at once, before the work it refuses, is counted in-process
(tests/test_admission.py); how long refusals and probes take under this load
is a figure of bench/resilience.py.
"""

from __future__ import annotations

import random
import threading

import requests

#: 20 cards of the English deck: /anagrams?all=true on them is one of the service's most expensive requests.
HEAVY = "/anagrams?cards=(qu)(th)(er)(in)(cl)aeiourstlnmdpgb&all=true"
CLIENTS = 16
PROBES = 20
#: Requests in all before the clients give up waiting for a refusal: a safety net (16 clients on 2 x 2 slots are refused within dozens).
ENOUGH = 20_000
PATIENCE = 60.0  # seconds any one request may take before the test gives up on it


def shed_total(base_url: str) -> float:
    """``wordsvc_requests_shed_total`` summed over endpoints and workers: the heavy requests the server refused."""
    text = requests.get(f"{base_url}/metrics", timeout=PATIENCE).text
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith("wordsvc_requests_shed_total{"))


def test_sixteen_greedy_clients_get_503s_and_health_answers_beside_them(base_url):
    before = shed_total(base_url)
    statuses: list[int] = []
    refusals: list[requests.Response] = []
    done = threading.Event()  # the probes are answered: the clients stop
    refused = threading.Condition()

    def greedy(seed: int) -> None:
        rng = random.Random(seed)
        with requests.Session() as session:
            while not done.is_set() and len(statuses) < ENOUGH:
                if rng.random() < 0.5:
                    hand = "".join(rng.sample("aeiourstlnmdpgbcfhkwy", 10)) + "(qu)"
                    response = session.post(f"{base_url}/best-meld", json={"hand": hand, "discard": True, "top": 3}, timeout=PATIENCE)
                else:
                    response = session.get(f"{base_url}{HEAVY}", timeout=PATIENCE)
                with refused:
                    statuses.append(response.status_code)
                    if response.status_code == 503:
                        refusals.append(response)
                        refused.notify_all()
        with refused:
            refused.notify_all()  # this client gave up: the test need not wait for it

    threads = [threading.Thread(target=greedy, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    try:
        with refused:  # the workers are full once one is refused: then probe, while the clients go on
            refused.wait_for(lambda: refusals or len(statuses) >= ENOUGH or not any(t.is_alive() for t in threads))
        health = [requests.get(f"{base_url}/health", timeout=PATIENCE).status_code for _ in range(PROBES)]
    finally:
        done.set()
        for thread in threads:
            thread.join(PATIENCE)

    assert refusals, f"16 clients against 2 x 2 slots: some must be refused ({len(statuses)} requests, none refused)"
    assert health == [200] * PROBES  # answered beside the greedy clients, none of which had stopped
    assert set(statuses) <= {200, 503} and statuses.count(200) > 0
    for response in refusals[:20]:
        assert response.headers["Content-Type"].startswith("application/problem+json")
        assert int(response.headers["Retry-After"]) >= 1
    assert shed_total(base_url) - before == len(refusals)  # every 503 is one the server counted as shed, and no other


def test_metrics_count_requests_by_endpoint_and_name_the_lexicons(base_url):
    requests.get(f"{base_url}/validate?word=quiz", timeout=30)
    text = requests.get(f"{base_url}/metrics", timeout=30).text
    assert 'wordsvc_requests_total{endpoint="/validate",method="GET",status="200"}' in text
    assert "wordsvc_request_duration_seconds_bucket" in text
    assert 'wordsvc_lexicon_info{id="en-US"' in text
    assert "wordsvc_requests_in_flight" in text
    assert "wordsvc_cache_entries" in text
    assert 'wordsvc_server_gc_pause_seconds_count{generation="0"}' in text  # the workers' garbage collections, timed


def test_metrics_count_the_refused_and_the_servers_own_rejections(base_url):
    for _ in range(3):
        requests.post(f"{base_url}/validate", data=b"x" * 70_000, headers={"Content-Type": "application/json"}, timeout=30)
    text = requests.get(f"{base_url}/metrics", timeout=30).text
    assert 'wordsvc_server_rejected_total{reason="too_large"}' in text
