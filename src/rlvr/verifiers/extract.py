"""Final-answer extraction shared by the exact and math verifiers: WHERE the final answer
is (what it may contain is ``answer_grammar``).

- ``locate``: the final answer of a completion. The reasoning goes first (the text after
  the last ``</think>``; a ``<think>`` never closed leaves no answer, whatever tag or box
  it contains). Then the single ``<answer>…</answer>`` tag, which must END the completion
  (only whitespace and an end-of-sequence marker may follow); else the last final-answer
  marker (a run of ``\\boxed{}`` joined by list separators, "the answer is" / "Answer:",
  ``####``), which must end the completion too: only closing punctuation (not ``!``, a
  factorial), closing delimiters, a unit phrase, "I hope it is correct" / "is our answer"
  or a chat template's next-turn opener may follow. The other markers of the final section
  are returned as competitors, which the caller must find equal to the final answer. A
  negation particle in the clause that leads into the final marker refuses it.
  This rule exists because looser ones were gamed: with "any tag anywhere counts" a
  policy stopped emitting EOS and padded text after its answer; with "the last box
  counts" it wrote "\\boxed{10}. Wait, that's wrong; it should be 11".
- ``answer_tag``, ``after_think``, ``boxed_spans``, ``answer_is``, ``hash_answer``,
  ``final_candidates``: the building blocks (and older entry points).
- ``plain_number``: a fast parser for plain numbers (integers, decimals, thousands
  separators, ``a/b``, ``\\frac{a}{b}``) returning an exact ``Fraction``; no sympy.

Every function here runs in time linear in the input (no nested unbounded regex
quantifiers; at most ``MAX_MARKERS`` markers are compared), so it is safe on the
300k-character completions a policy can emit.
"""

from __future__ import annotations

import bisect
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


# ------------------------------------------------------------- the final answer

SIGN_OFF = (r"(?:i\s+hope\s+(?:it|this|that)\s+(?:is|was)\s+(?:correct|right|helpful)|i\s+hope\s+(?:it|this)\s+helps"
            r"|(?:is|are)\s+(?:our|the|my)\s+(?:final\s+)?(?:answer|solution)s?)")
_TAIL_ATOM = (r"\s|[.,;:]|\$|\\\]|\\\)|\*|\}|\)|\]|\\\\|\\quad|\\qquad|\\end\s*\{[a-z]+\*?\}|" + SIGN_OFF)
MAX_TAIL_CHARS = 500
MAX_MARKERS = 64  # final-answer markers in one final section
MAX_VALUE_CHARS = 4000  # longer than any answer the grammar reads (answer_grammar.MAX_ANSWER_CHARS)


def _unit_phrase() -> str:
    from rlvr.verifiers.answer_grammar import UNIT_WORDS

    words = "|".join(sorted(UNIT_WORDS, key=len, reverse=True))
    return rf"(?:\\pmod\s*\{{\s*\d+\s*\}}|(?:{words})\b(?:\s+(?:{words})\b)*)"


_TAIL_RE: re.Pattern[str] | None = None


def _tail_re() -> re.Pattern[str]:
    global _TAIL_RE
    if _TAIL_RE is None:
        _TAIL_RE = re.compile(rf"(?is)(?:{_TAIL_ATOM})*(?P<unit>{_unit_phrase()})?(?:{_TAIL_ATOM})*")
    return _TAIL_RE


def read_tail(tail: str) -> tuple[bool, str]:
    """(whether ``tail`` may follow a final answer, a unit phrase it starts with).

    Allowed: whitespace, sentence punctuation except ``!`` (a factorial is not
    punctuation), closing math delimiters and brackets, ``**``, ``\\end{align*}``, a unit
    phrase (``square centimeters``, ``\\pmod{11}``) and the sign-offs "is our answer" /
    "I hope it is correct". Anything else is text after the final answer."""
    if len(tail) > MAX_TAIL_CHARS:
        return False, ""
    m = _tail_re().fullmatch(tail)
    if not m:
        return False, ""
    return True, (m.group("unit") or "").strip()


_TURN_START_RE = re.compile(r"<\|im_start\|>\s*(?:user|assistant|system)?\s*$")


def strip_end(text: str, eos_markers: tuple[str, ...] = EOS_MARKERS) -> str:
    """``strip_eos`` plus a chat template's next-turn opener (``<|im_start|>user``) that a
    decoder without the right stop token writes after its answer."""
    while True:
        text = strip_eos(text, eos_markers)
        m = _TURN_START_RE.search(text)
        if not m:
            return text
        text = text[: m.start()]


def final_section(completion: str) -> tuple[str | None, str, str]:
    """(the text after the reasoning, the whole completion without end markers, why
    there is none). A ``<think>`` never closed, or opened again after the last
    ``</think>``, leaves no final section: whatever it contains is thinking."""
    text = strip_end(completion)
    close = text.rfind(THINK_CLOSE)
    if close >= 0:
        body = text[close + len(THINK_CLOSE):]
        if THINK_OPEN in body:
            return None, text, "a <think> opened after the last </think> is never closed: no answer"
        return body, text, ""
    if THINK_OPEN in text:
        return None, text, "unterminated <think>: everything after it is reasoning, no answer"
    return text, text, ""


