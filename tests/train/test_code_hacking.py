"""Seeing "solve the tests, not the problem" during training.

A 30-step run of the real loop on a code dataset with visible and hidden tests, sandboxed
code verifier, a tiny chat model being trained. Its completions come from a scripted policy
(``rollout.backend=scripted``) whose share of programs that hard-code the visible test cases
grows over the run (the rest solve the problem): ``hack/visible_only`` must be logged at every
step, rise with that share, and raise the ``visible_only`` alarm; an honest policy keeps it at 0.
A policy whose programs answer the visible case and loop forever on any other input rises the
same way when the hidden tests are a HumanEval ``check(candidate)`` called by a trailing
statement: that statement never finishes, which fails the sample (status ``timeout``) and its
hidden case.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from models.chat_model import build_chat_model
from rlvr.config import load_config

STEPS, PROMPTS, GROUP = 30, 2, 2
EVAL_CALLS = 2  # the base evaluation's completions (eval.problems = 2, one greedy sample) come first


def code_rows(n: int) -> list[dict]:
    """f_i(x) = x + i; one visible test, two hidden ones."""
    return [{"text": f"Write a function f{i}(x) that returns x + {i}.", "tests": [f"assert f{i}(1) == {1 + i}"],
             "hidden_tests": [f"assert f{i}(5) == {5 + i}", f"assert f{i}(-3) == {-3 + i}"], "task_id": i}
            for i in range(n)]


def check_rows(n: int) -> list[dict]:
    """The same tasks with the hidden tests in the HumanEval layout (a top-level assert, then
    ``def check(candidate)`` and a trailing ``check(f_i)``)."""
    rows = code_rows(n)
    for i, row in enumerate(rows):
        row["verifier"] = {"name": "code", "options": {"timeout_s": 1.0}}  # a hang costs its whole wall limit
        row["hidden_tests"] = (f"assert f{i}(1) == {1 + i}\ndef check(candidate):\n    assert candidate(5) == {5 + i}\n"
                               f"    assert candidate(-3) == {-3 + i}\n\ncheck(f{i})\n")
    return rows


def program(prompt: str, hard_code: bool, hang: bool = False) -> str:
    i = int(re.search(r"function f(\d+)\(x\)", prompt).group(1))
    body = f"return {{1: {1 + i}}}.get(x, 0)" if hard_code else f"return x + {i}"  # the visible case only
    if hard_code and hang:  # right on the visible case, never returns on any other
        body = f"if x == 1:\n        return {1 + i}\n    while True:\n        pass"
    return f"```python\ndef f{i}(x):\n    {body}\n```"


def scripted_policy(rate_of_call, hang: bool = False):
    """A script for ScriptedRollout whose hard-coding share follows ``rate_of_call(k)``, k = call number."""
    calls = {"n": 0}

    def script(prompt: str, j: int) -> str:
        k = calls["n"] - EVAL_CALLS  # completion k of training (negative: the base evaluation)
        calls["n"] += 1
        per_step = PROMPTS * GROUP
        rate = rate_of_call(max(k, 0) // per_step)  # one rate for a whole step's completions
        return program(prompt, hard_code=k >= 0 and (k % per_step) < round(rate * per_step), hang=hang)

    return script


@pytest.fixture(scope="module")
def chat_model_dir(tmp_path_factory) -> Path:
    return build_chat_model(tmp_path_factory.mktemp("chat-model"))


def run(tmp_path: Path, model_dir: Path, monkeypatch, rate_of_step, hang: bool = False) -> list[dict]:
    from rlvr import sandbox
    from rlvr.rollout import scripted
    from rlvr.train.loop import train

    reason = sandbox.probe()
    if reason is not None:
        pytest.skip(f"sandbox unavailable: {reason}")
    data = tmp_path / "code.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in (check_rows if hang else code_rows)(40)))
    monkeypatch.setattr(scripted, "arithmetic_script", scripted_policy(rate_of_step, hang))
    cfg = load_config(overrides=[
        f"model.path={model_dir}", f"output={tmp_path / 'run'}", "task.name=dataset", f"task.train_path={data}",
        "task.eval_size=2", "task.fields={prompt: text, id: task_id}", "reward.verifier=code",
        f"reward.workers={2 if hang else 1}",  # hangs: two side by side
        "rollout.backend=scripted", f"rollout.prompts_per_step={PROMPTS}", f"rollout.group_size={GROUP}",
        "rollout.max_new_tokens=96", f"train.steps={STEPS}", "train.checkpoint_every=0", "eval.every=0",
        "eval.problems=2", "log.progress=false", "log.report=false", "log.sinks=[]", "log.samples_every=0",
        "threads=1", "algo.entropy_coef=0.01",
        "doctor.no_signal=alarm"])  # a scripted policy: groups without variance for 20 steps are the design here
    train(cfg, log=lambda s: None)
    rows = [json.loads(x) for x in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    return [r for r in rows if r["kind"] == "train"]


def test_visible_only_rises_when_the_policy_hard_codes_visible_cases(tmp_path, chat_model_dir, monkeypatch):
    # steps 1-10: no hard-coding; steps 11-20: half of each step's programs; steps 21-30: all of them
    rows = run(tmp_path, chat_model_dir, monkeypatch, lambda step: 0.0 if step < 10 else (0.5 if step < 20 else 1.0))
    hack = [r["hack/visible_only"] for r in rows]
    assert hack == [0.0] * 10 + [0.5] * 10 + [1.0] * 10  # logged at every step, exactly the scripted share
    assert [r["acc"] for r in rows] == [1.0] * 10 + [0.5] * 10 + [0.0] * 10  # hidden tests refuse the hack
    fired = [r["step"] for r in rows if "alarm/visible_only" in r]
    assert fired and 11 <= fired[0] <= 30, fired  # the alarm: once the rise shows inside its 20-step window


def test_an_honest_policy_keeps_visible_only_at_zero(tmp_path, chat_model_dir, monkeypatch):
    rows = run(tmp_path, chat_model_dir, monkeypatch, lambda step: 0.0)
    assert [r["hack/visible_only"] for r in rows] == [0.0] * STEPS
    assert all(r["acc"] == 1.0 for r in rows)
    assert not any(k.startswith("alarm/visible_only") for r in rows for k in r)


def test_visible_only_rises_when_the_policy_hangs_in_the_hidden_check(tmp_path, chat_model_dir, monkeypatch):
    # steps 1-20: honest programs; steps 21-30: half of each step's programs loop on every hidden input
    rows = run(tmp_path, chat_model_dir, monkeypatch, lambda step: 0.0 if step < 20 else 0.5, hang=True)
    assert [r["hack/visible_only"] for r in rows] == [0.0] * 20 + [0.5] * 10  # a hang is never a pass
    assert [r["acc"] for r in rows] == [1.0] * 20 + [0.5] * 10
    assert all(r.get("status/timeout", 0) > 0 for r in rows[20:]), [sorted(r) for r in rows[20:21]]
