"""rlvr.rollout.fast: the decode loop and the shared-prefix training forward give the
model's own numbers (log-probs, greedy tokens, logits, gradients), and decline the
models they do not reproduce."""

from __future__ import annotations

import pytest
import torch

from rlvr.rollout.fast import FastDecoder, supports
from rlvr.rollout.hf import HFRollout
from rlvr.train.batch import collate
from rlvr.train.forward import shared_prefix_logits
from rlvr.types import Completion, SamplingParams


def make_model(arch: str, vocab: int, kv_heads: int = 4, seed: int = 0):
    from transformers import AutoModelForCausalLM, LlamaConfig, Qwen2Config

    cls = {"llama": LlamaConfig, "qwen2": Qwen2Config}[arch]
    cfg = cls(vocab_size=vocab, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
              num_key_value_heads=kv_heads, intermediate_size=64, max_position_embeddings=128, tie_word_embeddings=True,
              pad_token_id=0,
              eos_token_id=1, bos_token_id=None)
    torch.manual_seed(seed)
    return AutoModelForCausalLM.from_config(cfg, dtype=torch.float32).eval()


MODELS = [("llama", 4), ("qwen2", 4), ("qwen2", 2)]  # (arch, kv heads): 2 = grouped-query attention


def full_logp(model, prompt, tokens):
    with torch.no_grad():
        lg = model(torch.tensor([prompt + tokens])).logits[0].float().log_softmax(-1)
    return lg[len(prompt) - 1:-1].gather(-1, torch.tensor(tokens)[:, None]).squeeze(-1)


