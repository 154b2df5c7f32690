"""FSDP2 (``train.dp=fsdp2``) on CPU with gloo: exactness against one process, weight export,
checkpoints, and the trainer end to end under torchrun.

Tolerance: 1e-6 times the size of what is compared (absolute for losses and for gradients,
whose largest entries are 6e-4 to 0.14 in the update cases). Two ranks and one process sum
the same fp32 terms in a different order (per-rank partial sums, then a reduce-scatter,
against one accumulation; the full head against slices of it), which moves a result by a
few units in the last place of fp32 (eps 1.2e-7): measured 2.2e-8 on the update cases and
3.1e-7 of the largest entry on the sliced scoring (docs/scaling.md). A reduction that
averages instead of summing, or loses a shard, is off by about half the gradient (>= 3e-4).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from rlvr.config import load_config
from rlvr.errors import ConfigError
from rlvr.train.distributed import DistContext, for_generation, full_params, validate

from . import dp_worker

HERE = Path(__file__).resolve().parent
TORCHRUN = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2"]
TOL = 1e-6


def _rel(a: torch.Tensor, b: torch.Tensor) -> float:
    """The largest difference, relative to the largest entry of ``b``."""
    return float((a - b).abs().max()) / float(b.abs().max())


def _max_diff(a: dict, b: dict) -> float:
    assert sorted(a) == sorted(b)
    return max(float((a[k] - b[k]).abs().max()) for k in a)


@pytest.fixture(scope="module")
def two_ranks(tmp_path_factory):
    """dp_worker.py under torchrun with 2 gloo ranks, train.dp=fsdp2: what each rank saved."""
    out = tmp_path_factory.mktemp("fsdp2")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    proc = subprocess.run(TORCHRUN + [str(HERE / "dp_worker.py"), str(out), "fsdp2"], capture_output=True,
                          text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out, [torch.load(out / f"rank{r}.pt") for r in (0, 1)]


def test_fsdp2_two_gloo_ranks_match_one_process(two_ranks):
    """Loss and gathered gradient of 2 FSDP2 ranks == 1 unsharded process, for three loss
    aggregations, micro-batches of 2 rows and a layout where rank 1's rows carry no gradient;
    each rank first generated a different number of tokens with the gathered weights."""
    _, ranks = two_ranks
    assert [r["world"] for r in ranks] == [2, 2]
    torch.set_num_threads(1)
    worst = [0.0, 0.0]
    for case in dp_worker.CASES:
        for layout in dp_worker.LAYOUTS:
            grad_1, loss_1 = dp_worker.run_case(DistContext(), case, layout, "fsdp2")
            assert grad_1.abs().max() > 1e-4, (case, layout)  # far above the tolerance
            for r in ranks:
                grad_2, loss_2 = r["results"][(case, layout)]
                assert grad_2.shape == grad_1.shape  # whole gradients, not one rank's shard
                assert abs(loss_2 - loss_1) <= TOL, (case, layout, loss_1, loss_2)
                assert float((grad_2 - grad_1).abs().max()) <= TOL, (case, layout)
                worst = [max(worst[0], abs(loss_2 - loss_1)), max(worst[1], float((grad_2 - grad_1).abs().max()))]
    print(f"\nFSDP2, 2 gloo ranks vs 1 process: max |loss diff| {worst[0]:.2e}, max |gradient diff| {worst[1]:.2e}")


def test_fsdp2_scoring_where_one_process_takes_the_sliced_path(two_ranks):
    """``response_logp_entropy`` with ``max_logits=1`` (the sliced path a large vocabulary or bf16
    selects; under FSDP2 it reads the head's shard, so the sharded model takes its own forward):
    each rank's log-probabilities and the gathered gradient equal one process's."""
    from rlvr.train.forward import _plain_head

    _, ranks = two_ranks
    torch.set_num_threads(1)
    logp_1, grad_1 = dp_worker.sliced_case(DistContext(), "fsdp2")
    assert _plain_head(dp_worker.build(DistContext(), "fsdp2")[0]) is not None  # one process: sliced
    half = logp_1.shape[0] // 2
    worst = [0.0, 0.0]
    for rank, r in enumerate(ranks):
        logp_2, grad_2 = r["sliced"]
        R = logp_2.shape[1]  # a rank's batch is as wide as its own longest response
        ref = logp_1[rank * half:(rank + 1) * half, :R]
        assert float((logp_2 - ref).abs().max()) <= TOL * float(ref.abs().max())  # |logp| up to ~5
        assert float((grad_2 - grad_1).abs().max()) <= TOL * float(grad_1.abs().max())  # |gradient| up to ~9
        worst = [max(worst[0], _rel(logp_2, ref)), max(worst[1], _rel(grad_2, grad_1))]
    print(f"\nFSDP2 scoring vs the sliced path: max relative logp diff {worst[0]:.2e}, gradient {worst[1]:.2e}")


def test_fsdp2_export_and_checkpoint_gather_the_one_process_weights(two_ranks):
    """After an SGD-with-momentum step: the weight push's (name, full tensor) pairs on every
    rank, rank 0's full optimizer state and the checkpoint rank 0 wrote all equal one process's."""
    from transformers import AutoModelForCausalLM

    out, ranks = two_ranks
    torch.set_num_threads(1)
    weights_1, momentum_1 = dp_worker.export_case(DistContext(), "fsdp2")
    base, _ = dp_worker.build(DistContext(), "fsdp2")
    assert _max_diff(weights_1, base.state_dict()) > 1e-3  # the step moved the weights
    for r in ranks:
        weights_2, _ = r["export"]
        assert _max_diff(weights_2, weights_1) <= TOL
    assert _max_diff(ranks[0]["export"][1], momentum_1) <= TOL
    assert ranks[1]["export"][1] == {}  # the full optimizer state is gathered to rank 0 only
    saved = AutoModelForCausalLM.from_pretrained(out / "export").state_dict()
    assert _max_diff(saved, weights_1) <= TOL
    print(f"\nFSDP2 export vs 1 process: weights {max(_max_diff(r['export'][0], weights_1) for r in ranks):.2e}, "
          f"momentum {_max_diff(ranks[0]['export'][1], momentum_1):.2e}, checkpoint {_max_diff(saved, weights_1):.2e}")


@pytest.mark.slow  # two torchrun launches (about 40 s each on a quiet 2-core machine)
def test_fsdp2_torchrun_trains_checkpoints_and_resumes(tmp_path, cli_env):
    out = tmp_path / "run"
    base = TORCHRUN + ["-m", "rlvr.cli", "train", "--preset", "smoke", "--output", str(out), "train.dp=fsdp2",
                       "log.report=false"]
    proc = subprocess.run(base + ["train.steps=2"], capture_output=True, text=True, env=cli_env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    proc = subprocess.run(base + ["--resume", "train.steps=3"], capture_output=True, text=True, env=cli_env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "resume: continuing from step_2" in proc.stdout + proc.stderr
    rows = [json.loads(x) for x in (out / "metrics.jsonl").read_text().splitlines()]
    assert [(r["kind"], r["step"]) for r in rows] == [("eval", 0), ("train", 1), ("train", 2), ("eval", 2),
                                                      ("train", 3), ("eval", 3)]
    summary = json.loads((out / "summary.json").read_text())
    from transformers import AutoModelForCausalLM

    from rlvr.train.checkpoint import load_trainer_state

    state = load_trainer_state(Path(summary["checkpoint"]))
    assert state["state"]["world"] == 2 and state["state"]["step"] == 3
    model = AutoModelForCausalLM.from_pretrained(summary["checkpoint"])  # an ordinary HF checkpoint
    names = {n for n, _ in model.named_parameters()}
    assert set(state["optimizer"]["state"]) <= names and len(state["optimizer"]["state"]) == len(names)


@pytest.mark.parametrize("overrides, message", [
    (["train.dp=fsdp2", "model.lora_r=4"], "does not shard LoRA"),
    (["train.dp=fsdp2", "algo.kl_coef=0.01", "algo.ref_update_every=10"], "ref_update_every"),
])
def test_fsdp2_refuses_what_it_cannot_shard(overrides, message):
    with pytest.raises(ConfigError, match=message):
        validate(load_config(preset="smoke", overrides=overrides), 2)


def test_fsdp2_is_accepted_on_cpu_with_the_hf_backend():
    validate(load_config(preset="smoke", overrides=["train.dp=fsdp2", "model.device=cpu"]), 2)


def test_without_fsdp2_generation_is_left_alone():
    model = torch.nn.Linear(2, 2)
    rollout = object()
    assert for_generation(rollout, model, "hf") is rollout
    with full_params(model) as m:
        assert m is model
    with full_params(None):
        pass


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the skip on a machine without CUDA")
def test_gpu_check_script_skips_cleanly_without_a_gpu():
    script = HERE.parents[1] / "scripts" / "gpu_check.sh"
    proc = subprocess.run(["bash", str(script)], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHON=sys.executable))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "no CUDA GPU visible" in proc.stdout and "skipped" in proc.stdout
