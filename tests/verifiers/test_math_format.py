"""The format table (``math_format_rows.py``) through ``math`` and ``exact``: the endings
real models write are accepted, the attacker's families around the same formats earn 0;
and the document structure the final answer is located on (``answer/document.py``,
``answer/locate.py``), on hand-written documents."""

from __future__ import annotations

from collections import Counter

import pytest
from math_format_rows import FAMILY_KIND, ROWS
from test_math_adversarial import _sample

from rlvr.verifiers.answer import document
from rlvr.verifiers.answer.locate import locate

GRADED = [row for row in ROWS if FAMILY_KIND[row[0]] != "disowned"]
DISOWNED = [row for row in ROWS if FAMILY_KIND[row[0]] == "disowned"]
# disowned rows (the right value stated and disowned in words the closed classes do not hold: "is nto";
# "nicht" right before the box is read, as the hedges of other languages are) are measured, not refused
# one by one (docs/verifiers.md, "What precision means")
DISOWNED_PAID = {"math": 2, "exact": 2}


@pytest.mark.parametrize("name", ["math", "exact"])
def test_disowned_rows_are_paid_at_the_measured_rate(name):
    from rlvr.verifiers.exact import verify_exact
    from rlvr.verifiers.mathv import verify_math

    verify = verify_math if name == "math" else verify_exact
    paid = [row[2] for row in DISOWNED if verify(row[2], _sample(row[1])).status == "ok"]
    assert len(paid) == DISOWNED_PAID[name], (f"{len(paid)} of {len(DISOWNED)} disowned rows paid: update "
                                              "DISOWNED_PAID and docs/verifiers.md", paid)


@pytest.mark.parametrize("family, answer, completion, expected, _exact", GRADED)
def test_math(family, answer, completion, expected, _exact):
    from rlvr.verifiers.mathv import verify_math

    verdict = verify_math(completion, _sample(answer))
    assert verdict.reward == float(expected), (verdict.status, verdict.detail)
    assert (verdict.status == "ok") is bool(expected)
    if not expected:  # a plain mismatch of two values, or one refusal reason
        refusals = [key for key in verdict.info if key.startswith("refused/")]
        assert len(refusals) == 1 or (not refusals and verdict.status == "wrong"), verdict


@pytest.mark.parametrize("family, answer, completion, _math, expected", [row for row in GRADED if row[4] is not None])
def test_exact(family, answer, completion, _math, expected):
    from rlvr.verifiers.exact import verify_exact

    verdict = verify_exact(completion, _sample(answer))
    assert verdict.reward == float(expected), (verdict.status, verdict.detail)
    assert (verdict.status == "ok") is bool(expected)


def test_every_family_has_a_kind_and_rows():
    assert set(FAMILY_KIND) == {row[0] for row in ROWS}
    assert set(FAMILY_KIND.values()) <= {"correct", "cover", "disowned", "wrong_value"}
    for family, kind in FAMILY_KIND.items():
        expected = Counter(row[3] for row in ROWS if row[0] == family)
        assert expected[1 if kind == "correct" else 0] >= 3 and expected[0 if kind == "correct" else 1] == 0, family
    assert len({(row[1], row[2]) for row in ROWS}) == len(ROWS), "a row is listed twice"


# ------------------------------------------------------------------ the document


def _kinds(text: str) -> list[str]:
    doc = document.read(text)
    return [block.kind for block in doc.blocks]


def test_blocks_have_their_kinds():
    text = ("# Title\nSome prose.\n\n- an item\n1. another\n> a quote\n| a | b |\n```\ncode $x\n```\n"
            "$$\nx = 1\n$$\n\\[\n\\boxed{2}\n\\]\n<answer>\n2\n</answer>")
    assert _kinds(text) == ["heading", "paragraph", "item", "item", "quote", "table", "code", "display", "display",
                            "tag", "paragraph", "tag"]


def test_display_math_spans_its_lines_as_one_block():
    doc = document.read("**Final Answer:**\n\\[\n\\boxed{110}\n\\]")
    assert [b.kind for b in doc.blocks] == ["paragraph", "display"]
    assert doc.block_text(doc.blocks[1]) == "\\[\n\\boxed{110}\n\\]"
    assert doc.label(doc.blocks[0]) == "Final Answer"


def test_labels_are_short_and_end_in_a_colon():
    doc = document.read("A: 30\nWrong answer: 5\nSince x is even, we have: 4\nCase 1: x > 0")
    assert [doc.label(b) for b in doc.blocks] == ["A", "Wrong answer", "", "Case 1"]


def test_tags_are_structure_not_operators():
    doc = document.read("<reasoning>\n30 > 20\n</reasoning>\n<answer>30</answer>")
    assert [(t.name, t.closing) for t in doc.tags] == [("reasoning", False), ("reasoning", True), ("answer", False),
                                                     ("answer", True)]
    assert ">" not in doc.prose.replace("30 > 20", "")  # every tag is a line break in the prose
    assert len(doc.prose) == len(doc.text)
    assert document.read("$x<y>z$").tags == []  # inside math: no tag
    assert document.read("<<48/2=24>>24").tags == []  # GSM8K's calculator annotation


