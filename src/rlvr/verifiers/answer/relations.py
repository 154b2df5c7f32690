"""What an equation or relation in an answer states: ``reduce_relations`` gives the value
an equation chain states (its last side, when no side of numbers differs from it),
``check_computation`` checks an unmarked equation (``37 + 45 = 82``), names are read in
order (``(y, x) = (2, 1)`` is refused), ``is_name`` / ``has_relation`` tell the shapes apart."""

from __future__ import annotations

import functools
import re
from fractions import Fraction

from rlvr.verifiers.answer.result import _Refused
from rlvr.verifiers.answer.tree import _shown, evaluate

# ------------------------------------------------------------------ structure helpers


def is_name(node: tuple) -> bool:
    """A name an answer may be assigned to: x, x_1, f(x), (p, q), |AB|, A:B."""
    kind = node[0]
    if kind in ("var", "word"):
        return True
    if kind == "mul" and node[1] == "" and node[2][0] in ("var", "word") and node[3][0] == "group":
        return True
    if kind == "mul" and node[1] == ":":
        return is_name(node[2]) and is_name(node[3])
    if kind == "tuple":
        return all(is_name(x) for x in node[1])
    if kind == "abs":  # |AB|, a length; not |x|, which states x = ±3 for |x| = 3
        return is_name(node[1]) and node[1][0] != "var"
    return False


def has_relation(node: tuple) -> bool:
    node = _ungroup(node)
    if node[0] == "rel":
        return True
    if node[0] == "list":
        return any(has_relation(x) for x in node[1])
    return False


def reduce_relations(node: tuple) -> tuple:
    """The value an equation states, for comparing with a reference that is not itself a
    relation: ``x = 5`` → 5, ``a = b = c`` → c (the last side, math-verify's reading, when
    no two sides are numbers that differ), ``x = 1/3 \\approx 0.33`` → 1/3,
    ``x \\approx 0.33`` → 0.33, ``x \\in [0, 1)`` → [0, 1). Any other relation
    (<, \\leq, \\neq, \\in after an expression, ...) raises a ``relation`` refusal."""
    while node[0] == "group":  # "\boxed{y=5}, \boxed{x=6}": each box is a {…} group
        node = node[1]
    if node[0] == "list":
        items = tuple(_ungroup(x) for x in node[1])
        if all(x[0] == "rel" and x[2] == ("=",) and x[1][0][0] == "var" for x in items):
            _check_name_order(tuple(x[1][0] for x in items))  # "x = 5, y = 6"
        return ("list", tuple(reduce_relations(x) for x in items))
    if node[0] != "rel":
        return node
    sides, ops = node[1], node[2]
    if sides[0][0] == "tuple" and sides[-1][0] == "tuple" and is_name(sides[0]):
        _check_name_order(sides[0][1])  # "(x, y) = (1, 2)"
    if sides[0][0] == "abs" and sides[0][1][0] == "var" and len(sides) == 2:
        raise _Refused("relation", f"{_shown(sides[0])} = …: two values of {_shown(sides[0][1])}, not one value")
    if all(op in ("=", "\\approx") for op in ops):
        k = ops.index("\\approx") if "\\approx" in ops else len(ops)
        if k == 0:
            if not is_name(sides[0]):
                if len(sides) == 2 and _approximates(sides[0], sides[1]):
                    return sides[0]  # "\\frac{2}{3} \\approx 0.6667": the exact value, its decimal checked
                raise _Refused("relation", f"{_shown(sides[0])} \\approx …: an approximation of a value, not a value")
            return sides[-1]
        _check_sides(sides[: k + 1])
        return sides[k]
    if ops == ("\\in",) and is_name(sides[0]):
        return sides[1]
    bad = next(op for op in ops if op not in ("=", "\\approx"))
    raise _Refused("relation", f"the answer is a relation ({bad}), not a value")


