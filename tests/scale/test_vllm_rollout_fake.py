"""The vllm backend against the fake engine (rlvr.rollout.fake_engine), where vLLM is not needed.

The real engine is tested in tests/rollout/test_vllm_real.py (vLLM's CPU build). Here: what a
real engine cannot be made to do (malformed outputs), and the backend's own logic on any
machine, vLLM installed or not: how the engine is built, pushes and prefix-cache resets,
version tags, stale-weight detection, the probe check, and a short synchronous run.
"""

from __future__ import annotations

import importlib.util

import pytest
import torch

from rlvr.config import load_config
from rlvr.errors import ConfigError
from rlvr.rollout.fake_engine import CompletionOutput, Logprob, fake_vllm_module
from rlvr.rollout.vllm import VLLMRollout, trainer_weights
from rlvr.types import SamplingParams


@pytest.fixture()
def policy(vllm_model_dir):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    return AutoModelForCausalLM.from_pretrained(vllm_model_dir), AutoTokenizer.from_pretrained(vllm_model_dir)


def _cfg(*extra):
    return load_config(preset="smoke", overrides=["algo.tis_cap=2.0", "model.device=cpu", *extra])


def _engine_matches(rollout, model) -> bool:
    engine = dict(rollout.llm.model.module.state_dict())
    return all(torch.equal(engine[k], v) for k, v in model.state_dict().items())


def _trainer_logp(model, c) -> torch.Tensor:
    with torch.no_grad():
        lg = model(torch.tensor([c.prompt_ids + c.token_ids])).logits[0].float().log_softmax(-1)
    P = len(c.prompt_ids)
    return lg[P - 1:-1].gather(-1, torch.tensor(c.token_ids)[:, None]).squeeze(-1)


def _perturb(model):
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    model(torch.tensor([[5, 6, 7]])).logits.sum().backward()
    opt.step()  # an in-place optimizer update, as in training


def test_engine_is_built_with_processed_logprobs_and_receives_the_weights(policy, vllm_model_dir):
    model, tok = policy
    r = VLLMRollout(_cfg("rollout.vllm_kwargs={enforce_eager: true}"), model, tok, vllm_module=fake_vllm_module())
    kw = r.llm.init_kwargs
    assert kw["model"] == str(vllm_model_dir) and kw["tokenizer"] == str(vllm_model_dir)
    assert kw["logprobs_mode"] == "processed_logprobs" and kw["dtype"] == "float32"
    assert kw["enable_prefix_caching"] is True and kw["enforce_eager"] is True
    assert kw["worker_extension_cls"] == "rlvr.rollout.vllm_engine.WorkerExtension"
    assert hasattr(r.llm.worker, "rlvr_push")  # the push went through collective_rpc by method name
    assert r.version == 0 and r.llm.prefix_cache_resets == 1 and _engine_matches(r, model)


def test_generate_groups_tags_and_returns_the_samplers_logprobs(policy):
    model, tok = policy
    r = VLLMRollout(_cfg(), model, tok, vllm_module=fake_vllm_module())
    prompts = [tok("1+2=")["input_ids"], tok("12+3-4=?")["input_ids"]]
    comps = r.generate(prompts, SamplingParams(max_new_tokens=10, temperature=1.0, n=3, stop_token_ids=(9,)))
    assert len(comps) == 6 and [c.prompt_ids for c in comps] == [prompts[0]] * 3 + [prompts[1]] * 3
    sent = [sp for _, sp in r.llm.requests if sp.prompt_logprobs is None]  # not the probe
    assert ([(sp.n, sp.logprobs, sp.max_tokens, sp.detokenize, sp.stop_token_ids) for sp in sent]
            == [(3, 0, 10, False, [9])] * 2)
    assert sent[0].seed != sent[1].seed  # one seed per prompt, drawn from the checkpointed generator
    for c in comps:
        assert c.policy_version == 0 and all(c.loss_mask)
        assert c.finish_reason == ("stop" if c.token_ids[-1] in (tok.eos_token_id, 9) else "length")
        assert torch.allclose(torch.tensor(c.sampler_logp), _trainer_logp(model, c), atol=1e-4)
        shown = c.token_ids[:-1] if c.token_ids[-1] == tok.eos_token_id else c.token_ids
        assert c.text == tok.decode(shown, skip_special_tokens=False)


