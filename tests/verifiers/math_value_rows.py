"""Typed-value rows for the math and exact verifiers: answers that state a wrong value the
comparison used to throw away (a unit, a currency, a percent sign, degrees or radians, a
modulus, an equation's named side, a multiplicity, ``:`` read as division, a decimal's
stated precision, the scope of ±, the kind of a matrix), answers that cover several
reference values, answers that state the right value and disown it, and beside them the
true equivalences of every family, so that precision is not bought by refusing everything.

Same row format as ``math_redteam_rows.ROWS``: (family, reference, completion, math,
exact), ``exact`` None where exact match is not meant to decide. ``FAMILY_KIND`` says what
each family is: ``wrong_value`` and ``cover`` rows must earn 0 (all of them), ``correct``
rows 1, ``disowned`` rows state the right value and disown it: their ideal is 0, and the
rate at which they are paid is measured (``DISOWNED_PAID``; docs/verifiers.md).

Which equivalences are true, as decided here (docs/verifiers.md, "Typed values"): a
unit the reference leaves out may be written (``90 \\text{ minutes}`` for 90); an answer
without the reference's unit is read in it (``90`` for 90 minutes, ``1.5`` is not); units
convert exactly (90 minutes = 1.5 hours, 5000 m = 5 km, 12 inches = 1 foot, 500 cents =
$5); a percent answer matches a plain reference of magnitude 1 or more (``25\\%`` for 25),
never one below 1 (``50\\%`` is not 0.5, ``\\frac14\\%`` is not 1/4); degrees and radians
convert (60° = π/3); ratios of numbers are equal up to a positive factor (2:4 = 1:2), clock
times only as written; a list is a multiset in any order; ± is its two values.
"""

from __future__ import annotations

PM = "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}"
BM = "\\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}"
VM = "\\begin{vmatrix} 1 & 2 \\\\ 3 & 4 \\end{vmatrix}"
NM = "\\begin{Vmatrix} 1 & 2 \\\\ 3 & 4 \\end{Vmatrix}"

