"""Data parallelism on CPU with gloo: exactness against one process, rank duties, launchers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from rlvr.config import load_config
from rlvr.errors import ConfigError
from rlvr.train.distributed import DistContext, ShardedTask, local_config, validate

from . import dp_worker

HERE = Path(__file__).resolve().parent
TORCHRUN = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2"]


class _Task:
    def train_batch(self, start, n):
        return list(range(start, start + n))


@pytest.mark.parametrize("rank, local_start, expected", [
    (0, 0, [0, 1]), (1, 0, [2, 3]),   # step 1 of a 4-prompt step: rank 0 takes 0-1, rank 1 takes 2-3
    (0, 2, [4, 5]), (1, 2, [6, 7]),   # step 2: the local position advanced by 2, the global one by 4
])
def test_sharded_task_maps_local_positions_to_global_ones(rank, local_start, expected):
    assert ShardedTask(_Task(), DistContext(rank=rank, world=2)).train_batch(local_start, 2) == expected


def test_local_config_splits_the_step():
    cfg = load_config(preset="smoke", overrides=["rollout.prompts_per_step=6"])
    assert local_config(cfg, DistContext(rank=1, world=3)).rollout.prompts_per_step == 2
    assert cfg.rollout.prompts_per_step == 6 and local_config(cfg, DistContext()) is cfg


@pytest.mark.parametrize("overrides, message", [
    (["rollout.prompts_per_step=5"], "not divisible"),
    (["algo.name=dapo"], "dynamic_sampling"),
    (["algo.adv_scope=batch"], "batch-scope"),
    (["algo.name=reinforce"], "batch-scope"),
    (["algo.name=ppo"], "critic"),
    (["train.mode=async"], "one trainer rank"),
])
def test_configs_that_cannot_be_split_exactly_fail_loud(overrides, message):
    with pytest.raises(ConfigError, match=message):
        validate(load_config(preset="smoke", overrides=overrides), 2)


def test_single_process_context_is_the_identity():
    ctx = DistContext()
    x = torch.tensor(3.0)
    assert (ctx.reduce_normalizer(x) is x and ctx.all_reduce_sum([1.5, 2.0]) == [1.5, 2.0]
            and ctx.update_kwargs("ddp") == {})
    assert ctx.wrap_evaluate(len) is len


def test_two_gloo_ranks_match_one_process(tmp_path, cli_env):
    """Same global batch: loss and gradient of 2 gloo ranks == 1 process, to 1e-6, for three loss
    aggregations, micro-batches of 2 rows, and a layout where rank 1 has no row with a gradient."""
    proc = subprocess.run(TORCHRUN + [str(HERE / "dp_worker.py"), str(tmp_path)], capture_output=True, text=True,
                          env=cli_env, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    ranks = [torch.load(tmp_path / f"rank{r}.pt") for r in (0, 1)]
    assert [r["world"] for r in ranks] == [2, 2]
    torch.set_num_threads(1)
    for case in dp_worker.CASES:
        for layout in dp_worker.LAYOUTS:
            grad_1, loss_1 = dp_worker.run_case(DistContext(), case, layout)
            assert grad_1.abs().sum() > 0, (case, layout)
            for r in ranks:
                grad_2, loss_2 = r["results"][(case, layout)]
                assert abs(loss_2 - loss_1) <= 1e-6, (case, layout, loss_1, loss_2)
                assert float((grad_2 - grad_1).abs().max()) <= 1e-6, (case, layout)


def test_torchrun_two_ranks_train_and_rank0_writes(tmp_path, cli_env):
    out = tmp_path / "run"
    proc = subprocess.run(TORCHRUN + ["-m", "rlvr.cli", "train", "--preset", "smoke", "--output", str(out),
                                      "train.steps=2", "log.report=false", "log.samples_every=1"],
                          capture_output=True, text=True, env=cli_env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = [json.loads(x) for x in (out / "metrics.jsonl").read_text().splitlines()]
    assert [(r["kind"], r["step"]) for r in rows] == [("eval", 0), ("train", 1), ("train", 2), ("eval", 2)]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["steps"] == 2
    from rlvr.train.checkpoint import load_trainer_state

    state = load_trainer_state(Path(summary["checkpoint"]))["state"]
    assert state["world"] == 2 and state["data_pos"] == 2 * 2  # per rank: 2 of the 4 prompts per step
    from rlvr.tasks.registry import build_task

    task = build_task(load_config(preset="smoke").task)
    seen = {(r["step"], r["prompt"]) for r in map(json.loads, (out / "samples.jsonl").read_text().splitlines())}
    expected = {(1, s.prompt) for s in task.train_batch(0, 2)} | {(2, s.prompt) for s in task.train_batch(4, 2)}
    assert seen == expected  # rank 0's share of each global step: no prompt skipped or taken twice


def test_ranks_launched_as_ray_actors_form_a_group(ray_session):
    from rlvr.train.distributed import launch_with_ray

    cfg = load_config(preset="smoke", overrides=["train.ray_ranks=2", "model.device=cpu"])
    out = launch_with_ray(cfg, target="rlvr.train.distributed:probe")
    assert [(o["rank"], o["world"], o["rank_sum"]) for o in out] == [(0, 2, 1.0), (1, 2, 1.0)]
