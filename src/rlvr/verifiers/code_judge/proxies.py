"""The judge's proxies of the program's objects: ``Remote`` handles (calls, attributes, iteration
forwarded to the candidate), classes, records, enum members, and the judge side of the codec."""

from __future__ import annotations

import _weakref
import builtins
import sys

from .base import (
    _COROUTINE_TYPE,
    _FUNCTION_TYPE,
    _GENERATOR_TYPE,
    _NO_COPY,
    _NONE_TYPE,
    CandidateExit,
    CandidateGone,
    ProtocolError,
)
from .codec import Codec, _base_value, _sync_into, namedtuple_class

# ============================================================================ judge side

_JUDGE = None  # the Judge of this process (judge side only)


def _internal_types():
    """Frame, code, traceback and cell types (without importing ``types``)."""
    x = None
    try:
        raise TypeError
    except TypeError as exc:
        tb = exc.__traceback__
    return type(tb.tb_frame), type(tb.tb_frame.f_code), type(tb), type((lambda: x).__closure__[0])


_INTERNALS = _internal_types()
_QUIET = [False]  # True while failure messages are formatted: Remote repr then never asks the candidate


class Remote:
    # In the judge: an object that lives in the candidate. Identity equality and hashing only.
    # (No docstring: ``__doc__`` and ``__module__`` are the candidate object's, asked for.)

    __slots__ = ("_r_id", "_r_kind", "_r_name", "__weakref__")
    __doc__ = property(lambda self: self._r("getattr", ["__doc__"]))
    __module__ = property(lambda self: self._r("getattr", ["__module__"]))

    def __init__(self, hid, kind, name):
        object.__setattr__(self, "_r_id", hid)
        object.__setattr__(self, "_r_kind", kind)
        object.__setattr__(self, "_r_name", name)

    def _r(self, op, payload=(), next_op=False):
        return _JUDGE.call(op, self._r_id, list(payload), next_op=next_op)

    def __call__(self, *args, **kwargs):
        return _JUDGE.call_remote(self._r_id, args, kwargs)

    def __getattr__(self, name):
        if name.startswith("_r_"):
            raise AttributeError(name)
        return self._r("getattr", [name])

    def __setattr__(self, name, value):
        self._r("setattr", [name, _JUDGE.codec.enc(value)])

    def __delattr__(self, name):
        self._r("delattr", [name])

    def __len__(self):
        return _checked(self._r("len"), int, "__len__")

    def __bool__(self):
        return _checked(self._r("bool"), bool, "__bool__")

    def __iter__(self):
        it = self._r("iter")
        return RemoteIter(it) if isinstance(it, Remote) else iter(it)

    def __next__(self):
        return self._r("next", next_op=True)

    def __getitem__(self, key):
        return self._r("getitem", [_JUDGE.codec.enc(key)])

    def __setitem__(self, key, value):
        self._r("setitem", [_JUDGE.codec.enc(key), _JUDGE.codec.enc(value)])

    def __delitem__(self, key):
        self._r("delitem", [_JUDGE.codec.enc(key)])

    def __repr__(self):
        if _QUIET[0]:
            return f"<candidate {self._r_name} object>"
        return _checked(self._r("repr"), str, "__repr__")

    def __str__(self):
        if _QUIET[0]:
            return f"<candidate {self._r_name} object>"
        return _checked(self._r("str"), str, "__str__")

    def __format__(self, spec):
        return _checked(self._r("format", [spec]), str, "__format__")

    def __float__(self):
        return _checked(self._r("float"), float, "__float__")

    def __int__(self):
        return _checked(self._r("int"), int, "__int__")

    def __index__(self):
        return _checked(self._r("index"), int, "__index__")

    def __complex__(self):
        return _checked(self._r("complex"), complex, "__complex__")

    def __instancecheck__(self, obj):
        return _checked(self._r("isinstance", [_JUDGE.codec.enc(obj)]), bool, "__instancecheck__")

    def __subclasscheck__(self, cls):
        return _checked(self._r("issubclass", [_JUDGE.codec.enc(cls)]), bool, "__subclasscheck__")

    def __dir__(self):
        return list(self._r("dir"))

    def __enter__(self):
        return self.__getattr__("__enter__")()

    def __exit__(self, kind, value, tb):
        """The candidate's ``__exit__`` learns the exception's builtin type (never the exception,
        which may carry what a test expected); it may suppress one, never a failed assertion."""
        mro = kind.__mro__ if kind is not None else ()
        base = next((k for k in mro if getattr(builtins, k.__name__, None) is k), None)
        suppress = self.__getattr__("__exit__")(base, None, None)
        if kind is None or issubclass(kind, (AssertionError, CandidateGone, CandidateExit)):
            return False
        return type(suppress) in (bool, int) and bool(suppress)

    def __copy__(self):
        return self._r("copy", [False])

    def __deepcopy__(self, memo):  # the copy is made in the candidate; the judge's memo stays here
        return self._r("copy", [True])

    def __eq__(self, other):
        """Two candidate objects: the candidate's own ``==``; against anything else, identity."""
        if isinstance(other, Remote) and other is not self:
            return self._r("binop", ["eq", _JUDGE.codec.enc(other)])
        return self is other

    def __ne__(self, other):
        if isinstance(other, Remote) and other is not self:
            return self._r("binop", ["ne", _JUDGE.codec.enc(other)])
        return self is not other

    def __hash__(self):
        return _checked(self._r("hash"), int, "__hash__")

    def __contains__(self, item):
        return _checked(self._r("contains", [_JUDGE.codec.enc(item)]), bool, "__contains__")

    def __del__(self):
        judge = _JUDGE
        if judge is not None:
            judge.codec.released.append(self._r_id)


