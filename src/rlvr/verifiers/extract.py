"""Compatibility module: answer reading lives in ``rlvr.verifiers.answer`` (document ->
locate -> parse -> compare; docs/verifiers.md). Kept here:

- the names callers import from here (``locate``, ``Located``, ``answer_tag``,
  ``after_think``, ``boxed_spans``, ``strip_end``, ``read_tail``, ``qualifier``, ...);
- ``answer_is``, ``hash_answer``, ``final_candidates``, ``ends_text``: the older building
  blocks (every marker of a kind in a raw string);
- ``plain_number``: a fast parser for plain numbers (integers, decimals, thousands
  separators, ``a/b``, ``\\frac{a}{b}``) returning an exact ``Fraction``; no sympy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from rlvr.verifiers.answer.document import last_sentence_start, math_spans, sentence_breaks, sentence_end  # noqa: F401
from rlvr.verifiers.answer.follow import MAX_MARKERS, read_tail  # noqa: F401 - re-exported
from rlvr.verifiers.answer.lead import (  # noqa: F401 - re-exported
    box_context,
    lead_in_words,
    lead_word,
    near_hedge,
    qualifier,
    qualifier_reason,
)
from rlvr.verifiers.answer.locate import boxed_spans, locate  # noqa: F401
from rlvr.verifiers.answer.section import (  # noqa: F401
    ANSWER_CLOSE,
    ANSWER_OPEN,
    EOS_MARKERS,
    SIGN_OFF,
    THINK_CLOSE,
    THINK_OPEN,
    Extracted,
    Located,
    after_think,
    answer_tag,
    final_section,
    strip_end,
    strip_eos,
    strip_sign_off,
)

_ANSWER_IS_RE = re.compile(r"(?i)\b(?:final answer|the answer)\s*(?:is\b\s*:?|:)")
_HASH_RE = re.compile(r"####[ \t]*([^\n]*)")


def answer_is(text: str) -> list[tuple[int, int, str]]:
    """(start, end, X) for each "the answer is X" / "final answer: X"; X runs to the end of
    its line, with trailing sentence punctuation removed."""
    out = []
    for m in _ANSWER_IS_RE.finditer(text):
        line_end = text.find("\n", m.end())
        line_end = len(text) if line_end < 0 else line_end
        raw = text[m.end(): line_end]
        value = _cut_sentence(raw.strip())
        if value:
            out.append((m.start(), m.end() + raw.find(value) + len(value), value))
    return out


_SENTENCE_END_RE = re.compile(r"(?<!\\)[.!?](?:\s|$)|\s+I hope")


def _cut_sentence(value: str) -> str:
    m = _SENTENCE_END_RE.search(value)
    if m:
        value = value[: m.start()]
    return value.strip().rstrip(".,;:!").strip()


def hash_answer(text: str) -> list[tuple[int, int, str]]:
    """(start, end, X) for each GSM8K-style ``#### X`` line."""
    return [(m.start(), m.end(), m.group(1).strip()) for m in _HASH_RE.finditer(text) if m.group(1).strip()]


# Characters that may follow a final answer without being "more text": whitespace,
# sentence punctuation and closing math delimiters.
_CLOSING_TAIL_RE = re.compile(r"[\s.,;:!)\]$]*(?:\\\]|\\\)|\$\$?|\*\*)?[\s.,;:!)\]$*]*")


def ends_text(text: str, end: int, eos_markers: tuple[str, ...] = EOS_MARKERS) -> bool:
    """True when nothing but closing punctuation/delimiters and EOS follows ``end``."""
    tail = strip_eos(text[end:], eos_markers)
    return _CLOSING_TAIL_RE.fullmatch(tail) is not None


FALLBACKS: dict[str, object] = {
    "boxed": boxed_spans,
    "answer_is": answer_is,
    "hash": hash_answer,
}


def final_candidates(text: str, methods: tuple[str, ...] = ("boxed", "answer_is", "hash"),
                     ) -> list[tuple[int, int, str, str]]:
    """Every final-answer marker of the given kinds, as (start, end, value, kind), ordered
    by position. Unknown kinds raise ``KeyError`` listing the valid ones."""
    out = []
    for kind in methods:
        if kind not in FALLBACKS:
            raise KeyError(f"unknown answer marker {kind!r}; valid: {sorted(FALLBACKS)}")
        out.extend((s, e, v, kind) for s, e, v in FALLBACKS[kind](text))  # type: ignore[operator]
    out.sort(key=lambda c: (c[0], c[1]))
    return out


