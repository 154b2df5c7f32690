"""Code verifier: extraction, test plans, value codec, normalisation, and honest end-to-end runs."""

from __future__ import annotations

import ast
import os

import pytest

from rlvr import sandbox
from rlvr.types import Sample
from rlvr.verifiers import code as cv

REASON = sandbox.probe() or (None if os.path.exists("/usr/bin/python3") else "/usr/bin/python3 missing")
needs_sandbox = pytest.mark.skipif(REASON is not None, reason=f"sandbox unavailable: {REASON}")


def block(src: str, lang: str = "python") -> str:
    return f"Here is my solution.\n```{lang}\n{src}\n```\n"


# ----------------------------------------------------------------------------- pure parent-side pieces

EXTRACT_ROWS = [
    ("```python\na = 1\n```", "a = 1\n"),
    ("```py\na = 1\n```", "a = 1\n"),
    ("```\na = 1\n```", "a = 1\n"),
    ("```python\nfirst\n```\ntext\n```python\nsecond\n```", "second\n"),  # the last one counts
    ("```python\nfirst\n```\n```bash\nls\n```", "first\n"),  # other languages ignored
    ("```python\nnever closed", None),
    ("no code at all", None),
    ("```python\nF = '```'\nG = \"```python\"\n```", "F = '```'\nG = \"```python\"\n"),  # fences in strings
    ("Use ```x``` inline.\n```python\nx = 1\n```  \n", "x = 1\n"),  # inline backticks, trailing blanks
    ("  ```python\n  y = 2\n  ```", "  y = 2\n"),  # indented fences (up to 3 spaces)
]


@pytest.mark.parametrize("completion, expected", EXTRACT_ROWS)
def test_extract_code(completion, expected):
    assert cv.extract_code(completion) == expected


def test_plan_splits_setup_from_cases_and_collects_names():
    sample = Sample("s", "p", fields={
        "tests": "import math\nX = 3\nassert f(X) == 9\nassert 16 == f(4)\nassert f(2)\n"
                 "for k in range(3):\n    assert f(k) == k * k\n",
        "hidden_tests": ["assert f(123) == 'hidden-15129'"],
    })  # fmt: skip
    plan = cv.build_plan(sample)
    assert [(c.kind, c.hidden) for c in plan.cases] == [("assert", False)] * 4 + [("assert", True)]
    assert [u["case"] for u in plan.units] == [None, None, 0, 1, 2, 3, 4]
    assert {"X", "f", "k", "range"} <= plan.names and "math" not in plan.names  # the test imports its own
    assert plan.cases[0].label == "assert f(X) == 9"
    # ``assert A == B`` binds both sides for the failure message; nothing else is rewritten
    assert plan.units[2]["src"] == "assert (_rlvr_l := (f(X))) == (_rlvr_r := (9)), _rlvr_why(_rlvr_l, _rlvr_r)"
    assert plan.units[4]["src"] == "assert f(2)"


def test_plan_whole_source_is_one_case_when_no_top_level_assert():
    src = "def check(candidate):\n    assert candidate(2) == 4\n\ncheck(f)\n"
    plan = cv.build_plan(Sample("s", "p", fields={"tests": src}))
    assert [(c.kind, u["case"]) for c, u in zip(plan.cases, plan.units)] == [("assert", 0)]
    assert "check(f)" in plan.units[0]["src"]


def test_plan_calls_an_uncalled_check_with_the_entry_point():
    src = "def check(candidate):\n    assert candidate(2) == 4\n"
    plan = cv.build_plan(Sample("s", "p", fields={"tests": src, "entry_point": "double"}))
    assert plan.units[0]["src"].endswith("\ncheck(double)\n") and "double" in plan.names
    with pytest.raises(ValueError, match="never call it"):
        cv.build_plan(Sample("s", "p", fields={"tests": src}))


def test_plan_io_and_errors():
    plan = cv.build_plan(Sample("s", "p", fields={"io_tests": [{"input": "1", "output": "2"}]}))
    assert plan.io == [(0, "1")] and plan.cases[0].expect == "2" and plan.units == []
    with pytest.raises(ValueError, match="no tests"):
        cv.build_plan(Sample("s", "p", fields={}))
    with pytest.raises(ValueError, match="'input' and 'output'"):
        cv.build_plan(Sample("s", "p", fields={"io_tests": [{"input": "1"}]}))


