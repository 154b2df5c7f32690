"""Docs stay in step with the code: every logged metric key and every algorithm knob is documented."""

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

from rlvr.config import AlgoConfig

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_every_algorithm_knob_is_in_algorithms_md():
    text = (DOCS / "algorithms.md").read_text()
    missing = [f.name for f in dataclasses.fields(AlgoConfig) if f"`{f.name}`" not in text]
    assert missing == []


def test_every_key_a_run_logs_is_in_metrics_md(tmp_path, cache_dir):
    env = dict(os.environ, RLVR_CACHE=str(cache_dir), OMP_NUM_THREADS="1")
    keys = set()
    for algo in ("grpo", "dapo", "ppo"):
        out = tmp_path / algo
        proc = subprocess.run([sys.executable, "-m", "rlvr.cli", "train", "--preset", "smoke", "--output", str(out),
                               f"algo.name={algo}", "train.steps=2", "log.report=false"],
                              capture_output=True, text=True, env=env, timeout=120)
        assert proc.returncode == 0, proc.stderr
        for line in (out / "metrics.jsonl").read_text().splitlines():
            keys |= set(json.loads(line))
    text = (DOCS / "metrics.md").read_text()

    def documented(key):
        if key.startswith("alarm/"):
            return True
        if key.startswith("refused/"):  # one row for the family, each reason named in it
            return "`refused/<reason>`" in text and f"`{key.split('/', 1)[1]}`" in text
        return f"`{key}`" in text

    missing = sorted(k for k in keys if not documented(k))
    assert missing == []
