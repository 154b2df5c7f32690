"""Answer forms read as structure, before the markers are found (``locate``):

- a **JSON object** that ends the completion (bare or in a ```` ```json ```` fence) with one
  key naming the answer (``"answer"``, ``"final_answer"``, any case) and no other key naming
  an answer, result, value or alternative: its value (a string or a number) is the final
  answer, as an ``<answer>`` tag would hold it; the object's other string fields stay in the
  text (before the rest, so that "the final answer is:" before the object leads into its
  answer), where their markers compete with it (``{"reasoning": "... \\boxed{41}", "answer": 42}``
  is two answers);
- an ``<answer>`` tag **mentioned in passing** ("I will put the result in <answer> tags", an
  opening tag with no content of its own before the final ``<answer>…</answer>``, or a pair
  named with nothing between: "<answer> and </answer>") is prose,
  not a second tag; a complete earlier pair with content is still a second answer;
- a **program and the output it printed**, ending the completion (tool-integrated answers:
  a ```` ```python ```` fence, then an ```` ```output ```` fence right after it): an output of
  one line is the value the program computed, the completion's final answer, as an
  ``<answer>`` tag would hold it (markers before it compete with it); an output of several
  lines, an empty one, or prose after it is left as it is (no answer is read from it);
- the **thought and solution tokens** of a reasoning transcript (``<|begin_of_thought|>`` …
  ``<|end_of_thought|>`` ``<|begin_of_solution|>`` … ``<|end_of_solution|>``, once each and in
  order) are its ``<think>`` section and its answer; a thought never ended is all thinking;
- a **block in triple quotes** that ends the completion (``>> FINAL ANSWER:\n\"\"\"\n16\n\"\"\"``)
  is read without its quotes, as the marker's value;
- a **tag that names the answer another way** (``<solution>…</solution>``, ``<final_answer>…
  </final_answer>``, as agent benchmarks ask for it), once and in a completion with no
  ``<answer>`` tag, is that completion's ``<answer>`` tag; punctuation that ends the sentence
  the tag stands in (``The answer is <solution> 15 </solution>.``) is no text after it;
- **text after the final ``</answer>``**, on lines of its own, holding no tag, is read as
  commentary after a final answer is (``follow.after_answer``): allowed when it takes nothing
  back and every answer it marks states the tag's value ("That is the answer.", "The answer is:
  31." after 31; not "(another valid answer: 1/4)"); text
  on the tag's own line is refused.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from rlvr.verifiers.answer.follow import after_answer
from rlvr.verifiers.answer.section import ANSWER_CLOSE, ANSWER_OPEN, THINK_CLOSE, THINK_OPEN, strip_eos

_ANSWER_KEYS = ("answer", "final_answer", "finalanswer", "final answer")
_OTHER_ANSWER_RE = re.compile(r"(?i)answer|alternat|result|solution|value|option|final")
_METADATA_RE = re.compile(r"(?i)conf|prob|score|certain|step|id$|time|token|count_of")


def _other_value(key: object, value: object) -> bool:
    """Another field of the object that may hold an answer: its name says so, or it holds a
    number under a name that is no metadata (confidence, steps, ids)."""
    name = str(key)
    if _OTHER_ANSWER_RE.search(name):
        return True
    return isinstance(value, (int, float)) and not isinstance(value, bool) and not _METADATA_RE.search(name)
_FENCE_END_RE = re.compile(r"\s*```\s*\Z")
_FENCE_OPEN_RE = re.compile(r"```(?:json|JSON)?\s*\Z")
MAX_JSON_CHARS = 20000
MAX_JSON_STARTS = 200


# a JSON escape, or a backslash that starts none: LaTeX written into a JSON string with one backslash ("\\( 264 \\)")
_ESCAPE_RE = re.compile(r'\\(["\\/bfnrtu])|\\')


def _loads(text: str) -> object:
    """The JSON value of ``text``, None when it is none. Models write raw line breaks inside strings
    and LaTeX with single backslashes (``"reasoning": "the sum is \\( 264 \\)"``): when the text is no
    JSON as written, a backslash that starts no JSON escape is read as standing for itself, as the
    writer meant; valid escapes keep their meaning."""
    try:
        return json.loads(text, strict=False)
    except ValueError:
        pass
    repaired = _ESCAPE_RE.sub(lambda m: m.group(0) if m.group(1) else "\\\\", text)
    if repaired == text:
        return None
    try:
        return json.loads(repaired, strict=False)
    except ValueError:
        return None


# a JSON escape that LaTeX with one backslash wrote by chance: "\\frac" read as a form feed and "rac"
_CONTROL_BEFORE_LETTER_RE = re.compile(r"[\b\f\n\r\t](?=[a-z]{2})")
_CONTROL_LETTERS = {"\b": "b", "\f": "f", "\n": "n", "\r": "r", "\t": "t"}


def _latex_escapes(value: str, controls: str = "\b\f\n\r\t") -> str:
    """An answer field's string with the escapes LaTeX wrote by chance read back as its commands
    (``"\\frac{1}{2}"``, ``"\\times"``, ``"\\neq"``: a control character right before two lowercase letters is
    a backslash and that letter). An answer is one expression: no line breaks, tabs, form feeds
    or backspaces run into its words. Prose (``controls``: only the backspace and the form feed) may
    break lines before its words."""
    if not any(c in value for c in controls):
        return value
    return _CONTROL_BEFORE_LETTER_RE.sub(
        lambda m: "\\" + _CONTROL_LETTERS[m.group(0)] if m.group(0) in controls else m.group(0), value)


def _last_object(text: str) -> tuple[int, int, dict] | None:
    """(start, end, object) of the outermost JSON object that ends ``text`` (spaces and a
    closing code fence aside); None when the text does not end in one."""
    tail = _FENCE_END_RE.sub("", text)
    end = len(tail.rstrip())
    if not end or tail[end - 1] != "}" or '"' not in tail:
        return None
    starts = [m.start() for m in re.finditer(r"\{", tail[max(0, end - MAX_JSON_CHARS):end])][:MAX_JSON_STARTS]
    offset = max(0, end - MAX_JSON_CHARS)
    for s in starts:
        obj = _loads(tail[offset + s:end])
        if isinstance(obj, dict):
            return offset + s, end, obj
    return None


def json_answer(completion: str) -> str:
    """The completion with a final JSON object's answer field written as an ``<answer>`` tag
    (module docstring); unchanged when it ends in no such object or already has a tag. An
    object the JSON reader refuses (a bare expression as the value) is read by its last
    ``"answer":`` key when that key's value ends the completion; an answer key earlier in the
    text is written as "The answer is VALUE." where it stands, a marker the final answer must
    agree with."""
    if ANSWER_OPEN in completion or '"' not in completion[-MAX_JSON_CHARS:] or '"' not in completion:
        return completion
    head = completion[completion.rfind(THINK_CLOSE) + len(THINK_CLOSE):] if THINK_CLOSE in completion else completion
    prefix = completion[: len(completion) - len(head)]
    found = _last_object(strip_eos(head))
    if found is None:
        return prefix + _answer_keys(head)
    start, _, obj = found
    keys = [k for k in obj if isinstance(k, str) and k.strip().lower().replace("-", "_") in _ANSWER_KEYS]
    if len(keys) != 1 or any(_other_value(k, v) for k, v in obj.items() if k != keys[0]):
        return completion  # {"answer": 3, "alternative_answer": 4}, {"answer": 3, "final": 4}: two answers
    value = obj[keys[0]]
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return completion
    if isinstance(value, str):
        value = _latex_escapes(value)
    # a backspace or a form feed in prose is "\\boxed" or "\\frac" written with one backslash: a box in the
    # reasoning still competes with the answer
    others = "\n\n".join(_latex_escapes(v, "\b\f") for k, v in obj.items() if k != keys[0] and isinstance(v, str))
    before = _FENCE_OPEN_RE.sub("", _answer_keys(head[:start], ends=False).rstrip())
    # the other fields first: what leads into the object ("Thus, the final answer is:") leads into its answer
    return f"{prefix}{others}\n\n{before}\n\n{ANSWER_OPEN}{value}{ANSWER_CLOSE}"


# "answer": then a JSON string or a bare value up to the end of its line
_KEY_RE = re.compile(r'(?i)"(?:final[ _]?)?answer"\s*:\s*(?P<v>"(?:[^"\\]|\\.)*"|[^,{}\n"]+)')
_KEY_ENDS_RE = re.compile(r"\s*,?\s*\}\s*(?:```)?\s*\Z")


def _answer_keys(text: str, ends: bool = True) -> str:
    """Every ``"answer": VALUE`` key of ``text`` outside a readable JSON object: the last one,
    when its object closes the text (``ends``), as the ``<answer>`` tag; the others as "The
    answer is VALUE." where they stand, markers the final answer must agree with
    (``{"answer": "44"}`` then prose that ends with 98 is two answers). Keys that give different
    values are two answers whatever follows them (a "final answer" label after them does not
    make the first a step): each is written as a tag, and several tags are refused."""
    keys = list(_KEY_RE.finditer(text))
    if not keys:
        return text
    values = [_key_value(m.group("v").strip()) for m in keys]
    several = len({str(v).strip() for v in values}) > 1
    out, pos = [], 0
    for n, (m, value) in enumerate(zip(keys, values)):
        last = ends and n == len(keys) - 1 and _KEY_ENDS_RE.fullmatch(text, m.end())
        out.append(text[pos:m.start()])
        tag = last or (ends and several)
        out.append(f"\n\n{ANSWER_OPEN}{value}{ANSWER_CLOSE}\n\n" if tag else f"\n\nThe answer is {value}.\n\n")
        pos = len(text) if last else m.end()
    return "".join(out).rstrip() + text[pos:] if pos < len(text) else "".join(out).rstrip()


def _key_value(raw: str) -> object:
    try:
        return json.loads(raw, strict=False) if raw.startswith('"') else raw
    except ValueError:
        return raw.strip('"')


_MENTION_RE = re.compile(re.escape(ANSWER_OPEN))
_VALUE_RE = re.compile(r"\d|\\|\$")
_NAMED_PAIR_RE = re.compile(re.escape(ANSWER_OPEN) + r"[ \t]*(?:and|or|\.\.\.|…|,)?[ \t]*" + re.escape(ANSWER_CLOSE))


# the sections of the "begin/end of thought, begin/end of solution" transcripts (Sky-T1, OpenThoughts)
_THOUGHT_TOKENS = ("<|begin_of_thought|>", "<|end_of_thought|>", "<|begin_of_solution|>", "<|end_of_solution|>")


def thought_sections(text: str) -> str:
    """``text`` with the thought and solution section tokens of a reasoning transcript read as
    ``<think>…</think>`` and the answer after it (module docstring), when each appears at most
    once and in order; unchanged otherwise (the tokens are then refused as turn marks)."""
    if "<|begin_of_" not in text and "<|end_of_" not in text:
        return text
    present = [text.find(t) for t in _THOUGHT_TOKENS if t in text]
    if any(text.count(t) > 1 for t in _THOUGHT_TOKENS) or present != sorted(present):
        return text
    for token, replacement in zip(_THOUGHT_TOKENS, (THINK_OPEN, THINK_CLOSE, "", "")):
        text = text.replace(token, replacement)
    return text


_NAMED_TAGS = ("solution", "final_answer")


_QUOTED_END_RE = re.compile(r'(?:^|\n)[ \t]*"""[ \t]*\n(?P<body>(?:(?!""")[\s\S]){1,2000}?)\n[ \t]*"""\s*\Z')


def quoted_block(text: str) -> str:
    """``text`` with the triple-quoted block that ends it read without its quotes (module docstring)."""
    if not text.rstrip().endswith('"""'):
        return text
    m = _QUOTED_END_RE.search(text)
    return text if m is None else text[:m.start()] + "\n" + m.group("body").strip() + "\n"


def named_tag(text: str) -> str:
    """``text`` with its one ``<solution>`` (or ``<final_answer>``) pair written as the ``<answer>``
    pair, when it has no ``<answer>`` tag (module docstring); unchanged otherwise."""
    if "<" not in text or ANSWER_OPEN in text or ANSWER_CLOSE in text:
        return text
    for name in _NAMED_TAGS:
        open_tag, close_tag = f"<{name}>", f"</{name}>"
        start, close = text.find(open_tag), text.find(close_tag)
        if text.count(open_tag) != 1 or text.count(close_tag) != 1 or close < start:
            continue
        content, tail = text[start + len(open_tag): close], text[close + len(close_tag):]
        tail = _CLOSING_TAGS_END_RE.sub("", tail)  # "<solution> 76 </solution>.\n</thought>": a section closed
        if re.match(r"[ \t]*[.!]?[ \t]*(?:\n|\Z)", tail):
            tail = re.sub(r"^[ \t]*[.!]?[ \t]*", "", tail)
        elif "\n" not in content.strip() and "\\boxed" not in text:
            # "John's dad is <solution> 42 </solution> years old.": the tag stands in its sentence as a box would
            return text[:start] + "\\boxed{" + content.strip() + "}" + tail
        return text[:start] + ANSWER_OPEN + content + ANSWER_CLOSE + tail
    return text


_CLOSING_TAGS_END_RE = re.compile(r"(?:\s*</[A-Za-z_]+>)+\s*\Z")


def tag_mentions(text: str) -> str:
    """``text`` without the ``<answer>`` opening tags mentioned in passing: every opening tag
    before the last one that no ``</answer>`` closes before that last one opens."""
    if text.count(ANSWER_OPEN) < 2:
        return text
    last = text.rfind(ANSWER_OPEN)
    text = _NAMED_PAIR_RE.sub(" ", text[:last]) + text[last:]  # "in <answer> and </answer> tags"
    last = text.rfind(ANSWER_OPEN)
    if ANSWER_CLOSE in text[:last] or ANSWER_CLOSE not in text[last:]:
        return text  # an earlier tag with its own content: two answers, refused by the caller
    for m in _MENTION_RE.finditer(text, 0, last):
        if _VALUE_RE.search(text[m.end(): m.end() + _sentence_end(text[m.end():last])]):
            return text  # "I think <answer> is 43.": an answer opened, not a tag named
    return text[:last].replace(ANSWER_OPEN, " ") + text[last:]


def _sentence_end(text: str) -> int:
    m = re.search(r"[.!?](?:\s|$)|\n|<", text)
    return m.start() if m else len(text)


def after_tag(text: str, restates: Callable[[str, str], bool] | None = None) -> str:
    """``text`` cut after its final ``</answer>`` when what follows is commentary a final
    answer may have (``follow.after_answer``); unchanged otherwise (the caller refuses it)."""
    close = text.rfind(ANSWER_CLOSE)
    if close < 0 or text.count(ANSWER_CLOSE) != 1 or text.count(ANSWER_OPEN) != 1:
        return text
    end = close + len(ANSWER_CLOSE)
    tail = strip_eos(text[end:])
    if not tail or not re.match(r"[ \t]*\n", text[end:]) or "<" in tail:
        return text  # on the tag's own line, or holding a tag: not commentary read here
    content = text[text.rfind(ANSWER_OPEN) + len(ANSWER_OPEN): close].strip()
    if _VALUE_RE.search(tail) and (restates is None or not restates(tail, content)):
        return text  # another answer after the tag: refused by the caller
    ok, _, _ = after_answer("\n\n" + tail, boxed=False, answer=content)
    return text[:end] if ok else text


_OUTPUT_FENCE = "```output"
_PROGRAM_FENCE_RE = re.compile(r"```[ \t]*(?:python3?|py)[ \t]*\n")


def program_output(completion: str) -> str:
    """The completion with the one line a program printed, in an ```` ```output ```` fence
    that ends the completion right after the program's fence, written as an ``<answer>``
    tag (module docstring); unchanged otherwise."""
    k = completion.rfind(_OUTPUT_FENCE)
    if k < 0 or ANSWER_OPEN in completion:
        return completion
    head, out = completion[:k].rstrip(), completion[k + len(_OUTPUT_FENCE):]
    close = out.rfind("```")
    if close < 0 or out[close + 3:].strip() or not out[:close].startswith("\n"):
        return completion
    lines = [line.strip() for line in out[:close].splitlines() if line.strip()]
    opener = head.rfind("```", 0, len(head) - 3)
    if len(lines) != 1 or not head.endswith("```") or opener < 0 or not _PROGRAM_FENCE_RE.match(head, opener):
        return completion  # several printed lines, no program right before it: not one computed value
    return f"{completion[:k]}{ANSWER_OPEN}{lines[0]}{ANSWER_CLOSE}"