def test_own_timeout_covers_the_sandbox_limit():
    assert cv.own_timeout_s() == cv.CodeOptions.timeout_s + cv.START_MARGIN_S
    assert cv.own_timeout_s({"timeout_s": 30.0}) == 30.0 + cv.START_MARGIN_S


NORM_ROWS = [
    ("lines", b"3\n", b"3", True),
    ("lines", b"1 2  \r\n3\n\n\n", b"1 2\n3", True),
    ("lines", b"\n\n1\n", b"1\n", True),
    ("lines", b"1 2\n3", b"1\n2 3", False),
    ("lines", b"  1", b"1", False),  # leading spaces are kept
    ("tokens", b"1 2\n3", b"1\n2 3", True),
    ("exact", b"3\n", b"3", False),
]


@pytest.mark.parametrize("mode, got, expected, same", NORM_ROWS)
def test_output_normalisation(mode, got, expected, same):
    norm = cv._NORMALISERS[mode]
    assert (norm(got) == norm(expected)) is same


def test_unknown_option_is_an_error_listing_valid_names():
    with pytest.raises(TypeError, match="partial_credit"):
        cv.verify_code(block("x = 1"), Sample("s", "p", fields={"tests": "assert x == 1"}), partial=True)


def test_no_code_block_is_no_answer():
    verdict = cv.verify_code("I think the answer is 42.", Sample("s", "p", fields={"tests": "assert True"}))
    assert (verdict.reward, verdict.status) == (0.0, "no_answer")


def test_refuses_loudly_without_a_sandbox(monkeypatch):
    monkeypatch.setattr(sandbox, "probe", lambda: "bwrap not found on PATH (test)")
    verdict = cv.verify_code(block("x = 1"), Sample("s", "p", fields={"tests": "assert x == 1"}))
    assert (verdict.reward, verdict.status) == (0.0, "error")
    assert "sandbox unavailable: bwrap not found" in verdict.detail and "allow_unsandboxed" in verdict.detail


def test_bad_sample_is_an_error():
    verdict = cv.verify_code(block("x = 1"), Sample("s", "p", fields={"tests": "assert (("}))
    assert verdict.status == "error" and "bad sample" in verdict.detail


# ----------------------------------------------------------------------------- end to end, honest programs

ADD = Sample("add", "p", fields={"tests": "assert add(1, 2) == 3\nassert add(-1, 1) == 0",
                                 "hidden_tests": ["assert add(10, 5) == 15", "assert add(0, 0) == 0"]})  # fmt: skip
GOOD_ADD = block("def add(a, b):\n    return a + b")

PASS_ROWS = [
    ("literal asserts", GOOD_ADD, ADD),
    ("setup, helpers and loops",
     block("def sq(x):\n    return x * x"),
     Sample("s", "p", fields={"tests": "import math\nvals = [0, 1, 5]\ndef ref(v):\n    return v ** 2\n"
                                       "for v in vals:\n    assert sq(v) == ref(v)\n"
                                       "assert all(sq(v) >= 0 for v in vals)\n"
                                       "assert abs(sq(0.5) - 0.25) < 1e-12\nassert sq(3) in {9, 10}\n"
                                       "assert type(sq(2)) == int\nassert sq(2) is not None"})),
    ("humaneval style check(candidate)",
     block("def inc(x):\n    return x + 1"),
     Sample("s", "p", fields={"tests": "def check(candidate):\n    assert candidate(1) == 2\n"
                                       "    assert candidate(-1) == 0\n\ncheck(inc)\n"})),
    ("class under test",
     block("class Stack:\n    def __init__(self):\n        self.items = []\n"
           "    def push(self, x):\n        self.items.append(x)\n"
           "    def pop(self):\n        return self.items.pop()\n"
           "    def __len__(self):\n        return len(self.items)"),
     Sample("s", "p", fields={"tests": "s = Stack()\ns.push(1)\ns.push(2)\nassert len(s) == 2\n"
                                       "assert s.pop() == 2\nassert s.pop() == 1"})),
    ("main guard and a stray input() do not break assert mode",
     block("def double(x):\n    return 2 * x\n\nif __name__ == '__main__':\n    print(double(int(input())))\n"),
     Sample("s", "p", fields={"tests": ["assert double(4) == 8", "assert double(0) == 0"]})),
    ("io with sloppy whitespace",
     block("import sys\na, b = map(int, sys.stdin.read().split())\nprint(a + b, ' ')\nprint()"),
     Sample("s", "p", fields={"io_tests": [{"input": "1 2\n", "output": "3\n"}, {"input": "5\n7", "output": "12"}],
                              "hidden_tests": [{"input": "100 -1", "output": "99\r\n"}]})),
    ("io program calling sys.exit(0) at the end",
     block("print(input()[::-1])\nimport sys\nsys.exit(0)"),
     Sample("s", "p", fields={"io_tests": [{"input": "abc", "output": "cba"}]})),
    ("both forms together",
     block("def f(x):\n    return x * 3\n\nif __name__ == '__main__':\n    print(f(int(input())))"),
     Sample("s", "p", fields={"tests": "assert f(2) == 6", "io_tests": [{"input": "3", "output": "9"}]})),
]  # fmt: skip


