"""Policy objectives (per-token surrogate losses) and ``policy_loss``, which composes them.

Objectives (dict ``OBJECTIVES``), each -> (loss_tok (B, T), info):

- ``clip``: PPO's clipped surrogate (Schulman et al. 2017, eq. 7) with an asymmetric range,
  r = exp(logp - old_logp),  loss = -min(r A, clip(r, 1 - eps_low, 1 + eps_high) A).
  eps_high > eps_low is DAPO's clip-higher (Yu et al. 2025, eq. 10). With ``dual_clip`` = c
  (Ye et al. 2020, "Mastering Complex Control in MOBA Games", eq. 5) the loss of a token
  with A < 0 is also bounded by -c A, so a huge ratio on a bad token cannot blow it up.
- ``pg``: plain policy gradient without a ratio (REINFORCE), loss = -A logp. Its gradient
  equals the clipped objective's at r = 1; its value is -A logp, not -A.
- ``cispo``: CISPO (MiniMax-M1, MiniMax 2025, sec. 3.1): loss = -sg(clip(r, 1 - eps_low,
  1 + eps_high)) A logp. The weight is clipped and detached; no token loses its gradient.
- ``gspo``: GSPO (Zheng et al. 2025): one ratio per sequence, s_i = exp(mean over
  y_i's loss tokens of (logp - old_logp)), loss_i = -min(s_i A_i, clip(s_i, 1 - eps_low,
  1 + eps_high) A_i), the same value on each of y_i's tokens (so ``seq_mean_token_mean``
  gives the paper's (1/G) sum_i); the gradient of s_i reaches every token of y_i.
  Needs one advantage per sequence.
- ``gspo_token``: GSPO-token (same paper): s_it = sg(s_i) pi(y_t) / sg(pi(y_t)), value s_i,
  gradient s_i grad logp_t, in the clipped surrogate with per-token advantages. Equal to
  ``gspo`` in value and gradient when A is per sequence and the loss is seq_mean_token_mean.

``policy_loss`` builds the per-token loss
    loss_t = w_t * sel_t(pg_loss_t) + kl_coef * k(logp_t, ref_logp_t) - entropy_coef * H_t
(w_t: truncated importance weight, only with ``sampler_logp`` and ``tis_cap``; sel_t the
entropy-control selection of ``rlvr.algo.selection``: Clip-Cov zeroes the loss of its
tokens, KL-Cov adds kl_cov_coef |logp_t - old_logp_t| to its tokens, top-entropy selection
zeroes every token outside the top ``top_entropy_frac``; the KL term only with
``kl_placement="loss"``) and aggregates it (``rlvr.algo.aggregation``).
Every input is read only at loss-mask positions: masked positions are replaced by zeros
before any arithmetic, so they contribute exactly zero value and exactly zero gradient
whatever garbage they hold (padding log-probs of -inf included).

Knobs: ``algorithm`` names a preset in ``rlvr.algo.presets.PRESETS`` whose values are the
defaults; keyword knobs (AlgoConfig field names) override them; a knob passed as None
keeps the preset's value (as in the config). Knobs that do not concern the loss
(``advantage``, ``epochs``, ...) are accepted and ignored; an unknown knob is an error
that lists the valid ones; a combination the math does not define is refused
(``rlvr.algo.compat``). ``generator`` (a torch.Generator) draws Clip-Cov's random tokens.
"""

from __future__ import annotations

import torch

from rlvr.algo.aggregation import LOSS_AGGREGATIONS, aggregate, masked_mean
from rlvr.algo.compat import check_knobs
from rlvr.algo.kl import KL_ESTIMATORS, KL_PLACEMENTS, kl_penalty
from rlvr.algo.offpolicy import truncated_is_weight
from rlvr.algo.presets import PRESETS
from rlvr.algo.selection import clip_cov_mask, kl_cov_mask, token_covariance, top_entropy_mask


