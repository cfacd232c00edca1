"""YAML rulesets through marshmallow into :class:`wordsvc.core.ruleset.Ruleset`.

One file per ruleset in a folder, id = file name. ``extends: ID`` merges the
file onto its parent: mappings merge key by key, anything else replaces, and
in a ``deck`` mapping a card set to ``null`` is removed. ``deck: NAME`` (a
string) takes the whole deck from ``decks/NAME.yaml`` beside the rulesets,
replacing the inherited deck rather than merging with it.

Every problem in every file is collected and reported at once, each as
``folder/file.yaml: key.path: message`` (packaging's habit), and unknown keys
are errors: a typo must not silently become a default.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from ..core.cards import Card, Deck
from ..core.errors import RulesetError, UnknownRuleset
from ..core.lexicon import KNOWN_CLASSES
from ..core.ruleset import BonusTie, Floor, LongestMeasure, Ruleset, SolitaireRules, TwoPlayers, Unused, WordCheck
from ..core.text import normalize

__all__ = ["RulesetBook", "default_rulesets_dir", "load_rulesets", "ruleset_document", "ruleset_from_document"]

ID_PATTERN = r"^[a-z0-9][a-z0-9-]*$"


def _at_least(n: int) -> validate.Range:
    return validate.Range(min=n, error="must be at least {min}")


def _one_of(choices: Any) -> validate.OneOf:
    values = [c.value for c in choices] if isinstance(choices, type) else list(choices)
    return validate.OneOf(values, error="must be one of: {choices}")


class CardSchema(Schema):
    class Meta:
        unknown = RAISE

    count = fields.Integer(required=True, strict=True, validate=_at_least(0))
    value = fields.Integer(required=True, strict=True, validate=_at_least(0))


class DeckFileSchema(Schema):
    class Meta:
        unknown = RAISE

    name = fields.String(required=True)
    description = fields.String(load_default="")
    derivation = fields.Dict(load_default=None)
    cards = fields.Dict(keys=fields.String(validate=validate.Length(min=1)), values=fields.Nested(CardSchema), required=True)


class PlayersSchema(Schema):
    class Meta:
        unknown = RAISE

    min = fields.Integer(strict=True, validate=_at_least(1), required=True)
    max = fields.Integer(strict=True, validate=_at_least(1), required=True)


class WordsSchema(Schema):
    class Meta:
        unknown = RAISE

    min_cards = fields.Integer(strict=True, validate=_at_least(0), required=True)
    min_letters = fields.Integer(strict=True, validate=_at_least(0), required=True)
    banned_classes = fields.List(fields.String(validate=_one_of(sorted(KNOWN_CLASSES))), required=True)
    house_allow = fields.List(fields.String(validate=validate.Length(min=1)), required=True)
    house_refuse = fields.List(fields.String(validate=validate.Length(min=1)), required=True)
    check = fields.String(validate=_one_of(WordCheck), required=True)


class BonusesSchema(Schema):
    class Meta:
        unknown = RAISE

    longest_word = fields.Integer(strict=True, validate=_at_least(0), required=True)
    most_words = fields.Integer(strict=True, validate=_at_least(0), required=True)
    longest_measure = fields.String(validate=_one_of(LongestMeasure), required=True)
    tie = fields.String(validate=_one_of(BonusTie), required=True)
    two_players = fields.String(validate=_one_of(TwoPlayers), required=True)
    length = fields.Dict(
        keys=fields.Integer(validate=_at_least(1)), values=fields.Integer(strict=True, validate=_at_least(0))
    )  # letters -> points; JSON snapshots write the keys as strings


class SolitaireSchema(Schema):
    class Meta:
        unknown = RAISE

    piles = fields.Integer(strict=True, validate=_at_least(1))
    depth = fields.Integer(strict=True, validate=_at_least(1))
    rebuild = fields.Boolean()
    rebuild_from = fields.String(validate=_one_of(("any", "covering")))
    turn_after_rebuild = fields.Boolean()


class DeckField(fields.Field):
    """``deck:`` is a deck file's name, or a mapping of cards (null removes one)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str):
            if not value:
                raise ValidationError("must name a deck file or map cards")
            return value
        if not isinstance(value, Mapping):
            raise ValidationError("must name a deck file or map cards")
        errors: dict[str, Any] = {}
        for face, card in value.items():
            if not isinstance(face, str) or not face.strip():
                errors[str(face)] = ["a card face is one or more letters"]
            elif card is not None:
                try:
                    CardSchema(partial=self.parent.partial).load(card)  # type: ignore[union-attr]
                except ValidationError as err:
                    errors[face] = err.messages
        if errors:
            raise ValidationError(errors)
        return dict(value)