_PHRASE_RE = re.compile(r"(?i)\b(?:final\s+)?answer\s*(?:is\b\s*:?|:)")
_ANSWER_LINE_RE = re.compile(r"(?im)^[ \t>#*]*answer\b[ \t*]*(?=\$|\\\(|\\\[)")
_HASH_MARK_RE = re.compile(r"####")
_BOX_GAP_RE = re.compile(
    r"(?is)(?:\s|,|;|\$|\\\(|\\\)|\\\[|\\\]|\\quad|\\qquad|\\[,; ]|\band\b|\bor\b|\*\*"
    r"|\\text\s*\{\s*,?\s*(?:and|or)\s*\}|&|\\\\)*")


_ADVERB_START_RE = re.compile(r"(?:Therefore|Thus|Hence|So)\b")


def sentence_end(region: str, newline_only: bool = False, start: int = 0) -> int:
    """Where the first sentence of ``region`` ends: a newline, ``.``/``?`` followed by
    space, or the space before a capitalised Therefore / Thus / Hence / So, outside
    ``$…$`` / ``\\(…\\)`` / ``\\[…\\]`` and braces. Linear scan."""
    math = depth = 0
    i, n = start, len(region)
    while i < n:
        ch = region[i]
        if ch == "\\" and i + 1 < n:
            nxt = region[i + 1]
            if nxt in "([":
                math += 1
            elif nxt in ")]" and math:
                math -= 1
            i += 2
            continue
        if ch == "$":
            if region.startswith("$$", i):
                i += 1
            math = 0 if math else 1
        elif ch == "{":
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
        elif not math and not depth:
            if ch == "\n":
                return i - start
            if (not newline_only and ch in "TSH" and i > start and region[i - 1] == " "
                    and _ADVERB_START_RE.match(region, i)):
                return i - 1 - start  # "... = 2/3 Therefore, ...": a new sentence without a full stop
            if not newline_only and ch in ".?" and (i + 1 == n or region[i + 1].isspace()):
                return i - start
        i += 1
    return n - start


def sentence_breaks(text: str) -> list[int]:
    """Every sentence end of ``text`` (see ``sentence_end``), in one linear pass."""
    out, pos = [], 0
    while pos < len(text):
        end = pos + sentence_end(text, start=pos)
        if end >= len(text):
            break
        out.append(end)
        pos = end + 1
    return out


def last_sentence_start(text: str) -> int:
    """Start of the last sentence of ``text`` (see ``sentence_end``)."""
    start, pos = 0, 0
    while pos < len(text):
        end = sentence_end(text, start=pos)
        if pos + end >= len(text) or not text[pos + end + 1:].strip():
            break
        start = pos = pos + end + 1
    return start


_SIGN_OFF_END_RE = re.compile(rf"(?is)[\s,.;:]*{SIGN_OFF}[\s.!]*$")


def strip_sign_off(text: str) -> str:
    """``text`` without a final "I hope it is correct." / "is our answer."."""
    head, tail = text[:-200], text[-200:]
    return head + _SIGN_OFF_END_RE.sub("", tail)


@dataclass(frozen=True)
class Located:
    """Where the final answer is. ``value`` is its text (None: refused, with ``reason``
    from ``answer_grammar.REASONS`` and a ``detail``); ``source`` is the marker (tag,
    boxed, phrase, hash) or ``unmarked`` (then ``value`` is the whole final section, and
    the caller decides whether it is a lone value); ``competitors`` are the values of the
    other final-answer markers of the final section, which must agree with it."""

    value: str | None
    reason: str = ""
    detail: str = ""
    source: str = ""
    competitors: tuple[str, ...] = ()


def _phrase_markers(body: str) -> list[tuple[int, int]]:
    marks = [(m.start(), m.end()) for m in _PHRASE_RE.finditer(body)]
    marks += [(m.start(), m.end()) for m in _ANSWER_LINE_RE.finditer(body)]
    return sorted(set(marks))