# ---------------------------------------------------------------- objectives
def _clipped(ratio, adv, eps_low: float, eps_high: float):
    """-min(r A, clip(r) A) and where each side of the clip binds."""
    loss = -torch.minimum(ratio * adv, ratio.clamp(1.0 - eps_low, 1.0 + eps_high) * adv)
    r = ratio.detach()
    return loss, (adv < 0) & (r < 1.0 - eps_low), (adv > 0) & (r > 1.0 + eps_high)


def clip_objective(logp, old_logp, adv, knobs: dict, mask=None) -> tuple[torch.Tensor, dict]:
    """Clipped surrogate with separate eps_low / eps_high and optional dual clip."""
    dual = knobs["dual_clip"]
    ratio = torch.exp(logp - old_logp)  # (B, T)
    loss, low, high = _clipped(ratio, adv, knobs["eps_low"], knobs["eps_high"])
    info = {"ratio": ratio.detach(), "clip_low": low, "clip_high": high}
    if dual is not None:
        bound = -dual * adv  # (B, T), positive where adv < 0
        info["clip_dual"] = (adv < 0) & (loss.detach() > bound)
        loss = torch.where(adv < 0, torch.minimum(loss, bound), loss)
    return loss, info


def pg_objective(logp, old_logp, adv, knobs: dict, mask=None) -> tuple[torch.Tensor, dict]:
    """REINFORCE: -A logp (no ratio, no clip); the ratio is reported for monitoring only."""
    ratio = torch.exp(logp.detach() - old_logp) if old_logp is not None else torch.ones_like(logp)
    never = torch.zeros_like(logp, dtype=torch.bool)
    return -adv * logp, {"ratio": ratio.detach(), "clip_low": never, "clip_high": never}


def cispo_objective(logp, old_logp, adv, knobs: dict, mask=None) -> tuple[torch.Tensor, dict]:
    """CISPO: -sg(clip(r, 1 - eps_low, 1 + eps_high)) A logp; clip_low/high: the weight was clipped."""
    eps_low, eps_high = knobs["eps_low"], knobs["eps_high"]
    ratio = torch.exp(logp.detach() - old_logp)  # detached: the weight carries no gradient
    weight = ratio.clamp(1.0 - eps_low, 1.0 + eps_high)
    low, high = ratio < 1.0 - eps_low, ratio > 1.0 + eps_high
    return -weight * adv * logp, {"ratio": ratio, "clip_low": low, "clip_high": high, "weight_clipped": low | high}


def _seq_log_ratio(logp, old_logp, mask):
    """(B,) mean over each sequence's loss tokens of logp - old_logp (masked positions hold 0)."""
    return (logp - old_logp).sum(dim=-1) / mask.sum(dim=-1).clamp(min=1)


def _seq_info(ratio, low, high, mask) -> dict:
    return {"ratio": ratio.detach(), "clip_low": low, "clip_high": high,
            "seq_clip": (low | high).any(dim=-1), "seq_valid": mask.any(dim=-1)}


def gspo_objective(logp, old_logp, adv, knobs: dict, mask=None) -> tuple[torch.Tensor, dict]:
    """GSPO: the clipped surrogate of the sequence ratio s_i, its value on each of y_i's tokens."""
    n = mask.sum(dim=-1).clamp(min=1)
    a = (adv.sum(dim=-1) / n)[:, None]  # (B, 1): the sequence's advantage (equal on its tokens)
    s = torch.exp(_seq_log_ratio(logp, old_logp, mask))[:, None]  # (B, 1), differentiable
    loss, low, high = _clipped(s, a, knobs["eps_low"], knobs["eps_high"])
    low, high = low.expand(mask.shape) & mask, high.expand(mask.shape) & mask
    return loss.expand(mask.shape), _seq_info(s.expand(mask.shape), low, high, mask)


