"""Peer-formula tables: GSPO, GSPO-token, CISPO, Clip-Cov, KL-Cov, top-entropy selection, the
entropy bonus (fixed and adaptive) and the batch-normalised baseline.

Each table row is a hand-computed case with the expected loss and gradient written out; each
method is also checked against a transcription of the peer's formula (verl core_algos.py,
TRL grpo_trainer.py, OpenRLHF experience_maker.py; see docs/algorithms.md for the commits),
with masked positions holding garbage and with uneven micro-batches whose loss normaliser
is the caller's.
"""

import math

import pytest
import torch

from rlvr.algo import (
    entropy_bonus_coef,
    group_advantages,
    loss_normalizer,
    next_entropy_coef,
    policy_loss,
    top_entropy_mask,
)
from rlvr.config import load_config
from rlvr.errors import ConfigError

E = math.exp
GARBAGE = float("-inf")


def _close(actual: torch.Tensor, expected, atol=1e-6) -> bool:
    return torch.allclose(actual.double(), torch.tensor(expected, dtype=torch.float64), atol=atol)


def _run(logp, old, adv, mask, normalizer=None, **knobs):
    """(loss, d loss / d logp, stats) of policy_loss with the given knobs."""
    lp = logp.clone().requires_grad_()
    loss, stats = policy_loss(lp, old, adv, mask, normalizer=normalizer, **knobs)
    loss.backward()
    return loss.item(), lp.grad, stats


# ---------------------------------------------------------------- GSPO
# two sequences of 3 and 2 loss tokens (the third position of row 1 is padding with garbage);
# per-token log-ratios logp - old_logp; s_i = exp(mean); loss_i = -min(s A, clip(s) A);
# d loss_i / d logp_t = -A s / |y_i| when the unclipped term is the min, else 0;
# seq_mean_token_mean: loss = (loss_0 + loss_1) / 2, gradient / 2.
GSPO_TABLE = [
    # (log-ratios row 0, row 1, A, eps_low, eps_high, loss_0, loss_1, grad_0 per token, grad_1 per token, clipped)
    ([0.1, 0.2, 0.3], [-0.1, -0.3], [1.0, -1.0], 0.2, 0.2,
     -1.2, E(-0.2), 0.0, E(-0.2) / 2, [True, False]),  # s_0 = e^0.2 = 1.2214 > 1.2: clipped
    ([0.0, 0.0, 0.0], [-0.4, -0.2], [1.0, -1.0], 0.2, 0.2,
     -1.0, 0.8, -1.0 / 3, 0.0, [False, True]),  # s_1 = e^-0.3 = 0.7408 < 0.8 with A < 0: clipped
    ([3e-4, 3e-4, 3e-4], [5e-4, 5e-4], [1.0, 1.0], 3e-4, 4e-4,
     -E(3e-4), -(1 + 4e-4), -E(3e-4) / 3, 0.0, [False, True]),  # the paper's range: 1.0003 in, 1.0005 out
    ([0.05, -0.05, 0.0], [0.2, 0.0], [-0.5, 2.0], 0.2, 0.2,
     0.5, -2 * E(0.1), 0.5 / 3, -2 * E(0.1) / 2, [False, False]),  # s_0 = 1 exactly, s_1 = e^0.1 in range
]


def _gspo_inputs(r0, r1):
    logp = torch.tensor([[-1.0, -2.0, -0.5], [-1.5, -0.7, GARBAGE]])
    old = logp - torch.tensor([r0, r1 + [0.0]])
    old[1, 2] = 1e9  # garbage at the masked position
    mask = torch.tensor([[True, True, True], [True, True, False]])
    return logp, old, mask


def _verl_gspo_token(logp, old, adv, mask, eps_low, eps_high):
    """verl compute_policy_loss_gspo (the GSPO-token form), seq-mean-token-mean."""
    lp = logp.masked_fill(~mask, 0.0).clone().requires_grad_()
    m = mask.float()
    neg_kl = (lp - old.masked_fill(~mask, 0.0))
    seq = (neg_kl * m).sum(-1) / m.sum(-1).clamp(min=1)
    ratio = torch.exp(torch.clamp(lp - lp.detach() + seq.detach().unsqueeze(-1), max=10.0))
    a = adv.unsqueeze(-1).expand_as(lp)
    losses = torch.maximum(-a * ratio, -a * torch.clamp(ratio, 1 - eps_low, 1 + eps_high))
    loss = ((losses * m).sum(-1) / m.sum(-1)).mean()
    loss.backward()
    return loss.item(), lp.grad


