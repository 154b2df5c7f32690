"""GAE, token rewards, whitening and the (clipped) value loss, by hand."""

import pytest
import torch

from rlvr.algo import gae_advantages, masked_whiten, terminal_token_rewards, value_loss

ALL = torch.ones(1, 3, dtype=torch.bool)


@pytest.mark.parametrize(
    "gamma, lam, values, advantages, returns",
    [
        # deltas (gamma 1): t2 = 1 + 0 - 0.7 = 0.3, t1 = 0.7 - 0.6 = 0.1, t0 = 0.6 - 0.5 = 0.1
        # lam 1: A = [0.5, 0.4, 0.3] = 1 - V (Monte-Carlo), returns all 1
        (1.0, 1.0, [0.5, 0.6, 0.7], [0.5, 0.4, 0.3], [1.0, 1.0, 1.0]),
        # lam 0.5: A2 = 0.3, A1 = 0.1 + 0.15 = 0.25, A0 = 0.1 + 0.125 = 0.225
        (1.0, 0.5, [0.5, 0.6, 0.7], [0.225, 0.25, 0.3], [0.725, 0.85, 1.0]),
        # lam 0: one-step TD errors
        (1.0, 0.0, [0.5, 0.6, 0.7], [0.1, 0.1, 0.3], [0.6, 0.7, 1.0]),
        # gamma 0.9, zero values: discounted reward-to-go 0.81, 0.9, 1
        (0.9, 1.0, [0.0, 0.0, 0.0], [0.81, 0.9, 1.0], [0.81, 0.9, 1.0]),
    ],
)
def test_gae_by_hand(gamma, lam, values, advantages, returns):
    rewards = torch.tensor([[0.0, 0.0, 1.0]])
    adv, ret = gae_advantages(rewards, torch.tensor([values]), ALL, gamma, lam)
    assert adv[0].tolist() == pytest.approx(advantages, abs=1e-6)
    assert ret[0].tolist() == pytest.approx(returns, abs=1e-6)


def test_gae_skips_masked_positions():
    # a tool-output token at t=1 (value 99, reward 5) is not a step: same numbers as the lam 0.5 row above
    rewards = torch.tensor([[0.0, 5.0, 0.0, 1.0, 0.0]])
    values = torch.tensor([[0.5, 99.0, 0.6, 0.7, 42.0]])
    mask = torch.tensor([[True, False, True, True, False]])
    adv, ret = gae_advantages(rewards, values, mask, 1.0, 0.5)
    assert adv[0].tolist() == pytest.approx([0.225, 0.0, 0.25, 0.3, 0.0], abs=1e-6)
    assert ret[0].tolist() == pytest.approx([0.725, 0.0, 0.85, 1.0, 0.0], abs=1e-6)


def test_terminal_token_rewards():
    mask = torch.tensor([[True, True, True, False], [False, True, False, False], [False] * 4])
    out = terminal_token_rewards(torch.tensor([1.0, 2.0, 3.0]), mask)
    assert out.tolist() == [[0, 0, 1, 0], [0, 2, 0, 0], [0, 0, 0, 0]]


def test_whiten():
    x = torch.tensor([[1.0, 2.0, 3.0, 50.0]])
    mask = torch.tensor([[True, True, True, False]])
    w = masked_whiten(x, mask)
    # mean 2, population std sqrt(2/3) = 0.816497 -> [-1.224745, 0, 1.224745], masked -> 0
    assert w[0].tolist() == pytest.approx([-1.224745, 0.0, 1.224745, 0.0], abs=1e-5)


def test_value_loss_by_hand():
    # token 1: (1 - 0)^2 = 1; clipped value 0.5 + 0.2 = 0.7 -> 0.49; max 1 -> 0.5
    # token 2: (2 - 2.5)^2 = 0.25; no move -> 0.25 -> 0.125. token mean 0.3125, no clipping binds
    values = torch.tensor([[1.0, 2.0]], requires_grad=True)
    loss, st = value_loss(values, torch.tensor([[0.5, 2.0]]), torch.tensor([[0.0, 2.5]]),
                          torch.ones(1, 2, dtype=torch.bool), clip=0.2)
    loss.backward()
    assert loss.item() == pytest.approx(0.3125)
    assert st["vf_clip_frac"].item() == 0.0
    assert values.grad[0].tolist() == pytest.approx([0.5, -0.25])  # (v - R) / 2 tokens


def test_value_loss_clipped_branch_has_no_gradient():
    # v 1.0, old 0.5, R 2.0: unclipped 1.0, clipped (0.7 - 2)^2 = 1.69 -> loss 0.845, gradient 0
    values = torch.tensor([[1.0]], requires_grad=True)
    loss, st = value_loss(values, torch.tensor([[0.5]]), torch.tensor([[2.0]]), torch.ones(1, 1, dtype=torch.bool),
                          clip=0.2)
    loss.backward()
    assert loss.item() == pytest.approx(0.845)
    assert values.grad.item() == 0.0 and st["vf_clip_frac"].item() == 1.0
    # without clip: 0.5 * 1 = 0.5
    plain, _ = value_loss(values, torch.tensor([[0.5]]), torch.tensor([[2.0]]), torch.ones(1, 1, dtype=torch.bool))
    assert plain.item() == pytest.approx(0.5)


def test_value_loss_micro_batches_with_normalizer():
    torch.manual_seed(0)
    v, old, ret = torch.randn(4, 3), torch.randn(4, 3), torch.randn(4, 3)
    mask = torch.tensor([[1, 1, 0], [1, 0, 0], [1, 1, 1], [0, 1, 1]]).bool()
    full, _ = value_loss(v, old, ret, mask, clip=0.3)
    n = mask.sum().float()
    parts = sum(value_loss(v[s], old[s], ret[s], mask[s], clip=0.3, normalizer=n)[0]
                for s in (slice(0, 1), slice(1, 4)))
    assert parts.item() == pytest.approx(full.item(), abs=1e-6)


def test_shape_errors():
    with pytest.raises(ValueError, match=r"\(B, T\)"):
        gae_advantages(torch.zeros(1, 3), torch.zeros(1, 2), ALL, 1.0, 1.0)
