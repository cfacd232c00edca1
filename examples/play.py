"""Plays a whole hosted game of Quiddler against the server's bots, printing each round's scores.

    python examples/play.py http://127.0.0.1:8000 [--bots 1,4] [--name Ann]

It creates a casual table (``POST /tables``) with one seat for you and one
for each bot level given (1, the weakest, to 4), takes your seat with a
nonce of its own (so the server alone cannot choose the cards), then plays
your seat from what the server shows it (``GET .../play``, your hand and
everyone's counts) with the simplest legal strategy: draw, then discard the
first card of the hand; after someone went out, lay down nothing and
discard. It never goes out, so expect to lose: ``POST /best-meld`` tells a
better play. A move the server answers ``409 stale_move`` (another move came
first) is chosen again from a fresh read. At the end it checks that the
server seed it now reveals is the one the table committed to before you sat
down (docs/play.md, "Verifiable deals"). Standard library only, like any client;
exits 1 on an answer it did not expect.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import secrets
import sys
import time
import urllib.error
import urllib.request
from typing import Any

POLL_SECONDS = 0.1  # how often to look again while a bot is to move (the server's bots wait WORDSVC_BOT_DELAY_MS, 700 ms, before each move)
TIMEOUT = 30  # seconds for one request


class Server:
    """JSON over HTTP to one wordsvc, with a bearer token once a seat is taken."""

    def __init__(self, url: str) -> None:
        self.url, self.token = url.rstrip("/"), ""

    def call(self, method: str, path: str, body: object = None) -> tuple[int, Any]:
        """The status and the JSON body of the answer, a problem (4xx) included; anything else raises."""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as refused:
            if 400 <= refused.code < 500:
                return refused.code, json.load(refused)
            raise


def my_move(state: dict[str, Any]) -> dict[str, Any] | None:
    """The seat's move from its own view of the game, or ``None`` while another seat is to move."""
    seat, r = state["viewer"], state["round"]
    if r is None:
        return None
    if r["phase"] == "challenges":  # under a ruleset whose words stand unless challenged
        return None if r["passed"][seat] else {"kind": "pass"}
    if r["turn"] != seat:
        return None
    if r["phase"] == "lay":  # the draw pile ended the round: lay down what words you can
        return {"kind": "lay_down", "words": [], "discard": None}
    if r["phase"] == "draw":  # an empty draw pile is rebuilt from the discard pile, all but its top card
        return {"kind": "draw" if r["draw_pile"] > 0 or r["discard_pile"] > 1 else "take"}
    if r["out"] is not None:  # someone went out: this is your last turn
        return {"kind": "lay_down", "words": [], "discard": r["hand"][0]}
    return {"kind": "discard", "card": r["hand"][0]}


def expect(status: int, body: Any, wanted: int) -> Any:
    if status != wanted:
        sys.exit(f"unexpected answer {status}: {json.dumps(body)[:500]}")
    return body


def play(server: Server, name: str, levels: list[int]) -> None:
    bots = [{"seat": seat, "level": level} for seat, level in enumerate(levels, start=1)]
    table = expect(*server.call("POST", "/tables", {"seats": 1 + len(bots), "bots": bots, "name": f"{name} against the bots"}), 201)
    base = f"/events/{table['event']}/games/{table['game']}/play"
    print(f"table {table['event']}: commitment {table['commitment']}")
    seat = expect(*server.call("POST", f"{base}/seats", {"name": name, "nonce": secrets.token_hex(16)}), 201)
    server.token = seat["token"]  # the seat's token: shown once, it reads your hand and plays your moves
    state = expect(*server.call("GET", base), 200)["state"]
    print("players: " + ", ".join(state["players"]))
    shown = 0
    while True:
        for scored in state["rounds"][shown:]:
            print(f"round {scored['number']}: " + ", ".join(f"{p} {t}" for p, t in zip(state["players"], scored["totals"], strict=True)))
        shown = len(state["rounds"])
        if state["over"]:
            break
        move = my_move(state)
        if move is None:
            time.sleep(POLL_SECONDS)
        else:
            status, answer = server.call("POST", f"{base}/moves", {"seq": state["seq"], "move_id": f"move-{state['seq']}", "move": move})
            if status == 200:
                state = answer["state"]
                continue
            if answer.get("code") != "stale_move":  # stale: a move came first; choose again from a fresh read
                expect(status, answer, 200)
        state = expect(*server.call("GET", base), 200)["state"]

    print("total: " + ", ".join(f"{p} {t}" for p, t in zip(state["players"], state["totals"], strict=True)))
    final = expect(*server.call("GET", base), 200)
    committed = hashlib.sha256(b"wordsvc-commit-p1\x00" + bytes.fromhex(final["server_seed"])).hexdigest()
    if committed != table["commitment"]:
        sys.exit(f"the revealed server seed {final['server_seed']} is not the one committed to")
    print(f"server seed {final['server_seed']}: the one committed to; the whole game log is GET {base}/log")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("url", help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--bots", default="1,4", help="the bots' levels, 1 (weakest) to 4, one seat each (default: 1,4)")
    parser.add_argument("--name", default="Ann", help="your name at the table")
    args = parser.parse_args(argv)
    try:
        levels = [int(level) for level in args.bots.split(",")]
    except ValueError:
        parser.error("--bots takes levels separated by commas, e.g. 1,4")
    play(Server(args.url), args.name, levels)


if __name__ == "__main__":
    main()