def _operator(name, reflected=False, order=False):
    """A binary operator of a candidate object, computed by the candidate (``operator.<name>``
    there, so reflection works as in Python). Ordering only between two candidate objects; an
    arithmetic result against a test's value must be a candidate object, never a bare value
    that would decide a comparison (``liar - 3.75`` answering 0.0)."""

    def method(self, other):
        both = isinstance(other, Remote)
        if order and not both:
            return NotImplemented
        if not both and type(other) not in _OPERANDS:
            return NotImplemented
        pair = [name, _JUDGE.codec.enc(other), reflected]
        result = self._r("binop", pair)
        if not both and not order and not isinstance(result, Remote):
            raise TypeError(f"{name} of a candidate object and a value gave {type(result).__name__}, "
                            "not a candidate object")
        return result

    method.__name__ = f"__{'r' if reflected else ''}{name}__"
    return method


_OPERANDS = frozenset((int, float, complex, str, bytes, bool, tuple, list, dict, set, frozenset, _NONE_TYPE))
_ARITH = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor", "lshift", "rshift")
for _name in _ARITH:
    setattr(Remote, f"__{_name}__", _operator(_name))
    setattr(Remote, f"__r{_name}__", _operator(_name, reflected=True))
for _name in ("lt", "le", "gt", "ge"):
    setattr(Remote, f"__{_name}__", _operator(_name, order=True))


class RemoteFunction(Remote):
    """A candidate's Python function: ``isinstance(f, types.FunctionType)`` holds, as it would
    in plain Python, so ``inspect.isgeneratorfunction(f)`` and friends read its (forwarded)
    ``__code__``."""

    __slots__ = ()
    __class__ = property(lambda self: _FUNCTION_TYPE)


class RemoteGenerator(Remote):
    """A candidate's generator: ``isinstance(g, types.GeneratorType)`` holds; ``send`` and
    ``throw`` end with ``StopIteration`` carrying the return value, as a generator's do."""

    __slots__ = ()
    __class__ = property(lambda self: _GENERATOR_TYPE)

    def send(self, value):
        return self._r("send", [_JUDGE.codec.enc(value)], next_op=True)

    def throw(self, kind, value=None, tb=None):
        """The exception crosses as its nearest builtin type and its message."""
        exc = kind if isinstance(kind, BaseException) else (value if isinstance(value, BaseException) else kind())
        base = next(k for k in type(exc).__mro__ if getattr(builtins, k.__name__, None) is k)
        return self._r("throw", [base.__name__, str(exc)], next_op=True)


