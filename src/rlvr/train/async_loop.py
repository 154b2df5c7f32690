"""Asynchronous training (``train.mode=async``): generation, verification and training overlap.

Roles, as Ray actors: ``RolloutWorker`` (a copy of the policy + a rollout backend: hf,
vllm or scripted), ``VerifierWorker`` (the run's reward), and the trainer, which is the
Ray driver running this file (it owns the optimizer and the run directory). A job is one
step's prompts, split across the rollout workers; each part flows
``rollout.generate -> verifier.verify`` through Ray object references without passing
through the trainer, which only collects the verified results.

Versions and staleness. The policy version is the number of optimizer steps behind the
weights; the trainer pushes its weights to every worker after each step, and every
completion carries the version that generated it. The job of step ``s`` (trained by the
update that takes the weights from version ``s-1`` to ``s``) is dispatched once the
trainer has pushed version ``s-1-max_staleness``, so a sample's staleness
``(s-1) - policy_version`` never exceeds ``train.max_staleness``: that dispatch rule is the
bounded queue (at most ``max_staleness + 1`` steps in flight). ``max_staleness=0`` is the
synchronous schedule run through actors. A sample breaking the bound is a bug and raises.

Off-policy correction (the decoupled objective, Hilton et al. 2021; AReaL, Fu et al. 2025,
eq. 5): the clip ratio is taken to the proximal policy pi_old, which the trainer
recomputes (its current weights: ``old_logp``), and each token's loss is weighted by the
behaviour weight pi_old/mu truncated at C, mu being the worker's sampler
(``sampler_logp``). C is ``algo.tis_cap``, or ``train.async_tis_cap`` (2.0) when that is
unset; the resolved value is written to config.json.

Failures: a rollout or verifier actor that dies is replaced (the new one gets the latest
weights) and the jobs it held are submitted again, same prompts (``async/restarts``,
``async/requeued``). Checkpoints hold the data position of the first step not yet
trained, so a resumed run regenerates whatever was in flight; staleness histogram and
step count carry over.

Metrics beyond the synchronous loop's: ``staleness/mean``, ``staleness/max``,
``staleness/frac_stale``, ``async/wait_s`` (the trainer's wait for data; ``time/generate``
holds the same number), ``async/restarts``, ``async/requeued``; ``tokens_per_s`` is tokens
per step wall time. summary.json gets ``staleness_histogram`` ({staleness: completions}).

Not supported here (``check_config`` says so): DAPO dynamic sampling, LoRA, the PPO
critic, several trainer ranks. Held-out evaluation runs in the trainer with the same
procedure as the synchronous loop (with the hf backend when ``rollout.backend=vllm``).
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from rlvr.config import Config, config_from_dict, save_config
from rlvr.errors import ConfigError
from rlvr.train import checkpoint as ckpt
from rlvr.train.components import (Rewarder, Timer, base_evaluation, build_reference, build_rollout, build_task,
                                   check_contamination, ensure_base, evaluate, load_policy, render_prompt, seed_everything, set_threads)
from rlvr.train.rollouts import StepData, shape_rewards
from rlvr.train.runlog import RunLog
from rlvr.train.stepmetrics import step_metrics
from rlvr.train.update import update_policy
from rlvr.types import Completion, Sample, SamplingParams, Verdict

MAX_ATTEMPTS = 4  # submissions of one job before a failure is final
START_TIMEOUT_S = 300  # an actor that is not up by then is reported, not waited for


# ---------------------------------------------------------------- actors (run in Ray worker processes)
def _load_tokenizer(path: str):
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(path)
    if tok.pad_token_id is None:
        tok.pad_token = tok.eos_token
    return tok


class RolloutWorker:
    """A policy copy and a rollout backend; weights arrive as (state dict, version)."""

    def __init__(self, cfg_dict: dict, model_dir: str, seed: int):
        torch.set_num_threads(1)
        cfg = config_from_dict(cfg_dict)
        backend = cfg.rollout.backend
        if backend == "hf":
            from rlvr.rollout.hf import HFRollout

            model, tok = load_policy(Path(model_dir), cfg)
            self.rollout = HFRollout(model, tok, seed=seed)
        elif backend == "scripted":
            from rlvr.rollout.scripted import ScriptedRollout

            self.rollout = ScriptedRollout(_load_tokenizer(model_dir), seed=seed)
        elif backend == "vllm":
            from rlvr.rollout.vllm import VLLMRollout

            self.rollout = VLLMRollout(cfg, None, _load_tokenizer(model_dir), model_path=model_dir)
        else:
            raise ConfigError(f"unknown rollout.backend {backend!r}; valid: hf, vllm, scripted")

    def ident(self) -> tuple[int, str]:
        import ray

        return os.getpid(), ray.get_runtime_context().get_actor_id()

    def set_weights(self, state: dict, version: int) -> int:
        self.rollout.sync_weights(state)
        self.rollout.version = version  # completions are tagged with the trainer's step count
        return version

    def generate(self, prompts: list[list[int]], sampling: SamplingParams) -> list[Completion]:
        return self.rollout.generate(prompts, sampling)


class VerifierWorker:
    """The run's reward (accuracy verifier + format term), in its own process."""

    def __init__(self, cfg_dict: dict):
        self.rewarder = Rewarder(config_from_dict(cfg_dict))

    def ident(self) -> tuple[int, str]:
        import ray

        return os.getpid(), ray.get_runtime_context().get_actor_id()

    def verify(self, completions: list[Completion], samples: list[Sample]) -> tuple[list[Completion], list[Verdict]]:
        return completions, self.rewarder(completions, samples)


