"""The run's reward as a config value: a verifier name, ``module:function``, or a function set in
Python (recorded by its import path). Used by the Python API (``rlvr.train.api``) and the loop."""

from __future__ import annotations

from typing import Any

from rlvr.config import Config
from rlvr.errors import ConfigError


def reward_spec(reward: Any) -> str:
    """What ``reward.verifier`` records for ``reward``: a name or ``module:function`` as it is,
    a function by its import path (registered for this process)."""
    from rlvr.verifiers.registry import register_function

    if isinstance(reward, str):
        return reward
    if callable(reward):
        return register_function(reward)
    raise ConfigError(f"reward must be a verifier name, 'module:function' or a function, got {type(reward).__name__}")


def use_reward(cfg: Config, reward: Any) -> None:
    """Set the run's reward (``reward``, or the function ``reward.verifier`` was set to). A
    user's function gets no format term: its reward is the function's value alone (an
    override ``reward.format_weight=...`` adds one)."""
    from rlvr.verifiers.registry import is_function_spec

    cfg.reward.verifier = reward_spec(reward if reward is not None else cfg.reward.verifier)
    if is_function_spec(cfg.reward.verifier):
        cfg.reward.format_weight = 0.0
