"""examples/gsm8k_format runs as documented: GSM8K-format files, a TRL-style reward named
module:function, two verifier worker processes, from the command line and from Python; the
reward's ``answer=`` is the extracted number."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "gsm8k_format"


def documented_command() -> list[str]:
    block = re.search(r"```\n(rlvr train .*?)```", (EXAMPLE / "README.md").read_text(), re.S).group(1)
    return block.replace("\\\n", " ").split()


def copy_example(tmp_path: Path) -> Path:
    folder = tmp_path / "gsm8k_format"
    shutil.copytree(EXAMPLE, folder, ignore=shutil.ignore_patterns("runs", "__pycache__"))
    return folder


def check_run(run: Path) -> None:
    saved = json.loads((run / "config.json").read_text())
    assert saved["reward"]["verifier"] == "gsm8k_reward:correctness" and saved["reward"]["workers"] == 2
    assert saved["task"]["answer_extract"] == "gsm8k"
    samples = [json.loads(line) for line in (run / "samples.jsonl").read_text().splitlines()]
    assert samples and {s["status"] for s in samples} <= {"ok", "wrong"}  # every call returned a number
    assert all(re.fullmatch(r"-?\d+", s["answer"]) for s in samples)  # the reference is the number after ####
    summary = json.loads((run / "summary.json").read_text())
    assert summary["steps"] == 4 and 0.0 <= summary["final"]["pass@1"] <= 1.0


def test_the_shipped_files_are_what_make_data_writes(tmp_path):
    proc = subprocess.run([sys.executable, str(EXAMPLE / "make_data.py"), str(tmp_path)], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    for name in ("train.jsonl", "test.jsonl"):
        assert (tmp_path / name).read_text() == (EXAMPLE / name).read_text()
    row = json.loads((EXAMPLE / "test.jsonl").read_text().splitlines()[0])
    assert set(row) == {"question", "answer"} and re.search(r"\n#### -?\d+$", row["answer"])


def test_the_reward_receives_the_extracted_answer():
    sys.path.insert(0, str(EXAMPLE))
    try:
        from gsm8k_reward import correctness
    finally:
        sys.path.remove(str(EXAMPLE))
    assert correctness(["<think>8+6=14</think><answer>10</answer>", "<answer>11</answer>", "10"],
                       ["10", "10", "10"]) == [1.0, 0.0, 0.0]


def test_from_the_command_line_and_from_python(tmp_path):
    folder = copy_example(tmp_path)
    env = dict(os.environ, OMP_NUM_THREADS="1", RLVR_CACHE=str(tmp_path / "cache"))
    cli = subprocess.run([sys.executable, "-m", "rlvr.cli", *documented_command()[1:]], cwd=folder, env=env,
                         capture_output=True, text=True, timeout=600)
    assert cli.returncode == 0, cli.stderr[-3000:]
    assert "done: pass@1" in cli.stderr
    check_run(folder / "runs" / "gsm8k-format")
    py = subprocess.run([sys.executable, "train.py"], cwd=folder, env=env, capture_output=True, text=True,
                        timeout=600)
    assert py.returncode == 0, py.stderr[-3000:]
    assert re.fullmatch(r"pass@1 \d\.\d\d -> \d\.\d\d", py.stdout.splitlines()[-1])
    assert py.stderr.count("warm-start:") == 1  # the script ran once, not once more per worker
    check_run(folder / "runs" / "gsm8k-format-py")
