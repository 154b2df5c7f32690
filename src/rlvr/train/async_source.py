"""The asynchronous data source (``train.mode=async``): generation, verification and training overlap.

Roles, as Ray actors: ``RolloutWorker`` (a copy of the policy + a rollout backend: hf,
vllm or scripted), ``VerifierWorker`` (the run's reward), and the trainer, which is the
Ray driver running ``rlvr.train.loop`` (it owns the optimizer and the run directory; the
loop is the same as the synchronous one, only a step's batch comes from here). A job is one
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
unset; the resolved value is written to config.json. With ``algo.mismatch_correction`` token
or sequence that correction replaces this one (``rlvr.algo.correction``). The ``mismatch/*``
metrics compare the trainer's current policy with the worker's sampler, so here they measure
the staleness (``staleness/*``) and the precision gap together.

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
Faults in the trainer (a non-finite step, a failed checkpoint write) are handled by the
loop exactly as in the synchronous mode.
"""



from __future__ import annotations

import dataclasses
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from rlvr.config import Config, config_from_dict
from rlvr.errors import ConfigError
from rlvr.models.loading import load_policy, load_tokenizer
from rlvr.rollout.build import build_backend
from rlvr.rollout.prompts import render_prompt
from rlvr.train.rollouts import StepData, step_data
from rlvr.types import Completion, Sample, SamplingParams, Verdict
from rlvr.verifiers.rewarder import Rewarder

MAX_ATTEMPTS = 4  # submissions of one job before a failure is final
START_TIMEOUT_S = 300  # an actor that is not up by then is reported, not waited for


# ---------------------------------------------------------------- actors (run in Ray worker processes)
class RolloutWorker:
    """A policy copy and a rollout backend; weights arrive as (state dict, version)."""

    def __init__(self, cfg_dict: dict, model_dir: str, seed: int):
        torch.set_num_threads(1)
        cfg = config_from_dict(cfg_dict)
        if cfg.rollout.backend == "hf":
            model, tok = load_policy(Path(model_dir), cfg)
        else:  # scripted, or vllm loading the weights itself
            model, tok = None, load_tokenizer(model_dir)
        self.rollout = build_backend(cfg, model, tok, model_path=model_dir, seed=seed)

    def ident(self) -> tuple[int, str]:
        import ray

        return os.getpid(), ray.get_runtime_context().get_actor_id()

    def set_weights(self, state: dict, version: int, probe=None) -> dict:
        """Load the weights; with ``probe`` (the trainer's log-probabilities of the vllm backend's
        probe sequence) the engine is checked against them: the gap metrics come back."""
        gap = self.rollout.sync_weights(state, expected_probe=probe) if probe is not None else None
        if gap is None:
            self.rollout.sync_weights(state)
        self.rollout.version = version  # completions are tagged with the trainer's step count
        return {"version": version, **(gap or {})}

    def generate(self, prompts: list[list[int]], sampling: SamplingParams) -> list[Completion]:
        return self.rollout.generate(prompts, sampling)


class VerifierWorker:
    """The run's reward (accuracy verifier + format term), in its own process."""

    def __init__(self, cfg_dict: dict):
        self.rewarder = Rewarder(config_from_dict(cfg_dict).reward)

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
    weights: tuple | None = None   # (ObjectRef of the state dict, version, probe) of the latest push
    pushes: list = field(default_factory=list)  # ObjectRefs of set_weights calls not yet looked at
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
            raise RuntimeError(f"the {kind} worker {i} did not start within {START_TIMEOUT_S}s: the Ray cluster may "
                               f"lack the resources it asks for ({self.ray.available_resources()} available)") from None
        if kind == "rollout" and self.weights is not None:
            self.pushes.append(handle.set_weights.remote(*self.weights))
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
    def push_weights(self, state: dict, version: int, probe=None) -> None:
        ref = self.ray.put({k: v.detach().cpu() for k, v in state.items()})
        self.weights = (ref, version, probe)
        for w in self.rollouts:  # actor calls run in order: before any later generate
            self.pushes.append(w.set_weights.remote(ref, version, probe))

    def push_metrics(self) -> dict:
        """The largest probe gap among the pushes finished since the last call (vllm workers)."""
        if not self.pushes:
            return {}
        done, self.pushes = self.ray.wait(self.pushes, num_returns=len(self.pushes), timeout=0)
        gaps = [r for r in self._results(done) if "vllm/logp_gap_max" in r]
        if not gaps:
            return {}
        return {k: max(g[k] for g in gaps) for k in ("vllm/logp_gap_max", "vllm/logp_gap_mean")}

    def _results(self, refs) -> list[dict]:
        out = []
        for ref in refs:
            try:
                out.append(self.ray.get(ref))
            except self.ray.exceptions.RayActorError:
                pass  # a worker that died with a push in flight: its replacement gets the weights again
        return out

    def _submit(self, job: Job) -> None:
        rollout, verifier = self.rollouts[job.rollout_idx], self.verifiers[job.verifier_idx]
        completions = rollout.generate.remote(job.prompts, self.sampling)
        expanded = [s for s in job.samples for _ in range(self.sampling.n)]
        job.handles, job.ref = (rollout, verifier), verifier.verify.remote(completions, expanded)
        job.attempts += 1

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
                    raise RuntimeError(f"step {job.step}: its part {job.part} failed {job.attempts} times;"
                                       f" last: {exc}") from None
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
    """algo.tis_cap, or train.async_tis_cap when it is unset (0 = no correction), unless
    algo.mismatch_correction already corrects (token or sequence)."""
    if cfg.algo.tis_cap is not None or not cfg.train.async_tis_cap:
        return cfg
    if cfg.algo.mismatch_correction not in (None, "off"):
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
    return step_data(cfg, samples, comps, verdicts, generated=len(comps))


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


