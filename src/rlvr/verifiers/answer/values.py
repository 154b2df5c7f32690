"""Typed values: what a parsed answer means, beyond its number.

``typed(answer, name)`` turns an ``Answer`` of the answer grammar into a ``Value`` whose
``kind`` is one of ``KINDS``: a number (exact, or a decimal with its stated places), a
quantity (number + unit with the unit's dimension and scale), money (a currency), a
percent, an angle (degrees or radians), a congruence (value, modulus), a ratio or clock time
(``:`` is no division), a list (a multiset), a set, a tuple or interval, a matrix /
determinant / norm (``vmatrix`` / ``Vmatrix`` are not ``pmatrix``), a ± pair, a text answer,
an expression. An equation ``y = 5`` keeps its named side (``name``). ``answer.compare``
compares two of them. The units and currencies are data (``UNIT_TABLE``,
``CURRENCY_TABLE``); docs/verifiers.md has the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from rlvr.verifiers.answer.parse import Answer, _latex, is_name, rebuild

KINDS: tuple[str, ...] = ("number", "quantity", "money", "percent", "angle", "congruence", "ratio", "time", "list",
                          "set", "tuple", "interval", "matrix", "determinant", "norm", "plusminus", "text",
                          "expression")
MATRIX_KINDS = {"pmatrix": "matrix", "bmatrix": "matrix", "Bmatrix": "matrix", "matrix": "matrix",
                "smallmatrix": "matrix", "array": "matrix", "vmatrix": "determinant", "Vmatrix": "norm"}

# dimension (a base, or base/base), scale to the dimension's base unit, the words (and symbols) that name it.
# Every word of answer_grammar.UNIT_WORDS is here (tested). "ton" is left its own dimension
# (a short, long or metric ton); a month has no fixed number of days (a year is 12 months).
UNIT_TABLE = """
length 1/1000 mm millimeter millimeters millimetre millimetres
length 1/100 cm centimeter centimeters centimetre centimetres
length 1 m meter meters metre metres
length 1000 km kilometer kilometers kilometre kilometres
length 127/5000 in inch inches
length 381/1250 ft foot feet
length 1143/1250 yd yard yards
length 201168/125 mile miles mi
volume 1/1000 liter liters litre litres l
volume 1/1000000 ml milliliter milliliters
volume 473176473/125000000000 gallon gallons
mass 1/1000000 mg milligram milligrams
mass 1/1000 g gram grams
mass 1 kg kilogram kilograms
mass 45359237/100000000 lb lbs pound pounds
mass 45359237/1600000000 oz ounce ounces
mass 1000 tonne tonnes
ton 1 ton tons
time 1 s sec second seconds
time 60 min minute minutes
time 3600 h hr hrs hour hours
time 86400 day days
time 604800 week weeks
month 1 month months
month 12 yr yrs year years
length/time 1397/3125 mph
length/time 5/18 kph kmh
count 1 unit units
"""
# currency, scale to the currency's main unit, the words and signs that name it
CURRENCY_TABLE = """
USD 1 $ dollar dollars
USD 1/100 cent cents
EUR 1 € euro euros
GBP 1 £
JPY 1 yen
CNY 1 yuan
YEN_OR_YUAN 1 ¥
INR 1 ₹ rupee rupees rs
"""
PERCENT_WORDS = frozenset({"%", "percent", "percentage", "pct"})
DEGREE_WORDS = frozenset({"°", "degree", "degrees", "deg"})
RADIAN_WORDS = frozenset({"radian", "radians", "rad"})
_SQUARE_WORDS = {"sq": 2, "square": 2, "cubic": 3, "cu": 3}


def _table(text: str) -> dict[str, tuple[str, Fraction]]:
    out = {}
    for line in text.strip().splitlines():
        dim, scale, *words = line.split()
        for word in words:
            out[word] = (dim, Fraction(scale))
    return out


UNITS = _table(UNIT_TABLE)
CURRENCIES = _table(CURRENCY_TABLE)


@dataclass(frozen=True)
class Unit:
    """A unit read from the words and signs written after (or before) a value.

    ``kind``: quantity | money | percent | angle | congruence | unknown (words that do not
    combine into one unit; compared as written). ``dims``: the dimension as sorted
    (base, power) pairs (``m^2`` → (("length", 2),), ``km/hr`` → length 1, time -1; a
    currency is its own base); ``scale``: the factor to the base units (exact);
    ``angle``: "degree" or "radian"; ``modulus``: N of ``\\pmod{N}``; ``text``: as written."""

    kind: str
    text: str
    dims: tuple[tuple[str, int], ...] = ()
    scale: Fraction = Fraction(1)
    angle: str = ""
    modulus: int | None = None


def _words(tokens: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for token in tokens:
        if token.startswith("\\pmod"):
            out.append(token)
            continue
        for word in token.replace("/", " / ").split():
            for sup, exp in (("²", "^2"), ("³", "^3")):
                word = word.replace(sup, exp)
            out.append(word)
    return out


def read_unit(tokens: tuple[str, ...]) -> Unit | None:
    """The unit of a value's unit tokens (``Answer.unit``); None when there are none."""
    if not tokens:
        return None
    words = _words(tokens)
    text = " ".join(words)
    low = [w.lower() for w in words]
    if all(w in PERCENT_WORDS for w in low):
        return Unit("percent", text)
    if all(w in DEGREE_WORDS for w in low):
        return Unit("angle", text, angle="degree")
    if all(w in RADIAN_WORDS for w in low):
        return Unit("angle", text, angle="radian")
    if len(low) == 1 and low[0].startswith("\\pmod{"):
        return Unit("congruence", text, modulus=int(low[0][6:-1]))
    if all(w in CURRENCIES for w in low):
        found = {CURRENCIES[w] for w in low}
        if len(found) == 1:
            (currency, scale), = found
            return Unit("money", text, ((currency, 1),), scale)
        return Unit("unknown", text)
    dims: dict[str, int] = {}
    scale, sign, power = Fraction(1), 1, 1
    for word in low:
        if word in ("/", "per"):
            sign = -1
            continue
        if word in _SQUARE_WORDS:
            power = _SQUARE_WORDS[word]
            continue
        exp = 1
        if word.endswith(("^2", "^3")):
            word, exp = word[:-2], int(word[-1])
        if word not in UNITS and word not in CURRENCIES:
            return Unit("unknown", text)
        dim, factor = UNITS[word] if word in UNITS else CURRENCIES[word]
        exp *= power * sign
        power = 1
        for k, base in enumerate(dim.split("/")):  # "length/time": a speed
            dims[base] = dims.get(base, 0) + (exp if k == 0 else -exp)
        scale *= factor ** exp
    if power != 1 and not dims:
        return Unit("unknown", text)
    if power != 1:  # "5 square": a square word with no unit after it
        return Unit("unknown", text)
    kind = "money" if any(d in {c for c, _ in CURRENCIES.values()} for d in dims) else "quantity"
    return Unit(kind, text, tuple(sorted((d, p) for d, p in dims.items() if p)), scale)


