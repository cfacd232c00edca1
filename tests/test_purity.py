"""The core is pure: importing every module of ``wordsvc.core`` loads no web, schema, search or YAML library."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import wordsvc.core

FORBIDDEN = ("flask", "marshmallow", "whoosh", "yaml", "marisa_trie")

PROBE = """
import importlib, json, pkgutil, sys
import wordsvc.core
names = sorted(m.name for m in pkgutil.iter_modules(wordsvc.core.__path__, "wordsvc.core."))
for name in names:
    importlib.import_module(name)
print(json.dumps({"modules": names, "loaded": sorted({m.split(".")[0] for m in sys.modules})}))
"""


def test_core_has_the_expected_modules():
    names = {m.name for m in pkgutil.iter_modules(wordsvc.core.__path__)}
    assert {"cards", "text", "lexicon", "verdict", "ruleset", "scoring", "game", "errors"} <= names


def test_importing_every_core_module_loads_no_heavy_dependency():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60)
    report = json.loads(out.stdout)
    assert len(report["modules"]) >= 9
    assert [name for name in FORBIDDEN if name in report["loaded"]] == []
