"""The training loop: sample, verify, reinforce — read it top to bottom.

One optimizer step:
  1. draw ``prompts_per_step`` training prompts (the data position is part of the state),
  2. sample ``group_size`` completions each,
  3. verify every completion (the reward is a program, not a model),
  4. turn rewards into group-relative advantages (``rlvr.algo``),
  5. run ``epochs`` x ``minibatches`` clipped-surrogate updates with the KL penalty,
  6. sync weights to the sampler, log metrics, sample completions, evaluate, checkpoint.

Steps 1-3 come from a data source: generated in place (``train.mode=sync``,
``rlvr.train.rollouts``) or taken from the Ray pipeline whose workers generate while the
trainer trains (``train.mode=async``, ``rlvr.train.async_source``, with bounded staleness).
Everything else — set-up (``rlvr.train.run``), the update (``rlvr.train.update``), what a
step logs (``rlvr.train.stepmetrics``), faults, resume and the final summary — is the same
code for both.

The run doctor (``rlvr.train.doctoring``) watches every step for the states in which a run
cannot learn (a reward that errs, no reward signal, zero or non-finite gradients, ...): before
the update it reads the step's verdicts, after it the step's metrics; an alarm is printed, a
stop writes the step's rows and summary.json, then ends the run with the cause and what to try.

Faults: a step whose loss or gradient is not finite applies no update and is counted
(``faults/nonfinite_steps``; ``doctor.nonfinite_steps`` in a row stop the run); a periodic
checkpoint that cannot be written (disk full) is counted (``faults/checkpoint_errors``) and
training goes on.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time

from rlvr.config import Config, validate
from rlvr.train import distributed
from rlvr.train.doctoring import (
    RunStopped,
    build_doctor,
    check_eval_rewards,
    check_step_rewards,
    closing_note,
    examine_step,
    last_good,
    stop_step,
)
from rlvr.train.evaluation import base_evaluation, log_eval, run_evaluation
from rlvr.train.rollouts import StepData, collect_step_batch
from rlvr.train.run import (
    Run,
    check_run_dir,
    clear_run_dir,
    release_run_dirs,
    resolve_run_dir,
    save,
    setup_run,
)
from rlvr.train.stepmetrics import Timer, step_metrics
from rlvr.train.update import Learner, update_policy


def train(cfg: Config, resume: bool = False, log=print, overwrite: bool = False, callbacks=()) -> dict:
    """``train_run``, letting go of the run directory's lock when it ends, however it ends."""
    try:
        return train_run(cfg, resume, log, overwrite, callbacks)
    finally:
        release_run_dirs()


def train_run(cfg: Config, resume: bool = False, log=print, overwrite: bool = False, callbacks=()) -> dict:
    """Train ``cfg`` and return the summary. ``resume`` continues the run directory's newest
    intact checkpoint; ``overwrite`` replaces a run already there (else an occupied directory is
    refused, and the default ``runs/<name>`` moves on to ``runs/<name>-N``). Each callback is
    called with every metrics row (``kind`` train or eval) as it is logged."""
    if callable(cfg.reward.verifier):  # a function set in Python: recorded by its import path, no format term
        from rlvr.train.rewards import use_reward

        cfg = dataclasses.replace(cfg, reward=dataclasses.replace(cfg.reward))
        use_reward(cfg, None)
    validate(cfg)  # a config built or changed in Python is checked like one read from the command line
    if int(os.environ.get("WORLD_SIZE", "1")) == 1:  # torchrun ranks must agree on one directory: no renaming
        cfg = resolve_run_dir(cfg, resume, overwrite, log)
    if cfg.train.ray_ranks > 1 and "RANK" not in os.environ:  # data-parallel ranks as Ray actors
        check_run_dir(cfg, resume, overwrite)
        if overwrite:
            clear_run_dir(cfg.run_dir(), log)
        return distributed.launch_with_ray(cfg, resume)[0]
    if cfg.train.mode == "async":
        from rlvr.train.async_source import check_config, with_behaviour_cap

        check_config(cfg)
        cfg = with_behaviour_cap(cfg)  # the resolved behaviour-weight cap is written to config.json
    eval_backend = "hf" if cfg.train.mode == "async" and cfg.rollout.backend == "vllm" else None
    run = setup_run(cfg, resume, log, eval_backend=eval_backend, overwrite=overwrite)
    if callbacks:
        run.runlog = CallbackLog(run.runlog, callbacks)
    source = data_source(run)
    run.doctor = build_doctor(run)
    last_eval = base_evaluation(run, check=lambda ev: check_eval_rewards(run, ev))

    # ------------------------------------------------------------ the loop
    t_train = time.time()
    bar = run.runlog.progress(cfg.train.steps, initial=run.state.step)
    reason = "train.steps"
    try:
        source.start()
        while run.state.step < cfg.train.steps:
            step, timer, t_step, drawn = run.state.step + 1, Timer(), time.perf_counter(), run.state.data_pos
            batch = source.next_batch(step, timer)  # 1-3. prompts, G completions each, verdicts
            early = check_step_rewards(run, step, batch, timer)  # the doctor, before any update
            with timer("train"):  # 4-5. advantages and the policy update
                train_stats = train_step(run, batch, step)
            source.after_update(step)
            metrics = step_metrics(batch, train_stats, timer, time.perf_counter() - t_step, cfg)  # 6.
            metrics.update(source.step_metrics(batch, timer, time.perf_counter() - t_step))
            stop = examine_step(run, step, metrics, drawn, early)  # the doctor: alarms marked in the row
            out_of_time = bool(cfg.train.time_limit_s) and time.time() - t_train > cfg.train.time_limit_s
            last_eval = end_of_step(run, step, batch, metrics, last_eval,
                                    last=out_of_time or step >= cfg.train.steps, stopping=stop is not None)
            if stop is not None:
                stop_step(run, step, batch, stop)  # writes summary.json, raises RunStopped
            bar.update(metrics, last_eval)
            if out_of_time:
                run.log(f"train.time_limit_s reached at step {step}; stopping")
                reason = "train.time_limit_s"
                break
            if cfg.eval.stop_at and eval_due(cfg, step) and last_eval >= cfg.eval.stop_at:
                run.log(f"eval.stop_at={cfg.eval.stop_at} reached at step {step} (pass@1 {last_eval:.3f}); stopping")
                reason = "eval.stop_at"
                break
    finally:
        bar.close()
        source.close()
    run.phases["train_s"] = time.time() - t_train
    note = closing_note(run)
    if note:
        run.log(note)
    return finish(run, source, reason)


