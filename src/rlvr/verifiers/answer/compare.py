"""Type-aware comparison of a typed answer with the typed reference (``answer.values``).

``compare(gold, pred, judge)`` decides what the types decide and hands the bare values to
``judge.core`` (the number / expression comparison of ``math``, the normalised strings of
``exact``) for the rest. The rule: whatever the reference specifies must be matched; what
the reference leaves out may be present in the answer.

- **Names.** An equation's named side must be the reference's (``x = 5`` is not ``y = 5``);
  named tuples are read by name (``(\\beta, \\alpha) = (1, 2)`` gives α = 2). An answer
  with no name, or a reference with none, compares the values.
- **Units.** Both sides with a unit: the same kind and dimension, converted exactly by the
  units' scales (``90 min`` = ``1.5 h``, ``90 s`` ≠ ``90 min``, ``5 m`` ≠ ``5 km``, ``5 cents``
  ≠ ``$5``, ``£10`` ≠ ``€10``); a percent is a percent; degrees convert to radians by π/180;
  ``\\pmod{N}`` needs the same N. The reference with a unit, the answer without: the answer's
  number is read in the reference's unit (``90`` for ``90 minutes``). The answer with a
  unit, the reference without: the number is compared as written (``90 \\text{ min}`` for
  90), except a percent, which matches only a reference of magnitude 2 or more (``25\\%``
  for 25; ``\\frac14\\%`` ≠ 1/4, ``0.3\\%`` ≠ 0.3, ``1\\%`` ≠ 1, ``50\\%`` ≠ 0.5: no completion is paid
  under two readings), and degrees of a multiple of π, which are no answer (``\\frac{\\pi}{3}^\\circ``
  ≠ π/3; ``60°`` is compared as 60, so it is not π/3 either: paid for both 60 and π/3 it
  would cover two references). An answer in π without a unit, for a reference in degrees, is
  in radians (π/3 = 60°).
- **Kinds.** A ratio or clock time (``:``) compares term by term, never as a division
  (``1:15`` ≠ ``2:30``, ``2:4:3`` ≠ ``1:2:3``), and is no number; a ratio of numbers up to
  one positive factor (``2:4`` = ``1:2``; ``math`` only), a clock time (h:mm) exactly; a tuple
  with units compares item by item (``(5 m, 3 m)`` ≠ ``(5 km, 3 km)``); matrices compare only with
  the same kind (``vmatrix`` is a determinant, ``Vmatrix`` a norm, not ``pmatrix``); a list
  is a multiset (``1, 2, 3, 5`` ≠ ``1, 1, 2, 3, 5``; order free); a ± is its two values
  (``\\pm 2 + 3`` is {5, 1}, never ±(2 + 3)).
- **Precision.** A decimal answer for an exact reference compares at the answer's stated
  places, never looser: |answer − reference| ≤ ½·10^-places (``666667.0`` ≠ 2000000/3),
  on top of the 6-significant-digit rule (``0.33`` ≠ 1/3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Generic, TypeVar

from rlvr.verifiers.answer.parse import Answer, rebuild
from rlvr.verifiers.answer.tree import _latex
from rlvr.verifiers.answer.values import Value, typed

T = TypeVar("T")
MAX_MATCHED_ITEMS = 8  # longer lists: the length check, then the core comparison of the whole


@dataclass(frozen=True)
class Judge(Generic[T]):
    """What a verifier does with the bare values and with a decision of the types:
    ``core(gold, pred)``: its own comparison; ``same(detail)`` / ``differ(detail)``: a
    verdict decided here; ``ok(result)``: whether a result is a match."""

    core: Callable[[Answer, Answer], T]
    same: Callable[[str], T]
    differ: Callable[[str], T]
    ok: Callable[[T], bool]
    equivalence: bool = True  # math: lists as multisets, ratios up to a factor; exact: as written


# ------------------------------------------------------------------ numbers


def finite_decimal(x: Fraction) -> bool:
    d = x.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


SIGNIFICANT_DIGITS = 5  # a decimal for a value with no finite decimal expansion: 2.6667 for 8/3, not 3.14 for pi


def agree_significant(approx: Fraction, exact: Fraction) -> bool:
    """``approx`` agrees with ``exact`` to ``SIGNIFICANT_DIGITS`` significant digits:
    |a - e| <= 0.5e-4 |e| rounded to e's order of magnitude. Relative, so 1e-7 and 3e-7
    differ. Five digits, not fewer: at three, 3.14 would be paid for both pi and 22/7."""
    if exact == 0:
        return approx == 0
    mag = abs(exact)
    exponent = len(str(mag.numerator)) - len(str(mag.denominator))
    if Fraction(10) ** exponent > mag:
        exponent -= 1
    return abs(approx - exact) <= Fraction(1, 2) * Fraction(10) ** (exponent + 1 - SIGNIFICANT_DIGITS)


def within_places(approx: Fraction, exact: Fraction, places: int | None) -> bool:
    """A decimal stating ``places`` decimal places is ``exact`` rounded there: |a - e| <=
    ½·10^-places (``666667.0`` is not 2000000/3 = 666666.67; ``0.333333`` is 1/3)."""
    if places is None:
        return True
    return abs(approx - exact) * 2 * 10 ** places <= 1


def _number(value: Fraction, decimal: bool) -> tuple:
    return ("num", value, decimal and finite_decimal(value))


def _contains(node: tuple, leaf: tuple) -> bool:
    if node == leaf:
        return True
    return any(isinstance(x, tuple) and x and isinstance(x[0], str) and _contains(x, leaf) for x in node[1:])


_PI = ("const", "\\pi")


# ------------------------------------------------------------------ comparison


def compare(gold: Value, pred: Value, judge: Judge[T]) -> T:
    """The typed comparison (module docstring); ``judge.core`` decides the bare values."""
    if gold.name is not None and pred.name is not None:
        named = _by_name(gold, pred, judge)
        if not isinstance(named, Value):
            return named
        pred = named
    colon = ("ratio", "time")
    if (gold.kind in colon) != (pred.kind in colon):
        return judge.differ(f"{pred.show()} != {gold.show()}: a ratio or clock time is compared term by term, "
                            "not as a division")
    if gold.kind == "ratio" and pred.kind == "ratio" and judge.equivalence:
        proportional = _proportional(gold, pred)
        if proportional is not None:
            verb = "==" if proportional else "!="
            result = judge.same if proportional else judge.differ
            return result(f"{pred.show()} {verb} {gold.show()} (ratios of numbers, term by term up to one factor)")
    if gold.kind in colon:
        return _parts(gold, pred, judge, ordered=True, what="terms")
    if gold.kind in ("tuple", "interval") and pred.kind in ("tuple", "interval") and (_unit_items(gold)
                                                                                      or _unit_items(pred)):
        if gold.answer.node[2:4] != pred.answer.node[2:4]:
            return judge.differ(f"{pred.show()} != {gold.show()}: other brackets")
        return _parts(_itemised(gold), _itemised(pred), judge, ordered=True, what="items")
    matrices = ("matrix", "determinant", "norm")
    if gold.kind in matrices and pred.kind in matrices:
        return _matrices(gold, pred, judge)
    if gold.kind == "set" and pred.kind == "set" and (_unit_items(gold) or _unit_items(pred)):
        return _parts(_itemised(gold), _itemised(pred), judge, ordered=False, what="items")
    pair = ("list", "plusminus")
    if gold.kind == "list" and pred.kind not in ("list", "plusminus", "set", "tuple", "text") \
            and pred.answer.kind != "rel" and not any(p.answer.kind == "rel" for p in gold.parts):
        # "2, 2" (a double root) is not 2; one value is never the reference's list
        return judge.differ(f"{pred.show()} != {gold.show()}: one value, the reference lists {len(gold.parts)}")
    if gold.kind in pair and pred.kind in pair:
        return _parts(gold, pred, judge, ordered=not judge.equivalence, what="values")
    if gold.unit is not None or pred.unit is not None:
        return _units(gold, pred, judge)
    if gold.kind == "number" and pred.places is not None and not gold.answer.decimal and pred.answer.value is not None:
        assert gold.answer.value is not None
        if not within_places(pred.answer.value, gold.answer.value, pred.places):
            return judge.differ(f"{pred.show()} != {gold.show()}: {pred.answer.latex} states {pred.places} decimal "
                                f"place(s), and the reference is {float(gold.answer.value):.{pred.places + 2}f}…")
    inner = _inner_units_differ(gold.answer.node, pred.answer.node)
    if inner:
        return judge.differ(f"{pred.show()} != {gold.show()}: {inner}")
    return judge.core(gold.answer, pred.answer)


def _unit_nodes(node: tuple, out: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    if node and node[0] == "unit":
        out.append(node[2])
    for x in node[1:] if node and isinstance(node[0], str) else node:
        if isinstance(x, tuple) and x and isinstance(x[0], (str, tuple)):
            _unit_nodes(x, out)
    return out


def _inner_units_differ(gold: tuple, pred: tuple) -> str:
    """The units inside a relation or an expression (``x \\equiv 2 \\pmod{9}``, ``d = 5 \\text{ km}``
    inside an inequality), which the comparison of the bare values does not see: the answer's must
    be the reference's, one by one ("" when they are, or when neither has any)."""
    from rlvr.verifiers.answer.units import read_unit

    g, p = _unit_nodes(gold, []), _unit_nodes(pred, [])
    if not g and not p:
        return ""
    if len(g) != len(p):
        return "the units inside differ"
    for a, b in zip(g, p):
        ua, ub = read_unit(a), read_unit(b)
        if ua is None or ub is None:
            if " ".join(a).lower() != " ".join(b).lower():
                return f"{' '.join(b)} is not {' '.join(a)}"
        elif (ua.kind, ua.dims, ua.scale, ua.angle, ua.modulus) != (ub.kind, ub.dims, ub.scale, ub.angle, ub.modulus):
            return f"{ub.text} is not {ua.text}"
    return ""


