"""A small but realistic Hugging Face chat model, built on the spot (no downloads).

A byte-level BPE tokenizer trained with ``tokenizers`` on a few hundred generated lines,
with Qwen-style special tokens (<|endoftext|> as the tokenizer's EOS, <|im_start|> /
<|im_end|> for turns) and a Jinja chat template set on the tokenizer; a random-init
Qwen2 whose ``generation_config.eos_token_id`` lists both <|im_end|> and <|endoftext|>,
as Qwen2.5 checkpoints do. No pad token: the loader must fall back to EOS.
"""

from __future__ import annotations

import random
from pathlib import Path

SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def corpus_lines(n: int = 300, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    words = ["think", "answer", "the", "sum", "of", "apples", "total", "each", "box", "holds", "how", "many",
             "def", "return", "assert", "print", "question", "reasoning", "final", "is"]
    lines = []
    for i in range(n):
        a, b = rng.randint(0, 99), rng.randint(0, 99)
        kind = i % 3
        if kind == 0:
            lines.append(f"What is {a} + {b}? <think>{a}+{b}={a + b}</think><answer>{a + b}</answer>")
        elif kind == 1:
            lines.append(f"def add(a, b):\n    return a + b\nassert add({a}, {b}) == {a + b}")
        else:
            lines.append(" ".join(rng.choice(words) for _ in range(12)) + f" #### {a * b}")
    return lines


def build_bpe_tokenizer(vocab_size: int = 400):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIALS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(corpus_lines(), trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|endoftext|>")
    fast.add_special_tokens({"additional_special_tokens": SPECIALS[1:]})
    fast.chat_template = CHAT_TEMPLATE
    return fast


def build_chat_model(path: Path, hidden: int = 32, layers: int = 1, seed: int = 0) -> Path:
    """Save tokenizer + random-init Qwen2 under ``path``; returns ``path``."""
    import torch
    from transformers import AutoModelForCausalLM, Qwen2Config

    tok = build_bpe_tokenizer()
    eos, im_end = tok.convert_tokens_to_ids("<|endoftext|>"), tok.convert_tokens_to_ids("<|im_end|>")
    cfg = Qwen2Config(vocab_size=len(tok), hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=2,
                      num_key_value_heads=1, intermediate_size=2 * hidden, max_position_embeddings=512,
                      tie_word_embeddings=True, eos_token_id=eos, bos_token_id=None, pad_token_id=None)
    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_config(cfg, dtype=torch.float32)
    model.generation_config.eos_token_id = [im_end, eos]
    model.generation_config.pad_token_id = None
    path.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(path, safe_serialization=True)
    tok.save_pretrained(path)
    return path