def test_stale_weights_raise_then_sync_fixes_them(policy):
    model, tok = policy
    r = VLLMRollout(_cfg(), model, tok, vllm_module=fake_vllm_module())
    sp = SamplingParams(max_new_tokens=6, n=2)
    prompt = [tok("7-2=")["input_ids"]]
    _perturb(model)
    with pytest.raises(RuntimeError, match="stale weights"):
        r.generate(prompt, sp)
    r.sync_weights()
    assert r.version == 1 and r.llm.prefix_cache_resets == 2 and _engine_matches(r, model)
    c = r.generate(prompt, sp)[0]
    assert c.policy_version == 1
    assert torch.allclose(torch.tensor(c.sampler_logp), _trainer_logp(model, c), atol=1e-4)


def test_stale_weights_can_warn_and_are_counted(policy):
    model, tok = policy
    r = VLLMRollout(_cfg("rollout.vllm_on_stale=warn"), model, tok, vllm_module=fake_vllm_module())
    _perturb(model)
    with pytest.warns(UserWarning, match="stale weights"):
        comps = r.generate([tok("7-2=")["input_ids"]], SamplingParams(max_new_tokens=8, n=4))
    assert r.stale_calls == 1 and comps[0].policy_version == 0
    gap = max(float((torch.tensor(c.sampler_logp) - _trainer_logp(model, c)).abs().max()) for c in comps)
    assert gap > 1e-3  # the engine really sampled from the old weights: the trainer sees the mismatch


def test_worker_mode_loads_a_sent_state_dict(policy, vllm_model_dir):
    model, tok = policy
    r = VLLMRollout(_cfg(), None, tok, model_path=vllm_model_dir, vllm_module=fake_vllm_module())
    assert r.llm.prefix_cache_resets == 0  # nothing pushed: no trainer module in this process
    _perturb(model)
    r.sync_weights(dict(trainer_weights(model)))
    assert r.version == 1 and _engine_matches(r, model)
    r.generate([tok("1+1=")["input_ids"]], SamplingParams(max_new_tokens=4))  # no staleness check without a module


@pytest.mark.parametrize("field, value, message", [
    ("logprobs", None, "log-probabilities"),
    ("finish_reason", "abort", "abort"),
])
def test_malformed_engine_output_fails_loud(policy, field, value, message):
    model, tok = policy
    r = VLLMRollout(_cfg(), model, tok, vllm_module=fake_vllm_module())
    good = CompletionOutput(0, "", [5, 6], -1.0, [{5: Logprob(-0.5)}, {6: Logprob(-0.5)}], "stop")
    setattr(good, field, value)
    with pytest.raises(RuntimeError, match=message):
        r._completion([1], good)


def test_lora_is_refused(policy):
    model, tok = policy
    with pytest.raises(ConfigError, match="LoRA"):
        VLLMRollout(_cfg("model.lora_r=4"), model, tok, vllm_module=fake_vllm_module())


def test_missing_tis_cap_warns(policy):
    model, tok = policy
    with pytest.warns(UserWarning, match="algo.tis_cap"):
        VLLMRollout(load_config(preset="smoke", overrides=["model.device=cpu"]), model, tok,
                    vllm_module=fake_vllm_module())


@pytest.mark.skipif(importlib.util.find_spec("vllm") is not None, reason="vllm is installed")
def test_without_vllm_the_backend_is_a_one_line_config_error(policy):
    from rlvr.rollout.build import build_rollout

    model, tok = policy
    with pytest.raises(ConfigError, match="needs vLLM"):
        build_rollout(_cfg("rollout.backend=vllm"), model, tok)
