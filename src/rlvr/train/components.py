"""Plumbing the training loop wires together: task, model, prompts, reward, evaluation.

Each function does one thing and is named for it, so ``loop.py`` reads as a script.
"""

from __future__ import annotations

import dataclasses
import math
import os
import time
from pathlib import Path

import torch

from rlvr.config import Config
from rlvr.errors import ConfigError
from rlvr.types import Completion, Sample, SamplingParams, Verdict


# ---------------------------------------------------------------- task
def build_task(cfg: Config):
    t = cfg.task
    if t.name in ("arithmetic", "tool_arithmetic"):
        from rlvr.tasks.arithmetic import ArithmeticSpec, ArithmeticTask

        spec = ArithmeticSpec(terms_min=t.terms_min, terms_max=t.terms_max, digits=t.digits,
                              operators=t.operators, seed=t.seed)
        try:
            return ArithmeticTask(spec, eval_size=t.eval_size)
        except ValueError as exc:
            raise ConfigError(f"task: {exc}") from None
    if t.name == "dataset":
        from rlvr.tasks.dataset import DatasetTask

        return DatasetTask.from_config(t)
    raise ConfigError(f"unknown task.name {t.name!r}; valid: arithmetic, tool_arithmetic, dataset")


# ---------------------------------------------------------------- model
def resolve_device_dtype(cfg: Config) -> tuple[torch.device, torch.dtype]:
    dev = cfg.model.device
    if dev == "auto":
        dev = "cuda" if torch.cuda.is_available() else "cpu"
    if dev == "cuda" and not torch.cuda.is_available():
        raise ConfigError("model.device=cuda but no CUDA GPU is visible; use model.device=cpu")
    dtype = cfg.model.dtype
    if dtype == "auto":
        dtype = "bfloat16" if dev == "cuda" else "float32"
    return torch.device(dev), getattr(torch, dtype)


def ensure_base(cfg: Config, task, log) -> Path:
    """The base policy's directory: the user's model, or the cached warm-started tiny model."""
    if cfg.model.path:
        path = Path(cfg.model.path)
        if not (path / "config.json").is_file():
            raise ConfigError(f"model.path '{path}' is not a Hugging Face model directory (no config.json)")
        return path
    if cfg.task.name not in ("arithmetic", "tool_arithmetic"):
        raise ConfigError("the built-in tiny model only warm-starts on the built-in tasks; set model.path=DIR")
    from rlvr.models.warmstart import warmstart_tiny
    from rlvr.tasks.arithmetic import reference_completion

    m = cfg.model
    model_cfg = {k: getattr(m, k) for k in ("arch", "hidden", "layers", "heads", "intermediate",
                                            "warmstart_steps", "warmstart_batch", "warmstart_lr")}
    task_cfg = {k: getattr(cfg.task, k) for k in ("name", "terms_min", "terms_max", "digits", "operators",
                                                  "eval_size", "seed")}
    return warmstart_tiny(model_cfg, task, task_cfg, cfg.seed, m.cache_dir, reference_completion, log=log)


def load_policy(path: Path, cfg: Config):
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    device, dtype = resolve_device_dtype(cfg)
    tokenizer = AutoTokenizer.from_pretrained(path)
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    tokenizer.padding_side = "left"
    model = AutoModelForCausalLM.from_pretrained(path, dtype=dtype).to(device)
    if cfg.model.gradient_checkpointing:
        model.gradient_checkpointing_enable()
    return model, tokenizer


def frozen_copy(model):
    import copy

    ref = copy.deepcopy(model)
    ref.eval()
    for p in ref.parameters():
        p.requires_grad_(False)
    return ref


def render_prompt(tokenizer, sample: Sample, cfg: Config) -> list[int]:
    """Token ids of the prompt: through the chat template when the tokenizer has one."""
    if cfg.model.chat_template == "auto" and getattr(tokenizer, "chat_template", None):
        messages = []
        if cfg.model.system_prompt:
            messages.append({"role": "system", "content": cfg.model.system_prompt})
        messages.append({"role": "user", "content": sample.prompt})
        ids = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=True)
        if isinstance(ids, dict) or hasattr(ids, "input_ids"):
            ids = ids["input_ids"]
        return list(ids)
    return tokenizer(sample.prompt, add_special_tokens=False)["input_ids"]


