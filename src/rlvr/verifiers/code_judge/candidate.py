"""The candidate side: the forked process that runs the program as ``__candidate__`` and answers
the judge's requests (``CandidateServer``); the tests' objects it holds by reference (``JudgeRef``)."""

from __future__ import annotations

import builtins
import os
import sys

from .base import _ATOMS, _COROUTINE_TYPE, _FUNCTION_TYPE, _GENERATOR_TYPE, _NO_COPY, HUGE_INT, ProtocolError, dumps
from .codec import Codec, _base_value, build_exception, exc_data, namedtuple_class
from .process import _as_plain_python, _close_inherited, _frames, _restore_signals
from .shared import SharedState, _self_of
from .transport import _FUSED, _HEAD, _MAX64, _MIN64, _Q, _U16, _VALUE_INT, Conn, pack_atom, serve_call, unpack_atoms
from .verdict import _fmt

# ============================================================================ candidate side


class JudgeRef:
    """In the candidate: a judge-side object it may call or iterate (call-backs)."""

    __slots__ = ("_j_id", "_j_kind")

    def __init__(self, ref, kind):
        object.__setattr__(self, "_j_id", ref)
        object.__setattr__(self, "_j_kind", kind)

    def _j(self, op, payload=()):
        return _SERVER.back(op, self._j_id, list(payload))

    def __call__(self, *args, **kwargs):
        enc = _SERVER.codec.enc
        return self._j("call", [[enc(a) for a in args], [[k, enc(v)] for k, v in kwargs.items()]])

    def __iter__(self):
        return self if self._j_kind == "iter" else self._j("iter")

    def __next__(self):
        return self._j("next")

    def __getattr__(self, name):
        return self._j("getattr", [name])

    def __setattr__(self, name, value):
        self._j("setattr", [name, _SERVER.codec.enc(value)])

    def __len__(self):
        return self._j("len")

    def __bool__(self):
        return self._j("bool")

    def __getitem__(self, key):
        return self._j("getitem", [_SERVER.codec.enc(key)])

    def __repr__(self):
        return f"<test object {self._j_id}>"


def _ordering(name):
    """``<``, ``<=``, ``>``, ``>=`` of a test object: the test's own ordering, asked of the judge
    (``sorted(items)`` of the tests' objects with ``__lt__``)."""

    def method(self, other):
        return self._j("order", [name, _SERVER.codec.enc(other)])

    method.__name__ = f"__{name}__"
    return method


for _name in ("lt", "le", "gt", "ge"):
    setattr(JudgeRef, f"__{_name}__", _ordering(_name))


_CLASS_DATA = frozenset((int, float, complex, str, bytes, bool, type(None), tuple, list, dict, set, frozenset))


