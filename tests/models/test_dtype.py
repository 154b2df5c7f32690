"""model.dtype=auto: AMX detection, the precision rule, and the bf16 paths of the sampler and the
training forward (float32 master weights and gradients; float32 head, log-softmax and loss).

The bf16 paths run on any CPU (autocast works without AMX, only slower), so they are tested
everywhere; the fp32 path is what every other test runs."""

from __future__ import annotations

import pytest
import torch

from rlvr.config import load_config
from rlvr.models import precision as prec
from rlvr.models.precision import FP32, Precision, choose, has_amx_bf16, precision_of, set_precision
from rlvr.train import forward as fwd
from rlvr.train.batch import collate
from rlvr.types import Completion

AMX_CPUINFO = """processor\t: 0
vendor_id\t: GenuineIntel
flags\t\t: fpu vme avx512f avx512_bf16 amx_bf16 avx512_fp16 amx_tile amx_int8
"""
NO_AMX_CPUINFO = """processor\t: 0
flags\t\t: fpu vme avx2 avx512f avx512_bf16
"""
ARM_CPUINFO = "processor\t: 0\nFeatures\t: fp asimd bf16 sve\n"
BF16 = Precision(train_bf16=True, generate_bf16=True)


def test_amx_detection_reads_the_flags():
    assert has_amx_bf16(AMX_CPUINFO) is True
    assert has_amx_bf16(NO_AMX_CPUINFO) is False  # AVX-512-BF16 alone is not AMX
    assert has_amx_bf16(ARM_CPUINFO) is False
    assert has_amx_bf16("") is False


def test_the_rule_turns_bf16_on_only_for_auto_on_an_amx_cpu_and_a_wide_model():
    cpu, cuda = torch.device("cpu"), torch.device("cuda")
    assert choose("auto", cpu, 576, amx=True) == BF16  # SmolLM2-135M
    assert choose("auto", cpu, 128, amx=True) == FP32  # the demo's tiny model: bf16 measured slower
    assert choose("auto", cpu, 576, amx=False) == FP32  # no AMX: fp32 as before
    assert choose("float32", cpu, 576, amx=True) == FP32  # forced
    assert choose("bfloat16", cpu, 576, amx=True) == FP32  # bf16 weights themselves, no autocast on top
    assert choose("auto", cuda, 576, amx=True) == FP32  # CUDA: bf16 weights, as before
    assert choose("autocast", cpu, 128, amx=False) == BF16  # forced, for measuring


def _tiny(hidden=32, seed=0):
    from transformers import AutoModelForCausalLM, LlamaConfig

    cfg = LlamaConfig(vocab_size=48, hidden_size=hidden, num_hidden_layers=2, num_attention_heads=4,
                      num_key_value_heads=2, intermediate_size=2 * hidden, max_position_embeddings=64,
                      tie_word_embeddings=True, pad_token_id=0, eos_token_id=1, bos_token_id=None)
    torch.manual_seed(seed)
    return AutoModelForCausalLM.from_config(cfg, dtype=torch.float32)


@pytest.mark.parametrize("amx", [True, False])
def test_load_policy_attaches_the_precision(tiny_model_dir, monkeypatch, amx):
    from rlvr.models.loading import load_policy

    monkeypatch.setattr(prec, "has_amx_bf16", lambda cpuinfo=None: amx)
    monkeypatch.setattr(prec, "BF16_MIN_HIDDEN", 16)  # the fixture's model is 32 wide
    model, _ = load_policy(tiny_model_dir, load_config(overrides=["model.device=cpu"]))
    assert precision_of(model) == (BF16 if amx else FP32)
    assert all(p.dtype == torch.float32 for p in model.parameters())  # master weights stay fp32
    forced, _ = load_policy(tiny_model_dir, load_config(overrides=["model.device=cpu", "model.dtype=float32"]))
    assert precision_of(forced) == FP32


def _batch(V=48, P=5, R=6, G=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    comps = []
    for u in range(2):
        prompt = torch.randint(3, V, (P - u,), generator=g).tolist()
        for i in range(G):
            n = R - i
            comps.append(Completion(prompt_ids=prompt, token_ids=torch.randint(3, V, (n,), generator=g).tolist(),
                                    sampler_logp=[0.0] * n, loss_mask=[True] * n, finish_reason="stop", text=""))
    return collate(comps, 0)


def test_bf16_training_forward_keeps_fp32_head_loss_and_gradients(monkeypatch):
    model = _tiny()
    batch = _batch()
    ref_logp, _ = fwd.response_logp_entropy(model, batch, 1.0)
    ref_logp = ref_logp.detach()
    seen = []
    inner = fwd._slice_logp_entropy_fp32

    def spy(h, weight, bias, targets, temperature, entropy_grad):
        seen.append((h.dtype, weight.dtype, torch.is_autocast_enabled("cpu")))
        return inner(h, weight, bias, targets, temperature, entropy_grad)

    monkeypatch.setattr(fwd, "_slice_logp_entropy_fp32", spy)
    set_precision(model, BF16)
    logp, ent = fwd.response_logp_entropy(model, batch, 1.0)
    assert seen and all(s == (torch.float32, torch.float32, False) for s in seen)  # no bf16 logits
    assert logp.dtype == ent.dtype == torch.float32
    mask = batch.loss_mask
    gap = (logp.detach() - ref_logp).abs()[mask]
    assert 0 < float(gap.max()) < 0.05  # bf16 layers: close to fp32, not equal
    (logp * mask).sum().backward()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    assert grads and all(g.dtype == torch.float32 for g in grads)
    assert all(p.dtype == torch.float32 for p in model.parameters())


def test_bf16_sampler_matches_the_bf16_trainer_closer_than_fp32(tiny_tokenizer):
    from rlvr.rollout.fast import FastDecoder

    model = _tiny().eval()
    ids = torch.randint(3, 48, (2, 5), generator=torch.Generator().manual_seed(1))
    mask = torch.ones_like(ids)
    mask[1, :2] = 0  # left padding: a fully masked query row must stay finite under bf16
    picked = []

    def pick(logits):
        picked.append(logits.dtype)
        lp = torch.log_softmax(logits, -1)
        return lp.argmax(-1), lp.max(-1).values

    out = {}
    for bf16 in (False, True):
        tokens, logps, steps = FastDecoder(model, bf16=bf16).generate(ids, mask, 3, 6, pick, torch.tensor([-1]), 0)
        out[bf16] = (tokens, logps)
        assert torch.isfinite(logps).all()
    assert set(picked) == {torch.float32}  # the head runs in fp32 in both precisions
    comps = [Completion(prompt_ids=ids[i // 3][mask[i // 3].bool()].tolist(), token_ids=out[True][0][i].tolist(),
                        sampler_logp=out[True][1][i].tolist(), loss_mask=[True] * 6, finish_reason="length", text="")
             for i in range(6)]
    batch = collate(comps, 0)
    set_precision(model, BF16)
    with torch.no_grad():
        trainer_bf16 = fwd.response_logp_entropy(model, batch, 1.0)[0]
    set_precision(model, FP32)
    with torch.no_grad():
        trainer_fp32 = fwd.response_logp_entropy(model, batch, 1.0)[0]
    gap_bf16 = (trainer_bf16 - batch.sampler_logp).abs().max()
    gap_fp32 = (trainer_fp32 - batch.sampler_logp).abs().max()
    assert float(gap_bf16) < 0.05 and float(gap_fp32) > 0  # the mismatch metrics measure this gap
