"""Diagnostics: pure metric functions, pass@k / maj@k, alarms and metric sinks (figures: ``rlvr.report``).

Everything here is importable without torch, matplotlib, TensorBoard or W&B; those are
imported lazily by the one function or sink that needs them. The trainer computes the
tensor metrics (entropy, KL, clip fractions) itself and hands plain numbers to the sinks.
docs/metrics.md defines every key.
"""

from rlvr.diagnostics.alarms import ALARM_NAMES, Alarm, AlarmMonitor, AlarmThresholds, alarm_metrics
from rlvr.diagnostics.metrics import (
    ZeroVariance,
    length_by_correctness,
    refusal_rates,
    selfcheck_rate,
    status_counts,
    truncation_rate,
    visible_only_rate,
    zero_variance,
)
from rlvr.diagnostics.passk import maj_at_k, majk_curve, pass_at_k, passk_curve
from rlvr.diagnostics.sinks import NullSink, Sink, build_sink

__all__ = [
    "ALARM_NAMES", "Alarm", "AlarmMonitor", "AlarmThresholds", "alarm_metrics",
    "ZeroVariance", "length_by_correctness", "refusal_rates", "selfcheck_rate", "status_counts", "truncation_rate",
    "visible_only_rate", "zero_variance",
    "majk_curve", "maj_at_k", "pass_at_k", "passk_curve",
    "NullSink", "Sink", "build_sink",
]
