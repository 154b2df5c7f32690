"""Exact evaluation of the grammar's syntax trees at two probe points (``probe_compare``):
the sympy-free proof that two expressions differ, or the identity test that they are equal.

Expressions of the grammar's tree are evaluated EXACTLY at two probe points with rational
coordinates drawn in secret once per process: each variable (and \\pi, a transcendental, as
a variable of its own) gets a rational, and a value is a sum of q * sqrt(r) with q rational
and r a square-free integer (square roots of distinct square-free integers are linearly
independent over Q, so two such sums are equal exactly when their terms are). Two rational
expressions that differ as functions agree at a point only if the point is a root of their
difference; for points nobody outside the process knows, that needs luck of probability
about degree / 2^30 per point (Schwartz-Zippel), so "equal at both points" is taken as equal
and "differ at a point" is a proof of inequality. Anything else (functions, e and i, which
math-verify may read as constants, decimals, which follow the 6-digit rule, a variable
right before a bracket, f(x), implicit products after "/", large powers) is left to
math-verify.
"""

from __future__ import annotations

import secrets
from fractions import Fraction


def _secret_fraction() -> Fraction:
    """A rational in (1, 3) with 31-bit numerator and denominator, drawn from the OS's secret source."""
    den = secrets.randbits(30) | (1 << 30) | 1
    return Fraction(den + secrets.randbelow(2 * den - 1) + 1, den)


# Drawn once per process, never written anywhere: a completion cannot be built to vanish at them
# ("x + (x - c1)(x - c2)" for fixed, published c1 and c2 would be paid for x). Equal expressions
# are equal at every point, so the verdicts do not depend on the draw.
_PROBE_POINTS = tuple((_secret_fraction(), _secret_fraction()) for _ in range(2))
_FORBIDDEN_LETTERS = frozenset("eiEI")
_MAX_TERMS = 16
_MAX_BITS = 20000


class _Abort(Exception):
    pass


def _squarefree(n: int) -> tuple[int, int]:
    """(s, r) with n = s^2 * r and r square-free; trial division up to 10^6."""
    if n <= 0 or n > 10**12:
        raise _Abort
    s, r, f = 1, n, 2
    while f * f <= r:
        while r % (f * f) == 0:
            r //= f * f
            s *= f
        f += 1 if f == 2 else 2
    return s, r


def _rad(value: dict[int, Fraction]) -> dict[int, Fraction]:
    out = {r: q for r, q in value.items() if q}
    if len(out) > _MAX_TERMS or any(max(q.numerator.bit_length(), q.denominator.bit_length()) > _MAX_BITS
                                    for q in out.values()):
        raise _Abort
    return out


def _add(a: dict, b: dict, sign: int = 1) -> dict:
    out = dict(a)
    for r, q in b.items():
        out[r] = out.get(r, Fraction(0)) + sign * q
    return _rad(out)


def _mul(a: dict, b: dict) -> dict:
    out: dict[int, Fraction] = {}
    for r1, q1 in a.items():
        for r2, q2 in b.items():
            s, r = _squarefree(r1 * r2) if r1 * r2 != 1 else (1, 1)
            out[r] = out.get(r, Fraction(0)) + q1 * q2 * s
    return _rad(out)


def _inverse(a: dict) -> dict:
    if len(a) != 1:
        raise _Abort
    (r, q), = a.items()
    return {r: 1 / (q * r)}  # 1/(q sqrt r) = sqrt r / (q r)


def _sqrt(a: dict) -> dict:
    if not a:
        return {}
    if len(a) != 1 or 1 not in a or a[1] < 0:
        raise _Abort
    q = a[1]
    s, r = _squarefree(q.numerator * q.denominator)
    return {r: Fraction(s, q.denominator)}


def _const(q: Fraction) -> dict:
    return _rad({1: Fraction(q)})


def _value(node: tuple, point: dict[str, Fraction]) -> dict:
    kind = node[0]
    if kind == "num":
        if node[2]:
            raise _Abort  # decimals: the 6-digit rule, not exact identity
        return _const(node[1])
    if kind in ("var", "const", "word"):
        names = [node[1]] if kind != "word" else list(str(node[1]))
        out = _const(Fraction(1))
        for name in names:
            if name in _FORBIDDEN_LETTERS or name in ("\\infty", "\\emptyset") or name.startswith("\\mathbb"):
                raise _Abort
            if name not in point:
                point[name] = _next_coordinate(point)
            out = _mul(out, _const(point[name]))
        return out
    if kind == "group":
        return _value(node[1], point)
    if kind in ("neg", "pos"):
        v = _value(node[1], point)
        return {r: -q for r, q in v.items()} if kind == "neg" else v
    if kind == "add":
        return _add(_value(node[2], point), _value(node[3], point), 1 if node[1] == "+" else -1)
    if kind == "mul":
        op, left, right = node[1], node[2], node[3]
        if op == ":" or (op == "" and left[0] in ("var", "word") and right[0] == "group"):
            raise _Abort  # a ratio; f(x)
        if op == "" and left[0] == "mul" and left[1] in ("/", "\\div"):
            raise _Abort  # a/bc
        a, b = _value(left, point), _value(right, point)
        return _mul(a, _inverse(b)) if op in ("/", "\\div") else _mul(a, b)
    if kind == "frac":
        return _mul(_value(node[1], point), _inverse(_value(node[2], point)))
    if kind == "mixed":
        return _add(_value(node[1], point), _value(node[2], point))
    if kind == "sqrt":
        if node[2] is not None:
            raise _Abort
        return _sqrt(_value(node[1], point))
    if kind == "pow":
        exp = _value(node[2], {})
        if not exp or set(exp) - {1} or exp[1].denominator not in (1, 2) or abs(exp[1]) > 20:
            raise _Abort
        base = _value(node[1], point)
        e = exp[1]
        if e.denominator == 2:
            base = _sqrt(base)
            e = e * 2
        out = _const(Fraction(1))
        for _ in range(abs(int(e))):
            out = _mul(out, base)
        return _inverse(out) if e < 0 else out
    raise _Abort


def _next_coordinate(point: dict[str, Fraction]) -> Fraction:
    base = point.get("__base__", Fraction(1))
    k = sum(1 for name in point if name != "__base__")
    return base + Fraction(7919 * (k + 1) ** 3 + 104729, 1000003 + 97 * k)


def probe_compare(gold: tuple, pred: tuple) -> bool | None:
    """True: equal at both probe points; False: they differ at one (certain); None:
    cannot evaluate exactly (left to math-verify)."""
    try:
        for first, second in _PROBE_POINTS:
            point: dict[str, Fraction] = {"__base__": first + second}
            a = _value(gold, point)
            b = _value(pred, point)
            if a != b:
                return False
    except (_Abort, ZeroDivisionError, OverflowError, RecursionError):
        return None
    return True
