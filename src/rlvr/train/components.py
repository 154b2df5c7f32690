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
from rlvr.errors import ConfigError, DataError
from rlvr.types import Completion, Sample, SamplingParams, Verdict


# ---------------------------------------------------------------- task
def build_task(cfg: Config):
    t = cfg.task
    if t.name == "tool_arithmetic":
        from rlvr.tasks.tool_arithmetic import ToolArithmeticSpec, ToolArithmeticTask

        try:
            spec = ToolArithmeticSpec(digits_min=t.tool_digits_min, digits_max=t.tool_digits_max,
                                      operators=t.operators, call_rate=t.tool_call_rate, seed=t.seed)
            return ToolArithmeticTask(spec, eval_size=t.eval_size)
        except ValueError as exc:
            raise ConfigError(f"task: {exc}") from None
    if t.name == "arithmetic":
        from rlvr.tasks.arithmetic import ArithmeticSpec, ArithmeticTask

        try:
            spec = ArithmeticSpec(terms_min=t.terms_min, terms_max=t.terms_max, digits=t.digits,
                                  operators=t.operators, seed=t.seed, think_rate=t.think_rate)
            return ArithmeticTask(spec, eval_size=t.eval_size)
        except ValueError as exc:
            raise ConfigError(f"task: {exc}") from None
    if t.name == "dataset":
        from rlvr.tasks.dataset import DatasetTask

        return DatasetTask.from_config(t, verifier=cfg.reward.verifier)
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
    from rlvr.tasks.arithmetic import PROMPT

    m = cfg.model
    model_cfg = {k: getattr(m, k) for k in ("arch", "hidden", "layers", "heads", "intermediate", "tie_embeddings",
                                            "warmstart_steps", "warmstart_batch", "warmstart_lr")}
    task_cfg = {k: getattr(cfg.task, k) for k in ("name", "terms_min", "terms_max", "digits", "operators",
                                                  "eval_size", "seed")}
    if cfg.task.think_rate < 1.0:  # keyed only when used, so existing caches stay valid
        task_cfg["think_rate"] = cfg.task.think_rate
    task_cfg["prompt"] = PROMPT  # the warm-start imitates answers to exactly this prompt
    if cfg.task.name == "tool_arithmetic":  # a mix of tool calls and direct answers; tool output unlabelled
        from rlvr.tasks import tool_arithmetic as ta

        task_cfg = {k: getattr(cfg.task, k) for k in ("name", "tool_digits_min", "tool_digits_max", "operators",
                                                      "tool_call_rate", "eval_size", "seed")}
        task_cfg.update(prompt=ta.PROMPT, reference=ta.longest_reference(cfg.task.tool_digits_max, cfg.task.operators))
        return warmstart_tiny(model_cfg, task, task_cfg, cfg.seed, m.cache_dir, task.reference_segments, log=log)
    return warmstart_tiny(model_cfg, task, task_cfg, cfg.seed, m.cache_dir, task.reference_completion, log=log)


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
        # transformers recomputes activations only in train mode; the rollout switches to eval
        # while sampling and back. Non-reentrant checkpointing also works with frozen embeddings (LoRA).
        kwargs = {"use_reentrant": False}
        if hasattr(model, "activation_checkpointing_enable"):  # transformers >= 5 (the old name is deprecated)
            model.activation_checkpointing_enable(activation_checkpointing_kwargs=kwargs)
        else:
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs=kwargs)
        model.train()
    if cfg.model.lora_r > 0:
        from rlvr.models.lora import apply_lora

        model = apply_lora(model, cfg.model)
        if cfg.model.lora_dropout > 0:
            model.train()  # LoRA dropout acts only in train mode
    return model, tokenizer


def build_reference(cfg: Config, model, base_dir: Path, resume_from: Path | None):
    """The KL reference (None without a KL term): the LoRA policy with adapters disabled, or
    a frozen copy of the base (reloaded from ``base_dir`` when resuming, since the policy then
    holds the checkpoint's weights)."""
    from rlvr.train.update import ReferencePolicy

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
    """The rollout backend, inside the tool-call loop when the run uses tools."""
    return with_tools(cfg, build_backend(cfg, model, tokenizer), tokenizer)


def with_tools(cfg: Config, rollout, tokenizer):
    """Wrap ``rollout`` in the tool-call loop (``rlvr.rollout.tools``) when rollout.max_tool_calls > 0."""
    r = cfg.rollout
    if cfg.task.name == "tool_arithmetic":
        from rlvr.tasks.tool_arithmetic import longest_reference

        if r.max_tool_calls < 1:
            raise ConfigError("task.name=tool_arithmetic needs the calculator: set rollout.max_tool_calls=1")
        need = len(tokenizer(longest_reference(cfg.task.tool_digits_max, cfg.task.operators),
                             add_special_tokens=False)["input_ids"]) + 1  # + EOS
        if min(r.max_new_tokens, cfg.eval.max_new_tokens or r.max_new_tokens) < need:
            raise ConfigError(f"task.name=tool_arithmetic with {cfg.task.tool_digits_max}-digit operands needs "
                              f"rollout.max_new_tokens (and eval.max_new_tokens) >= {need}")
    if r.max_tool_calls <= 0:
        return rollout
    from rlvr.envs.tools import ToolEnv, build_tool
    from rlvr.rollout.tools import ToolRollout

    for key in ("tool_tags", "tool_output_tags"):
        tags = getattr(r, key)
        if len(tags) != 2 or not all(isinstance(x, str) and x for x in tags):
            raise ConfigError(f"rollout.{key} must be two non-empty strings [open, close], got {tags!r}")
    from rlvr.sandbox import SandboxUnavailable

    try:
        tool = build_tool(r.tool)
    except SandboxUnavailable as exc:
        raise ConfigError(f"rollout.tool={r.tool}: {exc}") from None
    call_tags, output_tags = tuple(r.tool_tags), tuple(r.tool_output_tags)
    return ToolRollout(rollout, tokenizer, lambda: ToolEnv(tool, call_tags, output_tags), r.max_tool_calls,
                       workers=4 if r.tool == "python" else 1)


