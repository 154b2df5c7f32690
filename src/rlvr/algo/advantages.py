"""Group-relative advantage estimators: one scalar advantage per completion.

``group_advantages(rewards, group_ids, estimator)`` -> (B,) advantages, where completions
that share a ``group_ids`` value answer the same prompt. Estimators (dict
``ADVANTAGE_ESTIMATORS``):

- ``grpo``: (r - mean_g) / (std_g + eps), DeepSeekMath (Shao et al. 2024) sec. 4.1.2.
  ``std="population"`` divides the variance by G (as ``torch.std(unbiased=False)``),
  ``"unbiased"`` by G - 1 (what TRL/verl's ``torch.std`` default gives).
  ``scope="batch"`` keeps the per-group mean but divides by the std of all rewards in the
  batch (TRL ``scale_rewards="batch"``; "group mean, batch std" of Liu et al. 2025,
  "Tricks or Traps?").
- ``dr_grpo``: r - mean_g, no std (Liu et al. 2025, "Understanding R1-Zero-Like Training").
- ``rloo``: r_i - mean_{j != i} r_j (Ahmadian et al. 2024, after Kool et al. 2019).
  Equal to G/(G-1) times the dr_grpo advantage.
- ``reinforce``: r with ``baseline="none"``, or r - mean over the whole batch with
  ``baseline="batch_mean"`` (Williams 1992); groups are ignored.
- ``reinforce_pp``: REINFORCE++-baseline (Hu et al. 2025): x = r - mean_g, then whitened
  over the whole batch, (x - mean_B(x)) / (std_B(x) + eps), std population. Each completion
  counts once; OpenRLHF and verl whiten over tokens (a completion counts |y_i| times), which
  agrees when every completion has the same length.

Invariant: every completion of a zero-variance group (all rewards equal) gets exactly 0.0
(set explicitly, not left to floating-point cancellation) for grpo, dr_grpo and rloo; for
reinforce with no baseline the advantage is the reward itself, by definition; for
reinforce_pp a zero-variance group is 0 and an all-uniform batch is all 0.

Not here: ``gae`` (token-level, needs a critic) lives in ``rlvr.algo.value``.
The inputs are checked (finite rewards, groups large enough for rloo / unbiased std); the
checks read tensor values and so synchronise with the device once per call, which is
acceptable for a (B,) tensor computed once per step.
"""

from __future__ import annotations

import torch

STD_MODES = ("population", "unbiased")
SCOPES = ("group", "batch")
BASELINES = ("none", "batch_mean")


def _lookup(table: dict, name: str, kind: str):
    if name not in table:
        raise ValueError(f"unknown {kind} {name!r}; valid: {', '.join(table)}")
    return table[name]


def _check_choice(value: str, valid: tuple, kind: str) -> None:
    if value not in valid:
        raise ValueError(f"unknown {kind} {value!r}; valid: {', '.join(valid)}")


def _group_stats(rewards: torch.Tensor, group_ids: torch.Tensor) -> dict:
    """Per-completion views of per-group count, sum, mean and an all-equal flag."""
    labels, index = torch.unique(group_ids, return_inverse=True)  # (n,), (B,) in [0, n)
    n = labels.numel()
    zeros = rewards.new_zeros(n)
    count = zeros.index_add(0, index, torch.ones_like(rewards))  # (n,)
    total = zeros.index_add(0, index, rewards)  # (n,)
    lo = zeros.scatter_reduce(0, index, rewards, "amin", include_self=False)  # (n,)
    hi = zeros.scatter_reduce(0, index, rewards, "amax", include_self=False)  # (n,)
    mean = total / count  # (n,)
    sq = zeros.index_add(0, index, (rewards - mean[index]) ** 2)  # (n,)
    return {
        "index": index,
        "count": count[index],  # (B,)
        "total": total[index],  # (B,)
        "mean": mean[index],  # (B,)
        "sumsq": sq[index],  # (B,) sum of squared deviations in the group
        "uniform": (hi == lo)[index],  # (B,) bool
    }


def _std(sumsq: torch.Tensor, count: torch.Tensor, std: str) -> torch.Tensor:
    dof = count if std == "population" else count - 1
    return torch.sqrt(sumsq / dof.clamp(min=1))


def _need_pairs(count: torch.Tensor, what: str) -> None:
    if bool((count < 2).any()):
        raise ValueError(f"{what} needs every group to hold >= 2 completions; a group of one has no baseline")


