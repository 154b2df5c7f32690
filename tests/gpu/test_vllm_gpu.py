"""The vllm backend and data parallelism on real GPUs. Skipped without CUDA (and vllm).

These are the checks the CPU suite cannot make: real vLLM log-probabilities against the
trainer's, weight pushes into a real engine, a short training run through it, and (with
two GPUs) nccl data parallelism and FSDP2. None has been run yet: no GPU was available
when they were written; the same engine is checked on CPU in tests/rollout/test_vllm_real.py
(docs/scaling.md lists what is checked where).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU"),
]
needs_vllm = pytest.mark.skipif(not torch.cuda.is_available() or importlib.util.find_spec("vllm") is None,
                                reason="needs a CUDA GPU and vllm (pip install 'rlvr[vllm]')")
needs_two = pytest.mark.skipif(not torch.cuda.is_available() or torch.cuda.device_count() < 2, reason="needs 2 GPUs")


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    """A random 2-layer Llama with head size 64 (attention kernels reject tiny head sizes)."""
    from rlvr.models.tiny import TinyShape, build_char_tokenizer, build_tiny_model, save_pretrained

    tok = build_char_tokenizer()
    path = tmp_path_factory.mktemp("gpu-model")
    model = build_tiny_model(tok, TinyShape(hidden=256, layers=2, heads=4, intermediate=512))
    save_pretrained(model, tok, path)
    return path


def _cfg(model_dir: Path, *extra):
    from rlvr.config import load_config

    overrides = [f"model.path={model_dir}", "model.device=cuda", "model.dtype=bfloat16", "algo.tis_cap=2.0",
                 "rollout.vllm_kwargs={enforce_eager: true, max_model_len: 512}", *extra]
    return load_config(preset="smoke", overrides=overrides)


def _mismatch(model, comps) -> float:
    diffs = []
    for c in comps:
        ids = torch.tensor([c.prompt_ids + c.token_ids], device="cuda")
        with torch.no_grad():
            lg = model(ids).logits[0].float().log_softmax(-1)
        P = len(c.prompt_ids)
        ref = lg[P - 1:-1].gather(-1, ids[0, P:, None]).squeeze(-1).cpu()
        diffs.append((ref - torch.tensor(c.sampler_logp)).abs())
    return float(torch.cat(diffs).mean())


@needs_vllm
def test_real_engine_logprobs_track_the_trainer_and_pushes_land(model_dir):
    from rlvr.models.loading import load_policy
    from rlvr.rollout.vllm import VLLMRollout
    from rlvr.types import SamplingParams

    cfg = _cfg(model_dir)
    model, tok = load_policy(model_dir, cfg)
    r = VLLMRollout(cfg, model, tok)
    sp = SamplingParams(max_new_tokens=24, temperature=1.0, n=4)
    prompts = [tok(f"{i}+{i}=?", add_special_tokens=False)["input_ids"] for i in range(8)]
    comps = r.generate(prompts, sp)
    assert len(comps) == 32 and all(c.policy_version == 0 for c in comps)
    assert _mismatch(model, comps) < 0.05  # bf16 kernels differ; a wrong weight push gives >> 0.1
    with torch.no_grad():
        for p in model.parameters():
            p.mul_(1.5)  # a large in-place change, like an optimizer step
    with pytest.raises(RuntimeError, match="stale weights"):
        r.generate(prompts, sp)
    gap = r.sync_weights()
    assert gap["vllm/logp_gap_max"] < 0.1  # the probe check after the push (the bf16 default bound)
    comps = r.generate(prompts, sp)
    assert r.version == 1 and all(c.policy_version == 1 for c in comps)
    assert _mismatch(model, comps) < 0.05


@needs_vllm
def test_sync_loop_with_the_vllm_backend(model_dir, tmp_path):
    from rlvr.train.loop import train

    cfg = _cfg(model_dir, "rollout.backend=vllm", "train.steps=3", "log.report=false", f"output={tmp_path / 'run'}")
    summary = train(cfg, log=print)
    rows = [json.loads(x) for x in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    train_rows = [r for r in rows if r["kind"] == "train"]
    assert summary["steps"] == 3 and len(train_rows) == 3
    assert all(r["logp_mismatch"] < 0.1 for r in train_rows)


def _torchrun(args, tmp_path, timeout=900):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    return subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2",
                           "-m", "rlvr.cli", "train", "--preset", "smoke", "--output", str(tmp_path / "run"), *args],
                          capture_output=True, text=True, env=env, timeout=timeout)


@needs_two
def test_nccl_ddp_two_gpus(tmp_path, model_dir):
    proc = _torchrun([f"model.path={model_dir}", "model.device=cuda", "train.steps=2", "log.report=false"], tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]


@needs_two
@needs_vllm
def test_fsdp2_two_gpus_with_vllm(tmp_path, model_dir):
    proc = _torchrun([f"model.path={model_dir}", "model.device=cuda", "model.dtype=bfloat16", "train.dp=fsdp2",
                      "rollout.backend=vllm", "algo.tis_cap=2.0", "rollout.vllm_kwargs={enforce_eager: true}",
                      "train.steps=2", "log.report=false"], tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    from transformers import AutoModelForCausalLM

    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    AutoModelForCausalLM.from_pretrained(summary["checkpoint"])  # the gathered checkpoint loads as a plain HF model
