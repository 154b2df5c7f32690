"""The bubblewrap sandbox itself: isolation, limits, cleanup, and the refusal without bwrap."""

from __future__ import annotations

import logging
import os
import time

import pytest

from rlvr import sandbox

REASON = sandbox.probe()
needs_bwrap = pytest.mark.skipif(REASON is not None, reason=f"sandbox unavailable: {REASON}")
PY = "/usr/bin/python3"
needs_python = pytest.mark.skipif(not os.path.exists(PY), reason=f"{PY} missing (apt-get install -y python3-minimal)")
pytestmark = [pytest.mark.sandbox, needs_bwrap, needs_python]


PAYLOAD_FIELDS = {"stdin", "files", "writable_files", "inputs", "ro_binds", "env"}


def py(src: str, **kw) -> sandbox.RunResult:
    """Run Python source; payload fields and run options may be mixed as keywords here."""
    payload = sandbox.Payload(**{k: kw.pop(k) for k in list(kw) if k in PAYLOAD_FIELDS})
    return sandbox.run([PY, "-I", "-S", "-c", src], payload, **kw)


def test_identity_and_view_of_the_host():
    res = py(
        "import os\n"
        "print(os.getuid(), os.getgid(), os.getpid())\n"
        "print(sorted(os.listdir('/')))\n"
        "print(sorted(os.listdir('/work')), os.path.exists('/root'), os.path.exists('/etc/passwd'))\n"
        "print(open('/proc/self/status').read().split('CapEff:')[1].split()[0])\n"
    )
    lines = res.stdout.decode().splitlines()
    assert res.returncode == 0, res.stderr
    assert lines[0] == "65534 65534 1"  # nobody, and pid 1 of its own pid namespace
    assert lines[1] == str(sorted(["bin", "dev", "lib", "lib64", "proc", "sbin", "tmp", "usr", "work"]))
    assert lines[2] == "[] False False"  # empty work dir, no host home, no /etc
    assert lines[3] == "0000000000000000"  # no capabilities at all
    if os.geteuid() == 0:
        assert res.host_uid is not None and res.host_uid >= sandbox.HOST_UID_BASE


