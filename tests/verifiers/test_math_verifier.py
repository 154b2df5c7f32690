"""Math verifier: (reference, completion, reward, status) tables, the fast paths, and the
several-answers rule."""

from __future__ import annotations

import pytest

from rlvr.types import Sample
from rlvr.verifiers import mathv
from rlvr.verifiers.mathv import probe_differs, tuples_equal, verify_math

ROWS = [
    # plain numbers (fast path)
    ("12", "<answer>12.0</answer>", 1.0, "ok"),
    ("12", "so the answer is $\\boxed{12}$.", 1.0, "ok"),
    ("7425000", "\\boxed{7,425,000}", 1.0, "ok"),
    ("1000", "#### 1 000", 1.0, "ok"),
    ("0.5", "\\boxed{\\frac{1}{2}}", 1.0, "ok"),
    ("\\frac{3}{7}", "<answer>6/14</answer>", 1.0, "ok"),
    ("-3", "<think>3+5=8 8-11=-3</think><answer>-3</answer>", 1.0, "ok"),
    ("-3", "<think>3+5=8</think><answer>3</answer>", 0.0, "wrong"),
    ("\\frac{1}{3}", "\\boxed{0.333333}", 1.0, "ok"),  # math-verify's 6-place rounding
    ("\\frac{1}{3}", "\\boxed{0.33}", 0.0, "wrong"),
    ("100", "\\boxed{\\$100}", 1.0, "ok"),
    # LaTeX and symbolic (math-verify)
    ("2\\sqrt{3}", "\\boxed{\\sqrt{12}}", 1.0, "ok"),
    ("x^2 + 2x + 1", "The answer is $(x+1)^2$", 1.0, "ok"),
    ("\\frac{\\pi}{4}", "\\boxed{\\frac{1}{4}\\pi}", 1.0, "ok"),
    ("(1, 3]", "\\boxed{(1,3]}", 1.0, "ok"),
    ("(1, 3]", "\\boxed{[1,3]}", 0.0, "wrong"),
    ("\\{1, 2\\}", "\\boxed{\\{2, 1\\}}", 1.0, "ok"),
    ("28\\%", "\\boxed{28}", 1.0, "ok"),
    ("x = 5", "\\boxed{5}", 1.0, "ok"),
    ("\\text{Evelyn}", "\\boxed{\\text{Evelyn}}", 1.0, "ok"),
    ("2\\sqrt{3}", "\\boxed{3\\sqrt{2}}", 0.0, "wrong"),
    ("x^2 + 2x + 1", "\\boxed{(x+2)^2}", 0.0, "wrong"),
    ("2x", "\\boxed{2y}", 0.0, "wrong"),
    # precision-first: several different final answers, hedges, thinking, padding
    ("5", "\\boxed{3} hmm, no: \\boxed{5}", 0.0, "wrong"),
    ("5", "The answer is 3. Wait, the answer is 5.", 0.0, "wrong"),
    ("5", "\\boxed{3} or \\boxed{5}", 0.0, "wrong"),
    ("5", "$3$ or $5$", 0.0, "wrong"),
    ("5", "The answer is 5 or 6.", 0.0, "wrong"),
    ("5", "<answer>5 or 6</answer>", 0.0, "wrong"),
    ("5", "\\boxed{5 \\text{ or } 6}", 0.0, "wrong"),
    ("5", "<answer>5, 6</answer>", 0.0, "wrong"),
    ("5", "<answer>\\pm 5</answer>", 0.0, "wrong"),
    ("5", "\\boxed{5}. Double-check: \\boxed{5}", 1.0, "ok"),
    ("5", "So \\boxed{6}.\n#### 5", 0.0, "wrong"),
    ("5", "So 2 + 3 = \\boxed{5}.\n#### 5", 1.0, "ok"),
    ("42", "So the answer is 42 apples. \\boxed{42}", 1.0, "ok"),
    ("42", "So the answer is 41 apples. \\boxed{42}", 0.0, "wrong"),
    ("\\{1, 2\\}", "\\boxed{1} and \\boxed{2}", 1.0, "ok"),  # a list of roots is one answer
    ("5", "<think>maybe \\boxed{3}</think>\\boxed{5}", 1.0, "ok"),
    ("5", "<think>I am sure it is \\boxed{5}", 0.0, "no_answer"),
    ("5", "<answer>5</answer> and some padding after the answer", 0.0, "no_answer"),
    ("5", "<answer>5</answer><answer>3</answer>", 0.0, "no_answer"),
    ("5", "<answer></answer>", 0.0, "no_answer"),
    ("5", "no numbers at all", 0.0, "no_answer"),
]


