"""Exact-match verifier: the extracted answer equals the reference after normalisation.

Extraction (``extract.py``): the single ``<answer>…</answer>`` tag that ends the
completion. Without any answer tag, and only if ``fallbacks`` allows it, the final
``\\boxed{}``, "the answer is X" or ``#### X`` outside the ``<think>`` block, which must
itself end the completion (only closing punctuation may follow) and must agree with every
other final-answer marker in the text: several different final answers score 0.

Normalisation is a list of named steps (``NORMALISERS``) applied in order to both sides;
the default strips LaTeX wrappers, thousands separators, whitespace runs (and spaces
around punctuation and operators), trailing punctuation and case, then writes plain numbers canonically so ``1/2`` == ``0.5`` and
``-3.0`` == ``-3``.

What it deliberately does not do: any mathematical equivalence beyond plain numbers
(``2x`` vs ``x*2``, ``\\frac{1}{2}`` vs ``\\frac{2}{4}`` is fine, ``\\sqrt{4}`` vs ``2`` is not):
use the ``math`` verifier for that. It is the cheap, precision-first check of the
built-in arithmetic task.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

from rlvr.types import Sample, Verdict
from rlvr.verifiers import extract

_INNER_TEXT_RE = re.compile(r"\\(?:text|textbf|textrm|mathrm|mbox)\s*\{([^{}]*)\}")
_SPACING_RE = re.compile(r"\\(?:left|right|[!,;: ]|quad|qquad)")
_SPACE_AROUND_RE = re.compile(r"\s*([,;:()\[\]{}+\-*/=^<>])\s*")
_THOUSANDS_RE = re.compile(r"(?<![\d.,])([+-]?[1-9]\d{0,2})((?:,\d{3})+)(?![\d,])")


def _strip_latex(s: str) -> str:
    s = extract.unwrap_math(s)
    s = s.replace("{,}", ",").replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac")
    s = _INNER_TEXT_RE.sub(r"\1", s)
    s = _SPACING_RE.sub("", s)
    return extract.unwrap_math(s)


def _thousands(s: str) -> str:
    return _THOUSANDS_RE.sub(lambda m: m.group(1) + m.group(2).replace(",", ""), s)


def _numbers(s: str) -> str:
    number = extract.plain_number(s)
    if number is None:
        return s
    v = number.value
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


NORMALISERS: dict[str, Callable[[str], str]] = {
    "strip_latex": _strip_latex,
    "thousands": _thousands,
    "whitespace": lambda s: _SPACE_AROUND_RE.sub(r"\1", " ".join(s.split())),
    "trailing_punct": lambda s: s.rstrip(".,;:!?").rstrip(),
    "case": str.lower,
    "numbers": _numbers,
}
DEFAULT_NORMALISERS: tuple[str, ...] = ("strip_latex", "thousands", "whitespace", "trailing_punct", "case", "numbers")
DEFAULT_FALLBACKS: tuple[str, ...] = ("boxed", "answer_is", "hash")


def normalise(s: str, steps: Sequence[str] = DEFAULT_NORMALISERS) -> str:
    """Apply the named normaliser steps in order; an unknown name raises ``KeyError``
    listing the valid ones."""
    for step in steps:
        if step not in NORMALISERS:
            raise KeyError(f"unknown normaliser {step!r}; valid: {sorted(NORMALISERS)}")
        s = NORMALISERS[step](s)
    return s


def extract_answer(completion: str, fallbacks: Sequence[str] = DEFAULT_FALLBACKS,
                   require_end: bool = True,
                   steps: Sequence[str] = DEFAULT_NORMALISERS) -> tuple[str | None, str, str]:
    """(answer, status-if-none, reason). The answer is None when there is none to grade;
    the status is then ``no_answer`` or ``wrong`` (several different final answers)."""
    tagged = extract.answer_tag(completion)
    if tagged is not None:
        return tagged.text, "no_answer", tagged.reason
    if not fallbacks:
        return None, "no_answer", "no <answer>…</answer> tag"
    text = extract.after_think(completion)
    if text is None:
        return None, "no_answer", "unterminated <think>: no answer after the reasoning"
    candidates = extract.final_candidates(text, tuple(fallbacks))
    if not candidates:
        return None, "no_answer", f"no <answer> tag and no final answer marker ({', '.join(fallbacks)})"
    last = max(candidates, key=lambda c: c[1])
    if require_end and not extract.ends_text(text, last[1]):
        return None, "no_answer", "text follows the final answer: the answer must end the completion"
    values = {normalise(c[2], steps) for c in candidates}
    if len(values) > 1:
        return None, "wrong", f"several different final answers: {sorted(values)[:5]}"
    return last[2], "", ""


def verify_exact(completion: str, sample: Sample, *, normalisers: Sequence[str] = DEFAULT_NORMALISERS,
                 fallbacks: Sequence[str] = DEFAULT_FALLBACKS, require_end: bool = True) -> Verdict:
    """reward 1 when the normalised answer equals the normalised ``sample.answer``."""
    if sample.answer is None:
        raise ValueError("the exact verifier needs the sample's 'answer' (the reference)")
    answer, status, reason = extract_answer(completion, fallbacks, require_end, normalisers)
    if answer is None:
        return Verdict(0.0, status, reason)
    got, want = normalise(answer, normalisers), normalise(str(sample.answer), normalisers)
    if got == want:
        return Verdict(1.0, "ok", f"answer {got!r}")
    return Verdict(0.0, "wrong", f"answer {got!r} != reference {want!r}")
