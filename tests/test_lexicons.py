"""Compiling a word list a column at a time gives the files compiling it row by row gave, byte for byte."""

from __future__ import annotations

import gzip
import json
import random
from array import array
from pathlib import Path

import marisa_trie
import pytest

from wordsvc.core.lexicon import KNOWN_CLASSES, add_folded_forms
from wordsvc.core.text import normalize
from wordsvc.data.lexicons import LexiconFormatError, columns_of, compile_lexicon, read_wordlist, read_wordlist_columns

CLASSES = sorted(KNOWN_CLASSES)


def row_by_row(rows, fold: bool) -> tuple[bytes, bytes, bytes, list[list[list[str]]]]:
    """The compiler as it was, one row and one key at a time: the definition the files are held to."""
    readings: dict[str, set[frozenset[str]]] = {}
    ranks: dict[str, int] = {}
    for form, classes, rank in rows:
        key = normalize(form)
        readings.setdefault(key, set()).add(classes)
        if rank is not None:
            ranks[key] = min(rank, ranks.get(key, rank))
    if fold:
        add_folded_forms(readings)
    trie = marisa_trie.Trie(readings.keys())
    table: dict[tuple[tuple[str, ...], ...], int] = {}
    reading_ids = array("H", bytes(2 * len(trie)))
    rank_bytes = bytearray(len(trie))
    for key, key_id in trie.iteritems():
        reading_ids[key_id] = table.setdefault(tuple(sorted(tuple(sorted(c)) for c in readings[key])), len(table))
        rank_bytes[key_id] = min(ranks.get(key, 0), 255)
    return trie.tobytes(), reading_ids.tobytes(), bytes(rank_bytes), [[list(c) for c in combo] for combo in table]


def random_rows(seed: int, count: int) -> list[tuple[str, frozenset[str], int | None]]:
    """Forms that collide once normalized (case, decomposed accents, ligatures), fold, or repeat, with every kind of rank."""
    rng = random.Random(seed)
    stems = ["cafe", "café", "Cafe\u0301", "ﬁsh", "FISH", "straße", "STRASSE", "þórður", "don’t", "don't", "naïve", "a", "Ab", "hestur"]
    rows = []
    for _ in range(count):
        form = rng.choice(stems) + "".join(rng.choice("aeiouéðþ") for _ in range(rng.randint(0, 2)))
        classes = frozenset(rng.sample(CLASSES, rng.choice([0, 0, 0, 1, 2])))
        rank = rng.choice([None, None, 1, 2, 60, 254, 255, 256, 1000])
        rows.append((form, classes, rank))
    return rows


@pytest.mark.parametrize("fold", [False, True])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_compiled_files_are_those_the_row_by_row_compiler_made(tmp_path, seed, fold):
    rows = random_rows(seed, 3_000)
    compile_lexicon(iter(rows), tmp_path, {"id": "t", "lang": "t", "version": "1", "fold_diacritics": fold})
    trie, reading_ids, ranks, readings = row_by_row(rows, fold)
    assert (tmp_path / "forms.marisa").read_bytes() == trie
    assert (tmp_path / "readings.u16").read_bytes() == reading_ids
    assert (tmp_path / "ranks.u8").read_bytes() == ranks
    assert json.loads((tmp_path / "meta.json").read_text(encoding="utf-8"))["readings"] == readings


def test_rows_and_their_columns_compile_to_the_same_files(tmp_path):
    rows = random_rows(4, 2_000)
    meta = {"id": "t", "lang": "t", "version": "1", "fold_diacritics": True}
    first = compile_lexicon(iter(rows), tmp_path / "rows", meta)
    second = compile_lexicon(columns_of(rows), tmp_path / "columns", meta)
    assert first.sha256 == second.sha256
    assert compile_lexicon([], tmp_path / "empty", meta).entries == 0


def write_list(path: Path, body: str) -> Path:
    text = "# wordsvc word list v1\n# id: t\n# version: t-1\n# columns: form\tclasses\trank\n" + body
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    else:
        path.write_text(text, encoding="utf-8", newline="\n")
    return path


@pytest.mark.parametrize(
    "body",
    [
        "quiz\t\t10\nQuiz\tproper_noun\t\ncafé\t\t\n",
        "quiz\t\t10\nlast\t\t5",  # no newline at the end
        "quiz\t\t10\n# a comment among the rows\n\nzebra\t\t\n",  # read row by row
        "quiz\t\t 10\r\n  spaced \t\t\n\t\t\n",  # int() takes " 10\r"; a row of tabs only is blank
        "",
    ],
)
@pytest.mark.parametrize("suffix", [".tsv", ".tsv.gz"])
def test_bulk_reading_gives_the_rows_and_header_of_row_by_row_reading(tmp_path, body, suffix):
    path = write_list(tmp_path / f"list{suffix}", body)
    header, rows = read_wordlist(path)
    bulk_header, columns = read_wordlist_columns(path)
    assert bulk_header == header == {"id": "t", "version": "t-1", "columns": "form\tclasses\trank"}
    assert columns == columns_of(rows)


@pytest.mark.parametrize(
    ("body", "error", "message"),
    [
        ("quiz\t\t10\nbad\tnoun\t\n", LexiconFormatError, r"list\.tsv:6: unknown class \['noun'\]"),
        ("quiz\t\t10\nshort\t\n", LexiconFormatError, r"list\.tsv:6: expected 3 tab-separated columns"),
        ("quiz\t\tten\n", ValueError, "invalid literal"),
    ],
)
def test_a_bad_row_is_named_as_row_by_row_reading_names_it(tmp_path, body, error, message):
    path = write_list(tmp_path / "list.tsv", body)
    with pytest.raises(error, match=message):
        list(read_wordlist(path)[1])
    with pytest.raises(error, match=message):
        read_wordlist_columns(path)
