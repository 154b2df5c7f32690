"""The environment interface of multi-turn rollouts: ``reset(sample)``, ``step(action_text)``.

An episode is one completion. The rollout loop (``rlvr.rollout.tools.ToolRollout``) pauses
generation each time the text the policy generated ends with the environment's
``stop_text`` (e.g. ``</tool>``) and calls ``step`` with everything the policy generated
since the previous observation. The returned ``Step`` says what to append to the context
(``observation``, possibly empty: not a call, just resume), whether the episode ends there
(``done``) and an environment reward.

What it deliberately does not do: decide the training reward. The completion's full text
(tool outputs included) goes to the run's verifier as usual; ``Step.reward`` is reported
by the loop (``ToolRollout.last_env_rewards``) but not added to the verifier's reward.
The built-in tool environments always return 0.0.
"""

from __future__ import annotations

from typing import NamedTuple

from rlvr.types import Sample


class Step(NamedTuple):
    """What the environment answers to one action."""

    observation: str  # appended to the context with loss mask False; "" = nothing (resume)
    done: bool  # True: the completion ends after the observation
    reward: float  # environment reward (not the training reward; see the module docstring)


class Environment:
    """Base class: one instance per completion, reset before its first step.

    Subclasses set ``stop_text`` and keep ``calls`` (tool calls made) and ``errors``
    (calls that failed: bad syntax, refused input, exceptions); the loop copies them into
    ``Completion.tool_calls`` / ``tool_errors``.
    """

    stop_text: str = ""

    def __init__(self) -> None:
        self.sample: Sample | None = None
        self.calls = 0
        self.errors = 0

    def reset(self, sample: Sample | None) -> None:
        """Start an episode for ``sample`` (None when the caller has only token ids)."""
        self.sample = sample
        self.calls = 0
        self.errors = 0

    def step(self, action_text: str) -> Step:
        raise NotImplementedError
