"""Advantage estimators on tiny hand-computed cases."""

import math

import pytest
import torch

from rlvr.algo import group_advantages
from rlvr.algo.advantages import ADVANTAGE_ESTIMATORS

THREE_OF_EIGHT = torch.tensor([1.0, 1, 1, 0, 0, 0, 0, 0])
ONE_GROUP = torch.zeros(8, dtype=torch.long)


# rewards [1,1,1,0,0,0,0,0]: mean 3/8 = 0.375.
# grpo: population std sqrt(0.375 * 0.625) = 0.484123; 0.625/0.484123 = 1.290994, -0.375/0.484123 = -0.774597
# dr_grpo: 1 - 0.375 = 0.625, 0 - 0.375 = -0.375
# rloo: 1 - 2/7 = 0.714286, 0 - 3/7 = -0.428571
# reinforce (no baseline): the rewards; (batch mean): as dr_grpo for a single group
@pytest.mark.parametrize(
    "estimator, kwargs, pos, neg",
    [
        ("grpo", {}, 1.290994, -0.774597),
        ("grpo", {"std": "unbiased"}, 1.207615, -0.724569),  # std sqrt(1.875 / 7) = 0.517549
        ("dr_grpo", {}, 0.625, -0.375),
        ("rloo", {}, 0.714286, -0.428571),
        ("reinforce", {}, 1.0, 0.0),
        ("reinforce", {"baseline": "batch_mean"}, 0.625, -0.375),
    ],
)
def test_worked_example_three_of_eight(estimator, kwargs, pos, neg):
    adv = group_advantages(THREE_OF_EIGHT, ONE_GROUP, estimator, **kwargs)
    assert adv.shape == (8,)
    assert adv[:3].tolist() == pytest.approx([pos] * 3, abs=1e-5)
    assert adv[3:].tolist() == pytest.approx([neg] * 5, abs=1e-5)


@pytest.mark.parametrize("estimator", ["grpo", "dr_grpo", "rloo"])
@pytest.mark.parametrize("value", [0.0, 1.0, 0.1, -3.7, 1e6 + 0.1])
def test_zero_variance_group_gets_exactly_zero(estimator, value):
    # 0.1 * 3 / 3 != 0.1 in floating point: the zero must be set, not left to cancellation
    adv = group_advantages(torch.full((3,), value), torch.zeros(3, dtype=torch.long), estimator)
    assert adv.tolist() == [0.0, 0.0, 0.0]


def test_groups_with_arbitrary_interleaved_labels():
    # group 7 = rewards [1, 0] -> mean 0.5, population std 0.5 -> +-0.5/(0.5+1e-6);
    # group 3 = rewards [0, 0] -> uniform -> 0
    rewards = torch.tensor([1.0, 0.0, 0.0, 0.0])
    group_ids = torch.tensor([7, 3, 7, 3])
    adv = group_advantages(rewards, group_ids, "grpo")
    assert adv.tolist() == pytest.approx([0.999998, 0.0, -0.999998, 0.0], abs=1e-6)
    assert adv[1] == 0.0 and adv[3] == 0.0


def test_eps_is_added_to_the_std_not_the_variance():
    # [1, 0]: std 0.5; (1 - 0.5) / (0.5 + 0.5) = 0.5 (sqrt(var + eps) would give 0.5/sqrt(0.75) = 0.577)
    adv = group_advantages(torch.tensor([1.0, 0.0]), torch.tensor([0, 0]), "grpo", eps=0.5)
    assert adv.tolist() == pytest.approx([0.5, -0.5], abs=1e-7)


