#!/usr/bin/env bash
# The checks only a CUDA machine can make (tests/gpu), in one command that ends within 10 minutes:
#   - FSDP2 on CUDA against the unsharded model (one GPU: sharded over a group of one; two or more
#     GPUs: two nccl ranks against one process), with the largest differences printed;
#   - nccl data parallelism and FSDP2 through the trainer (two GPUs or more);
#   - the vllm backend against a real engine, when vllm is importable (else those tests skip, said here).
# Without a CUDA GPU it says so and exits 0. Python: $PYTHON, else .venv/bin/python, else python3.
#   bash scripts/gpu_check.sh              # everything tests/gpu holds
#   bash scripts/gpu_check.sh -k fsdp2     # extra arguments go to pytest
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-}"
if [ -z "$PY" ]; then
  if [ -x .venv/bin/python ]; then PY=.venv/bin/python; else PY=python3; fi
fi
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}"
if ! "$PY" -c "import torch" 2>/dev/null; then
  if ! nvidia-smi -L 2>/dev/null | grep -q GPU; then
    echo "gpu_check: no CUDA GPU (nvidia-smi finds none) and $PY has no torch: skipped"
    exit 0
  fi
  echo "gpu_check: $PY cannot import torch; set PYTHON to an interpreter that has it (bash scripts/setup.sh makes .venv)" >&2
  exit 1
fi
info=$("$PY" -c "import torch; print(torch.__version__, torch.cuda.is_available(), torch.cuda.device_count())")
read -r torch_version has_cuda n_gpus <<< "$info"
if [ "$has_cuda" != "True" ]; then
  echo "gpu_check: no CUDA GPU visible (torch $torch_version): skipped"
  exit 0
fi
echo "gpu_check: torch $torch_version, $n_gpus GPU(s):"
"$PY" -c "import torch; [print('  ', i, torch.cuda.get_device_name(i)) for i in range(torch.cuda.device_count())]"
if vllm_version=$("$PY" -c "import vllm; print(vllm.__version__)" 2>/dev/null); then
  echo "gpu_check: vllm $vllm_version: the vLLM tests run"
else
  echo "gpu_check: vllm is not importable with $PY: the vLLM tests skip (pip install 'rlvr[vllm]' to run them)"
fi
[ "$n_gpus" -lt 2 ] && echo "gpu_check: one GPU: the two-GPU tests (nccl ranks, FSDP2 through the trainer) skip"
# -s: the FSDP2 tests print the differences they measured; -rs: every skip with its reason
OMP_NUM_THREADS=1 timeout 570 "$PY" -m pytest -q -s -rs -p no:cacheprovider tests/gpu --durations=10 "$@"
rc=$?
[ $rc -eq 124 ] && echo "gpu_check: stopped after 570 s" >&2
exit $rc
