"""policy_loss and the objectives, by hand, plus its invariants."""

import math

import pytest
import torch

from rlvr.algo import loss_normalizer, policy_loss
from rlvr.algo.aggregation import aggregate
from rlvr.algo.objectives import clip_objective, pg_objective, resolve_knobs

LN = math.log


def _knobs(eps_low=0.2, eps_high=0.2, dual_clip=None):
    return {"eps_low": eps_low, "eps_high": eps_high, "dual_clip": dual_clip}


# (ratio, advantage, eps_high, dual_clip) -> (expected per-token loss, d loss / d logp, clip side)
# loss = -min(r A, clip(r, 1 - 0.2, 1 + eps_high) A); gradient -r A when the unclipped term is the min, else 0.
CLIP_TABLE = [
    (1.5, 1.0, 0.28, None, -1.28, 0.0, "high"),  # clipped at 1.28, no gradient
    (1.1, 1.0, 0.28, None, -1.1, -1.1, None),
    (0.5, 1.0, 0.28, None, -0.5, -0.5, None),  # low ratio, positive A: never clipped
    (0.5, -1.0, 0.28, None, 0.8, 0.0, "low"),  # clipped at 0.8
    (1.5, -1.0, 0.28, None, 1.5, 1.5, None),  # high ratio, negative A: never clipped (without dual clip)
    (1.25, 1.0, 0.28, None, -1.25, -1.25, None),  # inside clip-higher range
    (1.25, 1.0, 0.2, None, -1.2, 0.0, "high"),  # symmetric range clips it
    (2.0, 0.5, 0.2, None, -0.6, 0.0, "high"),  # 1.2 * 0.5
    (5.0, -1.0, 0.28, 3.0, 3.0, 0.0, "dual"),  # dual clip bounds 5 at c = 3
    (2.0, -1.0, 0.28, 3.0, 2.0, 2.0, None),  # below the dual bound: unchanged
    (5.0, 1.0, 0.28, 3.0, -1.28, 0.0, "high"),  # dual clip leaves A > 0 alone
    (1.0, 0.0, 0.2, None, 0.0, 0.0, None),  # zero advantage: zero loss, zero gradient
]


@pytest.mark.parametrize("ratio, adv, eps_high, dual, loss, grad, side", CLIP_TABLE)
def test_clip_objective_table(ratio, adv, eps_high, dual, loss, grad, side):
    logp = torch.tensor([[LN(ratio)]], requires_grad=True)
    old = torch.zeros(1, 1)
    out, info = clip_objective(logp, old, torch.tensor([[adv]]), _knobs(0.2, eps_high, dual))
    out.sum().backward()
    assert out.item() == pytest.approx(loss, abs=1e-6)
    assert logp.grad.item() == pytest.approx(grad, abs=1e-6)
    assert info["clip_high"].item() == (side == "high")
    assert info["clip_low"].item() == (side == "low")
    if dual is not None:
        assert info["clip_dual"].item() == (side == "dual")


def test_pg_objective_by_hand():
    # -A logp: A = 0.5, logp = [-1, -2] -> [0.5, 1.0]; seq_mean_token_mean over 2 tokens = 0.75,
    # gradient -A / 2 = -0.25 per token
    logp = torch.tensor([[-1.0, -2.0]], requires_grad=True)
    loss, stats = policy_loss(logp, logp.detach(), torch.tensor([0.5]), torch.ones(1, 2, dtype=torch.bool),
                              algorithm="reinforce")
    loss.backward()
    assert loss.item() == pytest.approx(0.75)
    assert logp.grad[0].tolist() == pytest.approx([-0.25, -0.25])
    assert stats["pg_loss"].item() == pytest.approx(0.75)
    tok, info = pg_objective(logp.detach(), None, torch.tensor([[0.5, 0.5]]), {})
    assert tok[0].tolist() == pytest.approx([0.5, 1.0]) and info["ratio"].tolist() == [[1.0, 1.0]]


