"""A hosted game replayed move by move, GET .../play/replay?at=k (docs/play.md, "Replays"), on SQLite and PostgreSQL.

While the game is played a replay shows each viewer exactly what the live
table showed it (the same projection, byte for byte): a seat its own hand,
a spectator no hand. Once the game is over and its seed revealed, every hand
and the draw pile are shown.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests

from .conftest import LedgerServer
from .test_play import _create, _wait_over


@pytest.fixture
def client() -> Iterator[requests.Session]:
    with requests.Session() as opened:
        yield opened


def test_a_replay_shows_each_viewer_what_the_table_showed_it_and_every_card_once_the_game_is_over(ledger_server: LedgerServer, client: requests.Session) -> None:
    url = ledger_server.url
    table = _create(client, url, seats=2, bots=[{"seat": 1, "level": 2}])
    base = f"{url}/events/{table['event']}/games/table/play"
    ann = {"Authorization": f"Bearer {client.post(f'{base}/seats', json={'name': 'Ann'}).json()['token']}"}
    seen = client.get(base, headers=ann).json()["state"]
    at = seen["seq"]
    mine = client.get(f"{base}/replay", params={"at": at}, headers=ann).json()
    if mine["moves"] == at:  # nobody moved meanwhile: the replay is the live projection
        assert mine["state"] == seen
    assert "hand" in mine["state"]["round"] and mine["hands"] is None and mine["draw_pile"] is None
    dealt = client.get(f"{base}/replay", params={"at": 0}, headers=ann).json()["state"]
    assert dealt["seq"] == 0 and len(dealt["round"]["hand"]) == dealt["round"]["hand_size"]
    watched = client.get(f"{base}/replay", params={"at": 0}).json()
    assert "hand" not in watched["state"]["round"] and watched["hands"] is None and watched["state"]["viewer"] is None
    assert client.get(f"{base}/replay", params={"at": -1}).json()["code"] == "invalid_fields"
    assert client.get(f"{base}/replay", params={"at": "x"}).status_code == 422

    assert client.post(f"{base}/resign", headers=ann).status_code == 200  # the bots play it out
    over = _wait_over(client, base)
    shown = client.get(f"{base}/replay", params={"at": 0}).json()
    assert shown["hands"][0] == dealt["round"]["hand"]  # everything, once the seed is revealed
    assert [len(hand) for hand in shown["hands"]] == shown["state"]["round"]["hand_counts"]
    assert len(shown["draw_pile"]) == shown["state"]["round"]["draw_pile"]
    end = client.get(f"{base}/replay", params={"at": over["state"]["seq"]}).json()
    assert end["at"] == end["moves"] == over["state"]["seq"] and end["state"] == client.get(base).json()["state"]
