"""What every request and response schema shares: strict schemas, text checks, card fields, limits.

The request schemas are used by the HTTP API and the CLI alike; the response
schemas document the API (OpenAPI is generated from them) and a test checks
real responses against them, so the document cannot drift from the service.

Limits are checked before the work they bound: a list field checks its
length before it reads an item (:class:`BoundedList`, :class:`BoundedNested`,
and the card fields themselves), so a body of 20,000 bad items costs one
length check, not 20,000 validations. The card fields, which no marshmallow
type describes, say their own OpenAPI shape (``openapi_schema``), and
:func:`flatten_errors` lists at most :data:`MAX_LISTED_ERRORS` problems.

Every message a schema gives carries its problem code
(:mod:`wordsvc.core.problem_codes`) from where it is made: the checks here
raise :func:`~wordsvc.core.problem_codes.coded` messages, and
:class:`CodedSchema` gives marshmallow's own messages (required, null, wrong
type, length, range, choices, unknown field) the code of their error key or
validator, so no code is ever guessed from English text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, pre_load, validate

from ..core import problem_codes as codes
from ..core.cards import CardSyntaxError, format_cards, parse_cards
from ..core.names import invisible_problem
from ..core.problem_codes import CodedMessage, code_of, coded

MAX_PLAYERS = 16
MAX_WORDS = 100
MAX_FACE = 8
MAX_TEXT = 256
MAX_NAME = 64
#: An error answer lists this many problems (messages) at most: 20,000 bad items once answered 3.7 MB of errors.
MAX_LISTED_ERRORS = 50
#: The entry of ``errors`` under which an answer cut at :data:`MAX_LISTED_ERRORS` says how many problems it left out.
MORE_ERRORS = "errors"


#: Unicode's control characters (category Cc): U+0000-U+001F and U+007F-U+009F, as a regex class body.
_CONTROL_RANGES = r"\x00-\x1f\x7f-\x9f"
CONTROL = re.compile(f"[{_CONTROL_RANGES}]")
#: :func:`check_text` as an OpenAPI ``pattern`` (ECMA-262, where ``$`` is the end of the text): no control character.
TEXT_PATTERN = f"^[^{_CONTROL_RANGES}]*$"
#: A card face as :func:`load_cards` takes one: no control character, and not only white space.
FACE_PATTERN = f"^[^{_CONTROL_RANGES}]*[^{_CONTROL_RANGES}\\s][^{_CONTROL_RANGES}]*$"
#: A player's name (:class:`Name`): no control character, and no white space at either end (``\\s`` of ECMA-262).
NAME_PATTERN = f"^[^{_CONTROL_RANGES}\\s]([^{_CONTROL_RANGES}]*[^{_CONTROL_RANGES}\\s])?$"
#: White space at an end of a name, as ECMA-262's ``\\s`` (Python's, and U+FEFF) matches it.
_EDGE_SPACE = re.compile(r"^[\s\ufeff]|[\s\ufeff]$")


def check_text(value: str) -> None:
    """Control characters (NUL, newlines, ...) are never part of a word or a name."""
    if CONTROL.search(value):
        raise ValidationError(coded(codes.CONTROL_CHARACTERS, "must not contain control characters"))


#: An integer given as text (a query parameter): ASCII digits, a minus sign at most.
_ASCII_INTEGER = re.compile(r"-?[0-9]+")


def ascii_integers(schema: Schema, data: Any) -> Any:
    """Refuse, naming the field, an integer field's text that ``int()`` reads but that is not written with the digits 0-9.

    marshmallow reads an integer with ``int()``, which also takes other
    scripts' digits (``?after=١٢`` was 12), white space, ``+`` and ``_``: a
    number in a query is written as every other client and the OpenAPI
    document write it, or refused. Text that is no number at all is left to
    the field's own message.
    """
    if not isinstance(data, Mapping):
        return data
    errors: dict[str, list[str]] = {}
    for name, field in schema.load_fields.items():
        key = field.data_key or name
        value = data.get(key)
        if isinstance(field, fields.Integer) and isinstance(value, str) and not _ASCII_INTEGER.fullmatch(value):
            try:
                int(value)
            except ValueError:
                continue
            errors[key] = [coded(codes.NOT_ASCII_DIGITS, "must be a whole number written with the digits 0-9")]
    if errors:
        raise ValidationError(errors)
    return data


#: marshmallow's error keys -> the code of their message (any other key: a value of the wrong type or form).
_KEY_CODES = {
    "required": codes.REQUIRED,
    "null": codes.NULL,
    "validator_failed": codes.INVALID_VALUE,
    "too_large": codes.VALUE_OUT_OF_RANGE,
    "unknown": codes.UNKNOWN_FIELD,
}
#: marshmallow's validators -> the code of their messages.
_VALIDATOR_CODES: tuple[tuple[type[validate.Validator], str], ...] = (
    (validate.Length, codes.LENGTH_OUT_OF_RANGE),
    (validate.Range, codes.VALUE_OUT_OF_RANGE),
    (validate.OneOf, codes.NOT_ONE_OF),
    (validate.Regexp, codes.PATTERN_MISMATCH),
)
#: The message attributes of marshmallow's validators (``error`` is one given to the validator, else ``None``).
_VALIDATOR_MESSAGES = ("error", "message_min", "message_max", "message_all", "message_equal", "message_gte", "message_lte", "message_gt", "message_lt")


def _code_messages(messages: dict[str, Any]) -> dict[str, Any]:
    return {key: CodedMessage(text, _KEY_CODES.get(key, codes.INVALID_TYPE)) if isinstance(text, str) else text for key, text in messages.items()}


def _code_field(field: fields.Field) -> None:
    """Give ``field``'s messages, its validators' and its inner fields' their codes (once: a field is marked when done)."""
    if getattr(field, "_problem_codes", False):
        return
    field.error_messages = _code_messages(field.error_messages)
    for validator in field.validators:
        code = next((code for kind, code in _VALIDATOR_CODES if isinstance(validator, kind)), None)
        for attr in _VALIDATOR_MESSAGES if code else ():
            text = getattr(validator, attr, None)
            if isinstance(text, str) and not isinstance(text, CodedMessage):
                setattr(validator, attr, CodedMessage(text, code))  # type: ignore[arg-type]
    inner = [getattr(field, name, None) for name in ("inner", "key_field", "value_field")] + list(getattr(field, "tuple_fields", ()))
    for each in inner:
        if isinstance(each, fields.Field):
            _code_field(each)
    field._problem_codes = True  # type: ignore[attr-defined]


