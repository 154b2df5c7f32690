"""Call-heavy tests inside the default limits, and the binary fast path's refusals.

Each call from the tests into the candidate is a round trip between two processes
(``code_judge.Conn``; docs/sandbox.md, "Cost per call"). A test making 600,000 cheap calls in
a plain ``for`` loop must pass; whether it fits the default ``timeout_s`` is a wall-clock figure
of the machine's load, measured by ``bench/verify_code.py --call-cost`` (6.8–8.0 s on a quiet
machine, docs/sandbox.md), not asserted here, where other test files share the cores; the other
call-heavy shapes (``assert`` in a loop, ``all``/``any`` over a generator, a ``while`` loop,
method calls on a returned object) run with fewer calls and are only asked to pass: no
wall-clock number is asserted but the verifier's own deadline.

The binary messages (``pack_call``/``unpack_atoms``) come from a process the judge does not
trust: malformed, truncated or oversized ones, in the shared page or in the pipe, must end as
a failed test, never a pass.
"""

from __future__ import annotations

import os
import platform
import struct
import threading

import pytest

from rlvr import sandbox
from rlvr.types import Sample
from rlvr.verifiers import code as cv
from rlvr.verifiers import code_judge as cj

REASON = sandbox.probe() or (None if os.path.exists("/usr/bin/python3") else "/usr/bin/python3 missing")


def sandboxed(test):
    return pytest.mark.sandbox(pytest.mark.skipif(REASON is not None, reason=f"sandbox unavailable: {REASON}")(test))


PROGRAM = """
def inc(x):
    return x + 1

class Counter:
    def __init__(self):
        self.n = 0

    def add(self, x):
        self.n += x
        return self.n

def make():
    return Counter()
"""


def verify(program: str, tests: str, **opts):
    return cv.verify_code(f"```python\n{program}\n```", Sample("s", "p", fields={"tests": tests}), **opts)


# ---------------------------------------------------------------------------- call-heavy shapes


@sandboxed
def test_600k_calls_in_a_for_loop_pass():
    tests = "total = 0\nfor i in range(600_000):\n    total += inc(i)\nassert total == 180_000_300_000"
    # the verdict is asserted, not the wall clock: a round trip costs 12 us on one host and over 100 us on
    # another whose two vCPUs switch slowly (bench/verify_code.py --call-cost), so the deadline leaves room
    verdict = verify(PROGRAM, tests, timeout_s=240.0)
    assert (verdict.reward, verdict.status) == (1.0, "ok"), verdict.detail


SHAPES = {
    "assert-in-loop": "for i in range(60_000):\n    assert inc(i) == i + 1",
    "all-generator": "assert all(inc(i) == i + 1 for i in range(60_000))",
    "any-generator": "assert not any(inc(i) != i + 1 for i in range(60_000))",
    "while-loop": "i = 0\nwhile i < 60_000:\n    assert inc(i) == i + 1\n    i += 1",
    "method-calls": "c = make()\nfor i in range(60_000):\n    c.add(1)\nassert c.n == 60_000",
}


@sandboxed
@pytest.mark.parametrize("shape", list(SHAPES))
def test_call_heavy_shapes_pass_inside_the_default_limits(shape):
    verdict = verify(PROGRAM, SHAPES[shape])
    assert (verdict.reward, verdict.status) == (1.0, "ok"), verdict.detail


@sandboxed
def test_fused_method_calls_keep_python_semantics():
    """``obj.m(x)`` in one round trip: the attribute is still looked up before the call (a
    failing look-up wins over a failing argument), attributes that are not the program's
    functions are called by the judge (a test's call-back, a builtin), a property is read
    once, and the proxy's own methods (a generator's ``send``) are never fused."""
    program = """
reads = []
class Box:
    def __init__(self):
        self.items = []
        self.cb = None
    def push(self, x):
        self.items.append(x)
        return len(self.items)
    @property
    def getter(self):
        reads.append(1)
        return self.push
    def __getattr__(self, name):
        if name == "dyn":
            return lambda x: x * 3
        raise AttributeError(name)
def gen():
    x = yield 1
    yield x * 2
def box():
    return Box()
def nreads():
    return len(reads)
"""
    tests = """
for _ in range(0):  # a loop in the source: its method calls are rewritten (code_judge._compile_unit)
    pass
b = box()
assert b.push(1) == 1 and b.push("a") == 2
assert b.getter(5) == 3 and nreads() == 1
assert b.dyn(4) == 12
b.cb = lambda x: x + 100
assert b.cb(1) == 101
try:
    b.missing(undefined_name)
except AttributeError:
    pass
else:
    raise AssertionError("the look-up must fail first")
try:
    b.push(undefined_name)
except NameError:
    pass
else:
    raise AssertionError("NameError expected")
assert b.push(None) == 4
g = gen()
assert next(g) == 1 and g.send(5) == 10
assert "a,b".split(",") == ["a", "b"]
class T:
    y = 3
    z = "q".upper()
assert T.z == "Q"
"""
    verdict = verify(program, tests)
    assert (verdict.reward, verdict.status) == (1.0, "ok"), verdict.detail


