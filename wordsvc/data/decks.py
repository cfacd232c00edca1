"""``wordsvc derive-deck``: write a language's deck YAML from its lexicon's letter frequencies.

The value scale is fitted to the English deck (``rulesets/decks/english.yaml``)
against English letter shares in the en-US lexicon, then applied to the
target language's shares (see :mod:`wordsvc.core.deckgen`). The YAML records
the lexicon, its sha256 and every parameter, so anyone can derive it again.

Each language's plan is its manifest's ``deck_plan`` (wordlists/<folder>/manifest.yaml):
the letters of its cards, and where the language has them as a unit, its
double cards with their counts and its value range, instead of the most
frequent pairs on the English scale (German follows the published facts of
the German edition of Quiddler: 118 cards, CH x2, ER x2, QU x1, values 2 to
9; Spanish lays CH, LL and RR, two of each as Quiddler gives its doubles).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..core.deckgen import fit_values, letter_stats, plan_deck
from ..core.lexicon import Lexicon
from ..core.text import normalize
from .languages import LANGUAGES
from .rulesets import default_rulesets_dir

__all__ = ["ALPHABETS", "DECK_NAMES", "DECK_SPECS", "DeckSpec", "derive_deck", "ordinary_forms", "read_forms"]

#: How the 5 most frequent pairs, the English value scale and a cap of 10 for a double are described (the default).
DEFAULT_METHOD = (
    "doubles: the 5 most frequent letter pairs, 2 copies each; singles: 2 of each letter, the rest by letter share "
    "(largest remainders); value = a + b*ln(1/share), clamped to 2..15, a and b fitted to the English deck against "
    "en-US letter shares; a double is worth its letters' sum, at most 10"
)


@dataclass(frozen=True)
class DeckSpec:
    """What a language's deck fixes instead of deriving: its double cards (face -> copies), its value range, a double's cap, and why."""

    doubles: dict[str, int]
    value_range: tuple[int, int]
    double_cap: int
    reason: str


def _spec(plan: dict[str, object]) -> DeckSpec:
    low, high = plan.get("values", (2, 15))  # type: ignore[misc]
    return DeckSpec(dict(plan["doubles"]), (int(low), int(high)), int(plan.get("double_cap", 10)), str(plan.get("why", "")))  # type: ignore[call-overload]


#: Each language's deck plan, from its manifest's ``deck_plan`` (docs/languages.md): the letters of its cards,
_PLANNED = [lang for lang in LANGUAGES if lang.deck_plan.get("alphabet")]
#: ... the letters of each language's deck (English's too: the value fit reads it),
ALPHABETS: dict[str, str] = {lang.id: str(lang.deck_plan["alphabet"]) for lang in _PLANNED}
#: ... the deck file its derived deck is written to,
DECK_NAMES: dict[str, str] = {lang.id: str(lang.deck_plan.get("file") or lang.deck or lang.id) for lang in _PLANNED}
#: ... the deck's name in its YAML,
DECK_TITLES: dict[str, str] = {lang.id: lang.name for lang in _PLANNED}
#: ... and, where the language names them, its doubles and value range rather than derived ones.
DECK_SPECS: dict[str, DeckSpec] = {lang.id: _spec(lang.deck_plan) for lang in _PLANNED if lang.deck_plan.get("doubles")}


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
    spec = DECK_SPECS.get(lang)
    if spec is None:
        plan = plan_deck(stats, ALPHABETS[lang], fit)
    else:
        plan = plan_deck(stats, ALPHABETS[lang], fit, named_doubles=spec.doubles, value_range=spec.value_range, double_cap=spec.double_cap)
    info = lexicon.info
    doc = {
        "name": DECK_TITLES.get(lang, lang),
        "description": f"118 cards derived from letter frequencies of the {info.id} lexicon by `wordsvc derive-deck --lang {lang}`.",
        "derivation": {
            "command": f"wordsvc derive-deck --lang {lang}",
            "lexicon": {"id": info.id, "version": info.version, "sha256": info.sha256},
            "word_source": source_note or f"every form of {info.id} with an ordinary reading, written wholly in the deck's letters",
            "words_counted": stats.words,
            "method": DEFAULT_METHOD if spec is None else _named_method(spec),
            "value_fit": {"a": round(fit[0], 4), "b": round(fit[1], 4), "english_lexicon_sha256": english.info.sha256},
            "letter_shares": {ch: round(share, 5) for ch, share in plan.shares.items()},
        },
        "cards": {face.upper(): {"count": count, "value": value} for face, (count, value) in plan.cards.items()},
    }
    return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=120, default_flow_style=None)


def _named_method(spec: DeckSpec) -> str:
    """The derivation's ``method`` for a deck whose doubles and value range are named."""
    low, high = spec.value_range
    doubles = ", ".join(f"{face.upper()} x{count}" for face, count in spec.doubles.items())
    return (
        f"doubles named, not derived: {doubles} ({spec.reason}); singles: 2 of each letter, the rest by letter share "
        f"(largest remainders); value = a + b*ln(1/share), a and b fitted to the English deck against en-US letter shares, "
        f"{'mapped linearly from 2..15 onto ' if (low, high) != (2, 15) else 'clamped to '}{low}..{high}; "
        f"a double is worth its letters' sum, at most {spec.double_cap}"
    )


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