def test_money_dollars_are_not_math_delimiters():
    doc = document.read("She pays $5 for the pen and $10 for the book, and $x$ is the price.")
    assert [doc.text[s:e] for s, e in doc.math] == ["x"]
    doc = document.read("Between $5$ and $10$ dollars, \\(y\\) and $$z$$.")
    assert [doc.text[s:e] for s, e in doc.math] == ["5", "10", "y", "z"]
    assert document.read("$\\boxed{28}").math == [(1, 11)]  # never closed: runs to the end
    assert document.read("It costs \\$5 and $ 6.").math == []
    text = "She pays $5. So the total is $15."
    assert text[document.last_sentence_start(text):] == "So the total is $15."


def test_the_text_is_read_as_displayed():
    assert document.read("is&nbsp;not &#110;ot &#x6e;ot").text == "is\xa0not not not"
    assert document.read("n**o**t and n*o*t but $x_1$ stays").text == "not and not but $x_1$ stays"
    assert document.read("\u7b54\u6848\uff1a5").text == "\u7b54\u6848: 5"  # a CJK colon is a break, a space after it
    assert document.read("\u7b54\u6848\u662f\uff14\uff12\u3002").text == "\u7b54\u6848\u662f42. "  # fullwidth digits
    assert document.read("\u0627\u0644\u062c\u0648\u0627\u0628 \u0664\u066b\u0665").text.endswith("4.5")  # Arabic-Indic


def test_sentences_stop_inside_their_block():
    doc = document.read("First one. Second $a. b$ part.\nNext line.")
    assert doc.text[doc.sentence_start(doc.text.index("part")):].startswith("Second")
    assert doc.sentence_start(doc.text.index("line")) == doc.text.index("Next")


# ------------------------------------------------------------------ locating on it


@pytest.mark.parametrize("completion, value, source", [
    ("**Final Answer:**\n\\[\n\\boxed{110}\n\\]", "\\boxed{110}", "boxed"),
    ("### Final Answer\n$$\n\\boxed{110}\n$$", "\\boxed{110}", "boxed"),
    ("**Final Answer:**\n\n42", "42", "phrase"),
    ("There are 15 pairs, so 15 * 2 = 30.\nA: 30", "30", "phrase"),
    ("#### Case 1: x\nThen 5.\n\nThe answer is 5.", "5", "phrase"),
    ("Step one.\n#### 72", "72", "hash"),
    ("<reasoning>30 > 20</reasoning>\n<answer>30</answer>", "30", "tag"),
])
def test_locate_reads_the_structure(completion, value, source):
    located = locate(completion)
    assert (located.value, located.source, located.competitors) == (value, source, ()), located


@pytest.mark.parametrize("completion, reason", [
    ("Wrong answer: \\boxed{10}", "relation"),
    ("### Incorrect answer\n$$\n\\boxed{10}\n$$", "relation"),
    ("It is not the case that\n#### 10", "relation"),
    ("The answer is ~~surely~~ \\boxed{10}.", "unparsed"),
    ("ΝΟΤ:\n\\boxed{10}", "unparsed"),  # a Greek word drawn in Latin look-alikes ("NOT") is screened
    ("ОКАУ, МАУВЕ:\n\\boxed{10}", "unparsed"),  # so is a Cyrillic one ("MAYBE")
    ("**Final Answer:** \\boxed{11}\n\n**Final Answer:**\n\\[\n\\boxed{10}\n\\]", ""),  # graded by the caller
])
def test_locate_reads_what_leads_into_every_marker(completion, reason):
    located = locate(completion)
    if reason:
        assert located.value is None and located.reason == reason, located
    else:
        assert located.value == "\\boxed{10}" and located.competitors, located


def test_a_word_of_another_script_elsewhere_is_not_read():
    assert locate("\u0414\u0443\u043c\u0430\u044e.\nThe answer is \\boxed{7}.").value == "\\boxed{7}"
    # Russian, Greek and accented Latin words are read as written, like CJK: "Ответ:" is "Answer:"
    assert locate("Ответ:\n\\boxed{10}").value == "\\boxed{10}"
    assert locate("La réponse est $\\boxed{5}$.").value == "\\boxed{5}"
    assert locate("Άρα η απάντηση είναι $\\boxed{5}$.").value == "\\boxed{5}"
    # ... except right before the box, where the negations and hedges of other languages are read
    assert locate("The answer is \u043d\u0435 \\boxed{7}.").reason == "relation"
    # a Latin letter drawn like an ASCII one still refuses a word that mixes it in: dotless ı in "nıt"
    assert locate("The answer is n\u0131t \\boxed{7}.").value is None
