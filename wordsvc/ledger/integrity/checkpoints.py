"""Checkpoints: an event's tree head (size and Merkle root) at a time, signed with an Ed25519 key kept outside the database.

A hash chain shows an entry was edited, but not that its newest entries are
gone: whoever can write the database can delete a tail and the rows it
covers, and what is left still verifies. A checkpoint handed out before the
deletion can: it names how many entries the event's log had and their root
(:mod:`wordsvc.core.merkle`), and the log read later must extend it
(docs/ledger.md, "Receipts and checkpoints"). Its signature shows the
service made it, so nobody holding only the database can make a checkpoint
for a log they rewrote.

A checkpoint is ``{"event", "tree_size", "root", "timestamp", "key_id",
"signature"}``. The signed message is these ASCII lines, each ended by a
line feed, nothing else: ``wordsvc-checkpoint/v1``, the event id, the tree
size in decimal, the root in 64 lowercase hex digits, the timestamp (ISO 8601
UTC, as the audit's ``at``). ``key_id`` is the first 16 hex digits of the
SHA-256 of the raw 32-byte public key; ``signature`` the 64-byte Ed25519
signature in standard base64. Without a key file (``WORDSVC_LEDGER_KEY_FILE``)
the service still answers checkpoints, with ``key_id`` and ``signature``
null: they then vouch for nothing a reader cannot recompute.

The same key signs every audit entry as it is written and seals every
token (:mod:`.entry_signatures`, :mod:`.token_seals`); :class:`Signer` also
holds the earlier public keys whose signatures still count after a rotation.

Key files are PEM: the private key PKCS #8 (written 0600 by ``wordsvc key
create``), the public key SubjectPublicKeyInfo, which every Ed25519 library
reads.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .._db.canonical import now

__all__ = ["FORMAT", "KeyFileError", "Signer", "checkpoint_problems", "create_key", "key_id", "message", "public_key_from_pem", "public_pem"]

#: The first line of every signed message: what it is and the version of its layout.
FORMAT = "wordsvc-checkpoint/v1"
_HEX64 = re.compile(r"[0-9a-f]{64}")
_KEYS = ("event", "tree_size", "root", "timestamp", "key_id", "signature")


class KeyFileError(ValueError):
    """A key file that cannot be read, or holds no Ed25519 key; the message names the file."""


def message(event: str, tree_size: int, root: str, timestamp: str) -> bytes:
    """The exact bytes a checkpoint's signature covers."""
    for name, value in (("event", event), ("root", root), ("timestamp", timestamp)):
        if not isinstance(value, str) or "\n" in value or not value.isascii():
            raise ValueError(f"a checkpoint's {name} is one line of ASCII")
    return f"{FORMAT}\n{event}\n{tree_size}\n{root}\n{timestamp}\n".encode("ascii")


def key_id(public: Ed25519PublicKey) -> str:
    """The first 16 hex digits of SHA-256 of the raw 32-byte public key: which key signed a checkpoint."""
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def public_pem(public: Ed25519PublicKey) -> str:
    return public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode("ascii")


def public_key_from_pem(text: str | bytes, where: str = "the public key") -> Ed25519PublicKey:
    """An Ed25519 public key from PEM (SubjectPublicKeyInfo), or :class:`KeyFileError`."""
    try:
        key = serialization.load_pem_public_key(text.encode("ascii") if isinstance(text, str) else text)
    except (ValueError, TypeError, UnicodeEncodeError) as err:
        raise KeyFileError(f"{where}: not a PEM public key ({err})") from None
    if not isinstance(key, Ed25519PublicKey):
        raise KeyFileError(f"{where}: not an Ed25519 public key")
    return key


def create_key(path: Path) -> Ed25519PrivateKey:
    """A new Ed25519 key written to ``path`` (PKCS #8 PEM, mode 0600), which must not exist: a key is never overwritten."""
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise KeyFileError(f"{path} exists: a key file is never overwritten (keep the old key to check old checkpoints)") from None
    except OSError as err:
        raise KeyFileError(f"{path}: {err.strerror}") from None
    try:
        os.write(fd, pem)
        os.fsync(fd)
    finally:
        os.close(fd)
    return key


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as err:
        raise KeyFileError(f"public key file {path}: {err.strerror}") from None


