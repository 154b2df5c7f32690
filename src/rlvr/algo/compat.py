"""Which knob values compose: the combinations the math does not define, refused by name.

Pure Python (no torch), so that ``rlvr.config`` refuses a bad combination when the
configuration is loaded and ``rlvr.algo.policy_loss`` refuses the same one when called
directly. ``check_knobs(k)`` takes a dict of resolved knob values (AlgoConfig field names)
and raises ``ValueError`` naming the knobs.

The rules:
- ``objective=gspo`` (the sequence-level ratio, its gradient spread over the whole sequence)
  gives every token of a sequence the same loss, so a per-token selection has nothing of its
  own to act on: it refuses ``cov_mode`` clip_cov / kl_cov and ``top_entropy_frac``, the
  token-level ``gae`` advantages and the per-token ``mismatch_correction=token`` weight (the
  GSPO-token variant ``objective=gspo_token`` takes them all).
- ``dual_clip`` bounds the PPO surrogate: only with ``objective=clip``.
- ``kl_cov`` penalises |logp - old_logp|: not with ``objective=pg`` (which has no old policy).
- ranges: cov_frac and top_entropy_frac in (0, 1]; clip_cov_lb < clip_cov_ub; kl_cov_coef,
  entropy_coef_delta >= 0; entropy_coef_min <= entropy_coef_max.
"""

from __future__ import annotations

COV_MODES = ("none", "clip_cov", "kl_cov")


def _frac(name: str, value) -> None:
    if value is not None and not 0 < value <= 1:
        raise ValueError(f"{name} must be in (0, 1], got {value}")


def check_knobs(k: dict) -> None:
    """Raise ValueError for a knob combination the math does not define."""
    objective, cov = k.get("objective"), k.get("cov_mode", "none")
    if cov not in COV_MODES:
        raise ValueError(f"unknown cov_mode {cov!r}; valid: {', '.join(COV_MODES)}")
    if objective == "gspo":
        token_level = [name for name, on in (("cov_mode", cov != "none"),
                                             ("top_entropy_frac", k.get("top_entropy_frac") is not None),
                                             ("advantage=gae", k.get("advantage") == "gae"),
                                             ("mismatch_correction=token", k.get("mismatch_correction") == "token"))
                       if on]
        if token_level:
            raise ValueError(f"objective=gspo (one sequence-level ratio per completion) does not combine with "
                             f"{', '.join(token_level)}: those act per token; use objective=gspo_token")
    if k.get("dual_clip") is not None and objective != "clip":
        raise ValueError(f"dual_clip bounds the PPO clipped surrogate: it needs objective=clip, not {objective}")
    if cov == "kl_cov" and objective == "pg":
        raise ValueError("cov_mode=kl_cov penalises |logp - old_logp|: objective=pg has no old policy; use clip")
    _frac("cov_frac", k.get("cov_frac"))
    _frac("top_entropy_frac", k.get("top_entropy_frac"))
    lb, ub = k.get("clip_cov_lb"), k.get("clip_cov_ub")
    if lb is not None and ub is not None and not lb < ub:
        raise ValueError(f"clip_cov_lb must be < clip_cov_ub; got {lb} and {ub}")
    for name in ("kl_cov_coef", "entropy_coef_delta"):
        if k.get(name) is not None and k[name] < 0:
            raise ValueError(f"{name} must be >= 0, got {k[name]}")
    lo, hi = k.get("entropy_coef_min"), k.get("entropy_coef_max")
    if lo is not None and hi is not None and lo > hi:
        raise ValueError(f"entropy_coef_min must be <= entropy_coef_max; got {lo} and {hi}")
