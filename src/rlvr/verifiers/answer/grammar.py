"""The answer grammar's parser: recursive descent over the lexer's tokens, one token
per step, building the syntax tree (tuples: ``("num", value, decimal, text)``,
``("add", op, a, b)``, ``("rel", sides, ops)``, ``("list", items)``, ...). A token it does
not expect refuses the answer (``_Refused``); nothing is silently dropped."""

from __future__ import annotations

from fractions import Fraction

from rlvr.verifiers.answer.lexer import _OPEN, _word_reason
from rlvr.verifiers.answer.result import _Refused
from rlvr.verifiers.answer.tree import _ends_with_letter, _infinite, _last, _latex, _shown, _text_reason


class _Parser:
    def __init__(self, tokens: list[tuple[str, object, bool]]) -> None:
        self.t = tokens
        self.i = 0
        self.abs_depth = 0

    def kind(self, k: int = 0) -> str:
        j = self.i + k
        return self.t[j][0] if j < len(self.t) else "end"

    def val(self, k: int = 0) -> object:
        j = self.i + k
        return self.t[j][1] if j < len(self.t) else None

    def space(self) -> bool:
        return self.t[self.i][2] if self.i < len(self.t) else False

    def take(self) -> tuple[str, object, bool]:
        tok = self.t[self.i]
        self.i += 1
        return tok

    def fail(self, what: str = "") -> _Refused:
        if self.i >= len(self.t):
            return _Refused("unparsed", what or "the answer ends in the middle of an expression")
        kind, value, _ = self.t[self.i]
        if kind in ("rel",):
            return _Refused("relation", what or f"a relation {value} where a value was expected")
        if kind == "sep":
            return _Refused("several_answers", what or f"{value!r} where a value was expected")
        if kind == "word":
            return _Refused(_word_reason(str(value)), what or f"{value!r} is not part of the answer grammar")
        shown = value[0] if kind == "num" else value  # type: ignore[index]
        return _Refused("unparsed", what or f"unexpected {kind} {shown!r}")

    # answer := item ((',' | ';' | 'and' | 'or') item)*
    def answer(self) -> tuple:
        node = self.items(top=True)
        if self.i != len(self.t):
            raise self.fail()
        return node

    def items(self, top: bool) -> tuple:
        items = [self.item()]
        while self.kind() in ("comma", "semi") or (top and self.kind() == "sep"):
            self.take()
            while self.kind() == "sep":  # ", and"
                self.take()
            items.append(self.item())
        return items[0] if len(items) == 1 else ("list", tuple(items))

    def item(self) -> tuple:
        return self.rel()

    def _currency(self) -> tuple[str, ...]:
        return (str(self.take()[1]),) if self.kind() == "currency" else ()

    def _units(self) -> tuple[str, ...]:
        """Units and currency signs after a value, as written (``answer.values`` reads them):
        unit words, ``/`` between units, an exponent 2 or 3 after a unit."""
        units: list[str] = []
        while True:
            kind, value = self.kind(), self.val()
            if kind in ("unit", "currency"):
                units.append(str(self.take()[1]))
            elif kind == "op" and value == "/" and self.kind(1) == "unit":
                units.append(str(self.take()[1]))
            elif (kind == "op" and value == "^" and units and units[-1] not in ("%", "°", "/")
                  and self.kind(1) == "num" and self.val(1)[0] in (2, 3) and not self.val(1)[1]):  # type: ignore[index]
                self.take()
                units[-1] += f"^{self.take()[1][0]}"  # type: ignore[index]
            else:
                return tuple(units)

    def rel(self) -> tuple:
        sides, ops = [], []
        before = self._currency()
        while True:
            side = self.setexpr()
            units = before + self._units()
            sides.append(("unit", side, units) if units else side)
            if self.kind() != "rel":
                break
            ops.append(self.take()[1])
            before = self._currency()
        return sides[0] if not ops else ("rel", tuple(sides), tuple(ops))

    def setexpr(self) -> tuple:
        node = self.additive()
        while self.kind() == "setop":
            op = self.take()[1]
            node = ("setop", op, node, self.additive())
        return node

    def additive(self) -> tuple:
        node = self.unary()
        while self.kind() in ("pm",) or (self.kind() == "op" and self.val() in ("+", "-")):
            kind, op, _ = self.take()
            right = self.term()
            node = ("pm", op, node, right) if kind == "pm" else ("add", op, node, right)
        return node

    def _sign(self, k: int = 0) -> bool:
        return self.kind(k) == "pm" or (self.kind(k) == "op" and self.val(k) in ("+", "-"))

    def _sign_next(self) -> bool:
        """A sign right after this one, TeX groups ({…} shows no brackets) between them."""
        k = 1
        while self.kind(k) == "open" and self.val(k) == "{":
            k += 1
        return self._sign(k)

    def unary(self) -> tuple:
        if self._sign() and self._sign_next():  # "--10", "+-10" (an ASCII ±), "-{-10}": write -(-10)
            raise _Refused("unparsed", "two signs in a row")
        if self.kind() == "op" and self.val() in ("+", "-"):
            op = self.take()[1]
            return ("neg" if op == "-" else "pos", self.unary())
        if self.kind() == "pm":
            op = self.take()[1]
            return ("pm1", op, self.unary())
        return self.term()

    def term(self) -> tuple:
        node = self.power()
        while True:
            kind, value = self.kind(), self.val()
            if kind == "op" and value in ("*", "/", "\\cdot", "\\times", "\\div", ":"):
                self.take()
                if self.kind() == "unit":  # "km/h"
                    self.i -= 1
                    return node
                node = ("mul", value, node, self.power())
            elif self._starts_factor():
                node = self._implicit(node)
            else:
                return node

    def _starts_factor(self) -> bool:
        kind = self.kind()
        if kind in ("num", "var", "word", "const", "func", "cmd", "begin", "base", "text"):
            return True
        if kind == "open":
            return True
        return False

    def _plain_mixed(self, left: tuple) -> tuple | None:
        """``2 3/4`` (an integer, a space, a proper fraction of integers): the mixed number,
        as ``2\\frac{3}{4}`` is; None for anything else."""
        t = self.t[self.i: self.i + 4]
        if not (left[0] == "num" and left[1].denominator == 1 and not left[2] and len(t) >= 3 and t[0][2]
                and t[0][0] == "num" and t[1][:2] == ("op", "/") and t[2][0] == "num"
                and not t[1][2] and not t[2][2]):
            return None
        (a, a_dec, *_), (b, b_dec, *_) = t[0][1], t[2][1]  # type: ignore[misc]
        if a_dec or b_dec or a.denominator != 1 or b.denominator != 1 or not 0 < a < b:
            return None
        if len(t) > 3 and (t[3][0] == "num" or t[3][:2] in (("op", "^"), ("op", "/"), ("op", "!"))):
            return None  # "2 3/4/5", "2 3/4^2": not a mixed number written out
        self.i += 3
        return ("mixed", left, ("frac", ("num", a, False, str(a)), ("num", b, False, str(b))))

    def _implicit(self, left: tuple) -> tuple:
        kind, value, space = self.t[self.i]
        mixed = self._plain_mixed(left) if kind == "num" else None
        if mixed is not None:
            return mixed
        if kind == "num" and left[0] == "fact":
            start = self.i
            right = self.power()
            if right[0] == "fact":
                return ("mul", "", left, right)  # "5!\\,3!", "2!2!": the "!" between them parts the digits
            self.i = start
        if kind == "num":
            if left[0] == "word" or (left[0] == "var" and space):
                raise _Refused(_word_reason(str(left[1])),
                               f"{left[1]!r} before a number is not part of the answer grammar")
            raise _Refused("unparsed", f"two numbers side by side ({_shown(left)} then {value[0]})")  # type: ignore[index]
        if kind == "base":
            raise _Refused("unparsed", "a number in another base inside an expression")
        if kind == "text":
            raise _Refused(_text_reason(str(value)), f"\\text{{{value}}} is not part of the answer grammar")
        if kind == "open" and value in ("[", "\\{", "{"):
            raise _Refused("unparsed", f"{value} right after a value")
        if kind == "open" and value == "(" and not space and left[0] in ("group", "tuple") and left[-1] == "]":
            raise _Refused("unparsed", "[…](…) is a Markdown link (it shows only its text), not a product")
        if kind in ("var", "word") and space and _ends_with_letter(left) and "word" in (kind, _last(left)[0]):
            raise _Refused(_word_reason(str(value)), f"words side by side ({_shown(left)} {value})")
        if kind == "word" and space and left[0] in ("num", "mul"):
            raise _Refused(_word_reason(str(value)), f"{value!r} after a value is not part of the answer grammar")
        if kind == "cmd" and value == "frac" and left[0] == "num" and left[1].denominator == 1 and not left[2]:
            frac = self.power()
            if frac[0] == "frac" and all(p[0] == "num" and p[1].denominator == 1 and not p[2] for p in frac[1:]):
                return ("mixed", left, frac)
            return ("mul", "", left, frac)
        return ("mul", "", left, self.power())

    def power(self) -> tuple:
        node = self.primary()
        while True:
            kind, value = self.kind(), self.val()
            if kind == "op" and value == "!":
                self.take()
                node = ("fact", node)
            elif kind == "op" and value == "^":
                self.take()
                node = ("pow", node, self.script())
            elif kind == "op" and value == "_":
                if node[0] not in ("var", "word"):
                    raise _Refused("unparsed", f"a subscript on {_shown(node)}")
                self.take()
                node = ("var", f"{node[1]}_{{{_latex(self.script())}}}")
            else:
                return node

    def _braced_or_letter(self) -> tuple | None:
        """A {group}, or one letter / constant token; None when neither comes next."""
        kind, value = self.kind(), self.val()
        if kind == "open" and value == "{":
            self.take()
            inner = self.items(top=False)
            self._close("}")
            return inner
        if kind in ("var", "const"):
            self.take()
            return (kind, value)
        return None

    def script(self) -> tuple:
        """A superscript or subscript: a {group} or one token (x^2, x^n, x^\\pi)."""
        found = self._braced_or_letter()
        if found is not None:
            return found
        kind, value = self.kind(), self.val()
        if kind == "num":
            number, decimal = value[0], value[1]  # type: ignore[index]
            if decimal or number >= 10:
                raise _Refused("unparsed", "an exponent of several digits needs braces (x^{23})")
            self.take()
            return ("num", number, False)
        if kind == "op" and value in ("-", "+"):
            raise _Refused("unparsed", "a signed exponent needs braces (x^{-1})")
        raise self.fail("an exponent or subscript is missing")

    def _close(self, closer: str) -> None:
        if self.kind() != "close" or self.val() != closer:
            raise self.fail(f"expected {closer}")
        self.take()

    def arg(self) -> tuple:
        """The argument of \\frac, \\sqrt, ...: a {group} or a single letter."""
        found = self._braced_or_letter()
        if found is None:
            raise self.fail("a command is missing its argument")
        return found

    def primary(self) -> tuple:
        if self.i >= len(self.t):
            raise self.fail()
        kind, value, _ = self.take()
        if kind == "num":
            return ("num",) + tuple(value)  # type: ignore[arg-type]
        if kind == "base":
            return ("base", value)
        if kind in ("var", "const"):
            return (kind, value)
        if kind == "word":
            return ("word", value)
        if kind == "text":
            raise _Refused(_text_reason(str(value)), f"\\text{{{value}}} inside an answer is not part of the grammar")
        if kind == "open":
            return self.bracket(str(value))
        if kind == "abs":
            self.abs_depth += 1
            inner = self.additive()
            self.abs_depth -= 1
            if self.kind() != "abs":
                raise self.fail("expected a closing |")
            self.take()
            return ("abs", inner)
        if kind == "func":
            return self.function(str(value))
        if kind == "cmd":
            return self.command(str(value))
        if kind == "begin":
            return self.matrix(str(value))
        self.i -= 1
        raise self.fail()

    def bracket(self, opener: str) -> tuple:
        closer = _OPEN[opener]
        inner = [self.item()]
        while self.kind() in ("comma", "semi"):
            self.take()
            inner.append(self.item())
        if self.kind() != "close":
            raise self.fail(f"expected a closing bracket for {opener}")
        got = str(self.take()[1])
        if opener in ("(", "[") and got in (")", "]"):
            if len(inner) == 1:
                if inner[0][0] == "matrix":
                    return inner[0]
                if got != closer:
                    raise _Refused("unparsed", f"{opener} closed by {got}")
                return ("group", inner[0], opener, got)
            if len(inner) == 2 and ((opener == "[" and _infinite(inner[0])) or (got == "]" and _infinite(inner[1]))):
                raise _Refused("unparsed", "an interval closed at infinity (write ( or ) beside \\infty)")
            return ("tuple", tuple(inner), opener, got)
        if got != closer:
            raise _Refused("unparsed", f"{opener} closed by {got}")
        if opener == "\\{":
            return ("set", tuple(inner))
        if opener == "{":  # a TeX group shows no braces: {1, 3} is the list 1, 3, not a set
            return ("group", inner[0], "(", ")") if len(inner) == 1 else ("list", tuple(inner))
        if opener == "\\langle":
            return ("tuple", tuple(inner), "(", ")")
        if len(inner) != 1:
            raise _Refused("unparsed", f"a list inside {opener}")
        return ("floor" if opener == "\\lfloor" else "ceil", inner[0])

    def function(self, name: str) -> tuple:
        power = sub = None
        for _ in range(2):
            if self.kind() == "op" and self.val() == "^":
                self.take()
                power = self.script()
            elif self.kind() == "op" and self.val() == "_":
                self.take()
                sub = self.script()
        if self.kind() == "open" and self.val() in ("(", "{"):
            opener = str(self.take()[1])
            arg = self.items(top=False)
            self._close(_OPEN[opener])
        else:
            arg = self.power()
            while self.kind() in ("num", "var", "word", "const", "cmd") and self.kind() != "func":
                if self.kind() == "num":
                    break
                arg = ("mul", "", arg, self.power())
        return ("func", name, power, sub, arg)

    def command(self, name: str) -> tuple:
        if name == "frac":
            if self.kind() == "num" and not self.val()[1]:  # type: ignore[index]  # \frac12, \frac3{3}
                digits = str(self.val()[0])  # type: ignore[index]
                if len(digits) == 2:
                    self.take()
                    return ("frac", ("num", Fraction(int(digits[0])), False), ("num", Fraction(int(digits[1])), False))
                if len(digits) == 1:
                    self.take()
                    num = ("num", Fraction(int(digits)), False)
                    return ("frac", num, self._digit_or_arg())
                raise _Refused("unparsed", "\\frac followed by several digits needs braces")
            num = self.arg()
            return ("frac", num, self._digit_or_arg())
        if name == "binom":
            return ("binom", self._digit_or_arg(), self._digit_or_arg())
        if name == "sqrt":
            index = None
            if self.kind() == "open" and self.val() == "[":
                self.take()
                index = self.additive()
                self._close("]")
            return ("sqrt", self._digit_or_arg(), index)
        # \sum / \prod with limits
        lower = upper = None
        for _ in range(2):
            if self.kind() == "op" and self.val() == "_":
                self.take()
                lower = self.script_rel()
            elif self.kind() == "op" and self.val() == "^":
                self.take()
                upper = self.script()
        body = self.term()
        return ("bigop", name, lower, upper, body)

    def script_rel(self) -> tuple:
        if self.kind() == "open" and self.val() == "{":
            self.take()
            inner = self.rel()
            self._close("}")
            return inner
        return self.script()

    def _digit_or_arg(self) -> tuple:
        if self.kind() == "num" and not self.val()[1]:  # type: ignore[index]
            digits = str(self.val()[0])  # type: ignore[index]
            if len(digits) != 1:
                raise _Refused("unparsed", "a bare argument of several digits needs braces")
            self.take()
            return ("num", Fraction(int(digits)), False)
        return self.arg()

    def matrix(self, env: str) -> tuple:
        rows: list[list[tuple]] = [[]]
        while True:
            if self.kind() == "end":
                if self.val() != env:
                    raise _Refused("unparsed", f"\\begin{{{env}}} closed by \\end{{{self.val()}}}")
                self.take()
                break
            if self.kind() == "rowsep":
                self.take()
                rows.append([])
                continue
            rows[-1].append(self.rel())
            if self.kind() == "amp":
                self.take()
        if rows and not rows[-1]:
            rows.pop()
        if not rows or len({len(r) for r in rows}) != 1:
            raise _Refused("unparsed", "a matrix with rows of different lengths")
        return ("matrix", tuple(tuple(r) for r in rows), env)  # env: vmatrix is a determinant, not a matrix