def locate(completion: str, markers: tuple[str, ...] = ("boxed", "answer_is", "hash"),
           unmarked: bool = True, require_end: bool = True) -> Located:
    """The final answer of a completion (see docs/verifiers.md, "Where the final answer is").

    1. The reasoning goes: the text after the last ``</think>`` (none when a ``<think>`` is
       never closed). 2. An ``<answer>`` tag: exactly one, ending the completion. 3. Else the
       last final-answer marker of the final section (``markers``: a run of ``\\boxed{}``
       joined by list separators, "answer is" / "Answer:", ``####``); only closing
       punctuation, a unit phrase or a sign-off may follow it, for every marker. 4. Else, if
       ``unmarked``, the whole final section, for the caller to read as a lone value.
    ``require_end=False`` lets text follow a marker (not the tag): only for callers that
    accept the padding hack knowingly.
    """
    body, text, why = final_section(completion)
    if body is None:
        return Located(None, "no_answer", why)
    tagged = answer_tag(text)
    if tagged is not None:
        if tagged.text is None:
            reason = "trailing_text" if "follows" in tagged.reason else "no_answer"
            return Located(None, reason, tagged.reason)
        if not tagged.text:
            return Located(None, "no_answer", "empty <answer> tag")
        return Located(tagged.text, source="tag")
    for kind in markers:
        if kind not in FALLBACKS:
            raise KeyError(f"unknown answer marker {kind!r}; valid: {sorted(FALLBACKS)}")
    boxes = boxed_spans(body) if "boxed" in markers else []
    phrases = _phrase_markers(body) if "answer_is" in markers else []
    hashes = [(m.start(), m.end()) for m in _HASH_MARK_RE.finditer(body)] if "hash" in markers else []
    starts = [(s, "boxed", j) for j, (s, _, _) in enumerate(boxes)]
    starts += [(s, "phrase", j) for j, (s, _) in enumerate(phrases)]
    starts += [(s, "hash", j) for j, (s, _) in enumerate(hashes)]
    if not starts:
        if not unmarked:
            return Located(None, "no_answer", f"no <answer> tag and no final answer marker ({', '.join(markers)})")
        value = body.strip()
        if not value:
            return Located(None, "no_answer", "empty completion after the reasoning")
        return Located(value, source="unmarked")
    if len(starts) > MAX_MARKERS:
        return Located(None, "several_answers", f"{len(starts)} final-answer markers (at most {MAX_MARKERS})")
    # the values of every marker: boxes hold their content; a phrase or #### its first sentence
    values: dict[tuple[str, int], tuple[int, int, str]] = {}
    box_starts = [b[0] for b in boxes]
    for j, (s, e, content) in enumerate(boxes):
        values[("boxed", j)] = (s, e, content)
    breaks = {"phrase": sentence_breaks(body) if phrases else [],
              "hash": [m.start() for m in re.finditer("\n", body)] if hashes else []}
    for kind, spans in (("phrase", phrases), ("hash", hashes)):
        for j, (s, e) in enumerate(spans):
            k = bisect.bisect_left(breaks[kind], e)
            end = breaks[kind][k] if k < len(breaks[kind]) else len(body)
            k = bisect.bisect_left(box_starts, e)
            cut_at_box = k < len(boxes) and box_starts[k] < end
            if cut_at_box:
                end = boxes[k][1]  # "the answer is $\boxed{5}$": the phrase ends with its box
            content = body[e: min(end, e + MAX_VALUE_CHARS)]
            if cut_at_box and len(re.findall(r"(?<!\\)\$", content)) % 2:
                content += "$"
            values[(kind, j)] = (s, end, content)
    final_start, final_kind, final_j = max(starts)
    if final_kind == "boxed":
        run = [final_j]
        while run[0] > 0:
            prev_end, this_start = boxes[run[0] - 1][1], boxes[run[0]][0]
            gap = body[prev_end:this_start]
            if len(gap) > 100 or not _BOX_GAP_RE.fullmatch(gap):
                break
            run.insert(0, run[0] - 1)
        value = ", ".join(f"\\boxed{{{boxes[j][2]}}}" for j in run)  # kept boxed: math, not plain text
        end = boxes[final_j][1]
        taken = {("boxed", j) for j in run}
    else:
        _, end, value = values[(final_kind, final_j)]
        taken = {(final_kind, final_j)}
    ok, unit = read_tail(body[end:])
    if not ok and require_end:
        shown = body[end:].strip()[:80]
        return Located(None, "trailing_text",
                       f"text follows the final answer: {shown!r}; the answer must end the completion")
    if unit:
        value = f"{value} \\text{{ {unit}}}" if not unit.startswith("\\pmod") else f"{value} {unit}"
    value = strip_sign_off(value).strip()
    lead_start = boxes[run[0]][0] if final_kind == "boxed" else final_start
    negation = _lead_in_negation(body, lead_start) if final_kind != "hash" else ""
    if negation:
        return Located(None, "relation", f"a negation ({negation!r}) leads into the final answer")
    competitors = []
    for key, (_, _, content) in values.items():
        if key not in taken:  # a phrase holding a box ("the answer is $\boxed{5}$") is read whole
            competitors.append(strip_sign_off(content).strip())
    return Located(value, source=final_kind, competitors=tuple(c for c in competitors if c))


_CLAUSE_BREAK_RE = re.compile(r"[.!?\n,;](?=[^.!?\n,;]*$)")
_NEGATION_RE = re.compile(r"(?i)\b(?:not|never|neither|nor|cannot)\b|n't\b")


def _lead_in_negation(body: str, start: int) -> str:
    """A negation particle in the clause that leads into the final marker ("The answer is
    not \\boxed{5}", "It is not true that the answer is 5", "Definitely not: \\boxed{5}").
    The clause runs back to the previous . ! ? , ; or newline (at most 200 characters)."""
    window = body[max(0, start - 200): start]
    m = _CLAUSE_BREAK_RE.search(window)
    clause = window[m.end():] if m else window
    found = _NEGATION_RE.search(clause)
    return found.group(0) if found else ""