def _batch(seed=0, B=6, T=5):
    g = torch.Generator().manual_seed(seed)
    logp = torch.randn(B, T, generator=g) * 0.5 - 1.5
    old = logp + torch.randn(B, T, generator=g) * 0.2
    ref = logp + torch.randn(B, T, generator=g) * 0.2
    ent = torch.rand(B, T, generator=g)
    lengths = torch.tensor([5, 1, 3, 4, 2, 5])[:B]
    mask = torch.arange(T).unsqueeze(0) < lengths.unsqueeze(1)  # (B, T) right-padded
    adv = torch.randn(B, generator=g)
    return logp, old, ref, ent, mask, adv


@pytest.mark.parametrize("loss_agg", ["seq_mean_token_mean", "token_mean", "seq_mean_token_sum_norm"])
def test_ratio_one_clip_equals_plain_policy_gradient(loss_agg):
    logp0, _, _, _, mask, adv = _batch()
    lp_clip = logp0.clone().requires_grad_()
    lp_pg = logp0.clone().requires_grad_()
    knobs = dict(kl_coef=0.0, loss_agg=loss_agg, eps_low=0.2, eps_high=0.28)
    l_clip, st = policy_loss(lp_clip, logp0, adv, mask, objective="clip", **knobs)
    l_pg, _ = policy_loss(lp_pg, logp0, adv, mask, objective="pg", **knobs)
    l_clip.backward()
    l_pg.backward()
    # value: at r = 1 the clipped surrogate is -A * r = -A (the pg loss value is -A logp instead)
    expected_value = aggregate(-adv.unsqueeze(-1).expand_as(mask), mask, loss_agg)
    assert l_clip.item() == pytest.approx(expected_value.item(), abs=1e-6)
    # gradient: identical to REINFORCE's -A grad(logp)
    assert torch.allclose(lp_clip.grad, lp_pg.grad, atol=1e-7)
    assert st["ratio_mean"].item() == 1.0 and st["clip_frac_high"].item() == 0.0


def test_clip_higher_changes_only_positive_advantage_tokens_above_one_plus_eps_low():
    ratios = torch.tensor([0.5, 0.79, 0.9, 1.0, 1.1, 1.19, 1.21, 1.25, 1.3, 1.5, 2.0])
    logp = ratios.log().repeat(2, 1)  # (2, 11)
    adv = torch.tensor([1.0, -1.0])
    mask = torch.ones_like(logp, dtype=torch.bool)
    sym, _ = clip_objective(logp, torch.zeros_like(logp), adv.unsqueeze(-1).expand_as(logp), _knobs(0.2, 0.2))
    hi, _ = clip_objective(logp, torch.zeros_like(logp), adv.unsqueeze(-1).expand_as(logp), _knobs(0.2, 0.28))
    changed = ~torch.isclose(sym, hi, atol=0, rtol=0)
    expected = (adv.unsqueeze(-1) > 0) & (ratios > 1.2)
    assert changed.tolist() == expected.tolist()
    assert mask.all()
    # e.g. r = 1.25, A = +1: -1.2 (symmetric) vs -1.25 (clip-higher); r = 2: -1.2 vs -1.28
    assert sym[0, 7].item() == pytest.approx(-1.2) and hi[0, 7].item() == pytest.approx(-1.25)
    assert sym[0, 10].item() == pytest.approx(-1.2) and hi[0, 10].item() == pytest.approx(-1.28)


def test_stats_by_hand():
    # 4 loss tokens (1 masked) with ratios 1.5, 0.5, 1.1, 0.5 and advantages +1, -1, +1, +1
    # clip_high: r 1.5 with A>0 -> 1 of 4; clip_low: r 0.5 with A<0 -> 1 of 4 (r 0.5, A>0 does not bind)
    ratios = torch.tensor([[1.5, 0.5, 1.1, 0.5, 9.0]])
    adv = torch.tensor([[1.0, -1.0, 1.0, 1.0, 1.0]])
    mask = torch.tensor([[True, True, True, True, False]])
    logp = ratios.log()
    loss, st = policy_loss(logp, torch.zeros_like(logp), adv, mask, kl_coef=0.0, loss_agg="token_mean")
    assert st["clip_frac_high"].item() == pytest.approx(0.25)
    assert st["clip_frac_low"].item() == pytest.approx(0.25)
    assert st["ratio_mean"].item() == pytest.approx((1.5 + 0.5 + 1.1 + 0.5) / 4)
    assert st["ratio_max"].item() == pytest.approx(1.5)  # the masked 9.0 is not seen
    # per-token losses: -1.2, 0.8, -1.1, -0.5 -> token mean -0.5
    assert loss.item() == pytest.approx(-0.5)
    assert st["pg_loss"].item() == pytest.approx(-0.5)
    # approx_kl_old: k3 with d = old - logp = -ln r: r - 1 - ln r... exp(d) - d - 1 = 1/r + ln r - 1
    k3 = [1 / r + math.log(r) - 1 for r in (1.5, 0.5, 1.1, 0.5)]
    assert st["approx_kl_old"].item() == pytest.approx(sum(k3) / 4, abs=1e-6)
    assert st["loss_tokens"].item() == 4
    assert st["kl_loss"].item() == 0.0 and "kl_ref" not in st and "entropy" not in st
    assert all(v.dim() == 0 and not v.requires_grad for v in st.values())


