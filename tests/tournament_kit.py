"""What the ledger's tournament tests share: a small lexicon, a one-round ruleset, the plays each seat lays, a ledger.

A game under :func:`one_round` is complete after one round of 3 cards, and
seat i lays ``LAYS[i]``, so every table's players finish in seat order.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.ruleset import Ruleset
from wordsvc.core.scoring import PlayerPlay, RoundPlay
from wordsvc.data.rulesets import load_rulesets, ruleset_document, ruleset_from_document
from wordsvc.ledger import Ledger

WORDS = ("cat", "dog", "tea", "eat", "ate", "rat", "art", "tar")
LEXICON = MemoryLexicon({w: [()] for w in WORDS}, LexiconInfo(id="en-US", lang="en-US", version="1", sha256="1" * 64, fold_diacritics=True))
#: What each seat lays in the one round, by seat: seat 0 scores most, then seat 1, and so on.
LAYS = [(["cat"], ""), (["rat"], ""), (["tea"], ""), (["at"], "e"), ([], "tar"), (["eat"], ""), (["ate"], ""), ([], "dog")]


def open_ledger(database_url: str) -> Iterator[Ledger]:
    """The body of a module's ``ledger`` fixture: a ledger on ``database_url`` judging with :data:`LEXICON`, closed after."""
    opened = Ledger.open(database_url, lambda lang: LEXICON)
    yield opened
    opened.close()


def one_round(**knobs: Any) -> Ruleset:
    """The standard ruleset with one round of 3 cards (and any other knob of a ruleset document: ``players={...}``)."""
    document = ruleset_document(load_rulesets().get("standard"))
    document.update(rounds=[3], **knobs)
    return ruleset_from_document("standard", document)


def seat_play(names: list[str]) -> RoundPlay:
    """The one round of a table seating ``names``: seat i lays ``LAYS[i]``."""
    return RoundPlay(tuple(PlayerPlay(name, tuple(tuple(w) for w in LAYS[i][0]), tuple(LAYS[i][1])) for i, name in enumerate(names)))


def play(ledger: Ledger, director: Any, event_id: str, session: dict[str, Any], tables: range | None = None) -> None:
    """Store the one round of the session's tables (all, or those of ``tables``, 0 first)."""
    for index, table in enumerate(session["tables"]):
        if tables is None or index in tables:
            ledger.rounds.submit_round(director, event_id, table["game"], 1, seat_play([seat["name"] for seat in table["seats"]]))


def tables_of(session: dict[str, Any]) -> list[list[str]]:
    """A session's tables as player ids, seat 0 first."""
    return [[seat["player"] for seat in table["seats"]] for table in session["tables"]]
