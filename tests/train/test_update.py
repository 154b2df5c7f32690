"""The policy update: skipping zero-gradient rows is exact; micro-batching is exact;
the KL term pulls towards the reference."""

import copy

import pytest
import torch

from rlvr.config import load_config
from rlvr.train import update as upd
from rlvr.train.rollouts import StepData
from rlvr.types import Completion, Sample, Verdict


def _data(tokenizer, rewards, group_size=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    comps, samples, verdicts = [], [], []
    for i, r in enumerate(rewards):
        n = 3 + int(torch.randint(0, 5, (1,), generator=g))
        toks = torch.randint(3, 40, (n,), generator=g).tolist()
        comps.append(Completion(prompt_ids=tokenizer(f"{i // group_size}+1=?")["input_ids"], token_ids=toks,
                                sampler_logp=[-1.0] * n, loss_mask=[True] * n, finish_reason="stop", text=""))
        samples.append(Sample(id=str(i // group_size), prompt=""))
        verdicts.append(Verdict(r, "ok" if r > 0 else "wrong"))
    rw = torch.tensor(rewards, dtype=torch.float32)
    return StepData(samples, comps, verdicts, rw, torch.arange(len(rewards)) // group_size, rw)


def _step(model, data, cfg, tokenizer, skip=True, monkeypatch=None):
    model = copy.deepcopy(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    if not skip:
        monkeypatch.setattr(upd, "rows_with_gradient", lambda cfg, adv: None)
    stats = upd.update_policy(upd.Learner(model, opt, pad_id=tokenizer.pad_token_id), data, cfg,
                              torch.Generator().manual_seed(0))
    return model, stats


@pytest.mark.parametrize("algo", ["grpo", "dr_grpo", "dapo"])
def test_skipping_uniform_groups_gives_the_same_update(tiny_model, tiny_tokenizer, monkeypatch, algo):
    cfg = load_config(preset="smoke", overrides=[f"algo.name={algo}", "algo.kl_coef=0", "algo.overlong_buffer=0"])
    data = _data(tiny_tokenizer, [1, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1])  # groups: mixed, uniform, uniform
    skipped, stats = _step(tiny_model, data, cfg, tiny_tokenizer)
    assert stats["rows_skipped"] == pytest.approx(8 / 12)
    full, _ = _step(tiny_model, data, cfg, tiny_tokenizer, skip=False, monkeypatch=monkeypatch)
    for a, b in zip(skipped.parameters(), full.parameters()):
        assert torch.allclose(a, b, atol=1e-7)
    assert any(not torch.equal(a, b) for a, b in zip(skipped.parameters(), tiny_model.parameters()))


def test_micro_batches_give_the_same_update(tiny_model, tiny_tokenizer):
    data = _data(tiny_tokenizer, [1, 0, 0, 1, 0, 1, 1, 1])
    whole, _ = _step(tiny_model, data, load_config(preset="smoke", overrides=["algo.kl_coef=0"]), tiny_tokenizer)
    micro, _ = _step(tiny_model, data,
                     load_config(preset="smoke", overrides=["algo.kl_coef=0", "train.micro_batch_size=3"]),
                     tiny_tokenizer)
    for a, b in zip(whole.parameters(), micro.parameters()):
        assert torch.allclose(a, b, atol=1e-6)


def test_kl_rows_are_never_skipped(tiny_model, tiny_tokenizer):
    cfg = load_config(preset="smoke", overrides=["algo.kl_coef=0.04"])
    adv = torch.tensor([0.0, 1.0])
    assert upd.rows_with_gradient(cfg, adv) is None
    cfg0 = load_config(preset="smoke", overrides=["algo.kl_coef=0"])
    assert upd.rows_with_gradient(cfg0, adv).tolist() == [False, True]


@pytest.mark.parametrize("algo, micro", [("grpo", 0), ("dr_grpo", 0), ("grpo", 2), ("dapo", 3)])
def test_trimming_padding_columns_gives_the_same_update(tiny_model, tiny_tokenizer, monkeypatch, algo, micro):
    """Rows without a gradient (here: long) are skipped, so the forward runs only as wide as the
    longest response that counts; the update is the one of the full-width forward."""
    cfg = load_config(preset="smoke", overrides=[f"algo.name={algo}", "algo.kl_coef=0", "algo.overlong_buffer=0",
                                                 f"train.micro_batch_size={micro}"])
    data = _data(tiny_tokenizer, [1, 0, 0, 1, 0, 0, 0, 0])  # mixed (short rows), uniform (made long)
    for c in data.completions[4:]:
        c.token_ids, c.sampler_logp, c.loss_mask = [5] * 30, [-1.0] * 30, [True] * 30
    widths = []
    real = upd.response_logp_entropy

    def spy(model, sub, *args, **kw):
        widths.append(sub.response_ids.shape[1])
        return real(model, sub, *args, **kw)

    monkeypatch.setattr(upd, "response_logp_entropy", spy)
    trimmed, _ = _step(tiny_model, data, cfg, tiny_tokenizer)
    assert widths and max(widths) <= 7  # the short rows are 3..7 tokens; the step's width is 30
    monkeypatch.setattr(upd.Batch, "trimmed", lambda self: self)
    widths.clear()
    full, _ = _step(tiny_model, data, cfg, tiny_tokenizer)
    assert set(widths) == {30}
    for a, b in zip(trimmed.parameters(), full.parameters()):
        assert torch.allclose(a, b, atol=1e-6)
    assert any(not torch.equal(a, b) for a, b in zip(trimmed.parameters(), tiny_model.parameters()))


@pytest.mark.parametrize("micro", [0, 2])
def test_positions_count_what_the_trained_micro_batches_computed(tiny_model, tiny_tokenizer, micro):
    """``positions`` (logged as train/positions): per micro-batch that ran, its one shared prompt
    once (P positions: the group's rows share it) plus every row's response columns but the last
    (scored, never attended to), at the micro-batch's own width; the skipped rows (a uniform
    group, made long) count nothing. On the model's own forward it is rows x (P + R)."""
    cfg = load_config(preset="smoke", overrides=["algo.kl_coef=0", "algo.overlong_buffer=0",
                                                 f"train.micro_batch_size={micro}"])
    data = _data(tiny_tokenizer, [1, 0, 0, 1, 0, 0, 0, 0])
    for c in data.completions[4:]:
        c.token_ids, c.sampler_logp, c.loss_mask = [5] * 30, [-1.0] * 30, [True] * 30
    P = max(len(c.prompt_ids) for c in data.completions)
    lengths = [len(c.token_ids) for c in data.completions[:4]]  # the mixed group: the rows trained
    chunks = [lengths] if micro == 0 else [lengths[i:i + micro] for i in range(0, 4, micro)]
    _, stats = _step(tiny_model, data, cfg, tiny_tokenizer)
    assert stats["positions"] == sum(P + len(ch) * (max(ch) - 1) for ch in chunks)
    with torch.no_grad():  # the model's own forward, for comparison: every row in full
        import rlvr.train.forward as fwd

        before = fwd.positions_run()
        batch = upd.collate(data.completions[:2], tiny_tokenizer.pad_token_id)
        batch.input_ids[1, :P] = batch.input_ids[0, :P]  # same prompt ids, but...
        batch.attention_mask[1, 0] = 1 - batch.attention_mask[1, 0]  # ...a different mask: not shared
        fwd.response_logits(tiny_model, batch)
        assert fwd.positions_run() - before == batch.input_ids.numel()
