"""The scripted fake backend, and that the heavy backends stay lazy imports."""

from __future__ import annotations

import ast
import math
import subprocess
import sys
from pathlib import Path

import pytest

from rlvr.rollout.scripted import SCRIPTED_LOGP, ScriptedRollout, arithmetic_script
from rlvr.types import SamplingParams

SRC = Path(__file__).resolve().parents[2] / "src" / "rlvr"


@pytest.mark.parametrize("prompt, j, expected", [
    ("3+5-2=? Think in <think></think>, answer in <answer></answer>.\n", 0,
     "<think>3+5=8 8-2=6</think><answer>6</answer>"),
    ("3+5-2=? Think in <think></think>, answer in <answer></answer>.\n", 1,
     "<think>3+5=8 8-2=6</think><answer>7</answer>"),
    ("2*3+1=?", 2, "<think>2*3=6 6+1=7</think><answer>7</answer>"),
    ("what is love?", 0, "<answer>0</answer>"),
])
def test_arithmetic_script_table(prompt, j, expected):
    assert arithmetic_script(prompt, j) == expected


def test_scripted_completions_carry_version_logprobs_and_finish(tiny_tokenizer):
    r = ScriptedRollout(tiny_tokenizer)
    prompt = tiny_tokenizer("1+2+3=? go", add_special_tokens=False)["input_ids"]
    comps = r.generate([prompt], SamplingParams(max_new_tokens=40, n=2))
    assert [c.text for c in comps] == ["<think>1+2=3 3+3=6</think><answer>6</answer>",
                                       "<think>1+2=3 3+3=6</think><answer>7</answer>"]
    c = comps[0]
    assert c.token_ids[-1] == tiny_tokenizer.eos_token_id and c.finish_reason == "stop"
    assert c.sampler_logp == [SCRIPTED_LOGP] * len(c.token_ids) and SCRIPTED_LOGP == pytest.approx(math.log(0.5))
    r.sync_weights()
    short = r.generate([prompt], SamplingParams(max_new_tokens=5, n=1))[0]
    assert short.policy_version == 1 and short.finish_reason == "length" and len(short.token_ids) == 5
    assert r.calls[-1][0] == 1


def test_scripted_run_gets_mixed_rewards(tiny_tokenizer):
    from rlvr.config import load_config
    from rlvr.tasks.arithmetic import ArithmeticSpec, ArithmeticTask
    from rlvr.verifiers.rewarder import Rewarder

    cfg = load_config(preset="smoke")
    task = ArithmeticTask(ArithmeticSpec(), eval_size=4)
    samples = task.train_batch(0, 2)
    comps = ScriptedRollout(tiny_tokenizer).generate(
        [tiny_tokenizer(s.prompt, add_special_tokens=False)["input_ids"] for s in samples],
        SamplingParams(max_new_tokens=40, n=2))
    rewarder = Rewarder(cfg.reward)
    try:
        statuses = [v.status for v in rewarder(comps, [s for s in samples for _ in range(2)])]
    finally:
        rewarder.close()
    assert statuses == ["ok", "wrong", "ok", "wrong"]


LAZY = {"rollout/vllm.py": {"vllm"}, "train/async_source.py": {"ray", "vllm"}, "train/distributed.py": {"ray", "vllm"},
        "rollout/fake_engine.py": {"vllm", "ray"}, "rollout/scripted.py": {"vllm", "ray"},
        "train/loop.py": {"ray", "vllm"}}


@pytest.mark.parametrize("rel", sorted(LAZY))
def test_heavy_backends_are_never_imported_at_module_level(rel):
    tree = ast.parse((SRC / rel).read_text())
    top = []
    for node in tree.body:  # module level only; imports inside functions are lazy
        if isinstance(node, ast.Import):
            top += [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            top.append(node.module.split(".")[0])
    assert not set(top) & LAZY[rel], rel


def test_importing_the_scale_modules_loads_neither_ray_nor_vllm():
    code = ("import sys, rlvr.train.loop, rlvr.train.async_source, rlvr.train.distributed, rlvr.rollout.vllm, "
            "rlvr.rollout.scripted, rlvr.rollout.fake_engine; "
            "print(sorted(m for m in ('ray', 'vllm') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
