"""rlvr.algo.correction on hand-computed tensors, and against the peers' formulas.

The example: two sequences, C = 2.5 unless said otherwise.
  row 0: pi = (0.5, 0.2, 0.9), mu = (0.25, 0.4, 0.9)  -> rho = (2, 0.5, 1),  d = (ln 2, -ln 2, 0)
  row 1: pi = (0.3, 0.6, pad), mu = (0.1, 0.6, pad)   -> rho = (3, 1),       d = (ln 3, 0)
Five loss tokens.
  abs_mean = (ln 2 + ln 2 + 0 + ln 3 + 0) / 5 = 2.4849066 / 5 = 0.4969813
  abs_max  = ln 3 = 1.0986123
  kl_k3    = sum(rho - 1 - d) / 5 = ((1 - ln 2) + (-0.5 + ln 2) + 0 + (2 - ln 3) + 0) / 5
           = (0.3068528 + 0.1931472 + 0.9013877) / 5 = 1.4013877 / 5 = 0.2802775
  frac_out = tokens with rho outside [0.4, 2.5]: only rho = 3 -> 1/5 = 0.2
  geometric-mean ratios: row 0 exp(0 / 3) = 1, row 1 exp(ln 3 / 2) = sqrt 3 = 1.7320508 -> seq_out 0
With C = 1.5: outside [0.6667, 1.5] are rho = 2, 0.5, 3 -> frac_out 3/5; row 1's sqrt 3 > 1.5 -> seq_out 1/2.
"""

from __future__ import annotations

import math

import pytest
import torch

from rlvr.algo.correction import correction_weight, mismatch_stats

LN = math.log
PI = torch.tensor([[LN(0.5), LN(0.2), LN(0.9)], [LN(0.3), LN(0.6), -5.0]])
MU = torch.tensor([[LN(0.25), LN(0.4), LN(0.9)], [LN(0.1), LN(0.6), 7.0]])  # the pad column holds garbage
MASK = torch.tensor([[True, True, True], [True, True, False]])


def test_stats_match_the_hand_computed_numbers():
    st = mismatch_stats(PI, MU, MASK, cap=2.5)
    assert float(st["abs_mean"]) == pytest.approx(0.4969813, abs=1e-6)
    assert float(st["abs_max"]) == pytest.approx(1.0986123, abs=1e-6)
    assert float(st["kl_k3"]) == pytest.approx(0.2802775, abs=1e-6)
    assert float(st["frac_out"]) == pytest.approx(0.2)
    assert float(st["seq_out"]) == 0.0
    assert (float(st["tokens"]), float(st["seqs"])) == (5.0, 2.0)
    narrow = mismatch_stats(PI, MU, MASK, cap=1.5)
    assert float(narrow["frac_out"]) == pytest.approx(0.6)
    assert float(narrow["seq_out"]) == pytest.approx(0.5)


def test_token_mode_is_truncated_importance_sampling():
    w, changed = correction_weight(PI, MU, MASK, "token", cap=2.5)
    assert torch.allclose(w, torch.tensor([[2.0, 0.5, 1.0], [2.5, 1.0, 1.0]]), atol=1e-6)  # 3 -> 2.5; pad -> 1
    assert changed.tolist() == [[False, False, False], [True, False, False]]
    assert not w.requires_grad


def test_sequence_mode_drops_the_sequence_whose_geometric_mean_leaves_the_band():
    w, changed = correction_weight(PI, MU, MASK, "sequence", cap=2.5)
    assert w.tolist() == [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]  # sqrt 3 = 1.73 is inside [0.4, 2.5]
    assert not changed.any()
    w, changed = correction_weight(PI, MU, MASK, "sequence", cap=1.5)
    assert w.tolist() == [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]  # row 1: sqrt 3 > 1.5
    assert changed.tolist() == [[False, False, False], [True, True, False]]
    off, changed = correction_weight(PI, MU, MASK, "off", cap=1.5)
    assert torch.equal(off, torch.ones(2, 3)) and not changed.any()


# ---------------------------------------------------------------- the peers' formulas, written out
def trl_token_truncate(old, sampler, mask, clip_max):
    """TRL GRPOTrainer, vllm_importance_sampling_mode='token_truncate', clip_min None."""
    return torch.clamp(torch.exp((old - sampler) * mask), max=clip_max)


