"""``wordsvc derive-deck``: write a language's deck YAML from its lexicon's letter frequencies.

The value scale is fitted to the English deck (``rulesets/decks/english.yaml``)
against English letter shares in the en-US lexicon, then applied to the
target language's shares (see :mod:`wordsvc.core.deckgen`). The YAML records
the lexicon, its sha256 and every parameter, so anyone can derive it again.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import yaml

from ..core.deckgen import fit_values, letter_stats, plan_deck
from ..core.lexicon import Lexicon
from ..core.text import normalize
from .rulesets import default_rulesets_dir

__all__ = ["ALPHABETS", "DECK_NAMES", "derive_deck", "ordinary_forms", "read_forms"]

#: The deck file each language's derived deck is written to.
DECK_NAMES = {"is": "islenska", "et": "eesti", "en-US": "english-derived"}

#: The letters of each language's deck (issue 4). English for the value fit.
ALPHABETS: dict[str, str] = {
    "en-US": "abcdefghijklmnopqrstuvwxyz",
    "is": "aábdðeéfghiíjklmnoóprstuúvxyýþæö",
    "et": "abdefghijklmnoprsšzžtuvõäöü",
}


def ordinary_forms(lexicon: Lexicon, forms: Iterable[str] | None = None) -> Iterator[str]:
    """Forms with an ordinary reading (no class at all): the words a deck is for."""
    for form in forms if forms is not None else lexicon.forms():
        if frozenset() in lexicon.readings(form):
            yield form


def derive_deck(lang: str, lexicon: Lexicon, english: Lexicon, forms: Iterable[str] | None = None, source_note: str = "") -> str:
    """The deck YAML text for ``lang``; ``forms`` overrides the lexicon's own list."""
    english_deck = yaml.safe_load((default_rulesets_dir() / "decks" / "english.yaml").read_text(encoding="utf-8"))["cards"]
    english_stats = letter_stats(ordinary_forms(english), ALPHABETS["en-US"])
    total = sum(english_stats.letters.values())
    fit = fit_values({k: v / total for k, v in english_stats.letters.items()}, {k.lower(): v["value"] for k, v in english_deck.items() if len(k) == 1})
    stats = letter_stats(ordinary_forms(lexicon, forms), ALPHABETS[lang])
    plan = plan_deck(stats, ALPHABETS[lang], fit)
    info = lexicon.info
    doc = {
        "name": {"is": "Íslenska", "et": "Eesti", "en-US": "English (derived)"}.get(lang, lang),
        "description": f"118 cards derived from letter frequencies of the {info.id} lexicon by `wordsvc derive-deck --lang {lang}`.",
        "derivation": {
            "command": f"wordsvc derive-deck --lang {lang}",
            "lexicon": {"id": info.id, "version": info.version, "sha256": info.sha256},
            "word_source": source_note or f"every form of {info.id} with an ordinary reading, written wholly in the deck's letters",
            "words_counted": stats.words,
            "method": "doubles: the 5 most frequent letter pairs, 2 copies each; singles: 2 of each letter, the rest by letter share "
            "(largest remainders); value = a + b*ln(1/share), clamped to 2..15, a and b fitted to the English deck against "
            "en-US letter shares; a double is worth its letters' sum, at most 10",
            "value_fit": {"a": round(fit[0], 4), "b": round(fit[1], 4), "english_lexicon_sha256": english.info.sha256},
            "letter_shares": {ch: round(share, 5) for ch, share in plan.shares.items()},
        },
        "cards": {face.upper(): {"count": count, "value": value} for face, (count, value) in plan.cards.items()},
    }
    return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=120, default_flow_style=None)


def read_forms(path: str | Path) -> Iterator[str]:
    """Words from a plain list, one per line; a hunspell ``.dic`` works too (count line and /flags dropped)."""
    path = Path(path)
    encoding = "utf-8"
    aff = path.with_suffix(".aff")
    if path.suffix == ".dic" and aff.is_file():  # hunspell names its encoding in the .aff file's SET line
        for line in aff.read_text(encoding="latin-1").splitlines():
            if line.startswith("SET "):
                encoding = line.split()[1]
                break
    with path.open(encoding=encoding, errors="strict") as handle:
        for line in handle:
            word = line.split("/", 1)[0].strip()
            if word and not word.isdigit():
                yield normalize(word)
