"""What every request and response schema shares: strict schemas, text checks, card fields, limits.

The request schemas are used by the HTTP API and the CLI alike; the response
schemas document the API (OpenAPI is generated from them) and a test checks
real responses against them, so the document cannot drift from the service.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from ..core.cards import CardSyntaxError, format_cards, parse_cards

MAX_PLAYERS = 16
MAX_WORDS = 100
MAX_FACE = 8
MAX_TEXT = 256


#: Unicode's control characters (category Cc): U+0000-U+001F and U+007F-U+009F.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def check_text(value: str) -> None:
    """Control characters (NUL, newlines, ...) are never part of a word or a name."""
    if CONTROL.search(value):
        raise ValidationError("must not contain control characters")


class Strict(Schema):
    class Meta:
        unknown = RAISE


class StrictBoolean(fields.Boolean):
    """JSON true or false only: not "yes", not 1 (1 == True in a Python set)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def _face_problem(face: Any) -> str:
    """What is wrong with one card face of a list, or '' when nothing is."""
    if not isinstance(face, str) or not face.strip():
        return "must be a card face (one or more letters)"
    if len(face) > MAX_FACE:
        return f"a card face has at most {MAX_FACE} letters"
    if CONTROL.search(face):
        return "must not contain control characters"
    return ""


CARDS_HINT = "must be a list of card faces or a compact string such as (qu)iz"


def load_cards(value: Any, allow_empty: bool = False, max_cards: int = MAX_TEXT) -> tuple[str, ...]:
    """Cards given as ``["QU","I","Z"]`` or ``"(qu)iz"``, as normalized faces; ValidationError (per card) if not."""
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise ValidationError(f"at most {MAX_TEXT} characters")
        check_text(value)
    elif isinstance(value, list):
        if len(value) > max_cards:
            raise ValidationError(f"at most {max_cards} cards")
        bad = {i: [_face_problem(face)] for i, face in enumerate(value) if _face_problem(face)}
        if bad:
            raise ValidationError(bad)  # type: ignore[arg-type]  # per card: players.0.unused.3
    else:
        raise ValidationError(CARDS_HINT)
    try:
        faces = parse_cards(value)
    except CardSyntaxError as err:
        raise ValidationError(str(err)) from err
    if not faces and not allow_empty:
        raise ValidationError("needs at least one card")
    if len(faces) > max_cards:
        raise ValidationError(f"at most {max_cards} cards")
    return faces


class CardsField(fields.Field):
    """A word's cards: ``["QU","I","Z"]`` or compact ``"(qu)iz"``; loads to a tuple of faces."""

    def __init__(self, *, allow_empty: bool = False, max_cards: int = MAX_TEXT, **kwargs: Any):
        super().__init__(**kwargs)
        self.allow_empty = allow_empty
        self.max_cards = max_cards

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> tuple[str, ...]:
        return load_cards(value, self.allow_empty, self.max_cards)


def load_words(value: Any) -> tuple[tuple[str, ...], ...]:
    """A player's words, each read by :func:`load_cards`; ValidationError per word and card if not."""
    if not isinstance(value, list):
        raise ValidationError("must be a list of words")
    if len(value) > MAX_WORDS:
        raise ValidationError(f"at most {MAX_WORDS} words")
    words, errors = [], {}
    for i, word in enumerate(value):
        try:
            words.append(load_cards(word))
        except ValidationError as err:
            errors[i] = err.messages
    if errors:
        raise ValidationError(errors)  # type: ignore[arg-type]
    return tuple(words)


class WordsField(fields.Field):
    """A player's words, each as :class:`CardsField` reads it: one field for the list, errors still per word and card."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> tuple[tuple[str, ...], ...]:
        return load_words(value)


class WordField(fields.Field):
    """A word to judge: plain letters, compact notation, or a card list (judged as that laying)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if isinstance(value, str):
            if len(value) > MAX_TEXT:
                raise ValidationError(f"at most {MAX_TEXT} characters")
            check_text(value)
            return value
        if isinstance(value, list) and value and len(value) <= MAX_TEXT and all(isinstance(f, str) and 0 < len(f) <= MAX_FACE for f in value):
            check_text("".join(value))
            try:
                return format_cards(parse_cards(value))
            except CardSyntaxError as err:
                raise ValidationError(str(err)) from err
        raise ValidationError("must be a word (string) or a list of card faces")


def name_field() -> fields.String:
    return fields.String(required=True, validate=[validate.Length(min=1, max=64), check_text])

def ruleset_field() -> fields.String:
    return fields.String(load_default="standard", validate=validate.Length(min=1, max=64))


def lang_field() -> fields.String:
    return fields.String(load_default=None, validate=validate.Length(min=1, max=35))

class LexiconStamp(Strict):
    id = fields.String(required=True)
    version = fields.String(required=True)
    sha256 = fields.String(required=True)

class ProblemOut(Strict):
    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    errors = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), required=True)
    request_id = fields.String(required=True)


def flatten_errors(messages: Any, path: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """marshmallow's nested error dict as ``{"players.1.words.0": [...]}``."""
    out: dict[str, list[str]] = {}
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            sub = path if key == "_schema" else (*path, str(key))
            for k, v in flatten_errors(value, sub).items():
                out.setdefault(k, []).extend(v)
    elif isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        out[".".join(path) or "body"] = [m.rstrip(".") for m in messages]
    elif isinstance(messages, list):
        for m in messages:
            for k, v in flatten_errors(m, path).items():
                out.setdefault(k, []).extend(v)
    else:
        out[".".join(path) or "body"] = [str(messages)]
    return out
