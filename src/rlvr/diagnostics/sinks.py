"""Metric sinks: where each metrics row goes (JSONL file, stdout, TensorBoard, W&B).

A row is a flat dict with ``step`` (int) and ``kind`` ("train" or "eval") plus numeric
metrics. ``build_sink(kinds, run_dir)`` returns one object with ``.log(row)`` and
``.close()`` that fans out to every chosen sink; the JSONL sink (``run_dir/metrics.jsonl``,
appended, flushed after every line so a killed run loses nothing) is always included.
``NullSink`` accepts rows and does nothing, so call sites never need an ``if``.

TensorBoard and W&B are imported lazily, by name, when their sink is built: neither is
needed to import rlvr. W&B runs in offline mode unless WANDB_MODE says otherwise, so
it works without a network (sync later with ``wandb sync``).

Deliberately not here: computing metrics, deciding which steps to log (the trainer
does), or swallowing a failing sink: a sink that raises stops the run loudly.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from rlvr.errors import UserError

ROW_KINDS = ("train", "eval")

# The stdout line shows these keys (those present), in this order, with short labels.
STDOUT_KEYS = (
    ("reward/mean", "reward"), ("acc", "acc"), ("pass@1", "pass@1"), ("entropy", "ent"),
    ("kl_ref", "kl"), ("zero_var/observed", "zvar"), ("len/mean", "len"), ("clip_frac/high", "clip"),
    ("grad_norm", "gnorm"), ("time/step", "s/step"),
)


def _check_row(row: Mapping) -> None:
    if "step" not in row or "kind" not in row:
        raise ValueError(f"a metrics row needs 'step' and 'kind' keys, got keys {sorted(row)}")
    if row["kind"] not in ROW_KINDS:
        raise ValueError(f"row kind must be one of {', '.join(ROW_KINDS)}, got {row['kind']!r}")


def _jsonable(value: Any) -> Any:
    """Numbers from numpy or torch scalars become Python numbers; anything else is refused."""
    if hasattr(value, "item") and callable(value.item):
        return value.item()
    raise TypeError(f"cannot write {type(value).__name__} value {value!r} to a metrics row")


def _scalars(row: Mapping) -> dict[str, float]:
    """The numeric metrics of a row (step, kind and non-numbers left out)."""
    out = {}
    for key, value in row.items():
        if key in ("step", "kind") or isinstance(value, bool):
            continue
        if hasattr(value, "item") and callable(value.item):
            value = value.item()
        if isinstance(value, (int, float)):
            out[key] = float(value)
    return out


class Sink:
    """The interface: ``log(row)`` and ``close()``."""

    def log(self, row: Mapping) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self) -> Sink:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class NullSink(Sink):
    """Accepts every row and does nothing."""

    def log(self, row: Mapping) -> None:
        _check_row(row)


class JsonlSink(Sink):
    """Appends one JSON object per row to ``path`` and flushes it at once."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "a", encoding="utf-8")

    def log(self, row: Mapping) -> None:
        _check_row(row)
        self._file.write(json.dumps(dict(row), default=_jsonable) + "\n")
        self._file.flush()

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()


def _fmt(value: float) -> str:
    if not math.isfinite(value):
        return str(value)
    if value != 0 and (abs(value) >= 1e4 or abs(value) < 1e-3):
        return f"{value:.2e}"
    return f"{value:.4g}"


class StdoutSink(Sink):
    """Prints a compact line for every ``every``-th train step and for every eval row."""

    def __init__(self, every: int = 10, keys: Sequence[tuple[str, str]] = STDOUT_KEYS,
                 stream: TextIO | None = None) -> None:
        if every < 1:
            raise ValueError(f"stdout_every must be >= 1, got {every}")
        self.every, self.keys, self.stream = every, tuple(keys), stream

    def format(self, row: Mapping) -> str:
        values = _scalars(row)
        parts = [f"{label} {_fmt(values[key])}" for key, label in self.keys if key in values]
        alarms = [key.split("/", 1)[1] for key, v in values.items() if key.startswith("alarm/") and v]
        if alarms:
            parts.append("ALARM " + ",".join(alarms))
        return f"{row['kind']:5s} step {row['step']:>5} | " + "  ".join(parts)

    def log(self, row: Mapping) -> None:
        _check_row(row)
        if row["kind"] == "eval" or int(row["step"]) % self.every == 0:
            print(self.format(row), file=self.stream or sys.stdout, flush=True)