@pytest.mark.parametrize("r0, r1, adv, eps_low, eps_high, l0, l1, g0, g1, clipped", GSPO_TABLE)
@pytest.mark.parametrize("objective", ["gspo", "gspo_token"])
def test_gspo_table(objective, r0, r1, adv, eps_low, eps_high, l0, l1, g0, g1, clipped):
    logp, old, mask = _gspo_inputs(r0, r1)
    adv = torch.tensor(adv)
    loss, grad, stats = _run(logp, old, adv, mask, algorithm="gspo", objective=objective,
                             eps_low=eps_low, eps_high=eps_high)
    assert loss == pytest.approx((l0 + l1) / 2, abs=1e-6)
    assert grad[0].tolist() == pytest.approx([g0 / 2] * 3, abs=1e-6)
    assert grad[1].tolist() == pytest.approx([g1 / 2, g1 / 2, 0.0], abs=1e-6)
    assert stats["gspo_seq_clip_frac"].item() == pytest.approx(sum(clipped) / 2)
    peer_loss, peer_grad = _verl_gspo_token(logp, old, adv, mask, eps_low, eps_high)
    assert loss == pytest.approx(peer_loss, abs=1e-6) and torch.allclose(grad, peer_grad, atol=1e-6)


def _trl_sequence_level(logp, old, adv, mask, eps_low, eps_high):
    """TRL importance_sampling_level='sequence', loss_type='grpo' (s_i with its full gradient)."""
    lp = logp.masked_fill(~mask, 0.0).clone().requires_grad_()
    m = mask.float()
    log_w = ((lp - old.masked_fill(~mask, 0.0)) * m).sum(-1) / m.sum(-1).clamp(min=1.0)
    c1 = torch.exp(log_w.unsqueeze(-1))
    c2 = torch.clamp(c1, 1 - eps_low, 1 + eps_high)
    a = adv.unsqueeze(1)
    per_token = -torch.min(c1 * a, c2 * a)
    loss = ((per_token * m).sum(-1) / m.sum(-1).clamp(min=1.0)).mean()
    loss.backward()
    return loss.item(), lp.grad


def test_gspo_equals_trl_sequence_level_and_gspo_token_on_random_batches():
    g = torch.Generator().manual_seed(0)
    logp = torch.randn(6, 7, generator=g) - 1.5
    old = logp + 0.15 * torch.randn(6, 7, generator=g)
    mask = torch.arange(7)[None] < torch.tensor([7, 1, 4, 6, 2, 5])[:, None]
    adv = torch.randn(6, generator=g)
    logp[~mask], old[~mask] = GARBAGE, 1e9
    seq, g_seq, _ = _run(logp, old, adv, mask, algorithm="gspo", eps_low=0.05, eps_high=0.08)
    tok, g_tok, _ = _run(logp, old, adv, mask, algorithm="gspo", objective="gspo_token", eps_low=0.05, eps_high=0.08)
    trl, g_trl = _trl_sequence_level(logp, old, adv, mask, 0.05, 0.08)
    assert seq == pytest.approx(tok, abs=1e-6) == pytest.approx(trl, abs=1e-6)
    assert torch.allclose(g_seq, g_tok, atol=1e-6) and torch.allclose(g_seq, g_trl, atol=1e-6)


def test_gspo_token_with_token_advantages_by_hand():
    # one sequence, log-ratios [0.2, 0.3, 0.4] -> s = e^0.3 = 1.3499 on every token, eps 0.2, token_mean:
    # A = [1, -1, 2]: token 0 and 2 (A > 0, s > 1.2) clipped: -1.2, -2.4, no gradient; token 1: +s, grad +s
    logp = torch.tensor([[-1.0, -1.0, -1.0]])
    old = logp - torch.tensor([[0.2, 0.3, 0.4]])
    adv = torch.tensor([[1.0, -1.0, 2.0]])
    mask = torch.ones(1, 3, dtype=torch.bool)
    loss, grad, stats = _run(logp, old, adv, mask, algorithm="gspo", objective="gspo_token", eps_low=0.2,
                             eps_high=0.2, loss_agg="token_mean")
    s = E(0.3)
    assert loss == pytest.approx((-1.2 + s - 2.4) / 3, abs=1e-6)
    assert grad[0].tolist() == pytest.approx([0.0, s / 3, 0.0], abs=1e-6)
    assert stats["clip_frac_high"].item() == pytest.approx(2 / 3) and stats["gspo_seq_clip_frac"].item() == 1.0
    with pytest.raises(ValueError, match="gspo needs one advantage per sequence"):
        policy_loss(logp, old, adv, mask, algorithm="gspo")


