"""Final-answer extraction shared by the exact and math verifiers: WHERE the final answer
is (what it may contain is ``answer_grammar``).

- ``locate``: the final answer of a completion. The reasoning goes first (the text after
  the last ``</think>``; a ``<think>`` never closed leaves no answer, whatever tag or box
  it contains). Then the single ``<answer>…</answer>`` tag, which must END the completion
  (only whitespace and an end-of-sequence marker may follow); else the last final-answer
  marker (a run of ``\\boxed{}`` joined by list separators, "the answer is" / "Answer:",
  ``####``), which must end the completion too: only closing punctuation (not ``!``, a
  factorial), closing delimiters, a unit phrase, "I hope it is correct" / "is our answer"
  or a chat template's next-turn opener may follow (after a box, also the counted noun
  phrase that ends its sentence: ``box_sentence_end``). The other markers of the final
  section are returned as competitors, which the caller must find equal to the final
  answer. A negation, a hedge or a word of falsity in the clause that leads into the final
  marker refuses it (``lead_in_words``); what leads into a final box is checked
  (``box_context``): it may not be an operand, the word before it must introduce it, and
  a relation right before it is returned as ``Located.lead`` to be read with the box.
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

from rlvr.verifiers.answer_grammar import FUNCTIONS, UNIT_WORDS, Refusal, parse_answer
from rlvr.verifiers.screen import screen

ANSWER_OPEN = "<answer>"
ANSWER_CLOSE = "</answer>"
THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"

# End-of-sequence markers a decoder may leave in the text; allowed after the answer.
EOS_MARKERS: tuple[str, ...] = ("<|endoftext|>", "<|im_end|>", "<|eot_id|>", "</s>", "<eos>",
                                "<\uff5cend\u2581of\u2581sentence\uff5c>")


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
    variants = _tag_variants(text, open_tag, n_open + n_close)
    if n_open == 0 and n_close == 0 and not variants:
        return None
    if variants:
        return Extracted(None, f"an answer tag written another way ({variants!r}): one {open_tag}…{close_tag} only")
    if n_open != 1 or n_close != 1:
        return Extracted(None, f"expected exactly one {open_tag}…{close_tag}, found {n_open} opening and "
                               f"{n_close} closing tags")
    start, end = text.find(open_tag), text.find(close_tag)
    if end < start:
        return Extracted(None, f"{close_tag} comes before {open_tag}")
    if strip_eos(text[end + len(close_tag):], eos_markers):
        return Extracted(None, f"text follows {close_tag}: the answer must end the completion")
    return Extracted(text[start + len(open_tag): end].strip(), source="tag")


def _tag_variants(text: str, open_tag: str, exact: int) -> str:
    """The first tag with the answer tag's name written another way (``<ANSWER>``,
    ``<answer id=1>``, ``</answer >``): "" when every such tag is spelled exactly."""
    name = re.fullmatch(r"<(\w+)>", open_tag)
    if name is None or text.lower().count(name.group(1).lower()) <= exact:
        return ""  # fast path: no other spelling of the name at all
    pattern = re.compile(rf"(?i)<\s*/?\s*{re.escape(name.group(1))}\b[^<>]*>")
    return next((m.group(0) for m in pattern.finditer(text)
                 if m.group(0) not in (open_tag, open_tag[:1] + "/" + open_tag[1:])), "")


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
    words = "|".join(sorted(UNIT_WORDS, key=len, reverse=True))
    return rf"(?:\\pmod\s*\{{\s*\d+\s*\}}|(?:{words})\b(?:\s+(?:{words})\b)*)"


_TAIL_RE: re.Pattern[str] | None = None


def _tail_re() -> re.Pattern[str]:
    global _TAIL_RE
    if _TAIL_RE is None:
        _TAIL_RE = re.compile(rf"(?is)(?:{_TAIL_ATOM})*(?P<unit>{_unit_phrase()})?(?:{_TAIL_ATOM})*")
    return _TAIL_RE


_ELLIPSIS_RE = re.compile(r"\.[ \t]*\.|\u2026")


def read_tail(tail: str) -> tuple[bool, str]:
    """(whether ``tail`` may follow a final answer, a unit phrase it starts with).

    Allowed: whitespace, sentence punctuation except ``!`` (a factorial is not
    punctuation) and an ellipsis, closing math delimiters and brackets, ``**``, ``\\end{align*}``, a unit
    phrase (``square centimeters``, ``\\pmod{11}``) and the sign-offs "is our answer" /
    "I hope it is correct". Anything else is text after the final answer."""
    if len(tail) > MAX_TAIL_CHARS or _ELLIPSIS_RE.search(tail):
        return False, ""  # an ellipsis trails off ("\\boxed{10}..."): not closing punctuation
    m = _tail_re().fullmatch(tail)
    if not m:
        return False, ""
    return True, (m.group("unit") or "").strip()


_TURN_START_RE = re.compile(r"<\|im_start\|>\s*(?:user|assistant|system)?\s*$")
# a chat template's special tokens left inside the text: the turn ended there
_TURN_MARK_RE = re.compile(r"<\|[A-Za-z0-9_]+\|>|<\uff5c[^<>\uff5c]{1,40}\uff5c>|<(?:start|end)_of_turn>|\[/?INST\]")
_OTHER_BOX_RE = re.compile(
    r"\\(?:framebox|colorbox|fcolorbox|bbox|ovalbox|Ovalbox|doublebox|shadowbox|boxed\*)(?![A-Za-z])")


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
_ANSWER_HEADING_RE = re.compile(r"(?im)^[ \t>#*]*(?:final\s+)?answer[ \t*:]*\n\s*(?=\S)")
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
    other final-answer markers of the final section, which must agree with it; ``lead`` is
    the relation that leads into a final box from outside it (``$x > \\boxed{10}$`` gives
    ``x >``), which the caller reads together with the box."""

    value: str | None
    reason: str = ""
    detail: str = ""
    source: str = ""
    competitors: tuple[str, ...] = ()
    lead: str = ""  # a relation written right before the final box, outside it: "x >", "37 + 45 ="


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
       punctuation, a unit phrase or a sign-off may follow it, for every marker (a box may
       also be followed by the counted-noun phrase that ends its sentence: "2 distinct
       values for $B$"); what leads into it is checked (``box_context``, ``lead_in_words``).
       4. Else, if ``unmarked``, the whole final section, for the caller to read.
    ``require_end=False`` lets text follow a marker (not the tag): only for callers that
    accept the padding hack knowingly.
    """
    for kind in markers:
        if kind not in FALLBACKS:
            raise KeyError(f"unknown answer marker {kind!r}; valid: {sorted(FALLBACKS)}")
    body, text, why = final_section(completion)
    if body is None:
        return Located(None, "no_answer", why)
    unread = screen(body)
    if unread:
        return Located(None, "unparsed", f"{unread}: it is not read the way it is displayed")
    other_box = _OTHER_BOX_RE.search(body)
    if other_box:
        return Located(None, "unparsed", f"{other_box.group(0)} boxes a value the verifier does not read as an answer "
                                         "(\\boxed{} and \\fbox{} only)")
    turn = _TURN_MARK_RE.search(text)
    turn_end = turn.group(0) if turn else next((m for m in EOS_MARKERS if m in text), None)
    if turn_end is not None:
        return Located(None, "trailing_text", f"{turn_end} inside the completion: the turn ended there, what follows "
                                              "it is not this turn's answer")
    tagged = answer_tag(text)
    if tagged is not None:
        if tagged.text is None:
            reason = "trailing_text" if "follows" in tagged.reason else "no_answer"
            return Located(None, reason, tagged.reason)
        if not tagged.text:
            return Located(None, "no_answer", "empty <answer> tag")
        return _tagged(body, tagged.text, markers)
    found = _Markers(body, markers)
    if not found.starts:
        if not unmarked:
            return Located(None, "no_answer", f"no <answer> tag and no final answer marker ({', '.join(markers)})")
        value = body.strip()
        if not value:
            return Located(None, "no_answer", "empty completion after the reasoning")
        return Located(value, source="unmarked")
    if len(found.starts) > MAX_MARKERS:
        return Located(None, "several_answers", f"{len(found.starts)} final-answer markers (at most {MAX_MARKERS})")
    return _final_marker(body, found, require_end)


def _tagged(body: str, value: str, markers: tuple[str, ...]) -> Located:
    """The ``<answer>`` tag is checked like a final box: what leads into it (a negation or
    a hedge, a relation, a word that does not introduce it: ``It is not <answer>10</answer>``,
    ``x > <answer>10</answer>``), and every other final-answer marker of the final section
    before it is a competitor that must agree (``\\boxed{11}\n<answer>10</answer>``)."""
    start = body.rfind(ANSWER_OPEN)
    if start < 0:
        return Located(value, source="tag")
    refusal = lead_in_words(body, start)
    if refusal is not None:
        return refusal
    head = body[:start]
    lead = box_context(body, start, math_spans(head), "")
    if isinstance(lead, Located):
        return lead
    found = _Markers(head, markers)
    if len(found.starts) > MAX_MARKERS:
        return Located(None, "several_answers", f"{len(found.starts)} final-answer markers (at most {MAX_MARKERS})")
    taken = _phrases_into(head, found, start)
    competitors = [strip_sign_off(_competitor(head, found, key, content)).strip()
                   for key, (_, _, content) in found.values.items() if key not in taken]
    return Located(value, source="tag", competitors=tuple(c for c in competitors if c), lead=lead)


class _Markers:
    """Every final-answer marker of a final section and the text each one holds: a box its
    content, a phrase or ``####`` its first sentence (a phrase that holds a box is read up
    to that box)."""

    def __init__(self, body: str, markers: tuple[str, ...]) -> None:
        self.body = body
        self.boxes = boxed_spans(body) if "boxed" in markers else []
        self.phrases = _phrase_markers(body) if "answer_is" in markers else []
        self.hashes = [(m.start(), m.end()) for m in _HASH_MARK_RE.finditer(body)] if "hash" in markers else []
        if "answer_is" in markers:  # a heading "**Final Answer**" alone on its line: its value is the next line
            self.hashes = sorted(self.hashes + [(m.start(), m.end()) for m in _ANSWER_HEADING_RE.finditer(body)])
        self.starts = [(s, "boxed", j) for j, (s, _, _) in enumerate(self.boxes)]
        self.starts += [(s, "phrase", j) for j, (s, _) in enumerate(self.phrases)]
        self.starts += [(s, "hash", j) for j, (s, _) in enumerate(self.hashes)]
        self.values: dict[tuple[str, int], tuple[int, int, str]] = {}
        self._spans: list[tuple[int, int]] | None = None
        if len(self.starts) <= MAX_MARKERS:
            self._read_values()

    def _read_values(self) -> None:
        body, boxes = self.body, self.boxes
        box_starts = [b[0] for b in boxes]
        for j, (s, e, content) in enumerate(boxes):
            self.values[("boxed", j)] = (s, e, content)
        breaks = {"phrase": sentence_breaks(body) if self.phrases else [],
                  "hash": [m.start() for m in re.finditer("\n", body)] if self.hashes else []}
        for kind, spans in (("phrase", self.phrases), ("hash", self.hashes)):
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
                self.values[(kind, j)] = (s, end, content)

    def spans(self) -> list[tuple[int, int]]:
        if self._spans is None:
            self._spans = math_spans(self.body)
        return self._spans



def box_run(text: str, boxes: list[tuple[int, int, str]], final_j: int) -> list[int]:
    """Indices of the boxes joined to ``boxes[final_j]`` by list separators only
    (``\\boxed{1} and \\boxed{2}``), in order."""
    run = [final_j]
    while run[0] > 0:
        prev_end, this_start = boxes[run[0] - 1][1], boxes[run[0]][0]
        gap = text[prev_end:this_start]
        if len(gap) > 100 or not _BOX_GAP_RE.fullmatch(gap):
            break
        run.insert(0, run[0] - 1)
    return run


def _final_marker(body: str, found: _Markers, require_end: bool) -> Located:
    """The last marker of the final section, checked: what follows it, what leads into it,
    and the other markers it must agree with."""
    final_start, final_kind, final_j = max(found.starts)
    lead = ""
    if final_kind == "boxed":
        run = box_run(body, found.boxes, final_j)
        value = ", ".join(f"\\boxed{{{found.boxes[j][2]}}}" for j in run)  # kept boxed: math, not plain text
        end = found.boxes[final_j][1]
        taken = {("boxed", j) for j in run}
        final_start = found.boxes[run[0]][0]
    else:
        _, end, value = found.values[(final_kind, final_j)]
        taken = {(final_kind, final_j)}
    ok, unit = read_tail(body[end:])
    if not ok and final_kind == "boxed":
        ok = box_sentence_end(body[end:])
    if not ok and require_end:
        shown = body[end:].strip()[:80]
        return Located(None, "trailing_text",
                       f"text follows the final answer: {shown!r}; the answer must end the completion")
    if unit:
        value = f"{value} \\text{{ {unit}}}" if not unit.startswith("\\pmod") else f"{value} {unit}"
    value = strip_sign_off(value).strip()
    if final_kind != "hash":
        refusal = lead_in_words(body, final_start)
        if refusal is not None:
            return refusal
    if final_kind == "boxed":
        context = box_context(body, final_start, found.spans(), body[end:])
        if isinstance(context, Located):
            return context
        lead = context
    if final_kind == "boxed":
        taken |= _phrases_into(body, found, final_start)
    competitors = [strip_sign_off(_competitor(body, found, key, content)).strip()
                   for key, (_, _, content) in found.values.items() if key not in taken]
    return Located(value, source=final_kind, competitors=tuple(c for c in competitors if c), lead=lead)


def _phrases_into(body: str, found: _Markers, box_start: int) -> set[tuple[str, int]]:
    """The phrase that leads straight into the final box ("the answer is $\\textbf{\\boxed{5}}$"):
    what lies between them holds no number and no clause break, so the checks of what leads
    into the box read all of it; such a phrase is the final answer, not a competitor."""
    out = set()
    for j, (_, e) in enumerate(found.phrases):
        between = body[e:box_start]
        if e <= box_start and len(between) < 100 and not re.search(r"\d|[.!?;,](?:\s|$)|\n", between):
            out.add(("phrase", j))
    return out


def _competitor(body: str, found: _Markers, key: tuple[str, int], content: str) -> str:
    """The text another marker holds; a box with what leads into it (``x > 5``, and the
    whole clause when that lead refuses it)."""
    if key[0] != "boxed":
        return content  # a phrase holding a box ("the answer is $\boxed{5}$") is read whole
    start, end, _ = found.boxes[key[1]]
    context = box_context(body, start, found.spans(), body[end:])
    if isinstance(context, Located):
        return f"{_clause(body, start)} {content}"
    return f"{context} {content}" if context else content


# --------------------------------------------------------- the sentence of a final box

_COUNTED = ("values?|solutions?|roots?|zeros?|zeroes|integers?|numbers?|ways?|choices?|possibilit(?:y|ies)"
            "|outcomes?|arrangements?|sequences?|subsets?|permutations?|combinations?|elements?|terms?|points?"
            "|triangles?|rectangles?|paths?|functions?|polynomials?|matrices|matrix|strings?|words?|divisors?"
            "|factors?|multiples?|digits?|cases?|configurations?|colou?rings?|sides?|vertices|edges?|faces?")
_COUNTED_ADJ = ("distinct|different|possible|real|complex|positive|negative|non-?negative|non-?zero|integer|integral"
                "|rational|irrational|prime|composite|even|odd|ordered|unordered|valid|unique|whole|natural|perfect"
                "|consecutive|feasible|admissible|isosceles|equilateral|congruent|non-?congruent")
_COUNTED_RE = re.compile(_COUNTED)
_TIME_UNITS = "years?|months?|weeks?|days?|hours?|minutes?|seconds?"
_BARE_VAR = r"(?:\$\s*[A-Za-z](?:_\{?[0-9A-Za-z]\}?)?\s*\$|\\\(\s*[A-Za-z](?:_\{?[0-9A-Za-z]\}?)?\s*\\\))"
_BOX_SENTENCE_RE = re.compile(
    rf"(?i)(?:\s*(?:[$*}}]|\\\)|\\\]))*+"  # the math span and wrappers holding the box close (possessive)
    rf"(?:\s+(?:(?:{_COUNTED_ADJ})\s+)*(?:{_COUNTED})(?:\s+(?:for|of)\s+{_BARE_VAR})?(?:\s+in\s+total|\s+altogether)?"
    rf"(?:\s+after\s+\d+\s+(?:{_TIME_UNITS}))?"
    rf"|\s+after\s+\d+\s+(?:{_TIME_UNITS}))(?![A-Za-z])")


def box_sentence_end(tail: str) -> bool:
    """Whether the text after a final box is the end of its own sentence in the one closed
    form this verifier reads, then only what may follow any final answer: a counted noun
    with adjectives from closed lists, optionally "for/of $B$" (one bare letter) and "after
    N years" (``$\\boxed{2}$ distinct possible values for $B$.``, ``\\boxed{4} real roots``,
    ``worth $\\boxed{X}$ after 5 years``). Nothing else: no other number, word or math."""
    if len(tail) > MAX_TAIL_CHARS:
        return False
    m = _BOX_SENTENCE_RE.match(tail)
    return m is not None and read_tail(tail[m.end():])[0]


# ------------------------------------------------------------ what leads into a marker

_CLAUSE_BREAK_RE = re.compile(r"[.!?;,](?=\s)|\n")
# a line that does not end a clause (blank lines after it aside): it ends in a word, a relation
# or operator sign, an open bracket, or math that ends in one ("$x >$")
_CONTINUED_LINE_RE = re.compile(r"(?:[A-Za-z=<>+\-/^_(\[{]|\\(?:geq?|leq?|neq?|approx|equiv|lt|gt|times|cdot|pm))"
                                r"\s*\$?\s*$")
_MARKDOWN_START_RE = re.compile(r"[ \t]*(?:(?:[>#]+|[-*+](?=\s)|\*\*)[ \t]*)*")
_SENTENCE_BREAK_RE = re.compile(r"[.!?;](?=\s)|\n")
# negations and conditions: read in the clause that leads into the marker ("Since 14 is not
# divisible by 3, the answer is ..." and "If we add them, we get ..." are fine)
_LEAD_WORDS_RE = re.compile(
    r"(?i)\b(?:not|never|neither|nor|cannot|suppose|supposing|assume|assuming|if|unless|whether)\b|n['\u2019]t\b")
# epistemic hedges: read in the whole sentence, so a parenthetical counts ("The answer, I guess, is")
_HEDGE_WORDS_RE = re.compile(
    r"(?i)\b(?:maybe|perhaps|probably|possibly|might|unlikely|presumably|apparently|seemingly|conceivably"
    r"|hopefully|plausibly|supposedly|allegedly|arguably|tentatively|perchance|potentially|hypothetically"
    r"|guess|guessing|doubt|doubtful|unsure|uncertain|either|(?:i|we)\s+(?:think|believe|suspect|reckon))\b")
# modal verbs hedge only the verb that states the value ("It could be", "may well be", "appears
# to be"); elsewhere in the sentence they belong to the question ("the most points that could
# be in the domain is 19")
_PARENTHETICAL_RE = re.compile(r",[^,.;:!?]{1,30},")
_NEAR_HEDGE_RE = re.compile(r"(?i)\b(?:could|may|would|seems?|seemed|appears?|appeared)\b(?:\s+[A-Za-z']+){0,2}"
                            r"[^A-Za-z0-9]*$")
_FALSITY_RE = re.compile(r"(?i)\b(?:false|wrong|incorrect|untrue|impossible)\b")


def _last_match(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    last = None
    for last in pattern.finditer(text):  # noqa: B007 - the last one is wanted
        pass
    return last


def _clause(body: str, start: int, breaks: re.Pattern[str] = _CLAUSE_BREAK_RE) -> str:
    """The clause that leads into ``start``: back to the previous sentence or clause break
    (``. ! ? ; ,`` before a space, or a newline; ``breaks=_SENTENCE_BREAK_RE``: the
    sentence, without the comma), at most 200 characters; Markdown list, quote and heading
    marks at a line start are not part of it."""
    window = body[max(0, start - 200): start]
    cut, at_line_start = 0, start <= 200
    for m in reversed(list(breaks.finditer(window))):
        if m.group(0) == "\n" and _CONTINUED_LINE_RE.search(window, 0, m.start()):
            continue  # "more than\n\boxed{10}": the line runs on into the box
        cut, at_line_start = m.end(), m.group(0) == "\n"
        break
    window = window[cut:]
    if at_line_start:
        window = window[_MARKDOWN_START_RE.match(window).end():]  # type: ignore[union-attr]
    return window


def lead_in_words(body: str, start: int) -> Located | None:
    """A negation, a hedge or a word of falsity that leads into the final marker refuses
    it ("The answer is not \\boxed{5}", "Maybe the answer is 5", "It is false that the
    answer is 5", "Suppose the answer is 5", "It could be \\boxed{5}"). Negations,
    conditions and words of falsity are read in the clause (back to the previous break, see
    ``_clause``), so "Since 14 is not divisible by 3, the answer is \\boxed{12}" is fine; a
    word of falsity before a colon judges what came before ("Wait, that is wrong:
    \\boxed{10}"); epistemic hedges in the whole sentence ("The answer, I guess, is 5")."""
    sentence = _clause(body, start, _SENTENCE_BREAK_RE)
    word = qualifier(_clause(body, start), hedges=False) or near_hedge(sentence)
    if not word:
        found = _HEDGE_WORDS_RE.search(sentence)
        word = found.group(0).lower() if found else ""
    if not word:
        return None
    return Located(None, qualifier_reason(word), f"{word!r} leads into the final answer")


def qualifier(text: str, hedges: bool = True) -> str:
    """The first negation, condition, hedge (unless ``hedges=False``) or word of falsity in
    ``text`` ("" when none); a word of falsity counts only after the last colon."""
    found = (_LEAD_WORDS_RE.search(text) or (_HEDGE_WORDS_RE.search(text) if hedges else None)
             or _FALSITY_RE.search(text[text.rfind(":") + 1:]))
    return found.group(0).lower() if found else ""


def near_hedge(lead: str) -> str:
    """A modal verb among the last words before the value (``It could be``, ``may well be``,
    ``appears to be``): the word, or ""."""
    found = _NEAR_HEDGE_RE.search(_PARENTHETICAL_RE.sub(" ", lead[-160:]))  # "could, in fact, be"
    return found.group(0).split()[0].lower() if found else ""


def qualifier_reason(word: str) -> str:
    """``relation`` for a negation or a word of falsity, ``several_answers`` for a hedge."""
    word = word.replace("\u2019", "'")
    hedge = word not in ("not", "never", "neither", "nor", "cannot", "n't") and not _FALSITY_RE.fullmatch(word)
    return "several_answers" if hedge else "relation"


def math_spans(body: str) -> list[tuple[int, int]]:
    """(content start, content end) of every ``$…$``, ``$$…$$``, ``\\(…\\)``, ``\\[…\\]``, left
    to right (an unclosed one runs to the end); one linear scan."""
    spans, opener, start = [], "", 0
    for m in _MATH_DELIM_RE.finditer(body):
        token = m.group(0)
        if token == "\\$":
            continue
        if not opener:
            if token in _MATH_CLOSERS:
                opener, start = token, m.end()
        elif token == _MATH_CLOSERS[opener]:
            spans.append((start, m.start()))
            opener = ""
    if opener:
        spans.append((start, len(body)))
    return spans


_MATH_DELIM_RE = re.compile(r"\\\$|\$\$|\$|\\\(|\\\)|\\\[|\\\]")
_MATH_CLOSERS = {"$": "$", "$$": "$$", "\\(": "\\)", "\\[": "\\]"}
_SPACING_TOKENS = ("\\,", "\\;", "\\:", "\\!", "\\ ", "\\quad", "\\qquad", "\\displaystyle")
_WRAPPER_OPEN_RE = re.compile(r"(?:\\(?:textbf|mathbf|boldsymbol|bm|fbox)|\\(?:text)?color\s*\{[^{}]*\})\s*$")
_LEAD_OP_RE = re.compile(
    r"(?P<op><=|>=|!=|=|<|>|≤|≥|≠|≈|∈|\\not\s*(?:=|<|>|\\[A-Za-z]+)|\\(?:approx|equiv|in|notin|leq?|geq?|neq?|lt|gt|leqslant"
    r"|geqslant|sim|simeq|subset|subseteq|supset|supseteq|propto|mid|to)(?![A-Za-z]))$")
_NEUTRAL_END_RE = re.compile(r"(?:&|\\\\|\\Rightarrow|\\implies|\\Longrightarrow|\\therefore|\\iff|:)$")
_SIDE_BREAK_RE = re.compile(r"<=|>=|!=|=|<|>|&|\\\\|\\(?:approx|equiv|leq?|geq?|neq?|lt|gt|Rightarrow|implies)"
                            r"(?![A-Za-z])")
MAX_LEAD_CHARS = 1000  # of the math span before a box that is read


def box_context(body: str, start: int, spans: list[tuple[int, int]], after: str) -> str | Located:
    """What leads into a final box from outside it (docs/verifiers.md): the relation it
    completes (returned: ``"x >"``, ``"37 + 45 ="``, for the caller to read with the box),
    ``""`` when the box stands alone, or a refusal: a box that is an operand (``$-\\boxed{10}$``,
    ``$\\sqrt{\\boxed{100}}$``, ``$2\\boxed{5}$``), a value before it (``$10, \\boxed{11}$``), a
    congruence without ``\\pmod``, or a word before it that is not an introducing word
    (``more than \\boxed{10}``, ``a multiple of \\boxed{10}``)."""
    k = bisect.bisect_right(spans, (start, len(body) + 1)) - 1
    in_math = k >= 0 and spans[k][0] <= start <= spans[k][1]
    head = body[max(spans[k][0], start - MAX_LEAD_CHARS): start] if in_math else _clause(body, start)
    head = _without_wrapper_openers(head[:-1] if head.endswith("\\") else head)  # "\\boxed" written doubled
    if head is None:
        return Located(None, "unparsed", "the final box is inside a bracket or a group of an expression")
    head = _strip_spacing_end(head)
    if not in_math:
        return _lead_of(head, after, False)
    opener_at = spans[k][0] - (2 if body[spans[k][0] - 2: spans[k][0]] in ("$$", "\\(", "\\[") else 1)
    if not head:
        return box_context(body, opener_at, [], after)  # the prose before the span leads into the box
    lead = _lead_of(head, after, True)
    prose = _clause(body, opener_at).rstrip()
    if isinstance(lead, str) and re.search(r"[A-Za-z]$", prose):
        return lead_word(prose) or lead  # "It is at least $x = \boxed{10}$"
    return lead


def _strip_spacing_end(head: str) -> str:
    """``head`` without the spaces, spacing commands and ``*`` it ends with (linear)."""
    while True:
        end = len(head)
        while end and (head[end - 1].isspace() or head[end - 1] in "*~"):  # any space, NBSP too
            end -= 1
        head = head[:end]
        for token in _SPACING_TOKENS:
            if head.endswith(token) and not head.endswith("\\" + token):
                head = head[: -len(token)]
                break
        else:
            return head


def _without_wrapper_openers(head: str) -> str | None:
    """``head`` without the openers of wrappers still open at its end (``\\textbf{``,
    ``\\color{red}{``, ``{\\color{red}``); None when another bracket is still open there."""
    stack: list[int] = []
    i = 0
    while i < len(head):
        ch = head[i]
        if ch == "\\":
            i += 2
            continue
        if ch in "{([":
            stack.append(i)
        elif ch in "})]" and stack:
            stack.pop()
        i += 1
    for pos in reversed(stack):
        cmd = _WRAPPER_OPEN_RE.search(head, 0, pos)
        if head[pos] == "{" and cmd is not None:
            head = head[: cmd.start()] + head[pos + 1:]
        elif head[pos] == "{" and head[pos + 1:].lstrip().startswith("\\color"):
            head = head[:pos] + head[pos + 1:]
        else:
            return None
    return re.sub(r"\\color\s*\{[^{}]*\}", "", head)


def _lead_of(head: str, after: str, in_math: bool) -> str | Located:
    if not head:
        return ""
    op = _LEAD_OP_RE.search(head)
    if op is not None:
        return _relation_lead(head[: op.start()], op.group("op"), after, in_math)
    if _NEUTRAL_END_RE.search(head):
        return ""
    text = re.search(r"\\text[a-z]*\s*\{([^{}]*)\}$", head) if in_math else None
    if text is not None:
        return lead_word(text.group(1)) or ""
    if not in_math and re.search(r"[A-Za-z]$", head) and not re.search(r"\\[A-Za-z]+$", head):
        return lead_word(head) or ""
    if not in_math and head.endswith("$"):
        return Located(None, "unparsed", f"math right before the final box: {head[-30:]!r}")
    if head.endswith((",", ";")):
        return Located(None, "several_answers", f"a value before the final box: {head[-30:]!r}")
    return Located(None, "unparsed", f"the final box is an operand: {head[-30:]!r} comes right before it")


def _relation_lead(before: str, op: str, after: str, in_math: bool) -> str | Located:
    """The side of the relation that ends right before a final box, with its operator."""
    op = _UNICODE_RELATIONS.get(op, " ".join(op.split()))
    if op == "\\approx":
        return ""  # the box is the stated approximation, graded by the decimal rule
    if op == "\\equiv" and not after.lstrip(" }$").startswith("\\pmod"):
        return Located(None, "relation", "a congruence with no \\pmod{N} after the final box")
    cut = _last_match(_SIDE_BREAK_RE, before)
    side = before[cut.end():] if cut else before
    if not in_math:
        words = side.split()
        n = 0
        while n < len(words) and re.fullmatch(r"[A-Za-z']{2,}[,:]?", words[n]) and words[n].lower() not in FUNCTIONS:
            n += 1  # prose before the side: "So 2 + 3 = \boxed{5}"
        prose, side = " ".join(words[:n]), " ".join(words[n:])
        if prose and cut is None:
            refused = lead_word(prose)
            if refused is not None:
                return refused
    side = side.strip()
    parsed = parse_answer(side) if side else None
    if parsed is None or isinstance(parsed, Refusal) or parsed.latex.startswith("\\text"):
        # "\text{Area} = \boxed{5}", "A \equiv \boxed{5} \pmod{7}": the box; "> \boxed{10}": refused with the box
        return "" if op in ("=", "\\equiv") else op
    return f"{side} {op}"


_UNICODE_RELATIONS = {"≤": "\\leq", "≥": "\\geq", "≠": "\\neq", "≈": "\\approx", "∈": "\\in"}


_INTRODUCERS = frozenset("""
is are was were be been being 's equals equaling gives give gave giving yields yield yielded yielding get gets got
getting obtain obtains obtained obtaining find finds found have has had having becomes become became remains remain
makes make making leaves leave leaving worth answer answers result results solution solutions value values total
then so thus therefore hence finally conclude concludes concluded that namely here now simply just exactly
precisely indeed clearly also still approximately about roughly around overall altogether we conclusion summary
""".split())
_INTRODUCER_AFTER = {
    "to": frozenset("equal equals amounts amount comes come simplifies simplify simplified reduces reduce reduced "
                    "evaluates evaluate rounds rounded round converges corresponds correspond equivalent".split()),
    "by": frozenset("given denoted represented defined".split()),
    "in": frozenset("results result resulting resulted".split()),
    "with": frozenset("up left".split()),
    "at": frozenset("arrive arrives arrived arriving".split()),
    "as": frozenset("written write writes expressed express expresses rewritten simplified given".split()),
}
# "NOUN of \boxed{v}" names v unless the noun is a function of it ("a multiple of 10")
_OF_FUNCTIONS = frozenset("""
multiple multiples factor factors divisor divisors half third thirds quarter quarters fraction fractions percent
percentage square cube root roots power powers reciprocal inverse negative opposite complement double twice triple
sum product difference ratio log logarithm exponent part portion share most least instead outside out because
ahead short none any some each all one two three four five six seven eight nine ten hundred thousand million dozen
several many few
""".split())
_RELATION_LEADS = frozenset("""
than least most over under above below exceeds exceed exceeding beyond within between except besides near less more
greater fewer smaller larger bigger higher lower much many
""".split())


def lead_word(prose: str) -> Located | None:
    """The word right before a final box (or the math that holds it) must introduce it:
    a copula or a verb of finding (is, are, equals, gives, we get, find, …), an adverb
    (therefore, exactly, approximately, …), a noun of the counted list ("the roots"), "of"
    after a word that names the value ("a total of"), "equal to", "given by", a colon; else
    the box is refused ("more than", "at least", "a multiple of", "divisible by", "twice",
    "or"), and so is a relation word just before the introducing one ("less then")."""
    words = re.findall(r"[A-Za-z0-9]+(?:'[a-z]+)?", prose[-80:].replace("\u2019", "'"))  # it’s, isn’t
    if not words or prose.rstrip(" *\"").endswith(":"):
        return None
    last = words[-1].lower()
    before = words[-2].lower() if len(words) > 1 else ""
    if before in _RELATION_LEADS:
        return Located(None, "relation", f"{' '.join(words[-2:])!r} leads into the final box")
    if last in _INTRODUCERS or last.endswith("'s") or _COUNTED_RE.fullmatch(last):
        return None  # "the answer is", "we get", "it's", "the roots \boxed{1} and \boxed{2}"
    if last == "of" and before.isalpha() and before not in _OF_FUNCTIONS:
        return None
    if before in _INTRODUCER_AFTER.get(last, ()):
        return None
    if last in _RELATION_LEADS:
        reason = "relation"
    elif last in ("or", "and", "either", "maybe", "perhaps", "probably", "possibly"):
        reason = "several_answers"
    else:
        reason = "unparsed"
    return Located(None, reason, f"{' '.join(words[-2:])!r} leads into the final box: not an introducing word")
