"""Unicode's confusables and scripts, for telling players' names apart (UTS #39), from the confusable_homoglyphs package.

Why this package: it ships Unicode's ``confusables.txt`` and script data
as JSON, maintained and used by account-registration code (django-registration
among others) for the same purpose, so wordsvc keeps no copy of Unicode's
tables of its own.

- :func:`skeleton`: UTS #39's skeleton of a text: NFD, then every character
  replaced by the one that stands for its confusables class. The package
  gives each character's homoglyphs; the classes are their connected
  groups, and a class stands for the member a reader is likeliest to mean:
  the longest (``rn`` for ``m``), then plain ASCII, then the smallest.
- :func:`mixed_script`: the scripts a name mixes that UTS #39's *highly
  restrictive* level does not allow together (Latin may go with Han and the
  Japanese or Korean scripts, Common and Inherited go with anything).
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import categories, confusables

__all__ = ["mixed_script", "skeleton"]

#: Scripts UTS #39's highly restrictive level lets one name mix (section 5.2), as the package names them.
_TOGETHER = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
_ANY = frozenset({"COMMON", "INHERITED"})


@functools.cache
def _classes() -> dict[str, str]:
    """Each confusable character -> the text that stands for its class."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for char, glyphs in confusables.confusables_data.items():
        for glyph in glyphs:
            a, b = find(char), find(glyph["c"].replace("\u200e", "").replace("\u200f", ""))
            if a != b:
                parent[a] = b
    members: dict[str, list[str]] = {}
    for text in list(parent):
        members.setdefault(find(text), []).append(text)
    standing: dict[str, str] = {}
    for group in members.values():
        rep = min(group, key=lambda t: (-len(t), not t.isascii(), t))
        for text in group:
            if len(text) == 1:
                standing[text] = rep
    return standing


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: equal for two texts a reader could take for one another."""
    table = _classes()
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text)))


def mixed_script(name: str) -> frozenset[str]:
    """The scripts ``name`` mixes that no highly restrictive name may (empty: it is fine)."""
    scripts = frozenset(categories.unique_aliases(name)) - _ANY
    if len(scripts) <= 1 or any(scripts <= together for together in _TOGETHER):
        return frozenset()
    return scripts
