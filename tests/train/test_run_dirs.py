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
