"""Alarms: watch the stream of per-step training metrics for known failure patterns.

``AlarmMonitor.update(step, metrics)`` is fed every "train" row and returns the alarms that
fired at that step. Each alarm fires once per *episode*: when its condition becomes true,
then not again until the condition has been false for ``rearm_steps`` consecutive steps.
The trainer prints each alarm and logs ``alarm/<name> = 1`` in that step's row.

The six patterns (thresholds live in ``AlarmThresholds``; docs/metrics.md explains each):
  entropy_collapse  entropy < entropy_frac x (mean entropy of the first ``early_steps``
                    steps) while the reward has plateaued: the mean reward of the latest
                    ``window`` steps is within ``plateau_tol`` of the ``window`` before.
  zero_variance     the mean of ``zero_var/observed`` over the latest ``window`` steps is
                    above ``zero_var_max``: most groups give no gradient.
  length_growth     ``len/wrong`` grew by more than ``len_rise`` (relative) from the first
                    to the second half of the latest ``window`` steps, while ``acc`` rose by
                    less than ``acc_tol`` and (when logged) ``len/correct`` grew less than
                    ``len/wrong``: responses lengthen through wrong answers (the per-sequence
                    length-normalisation pathology Dr. GRPO describes).
  verifier_failures (``status/error`` + ``status/timeout``) / all statuses > ``verifier_max``
                    at this step.
  visible_only      ``hack/visible_only`` (completions passing every visible test and failing
                    a hidden one) rose by more than ``hack_rise`` from the first to the
                    second half of the latest ``window`` steps and the second half averages
                    above ``hack_max``: the policy is learning to pass the tests it is shown,
                    not to solve the problem.
  sampler_mismatch  the sampler-trainer log-prob gap grows: the mean of ``logp_mismatch`` over
                    the second half of the latest ``window`` steps is more than
                    ``mismatch_growth`` x the first half's and above ``mismatch_min``, or
                    ``mismatch/frac_out`` (tokens whose ratio leaves [1/C, C]) averages above
                    ``mismatch_frac_max`` over that second half.

Deliberately not here: stopping the run (alarms inform; the person decides) and any
metric computation (the alarms read the keys the trainer logs). A metric that is not
logged simply keeps its alarm silent.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TextIO

from rlvr.types import STATUSES

ALARM_NAMES = ("entropy_collapse", "zero_variance", "length_growth", "verifier_failures", "visible_only",
               "sampler_mismatch")

ALARM_MEANINGS = {
    "entropy_collapse": "policy entropy fell far below its early value while the reward stopped improving: "
                        "the policy has become near-deterministic and explores no more",
    "zero_variance": "most groups have identical rewards, so they give GRPO no gradient: the task is too easy "
                     "or too hard for the current policy (consider dynamic sampling or another curriculum)",
    "length_growth": "wrong answers grow longer while accuracy stays flat: the length-normalisation bias "
                     "(per-sequence 1/|y| weighting penalises long wrong answers less per token)",
    "verifier_failures": "a large share of completions got verifier status error or timeout: rewards are noise "
                         "for those completions; check the verifier and its time limit",
    "visible_only": "more and more completions pass every visible test but fail a hidden one: the policy is "
                    "solving the tests it sees (hard-coding them), not the problem",
    "sampler_mismatch": "the sampler's and the trainer's log-probabilities of the same tokens drift apart: "
                        "the update is more and more off-policy (precision, stale or unsynced weights); "
                        "consider algo.mismatch_correction=token or sequence",
}


@dataclass(frozen=True)
class AlarmThresholds:
    """When each alarm fires (see the module docstring for what each number means)."""

    window: int = 20
    early_steps: int = 10
    entropy_frac: float = 0.2
    plateau_tol: float = 0.02
    zero_var_max: float = 0.8
    len_rise: float = 0.25
    acc_tol: float = 0.02
    verifier_max: float = 0.05
    hack_rise: float = 0.05
    hack_max: float = 0.1
    mismatch_growth: float = 2.0
    mismatch_min: float = 0.01
    mismatch_frac_max: float = 0.05
    rearm_steps: int = 5

    def __post_init__(self) -> None:
        if self.window < 2 or self.early_steps < 1 or self.rearm_steps < 1:
            raise ValueError(f"need window >= 2, early_steps >= 1, rearm_steps >= 1; got {self.window}, "
                             f"{self.early_steps}, {self.rearm_steps}")


@dataclass(frozen=True)
class Alarm:
    """One alarm firing: which pattern, at which step, with the numbers that triggered it."""

    name: str
    step: int
    message: str

    def __str__(self) -> str:
        return f"[alarm] step {self.step} {self.name}: {self.message}"


def _mean(values) -> float:
    values = list(values)
    return sum(values) / len(values)


class AlarmMonitor:
    """Stateful watcher of train metrics; see the module docstring for each pattern."""

    def __init__(self, thresholds: AlarmThresholds | None = None, echo: bool = False,
                 stream: TextIO | None = None) -> None:
        self.t = thresholds or AlarmThresholds()
        self.window = self.t.window
        self.echo, self.stream = echo, stream
        self.early_entropy: list[float] = []
        self.history: dict[str, deque] = {}
        self.active: dict[str, bool] = {name: False for name in ALARM_NAMES}
        self.quiet_steps: dict[str, int] = {name: 0 for name in ALARM_NAMES}
        self.fired: list[Alarm] = []
        self.checks: dict[str, Callable[[Mapping], str | None]] = {
            "entropy_collapse": self._entropy_collapse,
            "zero_variance": self._zero_variance,
            "length_growth": self._length_growth,
            "verifier_failures": self._verifier_failures,
            "visible_only": self._visible_only,
            "sampler_mismatch": self._sampler_mismatch,
        }

    # ------------------------------------------------------------ bookkeeping
    def _remember(self, metrics: Mapping) -> None:
        """Keep the last 2 x window values of every key the checks read."""
        for key in ("entropy", "reward/mean", "zero_var/observed", "len/wrong", "len/correct", "acc",
                    "hack/visible_only", "logp_mismatch", "mismatch/frac_out"):
            value = metrics.get(key)
            if isinstance(value, (int, float)):
                self.history.setdefault(key, deque(maxlen=2 * self.window)).append(float(value))
        entropy = metrics.get("entropy")
        if isinstance(entropy, (int, float)) and len(self.early_entropy) < self.t.early_steps:
            self.early_entropy.append(float(entropy))

    def _last(self, key: str, n: int) -> list[float] | None:
        values = self.history.get(key)
        if values is None or len(values) < n:
            return None
        return list(values)[-n:]

    # ------------------------------------------------------------ the checks
    def _entropy_collapse(self, metrics: Mapping) -> str | None:
        entropy = metrics.get("entropy")
        rewards = self._last("reward/mean", 2 * self.window)
        if entropy is None or rewards is None or len(self.early_entropy) < self.t.early_steps:
            return None
        early = _mean(self.early_entropy)
        before, recent = _mean(rewards[: self.window]), _mean(rewards[self.window :])
        if early > 0 and entropy < self.t.entropy_frac * early and abs(recent - before) < self.t.plateau_tol:
            return (f"entropy {entropy:.4g} < {self.t.entropy_frac:g} x early entropy {early:.4g}; "
                    f"reward flat ({before:.3f} -> {recent:.3f} over the last {2 * self.window} steps)")
        return None

    def _zero_variance(self, metrics: Mapping) -> str | None:
        values = self._last("zero_var/observed", self.window)
        if values is None or _mean(values) <= self.t.zero_var_max:
            return None
        return (f"zero-variance fraction averaged {_mean(values):.2f} over the last {self.window} steps "
                f"(threshold {self.t.zero_var_max:g})")

    def _length_growth(self, metrics: Mapping) -> str | None:
        wrong, acc = self._last("len/wrong", self.window), self._last("acc", self.window)
        if wrong is None or acc is None:
            return None
        half = self.window // 2
        w0, w1 = _mean(wrong[:half]), _mean(wrong[half:])
        a0, a1 = _mean(acc[:half]), _mean(acc[half:])
        wrong_rise = (w1 - w0) / w0 if w0 > 0 else 0.0
        if wrong_rise <= self.t.len_rise or a1 - a0 >= self.t.acc_tol:
            return None
        right = self._last("len/correct", self.window)
        if right is not None:
            c0, c1 = _mean(right[:half]), _mean(right[half:])
            if c0 > 0 and (c1 - c0) / c0 >= wrong_rise:
                return None
        return (f"len/wrong rose {wrong_rise:+.0%} ({w0:.1f} -> {w1:.1f}) over the last {self.window} steps "
                f"while acc went {a0:.3f} -> {a1:.3f}")

    def _verifier_failures(self, metrics: Mapping) -> str | None:
        counts = {s: metrics.get(f"status/{s}") for s in STATUSES}
        if any(not isinstance(v, (int, float)) for v in counts.values()):
            return None
        total = sum(counts.values())
        bad = counts["error"] + counts["timeout"]
        if total <= 0 or bad / total <= self.t.verifier_max:
            return None
        return (f"{bad:g} of {total:g} completions failed verification "
                f"({counts['error']:g} error, {counts['timeout']:g} timeout; threshold {self.t.verifier_max:.0%})")

    def _visible_only(self, metrics: Mapping) -> str | None:
        values = self._last("hack/visible_only", self.window)
        if values is None:
            return None
        half = self.window // 2
        h0, h1 = _mean(values[:half]), _mean(values[half:])
        if h1 - h0 <= self.t.hack_rise or h1 <= self.t.hack_max:
            return None
        return (f"hack/visible_only rose {h0:.2f} -> {h1:.2f} over the last {self.window} steps: completions pass "
                f"the visible tests and fail hidden ones")

    def _sampler_mismatch(self, metrics: Mapping) -> str | None:
        half = self.window // 2
        gap = self._last("logp_mismatch", self.window)
        if gap is not None:
            g0, g1 = _mean(gap[:half]), _mean(gap[half:])
            if g1 > self.t.mismatch_growth * g0 and g1 > self.t.mismatch_min:
                return (f"logp_mismatch grew {g0:.3g} -> {g1:.3g} nats over the last {self.window} steps "
                        f"(> {self.t.mismatch_growth:g}x and > {self.t.mismatch_min:g})")
        out = self._last("mismatch/frac_out", half)
        if out is not None and _mean(out) > self.t.mismatch_frac_max:
            return (f"mismatch/frac_out averaged {_mean(out):.3f} over the last {half} steps "
                    f"(threshold {self.t.mismatch_frac_max:g}): that share of tokens has a sampler/trainer "
                    f"ratio outside the band")
        return None

    # ------------------------------------------------------------ the API
    def update(self, step: int, metrics: Mapping) -> list[Alarm]:
        """Feed one step's train metrics; return the alarms that fire at this step."""
        self._remember(metrics)
        fired = []
        for name, check in self.checks.items():
            message = check(metrics)
            if message is None:
                self.quiet_steps[name] += 1
                if self.quiet_steps[name] >= self.t.rearm_steps:
                    self.active[name] = False
                continue
            self.quiet_steps[name] = 0
            if not self.active[name]:
                self.active[name] = True
                fired.append(Alarm(name, int(step), message))
        for alarm in fired:
            if self.echo:
                print(alarm, file=self.stream or sys.stderr, flush=True)
        self.fired.extend(fired)
        return fired


def alarm_metrics(alarms: list[Alarm]) -> dict[str, int]:
    """The ``alarm/<name>: 1`` keys to merge into the step's metrics row."""
    return {f"alarm/{a.name}": 1 for a in alarms}
