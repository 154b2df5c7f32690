"""Exact-match verifier: the extracted answer equals the reference after normalisation.

Extraction (``extract.locate``): the single ``<answer>…</answer>`` tag that ends the
completion. Without any answer tag, and only if ``fallbacks`` allows it, the final
``\\boxed{}``, "the answer is X" / "Answer: X" or ``#### X`` outside the ``<think>`` block,
which must itself end the completion (only closing punctuation, a unit phrase or a
sign-off may follow) and must agree with every other final-answer marker in the text:
several different final answers score 0. An unterminated ``<think>`` holds no answer.

The answer is then read by the answer grammar (``answer_grammar.parse_answer``, letters-
only answers such as ``New York`` are text): what the grammar does not understand is
refused (``wrong``/``no_answer`` with ``info["refused/<reason>"]``), unless it is literally
the reference. Both sides are written as the grammar reads them (wrappers, colour, units,
thousands separators gone; a plain number as a reduced fraction, anything else as LaTeX)
and then go through a list of named normalisation steps (``NORMALISERS``), so ``1/2`` ==
``0.5``, ``-3.0`` == ``-3`` and ``10!`` != ``10``.

What it deliberately does not do: any mathematical equivalence beyond plain numbers
(``2x`` vs ``x*2``, ``\\sqrt{4}`` vs ``2``): use the ``math`` verifier for that. It is the
cheap, precision-first check of the built-in arithmetic task.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rlvr.types import Sample, Verdict
from rlvr.verifiers import extract
from rlvr.verifiers.answer.compare import Judge, compare
from rlvr.verifiers.answer.parse import Answer, Refusal, Refused, parse_answer, rebuild, reduce_relations
from rlvr.verifiers.answer.values import typed

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
    "trailing_punct": lambda s: s.rstrip(".,;:?").rstrip(),  # not "!": 10! is a factorial
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


def _plain_number(node: tuple) -> bool:
    kind = node[0]
    if kind == "num":
        return True
    if kind in ("neg", "pos"):
        return _plain_number(node[1])
    if kind == "frac" or (kind == "mul" and node[1] in ("/", "\\div")):
        return _plain_number(node[-2]) and _plain_number(node[-1])
    return kind == "mixed"


def answer_text(answer: Answer) -> str:
    """How the grammar writes an answer for exact comparison: a plain number as a
    reduced fraction, a text answer as written, anything else as LaTeX (``10!`` stays)."""
    if answer.value is not None and _plain_number(answer.node):
        return answer.canonical
    if answer.kind == "text":
        return answer.text
    return answer.latex


def extract_answer(completion: str, fallbacks: Sequence[str] = DEFAULT_FALLBACKS,
                   require_end: bool = True,
                   steps: Sequence[str] = DEFAULT_NORMALISERS) -> tuple[str | None, str, str]:
    """(answer, refusal reason, detail). The answer is None when there is none to grade;
    the reason is then one of ``answer_grammar.REASONS``."""
    text, reason, detail, _ = _extract(completion, fallbacks, require_end, steps)
    return text, reason, detail


def _extract(completion: str, fallbacks: Sequence[str], require_end: bool,
             steps: Sequence[str]) -> tuple[str | None, str, str, str]:
    """``extract_answer`` and the noun the final value counts (``Located.noun``)."""
    from rlvr.verifiers.mathv import read_led_box

    located = extract.locate(completion, tuple(fallbacks), unmarked=False, require_end=require_end)
    if located.value is None:
        return None, located.reason, located.detail, ""
    if located.lead:  # "$x > \boxed{10}$", "$11 = \boxed{10}$": refused; "$x = \boxed{10}$": the box
        led = read_led_box(located, words="exact")
        if isinstance(led, Refusal):
            return None, led.reason, led.detail, ""
    if located.competitors:
        final = parse_answer(located.value, words="exact")
        want = normalise(answer_text(final), steps) if isinstance(final, Answer) else located.value
        for text in located.competitors:
            if " ".join(text.split()) == " ".join(located.value.split()):
                continue
            got = _competing_text(text, steps)
            if got != want:
                return None, "several_answers", f"several different final answers: {sorted({want, got})}", ""
    return located.value, "", "", located.noun


def _competing_text(text: str, steps: Sequence[str]) -> str:
    """Another final-answer marker's value, normalised like the final answer; an equation
    that states a value (``x = 5``, ``2 + 3 = 5``) is that value."""
    from rlvr.verifiers.mathv import read_sentence

    other = parse_answer(text, words="exact")
    if isinstance(other, Refusal):
        other = read_sentence(text) or other  # "The final answer is 10"
    if isinstance(other, Answer) and other.kind == "rel":
        try:
            other = rebuild(reduce_relations(other.node))
        except Refused:
            return f"unreadable {text[:40]}"
    return normalise(answer_text(other), steps) if isinstance(other, Answer) else f"unreadable {text[:40]}"


def verify_exact(completion: str, sample: Sample, *, normalisers: Sequence[str] = DEFAULT_NORMALISERS,
                 fallbacks: Sequence[str] = DEFAULT_FALLBACKS, require_end: bool = True) -> Verdict:
    """reward 1 when the normalised answer equals the normalised ``sample.answer``."""
    if sample.answer is None:
        raise ValueError("the exact verifier needs the sample's 'answer' (the reference)")
    from rlvr.verifiers.mathv import refused

    reference = str(sample.answer)
    text, reason, detail, noun = _extract(completion, fallbacks, require_end, normalisers)
    if text is None:
        return refused(reason, detail)
    if noun:  # "$\boxed{3}$ quarts": the noun it counts, against the reference's unit
        from rlvr.verifiers.mathv import _noun_against_unit
        from rlvr.verifiers.mathv import reference as math_reference

        try:
            mismatch = _noun_against_unit(noun, math_reference(reference))
        except ValueError:  # a reference the math grammar refuses: compared as written below
            mismatch = None
        if mismatch is not None:
            return mismatch
    parsed = parse_answer(text, words="exact")
    if isinstance(parsed, Refusal):
        if " ".join(text.split()) == " ".join(reference.split()):
            return Verdict(1.0, "ok", "literally the reference", answer=" ".join(text.split()))
        return refused(parsed.reason, parsed.detail)
    got = normalise(answer_text(parsed), normalisers)
    gold = parse_answer(reference, words="exact")
    if isinstance(gold, Refusal):
        return _match(normalise(reference, normalisers), parsed, normalisers, got)
    judge = Judge(core=lambda g, p: _match(normalise(answer_text(g), normalisers), p, normalisers, got),
                  same=lambda d: Verdict(1.0, "ok", d, answer=got),
                  differ=lambda d: Verdict(0.0, "wrong", d, answer=got),
                  ok=lambda v: v.status == "ok", equivalence=False)
    named, name = _named(parsed)
    if name is not None:  # an equation for an equation: names and units compared as math compares them
        gold, gold_name = _named(gold)
        return compare(typed(gold, gold_name), typed(named, name), judge)
    return compare(typed(gold), typed(parsed), judge)


def _named(answer: Answer) -> tuple[Answer, tuple | None]:
    """An equation that states a value as that value with its named side (``v = 5 \\text{ km}``:
    5 km named v), so that units and names are compared as ``math`` compares them."""
    from rlvr.verifiers.mathv import equation_name

    name = equation_name(answer.node)
    if name is None:
        return answer, None
    try:
        return rebuild(reduce_relations(answer.node)), name
    except Refused:
        return answer, None


def _match(want: str, parsed: Answer, normalisers: Sequence[str], shown: str) -> Verdict:
    """The bare values as normalised strings (``want``: the reference's)."""
    got = normalise(answer_text(parsed), normalisers)
    if got == want:
        return Verdict(1.0, "ok", f"answer {got!r}", answer=shown)
    info = {}
    if parsed.kind == "list" and len({i.canonical for i in parsed.items}) > 1 and "," not in want:
        info["refused/several_answers"] = 1.0
    return Verdict(0.0, "wrong", f"answer {got!r} != reference {want!r}", info, answer=shown)