# ---------------------------------------------------------------- CISPO
# loss = -sg(clip(r, 1 - eps_low, 1 + eps_high)) A logp; d loss / d logp = -w A (every token keeps it)
CISPO_TABLE = [
    # (ratio, A, logp, eps_low, eps_high, expected loss, expected gradient, weight clipped)
    (1.5, 1.0, -0.5, 0.2, 0.28, -1.28 * -0.5, -1.28, True),
    (0.5, -1.0, -2.0, 0.2, 0.28, -0.8 * 2.0, 0.8, True),
    (1.1, 1.0, -1.0, 0.2, 0.28, 1.1, -1.1, False),
    (0.5, 1.0, -1.0, 0.2, 0.28, 0.8, -0.8, True),  # CISPO clips the weight whatever the sign of A
    (0.01, 1.0, -3.0, 1.0, 4.0, 0.03, -0.01, False),  # the preset: no lower bound
    (6.0, -2.0, -0.25, 1.0, 4.0, -5.0 * 2.0 * 0.25, 10.0, True),  # the preset's upper weight 5
    (1.0, 0.0, -1.0, 0.2, 0.28, 0.0, 0.0, False),
]


@pytest.mark.parametrize("ratio, adv, lp, eps_low, eps_high, loss_exp, grad_exp, clipped", CISPO_TABLE)
def test_cispo_table(ratio, adv, lp, eps_low, eps_high, loss_exp, grad_exp, clipped):
    logp = torch.tensor([[lp, GARBAGE]])
    old = torch.tensor([[lp - math.log(ratio), 1e9]])
    mask = torch.tensor([[True, False]])
    loss, grad, stats = _run(logp, old, torch.tensor([adv]), mask, algorithm="cispo", eps_low=eps_low,
                             eps_high=eps_high)
    assert loss == pytest.approx(loss_exp, abs=1e-5)
    assert grad[0].tolist() == pytest.approx([grad_exp, 0.0], abs=1e-5)
    assert stats["cispo_clip_frac"].item() == float(clipped)
    # verl compute_policy_loss_cispo and TRL loss_type='cispo' (min(r, 1 + eps_high), TRL's absolute cap)
    lp_t = torch.tensor([lp], requires_grad=True)
    r = torch.exp(torch.clamp(lp_t - old[0, :1], -20.0, 20.0))
    verl = -torch.clamp(r, 1 - eps_low, 1 + eps_high).detach() * adv * lp_t
    verl.sum().backward()
    assert verl.item() == pytest.approx(loss_exp, abs=1e-5) and lp_t.grad.item() == pytest.approx(grad_exp, abs=1e-5)
    if eps_low == 1.0:
        trl = -torch.clamp(r, max=1 + eps_high).detach() * adv * lp_t.detach()
        assert trl.item() == pytest.approx(loss_exp, abs=1e-5)


# ---------------------------------------------------------------- Clip-Cov and KL-Cov
# two rows of 3 loss tokens plus a padding column holding garbage; A = +2 (row 0), -2 (row 1).
# mean A = 0, mean logp = -12 / 6 = -2, so cov_t = A_t (logp_t + 2):
#   row 0: 2 x [1.5, 1.0, -1.0] = [3, 2, -2];  row 1: -2 x [1.0, 0.0, -2.5] = [-2, 0, 5]
COV_LOGP = [[-0.5, -1.0, -3.0, GARBAGE], [-1.0, -2.0, -4.5, GARBAGE]]
COV_MASK = torch.tensor([[True, True, True, False], [True, True, True, False]])
COV_ADV = torch.tensor([2.0, -2.0])


def _cov_inputs(shift=None):
    logp = torch.tensor(COV_LOGP)
    old = logp.clone()
    old[:, 3] = 1e9
    if shift:
        for (i, t), d in shift.items():
            old[i, t] = logp[i, t] - d  # logp - old_logp = d
    return logp, old


def test_token_covariance_by_hand():
    from rlvr.algo import token_covariance

    logp, _ = _cov_inputs()
    adv = COV_ADV[:, None].expand(2, 4)
    cov = token_covariance(logp.masked_fill(~COV_MASK, 0.0), adv.masked_fill(~COV_MASK, 0.0), COV_MASK)
    assert _close(cov, [[3.0, 2.0, -2.0, 0.0], [-2.0, 0.0, 5.0, 0.0]])


