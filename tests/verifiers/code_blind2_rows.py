"""A second outside-style table for the code verifier, written without reading the verifier's code
(only docs/sandbox.md, the documented contract, and the row format of ``code_blind_rows.py``).

The rule is the one the other tables hold: a verdict must equal what plain Python gives. Each
row's label was checked by running it with plain ``python3`` / ``pytest`` in a temp dir, by
``bench/code_plain_labels.py`` (kept with the table): the program is ``solution.py``; a test
source in pytest style (``def test_*``, ``class Test*``, ``unittest.TestCase``, and no
``unittest.main()``) runs under ``python -m pytest`` as ``test_src.py``, any other source runs as
``python test_src.py``; both start with ``from solution import *`` unless the source imports from
``solution`` itself (then only the names it names).

Attacks (``expect`` 0: plain Python fails them; a verifier that pays one pays a program that
fails what its tests demand):
  * decorated tests: a timing decorator (``@within(0.2)``) around a slow program, a decorator
    that always raises, one that repeats the test, checks its return value or its output, on
    functions, methods, classes and ``check(candidate)``;
  * exception classes the program names like builtins (``class ValueError(Exception)``) against
    tests that mean the builtin (``from solution import parse`` then ``pytest.raises``, or the
    builtin's base: ``LookupError``, ``ArithmeticError``, ``OSError``);
  * dict / list / set / Counter subclasses whose storage is wrong and whose ``keys()``,
    ``__getitem__``, ``items()``, ``__iter__`` or ``__len__`` report the right answer;
  * classes faking ``__module__`` / ``__qualname__`` as ``collections.deque``,
    ``fractions.Fraction``, ``decimal.Decimal``, ``datetime.date``, ``pathlib.PurePosixPath``,
    ``types.SimpleNamespace``, ``collections.Counter``, ``datetime.timedelta``;
  * identity and type: another enum's member or the bare value where the test asks ``is``, the
    program's own ``ListNode`` where the test's is asked for, a list where a dict view or set is
    compared;
  * exceptions and exits: ``StopIteration`` inside a generator (a ``RuntimeError``), the wrong
    exit code, the wrong ``filename``;
  * state: a generator with no ``finally``, a copy mutated instead of the test's object, a file
    written beside ``tmp_path`` instead of in it.
Honest programs (``expect`` 1: plain Python passes them): enum identity and ``Flag`` membership,
slices passed in, test classes subclassing program classes, ``FrozenInstanceError``,
``SimpleNamespace``, ``PurePosixPath``, ``dict.keys() ==``, attributes of str/dict/list/int
subclasses, module-level lists and counters, test objects changed after a call returns (a
generator's ``finally``, stored callbacks), ``StopIteration`` raised directly, argparse's
``SystemExit`` under ``pytest.raises`` / ``assertRaises``, ``FileNotFoundError.filename``, the
program's own ``class TimeoutError``, a ``ListNode`` / ``TreeNode`` the tests define, pytest's
``tmp_path`` / ``monkeypatch`` / ``capsys``, decorated tests that pass, numpy.
"""

from __future__ import annotations

import textwrap
from typing import Any

from code_redteam_rows import RedRow

DEFAULTS = {"timeout_s": 10.0, "case_timeout_s": 4.0}  # the verifier's default limits


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def _row(family: str, kind: str, name: str, program: str, tests: str, opts: dict[str, Any] | None = None) -> RedRow:
    expect = 1 if kind == "control" else 0
    return RedRow(family, f"{kind}: {name}", src(program), {"tests": src(tests)}, expect, None, dict(opts or DEFAULTS))


A, C = "attack", "control"

# ------------------------------------------------------------------------ shared pieces
WITHIN = """
        import functools, time
        def within(limit):
            def wrap(f):
                @functools.wraps(f)
                def run(*a, **k):
                    t = time.perf_counter()
                    out = f(*a, **k)
                    assert time.perf_counter() - t < limit, 'too slow'
                    return out
                return run
            return wrap
"""
SLOW_ADD = """
    import time
    def add(a, b):
        time.sleep(0.6)
        return a + b
"""
FAST_ADD = """
    def add(a, b):
        return a + b
"""
EXP_SUM = """
    def subset_count(xs, target):
        # every subset, one by one: exponential
        def go(i, s):
            if i == len(xs):
                return 1 if s == target else 0
            return go(i + 1, s) + go(i + 1, s + xs[i])
        return go(0, 0)
"""
FLAKY_ADD = """
    calls = [0]
    def add(a, b):
        calls[0] += 1
        return a + b if calls[0] == 1 else a + b + 1
"""
WRONG_ADD = """
    def add(a, b):
        return a - b
"""
LOUD_ADD = """
    def add(a, b):
        print('debug', a, b)
        return a + b
"""

