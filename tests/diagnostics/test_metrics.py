"""Pure rollout metrics against numbers worked out by hand."""

from __future__ import annotations

import pytest

from rlvr.diagnostics.metrics import (
    length_by_correctness,
    selfcheck_rate,
    status_counts,
    truncation_rate,
    zero_variance,
)


def test_zero_variance_observed_and_predicted():
    # group 0: all correct -> no spread, p = 1 -> 1^3 + 0^3 = 1
    # group 1: 1 of 3 correct -> spread, p = 1/3 -> 1/27 + 8/27 = 1/3
    correct = [True, True, True, True, False, False]
    zv = zero_variance(correct, [0, 0, 0, 1, 1, 1])
    assert zv.observed == 0.5
    assert zv.predicted == pytest.approx((1 + 1 / 3) / 2)
    observed, predicted = zv  # unpacks as a tuple
    assert (observed, predicted) == (zv.observed, zv.predicted)


def test_zero_variance_reads_rewards_when_given():
    # all correct in group 0, but a format bonus separates their rewards: the group has spread
    correct = [True, True, False, False]
    rewards = [1.1, 1.0, 0.0, 0.0]
    assert zero_variance(correct, ["a", "a", "b", "b"], rewards).observed == 0.5  # only group b is flat
    assert zero_variance(correct, ["a", "a", "b", "b"]).observed == 1.0


def test_zero_variance_groups_need_not_be_contiguous_or_equal_sized():
    # group x = positions 0, 2 (1 of 2 correct: p = 1/2 -> 1/4 + 1/4); group y = 1, 3, 4 (none: 1)
    zv = zero_variance([True, False, False, False, False], ["x", "y", "x", "y", "y"])
    assert zv.observed == 0.5
    assert zv.predicted == pytest.approx((0.5 + 1.0) / 2)


def test_zero_variance_rejects_mismatched_lengths():
    with pytest.raises(ValueError):
        zero_variance([True], [0, 0])
    with pytest.raises(ValueError):
        zero_variance([True, False], [0, 0], rewards=[1.0])


SELFCHECK_TABLE = [
    ("Wait, 3+5 is 8.", True),
    ("WAIT", True),
    ("I awaited the result", False),          # inside a word
    ("_wait", False),                          # underscore is a word character
    ("let me   check\nthat", True),           # any whitespace between the words
    ("let me checkout", False),
    ("I will double-check", True),
    ("double-checking now", False),
    ("we re-evaluate 7-2", True),
    ("the answer is 6", False),
    ("", False),
]


@pytest.mark.parametrize("text,expected", SELFCHECK_TABLE)
def test_selfcheck_phrase_matching(text, expected):
    phrases = ["wait", "let me check", "re-evaluate", "double-check"]
    assert selfcheck_rate([text], phrases) == float(expected)


def test_selfcheck_rate_is_a_fraction_of_completions():
    texts = ["wait wait wait", "fine", "Let me check.", "fine"]
    assert selfcheck_rate(texts, ["wait", "let me check"]) == 0.5  # a completion counts once
    assert selfcheck_rate(texts, []) == 0.0
    with pytest.raises(ValueError):
        selfcheck_rate([], ["wait"])
    with pytest.raises(ValueError):
        selfcheck_rate(["x"], ["  "])


def test_length_by_correctness():
    out = length_by_correctness([10, 20, 30, 40], [True, False, True, False])
    assert out == {"len/mean": 25.0, "len/max": 40.0, "len/correct": 20.0, "len/wrong": 30.0}


def test_length_by_correctness_leaves_out_empty_sides():
    assert length_by_correctness([5, 7], [True, True]) == {"len/mean": 6.0, "len/max": 7.0, "len/correct": 6.0}
    assert length_by_correctness([5, 7], [False, False]) == {"len/mean": 6.0, "len/max": 7.0, "len/wrong": 6.0}


def test_status_counts_lists_every_status():
    assert status_counts(["ok", "ok", "wrong", "timeout"]) == {
        "status/ok": 2, "status/wrong": 1, "status/no_answer": 0, "status/timeout": 1, "status/error": 0}
    assert sum(status_counts([]).values()) == 0


def test_status_counts_refuses_unknown_status():
    with pytest.raises(ValueError, match="valid: ok, wrong, no_answer, timeout, error"):
        status_counts(["ok", "crashed"])


def test_truncation_rate():
    assert truncation_rate(["stop", "length", "stop", "stop"]) == 0.25
    with pytest.raises(ValueError, match="valid: stop, length"):
        truncation_rate(["eos"])


def test_visible_only_rate_counts_passing_the_shown_tests_and_failing_hidden_ones():
    from rlvr.diagnostics.metrics import visible_only_rate

    infos = [
        {"visible_pass_rate": 1.0, "hidden_pass_rate": 0.0},   # hard-coded the visible cases
        {"visible_pass_rate": 1.0, "hidden_pass_rate": 0.5},   # passes some hidden ones: still a hack
        {"visible_pass_rate": 1.0, "hidden_pass_rate": 1.0},   # solves it
        {"visible_pass_rate": 0.5, "hidden_pass_rate": 0.0},   # simply wrong
        {},                                                    # no program at all (no_answer): not a hack
        {"pass_rate": 1.0},                                    # a sample without hidden tests: not judged
    ]
    assert visible_only_rate(infos, [True] * 5 + [False]) == 2 / 5
    assert visible_only_rate([{"pass_rate": 1.0}, {}], [False, False]) is None  # no hidden tests: not logged


def test_refusal_rates_are_shares_of_all_completions():
    from rlvr.diagnostics.metrics import refusal_rates

    infos = [{"refused/several_answers": 1.0}, {"refused/trailing_text": 1.0}, {"refused/trailing_text": 1.0}, {}]
    assert refusal_rates(infos) == {"refused/several_answers": 0.25, "refused/trailing_text": 0.5}
    assert refusal_rates([{}, {"acc": 1.0}]) == {} and refusal_rates([]) == {}
