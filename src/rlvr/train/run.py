"""One run's set-up, state and checkpoints: everything the loop needs before its first step.

``setup_run(cfg, resume, log)`` builds the task (a bad knob or data row stops here, before
anything is written), the run directory, the base policy, the reference, the optimizer and
scheduler, the trainer's own rollout backend (generation in the synchronous mode, evaluation
in both) and the reward, then restores a checkpoint when resuming. It returns a ``Run``;
``save(run)`` writes a checkpoint of it. The data source (where a step's batch comes from)
is not part of a Run: ``rlvr.train.loop`` picks it.
"""

from __future__ import annotations

import dataclasses
import fcntl
import json
import os
import random
import shutil
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from rlvr.config import Config, save_config
from rlvr.errors import ConfigError
from rlvr.models.base import check_model_dir, ensure_base
from rlvr.models.loading import frozen_copy, load_policy, resolve_device_dtype
from rlvr.models.precision import precision_of
from rlvr.rollout.build import build_rollout
from rlvr.rollout.prompts import check_context
from rlvr.tasks.contamination import check_task
from rlvr.tasks.registry import build_task
from rlvr.train import checkpoint as ckpt
from rlvr.train import distributed
from rlvr.train.evaluation import evaluate
from rlvr.train.runlog import RunLog
from rlvr.train.update import ReferencePolicy
from rlvr.verifiers.rewarder import Rewarder


@dataclass
class RunState:
    """What a checkpoint carries besides weights and optimizer: where the run is."""

    step: int = 0                 # optimizer steps taken
    data_pos: int = 0             # position in the training stream of the next prompt to draw
    base_eval: dict | None = None   # {"pass@1": ...} of the base policy, measured once per run
    final_eval: dict | None = None  # {"step", "pass@1"} once the final evaluation ran
    faults: dict = field(default_factory=dict)  # counters: nonfinite_steps, checkpoint_errors
    nonfinite_run: int = 0        # skipped (non-finite) steps in a row
    world: int = 1                # ranks the data position belongs to
    staleness_hist: dict = field(default_factory=dict)  # async: {staleness: completions}
    doctor: dict = field(default_factory=dict)  # the run doctor's streaks (rlvr.diagnostics.doctor)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> RunState:
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass
class Run:
    """A run's parts, built once by ``setup_run``."""

    cfg: Config
    log: Callable[[str], None]
    dist: Any                     # rlvr.train.distributed.DistContext
    task: Any
    base_dir: Path
    model: Any
    tokenizer: Any
    ref_model: Any                # ReferencePolicy or None (no KL term)
    critic: Any                   # CriticTrainer or None (PPO only)
    optimizer: Any
    scheduler: Any
    rollout: Any                  # the trainer's own sampler
    rewarder: Rewarder
    shuffle_gen: torch.Generator
    state: RunState
    runlog: Any = None
    doctor: Any = None            # rlvr.diagnostics.doctor.Doctor, built by the loop
    evaluate_fn: Callable = evaluate
    resume_from: Path | None = None
    phases: dict = field(default_factory=dict)
    t_start: float = field(default_factory=time.time)

    @property
    def run_dir(self) -> Path:
        return self.cfg.run_dir()

    @property
    def ckpt_root(self) -> Path:
        return self.cfg.run_dir() / "checkpoints"

    @property
    def eval_samples(self) -> list:
        return self.task.eval_samples[: self.cfg.eval.problems]


# ---------------------------------------------------------------- the run directory
RUN_FILES = ("config.json", "metrics.jsonl", "samples.jsonl", "summary.json", "report.html", "checkpoints")
# A resumed run must keep these: they decide the model's shape and its base (the KL reference), or the data.
RESUME_FREE_KEYS = {"model": {"device", "dtype", "cache_dir", "gradient_checkpointing"},
                    "task": {"allow_contamination", "contamination_ngram"}}


RUN_LOCK = "run.lock"  # held (fcntl.flock) by the live process writing the run; says its pid and host
RUN_SECTIONS = {"model", "task", "reward", "rollout", "algo", "train"}  # what an rlvr config.json holds
_HELD_LOCKS: dict[Path, Any] = {}  # run directory -> the open lock file this process holds


