"""The judge side of the protocol: ``Judge`` sends calls and serves the candidate's callbacks on
the tests' own objects; a mutable argument the candidate changed is synced back into it."""

from __future__ import annotations

import builtins
import os
import sys

from .base import (
    _ATOMS,
    _NO_COPY,
    HUGE_INT,
    CandidateExit,
    CandidateGone,
    CandidateSystemExit,
    ProtocolError,
)
from .codec import _mutable, _sync_into, build_exception, exc_data, own_module
from .proxies import JudgeCodec
from .transport import Conn, pack_call, pack_method


class _CallIt:
    """A ``callattr`` answered with the attribute: the judge calls it (``Judge.call_remote``)."""

    __slots__ = ("attr",)

    def __init__(self, attr):
        self.attr = attr


_TEST_CONTROL = frozenset(("unittest", "doctest", "bdb", "pdb"))  # their exceptions steer a test run


def _stdlib_exception(info):
    """(the judge's own class, own) for ``exc_data``'s [module, qualname, own], or None: only a
    public standard-library module's ``Exception`` subclass that is not a builtin."""
    if type(info) is not list or len(info) != 3 or not all(type(x) is str for x in info[:2]):
        return None
    if info[0].split(".")[0] in _TEST_CONTROL:  # unittest.SkipTest from the program would skip the test
        return None
    try:
        found = own_module(info[0])
    except ProtocolError:
        return None
    for part in info[1].split("."):
        found = getattr(found, part, None) if not part.startswith("_") else None
    if not isinstance(found, type) or not issubclass(found, Exception) or issubclass(found, StopIteration):
        return None
    if getattr(builtins, found.__name__, None) is found:
        return None
    return found, info[2] is True


