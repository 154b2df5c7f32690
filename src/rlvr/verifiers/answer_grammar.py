"""The answer grammar lives in the ``rlvr.verifiers.answer`` package, one module per step
(``result``, ``lexer``, ``grammar``, ``tree``, ``relations``, read whole by ``parse``);
this module re-exports it, private names included, so that existing imports keep working."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from rlvr.verifiers.answer.parse import *  # noqa: F403

_STEPS = ("parse", "result", "lexer", "grammar", "tree", "relations")


def __getattr__(name: str) -> Any:
    for step in _STEPS:
        module = import_module(f"rlvr.verifiers.answer.{step}")
        if hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
