"""Differential check of the ``code`` verifier against plain Python: every row of the real-task
corpus (``tests/data/code_corpus``) goes through the verifier (``VerifierPool("code")``) and
through a pristine run of the same tests in a fresh trusted interpreter, and every row where the
two disagree is listed with both reasons.

The pristine run (``pristine``): the candidate is imported as module ``solution`` (its own
``if __name__ == "__main__":`` block does not run), registered as ``solution`` and as
``__main__``; each assert-style test source then runs in that module's namespace, as if appended
to the program (HumanEval's ``check`` without a call gets ``check(entry_point)``; each ``call_tests`` case is
``assert ENTRY(*input) == output``). A source in
pytest style (``def test_*``, ``class Test*``, ``unittest.TestCase`` subclasses, and no top-level
call of them) runs under ``pytest`` in the same interpreter with ``from solution import *`` in
front. A pass needs every source to finish (a record written after the last one, exit status 0):
``os._exit``, a signal or a hang is a failure. A source that checks nothing (no reachable
``assert``/``raise``, no test collected) is ``error``. io tests run ``python solution.py`` with the
input on stdin and compare stdout line by line with trailing whitespace dropped (the verifier's
``lines``), exit status 0 required.

Figures printed: agreement on honest rows (canonical solutions and correct variants; the goal
is >= 99.5 %) and mutants the verifier paid that the pristine run fails (the goal is 0).

Usage: ``python bench/code_differential.py [--workers 2] [--limit N] [--ids a,b] [--out FILE]``;
``--rows`` instead checks the labels of the adversarial table ``tests/verifiers/code_blind_rows.py``
against pristine runs (no verifier). Not run in CI (the fast sample is
``tests/verifiers/test_code_corpus.py``); it refuses when the sandbox is unavailable.
"""

from __future__ import annotations

import argparse
import ast
import gzip
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "code_corpus"
PYTHON = sys.executable  # the trusted interpreter (with pytest)

# ============================================================================ pristine runs

_DRIVER = r'''
import os, sys, types, traceback
nonce, record, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, os.getcwd())
sys.argv = ["solution.py"]
mod = types.ModuleType("solution")
mod.__file__ = os.path.join(os.getcwd(), "solution.py")
sys.modules["solution"] = mod
def fail(why):
    with open(record, "w") as fh:
        fh.write("FAIL " + why[-2000:])
    sys.stdout.flush()
    os._exit(1)
try:
    exec(compile(open("solution.py", encoding="utf-8").read(), mod.__file__, "exec"), mod.__dict__)
except BaseException as exc:
    fail("the program raised " + "".join(traceback.format_exception_only(type(exc), exc)).strip())
mod.__dict__["__name__"] = "__main__"
sys.modules["__main__"] = mod
program_skips = []
for k in range(n):
    name = "test_src_%d.py" % k
    if os.path.exists("pytest_%d" % k):
        import pytest
        class Skips:  # a test skipped by the program (not by the dataset's own marks) did not run
            seen = []
            def pytest_runtest_logreport(self, report):
                where = str(report.longrepr[0]) if report.skipped and isinstance(report.longrepr, tuple) else ""
                if report.skipped and (report.when == "call" or where.endswith("solution.py")):
                    self.seen.append(report.nodeid)
        skips = Skips()
        rc = int(pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:randomly", name], plugins=[skips]))
        if rc == 5:
            fail("ERROR no test collected in source %d" % k)
        if rc != 0:
            fail("pytest exit %d in source %d" % (rc, k))
        if skips.seen:
            fail("pytest: the program skipped %s" % skips.seen)
        continue
    text = open(name, encoding="utf-8").read()
    if "unittest" in text and not program_skips:  # a skip the program raises is a test that did not run
        import unittest.result
        add_skip = unittest.result.TestResult.addSkip
        def record_skip(self, test, reason, add_skip=add_skip):
            method = getattr(test, getattr(test, "_testMethodName", ""), None)
            if not (getattr(method, "__unittest_skip__", False) or getattr(type(test), "__unittest_skip__", False)):
                program_skips.append(str(test))
            return add_skip(self, test, reason)
        unittest.result.TestResult.addSkip = record_skip
        program_skips.append(None)
    try:
        exec(compile(text, name, "exec"), mod.__dict__)
    except SystemExit as exc:
        frames = traceback.extract_tb(exc.__traceback__)
        if exc.code not in (0, None) or not any("unittest" in f.filename for f in frames):
            fail("SystemExit(%r) in source %d" % (exc.code, k))
    except BaseException as exc:
        fail("source %d: " % k + "".join(traceback.format_exception_only(type(exc), exc)).strip())
    if any(program_skips):
        fail("unittest: the program skipped %s" % [t for t in program_skips if t])
with open(record, "w") as fh:
    fh.write("PASS " + nonce)
sys.stdout.flush()
os._exit(0)
'''


