"""Why the engine refuses a move: one stable code a rule, and the exception that carries it.

An illegal move changes nothing: :func:`~wordsvc.core.play.engine.apply`
raises :class:`IllegalMove` and the state it was given stands (it is
immutable). A failed going-out claim is one of these refusals and costs
nothing: the rules give no penalty (RULES.md, "A game"; ``rules-et.txt``
suggests the round simply goes on), so the turn goes on.

These codes are not in :mod:`wordsvc.core.problem_codes` yet: that registry
holds the codes an HTTP answer carries (each with its statuses, listed in the
OpenAPI document and docs/problems.md), and no endpoint answers a move yet.
The protocol that does will register them there, with this text as their
meaning; until then :data:`REFUSALS` is their one list (docs/play.md, "Codes").
Clients switch on the code, never on the message.
"""

from __future__ import annotations

__all__ = ["REFUSALS", "IllegalMove"]

#: code -> what it means, in the order of docs/play.md.
REFUSALS: dict[str, str] = {
    "game_over": "The game has ended: every round of the ruleset is scored.",
    "unknown_seat": "No seat of that number at this table.",
    "not_your_turn": "Another seat is to move (or, in a challenge window, this seat has passed).",
    "must_draw_first": "The turn begins with a draw from the draw pile or the discard pile.",
    "must_discard": "The seat has drawn: it discards (or goes out, or lays down) now.",
    "draw_pile_empty": "The draw pile is empty and cannot be rebuilt (or the knobs end the round instead).",
    "discard_pile_empty": "The discard pile has no card to take.",
    "card_not_in_hand": "A card the move names is not in the seat's hand.",
    "card_named_twice": "The move names one card twice.",
    "discard_taken_card": "The knobs forbid discarding the card just taken from the discard pile.",
    "empty_word": "A word laid without a card.",
    "word_not_valid": "A word laid is not valid: the verdict's reason code comes with it.",
    "too_many_cards_laid": "More cards laid than the round dealt (the final discard is compulsory).",
    "cards_left_over": "Going out lays every card but the one discarded; cards are left.",
    "final_discard_required": "Going out, and a last turn, end with a discard.",
    "no_going_out_first_turn": "The knobs forbid going out on a seat's first turn of the round.",
    "someone_went_out": "A player has gone out already: the others lay down what they can, in their last turn.",
    "nobody_went_out": "Laying down words before someone has gone out is going out.",
    "no_discard_now": "The round ended with the draw pile: cards are laid down, none discarded.",
    "laying_down": "The draw pile ended the round: each seat in turn lays down words, and nothing else.",
    "challenge_window": "The round's words are open to challenge: only challenges and passes now.",
    "not_challenge_time": "Challenges are made after the round's last turn, under a ruleset whose words stand unless challenged.",
    "challenge_own_word": "A player cannot challenge their own word.",
    "no_such_word": "That player laid no word of that number.",
    "already_challenged": "That word is challenged already.",
}


class IllegalMove(Exception):
    """A refused move: ``code`` (a key of :data:`REFUSALS`), a message for people, and ``details`` for programs.

    ``details`` of ``word_not_valid``: ``word`` (its index in the move) and
    ``reason`` (the verdict's reason code: ``not_in_lexicon``, ``too_short``, ...).
    """

    def __init__(self, code: str, message: str | None = None, **details: object):
        if code not in REFUSALS:
            raise ValueError(f"unknown refusal code {code!r}")
        super().__init__(message or REFUSALS[code])
        self.code = code
        self.details = details

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": str(self), **self.details}
