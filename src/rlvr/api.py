"""rlvr from Python: build a config, train, evaluate, verify (``docs/api.md``).

``import rlvr`` exposes these names lazily (torch loads only when a run starts):

- ``rlvr.load_config(path=None, preset=None, overrides=())``: a :class:`rlvr.config.Config`,
  by the rules of ``rlvr train`` (preset < YAML < ``key=value`` overrides), validated;
- ``rlvr.train(config, reward=..., dataset=..., callbacks=...)``: one run, its summary;
- ``rlvr.evaluate(model, ...)``: pass@k / maj@k of a model directory, like ``rlvr eval``;
- ``rlvr.verify(completion, answer, verifier=...)``: one :class:`rlvr.types.Verdict`.

A reward is a verifier name (``"math"``), ``"module:function"``, or a function: rlvr's
``f(completion, sample) -> Verdict | float`` or TRL's ``f(completions, **row_fields) ->
list[float]`` (``rlvr.verifiers.registry``). A function is recorded in ``config.json`` by its
import path and registered for this process, so a resume (the same script, or ``rlvr train
--resume`` when the function lives in an importable module) finds it again. An in-memory
dataset (a list of dicts, a ``datasets.Dataset``) is recorded as data: written to the run
directory as ``data/train.jsonl`` (``data/eval.jsonl``), which ``task.train_path`` then names.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rlvr.config import Config, load_config, validate
from rlvr.train.api import as_config, reward_spec, train, use_reward, write_rows
from rlvr.types import Sample, Verdict

__all__ = ["load_config", "train", "evaluate", "verify", "reward_spec"]


def evaluate(model: str | Path, config: Config | str | Path | None = None, *, reward: Any = None,
             dataset: Any = None, n: int = 1, problems: int | None = None, temperature: float | None = None,
             overrides: Iterable[str] = (), output: str | Path = "runs/eval") -> dict:
    """pass@k and maj@k (k = 1, 2, 4, ... up to ``n``) of a model directory (a checkpoint,
    any Hugging Face causal LM, a ``.gguf`` file) on a task's held-out problems, as ``rlvr
    eval`` prints them. Without ``config`` the model's own run config is used when it has
    one, else the demo's. ``dataset``: held-out rows in memory (a list of dicts, a
    ``datasets.Dataset``). A progress bar over the problems goes to standard error, unless
    ``overrides`` hold ``log.progress=false``."""
    from rlvr.commands.eval import check_eval_args, eval_config, run_eval
    from rlvr.models.base import user_model_dir

    check_eval_args(n, problems, temperature)
    model_dir = user_model_dir(str(model), None, log=lambda text: print(text, file=sys.stderr, flush=True))
    overrides = ([f"reward.verifier={reward_spec(reward)}"] if reward is not None else []) + list(overrides)
    if config is None:
        cfg = eval_config(model_dir, overrides=overrides)  # the run's own config, its reward replaced
    else:
        cfg = as_config(config, overrides)
    if reward is not None or callable(cfg.reward.verifier):
        use_reward(cfg, reward)
    out = Path(output)
    if dataset is not None:
        path = out / "data" / "eval.jsonl"
        write_rows(dataset, path, "dataset", resume=False)
        cfg.task.name, cfg.task.train_path, cfg.task.eval_path = "dataset", str(path), str(path)
    validate(cfg)
    shown = cfg.log.progress if any(str(o).startswith("log.progress=") for o in overrides) else True
    return run_eval(cfg, [model_dir], n=n, ks=None, problems=problems, temperature=temperature, output=out,
                    progress=shown)


def verify(completion: str, answer: Any = None, *, verifier: Any = "exact", sample: Sample | None = None,
           **fields: Any) -> Verdict:
    """Grade one completion: ``rlvr.verify("<answer>8</answer>", "8")`` or ``verifier="math"``,
    ``"module:function"``, a function, a spec dict; ``fields`` become the sample's fields
    (``tests=...``, ``statement=...``) or ``sample`` gives the whole Sample. A verifier that
    raises gives status ``error`` with the exception's text, as in training."""
    from rlvr.verifiers.composite import as_verifier
    from rlvr.verifiers.pool import run_one

    if sample is None:
        sample = Sample(id="0", prompt=str(fields.pop("prompt", "")), answer=None if answer is None else str(answer),
                        fields=fields)
    spec = reward_spec(verifier) if callable(verifier) and not hasattr(verifier, "key") else verifier
    return run_one(as_verifier(spec), completion, sample)[0]  # an exception is status "error" with its text