class RemoteCoroutine(RemoteGenerator):
    """A candidate's coroutine: ``isinstance(c, types.CoroutineType)`` holds, so ``asyncio.run``,
    ``create_task`` and ``gather`` drive it with ``send``/``throw`` (``await`` too). What it awaits
    runs in the candidate's process: ``asyncio.sleep(0)`` works there, a future of another event
    loop does not."""

    __slots__ = ()
    __class__ = property(lambda self: _COROUTINE_TYPE)

    def __next__(self):
        return self.send(None)

    def __await__(self):
        return self

    def __iter__(self):
        raise TypeError("'coroutine' object is not iterable")


_KIND_CLASSES = {"pyfunction": RemoteFunction, "generator": RemoteGenerator, "coroutine": RemoteCoroutine}
for _cls, _name in ((RemoteFunction, "function"), (RemoteGenerator, "generator"), (RemoteCoroutine, "coroutine")):
    _cls.__name__ = _cls.__qualname__ = _name  # type(g).__name__ as in plain Python
    _cls.__doc__ = Remote.__dict__["__doc__"]  # the candidate object's, asked for
    _cls.__module__ = Remote.__dict__["__module__"]
_MAKING_PROXY = [False]


class RemoteClass(type):
    """The type of the judge's proxy class for a class of the program (``JudgeCodec.proxy_class``):
    its instances are the handles of that class's objects, so ``type(v) is Vector`` holds and
    ``type(v).__name__ == "Vector"``. Calling the class, its attributes, ``isinstance``,
    ``issubclass``, iteration (an enum class), ``len``, indexing and ``repr`` are the candidate
    class's, forwarded; equality and hashing are identity. A class of the tests may subclass it
    (``_test_subclass``)."""

    def __new__(mcs, name, bases, ns):
        if not _MAKING_PROXY[0]:
            return _test_subclass(mcs, name, bases, ns)
        return type.__new__(mcs, name, bases, ns)

    def __call__(cls, *args, **kwargs):
        return _JUDGE.call_remote(type.__getattribute__(cls, "_r_remote")._r_id, args, kwargs)

    def __getattr__(cls, name):
        if name.startswith("_r_"):
            raise AttributeError(name)
        return type.__getattribute__(cls, "_r_remote").__getattr__(name)

    def __setattr__(cls, name, value):
        type.__getattribute__(cls, "_r_remote").__setattr__(name, value)

    def __delattr__(cls, name):
        type.__getattribute__(cls, "_r_remote").__delattr__(name)

    def __instancecheck__(cls, obj):
        return type.__getattribute__(cls, "_r_remote").__instancecheck__(obj)

    def __subclasscheck__(cls, sub):
        return type.__getattribute__(cls, "_r_remote").__subclasscheck__(sub)

    def __repr__(cls):
        return type.__getattribute__(cls, "_r_remote").__repr__()

    def __str__(cls):
        return type.__getattribute__(cls, "_r_remote").__str__()

    def __iter__(cls):
        return iter(type.__getattribute__(cls, "_r_remote"))

    def __len__(cls):
        return len(type.__getattribute__(cls, "_r_remote"))

    def __bool__(cls):
        return True

    def __getitem__(cls, key):
        return type.__getattribute__(cls, "_r_remote")[key]

    def __contains__(cls, item):
        return item in type.__getattribute__(cls, "_r_remote")

    def __dir__(cls):
        return dir(type.__getattribute__(cls, "_r_remote"))