def _grpo(rewards, group_ids, *, std, eps, scope, baseline):
    g = _group_stats(rewards, group_ids)
    if scope == "group":
        if std == "unbiased":
            _need_pairs(g["count"], "grpo with std='unbiased'")
        sigma = _std(g["sumsq"], g["count"], std)  # (B,)
    else:
        n = rewards.new_tensor(float(rewards.numel()))
        sigma = _std(((rewards - rewards.mean()) ** 2).sum(), n, std)  # 0-d
    adv = (rewards - g["mean"]) / (sigma + eps)
    return torch.where(g["uniform"], torch.zeros_like(adv), adv)


def _dr_grpo(rewards, group_ids, *, std, eps, scope, baseline):
    g = _group_stats(rewards, group_ids)
    adv = rewards - g["mean"]
    return torch.where(g["uniform"], torch.zeros_like(adv), adv)


def _rloo(rewards, group_ids, *, std, eps, scope, baseline):
    g = _group_stats(rewards, group_ids)
    _need_pairs(g["count"], "rloo")
    loo_mean = (g["total"] - rewards) / (g["count"] - 1)  # mean of the other G-1 rewards
    adv = rewards - loo_mean
    return torch.where(g["uniform"], torch.zeros_like(adv), adv)


def _reinforce(rewards, group_ids, *, std, eps, scope, baseline):
    if baseline == "none":
        return rewards.clone()
    adv = rewards - rewards.mean()
    uniform = rewards.amax() == rewards.amin()
    return torch.where(uniform, torch.zeros_like(adv), adv)


def _reinforce_pp(rewards, group_ids, *, std, eps, scope, baseline):
    g = _group_stats(rewards, group_ids)
    x = torch.where(g["uniform"], torch.zeros_like(rewards), rewards - g["mean"])  # group baseline
    n = rewards.new_tensor(float(rewards.numel()))
    centred = x - x.mean()  # the batch mean of group-centred rewards: 0 up to rounding
    sigma = _std((centred ** 2).sum(), n, "population")  # 0-d, over the whole batch
    adv = centred / (sigma + eps)
    return torch.where(g["uniform"], torch.zeros_like(adv), adv)


ADVANTAGE_ESTIMATORS = {
    "grpo": _grpo,
    "dr_grpo": _dr_grpo,
    "rloo": _rloo,
    "reinforce": _reinforce,
    "reinforce_pp": _reinforce_pp,
}


def group_advantages(
    rewards: torch.Tensor,
    group_ids: torch.Tensor,
    estimator: str = "grpo",
    *,
    std: str = "population",
    eps: float = 1e-6,
    scope: str = "group",
    baseline: str = "none",
) -> torch.Tensor:
    """Advantages (B,) from rewards (B,) and group ids (B,) (any integer labels).

    ``std`` and ``scope`` matter only to ``grpo``; ``baseline`` only to ``reinforce``.
    Worked example, rewards [1,1,1,0,0,0,0,0] in one group: grpo +1.2910 / -0.7746
    (population std 0.4841), dr_grpo +0.625 / -0.375, rloo +0.7143 / -0.4286,
    reinforce_pp = grpo here (one group: the batch std is the group's).
    """
    if estimator == "gae":
        raise ValueError("estimator 'gae' is token-level: use "
                         "rlvr.algo.value.gae_advantages(token_rewards, values, mask, gamma, lam)")
    fn = _lookup(ADVANTAGE_ESTIMATORS, estimator, "advantage estimator")
    _check_choice(std, STD_MODES, "std")
    _check_choice(scope, SCOPES, "scope")
    _check_choice(baseline, BASELINES, "reinforce baseline")
    if rewards.dim() != 1 or group_ids.shape != rewards.shape:
        raise ValueError(f"rewards and group_ids must both be (B,); got {tuple(rewards.shape)}"
                         f" and {tuple(group_ids.shape)}")
    if rewards.numel() == 0:
        return rewards.new_zeros(0, dtype=torch.float32)
    rewards = rewards.detach()
    if not rewards.is_floating_point():
        rewards = rewards.float()
    if not bool(torch.isfinite(rewards).all()):
        raise ValueError("rewards contain NaN or inf; a verifier failure must not become a reward")
    return fn(rewards, group_ids.to(rewards.device), std=std, eps=eps, scope=scope, baseline=baseline)
