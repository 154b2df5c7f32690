"""The judge's codec in-process: what the candidate side sends, and what the judge accepts.

The candidate's encoder is only a convenience (a hostile candidate writes any bytes it
likes); what matters is the judge's decoder: it builds judge-side values only, and refuses
anything else with ProtocolError.
"""

from __future__ import annotations

import collections
import dataclasses
import enum
import math
import sys
from decimal import Decimal
from fractions import Fraction

import pytest

from rlvr.verifiers import code_judge as cj


@pytest.fixture(autouse=True)
def no_digit_limit():
    """The sandbox's judge and candidate lift the int-to-str digit limit; so does this test."""
    old = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else None
    if old is not None:
        sys.set_int_max_str_digits(0)
    yield
    if old is not None:
        sys.set_int_max_str_digits(old)


def through(value, env=None):
    """Encode as the candidate does, decode as the judge does."""
    text = cj.dumps(cj.CandidateCodec(env or {}).enc(value))
    return cj.JudgeCodec().loads(text)


@pytest.mark.parametrize("value", [
    0, -(2**200), 10**5000, 1.5, -0.0, math.inf, "x\udcff\n", b"\x00\xff", bytearray(b"ab"), None, True, False,
    2 + 3j, [1, (2, "a")], {"k": [1, {2, 3}]}, {(1, 2): "t", 3: None}, frozenset({1}), range(1, 9, 2), int, type(None),
    Fraction(1, 3), Decimal("1.10"), collections.Counter("abca"), collections.OrderedDict(a=1),
    collections.deque([1, 2], maxlen=3), list(range(250_000)), [[k, str(k)] for k in range(1000)],
], ids=lambda v: type(v).__name__)  # fmt: skip
def test_plain_values_round_trip_exactly(value):
    back = through(value)
    assert back == value and type(back) is type(value)
    if isinstance(value, collections.deque):
        assert back.maxlen == value.maxlen


def test_nan_and_defaultdict():
    assert math.isnan(through(math.nan))
    d = collections.defaultdict(list, {1: [2]})
    back = through(d)
    assert type(back) is collections.defaultdict and back.default_factory is list and back == d


class LyingInt(int):
    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


class LyingStr(str):
    def __eq__(self, other):
        return True

    def startswith(self, *a):
        return True

    __hash__ = str.__hash__


def test_builtin_subclasses_cross_as_their_real_value():
    assert through(LyingInt(0)) == 0 and type(through(LyingInt(0))) is int
    assert through(LyingInt(0)) != 3
    back = through(LyingStr("nope"))
    assert type(back) is str and not back.startswith("Hello") and back != "Hello"


class Any:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


def test_other_objects_stay_remote_with_identity_equality():
    back = through(Any())
    assert type(back) is cj.Remote
    assert back != 3 and not (back == 3) and back == back  # against a value: identity, never its __eq__
    with pytest.raises(TypeError):
        back < 3  # noqa: B015 - no ordering against a value (two candidate objects: the candidate's)
    with pytest.raises(TypeError):
        back + object()  # noqa: B015 - no arithmetic with an object that does not cross as data
    assert [back] != [3]


@dataclasses.dataclass
class Point:
    x: int
    y: int


Pair = collections.namedtuple("Pair", "a b")


class Color(enum.Enum):
    RED = 1


class Num(enum.IntEnum):
    ONE = 1


def test_records_compare_by_value_with_the_judges_own_equality():
    p = through(Point(1, 2))
    assert type(p) is cj.Record and p == through(Point(1, 2)) and p != through(Point(2, 1))
    assert (p.x, p.y) == (1, 2) and p == Point(1, 2)
    pair = through(Pair(1, 2))
    assert pair == (1, 2) and pair.b == 2
    red = through(Color.RED)
    assert red == through(Color.RED) and red != 1 and red.name == "RED"
    assert through(Num.ONE) == 1  # an IntEnum is equal to its value, as in Python