def _test_subclass(mcs, name, bases, ns):
    """``class CountingStack(Stack):`` in the tests: the program makes a subclass of its classes
    whose methods the tests define call back into the tests (with the program's object as
    ``self``), and this class, holding the tests' own methods, is its proxy: instances live in the
    program, as ``Stack``'s do; ``super().push(x)`` reaches ``Stack.push`` through the functions
    the bases' proxies get for the program's methods (``__init__`` and the non-dunder ones)."""
    if not bases or not all(type(b) is RemoteClass for b in bases) or _JUDGE is None:
        raise TypeError("a class of the tests can subclass classes of the program, not both theirs and the program's")
    judge, enc = _JUDGE, _JUDGE.codec.enc
    methods = [[k, enc(v)] for k, v in ns.items() if type(k) is str and type(v) is _FUNCTION_TYPE]
    data = [[k, enc(v)] for k, v in ns.items() if type(k) is str and not k.startswith("__") and type(v) in _OPERANDS]
    reply = judge.call("subclass", 0, [str(name), [enc(b) for b in bases], methods, data])
    if type(reply) is not list or len(reply) != 2 or type(reply[0]) is not int or type(reply[1]) is not list:
        raise CandidateGone("malformed subclass reply")
    for entry in reply[1]:  # the program's methods, as functions of the bases' proxies (for super())
        if type(entry) is list and len(entry) == 3 and type(entry[0]) is int and 0 <= entry[0] < len(bases):
            base, method, fn = bases[entry[0]], entry[1], entry[2]
            plain = type(method) is str and method.isidentifier() and not method.startswith(("_r", "__"))
            if ((plain or method == "__init__") and method not in type.__dict__["__dict__"].__get__(base)
                    and isinstance(fn, Remote)):  # never a dunder the judge decides by (__eq__, __hash__)
                type.__setattr__(base, method, _program_method(method, fn))
    ns = dict(ns)
    ns.setdefault("__slots__", ())
    ns["_r_remote"] = Remote(reply[0], "class", str(name)[:100])
    cls = type.__new__(mcs, name, bases, ns)
    judge.codec.classes[reply[0]] = cls
    return cls


def _program_method(name, fn):
    """A program's method on its class's proxy: called with a candidate object as ``self``."""

    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = name
    return method


def _checked(value, kind, what):
    if type(value) is not kind:
        raise TypeError(f"{what} of a candidate object returned {type(value).__name__}, not {kind.__name__}")
    return value


class RemoteIter:
    """Iteration over a candidate iterator: one item per request (a generator never runs ahead of
    what the test took: ``islice(g, 5)`` then ``next(g)``), in growing batches (2, 4 ... 1024) only
    once a consumer that takes everything asked for its length hint (``list``, ``tuple``,
    ``sorted``, ``str.join``)."""

    def __init__(self, remote):
        self.remote, self.buf, self.done, self.batch, self.bulk = remote, [], False, 1, False

    def __iter__(self):
        return self

    def __length_hint__(self):
        self.bulk = True
        return len(self.buf)

    def __next__(self):
        if not self.buf:
            if self.done:
                raise StopIteration
            got = _JUDGE.call("nextn", self.remote._r_id, [self.batch])
            if type(got) is not list or len(got) != 2 or type(got[0]) is not list:
                raise CandidateGone("malformed iteration reply")
            if self.bulk:
                self.batch = min(self.batch * 2, 1024)
            self.buf, self.done = list(reversed(got[0])), got[1] is True
            if not self.buf:
                raise StopIteration
        return self.buf.pop()