class Judge:
    """The judge's end of the connection: forwards operations on candidate objects."""

    def __init__(self, rfd, wfd, shm=None):
        import _thread

        self.codec = JudgeCodec()
        self.conn = Conn(rfd, wfd, self.codec, self.serve, shm, 0)
        self.gone = None
        self.lock = _thread.RLock()  # test threads calling the candidate take turns on the one connection
        self.std = (sys.stdout, sys.stderr, sys.stdin, builtins.input)  # the judge's own, unreplaced
        self.flags = frozenset()  # process state the tests name (see context)
        self.stop_named = False  # the tests name StopIteration: the program's reaches them as one
        self.ns = None  # the tests' namespace (watched candidate names are updated in it)
        self.depth = 0  # calls into the candidate now running (nested through call-backs)
        self.lent, self.lent_ids = {}, {}  # containers of test objects the running call read (serve)
        self._raised = None  # the class of the exception a call-back raised (serve)

    def call(self, op, target, payload, next_op=False):
        with self.lock:
            return self._call(op, target, payload, next_op)

    def _call(self, op, target, payload, next_op):
        if self.gone is not None:
            raise CandidateGone(self.gone)
        if len(self.codec.released) >= 64:
            rel, self.codec.released = self.codec.released, []
            self._send_request("release", 0, rel)
        reply = self._send_request(op, target, payload)
        if reply[0] == "x":
            raise self.exception(reply[1], next_op)
        if len(reply) < 2:
            self.gone = "malformed reply"
            raise CandidateGone(self.gone)
        if len(reply) > 3 and type(reply[3]) is dict:
            self.after(reply[3])
        return reply[1]

    def _send_request(self, op, target, payload):
        try:
            return self.conn.request(op, target, payload)
        except (EOFError, OSError) as exc:
            self.gone = f"the candidate process ended ({type(exc).__name__})"
        except ProtocolError as exc:
            self.gone = f"the candidate broke the protocol: {exc}"
        raise CandidateGone(self.gone)

    def call_remote(self, hid, args, kwargs, attr=None):
        """``fn(*args, **kwargs)`` for the candidate's ``fn`` (handle ``hid``); with ``attr``,
        ``obj.attr(*args, **kwargs)`` for its object ``obj`` in one round trip (``_method``)."""
        with self.lock:
            std = self.std
            if (not kwargs and self.gone is None and not self.flags and sys.stdout is std[0] and sys.stderr is std[1]
                    and sys.stdin is std[2] and builtins.input is std[3]):  # nothing replaced (see replaced)
                # atoms only: the binary fast path (Conn.reply, CandidateServer.fast)
                data = pack_call(hid, args) if attr is None else pack_method(hid, attr, args)
                if data is not None:
                    self.depth += 1
                    try:
                        value = self._fast_call(data, attr)
                    finally:
                        self.depth -= 1
                        if not self.depth and self.lent:
                            self.lent, self.lent_ids = {}, {}
                    if type(value) is _CallIt:
                        return value.attr(*args)
                    return value
            self.depth += 1
            try:
                value = self._call_remote(hid, args, kwargs, attr)
                if type(value) is _CallIt:
                    return value.attr(*args, **kwargs)
                return value
            finally:
                self.depth -= 1
                if not self.depth and self.lent:
                    self.lent, self.lent_ids = {}, {}

    def _fast_call(self, data, attr):
        conn = self.conn
        try:
            conn.send_bytes(data)
            reply = conn.reply()
        except (EOFError, OSError) as exc:
            self.gone = f"the candidate process ended ({type(exc).__name__})"
            raise CandidateGone(self.gone) from None
        except ProtocolError as exc:
            self.gone = f"the candidate broke the protocol: {exc}"
            raise CandidateGone(self.gone) from None
        if reply[0] == "x":
            raise self.exception(reply[1], False)
        if len(reply) < 2:
            self.gone = "malformed reply"
            raise CandidateGone(self.gone)
        return self._value(reply, attr)

    def _value(self, reply, attr):
        """A call's result; the attribute, as ``_CallIt``, when a ``callattr`` request (``attr``)
        was answered with the attribute itself for the judge to call (``op_callattr``)."""
        if len(reply) > 3 and type(reply[3]) is dict:
            self.after(reply[3])
            if attr is not None and reply[3].get("attr") == 1:
                return _CallIt(reply[1])
        return reply[1]

    def _call_remote(self, hid, args, kwargs, attr=None):
        if not kwargs and not self.flags and self.gone is None and not self.replaced():
            for a in args:  # the common case: atoms only, nothing to sync, no process state to carry
                t = type(a)
                if t not in _ATOMS or (t is int and not -HUGE_INT < a < HUGE_INT):
                    break
            else:
                if attr is None:
                    reply = self._send_request("call", hid, [list(args), [], []])
                else:
                    reply = self._send_request("callattr", hid, [attr, list(args), [], []])
                if reply[0] == "x":
                    raise self.exception(reply[1], False)
                return self._value(reply, attr)
        enc = self.codec.enc
        mutable = [k for k, a in enumerate(args) if type(a) not in _ATOMS and _mutable(a)]
        if kwargs:
            mutable += [k for k, a in kwargs.items() if type(a) not in _ATOMS and _mutable(a)]
        self.codec.tagging = True  # the tests' lists, dicts and sets go as themselves (JudgeCodec.tag)
        try:
            payload = [[enc(a) for a in args], [[k, enc(v)] for k, v in kwargs.items()] if kwargs else [], mutable]
        finally:
            self.codec.tagging = False
        context = self.context() if self.flags or self.replaced() else {}
        if len(mutable) > 1:  # one object passed twice stays one object
            firsts = {}
            aliases = [[k, firsts.setdefault(id(args[k]), k)] for k in mutable if type(k) is int]
            aliases = [pair for pair in aliases if pair[0] != pair[1]]
            if aliases:
                context["alias"] = aliases
        if context:
            payload.append(enc(context))
        if self.gone is not None:
            raise CandidateGone(self.gone)
        if attr is None:
            reply = self._send_request("call", hid, payload)
        else:
            reply = self._send_request("callattr", hid, [attr] + payload)
        if reply[0] == "x":
            raise self.exception(reply[1], False)
        sync = reply[2] if len(reply) > 2 and type(reply[2]) is list else []
        done = set()
        for item in sync:
            if type(item) is list and len(item) == 2 and type(item[0]) in (int, str) and item[0] in mutable:
                target = args[item[0]] if type(item[0]) is int else kwargs[item[0]]
                if id(target) not in done:
                    done.add(id(target))
                    _sync_into(target, item[1])
        return self._value(reply, attr)

    def calls(self, hid, items, positions, consts):
        """``fn(*args)`` for every item, the item at ``positions`` of the argument template
        ``consts``, in batches (16, 32 ... 4096 calls a request): the results are yielded one by one,
        an exception after the results before it, exactly as the calls would run one at a time:
        the candidate stops a batch at the first result that is not an atom, so the tests act on
        it before the next call, as they would in one process."""
        k, n, size = 0, len(items), 16
        while k < n:
            chunk = items[k:k + size]
            args = []
            for x in chunk:
                a = list(consts)
                for p in positions:
                    a[p] = x
                args.append(a)
            reply = self.call("calls", hid, [args])
            shape = type(reply) is list and len(reply) == 2 and type(reply[0]) is list
            if not shape or len(reply[0]) > len(chunk) or (not reply[0] and reply[1] is None):  # no progress
                self.gone = "malformed batch reply"
                raise CandidateGone(self.gone)
            yield from reply[0]
            if reply[1] is not None:
                raise self.exception(reply[1], False)
            k += len(reply[0])
            size = min(size * 2, 4096)

    def replaced(self):
        std = self.std
        return not (sys.stdout is std[0] and sys.stderr is std[1] and sys.stdin is std[2] and builtins.input is std[3])

    def context(self):
        """The test's process state a call into the candidate should see, as Python would share
        it: a replaced ``sys.stdout``/``stderr``/``stdin`` or ``builtins.input`` (as call-backs:
        ``redirect_stdout``, ``mock.patch``, pytest's ``capsys``), and, when the tests name them,
        ``os.environ``, ``sys.argv``, the ``random`` state and the warnings machinery."""
        ctx = {}
        for key, now, was in (("out", sys.stdout, self.std[0]), ("err", sys.stderr, self.std[1]),
                              ("in", sys.stdin, self.std[2]), ("input", builtins.input, self.std[3])):
            if now is not was:
                ctx[key] = now
        flags = self.flags
        if flags:
            if "env" in flags:
                ctx["env"] = dict(os.environ)
            if "cwd" in flags:
                try:
                    ctx["cwd"] = os.getcwd()
                except OSError:
                    pass
            if "argv" in flags and type(sys.argv) is list and all(type(a) is str for a in sys.argv):
                ctx["argv"] = list(sys.argv)
            if "random" in flags and "random" in sys.modules:
                ctx["rnd"] = sys.modules["random"].getstate()
            if "warnings" in flags:
                ctx["warn"] = True
        return ctx

    def after(self, state):
        """What the call changed of that state: watched module-level names, the random
        generator, warnings raised."""
        drop = state.get("drop")
        if type(drop) is list:
            self.codec.unshare(drop)
        env = state.get("env")
        if type(env) is dict:  # the program's os.environ, as the tests then read it
            for k in [k for k in os.environ if k not in env]:
                del os.environ[k]
            os.environ.update({k: v for k, v in env.items() if type(k) is str and type(v) is str})
        if type(state.get("cwd")) is str:
            try:
                os.chdir(state["cwd"])
            except OSError:
                pass
        for pair in state.get("lent") or ():
            if type(pair) is list and len(pair) == 2 and type(pair[0]) is int:
                target = self.lent.get(pair[0])
                if target is not None and type(target) is type(pair[1]):
                    _sync_into(target, pair[1])
        for pair in state.get("g") or ():
            if type(pair) is list and len(pair) == 2 and type(pair[0]) is str and self.ns is not None:
                self.ns[pair[0]] = pair[1]
        rnd = state.get("rnd")
        if rnd is not None and "random" in sys.modules:
            try:
                sys.modules["random"].setstate(rnd)
            except (TypeError, ValueError):
                pass
        for item in state.get("warn") or ():
            if type(item) is not list or len(item) != 4:
                continue
            name, message, filename, lineno = item
            kind = getattr(builtins, name, None) if type(name) is str else None
            if not (isinstance(kind, type) and issubclass(kind, Warning)):
                kind = UserWarning
            import warnings

            warnings.warn_explicit(str(message), kind, str(filename), lineno if type(lineno) is int else 0)

    def exception(self, data, next_op):
        """The candidate's exception as a fresh judge-side exception of a builtin type."""
        exc = self._exception(data, next_op)
        attrs = data[5] if type(data) is list and len(data) in (6, 7, 8) and type(data[5]) is list else ()
        if isinstance(exc, Exception) and not isinstance(exc, (StopIteration, CandidateGone)):
            for pair in attrs:
                if type(pair) is list and len(pair) == 2 and type(pair[0]) is str and not pair[0].startswith("_"):
                    try:
                        setattr(exc, pair[0], pair[1])
                    except (AttributeError, TypeError):
                        pass
        cause = data[7] if type(data) is list and len(data) == 8 and type(data[7]) is list else None
        if cause is not None and isinstance(exc, BaseException) and not isinstance(exc, CandidateGone):
            exc.__cause__ = self.exception(cause, False)  # ``raise ... from e``: the cause, as it crosses
        return exc

    def _exception(self, data, next_op):
        if type(data) is not list or len(data) not in (4, 5, 6, 7, 8):
            return RuntimeError("the candidate raised a malformed exception")
        name, msg, bases = (data[0] if type(data[0]) is str else "?"), data[1], data[2]
        msg = msg if type(msg) is str else ""
        args = data[4] if len(data) >= 5 else None
        names = [n for n in bases if type(n) is str] if type(bases) is list else []
        if name in self.codec.mirrors:
            return build_exception(self.codec.mirrors[name], msg, args)
        std = _stdlib_exception(data[6] if len(data) >= 7 else None)
        if std is not None:  # a standard-library exception class, as the tests name it
            return build_exception(std[0], msg, args if std[1] else None)
        # only the real builtin classes in the exception's MRO (``exc_data``), never its own name:
        # a program's class named ``ValueError`` that does not derive from it is no ValueError
        for k, n in enumerate(names):
            kind = getattr(builtins, n, None)
            if not (isinstance(kind, type) and issubclass(kind, BaseException)):
                continue
            own = k == 0 and n == name  # the exception's type is this builtin (or a subclass of that name)
            if issubclass(kind, (StopIteration, StopAsyncIteration)):
                # as Python raises it where the tests expect one (they name StopIteration) or an
                # iterator protocol asked for it; else RuntimeError, so that it never silently ends
                # the tests' own map()/filter()/any() over a program's function
                if not next_op and not self.stop_named:
                    return RuntimeError("the candidate raised StopIteration")
                return kind(*args) if type(args) is list and own else kind()  # a return value
            if issubclass(kind, SystemExit):
                return CandidateSystemExit(*args) if type(args) is list and own else CandidateSystemExit(msg or None)
            if not issubclass(kind, Exception):
                return CandidateExit(f"the candidate raised {n}")
            return build_exception(kind, msg, args if own else None)
        return RuntimeError(f"{name}: {msg}")

    def _mirrored(self, data):
        """The program's exception class a test's exception derives from (see _test_exception_base)."""
        exc_type = self._raised[0] if self._raised else None
        self._raised = None
        if exc_type is None or type(data) is not list or data[0] != exc_type.__name__:
            return None
        try:
            return _test_exception_base(self, exc_type)
        except BaseException:
            return None

    # call-backs: the candidate asks about a test object the judge passed it
    def serve(self, message):
        _, op, ref, payload = message
        obj = self.codec.refs.get(ref, _NO_COPY) if type(ref) is int else _NO_COPY
        if obj is _NO_COPY or type(payload) is not list:
            return ["x", exc_data(PermissionError("unknown test object"))]
        fn = _CALLBACKS.get(op)
        if fn is None:
            return ["x", exc_data(PermissionError(f"operation {op!r} on a test object is not allowed"))]
        self._raised = None
        try:
            reply = ["r", fn(obj, payload)]
        except BaseException as exc:  # the exception travels as data (as serve_call sends it)
            self._raised = (type(exc),)
            reply = ["x", exc_data(exc, self.codec.enc)]
        if reply[0] == "r":
            value = reply[1]
            try:
                reply = ["r", self.codec.enc(value), []]
            except BaseException as exc:
                reply = ["x", exc_data(exc)]
            else:
                if self.depth and type(value) not in _ATOMS and _mutable(value):
                    # a list/dict/set of the tests' (``acc.items``): the candidate's changes to its
                    # copy are written back into it when the call ends (``after``), as in one process
                    idx = self.lent_ids.get(id(value))
                    if idx is None or self.lent.get(idx) is not value:
                        idx = len(self.lent) + 1
                        self.lent[idx], self.lent_ids[id(value)] = value, idx
                    reply[2].append(idx)
        elif "AssertionError" in reply[1][2]:  # a test's assertion message says what it expected
            reply[1][1], reply[1][4] = "", None
            del reply[1][5:]
        else:  # a test's exception goes to the program without its cause (which may be an assertion)
            del reply[1][7:]
            mirrored = self._mirrored(reply[1])
            if mirrored is not None:
                reply[1] += [None, mirrored]
        return reply