class CodedSchema(Schema):
    """A schema whose every message carries its problem code: marshmallow's own by error key and validator, ours as raised.

    Coded once per schema class, on the declared fields that each instance
    copies, so a request pays nothing for it.
    """

    error_messages = {"unknown": coded(codes.UNKNOWN_FIELD, "Unknown field."), "type": coded(codes.INVALID_TYPE, "Invalid input type.")}  # noqa: RUF012  # marshmallow's own attribute

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = type(self)
        if cls.__dict__.get("_problem_codes") is not True:
            for field in cls._declared_fields.values():
                _code_field(field)
            cls._problem_codes = True  # type: ignore[attr-defined]
        super().__init__(*args, **kwargs)


class Strict(CodedSchema):
    class Meta:
        unknown = RAISE

    @pre_load
    def _ascii_integers(self, data: Any, **kwargs: Any) -> Any:
        return ascii_integers(self, data)


class _LengthFirst(fields.Field):
    """Runs the field's :class:`~marshmallow.validate.Length` validators on a list before reading any item.

    marshmallow validates a field after reading it, so a list 200 times too
    long would have every item read (and every item's errors answered)
    before its length is looked at. The validators still run afterwards too,
    as for any field; a list of the right length reads exactly as before.
    """

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, list):
            for validator in self.validators:
                if isinstance(validator, validate.Length):
                    validator(value)
        return super()._deserialize(value, attr, data, **kwargs)