def holds_run(run_dir: Path) -> bool:
    return any((run_dir / name).exists() for name in ("config.json", "metrics.jsonl", "checkpoints"))


def foreign_contents(run_dir: Path) -> str | None:
    """What the directory holds when its ``config.json`` is not an rlvr run's (a Hugging Face
    model folder, say), which a run would overwrite and ``--overwrite`` delete; None otherwise."""
    path = run_dir / "config.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, OSError):
        data = None
    if isinstance(data, dict) and RUN_SECTIONS <= set(data):
        return None
    if data is None and ((run_dir / "metrics.jsonl").exists() or (run_dir / "checkpoints").is_dir()):
        return None  # an rlvr run whose config.json is damaged: check_run_dir says so on --resume
    if isinstance(data, dict) and "model_type" in data:
        weights = sorted(p.name for p in run_dir.iterdir() if p.suffix in (".safetensors", ".bin", ".gguf", ".pt"))
        files = f", {', '.join(weights[:3])}" + (" ..." if len(weights) > 3 else "") if weights else ""
        return f"a Hugging Face model (config.json with model_type {data['model_type']!r}{files})"
    return "a config.json that is not an rlvr run's"


def _lock_holder(handle) -> str:
    handle.seek(0)
    return handle.read().strip() or "a process that did not say its pid"


def live_holder(run_dir: Path) -> str | None:
    """Who holds the run directory's lock ("pid 123 on host, started ..."), None when nobody
    does: the lock of a process that died is free, whatever its file says."""
    path = run_dir / RUN_LOCK
    if run_dir.resolve() in _HELD_LOCKS or not path.is_file():
        return None
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return _lock_holder(handle)
            fcntl.flock(handle, fcntl.LOCK_UN)
    except OSError:
        return None
    return None


def _in_use(run_dir: Path, holder: str) -> ConfigError:
    return ConfigError(f"run directory {run_dir} is in use by a live run ({holder}); wait for it to finish or stop "
                       f"it, or pick another --output")


def lock_run_dir(run_dir: Path) -> None:
    """Create the run directory and hold its lock until ``release_run_dirs`` (or this process
    ends: the kernel frees a dead process's lock). A directory that cannot be written, or that
    a live run holds, is one line."""
    key = run_dir.resolve()
    if key in _HELD_LOCKS:
        return
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        handle = open(run_dir / RUN_LOCK, "a+", encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write to the run directory {run_dir}: {exc.strerror or exc}; "
                          f"pick another --output") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _lock_holder(handle)
        handle.close()
        raise _in_use(run_dir, holder) from None
    try:
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()} on {socket.gethostname()}, started "
                     f"{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}\n")
        handle.flush()
    except OSError as exc:
        handle.close()
        raise ConfigError(f"cannot write to the run directory {run_dir}: {exc.strerror or exc}; "
                          f"pick another --output") from None
    _HELD_LOCKS[key] = handle


def release_run_dirs() -> None:
    """Let go of every run directory this process holds (the lock file stays, unlocked)."""
    while _HELD_LOCKS:
        _, handle = _HELD_LOCKS.popitem()
        handle.close()


def _describe_run(run_dir: Path) -> str:
    latest = None
    try:
        latest = ckpt.latest_checkpoint(run_dir / "checkpoints")
    except ckpt.CheckpointError:
        pass
    if (run_dir / "summary.json").is_file():
        try:
            stop = json.loads((run_dir / "summary.json").read_text()).get("stop") or {}
        except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):
            stop = {}
        if stop.get("reason") == "doctor":
            return f"a run the run doctor stopped at step {stop.get('step')} ({stop.get('name')})"
        return "a finished run"
    return f"a run with its latest checkpoint at {latest.name}" if latest else "a run without checkpoints"