def test_kl_in_loss_by_hand():
    # logp = ln 0.5, ref = ln 0.25, adv 0 and ratio 1 -> pg term 0.
    # k3 = exp(d) - d - 1 with d = ln 0.5: 0.5 + 0.693147 - 1 = 0.193147; beta 0.04 -> 0.00772589
    # d(beta k3)/d logp = beta (1 - exp(d)) = 0.04 * 0.5 = 0.02
    logp = torch.tensor([[LN(0.5)]], requires_grad=True)
    ref = torch.tensor([[LN(0.25)]])
    loss, st = policy_loss(logp, logp.detach(), torch.tensor([0.0]), torch.ones(1, 1, dtype=torch.bool),
                           ref_logp=ref)  # grpo preset: kl_coef 0.04, k3, in the loss
    loss.backward()
    assert loss.item() == pytest.approx(0.00772589, abs=1e-7)
    assert logp.grad.item() == pytest.approx(0.02, abs=1e-7)
    assert st["kl_ref"].item() == pytest.approx(0.193147, abs=1e-6)
    assert st["kl_loss"].item() == pytest.approx(0.00772589, abs=1e-7)


def test_kl_in_reward_placement_leaves_the_loss_alone_but_reports_kl():
    logp = torch.tensor([[LN(0.5)]], requires_grad=True)
    ref = torch.tensor([[LN(0.25)]])
    loss, st = policy_loss(logp, logp.detach(), torch.tensor([0.0]), torch.ones(1, 1, dtype=torch.bool),
                           ref_logp=ref, kl_placement="reward", kl_estimator="k1")
    assert loss.item() == 0.0
    assert st["kl_ref"].item() == pytest.approx(math.log(2), abs=1e-6)  # k1 = ln 0.5 - ln 0.25
    assert st["kl_loss"].item() == 0.0


def test_entropy_bonus_by_hand():
    # adv 0, ratio 1: loss = -coef * mean H = -0.01 * (0.5 + 1.5) / 2 = -0.01; dL/dH = -0.01 / 2
    logp = torch.zeros(1, 2)
    ent = torch.tensor([[0.5, 1.5]], requires_grad=True)
    loss, st = policy_loss(logp, logp, torch.tensor([0.0]), torch.ones(1, 2, dtype=torch.bool),
                           entropy=ent, kl_coef=0.0, entropy_coef=0.01, loss_agg="token_mean")
    loss.backward()
    assert loss.item() == pytest.approx(-0.01)
    assert ent.grad[0].tolist() == pytest.approx([-0.005, -0.005])
    assert st["entropy"].item() == pytest.approx(1.0)


def test_truncated_importance_weight_by_hand():
    # token 1: pi_old 0.5, mu 0.1 -> weight 5, capped at 2; token 2: pi_old 0.3, mu 0.6 -> weight 0.5
    # ratio pi/pi_old = 1.1 (unclipped for A = +1): per-token losses -2 * 1.1 = -2.2 and -0.5 * 1.1 = -0.55
    # token mean -1.375; gradient -w r A / 2 = [-1.1, -0.275]; 1 of 2 tokens capped
    old = torch.tensor([[LN(0.5), LN(0.3)]])
    sampler = torch.tensor([[LN(0.1), LN(0.6)]])
    logp = (old + LN(1.1)).requires_grad_()
    mask = torch.ones(1, 2, dtype=torch.bool)
    loss, st = policy_loss(logp, old, torch.tensor([1.0]), mask, sampler_logp=sampler, algorithm="dapo", tis_cap=2.0)
    loss.backward()
    assert loss.item() == pytest.approx(-1.375, abs=1e-6)
    assert logp.grad[0].tolist() == pytest.approx([-1.1, -0.275], abs=1e-6)
    assert st["tis_frac_capped"].item() == pytest.approx(0.5)
    # without tis_cap the sampler log-probs change nothing
    loss_off, st_off = policy_loss(logp.detach(), old, torch.tensor([1.0]), mask, sampler_logp=sampler,
                                   algorithm="dapo")
    assert loss_off.item() == pytest.approx(-1.1, abs=1e-6)
    assert "tis_frac_capped" not in st_off