def _proportional(gold: Value, pred: Value) -> bool | None:
    """Two ratios of numbers: the same number of terms, zero where the other is zero, and
    one positive factor between them (``2:4`` = ``1:2``; ``0:0`` is no ratio of anything);
    None when a term is not a number."""
    g = [p.answer.value for p in gold.parts]
    q = [p.answer.value for p in pred.parts]
    if any(v is None for v in g + q) or any(p.answer.decimal for p in gold.parts + pred.parts):
        return None
    if len(g) != len(q) or any((a == 0) != (b == 0) for a, b in zip(g, q)) or all(a == 0 for a in g):
        return False
    k = next(b / a for a, b in zip(g, q) if a != 0)  # type: ignore[operator]
    return k > 0 and all(b == k * a for a, b in zip(g, q))  # type: ignore[operator]


def _matrices(gold: Value, pred: Value, judge: Judge[T]) -> T:
    """The same kind and shape, then entry by entry (each entry a typed value: decimals keep
    their rules, which math-verify's 6-place rounding of a matrix would not: 1e-7 ≠ 3e-7)."""
    g, p = gold.answer.node[1], pred.answer.node[1]
    if gold.kind != pred.kind or len(g) != len(p) or len(g[0]) != len(p[0]):
        return judge.differ(f"{pred.show()} != {gold.show()}")
    cells = [(a, b) for row_g, row_p in zip(g, p) for a, b in zip(row_g, row_p)]
    entries = (replace(gold, parts=tuple(typed(rebuild(a)) for a, _ in cells)),
               replace(pred, parts=tuple(typed(rebuild(b)) for _, b in cells)))
    if len(cells) > 4 * MAX_MATCHED_ITEMS:
        return _many_parts(*entries, entries[0].parts, entries[1].parts, judge, True, "entries")
    return _parts(*entries, judge, ordered=True, what="entries")


