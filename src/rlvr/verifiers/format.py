"""Format verifier: reasoning in ``<think>…</think>``, then one ``<answer>…</answer>`` that
ends the completion. Reward 1 (status ``ok``) or 0 (status ``wrong``).

The tags are configurable (``think_tags``, ``answer_tags``); the structure is fixed:
optional whitespace, exactly one think block, whitespace, exactly one non-empty answer
block, then only whitespace or an end-of-sequence marker. The detail names the first rule
that failed, which is what one wants to read when a policy's format rate drops.

What it deliberately does not do: look at the answer's content (that is the accuracy
verifier's job), or accept answers anywhere but at the end (the padding hack, see
``extract.py``). The built-in check runs in linear time (``str.find``/``str.count``, no
regex); a custom ``pattern`` option replaces it with ``re.fullmatch``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rlvr.types import Sample, Verdict
from rlvr.verifiers.extract import EOS_MARKERS, strip_eos

DEFAULT_THINK = ("<think>", "</think>")
DEFAULT_ANSWER = ("<answer>", "</answer>")


def format_problem(completion: str, think_tags: Sequence[str] = DEFAULT_THINK,
                   answer_tags: Sequence[str] = DEFAULT_ANSWER) -> str:
    """'' when the completion has the format, else the first rule it breaks."""
    t_open, t_close = think_tags
    a_open, a_close = answer_tags
    text = strip_eos(completion, EOS_MARKERS)
    for tag in (t_open, t_close, a_open, a_close):
        n = text.count(tag)
        if n != 1:
            return f"expected exactly one {tag}, found {n}"
    if not text.startswith(t_open):
        return f"text before {t_open}"
    if text.find(t_close) > text.find(a_open):
        return f"{a_open} must come after {t_close}"
    if text[text.find(t_close) + len(t_close): text.find(a_open)].strip():
        return f"text between {t_close} and {a_open}"
    if not text.endswith(a_close):
        return f"text after {a_close}: the answer must end the completion"
    if not text[text.find(a_open) + len(a_open): -len(a_close)].strip():
        return "empty answer"
    return ""


def verify_format(completion: str, sample: Sample, *, think_tags: Sequence[str] = DEFAULT_THINK,
                  answer_tags: Sequence[str] = DEFAULT_ANSWER, pattern: str | None = None) -> Verdict:
    """1.0 when the completion is ``<think>…</think><answer>…</answer>``, else 0.0.

    ``pattern``, when given, replaces the built-in structure: the completion (EOS markers
    removed) must ``re.fullmatch`` it, with ``re.DOTALL``. A custom pattern is the caller's
    responsibility for linear-time matching.
    """
    if pattern is not None:
        if re.fullmatch(pattern, strip_eos(completion, EOS_MARKERS), re.DOTALL):
            return Verdict(1.0, "ok", "format ok")
        return Verdict(0.0, "wrong", "does not match the format pattern")
    problem = format_problem(completion, think_tags, answer_tags)
    if problem:
        return Verdict(0.0, "wrong", problem)
    return Verdict(1.0, "ok", "format ok")
