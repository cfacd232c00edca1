"""``wordsvc db``, ``event``, ``token``, ``deal``: the ledger from a shell (docs/ledger.md, docs/deals.md).

The commands open the database ``WORDSVC_DATABASE_URL`` names and act as the
machine's own administrator (actor ``local`` in the audit): whoever can run
them can open the database file anyway. ``db backup`` copies a SQLite ledger
while it is in use. Checking the audit trail is :mod:`.audit`'s.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..config import Settings
from ..ledger import LOCAL, Ledger, backup, connect, describe, upgrade
from ..ledger.integrity.checkpoints import KeyFileError, Signer
from ..ledger.ledger import records_of
from ..ledger.records.deals import verify_deals
from ..schemas.events import EventBody, TokenBody
from ..service import Service
from .common import CliError, print_json, read_json

__all__ = ["add_parsers"]


def add_parsers(sub: Any) -> None:
    db = sub.add_parser("db", help="the ledger's database").add_subparsers(dest="db_command", required=True)
    db.add_parser("upgrade", help="create or migrate the ledger's tables (make setup and wordsvc serve run it)").set_defaults(run=_upgrade)
    copy = db.add_parser("backup", help="copy a SQLite ledger to a new file, safely while the service writes (PostgreSQL: pg_dump)")
    copy.add_argument("file", help="the copy to write (must not exist)")
    copy.set_defaults(run=_backup)

    event = sub.add_parser("event", help="ledger events: create, show, export, import").add_subparsers(dest="event_command", required=True)
    create = event.add_parser("create", help="create an event; prints it with its director token (shown once)")
    create.add_argument("--name", required=True)
    create.add_argument("--ruleset", default=None, help="ruleset id (default: the ruleset of --lang, else standard)")
    create.add_argument("--lang", default=None, help="lexicon (default: the ruleset's language)")
    create.add_argument("--id", default=None, help="the event's id in URLs (default: random)")
    create.add_argument("--private", action="store_true", help="games, standings and audit need a token of the event")
    create.add_argument("--deals", choices=("none", "seeded"), default="none", help="seeded: the service deals every round from a committed seed")
    create.add_argument("--duplicate", action="store_true", help="every table gets the same deal (needs --deals seeded)")
    create.set_defaults(run=_event_create)
    show = event.add_parser("show", help="an event: snapshot, tables, status; --standings adds the standings")
    show.add_argument("event")
    show.add_argument("--standings", action="store_true")
    show.set_defaults(run=_event_show)
    export = event.add_parser("export", help="an event as one JSON document (POST /events/import and event import read it)")
    export.add_argument("event")
    export.add_argument("-o", "--output", default="-", help="file to write (default: stdout)")
    export.set_defaults(run=_event_export)
    imp = event.add_parser("import", help="rebuild an exported event (refused unless its audit chain verifies)")
    imp.add_argument("file", help="an export document, - for stdin")
    imp.set_defaults(run=_event_import)

    token = sub.add_parser("token", help="bearer tokens: create, revoke").add_subparsers(dest="token_command", required=True)
    make = token.add_parser("create", help="a new token, printed once (only its hash is kept)")
    make.add_argument("--admin", action="store_true", help="an admin token: creates and imports events")
    make.add_argument("--event", help="the event of a director, referee, kiosk or viewer token")
    make.add_argument("--role", choices=("director", "referee", "kiosk", "viewer"))
    make.add_argument("--table", help="limit a referee token to one table")
    make.add_argument("--label")
    make.set_defaults(run=_token_create)
    revoke = token.add_parser("revoke", help="revoke a token by its id")
    revoke.add_argument("id")
    revoke.set_defaults(run=_token_revoke)

    dealing = sub.add_parser("deal", help="seeded deals (docs/deals.md)").add_subparsers(dest="deal_command", required=True)
    check = dealing.add_parser("verify", help="regenerate and check every deal of an exported, closed seeded event; exit 1 naming the first problem")
    check.add_argument("file", help="an export document (wordsvc event export, GET /events/{event}/export), - for stdin")
    check.set_defaults(run=_deal_verify)


def open_ledger(service: Service | None = None) -> Ledger:
    """The ledger ``WORDSVC_DATABASE_URL`` names, signing with ``WORDSVC_LEDGER_KEY_FILE``'s key as the service does."""
    settings = Settings.from_env()
    try:
        signer = Signer.from_file(settings.ledger_key_file, settings.ledger_public_keys)
    except KeyFileError as err:
        raise CliError(f"WORDSVC_LEDGER_KEY_FILE: {err}") from None
    if service is None:
        return Ledger.open(settings.database_url, _no_lexicons, signer=signer)
    return Ledger.open(settings.database_url, service.languages.get, service.budget, signer=signer)


