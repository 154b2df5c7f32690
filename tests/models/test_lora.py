"""LoRA through peft: only adapters train, the reference is the base with adapters
disabled, checkpoints hold the merged model (plain transformers loads it) plus the adapter,
and a resumed LoRA run continues exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

pytest.importorskip("peft")

from rlvr.config import load_config  # noqa: E402
from rlvr.errors import ConfigError  # noqa: E402
from rlvr.train.batch import collate  # noqa: E402
from rlvr.types import Completion, SamplingParams  # noqa: E402

from .chat_model import build_chat_model  # noqa: E402


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory) -> Path:
    return build_chat_model(tmp_path_factory.mktemp("lora-base"), hidden=32, layers=2)


def lora_cfg(model_dir: Path, *extra: str):
    return load_config(overrides=[f"model.path={model_dir}", "model.lora_r=4", "model.lora_alpha=8", *extra])


def perturbed_lora(model_dir: Path, seed: int = 0):
    """A LoRA policy whose adapters are not zero (a fresh adapter is the identity)."""
    from rlvr.models.loading import load_policy

    model, tok = load_policy(model_dir, lora_cfg(model_dir))
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "lora_B" in name:
                p.copy_(torch.randn(p.shape, generator=gen) * 0.5)
    return model, tok


def a_batch():
    return collate([Completion([5, 6, 7, 8], [9, 10, 11], [0.0] * 3, [True] * 3, "stop", ""),
                    Completion([12, 13], [14, 15, 16, 17], [0.0] * 4, [True] * 4, "length", "")], pad_id=0)


def logits_of(model, ids):
    with torch.no_grad():
        return model(input_ids=torch.tensor([ids])).logits


def test_only_adapter_parameters_get_gradients(model_dir):
    from rlvr.models.loading import load_policy
    from rlvr.models.lora import trainable_parameters
    from rlvr.train.forward import response_logits, token_logp

    model, _ = load_policy(model_dir, lora_cfg(model_dir))
    trainable, total = trainable_parameters(model)
    names = [n for n, p in model.named_parameters() if p.requires_grad]
    # q_proj and v_proj (peft's Qwen2 default) in 2 layers: A (4 x 32) + B (out x 4)
    assert names and all("lora_A" in n or "lora_B" in n for n in names) and len(names) == 8
    assert trainable == 2 * (4 * 32 + 32 * 4) + 2 * (4 * 32 + 16 * 4) and trainable < total / 10
    batch = a_batch()
    token_logp(response_logits(model, batch), batch.response_ids)[batch.loss_mask].sum().backward()
    for n, p in model.named_parameters():
        assert (p.grad is not None) == p.requires_grad, n
    assert any(float(p.grad.abs().sum()) > 0 for n, p in model.named_parameters() if "lora_B" in n)


def test_reference_logp_equals_the_base_models(model_dir):
    from transformers import AutoModelForCausalLM

    from rlvr.train.update import ReferencePolicy, logp_of

    policy, _ = perturbed_lora(model_dir)
    base = AutoModelForCausalLM.from_pretrained(model_dir)
    batch = a_batch()
    policy_logp, base_logp = logp_of(policy, batch, 1.0, 0), logp_of(base, batch, 1.0, 0)  # (B, R)
    assert (policy_logp - base_logp).abs().max() > 1e-3  # the adapters change the policy
    ref = ReferencePolicy.adapters_off(policy)
    assert torch.allclose(ref.logp(batch, 1.0, 0), base_logp, atol=1e-6)
    assert torch.allclose(ref.logp(batch, 0.7, 1), logp_of(base, batch, 0.7, 1), atol=1e-6)  # temperature, micro
    assert torch.equal(logp_of(policy, batch, 1.0, 0), policy_logp)  # adapters are back on afterwards
    with pytest.raises(RuntimeError, match="cannot be re-anchored"):
        ref.load_state_dict({})


def test_build_reference_for_lora(model_dir):
    from rlvr.models.loading import load_policy
    from rlvr.train.run import build_reference

    cfg = lora_cfg(model_dir, "algo.kl_coef=0.01")
    model, _ = load_policy(model_dir, cfg)
    ref = build_reference(cfg, model, model_dir, resume_from=None)
    assert ref.adapters_disabled and ref.model is model  # no second copy of the weights
    assert build_reference(lora_cfg(model_dir, "algo.kl_coef=0"), model, model_dir, None) is None  # no KL, no reference
    with pytest.raises(ConfigError, match="algo.ref_update_every=50 re-anchors a frozen reference copy, but with "
                                          "LoRA \\(model.lora_r=4\\) the reference is the base model"):
        build_reference(lora_cfg(model_dir, "algo.kl_coef=0.01", "algo.ref_update_every=50"), model, model_dir, None)


@pytest.mark.filterwarnings("ignore:.*is_gradient_checkpointing.*:FutureWarning")  # peft reads the old name
def test_merged_checkpoint_and_adapter_load_back(model_dir, tmp_path):
    from peft import PeftModel
    from safetensors import safe_open
    from transformers import AutoModelForCausalLM

    from rlvr.models.lora import MergedView, save_adapter

    policy, _ = perturbed_lora(model_dir)
    MergedView(policy).save_pretrained(tmp_path / "merged")
    save_adapter(policy, tmp_path / "adapter")
    with safe_open(tmp_path / "merged" / "model.safetensors", "pt") as f:
        keys = list(f.keys())
    assert not [k for k in keys if "lora" in k or "base_layer" in k]
    ids = [1, 40, 41, 42, 2, 1, 50]
    want = logits_of(policy, ids)
    merged = AutoModelForCausalLM.from_pretrained(tmp_path / "merged")
    assert torch.allclose(logits_of(merged, ids), want, atol=1e-5)
    reloaded = PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(model_dir), tmp_path / "adapter")
    assert torch.allclose(logits_of(reloaded, ids), want, atol=1e-6)
    # the live weights were not touched by the merge (no merge/unmerge round trip)
    assert torch.allclose(logits_of(policy, ids), want, atol=0)


def test_adapter_state_round_trip(model_dir):
    from rlvr.models.loading import load_policy
    from rlvr.models.lora import adapter_state, load_adapter_state

    policy, _ = perturbed_lora(model_dir, seed=3)
    fresh, _ = load_policy(model_dir, lora_cfg(model_dir))
    ids = [7, 8, 9, 10]
    assert not torch.allclose(logits_of(fresh, ids), logits_of(policy, ids))
    load_adapter_state(fresh, adapter_state(policy))
    assert torch.allclose(logits_of(fresh, ids), logits_of(policy, ids), atol=0)


def test_kv_cache_sampling_through_the_peft_wrapper(model_dir, tmp_path):
    from transformers import AutoModelForCausalLM

    from rlvr.models.lora import MergedView
    from rlvr.rollout.hf import HFRollout, cache_kwarg

    policy, tok = perturbed_lora(model_dir)
    assert cache_kwarg(policy) == cache_kwarg(policy.get_base_model())
    MergedView(policy).save_pretrained(tmp_path / "merged")
    merged = AutoModelForCausalLM.from_pretrained(tmp_path / "merged")
    greedy = SamplingParams(max_new_tokens=8, temperature=0.0)
    prompts = [[1, 40, 41], [5, 6, 7, 8, 9]]
    a = HFRollout(policy, tok).generate(prompts, greedy)
    b = HFRollout(merged, tok).generate(prompts, greedy)
    assert [c.token_ids for c in a] == [c.token_ids for c in b]


def test_missing_peft_names_the_extra(model_dir, monkeypatch):
    import sys

    from rlvr.models.loading import load_policy

    monkeypatch.setitem(sys.modules, "peft", None)  # import peft -> ImportError
    with pytest.raises(ConfigError, match="model.lora_r > 0 needs peft: pip install 'rlvr\\[lora\\]'"):
        load_policy(model_dir, lora_cfg(model_dir))


# ---------------------------------------------------------------- end to end
def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def run_cfg(model_dir: Path, data: Path, out: Path, steps: int):
    rows = [{"question": f"What is {a} + {b}?", "answer": str(a + b)}
            for a, b in [(1, 2), (3, 4), (5, 6), (7, 8), (9, 9)]]
    train, test = write_jsonl(data / "train.jsonl", rows[:4]), write_jsonl(data / "test.jsonl", rows[4:])
    return lora_cfg(model_dir, "task.name=dataset", f"task.train_path={train}", f"task.eval_path={test}",
                    "task.fields={prompt: question}", "reward.verifier=exact", f"output={out}",
                    "rollout.prompts_per_step=2", "rollout.group_size=2", "rollout.max_new_tokens=5",
                    f"train.steps={steps}", "train.checkpoint_every=1", "train.lr=0.01", "eval.every=0",
                    "eval.problems=1", "task.eval_size=1", "algo.kl_coef=0.05", "algo.entropy_coef=0.05",
                    "log.progress=false", "log.report=false", "log.sinks=[]", "threads=1")


def final_weights(summary: dict) -> dict:
    from transformers import AutoModelForCausalLM

    return AutoModelForCausalLM.from_pretrained(summary["checkpoint"]).state_dict()


def test_lora_run_checkpoints_merged_model_and_resumes_exactly(model_dir, tmp_path):
    from rlvr.train.loop import train

    straight = train(run_cfg(model_dir, tmp_path, tmp_path / "a", steps=3), log=lambda m: None)
    ckpt = Path(straight["checkpoint"])
    assert (ckpt / "adapter" / "adapter_config.json").is_file() and (ckpt / "config.json").is_file()
    assert not (ckpt / "adapter_config.json").exists()  # from_pretrained(ckpt) loads the merged model
    weights = final_weights(straight)
    base = final_weights({"checkpoint": model_dir})
    assert any(not torch.equal(weights[k], base[k]) for k in base)  # the adapters moved the policy
    train(run_cfg(model_dir, tmp_path, tmp_path / "b", steps=2), log=lambda m: None)
    resumed = train(run_cfg(model_dir, tmp_path, tmp_path / "b", steps=3), resume=True, log=lambda m: None)
    again = final_weights(resumed)
    assert all(torch.allclose(again[k], weights[k], atol=1e-6) for k in weights)
    metrics = [json.loads(x) for x in (tmp_path / "b" / "metrics.jsonl").read_text().splitlines()]
    assert [m["step"] for m in metrics if m["kind"] == "train"] == [1, 2, 3]
    assert all(m["kl_ref"] >= 0 for m in metrics if m["kind"] == "train")
