"""A third adversarial table for the code verifier: families found by testing it from outside,
against the rule that a verdict must equal what a pristine run of the same tests with plain
Python (or pytest, for pytest-style tests) in a fresh interpreter gives.

Attacks (``expect`` 0) are wrong programs that plain Python fails but a verifier could pay:
programs that never return (the hang family: status ``timeout``), tests that never run (pytest
functions and classes, a ``unittest.TestCase`` without ``unittest.main()``; a test source that
checks nothing is a data error, status ``error``), task functions named like builtins, crashes
inside a test's bare ``except:``, forbidden in-place mutations, dataclass equality, debug output
where the test requires silence, io output written after the main thread ends. Controls
(``expect`` 1) are correct programs that plain Python passes: candidate-defined objects used
as Python objects, generators without look-ahead, required in-place mutation, the test's process
state reaching the candidate, ``import solution``, pytest-style tests, threads, big outputs,
call-heavy tests.

Rows are ``code_redteam_rows.RedRow`` (``kind`` below says attack or control). Each row's label
was checked against a pristine run (``python bench/code_differential.py --rows``).
``tests/verifiers/test_code_blind.py`` runs them; ``python tests/verifiers/code_blind_rows.py
OUT.jsonl`` writes them for ``rlvr audit --verifier code OUT.jsonl``; ``--run`` verifies every
row here and prints agreement per family.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from code_attack_rows import GOOD_ADD, WRONG_ADD
from code_redteam_rows import RedRow

HANG = {"timeout_s": 2.0}  # a hang ends at the wall: keep it short (the default is 10 s)
DEFAULTS = {"timeout_s": 10.0, "case_timeout_s": 4.0}  # the verifier's default limits

LOOP_ADD = "def add(a, b):\n    while True:\n        pass"
# right on (0, 0), loops on everything else: passes every statement that finishes
ZERO_THEN_LOOP = "def add(a, b):\n    if a == 0 and b == 0:\n        return 0\n    while True:\n        pass"

HE_LAYOUT = {"tests": "METADATA = {'author': 'x', 'dataset': 'test'}\nassert add(0, 0) == 0\n\n"
                      "def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(2, 2) == 4\n\ncheck(add)\n",
             "entry_point": "add"}
MAIN_RUN_TESTS = {"tests": "def run_tests():\n    assert add(1, 2) == 3\n    assert add(5, 5) == 10\n\nassert add(0, 0) == 0\n"
                           "if __name__ == '__main__':\n    run_tests()\n"}
VERIFY_HELPER = {"tests": "def verify(f):\n    if f(1, 2) != 3:\n        raise AssertionError('1 + 2')\n\nassert add(0, 0) == 0\nverify(add)\n"}
STRESS_RAISE = {"tests": "assert add(0, 0) == 0\nfor i in range(1, 50):\n    if add(i, i) != 2 * i:\n        raise AssertionError(i)\n"}
HIDDEN_CHECK = {"tests": "assert add(0, 0) == 0",
                "hidden_tests": ["assert add(0, 0) == 0\ndef check(candidate):\n    assert candidate(4, 5) == 9\ncheck(add)"],
                "entry_point": "add"}
HIDDEN_CHECK_ONLY = {"tests": "assert add(0, 0) == 0",
                     "hidden_tests": "def check(candidate):\n    assert candidate(4, 5) == 9\n    assert candidate(0, 0) == 0\n",
                     "entry_point": "add"}

PYTEST_FUNCS = {"tests": "def test_small():\n    assert add(1, 2) == 3\n\ndef test_negative():\n    assert add(-4, 4) == 0\n"}
PYTEST_CLASS = {"tests": "class TestAdd:\n    def test_small(self):\n        assert add(1, 2) == 3\n\n"
                         "    def test_big(self):\n        assert add(10 ** 12, 1) == 10 ** 12 + 1\n"}
UNITTEST_NO_MAIN = {"tests": "import unittest\n\nclass AddTest(unittest.TestCase):\n    def test_add(self):\n"
                             "        self.assertEqual(add(1, 2), 3)\n        self.assertEqual(add(-1, 1), 0)\n"}
PYTEST_HIDDEN = {"tests": "assert add(0, 0) == 0", "hidden_tests": ["def test_hidden():\n    assert add(7, 8) == 15\n"]}
PYTEST_FIXTURES = {"tests": (
    "import pytest\n\n@pytest.fixture\ndef data():\n    return [3, 1, 2]\n\n"
    "def test_sort(data):\n    assert my_sort(data) == [1, 2, 3]\n\n"
    "def test_raises():\n    with pytest.raises(ValueError, match='empty'):\n        mean([])\n\n"
    "def test_approx():\n    assert mean([0.1, 0.2]) == pytest.approx(0.15)\n\n"
    "@pytest.mark.parametrize('xs, want', [([1], 1.0), ([1, 2, 3, 4], 2.5)])\n"
    "def test_param(xs, want):\n    assert mean(xs) == want\n")}
GOOD_MEAN = ("def my_sort(xs):\n    return sorted(xs)\n\ndef mean(xs):\n    if not xs:\n        raise ValueError('empty list')\n"
             "    return sum(xs) / len(xs)\n")
SKIP_IN_CALL = ("import unittest\ndef add(a, b):\n    if (a, b) == (1, 2):\n        return 3\n"
                "    raise unittest.SkipTest('not supported yet')")
PYTEST_SKIP_IN_CALL = ("def add(a, b):\n    if (a, b) == (1, 2):\n        return 3\n    import pytest\n"
                       "    pytest.skip('not supported yet')")
PYTEST_SKIP_MODULE = "import pytest\npytest.skip('later', allow_module_level=True)\n" + WRONG_ADD
PYTEST_XFAIL_IN_CALL = ("def add(a, b):\n    if (a, b) == (1, 2):\n        return 3\n    import pytest\n"
                        "    pytest.xfail('known bug')")
UNITTEST_MAIN = {"tests": UNITTEST_NO_MAIN["tests"] + "\nif __name__ == '__main__':\n    unittest.main()\n"}
PYTEST_DATASET_SKIP = {"tests": PYTEST_FUNCS["tests"] + "\nimport pytest\n\n@pytest.mark.skip(reason='flaky upstream')\n"
                                "def test_broken():\n    assert add(1, 1) == 3\n"}
NOTHING_PRINT = {"tests": "x = add(1, 2)\nprint(x)\n"}
NOTHING_IMPORT = {"tests": "import math\n# the checks were lost\n"}
NOTHING_EMPTY = {"tests": ["assert add(1, 2) == 3", "   \n# nothing here\n"]}
NOTHING_DEF = {"tests": "def helper(x):\n    assert add(x, 0) == x\n"}

POW = {"tests": "assert pow(2, 10) == 1024 % 1000\nassert pow(3, 7) == 2187 % 1000\n"}
SORTED_DESC = {"tests": "assert sorted([1, 3, 2]) == [3, 2, 1]\nassert sorted([]) == []\n"}
MAX_TUPLE = {"tests": "assert max([3, 9, 2]) == (9, 1)\nassert max([5]) == (5, 0)\n"}
SORTED_PLAIN = {"tests": "assert sorted([3, 1, 2]) == [1, 2, 3]\nassert sorted([2, 2, 1]) == [1, 2, 2]\n"}
POW_PLAIN = {"tests": "assert pow(2, 10) == 1024\nassert pow(5, 0) == 1\n"}
MAX_PLAIN = {"tests": "assert max([3, 9, 2]) == 9\nassert max([-1, -5]) == -1\n"}

BARE_EXCEPT = {"tests": "try:\n    parse('')\nexcept:\n    pass\nelse:\n    assert False, 'no error'\nassert parse('12') == 12\n"}
BARE_EXCEPT_ONLY = {"tests": "try:\n    parse('')\nexcept:\n    pass\nelse:\n    assert False, 'no error'\n",
                    "hidden_tests": ["try:\n    parse('x')\nexcept:\n    pass\nelse:\n    assert False\n"]}
EXC_EXCEPTION = {"tests": "try:\n    parse('')\nexcept Exception:\n    pass\nelse:\n    assert False, 'no error'\n"}
GOOD_PARSE = "def parse(s):\n    if not s.strip():\n        raise ValueError('empty')\n    return int(s)"


def crash(how: str) -> str:
    """A parse() that is right on digits and crashes the process on bad input."""
    return f"import os, signal, ctypes\ndef parse(s):\n    if s.strip().isdigit():\n        return int(s)\n    {how}\n"


SORT_COPY = {"tests": "xs = [3, 1, 2]\nassert sorted_copy(xs) == [1, 2, 3]\nassert xs == [3, 1, 2]\n"}
TUPLE_HELD = {"tests": "pair = ([3, 1, 2], 'x')\nassert smallest(pair) == 1\nassert pair == ([3, 1, 2], 'x')\n"}
TEST_OBJ_ATTR = {"tests": ("class Box:\n    def __init__(self, items):\n        self.items = items\n\n"
                           "b = Box([3, 1, 2])\nassert largest(b) == 3\nassert b.items == [3, 1, 2]\n")}
COUNTER_HELD = {"tests": "from collections import Counter\nc = Counter('aabbbc')\nassert top(c) == 'b'\nassert c == Counter('aabbbc')\n"}
DEQUE_HELD = {"tests": "from collections import deque\nd = deque([1, 2, 3])\nassert peek_last(d) == 3\nassert list(d) == [1, 2, 3]\n"}
NESTED_HELD = {"tests": "grid = [[1, 2], [3, 4]]\nassert total(grid) == 10\nassert grid == [[1, 2], [3, 4]]\n"}
KW_TUPLE_HELD = {"tests": "cfg = {'xs': ([5, 4],)}\nassert head(cfg) == 5\nassert cfg == {'xs': ([5, 4],)}\n"}

POINT_EQ = {"tests": "p = make_point(1, 2)\nassert p == Point(1, 2)\nassert make_point(0, 0) == Point(0, 0)\n"}

SILENT = {"tests": ("import io, contextlib\nbuf = io.StringIO()\nwith contextlib.redirect_stdout(buf):\n    r = square(4)\n"
                    "assert r == 16\nassert buf.getvalue() == '', buf.getvalue()\n")}
SILENT_ERR = {"tests": ("import io, contextlib\nbuf = io.StringIO()\nwith contextlib.redirect_stderr(buf):\n    r = square(4)\n"
                        "assert r == 16 and buf.getvalue() == ''\n")}
NO_WARNING = {"tests": ("import warnings\nwith warnings.catch_warnings():\n    warnings.simplefilter('error')\n"
                        "    assert square(3) == 9\n")}
CAPTURED_PRINT = {"tests": ("import io, contextlib\nbuf = io.StringIO()\nwith contextlib.redirect_stdout(buf):\n    greet('bob')\n"
                            "assert buf.getvalue() == 'Hello, bob\\n', buf.getvalue()\n")}
WARNS = {"tests": ("import warnings\nwith warnings.catch_warnings(record=True) as caught:\n    warnings.simplefilter('always')\n"
                   "    assert old_api(2) == 4\nassert len(caught) == 1 and issubclass(caught[0].category, DeprecationWarning)\n")}

IO_SUM = {"io_tests": [{"input": "1 2", "output": "3"}, {"input": "10 5", "output": "15"}]}
LATE_THREAD = ("import threading, time\na, b = map(int, input().split())\nprint(a + b, flush=True)\n"
               "def late():\n    time.sleep(0.2)\n    print('debug: done', flush=True)\nthreading.Thread(target=late).start()\n")
LATE_ATEXIT = ("import atexit\na, b = map(int, input().split())\nprint(a + b)\natexit.register(lambda: print('debug: exiting'))\n")
LATE_CHILD = ("import os, sys, time\na, b = map(int, input().split())\nprint(a + b, flush=True)\nif os.fork() == 0:\n"
              "    time.sleep(0.2)\n    os.write(1, b'debug: child\\n')\n    os._exit(0)\n")
LATE_FINALIZER = ("import sys\nclass Log:\n    def __del__(self):\n        sys.stdout.write('debug: bye\\n')\n"
                  "keep = Log()\na, b = map(int, input().split())\nprint(a + b)\n")

VECTOR = ("class Vector:\n    def __init__(self, x, y):\n        self.x, self.y = x, y\n"
          "    def __add__(self, o):\n        return Vector(self.x + o.x, self.y + o.y)\n"
          "    def __mul__(self, k):\n        return Vector(self.x * k, self.y * k)\n"
          "    def __eq__(self, o):\n        return isinstance(o, Vector) and (self.x, self.y) == (o.x, o.y)\n"
          "    def __hash__(self):\n        return hash((self.x, self.y))\n"
          "    def __repr__(self):\n        return f'Vector({self.x}, {self.y})'\n")
VECTOR_TESTS = {"tests": "assert Vector(1, 2) + Vector(3, 4) == Vector(4, 6)\nassert Vector(1, 2) * 3 == Vector(3, 6)\n"
                         "assert len({Vector(1, 1), Vector(1, 1)}) == 1\nassert sum([Vector(1, 0), Vector(0, 1)], Vector(0, 0)) == Vector(1, 1)\n"}
TRIE = ("class Trie:\n    def __init__(self):\n        self.words = set()\n    def insert(self, w):\n        self.words.add(w)\n"
        "    def __contains__(self, w):\n        return w in self.words\n    def __len__(self):\n        return len(self.words)\n"
        "    def __iter__(self):\n        return iter(sorted(self.words))\n")
TRIE_TESTS = {"tests": "t = Trie()\nfor w in ['app', 'apple']:\n    t.insert(w)\nassert 'app' in t and 'ap' not in t\n"
                       "assert len(t) == 2\nassert list(t) == ['app', 'apple']\nassert sorted(t, reverse=True) == ['apple', 'app']\n"}
ORDERED_DC = ("from dataclasses import dataclass\n@dataclass(order=True)\nclass Job:\n    priority: int\n    name: str\n"
              "def jobs():\n    return [Job(3, 'c'), Job(1, 'a'), Job(2, 'b')]\n")
ORDERED_DC_TESTS = {"tests": "assert min(jobs()).name == 'a'\nassert max(jobs()) == Job(3, 'c')\n"
                             "assert [j.name for j in sorted(jobs())] == ['a', 'b', 'c']\nassert Job(1, 'a') < Job(1, 'b')\n"}
BANK = ("class InsufficientFunds(Exception):\n    def __init__(self, balance, amount):\n        super().__init__(f'need {amount}, have {balance}')\n"
        "        self.balance = balance\n        self.amount = amount\n"
        "def withdraw(balance, amount):\n    if amount > balance:\n        raise InsufficientFunds(balance, amount)\n    return balance - amount\n")
BANK_TESTS = {"tests": "try:\n    withdraw(10, 25)\nexcept InsufficientFunds as e:\n    assert e.balance == 10 and e.amount == 25\n"
                       "    assert 'need 25' in str(e)\nelse:\n    assert False\nassert withdraw(30, 5) == 25\n"}
DATES = ("from datetime import date, datetime, timedelta\ndef add_days(d, n):\n    return d + timedelta(days=n)\n"
         "def deadline(start):\n    return start + timedelta(hours=36)\n")
DATES_TESTS = {"tests": "from datetime import date, datetime, timedelta\nassert add_days(date(2024, 2, 28), 2) == date(2024, 3, 1)\n"
                        "assert (deadline(datetime(2024, 1, 1)) - datetime(2024, 1, 1)).total_seconds() == 36 * 3600\n"
                        "assert add_days(date(2024, 1, 1), 1).isoformat() == '2024-01-02'\n"
                        "assert add_days(date(2024, 1, 1), 0) < date(2024, 1, 2)\n"}
GENTYPE = "def countdown(n):\n    while n > 0:\n        yield n\n        n -= 1\n"
GENTYPE_TESTS = {"tests": "import types, inspect\nassert isinstance(countdown(3), types.GeneratorType)\n"
                          "assert inspect.isgeneratorfunction(countdown)\nassert list(countdown(3)) == [3, 2, 1]\n"}
ASYNC = "import asyncio\nasync def double(x):\n    await asyncio.sleep(0)\n    return 2 * x\n"
ASYNC_TESTS = {"tests": "import asyncio\nassert asyncio.run(double(21)) == 42\n"
                        "async def both():\n    return await asyncio.gather(double(1), double(2))\nassert asyncio.run(both()) == [2, 4]\n"}
SHAPES = ("class Shape:\n    def area(self):\n        return 0\nclass Square(Shape):\n    def __init__(self, k):\n"
          "        self.k = k\n    def area(self):\n        return self.k * self.k\n"
          "def make(k):\n    return Square(k)\n")
SHAPES_WRONG = SHAPES.replace("    return Square(k)", "    return Shape()")
SHAPES_TESTS = {"tests": "s = make(3)\nassert type(s) is Square and type(s).__name__ == 'Square'\n"
                         "assert isinstance(s, Shape) and issubclass(Square, Shape) and not issubclass(Shape, Square)\n"
                         "assert s.area() == 9\n"}
ACCUMULATOR = ("def running():\n    total = 0\n    while True:\n        x = yield total\n        if x is None:\n"
               "            return total\n        total += x\n")
ACCUMULATOR_TESTS = {"tests": "g = running()\nassert next(g) == 0\nassert g.send(3) == 3\nassert g.send(4) == 7\n"
                              "try:\n    g.send(None)\nexcept StopIteration as stop:\n    assert stop.value == 7\n"
                              "else:\n    assert False\n"}
AWAIT_TESTS = {"tests": "import asyncio\nasync def main():\n    a = await double(2)\n    return await double(a)\n"
                        "assert asyncio.run(main()) == 8\n"}
NATURALS = "def naturals():\n    n = 0\n    while True:\n        yield n\n        n += 1\n"
NATURALS_TESTS = {"tests": "from itertools import islice\ng = naturals()\nassert list(islice(g, 5)) == [0, 1, 2, 3, 4]\n"
                           "assert next(g) == 5\nassert next(g) == 6\n"}
RISKY = ("produced = []\ndef risky():\n    for x in (1, 2):\n        produced.append(x)\n        yield x\n"
         "    raise ValueError('third')\n")
RISKY_TESTS = {"tests": "g = risky()\nassert next(g) == 1\nassert next(g) == 2\ntry:\n    next(g)\nexcept ValueError as e:\n"
                        "    assert str(e) == 'third'\nelse:\n    assert False\n"}
LAZY_SIDE = ("log = []\ndef tagged(xs):\n    for x in xs:\n        log.append(x)\n        yield x\ndef seen():\n    return list(log)\n")
LAZY_SIDE_TESTS = {"tests": "g = tagged([1, 2, 3, 4])\nassert next(g) == 1\nassert seen() == [1]\n"}

MUTATE = ("from collections import Counter, deque\ndef add_word(counts, w):\n    counts[w] += 1\n"
          "def rotate(d, k):\n    d.rotate(k)\ndef push(pair, x):\n    pair[0].append(x)\n"
          "def move(src, dst):\n    dst.append(src.pop())\n")
MUTATE_COUNTER = {"tests": "from collections import Counter\nc = Counter('ab')\nadd_word(c, 'a')\nassert c == Counter('aab')\n"}
MUTATE_DEQUE = {"tests": "from collections import deque\nd = deque([1, 2, 3])\nrotate(d, 1)\nassert d == deque([3, 1, 2])\n"}
MUTATE_TUPLE = {"tests": "pair = ([1], 'tag')\npush(pair, 2)\nassert pair == ([1, 2], 'tag')\n"}
MUTATE_ALIAS = {"tests": "xs = [1, 2, 3]\nmove(xs, xs)\nassert xs == [1, 2, 3]\nys = []\nmove([7], ys)\nassert ys == [7]\n"}
LENT = ("def fill(acc, n):\n    for i in range(n):\n        acc.items.append(i)\n    acc.counts['fill'] = n\n"
        "def total(acc):\n    s = sum(acc.items)\n    acc.items.clear()\n    return s\n")
LENT_FILL = {"tests": ("class Acc:\n    def __init__(self):\n        self.items, self.counts = [], {}\n\n"
                       "a = Acc()\nkept = a.items\nfill(a, 3)\nassert a.items == [0, 1, 2] and kept is a.items\n"
                       "assert a.counts == {'fill': 3}\n")}
LENT_TOTAL = {"tests": ("class Acc:\n    def __init__(self):\n        self.items, self.counts = [1, 2, 3], {}\n\n"
                        "a = Acc()\nassert total(a) == 6\nassert a.items == [1, 2, 3]\n")}
MUTATE_OBJ = {"tests": ("class Acc:\n    def __init__(self):\n        self.items = []\n\na = Acc()\ncollect(a, 3)\ncollect(a, 4)\n"
                        "assert a.items == [3, 4]\n")}

ENV = ("import os, sys, random\ndef mode():\n    return os.environ.get('APP_MODE', 'none')\ndef first_arg():\n"
       "    return int(sys.argv[1])\ndef read_sum():\n    return sum(map(int, sys.stdin.readline().split()))\n"
       "def rolls(n):\n    return [random.randint(1, 6) for _ in range(n)]\ndef ask():\n    return int(input('n? ')) ** 2\n"
       "def greet(name):\n    print(f'Hello, {name}')\n")
ENV_TESTS = {
    "environ": {"tests": "import os\nos.environ['APP_MODE'] = 'fast'\nassert mode() == 'fast'\n"},
    "argv": {"tests": "import sys\nsys.argv = ['prog', '41']\nassert first_arg() == 41\n"},
    "stdin": {"tests": "import io, sys\nsys.stdin = io.StringIO('3 4\\n')\nassert read_sum() == 7\n"},
    "random.seed": {"tests": "import random\nrandom.seed(7)\nwant = [random.randint(1, 6) for _ in range(5)]\nrandom.seed(7)\n"
                             "assert rolls(5) == want\n"},
    "redirect_stdout": CAPTURED_PRINT,
    "mock.patch builtins.input": {"tests": "from unittest import mock\nwith mock.patch('builtins.input', return_value='5'):\n"
                                           "    assert ask() == 25\n"},
}
COUNTER_MOD = "calls = 0\ndef tick():\n    global calls\n    calls += 1\n    return calls\n"
COUNTER_MOD_TESTS = {"tests": "tick()\ntick()\nassert calls == 2\nassert tick() == 3 and calls == 3\n"}

IMPORT_FROM = {"tests": "from solution import add\nassert add(1, 2) == 3\nassert add(-1, 1) == 0\n"}
IMPORT_MOD = {"tests": "import solution\nassert solution.add(1, 2) == 3\nassert hasattr(solution, 'add')\n"}

THREAD_IO = ("import threading, time\ndef main():\n    a, b = map(int, input().split())\n    time.sleep(0.1)\n    print(a + b)\n"
             "threading.Thread(target=main).start()\n")
THREADS_CALLING = {"tests": ("from concurrent.futures import ThreadPoolExecutor\nwith ThreadPoolExecutor(4) as ex:\n"
                             "    got = list(ex.map(square, range(200)))\nassert got == [i * i for i in range(200)]\n"
                             "import threading\nout = []\nts = [threading.Thread(target=lambda k=k: out.append(square(k))) for k in range(8)]\n"
                             "for t in ts:\n    t.start()\nfor t in ts:\n    t.join()\nassert sorted(out) == [k * k for k in range(8)]\n")}
BIG_N = 200_000
BIG_IO_OUT = "\n".join(f"{i:06d}" for i in range(BIG_N))  # 1.4 MB
BIG_IO = {"io_tests": [{"input": str(BIG_N), "output": BIG_IO_OUT}]}
BIG_STR = {"tests": "s = make(700_000)\nassert len(s) == 1_400_000 and s[:4] == 'abab'\nassert s == 'ab' * 700_000\n"}
MANY_CALLS = {"tests": "assert sum(inc(i) for i in range(600_000)) == sum(range(1, 600_001))\n"}
COUNTED = ("calls = []\ndef inv(x):\n    calls.append(x)\n    return 1 / x\ndef seen():\n    return list(calls)\n"
           "def halt_after_3(i):\n    if i > 3:\n        while True:\n            pass\n    return i == 3\n"
           "class Box:\n    def __init__(self, v):\n        self.v = v\ndef box(i):\n    calls.append(i)\n    return Box(i)\n")
COUNTED_TESTS = {"tests": ("try:\n    sum(inv(i) for i in range(-3, 4))\nexcept ZeroDivisionError:\n    pass\nelse:\n"
                           "    assert False\nassert seen() == [-3, -2, -1, 0]\n"
                           "assert any(halt_after_3(i) for i in range(10 ** 6))\n"
                           "assert [inv(x) for x in [1, 2, 4]] == [1.0, 0.5, 0.25]\n"
                           "boxes = [box(i) for i in range(4)]\nassert [b.v for b in boxes] == [0, 1, 2, 3]\n"
                           "assert sorted(inv(x) for x in (4, 1, 2)) == [0.25, 0.5, 1.0]\n"
                           "assert sum(undefined_name(i) for i in []) == 0\n"
                           "g = (inv(i) for i in range(1, 5))\nassert next(g) == 1.0\nassert seen()[-1] == 1\n")}
MANY_CALLS_WRONG = "def inc(x):\n    return x + 1 if x != 599_999 else x"


def _row(family: str, kind: str, name: str, program: str, fields: dict[str, Any], status: str | None = None,
         opts: dict[str, Any] | None = None, info: dict[str, float] | None = None) -> RedRow:
    expect = 1 if kind == "control" else 0
    return RedRow(family, f"{kind}: {name}", program, fields, expect, status, dict(opts or {}), info=dict(info or {}))


A, C = "attack", "control"
ROWS: list[RedRow] = [
    # ------------------------------------------------------------------ hangs: every statement must finish
    _row("hang", A, "HumanEval layout: top-level assert, check(candidate), check(entry) loops", ZERO_THEN_LOOP, HE_LAYOUT,
         "timeout", HANG),
    _row("hang", A, "HumanEval layout, a candidate that loops on every call", LOOP_ADD,
         {"tests": HE_LAYOUT["tests"].replace("assert add(0, 0) == 0\n", "assert callable(add)\n"), "entry_point": "add"},
         "timeout", HANG),
    _row("hang", A, "run_tests() under a main guard after a top-level assert", ZERO_THEN_LOOP, MAIN_RUN_TESTS, "timeout", HANG),
    _row("hang", A, "a verify(f) helper raising on a wrong result", ZERO_THEN_LOOP, VERIFY_HELPER, "timeout", HANG),
    _row("hang", A, "an if ...: raise stress loop", ZERO_THEN_LOOP, STRESS_RAISE, "timeout", HANG),
    _row("hang", A, "the check(candidate) call sits in the hidden tests", ZERO_THEN_LOOP, HIDDEN_CHECK, "timeout", HANG,
         {"visible_pass_rate": 1.0, "hidden_pass_rate": 0.0}),
    _row("hang", A, "hidden check(candidate) without a call (entry point appended)", ZERO_THEN_LOOP, HIDDEN_CHECK_ONLY,
         "timeout", HANG, {"visible_pass_rate": 1.0, "hidden_pass_rate": 0.0}),
    _row("hang", A, "a loop that sleeps instead of spinning", "import time\ndef add(a, b):\n    if a == b == 0:\n        return 0\n"
         "    while True:\n        time.sleep(0.05)", HE_LAYOUT, "timeout", HANG),
    _row("hang", C, "HumanEval layout with a correct candidate", GOOD_ADD, HE_LAYOUT),
    _row("hang", C, "run_tests() under a main guard, correct", GOOD_ADD, MAIN_RUN_TESTS),
    _row("hang", C, "stress loop, correct", GOOD_ADD, STRESS_RAISE),
    # ------------------------------------------------------------------ tests that never run
    _row("tests never run", A, "pytest test_* functions, wrong program", WRONG_ADD, PYTEST_FUNCS),
    _row("tests never run", A, "pytest class TestX, wrong program", WRONG_ADD, PYTEST_CLASS),
    _row("tests never run", A, "unittest.TestCase without unittest.main(), wrong program", WRONG_ADD, UNITTEST_NO_MAIN),
    _row("tests never run", A, "a hidden pytest function, program right on the visible case only",
         "def add(a, b):\n    return 0", PYTEST_HIDDEN, None, None, {"visible_pass_rate": 1.0, "hidden_pass_rate": 0.0}),
    _row("tests never run", A, "pytest fixtures/raises/approx, wrong program",
         "def my_sort(xs):\n    return xs\ndef mean(xs):\n    return 0.15 if len(xs) == 2 else 0", PYTEST_FIXTURES),
    _row("tests never run", A, "a test source that only prints", GOOD_ADD, NOTHING_PRINT, "error"),
    _row("tests never run", A, "a test source with only an import and a comment", GOOD_ADD, NOTHING_IMPORT, "error"),
    _row("tests never run", A, "one of the test strings is blank", GOOD_ADD, NOTHING_EMPTY, "error"),
    _row("tests never run", A, "a test source that defines a helper and never calls it", GOOD_ADD, NOTHING_DEF, "error"),
    _row("tests never run", A, "the program raises unittest.SkipTest inside pytest tests", SKIP_IN_CALL, PYTEST_FUNCS),
    _row("tests never run", A, "the program raises unittest.SkipTest inside TestCase run by unittest.main()", SKIP_IN_CALL,
         UNITTEST_MAIN),
    _row("tests never run", A, "the program raises unittest.SkipTest inside a TestCase without main()", SKIP_IN_CALL,
         UNITTEST_NO_MAIN),
    _row("tests never run", A, "the program calls pytest.skip() inside pytest tests", PYTEST_SKIP_IN_CALL, PYTEST_FUNCS),
    _row("tests never run", A, "the program skips its whole module at import (pytest.skip allow_module_level)",
         PYTEST_SKIP_MODULE, {"tests": "from solution import add\n" + PYTEST_FUNCS["tests"]}),
    _row("tests never run", A, "the program calls pytest.xfail() inside pytest tests", PYTEST_XFAIL_IN_CALL, PYTEST_FUNCS),
    _row("tests never run", C, "a test the dataset marks skip, the others pass", GOOD_ADD, PYTEST_DATASET_SKIP),
    _row("tests never run", C, "pytest test_* functions, correct", GOOD_ADD, PYTEST_FUNCS),
    _row("tests never run", C, "pytest class TestX, correct", GOOD_ADD, PYTEST_CLASS),
    _row("tests never run", C, "unittest.TestCase without unittest.main(), correct", GOOD_ADD, UNITTEST_NO_MAIN),
    _row("tests never run", C, "pytest fixtures, raises(match=), approx and parametrize, correct", GOOD_MEAN, PYTEST_FIXTURES),
    _row("tests never run", C, "a hidden pytest function, correct", GOOD_ADD, PYTEST_HIDDEN),
    # ------------------------------------------------------------------ task functions named like builtins
    _row("builtin names", A, "pow without an entry point, wrong (tests must get the candidate's)",
         "def pow(a, b):\n    return 0", POW_PLAIN),
    _row("builtin names", A, "sorted without an entry point, returns its input", "def sorted(xs):\n    return list(xs)", SORTED_PLAIN),
    _row("builtin names", A, "max without an entry point, returns the first item", "def max(xs):\n    return xs[0]", MAX_PLAIN),
    _row("builtin names", C, "pow modulo 1000 (differs from the builtin)", "def pow(a, b):\n    return (a ** b) % 1000", POW),
    _row("builtin names", C, "sorted descending (differs from the builtin)", "import builtins\ndef sorted(xs):\n    return builtins.sorted(xs, reverse=True)",
         SORTED_DESC),
    _row("builtin names", C, "max returning (value, index)", "def max(xs):\n    best = 0\n    for i, x in enumerate(xs):\n"
         "        if x > xs[best]:\n            best = i\n    return (xs[best], best)", MAX_TUPLE),
    _row("builtin names", C, "pow, sorted and max that agree with the builtins", "import builtins\npow = builtins.pow\n"
         "def sorted(xs):\n    return builtins.sorted(xs)\ndef max(xs):\n    return builtins.max(xs)",
         {"tests": POW_PLAIN["tests"] + SORTED_PLAIN["tests"] + MAX_PLAIN["tests"]}),
    # ------------------------------------------------------------------ crashes inside a test's bare except
    _row("crash in bare except", A, "os._exit(0) on bad input", crash("os._exit(0)"), BARE_EXCEPT),
    _row("crash in bare except", A, "SIGKILL to itself on bad input", crash("os.kill(os.getpid(), signal.SIGKILL)"), BARE_EXCEPT),
    _row("crash in bare except", A, "segfault through ctypes on bad input", crash("ctypes.string_at(0)"), BARE_EXCEPT),
    _row("crash in bare except", A, "os._exit(1) in visible and hidden must-raise tests", crash("os._exit(1)"), BARE_EXCEPT_ONLY),
    _row("crash in bare except", A, "SIGKILL under except Exception", crash("os.kill(os.getpid(), signal.SIGKILL)"), EXC_EXCEPTION),
    _row("crash in bare except", C, "ValueError on bad input", GOOD_PARSE, BARE_EXCEPT),
    _row("crash in bare except", C, "a KeyboardInterrupt caught by the bare except", "def parse(s):\n    if not s.strip():\n"
         "        raise KeyboardInterrupt\n    return int(s)", BARE_EXCEPT),
    # ------------------------------------------------------------------ forbidden in-place mutation
    _row("forbidden mutation", A, "sorting a list argument in place", "def sorted_copy(xs):\n    xs.sort()\n    return xs", SORT_COPY),
    _row("forbidden mutation", A, "a list inside a tuple argument sorted in place",
         "def smallest(pair):\n    pair[0].sort()\n    return pair[0][0]", TUPLE_HELD),
    _row("forbidden mutation", A, "a test object's list attribute sorted in place",
         "def largest(box):\n    box.items.sort()\n    return box.items[-1]", TEST_OBJ_ATTR),
    _row("forbidden mutation", A, "a Counter argument decremented", "def top(c):\n    k = c.most_common(1)[0][0]\n    c[k] -= 1\n    return k",
         COUNTER_HELD),
    _row("forbidden mutation", A, "a deque argument popped", "def peek_last(d):\n    return d.pop()", DEQUE_HELD),
    _row("forbidden mutation", A, "a nested list of the argument cleared", "def total(grid):\n    s = sum(map(sum, grid))\n"
         "    grid[1].clear()\n    return s", NESTED_HELD),
    _row("forbidden mutation", A, "a list in a tuple in a dict argument popped", "def head(cfg):\n    xs = cfg['xs'][0]\n"
         "    first = xs[0]\n    xs.pop()\n    return first", KW_TUPLE_HELD),
    _row("forbidden mutation", C, "copies instead of mutation", "def sorted_copy(xs):\n    return sorted(xs)\ndef smallest(pair):\n"
         "    return min(pair[0])\ndef largest(box):\n    return max(box.items)\ndef top(c):\n    return c.most_common(1)[0][0]\n"
         "def peek_last(d):\n    return d[-1]\ndef total(grid):\n    return sum(map(sum, grid))\ndef head(cfg):\n    return cfg['xs'][0][0]",
         {"tests": SORT_COPY["tests"] + TUPLE_HELD["tests"] + TEST_OBJ_ATTR["tests"] + COUNTER_HELD["tests"] + DEQUE_HELD["tests"]
          + NESTED_HELD["tests"] + KW_TUPLE_HELD["tests"]}),
    # ------------------------------------------------------------------ dataclass equality
    _row("dataclass equality", A, "a dataclass with eq=False (identity equality)", "from dataclasses import dataclass\n"
         "@dataclass(eq=False)\nclass Point:\n    x: int\n    y: int\ndef make_point(x, y):\n    return Point(x, y)", POINT_EQ),
    _row("dataclass equality", A, "a dataclass whose __eq__ compares the wrong fields", "from dataclasses import dataclass\n"
         "@dataclass\nclass Point:\n    x: int\n    y: int\n    def __eq__(self, o):\n        return self.x == o.y and self.y == o.x\n"
         "def make_point(x, y):\n    return Point(x, y)", POINT_EQ),
    _row("dataclass equality", A, "a dataclass whose __eq__ is always False", "from dataclasses import dataclass\n"
         "@dataclass\nclass Point:\n    x: int\n    y: int\n    def __eq__(self, o):\n        return False\n"
         "    __hash__ = object.__hash__\ndef make_point(x, y):\n    return Point(x, y)", POINT_EQ),
    _row("dataclass equality", A, "a namedtuple-like class with eq by identity", "class Point:\n    __slots__ = ('x', 'y')\n"
         "    def __init__(self, x, y):\n        self.x, self.y = x, y\ndef make_point(x, y):\n    return Point(x, y)", POINT_EQ),
    _row("dataclass equality", C, "a plain dataclass", "from dataclasses import dataclass\n@dataclass(frozen=True)\nclass Point:\n"
         "    x: int\n    y: int\ndef make_point(x, y):\n    return Point(x, y)", POINT_EQ),
    _row("dataclass equality", C, "a dataclass whose __eq__ ignores a cache field", "from dataclasses import dataclass, field\n"
         "@dataclass\nclass Point:\n    x: int\n    y: int\n    cache: dict = field(default_factory=dict, compare=False)\n"
         "def make_point(x, y):\n    p = Point(x, y)\n    p.cache['n'] = x * x + y * y\n    return p", POINT_EQ),
    # ------------------------------------------------------------------ silence required
    _row("silence required", A, "a debug print where the test captures stdout", "def square(x):\n    print('debug', x)\n    return x * x",
         SILENT),
    _row("silence required", A, "a debug print to stderr where the test captures it", "import sys\ndef square(x):\n"
         "    print('debug', x, file=sys.stderr)\n    return x * x", SILENT_ERR),
    _row("silence required", A, "a warning where the test turns warnings into errors", "import warnings\ndef square(x):\n"
         "    warnings.warn('slow path')\n    return x * x", NO_WARNING),
    _row("silence required", A, "a print where the test captures the exact greeting", "def greet(name):\n    print('Hello,', name.upper())",
         CAPTURED_PRINT),
    _row("silence required", C, "a silent square", "def square(x):\n    return x * x", {"tests": SILENT["tests"] + SILENT_ERR["tests"]
                                                                                    + NO_WARNING["tests"]}),
    _row("silence required", C, "a debug print where the test does not capture", "def square(x):\n    print('debug', x)\n"
         "    return x * x", {"tests": "assert square(4) == 16\nassert square(-3) == 9\n"}),
    _row("silence required", C, "5 MB of debug output where the test does not capture", "import sys\ndef square(x):\n"
         "    for i in range(50_000):\n        print('debug line', i, 'of the square of', x, '-' * 60)\n"
         "    print('warning', file=sys.stderr)\n    return x * x", {"tests": "assert square(4) == 16\n"}),
    _row("silence required", C, "a DeprecationWarning the test records", "import warnings\ndef old_api(x):\n"
         "    warnings.warn('use new_api', DeprecationWarning, stacklevel=2)\n    return 2 * x", WARNS),
    # ------------------------------------------------------------------ io output after the main thread ends
    _row("late io output", A, "a thread printing after the main thread ends", LATE_THREAD, IO_SUM),
    _row("late io output", A, "an atexit handler printing", LATE_ATEXIT, IO_SUM),
    _row("late io output", A, "a forked child writing after the parent exits", LATE_CHILD, IO_SUM),
    _row("late io output", A, "a finalizer printing at interpreter exit", LATE_FINALIZER, IO_SUM),
    _row("late io output", C, "the answer printed from a thread never joined", THREAD_IO, IO_SUM),
    _row("late io output", C, "the answer printed from an atexit handler", "import atexit\na, b = map(int, input().split())\n"
         "atexit.register(print, a + b)", IO_SUM),
    _row("late io output", C, "the answer buffered and flushed at exit", "import sys\na, b = map(int, input().split())\n"
         "sys.stdout.write(str(a + b))", IO_SUM),
    # ------------------------------------------------------------------ candidate objects as Python objects
    _row("python objects", C, "Vector + Vector, * and hashing", VECTOR, VECTOR_TESTS),
    _row("python objects", C, "x in trie, len and iteration", TRIE, TRIE_TESTS),
    _row("python objects", C, "min/max/sorted on ordered dataclasses", ORDERED_DC, ORDERED_DC_TESTS),
    _row("python objects", C, "a custom exception's attributes (e.balance)", BANK, BANK_TESTS),
    _row("python objects", C, "datetime arithmetic on returned values", DATES, DATES_TESTS),
    _row("python objects", C, "isinstance(g, GeneratorType)", GENTYPE, GENTYPE_TESTS),
    _row("python objects", C, "asyncio.run on a returned coroutine", ASYNC, ASYNC_TESTS),
    _row("python objects", C, "type(x) is CandidateClass", VECTOR, {"tests": "v = Vector(1, 2) + Vector(0, 0)\nassert type(v) is Vector\n"
                                                                                "assert type(v).__name__ == 'Vector'\n"}),
    _row("python objects", C, "type(x) is a subclass of the program's, isinstance by its base", SHAPES, SHAPES_TESTS),
    _row("python objects", A, "type(x) is Square, but the program returns a Shape", SHAPES_WRONG, SHAPES_TESTS),
    _row("python objects", C, "gen.send and the StopIteration value", ACCUMULATOR, ACCUMULATOR_TESTS),
    _row("python objects", A, "gen.send, a generator that never returns its total",
         ACCUMULATOR.replace("            return total", "            return 0"), ACCUMULATOR_TESTS),
    _row("python objects", C, "a test coroutine awaiting the program's coroutines", ASYNC, AWAIT_TESTS),
    _row("python objects", A, "awaited coroutine computing the wrong value", ASYNC.replace("2 * x", "x + 2"), AWAIT_TESTS),
    # ------------------------------------------------------------------ generators without look-ahead
    _row("lazy generators", C, "islice(g, 5) then next(g)", NATURALS, NATURALS_TESTS),
    _row("lazy generators", C, "an item that raises is raised only when reached", RISKY, RISKY_TESTS),
    _row("lazy generators", C, "a generator's side effects happen only when items are taken", LAZY_SIDE, LAZY_SIDE_TESTS),
    # ------------------------------------------------------------------ required in-place mutation
    _row("required mutation", C, "a Counter argument updated in place", MUTATE, MUTATE_COUNTER),
    _row("required mutation", C, "a deque argument rotated in place", MUTATE, MUTATE_DEQUE),
    _row("required mutation", C, "a list inside a tuple appended to", MUTATE, MUTATE_TUPLE),
    _row("required mutation", C, "one list passed twice (aliasing kept)", MUTATE, MUTATE_ALIAS),
    _row("required mutation", C, "a test object's list attribute appended to", "def collect(acc, x):\n    acc.items.append(x)", MUTATE_OBJ),
    _row("required mutation", C, "a test object's list appended to in a loop, and its dict updated", LENT, LENT_FILL),
    _row("required mutation", A, "a test object's list emptied by the program", LENT, LENT_TOTAL),
    # ------------------------------------------------------------------ the test's process state reaches the candidate
    *[_row("process state", C, f"the test sets {what}", ENV, fields) for what, fields in ENV_TESTS.items()],
    _row("process state", C, "a module counter read by the tests", COUNTER_MOD, COUNTER_MOD_TESTS),
    _row("process state", C, "the program sets os.environ and the test reads it", "import os\ndef configure(mode):\n"
         "    os.environ['APP_MODE'] = mode", {"tests": "import os\nconfigure('slow')\nassert os.environ['APP_MODE'] == 'slow'\n"}),
    _row("process state", C, "the program writes a file the test reads", "def save(path, text):\n    with open(path, 'w') as fh:\n"
         "        fh.write(text)", {"tests": "import os, tempfile\np = os.path.join(tempfile.mkdtemp(), 'out.txt')\nsave(p, 'hi')\n"
                                        "assert open(p).read() == 'hi'\n"}),
    _row("process state", C, "the program changes directory and the test sees it", "import os\ndef enter(path):\n    os.chdir(path)",
         {"tests": "import os, tempfile\nd = os.path.realpath(tempfile.mkdtemp())\nenter(d)\nassert os.getcwd() == d\n"}),
    # ------------------------------------------------------------------ the candidate as a module
    _row("solution module", C, "from solution import f", GOOD_ADD, IMPORT_FROM),
    _row("solution module", C, "import solution", GOOD_ADD, IMPORT_MOD),
    _row("solution module", A, "from solution import f, wrong program", WRONG_ADD, IMPORT_FROM),
    # ------------------------------------------------------------------ threads, sizes, call-heavy tests
    _row("threads and scale", C, "several test threads calling the candidate", "def square(x):\n    return x * x", THREADS_CALLING),
    _row("threads and scale", C, "a 1.4 MB io output", "n = int(input())\nprint('\\n'.join(f'{i:06d}' for i in range(n)))", BIG_IO,
         None, DEFAULTS),
    _row("threads and scale", C, "a 1.4 MB returned string", "def make(n):\n    return 'ab' * n", BIG_STR),
    _row("threads and scale", C, "600,000 cheap calls into the candidate (0.2 s in plain Python)", "def inc(x):\n    return x + 1",
         MANY_CALLS, None, DEFAULTS),
    _row("threads and scale", A, "600,000 calls, the last one wrong", MANY_CALLS_WRONG, MANY_CALLS, None, DEFAULTS),
    _row("threads and scale", C, "comprehensions calling the candidate: calls made exactly as written (an exception "
         "mid-way, any() stopping early, objects, lazy next)", COUNTED, COUNTED_TESTS, None, DEFAULTS),
]

ATTACKS = [r for r in ROWS if not r.expect]
CONTROLS = [r for r in ROWS if r.expect]


def row_id(row: RedRow) -> str:
    return f"{row.family}: {row.name}"


def families() -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for row in ROWS:
        counts = out.setdefault(row.family, {"attack": 0, "control": 0})
        counts["control" if row.expect else "attack"] += 1
    return out


def jsonl_rows() -> list[dict[str, Any]]:
    """The table as ``rlvr audit`` rows: id, completion, the sample's test fields, expected."""
    return [{"id": f"{k:03d} {row_id(row)}", "completion": row.completion(), **row.fields, "expected": row.expect}
            for k, row in enumerate(ROWS)]


