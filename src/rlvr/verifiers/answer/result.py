"""What reading an answer produces: an ``Answer`` (one value, its syntax tree and its
LaTeX) or a ``Refusal`` with a reason from ``REASONS``. The steps that build them:
``lexer`` (text -> tokens) -> ``grammar`` (tokens -> tree) -> ``tree`` (tree -> LaTeX,
exact value) -> ``relations`` (what an equation states) -> ``parse`` (the whole reading)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

REASONS: tuple[str, ...] = ("no_answer", "several_answers", "trailing_text", "relation", "unparsed")

MAX_ANSWER_CHARS = 3000
MAX_TOKENS = 400


@dataclass(frozen=True)
class Refusal:
    """Why an answer was not graded: ``reason`` is one of ``REASONS``."""

    reason: str
    detail: str


class _Refused(Exception):
    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason, self.detail = reason, detail


Refused = _Refused  # raised by reduce_relations / check_computation


@dataclass(frozen=True)
class Answer:
    """One parsed answer.

    ``node``: the syntax tree (tuples); ``latex``: the same, written back as LaTeX for
    math-verify (wrappers, units, thousands separators removed, mixed numbers and
    repeating decimals as fractions); ``value``: the exact value when the answer is a
    number or an expression of numbers we can evaluate; ``decimal``: a decimal literal
    took part in ``value`` (an approximation may be meant); ``kind``: the top node kind.
    """

    node: tuple
    latex: str
    value: Fraction | None
    decimal: bool
    kind: str
    text: str = ""  # text answers: the words, as written
    items: tuple[Answer, ...] = field(default=(), compare=False)
    unit: tuple[str, ...] = ()  # the units and currency signs written with the value, as written

    @property
    def canonical(self) -> str:
        """The form majority voting groups by: a reduced fraction / integer for a number,
        the lower-cased words for a text answer, else the LaTeX without spaces; then the
        units as written (``5 cm`` and ``5 m`` are two values, never one)."""
        if self.value is not None:
            v = self.value
            base = str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
        elif self.kind == "text":
            base = norm_text(self.text)
        else:
            base = self.latex.replace(" ", "")
        return f"{base} {' '.join(self.unit)}" if self.unit else base


def norm_text(text: str) -> str:
    t = " ".join(text.lower().split()).strip(" .")  # not "!": n! is not n
    m = re.fullmatch(r"\(([a-z])\)", t)
    return m.group(1) if m else t
