"""The grammar of a final answer: what the text of an extracted answer may contain.

``parse_answer(text)`` reads the text a marker holds (the content of ``<answer>``, of the
last ``\\boxed{}``, what follows "the answer is" or ``####``) and returns either an
``Answer`` (one value the verifiers know how to compare) or a ``Refusal`` with a reason
from ``REASONS``. The grammar is a whitelist: a tokenizer that knows a closed set of
tokens (numbers, single-letter variables, a list of LaTeX commands, brackets, operators,
relations, unit words) and a recursive-descent parser over them. Anything else (a word
it does not know, a number written next to another number, ``\\phantom``, text inside
``\\text{}`` that is not a unit) refuses the answer: nothing is silently dropped.

What it accepts, in short (docs/verifiers.md has the full grammar):
- wrappers around the whole answer: ``$…$``, ``$$…$$``, ``\\(…\\)``, ``\\[…\\]`` (inline math
  on one line only), ``\\boxed{}``, ``\\fbox{}``, ``**…**``, ``\\textbf{}``, ``\\color{c}{…}``,
  ``{\\color{c} …}``, trailing ``.,;:``;
- one value: a number (thousands separators ``1,000`` / ``1\\ 000`` / ``10\\,000``, decimals,
  repeating decimals ``0.\\overline{3}``, mixed numbers ``3\\frac{1}{2}``), an expression,
  a tuple / interval / set / matrix, a list (``,`` ``;`` ``and`` ``or``: a list is one answer,
  a set of values, never one of its elements), an equation or relation, a short text
  answer (letters only);
- at the end of a value only: units from a closed list (``cm``, ``miles``, ``\\%``,
  ``^\\circ``, ``\\text{ cm}^2``, ``\\pmod{11}``, …) and currency signs, which are dropped.

Every function here runs in time linear in its input: one left-to-right scan, then a
parser that consumes one token per step.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from fractions import Fraction

from rlvr.verifiers.answer.units import TEXT_UNIT_WORDS

REASONS: tuple[str, ...] = ("no_answer", "several_answers", "trailing_text", "relation", "unparsed")

MAX_ANSWER_CHARS = 3000
MAX_TOKENS = 400


@dataclass(frozen=True)
class Refusal:
    """Why an answer was not graded: ``reason`` is one of ``REASONS``."""

    reason: str
    detail: str


class _Refused(Exception):
    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason, self.detail = reason, detail


@dataclass(frozen=True)
class Answer:
    """One parsed answer.

    ``node``: the syntax tree (tuples); ``latex``: the same, written back as LaTeX for
    math-verify (wrappers, units, thousands separators removed, mixed numbers and
    repeating decimals as fractions); ``value``: the exact value when the answer is a
    number or an expression of numbers we can evaluate; ``decimal``: a decimal literal
    took part in ``value`` (an approximation may be meant); ``kind``: the top node kind.
    """

    node: tuple
    latex: str
    value: Fraction | None
    decimal: bool
    kind: str
    text: str = ""  # text answers: the words, as written
    items: tuple[Answer, ...] = field(default=(), compare=False)
    unit: tuple[str, ...] = ()  # the units and currency signs written with the value, as written

    @property
    def canonical(self) -> str:
        """The form majority voting groups by: a reduced fraction / integer for a number,
        the lower-cased words for a text answer, else the LaTeX without spaces; then the
        units as written (``5 cm`` and ``5 m`` are two values, never one)."""
        if self.value is not None:
            v = self.value
            base = str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
        elif self.kind == "text":
            base = norm_text(self.text)
        else:
            base = self.latex.replace(" ", "")
        return f"{base} {' '.join(self.unit)}" if self.unit else base


def norm_text(text: str) -> str:
    t = " ".join(text.lower().split()).strip(" .")  # not "!": n! is not n
    m = re.fullmatch(r"\(([a-z])\)", t)
    return m.group(1) if m else t


# ------------------------------------------------------------------ vocabulary

UNIT_WORDS = frozenset("""
cm mm km meter meters metre metres centimeter centimeters centimetre centimetres millimeter millimeters
kilometer kilometers inch inches ft foot feet yard yards yd mile miles sq square cubic cu units unit
liter liters litre litres ml milliliter milliliters gallon gallons kg mg gram grams kilogram kilograms
pound pounds lb lbs ounce ounces oz ton tons tonne tonnes sec second seconds min minute minutes hr hrs
hour hours day days week weeks month months year years yr yrs mph kph kmh dollar dollars cent cents
euro euros yuan rupee rupees rs yen degree degrees deg radian radians rad percent percentage pct
""".split())
# letters that are a unit only with an exponent written as a Unicode superscript (m², cm³)
_SHORT_UNITS = frozenset({"m", "cm", "mm", "km", "ft", "in", "yd"})
FUNCTIONS = frozenset("""
sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh log ln exp max min gcd lcm lg det
""".split())
_GREEK = frozenset("""
alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi rho sigma
tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Sigma Phi Psi Omega
""".split())
_RELATIONS = {"=": "=", "<": "<", ">": ">", "<=": "\\leq", ">=": "\\geq", "!=": "\\neq",
              "le": "\\leq", "leq": "\\leq", "leqslant": "\\leq", "ge": "\\geq", "geq": "\\geq",
              "geqslant": "\\geq", "ne": "\\neq", "neq": "\\neq", "lt": "<", "gt": ">", "approx": "\\approx",
              "in": "\\in", "notin": "\\notin", "equiv": "\\equiv", "subset": "\\subset", "subseteq": "\\subseteq"}
_SKIP_COMMANDS = frozenset("left right big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr boxed fbox displaystyle "
                           "textstyle mleft mright".split())
_SPACE_COMMANDS = frozenset("quad qquad enspace thinspace medspace".split())
_TEXT_COMMANDS = frozenset("text textnormal textrm textit textup textsf mbox textbf".split())
_FONT_COMMANDS = frozenset("mathrm mathit mathbf mathsf boldsymbol bm operatorname".split())
_SETS = {"R": "\\mathbb{R}", "N": "\\mathbb{N}", "Z": "\\mathbb{Z}", "Q": "\\mathbb{Q}", "C": "\\mathbb{C}"}
_OPEN = {"(": ")", "[": "]", "\\{": "\\}", "{": "}", "\\langle": "\\rangle", "\\lfloor": "\\rfloor",
         "\\lceil": "\\rceil"}
_CLOSERS = frozenset(_OPEN.values())
_MATRIX_ENVS = frozenset("pmatrix bmatrix Bmatrix vmatrix Vmatrix matrix smallmatrix array".split())

# Words that explain a refusal (a label only: the whitelist above decides acceptance).
_RELATION_WORDS = frozenset("""
not isn't isnt no never less more greater fewer least most than under over below above approximately
about around nearly almost exceed exceeds exceeding neq leq geq
""".split())
_HEDGE_WORDS = frozenset("either maybe perhaps probably possibly might could likely".split())

_SUPERSCRIPTS = "²³¹⁰⁴⁵⁶⁷⁸⁹⁺⁻"
_TRANSLATE = str.maketrans({"−": "-", "×": "\\times ", "·": "\\cdot ", "÷": "\\div ", "≤": "\\le ",
                            "≥": "\\ge ", "≠": "\\neq ", "π": "\\pi ", "∞": "\\infty ", "±": "\\pm ",
                            "\u00a0": " ", "\u2009": " ", "\u202f": " "})

_THOUSANDS_SEP = r"(?:\s?\{\s?,\s?\}\s?|,\\!\s?|\\,|\\!|\\\s|\s)"
_NUM_RE = re.compile(
    r"(?P<rep>\d*\.\d*\\overline\s*\{\d+\})"
    r"|(?P<base>\d+_(?:\{\d+\}|\d)(?![\d.]))"
    r"|(?P<grp>[1-9]\d{0,2}(?:" + _THOUSANDS_SEP[:-1] + r"|,)\d{3})+(?![\d])(?:\.\d+)?)"
    r"|(?P<num>\d+\.\d+|\.\d+|\d+)")
_NUM_IN_BRACKETS_RE = re.compile(
    r"(?P<rep>\d*\.\d*\\overline\s*\{\d+\})"
    r"|(?P<base>\d+_(?:\{\d+\}|\d)(?![\d.]))"
    r"|(?P<grp>[1-9]\d{0,2}(?:" + _THOUSANDS_SEP + r"\d{3})+(?![\d])(?:\.\d+)?)"
    r"|(?P<num>\d+\.\d+|\.\d+|\d+)")
_LETTERS_RE = re.compile(r"[A-Za-z]+")
_COMMAND_RE = re.compile(r"\\([A-Za-z]+)")
_REP_RE = re.compile(r"(\d*)\.(\d*)\\overline\s*\{(\d+)\}")
_DEGREE_RE = re.compile(r"\^\s*(?:\\circ|\{\s*\\circ\s*\})")
_UNIT_EXP_RE = re.compile(r"\s*(?:\^\s*(?:\{\s*[23]\s*\}|[23])|[²³])")


def _group_end(s: str, i: int) -> int:
    """Index just past the ``}`` matching the ``{`` at ``s[i]``; -1 when unbalanced."""
    depth = 0
    n = len(s)
    while i < n:
        ch = s[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


def _read_group(s: str, i: int) -> tuple[str, int]:
    """(content, end) of the ``{…}`` group starting at the first non-space from ``i``."""
    while i < len(s) and s[i] == " ":
        i += 1
    if i >= len(s) or s[i] != "{":
        raise _Refused("unparsed", "a command is missing its {…} argument")
    end = _group_end(s, i)
    if end < 0:
        raise _Refused("unparsed", "unbalanced braces")
    return s[i + 1: end - 1], end


# ------------------------------------------------------------------ tokens
# A token is (kind, value, space_before).


def _word_reason(word: str) -> str:
    low = word.lower()
    if low in _RELATION_WORDS:
        return "relation"
    if low in _HEDGE_WORDS or low in ("or", "and"):
        return "several_answers"
    return "unparsed"


def _classify_text(content: str) -> tuple[str, str]:
    """A \\text{} inside an expression: a unit, a list separator, or free text."""
    words = " ".join(content.replace("\\", " ").split()).lower()
    if words in ("and", "or", ", and", ", or", "and,"):
        return ("sep", words.strip(", "))
    parts = words.replace("^2", "").replace("^3", "").replace("²", "").replace("³", "").replace("/", " / ").split()
    if parts and all(p in UNIT_WORDS or p in _SHORT_UNITS or p in TEXT_UNIT_WORDS or p in ("per", "/") for p in parts) \
            and parts[0] not in ("per", "/") and parts[-1] not in ("per", "/"):
        return ("unit", " ".join(content.replace("\\", " ").split()))  # as written: Mm is not mm (answer.units)
    return ("text", content)


def _simple_command(name: str) -> tuple[str, str] | None:
    """The token of a command that takes no argument the lexer must read; None: unknown."""
    if name in _RELATIONS:
        return ("rel", _RELATIONS[name])
    if name in ("pm", "mp"):
        return ("pm", "\\" + name)
    if name in ("cdot", "times", "div", "ast"):
        return ("op", "*" if name == "ast" else "\\" + name)
    if name in ("cup", "cap", "setminus"):
        return ("setop", "\\" + name)
    if name in ("pi", "infty", "emptyset", "varnothing"):
        return ("const", "\\emptyset" if name == "varnothing" else "\\" + name)
    if name in _GREEK:
        return ("var", "\\" + name)
    if name in FUNCTIONS:
        return ("func", name)
    if name in ("frac", "dfrac", "tfrac", "cfrac"):
        return ("cmd", "frac")
    if name in ("binom", "dbinom", "tbinom"):
        return ("cmd", "binom")
    if name in ("sqrt", "sum", "prod"):
        return ("cmd", name)
    if name in ("lfloor", "lceil", "langle"):
        return ("open", "\\" + name)
    if name in ("rfloor", "rceil", "rangle"):
        return ("close", "\\" + name)
    if name in ("degree", "circ"):
        return ("unit", "°")
    return None


class _Lexer:
    def __init__(self, s: str) -> None:
        self.s = s
        self.tokens: list[tuple[str, object, bool]] = []
        self.space = False
        self.depth = 0

    def add(self, kind: str, value: object) -> None:
        self.tokens.append((kind, value, self.space))
        self.space = False

    def run(self) -> list[tuple[str, object, bool]]:
        s, n, i = self.s, len(self.s), 0
        while i < n:
            ch = s[i]
            if ch.isspace() or ch == "~":
                self.space = True
                i += 1
            elif "0" <= ch <= "9" or (ch == "." and i + 1 < n and "0" <= s[i + 1] <= "9"):
                i = self.number(i)
            elif ch.isascii() and ch.isalpha():
                i = self.letters(i)
            elif ch == "\\":
                i = self.command(i)
            elif ch == "^" and _DEGREE_RE.match(s, i):
                self.add("unit", "°")
                i = _DEGREE_RE.match(s, i).end()  # type: ignore[union-attr]
            else:
                i = self.symbol(i)
        return self.tokens

    def number(self, i: int) -> int:
        m = (_NUM_IN_BRACKETS_RE if self.depth else _NUM_RE).match(self.s, i)
        assert m is not None
        text = m.group(0)
        if m.group("rep"):
            whole, fixed, rep = _REP_RE.match(text).groups()  # type: ignore[union-attr]
            scale = 10 ** len(fixed)
            value = Fraction(int(whole or "0")) + Fraction(int(fixed or "0"), scale) \
                + Fraction(int(rep), (10 ** len(rep) - 1) * scale)
            self.add("num", (value, False))
        elif m.group("base"):
            self.add("base", text.replace("{", "").replace("}", ""))
        else:
            digits = re.sub(r"[^\d.]", "", text)
            self.add("num", (Fraction(digits), "." in digits, digits))
        return m.end()

    def letters(self, i: int) -> int:
        m = _LETTERS_RE.match(self.s, i)
        assert m is not None
        word, end = m.group(0), m.end()
        if end < len(self.s) and self.s[end] in _SUPERSCRIPTS:
            if word.lower() in _SHORT_UNITS or word.lower() in UNIT_WORDS:
                self.add("unit", word + self.s[end])
                return end + 1
            raise _Refused("unparsed", f"a Unicode superscript after {word!r}")
        self.word(word, end)
        return end

    def word(self, word: str, end: int) -> None:
        low = word.lower()
        nxt = self.s[end: end + 1]
        if low in ("and", "or"):
            self.add("sep", low)
        elif low in FUNCTIONS and nxt in ("(", "^", "_"):
            self.add("func", low)
        elif low in UNIT_WORDS:
            self.add("unit", word)  # as written: Mm is not mm (answer.units)
        elif low in FUNCTIONS:
            self.add("func", low)
        elif low in ("infinity", "inf"):
            self.add("const", "\\infty")
        elif low == "pi":
            self.add("const", "\\pi")
        elif len(word) == 1:
            self.add("var", word)
        elif len(word) <= 3:
            self.add("word", word)
        else:
            raise _Refused(_word_reason(word), f"{word!r} is not part of the answer grammar")

    def command(self, i: int) -> int:
        m = _COMMAND_RE.match(self.s, i)
        if not m:
            return self.escaped_symbol(i)
        name, end = m.group(1), m.end()
        if name in ("boxed", "fbox") and not self.s[end:].lstrip().startswith("{"):
            raise _Refused("unparsed", f"\\{name} without a {{…}} group boxes one character only")
        if name in _SKIP_COMMANDS:
            if name in ("left", "right", "mleft", "mright") and self.s[end: end + 1] == ".":
                end += 1
            return end
        if name in _SPACE_COMMANDS:
            self.space = True
            return end
        if name in ("color", "textcolor"):
            _, end = _read_group(self.s, end)  # the colour name; the coloured group stays a group
            return end
        if name in _TEXT_COMMANDS or name in _FONT_COMMANDS:
            return self.text_command(name, end)
        if name == "not":
            return self.negated_relation(end)
        if name in ("mathbb", "pmod", "bmod", "begin", "end"):
            return self.group_command(name, end)
        token = _simple_command(name)
        if token is None:
            raise _Refused("unparsed", f"\\{name} is not part of the answer grammar")
        if token[0] in ("open", "close"):
            self.depth += 1 if token[0] == "open" else -1
        self.add(*token)
        return end

    def escaped_symbol(self, i: int) -> int:
        """A backslash before a non-letter: \\{ \\} \\% \\$, a spacing command, a row break."""
        two = self.s[i: i + 2]
        if two in ("\\{", "\\}"):
            self.depth += 1 if two == "\\{" else -1
            self.add("open" if two == "\\{" else "close", two)
        elif two == "\\%":
            self.add("unit", "%")
        elif two == "\\$":
            self.add("currency", "$")
        elif two in ("\\,", "\\;", "\\:", "\\!", "\\ ", "\\\t", "\\\n"):
            self.space = True
        elif two == "\\\\":
            self.add("rowsep", "\\\\")
        else:
            raise _Refused("unparsed", f"{two!r} is not part of the answer grammar")
        return i + 2

    def negated_relation(self, end: int) -> int:
        """``\\not`` before =, <, >, \\in, \\equiv or \\subset; anything else is refused."""
        s = self.s
        rest = s[end:].lstrip()
        m2 = _COMMAND_RE.match(rest)
        if rest[:1] in ("=", "<", ">"):
            self.add("rel", {"=": "\\neq", "<": "\\not<", ">": "\\not>"}[rest[0]])
            return len(s) - len(rest) + 1
        if m2 and m2.group(1) in ("in", "equiv", "subset"):
            self.add("rel", "\\not\\" + m2.group(1))
            return len(s) - len(rest) + m2.end()
        raise _Refused("relation", "\\not before something that is not a relation")

    def group_command(self, name: str, end: int) -> int:
        """Commands that take a {…} argument the lexer reads itself: \\mathbb, \\pmod,
        \\begin / \\end of a matrix environment."""
        s = self.s
        if name == "mathbb":
            content, end = _read_group(s, end)
            if content.strip() not in _SETS:
                raise _Refused("unparsed", f"\\mathbb{{{content}}} is not part of the answer grammar")
            self.add("const", _SETS[content.strip()])
        elif name in ("pmod", "bmod"):
            bare = re.match(r" *(\d+)", s[end:]) if name == "pmod" else None
            if bare is not None:  # "\\pmod 9", "\\pmod7": the modulus written without braces
                content, end = bare.group(1), end + bare.end()
            else:
                content, end = _read_group(s, end) if name == "pmod" else ("", end)
            if name == "bmod" or not content.strip().isdigit():
                raise _Refused("unparsed", f"\\{name} is only understood as a final \\pmod{{N}}")
            self.add("unit", f"\\pmod{{{content.strip()}}}")
        else:
            env, end = _read_group(s, end)
            env = env.strip()
            if env not in _MATRIX_ENVS:
                raise _Refused("unparsed", f"the {env!r} environment is not part of the answer grammar")
            if name == "begin" and env == "array" and s[end:].lstrip().startswith("{"):
                _, end = _read_group(s, end)  # the column spec
            self.add(name, env)
        return end

    def text_command(self, name: str, end: int) -> int:
        content, end = _read_group(self.s, end)
        stripped = content.strip()
        if not stripped:
            return end
        if name in _FONT_COMMANDS or re.fullmatch(r"[\d.,\s]+", stripped):
            if re.fullmatch(r"[A-Za-z]+", stripped):
                if stripped.lower() in UNIT_WORDS and name != "operatorname":
                    self.add("unit", stripped)
                elif len(stripped) == 1 or name == "operatorname":
                    self.add("func" if name == "operatorname" else "var", stripped)
                else:
                    self.word(stripped, 0)
                return end
            sub = _Lexer(content)
            sub.depth = self.depth
            sub_tokens = sub.run()
            if sub_tokens:
                first = sub_tokens[0]
                self.tokens.append((first[0], first[1], self.space or first[2]))
                self.tokens.extend(sub_tokens[1:])
                self.space = False
            return end
        kind, value = _classify_text(content)
        if kind == "unit":  # "\text{ cm}^2"
            m = _UNIT_EXP_RE.match(self.s, end)
            if m:
                end = m.end()
                value += "^3" if "3" in m.group(0) or "³" in m.group(0) else "^2"
        self.add(kind, value)
        return end

    def symbol(self, i: int) -> int:
        s = self.s
        two = s[i: i + 2]
        if two in ("<=", ">=", "!="):
            self.add("rel", _RELATIONS[two])
            return i + 2
        ch = s[i]
        if ch in "([{":
            self.depth += 1
            self.add("open", ch)
        elif ch in ")]}":
            self.depth -= 1
            self.add("close", ch)
        elif ch in "+-*/^_!":
            self.add("op", ch)
        elif ch in "=<>":
            self.add("rel", ch)
        elif ch == ",":
            self.add("comma", ",")
        elif ch == ";":
            self.add("semi", ";")
        elif ch == ":":
            self.add("op", ":")
        elif ch == "|":
            self.add("abs", "|")
        elif ch == "&":
            self.add("amp", "&")
        elif ch == "%" or ch == "°":
            self.add("unit", "%" if ch == "%" else "°")
        elif ch in "$€£¥₹":
            self.add("currency", ch)
        elif ch in _SUPERSCRIPTS:
            raise _Refused("unparsed", f"the superscript {ch!r} (write ^{{…}})")
        else:
            raise _Refused("unparsed", f"{ch!r} is not part of the answer grammar")
        return i + 1


_SUPERSCRIPT_MAP = {"⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8",
                    "⁹": "9", "⁻": "-"}
_SUPERSCRIPT_RUN_RE = re.compile("(?<=[0-9)}])[" + "".join(_SUPERSCRIPT_MAP) + "]+")  # not a unit's: m², cm³
_VULGAR = {"½": (1, 2), "⅓": (1, 3), "⅔": (2, 3), "¼": (1, 4), "¾": (3, 4), "⅕": (1, 5), "⅖": (2, 5), "⅗": (3, 5),
           "⅘": (4, 5), "⅙": (1, 6), "⅚": (5, 6), "⅛": (1, 8), "⅜": (3, 8), "⅝": (5, 8), "⅞": (7, 8)}
_ROOT_RE = re.compile(r"√\s*(\d+(?:\.\d+)?|[A-Za-z]|\((?:[^()]|\([^()]*\))*\))")
_ASCII_ROOT_RE = re.compile(r"(?<![A-Za-z\\])sqrt\s*\(((?:[^()]|\([^()]*\))*)\)")
_PAREN_POWER_RE = re.compile(r"\^\s*\(((?:[^()]|\([^()]*\))*)\)")


def plain_math(text: str) -> str:
    """Math written in plain text as the LaTeX it displays: superscript digits after a number
    or a bracket (``10⁵`` is ``10^{5}``; ``m²`` is a unit's), vulgar fractions (``1½`` is the
    mixed number ``1\\frac{1}{2}``), ``√2`` / ``√(x+1)`` / ``sqrt(2)`` as ``\\sqrt{…}``, and a
    parenthesised exponent ``2^(1/3)`` as ``2^{(1/3)}``."""
    if not text.isascii():
        text = _SUPERSCRIPT_RUN_RE.sub(lambda m: "^{" + "".join(_SUPERSCRIPT_MAP[c] for c in m.group(0)) + "}", text)
        text = "".join(f"\\frac{{{_VULGAR[c][0]}}}{{{_VULGAR[c][1]}}}" if c in _VULGAR else c for c in text)
        text = _ROOT_RE.sub(lambda m: "\\sqrt{" + _unparen(m.group(1)) + "}", text)
    if "sqrt" in text:
        text = _ASCII_ROOT_RE.sub(lambda m: "\\sqrt{" + m.group(1) + "}", text)
    if "^" in text and "(" in text:
        text = _PAREN_POWER_RE.sub(lambda m: "^{(" + m.group(1) + ")}", text)
    return text


def _unparen(text: str) -> str:
    return text[1:-1] if text.startswith("(") and text.endswith(")") else text


# ------------------------------------------------------------------ parser

_ATOM = 9
_PREC = {"list": 0, "rel": 1, "setop": 2, "add": 3, "pm": 3, "mul": 4, "neg": 5, "pos": 5, "pm1": 5,
         "pow": 6, "fact": 7}


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

    def _implicit(self, left: tuple) -> tuple:
        kind, value, space = self.t[self.i]
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


def _infinite(node: tuple) -> bool:
    while node[0] in ("neg", "pos"):
        node = node[1]
    return node == ("const", "\\infty")


def _text_reason(content: str) -> str:
    for word in re.findall(r"[A-Za-z']+", content):
        reason = _word_reason(word)
        if reason != "unparsed":
            return reason
    return "unparsed"


def _last(node: tuple) -> tuple:
    while node[0] == "mul":
        node = node[3]
    return node


def _ends_with_letter(node: tuple) -> bool:
    return _last(node)[0] in ("var", "word")


def _shown(node: tuple) -> str:
    return _latex(node)[:40]


# ------------------------------------------------------------------ LaTeX for math-verify


def _wrap(node: tuple, parent: int) -> str:
    text = _latex(node)
    return f"({text})" if _PREC.get(node[0], _ATOM) < parent else text


def _num_latex(value: Fraction, decimal: bool) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    if decimal:
        # a decimal literal: its exact digits (the denominator is a power of ten's divisor)
        scale = 1
        while (value * scale).denominator != 1:
            scale *= 10
        digits = str(abs(value.numerator * (scale // value.denominator)))
        places = len(str(scale)) - 1
        digits = digits.rjust(places + 1, "0")
        return ("-" if value < 0 else "") + digits[:-places] + "." + digits[-places:]
    return f"\\frac{{{value.numerator}}}{{{value.denominator}}}"


def _latex(node: tuple) -> str:
    kind = node[0]
    if kind == "unit":  # the unit is the typed value's (answer/values.py), not math-verify's
        return _latex(node[1])
    if kind == "num":
        if len(node) > 3 and node[3][:1] == "0" and len(node[3]) > 1 and not node[2]:
            return node[3]  # leading zeros as written (12:00, 004)
        return _num_latex(node[1], node[2])
    if kind in ("var", "const", "word"):
        return str(node[1])
    if kind == "base":
        return str(node[1])
    if kind == "text":
        return f"\\text{{{node[1]}}}"
    if kind == "group":
        return f"({_latex(node[1])})"
    if kind == "tuple":
        return f"{node[2]}{', '.join(_latex(x) for x in node[1])}{node[3]}"
    if kind == "set":
        return "\\{" + ", ".join(_latex(x) for x in node[1]) + "\\}"
    if kind == "list":
        return ", ".join(_latex(x) for x in node[1])
    if kind == "abs":
        return f"|{_latex(node[1])}|"
    if kind in ("floor", "ceil"):
        return f"\\l{kind}{_latex(node[1])}\\r{kind}"
    if kind == "matrix":
        rows = " \\\\ ".join(" & ".join(_latex(c) for c in row) for row in node[1])
        return "\\begin{pmatrix}" + rows + "\\end{pmatrix}"
    if kind == "frac":
        return f"\\frac{{{_latex(node[1])}}}{{{_latex(node[2])}}}"
    if kind == "mixed":
        value = node[1][1] + node[2][1][1] / node[2][2][1] if node[2][2][1] else None
        if value is None:
            return f"{_latex(node[1])}{_latex(node[2])}"
        return _num_latex(value, False)
    if kind == "sqrt":
        index = f"[{_latex(node[2])}]" if node[2] is not None else ""
        return f"\\sqrt{index}{{{_latex(node[1])}}}"
    if kind == "binom":
        return f"\\binom{{{_latex(node[1])}}}{{{_latex(node[2])}}}"
    if kind in ("func", "bigop"):
        return _latex_function(node)
    return _latex_operator(node)


def _latex_function(node: tuple) -> str:
    """\\sin^{2}(x), \\log_{2}(x), \\sum_{k=1}^{n} body."""
    _, name, first, second, body = node
    lower, upper = (second, first) if node[0] == "func" else (first, second)  # func: (power, sub)
    out = "\\" + name
    if lower is not None:
        out += f"_{{{_latex(lower)}}}"
    if upper is not None:
        out += f"^{{{_latex(upper)}}}"
    return out + (f"({_latex(body)})" if node[0] == "func" else " " + _wrap(body, _PREC["mul"]))


def _latex_operator(node: tuple) -> str:
    """Signs, sums, products, powers, factorials, set operations and relations."""
    kind = node[0]
    if kind == "neg":
        return "-" + _wrap(node[1], _PREC["neg"] + 1 if node[1][0] != "num" else 0)
    if kind == "pos":
        return "+" + _wrap(node[1], _PREC["neg"] + 1)
    if kind == "pm1":
        return f"{node[1]} " + _wrap(node[2], _PREC["neg"] + 1)
    if kind in ("add", "pm"):
        op = node[1] if kind == "add" else f" {node[1]} "
        return _wrap(node[2], _PREC["add"]) + op + _wrap(node[3], _PREC["add"] + 1)
    if kind == "mul":
        op = node[1]
        left, right = _wrap(node[2], _PREC["mul"]), _wrap(node[3], _PREC["mul"] + 1)
        if op == "":
            if right[:1].isdigit() or (right[:1].isalpha() and re.search(r"\\[A-Za-z]+$", left)):
                return f"{left} {right}"
            return left + right
        if op in ("\\cdot", "\\times", "\\div"):
            return f"{left} {op} {right}"
        return f"{left}{op}{right}"
    if kind == "pow":
        return _wrap(node[1], _PREC["pow"] + 1) + f"^{{{_latex(node[2])}}}"
    if kind == "fact":
        return _wrap(node[1], _PREC["fact"] + 1) + "!"
    if kind == "setop":
        return f"{_wrap(node[2], _PREC['setop'])} {node[1]} {_wrap(node[3], _PREC['setop'] + 1)}"
    if kind == "rel":
        out = _latex(node[1][0])
        for op, side in zip(node[2], node[1][1:]):
            out += f" {op} {_latex(side)}"
        return out
    raise ValueError(f"unknown node {kind}")


# ------------------------------------------------------------------ exact evaluation

_MAX_BITS = 4096


def evaluate(node: tuple) -> tuple[Fraction | None, bool]:
    """(exact value, a decimal literal took part) of an expression of numbers; value None
    when it is not one (variables, irrational roots, huge powers)."""
    try:
        return _eval(node), _has_decimal(node)
    except (ZeroDivisionError, _NotExact, OverflowError, ValueError):
        return None, False


class _NotExact(Exception):
    pass


def _has_decimal(node: tuple) -> bool:
    if node[0] == "num":
        return bool(node[2])
    if node[0] == "unit":
        return _has_decimal(node[1])
    return any(isinstance(x, tuple) and _has_decimal(x) for x in node[1:])


def _root(value: Fraction, n: int) -> Fraction:
    if value < 0 or n < 1 or n > 64:
        raise _NotExact
    out = []
    for part in (value.numerator, value.denominator):
        r = round(part ** (1.0 / n)) if part.bit_length() < 1000 else None
        if r is None:
            raise _NotExact
        for cand in (r - 1, r, r + 1):
            if cand >= 0 and cand ** n == part:
                out.append(cand)
                break
        else:
            raise _NotExact
    return Fraction(out[0], out[1])


def _eval(node: tuple) -> Fraction:
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind in ("group", "unit"):
        return _eval(node[1])
    if kind == "neg":
        return -_eval(node[1])
    if kind == "pos":
        return _eval(node[1])
    if kind == "add":
        a, b = _eval(node[2]), _eval(node[3])
        return a + b if node[1] == "+" else a - b
    if kind == "mul":
        if node[1] == ":":
            raise _NotExact
        a, b = _eval(node[2]), _eval(node[3])
        return a / b if node[1] in ("/", "\\div") else a * b
    if kind == "frac":
        return _eval(node[1]) / _eval(node[2])
    if kind == "mixed":
        return _eval(node[1]) + _eval(node[2])
    if kind == "pow":
        base, exp = _eval(node[1]), _eval(node[2])
        if exp.denominator != 1 or abs(exp) > 10000:
            if exp.denominator in (2, 3):
                return _root(base, exp.denominator) ** exp.numerator
            raise _NotExact
        bits = max(abs(base.numerator).bit_length(), base.denominator.bit_length())
        if bits * abs(exp.numerator) > _MAX_BITS:
            raise _NotExact
        return base ** int(exp)
    if kind == "fact":
        n = _eval(node[1])
        if n.denominator != 1 or not 0 <= n <= 300:
            raise _NotExact
        out = 1
        for k in range(2, int(n) + 1):
            out *= k
        return Fraction(out)
    if kind == "sqrt":
        index = 2 if node[2] is None else _eval(node[2])
        if Fraction(index).denominator != 1:
            raise _NotExact
        return _root(_eval(node[1]), int(index))
    if kind == "binom":
        n, k = _eval(node[1]), _eval(node[2])
        if n.denominator != 1 or k.denominator != 1 or not 0 <= k <= n <= 1000:
            raise _NotExact
        out = Fraction(1)
        for j in range(int(k)):
            out = out * (n - j) / (j + 1)
        return out
    if kind == "abs":
        return abs(_eval(node[1]))
    raise _NotExact


# ------------------------------------------------------------------ structure helpers


def is_name(node: tuple) -> bool:
    """A name an answer may be assigned to: x, x_1, f(x), (p, q), |AB|, A:B."""
    kind = node[0]
    if kind in ("var", "word"):
        return True
    if kind == "mul" and node[1] == "" and node[2][0] in ("var", "word") and node[3][0] == "group":
        return True
    if kind == "mul" and node[1] == ":":
        return is_name(node[2]) and is_name(node[3])
    if kind == "tuple":
        return all(is_name(x) for x in node[1])
    if kind == "abs":  # |AB|, a length; not |x|, which states x = ±3 for |x| = 3
        return is_name(node[1]) and node[1][0] != "var"
    return False


def has_relation(node: tuple) -> bool:
    node = _ungroup(node)
    if node[0] == "rel":
        return True
    if node[0] == "list":
        return any(has_relation(x) for x in node[1])
    return False


def reduce_relations(node: tuple) -> tuple:
    """The value an equation states, for comparing with a reference that is not itself a
    relation: ``x = 5`` → 5, ``a = b = c`` → c (the last side, math-verify's reading, when
    no two sides are numbers that differ), ``x = 1/3 \\approx 0.33`` → 1/3,
    ``x \\approx 0.33`` → 0.33, ``x \\in [0, 1)`` → [0, 1). Any other relation
    (<, \\leq, \\neq, \\in after an expression, ...) raises a ``relation`` refusal."""
    while node[0] == "group":  # "\boxed{y=5}, \boxed{x=6}": each box is a {…} group
        node = node[1]
    if node[0] == "list":
        items = tuple(_ungroup(x) for x in node[1])
        if all(x[0] == "rel" and x[2] == ("=",) and x[1][0][0] == "var" for x in items):
            _check_name_order(tuple(x[1][0] for x in items))  # "x = 5, y = 6"
        return ("list", tuple(reduce_relations(x) for x in items))
    if node[0] != "rel":
        return node
    sides, ops = node[1], node[2]
    if sides[0][0] == "tuple" and sides[-1][0] == "tuple" and is_name(sides[0]):
        _check_name_order(sides[0][1])  # "(x, y) = (1, 2)"
    if sides[0][0] == "abs" and sides[0][1][0] == "var" and len(sides) == 2:
        raise _Refused("relation", f"{_shown(sides[0])} = …: two values of {_shown(sides[0][1])}, not one value")
    if all(op in ("=", "\\approx") for op in ops):
        k = ops.index("\\approx") if "\\approx" in ops else len(ops)
        if k == 0:
            if not is_name(sides[0]):
                if len(sides) == 2 and _approximates(sides[0], sides[1]):
                    return sides[0]  # "\\frac{2}{3} \\approx 0.6667": the exact value, its decimal checked
                raise _Refused("relation", f"{_shown(sides[0])} \\approx …: an approximation of a value, not a value")
            return sides[-1]
        _check_sides(sides[: k + 1])
        return sides[k]
    if ops == ("\\in",) and is_name(sides[0]):
        return sides[1]
    bad = next(op for op in ops if op not in ("=", "\\approx"))
    raise _Refused("relation", f"the answer is a relation ({bad}), not a value")


def _approximates(exact: tuple, approx: tuple) -> bool:
    """``exact \\approx approx``: an expression of numbers, roots and \\pi, then a decimal that
    is its value rounded to the places the decimal states (``5\\sqrt{2} \\approx 7.07``)."""
    inner = approx[1] if approx[0] == "neg" else approx
    if inner[0] != "num" or len(inner) < 4 or "." not in str(inner[3]):
        return False
    value = _float_value(exact) if _closed(exact) else _float_value(exact, functions=True)
    if value is None:
        return False
    places = len(str(inner[3]).split(".")[1])
    stated = float(inner[1]) * (-1 if approx[0] == "neg" else 1)
    return abs(value - stated) <= 0.5 * 10 ** -places * (1 + 1e-9) and abs(value) > 0


def _float_value(node: tuple, functions: bool = False) -> float | None:
    """A float for an expression of numbers, roots, powers and \\pi (None for anything else);
    ``functions``: also Euler's e and ln, log, exp, sin, cos, tan of such expressions (an
    exact value stated before its decimal: ``\\ln 2 \\approx 0.693``)."""
    import math

    kind = node[0]
    value = functools.partial(_float_value, functions=functions)
    try:
        if kind == "num":
            return float(node[1])
        if kind == "const" and node[1] == "\\pi":
            return math.pi
        if functions and kind in ("var", "text") and node[1] == "e":
            return math.e
        if functions and kind == "func" and node[1] in _FLOAT_FUNCTIONS and node[2] is None:
            arg = value(node[4])
            if arg is None:
                return None
            if node[1] == "log" and node[3] is not None:
                base = value(node[3])
                return None if base is None or base <= 0 or base == 1 or arg <= 0 else math.log(arg, base)
            return float(_FLOAT_FUNCTIONS[node[1]](arg))
        if kind in ("group",):
            return value(node[1])
        if kind == "neg":
            v = value(node[1])
            return None if v is None else -v
        if kind == "frac":
            a, b = value(node[1]), value(node[2])
            return None if a is None or b is None else a / b
        if kind == "sqrt":
            a = value(node[1])
            n = 2.0 if node[2] is None else value(node[2])
            return None if a is None or n is None or a < 0 else a ** (1 / n)
        if kind == "pow":
            a, b = value(node[1]), value(node[2])
            return None if a is None or b is None or abs(b) > 64 else float(a ** b)
        if kind in ("add", "mul"):
            a, b = value(node[2]), value(node[3])
            if a is None or b is None:
                return None
            op = node[1]
            if kind == "add":
                return a + b if op == "+" else a - b
            return a / b if op in ("/", "\\div") else a * b if op in ("", "\\cdot", "\\times", "*") else None
    except (ZeroDivisionError, OverflowError, ValueError, TypeError):
        return None
    return None


_FLOAT_FUNCTIONS = {"ln": lambda x: __import__("math").log(x), "log": lambda x: __import__("math").log10(x),
                    "exp": lambda x: __import__("math").exp(x), "sin": lambda x: __import__("math").sin(x),
                    "cos": lambda x: __import__("math").cos(x), "tan": lambda x: __import__("math").tan(x)}
_NAME_RE = re.compile(r"([A-Za-z])(?:_\{(\w+)\})?")


def _ungroup(node: tuple) -> tuple:
    while node[0] == "group":
        node = node[1]
    return node


def _check_name_order(names: tuple) -> None:
    """Values given by name (``(y, x) = (2, 1)``, ``y = 5, x = 6``) are compared in the order
    they are written, so their Latin letter names must be in alphabetical order: written in
    another order the values would be read against the wrong names. Greek letters and words
    are not checked (``(\\rho, \\theta, \\phi)`` has its own order)."""
    keys = []
    for name in names:
        m = _NAME_RE.fullmatch(str(name[1])) if name[0] == "var" else None
        if m is None:
            return
        sub = m.group(2) or ""
        keys.append((m.group(1).lower(), int(sub) if sub.isdigit() else -1, sub))
    if any(a >= b for a, b in zip(keys, keys[1:])) and len(set(keys)) == len(keys):
        shown = ", ".join(str(n[1]) for n in names)
        raise _Refused("unparsed", f"values named out of alphabetical order ({shown}): which value is which is "
                                   "read by position")


def _check_sides(sides: tuple) -> None:
    """Every side of an equation chain that is an expression of numbers must have the
    value of the last one: ``11 = 10`` or ``5 + 5 = 7 = 10`` state a falsehood, not 10."""
    last, _ = evaluate(sides[-1])
    for side in sides[:-1]:
        value, _ = evaluate(side) if last is not None else (None, False)
        if value is not None and _numbers_differ(side, value, sides[-1], last) \
                or value is None and _closed_differ(side, sides[-1]):
            raise _Refused("relation", f"an equation whose sides differ ({_with_unit(side)} is not "
                                       f"{_with_unit(sides[-1])})")


def _with_unit(node: tuple) -> str:
    return _shown(node) + (" " + " ".join(node[2]) if node[0] == "unit" else "")


def _numbers_differ(side: tuple, value: Fraction, last: tuple, last_value: Fraction) -> bool:
    """Two number sides differ; with units of one dimension on both, once converted
    (``\\$0.054 = 5.4 \\text{ cents}`` holds, ``5 \\text{ m} = 5 \\text{ km}`` does not)."""
    if side[0] == "unit" and last[0] == "unit":
        from rlvr.verifiers.answer.units import read_unit  # the unit tables (they import nothing of the grammar)

        a, b = read_unit(side[2]), read_unit(last[2])
        if a is not None and b is not None and a.kind in ("quantity", "money") and (a.kind, a.dims) == (b.kind, b.dims):
            return value * a.scale != last_value * b.scale
    percent = [n[0] == "unit" and n[2] == ("%",) for n in (side, last)]
    if percent[0] != percent[1]:  # "\\frac{1}{5} = 20\\%" and "0.2 \\times 100 = 20\\%" both hold
        hundredth = value / 100 if percent[0] else last_value / 100
        return value != last_value and (hundredth != (last_value if percent[0] else value))
    return value != last_value


def _closed(node: tuple) -> bool:
    """No letters: numbers, \\pi, roots and operators only."""
    if node[0] in ("var", "word", "text", "func", "bigop", "base", "matrix"):
        return False
    if node[0] == "const":
        return node[1] == "\\pi"
    return all(_closed(x) for x in node[1:] if isinstance(x, tuple) and x and isinstance(x[0], str))


def _closed_differ(side: tuple, last: tuple) -> bool:
    """Two sides without letters whose exact values (roots and \\pi kept exact, decimals
    left out) differ: ``\\sqrt{50} = 25`` is false."""
    if not (_closed(side) and _closed(last)):
        return False
    from rlvr.verifiers.answer.probe import probe_compare  # exact evaluation with square roots

    return probe_compare(side, last) is False


def check_computation(node: tuple) -> None:
    """An unmarked equation must be a checked computation: every side that is a number
    expression equals the last side (``37 + 45 = 82``), or it assigns a name (``x = 5``)."""
    if node[0] != "rel":
        return
    sides, ops = node[1], node[2]
    if any(op != "=" for op in ops):
        raise _Refused("relation", "an unmarked answer line with a relation other than =")
    last, _ = evaluate(sides[-1])
    for j, side in enumerate(sides[:-1]):
        if j == 0 and is_name(side) and len(sides) == 2:
            continue
        value, _ = evaluate(side)
        if value is None or last is None:
            raise _Refused("unparsed", "an unmarked equation whose sides are not numbers to check")
        if value != last:
            raise _Refused("relation", f"an unmarked equation whose sides differ ({_shown(side)} is not "
                                       f"{_shown(sides[-1])})")


# ------------------------------------------------------------------ outer wrappers

_DOUBLE_BACKSLASH_RE = re.compile(r"\\\\(?=[a-zA-Z])")
_MARKDOWN_BOLD_RE = re.compile(r"(?<![\w}])\*\*|\*\*(?![\w{\\(])")
_WRAPPER_CMD_RE = re.compile(r"\\(boxed|fbox|textbf|mathbf|displaystyle|color|textcolor)\s*")
_TRAILING_PUNCT = ".,;:"
_LETTERS_ANSWER_RE = re.compile(r"[A-Za-z][A-Za-z '\-]*[A-Za-z.]|[A-Za-z]|\([A-Za-z]\)")  # "n!" is a factorial


def _strip_trailing_punct(s: str) -> str:
    while s and s[-1] in _TRAILING_PUNCT and not s.endswith("..") and not s.endswith("\\,") \
            and not s.endswith("\\;") and not s.endswith("\\:"):
        s = s[:-1].rstrip()
    return s


def unwrap(text: str) -> tuple[str, bool]:
    """(the answer without its outer wrappers, whether math delimiters were removed)."""
    s = text.strip()
    math = False
    for _ in range(12):
        before = s
        s = _strip_trailing_punct(s)
        for opener, closer, inline in (("$$", "$$", False), ("\\[", "\\]", False), ("\\(", "\\)", True),
                                       ("$", "$", True)):
            if len(s) >= len(opener) + len(closer) and s.startswith(opener) and s.endswith(closer):
                inner = s[len(opener): len(s) - len(closer)]
                if opener == "$" and "$" in inner.replace("\\$", ""):
                    continue  # "$1$ and $2$": not one wrapper
                if inline and "\n" in inner:
                    raise _Refused("unparsed", "inline math that spans lines")
                s, math = inner.strip(), True
                break
        if s.startswith("**") and s.endswith("**") and len(s) > 4:
            s = s[2:-2].strip()
        m = _WRAPPER_CMD_RE.match(s)
        if m:
            name = m.group(1)
            end = m.end()
            if name == "displaystyle":
                s = s[end:].strip()
            elif name in ("color", "textcolor"):
                _, end = _read_group(s, end)
                if name == "textcolor" or s[end:].lstrip().startswith("{"):
                    rest = s[end:].lstrip()
                    if rest.startswith("{") and _group_end(rest, 0) == len(rest):
                        s = rest[1:-1].strip()
                else:
                    s = s[end:].strip()
            elif s[end: end + 1] == "{" and _group_end(s, end) == len(s):
                s, math = s[end + 1: -1].strip(), True
        if s.startswith("{") and _group_end(s, 0) == len(s) and s[1:].lstrip().startswith("\\color"):
            s = s[1:-1].strip()
        if s == before:
            break
    return s, math


def parse_answer(text: str, *, words: str = "math") -> Answer | Refusal:
    """Read one final answer (see the module docstring). ``words="exact"`` reads an
    answer of letters only as one text answer (``New York``); ``"math"`` splits a
    letters-only answer at ``and`` / ``or`` into a list."""
    try:
        return _parse(text, words)
    except _Refused as refused:
        return Refusal(refused.reason, refused.detail)
    except RecursionError:
        return Refusal("unparsed", "the answer nests too deeply")


def _parse(text: str, words: str) -> Answer:
    if len(text) > MAX_ANSWER_CHARS:
        raise _Refused("unparsed", f"an answer of {len(text)} characters (at most {MAX_ANSWER_CHARS})")
    text = plain_math(text.translate(_TRANSLATE))
    if "matrix" not in text and "array" not in text:
        text = _DOUBLE_BACKSLASH_RE.sub(r"\\", text)
    s, math = unwrap(text)
    if not s:
        raise _Refused("no_answer", "an empty answer")
    whole_text = re.fullmatch(r"\\(?:text|textnormal|textrm|mbox|textit|mathrm)\s*\{([^{}]*)\}", s)
    if whole_text and not re.search(r"\d", whole_text.group(1)):
        s = whole_text.group(1).strip()
        if not _LETTERS_ANSWER_RE.fullmatch(s) and not re.fullmatch(r"[A-Za-z0-9 '\-().,]+", s):
            raise _Refused("unparsed", f"text answer {s[:40]!r}")
        return _text_answer(s, words, forced=True)
    if _LETTERS_ANSWER_RE.fullmatch(s):
        return _text_answer(s, words, forced=False)
    dollars = len(re.findall(r"(?<!\\)\$", s))
    if dollars == 1:
        s = re.sub(r"(?<!\\)\$", r"\\$", s)
    elif dollars:
        if dollars % 2:
            raise _Refused("unparsed", "unbalanced $ delimiters")
        s = re.sub(r"(?<!\\)\$", " ", s)
    s = s.replace("\\(", " ").replace("\\)", " ").replace("\\[", " ").replace("\\]", " ")
    s = _MARKDOWN_BOLD_RE.sub(" ", s).strip()
    s = _strip_trailing_punct(s)
    if not math and _DECIMAL_COMMA_RE.fullmatch(s) and not re.fullmatch(r"[+-]?[1-9]\d{0,2}(?:,\d{3})+", s):
        s = s.replace(",", ".")  # plain text "1,22" is the decimal 1.22; "-2,1" (one digit after) is a list
    tokens = _Lexer(s).run()
    if not tokens:
        raise _Refused("no_answer", "an empty answer")
    if len(tokens) > MAX_TOKENS:
        raise _Refused("unparsed", f"an answer of {len(tokens)} tokens (at most {MAX_TOKENS})")
    node = _Parser(tokens).answer()
    return _make(node)


# a decimal comma in plain text: one comma, two or more digits after it ("1,22", "0,111",
# "1000,99"); with one digit after it ("-2,1", "1,2") the comma separates a list, as MATH writes one
_DECIMAL_COMMA_RE = re.compile(r"[+-]?\d+,\d{2,}")


def _text_answer(s: str, words: str, forced: bool) -> Answer:
    s = s.rstrip(".").strip()
    low = f" {s.lower()} "
    if words == "math" and (" and " in low or " or " in low):
        parts = [p.strip() for p in re.split(r"\s+(?:and|or)\s+", s, flags=re.I)]
        if all(parts):
            items = tuple(_text_answer(p, words, forced) for p in parts)
            return Answer(("list", tuple(a.node for a in items)), ", ".join(a.latex for a in items), None,
                          False, "list", items=items)
    latex = ""
    if not forced and " " not in s and "-" not in s and "'" not in s and len(s) <= 3:
        latex = s  # a short word also reads as a product of variables (xy, E)
    return Answer(("text", s), latex or f"\\text{{{s}}}", None, False, "text", text=s)


def _make(node: tuple) -> Answer:
    unit: tuple[str, ...] = ()
    while node[0] in ("group", "unit"):  # "(5)" is 5; "5 cm" is 5 with its unit
        if node[0] == "unit":
            unit = node[2] + unit
        node = node[1]
    value, decimal = evaluate(node) if node[0] not in ("list", "rel", "tuple", "set") else (None, False)
    items: tuple[Answer, ...] = ()
    if node[0] == "list":
        items = tuple(_make(x) for x in node[1])
    return Answer(node, _latex(node), value, decimal, node[0], items=items, unit=unit)


def rebuild(node: tuple) -> Answer:
    """An ``Answer`` for a node derived from a parsed one (after ``reduce_relations``)."""
    return _make(node)


Refused = _Refused  # raised by reduce_relations / check_computation