@pytest.mark.parametrize("answer, completion, reward, status", ROWS)
def test_math_table(answer, completion, reward, status):
    verdict = verify_math(completion, Sample(id="t", prompt="", answer=answer))
    assert (verdict.reward, verdict.status) == (reward, status), verdict.detail


@pytest.mark.parametrize("answer, completion, reward, status", ROWS)
def test_fast_paths_agree_with_math_verify(answer, completion, reward, status):
    sample = Sample(id="t", prompt="", answer=answer)
    assert verify_math(completion, sample, fast=False).status == verify_math(completion, sample).status


def test_plain_numbers_never_load_sympy_work():
    verdict = verify_math("<answer>12</answer>", Sample(id="t", prompt="", answer="12.0"))
    assert verdict.detail == "12 == 12 (plain numbers)"


def test_several_answers_can_be_allowed():
    sample = Sample(id="t", prompt="", answer="5")
    hedge = "The answer is 3. Wait, the answer is 5."
    assert verify_math(hedge, sample).status == "wrong"
    assert verify_math(hedge, sample, reject_several_answers=False).status == "ok"  # math-verify takes the last


def test_missing_or_unparsable_reference_raises():
    with pytest.raises(ValueError, match="answer"):
        verify_math("\\boxed{1}", Sample(id="t", prompt=""))
    with pytest.raises(ValueError, match="could not be parsed"):
        verify_math("\\boxed{1+x}", Sample(id="t", prompt="", answer="\\\\"))


@pytest.mark.parametrize("gold, pred, differs", [
    ("x^2 + 20x + 100", "(x+11)^2", True),
    ("x^2 + 20x + 100", "(x+10)^2", False),  # equal: left to sympy
    ("2\\sqrt{3}", "\\sqrt{13}", True),
    ("\\frac{3\\pi}{4}", "\\frac{3}{4}\\pi", False),
    ("2x", "2y", True),
    ("12", "3 \\cdot 4", False),
    ("12", "2^{3}+5", True),
    ("1.414214", "\\sqrt{2}", False),  # decimals abort: math-verify rounds them
    ("f(x)", "f(y)", False),  # function application aborts
    ("a/bc", "\\frac{a}{bc}", False),  # ambiguous precedence aborts
    ("e^{2}", "e^{3}", False),  # e and i abort
    ("x^{30}", "x^{31}", False),  # large exponents abort
])
def test_probe_only_proves_inequality(gold, pred, differs):
    assert probe_differs(gold, pred) is differs


@pytest.mark.parametrize("gold, pred, same", [
    ("(1, 2)", "(1,2)", True),
    ("(1, 2)", "(1, 2.0)", True),
    ("(1, 2)", "[1, 2]", False),
    ("(3, 1)", "(1, 3)", False),
    ("(1, 2, 3)", "(1, 2, 4)", False),
    ("(5, 3]", "(6, 3]", None),  # math-verify reads these as empty sets
    ("(1, 2)", "(1, 2, 3)", None),
    ("\\{1, 2\\}", "\\{2, 1\\}", None),
])
def test_tuples_and_intervals(gold, pred, same):
    assert tuples_equal(gold, pred) is same


def test_prediction_selection():
    assert mathv.select_prediction("x #### 12").text == "12"
    assert mathv.select_prediction("<answer>x+1</answer>").text == "$x+1$"
    assert mathv.select_prediction("<think>a</think>").reason.startswith("empty")
    assert mathv.clean_prediction("is $\\frac{1}{3}.$") == "is $\\frac{1}{3}$"
