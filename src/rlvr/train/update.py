"""The policy update of one step: advantages, then epochs x minibatches of optimizer steps.

The loss normaliser of each minibatch is computed here, over the whole minibatch, and
passed to ``rlvr.algo.policy_loss`` for each micro-batch, so gradient accumulation gives
the same gradient as one big batch. Old log-probabilities are recomputed by a separate
no-grad pass only when they can differ from the current ones (more than one optimizer
step per batch); with one step the ratio is exactly 1 and ``old_logp = logp.detach()``.
The KL reference is a ``ReferencePolicy``: a frozen copy of the policy, or, with LoRA, the
policy itself with its adapters disabled (the base model, without a second copy).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from rlvr import algo
from rlvr.algo import correction
from rlvr.config import Config
from rlvr.train.batch import Batch, collate
from rlvr.train.forward import positions_run, response_logp_entropy


def _chunks(idx: torch.Tensor, size: int) -> list[torch.Tensor]:
    return list(idx.split(size)) if size and size < len(idx) else [idx]


@torch.no_grad()
def logp_of(model, batch: Batch, temperature: float, micro: int) -> torch.Tensor:
    """Per-token log-probs of the whole batch without building a graph. (B, R)"""
    out = []
    for idx in _chunks(torch.arange(batch.input_ids.shape[0]), micro):
        out.append(response_logp_entropy(model, batch.select(idx), temperature)[0].cpu())
    return torch.cat(out)


class ReferencePolicy:
    """The KL anchor pi_ref, scored with ``logp(batch, temperature, micro)`` -> (B, R).

    Either a frozen copy of the policy (full fine-tuning; ``load_state_dict`` re-anchors it
    for ``algo.ref_update_every``), or the LoRA policy itself with its adapters disabled,
    which is exactly the base model and costs no second copy of the weights.
    """

    def __init__(self, model, adapters_disabled: bool = False):
        self.model = model
        self.adapters_disabled = adapters_disabled

    @classmethod
    def adapters_off(cls, peft_model) -> ReferencePolicy:
        return cls(peft_model, adapters_disabled=True)

    def logp(self, batch: Batch, temperature: float, micro: int) -> torch.Tensor:  # (B, R)
        if not self.adapters_disabled:
            return logp_of(self.model, batch, temperature, micro)
        with self.model.disable_adapter():
            return logp_of(self.model, batch, temperature, micro)

    def state_dict(self) -> dict:
        if self.adapters_disabled:
            raise RuntimeError("the adapter-disabled reference has no weights of its own to save")
        return self.model.state_dict()

    def load_state_dict(self, state: dict) -> None:
        if self.adapters_disabled:
            raise RuntimeError("the LoRA reference is the base model and cannot be re-anchored (algo.ref_update_every)")
        self.model.load_state_dict(state)


def reference_logp(ref, batch: Batch, temperature: float, micro: int) -> torch.Tensor:  # (B, R)
    """A ReferencePolicy's log-probs, or those of a bare frozen module."""
    if isinstance(ref, ReferencePolicy):
        return ref.logp(batch, temperature, micro)
    return logp_of(ref, batch, temperature, micro)


def loss_knobs(cfg: Config) -> dict:
    a = cfg.algo
    return {
        "objective": a.objective, "eps_low": a.eps_low, "eps_high": a.eps_high, "dual_clip": a.dual_clip,
        "loss_agg": a.loss_agg, "max_len": a.max_len or cfg.rollout.max_new_tokens,
        "kl_coef": a.kl_coef if a.kl_placement == "loss" else 0.0, "kl_estimator": a.kl_estimator,
        "entropy_coef": a.entropy_coef, "tis_cap": a.tis_cap, "top_entropy_frac": a.top_entropy_frac,
        "cov_mode": a.cov_mode, "cov_frac": a.cov_frac, "clip_cov_lb": a.clip_cov_lb, "clip_cov_ub": a.clip_cov_ub,
        "kl_cov_coef": a.kl_cov_coef,
    }


def compute_advantages(cfg: Config, rewards, group_ids, batch, old_logp, ref_logp, old_values=None):
    """(B,) group-relative advantages, or (B, R) GAE advantages and returns with a critic."""
    a = cfg.algo
    if a.kl_coef and a.kl_placement == "reward" and ref_logp is not None:
        kl_tok = algo.kl_penalty(old_logp, ref_logp, a.kl_estimator)  # (B, R)
        rewards = algo.fold_kl_into_rewards(rewards, kl_tok, batch.loss_mask, a.kl_coef)
    if a.advantage == "gae":
        token_rewards = algo.terminal_token_rewards(rewards, batch.loss_mask)  # (B, R)
        adv, returns = algo.gae_advantages(token_rewards, old_values, batch.loss_mask, a.gamma, a.gae_lambda)
        return algo.masked_whiten(adv, batch.loss_mask), returns
    return algo.group_advantages(rewards, group_ids, a.advantage, std=a.std, eps=a.adv_eps,
                                 scope=a.adv_scope, baseline=a.reinforce_baseline), None


