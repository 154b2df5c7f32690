"""FSDP2 on CUDA: the CPU exactness check (tests/scale/test_fsdp2.py) with nccl. Skipped without CUDA.

One GPU: the model is sharded over a process group of one (CUDA streams and events of the
all-gathers, gathered generation, sum-only gradient reduction, DTensor clipping, full state
dicts), against the same model unsharded. Two GPUs or more: two nccl ranks against one process.
Each test prints the largest differences it measured (``pytest -s`` or scripts/gpu_check.sh).

Tolerance: 1e-5 of the largest entry compared. On CPU the check holds to 1e-6, but here each
rank's batch has half the rows of the one-process batch, so cuBLAS may choose other kernels
(split-K, another accumulation order) and the embedding's backward adds with atomics; both
move fp32 results by a few 1e-7 relative. A wrong reduction is off by about half.
"""

from __future__ import annotations

import importlib.util
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
needs_two = pytest.mark.skipif(not torch.cuda.is_available() or torch.cuda.device_count() < 2, reason="needs 2 GPUs")
WORKER = Path(__file__).resolve().parents[1] / "scale" / "dp_worker.py"
REL_TOL = 1e-5


@pytest.fixture()
def dp_worker(monkeypatch):
    monkeypatch.setenv("RLVR_DP_DEVICE", "cuda")
    spec = importlib.util.spec_from_file_location("dp_worker_gpu", WORKER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(out: Path, nproc: int) -> list[dict]:
    env = dict(os.environ, OMP_NUM_THREADS="1", RLVR_DP_DEVICE="cuda")
    proc = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node",
                           str(nproc), str(WORKER), str(out), "fsdp2"], capture_output=True, text=True, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [torch.load(out / f"rank{r}.pt") for r in range(nproc)]


def _rel(a: torch.Tensor, b: torch.Tensor) -> float:
    return float((a - b).abs().max()) / max(float(b.abs().max()), 1e-12)


def _check(dp_worker, ranks: list[dict]) -> dict:
    """The largest relative differences from one unsharded process on this GPU; asserts each."""
    from rlvr.train.distributed import DistContext

    worst = {"loss": 0.0, "grad": 0.0, "sliced_grad": 0.0, "export": 0.0}
    for case in dp_worker.CASES:
        for layout in dp_worker.LAYOUTS:
            grad_1, loss_1 = dp_worker.run_case(DistContext(), case, layout, "fsdp2")
            for r in ranks:
                grad_2, loss_2 = r["results"][(case, layout)]
                worst["loss"] = max(worst["loss"], abs(loss_2 - loss_1) / max(abs(loss_1), 1e-12))
                worst["grad"] = max(worst["grad"], _rel(grad_2, grad_1))
    _, sliced_grad_1 = dp_worker.sliced_case(DistContext(), "fsdp2")
    weights_1, _ = dp_worker.export_case(DistContext(), "fsdp2")
    for r in ranks:
        worst["sliced_grad"] = max(worst["sliced_grad"], _rel(r["sliced"][1], sliced_grad_1))
        worst["export"] = max(worst["export"], max(_rel(r["export"][0][k], weights_1[k]) for k in weights_1))
    print(f"FSDP2 on {torch.cuda.get_device_name(0)}, {len(ranks)} rank(s), largest relative differences: {worst}")
    assert all(v <= REL_TOL for v in worst.values()), worst
    return worst


def test_fsdp2_one_gpu_sharded_over_one_rank_matches_unsharded(tmp_path, dp_worker):
    _check(dp_worker, _run(tmp_path, 1))


@needs_two
def test_fsdp2_two_gpus_nccl_match_one_process(tmp_path, dp_worker):
    _check(dp_worker, _run(tmp_path, 2))
