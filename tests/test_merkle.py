"""RFC 9162 Merkle trees (wordsvc/core/merkle.py): roots, inclusion and consistency proofs, built and checked both ways.

Three sources of truth: Certificate Transparency's reference leaves and tree
heads (RFC 6962's test data, which every CT log implementation checks); a
second implementation written here straight from the RFC's recursive
definitions, against which every size up to 40 is compared; and the proofs'
own checks, which must accept what was built and refuse a removed, changed
or reordered leaf, a wrong index, a wrong root and a proof cut short.
"""

from __future__ import annotations

import hashlib

import pytest

from wordsvc.core.merkle import (
    EMPTY_ROOT,
    Frontier,
    consistency_proof,
    inclusion_proof,
    leaf_hash,
    node_hash,
    root,
    split,
    verify_consistency,
    verify_inclusion,
)

# RFC 6962's reference leaves (the data, before leaf hashing) and the root of each prefix of them, sizes 0 to 8.
CT_DATA = [bytes.fromhex(h) for h in ("", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f")]
CT_ROOTS = [
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
CT_INCLUSION = {  # (leaf index, tree size) -> audit path
    (0, 8): ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7", "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
             "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"],
    (5, 8): ["bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b", "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
             "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"],
}  # fmt: skip
CT_CONSISTENCY = {  # (old size, new size) -> proof
    (1, 8): ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7", "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
             "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"],
    (6, 8): ["0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a", "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
             "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"],
    (2, 5): ["5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e", "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"],
}  # fmt: skip
CT_LEAVES = [leaf_hash(d) for d in CT_DATA]


# --- a second implementation, the RFC's recursion word for word -------------------------------------------


def _h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _mth(d: list[bytes]) -> bytes:
    if not d:
        return _h(b"")
    if len(d) == 1:
        return _h(b"\x00" + d[0])
    k = 1
    while k * 2 < len(d):
        k *= 2
    return _h(b"\x01" + _mth(d[:k]) + _mth(d[k:]))


def _path(m: int, d: list[bytes]) -> list[bytes]:
    if len(d) == 1:
        return []
    k = 1
    while k * 2 < len(d):
        k *= 2
    return [*_path(m, d[:k]), _mth(d[k:])] if m < k else [*_path(m - k, d[k:]), _mth(d[:k])]


def _subproof(m: int, d: list[bytes], b: bool) -> list[bytes]:
    if m == len(d):
        return [] if b else [_mth(d)]
    k = 1
    while k * 2 < len(d):
        k *= 2
    return [*_subproof(m, d[:k], b), _mth(d[k:])] if m <= k else [*_subproof(m - k, d[k:], False), _mth(d[:k])]


DATA = [f"entry {i}".encode() for i in range(40)]
LEAVES = [leaf_hash(d) for d in DATA]


# --- the reference vectors ---------------------------------------------------------------------------------


def test_the_roots_are_certificate_transparency_s_for_every_size():
    assert [root(CT_LEAVES[:n]).hex() for n in range(9)] == CT_ROOTS
    assert EMPTY_ROOT.hex() == CT_ROOTS[0]


@pytest.mark.parametrize(("index", "size"), sorted(CT_INCLUSION))
def test_inclusion_proofs_are_certificate_transparency_s_and_verify(index, size):
    proof = inclusion_proof(CT_LEAVES[:size], index)
    assert [p.hex() for p in proof] == CT_INCLUSION[(index, size)]
    assert verify_inclusion(CT_LEAVES[index], index, size, proof, bytes.fromhex(CT_ROOTS[size]))


@pytest.mark.parametrize(("m", "n"), sorted(CT_CONSISTENCY))
def test_consistency_proofs_are_certificate_transparency_s_and_verify(m, n):
    proof = consistency_proof(CT_LEAVES[:n], m)
    assert [p.hex() for p in proof] == CT_CONSISTENCY[(m, n)]
    assert verify_consistency(m, n, bytes.fromhex(CT_ROOTS[m]), bytes.fromhex(CT_ROOTS[n]), proof)


def test_the_split_is_the_largest_power_of_two_below_n_not_the_midpoint():
    assert {n: split(n) for n in (2, 3, 4, 5, 6, 7, 8, 9, 1000, 2**40 + 1)} == {2: 1, 3: 2, 4: 2, 5: 4, 6: 4, 7: 4, 8: 4, 9: 8, 1000: 512, 2**40 + 1: 2**40}


def test_a_leaf_cannot_pass_for_a_node():
    left, right = LEAVES[0], LEAVES[1]
    assert node_hash(left, right) != leaf_hash(left + right)


# --- against the RFC's recursion, every size -------------------------------------------------------------


@pytest.mark.parametrize("n", range(1, 41))
def test_roots_and_proofs_agree_with_the_rfc_s_recursion(n):
    data = DATA[:n]
    assert root(LEAVES[:n]) == _mth(data)
    for i in range(n):
        assert inclusion_proof(LEAVES[:n], i) == _path(i, data)
    for m in range(1, n + 1):
        assert consistency_proof(LEAVES[:n], m) == _subproof(m, data, True)


def test_a_frontier_gives_every_root_as_leaves_are_appended():
    frontier = Frontier()
    assert frontier.root() == EMPTY_ROOT
    for n, data in enumerate(DATA, start=1):
        frontier = frontier.append(data)
        assert (frontier.size, frontier.last, frontier.root()) == (n, data, root(LEAVES[:n]))
        assert len(frontier.roots) == bin(n).count("1")  # one perfect subtree per 1 bit of the size


# --- every proof built verifies; nothing else does --------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31])
def test_every_inclusion_proof_verifies_and_a_changed_leaf_index_or_root_does_not(n):
    leaves, top = LEAVES[:n], root(LEAVES[:n])
    for i in range(n):
        proof = inclusion_proof(leaves, i)
        assert verify_inclusion(leaves[i], i, n, proof, top)
        assert not verify_inclusion(leaf_hash(b"changed"), i, n, proof, top)  # a changed entry
        assert not verify_inclusion(leaves[i], i, n, proof, root(leaves[:i] + leaves[i + 1 :] + [leaf_hash(b"x")]))  # a root without it
        if n > 1:
            assert not verify_inclusion(leaves[i], (i + 1) % n, n, proof, top)  # at another place
            assert not verify_inclusion(leaves[i], i, n, proof[:-1], top)  # a step left out
        assert not verify_inclusion(leaves[i], i, n, [*proof, leaves[0]], top)  # a step too many
        assert not verify_inclusion(leaves[i], n, n, proof, top)  # an index past the end


@pytest.mark.parametrize("n", [2, 3, 5, 8, 9, 13, 32, 33])
def test_every_consistency_proof_verifies_and_a_rewritten_or_truncated_log_does_not(n):
    leaves = LEAVES[:n]
    for m in range(1, n + 1):
        proof = consistency_proof(leaves, m)
        old, new = root(leaves[:m]), root(leaves)
        assert verify_consistency(m, n, old, new, proof)
        for i in range(m):  # an entry the old tree covered changed in the new one: refused, whichever it is
            rewritten = [*leaves[:i], leaf_hash(b"rewritten"), *leaves[i + 1:]]
            assert not verify_consistency(m, n, old, root(rewritten), consistency_proof(rewritten, m))
        if m > 1:  # two covered entries swapped
            swapped = [leaves[1], leaves[0], *leaves[2:]]
            assert not verify_consistency(m, n, old, root(swapped), consistency_proof(swapped, m))
        if m < n:
            assert not verify_consistency(m, n, old, new, proof[:-1])
            assert not verify_consistency(m, n, old, new, [])
            assert not verify_consistency(n, m, new, old, proof)  # the wrong way round
        if m > 1:  # the log cut back below the old tree (its tail deleted) cannot extend it, whatever proof is offered
            shorter = leaves[: m - 1]
            assert not verify_consistency(m, m - 1, old, root(shorter), [])
            assert not verify_consistency(m, m - 1, old, root(shorter), consistency_proof(leaves[:m], m - 1))


def test_a_log_whose_tail_was_deleted_and_regrown_is_not_consistent_with_an_older_head():
    """The probe's case: the newest entries removed, then new ones written in their place: as long as before, not the same log."""
    n = 12
    head = root(LEAVES[:n])
    regrown = LEAVES[:9] + [leaf_hash(f"forged {i}".encode()) for i in range(5)]
    assert not verify_consistency(n, len(regrown), head, root(regrown), consistency_proof(regrown, n))
    assert verify_consistency(9, len(regrown), root(LEAVES[:9]), root(regrown), consistency_proof(regrown, 9))  # what was left is consistent


def test_malformed_proofs_are_refused_not_raised():
    top = root(LEAVES[:4])
    assert not verify_inclusion(LEAVES[0], 0, 4, [b"short"], top)
    assert not verify_inclusion(LEAVES[0], -1, 4, [], top)
    assert not verify_consistency(0, 4, EMPTY_ROOT, top, [])
    assert not verify_consistency(2, 4, root(LEAVES[:2]), top, ["not bytes"])  # type: ignore[list-item]
    assert verify_consistency(4, 4, top, top, [])
    assert not verify_consistency(4, 4, top, top, [top])
    with pytest.raises(ValueError):
        inclusion_proof(LEAVES[:4], 4)
    with pytest.raises(ValueError):
        consistency_proof(LEAVES[:4], 0)
