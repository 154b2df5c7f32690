"""Check the labels of ``tests/verifiers/code_blind2_rows.py`` with plain Python and pytest.

Each row runs in a fresh temp dir with no sandbox and no verifier: the program is written to
``solution.py``; each test source to ``test_src<k>.py``, with ``from solution import *`` in front
unless the source imports from ``solution`` itself. A source in pytest style (a top-level
``def test_*``, ``class Test*`` or ``unittest.TestCase`` subclass, and no ``unittest.main(``)
runs under ``python -m pytest``; any other source runs as ``python test_src<k>.py``. A row
passes when every source exits 0 (pytest: at least one test collected, none failed). The row's
label must be that result: ``expect`` 1 for a pass, 0 for a failure.

Usage::

    python bench/code_plain_labels.py [--python PYTHON] [--workers 2] [--only SUBSTRING]

Prints one line per row that disagrees with its label and a summary; exits 1 when any does.
Rows that import numpy are reported as skipped when the interpreter has no numpy.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "verifiers"))

PYTEST_STYLE = re.compile(r"^(def test_\w*\(|class Test\w*\b|class \w+\(.*TestCase\)\s*:)", re.M)
OWN_IMPORT = re.compile(r"^\s*(from solution import|import solution\b)", re.M)


def is_pytest_style(source: str) -> bool:
    return bool(PYTEST_STYLE.search(source)) and "unittest.main(" not in source


def run_source(python: str, tmp: Path, k: int, source: str, timeout_s: float) -> tuple[bool, str]:
    """Run one test source against ``solution.py`` in ``tmp``: (passed, last lines of output)."""
    text = source if OWN_IMPORT.search(source) else "from solution import *\n" + source
    name = f"test_src{k}.py"
    (tmp / name).write_text(text, encoding="utf-8")
    if is_pytest_style(source):
        cmd = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp), "-c", os.devnull, name]
    else:
        cmd = [python, name]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTEST_ADDOPTS")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    try:
        proc = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return False, f"timeout after {timeout_s} s"
    out = (proc.stdout + proc.stderr).strip().splitlines()
    return proc.returncode == 0, " | ".join(out[-3:])


def plain_result(row, python: str, timeout_s: float = 30.0) -> tuple[bool, str]:
    """Whether plain Python passes the row's program on every test source of the row."""
    sources = row.fields["tests"]
    sources = [sources] if isinstance(sources, str) else list(sources)
    sources += list(row.fields.get("hidden_tests") or [])
    with tempfile.TemporaryDirectory(prefix="plain-") as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "solution.py").write_text(row.program, encoding="utf-8")
        for k, source in enumerate(sources):
            passed, why = run_source(python, tmp, k, source, timeout_s)
            if not passed:
                return False, why
    return True, ""


def has_numpy(python: str) -> bool:
    return subprocess.run([python, "-c", "import numpy"], capture_output=True).returncode == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="the interpreter (with pytest) to run rows with")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default="", help="only rows whose id contains this")
    args = parser.parse_args()
    from code_blind2_rows import ROWS, row_id

    numpy_ok = has_numpy(args.python)
    rows = [r for r in ROWS if args.only in row_id(r)]
    skipped = [r for r in rows if "import numpy" in r.program + str(r.fields) and not numpy_ok]
    rows = [r for r in rows if r not in skipped]
    with ThreadPoolExecutor(max_workers=args.workers) as pool:
        results = list(pool.map(lambda r: plain_result(r, args.python), rows))
    bad = 0
    for row, (passed, why) in zip(rows, results):
        if int(passed) != row.expect:
            bad += 1
            print(f"DISAGREES {row_id(row)}: label {row.expect}, plain {'pass' if passed else 'fail'}: {why}")
    attacks = sum(1 for r in rows if not r.expect)
    print(f"{len(rows)} rows checked ({attacks} attacks, {len(rows) - attacks} honest) with {args.python}; "
          f"{bad} disagree with their label; {len(skipped)} skipped (no numpy)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