class RulesetFileSchema(Schema):
    """One ruleset file; loaded with ``partial=True`` before merging, in full after."""

    class Meta:
        unknown = RAISE

    extends = fields.String(load_default=None, validate=validate.Regexp(ID_PATTERN, error="must be a ruleset id"))
    name = fields.String(required=True, validate=validate.Length(min=1))
    description = fields.String(required=True)
    language = fields.String(required=True, validate=validate.Length(min=2))
    players = fields.Nested(PlayersSchema, required=True)
    rounds = fields.List(fields.Integer(strict=True, validate=_at_least(1)), required=True, validate=validate.Length(min=1, error="needs at least {min} round"))
    deck = DeckField(required=True)
    words = fields.Nested(WordsSchema, required=True)
    bonuses = fields.Nested(BonusesSchema, required=True)
    floor = fields.String(required=True, validate=_one_of(Floor))
    unused = fields.String(load_default=Unused.SUBTRACT.value, validate=_one_of(Unused))
    solitaire = fields.Nested(SolitaireSchema, load_default=dict)

    @validates_schema
    def _players_order(self, data: dict[str, Any], **kwargs: Any) -> None:
        players = data.get("players") or {}
        if "min" in players and "max" in players and players["min"] > players["max"]:
            raise ValidationError("min must not exceed max", "players")


def default_rulesets_dir() -> Path:
    """``rulesets/`` of the source tree; ``WORDSVC_RULESETS_DIR`` overrides it (see config)."""
    return Path(__file__).resolve().parents[2] / "rulesets"


@dataclass(frozen=True)
class RulesetBook:
    """Every ruleset of a folder, resolved. ``get`` raises :class:`UnknownRuleset`."""

    rulesets: dict[str, Ruleset]
    folder: Path

    def get(self, ruleset_id: str) -> Ruleset:
        try:
            return self.rulesets[ruleset_id]
        except KeyError:
            known = ", ".join(sorted(self.rulesets))
            raise UnknownRuleset(f"No ruleset {ruleset_id!r}; known: {known}.", {"ruleset": [f"unknown ruleset; known: {known}"]}) from None

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.rulesets.values())


def load_rulesets(folder: str | Path | None = None) -> RulesetBook:
    """Load and resolve every ``*.yaml`` in ``folder``; raise :class:`RulesetError` listing every problem."""
    folder = Path(folder) if folder is not None else default_rulesets_dir()
    label = folder.name
    problems: list[str] = []
    raw: dict[str, dict[str, Any]] = {}
    broken: set[str] = set()
    files = sorted(folder.glob("*.yaml"))
    if not files:
        raise RulesetError(f"{label}: no *.yaml rulesets found", {label: ["no *.yaml rulesets found"]})
    for path in files:
        where = f"{label}/{path.name}"
        if not _valid_id(path.stem):
            problems.append(f"{where}: file name must be a ruleset id (lowercase letters, digits, hyphens)")
            continue
        data = _read_yaml(path, where, problems)
        if data is None:
            continue
        try:
            RulesetFileSchema(partial=True).load(data)
        except ValidationError as err:
            problems.extend(_flatten(where, err.messages))
            broken.add(path.stem)
        raw[path.stem] = data

    rulesets: dict[str, Ruleset] = {}
    decks: dict[str, dict[str, Any] | None] = {}

    def deck_cards(name: str, where: str) -> dict[str, Any] | None:
        if name not in decks:
            decks[name] = _read_deck(folder, name, where, problems)
        return decks[name]

    for ruleset_id in sorted(raw):
        where = f"{label}/{ruleset_id}.yaml"
        merged = _merged(ruleset_id, raw, broken, where, problems, label, files, deck_cards)
        if merged is None:
            continue
        try:
            data = RulesetFileSchema().load(merged)
        except ValidationError as err:
            problems.extend(_flatten(where, err.messages))
            continue
        ruleset = _build(ruleset_id, raw[ruleset_id].get("extends"), data, _make_deck(data["deck"]))
        problems.extend(f"{where}: {message}" for message in _semantic_problems(ruleset))
        rulesets[ruleset_id] = ruleset
    problems = list(dict.fromkeys(problems))  # a file's own problems show in both passes
    if problems:
        raise RulesetError(f"{len(problems)} problem(s) in rulesets", {"rulesets": problems})
    return RulesetBook(rulesets, folder)


