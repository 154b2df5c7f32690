#!/usr/bin/env bash
# Create bench/.venv-trl: a separate environment holding TRL for the side-by-side benchmark
# (bench/trl_side_by_side.py). Kept apart from the project's .venv so TRL's pins never touch
# rlvr's dependencies. torch 2.13.0 first (the CPU wheel on this machine; asked for by exact
# version so pip never reaches for a multi-GB CUDA build), then trl pinned to a known version.
# Idempotent: does nothing when the venv already imports trl at the pinned version.
#   bash bench/setup_trl_env.sh
set -euo pipefail
cd "$(dirname "$0")"
TRL_VERSION="${TRL_VERSION:-1.16.0}"
PY="${PYTHON:-python3}"
VENV=.venv-trl
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import trl, math_verify, sys; sys.exit(trl.__version__ != '$TRL_VERSION')" 2>/dev/null; then
  exit 0
fi
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check torch==2.13.0
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "trl==$TRL_VERSION" psutil
# the TRL side grades with rlvr's strict math verifier, whose slow path is math-verify (rlvr's own pin)
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "math-verify==0.9.0"
"$VENV/bin/python" -c "import torch, transformers, trl; print('bench/.venv-trl:', 'torch', torch.__version__, 'transformers', transformers.__version__, 'trl', trl.__version__)"
