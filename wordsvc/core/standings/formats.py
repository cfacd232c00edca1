"""A tournament format: how standings rank players, and what a late entrant's missed games count.

Formats are data (``formats/*.yaml``, read by :mod:`wordsvc.data.formats`);
this module holds the checked result and its canonical document, the one
the ledger snapshots when a tournament starts, so later edits to a file
never change a running tournament.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from .. import problem_codes as codes
from ..errors import InvalidRequest

__all__ = ["DECIMALS", "DOCUMENT_KEYS", "MISSED", "RANKINGS", "TIE_BREAKS", "Format", "FormatError", "format_from_document", "rounded"]

#: What a standings line is ranked by, highest first (docs/standings.md, "Rankings").
RANKINGS = ("total", "table_points", "wins", "average")
#: Tie-breaks a format may list, applied in its order; every one ranks the higher value first.
TIE_BREAKS = ("head_to_head", "best_game", "spread", "table_points", "total", "wins", "average")
#: What a session's game missed by a late entrant counts as (docs/standings.md, "Late entry").
MISSED = ("nothing", "zero", "average")

DOCUMENT_KEYS = ("id", "name", "description", "ranking", "tie_breaks", "missed", "min_games", "decimals")
#: The decimals a format shows its numbers to when its file names none: table points of 2/3 read 0.67, alike on screen,
#: on the projector and on paper; two tell apart every share of a table of up to 8 (1/7 = 0.14, 1/6 = 0.17).
DECIMALS = 2
#: The most decimals a format may ask for.
MAX_DECIMALS = 6
_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")


class FormatError(InvalidRequest):
    """A format document is malformed. ``field``/``message``: the first problem; ``problems``: every one, by field."""

    code = codes.INVALID_FORMAT

    def __init__(self, field: str, message: str, problems: Mapping[str, list[str]] | None = None):
        super().__init__(f"{field}: {message}", problems or {field: [message]})
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Format:
    """A checked tournament format.

    ``ranking``: one of :data:`RANKINGS`. ``tie_breaks``: ordered, from
    :data:`TIE_BREAKS`, no repeats. ``missed``: one of :data:`MISSED`.
    ``min_games``: a player with fewer counted games ranks below every player
    with at least that many, whatever the ranking (0: no minimum; meant for
    ``average`` rankings, where one lucky game must not lead). ``description``:
    when a club would choose it, shown beside the name. ``decimals``: how
    many decimals its numbers are shown with, everywhere (:func:`rounded`).
    """

    id: str
    name: str
    ranking: str
    tie_breaks: tuple[str, ...]
    missed: str
    description: str = ""
    min_games: int = 0
    decimals: int = DECIMALS

    def __post_init__(self) -> None:
        problems = _problems(self.document())
        if problems:
            field, messages = next(iter(problems.items()))
            raise FormatError(field, messages[0], problems)

    def document(self) -> dict[str, Any]:
        """The canonical document: plain JSON types, keys in :data:`DOCUMENT_KEYS` order; :func:`format_from_document` inverts it."""
        return {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "ranking": self.ranking,
            "tie_breaks": list(self.tie_breaks),
            "missed": self.missed,
            "min_games": self.min_games,
            "decimals": self.decimals,
        }


def format_from_document(doc: Mapping[str, Any]) -> Format:
    """The :class:`Format` of a :meth:`Format.document`; :class:`FormatError` naming every field at fault if it is not one.

    ``description``, ``min_games`` and ``decimals`` may be left out (``""``, 0 and :data:`DECIMALS`: a snapshot
    taken before formats had decimals shows two).
    """
    if not isinstance(doc, Mapping):
        raise FormatError("(top)", "a format is a mapping of settings")
    problems = _problems(doc)
    if problems:
        field, messages = next(iter(problems.items()))
        raise FormatError(field, messages[0], problems)
    return Format(
        id=doc["id"],
        name=doc["name"],
        description=doc.get("description", ""),
        ranking=doc["ranking"],
        tie_breaks=tuple(doc["tie_breaks"]),
        missed=doc["missed"],
        min_games=doc.get("min_games", 0),
        decimals=doc.get("decimals", DECIMALS),
    )


def rounded(value: float | int, decimals: int = DECIMALS) -> str:
    """``value`` as shown wherever a standings number is shown: at most ``decimals`` decimals, trailing zeros dropped, a point for the decimal sign.

    The one rounding of the service's numbers: from the number's shortest decimal form (what JSON carries, and
    what the pages read), half away from zero, as the pages' ``Intl.NumberFormat`` rounds by default
    (``common.js``, ``formatNumber``), so a screen, the projector and a PDF show the same digits.

    >>> rounded(2 / 3), rounded(0.125), rounded(12.5, 0), rounded(3.0), rounded(-0.005)
    ('0.67', '0.13', '13', '3', '-0.01')
    """
    exact = Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    text = format(exact, "f")
    text = text.rstrip("0").rstrip(".") if "." in text else text
    return "0" if text in ("-0", "") else text


def _problems(doc: Mapping[str, Any]) -> dict[str, list[str]]:
    """Every problem of a format document at once, field by field."""
    out: dict[str, list[str]] = {}

    def add(field: str, message: str) -> None:
        out.setdefault(field, []).append(message)

    for key in sorted(set(doc) - set(DOCUMENT_KEYS), key=str):
        add(str(key), "unknown field")
    for key in ("id", "name", "ranking", "tie_breaks", "missed"):
        if key not in doc:
            add(key, "missing data for required field")
    ident = doc.get("id")
    if "id" in doc and (not isinstance(ident, str) or not ident or ident[0] == "-" or not set(ident) <= _ID_CHARS):
        add("id", "must be a format id (lowercase letters, digits, hyphens)")
    if "name" in doc and (not isinstance(doc["name"], str) or not doc["name"].strip()):
        add("name", "must be a non-empty string")
    if not isinstance(doc.get("description", ""), str):
        add("description", "must be a string")
    if "ranking" in doc and doc["ranking"] not in RANKINGS:
        add("ranking", f"must be one of: {', '.join(RANKINGS)}")
    if "missed" in doc and doc["missed"] not in MISSED:
        add("missed", f"must be one of: {', '.join(MISSED)}")
    decimals = doc.get("decimals", DECIMALS)
    if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= MAX_DECIMALS:
        add("decimals", f"must be a whole number from 0 to {MAX_DECIMALS}")
    min_games = doc.get("min_games", 0)
    if isinstance(min_games, bool) or not isinstance(min_games, int) or min_games < 0:
        add("min_games", "must be a whole number, at least 0")
    tie_breaks = doc.get("tie_breaks", [])
    if isinstance(tie_breaks, str) or not isinstance(tie_breaks, list | tuple):
        add("tie_breaks", "must be a list")
    else:
        for i, name in enumerate(tie_breaks):
            if not isinstance(name, str) or name not in TIE_BREAKS:
                add(f"tie_breaks.{i}", f"must be one of: {', '.join(TIE_BREAKS)}")
            elif name in tie_breaks[:i]:
                add(f"tie_breaks.{i}", f"{name} is listed twice")
            elif name == doc.get("ranking"):
                add(f"tie_breaks.{i}", f"{name} is the ranking itself")
    return out