class Record:
    """A dataclass instance from the candidate, as data: equal by class name and field values."""

    __slots__ = ("_cls", "_fields", "_origin", "_eq", "_order", "_skip", "__weakref__")

    def __init__(self, cls, fields, origin, eq="gen", order=None, skip=frozenset()):
        object.__setattr__(self, "_cls", cls)
        object.__setattr__(self, "_fields", tuple(fields))
        object.__setattr__(self, "_origin", origin)
        object.__setattr__(self, "_eq", eq)  # who defines __eq__ (code_judge._made_by)
        object.__setattr__(self, "_order", order)
        object.__setattr__(self, "_skip", skip)  # fields with compare=False

    def __getattr__(self, name):
        for k, v in self._fields:
            if k == name:
                return v
        if self._origin is not None and not name.startswith("__"):
            return getattr(self._origin, name)  # a method: asked of the original object
        raise AttributeError(name)

    def __setattr__(self, name, value):
        """Set on the program's object, by its own ``__setattr__`` (a frozen dataclass raises
        ``FrozenInstanceError``), then in this copy."""
        if self._origin is None:
            raise AttributeError("candidate records are read-only in the tests")
        setattr(self._origin, name, value)
        object.__setattr__(self, "_fields", tuple((k, value if k == name else v) for k, v in self._fields))

    @property
    def __dataclass_fields__(self):
        """The fields as ``dataclasses`` describes them, so ``fields``, ``asdict``, ``astuple`` and
        ``replace`` take the record as the dataclass instance it stands for."""
        found = _dataclass_fields(self._cls, tuple(k for k, _ in self._fields), self._skip)
        if found is None:
            raise AttributeError("__dataclass_fields__")
        return found

    @property
    def __class__(self):
        """The program's class (its proxy), as ``dataclasses.replace`` calls it; Record when none."""
        if self._origin is None:
            return Record
        cls = _JUDGE.call("getattr", self._origin._r_id, ["__class__"])
        return cls if isinstance(cls, RemoteClass) else Record

    def _key(self):
        return self._cls, tuple(kv for kv in self._fields if kv[0] not in self._skip)

    def _both_remote(self, other):
        """Two candidate records whose comparison is not the generated field-by-field one: the
        candidate's own (``eq=False`` is identity, a custom ``__eq__`` is the program's)."""
        return type(other) is Record and isinstance(self._origin, Remote) and isinstance(other._origin, Remote)

    def __eq__(self, other):
        if type(other) is Record:
            if (self._eq != "gen" or other._eq != "gen") and self._both_remote(other):
                return self._origin == other._origin
            if self._eq is None or other._eq is None:
                return self is other
            return self._key() == other._key()
        fields = getattr(type(other), "__dataclass_fields__", None)
        if fields is not None and type(other).__name__ == self._cls:
            return list(self._fields) == [(k, getattr(other, k)) for k in fields]
        return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        if self._eq != "gen" and isinstance(self._origin, Remote):
            return hash(self._origin)
        return hash(self._key())

    def _compare(self, other, op):
        if type(other) is not Record:
            return NotImplemented
        if self._order == "gen" and other._order == "gen" and self._cls == other._cls:
            mine, theirs = tuple(v for _, v in self._key()[1]), tuple(v for _, v in other._key()[1])
            return getattr(mine, op)(theirs)
        if (self._order or other._order) and self._both_remote(other):
            return getattr(self._origin, op)(other._origin)
        return NotImplemented

    def __lt__(self, other):
        return self._compare(other, "__lt__")

    def __le__(self, other):
        return self._compare(other, "__le__")

    def __gt__(self, other):
        return self._compare(other, "__gt__")

    def __ge__(self, other):
        return self._compare(other, "__ge__")

    def __repr__(self):
        return "{}({})".format(self._cls, ", ".join(f"{k}={v!r}" for k, v in self._fields))


_FIELD_SETS = {}  # (class name, field names, compare=False names) -> dataclasses' Field objects


def _dataclass_fields(name, names, skip):
    key = (name, names, skip)
    if key not in _FIELD_SETS:
        import dataclasses

        try:
            spec = [(k, object, dataclasses.field(compare=k not in skip)) for k in names]
            _FIELD_SETS[key] = dict(dataclasses.make_dataclass("_" + name, spec).__dataclass_fields__)
        except (TypeError, ValueError):  # field names a class could not have
            _FIELD_SETS[key] = None
    return _FIELD_SETS[key]


class EnumRecord:
    """An enum member from the candidate: equal by class and member name (and value for Int/StrEnum)."""

    __slots__ = ("_cls", "name", "value", "_mix", "_origin", "_flag", "__weakref__")

    def __init__(self, cls, name, value, mix, origin, flag=False):
        for k, v in (("_cls", cls), ("name", name), ("value", value), ("_mix", mix), ("_origin", origin),
                     ("_flag", flag)):  # fmt: skip
            object.__setattr__(self, k, v)

    def __eq__(self, other):
        if type(other) is EnumRecord:
            return (self._cls, self.name) == (other._cls, other.name)
        if self._mix is not None and type(other) in (int, float, str, bool):
            return self.value == other
        return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        return hash(self.value) if self._mix is not None else hash((self._cls, self.name))

    def __getattr__(self, name):
        if self._origin is not None and not name.startswith("__"):
            return getattr(self._origin, name)
        raise AttributeError(name)

    def __repr__(self):
        return f"<{self._cls}.{self.name}: {self.value!r}>"

    def __str__(self):
        if self._origin is not None and not _QUIET[0]:
            return _checked(self._origin._r("str"), str, "__str__")
        return f"{self._cls}.{self.name}"

    def __bool__(self):
        return bool(self.value) if self._plain() is not None or self._flag else True

    def _plain(self):
        """The member's value when it is an exact int, float or str of its mixin (IntEnum...)."""
        kind = {"int": int, "float": float, "str": str}.get(self._mix)
        return self.value if kind is not None and type(self.value) is kind else None


