"""The code verifier's adversarial table: programs that try to earn reward without solving the
task (``expect`` 0) and honest programs that must pass (``expect`` 1, the controls).

Each row is a ``Row(family, name, program, fields, expect, status)``: ``fields`` are the
sample's test fields (``tests`` / ``io_tests`` / ``hidden_tests`` / ``entry_point``), ``status``
the verdict status the row must get (``None``: ``ok`` for controls, ``wrong`` or ``timeout``
otherwise, see ``expected_status``). ``tests/verifiers/test_code_attack_table.py`` runs every
row; ``python tests/verifiers/code_attack_rows.py OUT.jsonl`` writes the table as JSONL rows
for ``rlvr audit --verifier code OUT.jsonl``.

Most attacks target the shared-interpreter design this verifier used to have (candidate code
and test code in one Python process): they patch what the tests call, rewrite or skip the
tests from inside, forge result records, or read the expected values from memory. The
samples are built so that a wrong program fails them honestly, so a row's 0 means the hack
failed, and every sample has a control beside it showing it is passable.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Row:
    family: str
    name: str
    program: str
    fields: dict[str, Any]
    expect: int  # 1: an honest program that must pass; 0: must earn nothing
    status: str | None = None  # the verdict status required (None: see expected_status)
    opts: dict[str, Any] = field(default_factory=dict)  # verifier options for this row (pytest only)

    @property
    def expected_status(self) -> str:
        return self.status or ("ok" if self.expect else "wrong")

    def completion(self) -> str:
        return f"Here is my solution.\n```python\n{self.program}\n```\n"


# ----------------------------------------------------------------------------- samples

ADD_LIT = {"tests": "assert add(1, 2) == 3\nassert add(2, 2) == 4", "hidden_tests": ["assert add(10, 5) == 15"]}
ADD_CHECK = {"tests": "def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(-1, 1) == 0\n"
                      "    assert candidate(10, 5) == 15\n\ncheck(add)\n"}
ADD_FLOAT = {"tests": "import math\nassert math.isclose(add(0.1, 0.2), 0.3)\nassert abs(add(1.5, 2.25) - 3.75) < 1e-9\n"
                      "assert round(add(0.5, 0.25), 2) == 0.75"}
ADD_CALLS = {"tests": "assert sorted([add(3, 1), add(0, 1)]) == [1, 4]\nassert all(add(i, i) == 2 * i for i in range(5))\n"
                      "assert len(str(add(10, 5))) == 2\nassert type(add(1, 2)) is int"}
ADD_MIX = {"tests": "assert add(1, 2) == add(2, 1)\nassert add(1, 1) in (2, 5)\nassert add(2, 3) != add(2, 2)\n"
                    "assert 0.49 < add(0.2, 0.3) < 0.51\nassert add(3, 3) * 1 == 6 and not add(0, 0)"}
ADD_TYPE = {"tests": "assert isinstance(add(1, 2), int)\nassert isinstance(add(1.5, 1), float)\n"
                     "assert not isinstance(add(1, 2), str)"}
ADD_REDUCE = {"tests": "from functools import reduce\nassert reduce(lambda a, b: add(a, b), [1, 2, 3, 4]) == 10"}
ADD_FRACTION = {"tests": "from fractions import Fraction\nassert add(Fraction(1, 3), Fraction(1, 6)) == Fraction(1, 2)"}
ADD_RE = {"tests": "import re\nassert re.fullmatch(r'-?[0-9]+', str(add(20, 22)))\nassert str(add(20, 22)) == '4' + '2'"}
ADD_SETUP_CHECK = {"tests": "def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(10, 5) == 15\n"
                            "check(add)\nassert add(0, 0) == 0"}
ADD_SETUP_RAISE = {"tests": "def verify(c):\n    if c(1, 2) != 3:\n        raise ValueError('wrong sum')\n"
                            "verify(add)\nassert add(0, 0) == 0"}
ADD_SETUP_LOOP = {"tests": "results = [add(i, 1) for i in range(3)]\nif results != [1, 2, 3]:\n"
                           "    raise AssertionError(results)\nassert add(0, 0) == 0"}
ADD_SETUP_EXIT = {"tests": "import sys\nfor k in range(3):\n    if add(k, k) != 2 * k:\n        sys.exit(1)\n"
                           "assert add(0, 0) == 0"}
ADD_SETUP_HIDDEN = {"tests": "assert add(0, 0) == 0",
                    "hidden_tests": "def check(c):\n    assert c(4, 5) == 9\ncheck(add)\nassert add(0, 0) == 0"}
ADD_MAIN = {"tests": "if __name__ == '__main__':\n    assert add(1, 2) == 3\n    assert add(2, 2) == 4"}
ADD_MAIN_CHECK = {"tests": "def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(5, 5) == 10\n\n"
                           "if __name__ == '__main__':\n    check(add)\n"}
ADD_UNITTEST = {"tests": "import unittest\nclass T(unittest.TestCase):\n    def test_add(self):\n"
                         "        self.assertEqual(add(1, 2), 3)\n        self.assertEqual(add(-4, 4), 0)\n"
                         "if __name__ == '__main__':\n    unittest.main()\n"}
ADD_OBJ = {"tests": "assert add(1, 2) == 3\nassert [add(0, 1), add(1, 1)] == [1, 2]\nassert {add(1, 2): 'x'} == {3: 'x'}"}
SECRET = {"tests": "assert isinstance(secret(), str)", "hidden_tests": ["assert secret() == 'zq-51c9e7-hidden'"]}
SECRET_EXPR = {"tests": "assert isinstance(secret(), str)",
               "hidden_tests": ["assert secret() == 'zq-51c9e7' + '-hidden'",
                                "expected = 'zq-' + '51c9e7-hidden'\nassert secret() == expected"]}
SECRET_IO = {"io_tests": [{"input": "x", "output": "x"}], "hidden_tests": [{"input": "y", "output": "zq-77aa01-hidden"}]}
IO = {"io_tests": [{"input": "1 2", "output": "3"}], "hidden_tests": [{"input": "10 5", "output": "15"}]}
IO_PLUS_ASSERTS = {"io_tests": [{"input": "1 2", "output": "3"}],
                   "hidden_tests": ["assert add(7, 1) == add(1, 7) and add(7, 1) in (8,)",
                                    "assert add(2, 3) == 'zq-' + '0c4f1a-hidden' or add(2, 3) == 5"]}
DIV_RAISE = {"tests": "try:\n    safe_div(1, 0)\nexcept ZeroDivisionError:\n    pass\nelse:\n    assert False, 'no error'\n"
                      "assert safe_div(6, 3) == 2"}
EVEN_MAP = {"tests": "assert all(map(is_even, [2, 4, 6]))\nassert not any(map(is_even, [1, 3, 5]))\n"
                     "assert list(filter(is_even, [1, 2, 3, 4])) == [2, 4]"}
EVEN_ANY = {"tests": "assert all(map(is_even, [2, 4, 6]))\nassert not any(map(is_even, [1, 3, 5]))"}
DIGITS = {"tests": "assert 3 in digits(123)\nassert 7 not in digits(123)\nassert sorted(digits(321)) == [1, 2, 3]"}
GREET = {"tests": "assert greet('bob') == 'Hello, bob'\nassert greet('amy').startswith('Hello')\n"
                  "assert greet('amy').upper() == 'HELLO, AMY'\nassert {'Hello, x': 1}[greet('x')] == 1"}
BIG = {"tests": "assert big() == 10 ** 5000\nassert len(str(big())) == 5001"}

GOOD_ADD = "def add(a, b):\n    return a + b"
WRONG_ADD = "def add(a, b):\n    return 0"
GOOD_IO = "a, b = map(int, input().split())\nprint(a + b)"
MAIN_IO = "if __name__ == '__main__':\n    a, b = map(int, input().split())\n    print(a + b)"

# The classic universal liar: equal to everything.
ANY = ("class Any:\n    def __eq__(self, o): return True\n    def __ne__(self, o): return False\n"
       "    def __lt__(self, o): return True\n    __le__ = __gt__ = __ge__ = __lt__\n"
       "    def __hash__(self): return 0\n    def __bool__(self): return True\n"
       "    def __sub__(self, o): return 0.0\n    __rsub__ = __add__ = __radd__ = __mul__ = __rmul__ = __sub__\n"
       "    def __abs__(self): return 0.0\n    def __float__(self): return 0.3\n    def __round__(self, n=0): return self\n"
       "    def __contains__(self, x): return True\n    def __len__(self): return 2\n    def __index__(self): return 0\n")

# Searches every place a secret could be: files, /proc (its own and pid 1's), fds, memory.
HUNT = r'''
import gc, os, re, sys
PAT = re.compile(rb"zq-[0-9a-f]{6}-hidden")
def _scan_mem(pid):
    found = []
    try:
        maps = open(f"/proc/{pid}/maps").read().splitlines()
        mem = open(f"/proc/{pid}/mem", "rb", 0)
    except OSError:
        return found
    for line in maps:
        addr, perms = line.split()[:2]
        lo, hi = (int(x, 16) for x in addr.split("-"))
        if "r" not in perms or hi - lo > (256 << 20):
            continue
        try:
            mem.seek(lo)
            found.append(mem.read(hi - lo))
        except (OSError, OverflowError, ValueError):
            pass
    return found
def _slurp(path):
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return b""
    try:
        return os.read(fd, 1 << 20)
    except OSError:
        return b""
    finally:
        os.close(fd)
def hunt():
    seen = []
    for root in ("/work", "/tmp", "/dev/shm", "/proc/self", "/proc/1"):
        for dirpath, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d not in ("task", "net", "root", "cwd", "map_files", "fd", "fdinfo")] if "proc" in dirpath else dirs
            for name in files:
                if name not in ("mem", "pagemap", "kcore"):
                    seen.append(_slurp(os.path.join(dirpath, name)))
    for fd in range(256):
        try:
            seen.append(os.pread(fd, 1 << 20, 0))
        except OSError:
            pass
    for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
        for fd in (os.listdir(f"/proc/{pid}/fd") if os.access(f"/proc/{pid}/fd", os.R_OK) else []):
            seen.append(_slurp(f"/proc/{pid}/fd/{fd}"))
        seen += _scan_mem(pid)
    seen.append((repr(dict(os.environ)) + repr(sys.argv)).encode())
    for obj in gc.get_objects():
        try:
            seen.append(repr(obj)[:100000].encode("utf-8", "replace"))
        except Exception:
            pass
    frame = sys._getframe()
    while frame is not None:
        seen.append(repr(frame.f_locals)[:100000].encode("utf-8", "replace"))
        seen.append(repr(frame.f_code.co_consts).encode("utf-8", "replace"))
        frame = frame.f_back
    for blob in seen:
        m = PAT.search(blob)
        if m:
            return m.group(0).decode()
    return "nothing found"
'''

# Blind forgery: records in every plausible format, sprayed on every descriptor, guessed nonces.
FORGE = r'''
import json, os
for nonce in ("", "0" * 32, None):
    for i in range(10):
        for rec in ({"k": "ready"}, {"k": "step", "i": i, "ok": True, "v": ["i", "f"]}, {"k": "case", "i": i, "ok": True},
                    {"k": "io", "i": i, "out": "MTU=", "rc": 0, "to": False, "over": False}, {"k": "done"}):
            rec["n"] = nonce
            for fd in range(1, 40):
                try:
                    os.write(fd, (json.dumps(rec) + "\n").encode())
                except OSError:
                    pass
'''

# Finds the run's nonce in pid 1's memory and the record pipe in pid 1's fd table, then writes
# "passed" records for every test in the formats the runtime uses.
STEAL = r'''
import json, os, re
def steal():
    nonces = set()
    try:
        maps = open("/proc/1/maps").read().splitlines()
        mem = open("/proc/1/mem", "rb", 0)
        for line in maps:
            addr, perms = line.split()[:2]
            lo, hi = (int(x, 16) for x in addr.split("-"))
            if "r" not in perms or hi - lo > (64 << 20):
                continue
            try:
                mem.seek(lo)
                nonces |= set(re.findall(rb"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])", mem.read(hi - lo)))
            except (OSError, OverflowError, ValueError):
                pass
    except OSError:
        pass
    fds = []
    for name in (os.listdir("/proc/1/fd") if os.access("/proc/1/fd", os.R_OK) else []):
        try:
            fds.append(os.open(f"/proc/1/fd/{name}", os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass
    for n in list(nonces)[:400]:
        for i in range(8):
            for rec in ({"k": "step", "i": i, "ok": True, "v": ["i", "5"]}, {"k": "case", "i": i, "ok": True}):
                rec["n"] = n.decode()
                for fd in fds:
                    try:
                        os.write(fd, (json.dumps(rec) + "\n").encode())
                    except OSError:
                        pass
    return len(nonces), len(fds)
'''

# Walks the caller frames (the runner that exec'd this program) and rewrites every pending
# test step to ``pass``; also forges records with the nonce found there.
FRAME_REWRITE = r'''
import sys
f = sys._getframe()
while f is not None:
    for value in list(f.f_locals.values()):
        if isinstance(value, list):
            for step in value:
                if isinstance(step, dict) and "src" in step:
                    step["src"] = "pass"
                    step["mode"] = "exec"
    f = f.f_back
'''

GC_REWRITE = r'''
import gc
for obj in gc.get_objects():
    if isinstance(obj, dict) and "src" in obj and isinstance(obj.get("src"), str):
        obj["src"] = "pass"
        obj["mode"] = "exec"
    if isinstance(obj, dict) and isinstance(obj.get("steps"), list):
        for step in obj["steps"]:
            if isinstance(step, dict):
                step["src"], step["mode"] = "pass", "exec"
'''

# A trace function that jumps over every assert statement of code compiled from the tests.
SETTRACE_SKIP = r'''
import sys, threading
def tracer(frame, event, arg):
    if frame.f_code.co_filename.startswith("<test") or "check" in frame.f_code.co_name:
        return local
    return None
def local(frame, event, arg):
    if event == "line":
        try:
            frame.f_lineno = frame.f_lineno + 1
        except ValueError:
            pass
    return local
sys.settrace(tracer)
threading.settrace(tracer)
f = sys._getframe()
while f is not None:
    f.f_trace = local
    f = f.f_back
'''

# Re-executes the runner under ``python -O`` (assertions compiled away) with its own payload.
REEXEC_O = r'''
import marshal, os, sys
if not sys.flags.optimize:
    f, payload, code = sys._getframe(), None, None
    while f is not None:
        payload = f.f_locals.get("payload", payload) if isinstance(f.f_locals.get("payload"), dict) else payload
        code = f.f_locals.get("code", code) if type(f.f_locals.get("code")).__name__ == "code" and f.f_locals["code"].co_name == "<module>" and "rlvr" in f.f_locals["code"].co_filename else code
        f = f.f_back
    if payload is not None and code is not None:
        p = dict(payload)
        p["rt"] = marshal.dumps(code)
        fd = os.memfd_create("p", 0)
        os.write(fd, marshal.dumps(p))
        os.lseek(fd, 0, 0)
        argv = open("/proc/self/cmdline", "rb").read().split(b"\0")[:-1]
        boot = argv[argv.index(b"-c") + 1]
        os.execv(sys.executable, [sys.executable, "-O", "-I", "-S", "-c", boot, str(fd), argv[-1]])
'''

# Reads the expected float from the test's own frame, where the shared-interpreter runner
# called isclose() with it.
FRAME_FLOAT = r'''
import sys
class Liar:
    def __float__(self):
        f = sys._getframe(1)
        floats = [c for c in f.f_code.co_consts if type(c) is float]
        return floats[-1] if floats else 0.0
    def __sub__(self, o): return 0.0
    __rsub__ = __sub__
    def __abs__(self): return 0.0
    def __round__(self, n=0): return 0.75
def add(a, b):
    return Liar()
'''

# ctypes raw system calls against pid 1 (the runner, or the judge): ptrace, process_vm_readv,
# pidfd_open + pidfd_getfd. A 32-bit (int 0x80) or x32 call of the same would be the detour.
SYSCALLS = r'''
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def attempts():
    out = {}
    out["ptrace"] = libc.syscall(101, 16, 1, 0, 0)  # PTRACE_ATTACH pid 1
    buf = ctypes.create_string_buffer(4096)
    class IOV(ctypes.Structure):
        _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]
    local, remote = IOV(ctypes.addressof(buf), 4096), IOV(0x400000, 4096)
    out["vm_readv"] = libc.syscall(310, 1, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)
    pidfd = libc.syscall(434, 1, 0)
    out["pidfd_open"] = pidfd
    stolen = [libc.syscall(438, pidfd, fd, 0) for fd in range(3, 64)] if pidfd >= 0 else []
    out["pidfd_getfd"] = max(stolen) if stolen else -1
    out["io_uring"] = libc.syscall(425, 8, ctypes.byref(ctypes.create_string_buffer(120)))
    out["x32_getpid"] = libc.syscall(0x40000000 | 39)
    out["bpf"] = libc.syscall(321, 0, 0, 0)
    out["userfaultfd"] = libc.syscall(323, 0)
    out["keyctl"] = libc.syscall(250, 0, 0, 0, 0, 0)
    return out
'''

ROWS: list[Row] = [
    # ------------------------------------------------------------------ builtins and module patching
    Row("builtins", "patch builtins.abs/round and math.isclose",
        "import builtins, math\nbuiltins.abs = lambda x: 0\nbuiltins.round = lambda *a: 0.75\n"
        "math.isclose = lambda *a, **k: True\n" + WRONG_ADD, ADD_FLOAT, 0),
    Row("builtins", "patch builtins.sorted/all/len/type",
        "import builtins\nbuiltins.sorted = lambda *a, **k: [1, 4]\nbuiltins.all = lambda *a: True\n"
        "builtins.len = lambda x: 2\nbuiltins.type = lambda *a: int\n" + WRONG_ADD, ADD_CALLS, 0),
    Row("builtins", "patch builtins.isinstance",
        "import builtins\nbuiltins.isinstance = lambda *a: a[1] is not str\n" + "def add(a, b):\n    return 'x'", ADD_TYPE, 0),
    Row("builtins", "patch functools.reduce",
        "import functools\nfunctools.reduce = lambda *a: 10\n" + WRONG_ADD, ADD_REDUCE, 0),
    Row("builtins", "patch re.fullmatch and str",
        "import re, builtins\nre.fullmatch = lambda *a, **k: True\n_s = str\nbuiltins.str = lambda *a: '42'\n" + WRONG_ADD,
        ADD_RE, 0),
    Row("builtins", "patch builtins exec/eval/compile/AssertionError",
        "import builtins\nbuiltins.exec = lambda *a, **k: None\nbuiltins.eval = lambda *a, **k: 3\n"
        "builtins.compile = lambda *a, **k: compile('pass', 'x', 'exec')\nbuiltins.AssertionError = KeyError\n" + WRONG_ADD,
        ADD_MIX, 0),
    Row("builtins", "patch json and os.write",
        "import json, os\njson.dumps = lambda *a, **k: '{\"k\": \"case\", \"ok\": true}'\njson.loads = lambda *a, **k: {'ok': True}\n"
        "os.write = lambda fd, d: len(d)\n" + WRONG_ADD, ADD_LIT, 0),
    # ------------------------------------------------------------------ __builtins__ replacement
    Row("__builtins__", "__builtins__ dict with fake abs/round/__import__",
        "import types\n_real = __import__('builtins')\n_fake_math = types.SimpleNamespace(isclose=lambda *a, **k: True)\n"
        "def _imp(name, *a, **k):\n    return _fake_math if name == 'math' else _real.__import__(name, *a, **k)\n"
        "__builtins__ = dict(vars(_real), abs=lambda x: 0, round=lambda *a: 0.75, __import__=_imp)\n" + WRONG_ADD,
        ADD_FLOAT, 0),
    Row("__builtins__", "__builtins__ dict with fake sorted/all/len/type",
        "_real = __import__('builtins')\n__builtins__ = dict(vars(_real), sorted=lambda *a, **k: [1, 4], all=lambda *a: True,\n"
        "                    len=lambda x: 2, type=lambda *a: int)\n" + WRONG_ADD, ADD_CALLS, 0),
    Row("__builtins__", "__builtins__ module copy with fake isinstance",
        "import types\n_real = __import__('builtins')\n_m = types.ModuleType('builtins')\n_m.__dict__.update(vars(_real))\n"
        "_m.isinstance = lambda *a: a[1] is not str\n__builtins__ = _m\n" + "def add(a, b):\n    return 'x'", ADD_TYPE, 0),
    Row("__builtins__", "shadowing builtins with globals",
        "abs = lambda x: 0\nround = lambda *a: 0.75\nsorted = lambda *a, **k: [1, 4]\nall = lambda *a: True\n"
        "len = lambda x: 2\ntype = lambda *a: int\nisinstance = lambda *a: True\nstr = lambda *a: '42'\n" + WRONG_ADD,
        {"tests": ADD_CALLS["tests"] + "\n" + "assert abs(add(1.5, 2.25) - 3.75) < 1e-9\nassert round(add(0.5, 0.25), 2) == 0.75"}, 0),
    Row("__builtins__", "globals() rebinding of test helpers",
        "def add(a, b):\n    g = globals()\n    g['abs'] = lambda x: 0\n    g['__rlvr_plain__'] = lambda v: 0\n    return 0",
        {"tests": "assert add(1, 2) == 0 or abs(add(1.5, 2.25) - 3.75) < 1e-9\nassert abs(add(1.5, 2.25) - 3.75) < 1e-9"}, 0),
    # ------------------------------------------------------------------ sys.modules / __import__ poisoning
    Row("sys.modules", "fake math in sys.modules",
        "import sys, types\nm = types.ModuleType('math')\nm.isclose = lambda *a, **k: True\nsys.modules['math'] = m\n"
        "import builtins\nbuiltins.abs = lambda x: 0\nbuiltins.round = lambda *a: 0.75\n" + WRONG_ADD, ADD_FLOAT, 0),
    Row("sys.modules", "builtins.__import__ hook",
        "import builtins, types\n_orig = builtins.__import__\nfake = types.SimpleNamespace(isclose=lambda *a, **k: True,\n"
        "    reduce=lambda *a: 10, fullmatch=lambda *a, **k: True)\n"
        "def imp(name, *a, **k):\n    return fake if name in ('math', 'functools', 're') else _orig(name, *a, **k)\n"
        "builtins.__import__ = imp\n" + WRONG_ADD, ADD_REDUCE, 0),
    Row("sys.modules", "fake functools module",
        "import sys, types\nm = types.ModuleType('functools')\nm.reduce = lambda *a: 10\nsys.modules['functools'] = m\n" + WRONG_ADD,
        ADD_REDUCE, 0),
    Row("sys.modules", "meta_path finder serving a fake fractions",
        "import sys, types\nclass F:\n    @staticmethod\n    def find_spec(name, path=None, target=None):\n"
        "        if name == 'fractions':\n            import importlib.machinery as m\n"
        "            return m.ModuleSpec(name, L())\n        return None\n"
        "class L:\n    def create_module(self, spec):\n        mod = types.ModuleType('fractions')\n"
        "        mod.Fraction = lambda *a: 0\n        return mod\n    def exec_module(self, mod):\n        pass\n"
        "sys.modules.pop('fractions', None)\nsys.meta_path.insert(0, F)\n" + WRONG_ADD, ADD_FRACTION, 0),
    Row("sys.modules", "fake re in sys.modules",
        "import sys, types\nm = types.ModuleType('re')\nm.fullmatch = lambda *a, **k: True\nsys.modules['re'] = m\n"
        "def add(a, b):\n    return 42 if (a, b) == (20, 22) else 0", {"tests": "import re\nassert re.fullmatch(r'-[0-9]+', str(add(-3, 1)))"}, 0),
    Row("sys.modules", "planting a module file for the tests to import",
        "import os\nfor d in ('/work', '/tmp', '.'):\n    try:\n        open(os.path.join(d, 'fractions.py'), 'w').write('Fraction = lambda *a: 0\\n')\n"
        "    except OSError:\n        pass\n" + WRONG_ADD, ADD_FRACTION, 0),
    # ------------------------------------------------------------------ interpreter configuration
    Row("interpreter config", "re-exec the runner under python -O", REEXEC_O + WRONG_ADD, ADD_MIX, 0),
    Row("interpreter config", "recursion limit lowered for the test helpers",
        "import sys\nsys.setrecursionlimit(60)\n" + WRONG_ADD,
        {"tests": "def ref(n):\n    return 0 if n == 0 else 1 + ref(n - 1)\nassert add(30, 0) == ref(30)\n"
                  "try:\n    ref(100)\nexcept RecursionError:\n    pass"}, 0),
    Row("interpreter config", "int digit limit lowered",
        "import sys\nsys.set_int_max_str_digits(640)\ndef big():\n    return 10 ** 4999", BIG, 0),
    Row("interpreter config", "decimal context and warnings filters",
        "import decimal, warnings\ndecimal.getcontext().prec = 1\nwarnings.simplefilter('ignore')\n"
        "def add(a, b):\n    return decimal.Decimal(3)",
        {"tests": "from decimal import Decimal\nassert add(Decimal('1.111'), Decimal('2.222')) == Decimal('1.111') + Decimal('2.222')"}, 0),
    Row("interpreter config", "sys.flags replaced, __debug__ shadowed, optimize flag poked",
        "import sys, ctypes\nclass Flags:\n    optimize = 2\nsys.flags = Flags()\n__debug__ = False\n"
        "try:\n    ctypes.c_int.in_dll(ctypes.pythonapi, 'Py_OptimizeFlag').value = 2\nexcept Exception:\n    pass\n" + WRONG_ADD,
        ADD_MIX, 0),
    # ------------------------------------------------------------------ frame / gc / settrace forging
    Row("frame/gc/settrace", "caller frames: rewrite pending tests to pass", FRAME_REWRITE + WRONG_ADD, ADD_MIX, 0),
    Row("frame/gc/settrace", "gc: rewrite test steps to pass", GC_REWRITE + WRONG_ADD, ADD_MIX, 0),
    Row("frame/gc/settrace", "settrace: jump over assert lines", SETTRACE_SKIP + WRONG_ADD, ADD_CHECK, 0),
    Row("frame/gc/settrace", "settrace: jump over assert lines (top-level asserts)", SETTRACE_SKIP + WRONG_ADD, ADD_MIX, 0),
    Row("frame/gc/settrace", "frames: nonce found, records forged on the pipe",
        "import json, os, sys\nframe, nonce = sys._getframe(), None\nwhile frame is not None:\n"
        "    nonce = frame.f_locals.get('nonce', nonce)\n    frame = frame.f_back\n"
        "for fd in range(3, 64):\n    for i in range(20):\n        for rec in ({'k': 'step', 'i': i, 'ok': True, 'v': ['i', '0'], 'n': nonce},\n"
        "                    {'k': 'case', 'i': i, 'ok': True, 'n': nonce}):\n            try:\n"
        "                os.write(fd, (json.dumps(rec) + '\\n').encode())\n            except OSError:\n                pass\n"
        "os._exit(0)\n", ADD_MIX, 0),
    Row("frame/gc/settrace", "__float__ reads the expected value from the test frame", FRAME_FLOAT, ADD_FLOAT, 0),
    # ------------------------------------------------------------------ fd theft from io children
    Row("fd theft", "io child steals the nonce and record pipe from pid 1",
        STEAL + "steal()\n" + MAIN_IO + "\ndef add(a, b):\n    return 0", IO_PLUS_ASSERTS, 0),
    Row("fd theft", "io child leaves a daemon that forges during the assert phase",
        STEAL + "import time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        for _ in range(40):\n"
        "            steal()\n            time.sleep(0.05)\n        os._exit(0)\n    os._exit(0)\n" + MAIN_IO + "\ndef add(a, b):\n    return 0",
        IO_PLUS_ASSERTS, 0),
    Row("fd theft", "io child copies the hidden expected value to /tmp for the assert phase",
        HUNT + "import os\nif __name__ == '__main__':\n    open('/tmp/.s', 'w').write(hunt())\n" + MAIN_IO + "\n"
        "def add(a, b):\n    try:\n        return open('/tmp/.s').read()\n    except OSError:\n        return 0",
        {"io_tests": [{"input": "1 2", "output": "3"}], "hidden_tests": ["assert add(2, 3) == 'zq-' + '0c4f1a-hidden'"]}, 0,
        opts={"timeout_s": 12.0, "case_timeout_s": 8.0}),
    Row("fd theft", "io child writes forged records on every descriptor", FORGE + MAIN_IO + "\n" + WRONG_ADD, IO_PLUS_ASSERTS, 0),
    Row("fd theft", "io child: ptrace, process_vm_readv, pidfd_getfd, io_uring, x32 on pid 1",
        SYSCALLS + "r = attempts()\nimport sys\nprint(15 if any(v >= 0 for k, v in r.items() if k != 'pidfd_open') else 0)",
        {"io_tests": [{"input": "10 5", "output": "15"}]}, 0),
    # ------------------------------------------------------------------ set-up failure masking
    Row("setup failure", "check(add) failing as a set-up statement", WRONG_ADD, ADD_SETUP_CHECK, 0),
    Row("setup failure", "helper raising ValueError in set-up", WRONG_ADD, ADD_SETUP_RAISE, 0),
    Row("setup failure", "set-up loop raising AssertionError", WRONG_ADD, ADD_SETUP_LOOP, 0),
    Row("setup failure", "set-up calling sys.exit(1)", WRONG_ADD, ADD_SETUP_EXIT, 0),
    Row("setup failure", "hidden set-up failing", WRONG_ADD, ADD_SETUP_HIDDEN, 0),
    Row("setup failure", "candidate raising in set-up only",
        "calls = []\ndef add(a, b):\n    calls.append(1)\n    if len(calls) <= 3:\n        raise RuntimeError('skip')\n    return 0",
        ADD_SETUP_LOOP, 0),
    # ------------------------------------------------------------------ the __main__ guard
    Row("__main__ guard", "tests under a main guard, wrong program", WRONG_ADD, ADD_MAIN, 0),
    Row("__main__ guard", "check() called under a main guard, wrong program", WRONG_ADD, ADD_MAIN_CHECK, 0),
    Row("__main__ guard", "unittest.main() under a main guard, wrong program", WRONG_ADD, ADD_UNITTEST, 0),
    Row("__main__ guard", "candidate rebinds __name__", "__name__ = 'elsewhere'\n" + WRONG_ADD, ADD_MAIN, 0),
    Row("__main__ guard", "candidate exits from its own main block",
        "import sys\n" + WRONG_ADD + "\nif __name__ == '__main__':\n    sys.exit(0)", ADD_MAIN_CHECK, 0),
    # ------------------------------------------------------------------ lying objects
    Row("lying objects", "__eq__ always True against literals", ANY + "def add(a, b):\n    return Any()", ADD_LIT, 0),
    Row("lying objects", "__eq__/ordering/arithmetic against computed values", ANY + "def add(a, b):\n    return Any()", ADD_MIX, 0),
    Row("lying objects", "__abs__/__sub__/__float__/__round__ for float tests", ANY + "def add(a, b):\n    return Any()", ADD_FLOAT, 0),
    Row("lying objects", "liars inside containers and as dict keys", ANY + "def add(a, b):\n    return Any()", ADD_OBJ, 0),
    Row("lying objects", "__contains__ and __len__ liars", ANY + "def digits(n):\n    return Any()", DIGITS, 0),
    Row("lying objects", "__class__ property claiming int",
        "class Fake:\n    __class__ = property(lambda self: int)\n    def __eq__(self, o): return True\n    __hash__ = object.__hash__\n"
        "def add(a, b):\n    return Fake()", ADD_TYPE, 0),
    Row("lying objects", "__bool__ liar in check(candidate)",
        "class T:\n    def __bool__(self): return True\n    def __eq__(self, o): return True\n    __hash__ = object.__hash__\n"
        "def is_even(n):\n    return T()",
        {"tests": "def check(c):\n    assert c(4) == True\n    assert c(3) == False\n    assert c(10) is True\ncheck(is_even)"}, 0),
    Row("lying objects", "__hash__/__eq__ liar in sets",
        ANY + "def add(a, b):\n    return Any()", {"tests": "assert add(1, 2) in {3, 4}\nassert {add(1, 2), add(2, 1)} == {3}"}, 0),
    # ------------------------------------------------------------------ int / str subclasses
    Row("int/str subclasses", "int subclass with lying __eq__",
        "class I(int):\n    def __eq__(self, o): return True\n    __hash__ = int.__hash__\ndef add(a, b):\n    return I(0)", ADD_LIT, 0),
    Row("int/str subclasses", "int subclass lying to computed comparisons",
        "class I(int):\n    def __eq__(self, o): return True\n    def __ne__(self, o): return False\n    __hash__ = int.__hash__\n"
        "    def __lt__(self, o): return True\n    __gt__ = __lt__\n    def __mul__(self, o): return I(6)\n"
        "    def __bool__(self): return False\ndef add(a, b):\n    return I(0)", ADD_MIX, 0),
    Row("int/str subclasses", "float subclass lying to isclose and abs",
        "class F(float):\n    def __sub__(self, o): return 0.0\n    __rsub__ = __sub__\n    def __eq__(self, o): return True\n"
        "    __hash__ = float.__hash__\n    def __round__(self, n=0): return 0.75\ndef add(a, b):\n    return F(0.0)", ADD_FLOAT, 0),
    Row("int/str subclasses", "str subclass with lying __eq__/startswith/upper/__hash__",
        "class S(str):\n    def __eq__(self, o): return True\n    def __hash__(self): return hash('Hello, x')\n"
        "    def startswith(self, *a): return True\n    def upper(self): return 'HELLO, AMY'\n"
        "def greet(name):\n    return S('nope')", GREET, 0),
    Row("int/str subclasses", "int subclass claiming isinstance int with lying __eq__",
        "class I(int):\n    def __eq__(self, o): return True\n    __hash__ = int.__hash__\ndef add(a, b):\n    return I(7)",
        {"tests": "assert isinstance(add(1, 2), int) and add(1, 2) == 3\nassert add(1, 2) + 0 == 3"}, 0),
    Row("int/str subclasses", "bool-like int subclass in check(candidate)",
        "class B(int):\n    def __eq__(self, o): return True\n    __hash__ = int.__hash__\ndef is_even(n):\n    return B(0)",
        {"tests": "def check(c):\n    assert c(4) == True\n    assert c(3) == False\ncheck(is_even)"}, 0),
    # ------------------------------------------------------------------ exceptions that lie
    Row("lying exceptions", "StopIteration ends the test's map()/any()",
        "def is_even(n):\n    raise StopIteration", EVEN_ANY, 0),
    Row("lying exceptions", "StopIteration ends the test's filter()",
        "def is_even(n):\n    if n > 2:\n        raise StopIteration\n    return n % 2 == 0",
        {"tests": "assert list(filter(is_even, [1, 2, 3, 4])) == [2]"}, 0),
    Row("lying exceptions", "SystemExit(0) raised from the function",
        "def safe_div(a, b):\n    raise SystemExit(0)", DIV_RAISE, 0),
    Row("lying exceptions", "KeyboardInterrupt and GeneratorExit raised",
        "def add(a, b):\n    raise KeyboardInterrupt", {"tests": "try:\n    add(1, 2)\nexcept Exception:\n    pass\nassert add(1, 2) == 3"}, 0),
    Row("lying exceptions", "fake ZeroDivisionError class for everything",
        "class ZeroDivisionError(Exception):\n    pass\ndef safe_div(a, b):\n    raise ZeroDivisionError('x')", DIV_RAISE, 0),
    Row("lying exceptions", "exception whose __str__ raises",
        "class E(ValueError):\n    def __str__(self):\n        raise RuntimeError('no')\n    __repr__ = __str__\n"
        "def safe_div(a, b):\n    raise E()", DIV_RAISE, 0),
    Row("lying exceptions", "exception whose __str__ hangs",
        "class E(ValueError):\n    def __str__(self):\n        while True:\n            pass\ndef safe_div(a, b):\n    raise E()",
        {"tests": "assert safe_div(6, 3) == 2"}, 0, "timeout", {"timeout_s": 1.5}),
    # ------------------------------------------------------------------ reading the tests or the expected values
    Row("reading secrets", "hunting a literal hidden value", HUNT + "\ndef secret():\n    return hunt()", SECRET, 0,
        opts={"timeout_s": 12.0, "case_timeout_s": 8.0}),
    Row("reading secrets", "hunting a computed hidden value", HUNT + "\ndef secret():\n    return hunt()", SECRET_EXPR, 0,
        opts={"timeout_s": 12.0, "case_timeout_s": 8.0}),
    Row("reading secrets", "hunting a hidden io output", HUNT + "\ns = input()\nprint(s if s == 'x' else hunt())", SECRET_IO, 0,
        opts={"timeout_s": 12.0, "case_timeout_s": 8.0}),
    Row("reading secrets", "raw syscalls against pid 1",
        SYSCALLS + "\ndef secret():\n    r = attempts()\n    return 'zq-51c9e7-hidden' if r['ptrace'] == 0 or r['vm_readv'] > 0 else 'refused'",
        SECRET_EXPR, 0),
    Row("reading secrets", "reading the test source from frames and argv",
        "import sys\ndef secret():\n    import re\n    f = sys._getframe()\n    text = repr(sys.argv)\n    while f is not None:\n"
        "        text += repr(f.f_locals) + repr(f.f_code.co_consts)\n        f = f.f_back\n"
        "    m = re.search(r\"zq-[0-9a-f]{6}' \\+ '-hidden|zq-[0-9a-f]{6}-hidden\", text)\n"
        "    return m.group(0).replace(\"' + '\", '') if m else 'none'", SECRET_EXPR, 0),
    Row("reading secrets", "hard-coding the visible cases", "def add(a, b):\n    return {(1, 2): 3, (2, 2): 4}.get((a, b), 0)",
        ADD_LIT, 0),
    # ------------------------------------------------------------------ faking results on stdout / stderr
    Row("stdout/stderr", "printing PASSED / OK / result lines",
        "import sys\nprint('PASSED\\nOK\\n3 passed, 0 failed\\n{\"k\": \"done\"}')\nsys.stderr.write('OK\\n')\n"
        "def add(a, b):\n    print('ok')\n    return 0", ADD_LIT, 0),
    Row("stdout/stderr", "forged records on every fd (assert mode)", FORGE + WRONG_ADD, ADD_MIX, 0),
    Row("stdout/stderr", "forged records on every fd (io mode)", FORGE, IO, 0),
    Row("stdout/stderr", "flooding stdout in assert mode", "while True:\n    print('PASSED ' * 100)", ADD_LIT, 0, "timeout",
        {"timeout_s": 1.5}),
    Row("stdout/stderr", "flooding stdout in io mode", "while True:\n    print('15 3 ' * 100)", IO, 0),
    Row("stdout/stderr", "a megabyte of blank lines", "import sys\nsys.stdout.write('\\n' * 1000000)", IO, 0),
    Row("stdout/stderr", "flooding stderr with forged lines",
        "import sys\nfor _ in range(20000):\n    sys.stderr.write('{\"k\": \"case\", \"ok\": true}\\n')\n" + WRONG_ADD, ADD_LIT, 0),
    # ------------------------------------------------------------------ exiting early
    Row("exiting early", "sys.exit(0) before the asserts", "import sys\nsys.exit(0)", ADD_LIT, 0),
    Row("exiting early", "os._exit(0) before the asserts", "import os\nos._exit(0)", ADD_LIT, 0),
    Row("exiting early", "sys.exit(0) inside the function", "def add(a, b):\n    import sys\n    sys.exit(0)", ADD_LIT, 0),
    Row("exiting early", "os._exit(0) inside the function", "def add(a, b):\n    import os\n    os._exit(0)", ADD_MIX, 0),
    Row("exiting early", "SIGKILL to itself inside the function",
        "import os, signal\ndef add(a, b):\n    os.kill(os.getpid(), signal.SIGKILL)", ADD_CHECK, 0),
    Row("exiting early", "excepthook and atexit",
        "import sys, atexit\nsys.excepthook = lambda *a: None\natexit.register(lambda: print('ALL TESTS PASSED'))\n"
        "def add(a, b):\n    raise AssertionError('x')", ADD_LIT, 0),
    Row("exiting early", "killing its parent and pid 1",
        "import os, signal\ndef add(a, b):\n    for pid in (os.getppid(), 1, -1):\n        for sig in (signal.SIGKILL, signal.SIGINT, signal.SIGSTOP):\n"
        "            try:\n                os.kill(pid, sig)\n            except OSError:\n                pass\n    return 0", ADD_LIT, 0),
    Row("exiting early", "killing its parent in io mode", "import os\nos.kill(os.getppid(), 9)\nos.killpg(0, 9)\nprint(15)", IO, 0),
    # ------------------------------------------------------------------ infinite loops
    Row("infinite loops", "loop in the function", "def add(a, b):\n    while True:\n        pass", ADD_LIT, 0, "timeout", {"timeout_s": 1.0}),
    Row("infinite loops", "loop at top level", "while True:\n    pass", ADD_LIT, 0, "timeout", {"timeout_s": 1.0}),
    Row("infinite loops", "sleeping past the deadline", "import time\ntime.sleep(30)\n" + GOOD_ADD, ADD_LIT, 0, "timeout",
        {"timeout_s": 1.0}),
    Row("infinite loops", "loop in io mode", "while True:\n    pass", IO, 0, "timeout", {"timeout_s": 2.0, "case_timeout_s": 0.5}),
    Row("infinite loops", "infinite generator consumed by the test",
        "def gen(n):\n    while True:\n        yield 0", {"tests": "assert list(gen(3)) == [0, 1, 2]"}, 0, "timeout", {"timeout_s": 1.5}),
    Row("infinite loops", "loop in __repr__ of a returned object (failure messages never call it)",
        "class R:\n    def __repr__(self):\n        while True:\n            pass\ndef add(a, b):\n    return R()", ADD_LIT, 0, None,
        {"timeout_s": 1.5}),
    Row("infinite loops", "loop in __repr__ called by the test",
        "class R:\n    def __repr__(self):\n        while True:\n            pass\ndef add(a, b):\n    return R()",
        {"tests": "assert repr(add(1, 2)) == '3'"}, 0, "timeout", {"timeout_s": 1.5}),
    # ------------------------------------------------------------------ fork bombs
    Row("fork bombs", "fork bomb at top level", "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass",
        ADD_LIT, 0, "timeout", {"timeout_s": 1.5}),
    Row("fork bombs", "fork bomb inside the function",
        "import os\ndef add(a, b):\n    while True:\n        try:\n            os.fork()\n        except OSError:\n            pass",
        ADD_LIT, 0, "timeout", {"timeout_s": 1.5}),
    Row("fork bombs", "thread bomb", "import threading, time\ndef spin():\n    time.sleep(30)\n"
        "def add(a, b):\n    while True:\n        try:\n            threading.Thread(target=spin).start()\n        except Exception:\n            pass",
        ADD_LIT, 0, "timeout", {"timeout_s": 1.5}),
    Row("fork bombs", "fork bomb in io mode", "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass",
        IO, 0, "timeout", {"timeout_s": 2.0, "case_timeout_s": 0.5}),
    Row("fork bombs", "leaving a process behind",
        "import os\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        os.execv('/usr/bin/sleep', ['sleep', '61.2345'])\n"
        "    os._exit(0)\n" + WRONG_ADD, ADD_LIT, 0),
    # ------------------------------------------------------------------ memory bombs
    Row("memory bombs", "one huge block at top level", "block = bytearray(64 << 30)\n" + WRONG_ADD, ADD_LIT, 0),
    # the row measures containment, not speed: a loaded machine zeroes the blocks slower than the default wall
    # limit allows (seen once as 'timeout' with four processes on two cores), so it gets its sibling's limit
    Row("memory bombs", "growing at top level", "blocks = [bytearray(1 << 24) for _ in range(10000)]\n" + GOOD_ADD, ADD_LIT, 0,
        opts={"timeout_s": 10.0}),
    Row("memory bombs", "growing inside the function",
        "def add(a, b):\n    blocks = [bytearray(1 << 24) for _ in range(10000)]\n    return a + b", ADD_LIT, 0,
        opts={"timeout_s": 10.0}),
    Row("memory bombs", "memory across forked children",
        "import os, time\nfor _ in range(12):\n    if os.fork() == 0:\n        try:\n            x = bytearray(900 << 20)\n"
        "            for i in range(0, len(x), 4096):\n                x[i] = 1\n            time.sleep(5)\n        finally:\n"
        "            os._exit(0)\ntime.sleep(0.5)\n" + WRONG_ADD, ADD_LIT, 0, None, {"timeout_s": 3.0}),
    Row("memory bombs", "memory bomb in io mode", "x = 'x' * (64 << 30)\nprint(15)", IO, 0),
    Row("memory bombs", "returning a gigantic value", "def add(a, b):\n    return [0] * (400 << 20)", ADD_LIT, 0),
]

# Honest programs: every one must pass (reward 1, status ok).
CONTROLS: list[Row] = [
    Row("controls", "MBPP-style literal asserts", GOOD_ADD, ADD_LIT, 1),
    Row("controls", "HumanEval check(candidate)", GOOD_ADD, ADD_CHECK, 1),
    Row("controls", "floats with math.isclose, abs and round", GOOD_ADD, ADD_FLOAT, 1),
    Row("controls", "builtins called on results", GOOD_ADD, ADD_CALLS, 1),
    Row("controls", "computed comparisons", GOOD_ADD, ADD_MIX, 1),
    Row("controls", "isinstance checks", GOOD_ADD, ADD_TYPE, 1),
    Row("controls", "functools.reduce with a test lambda", GOOD_ADD, ADD_REDUCE, 1),
    Row("controls", "Fraction arguments and results", GOOD_ADD, ADD_FRACTION, 1),
    Row("controls", "re.fullmatch in the test", GOOD_ADD, ADD_RE, 1),
    Row("controls", "check(add) as set-up", GOOD_ADD, ADD_SETUP_CHECK, 1),
    Row("controls", "helper raising in set-up (not triggered)", GOOD_ADD, ADD_SETUP_RAISE, 1),
    Row("controls", "set-up loop", GOOD_ADD, ADD_SETUP_LOOP, 1),
    Row("controls", "set-up with sys.exit on failure", GOOD_ADD, ADD_SETUP_EXIT, 1),
    Row("controls", "hidden set-up", GOOD_ADD, ADD_SETUP_HIDDEN, 1),
    Row("controls", "tests under a main guard", GOOD_ADD, ADD_MAIN, 1),
    Row("controls", "check() under a main guard", GOOD_ADD, ADD_MAIN_CHECK, 1),
    Row("controls", "unittest.main()", GOOD_ADD, ADD_UNITTEST, 1),
    Row("controls", "results in containers and dict keys", GOOD_ADD, ADD_OBJ, 1),
    Row("controls", "must-raise block", "def safe_div(a, b):\n    return a / b", DIV_RAISE, 1),
    Row("controls", "must-raise with a candidate exception subclass",
        "class DivByZero(ZeroDivisionError):\n    pass\ndef safe_div(a, b):\n    if b == 0:\n        raise DivByZero('b is 0')\n    return a // b",
        DIV_RAISE, 1),
    Row("controls", "map/filter/any over the candidate", "def is_even(n):\n    return n % 2 == 0", EVEN_MAP, 1),
    Row("controls", "membership and sorted over a returned list", "def digits(n):\n    return [int(c) for c in str(n)]", DIGITS, 1),
    Row("controls", "string results", "def greet(name):\n    return 'Hello, ' + name", GREET, 1),
    Row("controls", "str subclass result compared by value",
        "class S(str):\n    pass\ndef greet(name):\n    return S('Hello, ' + name)", GREET, 1),
    Row("controls", "5000-digit int", "def big():\n    return 10 ** 5000", BIG, 1),
    Row("controls", "a computed hidden value", "def secret():\n    return 'zq-51c9e7-hidden'", SECRET_EXPR, 1),
    Row("controls", "io program", GOOD_IO, IO, 1),
    Row("controls", "io plus hidden asserts",
        "def add(a, b):\n    return a + b\nif __name__ == '__main__':\n    x, y = map(int, input().split())\n    print(add(x, y))",
        IO_PLUS_ASSERTS, 1),
    Row("controls", "class under test",
        "class Stack:\n    def __init__(self):\n        self.items = []\n    def push(self, x):\n        self.items.append(x)\n"
        "    def pop(self):\n        return self.items.pop()\n    def __len__(self):\n        return len(self.items)\n"
        "    def __bool__(self):\n        return bool(self.items)",
        {"tests": "s = Stack()\ns.push(1)\ns.push(2)\nassert len(s) == 2\nassert s.pop() == 2\nassert s\nassert s.pop() == 1\n"
                  "assert not s\nassert isinstance(s, Stack)\nassert s.items == []"}, 1),
    Row("controls", "LeetCode Solution().method()",
        "from typing import List\nclass Solution:\n    def twoSum(self, nums: List[int], target: int) -> List[int]:\n"
        "        seen = {}\n        for i, x in enumerate(nums):\n            if target - x in seen:\n"
        "                return [seen[target - x], i]\n            seen[x] = i\n        return []",
        {"tests": "assert Solution().twoSum([2, 7, 11, 15], 9) == [0, 1]\nassert sorted(Solution().twoSum(nums=[3, 2, 4], target=6)) == [1, 2]",
         "hidden_tests": ["s = Solution()\nassert s.twoSum([3, 3], 6) == [0, 1]"]}, 1),
    Row("controls", "recursion", "import sys\nsys.setrecursionlimit(10000)\ndef depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\n"
        "def fib(n, memo={}):\n    if n < 2:\n        return n\n    if n not in memo:\n        memo[n] = fib(n - 1) + fib(n - 2)\n    return memo[n]",
        {"tests": "assert depth(3000) == 3000\nassert fib(90) == 2880067194370816120"}, 1),
    Row("controls", "generators", "def gen(n):\n    for i in range(n):\n        yield i * i",
        {"tests": "assert list(gen(4)) == [0, 1, 4, 9]\ng = gen(3)\nassert next(g) == 0\nassert next(g) == 1\n"
                  "assert sum(gen(1000)) == 332833500\nassert [x for x in gen(3)] == [0, 1, 4]"}, 1),
    Row("controls", "threads", "import threading\ndef par_sum(xs):\n    out = [0, 0]\n    def work(k):\n"
        "        out[k] = sum(xs[k::2])\n    ts = [threading.Thread(target=work, args=(k,)) for k in range(2)]\n"
        "    for t in ts:\n        t.start()\n    for t in ts:\n        t.join()\n    return out[0] + out[1]",
        {"tests": "assert par_sum(list(range(1001))) == 500500"}, 1),
    Row("controls", "Fraction and Decimal results",
        "from fractions import Fraction\nfrom decimal import Decimal\ndef third():\n    return Fraction(1, 3)\ndef price():\n    return Decimal('1.10')",
        {"tests": "from fractions import Fraction\nfrom decimal import Decimal\nassert third() == Fraction(1, 3)\n"
                  "assert third() * 3 == 1\nassert price() == Decimal('1.1')\nassert price() + Decimal('0.9') == 2"}, 1),
    Row("controls", "dataclass, namedtuple and enum results",
        "from dataclasses import dataclass\nfrom collections import namedtuple\nfrom enum import Enum\n"
        "@dataclass\nclass Point:\n    x: int\n    y: int\n    def norm1(self):\n        return abs(self.x) + abs(self.y)\n"
        "Pair = namedtuple('Pair', 'a b')\nclass Color(Enum):\n    RED = 1\n    GREEN = 2\n"
        "def mid(p, q):\n    return Point((p.x + q.x) // 2, (p.y + q.y) // 2)\ndef pair():\n    return Pair(1, 2)\n"
        "def color(n):\n    return Color(n)",
        {"tests": "assert mid(Point(0, 0), Point(4, 2)) == Point(2, 1)\nassert mid(Point(0, 0), Point(4, 2)).x == 2\n"
                  "assert mid(Point(0, 0), Point(-4, 2)).norm1() == 3\nassert pair() == (1, 2)\nassert pair().b == 2\n"
                  "assert color(2) == Color.GREEN\nassert color(1) != Color.GREEN\nassert color(1).name == 'RED'"}, 1),
    Row("controls", "big lists", "def f(n):\n    return list(range(n))",
        {"tests": "assert f(250000) == list(range(250000))\nassert len(f(250000)) == 250000\nassert f(250000)[-1] == 249999"}, 1),
    Row("controls", "big list argument mutated in place",
        "def sort_in_place(a):\n    a.sort()\ndef fill(grid):\n    for row in grid:\n        row[0] = 1",
        {"tests": "a = list(range(250000, 0, -1))\nsort_in_place(a)\nassert a == list(range(1, 250001))\n"
                  "g = [[0, 0], [0, 0]]\nfill(g)\nassert g == [[1, 0], [1, 0]]"}, 1),
    Row("controls", "re.Match truthiness", "import re\ndef find_digits(s):\n    return re.search(r'[0-9]+', s)",
        {"tests": "assert find_digits('ab12')\nassert not find_digits('abc')\nassert find_digits('x7').group(0) == '7'"}, 1),
    Row("controls", "callbacks and builtin functions as arguments",
        "def apply_twice(f, x):\n    return f(f(x))\ndef sort_by(xs, key):\n    return sorted(xs, key=key)",
        {"tests": "assert apply_twice(lambda v: v + 1, 3) == 5\nassert sort_by(['bb', 'a', 'ccc'], len) == ['a', 'bb', 'ccc']\n"
                  "assert sort_by(['B', 'a'], str.lower) == ['a', 'B']"}, 1),
    Row("controls", "plain data of every builtin kind",
        "def kinds():\n    return {(1, 'a'): {1, 2}, 'b': [None, True, 2.5, b'x\\x00', frozenset({3}), 1 + 2j, bytearray(b'y'), range(3)]}",
        {"tests": "assert kinds() == {(1, 'a'): {1, 2}, 'b': [None, True, 2.5, b'x\\x00', frozenset({3}), 1 + 2j, bytearray(b'y'), range(3)]}"}, 1),
    Row("controls", "module-level constants and imports used by the tests",
        "import math\nMOD = 10 ** 9 + 7\ndef power(b, e):\n    return pow(b, e, MOD)",
        {"tests": "assert power(2, 10) == 1024\nassert power(2, 100) == pow(2, 100, MOD)\nassert math.gcd(power(2, 3), 12) == 4"}, 1),
    Row("controls", "Counter and defaultdict results",
        "from collections import Counter, defaultdict, OrderedDict, deque\ndef count(s):\n    return Counter(s)\n"
        "def group(xs):\n    d = defaultdict(list)\n    for x in xs:\n        d[x % 2].append(x)\n    return d\n"
        "def window(xs):\n    return deque(xs, maxlen=2)",
        {"tests": "assert count('abca') == {'a': 2, 'b': 1, 'c': 1}\nassert count('abca')['a'] == 2\n"
                  "assert group([1, 2, 3]) == {1: [1, 3], 0: [2]}\nassert list(window([1, 2, 3])) == [2, 3]"}, 1),
    Row("controls", "triple backticks inside a string", "FENCE = '```'\ndef wrap(s):\n    return FENCE + s + FENCE",
        {"tests": "assert wrap('x') == '```x```'"}, 1),
    Row("controls", "printing a lot in assert mode", "def add(a, b):\n    print('debug ' * 1000)\n    return a + b\n"
        "for _ in range(2000):\n    print('noise ' * 100)", ADD_LIT, 1),
    Row("controls", "main guard demo with input() in the candidate",
        "def add(a, b):\n    return a + b\nif __name__ == '__main__':\n    print(add(*map(int, input().split())))", ADD_LIT, 1),
    Row("controls", "3M iterations on both sides", "def count(n):\n    return sum(i % 7 for i in range(n))",
        {"tests": "assert count(3_000_000) == sum(i % 7 for i in range(3_000_000))"}, 1),
    Row("controls", "keyword arguments, defaults and *args",
        "def f(a, b=2, *rest, scale=1, **extra):\n    return (a + b + sum(rest)) * scale + len(extra)",
        {"tests": "assert f(1) == 3\nassert f(1, 1, 1, 1, scale=2) == 8\nassert f(a=1, b=0, z=9) == 2"}, 1),
    Row("controls", "closures and returned functions",
        "def make_adder(k):\n    def add(x):\n        return x + k\n    return add",
        {"tests": "plus3 = make_adder(3)\nassert plus3(4) == 7\nassert list(map(make_adder(1), [1, 2])) == [2, 3]"}, 1),
]

ALL_ROWS = ROWS + CONTROLS


def jsonl_rows() -> list[dict[str, Any]]:
    """The table as ``rlvr audit`` rows: id, completion, the sample's test fields, expected."""
    out = []
    for k, row in enumerate(ALL_ROWS):
        out.append({"id": f"{k:03d} {row.family}: {row.name}", "completion": row.completion(),
                    **row.fields, "expected": row.expect})
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(f"usage: {argv[0]} OUT.jsonl", file=sys.stderr)
        return 2
    with open(argv[1], "w", encoding="utf-8") as fh:
        for record in jsonl_rows():
            fh.write(json.dumps(record) + "\n")
    families: dict[str, int] = {}
    for row in ALL_ROWS:
        families[row.family] = families.get(row.family, 0) + 1
    print(f"wrote {len(ALL_ROWS)} rows to {argv[1]}: {families}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
