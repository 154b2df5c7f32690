"""task.name=gym: its config errors (one line naming the key and the fix), the disjoint
train / held-out splits, the resumable stream, the reward, and gym rows in a dataset."""

from __future__ import annotations

import importlib.util

import pytest

from rlvr.config import TaskConfig, load_config
from rlvr.errors import ConfigError, DataError
from rlvr.types import Sample

HAVE_GYM = importlib.util.find_spec("reasoning_gym") is not None
needs_gym = pytest.mark.skipif(not HAVE_GYM, reason="reasoning-gym is not installed (pip install 'rlvr[gym]')")
ONE_TERM = {"min_terms": 1, "max_terms": 1, "max_digits": 1}  # ten possible questions: collisions on purpose


def gym_cfg(**kw) -> TaskConfig:
    base = {"name": "gym", "gym_dataset": "chain_sum", "gym_config": {"max_digits": 1}, "eval_size": 8,
            "gym_size": 50}
    base.update(kw)
    return TaskConfig(**base)


def build(**kw):
    from rlvr.tasks.gym import GymTask

    return GymTask.from_config(gym_cfg(**kw))


# ---------------------------------------------------------------- config (no reasoning-gym needed)
@pytest.mark.parametrize("overrides, message", [
    (["task.name=gym"], "task.name=gym needs task.gym_dataset=NAME (a reasoning-gym dataset, e.g. chain_sum)"),
    (["task.name=gym", "task.gym_dataset=countdown"],
     "task.gym_dataset: reasoning-gym dataset 'countdown' is refused: its score_answer calls sympy.parse_expr"),
    (["task.name=gym", "task.gym_dataset=game_of_life_halting"], "gives 1.0 to any non-empty answer"),
    (["task.name=gym", "task.gym_dataset=chain_sum", "reward.verifier=math"],
     "task.name=gym is scored by reasoning-gym's own scorer (reward.verifier=gym); reward.verifier='math' would "
     "not be used"),
    (["reward.verifier=gym"], "reward.verifier=gym scores reasoning-gym entries, which task.name=arithmetic does "
                              "not have; train on one with task.name=gym task.gym_dataset=NAME"),
    (["task.name=gym", "task.gym_dataset=chain_sum", "task.gym_size=0"], "task.gym_size' = 0 is out of range"),
    (["task.name=gym", "task.gym_dataset=chain_sum", "task.gym_config=3"], "'task.gym_config' expects dict"),
])
def test_config_errors_name_the_key_and_the_fix(overrides, message):
    with pytest.raises(ConfigError) as err:
        load_config(preset="smoke", overrides=overrides)
    assert message in str(err.value)
    assert "\n" not in str(err.value) and "allow_unsafe=True" not in str(err.value)


def test_gym_task_is_scored_by_gym():
    cfg = load_config(preset="smoke", overrides=["task.name=gym", "task.gym_dataset=chain_sum"])
    assert (cfg.reward.verifier, cfg.reward.format_weight) == ("gym", 0.1)  # exact (the default) becomes gym
    cfg = load_config(preset="smoke", overrides=["task.name=gym", "task.gym_dataset=chain_sum",
                                                 "reward.verifier=gym", "reward.format_weight=0"])
    assert (cfg.reward.verifier, cfg.reward.format_weight) == ("gym", 0.0)