def _as_value(op):
    """An IntEnum/FloatEnum/StrEnum member orders and computes as its value, in the judge."""

    def method(self, *args):
        value = self._plain()
        fn = getattr(type(value), op, None) if value is not None else None
        if fn is None:
            return NotImplemented
        return fn(value, *[a._plain() if type(a) is EnumRecord and a._plain() is not None else a for a in args])

    method.__name__ = op
    return method


for _op in ("__lt__", "__le__", "__gt__", "__ge__", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
            "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__neg__",
            "__abs__", "__int__", "__float__", "__index__", "__and__", "__or__", "__xor__"):  # fmt: skip
    setattr(EnumRecord, _op, _as_value(_op))


def _flag_op(name):
    """``|``, ``&``, ``^`` of two members of the program's enums (a ``Flag``): computed by the
    program's own class, as in Python, when no value of a mixin decides it in the judge."""
    by_value = _as_value(f"__{name}__")

    def method(self, other):
        out = by_value(self, other)
        if out is not NotImplemented or self._origin is None or type(other) is not EnumRecord or other._origin is None:
            return out
        return self._origin._r("binop", [name, _JUDGE.codec.enc(other), False])

    method.__name__ = f"__{name}__"
    return method


for _op in ("and", "or", "xor"):
    setattr(EnumRecord, f"__{_op}__", _flag_op(_op))


def _member_op(name):
    """Membership, iteration and length of a member (a ``Flag``'s), asked of the program's
    member; a member that has none of them raises TypeError as in Python."""

    def method(self, *args):
        if self._origin is None:
            raise TypeError(f"{self._cls} member does not support {name}")
        return getattr(self._origin, name)(*args)

    method.__name__ = name
    return method


for _op in ("__contains__", "__iter__", "__len__"):
    setattr(EnumRecord, _op, _member_op(_op))


_VALUE_ORIGINS = {}  # id of a judge-side copy of a builtin subclass's instance -> (the copy, the program's object)


def _forwarded(name):
    """A method of the program's builtin subclass (``items``, ``__missing__``, its own ``total``),
    called on the program's object, as Python code calling it on the value would: the copy's
    storage (what ``==``, ``dict(v)``, ``len`` read) stays the base type's."""

    def method(self, *args, **kwargs):
        found = _VALUE_ORIGINS.get(id(self))
        if found is None or found[0] is not self:
            raise AttributeError(name)
        return getattr(found[1], name)(*args, **kwargs)

    method.__name__ = method.__qualname__ = name
    return method


_SUBCLASSABLE = frozenset((int, float, complex, str, bytes, bytearray, list, tuple, dict, set, frozenset))