def test_tis_does_not_weight_the_kl_term():
    # adv 0 -> pg term 0; the KL term alone must be unweighted (weight would be 5 -> 2)
    logp = torch.tensor([[LN(0.5)]])
    loss, _ = policy_loss(logp, logp, torch.tensor([0.0]), torch.ones(1, 1, dtype=torch.bool),
                          ref_logp=torch.tensor([[LN(0.25)]]), sampler_logp=torch.tensor([[LN(0.1)]]), tis_cap=2.0)
    assert loss.item() == pytest.approx(0.04 * 0.193147, abs=1e-7)


@pytest.mark.parametrize("loss_agg", ["seq_mean_token_mean", "token_mean", "seq_mean_token_sum_norm"])
def test_micro_batches_sum_to_the_full_batch_loss_and_gradient(loss_agg):
    logp0, old, ref, ent0, mask, adv = _batch(seed=3)
    knobs = dict(algorithm="dapo", loss_agg=loss_agg, kl_coef=0.1, entropy_coef=0.01, max_len=7, dual_clip=3.0)
    lp_full = logp0.clone().requires_grad_()
    ent_full = ent0.clone().requires_grad_()
    full, _ = policy_loss(lp_full, old, adv, mask, ref_logp=ref, entropy=ent_full, **knobs)
    full.backward()

    lp_mb = logp0.clone().requires_grad_()
    ent_mb = ent0.clone().requires_grad_()
    parts = [slice(0, 2), slice(2, 3), slice(3, 6)]
    normalizer = sum(loss_normalizer(mask[s], loss_agg, max_len=7) for s in parts)
    total = 0.0
    for s in parts:
        loss, _ = policy_loss(lp_mb[s], old[s], adv[s], mask[s], ref_logp=ref[s], entropy=ent_mb[s],
                              normalizer=normalizer, **knobs)
        loss.backward()  # gradient accumulation
        total = total + loss.detach()
    assert total.item() == pytest.approx(full.item(), abs=1e-6)
    assert torch.allclose(lp_mb.grad, lp_full.grad, atol=1e-7)
    assert torch.allclose(ent_mb.grad, ent_full.grad, atol=1e-7)


def test_masked_positions_get_exactly_zero_gradient_whatever_they_hold():
    logp0, old, ref, ent, mask, adv = _batch(seed=5)
    lp = logp0.clone()
    lp[~mask] = float("-inf")  # padding log-probs
    old = old.clone()
    old[~mask] = float("nan")
    ref = ref.clone()
    ref[~mask] = float("inf")
    ent = ent.clone()
    ent[~mask] = float("nan")
    lp.requires_grad_()
    ent.requires_grad_()
    loss, st = policy_loss(lp, old, adv, mask, ref_logp=ref, entropy=ent, entropy_coef=0.01, dual_clip=3.0)
    loss.backward()
    assert torch.isfinite(loss)
    assert (lp.grad[~mask] == 0).all() and (ent.grad[~mask] == 0).all()
    assert (lp.grad[mask] != 0).any()
    assert all(torch.isfinite(v) for v in st.values())
    # and the value is the same as with clean padding
    clean, _ = policy_loss(logp0, _batch(seed=5)[1], adv, mask, ref_logp=_batch(seed=5)[2],
                           entropy=_batch(seed=5)[3], entropy_coef=0.01, dual_clip=3.0)
    assert loss.item() == pytest.approx(clean.item(), abs=1e-7)