def _sources(spec: Any) -> list[str]:
    if spec is None or _is_io(spec):
        return []
    return [spec] if isinstance(spec, str) else [str(s) for s in spec]


def _is_io(spec: Any) -> bool:
    return isinstance(spec, (list, tuple)) and bool(spec) and all(isinstance(x, dict) for x in spec)


def _io_cases(fields: dict[str, Any]) -> list[dict[str, str]]:
    return [c for key in ("io_tests", "hidden_tests") if _is_io(fields.get(key)) for c in fields[key]]


def _defined_tests(module: ast.Module) -> list[str]:
    """Top-level pytest/unittest test names: ``test_*`` functions, ``Test*`` classes, TestCase subclasses."""
    names = []
    for stmt in module.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name.startswith("test"):
            names.append(stmt.name)
        elif isinstance(stmt, ast.ClassDef) and (stmt.name.startswith("Test") or any(
                "TestCase" in ast.unparse(base) for base in stmt.bases)):
            names.append(stmt.name)
    return names


def _top_loads(module: ast.Module) -> set[str]:
    """Names used at module level outside function and class bodies (what actually runs)."""
    out: set[str] = set()
    for stmt in module.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out |= {n.id for d in stmt.decorator_list for n in ast.walk(d) if isinstance(n, ast.Name)}
            continue
        out |= {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)}
        out |= {n.attr for n in ast.walk(stmt) if isinstance(n, ast.Attribute)}
    return out


def is_pytest_style(source: str) -> bool:
    """Test functions or classes defined and never run by the source itself (pytest collects them)."""
    module = ast.parse(source)
    tests = _defined_tests(module)
    loads = _top_loads(module)
    return bool(tests) and not any(t in loads for t in tests) and "main" not in loads


