"""The registry of problem codes: every ``code`` an error answer or one of its entries can carry.

An error answer (RFC 9457 ``application/problem+json``) says what went wrong
three ways: ``type``, a URI per HTTP status (``/docs#problem-not-found``);
``code``, this registry's stable name for the problem (``event_not_found``);
and ``detail`` and each entry's ``message``, English sentences that may be
reworded any day. Clients switch on ``code``, never on the text: GitHub's and
Stripe's APIs do the same. An answer made of field entries says so with
:data:`INVALID_FIELDS` and each entry carries its own code.

The codes are a public contract (docs/problems.md is tested against this
module), and changing one is a breaking change: a code is added at any time,
and a client treats a code it does not know as its status's generic problem;
a code is renamed or removed, or a problem given another code, only in a new
major version, with a changelog entry announced ahead.

Each constant is the code's own text, so raising code names a constant and
never writes a code as a free string; a test fails on a code raised that is
not here or a code here that nothing raises. :class:`CodedMessage` carries a
code beside a message through code that handles messages as text (the
``path -> [message]`` mappings of :class:`wordsvc.core.errors.Problems`,
marshmallow's error dicts), so every entry gets its code where it is made,
never by reading its English afterwards. Pure: standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["REFUSALS", "REGISTRY", "CodedMessage", "ProblemCode", "code_of", "coded"]


@dataclass(frozen=True)
class ProblemCode:
    """One registered code: its text, the HTTP statuses it comes with, and what it means."""

    code: str
    statuses: tuple[int, ...]
    meaning: str


#: code -> its registration, in the order of this module (the order of docs/problems.md).
REGISTRY: dict[str, ProblemCode] = {}


def _register(code: str, statuses: tuple[int, ...] | int, meaning: str) -> str:
    if code in REGISTRY:
        raise ValueError(f"problem code {code!r} registered twice")
    REGISTRY[code] = ProblemCode(code, statuses if isinstance(statuses, tuple) else (statuses,), meaning)
    return code


class CodedMessage(str):
    """A message that carries its problem code: still a ``str`` wherever messages are compared, joined or printed.

    ``format`` keeps the code, so marshmallow's error templates
    (``"Longer than maximum length {max}."``) keep theirs once filled in.
    """

    code: str

    def __new__(cls, text: str, code: str) -> CodedMessage:
        message = super().__new__(cls, text)
        message.code = code
        return message

    def format(self, *args: Any, **kwargs: Any) -> CodedMessage:
        return CodedMessage(str.format(self, *args, **kwargs), self.code)

    def __reduce__(self) -> tuple[Any, ...]:  # copied (marshmallow deep-copies fields) and pickled with its code
        return (CodedMessage, (str(self), self.code))


def coded(code: str, text: str) -> CodedMessage:
    """``text`` carrying ``code`` (a constant of this module)."""
    return CodedMessage(text, code)


def code_of(message: object, default: str) -> str:
    """The code ``message`` carries, else ``default`` (the code of the answer it is part of)."""
    return getattr(message, "code", None) or default


_ALL_4XX = (400, 401, 403, 404, 405, 408, 409, 412, 413, 415, 422, 428, 431)

# ---------------------------------------------------------------- an answer's own shape

INVALID_FIELDS = _register("invalid_fields", 422, "The request breaks the rules in the fields its entries name; each entry has its own code.")
ERRORS_NOT_LISTED = _register(
    "errors_not_listed", _ALL_4XX, "The entry `errors` of an answer cut at 50 problems: how many more there are (the answer's own code is kept)."
)

# ---------------------------------------------------------------- a field's value (marshmallow and the card fields)

REQUIRED = _register("required", 422, "A field the request must hold is missing.")
NULL = _register("null", 422, "A field that may not be null is null.")
INVALID_TYPE = _register("invalid_type", 422, "A value of the wrong JSON type or form: text for a number, an object for a list, a malformed date.")
UNKNOWN_FIELD = _register("unknown_field", 422, "A field (or query parameter) the endpoint does not take.")
LENGTH_OUT_OF_RANGE = _register("length_out_of_range", 422, "Text or a list shorter or longer than the field allows (the message names the bounds).")
VALUE_OUT_OF_RANGE = _register("value_out_of_range", 422, "A number below or above the field's bounds (the message names them).")
NOT_ONE_OF = _register("not_one_of", 422, "A value that is not one of the field's choices (the message lists them).")
PATTERN_MISMATCH = _register("pattern_mismatch", 422, "Text that does not match the field's pattern.")
INVALID_VALUE = _register("invalid_value", 422, "A value the field's own check refuses (the message says why).")
CONTROL_CHARACTERS = _register("control_characters", 422, "Text holding a control character (NUL, a line break, ...).")
NOT_ASCII_DIGITS = _register("not_ascii_digits", 422, "A number written with other digits than 0-9 (`?after=١٢`, `+12`).")
GIVEN_TWICE = _register("given_twice", (400, 422), "A query parameter or a body's key given more than once.")
CONFLICTING_FIELDS = _register("conflicting_fields", 422, "Fields that cannot be given together, or one that needs another (the message names both).")
INVALID_NAME = _register("invalid_name", 422, "A player's name that is not one: white space at an end, invisible or look-alike characters.")
INVALID_CARDS = _register("invalid_cards", 422, "Cards that are not card notation: a malformed face, an empty or nested card, no card at all.")
UNBALANCED_PARENTHESIS = _register("unbalanced_parenthesis", 422, "Compact card notation with a '(' never closed or a ')' never opened.")
INVALID_ID = _register("invalid_id", 422, "An id that is not 1 to 64 lowercase letters, digits, - or _.")

# ---------------------------------------------------------------- the request itself

MALFORMED_JSON = _register("malformed_json", 400, "The body is not JSON the service reads: not JSON, nested too deeply, a lone surrogate escape.")
INVALID_UTF8 = _register("invalid_utf8", 400, "The body or the query string is not valid UTF-8.")
UNSUPPORTED_MEDIA_TYPE = _register("unsupported_media_type", 415, "The body is not `application/json`.")
ENDPOINT_NOT_FOUND = _register("endpoint_not_found", 404, "No endpoint at this path.")
METHOD_NOT_ALLOWED = _register("method_not_allowed", 405, "The endpoint does not take this method (`Allow` lists those it takes).")
BODY_TOO_LARGE = _register("body_too_large", 413, "The body is larger than the service takes.")
HEADER_TOO_LARGE = _register("header_too_large", 431, "The request line and headers are larger than the server takes.")
MALFORMED_REQUEST = _register("malformed_request", 400, "Not an HTTP/1.1 request: a malformed request line or target, a control character in the URL.")
MALFORMED_FRAMING = _register(
    "malformed_framing", 400, "Malformed HTTP framing: chunk sizes, line ends, trailers, a folded header, Transfer-Encoding with Content-Length or in HTTP/1.0."
)
TLS_ON_PLAIN_PORT = _register("tls_on_plain_port", 400, "A TLS handshake sent to the plain HTTP port.")
REQUEST_TIMEOUT = _register("request_timeout", 408, "The headers or the body did not arrive within their timeout.")
NOT_IMPLEMENTED = _register("not_implemented", 501, "A Transfer-Encoding other than chunked.")
INTERNAL_ERROR = _register("internal_error", 500, "A bug of the service: logged with the request id.")
ASSET_NOT_FOUND = _register("asset_not_found", 404, "The pages have no asset of that name.")

# ---------------------------------------------------------------- not now: try again later (503, with Retry-After)

NOT_READY = _register("not_ready", 503, "The service cannot answer this now: no lexicon loaded yet, or the server is shutting down.")
LANGUAGE_BUILDING = _register("language_building", 503, "The language's lexicon is being built; it comes online by itself.")
OVERLOADED = _register("overloaded", 503, "The worker's expensive requests are all taken, or the work ran past its safety limit.")
OUT_OF_DESCRIPTORS = _register("out_of_descriptors", 503, "The server is out of file descriptors for the moment.")
NO_WORD_LIST = _register("no_word_list", 422, "The language's lexicon is an analyser that cannot list its words: the endpoint needs a word list.")
INDEX_MISSING = _register("index_missing", 503, "The lexicon has no word index built for the solver or the search.")
TOO_MANY_CONNECTIONS = _register("too_many_connections", 503, "The server, or this client, holds as many connections as it takes.")
TOO_MANY_STREAMS = _register("too_many_streams", 503, "The server, or this client, holds as many event streams as it takes.")

# ---------------------------------------------------------------- rulesets, languages, cards and rounds

UNKNOWN_RULESET = _register("unknown_ruleset", (404, 422), "No ruleset has that id (the detail lists those that exist).")
UNKNOWN_LANGUAGE = _register("unknown_language", (404, 422), "No lexicon serves that language (the detail lists those that exist).")
INVALID_RULESET = _register("invalid_ruleset", 422, "A ruleset document is malformed.")
UNKNOWN_CARD = _register("unknown_card", 422, "A card that is not in the ruleset's deck.")
TOO_MANY_COPIES = _register("too_many_copies", 422, "More copies of a card in play than the deck holds.")
PLAYER_COUNT = _register("player_count", 422, "More or fewer players than the ruleset or a table allows.")
ROUND_OUT_OF_RANGE = _register("round_out_of_range", 422, "A round the ruleset does not have, or not the round the path names.")
HAND_SIZE = _register("hand_size", 422, "A player holds more or fewer cards than the round deals, or a hand the request cannot use.")
EMPTY_WORD = _register("empty_word", 422, "A word without a card.")
DUPLICATE_NAME = _register("duplicate_name", (409, 422), "A player's name given twice (names are compared without case).")
NAMES_LOOK_ALIKE = _register("names_look_alike", (409, 422), "Two players' names a reader cannot tell apart.")
MIXED_SCRIPTS = _register("mixed_scripts", 422, "A name mixing scripts a reader cannot tell apart.")
ONE_GOES_OUT = _register("one_goes_out", 422, "More than one player went out.")
INVALID_CHALLENGE = _register(
    "invalid_challenge", 422, "A challenge the round cannot have: no such player or word, one's own word, twice, or no challenges in the ruleset."
)
INVALID_BONUS_CHOICE = _register("invalid_bonus_choice", 422, "A bonus choice the ruleset does not offer for this many players.")
GAME_MISMATCH = _register("game_mismatch", 422, "A game's rounds or players that do not make one game.")
INVALID_PATTERN = _register("invalid_pattern", 422, "A word-search pattern that is not one: an unclosed set, too many wildcards, ...")
INVALID_CURSOR = _register("invalid_cursor", 422, "A cursor that does not belong to this query.")
INVALID_DEAL = _register("invalid_deal", 422, "A deal that cannot be made (the message names the field).")
INVALID_PLAY = _register("invalid_play", 422, "A solitaire layout or move the game does not allow.")

# ---------------------------------------------------------------- the ledger: who may

TOKEN_MISSING = _register("token_missing", 401, "A write (or a private event) needs a bearer token and none was sent.")
TOKEN_INVALID = _register("token_invalid", 401, "The bearer token is not valid (never saying whether it exists).")
ROLE_REQUIRED = _register("role_required", 403, "The token's role, event or table does not allow the action (the detail names the role needed).")
OPEN_EVENTS_EXHAUSTED = _register(
    "open_events_exhausted", 403, "Events created without an admin token have reached the service's limit (WORDSVC_OPEN_EVENTS): an admin token creates more."
)
NOT_YET = _register("not_yet", 403, "The round is not dealt yet: the round before it is not stored.")

# ---------------------------------------------------------------- the ledger: what does not exist

EVENT_NOT_FOUND = _register("event_not_found", 404, "No event has that id.")
TABLE_NOT_FOUND = _register("table_not_found", (404, 422), "The event has no table of that id.")
ROUND_NOT_FOUND = _register("round_not_found", 404, "The round has not been submitted.")
PLAYER_NOT_FOUND = _register("player_not_found", (404, 422), "The event has no player of that id (or name).")
SESSION_NOT_FOUND = _register("session_not_found", 404, "The event has no session of that number, or none seated.")
SCHEDULE_NOT_FOUND = _register("schedule_not_found", 404, "The event has published no schedule.")
TOKEN_NOT_FOUND = _register("token_not_found", 404, "No token of that id.")
DOCUMENT_NOT_FOUND = _register("document_not_found", 404, "No document of that kind.")
DEALS_NOT_FOUND = _register("deals_not_found", 404, "The event has no seeded deals.")
RATING_NOT_FOUND = _register("rating_not_found", 404, "No rated games for that rating id.")
CHAIN_NOT_FOUND = _register("chain_not_found", 404, "The audit chain has no entries.")
FORMAT_NOT_FOUND = _register("format_not_found", 422, "No tournament format of that id.")
INVALID_FORMAT = _register("invalid_format", 422, "A tournament format document is malformed.")

# ---------------------------------------------------------------- the ledger: what contradicts what is stored

EVENT_CLOSED = _register("event_closed", 409, "The event is closed: its rounds are final.")
EVENT_EXISTS = _register("event_exists", 409, "An event of that id exists already.")
ROUND_DIFFERS = _register("round_differs", 409, "The round is stored with another play: a director corrects it, with a reason and If-Match.")
STORED_MEANWHILE = _register("stored_meanwhile", 409, "The round, or its table's seating, changed while this request stored it: read it again and retry.")
TABLE_CONFLICT = _register("table_conflict", 409, "The table was seated with other players, or its id is taken.")
PLAYER_CONFLICT = _register("player_conflict", 409, "The player was registered with other details, or the change contradicts the player's record.")
PLAYER_HAS_GAMES = _register(
    "player_has_games", 409, "The player has been seated (or is in the published schedule): a registration with games is withdrawn, never deleted."
)
NAMES_SIMILAR = _register(
    "names_similar", 409, "Two players' names are one once folded (Zoe, Zoë): registered only when the director confirms (allow_similar)."
)
SESSION_CONFLICT = _register("session_conflict", 409, "The session's number or seating contradicts those stored (another session, a stored round).")
SCHEDULE_CONFLICT = _register("schedule_conflict", 409, "Another schedule is published, or sessions are already seated.")
NO_SEED = _register("no_seed", 409, "The event has no seed to draw from (created or imported without one).")
LEXICON_CHANGED = _register("lexicon_changed", 409, "The event's lexicon is no longer the loaded one (both stamps are named).")
AUDIT_GAP = _register("audit_gap", 409, "The audit chain has a gap: run wordsvc audit verify.")
LOG_UNVERIFIED = _register("log_unverified", 409, "The event's audit log does not verify, or ends with an entry the service did not sign.")
KEY_MISSING = _register("key_missing", 409, "The service has no signing key for what was asked.")
REVISION_STALE = _register("revision_stale", 412, "`If-Match` names a revision that is no longer current.")
IF_MATCH_REQUIRED = _register("if_match_required", 428, "A correction needs `If-Match` with the round's current ETag.")

# ---------------------------------------------------------------- the ledger: what a request cannot ask

SEAT_MISMATCH = _register("seat_mismatch", 422, "A round's players are not the table's seated players.")
NOT_CORRECTABLE = _register("not_correctable", 422, "A correction that changes nothing, or one sent with a preview.")
SEATING_IMPOSSIBLE = _register("seating_impossible", 422, "A session or a swap that cannot be seated as asked (the message names the field).")
INVALID_EXPORT = _register("invalid_export", 422, "An import that is not a valid export document (each entry says what and where).")
EXPORT_UNVERIFIED = _register("export_unverified", 422, "An import whose audit log or checkpoints do not verify.")
PROOF_OUT_OF_RANGE = _register("proof_out_of_range", 422, "A proof asked of a tree larger than the log, or of an entry outside the tree.")
STANDINGS_NOT_YET = _register("standings_not_yet", 422, "Standings asked after a session not yet seated.")
LAST_EVENT_ID = _register("last_event_id", 422, "`Last-Event-ID` that is not the id of a message of this stream.")

# ---------------------------------------------------------------- hosted play (docs/play.md)

NOT_HOSTED = _register("not_hosted", (404, 409), "The event hosts no table of that id (404 where the table is the resource read, 409 for a move).")
NOT_A_SEAT = _register("not_a_seat", 403, "The token is a seat of another table (or of none): it cannot move here.")
GAME_NOT_STARTED = _register("game_not_started", 409, "The game starts when every seat is taken.")
TABLE_FULL = _register("table_full", 409, "Every seat of the table is taken, or its game has started.")
SEAT_TAKEN = _register("seat_taken", 409, "That seat is taken.")
NAME_TAKEN = _register("name_taken", 409, "Another seat of the table has that name (compared without case).")
NO_SUCH_SEAT = _register("no_such_seat", 422, "No seat of that number at the table.")
STALE_MOVE = _register("stale_move", 409, "The move quoted another move count than the table's: the answer's `state` is the current one.")
MOVE_ID_REUSED = _register("move_id_reused", 409, "The move id was used by another seat at this table.")
SEAT_HANDED_OVER = _register("seat_handed_over", 409, "The seat was handed to a bot (its player resigned or let its time run out): the bot plays it now.")
GAME_ENDED = _register("game_ended", 409, "The game is over or aborted: it cannot be resigned or aborted again.")
GAME_NOT_OVER = _register("game_not_over", 409, "A rematch follows a game that is over.")
ABORT_TOO_LATE = _register("abort_too_late", 409, "A game can be aborted only before its first round is scored (it has a result after).")
ALREADY_HOSTED = _register("already_hosted", 409, "The seated table is hosted already: its seat links were given when it was.")
TABLE_HAS_ROUNDS = _register("table_has_rounds", 409, "The seated table has rounds a referee stored: it is played at the table, not hosted.")
TABLE_HOSTED = _register("table_hosted", 409, "The table is hosted: its game stores its rounds as they are played (a director may correct one).")
MOVE_MALFORMED = _register("move_malformed", 422, "The move is not one the protocol knows (its kind, its fields, a card named otherwise than by face).")


#: The game engine's refusals (:class:`wordsvc.core.play.refusals.IllegalMove`): code -> what it means, in the order of docs/play.md.
#: Each is registered as a 422 of a move (``empty_word`` is the card fields' own: a word without a card).
REFUSALS: dict[str, str] = {
    "game_over": "The game has ended: every round of the ruleset is scored.",
    "unknown_seat": "No seat of that number at this table.",
    "not_your_turn": "Another seat is to move (or, in a challenge window, this seat has passed).",
    "must_draw_first": "The turn begins with a draw from the draw pile or the discard pile.",
    "must_discard": "The seat has drawn: it discards (or goes out, or lays down) now.",
    "draw_pile_empty": "The draw pile is empty and cannot be rebuilt (or the knobs end the round instead).",
    "discard_pile_empty": "The discard pile has no card to take.",
    "card_not_in_hand": "A card the move names is not in the seat's hand.",
    "card_named_twice": "The move names one card twice.",
    "discard_taken_card": "The knobs forbid discarding the card just taken from the discard pile.",
    "empty_word": "A word laid without a card.",
    "word_not_valid": "A word laid is not valid: the verdict's reason code comes with it.",
    "too_many_cards_laid": "More cards laid than the round dealt (the final discard is compulsory).",
    "cards_left_over": "Going out lays every card but the one discarded; cards are left.",
    "final_discard_required": "Going out, and a last turn, end with a discard.",
    "no_going_out_first_turn": "The knobs forbid going out on a seat's first turn of the round.",
    "someone_went_out": "A player has gone out already: the others lay down what they can, in their last turn.",
    "nobody_went_out": "Laying down words before someone has gone out is going out.",
    "no_discard_now": "The round ended with the draw pile: cards are laid down, none discarded.",
    "laying_down": "The draw pile ended the round: each seat in turn lays down words, and nothing else.",
    "challenge_window": "The round's words are open to challenge: only challenges and passes now.",
    "not_challenge_time": "Challenges are made after the round's last turn, under a ruleset whose words stand unless challenged.",
    "challenge_own_word": "A player cannot challenge their own word.",
    "no_such_word": "That player laid no word of that number.",
    "already_challenged": "That word is challenged already.",
}

for _code, _meaning in REFUSALS.items():
    if _code not in REGISTRY:
        _register(_code, 422, f"A move the rules refuse: {_meaning[0].lower()}{_meaning[1:]}")
