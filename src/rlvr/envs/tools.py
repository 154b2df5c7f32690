"""Built-in tools and the environment that runs them on the policy's tool calls.

- ``calculate(expr)``: a safe arithmetic evaluator. The expression is parsed with ``ast``
  and walked by hand: only numbers (int, float), ``+ - * / // % **``, unary ``+ -`` and
  parentheses. No names, attributes, calls, subscripts, strings, comparisons or anything
  else; never ``eval``. Inputs are capped in length and nesting, results in size (a
  power whose result would pass ``MAX_DIGITS`` digits is refused before it is computed),
  and division by zero, overflow and complex results are tool errors.
- ``PythonTool``: runs the call's text as a Python program in the code sandbox
  (``rlvr.sandbox``: bubblewrap, no network, rlimits, wall timeout) and returns
  its stdout; a non-zero exit, a timeout or an output past the cap is a tool error whose
  text (e.g. the exception's last line) goes back to the policy.
- ``ToolEnv``: the ``Environment`` that finds a call (``<tool>…</tool>`` by default, or any
  pair of markers, e.g. a fenced python block) at the end of the policy's text, runs the
  tool and answers ``<output>…</output>``.

What it deliberately does not do: keep state between calls (each call is independent; the
python tool starts a fresh interpreter), or raise on a bad call: a tool error is an
observation the policy can learn from, counted in ``ToolEnv.errors``. Failures of the
machinery itself (no sandbox, a bug) are not tool errors: they raise.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from rlvr.envs.base import Environment, Step

MAX_EXPR_CHARS = 200  # longer calculator inputs are refused
MAX_DEPTH = 32  # deepest expression tree the calculator walks
MAX_DIGITS = 100  # integer results with more digits are refused
MAX_OUTPUT_CHARS = 256  # tool output beyond this is cut (with "...")


class ToolError(Exception):
    """The tool refused or failed on this input; the message goes back to the policy."""


class ToolResult(NamedTuple):
    text: str
    error: bool


# ---------------------------------------------------------------- calculator
def _check_size(value):
    if isinstance(value, complex):
        raise ToolError("complex result")
    if isinstance(value, float) and not math.isfinite(value):
        raise ToolError("result too large")
    if isinstance(value, int) and abs(value) >= 10**MAX_DIGITS:
        raise ToolError(f"result has more than {MAX_DIGITS} digits")
    return value


def _div(a, b):
    if b == 0:
        raise ToolError("division by zero")
    if isinstance(a, int) and isinstance(b, int) and a % b == 0:
        return a // b
    return a / b


def _floordiv(a, b):
    if b == 0:
        raise ToolError("division by zero")
    return a // b


def _mod(a, b):
    if b == 0:
        raise ToolError("division by zero")
    return a % b


def _pow(a, b):
    if a == 0 and b < 0:
        raise ToolError("division by zero")
    if isinstance(b, int) and abs(a) > 1 and abs(b) * math.log10(abs(a)) > MAX_DIGITS:
        raise ToolError(f"exponent too large (the result would pass {MAX_DIGITS} digits)")
    if isinstance(b, float) and abs(a) > 1 and abs(b) > MAX_DIGITS / math.log10(abs(a)):
        raise ToolError(f"exponent too large (the result would pass {MAX_DIGITS} digits)")
    return a**b


_BINARY: dict[type, Callable] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: _div,
    ast.FloorDiv: _floordiv, ast.Mod: _mod, ast.Pow: _pow,
}
_UNARY: dict[type, Callable] = {ast.UAdd: operator.pos, ast.USub: operator.neg}


def _eval(node: ast.AST, depth: int):
    if depth > MAX_DEPTH:
        raise ToolError(f"expression nested deeper than {MAX_DEPTH}")
    if isinstance(node, ast.Constant):
        if type(node.value) not in (int, float):  # bool, complex, str, bytes, None, Ellipsis
            raise ToolError(f"{node.value!r} is not a number")
        return _check_size(node.value)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _eval(node.left, depth + 1), _eval(node.right, depth + 1)
        try:
            return _check_size(_BINARY[type(node.op)](left, right))
        except ZeroDivisionError:
            raise ToolError("division by zero") from None
        except OverflowError:
            raise ToolError("result too large") from None
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_eval(node.operand, depth + 1))
    what = type(node.op).__name__ if isinstance(node, (ast.BinOp, ast.UnaryOp)) else type(node).__name__
    raise ToolError(f"{what} is not allowed")


def format_number(value) -> str:
    """Integers exactly; floats that are whole and below 1e15 as integers, others to 12 digits."""
    if isinstance(value, int):
        return str(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return format(value, ".12g")


def calculate(expr: str) -> str:
    """The value of an arithmetic expression as text; raises ``ToolError`` on anything else."""
    text = expr.strip()
    if not text:
        raise ToolError("empty expression")
    if len(text) > MAX_EXPR_CHARS:
        raise ToolError(f"expression longer than {MAX_EXPR_CHARS} characters")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ToolError(f"syntax error: {exc.msg}") from None
    except ValueError as exc:  # e.g. a null byte on older Pythons
        raise ToolError(f"syntax error: {exc}") from None
    return format_number(_eval(tree.body, 0))


def calculator_tool(call: str) -> ToolResult:
    try:
        return ToolResult(calculate(call), False)
    except ToolError as exc:
        return ToolResult(f"error: {exc}", True)


# ---------------------------------------------------------------- python in the sandbox
@dataclass(frozen=True)
class PythonTool:
    """Run the call as a Python program in the sandbox; its stdout is the output."""

    timeout_s: float = 5.0
    memory_bytes: int = 512 << 20
    python: str = "/usr/bin/python3"  # must live under /usr (the sandbox mounts only /usr and /lib*)
    allow_unsandboxed: bool = False  # without bwrap: rlimits only (loud warning); never the default

    def __post_init__(self) -> None:
        from rlvr import sandbox

        if not self.allow_unsandboxed:
            sandbox.require()  # no bubblewrap: refuse now, not on the first call

    def __call__(self, code: str) -> ToolResult:
        from rlvr import sandbox

        limits = sandbox.Limits(wall_s=self.timeout_s, memory_bytes=self.memory_bytes, max_processes=8,
                                max_stdout_bytes=64 << 10, max_stderr_bytes=16 << 10)
        payload = sandbox.Payload(files={"/work/main.py": code.encode()})
        res = sandbox.run([self.python, "-I", "-S", "/work/main.py"], payload, limits=limits,
                          allow_unsandboxed=self.allow_unsandboxed)
        out = res.stdout.decode(errors="replace").rstrip("\n")
        if res.timed_out:
            return ToolResult(f"error: timeout after {self.timeout_s:g}s", True)
        if res.overflowed:
            return ToolResult(f"error: {res.overflowed} too long", True)
        if res.returncode != 0:
            lines = res.stderr.decode(errors="replace").strip().splitlines()
            last = lines[-1] if lines else f"exit status {res.returncode}"
            return ToolResult(f"{out}\nerror: {last}" if out else f"error: {last}", True)
        return ToolResult(out, False)


TOOLS: dict[str, Callable[[], Callable[[str], ToolResult]]] = {
    "calculator": lambda: calculator_tool,
    "python": PythonTool,
}


def build_tool(name: str) -> Callable[[str], ToolResult]:
    if name not in TOOLS:
        raise ValueError(f"unknown tool {name!r}; valid: {', '.join(TOOLS)}")
    return TOOLS[name]()


# ---------------------------------------------------------------- the environment
def find_call(text: str, open_tag: str, close_tag: str) -> str | None:
    """The body of the call that ends ``text``, or None when ``text`` does not end with one.

    A call is the last ``open_tag`` followed, at the very end, by ``close_tag``. A close
    marker with no open marker before it is plain text (for a fenced block, the opening
    fence also ends with the close marker ``````` and is not a call).
    """
    if not text.endswith(close_tag):
        return None
    start = text.rfind(open_tag, 0, len(text) - len(close_tag))
    if start < 0:
        return None
    body_start = start + len(open_tag)
    if body_start > len(text) - len(close_tag):  # open and close markers overlap
        return None
    return text[body_start:len(text) - len(close_tag)]


def cut(text: str, limit: int = MAX_OUTPUT_CHARS) -> str:
    return text if len(text) <= limit else text[: max(limit - 3, 0)] + "..."


class ToolEnv(Environment):
    """Answers each call at the end of the policy's text with ``<output>result</output>``."""

    def __init__(self, tool: Callable[[str], ToolResult], call_tags: tuple[str, str] = ("<tool>", "</tool>"),
                 output_tags: tuple[str, str] = ("<output>", "</output>"), max_output_chars: int = MAX_OUTPUT_CHARS):
        super().__init__()
        if len(call_tags) != 2 or not all(call_tags) or len(output_tags) != 2:
            raise ValueError(f"call_tags needs two non-empty markers and output_tags two markers; "
                             f"got {call_tags!r}, {output_tags!r}")
        self.tool, self.call_tags, self.output_tags = tool, tuple(call_tags), tuple(output_tags)
        self.max_output_chars = max_output_chars
        self.stop_text = call_tags[1]

    def step(self, action_text: str) -> Step:
        body = find_call(action_text, *self.call_tags)
        if body is None:
            return Step("", False, 0.0)
        result = self.tool(body)
        self.calls += 1
        self.errors += int(result.error)
        return Step(f"{self.output_tags[0]}{cut(result.text, self.max_output_chars)}{self.output_tags[1]}", False, 0.0)
