"""Per-token entropy from logits, by hand."""

import math

import pytest
import torch

from rlvr.algo import token_entropy


@pytest.mark.parametrize(
    "logits, expected",
    [
        ([0.0, 0.0, 0.0, 0.0], math.log(4)),  # uniform over 4: ln 4 = 1.386294
        ([math.log(0.5), math.log(0.25), math.log(0.25)], 1.5 * math.log(2)),  # 1.039721
        ([1000.0, 1000.0], math.log(2)),  # huge logits: no cancellation error
        ([0.0, 0.0, float("-inf")], math.log(2)),  # a masked vocabulary entry contributes 0, not NaN
        ([50.0, 0.0], 0.0),  # (almost) deterministic
    ],
)
def test_entropy_by_hand(logits, expected):
    out = token_entropy(torch.tensor(logits).view(1, 1, -1))
    assert out.shape == (1, 1)
    assert out.item() == pytest.approx(expected, abs=1e-5)


def test_chunked_equals_whole_in_value_and_gradient():
    torch.manual_seed(0)
    logits = torch.randn(2, 7, 11) * 3
    a_in = logits.clone().requires_grad_()
    b_in = logits.clone().requires_grad_()
    a = token_entropy(a_in)
    b = token_entropy(b_in, chunk_size=3)
    assert torch.allclose(a, b, atol=1e-6)
    a.sum().backward()
    b.sum().backward()
    assert torch.allclose(a_in.grad, b_in.grad, atol=1e-6)


def test_gradient_is_finite_with_masked_vocabulary():
    logits = torch.tensor([[[0.3, -0.2, float("-inf")]]], requires_grad=True)
    token_entropy(logits).sum().backward()
    assert torch.isfinite(logits.grad).all() and logits.grad[0, 0, 2] == 0


def test_matches_the_definition_and_low_precision_is_upcast():
    torch.manual_seed(1)
    logits = torch.randn(3, 4, 9)
    p = logits.softmax(-1)
    reference = -(p * p.log()).sum(-1)
    assert torch.allclose(token_entropy(logits), reference, atol=1e-5)
    half = token_entropy(logits.to(torch.bfloat16))
    assert half.dtype == torch.float32


def test_errors():
    with pytest.raises(ValueError, match=r"\(B, T, V\)"):
        token_entropy(torch.zeros(2, 3))
    with pytest.raises(ValueError, match="chunk_size"):
        token_entropy(torch.zeros(1, 4, 3), chunk_size=0)