class BoundedList(_LengthFirst, fields.List):
    """:class:`~marshmallow.fields.List` that refuses a list too long (``validate=Length(...)``) without reading its items."""


class BoundedNested(_LengthFirst, fields.Nested):
    """:class:`~marshmallow.fields.Nested` (``many=True``) that refuses a list too long without loading its items."""


def text_schema(max_length: int = MAX_TEXT) -> dict[str, Any]:
    """The OpenAPI schema of a string :func:`check_text` checks, at most ``max_length`` characters."""
    return {"type": "string", "maxLength": max_length, "pattern": TEXT_PATTERN}


def face_schema() -> dict[str, Any]:
    """The OpenAPI schema of one card face in a list: 1 to :data:`MAX_FACE` characters, some not white space."""
    return {"type": "string", "minLength": 1, "maxLength": MAX_FACE, "pattern": FACE_PATTERN}


def cards_schema(max_cards: int = MAX_TEXT, allow_empty: bool = False) -> dict[str, Any]:
    """The OpenAPI schema of what :func:`load_cards` reads: a list of faces or a compact string."""
    faces: dict[str, Any] = {"type": "array", "maxItems": max_cards, "items": face_schema()}
    compact = {**text_schema(MAX_TEXT), "description": f"Compact notation such as `(qu)iz`: at most {max_cards} cards."}
    if not allow_empty:
        faces["minItems"] = 1
        compact["pattern"] = FACE_PATTERN  # some card: not only white space
    return {"oneOf": [faces, compact]}


class StrictBoolean(fields.Boolean):
    """JSON true or false only: not "yes", not 1 (1 == True in a Python set)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def _face_problem(face: Any) -> str:
    """What is wrong with one card face of a list, or '' when nothing is."""
    if not isinstance(face, str) or not face.strip():
        return coded(codes.INVALID_CARDS, "must be a card face (one or more letters)")
    if len(face) > MAX_FACE:
        return coded(codes.LENGTH_OUT_OF_RANGE, f"a card face has at most {MAX_FACE} letters")
    if CONTROL.search(face):
        return coded(codes.CONTROL_CHARACTERS, "must not contain control characters")
    return ""


CARDS_HINT = coded(codes.INVALID_CARDS, "must be a list of card faces or a compact string such as (qu)iz")


def load_cards(value: Any, allow_empty: bool = False, max_cards: int = MAX_TEXT) -> tuple[str, ...]:
    """Cards given as ``["QU","I","Z"]`` or ``"(qu)iz"``, as normalized faces; ValidationError (per card) if not."""
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise ValidationError(coded(codes.LENGTH_OUT_OF_RANGE, f"at most {MAX_TEXT} characters"))
        check_text(value)
    elif isinstance(value, list):
        if len(value) > max_cards:
            raise ValidationError(coded(codes.LENGTH_OUT_OF_RANGE, f"at most {max_cards} cards"))
        bad = {i: [_face_problem(face)] for i, face in enumerate(value) if _face_problem(face)}
        if bad:
            raise ValidationError(bad)  # type: ignore[arg-type]  # per card: players.0.unused.3
    else:
        raise ValidationError(CARDS_HINT)
    try:
        faces = parse_cards(value)
    except CardSyntaxError as err:
        raise ValidationError(coded(err.code, str(err))) from err
    if not faces and not allow_empty:
        raise ValidationError(coded(codes.INVALID_CARDS, "needs at least one card"))
    if len(faces) > max_cards:
        raise ValidationError(coded(codes.LENGTH_OUT_OF_RANGE, f"at most {max_cards} cards"))
    return faces


class CardsField(fields.Field):
    """A word's cards: ``["QU","I","Z"]`` or compact ``"(qu)iz"``; loads to a tuple of faces."""

    def __init__(self, *, allow_empty: bool = False, max_cards: int = MAX_TEXT, **kwargs: Any):
        super().__init__(**kwargs)
        self.allow_empty = allow_empty
        self.max_cards = max_cards

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> tuple[str, ...]:
        return load_cards(value, self.allow_empty, self.max_cards)

    def openapi_schema(self) -> dict[str, Any]:
        return cards_schema(self.max_cards, self.allow_empty)


