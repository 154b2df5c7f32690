"""A CPU stand-in for the slice of vLLM's offline API that ``rlvr.rollout.vllm`` uses.

``fake_vllm_module()`` returns an object with ``LLM`` and ``SamplingParams`` attributes, to be
injected as ``VLLMRollout(..., vllm_module=fake_vllm_module())``. The fake mirrors the
documented shapes of vLLM's objects:

- ``LLM(model=DIR, **engine_kwargs)``; ``generate(prompts, sampling_params, use_tqdm)`` with
  prompts as ``{"prompt_token_ids": [...]}`` dicts and one ``SamplingParams`` or one per
  prompt; it returns one ``RequestOutput`` per prompt, in order, whose ``outputs`` hold ``n``
  ``CompletionOutput`` (``token_ids`` ending in the stop token when one was sampled,
  ``logprobs`` as a list of ``{token_id: Logprob}`` when ``logprobs`` is not None,
  ``finish_reason`` "stop" or "length").
- ``collective_rpc(method, args=(), kwargs=None)`` calls the worker method named ``method`` (or
  ``method(worker, *args)`` for a callable) on its one worker, whose class has the
  ``worker_extension_cls`` engine argument mixed in, as vLLM does; the worker's
  ``model_runner.model.load_weights(weights)`` takes ``(name, tensor)`` pairs in Hugging
  Face naming; ``reset_prefix_cache()``.
- the worker's ``reload_weights(weights_iterator, is_checkpoint_format)`` (vLLM's in-place
  reload; with no iterator, the checkpoint the engine started from); prompt log-probabilities
  (``SamplingParams(prompt_logprobs=0)``: ``RequestOutput.prompt_logprobs``, None first).

It is kept for what a real engine cannot be made to do on demand: return a malformed output
(no log-probabilities, an aborted completion), or run where vLLM is not installed. Everything
else is tested against the real engine (tests/rollout/test_vllm_real.py).

The engine keeps its OWN copy of the weights (loaded from ``model``), so a missed weight
push really generates from stale weights. It samples with the hf backend's sampler, so its
log-probabilities equal the trainer's when the weights agree.

What it deliberately does not do: paged attention, batching across requests, stop strings,
prompt logprobs, top-k, penalties, or the many other ``SamplingParams`` fields (an unknown
one raises ``TypeError``, as a dataclass would).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import torch


@dataclass
class SamplingParams:
    n: int = 1
    temperature: float = 1.0
    top_p: float = 1.0
    max_tokens: int | None = 16
    stop_token_ids: list[int] | None = None
    logprobs: int | None = None
    seed: int | None = None
    detokenize: bool = True
    prompt_logprobs: int | None = None


@dataclass
class Logprob:
    logprob: float
    rank: int | None = None
    decoded_token: str | None = None


@dataclass
class CompletionOutput:
    index: int
    text: str
    token_ids: list[int]
    cumulative_logprob: float | None
    logprobs: list[dict[int, Logprob]] | None
    finish_reason: str | None
    stop_reason: int | str | None = None


@dataclass
class RequestOutput:
    request_id: str
    prompt_token_ids: list[int]
    outputs: list[CompletionOutput]
    finished: bool = True
    prompt_logprobs: list | None = None


class FakeModel:
    """The engine-side model: ``load_weights`` copies (name, tensor) pairs by HF name."""

    def __init__(self, module):
        self.module = module
        self.loads = 0
        self.initial = {k: v.clone() for k, v in module.state_dict().items()}

    def load_weights(self, weights: Iterable[tuple[str, torch.Tensor]]) -> set[str]:
        params = dict(self.module.named_parameters(remove_duplicate=False))  # tied weights under both names
        params.update(dict(self.module.named_buffers(remove_duplicate=False)))
        loaded = set()
        with torch.no_grad():
            for name, tensor in weights:
                if name not in params:
                    raise KeyError(f"fake engine: no parameter named {name!r}")
                params[name].copy_(tensor.to(params[name].device, params[name].dtype))
                loaded.add(name)
        self.loads += 1
        return loaded


@dataclass
class FakeWorker:
    model_runner: Any

    def reload_weights(self, weights_iterator=None, is_checkpoint_format: bool = True) -> None:
        """vLLM's in-place reload; without an iterator, the checkpoint the engine was started from."""
        model = self.model_runner.model
        if weights_iterator is None:
            weights_iterator = model.initial.items()
        model.load_weights(weights_iterator)


