#!/usr/bin/env bash
# Run the test suite in .venv (setting it up with the test extras first, if needed).
# Tests that need bubblewrap, coqc, chromium or a GPU skip with a reason when those are absent;
# .ci/run installs the Debian packages so that CI runs them all.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
# lint first: it takes seconds and names the file and line of what it finds
.venv/bin/ruff check src tests bench
exec .venv/bin/python -m pytest -q "$@"