def load_words(value: Any) -> tuple[tuple[str, ...], ...]:
    """A player's words, each read by :func:`load_cards`; ValidationError per word and card if not."""
    if not isinstance(value, list):
        raise ValidationError(coded(codes.INVALID_TYPE, "must be a list of words"))
    if len(value) > MAX_WORDS:
        raise ValidationError(coded(codes.LENGTH_OUT_OF_RANGE, f"at most {MAX_WORDS} words"))
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

    def openapi_schema(self) -> dict[str, Any]:
        return {"type": "array", "maxItems": MAX_WORDS, "items": cards_schema()}


class WordField(fields.Field):
    """A word to judge: plain letters, compact notation, or a card list (judged as that laying)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if isinstance(value, str):
            if len(value) > MAX_TEXT:
                raise ValidationError(coded(codes.LENGTH_OUT_OF_RANGE, f"at most {MAX_TEXT} characters"))
            check_text(value)
            return value
        if isinstance(value, list) and value and len(value) <= MAX_TEXT and all(isinstance(f, str) and 0 < len(f) <= MAX_FACE for f in value):
            check_text("".join(value))
            try:
                return format_cards(parse_cards(value))
            except CardSyntaxError as err:
                raise ValidationError(coded(err.code, str(err))) from err
        raise ValidationError(coded(codes.INVALID_TYPE, "must be a word (string) or a list of card faces"))

    def openapi_schema(self) -> dict[str, Any]:
        laid = {"type": "array", "minItems": 1, "maxItems": MAX_TEXT, "items": face_schema(), "description": "The word as a laying of card faces."}
        return {"oneOf": [text_schema(MAX_TEXT), laid]}


class Name(fields.String):
    """A player's name: 1 to :data:`MAX_NAME` characters as sent, no control character, no white space at either end.

    It is read in Unicode NFC, so that the same name typed on two keyboards
    (``é`` as one character, or as ``e`` and a combining accent) is one name
    when a round is matched to the table's seats.
    """

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        problem = name_problem(text)
        if problem is not None:
            raise ValidationError(problem)
        return unicodedata.normalize("NFC", text)

    def openapi_schema(self) -> dict[str, Any]:
        return {"type": "string", "minLength": 1, "maxLength": MAX_NAME, "pattern": NAME_PATTERN, "description": "Compared and stored in Unicode NFC."}


def name_problem(text: str) -> str | None:
    """Why ``text`` is not a player's name (:class:`Name`), or ``None``."""
    if not 1 <= len(text) <= MAX_NAME:
        return coded(codes.LENGTH_OUT_OF_RANGE, f"Length must be between 1 and {MAX_NAME}.")  # as marshmallow says it of every other text
    if CONTROL.search(text):
        return coded(codes.CONTROL_CHARACTERS, "must not contain control characters")
    if _EDGE_SPACE.search(text):
        return coded(codes.INVALID_NAME, "must not start or end with white space")
    invisible = invisible_problem(text)
    return None if invisible is None else coded(codes.INVALID_NAME, invisible)


def name_field() -> Name:
    return Name(required=True)

#: What a request's ``ruleset`` means when left out (the service picks the ruleset: :meth:`wordsvc.service.Service.ruleset_id`).
RULESET_DEFAULT = "Ruleset id; default: the ruleset `lang`'s lexicon is played with (`deutsch` for `de`), else `standard`."


def ruleset_field(description: str = RULESET_DEFAULT) -> fields.String:
    """A request's ``ruleset``: ``None`` when left out, so the service can take the named language's own."""
    return fields.String(load_default=None, validate=validate.Length(min=1, max=64), metadata={"description": description})