def _worker_class(extension: str | None) -> type:
    """FakeWorker with the extension class (a dotted name) mixed in, as vLLM mixes it into its workers."""
    if not extension:
        return FakeWorker
    import importlib

    module, name = extension.rsplit(".", 1)
    return type("ExtendedFakeWorker", (FakeWorker, getattr(importlib.import_module(module), name)), {})


class LLM:
    """A tiny vLLM-like engine over a Hugging Face model directory, on CPU."""

    def __init__(self, model: str, **engine_kwargs):
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.init_kwargs = {"model": model, **engine_kwargs}
        self.tokenizer = AutoTokenizer.from_pretrained(engine_kwargs.get("tokenizer") or model)
        module = AutoModelForCausalLM.from_pretrained(model, dtype=torch.float32)
        module.eval()
        self.worker = _worker_class(engine_kwargs.get("worker_extension_cls"))(
            model_runner=types.SimpleNamespace(model=FakeModel(module)))
        self.prefix_cache_resets = 0
        self.requests: list[tuple[list[int], SamplingParams]] = []

    @property
    def model(self) -> FakeModel:
        return self.worker.model_runner.model

    def collective_rpc(self, method: Callable | str, timeout: float | None = None, args: tuple = (),
                       kwargs: dict | None = None) -> list:
        fn = getattr(self.worker, method) if isinstance(method, str) else (lambda *a, **k: method(self.worker, *a, **k))
        return [fn(*args, **(kwargs or {}))]

    def reset_prefix_cache(self) -> bool:
        self.prefix_cache_resets += 1
        return True

    def generate(self, prompts: list[dict], sampling_params=None, use_tqdm: bool = True) -> list[RequestOutput]:
        if isinstance(sampling_params, (list, tuple)):
            if len(sampling_params) != len(prompts):
                raise ValueError(f"{len(prompts)} prompts but {len(sampling_params)} sampling params")
            per_prompt = list(sampling_params)
        else:
            per_prompt = [sampling_params or SamplingParams()] * len(prompts)
        return [self._one(str(i), p["prompt_token_ids"], sp) for i, (p, sp) in enumerate(zip(prompts, per_prompt))]

    def _one(self, request_id: str, prompt_ids: list[int], sp: SamplingParams) -> RequestOutput:
        from rlvr import types as rtypes
        from rlvr.rollout.hf import HFRollout

        self.requests.append((list(prompt_ids), sp))
        prompt_lp = None if sp.prompt_logprobs is None else self._prompt_logprobs(prompt_ids)
        seed = sp.seed if sp.seed is not None else 0
        sampler = HFRollout(self.model.module, self.tokenizer, seed=seed)
        ours = rtypes.SamplingParams(max_new_tokens=sp.max_tokens or 16, temperature=sp.temperature, top_p=sp.top_p,
                                     n=sp.n, stop_token_ids=tuple(sp.stop_token_ids or ()))
        outs = []
        for j, c in enumerate(sampler.generate([list(prompt_ids)], ours)):
            lps = None if sp.logprobs is None else [{t: Logprob(lp, 1)} for t, lp in zip(c.token_ids, c.sampler_logp)]
            by_stop_token = c.finish_reason == "stop" and c.token_ids[-1] != self.tokenizer.eos_token_id
            stop_reason = c.token_ids[-1] if by_stop_token else None
            outs.append(CompletionOutput(index=j, text=c.text if sp.detokenize else "", token_ids=list(c.token_ids),
                                         cumulative_logprob=sum(c.sampler_logp), logprobs=lps,
                                         finish_reason=c.finish_reason, stop_reason=stop_reason))
        return RequestOutput(request_id=request_id, prompt_token_ids=list(prompt_ids), outputs=outs,
                             prompt_logprobs=prompt_lp)

    def _prompt_logprobs(self, ids: list[int]) -> list:
        with torch.no_grad():
            lp = self.model.module(torch.tensor([ids])).logits[0].float().log_softmax(-1)
        return [None] + [{t: Logprob(float(lp[i - 1, t]), 1)} for i, t in enumerate(ids) if i > 0]


def fake_vllm_module():
    """An object standing in for ``import vllm`` (``LLM``, ``SamplingParams``)."""
    return types.SimpleNamespace(LLM=LLM, SamplingParams=SamplingParams, __name__="fake_vllm")