# (cov_frac, tokens already clipped by the objective, tokens Clip-Cov detaches)
# candidates: 1 < cov < 5 -> (0,0) cov 3 and (0,1) cov 2 ((1,2) has cov 5: not < ub)
CLIP_COV_TABLE = [
    (0.5, {}, [(0, 0), (0, 1)]),  # k = floor(0.5 x 6) = 3 >= 2 candidates: both
    (0.5, {(0, 0): 0.5}, [(0, 1)]),  # (0,0): ratio e^0.5 > 1.2 with A > 0, clipped by PPO: not a candidate
]


def _clip_cov_expected(selected, shift):
    """Per-token loss and gradient of the clip objective with the selected tokens detached."""
    loss, grad = [[0.0] * 4 for _ in range(2)], [[0.0] * 4 for _ in range(2)]
    for i in range(2):
        for t in range(3):
            a = COV_ADV[i].item()
            r = E(shift.get((i, t), 0.0))
            if (i, t) in selected:
                continue
            clipped = a > 0 and r > 1.2
            loss[i][t] = -a * min(r, 1.2) if a > 0 else -a * r
            grad[i][t] = 0.0 if clipped else -a * r
    return loss, grad


@pytest.mark.parametrize("frac, shift, selected", CLIP_COV_TABLE)
def test_clip_cov_table(frac, shift, selected):
    logp, old = _cov_inputs(shift)
    loss, grad, stats = _run(logp, old, COV_ADV, COV_MASK, algorithm="grpo", kl_coef=0.0, loss_agg="token_mean",
                             cov_mode="clip_cov", cov_frac=frac)
    tok, tok_grad = _clip_cov_expected(selected, shift)
    assert loss == pytest.approx(sum(map(sum, tok)) / 6, abs=1e-6)
    assert _close(grad, [[g / 6 for g in row] for row in tok_grad])
    assert stats["cov_frac_selected"].item() == pytest.approx(len(selected) / 6)
    assert _verl_clip_cov(logp, old, frac) == pytest.approx(loss, abs=1e-6)


def _verl_clip_cov(logp, old, frac, lb=1.0, ub=5.0, eps=0.2):
    """verl compute_policy_loss_clip_cov, token-mean (its random choice is moot when k >= candidates)."""
    m = COV_MASK
    lp, o = logp.masked_fill(~m, 0.0), old.masked_fill(~m, 0.0)
    a = COV_ADV[:, None].expand_as(lp)
    ratio = torch.exp(lp - o)
    l1, l2 = -a * ratio, -a * torch.clamp(ratio, 1 - eps, 1 + eps)
    by_origin = (l2 > l1) & m
    mm = lambda x: (x * m).sum() / m.sum()  # noqa: E731
    cov = (a - mm(a)) * (lp - mm(lp))
    cov[~m] = -torch.inf
    cov[by_origin] = -torch.inf
    n = max(int(frac * m.sum().item()), 1)
    idx = torch.nonzero((cov < ub) & (cov > lb) & m)
    idx = idx[torch.randperm(len(idx))[: min(n, len(idx))]]
    corr = torch.ones_like(a)
    corr[idx[:, 0], idx[:, 1]] = 0
    return ((torch.maximum(l1, l2) * corr * m).sum() / m.sum()).item()


def test_clip_cov_draws_k_of_the_candidates_at_random_with_the_generator():
    logp, old = _cov_inputs()
    seen = set()
    for seed in range(12):
        _, grad, stats = _run(logp, old, COV_ADV, COV_MASK, algorithm="grpo", kl_coef=0.0, cov_mode="clip_cov",
                              generator=torch.Generator().manual_seed(seed))  # cov_frac 2e-4: k = 1
        zeroed = {(i, t) for i in range(2) for t in range(3) if grad[i, t] == 0}
        assert len(zeroed) == 1 and zeroed <= {(0, 0), (0, 1)}
        assert stats["cov_frac_selected"].item() == pytest.approx(1 / 6)
        seen |= zeroed
        again = _run(logp, old, COV_ADV, COV_MASK, algorithm="grpo", kl_coef=0.0, cov_mode="clip_cov",
                     generator=torch.Generator().manual_seed(seed))[1]
        assert torch.equal(grad, again)  # the generator makes the draw reproducible
    assert seen == {(0, 0), (0, 1)}


