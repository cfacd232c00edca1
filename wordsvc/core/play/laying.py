"""Checking the cards a seat lays down: going out, a last turn, the lay-down when the draw pile ended the round.

One function, :func:`check_laying`, for every way words reach the table, so
each refusal has one code wherever it happens. It refuses, in this order:
a card named twice, a card not in the hand, an empty word, more cards laid
than the round dealt (``rules-is.txt``: "players can only use the number of
cards they were dealt"), and, when the ruleset judges every word
(``word_check: automatic``), a word whose verdict is not valid, with the
verdict's reason. Under ``word_check: challenge`` words stand unless
challenged (``rules-et.txt``), so they are not judged here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..lexicon import Lexicon
from ..ruleset import Ruleset, WordCheck
from ..verdict import judge_cards
from .dealing import face_of
from .refusals import IllegalMove
from .state import Words

__all__ = ["check_laying"]


def check_laying(hand: Sequence[str], words: Words, discard: str | None, dealt: int, ruleset: Ruleset, lexicon: Lexicon) -> tuple[str, ...]:
    """The cards left in ``hand`` once ``words`` are laid and ``discard`` (if any) is discarded; :class:`IllegalMove` if the laying breaks a rule."""
    named = [card for word in words for card in word] + ([discard] if discard is not None else [])
    twice = sorted(card for card, n in Counter(named).items() if n > 1)
    if twice:
        raise IllegalMove("card_named_twice", f"card {twice[0]} is named twice", card=twice[0])
    held = set(hand)
    for card in named:
        if card not in held:
            raise IllegalMove("card_not_in_hand", f"card {card} is not in the hand", card=card)
    for i, word in enumerate(words):
        if not word:
            raise IllegalMove("empty_word", f"word {i} has no card", word=i)
    laid = len(named) - (discard is not None)
    if laid > dealt:
        raise IllegalMove("too_many_cards_laid", f"{laid} cards laid; the round dealt {dealt}", laid=laid, dealt=dealt)
    if ruleset.word_check is WordCheck.AUTOMATIC:
        for i, word in enumerate(words):
            verdict = judge_cards(tuple(face_of(card) for card in word), ruleset, lexicon)
            if not verdict.valid:
                reason = verdict.reasons[0].code
                raise IllegalMove("word_not_valid", f"word {i} ({verdict.normalized}) is not valid: {reason}", word=i, reason=reason)
    used = set(named)
    return tuple(card for card in hand if card not in used)
