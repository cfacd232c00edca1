"""Memory soak: a mixed load over every ruleset x language pair, and each worker's memory every minute.

Starts the server the way ``make serve`` does (``wordsvc serve --workers 2``
on a free port, after GET /ready answers 200: :func:`common.start_server`),
prints the cache budget the service logged as it loaded, reads the rulesets
(with their decks) and the languages from the API, then runs ``--clients`` client
threads for ``--minutes`` minutes. Each request picks a ruleset and a
language at random from all pairs, and one of (weights in :data:`MIX`):

- ``GET /validate`` of a word the run has seen answered (a best play's word,
  an anagram), of a misspelling of one, or of letters dealt at random;
- ``POST /score-round``: a legal round (2 to 4 players, one in a one-player ruleset, dealt from one deck,
  the round's hand size each; the first player lays a best play the run was
  answered for that pair, when it has one, the others lay runs of their cards);
- ``POST /best-meld``: a random hand dealt from the ruleset's deck, one round's
  size, drawn (``discard``) two times in five, ``top`` 3 one time in four;
- ``GET /anagrams`` of a dealt hand; ``GET /suggest`` of a seen word or a misspelling.

The workers are the server process's children (``/proc/<pid>/task/*/children``;
the server process itself when it has none). Every ``--every`` seconds (60)
each worker's resident set and private memory (``Private_Clean +
Private_Dirty`` of ``/proc/<pid>/smaps_rollup``; its anonymous part apart) are
printed against the first sample of the run and the budget
(``WORDSVC_MEMORY_BUDGET_MB``, as the server reads it), with the workers'
garbage collections since the last sample (``wordsvc_server_gc_pause_seconds``
of ``/metrics``: how many, how many took over 10 and over 50 ms of CPU, a
bound on the longest; a collection holds the worker's GIL, so nothing else
there answers meanwhile). At the end, one line a worker: private memory at
the start, half-way and the end, the growth over the first and the last half
in %, the peak, and whether it stayed under the budget; and the collections of
the whole run. Target (issue: memory grows): private memory under the budget
throughout and growing less than 5 % over the last half of 10 minutes.

A worker replaced during the run (a recycling backstop) shows as a new pid:
its figures start where it does.

Run: ``.venv/bin/python bench/soak.py [--minutes 10] [--clients 16] [--workers 2] [--every 60] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from common import start_server

from wordsvc.config import Settings

#: Relative weights of the request kinds.
MIX = {"validate": 30, "score-round": 20, "best-meld": 25, "anagrams": 15, "suggest": 10}
#: Seen words kept per language (the oldest are replaced at random past it).
WORDS_KEPT = 5000
MIB = 1024 * 1024
#: The fields of the ``memory_budget`` event the service logs as it sizes its caches
#: (wordsvc.service.Service.from_settings), in the JSON or the plain log format.
BUDGET_LOG = re.compile(r'loaded_bytes"?[=:]\s*(\w+).*?cache_bytes"?[=:]\s*(\d+)')


# ---------------------------------------------------------------- the server and its workers


def cache_budget_line(log: str) -> str:
    """The server's own account of its budget (logged by the service as it loads), if it gave one."""
    for line in log.splitlines():
        found = BUDGET_LOG.search(line)
        if found:
            loaded, caches = found.groups()
            loaded = f"{int(loaded) / MIB:.1f} MiB" if loaded.isdigit() else "not measured"
            return f"loaded service {loaded} private (measured in the master), caches share {int(caches) / MIB:.1f} MiB"
    return "the server logged no memory_budget event"