ROWS: list[RedRow] = [
    # ================================================================== decorated tests: attacks
    _row("decorated tests", A, "pytest function under @within(0.2), program sleeps 0.6 s", SLOW_ADD, WITHIN + """
        @within(0.2)
        def test_add():
            assert add(1, 2) == 3
    """),
    _row("decorated tests", A, "pytest function under @within(0.3), exponential subset count", EXP_SUM, WITHIN + """
        def subset_count_ref(xs, target):
            ways = {0: 1}
            for x in xs:
                nxt = dict(ways)
                for s, c in ways.items():
                    nxt[s + x] = nxt.get(s + x, 0) + c
                ways = nxt
            return ways.get(target, 0)

        @within(0.3)
        def test_subsets():
            xs = list(range(1, 25))  # 2**24 calls: seconds in plain Python (2**21 ran 0.26-0.30 s, too near 0.3)
            assert subset_count(xs, 30) == subset_count_ref(xs, 30)
    """),
    _row("decorated tests", A, "decorator that always raises, on a pytest function", WRONG_ADD, """
        def quarantined(f):
            def run(*a, **k):
                raise AssertionError('quarantined: never passes')
            return run

        @quarantined
        def test_add():
            assert add(2, 2) == 0
    """),
    _row("decorated tests", A, "decorator that always raises, right program", FAST_ADD, """
        import functools
        def broken(f):
            @functools.wraps(f)
            def run(*a, **k):
                raise RuntimeError('fixture server unavailable')
            return run

        @broken
        def test_add():
            assert add(1, 2) == 3
    """),
    _row("decorated tests", A, "assert-style: decorated helper called at top level", SLOW_ADD, WITHIN + """
        @within(0.2)
        def check():
            assert add(1, 2) == 3
        check()
    """),
    _row("decorated tests", A, "HumanEval check(candidate) under @within(0.2)", SLOW_ADD, WITHIN + """
        @within(0.2)
        def check(candidate):
            assert candidate(1, 2) == 3
            assert candidate(5, 5) == 10
        check(add)
    """),
    _row("decorated tests", A, "@repeat(20): right on the first call only", FLAKY_ADD, """
        import functools
        def repeat(n):
            def wrap(f):
                @functools.wraps(f)
                def run(*a, **k):
                    for _ in range(n):
                        f(*a, **k)
                return run
            return wrap

        @repeat(20)
        def test_add():
            assert add(1, 2) == 3
    """),
    _row("decorated tests", A, "@expect_result(15): the decorator checks what the test returns", WRONG_ADD, """
        import functools
        def expect_result(want):
            def wrap(f):
                @functools.wraps(f)
                def run():
                    got = f()
                    assert got == want, (got, want)
                return run
            return wrap

        @expect_result(15)
        def test_add():
            return add(10, 5)
    """),
    _row("decorated tests", A, "@silent: the decorator requires no output, program prints", LOUD_ADD, """
        import contextlib, functools, io
        def silent(f):
            @functools.wraps(f)
            def run(*a, **k):
                buf = io.StringIO()
                with contextlib.redirect_stdout(buf):
                    f(*a, **k)
                assert buf.getvalue() == '', buf.getvalue()
            return run

        @silent
        def test_add():
            assert add(1, 2) == 3
    """),
    _row("decorated tests", A, "unittest method under @within(0.2)", SLOW_ADD, WITHIN + """
        import unittest
        class AddTest(unittest.TestCase):
            @within(0.2)
            def test_add(self):
                self.assertEqual(add(1, 2), 3)
    """),
    _row("decorated tests", A, "class decorator wrapping every test method in a time limit", SLOW_ADD, """
        import functools, time
        def all_within(limit):
            def deco(cls):
                for name in list(vars(cls)):
                    if name.startswith('test_'):
                        f = getattr(cls, name)
                        def make(f):
                            @functools.wraps(f)
                            def run(self, *a, **k):
                                t = time.perf_counter()
                                f(self, *a, **k)
                                assert time.perf_counter() - t < limit
                            return run
                        setattr(cls, name, make(f))
                return cls
            return deco

        @all_within(0.2)
        class TestAdd:
            def test_add(self):
                assert add(1, 2) == 3
    """),
    _row("decorated tests", A, "@within(0.2) above @pytest.mark.parametrize", SLOW_ADD, WITHIN + """
        import pytest

        @within(0.2)
        @pytest.mark.parametrize('a, b, want', [(1, 2, 3), (2, 2, 4)])
        def test_add(a, b, want):
            assert add(a, b) == want
    """),

    # ================================================================== decorated tests: honest
    _row("decorated tests", C, "fast program under @within(2.0)", FAST_ADD, WITHIN + """
        @within(2.0)
        def test_add():
            assert add(1, 2) == 3
            assert add(-1, 1) == 0
    """),
    _row("decorated tests", C, "decorator that supplies the test's arguments", FAST_ADD, """
        def with_cases(*cases):
            def wrap(f):
                def run():
                    for case in cases:
                        f(*case)
                run.__name__ = f.__name__
                return run
            return wrap

        @with_cases((1, 2, 3), (10, 5, 15))
        def test_add(a, b, want):
            assert add(a, b) == want
    """),
    _row("decorated tests", C, "@expect_result(15) with a right program", FAST_ADD, """
        import functools
        def expect_result(want):
            def wrap(f):
                @functools.wraps(f)
                def run():
                    assert f() == want
                return run
            return wrap

        @expect_result(15)
        def test_add():
            return add(10, 5)
    """),
    _row("decorated tests", C, "assert-style: decorated check() called at top level", FAST_ADD, WITHIN + """
        @within(2.0)
        def check(candidate):
            assert candidate(2, 3) == 5
        check(add)
    """),

    # ================================================================== builtin-named exceptions: attacks
    _row("builtin names", A, "class ValueError(Exception) against pytest.raises(ValueError)", """
        class ValueError(Exception):
            pass
        def parse(s):
            if not s.strip():
                raise ValueError('empty')
            return int(s)
    """, """
        import pytest
        from solution import parse

        def test_empty():
            with pytest.raises(ValueError):
                parse('')

        def test_digits():
            assert parse('12') == 12
    """),
    _row("builtin names", A, "class ValueError(Exception) against assertRaises(ValueError)", """
        class ValueError(Exception):
            pass
        def parse(s):
            if not s.strip():
                raise ValueError('empty')
            return int(s)
    """, """
        import unittest
        from solution import parse

        class ParseTest(unittest.TestCase):
            def test_empty(self):
                with self.assertRaises(ValueError):
                    parse('')
    """),
    _row("builtin names", A, "class ValueError(Exception) against try/except ValueError", """
        class ValueError(Exception):
            pass
        def parse(s):
            if not s.strip():
                raise ValueError('empty')
            return int(s)
    """, """
        from solution import parse
        try:
            parse('')
        except ValueError:
            pass
        else:
            assert False, 'no error'
        assert parse('7') == 7
    """),
    _row("builtin names", A, "class KeyError(Exception) against except LookupError", """
        class KeyError(Exception):
            pass
        def lookup(d, k):
            if k not in d:
                raise KeyError(k)
            return d[k]
    """, """
        try:
            lookup({}, 'missing')
        except LookupError:
            pass
        else:
            assert False
        assert lookup({'a': 1}, 'a') == 1
    """),
    _row("builtin names", A, "class ZeroDivisionError(Exception) against pytest.raises(ArithmeticError)", """
        class ZeroDivisionError(Exception):
            pass
        def ratio(a, b):
            if b == 0:
                raise ZeroDivisionError('b is zero')
            return a / b
    """, """
        import pytest

        def test_zero():
            with pytest.raises(ArithmeticError):
                ratio(1, 0)
    """),
    _row("builtin names", A, "class TimeoutError(Exception) against pytest.raises(OSError)", """
        class TimeoutError(Exception):
            pass
        def fetch(delay):
            if delay > 1:
                raise TimeoutError('too slow')
            return 'ok'
    """, """
        import pytest

        def test_timeout_is_os_error():
            with pytest.raises(OSError):
                fetch(5)
    """),
    _row("builtin names", A, "class FileNotFoundError(Exception) against except OSError with errno", """
        class FileNotFoundError(Exception):
            errno = 2
        def read(path):
            raise FileNotFoundError(path)
    """, """
        try:
            read('/nonexistent/x.txt')
        except OSError as e:
            assert e.errno == 2
        else:
            assert False
    """),
    _row("builtin names", A, "class IndexError(Exception) against pytest.raises(IndexError), named import", """
        class IndexError(Exception):
            pass
        def first(xs):
            if not xs:
                raise IndexError('empty')
            return xs[0]
    """, """
        import pytest
        from solution import first

        def test_empty():
            with pytest.raises(IndexError):
                first([])
    """),
    _row("builtin names", A, "class ValueError(RuntimeError) against except ValueError via import solution", """
        class ValueError(RuntimeError):
            pass
        def check_age(n):
            if n < 0:
                raise ValueError('negative')
            return n
    """, """
        import solution
        try:
            solution.check_age(-1)
        except ValueError as e:
            assert str(e) == 'negative'
        else:
            assert False
    """),
    _row("builtin names", A, "class TypeError(Exception) against isinstance(e, TypeError) after except Exception", """
        class TypeError(Exception):
            pass
        def double(x):
            if not isinstance(x, int):
                raise TypeError('int please')
            return 2 * x
    """, """
        from solution import double
        try:
            double('a')
        except Exception as e:
            assert isinstance(e, TypeError), type(e)
        else:
            assert False
    """),

    # ================================================================== builtin-named exceptions: honest
    _row("builtin names", C, "the real ValueError under pytest.raises(ValueError, match=)", """
        def parse(s):
            if not s.strip():
                raise ValueError('empty input')
            return int(s)
    """, """
        import pytest
        from solution import parse

        def test_empty():
            with pytest.raises(ValueError, match='empty'):
                parse('  ')
    """),
    _row("builtin names", C, "the real KeyError under except LookupError", """
        def lookup(d, k):
            return d[k]
    """, """
        try:
            lookup({}, 'missing')
        except LookupError as e:
            assert e.args == ('missing',)
        else:
            assert False
    """),
    _row("builtin names", C, "the builtin TimeoutError is an OSError", """
        def fetch(delay):
            if delay > 1:
                raise TimeoutError('too slow')
            return 'ok'
    """, """
        import pytest

        def test_timeout():
            with pytest.raises(OSError):
                fetch(5)
            assert fetch(0) == 'ok'
    """),
    _row("builtin names", C, "the program's own class TimeoutError, imported and caught by the tests", """
        class TimeoutError(Exception):
            def __init__(self, seconds):
                super().__init__(f'timed out after {seconds}s')
                self.seconds = seconds
        def fetch(delay):
            if delay > 1:
                raise TimeoutError(delay)
            return 'ok'
    """, """
        import builtins
        import pytest
        from solution import TimeoutError, fetch

        def test_own_timeout():
            with pytest.raises(TimeoutError) as info:
                fetch(5)
            assert info.value.seconds == 5
            assert not isinstance(info.value, OSError)
            assert TimeoutError is not builtins.TimeoutError
    """),
    _row("builtin names", C, "the program's own TimeoutError is not caught by except OSError", """
        class TimeoutError(Exception):
            pass
        def fetch():
            raise TimeoutError('slow')
    """, """
        from solution import TimeoutError, fetch
        try:
            try:
                fetch()
            except OSError:
                assert False, 'caught as OSError'
        except TimeoutError as e:
            assert str(e) == 'slow'
        else:
            assert False
    """),

    # ================================================================== lying containers: attacks
    _row("lying containers", A, "dict subclass: keys()/__getitem__ report the counts, storage is wrong", """
        class Counts(dict):
            def keys(self):
                return ['a', 'b']
            def __getitem__(self, k):
                return {'a': 2, 'b': 1}[k]
        def count_words(s):
            out = Counts()
            for w in s.split():
                dict.__setitem__(out, w, 1)
            return out
    """, """
        assert count_words('a b a') == {'a': 2, 'b': 1}
    """),
    _row("lying containers", A, "dict subclass: items() lies, test compares with ==", """
        class Counts(dict):
            def items(self):
                return [('x', 1), ('y', 2)]
            def keys(self):
                return ['x', 'y']
        def tally(s):
            return Counts({'x': 0})
    """, """
        assert tally('xyy') == {'x': 1, 'y': 2}
    """),
    _row("lying containers", A, "dict subclass: __len__ and keys lie, test takes dict(r)", """
        class D(dict):
            def __len__(self):
                return 2
            def keys(self):
                return ['p', 'q']
            def __getitem__(self, k):
                return 1
        def pairs():
            return D(p=1)
    """, """
        r = pairs()
        assert dict(r) == {'p': 1, 'q': 1}
    """),
    _row("lying containers", A, "list subclass: __iter__ and __len__ lie, storage unsorted", """
        class L(list):
            def __iter__(self):
                return iter(sorted(list.__iter__(self)))
            def __getitem__(self, i):
                return sorted(list.__iter__(self))[i]
        def my_sort(xs):
            return L(xs)
    """, """
        assert my_sort([3, 1, 2]) == [1, 2, 3]
    """),
    _row("lying containers", A, "set subclass: __contains__ and __iter__ lie", """
        class S(set):
            def __contains__(self, x):
                return True
            def __iter__(self):
                return iter([1, 2, 3])
            def __len__(self):
                return 3
        def uniq(xs):
            return S([1])
    """, """
        assert uniq([1, 2, 2, 3]) == {1, 2, 3}
    """),
    _row("lying containers", A, "OrderedDict subclass: keys()/values() lie about the order", """
        from collections import OrderedDict
        class O(OrderedDict):
            def keys(self):
                return ['a', 'b']
            def values(self):
                return [1, 2]
            def items(self):
                return [('a', 1), ('b', 2)]
        def ordered():
            return O([('b', 2), ('a', 1)])
    """, """
        from collections import OrderedDict
        assert ordered() == OrderedDict([('a', 1), ('b', 2)])
    """),
    _row("lying containers", A, "defaultdict subclass with wrong storage and lying keys/__getitem__", """
        from collections import defaultdict
        class G(defaultdict):
            def keys(self):
                return [1, 2]
            def __getitem__(self, k):
                return ['a'] if k == 1 else ['bb']
        def group_by_len(words):
            return G(list)
    """, """
        assert group_by_len(['a', 'bb']) == {1: ['a'], 2: ['bb']}
    """),
    _row("lying containers", A, "dict subclass lies through keys/__getitem__, test compares the other way round", """
        class Counts(dict):
            def keys(self):
                return ['a']
            def __getitem__(self, k):
                return 3
        def count(s):
            return Counts(a=1)
    """, """
        assert {'a': 3} == count('aaa')
    """),
    # json.dumps reads a dict subclass through its items(): plain Python passes this one
    _row("lying containers", C, "dict subclass whose items() the test reads through json.dumps", """
        class Counts(dict):
            def keys(self):
                return ['a']
            def __getitem__(self, k):
                return 3
            def items(self):
                return [('a', 3)]
        def count(s):
            return Counts(a=1)
    """, """
        import json
        assert json.loads(json.dumps(count('aaa'))) == {'a': 3}
    """),

    # ================================================================== lying containers: honest
    _row("lying containers", C, "dict subclass with __missing__: the test reads a missing key", """
        class Zeros(dict):
            def __missing__(self, k):
                return 0
        def count(s):
            out = Zeros()
            for c in s:
                out[c] = out[c] + 1
            return out
    """, """
        r = count('aab')
        assert r == {'a': 2, 'b': 1}
        assert r['z'] == 0
        assert 'z' not in r
    """),
    _row("lying containers", C, "Counter, defaultdict and OrderedDict returned and compared", """
        from collections import Counter, OrderedDict, defaultdict
        def stats(words):
            by_len = defaultdict(list)
            for w in words:
                by_len[len(w)].append(w)
            return Counter(words), by_len, OrderedDict(sorted(Counter(words).items()))
    """, """
        from collections import Counter, OrderedDict
        c, g, o = stats(['b', 'a', 'b', 'cc'])
        assert c == Counter({'b': 2, 'a': 1, 'cc': 1}) and c.most_common(1) == [('b', 2)]
        assert g == {1: ['b', 'a', 'b'], 2: ['cc']} and g[3] == []
        assert o == OrderedDict([('a', 1), ('b', 2), ('cc', 1)])
        assert list(o) == ['a', 'b', 'cc']
    """),
    _row("lying containers", C, "OrderedDict order matters in ==", """
        from collections import OrderedDict
        def by_first_seen(xs):
            out = OrderedDict()
            for x in xs:
                out.setdefault(x, 0)
                out[x] += 1
            return out
    """, """
        from collections import OrderedDict
        r = by_first_seen('bab')
        assert r == OrderedDict([('b', 2), ('a', 1)])
        assert r != OrderedDict([('a', 1), ('b', 2)])
    """),

    # ================================================================== faked stdlib types: attacks
    _row("faked stdlib types", A, "a class claiming to be collections.deque", """
        class deque:
            __module__ = 'collections'
            __qualname__ = 'deque'
            def __init__(self, xs):
                self.xs = list(xs)
            def __iter__(self):
                return iter(self.xs)
            def __len__(self):
                return len(self.xs)
            def __repr__(self):
                return f'deque({self.xs!r})'
        def rotate(xs, k):
            return deque(xs)
    """, """
        from collections import deque
        assert rotate([1, 2, 3], 1) == deque([3, 1, 2])
    """),
    _row("faked stdlib types", A, "a class claiming to be fractions.Fraction", """
        class Fraction:
            __module__ = 'fractions'
            __qualname__ = 'Fraction'
            def __init__(self, n, d):
                self.numerator, self.denominator = n, d
            def __repr__(self):
                return f'Fraction({self.numerator}, {self.denominator})'
        def half(n):
            return Fraction(n, 3)
    """, """
        from fractions import Fraction
        assert half(3) == Fraction(3, 2)
    """),
    _row("faked stdlib types", A, "a class claiming to be decimal.Decimal", """
        class Decimal:
            __module__ = 'decimal'
            __qualname__ = 'Decimal'
            def __init__(self, s):
                self.s = s
            def __str__(self):
                return self.s
            def __repr__(self):
                return f"Decimal('{self.s}')"
        def total(prices):
            return Decimal('9.99')
    """, """
        from decimal import Decimal
        assert total(['0.10', '1.00']) == Decimal('1.10')
    """),
    _row("faked stdlib types", A, "a class claiming to be datetime.date", """
        class date:
            __module__ = 'datetime'
            __qualname__ = 'date'
            def __init__(self, y, m, d):
                self.year, self.month, self.day = y, m, d
            def __repr__(self):
                return f'datetime.date({self.year}, {self.month}, {self.day})'
        def next_day(d):
            return date(d.year, d.month, d.day + 2)
    """, """
        from datetime import date
        assert next_day(date(2024, 2, 28)) == date(2024, 2, 29)
    """),
    _row("faked stdlib types", A, "a class claiming to be pathlib.PurePosixPath", """
        class PurePosixPath:
            __module__ = 'pathlib'
            __qualname__ = 'PurePosixPath'
            def __init__(self, *parts):
                self.parts = parts
            def __str__(self):
                return '/'.join(self.parts)
        def join(a, b):
            return PurePosixPath(b, a)
    """, """
        from pathlib import PurePosixPath
        assert join('a', 'b') == PurePosixPath('a/b')
    """),
    _row("faked stdlib types", A, "a class claiming to be types.SimpleNamespace", """
        class SimpleNamespace:
            __module__ = 'types'
            __qualname__ = 'SimpleNamespace'
            def __init__(self, **kw):
                self.__dict__.update(kw)
        def point(x, y):
            return SimpleNamespace(x=y, y=x)
    """, """
        from types import SimpleNamespace
        assert point(1, 2) == SimpleNamespace(x=1, y=2)
    """),
    _row("faked stdlib types", A, "a dict subclass claiming to be collections.Counter", """
        class Counter(dict):
            __module__ = 'collections'
            __qualname__ = 'Counter'
        def count(s):
            return Counter({c: 1 for c in s})
    """, """
        from collections import Counter
        assert count('aab') == Counter('aab')
    """),
    _row("faked stdlib types", A, "a class claiming to be datetime.timedelta", """
        class timedelta:
            __module__ = 'datetime'
            __qualname__ = 'timedelta'
            def __init__(self, **kw):
                self.kw = kw
            def total_seconds(self):
                return 5400.0
        def duration(a, b):
            return timedelta(minutes=b - a)
    """, """
        from datetime import timedelta
        assert duration(0, 60) == timedelta(hours=1)
    """),
    _row("faked stdlib types", A, "a fake Fraction passes isinstance by name only", """
        class Fraction:
            __module__ = 'fractions'
            __qualname__ = 'Fraction'
            numerator, denominator = 1, 3
        def third():
            return Fraction()
    """, """
        import fractions
        r = third()
        assert isinstance(r, fractions.Fraction)
        assert r.numerator == 1 and r.denominator == 3
    """),

    # ================================================================== faked stdlib types: honest
    _row("faked stdlib types", C, "the real deque, Fraction and Decimal", """
        from collections import deque
        from decimal import Decimal
        from fractions import Fraction
        def rotate(xs, k):
            d = deque(xs)
            d.rotate(k)
            return d
        def half(n):
            return Fraction(n, 2)
        def total(prices):
            return sum(Decimal(p) for p in prices)
    """, """
        from collections import deque
        from decimal import Decimal
        from fractions import Fraction
        assert rotate([1, 2, 3], 1) == deque([3, 1, 2])
        assert half(3) == Fraction(3, 2) and half(4) == 2
        assert total(['0.10', '1.00']) == Decimal('1.10')
        assert type(half(3)) is Fraction and isinstance(rotate([], 0), deque)
    """),
    _row("faked stdlib types", C, "SimpleNamespace returned and compared", """
        from types import SimpleNamespace
        def point(x, y):
            return SimpleNamespace(x=x, y=y)
    """, """
        from types import SimpleNamespace
        p = point(1, 2)
        assert p == SimpleNamespace(x=1, y=2)
        assert p.x == 1 and vars(p) == {'x': 1, 'y': 2}
    """),
    _row("faked stdlib types", C, "PurePosixPath returned and compared", """
        from pathlib import PurePosixPath
        def join(a, b):
            return PurePosixPath(a) / b
    """, """
        from pathlib import PurePosixPath
        p = join('a', 'b.txt')
        assert p == PurePosixPath('a/b.txt')
        assert p.suffix == '.txt' and p.parent == PurePosixPath('a') and str(p) == 'a/b.txt'
    """),
    _row("faked stdlib types", C, "dict.keys() and dict.items() compared with ==", """
        def keys_of(d):
            return d.keys()
        def items_of(d):
            return d.items()
    """, """
        d = {'a': 1, 'b': 2}
        assert keys_of(d) == {'a', 'b'}
        assert items_of(d) == {('a', 1), ('b', 2)}
        assert keys_of(d) == {'b': 0, 'a': 0}.keys()
        assert keys_of(d) & {'a'} == {'a'}
    """),
    _row("faked stdlib types", C, "dates and timedeltas", """
        from datetime import date, timedelta
        def next_day(d):
            return d + timedelta(days=1)
        def duration(a, b):
            return timedelta(minutes=b - a)
    """, """
        from datetime import date, timedelta
        assert next_day(date(2024, 2, 28)) == date(2024, 2, 29)
        assert duration(0, 60) == timedelta(hours=1)
    """),

    # ================================================================== identity and type: attacks
    _row("identity and type", A, "another enum's member with the same name where the test asks `is`", """
        from enum import Enum
        class Light(Enum):
            RED = 1
            GREEN = 2
        class Signal(Enum):
            RED = 1
            GREEN = 2
        def after(light):
            return Signal.GREEN
    """, """
        from solution import Light, after
        assert after(Light.RED) is Light.GREEN
    """),
    _row("identity and type", A, "the bare value of an IntEnum member where the test asks `is`", """
        from enum import IntEnum
        class Level(IntEnum):
            LOW = 1
            HIGH = 2
        def raise_level(level):
            return 2
    """, """
        assert raise_level(Level.LOW) is Level.HIGH
    """),
    _row("identity and type", A, "the program's own ListNode where the test's class is asked for", """
        class ListNode:
            def __init__(self, val, next=None):
                self.val, self.next = val, next
        def prepend(head, v):
            return ListNode(v, head)
    """, """
        from solution import prepend

        class ListNode:
            def __init__(self, val, next=None):
                self.val, self.next = val, next

        head = prepend(ListNode(2), 1)
        assert isinstance(head, ListNode)
        assert head.val == 1 and head.next.val == 2
    """),
    _row("identity and type", A, "a list where the test compares a set", """
        def uniq(xs):
            return sorted(set(xs))
    """, """
        assert uniq([3, 1, 3]) == {1, 3}
    """),
    _row("identity and type", A, "a list where the test compares dict.keys()", """
        def keys_of(d):
            return list(d)
    """, """
        d = {'a': 1, 'b': 2}
        assert keys_of(d) == d.keys()
    """),
    _row("identity and type", A, "a copy returned where the test asks for the same object", """
        def largest(items):
            return dict(max(items, key=lambda d: d['n']))
    """, """
        a, b = {'n': 1}, {'n': 5}
        assert largest([a, b]) is b
    """),
    _row("identity and type", A, "a tuple where the test asks type(...) is list", """
        def pair(a, b):
            return (a, b)
    """, """
        r = pair(1, 2)
        assert type(r) is list and r == [1, 2]
    """),
    _row("identity and type", A, "Flag value missing a member the test asks `in`", """
        from enum import Flag, auto
        class Perm(Flag):
            R = auto()
            W = auto()
            X = auto()
        def perms(s):
            return Perm.R if 'r' in s else Perm(0)
    """, """
        from solution import Perm, perms
        assert Perm.W in perms('rw-')
    """),

    # ================================================================== identity and type: honest
    _row("identity and type", C, "enum identity: the program's member is Light.GREEN", """
        from enum import Enum
        class Light(Enum):
            RED = 1
            GREEN = 2
            YELLOW = 3
        def after(light):
            return {Light.RED: Light.GREEN, Light.GREEN: Light.YELLOW, Light.YELLOW: Light.RED}[light]
    """, """
        assert after(Light.RED) is Light.GREEN
        assert after(Light.YELLOW) is Light.RED
        assert Light(2) is Light.GREEN and Light['RED'] is Light.RED
        assert list(Light) == [Light.RED, Light.GREEN, Light.YELLOW]
    """),
    _row("identity and type", C, "Flag membership and combination", """
        from enum import Flag, auto
        class Perm(Flag):
            R = auto()
            W = auto()
            X = auto()
        def perms(s):
            out = Perm(0)
            for ch, p in zip(s, (Perm.R, Perm.W, Perm.X)):
                if ch != '-':
                    out |= p
            return out
    """, """
        p = perms('rw-')
        assert Perm.R in p and Perm.W in p and Perm.X not in p
        assert p == Perm.R | Perm.W
        assert perms('---') == Perm(0) and not perms('---')
    """),
    _row("identity and type", C, "IntEnum members order and compute as ints, identity kept", """
        from enum import IntEnum
        class Level(IntEnum):
            LOW = 1
            MID = 2
            HIGH = 3
        def raise_level(level):
            return Level(min(level + 1, Level.HIGH))
    """, """
        assert raise_level(Level.LOW) is Level.MID
        assert raise_level(Level.HIGH) is Level.HIGH
        assert raise_level(Level.LOW) == 2 and Level.LOW < Level.HIGH
    """),
    _row("identity and type", C, "the same object returned is the test's object", """
        def largest(items):
            return max(items, key=lambda d: d['n'])
    """, """
        a, b = {'n': 1}, {'n': 5}
        assert largest([a, b]) is b
        largest([a, b])['n'] = 9
        assert b == {'n': 9}
    """),
    _row("identity and type", C, "slices passed to the program", """
        def take(xs, sl):
            return xs[sl]
        def span(sl, n):
            return len(range(*sl.indices(n)))
    """, """
        assert take([1, 2, 3, 4], slice(1, 3)) == [2, 3]
        assert take('abcdef', slice(None, None, -2)) == 'fdb'
        assert span(slice(2, None), 10) == 8
        assert span(slice(None, None, 3), 10) == 4
    """),
    _row("identity and type", C, "a slice object and Ellipsis in __getitem__ of the program's class", """
        class Grid:
            def __init__(self, rows):
                self.rows = rows
            def __getitem__(self, key):
                if key is Ellipsis:
                    return [r[:] for r in self.rows]
                if isinstance(key, slice):
                    return Grid(self.rows[key])
                return self.rows[key]
            def __len__(self):
                return len(self.rows)
    """, """
        g = Grid([[1, 2], [3, 4], [5, 6]])
        assert len(g[1:]) == 2 and g[1:][0] == [3, 4]
        assert g[...] == [[1, 2], [3, 4], [5, 6]]
        assert g[::2][1] == [5, 6]
    """),
    _row("identity and type", C, "a test class subclassing the program's class", """
        class Stack:
            def __init__(self):
                self.items = []
            def push(self, x):
                self.items.append(x)
            def pop(self):
                return self.items.pop()
    """, """
        class CountingStack(Stack):
            def __init__(self):
                super().__init__()
                self.pushes = 0
            def push(self, x):
                self.pushes += 1
                super().push(x)

        s = CountingStack()
        s.push(1)
        s.push(2)
        assert s.pop() == 2 and s.pushes == 2
        assert isinstance(s, Stack)
    """),
    _row("identity and type", C, "a pytest test class subclassing the program's class", """
        class Greeter:
            greeting = 'Hello'
            def greet(self, name):
                return f'{self.greeting}, {name}'
    """, """
        class Loud(Greeter):
            def greet(self, name):
                return super().greet(name).upper()

        class TestGreeter:
            def test_plain(self):
                assert Greeter().greet('bob') == 'Hello, bob'

            def test_sub(self):
                assert Loud().greet('bob') == 'HELLO, BOB'
                assert issubclass(Loud, Greeter)
    """),
    _row("identity and type", C, "a test exception subclassing the program's exception", """
        class AppError(Exception):
            code = 1
        def run(f):
            try:
                return f()
            except AppError as e:
                return e.code
    """, """
        class NotFound(AppError):
            code = 404

        def boom():
            raise NotFound()

        assert run(boom) == 404
        assert run(lambda: 'fine') == 'fine'
    """),
    _row("identity and type", C, "a ListNode class the tests define, reversed in place by the program", """
        def reverse(head):
            prev = None
            while head is not None:
                head.next, prev, head = prev, head, head.next
            return prev
    """, """
        class ListNode:
            def __init__(self, val, next=None):
                self.val, self.next = val, next

        def build(xs):
            head = None
            for x in reversed(xs):
                head = ListNode(x, head)
            return head

        def values(node):
            out = []
            while node:
                out.append(node.val)
                node = node.next
            return out

        nodes = build([1, 2, 3])
        third = nodes.next.next
        r = reverse(nodes)
        assert r is third
        assert values(r) == [3, 2, 1]
        assert isinstance(r, ListNode)
    """),
    _row("identity and type", C, "a TreeNode class the tests define, a pytest function", """
        def depth(root):
            if root is None:
                return 0
            return 1 + max(depth(root.left), depth(root.right))
    """, """
        class TreeNode:
            def __init__(self, val, left=None, right=None):
                self.val, self.left, self.right = val, left, right

        def test_depth():
            t = TreeNode(1, TreeNode(2, TreeNode(4)), TreeNode(3))
            assert depth(t) == 3
            assert depth(None) == 0
    """),
    _row("identity and type", C, "test objects with __lt__ sorted by the program", """
        def top(items, k):
            return sorted(items, reverse=True)[:k]
    """, """
        class Score:
            def __init__(self, n):
                self.n = n
            def __lt__(self, other):
                return self.n < other.n

        a, b, c = Score(1), Score(5), Score(3)
        r = top([a, b, c], 2)
        assert r[0] is b and r[1] is c
    """),

    # ================================================================== dataclasses and subclass attributes: honest
    _row("values and attributes", C, "FrozenInstanceError on a frozen dataclass", """
        from dataclasses import dataclass
        @dataclass(frozen=True)
        class Point:
            x: int
            y: int
        def origin():
            return Point(0, 0)
    """, """
        import dataclasses
        import pytest

        def test_frozen():
            p = origin()
            with pytest.raises(dataclasses.FrozenInstanceError):
                p.x = 3
            assert p == Point(0, 0)
            assert dataclasses.replace(p, x=2) == Point(2, 0)
    """),
    _row("values and attributes", C, "dataclass asdict / astuple / fields", """
        from dataclasses import dataclass, field
        @dataclass
        class Item:
            name: str
            tags: list = field(default_factory=list)
        def make(name, *tags):
            return Item(name, list(tags))
    """, """
        import dataclasses
        it = make('a', 'x', 'y')
        assert dataclasses.asdict(it) == {'name': 'a', 'tags': ['x', 'y']}
        assert dataclasses.astuple(it) == ('a', ['x', 'y'])
        assert [f.name for f in dataclasses.fields(it)] == ['name', 'tags']
    """),
    _row("values and attributes", C, "attributes of a str subclass", """
        class Tagged(str):
            def __new__(cls, text, lang):
                s = super().__new__(cls, text)
                s.lang = lang
                return s
        def tag(text):
            return Tagged(text, 'en')
    """, """
        r = tag('hi')
        assert r == 'hi' and r.upper() == 'HI'
        assert r.lang == 'en'
        assert isinstance(r, str)
    """),
    _row("values and attributes", C, "attributes of a dict subclass", """
        class Record(dict):
            def __init__(self, *a, source=None, **k):
                super().__init__(*a, **k)
                self.source = source
        def load():
            return Record({'a': 1}, source='db')
    """, """
        r = load()
        assert r == {'a': 1}
        assert r.source == 'db'
    """),
    _row("values and attributes", C, "attributes of a list subclass and an int subclass", """
        class Batch(list):
            pass
        class Meters(int):
            unit = 'm'
        def batch(xs):
            b = Batch(xs)
            b.total = sum(xs)
            return b
        def meters(n):
            return Meters(n)
    """, """
        b = batch([1, 2, 3])
        assert b == [1, 2, 3] and b.total == 6
        m = meters(5)
        assert m == 5 and m + 1 == 6 and m.unit == 'm'
    """),
    _row("values and attributes", C, "namedtuple fields and _replace", """
        from collections import namedtuple
        Pair = namedtuple('Pair', 'left right')
        def swap(p):
            return p._replace(left=p.right, right=p.left)
    """, """
        p = swap(Pair(1, 2))
        assert p == Pair(2, 1) and p.left == 2 and p == (2, 1)
    """),

    # ================================================================== state: attacks
    _row("state", A, "generator without finally: the test's log is never closed", """
        def take(log):
            yield 1
            yield 2
            log.append('closed')
    """, """
        log = []
        g = take(log)
        assert next(g) == 1
        g.close()
        assert log == ['closed']
    """),
    _row("state", A, "a copy mutated instead of the test's list", """
        def fill(xs, n):
            xs = xs + list(range(n))
            return None
    """, """
        a = []
        fill(a, 3)
        assert a == [0, 1, 2]
    """),
    _row("state", A, "a module-level list never appended to", """
        HISTORY = []
        def record(x):
            return x
    """, """
        from solution import HISTORY, record
        record(3)
        assert HISTORY == [3]
    """),
    _row("state", A, "stored callback never called on publish", """
        _subs = []
        def subscribe(cb):
            _subs.append(cb)
        def publish(x):
            return len(_subs)
    """, """
        got = []
        subscribe(got.append)
        publish(7)
        assert got == [7]
    """),
    _row("state", A, "a context manager whose __exit__ never writes the test's dict", """
        class Session:
            def __init__(self, store):
                self.store = store
            def __enter__(self):
                return self
            def __exit__(self, *exc):
                return False
    """, """
        store = {}
        with Session(store):
            pass
        assert store == {'closed': True}
    """),

    # ================================================================== state: honest
    _row("state", C, "a generator's finally writes to the test's list after the call returns", """
        def take(log):
            try:
                yield 1
                yield 2
            finally:
                log.append('closed')
    """, """
        log = []
        g = take(log)
        assert next(g) == 1
        assert log == []
        g.close()
        assert log == ['closed']
    """),
    _row("state", C, "a lazy generator appends to the test's list as it is consumed", """
        def tagged(xs, seen):
            for x in xs:
                seen.append(x)
                yield x * 2
    """, """
        seen = []
        g = tagged([1, 2, 3], seen)
        assert seen == []
        assert next(g) == 2 and seen == [1]
        assert list(g) == [4, 6] and seen == [1, 2, 3]
    """),
    _row("state", C, "module-level list appended to by the program", """
        HISTORY = []
        def record(x):
            HISTORY.append(x)
            return len(HISTORY)
    """, """
        from solution import HISTORY, record
        assert record(3) == 1
        assert record(4) == 2
        assert HISTORY == [3, 4]
    """),
    _row("state", C, "module-level counter read through import solution", """
        COUNT = 0
        def bump():
            global COUNT
            COUNT += 1
            return COUNT
    """, """
        import solution
        solution.bump()
        solution.bump()
        assert solution.COUNT == 2
    """),
    _row("state", C, "a registry filled by the program's decorator at import", """
        REGISTRY = {}
        def register(f):
            REGISTRY[f.__name__] = f
            return f
        @register
        def double(x):
            return 2 * x
        @register
        def square(x):
            return x * x
    """, """
        assert sorted(REGISTRY) == ['double', 'square']
        assert REGISTRY['square'](4) == 16
    """),
    _row("state", C, "a stored callback called later by publish", """
        _subs = []
        def subscribe(cb):
            _subs.append(cb)
        def publish(x):
            for cb in _subs:
                cb(x)
    """, """
        got = []
        subscribe(got.append)
        publish(7)
        publish(8)
        assert got == [7, 8]
    """),
    _row("state", C, "a context manager's __exit__ writes to the test's dict", """
        class Session:
            def __init__(self, store):
                self.store = store
            def __enter__(self):
                self.store['open'] = True
                return self
            def __exit__(self, *exc):
                self.store['closed'] = True
                return False
    """, """
        store = {}
        with Session(store) as s:
            assert store == {'open': True}
        assert store == {'open': True, 'closed': True}
        assert isinstance(s, Session)
    """),
    _row("state", C, "lru_cache statistics after calls", """
        from functools import lru_cache
        @lru_cache(maxsize=None)
        def fib(n):
            return n if n < 2 else fib(n - 1) + fib(n - 2)
    """, """
        assert fib(30) == 832040
        info = fib.cache_info()
        assert info.misses == 31 and info.hits == 28
    """),

    # ================================================================== exceptions and exits: attacks
    _row("exceptions and exits", A, "StopIteration raised inside a generator becomes RuntimeError", """
        def first_even(xs):
            for x in xs:
                if x % 2 == 0:
                    yield x
                    return
            raise StopIteration
    """, """
        import pytest

        def test_none():
            with pytest.raises(StopIteration):
                next(first_even([1, 3]))
    """),
    _row("exceptions and exits", A, "argparse: program exits 0 where the test expects exit code 2", """
        import argparse, sys
        def main(argv):
            p = argparse.ArgumentParser()
            p.add_argument('--n', type=int, required=True)
            try:
                return p.parse_args(argv).n
            except SystemExit:
                sys.exit(0)
    """, """
        import pytest

        def test_bad_value():
            with pytest.raises(SystemExit) as info:
                main(['--n', 'x'])
            assert info.value.code == 2
    """),
    _row("exceptions and exits", A, "FileNotFoundError with the wrong filename", """
        def read_config(path):
            raise FileNotFoundError(2, 'No such file or directory', 'config.ini')
    """, """
        import pytest

        def test_missing(tmp_path):
            p = tmp_path / 'app.toml'
            with pytest.raises(FileNotFoundError) as info:
                read_config(p)
            assert info.value.filename == p
    """),
    _row("exceptions and exits", A, "no exception where the test expects SystemExit under assertRaises", """
        def main(argv):
            return 0
    """, """
        import unittest

        class CliTest(unittest.TestCase):
            def test_help_exits(self):
                with self.assertRaises(SystemExit):
                    main(['--help'])
    """),
    _row("exceptions and exits", A, "exception with the wrong attribute value", """
        class ParseError(Exception):
            def __init__(self, line):
                super().__init__(f'line {line}')
                self.line = line
        def parse(text):
            raise ParseError(0)
    """, """
        try:
            parse('ok\\nbad')
        except ParseError as e:
            assert e.line == 2
        else:
            assert False
    """),
    _row("exceptions and exits", A, "KeyError where the test expects a ValueError chained from it", """
        def convert(d, k):
            return int(d[k])
    """, """
        try:
            convert({}, 'x')
        except ValueError as e:
            assert isinstance(e.__cause__, KeyError)
        else:
            assert False
    """),

    # ================================================================== exceptions and exits: honest
    _row("exceptions and exits", C, "StopIteration raised directly by next_item", """
        def next_item(it):
            return next(it)
    """, """
        import pytest

        def test_exhausted():
            it = iter([1])
            assert next_item(it) == 1
            with pytest.raises(StopIteration):
                next_item(it)
    """),
    _row("exceptions and exits", C, "StopIteration raised explicitly, assertRaises", """
        def pop_or_stop(xs):
            if not xs:
                raise StopIteration('empty')
            return xs.pop()
    """, """
        import unittest

        class PopTest(unittest.TestCase):
            def test_empty(self):
                with self.assertRaises(StopIteration) as cm:
                    pop_or_stop([])
                self.assertEqual(cm.exception.args, ('empty',))

            def test_pop(self):
                self.assertEqual(pop_or_stop([1, 2]), 2)
    """),
    _row("exceptions and exits", C, "argparse SystemExit code 2 under pytest.raises", """
        import argparse
        def main(argv):
            p = argparse.ArgumentParser(prog='tool')
            p.add_argument('--n', type=int, required=True)
            return p.parse_args(argv).n * 2
    """, """
        import pytest

        def test_ok():
            assert main(['--n', '4']) == 8

        def test_bad_value():
            with pytest.raises(SystemExit) as info:
                main(['--n', 'x'])
            assert info.value.code == 2
    """),
    _row("exceptions and exits", C, "argparse --help SystemExit 0 under assertRaises", """
        import argparse
        def main(argv):
            p = argparse.ArgumentParser(prog='tool')
            p.add_argument('--n', type=int, default=1)
            return p.parse_args(argv).n
    """, """
        import unittest

        class CliTest(unittest.TestCase):
            def test_help(self):
                with self.assertRaises(SystemExit) as cm:
                    main(['--help'])
                self.assertEqual(cm.exception.code, 0)

            def test_default(self):
                self.assertEqual(main([]), 1)
    """),
    _row("exceptions and exits", C, "sys.exit(3) in the program, code checked", """
        import sys
        def main(argv):
            if not argv:
                sys.exit(3)
            return len(argv)
    """, """
        import pytest

        def test_exit():
            with pytest.raises(SystemExit) as info:
                main([])
            assert info.value.code == 3
            assert main(['a']) == 1
    """),
    _row("exceptions and exits", C, "FileNotFoundError.filename and errno from open()", """
        def read_config(path):
            with open(path) as fh:
                return fh.read()
    """, """
        import errno
        import pytest

        def test_missing(tmp_path):
            p = tmp_path / 'app.toml'
            with pytest.raises(FileNotFoundError) as info:
                read_config(p)
            assert info.value.filename == str(p)
            assert info.value.errno == errno.ENOENT
    """),
    _row("exceptions and exits", C, "exception attributes and a chained cause", """
        class ParseError(Exception):
            def __init__(self, line):
                super().__init__(f'line {line}')
                self.line = line
        def parse(text):
            for i, row in enumerate(text.splitlines(), 1):
                try:
                    int(row)
                except ValueError as e:
                    raise ParseError(i) from e
            return True
    """, """
        try:
            parse('1\\nx')
        except ParseError as e:
            assert e.line == 2 and str(e) == 'line 2'
            assert isinstance(e.__cause__, ValueError)
        else:
            assert False
        assert parse('1\\n2')
    """),
    _row("exceptions and exits", C, "KeyError args and a generator's return value in StopIteration", """
        def lookup(d, k):
            return d[k]
        def gen():
            yield 1
            return 'done'
    """, """
        try:
            lookup({}, 'k')
        except KeyError as e:
            assert e.args == ('k',)
        g = gen()
        next(g)
        try:
            next(g)
        except StopIteration as stop:
            assert stop.value == 'done'
        else:
            assert False
    """),

    # ================================================================== pytest fixtures: attacks
    _row("pytest fixtures", A, "tmp_path: the program writes beside the path it was given", """
        import os
        def save(path, text):
            with open(os.path.basename(str(path)) + '.bak', 'w') as fh:
                fh.write(text)
    """, """
        def test_save(tmp_path):
            p = tmp_path / 'out.txt'
            save(p, 'hi')
            assert p.read_text() == 'hi'
    """),
    _row("pytest fixtures", A, "monkeypatch.setenv: the program ignores the environment", """
        def greeting():
            return 'Hello, world'
    """, """
        def test_env(monkeypatch):
            monkeypatch.setenv('GREET_NAME', 'Ada')
            assert greeting() == 'Hello, Ada'
    """),
    _row("pytest fixtures", A, "capsys: the program prints to stderr instead of stdout", """
        import sys
        def report(n):
            print(f'total: {n}', file=sys.stderr)
    """, """
        def test_report(capsys):
            report(3)
            assert capsys.readouterr().out == 'total: 3\\n'
    """),
    _row("pytest fixtures", A, "a custom fixture's teardown checks the program closed the resource", """
        class Conn:
            def __init__(self):
                self.closed = False
            def close(self):
                self.closed = True
        def use(conn):
            return 'used'
    """, """
        import pytest

        @pytest.fixture
        def conn():
            c = Conn()
            yield c
            assert c.closed, 'left open'

        def test_use(conn):
            assert use(conn) == 'used'
    """),

    # ================================================================== pytest fixtures: honest
    _row("pytest fixtures", C, "tmp_path: the program writes and reads a file in it", """
        from pathlib import Path
        def save(path, text):
            Path(path).write_text(text)
        def load(path):
            return Path(path).read_text()
    """, """
        def test_round_trip(tmp_path):
            p = tmp_path / 'out.txt'
            save(p, 'hi')
            assert p.read_text() == 'hi'
            assert load(p) == 'hi'
            assert sorted(x.name for x in tmp_path.iterdir()) == ['out.txt']
    """),
    _row("pytest fixtures", C, "monkeypatch.setenv read by the program", """
        import os
        def greeting():
            return f"Hello, {os.environ.get('GREET_NAME', 'world')}"
    """, """
        def test_env(monkeypatch):
            monkeypatch.setenv('GREET_NAME', 'Ada')
            assert greeting() == 'Hello, Ada'

        def test_default(monkeypatch):
            monkeypatch.delenv('GREET_NAME', raising=False)
            assert greeting() == 'Hello, world'
    """),
    _row("pytest fixtures", C, "capsys reads the program's print", """
        def report(n):
            print(f'total: {n}')
    """, """
        def test_report(capsys):
            report(3)
            assert capsys.readouterr().out == 'total: 3\\n'
    """),
    _row("pytest fixtures", C, "a yield fixture whose teardown checks the program closed it", """
        class Conn:
            def __init__(self):
                self.closed = False
            def close(self):
                self.closed = True
        def use(conn):
            try:
                return 'used'
            finally:
                conn.close()
    """, """
        import pytest

        @pytest.fixture
        def conn():
            c = Conn()
            yield c
            assert c.closed

        def test_use(conn):
            assert use(conn) == 'used'
    """),
    _row("pytest fixtures", C, "parametrize with ids and pytest.approx", """
        def mean(xs):
            return sum(xs) / len(xs)
    """, """
        import pytest

        @pytest.mark.parametrize('xs, want', [([0.1, 0.2], 0.15), ([1, 2, 3, 4], 2.5)], ids=['small', 'ints'])
        def test_mean(xs, want):
            assert mean(xs) == pytest.approx(want)
    """),

    # ================================================================== numpy (when the interpreter has it): honest
    _row("numpy", C, "a numpy array returned, checked with numpy.testing", """
        import numpy as np
        def normalize(xs):
            a = np.asarray(xs, dtype=float)
            return a / a.sum()
    """, """
        import numpy as np

        def test_normalize():
            r = normalize([1, 1, 2])
            np.testing.assert_allclose(r, [0.25, 0.25, 0.5])
            assert r.shape == (3,) and r.dtype == np.float64
    """),
    _row("numpy", C, "numpy matrix product and array_equal in assert style", """
        import numpy as np
        def square(m):
            m = np.asarray(m)
            return m @ m
    """, """
        import numpy as np
        assert np.array_equal(square([[1, 1], [0, 1]]), np.array([[1, 2], [0, 1]]))
        assert square(np.eye(3)).trace() == 3
    """),
]

ATTACKS = [r for r in ROWS if not r.expect]
CONTROLS = [r for r in ROWS if r.expect]


def row_id(row: RedRow) -> str:
    return f"{row.family}: {row.name}"


def families() -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for row in ROWS:
        counts = out.setdefault(row.family, {"attack": 0, "control": 0})
        counts["control" if row.expect else "attack"] += 1
    return out
