"""DAPO dynamic sampling selection logic."""

import pytest
import torch

from rlvr.algo import DynamicSampler, mixed_groups, mixed_sample_mask


def test_mixed_groups_by_hand():
    rewards = torch.tensor([1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.1, 0.0])
    group_ids = torch.tensor([5, 5, 2, 2, 9, 9, 4, 4])
    labels, mixed = mixed_groups(rewards, group_ids)
    assert labels.tolist() == [2, 4, 5, 9]
    assert mixed.tolist() == [False, True, False, True]  # 0.1 vs 0.0 (a format bonus) is mixed
    assert mixed_sample_mask(rewards, group_ids).tolist() == [False, False, False, False, True, True, True, True]


def _round(rewards_per_group, first_id):
    rewards = torch.tensor([r for group in rewards_per_group for r in group], dtype=torch.float32)
    ids = torch.tensor([first_id + g for g, group in enumerate(rewards_per_group) for _ in group])
    return rewards, ids


def test_keeps_mixed_groups_until_target():
    sampler = DynamicSampler(target=2, max_rounds=3)
    r, g = _round([[1, 1], [1, 0], [0, 0]], first_id=0)  # one mixed group (id 1)
    assert sampler.add(r, g).tolist() == [False, False, True, True, False, False]
    assert not sampler.done
    r, g = _round([[0, 1], [1, 0], [1, 1]], first_id=10)  # two mixed, room for one: keep id 10 only
    assert sampler.add(r, g).tolist() == [True, True, False, False, False, False]
    assert sampler.done
    rep = sampler.report()
    assert (rep.rounds_used, rep.groups_seen, rep.groups_mixed, rep.groups_kept, rep.exhausted) == (2, 6, 3, 2, False)
    with pytest.raises(RuntimeError, match="done"):
        sampler.add(r, g)


@pytest.mark.parametrize("value", [0.0, 1.0])  # too hard / too easy
def test_uniform_data_exhausts_the_budget_without_raising(value):
    sampler = DynamicSampler(target=4, max_rounds=3)
    for k in range(3):
        keep = sampler.add(torch.full((8,), value), torch.arange(8) // 2 + 100 * k)
        assert not keep.any()
    assert sampler.done
    rep = sampler.report()
    assert (rep.rounds_used, rep.groups_seen, rep.groups_mixed, rep.groups_kept, rep.exhausted) == (3, 12, 0, 0, True)


def test_partial_fill_reports_exhausted():
    sampler = DynamicSampler(target=3, max_rounds=1)
    keep = sampler.add(*_round([[0, 1], [1, 1]], first_id=0))
    assert keep.tolist() == [True, True, False, False]
    assert sampler.done and sampler.report().exhausted and sampler.report().groups_kept == 1


def test_bad_arguments():
    with pytest.raises(ValueError, match="target"):
        DynamicSampler(target=0, max_rounds=2)
    with pytest.raises(ValueError, match=r"\(B,\)"):
        mixed_groups(torch.zeros(3), torch.zeros(2, dtype=torch.long))
