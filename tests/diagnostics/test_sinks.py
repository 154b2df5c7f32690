"""Metric sinks: JSONL always written and flushed, stdout lines, lazy TensorBoard / W&B."""

from __future__ import annotations

import importlib.util
import io
import json

import pytest

from rlvr.diagnostics.sinks import NullSink, StdoutSink, build_sink
from rlvr.errors import UserError

ROWS = [
    {"step": 1, "kind": "train", "reward/mean": 0.25, "acc": 0.2, "entropy": 1.5},
    {"step": 2, "kind": "train", "reward/mean": 0.5, "acc": 0.4, "entropy": 1.4, "alarm/zero_variance": 1},
    {"step": 2, "kind": "eval", "pass@1": 0.45, "eval/len_mean": 20.0},
]


def read_jsonl(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_jsonl_always_written_and_flushed_each_line(tmp_path):
    sink = build_sink([], tmp_path / "run")
    sink.log(ROWS[0])
    assert read_jsonl(tmp_path / "run" / "metrics.jsonl") == [ROWS[0]]  # readable before close
    for row in ROWS[1:]:
        sink.log(row)
    sink.close()
    assert read_jsonl(tmp_path / "run" / "metrics.jsonl") == ROWS


def test_jsonl_appends_across_sinks(tmp_path):
    with build_sink(["jsonl"], tmp_path) as sink:  # naming jsonl again adds no second writer
        sink.log(ROWS[0])
    with build_sink([], tmp_path) as sink:
        sink.log(ROWS[1])
    assert read_jsonl(tmp_path / "metrics.jsonl") == ROWS[:2]


def test_numpy_and_torch_scalars_become_numbers(tmp_path):
    np = pytest.importorskip("numpy")
    torch = pytest.importorskip("torch")
    with build_sink([], tmp_path) as sink:
        sink.log({"step": np.int64(3), "kind": "train", "a": np.float32(0.5), "b": torch.tensor(2.0)})
    assert read_jsonl(tmp_path / "metrics.jsonl") == [{"step": 3, "kind": "train", "a": 0.5, "b": 2.0}]


def test_unwritable_values_fail_loud(tmp_path):
    with build_sink([], tmp_path) as sink, pytest.raises(TypeError, match="cannot write object"):
        sink.log({"step": 1, "kind": "train", "x": object()})


@pytest.mark.parametrize("row", [{"kind": "train"}, {"step": 1}, {"step": 1, "kind": "alarm"}])
def test_rows_need_step_and_a_known_kind(tmp_path, row):
    with build_sink([], tmp_path) as sink, pytest.raises(ValueError):
        sink.log(row)
    with pytest.raises(ValueError):
        NullSink().log(row)


def test_unknown_sink_lists_valid_ones(tmp_path):
    with pytest.raises(UserError,
                       match="unknown metric sink 'mlflow'; valid sinks: jsonl, stdout, tensorboard, wandb, null"):
        build_sink(["stdout", "mlflow"], tmp_path)
    assert not (tmp_path / "metrics.jsonl").exists()  # nothing built before the names are checked


def test_stdout_prints_every_nth_train_step_and_every_eval(tmp_path, capsys):
    with build_sink(["stdout"], tmp_path, stdout_every=2) as sink:
        for row in ROWS:
            sink.log(row)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2  # train step 1 skipped
    assert lines[0] == "train step     2 | reward 0.5  acc 0.4  ent 1.4  ALARM zero_variance"
    assert lines[1] == "eval  step     2 | pass@1 0.45"


def test_stdout_key_choice():
    stream = io.StringIO()
    StdoutSink(every=1, keys=[("acc", "accuracy")], stream=stream).log(ROWS[0])
    assert stream.getvalue() == "train step     1 | accuracy 0.2\n"


def test_null_sink_in_a_multi_sink(tmp_path):
    with build_sink(["null"], tmp_path) as sink:
        sink.log(ROWS[0])
    assert len(read_jsonl(tmp_path / "metrics.jsonl")) == 1


def _has_tensorboard() -> bool:
    return importlib.util.find_spec("tensorboard") is not None or importlib.util.find_spec("tensorboardX") is not None


@pytest.mark.skipif(not _has_tensorboard(), reason="neither tensorboard nor tensorboardX installed")
def test_tensorboard_sink_writes_scalars(tmp_path):
    with build_sink(["tensorboard"], tmp_path) as sink:
        for row in ROWS:
            sink.log(row)
    events = list((tmp_path / "tb").glob("events.out.tfevents.*"))
    assert len(events) == 1
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(str(tmp_path / "tb"))
    acc.Reload()
    tags = set(acc.Tags()["scalars"])
    assert {"reward/mean", "acc", "entropy", "eval/pass@1", "eval/len_mean"} <= tags
    assert [(e.step, e.value) for e in acc.Scalars("reward/mean")] == [(1, 0.25), (2, 0.5)]


@pytest.mark.skipif(importlib.util.find_spec("wandb") is None, reason="wandb not installed")
def test_wandb_sink_works_offline(tmp_path, monkeypatch):
    monkeypatch.setenv("WANDB_MODE", "offline")
    monkeypatch.setenv("WANDB_SILENT", "true")
    with build_sink(["wandb"], tmp_path / "run", config={"algo": {"name": "grpo"}}) as sink:
        for row in ROWS:
            sink.log(row)
    runs = list((tmp_path / "run" / "wandb").glob("offline-run-*"))
    assert len(runs) == 1 and list(runs[0].glob("*.wandb"))
    assert len(read_jsonl(tmp_path / "run" / "metrics.jsonl")) == 3


def test_importing_diagnostics_and_report_stays_light():
    import subprocess
    import sys

    code = ("import sys, rlvr.diagnostics, rlvr.report.html, rlvr.report.calculator, rlvr.commands.diagnostics; "
            "print(sorted(m for m in ('torch', 'numpy', 'matplotlib', 'wandb', 'tensorboard', 'tensorboardX') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