def _tag(kind: str, key: str) -> str:
    """TensorBoard/W&B name: train keys as logged, eval keys under eval/."""
    if kind == "eval" and not key.startswith("eval/"):
        return f"eval/{key}"
    return key


class TensorBoardSink(Sink):
    """Scalars to ``run_dir/tb`` through torch's SummaryWriter, or tensorboardX's."""

    def __init__(self, log_dir: Path) -> None:
        writer_cls = _tensorboard_writer()
        self.writer = writer_cls(log_dir=str(log_dir))

    def log(self, row: Mapping) -> None:
        _check_row(row)
        step = int(row["step"])
        for key, value in _scalars(row).items():
            self.writer.add_scalar(_tag(row["kind"], key), value, step)

    def close(self) -> None:
        self.writer.flush()
        self.writer.close()


def _tensorboard_writer():
    try:
        from torch.utils.tensorboard import SummaryWriter

        return SummaryWriter
    except ImportError:  # torch's writer needs the tensorboard package; try tensorboardX
        pass
    try:
        from tensorboardX import SummaryWriter

        return SummaryWriter
    except ImportError as exc:
        raise UserError("the tensorboard sink needs `pip install tensorboard` (or tensorboardX)") from exc


class WandbSink(Sink):
    """Rows to a W&B run in ``run_dir/wandb``; offline unless WANDB_MODE is set."""

    def __init__(self, run_dir: Path, config: Mapping | None) -> None:
        try:
            import wandb
        except ImportError as exc:
            raise UserError("the wandb sink needs `pip install wandb`") from exc
        mode = os.environ.get("WANDB_MODE", "offline")
        self.run = wandb.init(project=os.environ.get("WANDB_PROJECT", "rlvr"), name=Path(run_dir).name,
                              dir=str(run_dir), config=dict(config or {}), mode=mode)

    def log(self, row: Mapping) -> None:
        _check_row(row)
        data = {_tag(row["kind"], k): v for k, v in _scalars(row).items()}
        self.run.log(data, step=int(row["step"]))

    def close(self) -> None:
        self.run.finish()


class MultiSink(Sink):
    """Sends every row to each sink in turn."""

    def __init__(self, sinks: Sequence[Sink]) -> None:
        self.sinks = list(sinks)

    def log(self, row: Mapping) -> None:
        _check_row(row)
        for sink in self.sinks:
            sink.log(row)

    def close(self) -> None:
        for sink in self.sinks:
            sink.close()


SINK_BUILDERS: dict[str, Callable[[Path, Mapping | None, int], Sink]] = {
    "jsonl": lambda run_dir, config, every: JsonlSink(run_dir / "metrics.jsonl"),
    "stdout": lambda run_dir, config, every: StdoutSink(every),
    "tensorboard": lambda run_dir, config, every: TensorBoardSink(run_dir / "tb"),
    "wandb": lambda run_dir, config, every: WandbSink(run_dir, config),
    "null": lambda run_dir, config, every: NullSink(),
}


def build_sink(kinds: Sequence[str], run_dir: Path, config: Mapping | None = None, stdout_every: int = 10) -> MultiSink:
    """A sink that logs to JSONL (always) and to each named kind, each once."""
    unknown = [k for k in kinds if k not in SINK_BUILDERS]
    if unknown:
        raise UserError(f"unknown metric sink {unknown[0]!r}; valid sinks: {', '.join(SINK_BUILDERS)}")
    run_dir = Path(run_dir)
    ordered = ["jsonl"] + [k for k in dict.fromkeys(kinds) if k != "jsonl"]
    sinks: list[Sink] = []
    try:
        for kind in ordered:
            sinks.append(SINK_BUILDERS[kind](run_dir, config, stdout_every))
    except Exception:
        for sink in sinks:  # do not leave the JSONL file open when a later sink fails to start
            sink.close()
        raise
    return MultiSink(sinks)