def _plain_number(value: Value) -> bool:
    return value.unit is None and value.answer.value is not None and not value.answer.decimal


def _many_parts(gold: Value, pred: Value, gp: tuple, pp: tuple, judge: Judge[T], ordered: bool, what: str) -> T:
    """More parts than are matched one by one: exact numbers compare as values (in order, or
    as multisets); parts with units or decimals are refused rather than handed whole to a
    comparison that would drop their units, multiplicities or stated precision."""
    if all(_plain_number(v) for v in gp + pp):
        g = [v.answer.value for v in gp]
        p = [v.answer.value for v in pp]
        equal = g == p if ordered else Counter(g) == Counter(p)
        verb = "==" if equal else "!="
        return (judge.same if equal else judge.differ)(f"{pred.show()} {verb} {gold.show()} ({what} as exact numbers)")
    if any(v.unit is not None or v.answer.decimal for v in gp + pp):
        return judge.differ(f"{pred.show()} != {gold.show()}: {len(gp)} {what} with units or decimals are more than "
                            f"{MAX_MATCHED_ITEMS} to compare one by one")
    return judge.core(gold.answer, pred.answer)


def _unit_items(value: Value) -> bool:
    """Items compared one by one as typed values: a unit, or a decimal, whose stated places
    math-verify's rounding of the whole set or tuple would not keep ({0.1000001, 0.2} is not
    {0.1, 0.2})."""
    return any(item[0] == "unit" or _decimal_literal(item) for item in value.answer.node[1])


