"""rlvr: reinforcement learning from verifiable rewards — sample, verify, reinforce.

What a script needs (``docs/api.md``)::

    import rlvr
    cfg = rlvr.load_config(preset="smoke", overrides=["train.steps=3"])
    summary = rlvr.train(cfg, reward=my_reward, dataset=rows, callbacks=[print])
    rlvr.evaluate("runs/smoke/checkpoints/step_3", n=4)
    rlvr.verify("<answer>8</answer>", "8", verifier="math")

``import rlvr`` stays light: these names load on first use, and torch, transformers and
optional backends are imported by the subpackages that need them.
"""

from __future__ import annotations

__version__ = "0.1.0"

_EXPORTS = {
    "load_config": ("rlvr.config", "load_config"),
    "Config": ("rlvr.config", "Config"),
    "apply_overrides": ("rlvr.config", "apply_overrides"),
    "train": ("rlvr.train", None),  # the package rlvr.train, which called is rlvr.api.train
    "evaluate": ("rlvr.api", "evaluate"),
    "verify": ("rlvr.api", "verify"),
    "Sample": ("rlvr.types", "Sample"),
    "Verdict": ("rlvr.types", "Verdict"),
    "UserError": ("rlvr.errors", "UserError"),
}
__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str):
    if name in _EXPORTS:
        import importlib

        module, attr = _EXPORTS[name]
        value = importlib.import_module(module) if attr is None else getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'rlvr' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
