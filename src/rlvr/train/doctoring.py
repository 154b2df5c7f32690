"""The run doctor (``rlvr.diagnostics.doctor``) wired into the training loop.

Before a step's update, ``check_step_rewards`` shows the doctor the step's verdicts (a reward
that errs on most completions stops the run there: no update is applied with rewards that are
not rewards); the base evaluation's verdicts go through ``check_eval_rewards``. After the
update, ``examine_step`` shows it the step's metrics. An alarm is printed and marked in the
step's row (``doctor/<name> = 1``); a stop goes through ``stop_run``: the failing step's metrics
row and every one of its completions (with status and detail) are written first, then
summary.json with the reason (``stop``), then the run ends with ``RunStopped``, whose message
says the cause, the evidence, what to try and which checkpoint a ``--resume`` continues from.
With several ranks every rank stops at the same step (the decision is summed over ranks).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from rlvr.diagnostics.doctor import DETECTIONS, Doctor, Finding
from rlvr.errors import UserError
from rlvr.train import checkpoint as ckpt
from rlvr.train.stepmetrics import step_metrics
from rlvr.types import Verdict


class RunStopped(UserError):
    """The run cannot usefully continue; the message says why and which checkpoint is intact."""


def last_good(ckpt_root: Path) -> str:
    last = ckpt.latest_checkpoint(ckpt_root)
    return f"the last good checkpoint is {last}" if last is not None else "no checkpoint was written yet"


def build_doctor(run) -> Doctor:
    """The run's doctor, with its streaks restored from the checkpoint being resumed."""
    rows = getattr(run.task, "train", None)
    doctor = Doctor(run.cfg.doctor, train_rows=len(rows) if isinstance(rows, (list, tuple)) else None)
    doctor.load_state_dict(run.state.doctor or {})
    return doctor


def _agree(run, finding: Finding | None, step: int) -> Finding | None:
    """The stop every rank takes at this step: the first detection any rank stops on."""
    if run.dist.world == 1:
        return finding
    mine = [1.0 if finding is not None and finding.name == name else 0.0 for name in DETECTIONS]
    votes = run.dist.all_reduce_sum(mine)
    names = [name for name, v in zip(DETECTIONS, votes) if v > 0]
    if not names:
        return None
    if finding is not None and finding.name == names[0]:
        return finding
    return Finding(names[0], step, "stop", f"another rank stopped on {names[0]} (rank 0 prints its evidence)")


def _stop_of(run, findings: list[Finding], step: int) -> Finding | None:
    return _agree(run, next((f for f in findings if f.action == "stop"), None), step)


def say(run, finding: Finding) -> None:
    run.log(finding.text())


def check_eval_rewards(run, ev: dict) -> None:
    """``reward_errors`` on the base evaluation (one rank; the evaluation holds every status)."""
    if "statuses" not in ev or "details" not in ev:
        return
    statuses = [s for row in ev["statuses"] for s in row]
    details = [d for row in ev["details"] for d in row]
    n = len(ev["statuses"][0]) if ev["statuses"] else 1
    samples = [s for s in run.eval_samples for _ in range(n)]
    texts = [t for row in ev["texts"] for t in row]
    verdicts = [Verdict(0.0, s, d) for s, d in zip(statuses, details)]
    finding = run.doctor.check_rewards(0, verdicts, samples, texts, where="the base evaluation")
    if finding is None:
        return
    if finding.action != "stop":
        say(run, finding)
        return
    stop_run(run, finding, written="metrics.jsonl holds the base evaluation's row")


def check_step_rewards(run, step: int, batch, timer) -> list[Finding]:
    """``reward_errors`` on a step's verdicts, before its update. A stop writes the step's row
    (its metrics so far) and all its completions, then ends the run."""
    finding = run.doctor.check_rewards(step, batch.verdicts, batch.samples, [c.text for c in batch.completions])
    stop = _agree(run, finding if finding is not None and finding.action == "stop" else None, step)
    if stop is None:
        return [finding] if finding is not None else []
    row = step_metrics(batch, {}, timer, 0.0, run.cfg)
    run.runlog.log({"step": step, "kind": "train", **row, f"doctor/{stop.name}": 1})
    run.runlog.write_samples(step, batch, every_row=True)
    stop_run(run, stop, written=f"metrics.jsonl and samples.jsonl hold step {step} (no update was applied); "
                                f"samples.jsonl has all {len(batch.completions)} of its completions with status and "
                                f"detail")


def examine_step(run, step: int, metrics: dict, rows_before: int, early: list[Finding]) -> Finding | None:
    """The metrics detections on one step; alarms are printed and marked in ``metrics``. The stop
    to take after the step's row is written, or None."""
    world = run.dist.world
    findings = early + run.doctor.examine(step, metrics, rows_drawn=(rows_before * world, run.state.data_pos * world),
                                          nonfinite_run=run.state.nonfinite_run)
    for f in findings:
        metrics[f"doctor/{f.name}"] = 1
        if f.action == "alarm":
            say(run, f)
    run.state.doctor = run.doctor.state_dict()
    return _stop_of(run, findings, step)


def stop_step(run, step: int, batch, finding: Finding) -> None:
    """A stop found in a step's metrics (its row is already written): its completions, then the end."""
    run.runlog.write_samples(step, batch, every_row=True)
    stop_run(run, finding, written=f"metrics.jsonl and samples.jsonl hold step {step}, samples.jsonl all "
                                   f"{len(batch.completions)} of its completions")


def stop_run(run, finding: Finding, written: str) -> None:
    """Record why the run stopped in summary.json, close the logs and the reward, raise RunStopped."""
    state = run.state
    where = last_good(run.ckpt_root)
    summary = {
        "base": state.base_eval, "final": None, "steps": state.step, "wall_s": time.time() - run.t_start,
        "phases": run.phases, "checkpoint": str(ckpt.latest_checkpoint(run.ckpt_root) or ""),
        "base_model": str(run.base_dir), "stop": {"reason": "doctor", **finding.to_json()},
        "doctor": run.doctor.summary(),
    }
    try:
        if run.dist.is_main:
            (run.run_dir / "summary.json").write_text(json.dumps(summary, indent=2, default=str) + "\n")
    finally:
        run.rewarder.close()
        run.runlog.close()
    raise RunStopped(f"{finding.text()}\n  written: {written}; summary.json records the stop\n"
                     f"  to continue: {where}; after the fix rerun with --resume (it continues from there)")


def closing_note(run) -> str | None:
    """A short run all of whose steps had no reward signal (too short for ``no_signal`` to fire)."""
    n, steps = run.doctor.streaks.get("no_signal", 0), run.doctor.steps_seen
    if not n or n != steps:
        return None
    return (f"note: on all {n} steps every group's {run.cfg.rollout.group_size} completions had the same "
            f"reward, so every advantage and the gradient were 0 and the policy did not change; a base that "
            f"never (or always) answers correctly gives no signal: warm-start it longer, raise "
            f"rollout.group_size or rollout.temperature, or use an easier task (the smoke preset's 20-step "
            f"warm-start checks the machinery, not learning)")
