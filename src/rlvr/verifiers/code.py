"""Code verifier: run the completion's last fenced Python block against a sample's tests, sandboxed.

Sample fields (all optional, at least one test needed):
- ``tests``: Python source with asserts run after the candidate's code (a string, or a list
  of strings: one test each). In a string, each top-level statement that contains an
  ``assert`` (and is not a ``def``/``class``) is one test; other statements are set-up; a
  source with no such statement is one test.
- ``io_tests``: ``[{"input": str, "output": str}, ...]``: the program runs as ``__main__``
  with that stdin; its stdout is compared, after whitespace normalisation, in the parent.
- ``hidden_tests``: same forms (a string / list of strings, or a list of io dicts); never
  shown in the prompt; they count toward the reward and are reported apart.

Reward 1 only when every test (visible and hidden) passes, else 0 (``partial_credit=True``:
the fraction passed). ``Verdict.info`` has ``pass_rate``, ``visible_pass_rate`` and
``hidden_pass_rate`` (when there are hidden tests), ``n_tests``, ``sandboxed``.

How a pass is decided without trusting the candidate (details in ``docs/sandbox.md``):
- One sandbox start per sample. A trusted runner (the ``_rt_*`` functions below, compiled
  once per process by the sandbox's own interpreter and shipped in the payload) reads the
  payload from an inherited memfd and writes JSON records, each carrying a per-run random
  nonce, to an inherited pipe. Exit status, stdout and stderr are never
  read as results; a test without its record fails.
- io tests: the runner forks one child per test before any candidate code has run in it,
  closes the record pipe in the child, and forwards the child's raw stdout; expected
  outputs never enter the sandbox; the comparison happens here.
- assert tests ``assert EXPR == LITERAL`` (either side), ``assert EXPR`` and ``assert not
  EXPR`` at top level: only ``EXPR`` enters the sandbox; its value is serialised by trusted
  code that accepts builtin types only (exact ``type(v) is int`` checks, so an object whose
  ``__eq__`` is always True cannot pass), and compared here with the literal, which never
  enters the sandbox.
- other asserts run inside, rewritten so that every comparison operand, truth test and
  arithmetic operand is first copied into builtin types by trusted code (``__rlvr_plain__``).

Deliberately not defended: candidate code in assert mode shares its process with the runner,
so a candidate that introspects or hooks the runner (frames, ``gc``, ``sys.settrace``, file
descriptors) can forge assert records, except that a forged ``EXPR == LITERAL`` or io record
still needs the right value, which never enters the sandbox; builtins that call dunder
methods (``abs``, ``len``, ``math.isclose``...) are not guarded. Candidates run
with ``python3 -I -S`` (stdlib only). Top-level code runs with ``__name__ ==
"__candidate__"`` in assert mode (so ``if __name__ == "__main__":`` demos do not run) and as
``__main__`` in io mode.
"""

from __future__ import annotations

import ast
import base64
import functools
import inspect
import json
import marshal
import os
import re
import secrets
import textwrap
from dataclasses import dataclass, fields
from typing import Any, Callable

