"""The first step of answer reading: the final section of a completion, and the answer
tag (docs/verifiers.md, "Where the final answer is", steps 0-2).

- ``final_section``: the text after the last ``</think>`` (none when a ``<think>`` is never
  closed, or opened again after it), without end-of-sequence markers.
- ``answer_tag``: the content of the one ``<answer>…</answer>`` that ends the text.
- ``strip_eos`` / ``strip_end`` / ``strip_sign_off``: what may close a completion.
- ``Located``: where the final answer is (or why there is none), the result of ``locate``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
    if n_open == 1 and n_close == 0:
        content = strip_eos(text[text.find(open_tag) + len(open_tag):], eos_markers)
        if _closed_box(content):
            return Extracted(content, source="tag")
    if n_open != 1 or n_close != 1:
        return Extracted(None, f"expected exactly one {open_tag}…{close_tag}, found {n_open} opening and "
                               f"{n_close} closing tags")
    start, end = text.find(open_tag), text.find(close_tag)
    if end < start:
        return Extracted(None, f"{close_tag} comes before {open_tag}")
    if strip_eos(text[end + len(close_tag):], eos_markers):
        return Extracted(None, f"text follows {close_tag}: the answer must end the completion")
    return Extracted(text[start + len(open_tag): end].strip(), source="tag")


_BOX_OPEN_RE = re.compile(r"\s*(?:\$\$?|\\\(|\\\[)?\s*\\boxed\s*\{")
_BOX_CLOSE_RE = re.compile(r"\s*(?:\$\$?|\\\)|\\\])?\s*\.?\s*")


def _closed_box(content: str) -> bool:
    """Whether the text after an answer tag that was never closed is one ``\\boxed{…}`` whose braces
    close, with nothing after it but its math delimiter: generation stopped at the closing tag (a stop
    sequence consumes it), and the box shows the answer was written whole. A bare value there may
    have been cut off mid-number, and stays refused."""
    m = _BOX_OPEN_RE.match(content)
    if m is None:
        return False
    depth, i = 1, m.end()
    while i < len(content) and depth:
        ch = content[i]
        if ch == "\\":
            i += 2
            continue
        depth += (ch == "{") - (ch == "}")
        i += 1
    return depth == 0 and _BOX_CLOSE_RE.fullmatch(content, i) is not None


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


# ------------------------------------------------------------- the final answer

SIGN_OFF = (r"(?:i\s+hope\s+(?:it|this|that)\s+(?:is|was)\s+(?:correct|right|helpful)!?"
            r"|i\s+hope\s+(?:it|this|that)\s+helps!?"
            r"|let\s+me\s+know\s+if\s+you\s+have\s+any\s+(?:other\s+|more\s+|further\s+)?questions!?"
            r"|(?:is|are)\s+(?:our|the|my)\s+(?:final\s+)?(?:answer|solution)s?)")
_TURN_START_RE = re.compile(r"<\|im_start\|>\s*(?:user|assistant|system)?\s*$")
# a chat template's special tokens left inside the text: the turn ended there
_TURN_MARK_RE = re.compile(r"<\|[A-Za-z0-9_]+\|>|<\uff5c[^<>\uff5c]{1,40}\uff5c>|<(?:start|end)_of_turn>|\[/?INST\]")
_OTHER_BOX_RE = re.compile(
    r"\\(?:framebox(?=\s*\[)|colorbox|fcolorbox|bbox|ovalbox|Ovalbox|doublebox|shadowbox|boxed\*)(?![A-Za-z])")


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


_SIGN_OFF_END_RE = re.compile(rf"(?is)[\s,.;:]*{SIGN_OFF}[\s.!]*$")


# a closing question to the reader that offers more help and names no value ("Is there anything else I can help you
# with?", "Do you have other questions for me?"): it asks, it states and takes back nothing
_OFFER_END_RE = re.compile(r"(?is)(?:(?<=[.!?])|(?<=\n)|^)[ \t\n]*(?:is|are|do|does|can|could|would|will|shall|may)\s"
                           r"[^?\d$\\\n]{0,100}?\byou\b[^?\d$\\\n]{0,60}\?\s*$")
MAX_SIGN_OFFS = 3


def strip_sign_off(text: str) -> str:
    """``text`` without its final sign-offs ("I hope it is correct." / "is our answer." / "I
    hope this helps! Let me know if you have any other questions." / "Is there anything else
    I can help you with?")."""
    for _ in range(MAX_SIGN_OFFS):
        head, tail = text[:-200], text[-200:]
        cut = _OFFER_END_RE.sub("", _SIGN_OFF_END_RE.sub("", tail))
        if cut == tail:
            break
        text = head + cut
    return text


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
    noun: str = ""  # the noun the final value counts, not a unit of the tables: "students", "quarts"
    in_order: bool = False  # boxes labelled as parts ("for part (a) and"): their list is compared item by item