def ruleset_document(ruleset: Ruleset) -> dict[str, Any]:
    """The resolved ruleset as a ruleset file would write it (no ``extends``, the deck's cards in full).

    What the ledger snapshots when an event is created: :func:`ruleset_from_document`
    turns it back into the same :class:`Ruleset`, whatever the YAML on disk says later.
    """
    return {
        "name": ruleset.name,
        "description": ruleset.description,
        "language": ruleset.language,
        "players": {"min": ruleset.players_min, "max": ruleset.players_max},
        "rounds": list(ruleset.rounds),
        "deck": {card.face: {"count": card.count, "value": card.value} for card in ruleset.deck.cards.values()},
        "words": {
            "min_cards": ruleset.min_cards,
            "min_letters": ruleset.min_letters,
            "banned_classes": sorted(ruleset.banned_classes),
            "house_allow": sorted(ruleset.house_allow),
            "house_refuse": sorted(ruleset.house_refuse),
            "check": ruleset.word_check.value,
        },
        "bonuses": {
            "longest_word": ruleset.bonus_points["longest_word"],
            "most_words": ruleset.bonus_points["most_words"],
            "longest_measure": ruleset.longest_measure.value,
            "tie": ruleset.bonus_tie.value,
            "two_players": ruleset.two_players.value,
            "length": {str(letters): points for letters, points in ruleset.length_bonus},
        },
        "floor": ruleset.floor.value,
        "unused": ruleset.unused.value,
        "solitaire": dataclasses.asdict(ruleset.solitaire),
    }


def ruleset_from_document(ruleset_id: str, document: Any) -> Ruleset:
    """The :class:`Ruleset` of a :func:`ruleset_document`; :class:`RulesetError` listing every problem if it is not one."""
    where = f"ruleset {ruleset_id}"
    try:
        data = RulesetFileSchema().load(document)
        if data.get("extends") is not None or not isinstance(data["deck"], dict):
            raise ValidationError("a snapshot has no extends and lists its deck's cards", "deck")
    except ValidationError as err:
        problems = _flatten(where, err.messages)
        raise RulesetError(f"{len(problems)} problem(s) in {where}", {"ruleset": problems}) from None
    ruleset = _build(ruleset_id, None, data, _make_deck(data["deck"]))
    problems = [f"{where}: {message}" for message in _semantic_problems(ruleset)]
    if problems:
        raise RulesetError(f"{len(problems)} problem(s) in {where}", {"ruleset": problems})
    return ruleset


def _valid_id(text: str) -> bool:
    return re.fullmatch(ID_PATTERN, text) is not None


def _read_yaml(path: Path, where: str, problems: list[str]) -> dict[str, Any] | None:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as err:
        problems.append(f"{where}: not valid YAML: {str(err).splitlines()[0]}")
        return None
    if not isinstance(data, dict):
        problems.append(f"{where}: must be a mapping of settings")
        return None
    return data


def _merged(
    ruleset_id: str,
    raw: dict[str, dict[str, Any]],
    broken: set[str],
    where: str,
    problems: list[str],
    label: str,
    files: list[Path],
    deck_cards: Callable[[str, str], dict[str, Any] | None],
) -> dict[str, Any] | None:
    """The ruleset with its ancestors merged in; a deck named by file becomes that file's cards first."""
    chain = [ruleset_id]
    while (parent := raw[chain[-1]].get("extends")) is not None:
        if parent in chain:
            problems.append(f"{where}: extends: cycle {' -> '.join([*chain, parent])}")
            return None
        if parent not in raw or parent in broken:
            exists = any(f.stem == parent for f in files)
            problems.append(f"{where}: extends: " + (f"ruleset {parent!r} has problems of its own" if exists else f"no ruleset {parent!r} in {label}/"))
            return None
        chain.append(parent)
    merged: dict[str, Any] = {}
    for link in reversed(chain):
        layer = raw[link]
        if isinstance(layer.get("deck"), str):
            cards = deck_cards(layer["deck"], f"{label}/{link}.yaml")
            if cards is None:
                return None
            layer = {**layer, "deck": cards}
            merged = {**merged, "deck": {}}  # a deck named by file replaces the inherited one whole
        merged = _merge(merged, layer)
    merged.pop("extends", None)
    if isinstance(merged.get("deck"), dict):
        merged["deck"] = {face: card for face, card in merged["deck"].items() if card is not None}
    return merged


def _merge(base: Any, over: Any) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = _merge(base.get(key), value) if key in base else value
        return out
    return over