def checks_nothing(source: str) -> bool:
    """No ``assert``/``raise`` (or call of an ``assert*`` helper, ``unittest.main()``, ``exit``) that
    can run: none at top level and none in a function the top level calls (transitively);
    pytest-style sources are left to pytest's collection."""
    module = ast.parse(source)
    if is_pytest_style(source):
        return False
    defs = {s.name: s for s in module.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    checks = (ast.Assert, ast.Raise)
    todo = [s for s in module.body if s not in defs.values()]
    seen: set[str] = set()
    while todo:
        node = todo.pop()
        for sub in ast.walk(node):
            if isinstance(sub, checks):
                return False
            if isinstance(sub, ast.Call):  # unittest.main(), sys.exit(), assert helpers (assert_allclose, assertEqual)
                name = sub.func.attr if isinstance(sub.func, ast.Attribute) else getattr(sub.func, "id", "")
                if name in ("main", "exit") or name.lower().startswith("assert"):
                    return False
            if isinstance(sub, ast.Name) and sub.id in defs and sub.id not in seen:
                seen.add(sub.id)
                todo.append(defs[sub.id])
    return True


def _with_check_call(source: str, entry_point: str | None) -> str:
    module = ast.parse(source)
    defines = any(isinstance(s, ast.FunctionDef) and s.name == "check" for s in module.body)
    if defines and "check" not in _top_loads(module):
        if entry_point:
            return source + f"\n\ncheck({entry_point})\n"
    return source


def pristine(code: str, fields: dict[str, Any], timeout_s: float = 10.0,
             case_timeout_s: float = 4.0) -> tuple[str, str]:
    """(verdict, reason) of plain Python on one program: ``pass``, ``fail``, ``timeout`` or ``error``."""
    entry = fields.get("entry_point")
    sources = [_with_check_call(s, entry) for key in ("tests", "hidden_tests") for s in _sources(fields.get(key))]
    for test in fields.get("call_tests") or []:  # entry_point(*input) == output, the input a list of arguments
        sources.append(f"assert {entry}({', '.join(map(repr, test['input']))}) == {test['output']!r}\n")
    cases = _io_cases(fields)
    if not sources and not cases:
        return "error", "no tests"
    try:
        if any(checks_nothing(s) for s in sources):
            return "error", "a test source checks nothing"
    except SyntaxError as exc:
        return "error", f"test source does not parse: {exc}"
    with tempfile.TemporaryDirectory(prefix="rlvr-pristine-") as tmp:
        Path(tmp, "solution.py").write_text(code, encoding="utf-8")
        for case in cases:
            verdict, why = _pristine_io(tmp, case, case_timeout_s)
            if verdict != "pass":
                return verdict, why
        if not sources:
            return "pass", ""
        for k, source in enumerate(sources):
            pytest_style = is_pytest_style(source)
            text = ("from solution import *\n" + source) if pytest_style else source
            Path(tmp, f"test_src_{k}.py").write_text(text, encoding="utf-8")
            if pytest_style:
                Path(tmp, f"pytest_{k}").write_text("", encoding="utf-8")
        nonce, record = secrets.token_hex(8), os.path.join(tmp, "record.txt")
        env = {"PATH": "/usr/bin:/bin", "HOME": tmp, "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
        try:
            proc = subprocess.run([PYTHON, "-c", _DRIVER, nonce, record, str(len(sources))], cwd=tmp, env=env,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  timeout=timeout_s)  # fmt: skip
        except subprocess.TimeoutExpired:
            return "timeout", f"no result after {timeout_s} s"
        text = Path(record).read_text(encoding="utf-8") if os.path.exists(record) else ""
        if proc.returncode == 0 and text == f"PASS {nonce}":
            return "pass", ""
        if text.startswith("FAIL ERROR"):
            return "error", text[5:]
        if text.startswith("FAIL "):
            tail = proc.stdout.decode("utf-8", "replace").strip().splitlines()[-3:]
            return "fail", text[5:] + (" | " + " / ".join(tail) if "pytest" in text else "")
        return "fail", f"exit status {proc.returncode} without finishing the tests"


def _norm(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def _pristine_io(tmp: str, case: dict[str, str], timeout_s: float) -> tuple[str, str]:
    try:
        proc = subprocess.run([PYTHON, "solution.py"], cwd=tmp, input=str(case["input"]).encode("utf-8"),
                              capture_output=True, timeout=timeout_s,
                              env={"PATH": "/usr/bin:/bin", "HOME": tmp, "LANG": "C.UTF-8"})  # fmt: skip
    except subprocess.TimeoutExpired:
        return "timeout", f"io case timed out after {timeout_s} s"
    got = proc.stdout.decode("utf-8", "replace")
    if _norm(got) != _norm(str(case["output"])):
        return "fail", f"wrong output {got[:60]!r}, expected {str(case['output'])[:60]!r}"
    if proc.returncode != 0:
        return "fail", f"exit status {proc.returncode}"
    return "pass", ""


# ============================================================================ the corpus


def load_corpus(root: Path = CORPUS) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """(tasks by id, rows): tasks hold the sample fields, rows a completion for one task."""
    with gzip.open(root / "tasks.jsonl.gz", "rt", encoding="utf-8") as fh:
        tasks = {t["task"]: t for t in map(json.loads, fh)}
    with gzip.open(root / "rows.jsonl.gz", "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh]
    return tasks, rows


def extract(completion: str) -> str | None:
    from rlvr.verifiers.code import extract_code

    return extract_code(completion)


def pristine_row(row: dict[str, Any], tasks: dict[str, dict[str, Any]]) -> tuple[str, str]:
    code = extract(row["completion"])
    if code is None:
        return "fail", "no code block"
    return pristine(code, tasks[row["task"]]["fields"])


def verify_rows(rows: list[dict[str, Any]], tasks: dict[str, dict[str, Any]], workers: int) -> list[Any]:
    from rlvr.types import Sample
    from rlvr.verifiers.code import own_timeout_s
    from rlvr.verifiers.pool import VerifierPool

    samples = [Sample(r["id"], "p", fields=dict(tasks[r["task"]]["fields"])) for r in rows]
    with VerifierPool("code", workers=workers, timeout_s=own_timeout_s() + 5.0, cache_size=0) as pool:
        return pool.map([r["completion"] for r in rows], samples)


def compare(rows: list[dict[str, Any]], tasks: dict[str, dict[str, Any]], workers: int = 2) -> dict[str, Any]:
    """Both sides on every row; the disagreements and the two headline figures."""
    start = time.monotonic()
    with ThreadPoolExecutor(workers) as ex:
        plain = list(ex.map(lambda r: pristine_row(r, tasks), rows))
    plain_s = time.monotonic() - start
    start = time.monotonic()
    verdicts = verify_rows(rows, tasks, workers)
    verify_s = time.monotonic() - start
    honest = [k for k, r in enumerate(rows) if r["kind"] != "mutant"]
    mutants = [k for k, r in enumerate(rows) if r["kind"] == "mutant"]
    disagree = []
    for row, (pv, why), v in zip(rows, plain, verdicts):
        paid = v.reward == 1.0 and v.status == "ok"
        if paid != (pv == "pass") or (pv == "error") != (v.status == "error"):
            disagree.append({"id": row["id"], "kind": row["kind"], "pristine": pv, "pristine_reason": why[:300],
                             "verifier": v.status, "reward": v.reward, "detail": v.detail[:300]})  # fmt: skip
    bad = {d["id"] for d in disagree}
    honest_agree = sum(rows[k]["id"] not in bad for k in honest)
    mutants_paid = [rows[k]["id"] for k in mutants if verdicts[k].reward == 1.0 and plain[k][0] != "pass"]
    label_drift = [rows[k]["id"] for k in range(len(rows)) if plain[k][0] != rows[k]["label"]]
    by_source: dict[str, dict[str, int]] = {}
    for row in rows:
        counts = by_source.setdefault(tasks[row["task"]]["source"], {"honest": 0, "honest_disagree": 0, "mutants": 0,
                                                                    "mutants_paid": 0})  # fmt: skip
        honest_row = row["kind"] != "mutant"
        counts["honest" if honest_row else "mutants"] += 1
        if honest_row and row["id"] in bad:
            counts["honest_disagree"] += 1
        if not honest_row and row["id"] in mutants_paid:
            counts["mutants_paid"] += 1
    return {
        "rows": len(rows), "honest": len(honest), "mutants": len(mutants),
        "honest_agreement": round(honest_agree / max(1, len(honest)), 4),
        "honest_disagreements": len(honest) - honest_agree,
        "mutants_paid_pristine_fails": len(mutants_paid),
        "mutant_disagreements": sum(d["kind"] == "mutant" for d in disagree),
        "by_source": by_source,
        "pristine_differs_from_stored_label": label_drift,
        "pristine_s": round(plain_s, 1), "verify_s": round(verify_s, 1),
        "disagreements": disagree,
    }  # fmt: skip


def check_table_rows(only: str = "") -> int:
    """The blind table's labels against pristine runs: controls pass, attacks fail (or error)."""
    sys.path.insert(0, str(ROOT / "tests" / "verifiers"))
    from code_blind_rows import ROWS, row_id

    rows = [r for r in ROWS if only in row_id(r)]
    bad = 0
    for row in rows:
        verdict, why = pristine(row.program, dict(row.fields))
        want = ("pass",) if row.expect else (("error",) if row.status == "error" else ("fail", "timeout"))
        if verdict not in want:
            bad += 1
            print(f"LABEL? {row.family}: {row.name}: pristine {verdict} ({why[:200]})")
    print(f"{len(rows)} rows, {bad} whose label a pristine run does not give")
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0, help="only the first N rows")
    parser.add_argument("--ids", default="", help="comma-separated row ids (with --rows: a part of the row ids)")
    parser.add_argument("--out", default="", help="write the full report (JSON) here")
    parser.add_argument("--rows", action="store_true", help="check the blind table's labels instead")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the corpus directory")
    parser.add_argument("--commit", default="", help="the commit measured, when PYTHONPATH points at its src/")
    args = parser.parse_args()
    if args.rows:
        return check_table_rows(args.ids)
    from rlvr import sandbox

    reason = sandbox.probe()
    if reason is not None:
        print(f"sandbox unavailable: {reason}", file=sys.stderr)
        return 2
    tasks, rows = load_corpus(args.corpus)
    if args.ids:
        wanted = set(args.ids.split(","))
        rows = [r for r in rows if r["id"] in wanted]
    if args.limit:
        rows = rows[: args.limit]
    import rlvr

    src = Path(rlvr.__file__).resolve().parent.parent
    git = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    commit = args.commit or git.stdout.strip()
    status = ["git", "-C", str(ROOT), "status", "--porcelain", "src/rlvr/verifiers", "src/rlvr/sandbox.py"]
    dirty = subprocess.run(status, capture_output=True, text=True).stdout.strip()
    report = {"commit": commit, "src": str(src), "src_dirty": bool(dirty) and src == ROOT / "src",
              "loadavg_before": os.getloadavg(), **compare(rows, tasks, args.workers), "loadavg_after": os.getloadavg()}
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1), encoding="utf-8")
    for d in report["disagreements"]:
        print(f"DISAGREE {d['id']} [{d['kind']}]: pristine {d['pristine']} ({d['pristine_reason'][:120]}) | "
              f"verifier {d['verifier']} {d['reward']} ({d['detail'][:160]})")  # fmt: skip
    summary = {k: v for k, v in report.items() if k != "disagreements"}
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
