"""Typed values: what a parsed answer means, beyond its number.

``typed(answer, name)`` turns an ``Answer`` of the answer grammar into a ``Value`` whose
``kind`` is one of ``KINDS``: a number (exact, or a decimal with its stated places), a
quantity (number + unit with the unit's dimension and scale), money (a currency), a
percent, an angle (degrees or radians), a congruence (value, modulus), a ratio or clock time
(``:`` is no division), a list (a multiset), a set, a tuple or interval, a matrix /
determinant / norm (``vmatrix`` / ``Vmatrix`` are not ``pmatrix``), a ± pair, a text answer,
an expression. An equation ``y = 5`` keeps its named side (``name``). ``answer.compare``
compares two of them. The units and currencies are data (``answer.units``:
``UNIT_TABLE``, ``CURRENCY_TABLE``); docs/verifiers.md has the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rlvr.verifiers.answer.parse import Answer, is_name, rebuild
from rlvr.verifiers.answer.tree import _latex
from rlvr.verifiers.answer.units import (  # noqa: F401  (the tables are read through values too)
    CURRENCIES,
    CURRENCY_TABLE,
    UNIT_TABLE,
    UNITS,
    Unit,
    read_unit,
)

KINDS: tuple[str, ...] = ("number", "quantity", "money", "percent", "angle", "congruence", "ratio", "time", "list",
                          "set", "tuple", "interval", "matrix", "determinant", "norm", "plusminus", "text",
                          "expression")
MATRIX_KINDS = {"pmatrix": "matrix", "bmatrix": "matrix", "Bmatrix": "matrix", "matrix": "matrix",
                "smallmatrix": "matrix", "array": "matrix", "vmatrix": "determinant", "Vmatrix": "norm"}


@dataclass(frozen=True)
class Value:
    """One typed value. ``answer``: the bare value (the grammar's ``Answer`` without its unit
    and name), what the number / expression comparison reads; ``unit``: its ``Unit``;
    ``name``: the named side of an equation (a syntax node: ``y`` of ``y = 5``, ``(x, y)``
    of ``(x, y) = (1, 2)``); ``parts``: a ratio's terms, a list's items, a ± pair's two
    values; ``places``: a decimal literal's stated decimal places."""

    kind: str
    answer: Answer
    unit: Unit | None = None
    name: tuple | None = None
    parts: tuple[Value, ...] = field(default=(), compare=False)
    places: int | None = None

    def show(self) -> str:
        """The value as a reader would write it, with its kind: ``y = 90 min (quantity)``."""
        return f"{self.written()} ({self.kind})"

    def written(self) -> str:
        """The value as a reader would write it: its LaTeX with the units and the name."""
        body = self.answer.text if self.kind == "text" else self.answer.latex
        node = self.answer.node
        if self.kind in ("tuple", "interval", "set") and any(item[0] == "unit" for item in node[1]):
            opener, closer = ("\\{", "\\}") if self.kind == "set" else node[2:4]
            body = opener + ", ".join(typed(rebuild(item)).written() for item in node[1]) + closer
        if self.places is not None:
            node = self.answer.node
            body = ("-" if node[0] == "neg" else "") + _digits(node)
        if self.kind in ("matrix", "determinant", "norm"):
            env = {"matrix": "pmatrix", "determinant": "vmatrix", "norm": "Vmatrix"}[self.kind]
            body = body.replace("pmatrix", env)
        if self.unit is not None:
            body = f"{body} {self.unit.text}"
        if self.name is not None:
            body = f"{_latex(self.name)} = {body}"
        return body


def _digits(node: tuple) -> str:
    while node[0] in ("neg", "pos", "group"):
        node = node[1]
    return str(node[3])


def decimal_places(node: tuple) -> int | None:
    """The decimal places a decimal literal states (``666667.0`` → 1, ``-0.50`` → 2); None
    for anything that is not a (signed) decimal literal."""
    while node[0] in ("neg", "pos", "group"):
        node = node[1]
    if node[0] == "num" and node[2] and len(node) > 3 and "." in node[3]:
        return len(node[3]) - node[3].index(".") - 1
    return None


