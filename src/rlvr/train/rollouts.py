"""One step's data: draw prompts, generate groups, verify, shape rewards.

With dynamic sampling (DAPO) on, generation repeats on fresh prompts until the batch
holds ``prompts_per_step`` groups with mixed outcomes (some completions correct, some not:
the paper filters on accuracy, not on the shaped reward) or the round budget
(``algo.dynamic_sampling_max_rounds``) runs out; then it trains on what it has and
records that in the metrics (``dyn/exhausted``) rather than failing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from rlvr.config import Config
from rlvr.train.components import render_prompt
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


def collect_step_batch(cfg: Config, task, state: dict, rollout, tokenizer, rewarder, timer) -> StepData:
    P, G = cfg.rollout.prompts_per_step, cfg.rollout.group_size
    rounds = cfg.algo.dynamic_sampling_max_rounds if cfg.algo.dynamic_sampling else 1
    kept: list[tuple] = []  # (samples, completions, verdicts, raw, shaped) per kept group
    seen = generated = used_rounds = 0
    for _ in range(max(rounds, 1)):
        samples = task.train_batch(state["data_pos"], P)
        state["data_pos"] += P
        used_rounds += 1
        expanded, comps, verdicts = generate_and_verify(cfg, samples, rollout, tokenizer, rewarder, timer)
        generated += len(comps)
        raw = torch.tensor([v.reward for v in verdicts], dtype=torch.float32)
        shaped = shape_rewards(cfg, comps, raw)
        for g in range(P):
            sl = slice(g * G, (g + 1) * G)
            seen += 1
            correct = {v.status == "ok" for v in verdicts[sl]}
            if cfg.algo.dynamic_sampling and len(correct) == 1:
                continue  # all right or all wrong: DAPO drops groups whose accuracy is 0 or 1
            kept.append((expanded[sl], comps[sl], verdicts[sl], raw[sl], shaped[sl]))
        if len(kept) >= P:
            break
    exhausted = cfg.algo.dynamic_sampling and len(kept) < P
    if not kept:  # everything was uniform: train on the last round (zero advantages, still logged)
        kept = [(expanded[g * G:(g + 1) * G], comps[g * G:(g + 1) * G], verdicts[g * G:(g + 1) * G],
                 raw[g * G:(g + 1) * G], shaped[g * G:(g + 1) * G]) for g in range(P)]
    kept = kept[:P]
    dyn = {}
    if cfg.algo.dynamic_sampling:
        dyn = {"dyn/rounds": used_rounds, "dyn/groups_seen": seen, "dyn/groups_kept": len(kept),
               "dyn/exhausted": int(exhausted), "dyn/generated": generated}
    return StepData(
        samples=[s for grp in kept for s in grp[0]],
        completions=[c for grp in kept for c in grp[1]],
        verdicts=[v for grp in kept for v in grp[2]],
        raw_rewards=torch.cat([grp[3] for grp in kept]),
        rewards=torch.cat([grp[4] for grp in kept]),
        group_ids=torch.arange(len(kept)).repeat_interleave(G),
        dyn=dyn, generated=generated,
    )
