"""Adversarial properties of the code verifier beyond the table in ``code_attack_rows.py``.

The table (run by ``test_code_attack_table.py``) says that each attack earns nothing; the
tests here check *why*: the hunt that finds nothing is capable of finding a secret that does
reach the candidate, pid 1 (the judge) cannot be read, the candidate holds neither the record
pipe nor the test payload, nothing survives the run, and forged records are never read.
"""

from __future__ import annotations

import os
import time

import pytest
from code_attack_rows import ADD_LIT, HUNT, SECRET_EXPR, STEAL, Row

from rlvr import sandbox
from rlvr.types import Sample
from rlvr.verifiers import code as cv

REASON = sandbox.probe() or (None if os.path.exists("/usr/bin/python3") else "/usr/bin/python3 missing")
pytestmark = [pytest.mark.sandbox, pytest.mark.skipif(REASON is not None, reason=f"sandbox unavailable: {REASON}")]


def run(program: str, fields: dict, **opts):
    return cv.verify_code(Row("x", "x", program, fields, 0).completion(), Sample("s", "p", fields=dict(fields)), **opts)


def test_hard_coding_shows_up_in_the_split_rates():
    verdict = run("def add(a, b):\n    return {(1, 2): 3, (2, 2): 4}.get((a, b), 0)", ADD_LIT)
    assert verdict.reward == 0.0
    assert (verdict.info["visible_pass_rate"], verdict.info["hidden_pass_rate"]) == (1.0, 0.0)


def test_hunt_is_capable_when_a_secret_does_reach_the_candidate():
    """Control for the hunting rows: a value the tests pass *as an argument* is the
    candidate's to see, and the same hunt finds it. So its zeros in the table mean the
    expected values really stayed in the judge."""
    leaky = {"tests": "assert isinstance(secret('x'), str)",
             "hidden_tests": ["assert secret('zq-51c9e7-hidden') == 'zq-51c9e7-hidden'"]}  # fmt: skip
    verdict = run(HUNT + "\ndef secret(arg):\n    return hunt()", leaky, timeout_s=12.0)
    assert (verdict.reward, verdict.status) == (1.0, "ok"), verdict.detail


PROBE_JUDGE = r'''
import os
def add(a, b):
    seen = []
    for path in ("/proc/1/mem", "/proc/1/environ", "/proc/1/fd", "/proc/1/maps"):
        try:
            if os.path.isdir(path):
                os.listdir(path)
            else:
                open(path, "rb").read(16)
            seen.append(path)
        except OSError:
            pass
    fds = sorted(int(fd) for fd in os.listdir("/proc/self/fd"))
    return [seen, fds]
'''


def test_the_judge_cannot_be_read_and_the_candidate_holds_only_its_pipes():
    fields = {"tests": "r = add(1, 2)\nassert r[0] == [] and r[1] == [0, 1, 2, 3, 4, 5], r"}
    verdict = run(PROBE_JUDGE, fields)
    # pid 1 is not dumpable: its memory, environment and descriptors are refused (maps is
    # readable but empty of use); the candidate has stdio (/dev/null), its two pipe ends and
    # the descriptor listdir itself opened: no record pipe, no test payload.
    assert (verdict.reward, verdict.status) == (1.0, "ok"), verdict.detail


def test_the_steal_attack_finds_nothing_to_steal():
    fields = {"tests": "assert steal_report() == [0, 0]"}
    verdict = run(STEAL + "\ndef steal_report():\n    return list(steal())", fields)
    assert (verdict.reward, verdict.status) == (1.0, "ok"), verdict.detail


def test_a_secret_in_the_judge_never_reaches_the_candidate():
    verdict = run("def secret():\n    return 'nope'", SECRET_EXPR)
    assert verdict.info["hidden_pass_rate"] == 0.0
    assert "zq-" not in verdict.detail  # hidden failures say only the exception type


@pytest.mark.skipif(os.geteuid() != 0, reason="reads other uids' processes")
def test_no_process_survives_the_run():
    program = ("import os\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
               "        os.execv('/usr/bin/sleep', ['sleep', '61.2345'])\n    os._exit(0)\n"
               "import time\ntime.sleep(0.3)\ndef add(a, b):\n    return a + b")  # fmt: skip
    verdict = run(program, ADD_LIT)
    assert verdict.status == "ok"  # the daemon does not stop an honest answer from counting
    time.sleep(0.2)
    leftovers = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                leftovers += [pid] if b"61.2345" in fh.read() else []
        except OSError:
            pass
    assert leftovers == []


def test_io_children_leave_nothing_for_the_next_test():
    """Each io test runs after every process of the previous one was killed (kill(-1) as pid 1)."""
    program = ("import os, time, sys\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(3)\n    os._exit(0)\n"
               "print(len([p for p in os.listdir('/proc') if p.isdigit()]))")  # fmt: skip
    fields = {"io_tests": [{"input": "", "output": "3"}, {"input": "", "output": "3"}]}
    verdict = run(program, fields)  # pid 1, the test and its own daemon; never the previous test's daemon
    assert (verdict.reward, verdict.status) == (1.0, "ok"), verdict.detail


def test_stdout_in_assert_mode_is_discarded_not_read():
    program = "import sys\ndef add(a, b):\n    sys.stdout.write('x' * (4 << 20))\n    return a + b"
    verdict = run(program, ADD_LIT)
    assert (verdict.reward, verdict.status) == (1.0, "ok"), verdict.detail


# ----------------------------------------------------------------------------- completion accounting