# KL-Cov: the k tokens of largest cov get + coef |logp - old_logp|; objective as verl's (no clip:
# eps_low 1, eps_high 1e9). cov frac 0.34 -> k = floor(2.04) = 2: (1,2) cov 5 and (0,0) cov 3.
# logp - old_logp: (0,0) +0.1, (1,2) -0.2, (0,2) +0.3 (not selected), the rest 0. coef 1.
# token loss -A r (+ |d|), gradient -A r (+ sign(d)):
KL_COV_SHIFT = {(0, 0): 0.1, (1, 2): -0.2, (0, 2): 0.3}
KL_COV_LOSS = [[-2 * E(0.1) + 0.1, -2.0, -2 * E(0.3)], [2.0, 2.0, 2 * E(-0.2) + 0.2]]
KL_COV_GRAD = [[-2 * E(0.1) + 1.0, -2.0, -2 * E(0.3)], [2.0, 2.0, 2 * E(-0.2) - 1.0]]


def test_kl_cov_by_hand_and_as_verl():
    logp, old = _cov_inputs(KL_COV_SHIFT)
    loss, grad, stats = _run(logp, old, COV_ADV, COV_MASK, algorithm="grpo", kl_coef=0.0, loss_agg="token_mean",
                             eps_low=1.0, eps_high=1e9, cov_mode="kl_cov", cov_frac=0.34, kl_cov_coef=1.0)
    assert loss == pytest.approx(sum(map(sum, KL_COV_LOSS)) / 6, abs=1e-6)
    assert _close(grad[:, :3], [[g / 6 for g in row] for row in KL_COV_GRAD])
    assert grad[:, 3].tolist() == [0.0, 0.0]
    assert stats["cov_frac_selected"].item() == pytest.approx(2 / 6)
    # verl compute_policy_loss_kl_cov, token-mean
    m = COV_MASK
    lp = logp.masked_fill(~m, 0.0).requires_grad_()
    o = old.masked_fill(~m, 0.0)
    a = COV_ADV[:, None].expand_as(lp)
    nk = lp - o
    losses = (-a * torch.exp(nk)).clone()
    kl_losses = -a * torch.exp(nk) + 1.0 * nk.abs()
    vidx = torch.nonzero(m.reshape(-1), as_tuple=True)[0]
    va, vl = a[m].reshape(-1), lp[m].detach().reshape(-1)
    cov = (va - va.mean()) * (vl - vl.mean())
    top = vidx[torch.topk(cov, max(1, int(len(cov) * 0.34)), largest=True).indices]
    rows, cols = top // 4, top % 4
    losses[rows, cols] = kl_losses[rows, cols]
    verl = (losses * m).sum() / m.sum()
    verl.backward()
    assert verl.item() == pytest.approx(loss, abs=1e-6) and torch.allclose(lp.grad, grad, atol=1e-6)


def test_covariance_selection_is_per_micro_batch_with_the_callers_normaliser():
    # Split by rows, each micro-batch has one advantage, so A - mean A = 0 and every cov is 0:
    # Clip-Cov has no candidate (0 is not > lb = 1); KL-Cov picks the first token of each call
    # (all cov tie at 0), whose |d| is 0 here. Each call's loss is its tokens' -A over the global
    # normaliser 6, so the two add up to the unselected full-batch loss.
    logp, old = _cov_inputs()
    norm = loss_normalizer(COV_MASK, "token_mean")
    assert norm.item() == 6
    for mode in ("clip_cov", "kl_cov"):
        parts = [_run(logp[i:i + 1], old[i:i + 1], COV_ADV[i:i + 1], COV_MASK[i:i + 1], normalizer=norm,
                      algorithm="grpo", kl_coef=0.0, loss_agg="token_mean", cov_mode=mode, cov_frac=0.5)
                 for i in range(2)]
        assert [p[0] for p in parts] == pytest.approx([-2 * 3 / 6, 2 * 3 / 6], abs=1e-6)
        assert parts[0][1][0, :3].tolist() == pytest.approx([-2 / 6] * 3, abs=1e-6)


