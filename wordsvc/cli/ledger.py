"""``wordsvc db``, ``event``, ``token``, ``audit``, ``deal``: the ledger from a shell (docs/ledger.md, docs/deals.md).

The commands open the database ``WORDSVC_DATABASE_URL`` names and act as the
machine's own administrator (actor ``local`` in the audit): whoever can run
them can open the database file anyway. ``audit verify`` exits 1 and names
the first bad entry or row when anything was edited, deleted or reordered;
``db backup`` copies a SQLite ledger while it is in use. ``audit verify
--receipt`` checks that a log still extends a receipt or checkpoint taken
earlier (:mod:`wordsvc.ledger.receipt_check`), offline with ``--export``;
``key`` makes and shows the key that signs checkpoints.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..config import Settings
from ..ledger import LOCAL, Ledger, connect, describe, upgrade
from ..ledger.audit import verify
from ..ledger.checkpoints import KeyFileError, Signer, create_key, key_id, public_key_from_pem, public_pem
from ..ledger.database import backup
from ..ledger.deals import verify_deals
from ..ledger.ledger import records_of
from ..ledger.receipt_check import check, checkpoint_of
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
    create.add_argument("--ruleset", default="standard")
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
    make.add_argument("--event", help="the event of a director, referee or viewer token")
    make.add_argument("--role", choices=("director", "referee", "viewer"))
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

    audit = sub.add_parser("audit", help="the audit trail").add_subparsers(dest="audit_command", required=True)
    verify = audit.add_parser(
        "verify", help="recompute the hash chain and check the tables against it, and the log against receipts taken before; exit 1 naming the first problem"
    )
    verify.add_argument("events", nargs="*", help="event ids (default: the receipts' events, else every event, and the admin tokens' chain)")
    verify.add_argument("--receipt", action="append", default=[], metavar="FILE", help="a receipt or checkpoint (or an answer holding one) the log must still extend")
    verify.add_argument("--export", metavar="FILE", help="check this export document instead of the database (offline)")
    verify.add_argument("--public-key", action="append", default=[], metavar="FILE", help="the service's public key (PEM; wordsvc key create prints it): checkpoints must carry its signature")
    verify.set_defaults(run=_audit_verify)

    key = sub.add_parser("key", help="the Ed25519 key that signs checkpoints (WORDSVC_LEDGER_KEY_FILE)").add_subparsers(dest="key_command", required=True)
    make_key = key.add_parser("create", help="write a new private key to PATH (mode 0600, never over a file) and print its public key and key id")
    make_key.add_argument("path")
    make_key.set_defaults(run=_key_create)
    show_key = key.add_parser("public", help="print the public key and key id of the private key in PATH")
    show_key.add_argument("path")
    show_key.set_defaults(run=_key_public)


def _ledger(service: Service | None = None) -> Ledger:
    """The ledger ``WORDSVC_DATABASE_URL`` names, signing with ``WORDSVC_LEDGER_KEY_FILE``'s key as the service does."""
    settings = Settings.from_env()
    try:
        signer = Signer.from_file(settings.ledger_key_file)
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
    print_json(_ledger(service).create_event(LOCAL, ruleset, lexicon, body["name"], body["id"], body["private"], body["deals"], body["duplicate"]))
    return 0


def _event_show(args: argparse.Namespace) -> int:
    ledger = _ledger()
    out = ledger.event(LOCAL, args.event)
    if args.standings:
        out["standings"] = ledger.standings(LOCAL, args.event)["standings"]
    print_json(out)
    return 0


def _event_export(args: argparse.Namespace) -> int:
    text = json.dumps(_ledger().export(LOCAL, args.event), ensure_ascii=False, indent=2) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(text)
    return 0


def _event_import(args: argparse.Namespace) -> int:
    document = read_json(args.file)
    print_json(_ledger().import_event(LOCAL, document))
    return 0


def _token_create(args: argparse.Namespace) -> int:
    ledger = _ledger()
    if args.admin:
        if args.event or args.role or args.table:
            raise CliError("an admin token belongs to no event: leave out --event, --role and --table")
        tid, token = ledger.create_admin_token(args.label)
        print_json({"id": tid, "role": "admin", "token": token})
        return 0
    if not args.event or not args.role:
        raise CliError("give --admin, or --event and --role")
    body = TokenBody().load({k: v for k, v in {"role": args.role, "table": args.table, "label": args.label}.items() if v is not None})
    print_json(ledger.issue_token(LOCAL, args.event, body["role"], body["table"], body["label"]))
    return 0


