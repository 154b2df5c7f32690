"""The syntax tree written back and evaluated: ``_latex`` writes a tree as LaTeX for
math-verify (wrappers, units and separators gone, mixed numbers and repeating decimals as
fractions), ``evaluate`` gives its exact rational value when it has one (integers,
fractions, decimals, powers, roots of perfect powers, factorials, binomials), bounded in
size so that no answer can make it slow."""

from __future__ import annotations

import re
from fractions import Fraction

from rlvr.verifiers.answer.lexer import _word_reason

# ------------------------------------------------------------------ operator precedence (parser and writer)

_ATOM = 9
_PREC = {"list": 0, "rel": 1, "setop": 2, "add": 3, "pm": 3, "mul": 4, "neg": 5, "pos": 5, "pm1": 5,
         "pow": 6, "fact": 7}


def _infinite(node: tuple) -> bool:
    while node[0] in ("neg", "pos"):
        node = node[1]
    return node == ("const", "\\infty")


def _text_reason(content: str) -> str:
    for word in re.findall(r"[A-Za-z']+", content):
        reason = _word_reason(word)
        if reason != "unparsed":
            return reason
    return "unparsed"


def _last(node: tuple) -> tuple:
    while node[0] == "mul":
        node = node[3]
    return node


def _ends_with_letter(node: tuple) -> bool:
    return _last(node)[0] in ("var", "word")


def _shown(node: tuple) -> str:
    return _latex(node)[:40]


# ------------------------------------------------------------------ LaTeX for math-verify


def _wrap(node: tuple, parent: int) -> str:
    text = _latex(node)
    return f"({text})" if _PREC.get(node[0], _ATOM) < parent else text


