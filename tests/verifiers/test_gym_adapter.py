"""reasoning-gym adapter: deny-list always; generation and scoring when installed."""

from __future__ import annotations

import importlib.util

import pytest

from rlvr.errors import UserError
from rlvr.types import Sample
from rlvr.verifiers.gym import UNSAFE, UnsafeDatasetError, check_dataset, gym_samples, verify_gym

HAVE_GYM = importlib.util.find_spec("reasoning_gym") is not None
needs_gym = pytest.mark.skipif(not HAVE_GYM, reason="reasoning-gym is not installed (pip install 'rlvr[gym]')")


@pytest.mark.parametrize("name, word", [
    ("countdown", "parse_expr"), ("puzzle24", "parse_expr"), ("spiral_matrix", "eval()"),
    ("game_of_life_halting", "any non-empty answer"), ("polynomial_equations", "without any number"),
])
def test_deny_list_refuses_with_the_reason(name, word):
    with pytest.raises(UnsafeDatasetError, match="refused") as info:
        check_dataset(name)
    assert word in str(info.value) and isinstance(info.value, UserError)
    check_dataset(name, allow_unsafe=True)  # an explicit opt-in passes


def test_scoring_refuses_a_denied_row_even_if_hand_made():
    row = Sample(id="x", prompt="", fields={"gym_dataset": "countdown", "gym_entry": {"answer": "1"}})
    with pytest.raises(UnsafeDatasetError):
        verify_gym("<answer>__import__('os').system('true')</answer>", row)


def test_deny_list_is_documented_per_dataset():
    assert all(len(reason) > 30 for reason in UNSAFE.values())
    assert {"countdown", "puzzle24", "spiral_matrix", "game_of_life_halting"} <= set(UNSAFE)


@needs_gym
def test_generate_and_score_basic_arithmetic():
    samples = gym_samples("basic_arithmetic", size=4, seed=1)
    assert [s.id for s in samples] == [f"basic_arithmetic/1/{i}" for i in range(4)]
    first = samples[0]
    assert first.prompt.startswith("Calculate") and first.verifier == "gym"
    right = verify_gym(f"<think>...</think><answer>{first.answer}</answer>", first)
    assert (right.reward, right.status, right.answer) == (1.0, "ok", first.answer)  # maj@k votes on it
    assert verify_gym("<answer>not a number</answer>", first).status == "wrong"
    assert verify_gym(f"<answer>{first.answer}</answer> padding", first).status == "no_answer"
    with pytest.raises(UnsafeDatasetError):
        gym_samples("countdown", size=1)


@needs_gym
def test_gym_scorer_runs_in_the_pool():
    from rlvr.verifiers.pool import VerifierPool

    samples = gym_samples("basic_arithmetic", size=3, seed=2)
    completions = [f"<answer>{s.answer}</answer>" for s in samples[:2]] + ["<answer>999999</answer>"]
    with VerifierPool("gym", workers=0, timeout_s=5.0) as pool:
        assert [v.status for v in pool.map(completions, samples)] == ["ok", "ok", "wrong"]
