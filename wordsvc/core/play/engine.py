"""The engine: a game started from its setup, a move applied, a log replayed. Pure: no I/O, no clock, no randomness but the seed's.

The whole play of a round as the rules give it (RULES.md, "A game"):

- Round ``r`` is dealt by q1 from the game's seed (docs/deals.md): the dealer is
  seat ``(r - 1) mod P`` and the first turn is the dealer's left, so the deal
  and the first turn pass to the left each round.
- A turn: :class:`~.moves.Draw` (the draw pile's top card) or
  :class:`~.moves.Take` (the discard pile's), then :class:`~.moves.Discard`.
  An empty draw pile is rebuilt or ends the round, as the knobs say.
- Going out (:class:`~.moves.GoOut`), after drawing: every card but one laid in
  words and the last one discarded. A claim that fails is refused with its
  code, and the turn goes on: no penalty.
- Once a seat has gone out, every other seat has exactly one more turn: draw,
  lay down what words it can (:class:`~.moves.LayDown`, or a plain discard),
  discard; the cards left in its hand are its unused cards.
- Under a challenge ruleset the round's words are then open to challenge
  (:class:`~.moves.Challenge`) until every seat has passed (:class:`~.moves.Pass`).
- The round is scored by :func:`~wordsvc.core.scoring.score_round`, on the
  very :class:`~wordsvc.core.scoring.RoundPlay` ``POST /score-round`` takes,
  and the next round is dealt, until the ruleset's rounds are played.

Every illegal move raises :class:`~.refusals.IllegalMove` with its code; the
state given stands. docs/play.md is the design.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..deal import DealError
from ..lexicon import Lexicon
from ..ruleset import Ruleset, TwoPlayers, WordCheck
from ..scoring import score_round
from .dealing import deal_round, reshuffled, sort_cards
from .knobs import DrawPileOut, Knobs
from .laying import check_laying
from .moves import Challenge, Discard, Draw, GoOut, LayDown, Move, Pass, Take
from .refusals import IllegalMove
from .state import FinishedRound, GameState, Phase, RoundState

__all__ = ["SetupError", "apply", "new_game", "replay"]


class SetupError(ValueError):
    """A game that cannot start: ``field`` (``players``, ``seed``, ``knobs``) is the part of the setup at fault."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


def new_game(ruleset: Ruleset, seed: str, players: Sequence[str], lexicon: Lexicon, knobs: Knobs | None = None) -> GameState:
    """The game before its first move: round 1 dealt from ``seed`` (64 lowercase hex digits) to ``players`` in seat order."""
    knobs = knobs or Knobs()
    names = tuple(players)
    if len(set(names)) != len(names):
        raise SetupError("players", "player names must be distinct")
    choosing = ruleset.two_players is TwoPlayers.CHOICE and len(names) == 2
    if choosing and knobs.bonus_choice is None:
        raise SetupError("knobs", f"ruleset {ruleset.id}: with two players, the knobs name the bonus_choice")
    if not choosing and knobs.bonus_choice is not None:
        raise SetupError("knobs", f"ruleset {ruleset.id} has no bonus choice for {len(names)} players")
    try:
        first = _deal(ruleset, seed, len(names), 1)
    except DealError as err:
        raise SetupError(err.field, str(err)) from err
    return GameState(ruleset.id, seed, names, knobs, _stamp(lexicon), (), first)


def replay(ruleset: Ruleset, seed: str, players: Sequence[str], moves: Iterable[Move], lexicon: Lexicon, knobs: Knobs | None = None) -> GameState:
    """The state after ``moves``, from the game's setup; the first illegal move raises :class:`IllegalMove`."""
    state = new_game(ruleset, seed, players, lexicon, knobs)
    for move in moves:
        state = apply(state, move, ruleset, lexicon)
    return state


