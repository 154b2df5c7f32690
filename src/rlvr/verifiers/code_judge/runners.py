"""The runners of each test style: the test namespace bound to the candidate's names, assert
statements, pytest and unittest sources; one record per test (the verdict's input on the host)."""

from __future__ import annotations

import builtins
import marshal
import os
import sys

from . import proxies
from .base import _ATOMS, _NO_COPY, CandidateGone, CandidateSystemExit, ProtocolError, ToolMissing
from .batching import _calls, _compile_unit, _method
from .codec import own_module
from .judge import Judge
from .process import _frames
from .proxies import Remote
from .verdict import _fmt, _why

# ============================================================================ the judge


def _bind_names(judge, secret, names):
    """The test namespace: pristine builtins, __main__, and the candidate's names the tests use."""
    main = type(sys)("__main__")
    sys.modules["__main__"] = main
    ns = main.__dict__
    ns.update({"__builtins__": builtins, "_rlvr_why": _why, "_rlvr_collect": _collector(ns), "_rlvr_calls": _calls,
               "_rlvr_method": _method})
    for path in secret.get("pytest_path") or ():
        if path not in sys.path:
            sys.path.append(path)
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    sys.modules["solution"] = _solution_module(judge, names)
    entry = secret.get("entry_point")
    wanted = [n for n in secret["names"] if n in names and (n == entry or not hasattr(builtins, n))]
    if entry and entry not in names:
        ns[entry] = _missing(entry)  # never the builtin of that name
    if not wanted:
        return ns
    values = judge.call("globals", 0, wanted)
    if type(values) is not dict:
        raise CandidateGone("malformed globals reply")
    modules = set(secret.get("modules") or ()) - {entry}
    free = set(secret.get("free") or ())  # never bound by a test: a test's own EXPECTED is never overwritten
    watched = [n for n in wanted if n in values and type(values[n]) in _ATOMS and n in free]
    if watched:
        judge.ns = ns
        judge.call("watch", 0, watched)
    for name in wanted:
        if name not in values:
            continue
        value = _candidate_value(judge, name, values[name])
        if name in modules:  # used only as ``name.attr``: a standard module means the judge's own
            value = _own_module_or(name, value)
            if value is _NO_COPY:
                continue
        ns[name] = value
    return ns


def _candidate_value(judge, name, value):
    if isinstance(value, Remote) and value._r_kind == "excclass":
        return _mirror_class(judge, name, value)
    return value


def _missing(name):
    def missing(*args, **kwargs):
        raise NameError(f"name {name!r} is not defined by the program")

    missing.__name__ = name
    return missing


def _solution_module(judge, names):
    """``import solution`` / ``from solution import f`` in the tests: the candidate as a module,
    each attribute fetched from the candidate on first use (names that shadow builtins included:
    asked for by name, they are the candidate's)."""
    module = type(sys)("solution")
    public = sorted(n for n in names if not n.startswith("_"))

    def getattr_(name):
        if name == "__all__":
            return public
        if name.startswith("__") or name not in names:
            raise AttributeError(f"module 'solution' has no attribute {name!r}")
        values = judge.call("globals", 0, [name])
        if type(values) is not dict or name not in values:
            raise AttributeError(f"module 'solution' has no attribute {name!r}")
        value = module.__dict__[name] = _candidate_value(judge, name, values[name])
        return value

    module.__dict__["__getattr__"] = getattr_
    return module


def _collector(ns):
    """``_rlvr_collect(names, runner)``: the tests a source defines, collected and run the way
    ``pytest`` or ``unittest`` would; raises AssertionError naming the first failure, or when
    nothing was collected."""

    def collect(defined, runner):
        objs = {n: ns[n] for n in defined if n in ns}
        if runner == "unittest":
            return _run_unittest(objs)
        return _run_pytest(objs)

    return collect


def _run_unittest(objs):
    import io
    import unittest

    loader, suite = unittest.TestLoader(), unittest.TestSuite()
    for obj in objs.values():
        if isinstance(obj, type) and issubclass(obj, unittest.TestCase):
            suite.addTests(loader.loadTestsFromTestCase(obj))
    result = unittest.TextTestRunner(stream=io.StringIO(), verbosity=0).run(suite)
    if result.testsRun == 0:
        raise AssertionError("unittest collected no tests")
    problems = result.errors + result.failures
    if problems:
        test, trace = problems[0]
        raise AssertionError(f"{test.id()}: {trace.strip().splitlines()[-1]}")
    if result.unexpectedSuccesses:
        raise AssertionError(f"{result.unexpectedSuccesses[0].id()}: unexpected success")


