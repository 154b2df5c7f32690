"""The algo functions on a CUDA device agree with the CPU (skipped without a GPU)."""

import pytest
import torch

from rlvr import algo

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU"),
]


def _inputs():
    g = torch.Generator().manual_seed(0)
    B, T, V = 8, 6, 11
    logits = torch.randn(B, T, V, generator=g)
    logp = torch.randn(B, T, generator=g) * 0.3 - 1.0
    old = logp + 0.1 * torch.randn(B, T, generator=g)
    ref = logp + 0.1 * torch.randn(B, T, generator=g)
    sampler = old + 0.1 * torch.randn(B, T, generator=g)
    mask = torch.arange(T).unsqueeze(0) < torch.tensor([6, 1, 3, 4, 2, 6, 5, 3]).unsqueeze(1)
    rewards = torch.tensor([1.0, 0, 1, 1, 0, 0, 0, 0])
    group_ids = torch.tensor([0, 0, 0, 0, 1, 1, 1, 1])
    return dict(logits=logits, logp=logp, old=old, ref=ref, sampler=sampler, mask=mask, rewards=rewards,
                group_ids=group_ids)


def _run(d, device, dtype):
    d = {k: v.to(device) for k, v in d.items()}
    adv = algo.group_advantages(d["rewards"], d["group_ids"], "grpo")
    ent = algo.token_entropy(d["logits"].to(dtype), chunk_size=4)
    logp = d["logp"].detach().to(dtype).clone().requires_grad_()
    norm = algo.loss_normalizer(d["mask"], "token_mean").cpu()  # a CPU normaliser must be accepted
    loss, stats = algo.policy_loss(logp, d["old"].to(dtype), adv, d["mask"], algorithm="dapo", ref_logp=d["ref"],
                                   entropy=ent, sampler_logp=d["sampler"], normalizer=norm, kl_coef=0.1,
                                   entropy_coef=0.01, tis_cap=2.0, dual_clip=3.0)
    loss.backward()
    vals, rets = algo.gae_advantages(algo.terminal_token_rewards(d["rewards"], d["mask"]), d["old"], d["mask"],
                                     1.0, 0.95)
    vloss, _ = algo.value_loss(d["old"], d["ref"], rets, d["mask"], clip=0.2)
    keep = algo.DynamicSampler(target=1, max_rounds=2).add(d["rewards"], d["group_ids"])
    return {"adv": adv, "loss": loss, "grad": logp.grad.float(), "ent": ent, "gae": vals, "vloss": vloss,
            "keep": keep, **{f"s_{k}": v for k, v in stats.items()}}


@pytest.mark.parametrize("dtype, atol", [(torch.float32, 1e-5), (torch.bfloat16, 3e-2)])
def test_cuda_matches_cpu(dtype, atol):
    d = _inputs()
    cpu = _run(d, "cpu", torch.float32)
    gpu = _run(d, "cuda", dtype)
    for k, v in cpu.items():
        got = gpu[k].cpu()
        if v.dtype == torch.bool:
            assert torch.equal(got, v), k
        else:
            assert torch.allclose(got.float(), v.float(), atol=atol, rtol=atol), k
