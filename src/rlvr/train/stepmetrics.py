"""What one training step logs. Every key is defined in docs/metrics.md."""

from __future__ import annotations

import time

from rlvr.config import Config
from rlvr.diagnostics.metrics import (
    length_by_correctness,
    refusal_rates,
    selfcheck_rate,
    status_counts,
    truncation_rate,
    visible_only_rate,
    zero_variance,
)

# trainer stat name (from rlvr.algo.policy_loss / update) -> logged key
_TRAIN_KEYS = {
    "entropy": "entropy", "kl_ref": "kl_ref", "clip_frac_low": "clip_frac/low", "clip_frac_high": "clip_frac/high",
    "approx_kl_old": "approx_kl_old", "grad_norm": "grad_norm", "logp_mismatch": "logp_mismatch",
    "ratio_max": "ratio_max", "tis_frac_capped": "tis/frac_capped", "adv_abs_mean": "adv/abs_mean",
    "value_loss": "value/loss", "explained_var": "value/explained_var", "rows_skipped": "train/rows_skipped",
    "positions": "train/positions", "cispo_clip_frac": "cispo/clip_frac", "gspo_seq_clip_frac": "gspo/seq_clip_frac",
    "cov_frac_selected": "cov/frac_selected", "top_entropy_frac_kept": "top_entropy/frac_kept",
    "entropy_coef": "entropy/coef", "loss": "loss",
    **{k: k for k in ("mismatch/abs_max", "mismatch/kl_k3", "mismatch/frac_out", "mismatch/seq_out",
                      "mismatch/corrected")},
}


def step_metrics(data, train_stats: dict, timer, step_s: float, cfg: Config) -> dict:
    rewards = data.rewards.tolist()
    n = len(rewards)
    correct = [v.status == "ok" for v in data.verdicts]
    lengths = [len(c.token_ids) for c in data.completions]
    m: dict = {}
    mean = sum(rewards) / n
    m["reward/mean"] = mean
    m["reward/std"] = (sum((r - mean) ** 2 for r in rewards) / n) ** 0.5
    for comp in ("acc", "format"):
        vals = [v.info[comp] for v in data.verdicts if comp in v.info]
        if vals:
            m[f"reward/{comp}/mean"] = sum(vals) / len(vals)
    m.update(status_counts([v.status for v in data.verdicts]))
    infos = [v.info for v in data.verdicts]
    m.update(refusal_rates(infos))
    hack = visible_only_rate(infos, [bool(s.get("hidden_tests")) for s in data.samples])
    if hack is not None:
        m["hack/visible_only"] = hack
    m["acc"] = sum(correct) / n
    fmt = [v.info["format"] for v in data.verdicts if "format" in v.info]
    if fmt:
        m["format_rate"] = sum(fmt) / len(fmt)
    zv = zero_variance(correct, data.group_ids.tolist(), rewards)
    m["zero_var/observed"], m["zero_var/predicted"] = zv.observed, zv.predicted
    m.update(length_by_correctness(lengths, correct))
    m["trunc_rate"] = truncation_rate([c.finish_reason for c in data.completions])
    m["selfcheck_rate"] = selfcheck_rate([c.text for c in data.completions], cfg.log.selfcheck_phrases)
    for k, v in train_stats.items():
        if k in _TRAIN_KEYS:
            m[_TRAIN_KEYS[k]] = v
    for k in ("generate", "verify", "train"):
        m[f"time/{k}"] = timer.t.get(k, 0.0)
    m["time/step"] = step_s
    m["tokens_per_s"] = sum(lengths) / max(timer.t.get("generate", 0.0), 1e-9)
    calls = [c.tool_calls for c in data.completions]
    if any(calls):
        m["tool/calls_per_completion"] = sum(calls) / n
        m["tool/errors"] = sum(c.tool_errors for c in data.completions)
    m.update(data.dyn)
    return m


class Timer:
    """Seconds spent per phase of a step: ``with timer("generate"): ...``; totals in ``timer.t``."""

    def __init__(self):
        self.t: dict[str, float] = {}

    def __call__(self, name: str) -> _Phase:
        return _Phase(self, name)


class _Phase:
    def __init__(self, timer: Timer, name: str):
        self.timer, self.name = timer, name

    def __enter__(self) -> None:
        self.t0 = time.perf_counter()

    def __exit__(self, *exc) -> None:
        self.timer.t[self.name] = self.timer.t.get(self.name, 0.0) + time.perf_counter() - self.t0