# ---------------------------------------------------------------- top-entropy selection
# loss-token entropies [0.1, 2.0, 0.5 | 3.0, 1.0], the padding holds 100 (must not count);
# sorted [0.1, 0.5, 1.0, 2.0, 3.0]; the (1 - rho) quantile at position 4 (1 - rho), interpolated:
TOP_ENTROPY_TABLE = [
    (0.2, 2.2, [[False, False, False], [True, False, False]]),  # pos 3.2: 2.0 + 0.2 x 1.0
    (0.4, 1.4, [[False, True, False], [True, False, False]]),  # pos 2.4: 1.0 + 0.4 x 1.0
    (0.6, 0.8, [[False, True, False], [True, True, False]]),  # pos 1.6: 0.5 + 0.6 x (1.0 - 0.5)
    (1.0, 0.1, [[True, True, True], [True, True, False]]),  # pos 0: the minimum, all kept
]


@pytest.mark.parametrize("rho, threshold, kept", TOP_ENTROPY_TABLE)
def test_top_entropy_table(rho, threshold, kept):
    ent = torch.tensor([[0.1, 2.0, 0.5], [3.0, 1.0, 100.0]])
    mask = torch.tensor([[True, True, True], [True, True, False]])
    keep = top_entropy_mask(ent, mask, rho)
    assert keep.tolist() == kept
    # TRL get_high_entropy_mask: torch.quantile of the loss-token entropies at 1 - rho
    trl_threshold = torch.quantile(ent[mask], 1 - rho)
    assert trl_threshold.item() == pytest.approx(threshold, abs=1e-6)
    assert ((ent * mask >= trl_threshold) & mask).tolist() == kept
    # in the loss: only kept tokens carry the policy gradient (on-policy, A = [1, -1], seq_mean_token_mean)
    logp = torch.tensor([[-1.0, -2.0, -0.5], [-0.3, -1.2, GARBAGE]])
    loss, grad, stats = _run(logp, logp.detach(), torch.tensor([1.0, -1.0]), mask, algorithm="grpo", kl_coef=0.0,
                             entropy=ent, top_entropy_frac=rho)
    n = [3, 2]
    expected_grad = [[(-1.0 if i == 0 else 1.0) / n[i] / 2 if kept[i][t] else 0.0 for t in range(3)] for i in range(2)]
    assert _close(grad, expected_grad)
    assert loss == pytest.approx((-sum(kept[0]) / 3 + sum(kept[1]) / 2) / 2, abs=1e-6)
    assert stats["top_entropy_frac_kept"].item() == pytest.approx(sum(map(sum, kept)) / 5)


# ---------------------------------------------------------------- entropy bonus
def test_fixed_entropy_bonus_by_hand_and_as_verl():
    # A = 0, so the loss is the bonus alone: -c x agg(H). H = [1, 2 | 3], c = 0.01.
    # seq_mean_token_mean: -0.01 x (1.5 + 3) / 2 = -0.0225; d/dH = -c / (2 |y_i|): -0.0025, -0.0025 | -0.005
    # token_mean: -0.01 x 6 / 3 = -0.02; d/dH = -c / 3 everywhere
    ent = torch.tensor([[1.0, 2.0], [3.0, 100.0]])
    mask = torch.tensor([[True, True], [True, False]])
    logp = torch.tensor([[-1.0, -1.0], [-1.0, GARBAGE]])
    for agg, loss_exp, grad_exp in [("seq_mean_token_mean", -0.0225, [[-0.0025, -0.0025], [-0.005, 0.0]]),
                                    ("token_mean", -0.02, [[-0.01 / 3] * 2, [-0.01 / 3, 0.0]])]:
        h = ent.clone().requires_grad_()
        loss, _ = policy_loss(logp, logp, torch.zeros(2), mask, algorithm="grpo", kl_coef=0.0, entropy=h,
                              entropy_coef=0.01, loss_agg=agg)
        loss.backward()
        assert loss.item() == pytest.approx(loss_exp, abs=1e-7)
        assert _close(h.grad, grad_exp, atol=1e-7)
        # verl: loss -= entropy_coeff * agg_loss(entropy, mask, mode)
        m = mask.float()
        e = ent.masked_fill(~mask, 0.0)
        verl = ((e * m).sum(-1) / m.sum(-1)).mean() if agg == "seq_mean_token_mean" else (e * m).sum() / m.sum()
        assert -0.01 * verl.item() == pytest.approx(loss_exp, abs=1e-7)


def _trl_controller(coef, entropies, target, delta, lo, hi):
    """TRL's adaptive entropy control (use_adaptive_entropy): applied coefficients, final coefficient."""
    last, applied = float("inf"), []
    for e in entropies:
        applied.append(coef if last <= target else 0.0)
        coef = min(coef + delta, hi) if e <= target else max(coef - delta, lo)
        last = e
    return applied, coef


