"""The async pipeline's pure parts, without Ray: dispatch rule, staleness, assembly, config."""

from __future__ import annotations

import pytest
import torch

from rlvr.config import load_config
from rlvr.errors import ConfigError
from rlvr.train.async_source import (
    assemble,
    check_config,
    dispatchable,
    staleness,
    staleness_metrics,
    with_behaviour_cap,
)
from rlvr.types import Completion, Sample, Verdict


@pytest.mark.parametrize("next_step, version, max_staleness, total, expected", [
    (1, 0, 1, 10, [1, 2]),      # start: step 1 (fresh) and step 2 (trained at version 1, generated at 0)
    (3, 1, 1, 10, [3]),         # after update 1: one more step
    (1, 0, 0, 10, [1]),         # max_staleness 0: the synchronous schedule
    (4, 2, 0, 10, []),          # step 4 is not allowed at version 2 with staleness 0 (only step 3 was)
    (1, 0, 3, 10, [1, 2, 3, 4]),
    (10, 9, 2, 10, [10]),       # never past the last step
    (11, 10, 2, 10, []),
    (6, 4, 2, 10, [6, 7]),      # steps 6 and 7 at version 4: staleness 1 and 2
])
def test_dispatch_rule(next_step, version, max_staleness, total, expected):
    assert dispatchable(next_step, version, max_staleness, total) == expected


def _comp(version: int, n_tokens: int = 2) -> Completion:
    return Completion([5], [7] * n_tokens, [-0.1] * n_tokens, [True] * n_tokens, "stop", "x", policy_version=version)


def _data(versions):
    from rlvr.train.rollouts import StepData

    comps = [_comp(v) for v in versions]
    r = torch.zeros(len(comps))
    return StepData([Sample("s", "p")] * len(comps), comps, [Verdict(0.0, "wrong")] * len(comps), r,
                    torch.zeros(len(comps), dtype=torch.long), r)


def test_staleness_and_its_metrics_by_hand():
    stale = staleness(_data([3, 3, 2, 1]), version=3, bound=2)
    assert stale == [0, 0, 1, 2]
    hist = {"1": 5}
    m = staleness_metrics(stale, hist)
    assert m == {"staleness/mean": 0.75, "staleness/max": 2, "staleness/frac_stale": 0.5}
    assert hist == {"1": 6, "0": 2, "2": 1}


@pytest.mark.parametrize("versions, version, bound", [([3, 1], 3, 1), ([4], 3, 1)])
def test_staleness_outside_the_bound_is_a_bug(versions, version, bound):
    with pytest.raises(RuntimeError, match="outside"):
        staleness(_data(versions), version, bound)


def test_assemble_keeps_prompt_order_and_groups():
    cfg = load_config(preset="smoke", overrides=["rollout.group_size=2"])
    s = [Sample(f"p{i}", f"prompt {i}", "1") for i in range(3)]
    parts = [([s[0], s[1]], [_comp(0), _comp(0), _comp(0), _comp(0)], [Verdict(1.0, "ok"), Verdict(0.0, "wrong")] * 2),
             ([s[2]], [_comp(1, 3), _comp(1, 3)], [Verdict(0.0, "wrong"), Verdict(1.1, "ok")])]
    data = assemble(cfg, parts)
    assert [x.id for x in data.samples] == ["p0", "p0", "p1", "p1", "p2", "p2"]
    assert data.group_ids.tolist() == [0, 0, 1, 1, 2, 2]
    assert data.raw_rewards.tolist() == pytest.approx([1.0, 0.0, 1.0, 0.0, 0.0, 1.1])
    assert [c.policy_version for c in data.completions] == [0, 0, 0, 0, 1, 1]


def test_behaviour_cap_defaults_to_async_tis_cap():
    assert with_behaviour_cap(load_config(preset="smoke", overrides=["train.mode=async"])).algo.tis_cap == 2.0
    assert with_behaviour_cap(load_config(preset="smoke", overrides=["algo.tis_cap=1.5"])).algo.tis_cap == 1.5
    assert with_behaviour_cap(load_config(preset="smoke", overrides=["train.async_tis_cap=0"])).algo.tis_cap is None


@pytest.mark.parametrize("override, message", [
    ("algo.name=dapo", "dynamic_sampling"),
    ("model.lora_r=4", "LoRA"),
    ("algo.name=ppo", "critic"),
    ("train.max_staleness=-1", "max_staleness"),
    ("train.async_rollout_workers=0", "async_rollout_workers"),
    ("train.ray_ranks=2", "one trainer rank"),
])
def test_unsupported_async_configs_fail_loud(override, message):
    with pytest.raises(ConfigError, match=message):
        check_config(load_config(preset="smoke", overrides=["train.mode=async", override]))