def _token_revoke(args: argparse.Namespace) -> int:
    ledger = _ledger()
    event = ledger.token_event(args.id)
    if event is None:
        ledger.revoke_admin_token(args.id)
    else:
        ledger.revoke_token(LOCAL, event, args.id)
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


def _audit_verify(args: argparse.Namespace) -> int:
    keys = [public_key_from_pem(_read_bytes(path), path) for path in args.public_key]
    receipts = [(path, read_json(path)) for path in args.receipt]
    if args.export:
        if args.events:
            raise CliError("give event ids or --export, not both")
        return _verify_export(read_json(args.export), receipts, keys)
    ledger = _ledger()
    failed = False
    named = [checkpoint["event"] for _, document in receipts if (checkpoint := checkpoint_of(document)[1]) and isinstance(checkpoint.get("event"), str)]
    chains = [(event, ledger.verify) for event in (args.events or list(dict.fromkeys(named)) or ledger.event_ids())]
    for event, check_event in chains:
        problems = check_event(event)
        if problems:
            failed = True
            print(f"event {event}: FAILED: {problems[0]}" + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
        else:
            print(f"event {event}: ok")
    for path, document in receipts:
        event = args.events[0] if len(args.events) == 1 else (checkpoint_of(document)[1] or {}).get("event")
        if not isinstance(event, str) or event not in ledger.event_ids():
            failed = True
            print(f"receipt {path}: FAILED: its event {event!r} is not in the ledger (the whole event was deleted, or name it)")
            continue
        failed = _report_receipt(path, document, event, ledger.log(event), keys) or failed
    problems = ledger.verify_house()  # the admin tokens' chain vouches for who may act on every event: checked with any event named too
    failed = failed or bool(problems)
    print(f"admin tokens: FAILED: {problems[0]}" if problems else "admin tokens: ok")
    return 1 if failed else 0


def _verify_export(document: Any, receipts: list[tuple[str, Any]], keys: list[Any]) -> int:
    """An export checked offline: its chain and rows, its own checkpoint, and each receipt against its entries."""
    records = records_of(document)
    event = records.event["id"]
    problems = verify(records)
    failed = bool(problems)
    print(f"export of event {event}: FAILED: {problems[0]}" if problems else f"export of event {event}: ok")
    if document.get("checkpoint") is not None:
        failed = _report_receipt("its checkpoint", document["checkpoint"], event, records.audit, keys) or failed
    for path, receipt in receipts:
        failed = _report_receipt(path, receipt, event, records.audit, keys) or failed
    return 1 if failed else 0


def _report_receipt(name: str, document: Any, event: str, entries: list[dict[str, Any]], keys: list[Any]) -> bool:
    """Print what checking one receipt or checkpoint found; whether it failed."""
    receipt, checkpoint = checkpoint_of(document)
    problems = check(document, event, entries, keys)
    what = "receipt" if receipt is not None else "checkpoint"
    label = f"{name} ({what}"
    if checkpoint is not None and receipt is not None:
        label += f" of entry {receipt.get('seq')} in {checkpoint.get('tree_size')}"
    elif checkpoint is not None:
        label += f" of {checkpoint.get('tree_size')} entries"
    label += ")"
    if problems:
        print(f"{label}: FAILED: {problems[0]}" + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
        return True
    signed = "signature not checked (give --public-key)"
    if keys:
        signed = f"signed by key {checkpoint['key_id']}" if checkpoint else ""
    elif checkpoint is not None and checkpoint.get("signature") is None:
        signed = "unsigned"
    print(f"{label}: ok: the log of {len(entries)} entries extends it; {signed}")
    return False


def _read_bytes(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as err:
        raise CliError(f"{path}: {err.strerror}") from None


def _key_create(args: argparse.Namespace) -> int:
    try:
        key = create_key(Path(args.path))
    except KeyFileError as err:
        raise CliError(str(err)) from None
    print(f"# key id {key_id(key.public_key())}; private key written to {args.path} (mode 0600): set WORDSVC_LEDGER_KEY_FILE to it", file=sys.stderr)
    sys.stdout.write(public_pem(key.public_key()))
    return 0


def _key_public(args: argparse.Namespace) -> int:
    try:
        signer = Signer.from_file(Path(args.path))
    except KeyFileError as err:
        raise CliError(str(err)) from None
    print(f"# key id {signer.key_id}", file=sys.stderr)
    sys.stdout.write(signer.public_pem() or "")
    return 0