# ---------------------------------------------------------------- the pipeline (driver side)
@dataclass
class Job:
    step: int
    part: int
    samples: list[Sample]          # the part's prompts (one per group)
    prompts: list[list[int]]       # their token ids
    rollout_idx: int
    verifier_idx: int
    handles: tuple = ()            # (rollout, verifier) actor handles the last submission used
    ref: Any = None                # ObjectRef of (completions, verdicts)
    attempts: int = 0


@dataclass
class Pipeline:
    """Rollout and verifier actors, the jobs in flight, weight pushes and recovery."""

    cfg: Config
    task: Any
    tokenizer: Any
    model_dir: str
    next_step: int                 # next step to dispatch
    data_pos: int                  # data position of that step
    log: Any = print
    rollouts: list = field(default_factory=list)
    verifiers: list = field(default_factory=list)
    pids: dict = field(default_factory=dict)  # ("rollout" | "verifier", index) -> pid, for tests and logs
    jobs: dict = field(default_factory=dict)  # step -> [Job]
    weights: tuple | None = None   # (ObjectRef of the state dict, version) of the latest push
    restarts: int = 0
    requeued: int = 0

    def __post_init__(self):
        import ray

        self.ray = ray
        r = self.cfg.rollout
        self.sampling = SamplingParams(max_new_tokens=r.max_new_tokens, temperature=r.temperature, top_p=r.top_p,
                                       n=r.group_size)
        self._rollout_cls = ray.remote(RolloutWorker)
        self._verifier_cls = ray.remote(VerifierWorker)
        self.rollouts = [self._start("rollout", i) for i in range(self.cfg.train.async_rollout_workers)]
        self.verifiers = [self._start("verifier", i) for i in range(self.cfg.train.async_verifier_workers)]

    # ------------------------------------------------------------ actors
    def _start(self, kind: str, i: int):
        cfg_dict = self.cfg.to_dict()
        if kind == "rollout":
            seed = self.cfg.seed + 1000 * (i + 1) + 100_003 * self.restarts
            handle = self._rollout_cls.options(num_cpus=1, num_gpus=self.cfg.train.async_rollout_gpus).remote(
                cfg_dict, self.model_dir, seed)
        else:
            handle = self._verifier_cls.options(num_cpus=0).remote(cfg_dict)
        try:
            self.pids[(kind, i)] = self.ray.get(handle.ident.remote(), timeout=START_TIMEOUT_S)[0]
        except self.ray.exceptions.RayActorError as exc:
            raise RuntimeError(f"the {kind} worker {i} failed to start: {exc}") from None
        except self.ray.exceptions.GetTimeoutError:
            raise RuntimeError(f"the {kind} worker {i} did not start within {START_TIMEOUT_S}s: the Ray cluster may lack "
                               f"the resources it asks for ({self.ray.available_resources()} available)") from None
        if kind == "rollout" and self.weights is not None:
            handle.set_weights.remote(*self.weights)
        return handle

    def _alive(self, handle) -> bool:
        try:
            self.ray.get(handle.ident.remote())
            return True
        except self.ray.exceptions.RayActorError:
            return False

    def _replace_if_dead(self, kind: str, idx: int, used) -> None:
        pool = self.rollouts if kind == "rollout" else self.verifiers
        if pool[idx] is not used or self._alive(used):
            return  # already replaced by an earlier failure, or not the one that died
        self.ray.kill(used, no_restart=True)
        self.restarts += 1
        pool[idx] = self._start(kind, idx)
        self.log(f"async: {kind} worker {idx} died; restarted it (pid {self.pids[(kind, idx)]})")

    # ------------------------------------------------------------ weights and jobs
    def push_weights(self, state: dict, version: int) -> None:
        ref = self.ray.put({k: v.detach().cpu() for k, v in state.items()})
        self.weights = (ref, version)
        for w in self.rollouts:
            w.set_weights.remote(ref, version)  # actor calls run in order: before any later generate

    def _submit(self, job: Job) -> None:
        rollout, verifier = self.rollouts[job.rollout_idx], self.verifiers[job.verifier_idx]
        completions = rollout.generate.remote(job.prompts, self.sampling)
        expanded = [s for s in job.samples for _ in range(self.sampling.n)]
        job.handles, job.ref, job.attempts = (rollout, verifier), verifier.verify.remote(completions, expanded), job.attempts + 1

    def _dispatch(self, step: int) -> None:
        P = self.cfg.rollout.prompts_per_step
        samples = self.task.train_batch(self.data_pos, P)
        self.data_pos += P
        n = min(len(self.rollouts), P)
        bounds = [round(k * P / n) for k in range(n + 1)]
        jobs = []
        for part in range(n):
            chunk = samples[bounds[part]:bounds[part + 1]]
            job = Job(step, part, chunk, [render_prompt(self.tokenizer, s, self.cfg) for s in chunk],
                      rollout_idx=part, verifier_idx=part % len(self.verifiers))
            self._submit(job)
            jobs.append(job)
        self.jobs[step] = jobs

    def fill(self, version: int) -> None:
        """Dispatch every step whose samples would be at most max_staleness versions old."""
        for step in dispatchable(self.next_step, version, self.cfg.train.max_staleness, self.cfg.train.steps):
            self._dispatch(step)
            self.next_step = step + 1

    def _result(self, job: Job) -> tuple[list[Completion], list[Verdict]]:
        while True:
            try:
                return self.ray.get(job.ref)
            except self.ray.exceptions.RayActorError as exc:
                if job.attempts >= MAX_ATTEMPTS:
                    raise RuntimeError(f"step {job.step}: its part {job.part} failed {job.attempts} times; last: {exc}") from None
                self._replace_if_dead("rollout", job.rollout_idx, job.handles[0])
                self._replace_if_dead("verifier", job.verifier_idx, job.handles[1])
                self.requeued += len(job.samples)
                self._submit(job)  # the same prompts, on the live (or new) workers

    def collect(self, step: int) -> list[tuple[list[Sample], list[Completion], list[Verdict]]]:
        if step not in self.jobs:
            raise RuntimeError(f"step {step} was never dispatched (dispatched up to {self.next_step - 1})")
        return [(job.samples, *self._result(job)) for job in self.jobs.pop(step)]

    def shutdown(self) -> None:
        for h in self.rollouts + self.verifiers:
            self.ray.kill(h, no_restart=True)
        self.jobs.clear()