class CallbackLog:
    """The run log, with every logged metrics row also handed to the user's callbacks."""

    def __init__(self, runlog, callbacks):
        self._runlog, self._callbacks = runlog, list(callbacks)

    def log(self, row: dict) -> None:
        self._runlog.log(row)
        for fn in self._callbacks:
            fn(dict(row))

    def __getattr__(self, name):
        return getattr(self._runlog, name)


# ---------------------------------------------------------------- data sources
class SyncSource:
    """Batches generated in place by the trainer's own sampler (this rank's share of a step)."""

    def __init__(self, run: Run):
        self.run = run
        self.cfg = distributed.local_config(run.cfg, run.dist)  # prompts_per_step / world
        self.task = distributed.shard_task(run.task, run.dist)

    def start(self) -> None:
        pass

    def next_batch(self, step: int, timer) -> StepData:
        r = self.run
        return collect_step_batch(self.cfg, self.task, r.state, r.rollout, r.tokenizer, r.rewarder, timer)

    def after_update(self, step: int) -> None:
        self.run.rollout.sync_weights()

    def step_metrics(self, batch: StepData, timer, step_s: float) -> dict:
        sync_metrics = getattr(self.run.rollout, "sync_metrics", None)  # vllm: push time, probe gap
        return sync_metrics() if sync_metrics is not None else {}

    def summary(self) -> dict:
        return {}

    def close(self) -> None:
        pass


def data_source(run: Run):
    if run.cfg.train.mode == "async":
        from rlvr.train.async_source import AsyncSource

        return AsyncSource(run)
    return SyncSource(run)


# ---------------------------------------------------------------- one step
def train_step(run: Run, batch: StepData, step: int) -> dict:
    """Advantages and the policy update; a non-finite step applies nothing and is counted."""
    cfg = run.cfg
    if cfg.algo.ref_update_every and run.ref_model is not None and step % cfg.algo.ref_update_every == 0:
        run.ref_model.load_state_dict(run.model.state_dict())  # re-anchor (R1-Zero did every 400 steps)
    learner = Learner(run.model, run.optimizer, run.ref_model, run.critic, run.tokenizer.pad_token_id)
    try:
        stats = update_policy(learner, batch, cfg, run.shuffle_gen, **run.dist.update_kwargs(cfg.train.dp))
        run.state.nonfinite_run = 0
    except FloatingPointError as exc:  # non-finite loss/gradient: nothing applied; skip, count, maybe stop
        stats = skip_nonfinite_step(run, step, exc)
    run.scheduler.step()
    return stats


