"""Final-answer extraction shared by the exact and math verifiers.

What it does:
- ``answer_tag``: the content of the single ``<answer>…</answer>`` tag, which must END the
  completion (only whitespace and an end-of-sequence marker may follow). Several tags, an
  unterminated tag, or text after the closing tag give no answer. This rule exists because
  a looser one ("any tag anywhere counts") was gamed in training: the policy stopped
  emitting EOS and padded text after its answer.
- ``after_think``: drops the ``<think>…</think>`` reasoning, so that values written while
  thinking never count as final answers.
- ``boxed_spans``: every ``\\boxed{…}`` / ``\\fbox{…}`` with balanced braces (a linear scan).
- ``answer_is`` and ``hash_answer``: "the (final) answer is X" and GSM8K's ``#### X``.
- ``final_candidates``: every final-answer marker in a text, so a caller can refuse a
  completion that offers several different final answers.
- ``plain_number``: a fast parser for plain numbers (integers, decimals, thousands
  separators, ``a/b``, ``\\frac{a}{b}``) returning an exact ``Fraction``; no sympy.

What it deliberately does not do: parse LaTeX or decide mathematical equivalence (that is
``rlvr.verifiers.mathv``), or guess an answer from free text without any marker (the math
verifier leaves that to math-verify's own extraction).

Every function here runs in time linear in the input (no nested unbounded regex
quantifiers), so it is safe on the 300k-character completions a policy can emit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

ANSWER_OPEN = "<answer>"
ANSWER_CLOSE = "</answer>"
THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"

# End-of-sequence markers a decoder may leave in the text; allowed after the answer.
EOS_MARKERS: tuple[str, ...] = ("<|endoftext|>", "<|im_end|>", "<|eot_id|>", "</s>", "<eos>")


@dataclass(frozen=True)
class Extracted:
    """An extraction result: ``text`` is the answer (None when there is none) and
    ``reason`` says why there is none, for the verdict's detail."""

    text: str | None
    reason: str = ""
    source: str = ""
    context: str = ""  # where the caller should look for competing final answers


def strip_eos(tail: str, eos_markers: tuple[str, ...] = EOS_MARKERS) -> str:
    tail = tail.strip()
    changed = True
    while changed and tail:
        changed = False
        for marker in eos_markers:
            if tail.endswith(marker):
                tail = tail[: -len(marker)].rstrip()
                changed = True
    return tail


def answer_tag(
    text: str,
    open_tag: str = ANSWER_OPEN,
    close_tag: str = ANSWER_CLOSE,
    eos_markers: tuple[str, ...] = EOS_MARKERS,
) -> Extracted | None:
    """The content of the one answer tag that ends ``text``.

    Returns None when the text holds no answer tag at all (so a caller may try other
    markers), ``Extracted(None, reason)`` when tags are present but break the rules, and
    ``Extracted(content)`` otherwise.
    """
    n_open, n_close = text.count(open_tag), text.count(close_tag)
    if n_open == 0 and n_close == 0:
        return None
    if n_open != 1 or n_close != 1:
        return Extracted(None, f"expected exactly one {open_tag}…{close_tag}, found {n_open} opening and {n_close} closing tags")
    start, end = text.find(open_tag), text.find(close_tag)
    if end < start:
        return Extracted(None, f"{close_tag} comes before {open_tag}")
    if strip_eos(text[end + len(close_tag):], eos_markers):
        return Extracted(None, f"text follows {close_tag}: the answer must end the completion")
    return Extracted(text[start + len(open_tag): end].strip(), source="tag")


def after_think(text: str) -> str | None:
    """The text after the reasoning block; None when a ``<think>`` is never closed.

    Text without any think tag is returned unchanged.
    """
    close = text.rfind(THINK_CLOSE)
    if close >= 0:
        return text[close + len(THINK_CLOSE):]
    if THINK_OPEN in text:
        return None
    return text


_BOX_RE = re.compile(r"\\(?:boxed|fbox)\s*\{")


def boxed_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, content) of every ``\\boxed{…}`` with balanced braces, left to right.

    An unbalanced box (the text ends inside it) is dropped. Nested boxes count once (the
    outer one).
    """
    spans: list[tuple[int, int, str]] = []
    pos = 0
    while True:
        m = _BOX_RE.search(text, pos)
        if not m:
            return spans
        depth, i = 1, m.end()
        while i < len(text) and depth:
            ch = text[i]
            if ch == "\\":
                i += 2
                continue
            depth += (ch == "{") - (ch == "}")
            i += 1
        if depth:
            return spans
        spans.append((m.start(), i, text[m.end(): i - 1].strip()))
        pos = i


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


def final_candidates(text: str, methods: tuple[str, ...] = ("boxed", "answer_is", "hash")) -> list[tuple[int, int, str, str]]:
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
    (re.compile(r"^\\(?:boxed|fbox)\s*\{(.*)\}$", re.S), 1),
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
        if s[-1:] in (".", ",", ";", ":", "!") and not s.endswith(".."):  # keep an ellipsis
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
