"""The whole system on CPU: the smoke preset end to end, and kill -9 + --resume.

The resumed run must reproduce the uninterrupted run exactly: same prompts in the same
order (no data repeated or skipped) and the same metrics (to 1e-6), because every RNG
state and the data position travel in the checkpoint.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

RLVR = [sys.executable, "-m", "rlvr.cli"]
VOLATILE = ("time/", "tokens_per_s")


def run_cli(args, env, timeout=120):
    return subprocess.run(RLVR + args, capture_output=True, text=True, env=env, timeout=timeout)


@pytest.fixture()
def env(cache_dir):
    e = dict(os.environ)
    e["RLVR_CACHE"] = str(cache_dir)
    e["OMP_NUM_THREADS"] = "1"
    return e


def rows(path: Path, kind: str) -> list[dict]:
    out = []
    for line in path.read_text().splitlines():
        row = json.loads(line)
        if row.get("kind", kind) == kind:
            out.append({k: v for k, v in row.items() if not k.startswith(VOLATILE)})
    return out


def test_smoke_preset_leaves_run_files_and_a_loadable_checkpoint(tmp_path, env):
    out = tmp_path / "run"
    proc = run_cli(["train", "--preset", "smoke", "--output", str(out)], env)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary) >= {"base", "final", "steps", "wall_s", "phases"}
    assert summary["steps"] == 4 and "pass@1" in summary["base"] and "pass@1" in summary["final"]
    train_rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    train_rows = [r for r in train_rows if r["kind"] == "train"]
    assert [r["step"] for r in train_rows] == [1, 2, 3, 4]
    for key in ("reward/mean", "reward/std", "acc", "format_rate", "zero_var/observed", "kl_ref", "entropy",
                "clip_frac/low", "len/mean", "grad_norm", "time/step", "tokens_per_s"):
        assert key in train_rows[0], key
    assert (out / "samples.jsonl").read_text().strip()
    assert json.loads((out / "config.json").read_text())["algo"]["loss_agg"] == "seq_mean_token_mean"
    from transformers import AutoModelForCausalLM, AutoTokenizer

    ckpt = Path(summary["checkpoint"])
    model = AutoModelForCausalLM.from_pretrained(ckpt)
    tok = AutoTokenizer.from_pretrained(ckpt)
    assert model.config.vocab_size >= len(tok)
    assert tok.decode(tok("<answer>12</answer>")["input_ids"]) == "<answer>12</answer>"


def _wait_for_checkpoint(out: Path, proc, min_step: int, timeout: float = 90) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        latest = out / "checkpoints" / "latest"
        if latest.is_file() and int(latest.read_text().strip().split("_")[1]) >= min_step:
            return
        if proc.poll() is not None:
            raise AssertionError(f"run ended before step {min_step}: {proc.stderr.read()}")
        time.sleep(0.05)
    raise AssertionError("no checkpoint in time")


def test_kill_9_then_resume_matches_uninterrupted_run(tmp_path, env):
    args = ["--preset", "smoke", "train.steps=14", "train.checkpoint_every=3", "log.samples_every=1",
            "log.samples_per_step=16", "eval.every=5", "log.report=false"]
    ref = tmp_path / "ref"
    assert run_cli(["train", *args, "--output", str(ref)], env).returncode == 0

    out = tmp_path / "killed"
    proc = subprocess.Popen(RLVR + ["train", *args, "--output", str(out)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _wait_for_checkpoint(out, proc, min_step=6)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    resumed = run_cli(["train", *args, "--output", str(out), "--resume"], env)
    assert resumed.returncode == 0, resumed.stderr
    assert "resume: continuing from step_" in resumed.stderr

    ref_samples = [(r["step"], r["prompt"], r["completion"]) for r in rows(ref / "samples.jsonl", "")]
    got_samples = [(r["step"], r["prompt"], r["completion"]) for r in rows(out / "samples.jsonl", "")]
    assert got_samples == ref_samples  # no prompt repeated or skipped, same completions
    for kind in ("train", "eval"):
        a, b = rows(ref / "metrics.jsonl", kind), rows(out / "metrics.jsonl", kind)
        assert [r["step"] for r in a] == [r["step"] for r in b]
        for ra, rb in zip(a, b):
            assert ra.keys() == rb.keys()
            for k in ra:
                if isinstance(ra[k], float):
                    assert rb[k] == pytest.approx(ra[k], abs=1e-6), (kind, ra["step"], k)
                else:
                    assert rb[k] == ra[k], (kind, ra["step"], k)