@pytest.mark.sandbox
@needs_sandbox
@pytest.mark.parametrize("name, completion, sample", PASS_ROWS, ids=[r[0] for r in PASS_ROWS])
def test_honest_programs_pass(name, completion, sample):
    verdict = cv.verify_code(completion, sample)
    assert (verdict.reward, verdict.status) == (1.0, "ok"), verdict.detail
    assert verdict.info["pass_rate"] == 1.0 and verdict.info["sandboxed"] == 1.0


@pytest.mark.sandbox
@needs_sandbox
def test_rates_are_reported_apart_and_partial_credit_is_opt_in():
    half = block("def add(a, b):\n    return a + b if a != 10 else 0")  # fails one hidden test of four
    verdict = cv.verify_code(half, ADD)
    assert (verdict.reward, verdict.status) == (0.0, "wrong")
    assert verdict.info == {"pass_rate": 0.75, "visible_pass_rate": 1.0, "hidden_pass_rate": 0.5,
                            "n_tests": 4.0, "sandboxed": 1.0}  # fmt: skip
    assert verdict.detail == "passed 3/4 (visible 2/2, hidden 1/2); first failure: hidden test: AssertionError"
    assert cv.verify_code(half, ADD, partial_credit=True).reward == 0.75


@pytest.mark.sandbox
@needs_sandbox
def test_failure_details_show_visible_values_only():
    verdict = cv.verify_code(block("def add(a, b):\n    return a - b"), ADD)
    assert "first failure: test 'assert add(1, 2) == 3': AssertionError: got -1, expected 3" in verdict.detail
    io = Sample("s", "p", fields={"hidden_tests": [{"input": "", "output": "secret-out"}]})
    verdict = cv.verify_code(block("print('nope')"), io)
    assert verdict.detail.endswith("hidden test: wrong output") and "secret" not in verdict.detail


@pytest.mark.sandbox
@needs_sandbox
def test_syntax_error_and_runtime_error_are_wrong():
    verdict = cv.verify_code(block("def add(a, b) return a"), ADD)
    assert verdict.status == "wrong" and "SyntaxError" in verdict.detail
    io = Sample("s", "p", fields={"io_tests": [{"input": "", "output": "1"}]})
    verdict = cv.verify_code(block("print(1)\nraise ValueError('late')"), io)
    assert verdict.status == "wrong" and "exit status 1" in verdict.detail and "ValueError: late" in verdict.detail


@pytest.mark.sandbox
@needs_sandbox
def test_unsandboxed_fallback_is_marked(monkeypatch):
    monkeypatch.setattr(sandbox, "probe", lambda: "bwrap not found on PATH (test)")
    verdict = cv.verify_code(GOOD_ADD, ADD, allow_unsandboxed=True)
    assert (verdict.reward, verdict.status) == (1.0, "ok")
    assert verdict.detail.startswith("UNSANDBOXED: ") and verdict.info["sandboxed"] == 0.0


@pytest.mark.sandbox
@needs_sandbox
def test_runtime_ships_compiled_or_as_source(monkeypatch):
    blob = cv.runtime_blob("/usr/bin/python3", False)
    assert isinstance(blob, bytes) and len(blob) > 1000  # compiled by the sandbox's own python
    monkeypatch.setattr(cv, "runtime_blob", lambda python, allow: None)
    verdict = cv.verify_code(GOOD_ADD, ADD)
    assert (verdict.reward, verdict.status) == (1.0, "ok")