@sandboxed
def test_fused_method_calls_carry_the_tests_process_state():
    """With process state to carry (the tests name ``os.environ``) or arguments that are not
    atoms, a fused call goes as JSON; an attribute that is a test's call-back is still called
    by the judge."""
    program = """
import os
class Box:
    def __init__(self):
        self.cb = None
    def env(self, key):
        return os.environ.get(key)
def box():
    return Box()
"""
    tests = """
import os
os.environ["RLVR_X"] = "1"
b = box()
b.cb = lambda x: x + [100]
xs = [1]
for _ in range(2):
    assert b.env("RLVR_X") == "1"
    assert b.cb(xs) == [1, 100]
"""
    verdict = verify(program, tests)
    assert (verdict.reward, verdict.status) == (1.0, "ok"), verdict.detail


def _names(code):
    out = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            out |= _names(const)
    return out


@pytest.mark.parametrize("src", [
    "c = make()\nfor i in range(3):\n    c.add(1)",
    "i = 0\nwhile i < 3:\n    c.add(i)\n    i += 1",
    "def check(c):\n    for i in range(3):\n        assert c.add(i) == i",
    "assert all(c.add(i) for i in range(3))",
])
def test_method_calls_in_sources_with_a_loop_take_one_round_trip(src):
    assert "_rlvr_method" in _names(cj._compile_unit(src))


@pytest.mark.parametrize("src", [
    "assert c.add(1) == 1",  # no loop: compiled as written
    "class T:\n    for i in range(2):\n        c.add(i)",  # a class body: a lambda would not see its names
    "for i in range(3):\n    c.add(*xs)\n    c.add(k=1)\n    c.add(i + 1)",  # not names and constants
])
def test_other_calls_are_compiled_as_written(src):
    assert "_rlvr_method" not in _names(cj._compile_unit(src))


# ---------------------------------------------------------------------------- binary messages


@pytest.mark.parametrize("value", [0, -1, 2**63 - 1, -(2**63), 2**63, -(2**200), 10**4000, 1.5, -0.0, float("inf"),
                                   "", "héllo", "\ud800", b"", b"\x00\xff", True, False, None])
def test_atoms_round_trip_exactly(value):
    parts = [b"V"]
    assert cj.pack_atom(value, parts)
    back = cj.unpack_value(b"".join(parts))
    assert type(back) is type(value) and (back == value or back != back)
    if type(value) is float:
        assert struct.pack("<d", back) == struct.pack("<d", value)


def test_what_is_no_atom_stays_json():
    for value in ([1], (1,), {1: 2}, 1 + 2j, bytearray(b"x"), 1 << 50000, type("I", (int,), {})(3)):
        assert not cj.pack_atom(value, [])
    assert cj.pack_call(1, (1, [2])) is None


BAD_BINARY = [
    b"V",  # no atom
    b"Vi\x01\x02",  # truncated int
    b"Vf\x00",  # truncated float
    b"Vs\x05\x00\x00\x00ab",  # string shorter than its length
    b"Vs\xff\xff\xff\xffab",  # a length far past the message
    b"Vs\x02\x00\x00\x00\xff\xfe",  # not UTF-8
    b"Vb\x03\x00\x00",  # truncated length
    b"VI" + struct.pack("<I", 6000) + b"\x01" * 6000,  # an int past the size limit
    b"Vz",  # unknown tag
    b"ViAAAAAAAAT",  # two atoms in a one-value reply
    b"VN\x00",  # trailing junk
]


@pytest.mark.parametrize("data", BAD_BINARY)
def test_the_judge_refuses_malformed_binary_replies(data):
    with pytest.raises(cj.ProtocolError):
        cj.unpack_value(data)