@pytest.mark.parametrize("arch,kv", MODELS)
def test_sampler_logprobs_are_the_models_and_greedy_matches_the_generic_path(arch, kv, tiny_tokenizer):
    model = make_model(arch, len(tiny_tokenizer), kv)
    assert supports(model)
    prompts = [tiny_tokenizer("1+2=")["input_ids"], tiny_tokenizer("12+3-4=?")["input_ids"]]  # unequal: left padding
    comps = HFRollout(model, tiny_tokenizer, seed=3).generate(prompts, SamplingParams(max_new_tokens=10, n=3))
    assert len(comps) == 6
    for i, c in enumerate(comps):
        assert c.prompt_ids == prompts[i // 3]
        assert torch.allclose(full_logp(model, c.prompt_ids, c.token_ids), torch.tensor(c.sampler_logp), atol=1e-5)
    greedy = SamplingParams(max_new_tokens=10, temperature=0, n=2)
    fast = HFRollout(model, tiny_tokenizer, fast=True).generate(prompts, greedy)
    slow = HFRollout(model, tiny_tokenizer, fast=False).generate(prompts, greedy)
    assert [c.token_ids for c in fast] == [c.token_ids for c in slow]
    for a, b in zip(fast, slow):
        assert torch.allclose(torch.tensor(a.sampler_logp), torch.tensor(b.sampler_logp), atol=1e-5)


def test_stopped_rows_are_padded_and_the_loop_ends_when_all_stop(tiny_tokenizer):
    model = make_model("qwen2", len(tiny_tokenizer))
    with torch.no_grad():
        model.lm_head.weight.zero_()  # tied to the embedding: every logit 0 ...
        model.model.norm.weight.zero_()
    ids = torch.tensor([[5, 6, 7]])
    mask = torch.ones_like(ids)
    calls = []

    def pick(logits):  # row 0 stops at once, row 1 at its third token
        calls.append(1)
        t = len(calls) - 1
        tok = torch.tensor([1, 1 if t == 2 else 9])
        return tok, torch.full((2,), -0.5)

    tokens, logps, steps = FastDecoder(model).generate(ids, mask, 2, 8, pick, torch.tensor([1]), pad_id=0)
    assert steps == 3 and len(calls) == 3
    assert tokens.tolist() == [[1, 0, 0], [9, 9, 1]]
    assert logps.tolist() == [[-0.5, 0.0, 0.0], [-0.5, -0.5, -0.5]]


def _batch(tokenizer, prompts: list[str], responses: list[list[str]]):
    comps = []
    for p, group in zip(prompts, responses):
        pid = tokenizer(p)["input_ids"]
        for r in group:
            rid = tokenizer(r)["input_ids"]
            comps.append(Completion(prompt_ids=pid, token_ids=rid, sampler_logp=[0.0] * len(rid),
                                    loss_mask=[True] * len(rid), finish_reason="stop", text=r))
    return collate(comps, tokenizer.pad_token_id)


@pytest.mark.parametrize("arch,kv", MODELS)
def test_shared_prefix_forward_equals_the_plain_forward_in_value_and_gradient(arch, kv, tiny_tokenizer):
    model = make_model(arch, len(tiny_tokenizer), kv).train()
    # two groups, unequal prompt lengths (left padding) and unequal responses (right padding)
    b = _batch(tiny_tokenizer, ["1+2=", "12+3-4=?"], [["3", "<answer>3</answer>", "x"], ["11", "1", "<think>"]])
    P = b.prompt_width
    weights = torch.randn(b.response_ids.shape, generator=torch.Generator().manual_seed(0))

    def loss_and_grads(logits):
        model.zero_grad()
        lp = logits.log_softmax(-1).gather(-1, b.response_ids[..., None]).squeeze(-1)
        ((lp * weights) * b.loss_mask).sum().backward()
        return lp.detach(), {n: p.grad.clone() for n, p in model.named_parameters()}

    out = model(input_ids=b.input_ids, attention_mask=b.attention_mask, position_ids=b.position_ids, use_cache=False)
    lp_ref, g_ref = loss_and_grads(out.logits[:, P - 1:-1].float())
    fast = shared_prefix_logits(model, b.input_ids, b.attention_mask, b.position_ids, P)
    assert fast is not None and fast.shape == (6, b.response_ids.shape[1], len(tiny_tokenizer))
    lp_fast, g_fast = loss_and_grads(fast)
    assert torch.allclose(lp_fast[b.loss_mask], lp_ref[b.loss_mask], atol=1e-5)
    for name, g in g_ref.items():
        assert torch.allclose(g_fast[name], g, atol=1e-5, rtol=1e-4), name


def test_shared_prefix_declines_batches_without_a_shared_prompt_and_unsupported_models(tiny_tokenizer):
    model = make_model("llama", len(tiny_tokenizer))
    b = _batch(tiny_tokenizer, ["1+2=", "3+4="], [["3"], ["7"]])
    assert shared_prefix_logits(model, b.input_ids, b.attention_mask, b.position_ids, b.prompt_width) is None
    shared = _batch(tiny_tokenizer, ["1+2="], [["3", "4"]])
    handle = model.model.layers[0].register_forward_hook(lambda *a: None)  # FSDP, offload, adapters use hooks
    assert not supports(model)
    assert shared_prefix_logits(model, shared.input_ids, shared.attention_mask, shared.position_ids, 4) is None
    handle.remove()
    assert supports(model)
    # transformers >= 5 names it activation checkpointing (the old name warns it will go)
    enable = getattr(model, "activation_checkpointing_enable", None) or model.gradient_checkpointing_enable
    enable()
    assert shared_prefix_logits(model, shared.input_ids, shared.attention_mask, shared.position_ids, 4) is None


def test_supports_rejects_what_it_does_not_reproduce(tiny_tokenizer):
    from transformers import AutoModelForCausalLM, GPT2Config, Qwen2Config

    assert not supports(AutoModelForCausalLM.from_config(GPT2Config(n_layer=1, n_embd=16, n_head=2, vocab_size=50)))
    windowed = Qwen2Config(vocab_size=50, hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
                           num_key_value_heads=2, intermediate_size=32, use_sliding_window=True, sliding_window=4,
                           max_window_layers=0)
    assert not supports(AutoModelForCausalLM.from_config(windowed))
    model = make_model("qwen2", len(tiny_tokenizer))
    model.model.layers[1].mlp.up_proj = torch.nn.Sequential(model.model.layers[1].mlp.up_proj)  # an adapter-like wrap
    assert not supports(model)


@pytest.mark.parametrize("arch,kv", MODELS)
def test_dropping_finished_rows_keeps_greedy_tokens_and_the_models_logprobs(arch, kv, tiny_tokenizer):
    """Rows that stop leave the batch (their caches and masks too); the rows still running decode
    exactly as before: greedy tokens equal, sampled tokens scored by the model's own log-probs."""
    model = make_model(arch, len(tiny_tokenizer), kv, seed=5)
    prompts = [tiny_tokenizer("1+2=")["input_ids"], tiny_tokenizer("12+3-4=?")["input_ids"],
               tiny_tokenizer("7=")["input_ids"]]
    eos = tiny_tokenizer.eos_token_id
    plain = HFRollout(model, tiny_tokenizer).generate(prompts, SamplingParams(max_new_tokens=16, temperature=0))
    stop = plain[0].token_ids[2]  # the first row stops at its third token, others later or never
    greedy = SamplingParams(max_new_tokens=16, temperature=0, n=2, stop_token_ids=(stop,))
    keep = HFRollout(model, tiny_tokenizer).generate(prompts, greedy)
    drop = HFRollout(model, tiny_tokenizer, drop_finished=True).generate(prompts, greedy)
    assert [c.token_ids for c in drop] == [c.token_ids for c in keep]
    lengths = {len(c.token_ids) for c in keep}
    assert len(lengths) > 1, "rows should stop at different steps for the test to drop any"
    sampled = HFRollout(model, tiny_tokenizer, seed=1, drop_finished=True).generate(
        prompts, SamplingParams(max_new_tokens=16, temperature=1.0, n=4, stop_token_ids=(stop,)))
    assert {len(c.token_ids) for c in sampled} != {16} and all(c.token_ids for c in sampled)
    for c in sampled:
        stops = [j for j, t in enumerate(c.token_ids) if t in (stop, eos)]
        assert not stops or stops[0] == len(c.token_ids) - 1  # nothing after the stop token
        assert torch.allclose(full_logp(model, c.prompt_ids, c.token_ids), torch.tensor(c.sampler_logp), atol=1e-5)


def test_shared_layout_moves_the_common_prefix_before_the_padding():
    from rlvr.rollout.hf import shared_layout

    ids, mask, c = shared_layout([[5, 6, 7, 8], [5, 6, 9], [5, 6, 7, 3, 4]], pad_id=0, device="cpu")
    assert c == 2  # [5, 6]; [5, 6, 7] is not common to all three
    assert ids.tolist() == [[5, 6, 0, 7, 8], [5, 6, 0, 0, 9], [5, 6, 7, 3, 4]]
    assert mask.tolist() == [[1, 1, 0, 1, 1], [1, 1, 0, 0, 1], [1, 1, 1, 1, 1]]
    # each prompt keeps its last token after the prefix, even when one prompt is the prefix of another
    assert shared_layout([[5, 6], [5, 6, 7]], 0, "cpu")[2] == 1
    assert shared_layout([[5, 6, 7]], 0, "cpu")[2] == 0  # one prompt: nothing to share
    assert shared_layout([[1, 2], [3, 2]], 0, "cpu")[2] == 0


@pytest.mark.parametrize("arch,kv", MODELS)
def test_a_shared_prefix_prefilled_once_gives_the_same_tokens_and_logprobs(arch, kv, tiny_tokenizer):
    """Prompts that start alike: the common part prefilled once (one row) and the rest of each
    prompt attending to it gives the same greedy tokens and log-probabilities as prefilling
    every prompt whole, and sampled tokens are scored by the model's own forward."""
    from rlvr.rollout.hf import left_pad, sample_next, shared_layout

    model = make_model(arch, len(tiny_tokenizer), kv, seed=2)
    head = tiny_tokenizer("Question: what is")["input_ids"]
    prompts = [head + tiny_tokenizer(t)["input_ids"] for t in (" 1+2=", " 12+3-4=?", " 7=")]
    ids, mask, c = shared_layout(prompts, tiny_tokenizer.pad_token_id, "cpu")
    assert c >= len(head)
    stop = torch.tensor([tiny_tokenizer.eos_token_id])

    def greedy(logits):
        return sample_next(logits, 0.0, 1.0, None)

    dec = FastDecoder(model)
    shared = dec.generate(ids, mask, 2, 12, greedy, stop, 0, shared=c)
    pids, pmask = left_pad(prompts, tiny_tokenizer.pad_token_id, "cpu")
    plain = dec.generate(pids, pmask, 2, 12, greedy, stop, 0)
    assert shared[2] == plain[2] and torch.equal(shared[0], plain[0])
    assert torch.allclose(shared[1], plain[1], atol=1e-5)
    with pytest.raises(ValueError, match="same tokens"):
        dec.generate(pids, pmask, 1, 2, greedy, stop, 0, shared=c)  # left padding: not a shared layout
    comps = HFRollout(model, tiny_tokenizer, seed=4).generate(prompts, SamplingParams(max_new_tokens=10, n=3))
    for i, comp in enumerate(comps):
        assert comp.prompt_ids == prompts[i // 3]
        assert torch.allclose(full_logp(model, comp.prompt_ids, comp.token_ids), torch.tensor(comp.sampler_logp),
                              atol=1e-5)