def test_rlvr_verify_default_timeout_is_never_below_the_sandbox_limit():
    from rlvr.commands.verify import DEFAULT_TIMEOUT_S, default_timeout
    from rlvr.verifiers import proof

    assert default_timeout(["exact", "math"]) == DEFAULT_TIMEOUT_S
    assert default_timeout(["code"]) == cv.own_timeout_s() > cv.CodeOptions.timeout_s
    assert default_timeout(['{"name": "code", "options": {"timeout_s": 40}}']) == 40 + cv.START_MARGIN_S
    assert default_timeout(["math", "proof"]) == proof.own_timeout_s() > proof.ProofOptions.timeout_s
    assert default_timeout(['{"composite": {"code": 1.0, "format": 0.1}}']) == cv.own_timeout_s()


def test_the_trainers_reward_pool_never_times_out_before_the_sandbox():
    """reward.timeout_s defaults to 3 s; a code run may take its own 10 s + start-up: the pool waits."""
    from rlvr.config import load_config
    from rlvr.verifiers import code as cv
    from rlvr.verifiers.rewarder import Rewarder

    for verifier, expected in (("exact", 3.0), ("code", cv.own_timeout_s())):
        rewarder = Rewarder(load_config(overrides=[f"reward.verifier={verifier}", "reward.workers=0"]).reward)
        try:
            assert rewarder.timeout_s == expected and rewarder.pool.timeout_s == expected
        finally:
            rewarder.close()
    rewarder = Rewarder(load_config(overrides=["reward.verifier=code", "reward.timeout_s=60",
                                               "reward.workers=0"]).reward)
    assert rewarder.timeout_s == 60  # a longer configured timeout is kept
    rewarder.close()


@pytest.mark.parametrize("source", [
    "assert f(1) == 2\nassert g('é', 3) == [1,\n  2]\r\nx = 1\rassert h() == 'ü'\n",
    "def f():\n    return 1\n\nassert f() == 1  # c\nassert (f()\n   == 1)\n",
    "assert 'a\\nb' == x\n\x0c\nassert y == '\\r'\n",
    "assert 𝓍(1) == '日本'\nassert [i for i in\r\n range(3)] == [0, 1, 2]",
])
def test_test_text_is_cut_where_the_parser_says(source):
    """The plan's statement text (case labels, rewritten asserts) equals ast.get_source_segment
    for every node: lines ending in \\n, \\r\\n or \\r, a form feed, non-ASCII columns (bytes)."""
    from rlvr.verifiers.code import _segment

    nodes = [n for n in ast.walk(ast.parse(source)) if getattr(n, "end_lineno", None) is not None]
    assert len(nodes) > 5
    for node in nodes:
        assert _segment(source, node) == ast.get_source_segment(source, node), ast.dump(node)


# ----------------------------------------------------------------------------- the test styles datasets use

F_GOOD = "def f(x):\n    if x < 0:\n        raise ValueError(x)\n    return 2 * x"
F_BAD = "def f(x):\n    return 2 * x"  # never raises
PYTEST_SRC = ("import pytest\n@pytest.fixture\ndef base():\n    return 10\n\ndef test_fixture(base):\n"
              "    assert f(base) == 20\n\n@pytest.mark.parametrize('x, y', [(1, 2), (0.1, 0.2)])\n"
              "def test_approx(x, y):\n    assert f(x) == pytest.approx(y)\n\ndef test_raises():\n"
              "    with pytest.raises(ValueError):\n        f(-1)\n\nclass TestF:\n    def test_method(self):\n"
              "        assert f(2) == 4\n")  # fmt: skip
UNITTEST_SRC = ("import unittest\nclass TestF(unittest.TestCase):\n    def test_value(self):\n"
                "        self.assertEqual(f(2), 4)\n    def test_raises(self):\n"
                "        with self.assertRaises(ValueError):\n            f(-1)\n")  # fmt: skip
SOLUTION = "class Solution:\n    def twoSum(self, nums, target):\n        seen = {}\n" \
           "        for i, x in enumerate(nums):\n            if target - x in seen:\n" \
           "                return [seen[target - x], i]\n            seen[x] = i"