def build_rollout(cfg: Config, model, tokenizer):
    name = cfg.rollout.backend
    if name == "hf":
        from rlvr.rollout.hf import HFRollout

        return HFRollout(model, tokenizer, seed=cfg.seed)
    if name == "vllm":
        from rlvr.rollout.vllm import VLLMRollout

        return VLLMRollout(cfg, model, tokenizer)
    if name == "scripted":
        from rlvr.rollout.scripted import ScriptedRollout

        return ScriptedRollout(tokenizer)
    raise ConfigError(f"unknown rollout.backend {name!r}; valid: hf, vllm, scripted")


# ---------------------------------------------------------------- reward
class Rewarder:
    """The run's reward: accuracy verifier + weighted format term, through the pool."""

    def __init__(self, cfg: Config):
        from rlvr.verifiers.pool import VerifierPool
        from rlvr.verifiers.registry import build_reward_fn

        spec = build_reward_fn(cfg.reward.verifier, cfg.reward.format_weight, cfg.reward.format_gated)
        self.pool = VerifierPool(spec, workers=cfg.reward.workers, timeout_s=cfg.reward.timeout_s)

    def __call__(self, completions: list[Completion], samples: list[Sample]) -> list[Verdict]:
        return self.pool.map([c.text for c in completions], samples)

    def close(self) -> None:
        self.pool.close()


# ---------------------------------------------------------------- evaluation
def final_answer(text: str) -> str | None:
    """The completion's final answer in canonical form, for majority voting (maj@k)."""
    from rlvr.verifiers.extract import answer_tag, final_candidates, plain_number

    tag = answer_tag(text)
    value = tag.text if tag is not None else None
    if tag is None:
        cands = final_candidates(text)
        value = cands[-1][2] if cands else None
    if not value:
        return None
    num = plain_number(value)
    return str(num.value) if num is not None else value.strip()


def evaluate_samples(rollout, tokenizer, samples: list[Sample], rewarder: Rewarder, cfg: Config,
                     n: int | None = None, temperature: float | None = None, chunk: int = 100) -> dict:
    """Sample n completions per held-out problem and verify them.

    Returns ``correct`` and ``answers`` (the extracted final answer, for maj@k), one row per
    problem, and ``pass@1``: mean success over the n samples, averaged over problems.
    """
    n = n or cfg.eval.samples
    temp = cfg.eval.temperature if temperature is None else temperature
    sp = SamplingParams(max_new_tokens=cfg.eval.max_new_tokens or cfg.rollout.max_new_tokens,
                        temperature=temp, top_p=1.0 if temp == 0 else cfg.rollout.top_p, n=n)
    correct, answers, lengths = [], [], []
    for i in range(0, len(samples), chunk):
        part = samples[i:i + chunk]
        comps = rollout.generate([render_prompt(tokenizer, s, cfg) for s in part], sp)
        verdicts = rewarder(comps, [s for s in part for _ in range(n)])
        for j in range(len(part)):
            correct.append([v.status == "ok" for v in verdicts[j * n:(j + 1) * n]])
            answers.append([final_answer(c.text) for c in comps[j * n:(j + 1) * n]])
        lengths += [len(c.token_ids) for c in comps]
    p1 = sum(sum(c) / len(c) for c in correct) / max(len(correct), 1)
    return {"pass@1": p1, "eval/len_mean": sum(lengths) / max(len(lengths), 1), "correct": correct,
            "answers": answers}


def evaluate(rollout, tokenizer, samples: list[Sample], rewarder: Rewarder, cfg: Config) -> dict:
    """Periodic held-out evaluation with the run's eval settings."""
    return evaluate_samples(rollout, tokenizer, samples, rewarder, cfg)


# ---------------------------------------------------------------- misc
def set_threads(cfg: Config) -> None:
    n = cfg.threads or os.cpu_count() or 1
    torch.set_num_threads(n)


def seed_everything(seed: int) -> None:
    import random

    random.seed(seed)
    torch.manual_seed(seed)


class Timer:
    def __init__(self):
        self.t = {}

    def __call__(self, name):
        timer = self

        class _Ctx:
            def __enter__(self):
                self.t0 = time.perf_counter()

            def __exit__(self, *exc):
                timer.t[name] = timer.t.get(name, 0.0) + time.perf_counter() - self.t0

        return _Ctx()


def finite(x: float) -> bool:
    return not (math.isnan(x) or math.isinf(x))


def config_fields(obj) -> dict:
    return dataclasses.asdict(obj)
