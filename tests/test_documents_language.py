"""Every printed document of an event in the event's language, every line of it (docs/documents.md, "Language").

One tournament is played through the ledger in each language the service
speaks, so that its audit log holds an entry of every kind the ledger writes
(the test finds those kinds in the ledger's own code): tokens issued and
revoked, players registered, checked in and withdrawn, a schedule, sessions
seated, swapped and redrawn, tables seated by name, rounds stored and
corrected, a ruling, a lexicon accepted, the ratings decision, the close and,
in another ledger, the import. Every document is built from its views and its
words are read back: apart from names and identifiers, no word of the English
documents may appear in another language's, unless that language's own
document words use it too. The English words are taken from the English
catalogue and from the English documents of the same tournament, so a new
English string, or an English word written in code, is caught without this
file changing.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from wordsvc.core import documents as docs
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.scoring import PlayerPlay, RoundPlay
from wordsvc.data.formats import format_document, known_formats
from wordsvc.data.rulesets import load_rulesets, ruleset_document, ruleset_from_document
from wordsvc.i18n import DOCUMENT_CATALOG, DOCUMENT_LOCALES, DOCUMENT_PLURALS, PLURAL_CATEGORIES, document_count, plural_category
from wordsvc.ledger import LOCAL, Ledger

#: Players' names that are no word of any language here, so that a name is never mistaken for a word (they are stripped anyway).
NAMES = ("Aino Virtanen", "Bjarki Þórsson", "Chiara Lupo", "Dagny Holm", "Eero Saar", "Fenna Visser", "Grete Kask", "Hlín Ósk", "Iñaki Goñi", "Jaana Jõgi")
WORDS = ("rna", "aei", "oni", "ano")
#: What is left in a hand, card after card: letters the deck holds many of.
SPARE = ("a", "i", "o", "e")
#: What the director types as the reason of a correction and of the ratings decision: free text, like a name, so an identifier here.
REASON = "R-17"
PRINTED = "2026-12-06 10:00"
#: Kinds of entry that playing a tournament cannot write here (an operator's acceptance needs the service's key): their payloads as the ledger writes them.
WRITTEN_ELSEWHERE = {
    "audit.accepted": {"upto": 41, "head": "ab" * 32},
    # hosted games (tests/test_hosting_ledger.py plays them): their entries print as "details in the full entry"
    "play.created": {"game": "table", "setup": {"seats": 2}, "commitment": "cd" * 32, "seats": [{"seat": 0, "kind": "open", "name": None, "level": None}]},
    "play.seated": {"game": "table", "seat": 0, "name": "Ann", "kind": "person", "nonce": None},
    "play.started": {"game": "table", "players": ["Ann", "Bot 2 (level 1)"], "nonces": [None, None], "commitment": "cd" * 32},
    "move.played": {"game": "table", "seq": 1, "kind": "discard", "seat": 0, "card": "qu"},
    "play.handed": {"game": "table", "seat": 0, "reason": "resigned", "forfeit": True},
    "play.aborted": {"game": "table", "server_seed": "ef" * 32, "seed": None},
    "play.ended": {"game": "table", "totals": [12, 40], "server_seed": "ef" * 32, "seed": "01" * 32},
}


def ledger_actions() -> set[str]:
    """Every action the ledger's code appends to an audit chain: the string constants given as ``append``'s action argument."""
    found: set[str] = set()
    for path in (Path(docs.__file__).resolve().parents[2] / "ledger").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("append", "_append") and len(node.args) >= 4:
                found |= {n.value for n in ast.walk(node.args[3]) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return found


def play(ledger: Ledger, imported: Ledger, lang: str, versions: dict[str, str]) -> dict[str, Any]:
    """A small tournament with an entry of every kind, in ``lang``; the views every document is built from."""
    standard = ruleset_document(load_rulesets().get("standard"))
    standard["rounds"] = [3, 4]
    ruleset = ruleset_from_document("standard", standard)
    event_id = f"mot-{lang}"
    view = ledger.events.create_event(LOCAL, ruleset, ledger.store.lexicons(lang), f"Mót {lang.upper()}", event_id, tournament_format=format_document(known_formats()["average"]))
    director = ledger.tokens.authenticate(view["director_token"]["token"])
    viewer = ledger.tokens.issue_token(director, event_id, "viewer")
    ledger.tokens.revoke_token(director, event_id, viewer["id"])
    for number, name in enumerate(NAMES[:8], start=1):
        ledger.players.register(director, event_id, f"p{number}", name, club="Klúbbur" if number == 1 else None, rating_id="r-1" if number == 1 else None, checked_in=number < 8)
    ledger.players.check_in(director, event_id, "p8")
    ledger.sessions.publish_schedule(director, event_id, 2, {"target": 4})
    ledger.sessions.create(director, event_id, {"method": "schedule", "number": 1})
    first = ledger.sessions.session(director, event_id, 1)
    ledger.sessions.swap(director, event_id, 1, first["tables"][0]["seats"][0]["player"], first["tables"][1]["seats"][0]["player"])
    ledger.players.register(director, event_id, "p9", NAMES[8], checked_in=True)
    play_session(ledger, director, event_id, ledger.sessions.session(director, event_id, 1))
    referee = ledger.tokens.issue_token(director, event_id, "referee", table="s1-t1")
    ledger.rulings.judge(ledger.tokens.authenticate(referee["token"]), event_id, "s1-t1", 2, ["rna", "ano"])
    ledger.players.withdraw(director, event_id, "p9")
    ledger.players.register(director, event_id, "p10", NAMES[9])  # a mistaken registration, deleted
    ledger.players.delete(director, event_id, "p10")
    ledger.sessions.create(director, event_id, {"method": "random", "size": {"target": 4, "remainder": "larger"}, "number": 2})
    ledger.sessions.redraw(director, event_id, 2)
    second = ledger.sessions.session(director, event_id, 2)
    play_session(ledger, director, event_id, second)
    names = [seat["name"] for seat in second["tables"][0]["seats"]]
    ledger.rounds.submit_round(director, event_id, "s2-t1", 2, round_play(names, 2, shift=1), correction=REASON, if_match="*")
    ledger.games.put_game(director, event_id, "extra", NAMES[:2])
    versions[lang] = "2"
    ledger.events.accept_lexicon(director, event_id)
    ledger.ratings.set_rated(director, event_id, False, REASON)
    ledger.events.close_event(director, event_id)
    seeded = ledger.events.create_event(LOCAL, ruleset, ledger.store.lexicons(lang), f"Mót {lang.upper()} 2", f"{event_id}-2", private=True, deals="seeded", duplicate=True)
    seeded_director = ledger.tokens.authenticate(seeded["director_token"]["token"])
    ledger.events.close_event(seeded_director, f"{event_id}-2")
    copy = imported.transfer.import_event(LOCAL, ledger.transfer.export(director, event_id))
    copy_director = imported.tokens.authenticate(copy["director_token"]["token"])
    return {
        "event": ledger.events.event(director, event_id),
        "session": second,
        "sessions": [first, second],
        "standings": ledger.standings.standings(director, event_id),
        "crosstable": ledger.tournament_standings.crosstable(director, event_id),
        "players": ledger.players.players(director, event_id),
        "audits": [
            imported.trail.audit_entries(copy_director, event_id)["entries"],
            ledger.trail.audit_entries(seeded_director, f"{event_id}-2")["entries"],
        ],
    }


def round_play(names: list[str], number: int, shift: int = 0) -> RoundPlay:
    """Each seat lays one word, then leaves the rest of its hand: different totals, so every table has an order."""
    hand = number + 2
    plays = []
    for i, name in enumerate(names):
        laid = (tuple(WORDS[(i + shift) % 3]),) if i < 3 else ()
        plays.append(PlayerPlay(name, laid, tuple(SPARE[(i + k) % len(SPARE)] for k in range(hand - 3 * len(laid)))))
    return RoundPlay(tuple(plays))


def play_session(ledger: Ledger, director: Any, event_id: str, session: dict[str, Any]) -> None:
    for table in session["tables"]:
        names = [seat["name"] for seat in table["seats"]]
        for number in (1, 2):
            ledger.rounds.submit_round(director, event_id, table["game"], number, round_play(names, number))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, dict[str, Any]]]:
    versions: dict[str, str] = {}

    def lexicon(lang: str) -> MemoryLexicon:
        version = versions.setdefault(lang, "1")
        return MemoryLexicon({w: [()] for w in WORDS}, LexiconInfo(id=lang, lang=lang, version=version, sha256=version * 64, fold_diacritics=True))

    folder = tmp_path_factory.mktemp("language")
    ledger = Ledger.open(f"sqlite:///{folder / 'ledger.sqlite3'}", lexicon)
    imported = Ledger.open(f"sqlite:///{folder / 'imported.sqlite3'}", lexicon)
    yield {lang: play(ledger, imported, lang, versions) for lang in DOCUMENT_LOCALES}
    ledger.close()
    imported.close()


def documents(views: dict[str, Any]) -> list[docs.Document]:
    """Every document of the tournament: seating, scorecards (of a session and of the tables seated by name), standings, crosstable, results, audit."""
    event = views["event"]
    link: Callable[[str], str] = lambda table: f"https://venue.example/console#event={event['id']}&table={table}"  # noqa: E731
    return [
        docs.seating_document(event, views["session"], PRINTED),
        docs.scorecards_document(event, views["session"]["tables"], link, PRINTED, views["session"]["number"]),
        docs.scorecards_document(event, [game for game in event["games"] if game["id"] == "extra"], link, PRINTED),
        docs.standings_document(event, views["standings"], PRINTED),
        docs.crosstable_document(event, views["crosstable"], views["players"], PRINTED),
        docs.results_document(event, views["standings"], views["crosstable"], PRINTED),
        *(docs.audit_document(event, entries, PRINTED) for entries in views["audits"]),
    ]


def lines(document: docs.Document) -> list[str]:
    """Every text a reader sees: the title, the footer, the page label, and each block's words."""
    out = [document.title, document.footer, document.page_label.format(page=1)]
    for block in document.blocks:
        if isinstance(block, docs.Grid):
            out += [label for label, _ in block.groups] + list(block.header) + [cell for row in block.rows for cell in row]
        elif isinstance(block, docs.Qr):
            out += list(block.lines)
        elif isinstance(block, (docs.Heading, docs.Text)):
            out.append(block.text)
        elif isinstance(block, docs.Cut):
            out.append(block.label)
    return out