def _decimal_literal(node: tuple) -> bool:
    while node[0] in ("neg", "group"):
        node = node[1]
    return node[0] == "num" and len(node) > 3 and "." in str(node[3])


def _itemised(value: Value) -> Value:
    return replace(value, parts=tuple(typed(rebuild(item)) for item in value.answer.node[1]))


def _name_key(node: tuple) -> str:
    return _latex(node).replace(" ", "")


def _by_name(gold: Value, pred: Value, judge: Judge[T]) -> T | Value:
    """The answer's values in the reference's name order, or the mismatch of the names."""
    g, p = gold.name, pred.name
    assert g is not None and p is not None
    if _name_key(g) == _name_key(p):
        return pred
    if g[0] == "tuple" and p[0] == "tuple" and pred.answer.kind == "tuple" \
            and len(g[1]) == len(p[1]) == len(pred.answer.node[1]):
        gk, pk = [_name_key(n) for n in g[1]], [_name_key(n) for n in p[1]]
        if sorted(gk) == sorted(pk) and len(set(gk)) == len(gk):
            items = dict(zip(pk, pred.answer.node[1]))
            node = pred.answer.node
            reordered = rebuild(("tuple", tuple(items[k] for k in gk), node[2], node[3]))
            return Value(pred.kind, reordered, pred.unit, g)
    return judge.differ(f"{pred.show()} != {gold.show()}: the reference names {_latex(g)}, the answer "
                        f"{_latex(p)}")


def _parts(gold: Value, pred: Value, judge: Judge[T], ordered: bool, what: str) -> T:
    """Term by term (ordered), or as multisets: the same number of parts, each matched once
    (``1, 2, 3, 5`` is not ``1, 1, 2, 3, 5``; and an answer that repeats a number is not the
    reference's set either: paid for both ``1, 2`` and ``1, 1, 2``, one completion would
    cover two reference values). A tuple repeated in a set of tuples is one solution
    (``_solution_set``)."""
    gp = gold.parts or (gold,)
    pp = pred.parts or (pred,)
    if any(v.kind == "text" or v.answer.kind == "rel" for v in gp + pp):
        return judge.core(gold.answer, pred.answer)
    if not ordered and _solution_set(gp) and _solution_set(pp, distinct=False):
        pp = tuple({v.answer.canonical: v for v in pp}.values())  # a solution written twice is one solution
    if len(gp) != len(pp):
        return judge.differ(f"{pred.show()} != {gold.show()}: {len(pp)} {what}, the reference has {len(gp)}")
    if len(gp) > MAX_MATCHED_ITEMS:
        return _many_parts(gold, pred, gp, pp, judge, ordered, what)
    if ordered:
        for k, (a, b) in enumerate(zip(gp, pp)):
            if not judge.ok(compare(a, b, judge)):
                return judge.differ(f"{pred.show()} != {gold.show()}: {what} {k + 1} differ")
        return judge.same(f"{pred.show()} == {gold.show()} ({what} one by one)")
    left = list(pp)
    for a in gp:
        for j, b in enumerate(left):
            if judge.ok(compare(a, b, judge)):
                del left[j]
                break
        else:
            return judge.differ(f"{pred.show()} != {gold.show()}: nothing in the answer matches {a.show()}")
    return judge.same(f"{pred.show()} == {gold.show()} (the same {what}, each once)")


def _solution_set(parts: tuple, distinct: bool = True) -> bool:
    """Parts that are all tuples (``(3, 17, 3, 7), (17, 3, 3, 7)``), distinct when ``distinct``:
    a set of solutions or points, where a tuple written twice restates it. Multiplicity is
    read for numbers only (``1, 1, 2`` lists a double root), so no reference lists one tuple
    twice and the answer's repeat covers no second reference value."""
    if len(parts) < 2 or any(v.answer.kind != "tuple" for v in parts):
        return False
    return not distinct or len({v.answer.canonical for v in parts}) == len(parts)


def _bare(value: Value) -> Value:
    """The value without its unit (and name)."""
    return typed(replace(value.answer, unit=()))