def agrees(row: RedRow, verdict: Any) -> bool:
    """The row's rule: a control passes; an attack earns 0 with its status (``wrong`` or
    ``timeout`` unless the row names one) and its required ``info`` values."""
    if row.expect:
        return (verdict.reward, verdict.status) == (1.0, "ok")
    allowed = (row.status,) if row.status else ("wrong", "timeout")
    return (verdict.reward == 0.0 and verdict.status in allowed
            and all(verdict.info.get(k) == v for k, v in row.info.items()))


def run_all(base: dict[str, Any]) -> dict[str, list[tuple[RedRow, Any]]]:
    """Verify every row here; failures by family (the rows that do not agree, with verdicts)."""
    from rlvr.types import Sample, Verdict
    from rlvr.verifiers import code as cv

    failed: dict[str, list[tuple[RedRow, Any]]] = {family: [] for family in families()}
    for row in ROWS:
        try:
            verdict = cv.verify_code(row.completion(), Sample(row.name, "p", fields=dict(row.fields)), **dict(base, **row.opts))
        except Exception as exc:  # a verifier crash disagrees with every row
            verdict = Verdict(0.0, "crash", f"verify_code raised {type(exc).__name__}: {exc}")
        if not agrees(row, verdict):
            failed[row.family].append((row, verdict))
    return failed


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[1] == "--run":
        failed = run_all({"timeout_s": 4.0, "case_timeout_s": 1.0})
        for family, counts in families().items():
            bad = failed[family]
            print(f"{family}: {counts['attack']} attacks, {counts['control']} controls, {len(bad)} disagree")
            for row, verdict in bad:
                print(f"    {row.name}: reward {verdict.reward} {verdict.status}: {verdict.detail[:160]}")
        return 0
    if len(argv) != 2:
        print(f"usage: {argv[0]} OUT.jsonl | --run", file=sys.stderr)
        return 2
    Path(argv[1]).write_text("".join(json.dumps(record) + "\n" for record in jsonl_rows()), encoding="utf-8")
    print(f"wrote {len(ROWS)} rows to {argv[1]}: {families()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