def children(pid: int) -> list[int]:
    """The direct children of ``pid``, read from /proc (no psutil)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            found += [int(x) for x in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
        except OSError:
            continue
    return sorted(set(found))


def memory(pid: int) -> tuple[int, int, int] | None:
    """(Rss, Private_Clean + Private_Dirty, Anonymous) of ``pid`` in bytes, from smaps_rollup; ``None`` if gone."""
    fields: dict[str, int] = {}
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        parts = rest.split()
        if len(parts) == 2 and parts[1] == "kB":
            fields[name] = int(parts[0]) * 1024
    return fields.get("Rss", 0), fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0), fields.get("Anonymous", 0)


# ---------------------------------------------------------------- the load


@dataclass
class Pair:
    ruleset: str
    lang: str
    deck: list[str]  # one entry per card
    rounds: list[int]
    players: tuple[int, int]
    bonus_choice: bool


@dataclass
class Seen:
    """What the answers taught the clients: words by language, best plays by pair (shared by the threads)."""

    words: dict[str, list[str]] = field(default_factory=dict)
    plays: dict[tuple[str, str, int], tuple[list[list[str]], list[str]]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add_words(self, lang: str, words: list[str], rng: random.Random) -> None:
        with self.lock:
            kept = self.words.setdefault(lang, [])
            for word in words:
                if len(kept) < WORDS_KEPT:
                    kept.append(word)
                else:
                    kept[rng.randrange(WORDS_KEPT)] = word

    def word(self, lang: str, rng: random.Random) -> str | None:
        with self.lock:
            kept = self.words.get(lang)
            return rng.choice(kept) if kept else None


def misspell(word: str, rng: random.Random) -> str:
    """One random edit of ``word``: a letter dropped, doubled or two swapped."""
    if len(word) < 3:
        return word + word[-1:]
    i = rng.randrange(len(word) - 1)
    edit = rng.randrange(3)
    if edit == 0:
        return word[:i] + word[i + 1 :]
    if edit == 1:
        return word[: i + 1] + word[i:]
    return word[:i] + word[i + 1] + word[i] + word[i + 2 :]


class Client(threading.Thread):
    def __init__(self, port: int, pairs: list[Pair], seen: Seen, until: float, seed: int):
        super().__init__(daemon=True)
        self.port, self.pairs, self.seen, self.until = port, pairs, seen, until
        self.rng = random.Random(seed)
        self.status: Counter[str] = Counter()
        self.conn: http.client.HTTPConnection | None = None

    def run(self) -> None:
        kinds, weights = list(MIX), list(MIX.values())
        while time.monotonic() < self.until:
            kind = self.rng.choices(kinds, weights)[0]
            pair = self.rng.choice(self.pairs)
            try:
                getattr(self, "do_" + kind.replace("-", "_"))(pair)
            except (OSError, http.client.HTTPException, ValueError):
                self.status[f"{kind} failed"] += 1
                self._close()

    # -- one request

    def request(self, kind: str, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if data is not None else {}
        for attempt in (1, 2):  # a kept-alive connection the server closed is retried once
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
            except (OSError, http.client.HTTPException):
                self._close()
                if attempt == 2:
                    raise
                continue
            if response.will_close:
                self._close()
            self.status[f"{kind} {response.status}"] += 1
            return json.loads(raw) if response.status == 200 else None
        return None

    def _close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    # -- the kinds

    def deal(self, pair: Pair, n: int, deck: list[str] | None = None) -> list[str]:
        return self.rng.sample(deck if deck is not None else pair.deck, n)

    def some_word(self, pair: Pair) -> str:
        word = self.seen.word(pair.lang, self.rng)
        roll = self.rng.random()
        if word is None or roll < 0.2:
            return "".join(self.deal(pair, self.rng.randint(2, 7)))
        return misspell(word, self.rng) if roll < 0.45 else word

    def do_validate(self, pair: Pair) -> None:
        query = {"word": self.some_word(pair), "ruleset": pair.ruleset, "lang": pair.lang}
        self.request("validate", "GET", "/validate?" + urlencode(query))

    def do_suggest(self, pair: Pair) -> None:
        query = {"word": self.some_word(pair), "ruleset": pair.ruleset, "lang": pair.lang}
        self.request("suggest", "GET", "/suggest?" + urlencode(query))

    def do_anagrams(self, pair: Pair) -> None:
        hand = self.deal(pair, self.rng.choice(pair.rounds))
        query = {"cards": ",".join(hand), "ruleset": pair.ruleset, "lang": pair.lang, "all": "true"}
        found = self.request("anagrams", "GET", "/anagrams?" + urlencode(query))
        if found:
            self.seen.add_words(pair.lang, [hit["word"] for hit in found["words"][:20]], self.rng)

    def do_best_meld(self, pair: Pair) -> None:
        size = self.rng.choice(pair.rounds)
        drawn = self.rng.random() < 0.4
        hand = self.deal(pair, size + drawn)
        body = {"hand": hand, "ruleset": pair.ruleset, "lang": pair.lang, "discard": drawn, "top": 3 if self.rng.random() < 0.25 else 0}
        found = self.request("best-meld", "POST", "/best-meld", body)
        if found:
            self.seen.add_words(pair.lang, [w["word"] for w in found["words"]], self.rng)
            if not drawn:
                with self.seen.lock:
                    self.seen.plays[(pair.ruleset, pair.lang, size)] = ([w["cards"] for w in found["words"]], found["unused"])

    def do_score_round(self, pair: Pair) -> None:
        number = self.rng.randrange(len(pair.rounds)) + 1
        size = pair.rounds[number - 1]
        low, high = pair.players
        count = self.rng.randint(min(max(2, low), high), min(4, high))  # 2 to 4, or what the ruleset seats (one: the daily puzzle)
        deck = list(pair.deck)
        players = []
        with self.seen.lock:
            known = self.seen.plays.get((pair.ruleset, pair.lang, size))
        if known is not None:
            words, unused = known
            for face in [f for w in words for f in w] + unused:
                deck.remove(face)  # the deck holds every card of a hand dealt from it
            players.append({"name": "P0", "words": words, "unused": unused})
        while len(players) < count:
            hand = self.deal(pair, size, deck)
            for face in hand:
                deck.remove(face)
            words, at = [], 0
            while at < size and self.rng.random() < 0.7:
                n = min(self.rng.randint(2, 5), size - at)
                words.append(hand[at : at + n])
                at += n
            players.append({"name": f"P{len(players)}", "words": words, "unused": hand[at:]})
        body: dict[str, Any] = {"ruleset": pair.ruleset, "lang": pair.lang, "round": number, "players": players}
        if pair.bonus_choice and count == 2:
            body["bonus_choice"] = "longest_word"
        self.request("score-round", "POST", "/score-round", body)


def read_pairs(port: int) -> list[Pair]:
    def get(path: str) -> Any:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", path)
        response = conn.getresponse()
        if response.status != 200:
            raise SystemExit(f"GET {path}: {response.status}")
        return json.loads(response.read())

    langs = [lang["id"] for lang in get("/languages")["languages"]]
    pairs = []
    for summary in get("/rulesets")["rulesets"]:
        detail = get(f"/rulesets/{summary['id']}")
        deck = [card["face"] for card in detail["deck"]["cards"] for _ in range(card["count"])]
        players = (detail["players"]["min"], detail["players"]["max"])
        choice = detail["bonuses"]["two_players"] == "choice"
        pairs += [Pair(summary["id"], lang, deck, detail["rounds"], players, choice) for lang in langs]
    return pairs


# ---------------------------------------------------------------- the report


def collections_by_bound(port: int) -> dict[float, float]:
    """The workers' garbage collections so far, from ``/metrics``: bucket bound (s) -> collections at most that long, all generations."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/metrics")
    text = conn.getresponse().read().decode()
    conn.close()
    found: dict[float, float] = {}
    for line in text.splitlines():
        if line.startswith("wordsvc_server_gc_pause_seconds_bucket{"):
            bound = line.split('le="', 1)[1].split('"', 1)[0]
            found[float(bound)] = found.get(float(bound), 0.0) + float(line.rsplit(" ", 1)[1])
    return found


