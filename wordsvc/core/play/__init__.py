"""Hosted play: the pure game engine. A game's state is a function of (ruleset, seed, seats, knobs, lexicon, moves).

Standard library only, no I/O, no clock: the rules of a round as moves on
immutable states (docs/play.md). One concept a module: card ids, the deal
with ids and the reshuffle (``dealing``), the house rules (``knobs``), the
moves and their JSON (``moves``), why a move is refused (``refusals``), the
state and its canonical bytes (``state``), the cards laid checked
(``laying``), applying a move and replaying a log (``engine``), and a player
that makes random legal moves (``random_player``), the skeleton of the bots
(``bots``, their levels in ``bot_levels``). Nothing here is wired to the web yet.
"""

from .bots import LEVELS, Bot, Level, NotBotsTurn
from .dealing import card_order, deal_round, face_of, sort_cards
from .engine import SetupError, apply, new_game, replay
from .knobs import DrawPileOut, Knobs
from .moves import Challenge, Discard, Draw, GoOut, LayDown, Move, MoveFormatError, Pass, Take, move_from_dict, move_to_dict
from .refusals import REFUSALS, IllegalMove
from .state import FinishedRound, GameState, Phase, RoundState

__all__ = [
    "LEVELS",
    "REFUSALS",
    "Bot",
    "Challenge",
    "Discard",
    "Draw",
    "DrawPileOut",
    "FinishedRound",
    "GameState",
    "GoOut",
    "IllegalMove",
    "Knobs",
    "LayDown",
    "Level",
    "Move",
    "MoveFormatError",
    "NotBotsTurn",
    "Pass",
    "Phase",
    "RoundState",
    "SetupError",
    "Take",
    "apply",
    "card_order",
    "deal_round",
    "face_of",
    "move_from_dict",
    "move_to_dict",
    "new_game",
    "replay",
    "sort_cards",
]
