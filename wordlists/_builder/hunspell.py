"""Expand a hunspell dictionary (``.dic`` + ``.aff``) into its word forms, in pure Python.

Contract: :func:`read_affixes` reads the affix rules of an ``.aff`` file,
:func:`read_dictionary` the stems and their flags of a ``.dic`` file, and
:func:`expand` gives the forms one stem stands for: the stem itself (unless
a flag says it is no word alone), each suffix, each suffix on a suffix (the
continuation flags of a rule: ``canción/S`` is ``canción``, ``canciones``),
each prefix, and a prefix on a suffixed form where both allow the cross
product. Sets only, so the caller decides the order; the same files give the
same forms.

Why not hunspell's ``unmunch``: on the Spanish dictionary (``FLAG UTF-8``,
flags such as ``À`` that are two bytes in UTF-8) it silently skips rules:
``asociar/...A`` should give ``asociación``, and unmunch 1.7 gives neither
it nor ``abdicación`` (wordlists/es/README.md). Compounding
(``COMPOUNDBEGIN`` and friends) is not expanded: a word list holds the
dictionary's forms, not the compounds a spell checker would also accept.

Used by the Spanish builder (``wordlists/es/build_es.py``) and the German one
(``wordlists/de/build_de.py``): one expander, in the builders' kit. Standard
library only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Affixes", "Rule", "expand", "read_affixes", "read_dictionary"]

#: Directives whose flag changes whether a stem or a form is a word of its own.
_SPECIAL = ("NEEDAFFIX", "ONLYINCOMPOUND", "FORBIDDENWORD", "CIRCUMFIX")


@dataclass(frozen=True)
class Rule:
    """One ``PFX``/``SFX`` line: take ``strip`` off, put ``add`` on, where ``condition`` matches the stem."""

    prefix: bool
    flag: str
    cross: bool
    strip: str
    add: str
    continuation: str
    condition: re.Pattern[str]

    def apply(self, word: str) -> str | None:
        """The form this rule makes of ``word``, or ``None`` when it does not apply."""
        if not self.condition.search(word):
            return None
        if self.prefix:
            if not word.startswith(self.strip) or len(self.strip) >= len(word):
                return None
            return self.add + word[len(self.strip) :]
        if not word.endswith(self.strip) or len(self.strip) >= len(word):
            return None
        return word[: len(word) - len(self.strip)] + self.add


@dataclass
class Affixes:
    """The rules of an ``.aff`` file by flag, its encoding and its special flags."""

    encoding: str = "ISO8859-1"
    prefixes: dict[str, list[Rule]] = field(default_factory=dict)
    suffixes: dict[str, list[Rule]] = field(default_factory=dict)
    special: dict[str, str] = field(default_factory=dict)  # directive -> flag


def _condition(text: str, prefix: bool) -> re.Pattern[str]:
    """A hunspell condition (``.``, letters, ``[...]``, ``[^...]``) as a regex anchored at the affix's end of the stem."""
    if text == ".":
        return re.compile("")
    return re.compile(f"^{text}" if prefix else f"{text}$")


def read_affixes(path: Path) -> Affixes:
    """The affix rules of ``path``; ``ValueError`` for a flag type other than single characters (``FLAG long``/``num``)."""
    raw = path.read_bytes()
    affixes = Affixes()
    for line in raw.decode("latin-1").splitlines():
        if line.startswith("SET "):
            affixes.encoding = line.split()[1]
            break
    cross: dict[str, bool] = {}
    for number, line in enumerate(raw.decode(affixes.encoding).splitlines(), 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if fields[0] == "FLAG" and fields[1] not in ("UTF-8", "char"):
            raise ValueError(f"{path}:{number}: FLAG {fields[1]} is not supported (single-character flags only)")
        if fields[0] in _SPECIAL and len(fields) > 1:
            affixes.special[fields[0]] = fields[1]
        if fields[0] not in ("PFX", "SFX") or len(fields) < 4:
            continue
        kind, flag = fields[0], fields[1]
        if fields[2] in ("Y", "N") and fields[3].isdigit() and flag not in cross:
            cross[flag] = fields[2] == "Y"  # the header of a rule table
            continue
        add, _, continuation = fields[3].partition("/")
        rule = Rule(
            prefix=kind == "PFX",
            flag=flag,
            cross=cross.get(flag, False),
            strip="" if fields[2] == "0" else fields[2],
            add="" if add == "0" else add,
            continuation=continuation,
            condition=_condition(fields[4] if len(fields) > 4 else ".", kind == "PFX"),
        )
        (affixes.prefixes if rule.prefix else affixes.suffixes).setdefault(flag, []).append(rule)
    return affixes


def read_dictionary(path: Path, encoding: str) -> Iterator[tuple[str, str]]:
    """``(stem, flags)`` of every entry of a ``.dic`` file (its first line, the count, skipped; morphology fields dropped)."""
    lines = path.read_text(encoding=encoding).splitlines()
    for line in lines[1:]:
        entry = line.split("\t", 1)[0].strip()
        if not entry or entry.startswith("#"):
            continue
        stem, _, flags = entry.partition("/")
        yield stem, flags


def expand(stem: str, flags: str, affixes: Affixes, prefixes: bool = True) -> set[str]:
    """Every form ``stem`` with ``flags`` stands for (see the module docstring); ``prefixes=False`` leaves prefixes out."""
    special = affixes.special
    no_word = {special.get(name) for name in ("FORBIDDENWORD", "ONLYINCOMPOUND")} - {None}
    if no_word & set(flags):
        return set()
    circumfix = special.get("CIRCUMFIX")
    need_affix = special.get("NEEDAFFIX")
    forms = set() if need_affix and need_affix in flags else {stem}
    suffixed: list[tuple[str, Rule]] = []
    for rule in _rules(affixes.suffixes, flags):
        form = rule.apply(stem)
        if form is None or (circumfix and circumfix in rule.continuation):
            continue
        forms.add(form)
        suffixed.append((form, rule))
        for inner in _rules(affixes.suffixes, rule.continuation):
            twice = inner.apply(form)
            if twice is not None:
                forms.add(twice)
    if prefixes:
        for rule in _rules(affixes.prefixes, flags):
            form = rule.apply(stem)
            if form is not None:
                forms.add(form)
            if rule.cross:
                forms.update(f for f in (rule.apply(s) for s, r in suffixed if r.cross) if f is not None)
    return forms


def _rules(table: dict[str, list[Rule]], flags: Iterable[str]) -> Iterator[Rule]:
    for flag in flags:
        yield from table.get(flag, ())
