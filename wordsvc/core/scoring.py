"""Scoring a round, exactly per the rules and the ruleset's knobs.

Each player scores the points of the words that count (their cards' values,
plus the ruleset's length bonus) minus the value of the cards left over (plus,
in automatic mode, the cards of words that are not valid; nothing under
``unused: ignore``), then the round's bonuses, then the floor. Challenges (rules-et.txt):
a valid challenged word costs the challenger its value; an invalid one counts
as unused cards for its owner.

The request is checked as a whole before anything is scored, and every
problem is reported at once with its field path (:class:`InvalidRequest`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..i18n import DEFAULT_LOCALE
from . import problem_codes as codes
from .cards import Cards
from .errors import Problems
from .lexicon import Lexicon
from .ruleset import BONUS_KINDS, BonusTie, Floor, LongestMeasure, Ruleset, TwoPlayers, WordCheck
from .verdict import Verdict, judge_cards

__all__ = ["BonusAward", "Challenge", "PlayerPlay", "PlayerScore", "RoundPlay", "RoundResult", "WordScore", "score_round"]


@dataclass(frozen=True)
class PlayerPlay:
    name: str
    words: tuple[Cards, ...]
    unused: Cards = ()
    went_out: bool = False


@dataclass(frozen=True)
class Challenge:
    by: str
    player: str
    word: int


@dataclass(frozen=True)
class RoundPlay:
    players: tuple[PlayerPlay, ...]
    round: int | None = None
    challenges: tuple[Challenge, ...] = ()
    bonus_choice: str | None = None


@dataclass(slots=True)
class WordScore:
    cards: Cards
    verdict: Verdict
    points: int  # the cards' values plus the ruleset's length bonus
    counted: bool
    letters: int  # letters on the cards (the longest-word measure)
    challenged_by: str | None = None
    length_bonus: int = 0

    def to_dict(self, locale: str = DEFAULT_LOCALE) -> dict[str, object]:
        reasons = self.verdict.reasons
        return {
            "word": self.verdict.normalized,
            "cards": [face.upper() for face in self.cards],
            "letters": self.letters,
            "points": self.points,
            "length_bonus": self.length_bonus,
            "valid": self.verdict.valid,
            "counted": self.counted,
            "reason": reasons[0].to_dict(locale) if reasons else None,
            "challenged_by": self.challenged_by,
        }


@dataclass(slots=True)
class PlayerScore:
    name: str
    words: list[WordScore]
    word_points: int
    unused_points: int
    challenge_penalty: int = 0
    bonuses: list[tuple[str, int]] = field(default_factory=list)
    total: int = 0
    went_out_valid: bool | None = None

    def to_dict(self, locale: str = DEFAULT_LOCALE) -> dict[str, object]:
        return {
            "name": self.name,
            "words": [word.to_dict(locale) for word in self.words],
            "word_points": self.word_points,
            "unused_points": self.unused_points,
            "challenge_penalty": self.challenge_penalty,
            "bonuses": [{"kind": kind, "points": points} for kind, points in self.bonuses],
            "total": self.total,
            "went_out_valid": self.went_out_valid,
        }


@dataclass(frozen=True)
class BonusAward:
    kind: str
    points: int
    winners: tuple[str, ...]
    tied: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "points": self.points,
            "winner": self.winners[0] if len(self.winners) == 1 and not self.tied else None,
            "winners": list(self.winners),
            "tied": list(self.tied),
        }


@dataclass(frozen=True)
class RoundResult:
    ruleset: str
    round: int | None
    players: tuple[PlayerScore, ...]
    bonuses: tuple[BonusAward, ...]
    lexicon: dict[str, str]

    def totals(self) -> dict[str, int]:
        return {player.name: player.total for player in self.players}

    def to_dict(self, locale: str = DEFAULT_LOCALE) -> dict[str, object]:
        return {
            "ruleset": self.ruleset,
            "round": self.round,
            "players": [player.to_dict(locale) for player in self.players],
            "bonuses": [bonus.to_dict() for bonus in self.bonuses],
            "lexicon": self.lexicon,
        }


def score_round(play: RoundPlay, ruleset: Ruleset, lexicon: Lexicon) -> RoundResult:
    """Score one round; raises :class:`InvalidRequest` listing every integrity problem."""
    check_round(play, ruleset)
    deck = ruleset.deck
    challenge_mode = ruleset.word_check is WordCheck.CHALLENGE
    verdicts: dict[Cards, Verdict] = {}
    scores: dict[str, PlayerScore] = {}
    for player in play.players:
        words = []
        for cards in player.words:
            verdict = verdicts.get(cards)
            if verdict is None:
                verdict = verdicts[cards] = judge_cards(cards, ruleset, lexicon)
            counted = True if challenge_mode else verdict.valid
            letters = sum(map(len, cards))
            bonus = ruleset.word_bonus(letters) if ruleset.length_bonus else 0
            words.append(WordScore(cards, verdict, deck.points(cards) + bonus, counted, letters, None, bonus))
        scores[player.name] = PlayerScore(player.name, words, 0, ruleset.unused_cost(deck.points(player.unused)))

    for challenge in play.challenges:
        word = scores[challenge.player].words[challenge.word]
        word.challenged_by = challenge.by
        if word.verdict.valid:
            scores[challenge.by].challenge_penalty += word.points
        else:
            word.counted = False

    for player, score in zip(play.players, scores.values(), strict=True):
        score.word_points = sum(w.points for w in score.words if w.counted)
        score.unused_points += ruleset.unused_cost(sum(w.points - w.length_bonus for w in score.words if not w.counted))
        if player.went_out:
            score.went_out_valid = not player.unused and all(w.counted and w.verdict.valid for w in score.words)

    awards = _bonuses(play, ruleset, list(scores.values()))
    for award in awards:
        for name in award.winners:
            scores[name].bonuses.append((award.kind, award.points))

    for score in scores.values():
        base = score.word_points - score.unused_points - score.challenge_penalty
        bonus = sum(points for _, points in score.bonuses)
        if ruleset.floor is Floor.TOTAL:
            score.total = max(0, base + bonus)
        elif ruleset.floor is Floor.BEFORE_BONUSES:
            score.total = max(0, base) + bonus
        else:
            score.total = base + bonus
    return RoundResult(ruleset.id, play.round, tuple(scores.values()), tuple(awards), lexicon.info.stamp())


def _bonuses(play: RoundPlay, ruleset: Ruleset, scores: Sequence[PlayerScore]) -> list[BonusAward]:
    awards = []
    kinds = ruleset.bonuses_in_play(len(scores), play.bonus_choice)
    counted = [[w for w in score.words if w.counted] for score in scores] if kinds else []
    for kind in kinds:
        measure = {score.name: _bonus_measure(kind, words, ruleset) for score, words in zip(scores, counted, strict=True)}
        best = max(measure.values(), default=0)
        leaders = tuple(name for name, value in measure.items() if value == best) if best > 0 else ()
        if len(leaders) > 1 and ruleset.bonus_tie is BonusTie.NOBODY:
            winners: tuple[str, ...] = ()
        else:
            winners = leaders
        tied = leaders if len(leaders) > 1 else ()
        awards.append(BonusAward(kind, ruleset.bonus_points[kind], winners, tied))
    return awards


def _bonus_measure(kind: str, counted: Sequence[WordScore], ruleset: Ruleset) -> int:
    if kind == "most_words":
        return len(counted)
    if ruleset.longest_measure is LongestMeasure.CARDS:
        return max((len(w.cards) for w in counted), default=0)
    return max((w.letters for w in counted), default=0)


def check_round(play: RoundPlay, ruleset: Ruleset, problems: Problems | None = None, prefix: str = "") -> None:
    """Every integrity problem of ``play`` under ``ruleset``, raised at once.

    With ``problems`` given, problems are added there (paths under ``prefix``)
    and nothing is raised: a game collects the problems of all its rounds.
    """
    own = problems is None
    problems = problems if problems is not None else Problems()
    deck = ruleset.deck
    p = prefix
    count = len(play.players)
    if not ruleset.players_min <= count <= ruleset.players_max:
        problems.add(f"{p}players", f"{count} player(s); ruleset {ruleset.id} is for {ruleset.players_min} to {ruleset.players_max}", code=codes.PLAYER_COUNT)
    if play.round is not None and not 1 <= play.round <= len(ruleset.rounds):
        problems.add(f"{p}round", f"must be between 1 and {len(ruleset.rounds)} in ruleset {ruleset.id}", code=codes.ROUND_OUT_OF_RANGE)
    hand = ruleset.hand_size(play.round) if play.round is not None and 1 <= play.round <= len(ruleset.rounds) else None

    names: dict[str, int] = {}
    used: list[str] = []
    known = deck.cards.keys()
    for i, player in enumerate(play.players):
        if player.name in names:
            problems.add(f"{p}players.{i}.name", f"duplicate player name {player.name!r} (also player {names[player.name]})", code=codes.DUPLICATE_NAME)
        names.setdefault(player.name, i)
        for j, cards in enumerate(player.words):
            if not cards:
                problems.add(f"{p}players.{i}.words.{j}", "a word needs at least one card", code=codes.EMPTY_WORD)
            elif not known >= set(cards):
                for face in deck.unknown_faces(cards):
                    problems.add(f"{p}players.{i}.words.{j}", f"no card {face.upper()!r} in the deck of ruleset {ruleset.id}", code=codes.UNKNOWN_CARD)
            used += cards
        if not known >= set(player.unused):
            for k, face in enumerate(player.unused):
                if face not in deck:
                    problems.add(f"{p}players.{i}.unused.{k}", f"no card {face.upper()!r} in the deck of ruleset {ruleset.id}", code=codes.UNKNOWN_CARD)
        used += player.unused
        held = sum(map(len, player.words)) + len(player.unused)
        if hand is not None and held != hand:
            problems.add(f"{p}players.{i}", f"holds {held} card(s); round {play.round} deals {hand}", code=codes.HAND_SIZE)
        elif hand is None and held > ruleset.max_hand:
            problems.add(f"{p}players.{i}", f"holds {held} card(s); no hand in ruleset {ruleset.id} is larger than {ruleset.max_hand}", code=codes.HAND_SIZE)
    for face, n in sorted(deck.over_count(used).items()):
        problems.add(f"{p}players", f"{n} {face.upper()} cards in play; the deck holds {deck.count(face)}", code=codes.TOO_MANY_COPIES)
    if sum(player.went_out for player in play.players) > 1:
        problems.add(f"{p}players", "only one player can go out", code=codes.ONE_GOES_OUT)

    _check_challenges(play, ruleset, names, problems, p)
    _check_bonus_choice(play, ruleset, problems, p)
    if own:
        problems.raise_if_any("The round does not add up; see errors.")


def _check_challenges(play: RoundPlay, ruleset: Ruleset, names: dict[str, int], problems: Problems, p: str) -> None:
    if play.challenges and ruleset.word_check is not WordCheck.CHALLENGE:
        problems.add(f"{p}challenges", f"ruleset {ruleset.id} judges every word automatically; challenges need word_check: challenge", code=codes.INVALID_CHALLENGE)
        return
    seen: set[tuple[str, int]] = set()
    for i, challenge in enumerate(play.challenges):
        path = f"{p}challenges.{i}"
        if challenge.by not in names:
            problems.add(f"{path}.by", f"no player named {challenge.by!r}", code=codes.INVALID_CHALLENGE)
        if challenge.player not in names:
            problems.add(f"{path}.player", f"no player named {challenge.player!r}", code=codes.INVALID_CHALLENGE)
            continue
        if challenge.by == challenge.player:
            problems.add(f"{path}.by", "a player cannot challenge their own word", code=codes.INVALID_CHALLENGE)
        words = play.players[names[challenge.player]].words
        if not 0 <= challenge.word < len(words):
            problems.add(f"{path}.word", f"{challenge.player} laid {len(words)} word(s); no word {challenge.word}", code=codes.INVALID_CHALLENGE)
        elif (challenge.player, challenge.word) in seen:
            problems.add(f"{path}.word", "that word is already challenged", code=codes.INVALID_CHALLENGE)
        seen.add((challenge.player, challenge.word))


def _check_bonus_choice(play: RoundPlay, ruleset: Ruleset, problems: Problems, p: str) -> None:
    choosing = ruleset.two_players is TwoPlayers.CHOICE and len(play.players) == 2
    if play.bonus_choice is not None and play.bonus_choice not in BONUS_KINDS:
        problems.add(f"{p}bonus_choice", f"must be one of: {', '.join(BONUS_KINDS)}", code=codes.INVALID_BONUS_CHOICE)
    elif choosing and play.bonus_choice is None:
        problems.add(f"{p}bonus_choice", f"ruleset {ruleset.id}: with two players, choose longest_word or most_words", code=codes.INVALID_BONUS_CHOICE)
    elif not choosing and play.bonus_choice is not None:
        problems.add(f"{p}bonus_choice", f"ruleset {ruleset.id} has no bonus choice for {len(play.players)} players", code=codes.INVALID_BONUS_CHOICE)
