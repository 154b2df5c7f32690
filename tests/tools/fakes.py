"""A scripted backend for the tool-loop tests: it emits text chosen by a script and honours
``n``, ``max_new_tokens`` and ``stop_token_ids`` the way ``HFRollout`` does (the stop token
is kept, finish reason ``stop``; EOS ends every script)."""

from __future__ import annotations

from collections.abc import Callable

from rlvr.types import Completion, SamplingParams

FAKE_LOGP = -0.25  # every generated token's sampler log-probability


class FakeBackend:
    """``script(context_text) -> continuation`` (text or token ids); EOS is appended to it."""

    def __init__(self, tokenizer, script: Callable[[str], str | list[int]]):
        self.tokenizer, self.script = tokenizer, script
        self.eos_id = tokenizer.eos_token_id
        self.calls: list[tuple[list[list[int]], SamplingParams]] = []
        self.version = 7
        self.gen = "the generator"
        self.synced = 0

    def sync_weights(self, state=None) -> None:
        self.synced += 1

    def generate(self, prompts: list[list[int]], sampling: SamplingParams) -> list[Completion]:
        self.calls.append(([list(p) for p in prompts], sampling))
        stops = {self.eos_id, *sampling.stop_token_ids}
        out = []
        for p in prompts:
            cont = self.script(self.tokenizer.decode(p, skip_special_tokens=False))
            ids = cont if isinstance(cont, list) else self.tokenizer(cont, add_special_tokens=False)["input_ids"]
            ids = ids + [self.eos_id]
            hit = next((k for k, t in enumerate(ids) if t in stops), None)
            cut = min(hit + 1, sampling.max_new_tokens) if hit is not None else sampling.max_new_tokens
            resp = ids[:cut]
            reason = "stop" if hit is not None and hit < sampling.max_new_tokens else "length"
            for _ in range(sampling.n):
                out.append(Completion(prompt_ids=list(p), token_ids=list(resp), sampler_logp=[FAKE_LOGP] * len(resp),
                                      loss_mask=[True] * len(resp), finish_reason=reason,
                                      text=self.tokenizer.decode(resp, skip_special_tokens=False),
                                      policy_version=self.version))
        return out


def after_prompt(context: str, prompt_end: str = "\n") -> str:
    """The response part of a context (the prompts in these tests end with a newline)."""
    return context.split(prompt_end, 1)[1]
