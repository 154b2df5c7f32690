"""Batched calls: a comprehension or a consumer over calls of the candidate's functions is sent
as one message (``_batched`` rewrites the test source, ``_calls``/``_method`` run it)."""

from __future__ import annotations

from . import proxies
from .base import _ATOMS, _NONE_TYPE, HUGE_INT
from .proxies import Remote

_CONSUMERS = frozenset((sum, list, tuple, set, frozenset, sorted, min, max))  # take every item, in order
_CONSUMER_NAMES = frozenset(c.__name__ for c in _CONSUMERS)


def _argument(x):
    t = type(x)
    return t in _ATOMS and (t is not int or -HUGE_INT < x < HUGE_INT)


def _calls(consumer, get, iterable, positions, consts):
    """``(f(*args) for x in iterable)`` (``[...]`` when ``consumer`` is None), rewritten from a
    comprehension by ``_batched``; ``get`` is ``lambda: f``, looked up when the first item is
    taken, as the comprehension would. Batched (``Judge.calls``) when ``f`` is the candidate's,
    the items are atoms of a range, list or tuple, the comprehension is consumed whole (a list
    comprehension, or the one argument of the builtin ``sum``/``list``/``sorted``/``min``...) and
    no process state travels with a call; else one call per item, exactly as written."""
    judge = proxies._JUDGE
    eligible = ((consumer is None or any(consumer is c for c in _CONSUMERS)) and judge is not None
                and (type(iterable) is range or (type(iterable) in (list, tuple) and all(map(_argument, iterable))))
                and len(iterable) > 0)
    if consumer is None:  # a list comprehension: a plain loop (a StopIteration from a call stays one)
        if eligible:
            fn = get()
            if isinstance(fn, Remote) and not judge.flags and not judge.replaced() and judge.gone is None:
                return list(judge.calls(fn._r_id, iterable, positions, consts))
        out = []
        for x in iter(iterable):
            a = list(consts)
            for p in positions:
                a[p] = x
            out.append(get()(*a))
        return out
    if not eligible:
        return _one_by_one(get, iter(iterable), positions, consts)

    def batched():
        fn = get()
        if isinstance(fn, Remote) and not judge.flags and not judge.replaced() and judge.gone is None:
            yield from judge.calls(fn._r_id, iterable, positions, consts)
        else:
            yield from _one_by_one(get, iter(iterable), positions, consts)

    return batched()


def _one_by_one(get, it, positions, consts):
    for x in it:
        a = list(consts)
        for p in positions:
            a[p] = x
        yield get()(*a)


_FUSABLE = {}  # (proxy class, attribute name) -> whether the class leaves that name to __getattr__


def _method(obj, name, args):
    """``obj.name(*args())``, rewritten from a test's call (``_batched``; ``args`` is a lambda
    giving the arguments, which are names and constants). When ``obj`` is a candidate object
    whose class leaves ``name`` to the candidate, the attribute is looked up and called in one
    round trip (``Judge.call_remote``); evaluating the arguments before the look-up changes
    nothing, and if it raises, the look-up is made first (its exception wins), as in Python.
    Anything else: ``getattr`` then the call, as written."""
    t = type(obj)
    if issubclass(t, Remote):
        fusable = _FUSABLE.get((t, name))
        if fusable is None:
            fusable = _FUSABLE[(t, name)] = not name.startswith("_r_") and not any(
                name in k.__dict__ for k in t.__mro__)  # fmt: skip
        judge = proxies._JUDGE
        if fusable and judge is not None:
            try:
                values = args()
            except BaseException:
                getattr(obj, name)
                raise
            return judge.call_remote(obj._r_id, values, {}, name)
    return getattr(obj, name)(*args())


