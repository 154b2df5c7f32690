"""Code verifier: run the completion's last fenced Python block against a sample's tests, sandboxed.

Sample fields (all optional, at least one test needed):
- ``tests``: Python source run against the candidate (a string, or a list of strings: one
  test each). In a string, each top-level statement that contains an ``assert`` (and is not a
  ``def``/``class``) is one test; other statements are set-up; a source with no such
  statement is one test. HumanEval style works as is: ``def check(candidate): ...`` followed
  by ``check(f)``; a source that defines ``check`` without calling it is called with the
  sample's ``entry_point`` (and is a bad sample without one). Every statement must finish,
  set-up included (a hang is status ``timeout``); a source that checks nothing is a bad sample.
- ``io_tests``: ``[{"input": str, "output": str}, ...]``: the program runs as ``__main__``
  with that stdin; its stdout is compared, after whitespace normalisation, here.
- ``hidden_tests``: same forms (a string / list of strings, or a list of io dicts); never
  shown in the prompt; they count toward the reward and are reported apart.
- ``entry_point``: the function HumanEval's ``check`` receives (a name, or a method such as
  ``Solution().twoSum``); also the one name the tests may take from the candidate although it
  shadows a builtin, and never the builtin when the program lacks it.
- ``call_tests``: ``[{"input": [args...], "output": value}, ...]``: ``entry_point(*args) == output``.

pytest-style tests (``def test_*``, ``class Test*``) are collected and run by pytest, and
``unittest.TestCase`` classes by unittest, when the source does not run them itself; the
tests may ``import solution`` / ``from solution import f`` (docs/sandbox.md, "Test styles").

Reward 1 only when every test (visible and hidden) passes, else 0 (``partial_credit=True``:
the fraction passed; a failed set-up statement gives 0 either way). ``Verdict.info`` has
``pass_rate``, ``visible_pass_rate`` and ``hidden_pass_rate`` (when there are hidden tests;
"every visible test passes, a hidden one fails" is the signature of hard-coded answers),
``n_tests``, ``sandboxed``.

How a pass is decided without trusting the candidate (the runtime is
``rlvr.verifiers.code_judge``; the threat model and its limits are in ``docs/sandbox.md``):
no test code ever runs in the candidate's interpreter. One sandbox start per sample; the
candidate runs in its own process and serves its top-level names; the tests run in a
separate judge process with pristine builtins and modules, calling stubs that pass values as
plain data; expected values never leave the judge, which holds nothing the candidate can
reach (not dumpable, its record pipe and test payload closed in every other process, a
seccomp filter against ptrace and friends). io outputs are compared here and never enter the
sandbox. Exit status, stdout and stderr are never read as results.
"""

from __future__ import annotations

import ast
import base64
import builtins
import functools
import io
import json
import marshal
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from rlvr import sandbox
from rlvr.types import Sample, Verdict
from rlvr.verifiers import code_judge

# An opening fence at a line start (up to 3 spaces, Markdown's rule) and its closing fence on
# a line of its own: ``` inside a string on a code line neither opens nor closes a block.
_FENCE = re.compile(r"^[ ]{0,3}```[ \t]*([A-Za-z0-9_+-]*)[^\n`]*\n(.*?)^[ ]{0,3}```[ \t]*$", re.DOTALL | re.MULTILINE)
_PY_LANGS = ("", "python", "py", "python3")
START_MARGIN_S = 5.0  # sandbox start, runtime load and the host's own work, on top of timeout_s


@dataclass(frozen=True)
class CodeOptions:
    """Options of ``verify_code`` (passed as keyword arguments)."""

    timeout_s: float = 10.0  # wall limit of the whole sandbox run (all of a sample's tests)
    case_timeout_s: float = 4.0  # wall limit of each io test inside the sandbox
    memory_mb: int = 1024  # memory of the whole run (see rlvr.sandbox: a cgroup, else split per process)
    max_processes: int = 16  # processes and threads in the sandbox (bwrap, judge and candidate included)
    max_output_bytes: int = 4 << 20  # stdout of one io run; more fails the test
    partial_credit: bool = False  # reward = fraction passed instead of all-or-nothing
    allow_unsandboxed: bool = False  # without bwrap: run with rlimits only (loud warning)
    io_compare: str = "lines"  # "lines" (rstrip lines, drop blank ends), "tokens", "exact"
    python: str = "/usr/bin/python3"  # interpreter inside the sandbox (must live under /usr)


def own_timeout_s(opts: dict[str, Any] | None = None) -> float:
    """The longest one verification takes by its own limits (for callers' backstop timeouts)."""
    return _options(dict(opts or {})).timeout_s + START_MARGIN_S


def _options(opts: dict[str, Any]) -> CodeOptions:
    valid = {f.name for f in fields(CodeOptions)}
    unknown = sorted(set(opts) - valid)
    if unknown:
        raise TypeError(f"verify_code: unknown option(s) {unknown}; valid: {sorted(valid)}")
    options = CodeOptions(**opts)
    if options.io_compare not in _NORMALISERS:
        raise ValueError(f"io_compare={options.io_compare!r}; valid: {sorted(_NORMALISERS)}")
    return options