# ---------------------------------------------------------------- building the task
@needs_gym
@pytest.mark.parametrize("kw, message", [
    ({"gym_dataset": "chain_sums"}, "reasoning-gym has no dataset 'chain_sums'; close names: chain_sum"),
    ({"gym_dataset": "no_such_thing_at_all"}, "reasoning-gym has no dataset 'no_such_thing_at_all'; 106 names"),
    ({"gym_config": {"max_term": 4}}, "dataset 'chain_sum' has no config key 'max_term'; valid: min_terms, "
                                      "max_terms, min_digits, max_digits, allow_negation"),
    ({"gym_config": {"seed": 4}}, "has no config key 'seed' (rlvr sets seed and size)"),
    ({"gym_config": {"min_terms": 5, "max_terms": 2}}, "refuses config {'min_terms': 5, 'max_terms': 2}: "
                                                       "max_terms must be >= min_terms"),
    ({"prompt_template": "{prompt} = {answer}"}, "task.prompt_template uses {answer}; with task.name=gym the only "
                                                 "field is {prompt}"),
    ({"prompt_template": "Solve it."}, "task.prompt_template has no {prompt}"),
])
def test_build_errors_name_the_key(kw, message):
    if "no_such" in kw.get("gym_dataset", ""):
        from reasoning_gym.factory import DATASETS

        message = message.replace("106", str(len(DATASETS)))
    with pytest.raises(ConfigError) as err:
        build(**kw)
    assert message in str(err.value) and "\n" not in str(err.value)
    if "gym_dataset" in kw or "gym_config" in kw:
        assert str(err.value).startswith("task.gym_dataset / task.gym_config: ")


@needs_gym
def test_prompts_are_the_generator_entries_under_the_template():
    task = build(prompt_template="{prompt}? Use <think> and <answer>.\n")
    first = task.eval_samples[0]
    question = first.fields["gym_entry"]["question"]
    assert question.startswith("State the final answer to the following arithmetic problem: ")
    assert first.prompt == question + "? Use <think> and <answer>.\n"
    assert first.fields["gym_dataset"] == "chain_sum" and first.answer == first.fields["gym_entry"]["answer"]
    assert first.verifier is None  # the run's reward (gym) scores it
    default = build().eval_samples[0].prompt
    assert default == question + "\nThink in <think></think>, then give only the final answer in <answer></answer>.\n"


@needs_gym
def test_splits_use_disjoint_item_seeds_and_share_no_question():
    from reasoning_gym import create_dataset

    task = build(gym_config=ONE_TERM, eval_size=6, gym_size=12, seed=3)
    train_gen = create_dataset("chain_sum", size=12, seed=3, **ONE_TERM)
    held_gen = create_dataset("chain_sum", size=6, seed=3 + 12, **ONE_TERM)
    assert [s.fields["gym_entry"] for s in task.eval_samples] == [held_gen[i] for i in range(6)]
    held = {s.fields["question"] for s in task.eval_samples}
    raw = [train_gen[i]["question"] for i in range(12)]
    assert held & set(raw), "the case must contain a collision to test the skip"
    stream = [s.fields["question"] for s in task.train_batch(0, 36)]
    assert not held & set(stream)
    # position k is problem k mod gym_size, or the next one whose question is not held out
    expected = []
    for k in range(36):
        step = 0
        while raw[(k + step) % 12] in held:
            step += 1
        expected.append(raw[(k + step) % 12])
    assert stream == expected


@needs_gym
def test_the_stream_is_a_pure_function_of_the_position():
    a, b = build(), build()
    assert [s.id for s in a.train_batch(7, 5)] == [s.id for s in b.train_batch(7, 5)]
    assert a.train_sample(3).id == "chain_sum/train/3" and a.train_sample(53).id == "chain_sum/train/3"
    assert [s.id for s in a.train_batch(0, 3)] == [s.id for s in b.train_batch(50, 3)]  # cycles after gym_size
    with pytest.raises(IndexError):
        a.train_sample(-1)
    assert build(seed=5).train_sample(0).fields["question"] != a.train_sample(0).fields["question"]


@needs_gym
def test_every_training_problem_held_out_is_refused():
    with pytest.raises(DataError, match="every one of the 2 training problems of reasoning-gym dataset 'chain_sum' is "
                                        "also held out; widen task.gym_config or lower task.eval_size"):
        task = build(gym_config={"min_terms": 1, "max_terms": 1, "max_digits": 1}, eval_size=60, gym_size=2)
        task.train_batch(0, 4)


