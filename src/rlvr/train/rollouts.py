"""One step's data, generated in place: draw prompts, generate groups, verify, shape rewards.

This is the synchronous data source of ``rlvr.train.loop`` (the asynchronous one is
``rlvr.train.async_source``). With dynamic sampling (DAPO) on, generation repeats on fresh
prompts until the batch holds ``prompts_per_step`` groups with mixed accuracy (some
completions correct, some not; ``rlvr.algo.sampling`` decides) or the round budget
(``algo.dynamic_sampling_max_rounds``) runs out; then it trains on what it has and records
that in the metrics (``dyn/exhausted``) rather than failing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from rlvr.algo import DynamicSampler
from rlvr.config import Config
from rlvr.rollout.prompts import render_prompt
from rlvr.types import Completion, Sample, SamplingParams, Verdict


@dataclass
class StepData:
    samples: list[Sample]          # (B,) the sample each completion answers
    completions: list[Completion]  # (B,)
    verdicts: list[Verdict]        # (B,)
    rewards: torch.Tensor          # (B,) after shaping
    group_ids: torch.Tensor        # (B,)
    raw_rewards: torch.Tensor      # (B,) verifier rewards before shaping
    dyn: dict = field(default_factory=dict)
    generated: int = 0             # completions generated this step (dynamic sampling may discard some)


def generate_and_verify(cfg: Config, samples: list[Sample], rollout, tokenizer, rewarder, timer):
    G = cfg.rollout.group_size
    sp = SamplingParams(max_new_tokens=cfg.rollout.max_new_tokens, temperature=cfg.rollout.temperature,
                        top_p=cfg.rollout.top_p, n=G)
    with timer("generate"):
        completions = rollout.generate([render_prompt(tokenizer, s, cfg) for s in samples], sp)
    expanded = [s for s in samples for _ in range(G)]
    with timer("verify"):
        verdicts = rewarder(completions, expanded)
    return expanded, completions, verdicts


def shape_rewards(cfg: Config, completions: list[Completion], raw: torch.Tensor) -> torch.Tensor:
    """DAPO's soft overlong penalty, when ``algo.overlong_buffer`` > 0."""
    a = cfg.algo
    if not a.overlong_buffer:
        return raw
    from rlvr.algo import overlong_penalty

    lengths = torch.tensor([len(c.token_ids) for c in completions], dtype=torch.float32)
    return raw + overlong_penalty(lengths, cfg.rollout.max_new_tokens, a.overlong_buffer, a.overlong_penalty)


def step_data(cfg: Config, samples, completions, verdicts, **extra) -> StepData:
    """StepData of groups laid out one after another (G completions each)."""
    raw = torch.tensor([v.reward for v in verdicts], dtype=torch.float32)
    G = cfg.rollout.group_size
    return StepData(samples=list(samples), completions=list(completions), verdicts=list(verdicts),
                    rewards=shape_rewards(cfg, completions, raw), raw_rewards=raw,
                    group_ids=torch.arange(len(completions) // G).repeat_interleave(G), **extra)


def collect_step_batch(cfg: Config, task, state, rollout, tokenizer, rewarder, timer) -> StepData:
    """``prompts_per_step`` groups for one step; ``state.data_pos`` advances past every prompt drawn."""
    P, G = cfg.rollout.prompts_per_step, cfg.rollout.group_size
    if not cfg.algo.dynamic_sampling:
        samples = task.train_batch(state.data_pos, P)
        state.data_pos += P
        expanded, comps, verdicts = generate_and_verify(cfg, samples, rollout, tokenizer, rewarder, timer)
        return step_data(cfg, expanded, comps, verdicts, generated=len(comps))
    sampler = DynamicSampler(target=P, max_rounds=max(cfg.algo.dynamic_sampling_max_rounds, 1))
    kept: list[tuple] = []  # (sample, completion, verdict) of kept groups, in order
    generated = 0
    while not sampler.done:
        samples = task.train_batch(state.data_pos, P)
        state.data_pos += P
        expanded, comps, verdicts = generate_and_verify(cfg, samples, rollout, tokenizer, rewarder, timer)
        generated += len(comps)
        accuracy = torch.tensor([float(v.status == "ok") for v in verdicts])  # the DAPO rule: mixed accuracy
        keep = sampler.add(accuracy, torch.arange(P).repeat_interleave(G) + sampler.rounds_used * P)
        kept += [row for row, k in zip(zip(expanded, comps, verdicts), keep.tolist()) if k]
    if not kept:  # everything was uniform: train on the last round (zero advantages, still logged)
        kept = list(zip(expanded, comps, verdicts))
    report = sampler.report()
    dyn = {"dyn/rounds": report.rounds_used, "dyn/groups_seen": report.groups_seen,
           "dyn/groups_kept": report.groups_kept, "dyn/exhausted": int(report.exhausted), "dyn/generated": generated}
    return step_data(cfg, *zip(*kept), dyn=dyn, generated=generated)