# ============================================================================ extraction


def extract_code(completion: str) -> str | None:
    """The last fenced block tagged ``python``/``py``/``python3`` or untagged, else None."""
    blocks = [body for lang, body in _FENCE.findall(completion) if lang.lower() in _PY_LANGS]
    return blocks[-1] if blocks else None


# ============================================================================ test plan


@dataclass
class _Case:
    """One test as the host sees it; ``expect`` (io output) never enters the sandbox."""

    index: int
    hidden: bool
    kind: str  # "io" or "assert"
    expect: str | None = None
    label: str = ""


@dataclass
class _Plan:
    cases: list[_Case] = field(default_factory=list)
    units: list[dict[str, Any]] = field(default_factory=list)  # judge statements, in order
    io: list[tuple[int, str]] = field(default_factory=list)  # (case index, stdin)
    names: set[str] = field(default_factory=set)  # every name the test sources use
    not_modules: set[str] = field(default_factory=set)  # names the tests call, subscript or assign
    entry_point: str | None = None
    free: set[str] = field(default_factory=set)  # names the tests use without defining them
    defined: set[str] = field(default_factory=set)  # names some test source binds
    calls: list[str] = field(default_factory=list)  # called names, in source order
    pytest: bool = False  # a source's tests are collected by pytest
    context: set[str] = field(default_factory=set)  # process state the tests name (code_judge.Judge.context)

    def modules(self) -> list[str]:
        """Names the tests use the way one uses a module (``math.isclose(...)``, ``m = math``),
        never calling, subscripting or assigning them: when one names a standard-library module,
        the judge binds its own, so a candidate's ``math`` object never answers ``math.isclose``."""
        return sorted(self.names - self.not_modules - {_entry_name(self.entry_point or "x") or ""})


def build_plan(sample: Sample) -> _Plan:
    """Split a sample's visible and hidden tests into io runs and judge statements.

    Cached on the tests' text: a group of completions for one prompt shares one plan (which
    nobody mutates)."""
    fields_ = tuple(sample.get(k) for k in ("tests", "io_tests", "hidden_tests", "entry_point", "call_tests"))
    try:
        key = json.dumps(fields_, sort_keys=True)
    except (TypeError, ValueError):
        return _build_plan(*fields_, sample_id=sample.id)
    return _cached_plan(key, sample.id)


@functools.lru_cache(maxsize=1024)
def _cached_plan(key: str, sample_id: str) -> _Plan:
    return _build_plan(*json.loads(key), sample_id=sample_id)


def _build_plan(tests: Any, io_tests: Any, hidden: Any, entry: Any, call_tests: Any = None,
                sample_id: str = "") -> _Plan:
    plan = _Plan(entry_point=_entry_point(entry))
    if call_tests is not None:
        tests = _merge_sources(tests, _call_tests_source(call_tests, plan.entry_point))
    for spec, is_hidden in ((tests, False), (io_tests, False), (hidden, True)):
        if spec is None:
            continue
        if _is_io_spec(spec):
            _add_io(plan, spec, is_hidden)
        else:
            _add_asserts(plan, spec, is_hidden)
    if not plan.cases:
        raise ValueError(f"sample {sample_id!r} has no tests (fields tests / io_tests / hidden_tests)")
    if plan.entry_point is None:
        plan.entry_point = _builtin_named_task(plan)
    if plan.entry_point:
        plan.names.add(_entry_name(plan.entry_point))
    return plan


def _entry_point(entry: Any) -> str | None:
    """The sample's ``entry_point``: a name (``add``), or a method of the candidate's class as
    LeetCode-style datasets give it (``Solution().twoSum``, ``Solution.twoSum``)."""
    if not entry:
        return None
    text = str(entry).strip()
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        raise ValueError(f"entry_point {text!r} is not a name or a method of a class") from None
    if not isinstance(node, ast.Name) and _entry_name(text) is None:
        raise ValueError(f"entry_point {text!r} is not a name or a method of a class")
    return text


def _entry_name(entry: str) -> str | None:
    """The candidate's top-level name an entry point refers to (``Solution`` in ``Solution().f``)."""
    node = ast.parse(entry, mode="eval").body
    while isinstance(node, (ast.Attribute, ast.Call)):
        if isinstance(node, ast.Call) and (node.args or node.keywords):
            return None
        node = node.value if isinstance(node, ast.Attribute) else node.func
    return node.id if isinstance(node, ast.Name) else None


def _call_tests_source(spec: Any, entry: str | None) -> list[str]:
    """``call_tests: [{"input": [args...], "output": value}, ...]`` (LeetCode / TACO call-based
    style, JSON values): one ``assert ENTRY(*args) == output`` each, ENTRY the ``entry_point``."""
    if not entry:
        raise ValueError("call_tests need the sample's entry_point (e.g. 'Solution().twoSum')")
    if not isinstance(spec, (list, tuple)) or not all(isinstance(t, dict) for t in spec):
        raise ValueError("call_tests must be a list of {'input': [args...], 'output': value} dicts")
    out = []
    for k, test in enumerate(spec):
        if not {"input", "output"} <= set(test) or not isinstance(test["input"], (list, tuple)):
            raise ValueError(f"call test {k} needs 'input' (a list of arguments) and 'output'")
        args = ", ".join(repr(a) for a in test["input"])
        out.append(f"assert {entry}({args}) == {test['output']!r}")
    return out