from rlvr.types import Sample, Verdict
from rlvr import sandbox

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)```", re.DOTALL)
_PY_LANGS = ("", "python", "py", "python3")
_PLAIN_NAME = "__rlvr_plain__"


@dataclass(frozen=True)
class CodeOptions:
    """Options of ``verify_code`` (passed as keyword arguments)."""

    timeout_s: float = 10.0  # wall limit of the sandbox run (plus case_timeout_s per io test)
    case_timeout_s: float = 4.0  # wall limit of each io test inside the sandbox
    memory_mb: int = 1024  # address space per process
    max_processes: int = 32  # processes and threads in the sandbox
    max_output_bytes: int = 1 << 20  # stdout of one program run; more fails the test
    partial_credit: bool = False  # reward = fraction passed instead of all-or-nothing
    allow_unsandboxed: bool = False  # without bwrap: run with rlimits only (loud warning)
    io_compare: str = "lines"  # "lines" (rstrip lines, drop blank ends), "tokens", "exact"
    python: str = "/usr/bin/python3"  # interpreter inside the sandbox (must live under /usr)


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
    """One test as the parent sees it; ``expect`` never enters the sandbox."""

    index: int
    hidden: bool
    kind: str  # "exec" (passes iff it ran), "eq" / "truthy" / "falsy" (value), "io"
    expect: Any = None
    label: str = ""


@dataclass
class _Plan:
    cases: list[_Case]
    steps: list[dict[str, Any]]  # assert-mode steps shipped to the runner
    io: list[dict[str, Any]]  # io inputs shipped to the runner


def build_plan(sample: Sample) -> _Plan:
    """Split a sample's visible and hidden tests into what goes in and what stays out."""
    plan = _Plan([], [], [])
    tests, io_tests, hidden = sample.get("tests"), sample.get("io_tests"), sample.get("hidden_tests")
    for spec, is_hidden in ((tests, False), (io_tests, False), (hidden, True)):
        if spec is None:
            continue
        if _is_io_spec(spec):
            _add_io(plan, spec, is_hidden)
        else:
            _add_asserts(plan, spec, is_hidden)
    if not plan.cases:
        raise ValueError(f"sample {sample.id!r} has no tests (fields tests / io_tests / hidden_tests)")
    return plan


def _is_io_spec(spec: Any) -> bool:
    return isinstance(spec, (list, tuple)) and bool(spec) and all(isinstance(x, dict) for x in spec)


def _add_io(plan: _Plan, spec: list[dict], hidden: bool) -> None:
    for k, test in enumerate(spec):
        if not {"input", "output"} <= set(test):
            raise ValueError(f"io test {k} needs 'input' and 'output' keys, got {sorted(test)}")
        case = _Case(len(plan.cases), hidden, "io", str(test["output"]), f"io test {k}")
        plan.cases.append(case)
        plan.io.append({"i": case.index, "stdin": str(test["input"])})


def _add_asserts(plan: _Plan, spec: Any, hidden: bool) -> None:
    if isinstance(spec, str):
        units = _split_source(spec)
    elif isinstance(spec, (list, tuple)) and all(isinstance(x, str) for x in spec):
        units = [(ast.parse(src).body, True) for src in spec]
    else:
        raise ValueError(f"tests must be a string, a list of strings or a list of io dicts; got {type(spec).__name__}")
    for body, is_case in units:
        if not is_case:
            plan.steps.append({"mode": "exec", "src": _guarded_source(body), "case": None})
            continue
        case = _Case(len(plan.cases), hidden, "exec", None, _short(ast.unparse(body[0])))
        plan.cases.append(case)
        plan.steps.append(_case_step(body, case))


def _split_source(source: str) -> list[tuple[list[ast.stmt], bool]]:
    """Top-level statements as (body, is_case); one case for the whole source if none is."""
    body = ast.parse(source).body
    units = [([stmt], _is_case_stmt(stmt)) for stmt in body]
    if not any(is_case for _, is_case in units):
        return [(body, True)]
    return units


def _is_case_stmt(stmt: ast.stmt) -> bool:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return False
    return any(isinstance(node, ast.Assert) for node in ast.walk(stmt))


def _case_step(body: list[ast.stmt], case: _Case) -> dict[str, Any]:
    """A lone ``assert`` against a literal becomes a value step; anything else runs inside."""
    value = _value_form(body[0]) if len(body) == 1 else None
    if value is None:
        return {"mode": "exec", "src": _guarded_source(body), "case": case.index}
    expr, case.kind, case.expect = value
    return {"mode": "eval", "src": ast.unparse(expr), "case": case.index}


def _value_form(stmt: ast.stmt) -> tuple[ast.expr, str, Any] | None:
    """(expression to evaluate inside, kind, expected) for value-checkable asserts."""
    if not isinstance(stmt, ast.Assert):
        return None
    test = stmt.test
    if isinstance(test, ast.Compare):
        if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
            return None
        left, right = test.left, test.comparators[0]
        left_lit, right_lit = _literal(left), _literal(right)
        if (left_lit is _NOT_LITERAL) == (right_lit is _NOT_LITERAL):
            return None  # neither side (or both) literal: run inside
        if right_lit is not _NOT_LITERAL:
            return left, "eq", right_lit
        return right, "eq", left_lit
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand, "falsy", None
    if isinstance(test, ast.BoolOp):
        return None
    return test, "truthy", None


_NOT_LITERAL = object()


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NOT_LITERAL


class _Plainify(ast.NodeTransformer):
    """Inside an assert: pass comparison, truth and arithmetic operands through ``__rlvr_plain__``."""

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        operands = [node.left, *node.comparators]
        new = []
        for k, operand in enumerate(operands):
            near = node.ops[max(k - 1, 0) : k + 1]
            identity = any(isinstance(op, (ast.Is, ast.IsNot)) for op in near)
            new.append(operand if identity else _wrap(operand))
        node.left, node.comparators = new[0], new[1:]
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        node.values = [_wrap(v) for v in node.values]
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        node.operand = _wrap(node.operand)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        node.left, node.right = _wrap(node.left), _wrap(node.right)
        return node


class _GuardAsserts(ast.NodeTransformer):
    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        node.test = _wrap(_Plainify().visit(node.test))
        return node


def _wrap(expr: ast.expr) -> ast.expr:
    return ast.Call(func=ast.Name(id=_PLAIN_NAME, ctx=ast.Load()), args=[expr], keywords=[])


def _guarded_source(body: list[ast.stmt]) -> str:
    module = ast.fix_missing_locations(_GuardAsserts().visit(ast.Module(body=body, type_ignores=[])))
    return ast.unparse(module)


def _short(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ============================================================================ runtime (runs inside the sandbox)
# These functions are shipped as source and run by ``python3 -I -S`` inside the sandbox, in a
# private namespace (not ``__main__``). They use only the standard library and the names bound
# in _RT_PRELUDE, which captures every builtin and library function the runtime calls once
# candidate code may have run, so that patching ``builtins``, ``json`` or ``os`` from candidate
# code cannot change what the runtime does or reports.

_RT_PRELUDE = """
import binascii, builtins, marshal, os, resource, select, signal, sys, time
from _json import encode_basestring_ascii as _json_str
_type, _len, _str, _int, _float, _complex, _bool = type, len, str, int, float, complex, bool
_list, _tuple, _dict, _set, _frozenset, _bytes, _None = list, tuple, dict, set, frozenset, bytes, type(None)
_exec, _eval, _compile, _BaseException = exec, eval, compile, BaseException
_write, _b64, _unb64 = os.write, binascii.b2a_base64, binascii.a2b_base64
_BUILTIN_TYPES = {"int": int, "float": float, "complex": complex, "str": str, "bool": bool,
                  "list": list, "tuple": tuple, "dict": dict, "set": set, "frozenset": frozenset,
                  "bytes": bytes, "NoneType": type(None)}
_TYPE_NAMES = {v: k for k, v in _BUILTIN_TYPES.items()}
_CONTAINER_TAGS = {list: "l", tuple: "t", set: "S", frozenset: "F"}
"""


def _rt_encode(value, depth=0, budget=None):
    """Builtin value -> JSON-able tree, checking exact types; anything else raises TypeError."""
    budget = budget if budget is not None else [200_000]
    budget[0] -= 1
    if depth > 100 or budget[0] < 0:
        raise ValueError("value too deep or too large to compare")
    t = _type(value)
    if t is _None:
        return ["N"]
    if t is _bool:
        return ["b", value is True]
    if t is _int:
        return ["i", _int.__format__(value, "x")]
    if t is _float:
        return ["f", _float.hex(value)]
    if t is _complex:
        return ["c", _float.hex(value.real), _float.hex(value.imag)]
    if t is _str:
        return ["s", _str.__str__(value)]
    if t is _bytes:
        return ["y", _bytes.decode(_b64(value, newline=False), "ascii")]
    if t is _type and value in _TYPE_NAMES:
        return ["T", _TYPE_NAMES[value]]
    if t in _CONTAINER_TAGS:
        return [_CONTAINER_TAGS[t], [_rt_encode(x, depth + 1, budget) for x in value]]
    if t is _dict:
        pairs = _dict.items(value)
        return ["d", [[_rt_encode(k, depth + 1, budget), _rt_encode(v, depth + 1, budget)] for k, v in pairs]]
    raise TypeError("value of non-builtin type (only None, bool, int, float, complex, str, bytes, "
                    "list, tuple, dict, set, frozenset and builtin type objects are compared)")  # fmt: skip


def _rt_decode(tree, depth=0):
    """Inverse of ``_rt_encode``; builds builtin objects only. Raises on malformed input."""
    if depth > 100:
        raise ValueError("encoded value too deep")
    tag = tree[0]
    atoms = {"N": lambda: None, "b": lambda: tree[1] is True, "i": lambda: _int(tree[1], 16),
             "f": lambda: _float.fromhex(tree[1]), "s": lambda: _str(tree[1]),
             "c": lambda: _complex(_float.fromhex(tree[1]), _float.fromhex(tree[2])),
             "y": lambda: _unb64(_str.encode(tree[1], "ascii")),
             "T": lambda: _BUILTIN_TYPES[tree[1]]}  # fmt: skip
    containers = {"l": _list, "t": _tuple, "S": _set, "F": _frozenset}
    if tag in atoms:
        return atoms[tag]()
    if tag in containers:
        return containers[tag]([_rt_decode(x, depth + 1) for x in tree[1]])
    if tag == "d":
        return {_rt_decode(k, depth + 1): _rt_decode(v, depth + 1) for k, v in tree[1]}
    raise ValueError(f"unknown value tag {tag!r}")


def _rt_plain(value):
    """A copy of ``value`` rebuilt from builtin types by trusted code (TypeError otherwise)."""
    return _rt_decode(_rt_encode(value))


def _rt_json(obj):
    """JSON text of a record (dict/list/str/int/bool/None), with no patchable code involved."""
    t = _type(obj)
    if t is _dict:
        return "{" + ",".join(_json_str(k) + ":" + _rt_json(v) for k, v in _dict.items(obj)) + "}"
    if t is _list:
        return "[" + ",".join(_rt_json(x) for x in obj) + "]"
    if t is _str:
        return _json_str(obj)
    if t is _bool:
        return "true" if obj is True else "false"
    if t is _int:
        return _int.__repr__(obj)
    if obj is None:
        return "null"
    raise TypeError("record field of unexpected type")


def _rt_fmt(exc):
    try:
        return (_type(exc).__name__ + ": " + _str(exc))[:500]
    except _BaseException:  # a candidate exception whose __str__ misbehaves
        return "<unprintable exception>"


def _rt_exec_main(code):
    """Run the candidate as __main__ (io child); return the exit status Python would give."""
    status = 0
    try:
        _exec(code, {"__name__": "__main__", "__builtins__": builtins})
    except SystemExit as exc:
        status = exc.code if _type(exc.code) is _int else (0 if exc.code is None else 1)
    except _BaseException:
        import traceback  # imported only when needed: it costs milliseconds at start-up

        traceback.print_exc()
        status = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except _BaseException:  # closed or broken stdout: the output so far is what counts
        status = status or 1
    return status & 0xFF


def _rt_io_child(code, stdin_fd, out_w, err_w, lim):
    """In the forked child: wire stdio, drop the record pipe, cap CPU, run, never return."""
    status = 1
    try:
        os.setpgid(0, 0)
        os.dup2(stdin_fd, 0)
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        os.closerange(3, lim["nofile"])
        resource.setrlimit(resource.RLIMIT_CPU, (lim["cpu"], lim["cpu"]))
        sys.stdin = open(0, "r", encoding="utf-8", errors="replace", closefd=False)
        sys.stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
        status = _rt_exec_main(code)
    finally:
        os._exit(status)


def _rt_read_child(pid, out_r, err_r, lim):
    """Collect a child's stdout (capped) and stderr head until EOF, timeout or overflow."""
    bufs = {out_r: bytearray(), err_r: bytearray()}
    poller = select.poll()
    for fd in bufs:
        poller.register(fd, select.POLLIN)
    open_fds, timed_out, over = set(bufs), False, False
    deadline, exited_at = time.monotonic() + lim["case_timeout"], None
    while open_fds and not over:
        now = time.monotonic()
        if exited_at is None and os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT):
            exited_at = now
        if now >= deadline or (exited_at is not None and now - exited_at > 0.2):
            timed_out = now >= deadline
            break
        for fd, _ in poller.poll(int(min(deadline - now, 0.05) * 1000) + 1):
            data = os.read(fd, 65536)
            if not data:
                poller.unregister(fd)
                open_fds.discard(fd)
            bufs[fd] += data
            over = over or len(bufs[fd]) > lim["out_cap"]
    return bytes(bufs[out_r]), bytes(bufs[err_r][:2000]), timed_out, over


def _rt_io_case(code, case, lim):
    """Run one io test in a forked child; return its record (raw stdout, base64)."""
    stdin_fd = os.memfd_create("stdin", 0)
    data = case["stdin"].encode("utf-8")
    while data:
        data = data[os.write(stdin_fd, data) :]
    os.lseek(stdin_fd, 0, 0)
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        _rt_io_child(code, stdin_fd, out_w, err_w, lim)
    for fd in (stdin_fd, out_w, err_w):
        os.close(fd)
    out, err, timed_out, over = _rt_read_child(pid, out_r, err_r, lim)
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    _rt_reap()
    os.close(out_r)
    os.close(err_r)
    return {"k": "io", "i": case["i"], "out": _b64(out[: lim["out_cap"]], newline=False).decode("ascii"),
            "err": err.decode("utf-8", "replace"), "rc": status, "to": timed_out, "over": over}  # fmt: skip


def _rt_reap():
    """As pid 1 of the sandbox, collect orphans the candidate left behind."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _rt_asserts(code, steps, emit):
    """Run the candidate once, then each test step in a namespace the candidate's globals are not."""
    env = {"__name__": "__candidate__", "__builtins__": builtins}
    try:
        _exec(code, env)
        emit({"k": "top", "ok": True})
    except _BaseException as exc:  # recorded; tests still run against what was defined
        emit({"k": "top", "ok": False, "err": _rt_fmt(exc)})
    test_env = _dict(env)
    for step in steps:
        test_env["__rlvr_plain__"] = _rt_plain
        record = {"k": "step", "i": step["case"], "ok": True}
        try:
            if step["mode"] == "eval":
                record["v"] = _rt_encode(_eval(_compile(step["src"], "<test>", "eval"), test_env))
            else:
                _exec(_compile(step["src"], "<test>", "exec"), test_env)
        except _BaseException as exc:  # the test failed: record why, go on with the next
            record["ok"], record["err"] = False, _rt_fmt(exc)
        if step["case"] is not None or not record["ok"]:
            emit(record)


def _rt_main():
    """Read the payload, say ready, run io tests (fresh forks), then assert tests, say done."""
    payload, fd_out = _rt_box.pop(), int(sys.argv[2])  # the boot code read and closed fd_in
    nonce = payload["nonce"]
    os.set_inheritable(fd_out, False)

    def emit(record):
        record["n"] = nonce
        data = _str.encode(_rt_json(record) + "\n", "ascii")
        while data:
            data = data[_write(fd_out, data) :]

    emit({"k": "ready"})
    try:
        code = compile(payload["code"], "<candidate>", "exec")
    except (SyntaxError, ValueError) as exc:
        emit({"k": "syntax", "err": _rt_fmt(exc)})
        return
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    for case in payload["io"]:
        emit(_rt_io_case(code, case, payload["limits"]))
    if payload["steps"]:
        _rt_asserts(code, payload["steps"], emit)
    emit({"k": "done"})


_RT_FUNCTIONS: tuple[Callable[..., Any], ...] = (
    _rt_encode, _rt_decode, _rt_plain, _rt_json, _rt_fmt, _rt_exec_main, _rt_io_child,
    _rt_read_child, _rt_io_case, _rt_reap, _rt_asserts, _rt_main,
)  # fmt: skip


def _runtime_namespace(functions: tuple[Callable[..., Any], ...]) -> str:
    """Source of the prelude plus the given functions (their own text, via ``inspect``)."""
    parts = [_RT_PRELUDE] + [textwrap.dedent(inspect.getsource(fn)) for fn in functions]
    return "\n\n".join(parts)


RUNTIME_SOURCE = _runtime_namespace(_RT_FUNCTIONS) + "\n_rt_main()\n"

# The program passed to ``python3 -c``: it reads the payload from the memfd (argv[1]), closes
# it, and runs the runtime (shipped in the payload as a code object compiled by this very
# interpreter, or as source) in a private dict, not in __main__, handing it the payload in a
# box it empties.
BOOT_SOURCE = """
import marshal as _m, sys as _s
def _boot(fd):
    with open(fd, "rb") as fh:
        box = [_m.loads(fh.read())]
    rt = box[0].pop("rt")
    code = _m.loads(rt) if type(rt) is bytes else compile(rt, "<rlvr-runtime>", "exec")
    del rt
    exec(code, {"__name__": "__rlvr_runtime__", "_rt_box": box})
_boot(int(_s.argv[1]))
"""
_COMPILE_SOURCE = (
    "import marshal, sys; "
    "sys.stdout.buffer.write(marshal.dumps(compile(sys.stdin.read(), '<rlvr-runtime>', 'exec')))"
)


@functools.lru_cache(maxsize=None)
def runtime_blob(python: str, allow_unsandboxed: bool) -> bytes | None:
    """The runtime compiled once by the sandbox's own interpreter (marshal), cached per process.

    Saves compiling ~10 KB of source in every sandbox start. None when that run fails (then
    the source is shipped instead, which works the same, only slower).
    """
    res = sandbox.run([python, "-I", "-S", "-c", _COMPILE_SOURCE], stdin=RUNTIME_SOURCE.encode("utf-8"),
                      limits=sandbox.Limits(wall_s=20.0), allow_unsandboxed=allow_unsandboxed)  # fmt: skip
    return res.stdout if res.returncode == 0 and res.stdout else None

# The parent encodes/decodes with the very same source, bound to the same prelude names.
PARENT_CODEC: dict[str, Any] = {"__name__": "rlvr_codec"}
exec(compile(_runtime_namespace((_rt_encode, _rt_decode, _rt_plain)), "<rlvr-codec>", "exec"), PARENT_CODEC)


# ============================================================================ running and judging


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
    refusal = _refusal(options)
    if refusal is not None:
        return Verdict(0.0, "error", refusal)
    nonce = secrets.token_hex(16)
    result = _run_plan(code, plan, options, nonce)
    return _judge(plan, result, _records(result.channel, nonce), options)


def _refusal(options: CodeOptions) -> str | None:
    return sandbox.refusal("code", options.python, "apt-get install -y python3", options.allow_unsandboxed)


def _run_plan(code: str, plan: _Plan, options: CodeOptions, nonce: str) -> sandbox.RunResult:
    cpu = max(1, int(options.case_timeout_s) + 1)
    blob = runtime_blob(options.python, options.allow_unsandboxed)
    payload = {
        "rt": RUNTIME_SOURCE if blob is None else blob,
        "nonce": nonce, "code": code, "io": plan.io, "steps": plan.steps,
        "limits": {"case_timeout": options.case_timeout_s, "out_cap": options.max_output_bytes,
                   "cpu": cpu, "nofile": 256},
    }  # fmt: skip
    wall = options.timeout_s + options.case_timeout_s * len(plan.io)
    limits = sandbox.Limits(
        wall_s=wall, cpu_s=int(wall) + 1, memory_bytes=options.memory_mb << 20,
        max_processes=options.max_processes, max_stdout_bytes=options.max_output_bytes,
        max_stderr_bytes=options.max_output_bytes,
        max_channel_bytes=2 * options.max_output_bytes * (len(plan.io) + 1) + (4 << 20),
    )  # fmt: skip
    argv = [options.python, "-I", "-S", "-c", BOOT_SOURCE, "{fd_in}", "{fd_out}"]
    return sandbox.run(
        argv, limits=limits, channel_in=marshal.dumps(payload), channel_out=True,
        allow_unsandboxed=options.allow_unsandboxed,
    )  # fmt: skip


def _records(channel: bytes, nonce: str) -> dict[str, Any]:
    """Parse the record stream; lines without the run's nonce or malformed are dropped."""
    out: dict[str, Any] = {"ready": False, "done": False, "syntax": None, "top": None, "cases": {}}
    for line in channel.split(b"\n"):
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if not isinstance(record, dict) or record.get("n") != nonce:
            continue
        kind = record.get("k")
        if kind in ("ready", "done"):
            out[kind] = True
        elif kind == "syntax":
            out["syntax"] = str(record.get("err"))
        elif kind == "top":
            out["top"] = record
        elif kind in ("io", "step") and isinstance(record.get("i"), int):
            out["cases"].setdefault(record["i"], record)  # the first record of a case counts
    return out


def _judge(plan: _Plan, result: sandbox.RunResult, recs: dict[str, Any], options: CodeOptions) -> Verdict:
    if not recs["ready"]:
        err = result.stderr.decode("utf-8", "replace").strip()[-500:]
        return Verdict(0.0, "error", f"sandbox runner did not start (exit {result.returncode}): {err}")
    outcomes = [_outcome(case, recs, result, options) for case in plan.cases]
    return _verdict(plan, outcomes, result, recs, options)


def _outcome(case: _Case, recs: dict[str, Any], result: sandbox.RunResult, options: CodeOptions) -> tuple[bool, str, bool]:
    """(passed, reason, timed_out) for one case."""
    if recs["syntax"] is not None:
        return False, recs["syntax"], False
    record = recs["cases"].get(case.index)
    if record is None:
        if result.timed_out:
            return False, "the run hit its wall timeout before this test finished", True
        if result.overflowed:
            return False, f"the run was killed: {result.overflowed} passed its size cap", False
        return False, "no result: the program ended the run before this test reported", False
    if case.kind == "io":
        return _io_outcome(case, record, options)
    if not record.get("ok"):
        err = str(record.get("err", "failed"))
        return False, (err.split(":", 1)[0] if case.hidden else err), False  # hidden: no message
    if case.kind == "exec":
        return True, "", False
    return _value_outcome(case, record)


def _io_outcome(case: _Case, record: dict[str, Any], options: CodeOptions) -> tuple[bool, str, bool]:
    if record.get("to"):
        return False, f"timed out after {options.case_timeout_s} s", True
    if record.get("over"):
        return False, f"output passed {options.max_output_bytes} bytes", False
    try:
        got = base64.b64decode(str(record.get("out", "")), validate=True)
    except ValueError:
        return False, "malformed output record", False
    norm = _NORMALISERS[options.io_compare]
    if norm(got) != norm(case.expect.encode("utf-8")):
        shown = "" if case.hidden else f": got {_short(got.decode('utf-8', 'replace'), 60)!r}, expected {_short(case.expect, 60)!r}"
        return False, "wrong output" + shown, False
    if record.get("rc") != 0:
        return False, f"exit status {record.get('rc')}: {_short(str(record.get('err', '')), 200)}", False
    return True, "", False


def _value_outcome(case: _Case, record: dict[str, Any]) -> tuple[bool, str, bool]:
    try:
        value = PARENT_CODEC["_rt_decode"](record["v"])
    except (KeyError, IndexError, TypeError, ValueError, RecursionError, AttributeError):
        return False, "malformed value record", False
    checks = {"eq": lambda v: v == case.expect, "truthy": bool, "falsy": lambda v: not v}
    try:
        passed = bool(checks[case.kind](value))
    except (TypeError, ValueError, RecursionError) as exc:  # e.g. comparing odd builtin values
        return False, f"comparison failed: {exc}", False
    if passed:
        return True, "", False
    if case.hidden:
        return False, "wrong value", False
    return False, f"got {_short(repr(value), 80)}" + (f", expected {_short(repr(case.expect), 80)}" if case.kind == "eq" else ""), False


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
    all_ok = all(passed)
    reward = 1.0 if all_ok else (rate if options.partial_credit else 0.0)
    status = "ok" if all_ok else ("timeout" if any(t for _, _, t in outcomes) else "wrong")
    detail = f"passed {sum(passed)}/{len(passed)} (visible {sum(vis)}/{len(vis)}, hidden {sum(hid)}/{len(hid)})"
    failures = [(case, why) for (ok, why, _), case in zip(outcomes, plan.cases) if not ok]
    if failures:
        case, why = failures[0]
        where = "hidden test" if case.hidden else f"test {case.label!r}"
        detail += f"; first failure: {where}: {_short(why, 300)}"
        top = recs["top"]
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
