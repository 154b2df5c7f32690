"""Every example config in configs/ loads, and its field mapping reads a small file in the
layout it describes (GSM8K, MATH, MBPP), with the placeholder paths overridden; the
reasoning-gym config builds its prompts from the generator it names."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from rlvr.config import load_config
from rlvr.tasks.registry import build_task

CONFIGS = Path(__file__).resolve().parents[2] / "configs"

ROWS = {
    "gsm8k": [{"question": f"Ann reads {i} pages a day for 3 days. How many pages?",
               "answer": f"{i} * 3 = <<{i}*3={3 * i}>>{3 * i}\n#### {3 * i}"} for i in range(1, 5)],
    "math": [{"problem": f"What is $\\frac{{{i}}}{{2}} + \\frac{{{i}}}{{2}}$?", "level": "Level 1",
              "solution": f"The sum is $\\boxed{{{i}}}$."} for i in range(1, 5)],
    "mbpp": [{"text": f"Write a function to add {i} to a number.", "code": f"def add_{i}(x):\n    return x + {i}",
              "test_list": [f"assert add_{i}(1) == {1 + i}", f"assert add_{i}(0) == {i}"], "task_id": 600 + i}
             for i in range(1, 5)],
}
LAYOUT = {"gsm8k.yaml": "gsm8k", "qwen2.5-0.5b-gsm8k.yaml": "gsm8k", "math.yaml": "math", "mbpp.yaml": "mbpp"}
GYM_CONFIGS = ("gym-chain-sum.yaml",)


def test_every_config_is_listed_here():
    assert sorted(p.name for p in CONFIGS.glob("*.yaml")) == sorted([*LAYOUT, *GYM_CONFIGS])


@pytest.mark.skipif(importlib.util.find_spec("reasoning_gym") is None, reason="needs reasoning-gym (rlvr[gym])")
def test_gym_config_builds_its_prompts():
    cfg = load_config(str(CONFIGS / "gym-chain-sum.yaml"))
    assert (cfg.task.name, cfg.task.gym_dataset, cfg.reward.verifier, cfg.model.path) == ("gym", "chain_sum", "gym",
                                                                                          None)
    task = build_task(cfg.task, cfg.reward.verifier)
    sample = task.eval_samples[0]
    terms = range(cfg.task.gym_config["min_terms"], cfg.task.gym_config["max_terms"] + 1)
    assert len(task.eval_samples) == cfg.task.eval_size and sample.fields["gym_entry"]["metadata"]["num_terms"] in terms
    assert sample.prompt.startswith("State the final answer to the following arithmetic problem: ")
    assert sample.prompt.endswith(" =? Use <think> and <answer>.\n")


@pytest.mark.parametrize("name", sorted(LAYOUT))
def test_config_loads_and_maps_its_data_layout(name, tmp_path):
    rows = ROWS[LAYOUT[name]]
    train, test = tmp_path / "train.jsonl", tmp_path / "test.jsonl"
    train.write_text("".join(json.dumps(r) + "\n" for r in rows[:3]))
    test.write_text(json.dumps(rows[3]) + "\n")
    cfg = load_config(str(CONFIGS / name), overrides=[f"model.path={tmp_path}/model", f"task.train_path={train}",
                                                      f"task.eval_path={test}"])
    assert cfg.task.name == "dataset" and cfg.model.path == f"{tmp_path}/model"
    task = build_task(cfg.task, cfg.reward.verifier)
    sample = task.eval_samples[0]
    if LAYOUT[name] == "gsm8k":
        assert (sample.prompt, sample.answer) == ("Ann reads 4 pages a day for 3 days. How many pages?", "12")
        assert cfg.reward.verifier == "math" and "<think>" in cfg.model.system_prompt
    if LAYOUT[name] == "math":
        assert sample.answer == "4" and cfg.reward.verifier == "math"
        assert sample.prompt.endswith("Give the final answer in LaTeX, e.g. \\boxed{\\frac{1}{2}}.")
    if LAYOUT[name] == "mbpp":
        assert sample.id == "604" and sample.fields["tests"] == ["assert add_4(1) == 5", "assert add_4(0) == 4"]
        assert sample.prompt == ("Write a function to add 4 to a number.\nYour code should pass these tests:\n"
                                 "assert add_4(1) == 5\nassert add_4(0) == 4\n"
                                 "Write the solution in a ```python code block.")
        assert cfg.reward.verifier == "code" and cfg.reward.workers > 0 and cfg.reward.format_weight == 0.0


def test_qwen_config_values():
    cfg = load_config(str(CONFIGS / "qwen2.5-0.5b-gsm8k.yaml"))
    assert (cfg.model.dtype, cfg.model.device, cfg.model.gradient_checkpointing) == ("bfloat16", "cuda", True)
    assert (cfg.train.lr, cfg.rollout.group_size, cfg.rollout.max_new_tokens) == (1e-6, 8, 512)
    assert cfg.model.system_prompt.startswith("A conversation between User and Assistant.")
    assert cfg.model.system_prompt.endswith("<think> reasoning process here </think> <answer> answer here </answer>.")
