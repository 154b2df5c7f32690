"""The processes of the sandbox: pid 1's own set-up, the io tests (one fresh fork per test, run
as ``__main__``), and the process helpers the candidate process shares with them."""

from __future__ import annotations

import binascii
import builtins
import gc
import os
import select
import sys
import time

# ============================================================================ pid 1: io tests


def _set_dumpable_off():
    """prctl(PR_SET_DUMPABLE, 0) through the ctypes C core (the ctypes package costs more to import)."""
    import _ctypes

    class _Int(_ctypes._SimpleCData):
        _type_ = "i"

    class _Fn(_ctypes.CFuncPtr):
        _flags_ = _ctypes.FUNCFLAG_CDECL
        _restype_ = _Int

    class _Libc:
        _handle = _ctypes.dlopen(None, os.RTLD_NOW)

    prctl = _Fn(("prctl", _Libc))
    if prctl(4, 0, 0, 0, 0) != 0 or prctl(3, 0, 0, 0, 0) != 0:  # PR_SET_DUMPABLE, PR_GET_DUMPABLE
        raise OSError("prctl(PR_SET_DUMPABLE, 0) failed")


def _kill_others(pid):
    """As pid 1 of the sandbox: kill every other process; else the child's process group."""
    import signal

    if os.getpid() == 1:
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
    else:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0 and os.getpid() != 1:
                return
        except ChildProcessError:
            return
        if os.getpid() == 1:
            time.sleep(0)


def _close_inherited(keep=()):
    """Close every descriptor above stdio but ``keep``, whatever its number: a host process with
    many files open hands the record pipe and the test payload over above 256."""
    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        fds = range(3, 1 << 16)
    for fd in fds:
        if fd > 2 and fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def _frames():
    """How many frames the caller runs under (itself included)."""
    count, frame = 0, sys._getframe(1)
    while frame is not None:
        count, frame = count + 1, frame.f_back
    return count


def _as_plain_python(extra_frames):
    """What ``python3 solution.py`` would give the user's code: the default recursion depth on
    top of the runtime's own frames, and a plain ``sys.argv``."""
    sys.setrecursionlimit(sys.getrecursionlimit() + extra_frames)
    sys.argv = ["solution.py"]


class _Quitter:
    """``exit()`` / ``quit()`` as the site module defines them (the sandbox runs ``python3 -S``)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"Use {self.name}() or Ctrl-D (i.e. EOF) to exit"

    def __call__(self, code=None):
        try:
            sys.stdin.close()
        except BaseException:
            pass
        raise SystemExit(code)


def _exec_main(code):
    """Run the candidate as __main__ (io child) and end as ``python3 solution.py`` ends: wait for
    the threads it left running, run its ``atexit`` handlers, clear ``__main__`` (finalizers run),
    flush; the exit status Python would give. What these print is part of its output."""
    status = 0
    _as_plain_python(_frames())
    main = {"__name__": "__main__", "__builtins__": builtins}
    try:
        exec(code, main)
    except SystemExit as exc:
        status = _exit_status(exc)
    except BaseException:
        _print_exc()
        status = 1
    try:
        threading = sys.modules.get("threading")
        if threading is not None and hasattr(threading, "_shutdown"):
            threading._shutdown()
        import atexit

        atexit._run_exitfuncs()
        for name in reversed(list(main)):  # the last bound first: a finalizer still finds its modules
            if name != "__builtins__":
                main.pop(name, None)
        gc.collect()
    except SystemExit as exc:
        status = _exit_status(exc)
    except BaseException:
        _print_exc()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # closed or broken stdout: the output so far is what counts
        status = status or 1
    return status & 0xFF


def _exit_status(exc):
    return exc.code if type(exc.code) is int else (0 if exc.code is None else 1)


def _print_exc():
    try:
        import traceback

        traceback.print_exc()
    except BaseException:
        pass


def _io_child(code, stdin_fd, out_w, err_w, lim):
    status = 1
    try:
        import resource

        os.setpgid(0, 0)
        os.dup2(stdin_fd, 0)
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        _close_inherited()
        resource.setrlimit(resource.RLIMIT_CPU, (lim["cpu"], lim["cpu"]))
        _restore_signals()
        sys.stdin = open(0, encoding="utf-8", errors="replace", closefd=False)
        sys.stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
        status = _exec_main(code)
    finally:
        os._exit(status)


def _restore_signals():
    import _signal

    _signal.signal(_signal.SIGINT, _signal.default_int_handler)


def _read_child(pid, out_r, err_r, lim):
    """A child's stdout (capped) and stderr head, until EOF, timeout or overflow."""
    bufs = {out_r: bytearray(), err_r: bytearray()}
    poller = select.poll()
    for fd in bufs:
        poller.register(fd, select.POLLIN)
    open_fds, timed_out, over, late = set(bufs), False, False, False
    deadline, exited_at = time.monotonic() + lim["case_timeout"], None
    while open_fds and not over:
        now = time.monotonic()
        if exited_at is None and os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT):
            exited_at = now
            over = _drain(out_r, bufs[out_r], lim["out_cap"])  # what the program wrote before it ended
            mark = len(bufs[out_r])
        if now >= deadline or (exited_at is not None and now - exited_at > LATE_WAIT_S):
            timed_out = now >= deadline and exited_at is None  # a process it left holding stdout is no timeout
            break
        for fd, _ in poller.poll(int(min(deadline - now, 0.02) * 1000) + 1):
            data = os.read(fd, 65536)
            if not data:
                poller.unregister(fd)
                open_fds.discard(fd)
            bufs[fd] += data
            over = over or len(bufs[out_r]) > lim["out_cap"]
    if exited_at is not None and len(bufs[out_r]) > mark:  # another process wrote after it ended
        late = True
        del bufs[out_r][mark:]
    return bytes(bufs[out_r]), bytes(bufs[err_r][:2000]), timed_out, over, late


LATE_WAIT_S = 1.0  # after the program ends: how long a process it left behind may hold its stdout


def _drain(fd, buf, cap):
    """Read what the pipe holds now, without waiting; True past ``cap``."""
    os.set_blocking(fd, False)
    try:
        while len(buf) <= cap:
            data = os.read(fd, 65536)
            if not data:
                break
            buf += data
    except BlockingIOError:
        pass
    finally:
        os.set_blocking(fd, True)
    return len(buf) > cap


def _io_case(code, index, stdin, lim, emit):
    stdin_fd = os.memfd_create("stdin", 0)
    data = stdin.encode("utf-8")
    while data:
        data = data[os.write(stdin_fd, data):]
    os.lseek(stdin_fd, 0, 0)
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        _io_child(code, stdin_fd, out_w, err_w, lim)
    for fd in (stdin_fd, out_w, err_w):
        os.close(fd)
    out, err, timed_out, over, late = _read_child(pid, out_r, err_r, lim)
    status = None
    try:
        import signal

        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
    try:
        status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    except ChildProcessError:
        pass
    _kill_others(pid)
    os.close(out_r)
    os.close(err_r)
    emit({"k": "io", "i": index, "out": binascii.b2a_base64(out[: lim["out_cap"]], newline=False).decode("ascii"),
          "err": err.decode("utf-8", "replace"), "rc": status, "to": timed_out, "over": over,
          "late": late})  # fmt: skip
