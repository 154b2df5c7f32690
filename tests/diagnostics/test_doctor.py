"""The run doctor on hand-written metric rows and verdicts: which detection fires, at which
step, with which action, once per streak; the knobs change the thresholds and the action."""

from __future__ import annotations

import dataclasses

import pytest

from rlvr.config import DoctorConfig
from rlvr.diagnostics.doctor import DETECTIONS, REMEDIES, Doctor, Finding
from rlvr.types import Sample, Verdict


def doctor(train_rows=None, **knobs) -> Doctor:
    return Doctor(dataclasses.replace(DoctorConfig(), **knobs), train_rows=train_rows)


def healthy() -> dict:
    return {"zero_var/observed": 0.25, "trunc_rate": 0.1, "entropy": 1.2, "logp_mismatch": 1e-4,
            "grad_norm": 0.7, "loss": -0.03}


def feed(d: Doctor, rows, data=None) -> list[tuple[int, str, str]]:
    fired = []
    for step, row in enumerate(rows, start=1):
        drawn = data[step - 1] if data else None
        fired += [(f.step, f.name, f.action) for f in d.examine(step, row, rows_drawn=drawn)]
    return fired


def test_a_healthy_run_raises_nothing():
    assert feed(doctor(), [healthy()] * 50) == []


def test_every_detection_has_a_remedy_and_a_default_action():
    cfg = DoctorConfig()
    assert set(REMEDIES) == set(DETECTIONS)
    assert {n: getattr(cfg, n) for n in DETECTIONS if n != "data_exhausted"} == {
        "reward_errors": "stop", "no_signal": "stop", "all_truncated": "alarm", "entropy_floor": "alarm",
        "sampler_gap": "alarm", "zero_grad": "stop", "zero_loss": "stop", "nonfinite_grad": "stop",
        "data_repeated": "alarm"}


@pytest.mark.parametrize("name,bad,k_knob,k", [
    ("no_signal", {"zero_var/observed": 1.0, "grad_norm": 0.0, "loss": 0.0}, "no_signal_steps", 20),
    ("all_truncated", {"trunc_rate": 1.0}, "truncated_steps", 3),
    ("entropy_floor", {"entropy": 0.049}, "entropy_steps", 5),
    ("sampler_gap", {"logp_mismatch": 0.11}, "sampler_gap_steps", 3),
    ("zero_grad", {"grad_norm": 0.0, "loss": 0.2}, "zero_steps", 3),
    ("zero_loss", {"grad_norm": 0.0, "loss": 0.0}, "zero_steps", 3),
])
def test_a_streak_fires_once_at_k_steps_in_a_row_and_again_after_it_broke(name, bad, k_knob, k):
    rows = [healthy()] * 2 + [{**healthy(), **bad}] * (k + 4) + [healthy()] + [{**healthy(), **bad}] * k
    fired = feed(doctor(), rows)
    action = getattr(DoctorConfig(), name)
    assert fired == [(2 + k, name, action), (2 + k + 4 + 1 + k, name, action)]
    # one bad step fewer than K: silent
    assert feed(doctor(), [{**healthy(), **bad}] * (k - 1)) == []
    # the knob moves K
    assert feed(doctor(**{k_knob: 1}), [healthy(), {**healthy(), **bad}]) == [(2, name, action)]


def test_the_thresholds_are_exclusive_bounds():
    at = {**healthy(), "entropy": 0.05, "logp_mismatch": 0.1}  # exactly at the bounds: fine
    assert feed(doctor(entropy_steps=1, sampler_gap_steps=1), [at]) == []
    assert feed(doctor(entropy_min=0.5, entropy_steps=1), [{**healthy(), "entropy": 0.4}]) == [
        (1, "entropy_floor", "alarm")]


def test_zero_gradient_needs_rewards_that_varied():
    # every group uniform: a zero gradient is no_signal's business, not zero_grad's or zero_loss's
    rows = [{**healthy(), "zero_var/observed": 1.0, "grad_norm": 0.0, "loss": 0.0}] * 5
    assert feed(doctor(), rows) == []
    # a tiny but non-zero gradient is a gradient
    assert feed(doctor(zero_steps=1), [{**healthy(), "grad_norm": 1e-12, "loss": 0.0}]) == []


def test_the_action_knob_turns_a_stop_into_an_alarm_or_silences_it():
    bad = [{**healthy(), "trunc_rate": 1.0}] * 3
    assert feed(doctor(all_truncated="stop"), bad) == [(3, "all_truncated", "stop")]
    assert feed(doctor(all_truncated="off"), bad) == []
    with pytest.raises(ValueError, match="doctor.no_signal='maybe'"):
        doctor(no_signal="maybe")


