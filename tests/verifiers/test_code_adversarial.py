"""Adversarial table: programs that try to earn reward without solving the task. None may.

Each row is (name, program, sample, expected status). A positive control per sample shows
that the sample itself is passable, so a 0 below means the hack failed, not the sample.
"""

from __future__ import annotations

import os
import time

import pytest

from rlvr.types import Sample
from rlvr.verifiers import code as cv
from rlvr import sandbox

REASON = sandbox.probe() or (None if os.path.exists("/usr/bin/python3") else "/usr/bin/python3 missing")
pytestmark = [pytest.mark.sandbox, pytest.mark.skipif(REASON is not None, reason=f"sandbox unavailable: {REASON}")]

FAST = {"timeout_s": 2.0, "case_timeout_s": 1.0}  # keeps the looping rows short

LIT = Sample("lit", "p", fields={"tests": "assert add(1, 2) == 3\nassert add(2, 2) == 4",
                                 "hidden_tests": ["assert add(10, 5) == 15"]})  # fmt: skip
# Non-literal comparisons: these run inside the sandbox, behind the __rlvr_plain__ guard.
INSIDE = Sample("inside", "p", fields={"tests": "assert add(1, 2) == add(2, 1)\nassert add(1, 1) in (2, 5)\n"
                                                "assert abs(add(0.5, 0.25) - 0.75) < 1e-9\nassert add(2, 3) != add(2, 2)\n"
                                                "assert add(3, 3) * 1 == 6 and not add(0, 0)"})  # fmt: skip
IO = Sample("io", "p", fields={"io_tests": [{"input": "1 2", "output": "3"}],
                               "hidden_tests": [{"input": "10 5", "output": "15"}]})  # fmt: skip
SECRET = Sample("secret", "p", fields={"tests": "assert isinstance(secret(), str)",
                                       "hidden_tests": ["assert secret() == 'zq-51c9e7-hidden'"]})  # fmt: skip
SECRET_IO = Sample("secret_io", "p", fields={"io_tests": [{"input": "x", "output": "x"}],
                                             "hidden_tests": [{"input": "y", "output": "zq-77aa01-hidden"}]})  # fmt: skip

GOOD_ADD = "def add(a, b):\n    return a + b"
GOOD_IO = "a, b = map(int, input().split())\nprint(a + b)"

# Searches every place inside the sandbox a secret could be: files, /proc, env, fds, memory.
HUNT = r'''
import gc, os, re, sys
PAT = re.compile(r"zq-[0-9a-f]{6}-hidden")
def hunt():
    seen = []
    for root in ("/work", "/tmp", "/dev/shm", "/proc/self", "/proc/1"):
        for dirpath, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d not in ("task", "net", "root", "cwd", "map_files", "fd")] if "proc" in dirpath else dirs
            for name in files:
                try:
                    with open(os.path.join(dirpath, name), "rb") as fh:
                        seen.append(fh.read(1 << 20).decode("latin-1"))
                except OSError:
                    pass
    for fd in range(64):
        try:
            seen.append(os.pread(fd, 1 << 20, 0).decode("latin-1"))
        except OSError:
            pass
    seen.append(repr(dict(os.environ)) + repr(sys.argv))
    for obj in gc.get_objects():
        try:
            seen.append(repr(obj)[:100000])
        except Exception:
            pass
    frame = sys._getframe()
    while frame is not None:
        seen.append(repr(frame.f_locals)[:100000])
        frame = frame.f_back
    for text in seen:
        m = PAT.search(text)
        if m:
            return m.group(0)
    return "nothing found"
'''

# Blind forgery: records in the runner's format, sprayed on every descriptor, with guessed nonces.
FORGE = r'''
import json, os
for nonce in ("", "0" * 32, None):
    for i in range(10):
        for rec in ({"k": "ready"}, {"k": "step", "i": i, "ok": True, "v": ["i", "f"]},
                    {"k": "io", "i": i, "out": "MTU=", "rc": 0, "to": False, "over": False}, {"k": "done"}):
            rec["n"] = nonce
            for fd in range(1, 40):
                try:
                    os.write(fd, (json.dumps(rec) + "\n").encode())
                except OSError:
                    pass
'''