class JudgeCodec(Codec):
    def __init__(self):
        super().__init__()
        self.refs, self.next_ref = {}, 1
        self.ref_ids = {}  # id() of a test object -> its reference (the same object, the same reference)
        self.proxies = {}  # handle id -> weakref of its Remote
        self.mirrors = {}  # candidate exception class name -> judge-side class
        self.enums = {}  # handle id of an enum member of the program -> its one EnumRecord
        self.subclasses = {}  # (builtin type, the program's class name) -> the judge's subclass (d_subclass)
        self.classes = {}  # handle id of a class of the program -> its proxy class (kept for the run)
        self.released = []  # handle ids whose Remote died (sent to the candidate in batches)
        self.shared = set()  # references of the tests' lists/dicts/sets passed to calls (tag): one object each
        self.targets, self.target_ids = {}, {}  # key of a program's container -> the judge's copy (kept)

    def tag(self, v):
        """A list, dict or set of the tests passed to a call goes as itself: the program's copy is
        this object (``kept`` syncs it back whenever it comes back or changes, ``CandidateServer.track``);
        a program's container the judge holds (``from solution import HISTORY``) goes as that one."""
        key = self.target_ids.get(id(v))
        if key is not None and self.targets.get(key) is v:
            return key
        rid = self.ref(v)
        self.shared.add(rid)
        return f"j{rid}"

    def kept(self, key, fresh):
        if type(key) is not str or key[:1] not in ("j", "c") or not key[1:].isdigit():
            raise ProtocolError("bad container key")
        target = self.refs.get(int(key[1:])) if key[0] == "j" else self.targets.get(key)
        if target is None:
            if key[0] == "c":  # a program's container, first seen: this copy is the judge's from now on
                self.targets[key], self.target_ids[id(fresh)] = fresh, key
            return fresh
        if type(target) is not type(fresh):
            return fresh
        _sync_into(target, fresh)
        return target

    def unshare(self, keys):
        """Containers the program no longer holds: their references are released."""
        for key in keys:
            rid = int(key[1:]) if type(key) is str and key[:1] == "j" and key[1:].isdigit() else None
            if rid in self.shared:
                self.shared.discard(rid)
                obj = self.refs.pop(rid, None)
                if self.ref_ids.get(id(obj)) == rid:
                    del self.ref_ids[id(obj)]

    def ref(self, v):
        rid = self.ref_ids.get(id(v))
        if rid is not None and self.refs.get(rid) is v:  # refs keep their objects alive: ids stay unique
            return rid
        rid, self.next_ref = self.next_ref, self.next_ref + 1
        self.refs[rid] = v
        self.ref_ids[id(v)] = rid
        return rid

    def enc_special(self, v, t, d):
        if issubclass(t, Remote):
            return {"$": "h", "id": v._r_id}
        remote = getattr(v, "_r_remote", None) if issubclass(t, type) else None
        if isinstance(remote, Remote):
            return {"$": "h", "id": remote._r_id}
        if t is Record or t is EnumRecord:
            if isinstance(v._origin, Remote):
                return {"$": "h", "id": v._origin._r_id}
            if t is Record:
                return {"$": "r", "c": v._cls, "f": [[k, self.enc(x, d)] for k, x in v._fields], "h": None}
            return {"$": "e", "c": v._cls, "n": v.name, "v": self.enc(v.value, d), "m": v._mix, "h": None,
                    "fl": v._flag}  # fmt: skip
        out = self.enc_common(v, t, d)
        if out is _NO_COPY:
            out = self.enc_record(v, t, d, lambda: None)
        if out is _NO_COPY:
            base = _base_value(v, t)
            out = self.enc(base, d - 1) if base is not _NO_COPY else self.enc_ref(v, t)
        return out

    def enc_ref(self, v, t):
        if isinstance(v, _INTERNALS):  # a frame leads to the test's globals, constants and callers
            raise TypeError(f"the tests' {t.__name__} objects are not passed to the candidate")
        module = getattr(v, "__module__", None) or getattr(getattr(v, "__objclass__", None), "__module__", None)
        qual = getattr(v, "__qualname__", None)
        if type(module) is str and type(qual) is str and module in sys.modules and module != "__main__":
            found = sys.modules[module]
            for part in qual.split("."):
                found = getattr(found, part, None)
            if found is v:
                return {"$": "g", "mod": module, "q": qual}
        kind = "iter" if hasattr(t, "__next__") else ("call" if callable(v) else "obj")
        return {"$": "j", "id": self.ref(v), "k": kind}

    def d_handle(self, obj):
        hid = self._int(obj["id"])
        cls = self.classes.get(hid)
        if cls is not None and obj.get("k") != "excclass":  # a class of the program: its proxy class
            return cls
        known = self.proxies.get(hid)
        proxy = known() if known is not None else None
        if proxy is None:
            if hid in self.released:
                self.released.remove(hid)
            name = self._str(obj, "n") if "n" in obj else "?"
            kind = obj.get("k", "object")
            if kind == "excclass" and name in self.mirrors and self.mirrors[name]._r_remote._r_id == hid:
                return self.mirrors[name]
            cls = _KIND_CLASSES.get(kind, Remote)
            if "cl" in obj and kind in ("object", "function", "class"):
                cls = self.proxy_class(obj["cl"])
                if kind == "class":
                    if self.classes.get(hid) is cls:
                        return cls
                    cls = Remote  # a class that is not the program's own (or a chain that does not end in it)
            proxy = object.__new__(cls)
            Remote.__init__(proxy, hid, kind if type(kind) is str else "object", name[:100])
            self.proxies[hid] = _weakref.ref(proxy)
        return proxy

    def proxy_class(self, chain):
        """The proxy class (a ``RemoteClass``) for the last class of ``chain`` (``CandidateCodec.chain``),
        made once per class handle, with the proxies of its own bases as bases."""
        if type(chain) is not list or not chain or len(chain) > 16:
            raise ProtocolError("bad class chain")
        cls = Remote
        for entry in chain:
            if type(entry) is not list or len(entry) != 3 or type(entry[0]) is not int or type(entry[1]) is not str \
                    or type(entry[2]) is not list:
                raise ProtocolError("bad class chain")
            hid, name, bases = entry
            cls = self.classes.get(hid)
            if cls is not None:
                continue
            parents = []
            for b in bases:
                parent = self.classes.get(b) if type(b) is int else None
                if parent is not None and parent not in parents:
                    parents.append(parent)
            ns = {"__slots__": (), "__module__": "__candidate__", "__doc__": Remote.__dict__["__doc__"],
                  "_r_remote": Remote(hid, "class", name[:100])}
            _MAKING_PROXY[0] = True
            try:
                try:
                    cls = RemoteClass(name, tuple(parents) or (Remote,), ns)
                except (TypeError, ValueError):  # bases whose order cannot be made, an odd name
                    cls = RemoteClass("?", (Remote,), ns)
            finally:
                _MAKING_PROXY[0] = False
            self.classes[hid] = cls
        return cls

    def d_judge(self, obj):
        try:
            return self.refs[self._int(obj["id"])]
        except KeyError:
            raise ProtocolError("unknown test object") from None

    def _origin(self, obj):
        return None if obj.get("h") is None else self.d_handle({"id": obj["h"], "n": self._str(obj, "c")})

    def d_enum(self, obj):
        mix = obj.get("m")
        if mix not in (None, "int", "str", "float"):
            raise ProtocolError("bad enum mixin")
        h = obj.get("h")
        if type(h) is int and h in self.enums:  # one member, one record: ``is`` holds as in Python
            return self.enums[h]
        name = obj["n"]
        if name is not None and type(name) is not str:  # Flag(0) and some composite members have no name
            raise ProtocolError("bad enum member name")
        record = EnumRecord(self._str(obj, "c"), name, obj["v"], mix, self._origin(obj), obj.get("fl") is True)
        if type(h) is int:
            self.enums[h] = record
        return record

    def d_namedtuple(self, obj):
        return namedtuple_class(self._str(obj, "c"), self._list(obj, "f"))(*self._list(obj))

    def d_record(self, obj):
        fields = self._pairs({"v": obj["f"]})
        if not all(type(k) is str for k, _ in fields):
            raise ProtocolError("bad record fields")
        modes = tuple(obj.get(k) for k in ("q", "o"))
        skip = obj.get("x") or []
        if not all(m in (None, "gen", "own") for m in modes) or type(skip) is not list:
            raise ProtocolError("bad record modes")
        return Record(self._str(obj, "c"), [tuple(kv) for kv in fields], self._origin(obj), *modes,
                      skip=frozenset(k for k in skip if type(k) is str))

    def d_subclass(self, obj):
        """A value of a subclass of a builtin type with its own attributes: an instance of a
        judge-side subclass of that type, named as the program's, holding the same attributes."""
        base, name, attrs = obj["v"], self._str(obj, "c"), self._pairs({"v": obj["a"]})
        kind = type(base)
        methods = tuple(self._list(obj, "m")) if "m" in obj else ()
        if (kind not in _SUBCLASSABLE or not all(type(k) is str for k, _ in attrs)
                or not all(type(m) is str and m.isidentifier() for m in methods)):  # fmt: skip
            raise ProtocolError("bad subclass value")
        cls = self.subclasses.get((kind, name, methods))
        if cls is None:
            ns = {"__module__": "__candidate__"}
            ns.update((m, _forwarded(m)) for m in methods)
            cls = self.subclasses[(kind, name, methods)] = type(kind)(name, (kind,), ns)
        inst = cls(base)
        inst.__dict__.update(attrs)
        if methods:  # the program's object, whose methods the copy's forward to
            _VALUE_ORIGINS[id(inst)] = (inst, self.d_handle({"id": obj["h"], "n": name}))
        return inst

    _TAGS = dict(Codec._TAGS, h=d_handle, j=d_judge, e=d_enum, n=d_namedtuple, r=d_record, B=d_subclass)