def apply(state: GameState, move: Move, ruleset: Ruleset, lexicon: Lexicon) -> GameState:
    """The state after ``move``; :class:`IllegalMove` (and ``state`` unchanged) if the rules refuse it.

    ``ruleset`` and ``lexicon`` must be the game's own (a ``ValueError`` otherwise: misuse, not a move).
    """
    if ruleset.id != state.ruleset:
        raise ValueError(f"the game plays ruleset {state.ruleset}, not {ruleset.id}")
    if _stamp(lexicon) != state.lexicon:
        raise ValueError(f"the game's words are judged by lexicon {dict(state.lexicon)}, not {lexicon.info.stamp()}")
    if state.current is None:
        raise IllegalMove("game_over")
    if not 0 <= move.seat < len(state.players):
        raise IllegalMove("unknown_seat", f"no seat {move.seat}: seats are 0 to {len(state.players) - 1}", seat=move.seat)
    current = _move(state, state.current, move, ruleset, lexicon)
    state = replace(state, current=current, moves=state.moves + 1)
    if current.phase is Phase.CHALLENGES and (ruleset.word_check is not WordCheck.CHALLENGE or all(current.passed)):
        return _score(state, current, ruleset, lexicon)
    return state


def _move(state: GameState, r: RoundState, move: Move, ruleset: Ruleset, lexicon: Lexicon) -> RoundState:
    if r.phase is Phase.CHALLENGES:
        if isinstance(move, Challenge | Pass):
            return _challenge(state, r, move)
        raise IllegalMove("challenge_window")
    if isinstance(move, Challenge | Pass):
        raise IllegalMove("not_challenge_time")
    if move.seat != r.turn:
        raise IllegalMove("not_your_turn", f"seat {r.turn} is to move", turn=r.turn)
    if r.phase is Phase.LAY:
        if isinstance(move, LayDown):
            if move.discard is not None:
                raise IllegalMove("no_discard_now")
            left = check_laying(r.hands[move.seat], move.words, None, r.hand_size, ruleset, lexicon)
            return _end_turn(state, _lay(r, move.seat, move.words, left))
        raise IllegalMove("no_discard_now" if isinstance(move, Discard) else "laying_down")
    if isinstance(move, Draw | Take):
        if r.phase is not Phase.DRAW:
            raise IllegalMove("must_discard")
        return _draw(state, r, move)
    if r.phase is not Phase.DISCARD:
        raise IllegalMove("must_draw_first")
    seat, hand = move.seat, r.hands[move.seat]
    if isinstance(move, Discard):
        if move.card not in hand:
            raise IllegalMove("card_not_in_hand", f"card {move.card} is not in the hand", card=move.card)
        _check_taken(state, r, move.card)
        return _end_turn(state, _discard(r, seat, tuple(c for c in hand if c != move.card), move.card))
    if isinstance(move, GoOut):
        if r.out is not None:
            raise IllegalMove("someone_went_out", f"seat {r.out} has gone out: lay down what words you can", out=r.out)
        if state.knobs.no_going_out_first_turn and r.turns[seat] == 0:
            raise IllegalMove("no_going_out_first_turn")
        left = check_laying(hand, move.words, move.discard, r.hand_size, ruleset, lexicon)
        if move.discard is None:
            raise IllegalMove("final_discard_required")
        if left:
            raise IllegalMove("cards_left_over", f"{len(left)} card(s) left: {', '.join(left)}", cards=list(left))
        _check_taken(state, r, move.discard)
        r = _lay(r, seat, move.words, left)
        return _end_turn(state, replace(_discard(r, seat, left, move.discard), out=seat, stop=seat))
    if isinstance(move, LayDown):
        if r.out is None:
            raise IllegalMove("nobody_went_out")
        left = check_laying(hand, move.words, move.discard, r.hand_size, ruleset, lexicon)
        if move.discard is None:
            raise IllegalMove("final_discard_required")
        _check_taken(state, r, move.discard)
        return _end_turn(state, _discard(_lay(r, seat, move.words, left), seat, left, move.discard))
    raise TypeError(f"not a move: {move!r}")


def _check_taken(state: GameState, r: RoundState, card: str) -> None:
    if not state.knobs.discard_taken_card and card == r.taken:
        raise IllegalMove("discard_taken_card", f"card {card} was just taken from the discard pile", card=card)


