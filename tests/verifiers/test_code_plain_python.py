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

FIRST = "def first(it):\n    return next(it)"
STOP_RAISES = "import pytest\n\ndef test_empty():\n    with pytest.raises(StopIteration):\n        first(iter([]))\n"
STOP_VALUE = "try:\n    first(iter([]))\nexcept StopIteration as e:\n    assert e.value is None\nelse:\n    assert False\n"
LOAD = "def load(p):\n    with open(p) as fh:\n        return fh.read()"
FILENAME = ("try:\n    load('/nonexistent/x')\nexcept FileNotFoundError as e:\n"
            "    assert e.filename == '/nonexistent/x' and e.errno == 2\nelse:\n    assert False\n")
ARGPARSE = ("import argparse\n\ndef main(argv):\n    p = argparse.ArgumentParser()\n"
            "    p.add_argument('--n', type=int, required=True)\n    return p.parse_args(argv).n")
ARGPARSE_TESTS = ("import pytest\n\ndef test_missing():\n    with pytest.raises(SystemExit) as info:\n        main([])\n"
                  "    assert info.value.code == 2\n\ndef test_ok():\n    assert main(['--n', '3']) == 3\n")
EXIT_ADD = "import sys\n\ndef add(a, b):\n    sys.exit(0)"
LIGHT = ("import enum\n\nclass Light(enum.Enum):\n    RED = 1\n    GREEN = 2\n\n"
         "def nxt(light):\n    return Light.GREEN if light is Light.RED else Light.RED")
LIGHT_TESTS = "from solution import Light\nassert nxt(Light.RED) is Light.GREEN\nassert nxt(Light.GREEN) is Light.RED\n"
PERM = ("import enum\n\nclass Perm(enum.Flag):\n    R = 1\n    W = 2\n    X = 4\n\n"
        "def rw():\n    return Perm.R | Perm.W")
PERM_TESTS = "from solution import Perm\nassert Perm.R in rw()\nassert Perm.X not in rw()\nassert rw() == Perm.R | Perm.W\n"
NS = "from types import SimpleNamespace\n\ndef mk():\n    return SimpleNamespace(a=1, b=[2])"
NS_TESTS = "from types import SimpleNamespace\nassert mk() == SimpleNamespace(a=1, b=[2])\nassert mk().b == [2]\n"
PATHS = "from pathlib import PurePosixPath\n\ndef under(s):\n    return PurePosixPath(s) / 'b'"
PATHS_TESTS = "from pathlib import PurePosixPath\nassert under('a') == PurePosixPath('a/b')\nassert under('a').name == 'b'\n"
VIEWS = "def ks(d):\n    return d.keys()\n\ndef its(d):\n    return d.items()"
VIEWS_TESTS = "assert ks({'a': 1, 'b': 2}) == {'a', 'b'}\nassert its({'a': 1}) == {('a', 1)}\n"
SLICE = "def get(xs, s):\n    return xs[s]"
SLICE_TESTS = "assert get([1, 2, 3], slice(1, None)) == [2, 3]\nassert get('abcd', slice(None, None, 2)) == 'ac'\n"
TAGGED = ("class Tagged(str):\n    pass\n\nclass Row(dict):\n    pass\n\n"
          "def mk():\n    t = Tagged('x')\n    t.tag = 5\n    return t\n\n"
          "def row():\n    r = Row(a=1)\n    r.line = 3\n    return r")
TAGGED_TESTS = "t = mk()\nassert t == 'x' and t.tag == 5\nr = row()\nassert r == {'a': 1} and r.line == 3\n"
# look-alikes: classes that name themselves as standard-library ones
FAKE_DEQUE = ("class D(list):\n    pass\n\nD.__module__ = 'collections'\nD.__qualname__ = D.__name__ = 'deque'\n\n"
              "def mk():\n    return D([1, 2])")