def test_adaptive_entropy_coefficient_table():
    # target 0.5, delta 0.005, c0 0.01, bounds [0, 0.02]; entropies per step and what each step applies:
    # 1: last = inf -> 0; 0.8 > 0.5 -> c 0.005 | 2: last 0.8 -> 0; 0.4 -> 0.010 | 3: last 0.4 -> 0.010; -> 0.015
    # 4: 0.015; -> 0.020 (the cap) | 5: 0.020; 0.6 > 0.5 -> 0.015
    entropies = [0.8, 0.4, 0.3, 0.3, 0.6]
    coef, last, applied, coefs = 0.01, float("inf"), [], []
    for e in entropies:
        applied.append(entropy_bonus_coef(coef, last, 0.5))
        coef, last = next_entropy_coef(coef, e, 0.5, 0.005, 0.0, 0.02), e
        coefs.append(coef)
    assert applied == pytest.approx([0.0, 0.0, 0.010, 0.015, 0.020])
    assert coefs == pytest.approx([0.005, 0.010, 0.015, 0.020, 0.015])
    trl_applied, trl_final = _trl_controller(0.01, entropies, 0.5, 0.005, 0.0, 0.02)
    assert applied == pytest.approx(trl_applied) and coef == pytest.approx(trl_final)
    assert next_entropy_coef(0.002, 0.9, 0.5, 0.005, 0.0, 1.0) == 0.0  # never below the floor


# ---------------------------------------------------------------- the batch-normalised baseline
def test_reinforce_pp_by_hand_and_as_openrlhf():
    # groups [1,0,0,0] and [1,1,0,0]: x = r - group mean = [.75,-.25,-.25,-.25 | .5,.5,-.5,-.5];
    # batch mean 0, population std sqrt(1.75 / 8) = 0.46771 -> x / 0.46771
    r = torch.tensor([1.0, 0, 0, 0, 1, 1, 0, 0])
    gid = torch.arange(8) // 4
    adv = group_advantages(r, gid, "reinforce_pp")
    sd = math.sqrt(1.75 / 8)
    assert adv.tolist() == pytest.approx([0.75 / sd] + [-0.25 / sd] * 3 + [0.5 / sd] * 2 + [-0.5 / sd] * 2, abs=1e-5)
    assert adv[0].item() == pytest.approx(1.6036, abs=1e-4)
    # OpenRLHF reinforce_baseline with equal lengths L: group mean, then token-weighted mean and var over the batch
    L = 5
    x = (r.view(2, 4) - r.view(2, 4).mean(-1, keepdim=True)).reshape(-1, 1).expand(8, L)
    mean = x.mean()
    rstd = ((x - mean).pow(2).mean()).clamp(min=1e-8).rsqrt()
    assert ((x - mean) * rstd)[:, 0].tolist() == pytest.approx(adv.tolist(), abs=1e-5)
    # verl reinforce_plus_plus_baseline: unbiased token variance, rsqrt(var + 1e-8): rlvr x sqrt((N-1)/N)
    n = 8 * L
    verl = (x - mean) * torch.rsqrt(x.var(unbiased=True) + 1e-8)
    assert verl[:, 0].tolist() == pytest.approx((adv * math.sqrt((n - 1) / n)).tolist(), abs=1e-5)


