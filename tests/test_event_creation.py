"""Who creates an event (WORDSVC_EVENT_CREATION, docs/operations.md) and the venue's address (WORDSVC_PUBLIC_URL, docs/venue.md).

On both back ends: events created without an admin token under the open
policy are counted in the ledger, refused past the limit with a stable code,
audited as the open creator and carried through export, import and
``verify``; an admin token is never counted. The settings are validated at
start with a clear message; the scorecards' QR codes and the pages'
configuration carry the public address.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from wordsvc.cli.serve import venue_notice
from wordsvc.config import Settings, SettingsError
from wordsvc.core import documents as docs
from wordsvc.core.documents.layout import Qr
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.data.rulesets import load_rulesets
from wordsvc.ledger import LOCAL, Forbidden, Ledger, Principal, Unauthorized

_ids = itertools.count()
LIMIT = 3


def _lexicon(lang: str = "en-US") -> MemoryLexicon:
    return MemoryLexicon({w: [()] for w in ("cat", "tea")}, LexiconInfo(id="en-US", lang="en-US", version="1", sha256="1" * 64, fold_diacritics=True))


@pytest.fixture(scope="module")
def ledger(database_url: str) -> Iterator[Ledger]:
    opened = Ledger.open(database_url, _lexicon)
    yield opened
    opened.close()


def _create(ledger: Ledger, actor: Principal | None, limit: int | None = LIMIT, **kwargs: object) -> dict:
    return ledger.events.create_event(actor, load_rulesets().get("standard"), _lexicon(), "Open night", f"open{next(_ids)}", open_limit=limit, **kwargs)  # type: ignore[arg-type]


def test_open_creation_is_counted_refused_past_the_limit_and_never_counts_an_admin(ledger: Ledger) -> None:
    with pytest.raises(Unauthorized):  # the admin policy: no token, no event
        _create(ledger, None, limit=None)
    first = _create(ledger, None, private=True)
    director = ledger.tokens.authenticate(first["director_token"]["token"])
    assert director.role == "director" and director.event == first["id"] and first["private"] is True  # the creator reads its own private event
    entries = ledger.trail.audit_entries(director, first["id"])["entries"]
    assert [(e["action"], e["actor"]) for e in entries[:2]] == [("event.created", {"token": "open", "role": "public"}), ("token.issued", {"token": "open", "role": "public"})]
    _create(ledger, director)  # another event's director creates as anyone does: counted
    _create(ledger, LOCAL)  # an admin: not counted
    _create(ledger, None)
    with pytest.raises(Forbidden) as refused:
        _create(ledger, None)
    assert refused.value.code == "open_events_exhausted" and list(refused.value.problems) == ["authorization"]
    assert "3 of 3" in refused.value.problems["authorization"][0]
    assert _create(ledger, LOCAL)["director_token"]["token"].startswith("wsv_")  # the admin token still creates past the limit


def test_the_limit_holds_when_creations_arrive_at_once(database_url: str) -> None:
    """Eight threads ask for an event at once against a limit of 2: exactly 2 are made (the count and the insert share one lock)."""
    ledger = Ledger.open(database_url, _lexicon)
    try:
        made_before = _open_count(ledger)
        results: list[str] = []

        def one() -> None:
            try:
                _create(ledger, None, limit=made_before + 2)
                results.append("made")
            except Forbidden:
                results.append("refused")

        threads = [threading.Thread(target=one) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(results) == ["made"] * 2 + ["refused"] * 6
    finally:
        ledger.close()


def _open_count(ledger: Ledger) -> int:
    from sqlalchemy import func, select

    from wordsvc.ledger._db.schema import audit

    with ledger.store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(audit).where(audit.c.action == "event.created", audit.c.actor_token == "open")).scalar_one()


def test_an_openly_created_event_survives_export_import_and_verify(ledger: Ledger, tmp_path: Path) -> None:
    created = ledger.events.create_event(None, load_rulesets().get("standard"), _lexicon(), "Carried", f"carried{next(_ids)}", open_limit=1000)
    director = ledger.tokens.authenticate(created["director_token"]["token"])
    ledger.games.put_game(director, created["id"], "t1", ["ann", "bob"])
    assert ledger.trail.verify(created["id"]) == []
    document = ledger.transfer.export(director, created["id"])
    elsewhere = Ledger.open(f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}", _lexicon)
    try:
        elsewhere.transfer.import_event(LOCAL, document)
        assert elsewhere.trail.verify(created["id"]) == []
        assert elsewhere.trail.audit_entries(None, created["id"])["entries"][0]["actor"] == {"token": "open", "role": "public"}
    finally:
        elsewhere.close()


# --- the settings -----------------------------------------------------------------------------------------


def test_event_creation_defaults_to_open_with_a_limit() -> None:
    settings = Settings.from_env({})
    assert (settings.event_creation, settings.open_events, settings.public_url) == ("open", 200, None)
    assert Settings.from_env({"WORDSVC_EVENT_CREATION": "admin"}).event_creation == "admin"


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("http://192.168.1.20:8000", "http://192.168.1.20:8000"),
        ("https://quiddler.example.org/", "https://quiddler.example.org"),
        ("http://[fd00::2]:8000", "http://[fd00::2]:8000"),
    ],
)
def test_a_public_url_is_kept_without_its_trailing_slash(given: str, kept: str) -> None:
    assert Settings.from_env({"WORDSVC_PUBLIC_URL": given}).public_url == kept


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("192.168.1.20:8000", "absolute http:// or https://"),
        ("ftp://example.org", "absolute http:// or https://"),
        ("http://", "absolute http:// or https://"),
        ("http://example.org/?a=1", "no query"),
        ("http://example.org/#x", "no query"),
        ("http://me:secret@example.org", "no user name or password"),
        ("http://example.org:99999", "must be a URL"),
        ("http://example.org /", "no spaces"),
        ("https://example.org/wordsvc", "no path"),
    ],
)
def test_a_public_url_that_is_not_one_stops_the_service_with_a_clear_message(given: str, says: str) -> None:
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"WORDSVC_PUBLIC_URL": given, "WORDSVC_EVENT_CREATION": "everyone", "WORDSVC_OPEN_EVENTS": "many"})
    message = str(refused.value)
    assert f"WORDSVC_PUBLIC_URL: {says}" in message or says in message.split("WORDSVC_PUBLIC_URL: ")[1]
    assert "WORDSVC_EVENT_CREATION: must be one of open, admin" in message and "WORDSVC_OPEN_EVENTS: must be a whole number" in message  # every problem at once


def test_serve_names_the_addresses_phones_can_use() -> None:
    everywhere = venue_notice("0.0.0.0", 8000, None, ["192.168.1.20", "fd00::2"])
    assert "http://192.168.1.20:8000/console" in everywhere and "http://[fd00::2]:8000/console" in everywhere and "WORDSVC_PUBLIC_URL" in everywhere
    here = venue_notice("127.0.0.1", 8000, None, ["192.168.1.20"])
    assert "http://127.0.0.1:8000/console" in here and "WORDSVC_HOST=0.0.0.0" in here and "192.168.1.20" not in here
    assert "Links, QR codes and printed scorecards use WORDSVC_PUBLIC_URL: https://q.example" in venue_notice("0.0.0.0", 8000, "https://q.example", [])


# --- the address in what is printed and served ------------------------------------------------------------


@pytest.fixture
def app_with_public_url(tmp_path: Path):
    from wordsvc.web.app import create_app

    env = {**os.environ, "WORDSVC_DATABASE_URL": f"sqlite:///{tmp_path / 'ledger.sqlite3'}", "WORDSVC_PUBLIC_URL": "http://192.0.2.7:8123/", "WORDSVC_LANGUAGES": "en-US"}
    return create_app(Settings.from_env(env))


def test_scorecards_and_pages_use_the_public_url(app_with_public_url, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    original = docs.scorecards_document

    def spy(event, tables, console_url, printed, session=None):
        document = original(event, tables, console_url, printed, session)
        seen.extend(block.url for block in document.blocks if isinstance(block, Qr))
        return document

    monkeypatch.setattr(docs, "scorecards_document", spy)
    client = app_with_public_url.test_client()
    created = client.post("/events", json={"name": "Harbour night", "id": "harbour"}, headers={"Host": "127.0.0.1:8000"})
    assert created.status_code == 201, created.get_json()
    director = created.get_json()["director_token"]["token"]
    assert client.put("/events/harbour/games/t1", json={"players": ["ann", "bob"]}, headers={"Authorization": f"Bearer {director}"}).status_code == 201
    printed = client.get("/events/harbour/documents/scorecards", headers={"Host": "127.0.0.1:8000"})
    assert printed.status_code == 200 and printed.mimetype == "application/pdf"
    assert seen == ["http://192.0.2.7:8123/console#event=harbour&table=t1"]  # never the address the request came in on
    page = client.get("/console").get_data(as_text=True)
    assert '"public_url": "http://192.0.2.7:8123"' in page and '"event_creation": "open"' in page
