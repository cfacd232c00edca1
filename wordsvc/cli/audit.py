"""``wordsvc audit`` and ``wordsvc key``: checking the ledger's audit trail, an operator's decisions on it, and the key that signs it.

``audit verify`` recomputes each hash chain, holds the tables to it, scores
every round again and, with the service's key or ``--public-key``, checks
that every entry carries the key's signature (:mod:`wordsvc.ledger.integrity.verification`);
it exits 1 naming the first problem. ``--receipt`` checks that a log still
extends a receipt or checkpoint taken earlier
(:mod:`wordsvc.ledger.integrity.receipt_check`), offline with ``--export``. ``audit
accept`` records an operator's decision to take a chain whose newest entry
the service did not sign (:mod:`wordsvc.ledger.integrity.entry_signatures`). ``key``
makes and shows the key that signs entries and checkpoints. Like the
ledger's other commands they act as the machine's administrator
(docs/ledger.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..ledger import Ledger
from ..ledger.errors import LedgerError
from ..ledger.integrity.audit import HOUSE
from ..ledger.integrity.checkpoints import KeyFileError, Signer, create_key, key_id, public_key_from_pem, public_pem
from ..ledger.integrity.receipt_check import check, checkpoint_of, export_checkpoint_problems
from ..ledger.integrity.verification import Verified, verify_event
from ..ledger.ledger import records_of
from ..service import Service
from .common import CliError, lexicon_of, load_service, one_line, read_json
from .ledger import open_ledger

__all__ = ["add_parsers"]


def add_parsers(sub: Any) -> None:
    audit = sub.add_parser("audit", help="the audit trail").add_subparsers(dest="audit_command", required=True)
    verify = audit.add_parser(
        "verify",
        help="recompute the hash chain, check the tables against it, score every round again, check every entry's signature (given a key), and the log "
        "against receipts taken before; exit 1 naming the first problem",
    )
    verify.add_argument("events", nargs="*", help="event ids (default: the receipts' events, else every event, and the admin tokens' chain)")
    verify.add_argument("--receipt", action="append", default=[], metavar="FILE", help="a receipt or checkpoint (or an answer holding one) the log must still extend")
    verify.add_argument("--export", metavar="FILE", help="check this export document instead of the database (offline)")
    verify.add_argument(
        "--public-key",
        action="append",
        default=[],
        metavar="FILE",
        help="the service's public key (PEM; wordsvc key create prints it): every entry and checkpoint must carry its signature "
        "(default: the keys of WORDSVC_LEDGER_KEY_FILE and WORDSVC_LEDGER_PUBLIC_KEYS, if set)",
    )
    verify.set_defaults(run=_audit_verify)
    accept = audit.add_parser(
        "accept",
        help="an operator's decision: take a chain whose newest entry the service did not sign as it is (a signed audit.accepted entry vouches for it); "
        "refused unless the chain verifies",
    )
    accept.add_argument("event", nargs="?", help="the event whose log to accept")
    accept.add_argument("--house", action="store_true", help="the admin tokens' chain instead of an event's")
    accept.add_argument("--upto", type=int, metavar="N", help="how many entries the log holds, as you checked it (required with EVENT or --house)")
    accept.add_argument("--all", action="store_true", help="every chain whose newest entry the key did not sign, each as it is now (after an upgrade)")
    accept.set_defaults(run=_audit_accept)

    key = sub.add_parser("key", help="the Ed25519 key that signs audit entries and checkpoints (WORDSVC_LEDGER_KEY_FILE)").add_subparsers(dest="key_command", required=True)
    make_key = key.add_parser("create", help="write a new private key to PATH (mode 0600, never over a file) and print its public key and key id")
    make_key.add_argument("path")
    make_key.set_defaults(run=_key_create)
    show_key = key.add_parser("public", help="print the public key and key id of the private key in PATH")
    show_key.add_argument("path")
    show_key.set_defaults(run=_key_public)


def _audit_verify(args: argparse.Namespace) -> int:
    keys = [public_key_from_pem(_read_bytes(path), path) for path in args.public_key]
    receipts = [(path, read_json(path)) for path in args.receipt]
    service = load_service("rounds are not scored again")  # the lexicons rounds are scored again with, each loaded when a round needs it
    if args.export:
        if args.events:
            raise CliError("give event ids or --export, not both")
        return _verify_export(read_json(args.export), receipts, keys, service)
    ledger = open_ledger(service)
    try:
        return _verify_ledger(ledger, args.events, receipts, keys)
    finally:
        ledger.close()


def _verify_ledger(ledger: Ledger, events: list[str], receipts: list[tuple[str, Any]], keys: list[Any]) -> int:
    """The database form of ``audit verify``: each event named (by default the receipts', else all), each receipt, the admin tokens."""
    signing = {key_id(key): key for key in keys} if keys else ledger.receipts.signer.trusted
    failed = False
    named = [checkpoint["event"] for _, document in receipts if (checkpoint := checkpoint_of(document)[1]) and isinstance(checkpoint.get("event"), str)]
    for event in events or list(dict.fromkeys(named)) or ledger.events.event_ids():
        failed = _report(f"event {event}", ledger.trail.check(event, signing)) or failed
    for path, document in receipts:
        event = events[0] if len(events) == 1 else (checkpoint_of(document)[1] or {}).get("event")
        if not isinstance(event, str) or event not in ledger.events.event_ids():
            failed = True
            print(f"receipt {path}: FAILED: its event {event!r} is not in the ledger (the whole event was deleted, or name it)")
            continue
        failed = _report_receipt(path, document, event, ledger.trail.log(event), keys) or failed
    problems = ledger.trail.verify_house(signing)  # the admin tokens' chain vouches for who may act on every event: checked with any event named too
    failed = failed or bool(problems)
    print(f"admin tokens: FAILED: {problems[0]}" if problems else "admin tokens: ok")
    return 1 if failed else 0


def _verify_export(document: Any, receipts: list[tuple[str, Any]], keys: list[Any], service: Service | None) -> int:
    """An export checked offline: its chain, rows, scores and signatures, its own checkpoint (the head of exactly its entries), and each
    receipt against its entries."""
    records = records_of(document)
    event = records.event["id"]
    failed = _report(f"export of event {event}", verify_event(records, {key_id(key): key for key in keys}, lexicon_of(service)))
    checkpoint = document.get("checkpoint")
    if checkpoint is not None:
        exact = export_checkpoint_problems(checkpoint, event, records.audit, {})
        if exact:
            failed = True
            print(f"its checkpoint: FAILED: {exact[0].removeprefix('its checkpoint: ')}")
        else:
            failed = _report_receipt("its checkpoint", checkpoint, event, records.audit, keys) or failed
    for path, receipt in receipts:
        failed = _report_receipt(path, receipt, event, records.audit, keys) or failed
    return 1 if failed else 0


def _report(name: str, found: Verified) -> bool:
    """Print what checking one event found; whether it failed."""
    notes = f" ({'; '.join(found.notes)})" if found.notes else ""
    if found.problems:
        more = f" (and {len(found.problems) - 1} more)" if len(found.problems) > 1 else ""
        print(f"{name}: FAILED: {found.problems[0]}{more}")
        return True
    print(f"{name}: ok{notes}")
    return False


def _audit_accept(args: argparse.Namespace) -> int:
    if args.all == bool(args.event or args.house):
        raise CliError("give EVENT --upto N, --house --upto N, or --all")
    if args.event and args.house:
        raise CliError("give EVENT or --house, not both")
    if args.all and args.upto is not None:
        raise CliError("--all accepts each chain as it is now: leave out --upto")
    if not args.all and args.upto is None:
        raise CliError("give --upto N: the number of entries the log holds, as you checked it (wordsvc audit verify, GET .../audit)")
    ledger = open_ledger(load_service("rounds are not scored again"))
    try:
        if not args.all:
            return 0 if _accept_one(ledger, HOUSE if args.house else args.event, args.upto) else 1
        failed = False
        for chain in [*ledger.events.event_ids(), HOUSE]:
            entries = ledger.trail.log(chain)
            if entries:
                failed = not _accept_one(ledger, chain, len(entries)) or failed
        return 1 if failed else 0
    finally:
        ledger.close()


def _accept_one(ledger: Ledger, chain: str, upto: int) -> bool:
    """Accept one chain at ``upto`` entries and say what happened; whether it did not fail."""
    name = "admin tokens" if chain == HOUSE else f"event {chain}"
    try:
        done = ledger.trail.accept(chain, upto)
    except LedgerError as err:
        print(f"{name}: FAILED: {one_line(err)}")
        return False
    if done is None:
        print(f"{name}: its newest entry is signed by the service: nothing to accept")
    else:
        print(f"{name}: entries 1 to {upto} accepted in entry {done.seq} (audit.accepted, signed by key {ledger.receipts.signer.key_id})")
    return True


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