def test_reinforce_pp_zero_variance_groups_and_batch():
    r = torch.tensor([1.0, 1, 1, 1, 1, 0, 0, 0])
    adv = group_advantages(r, torch.arange(8) // 4, "reinforce_pp")
    assert adv[:4].tolist() == [0.0] * 4  # a uniform group is exactly 0
    assert adv[4].item() == pytest.approx(0.75 / math.sqrt(0.75 / 8), abs=1e-5)  # x = [0 x4 | .75, -.25 x3]
    assert group_advantages(torch.ones(6), torch.arange(6) // 3, "reinforce_pp").tolist() == [0.0] * 6


# ---------------------------------------------------------------- uneven micro-batches, every method
SPLIT_CASES = [
    {"algorithm": "gspo", "eps_low": 0.05, "eps_high": 0.08},
    {"algorithm": "gspo", "objective": "gspo_token", "eps_low": 0.05, "eps_high": 0.08},
    {"algorithm": "cispo", "eps_low": 0.1, "eps_high": 0.1},
    {"algorithm": "grpo", "entropy_coef": 0.03},
    {"algorithm": "cispo", "entropy_coef": 0.03, "loss_agg": "seq_mean_token_sum_norm", "max_len": 7},
]


@pytest.mark.parametrize("knobs", SPLIT_CASES)
def test_uneven_micro_batches_add_up_to_the_whole_batch(knobs):
    g = torch.Generator().manual_seed(1)
    logp = torch.randn(6, 7, generator=g) - 1.5
    old = logp + 0.2 * torch.randn(6, 7, generator=g)
    ref = logp + 0.1 * torch.randn(6, 7, generator=g)
    ent = torch.rand(6, 7, generator=g)
    mask = torch.arange(7)[None] < torch.tensor([7, 1, 4, 6, 2, 5])[:, None]
    adv = torch.randn(6, generator=g)
    logp[~mask], old[~mask], ent[~mask] = GARBAGE, 1e9, 1e9
    agg = knobs.get("loss_agg", {"gspo": "seq_mean_token_mean", "cispo": "token_mean"}.get(knobs["algorithm"],
                                                                                         "seq_mean_token_mean"))
    whole, g_whole, _ = _run(logp, old, adv, mask, ref_logp=ref, entropy=ent, **knobs)
    parts = [slice(0, 1), slice(1, 4), slice(4, 6)]  # 1, 3 and 2 rows
    norm = sum(loss_normalizer(mask[p], agg, knobs.get("max_len")) for p in parts)
    total, grads = 0.0, []
    for p in parts:
        loss, grad, _ = _run(logp[p], old[p], adv[p], mask[p], normalizer=norm, ref_logp=ref[p], entropy=ent[p],
                             **knobs)
        total += loss
        grads.append(grad)
    assert total == pytest.approx(whole, abs=1e-6)
    assert torch.allclose(torch.cat(grads), g_whole, atol=1e-6)
    assert torch.isfinite(g_whole).all() and (g_whole[~mask] == 0).all()


# ---------------------------------------------------------------- what is refused
@pytest.mark.parametrize("override, message", [
    ("algo.cov_mode=clip_cov", "does not combine with cov_mode"),
    ("algo.top_entropy_frac=0.2", "does not combine with top_entropy_frac"),
    ("algo.dual_clip=3.0", "dual_clip bounds the PPO clipped surrogate"),
    ("algo.advantage=gae", "does not combine with advantage=gae"),
])
def test_gspo_refuses_per_token_knobs_in_one_line(override, message):
    with pytest.raises(ConfigError, match=message) as err:
        load_config(overrides=["algo.name=gspo", override])
    assert "\n" not in str(err.value)
    if "dual_clip" not in override:
        assert "use objective=gspo_token" in str(err.value)


@pytest.mark.parametrize("overrides, message", [
    (["algo.objective=pg", "algo.cov_mode=kl_cov"], "objective=pg has no old policy"),
    (["algo.cov_mode=clip_cov", "algo.clip_cov_lb=5", "algo.clip_cov_ub=1"], "clip_cov_lb must be < clip_cov_ub"),
    (["algo.top_entropy_frac=0"], "top_entropy_frac"),
    (["algo.entropy_target=0.5", "algo.entropy_coef_min=0.2", "algo.entropy_coef_max=0.1"], "entropy_coef_min"),
])
def test_other_refusals(overrides, message):
    with pytest.raises(ConfigError, match=message):
        load_config(overrides=overrides)


def test_composable_combinations_load_and_run():
    for overrides in (["algo.name=cispo", "algo.cov_mode=clip_cov", "algo.top_entropy_frac=0.2"],
                      ["algo.name=gspo", "algo.objective=gspo_token", "algo.cov_mode=kl_cov"],
                      ["algo.name=reinforce_pp", "algo.entropy_target=0.3", "algo.entropy_coef=0.001"]):
        load_config(overrides=overrides)
    logp = torch.tensor([[-1.0, -2.0, -0.5], [-1.5, -0.7, -0.2]])
    loss, stats = policy_loss(logp, logp + 0.1, torch.tensor([1.0, -1.0]), torch.ones(2, 3, dtype=torch.bool),
                              algorithm="cispo", entropy=torch.rand(2, 3), cov_mode="clip_cov", cov_frac=0.5,
                              clip_cov_lb=-10.0, top_entropy_frac=0.5)
    assert torch.isfinite(loss) and {"cov_frac_selected", "top_entropy_frac_kept", "cispo_clip_frac"} <= set(stats)