def critic_step(critic, sub, idx, old_values, returns, norm, cfg: Config, acc) -> None:
    """One value-loss backward on a micro-batch (PPO only)."""
    values = critic.critic(sub)  # (b, R)
    vloss, vstats = algo.value_loss(values, old_values[idx].to(values.device), returns[idx].to(values.device),
                                    sub.loss_mask.to(values.device), clip=cfg.algo.value_clip, normalizer=norm)
    (cfg.algo.vf_coef * vloss).backward()
    acc.add({"value_loss": vstats["vf_loss"]}, float(sub.loss_mask.sum()))


def rows_with_gradient(cfg: Config, adv: torch.Tensor) -> torch.Tensor | None:
    """Rows whose loss can have a gradient; None when every row must be run.

    With no KL term in the loss, no entropy bonus and no critic, a row whose advantage is 0
    everywhere contributes exactly zero gradient (its clipped surrogate is 0 * ratio), so
    its forward and backward can be skipped. The normaliser still counts it, so the
    gradient is identical to running it. Not with a token selection that counts every row of
    a micro-batch (top-entropy quantile, covariance means), nor with the adaptive entropy
    bonus (it measures the entropy of every row).
    """
    a = cfg.algo
    if (a.kl_coef and a.kl_placement == "loss") or a.entropy_coef or a.advantage == "gae":
        return None
    if a.top_entropy_frac is not None or a.cov_mode != "none" or a.entropy_target is not None:
        return None
    flat = adv if adv.dim() == 1 else adv.abs().amax(dim=-1)
    return flat != 0


@dataclass
class Learner:
    """What an update changes or reads: the policy and its optimizer, the KL reference
    (None without a KL term), the PPO critic (None otherwise) and the padding id."""

    model: torch.nn.Module
    optimizer: torch.optim.Optimizer
    ref_model: ReferencePolicy | None = None
    critic: object = None
    pad_id: int = 0


def update_policy(learner: Learner, data, cfg: Config, gen: torch.Generator, reduce=None, sync_grads=None,
                  skip_zero_rows: bool = True) -> dict:
    """One step's optimizer updates on this process's rows.

    Data parallelism (``rlvr.train.distributed``): ``reduce`` sums a minibatch normaliser over
    ranks, ``sync_grads(model)`` sums gradients over ranks before clipping, and
    ``skip_zero_rows=False`` keeps every rank's forward calls in lockstep (FSDP2). The
    defaults are one process.
    """
    a, micro = cfg.algo, cfg.train.micro_batch_size
    prep = prepare(learner, data, cfg)
    if a.cov_mode == "clip_cov":
        prep.knobs["generator"] = gen  # Clip-Cov's random tokens: reproducible, checkpointed with the run
    entropy_coef = adaptive_entropy_coef(learner.optimizer, cfg)
    if entropy_coef is not None:
        prep.knobs["entropy_coef"] = entropy_coef
    B = prep.batch.input_ids.shape[0]
    active = rows_with_gradient(cfg, prep.adv) if skip_zero_rows else None  # (B,) or None
    acc = StatsAccumulator()
    acc.add({"rows_skipped": float((~active).sum()) / B if active is not None else 0.0}, 1.0)
    positions = 0  # token positions the training forwards computed (each shared prompt once)
    for epoch in range(a.epochs):
        order = torch.randperm(B, generator=gen) if a.minibatches > 1 else torch.arange(B)
        for mb in order.chunk(a.minibatches):
            norm = algo.loss_normalizer(prep.batch.loss_mask[mb], a.loss_agg, prep.knobs["max_len"])  # every row
            if reduce is not None:
                norm = reduce(norm)  # the global minibatch's normaliser: summed over ranks
            run = mb[active[mb]] if active is not None else mb
            if len(run) == 0:  # nothing here has a gradient: a zero-gradient step, as running them would give
                zero_grads(learner.model)
            for idx in _chunks(run, micro) if len(run) else []:
                positions += micro_step(learner, prep, idx, norm, cfg, acc, first_epoch=epoch == 0)
            if sync_grads is not None:
                sync_grads(learner.model)  # sum over ranks: the gradient of the global minibatch's loss
            optimizer_step(learner, cfg, acc)
    out = acc.means()
    if entropy_coef is not None:
        update_entropy_coef(learner.optimizer, cfg, acc, reduce)
        out["entropy_coef"] = entropy_coef
    out["loss"] = acc.totals.get("loss", 0.0) / (a.epochs * a.minibatches)  # per optimizer step
    out["adv_abs_mean"] = float(prep.adv.abs().mean())
    out["positions"] = float(positions)
    return out


