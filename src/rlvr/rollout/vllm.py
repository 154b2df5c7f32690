"""The `vllm` rollout backend: generation with a vLLM engine, weights pushed from the trainer.

UNCHECKED ON GPU: this module is written against vLLM's documented offline API and is
tested on CPU only, against ``rlvr.rollout.fake_engine`` (a stand-in implementing the same
calls). See docs/scaling.md for what is and is not checked.

Two placements, one class:
- colocated (``model`` given): the engine lives in the trainer's process and shares its GPU
  (``rollout.vllm_gpu_memory_utilization``). ``sync_weights()`` pushes the trainer's current
  parameters after every optimizer step;
- in a Ray rollout worker (``model=None``, async mode): ``sync_weights(state)`` loads a state
  dict sent by the trainer.

Weights reach the engine's model through ``model.load_weights([(hf_name, tensor), ...])``:
directly when the engine runs in this process (``llm.llm_engine.model_executor.driver_worker
.model_runner.model``, vLLM's in-process executors; no copy), else through
``llm.collective_rpc("rlvr_load_weights", args=(weights,))`` on every worker (recent vLLM;
tensors go through CPU). That method comes from ``WorkerExtension``, which the engine is
built with (``worker_extension_cls``), so no function has to be pickled across processes.
The prefix cache is reset after every push, since its KV blocks were computed by old weights.

Versions: ``version`` counts pushes; each completion carries the version it was generated
from. When the backend holds the trainer's module, ``generate`` also checks that the
parameters were not modified since the last push (torch's per-tensor version counters, which
every in-place optimizer update bumps): generation from stale weights raises, or warns and is
counted in ``stale_calls`` (``rollout.vllm_on_stale``).

Log-probabilities: ``SamplingParams(logprobs=0)`` returns the sampled token's log-probability
and the engine is built with ``logprobs_mode="processed_logprobs"`` (after temperature; after
top-p too, which the hf backend leaves out, so the two agree at top_p = 1). They still differ
from the trainer's (other kernels, bf16): the trainer logs ``logp_mismatch`` and ``mismatch/*``
(sampler against its own policy at the step's start) and corrects with ``algo.mismatch_correction``
or the truncated importance weight ``algo.tis_cap`` (a warning says so when neither is set).
With ``rollout.top_p < 1`` vLLM's log-probabilities are of the truncated, renormalised
distribution, the trainer's of the full one: the ``mismatch/*`` numbers then include
log(1 / kept mass) on every token besides the numerical gap (a warning says so).

What it deliberately does not do: stop strings, tool calls, LoRA adapters, sleep mode,
NCCL weight broadcast to engines on other GPUs (see docs/scaling.md).
"""

from __future__ import annotations

import importlib
import time
import warnings
from pathlib import Path

import torch

from rlvr.errors import ConfigError
from rlvr.types import Completion, SamplingParams

_DIRECT_PATHS = ("llm_engine.model_executor.driver_worker.model_runner.model",
                 "llm_engine.model_executor.driver_worker.worker.model_runner.model")


def import_vllm():
    try:
        return importlib.import_module("vllm")
    except ImportError:
        raise ConfigError("rollout.backend=vllm needs the vllm package and a CUDA GPU "
                          "(pip install 'rlvr[vllm]'); use rollout.backend=hf on CPU") from None


def _attr_path(obj, dotted: str):
    for name in dotted.split("."):
        obj = getattr(obj, name, None)
        if obj is None:
            return None
    return obj


class WorkerExtension:
    """Mixed into each vLLM worker (``worker_extension_cls``); called through ``collective_rpc``."""

    def rlvr_load_weights(self, weights: list) -> int:
        """Load (HF name, tensor) pairs into this worker's model."""
        self.model_runner.model.load_weights(weights=weights)
        return len(weights)


def trainer_weights(model) -> list[tuple[str, torch.Tensor]]:
    """(HF name, full tensor) pairs of the trainer's module; DDP is unwrapped, FSDP2 DTensors gathered."""
    module = getattr(model, "module", model)
    out = []
    for name, t in module.state_dict().items():
        t = t.full_tensor() if hasattr(t, "full_tensor") else t  # collective under FSDP2: every rank calls it
        out.append((name, t.detach()))
    return out


def model_dir(model, cfg) -> Path:
    """The directory the engine loads its architecture and tokenizer from."""
    module = getattr(model, "module", model)
    path = Path(getattr(module, "name_or_path", "") or cfg.model.path or "")
    if not (path / "config.json").is_file():
        raise ConfigError(f"rollout.backend=vllm: cannot find the policy's Hugging Face directory ({path}); "
                          f"set model.path=DIR")
    return path