def _has_pm(node: tuple) -> bool:
    if node[0] in ("pm", "pm1"):
        return True
    return any(isinstance(x, tuple) and x and isinstance(x[0], str) and _has_pm(x) for x in node[1:])


def pm_branch(node: tuple, sign: int) -> tuple:
    """The node with every ± read as ``sign`` (+1 or -1; ∓ the other way): ``\\pm 2 + 3`` →
    ``2 + 3`` and ``-2 + 3``, never ±(2 + 3)."""
    kind = node[0]
    if kind == "pm":
        s = sign if node[1] == "\\pm" else -sign
        return ("add", "+" if s > 0 else "-", pm_branch(node[2], sign), pm_branch(node[3], sign))
    if kind == "pm1":
        s = sign if node[1] == "\\pm" else -sign
        inner = pm_branch(node[2], sign)
        return inner if s > 0 else ("neg", inner)
    return tuple(pm_branch(x, sign) if isinstance(x, tuple) and x and isinstance(x[0], str) else x for x in node)


def _ratio_terms(node: tuple) -> list[tuple] | None:
    if node[0] == "mul" and node[1] == ":":
        left = _ratio_terms(node[2])
        return None if left is None else left + [node[3]]
    if node[0] == "mul" and ":" in _ops(node):
        return None  # a ratio inside a product: not one ratio
    return [node]


def _ops(node: tuple) -> set:
    if node[0] != "mul":
        return set()
    return {node[1]} | _ops(node[2]) | _ops(node[3])


def _clock(terms: list[tuple]) -> bool:
    """h:mm — two integer terms, the second written with two digits below 60."""
    if len(terms) != 2 or any(t[0] != "num" or t[2] for t in terms):
        return False
    minutes = terms[1]
    return len(minutes) > 3 and len(minutes[3]) == 2 and minutes[1] < 60


def named_list(node: tuple) -> tuple[tuple, tuple] | None:
    """``\\alpha = 1, \\beta = 2`` as (the name tuple, the value tuple), to be read by name
    against a reference ``(\\alpha, \\beta) = (1, 2)``; None for anything else."""
    while node[0] == "group":
        node = node[1]
    if node[0] != "list":
        return None
    items = [x[1] if x[0] == "group" else x for x in node[1]]
    if not all(x[0] == "rel" and x[2] == ("=",) and is_name(x[1][0]) for x in items):
        return None
    return ("tuple", tuple(x[1][0] for x in items), "(", ")"), ("tuple", tuple(x[1][1] for x in items), "(", ")")


def typed(answer: Answer, name: tuple | None = None) -> Value:
    """The typed value of a parsed answer (``name``: the named side it was stated with)."""
    unit = read_unit(answer.unit) if answer.unit else None
    node = answer.node
    if unit is not None:
        kind = {"unknown": "quantity"}.get(unit.kind, unit.kind)
        return Value(kind, answer, unit, name, places=decimal_places(node))
    if answer.kind == "list":
        return Value("list", answer, None, name, tuple(typed(item) for item in answer.items))
    if answer.kind in ("pm", "pm1") or (answer.value is None and answer.kind not in ("set", "tuple", "matrix")
                                         and ("\\pm" in answer.latex or "\\mp" in answer.latex) and _has_pm(node)):
        branches = tuple(typed(rebuild(pm_branch(node, s))) for s in (1, -1))
        return Value("plusminus", answer, None, name, branches)
    if answer.kind == "matrix":
        return Value(MATRIX_KINDS.get(node[2] if len(node) > 2 else "pmatrix", "matrix"), answer, None, name)
    if answer.kind == "tuple":
        interval = (node[2], node[3]) != ("(", ")")
        return Value("interval" if interval else "tuple", answer, None, name)
    if answer.kind == "set":
        return Value("set", answer, None, name)
    if answer.kind == "text":
        return Value("text", answer, None, name)
    terms = _ratio_terms(node) if answer.kind == "mul" else None
    if terms is not None and len(terms) > 1:
        kind = "time" if _clock(terms) else "ratio"
        return Value(kind, answer, None, name, tuple(typed(rebuild(t)) for t in terms))
    if answer.value is not None:
        return Value("number", answer, None, name, places=decimal_places(node))
    return Value("expression", answer, None, name)