# ---------------------------------------------------------------- the data source the loop drives
class AsyncSource:
    """Steps' batches from the Ray pipeline, with the staleness bookkeeping.

    ``start()`` starts the actors and dispatches the first steps; ``next_batch(step)``
    waits for that step's verified completions; ``after_update(step)`` pushes the new
    weights and dispatches what the staleness bound now allows.
    """

    def __init__(self, run):
        self.run, self.cfg = run, run.cfg
        self.pipeline: Pipeline | None = None
        self.started_ray = False
        self.stale: list[int] = []

    def start(self) -> None:
        run = self.run
        self.started_ray = start_ray(self.cfg)
        t0 = time.time()
        self.pipeline = Pipeline(self.cfg, run.task, run.tokenizer, str(run.resume_from or run.base_dir),
                                 next_step=run.state.step + 1, data_pos=run.state.data_pos, log=run.log)
        run.phases["actors_start_s"] = time.time() - t0
        self.pipeline.push_weights(run.model.state_dict(), run.state.step, self._probe())
        self.pipeline.fill(run.state.step)

    def next_batch(self, step: int, timer) -> StepData:
        with timer("generate"):
            batch = assemble(self.cfg, self.pipeline.collect(step))
        self.stale = staleness(batch, self.run.state.step, self.cfg.train.max_staleness)
        return batch

    def after_update(self, step: int) -> None:
        self.run.state.data_pos += self.cfg.rollout.prompts_per_step  # the first step not yet trained
        self.pipeline.push_weights(self.run.model.state_dict(), step, self._probe())
        self.pipeline.fill(step)

    def _probe(self):
        """vllm workers: the trainer's log-probabilities of the probe, which each engine is checked against."""
        if self.cfg.rollout.backend != "vllm":
            return None
        from rlvr.rollout.vllm import probe_ids, probe_logprobs

        return probe_logprobs(self.run.model, probe_ids(self.run.tokenizer))

    def step_metrics(self, batch: StepData, timer, step_s: float) -> dict:
        m = staleness_metrics(self.stale, self.run.state.staleness_hist)
        m.update({"async/wait_s": timer.t["generate"], "async/restarts": self.pipeline.restarts,
                  "async/requeued": self.pipeline.requeued,
                  "tokens_per_s": sum(len(c.token_ids) for c in batch.completions) / step_s})
        m.update(self.pipeline.push_metrics())
        return m

    def summary(self) -> dict:
        hist = self.run.state.staleness_hist
        out = {"mode": "async", "max_staleness": self.cfg.train.max_staleness, "tis_cap": self.cfg.algo.tis_cap,
               "staleness_histogram": dict(sorted(hist.items(), key=lambda kv: int(kv[0])))}
        if self.pipeline is not None:
            out["async"] = {"restarts": self.pipeline.restarts, "requeued": self.pipeline.requeued}
        return out

    def close(self) -> None:
        if self.pipeline is not None:
            self.pipeline.shutdown()
        if self.started_ray:
            import ray

            ray.shutdown()
            self.started_ray = False