def test_per_token_advantages_are_accepted():
    logp = torch.zeros(1, 2, requires_grad=True)
    adv = torch.tensor([[1.0, -3.0]])
    loss, _ = policy_loss(logp, logp.detach(), adv, torch.ones(1, 2, dtype=torch.bool), kl_coef=0.0,
                          loss_agg="token_mean")
    assert loss.item() == pytest.approx(1.0)  # (-1 + 3) / 2


def test_empty_mask_gives_zero_loss_not_nan():
    logp = torch.zeros(2, 3, requires_grad=True)
    loss, st = policy_loss(logp, logp.detach(), torch.ones(2), torch.zeros(2, 3, dtype=torch.bool), kl_coef=0.0)
    loss.backward()
    assert loss.item() == 0.0 and (logp.grad == 0).all() and st["loss_tokens"].item() == 0


# ---------------------------------------------------------------- knobs
def test_preset_defaults_and_overrides():
    k = resolve_knobs("grpo", {})
    assert (k["objective"], k["eps_low"], k["eps_high"], k["loss_agg"], k["kl_coef"], k["kl_estimator"]) == (
        "clip", 0.2, 0.2, "seq_mean_token_mean", 0.04, "k3")
    k = resolve_knobs("dapo", {"eps_high": 0.3, "dual_clip": None})  # None keeps the preset value
    assert k["eps_high"] == 0.3 and k["eps_low"] == 0.2 and k["dual_clip"] is None


def test_irrelevant_knobs_are_accepted_and_ignored():
    logp = torch.zeros(1, 2)
    mask = torch.ones(1, 2, dtype=torch.bool)
    a, _ = policy_loss(logp, logp, torch.tensor([1.0]), mask, kl_coef=0.0)
    b, _ = policy_loss(logp, logp, torch.tensor([1.0]), mask, kl_coef=0.0, advantage="rloo", epochs=3,
                       minibatches=2, dynamic_sampling=True, gamma=0.9, name="grpo")
    assert a.item() == b.item() == -1.0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"eps_lo": 0.1}, "unknown knob.*eps_lo.*valid knobs:.*eps_low"),
        ({"algorithm": "ppo2"},
         "unknown algorithm 'ppo2'; valid: grpo, dr_grpo, dapo, rloo, reinforce, gspo, cispo, reinforce_pp, ppo"),
        ({"objective": "cispo2"}, "valid: clip, pg, cispo, gspo, gspo_token"),
        ({"loss_agg": "seq_mean"}, "valid: seq_mean_token_mean, token_mean, seq_mean_token_sum_norm"),
        ({"kl_estimator": "k4", "kl_coef": 0.0}, "valid: k1, k2, k3"),
        ({"dual_clip": 0.5}, "dual_clip must be > 1"),
        ({"name": "dapo"}, "disagrees"),
        ({}, "needs ref_logp"),  # grpo preset: kl_coef 0.04 in the loss
        ({"kl_coef": 0.0, "entropy_coef": 0.01}, "needs entropy"),
        ({"kl_coef": 0.0, "tis_cap": 2.0}, "needs sampler_logp"),
    ],
)
def test_bad_knobs_fail_loud(kwargs, message):
    logp = torch.zeros(1, 2)
    with pytest.raises(ValueError, match=message):
        policy_loss(logp, logp, torch.tensor([1.0]), torch.ones(1, 2, dtype=torch.bool), **kwargs)


def test_shape_errors():
    logp = torch.zeros(2, 3)
    with pytest.raises(ValueError, match="advantages"):
        policy_loss(logp, logp, torch.ones(3), torch.ones(2, 3, dtype=torch.bool), kl_coef=0.0)
    with pytest.raises(ValueError, match="shape"):
        policy_loss(logp, torch.zeros(2, 4), torch.ones(2), torch.ones(2, 3, dtype=torch.bool), kl_coef=0.0)


def test_half_precision_inputs_give_a_float32_loss_and_gradients_in_their_dtype():
    logp = torch.full((1, 2), -1.0, dtype=torch.bfloat16, requires_grad=True)
    loss, _ = policy_loss(logp, logp.detach(), torch.tensor([1.0]), torch.ones(1, 2, dtype=torch.bool), kl_coef=0.0)
    loss.backward()
    assert loss.dtype == torch.float32 and logp.grad.dtype == torch.bfloat16
    assert logp.grad[0].float().tolist() == pytest.approx([-0.5, -0.5])