BAD_MESSAGES = [
    '{"k": 1}',  # a plain object: every JSON object must be a tagged value
    '{"$": "zz", "v": 1}',  # unknown tag
    '{"$": "T", "v": "print"}',  # not a builtin type
    '{"$": "m", "v": "yaml"}',  # not a standard-library module (of the others, numpy alone: code.PACKAGES)
    '{"$": "m", "v": "_testcapi"}',  # nor a private one
    '{"$": "m", "v": "antigravity"}',  # nor one whose import does something
    '{"$": "d", "v": [[[1], 2]]}',  # unhashable key
    '{"$": "j", "id": 99}',  # a test object that does not exist
    '{"$": "g", "mod": "os", "q": "system"}',  # no global references from the candidate
    '{"$": "n", "c": "P", "f": ["_x"], "v": [1]}',  # invalid field name
    '["r", 1',  # truncated
    '[1] [2]',  # trailing data
    "[" * 100000 + "]" * 100000,  # nested too deeply
]


@pytest.mark.parametrize("text", BAD_MESSAGES)
def test_the_judge_refuses_what_the_protocol_does_not_allow(text):
    with pytest.raises(cj.ProtocolError):
        cj.JudgeCodec().loads(text)


def test_exceptions_come_back_as_builtin_types_never_as_exits():
    judge = cj.Judge.__new__(cj.Judge)
    judge.codec = cj.JudgeCodec()
    assert type(judge.exception(["ValueError", "bad", ["ValueError", "Exception"], "ValueError"], False)) is ValueError
    sub = judge.exception(["MyErr", "m", ["ZeroDivisionError", "ArithmeticError", "Exception"], "MyErr"], False)
    assert type(sub) is ZeroDivisionError and str(sub) == "m"
    # StopIteration: RuntimeError from a call, unless the tests name StopIteration (then as Python raises it)
    judge.stop_named = False
    assert type(judge.exception(["StopIteration", "", ["StopIteration"], "StopIteration"], False)) is RuntimeError
    assert type(judge.exception(["StopIteration", "", ["StopIteration"], "StopIteration"], True)) is StopIteration
    judge.stop_named = True
    stop = judge.exception(["StopIteration", "7", ["StopIteration"], "StopIteration", [7]], False)
    assert type(stop) is StopIteration and stop.value == 7
    # a program's class named ValueError that does not derive from it comes back as its real base
    fake = judge.exception(["ValueError", "bad", ["Exception", "BaseException"], "ValueError"], False)
    assert type(fake) is Exception and str(fake) == "bad"
    # SystemExit: a subclass that pytest.raises(SystemExit) catches, with its code
    exit_ = judge.exception(["SystemExit", "2", ["SystemExit", "BaseException"], "SystemExit", [2]], False)
    assert type(exit_) is cj.CandidateSystemExit and isinstance(exit_, SystemExit) and exit_.code == 2
    for name in ("KeyboardInterrupt", "GeneratorExit"):
        assert type(judge.exception([name, "0", [name, "BaseException"], name], False)) is cj.CandidateExit
    assert type(judge.exception("junk", False)) is RuntimeError


def test_mutated_arguments_are_synced_in_place():
    grid = [[0, 0], [0, 0]]
    row = grid[0]
    cj._sync_into(grid, [[1, 0], [1, 0]])
    assert grid == [[1, 0], [1, 0]] and grid[0] is row
    d = {"a": [1], "b": 2}
    cj._sync_into(d, {"a": [1, 2], "c": 3})
    assert d == {"a": [1, 2], "c": 3}