class CandidateCodec(Codec):
    def __init__(self, env):
        super().__init__()
        self.env, self.table, self.ids, self.next_id = env, {}, {}, 1
        self.jrefs = {}  # judge reference id -> its one JudgeRef (identity and hashing stay stable)
        self.chains = {}  # class -> its chain (see chain)

    def tag(self, v):
        key = _SERVER.tracked_ids.get(id(v))
        return key if key is not None and _SERVER.tracked[key][0] is v else None

    def kept(self, key, fresh):
        if type(key) is not str or key[:1] not in ("j", "c") or not key[1:].isdigit():
            raise ProtocolError("bad container key")
        return _SERVER.keep(key, fresh)

    def handle(self, v):
        key = id(v)
        hid = self.ids.get(key)
        if hid is None or self.table.get(hid) is not v:
            hid, self.next_id = self.next_id, self.next_id + 1
            self.table[hid], self.ids[key] = v, hid
        return hid

    def enc_special(self, v, t, d):
        if t is JudgeRef:
            return {"$": "j", "id": v._j_id}
        out = self.enc_common(v, t, d)
        if out is _NO_COPY:
            out = self.enc_record(v, t, d, lambda: self.handle(v))
        if out is _NO_COPY:
            out = self.enc_collection_base(v, t, d)
            if out is not _NO_COPY:
                return out
            base = _base_value(v, t)
            if base is not _NO_COPY:
                return self.enc_subclass(v, t, base, d)
            out = self.enc_handle(v, t)
        return out

    def enc_subclass(self, v, t, base, d):
        """An instance of a subclass of a builtin type: its value read through the base type's
        storage (never the subclass's methods), and its own attributes beside it."""
        try:
            own = object.__getattribute__(v, "__dict__")
        except AttributeError:
            own = None
        found = dict(own) if type(own) is dict else {}
        # its own public methods and __missing__, those the builtin base does not define: the judge's
        # copy calls them on this object; the base type's (items, startswith) stay the base type's
        methods, builtin = [], type(base)
        for k in type.__dict__["__mro__"].__get__(t):  # the program's classes' own data (``unit = 'm'``)
            if getattr(builtins, k.__name__, None) is k:
                break
            for name, x in list(type.__dict__["__dict__"].__get__(k).items())[:50]:
                if type(name) is str and not name.startswith("__") and type(x) in _CLASS_DATA:
                    found.setdefault(name, x)
                elif (type(x) is _FUNCTION_TYPE and type(name) is str and name not in methods and name.isidentifier()
                      and (name == "__missing__" or not name.startswith("_")) and not hasattr(builtin, name)):
                    methods.append(name)
        if not found and not methods:
            return self.enc(base, d - 1)
        attrs = [[k, self.enc(x, d)] for k, x in list(found.items())[:50] if type(k) is str]
        out = {"$": "B", "c": str(type.__dict__["__qualname__"].__get__(t))[:100], "v": self.enc(base, d), "a": attrs}
        if methods:
            out["h"], out["m"] = self.handle(v), methods[:50]
        return out

    def enc_handle(self, v, t):
        kind = "object"
        info = {"$": "h", "id": self.handle(v), "n": getattr(t, "__qualname__", "?")}
        if isinstance(v, type):
            kind = "class"
            info["n"] = getattr(v, "__qualname__", "?")
            if issubclass(v, BaseException):
                kind = "excclass"
                info["b"] = [k.__name__ for k in v.__mro__ if getattr(builtins, k.__name__, None) is k]
            else:
                chain = self.chain(v)
                if chain:
                    info["cl"] = chain
        elif t is _GENERATOR_TYPE:
            kind = "generator"
        elif t is _COROUTINE_TYPE:
            kind = "coroutine"
        elif t is _FUNCTION_TYPE:
            kind = "pyfunction"
        else:
            kind = "function" if callable(v) else "object"
            chain = self.chain(t)
            if chain:
                info["cl"] = chain
        info["k"] = kind
        return info

    def chain(self, t):
        """The program's own classes in ``t``'s MRO, bases first: ``[[handle, name, [base
        handles]], ...]``, from which the judge builds (once) a proxy class per class, so that
        ``type(v) is Vector`` and ``type(v).__name__`` hold there. Class handles are never
        released, so one class keeps one proxy."""
        out = self.chains.get(t)
        if out is None:
            out = []
            try:
                mro = [k for k in type.__dict__["__mro__"].__get__(t)[:16] if isinstance(k, type)]
            except BaseException:
                mro = []
            for k in reversed(mro):
                if k.__dict__.get("__module__") == "__candidate__" and not issubclass(k, BaseException):
                    bases = [self.handle(b) for b in k.__bases__ if b.__dict__.get("__module__") == "__candidate__"]
                    out.append([self.handle(k), str(type.__dict__["__qualname__"].__get__(k))[:100], bases])
            self.chains[t] = out
        return out

    def d_handle(self, obj):
        try:
            return self.table[obj["id"]]
        except KeyError:
            raise ProtocolError("unknown handle") from None

    def d_judge(self, obj):
        rid = self._int(obj["id"])
        ref = self.jrefs.get(rid)
        if ref is None:
            ref = self.jrefs[rid] = JudgeRef(rid, self._str(obj, "k") if "k" in obj else "obj")
        return ref

    def d_global(self, obj):
        value = __import__(self._str(obj, "mod"))
        value = sys.modules[obj["mod"]]
        for part in self._str(obj, "q").split("."):
            value = getattr(value, part)
        return value

    def _own_class(self, name):
        cls = self.env.get(name)
        return cls if isinstance(cls, type) else None

    def d_enum(self, obj):
        if obj.get("h") is not None:
            return self.d_handle({"id": obj["h"]})
        cls = self._own_class(self._str(obj, "c"))
        return cls[self._str(obj, "n")] if cls is not None else obj["v"]

    def d_namedtuple(self, obj):
        if obj.get("h") is not None:
            return self.d_handle({"id": obj["h"]})
        cls = self._own_class(self._str(obj, "c"))
        if cls is None or tuple(getattr(cls, "_fields", ())) != tuple(obj["f"]):
            cls = namedtuple_class(obj["c"], obj["f"])
        return cls(*self._list(obj))

    def d_record(self, obj):
        if obj.get("h") is not None:
            return self.d_handle({"id": obj["h"]})
        cls = self._own_class(self._str(obj, "c"))
        fields = self._pairs({"v": obj["f"]})
        if cls is None:
            import types

            return types.SimpleNamespace(**dict(fields))
        inst = object.__new__(cls)
        for k, v in fields:
            object.__setattr__(inst, k, v)
        return inst

    _TAGS = dict(Codec._TAGS, h=d_handle, j=d_judge, g=d_global, e=d_enum, n=d_namedtuple, r=d_record)