def _approximates(exact: tuple, approx: tuple) -> bool:
    """``exact \\approx approx``: an expression of numbers, roots and \\pi, then a decimal that
    is its value rounded to the places the decimal states (``5\\sqrt{2} \\approx 7.07``)."""
    inner = approx[1] if approx[0] == "neg" else approx
    if inner[0] != "num" or len(inner) < 4 or "." not in str(inner[3]):
        return False
    value = _float_value(exact) if _closed(exact) else _float_value(exact, functions=True)
    if value is None:
        return False
    places = len(str(inner[3]).split(".")[1])
    stated = float(inner[1]) * (-1 if approx[0] == "neg" else 1)
    return abs(value - stated) <= 0.5 * 10 ** -places * (1 + 1e-9) and abs(value) > 0


def _float_value(node: tuple, functions: bool = False) -> float | None:
    """A float for an expression of numbers, roots, powers and \\pi (None for anything else);
    ``functions``: also Euler's e and ln, log, exp, sin, cos, tan of such expressions (an
    exact value stated before its decimal: ``\\ln 2 \\approx 0.693``)."""
    import math

    kind = node[0]
    value = functools.partial(_float_value, functions=functions)
    try:
        if kind == "num":
            return float(node[1])
        if kind == "const" and node[1] == "\\pi":
            return math.pi
        if functions and kind in ("var", "text") and node[1] == "e":
            return math.e
        if functions and kind == "func" and node[1] in _FLOAT_FUNCTIONS and node[2] is None:
            arg = value(node[4])
            if arg is None:
                return None
            if node[1] == "log" and node[3] is not None:
                base = value(node[3])
                return None if base is None or base <= 0 or base == 1 or arg <= 0 else math.log(arg, base)
            return float(_FLOAT_FUNCTIONS[node[1]](arg))
        if kind in ("group",):
            return value(node[1])
        if kind == "neg":
            v = value(node[1])
            return None if v is None else -v
        if kind == "frac":
            a, b = value(node[1]), value(node[2])
            return None if a is None or b is None else a / b
        if kind == "sqrt":
            a = value(node[1])
            n = 2.0 if node[2] is None else value(node[2])
            return None if a is None or n is None or a < 0 else a ** (1 / n)
        if kind == "pow":
            a, b = value(node[1]), value(node[2])
            return None if a is None or b is None or abs(b) > 64 else float(a ** b)
        if kind in ("add", "mul"):
            a, b = value(node[2]), value(node[3])
            if a is None or b is None:
                return None
            op = node[1]
            if kind == "add":
                return a + b if op == "+" else a - b
            return a / b if op in ("/", "\\div") else a * b if op in ("", "\\cdot", "\\times", "*") else None
    except (ZeroDivisionError, OverflowError, ValueError, TypeError):
        return None
    return None


_FLOAT_FUNCTIONS = {"ln": lambda x: __import__("math").log(x), "log": lambda x: __import__("math").log10(x),
                    "exp": lambda x: __import__("math").exp(x), "sin": lambda x: __import__("math").sin(x),
                    "cos": lambda x: __import__("math").cos(x), "tan": lambda x: __import__("math").tan(x)}
_NAME_RE = re.compile(r"([A-Za-z])(?:_\{(\w+)\})?")


def _ungroup(node: tuple) -> tuple:
    while node[0] == "group":
        node = node[1]
    return node


def _check_name_order(names: tuple) -> None:
    """Values given by name (``(y, x) = (2, 1)``, ``y = 5, x = 6``) are compared in the order
    they are written, so their Latin letter names must be in alphabetical order: written in
    another order the values would be read against the wrong names. Greek letters and words
    are not checked (``(\\rho, \\theta, \\phi)`` has its own order)."""
    keys = []
    for name in names:
        m = _NAME_RE.fullmatch(str(name[1])) if name[0] == "var" else None
        if m is None:
            return
        sub = m.group(2) or ""
        keys.append((m.group(1).lower(), int(sub) if sub.isdigit() else -1, sub))
    if any(a >= b for a, b in zip(keys, keys[1:])) and len(set(keys)) == len(keys):
        shown = ", ".join(str(n[1]) for n in names)
        raise _Refused("unparsed", f"values named out of alphabetical order ({shown}): which value is which is "
                                   "read by position")


