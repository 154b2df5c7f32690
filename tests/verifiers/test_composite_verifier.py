"""Composites and the trainer's reward function: weights, gating, status, info."""

from __future__ import annotations

import pickle

import pytest

from rlvr.types import Sample
from rlvr.verifiers import UnknownVerifierError, as_verifier, build_reward_fn, make_composite

GOOD = "<think>3+5=8 8-11=-3</think><answer>-3</answer>"
WRONG_FORMATTED = "<think>3+5=8</think><answer>4</answer>"
RIGHT_UNFORMATTED = "so the answer is \\boxed{-3}"
PADDED = "<think>x</think><answer>-3</answer> padding"
SAMPLE = Sample(id="t", prompt="", answer="-3")

# (gated, completion, reward, status, acc, format)
ROWS = [
    (False, GOOD, 1.1, "ok", 1.0, 1.0),
    (False, WRONG_FORMATTED, 0.1, "wrong", 0.0, 1.0),
    (False, RIGHT_UNFORMATTED, 1.0, "ok", 1.0, 0.0),
    (False, PADDED, 0.0, "no_answer", 0.0, 0.0),
    (True, GOOD, 1.1, "ok", 1.0, 1.0),
    (True, WRONG_FORMATTED, 0.0, "wrong", 0.0, 1.0),  # gated: format alone earns nothing
    (True, RIGHT_UNFORMATTED, 1.0, "ok", 1.0, 0.0),
    (True, PADDED, 0.0, "no_answer", 0.0, 0.0),
]


@pytest.mark.parametrize("gated, completion, reward, status, acc, fmt", ROWS)
def test_build_reward_fn_table(gated, completion, reward, status, acc, fmt):
    verdict = build_reward_fn("exact", 0.1, gated)(completion, SAMPLE)
    assert verdict.reward == pytest.approx(reward)
    assert verdict.status == status
    assert verdict.info["acc"] == acc and verdict.info["format"] == fmt


def test_zero_format_weight_still_reports_format_rate():
    verdict = build_reward_fn("math", 0.0, False)(GOOD, SAMPLE)
    assert verdict.reward == 1.0 and verdict.info == {"acc": 1.0, "format": 1.0}


def test_row_verifier_overrides_the_accuracy_term():
    fn = build_reward_fn("exact", 0.5, False)
    row = Sample(id="t", prompt="", answer="0.5", verifier="math")
    verdict = fn("<think>.</think><answer>\\frac{1}{2}</answer>", row)
    assert verdict.reward == 1.5 and verdict.status == "ok"
    assert fn.key("x", row) != fn.key("x", Sample(id="t", prompt="", answer="0.5"))


def test_make_composite_weights_primary_and_spec_round_trip():
    comp = make_composite({"format": 0.2, "exact": 2.0}, primary="exact")
    assert comp.parts == (("exact", 2.0), ("format", 0.2))
    verdict = comp(GOOD, SAMPLE)
    assert verdict.reward == pytest.approx(2.2) and verdict.status == "ok"
    rebuilt = as_verifier(comp.spec())
    assert rebuilt == comp
    assert pickle.loads(pickle.dumps(comp)) == comp
    assert as_verifier('{"composite": {"exact": 1.0, "format": 0.1}, "gated": true}').gated is True


def test_composite_errors_name_valid_choices():
    with pytest.raises(UnknownVerifierError, match="valid"):
        make_composite({"exactly": 1.0})
    with pytest.raises(UnknownVerifierError, match="primary"):
        make_composite({"exact": 1.0}, primary="math")
    with pytest.raises(UnknownVerifierError, match="unknown keys"):
        as_verifier({"composite": {"exact": 1.0}, "gate": True})
    with pytest.raises(UnknownVerifierError, match="accuracy"):
        build_reward_fn("format", 0.1, False)


def test_accuracy_error_propagates_and_earns_no_format_reward():
    fn = build_reward_fn("exact", 0.1, False)
    with pytest.raises(ValueError, match="answer"):
        fn(GOOD, Sample(id="t", prompt=""))  # the pool turns this into status "error"


# Completions whose graded answer differs from what a separate "last marker" extraction
# would vote for: votes must come from the verdict itself.
VOTING_ROWS = [
    ("82", "37 + 45 = 82\n\nSo, the answer is 82."),
    ("82", "<think>\\boxed{81}</think>The answer is 82."),
    ("82", "\\boxed{82}. Wait, it should be 83."),
    ("0.5", "\\boxed{\\frac{2}{4}}"),
    ("0.5", "<answer>0.50</answer>"),
    ("82", "\\boxed{81} hmm, no: \\boxed{82}"),
    ("82", "<think>so <answer>82</answer>"),
    ("82", "**82**"),
    ("-3", GOOD),
]


@pytest.mark.parametrize("accuracy", ["math", "exact"])
def test_composite_carries_the_primary_answer_and_one_vote_is_the_grade(accuracy):
    from rlvr.diagnostics.passk import majk_curve

    fn = build_reward_fn(accuracy, 0.1, gated=False)
    verdicts = [fn(completion, Sample(id="t", prompt="", answer=answer)) for answer, completion in VOTING_ROWS]
    for (answer, completion), verdict in zip(VOTING_ROWS, verdicts):
        primary = as_verifier(accuracy)(completion, Sample(id="t", prompt="", answer=answer))
        assert verdict.answer == primary.answer, completion
        if verdict.status == "ok":
            assert verdict.answer is not None, completion
    correct = [[v.status == "ok"] for v in verdicts]
    pass_at_1 = sum(c[0] for c in correct) / len(correct)
    maj_at_1 = majk_curve([[v.answer] for v in verdicts], correct, [1])[1]
    assert maj_at_1 == pytest.approx(pass_at_1)
    assert 0 < pass_at_1 < 1  # the table holds both kinds


def test_composite_keeps_refusal_reasons_in_info():
    fn = build_reward_fn("math", 0.1, gated=False)
    verdict = fn("\\boxed{82}. Wait, it should be 83.", Sample(id="t", prompt="", answer="82"))
    assert verdict.info["refused/trailing_text"] == 1.0 and verdict.status == "no_answer" and verdict.answer is None
