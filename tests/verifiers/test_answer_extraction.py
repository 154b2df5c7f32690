"""Shared answer extraction: the <answer> tag rule, think stripping, boxed, numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rlvr.verifiers import extract

# (completion, expected text or None, a word the reason must contain)
TAG_ROWS = [
    ("<think>2+2</think><answer>4</answer>", "4", ""),
    ("<answer> -3 </answer>\n\n", "-3", ""),
    ("<answer>7</answer><|im_end|>", "7", ""),
    ("<answer>7</answer></s>  ", "7", ""),
    # the measured hack: text padded after the answer
    ("<answer>4</answer> and some padding to the length limit", None, "end"),
    ("<answer>4</answer>\n<answer>5</answer>", None, "exactly one"),
    ("<answer>4</answer><answer>4</answer>", None, "exactly one"),  # exactly one, even if equal
    ("<answer>4", None, "exactly one"),
    ("4</answer>", None, "exactly one"),
    ("</answer>4<answer>", None, "before"),
    ("<answer><answer>4</answer></answer>", None, "exactly one"),
]


@pytest.mark.parametrize("completion, text, reason", TAG_ROWS)
def test_answer_tag_rules(completion, text, reason):
    got = extract.answer_tag(completion)
    assert got is not None
    assert got.text == text
    assert reason in got.reason


def test_no_tag_at_all_is_none():
    assert extract.answer_tag("the answer is 4") is None


@pytest.mark.parametrize("text, expected", [
    ("<think>x=\\boxed{3}</think> so \\boxed{4}", " so \\boxed{4}"),
    ("plain text", "plain text"),
    ("<think>never closed \\boxed{3}", None),
    ("<think>a</think>b<think>c</think>d", "d"),
])
def test_after_think(text, expected):
    assert extract.after_think(text) == expected


def test_boxed_spans_balance_braces_and_skip_unclosed():
    text = r"a \boxed{\frac{1}{2}} b \fbox{x^{2}} c \boxed{\{1,2\}} d \boxed{unclosed"
    assert [c for _, _, c in extract.boxed_spans(text)] == [r"\frac{1}{2}", "x^{2}", r"\{1,2\}"]


def test_answer_is_and_hash():
    text = "So the answer is 42. I checked.\nThe final answer is: $\\frac{1}{2}$\n#### 1,000"
    assert [v for _, _, v in extract.answer_is(text)] == ["42", "$\\frac{1}{2}$"]
    assert [v for _, _, v in extract.hash_answer(text)] == ["1,000"]


def test_final_candidates_unknown_kind_lists_valid():
    with pytest.raises(KeyError, match="valid"):
        extract.final_candidates("x", ("boxed", "nope"))


@pytest.mark.parametrize("text, value, approximate", [
    ("12", Fraction(12), False),
    ("-3", Fraction(-3), False),
    ("+7", Fraction(7), False),
    ("12.0", Fraction(12), True),
    (".5", Fraction(1, 2), True),
    ("1,234,567", Fraction(1234567), False),
    ("1,000.25", Fraction(400100, 400), True),
    ("14{,}916", Fraction(14916), False),
    ("11,\\!111", Fraction(11111), False),
    ("3/4", Fraction(3, 4), False),
    ("\\frac{6}{8}", Fraction(3, 4), False),
    ("-\\dfrac{1}{3}", Fraction(-1, 3), False),
    ("\\frac12", Fraction(1, 2), False),
    ("$\\boxed{42}$.", Fraction(42), False),
    ("\\$5", Fraction(5), False),
])
def test_plain_numbers(text, value, approximate):
    number = extract.plain_number(text)
    assert number is not None
    assert number.value == value
    assert number.approximate is approximate


@pytest.mark.parametrize("text", ["1,22", "0,111", "1 2", "x", "1/0", "2^3", "\\sqrt{4}", "1e5", "", "1" * 300,
                                  "\\frac123"])
def test_not_plain_numbers(text):
    assert extract.plain_number(text) is None


def test_numbers_equal_leaves_rounding_to_the_slow_path():
    n = extract.plain_number
    assert extract.numbers_equal(n("1/2"), n("0.5")) is True
    assert extract.numbers_equal(n("1/3"), n("2/3")) is False
    assert extract.numbers_equal(n("1/3"), n("0.3333")) is False  # differs by > 1e-6
    assert extract.numbers_equal(n("1/3"), n("0.3333333")) is None  # math-verify rounds: undecided here


def test_ends_text():
    text = "so the answer is $\\boxed{5}$.  "
    end = extract.boxed_spans(text)[0][1]
    assert extract.ends_text(text, end)
    assert not extract.ends_text(text + "More words.", end)


# ------------------------------------------------------------- locate: where the final answer is

# (completion, value or None, source or refusal reason, competitors)
LOCATE_ROWS = [
    ("<think>x</think><answer>4</answer>", "4", "tag", ()),
    ("<think>so <answer>4</answer>", None, "no_answer", ()),  # thinking never closed: no answer at all
    ("<think>a</think><think><answer>4</answer>", None, "no_answer", ()),
    ("<answer>4</answer> more", None, "trailing_text", ()),
    ("So \\boxed{4}.", "\\boxed{4}", "boxed", ()),
    ("So \\boxed{4}. I hope it is correct.<|im_end|>", "\\boxed{4}", "boxed", ()),
    ("So \\boxed{4}. Wait, it is 5.", None, "trailing_text", ()),
    # "!" that ends the text or a sentence closes it ("The answer is \\boxed{5}!"): the box is the
    # answer either way, and no reference other than 4 pays it; "$\\boxed{4}!$" in math is a factorial
    ("\\boxed{4}!", "\\boxed{4}", "boxed", ()),
    ("$\\boxed{4}!$", None, "trailing_text", ()),
    ("roots \\boxed{1} and \\boxed{2}", "\\boxed{1}, \\boxed{2}", "boxed", ()),
    ("\\boxed{1}. Check: \\boxed{2}", "\\boxed{2}", "boxed", ("1",)),
    ("the area is \\(\\boxed{189}\\) square centimeters.", "\\boxed{189 \\text{ square centimeters}}", "boxed", ()),
    ("area \\boxed{189}", "\\boxed{189}", "boxed", ()),  # a noun before a box is the sentence's own wording
    ("It is at least \\boxed{4}.", None, "relation", ()),
    ("Maybe the answer is \\boxed{4}.", None, "several_answers", ()),
    ("So $-\\boxed{4}$.", None, "unparsed", ()),  # the box is an operand
    ("So $\\sqrt{\\boxed{16}}$.", None, "unparsed", ()),
    ("Thus, there are $\\boxed{2}$ distinct values for $B$.", "\\boxed{2}", "boxed", ()),
    ("There are $\\boxed{2}$ values, not 3.", None, "trailing_text", ()),
    ("so \\boxed{9} \\pmod{11}.$", "\\boxed{9 \\pmod{11}}", "boxed", ()),
    ("The answer is 42. I hope it is correct. <|im_start|>user", "42", "phrase", ()),
    ("The answer is 42. Wait: 43.", None, "trailing_text", ()),
    ("The final answer is $\\boxed{5}$.", "\\boxed{5}", "boxed", ()),  # the phrase leads into the box
    ("The answer is 3, \\boxed{5}.", "\\boxed{5}", "boxed", ("3, \\boxed{5}",)),
    ("Final Answer: The final answer is 10.", "10", "phrase", ("The final answer is 10",)),
    ("Answer \\[ 9 \\]", "\\[ 9 \\]", "phrase", ()),
    ("step 1\n#### 12", "12", "hash", ()),
    ("#### 12\nmore", None, "trailing_text", ()),
    ("The answer is not \\boxed{5}", None, "relation", ()),
    ("Since 9 is not prime, the answer is \\boxed{5}", "\\boxed{5}", "boxed", ()),
    ("37 + 45 = 82", "37 + 45 = 82", "unmarked", ()),
]


@pytest.mark.parametrize("completion, value, source, competitors", LOCATE_ROWS)
def test_locate(completion, value, source, competitors):
    got = extract.locate(completion)
    assert got.value == value, got
    assert (got.source if value is not None else got.reason) == source, got
    assert got.competitors == competitors


@pytest.mark.parametrize("completion, lead", [
    ("So $x > \\boxed{10}$.", "x >"), ("So x < \\boxed{10}.", "x <"), ("So $37 + 45 = \\boxed{82}$.", "37 + 45 ="),
    ("Adding, we get 2 + 3 = \\boxed{5}.", "2 + 3 ="), ("$$\\text{Area} = \\boxed{5}$$", ""),
    ("So $x \\approx \\boxed{0.3}$.", "\\approx"), ("$7 \\equiv \\boxed{2} \\pmod{5}$", "7 \\equiv"),
    ("The answer is \\boxed{5}.", ""),
])
def test_locate_reports_the_relation_that_leads_into_the_box(completion, lead):
    got = extract.locate(completion)
    assert got.value is not None and got.lead == lead, got


def test_locate_without_unmarked_or_markers():
    assert extract.locate("42", unmarked=False).reason == "no_answer"
    assert extract.locate("so \\boxed{42}", markers=(), unmarked=False).reason == "no_answer"
    assert extract.locate("so \\boxed{42}", markers=()).source == "unmarked"
    with pytest.raises(KeyError, match="valid"):
        extract.locate("x", markers=("nope",))


@pytest.mark.parametrize("tail, ok, unit", [
    (".", True, ""), ("$.", True, ""), (" \\]", True, ""), ("** ", True, ""), (" is our answer.", True, ""),
    (" square units.", True, "square units"), ("!", False, ""), (" squared", False, ""), (" or 11", False, ""),
    ("$" * 600, False, ""),
])
def test_read_tail(tail, ok, unit):
    assert extract.read_tail(tail) == (ok, unit)


@pytest.mark.parametrize("completion", [
    "\\boxed{" * 50000, "\\boxed{5} " * 30000, "the answer is " * 20000 + "5", "#### " * 50000 + "5", "word " * 60000,
    "1 " * 100000, "(" * 3000 + "5" + ")" * 3000, "\\boxed{5}" + " " * 100000 + "x", "\\boxed{5}" + "$" * 400 + "x",
    # what leads into a box and the rest of its sentence are read in linear time too
    "(" * 100000 + "\\boxed{5}", "\\text{" * 20000 + "\\boxed{5}", "\\boxed{5} " + "distinct " * 20000 + "values.",
    "$" + "x + " * 20000 + "\\boxed{5} x$", "We find that $" + "x+" * 50000 + "1$.",
    "a " * 100000 + "we find that $x = 5$.",
])
def test_pathological_completions_stay_cheap(completion):
    import time

    from rlvr.types import Sample
    from rlvr.verifiers.exact import verify_exact
    from rlvr.verifiers.mathv import verify_math

    start = time.process_time()
    sample = Sample(id="t", prompt="", answer="5")
    assert verify_math(completion, sample).status != "ok" and verify_exact(completion, sample).status != "ok"
    assert time.process_time() - start < 2.0
