"""The bots' levels: what a player of each strength knows of the word list, and how it plays its turn.

A person misses words for two reasons: they never learnt them (rare words),
and they do not see them in a hand (long words). A level models both as one
chance of *knowing* a word: the chance of its commonness tier, times a decay
for every letter beyond the length the level always sees. Each bot draws
its own vocabulary once, from its ``random.Random``: a word is known when a
keyed hash of the word falls under that chance, so a bot knows the same
words all game (as a person does) and two bots of one level know different
ones. The top level knows every word: it plays the exact solver.

**Commonness** comes from the compiled lexicon's ``rank`` column, the only
frequency signal the project's licensed sources carry (docs/languages.md):
English ranks are SCOWL sizes (10 most common ... 80 word-game only, 95
rare; ``wordlists/en/README.md``); Icelandic ranks 1 for the BÍN core "of most
common and accepted word forms", 2 for the rest of BÍN
(``wordlists/is/README.md``); Spanish 1 for hunspell-es, 2 for the rare and
old lemmas wspanish adds (``wordlists/es/README.md``). :data:`RANK_TIERS`
reads each into three tiers: common, ordinary, rare. The other languages'
lists have no frequencies (their rank is empty), and neither do the
analysers (Estonian): there every word counts as common and the low levels
know words by their length alone.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from dataclasses import dataclass

from ..lexicon import Lexicon, LexiconInfo, Readings

__all__ = ["LEVELS", "RANK_TIERS", "Level", "Vocabulary", "VocabularyLexicon"]

COMMON, ORDINARY, RARE = 0, 1, 2

#: A language's ranks -> the last rank of the common tier and of the
#: ordinary tier (a higher rank is rare). English: SCOWL size 35 is its
#: "small" list, 60 the size SCOWL recommends for spell checking (the
#: en-US-common lexicon), above it the word-game and rare sizes. Icelandic
#: and Spanish have two ranks: the core (common) and the rest (rare).
RANK_TIERS: dict[str, tuple[int, int]] = {"en": (35, 60), "is": (1, 1), "es": (1, 1)}


@dataclass(frozen=True)
class Level:
    """One strength of bot: what it knows of the word list and how it plays a turn.

    ``known``: the chance of knowing a common, an ordinary and a rare word
    (before the length decay). ``sees``: the longest word (in letters) seen
    at that chance; each letter more multiplies it by ``decay``. ``takes``:
    whether it takes the discard pile's card when its own best play gains
    by it (the solver's face-up advice on the words it knows); otherwise it
    always draws from the pile. ``weighs_draw``: it takes the card only when
    that also beats a draw from the pile on average (over the cards it has not
    seen this round). ``slack``: ``None`` goes out as soon as it
    sees a going out; a number goes out only when the going out scores no
    more than that below the hand's best play (waiting for a better hand
    otherwise).
    """

    number: int
    name: str
    behaviour: str
    known: tuple[float, float, float]
    sees: int
    decay: float
    takes: bool
    slack: int | None
    weighs_draw: bool = False

    @property
    def exact(self) -> bool:
        """Knows every word of the list: plays the exact solver as it is."""
        return self.known == (1.0, 1.0, 1.0) and self.decay == 1.0


#: The ladder, weakest first. The chances are not measured from people: they
#: are set so that each level beats the one below in a clear majority of
#: games (``bench/bots.py`` shows the ladder; docs/play.md, "Bots").
LEVELS: dict[int, Level] = {
    level.number: level
    for level in (
        Level(
            1, "novice", "knows most common words and few others, sees words of up to 3 letters (each letter more halves "
            "the chance), always draws from the pile, goes out as soon as it sees it",
            (0.8, 0.1, 0.0), 3, 0.5, False, None,
        ),
        Level(
            2, "casual", "knows the common words and a third of the ordinary ones, sees words of up to 4 letters "
            "(0.55 a letter more), always draws from the pile, goes out as soon as it sees it",
            (0.95, 0.35, 0.0), 4, 0.55, False, None,
        ),
        Level(
            3, "club", "knows most ordinary words and a third of the rare ones, sees words of up to 5 letters "
            "(0.75 a letter more), takes the discard when its own words gain by it, goes out as soon as it sees it",
            (1.0, 0.8, 0.3), 5, 0.75, True, None,
        ),
        Level(
            4, "expert", "the exact solver: every word of the list, takes the discard when the face-up advice gains and "
            "beats a draw's average over the unseen cards, goes out when the going out scores within 2 points of the hand's best play",
            (1.0, 1.0, 1.0), 99, 1.0, True, 2, weighs_draw=True,
        ),
    )
}  # fmt: skip


class Vocabulary:
    """The words one bot knows: a keyed hash of each word against its level's chance, the key drawn once from ``rng``."""

    def __init__(self, level: Level, lexicon: Lexicon, rng: random.Random):
        self.level = level
        self.lexicon = lexicon
        self.key = rng.getrandbits(128).to_bytes(16, "big")
        self._rank = getattr(lexicon, "rank", None)
        self._tiers = RANK_TIERS.get(lexicon.info.lang.split("-")[0].lower()) if self._rank is not None else None

    def tier(self, form: str) -> int:
        """``COMMON``, ``ORDINARY`` or ``RARE`` by the lexicon's rank; ``COMMON`` where the list has no ranks."""
        if self._tiers is None:
            return COMMON
        rank = self._rank(form)  # type: ignore[misc]
        if rank is None:
            return COMMON
        common, ordinary = self._tiers
        return COMMON if rank <= common else ORDINARY if rank <= ordinary else RARE

    def chance(self, form: str, tier: int | None = None) -> float:
        """The chance that a player of this level knows ``form``."""
        level = self.level
        base = level.known[self.tier(form) if tier is None else tier]
        return base * level.decay ** max(0, len(form) - level.sees)

    def _draw(self, form: str, salt: bytes) -> float:
        digest = hashlib.blake2b(form.encode("utf-8"), digest_size=8, key=self.key, salt=salt).digest()
        return int.from_bytes(digest, "big") / 2**64

    def knows(self, form: str) -> bool:
        """Whether this bot knows ``form`` as a word (the same answer all game)."""
        return self.level.exact or self._draw(form, b"word") < self.chance(form)

    def spots(self, form: str) -> bool:
        """Whether this bot would know that ``form``, not a word of the list, is none: the chance of a common word of its length."""
        return self.level.exact or self._draw(form, b"nonword") < self.chance(form, COMMON)


class VocabularyLexicon:
    """``lexicon`` seen through a :class:`Vocabulary`: the readings of the words the bot knows, none of the others.

    A solver built on it finds the best play among the words the bot knows,
    and judges them with the same rules (classes, house words) as the game.
    """

    def __init__(self, lexicon: Lexicon, vocabulary: Vocabulary):
        self._lexicon = lexicon
        self._vocabulary = vocabulary
        self.info: LexiconInfo = lexicon.info

    def readings(self, form: str) -> Readings:
        found = self._lexicon.readings(form)
        return found if found and self._vocabulary.knows(form) else ()

    def at_hand(self, form: str) -> bool:
        return self._lexicon.at_hand(form)

    def forms(self) -> Iterator[str]:
        return (form for form in self._lexicon.forms() if self._vocabulary.knows(form))

    def rank(self, form: str) -> int | None:
        rank = getattr(self._lexicon, "rank", None)
        return rank(form) if rank is not None else None