def _draw(state: GameState, r: RoundState, move: Draw | Take) -> RoundState:
    seat = move.seat
    if isinstance(move, Take):
        if not r.discard_pile:
            raise IllegalMove("discard_pile_empty")
        card, rest = r.discard_pile[0], r.discard_pile[1:]
        return replace(r, hands=_set(r.hands, seat, sort_cards((*r.hands[seat], card))), discard_pile=rest, phase=Phase.DISCARD, taken=card)
    if not r.draw_pile:
        if state.knobs.draw_pile_out is not DrawPileOut.RESHUFFLE or len(r.discard_pile) < 2:
            raise IllegalMove("draw_pile_empty")
        pile = reshuffled(r.discard_pile[1:], state.seed, r.number, r.reshuffles)
        r = replace(r, draw_pile=pile, discard_pile=r.discard_pile[:1], reshuffles=r.reshuffles + 1)
    card = r.draw_pile[0]
    return replace(r, hands=_set(r.hands, seat, sort_cards((*r.hands[seat], card))), draw_pile=r.draw_pile[1:], phase=Phase.DISCARD, taken=None)


def _lay(r: RoundState, seat: int, words: tuple[tuple[str, ...], ...], left: tuple[str, ...]) -> RoundState:
    return replace(r, hands=_set(r.hands, seat, left), words=_set(r.words, seat, (*r.words[seat], *words)))


def _discard(r: RoundState, seat: int, left: tuple[str, ...], card: str) -> RoundState:
    return replace(r, hands=_set(r.hands, seat, left), discard_pile=(card, *r.discard_pile))


def _end_turn(state: GameState, r: RoundState) -> RoundState:
    """The turn is over: the next seat's turn, the last turns' end, or the draw pile's end of the round."""
    seat = r.turn
    players = len(state.players)
    nxt = (seat + 1) % players
    r = replace(r, turns=_set(r.turns, seat, r.turns[seat] + 1), taken=None)
    if r.stop is not None and nxt == r.stop:
        return replace(r, phase=Phase.CHALLENGES, turn=nxt, passed=(False,) * players)
    if r.phase is Phase.DISCARD and r.out is None and not r.draw_pile and state.knobs.draw_pile_out is DrawPileOut.END_ROUND:
        return replace(r, phase=Phase.LAY, turn=nxt, stop=nxt)
    return replace(r, phase=Phase.LAY if r.phase is Phase.LAY else Phase.DRAW, turn=nxt)


def _challenge(state: GameState, r: RoundState, move: Challenge | Pass) -> RoundState:
    if r.passed[move.seat]:
        raise IllegalMove("not_your_turn", f"seat {move.seat} has passed: its challenges are closed")
    if isinstance(move, Pass):
        return replace(r, passed=_set(r.passed, move.seat, True))
    if not 0 <= move.player < len(state.players):
        raise IllegalMove("unknown_seat", f"no seat {move.player}", seat=move.player)
    if move.player == move.seat:
        raise IllegalMove("challenge_own_word")
    if not 0 <= move.word < len(r.words[move.player]):
        raise IllegalMove("no_such_word", f"seat {move.player} laid {len(r.words[move.player])} word(s)", player=move.player, word=move.word)
    if any((p, w) == (move.player, move.word) for _, p, w in r.challenges):
        raise IllegalMove("already_challenged")
    return replace(r, challenges=(*r.challenges, (move.seat, move.player, move.word)))


def _score(state: GameState, r: RoundState, ruleset: Ruleset, lexicon: Lexicon) -> GameState:
    """The round scored by ``score_round`` and the next one dealt (or the game over)."""
    finished = FinishedRound(r.number, r.words, r.hands, r.out, r.challenges, ())
    result = score_round(finished.play(state.players, state.knobs.bonus_choice), ruleset, lexicon)
    finished = replace(finished, totals=tuple(p.total for p in result.players))
    following = _deal(ruleset, state.seed, len(state.players), r.number + 1) if r.number < len(ruleset.rounds) else None
    return replace(state, finished=(*state.finished, finished), current=following)


def _deal(ruleset: Ruleset, seed: str, players: int, number: int) -> RoundState:
    dealt = deal_round(ruleset, players, number, seed)
    first = (dealt.deal.dealer + 1) % players
    return RoundState(
        number=number,
        dealer=dealt.deal.dealer,
        hand_size=dealt.deal.hand_size,
        hands=dealt.hands,
        draw_pile=dealt.draw_pile,
        discard_pile=(dealt.face_up,),
        turn=first,
        phase=Phase.DRAW,
        turns=(0,) * players,
        words=((),) * players,
    )


def _stamp(lexicon: Lexicon) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(lexicon.info.stamp_view.items()))


def _set(items: tuple, index: int, value: object) -> tuple:  # type: ignore[type-arg]
    return (*items[:index], value, *items[index + 1 :])
