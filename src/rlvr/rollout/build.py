"""Building the rollout backend a run asks for: hf (CPU default), vllm (GPU), scripted
(tests), wrapped in the tool-call loop when the run uses tools, and stopping at every id
the model ends a turn with.
"""

from __future__ import annotations

import dataclasses

from rlvr.config import Config
from rlvr.errors import ConfigError
from rlvr.types import Completion, SamplingParams

BACKENDS = ("hf", "vllm", "scripted")


def build_rollout(cfg: Config, model, tokenizer):
    """The rollout backend, inside the tool-call loop when rollout.max_tool_calls > 0."""
    return with_tools(cfg, build_backend(cfg, model, tokenizer), tokenizer)


def with_tools(cfg: Config, rollout, tokenizer):
    """Wrap ``rollout`` in the tool-call loop (``rlvr.rollout.tools``) when rollout.max_tool_calls > 0."""
    r = cfg.rollout
    if r.max_tool_calls <= 0:
        return rollout
    from rlvr.envs.tools import ToolEnv, build_tool
    from rlvr.rollout.tools import ToolRollout
    from rlvr.sandbox import SandboxUnavailable

    for key in ("tool_tags", "tool_output_tags"):
        tags = getattr(r, key)
        if len(tags) != 2 or not all(isinstance(x, str) and x for x in tags):
            raise ConfigError(f"rollout.{key} must be two non-empty strings [open, close], got {tags!r}")
    try:
        tool = build_tool(r.tool)
    except SandboxUnavailable as exc:
        raise ConfigError(f"rollout.tool={r.tool}: {exc}") from None
    call_tags, output_tags = tuple(r.tool_tags), tuple(r.tool_output_tags)
    return ToolRollout(rollout, tokenizer, lambda: ToolEnv(tool, call_tags, output_tags), r.max_tool_calls,
                       workers=4 if r.tool == "python" else 1)


def build_backend(cfg: Config, model, tokenizer, model_path: str | None = None, seed: int | None = None):
    """One backend by ``rollout.backend``. ``model`` may be None for vllm/scripted workers that
    load from ``model_path``; ``seed`` defaults to the run's."""
    name = cfg.rollout.backend
    if name == "hf":
        from rlvr.rollout.hf import HFRollout

        rollout = HFRollout(model, tokenizer, seed=cfg.seed if seed is None else seed,
                            drop_finished=cfg.rollout.drop_finished)
        extra = [i for i in eos_token_ids(model, tokenizer) if i != tokenizer.eos_token_id]
        return EosStops(rollout, tuple(extra), tokenizer) if extra else rollout
    if name == "vllm":
        from rlvr.rollout.vllm import VLLMRollout

        return VLLMRollout(cfg, model, tokenizer, model_path=model_path)
    if name == "scripted":
        from rlvr.rollout.scripted import ScriptedRollout

        return ScriptedRollout(tokenizer, seed=seed or 0)
    raise ConfigError(f"unknown rollout.backend {name!r}; valid: {', '.join(BACKENDS)}")


def eos_token_ids(model, tokenizer) -> list[int]:
    """Every id that ends a completion: the tokenizer's EOS and all of the model's
    ``generation_config.eos_token_id`` (a list on chat models: Qwen2.5 ends a turn with
    <|im_end|> while its tokenizer's EOS may be <|endoftext|>)."""
    ids = [tokenizer.eos_token_id] if tokenizer.eos_token_id is not None else []
    gen_cfg = getattr(model, "generation_config", None)
    extra = getattr(gen_cfg, "eos_token_id", None)
    ids += extra if isinstance(extra, (list, tuple)) else ([extra] if extra is not None else [])
    return list(dict.fromkeys(int(i) for i in ids))


class EosStops:
    """A rollout whose completions also stop at the model's other EOS ids; such a final
    token is kept in ``token_ids`` (it is trained on, like EOS) and dropped from ``text``."""

    _OWN = ("inner", "extra_ids", "tokenizer")

    def __init__(self, inner, extra_ids: tuple[int, ...], tokenizer):
        for name, value in zip(self._OWN, (inner, extra_ids, tokenizer)):
            object.__setattr__(self, name, value)

    def __getattr__(self, name):  # gen, version, sync_weights, model, ... of the wrapped rollout
        if name in self._OWN:  # not set yet (unpickling): no recursion through self.inner
            raise AttributeError(name)
        return getattr(self.inner, name)

    def __setattr__(self, name, value):  # e.g. ``rollout.version = step`` reaches the wrapped rollout
        if name in self._OWN:
            object.__setattr__(self, name, value)
        else:
            setattr(self.inner, name, value)

    def generate(self, prompts: list[list[int]], sampling: SamplingParams) -> list[Completion]:
        stops = tuple(dict.fromkeys((*sampling.stop_token_ids, *self.extra_ids)))
        out = self.inner.generate(prompts, dataclasses.replace(sampling, stop_token_ids=stops))
        for c in out:
            if c.token_ids and c.token_ids[-1] in self.extra_ids:
                c.text = self.tokenizer.decode(c.token_ids[:-1], skip_special_tokens=False)
        return out
