"""How often the solver's best play uses a form a native player would reject: 200 random hands per language, read by a person.

For each language with a built lexicon and a ruleset (its manifest's), 200
hands of 10 cards are drawn from the ruleset's deck (seeded: the same hands
every run) and solved (the best play, discarding one card). Each word of
each play is looked up in ``wordlists/<folder>/native_review.tsv``
(``word<TAB>ok|reject<TAB>why``), which a reader of the language filled in
from the words this script lists: the share of plays that use at least one
word marked ``reject`` is the figure (docs/performance.md, "Native forms").
Words not reviewed yet are counted apart, never as ok.

Run: ``.venv/bin/python bench/native_forms.py [--lang de,es] [--hands 200] [--seed 42] [--list]``
(``--list``: print the words not reviewed yet, one a line, for the review file).
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from pathlib import Path

from common import ROOT

from wordsvc.config import Settings
from wordsvc.data.languages import LANGUAGES
from wordsvc.service import Service
from wordsvc.service.solvers import Solvers

HAND = 10


def review_of(lang_id: str) -> dict[str, str]:
    """The review file of a language's folder: word -> ok | reject (empty when there is none)."""
    language = next(lang for lang in LANGUAGES if lang.id == lang_id)
    folder = (language.builder or language.wordlist or "").split("/")[0]
    path = ROOT / "wordlists" / folder / "native_review.tsv"
    if not folder or not path.is_file():
        return {}
    review = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            word, verdict, *_ = line.split("\t")
            review[word] = verdict
    return review


def words_of(play: dict[str, object]) -> list[str]:
    """The words of a play, as its ``to_dict`` writes them."""
    return [str(word["word"]).lower() for word in play["words"]]  # type: ignore[attr-defined]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--lang", default="", help="comma-separated lexicon ids (default: every one with a ruleset and a built lexicon)")
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--list", action="store_true", help="print the words not reviewed yet")
    args = parser.parse_args()
    settings = Settings.from_env()
    service = Service.from_settings(settings)
    solvers = Solvers.from_data_dir(service, settings.data_dir)
    wanted = [lang for lang in LANGUAGES if lang.ruleset and (not args.lang or lang.id in args.lang.split(","))]
    print(f"{args.hands} hands of {HAND} cards per language, seed {args.seed}, the best play discarding one card")
    for language in wanted:
        try:
            ruleset = service.ruleset(language.ruleset or "")
            solver = solvers.get(ruleset.id, language.id)
        except Exception as err:  # not built here: say so and go on
            print(f"{language.id}: skipped ({type(err).__name__}: {err})")
            continue
        cards = [face.upper() for face, card in ruleset.deck.cards.items() for _ in range(card.count)]
        rng = random.Random(args.seed)
        review = review_of(language.id)
        plays = rejected = unreviewed_plays = 0
        unreviewed: Counter[str] = Counter()
        for _ in range(args.hands):
            best = solver.solve(rng.sample(cards, HAND), discard=True)
            words = words_of(best.best.to_dict())
            if not words:
                continue
            plays += 1
            verdicts = [review.get(word) for word in words]
            rejected += "reject" in verdicts
            if None in verdicts and "reject" not in verdicts:
                unreviewed_plays += 1
            unreviewed.update(word for word, verdict in zip(words, verdicts, strict=True) if verdict is None)
        share = f"{rejected / plays:.1%}" if plays else "n/a"
        print(f"{language.id:6} ruleset {ruleset.id:12} plays with a word {plays:4}; with a form a native reader rejects: {rejected} ({share}); "
              f"not yet reviewed: {unreviewed_plays} plays, {len(unreviewed)} words")  # fmt: skip
        if args.list:
            for word, count in sorted(unreviewed.items()):
                print(f"{word}\t{count}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