def _test_exception_base(judge, exc_type):
    """For a test's exception of a program's exception class (its judge-side mirror) or of a class
    deriving from one: [the program class's handle, the test class's name, its public class data
    (atoms)], so that the program's ``except AppError`` catches it as in one process."""
    mirrors = {id(m): m for m in judge.codec.mirrors.values()}
    found = {}
    for k in type.__dict__["__mro__"].__get__(exc_type):
        if id(k) in mirrors and mirrors[id(k)] is k:
            remote = k.__dict__.get("_r_remote")
            if remote is None:
                return None
            return [remote._r_id, str(exc_type.__name__)[:100], [[n, v] for n, v in list(found.items())[:50]]]
        for name, value in list(k.__dict__.items()):
            if type(name) is str and not name.startswith("_") and type(value) in _ATOMS:
                found.setdefault(name, value)
    return None


def _cb_getattr(obj, payload):
    name = payload[0] if payload else None
    if type(name) is not str or name.startswith("_"):
        raise PermissionError("private attributes of test objects are not shared")
    return getattr(obj, name)


def _cb_setattr(obj, payload):
    """Public data attributes of instances of the tests' own classes (``node.next = prev``): never
    a method, property or other descriptor of the class, never a class, function or module."""
    name, value = (payload + [None, None])[:2]
    t = type(obj)
    if type(name) is not str or name.startswith("_") or getattr(t, "__module__", None) != "__main__":
        raise PermissionError("only public attributes of the tests' own objects can be set")
    for klass in t.__mro__:
        attr = klass.__dict__.get(name, _NO_COPY)
        if attr is not _NO_COPY:
            if type(attr) is not _SLOT and (hasattr(type(attr), "__get__") or hasattr(type(attr), "__set__")):
                raise PermissionError(f"{t.__name__}.{name} is not a data attribute")
            break
    setattr(obj, name, value)


_SLOT = type(type("Slotted", (), {"__slots__": ("x",)}).__dict__["x"])  # a __slots__ member: data


_ORDER = {"lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b}


def _cb_order(obj, payload):
    """A test object ordered against a value or another test object, by the test's own ``__lt__``..."""
    op = _ORDER.get(payload[0]) if payload and type(payload[0]) is str else None
    if op is None or len(payload) != 2:
        raise PermissionError("not an ordering")
    return op(obj, payload[1])


_CALLBACKS = {
    "call": lambda obj, p: obj(*p[0], **dict((k, v) for k, v in p[1])),
    "iter": lambda obj, p: iter(obj),
    "next": lambda obj, p: next(obj),
    "getattr": _cb_getattr,
    "setattr": _cb_setattr,
    "len": lambda obj, p: len(obj),
    "bool": lambda obj, p: bool(obj),
    "getitem": lambda obj, p: obj[p[0]],
    "order": _cb_order,
}
