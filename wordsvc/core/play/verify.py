"""The game log a server exports, and its check: a revealed game replayed offline, from its seed and moves.

:func:`game_log` is the whole record of a game: its setup, the commit-reveal
of its seed (:mod:`wordsvc.core.play.fairness`), every move and what came of
them (each round's deal digest and totals, the totals, the final state's
digest). It reveals the server seed, every hand and every card drawn, so it is
only ever published after the game is over; deciding when is the server's
part. :func:`verify_log` checks such a document with nothing but the ruleset
and the lexicon it names: the commitment, the seed's derivation, each round's
deal against q1 (docs/deals.md), every move replayed by the engine, the
totals and the final digest. It names the first thing that does not hold.
docs/play.md, "The game log", is the format.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..deal import deal
from ..lexicon import Lexicon
from ..ruleset import Ruleset
from .engine import SetupError, apply, new_game
from .fairness import check_nonce, check_reveal
from .knobs import Knobs
from .moves import Move, MoveFormatError, move_from_dict, move_to_dict
from .refusals import IllegalMove
from .state import GameState

__all__ = ["FORMAT", "LogReport", "game_log", "verify_log"]

#: The log's format; a change to the fields or their meaning is a new one.
FORMAT = "wordsvc-game-log-1"
_FIELDS: dict[str, type | tuple[type, ...]] = {
    "format": str,
    "ruleset": str,
    "lexicon": dict,
    "players": list,
    "knobs": dict,
    "commitment": str,
    "server_seed": str,
    "nonces": list,
    "seed": str,
    "moves": list,
    "rounds": list,
    "totals": list,
    "digest": str,
}


def game_log(state: GameState, moves: Sequence[Move], ruleset: Ruleset, *, commitment: str, server_seed: str, nonces: Sequence[str | None]) -> dict[str, Any]:
    """The log of the game ``moves`` made ``state``, as JSON-ready values: publish it only once the game is over (it reveals every card).

    ``ruleset`` is the game's (each round's deal digest is its q1 deal's);
    ``commitment``, ``server_seed`` and ``nonces`` are the table's commit-reveal,
    the nonces in seat order (``None`` or ``""`` for a seat that gave none,
    written ``""``). Keys:
    ``format`` (:data:`FORMAT`), ``ruleset`` (its id), ``lexicon`` (the state's
    stamp: id, version, sha256), ``players``, ``knobs``, ``commitment``,
    ``server_seed``, ``nonces``, ``seed``, ``moves`` (:func:`move_to_dict`
    forms, cards by id), ``rounds`` (each round scored: ``number``,
    ``deal_digest`` as docs/deals.md section 8 defines it, ``totals`` in seat
    order), ``totals`` and ``digest`` (the state's :meth:`~GameState.digest`).

    Raises ``ValueError`` for a log that would not verify: a ruleset not the
    game's, a count of moves not the state's, a reveal that does not give the
    state's seed.
    """
    if ruleset.id != state.ruleset:
        raise ValueError(f"the game plays ruleset {state.ruleset}, not {ruleset.id}")
    if len(moves) != state.moves:
        raise ValueError(f"the state follows {state.moves} moves, not {len(moves)}")
    problems = check_reveal(commitment, server_seed, list(nonces), state.seed)
    if problems:
        raise ValueError(problems[0])
    players = len(state.players)
    return {
        "format": FORMAT,
        "ruleset": state.ruleset,
        "lexicon": dict(state.lexicon),
        "players": list(state.players),
        "knobs": state.knobs.to_dict(),
        "commitment": commitment,
        "server_seed": server_seed,
        "nonces": [check_nonce(nonce) for nonce in nonces],
        "seed": state.seed,
        "moves": [move_to_dict(move) for move in moves],
        "rounds": [
            {"number": r.number, "deal_digest": deal(ruleset, players, r.number, state.seed).digest(), "totals": list(r.totals)} for r in state.finished
        ],
        "totals": list(state.totals),
        "digest": state.digest(),
    }


@dataclass(frozen=True)
class LogReport:
    """What checking a game log found: ``problem``, the first thing that does not hold (``None``: the log verifies), and how far the replay got."""

    problem: str | None
    moves: int = 0
    rounds: int = 0

    @property
    def ok(self) -> bool:
        return self.problem is None

    def line(self) -> str:
        """One line for people: ``ok`` with what was checked, or ``FAILED`` with the first mismatch."""
        if self.problem is None:
            return f"ok: commitment, seed, {self.rounds} round deal(s), {self.moves} move(s), totals and final digest verified"
        return f"FAILED: {self.problem} (after {self.moves} move(s) replayed)"


def verify_log(log: Any, ruleset_of: Callable[[str], Ruleset | None], lexicon_of: Callable[[Mapping[str, Any]], Lexicon | None]) -> LogReport:
    """Check a :func:`game_log` document; the report names the first mismatch.

    ``ruleset_of(id)`` and ``lexicon_of(stamp)`` give the ruleset and the
    lexicon the log names, or ``None`` when this machine does not have them
    (then the moves cannot be replayed, and the report says so: a log is
    verified only when it is replayed). In order: the document's shape, the
    commitment and the seed's derivation, the setup, then each move replayed
    by the engine (each round's deal, as the engine deals it by q1, compared
    with the round's ``deal_digest`` when the round is reached), and at the end
    the rounds' totals, the totals and the final digest.
    """
    shape = _shape(log)
    if shape:
        return LogReport(shape)
    problems = check_reveal(log["commitment"], log["server_seed"], log["nonces"], log["seed"])
    if problems:
        return LogReport(problems[0])
    players = log["players"]
    if len(log["nonces"]) != len(players):
        return LogReport(f"nonces: {len(log['nonces'])} nonce(s) for {len(players)} seat(s)")
    ruleset = ruleset_of(log["ruleset"])
    if ruleset is None:
        return LogReport(f"ruleset {log['ruleset']!r} is not known here: the moves were not replayed")
    lexicon = lexicon_of(log["lexicon"])
    if lexicon is None:
        return LogReport(f"lexicon {log['lexicon']} is not available here: the moves were not replayed")
    try:
        state = new_game(ruleset, log["seed"], players, lexicon, Knobs.from_dict(log["knobs"]))
    except (SetupError, ValueError, TypeError) as err:
        return LogReport(f"setup: {err}")
    if dict(state.lexicon) != dict(log["lexicon"]):
        return LogReport(f"lexicon: the log names {dict(log['lexicon'])}, the lexicon found here is {dict(state.lexicon)}")
    claimed = log["rounds"]
    checked = 0
    for index, doc in enumerate(log["moves"]):
        dealt = _check_deal(state, claimed, checked, ruleset)
        if dealt is not None:
            return LogReport(dealt, index, checked)
        checked = _round_of(state)
        try:
            state = apply(state, move_from_dict(doc), ruleset, lexicon)
        except MoveFormatError as err:
            return LogReport(f"move {index}: not a move: {err}", index, checked)
        except IllegalMove as err:
            return LogReport(f"move {index} ({_name(doc)}): refused: {err.code}: {err}", index, checked)
    moves = len(log["moves"])
    dealt = _check_deal(state, claimed, checked, ruleset)
    if dealt is not None:
        return LogReport(dealt, moves, checked)
    return _check_results(log, state, moves)


def _shape(log: Any) -> str | None:
    """The first field of ``log`` that is missing or of the wrong type, in words."""
    if not isinstance(log, Mapping):
        return "a game log is a JSON object"
    for field, kind in _FIELDS.items():
        if field not in log:
            return f"{field}: missing"
        if not isinstance(log[field], kind):
            return f"{field}: a {kind.__name__ if isinstance(kind, type) else kind}, not {type(log[field]).__name__}"
    if log["format"] != FORMAT:
        return f"format: {log['format']!r} is not {FORMAT!r}"
    if not all(isinstance(r, Mapping) and isinstance(r.get("number"), int) and isinstance(r.get("totals"), list) for r in log["rounds"]):
        return "rounds: each round is an object with its number and totals"
    return None


def _round_of(state: GameState) -> int:
    """The number of the round being played, or the last one once the game is over."""
    return state.current.number if state.current is not None else len(state.finished)


def _check_deal(state: GameState, claimed: list[Mapping[str, Any]], checked: int, ruleset: Ruleset) -> str | None:
    """Compare the deal of a round the replay has just reached with the log's ``deal_digest`` of it."""
    if state.current is None or state.current.number == checked:
        return None
    number = state.current.number
    digest = deal(ruleset, len(state.players), number, state.seed).digest()
    if number <= len(claimed) and claimed[number - 1].get("deal_digest") != digest:
        return f"round {number}: the log's deal digest {claimed[number - 1].get('deal_digest')} is not the q1 deal's {digest}"
    return None


def _check_results(log: Mapping[str, Any], state: GameState, moves: int) -> LogReport:
    rounds = len(state.finished)
    if len(log["rounds"]) != rounds:
        return LogReport(f"rounds: the log lists {len(log['rounds'])} round(s), the moves finish {rounds}", moves, rounds)
    for claimed, played in zip(log["rounds"], state.finished, strict=True):
        if claimed["number"] != played.number or claimed["totals"] != list(played.totals):
            return LogReport(f"round {played.number}: the log's totals {claimed['totals']} are not the replay's {list(played.totals)}", moves, rounds)
    if log["totals"] != list(state.totals):
        return LogReport(f"totals: the log's {log['totals']} are not the replay's {list(state.totals)}", moves, rounds)
    if log["digest"] != state.digest():
        return LogReport(f"digest: the log's final state {log['digest']} is not the replay's {state.digest()}", moves, rounds)
    return LogReport(None, moves, rounds)


def _name(doc: Any) -> str:
    return f"seat {doc.get('seat')} {doc.get('kind')}" if isinstance(doc, Mapping) else "?"
