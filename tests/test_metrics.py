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