def identifiers(views: dict[str, Any]) -> list[str]:
    """What a document shows as it was given: names, ids, tokens, lexicon stamps, words laid, the reason typed; longest first."""
    found = {*NAMES, *(w.upper() for w in WORDS), REASON, "Klúbbur", "r-1", views["event"]["id"], f"{views['event']['id']}-2", views["event"]["name"]}
    found |= {f"{views['event']['name']} 2", views["event"]["ruleset"]["id"]}
    found |= {f"p{i}" for i in range(1, 11)} | {game["id"] for game in views["event"]["games"]}
    for entries in views["audits"]:
        for entry in entries:
            found.add(entry["actor"]["token"])
            payload = entry["payload"]
            for key in ("id", "from", "to", "lexicon"):
                value = payload.get(key)
                if isinstance(value, dict):
                    found |= {str(value.get("id")), str(value.get("version"))}
                elif isinstance(value, str):
                    found.add(value)
    return sorted(found, key=len, reverse=True)


def words(texts: list[str], names: list[str]) -> set[str]:
    """The words of ``texts`` once every name and identifier is taken out, case-folded; numbers and signs are not words."""
    out: set[str] = set()
    for text in texts:
        for name in names:
            text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", text, flags=re.IGNORECASE)
        out |= {word.casefold() for word in re.findall(r"[^\W\d_]+", text)}
    return out


