"""Every generated word list keeps its bytes: rebuilt by its builder, its sha256 is the one its manifest records.

A list's bytes are what its lexicon is compiled from, so the same sha256
means the same deck of words (issue 50: the builders' plumbing moved into
``wordlists/_builder`` without a byte changing). The list ``wordsvc build``
wrote for the set-up is read where its stamp says this very builder and kit
wrote it (so the suite does not build each list twice); else the builder
runs as ``wordsvc build`` runs it (:func:`wordsvc.data.build.run_builder`),
into a temporary folder. A list is rebuilt where its Debian package is installed at
the version its manifest names (a list from no Debian package, the Icelandic
one, always: the lock pins islenska's version); elsewhere it skips, saying why. The
committed English lists are rebuilt by tests/test_english.py.
"""

from __future__ import annotations

import hashlib

import pytest

from wordsvc.data.build import builder_sha256, installed_version, run_builder
from wordsvc.data.languages import LANGUAGES, default_data_dir

BUILT = [lang for lang in LANGUAGES if lang.builder]

pytestmark = pytest.mark.slow  # rebuilt, the nine lists take some three minutes of CPU, the Polish and Icelandic ones most


def test_every_language_a_builder_writes_records_its_lists_sha256():
    assert BUILT and all(lang.list_sha256 and len(lang.list_sha256) == 64 for lang in BUILT), [lang.id for lang in BUILT if not lang.list_sha256]


@pytest.mark.parametrize("lang", BUILT, ids=lambda lang: lang.id)
def test_the_builder_writes_the_list_whose_sha256_the_manifest_records(lang, tmp_path):
    name, version = lang.package.get("name"), lang.package.get("version")
    if name:
        installed = installed_version(name)
        if installed != version:
            pytest.skip(f"the Debian package {name} {version} is not installed (found: {installed})")
    out = default_data_dir() / "sources" / f"{lang.id}.tsv.gz"
    stamp = out.with_name(out.name + ".builder-sha256")
    if not (out.is_file() and stamp.is_file() and stamp.read_text().strip() == builder_sha256(lang)):
        out = tmp_path / out.name
        run_builder(lang, out)
    assert hashlib.sha256(out.read_bytes()).hexdigest() == lang.list_sha256, (
        f"{lang.id}: the list's bytes changed; if its source or filter changed on purpose, record the new sha256 in wordlists/{lang.builder.split('/')[0]}/manifest.yaml"  # type: ignore[union-attr]
    )
