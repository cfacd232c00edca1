"""Work budgets: counted steps decide where an operation stops; the wall clock only refuses, never shortens, an answer."""

from __future__ import annotations

import os

import pytest

from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.work import SafetyLimit, Work


class SteppingClock:
    """A clock that moves only when told to: time under test control, not the machine's."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_budget_is_spent_when_its_units_are_counted_whatever_the_clock_says():
    clock = SteppingClock()
    work = Work(10, clock=clock)
    clock.now += 1e9  # no safety limit: the clock never matters
    assert [work.spend(4), work.spend(5), work.exhausted, work.spend(1), work.exhausted] == [False, False, False, True, True]
    assert work.spent == 10


def test_past_its_safety_limit_an_operation_raises_instead_of_answering():
    clock = SteppingClock()
    work = Work(1_000, safety=2.0, operation="words", clock=clock)
    work.spend(10)
    clock.now += 2.5
    with pytest.raises(SafetyLimit) as raised:
        work.spend(10)
    assert (raised.value.operation, raised.value.spent, raised.value.limit) == ("words", 20, 1_000)
    assert "2 s safety limit" in str(raised.value)


def test_a_budget_needs_a_unit():
    with pytest.raises(ValueError):
        Work(0)


@pytest.fixture
def tight_client(rulesets, tmp_path):
    """An app whose safety limit is a microsecond: any search that counts work runs past it."""
    from wordsvc.config import Settings
    from wordsvc.data.languages import Languages
    from wordsvc.service import Service
    from wordsvc.web.app import create_app

    memory = MemoryLexicon({w: [()] for w in ("quiz", "quit", "quite", "quiet", "it", "zit", "tea", "eat")}, LexiconInfo(
        id="mem", lang="en-US", version="1", sha256="2" * 64, fold_diacritics=True
    ))  # fmt: skip
    settings = Settings.from_env({**os.environ, "WORDSVC_WORK_SAFETY_SECONDS": "0.000001", "WORDSVC_DATABASE_URL": f"sqlite:///{tmp_path / 'l.db'}"})
    app = create_app(settings, Service(rulesets, Languages({"en-US": memory})))
    return app.test_client()


def test_a_search_past_the_safety_limit_is_a_503_logged_and_counted(tight_client, caplog):
    before = _safety_count(tight_client.get("/metrics").get_data(as_text=True), "words")
    with caplog.at_level("ERROR", logger="wordsvc"):
        response = tight_client.get("/words?pattern=*")
    assert response.status_code == 503 and response.mimetype == "application/problem+json"
    assert "safety limit" in response.get_json()["detail"]
    assert any(getattr(record, "event", "") == "work_safety_limit" for record in caplog.records)
    assert _safety_count(tight_client.get("/metrics").get_data(as_text=True), "words") == before + 1


def _safety_count(metrics: str, operation: str) -> float:
    for line in metrics.splitlines():
        if line.startswith(f'wordsvc_work_safety_limits_total{{operation="{operation}"}}'):
            return float(line.rsplit(" ", 1)[1])
    return 0.0