@dataclass
class Prepared:
    """A step's batch and everything computed once before its updates."""

    batch: Batch
    old_logp: torch.Tensor | None  # (B, R) when it can differ from the current policy's
    ref_logp: torch.Tensor | None  # (B, R) with a KL term
    old_values: torch.Tensor | None  # (B, R) with a critic
    adv: torch.Tensor  # (B,) or (B, R)
    returns: torch.Tensor | None  # (B, R) with a critic
    knobs: dict


def prepare(learner: Learner, data, cfg: Config) -> Prepared:
    a, temp, micro = cfg.algo, cfg.rollout.temperature, cfg.train.micro_batch_size
    batch = collate(data.completions, learner.pad_id)
    if a.mask_truncated:
        truncated = torch.tensor([c.finish_reason == "length" for c in data.completions])
        batch.loss_mask &= ~truncated[:, None]
    multi_step = a.epochs * a.minibatches > 1
    need_ref = learner.ref_model is not None and bool(a.kl_coef)
    need_old = multi_step or (need_ref and a.kl_placement == "reward")
    old_logp = logp_of(learner.model, batch, temp, micro) if need_old else None
    ref_logp = reference_logp(learner.ref_model, batch, temp, micro) if need_ref else None
    if a.advantage == "gae" and learner.critic is None:
        raise ValueError("algo.advantage=gae needs a critic (the ppo preset builds one)")
    old_values = learner.critic.values(batch, micro) if learner.critic is not None else None  # (B, R)
    adv, returns = compute_advantages(cfg, data.rewards, data.group_ids, batch, old_logp, ref_logp, old_values)
    return Prepared(batch, old_logp, ref_logp, old_values, adv, returns, loss_knobs(cfg))


def micro_step(learner: Learner, prep: Prepared, idx: torch.Tensor, norm, cfg: Config, acc, first_epoch: bool) -> int:
    """Forward and backward of one micro-batch (rows ``idx``); gradients accumulate. Returns the
    number of token positions the policy's forward computed (``forward.positions_run``)."""
    a = cfg.algo
    before = positions_run()
    sub = prep.batch.select(idx)
    if learner.critic is None:  # the critic's (B, R) tensors keep the step's width
        sub = sub.trimmed()
    r = sub.response_ids.shape[1]
    logp, ent = response_logp_entropy(learner.model, sub, cfg.rollout.temperature,
                                      entropy_grad=bool(prep.knobs["entropy_coef"]))
    old = prep.old_logp[idx, :r] if prep.old_logp is not None else logp.detach()
    ref = prep.ref_logp[idx, :r] if (prep.ref_logp is not None and a.kl_placement == "loss") else None
    adv = prep.adv[idx] if prep.adv.dim() == 1 else prep.adv[idx, :r]
    adv = sampler_mismatch(cfg, old, sub, adv, acc if first_epoch else None)
    loss, stats = algo.policy_loss(logp, old, adv, sub.loss_mask, algorithm=a.name, ref_logp=ref,
                                   entropy=ent, sampler_logp=sub.sampler_logp, normalizer=norm, **prep.knobs)
    loss.backward()
    acc.add_total({"loss": loss.detach()})
    if learner.critic is not None:
        critic_step(learner.critic, sub, idx, prep.old_values, prep.returns, norm, cfg, acc)
    weight = float(sub.loss_mask.sum())
    if "loss_seqs" in stats:  # a fraction of sequences: weighted by sequences
        acc.add({"gspo_seq_clip_frac": stats.pop("gspo_seq_clip_frac")}, float(stats.pop("loss_seqs")))
    acc.add(stats, weight)
    return positions_run() - before