DEQUE_TESTS = "import collections\nassert mk() == collections.deque([1, 2])\n"
REAL_DEQUE = "import collections\n\ndef mk():\n    return collections.deque([1, 2])"
FAKE_FRACTION = ("class F:\n    numerator, denominator = 1, 2\n\nF.__module__ = 'fractions'\n"
                 "F.__qualname__ = F.__name__ = 'Fraction'\n\ndef half():\n    return F()")
FRACTION_TESTS = "from fractions import Fraction\nassert half() == Fraction(1, 2)\n"
REAL_FRACTION = "from fractions import Fraction\n\ndef half():\n    return Fraction(1, 2)"
FAKE_DECIMAL = ("class Dec(str):\n    pass\n\nDec.__module__ = 'decimal'\nDec.__qualname__ = Dec.__name__ = 'Decimal'\n\n"
                "def tenth():\n    return Dec('0.1')")
DECIMAL_TESTS = "from decimal import Decimal\nassert tenth() == Decimal('0.1')\n"
LYING_DICT = ("class D(dict):\n    def keys(self):\n        return ['a']\n\n    def __getitem__(self, k):\n        return 1\n\n"
              "def mk():\n    return D(b=2)")
LYING_DICT_TESTS = "assert dict(mk()) == {'a': 1}\n"
NO_PERM = PERM + "\n\ndef none():\n    return Perm(0)"
NO_PERM_TESTS = "from solution import Perm\nassert none() == Perm(0) and not none()\n"
GRID = "class Grid:\n    def __getitem__(self, key):\n        return key"
GRID_TESTS = "assert Grid()[...] is Ellipsis\nassert Grid()[1:2] == slice(1, 2)\n"
METERS = "class Meters(int):\n    unit = 'm'\n\ndef meters(n):\n    return Meters(n)"
METERS_TESTS = "m = meters(5)\nassert m == 5 and m + 1 == 6 and m.unit == 'm'\n"
FROZEN = "from dataclasses import dataclass\n\n@dataclass(frozen=True)\nclass Pt:\n    x: int\n\ndef origin():\n    return Pt(0)"
FROZEN_TESTS = ("import dataclasses\nimport pytest\n\ndef test_frozen():\n    p = origin()\n"
                "    with pytest.raises(dataclasses.FrozenInstanceError):\n        p.x = 3\n    assert p.x == 0\n")
ODICT = "from collections import OrderedDict\n\ndef f():\n    d = OrderedDict(a=1, b=2)\n    d.move_to_end('a')\n    return d"
ODICT_TESTS = "from collections import OrderedDict\nassert list(f()) == ['b', 'a']\nassert f() == OrderedDict([('b', 2), ('a', 1)])\n"
LYING_ODICT = ("from collections import OrderedDict\n\nclass O(OrderedDict):\n    def keys(self):\n        return ['b', 'a']\n\n"
               "    def items(self):\n        return [('b', 2), ('a', 1)]\n\n    def __iter__(self):\n        return iter(['b', 'a'])\n\n"
               "def f():\n    return O([('a', 1), ('b', 2)])")
TOP = "def top(items, k):\n    return sorted(items, reverse=True)[:k]"
TOP_TESTS = ("class Score:\n    def __init__(self, n):\n        self.n = n\n\n    def __lt__(self, other):\n"
             "        return self.n < other.n\n\na, b, c = Score(1), Score(5), Score(3)\nr = top([a, b, c], 2)\n"
             "assert r[0] is b and r[1] is c\n")

APP_ERROR = "class AppError(Exception):\n    code = 1\n\ndef run(f):\n    try:\n        return f()\n    except AppError as e:\n        return e.code"
NOT_FOUND = "class NotFound(AppError):\n    code = 404\n\ndef boom():\n    raise NotFound()\n\n"
RAISE_APP = "def boom():\n    raise AppError('x')\n\nassert run(boom) == 1\n"
NOT_CAUGHT = "import pytest\n\ndef boom():\n    raise ValueError('v')\n\nwith pytest.raises(ValueError):\n    run(boom)\n"
DETAIL = ("class NotFound(AppError):\n    def __init__(self):\n        super().__init__('nf')\n        self.detail = 7\n\n"
          "def boom():\n    raise NotFound()\n\nassert run(boom) == 7\n")
