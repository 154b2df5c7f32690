"""KL estimators k1/k2/k3 and the reward-side fold, by hand."""

import math

import pytest
import torch

from rlvr.algo import fold_kl_into_rewards, kl_penalty

LN = math.log


# logp = ln 0.5, ref = ln 0.25: d = ref - logp = ln 0.5 = -0.693147
# k1 = logp - ref = 0.693147; k2 = 0.5 * 0.693147^2 = 0.240227; k3 = 0.5 - (-0.693147) - 1 = 0.193147
# and the reverse (logp = ln 0.25, ref = ln 0.5): k1 = -0.693147 (negative), k2 = 0.240227, k3 = 2 - 0.693147 - 1
@pytest.mark.parametrize(
    "estimator, forward, reverse",
    [("k1", 0.693147, -0.693147), ("k2", 0.240227, 0.240227), ("k3", 0.193147, 0.306853)],
)
def test_estimators_by_hand(estimator, forward, reverse):
    a, b = torch.tensor([[LN(0.5)]]), torch.tensor([[LN(0.25)]])
    assert kl_penalty(a, b, estimator).item() == pytest.approx(forward, abs=1e-6)
    assert kl_penalty(b, a, estimator).item() == pytest.approx(reverse, abs=1e-6)


@pytest.mark.parametrize("estimator", ["k1", "k2", "k3"])
def test_zero_when_policies_agree(estimator):
    x = torch.randn(3, 4)
    assert (kl_penalty(x, x, estimator) == 0).all()


def test_k1_and_k3_are_unbiased_k2_is_not():
    # exact expectations over a 3-token vocabulary, x ~ p: E[k1] = E[k3] = KL(p || q)
    p = torch.tensor([0.5, 0.3, 0.2])
    q = torch.tensor([0.2, 0.5, 0.3])
    true_kl = (p * (p / q).log()).sum().item()  # 0.232099...
    assert true_kl == pytest.approx(0.5 * LN(2.5) + 0.3 * LN(0.6) + 0.2 * LN(2 / 3), abs=1e-7)
    for est in ("k1", "k3"):
        assert (p * kl_penalty(p.log(), q.log(), est)).sum().item() == pytest.approx(true_kl, abs=1e-6)
    assert (p * kl_penalty(p.log(), q.log(), "k2")).sum().item() != pytest.approx(true_kl, abs=1e-3)


def test_gradient_flows_through_logp_only():
    logp = torch.tensor([[LN(0.5)]], requires_grad=True)
    ref = torch.tensor([[LN(0.25)]], requires_grad=True)
    kl_penalty(logp, ref, "k3").sum().backward()
    assert logp.grad.item() == pytest.approx(0.5)  # d k3 / d logp = 1 - exp(ref - logp) = 1 - 0.5
    assert ref.grad is None


def test_fold_kl_into_rewards_by_hand():
    # sums over loss tokens: 0.1 + 0.2 + 0.3 = 0.6 and 0.5 + 0.5 = 1.0 (the 9 is masked)
    # coef 0.5: [1 - 0.3, 0 - 0.5]
    rewards = torch.tensor([1.0, 0.0])
    kl_tok = torch.tensor([[0.1, 0.2, 0.3], [0.5, 0.5, 9.0]], requires_grad=True)
    mask = torch.tensor([[True, True, True], [True, True, False]])
    out = fold_kl_into_rewards(rewards, kl_tok, mask, 0.5)
    assert out.tolist() == pytest.approx([0.7, -0.5])
    assert not out.requires_grad


def test_errors():
    x = torch.zeros(1, 2)
    with pytest.raises(ValueError, match="valid: k1, k2, k3"):
        kl_penalty(x, x, "low_var_kl")
    with pytest.raises(ValueError, match="same shape"):
        kl_penalty(x, torch.zeros(1, 3))
    with pytest.raises(ValueError, match="rewards"):
        fold_kl_into_rewards(torch.zeros(3), x, x.bool(), 0.1)
