"""Boot of pid 1: ``prepare`` before the payload, ``boot`` with it (io tests, then the candidate
process and the judge); ``BOOT_SOURCE`` is the program the sandbox starts."""

from __future__ import annotations

import builtins
import gc
import os
import sys

from .base import dumps
from .candidate import _candidate_main
from .process import _io_case, _Quitter, _set_dumpable_off
from .runners import _judge_main
from .transport import shared_channels
from .verdict import _fmt

# ============================================================================ boot (pid 1)


_PREPARED = []  # what prepare() raised, for boot() to report


def prepare():
    """Before the payload arrives (the sandbox may be started ahead and wait for it): what needs
    no payload. Turns ``PR_SET_DUMPABLE`` off and ignores SIGINT; a failure is reported by boot()."""
    import _signal

    try:
        _set_dumpable_off()
        _signal.signal(_signal.SIGINT, _signal.SIG_IGN)
        if hasattr(sys, "set_int_max_str_digits"):
            sys.set_int_max_str_digits(0)
        for name in ("exit", "quit"):
            if not hasattr(builtins, name):
                setattr(builtins, name, _Quitter(name))
        _PREPARED.append(None)
    except BaseException as exc:
        _PREPARED.append(exc)


def boot(public, secret_fd, out_fd):
    """Entry point, called by the boot program with the public payload (see module docstring)."""

    def emit(record):
        data = (dumps(record) + "\n").encode("ascii")
        while data:
            data = data[os.write(out_fd, data):]

    try:
        if not _PREPARED:
            prepare()
        if _PREPARED[0] is not None:
            raise _PREPARED[0]
        os.set_inheritable(out_fd, False)
        os.set_inheritable(secret_fd, False)
        emit({"k": "ready"})
        for path in public.get("paths") or ():  # third-party packages mounted for this run (numpy)
            if type(path) is str and path not in sys.path:
                sys.path.append(path)
        try:
            code = compile(public["code"], "<candidate>", "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            emit({"k": "syntax", "err": _fmt(exc)})
            return
        lim = public["limits"]
        for k, stdin in enumerate(public["io"]):
            _io_case(code, public["io_index"][k], stdin, lim, emit)
        if public["asserts"]:
            j_r, c_w = os.pipe()
            c_r, j_w = os.pipe()
            shm = shared_channels()  # holds nothing but the messages both sides exchange
            gc.freeze()  # the runtime's objects: the collector leaves them alone in both processes
            pid = os.fork()
            if pid == 0:
                _candidate_main(code, c_r, c_w, shm)  # closes everything else first: record pipe, test payload
            os.close(c_r)
            os.close(c_w)
            _judge_main(pid, j_r, j_w, secret_fd, emit, shm)
        emit({"k": "done"})
    except BaseException as exc:  # the runtime itself failed: the host reports an error
        import traceback

        emit({"k": "crash", "err": _fmt(exc) + "\n" + "".join(traceback.format_exc())[-2000:]})


BOOT_SOURCE = """
import marshal as _m, sys as _s
def _load(parts):
    pkg = type(_s)("rlvr_judge")
    pkg.__path__ = []
    before = dict(_s.modules)
    _s.modules["rlvr_judge"] = pkg
    shared = dict(vars(__builtins__))
    for name, rt in parts:
        mod = type(_s)("rlvr_judge." + name)
        mod.__dict__.update({"__package__": "rlvr_judge", "__builtins__": shared})
        _s.modules[mod.__name__] = mod
        setattr(pkg, name, mod)
        code = _m.loads(rt) if type(rt) is bytes else compile(rt, "<rlvr-runtime/" + name + ".py>", "exec")
        exec(code, mod.__dict__)
    for key in [k for k in _s.modules if k not in before]:
        del _s.modules[key]
    return pkg.boot
def _boot(rt_fd, pub_fd, sec_fd, out_fd, go_fd):
    with open(rt_fd, "rb") as fh:
        rt = _m.loads(fh.read())
    rt = _load(_m.loads(rt) if type(rt) is bytes else rt)
    rt.prepare()
    with open(go_fd, "rb", buffering=0) as go:
        if not go.read(1):
            return
    with open(pub_fd, "rb") as fh:
        box = _m.loads(fh.read())
    rt.boot(box, sec_fd, out_fd)
    rt.os._exit(0)  # every record is written (unbuffered); skip the interpreter's teardown
_boot(*map(int, _s.argv[1:6]))
"""