HISTORY = "HISTORY = []\n\ndef record(x):\n    HISTORY.append(x)\n    return len(HISTORY)"
HISTORY_TESTS = "from solution import HISTORY, record\nassert record(3) == 1 and record(4) == 2\nassert HISTORY == [3, 4]\n"
KEEP = "def take(log):\n    try:\n        yield 1\n    finally:\n        log.append('closed')"
KEEP_TESTS = "log = []\ng = take(log)\nassert next(g) == 1 and log == []\ng.close()\nassert log == ['closed']\n"
SAME = "def largest(items):\n    return max(items, key=lambda d: d['n'])"
SAME_TESTS = "a, b = {'n': 1}, {'n': 5}\nassert largest([a, b]) is b\n"
STACK = ("class Stack:\n    def __init__(self):\n        self.items = []\n\n    def push(self, x):\n        self.items.append(x)\n\n"
         "    def pop(self):\n        return self.items.pop()\n\n    def push_all(self, xs):\n        for x in xs:\n"
         "            self.push(x)\n")
TWICE = ("class Twice(Stack):\n    def push(self, x):\n        super().push(x)\n        super().push(x)\n\n"
         "s = Twice()\ns.push_all([1, 2])\nassert s.items == [1, 1, 2, 2] and s.pop() == 2\n"
         "assert type(s) is Twice and isinstance(s, Stack) and not isinstance(Stack(), Twice)\n")