def _merge_sources(tests: Any, extra: list[str]) -> Any:
    if tests is None:
        return extra
    if isinstance(tests, str):
        return [tests, *extra]
    return [*tests, *extra]


def _builtin_named_task(plan: _Plan) -> str | None:
    """Without an entry point: when the tests use nothing from the candidate but names that are
    builtins (``assert pow(2, 3) == 8`` for a task named ``pow``), the first such name called is
    the task's function, so it is the candidate's (or missing), never the builtin."""
    free = plan.free - {"_rlvr_why", "__name__", "__file__"}
    if not free or not all(hasattr(builtins, n) for n in free):
        return None
    return next((n for n in plan.calls if n in free and not isinstance(getattr(builtins, n), type)), None)


def _is_io_spec(spec: Any) -> bool:
    return isinstance(spec, (list, tuple)) and bool(spec) and all(isinstance(x, dict) for x in spec)


def _add_io(plan: _Plan, spec: list[dict], hidden: bool) -> None:
    for k, test in enumerate(spec):
        if not {"input", "output"} <= set(test):
            raise ValueError(f"io test {k} needs 'input' and 'output' keys, got {sorted(test)}")
        case = _Case(len(plan.cases), hidden, "io", str(test["output"]), f"io test {k}")
        plan.cases.append(case)
        plan.io.append((case.index, str(test["input"])))


def _add_asserts(plan: _Plan, spec: Any, hidden: bool) -> None:
    if isinstance(spec, str):
        sources = [spec]
    elif isinstance(spec, (list, tuple)) and all(isinstance(x, str) for x in spec):
        sources = list(spec)
    else:
        raise ValueError(f"tests must be a string, a list of strings or a list of io dicts; got {type(spec).__name__}")
    for source in sources:
        module = ast.parse(source)
        index = _Index(module)
        _add_names(plan, index)
        extra = _check_call(module, plan.entry_point, index)
        if extra:
            plan.names.add(_entry_name(plan.entry_point or "x") or "")
        collect = _collectable(module, index)
        if not extra and collect is None and not _checks_something(module, index):
            raise ValueError(f"a test source checks nothing (no assert, raise or exit runs): {_short(source, 70)!r}")
        units = _split_source(module, index) if isinstance(spec, str) else [(module.body, True)]
        if collect is not None and units == [(module.body, True)]:
            units = [(module.body, False)]  # definitions only: the collected tests are the case
        first = len(plan.units)
        for body, is_case in units:
            src = source if body is module.body and not index.has_assert(body) else _unit_source(source, body, index)
            label = _short(_segment(source, body[0]))
            if not is_case:
                plan.units.append({"src": src, "case": None, "hidden": hidden, "label": label})
                continue
            case = _Case(len(plan.cases), hidden, "assert", None, label)
            plan.cases.append(case)
            plan.units.append({"src": src, "case": case.index})
        plan.units[-1]["src"] += extra
        if collect is not None:
            kind, tests, defined = collect
            plan.pytest = plan.pytest or kind == "pytest"
            case = _Case(len(plan.cases), hidden, "assert", None, _short(f"{kind} tests: {', '.join(tests)}"))
            plan.cases.append(case)
            plan.units.append({"src": f"_rlvr_collect({defined!r}, {kind!r})", "case": case.index})
        _assign_owners(plan.units[first:])


_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _collectable(module: ast.Module, index: _Index) -> tuple[str, list[str], list[str]] | None:
    """Tests that a runner collects rather than a statement calls: pytest's ``test*`` functions
    and ``Test*`` classes, ``unittest.TestCase`` subclasses. None when the source has none, or
    runs them itself (a top-level statement names one of them, ``unittest`` or ``pytest``, as
    ``unittest.main()`` under a main guard does). Returns (runner, tests, every top-level name
    the source defines: fixtures and helpers are part of the collected module)."""
    tests, cases = [], []
    for stmt in module.body:
        if isinstance(stmt, _FUNCS) and stmt.name.startswith("test"):
            tests.append(stmt.name)
        elif isinstance(stmt, ast.ClassDef):
            testcase = any((isinstance(b, ast.Name) and b.id.endswith("TestCase"))
                           or (isinstance(b, ast.Attribute) and b.attr.endswith("TestCase")) for b in stmt.bases)
            methods = [s for s in stmt.body if isinstance(s, _FUNCS) and s.name.startswith("test")]
            if testcase and methods:
                tests.append(stmt.name)
                cases.append(stmt.name)
            elif stmt.name.startswith("Test") and methods and not stmt.bases:
                tests.append(stmt.name)
    if not tests:
        return None
    runners = set(tests) | {"unittest", "pytest"}
    for stmt in module.body:
        if isinstance(stmt, (*_FUNCS, ast.ClassDef, ast.Import, ast.ImportFrom)):
            continue
        if any(isinstance(n, ast.Name) and n.id in runners for n in index.nodes[id(stmt)]):
            return None
    defined = []
    for stmt in module.body:
        if isinstance(stmt, (*_FUNCS, ast.ClassDef)):
            defined.append(stmt.name)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            defined += [t.id for t in targets if isinstance(t, ast.Name)]
    kind = "unittest" if len(cases) == len(tests) else "pytest"
    return kind, tests, sorted(set(defined))


