"""Typed values (``rlvr.verifiers.answer.values`` / ``.compare``): the table of
``math_value_rows.py`` through ``math`` and ``exact`` (wrong values and covers earn 0, the
true equivalences 1, the disowned rows at their measured rate), every non-ok verdict of
every math table readable, and unit tests of the unit table, the typed values and the
comparison on hand-written cases."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from math_redteam_rows import ROWS as REDTEAM_ROWS
from math_value_rows import DISOWNED_PAID, FAMILY_KIND, ROWS
from test_math_adversarial import ROWS as ADVERSARIAL_ROWS
from test_math_adversarial import _sample

from rlvr.verifiers.answer.compare import Judge, compare, within_places
from rlvr.verifiers.answer.values import KINDS, UNITS, decimal_places, pm_branch, read_unit, typed
from rlvr.verifiers.answer_grammar import UNIT_WORDS, Answer, parse_answer, rebuild

GRADED = [row for row in ROWS if FAMILY_KIND[row[0]] != "disowned"]
DISOWNED = [row for row in ROWS if FAMILY_KIND[row[0]] == "disowned"]


CASES = [("math", row[:4]) for row in GRADED] + [("exact", row[:3] + (row[4],)) for row in GRADED if row[4] is not None]


@pytest.mark.parametrize("name, row", CASES, ids=[f"{name}-{row[0]}-{k}" for k, (name, row) in enumerate(CASES)])
def test_rows(name, row):
    """Wrong values and covers earn 0 (never status ok), the equivalences 1."""
    _, answer, completion, expected = row
    verdict = _verifier(name)(completion, _sample(answer))
    assert (verdict.reward, verdict.status == "ok") == (float(expected), bool(expected)), (verdict.status,
                                                                                          verdict.detail)


def _verifier(name: str):
    from rlvr.verifiers.exact import verify_exact
    from rlvr.verifiers.mathv import verify_math

    return verify_math if name == "math" else verify_exact


def test_the_table_is_well_formed():
    assert set(FAMILY_KIND) == {row[0] for row in ROWS}
    assert set(FAMILY_KIND.values()) <= {"wrong_value", "cover", "disowned", "correct"}
    assert len({(row[1], row[2]) for row in ROWS}) == len(ROWS), "a row is listed twice"
    for family, kind in FAMILY_KIND.items():
        rows = [row for row in ROWS if row[0] == family]
        assert len(rows) >= 3, family
        if kind in ("wrong_value", "cover", "disowned"):
            assert all(row[3] == 0 and row[4] in (0, None) for row in rows), family
        else:
            assert all(row[3] == 1 and row[4] in (1, None) for row in rows), family
    counts = Counter(FAMILY_KIND[row[0]] for row in ROWS)
    assert counts["correct"] >= 60 and counts["wrong_value"] + counts["cover"] >= 100, counts


@pytest.mark.parametrize("name", ["math", "exact"])
def test_disowned_rows_are_paid_at_the_measured_rate(name):
    verify = _verifier(name)
    paid = [row[2] for row in DISOWNED if verify(row[2], _sample(row[1])).status == "ok"]
    assert len(paid) == DISOWNED_PAID[name], (f"{len(paid)} of {len(DISOWNED)} disowned rows paid: update "
                                              f"DISOWNED_PAID and docs/verifiers.md", paid)
    refused = [row[2] for row in DISOWNED if row[2] not in paid]
    assert any("sqrt{50}" in c for c in refused) and any("erroneous" in c for c in paid)  # what the rate is made of


@pytest.mark.parametrize("name", ["math", "exact"])
def test_every_non_ok_verdict_is_a_mismatch_of_two_values_or_a_refusal(name):
    """Issue rule: a non-ok verdict shows both values (``X != Y``) or carries one
    ``refused/<reason>``, on every row of the three math tables."""
    verify = _verifier(name)
    unreadable = []
    for _, answer, completion, _, _ in ROWS + REDTEAM_ROWS + ADVERSARIAL_ROWS:
        verdict = verify(completion, _sample(answer))
        reasons = [k for k in verdict.info if k.startswith("refused/")]
        if verdict.status != "ok" and len(reasons) != 1 and " != " not in verdict.detail:
            unreadable.append((answer, completion, verdict.detail))
    assert unreadable == []


def test_a_reference_that_cannot_be_read_is_an_error_not_a_wrong_answer():
    from rlvr.verifiers.mathv import verify_math

    with pytest.raises(ValueError, match="could not be parsed"):
        verify_math("\\boxed{5}", _sample("\\frac{"))


# ------------------------------------------------------------------ unit tests


def _answer(text: str) -> Answer:
    parsed = parse_answer(text)
    assert isinstance(parsed, Answer), parsed
    return parsed


def test_every_unit_word_of_the_grammar_has_a_dimension_or_a_kind():
    for word in UNIT_WORDS:
        unit = read_unit((word,)) if word not in ("sq", "square", "cubic", "cu") else read_unit((word, "cm"))
        assert unit is not None and unit.kind != "unknown", word
    assert read_unit(("bananas",)).kind == "unknown"  # not in the table: compared as written


def test_units_read_dimension_and_scale():
    hours, minutes = read_unit(("hours",)), read_unit(("min",))
    assert hours.dims == minutes.dims == (("time", 1),) and hours.scale == 60 * minutes.scale == 3600
    assert read_unit(("cm^2",)).dims == read_unit(("square", "centimeters")).dims == (("length", 2),)
    assert read_unit(("cm^2",)).scale == Fraction(1, 10000)
    assert read_unit(("km", "/", "hr")).dims == read_unit(("mph",)).dims == (("length", 1), ("time", -1))
    assert 12 * UNITS["inch"][1] == UNITS["foot"][1] and 5280 * UNITS["feet"][1] == UNITS["mile"][1]
    assert read_unit(("$",)).dims == read_unit(("cents",)).dims == (("USD", 1),)
    assert read_unit(("$", "cents")).kind == "unknown"  # two scales of one currency: no single unit
    assert read_unit(("€",)).dims != read_unit(("£",)).dims
    assert read_unit(("%",)).kind == "percent" and read_unit(("°",)).angle == "degree"
    assert read_unit(("radians",)).angle == "radian" and read_unit(("\\pmod{11}",)).modulus == 11
    assert read_unit(()) is None


def test_typed_values_have_their_kind():
    kinds = {
        "5": "number", "0.50": "number", "90 \\text{ min}": "quantity", "\\$5": "money", "25\\%": "percent",
        "60^\\circ": "angle", "10 \\pmod{11}": "congruence", "1:2:3": "ratio", "2:30": "time", "1, 1, 2": "list",
        "\\{1, 2\\}": "set", "(1, 2)": "tuple", "(1, 2]": "interval", "\\pm 5": "plusminus", "\\pm 2 + 3": "plusminus",
        "x^2 + 1": "expression", "\\begin{vmatrix} 1 & 2 \\\\ 3 & 4 \\end{vmatrix}": "determinant",
        "\\begin{Vmatrix} 1 \\\\ 2 \\end{Vmatrix}": "norm", "\\begin{bmatrix} 1 \\\\ 2 \\end{bmatrix}": "matrix",
    }
    for text, kind in kinds.items():
        assert typed(_answer(text)).kind == kind, text
        assert kind in KINDS
    assert typed(_answer("\\text{Evelyn}")).kind == "text"


def test_decimal_places_and_stated_precision():
    assert decimal_places(_answer("666667.0").node) == 1 and decimal_places(_answer("-0.50").node) == 2
    assert decimal_places(_answer("5").node) is None and decimal_places(_answer("0.5 + 1").node) is None
    exact = Fraction(2000000, 3)
    assert not within_places(Fraction("666667.0"), exact, 1) and within_places(Fraction("666666.7"), exact, 1)
    assert within_places(Fraction("0.333333"), Fraction(1, 3), 6) and not within_places(Fraction("0.3333"), exact, 4)
    assert within_places(Fraction(5), Fraction(5), None)


def test_plus_minus_branches_read_the_sign_of_its_own_term():
    node = _answer("\\pm 2 + 3").node
    assert {rebuild(pm_branch(node, s)).value for s in (1, -1)} == {Fraction(5), Fraction(1)}
    node = _answer("3 \\mp 2").node
    assert [rebuild(pm_branch(node, s)).value for s in (1, -1)] == [Fraction(1), Fraction(5)]


def _judge() -> Judge[tuple[bool, str]]:
    """A judge whose core compares exact values (or LaTeX): enough for the typed rules."""
    def core(gold: Answer, pred: Answer) -> tuple[bool, str]:
        if gold.value is not None and pred.value is not None:
            return gold.value == pred.value, "values"
        return gold.latex.replace(" ", "") == pred.latex.replace(" ", ""), "latex"

    return Judge(core=core, same=lambda d: (True, d), differ=lambda d: (False, d), ok=lambda r: r[0])


@pytest.mark.parametrize("gold, pred, same", [
    ("90 \\text{ minutes}", "1.5 \\text{ hours}", True), ("90 \\text{ minutes}", "90 \\text{ seconds}", False),
    ("90 \\text{ minutes}", "90", True), ("90", "90 \\text{ minutes}", True), ("90 \\text{ minutes}", "1.5", False),
    ("5 \\text{ km}", "5000 \\text{ m}", True), ("12 \\text{ cm}^2", "12 \\text{ cm}", False),
    ("\\$5", "500 \\text{ cents}", True), ("€10", "£10", False), ("25", "25\\%", True), ("0.25", "25\\%", False),
    ("25\\%", "25", True), ("60^\\circ", "60 \\text{ radians}", False), ("10 \\pmod{11}", "10 \\pmod{13}", False),
    ("2:30", "1:15", False), ("1:2", "2:4", True), ("12:00", "6:00", False), ("1:2", "0.5", False),
    ("1, 1, 2", "1, 2, 1", True), ("1, 1, 2", "1, 2", False), ("1, 2", "1, 1, 2", False),
    ("\\pm 5", "5, -5", True), ("\\pm 5", "\\pm 2 + 3", False), ("\\frac{2000000}{3}", "666667.0", False),
])
def test_compare_on_hand_written_cases(gold, pred, same):
    assert compare(typed(_answer(gold)), typed(_answer(pred)), _judge())[0] is same


def test_compare_reads_names():
    gold = typed(_answer("(1, 2)"), _answer("(\\alpha, \\beta)").node)
    swapped = typed(_answer("(2, 1)"), _answer("(\\beta, \\alpha)").node)
    assert compare(gold, swapped, _judge())[0] is True
    same_order = typed(_answer("(1, 2)"), _answer("(\\beta, \\alpha)").node)
    assert compare(gold, same_order, _judge())[0] is False
    y, x = typed(_answer("5"), ("var", "y")), typed(_answer("5"), ("var", "x"))
    verdict = compare(y, x, _judge())
    assert verdict[0] is False and "x = 5 (number) != y = 5 (number)" in verdict[1]
    assert compare(y, typed(_answer("5")), _judge())[0] is True  # an answer with no name: the value


@pytest.mark.parametrize("gold", [
    "2 \\text{ feet } 3 \\text{ furlongs}", "20^\\circ\\mathrm{R}", "$4 \\text{ cups}$",
    "3 \\text{ inches } 2 \\text{ feet}",
])
def test_a_reference_whose_unit_the_grammar_cannot_read_is_an_error(gold):
    # math-verify would strip the unit and compare the first number: "5 m/s" would pay "5 hours"
    from rlvr.verifiers.mathv import verify_math

    with pytest.raises(ValueError, match="carries units or words the answer grammar does not read"):
        verify_math("\\boxed{5 \\text{ hours}}", _sample(gold))


@pytest.mark.parametrize("gold, pred, paid", [
    # a word the unit tables do not know is what the value specifies: the bare value is paid, a unit or
    # another word in its place is not
    ("5 \\text{ furlongs}", "\\boxed{5 \\text{ hours}}", 0), ("5 \\text{ furlongs}", "\\boxed{5}", 1),
    ("5 \\text{ slugs}", "\\boxed{5 \\text{ kg}}", 0), ("5 \\text{ slugs}", "$\\boxed{5}$ slugs", 1),
    ("500 \\text{ BC}", "$\\boxed{500}$ AD", 0), ("500 \\text{ BC}", "\\boxed{500 \\text{ BC}}", 1),
    ("\\$15 \\text{ profit}", "$\\boxed{\\$15}$ loss", 0), ("\\$15 \\text{ profit}", "$\\boxed{\\$15}$ profit", 1),
    ("12 \\text{ km north}", "\\boxed{12 \\text{ km south}}", 0), ("12 \\text{ km north}", "\\boxed{12 \\text{ m}}", 0),
    ("20\\% \\text{ increase}", "$\\boxed{20\\%}$ decrease", 0), ("20\\% \\text{ increase}", "\\boxed{20\\%}", 1),
])
def test_a_reference_with_descriptive_words_is_its_value_and_what_it_specifies(gold, pred, paid):
    from rlvr.verifiers.mathv import verify_math

    verdict = verify_math(pred, _sample(gold))
    assert verdict.reward == paid and (verdict.status == "ok") is bool(paid), verdict


@pytest.mark.parametrize("gold, pred, paid", [
    ("5 \\text{ Mm}", "\\boxed{5 \\text{ mm}}", 0), ("5 \\text{ Mg}", "\\boxed{5 \\text{ mg}}", 0),
    ("5 \\text{ mm}", "\\boxed{5 \\text{ mm}}", 1), ("5 \\text{ km}", "\\boxed{5 \\text{ kilometers}}", 1),
    ("2 \\text{ liters}", "\\boxed{2000 \\text{ mL}}", 1), ("5 \\text{ km}", "\\boxed{5 \\text{ Kilometers}}", 1),
    ("2, 2", "\\boxed{2}", 0), ("1, 1", "\\boxed{1}", 0), ("5", "\\boxed{5, 5}", 1), ("2, 2", "\\boxed{2, 2}", 1),
])
def test_unit_symbols_keep_their_case_and_a_list_reference_keeps_its_multiplicities(gold, pred, paid):
    from rlvr.verifiers.mathv import verify_math

    assert verify_math(pred, _sample(gold)).reward == paid


@pytest.mark.parametrize("gold, completion, expected", [
    ("5 \\text{ kHz}", "\\boxed{5000 \\text{ Hz}}", 1), ("5 \\text{ kHz}", "\\boxed{5 \\text{ MHz}}", 0),
    ("5 \\text{ kHz}", "\\boxed{5 \\text{ Hz}}", 0), ("250 \\text{ ms}", "\\boxed{0.25 \\text{ s}}", 1),
    ("250 \\text{ ms}", "\\boxed{250 \\text{ s}}", 0), ("3 \\text{ N}", "\\boxed{3 \\text{ J}}", 0),
    ("3 \\text{ mA}", "\\boxed{3 \\text{ A}}", 0), ("2 \\text{ kW}", "\\boxed{2000 \\text{ W}}", 1),
])
def test_units_of_physics(gold, completion, expected):
    from rlvr.verifiers.mathv import verify_math

    verdict = verify_math(completion, _sample(gold))
    assert verdict.reward == expected, verdict


# Runs of spaces and repeated labels that a regex with two readings of the same space takes exponential
# or quadratic time over (the gap between boxes, a compound quantity, a choice letter's value): each gets
# its verdict from a pool with a timeout, so a reading that backtracks shows as status "timeout".
_LONG_INPUTS = [
    ("1, 2", "\\boxed{1}" + " (a)" * 24 + " ! \\boxed{2}", "wrong"),
    ("3", "#### " + "1 m " * 700 + "!", "wrong"),
    ("C", "The answer is (C)" + " " * 2000 + "x" + " " * 900 + "!", "wrong"),
    ("x = 1, y = 2", "$x = \\boxed{1}$" + " and y =" * 30 + " \\boxed{2}", "wrong"),
    ("90 \\text{ minutes}", "#### 1 hour" + " " * 2000 + "30 minutes", "ok"),
]


@pytest.mark.parametrize("gold, completion, status", _LONG_INPUTS)
def test_long_runs_are_read_in_linear_time(gold, completion, status):
    from rlvr.types import Sample
    from rlvr.verifiers.pool import VerifierPool

    with VerifierPool("math", workers=1, timeout_s=30.0) as pool:
        verdict, = pool.map([completion], [Sample(id="0", prompt="", answer=gold)])
    assert verdict.status == status, verdict
