"""The built-in tiny model: a character-level tokenizer and a random-init Llama/Qwen2.

Everything is built locally (no hub access): the tokenizer is a ``tokenizers``
WordLevel model over printable ASCII, with the four reasoning tags as single tokens so a
scratchpad fits in 32 new tokens. Both are saved in Hugging Face format, so
``AutoTokenizer`` / ``AutoModelForCausalLM.from_pretrained`` load them like any model.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from pathlib import Path

TAGS = ["<think>", "</think>", "<answer>", "</answer>", "<tool>", "</tool>", "<output>", "</output>"]
PAD, EOS = "<|pad|>", "<|eos|>"


def build_char_tokenizer():
    """A PreTrainedTokenizerFast: one token per printable character, tags as single tokens."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    chars = sorted(set(string.printable) - set("\x0b\x0c\r"))
    vocab = {PAD: 0, EOS: 1, "<|unk|>": 2}
    for ch in chars:
        vocab.setdefault(ch, len(vocab))
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<|unk|>"))
    tok.pre_tokenizer = pre_tokenizers.Split(Regex(r"[\s\S]"), behavior="isolated")
    tok.decoder = decoders.Fuse()
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token=PAD, eos_token=EOS, unk_token="<|unk|>")
    fast.add_tokens(TAGS)
    fast.padding_side = "left"
    return fast


@dataclass(frozen=True)
class TinyShape:
    """The shape of a from-scratch model (``model.arch``, ``hidden``, ... in the config)."""

    arch: str = "llama"
    hidden: int = 128
    layers: int = 3
    heads: int = 4
    intermediate: int = 512
    max_positions: int = 256
    tie_embeddings: bool = True


def build_tiny_model(tokenizer, shape: TinyShape = TinyShape(), seed: int = 0):
    """A random-init causal LM of the chosen shape for ``tokenizer``'s vocabulary, in float32."""
    import torch
    from transformers import AutoModelForCausalLM, LlamaConfig, Qwen2Config

    configs = {"llama": LlamaConfig, "qwen2": Qwen2Config}
    if shape.arch not in configs:
        raise ValueError(f"unknown tiny-model arch {shape.arch!r}; valid: {', '.join(configs)}")
    pad_id, eos_id = tokenizer.pad_token_id, tokenizer.eos_token_id
    cfg = configs[shape.arch](
        vocab_size=len(tokenizer), hidden_size=shape.hidden, num_hidden_layers=shape.layers,
        num_attention_heads=shape.heads, num_key_value_heads=shape.heads, intermediate_size=shape.intermediate,
        max_position_embeddings=shape.max_positions, tie_word_embeddings=shape.tie_embeddings,
        pad_token_id=pad_id, eos_token_id=eos_id, bos_token_id=None,
    )
    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_config(cfg, dtype=torch.float32)
    model.generation_config.pad_token_id = pad_id
    model.generation_config.eos_token_id = eos_id
    return model


def save_pretrained(model, tokenizer, path: Path) -> None:
    path.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(path, safe_serialization=True)
    tokenizer.save_pretrained(path)
