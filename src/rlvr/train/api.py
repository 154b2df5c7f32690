"""``rlvr.train(...)``: one run from Python, with a reward function and rows in memory.

The public entry point is ``rlvr.train`` (this package, called) or ``rlvr.api.train``; see
``rlvr.api`` for the conventions and ``docs/api.md`` for examples. A reward is a verifier
name, ``module:function`` or a function (recorded in ``config.json`` by its import path and
registered for this process); an in-memory dataset is recorded as data, written to the run
directory as ``data/train.jsonl`` (``data/eval.jsonl``), which ``task.train_path`` names.
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from rlvr.config import RUN_PRESETS, Config, load_config, validate
from rlvr.errors import ConfigError, DataError
from rlvr.train.rewards import reward_spec, use_reward  # noqa: F401 - part of this module's API

__all__ = ["train", "as_config", "use_reward", "write_rows", "reward_spec"]


def as_config(config: Config | str | Path | None, overrides: list[str]) -> Config:
    """A private copy of ``config`` (a Config, a run preset's name, a YAML file, or None: the
    demo) with ``overrides`` applied by the rules of ``rlvr train``."""
    from rlvr.config import apply_overrides

    if config is None or (isinstance(config, str) and config in RUN_PRESETS):
        return load_config(preset=config or "demo", overrides=overrides)
    if not isinstance(config, Config):
        return load_config(str(config), overrides=overrides)
    cfg = copy.deepcopy(config)  # the caller's object stays as it was (reward.verifier may be a function)
    if not overrides:
        return cfg
    if callable(cfg.reward.verifier):
        use_reward(cfg, None)
    out = apply_overrides(cfg, overrides)
    if out.reward.verifier != cfg.reward.verifier and not any(o.startswith("reward.format_weight=") for o in overrides):
        out.reward.format_weight = None  # resolved for the new verifier (0 for a user's function)
        validate(out)
    return out


def check_callbacks(callbacks: Iterable[Any]) -> tuple:
    """The callbacks as a tuple; one that cannot be called is refused now, before any work."""
    if callable(callbacks):
        callbacks = (callbacks,)
    out = tuple(callbacks)
    for i, fn in enumerate(out):
        if not callable(fn):
            raise ConfigError(f"callbacks[{i}] is a {type(fn).__name__} ({fn!r:.60}), not a function; pass functions "
                              f"that take one metrics row, e.g. callbacks=[rows.append]")
    return out


def all_eval_rows(cfg: Config, eval_dataset: Any, overrides: Iterable[str], log: Callable[[str], Any]) -> None:
    """Rows handed over as ``eval_dataset`` are all evaluated (a preset's ``eval.problems`` cap
    would drop some without a word), unless ``eval.problems`` is among the overrides."""
    if any(str(o).startswith("eval.problems=") for o in overrides):
        return
    try:
        rows = len(eval_dataset) if not isinstance(eval_dataset, (str, Path)) else None
    except TypeError:
        rows = None
    if rows is None:
        return  # a file: rlvr.tasks reads it; eval.problems applies as for the command line
    if rows > cfg.eval.problems:
        log(f"eval: all {rows} rows of eval_dataset (eval.problems {cfg.eval.problems} -> {rows}; pass "
            f"overrides=['eval.problems=N'] to evaluate fewer)")
        cfg.eval.problems = rows


def write_rows(data: Any, path: Path, what: str, resume: bool) -> None:
    """An in-memory dataset into the run directory (a resume must bring the same rows)."""
    from rlvr.tasks.dataset import rows_from_memory, write_jsonl

    rows = rows_from_memory(data, what)
    if resume and path.is_file():
        old = path.read_text(encoding="utf-8").splitlines()
        new = [json.dumps(r.data, ensure_ascii=False, default=str) for r in rows]
        if old != new:
            raise DataError(f"{what} differs from the rows this run started with ({path}); a resumed run must train "
                            f"on the same data: pass the same rows, or start a new run (overwrite=True)")
        return
    write_jsonl(rows, path)


def train(config: Config | str | Path | None = None, *, reward: Any = None, dataset: Any = None,
          eval_dataset: Any = None, overrides: Iterable[str] = (), callbacks: Iterable[Callable[[dict], Any]] = (),
          resume: bool = False, overwrite: bool = False, log: Callable[[str], Any] | None = None) -> dict:
    """Train one run and return its summary (``summary.json``'s content).

    ``config``: a Config, a run preset's name (``"smoke"``, ``"demo"``, ``"smollm"``), a YAML
    file, or None (the demo); ``overrides``: ``key=value`` strings applied on top (after
    ``reward``, so ``"reward.format_weight=0.1"`` adds a format term to a function's reward).
    ``reward``: see the module docstring. ``dataset`` / ``eval_dataset``: a list of dicts, a
    ``datasets.Dataset`` or a file; the columns map to rlvr fields through ``task.fields``
    (``prompt`` and ``answer`` by default) and every column reaches a TRL-style reward by name.
    Without ``eval_dataset``, ``task.eval_size`` rows are held out of ``dataset``. ``callbacks``:
    each is called with every metrics row as it is logged (``row["kind"]`` is ``"train"`` or
    ``"eval"``). ``resume`` / ``overwrite``: as ``--resume`` / ``--overwrite``. ``log``: where
    progress lines go (default: standard error, as on the command line).
    """
    from rlvr.config import apply_overrides
    from rlvr.train.loop import train as train_loop
    from rlvr.train.run import check_run_dir, lock_run_dir, release_run_dirs, resolve_run_dir

    log = log or (lambda text: print(text, file=sys.stderr, flush=True))
    callbacks = check_callbacks(callbacks)
    cfg = as_config(config, [])
    use_reward(cfg, reward)
    if overrides:
        cfg = as_config(cfg, list(overrides)) if reward is None else apply_overrides(cfg, list(overrides))
    cfg = resolve_run_dir(cfg, resume, overwrite, log)
    data_dir = cfg.run_dir() / "data"
    if dataset is not None:
        cfg.task.name = "dataset"
        cfg.task.train_path = str(data_dir / "train.jsonl")
        cfg.task.eval_path = str(data_dir / "eval.jsonl") if eval_dataset is not None else None
        if eval_dataset is not None:
            all_eval_rows(cfg, eval_dataset, overrides, log)
    elif eval_dataset is not None:
        raise ConfigError("eval_dataset needs dataset (the training rows) too")
    validate(cfg)  # every value, before anything is written
    check_run_dir(cfg, resume, overwrite)
    try:
        if cfg.train.ray_ranks <= 1:  # Ray's rank 0 takes the lock in its own process
            lock_run_dir(cfg.run_dir())  # before the rows are written into it
        if dataset is not None:
            write_rows(dataset, data_dir / "train.jsonl", "dataset", resume)
            if eval_dataset is not None:
                write_rows(eval_dataset, data_dir / "eval.jsonl", "eval_dataset", resume)
        return train_loop(cfg, resume=resume, log=log, overwrite=overwrite, callbacks=callbacks)
    finally:
        release_run_dirs()