def catalogue_words(locale: str) -> set[str]:
    """Every word of ``locale``'s document strings, its plural forms included, fields left out."""
    texts = list(DOCUMENT_CATALOG[locale].values()) + [form for forms in DOCUMENT_PLURALS[locale].values() for form in forms.values()]
    return words([re.sub(r"\{\w+\}", " ", text) for text in texts], [])


@pytest.mark.slow  # seconds even alone: left out of make check, run by make test
def test_the_played_tournament_holds_an_entry_of_every_kind_the_ledger_writes(played: dict[str, dict[str, Any]]) -> None:
    written = {entry["action"] for entries in played["en"]["audits"] for entry in entries}
    assert ledger_actions() - set(WRITTEN_ELSEWHERE) <= written, sorted(ledger_actions() - set(WRITTEN_ELSEWHERE) - written)


@pytest.mark.slow  # plays a tournament in each of the eleven languages first (about 20 s): left out of make check, run by make test
@pytest.mark.parametrize("locale", [locale for locale in DOCUMENT_LOCALES if locale != "en"])
def test_every_document_of_an_event_speaks_only_its_language(played: dict[str, dict[str, Any]], locale: str) -> None:
    english_views, views = played["en"], played[locale]
    elsewhere = [{"seq": 999, "at": "2026-12-06T10:00:00Z", "actor": {"role": "admin", "token": "local"}, "action": action, "payload": payload} for action, payload in WRITTEN_ELSEWHERE.items()]
    english_views = {**english_views, "audits": [*english_views["audits"], elsewhere]}
    views = {**views, "audits": [*views["audits"], elsewhere]}
    english = catalogue_words("en") | words([text for document in documents(english_views) for text in lines(document)], identifiers(english_views))
    foreign = english - catalogue_words(locale)
    names = identifiers(views)
    strays = sorted(
        (word, text)
        for document in documents(views)
        for text in lines(document)
        for word in words([text], names) & foreign
    )
    assert strays == [], f"{len(strays)} English word(s) in the {locale} documents, e.g. {strays[:12]}"


