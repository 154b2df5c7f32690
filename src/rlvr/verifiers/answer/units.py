"""Units and currencies as data: each word or sign names a dimension and an exact scale.

``read_unit(tokens)`` reads the unit tokens the answer grammar keeps with a value
(``Answer.unit``: ``("cm^2",)``, ``("km", "/", "hr")``, ``("$",)``, ``("%",)``) into a
``Unit``: its kind (quantity, money, percent, angle, congruence, or unknown: words that do
not make one unit of the tables), dimension and scale. ``answer.values`` and
``answer.compare`` read it; so does the grammar's check that an equation's sides agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

# Inside \\text{} (where a letter is no variable) every word of these tables is a unit: TEXT_UNIT_WORDS.
# dimension (a base, or base/base), scale to the dimension's base unit, the words (and symbols) that name it.
# Every word of answer_grammar.UNIT_WORDS is here (tested). "ton" is left its own dimension
# (a short, long or metric ton); a month has no fixed number of days (a year is 12 months).
# A kilobyte is 1000 bytes (KiB: 1024). Each temperature scale is its own dimension: the scales
# differ by an offset, so 300 K is never read as 27 °C (a mismatch, not a conversion).
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
time 1/1000 ms millisecond milliseconds
frequency 1 Hz hertz
frequency 1000 kHz kilohertz
frequency 1000000 MHz megahertz
frequency 1000000000 GHz gigahertz
energy 1 J joule joules
energy 1000 kJ kilojoule kilojoules
energy 1000000 MJ megajoule megajoules
energy 801088317/5000000000000000000000000000 eV electronvolt electronvolts
energy 801088317/5000000000000000000000000 keV kiloelectronvolt kiloelectronvolts
energy 801088317/5000000000000000000000 MeV megaelectronvolt megaelectronvolts
energy 801088317/5000000000000000000 GeV gigaelectronvolt gigaelectronvolts
energy 523/125 cal calorie calories
energy 4184 kcal kilocalorie kilocalories
energy 3600 Wh
energy 3600000 kWh
pressure 1 Pa pascal pascals
pressure 1000 kPa kilopascal kilopascals
pressure 1000000 MPa megapascal megapascals
pressure 101325 atm atmosphere atmospheres
power 1000000 MW megawatt megawatts
length 1/1000000 μm micrometer micrometers micron microns
length 1/1000000000 nm nanometer nanometers nanometre nanometres
time 1/1000000 μs microsecond microseconds
time 1/1000000000 ns nanosecond nanoseconds
force 1 N newton newtons
force 1000 kN kilonewton kilonewtons
power 1 W watt watts
power 1000 kW kilowatt kilowatts
current 1 A ampere amperes amp amps
current 1/1000 mA milliampere milliamperes
voltage 1 V volt volts
voltage 1/1000 mV millivolt millivolts
voltage 1000 kV kilovolt kilovolts
resistance 1 Ω ohm ohms
resistance 1000 kΩ kiloohm kiloohms
information 1 bit bits
information 8 byte bytes
information 8000 kB KB kilobyte kilobytes
information 8000000 MB megabyte megabytes
information 8000000000 GB gigabyte gigabytes
information 8000000000000 TB terabyte terabytes
information 8192 KiB kibibyte kibibytes
information 8388608 MiB mebibyte mebibytes
information 8589934592 GiB gibibyte gibibytes
celsius 1 °C ℃ celsius
fahrenheit 1 °F ℉ fahrenheit
kelvin 1 kelvin kelvins
"""
# currency, scale to the currency's main unit, the words and signs that name it
CURRENCY_TABLE = """
USD 1 $ dollar dollars USD usd
USD 1/100 cent cents
EUR 1 € euro euros EUR eur
GBP 1 £ GBP gbp
JPY 1 yen JPY jpy
CNY 1 yuan CNY cny
YEN_OR_YUAN 1 ¥
INR 1 ₹ rupee rupees rs INR inr
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
TEXT_UNIT_WORDS = frozenset(w.lower() for w in (*UNITS, *CURRENCIES) if w.isalpha())


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


def _unit_key(word: str) -> str:
    """The table key of a unit word. Symbols of up to three letters are read with their case
    (``Mm`` is a megametre, not ``mm``; ``Mg`` is not ``mg``): only the table's own spelling or an
    all-lower-case one counts, and ``L`` / ``mL`` are litres. Longer words ("Meters", "HOURS")
    are read in lower case."""
    if word in _CASED:
        return _CASED[word]
    bare = word[:-2] if word.endswith(("^2", "^3")) else word
    if len(bare) > 3 or bare.lower() in ("/", "per") or bare.lower() in _SQUARE_WORDS:
        return word.lower()
    return word  # as written: a symbol in another case is not in the tables, so the unit is unknown


_CASED = {"L": "l", "mL": "ml"}


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
    for word in (_unit_key(w) for w in words):
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
    if power != 1:  # "5 square": a square word with no unit after it
        return Unit("unknown", text)
    kind = "money" if any(d in {c for c, _ in CURRENCIES.values()} for d in dims) else "quantity"
    return Unit(kind, text, tuple(sorted((d, p) for d, p in dims.items() if p)), scale)