def pauses(before: dict[float, float], after: dict[float, float]) -> str:
    """The collections between two readings: how many, how many took over 10 ms and over 50 ms, and a bound on the longest."""
    new = {bound: after[bound] - before.get(bound, 0.0) for bound in after}  # cumulative: collections of at most ``bound``
    total = new.get(float("inf"), 0.0)
    if not total:
        return "gc 0"
    longest = min((bound for bound, n in new.items() if n >= total), default=0.0)
    return f"gc {total:.0f}, over 10 ms {total - new.get(0.01, 0.0):.0f}, over 50 ms {total - new.get(0.05, 0.0):.0f}, longest <= {longest * 1000:g} ms"


def fmt(n: int) -> str:
    return f"{n / MIB:6.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--every", type=float, default=60.0, help="seconds between samples")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    budget = Settings.from_env().memory_budget_mb * MIB
    server = start_server(args.workers)
    port = server.port
    logged = cache_budget_line(server.log())  # now, while the log holds little more than the start (requests are logged too)
    try:
        pairs = read_pairs(port)
        workers = children(server.pid) or [server.pid]
        print(
            f"wordsvc memory soak: {args.workers} workers, {args.clients} client threads, {args.minutes:g} min, "
            f"{len(pairs)} ruleset x language pairs, budget {budget // MIB} MiB a worker (WORDSVC_MEMORY_BUDGET_MB), {os.cpu_count()} CPUs"
        )
        print(f"server: {logged}")
        print("each cell: RSS / private (Private_Clean+Private_Dirty) / anonymous, MiB; private vs the first sample in brackets")
        seen = Seen()
        start = time.monotonic()
        until = start + args.minutes * 60
        clients = [Client(port, pairs, seen, until, args.seed * 1000 + i) for i in range(args.clients)]
        samples: dict[int, list[tuple[float, int, int, int]]] = {}
        collected = [collections_by_bound(port)]  # the first reading, then the last

        def sample() -> None:
            now = time.monotonic() - start
            current = children(server.pid) or [server.pid]
            cells = []
            for pid in current:
                got = memory(pid)
                if got is None:
                    continue
                series = samples.setdefault(pid, [])
                series.append((now, *got))
                first = series[0][2]
                change = f"{(got[1] - first) / first:+.1%}" if first else "n/a"
                cells.append(f"{pid}: {fmt(got[0])} /{fmt(got[1])} /{fmt(got[2])} [{change:>7}]")
            reading = collections_by_bound(port)
            print(f"{now / 60:5.1f} min  " + "   ".join(cells) + "   " + pauses(collected[-1], reading), flush=True)
            collected[1:] = [reading]

        sample()
        for c in clients:
            c.start()
        next_at = start + args.every
        while time.monotonic() < until:
            time.sleep(max(0.0, min(next_at, until) - time.monotonic()))
            if time.monotonic() >= next_at - 0.01:
                sample()
                next_at += args.every
        for c in clients:
            c.join(timeout=120)
        sample()
        status: Counter[str] = Counter()
        for c in clients:
            status.update(c.status)
        total = sum(status.values())
        print(f"requests: {total} ({total / (args.minutes * 60):.0f}/s): " + ", ".join(f"{k} {v}" for k, v in sorted(status.items())))
        print(f"{'worker':>8} {'start':>7} {'half':>7} {'end':>7} {'1st half':>9} {'2nd half':>9} {'peak':>7}  under budget ({budget // MIB} MiB)")
        ok = True
        for pid, series in samples.items():
            if pid not in workers:
                print(f"{pid:>8} (a replacement worker, from {series[0][0] / 60:.1f} min)")
            begin, end = series[0], series[-1]
            middle_t = begin[0] + (end[0] - begin[0]) / 2
            middle = min(series, key=lambda s: abs(s[0] - middle_t))
            first = (middle[2] - begin[2]) / begin[2] if begin[2] else 0.0
            last = (end[2] - middle[2]) / middle[2] if middle[2] else 0.0
            peak = max(s[2] for s in series)
            under = peak < budget
            ok = ok and under and last < 0.05
            print(f"{pid:>8} {fmt(begin[2])} {fmt(middle[2])} {fmt(end[2])} {first:>+9.1%} {last:>+9.1%} {fmt(peak)}  {'yes' if under else 'NO'}")
        print(f"target (under the budget, last half < +5 %): {'met' if ok else 'MISSED'}")
        print(f"garbage collections over the run (CPU time each, while the worker answers nothing else): {pauses(collected[0], collected[-1])}")
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
