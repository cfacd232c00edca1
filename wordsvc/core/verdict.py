"""Word verdicts: is this word playable under a ruleset, and why not.

A verdict is a value with stable reason codes (the Netskrafl habit):

``invalid_characters``  the word holds something no word holds (digits, spaces,
                        a symbol such as ⒜ or ½ that stands for no letters)
``too_long``            it needs more cards than the largest hand
``not_in_lexicon``      the lexicon does not know it
``banned_class``        every reading is of a class the ruleset bans (named)
``house_refused``       the ruleset's house list refuses it
``not_spellable``       the deck lacks a letter or enough copies (PIZZAZZ); with
                        ``hint``, the ruleset whose deck lays it (the service
                        names the lexicon's own ruleset: docs/api.md)
``too_short``           below the ruleset's minimum cards or letters

A word is looked up by its normalized form (:func:`~wordsvc.core.text.normalize`:
case folded, compatibility characters folded to their letters, so ``ｑｕｉｚ``,
``ﬁsh`` and ``BAẞ`` are judged as quiz, fish and bass; docs/text.md) and laid
on the deck by its letters (for English, with diacritics folded: café is
C-A-F-E).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import NamedTuple

from ..i18n import DEFAULT_LOCALE, render
from .cards import CardSyntaxError, Deck, Spelling, _spelling, parse_cards
from .lexicon import Lexicon, Readings
from .ruleset import Ruleset
from .text import fold_diacritics, has_invalid_characters, normalize

__all__ = ["MAX_WORD_CHARS", "REASON_CODES", "Reason", "Spelling", "Verdict", "judge", "judge_cards"]

#: Longer input is refused before any lookup: 10 cards of at most 2 letters
#: is 20 letters; 64 leaves room for decks with longer faces.
MAX_WORD_CHARS = 64

REASON_CODES = (
    "invalid_characters",
    "too_long",
    "not_in_lexicon",
    "banned_class",
    "house_refused",
    "not_spellable",
    "too_short",
)


class Reason(NamedTuple):
    code: str
    params: dict[str, object] = {}  # noqa: RUF012 - never mutated; a NamedTuple default

    def to_dict(self, locale: str = DEFAULT_LOCALE) -> dict[str, object]:
        params = dict(self.params)
        if "class" in params:
            params["class_label"] = render(f"class.{params['class']}", locale)
        if "why" in params:
            why_key, why_params = params["why"]  # type: ignore[misc]
            params["why"] = render(f"why.{why_key}", locale, why_params)
        message = render(f"reason.{self.code}", locale, params)
        out: dict[str, object] = {"code": self.code, "message": message}
        if "class" in self.params:
            out["class"] = self.params["class"]
        if "hint" in self.params:  # not_spellable: the ruleset whose deck lays the word (the lexicon's own)
            out["hint"] = {"ruleset": self.params["hint"]}
            out["message"] = f"{message} {render('hint.ruleset', locale, {'ruleset': self.params['hint']})}"
        return out


class Verdict(NamedTuple):
    """The verdict on one word (a named tuple: cheap to build, immutable)."""

    word: str
    normalized: str
    lang: str
    ruleset: str
    reasons: tuple[Reason, ...]
    readings: Readings
    spellings: tuple[Spelling, ...]
    lexicon: Mapping[str, str]

    @property
    def valid(self) -> bool:
        return not self.reasons

    @property
    def classes(self) -> list[str]:
        return sorted(set().union(*self.readings)) if self.readings else []

    def to_dict(self, locale: str = DEFAULT_LOCALE) -> dict[str, object]:
        return {
            "word": self.word,
            "normalized": self.normalized,
            "lang": self.lang,
            "ruleset": self.ruleset,
            "valid": not self.reasons,
            "reasons": [reason.to_dict(locale) for reason in self.reasons],
            "classes": self.classes,
            "spellings": [spelling.to_dict() for spelling in self.spellings],
            "lexicon": dict(self.lexicon),
        }


#: Build a Reason, a Verdict, from a tuple of its fields without the Python-level ``__new__`` (hot path).
_reason = partial(tuple.__new__, Reason)
_verdict = partial(tuple.__new__, Verdict)


def judge(word: str, ruleset: Ruleset, lexicon: Lexicon) -> Verdict:
    """The verdict on ``word``: plain letters (every way to lay it) or compact cards.

    ``(in)`` judges the lone IN card; ``in`` judges the letters, laid any way
    the deck allows.
    """
    if "(" in word or ")" in word:
        try:
            cards = parse_cards(word)
        except CardSyntaxError:
            return _refused(word, normalize(word), ruleset, lexicon, Reason("invalid_characters"))
        return judge_cards(cards, ruleset, lexicon, word=word)
    normalized = normalize(word)
    if len(normalized) > MAX_WORD_CHARS or not normalized.isalpha():  # else surely fine: skip the call
        early = _input_reason(normalized, ruleset)
        if early:
            return _refused(word, normalized, ruleset, lexicon, early)
    reasons, readings = _lexicon_reasons(normalized, ruleset, lexicon)
    info = lexicon.info
    letters = fold_diacritics(normalized, info.fold_keep) if info.fold_diacritics else normalized
    deck = ruleset.deck
    # A way counts when its cards are between the minimum and the largest
    # hand. No way has fewer cards than letters / widest face: for most words
    # that settles the minimum without looking at each way. A word no hand
    # can hold shows its one laying with the fewest cards, or none when it
    # has more letters than a hand's cards could show.
    n, low, high = len(letters), ruleset.min_cards, ruleset.max_hand
    ways, in_hand = deck.spellings_within(letters, high)
    if not ways:
        if n > high * deck.widest and set(letters) <= deck.letters:  # too many letters for any hand
            reasons.append(Reason("too_long", {"word": normalized, "max_cards": high}))
        else:
            reasons.append(_unspellable(letters, (), deck, normalized))
    elif n < ruleset.min_letters:
        reasons.append(_too_short(ruleset))
    elif not in_hand:
        reasons.append(Reason("too_long", {"word": normalized, "max_cards": high}))
    elif -(-n // deck.widest) < low:
        fitting = [w for w in ways if len(w.cards) >= low]
        if fitting:
            ways = fitting
        else:
            reasons.append(_too_short(ruleset))
    return _verdict((word, normalized, info.lang, ruleset.id, tuple(reasons), readings, tuple(ways), info.stamp_view))


def judge_cards(cards: Sequence[str], ruleset: Ruleset, lexicon: Lexicon, word: str | None = None) -> Verdict:
    """The verdict on one laying: these cards, in this order."""
    joined = "".join(cards)
    if joined.isascii() and joined.islower():  # faces already normalized (parse_cards gives these): nothing to fold either
        faces = tuple(cards)
        normalized = joined
    else:
        faces = tuple(map(normalize, cards))
        normalized = "".join(faces)
    shown = word if word is not None else normalized
    if len(normalized) > MAX_WORD_CHARS or not normalized.isalpha():
        early = _input_reason(normalized, ruleset)
        if early:
            return _refused(shown, normalized, ruleset, lexicon, early)
    reasons, readings = _lexicon_reasons(normalized, ruleset, lexicon)
    info = lexicon.info
    laid = tuple(fold_diacritics(face, info.fold_keep) for face in faces) if info.fold_diacritics and not normalized.isascii() else faces
    deck = ruleset.deck
    if not deck.holds(laid):
        reasons.append(_unspellable("".join(laid), deck.unknown_faces(laid), deck, normalized))
        spellings: tuple[Spelling, ...] = ()
    else:
        if len(laid) < ruleset.min_cards or len(normalized if laid is faces else "".join(laid)) < ruleset.min_letters:
            reasons.append(_too_short(ruleset))
        elif len(laid) > ruleset.max_hand:
            reasons.append(Reason("too_long", {"word": normalized, "max_cards": ruleset.max_hand}))
        spellings = (_spelling((laid, deck.points(laid))),)
    return _verdict((shown, normalized, info.lang, ruleset.id, tuple(reasons), readings, spellings, info.stamp_view))


def _input_reason(normalized: str, ruleset: Ruleset) -> Reason | None:
    if len(normalized) > MAX_WORD_CHARS:
        return Reason("too_long", {"word": normalized[:MAX_WORD_CHARS] + "…", "max_cards": ruleset.max_hand})
    if has_invalid_characters(normalized):
        return Reason("invalid_characters")
    return None


def _refused(word: str, normalized: str, ruleset: Ruleset, lexicon: Lexicon, reason: Reason) -> Verdict:
    return _verdict((word, normalized, lexicon.info.lang, ruleset.id, (reason,), (), (), lexicon.info.stamp_view))


def _lexicon_reasons(normalized: str, ruleset: Ruleset, lexicon: Lexicon) -> tuple[list[Reason], Readings]:
    if normalized in ruleset.house_refuse:
        return [Reason("house_refused", {"word": normalized})], lexicon.readings(normalized)
    readings = lexicon.readings(normalized)
    if normalized in ruleset.house_allow:
        return [], readings if frozenset() in readings else (frozenset(), *readings)
    if not readings:
        return [_reason(("not_in_lexicon", {"word": normalized, "lexicon": lexicon.info.id}))], readings
    hits = ruleset.banned_hits(readings)
    return [_reason(("banned_class", {"word": normalized, "class": name})) for name in hits] if hits else [], readings


def _too_short(ruleset: Ruleset) -> Reason:
    return Reason("too_short", {"min_cards": ruleset.min_cards, "min_letters": ruleset.min_letters})


def _unspellable(letters: str, unknown: Sequence[str], deck: Deck, word: str) -> Reason:
    if unknown:
        why: tuple[str, dict[str, object]] = ("unknown_cards", {"cards": ", ".join(f.upper() for f in unknown)})
    else:
        missing = sorted(set(letters) - deck.letters)
        if missing:
            why = ("missing_letters", {"letters": ", ".join(ch.upper() for ch in missing)})
        else:
            why = ("too_many_copies", {})
    return Reason("not_spellable", {"word": word, "why": why})