def trl_sequence_mask(old, sampler, mask, clip_max):
    """TRL 'sequence_mask': the product of the ratios, zeroed outside [-inf, clip_max]; (B, 1)."""
    ratio = torch.exp(((old - sampler) * mask).sum(-1, keepdim=True))
    return ratio.masked_fill(ratio > clip_max, 0.0)


def verl_token_is(old, rollout, mask, threshold):
    """verl compute_rollout_correction_weights(rollout_is='token'), truncated at the threshold."""
    return torch.exp(torch.clamp(old - rollout, -20.0, 20.0)).clamp(max=threshold) * mask


def verl_seq_mean_k1_keep(old, rollout, mask, threshold):
    """verl compute_rollout_rejection_mask(rollout_rs='seq_mean_k1'): lower bound 1/threshold."""
    k1 = -torch.clamp(old - rollout, -20.0, 20.0)
    stat = (k1 * mask).sum(-1) / mask.sum(-1)
    return (stat >= math.log(1 / threshold)) & (stat <= math.log(threshold))


def slime_geometric_keep(train, rollout, mask, upper):
    """slime mis.py, rs_level='geometric' with the default lower bound 1/upper."""
    ratio = torch.exp(((train - rollout) * mask).sum(-1) / mask.sum(-1))
    return (ratio >= 1 / upper) & (ratio <= upper)


@pytest.mark.parametrize("cap", [1.5, 2.0, 2.5])
def test_token_mode_equals_trl_verl_and_slime(cap):
    m = MASK.float()
    w, _ = correction_weight(PI, MU, MASK, "token", cap=cap)
    assert torch.allclose(w * m, trl_token_truncate(PI, MU, m, cap) * m, atol=1e-6)
    assert torch.allclose(w * m, verl_token_is(PI, MU, m, cap), atol=1e-6)
    slime = torch.clamp(torch.exp(PI - MU), min=0.0, max=cap) * m  # vanilla_tis_function, tis_clip_low = 0
    assert torch.allclose(w * m, slime, atol=1e-6)


@pytest.mark.parametrize("cap", [1.5, 2.0, 2.5])
def test_sequence_mode_equals_verl_and_slime_geometric_masking(cap):
    m = MASK.float()
    w, _ = correction_weight(PI, MU, MASK, "sequence", cap=cap)
    kept = w[:, 0] > 0
    assert kept.tolist() == verl_seq_mean_k1_keep(PI, MU, m, cap).tolist()
    assert kept.tolist() == slime_geometric_keep(PI, MU, m, cap).tolist()


def test_sequence_mode_differs_from_trls_product_on_a_long_mild_sequence():
    """Four tokens at rho = 1.2: the product 1.2^4 = 2.0736 leaves [., 2] (TRL masks the
    sequence), the geometric mean 1.2 does not (kept here, as in verl's seq_mean_k1)."""
    old = torch.full((1, 4), LN(0.6))
    sampler = torch.full((1, 4), LN(0.5))
    mask = torch.ones(1, 4, dtype=torch.bool)
    w, _ = correction_weight(old, sampler, mask, "sequence", cap=2.0)
    assert w.tolist() == [[1.0] * 4]
    assert float(trl_sequence_mask(old, sampler, mask.float(), 2.0)) == 0.0
    assert float(verl_seq_mean_k1_keep(old, sampler, mask.float(), 2.0)[0]) == 1.0


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError, match="unknown mismatch correction 'tis'"):
        correction_weight(PI, MU, MASK, "tis", cap=2.0)
    with pytest.raises(ValueError, match="must be > 1"):
        mismatch_stats(PI, MU, MASK, cap=1.0)
    with pytest.raises(ValueError, match="one \\(B, T\\) shape"):
        mismatch_stats(PI, MU[:, :2], MASK, cap=2.0)


def test_huge_log_ratios_stay_finite():
    st = mismatch_stats(torch.tensor([[0.0]]), torch.tensor([[-1000.0]]), torch.tensor([[True]]), cap=2.0)
    assert float(st["abs_max"]) == 20.0 and math.isfinite(float(st["kl_k3"]))
