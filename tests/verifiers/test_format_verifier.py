"""Format verifier: <think>…</think><answer>…</answer> ending the completion."""

from __future__ import annotations

import pytest

from rlvr.types import Sample
from rlvr.verifiers.format import verify_format

SAMPLE = Sample(id="t", prompt="")

ROWS = [
    ("<think>3+5=8</think><answer>8</answer>", 1.0, ""),
    ("<think></think><answer>8</answer>", 1.0, ""),
    ("  <think>a\nb</think>\n<answer>8</answer>\n", 1.0, ""),
    ("<think>a</think><answer>8</answer><|im_end|>", 1.0, ""),
    ("<think>a</think><answer>8</answer> padding", 0.0, "after </answer>"),
    ("<think>a</think>text<answer>8</answer>", 0.0, "between"),
    ("<answer>8</answer>", 0.0, "<think>"),
    ("hello <think>a</think><answer>8</answer>", 0.0, "before <think>"),
    ("<think>a</think><answer>8</answer><answer>8</answer>", 0.0, "exactly one <answer>"),
    ("<think>a</think><think>b</think><answer>8</answer>", 0.0, "exactly one <think>"),
    ("<think>a</think><answer>  </answer>", 0.0, "empty answer"),
    ("<answer>8</answer><think>a</think>", 0.0, "before <think>"),
    ("<think>a<answer>8</answer></think>", 0.0, "after </think>"),
    ("", 0.0, "exactly one <think>"),
]


@pytest.mark.parametrize("completion, reward, problem", ROWS)
def test_format_table(completion, reward, problem):
    verdict = verify_format(completion, SAMPLE)
    assert verdict.reward == reward
    assert verdict.status == ("ok" if reward else "wrong")
    assert problem in verdict.detail


def test_custom_tags_and_pattern():
    assert verify_format("<reasoning>x</reasoning><final>1</final>", SAMPLE,
                         think_tags=("<reasoning>", "</reasoning>"), answer_tags=("<final>", "</final>")).reward == 1.0
    assert verify_format("ANSWER: 12", SAMPLE, pattern=r"ANSWER: \d+").status == "ok"
    assert verify_format("ANSWER: 12 and more", SAMPLE, pattern=r"ANSWER: \d+").status == "wrong"


def test_format_is_linear_on_a_long_completion():
    completion = "<think>" + "x" * 300_000 + "</think><answer>1</answer>"
    assert verify_format(completion, SAMPLE).reward == 1.0