STYLE_ROWS = [
    ("pytest functions, fixtures, parametrize, approx, raises and a class", F_GOOD, F_BAD, {"tests": PYTEST_SRC}),
    ("pytest tests importing the candidate", F_GOOD, F_BAD, {"tests": "from solution import f\n" + PYTEST_SRC}),
    ("pytest tests in the hidden set", F_GOOD, F_BAD, {"tests": "assert f(1) == 2", "hidden_tests": [PYTEST_SRC]}),
    ("unittest.TestCase without unittest.main()", F_GOOD, F_BAD, {"tests": UNITTEST_SRC}),
    ("import solution / from solution import", F_GOOD, "def f(x):\n    return x",
     {"tests": "import solution\nassert solution.f(2) == 4\nfrom solution import f as g\nassert g(3) == 6"}),
    ("a task named like a builtin, no entry point", "def pow(a, b):\n    return a ** b",
     "def pow(a, b):\n    return a * b", {"tests": "assert pow(2, 3) == 8\nassert pow(3, 2) == 9"}),
    ("a builtin-named entry point the program does not define", "def sorted(xs):\n    return list(xs)[::-1]",
     "def my_sorted(xs):\n    return list(xs)[::-1]",
     {"tests": "assert sorted([1, 2]) == [2, 1]", "entry_point": "sorted"}),
    ("LeetCode Solution().method with input/output lists", SOLUTION,
     "class Solution:\n    def twoSum(self, nums, target):\n        return [0, 1]",
     {"call_tests": [{"input": [[2, 7, 11, 15], 9], "output": [0, 1]}, {"input": [[3, 2, 4], 6], "output": [1, 2]}],
      "entry_point": "Solution().twoSum"}),
    ("HumanEval check(candidate) with a method entry point", SOLUTION,
     "class Solution:\n    def twoSum(self, nums, target):\n        return [0, 1]",
     {"tests": "def check(candidate):\n    assert candidate([3, 2, 4], 6) == [1, 2]\n",
      "entry_point": "Solution().twoSum"}),
]  # fmt: skip


@pytest.mark.sandbox
@needs_sandbox
@pytest.mark.parametrize("good, bad, fields", [r[1:] for r in STYLE_ROWS], ids=[r[0] for r in STYLE_ROWS])
def test_each_test_style_runs_its_tests(good, bad, fields):
    sample = Sample("s", "p", fields=fields)
    verdict = cv.verify_code(block(good), sample)
    assert (verdict.reward, verdict.status) == (1.0, "ok"), verdict.detail
    verdict = cv.verify_code(block(bad), sample)
    assert (verdict.reward, verdict.status) == (0.0, "wrong"), verdict.detail


def test_collected_tests_are_one_case_per_source():
    plan = cv.build_plan(Sample("s", "p", fields={"tests": PYTEST_SRC, "hidden_tests": [UNITTEST_SRC]}))
    labels = [(c.hidden, c.label.split(":")[0]) for c in plan.cases]
    assert labels == [(False, "pytest tests"), (True, "unittest tests")]
    assert plan.pytest and plan.units[1]["src"] == "_rlvr_collect(['TestF', 'base', 'test_approx', 'test_fixture', " \
        "'test_raises'], 'pytest')"
    # a source that runs its own tests is not collected again
    own = UNITTEST_SRC + "\nif __name__ == '__main__':\n    unittest.main()\n"
    assert "_rlvr_collect" not in str(cv.build_plan(Sample("s", "p", fields={"tests": own})).units)
    with pytest.raises(ValueError, match="entry_point"):
        cv.build_plan(Sample("s", "p", fields={"call_tests": [{"input": [1], "output": 2}]}))


VECTOR = ("class Vector:\n    def __init__(self, x, y):\n        self.x, self.y = x, y\n"
          "    def __add__(self, o):\n        return Vector(self.x + o.x, self.y + o.y)\n"
          "    def __mul__(self, k):\n        return Vector(self.x * k, self.y * k)\n"
          "    def __eq__(self, o):\n        return isinstance(o, Vector) and (self.x, self.y) == (o.x, o.y)\n"
          "    def __hash__(self):\n        return hash((self.x, self.y))\n")
