"""``/metrics`` stays small whatever clients send: every label comes from a closed set."""

from __future__ import annotations

import os
import random
import re
import string

from wordsvc.web.metrics import METHODS


def test_made_up_methods_are_counted_as_other_so_metrics_do_not_grow(tmp_path):
    from wordsvc.config import Settings
    from wordsvc.web.app import create_app

    settings = Settings.from_env({**os.environ, "WORDSVC_DATABASE_URL": f"sqlite:///{tmp_path / 'l.db'}", "WORDSVC_LANGUAGES": "en-US"})
    client = create_app(settings).test_client()
    rng = random.Random(5)
    before = len(client.get("/metrics").get_data())
    for _ in range(300):
        method = "".join(rng.choices(string.ascii_uppercase, k=rng.randint(3, 60)))
        assert client.open("/health", method=method).status_code == 405
    text = client.get("/metrics").get_data(as_text=True)
    methods = set(re.findall(r'^wordsvc_requests_total\{[^}]*method="([^"]*)"', text, re.MULTILINE))
    assert methods <= METHODS | {"other"} and "other" in methods
    assert len(text) - before < 20_000  # a few new series (other's counts and latencies), not 300


def test_running_out_of_file_descriptors_is_a_503_that_is_counted_never_a_500(tmp_path):
    import errno

    from wordsvc.config import Settings
    from wordsvc.web.app import create_app

    settings = Settings.from_env({**os.environ, "WORDSVC_DATABASE_URL": f"sqlite:///{tmp_path / 'l.db'}", "WORDSVC_LANGUAGES": "en-US"})
    app = create_app(settings)

    def opens_a_file() -> str:
        try:
            raise OSError(errno.EMFILE, "Too many open files")
        except OSError as err:
            raise RuntimeError("a library wrapped it") from err

    app.add_url_rule("/opens-a-file", view_func=opens_a_file)
    client = app.test_client()
    before = _out_of_descriptors(client.get("/metrics").get_data(as_text=True))
    response = client.get("/opens-a-file")
    assert response.status_code == 503 and response.headers["Retry-After"] == "1"
    assert "file descriptors" in response.get_json()["detail"]
    assert _out_of_descriptors(client.get("/metrics").get_data(as_text=True)) == before + 1


def test_an_index_that_cannot_be_opened_for_want_of_descriptors_is_not_reported_missing(monkeypatch):
    import errno
    from pathlib import Path

    import pytest

    from wordsvc.data.lexicons import CompiledLexicon
    from wordsvc.data.search_index import SearchIndex

    lexicon = CompiledLexicon(Path(__file__).resolve().parents[1] / "build" / "lexicons" / "en-US")
    real = Path.read_text

    def read_text(self, *args, **kwargs):
        if self.name == "meta.json" and self.parent.name == "search":
            raise OSError(errno.EMFILE, "Too many open files")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", read_text)
    with pytest.raises(OSError) as raised:
        SearchIndex(lexicon)
    assert raised.value.errno == errno.EMFILE  # not SearchIndexError's "run `wordsvc build`"


def _out_of_descriptors(metrics: str) -> float:
    line = next((line for line in metrics.splitlines() if line.startswith("wordsvc_out_of_descriptors_total ")), None)
    return float(line.split()[1]) if line else 0.0