def test_batch_scope_uses_group_mean_and_batch_std():
    # groups [1, 0] and [1, 1]; batch mean 0.75, batch population std sqrt(0.1875) = 0.433013
    # group 0: +-0.5 / 0.433013 = +-1.154701; group 1 uniform -> 0
    rewards = torch.tensor([1.0, 0.0, 1.0, 1.0])
    group_ids = torch.tensor([0, 0, 1, 1])
    adv = group_advantages(rewards, group_ids, "grpo", scope="batch")
    assert adv.tolist() == pytest.approx([1.154701, -1.154701, 0.0, 0.0], abs=1e-5)
    # group scope for comparison: +-0.5 / 0.5 = +-1
    adv_g = group_advantages(rewards, group_ids, "grpo", scope="group")
    assert adv_g.tolist() == pytest.approx([1.0, -1.0, 0.0, 0.0], abs=1e-5)


def test_rloo_is_dr_grpo_scaled_by_g_over_g_minus_one():
    torch.manual_seed(0)
    rewards = torch.rand(12)
    group_ids = torch.arange(12) // 4  # G = 4
    rloo = group_advantages(rewards, group_ids, "rloo")
    dr = group_advantages(rewards, group_ids, "dr_grpo")
    assert torch.allclose(rloo, dr * 4 / 3, atol=1e-6)


def test_rloo_pair_by_hand():
    # [1, 0]: 1 - 0 = 1, 0 - 1 = -1
    adv = group_advantages(torch.tensor([1.0, 0.0]), torch.tensor([4, 4]), "rloo")
    assert adv.tolist() == [1.0, -1.0]


def test_grpo_advantages_have_zero_mean_and_unit_population_std_per_group():
    torch.manual_seed(1)
    rewards = torch.rand(16)
    group_ids = torch.arange(16) // 8
    adv = group_advantages(rewards, group_ids, "grpo", eps=0.0)
    for g in range(2):
        a = adv[g * 8 : (g + 1) * 8]
        assert abs(a.mean().item()) < 1e-6
        assert math.isclose(a.std(unbiased=False).item(), 1.0, abs_tol=1e-5)


def test_integer_rewards_are_accepted_and_result_is_float():
    adv = group_advantages(torch.tensor([1, 0]), torch.tensor([0, 0]), "dr_grpo")
    assert adv.dtype == torch.float32
    assert adv.tolist() == [0.5, -0.5]


def test_empty_batch():
    assert group_advantages(torch.zeros(0), torch.zeros(0, dtype=torch.long)).shape == (0,)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"estimator": "ppo"}, "valid: grpo, dr_grpo, rloo, reinforce"),
        ({"estimator": "gae"}, "gae_advantages"),
        ({"std": "sample"}, "valid: population, unbiased"),
        ({"scope": "global"}, "valid: group, batch"),
        ({"estimator": "reinforce", "baseline": "ema"}, "valid: none, batch_mean"),
    ],
)
def test_bad_names_are_errors_that_list_valid_names(kwargs, message):
    with pytest.raises(ValueError, match=message):
        group_advantages(THREE_OF_EIGHT, ONE_GROUP, **kwargs)


def test_nan_reward_is_loud():
    with pytest.raises(ValueError, match="NaN"):
        group_advantages(torch.tensor([1.0, float("nan")]), torch.tensor([0, 0]))


@pytest.mark.parametrize("estimator, kwargs", [("rloo", {}), ("grpo", {"std": "unbiased"})])
def test_singleton_group_without_baseline_is_loud(estimator, kwargs):
    with pytest.raises(ValueError, match=">= 2 completions"):
        group_advantages(torch.tensor([1.0, 0.0, 1.0]), torch.tensor([0, 0, 1]), estimator, **kwargs)


def test_singleton_group_population_grpo_is_zero():
    adv = group_advantages(torch.tensor([1.0, 0.0, 1.0]), torch.tensor([0, 0, 1]), "grpo")
    assert adv[2] == 0.0


def test_shape_mismatch_is_loud():
    with pytest.raises(ValueError, match=r"\(B,\)"):
        group_advantages(torch.zeros(4), torch.zeros(3, dtype=torch.long))


def test_registry_names():
    assert list(ADVANTAGE_ESTIMATORS) == ["grpo", "dr_grpo", "rloo", "reinforce", "reinforce_pp"]
