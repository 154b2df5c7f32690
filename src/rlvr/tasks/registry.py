"""``task.name`` -> a task object: the built-in procedural tasks, dataset files, reasoning-gym.

A task gives ``eval_samples`` (the held-out list), ``train_batch(start, n)`` (an indexable,
resumable training stream) and, for the built-in ones, reference solutions for the
warm-start. A bad knob raises ``ConfigError`` naming it, before the run writes anything.
"""

from __future__ import annotations

from rlvr.errors import ConfigError

TASKS = ("arithmetic", "tool_arithmetic", "chat_arithmetic", "dataset", "gym")


def build_task(task_cfg, verifier: str = "exact"):
    """The task ``task_cfg.name`` names (``task_cfg`` is the config's ``task`` section)."""
    t = task_cfg
    try:
        if t.name == "tool_arithmetic":
            from rlvr.tasks.tool_arithmetic import ToolArithmeticSpec, ToolArithmeticTask

            spec = ToolArithmeticSpec(digits_min=t.tool_digits_min, digits_max=t.tool_digits_max,
                                      operators=t.operators, call_rate=t.tool_call_rate, seed=t.seed)
            return ToolArithmeticTask(spec, eval_size=t.eval_size)
        if t.name == "chat_arithmetic":
            from rlvr.tasks.chat_arithmetic import ChatArithmeticSpec, ChatArithmeticTask

            spec = ChatArithmeticSpec(kinds=t.kinds, digits=t.digits, example=t.example,
                                      worked=t.worked, seed=t.seed)
            return ChatArithmeticTask(spec, eval_size=t.eval_size)
        if t.name == "arithmetic":
            from rlvr.tasks.arithmetic import ArithmeticSpec, ArithmeticTask

            spec = ArithmeticSpec(terms_min=t.terms_min, terms_max=t.terms_max, digits=t.digits,
                                  operators=t.operators, seed=t.seed, think_rate=t.think_rate,
                                  late_think_rate=t.late_think_rate)
            return ArithmeticTask(spec, eval_size=t.eval_size)
    except ValueError as exc:
        raise ConfigError(f"task: {exc}") from None
    if t.name == "dataset":
        from rlvr.tasks.dataset import DatasetTask

        return DatasetTask.from_config(t, verifier=verifier)
    if t.name == "gym":
        from rlvr.tasks.gym import GymTask

        return GymTask.from_config(t)
    raise ConfigError(f"unknown task.name {t.name!r}; valid: {', '.join(TASKS)}")
