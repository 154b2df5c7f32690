"""The answer grammar lives in ``rlvr.verifiers.answer.parse`` (the parse step of answer
reading: document -> locate -> parse -> typed value -> compare); this module re-exports
it, private names included, so that existing imports keep working."""

from __future__ import annotations

from typing import Any

from rlvr.verifiers.answer import parse as _parse
from rlvr.verifiers.answer.parse import *  # noqa: F403


def __getattr__(name: str) -> Any:
    return getattr(_parse, name)