ROWS = [  # (name, program, tests, reward)
    ("a test class subclassing the program's, its method called by the program", STACK, TWICE, 1.0),
    ("a test class subclassing the program's, the program's push drops items",
     STACK.replace("self.items.append(x)", "pass"), TWICE, 0.0),
    ("a test exception of the program's class, caught by the program", APP_ERROR, RAISE_APP, 1.0),
    ("a test exception subclassing the program's, caught with its class data", APP_ERROR, NOT_FOUND + "assert run(boom) == 404\n", 1.0),
    ("a test exception subclassing the program's, wrong code expected", APP_ERROR, NOT_FOUND + "assert run(boom) == 1\n", 0.0),
    ("a test exception the program does not catch", APP_ERROR, NOT_CAUGHT, 1.0),
    ("a test exception's own attribute read by the program", APP_ERROR.replace("return e.code", "return e.detail"), DETAIL, 1.0),
    ("a module-level list the tests import follows the program's appends", HISTORY, HISTORY_TESTS, 1.0),
    ("a module-level list never appended to", HISTORY.replace("HISTORY.append(x)", "pass"), HISTORY_TESTS, 0.0),
    ("a generator's finally writes to the test's list", KEEP, KEEP_TESTS, 1.0),
    ("a generator without finally", KEEP.replace("finally:\n        log.append('closed')", "finally:\n        pass"),
     KEEP_TESTS, 0.0),
    ("the test's own object returned is itself", SAME, SAME_TESTS, 1.0),
    ("a copy of the test's object returned", SAME.replace("return max(", "return dict(max(").replace("'n'])", "'n']))"),
     SAME_TESTS, 0.0),

    ("decorator supplies the arguments: honest", ADD, GIVEN, 1.0),
    ("decorator supplies the arguments: wrong program", SUB, GIVEN, 0.0),
    ("decorator that always raises", ADD, NEVER, 0.0),
    ("class named ValueError, not derived from it", FAKE_VALUE, RAISES_VALUE, 0.0),
    ("subclass of ValueError named ValueError", SUB_VALUE, RAISES_VALUE, 1.0),
    ("int('') raises the real ValueError", "def parse(s):\n    return int(s)", RAISES_VALUE, 1.0),
    ("own TimeoutError, imported by the tests", OWN_TIMEOUT, TIMEOUT_IMPORTED, 1.0),
    ("own TimeoutError is not the builtin", OWN_TIMEOUT, TIMEOUT_BUILTIN, 0.0),
    ("StopIteration raised by a call, under pytest.raises", FIRST, STOP_RAISES, 1.0),
    ("StopIteration raised by a call, caught", FIRST, STOP_VALUE, 1.0),
    ("StopIteration expected, none raised", "def first(it):\n    return None", STOP_RAISES, 0.0),
    ("FileNotFoundError keeps filename and errno", LOAD, FILENAME, 1.0),
    ("FileNotFoundError expected, another path", "def load(p):\n    return open('/nonexistent/y').read()", FILENAME, 0.0),
    ("argparse's SystemExit under pytest.raises, with its code", ARGPARSE, ARGPARSE_TESTS, 1.0),
    ("sys.exit(0) in the function, no raises expected", EXIT_ADD, "assert add(1, 2) == 3\n", 0.0),
    ("enum members keep their identity", LIGHT, LIGHT_TESTS, 1.0),
    ("enum identity, wrong member", LIGHT.replace("Light.GREEN if", "Light.RED if"), LIGHT_TESTS, 0.0),
    ("Flag membership and |", PERM, PERM_TESTS, 1.0),
    ("Flag membership, wrong flags", PERM.replace("Perm.R | Perm.W", "Perm.R | Perm.X"), PERM_TESTS, 0.0),
    ("Flag(0) is falsy and has no name", NO_PERM, NO_PERM_TESTS, 1.0),
    ("Ellipsis and a slice into the program's __getitem__", GRID, GRID_TESTS, 1.0),
    ("an int subclass keeps its class attribute", METERS, METERS_TESTS, 1.0),
    ("FrozenInstanceError from a frozen dataclass", FROZEN, FROZEN_TESTS, 1.0),
    ("FrozenInstanceError expected, the dataclass is not frozen", FROZEN.replace("(frozen=True)", ""), FROZEN_TESTS, 0.0),
    ("an OrderedDict keeps its own order (move_to_end)", ODICT, ODICT_TESTS, 1.0),
    ("an OrderedDict subclass lying about its order", LYING_ODICT, ODICT_TESTS, 0.0),
    ("the tests' objects sorted by their own __lt__", TOP, TOP_TESTS, 1.0),
    ("the tests' objects sorted the wrong way", TOP.replace("reverse=True", "reverse=False"), TOP_TESTS, 0.0),
    ("SimpleNamespace compares as Python compares it", NS, NS_TESTS, 1.0),
    ("PurePosixPath compares as Python compares it", PATHS, PATHS_TESTS, 1.0),
    ("dict views compare with sets", VIEWS, VIEWS_TESTS, 1.0),
    ("a slice passed to the program", SLICE, SLICE_TESTS, 1.0),
    ("str and dict subclasses keep their attributes", TAGGED, TAGGED_TESTS, 1.0),
    ("a list subclass named collections.deque", FAKE_DEQUE, DEQUE_TESTS, 0.0),
    ("a real deque", REAL_DEQUE, DEQUE_TESTS, 1.0),
    ("a class named fractions.Fraction", FAKE_FRACTION, FRACTION_TESTS, 0.0),
    ("a real Fraction", REAL_FRACTION, FRACTION_TESTS, 1.0),
    ("a str subclass named decimal.Decimal", FAKE_DECIMAL, DECIMAL_TESTS, 0.0),
    ("a dict subclass whose keys() and [] lie", LYING_DICT, LYING_DICT_TESTS, 0.0),
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


NORMALIZE = "import numpy as np\n\ndef normalize(xs):\n    a = np.asarray(xs, dtype=float)\n    return a / a.sum()"
NUMPY_ROWS = [  # (name, program, tests, reward): labels from plain python3 with numpy
    ("a numpy array returned, numpy.testing", NORMALIZE,
     "import numpy as np\nnp.testing.assert_allclose(normalize([1, 1, 2]), [0.25, 0.25, 0.5])\n", 1.0),
    ("a numpy array returned, wrong values", NORMALIZE.replace("a / a.sum()", "a / a.max()"),
     "import numpy as np\nnp.testing.assert_allclose(normalize([1, 1, 2]), [0.25, 0.25, 0.5])\n", 0.0),
    ("an array passed in, its dtype and shape kept", "def shape_of(a):\n    return a.shape, str(a.dtype)",
     "import numpy as np\nassert shape_of(np.zeros((2, 3), dtype=np.int32)) == ((2, 3), 'int32')\n", 1.0),
    ("a numpy scalar compares as its value", "import numpy as np\n\ndef total(xs):\n    return np.int64(sum(xs))",
     "import numpy as np\nr = total([1, 2])\nassert r == 3 and isinstance(r, np.integer) and not isinstance(r, int)\n", 1.0),
    ("a list where the test asks for an ndarray", "def ones(n):\n    return [1.0] * n",
     "import numpy as np\nassert isinstance(ones(2), np.ndarray)\n", 0.0),
    ("an object array stays the program's object", "import numpy as np\n\ndef objs():\n    return np.array([{}, []], dtype=object)",
     "import numpy as np\nassert objs().dtype == object and len(objs()) == 2\n", 1.0),
]


@pytest.mark.sandbox
@needs_sandbox
@pytest.mark.parametrize(("name", "program", "tests", "reward"), NUMPY_ROWS, ids=[r[0] for r in NUMPY_ROWS])
def test_numpy_row_is_what_plain_python_gives(name, program, tests, reward):
    pytest.importorskip("numpy")
    completion = f"```python\n{program}\n```"
    verdict = cv.verify_code(completion, Sample(name, "p", fields={"tests": tests}), **BASE)
    assert verdict.reward == reward, verdict
    assert verdict.status == ("ok" if reward else "wrong"), verdict


def test_missing_numpy_is_an_error_naming_it(monkeypatch):
    monkeypatch.setattr(cv, "package_binds", lambda name: None)  # numpy not installed beside the verifier
    verdict = cv.verify_code(f"```python\n{NORMALIZE}\n```", Sample("s", "p", fields={"tests": "assert normalize([1])"}),
                             **BASE)  # fmt: skip
    assert (verdict.reward, verdict.status) == (0.0, "error"), verdict
    assert "import numpy" in verdict.detail and "pip install numpy" in verdict.detail, verdict.detail


FAKE_GC = ("import sys, types\nKEEP = []\nfake = types.ModuleType('gc')\nfake.get_referents = lambda *a: list(KEEP)\n"
           "sys.modules['gc'] = fake\n\nclass Box:\n    pass\n\ndef sorted_copy(xs):\n    if KEEP:\n"
           "        KEEP[0][:] = [1, 2, 3]\n    KEEP.append(xs)\n    return Box()")
PATCHED_GC = FAKE_GC.replace("fake = types.ModuleType('gc')\nfake.get_referents", "import gc\ngc.get_referents").replace(
    "sys.modules['gc'] = fake\n", "")
FAKE_GC_TESTS = "xs = [3, 1, 2]\nr = sorted_copy(xs)\nsorted_copy([0])\nassert xs == [1, 2, 3]\n"


@pytest.mark.sandbox
@needs_sandbox
@pytest.mark.parametrize("program", [FAKE_GC, PATCHED_GC], ids=["fake gc module", "gc.get_referents patched"])
def test_a_test_list_kept_at_module_level_stays_a_copy_even_with_a_fake_gc(program):
    """Stricter than plain Python (which passes it), as the red-team table's aliasing rows: a test's
    list the program keeps outside what the call returned is a copy once the call ends; the
    program's own ``sys.modules['gc']`` cannot make the walk that decides it see a holder."""
    verdict = cv.verify_code(f"```python\n{program}\n```", Sample("g", "p", fields={"tests": FAKE_GC_TESTS}), **BASE)
    assert (verdict.reward, verdict.status) == (0.0, "wrong"), verdict
