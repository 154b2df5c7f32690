"""``eval.stop_at``: a run stops cleanly (final eval, final checkpoint) at the first periodic
evaluation whose pass@1 reaches the target, and runs on when no evaluation reaches it."""

from __future__ import annotations

import json

import pytest

import rlvr.train.evaluation as evaluation
import rlvr.train.loop as loop
from rlvr.config import load_config
from rlvr.train import checkpoint as ckpt


def _run(tmp_path, cache_dir, monkeypatch, stop_at: float):
    scores = iter([0.1, 0.2, 0.6, 0.6, 0.6, 0.6])  # base, step 2, step 4, ...

    def fake_evaluation(run):
        return {"pass@1": next(scores), "eval/len_mean": 1.0}

    monkeypatch.setattr(evaluation, "run_evaluation", fake_evaluation)
    monkeypatch.setattr(loop, "run_evaluation", fake_evaluation)
    out = tmp_path / f"run-{stop_at}"
    cfg = load_config(preset="smoke", overrides=[
        f"output={out}", f"model.cache_dir={cache_dir}", "train.steps=6", "train.checkpoint_every=0", "threads=1",
        "eval.every=2", f"eval.stop_at={stop_at}", "log.report=false", "log.samples_every=0"])
    lines: list[str] = []
    summary = loop.train(cfg, log=lines.append)
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    return summary, rows, lines, out


@pytest.mark.parametrize("stop_at, last_step, stopped", [(0.5, 4, True), (0.7, 6, False)])
def test_stop_at(tmp_path, cache_dir, monkeypatch, stop_at, last_step, stopped):
    summary, rows, lines, out = _run(tmp_path, cache_dir, monkeypatch, stop_at)
    assert max(r["step"] for r in rows if r["kind"] == "train") == last_step
    assert summary["steps"] == last_step
    assert any("eval.stop_at" in line for line in lines) is stopped
    # the final evaluation follows the last step; a stopped run evaluates its last step twice
    assert [r["step"] for r in rows if r["kind"] == "eval"] == [0, 2, 4, last_step]
    assert ckpt.latest_checkpoint(out / "checkpoints") == out / "checkpoints" / f"step_{last_step}"