OBJECT_ROWS = [  # candidate objects used as Python objects across the boundary
    ("operators and hashing between candidate objects", VECTOR,
     "assert Vector(1, 2) + Vector(3, 4) == Vector(4, 6)\nassert Vector(1, 2) * 3 == Vector(3, 6)\n"
     "assert len({Vector(1, 1), Vector(1, 1)}) == 1\nassert Vector(0, 0) != Vector(0, 1)"),
    ("membership asks the candidate's container",
     "class Bag:\n    def __init__(self, *xs):\n        self.xs = list(xs)\n    def __contains__(self, x):\n"
     "        return x in self.xs", "assert 2 in Bag(1, 2)\nassert 5 not in Bag(1, 2)"),
    ("an exception's own attributes",
     "class Low(Exception):\n    def __init__(self, need):\n        super().__init__(f'need {need}')\n"
     "        self.need = need\ndef pay(x):\n    raise Low(x)",
     "try:\n    pay(5)\nexcept Low as e:\n    assert e.need == 5 and str(e) == 'need 5'\nelse:\n    assert False"),
    ("datetime values", "from datetime import date, timedelta\ndef later(d, n):\n    return d + timedelta(days=n)",
     "from datetime import date\nassert later(date(2024, 2, 28), 2) == date(2024, 3, 1)\n"
     "assert later(date(2024, 1, 1), 1) - date(2024, 1, 1) == later(date(2024, 1, 1), 1) - date(2024, 1, 1)"),
    ("a generator is never read ahead", "def nat():\n    n = 0\n    while True:\n        yield n\n        n += 1",
     "from itertools import islice\ng = nat()\nassert list(islice(g, 3)) == [0, 1, 2]\nassert next(g) == 3"),
    ("test threads calling the candidate", "def sq(x):\n    return x * x",
     "from concurrent.futures import ThreadPoolExecutor\nwith ThreadPoolExecutor(4) as ex:\n"
     "    got = list(ex.map(sq, range(100)))\nassert got == [i * i for i in range(100)]"),
]  # fmt: skip


@pytest.mark.sandbox
@needs_sandbox
@pytest.mark.parametrize("program, tests", [r[1:] for r in OBJECT_ROWS], ids=[r[0] for r in OBJECT_ROWS])
def test_candidate_objects_behave_as_python_objects(program, tests):
    verdict = cv.verify_code(block(program), Sample("s", "p", fields={"tests": tests}))
    assert (verdict.reward, verdict.status) == (1.0, "ok"), verdict.detail


STATEFUL = ("import os, sys, random, warnings\ndef mode():\n    return os.environ.get('APP_MODE', 'none')\n"
            "def first_arg():\n    return int(sys.argv[1])\n"
            "def read_sum():\n    return sum(map(int, input().split()))\n"
            "def rolls(n):\n    return [random.randint(1, 6) for _ in range(n)]\n"
            "def square(x, noisy=False):\n    if noisy:\n        print('debug')\n"
            "        warnings.warn('old', DeprecationWarning)\n    return x * x\n"
            "def configure(mode):\n    os.environ['APP_MODE'] = mode\n"
            "def enter(path):\n    os.chdir(path)\n")  # fmt: skip
PROCESS_ROWS = [  # (tests, reward): what the test set up is what the candidate's calls see
    ("import os\nos.environ['APP_MODE'] = 'fast'\nassert mode() == 'fast'", 1.0),
    ("import os\nconfigure('slow')\nassert os.environ['APP_MODE'] == 'slow'", 1.0),  # and back
    ("import os, tempfile\nd = os.path.realpath(tempfile.mkdtemp())\nenter(d)\nassert os.getcwd() == d", 1.0),
    ("import sys\nsys.argv = ['prog', '41']\nassert first_arg() == 41", 1.0),
    ("import io, sys\nsys.stdin = io.StringIO('3 4\\n')\nassert read_sum() == 7", 1.0),
    ("from unittest import mock\nwith mock.patch('builtins.input', return_value='5 6'):\n"
     "    assert read_sum() == 11", 1.0),
    ("import random\nrandom.seed(7)\nwant = [random.randint(1, 6) for _ in range(5)]\nnext_one = random.random()\n"
     "random.seed(7)\nassert rolls(5) == want\nassert random.random() == next_one", 1.0),  # the state comes back
    ("import io, contextlib\nbuf = io.StringIO()\nwith contextlib.redirect_stdout(buf):\n    r = square(4)\n"
     "assert r == 16 and buf.getvalue() == ''", 1.0),
    ("import io, contextlib\nbuf = io.StringIO()\nwith contextlib.redirect_stdout(buf):\n    r = square(4, True)\n"
     "assert r == 16 and buf.getvalue() == ''", 0.0),  # the debug print is seen
    ("import warnings\nwith warnings.catch_warnings():\n    warnings.simplefilter('error')\n"
     "    assert square(3, True) == 9", 0.0),  # the warning is an error where the test says so
    ("import warnings\nwith warnings.catch_warnings(record=True) as seen:\n    warnings.simplefilter('always')\n"
     "    assert square(3, True) == 9\nassert [w.category for w in seen] == [DeprecationWarning]", 1.0),
]  # fmt: skip