# (family, reference, completion, math, exact)
ROWS: list[tuple[str, str, str, int, int | None]] = [
    # -- units of time, length, area, volume, mass, speed: the same number in another unit
    ("unit", "90 \\text{ minutes}", "\\boxed{90 \\text{ seconds}}", 0, 0),
    ("unit", "90 \\text{ minutes}", "The answer is \\boxed{90} seconds.", 0, 0),
    ("unit", "90 \\text{ minutes}", "\\boxed{1.5}", 0, 0),
    ("unit", "2 \\text{ hours}", "\\boxed{2 \\text{ minutes}}", 0, 0),
    ("unit", "3 \\text{ weeks}", "\\boxed{3 \\text{ days}}", 0, 0),
    ("unit", "1 \\text{ year}", "\\boxed{1 \\text{ month}}", 0, 0),
    ("unit", "5 \\text{ km}", "\\boxed{5 \\text{ m}}", 0, 0),
    ("unit", "3 \\text{ feet}", "\\boxed{3 \\text{ inches}}", 0, 0),
    ("unit", "2 \\text{ miles}", "\\boxed{2 \\text{ km}}", 0, 0),
    ("unit", "10 \\text{ cm}", "\\boxed{10 \\text{ mm}}", 0, 0),
    ("unit", "4 \\text{ yards}", "\\boxed{4 \\text{ feet}}", 0, 0),
    ("unit", "12 \\text{ cm}^2", "\\boxed{12 \\text{ m}^2}", 0, 0),
    ("unit", "12 \\text{ cm}^2", "\\boxed{12 \\text{ cm}}", 0, 0),
    ("unit", "8 \\text{ cm}^3", "\\boxed{8 \\text{ cm}^2}", 0, 0),
    ("unit", "3 \\text{ square feet}", "\\boxed{3 \\text{ square inches}}", 0, 0),
    ("unit", "27 \\text{ cubic inches}", "\\boxed{27 \\text{ square inches}}", 0, 0),
    ("unit", "5 \\text{ liters}", "\\boxed{5 \\text{ ml}}", 0, 0),
    ("unit", "5 \\text{ kg}", "\\boxed{5 \\text{ grams}}", 0, 0),
    ("unit", "3 \\text{ pounds}", "\\boxed{3 \\text{ ounces}}", 0, 0),
    ("unit", "60 \\text{ mph}", "\\boxed{60 \\text{ kph}}", 0, 0),
    ("unit", "2 \\text{ tons}", "\\boxed{2 \\text{ tonnes}}", 0, 0),
    ("unit", "5 \\text{ km/hr}", "\\boxed{5 \\text{ km}}", 0, 0),
    ("unit", "(5 \\text{ km}, 3 \\text{ km})", "\\boxed{(5 \\text{ m}, 3 \\text{ m})}", 0, 0),
    ("unit", "\\{5 \\text{ km}, 3 \\text{ km}\\}", "\\boxed{\\{5 \\text{ m}, 3 \\text{ m}\\}}", 0, 0),
    ("unit", "2 \\text{ cm}, 3 \\text{ cm}", "\\boxed{3 \\text{ m}, 2 \\text{ m}}", 0, 0),
    ("unit_equal", "90 \\text{ minutes}", "\\boxed{1.5 \\text{ hours}}", 1, 1),
    ("unit_equal", "2 \\text{ hours}", "\\boxed{120 \\text{ minutes}}", 1, 1),
    ("unit_equal", "90 \\text{ minutes}", "\\boxed{90}", 1, 1),
    ("unit_equal", "90", "\\boxed{90 \\text{ minutes}}", 1, 1),
    ("unit_equal", "5 \\text{ km}", "\\boxed{5000 \\text{ m}}", 1, 1),
    ("unit_equal", "1 \\text{ foot}", "\\boxed{12 \\text{ inches}}", 1, 1),
    ("unit_equal", "1 \\text{ mile}", "\\boxed{5280 \\text{ feet}}", 1, 1),
    ("unit_equal", "1 \\text{ m}^2", "\\boxed{10000 \\text{ cm}^2}", 1, 1),
    ("unit_equal", "12 \\text{ cm}^2", "\\boxed{12 \\text{ square centimeters}}", 1, 1),
    ("unit_equal", "1 \\text{ liter}", "\\boxed{1000 \\text{ ml}}", 1, 1),
    ("unit_equal", "2 \\text{ kg}", "\\boxed{2000 \\text{ grams}}", 1, 1),
    ("unit_equal", "60 \\text{ mph}", "\\boxed{88 \\text{ ft/sec}}", 1, 1),
    ("unit_equal", "189 \\text{ cm}^2", "The area is \\boxed{189} square centimeters.", 1, 1),
    ("unit_equal", "5.4 \\text{ cents}", "So the cost is $\\$0.054 = \\boxed{5.4 \\text{ cents}}$.", 1, 1),
    ("unit_equal", "5 \\text{ km}", "So $5000 \\text{ m} = \\boxed{5 \\text{ km}}$.", 1, 1),
    ("unit_equal", "(5 \\text{ km}, 3 \\text{ km})", "\\boxed{(5000 \\text{ m}, 3000 \\text{ m})}", 1, 1),
    ("unit_equal", "\\{5 \\text{ km}, 3 \\text{ km}\\}", "\\boxed{\\{3000 \\text{ m}, 5 \\text{ km}\\}}", 1, None),
    # -- currencies and their sub-units
    ("money", "\\$5", "\\boxed{5 \\text{ cents}}", 0, 0),
    ("money", "€10", "\\boxed{£10}", 0, 0),
    ("money", "\\$5", "\\boxed{5 \\text{ euros}}", 0, 0),
    ("money", "₹100", "\\boxed{\\$100}", 0, 0),
    ("money", "50 \\text{ cents}", "\\boxed{\\$50}", 0, 0),
    ("money", "\\$5", "\\boxed{\\$5 \\text{ cents}}", 0, 0),
    ("money_equal", "\\$5", "\\boxed{5 \\text{ dollars}}", 1, 1),
    ("money_equal", "\\$0.05", "\\boxed{5 \\text{ cents}}", 1, 1),
    ("money_equal", "\\$5", "\\boxed{\\$5.00}", 1, 1),
    ("money_equal", "5", "\\boxed{\\$5}", 1, 1),
    ("money_equal", "\\$5", "\\boxed{5}", 1, 1),
    ("money_equal", "€10", "\\boxed{10 \\text{ euros}}", 1, 1),
    ("money_equal", "\\$5", "\\boxed{500 \\text{ cents}}", 1, 1),
    # -- percent signs
    ("percent", "\\frac{1}{4}", "\\boxed{\\frac{1}{4}\\%}", 0, 0),
    ("percent", "0.3", "\\boxed{0.3\\%}", 0, 0),
    ("percent", "0.5", "\\boxed{50\\%}", 0, 0),
    ("percent", "25\\%", "\\boxed{0.25\\%}", 0, 0),
    ("percent", "12\\%", "\\boxed{0.12}", 0, 0),
    ("percent", "0.05", "\\boxed{5 \\text{ percent}}", 0, 0),
    ("percent_equal", "25\\%", "\\boxed{25\\%}", 1, 1),
    ("percent_equal", "25", "\\boxed{25\\%}", 1, 1),
    ("percent_equal", "25\\%", "\\boxed{25}", 1, 1),
    ("percent_equal", "12.5\\%", "\\boxed{12.5 \\text{ percent}}", 1, 1),
    ("percent_equal", "50", "The answer is 50%.", 1, 1),
    # -- degrees and radians
    ("angle", "60^\\circ", "\\boxed{60 \\text{ radians}}", 0, 0),
    ("angle", "\\frac{\\pi}{3}", "\\boxed{\\frac{\\pi}{3}^\\circ}", 0, 0),
    ("angle", "30^\\circ", "\\boxed{\\frac{\\pi}{3}}", 0, None),
    ("angle", "90^\\circ", "\\boxed{\\frac{\\pi}{3} \\text{ radians}}", 0, 0),
    ("angle", "\\frac{\\pi}{2}", "\\boxed{90}", 0, 0),
    ("angle", "45^\\circ", "\\boxed{45 \\text{ rad}}", 0, 0),
    ("angle_equal", "60^\\circ", "\\boxed{\\frac{\\pi}{3} \\text{ radians}}", 1, None),
    ("angle_equal", "60^\\circ", "\\boxed{\\frac{\\pi}{3}}", 1, None),
    ("angle_equal", "60^\\circ", "\\boxed{60}", 1, 1),
    ("angle_equal", "60", "\\boxed{60^\\circ}", 1, 1),
    ("angle_equal", "45^\\circ", "\\boxed{45 \\text{ degrees}}", 1, 1),
    # -- a modulus
    ("modulus", "10 \\pmod{11}", "\\boxed{10 \\pmod{13}}", 0, 0),
    ("modulus", "3 \\pmod{7}", "\\boxed{10 \\pmod{7}}", 0, 0),
    ("modulus", "4 \\pmod{5}", "\\boxed{4 \\pmod{6}}", 0, 0),
    ("modulus_equal", "10 \\pmod{11}", "\\boxed{10}", 1, 1),
    ("modulus_equal", "10", "\\boxed{10 \\pmod{11}}", 1, 1),
    ("modulus_equal", "3 \\pmod{7}", "\\boxed{3 \\pmod{7}}", 1, 1),
    # -- an equation's named side
    ("equation_name", "y = 5", "\\boxed{x = 5}", 0, 0),
    ("equation_name", "y = 2x - 1", "\\boxed{z = 2x - 1}", 0, 0),
    ("equation_name", "x = 3", "\\boxed{y = 3}", 0, 0),
    ("equation_name", "a = 7", "\\boxed{b = 7}", 0, 0),
    ("equation_name", "y = 2x - 1", "\\boxed{x = 2x - 1}", 0, 0),
    ("equation_name", "f(x) = x^2", "\\boxed{g(x) = x^2}", 0, 0),
    ("equation_name", "y = 5", "So $x = \\boxed{5}$.", 0, 0),  # the name leads into the box
    ("equation_name", "y = 2x - 1", "$z = \\boxed{2x - 1}$", 0, 0),
    ("equation_equal", "y = 5", "\\boxed{y = 5}", 1, 1),
    ("equation_equal", "y = 5", "\\boxed{5}", 1, None),
    ("equation_equal", "5", "\\boxed{x = 5}", 1, None),
    ("equation_equal", "y = 2x - 1", "\\boxed{y = -1 + 2x}", 1, None),
    ("equation_equal", "y = 2x - 1", "\\boxed{2x - 1}", 1, None),
    ("equation_equal", "y = 5", "So $y = \\boxed{5}$.", 1, None),
    ("equation_equal", "5", "So $x = \\boxed{5}$.", 1, 1),
    ("named_equal", "(\\alpha, \\beta) = (1, 2)", "$(\\beta, \\alpha) = \\boxed{(2, 1)}$", 1, None),
    # -- names read by name, not by position
    ("named_tuple", "(\\alpha, \\beta) = (1, 2)", "\\boxed{(\\beta, \\alpha) = (1, 2)}", 0, 0),
    ("named_tuple", "(\\alpha, \\beta) = (1, 2)", "\\boxed{\\beta = 1, \\alpha = 2}", 0, 0),
    ("named_tuple", "(x, y) = (1, 2)", "\\boxed{(y, x) = (1, 2)}", 0, 0),
    ("named_tuple", "(\\alpha, \\beta) = (1, 2)", "\\boxed{(\\alpha, \\gamma) = (1, 2)}", 0, 0),
    ("named_tuple", "(\\alpha, \\beta) = (1, 2)", "$(\\beta, \\alpha) = \\boxed{(1, 2)}$", 0, 0),
    ("named_equal", "(\\alpha, \\beta) = (1, 2)", "\\boxed{(\\beta, \\alpha) = (2, 1)}", 1, None),
    ("named_equal", "(\\alpha, \\beta) = (1, 2)", "\\boxed{\\alpha = 1, \\beta = 2}", 1, None),
    ("named_equal", "(\\alpha, \\beta) = (1, 2)", "\\boxed{\\beta = 2, \\alpha = 1}", 1, None),
    ("named_equal", "(\\alpha, \\beta) = (1, 2)", "\\boxed{(1, 2)}", 1, None),
    # -- multiplicities
    ("multiset", "1, 1, 2, 3, 5", "\\boxed{1, 2, 3, 5}", 0, 0),
    ("multiset", "2, 3", "\\boxed{2, 2, 3}", 0, 0),
    ("multiset", "1, 1, 2", "\\boxed{1, 2, 2}", 0, 0),
    ("multiset", "1, 2, 3", "\\boxed{1, 2}", 0, 0),
    ("multiset_equal", "1, 1, 2, 3, 5", "\\boxed{1, 1, 2, 3, 5}", 1, 1),
    ("multiset_equal", "1, 1, 2, 3, 5", "\\boxed{5, 3, 2, 1, 1}", 1, None),
    ("multiset_equal", "1, 2", "\\boxed{2, 1}", 1, None),
    ("multiset_equal", "2, 3", "\\boxed{3} and \\boxed{2}", 1, None),
    # -- ':' is not division: ratios and clock times
    ("ratio", "1:2:3", "\\boxed{2:4:3}", 0, 0),
    ("ratio", "3:4", "\\boxed{4:3}", 0, 0),
    ("ratio", "1:2", "\\boxed{\\frac{1}{2}}", 0, 0),
    ("ratio", "2:3", "\\boxed{0.666667}", 0, 0),
    ("ratio", "1:2", "\\boxed{1:2:1}", 0, 0),
    ("ratio", "1:2", "\\boxed{0:0}", 0, 0),
    ("ratio", "1:2", "\\boxed{-1:-2}", 0, 0),
    ("clock_time", "2:30", "\\boxed{1:15}", 0, 0),
    ("clock_time", "12:00", "\\boxed{6:00}", 0, 0),
    ("clock_time", "10:30", "\\boxed{10.5}", 0, 0),
    ("clock_time", "4:30", "\\boxed{2:15}", 0, 0),
    ("ratio_equal", "1:2", "\\boxed{2:4}", 1, None),
    ("ratio_equal", "1:2:3", "\\boxed{2:4:6}", 1, None),
    ("ratio_equal", "3:4", "\\boxed{3 : 4}", 1, 1),
    ("ratio_equal", "2:30", "The time is \\boxed{2:30}.", 1, 1),
    ("ratio_equal", "12:00", "\\boxed{12:00}", 1, 1),
    # -- a decimal at its stated precision, never looser
    ("decimal_precision", "\\frac{2000000}{3}", "\\boxed{666667.0}", 0, 0),
    ("decimal_precision", "\\frac{2000000}{3}", "\\boxed{666666.66}", 0, 0),
    ("decimal_precision", "\\frac{1}{3}", "\\boxed{0.33}", 0, 0),
    ("decimal_precision", "\\frac{2}{3}", "\\boxed{0.666}", 0, 0),
    ("decimal_precision", "\\frac{1}{7}", "\\boxed{0.1428}", 0, 0),
    ("decimal_precision", "\\sqrt{2}", "\\boxed{1.41}", 0, None),
    ("decimal_precision", "\\pi", "\\boxed{3.14}", 0, None),
    ("decimal_precision", "\\frac{1}{3}", "\\boxed{0.3333333334}", 0, 0),
    ("decimal_precision", "(\\frac{2000000}{3}, 1)", "\\boxed{(666667.0, 1)}", 0, 0),
    ("decimal_precision", "\\frac{2000000}{3}, 1", "\\boxed{666667.0, 1}", 0, 0),
    ("decimal_precision", "\\sqrt{2}", "\\boxed{1.4142135}", 0, None),  # cut, not rounded
    ("precision_equal", "\\frac{2000000}{3}", "\\boxed{666666.7}", 1, None),
    ("precision_equal", "\\frac{1}{3}", "\\boxed{0.333333}", 1, None),
    ("precision_equal", "\\frac{1}{7}", "\\boxed{0.142857}", 1, None),
    ("precision_equal", "\\frac{2}{3}", "\\boxed{0.666667}", 1, None),
    ("precision_equal", "\\sqrt{2}", "\\boxed{1.414214}", 1, None),
    ("precision_equal", "\\pi", "\\boxed{3.141593}", 1, None),
    # -- the scope of ±
    ("plus_minus", "\\pm 5", "\\boxed{\\pm 2 + 3}", 0, 0),
    ("plus_minus", "\\pm 5", "\\boxed{5}", 0, 0),
    ("plus_minus", "1 \\pm \\sqrt{2}", "\\boxed{1 \\pm \\sqrt{3}}", 0, None),
    ("plus_minus", "3 \\pm 2", "\\boxed{\\pm (3 + 2)}", 0, 0),
    ("plus_minus", "\\pm 5", "\\boxed{5, 5}", 0, 0),
    ("pm_equal", "\\pm 5", "\\boxed{\\pm 5}", 1, 1),
    ("pm_equal", "\\pm 5", "\\boxed{5, -5}", 1, None),
    ("pm_equal", "3 \\pm 2", "\\boxed{\\pm 2 + 3}", 1, None),
    ("pm_equal", "1 \\pm \\sqrt{2}", "\\boxed{1 + \\sqrt{2}, 1 - \\sqrt{2}}", 1, None),
    ("pm_equal", "3 \\pm 2", "\\boxed{5, 1}", 1, None),
    # -- the kind of a matrix
    ("matrix_kind", PM, f"\\boxed{{{VM}}}", 0, 0),
    ("matrix_kind", PM, f"\\boxed{{{NM}}}", 0, 0),
    ("matrix_kind", VM, f"\\boxed{{{PM}}}", 0, 0),
    ("matrix_kind", "-2", f"\\boxed{{{PM}}}", 0, 0),
    ("matrix_entries", "\\begin{pmatrix} 0.0000003 \\\\ 1 \\end{pmatrix}",
     "\\boxed{\\begin{pmatrix} 0.0000001 \\\\ 1 \\end{pmatrix}}", 0, 0),  # math-verify rounds to 6 places
    ("matrix_entries", "\\begin{pmatrix} \\frac{2000000}{3} \\\\ 1 \\end{pmatrix}",
     "\\boxed{\\begin{pmatrix} 666667.0 \\\\ 1 \\end{pmatrix}}", 0, 0),
    ("matrix_entries", "\\begin{pmatrix} 1 & 2 \\end{pmatrix}",
     "\\boxed{\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}}", 0, 0),
    ("matrix_entries", "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}",
     "\\boxed{\\begin{pmatrix} 2 \\\\ 1 \\end{pmatrix}}", 0, 0),
    ("matrix_equal", PM, f"\\boxed{{{BM}}}", 1, None),
    ("matrix_equal", PM, "\\boxed{\\begin{pmatrix} 1 & 2 \\\\ 3 & 4.0 \\end{pmatrix}}", 1, 1),
    ("matrix_equal", "\\begin{pmatrix} x \\\\ 2y \\end{pmatrix}",
     "\\boxed{\\begin{pmatrix} x \\\\ y + y \\end{pmatrix}}", 1, None),
    ("matrix_equal", VM, f"\\boxed{{{VM}}}", 1, 1),
    ("matrix_equal", PM, f"\\boxed{{{PM}}}", 1, 1),
    # -- covers: one completion payable for more than one reference value
    ("cover", "5", "\\boxed{5 \\pm 1}", 0, 0),
    ("cover", "\\frac{\\pi}{3}", "\\boxed{60^\\circ}", 0, 0),  # 60° is 60 for a plain reference: not π/3 too
    ("cover", "5", "\\boxed{5 \\pm 0.5}", 0, 0),
    ("cover", "5", "\\boxed{[4, 6]}", 0, 0),
    ("cover", "5", "\\boxed{4 \\le x \\le 6}", 0, 0),
    ("cover", "5", "\\boxed{4 \\text{ or } 5}", 0, 0),
    ("cover", "5", "\\boxed{4, 5}", 0, 0),
    ("cover", "5", "\\boxed{\\{4, 5\\}}", 0, 0),
    ("cover", "5", "\\boxed{(4, 6)}", 0, 0),
    ("cover", "12", "The answer is between 11 and 13.", 0, 0),
    ("cover", "2", "\\boxed{1-3}", 0, 0),
    ("cover", "100", "\\boxed{100 \\pm 10\\%}", 0, 0),
    ("cover", "\\frac{1}{3}", "\\boxed{0.3}", 0, 0),
    ("cover", "\\frac{10}{3}", "\\boxed{3.3}", 0, 0),
    ("cover", "\\frac{2000000}{3}", "\\boxed{6.7 \\times 10^{5}}", 0, 0),
    ("cover", "\\pi", "\\boxed{3.1}", 0, None),
    ("cover", "1, 2", "\\boxed{1, 1, 2}", 0, 0),
    ("cover", "1:2", "\\boxed{1:2} or \\boxed{2:1}", 0, 0),
    ("cover", "5", "\\boxed{x \\approx 5 \\pm 1}", 0, 0),
    ("cover", "5", "\\boxed{\\pm 5}", 0, 0),
    ("cover", "90 \\text{ minutes}", "\\boxed{90 \\text{ minutes or seconds}}", 0, 0),
    # the same number in several units: one list that would be paid for each of them
    ("cover", "5 \\text{ cm}", "\\boxed{5 \\text{ cm}, 5 \\text{ m}}", 0, 0),
    ("cover", "5 \\text{ m}", "\\boxed{5 \\text{ cm}} and \\boxed{5 \\text{ m}}", 0, 0),
    ("cover", "\\$5", "\\boxed{\\$5, 5 \\text{ cents}}", 0, 0),
    ("cover", "25", "\\boxed{25\\%, 25}", 0, 0),
    ("cover", "10 \\pmod{11}", "\\boxed{10 \\pmod{11}, 10 \\pmod{13}}", 0, 0),
    # -- the right value, disowned (measured, not all refused: see DISOWNED_PAID)
    ("disowned", "10", "The erroneous value is \\boxed{10}.", 0, 0),
    ("disowned", "10", "Twice the answer is \\boxed{10}.", 0, 0),
    ("disowned", "25", "$\\sqrt{50} = \\boxed{25}$", 0, 0),
    ("disowned", "3", "$\\pi = \\boxed{3}$", 0, 0),
    ("disowned", "3", "$\\frac{7}{2} = \\boxed{3}$", 0, 0),
    ("disowned", "1", "$\\sqrt{2} = \\boxed{1}$", 0, 0),
    ("disowned", "10", "$2 \\cdot 3 = \\boxed{10}$", 0, 0),
    ("disowned", "10", "Half of the answer is \\boxed{10}.", 0, 0),
    ("disowned", "10", "The wrong answer would be \\boxed{10}.", 0, 0),
    ("disowned", "10", "A common mistake gives \\boxed{10}.", 0, 0),
    ("disowned", "10", "The incorrect total is \\boxed{10}.", 0, 0),
    ("disowned", "10", "Not the answer: \\boxed{10}", 0, 0),
    ("disowned", "10", "My first guess was \\boxed{10}.", 0, 0),
    ("disowned", "10", "The previous estimate was \\boxed{10}.", 0, 0),
    ("disowned", "10", "One less than the answer is \\boxed{10}.", 0, 0),
    ("disowned", "10", "The square of the answer is \\boxed{10}.", 0, 0),
    ("disowned", "10", "The value the problem rules out is \\boxed{10}.", 0, 0),
    ("disowned", "10", "$x^2 = \\boxed{10}$", 0, 0),
    ("disowned", "10", "$2x = \\boxed{10}$", 0, 0),
    ("disowned", "10", "If we forgot the carry we would get \\boxed{10}.", 0, 0),
    ("disowned", "5 \\text{ km}", "So $5 \\text{ m} = \\boxed{5 \\text{ km}}$.", 0, 0),
]

FAMILY_KIND: dict[str, str] = {
    "unit": "wrong_value", "money": "wrong_value", "percent": "wrong_value", "angle": "wrong_value",
    "modulus": "wrong_value", "equation_name": "wrong_value", "named_tuple": "wrong_value",
    "multiset": "wrong_value", "ratio": "wrong_value", "clock_time": "wrong_value",
    "decimal_precision": "wrong_value", "plus_minus": "wrong_value", "matrix_kind": "wrong_value",
    "matrix_entries": "wrong_value",
    "cover": "cover", "disowned": "disowned",
    "unit_equal": "correct", "money_equal": "correct", "percent_equal": "correct", "angle_equal": "correct",
    "modulus_equal": "correct", "equation_equal": "correct", "named_equal": "correct", "multiset_equal": "correct",
    "ratio_equal": "correct", "precision_equal": "correct", "pm_equal": "correct", "matrix_equal": "correct",
}

# measured: disowned rows paid by math (and by exact) out of the family's rows; a rule that
# refuses more lowers it (then lower the bound), nothing may raise it
DISOWNED_PAID = {"math": 11, "exact": 11}
