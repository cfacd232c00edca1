"""House rules of a hosted game: the points the rule texts leave open at the table, as one frozen record.

A ruleset (:class:`~wordsvc.core.ruleset.Ruleset`) says how words and rounds
are scored; these knobs say how a round is *played* where the rule texts are
silent or players disagree. Each default is what the rules give or, where
they say nothing, what common card-table practice does; each field names its
source. The knobs are part of a game's identity: they are in its canonical
bytes, and a replay needs the same ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..ruleset import BONUS_KINDS

__all__ = ["DrawPileOut", "Knobs"]


class DrawPileOut(StrEnum):
    """What happens when a player wants to draw and the draw pile is empty.

    Neither seed rule text (``rules-et.txt``, ``rules-is.txt``) nor the box
    rules say. ``reshuffle``: the discard pile but its top card is shuffled
    into a new draw pile (seeded, docs/play.md), the top card staying face up:
    what rummy games do when the stock is depleted (rummyrulebook.com, "Stock
    depleted"), and Quiddler is a rummy. ``end_round``: the round ends when a
    turn leaves the draw pile empty: every player, from the next one on, lays
    down what words they can and the other cards count as unused (the variant
    of the same page where "the game ends when the stock pile runs out").
    """

    RESHUFFLE = "reshuffle"
    END_ROUND = "end_round"


@dataclass(frozen=True)
class Knobs:
    """The house rules of one game; the defaults are the rules' reading (docs/play.md, "Knobs")."""

    #: Default ``reshuffle``: the common rummy practice (see :class:`DrawPileOut`); it never ends a round early, so
    #: a round ends only by a going out, as every rule text describes it.
    draw_pile_out: DrawPileOut = DrawPileOut.RESHUFFLE
    #: A player may not go out on their first turn of a round: a house rule seen in the wild (RULES.md, "house
    #: rules seen": keidax's and katima-g33k/quiddler-online's tables). Default off: no rule text forbids it.
    no_going_out_first_turn: bool = False
    #: Whether the card just taken from the discard pile may be discarded again in the same turn (in effect, a
    #: pass). The rules only say "take a card, then discard one" (RULES.md, "A game"): default allowed. Many rummy
    #: tables forbid it; ``False`` refuses it with ``discard_taken_card``.
    discard_taken_card: bool = True
    #: With two players under a ruleset whose ``two_players`` is ``choice`` (rules-et.txt: "choose only one of the
    #: two bonuses"), the bonus the players chose, for every round of the game; ``None`` everywhere else.
    bonus_choice: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.draw_pile_out, DrawPileOut):
            object.__setattr__(self, "draw_pile_out", DrawPileOut(self.draw_pile_out))
        if self.bonus_choice is not None and self.bonus_choice not in BONUS_KINDS:
            raise ValueError(f"bonus_choice must be one of {', '.join(BONUS_KINDS)}")

    def to_dict(self) -> dict[str, object]:
        """The knobs as JSON-ready values (a game's canonical bytes hold them)."""
        return {
            "bonus_choice": self.bonus_choice,
            "discard_taken_card": self.discard_taken_card,
            "draw_pile_out": self.draw_pile_out.value,
            "no_going_out_first_turn": self.no_going_out_first_turn,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Knobs:
        """The knobs :meth:`to_dict` wrote; a missing key takes its default."""
        return cls(**{key: value for key, value in data.items() if key in cls.__dataclass_fields__})  # type: ignore[arg-type]
