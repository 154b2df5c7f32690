"""`rlvr compare` on the smoke preset: every (preset, seed) run, then the side-by-side files."""

import json
import os
import subprocess
import sys


def test_compare_writes_table_and_page(tmp_path, cache_dir):
    env = dict(os.environ, RLVR_CACHE=str(cache_dir), OMP_NUM_THREADS="1")
    out = tmp_path / "cmp"
    proc = subprocess.run([sys.executable, "-m", "rlvr.cli", "compare", "--preset", "smoke", "--presets", "grpo,dapo",
                           "--seeds", "2", "--output", str(out), "train.steps=2", "log.report=false"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    table = json.loads((out / "compare.json").read_text())["table"]
    assert set(table) == {"grpo", "dapo"} and table["grpo"]["seeds"] == 2
    for run in ("grpo-s0", "grpo-s1", "dapo-s0", "dapo-s1"):
        cfg = json.loads((out / run / "config.json").read_text())
        assert cfg["algo"]["name"] == run.split("-")[0] and cfg["seed"] == int(run[-1])
    assert json.loads((out / "dapo-s0" / "config.json").read_text())["algo"]["eps_high"] == 0.28
    page = (out / "compare.html").read_text()
    assert page.count("<svg") >= 3 and "held-out pass@1" in page
    assert "| grpo | 2 |" in (out / "compare.md").read_text()


def test_compare_rejects_unknown_preset(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "rlvr.cli", "compare", "--presets", "grpo,nope", "--output",
                           str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "unknown preset(s) ['nope']" in proc.stderr