@dataclass(frozen=True)
class Value:
    """One typed value. ``answer``: the bare value (the grammar's ``Answer`` without its unit
    and name), what the number / expression comparison reads; ``unit``: its ``Unit``;
    ``name``: the named side of an equation (a syntax node: ``y`` of ``y = 5``, ``(x, y)``
    of ``(x, y) = (1, 2)``); ``parts``: a ratio's terms, a list's items, a ± pair's two
    values; ``places``: a decimal literal's stated decimal places."""

    kind: str
    answer: Answer
    unit: Unit | None = None
    name: tuple | None = None
    parts: tuple[Value, ...] = field(default=(), compare=False)
    places: int | None = None

    def show(self) -> str:
        """The value as a reader would write it, with its kind: ``y = 90 min (quantity)``."""
        return f"{self.written()} ({self.kind})"

    def written(self) -> str:
        """The value as a reader would write it: its LaTeX with the units and the name."""
        body = self.answer.text if self.kind == "text" else self.answer.latex
        node = self.answer.node
        if self.kind in ("tuple", "interval", "set") and any(item[0] == "unit" for item in node[1]):
            opener, closer = ("\\{", "\\}") if self.kind == "set" else node[2:4]
            body = opener + ", ".join(typed(rebuild(item)).written() for item in node[1]) + closer
        if self.places is not None:
            node = self.answer.node
            body = ("-" if node[0] == "neg" else "") + _digits(node)
        if self.kind in ("matrix", "determinant", "norm"):
            env = {"matrix": "pmatrix", "determinant": "vmatrix", "norm": "Vmatrix"}[self.kind]
            body = body.replace("pmatrix", env)
        if self.unit is not None:
            body = f"{body} {self.unit.text}"
        if self.name is not None:
            body = f"{_latex(self.name)} = {body}"
        return body


def _digits(node: tuple) -> str:
    while node[0] in ("neg", "pos", "group"):
        node = node[1]
    return str(node[3])


