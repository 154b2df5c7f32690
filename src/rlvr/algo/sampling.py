"""DAPO dynamic sampling as pure selection logic: keep groups whose outcomes differ.

A group whose completions all have the same outcome adds no policy gradient through the
outcome (only noise through KL/entropy terms and a smaller effective batch). DAPO (Yu et al.
2025, sec. 3.2, eq. 11 constraint 0 < |{o_i | is_equivalent(a, o_i)}| < G) over-samples and
filters such groups out "until the batch is fully filled with samples whose accuracy is
neither 0 nor 1".

The functions take one outcome per completion. The trainer (``rlvr.train.rollouts``) passes
**accuracy** (1.0 when the verdict is ``ok``, else 0.0): the paper's rule, so a format bonus
that differs inside an all-wrong group does not keep it. Passing the rewards instead gives
verl's ``filter_groups.metric=seq_reward`` variant.

- ``mixed_groups(outcomes, group_ids)`` -> (labels (n,), mixed (n,) bool), one entry per
  distinct group id in ascending order: True when the group's outcomes are not all equal.
- ``DynamicSampler(target, max_rounds)``: the trainer generates a round, calls
  ``add(outcomes, group_ids)`` and receives a (B,) mask of the completions to keep; it stops
  when ``done``. Groups are kept in ascending id order until ``target`` groups are held
  (surplus mixed groups of the last round are dropped so the batch size stays fixed, as
  verl does). When the round budget runs out first, ``report().exhausted`` is True and the
  trainer decides what to do with the groups it has (possibly none); nothing here raises
  because the data is too easy or too hard.

Not here: generation, or mixing zero-variance groups back in to fill a batch.
Departure from "no .item()": the sampler turns counts into Python ints, because it drives
the trainer's control flow; outcomes are small CPU tensors from the verifiers.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


def mixed_groups(outcomes: torch.Tensor, group_ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(labels (n,), mixed (n,) bool): distinct group ids (ascending) and whether their outcomes differ."""
    if outcomes.dim() != 1 or group_ids.shape != outcomes.shape:
        raise ValueError(f"outcomes and group_ids must both be (B,); got {tuple(outcomes.shape)} and "
                         f"{tuple(group_ids.shape)}")
    labels, index = torch.unique(group_ids, return_inverse=True)  # (n,), (B,)
    r = outcomes.detach().float()
    zeros = r.new_zeros(labels.numel())
    lo = zeros.scatter_reduce(0, index, r, "amin", include_self=False)  # (n,)
    hi = zeros.scatter_reduce(0, index, r, "amax", include_self=False)  # (n,)
    return labels, hi != lo


def mixed_sample_mask(outcomes: torch.Tensor, group_ids: torch.Tensor) -> torch.Tensor:
    """(B,) bool: True for completions whose group has differing outcomes."""
    labels, mixed = mixed_groups(outcomes, group_ids)
    return mixed[torch.searchsorted(labels, group_ids)]


@dataclass(frozen=True)
class SamplingReport:
    """What one step's dynamic sampling did (the trainer logs these)."""

    target: int
    rounds_used: int
    groups_seen: int
    groups_mixed: int
    groups_kept: int
    exhausted: bool  # the round budget ran out before ``target`` groups were kept


class DynamicSampler:
    """Accumulate mixed groups over generation rounds until ``target`` or ``max_rounds``.

    Use::

        sampler = DynamicSampler(target=prompts_per_step, max_rounds=4)
        while not sampler.done:
            outcomes, group_ids = generate_and_verify()  # one round, the trainer's job
            keep = sampler.add(outcomes, group_ids)       # (B,) bool for this round
            ...collect the kept completions...
        report = sampler.report()

    Group ids must be distinct across rounds (a re-sampled prompt gets a new id).
    """

    def __init__(self, target: int, max_rounds: int):
        if target < 1 or max_rounds < 1:
            raise ValueError(f"target and max_rounds must be >= 1; got target={target}, max_rounds={max_rounds}")
        self.target, self.max_rounds = int(target), int(max_rounds)
        self.rounds_used = self.groups_seen = self.groups_mixed = self.groups_kept = 0

    @property
    def done(self) -> bool:
        return self.groups_kept >= self.target or self.rounds_used >= self.max_rounds

    def add(self, outcomes: torch.Tensor, group_ids: torch.Tensor) -> torch.Tensor:
        """Record one round; return the (B,) bool mask of its completions to keep."""
        if self.done:
            raise RuntimeError("DynamicSampler.add called after it is done; check `done` before generating")
        labels, mixed = mixed_groups(outcomes, group_ids)  # (n,), (n,)
        room = self.target - self.groups_kept
        keep_group = mixed & (torch.cumsum(mixed.long(), 0) <= room)  # first `room` mixed groups
        self.rounds_used += 1
        self.groups_seen += labels.numel()
        self.groups_mixed += int(mixed.sum())
        self.groups_kept += int(keep_group.sum())
        return keep_group[torch.searchsorted(labels, group_ids)]

    def report(self) -> SamplingReport:
        return SamplingReport(
            target=self.target,
            rounds_used=self.rounds_used,
            groups_seen=self.groups_seen,
            groups_mixed=self.groups_mixed,
            groups_kept=self.groups_kept,
            exhausted=self.groups_kept < self.target and self.rounds_used >= self.max_rounds,
        )