def _num_latex(value: Fraction, decimal: bool) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    if decimal:
        # a decimal literal: its exact digits (the denominator is a power of ten's divisor)
        scale = 1
        while (value * scale).denominator != 1:
            scale *= 10
        digits = str(abs(value.numerator * (scale // value.denominator)))
        places = len(str(scale)) - 1
        digits = digits.rjust(places + 1, "0")
        return ("-" if value < 0 else "") + digits[:-places] + "." + digits[-places:]
    return f"\\frac{{{value.numerator}}}{{{value.denominator}}}"


def _latex(node: tuple) -> str:
    kind = node[0]
    if kind == "unit":  # the unit is the typed value's (answer/values.py), not math-verify's
        return _latex(node[1])
    if kind == "num":
        if len(node) > 3 and node[3][:1] == "0" and len(node[3]) > 1 and not node[2]:
            return node[3]  # leading zeros as written (12:00, 004)
        return _num_latex(node[1], node[2])
    if kind in ("var", "const", "word"):
        return str(node[1])
    if kind == "base":
        return str(node[1])
    if kind == "text":
        return f"\\text{{{node[1]}}}"
    if kind == "group":
        return f"({_latex(node[1])})"
    if kind == "tuple":
        return f"{node[2]}{', '.join(_latex(x) for x in node[1])}{node[3]}"
    if kind == "set":
        return "\\{" + ", ".join(_latex(x) for x in node[1]) + "\\}"
    if kind == "list":
        return ", ".join(_latex(x) for x in node[1])
    if kind == "abs":
        return f"|{_latex(node[1])}|"
    if kind in ("floor", "ceil"):
        return f"\\l{kind}{_latex(node[1])}\\r{kind}"
    if kind == "matrix":
        rows = " \\\\ ".join(" & ".join(_latex(c) for c in row) for row in node[1])
        return "\\begin{pmatrix}" + rows + "\\end{pmatrix}"
    if kind == "frac":
        return f"\\frac{{{_latex(node[1])}}}{{{_latex(node[2])}}}"
    if kind == "mixed":
        value = node[1][1] + node[2][1][1] / node[2][2][1] if node[2][2][1] else None
        if value is None:
            return f"{_latex(node[1])}{_latex(node[2])}"
        return _num_latex(value, False)
    if kind == "sqrt":
        index = f"[{_latex(node[2])}]" if node[2] is not None else ""
        return f"\\sqrt{index}{{{_latex(node[1])}}}"
    if kind == "binom":
        return f"\\binom{{{_latex(node[1])}}}{{{_latex(node[2])}}}"
    if kind in ("func", "bigop"):
        return _latex_function(node)
    return _latex_operator(node)


def _latex_function(node: tuple) -> str:
    """\\sin^{2}(x), \\log_{2}(x), \\sum_{k=1}^{n} body."""
    _, name, first, second, body = node
    lower, upper = (second, first) if node[0] == "func" else (first, second)  # func: (power, sub)
    out = "\\" + name
    if lower is not None:
        out += f"_{{{_latex(lower)}}}"
    if upper is not None:
        out += f"^{{{_latex(upper)}}}"
    return out + (f"({_latex(body)})" if node[0] == "func" else " " + _wrap(body, _PREC["mul"]))


def _latex_operator(node: tuple) -> str:
    """Signs, sums, products, powers, factorials, set operations and relations."""
    kind = node[0]
    if kind == "neg":
        return "-" + _wrap(node[1], _PREC["neg"] + 1 if node[1][0] != "num" else 0)
    if kind == "pos":
        return "+" + _wrap(node[1], _PREC["neg"] + 1)
    if kind == "pm1":
        return f"{node[1]} " + _wrap(node[2], _PREC["neg"] + 1)
    if kind in ("add", "pm"):
        op = node[1] if kind == "add" else f" {node[1]} "
        return _wrap(node[2], _PREC["add"]) + op + _wrap(node[3], _PREC["add"] + 1)
    if kind == "mul":
        op = node[1]
        left, right = _wrap(node[2], _PREC["mul"]), _wrap(node[3], _PREC["mul"] + 1)
        if op == "":
            if right[:1].isdigit() or (right[:1].isalpha() and re.search(r"\\[A-Za-z]+$", left)):
                return f"{left} {right}"
            return left + right
        if op in ("\\cdot", "\\times", "\\div"):
            return f"{left} {op} {right}"
        return f"{left}{op}{right}"
    if kind == "pow":
        return _wrap(node[1], _PREC["pow"] + 1) + f"^{{{_latex(node[2])}}}"
    if kind == "fact":
        return _wrap(node[1], _PREC["fact"] + 1) + "!"
    if kind == "setop":
        return f"{_wrap(node[2], _PREC['setop'])} {node[1]} {_wrap(node[3], _PREC['setop'] + 1)}"
    if kind == "rel":
        out = _latex(node[1][0])
        for op, side in zip(node[2], node[1][1:]):
            out += f" {op} {_latex(side)}"
        return out
    raise ValueError(f"unknown node {kind}")


# ------------------------------------------------------------------ exact evaluation

_MAX_BITS = 4096


def evaluate(node: tuple) -> tuple[Fraction | None, bool]:
    """(exact value, a decimal literal took part) of an expression of numbers; value None
    when it is not one (variables, irrational roots, huge powers)."""
    try:
        return _eval(node), _has_decimal(node)
    except (ZeroDivisionError, _NotExact, OverflowError, ValueError):
        return None, False


class _NotExact(Exception):
    pass


def _has_decimal(node: tuple) -> bool:
    if node[0] == "num":
        return bool(node[2])
    if node[0] == "unit":
        return _has_decimal(node[1])
    return any(isinstance(x, tuple) and _has_decimal(x) for x in node[1:])


def _root(value: Fraction, n: int) -> Fraction:
    if value < 0 or n < 1 or n > 64:
        raise _NotExact
    out = []
    for part in (value.numerator, value.denominator):
        r = round(part ** (1.0 / n)) if part.bit_length() < 1000 else None
        if r is None:
            raise _NotExact
        for cand in (r - 1, r, r + 1):
            if cand >= 0 and cand ** n == part:
                out.append(cand)
                break
        else:
            raise _NotExact
    return Fraction(out[0], out[1])


def _eval(node: tuple) -> Fraction:
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind in ("group", "unit"):
        return _eval(node[1])
    if kind == "neg":
        return -_eval(node[1])
    if kind == "pos":
        return _eval(node[1])
    if kind == "add":
        a, b = _eval(node[2]), _eval(node[3])
        return a + b if node[1] == "+" else a - b
    if kind == "mul":
        if node[1] == ":":
            raise _NotExact
        a, b = _eval(node[2]), _eval(node[3])
        return a / b if node[1] in ("/", "\\div") else a * b
    if kind == "frac":
        return _eval(node[1]) / _eval(node[2])
    if kind == "mixed":
        return _eval(node[1]) + _eval(node[2])
    if kind == "pow":
        base, exp = _eval(node[1]), _eval(node[2])
        if exp.denominator != 1 or abs(exp) > 10000:
            if exp.denominator in (2, 3):
                return _root(base, exp.denominator) ** exp.numerator
            raise _NotExact
        bits = max(abs(base.numerator).bit_length(), base.denominator.bit_length())
        if bits * abs(exp.numerator) > _MAX_BITS:
            raise _NotExact
        return base ** int(exp)
    if kind == "fact":
        n = _eval(node[1])
        if n.denominator != 1 or not 0 <= n <= 300:
            raise _NotExact
        out = 1
        for k in range(2, int(n) + 1):
            out *= k
        return Fraction(out)
    if kind == "sqrt":
        index = 2 if node[2] is None else _eval(node[2])
        if Fraction(index).denominator != 1:
            raise _NotExact
        return _root(_eval(node[1]), int(index))
    if kind == "binom":
        n, k = _eval(node[1]), _eval(node[2])
        if n.denominator != 1 or k.denominator != 1 or not 0 <= k <= n <= 1000:
            raise _NotExact
        out = Fraction(1)
        for j in range(int(k)):
            out = out * (n - j) / (j + 1)
        return out
    if kind == "abs":
        return abs(_eval(node[1]))
    raise _NotExact
