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

The steps live in their own modules: ``result`` (``Answer``, ``Refusal``), ``lexer``
(vocabulary and tokens), ``grammar`` (the parser), ``tree`` (LaTeX and exact values),
``relations`` (what an equation states); this module reads a whole answer with them
(``unwrap`` the wrappers, tokenize, parse, build the ``Answer``) and is where the
grammar's names are imported from. Every step runs in time linear in its input: one
left-to-right scan, then a parser that consumes one token per step.
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction

from rlvr.verifiers.answer.grammar import _Parser
from rlvr.verifiers.answer.lexer import _TRANSLATE, FUNCTIONS, UNIT_WORDS, _group_end, _Lexer, _read_group, plain_math
from rlvr.verifiers.answer.relations import check_computation, has_relation, is_name, reduce_relations
from rlvr.verifiers.answer.result import (
    MAX_ANSWER_CHARS,
    MAX_TOKENS,
    REASONS,
    Answer,
    Refusal,
    Refused,
    _Refused,
    norm_text,
)
from rlvr.verifiers.answer.tree import _latex, evaluate

# the grammar's names, importable from here (the step modules hold them)
__all__ = ["FUNCTIONS", "MAX_ANSWER_CHARS", "MAX_TOKENS", "REASONS", "UNIT_WORDS", "Answer", "Refusal", "Refused",
           "check_computation", "evaluate", "has_relation", "is_name", "norm_text", "parse_answer", "plain_math",
           "rebuild", "reduce_relations", "unwrap"]


# ------------------------------------------------------------------ outer wrappers

_DOUBLE_BACKSLASH_RE = re.compile(r"\\\\(?=[a-zA-Z])")
# a power as Python writes it, with a whole number or one letter for exponent ("X**5", "(x+1)**12")
_PYTHON_POWER_RE = re.compile(r"(?<=[A-Za-z0-9)])\*\*(\d+|[A-Za-z])(?![\w.(])")
# bold markers; not "**" between an operand and a sign ("2**-1" is a power, not "2-1")
_MARKDOWN_BOLD_RE = re.compile(r"(?<![\w}])\*\*|(?<![\w)])\*\*(?![\w{\\(])|\*\*(?![\w{\\(+\-])")
_WRAPPER_CMD_RE = re.compile(r"\\(boxed|fbox|framebox|textbf|mathbf|displaystyle|color|textcolor)\s*")
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


_DIGIT_RUN_RE = re.compile(r"\d+")


def ascii_digits(text: str) -> str:
    """Numbers written in the digits of another script read as the ASCII digits they are (``٤٢``,
    ``४२``, ``４２``, ``৪২``): each run of digits must be of one script; a run that mixes scripts
    (``1٥``, where ``٥`` looks like ``o``) shows a number that is not the one read, and is refused."""
    if text.isascii():
        return text

    def one(m: re.Match[str]) -> str:
        run = m.group(0)
        if run.isascii():
            return run
        scripts = {unicodedata.name(c, "").rsplit(" DIGIT", 1)[0] for c in run}
        if len(scripts) > 1:
            raise _Refused("unparsed", f"a number written in the digits of two scripts: {run!r}")
        return "".join(str(unicodedata.digit(c)) for c in run)
    return _DIGIT_RUN_RE.sub(one, text)


_HAN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
               "八": 8, "九": 9}
_HAN_UNITS = {"十": 10, "百": 100, "千": 1000}
_HAN_BIG = {"万": 10 ** 4, "萬": 10 ** 4, "亿": 10 ** 8, "億": 10 ** 8}
_HAN_NUMBER_RE = re.compile(r"\s*(-|负|負)?([零〇一二两兩三四五六七八九十百千万萬亿億]+)\s*[。.]?\s*")


