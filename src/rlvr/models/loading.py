"""Loading a policy: device and dtype, tokenizer, model, the options a run asks for.

What it does: resolves ``model.device``/``model.dtype`` (``auto`` = CUDA + bf16 weights when a
GPU is visible, else CPU + fp32 weights, with bf16 autocast for training and generation on a
CPU with AMX-BF16 when the model is large enough: ``rlvr.models.precision``), loads a Hugging Face causal LM and its
tokenizer (left padding, a pad token), switches on activation checkpointing and LoRA when
asked. What it does not do: decide *which* directory is the base (``rlvr.models.base``),
or wrap the model for several ranks (``rlvr.train.distributed``).
"""

from __future__ import annotations

import copy
from pathlib import Path

import torch

from rlvr.config import Config
from rlvr.errors import ConfigError
from rlvr.models.precision import choose, set_precision


def resolve_device_dtype(cfg: Config) -> tuple[torch.device, torch.dtype]:
    dev = cfg.model.device
    if dev == "auto":
        dev = "cuda" if torch.cuda.is_available() else "cpu"
    if dev == "cuda" and not torch.cuda.is_available():
        raise ConfigError("model.device=cuda but no CUDA GPU is visible; use model.device=cpu")
    dtype = cfg.model.dtype
    if dtype == "autocast" and dev == "cuda":
        raise ConfigError("model.dtype=autocast is the CPU's bf16 autocast; on CUDA use model.dtype=auto or bfloat16")
    if dtype in ("auto", "autocast"):
        dtype = "bfloat16" if dev == "cuda" else "float32"  # autocast: fp32 master weights
    return torch.device(dev), getattr(torch, dtype)


def load_tokenizer(path: Path | str):
    """The tokenizer of a model directory, left-padded, with a pad token (EOS when it has none)."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(path)
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    tokenizer.padding_side = "left"
    return tokenizer


def load_policy(path: Path, cfg: Config):
    """(model, tokenizer) from a Hugging Face directory, with the run's device, dtype,
    activation checkpointing and LoRA."""
    from transformers import AutoModelForCausalLM
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    device, dtype = resolve_device_dtype(cfg)
    tokenizer = load_tokenizer(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=dtype).to(device)
    set_precision(model, choose(cfg.model.dtype, device, int(getattr(model.config, "hidden_size", 0) or 0)))
    if cfg.model.gradient_checkpointing:
        # transformers recomputes activations only in train mode; the rollout switches to eval
        # while sampling and back. Non-reentrant checkpointing also works with frozen embeddings (LoRA).
        kwargs = {"use_reentrant": False}
        if hasattr(model, "activation_checkpointing_enable"):  # transformers >= 5 (the old name is deprecated)
            model.activation_checkpointing_enable(activation_checkpointing_kwargs=kwargs)
        else:
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs=kwargs)
        model.train()
    if cfg.model.lora_r > 0:
        from rlvr.models.lora import apply_lora

        model = apply_lora(model, cfg.model)
        if cfg.model.lora_dropout > 0:
            model.train()  # LoRA dropout acts only in train mode
    return model, tokenizer


def frozen_copy(model):
    """A deep copy in eval mode with no parameter requiring a gradient (the KL reference)."""
    ref = copy.deepcopy(model)
    ref.eval()
    for p in ref.parameters():
        p.requires_grad_(False)
    return ref