def _no_lexicons(lang: str) -> Any:
    raise CliError(f"this command does not load lexicons (asked for {lang})")


def _upgrade(args: argparse.Namespace) -> int:
    url = Settings.from_env().database_url
    revision = upgrade(connect(url))
    print(f"ledger at {describe(url)}: schema revision {revision}", file=sys.stderr)
    return 0


def _backup(args: argparse.Namespace) -> int:
    url = Settings.from_env().database_url
    try:
        done = backup(url, Path(args.file))
    except (OSError, ValueError) as err:
        raise CliError(str(err)) from None
    print(f"ledger at {describe(url)} copied to {done.path}: {done.events} event(s), {done.entries} audit entries, schema revision {done.revision}, {done.bytes:,} bytes")
    return 0


def _event_create(args: argparse.Namespace) -> int:
    given = {"name": args.name, "ruleset": args.ruleset, "lang": args.lang, "id": args.id, "private": args.private, "deals": args.deals, "duplicate": args.duplicate}
    body = EventBody().load({k: v for k, v in given.items() if v is not None})
    service = Service.from_settings()
    ruleset, lexicon = service.resolve(body["ruleset"], body["lang"])
    print_json(open_ledger(service).events.create_event(LOCAL, ruleset, lexicon, body["name"], body["id"], body["private"], body["deals"], body["duplicate"]))
    return 0


def _event_show(args: argparse.Namespace) -> int:
    ledger = open_ledger()
    out = ledger.events.event(LOCAL, args.event)
    if args.standings:
        out["standings"] = ledger.standings.standings(LOCAL, args.event)["standings"]
    print_json(out)
    return 0


def _event_export(args: argparse.Namespace) -> int:
    text = json.dumps(open_ledger().transfer.export(LOCAL, args.event), ensure_ascii=False, indent=2) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(text)
    return 0


def _event_import(args: argparse.Namespace) -> int:
    document = read_json(args.file)
    print_json(open_ledger().transfer.import_event(LOCAL, document))
    return 0


def _token_create(args: argparse.Namespace) -> int:
    ledger = open_ledger()
    if args.admin:
        if args.event or args.role or args.table:
            raise CliError("an admin token belongs to no event: leave out --event, --role and --table")
        tid, token = ledger.tokens.create_admin_token(args.label)
        print_json({"id": tid, "role": "admin", "token": token})
        return 0
    if not args.event or not args.role:
        raise CliError("give --admin, or --event and --role")
    body = TokenBody().load({k: v for k, v in {"role": args.role, "table": args.table, "label": args.label}.items() if v is not None})
    print_json(ledger.tokens.issue_token(LOCAL, args.event, body["role"], body["table"], body["label"]))
    return 0


def _token_revoke(args: argparse.Namespace) -> int:
    ledger = open_ledger()
    event = ledger.tokens.token_event(args.id)
    if event is None:
        ledger.tokens.revoke_admin_token(args.id)
    else:
        ledger.tokens.revoke_token(LOCAL, event, args.id)
    print(f"token {args.id} revoked", file=sys.stderr)
    return 0


def _deal_verify(args: argparse.Namespace) -> int:
    document = read_json(args.file)
    problems, checked = verify_deals(records_of(document))
    if problems:
        print(f"FAILED: {problems[0]}" + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
        return 1
    print(f"ok: {checked} deal(s) of event {document['event']['id']} are the revealed seed's, and the seed is the one committed to")
    return 0
