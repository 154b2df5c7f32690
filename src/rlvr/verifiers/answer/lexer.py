"""The answer grammar's vocabulary and tokenizer: a closed set of tokens (numbers with
their separators, single-letter variables, a list of LaTeX commands, brackets,
operators, relations, unit words); any other word or command refuses the answer with a
reason. Also ``plain_math``: plain-text math as displayed (√2, ½, 10⁵) rewritten as
LaTeX before tokenizing. One left-to-right scan, linear in the input."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

from rlvr.verifiers.answer.result import _Refused
from rlvr.verifiers.answer.units import TEXT_UNIT_WORDS

# ------------------------------------------------------------------ vocabulary

UNIT_WORDS = frozenset("""
cm mm km meter meters metre metres centimeter centimeters centimetre centimetres millimeter millimeters
kilometer kilometers inch inches ft foot feet yard yards yd mile miles sq square cubic cu units unit
liter liters litre litres ml milliliter milliliters gallon gallons kg mg gram grams kilogram kilograms
pound pounds lb lbs ounce ounces oz ton tons tonne tonnes sec second seconds min minute minutes hr hrs
hour hours day days week weeks month months year years yr yrs mph kph kmh dollar dollars cent cents
euro euros yuan rupee rupees rs yen degree degrees deg radian radians rad percent percentage pct
""".split()) | frozenset(w for w in TEXT_UNIT_WORDS if len(w) >= 4 and w.isalpha())  # every spelled-out unit
# of the unit tables (kilometres, volts, hertz); their short symbols stay the tables' (a letter may be a variable)
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
_SKIP_COMMANDS = frozenset("left right big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr boxed fbox framebox "
                           "displaystyle textstyle mleft mright".split())
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
                            "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\u066b": ".", "\u066c": ",",
                            "\u2044": "/", "\u2215": "/"})  # the fraction slash and the division slash

_THOUSANDS_SEP = r"(?:\s?\{\s?,\s?\}\s?|,\\!\s?|\\,|\\!|\\\s|\s)"
# numbers as the world writes them, where only one reading exists: a dot group then a decimal comma
# ("12.345,67"), Swiss apostrophes ("1'234'567"), Indian grouping ("1,00,000": groups of two before the
# last three), and scientific notation with a decimal mantissa or a signed or two-digit exponent
# ("6.02e23", "1.2e-4"; "1e1" is left refused: a red-team row reads it as 1·e·1). Dots alone as
# thousands separators are read where a decimal reading is impossible: two or more dot groups
# ("2.500.000", "1.234.567"); one dot group ("1.500") stays a decimal point. LaTeX's decimal comma
# ``{,}`` (``2{,}5``, ``3{,}25``: the braces keep math mode from spacing a comma) is a decimal mark
# unless exactly three digits follow it, where it groups thousands (``1{,}000``) as English LaTeX
# writes them; a plain comma with one digit after it ("1,5") stays a list, as MATH writes one.
_WORLD_NUM = (r"(?P<dotcomma>[1-9]\d{0,2}(?:\.\d{3})+,\d+(?![\d.,]))"
              r"|(?P<dots>[1-9]\d{0,2}(?:\.\d{3}){2,}(?![\d.,]))"
              r"|(?P<bracecomma>\d+\{\s?,\s?\}(?!\d{3}(?!\d))\d+(?![\d{.,]))"
              r"|(?P<apos>[1-9]\d{0,2}(?:['’]\d{3})+(?![\d'’.]))"
              r"|(?P<indian>[1-9]\d?(?:,\d{2})+,\d{3}(?![\d,.]))"
              r"|(?P<sci>\d+\.\d+[eE][-+]?\d{1,3}|\d+[eE](?:[-+]\d{1,3}|\d{2,3}))(?![\d.A-Za-z])|")
_NUM_RE = re.compile(
    _WORLD_NUM + r"(?P<rep>\d*\.\d*\\overline\s*\{\d+\})"
    r"|(?P<base>\d+_(?:\{\d+\}|\d)(?![\d.]))"
    r"|(?P<grp>[1-9]\d{0,2}(?:" + _THOUSANDS_SEP[:-1] + r"|,)\d{3})+(?![\d])(?:\.\d+)?)"
    r"|(?P<num>\d+\.\d+|\.\d+|\d+)")
_NUM_IN_BRACKETS_RE = re.compile(
    _WORLD_NUM + r"(?P<rep>\d*\.\d*\\overline\s*\{\d+\})"
    r"|(?P<base>\d+_(?:\{\d+\}|\d)(?![\d.]))"
    r"|(?P<grp>[1-9]\d{0,2}(?:" + _THOUSANDS_SEP + r"\d{3})+(?![\d])(?:\.\d+)?)"
    r"|(?P<num>\d+\.\d+|\.\d+|\d+)")
_LETTERS_RE = re.compile(r"[A-Za-z]+")
_COMMAND_RE = re.compile(r"\\([A-Za-z]+)")
_REP_RE = re.compile(r"(\d*)\.(\d*)\\overline\s*\{(\d+)\}")
_DEGREE_RE = re.compile(r"\^\s*(?:\\circ|\{\s*\\circ\s*\})")
# the scale after a degree sign: a temperature (°C, °F), each scale its own unit (answer.units)
_TEMPERATURE_SCALE_RE = re.compile(r"\s*(?:\\(?:text|mathrm|textrm|mbox)\s*\{\s*([CF])\s*\}|\{\s*([CF])\s*\}"
                                   r"|([CF])(?![A-Za-z]))")
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
                i = self.degree(_DEGREE_RE.match(s, i).end())  # type: ignore[union-attr]
            else:
                i = self.symbol(i)
        return self.tokens

    def degree(self, i: int) -> int:
        """A degree sign, then a temperature scale if one follows (``^\\circ\\text{C}``, ``°F``)."""
        scale = _TEMPERATURE_SCALE_RE.match(self.s, i)
        if scale is None:
            self.add("unit", "°")
            return i
        self.add("unit", "°" + (scale.group(1) or scale.group(2) or scale.group(3)))
        return scale.end()

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
        elif m.group("sci"):
            exact = Decimal(text)
            digits = format(exact, "f")
            self.add("num", (Fraction(exact), "." in digits, digits))
        elif m.group("dotcomma") or m.group("dots") or m.group("bracecomma"):
            digits = re.sub(r"[{}\s]", "", text).replace(".", "").replace(",", ".")
            self.add("num", (Fraction(digits), "." in digits, digits))
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
        elif ch == "°":
            return self.degree(i + 1)
        elif ch in "℃℉":
            self.add("unit", "°C" if ch == "℃" else "°F")
        elif ch == "%":
            self.add("unit", "%")
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
