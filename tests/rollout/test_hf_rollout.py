"""The hf backend: shapes, finish reasons, and that its logprobs are the model's."""

import torch

from rlvr.rollout.hf import HFRollout, sample_next
from rlvr.types import SamplingParams


def _full_logp(model, prompt, tokens):
    with torch.no_grad():
        lg = model(torch.tensor([prompt + tokens])).logits[0].float().log_softmax(-1)
    P = len(prompt)
    return lg[P - 1:-1].gather(-1, torch.tensor(tokens)[:, None]).squeeze(-1)


def test_generate_groups_logprobs_and_finish(tiny_model, tiny_tokenizer):
    r = HFRollout(tiny_model, tiny_tokenizer, seed=0)
    prompts = [tiny_tokenizer("1+2=")["input_ids"], tiny_tokenizer("12+3-4=?")["input_ids"]]  # unequal: left padding
    comps = r.generate(prompts, SamplingParams(max_new_tokens=12, temperature=1.0, n=3))
    assert len(comps) == 6
    for i, c in enumerate(comps):
        assert c.prompt_ids == prompts[i // 3]
        assert 1 <= len(c.token_ids) <= 12
        assert c.finish_reason == ("stop" if c.token_ids[-1] == tiny_tokenizer.eos_token_id else "length")
        assert tiny_tokenizer.eos_token_id not in c.token_ids[:-1]
        assert all(c.loss_mask)
        # the sampler's logprobs equal a plain forward pass over prompt + response
        assert torch.allclose(_full_logp(tiny_model, c.prompt_ids, c.token_ids), torch.tensor(c.sampler_logp),
                              atol=1e-4)


def test_greedy_is_deterministic_and_seeded_sampling_repeats(tiny_model, tiny_tokenizer):
    prompts = [tiny_tokenizer("3-1=")["input_ids"]]
    g1 = HFRollout(tiny_model, tiny_tokenizer).generate(prompts, SamplingParams(max_new_tokens=8, temperature=0, n=2))
    assert g1[0].token_ids == g1[1].token_ids
    s1 = HFRollout(tiny_model, tiny_tokenizer, seed=5).generate(prompts, SamplingParams(max_new_tokens=8, n=4))
    s2 = HFRollout(tiny_model, tiny_tokenizer, seed=5).generate(prompts, SamplingParams(max_new_tokens=8, n=4))
    assert [c.token_ids for c in s1] == [c.token_ids for c in s2]


def test_top_p_keeps_only_the_nucleus():
    logits = torch.log(torch.tensor([[0.5, 0.3, 0.15, 0.05]]))
    gen = torch.Generator().manual_seed(0)
    picks = {int(sample_next(logits, 1.0, 0.7, gen)[0]) for _ in range(300)}
    assert picks == {0, 1}  # 0.5 + 0.3 >= 0.7: tokens 2 and 3 are never drawn
    tok, lp = sample_next(logits, 0.0, 1.0, gen)
    assert int(tok) == 0 and abs(float(lp) - torch.log(torch.tensor(0.5)).item()) < 1e-6