def resolve_run_dir(cfg: Config, resume: bool, overwrite: bool, log) -> Config:
    """With no output given (``runs/<name>``), a directory that holds a run is kept and this run
    goes to the next free ``runs/<name>-N``, said in one line; an explicit output is kept as it is
    (``check_run_dir`` refuses an occupied one)."""
    if cfg.output is not None or resume or overwrite or not holds_run(cfg.run_dir()):
        return cfg
    base, n = cfg.run_dir(), 2
    while holds_run(base.with_name(f"{base.name}-{n}")):
        n += 1
    new = base.with_name(f"{base.name}-{n}")
    log(f"{base} already holds {_describe_run(base)}; this run writes to {new} "
        f"(--resume continues {base}, --overwrite replaces it)")
    return dataclasses.replace(cfg, output=str(new))


def check_run_dir(cfg: Config, resume: bool, overwrite: bool) -> None:
    """Refuse to mix two runs in one directory, and a resume that would mix two models."""
    run_dir = cfg.run_dir()
    if resume and overwrite:
        raise ConfigError("--resume continues the run in the directory and --overwrite replaces it; give one")
    holder = live_holder(run_dir)
    if holder is not None:
        raise _in_use(run_dir, holder)
    foreign = foreign_contents(run_dir)
    if foreign is not None:
        raise ConfigError(f"{run_dir} holds {foreign}, not an rlvr run; a run would overwrite its config.json "
                          f"(--overwrite would delete it), so it is left alone: pick another --output")
    if holds_run(run_dir) and not resume and not overwrite:
        raise ConfigError(f"run directory {run_dir} already holds {_describe_run(run_dir)}; add --resume to continue "
                          f"it, --overwrite to replace it, or pick another --output")
    saved = run_dir / "config.json"
    if resume and saved.is_file():
        try:
            old = json.loads(saved.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ConfigError(f"{saved} is not valid JSON; cannot check what the run was started with") from None
        check_resume_compatible(old, cfg, saved)


def check_resume_compatible(old: dict, cfg: Config, where: Path) -> None:
    """The keys of ``model`` and ``task`` (and the seed of a warm-started tiny model) that differ
    between the saved config and this one are refused, named with both values."""
    new = cfg.to_dict()
    changed = []
    for section in ("model", "task"):
        before, after = old.get(section) or {}, new[section]
        for key, value in after.items():
            if key in RESUME_FREE_KEYS[section] or key not in before:
                continue
            if before[key] != value:
                changed.append(f"{section}.{key} {before[key]!r} -> {value!r}")
    if cfg.model.path is None and "seed" in old and old["seed"] != cfg.seed:
        changed.append(f"seed {old['seed']!r} -> {cfg.seed!r} (the seed of the warm-started base)")
    if changed:
        raise ConfigError(f"--resume would mix two models: this config changes {', '.join(changed)} against {where}; "
                          f"drop the change, or start a new run (--overwrite or another --output)")


def clear_run_dir(run_dir: Path, log) -> None:
    """Remove the files a run writes (nothing else in the directory)."""
    removed = [name for name in RUN_FILES if (run_dir / name).exists()]
    for name in removed:
        p = run_dir / name
        shutil.rmtree(p) if p.is_dir() else p.unlink()
    if removed:
        log(f"--overwrite: removed the previous run's {', '.join(removed)} from {run_dir}")


# ---------------------------------------------------------------- set-up
def set_threads(cfg: Config) -> None:
    torch.set_num_threads(cfg.threads or os.cpu_count() or 1)


def seed_everything(seed: int) -> None:
    random.seed(seed)
    torch.manual_seed(seed)


def setup_run(cfg: Config, resume: bool, log, eval_backend: str | None = None, overwrite: bool = False) -> Run:
    """Build every part of a run (see the module docstring). ``eval_backend`` replaces
    ``rollout.backend`` for the trainer's own sampler (the asynchronous mode generates on
    workers and evaluates with ``hf`` when the workers run vLLM)."""
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    set_threads(cfg)
    dist = distributed.setup(cfg)  # torchrun / Ray ranks; a world of one makes every dist.* call a no-op
    log = log if dist.is_main else (lambda text: None)
    seed_everything(cfg.seed)
    resolve_device_dtype(cfg)  # model.device=cuda without a GPU stops here
    task = build_task(cfg.task, verifier=cfg.reward.verifier)  # a bad knob or data row stops here
    check_task(task, cfg.task, log)  # dataset tasks: refuse eval problems seen in training
    if cfg.model.path and (Path(cfg.model.path) / "config.json").is_file():
        check_model_dir(Path(cfg.model.path))  # a broken config.json or truncated weights: one line, before any work

    run_dir, phases = cfg.run_dir(), {}
    if dist.is_main:  # rank 0 alone: the other ranks may already see the config.json it writes
        check_run_dir(cfg, resume, overwrite)
        lock_run_dir(run_dir)  # held until the run ends: a second run or --resume into it is refused
    resume_from = ckpt.intact_checkpoint(run_dir / "checkpoints", log) if resume else None
    if resume and resume_from is None:
        log(f"resume: no checkpoint under {run_dir / 'checkpoints'}; starting from scratch")
    if overwrite and dist.is_main:
        clear_run_dir(run_dir, log)
    run_dir.mkdir(parents=True, exist_ok=True)
    if dist.is_main:
        save_config(cfg, run_dir / "config.json")

    t0 = time.time()
    base_dir = dist.main_first(lambda: ensure_base(cfg, task, log))  # rank 0 fills the warm-start cache
    phases["warmstart_s"] = time.time() - t0
    lora = cfg.model.lora_r > 0  # LoRA resumes from the base plus the adapter saved in trainer_state.pt
    model, tokenizer = load_policy(base_dir if lora else (resume_from or base_dir), cfg)
    log(f"precision (model.dtype={cfg.model.dtype}): {precision_of(model).describe()}")
    if hasattr(task, "check_rollout"):
        task.check_rollout(cfg, tokenizer)
    check_context(task, tokenizer, model, cfg)  # a prompt that does not fit the model's context: one line
    ref_model = build_reference(cfg, model, base_dir, resume_from)  # None without a KL term
    distributed.wrap_model(model, dist, cfg.train.dp)  # ranks start equal (ddp) or shard (fsdp2)
    optimizer, scheduler = build_optimizer(cfg, model)
    rollout_cfg = cfg if eval_backend is None else dataclasses.replace(
        cfg, rollout=dataclasses.replace(cfg.rollout, backend=eval_backend))
    backend = rollout_cfg.rollout.backend  # hf generates with the trainer's model: gathered under fsdp2
    run = Run(cfg=cfg, log=log, dist=dist, task=task, base_dir=base_dir, model=model, tokenizer=tokenizer,
              ref_model=ref_model, critic=build_critic(cfg, base_dir), optimizer=optimizer, scheduler=scheduler,
              rollout=distributed.for_generation(build_rollout(rollout_cfg, model, tokenizer), model, backend),
              rewarder=Rewarder(cfg.reward), shuffle_gen=torch.Generator().manual_seed(cfg.seed + 1),
              state=RunState(world=dist.world),
              evaluate_fn=dist.wrap_evaluate(evaluate, model if backend == "hf" else None),
              resume_from=resume_from, phases=phases)
    if resume_from is not None:
        restore(run, resume_from)
    dist.reseed(run.rollout.gen, cfg.seed, run.state.step)  # ranks sample independently
    # resuming drops log lines past the checkpoint; with no checkpoint yet (killed before the first), all of them
    keep_until = run.state.step if resume_from is not None else (-1 if resume else None)
    run.runlog = RunLog(run_dir, cfg, truncate_after=keep_until) if dist.is_main else distributed.NullRunLog()
    return run


def build_optimizer(cfg: Config, model):
    """AdamW over the trainable parameters (all, or LoRA's adapters) and a linear warm-up."""
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=cfg.train.lr, betas=tuple(cfg.train.betas),
                                  weight_decay=cfg.train.weight_decay)
    warmup = max(cfg.train.warmup_steps, 0)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / warmup) if warmup else 1.0)
    return optimizer, scheduler


