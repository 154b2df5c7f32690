"""A Sample's prompt as token ids: through the chat template when the tokenizer has one.

``model.chat_template=auto`` renders ``[system?, user]`` with ``add_generation_prompt``
(so the completion starts where the assistant's turn does); ``none`` tokenizes the raw
prompt text, as the tiny character model is trained.
"""

from __future__ import annotations

from rlvr.config import Config
from rlvr.types import Sample


def render_prompt(tokenizer, sample: Sample, cfg: Config) -> list[int]:
    """Token ids of the prompt: through the chat template when the tokenizer has one."""
    if cfg.model.chat_template == "auto" and getattr(tokenizer, "chat_template", None):
        messages = []
        if cfg.model.system_prompt:
            messages.append({"role": "system", "content": cfg.model.system_prompt})
        messages.append({"role": "user", "content": sample.prompt})
        ids = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=True)
        if isinstance(ids, dict) or hasattr(ids, "input_ids"):
            ids = ids["input_ids"]
        return list(ids)
    return tokenizer(sample.prompt, add_special_tokens=False)["input_ids"]
