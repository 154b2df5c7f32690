"""Answer forms read as structure, before the markers are found (``locate``):

- a **JSON object** that ends the completion (bare or in a ```` ```json ```` fence) with one
  key naming the answer (``"answer"``, ``"final_answer"``, any case) and no other key naming
  an answer, result, value or alternative: its value (a string or a number) is the final
  answer, as an ``<answer>`` tag would hold it; the object's other string fields stay in the
  text, where their markers compete with it (``{"reasoning": "... \\boxed{41}", "answer": 42}``
  is two answers);
- an ``<answer>`` tag **mentioned in passing** ("I will put the result in <answer> tags", an
  opening tag with no content of its own before the final ``<answer>…</answer>``, or a pair
  named with nothing between: "<answer> and </answer>") is prose,
  not a second tag; a complete earlier pair with content is still a second answer;
- **text after the final ``</answer>``**, on lines of its own, holding no digit, math or tag,
  is read as commentary after a final answer is (``follow.after_answer``): allowed when it
  takes nothing back ("That is the answer."); text on the tag's own line is refused.
"""

from __future__ import annotations

import json
import re

from rlvr.verifiers.answer.follow import after_answer
from rlvr.verifiers.answer.section import ANSWER_CLOSE, ANSWER_OPEN, THINK_CLOSE, strip_eos

_ANSWER_KEYS = ("answer", "final_answer", "finalanswer", "final answer")
_OTHER_ANSWER_RE = re.compile(r"(?i)answer|alternat|result|solution|value|option")
_FENCE_END_RE = re.compile(r"\s*```\s*\Z")
_FENCE_OPEN_RE = re.compile(r"```(?:json|JSON)?\s*\Z")
MAX_JSON_CHARS = 20000
MAX_JSON_STARTS = 200


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
        try:
            obj = json.loads(tail[offset + s:end])
        except ValueError:
            continue
        if isinstance(obj, dict):
            return offset + s, end, obj
    return None


def json_answer(completion: str) -> str:
    """The completion with a final JSON object's answer field written as an ``<answer>`` tag
    (module docstring); unchanged when it ends in no such object or already has a tag."""
    if ANSWER_OPEN in completion or '"' not in completion[-MAX_JSON_CHARS:]:
        return completion
    head = completion[completion.rfind(THINK_CLOSE) + len(THINK_CLOSE):] if THINK_CLOSE in completion else completion
    found = _last_object(strip_eos(head))
    if found is None:
        return completion
    start, _, obj = found
    keys = [k for k in obj if isinstance(k, str) and k.strip().lower().replace("-", "_") in _ANSWER_KEYS]
    if len(keys) != 1 or any(_OTHER_ANSWER_RE.search(k) for k in obj if k != keys[0]):
        return completion  # {"answer": 3, "alternative_answer": 4}: two answers
    value = obj[keys[0]]
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return completion
    others = "\n\n".join(str(v) for k, v in obj.items() if k != keys[0] and isinstance(v, str))
    before = _FENCE_OPEN_RE.sub("", head[:start].rstrip())
    prefix = completion[: len(completion) - len(head)]
    return f"{prefix}{before}\n\n{others}\n\n{ANSWER_OPEN}{value}{ANSWER_CLOSE}"


_VALUE_RE = re.compile(r"\d|\\|\$")
_NAMED_PAIR_RE = re.compile(re.escape(ANSWER_OPEN) + r"[ \t]*(?:and|or|\.\.\.|…|,)?[ \t]*" + re.escape(ANSWER_CLOSE))


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
    return text[:last].replace(ANSWER_OPEN, " ") + text[last:]


def after_tag(text: str) -> str:
    """``text`` cut after its final ``</answer>`` when what follows is commentary a final
    answer may have (``follow.after_answer``); unchanged otherwise (the caller refuses it)."""
    close = text.rfind(ANSWER_CLOSE)
    if close < 0 or text.count(ANSWER_CLOSE) != 1 or text.count(ANSWER_OPEN) != 1:
        return text
    end = close + len(ANSWER_CLOSE)
    tail = strip_eos(text[end:])
    if not tail or not re.match(r"[ \t]*\n", text[end:]) or _VALUE_RE.search(tail) or "<" in tail:
        return text  # on the tag's own line, or holding a value of its own: not commentary read here
    content = text[text.rfind(ANSWER_OPEN) + len(ANSWER_OPEN): close].strip()
    ok, _, _ = after_answer("\n\n" + tail, boxed=False, answer=content)
    return text[:end] if ok else text