def build_backend(cfg: Config, model, tokenizer):
    name = cfg.rollout.backend
    if name == "hf":
        from rlvr.rollout.hf import HFRollout

        rollout = HFRollout(model, tokenizer, seed=cfg.seed)
        extra = [i for i in eos_token_ids(model, tokenizer) if i != tokenizer.eos_token_id]
        return EosStops(rollout, tuple(extra), tokenizer) if extra else rollout
    if name == "vllm":
        from rlvr.rollout.vllm import VLLMRollout

        return VLLMRollout(cfg, model, tokenizer)
    if name == "scripted":
        from rlvr.rollout.scripted import ScriptedRollout

        return ScriptedRollout(tokenizer)
    raise ConfigError(f"unknown rollout.backend {name!r}; valid: hf, vllm, scripted")


def eos_token_ids(model, tokenizer) -> list[int]:
    """Every id that ends a completion: the tokenizer's EOS and all of the model's
    ``generation_config.eos_token_id`` (a list on chat models: Qwen2.5 ends a turn with
    <|im_end|> while its tokenizer's EOS may be <|endoftext|>)."""
    ids = [tokenizer.eos_token_id] if tokenizer.eos_token_id is not None else []
    gen_cfg = getattr(model, "generation_config", None)
    extra = getattr(gen_cfg, "eos_token_id", None)
    ids += extra if isinstance(extra, (list, tuple)) else ([extra] if extra is not None else [])
    return list(dict.fromkeys(int(i) for i in ids))


class EosStops:
    """A rollout whose completions also stop at the model's other EOS ids; such a final
    token is kept in ``token_ids`` (it is trained on, like EOS) and dropped from ``text``."""

    _OWN = ("inner", "extra_ids", "tokenizer")

    def __init__(self, inner, extra_ids: tuple[int, ...], tokenizer):
        for name, value in zip(self._OWN, (inner, extra_ids, tokenizer)):
            object.__setattr__(self, name, value)

    def __getattr__(self, name):  # gen, version, sync_weights, model, ... of the wrapped rollout
        if name in self._OWN:  # not set yet (unpickling): no recursion through self.inner
            raise AttributeError(name)
        return getattr(self.inner, name)

    def __setattr__(self, name, value):  # e.g. ``rollout.version = step`` reaches the wrapped rollout
        if name in self._OWN:
            object.__setattr__(self, name, value)
        else:
            setattr(self.inner, name, value)

    def generate(self, prompts: list[list[int]], sampling: SamplingParams) -> list[Completion]:
        stops = tuple(dict.fromkeys((*sampling.stop_token_ids, *self.extra_ids)))
        out = self.inner.generate(prompts, dataclasses.replace(sampling, stop_token_ids=stops))
        for c in out:
            if c.token_ids and c.token_ids[-1] in self.extra_ids:
                c.text = self.tokenizer.decode(c.token_ids[:-1], skip_special_tokens=False)
        return out


def check_contamination(cfg: Config, task, log) -> None:
    """Refuse a dataset run whose eval problems also occur in its training data, unless
    ``task.allow_contamination`` (then warn)."""
    if not hasattr(task, "contamination"):
        return
    found = task.contamination(ngram=cfg.task.contamination_ngram)
    if not found:
        return
    first = task.eval_samples[found[0].eval_index]
    what = (f"{len(found)} of {len(task.eval_samples)} eval problems also occur in the training data "
            f"(first: {first.fields.get('source', first.id)}, {found[0].kind} match)")
    if cfg.task.allow_contamination:
        log(f"warning: {what}; training anyway (task.allow_contamination=true)")
        return
    if cfg.task.eval_path:
        column = (cfg.task.fields or {}).get("prompt", "prompt")
        how = (f"list them with `rlvr data check --train {cfg.task.train_path} --eval {cfg.task.eval_path} "
               f"--fields {column}` and remove them")
    else:
        how = f"the held-out rows were split off '{cfg.task.train_path}', so it holds duplicates: deduplicate it"
    raise DataError(f"{what}; {how}, or set task.allow_contamination=true")


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


def base_evaluation(state: dict, evaluate_fn, rollout, tokenizer, eval_samples: list[Sample], rewarder,
                    cfg: Config, runlog, log, phases: dict) -> float:
    """Evaluate the base policy once per run (a resumed run keeps the first figure); its pass@1."""
    if state["base_eval"] is None:
        t0 = time.time()
        base = evaluate_fn(rollout, tokenizer, eval_samples, rewarder, cfg)
        phases["base_eval_s"] = time.time() - t0
        state["base_eval"] = {"pass@1": base["pass@1"]}
        runlog.log({"step": 0, "kind": "eval", "pass@1": base["pass@1"], "eval/len_mean": base["eval/len_mean"]})
        log(f"base: held-out pass@1 {base['pass@1']:.3f} on {len(eval_samples)} problems")
    return state["base_eval"]["pass@1"]


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