class CandidateServer(SharedState):
    """Runs in the candidate process: answers the judge's requests about its own objects."""

    def __init__(self, env, rfd, wfd, shm=None):
        self.env = env
        self.watched = {}  # module-level atoms the tests read (op_watch)
        self.depth = 0  # calls into the program now running (nested through call-backs)
        self.lent = {}  # lent index -> (the tests' container as received, its encoding then)
        self.codec = CandidateCodec(env)
        self.conn = Conn(rfd, wfd, self.codec, self.serve, shm, 1)
        self.conn.fast = self.fast
        SharedState.__init__(self)
        self.test_exceptions = {}  # (program class handle, name, class data) -> the class (_own_exception)

    def back(self, op, ref, payload):
        """A call-back into the judge (a test's function or iterator passed as an argument)."""
        reply = self.conn.request(op, ref, payload)
        if reply[0] == "r":
            value = reply[1]
            lent = reply[2] if len(reply) > 2 and type(reply[2]) is list and reply[2] else None
            if lent is not None and type(lent[0]) is int and self.depth:
                # a container of the tests (``acc.items``), written back when the outermost call
                # ends; asked for again in the same call, it is the same object, as in Python
                known = self.lent.get(lent[0])
                if known is not None:
                    return known[0]
                try:
                    self.lent[lent[0]] = (value, dumps(self.codec.enc(value)))
                except BaseException:
                    pass
            return value
        data = reply[1]
        name, msg = data[0], data[1]
        own = self._own_exception(data[8]) if len(data) > 8 else None
        if own is not None:  # a test's exception class deriving from one of the program's
            exc = build_exception(own, msg, data[4] if len(data) > 4 else None)
            for pair in data[5] if type(data[5]) is list else ():
                if type(pair) is list and len(pair) == 2 and type(pair[0]) is str:
                    try:
                        setattr(exc, pair[0], pair[1])
                    except BaseException:
                        pass
            raise exc
        kind = getattr(builtins, name, None)
        if isinstance(kind, type) and issubclass(kind, BaseException):
            raise build_exception(kind, msg, data[4] if len(data) > 4 else None)
        raise RuntimeError(name + ": " + msg)

    def _own_exception(self, info):
        """A subclass of the program's exception class standing for the test's (``class
        NotFound(AppError): code = 404``): its name and public class data, made once."""
        if type(info) is not list or len(info) != 3 or type(info[1]) is not str or type(info[2]) is not list:
            return None
        base = self.codec.table.get(info[0]) if type(info[0]) is int else None
        if not (isinstance(base, type) and issubclass(base, Exception)):
            return None
        attrs = {k: v for k, v in (p for p in info[2] if type(p) is list and len(p) == 2) if type(k) is str}
        if not attrs and info[1] == base.__name__:  # the program's class itself, raised by the tests
            return base
        key = (info[0], info[1], dumps(sorted(attrs.items())))
        cls = self.test_exceptions.get(key)
        if cls is None:
            try:
                cls = type(base)(info[1], (base,), dict(attrs, __module__="__main__"))
            except BaseException:
                return None
            self.test_exceptions[key] = cls
        return cls

    def serve(self, message):
        _, op, target, payload = message
        fn = getattr(self, "op_" + str(op), None)
        if fn is None:
            return ["x", exc_data(ProtocolError(f"unknown op {op!r}"))]
        try:
            if op in ("globals", "watch", "subclass"):
                obj = self.env
            else:
                obj = None if op == "release" else self.codec.table[target]
        except (KeyError, TypeError):
            return ["x", exc_data(ProtocolError("unknown handle"))]
        reply = serve_call(fn, obj, payload, self.codec.enc)
        if reply[0] == "r":
            try:
                reply = ["r"] + list(reply[1])
            except BaseException as exc:  # encoding the result failed
                reply = ["x", exc_data(exc)]
        if not self.depth and (self.tracked or self.dropped):
            obj = None
            self.after_request(reply, payload)
        return reply

    def loop(self):
        conn = self.conn
        while True:
            try:
                data = conn.recv_bytes()
            except (EOFError, OSError):
                os._exit(0)
            if data[:1] in (b"F", b"M"):
                conn.send_bytes(self.fast(data))
                continue
            message = conn.decode(data)
            if message[0] != "q":
                os._exit(3)
            if message[1] == "exit":
                os._exit(0)
            conn.send(self.serve(message))

    def fast(self, data):
        """A binary ``F`` request (``pack_call``): ``op_call`` with atom arguments; the reply is
        ``V`` and the atom when the result is one and the call changed nothing else the judge
        must learn (watched names, lent containers), else the JSON reply ``serve`` gives."""
        hid = _HEAD.unpack_from(data, 0)[1]
        fn = self.codec.table.get(hid, _NO_COPY)
        if fn is _NO_COPY:
            return dumps(["x", exc_data(ProtocolError("unknown handle"))]).encode("ascii")
        if data[0] == 77:  # M: obj.name(*args) (op_callattr)
            size = _U16.unpack_from(data, 5)[0]
            name = str(data[7:7 + size], "utf-8", "surrogatepass")
            args = unpack_atoms(data, 7 + size)
            if self.watched or self.depth or self.lent or self.tracked or self.dropped:
                return dumps(self.serve(["q", "callattr", hid, [name, args, [], []]])).encode("ascii")
            try:
                fn = getattr(fn, name)
            except BaseException as exc:
                return dumps(["x", exc_data(exc, self.codec.enc)]).encode("ascii")
            if type(fn) not in _FUSED:  # the attribute itself, for the judge to call (op_callattr)
                try:
                    reply = ["r", self.codec.enc(fn), [], self.codec.enc({"attr": 1})]
                except BaseException as exc:
                    reply = ["x", exc_data(exc, self.codec.enc)]
                return dumps(reply).encode("ascii")
        else:
            args = (_Q.unpack_from(data, 6)[0],) if len(data) == 14 and data[5] == 105 else unpack_atoms(data, 5)
            if self.watched or self.depth or self.lent or self.tracked or self.dropped:
                return dumps(self.serve(["q", "call", hid, [args, [], []]])).encode("ascii")
        self.depth = 1
        try:
            value = fn(*args)
            if type(value) is int and _MIN64 <= value < _MAX64 and not self.lent:
                self.depth = 0
                return _VALUE_INT.pack(86, 105, value)
            if not self.lent:
                parts = [b"V"]
                if type(value) in _ATOMS and pack_atom(value, parts):
                    self.depth = 0
                    return b"".join(parts)
            reply = [self.codec.enc(value), []]
        except BaseException as exc:  # the exception travels as data (as serve_call sends it)
            self.depth, self.lent = 0, {}
            return dumps(["x", exc_data(exc, self.codec.enc)]).encode("ascii")
        self.depth = 0
        extra = {}
        try:
            self._lent_changes(extra)
            if extra:
                reply.append(self.codec.enc(extra))
        except BaseException as exc:
            return dumps(["x", exc_data(exc, self.codec.enc)]).encode("ascii")
        return dumps(["r"] + reply).encode("ascii")

    def out(self, value, sync=None):
        return [self.codec.enc(value), sync or []]

    # each op_*: (target object, payload) -> [encoded value, sync pairs]
    def op_globals(self, env, names):
        for n in names:
            if type(n) is str and n in env:
                self.share(env[n])
        return [{"$": "d", "v": [[n, self.codec.enc(env[n])] for n in names if type(n) is str and n in env]}, []]

    def op_subclass(self, env, payload):
        """A class of the tests deriving from the program's classes (``proxies._test_subclass``):
        a subclass whose methods the tests define call them back with the object as ``self``, and
        the program's own methods of its bases ([base index, name, function]) for ``super()``."""
        name, bases, methods, data = payload
        if type(name) is not str or not name.isidentifier() or type(bases) is not list or not bases:
            raise TypeError("bad subclass request")
        if not all(isinstance(b, type) and b.__dict__.get("__module__") == "__candidate__" for b in bases):
            raise TypeError("only the program's classes can be subclassed by the tests")
        ns = {"__module__": "__candidate__", "__qualname__": name}
        for pair in data:
            ns[str(pair[0])] = pair[1]
        for pair in methods:
            if type(pair[1]) is JudgeRef:
                ns[str(pair[0])] = _calls_back(str(pair[0]), pair[1])
        cls = type(bases[0])(name, tuple(bases), ns)
        own = []
        for k, base in enumerate(bases):
            for klass in base.__mro__:
                if klass.__dict__.get("__module__") != "__candidate__":
                    continue
                for attr, value in list(klass.__dict__.items()):
                    if type(value) is _FUNCTION_TYPE and (attr == "__init__" or not attr.startswith("__")):
                        if not any(entry[0] == k and entry[1] == attr for entry in own):
                            own.append([k, attr, value])
        return self.out([self.codec.handle(cls), own])

    def op_watch(self, env, names):
        """Module-level atoms the tests read (``calls = 0`` counted up by ``tick()``): their new
        values come back with every call that rebinds them."""
        self.watched = {n: env.get(n) for n in names if type(n) is str}
        return self.out(None)

    def changed(self):
        """[[name, value]] for watched names a call rebound (to atoms)."""
        out = []
        for name, old in self.watched.items():
            now = self.env.get(name, _NO_COPY)
            if now is not old and type(now) in _ATOMS:
                self.watched[name] = now
                out.append([name, self.codec.enc(now)])
        return out

    def op_call(self, fn, payload):
        """[value, sync pairs] and, when there is any, a dict of what else the call changed: the
        process state (``_call_in``), watched names (``g``), the tests' lent containers
        (``lent``: see ``back``), which come back once the outermost call into the program ends."""
        self.depth += 1
        try:
            context = payload[3] if len(payload) > 3 and type(payload[3]) is dict else None
            if context:
                reply, extra = self._call_in(context, fn, payload[:3])
            else:
                reply, extra = self._plain_call(fn, payload)
        except BaseException:
            if self.depth == 1:
                self.lent = {}
            raise
        finally:
            self.depth -= 1
        self._lent_changes(extra)
        if extra:
            reply.append(self.codec.enc(extra))
        return reply

    def _lent_changes(self, extra):
        """Once the outermost call has ended: the tests' lent containers it changed, into ``extra``."""
        if not self.depth and self.lent:
            lent, self.lent = self.lent, {}
            changes = []
            for idx, (obj, text) in lent.items():
                try:
                    if dumps(self.codec.enc(obj)) != text:
                        changes.append([idx, obj])  # encoded with the rest of extra
                except BaseException:  # no longer encodes: the tests keep their own
                    pass
            if changes:
                extra["lent"] = changes

    def _plain_call(self, fn, payload):
        args, kwargs, mutable = payload[:3]
        if not kwargs and not mutable:  # nothing to sync
            result = fn(*args)
            if self.tracked:
                self.anchors = (result, _self_of(fn))
            reply = [self.codec.enc(result), []]
        else:
            args = list(args)
            kwargs = dict((k, v) for k, v in kwargs)
            slots = [(args, p) for p in mutable if type(p) is int and 0 <= p < len(args)]
            slots += [(kwargs, p) for p in mutable if type(p) is str and p in kwargs]  # keyword arguments by name
            before = [(where, p, dumps(self.codec.enc(where[p]))) for where, p in slots]
            try:
                result = fn(*args, **kwargs)
            finally:
                sync = []
                for where, p, text in before:
                    try:
                        now = self.codec.enc(where[p])
                        if dumps(now) != text:
                            sync.append([p, now])
                    except BaseException:  # the argument no longer encodes: leave the judge's copy
                        pass
            if self.tracked:
                self.anchors = (result, _self_of(fn))
            reply = self.out(result, sync)
        extra = {}
        if self.watched:
            changed = self.changed()
            if changed:
                extra["g"] = changed
        return reply, extra

    def _call_in(self, ctx, fn, payload):
        """A call under the test's process state (Judge.context); returns what it changed."""
        import contextlib

        for pair in ctx.get("alias") or ():  # the same object passed twice arrives as one
            args = payload[0]
            if type(pair) is list and len(pair) == 2 and all(type(k) is int and 0 <= k < len(args) for k in pair):
                args[pair[0]] = args[pair[1]]

        saved = (sys.stdout, sys.stderr, sys.stdin, builtins.input)
        caught = None
        try:
            with contextlib.ExitStack() as stack:
                if ctx.get("warn") is True:
                    import warnings

                    caught = stack.enter_context(warnings.catch_warnings(record=True))
                    warnings.simplefilter("always")
                for key, name in (("out", "stdout"), ("err", "stderr"), ("in", "stdin")):
                    if key in ctx:
                        setattr(sys, name, ctx[key])
                if "input" in ctx:
                    builtins.input = ctx["input"]
                if type(ctx.get("env")) is dict:
                    env = ctx["env"]
                    for k in [k for k in os.environ if k not in env]:
                        del os.environ[k]
                    os.environ.update({k: v for k, v in env.items() if type(k) is str and type(v) is str})
                if type(ctx.get("argv")) is list:
                    sys.argv = list(ctx["argv"])
                if type(ctx.get("cwd")) is str:
                    try:
                        os.chdir(ctx["cwd"])
                    except OSError:
                        pass
                if ctx.get("rnd") is not None:
                    import random

                    random.setstate(ctx["rnd"])
                reply, state = self._plain_call(fn, payload)
        finally:
            sys.stdout, sys.stderr, sys.stdin, builtins.input = saved
        if type(ctx.get("env")) is dict and dict(os.environ) != ctx["env"]:
            state["env"] = dict(os.environ)
        if type(ctx.get("cwd")) is str:
            try:
                if os.getcwd() != ctx["cwd"]:
                    state["cwd"] = os.getcwd()
            except OSError:
                pass
        if ctx.get("rnd") is not None:
            state["rnd"] = sys.modules["random"].getstate()
        if caught:
            state["warn"] = [[type(w.message).__name__ if isinstance(w.message, Warning) else "UserWarning",
                              str(w.message)[:2000], str(w.filename)[:200], int(w.lineno or 0)]
                             for w in caught[:100]]  # fmt: skip
        return reply, state

    def op_callattr(self, obj, payload):
        """``obj.name(*args)`` in one round trip (``_method``): the attribute is looked up here,
        then called as ``op_call`` would when it is a Python function or method, the
        program's own code; any other attribute comes back as ``getattr`` would give it, marked
        ``attr``, and the judge calls it itself (a test's call-back, a builtin, a value)."""
        value = getattr(obj, str(payload[0]))
        if type(value) in _FUSED:
            return self.op_call(value, payload[1:])
        return [self.codec.enc(value), [], self.codec.enc({"attr": 1})]

    def op_getattr(self, obj, payload):
        return self.out(getattr(obj, str(payload[0])))

    def op_copy(self, obj, payload):
        import copy

        return self.out(copy.deepcopy(obj) if payload[0] is True else copy.copy(obj))

    def op_setattr(self, obj, payload):
        setattr(obj, str(payload[0]), payload[1])
        return self.out(None)

    def op_delattr(self, obj, payload):
        delattr(obj, str(payload[0]))
        return self.out(None)

    def op_len(self, obj, payload):
        return self.out(len(obj))

    def op_bool(self, obj, payload):
        return self.out(bool(obj))

    def op_iter(self, obj, payload):
        return self.out(iter(obj))

    def op_next(self, obj, payload):
        return self.out(next(obj))

    def op_calls(self, fn, payload):
        """``fn(*args)`` for each argument list in turn (``Judge.calls``): the results while they
        are atoms, then the first other result, and stop there; an exception stops the batch and
        comes back after the results before it. Module-level atoms the tests watch come back too."""
        out, err = [], None
        for args in payload[0]:
            try:
                value = fn(*args)
            except BaseException as exc:  # the judge raises it after the results before it
                err = exc_data(exc, self.codec.enc)
                break
            t = type(value)
            if t in _ATOMS and (t is not int or -HUGE_INT < value < HUGE_INT):
                out.append(value)
            else:  # a handle or a container: the tests may act on it before the next call
                out.append(self.codec.enc(value))
                break
        reply = [[out, err], []]
        if self.watched:
            changed = self.changed()
            if changed:
                reply.append({"$": "d", "v": [["g", changed]]})
        return reply

    def op_send(self, obj, payload):
        return self.out(obj.send(payload[0]))

    def op_throw(self, obj, payload):
        """``gen.throw`` with a builtin exception type named by the judge and its message."""
        kind = getattr(builtins, str(payload[0]), None)
        if not (isinstance(kind, type) and issubclass(kind, BaseException)):
            kind = RuntimeError
        return self.out(obj.throw(build_exception(kind, str(payload[1]), None)))

    def op_nextn(self, obj, payload):
        items, done, n = [], False, min(int(payload[0]), 4096)
        while len(items) < n:
            try:
                items.append(next(obj))
            except StopIteration:
                done = True
                break
        return self.out([items, done])

    def op_getitem(self, obj, payload):
        return self.out(obj[payload[0]])

    def op_setitem(self, obj, payload):
        obj[payload[0]] = payload[1]
        return self.out(None)

    def op_delitem(self, obj, payload):
        del obj[payload[0]]
        return self.out(None)

    def op_repr(self, obj, payload):
        return self.out(str.__str__(repr(obj)))

    def op_str(self, obj, payload):
        return self.out(str.__str__(str(obj)))

    def op_format(self, obj, payload):
        return self.out(str.__str__(format(obj, str(payload[0]))))

    def op_float(self, obj, payload):
        return self.out(float(obj))

    def op_int(self, obj, payload):
        return self.out(int(obj))

    def op_index(self, obj, payload):
        import operator

        return self.out(operator.index(obj))

    def op_complex(self, obj, payload):
        return self.out(complex(obj))

    def op_isinstance(self, cls, payload):
        return self.out(isinstance(payload[0], cls))

    def op_issubclass(self, cls, payload):
        return self.out(issubclass(payload[0], cls))

    def op_binop(self, obj, payload):
        import operator

        name, other, reflected = (list(payload) + [False])[:3]
        if name not in _BINOPS:
            raise ProtocolError("unknown operator")
        fn = getattr(operator, name if name not in ("and", "or") else name + "_")
        return self.out(fn(other, obj) if reflected is True else fn(obj, other))

    def op_hash(self, obj, payload):
        return self.out(hash(obj))

    def op_contains(self, obj, payload):
        return self.out(payload[0] in obj)

    def op_dir(self, obj, payload):
        return self.out([str.__str__(x) for x in dir(obj)])

    def op_release(self, obj, payload):
        for hid in payload:
            if isinstance(self.codec.table.get(hid), type):  # a class keeps its handle (and proxy class)
                continue
            value = self.codec.table.pop(hid, None)
            if value is not None and self.codec.ids.get(id(value)) == hid:
                del self.codec.ids[id(value)]
        return self.out(None)