# ---------------------------------------------------------------------------- numbers

_WRAPPERS = (
    (re.compile(r"^\$\$(.*)\$\$$", re.S), 1),
    (re.compile(r"^\$(.*)\$$", re.S), 1),
    (re.compile(r"^\\\[(.*)\\\]$", re.S), 1),
    (re.compile(r"^\\\((.*)\\\)$", re.S), 1),
    (re.compile(r"^\\(?:boxed|fbox|framebox)\s*\{(.*)\}$", re.S), 1),
    (re.compile(r"^\\text(?:bf|rm)?\s*\{(.*)\}$", re.S), 1),
    (re.compile(r"^\\mathrm\s*\{(.*)\}$", re.S), 1),
)

_INT_RE = re.compile(r"[+-]?\d+")
_SPACED_THOUSANDS_RE = re.compile(r"[+-]?[1-9]\d{0,2}(?: \d{3})+(?:\.\d+)?")
_THOUSANDS_RE = re.compile(r"[+-]?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?")
_DECIMAL_RE = re.compile(r"[+-]?\d*\.\d+|[+-]?\d+\.")
_SLASH_RE = re.compile(r"([+-]?\d+)\s*/\s*(\d+)")
_FRAC_RE = re.compile(r"([+-]?)\\[dtc]?frac\s*\{\s*([+-]?\d+)\s*\}\s*\{\s*(\d+)\s*\}")
_SHORT_FRAC_RE = re.compile(r"([+-]?)\\[dtc]?frac\s*(\d)\s*(\d)")  # \frac12

MAX_NUMBER_CHARS = 200


def unwrap_math(s: str) -> str:
    """Strip outer ``$…$``, ``\\(…\\)``, ``\\[…\\]``, ``\\boxed{}``, ``\\text{}`` wrappers,
    a currency ``\\$``, and trailing sentence punctuation, repeatedly."""
    s = s.strip()
    for _ in range(6):
        before = s
        if s[-1:] in (".", ",", ";", ":") and not s.endswith(".."):  # keep an ellipsis; "!" is a factorial
            s = s[:-1].strip()
        s = s.removeprefix("\\$").removesuffix("\\$").strip()  # currency: \$5
        for pattern, group in _WRAPPERS:
            m = pattern.match(s)
            if m:
                s = m.group(group).strip()
        if s == before:
            break
    return s


@dataclass(frozen=True)
class Number:
    """An exactly parsed plain number; ``approximate`` when written with a decimal point
    (math-verify compares those after rounding, so equality near the 6th decimal is left
    to it)."""

    value: Fraction
    approximate: bool


def plain_number(s: str) -> Number | None:
    """Parse a plain number, or None. ``1,234`` is a thousands separator; ``1,22`` (a
    decimal comma or a list) is not a plain number and is left to the slow path."""
    if len(s) > MAX_NUMBER_CHARS:
        return None
    s = unwrap_math(s)
    s = s.replace("{,}", ",").replace("\\!", "").replace("\\,", "").strip()
    if _SPACED_THOUSANDS_RE.fullmatch(s):
        s = s.replace(" ", "")
    if _INT_RE.fullmatch(s):
        return Number(Fraction(int(s)), False)
    if _THOUSANDS_RE.fullmatch(s):
        return Number(Fraction(s.replace(",", "")), "." in s)
    if _DECIMAL_RE.fullmatch(s):
        return Number(Fraction(s.rstrip(".")), True)
    m = _SLASH_RE.fullmatch(s) or _FRAC_RE.fullmatch(s) or _SHORT_FRAC_RE.fullmatch(s)
    if not m:
        return None
    groups = m.groups()
    sign = -1 if len(groups) == 3 and groups[0] == "-" else 1
    num, den = int(groups[-2]), int(groups[-1])
    if den == 0:
        return None
    return Number(sign * Fraction(num, den), False)


def numbers_equal(a: Number, b: Number) -> bool | None:
    """True/False when the answer is certain, None when it is close enough that only the
    rounding rule of the slow path can decide (|a-b| below 1e-6 with a decimal involved)."""
    if a.value == b.value:
        return True
    if not (a.approximate or b.approximate):
        return False
    if abs(a.value - b.value) >= Fraction(1, 10**6):
        return False
    return None

