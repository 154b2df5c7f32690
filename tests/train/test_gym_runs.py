"""A reasoning-gym task trained end to end on CPU (smoke-sized): from the command line with
``task.name=gym``, and from Python both with ``task.name=gym`` and with the rows
``gym_samples`` returns; each run reports held-out pass@1 before and after training."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("reasoning_gym") is None,
                                reason="reasoning-gym is not installed (pip install 'rlvr[gym]')")
GYM = ["task.name=gym", "task.gym_dataset=chain_sum", "task.gym_config={min_terms: 4, max_terms: 5, max_digits: 1}",
       "task.prompt_template=\"{prompt}? Use <think> and <answer>.\\n\"", "train.steps=2", "task.eval_size=6",
       "eval.problems=6"]
QUESTION = "State the final answer to the following arithmetic problem: "


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def check_run(out: Path, summary: dict, steps: int = 2) -> None:
    assert summary["steps"] == steps
    for when in ("base", "final"):
        assert 0.0 <= summary[when]["pass@1"] <= 1.0
    evals = [r for r in jsonl(out / "metrics.jsonl") if r["kind"] == "eval"]
    assert [r["step"] for r in evals] == [0, steps] and all("pass@1" in r for r in evals)
    assert [r["step"] for r in jsonl(out / "metrics.jsonl") if r["kind"] == "train"] == list(range(1, steps + 1))


def test_cli_trains_a_gym_task_and_reports_held_out_pass_at_1(tmp_path, cache_dir):
    out = tmp_path / "run"
    env = dict(os.environ, RLVR_CACHE=str(cache_dir), OMP_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-m", "rlvr.cli", "train", "--preset", "smoke", "--output", str(out),
                           *GYM], capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = json.loads((out / "summary.json").read_text())
    check_run(out, summary)
    assert f"base: held-out pass@1 {summary['base']['pass@1']:.3f} on 6 problems" in proc.stderr
    assert f"done: pass@1 {summary['base']['pass@1']:.3f} -> {summary['final']['pass@1']:.3f}" in proc.stderr
    config = json.loads((out / "config.json").read_text())
    assert (config["task"]["name"], config["task"]["gym_dataset"], config["reward"]["verifier"]) == \
        ("gym", "chain_sum", "gym")
    prompts = {r["prompt"] for r in jsonl(out / "samples.jsonl")}
    assert prompts and all(p.startswith(QUESTION) and p.endswith("? Use <think> and <answer>.\n") for p in prompts)


def test_python_trains_a_gym_task_by_name_and_from_gym_samples(tmp_path, cache_dir):
    import rlvr
    from rlvr.verifiers.gym import gym_samples

    lines: list[str] = []
    out = tmp_path / "by-name"
    summary = rlvr.train("smoke", overrides=[*GYM, f"output={out}"], log=lines.append)
    check_run(out, summary)
    assert any(line.startswith("base: held-out pass@1 ") for line in lines)

    rows = gym_samples("chain_sum", 30, seed=7, min_terms=4, max_terms=5, max_digits=1)
    out = tmp_path / "rows"
    summary = rlvr.train("smoke", dataset=rows, overrides=["train.steps=2", "task.eval_size=6", "eval.problems=6",
                                                           f"output={out}"], log=lines.append)
    check_run(out, summary)
    written = jsonl(out / "data" / "train.jsonl")
    assert len(written) == 30 and written[0]["gym_entry"] == json.loads(json.dumps(rows[0].fields["gym_entry"]))
    assert all(r["prompt"].startswith(QUESTION) for r in jsonl(out / "samples.jsonl"))
