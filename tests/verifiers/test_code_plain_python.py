"""Verdicts as plain Python decides them: each row's label is what ``python3`` gives when the
tests run against the program (the program imported as ``solution``; a test source's own
builtins are the real ones). Rows for decorated test functions, exceptions identified by
their real class, and a missing pytest (an ``error`` naming it, never a failed test).
"""

from __future__ import annotations

import subprocess

import pytest
from test_code_attack_table import BASE, needs_sandbox

from rlvr.types import Sample
from rlvr.verifiers import code as cv

ADD = "def add(a, b):\n    return a + b"
SUB = "def add(a, b):\n    return a - b"
# a decorator that supplies the test function's arguments: without it the call fails for any program
# (each source also holds an assert: it is then split into statements, each run as its own unit)
GIVEN = ("assert add(0, 0) == 0\n\ndef given(*args):\n    def wrap(f):\n        return lambda: f(*args)\n    return wrap\n\n"
         "@given(2, 3)\ndef check(a, b):\n    if add(a, b) != 5:\n        raise AssertionError('add(2, 3)')\n\ncheck()\n")
# a decorator that fails whatever the program does
NEVER = ("assert add(0, 0) == 0\n\ndef never(f):\n    def run(*args):\n        raise AssertionError('never passes')\n    return run\n\n"
         "@never\ndef check():\n    if add(1, 2) != 3:\n        raise ValueError('add')\n\ncheck()\n")
RAISES_VALUE = ("import unittest\n\nclass T(unittest.TestCase):\n    def test_empty(self):\n"
                "        with self.assertRaises(ValueError):\n            parse('')\n")
# ``__all__`` keeps the program's own exception classes out of ``from solution import *``, so the
# tests' ``ValueError`` / ``TimeoutError`` are the builtins in plain Python too
FAKE_VALUE = "__all__ = ['parse']\n\nclass ValueError(Exception):\n    pass\n\ndef parse(s):\n    raise ValueError('empty')"
SUB_VALUE = "__all__ = ['parse']\n\nclass ValueError(ValueError):\n    pass\n\ndef parse(s):\n    raise ValueError('empty')"
OWN_TIMEOUT = "__all__ = ['wait']\n\nclass TimeoutError(Exception):\n    pass\n\ndef wait():\n    raise TimeoutError('late')"
TIMEOUT_IMPORTED = ("import pytest\nfrom solution import TimeoutError, wait\n\n"
                    "def test_wait():\n    with pytest.raises(TimeoutError):\n        wait()\n")
TIMEOUT_BUILTIN = "import pytest\nfrom solution import wait\n\ndef test_wait():\n    with pytest.raises(TimeoutError):\n        wait()\n"
KEY_ARGS = "try:\n    parse('')\nexcept KeyError as e:\n    assert e.args == ('k',)\nelse:\n    assert False\n"

ROWS = [  # (name, program, tests, reward)
    ("decorator supplies the arguments: honest", ADD, GIVEN, 1.0),
    ("decorator supplies the arguments: wrong program", SUB, GIVEN, 0.0),
    ("decorator that always raises", ADD, NEVER, 0.0),
    ("class named ValueError, not derived from it", FAKE_VALUE, RAISES_VALUE, 0.0),
    ("subclass of ValueError named ValueError", SUB_VALUE, RAISES_VALUE, 1.0),
    ("int('') raises the real ValueError", "def parse(s):\n    return int(s)", RAISES_VALUE, 1.0),
    ("own TimeoutError, imported by the tests", OWN_TIMEOUT, TIMEOUT_IMPORTED, 1.0),
    ("own TimeoutError is not the builtin", OWN_TIMEOUT, TIMEOUT_BUILTIN, 0.0),
    ("KeyError keeps its args", "def parse(s):\n    raise KeyError('k')", KEY_ARGS, 1.0),
]


@pytest.mark.sandbox
@needs_sandbox
@pytest.mark.parametrize(("name", "program", "tests", "reward"), ROWS, ids=[r[0] for r in ROWS])
def test_row_is_what_plain_python_gives(name, program, tests, reward):
    completion = f"```python\n{program}\n```"
    verdict = cv.verify_code(completion, Sample(name, "p", fields={"tests": tests}), **BASE)
    assert verdict.reward == reward, verdict
    assert verdict.status == ("ok" if reward else "wrong"), verdict


PYTEST_TESTS = {"tests": "def test_add():\n    assert add(1, 2) == 3\n"}


def test_missing_pytest_is_an_error_naming_it(monkeypatch):
    monkeypatch.setattr(cv, "pytest_binds", lambda: None)  # pytest not installed beside the verifier
    verdict = cv.verify_code(f"```python\n{ADD}\n```", Sample("s", "p", fields=PYTEST_TESTS), **BASE)
    assert (verdict.reward, verdict.status) == (0.0, "error"), verdict
    assert "pip install pytest" in verdict.detail


@pytest.mark.sandbox
@needs_sandbox
def test_pytest_missing_in_the_sandbox_is_an_error_naming_it(monkeypatch):
    if subprocess.run([cv.CodeOptions().python, "-c", "import pytest"], capture_output=True).returncode == 0:
        pytest.skip("the sandbox's own python has pytest")
    monkeypatch.setattr(cv, "pytest_binds", lambda: ())  # nothing mounted: the sandbox's python has no pytest
    verdict = cv.verify_code(f"```python\n{ADD}\n```", Sample("s", "p", fields=PYTEST_TESTS), **BASE)
    assert (verdict.reward, verdict.status) == (0.0, "error"), verdict
    assert "ToolMissing: pytest-style tests need pytest" in verdict.detail, verdict.detail
