"""Every verdict of the code verifier's tables and corpus, written to one JSON file, so that a
change to the runtime that must not move a verdict (a refactor) can be shown not to.

Two parts, both recorded as ``{key: [reward, status, detail]}``:
- ``corpus``: every row of ``tests/data/code_corpus`` through ``verify_code`` (the corpus's
  own options, as ``bench/code_differential.py`` runs it);
- ``tests``: every ``verify_code`` call made while pytest runs ``tests/verifiers/test_code_*.py``
  (the attack, blind and red-team tables, the judge and verifier tests), keyed by the test's
  node id and the call's index in it, plus each test's outcome.

A detail may differ without the verdict moving: rows with random inputs (HumanEval/38, /50)
print other values each run, and the runtime's file and line appear in some failure messages.

Usage: ``python bench/code_snapshot.py OUT.json [--workers 2] [--skip-corpus]`` and
``python bench/code_snapshot.py --diff A.json B.json`` (exit 1 when a verdict differs).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

_PLUGIN = r'''
import json, os
import pytest
from rlvr.verifiers import code as cv

_OUT = os.environ["RLVR_SNAPSHOT_OUT"]
_real = cv.verify_code
_seen = {}
_current = ["?"]

def _recording(*args, **kwargs):
    verdict = _real(*args, **kwargs)
    k = _seen.setdefault(_current[0], 0)
    _seen[_current[0]] = k + 1
    with open(_OUT, "a") as fh:
        fh.write(json.dumps({"key": "%s#%d" % (_current[0], k),
                             "v": [verdict.reward, verdict.status, verdict.detail]}) + "\n")
    return verdict

cv.verify_code = _recording

@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    _current[0] = item.nodeid

def pytest_runtest_logreport(report):
    if report.when == "call" or report.outcome != "passed":
        with open(_OUT, "a") as fh:
            fh.write(json.dumps({"key": report.nodeid + "@" + report.when, "v": [report.outcome]}) + "\n")
'''


def corpus_verdicts(workers: int) -> dict[str, list]:
    from code_differential import CORPUS, load_corpus

    from rlvr.types import Sample
    from rlvr.verifiers import code as cv

    tasks, rows = load_corpus(CORPUS)

    def one(row):
        v = cv.verify_code(row["completion"], Sample(row["id"], "p", fields=dict(tasks[row["task"]]["fields"])))
        return row["id"], [v.reward, v.status, v.detail]

    out: dict[str, list] = {}
    start = time.monotonic()
    with ThreadPoolExecutor(workers) as ex:
        for k, (rid, v) in enumerate(ex.map(one, rows), 1):
            out[rid] = v
            if k % 500 == 0:
                print(f"corpus: {k}/{len(rows)} rows, {time.monotonic() - start:.0f} s", file=sys.stderr)
    return out


def test_verdicts() -> dict[str, list]:
    with tempfile.TemporaryDirectory() as tmp:
        plugin = Path(tmp, "rlvr_snapshot_plugin.py")
        plugin.write_text(_PLUGIN)
        out = Path(tmp, "calls.jsonl")
        env = dict(os.environ, RLVR_SNAPSHOT_OUT=str(out),
                   PYTHONPATH=os.pathsep.join([tmp, str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))
        files = sorted(str(p) for p in (ROOT / "tests" / "verifiers").glob("test_code_*.py"))
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "rlvr_snapshot_plugin", "-p", "no:cacheprovider",
                        "-p", "no:randomly", *files], cwd=ROOT, env=env, check=False)
        calls: dict[str, list] = {}
        for line in out.read_text().splitlines():
            rec = json.loads(line)
            calls[rec["key"]] = rec["v"]
        return calls


def diff(a_path: str, b_path: str) -> int:
    a, b = json.loads(Path(a_path).read_text()), json.loads(Path(b_path).read_text())
    bad = 0
    for part in sorted(set(a) | set(b)):
        pa, pb = a.get(part, {}), b.get(part, {})
        keys = sorted(set(pa) | set(pb))
        moved = [k for k in keys if pa.get(k) != pb.get(k)]
        decided = [k for k in moved if (pa.get(k) or [None])[:2] != (pb.get(k) or [None])[:2]]
        print(f"{part}: {len(keys)} verdicts, {len(moved)} differ, {len(decided)} of them in reward/status "
              "(the others in detail only)")
        for k in moved[:40]:
            print(f"  {k}\n    before: {pa.get(k)}\n    after:  {pb.get(k)}")
        bad += len(moved)
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", nargs="?")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--skip-corpus", action="store_true")
    ap.add_argument("--diff", nargs=2, metavar=("BEFORE", "AFTER"))
    args = ap.parse_args()
    if args.diff:
        return diff(*args.diff)
    if not args.out:
        ap.error("name the output file (or use --diff A B)")
    snap = {"tests": test_verdicts()}
    if not args.skip_corpus:
        snap["corpus"] = corpus_verdicts(args.workers)
    Path(args.out).write_text(json.dumps(snap, indent=0, sort_keys=True))
    print(f"wrote {args.out}: " + ", ".join(f"{k} {len(v)}" for k, v in snap.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