def test_missing_metrics_keep_their_detections_quiet():
    assert feed(doctor(truncated_steps=1, entropy_steps=1, sampler_gap_steps=1, zero_steps=1), [{}] * 3) == []


def test_non_finite_steps_in_a_row_stop():
    d = doctor()
    d.nonfinite_text = "non-finite gradient norm (nan)"
    assert d.examine(4, healthy(), nonfinite_run=2) == []
    (f,) = d.examine(5, healthy(), nonfinite_run=3)
    assert (f.name, f.action) == ("nonfinite_grad", "stop")
    assert f.cause == ("3 steps in a row had a non-finite loss or gradient (non-finite gradient norm (nan)); "
                       "each was skipped")


def test_data_repeated_fires_when_a_pass_begins_and_exhausted_at_max_epochs():
    # 10 rows, 4 a step: positions 0-4, 4-8, 8-12 (pass 2 begins), 12-16, 16-20 (2 passes done)
    data = [(0, 4), (4, 8), (8, 12), (12, 16), (16, 20)]
    assert feed(doctor(train_rows=10), [healthy()] * 5, data) == [(3, "data_repeated", "alarm")]
    assert feed(doctor(train_rows=10, max_epochs=2), [healthy()] * 5, data) == [
        (3, "data_repeated", "alarm"), (5, "data_exhausted", "stop")]
    # a step that draws more rows than the set holds repeats rows within the step
    (f,) = doctor(train_rows=3).examine(1, healthy(), rows_drawn=(0, 4))
    assert f.name == "data_repeated" and "drew 4 rows from a training set of 3" in f.cause
    # an endless generated stream (no row count) never repeats
    assert feed(doctor(), [healthy()] * 3, [(0, 100), (100, 200), (200, 300)]) == []


def verdicts(statuses: str) -> list[Verdict]:
    return [Verdict(0.0, "error", f"KeyError: 'answer' (completion {i})") if s == "e" else Verdict(1.0, "ok")
            for i, s in enumerate(statuses)]


def test_reward_errors_fire_above_the_share_and_carry_the_first_error_and_its_row():
    samples = [Sample(id=f"train-{i // 2}", prompt=f"{i}+1=", answer=str(i + 1)) for i in range(4)]
    texts = ["a", "b", "c", "d"]
    assert doctor().check_rewards(1, verdicts("eeoo"), samples, texts) is None  # 2 of 4: not most
    f = doctor().check_rewards(1, verdicts("oeee"), samples, texts)
    assert (f.name, f.step, f.action) == ("reward_errors", 1, "stop")
    assert "3 of 4 completions of step 1 (75% > doctor.reward_error_frac=0.5): KeyError" in f.cause
    assert f.evidence["first error"] == "KeyError: 'answer' (completion 1)"
    assert f.evidence["its row"] == "sample train-0 (completion 1 of step 1)"
    assert f.evidence["prompt"] == "'1+1='" and f.evidence["completion"] == "'b'"
    assert doctor(reward_error_frac=0.8).check_rewards(1, verdicts("oeee"), samples, texts) is None
    assert doctor(reward_errors="off").check_rewards(1, verdicts("eeee"), samples, texts) is None


def test_the_message_says_cause_evidence_what_to_try_and_the_knob():
    f = Finding("reward_errors", 3, "stop", "the reward failed", {"first error": "ValueError: bad\n  at line 2"})
    assert f.text().splitlines() == [
        "run doctor: stopped the run at step 3: reward_errors",
        "  cause: the reward failed",
        "  first error:",
        "    ValueError: bad",
        "      at line 2",
        f"  what to try: {REMEDIES['reward_errors']}",
        "  to train on regardless: doctor.reward_errors=alarm (off: silence it)",
    ]
    assert Finding("no_signal", 0, "alarm", "x").text().startswith(
        "run doctor: alarm before the first step (at the base evaluation): no_signal")


def test_streaks_survive_a_checkpoint():
    d = doctor()
    feed(d, [{**healthy(), "trunc_rate": 1.0}] * 2)
    resumed = doctor()
    resumed.load_state_dict(d.state_dict())
    assert resumed.examine(3, {**healthy(), "trunc_rate": 1.0})[0].name == "all_truncated"
    assert resumed.steps_seen == 3
