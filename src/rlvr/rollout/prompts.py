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


CONTEXT_KEYS = ("max_position_embeddings", "n_positions", "max_seq_len", "seq_length")
SAMPLED_TRAIN_PROMPTS = 256  # a generated task's stream is endless: this many of its prompts are measured


def context_length(model) -> tuple[int, str] | None:
    """The model's context in tokens and the config key that says so (None when none does)."""
    config = getattr(model, "config", None)
    for key in CONTEXT_KEYS:
        value = getattr(config, key, None)
        if isinstance(value, int) and value > 0:
            return value, key
    return None


def check_context(task, tokenizer, model, cfg: Config) -> None:
    """Refuse prompts that, with the completion budget, do not fit the model's context: they
    would be generated from and trained on with positions the model never learned. Every
    prompt of a dataset is measured (its training rows and held-out rows); for a generated
    task, the held-out problems and the first prompts of its stream. The error names the first
    such row, its length, the budget and the context, and how many rows are too long."""
    from rlvr.errors import ConfigError

    found = context_length(model)
    if found is None:
        return
    context, key = found
    budget = max(cfg.rollout.max_new_tokens, cfg.eval.max_new_tokens or 0)
    train = getattr(task, "train", None)
    if not isinstance(train, list):
        train = [task.train_sample(k) for k in range(SAMPLED_TRAIN_PROMPTS)]
    samples = list(train) + list(task.eval_samples)
    lengths = ((s, len(render_prompt(tokenizer, s, cfg))) for s in samples)
    too_long = [(s, n) for s, n in lengths if n + budget > context]
    if not too_long:
        return
    first, length = too_long[0]
    where = first.fields.get("source") or f"sample {first.id}"
    raise ConfigError(
        f"{where}: the prompt is {length} tokens, and with a completion budget of {budget} "
        f"(rollout.max_new_tokens / eval.max_new_tokens) that is {length + budget} > the model's context of "
        f"{context} tokens ({key}); {len(too_long)} of {len(samples)} prompts do not fit: shorten or drop them, "
        f"or lower the completion budget")