class Signer:
    """Makes the checkpoints of one service: signed with its key, or unsigned (``key_id`` and ``signature`` null) without one.

    ``earlier`` are the public keys whose signatures the service still takes
    as its own besides its key's (``WORDSVC_LEDGER_PUBLIC_KEYS``: the keys it
    had before a rotation, or the next key of one under way); :attr:`trusted`
    holds them all by key id.
    """

    def __init__(self, key: Ed25519PrivateKey | None = None, earlier: Iterable[Ed25519PublicKey] = ()):
        self.key = key
        self.key_id = key_id(key.public_key()) if key is not None else None
        self.trusted: dict[str, Ed25519PublicKey] = {key_id(public): public for public in earlier}
        if key is not None:
            self.trusted[self.key_id] = key.public_key()  # type: ignore[index]

    @classmethod
    def from_file(cls, path: Path | None, earlier: Iterable[Path] = ()) -> Signer:
        """The signer of the key in ``path`` (PKCS #8 PEM, unencrypted), also trusting the public keys in the files ``earlier``;
        unsigned for ``None``; :class:`KeyFileError` naming the file."""
        publics = [public_key_from_pem(_read(Path(p)), f"public key file {p}") for p in earlier]
        if path is None:
            return cls(None, publics)
        try:
            data = Path(path).read_bytes()
        except OSError as err:
            raise KeyFileError(f"key file {path}: {err.strerror}") from None
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError) as err:
            raise KeyFileError(f"key file {path}: not an unencrypted PEM private key ({err})") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise KeyFileError(f"key file {path}: not an Ed25519 key (wordsvc key create makes one)")
        return cls(key, publics)

    @property
    def signs(self) -> bool:
        return self.key is not None

    def public_pem(self) -> str | None:
        return public_pem(self.key.public_key()) if self.key is not None else None

    def checkpoint(self, event: str, tree_size: int, root: str, timestamp: str | None = None) -> dict[str, Any]:
        """The checkpoint of ``event``'s log at ``tree_size`` entries with Merkle root ``root`` (hex), timestamped now unless given."""
        timestamp = timestamp or now()
        signature = None
        if self.key is not None:
            signature = base64.b64encode(self.key.sign(message(event, tree_size, root, timestamp))).decode("ascii")
        return {"event": event, "tree_size": tree_size, "root": root, "timestamp": timestamp, "key_id": self.key_id, "signature": signature}


def checkpoint_problems(checkpoint: Any, keys: Iterable[Ed25519PublicKey] = ()) -> list[str]:
    """What is wrong with ``checkpoint`` as a document, and, given public ``keys``, with its signature; ``[]`` when nothing is.

    With no key given the signature is not checked (and an unsigned
    checkpoint is fine); with keys, the checkpoint must be signed by the one
    whose id it names.
    """
    if not isinstance(checkpoint, dict):
        return ["the checkpoint is not a JSON object"]
    missing = [key for key in _KEYS if key not in checkpoint]
    if missing:
        return [f"the checkpoint has no {', '.join(missing)}"]
    event, size, root, timestamp = (checkpoint[k] for k in ("event", "tree_size", "root", "timestamp"))
    if (
        not isinstance(event, str)
        or type(size) is not int
        or size < 1
        or not isinstance(root, str)
        or not _HEX64.fullmatch(root)
        or not isinstance(timestamp, str)
    ):
        return ["the checkpoint's event, tree_size (a whole number from 1), root (64 hex digits) or timestamp is malformed"]
    keys = {key_id(key): key for key in keys}
    if not keys:
        return []
    if checkpoint["signature"] is None:
        return [f"the checkpoint of {event} at {size} entries is unsigned (the service had no key): no signature vouches for it"]
    key = keys.get(checkpoint["key_id"])
    if key is None:
        return [f"the checkpoint is signed by key {checkpoint['key_id']!r}, not by the public key given ({', '.join(sorted(keys))})"]
    try:
        signed = message(event, size, root, timestamp)
        key.verify(base64.b64decode(checkpoint["signature"], validate=True), signed)
    except (InvalidSignature, ValueError, TypeError, binascii.Error):
        return [f"the checkpoint's signature does not verify with key {checkpoint['key_id']}: the checkpoint was altered or not made with that key"]
    return []
