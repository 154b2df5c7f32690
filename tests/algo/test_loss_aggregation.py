"""Loss aggregation modes and their normalisers, by hand."""

import pytest
import torch

from rlvr.algo import aggregate, loss_normalizer, masked_mean
from rlvr.algo.aggregation import LOSS_AGGREGATIONS

# two sequences: lengths 3 and 1; the masked positions hold garbage that must not count
LOSS = torch.tensor([[1.0, 2.0, 3.0, 100.0], [4.0, 100.0, 100.0, 100.0]])
MASK = torch.tensor([[True, True, True, False], [True, False, False, False]])


@pytest.mark.parametrize(
    "mode, kwargs, expected",
    [
        ("token_mean", {}, 2.5),  # (1 + 2 + 3 + 4) / 4 tokens
        ("seq_mean_token_mean", {}, 3.0),  # (6/3 + 4/1) / 2 sequences
        ("seq_mean_token_sum_norm", {}, 1.25),  # (6 + 4) / (2 sequences x T=4)
        ("seq_mean_token_sum_norm", {"max_len": 8}, 0.625),  # (6 + 4) / (2 x 8)
        ("token_mean", {"normalizer": 10.0}, 1.0),  # caller's global normaliser: 10 / 10
        ("seq_mean_token_mean", {"normalizer": torch.tensor(4.0)}, 1.5),  # 6 / 4
    ],
)
def test_aggregation_by_hand(mode, kwargs, expected):
    assert aggregate(LOSS, MASK, mode, **kwargs).item() == pytest.approx(expected)


@pytest.mark.parametrize(
    "mode, max_len, expected",
    [("token_mean", None, 4.0), ("seq_mean_token_mean", None, 2.0), ("seq_mean_token_sum_norm", None, 8.0),
     ("seq_mean_token_sum_norm", 32, 64.0)],
)
def test_normalizer_by_hand(mode, max_len, expected):
    assert loss_normalizer(MASK, mode, max_len).item() == expected


def test_sequences_without_loss_tokens_do_not_count_as_sequences():
    mask = torch.cat([MASK, torch.zeros(1, 4, dtype=torch.bool)])  # a third, fully dropped sequence
    loss = torch.cat([LOSS, torch.full((1, 4), 7.0)])
    assert loss_normalizer(mask, "seq_mean_token_mean").item() == 2.0
    assert aggregate(loss, mask, "seq_mean_token_mean").item() == pytest.approx(3.0)


def test_token_mean_equals_seq_mean_token_mean_when_lengths_are_equal():
    torch.manual_seed(0)
    loss = torch.randn(5, 6)
    mask = torch.zeros(5, 6, dtype=torch.bool)
    mask[:, 1:5] = True  # every sequence has 4 loss tokens (not at the same place as T)
    a = aggregate(loss, mask, "token_mean")
    b = aggregate(loss, mask, "seq_mean_token_mean")
    assert a.item() == pytest.approx(b.item(), abs=1e-6)
    # and Dr. GRPO's constant differs from them by exactly the factor 4 / max_len
    c = aggregate(loss, mask, "seq_mean_token_sum_norm", max_len=8)
    assert c.item() == pytest.approx(a.item() * 4 / 8, abs=1e-6)


def test_lengths_differ_then_token_mean_and_seq_mean_differ():
    assert aggregate(LOSS, MASK, "token_mean").item() != aggregate(LOSS, MASK, "seq_mean_token_mean").item()


def test_masked_positions_get_zero_gradient():
    loss = LOSS.clone().requires_grad_()
    for mode in LOSS_AGGREGATIONS:
        loss.grad = None
        aggregate(loss, MASK, mode).backward()
        assert (loss.grad[~MASK] == 0).all()
    # token_mean: 1/4 on each loss token
    loss.grad = None
    aggregate(loss, MASK, "token_mean").backward()
    assert loss.grad[MASK].tolist() == [0.25] * 4


def test_empty_mask_is_zero():
    empty = torch.zeros(2, 4, dtype=torch.bool)
    for mode in LOSS_AGGREGATIONS:
        assert aggregate(LOSS, empty, mode).item() == 0.0
    assert masked_mean(LOSS, empty).item() == 0.0


def test_unknown_mode_lists_valid_ones():
    with pytest.raises(ValueError, match="valid: seq_mean_token_mean, token_mean, seq_mean_token_sum_norm"):
        aggregate(LOSS, MASK, "sum")
    with pytest.raises(ValueError, match="valid"):
        loss_normalizer(MASK, "sum")


def test_shape_mismatch_is_loud():
    with pytest.raises(ValueError, match=r"\(B, T\)"):
        aggregate(LOSS, MASK[:, :3], "token_mean")