ROWS = [
    # --- ending the run early, or lying about how it ended
    ("sys.exit(0) before the asserts", "import sys\nsys.exit(0)", LIT, "wrong"),
    ("os._exit(0) before the asserts", "import os\nos._exit(0)", LIT, "wrong"),
    ("sys.exit(0) inside the function", "def add(a, b):\n    import sys\n    sys.exit(0)", LIT, "wrong"),
    ("os._exit(0) inside the function", "def add(a, b):\n    import os\n    os._exit(0)", LIT, "wrong"),
    ("raise SystemExit(0) from a test", "def add(a, b):\n    raise SystemExit(0)", INSIDE, "wrong"),
    ("excepthook and atexit",
     "import sys, atexit\nsys.excepthook = lambda *a: None\natexit.register(lambda: print('ALL TESTS PASSED'))\n"
     "def add(a, b):\n    raise AssertionError('x')", LIT, "wrong"),
    ("printing PASSED / OK / result lines",
     "print('PASSED\\nOK\\n3 passed, 0 failed\\n{\"k\": \"done\"}')\ndef add(a, b):\n    print('ok')\n    return 0", LIT, "wrong"),
    ("forged records on every fd (assert mode)", FORGE + "\ndef add(a, b):\n    return 0", LIT, "wrong"),
    ("forged records on every fd (io mode)", FORGE, IO, "wrong"),
    # --- objects that claim equality with everything
    ("__eq__ always True", "class Any:\n    def __eq__(self, o): return True\n    def __ne__(self, o): return False\n"
     "    def __bool__(self): return True\n    def __hash__(self): return 0\ndef add(a, b):\n    return Any()", LIT, "wrong"),
    ("int subclass with lying __eq__", "class I(int):\n    def __eq__(self, o): return True\n    __hash__ = int.__hash__\n"
     "def add(a, b):\n    return I(0)", LIT, "wrong"),
    ("__eq__ always True against in-sandbox asserts",
     "class Any:\n    def __eq__(self, o): return True\n    def __ne__(self, o): return False\n    def __lt__(self, o): return True\n"
     "    def __sub__(self, o): return 0.0\n    __rsub__ = __mul__ = __sub__\n    def __abs__(self): return 0.0\n"
     "    def __bool__(self): return True\n    def __hash__(self): return 0\ndef add(a, b):\n    return Any()", INSIDE, "wrong"),
    ("replacing the guard through globals()",
     "def add(a, b):\n    globals()['__rlvr_plain__'] = lambda v: 0\n    return 0", INSIDE, "wrong"),
    ("patching builtins exec/eval/compile and AssertionError",
     "import builtins\nbuiltins.exec = lambda *a, **k: None\nbuiltins.eval = lambda *a, **k: 3\n"
     "builtins.compile = lambda *a, **k: None\nbuiltins.AssertionError = KeyError\nbuiltins.type = lambda *a: int\n"
     "builtins.int = lambda *a: 3\ndef add(a, b):\n    return 0", INSIDE, "wrong"),
    ("patching json and os.write",
     "import json, os\njson.dumps = lambda *a, **k: '{\"k\": \"step\", \"ok\": true}'\nos.write = lambda fd, d: len(d)\n"
     "def add(a, b):\n    return 0", LIT, "wrong"),
    # --- the file system and the secrets
    ("tampering with files in the working directory",
     "import os\nfor root in ('/work', '/tmp', '/dev/shm'):\n    for d, _, files in os.walk(root):\n        for f in files:\n"
     "            try:\n                open(os.path.join(d, f), 'w').write('assert True\\n')\n            except OSError:\n                pass\n"
     "for p in ('/work/tests.py', '/test.py', '/usr/lib/python3/runner.py', '/proc/1/mem', '/dev/stdout'):\n    try:\n        open(p, 'w').write('assert True')\n"
     "    except OSError:\n        pass\ndef add(a, b):\n    return 0", LIT, "wrong"),
    ("reading the hidden expected value from anywhere", HUNT + "\ndef secret():\n    return hunt()", SECRET, "wrong"),
    ("reading the hidden expected output from anywhere", HUNT + "\ns = input()\nprint(s if s == 'x' else hunt())",
     SECRET_IO, "wrong"),
    ("hard-coding the visible cases", "def add(a, b):\n    return {(1, 2): 3, (2, 2): 4}.get((a, b), 0)", LIT, "wrong"),
    # --- resources and processes
    ("fork bomb", "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass", LIT, "timeout"),
    ("memory bomb, one block", "block = bytearray(64 << 30)\ndef add(a, b):\n    return 0", LIT, "wrong"),
    ("memory bomb, growing", "blocks = [bytearray(1 << 24) for _ in range(10000)]\ndef add(a, b):\n    return 0", LIT, "wrong"),
    ("flooding stdout", "while True:\n    print('PASSED ' * 100)", LIT, "wrong"),
    ("flooding stdout in io mode", "while True:\n    print('15 3 ' * 100)", IO, "wrong"),
    ("a megabyte of blank lines under the cap", "import sys\nsys.stdout.write('\\n' * 1000000)", IO, "wrong"),
    ("leaving a process behind",
     "import os\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        os.execv('/usr/bin/sleep', ['sleep', '61.2345'])\n"
     "    os._exit(0)\ndef add(a, b):\n    return 0", LIT, "wrong"),
    ("killing its parent", "import os\ndef add(a, b):\n    for pid in (os.getppid(), 1, 0):\n        try:\n"
     "            os.kill(pid, 9)\n        except OSError:\n            pass\n    return 0", LIT, "wrong"),
    ("killing its parent in io mode", "import os\nos.kill(os.getppid(), 9)\nos.killpg(0, 9)\nprint(15)", IO, "wrong"),
    ("infinite loop", "def add(a, b):\n    while True:\n        pass", LIT, "timeout"),
    ("infinite loop in io mode", "while True:\n    pass", IO, "timeout"),
    ("sleeping past the deadline", "import time\ntime.sleep(30)\ndef add(a, b):\n    return a + b", LIT, "timeout"),
]  # fmt: skip

