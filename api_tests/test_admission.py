"""Greedy clients: expensive requests past a worker's bound are refused at once, and health checks never wait behind them.

Also what ``/metrics`` says about it. Against the real server, with the
default bound (``WORDSVC_HEAVY_CONCURRENCY`` = 2 per worker, 2 workers).
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import threading
import time

import requests

#: 20 cards of the English deck: /anagrams?all=true on them is one of the service's most expensive requests.
HEAVY = "/anagrams?cards=(qu)(th)(er)(in)(cl)aeiourstlnmdpgb&all=true"
CLIENTS = 16
SECONDS = 6.0

#: The health probe runs in a process of its own, so the load's client threads (and their GIL) do not slow it.
PROBE = """
import json, sys, time, urllib.request
url, seconds = sys.argv[1], float(sys.argv[2])
times, stop = [], time.monotonic() + seconds
while time.monotonic() < stop:
    started = time.perf_counter()
    with urllib.request.urlopen(url + "/health", timeout=5) as response:
        assert response.status == 200
    times.append(time.perf_counter() - started)
    time.sleep(0.05)
print(json.dumps(times))
"""


def test_sixteen_greedy_clients_get_quick_503s_and_health_stays_fast(base_url):
    statuses: list[int] = []
    refusals: list[requests.Response] = []
    served: list[float] = []
    stop = time.monotonic() + SECONDS
    lock = threading.Lock()

    def greedy(seed: int) -> None:
        rng = random.Random(seed)
        with requests.Session() as session:
            while time.monotonic() < stop:
                path = HEAVY if rng.random() < 0.5 else "/best-meld"
                if path == "/best-meld":
                    hand = "".join(rng.sample("aeiourstlnmdpgbcfhkwy", 10)) + "(qu)"
                    response = session.post(f"{base_url}/best-meld", json={"hand": hand, "discard": True, "top": 3}, timeout=30)
                else:
                    response = session.get(f"{base_url}{path}", timeout=30)
                with lock:
                    statuses.append(response.status_code)
                    if response.status_code == 503:
                        refusals.append(response)
                    else:
                        served.append(response.elapsed.total_seconds())

    threads = [threading.Thread(target=greedy, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)  # the load is on
    probe = subprocess.run([sys.executable, "-c", PROBE, base_url, str(SECONDS - 1.0)], capture_output=True, text=True, timeout=60)
    for thread in threads:
        thread.join()
    assert probe.returncode == 0, probe.stderr
    health = json.loads(probe.stdout)

    assert set(statuses) <= {200, 503} and statuses.count(200) > 0
    assert refusals, "16 clients against 2 x 2 slots: some must be refused"
    for response in refusals[:20]:
        assert response.headers["Content-Type"].startswith("application/problem+json")
        assert int(response.headers["Retry-After"]) >= 1
    # refused at once, not queued: a typical refusal takes less time than the slow tenth of the work it refuses (the served
    # median alone is no bar: repeated hands are answered from the solver's caches about as fast as a refusal)
    refused = statistics.median(r.elapsed.total_seconds() for r in refusals)
    slow = statistics.quantiles(served, n=10)[8]
    assert refused < slow, f"refusals take {refused * 1000:.0f} ms at the median, the slowest tenth of served requests from {slow * 1000:.0f} ms"
    p99 = statistics.quantiles(health, n=100)[98] if len(health) >= 2 else health[0]
    assert p99 <= 0.25, f"/health p99 {p99 * 1000:.0f} ms over {len(health)} probes"


def test_metrics_count_requests_by_endpoint_and_name_the_lexicons(base_url):
    requests.get(f"{base_url}/validate?word=quiz", timeout=10)
    text = requests.get(f"{base_url}/metrics", timeout=10).text
    assert 'wordsvc_requests_total{endpoint="/validate",method="GET",status="200"}' in text
    assert "wordsvc_request_duration_seconds_bucket" in text
    assert 'wordsvc_lexicon_info{id="en-US"' in text
    assert "wordsvc_requests_in_flight" in text
    assert "wordsvc_cache_entries" in text
    assert 'wordsvc_server_gc_pause_seconds_count{generation="0"}' in text  # the workers' garbage collections, timed


def test_metrics_count_the_refused_and_the_servers_own_rejections(base_url):
    for _ in range(3):
        requests.post(f"{base_url}/validate", data=b"x" * 70_000, headers={"Content-Type": "application/json"}, timeout=10)
    text = requests.get(f"{base_url}/metrics", timeout=10).text
    assert 'wordsvc_server_rejected_total{reason="too_large"}' in text