# sys.exit(1), exit(1), os._exit(1) as a failed check; unittest.main(), pytest.main(), doctest.testmod()
_EXITS = {"exit", "quit", "_exit", "main", "testmod"}


def _checks_something(module: ast.Module, index: _Index) -> bool:
    """A source checks something when an ``assert``, a ``raise`` or an exit call can run: in a
    top-level statement, or in a function a top-level statement refers to (directly or through
    other such functions). A source that only prints, assigns, imports or defines a helper it
    never calls would pass any program."""
    defs = {s.name: s for s in module.body if isinstance(s, (*_FUNCS, ast.ClassDef))}

    def checks(nodes: list[ast.AST]) -> bool:
        return any(isinstance(n, (ast.Assert, ast.Raise)) or (isinstance(n, ast.Call) and _is_check_call(n))
                   for n in nodes)  # fmt: skip

    reached: set[str] = set()
    todo = [s for s in module.body if not isinstance(s, (*_FUNCS, ast.ClassDef))]
    while todo:
        stmt = todo.pop()
        nodes = index.nodes.get(id(stmt)) or list(ast.walk(stmt))
        if checks(nodes):
            return True
        for n in nodes:
            if isinstance(n, ast.Name) and n.id in defs and n.id not in reached:
                reached.add(n.id)
                todo.append(defs[n.id])
    return False


def _is_check_call(node: ast.Call) -> bool:
    """An exit, a runner, or a checking helper (``assert_allclose``, ``assertEqual``, ``assertRaises``)."""
    name = _call_name(node) or ""
    return name in _EXITS or name.lower().startswith("assert")


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _assign_owners(units: list[dict[str, Any]]) -> None:
    """Each set-up statement of one source answers for a case of that source (the next one, else
    the one before): when it fails or never finishes, that case fails, so a trailing ``check(f)``
    that hangs in a hidden source lowers ``hidden_pass_rate``."""
    cases = [u["case"] for u in units if u["case"] is not None]
    last = None
    for k, unit in enumerate(units):
        if unit["case"] is not None:
            last = unit["case"]
            continue
        nxt = next((u["case"] for u in units[k + 1:] if u["case"] is not None), None)
        unit["owner"] = nxt if nxt is not None else (last if last is not None else (cases[0] if cases else None))


class _Index:
    """Every node of each top-level statement, from one ``ast.walk`` (the plan asks several
    questions of each statement)."""

    def __init__(self, module: ast.Module):
        self.nodes = {id(stmt): list(ast.walk(stmt)) for stmt in module.body}
        self.asserts = {key for key, nodes in self.nodes.items() if any(isinstance(n, ast.Assert) for n in nodes)}

    def has_assert(self, body: list[ast.stmt]) -> bool:
        return any(id(stmt) in self.asserts for stmt in body)

    def all_nodes(self) -> list[ast.AST]:
        return [n for nodes in self.nodes.values() for n in nodes]