# ---------------------------------------------------------------- helpers
def check_config(cfg: Config) -> None:
    t, a = cfg.train, cfg.algo
    if a.dynamic_sampling:
        raise ConfigError("train.mode=async does not support algo.dynamic_sampling; set algo.dynamic_sampling=false")
    if cfg.model.lora_r:
        raise ConfigError("train.mode=async does not support LoRA (workers load full state dicts); set model.lora_r=0")
    if a.advantage == "gae":
        raise ConfigError("train.mode=async does not support the PPO critic (algo.advantage=gae)")
    if t.max_staleness < 0:
        raise ConfigError(f"train.max_staleness must be >= 0, got {t.max_staleness}")
    if t.async_rollout_workers < 1 or t.async_verifier_workers < 1:
        raise ConfigError("train.async_rollout_workers and train.async_verifier_workers must be >= 1")
    if int(os.environ.get("WORLD_SIZE", "1")) > 1 or t.ray_ranks > 1:
        raise ConfigError("train.mode=async runs one trainer rank; launch it without torchrun / train.ray_ranks")


def with_behaviour_cap(cfg: Config) -> Config:
    """algo.tis_cap, or train.async_tis_cap when it is unset (0 = no correction)."""
    if cfg.algo.tis_cap is not None or not cfg.train.async_tis_cap:
        return cfg
    return dataclasses.replace(cfg, algo=dataclasses.replace(cfg.algo, tis_cap=cfg.train.async_tis_cap))


