"""kill -9 at a random moment, including in the middle of a checkpoint write, then
``--resume``: the metrics and samples equal those of an uninterrupted run with the same
seed (to 1e-6), and ``latest`` always names a complete checkpoint.

The kill point is drawn at random each run (its seed is in the failure message):
one test kills from inside a randomly chosen checkpoint write at a randomly chosen phase
(``kill_during_save.py``), the other from outside after a random delay. The reference and
resumed runs are in-process; only the killed run is a subprocess.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kill_during_save import PHASES

from rlvr.config import load_config
from rlvr.train.loop import train

HERE = Path(__file__).resolve().parent
# the entropy bonus gives every step a gradient even when all rewards are equal, so the weights and
# the optimizer state change every step and a wrong restore would show in the metrics
ARGS = ["train.steps=6", "train.checkpoint_every=2", "log.samples_every=1", "log.samples_per_step=16",
        "eval.every=3", "log.report=false", "threads=1", "algo.entropy_coef=0.01"]
SAVES = 3  # steps 2 and 4, then the final save at step 6 (after the final evaluation)
VOLATILE = ("time/", "tokens_per_s")


def config(out: Path, cache: Path):
    return load_config(preset="smoke", overrides=[*ARGS, f"output={out}", f"model.cache_dir={cache}"])


def rows(path: Path) -> list[dict]:
    return [{k: v for k, v in json.loads(line).items() if not k.startswith(VOLATILE)}
            for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    out = tmp_path_factory.mktemp("reference") / "run"
    train(config(out, cache), log=lambda line: None)
    return out, cache


def cli(args: list[str], out: Path, cache: Path) -> list[str]:
    return ["train", "--preset", "smoke", "--output", str(out), *ARGS, f"model.cache_dir={cache}", *args]


def resume_and_compare(out: Path, ref: Path, cache: Path, what: str) -> None:
    train(config(out, cache), resume=True, log=lambda line: None)
    for name in ("metrics.jsonl", "samples.jsonl"):
        a, b = rows(ref / name), rows(out / name)
        assert [(r["step"], r.get("kind")) for r in b] == [(r["step"], r.get("kind")) for r in a], (what, name)
        for ra, rb in zip(a, b):
            assert ra.keys() == rb.keys(), (what, name, ra["step"])
            for k, v in ra.items():
                if isinstance(v, float):
                    assert rb[k] == pytest.approx(v, abs=1e-6), (what, name, ra["step"], k)
                else:
                    assert rb[k] == v, (what, name, ra["step"], k)
    root = out / "checkpoints"
    assert (root / "latest").read_text().strip() == "step_6", what
    assert not [p.name for p in root.iterdir() if ".tmp-" in p.name or ".replaced-" in p.name], what


def test_kill_9_inside_a_checkpoint_write_then_resume_matches(tmp_path, reference):
    ref, cache = reference
    seed = int(time.time() * 1000) % 100_000
    rng = random.Random(seed)
    phase, nth = rng.choice(PHASES), rng.randint(1, SAVES)
    what = f"seed {seed}: killed at {phase} of save {nth}"
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, str(HERE / "kill_during_save.py"), phase, str(nth), "--",
                           *cli([], out, cache)], capture_output=True, text=True, timeout=240)
    assert proc.returncode == -signal.SIGKILL, (what, proc.stderr[-2000:])
    resume_and_compare(out, ref, cache, what)


def test_kill_9_at_a_random_moment_then_resume_matches(tmp_path, reference):
    ref, cache = reference
    seed = int(time.time() * 1000) % 100_000
    delay = random.Random(seed).uniform(0.0, 1.5)
    out = tmp_path / "run"
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "rlvr.cli", *cli([], out, cache)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while not (out / "metrics.jsonl").is_file() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.01)  # training has begun once the base evaluation is logged
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    code = proc.wait()
    what = f"seed {seed}: killed {delay:.2f} s after the base evaluation (exit {code})"
    resume_and_compare(out, ref, cache, what)


def test_async_kill_9_then_resume_continues_where_it_stopped(tmp_path, ray_session, reference):
    """train.mode=async: the trainer (the Ray driver, joined to the session's cluster) is killed
    once a checkpoint exists; --resume continues from that checkpoint's step to the end. The
    steps read as one run (none lost or repeated, the data position carried over); values are
    not compared, since the rollout actors' sampling streams restart with the trainer."""
    from rlvr.train.checkpoint import latest_checkpoint, load_trainer_state

    _, cache = reference
    out = tmp_path / "run"
    address = ray_session.get_runtime_context().gcs_address
    extra = ["train.mode=async", "rollout.backend=hf", f"train.ray_address={address}"]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "rlvr.cli", *cli(extra, out, cache)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    pointer, deadline = out / "checkpoints" / "latest", time.time() + 600  # Ray start-up is slow on a busy machine
    while not pointer.is_file() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    code = proc.wait()
    assert code == -signal.SIGKILL, f"the run ended before it was killed (exit {code}): {proc.stderr.read()[-2000:]}"
    assert pointer.is_file(), "no checkpoint was written within 600 s; nothing to resume from"
    stopped = load_trainer_state(latest_checkpoint(out / "checkpoints"))["state"]
    assert stopped["step"] in (2, 4)
    messages: list[str] = []
    summary = train(load_config(preset="smoke", overrides=[*ARGS, f"output={out}", f"model.cache_dir={cache}",
                                                           *extra]), resume=True, log=messages.append)
    assert any(f"resume: continuing from step_{stopped['step']}" in m for m in messages)
    train_steps = [r["step"] for r in rows(out / "metrics.jsonl") if r["kind"] == "train"]
    assert train_steps == [1, 2, 3, 4, 5, 6] and summary["steps"] == 6
    final = load_trainer_state(out / "checkpoints" / "step_6")["state"]
    assert final["data_pos"] == 6 * 4  # smoke: 4 prompts per step, each step its own
    assert sum(summary["staleness_histogram"].values()) == 6 * 4 * 4
    assert (out / "checkpoints" / "latest").read_text().strip() == "step_6"
