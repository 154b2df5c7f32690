"""The new presets and entropy-control knobs train end to end on CPU (smoke model, scripted
rollouts whose groups are always mixed, so every step has a gradient), log their diagnostics,
and the adaptive entropy coefficient follows its rule through update_policy and checkpoints."""

from __future__ import annotations

import copy
import json
import math
import re
from pathlib import Path

import pytest
import torch

from rlvr.config import load_config
from rlvr.report.calculator import calculator_html
from rlvr.train import update as upd
from rlvr.train.rollouts import StepData
from rlvr.types import Completion, Sample, Verdict

METRICS_MD = (Path(__file__).resolve().parents[2] / "docs" / "metrics.md").read_text()
RUNS = {
    "gspo": (["algo.name=gspo"], ["gspo/seq_clip_frac", "clip_frac/high"]),
    "cispo": (["algo.name=cispo"], ["cispo/clip_frac"]),
    "reinforce_pp": (["algo.name=reinforce_pp"], ["adv/abs_mean"]),
    "entropy_control": (["algo.name=cispo", "algo.cov_mode=clip_cov", "algo.clip_cov_lb=0", "algo.top_entropy_frac=0.2",
                         "algo.entropy_target=10", "algo.entropy_coef=0.001", "algo.epochs=2"],
                        ["cov/frac_selected", "top_entropy/frac_kept", "entropy/coef"]),
}


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")  # one warm-started smoke model for the four runs