@pytest.mark.parametrize("src,batched", [
    ("assert sum(inc(i) for i in range(9)) == 45", True),
    ("xs = [f(x, 2) for x in data]", True),
    ("assert sorted(f(i) for i in r) == [1]", True),
    ("assert any(f(i) for i in r)", False),  # stops early: one call per item
    ("assert all(f(i) for i in r)", False),
    ("g = (f(i) for i in r)", False),  # kept and taken lazily
    ("xs = [f(i) for i in r if i]", False),
    ("xs = [f(i + 1) for i in r]", False),
    ("xs = [f(i, key=1) for i in r]", False),
    ("xs = [f(i) for i in r for j in r]", False),
    ("xs = [i(i) for i in r]", False),
    ("assert sum((f(i) for i in r), 0) == 0", False),
])
def test_comprehensions_batched_are_those_consumed_whole(src, batched):
    import ast

    text = ast.unparse(cj._batched(ast.parse(src)))
    assert ("_rlvr_calls" in text) is batched, text
    compile(cj._batched(ast.parse(src)), "<test>", "exec")


def test_proxy_classes_mirror_the_programs_classes():
    codec = cj.JudgeCodec()
    chain = [[5, "Shape", []], [6, "Square", [5]]]
    obj = codec.loads(cj.dumps({"$": "h", "id": 9, "n": "Square", "k": "object", "cl": chain}))
    square, shape = codec.classes[6], codec.classes[5]
    assert type(obj) is square and square.__name__ == "Square" and shape in square.__mro__
    assert isinstance(obj, cj.Remote) and obj == obj and obj != square
    assert codec.loads(cj.dumps({"$": "h", "id": 6, "n": "Square", "k": "class", "cl": chain})) is square
    gen = codec.loads(cj.dumps({"$": "h", "id": 10, "n": "generator", "k": "generator"}))
    import types

    assert isinstance(gen, types.GeneratorType) and type(gen).__name__ == "generator"
    with pytest.raises(TypeError):  # a test class cannot mix the program's classes and others as bases
        type("Mine", (square, dict), {})
    for bad in ([[5, "A", "x"]], [[5, 6, []]], "chain", [[5, "A", []]] * 17):
        with pytest.raises(cj.ProtocolError):
            codec.loads(cj.dumps({"$": "h", "id": 11, "n": "A", "k": "object", "cl": bad}))


def test_numpy_values_cross_as_arrays_and_malformed_ones_are_refused():
    np = pytest.importorskip("numpy")
    back = through(np.arange(6, dtype=np.int32).reshape(2, 3))
    assert type(back) is np.ndarray and back.dtype == np.int32 and back.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert back.flags.writeable
    scalar = through(np.float32(1.5))
    assert type(scalar) is np.float32 and scalar == 1.5
    assert through(np.dtype("int16")) == np.int16 and through(np.dtype(object)) == np.dtype(object)
    assert type(through(np.array([{}], dtype=object))) is cj.Remote  # object arrays stay handles
    for bad in ({"$": "np", "t": "|O8", "s": [1], "v": "00" * 8},  # an object dtype
                {"$": "np", "t": "<i4", "s": [3], "v": "00" * 8},  # data shorter than its shape
                {"$": "np", "t": "<i4", "s": None, "v": "00" * 8},  # a scalar of two items
                {"$": "np", "t": "<i4", "s": [-1], "v": ""}):  # fmt: skip
        with pytest.raises(cj.ProtocolError):
            cj.JudgeCodec().loads(cj.dumps(bad))


def test_a_test_container_passed_twice_comes_back_as_itself():
    judge = cj.JudgeCodec()
    mine = {"n": 1}
    judge.tagging = True
    sent = judge.enc([mine, mine])
    judge.tagging = False
    key = sent["v"][0]["o"]
    assert sent["v"][1]["o"] == key
    back = judge.loads(cj.dumps({"$": "d", "v": [["n", 9]], "o": key}))
    assert back is mine and mine == {"n": 9}  # the program's change, in the test's own object
    with pytest.raises(cj.ProtocolError):
        judge.loads(cj.dumps({"$": "d", "v": [], "o": "x1"}))