def _pair():
    shm = cj.shared_channels()
    if shm is None:
        pytest.skip("no shared-memory transport on this machine")
    j_r, c_w = os.pipe()
    c_r, j_w = os.pipe()
    judge = cj.Conn(j_r, j_w, cj.JudgeCodec(), None, shm, 0)
    cand = cj.Conn(c_r, c_w, cj.CandidateCodec({}), None, shm, 1)
    return judge, cand, (j_r, c_w, c_r, j_w)


def test_shared_memory_messages_small_and_large():
    judge, cand, fds = _pair()
    try:
        big = b"Vs" + struct.pack("<I", 200_000) + b"x" * 200_000  # through the pipe, read as it comes
        for data in (b'["r", 1]', big, b"VN", big):
            sender = threading.Thread(target=cand.send_bytes, args=(data,))
            sender.start()
            assert judge.recv_bytes() == data
            sender.join()
        sender = threading.Thread(target=cand.send_bytes, args=(big,))
        sender.start()
        assert judge.reply() == ["r", "x" * 200_000]
        sender.join()
        cand.send_bytes(b"F\x01\x00\x00\x00")  # a binary request to the judge: never served
        with pytest.raises(cj.ProtocolError):
            judge.reply()
    finally:
        for fd in fds:
            os.close(fd)


@pytest.mark.parametrize("forge", ["length", "pipe-junk", "pipe-huge", "reply-junk"])
def test_the_judge_refuses_forged_frames(forge):
    """What a hostile candidate can write into the shared page or the pipe: a length that is
    neither a slot's nor the pipe's marker, junk or an oversized length in the pipe, a reply
    that is no message at all."""
    judge, cand, fds = _pair()
    try:
        if forge == "length":
            struct.pack_into("<I", cand.shm, cand.o_len, cj.SHM_CAP + 1)
            cand.shm[cand.o_seq] = 1
        elif forge in ("pipe-junk", "pipe-huge"):
            struct.pack_into("<I", cand.shm, cand.o_len, 0xFFFFFFFF)
            cand.shm[cand.o_seq] = 1
            frame = b"q" * 16 if forge == "pipe-junk" else b"m" + (cj.MAX_MESSAGE + 1).to_bytes(8, "little")
            os.write(fds[1], frame)
        else:
            cand.send_bytes(b"\x00garbage")
        with pytest.raises(cj.ProtocolError):
            judge.reply()
    finally:
        for fd in fds:
            os.close(fd)


FORGE = """
import os, struct, sys, time

def _conn():
    f = sys._getframe()
    while f is not None:
        s = f.f_locals.get("self")
        if s is not None and hasattr(s, "conn") and hasattr(s.conn, "shm"):
            return s.conn
        f = f.f_back

def inc(x):
    c = _conn()
    data = DATA
    if c.shm is None:
        return x + 1
    if data is None:  # a length that is neither a slot's nor the pipe's marker
        struct.pack_into("<I", c.shm, c.o_len, (1 << 16) + 7)
        c.seq = (c.seq + 1) & 255
        c.shm[c.o_seq] = c.seq
        os.write(c.wfd, b"w")  # the judge may be asleep
    else:
        c.send_bytes(data)
    time.sleep(30)
"""


@sandboxed
@pytest.mark.parametrize("data", [None, b"Vi\x02\x00", b"Vs\xff\xff\xff\x7f", b"Vq", b"ViAAAAAAAAT",
                                  b"VI" + struct.pack("<I", 6000) + b"\x01" * 6000, b"F\x01\x00\x00\x00"])
def test_malformed_binary_replies_from_the_candidate_are_never_paid(data):
    """The candidate writes a broken reply into the shared page and hangs: the judge ends the
    call as a failure at once (not after the deadline), even under a bare ``except``."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        pytest.skip("no shared-memory transport on this machine")
    program = FORGE.replace("DATA", repr(data))
    verdict = verify(program, "try:\n    inc(1)\nexcept BaseException:\n    pass\nassert True", timeout_s=8.0)
    assert verdict.reward == 0.0 and verdict.status == "wrong", (verdict.status, verdict.detail)
    verdict = verify(program, "assert inc(1) == 2", timeout_s=8.0)
    assert verdict.reward == 0.0 and verdict.status == "wrong", (verdict.status, verdict.detail)