def gspo_token_objective(logp, old_logp, adv, knobs: dict, mask=None) -> tuple[torch.Tensor, dict]:
    """GSPO-token: s_it = sg(s_i) exp(logp_t - sg(logp_t)) in the clipped surrogate, per-token A."""
    log_s = _seq_log_ratio(logp.detach(), old_logp, mask)[:, None]  # (B, 1), detached
    ratio = torch.exp(logp - logp.detach() + log_s)  # value s_i, gradient s_i * grad logp_t
    loss, low, high = _clipped(ratio, adv, knobs["eps_low"], knobs["eps_high"])
    return loss, _seq_info(ratio, low & mask, high & mask, mask)


OBJECTIVES = {"clip": clip_objective, "pg": pg_objective, "cispo": cispo_objective, "gspo": gspo_objective,
              "gspo_token": gspo_token_objective}


# ---------------------------------------------------------------- knobs
def _check_in(value, valid, kind: str) -> None:
    if value not in valid:
        raise ValueError(f"unknown {kind} {value!r}; valid: {', '.join(valid)}")


def resolve_knobs(algorithm: str, knobs: dict) -> dict:
    """Preset values of ``algorithm`` overridden by the non-None ``knobs``; validated."""
    _check_in(algorithm, PRESETS, "algorithm")
    preset = PRESETS[algorithm]
    valid = set(preset) | {"name"}
    unknown = sorted(set(knobs) - valid)
    if unknown:
        raise ValueError(f"unknown knob(s) {', '.join(unknown)}; valid knobs: {', '.join(sorted(valid))}")
    if knobs.get("name") not in (None, algorithm):
        raise ValueError(f"knob name={knobs['name']!r} disagrees with algorithm={algorithm!r}")
    out = dict(preset)
    out.update({k: v for k, v in knobs.items() if v is not None and k != "name"})
    _check_in(out["objective"], OBJECTIVES, "objective")
    _check_in(out["loss_agg"], LOSS_AGGREGATIONS, "loss aggregation")
    _check_in(out["kl_estimator"], KL_ESTIMATORS, "KL estimator")
    _check_in(out["kl_placement"], KL_PLACEMENTS, "KL placement")
    if out["eps_low"] < 0 or out["eps_high"] < 0:
        raise ValueError(f"eps_low and eps_high must be >= 0; got {out['eps_low']} and {out['eps_high']}")
    if out["dual_clip"] is not None and out["dual_clip"] <= 1:
        raise ValueError(f"dual_clip must be > 1 (e.g. 3.0), got {out['dual_clip']}")
    check_knobs(out)
    return out


# ---------------------------------------------------------------- inputs
def _zero_masked(x: torch.Tensor | None, mask: torch.Tensor, detach: bool) -> torch.Tensor | None:
    """x (B, T) as float32 with masked positions replaced by 0 (gradient there exactly 0)."""
    if x is None:
        return None
    if x.shape != mask.shape:
        raise ValueError(f"expected a (B, T) tensor of shape {tuple(mask.shape)}, got {tuple(x.shape)}")
    x = x.detach() if detach else x
    return torch.where(mask, x.float(), torch.zeros((), dtype=torch.float32, device=x.device))


