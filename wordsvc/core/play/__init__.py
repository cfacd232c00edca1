"""Hosted play: the pure game engine. A game's state is a function of (ruleset, seed, seats, knobs, lexicon, moves).

Standard library only, no I/O, no clock: the rules of a round as moves on
immutable states (docs/play.md). One concept a module: card ids, the deal
with ids and the reshuffle (``dealing``), the house rules (``knobs``), the
moves and their JSON (``moves``), why a move is refused (``refusals``), the
state and its canonical bytes (``state``), the cards laid checked
(``laying``), applying a move and replaying a log (``engine``), a player
that makes random legal moves (``random_player``), the skeleton of the bots
(``bots``, their levels in ``bot_levels``: imported from there, since they
bring the solver), the committed seed a game is dealt from (``fairness``), the
game's log and its offline check (``verify``), the clocks' arithmetic and the
move a timeout makes (``clocks``), and what each viewer may see (``views``).
"""

from .clocks import TIMEOUTS_TO_BOT, Clock, ClockError, ClockKind, handed_to_bot, timeout_move, timeout_moves
from .dealing import card_order, deal_round, face_of, sort_cards
from .engine import SetupError, apply, new_game, replay
from .fairness import FairnessError, check_nonce, check_reveal, commitment, game_seed
from .knobs import DrawPileOut, Knobs
from .moves import Challenge, Discard, Draw, GoOut, LayDown, Move, MoveFormatError, Pass, Take, move_from_dict, move_to_dict
from .refusals import REFUSALS, IllegalMove
from .state import FinishedRound, GameState, Phase, RoundState
from .verify import LogReport, game_log, verify_log

__all__ = [
    "REFUSALS",
    "TIMEOUTS_TO_BOT",
    "Challenge",
    "Clock",
    "ClockError",
    "ClockKind",
    "Discard",
    "Draw",
    "DrawPileOut",
    "FairnessError",
    "FinishedRound",
    "GameState",
    "GoOut",
    "IllegalMove",
    "Knobs",
    "LayDown",
    "LogReport",
    "Move",
    "MoveFormatError",
    "Pass",
    "Phase",
    "RoundState",
    "SetupError",
    "Take",
    "apply",
    "card_order",
    "check_nonce",
    "check_reveal",
    "commitment",
    "deal_round",
    "face_of",
    "game_log",
    "game_seed",
    "handed_to_bot",
    "move_from_dict",
    "move_to_dict",
    "new_game",
    "replay",
    "sort_cards",
    "timeout_move",
    "timeout_moves",
    "verify_log",
]