def _add_names(plan: _Plan, index: _Index) -> None:
    nodes = index.all_nodes()
    used = {n.id for n in nodes if isinstance(n, ast.Name)}
    stored = {n.id for n in nodes if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    plan.names |= used
    plan.not_modules |= stored
    words = used | {n.attr for n in nodes if isinstance(n, ast.Attribute)}
    plan.context |= {flag for flag, names in _CONTEXT_WORDS.items() if words & names}
    defined = stored | {n.name for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    defined |= {n.arg for n in nodes if isinstance(n, ast.arg)}
    defined |= {(a.asname or a.name).split(".")[0] for n in nodes if isinstance(n, (ast.Import, ast.ImportFrom))
                for a in n.names}  # fmt: skip
    defined |= {n.name for n in nodes if isinstance(n, ast.ExceptHandler) and n.name}
    plan.free |= used - defined
    plan.defined |= defined
    imports = [n for n in nodes if isinstance(n, (ast.Import, ast.ImportFrom))]
    if any(_imports(n, "solution") for n in imports):
        plan.free.add("solution")  # the tests take the candidate as a module
    plan.pytest = plan.pytest or any(_imports(n, "pytest") for n in imports)
    for n in nodes:
        target = n.func if isinstance(n, ast.Call) else n.value if isinstance(n, ast.Subscript) else None
        if isinstance(target, ast.Name):
            plan.not_modules.add(target.id)
            if isinstance(n, ast.Call):
                plan.calls.append(target.id)


_CONTEXT_WORDS = {  # a test naming one of these shares that state with the candidate's calls
    "env": {"environ", "putenv", "setenv", "monkeypatch"},
    "argv": {"argv"},
    "cwd": {"getcwd", "chdir", "cwd"},
    "random": {"random", "seed"},
    "warnings": {"warnings", "warns", "recwarn", "filterwarnings", "simplefilter", "catch_warnings"},
}


def _imports(node: ast.Import | ast.ImportFrom, module: str) -> bool:
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").split(".")[0] == module
    return any(a.name.split(".")[0] == module for a in node.names)


def _segment(source: str, node: ast.AST) -> str:
    """``ast.get_source_segment`` (which splits the whole source on every call), from lines
    split once per source, decorators included; ``ast.unparse`` for a node without positions."""
    end_line, end_col = getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None)
    if end_line is None or end_col is None:
        return ast.unparse(node)
    lines = _utf8_lines(source)
    decorators = getattr(node, "decorator_list", None)  # a decorated def or class starts at its first ``@``
    first = (decorators[0].lineno if decorators else node.lineno) - 1
    last = end_line - 1
    if first == last:
        text = lines[first][node.col_offset : end_col]
    else:
        text = b"".join([lines[first][node.col_offset :], *lines[first + 1 : last], lines[last][:end_col]])
    return text.decode("utf-8") or ast.unparse(node)


@functools.lru_cache(maxsize=64)
def _utf8_lines(source: str) -> list[bytes]:
    """The source's lines as the parser counts them (\\n, \\r\\n, \\r), ends kept, in UTF-8
    (the parser's column offsets count bytes)."""
    return [line.encode("utf-8") for line in io.StringIO(source, newline="").readlines()]


def _unit_source(source: str, body: list[ast.stmt], index: _Index) -> str:
    """The statements' own text; ``assert A == B`` gets its failure message (see _ExplainEq)."""
    if len(body) == 1 and isinstance(body[0], ast.Assert):
        test = body[0].test
        if (body[0].msg is None and isinstance(test, ast.Compare) and len(test.ops) == 1
                and isinstance(test.ops[0], ast.Eq)):
            left, right = _segment(source, test.left), _segment(source, test.comparators[0])
            return f"assert (_rlvr_l := ({left})) == (_rlvr_r := ({right})), _rlvr_why(_rlvr_l, _rlvr_r)"
    if index.has_assert(body):  # nested asserts: rewrite them too
        module = ast.Module(body=body, type_ignores=[])
        return ast.unparse(ast.fix_missing_locations(_ExplainEq().visit(module)))
    if len(body) == 1:
        return _segment(source, body[0])
    return ast.unparse(ast.Module(body=body, type_ignores=[]))


def _check_call(module: ast.Module, entry_point: str | None, index: _Index) -> str:
    """HumanEval: a source that defines ``check`` but never calls it gets ``check(entry_point)``
    (returned as text to append to its last unit; "" when nothing is needed)."""
    defines = any(isinstance(s, ast.FunctionDef) and s.name == "check" for s in module.body)
    if not defines:
        return ""
    outside = [s for s in module.body if not (isinstance(s, ast.FunctionDef) and s.name == "check")]
    if any(isinstance(n, ast.Name) and n.id == "check" for s in outside for n in index.nodes[id(s)]):
        return ""
    if not entry_point or _entry_name(entry_point) is None:
        raise ValueError("the tests define check() but never call it, and the sample has no entry_point")
    return f"\ncheck({entry_point})\n"


def _split_source(module: ast.Module, index: _Index) -> list[tuple[list[ast.stmt], bool]]:
    """Top-level statements as (body, is_case); one case for the whole source if none is."""
    body = module.body
    units = [([stmt], _is_case_stmt(stmt, index)) for stmt in body]
    if not any(is_case for _, is_case in units):
        return [(body, True)]
    return units


def _is_case_stmt(stmt: ast.stmt, index: _Index) -> bool:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return False
    return id(stmt) in index.asserts


class _ExplainEq(ast.NodeTransformer):
    """``assert A == B`` (no message) -> ``assert (l := A) == (r := B), _rlvr_why(l, r)``: the
    failure then says what was got and expected. Nothing else changes: the tests run as written."""

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        test = node.test
        if (node.msg is None and isinstance(test, ast.Compare) and len(test.ops) == 1
                and isinstance(test.ops[0], ast.Eq)):
            left = ast.NamedExpr(target=ast.Name("_rlvr_l", ast.Store()), value=test.left)
            right = ast.NamedExpr(target=ast.Name("_rlvr_r", ast.Store()), value=test.comparators[0])
            node.test = ast.Compare(left=left, ops=test.ops, comparators=[right])
            node.msg = ast.Call(ast.Name("_rlvr_why", ast.Load()),
                                [ast.Name("_rlvr_l", ast.Load()), ast.Name("_rlvr_r", ast.Load())], [])  # fmt: skip
        return node


def _short(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ============================================================================ running

RUNTIME_PARTS = code_judge.part_sources()  # (part, source) of the runtime package, in load order
_COMPILE_SOURCE = (
    "import marshal, sys; "
    "sys.stdout.buffer.write(marshal.dumps([(n, marshal.dumps(compile(s, '<rlvr-runtime/' + n + '.py>', 'exec'))) "
    "for n, s in marshal.loads(sys.stdin.buffer.read())]))"
)


@functools.cache
def runtime_blob(python: str, allow_unsandboxed: bool) -> bytes | None:
    """The runtime's parts compiled once by the sandbox's own interpreter (marshal), cached per
    process.

    Saves compiling the runtime's sources in every sandbox start. None when that run fails
    (then the sources are shipped instead, which works the same, only slower).
    """
    res = sandbox.run([python, "-I", "-S", "-c", _COMPILE_SOURCE],
                      sandbox.Payload(stdin=marshal.dumps(RUNTIME_PARTS)),
                      limits=sandbox.Limits(wall_s=20.0), allow_unsandboxed=allow_unsandboxed)  # fmt: skip
    return res.stdout if res.returncode == 0 and res.stdout else None


@functools.lru_cache(maxsize=4)
def _runtime_input(blob: bytes | None) -> bytes:
    """The ``rt`` input: the compiled parts of the runtime (or their sources), one object per blob,
    so that the sandbox's key for runs started ahead hashes it once."""
    return marshal.dumps(RUNTIME_PARTS if blob is None else blob)


PYTEST_DIR = "/opt/rlvr-pytest"  # where the host's pytest is mounted read-only in the sandbox
_PYTEST_NEEDS = ("pytest", "_pytest", "pluggy", "iniconfig")  # and, where installed, what they import:
_PYTEST_MAY_NEED = ("packaging", "pygments", "py", "exceptiongroup", "tomli", "colorama")


@functools.cache
def pytest_binds() -> tuple[tuple[str, str], ...] | None:
    """The host's pytest for the judge: each directory holding pytest or a package it imports,
    mounted read-only at ``PYTEST_DIR-<k>`` (a whole directory, so nothing can be planted beside
    it). None when pytest is not installed here (pytest-style tests then fail to import it)."""
    import importlib.util

    dirs: list[str] = []
    for name in _PYTEST_NEEDS + _PYTEST_MAY_NEED:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.origin:
            if name in _PYTEST_NEEDS:
                return None
            continue
        where = os.path.dirname(spec.origin)
        where = os.path.dirname(where) if spec.submodule_search_locations else where
        if where not in dirs:
            dirs.append(where)
    return tuple((d, f"{PYTEST_DIR}-{k}") for k, d in enumerate(dirs))


PACKAGES = ("numpy",)  # third-party packages a program or its tests may import, from the verifier's environment
_IMPORTS = re.compile(r"^[ \t]*(?:import|from)[ \t]+(" + "|".join(map(re.escape, PACKAGES)) + r")\b", re.M)


@functools.cache
def package_binds(name: str) -> tuple[tuple[str, str], ...] | None:
    """The host's copy of a package of ``PACKAGES`` for the sandbox: its directory, and the
    ``<name>.libs`` directory of shared libraries its wheel keeps beside it, mounted read-only
    under ``/opt/rlvr-<name>`` (only those: nothing else of the environment). None when the
    package is not installed here."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.submodule_search_locations:
        return None
    where = os.path.dirname(spec.origin)
    binds = [(where, f"/opt/rlvr-{name}/{name}")]
    libs = os.path.join(os.path.dirname(where), f"{name}.libs")
    if os.path.isdir(libs):
        binds.append((libs, f"/opt/rlvr-{name}/{name}.libs"))
    return tuple(binds)


def _packages(code: str, plan: _Plan) -> list[str]:
    """The packages of ``PACKAGES`` that the program or a test source imports."""
    text = code + "\n" + "\n".join(str(unit.get("src", "")) for unit in plan.units)
    return sorted(set(_IMPORTS.findall(text))) if any(name in text for name in PACKAGES) else []


def verify_code(completion: str, sample: Sample, **opts: Any) -> Verdict:
    """Reward 1 iff every visible and hidden test passes in the sandbox (see module docstring)."""
    options = _options(opts)
    code = extract_code(completion)
    if code is None:
        return Verdict(0.0, "no_answer", "no fenced ```python code block in the completion")
    try:
        plan = build_plan(sample)
    except (ValueError, SyntaxError) as exc:
        return Verdict(0.0, "error", f"bad sample {sample.id!r}: {exc}")
    refusal = _refusal(options) or _missing_tool(plan) or _missing_package(_packages(code, plan))
    if refusal is not None:
        return Verdict(0.0, "error", refusal)
    result = _run_plan(code, plan, options)
    return _judge(plan, result, _records(result.channel), options)


def _missing_tool(plan: _Plan) -> str | None:
    """pytest-style tests need pytest where the verifier runs: without it they could only fail, as
    if the program were wrong, so the verdict is an error naming what to install."""
    if plan.pytest and pytest_binds() is None:
        return ("pytest-style tests need pytest, which is not installed beside the code verifier "
                "(pip install pytest; it is a runtime dependency of rlvr)")  # fmt: skip
    return None


def _missing_package(names: list[str]) -> str | None:
    """A program or tests importing a package of ``PACKAGES`` that is not installed beside the
    verifier: an error naming it, never a failed test."""
    missing = [name for name in names if package_binds(name) is None]
    if missing:
        return (f"the program or its tests import {', '.join(missing)}, which is not installed beside the code "
                f"verifier (pip install {' '.join(missing)})")
    return None


def _refusal(options: CodeOptions) -> str | None:
    return sandbox.refusal("code", options.python, "apt-get install -y python3", options.allow_unsandboxed)


def _run_plan(code: str, plan: _Plan, options: CodeOptions) -> sandbox.RunResult:
    blob = runtime_blob(options.python, options.allow_unsandboxed)
    public = {
        "code": code,
        "io": [stdin for _, stdin in plan.io], "io_index": [k for k, _ in plan.io], "asserts": bool(plan.units),
        "limits": {"case_timeout": options.case_timeout_s, "out_cap": options.max_output_bytes,
                   "cpu": max(1, int(options.case_timeout_s) + 1), "nofile": 256},
    }  # fmt: skip
    secret = {"units": plan.units, "names": sorted(plan.names), "modules": plan.modules(),
              "entry_point": _entry_name(plan.entry_point) if plan.entry_point else None,
              "context": sorted(plan.context), "free": sorted(plan.free - plan.defined)}
    binds: tuple[tuple[str, str], ...] = ()
    if plan.pytest:
        binds = pytest_binds() or ()
        secret["pytest_path"] = [dest if sandbox.probe() is None else src for src, dest in binds]
    for name in _packages(code, plan):  # on sys.path of every process of the run (code_judge.boot)
        found = package_binds(name) or ()
        binds += found
        public["paths"] = public.get("paths", []) + [os.path.dirname(dest if sandbox.probe() is None else src)
                                                     for src, dest in found[:1]]  # fmt: skip
    limits = sandbox.Limits(
        wall_s=options.timeout_s, cpu_s=int(options.timeout_s) + 1, memory_bytes=options.memory_mb << 20,
        max_processes=options.max_processes, max_stdout_bytes=64 << 10, max_stderr_bytes=64 << 10,
        max_channel_bytes=2 * options.max_output_bytes * (len(plan.io) + 1) + (4 << 20),
    )  # fmt: skip
    argv = [options.python, "-I", "-S", "-c", code_judge.BOOT_SOURCE, "{rt}", "{pub}", "{sec}", "{fd_out}", "{go}"]
    payload = sandbox.Payload(inputs={"rt": _runtime_input(blob), "pub": marshal.dumps(public),
                                      "sec": marshal.dumps(secret)}, ro_binds=binds)  # fmt: skip
    # prestart: the next sample's sandbox is launched, and its interpreter loads the runtime,
    # while this one runs (sandbox.run's docstring); it reads nothing of its sample before "go"
    return sandbox.run(argv, payload, limits=limits, channel_out=True, allow_unsandboxed=options.allow_unsandboxed,
                       prestart=("rt",))


# ============================================================================ judging


def _records(channel: bytes) -> dict[str, Any]:
    """Parse the judge's record stream (only pid 1 of the sandbox holds the pipe)."""
    out: dict[str, Any] = {"ready": False, "done": False, "syntax": None, "crash": None, "cand": None,
                           "setup": None, "cases": {}, "units": set()}  # fmt: skip
    for line in channel.split(b"\n"):
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if not isinstance(record, dict):
            continue
        kind = record.get("k")
        if kind in ("ready", "done"):
            out[kind] = True
        elif kind in ("syntax", "crash"):
            out[kind] = str(record.get("err"))
        elif kind in ("cand", "setup"):
            out[kind] = out[kind] or record
        elif kind in ("io", "case") and isinstance(record.get("i"), int):
            out["cases"].setdefault(record["i"], record)
        elif kind == "unit" and isinstance(record.get("u"), int):
            out["units"].add(record["u"])
    return out


def _judge(plan: _Plan, result: sandbox.RunResult, recs: dict[str, Any], options: CodeOptions) -> Verdict:
    if not recs["ready"]:
        err = result.stderr.decode("utf-8", "replace").strip()[-500:]
        return Verdict(0.0, "error", f"sandbox runner did not start (exit {result.returncode}): {err}")
    if recs["crash"] is not None:
        return Verdict(0.0, "error", f"the verifier's runtime failed in the sandbox: {_short(recs['crash'], 600)}")
    outcomes = [_outcome(case, recs, result, options) for case in plan.cases]
    _unfinished_setup(plan, outcomes, recs, result)
    return _verdict(plan, outcomes, result, recs, options)


def _unfinished_setup(plan: _Plan, outcomes: list[tuple[bool, str, bool]], recs: dict[str, Any],
                      result: sandbox.RunResult) -> None:
    """The first set-up statement that failed or never reported its completion fails the case it
    answers for (see _assign_owners): a statement that did not finish is never passed."""
    if recs["syntax"] is not None:
        return
    failed = recs["setup"]
    for k, unit in enumerate(plan.units):
        if unit["case"] is not None or k in recs["units"]:
            continue
        owner = unit.get("owner")
        if owner is None or not outcomes[owner][0]:
            return
        if failed is not None and failed.get("u") == k:
            why = "a set-up statement failed"
        elif result.timed_out:
            why = f"set-up statement {unit['label']!r} did not finish: the run hit its wall timeout"
        else:
            why = f"set-up statement {unit['label']!r} did not finish: the run ended first"
        if unit.get("hidden"):
            why = "a hidden set-up statement did not finish" if failed is None else "a hidden set-up statement failed"
        outcomes[owner] = (False, why, result.timed_out and failed is None)
        return


def _outcome(case: _Case, recs: dict[str, Any], result: sandbox.RunResult,
             options: CodeOptions) -> tuple[bool, str, bool]:
    """(passed, reason, timed_out) for one case."""
    if recs["syntax"] is not None:
        return False, recs["syntax"], False
    record = recs["cases"].get(case.index)
    if record is None:
        if recs["setup"] is not None and case.kind == "assert":
            return False, "not run: a set-up statement failed", False
        if result.timed_out:
            return False, "the run hit its wall timeout before this test finished", True
        if result.overflowed:
            return False, f"the run was killed: {result.overflowed} passed its size cap", False
        return False, "no result: the run ended before this test reported", False
    if case.kind == "io":
        return _io_outcome(case, record, options)
    if record.get("ok") is True:
        return True, "", False
    err = str(record.get("err") or "failed")
    return False, (err.split(":", 1)[0] if case.hidden else err), False  # hidden: no message


def _io_outcome(case: _Case, record: dict[str, Any], options: CodeOptions) -> tuple[bool, str, bool]:
    if record.get("to"):
        return False, f"timed out after {options.case_timeout_s} s", True
    if record.get("over"):
        return False, f"output passed {options.max_output_bytes} bytes", False
    if record.get("late"):
        return False, "output written after the program ended (by a process it left behind)", False
    try:
        got = base64.b64decode(str(record.get("out", "")), validate=True)
    except ValueError:
        return False, "malformed output record", False
    if case.hidden and record.get("rc") != 0:  # before comparing: the reason must not say the output matched
        return False, f"exit status {record.get('rc')}", False
    norm = _NORMALISERS[options.io_compare]
    expect = str(case.expect)
    if norm(got) != norm(expect.encode("utf-8")):
        shown = "" if case.hidden else (f": got {_short(got.decode('utf-8', 'replace'), 60)!r},"
                                        f" expected {_short(expect, 60)!r}")
        return False, "wrong output" + shown, False
    if record.get("rc") != 0:
        return False, f"exit status {record.get('rc')}: {_short(str(record.get('err', '')), 200)}", False
    return True, "", False


def _verdict(plan: _Plan, outcomes: list[tuple[bool, str, bool]], result: sandbox.RunResult,
             recs: dict[str, Any], options: CodeOptions) -> Verdict:  # fmt: skip
    passed = [ok for ok, _, _ in outcomes]
    vis = [ok for ok, case in zip(passed, plan.cases) if not case.hidden]
    hid = [ok for ok, case in zip(passed, plan.cases) if case.hidden]
    rate = sum(passed) / len(passed)
    info = {"pass_rate": rate, "n_tests": float(len(passed)), "sandboxed": float(result.sandboxed)}
    if vis:
        info["visible_pass_rate"] = sum(vis) / len(vis)
    if hid:
        info["hidden_pass_rate"] = sum(hid) / len(hid)
    setup = recs["setup"]
    finished = recs["done"] or recs["syntax"] is not None  # the judge's final record is required
    all_ok = all(passed) and setup is None and finished
    reward = 1.0 if all_ok else (rate if options.partial_credit and setup is None and finished else 0.0)
    timed_out = result.timed_out or any(t for _, _, t in outcomes)
    status = "ok" if all_ok else ("timeout" if timed_out else "wrong")
    detail = f"passed {sum(passed)}/{len(passed)} (visible {sum(vis)}/{len(vis)}, hidden {sum(hid)}/{len(hid)})"
    if not finished:
        detail += "; the run ended before the judge finished" + (" (wall timeout)" if result.timed_out else "")
    if setup is not None:
        err = str(setup.get("err"))
        shown = f"a hidden set-up statement failed: {err.split(':', 1)[0]}" if setup.get("h") is not False else \
            f"a set-up statement failed: {_short(err, 300)}"
        detail += "; " + shown
    failures = [(case, why) for (ok, why, _), case in zip(outcomes, plan.cases) if not ok]
    if failures:
        case, why = failures[0]
        where = "hidden test" if case.hidden else f"test {case.label!r}"
        detail += f"; first failure: {where}: {_short(why, 300)}"
    top = recs["cand"]
    if top is not None and not top.get("ok"):
        detail += f"; top-level code raised {_short(str(top.get('err')), 200)}"
    if not result.sandboxed:
        detail = "UNSANDBOXED: " + detail
    return Verdict(reward, status, detail, info)


def _norm_lines(data: bytes) -> list[bytes]:
    """Lines with trailing whitespace removed, without blank lines at either end."""
    lines = [line.rstrip() for line in data.replace(b"\r\n", b"\n").split(b"\n")]
    start = next((k for k, line in enumerate(lines) if line), len(lines))
    end = len(lines)
    while end > start and not lines[end - 1]:
        end -= 1
    return lines[start:end]


_NORMALISERS: dict[str, Callable[[bytes], Any]] = {
    "lines": _norm_lines,
    "tokens": lambda data: data.split(),
    "exact": lambda data: data,
}


def warm_up() -> None:
    """Probe the sandbox and compile the runtime once per worker process (both cached)."""
    if sandbox.probe() is None and os.path.exists(CodeOptions.python):
        runtime_blob(CodeOptions.python, False)
