"""Resolvable designs: the affine plane AG(2, q), whose q + 1 parallel classes seat q*q players at q tables of q so that every pair meets exactly once.

The points are the pairs (x, y) of elements of the finite field GF(q), q a prime power; player i is the
point (i // q, i % q). Class m, for m from 0 to q - 1, holds the lines y = m*x + c (table c); class q holds
the lines x = c (table c). Elements of GF(p^k) are the integers 0 .. q-1 read as polynomials over GF(p) in
base p (digit j is the coefficient of t^j), multiplied modulo the first monic irreducible polynomial of
degree k in that same order.
"""

from __future__ import annotations

from functools import cache

__all__ = ["affine_classes", "prime_power"]


def prime_power(q: int) -> tuple[int, int] | None:
    """(p, k) with q = p**k and p prime, or None."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    k, rest = 0, q
    while rest % p == 0:
        rest //= p
        k += 1
    return (p, k) if rest == 1 else None


def _digits(x: int, p: int, k: int) -> list[int]:
    return [(x // p**j) % p for j in range(k)]


def _number(digits: list[int], p: int) -> int:
    return sum(d * p**j for j, d in enumerate(digits))


def _reduce(product: list[int], modulus: list[int], p: int) -> list[int]:
    """``product`` (low degree first) modulo the monic ``modulus`` of degree k, over GF(p)."""
    k = len(modulus) - 1
    out = list(product)
    for top in range(len(out) - 1, k - 1, -1):
        c = out[top] % p
        if c:
            for j in range(k + 1):
                out[top - k + j] = (out[top - k + j] - c * modulus[j]) % p
    return [d % p for d in out[:k]] + [0] * max(0, k - len(out))


def _irreducible(p: int, k: int) -> list[int]:
    """The first monic polynomial of degree k over GF(p) (low coefficients counted in base p) that no monic polynomial of degree 1 .. k/2 divides."""
    for low in range(p**k):
        candidate = [*_digits(low, p, k), 1]
        divisible = False
        for degree in range(1, k // 2 + 1):
            for d_low in range(p**degree):
                divisor = [*_digits(d_low, p, degree), 1]
                if not any(_reduce(candidate, divisor, p)):
                    divisible = True
                    break
            if divisible:
                break
        if not divisible:
            return candidate
    raise AssertionError(f"GF({p}^{k}) has an irreducible polynomial")


@cache
def _field(q: int) -> tuple[tuple[int, ...], ...]:
    """GF(q)'s multiplication table on the elements 0 .. q-1."""
    pk = prime_power(q)
    if pk is None:
        raise ValueError(f"{q} is not a prime power")
    p, k = pk
    modulus = _irreducible(p, k)
    table = []
    for a in range(q):
        da = _digits(a, p, k)
        row = []
        for b in range(q):
            db = _digits(b, p, k)
            product = [0] * (2 * k - 1)
            for i, x in enumerate(da):
                for j, y in enumerate(db):
                    product[i + j] += x * y
            row.append(_number(_reduce(product, modulus, p), p))
        table.append(tuple(row))
    return tuple(table)


def _add(a: int, b: int, q: int) -> int:
    p, k = prime_power(q) or (q, 1)
    return _number([(x + y) % p for x, y in zip(_digits(a, p, k), _digits(b, p, k), strict=True)], p)


def affine_classes(q: int) -> list[list[list[int]]]:
    """The q + 1 parallel classes of AG(2, q) as tables of player indices (0 .. q*q - 1), each table and each class in order."""
    times = _field(q)
    classes = []
    for m in range(q):
        tables: list[list[int]] = [[] for _ in range(q)]
        for x in range(q):
            for y in range(q):
                # the line through (x, y) with slope m: c = y - m*x, i.e. y = m*x + c; in characteristic p, -v = (p-1)*v
                c = _add(y, _negate(times[m][x], q), q)
                tables[c].append(x * q + y)
        classes.append([sorted(t) for t in tables])
    classes.append([[c * q + y for y in range(q)] for c in range(q)])
    return classes


def _negate(v: int, q: int) -> int:
    p, k = prime_power(q) or (q, 1)
    return _number([(-d) % p for d in _digits(v, p, k)], p)
