"""Which precision a policy computes in, for training and for generation (``model.dtype``).

The weights, the optimizer state and every reduction stay float32 (the master copy); what
``model.dtype=auto`` chooses on a CPU is whether the decoder's matrix products run under
bfloat16 autocast:

- ``has_amx_bf16``: the CPU has Intel AMX with bf16 tiles (``amx_bf16`` in /proc/cpuinfo).
  Without it bf16 matmuls are emulated or run on AVX-512-BF16 at a fraction of the AMX rate
  and fp32 stays the choice, as before.
- ``choose``: on an AMX CPU, bf16 autocast for a model whose hidden size is at least
  ``BF16_MIN_HIDDEN``, for training (forward and backward) and generation alike. The rule is
  measured (docs/performance.md, "bf16 on AMX"): at the tiny model's shapes (hidden 128) a
  bf16 product costs as much as the fp32 one plus the casts, so the demo stays fp32; at
  SmolLM2-135M's (hidden 576) bf16 is several times faster per product.

What autocast covers and what it does not (``rlvr.train.forward``, ``rlvr.rollout.fast``):
the decoder layers' linear maps and attention run in bf16 with float32 weights cast once
per forward; the residual stream, the norms, the output head, the log-softmax, the
log-probabilities, the entropies, the KL and the loss are float32. The output head runs in
float32 on the bf16 layers' float32 output, so bf16-rounded logits never reach a
log-softmax. Sampler and trainer run the same pieces in the same precision, and the
remaining difference is measured per step (``mismatch/*`` in docs/metrics.md).

``model.dtype=float32`` forces float32 everywhere; ``autocast`` forces the bf16 autocast
above on any CPU and model (to measure it where the rule says fp32); ``bfloat16`` (or
``float16``) loads the weights themselves in that dtype (no fp32 master copy), as before.
On CUDA ``auto`` keeps bf16 weights.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import torch

BF16_MIN_HIDDEN = 512  # hidden size from which bf16 autocast pays on an AMX CPU (docs/performance.md)
_ATTR = "_rlvr_precision"


@dataclass(frozen=True)
class Precision:
    """Whether training and generation run the decoder under bf16 autocast (weights stay as loaded)."""

    train_bf16: bool = False
    generate_bf16: bool = False

    def describe(self) -> str:
        part = {True: "bf16 autocast (fp32 weights, head, log-softmax and loss)", False: "fp32"}
        return f"training {part[self.train_bf16]}; generation {part[self.generate_bf16]}"


FP32 = Precision()


def cpu_flags(cpuinfo: str | None = None) -> set[str]:
    """The CPU feature flags: from ``cpuinfo`` text (the format of /proc/cpuinfo) or the file itself."""
    if cpuinfo is None:
        path = Path("/proc/cpuinfo")
        if not path.is_file():
            return set()
        cpuinfo = path.read_text(errors="replace")
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            return set(value.split())
    return set()


def has_amx_bf16(cpuinfo: str | None = None) -> bool:
    """True when the CPU has AMX bf16 tiles (``amx_bf16`` and ``amx_tile`` among its flags)."""
    flags = cpu_flags(cpuinfo)
    return "amx_bf16" in flags and "amx_tile" in flags


def choose(dtype_knob: str, device: torch.device, hidden_size: int, amx: bool | None = None) -> Precision:
    """The precision ``model.dtype=dtype_knob`` gives a model of ``hidden_size`` on ``device``.

    Only ``auto`` on a CPU with AMX-BF16 and a model at least ``BF16_MIN_HIDDEN`` wide turns
    autocast on (``autocast`` turns it on whatever the CPU and the width: for measuring);
    everything else computes in the dtype the weights were loaded in."""
    if device.type != "cpu":
        return FP32
    if dtype_knob == "autocast":
        return Precision(train_bf16=True, generate_bf16=True)
    if dtype_knob != "auto":
        return FP32
    if amx is None:
        amx = has_amx_bf16()
    if not amx or hidden_size < BF16_MIN_HIDDEN:
        return FP32
    return Precision(train_bf16=True, generate_bf16=True)


def set_precision(model, precision: Precision) -> None:
    """Attach ``precision`` to ``model`` (the unwrapped module); copies made with deepcopy keep it."""
    base = model.get_base_model() if hasattr(model, "get_base_model") else model
    object.__setattr__(base, _ATTR, precision)


def precision_of(model) -> Precision:
    base = model.get_base_model() if hasattr(model, "get_base_model") else model
    base = getattr(base, "module", base)  # DDP
    return getattr(base, _ATTR, FP32)


def autocast(enabled: bool):
    """bf16 autocast on the CPU when ``enabled``; a no-op context otherwise."""
    return torch.autocast("cpu", dtype=torch.bfloat16, enabled=enabled)


def fp32_region():
    """Autocast off: what runs inside computes in the dtype of its inputs (float32 here)."""
    return torch.autocast("cpu", enabled=False)