CONTROLS = [("lit", GOOD_ADD, LIT), ("inside", GOOD_ADD, INSIDE), ("io", GOOD_IO, IO)]


@pytest.mark.parametrize("name, program, sample", CONTROLS, ids=[c[0] for c in CONTROLS])
def test_positive_controls_pass(name, program, sample):
    verdict = cv.verify_code(f"```python\n{program}\n```", sample, **FAST)
    assert (verdict.reward, verdict.status) == (1.0, "ok"), verdict.detail


@pytest.mark.parametrize("name, program, sample, status", ROWS, ids=[r[0] for r in ROWS])
def test_hack_earns_nothing(name, program, sample, status):
    start = time.monotonic()
    slow = "hidden expected" in name  # the hunt walks /proc and every object: give it time
    opts = {"timeout_s": 5.0, "case_timeout_s": 5.0} if slow else dict(FAST, memory_mb=256)
    if status == "timeout":  # these run into the deadline by design: keep it short
        opts.update(timeout_s=1.0, case_timeout_s=0.5)
    verdict = cv.verify_code(f"```python\n{program}\n```", sample, **opts)
    elapsed = time.monotonic() - start
    assert verdict.reward == 0.0, verdict.detail
    assert verdict.status == status, verdict.detail
    assert verdict.info["pass_rate"] < 1.0
    if sample in (SECRET, SECRET_IO):  # the hunt ran (the visible test passed) and found nothing
        assert (verdict.info["visible_pass_rate"], verdict.info["hidden_pass_rate"]) == (1.0, 0.0)
    assert elapsed < 12.0 if slow else elapsed < 6.0  # wall limits plus start-up


def test_hard_coding_shows_up_in_the_split_rates():
    verdict = cv.verify_code("```python\ndef add(a, b):\n    return {(1, 2): 3, (2, 2): 4}.get((a, b), 0)\n```", LIT)
    assert (verdict.info["visible_pass_rate"], verdict.info["hidden_pass_rate"]) == (1.0, 0.0)


@pytest.mark.skipif(os.geteuid() != 0, reason="reads other uids' processes")
def test_no_process_survives_the_run():
    program = ("import os\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
               "        os.execv('/usr/bin/sleep', ['sleep', '61.2345'])\n    os._exit(0)\nimport time\ntime.sleep(0.3)\n"
               "def add(a, b):\n    return a + b")  # fmt: skip
    verdict = cv.verify_code(f"```python\n{program}\n```", LIT)
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


def test_hunt_is_capable_when_a_secret_does_enter_the_sandbox():
    """Control for the hunt rows: an expected value inside a non-literal assert is shipped into
    the sandbox (documented limit), and the same hunt then finds it. So the zeros above mean
    the literal comparisons and io outputs really stayed outside."""
    leaky = Sample("leaky", "p", fields={"tests": "assert isinstance(secret(), str)",
                                         "hidden_tests": ["x = 'zq-51c9e7-hidden'\nassert secret() == x"]})  # fmt: skip
    verdict = cv.verify_code(f"```python\n{HUNT}\ndef secret():\n    return hunt()\n```", leaky, timeout_s=5.0)
    assert (verdict.reward, verdict.status) == (1.0, "ok"), verdict.detail


# A candidate that introspects the runtime: finds the nonce in a caller's frame and writes
# "passed" records (with a made-up value) for every test straight to the record pipe.
INTROSPECT = r'''
import json, os, sys
frame, nonce = sys._getframe(), None
while frame is not None:
    nonce = frame.f_locals.get("nonce", nonce)
    frame = frame.f_back
for i in range(20):
    os.write(int(sys.argv[2]), (json.dumps({"k": "step", "i": i, "ok": True, "v": ["i", "0"], "n": nonce}) + "\n").encode())
os._exit(0)
'''


def test_introspective_forgery_cannot_fake_literal_comparisons():
    verdict = cv.verify_code(f"```python\n{INTROSPECT}\n```", LIT)
    assert (verdict.reward, verdict.status) == (0.0, "wrong")
    assert "got 0, expected 3" in verdict.detail  # the forged records were read, and compared


def test_known_gap_introspective_forgery_passes_in_sandbox_asserts():
    """Documented in docs/sandbox.md: asserts that run inside the sandbox (not `== LITERAL`,
    not io) can be forged by a candidate that introspects the runtime. If this starts failing,
    the gap was closed: update the docs."""
    verdict = cv.verify_code(f"```python\n{INTROSPECT}\n```", INSIDE)
    assert (verdict.reward, verdict.status) == (1.0, "ok")