def _advantages_bt(advantages: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    adv = advantages.detach().float()
    if adv.shape == mask.shape[:1]:
        adv = adv.unsqueeze(-1).expand(mask.shape)  # (B,) -> (B, T)
    if adv.shape != mask.shape:
        raise ValueError(f"advantages must be (B,) or (B, T) matching loss_mask {tuple(mask.shape)};"
                         f" got {tuple(advantages.shape)}")
    return torch.where(mask, adv, torch.zeros_like(adv))


def _check_needs(k: dict, old_logp, ref_logp, entropy, sampler_logp) -> None:
    if old_logp is None and k["objective"] != "pg":
        raise ValueError(f"objective {k['objective']!r} needs old_logp"
                         " (pass logp.detach() for a single on-policy epoch)")
    if k["kl_coef"] and k["kl_placement"] == "loss" and ref_logp is None:
        raise ValueError(f"kl_coef={k['kl_coef']} with kl_placement='loss' needs ref_logp;"
                         " set kl_coef=0 to train without a reference")
    if k["entropy_coef"] and entropy is None:
        raise ValueError(f"entropy_coef={k['entropy_coef']} needs entropy (token_entropy(logits))")
    if k["tis_cap"] is not None and (sampler_logp is None or old_logp is None):
        raise ValueError(f"tis_cap={k['tis_cap']} needs sampler_logp and old_logp (the weight is pi_old/mu)")
    if k["top_entropy_frac"] is not None and entropy is None:
        raise ValueError(f"top_entropy_frac={k['top_entropy_frac']} needs entropy (token_entropy(logits))")
    if k["cov_mode"] == "kl_cov" and old_logp is None:
        raise ValueError("cov_mode=kl_cov needs old_logp (its penalty is |logp - old_logp|)")


def _select_tokens(pg_tok, info, lp, old, adv, ent, mask, k, generator) -> torch.Tensor:
    """Entropy control on the policy-gradient loss (B, T): Clip-Cov, KL-Cov, top-entropy selection.
    The masks it used go into ``info`` (``cov_selected``, ``entropy_kept``) for the stats."""
    zero = torch.zeros_like(pg_tok)
    if k["cov_mode"] != "none":
        cov = token_covariance(lp, adv, mask)
        if k["cov_mode"] == "clip_cov":
            chosen = clip_cov_mask(cov, mask, info["clip_low"] | info["clip_high"], k["cov_frac"],
                                   k["clip_cov_lb"], k["clip_cov_ub"], generator)
            pg_tok = torch.where(chosen, zero, pg_tok)  # detached: no value, no gradient
        else:
            chosen = kl_cov_mask(cov, mask, k["cov_frac"])
            pg_tok = pg_tok + torch.where(chosen, k["kl_cov_coef"] * (lp - old).abs(), zero)
        info["cov_selected"] = chosen
    if k["top_entropy_frac"] is not None:
        keep = top_entropy_mask(ent, mask, k["top_entropy_frac"])
        pg_tok = torch.where(keep, pg_tok, zero)
        info["entropy_kept"] = keep
    return pg_tok


# ---------------------------------------------------------------- the loss
def _stats(mask, info, logp, old_logp, pg_tok, kl_tok, kl_term, entropy, tis_capped) -> dict:
    ratio = info["ratio"]
    zero = torch.zeros((), dtype=torch.float32, device=mask.device)
    stats = {
        "clip_frac_low": masked_mean(info["clip_low"].float(), mask),
        "clip_frac_high": masked_mean(info["clip_high"].float(), mask),
        "approx_kl_old": masked_mean(kl_penalty(logp.detach(), old_logp, "k3"), mask) if old_logp is not None else zero,
        "ratio_mean": masked_mean(ratio, mask),
        "ratio_max": torch.where(mask, ratio, torch.zeros_like(ratio)).amax() if ratio.numel() else zero,
        "pg_loss": masked_mean(pg_tok.detach(), mask),
        "kl_loss": masked_mean(kl_term.detach(), mask) if kl_term is not None else zero,
        "loss_tokens": mask.sum().float(),
    }
    if "clip_dual" in info:
        stats["clip_frac_dual"] = masked_mean(info["clip_dual"].float(), mask)
    if kl_tok is not None:
        stats["kl_ref"] = masked_mean(kl_tok.detach(), mask)
    if entropy is not None:
        stats["entropy"] = masked_mean(entropy.detach(), mask)
    if tis_capped is not None:
        stats["tis_frac_capped"] = masked_mean(tis_capped.float(), mask)
    for key, stat in (("weight_clipped", "cispo_clip_frac"), ("cov_selected", "cov_frac_selected"),
                      ("entropy_kept", "top_entropy_frac_kept")):
        if key in info:
            stats[stat] = masked_mean(info[key].float(), mask)
    if "seq_clip" in info:  # a mean over the sequences with a loss token, weighted by loss_seqs
        stats["gspo_seq_clip_frac"] = masked_mean(info["seq_clip"].float(), info["seq_valid"])
        stats["loss_seqs"] = info["seq_valid"].sum().float()
    return stats


def policy_loss(
    logp: torch.Tensor,
    old_logp: torch.Tensor | None,
    advantages: torch.Tensor,
    loss_mask: torch.Tensor,
    *,
    algorithm: str = "grpo",
    ref_logp: torch.Tensor | None = None,
    entropy: torch.Tensor | None = None,
    sampler_logp: torch.Tensor | None = None,
    normalizer: torch.Tensor | float | None = None,
    **knobs,
) -> tuple[torch.Tensor, dict]:
    """The scalar policy loss to minimise and a dict of detached 0-d stats.

    logp, old_logp, ref_logp, sampler_logp, entropy, loss_mask: (B, T); advantages (B,) or
    (B, T). ``normalizer``: the aggregation's denominator over the GLOBAL minibatch
    (``loss_normalizer`` summed over micro-batches and ranks); None = this batch's. Stats are
    means over the loss tokens of this call (``loss_tokens`` says how many, for weighting);
    ``gspo_seq_clip_frac`` is a mean over its sequences (``loss_seqs``).
    """
    generator = knobs.pop("generator", None)
    k = resolve_knobs(algorithm, knobs)
    _check_needs(k, old_logp, ref_logp, entropy, sampler_logp)
    if logp.dim() != 2 or loss_mask.shape != logp.shape:
        raise ValueError(f"logp and loss_mask must both be (B, T); got {tuple(logp.shape)}"
                         f" and {tuple(loss_mask.shape)}")
    mask = loss_mask.bool()
    lp = _zero_masked(logp, mask, detach=False)
    old = _zero_masked(old_logp, mask, detach=True)
    ref = _zero_masked(ref_logp, mask, detach=True)
    ent = _zero_masked(entropy, mask, detach=False)
    adv = _advantages_bt(advantages, mask)

    if k["objective"] == "gspo" and advantages.shape != mask.shape[:1]:
        raise ValueError(f"objective gspo needs one advantage per sequence, (B,) = {tuple(mask.shape[:1])}; got "
                         f"{tuple(advantages.shape)} (objective gspo_token takes token-level advantages)")
    pg_tok, info = OBJECTIVES[k["objective"]](lp, old, adv, k, mask=mask)  # (B, T)
    if k["cov_mode"] != "none" or k["top_entropy_frac"] is not None:
        ent_sel = _zero_masked(entropy, mask, detach=True) if k["top_entropy_frac"] is not None else None
        pg_tok = _select_tokens(pg_tok, info, lp, old, adv, ent_sel, mask, k, generator)
    tis_capped = None
    if k["tis_cap"] is not None:
        weight, tis_capped = truncated_is_weight(old, _zero_masked(sampler_logp, mask, detach=True), k["tis_cap"])
        pg_tok = pg_tok * weight
    tok = pg_tok
    kl_tok = kl_penalty(lp, ref, k["kl_estimator"]) if ref is not None else None  # (B, T)
    kl_term = None
    if kl_tok is not None and k["kl_placement"] == "loss" and k["kl_coef"]:
        kl_term = k["kl_coef"] * kl_tok
        tok = tok + kl_term
    if ent is not None and k["entropy_coef"]:
        tok = tok - k["entropy_coef"] * ent
    loss = aggregate(tok, mask, k["loss_agg"], normalizer=normalizer, max_len=k["max_len"])
    stats = _stats(mask, info, lp, old, pg_tok, kl_tok, kl_term, ent, tis_capped)
    return loss, stats