def _run_pytest(objs):
    """pytest over an in-memory module holding the source's definitions (their globals are the
    test namespace). The one path given to pytest is an empty read-only file of the mounted pytest
    (never a writable directory: nothing the candidate writes is collected); no conftest, no
    plugins but pytest's own, no cache, no ini file."""
    try:
        import pytest
    except ImportError:
        raise ToolMissing("pytest-style tests need pytest, which is not available in the sandbox") from None
    placeholder = os.path.join(os.path.dirname(pytest.__file__), "py.typed")
    module = type(sys)("test_sample")
    module.__dict__.update(objs)
    module.__file__ = placeholder

    class Plugin:
        failures = []
        collected = [0]

        @pytest.hookimpl(tryfirst=True)
        def pytest_collect_file(self, file_path, parent):
            if str(file_path) == placeholder:
                node = pytest.Module.from_parent(parent, path=file_path)
                node._getobj = lambda: module
                return node
            return None

        def pytest_collection_finish(self, session):
            self.collected[0] = len(session.items)

        def pytest_runtest_logreport(self, report):
            if report.failed and not self.failures:
                self.failures.append(f"{report.nodeid} ({report.when}): {_last_line(report.longreprtext)}")

        def pytest_collectreport(self, report):
            if report.failed and not self.failures:
                self.failures.append(f"collecting: {_last_line(report.longreprtext)}")

    plugin = Plugin()
    for key in [k for k in os.environ if k.startswith("PYTEST")]:  # PYTEST_ADDOPTS='--co' would pass anything
        del os.environ[key]
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    args = [placeholder, "-q", "-s", "--noconftest", "-c", os.devnull, "--rootdir", os.path.dirname(placeholder),
            "-p", "no:cacheprovider", "-p", "no:pastebin", "-p", "no:junitxml", "-p", "no:faulthandler",
            "-W", "default"]  # fmt: skip
    code = pytest.main(args, plugins=[plugin])
    if plugin.failures:
        raise AssertionError(plugin.failures[0])
    if plugin.collected[0] == 0:
        raise AssertionError("pytest collected no tests")
    if int(code) != 0:
        raise AssertionError(f"pytest exited with status {int(code)}")


def _last_line(text):
    lines = [line for line in str(text).strip().splitlines() if line.strip()]
    return lines[-1][:500] if lines else ""


def _own_module_or(name, value):
    """The judge's module for a standard-library name (``_NO_COPY`` when it has none), else ``value``."""
    try:
        return own_module(name)
    except ProtocolError:
        allowed = getattr(sys, "stdlib_module_names", None)
        return _NO_COPY if allowed is not None and name in allowed else value


def _mirror_class(judge, name, remote):
    """A judge-side exception class standing for a candidate one, so ``except Name:`` works."""
    bases = []
    try:
        bases = list(judge.call("getattr", remote._r_id, ["__mro__"]))
    except BaseException:
        pass
    base = Exception
    for b in bases:
        if type(b) is type and issubclass(b, Exception) and not issubclass(b, (StopIteration, StopAsyncIteration)):
            base = b
            break
    cls = type(name, (base,), {"_r_remote": remote, "__module__": "__candidate__"})
    judge.codec.mirrors[name] = cls
    judge.codec.mirrors[remote._r_name] = cls
    return cls


def _run_tests(judge, secret, names, emit):
    ns = _bind_names(judge, secret, names)
    sys.setrecursionlimit(sys.getrecursionlimit() + _frames())  # a test's own depth, as at top level
    for k, unit in enumerate(secret["units"]):
        case = unit["case"]
        ok, err = True, ""
        try:
            exec(_compile_unit(unit["src"]), ns)
        except ToolMissing as exc:  # the host reports an error naming the tool
            emit({"k": "crash", "err": "ToolMissing: " + str(exc)})
            return
        except CandidateSystemExit as exc:  # the program's exit reached the top: the test never finished
            ok, err = False, f"SystemExit: {exc.code!r} (raised by the program)"
        except SystemExit as exc:  # the test's own sys.exit (e.g. unittest.main()): 0 passes
            ok = exc.code in (None, 0, False)
            err = "" if ok else f"SystemExit: {exc.code!r}"
        except BaseException as exc:  # the test failed: say why, go on (or stop after set-up)
            ok, err = False, _fmt(exc)
        if ok and judge.gone is not None:  # a crash caught by the test's bare ``except:`` is no pass
            ok, err = False, "CandidateGone: " + judge.gone
        if case is None:
            if not ok:
                emit({"k": "setup", "ok": False, "err": err, "h": bool(unit.get("hidden")), "u": k})
                return
            emit({"k": "unit", "u": k})
        else:
            emit({"k": "case", "i": case, "ok": ok, "err": err})


def _judge_main(pid, rfd, wfd, secret_fd, emit, shm=None):
    with open(secret_fd, "rb") as fh:
        secret = marshal.loads(fh.read())
    devnull = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    sys.argv = ["solution.py"]  # as in the candidate: one program, as python3 solution.py would run it
    judge = proxies._JUDGE = Judge(rfd, wfd, shm)
    judge.flags = frozenset(secret.get("context") or ())
    judge.stop_named = any("StopIteration" in unit["src"] for unit in secret["units"])
    try:
        first = judge.conn.recv()
    except (EOFError, OSError, ProtocolError) as exc:
        emit({"k": "cand", "ok": False, "err": f"the candidate never reported its names ({_fmt(exc)})"})
        return
    names = first[1] if len(first) > 1 and type(first[1]) is list else []
    top = first[2] if len(first) > 2 and type(first[2]) is str else None
    emit({"k": "cand", "ok": top is None, "err": top or ""})
    try:
        _run_tests(judge, secret, set(n for n in names if type(n) is str), emit)
    except BaseException as exc:  # the candidate's names could not be bound: every test fails
        emit({"k": "setup", "ok": False, "h": False, "err": "binding the candidate's names failed: " + _fmt(exc)})
    try:
        judge.conn.send(["q", "exit", 0, []])
    except OSError:
        pass
    proxies._JUDGE = None
