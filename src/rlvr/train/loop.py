"""The training loop: sample, verify, reinforce — read it top to bottom.

One optimizer step:
  1. draw ``prompts_per_step`` training prompts (the data position is part of the state),
  2. sample ``group_size`` completions each from the rollout backend,
  3. verify every completion (the reward is a program, not a model),
  4. turn rewards into group-relative advantages (``rlvr.algo``),
  5. run ``epochs`` x ``minibatches`` clipped-surrogate updates with the KL penalty,
  6. sync weights to the rollout backend, log metrics, sample completions, evaluate,
     checkpoint.
Faults: a step whose loss or gradient is not finite applies no update and is counted
(``faults/nonfinite_steps``; three in a row stop the run); a periodic checkpoint that cannot
be written (disk full) is counted (``faults/checkpoint_errors``) and training goes on.
Plumbing lives in ``components.py`` (task, model, reward, eval), ``update.py`` (the policy
update) and ``metrics.py`` (what a step logs); all math lives in ``rlvr.algo``.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import torch

from rlvr.config import Config, save_config
from rlvr.errors import UserError
from rlvr.train import checkpoint as ckpt
from rlvr.train import distributed
from rlvr.train.components import (Rewarder, Timer, base_evaluation, build_reference, build_rollout, build_task,
                                   check_contamination, ensure_base, evaluate, load_policy, render_prompt, seed_everything, set_threads)
from rlvr.train.rollouts import collect_step_batch
from rlvr.train.runlog import RunLog
from rlvr.train.update import update_policy
from rlvr.train.stepmetrics import step_metrics


def train(cfg: Config, resume: bool = False, log=print) -> dict:
    if cfg.train.mode == "async":  # Ray actors with bounded staleness: its own script
        from rlvr.train.async_loop import train_async

        return train_async(cfg, resume=resume, log=log)
    if cfg.train.ray_ranks > 1 and "RANK" not in os.environ:  # data-parallel ranks as Ray actors
        return distributed.launch_with_ray(cfg, resume)[0]
    t_start = time.time()
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    run_dir = cfg.run_dir()
    phases: dict[str, float] = {}
    set_threads(cfg)
    dist = distributed.setup(cfg)  # torchrun / Ray ranks; a world of one makes every dist.* call a no-op
    log = log if dist.is_main else (lambda text: None)
    seed_everything(cfg.seed)

    # ------------------------------------------------------------ task (a bad knob or data row stops here, before any write)
    task = build_task(cfg)

    # ------------------------------------------------------------ run directory
    ckpt_root = run_dir / "checkpoints"
    resume_from = ckpt.latest_checkpoint(ckpt_root) if resume else None
    if resume and resume_from is None:
        log(f"resume: no checkpoint under {ckpt_root}; starting from scratch")
    run_dir.mkdir(parents=True, exist_ok=True)
    if dist.is_main:
        save_config(cfg, run_dir / "config.json")

    # ------------------------------------------------------------ base policy
    check_contamination(cfg, task, log)  # dataset tasks: refuse eval problems seen in training
    t0 = time.time()
    base_dir = dist.main_first(lambda: ensure_base(cfg, task, log))  # rank 0 fills the warm-start cache
    phases["warmstart_s"] = time.time() - t0
    lora = cfg.model.lora_r > 0  # LoRA resumes from the base plus the adapter saved in trainer_state.pt
    model, tokenizer = load_policy(base_dir if lora else (resume_from or base_dir), cfg)
    ref_model = build_reference(cfg, model, base_dir, resume_from)  # None without a KL term
    distributed.wrap_model(model, dist, cfg.train.dp)  # ranks start equal (ddp) or shard (fsdp2)
    trainable = [p for p in model.parameters() if p.requires_grad]  # all of them, or LoRA's adapters
    optimizer = torch.optim.AdamW(trainable, lr=cfg.train.lr, betas=tuple(cfg.train.betas),
                                  weight_decay=cfg.train.weight_decay)
    warmup = max(cfg.train.warmup_steps, 0)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / warmup) if warmup else 1.0)
    critic = None
    if cfg.algo.advantage == "gae":  # PPO: a learned value model, as large as the policy
        from rlvr.train.components import resolve_device_dtype
        from rlvr.train.critic import Critic, CriticTrainer

        device, dtype = resolve_device_dtype(cfg)
        critic = CriticTrainer(Critic.from_pretrained(base_dir, dtype=dtype, device=device), lr=cfg.train.lr)
    rollout = build_rollout(cfg, model, tokenizer)
    rewarder = Rewarder(cfg)
    shuffle_gen = torch.Generator().manual_seed(cfg.seed + 1)

    # ------------------------------------------------------------ state (fresh or resumed)
    state = {"step": 0, "data_pos": 0, "base_eval": None, "wall_s": 0.0}
    if dist.world > 1:
        state["world"] = dist.world  # the data position is per rank: resume with as many ranks
    if resume_from is not None:
        saved = ckpt.load_trainer_state(resume_from)
        if saved.get("adapter") is not None:
            from rlvr.models.lora import load_adapter_state

            load_adapter_state(model, saved["adapter"])
        distributed.load_optimizer_state(model, optimizer, saved["optimizer"])
        scheduler.load_state_dict(saved["scheduler"])
        ckpt.set_rng_state(saved["rng"], {"rollout": rollout.gen, "shuffle": shuffle_gen})
        if ref_model is not None and saved.get("ref_state") is not None:
            ref_model.load_state_dict(saved["ref_state"])
        if critic is not None:
            critic.load_state_dict(saved["critic"])
        state.update(saved["state"])
        dist.check_resume(state)
        log(f"resume: continuing from {resume_from.name} (step {state['step']}, data position {state['data_pos']})")
    dist.reseed(rollout.gen, cfg.seed, state["step"])  # ranks sample independently
    # resuming drops log lines past the checkpoint; with no checkpoint yet (killed before the first), all of them
    keep_until = state["step"] if resume_from is not None else (-1 if resume else None)
    runlog = RunLog(run_dir, cfg, truncate_after=keep_until) if dist.is_main else distributed.NullRunLog()
    evaluate_fn = dist.wrap_evaluate(evaluate)  # with several ranks: each scores its share, summed
    step_cfg, step_task = distributed.local_config(cfg, dist), distributed.shard_task(task, dist)  # this rank's share

    # ------------------------------------------------------------ base evaluation
    eval_samples = task.eval_samples[: cfg.eval.problems]
    last_eval = base_evaluation(state, evaluate_fn, rollout, tokenizer, eval_samples, rewarder, cfg, runlog, log, phases)

    # ------------------------------------------------------------ the loop
    t_train = time.time()
    bar = runlog.progress(cfg.train.steps, initial=state["step"])
    while state["step"] < cfg.train.steps:
        step = state["step"] + 1
        timer = Timer()
        t_step = time.perf_counter()

        # 1-3. sample prompts, generate G completions each, verify
        batch_data = collect_step_batch(step_cfg, step_task, state, rollout, tokenizer, rewarder, timer)

        # 4-5. advantages and the policy update
        with timer("train"):
            if cfg.algo.ref_update_every and ref_model is not None and step % cfg.algo.ref_update_every == 0:
                ref_model.load_state_dict(model.state_dict())  # re-anchor (R1-Zero did every 400 steps)
            try:
                train_stats = update_policy(model, ref_model, optimizer, batch_data, cfg, tokenizer.pad_token_id,
                                            shuffle_gen, critic=critic, **dist.update_kwargs(cfg.train.dp))
                state.pop("nonfinite_run", None)
            except FloatingPointError as exc:  # non-finite loss/gradient: nothing applied; skip, count, maybe stop
                train_stats = skip_nonfinite_step(state, step, exc, ckpt_root, log)
            scheduler.step()
        rollout.sync_weights()

        # 6. metrics, samples, evaluation, checkpoint
        metrics = step_metrics(batch_data, train_stats, timer, time.perf_counter() - t_step, cfg)
        metrics["lr"] = scheduler.get_last_lr()[0]
        metrics.update({f"faults/{k}": v for k, v in state.get("faults", {}).items()})  # only once a fault happened
        state["step"] = step
        runlog.log({"step": step, "kind": "train", **metrics})
        runlog.write_samples(step, batch_data)
        if cfg.eval.every and step % cfg.eval.every == 0 and step < cfg.train.steps:
            ev = evaluate_fn(rollout, tokenizer, eval_samples, rewarder, cfg)
            last_eval = ev["pass@1"]
            runlog.log({"step": step, "kind": "eval", "pass@1": ev["pass@1"], "eval/len_mean": ev["eval/len_mean"]})
        bar.update(metrics, last_eval)
        out_of_time = cfg.train.time_limit_s and time.time() - t_train > cfg.train.time_limit_s
        last = out_of_time or step >= cfg.train.steps  # the final save, after the final evaluation, covers it
        if cfg.train.checkpoint_every and step % cfg.train.checkpoint_every == 0 and not last:
            state["wall_s"] = state.get("wall_s", 0.0) + 0.0
            try:
                save(ckpt_root, step, model, tokenizer, optimizer, scheduler, rollout, shuffle_gen, ref_model, state,
                     cfg, critic)
            except OSError as exc:  # disk full, quota, I/O error: the previous checkpoint is intact; go on
                checkpoint_failed(state, step, exc, ckpt_root, log)
        if out_of_time:
            log(f"train.time_limit_s reached at step {step}; stopping")
            break
    bar.close()
    phases["train_s"] = time.time() - t_train

    # ------------------------------------------------------------ final evaluation, checkpoint, summary
    if (state.get("final_eval") or {}).get("step") != state["step"]:  # not when resuming a run that had finished
        t0 = time.time()
        final = evaluate_fn(rollout, tokenizer, eval_samples, rewarder, cfg)
        phases["final_eval_s"] = time.time() - t0
        runlog.log({"step": state["step"], "kind": "eval", "pass@1": final["pass@1"],
                    "eval/len_mean": final["eval/len_mean"]})
        state["final_eval"] = {"step": state["step"], "pass@1": final["pass@1"]}  # saved with the final checkpoint
    final = state["final_eval"]
    try:
        final_dir = save(ckpt_root, state["step"], model, tokenizer, optimizer, scheduler, rollout, shuffle_gen,
                         ref_model, state, cfg, critic)
    except OSError as exc:
        rewarder.close()
        runlog.close()
        raise RunStopped(f"could not write the final checkpoint (step {state['step']}): {exc}; "
                         f"{_last_good(ckpt_root)}; free space and rerun with --resume") from None
    rewarder.close()
    summary = {
        "base": state["base_eval"], "final": {"pass@1": final["pass@1"]}, "steps": state["step"],
        "wall_s": time.time() - t_start, "phases": phases, "checkpoint": str(final_dir),
        "base_model": str(base_dir),
    }
    if dist.is_main:
        (run_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    runlog.close()
    if cfg.log.report:
        runlog.write_report()
    log(f"done: pass@1 {summary['base']['pass@1']:.3f} -> {final['pass@1']:.3f} in {summary['wall_s']:.0f}s; "
        f"run directory {run_dir}")
    return summary


def save(ckpt_root: Path, step, model, tokenizer, optimizer, scheduler, rollout, shuffle_gen, ref_model, state, cfg,
         critic=None):
    trainer_state = {
        "optimizer": distributed.optimizer_state(model, optimizer),  # gathered under FSDP2: every rank calls
        "scheduler": scheduler.state_dict(),
        "rng": ckpt.rng_state({"rollout": rollout.gen, "shuffle": shuffle_gen}),
        "ref_state": ref_model.state_dict() if (ref_model is not None and cfg.algo.ref_update_every) else None,
        "state": dict(state),
        "critic": critic.state_dict() if critic is not None else None,
    }
    weights = distributed.saveable(model)  # gathered under FSDP2: every rank calls
    if not distributed.is_main():
        return None  # rank 0 writes the run directory
    if not cfg.model.lora_r:
        return ckpt.save_checkpoint(ckpt_root, step, weights, tokenizer, trainer_state, keep=cfg.train.keep_checkpoints)
    from rlvr.models import lora  # the merged model for from_pretrained, the adapter for resume and peft

    trainer_state["adapter"] = lora.adapter_state(model)
    final = ckpt.save_checkpoint(ckpt_root, step, lora.MergedView(model), tokenizer, trainer_state,
                                 keep=cfg.train.keep_checkpoints)
    lora.save_adapter(model, final / lora.ADAPTER_DIR)
    return final


# ---------------------------------------------------------------- faults
MAX_NONFINITE_IN_A_ROW = 3  # skipped steps in a row before the run stops


class RunStopped(UserError):
    """The run cannot usefully continue; the message says why and which checkpoint is intact."""


def _last_good(ckpt_root: Path) -> str:
    last = ckpt.latest_checkpoint(ckpt_root)
    return f"the last good checkpoint is {last}" if last is not None else "no checkpoint was written yet"


def skip_nonfinite_step(state: dict, step: int, exc: FloatingPointError, ckpt_root: Path, log) -> dict:
    """A step whose loss or gradient was not finite: the optimizer step was not taken. Count it in
    ``faults/nonfinite_steps`` and go on; stop after MAX_NONFINITE_IN_A_ROW such steps in a row."""
    faults = state.setdefault("faults", {})
    faults["nonfinite_steps"] = faults.get("nonfinite_steps", 0) + 1
    state["nonfinite_run"] = state.get("nonfinite_run", 0) + 1
    if state["nonfinite_run"] >= MAX_NONFINITE_IN_A_ROW:
        raise RunStopped(f"stopping at step {step}: {state['nonfinite_run']} steps in a row had a non-finite loss or "
                         f"gradient ({exc}); {_last_good(ckpt_root)}; lower train.lr or check the rewards, "
                         f"then rerun with --resume")
    log(f"step {step}: skipped (non-finite loss or gradient, no update applied); "
        f"{faults['nonfinite_steps']} skipped so far")
    return {}


def checkpoint_failed(state: dict, step: int, exc: OSError, ckpt_root: Path, log) -> None:
    """A periodic checkpoint could not be written (the write cleaned up after itself). Count it in
    ``faults/checkpoint_errors`` and keep training; the next checkpoint may succeed."""
    faults = state.setdefault("faults", {})
    faults["checkpoint_errors"] = faults.get("checkpoint_errors", 0) + 1
    log(f"warning: checkpoint at step {step} failed ({exc}); {_last_good(ckpt_root)}; training continues")