def decimal_places(node: tuple) -> int | None:
    """The decimal places a decimal literal states (``666667.0`` → 1, ``-0.50`` → 2); None
    for anything that is not a (signed) decimal literal."""
    while node[0] in ("neg", "pos", "group"):
        node = node[1]
    if node[0] == "num" and node[2] and len(node) > 3 and "." in node[3]:
        return len(node[3]) - node[3].index(".") - 1
    return None


def _has_pm(node: tuple) -> bool:
    if node[0] in ("pm", "pm1"):
        return True
    return any(isinstance(x, tuple) and x and isinstance(x[0], str) and _has_pm(x) for x in node[1:])


def pm_branch(node: tuple, sign: int) -> tuple:
    """The node with every ± read as ``sign`` (+1 or -1; ∓ the other way): ``\\pm 2 + 3`` →
    ``2 + 3`` and ``-2 + 3``, never ±(2 + 3)."""
    kind = node[0]
    if kind == "pm":
        s = sign if node[1] == "\\pm" else -sign
        return ("add", "+" if s > 0 else "-", pm_branch(node[2], sign), pm_branch(node[3], sign))
    if kind == "pm1":
        s = sign if node[1] == "\\pm" else -sign
        inner = pm_branch(node[2], sign)
        return inner if s > 0 else ("neg", inner)
    return tuple(pm_branch(x, sign) if isinstance(x, tuple) and x and isinstance(x[0], str) else x for x in node)


def _ratio_terms(node: tuple) -> list[tuple] | None:
    if node[0] == "mul" and node[1] == ":":
        left = _ratio_terms(node[2])
        return None if left is None else left + [node[3]]
    if node[0] == "mul" and ":" in _ops(node):
        return None  # a ratio inside a product: not one ratio
    return [node]


def _ops(node: tuple) -> set:
    if node[0] != "mul":
        return set()
    return {node[1]} | _ops(node[2]) | _ops(node[3])


def _clock(terms: list[tuple]) -> bool:
    """h:mm — two integer terms, the second written with two digits below 60."""
    if len(terms) != 2 or any(t[0] != "num" or t[2] for t in terms):
        return False
    minutes = terms[1]
    return len(minutes) > 3 and len(minutes[3]) == 2 and minutes[1] < 60


def named_list(node: tuple) -> tuple[tuple, tuple] | None:
    """``\\alpha = 1, \\beta = 2`` as (the name tuple, the value tuple), to be read by name
    against a reference ``(\\alpha, \\beta) = (1, 2)``; None for anything else."""
    while node[0] == "group":
        node = node[1]
    if node[0] != "list":
        return None
    items = [x[1] if x[0] == "group" else x for x in node[1]]
    if not all(x[0] == "rel" and x[2] == ("=",) and is_name(x[1][0]) for x in items):
        return None
    return ("tuple", tuple(x[1][0] for x in items), "(", ")"), ("tuple", tuple(x[1][1] for x in items), "(", ")")


def typed(answer: Answer, name: tuple | None = None) -> Value:
    """The typed value of a parsed answer (``name``: the named side it was stated with)."""
    unit = read_unit(answer.unit) if answer.unit else None
    node = answer.node
    if unit is not None:
        kind = {"unknown": "quantity"}.get(unit.kind, unit.kind)
        return Value(kind, answer, unit, name, places=decimal_places(node))
    if answer.kind == "list":
        return Value("list", answer, None, name, tuple(typed(item) for item in answer.items))
    if answer.kind in ("pm", "pm1") or (answer.value is None and answer.kind not in ("set", "tuple", "matrix")
                                         and ("\\pm" in answer.latex or "\\mp" in answer.latex) and _has_pm(node)):
        branches = tuple(typed(rebuild(pm_branch(node, s))) for s in (1, -1))
        return Value("plusminus", answer, None, name, branches)
    if answer.kind == "matrix":
        return Value(MATRIX_KINDS.get(node[2] if len(node) > 2 else "pmatrix", "matrix"), answer, None, name)
    if answer.kind == "tuple":
        interval = (node[2], node[3]) != ("(", ")")
        return Value("interval" if interval else "tuple", answer, None, name)
    if answer.kind == "set":
        return Value("set", answer, None, name)
    if answer.kind == "text":
        return Value("text", answer, None, name)
    terms = _ratio_terms(node) if answer.kind == "mul" else None
    if terms is not None and len(terms) > 1:
        kind = "time" if _clock(terms) else "ratio"
        return Value(kind, answer, None, name, tuple(typed(rebuild(t)) for t in terms))
    if answer.value is not None:
        return Value("number", answer, None, name, places=decimal_places(node))
    return Value("expression", answer, None, name)
