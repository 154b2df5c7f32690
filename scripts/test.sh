#!/usr/bin/env bash
# Run the test suite in .venv (setting it up with the test extras first, if needed).
# Tests that need bubblewrap, coqc, chromium or a GPU skip with a reason when those are absent;
# .ci/run installs the Debian packages so that CI runs them all.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test,vllm
# lint first: it takes seconds and names the file and line of what it finds
.venv/bin/ruff check src tests bench
# Two pytest workers (pytest-xdist), each given whole files (module fixtures are built once),
# with one OpenMP thread each so that they do not oversubscribe two cores; a test that asks for
# more threads still gets them. RLVR_TEST_WORKERS=0 runs everything in this one process.
workers="${RLVR_TEST_WORKERS:-2}"
if [ "$workers" != 0 ]; then
  export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
  exec .venv/bin/python -m pytest -q -n "$workers" --dist loadfile "$@"
fi
exec .venv/bin/python -m pytest -q "$@"