def start_ray(cfg: Config) -> bool:
    """Join or start a Ray cluster; True when this call started it (and should stop it)."""
    try:
        import ray
    except ImportError:
        raise ConfigError("train.mode=async needs Ray: pip install 'rlvr[ray]'") from None
    if ray.is_initialized():
        return False
    ray.init(address=cfg.train.ray_address, include_dashboard=False, log_to_driver=True)
    return True


def assemble(cfg: Config, parts) -> StepData:
    """One step's StepData from the verified parts, in prompt order."""
    G = cfg.rollout.group_size
    samples = [s for part_samples, _, _ in parts for s in part_samples for _ in range(G)]
    comps = [c for _, cs, _ in parts for c in cs]
    verdicts = [v for _, _, vs in parts for v in vs]
    raw = torch.tensor([v.reward for v in verdicts], dtype=torch.float32)
    return StepData(samples=samples, completions=comps, verdicts=verdicts, rewards=shape_rewards(cfg, comps, raw),
                    group_ids=torch.arange(len(comps) // G).repeat_interleave(G), raw_rewards=raw, generated=len(comps))


def dispatchable(next_step: int, version: int, max_staleness: int, total: int) -> list[int]:
    """Steps that may be dispatched now: step s is trained at version s-1, so its samples
    (generated at ``version`` or later) are at most max_staleness old when s <= version + 1 + max_staleness."""
    return list(range(next_step, min(total, version + 1 + max_staleness) + 1))


def staleness(data: StepData, version: int, bound: int) -> list[int]:
    """Trainer version minus each completion's policy version; outside [0, bound] is a bug."""
    out = [version - c.policy_version for c in data.completions]
    if min(out) < 0 or max(out) > bound:
        raise RuntimeError(f"staleness {min(out)}..{max(out)} outside [0, {bound}] at version {version}: "
                           f"the dispatch rule was broken")
    return out


def staleness_metrics(stale: list[int], hist: dict) -> dict:
    for s in stale:
        hist[str(s)] = hist.get(str(s), 0) + 1
    return {"staleness/mean": sum(stale) / len(stale), "staleness/max": max(stale),
            "staleness/frac_stale": sum(s > 0 for s in stale) / len(stale)}


# ---------------------------------------------------------------- the loop
def train_async(cfg: Config, resume: bool = False, log=print) -> dict:
    from rlvr.train.loop import save

    check_config(cfg)
    cfg = with_behaviour_cap(cfg)
    t_start = time.time()
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    run_dir, phases = cfg.run_dir(), {}
    set_threads(cfg)
    seed_everything(cfg.seed)

    # ------------------------------------------------------------ run directory, task, policy (as in loop.py)
    ckpt_root = run_dir / "checkpoints"
    resume_from = ckpt.latest_checkpoint(ckpt_root) if resume else None
    if resume and resume_from is None:
        log(f"resume: no checkpoint under {ckpt_root}; starting from scratch")
    task = build_task(cfg)  # a bad knob or data row stops here, before any write
    run_dir.mkdir(parents=True, exist_ok=True)
    save_config(cfg, run_dir / "config.json")
    check_contamination(cfg, task, log)
    t0 = time.time()
    base_dir = ensure_base(cfg, task, log)
    phases["warmstart_s"] = time.time() - t0
    model, tokenizer = load_policy(resume_from or base_dir, cfg)
    ref_model = build_reference(cfg, model, base_dir, resume_from)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.train.lr, betas=tuple(cfg.train.betas),
                                  weight_decay=cfg.train.weight_decay)
    warmup = max(cfg.train.warmup_steps, 0)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / warmup) if warmup else 1.0)
    eval_cfg = cfg if cfg.rollout.backend != "vllm" else dataclasses.replace(cfg, rollout=dataclasses.replace(cfg.rollout, backend="hf"))
    eval_rollout = build_rollout(eval_cfg, model, tokenizer)  # the trainer's own sampler, for evaluation
    rewarder = Rewarder(cfg)
    shuffle_gen = torch.Generator().manual_seed(cfg.seed + 1)

    # ------------------------------------------------------------ state (fresh or resumed)
    state = {"step": 0, "data_pos": 0, "base_eval": None, "wall_s": 0.0, "staleness_hist": {}}
    if resume_from is not None:
        saved = ckpt.load_trainer_state(resume_from)
        optimizer.load_state_dict(saved["optimizer"])
        scheduler.load_state_dict(saved["scheduler"])
        ckpt.set_rng_state(saved["rng"], {"rollout": eval_rollout.gen, "shuffle": shuffle_gen})
        if ref_model is not None and saved.get("ref_state") is not None:
            ref_model.load_state_dict(saved["ref_state"])
        state.update(saved["state"])
        log(f"resume: continuing from {resume_from.name} (step {state['step']}, data position {state['data_pos']})")
    runlog = RunLog(run_dir, cfg, truncate_after=state["step"] if resume_from is not None else None)

    # ------------------------------------------------------------ base evaluation
    eval_samples = task.eval_samples[: cfg.eval.problems]
    last_eval = base_evaluation(state, evaluate, eval_rollout, tokenizer, eval_samples, rewarder, cfg, runlog, log, phases)

    # ------------------------------------------------------------ actors
    started_ray = start_ray(cfg)
    t0 = time.time()
    pipeline = Pipeline(cfg, task, tokenizer, str(resume_from or base_dir), next_step=state["step"] + 1,
                        data_pos=state["data_pos"], log=log)
    phases["actors_start_s"] = time.time() - t0
    try:
        pipeline.push_weights(model.state_dict(), state["step"])
        pipeline.fill(state["step"])

        # -------------------------------------------------------- the loop
        t_train = time.time()
        bar = runlog.progress(cfg.train.steps, initial=state["step"])
        while state["step"] < cfg.train.steps:
            step, timer, t_step = state["step"] + 1, Timer(), time.perf_counter()

            # 1-3. the verified completions of this step (generated while earlier steps trained)
            with timer("generate"):
                batch_data = assemble(cfg, pipeline.collect(step))
            stale = staleness(batch_data, state["step"], cfg.train.max_staleness)

            # 4-5. the update: ratio to the recomputed proximal policy, behaviour weight pi_old/mu capped
            with timer("train"):
                if cfg.algo.ref_update_every and ref_model is not None and step % cfg.algo.ref_update_every == 0:
                    ref_model.load_state_dict(model.state_dict())
                train_stats = update_policy(model, ref_model, optimizer, batch_data, cfg, tokenizer.pad_token_id,
                                            shuffle_gen)
                scheduler.step()
            state["step"], state["data_pos"] = step, state["data_pos"] + cfg.rollout.prompts_per_step
            pipeline.push_weights(model.state_dict(), step)
            pipeline.fill(step)

            # 6. metrics, samples, evaluation, checkpoint
            step_s = time.perf_counter() - t_step
            metrics = step_metrics(batch_data, train_stats, timer, step_s, cfg)
            metrics.update(staleness_metrics(stale, state["staleness_hist"]))
            metrics.update({"lr": scheduler.get_last_lr()[0], "async/wait_s": timer.t["generate"],
                            "async/restarts": pipeline.restarts, "async/requeued": pipeline.requeued,
                            "tokens_per_s": sum(len(c.token_ids) for c in batch_data.completions) / step_s})
            runlog.log({"step": step, "kind": "train", **metrics})
            runlog.write_samples(step, batch_data)
            if cfg.eval.every and step % cfg.eval.every == 0 and step < cfg.train.steps:
                ev = evaluate(eval_rollout, tokenizer, eval_samples, rewarder, cfg)
                last_eval = ev["pass@1"]
                runlog.log({"step": step, "kind": "eval", "pass@1": ev["pass@1"], "eval/len_mean": ev["eval/len_mean"]})
            bar.update(metrics, last_eval)
            out_of_time = cfg.train.time_limit_s and time.time() - t_train > cfg.train.time_limit_s
            if (cfg.train.checkpoint_every and step % cfg.train.checkpoint_every == 0) or out_of_time:
                save(ckpt_root, step, model, tokenizer, optimizer, scheduler, eval_rollout, shuffle_gen, ref_model, state, cfg)
            if out_of_time:
                log(f"train.time_limit_s reached at step {step}; stopping")
                break
        bar.close()
        phases["train_s"] = time.time() - t_train
        async_stats = {"restarts": pipeline.restarts, "requeued": pipeline.requeued}
    finally:
        pipeline.shutdown()
        if started_ray:
            pipeline.ray.shutdown()

    # ------------------------------------------------------------ final evaluation, checkpoint, summary
    t0 = time.time()
    final = evaluate(eval_rollout, tokenizer, eval_samples, rewarder, cfg)
    phases["final_eval_s"] = time.time() - t0
    runlog.log({"step": state["step"], "kind": "eval", "pass@1": final["pass@1"], "eval/len_mean": final["eval/len_mean"]})
    final_dir = save(ckpt_root, state["step"], model, tokenizer, optimizer, scheduler, eval_rollout, shuffle_gen,
                     ref_model, state, cfg)
    rewarder.close()
    summary = {
        "base": state["base_eval"], "final": {"pass@1": final["pass@1"]}, "steps": state["step"],
        "wall_s": time.time() - t_start, "phases": phases, "checkpoint": str(final_dir), "base_model": str(base_dir),
        "mode": "async", "max_staleness": cfg.train.max_staleness, "tis_cap": cfg.algo.tis_cap,
        "staleness_histogram": dict(sorted(state["staleness_hist"].items(), key=lambda kv: int(kv[0]))),
        "async": async_stats,
    }
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    runlog.close()
    if cfg.log.report:
        runlog.write_report()
    log(f"done: pass@1 {summary['base']['pass@1']:.3f} -> {final['pass@1']:.3f} in {summary['wall_s']:.0f}s; "
        f"staleness histogram {summary['staleness_histogram']}; run directory {run_dir}")
    return summary