def eval_due(cfg: Config, step: int) -> bool:
    """A periodic held-out evaluation follows this step (the final one is ``finish``'s)."""
    return bool(cfg.eval.every) and step % cfg.eval.every == 0 and step < cfg.train.steps


def end_of_step(run: Run, step: int, batch: StepData, metrics: dict, last_eval: float, last: bool,
                stopping: bool = False) -> float:
    """Log the step, sample completions, evaluate and checkpoint when due; the latest pass@1.
    ``last``: the loop ends after this step (the final save, after the final evaluation, covers it).
    ``stopping``: the run doctor stops the run after this step: its row only (the stop writes the rest)."""
    cfg, state = run.cfg, run.state
    metrics["lr"] = run.scheduler.get_last_lr()[0]
    metrics.update({f"faults/{k}": v for k, v in state.faults.items()})  # only once a fault happened
    state.step = step
    run.runlog.log({"step": step, "kind": "train", **metrics})
    if stopping:
        return last_eval
    run.runlog.write_samples(step, batch)
    if eval_due(cfg, step):
        ev = run_evaluation(run)
        log_eval(run, step, ev)
        last_eval = ev["pass@1"]
    if cfg.train.checkpoint_every and step % cfg.train.checkpoint_every == 0 and not last:
        try:
            save(run)
        except OSError as exc:  # disk full, quota, I/O error: the previous checkpoint is intact; go on
            checkpoint_failed(run, step, exc)
    return last_eval


# ---------------------------------------------------------------- the end
def finish(run: Run, source, reason: str = "train.steps") -> dict:
    """Final evaluation, final checkpoint, summary.json and the report. ``reason``: the setting
    that ended the loop (recorded as summary.json's ``stop``)."""
    state = run.state
    if (state.final_eval or {}).get("step") != state.step:  # not when resuming a run that had finished
        t0 = time.time()
        final = run_evaluation(run)
        run.phases["final_eval_s"] = time.time() - t0
        log_eval(run, state.step, final)
        # saved with the final checkpoint
        state.final_eval = {"step": state.step, "pass@1": final["pass@1"],
                            **({"by_kind": final["by_kind"]} if final.get("by_kind") else {})}
    try:
        final_dir = save(run)
    except OSError as exc:
        raise RunStopped(f"could not write the final checkpoint (step {state.step}): {exc}; "
                         f"{last_good(run.ckpt_root)}; free space and rerun with --resume") from None
    finally:
        run.rewarder.close()
        run.runlog.close()
    summary = {
        "base": state.base_eval, "final": {k: v for k, v in state.final_eval.items() if k != "step"},
        "steps": state.step,
        "wall_s": time.time() - run.t_start, "phases": run.phases, "checkpoint": str(final_dir),
        "base_model": str(run.base_dir), "stop": {"reason": reason, "step": state.step},
        "doctor": run.doctor.summary() if run.doctor is not None else [], **source.summary(),
    }
    if run.dist.is_main:
        (run.run_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        if run.cfg.log.report:
            run.runlog.write_report()
    hist = f"; staleness histogram {summary['staleness_histogram']}" if "staleness_histogram" in summary else ""
    run.log(f"done: pass@1 {summary['base']['pass@1']:.3f} -> {summary['final']['pass@1']:.3f} in "
            f"{summary['wall_s']:.0f}s{hist}; run directory {run.run_dir}")
    return summary


# ---------------------------------------------------------------- faults
def skip_nonfinite_step(run: Run, step: int, exc: FloatingPointError) -> dict:
    """A step whose loss or gradient was not finite: the optimizer step was not taken. Count it in
    ``faults/nonfinite_steps`` and go on; the run doctor stops the run after ``doctor.nonfinite_steps``
    such steps in a row (``nonfinite_grad``)."""
    state = run.state
    state.faults["nonfinite_steps"] = state.faults.get("nonfinite_steps", 0) + 1
    state.nonfinite_run += 1
    if run.doctor is not None:
        run.doctor.nonfinite_text = str(exc)
    run.log(f"step {step}: skipped (non-finite loss or gradient, no update applied); "
            f"{state.faults['nonfinite_steps']} skipped so far")
    return {}


def checkpoint_failed(run: Run, step: int, exc: OSError) -> None:
    """A periodic checkpoint could not be written (the write cleaned up after itself). Count it in
    ``faults/checkpoint_errors`` and keep training; the next checkpoint may succeed."""
    run.state.faults["checkpoint_errors"] = run.state.faults.get("checkpoint_errors", 0) + 1
    run.log(f"warning: checkpoint at step {step} failed ({exc}); {last_good(run.ckpt_root)}; training continues")