def test_files_are_read_only_unless_listed_writable():
    res = py(
        "print(open('/work/in.txt').read(), open('/work/rw.txt').read())\n"
        "open('/work/rw.txt', 'w').write('changed')\n"
        "try:\n    open('/work/in.txt', 'w')\nexcept OSError as e:\n    print(e.errno)\n",
        files={"/work/in.txt": b"ro", "/work/rw.txt": b"rw"}, writable_files=["/work/rw.txt"],
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert res.stdout == b"ro rw\n30\n"  # 30 = EROFS


def test_channel_fds_are_substituted():
    res = sandbox.run(
        [PY, "-I", "-S", "-c", "import os,sys; os.write(int(sys.argv[2]), os.read(int(sys.argv[1]), 9)[::-1])",
         "{fd_in}", "{fd_out}"],
        sandbox.Payload(inputs={"fd_in": b"abc"}), channel_out=True,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert res.channel == b"cba"


def test_no_network():
    res = py(
        "import socket\n"
        "for host in ('127.0.0.1', '1.1.1.1'):\n"
        "    try:\n"
        "        socket.create_connection((host, 80), timeout=1); print('connected')\n"
        "    except OSError as e:\n"
        "        print(type(e).__name__)\n"
    )
    assert b"connected" not in res.stdout
    assert len(res.stdout.splitlines()) == 2


def test_system_dirs_are_read_only():
    res = py("import os\ntry:\n    open('/usr/lib/rlvr-probe', 'w')\nexcept OSError as e:\n    print(e.errno)\n")
    assert res.stdout == b"30\n"


def test_wall_timeout_kills_an_infinite_loop_quickly():
    start = time.monotonic()
    res = py("while True: pass", limits=sandbox.Limits(wall_s=1.0))
    assert res.timed_out and res.returncode is None
    assert time.monotonic() - start < 3.0


def test_stdout_flood_is_cut_at_the_cap():
    start = time.monotonic()
    res = py("while True: print('PASSED' * 1000)", limits=sandbox.Limits(max_stdout_bytes=100_000))
    assert res.overflowed == "stdout" and res.returncode is None
    assert len(res.stdout) == 100_000
    assert time.monotonic() - start < 3.0


@pytest.mark.skipif(os.geteuid() != 0, reason="exact per-run RLIMIT_NPROC needs a fresh uid (root)")
def test_fork_bomb_is_stopped_by_the_process_limit():
    res = py(
        "import os, time\n"
        "n = 0\n"
        "try:\n"
        "    while True:\n"
        "        if os.fork() == 0:\n"
        "            time.sleep(5); os._exit(0)\n"
        "        n += 1\n"
        "except OSError as e:\n"
        "    print(n, e.errno)\n",
        limits=sandbox.Limits(max_processes=16, wall_s=5.0),
    )
    count, errno = map(int, res.stdout.split())
    assert errno == 11  # EAGAIN
    assert count == 14  # the other 2 of the 16: bwrap (outside the namespace) and python itself


def test_memory_bomb_hits_the_address_space_limit():
    res = py("x = bytearray(3 << 30)", limits=sandbox.Limits(memory_bytes=512 << 20))
    assert res.returncode == 1
    assert b"MemoryError" in res.stderr


def test_file_size_and_tmpfs_limits():
    res = py(
        "import os\n"
        "try:\n    open('/tmp/big', 'wb').write(b'x' * (2 << 20))\nexcept OSError as e:\n    print('fsize', e.errno)\n"
        "try:\n"
        "    for k in range(10):\n        open(f'/work/f{k}', 'wb').write(b'x' * (1 << 20))\n"
        "except OSError as e:\n    print('tmpfs', e.errno)\n",
        limits=sandbox.Limits(max_file_bytes=1 << 20, tmpfs_bytes=4 << 20),
    )  # fmt: skip
    # RLIMIT_FSIZE raises SIGXFSZ, which Python ignores, so the write fails with EFBIG (27).
    assert res.stdout == b"fsize 27\ntmpfs 28\n", res.stderr  # 28 = ENOSPC


@pytest.mark.skipif(os.geteuid() != 0, reason="needs the per-run uid to find leftovers")
def test_no_process_is_left_behind():
    res = py(
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        time.sleep(60)\n"
        "    os._exit(0)\n"
        "print('parent leaves')\n"
    )
    assert res.stdout == b"parent leaves\n"
    time.sleep(0.2)
    assert sandbox._processes_of(res.host_uid) == 0


def test_killing_the_parent_from_inside_hurts_nobody():
    res = py("import os, signal\nos.kill(os.getppid(), 9)\nos.kill(1, 9)\nprint('still here')\n")
    assert res.stdout == b"still here\n"  # ppid is 0 outside the namespace; pid 1 is itself


def test_refuses_without_a_sandbox(monkeypatch):
    monkeypatch.setattr(sandbox, "probe", lambda: "bwrap not found on PATH (test)")
    with pytest.raises(sandbox.SandboxUnavailable, match="bwrap not found"):
        py("print('hi')")


def test_unsandboxed_fallback_runs_with_a_loud_warning(monkeypatch, caplog):
    monkeypatch.setattr(sandbox, "probe", lambda: "bwrap not found on PATH (test)")
    sandbox._warn_unsandboxed.cache_clear()
    with caplog.at_level(logging.WARNING, logger="rlvr.sandbox"):
        res = py(
            "import os; print(open('a.txt').read(), os.path.exists('/usr/lib'))",
            allow_unsandboxed=True, files={"/work/a.txt": b"x"},
        )  # fmt: skip
    assert res.sandboxed is False
    assert res.stdout == b"x True\n"  # host file system visible: that is the point of the warning
    assert "UNSANDBOXED" in caplog.text


def test_killing_the_caller_takes_the_sandbox_down(tmp_path):
    """The pool's backstop kills a verifier worker with SIGKILL: the sandbox must die with it."""
    import signal
    import subprocess
    import sys

    marker = "77.4321"
    caller = subprocess.Popen([sys.executable, "-c", (
        "from rlvr import sandbox\n"
        "sandbox.run(['/usr/bin/python3', '-I', '-S', '-c',"
        f" \"import os; os.execv('/usr/bin/sleep', ['sleep', '{marker}'])\"],"
        " limits=sandbox.Limits(wall_s=60))\n"
    )])  # fmt: skip

    def sleepers() -> list[str]:
        found = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as fh:
                    found += [pid] if marker.encode() in fh.read() else []
            except OSError:
                pass
        return found

    deadline = time.monotonic() + 10
    while not sleepers() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sleepers(), "the sandboxed sleep never started"
    caller.send_signal(signal.SIGKILL)
    caller.wait()
    deadline = time.monotonic() + 5
    while sleepers() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sleepers() == []


# ----------------------------------------------------------------------------- seccomp and the memory bound

SYSCALL_PROBE = r'''
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(nr, *args):
    ctypes.set_errno(0)
    r = libc.syscall(nr, *args)
    return r, ctypes.get_errno()
NR = {"getpid": 39, "ptrace": 101, "process_vm_readv": 310, "pidfd_open": 434, "pidfd_getfd": 438,
      "io_uring_setup": 425, "bpf": 321, "keyctl": 250, "perf_event_open": 298, "userfaultfd": 323,
      "unshare": 272, "mount": 165, "kcmp": 312, "x32 getpid": 0x40000000 | 39}
for name, nr in NR.items():
    r, err = call(nr, 0, 0, 0, 0, 0)
    print(name, r, err)
print(open("/proc/self/status").read().split("Seccomp:")[1].split()[0])
'''


@pytest.mark.skipif(sandbox.seccomp_program() is None, reason="no seccomp table for this architecture")
def test_seccomp_refuses_the_dangerous_calls_and_the_x32_abi():
    res = py(SYSCALL_PROBE)
    assert res.returncode == 0, res.stderr
    assert res.seccomp is True
    lines = res.stdout.decode().splitlines()
    got = {line.rsplit(" ", 2)[0]: tuple(map(int, line.rsplit(" ", 2)[1:])) for line in lines[:-1]}
    assert got.pop("getpid") == (1, 0)  # allowed, and pid 1 of its namespace
    assert got == {name: (-1, 1) for name in got}  # every other one: -1, EPERM
    assert lines[-1] == "2"  # SECCOMP_MODE_FILTER


def test_seccomp_program_checks_the_architecture_first():
    import struct

    prog = sandbox.seccomp_program("x86_64")
    insns = [struct.unpack("=HBBI", prog[k : k + 8]) for k in range(0, len(prog), 8)]
    assert insns[0] == (0x20, 0, 0, 4)  # load seccomp_data.arch
    assert insns[1] == (0x15, 1, 0, 0xC000003E)  # AUDIT_ARCH_X86_64, else fall into the deny (i386 entry too)
    assert insns[2] == (0x06, 0, 0, 0x00050001)  # ERRNO(EPERM)
    assert insns[4][0] == 0x35 and insns[4][3] == 0x40000000  # x32 numbers refused
    assert insns[-2] == (0x06, 0, 0, 0x7FFF0000) and insns[-1] == (0x06, 0, 0, 0x00050001)
    for pc, (code, jt, _, _) in enumerate(insns):
        if code in (0x15, 0x35) and pc > 1:
            assert pc + 1 + jt == len(insns) - 1  # every match jumps to the final deny
    assert sandbox.seccomp_program("aarch64") is not None and sandbox.seccomp_program("mips") is None


MEMORY_HOG = r'''
import os, time
kids = []
for _ in range(6):
    pid = os.fork()
    if pid == 0:
        try:
            x = bytearray(100 << 20)
            for i in range(0, len(x), 4096):
                x[i] = 1
            time.sleep(4)
        finally:
            os._exit(0)
    kids.append(pid)
time.sleep(2)
print(sum(os.waitpid(pid, os.WNOHANG) == (0, 0) for pid in kids))  # still holding their 100 MiB
'''


@pytest.mark.parametrize("cgroup", ["1", "0"])
def test_memory_has_one_bound_for_the_whole_run(monkeypatch, cgroup):
    """Six children of 100 MiB each under a 256 MiB bound: at most two can hold theirs at once
    (the cgroup's OOM killer takes the others; split rlimits refuse the allocation)."""
    monkeypatch.setenv(sandbox.CGROUP_ENV, cgroup)
    sandbox._cgroup_base.cache_clear()
    try:
        limits = sandbox.Limits(memory_bytes=256 << 20, max_processes=8, wall_s=8.0)
        res = py(MEMORY_HOG, limits=limits)
        if cgroup == "1" and sandbox._cgroup_base() is None:
            pytest.skip("no writable memory cgroup here")
        assert res.memory_bound == ("cgroup" if cgroup == "1" else "rlimit")
        assert res.stdout.strip().isdigit(), res.stderr[-400:]
        assert int(res.stdout) * 100 <= 256, res.stdout
        assert limits.process_memory_bytes(res.memory_bound == "cgroup") * (1 if cgroup == "1" else 8) <= 256 << 20
    finally:
        sandbox._cgroup_base.cache_clear()


def test_memory_cgroups_are_removed_after_the_run():
    base = sandbox._cgroup_base()
    if base is None:
        pytest.skip("no writable memory cgroup here")
    sandbox.discard_started()  # runs started ahead by earlier tests hold a cgroup each until used
    py("print(1)")
    left = [n for n in os.listdir(base[1]) if n.startswith(f"rlvr-{os.getpid()}-")]
    assert left == []


# A program for runs started ahead: waits for the go byte, then prints its inputs and facts
# about its sandbox (uid seen from the host, a file left in /tmp by an earlier run).
WAITER = r"""
import os, sys
go = int(sys.argv[1])
if not os.read(go, 1):
    raise SystemExit(9)
seen = os.path.exists("/tmp/left-behind")
open("/tmp/left-behind", "w").write("x")
print(open(int(sys.argv[2]), "rb").read().decode(), open(int(sys.argv[3]), "rb").read().decode(),
      sys.stdin.read(), seen)
"""


def _waiter(mine: bytes, stdin: bytes = b"", limits: sandbox.Limits | None = None) -> sandbox.RunResult:
    limits = limits or sandbox.Limits()
    return sandbox.run([PY, "-I", "-S", "-c", WAITER, "{go}", "{same}", "{mine}"],
                       sandbox.Payload(stdin=stdin, inputs={"same": b"S", "mine": mine}), limits=limits,
                       prestart=("same",))


def test_a_run_started_ahead_gets_its_own_inputs_and_a_fresh_sandbox():
    sandbox.discard_started()
    first = _waiter(b"one", b"in1")
    assert len(sandbox._started) == 1  # the next run's sandbox waits for its byte
    waiting = next(iter(sandbox._started.values()))
    assert waiting.proc.poll() is None
    second = _waiter(b"two", b"in2")
    assert waiting.proc.poll() is not None  # it ran as the second run
    assert (first.returncode, first.stdout) == (0, b"S one in1 False\n")
    assert (second.returncode, second.stdout) == (0, b"S two in2 False\n")  # nothing left by the first
    if os.geteuid() == 0:
        assert first.host_uid != second.host_uid
    assert first.seccomp and second.seccomp


# After its go byte: every process it can see, and its own pid.
PEEKER = r"""
import os, sys
if not os.read(int(sys.argv[1]), 1):
    raise SystemExit(9)
print(sorted(int(p) for p in os.listdir("/proc") if p.isdigit()), os.getpid())
"""


def test_a_run_cannot_see_the_sandbox_started_ahead_for_the_next_one():
    """While a run goes on, the next run's sandbox waits with unsealed memfds for its sample;
    the running program sees only its own pid namespace (itself as pid 1), so it cannot reach
    them (the kernel would not let it write into another uid's memfd anyway)."""
    sandbox.discard_started()
    argv = [PY, "-I", "-S", "-c", PEEKER, "{go}", "{rt}"]
    payload = sandbox.Payload(inputs={"rt": b"R"})
    sandbox.run(argv, payload, prestart=("rt",))  # starts the next one ahead
    (waiting,) = sandbox._started.values()
    res = sandbox.run(argv, payload, prestart=("rt",))  # runs in it while a third waits
    assert waiting.proc.poll() is not None and len(sandbox._started) == 1
    assert res.returncode == 0, res.stderr
    assert res.stdout == b"[1] 1\n"
    sandbox.discard_started()


def test_other_limits_or_prestart_inputs_get_a_sandbox_of_their_own():
    sandbox.discard_started()
    _waiter(b"a")
    other = _waiter(b"b", limits=sandbox.Limits(wall_s=5.0))  # another key: started here, not taken
    assert other.stdout == b"S b  False\n"
    assert len(sandbox._started) == 2
    sandbox.discard_started()
    assert sandbox._started == {}


def test_discarding_kills_the_waiting_sandbox_and_frees_its_cgroup():
    sandbox.discard_started()
    _waiter(b"a")
    (waiting,) = sandbox._started.values()
    cgroup = waiting.cgroup
    sandbox.discard_started()
    assert waiting.proc.poll() is not None
    assert cgroup is None or not os.path.exists(cgroup)


def test_prestart_refuses_files_and_unknown_input_names():
    with pytest.raises(ValueError, match="inputs, not files"):
        sandbox.run([PY, "-c", "pass"], sandbox.Payload(files={"/work/a": b"x"}), prestart=())
    with pytest.raises(ValueError, match=r"lacks: \['rt'\]"):
        sandbox.run([PY, "-c", "pass"], sandbox.Payload(), prestart=("rt",))


def test_a_failing_launcher_raises_instead_of_returning_a_result(monkeypatch):
    monkeypatch.setattr(sandbox, "_LAUNCH", "echo 'cannot join' >&2; exit 3\n")
    with pytest.raises(RuntimeError, match=r"launcher failed \(exit 3\).*cannot join"):
        py("print(1)")
    sandbox.discard_started()
    with pytest.raises(RuntimeError, match="launcher failed"):
        _waiter(b"a")
    sandbox.discard_started()


def test_the_launcher_sets_every_rlimit_exactly():
    limits = sandbox.Limits(cpu_s=7, memory_bytes=256 << 20, max_processes=12, max_file_bytes=3 << 20,
                            max_open_files=100)
    res = py("print(open('/proc/self/limits').read())", limits=limits)
    rows = {line[:26].strip(): line[26:].split()[:2] for line in res.stdout.decode().splitlines()[1:] if line.strip()}
    cgroup = res.memory_bound == "cgroup"
    assert rows["Max cpu time"] == ["7", "7"]
    assert rows["Max file size"] == [str(3 << 20)] * 2
    assert rows["Max open files"] == ["100", "100"]
    assert rows["Max address space"] == [str(limits.process_memory_bytes(cgroup))] * 2
    assert rows["Max core file size"] == ["0", "0"]
    if os.geteuid() == 0:  # a fresh uid: exactly the configured count
        assert rows["Max processes"] == ["12", "12"]
