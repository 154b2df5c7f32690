"""The public Python API: the README's script runs as it is; a user's reward function works
in either form (TRL's reward_funcs convention used unchanged, rlvr's Verdict form), named
from the command line as module:function and re-imported on resume; no format bonus is
added to it; evaluate and verify from Python."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rlvr
from rlvr.config import TaskConfig, load_config
from rlvr.errors import ConfigError
from rlvr.tasks.dataset import DatasetTask
from rlvr.types import Sample, Verdict
from rlvr.verifiers.composite import build_reward_fn
from rlvr.verifiers.registry import get_verifier, register_function

REPO = Path(__file__).resolve().parents[1]
RLVR_SCRIPT = Path(sys.executable).with_name("rlvr")  # the console script: the working directory is not on its path


def readme_script() -> str:
    text = (REPO / "README.md").read_text()
    section = text.split("## From Python", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


# TRL's GRPOTrainer documentation gives reward functions in this form (standard, string completions);
# both are used here exactly as written there.
def reward_len(completions, **kwargs):
    return [-abs(20 - len(completion)) for completion in completions]


def reward_func(completions, ground_truth, **kwargs):
    # Regular expression to capture content inside \boxed{}
    matches = [re.search(r"\\boxed\{(.*?)\}", completion) for completion in completions]
    contents = [match.group(1) if match else "" for match in matches]
    # Reward 1 if the content is the same as the ground truth, 0 otherwise
    return [1.0 if c == gt else 0.0 for c, gt in zip(contents, ground_truth)]


def verdict_form(completion, sample):
    return Verdict(1.0, "ok", "found it") if sample.answer in completion else Verdict(0.0, "wrong", "no")


def float_form(completion, sample):
    return 0.5


def returns_none(completions, **kwargs):
    return [None]


def test_readme_script_is_short_and_runs_as_written(tmp_path):
    script = readme_script()
    assert len(script.strip().splitlines()) <= 25
    (tmp_path / "script.py").write_text(script)
    env = dict(os.environ, OMP_NUM_THREADS="1", RLVR_CACHE=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, "script.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert re.search(r"pass@1 \d\.\d\d -> \d\.\d\d; 4 steps seen by the callback", proc.stdout), proc.stdout
    run = tmp_path / "runs" / "api-demo"
    saved = json.loads((run / "config.json").read_text())
    assert saved["reward"]["verifier"] == "__main__:reward"  # a function is recorded by its import path
    assert saved["reward"]["format_weight"] == 0.0  # no hidden bonus on the user's reward
    assert saved["task"]["train_path"] == "runs/api-demo/data/train.jsonl"  # the in-memory rows, recorded as data
    assert len((run / "data" / "train.jsonl").read_text().splitlines()) == 250
    rewards = [json.loads(line)["reward"] for line in (run / "samples.jsonl").read_text().splitlines()]
    assert rewards and set(rewards) <= {0.0, 1.0}  # the function's own value, nothing added
    # the smoke preset either trains with a non-zero gradient or says why it does not
    steps = [r for r in map(json.loads, (run / "metrics.jsonl").read_text().splitlines()) if r["kind"] == "train"]
    if all(r["zero_var/observed"] == 1.0 for r in steps):
        assert all(r["grad_norm"] == 0.0 for r in steps)
        assert "note: on all 4 steps every group's 4 completions had the same reward, so every advantage and the " \
               "gradient were 0" in proc.stderr
    else:
        assert any(r["grad_norm"] > 0 for r in steps) and "note: on all" not in proc.stderr

    # evaluate the checkpoint from Python on held-out rows in memory, with a Verdict-form reward
    rows = [{"prompt": "1+2-3=? Use <think> and <answer>.\n", "answer": "0"}] * 3
    result = rlvr.evaluate(run / "checkpoints" / "step_4", reward=verdict_form, dataset=rows,
                           output=tmp_path / "eval")
    assert result["problems"] == 3 and set(result["models"][0]["pass@k"]) == {"1"}


def test_module_function_on_the_command_line_and_resume_reimports_it(tmp_path, monkeypatch, capsys):
    from rlvr.cli import main

    (tmp_path / "my_rewards.py").write_text(  # the README's reward, in a module of its own
        "import re\n\n\n" + "def reward" + readme_script().split("def reward", 1)[1].split("\n\n\n")[0] + "\n")
    rows = [{"prompt": f"{a}+{b}-1=? Use <think> and <answer>.\n", "answer": str(a + b - 1)}
            for a in range(10) for b in range(10)]
    (tmp_path / "train.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows[20:]))
    (tmp_path / "eval.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows[:20]))
    env = dict(os.environ, OMP_NUM_THREADS="1", RLVR_CACHE=str(tmp_path / "cache"))
    args = ["train", "--preset", "smoke", "--output", "run", "reward.verifier=my_rewards:reward", "task.name=dataset",
            "task.train_path=train.jsonl", "task.eval_path=eval.jsonl", "train.steps=1", "log.report=false"]
    proc = subprocess.run([str(RLVR_SCRIPT), *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    saved = json.loads((tmp_path / "run" / "config.json").read_text())["reward"]
    assert saved["verifier"] == "my_rewards:reward" and saved["format_weight"] == 0.0
    resumed = subprocess.run([str(RLVR_SCRIPT), *args[:-2], "train.steps=2", "log.report=false", "--resume"],
                             cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert "resume: continuing from step_1" in resumed.stderr
    monkeypatch.chdir(tmp_path)  # refused while the config loads: no need for a process of its own
    monkeypatch.setattr(sys, "path", list(sys.path))
    capsys.readouterr()
    assert main([*args[:4], "run-bad", "reward.verifier=my_rewards:nope", *args[6:]]) == 2
    assert capsys.readouterr().err.strip() == ("rlvr train: error: reward.verifier: verifier 'my_rewards:nope': module "
                                               "'my_rewards' has no attribute 'nope'")
    assert not (tmp_path / "run-bad").exists()
    sys.modules.pop("my_rewards", None)


def test_trl_reward_functions_are_used_unchanged(tmp_path):
    path = register_function(reward_func)
    sample = DatasetTask.from_config(TaskConfig(name="dataset", train_path=str(_rows_file(tmp_path)), eval_size=1),
                                     verifier=path).eval_samples[0]
    assert sample.fields["columns"]["ground_truth"] == "42"  # a column rlvr does not know reaches the function
    grade = get_verifier(path)
    assert grade(r"so \boxed{42}", sample) == Verdict(1.0, "ok", "reward 1")
    assert grade(r"so \boxed{41}", sample).status == "wrong"
    length = get_verifier(register_function(reward_len))
    verdict = length("x" * 25, sample)
    assert verdict.reward == -5.0 and verdict.status == "wrong"


def _rows_file(tmp_path: Path) -> Path:
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps({"prompt": f"q{i}", "ground_truth": "42", "extra": i}) + "\n" for i in range(3)))
    return path


def test_verdict_and_number_forms_and_bad_returns():
    sample = Sample("0", "what is 6*7?", "42")
    assert get_verifier(register_function(verdict_form))("it is 42", sample) == Verdict(1.0, "ok", "found it")
    assert get_verifier(register_function(float_form))("x", sample) == Verdict(0.5, "wrong", "reward 0.5")
    v = get_verifier(register_function(returns_none))("x", sample)
    assert v.status == "error" and "returned None" in v.detail


def test_a_user_function_gets_no_format_bonus():
    path = register_function(float_form)
    cfg = load_config(overrides=[f"reward.verifier={path}"])
    assert cfg.reward.format_weight == 0.0
    assert load_config().reward.format_weight == 0.1  # built-in verifiers keep the demo's format term
    assert load_config(overrides=[f"reward.verifier={path}", "reward.format_weight=0.2"]).reward.format_weight == 0.2
    good = "<think>x</think><answer>1</answer>"
    assert build_reward_fn(path, cfg.reward.format_weight, False)(good, Sample("0", "p", "1")).reward == 0.5


def test_a_signature_that_fits_neither_form_is_refused():
    def three(a, b, c):
        return 0.0

    with pytest.raises(rlvr.UserError, match="rlvr calls f\\(completion, sample\\)"):
        register_function(three)
    with pytest.raises(ConfigError, match="cannot import module"):
        load_config(overrides=["reward.verifier=not_a_module_anywhere:f"])


def test_verify_from_python():
    assert rlvr.verify("<answer>8</answer>", "8").status == "ok"
    assert rlvr.verify("the answer is 1/2", "0.5", verifier="math").status == "ok"
    assert rlvr.verify("x" * 20, verifier=reward_len).reward == 0.0


def test_docs_api_examples_run(tmp_path):
    blocks = re.findall(r"```python\n(.*?)```", (REPO / "docs" / "api.md").read_text(), re.S)
    assert len(blocks) >= 4
    (tmp_path / "examples.py").write_text("\n".join(blocks))
    env = dict(os.environ, OMP_NUM_THREADS="1", RLVR_CACHE=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, "examples.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = [line for line in proc.stdout.splitlines() if not line.startswith(("train ", "eval "))]  # the stdout sink
    assert out[0] == "2 4 exact"
    assert out[1] == "config key 'rollout.top_p' = 2.0 is out of range; valid: (0, 1]"
    assert out[2].startswith("Verdict(reward=1.0, status='ok'") and out[3] == "wrong" and out[4] == "ok"
    assert out[5].startswith("[1, 2] ")
    assert out[6].startswith("30 {'1': ") and "'2': " in out[6]
