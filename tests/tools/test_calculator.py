"""The calculator: exact arithmetic on numbers, and a refusal for everything else.

It never evaluates Python: names, attributes, calls, subscripts, strings, comprehensions,
lambdas and comparisons are refused by the ``ast`` walk, and sizes are bounded before any
big computation starts.
"""

from __future__ import annotations

import time

import pytest

from rlvr.envs.tools import MAX_EXPR_CHARS, ToolEnv, ToolResult, calculate, calculator_tool, find_call

GOOD = [
    ("48213+90412", "138625"),
    ("3260-55050", "-51790"),
    (" 2 * (3 + 4) ", "14"),
    ("7/2", "3.5"),
    ("8/2", "4"),  # exact integer division stays an integer
    ("1/3", "0.333333333333"),
    ("7//2", "3"),
    ("-7//2", "-4"),
    ("7%3", "1"),
    ("2**10", "1024"),
    ("2**-2", "0.25"),
    ("-(-3)", "3"),
    ("+5", "5"),
    ("2.5*4", "10"),
    ("0.1+0.2", "0.3"),
    ("1e3", "1000"),
    ("10**99", "1" + "0" * 99),
    ("99999999999*99999999999", "9999999999800000000001"),
]

REFUSED = [  # (expression, words in the error)
    ("__import__('os').system('true')", "Call is not allowed"),
    ("open('/etc/passwd')", "Call is not allowed"),
    ("x+1", "Name is not allowed"),
    ("(1).real", "Attribute is not allowed"),
    ("(1).__class__", "Attribute is not allowed"),
    ("[1][0]", "is not allowed"),
    ("'a'*3", "is not a number"),
    ("True+1", "True is not a number"),
    ("1j*1j", "is not a number"),
    ("None", "None is not a number"),
    ("lambda: 1", "Lambda is not allowed"),
    ("[x for x in ()]", "ListComp is not allowed"),
    ("1<2", "Compare is not allowed"),
    ("1 if 1 else 2", "IfExp is not allowed"),
    ("1&3", "BitAnd is not allowed"),
    ("1<<400", "LShift is not allowed"),
    ("~1", "Invert is not allowed"),
    ("not 1", "Not is not allowed"),
    ("1/0", "division by zero"),
    ("1//0", "division by zero"),
    ("5%0", "division by zero"),
    ("0**-1", "division by zero"),
    ("1.5/0.0", "division by zero"),
    ("9**9**9", "exponent too large"),
    ("2**1000", "exponent too large"),
    ("10**100", "more than 100 digits"),
    ("2.0**1e6", "exponent too large"),
    ("1e308*10", "result too large"),
    ("(-8)**0.5", "complex result"),
    ("1" * 120, "more than 100 digits"),
    ("-" * 50 + "1", "nested deeper than 32"),
    ("1+", "syntax error"),
    ("48213+90412=", "syntax error"),
    ("007", "syntax error"),
    ("", "empty expression"),
    ("1+" * 101 + "1", f"longer than {MAX_EXPR_CHARS}"),
    ("1\x00", "syntax error"),
    ("import os", "syntax error"),
]


@pytest.mark.parametrize("expr,want", GOOD)
def test_calculator_values(expr, want):
    assert calculate(expr) == want
    assert calculator_tool(expr) == (want, False)


@pytest.mark.parametrize("expr,words", REFUSED)
def test_calculator_refuses(expr, words):
    text, error = calculator_tool(expr)
    assert error is True
    assert text.startswith("error: ") and words in text, text


def test_huge_exponents_are_refused_before_they_are_computed():
    t0 = time.perf_counter()
    for expr in ("9**9**9**9", "99999**99999", "(10**99)**(10**99)"):
        assert calculator_tool(expr).error
    assert time.perf_counter() - t0 < 0.5


@pytest.mark.parametrize("text,body", [
    ("<think><tool>1+2</tool>", "1+2"),
    ("<tool>1</tool> then <tool>2+2</tool>", "2+2"),  # the call that ends the text
    ("<tool></tool>", ""),
    ("x</tool>", None),  # a close marker without an open one is text
    ("<tool>1+2", None),
    ("<tool>1+2</tool> ", None),  # the call must end the text
])
def test_find_call(text, body):
    assert find_call(text, "<tool>", "</tool>") == body


def test_tool_env_counts_calls_and_errors_and_resets():
    env = ToolEnv(calculator_tool)
    env.reset(None)
    assert env.step("<tool>6*7</tool>") == ("<output>42</output>", False, 0.0)
    assert env.step("<tool>x</tool>") == ("<output>error: Name is not allowed</output>", False, 0.0)
    assert env.step("no call here") == ("", False, 0.0)
    assert (env.calls, env.errors) == (2, 1)
    env.reset(None)
    assert (env.calls, env.errors) == (0, 0)


def test_long_tool_output_is_cut():
    env = ToolEnv(lambda body: ToolResult("y" * 1000, False), max_output_chars=10)
    assert env.step("<tool>a</tool>").observation == "<output>yyyyyyy...</output>"
