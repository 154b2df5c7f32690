"""Training-loop faults, each injected into a real (smoke-sized, in-process) run:

- a non-finite loss: the step is skipped (no optimizer step), counted in
  ``faults/nonfinite_steps``, and the run goes on; three in a row stop it with a message
  that names the last good checkpoint, which stays loadable;
- disk full while writing a checkpoint: a periodic failure is counted in
  ``faults/checkpoint_errors`` and training goes on; a failed final checkpoint stops the
  run with a clear message; either way ``latest`` still names an intact checkpoint and no
  half-written folder is left;
- a corrupt config file and a malformed dataset row: one-line errors, no traceback.

The run faults are checked in both modes: synchronous, and asynchronous (``train.mode=async``,
generation on Ray actors), since both share one loop and its fault handling.
"""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
import torch

import rlvr.algo
import rlvr.train.loop as loop
from rlvr.cli import main as cli_main
from rlvr.config import load_config
from rlvr.train import checkpoint as ckpt

BASE = ["train.steps=6", "train.checkpoint_every=2", "threads=1", "log.report=false", "log.samples_every=0",
        "eval.problems=4"]


@pytest.fixture(params=["sync", "async"])
def mode(request):
    if request.param == "async":
        request.getfixturevalue("ray_session")
    return request.param


def run(tmp_path: Path, cache_dir: Path, mode: str, extra=()):
    out = tmp_path / "run"
    cfg = load_config(preset="smoke", overrides=[*BASE, f"output={out}", f"model.cache_dir={cache_dir}",
                                                 f"train.mode={mode}", *extra])
    lines: list[str] = []
    try:
        loop.train(cfg, log=lines.append)
        error = None
    except loop.RunStopped as exc:
        error = str(exc)
    return out, lines, error


def train_rows(out: Path) -> list[dict]:
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    return [r for r in rows if r["kind"] == "train"]


def assert_intact_latest(out: Path, step: int) -> None:
    from transformers import AutoModelForCausalLM

    root = out / "checkpoints"
    latest = ckpt.latest_checkpoint(root)
    assert latest == root / f"step_{step}"
    model = AutoModelForCausalLM.from_pretrained(latest)
    assert all(torch.isfinite(p).all() for p in model.parameters())
    assert ckpt.load_trainer_state(latest)["state"]["step"] == step
    assert not [p.name for p in root.iterdir() if ".tmp-" in p.name or ".replaced-" in p.name]


def nan_on_updates(monkeypatch, bad_updates: set[int]) -> None:
    """Make the policy loss NaN during the given update calls (1-based)."""
    real_update, real_loss = loop.update_policy, rlvr.algo.policy_loss
    calls = {"n": 0}

    def update(*a, **kw):
        calls["n"] += 1
        return real_update(*a, **kw)

    def loss(*a, **kw):
        value, stats = real_loss(*a, **kw)
        return (value * float("nan"), stats) if calls["n"] in bad_updates else (value, stats)

    monkeypatch.setattr(loop, "update_policy", update)
    monkeypatch.setattr(rlvr.algo, "policy_loss", loss)


