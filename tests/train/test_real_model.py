"""Real-model plumbing on CPU: a local Hugging Face chat model (BPE tokenizer, chat
template, Qwen2) trained from JSONL files with the math and code verifiers, prompts
rendered through the chat template, every EOS id stopping generation, pad = EOS,
dtype selection, gradient checkpointing, and a checkpoint that loads with transformers."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import torch

from models.chat_model import build_chat_model
from rlvr.config import load_config
from rlvr.types import Sample, SamplingParams

R1_SYSTEM = ("A conversation between User and Assistant. The Assistant first thinks about the reasoning process "
             "and then provides the answer, enclosed in <think> </think> and <answer> </answer> tags.")


@pytest.fixture(scope="module")
def chat_model_dir(tmp_path_factory) -> Path:
    return build_chat_model(tmp_path_factory.mktemp("chat-model"))


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def math_files(tmp_path: Path) -> tuple[Path, Path]:
    rows = [{"question": f"Sam has {a} pens and gets {b} more. How many pens?",
             "answer": f"{a}+{b}={a + b}\n#### {a + b}"}
            for a, b in [(3, 4), (10, 5), (7, 7), (12, 1), (2, 9), (6, 6)]]
    return (write_jsonl(tmp_path / "train.jsonl", rows[:4]), write_jsonl(tmp_path / "test.jsonl", rows[4:]))


def small_run(model_dir: Path, out: Path, *extra: str) -> list[str]:
    return [f"model.path={model_dir}", f"output={out}", "rollout.prompts_per_step=2", "rollout.group_size=2",
            "rollout.max_new_tokens=6", "train.steps=2", "train.checkpoint_every=0", "eval.every=0",
            "eval.problems=2", "task.eval_size=2", "log.progress=false", "log.report=false", "log.sinks=[]",
            "log.samples_every=1", "threads=1", *extra]


def test_chat_model_trains_two_steps_from_jsonl_and_checkpoint_loads(chat_model_dir, tmp_path):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from rlvr.train.loop import train

    train_file, test_file = math_files(tmp_path)
    cfg = load_config(overrides=small_run(
        chat_model_dir, tmp_path / "run", "task.name=dataset", f"task.train_path={train_file}",
        f"task.eval_path={test_file}", "task.fields={prompt: question}", "task.answer_extract=gsm8k",
        "reward.verifier=math", f"model.system_prompt={json.dumps(R1_SYSTEM)}",
        "algo.entropy_coef=0.01"))  # a random model earns no reward; the entropy bonus still moves its weights
    t0 = time.time()
    summary = train(cfg, log=lambda s: None)
    assert time.time() - t0 < 20
    assert summary["steps"] == 2
    rows = [json.loads(x) for x in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows if r["kind"] == "train"] == [1, 2]
    samples = [json.loads(x) for x in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    assert len(samples) == 8 and {s["status"] for s in samples} <= {"ok", "wrong", "no_answer"}
    assert samples[0]["prompt"].startswith("Sam has") and samples[0]["answer"] in {"7", "15", "14", "13"}
    ckpt = Path(summary["checkpoint"])
    model = AutoModelForCausalLM.from_pretrained(ckpt)
    tok = AutoTokenizer.from_pretrained(ckpt)
    assert tok.chat_template and tok.eos_token == "<|endoftext|>"
    assert model.config.vocab_size == len(tok) and model.generation_config.eos_token_id == [
        tok.convert_tokens_to_ids("<|im_end|>"), tok.eos_token_id]
    base = AutoModelForCausalLM.from_pretrained(chat_model_dir)
    assert any(not torch.equal(a, b) for a, b in zip(model.state_dict().values(), base.state_dict().values()))


TEMPLATE = "{prompt}\nYour code should pass:\n{tests}"


def mbpp_rows() -> list[dict]:
    return [{"text": f"Write a function f{i}(x) that returns x + {i}.", "test_list": [f"assert f{i}(1) == {1 + i}"],
             "task_id": i} for i in range(6)]


def test_code_dataset_trains_through_the_sandboxed_verifier(chat_model_dir, tmp_path):
    from rlvr import sandbox

    reason = sandbox.probe()
    if reason is not None:
        pytest.skip(f"sandbox unavailable: {reason}")
    from rlvr.tasks.registry import build_task
    from rlvr.train.loop import train
    from rlvr.types import Completion
    from rlvr.verifiers.rewarder import Rewarder

    rows = mbpp_rows()
    train_file = write_jsonl(tmp_path / "train.jsonl", rows[:4])
    test_file = write_jsonl(tmp_path / "test.jsonl", rows[4:])
    cfg = load_config(overrides=small_run(
        chat_model_dir, tmp_path / "run", "task.name=dataset", f"task.train_path={train_file}",
        f"task.eval_path={test_file}", "task.fields={prompt: text, tests: test_list, id: task_id}",
        f"task.prompt_template={json.dumps(TEMPLATE)}", "reward.verifier=code",
        "reward.workers=1", "reward.timeout_s=20"))
    # the rows reach the verifier with their tests: a right and a wrong program
    task, rewarder = build_task(cfg.task, cfg.reward.verifier), Rewarder(cfg.reward)
    try:
        s = task.eval_samples[0]
        assert s.prompt == "Write a function f4(x) that returns x + 4.\nYour code should pass:\nassert f4(1) == 5"
        texts = ["```python\ndef f4(x):\n    return x + 4\n```", "```python\ndef f4(x):\n    return x\n```"]
        comps = [Completion([1], [2], [0.0], [True], "stop", t) for t in texts]
        assert [v.status for v in rewarder(comps, [s, s])] == ["ok", "wrong"]
    finally:
        rewarder.close()
    summary = train(cfg, log=lambda m: None)
    assert summary["steps"] == 2
    rows = [json.loads(x) for x in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    train_rows = [r for r in rows if r["kind"] == "train"]
    assert len(train_rows) == 2 and all("reward/mean" in r for r in train_rows)
    samples = [json.loads(x) for x in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    assert samples and {s["status"] for s in samples} <= {"ok", "wrong", "no_answer"}  # never "error"


def test_render_prompt_uses_the_chat_template_and_system_prompt(chat_model_dir):
    from transformers import AutoTokenizer

    from rlvr.rollout.prompts import render_prompt

    tok = AutoTokenizer.from_pretrained(chat_model_dir)
    sample = Sample(id="0", prompt="What is 2 + 3?", answer="5")
    with_system = load_config(overrides=[f"model.system_prompt={json.dumps(R1_SYSTEM)}"])
    text = tok.decode(render_prompt(tok, sample, with_system))
    assert text == (f"<|im_start|>system\n{R1_SYSTEM}<|im_end|>\n<|im_start|>user\nWhat is 2 + 3?<|im_end|>\n"
                    f"<|im_start|>assistant\n")
    plain = tok.decode(render_prompt(tok, sample, load_config()))
    assert plain == "<|im_start|>user\nWhat is 2 + 3?<|im_end|>\n<|im_start|>assistant\n"
    raw = tok.decode(render_prompt(tok, sample, load_config(overrides=["model.chat_template=none"])))
    assert raw == "What is 2 + 3?"


@pytest.mark.parametrize("fast", [True, False])  # the hf backend's fast decoder and its generic path
def test_end_of_turn_token_stops_generation_and_pad_falls_back_to_eos(chat_model_dir, fast):
    from rlvr.models.loading import load_policy
    from rlvr.rollout.build import build_rollout, eos_token_ids

    cfg = load_config(overrides=[f"model.path={chat_model_dir}"])
    model, tok = load_policy(chat_model_dir, cfg)
    im_end = tok.convert_tokens_to_ids("<|im_end|>")
    assert tok.pad_token_id == tok.eos_token_id  # the tokenizer has no pad token of its own
    assert eos_token_ids(model, tok) == [tok.eos_token_id, im_end]
    head = torch.nn.Linear(model.config.hidden_size, len(tok), bias=True)  # logits = bias: a scripted model
    torch.nn.init.zeros_(head.weight)
    torch.nn.init.zeros_(head.bias)
    model.lm_head = head
    word = tok.convert_tokens_to_ids(tok.tokenize("the")[0])
    rollout = build_rollout(cfg, model, tok)
    rollout.inner.fast = fast
    prompt = tok("What is 1 + 1?")["input_ids"]
    greedy = SamplingParams(max_new_tokens=5, temperature=0.0)
    with torch.no_grad():
        head.bias[im_end] = 100.0  # the model ends its turn at once
    (c,) = rollout.generate([prompt], greedy)
    assert (c.token_ids, c.finish_reason, c.text) == ([im_end], "stop", "")
    with torch.no_grad():
        head.bias[im_end], head.bias[word] = 0.0, 100.0  # the model never stops
    (c,) = rollout.generate([prompt], greedy)
    assert (c.token_ids, c.finish_reason) == ([word] * 5, "length")
    assert rollout.gen is rollout.inner.gen  # resume reads the sampler's RNG through the wrapper
    rollout.version = 7  # the async loop tags completions by setting the version
    assert rollout.inner.version == 7 and rollout.generate([prompt], greedy)[0].policy_version == 7


@pytest.mark.parametrize("override,want", [([], torch.float32), (["model.dtype=bfloat16"], torch.bfloat16)])
def test_dtype_is_float32_on_cpu_unless_overridden(chat_model_dir, override, want):
    from rlvr.models.loading import load_policy, resolve_device_dtype

    cfg = load_config(overrides=[f"model.path={chat_model_dir}", "model.device=cpu", *override])
    assert resolve_device_dtype(cfg) == (torch.device("cpu"), want)
    model, _ = load_policy(chat_model_dir, cfg)
    assert {p.dtype for p in model.parameters()} == {want}


def test_gradient_checkpointing_gives_the_same_gradients_and_trains(chat_model_dir, tmp_path):
    from rlvr.models.loading import load_policy
    from rlvr.train.batch import collate
    from rlvr.train.forward import response_logits, token_logp
    from rlvr.train.loop import train
    from rlvr.types import Completion

    plain, _ = load_policy(chat_model_dir, load_config(overrides=[f"model.path={chat_model_dir}"]))
    ckpt_model, _ = load_policy(chat_model_dir, load_config(overrides=[f"model.path={chat_model_dir}",
                                                                       "model.gradient_checkpointing=true"]))
    active = getattr(ckpt_model, "is_activation_checkpointing", None)
    assert (ckpt_model.is_gradient_checkpointing if active is None else active) and ckpt_model.training
    batch = collate([Completion([5, 6, 7], [8, 9], [0.0, 0.0], [True, True], "stop", ""),
                     Completion([5], [10, 11, 12], [0.0] * 3, [True] * 3, "length", "")], pad_id=0)
    grads, calls = [], []
    for model in (plain, ckpt_model):
        seen = []
        model.model.layers[0].self_attn.register_forward_hook(lambda m, i, o, seen=seen: seen.append(1))
        token_logp(response_logits(model, batch), batch.response_ids)[batch.loss_mask].sum().backward()
        grads.append([p.grad.clone() for p in model.parameters()])
        calls.append(len(seen))
    assert calls == [1, 2]  # the checkpointed layer ran again in the backward pass
    assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(*grads))
    train_file, test_file = math_files(tmp_path)
    cfg = load_config(overrides=small_run(
        chat_model_dir, tmp_path / "run", "task.name=dataset", f"task.train_path={train_file}",
        f"task.eval_path={test_file}", "task.fields={prompt: question}", "task.answer_extract=gsm8k",
        "reward.verifier=math", "model.gradient_checkpointing=true", "train.steps=1"))
    assert train(cfg, log=lambda m: None)["steps"] == 1
