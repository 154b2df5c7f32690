"""The run doctor: the states in which a run cannot learn, said while it runs, with what to try.

``Doctor(settings, train_rows)`` is fed each step. ``check_rewards`` reads the step's verdicts
before any update is applied (and the base evaluation's); ``examine`` reads the step's logged
metrics afterwards. Each returns ``Finding`` s: a detection's name, the step, the action (``stop``
or ``alarm``), the cause with its numbers, the evidence (for a failing reward: the first
exception's text and the row it failed on) and what to try. The trainer prints an alarm and
logs ``doctor/<name> = 1`` in the step's row; a stop ends the run with ``Finding.text()``,
records ``Finding.to_json()`` in summary.json and exits non-zero.

The detections (``settings`` is the config's ``doctor`` section; each has an action knob
``stop`` / ``alarm`` / ``off`` and its thresholds; docs/metrics.md has the table):

  reward_errors   the reward gave status ``error`` (it raised, or returned NaN / inf / None /
                  a non-number / the wrong number of values) on more than
                  ``reward_error_frac`` of a step's completions, or of the base evaluation's.
  no_signal       every group had identical rewards (``zero_var/observed`` = 1) on
                  ``no_signal_steps`` steps in a row: every advantage and the reward's
                  gradient are 0.
  all_truncated   every completion hit the length limit (``trunc_rate`` = 1) on
                  ``truncated_steps`` steps in a row.
  entropy_floor   ``entropy`` below ``entropy_min`` nats/token on ``entropy_steps`` steps in a
                  row: the policy samples (nearly) one continuation.
  sampler_gap     ``logp_mismatch`` above ``sampler_gap_max`` on ``sampler_gap_steps`` steps in
                  a row: the sampler's and the trainer's log-probabilities of the same tokens
                  disagree past the bound.
  zero_grad       ``grad_norm`` exactly 0 while the loss is not and rewards varied, on
                  ``zero_steps`` steps in a row: the loss does not reach the weights.
  zero_loss       the loss and its gradient exactly 0 while rewards varied, on ``zero_steps``
                  steps in a row: no token carried a loss (all masked or skipped).
  nonfinite_grad  ``nonfinite_steps`` steps in a row had a non-finite loss or gradient (each
                  was skipped, no update applied).
  data_repeated   the training stream began another pass over a finite training set at this
                  step, or one step drew more rows than the set holds.
  data_exhausted  ``max_epochs`` passes over the training set are done (0 = never).

A streak (K steps in a row) fires once when it reaches K and again only after it broke.
Deliberately not here: computing metrics (the trainer logs them; a key that is absent keeps
its detection quiet), the trend alarms of ``rlvr.diagnostics.alarms``, and acting on a stop
(the trainer writes the rows, the summary and the message).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

ACTIONS = ("stop", "alarm", "off")
DETECTIONS = ("reward_errors", "no_signal", "all_truncated", "entropy_floor", "sampler_gap", "zero_grad",
              "zero_loss", "nonfinite_grad", "data_repeated", "data_exhausted")

REMEDIES = {
    "reward_errors": "fix the reward so that it returns one finite number per completion (call it on the row "
                     "above to see the error again), then rerun with --resume",
    "no_signal": "no completion of a group was ever better than another: use a base that sometimes (not always) "
                 "succeeds (a longer warm-start, an easier task), raise rollout.group_size or rollout.temperature, "
                 "or turn on algo.dynamic_sampling; check samples.jsonl that the rewards are what you meant",
    "all_truncated": "raise rollout.max_new_tokens, or shape the length (algo.overlong_buffer); a truncated "
                     "completion rarely holds a checkable answer",
    "entropy_floor": "the policy has stopped exploring: raise rollout.temperature, use clip-higher "
                     "(algo.eps_high), add an entropy bonus (algo.entropy_coef / algo.entropy_target), lower train.lr",
    "sampler_gap": "the sampler runs other weights or numerics than the trainer: check the weight sync and "
                   "model.dtype, lower train.max_staleness, or turn on algo.mismatch_correction=token or sequence",
    "zero_grad": "the loss is not connected to the trainable weights: check model.lora_target / frozen "
                 "parameters and any custom objective",
    "zero_loss": "every loss token was masked or skipped: with algo.mask_truncated=true and every completion "
                 "truncated nothing is trained; raise rollout.max_new_tokens or set algo.mask_truncated=false",
    "nonfinite_grad": "lower train.lr, check the rewards for huge values, or train in float32 (model.dtype)",
    "data_repeated": "the model now sees prompts it has trained on: judge progress by held-out pass@1 and watch "
                     "for memorisation; add rows, or cap the passes with doctor.max_epochs",
    "data_exhausted": "the training rows are used up: add rows, or raise doctor.max_epochs",
}


@dataclass(frozen=True)
class Finding:
    """One detection firing: ``text()`` is what the person reads; ``to_json()`` goes in summary.json."""

    name: str
    step: int
    action: str
    cause: str
    evidence: dict = field(default_factory=dict)  # e.g. {"first error": ..., "prompt": ..., "completion": ...}

    @property
    def remedy(self) -> str:
        return REMEDIES[self.name]

    def text(self) -> str:
        verb = "stopped the run" if self.action == "stop" else "alarm"
        when = f"at step {self.step}" if self.step else "before the first step (at the base evaluation)"
        lines = [f"run doctor: {verb} {when}: {self.name}", f"  cause: {self.cause}"]
        for key, value in self.evidence.items():  # a multi-line value (a traceback's text) goes below its key
            text = str(value).rstrip()
            lines.append(f"  {key}:\n{textwrap.indent(text, '    ')}" if "\n" in text else f"  {key}: {text}")
        lines.append(f"  what to try: {self.remedy}")
        knob = "doctor.max_epochs=0" if self.name == "data_exhausted" else f"doctor.{self.name}=alarm"
        if self.action == "stop":
            lines.append(f"  to train on regardless: {knob} (off: silence it)")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {**asdict(self), "what_to_try": self.remedy}


def _short(text: Any, limit: int = 300) -> str:
    s = repr(str(text))
    return s if len(s) <= limit else s[: limit - 5] + "...'"


def _num(metrics: Mapping, key: str) -> float | None:
    value = metrics.get(key)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


class Doctor:
    """Stateful watcher of one run; see the module docstring for each detection."""

    def __init__(self, settings: Any, train_rows: int | None = None) -> None:
        for name in DETECTIONS:
            action = getattr(settings, name, "stop")
            if action not in ACTIONS:
                raise ValueError(f"doctor.{name}={action!r}; valid: {', '.join(ACTIONS)}")
        self.s = settings
        self.train_rows = train_rows or None
        self.streaks: dict[str, int] = {}
        self.fired: list[Finding] = []
        self.nonfinite_text = ""
        self.steps_seen = 0

    # ------------------------------------------------------------ state (saved with a checkpoint)
    def state_dict(self) -> dict:
        return {"streaks": dict(self.streaks), "steps_seen": self.steps_seen,
                "fired": [f.to_json() for f in self.fired]}

    def load_state_dict(self, state: Mapping) -> None:
        self.streaks = dict(state.get("streaks", {}))
        self.steps_seen = int(state.get("steps_seen", 0))
        keys = {"name", "step", "action", "cause", "evidence"}
        self.fired = [Finding(**{k: v for k, v in f.items() if k in keys}) for f in state.get("fired", [])]

    def _action(self, name: str) -> str:
        return "off" if name == "data_exhausted" else getattr(self.s, name)

    def _fire(self, name: str, step: int, cause: str, evidence: dict | None = None,
              action: str | None = None) -> Finding | None:
        action = action or self._action(name)
        if action == "off":
            return None
        finding = Finding(name, int(step), action, cause, evidence or {})
        self.fired.append(finding)
        return finding

    # ------------------------------------------------------------ the reward, before an update
    def check_rewards(self, step: int, verdicts: Sequence, samples: Sequence, texts: Sequence[str],
                      where: str | None = None) -> Finding | None:
        """``reward_errors`` on one batch of verdicts (a step's, or ``where``: the base evaluation's)."""
        where = where or f"step {step}"
        errors = [i for i, v in enumerate(verdicts) if v.status == "error"]
        n = len(verdicts)
        if not n or len(errors) / n <= self.s.reward_error_frac:
            return None
        first = errors[0]
        sample = samples[first]
        kinds = sorted({_error_kind(verdicts[i].detail) for i in errors})
        cause = (f"the reward failed (status error) on {len(errors)} of {n} completions of {where} "
                 f"({len(errors) / n:.0%} > doctor.reward_error_frac={self.s.reward_error_frac:g}): "
                 f"{', '.join(kinds)}; those completions got no reward, so the run cannot learn from them")
        evidence = {"first error": verdicts[first].detail or "(no detail)",
                    "its row": f"sample {getattr(sample, 'id', '?')!s} (completion {first} of {where})",
                    "prompt": _short(getattr(sample, "prompt", "")),
                    "answer": _short(getattr(sample, "answer", None)),
                    "completion": _short(texts[first])}
        return self._fire("reward_errors", step, cause, evidence)

    # ------------------------------------------------------------ the logged metrics, after an update
    def examine(self, step: int, metrics: Mapping, rows_drawn: tuple[int, int] | None = None,
                nonfinite_run: int = 0) -> list[Finding]:
        """Every metrics detection on one step's train row. ``rows_drawn``: the training stream's
        position before and after this step (rows of the whole run, all ranks)."""
        self.steps_seen += 1
        found = [self._streak(name, step, cause, k) for name, cause, k in self._conditions(metrics)]
        if nonfinite_run >= self.s.nonfinite_steps and self.s.nonfinite_steps > 0:
            found.append(self._fire("nonfinite_grad", step, f"{nonfinite_run} steps in a row had a non-finite loss "
                                    f"or gradient ({self.nonfinite_text or 'NaN/inf'}); each was skipped"))
        if rows_drawn is not None and self.train_rows:
            found += self._data(step, *rows_drawn)
        return [f for f in found if f is not None]

    def _conditions(self, m: Mapping) -> list[tuple[str, str | None, int]]:
        """(detection, its cause when its condition holds at this step else None, steps in a row needed)."""
        s = self.s
        zv, trunc, ent = _num(m, "zero_var/observed"), _num(m, "trunc_rate"), _num(m, "entropy")
        gap, grad, loss = _num(m, "logp_mismatch"), _num(m, "grad_norm"), _num(m, "loss")
        varied = zv is not None and zv < 1.0
        k_sig, k_trunc, k_ent = s.no_signal_steps, s.truncated_steps, s.entropy_steps
        k_gap, k_zero = s.sampler_gap_steps, s.zero_steps
        return [
            ("no_signal", f"every group's completions had the same reward on {k_sig} steps in a row "
                          f"(zero_var/observed = 1): every advantage, and the reward's gradient, was 0"
             if zv is not None and zv >= 1.0 else None, k_sig),
            ("all_truncated", f"every completion was cut at rollout.max_new_tokens on {k_trunc} steps in a row "
                              f"(trunc_rate = 1)" if trunc is not None and trunc >= 1.0 else None, k_trunc),
            ("entropy_floor", f"entropy {ent:.3g} nats/token, below doctor.entropy_min={s.entropy_min:g} on "
                              f"{k_ent} steps in a row" if ent is not None and ent < s.entropy_min else None, k_ent),
            ("sampler_gap", f"logp_mismatch {gap:.3g} nats/token, above doctor.sampler_gap_max={s.sampler_gap_max:g} "
                            f"on {k_gap} steps in a row" if gap is not None and gap > s.sampler_gap_max else None,
             k_gap),
            ("zero_grad", f"grad_norm was exactly 0 on {k_zero} steps in a row while the loss was not ({loss:.4g}) "
                          f"and rewards varied" if varied and grad == 0.0 and loss not in (None, 0.0) else None,
             k_zero),
            ("zero_loss", f"the loss and grad_norm were exactly 0 on {k_zero} steps in a row while rewards "
                          f"varied (zero_var/observed {zv})" if varied and grad == 0.0 and loss == 0.0 else None,
             k_zero),
        ]

    def _streak(self, name: str, step: int, cause: str | None, k: int) -> Finding | None:
        if cause is None:
            self.streaks[name] = 0
            return None
        self.streaks[name] = self.streaks.get(name, 0) + 1
        return self._fire(name, step, cause) if self.streaks[name] == k else None

    def _data(self, step: int, before: int, after: int) -> list[Finding | None]:
        n, out = self.train_rows, []
        if after - before > n:
            out.append(self._fire("data_repeated", step, f"this step drew {after - before} rows from a training set "
                                  f"of {n}: it trains on the same rows more than once"))
        elif after > n and (after - 1) // n > before // n:
            out.append(self._fire("data_repeated", step, f"all {n} training rows have been drawn; pass "
                                  f"{(after - 1) // n + 1} over them begins at this step"))
        cap = self.s.max_epochs
        if cap and after >= cap * n:
            out.append(self._fire("data_exhausted", step, f"{after} rows drawn: the doctor.max_epochs={cap} "
                                  f"passes over the {n} training rows are done", action="stop"))
        return out

    # ------------------------------------------------------------ the end of a run
    def summary(self) -> list[dict]:
        """Every finding of the run, for summary.json."""
        return [{"name": f.name, "step": f.step, "action": f.action, "cause": f.cause} for f in self.fired]


def _error_kind(detail: str) -> str:
    """``ValueError`` from ``ValueError: ...`` (an exception), ``returned nan`` from ``m:f returned nan``."""
    detail = detail or ""
    exc = re.match(r"([A-Za-z_][\w.]*): ", detail)
    if exc:
        return exc.group(1)
    if " returned " in detail:
        return "returned " + detail.split(" returned ", 1)[1].split(" ", 1)[0].rstrip(";,")
    return "error"