def _calls_back(name, ref):
    """A method of a test class that subclasses the program's: the tests' function, called back."""

    def method(self, *args, **kwargs):
        return ref(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = name
    return method


_BINOPS = frozenset(("eq", "ne", "lt", "le", "gt", "ge", "add", "sub", "mul", "truediv", "floordiv", "mod", "pow",
                     "matmul", "and", "or", "xor", "lshift", "rshift"))
_SERVER = None  # the CandidateServer of this process (candidate side only)



# ============================================================================ candidate process


def _candidate_main(code, rfd, wfd, shm=None):
    """In the forked candidate: no record pipe, no test payload, no output; run, then serve."""
    global _SERVER
    try:
        _close_inherited(keep=(rfd, wfd))
        devnull = os.open("/dev/null", os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        os.close(devnull)
        _restore_signals()
        _as_plain_python(_frames() + 3)  # loop, serve, serve_call, op_call: under a call, minus a test module's frame
        module = type(sys)("__candidate__")
        module.__dict__["__builtins__"] = builtins
        sys.modules["__candidate__"] = module
        env = module.__dict__
        _SERVER = CandidateServer(env, rfd, wfd, shm)
        top = None
        try:
            exec(code, env)
        except BaseException as exc:  # reported; the tests still run against what was defined
            top = _fmt(exc)
        names = [n for n in list(env) if type(n) is str and not (n.startswith("__") and n.endswith("__"))]
        _SERVER.conn.send(["r", names, top])
        _SERVER.loop()
    finally:
        os._exit(4)