@needs_gym
def test_the_runs_reward_is_the_datasets_scorer():
    from rlvr.verifiers.composite import build_reward_fn

    cfg = load_config(preset="smoke", overrides=["task.name=gym", "task.gym_dataset=chain_sum"])
    reward = build_reward_fn(cfg.reward.verifier, 0.0, False)
    sample = build().eval_samples[0]
    right = reward(f"<think>x</think><answer>{sample.answer}</answer>", sample)
    wrong = reward(f"<think>x</think><answer>{int(sample.answer) + 1}</answer>", sample)
    assert (right.reward, right.status) == (1.0, "ok") and (wrong.reward, wrong.status) == (0.0, "wrong")
    assert reward("no tag", sample).status == "no_answer"


# ---------------------------------------------------------------- gym rows as a dataset
@needs_gym
def test_gym_samples_become_dataset_rows_that_keep_their_entries():
    from rlvr.tasks.dataset import RowSpec, resolve_mapping, row_to_sample, rows_from_memory
    from rlvr.verifiers.gym import gym_samples

    samples = gym_samples("chain_sum", 3, seed=1, max_digits=1)
    rows = rows_from_memory(samples, "dataset")
    assert rows[0].data["prompt"] == samples[0].prompt and rows[0].data["verifier"] == "gym"
    back = row_to_sample(rows[0], RowSpec(resolve_mapping(None), "exact"), 0, "row")
    assert back.fields["gym_entry"] == samples[0].fields["gym_entry"] and back.fields["gym_dataset"] == "chain_sum"
    assert back.prompt == samples[0].prompt and back.answer == samples[0].answer


@pytest.mark.parametrize("row, verifier, message", [
    ({"prompt": "2+2?", "answer": "4", "verifier": "gym"}, "exact",
     "dataset row 1: missing field 'gym_dataset' (column 'gym_dataset': rows from rlvr.verifiers.gym.gym_samples "
     "carry it, or train with task.name=gym task.gym_dataset=NAME), needed by verifier 'gym'"),
    ({"prompt": "2+2?", "gym_dataset": "chain_sum"}, "gym", "dataset row 1: missing field 'gym_entry'"),
    ({"prompt": "2+2?", "gym_dataset": "chain_sum", "verifier": '{"name": "gym", "options": {}}'}, "exact",
     "dataset row 1: missing field 'gym_entry'"),
])
def test_a_gym_row_without_its_entry_is_one_line_not_a_key_error(row, verifier, message):
    from rlvr.tasks.dataset import RowSpec, resolve_mapping, row_to_sample, rows_from_memory

    with pytest.raises(DataError) as err:
        row_to_sample(rows_from_memory([row], "dataset")[0], RowSpec(resolve_mapping(None), verifier), 0, "row")
    assert message in str(err.value)


def test_a_non_row_item_names_what_is_accepted():
    from rlvr.tasks.dataset import rows_from_memory

    with pytest.raises(DataError, match="dataset row 2: expected a dict or an rlvr Sample, got int"):
        rows_from_memory([Sample(id="a", prompt="p"), 3], "dataset")


@needs_gym
def test_the_tiny_models_warm_start_imitates_the_generators_answers():
    from rlvr.models.base import tiny_task_key

    cfg = load_config(preset="smoke", overrides=["task.name=gym", "task.gym_dataset=chain_sum",
                                                 "task.gym_config={max_digits: 1}", "task.gym_size=50"])
    task = build()
    key, reference = tiny_task_key(cfg, task)
    sample = task.train_sample(0)
    assert reference(sample) == f"<think></think><answer>{sample.answer}</answer>"
    assert (key["name"], key["gym_dataset"], key["gym_config"], key["gym_size"]) == ("gym", "chain_sum",
                                                                                   {"max_digits": 1}, 50)
    other = load_config(preset="smoke", overrides=["task.name=gym", "task.gym_dataset=chain_sum", "task.gym_size=50"])
    assert tiny_task_key(other, task)[0] != key  # another generator config, another cached base