def sampler_mismatch(cfg: Config, old: torch.Tensor, sub: Batch, adv: torch.Tensor, acc) -> torch.Tensor:
    """Log the sampler-trainer mismatch of micro-batch ``sub`` into ``acc`` (None: not again in a
    later epoch) and return the advantages times the correction weight of ``algo.mismatch_correction``
    (``rlvr.algo.correction``; the weight is >= 0 and detached, so scaling the advantage scales each
    token's policy-gradient loss and nothing else)."""
    a, mask = cfg.algo, sub.loss_mask
    if acc is not None:
        st = correction.mismatch_stats(old, sub.sampler_logp, mask, a.mismatch_cap)
        acc.add({"logp_mismatch": st["abs_mean"], "mismatch/kl_k3": st["kl_k3"], "mismatch/frac_out": st["frac_out"]},
                float(st["tokens"]))
        acc.add({"mismatch/seq_out": st["seq_out"]}, float(st["seqs"]))
        acc.add_max({"mismatch/abs_max": st["abs_max"]})
    if a.mismatch_correction in (None, "off"):
        return adv
    w, changed = correction.correction_weight(old, sub.sampler_logp, mask, a.mismatch_correction, a.mismatch_cap)
    if acc is not None:
        acc.add({"mismatch/corrected": (changed & mask).sum() / mask.sum().clamp(min=1)}, float(mask.sum()))
    if a.mismatch_correction == "sequence" and adv.dim() == 1:
        return adv * w[:, 0]  # one weight per sequence: (B,) advantages stay (B,)
    return (adv[:, None] if adv.dim() == 1 else adv) * w


# The adaptive entropy coefficient and the last step's entropy live in the optimizer's first
# param group (as the scheduler's initial_lr does), so every checkpoint carries them.
_COEF, _LAST = "rlvr_entropy_coef", "rlvr_last_entropy"


def adaptive_entropy_coef(optimizer, cfg: Config) -> float | None:
    """The entropy coefficient this step applies with ``algo.entropy_target``; None without it."""
    a = cfg.algo
    if a.entropy_target is None:
        return None
    group = optimizer.param_groups[0]
    return algo.entropy_bonus_coef(group.get(_COEF, a.entropy_coef), group.get(_LAST, float("inf")),
                                   a.entropy_target)


def update_entropy_coef(optimizer, cfg: Config, acc, reduce=None) -> None:
    """Move the adaptive coefficient by the step's mean loss-token entropy (summed over ranks)."""
    a, group = cfg.algo, optimizer.param_groups[0]
    totals = torch.tensor([acc.sums.get("entropy", 0.0), acc.weights.get("entropy", 0.0)], dtype=torch.float64)
    if reduce is not None:
        totals = reduce(totals)
    entropy = float(totals[0]) / max(float(totals[1]), 1.0)
    group[_COEF] = algo.next_entropy_coef(group.get(_COEF, a.entropy_coef), entropy, a.entropy_target,
                                          a.entropy_coef_delta, a.entropy_coef_min, a.entropy_coef_max)
    group[_LAST] = entropy


def zero_grads(model) -> None:
    for p in model.parameters():
        if p.requires_grad:  # LoRA: frozen base weights never hold a gradient
            p.grad = torch.zeros_like(p)


def optimizer_step(learner: Learner, cfg: Config, acc) -> None:
    """Clip, check and apply the accumulated gradient (and the critic's)."""
    model, optimizer, critic = learner.model, learner.optimizer, learner.critic
    gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.train.grad_clip or float("inf"))
    if hasattr(gnorm, "full_tensor"):  # FSDP2: a DTensor (the global norm; clipping already used it)
        gnorm = gnorm.full_tensor()
    acc.add({"grad_norm": gnorm}, 1.0)
    if not torch.isfinite(gnorm):
        optimizer.zero_grad(set_to_none=True)
        raise FloatingPointError(f"non-finite gradient norm ({float(gnorm)}); the optimizer step was "
                                 f"skipped and the last checkpoint is intact — lower train.lr or check the rewards")
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    if critic is not None:
        torch.nn.utils.clip_grad_norm_(critic.critic.parameters(), cfg.train.grad_clip or float("inf"))
        critic.optimizer.step()
        critic.optimizer.zero_grad(set_to_none=True)


class StatsAccumulator:
    """Weighted means of per-micro-batch 0-d stats (weights: loss tokens)."""

    def __init__(self):
        self.sums: dict[str, float] = {}
        self.weights: dict[str, float] = {}
        self.maxes: dict[str, float] = {}
        self.totals: dict[str, float] = {}

    def add_total(self, stats: dict) -> None:
        """Stats summed over the step (not part of ``means``)."""
        for k, v in stats.items():
            self.totals[k] = self.totals.get(k, 0.0) + float(v)

    def add(self, stats: dict, weight: float) -> None:
        for k, v in stats.items():
            self.sums[k] = self.sums.get(k, 0.0) + float(v) * weight
            self.weights[k] = self.weights.get(k, 0.0) + weight

    def add_max(self, stats: dict) -> None:
        """Stats reported as their maximum over the step, not a mean."""
        for k, v in stats.items():
            self.maxes[k] = max(self.maxes.get(k, float("-inf")), float(v))

    def means(self) -> dict:
        out = {k: self.sums[k] / self.weights[k] for k in self.sums if self.weights[k] > 0}
        return {**out, **self.maxes}
