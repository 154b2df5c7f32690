"""The `scripted` rollout backend: completions from a script, not from a model (for tests).

It implements the rollout protocol (``generate(prompts, sampling) -> list[Completion]``,
``sync_weights(state=None)``, ``version``, ``gen``) without any model, so the pipeline
around generation (collation, verification, the async actors, weight-version tagging,
checkpoint RNG state) can be tested in milliseconds and with known outcomes.

The default script answers the built-in arithmetic prompts: completion ``j`` of a group
is correct when ``j`` is even and off by one when odd, so every group has mixed rewards.
Each token's sampler log-probability is ``SCRIPTED_LOGP``. A custom script is a function
``(prompt_text, j) -> completion_text``.

What it deliberately does not do: sample, honour temperature or top-p, or report true
log-probabilities (the trainer's ``logp_mismatch`` against it is meaningless).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import torch

from rlvr.types import Completion, SamplingParams

SCRIPTED_LOGP = math.log(0.5)
_EXPR = re.compile(r"^\s*([0-9+\-*]+)=\?")


def arithmetic_script(prompt: str, j: int) -> str:
    """Right answer for even j, the answer plus one for odd j; ``<answer>0</answer>`` when no expression."""
    m = _EXPR.match(prompt)
    if m is None:
        return "<answer>0</answer>"
    from rlvr.tasks.arithmetic import parse_expression, solve

    value, steps = solve(*parse_expression(m.group(1)))
    return f"<think>{' '.join(steps)}</think><answer>{value + (j % 2)}</answer>"


class ScriptedRollout:
    """A fake engine with the rollout interface; ``calls`` records every generate call."""

    def __init__(self, tokenizer, script: Callable[[str, int], str] | None = None, seed: int = 0):
        self.tokenizer = tokenizer
        self.script = script or arithmetic_script
        self.eos_id = tokenizer.eos_token_id
        self.version = 0
        self.gen = torch.Generator(device="cpu").manual_seed(seed)  # part of the checkpointed RNG state
        self.calls: list[tuple[int, SamplingParams]] = []  # (number of prompts, sampling) per call

    def sync_weights(self, state=None) -> None:
        self.version += 1

    def generate(self, prompts: list[list[int]], sampling: SamplingParams) -> list[Completion]:
        self.calls.append((len(prompts), sampling))
        out = []
        for ids in prompts:
            text = self.tokenizer.decode(ids, skip_special_tokens=False)
            for j in range(sampling.n):
                out.append(self._completion(ids, self.script(text, j), sampling.max_new_tokens))
        return out

    def _completion(self, prompt_ids: list[int], text: str, max_new: int) -> Completion:
        body = self.tokenizer(text, add_special_tokens=False)["input_ids"]
        ids = (body + [self.eos_id])[:max_new]
        stopped = len(ids) == len(body) + 1
        shown = ids[:-1] if stopped else ids
        return Completion(prompt_ids=list(prompt_ids), token_ids=ids, sampler_logp=[SCRIPTED_LOGP] * len(ids),
                          loss_mask=[True] * len(ids), finish_reason="stop" if stopped else "length",
                          text=self.tokenizer.decode(shown, skip_special_tokens=False), policy_version=self.version)