@pytest.mark.sandbox
@needs_sandbox
@pytest.mark.parametrize("tests, reward", PROCESS_ROWS)
def test_the_tests_process_state_reaches_the_candidate(tests, reward):
    verdict = cv.verify_code(block(STATEFUL), Sample("s", "p", fields={"tests": tests}))
    assert verdict.reward == reward, verdict.detail


MUTATION_ROWS = [  # (program, tests, reward): arguments changed in place, records compared as Python does
    ("from collections import Counter\ndef add_word(c, w):\n    c[w] += 1",
     "from collections import Counter\nc = Counter('ab')\nadd_word(c, 'a')\nassert c == Counter('aab')", 1.0),
    ("def rotate(d, k):\n    d.rotate(k)", "from collections import deque\nd = deque([1, 2, 3])\nrotate(d, 1)\n"
     "assert d == deque([3, 1, 2])", 1.0),
    ("def push(pair, x):\n    pair[0].append(x)",
     "pair = ([1], 'tag')\npush(pair, 2)\nassert pair == ([1, 2], 'tag')", 1.0),
    ("def move(src, dst):\n    dst.append(src.pop())", "xs = [1, 2, 3]\nmove(xs, xs)\nassert xs == [1, 2, 3]", 1.0),
    ("def peek_last(d):\n    return d.pop()", "from collections import deque\nd = deque([1, 2, 3])\n"
     "assert peek_last(d) == 3\nassert list(d) == [1, 2, 3]", 0.0),  # the forbidden mutation is seen
    ("from dataclasses import dataclass\n@dataclass(eq=False)\nclass P:\n    x: int\ndef make(x):\n    return P(x)",
     "assert make(1) == P(1)", 0.0),  # eq=False: identity, as in Python
    ("from dataclasses import dataclass, field\n@dataclass(order=True)\nclass Job:\n    pri: int\n"
     "    name: str = field(compare=False)\ndef jobs():\n    return [Job(2, 'b'), Job(1, 'a')]",
     "assert min(jobs()).name == 'a'\nassert Job(1, 'x') == Job(1, 'y')\nassert sorted(jobs())[1].pri == 2", 1.0),
]  # fmt: skip


@pytest.mark.sandbox
@needs_sandbox
@pytest.mark.parametrize("program, tests, reward", MUTATION_ROWS)
def test_mutations_and_records_as_python_has_them(program, tests, reward):
    verdict = cv.verify_code(block(program), Sample("s", "p", fields={"tests": tests}))
    assert verdict.reward == reward, verdict.detail


@pytest.mark.sandbox
@needs_sandbox
def test_a_module_level_counter_is_read_as_it_is_now():
    program = "calls = 0\ndef tick():\n    global calls\n    calls += 1\n    return calls"
    tests = "tick()\ntick()\nassert calls == 2\nassert tick() == 3 and calls == 3"
    verdict = cv.verify_code(block(program), Sample("s", "p", fields={"tests": tests}))
    assert (verdict.reward, verdict.status) == (1.0, "ok"), verdict.detail
    wrong = program.replace("calls += 1", "calls += 2")
    assert cv.verify_code(block(wrong), Sample("s", "p", fields={"tests": tests})).reward == 0.0


@pytest.mark.sandbox
@needs_sandbox
def test_a_name_the_tests_bind_is_never_rebound_by_the_candidate():
    program = "EXPECTED = 0\ndef add(a, b):\n    global EXPECTED\n    EXPECTED = 0\n    return 0"
    tests = "EXPECTED = 3\nassert add(1, 2) == EXPECTED"
    verdict = cv.verify_code(block(program), Sample("s", "p", fields={"tests": tests}))
    assert (verdict.reward, verdict.status) == (0.0, "wrong"), verdict.detail


@pytest.mark.parametrize("tests", [
    "import numpy.testing as npt\nnpt.assert_allclose(f(1), 2)",
    "import sys\nif f(1) != 2:\n    sys.exit(1)",
    "def verify(g):\n    if g(1) != 2:\n        raise ValueError\nverify(f)",
    "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(f(1), 2)\n"
    "if __name__ == '__main__':\n    unittest.main()",
])
def test_sources_that_check_through_helpers_exits_and_runners_are_tests(tests):
    assert cv.build_plan(Sample("s", "p", fields={"tests": tests})).cases
