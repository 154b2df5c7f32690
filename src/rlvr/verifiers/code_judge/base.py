"""What every part of the runtime shares: the captured os calls, limits, the exceptions of the
protocol and the JSON text both sides write and read."""

from __future__ import annotations

import _json
import os

# Captured at import: a candidate that rebinds os.read/os.write only breaks its own process.
_read, _write = os.read, os.write
_yield = getattr(os, "sched_yield", lambda: None)


def _make_fence():
    """A full memory barrier: taking and releasing a lock is a locked instruction (x86), so
    this process's earlier stores are seen by the other core before its later loads."""
    import _thread

    lock = _thread.allocate_lock()

    def fence():
        lock.acquire()
        lock.release()

    return fence


_fence = _make_fence()

# Standard-library modules whose import does something (opens a browser, prints, draws, runs
# the regression tests). Submodules named ``__main__`` (or anything private) are never imported.
_NO_IMPORT = frozenset(("antigravity", "this", "idlelib", "turtle", "turtledemo", "tkinter", "pydoc", "webbrowser",
                        "test"))
MAX_MESSAGE = 256 << 20  # bytes of one message between judge and candidate
MAX_DEPTH = 200  # nesting of one value
HUGE_INT = 1 << 40000  # ints this big cross in hex: decimal conversion is quadratic, hex linear
_NONE_TYPE = type(None)
_FUNCTION_TYPE = type(lambda: None)
_GENERATOR_TYPE = type((lambda: (yield))())


def _coroutine_type():
    async def nothing():
        pass

    coro = nothing()
    coro.close()  # never run, never reported as not awaited
    return type(coro)


_COROUTINE_TYPE = _coroutine_type()
_ATOMS = frozenset((int, float, str, bool, _NONE_TYPE))
_LISTS = frozenset((list,))
_MUTABLE = (list, dict, set, bytearray)
_NO_COPY = object()


class ProtocolError(Exception):
    """A message that is not what the protocol allows (malformed, unknown tag or handle)."""


class CandidateGone(BaseException):
    """The candidate process ended or broke the protocol; every later call fails."""


class CandidateExit(BaseException):
    """The candidate raised SystemExit/KeyboardInterrupt/GeneratorExit: fails the test."""


class CandidateSystemExit(SystemExit):
    """The program's own ``SystemExit`` (``sys.exit``, argparse's exit) as the test sees it: caught by
    ``pytest.raises(SystemExit)`` / ``assertRaises`` / ``except SystemExit`` as Python's would be;
    one that reaches the top of a test fails it (the program ended, the test never finished)."""


class ToolMissing(BaseException):
    """A tool the tests need (pytest) is not in the sandbox: the run is an error, never a failed test."""


# ============================================================================ JSON text


class _ScanContext:
    strict = True
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    memo = None

    def __init__(self, hook):
        self.object_hook = hook

    @staticmethod
    def parse_constant(name):
        return {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}[name]


def _no_default(obj):
    raise TypeError("not JSON data: " + type(obj).__name__)


_ENCODE = _json.make_encoder(None, _no_default, _json.encode_basestring_ascii, None, ":", ",", False, False, True)


def dumps(obj) -> str:
    """JSON text of JSON-native data (lists, tuples, str-keyed dicts, atoms)."""
    return "".join(_ENCODE(obj, 0))


def make_loads(hook):
    scan = _json.make_scanner(_ScanContext(hook))

    def loads(text):
        try:
            value, end = scan(text, 0)
        except ProtocolError:
            raise
        except RecursionError:
            raise ProtocolError("value nested too deeply") from None
        except Exception:  # StopIteration (no value), or anything the C scanner raises on junk
            raise ProtocolError("malformed JSON") from None
        if end != len(text):
            raise ProtocolError("trailing data after the JSON value")
        return value

    return loads