def _check_sides(sides: tuple) -> None:
    """Every side of an equation chain that is an expression of numbers must have the
    value of the last one: ``11 = 10`` or ``5 + 5 = 7 = 10`` state a falsehood, not 10."""
    last, _ = evaluate(sides[-1])
    for side in sides[:-1]:
        value, _ = evaluate(side) if last is not None else (None, False)
        if value is not None and _numbers_differ(side, value, sides[-1], last) \
                or value is None and _closed_differ(side, sides[-1]):
            raise _Refused("relation", f"an equation whose sides differ ({_with_unit(side)} is not "
                                       f"{_with_unit(sides[-1])})")


def _with_unit(node: tuple) -> str:
    return _shown(node) + (" " + " ".join(node[2]) if node[0] == "unit" else "")


def _numbers_differ(side: tuple, value: Fraction, last: tuple, last_value: Fraction) -> bool:
    """Two number sides differ; with units of one dimension on both, once converted
    (``\\$0.054 = 5.4 \\text{ cents}`` holds, ``5 \\text{ m} = 5 \\text{ km}`` does not)."""
    if side[0] == "unit" and last[0] == "unit":
        from rlvr.verifiers.answer.units import read_unit  # the unit tables (they import nothing of the grammar)

        a, b = read_unit(side[2]), read_unit(last[2])
        if a is not None and b is not None and a.kind in ("quantity", "money") and (a.kind, a.dims) == (b.kind, b.dims):
            return value * a.scale != last_value * b.scale
    percent = [n[0] == "unit" and n[2] == ("%",) for n in (side, last)]
    if percent[0] != percent[1]:  # "\\frac{1}{5} = 20\\%" and "0.2 \\times 100 = 20\\%" both hold
        hundredth = value / 100 if percent[0] else last_value / 100
        return value != last_value and (hundredth != (last_value if percent[0] else value))
    return value != last_value


def _closed(node: tuple) -> bool:
    """No letters: numbers, \\pi, roots and operators only."""
    if node[0] in ("var", "word", "text", "func", "bigop", "base", "matrix"):
        return False
    if node[0] == "const":
        return node[1] == "\\pi"
    return all(_closed(x) for x in node[1:] if isinstance(x, tuple) and x and isinstance(x[0], str))


def _closed_differ(side: tuple, last: tuple) -> bool:
    """Two sides without letters whose exact values (roots and \\pi kept exact, decimals
    left out) differ: ``\\sqrt{50} = 25`` is false."""
    if not (_closed(side) and _closed(last)):
        return False
    from rlvr.verifiers.answer.probe import probe_compare  # exact evaluation with square roots

    return probe_compare(side, last) is False


def check_computation(node: tuple) -> None:
    """An unmarked equation must be a checked computation: every side that is a number
    expression equals the last side (``37 + 45 = 82``), or it assigns a name (``x = 5``)."""
    if node[0] != "rel":
        return
    sides, ops = node[1], node[2]
    if any(op != "=" for op in ops):
        raise _Refused("relation", "an unmarked answer line with a relation other than =")
    last, _ = evaluate(sides[-1])
    for j, side in enumerate(sides[:-1]):
        if j == 0 and is_name(side) and len(sides) == 2:
            continue
        value, _ = evaluate(side)
        if value is None or last is None:
            raise _Refused("unparsed", "an unmarked equation whose sides are not numbers to check")
        if value != last:
            raise _Refused("relation", f"an unmarked equation whose sides differ ({_shown(side)} is not "
                                       f"{_shown(sides[-1])})")
