"""The tool_arithmetic task: splits, references, warm-start masking, config checks, and a
CPU smoke run of `rlvr train` with the calculator (mechanics only)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from rlvr.config import load_config
from rlvr.errors import ConfigError
from rlvr.models.warmstart import completion_ids, encode_pairs
from rlvr.tasks.tool_arithmetic import PROMPT, ToolArithmeticSpec, ToolArithmeticTask, longest_reference
from rlvr.types import Sample
from rlvr.verifiers.exact import verify_exact
from rlvr.verifiers.format import verify_format


def test_splits_are_disjoint_and_the_stream_is_indexable():
    task = ToolArithmeticTask(ToolArithmeticSpec(), eval_size=200)
    held_out = {s.fields["expr"] for s in task.eval_samples}
    assert len(held_out) == 200
    train = task.train_batch(0, 2000)
    assert not held_out & {s.fields["expr"] for s in train}
    assert task.train_sample(1234) == ToolArithmeticTask(ToolArithmeticSpec(), eval_size=200).train_sample(1234)
    for s in train[:200]:
        a, b = s.fields["expr"].replace("-", "+").split("+")
        assert 4 <= len(a) <= 5 and 4 <= len(b) <= 5
        a, b = int(a), int(b)
        assert s.prompt == PROMPT.format(expr=s.fields["expr"])
        assert int(s.answer) == (a + b if "+" in s.fields["expr"] else a - b)
    # a space of 200 problems, 50 held out: 2000 training draws would hit them without the skip
    small = ToolArithmeticTask(ToolArithmeticSpec(digits_min=1, digits_max=1), eval_size=50)
    small_held_out = {s.fields["expr"] for s in small.eval_samples}
    drawn = {s.fields["expr"] for s in small.train_batch(0, 2000)}
    assert len(drawn) == 150 and not drawn & small_held_out


@pytest.mark.parametrize("rate,low,high", [(0.0, 0, 0), (0.3, 250, 350), (0.5, 450, 550), (1.0, 1000, 1000)])
def test_warmstart_mix_follows_call_rate(rate, low, high):
    task = ToolArithmeticTask(ToolArithmeticSpec(call_rate=rate), eval_size=10)
    calls = sum(task.calls_tool(s) for s in task.train_batch(0, 1000))
    assert low <= calls <= high


def test_references_verify_and_keep_the_format():
    task = ToolArithmeticTask(ToolArithmeticSpec(call_rate=0.5), eval_size=10)
    styles = set()
    for s in task.train_batch(0, 50):
        ref = task.reference_completion(s)
        styles.add("<tool>" in ref)
        assert verify_exact(ref, s).status == "ok" and verify_format(ref, s).status == "ok"
    assert styles == {True, False}
    sample = Sample(id="x", prompt="", answer="138625", fields={"expr": "48213+90412"})
    always = ToolArithmeticTask(ToolArithmeticSpec(call_rate=1.0), eval_size=10)
    assert always.reference_completion(sample) == \
        "<think><tool>48213+90412</tool><output>138625</output></think><answer>138625</answer>"


def test_warmstart_labels_skip_the_tool_output(tiny_tokenizer):
    tok = tiny_tokenizer
    segments = [("<think><tool>1+2</tool>", True), ("<output>3</output>", False), ("</think><answer>3</answer>", True)]
    ids, labels = completion_ids(tok, segments)
    out = tok("<output>3</output>")["input_ids"]
    assert ids == tok("<think><tool>1+2</tool>")["input_ids"] + out + tok("</think><answer>3</answer>")["input_ids"] \
        + [tok.eos_token_id]
    assert labels == [t if not 6 <= j < 9 else -100 for j, t in enumerate(ids)]
    assert ids[6:9] == out and len(out) == 3
    # a plain string is trained everywhere, as before
    _, _, plain = encode_pairs(tok, ["p"], ["<answer>3</answer>"])
    assert plain[0].tolist() == [-100] + tok("<answer>3</answer>")["input_ids"] + [tok.eos_token_id]


def test_longest_reference_fits_the_default_length_limit(tiny_tokenizer):
    assert longest_reference(5, "+-") == \
        "<think><tool>99999+99999</tool><output>199998</output></think><answer>199998</answer>"
    assert len(tiny_tokenizer(longest_reference(5, "+-"))["input_ids"]) + 1 == 32  # + EOS: rollout default 32
    assert len(tiny_tokenizer(longest_reference(6, "+-"))["input_ids"]) + 1 == 36


def test_config_errors_say_what_to_set(tiny_tokenizer):
    from rlvr.rollout.build import with_tools
    from rlvr.tasks.registry import build_task

    base = ["task.name=tool_arithmetic", "task.eval_size=10"]

    def check(overrides):  # what the run set-up asks of the task once the tokenizer is loaded
        cfg = load_config(overrides=base + overrides)
        build_task(cfg.task).check_rollout(cfg, tiny_tokenizer)

    with pytest.raises(ConfigError, match="rollout.max_tool_calls=1"):
        check([])
    with pytest.raises(ConfigError, match=">= 36"):
        check(["rollout.max_tool_calls=1", "task.tool_digits_max=6", "rollout.max_new_tokens=32"])
    check(["rollout.max_tool_calls=1", "task.tool_digits_max=6", "rollout.max_new_tokens=36"])  # room enough
    with pytest.raises(ConfigError, match="tool_tags"):
        with_tools(load_config(overrides=base + ["rollout.max_tool_calls=1", "rollout.tool_tags=[a]"]), object(),
                   tiny_tokenizer)
    with pytest.raises(ConfigError, match="call_rate"):
        build_task(load_config(overrides=base + ["task.tool_call_rate=1.5"]).task)
    with pytest.raises(ConfigError, match="valid choices: calculator, python"):
        load_config(overrides=["rollout.tool=shell"])
    wrapped = with_tools(load_config(overrides=base + ["rollout.max_tool_calls=2"]), object(), tiny_tokenizer)
    assert wrapped.max_calls == 2 and wrapped.pause_id == tiny_tokenizer.convert_tokens_to_ids("</tool>")


def test_tool_task_smoke_run(tmp_path, cache_dir):
    """A few steps of `rlvr train` on the tool task: calls happen, outputs are in the samples,
    tool metrics are logged. Mechanics only, not learning."""
    out = tmp_path / "run"
    env = dict(os.environ, RLVR_CACHE=str(cache_dir), OMP_NUM_THREADS="1")
    args = ["train", "--preset", "smoke", "--output", str(out), "task.name=tool_arithmetic",
            "rollout.max_tool_calls=1", "rollout.max_new_tokens=32", "task.tool_call_rate=1.0",
            "model.warmstart_steps=80", "model.warmstart_lr=0.003", "train.steps=3", "log.samples_every=1",
            "log.report=false"]
    proc = subprocess.run([sys.executable, "-m", "rlvr.cli", *args], capture_output=True, text=True, env=env,
                          timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    train_rows = [r for r in rows if r["kind"] == "train"]
    assert [r["step"] for r in train_rows] == [1, 2, 3]
    assert any(r.get("tool/calls_per_completion", 0) > 0 for r in train_rows)
    texts = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    assert any("</tool><output>" in json.dumps(t) for t in texts)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["steps"] == 3 and 0.0 <= summary["final"]["pass@1"] <= 1.0


def test_python_tool_without_a_sandbox_is_a_config_error(monkeypatch, tiny_tokenizer):
    from rlvr import sandbox
    from rlvr.rollout.build import with_tools

    def missing():
        raise sandbox.SandboxUnavailable("bwrap not found on PATH (apt-get install -y bubblewrap)")

    monkeypatch.setattr(sandbox, "require", missing)
    cfg = load_config(overrides=["rollout.max_tool_calls=1", "rollout.tool=python"])
    with pytest.raises(ConfigError, match="rollout.tool=python: bwrap not found"):
        with_tools(cfg, object(), tiny_tokenizer)
