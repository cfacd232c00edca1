"""What a viewer may know of a game: the one projection every body and stream message is built from, and moves named by face.

The engine's state is the referee's whole truth: every hand, the draw pile's
order, and card ids whose copy numbers count the round's dealing order (so
``e.7`` in a hand would tell its holder that six other E cards were dealt
before it). Nothing of it leaves the server as it is. A viewer is a seat
(``0`` to ``P - 1``) or ``None``, a spectator: the table's referee, the
projector and anyone watching a public table see the spectator's projection,
because nobody but a seat may see its hand while the round is played.

- :func:`project` is the state as a viewer may see it: **faces, never ids**.
  A seat sees its own hand; everyone sees each hand's count, the draw pile's
  count (never its order), the discard pile's count and top card, the words
  laid this round, the rounds scored (their words and unused cards, shown at
  the count as at a real table) and the totals.
- :func:`project_move` is one move as a viewer may see it (the stream's
  message): a draw shows its card to the seat that drew only.
- :func:`resolve` reads a move a client sends, its cards named by face
  (``{"kind": "discard", "card": "qu"}``), and names the seat's own copies;
  :func:`public_refusal` turns a refusal's details back into faces.

docs/play.md ("Projections") is the contract.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..lexicon import Lexicon
from ..ruleset import Ruleset
from .dealing import face_of
from .engine import apply
from .moves import Challenge, Discard, Draw, GoOut, LayDown, Move, MoveFormatError, Pass, Take
from .refusals import IllegalMove
from .state import FinishedRound, GameState, RoundState

__all__ = ["project", "project_move", "public_refusal", "replay_public", "resolve"]

#: The kinds a client may send, with the fields each takes besides ``kind``.
PUBLIC_MOVES: dict[str, tuple[str, ...]] = {
    "draw": (),
    "take": (),
    "discard": ("card",),
    "go_out": ("words", "discard"),
    "lay_down": ("words", "discard"),
    "challenge": ("player", "word"),
    "pass": (),
}


def _faces(cards: Sequence[str]) -> list[str]:
    return [face_of(card) for card in cards]


def _words(words: Sequence[Sequence[str]]) -> list[list[str]]:
    return [_faces(word) for word in words]


def _finished(r: FinishedRound) -> dict[str, object]:
    return {
        "number": r.number,
        "words": [_words(words) for words in r.words],
        "unused": [_faces(cards) for cards in r.unused],
        "out": r.out,
        "challenges": [list(c) for c in r.challenges],
        "totals": list(r.totals),
    }


def _round(r: RoundState, viewer: int | None) -> dict[str, object]:
    view: dict[str, object] = {
        "number": r.number,
        "dealer": r.dealer,
        "hand_size": r.hand_size,
        "turn": r.turn,
        "phase": r.phase.value,
        "out": r.out,
        "hand_counts": [len(hand) for hand in r.hands],
        "draw_pile": len(r.draw_pile),
        "discard_pile": len(r.discard_pile),
        "discard_top": face_of(r.discard_pile[0]) if r.discard_pile else None,
        "taken": face_of(r.taken) if r.taken is not None else None,
        "turns": list(r.turns),
        "words": [_words(words) for words in r.words],
        "challenges": [list(c) for c in r.challenges],
        "passed": list(r.passed),
    }
    if viewer is not None:
        view["hand"] = _faces(r.hands[viewer])
    return view


def project(state: GameState, viewer: int | None) -> dict[str, object]:
    """The state as ``viewer`` (a seat, or ``None`` for a spectator) may see it; JSON-ready.

    ``seq`` is the count of moves applied: the version a client quotes when it moves.
    """
    if viewer is not None and not 0 <= viewer < len(state.players):
        raise ValueError(f"no seat {viewer}")
    return {
        "seq": state.moves,
        "ruleset": state.ruleset,
        "players": list(state.players),
        "viewer": viewer,
        "over": state.over,
        "rounds": [_finished(r) for r in state.finished],
        "totals": list(state.totals),
        "round": _round(state.current, viewer) if state.current is not None else None,
    }


def _drawn(before: RoundState, after: RoundState, seat: int) -> str:
    """The face of the card ``seat`` drew: the one card in its hand after and not before."""
    new = set(after.hands[seat]) - set(before.hands[seat])
    (card,) = new
    return face_of(card)


def project_move(before: GameState, move: Move, after: GameState, viewer: int | None) -> dict[str, object]:
    """The move that took ``before`` to ``after`` as ``viewer`` may see it: faces, and a drawn card for its drawer only.

    ``round_over`` (the round scored, as :func:`project` shows it) comes with the move that ends a round.
    """
    event: dict[str, object] = {"seq": after.moves, "kind": move.kind, "seat": move.seat}
    r = before.current
    assert r is not None, "a move is applied to a game being played"
    if isinstance(move, Draw):
        event["reshuffled"] = after.current is not None and after.current.number == r.number and after.current.reshuffles > r.reshuffles
        if viewer == move.seat and after.current is not None and after.current.number == r.number:
            event["card"] = _drawn(r, after.current, move.seat)
    elif isinstance(move, Take):
        event["card"] = face_of(r.discard_pile[0])
    elif isinstance(move, Discard):
        event["card"] = face_of(move.card)
    elif isinstance(move, GoOut | LayDown):
        event["words"] = _words(move.words)
        event["discard"] = face_of(move.discard) if move.discard is not None else None
    elif isinstance(move, Challenge):
        event["player"], event["word"] = move.player, move.word
    if len(after.finished) > len(before.finished):
        event["round_over"] = _finished(after.finished[-1])
    return event


def _field(move: Mapping[str, object], name: str) -> object:
    if name not in move:
        raise MoveFormatError(f"a {move['kind']} move needs {name!r}")
    return move[name]


def _face(value: object, where: str) -> str:
    if not isinstance(value, str) or not value or "." in value:
        raise MoveFormatError(f"{where}: a card is named by its face, as the projection shows it")
    return value


def resolve(state: GameState, seat: int, move: Mapping[str, object]) -> Move:
    """The engine's move for ``seat`` from a client's move naming cards by face; :class:`MoveFormatError` if malformed.

    Copies of one face are the same card for every rule but one: the knob
    ``discard_taken_card``. So the words take the card just taken first and
    a discard takes it last, which makes a legal move of every move that can
    be one. A face the hand does not hold (or holds fewer times than named)
    becomes copy 0 of the face, which no deal has: the engine refuses it
    (``card_not_in_hand``) after the checks that come first, such as whose
    turn it is, and :func:`public_refusal` names it by its face.
    """
    kind = move.get("kind")
    if kind not in PUBLIC_MOVES:
        raise MoveFormatError(f"kind must be one of {', '.join(PUBLIC_MOVES)}")
    extra = set(move) - {"kind", *PUBLIC_MOVES[str(kind)]}
    if extra:
        raise MoveFormatError(f"a {kind} move takes no {sorted(extra)[0]!r}")
    if kind == "draw":
        return Draw(seat)
    if kind == "take":
        return Take(seat)
    if kind == "pass":
        return Pass(seat)
    if kind == "challenge":
        player, word = _field(move, "player"), _field(move, "word")
        if not isinstance(player, int) or isinstance(player, bool) or not isinstance(word, int) or isinstance(word, bool):
            raise MoveFormatError("player and word are whole numbers")
        return Challenge(seat, player, word)
    r = state.current
    if r is None:
        raise IllegalMove("game_over")
    hand = list(r.hands[seat]) if 0 <= seat < len(r.hands) else []
    taken = r.taken

    def pick(face: str, *, last_taken: bool) -> str:
        copies = [card for card in hand if face_of(card) == face]
        if not copies:  # copy 0 is never dealt: the engine refuses it in the rules' order (a turn's half before its cards)
            return f"{face}.0"
        if taken in copies and len(copies) > 1:
            copies.remove(taken)
            copies = [*copies, taken] if last_taken else [taken, *copies]
        card = copies[0]
        hand.remove(card)
        return card

    if kind == "discard":
        return Discard(seat, pick(_face(_field(move, "card"), "card"), last_taken=True))
    words = _field(move, "words")
    if not isinstance(words, list) or not all(isinstance(word, list) for word in words):
        raise MoveFormatError("words: a list of words, each a list of faces")
    laid = tuple(tuple(pick(_face(face, "words"), last_taken=False) for face in word) for word in words)
    discard = _field(move, "discard")
    if discard is None:
        if kind == "go_out":
            raise IllegalMove("final_discard_required")
        return LayDown(seat, laid, None)
    card = pick(_face(discard, "discard"), last_taken=True)
    return GoOut(seat, laid, card) if kind == "go_out" else LayDown(seat, laid, card)


def replay_public(state: GameState, moves: Sequence[Mapping[str, object]], ruleset: Ruleset, lexicon: Lexicon) -> GameState:
    """``state`` after ``moves`` as spectators saw them (:func:`project_move`'s messages: ``seat``, ``kind`` and the faces shown).

    A move names its cards by face and :func:`resolve` picks the same copies
    from the same state, so a game's public moves and its seed (revealed at
    its end) replay it to the very state the server reached: the audit trail
    of a hosted game is its whole record.
    """
    for event in moves:
        fields = {key: event[key] for key in PUBLIC_MOVES.get(str(event.get("kind")), ()) if key in event}
        move = resolve(state, int(event["seat"]), {"kind": event["kind"], **fields})  # type: ignore[call-overload]
        state = apply(state, move, ruleset, lexicon)
    return state


def public_refusal(refusal: IllegalMove) -> IllegalMove:
    """``refusal`` with every card id in its message and details named by face (what a client may read)."""
    details = dict(refusal.details)
    if isinstance(details.get("card"), str):
        details["card"] = face_of(str(details["card"])) if "." in str(details["card"]) else details["card"]
    if isinstance(details.get("cards"), list):
        details["cards"] = [face_of(c) if "." in c else c for c in details["cards"]]
    message = str(refusal)
    if refusal.code in ("card_not_in_hand", "card_named_twice", "discard_taken_card", "cards_left_over"):
        message = refusal.__class__(refusal.code).args[0]
    return IllegalMove(refusal.code, message, **details)