class VLLMRollout:
    """Sampling with vLLM; the rollout protocol of ``rlvr.rollout.hf.HFRollout``."""

    def __init__(self, cfg, model, tokenizer, *, model_path: str | Path | None = None, engine=None,
                 vllm_module=None):
        if cfg.model.lora_r:
            raise ConfigError("rollout.backend=vllm does not push LoRA adapters;"
                              " set model.lora_r=0 or rollout.backend=hf")
        self.cfg, self.model, self.tokenizer = cfg, model, tokenizer
        self.eos_id = tokenizer.eos_token_id
        self.vllm = vllm_module or import_vllm()
        self.version = 0
        self.gen = torch.Generator(device="cpu").manual_seed(cfg.seed)  # per-request seeds; checkpointed
        self.stale_calls = 0
        self.last_sync_s = 0.0
        if cfg.algo.tis_cap is None and cfg.algo.mismatch_correction in (None, "off"):
            warnings.warn("rollout.backend=vllm: vLLM's log-probabilities differ from the trainer's; set "
                          "algo.mismatch_correction=token (or algo.tis_cap=2.0) to correct with truncated "
                          "importance weights", stacklevel=2)
        if cfg.rollout.top_p < 1.0:
            warnings.warn(f"rollout.backend=vllm with rollout.top_p={cfg.rollout.top_p}: vLLM's log-probabilities "
                          f"are of the top-p distribution, the trainer's of the full one, so mismatch/* also "
                          f"counts the top-p renormalisation", stacklevel=2)
        if engine is None:
            engine = self._build_engine(Path(model_path) if model_path else model_dir(model, cfg))
        self.llm = engine
        self._pushed = None
        if model is not None:
            self._push(trainer_weights(model))  # the checkpoint on disk may differ from the live module

    # ------------------------------------------------------------ engine and weights
    def _build_engine(self, path: Path):
        from rlvr.models.loading import resolve_device_dtype

        _, dtype = resolve_device_dtype(self.cfg)
        kwargs = {"model": str(path), "tokenizer": str(path), "dtype": str(dtype).replace("torch.", ""),
                  "seed": self.cfg.seed, "gpu_memory_utilization": self.cfg.rollout.vllm_gpu_memory_utilization,
                  "enable_prefix_caching": True, "logprobs_mode": "processed_logprobs",
                  "worker_extension_cls": f"{__name__}.WorkerExtension"}
        if (torch.distributed.is_available() and torch.distributed.is_initialized()
                and torch.distributed.get_world_size() > 1):
            kwargs["distributed_executor_backend"] = "external_launcher"  # one engine per torchrun rank
            kwargs["seed"] = self.cfg.seed + torch.distributed.get_rank()
        kwargs.update(self.cfg.rollout.vllm_kwargs)
        return self.vllm.LLM(**kwargs)

    def _engine_model(self):
        for dotted in _DIRECT_PATHS:
            m = _attr_path(self.llm, dotted)
            if m is not None and hasattr(m, "load_weights"):
                return m
        return None

    def _push(self, weights: list[tuple[str, torch.Tensor]]) -> None:
        t0 = time.perf_counter()
        direct = self._engine_model()
        if direct is not None:
            direct.load_weights(weights)  # same process: no copy
        elif getattr(self.llm, "collective_rpc", None) is not None:
            self.llm.collective_rpc("rlvr_load_weights", args=([(n, t.cpu()) for n, t in weights],))
        else:
            raise RuntimeError("this vLLM version offers neither an in-process model nor LLM.collective_rpc; "
                               "cannot push weights (see docs/scaling.md for the versions this was written against)")
        if hasattr(self.llm, "reset_prefix_cache"):
            self.llm.reset_prefix_cache()  # cached KV blocks were computed by the old weights
        self._pushed = self._fingerprint()
        self.last_sync_s = time.perf_counter() - t0

    def _fingerprint(self):
        if self.model is None:
            return None
        return tuple(p._version for p in self.model.parameters())

    def sync_weights(self, state=None) -> None:
        """Push the trainer's weights (``state`` None: the colocated module; else this state dict)."""
        weights = trainer_weights(self.model) if state is None else list(state.items())
        self._push(weights)
        self.version += 1

    def _check_fresh(self) -> None:
        if self.model is None or self._fingerprint() == self._pushed:
            return
        self.stale_calls += 1
        msg = (f"vLLM is generating from stale weights: the trainer's parameters changed after weights version "
               f"{self.version} was pushed (call rollout.sync_weights() after every optimizer step)")
        if self.cfg.rollout.vllm_on_stale == "error":
            raise RuntimeError(msg)
        warnings.warn(msg, stacklevel=3)

    # ------------------------------------------------------------ generation
    def _sampling_params(self, sampling: SamplingParams):
        seed = int(torch.randint(0, 2**31 - 1, (1,), generator=self.gen))
        return self.vllm.SamplingParams(n=sampling.n, temperature=sampling.temperature, top_p=sampling.top_p,
                                        max_tokens=sampling.max_new_tokens, logprobs=0, seed=seed, detokenize=False,
                                        stop_token_ids=list(sampling.stop_token_ids))

    def generate(self, prompts: list[list[int]], sampling: SamplingParams) -> list[Completion]:
        """``len(prompts) * sampling.n`` completions, grouped prompt by prompt."""
        self._check_fresh()
        params = [self._sampling_params(sampling) for _ in prompts]  # one seed per prompt
        requests = [{"prompt_token_ids": list(p)} for p in prompts]
        outputs = self.llm.generate(requests, sampling_params=params, use_tqdm=False)
        if len(outputs) != len(prompts):
            raise RuntimeError(f"vLLM returned {len(outputs)} outputs for {len(prompts)} prompts")
        out = []
        for prompt, request in zip(prompts, outputs):
            for o in sorted(request.outputs, key=lambda o: o.index):
                out.append(self._completion(prompt, o))
        return out

    def _completion(self, prompt: list[int], o) -> Completion:
        ids = list(o.token_ids)
        if o.finish_reason not in ("stop", "length"):
            raise RuntimeError(f"vLLM finished a completion with reason {o.finish_reason!r}")
        if o.logprobs is None or len(o.logprobs) != len(ids):
            raise RuntimeError(f"vLLM returned {0 if o.logprobs is None else len(o.logprobs)} log-probabilities for "
                               f"{len(ids)} tokens (SamplingParams(logprobs=0) should give one per token)")
        logp = [float(pos[tok].logprob) for pos, tok in zip(o.logprobs, ids)]
        text_ids = ids[:-1] if ids and ids[-1] == self.eos_id else ids
        return Completion(prompt_ids=list(prompt), token_ids=ids, sampler_logp=logp, loss_mask=[True] * len(ids),
                          finish_reason=o.finish_reason, policy_version=self.version,
                          text=self.tokenizer.decode(text_ids, skip_special_tokens=False))