def _method_call(node):
    """For ``_batched``: ``obj.name(a, 1)`` (positional names and constants only) as ``_rlvr_method(obj,
    "name", lambda: (a, 1))`` (``_method``)."""
    import ast

    func = node.func
    if node.keywords or not isinstance(func, ast.Attribute) or not isinstance(func.ctx, ast.Load):
        return node
    if not all(isinstance(a, ast.Constant) or (isinstance(a, ast.Name) and not a.id.startswith("_rlvr"))
               for a in node.args):  # fmt: skip
        return node
    args = ast.Lambda(ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                                    kwarg=None, defaults=[]), ast.Tuple(list(node.args), ast.Load()))  # fmt: skip
    return ast.copy_location(ast.Call(ast.Name("_rlvr_method", ast.Load()),
                                      [func.value, ast.Constant(func.attr), args], []), node)  # fmt: skip


def _batched(tree):
    """The tests' comprehensions that call one function per item (``sum(inc(i) for i in
    range(n))``, ``[f(x, 2) for x in xs]``) as ``_rlvr_calls(...)``: see ``_calls``."""
    import ast

    def template(comp):
        if len(comp.generators) != 1:
            return None
        gen, call = comp.generators[0], comp.elt
        if gen.ifs or gen.is_async or not isinstance(gen.target, ast.Name) or not isinstance(call, ast.Call):
            return None
        var = gen.target.id
        if call.keywords or not isinstance(call.func, ast.Name) or call.func.id == var:
            return None
        positions, consts = [], []
        for k, a in enumerate(call.args):
            if isinstance(a, ast.Name) and a.id == var:
                positions.append(k)
                consts.append(None)
            elif isinstance(a, ast.Constant) and type(a.value) in (int, float, str, bool, _NONE_TYPE):
                consts.append(a.value)
            else:
                return None
        return call.func.id, gen.iter, tuple(positions), tuple(consts)

    def rewrite(consumer, comp):
        found = template(comp)
        if found is None:
            return None
        name, iterable, positions, consts = found
        get = ast.Lambda(ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                                       defaults=[]), ast.Name(name, ast.Load()))  # fmt: skip
        return ast.Call(ast.Name("_rlvr_calls", ast.Load()),
                        [consumer, get, iterable, ast.Constant(positions), ast.Constant(consts)], [])  # fmt: skip

    class Batched(ast.NodeTransformer):
        scope = "module"  # "class" directly in a class body: a lambda there would not see its names

        def visit_ListComp(self, node):
            self.generic_visit(node)
            return rewrite(ast.Constant(None), node) or node

        def visit_Call(self, node):
            self.generic_visit(node)
            if (isinstance(node.func, ast.Name) and node.func.id in _CONSUMER_NAMES and len(node.args) == 1
                    and not node.keywords and isinstance(node.args[0], ast.GeneratorExp)):
                new = rewrite(ast.Name(node.func.id, ast.Load()), node.args[0])
                if new is not None:
                    node.args[0] = new
            if self.scope != "class":
                return _method_call(node)
            return node

        def visit_ClassDef(self, node):
            outer, self.scope = self.scope, "class"  # its decorators and bases too: nothing rewritten
            try:
                self.generic_visit(node)
            finally:
                self.scope = outer
            return node

        def visit_FunctionDef(self, node):
            body, node.body = node.body, []
            self.generic_visit(node)  # decorators, defaults, annotations: the enclosing scope's
            outer, self.scope = self.scope, "function"
            try:
                node.body = [self.visit(stmt) for stmt in body]
            finally:
                self.scope = outer
            return node

        visit_AsyncFunctionDef = visit_FunctionDef

    return ast.fix_missing_locations(Batched().visit(tree))


def _compile_unit(src):
    """A test statement, compiled with assertions on; comprehensions calling the candidate once
    per item are batched and, in a source with a loop, method calls with plain arguments take one
    round trip (``_batched``)."""
    if "for " in src or "while" in src:  # a loop (a line may start with it): what runs many times
        import ast

        try:
            tree = ast.parse(src, "<test>")
        except SyntaxError:
            pass
        else:
            return compile(_batched(tree), "<test>", "exec", dont_inherit=True, optimize=0)
    return compile(src, "<test>", "exec", dont_inherit=True, optimize=0)