#: CLDR's sample whole numbers of each plural category, per locale (unicode.org, "Language Plural Rules"; Portugal's for pt).
CLDR_SAMPLES = {
    "en": {"one": [1], "other": [0, 2, 11, 21, 100, 1000]},
    "et": {"one": [1], "other": [0, 2, 11, 21, 100]},
    "de": {"one": [1], "other": [0, 2, 21, 101]},
    "nl": {"one": [1], "other": [0, 2, 21, 101]},
    "da": {"one": [1], "other": [0, 2, 21, 101]},
    "is": {"one": [1, 21, 31, 101, 1001], "other": [0, 2, 11, 12, 111, 100, 1000]},
    "pl": {"one": [1], "few": [2, 3, 4, 22, 24, 32, 102, 1002], "many": [0, 5, 11, 12, 14, 19, 21, 25, 100, 112, 1000]},
    "fr": {"one": [0, 1], "many": [1_000_000, 2_000_000], "other": [2, 17, 100, 1000, 1_000_001]},
    "es": {"one": [1], "many": [1_000_000], "other": [0, 2, 16, 100, 1000]},
    "it": {"one": [1], "many": [1_000_000], "other": [0, 2, 16, 100, 1000]},
    "pt": {"one": [1], "many": [1_000_000], "other": [0, 2, 16, 100, 1000]},
}


@pytest.mark.parametrize("locale", DOCUMENT_LOCALES)
def test_a_count_takes_the_plural_form_its_language_gives_it(locale: str) -> None:
    for category, numbers in CLDR_SAMPLES[locale].items():
        assert {n: plural_category(locale, n) for n in numbers} == dict.fromkeys(numbers, category)


@pytest.mark.parametrize("locale", DOCUMENT_LOCALES)
def test_every_text_with_a_count_has_each_plural_form_of_its_language_and_the_english_fields(locale: str) -> None:
    english = DOCUMENT_PLURALS["en"]
    assert set(DOCUMENT_PLURALS[locale]) == set(english)
    for key, forms in DOCUMENT_PLURALS[locale].items():
        assert tuple(forms) == PLURAL_CATEGORIES[locale], key
        for form in forms.values():
            assert set(re.findall(r"\{(\w+)\}", form)) == set(re.findall(r"\{(\w+)\}", english[key]["other"])) and "{n}" in form, (key, form)


def test_polish_and_icelandic_counts_read_as_their_speakers_say_them() -> None:
    assert [document_count("pl", "audit.line.tables", n) for n in (1, 3, 5, 22)] == ["1 stół", "3 stoły", "5 stołów", "22 stoły"]
    assert [document_count("is", "audit.line.players", n) for n in (1, 11, 21)] == ["1 keppandi", "11 keppendur", "21 keppandi"]
    assert document_count("fr", "audit.line.tables", 0) == "0 table"