def _units(gold: Value, pred: Value, judge: Judge[T]) -> T:
    gu, pu = gold.unit, pred.unit
    if gu is None:
        assert pu is not None
        if pu.kind == "percent":
            return _percent_for_plain(gold, pred, judge)
        if pu.kind == "angle" and pu.angle == "degree" and _contains(pred.answer.node, _PI):
            return judge.differ(f"{pred.show()} != {gold.show()}: degrees of a multiple of π")
        return compare(_bare(gold), _bare(pred), judge)
    if pu is None:  # the reference with a unit, the answer without
        if gu.kind == "angle" and gu.angle == "degree" and _contains(pred.answer.node, _PI):
            return _to_radians(gold, pred, judge, gold_degrees=True)  # π/3 for 60°: radians
        return compare(_bare(gold), _bare(pred), judge)
    assert pu is not None
    why = f"{pred.show()} != {gold.show()}"
    if gu.kind != pu.kind or gu.dims != pu.dims or gu.modulus != pu.modulus:
        return judge.differ(f"{why}: {pu.text} is not {gu.text}")
    if gu.kind == "unknown" and gu.text.lower() != pu.text.lower():
        return judge.differ(f"{why}: {pu.text} is not {gu.text}")
    if gu.kind == "angle" and gu.angle != pu.angle:
        return _to_radians(gold, pred, judge, gold_degrees=gu.angle == "degree")
    if gu.scale == pu.scale:
        return compare(_bare(gold), _bare(pred), judge)
    return _scaled(gold, gu.scale, pred, pu.scale, judge)


PERCENT_PLAIN_MIN = 2  # a plain reference from here up may be a percentage written without its sign


def _percent_for_plain(gold: Value, pred: Value, judge: Judge[T]) -> T:
    """A percent answer for a reference written without one. A reference of magnitude 2 or
    more is a percentage written without its sign (``25\\%`` for 25, as "what percent …?"
    references are); a reference below 2 is a plain number (a probability, a fraction, a
    ratio such as 1.5: the readings that dominate there), and a percent is no answer to it
    under either reading (``\\frac14\\%`` is not 1/4, ``1\\%`` is not 1; ``50\\%`` is not read as
    0.5 either, so no completion is paid under two readings)."""
    value = gold.answer.value
    if value is not None and abs(value) >= PERCENT_PLAIN_MIN:
        return compare(_bare(gold), _bare(pred), judge)
    return judge.differ(f"{pred.show()} != {gold.show()}: a percent for a plain reference below 2 (a "
                        "number, not a percentage)")


def _scale_node(value: Value, factor: Fraction) -> tuple:
    answer = value.answer
    if factor == 1:
        return answer.node
    if answer.value is not None:
        return _number(answer.value * factor, answer.decimal)
    return ("mul", "\\cdot", _number(factor, False), answer.node)


def _scaled(gold: Value, gold_factor: Fraction, pred: Value, pred_factor: Fraction, judge: Judge[T]) -> T:
    """Both values in the base unit (exact factors), then compared bare; a decimal answer for
    an exact reference first at the places it states, in its own unit (``666.6670 km`` states
    4 places of a kilometre, which 2000000/3 m is not)."""
    gv, pv = gold.answer.value, pred.answer.value
    if pred.places is not None and gv is not None and pv is not None and not gold.answer.decimal:
        in_pred_unit = gv * gold_factor / pred_factor
        if not within_places(pv, in_pred_unit, pred.places):
            return judge.differ(f"{pred.show()} != {gold.show()}: {pred.answer.latex} states {pred.places} decimal "
                                f"place(s) of {pred.unit.text if pred.unit else 'the unit'}, and the reference is "
                                f"{float(in_pred_unit):.{pred.places + 2}f}…")
    g = rebuild(_scale_node(gold, gold_factor))
    p = rebuild(_scale_node(pred, pred_factor))
    result = compare(typed(g), typed(p), judge)
    if judge.ok(result):
        return result
    return judge.differ(f"{pred.show()} != {gold.show()} (in base units: {p.latex} != {g.latex})")


def _to_radians(gold: Value, pred: Value, judge: Judge[T], gold_degrees: bool) -> T:
    """Degrees against radians: the degree side times π/180."""
    def radians(value: Value) -> Answer:
        degrees = ("mul", "", ("group", value.answer.node, "(", ")"), _PI)
        return rebuild(("frac", degrees, _number(Fraction(180), False)))

    g = radians(gold) if gold_degrees else gold.answer
    p = pred.answer if gold_degrees else radians(pred)
    result = judge.core(g, p)
    if judge.ok(result):
        return result
    return judge.differ(f"{pred.show()} != {gold.show()} (in radians: {p.latex} != {g.latex})")
