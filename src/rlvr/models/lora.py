"""LoRA adapters through peft: wrap the policy, use the base as the reference, save merged.

- ``apply_lora(model, model_cfg)`` wraps a transformers causal LM in peft LoRA adapters
  (``model.lora_r``, ``lora_alpha``, ``lora_dropout``, ``lora_target``); only the adapter
  weights require gradients.
- The KL reference of a LoRA run is the same module with its adapters disabled
  (``rlvr.train.update.ReferencePolicy.adapters_off``): no second copy of the weights
  is held. Re-anchoring that reference (``algo.ref_update_every``) is refused.
- ``MergedView(model).save_pretrained(dir)`` writes base + adapter delta as one ordinary
  Hugging Face model (loads with ``AutoModelForCausalLM.from_pretrained``) without
  touching the live module (no merge/unmerge round trip, so bf16 weights do not drift).
  ``save_adapter`` writes the adapter alone in peft's format (``PeftModel.from_pretrained``);
  ``adapter_state`` / ``load_adapter_state`` carry it through trainer checkpoints.

peft is an optional extra (``rlvr[lora]``) imported only when ``model.lora_r > 0``.
What this does not do: QLoRA / quantised bases, several adapters, or vLLM LoRA serving.
"""

from __future__ import annotations

import os
import shutil
import warnings
from pathlib import Path

from rlvr.errors import ConfigError

ADAPTER_DIR = "adapter"  # checkpoints/step_N/adapter/: the adapter in peft's format


def _peft():
    try:
        import peft
    except ImportError:
        raise ConfigError("model.lora_r > 0 needs peft: pip install 'rlvr[lora]' (or set model.lora_r=0 "
                          "for full fine-tuning)") from None
    return peft


def is_lora(model) -> bool:
    return hasattr(model, "disable_adapter") and hasattr(model, "get_base_model")


def apply_lora(model, model_cfg):
    """The model wrapped in trainable LoRA adapters; base weights frozen."""
    peft = _peft()
    m = model_cfg
    if m.lora_r < 0 or m.lora_alpha <= 0 or not 0 <= m.lora_dropout < 1:
        raise ConfigError(f"LoRA needs model.lora_r >= 1, lora_alpha > 0 and 0 <= lora_dropout < 1; got "
                          f"r={m.lora_r}, alpha={m.lora_alpha}, dropout={m.lora_dropout}")
    config = peft.LoraConfig(r=m.lora_r, lora_alpha=m.lora_alpha, lora_dropout=m.lora_dropout,
                             target_modules=list(m.lora_target) or None, task_type="CAUSAL_LM")
    try:
        with warnings.catch_warnings():  # peft reads transformers' deprecated checkpointing flag
            warnings.filterwarnings("ignore", message=".*is_gradient_checkpointing.*", category=FutureWarning)
            return peft.get_peft_model(model, config)
    except ValueError as exc:  # no default target modules for this architecture, or a name not found
        raise ConfigError(f"LoRA could not wrap {type(model).__name__}: {str(exc).splitlines()[0]}; "
                          f"set model.lora_target=[q_proj,v_proj] (module names of the model)") from None


def _clean_key(key: str) -> str:
    return key.replace(".base_layer.", ".")


def merged_state_dict(model) -> dict:
    """The base model's state dict with every adapter's delta added (new tensors; the live
    weights are untouched). Keys are the plain model's keys."""
    base = model.get_base_model()
    out = {}
    for key, value in base.state_dict().items():
        if "lora_" not in key:
            out[_clean_key(key)] = value
    for name, module in base.named_modules():
        if hasattr(module, "get_delta_weight") and hasattr(module, "base_layer"):
            active = [a for a in module.active_adapters if a in getattr(module, "lora_A", {})]
            weight = module.base_layer.weight.detach()
            for adapter in active:
                weight = weight + module.get_delta_weight(adapter).to(weight.dtype)
            out[f"{name}.weight"] = weight
    return out


class MergedView:
    """What a checkpoint saves for a LoRA policy: one plain model with adapters merged in."""

    def __init__(self, model):
        self.model = model

    def save_pretrained(self, path, **kwargs) -> None:
        base = self.model.get_base_model()
        base.save_pretrained(path, state_dict=merged_state_dict(self.model), **kwargs)


def save_adapter(model, path: Path) -> Path:
    """The adapter in peft's format under ``path`` (written to a temp folder, then renamed)."""
    path = Path(path)
    tmp = path.with_name(path.name + f".tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    model.save_pretrained(tmp)
    shutil.rmtree(path, ignore_errors=True)
    os.replace(tmp, path)
    return path


def adapter_state(model) -> dict:
    """The adapter weights only (for trainer_state.pt; resume re-applies them to the base)."""
    from peft import get_peft_model_state_dict

    return {k: v.detach().cpu().clone() for k, v in get_peft_model_state_dict(model).items()}


def load_adapter_state(model, state: dict) -> None:
    from peft import set_peft_model_state_dict

    result = set_peft_model_state_dict(model, state)
    unexpected = getattr(result, "unexpected_keys", None)
    if unexpected:
        raise RuntimeError(f"checkpoint adapter has keys this model lacks: {unexpected[:3]}; "
                           f"was it trained with other model.lora_* settings?")


def trainable_parameters(model) -> tuple[int, int]:
    """(trainable, total) parameter counts."""
    total = sum(p.numel() for p in model.parameters())
    return sum(p.numel() for p in model.parameters() if p.requires_grad), total