@pytest.mark.parametrize("name", list(RUNS))
def test_preset_trains_three_steps_and_logs_its_diagnostics(name, tmp_path, shared_cache, monkeypatch):
    from rlvr.train.loop import train

    monkeypatch.setenv("RLVR_CACHE", str(shared_cache))
    overrides, keys = RUNS[name]
    cfg = load_config(preset="smoke", overrides=[*overrides, f"output={tmp_path / 'run'}", "rollout.backend=scripted",
                                                 "train.steps=3", "train.checkpoint_every=0", "log.report=false",
                                                 "log.sinks=[]", "log.samples_every=0", "eval.problems=4", "threads=1"])
    train(cfg, log=lambda s: None)
    rows = [json.loads(x) for x in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    train_rows = [r for r in rows if r["kind"] == "train"]
    assert [r["step"] for r in train_rows] == [1, 2, 3]
    for r in train_rows:
        assert r["zero_var/observed"] < 1.0  # the scripted groups are mostly mixed: every step has a gradient
        assert 0 < r["grad_norm"] < 100 and math.isfinite(r["grad_norm"])
        for k in keys:
            assert k in r and math.isfinite(r[k]) and f"`{k}`" in METRICS_MD, k
    if name == "entropy_control":  # entropy ~4.7 nats <= target 10: no bonus at step 1, then 0.001 + 0.005 per step
        assert [r["entropy/coef"] for r in train_rows] == pytest.approx([0.0, 0.006, 0.011])
        assert all(0 < r["cov/frac_selected"] < 0.05 for r in train_rows)
        assert all(0.15 < r["top_entropy/frac_kept"] < 0.3 for r in train_rows)


def _mixed_batch(tokenizer) -> StepData:
    """Two groups of four three-token completions, rewards 1, 0, 0, 1 | 0, 1, 0, 0."""
    rewards = [1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0]
    prompts = [tokenizer(f"{i // 4}+1=?")["input_ids"] for i in range(8)]
    comps = [Completion(prompt_ids=ids, token_ids=[5 + i, 7, 9 + i % 3], sampler_logp=[-1.0] * 3, loss_mask=[True] * 3,
                        finish_reason="stop", text="") for i, ids in enumerate(prompts)]
    verdicts = [Verdict(r, "ok" if r else "wrong") for r in rewards]
    rw, samples = torch.tensor(rewards), [Sample(id=str(i // 4), prompt="") for i in range(8)]
    return StepData(samples, comps, verdicts, rw, torch.arange(8) // 4, rw)


def test_adaptive_coefficient_lives_in_the_optimizer_state(tiny_model, tiny_tokenizer):
    # target 0.1 nats is below the tiny model's entropy: the coefficient falls by delta each step to the floor
    cfg = load_config(preset="smoke", overrides=["algo.kl_coef=0", "algo.entropy_target=0.1", "algo.entropy_coef=0.012",
                                                 "algo.entropy_coef_delta=0.005", "algo.entropy_coef_min=0.001"])
    data = _mixed_batch(tiny_tokenizer)
    model = copy.deepcopy(tiny_model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    applied, coefs = [], []
    for _ in range(3):
        stats = upd.update_policy(upd.Learner(model, opt, pad_id=tiny_tokenizer.pad_token_id), data, cfg,
                                  torch.Generator().manual_seed(0))
        applied.append(stats["entropy_coef"])
        coefs.append(opt.param_groups[0]["rlvr_entropy_coef"])
        assert stats["rows_skipped"] == 0.0  # the entropy of every row is measured
    assert applied == [0.0, 0.0, 0.0]  # entropy above the target: no bonus
    assert coefs == pytest.approx([0.007, 0.002, 0.001])
    state = opt.state_dict()["param_groups"][0]
    assert state["rlvr_entropy_coef"] == pytest.approx(0.001) and state["rlvr_last_entropy"] > 0.1
    fresh = torch.optim.AdamW(copy.deepcopy(tiny_model).parameters(), lr=1e-4)
    fresh.load_state_dict(opt.state_dict())  # a resumed run continues from the saved coefficient
    assert fresh.param_groups[0]["rlvr_entropy_coef"] == pytest.approx(0.001)


def test_selections_never_skip_rows():
    adv = torch.tensor([0.0, 1.0])
    for extra in (["algo.top_entropy_frac=0.2"], ["algo.cov_mode=kl_cov"], ["algo.entropy_target=0.3"]):
        assert upd.rows_with_gradient(load_config(preset="smoke", overrides=["algo.kl_coef=0", *extra]), adv) is None
    assert upd.rows_with_gradient(load_config(preset="smoke", overrides=["algo.name=cispo"]), adv).tolist() == [
        False, True]


def test_cli_and_calculator_show_the_batch_normalised_baseline(capsys):
    from rlvr.cli import main

    assert main(["advantages", "--rewards", "1,0,0,0,1,1,0,0", "--group-size", "4", "--estimator", "reinforce_pp"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["advantages"] == [1.6036, -0.5345, -0.5345, -0.5345, 1.069, 1.069, -1.069, -1.069]
    page = calculator_html()
    for element_id in ("estimator", "batch-std", "preset-gspo", "preset-cispo", "preset-reinforce_pp"):
        assert f'id="{element_id}"' in page, element_id
    assert re.search(r'<option value="reinforce_pp">', page)


def test_calculator_math_matches_rlvr_advantages(tmp_path):
    """The page's compute() under node: REINFORCE++-baseline with the batch std of the two-group
    batch above gives the first group's numbers of `rlvr advantages`; RLOO and GRPO as in the docs."""
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    page = calculator_html()
    body = page[page.index("function compute(s) {"):page.index("function buildRows()")]
    script = tmp_path / "calc.js"
    state = "const state = {G: 4, correct: [true, false, false, false], lengths: [10, 10, 10, 10]};\n"
    script.write_text(state + body + """
const s = {G: 4, rc: 1, rw: 0, stdNorm: true, unbiased: false, eps: 1e-6, agg: "token_mean", maxLen: 64};
for (const [est, sB] of [["group", NaN], ["reinforce_pp", 0.467707], ["rloo", NaN]])
  console.log(compute({...s, estimator: est, batchStd: sB}).adv.map((x) => x.toFixed(4)).join(","));
""")
    out = subprocess.run([node, str(script)], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["1.7320,-0.5773,-0.5773,-0.5773", "1.6036,-0.5345,-0.5345,-0.5345", "1.0000,-0.3333,-0.3333,-0.3333"]
