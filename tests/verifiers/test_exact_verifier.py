"""Exact verifier: (reference, completion, reward, status) tables, real and adversarial."""

from __future__ import annotations

import pytest

from rlvr.types import Sample
from rlvr.verifiers.exact import NORMALISERS, normalise, verify_exact

ROWS = [
    # the built-in arithmetic demo's format
    ("-3", "<think>3+5=8 8-7=1 1-4=-3</think><answer>-3</answer>", 1.0, "ok"),
    ("-3", "<think>3+5=8</think><answer>3</answer>", 0.0, "wrong"),
    ("1", "<think>3+5=8 8-7=1</think><answer>1</answer>\n", 1.0, "ok"),
    ("1", "<answer>1</answer><|endoftext|>", 1.0, "ok"),
    ("-3", "<answer> -3. </answer>", 1.0, "ok"),
    ("-3", "<answer>$-3$</answer>", 1.0, "ok"),
    ("-3", "<answer>\\boxed{-3}</answer>", 1.0, "ok"),
    ("-3", "<answer>-3.0</answer>", 1.0, "ok"),
    ("0.5", "<answer>1/2</answer>", 1.0, "ok"),
    ("1/2", "<answer>\\frac{1}{2}</answer>", 1.0, "ok"),
    ("1234567", "<answer>1,234,567</answer>", 1.0, "ok"),
    ("Paris", "<answer>paris</answer>", 1.0, "ok"),
    ("New York", "<answer>  new   york. </answer>", 1.0, "ok"),
    ("Evelyn", "<answer>\\text{Evelyn}</answer>", 1.0, "ok"),
    ("(1,2)", "<answer>\\left(1, 2\\right)</answer>", 1.0, "ok"),
    # adversarial: the padding hack and tag games
    ("-3", "<answer>-3</answer> I am padding after my answer until the limit", 0.0, "no_answer"),
    ("-3", "<answer>-3</answer><answer>4</answer>", 0.0, "no_answer"),
    ("-3", "<answer>4</answer><answer>-3</answer>", 0.0, "no_answer"),
    ("-3", "<answer>-3", 0.0, "no_answer"),
    ("-3", "<think>-3</think>", 0.0, "no_answer"),
    ("-3", "", 0.0, "no_answer"),
    ("-3", "<answer>-3 or 3</answer>", 0.0, "wrong"),
    ("3", "<answer>33</answer>", 0.0, "wrong"),
    ("0.5", "<answer>0.50001</answer>", 0.0, "wrong"),
    ("2", "<answer>\\sqrt{4}</answer>", 0.0, "wrong"),  # not math equivalence: use "math"
    # fallbacks without tags
    ("42", "We add them up, so the answer is 42.", 1.0, "ok"),
    ("42", "Adding gives $\\boxed{42}$.", 1.0, "ok"),
    ("42", "6 * 7 = 42\n#### 42", 1.0, "ok"),
    ("42", "The answer is $\\boxed{42}$", 1.0, "ok"),
    ("42", "\\boxed{41} no wait \\boxed{42}", 0.0, "wrong"),  # several different final answers
    ("42", "The answer is 41. Hmm, the answer is 42.", 0.0, "wrong"),
    ("42", "\\boxed{42} and then I keep writing more and more text", 0.0, "no_answer"),
    ("42", "<think>\\boxed{42}</think>", 0.0, "no_answer"),  # thinking is not answering
    ("42", "<think>\\boxed{41}</think> so \\boxed{42}", 1.0, "ok"),
    ("42", "<think>unterminated \\boxed{42}", 0.0, "no_answer"),
    ("42", "forty-two", 0.0, "no_answer"),
]


@pytest.mark.parametrize("answer, completion, reward, status", ROWS)
def test_exact_table(answer, completion, reward, status):
    verdict = verify_exact(completion, Sample(id="t", prompt="", answer=answer))
    assert (verdict.reward, verdict.status) == (reward, status), verdict.detail


def test_fallbacks_can_be_switched_off():
    sample = Sample(id="t", prompt="", answer="42")
    assert verify_exact("so \\boxed{42}", sample).status == "ok"
    verdict = verify_exact("so \\boxed{42}", sample, fallbacks=())
    assert verdict.status == "no_answer" and "<answer>" in verdict.detail
    assert verify_exact("so \\boxed{42}", sample, fallbacks=("hash",)).status == "no_answer"


def test_normalisers_are_configurable():
    sample = Sample(id="t", prompt="", answer="Paris")
    assert verify_exact("<answer>paris</answer>", sample, normalisers=("whitespace",)).status == "wrong"
    assert verify_exact("<answer>paris</answer>", sample, normalisers=("case",)).status == "ok"
    assert normalise(" 1,000.50 ", ("thousands", "whitespace", "numbers")) == "2001/2"
    with pytest.raises(KeyError, match="valid"):
        normalise("x", ("nope",))
    assert set(NORMALISERS) == {"strip_latex", "thousands", "whitespace", "trailing_punct", "case", "numbers"}


def test_missing_reference_raises():
    with pytest.raises(ValueError, match="answer"):
        verify_exact("<answer>1</answer>", Sample(id="t", prompt=""))


@pytest.mark.parametrize("completion, reason", [
    ("<answer>10</answer> and more", "trailing_text"),
    ("<think>so <answer>10</answer>", "no_answer"),
    ("\\boxed{9} hmm: \\boxed{10}", "several_answers"),
    ("<answer>10 \\text{ (incorrect)}</answer>", "unparsed"),
    ("<answer>\\neq 10</answer>", "relation"),
])
def test_refusals_say_why(completion, reason):
    verdict = verify_exact(completion, Sample(id="t", prompt="", answer="10"))
    assert verdict.reward == 0.0 and verdict.info == {f"refused/{reason}": 1.0}, (verdict.info, verdict.detail)
    assert verdict.answer is None


def test_answer_is_the_normalised_graded_text():
    sample = Sample(id="t", prompt="", answer="-3")
    assert verify_exact("<answer>-3.0</answer>", sample).answer == "-3"
    assert verify_exact("<answer>\\color{red}{-3}</answer>", sample).answer == "-3"
    assert verify_exact("<answer>10!</answer>", sample).answer == "10!"  # a factorial, not "10" with punctuation
    city = Sample(id="t", prompt="", answer="new york")
    assert verify_exact("<answer>New  York.</answer>", city).answer == "new york"
