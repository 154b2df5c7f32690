"""The training loop: sample, verify, reinforce — read it top to bottom.

One optimizer step:
  1. draw ``prompts_per_step`` training prompts (the data position is part of the state),
  2. sample ``group_size`` completions each from the rollout backend,
  3. verify every completion (the reward is a program, not a model),
  4. turn rewards into group-relative advantages (``rlvr.algo``),
  5. run ``epochs`` x ``minibatches`` clipped-surrogate updates with the KL penalty,
  6. sync weights to the rollout backend, log metrics, sample completions, evaluate,
     checkpoint.
Plumbing lives in ``components.py`` (task, model, reward, eval), ``update.py`` (the policy
update) and ``metrics.py`` (what a step logs); all math lives in ``rlvr.algo``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import torch

from rlvr.config import Config, save_config
from rlvr.train import checkpoint as ckpt
from rlvr.train.components import (Rewarder, Timer, build_rollout, build_task, ensure_base, evaluate,
                                   frozen_copy, load_policy, render_prompt, seed_everything, set_threads)
from rlvr.train.rollouts import collect_step_batch
from rlvr.train.runlog import RunLog
from rlvr.train.update import update_policy
from rlvr.train.stepmetrics import step_metrics


def train(cfg: Config, resume: bool = False, log=print) -> dict:
    t_start = time.time()
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    run_dir = cfg.run_dir()
    phases: dict[str, float] = {}
    set_threads(cfg)
    seed_everything(cfg.seed)

    # ------------------------------------------------------------ run directory
    ckpt_root = run_dir / "checkpoints"
    resume_from = ckpt.latest_checkpoint(ckpt_root) if resume else None
    if resume and resume_from is None:
        log(f"resume: no checkpoint under {ckpt_root}; starting from scratch")
    run_dir.mkdir(parents=True, exist_ok=True)
    save_config(cfg, run_dir / "config.json")

    # ------------------------------------------------------------ task and base policy
    task = build_task(cfg)
    t0 = time.time()
    base_dir = ensure_base(cfg, task, log)
    phases["warmstart_s"] = time.time() - t0
    model, tokenizer = load_policy(resume_from or base_dir, cfg)
    ref_model = frozen_copy(model) if cfg.algo.kl_coef else None
    if ref_model is not None and resume_from is not None:  # the reference is the base, not the checkpoint
        base_model, _ = load_policy(base_dir, cfg)
        ref_model = frozen_copy(base_model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.train.lr, betas=tuple(cfg.train.betas),
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
    if resume_from is not None:
        saved = ckpt.load_trainer_state(resume_from)
        optimizer.load_state_dict(saved["optimizer"])
        scheduler.load_state_dict(saved["scheduler"])
        ckpt.set_rng_state(saved["rng"], {"rollout": rollout.gen, "shuffle": shuffle_gen})
        if ref_model is not None and saved.get("ref_state") is not None:
            ref_model.load_state_dict(saved["ref_state"])
        if critic is not None:
            critic.load_state_dict(saved["critic"])
        state.update(saved["state"])
        log(f"resume: continuing from {resume_from.name} (step {state['step']}, data position {state['data_pos']})")
    runlog = RunLog(run_dir, cfg, truncate_after=state["step"] if resume_from is not None else None)

    # ------------------------------------------------------------ base evaluation
    eval_samples = task.eval_samples[: cfg.eval.problems]
    if state["base_eval"] is None:
        t0 = time.time()
        base = evaluate(rollout, tokenizer, eval_samples, rewarder, cfg)
        phases["base_eval_s"] = time.time() - t0
        state["base_eval"] = {"pass@1": base["pass@1"]}
        runlog.log({"step": 0, "kind": "eval", "pass@1": base["pass@1"], "eval/len_mean": base["eval/len_mean"]})
        log(f"base: held-out pass@1 {base['pass@1']:.3f} on {len(eval_samples)} problems")
    last_eval = state["base_eval"]["pass@1"]

    # ------------------------------------------------------------ the loop
    t_train = time.time()
    bar = runlog.progress(cfg.train.steps, initial=state["step"])
    while state["step"] < cfg.train.steps:
        step = state["step"] + 1
        timer = Timer()
        t_step = time.perf_counter()

        # 1-3. sample prompts, generate G completions each, verify
        batch_data = collect_step_batch(cfg, task, state, rollout, tokenizer, rewarder, timer)

        # 4-5. advantages and the policy update
        with timer("train"):
            if cfg.algo.ref_update_every and ref_model is not None and step % cfg.algo.ref_update_every == 0:
                ref_model.load_state_dict(model.state_dict())  # re-anchor (R1-Zero did every 400 steps)
            train_stats = update_policy(model, ref_model, optimizer, batch_data, cfg, tokenizer.pad_token_id,
                                        shuffle_gen, critic=critic)
            scheduler.step()
        rollout.sync_weights()

        # 6. metrics, samples, evaluation, checkpoint
        metrics = step_metrics(batch_data, train_stats, timer, time.perf_counter() - t_step, cfg)
        metrics["lr"] = scheduler.get_last_lr()[0]
        state["step"] = step
        runlog.log({"step": step, "kind": "train", **metrics})
        runlog.write_samples(step, batch_data)
        if cfg.eval.every and step % cfg.eval.every == 0 and step < cfg.train.steps:
            ev = evaluate(rollout, tokenizer, eval_samples, rewarder, cfg)
            last_eval = ev["pass@1"]
            runlog.log({"step": step, "kind": "eval", "pass@1": ev["pass@1"], "eval/len_mean": ev["eval/len_mean"]})
        bar.update(metrics, last_eval)
        out_of_time = cfg.train.time_limit_s and time.time() - t_train > cfg.train.time_limit_s
        if (cfg.train.checkpoint_every and step % cfg.train.checkpoint_every == 0) or out_of_time:
            state["wall_s"] = state.get("wall_s", 0.0) + 0.0
            save(ckpt_root, step, model, tokenizer, optimizer, scheduler, rollout, shuffle_gen, ref_model, state, cfg,
                 critic)
        if out_of_time:
            log(f"train.time_limit_s reached at step {step}; stopping")
            break
    bar.close()
    phases["train_s"] = time.time() - t_train

    # ------------------------------------------------------------ final evaluation, checkpoint, summary
    t0 = time.time()
    final = evaluate(rollout, tokenizer, eval_samples, rewarder, cfg)
    phases["final_eval_s"] = time.time() - t0
    runlog.log({"step": state["step"], "kind": "eval", "pass@1": final["pass@1"], "eval/len_mean": final["eval/len_mean"]})
    final_dir = save(ckpt_root, state["step"], model, tokenizer, optimizer, scheduler, rollout, shuffle_gen,
                     ref_model, state, cfg, critic)
    rewarder.close()
    summary = {
        "base": state["base_eval"], "final": {"pass@1": final["pass@1"]}, "steps": state["step"],
        "wall_s": time.time() - t_start, "phases": phases, "checkpoint": str(final_dir),
        "base_model": str(base_dir),
    }
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
        "optimizer": optimizer.state_dict(),
        "scheduler": scheduler.state_dict(),
        "rng": ckpt.rng_state({"rollout": rollout.gen, "shuffle": shuffle_gen}),
        "ref_state": ref_model.state_dict() if (ref_model is not None and cfg.algo.ref_update_every) else None,
        "state": dict(state),
        "critic": critic.state_dict() if critic is not None else None,
    }
    return ckpt.save_checkpoint(ckpt_root, step, model, tokenizer, trainer_state, keep=cfg.train.keep_checkpoints)