def han_number(text: str) -> str | None:
    """A whole answer written as a Chinese or Japanese numeral (``四十二``, ``一百零五``, ``两万三千``,
    ``二〇二六``) as ASCII digits; None when the text is not one well-formed numeral. Digits with
    place words (十, 百, 千, then 万, 亿) are read by value, digits alone by position."""
    m = _HAN_NUMBER_RE.fullmatch(text)
    if m is None:
        return None
    chars, sign = m.group(2), "-" if m.group(1) else ""
    if all(c in _HAN_DIGITS for c in chars):
        return sign + "".join(str(_HAN_DIGITS[c]) for c in chars)
    total = section = 0
    digit: int | None = None
    last_unit = 10 ** 9
    for c in chars:
        if c in _HAN_DIGITS:
            if digit is not None and digit != 0 and _HAN_DIGITS[c] != 0:
                return None  # two digits side by side among place words: no one reading
            digit = _HAN_DIGITS[c] if c not in "零〇" else 0
        elif c in _HAN_UNITS:
            unit = _HAN_UNITS[c]
            if unit >= last_unit or (digit == 0):
                return None
            section += (1 if digit is None and c == "十" else (digit if digit is not None else -1)) * unit
            if section < 0:
                return None
            last_unit, digit = unit, None
        else:
            section += digit or 0
            if section == 0:
                return None
            total += section * _HAN_BIG[c]
            section, digit, last_unit = 0, None, 10 ** 9
    if digit and last_unit >= 100 and chars[-2] in _HAN_UNITS:
        return None  # "五百五" says 550 in speech, 505 by the digits: no one reading
    return sign + str(total + section + (digit or 0))


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
    han = han_number(text) if not text.isascii() else None
    text = plain_math(ascii_digits(han or text).translate(_TRANSLATE))
    if "matrix" not in text and "array" not in text:
        text = _DOUBLE_BACKSLASH_RE.sub(r"\\", text)
    s, math = unwrap(text)
    quoted = _QUOTED_RE.fullmatch(_strip_trailing_punct(s))
    if quoted:
        s = quoted.group(2).strip()  # "'blue'", "“12”": the quotation marks are not the value
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
    s = _PYTHON_POWER_RE.sub(r"^{\1}", s)
    s = _MARKDOWN_BOLD_RE.sub(" ", s).strip()
    s = _strip_trailing_punct(s)
    s = _one_typed_value(s.replace("{:}", ":"))
    if _EMPTY_SET_RE.fullmatch(s):
        s = "\\varnothing"
    if not math and _DECIMAL_COMMA_RE.fullmatch(s) and not re.fullmatch(r"[+-]?[1-9]\d{0,2}(?:,\d{3})+", s):
        s = s.replace(",", ".")  # plain text "1,22" is the decimal 1.22; "-2,1" (one digit after) is a list
    tokens = _Lexer(s).run()
    if not tokens:
        raise _Refused("no_answer", "an empty answer")
    if len(tokens) > MAX_TOKENS:
        raise _Refused("unparsed", f"an answer of {len(tokens)} tokens (at most {MAX_TOKENS})")
    node = _Parser(tokens).answer()
    return _make(node)


_CLOCK_12H_RE = re.compile(r"\s*(\d{1,2})(?::(\d{2}))?\s*(?:\\(?:text|mathrm|textrm|mbox)\s*\{\s*)?"
                           r"([AaPp])\.?\s*[Mm]\.?(?:\s*\})?\s*")
_QUANTITY_ITEM = (r"(\d+(?:\.\d+)?)\s*(?:\\(?:text|mathrm|textrm|mbox)\s*\{\s*([A-Za-z]+)\.?\s*\}|([A-Za-z]+)\.?)")
_QUANTITY_ITEM_RE = re.compile(_QUANTITY_ITEM)
_QUANTITY_JOIN_RE = re.compile(r",|and|\\text\s*\{\s*and\s*\}")  # between the parts, spaces aside


def _one_typed_value(s: str) -> str:
    """Two forms that write one value in several parts, as the grammar reads it: a clock time
    with AM/PM as the 24-hour time (``3:00 PM`` is ``15:00``, ``12 AM`` is ``0:00``), and a
    compound quantity in units of one dimension, largest first, as one quantity in the
    smallest (``2 hours 30 minutes`` is ``150 minutes``, ``5 ft 6 in`` is ``66 in``)."""
    clock = _CLOCK_12H_RE.fullmatch(s)
    if clock is not None:
        hour, minutes = int(clock.group(1)), int(clock.group(2) or 0)
        if 1 <= hour <= 12 and minutes < 60:
            return f"{hour % 12 + (12 if clock.group(3).lower() == 'p' else 0)}:{minutes:02d}"
        return s
    items = list(_QUANTITY_ITEM_RE.finditer(s)) if s[:1].isdigit() or s[:1].isspace() else []
    gaps = [s[a.end():b.start()].strip() for a, b in zip(items, items[1:])]
    if len(items) < 2 or s[:items[0].start()].strip() or s[items[-1].end():].strip() \
            or any(gap and not _QUANTITY_JOIN_RE.fullmatch(gap) for gap in gaps):
        return s  # parts and their joins must make the whole text: read without one regex over it (linear)
    from rlvr.verifiers.answer.units import read_unit  # the unit tables (they import nothing of the grammar)

    parts = [(Fraction(m.group(1)), m.group(2) or m.group(3)) for m in items]
    units = [read_unit((word,)) for _, word in parts]
    if any(u is None or u.kind != "quantity" or u.dims != units[0].dims for u in units) \
            or any(a.scale <= b.scale for a, b in zip(units, units[1:])) \
            or any(value.denominator != 1 for value, _ in parts[:-1]):
        return s
    total = sum(value * unit.scale for (value, _), unit in zip(parts, units)) / units[-1].scale
    shown = str(total.numerator) if total.denominator == 1 else f"\\frac{{{total.numerator}}}{{{total.denominator}}}"
    return f"{shown} \\text{{ {parts[-1][1]}}}"


# quotation marks around a whole answer, also backslash-escaped ones (\\"12\\", a string escaped twice)
_QUOTED_RE = re.compile(r"(\\?['\"\u2018\u201c])(.+?)(\\?['\"\u2019\u201d])")
_EMPTY_SET_RE = re.compile(r"\\\{\s*\\\}|\{\s*\}")  # "\\{\\}": the empty set

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