def lang_field() -> fields.String:
    return fields.String(load_default=None, validate=validate.Length(min=1, max=35))

class LexiconStamp(Strict):
    id = fields.String(required=True)
    version = fields.String(required=True)
    sha256 = fields.String(required=True)

#: The OpenAPI description of a problem code (the ``ProblemCode`` schema lists them all as its ``enum``).
CODE_DESCRIPTION = "A stable code from the registry (docs/problems.md): switch on it, never on a message; treat a code you do not know as its status's generic problem."


def problem_code_field(description: str) -> fields.String:
    """A ``code`` of a problem: one of the registry's (``ProblemCode`` in OpenAPI, an enum the clients type)."""
    return fields.String(required=True, validate=validate.OneOf(list(codes.REGISTRY)), metadata={"description": description})


class ProblemEntryOut(Strict):
    code = problem_code_field("What is wrong with the field: " + CODE_DESCRIPTION)
    message = fields.String(required=True, metadata={"description": "The problem in English, for people: its wording may change."})


class ProblemOut(Strict):
    type = fields.String(required=True, metadata={"description": "A URI per HTTP status (`/docs#problem-not-found`): the kind of problem, RFC 9457."})
    code = problem_code_field("The problem: its own code, or `invalid_fields` for an answer made of field entries. " + CODE_DESCRIPTION)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    errors = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Nested(ProblemEntryOut)),
        required=True,
        metadata={
            "description": f"Field path -> problems (each a code and a message), in the order of the request: at most {MAX_LISTED_ERRORS} problems; "
            f"past them the entry `{MORE_ERRORS}` says how many more there are (code `{codes.ERRORS_NOT_LISTED}`)."
        },
    )
    request_id = fields.String(required=True)


def iter_errors(messages: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, list[str]]]:
    """marshmallow's nested error dict as ``("players.1.words.0", [...])`` pairs, in order (a path may come twice)."""
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            yield from iter_errors(value, path if key == "_schema" else (*path, str(key)))
    elif isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        yield ".".join(path) or "body", [CodedMessage(m.rstrip("."), code_of(m, codes.INVALID_VALUE)) for m in messages]
    elif isinstance(messages, list):
        for m in messages:
            yield from iter_errors(m, path)
    else:
        yield ".".join(path) or "body", [CodedMessage(str(messages), code_of(messages, codes.INVALID_VALUE))]


def cap_errors(errors: Mapping[str, list[str]] | Iterable[tuple[str, list[str]]], limit: int | None = MAX_LISTED_ERRORS) -> tuple[dict[str, list[str]], int]:
    """``(listed, fields)``: the first ``limit`` problems by field path, and how many fields have problems.

    Past the limit, problems are only counted: ``listed[MORE_ERRORS]`` says
    how many were left out, so an answer stays small whatever the request.
    ``limit=None`` lists every problem.
    """
    pairs = errors.items() if isinstance(errors, Mapping) else errors
    listed: dict[str, list[str]] = {}
    fields_seen: set[str] = set()
    problems = 0
    for path, messages in pairs:
        fields_seen.add(path)
        room = len(messages) if limit is None else max(0, limit - problems)
        problems += len(messages)
        if room:
            listed.setdefault(path, []).extend(messages[:room])
    if limit is not None and problems > limit:
        listed.setdefault(MORE_ERRORS, []).append(coded(codes.ERRORS_NOT_LISTED, f"{problems - limit} more problem(s) not listed: an answer lists the first {limit}"))
    return listed, len(fields_seen)


def flatten_errors(messages: Any, limit: int | None = MAX_LISTED_ERRORS) -> dict[str, list[str]]:
    """marshmallow's nested error dict as ``{"players.1.words.0": [...]}``, cut at ``limit`` problems (:func:`cap_errors`)."""
    return cap_errors(iter_errors(messages), limit)[0]