def build_critic(cfg: Config, base_dir: Path):
    """PPO's learned value model (as large as the policy), or None for critic-free estimators."""
    if cfg.algo.advantage != "gae":
        return None
    from rlvr.train.critic import Critic, CriticTrainer

    device, dtype = resolve_device_dtype(cfg)
    return CriticTrainer(Critic.from_pretrained(base_dir, dtype=dtype, device=device), lr=cfg.train.lr)


def build_reference(cfg: Config, model, base_dir: Path, resume_from: Path | None):
    """The KL reference (None without a KL term): the LoRA policy with adapters disabled, or
    a frozen copy of the base (reloaded from ``base_dir`` when resuming, since the policy then
    holds the checkpoint's weights)."""
    if not cfg.algo.kl_coef:
        return None
    if cfg.model.lora_r > 0:
        if cfg.algo.ref_update_every:
            raise ConfigError(f"algo.ref_update_every={cfg.algo.ref_update_every} re-anchors a frozen reference copy, "
                              f"but with LoRA (model.lora_r={cfg.model.lora_r}) the reference is the base model "
                              f"with adapters disabled; set algo.ref_update_every=0 or model.lora_r=0")
        return ReferencePolicy.adapters_off(model)
    if resume_from is None:
        return ReferencePolicy(frozen_copy(model))
    base_model, _ = load_policy(base_dir, cfg)
    return ReferencePolicy(frozen_copy(base_model))


