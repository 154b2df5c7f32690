"""Run directories are safe: an occupied --output is refused unless --resume or --overwrite,
the default runs/<name> moves on to runs/<name>-2 and says so, --resume refuses a config that
would mix two models, and a damaged latest checkpoint is reported in one line and the run
resumes from the newest intact one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rlvr.cli import main


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cache")  # one smoke warm-start for the module


def smoke(cache: Path, *extra: str) -> list[str]:
    return ["train", "--preset", "smoke", "threads=1", f"model.cache_dir={cache}", "log.report=false", *extra]


def train_steps(run: Path) -> list[int]:
    rows = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    return [r["step"] for r in rows if r["kind"] == "train"]


@pytest.fixture(scope="module")
def finished(cache, tmp_path_factory) -> Path:
    """A finished 4-step smoke run with checkpoints step_2 and step_4."""
    run = tmp_path_factory.mktemp("finished") / "run"
    assert main(smoke(cache, "--output", str(run))) == 0
    assert sorted(p.name for p in (run / "checkpoints").glob("step_*")) == ["step_2", "step_4"]
    return run


def copy_of(run: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "run"
    shutil.copytree(run, dest)
    return dest


def test_occupied_output_is_refused_and_overwrite_replaces(finished, cache, tmp_path, capsys):
    run = copy_of(finished, tmp_path)
    before = (run / "metrics.jsonl").read_text()
    capsys.readouterr()
    assert main(smoke(cache, "--output", str(run))) == 2  # was: exit 0, appending a second run's rows
    err = capsys.readouterr().err.strip()
    assert err == (f"rlvr train: error: run directory {run} already holds a finished run; add --resume to continue "
                   f"it, --overwrite to replace it, or pick another --output")
    assert (run / "metrics.jsonl").read_text() == before
    assert main(smoke(cache, "--output", str(run), "--overwrite", "train.steps=1")) == 0
    assert "--overwrite: removed the previous run's config.json, metrics.jsonl" in capsys.readouterr().err
    assert train_steps(run) == [1]
    assert sorted(p.name for p in (run / "checkpoints").glob("step_*")) == ["step_1"]


def test_default_output_run_twice_moves_on_and_says_so(cache, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # the README's `rlvr train` twice, with the smoke preset's runs/smoke
    assert main(smoke(cache, "train.steps=1")) == 0
    first = (tmp_path / "runs/smoke/metrics.jsonl").read_text()
    capsys.readouterr()
    assert main(smoke(cache, "train.steps=1")) == 0
    err = capsys.readouterr().err
    assert ("runs/smoke already holds a finished run; this run writes to runs/smoke-2 (--resume continues "
            "runs/smoke, --overwrite replaces it)") in err
    assert (tmp_path / "runs/smoke/metrics.jsonl").read_text() == first
    assert train_steps(tmp_path / "runs/smoke-2") == [1]
    assert json.loads((tmp_path / "runs/smoke-2/config.json").read_text())["output"] == "runs/smoke-2"


def test_resume_refuses_a_model_change_naming_the_keys(finished, cache, tmp_path, capsys):
    run = copy_of(finished, tmp_path)
    saved = (run / "config.json").read_text()
    capsys.readouterr()
    # was: exit 0, the policy from the old checkpoint, the KL reference from a new base, config.json rewritten
    assert main(smoke(cache, "--output", str(run), "--resume", "model.hidden=64", "train.steps=6")) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("rlvr train: error: --resume would mix two models: this config changes "
                          "model.hidden 32 -> 64 against ")
    assert (run / "config.json").read_text() == saved


@pytest.mark.parametrize("damaged,cause", [
    ("model.safetensors", "model.safetensors is truncated ("),
    ("trainer_state.pt", "trainer_state.pt is truncated ("),
])
def test_damaged_latest_checkpoint_resumes_from_the_newest_intact_one(finished, cache, tmp_path, capsys, damaged,
                                                                      cause):
    run = copy_of(finished, tmp_path)
    f = run / "checkpoints" / "step_4" / damaged
    f.write_bytes(f.read_bytes()[: f.stat().st_size // 2])
    capsys.readouterr()
    assert main(smoke(cache, "--output", str(run), "--resume", "train.steps=5")) == 0  # was: a traceback
    err = capsys.readouterr().err
    line = next(x for x in err.splitlines() if "damaged" in x)
    assert line.startswith(f"resume: damaged checkpoint step_4 ({cause}")
    assert line.endswith("resuming from step_2, the newest intact one")
    assert "resume: continuing from step_2 (step 2" in err
    assert train_steps(run) == [1, 2, 3, 4, 5]  # the rows past step 2 were dropped and trained again


def test_no_intact_checkpoint_is_one_line(finished, cache, tmp_path, capsys):
    run = copy_of(finished, tmp_path)
    for step in ("step_2", "step_4"):
        f = run / "checkpoints" / step / "model.safetensors"
        f.write_bytes(f.read_bytes()[:100])
    capsys.readouterr()
    assert main(smoke(cache, "--output", str(run), "--resume")) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"rlvr train: error: no intact checkpoint under {run / 'checkpoints'}: step_4 "
                          f"(model.safetensors is truncated (100 of ")
    assert "\n" not in err


def test_a_hugging_face_model_folder_is_left_alone_by_train_and_overwrite(cache, tmp_path, capsys):
    model = tmp_path / "my-model"
    model.mkdir()
    (model / "config.json").write_text('{"model_type": "llama", "hidden_size": 8}')
    (model / "model.safetensors").write_bytes(b"weights")
    before = {p.name: p.read_bytes() for p in model.iterdir()}
    for flag in ((), ("--overwrite",), ("--resume",)):
        capsys.readouterr()
        assert main(smoke(cache, "--output", str(model), *flag)) == 2  # was: --overwrite replaced config.json
        assert capsys.readouterr().err.strip() == (
            f"rlvr train: error: {model} holds a Hugging Face model (config.json with model_type 'llama', "
            f"model.safetensors), not an rlvr run; a run would overwrite its config.json (--overwrite would delete "
            f"it), so it is left alone: pick another --output")
        assert {p.name: p.read_bytes() for p in model.iterdir()} == before


HOLD_LOCK = ("import sys, time\nfrom pathlib import Path\nfrom rlvr.train.run import lock_run_dir\n"
             "lock_run_dir(Path(sys.argv[1]))\nprint('locked', flush=True)\ntime.sleep(600)\n")


def test_a_live_run_holds_its_directory_and_a_dead_ones_lock_is_free(finished, cache, tmp_path, capsys):
    import os
    import signal
    import subprocess
    import sys

    run = copy_of(finished, tmp_path)
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(run)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        for extra in (("--resume", "train.steps=6"), ("--overwrite",)):
            capsys.readouterr()
            assert main(smoke(cache, "--output", str(run), *extra)) == 2  # was: a second copy trained into it
            err = capsys.readouterr().err.strip()
            assert err.startswith(f"rlvr train: error: run directory {run} is in use by a live run (pid {holder.pid} "
                                  f"on ")
            assert err.endswith("wait for it to finish or stop it, or pick another --output")
        assert train_steps(run) == [1, 2, 3, 4]
    finally:
        os.kill(holder.pid, signal.SIGKILL)  # as kill -9 would: the kernel frees its lock
        holder.wait()
    assert main(smoke(cache, "--output", str(run), "--resume", "train.steps=5")) == 0
    assert train_steps(run) == [1, 2, 3, 4, 5]
    assert (run / "run.lock").read_text().startswith(f"pid {os.getpid()} on ")  # the last holder, now unlocked
    from rlvr.train.run import live_holder

    assert live_holder(run) is None  # released when the run ended


def test_the_running_trainer_holds_the_lock(cache, tmp_path):
    import subprocess
    import sys

    import rlvr

    run, refusals = tmp_path / "run", []

    def second_start(row):
        if row["kind"] == "train" and row["step"] == 1:
            proc = subprocess.run([sys.executable, "-m", "rlvr.cli", *smoke(cache, "--output", str(run), "--resume")],
                                  capture_output=True, text=True, timeout=300)
            refusals.append((proc.returncode, proc.stderr.strip().splitlines()[-1]))

    rlvr.train("smoke", callbacks=[second_start], overrides=[f"output={run}", "train.steps=2", "threads=1",
                                                             f"model.cache_dir={cache}", "log.report=false"])
    import os
    import socket

    assert [code for code, _ in refusals] == [2]  # was: exit 0, a second copy trained into the same files
    assert refusals[0][1].startswith(f"rlvr train: error: run directory {run} is in use by a live run "
                                     f"(pid {os.getpid()} on {socket.gethostname()}, started ")
    assert train_steps(run) == [1, 2]


def test_a_read_only_output_is_one_line(cache, tmp_path, capsys, monkeypatch):
    import errno

    target = tmp_path / "ro" / "run"
    real_mkdir = Path.mkdir

    def mkdir(self, *a, **kw):
        if self == target:
            raise OSError(errno.EROFS, "Read-only file system", str(self))
        return real_mkdir(self, *a, **kw)

    monkeypatch.setattr(Path, "mkdir", mkdir)
    capsys.readouterr()
    assert main(smoke(cache, "--output", str(target))) == 2  # was: an OSError traceback
    assert capsys.readouterr().err.strip() == (f"rlvr train: error: cannot write to the run directory {target}: "
                                               f"Read-only file system; pick another --output")
