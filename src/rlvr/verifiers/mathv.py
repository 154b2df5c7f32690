"""Math verifier: the completion's final answer is mathematically equivalent to
``sample.answer`` (parsed as gold), decided by math-verify 0.9.0.

Flow for one completion:
1. Select the prediction text: the single ``<answer>`` tag that ends the completion (the
   same strict rule as ``exact``), else the text after ``</think>`` (an unterminated
   ``<think>`` has no answer), else the last ``#### X`` line when there is one.
2. Fast path, no sympy: when the reference and the prediction are both plain numbers
   (``12`` vs ``12.0``, ``1,000`` vs ``1000``, ``1/2`` vs ``0.5``; in free text: when every
   final-answer marker holds the same plain number) compare exact fractions. Differences
   under 1e-6 that involve a decimal go to the slow path, which owns the rounding rule.
3. Slow path: ``math_verify.parse`` on the reference (wrapped in ``$…$`` when it carries
   no math delimiters and is not a plain number) and on the prediction (whose trailing
   punctuation inside math delimiters, ``$\\frac{1}{3}.$``, is removed first), then
   ``math_verify.verify(gold, pred)``.
4. Several different final answers score 0: when the prediction text holds several
   ``\\boxed{}`` / "the answer is" / ``####`` values that differ, each must belong to the
   answer math-verify extracted (a list of boxed roots is one answer; an early boxed 255
   next to a final 10455 is two).

Departures from upstream math-verify defaults, on purpose (see docs/verifiers.md):
timeouts are the pool's job, so math-verify's ``signal.alarm`` timeouts are switched off
(``parsing_timeout=None``, ``timeout_seconds=None``); upstream float rounding (6 places)
and ``strict=True`` are kept; math-verify's own exceptions inside a comparison count as
"not equal" (its semantics), while a reference that cannot be parsed at all raises (the
pool reports ``error``: a data bug must not look like a wrong answer).

What it does not do: bound its own run time. sympy can run for ever on ``9^9^9^9^9``;
run it under ``VerifierPool`` with a timeout.
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import Any

from rlvr.types import Sample, Verdict
from rlvr.verifiers import extract

_MATH_DELIMS_RE = re.compile(r"\$|\\\[|\\\(|\\boxed|\\fbox")
_PLAINISH_RE = re.compile(r"[\s\d.,+\-/%]+")
# punctuation right before a closing math delimiter: "$\frac{1}{3}.$" -> "$\frac{1}{3}$"
_TRAILING_PUNCT_RE = re.compile(r"(?<!\\)\s*[.,;:](\s*)(\$\$|(?<!\\)\$|\\\]|\\\))")
_SPACE_RE = re.compile(r"\s+")
_PROSE_RE = re.compile(r"(?<![\\{A-Za-z])[A-Za-z]{3,}")  # a word, not a \command or \text{...}
_OR_RE = re.compile(r"\s+(?:or|\\text\{\s*or\s*\})\s+", re.IGNORECASE)


def warm_up() -> None:
    """Import math-verify (and sympy) now; workers call this before their first item."""
    _mv()


@lru_cache(maxsize=1)
def _mv() -> Any:
    import math_verify  # heavy: sympy, antlr; imported on first slow-path use only

    # Its "timeout is disabled" warning is expected here: the pool owns timeouts.
    logging.getLogger("math_verify").setLevel(logging.ERROR)
    return math_verify


def as_latex(text: str) -> str:
    """Text math-verify can extract from: as is when it has math delimiters or is a plain
    number (``1,22`` keeps math-verify's decimal-comma reading), else wrapped in ``$…$``."""
    text = text.strip()
    if _MATH_DELIMS_RE.search(text):
        return text
    if _PLAINISH_RE.fullmatch(text) and ", " not in text:
        return text
    return f"${text}$"


def clean_prediction(text: str) -> str:
    return _TRAILING_PUNCT_RE.sub(r"\1\2", text)


def select_prediction(completion: str) -> extract.Extracted:
    """The part of the completion that holds the final answer (see module docstring)."""
    tagged = extract.answer_tag(completion)
    if tagged is not None:
        if tagged.text is None:
            return tagged
        if not tagged.text:
            return extract.Extracted(None, "empty <answer> tag")
        return extract.Extracted(as_latex(tagged.text), source="tag", context=tagged.text)
    text = extract.after_think(completion)
    if text is None:
        return extract.Extracted(None, "unterminated <think>: no answer after the reasoning")
    hashes = extract.hash_answer(text)
    if hashes:
        return extract.Extracted(as_latex(hashes[-1][2]), source="hash", context=text)
    if not text.strip():
        return extract.Extracted(None, "empty completion after the reasoning")
    return extract.Extracted(text, source="text", context=text)


def _norm(value: str) -> str:
    return _SPACE_RE.sub("", extract.unwrap_math(value)).replace("{,}", ",").replace("\\!", "")


def distinct_candidates(text: str) -> list[str]:
    """Final-answer marker values of ``text``, one per distinct normalised value, each
    written so math-verify can parse it (a boxed value stays boxed)."""
    seen: dict[str, str] = {}
    for _, _, value, kind in extract.final_candidates(text):
        if kind == "boxed":
            seen.setdefault(_norm(value), f"$\\boxed{{{value}}}$")
            continue
        for part in _OR_RE.split(value):  # "the answer is 5 or 6" offers two answers
            part = _PROSE_RE.split(part, maxsplit=1)[0].strip()  # "42 apples" -> "42"
            if part:
                seen.setdefault(_norm(part), as_latex(part))
    return list(seen.values())


def _fast_prediction(pred: extract.Extracted, candidates: list[str]) -> extract.Number | None:
    if pred.source in ("tag", "hash") and not candidates:
        return extract.plain_number(pred.text or "")
    if not candidates:
        return extract.plain_number(pred.text or "") if len(pred.text or "") <= extract.MAX_NUMBER_CHARS else None
    numbers = [extract.plain_number(c) for c in candidates]
    if any(n is None for n in numbers):
        return None
    first = numbers[0]
    if all(extract.numbers_equal(first, n) is True for n in numbers[1:]):  # type: ignore[arg-type]
        return first
    return None


_LATEX_NOISE_RE = re.compile(r"\\left|\\right|\\[!,;]|\s+")


def _same_latex(gold: str, pred: extract.Extracted, candidates: list[str]) -> bool:
    """True when the prediction is literally the reference (up to spacing, ``\\left``,
    ``\\dfrac``, wrappers): equal without any parsing."""
    values = candidates or ([pred.text] if pred.text and len(pred.text) <= 1000 else [])
    if not values:
        return False
    canon = {_LATEX_NOISE_RE.sub("", extract.unwrap_math(v)).replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac")
             for v in values + [gold]}
    return len(canon) == 1 and "" not in canon


def _single_value(pred: extract.Extracted, candidates: list[str]) -> str | None:
    """The prediction's one final value as text, when it has exactly one."""
    if len(candidates) == 1:
        return candidates[0]
    if not candidates and pred.text and len(pred.text) <= 1000:
        return pred.text
    return None


def fast_verdict(gold: str, pred: extract.Extracted, candidates: list[str]) -> Verdict | None:
    """A verdict without sympy, or None when only math-verify can decide.

    ok: literally the same text, or equal plain numbers (or tuples/intervals of them).
    wrong: different plain numbers, tuples/intervals that differ, or polynomial-like
    expressions whose values differ at a probe point (proof of inequality; equality is
    always left to math-verify).
    """
    if _same_latex(gold, pred, candidates):
        return Verdict(1.0, "ok", "identical to the reference")
    gold_number = extract.plain_number(gold)
    pred_number = _fast_prediction(pred, candidates)
    if gold_number is not None and pred_number is not None:
        same = extract.numbers_equal(gold_number, pred_number)
        if same is not None:
            relation = "==" if same else "!="
            return Verdict(float(same), "ok" if same else "wrong",
                           f"{pred_number.value} {relation} {gold_number.value} (plain numbers)")
        return None
    value = _single_value(pred, candidates)
    if value is None:
        return None
    same = tuples_equal(gold, value)
    if same is not None:
        return Verdict(float(same), "ok" if same else "wrong", f"tuples/intervals of plain numbers {'equal' if same else 'differ'}")
    if probe_differs(gold, value):
        return Verdict(0.0, "wrong", "differs from the reference at a probe point")
    return None


# --------------------------------------------------- tuples and intervals of numbers

_BRACKETED_RE = re.compile(r"([\[(])([^\[\](){}]*)([\])])")


def _bracketed(text: str) -> tuple[str, list[extract.Number], str] | None:
    canon = _LATEX_NOISE_RE.sub("", extract.unwrap_math(text))
    m = _BRACKETED_RE.fullmatch(canon)
    if not m or "," not in m.group(2):
        return None
    numbers = [extract.plain_number(part) for part in m.group(2).split(",")]
    if any(n is None for n in numbers):
        return None
    return m.group(1), numbers, m.group(3)  # type: ignore[return-value]


def tuples_equal(gold: str, pred: str) -> bool | None:
    """Compare ``(a, b]``-style intervals and tuples of plain numbers; None = undecided.

    Descending pairs with a square bracket are left to math-verify (it reads ``(5,3]``
    as the empty set), so are tuples of different lengths (they may be sets)."""
    g, p = _bracketed(gold), _bracketed(pred)
    if g is None or p is None or len(g[1]) != len(p[1]):
        return None
    for open_br, numbers, close_br in (g, p):
        if len(numbers) == 2 and (open_br, close_br) != ("(", ")") and numbers[0].value >= numbers[1].value:
            return None
    same_numbers = [extract.numbers_equal(a, b) for a, b in zip(g[1], p[1])]
    if (g[0], g[2]) != (p[0], p[2]):
        return False if len(g[1]) == 2 else None
    if False in same_numbers:
        return False
    return True if all(same_numbers) else None


@lru_cache(maxsize=4096)
def parse_gold(gold: str) -> tuple:
    mv = _mv()
    parsed = mv.parse(as_latex(gold), parsing_timeout=None)
    if not parsed:
        raise ValueError(f"the reference answer {gold[:200]!r} could not be parsed by math-verify")
    return tuple(parsed)


def _parse_pred(text: str) -> list:
    return _mv().parse(clean_prediction(text), parsing_timeout=None)


def _equal(gold: Any, pred: Any, opts: dict[str, Any]) -> bool:
    return bool(_mv().verify(list(gold), list(pred), timeout_seconds=None, **opts))


def _stray_candidate(pred_parsed: list, candidates: list[str], opts: dict[str, Any]) -> str | None:
    """The first final-answer marker value that is not part of the extracted answer."""
    value = pred_parsed[0]
    from sympy import FiniteSet

    elements = list(value.args) if isinstance(value, FiniteSet) else []
    for candidate in candidates:
        parsed = _parse_pred(candidate)
        if not parsed:
            return candidate
        if _equal(pred_parsed, parsed, opts):
            continue
        if not any(_equal([e], parsed, opts) for e in elements):
            return candidate
    return None


def verify_math(completion: str, sample: Sample, *, float_rounding: int = 6, strict: bool = True,
                allow_set_relation_comp: bool = False, reject_several_answers: bool = True,
                fast: bool = True) -> Verdict:
    """reward 1 when the final answer is equivalent to ``sample.answer`` (see module doc)."""
    if sample.answer is None or not str(sample.answer).strip():
        raise ValueError("the math verifier needs the sample's 'answer' (the reference)")
    gold = str(sample.answer)
    pred = select_prediction(completion)
    if pred.text is None:
        return Verdict(0.0, "no_answer", pred.reason)
    candidates = distinct_candidates(pred.context)
    if fast:
        verdict = fast_verdict(gold, pred, candidates)
        if verdict is not None:
            return verdict
    opts = {"float_rounding": float_rounding, "strict": strict, "allow_set_relation_comp": allow_set_relation_comp}
    gold_parsed = parse_gold(gold)
    pred_parsed = _parse_pred(pred.text)
    if not pred_parsed:
        return Verdict(0.0, "no_answer", "no final answer could be extracted")
    shown = str(pred_parsed[-1])[:200]
    if not _equal(gold_parsed, pred_parsed, opts):
        return Verdict(0.0, "wrong", f"{shown!r} is not equivalent to the reference")
    if reject_several_answers and len(candidates) > 1:
        stray = _stray_candidate(pred_parsed, candidates, opts)
        if stray is not None:
            return Verdict(0.0, "wrong", f"several different final answers: {stray[:100]!r} besides {shown!r}")
    return Verdict(1.0, "ok", f"{shown!r} is equivalent to the reference")


# ------------------------------------------------ probe evaluation (inequality only)
#
# A tiny evaluator for a LaTeX subset: integers (no decimals: math-verify rounds those),
# single-letter variables (not e or i), \pi, + - * / ^ (small integer exponents),
# \cdot, \times, \frac{}{}, \sqrt{}, parentheses, implicit multiplication. Anything
# else aborts. Two expressions whose values differ at a probe point are different
# functions, so the answer is wrong for sure; equal values prove nothing and go to sympy.

_TOKEN_RE = re.compile(r"\s*(?:(\d+)|\\(d?t?frac|sqrt|pi|cdot|times)(?![a-zA-Z])|([a-zA-Z])|([-+*/^(){}]))")
_FORBIDDEN_LETTERS = frozenset("eiEI")
_PROBES = (0.5772156649, 1.3247179572)


class _Abort(Exception):
    pass


def _tokens(text: str) -> list[tuple[str, str]]:
    text = _LATEX_NOISE_RE.sub(" ", extract.unwrap_math(text)).strip()
    out, pos = [], 0
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if not m or m.end() == pos:
            raise _Abort
        kinds = ("num", "cmd", "var", "op")
        kind = next(k for k, g in zip(kinds, m.groups()) if g is not None)
        out.append((kind, m.group(kinds.index(kind) + 1)))
        pos = m.end()
    for (k1, _), (k2, v2) in zip(out, out[1:]):
        if (k1 == k2 == "num") or (k1 == k2 == "var") or (k1 == "var" and v2 == "("):
            raise _Abort  # "2 3", "xy", "f(x)": readings differ between parsers
    if any(k == "var" and v in _FORBIDDEN_LETTERS for k, v in out) or len(out) > 200:
        raise _Abort
    return out


class _Evaluator:
    """Recursive descent over ``_tokens`` at one probe point."""

    def __init__(self, tokens: list[tuple[str, str]], probe: float) -> None:
        self.tokens, self.pos, self.probe = tokens, 0, probe

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ("end", "")

    def take(self, value: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if token[0] == "end" or (value is not None and token[1] != value):
            raise _Abort
        self.pos += 1
        return token

    def run(self) -> float:
        value = self.expr()
        if self.pos != len(self.tokens):
            raise _Abort
        return value

    def expr(self) -> float:
        value = self.term()
        while self.peek()[1] in ("+", "-"):
            sign = 1 if self.take()[1] == "+" else -1
            value += sign * self.term()
        return value

    def term(self) -> float:
        value = self.unary()
        while True:
            kind, tok = self.peek()
            if tok in ("*", "cdot", "times", "/"):
                self.take()
                right = self.unary()
                value = value / right if tok == "/" else value * right
                if tok == "/" and self._implicit_next():
                    raise _Abort  # "a/bc": a/(bc) or (a/b)c depends on the parser
            elif self._implicit_next():
                value *= self.power()
            else:
                return value

    def _implicit_next(self) -> bool:
        kind, tok = self.peek()
        return kind in ("num", "var") or tok in ("(", "{", "frac", "dfrac", "tfrac", "sqrt", "pi")

    def unary(self) -> float:
        if self.peek()[1] in ("+", "-"):
            return (1 if self.take()[1] == "+" else -1) * self.unary()
        return self.power()

    def power(self) -> float:
        base = self.primary()
        if self.peek()[1] != "^":
            return base
        self.take()
        if self.peek()[0] == "num":
            exponent = int(self.take()[1])
        else:
            self.take("{")
            exponent = int(self.take()[1]) if self.peek()[0] == "num" else -1
            self.take("}")
        if not 0 <= exponent <= 20 or len(str(exponent)) > 2:
            raise _Abort
        return base ** exponent

    def group(self, close: str) -> float:
        value = self.expr()
        self.take(close)
        return value

    def primary(self) -> float:
        kind, tok = self.take()
        if kind == "num":
            if len(tok) > 15:
                raise _Abort
            return float(int(tok))
        if kind == "var":
            return 1.0 + (ord(tok) * 0.6180339887 + self.probe) % 1.7
        if tok in ("(", "{"):
            return self.group(")" if tok == "(" else "}")
        if tok == "pi":
            return 3.141592653589793
        if tok == "sqrt":
            self.take("{")
            inner = self.group("}")
            if inner < 0:
                raise _Abort
            return inner ** 0.5
        if tok in ("frac", "dfrac", "tfrac"):
            self.take("{")
            num = self.group("}")
            self.take("{")
            return num / self.group("}")
        raise _Abort


def probe_differs(gold: str, pred: str) -> bool:
    """True when both parse in the subset and their values differ at a probe point."""
    try:
        gold_tokens, pred_tokens = _tokens(gold), _tokens(pred)
        for probe in _PROBES:
            a = _Evaluator(gold_tokens, probe).run()
            b = _Evaluator(pred_tokens, probe).run()
            if abs(a - b) > 1e-9 * (1.0 + abs(a) + abs(b)):
                return True
    except (_Abort, ZeroDivisionError, OverflowError, ValueError):
        return False
    return False