# ---------------------------------------------------------------- checkpoints
def _generators(run: Run) -> dict:
    return {"rollout": run.rollout.gen, "shuffle": run.shuffle_gen}


def restore(run: Run, path: Path) -> None:
    """Load the trainer state saved beside the weights at ``path`` into ``run``."""
    saved = ckpt.load_trainer_state(path)
    if saved.get("adapter") is not None:
        from rlvr.models.lora import load_adapter_state

        load_adapter_state(run.model, saved["adapter"])
    distributed.load_optimizer_state(run.model, run.optimizer, saved["optimizer"])
    run.scheduler.load_state_dict(saved["scheduler"])
    ckpt.set_rng_state(saved["rng"], _generators(run))
    if run.ref_model is not None and saved.get("ref_state") is not None:
        run.ref_model.load_state_dict(saved["ref_state"])
    if run.critic is not None:
        run.critic.load_state_dict(saved["critic"])
    run.state = RunState.from_dict(saved["state"])
    run.dist.check_resume(run.state.world)
    run.log(f"resume: continuing from {path.name} (step {run.state.step}, data position {run.state.data_pos})")


def save(run: Run) -> Path | None:
    """Checkpoint the run at its current step (rank 0 writes; every rank calls under FSDP2)."""
    cfg, model = run.cfg, run.model
    trainer_state = {
        "optimizer": distributed.optimizer_state(model, run.optimizer),  # gathered under FSDP2: every rank calls
        "scheduler": run.scheduler.state_dict(),
        "rng": ckpt.rng_state(_generators(run)),
        "ref_state": run.ref_model.state_dict() if (run.ref_model is not None and cfg.algo.ref_update_every) else None,
        "state": run.state.to_dict(),
        "critic": run.critic.state_dict() if run.critic is not None else None,
    }
    weights = distributed.saveable(model)  # gathered under FSDP2: every rank calls
    if not distributed.is_main():
        return None  # rank 0 writes the run directory
    step, keep = run.state.step, cfg.train.keep_checkpoints
    if not cfg.model.lora_r:
        return ckpt.save_checkpoint(run.ckpt_root, step, weights, run.tokenizer, trainer_state, keep=keep)
    from rlvr.models import lora  # the merged model for from_pretrained, the adapter for resume and peft

    trainer_state["adapter"] = lora.adapter_state(model)
    final = ckpt.save_checkpoint(run.ckpt_root, step, lora.MergedView(model), run.tokenizer, trainer_state, keep=keep)
    lora.save_adapter(model, final / lora.ADAPTER_DIR)
    return final
