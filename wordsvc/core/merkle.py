"""Merkle trees as Certificate Transparency builds them (RFC 9162, section 2.1; RFC 6962's hashing): roots, proofs, their checks.

Pure and standard library only: the ledger builds a tree over each event's
audit entries with it, and anyone checks what the ledger hands out with it,
or with any other RFC 9162 implementation (docs/ledger.md, "Receipts").

- A leaf's hash is SHA-256(0x00 || data), an interior node's SHA-256(0x01 ||
  left || right): the two prefixes keep a leaf from passing for a node.
- The root of n leaves (MTH) splits them at k, the largest power of two
  smaller than n: MTH(D[0:k]) on the left, MTH(D[k:n]) on the right; the
  root of no leaves is SHA-256 of nothing.
- An inclusion proof shows that a leaf is at its index in a tree of a size;
  a consistency proof shows that a tree of size m is the first m leaves of
  a tree of size n, so whoever holds the smaller root learns whether the
  larger log still holds everything the smaller one covered.

Hashes are 32-byte ``bytes`` here; callers turn them to and from hex. The
check functions answer ``False`` for any proof that does not hold, however
malformed, and never raise for one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "EMPTY_ROOT",
    "Frontier",
    "consistency_proof",
    "inclusion_proof",
    "leaf_hash",
    "node_hash",
    "root",
    "split",
    "verify_consistency",
    "verify_inclusion",
]

#: MTH of the empty tree: SHA-256 of no bytes.
EMPTY_ROOT = hashlib.sha256(b"").digest()
_LEAF, _NODE = b"\x00", b"\x01"


def leaf_hash(data: bytes) -> bytes:
    """SHA-256(0x00 || data): the hash of a leaf holding ``data``."""
    return hashlib.sha256(_LEAF + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """SHA-256(0x01 || left || right): the hash of an interior node."""
    return hashlib.sha256(_NODE + left + right).digest()


def split(n: int) -> int:
    """The largest power of two smaller than ``n`` (``n`` >= 2): where MTH splits ``n`` leaves."""
    return 1 << ((n - 1).bit_length() - 1)


def root(leaves: Sequence[bytes]) -> bytes:
    """MTH of ``leaves`` (leaf hashes, in order)."""
    n = len(leaves)
    if n == 0:
        return EMPTY_ROOT
    if n == 1:
        return leaves[0]
    k = split(n)
    return node_hash(root(leaves[:k]), root(leaves[k:]))


def inclusion_proof(leaves: Sequence[bytes], index: int) -> list[bytes]:
    """PATH(index, D[n]): the audit path of leaf ``index`` (0-based) in the tree of ``leaves``, nearest the leaf first."""
    if not 0 <= index < len(leaves):
        raise ValueError(f"leaf {index} is not in a tree of {len(leaves)}")
    path: list[bytes] = []
    while len(leaves) > 1:
        k = split(len(leaves))
        if index < k:
            path.append(root(leaves[k:]))
            leaves = leaves[:k]
        else:
            path.append(root(leaves[:k]))
            leaves, index = leaves[k:], index - k
    return path[::-1]


def consistency_proof(leaves: Sequence[bytes], m: int) -> list[bytes]:
    """PROOF(m, D[n]): that the tree of the first ``m`` of ``leaves`` (1 <= m <= n) is a prefix of the tree of them all."""
    if not 1 <= m <= len(leaves):
        raise ValueError(f"a consistency proof runs from a size of 1 to {len(leaves)}, not from {m}")
    proof: list[bytes] = []
    whole = True  # SUBPROOF's b: whether the subtree at hand is the old tree's root, which the verifier already has
    while m != len(leaves):
        k = split(len(leaves))
        if m <= k:
            proof.append(root(leaves[k:]))
            leaves = leaves[:k]
        else:
            proof.append(root(leaves[:k]))
            leaves, m, whole = leaves[k:], m - k, False
    if not whole:
        proof.append(root(leaves))
    return proof[::-1]


def verify_inclusion(leaf: bytes, index: int, size: int, proof: Sequence[bytes], expected_root: bytes) -> bool:
    """Whether ``proof`` shows ``leaf`` at ``index`` (0-based) in the tree of ``size`` leaves whose root is ``expected_root`` (RFC 9162, 2.1.3.2)."""
    if not 0 <= index < size or not _hashes(proof):
        return False
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == expected_root


def verify_consistency(m: int, n: int, root_m: bytes, root_n: bytes, proof: Sequence[bytes]) -> bool:
    """Whether ``proof`` shows the tree of ``m`` leaves with root ``root_m`` to be the start of the tree of ``n`` with ``root_n`` (RFC 9162, 2.1.4.2)."""
    if not 1 <= m <= n or not _hashes(proof):
        return False
    if m == n:
        return not proof and root_m == root_n
    if not proof:
        return False
    path = list(proof)
    if m & (m - 1) == 0:  # m is a power of two: the old root is a node of the new tree, and the proof leaves it out
        path.insert(0, root_m)
    fn, sn = m - 1, n - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and fr == root_m and sr == root_n


def _hashes(proof: Sequence[bytes]) -> bool:
    return all(isinstance(p, bytes) and len(p) == 32 for p in proof)


@dataclass(frozen=True)
class Frontier:
    """A tree kept by its right edge: the roots of the perfect subtrees its ``size`` leaves fall into, largest first.

    A log that only grows needs no more to give its root after every append:
    appending costs O(1) hashes on average (O(log n) at most) and the root
    O(log n), where MTH over every leaf is O(n). ``last`` is the newest
    leaf's data as appended (an audit entry's hash), so a caller can tell
    whether a frontier it kept still describes the log it reads. Immutable:
    :meth:`append` gives a new one, so a kept frontier is never half-updated.
    """

    size: int = 0
    roots: tuple[bytes, ...] = ()
    last: bytes = b""

    def append(self, data: bytes) -> Frontier:
        """The frontier with one more leaf holding ``data``."""
        roots, node, carry = list(self.roots), leaf_hash(data), self.size
        while carry & 1:  # each 1 bit at the bottom of the size is a perfect subtree the new leaf completes a pair with
            node = node_hash(roots.pop(), node)
            carry >>= 1
        roots.append(node)
        return Frontier(self.size + 1, tuple(roots), data)

    def root(self) -> bytes:
        """MTH of the leaves appended: the subtrees folded from the right, as MTH's split nests them."""
        if not self.roots:
            return EMPTY_ROOT
        acc = self.roots[-1]
        for subtree in reversed(self.roots[:-1]):
            acc = node_hash(subtree, acc)
        return acc
