"""The sampler-trainer mismatch in the update: logged every step, and corrected as asked
(algo.mismatch_correction), exactly as rlvr.algo.correction defines it."""

from __future__ import annotations

import copy
import math

import pytest
import torch
from test_update import _data as update_data

from rlvr.config import ConfigError, load_config
from rlvr.train import update as upd
from rlvr.train.batch import collate

REWARDS = [1, 0, 0, 1, 0, 1, 1, 0]  # two mixed groups of four


def _data(tokenizer, sampler_shift=None, model=None, seed=0):
    """test_update's batch (sampler log-probs all -1.0), or with the sampler's log-probs set to
    the trainer's own minus ``sampler_shift`` (a float, or (B,) per row) when a model is given."""
    data = update_data(tokenizer, REWARDS, group_size=4, seed=seed)
    if model is not None:
        trainer = upd.logp_of(model, collate(data.completions, tokenizer.pad_token_id), 1.0, 0)
        shift = torch.as_tensor(sampler_shift, dtype=torch.float32).expand(len(data.completions))
        for i, c in enumerate(data.completions):
            c.sampler_logp = (trainer[i, :len(c.token_ids)] - shift[i]).tolist()
    return data


def _step(model, data, tokenizer, *overrides, lr=0.1):
    cfg = load_config(preset="smoke", overrides=["algo.kl_coef=0", "train.grad_clip=0", *overrides])
    model = copy.deepcopy(model)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    stats = upd.update_policy(upd.Learner(model, opt, pad_id=tokenizer.pad_token_id), data, cfg,
                              torch.Generator().manual_seed(0))
    return model, stats


def test_every_step_logs_the_mismatch_against_the_trainers_logprobs(tiny_model, tiny_tokenizer):
    data = _data(tiny_tokenizer)  # sampler says -1.0 for every token
    batch = collate(data.completions, tiny_tokenizer.pad_token_id)
    d = upd.logp_of(tiny_model, batch, 1.0, 0) + 1.0  # log pi - log mu
    d = d[batch.loss_mask]
    _, stats = _step(tiny_model, data, tiny_tokenizer)
    assert stats["logp_mismatch"] == pytest.approx(float(d.abs().mean()), rel=1e-5)
    assert stats["mismatch/abs_max"] == pytest.approx(float(d.abs().max()), rel=1e-5)
    assert stats["mismatch/kl_k3"] == pytest.approx(float((d.exp() - 1 - d).mean()), rel=1e-4)
    assert stats["mismatch/frac_out"] == pytest.approx(float((d.abs() > math.log(2.0)).float().mean()))
    assert 0.0 <= stats["mismatch/seq_out"] <= 1.0
    assert "mismatch/corrected" not in stats  # correction off by default


def test_a_sampler_equal_to_the_trainer_shows_no_mismatch_and_no_correction(tiny_model, tiny_tokenizer):
    data = _data(tiny_tokenizer, 0.0, tiny_model)
    off, stats = _step(tiny_model, data, tiny_tokenizer)
    assert stats["mismatch/abs_max"] < 1e-5 and stats["mismatch/frac_out"] == 0.0
    for mode in ("token", "sequence"):
        corrected, cstats = _step(tiny_model, data, tiny_tokenizer, f"algo.mismatch_correction={mode}")
        assert cstats["mismatch/corrected"] == 0.0
        for a, b in zip(off.parameters(), corrected.parameters()):
            assert torch.allclose(a, b, atol=1e-7)


def test_token_mode_truncates_a_uniform_ratio_at_the_cap(tiny_model, tiny_tokenizer):
    """pi/mu = 4 on every token, C = 2: every weight is 2, so the SGD step equals the
    uncorrected one at twice the learning rate."""
    data = _data(tiny_tokenizer, math.log(4.0), tiny_model)
    token, stats = _step(tiny_model, data, tiny_tokenizer, "algo.mismatch_correction=token", "algo.mismatch_cap=2")
    assert stats["mismatch/corrected"] == 1.0 and stats["mismatch/frac_out"] == 1.0
    double, _ = _step(tiny_model, data, tiny_tokenizer, lr=0.2)
    for a, b in zip(token.parameters(), double.parameters()):
        assert torch.allclose(a, b, atol=1e-6)


def test_sequence_mode_drops_exactly_the_sequences_outside_the_band(tiny_model, tiny_tokenizer):
    """Rows 0-3 (group 0) sampled with pi/mu = 3, rows 4-7 with pi/mu = 1.2; C = 2: group 0 is
    dropped, so the step equals training on group 1 alone (the normaliser still counts group 0)."""
    shift = torch.tensor([math.log(3.0)] * 4 + [math.log(1.2)] * 4)
    data = _data(tiny_tokenizer, shift, tiny_model)
    seq, stats = _step(tiny_model, data, tiny_tokenizer, "algo.mismatch_correction=sequence")
    assert stats["mismatch/seq_out"] == pytest.approx(0.5)
    lens = torch.tensor([len(c.token_ids) for c in data.completions], dtype=torch.float32)
    assert stats["mismatch/corrected"] == pytest.approx(float(lens[:4].sum() / lens.sum()))
    alone = copy.deepcopy(data)
    alone.rewards[:4] = 0.0  # group 0 uniform: advantage 0, no gradient, still in the normaliser
    ref, _ = _step(tiny_model, alone, tiny_tokenizer)
    for a, b in zip(seq.parameters(), ref.parameters()):
        assert torch.allclose(a, b, atol=1e-7)
    assert any(not torch.equal(a, b) for a, b in zip(seq.parameters(), tiny_model.parameters()))


def test_the_knobs_are_checked():
    with pytest.raises(ConfigError, match="mismatch_correction"):
        load_config(overrides=["algo.mismatch_correction=both"])
    with pytest.raises(ConfigError, match="mismatch_cap"):
        load_config(overrides=["algo.mismatch_cap=1.0"])
    with pytest.raises(ConfigError, match="both weight the loss"):
        load_config(overrides=["algo.mismatch_correction=token", "algo.tis_cap=2.0"])
    assert load_config().algo.mismatch_correction == "off" and load_config().algo.mismatch_cap == 2.0
