"""Alarms on synthetic metric streams: which alarm fires, at which step, and only once."""

from __future__ import annotations

import io

import pytest

from rlvr.diagnostics.alarms import AlarmMonitor, AlarmThresholds, alarm_metrics


def healthy(step: int) -> dict:
    """A run that learns: reward rises, entropy falls gently, statuses clean."""
    return {
        "reward/mean": min(0.9, 0.3 + 0.005 * step), "acc": min(0.9, 0.3 + 0.005 * step),
        "entropy": 1.0 * 0.997**step, "zero_var/observed": 0.3, "len/wrong": 20.0, "len/correct": 18.0,
        "status/ok": 40, "status/wrong": 24, "status/no_answer": 0, "status/timeout": 0, "status/error": 0,
    }


def feed(monitor: AlarmMonitor, rows) -> list[tuple[int, str]]:
    fired = []
    for step, row in enumerate(rows, start=1):
        fired += [(a.step, a.name) for a in monitor.update(step, row)]
    return fired


def test_healthy_run_raises_no_alarm():
    assert feed(AlarmMonitor(), [healthy(s) for s in range(1, 301)]) == []


def entropy_stream(entropy_at, reward_at, steps=100):
    return [{"entropy": entropy_at(s), "reward/mean": reward_at(s)} for s in range(1, steps + 1)]


def test_entropy_collapse_fires_once_when_reward_is_flat():
    # early entropy 1.0; from step 51 it is 0.1 < 0.2 x 1.0, and the reward has been 0.5 throughout
    rows = entropy_stream(lambda s: 1.0 if s <= 50 else 0.1, lambda s: 0.5)
    assert feed(AlarmMonitor(), rows) == [(51, "entropy_collapse")]


def test_entropy_collapse_needs_a_reward_plateau():
    # same collapse, but the reward still climbs 0.01 per step: 0.2 between the two 20-step windows
    rows = entropy_stream(lambda s: 1.0 if s <= 50 else 0.1, lambda s: 0.01 * s)
    assert feed(AlarmMonitor(), rows) == []


def test_entropy_collapse_rearms_after_recovering():
    def entropy(s):
        return 0.1 if 51 <= s <= 60 or s >= 71 else 1.0  # collapse, recover 10 steps, collapse again
    assert feed(AlarmMonitor(), entropy_stream(entropy, lambda s: 0.5)) == [(51, "entropy_collapse"),
                                                                            (71, "entropy_collapse")]


def test_a_short_recovery_does_not_rearm():
    def entropy(s):
        return 1.0 if s <= 50 or s in (61, 62) else 0.1  # 2 good steps < rearm_steps = 5
    assert feed(AlarmMonitor(), entropy_stream(entropy, lambda s: 0.5)) == [(51, "entropy_collapse")]


def test_zero_variance_fires_when_the_window_mean_crosses():
    # 0.3 up to step 30, then 0.95. Window mean over 20 steps > 0.8 needs n steps at 0.95 with
    # 0.95 n + 0.3 (20 - n) > 16, i.e. n >= 16: first at step 46.
    rows = [{"zero_var/observed": 0.3 if s <= 30 else 0.95} for s in range(1, 121)]
    assert feed(AlarmMonitor(), rows) == [(46, "zero_variance")]


def test_zero_variance_ignores_a_spike():
    rows = [{"zero_var/observed": 1.0 if s == 40 else 0.3} for s in range(1, 101)]
    assert feed(AlarmMonitor(), rows) == []


def length_stream(acc_at, correct_len_at, steps=80):
    # len/wrong: 20 up to step 20, then +1 per step
    return [{"len/wrong": 20.0 + max(0, s - 20), "len/correct": correct_len_at(s), "acc": acc_at(s)}
            for s in range(1, steps + 1)]


def test_length_growth_fires_when_wrong_answers_lengthen_with_flat_accuracy():
    # at step 30: first half (steps 11-20) mean 20, second half (21-30) mean 25.5 -> +27.5 % > 25 %
    # at step 29: first half 20, second half (20-29) mean 24.5 -> +22.5 %: not yet
    rows = length_stream(lambda s: 0.5, lambda s: 18.0)
    assert feed(AlarmMonitor(), rows) == [(30, "length_growth")]


def test_length_growth_silent_when_accuracy_rises():
    rows = length_stream(lambda s: 0.3 + 0.01 * s, lambda s: 18.0)  # acc halves differ by 0.1
    assert feed(AlarmMonitor(), rows) == []


def test_length_growth_silent_when_correct_answers_grow_as_fast():
    rows = length_stream(lambda s: 0.5, lambda s: 20.0 + max(0, s - 20))  # every answer lengthens
    assert feed(AlarmMonitor(), rows) == []


def test_verifier_failures_fire_once_per_episode():
    def statuses(error, timeout):
        return {"status/ok": 40, "status/wrong": 24 - error - timeout, "status/no_answer": 0,
                "status/timeout": timeout, "status/error": error}
    rows = [statuses(0, 0)] * 4 + [statuses(3, 0)] + [statuses(3, 2)] * 3 + [statuses(0, 0)] * 6 + [statuses(1, 4)]
    # step 5: 3/64 = 4.7 % <= 5 %: silent; steps 6-8: 5/64 = 7.8 %: fires at 6 only;
    # steps 9-14 clean (>= 5 steps) re-arm; step 15: 5/64 again
    assert feed(AlarmMonitor(), rows) == [(6, "verifier_failures"), (15, "verifier_failures")]


def test_visible_only_fires_when_passing_only_the_shown_tests_rises():
    # the first 10 steps: 2 % of completions pass the visible tests and fail a hidden one; then 30 %
    rows = [{"hack/visible_only": 0.02}] * 10 + [{"hack/visible_only": 0.30}] * 10
    assert feed(AlarmMonitor(), rows) == [(20, "visible_only")]  # 0.02 -> 0.30 over the window of 20
    flat = [{"hack/visible_only": 0.30}] * 20  # high but not rising: a property of the dataset, not a trend
    assert feed(AlarmMonitor(), flat) == []
    small = [{"hack/visible_only": 0.0}] * 10 + [{"hack/visible_only": 0.08}] * 10  # rising, still below 0.1
    assert feed(AlarmMonitor(), small) == []
    with pytest.raises(ValueError, match="window >= 2"):
        AlarmThresholds(window=1)


def test_missing_keys_keep_alarms_silent():
    assert feed(AlarmMonitor(), [{"reward/mean": 0.5}] * 60) == []
    assert feed(AlarmMonitor(), [{}] * 60) == []


def test_echo_prints_and_records():
    stream = io.StringIO()
    monitor = AlarmMonitor(echo=True, stream=stream)
    rows = [{"zero_var/observed": 1.0}] * 25
    feed(monitor, rows)
    assert stream.getvalue().startswith("[alarm] step 20 zero_variance: zero-variance fraction averaged 1.00")
    assert [a.name for a in monitor.fired] == ["zero_variance"]
    assert alarm_metrics(monitor.fired) == {"alarm/zero_variance": 1}


def test_thresholds_are_knobs():
    rows = [{"zero_var/observed": 0.6}] * 10
    assert feed(AlarmMonitor(AlarmThresholds(window=5, zero_var_max=0.5)), rows) == [(5, "zero_variance")]
    assert feed(AlarmMonitor(AlarmThresholds(window=5)), rows) == []