def test_a_nan_loss_skips_the_step_counts_it_and_training_goes_on(tmp_path, cache_dir, monkeypatch, mode):
    nan_on_updates(monkeypatch, {3})
    out, lines, error = run(tmp_path, cache_dir, mode)
    assert error is None
    rows = train_rows(out)
    assert [r["step"] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert [r.get("faults/nonfinite_steps") for r in rows] == [None, None, 1, 1, 1, 1]
    assert "grad_norm" not in rows[2] and "grad_norm" in rows[3]  # step 3 applied no update
    assert any("step 3: skipped" in line for line in lines)
    assert_intact_latest(out, 6)


def test_three_nan_steps_in_a_row_stop_the_run_and_keep_the_last_good_checkpoint(tmp_path, cache_dir, monkeypatch,
                                                                                 mode):
    nan_on_updates(monkeypatch, {3, 4, 5})
    out, _, error = run(tmp_path, cache_dir, mode)
    assert error is not None and "stopped the run at step 5: nonfinite_grad" in error
    assert "3 steps in a row had a non-finite loss or gradient" in error
    assert "the last good checkpoint is" in error and "step_4" in error and "--resume" in error
    rows = train_rows(out)
    assert [r["step"] for r in rows] == [1, 2, 3, 4, 5]  # the failing step's row is written too
    assert rows[4]["doctor/nonfinite_grad"] == 1 and rows[4]["faults/nonfinite_steps"] == 3
    summary = json.loads((out / "summary.json").read_text())
    assert summary["stop"]["reason"] == "doctor" and summary["stop"]["name"] == "nonfinite_grad"
    assert_intact_latest(out, 4)


def disk_full_on_saves(monkeypatch, bad_saves: set[int]) -> None:
    """torch.save (the trainer state, the last file of a checkpoint) fails with ENOSPC on the given saves."""
    real = torch.save
    calls = {"n": 0}

    def save(obj, f, *a, **kw):
        if not isinstance(f, (str, Path)):  # an in-memory buffer (Ray serialising weights): not a disk write
            return real(obj, f, *a, **kw)
        calls["n"] += 1
        if calls["n"] in bad_saves:
            Path(f).write_bytes(b"\0" * 100)  # a partial file, as a full disk leaves
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(obj, f, *a, **kw)

    monkeypatch.setattr(ckpt.torch, "save", save)


def test_disk_full_on_a_periodic_checkpoint_is_counted_and_training_goes_on(tmp_path, cache_dir, monkeypatch, mode):
    disk_full_on_saves(monkeypatch, {2})  # saves: step 2, step 4 (fails), final step 6
    out, lines, error = run(tmp_path, cache_dir, mode)
    assert error is None
    assert [r.get("faults/checkpoint_errors") for r in train_rows(out)] == [None, None, None, None, 1, 1]
    assert any("checkpoint at step 4 failed" in line and "step_2" in line for line in lines)
    assert not (out / "checkpoints" / "step_4").exists()
    assert_intact_latest(out, 6)


def test_disk_full_on_the_final_checkpoint_stops_with_a_message_and_keeps_the_last_one(tmp_path, cache_dir,
                                                                                       monkeypatch, mode):
    disk_full_on_saves(monkeypatch, {3})
    out, _, error = run(tmp_path, cache_dir, mode)
    assert error is not None and "could not write the final checkpoint (step 6)" in error
    assert "No space left on device" in error and "step_4" in error
    assert_intact_latest(out, 4)


def torch_reports_disk_full(monkeypatch, bad_saves: set[int]) -> None:
    """torch.save fails as it does on a full disk (measured on a 420 KB tmpfs): a RuntimeError
    from its zip writer, not an OSError."""
    real = torch.save
    calls = {"n": 0}

    def save(obj, f, *a, **kw):
        if not isinstance(f, (str, Path)):
            return real(obj, f, *a, **kw)
        calls["n"] += 1
        if calls["n"] in bad_saves:
            Path(f).write_bytes(b"PK\0")
            raise RuntimeError("[enforce fail at inline_container.cc:672] . unexpected pos 94912 vs 94800")
        return real(obj, f, *a, **kw)

    monkeypatch.setattr(ckpt.torch, "save", save)


def test_torch_reporting_a_full_disk_as_runtime_error_is_counted_and_training_goes_on(tmp_path, cache_dir,
                                                                                      monkeypatch):
    torch_reports_disk_full(monkeypatch, {2})  # was: the run died with torch's traceback at step 4
    out, lines, error = run(tmp_path, cache_dir, "sync")
    assert error is None
    assert [r.get("faults/checkpoint_errors") for r in train_rows(out)] == [None, None, None, None, 1, 1]
    warning = [line for line in lines if "checkpoint at step 4 failed" in line]
    assert len(warning) == 1 and warning[0].startswith(
        "warning: checkpoint at step 4 failed (writing step_4 failed (RuntimeError: [enforce fail at "
        "inline_container.cc:672] . unexpected pos 94912 vs 94800); ")
    assert " MB free on its disk); the last good checkpoint is " in warning[0]
    assert warning[0].endswith("step_2; training continues")
    assert_intact_latest(out, 6)


def test_a_failed_checkpoint_write_is_an_oserror_and_leaves_the_previous_one(tmp_path, monkeypatch):
    from rlvr.models.tiny import build_char_tokenizer, build_tiny_model

    tokenizer = build_char_tokenizer()
    model = build_tiny_model(tokenizer)
    root = tmp_path / "checkpoints"
    ckpt.save_checkpoint(root, 2, model, tokenizer, {"state": {"step": 2}})
    torch_reports_disk_full(monkeypatch, {1})
    with pytest.raises(ckpt.CheckpointWriteError, match=r"writing step_4 failed \(RuntimeError: .*\); [\d.]+ MB free"):
        ckpt.save_checkpoint(root, 4, model, tokenizer, {"state": {"step": 4}})
    assert sorted(p.name for p in root.iterdir()) == ["latest", "step_2"]
    assert ckpt.checkpoint_problem(root / "step_2") is None and ckpt.latest_checkpoint(root) == root / "step_2"


def test_disk_full_while_moving_the_latest_pointer_leaves_the_old_pointer(tmp_path, monkeypatch):
    pointer = tmp_path / "latest"
    pointer.write_text("step_2\n")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(ckpt.os, "fsync", full)
    with pytest.raises(OSError):
        ckpt.write_text_atomic(pointer, "step_4\n")
    assert pointer.read_text() == "step_2\n"
    assert [p.name for p in tmp_path.iterdir()] == ["latest"]


@pytest.mark.parametrize("content,expected", [
    (b"\xff\xfe\x00\x80garbage", "is not UTF-8 text"),
    (b"train:\n  steps: [1, 2\n", "is not valid YAML"),
    (b"- a\n- b\n", "must hold a mapping"),
    (b"train:\n  steps: many\n", "train.steps' expects int"),
    (b"trian:\n  steps: 3\n", "unknown config key 'trian'"),
    (b"train: 5\n", "is a section"),
])
def test_a_corrupt_config_file_is_one_line_error(tmp_path, capsys, content, expected):
    path = tmp_path / "bad.yaml"
    path.write_bytes(content)
    assert cli_main(["train", str(path), f"output={tmp_path / 'run'}"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("rlvr train: error:") and expected in err and "Traceback" not in err
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("line,expected", [
    ('{"prompt": "2+2=", "answer": ', "line 3: invalid JSON"),
    ('["2+2=", "4"]', "line 3: expected a JSON object, got list"),
    ('{"question": "2+2=", "answer": "4"}', "line 3: missing field 'prompt'"),
    ('{"prompt": "2+2=", "answer": ""}', "line 3: field 'answer'"),
])
def test_a_malformed_dataset_row_stops_before_training_and_names_the_line(tmp_path, capsys, line, expected):
    pytest.importorskip("rlvr.tasks.dataset", reason="the dataset loader is not in this checkout")
    data = tmp_path / "train.jsonl"
    good = [json.dumps({"prompt": f"{i}+1=", "answer": str(i + 1)}) for i in range(2)]
    data.write_text("\n".join([*good, line, *good]) + "\n")
    ckpts = tmp_path / "run" / "checkpoints"
    (ckpts / "step_2").mkdir(parents=True)
    (ckpts / "step_2" / "trainer_state.pt").write_bytes(b"an earlier run's checkpoint")
    (ckpts / "latest").write_text("step_2\n")
    (tmp_path / "run" / "config.json").write_text("an earlier run's config")
    code = cli_main(["train", "task.name=dataset", f"task.train_path={data}", "task.eval_size=1",
                     f"output={tmp_path / 'run'}"])
    err = capsys.readouterr().err
    assert code == 2 and expected in err and "Traceback" not in err
    assert (tmp_path / "run" / "config.json").read_text() == "an earlier run's config"
    assert (ckpts / "latest").read_text() == "step_2\n"  # nothing of the earlier run touched
    assert (ckpts / "step_2" / "trainer_state.pt").read_bytes() == b"an earlier run's checkpoint"
