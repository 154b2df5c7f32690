"""train.mode=async with real vLLM engines (CPU build) in two Ray rollout workers.

One worker is killed with SIGKILL mid-run: it is replaced, the replacement builds its engine and
gets the latest weights before it generates, and every step still trains on its own prompts,
with staleness within the bound and each engine checked against the trainer after each push.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from scale.test_async_ray import G, P, _cfg, _kill_first_rollout_worker_after, _rows, spy_pipelines
from vllm_available import vllm_or_skip

pytestmark = [pytest.mark.vllm, pytest.mark.slow]


def test_two_vllm_rollout_workers_one_killed_complete_every_step(ray_session, tmp_path, shared_cache, monkeypatch):
    vllm_or_skip()
    from rlvr.tasks.registry import build_task
    from rlvr.train.loop import train

    created = spy_pipelines(monkeypatch)
    steps = 5
    cfg = _cfg(tmp_path, shared_cache, f"train.steps={steps}", "rollout.backend=vllm", "algo.tis_cap=2.0",
               "train.async_rollout_workers=2", "train.max_staleness=1", "model.hidden=64", "model.heads=2")
    killed: dict = {}
    killer = threading.Thread(target=_kill_first_rollout_worker_after,
                              args=(tmp_path / "run", created, 2, killed, 900))
    killer.start()
    summary = train(cfg, log=lambda s: None)
    killer.join()
    assert "pid" in killed, "the rollout worker was never killed"
    assert summary["async"]["restarts"] >= 1 and created[0].pids[("rollout", 0)] != killed["pid"]
    rows = _rows(tmp_path / "run", "train")
    assert [r["step"] for r in rows] == list(range(1, steps + 1))
    assert max(r["staleness/max"] for r in rows) <= 1
    assert sum(summary["staleness_histogram"].values()) == steps * P * G
    gaps = [r["vllm/logp_gap_max"] for r in rows if "vllm/logp_gap_max" in r]
    assert gaps and max(gaps) < 1e-3  # every engine checked against the trainer after its pushes
    task = build_task(cfg.task)
    samples = [json.loads(x) for x in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    for step in range(1, steps + 1):  # every step trained on exactly its own prompts
        got = sorted(s["prompt"] for s in samples if s["step"] == step)[::G]
        assert got == sorted(s.prompt for s in task.train_batch((step - 1) * P, P)), step
    assert Path(summary["checkpoint"]).is_dir()