LOOP_F = "def f(x):\n    while True:\n        pass"
HANG_SHAPES = {
    "humaneval: top-level assert, check(candidate), check(f)":
        {"tests": "assert True\ndef check(candidate):\n    assert candidate(1) == 2\n\ncheck(f)\n"},
    "run_tests() under a main guard":
        {"tests": "assert True\ndef run_tests():\n    assert f(1) == 2\nif __name__ == '__main__':\n    run_tests()\n"},
    "a verify(f) helper without assert":
        {"tests": "assert True\ndef verify(g):\n    if g(1) != 2:\n        raise ValueError('no')\nverify(f)\n"},
    "an if ...: raise stress loop":
        {"tests": "assert True\nfor k in range(3):\n    if f(k) != 2 * k:\n        raise AssertionError(k)\n"},
    "the check in the hidden tests":
        {"tests": "assert True", "hidden_tests": "assert True\ndef check(candidate):\n    assert candidate(1) == 2\n"
                                                 "\ncheck(f)\n"},
}  # fmt: skip


@pytest.mark.parametrize("fields", list(HANG_SHAPES.values()), ids=list(HANG_SHAPES))
def test_a_statement_that_never_finishes_is_a_timeout_never_a_pass(fields):
    start = time.monotonic()
    verdict = run(LOOP_F, fields, timeout_s=1.0)
    elapsed = time.monotonic() - start
    assert (verdict.reward, verdict.status) == (0.0, "timeout"), verdict.detail
    assert "did not finish" in verdict.detail
    assert 1.0 <= elapsed < 4.0  # ends at its wall time
    if "hidden_tests" in fields:  # hack/visible_only sees it: visible all passed, a hidden one did not
        assert (verdict.info["visible_pass_rate"], verdict.info["hidden_pass_rate"]) == (1.0, 0.0)
    honest = run("def f(x):\n    return 2 * x", fields, timeout_s=1.0)
    assert (honest.reward, honest.status) == (1.0, "ok"), honest.detail


@pytest.mark.parametrize("exit_", ["import os; os._exit(0)", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)",
                                   "import ctypes; ctypes.string_at(0)"])
def test_a_crash_inside_a_bare_except_is_not_the_expected_exception(exit_):
    fields = {"tests": "try:\n    f(-1)\nexcept:\n    pass\nelse:\n    raise AssertionError('no error')\n"}
    verdict = run(f"def f(x):\n    {exit_}", fields)
    assert (verdict.reward, verdict.status) == (0.0, "wrong") and "CandidateGone" in verdict.detail, verdict.detail
    honest = run("def f(x):\n    if x < 0:\n        raise ValueError(x)\n    return x", fields)
    assert (honest.reward, honest.status) == (1.0, "ok"), honest.detail


@pytest.mark.parametrize("tests", ["", "x = 1\n", "import math\ndef helper():\n    return 1\n", "# nothing\n",
                                   "x = f(1)\nprint(x)\n", "def helper(x):\n    assert f(x) == x\n"])
def test_a_test_source_that_checks_nothing_is_a_data_error(tests):
    verdict = run("def f(x):\n    return x", {"tests": tests})
    assert (verdict.reward, verdict.status) == (0.0, "error") and "checks nothing" in verdict.detail, verdict.detail


SUM_IO = {"io_tests": [{"input": "1 2", "output": "3"}]}
READ_SUM = "a, b = map(int, input().split())\n"
IO_END_ROWS = [  # (program, reward): the program ends as python3 solution.py ends, and nothing after counts
    (READ_SUM + "import threading, time\nprint(a + b, flush=True)\ndef late():\n    time.sleep(0.1)\n"
     "    print('debug')\nthreading.Thread(target=late).start()\n", 0.0),
    (READ_SUM + "import atexit\nprint(a + b)\natexit.register(print, 'debug')\n", 0.0),
    (READ_SUM + "import sys\nclass Log:\n    def __del__(self):\n        sys.stdout.write('debug\\n')\nkeep = Log()\n"
     "print(a + b)\n", 0.0),
    (READ_SUM + "import os, time\nprint(a + b, flush=True)\nif os.fork() == 0:\n    time.sleep(0.2)\n"
     "    os.write(1, b'debug\\n')\n    os._exit(0)\n", 0.0),
    (READ_SUM + "import threading, time\ndef main():\n    time.sleep(0.1)\n    print(a + b)\n"
     "threading.Thread(target=main).start()\n", 1.0),
    (READ_SUM + "import atexit\natexit.register(print, a + b)\n", 1.0),
]  # fmt: skip


@pytest.mark.parametrize("program, reward", IO_END_ROWS)
def test_io_output_is_what_python_prints_before_it_exits(program, reward):
    verdict = run(program, SUM_IO)
    assert verdict.reward == reward, verdict.detail


def test_the_program_cannot_reconfigure_the_judges_pytest_through_the_environment():
    program = ("import os\ndef add(a, b):\n    os.environ['PYTEST_ADDOPTS'] = '--collect-only'\n"
               "    os.environ['PYTEST_PLUGINS'] = 'nothing'\n    return 0")  # fmt: skip
    tests = ("import os\ndef test_env(monkeypatch):\n    assert add(1, 2) == 3\n"
             "def test_more():\n    assert os.environ.get('X') is None and add(2, 2) == 4\n")  # fmt: skip
    verdict = run(program, {"tests": "import os\nadd(0, 0)\nassert 'PYTEST_ADDOPTS' in os.environ",
                            "hidden_tests": [tests]})  # fmt: skip
    assert verdict.reward == 0.0 and verdict.info["hidden_pass_rate"] == 0.0, verdict.detail