def _read_deck(folder: Path, name: str, where: str, problems: list[str]) -> dict[str, Any] | None:
    """The cards of ``decks/NAME.yaml``, validated, as plain YAML data."""
    path = folder / "decks" / f"{name}.yaml"
    deck_where = f"{folder.name}/decks/{name}.yaml"
    if not _valid_id(name) or not path.is_file():
        problems.append(f"{where}: deck: no deck file {deck_where}")
        return None
    data = _read_yaml(path, deck_where, problems)
    if data is None:
        return None
    try:
        DeckFileSchema().load(data)
    except ValidationError as err:
        problems.extend(_flatten(deck_where, err.messages))
        return None
    return dict(data["cards"])


def _make_deck(cards: Mapping[str, Mapping[str, int]]) -> Deck:
    return Deck(Card(normalize(face), card["count"], card["value"]) for face, card in cards.items())


def _build(ruleset_id: str, extends: str | None, data: dict[str, Any], deck: Deck) -> Ruleset:
    words, bonuses = data["words"], data["bonuses"]
    return Ruleset(
        id=ruleset_id,
        name=data["name"],
        description=data["description"],
        extends=extends,
        language=data["language"],
        deck=deck,
        rounds=tuple(data["rounds"]),
        players_min=data["players"]["min"],
        players_max=data["players"]["max"],
        min_cards=words["min_cards"],
        min_letters=words["min_letters"],
        banned_classes=frozenset(words["banned_classes"]),
        house_allow=frozenset(normalize(w) for w in words["house_allow"]),
        house_refuse=frozenset(normalize(w) for w in words["house_refuse"]),
        word_check=WordCheck(words["check"]),
        bonus_points={"longest_word": bonuses["longest_word"], "most_words": bonuses["most_words"]},
        longest_measure=LongestMeasure(bonuses["longest_measure"]),
        bonus_tie=BonusTie(bonuses["tie"]),
        two_players=TwoPlayers(bonuses["two_players"]),
        floor=Floor(data["floor"]),
        unused=Unused(data["unused"]),
        length_bonus=tuple(sorted((int(letters), points) for letters, points in (bonuses.get("length") or {}).items())),
        solitaire=SolitaireRules(**data["solitaire"]),
    )


def _semantic_problems(ruleset: Ruleset) -> list[str]:
    """Rules the schema cannot see: the deck must deal a full game, a word must need something."""
    out = []
    needed = ruleset.max_hand * ruleset.players_max + 1
    if ruleset.deck.size < needed:
        out.append(
            f"deck: {ruleset.deck.size} cards cannot deal round {ruleset.rounds.index(ruleset.max_hand) + 1} "
            f"({ruleset.max_hand} cards) to {ruleset.players_max} players and turn up a discard ({needed} needed)"
        )
    layout = ruleset.solitaire.piles * ruleset.solitaire.depth
    if layout > ruleset.deck.size:
        out.append(f"solitaire: {ruleset.solitaire.piles} piles of {ruleset.solitaire.depth} need {layout} cards; the deck has {ruleset.deck.size}")
    if ruleset.min_cards < 1 and ruleset.min_letters < 1:
        out.append("words: min_cards or min_letters must be at least 1")
    overlap = ruleset.house_allow & ruleset.house_refuse
    if overlap:
        out.append(f"words.house_allow: also refused in house_refuse: {', '.join(sorted(overlap))}")
    return out


def _flatten(where: str, messages: Any, path: tuple[str, ...] = ()) -> list[str]:
    """marshmallow's nested error dict as ``where: a.b.c: message`` lines."""
    if isinstance(messages, dict):
        out = []
        dict_field = bool(path) and set(messages) <= {"key", "value"}  # marshmallow's Dict nests errors a level deeper
        for key, value in messages.items():
            sub = path if key == "_schema" or dict_field else (*path, str(key))
            out.extend(_flatten(where, value, sub))
        return out
    if isinstance(messages, list) and messages and all(isinstance(m, str) for m in messages):
        key = ".".join(path) or "(top)"
        return [f"{where}: {key}: {_lower(m)}" for m in messages]
    if isinstance(messages, list):
        return [line for m in messages for line in _flatten(where, m, path)]
    return [f"{where}: {'.'.join(path) or '(top)'}: {_lower(str(messages))}"]


def _lower(message: str) -> str:
    """marshmallow says 'Unknown field.'; we say 'unknown field'."""
    message = message.rstrip(".")
    return message[:1].lower() + message[1:]
