"""The sampler_mismatch alarm: fires when the sampler-trainer gap grows, once per episode."""

from __future__ import annotations

from rlvr.diagnostics.alarms import AlarmMonitor, AlarmThresholds


def feed(monitor, rows):
    return [(a.step, a.name) for step, row in enumerate(rows, start=1) for a in monitor.update(step, row)]


def test_a_steady_gap_is_quiet_and_a_growing_one_fires_once():
    steady = [{"logp_mismatch": 0.02, "mismatch/frac_out": 0.001}] * 60
    assert feed(AlarmMonitor(), steady) == []
    growing = steady[:20] + [{"logp_mismatch": 0.02 + 0.004 * i, "mismatch/frac_out": 0.001} for i in range(40)]
    fired = feed(AlarmMonitor(), growing)
    assert [name for _, name in fired] == ["sampler_mismatch"]
    step = fired[0][0]
    # at the firing step the second half of the window averages more than twice the first half
    window = [r["logp_mismatch"] for r in growing[step - 20:step]]
    assert sum(window[10:]) / 10 > 2 * sum(window[:10]) / 10


def test_a_tiny_gap_that_doubles_stays_below_the_floor():
    rows = [{"logp_mismatch": 1e-4}] * 10 + [{"logp_mismatch": 1e-3}] * 30  # x10, but under 0.01 nats
    assert feed(AlarmMonitor(), rows) == []


def test_many_tokens_outside_the_band_fire():
    rows = [{"mismatch/frac_out": 0.0}] * 5 + [{"mismatch/frac_out": 0.2}] * 20
    # window 10: the last 5 steps; at step 7 they are (0, 0, 0, 0.2, 0.2), mean 0.08 > 0.05
    assert feed(AlarmMonitor(AlarmThresholds(window=10)), rows) == [(7, "sampler_mismatch")]
