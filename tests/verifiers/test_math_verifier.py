"""Math verifier: (reference, completion, reward, status) tables, the fast paths, the
several-answers rule, the unmarked-completion rule and the refusal reasons.
The adversarial table is in test_math_adversarial.py."""

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
    # the earlier marker's sentence is read by the model of the sentence: "42 apples" states
    # 42 (the noun it counts), the same value as the box: one answer said twice
    ("42", "So the answer is 42 apples. \\boxed{42}", 1.0, "ok"),
    ("42", "So the answer is 42 cm. \\boxed{42}", 1.0, "ok"),
    ("42", "So the answer is 41 apples. \\boxed{42}", 0.0, "wrong"),
    ("\\{1, 2\\}", "\\boxed{1} and \\boxed{2}", 1.0, "ok"),  # a list of roots is one answer
    ("5", "<think>maybe \\boxed{3}</think>\\boxed{5}", 1.0, "ok"),
    ("5", "<think>I am sure it is \\boxed{5}", 0.0, "no_answer"),
    ("5", "<answer>5</answer> and some padding after the answer", 0.0, "no_answer"),
    ("5", "<answer>5</answer><answer>3</answer>", 0.0, "no_answer"),
    ("5", "<answer></answer>", 0.0, "no_answer"),
    ("5", "no numbers at all", 0.0, "no_answer"),
    # unmarked completions: one value, a checked computation, or "... is VALUE" naming no other number
    ("82", "82", 1.0, "ok"),
    ("82", "37 + 45 = 82", 1.0, "ok"),
    ("82", "Adding the tens and the ones:\n37 + 45 = 82", 1.0, "ok"),
    ("82", "37 + 45 = 80 = 82", 0.0, "wrong"),  # an unmarked equation must check out
    ("82", "$x = 37 + 45 = 82$", 1.0, "ok"),  # a whole math span reads like a marked answer: last side
    ("82", "$37 + 45 = 80 = 82$", 0.0, "wrong"),  # ... whose number sides must agree
    ("82", "So the sum is 82.", 1.0, "ok"),
    ("82", "The sum of 37 and 45 is 82.", 0.0, "wrong"),  # the sentence names other numbers
    ("82", "Therefore 82.", 1.0, "ok"),
    ("82", "I computed it in my head and it felt right", 0.0, "no_answer"),
    ("x > 5", "Therefore $x > 5$ is the solution.", 1.0, "ok"),
    ("\\text{Evelyn}", "Evelyn", 1.0, "ok"),
]


@pytest.mark.parametrize("answer, completion, reward, status", ROWS)
def test_math_table(answer, completion, reward, status):
    verdict = verify_math(completion, Sample(id="t", prompt="", answer=answer))
    assert (verdict.reward, verdict.status) == (reward, status), verdict.detail


@pytest.mark.parametrize("answer, completion, reward, status", ROWS)
def test_fast_paths_agree_with_math_verify(answer, completion, reward, status):
    sample = Sample(id="t", prompt="", answer=answer)
    assert verify_math(completion, sample, fast=False).status == verify_math(completion, sample).status


def test_numbers_never_reach_sympy(monkeypatch):
    def no_sympy():
        raise AssertionError("math-verify was called")

    monkeypatch.setattr(mathv, "_mv", no_sympy)
    for gold, completion, status in [("12.0", "<answer>12</answer>", "ok"), ("120", "\\boxed{5!}", "ok"),
                                     ("0.0000001", "\\boxed{0.0000003}", "wrong"), ("1/3", "#### 0.333333", "ok"),
                                     ("(1, 2]", "\\boxed{(1, 2.0]}", "ok"), ("7/2", "\\boxed{3\\frac{1}{2}}", "ok")]:
        assert verify_math(completion, Sample(id="t", prompt="", answer=gold)).status == status, completion


def test_verdict_answer_is_the_graded_answer_in_canonical_form():
    sample = Sample(id="t", prompt="", answer="0.5")
    assert verify_math("\\boxed{\\frac{2}{4}}", sample).answer == "1/2"
    assert verify_math("The answer is 0.50.", sample).answer == "1/2"
    assert verify_math("<answer>x+1</answer>", sample).answer == "x+1"
    assert verify_math("\\boxed{3} hmm, no: \\boxed{5}", sample).answer is None  # refused: nothing graded
    assert verify_math("<answer>\\text{ Paris }</answer>", Sample(id="t", prompt="", answer="paris")).answer == "paris"


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


@pytest.mark.parametrize("gold, completion, reason", [
    ("10", "\\boxed{10}. Wait, it is 11.", "trailing_text"),
    ("10", "<answer>10</answer> padding", "trailing_text"),
    ("10", "The answer is not 10.", "relation"),
    ("10", "\\boxed{x \\geq 10}", "relation"),
    ("10", "The answer is 10 or 11.", "several_answers"),
    ("10", "\\boxed{9}. So \\boxed{10}", "several_answers"),
    ("10", "\\boxed{10 \\text{ (incorrect)}}", "unparsed"),
    ("10", "\\boxed{10.0.1}", "unparsed"),
    ("10", "<think>\\boxed{10}", "no_answer"),
    ("10", "", "no_answer"),
])
def test_refusal_reasons_are_in_info_and_detail(gold, completion, reason):
    verdict = verify_math(completion, Sample(id="t", prompt="", answer=gold))
    assert verdict.reward == 0.0
    assert verdict.info == {f"refused/{reason}": 1.0}, (verdict.info, verdict.detail)
    assert f"({reason})" in verdict.detail
