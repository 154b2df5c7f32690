"""The seventh blind table (``math_blind7_rows.py``, written blind from docs/verifiers.md without
reading the verifier) through ``math``: wrong-value, misreading and cover rows earn 0 and never get
status ``ok``; correct rows earn 1. Hedged rows (a single value stated with a hedge, a bound or a
negation, in several languages) and disowned rows (the right value stated and taken back) are
measured apart: paying one is no failure, but the rows paid are pinned in ``HEDGED_PAID`` and
``DISOWNED_PAID`` so a change in them is seen and recorded.

Rows the verifier does not yet agree with are listed in ``FAILING_NOW`` by row id
(``family#n``, the n-th row of its family) and run as ``xfail(strict=True)``, each group with
its reason, so a change that fixes one must take it off the list.

Print the scoreboard (per kind, paid and refused, and the rows that disagree)::

    PYTHONPATH=src .venv/bin/python tests/verifiers/test_math_blind7.py
"""

from __future__ import annotations

from collections import Counter

import pytest
from math_blind7_rows import FAMILY_KIND, KINDS, ROWS, row_id
from test_math_blind import _agrees, _math, check_measured, grouped, id_params

FAILING_NOW: dict[str, str] = {
    **grouped(
        "correct refused: a sentence after the marker whose words next to the value are read as changing it "
        "('covers 45 square metres' for 45; 'each friend gets 6')",
        [
            'b7_sentence_after_marker_correct#2', 'b7_sentence_after_marker_correct#3',
        ],
    ),
    **grouped(
        "correct refused: the same value in two forms read as two answers or as text after the answer "
        "('$\\frac{5}{2} = 2.5$ litres ... the answer is \\boxed{2.5}'; 'seven, i.e. \\boxed{7}'; "
        "'twelve (12)'; '\\boxed{150} minutes (2.5 hours)'; '\\boxed{1000000}, one million.')",
        [
            'b7_two_forms_correct#1', 'b7_two_forms_correct#2', 'b7_two_forms_correct#3',
            'b7_two_forms_correct#5', 'b7_two_forms_correct#7',
        ],
    ),
    **grouped(
        "correct refused: structure around the answer: an XML wrapper closed after </answer>; a leading "
        "'<|im_start|>assistant' template leftover with '<|im_end|>' and '<|endoftext|>' at the end",
        [
            'b7_structured_output_correct#4', 'b7_tags_and_templates_correct#4',
        ],
    ),
    **grouped(
        "correct refused: a Brazilian amount 'R$ 45,90' after 'Resposta:' (R$ is no currency sign the grammar reads)",
        [
            'b7_world_numbers_correct#13',
        ],
    ),
    **grouped(
        "correct refused: a few-shot output that answers and runs on into a numbered next problem "
        "('Problem 2: ...': a numbered problem may be a part of the question asked)",
        [
            'b7_fewshot_runon_correct#3',
        ],
    ),
}

# hedged / negated rows the verifier pays as committed (ids), measured, not failures
HEDGED_PAID: frozenset[str] = frozenset({
    'b7_hedged#4',
})

# disowned rows the verifier pays as committed (ids), measured, not failures
DISOWNED_PAID: frozenset[str] = frozenset({
    'b7_disowned#2', 'b7_disowned#3', 'b7_disowned#4', 'b7_disowned#7',
})

IDS = [row_id(i) for i in range(len(ROWS))]
MEASURED = {"hedged": HEDGED_PAID, "disowned": DISOWNED_PAID}


@pytest.mark.parametrize("row", id_params(ROWS, IDS, FAMILY_KIND, FAILING_NOW, lambda kind: kind not in MEASURED))
def test_math(row):
    family, reference, completion, expected, _ = row
    verdict = _math(completion, reference)
    assert _agrees(verdict, expected), (family, reference, completion, verdict)


@pytest.mark.parametrize("kind", sorted(MEASURED))
def test_measured_rows(kind):
    """Hedged / negated single values and disowned values: never an error, and the rows paid are
    exactly the ones recorded in ``HEDGED_PAID`` / ``DISOWNED_PAID``."""
    check_measured(ROWS, IDS, FAMILY_KIND, kind, MEASURED[kind])


def test_table_shape():
    kinds = Counter(FAMILY_KIND[row[0]] for row in ROWS)
    assert set(kinds) == set(KINDS) and len(ROWS) >= 200, kinds
    assert all(row[3] == (FAMILY_KIND[row[0]] == "correct") and row[4] is None for row in ROWS)
    assert len({(row[1], row[2]) for row in ROWS}) == len(ROWS), "a row is listed twice"
    assert len(set(IDS)) == len(IDS)
    assert set(FAILING_NOW) <= set(IDS) and HEDGED_PAID <= set(IDS) and DISOWNED_PAID <= set(IDS)
    assert all(FAMILY_KIND[rid.split("#")[0]] not in MEASURED for rid in FAILING_NOW)
    for kind, pinned in MEASURED.items():
        assert all(FAMILY_KIND[rid.split("#")[0]] == kind for rid in pinned)


def test_rows_are_new():
    """No row repeats a row of the six earlier blind tables."""
    import math_blind2_rows
    import math_blind3_rows
    import math_blind4_rows
    import math_blind5_rows
    import math_blind6_rows
    import math_blind_rows

    seen = set()
    for module in (math_blind_rows, math_blind2_rows, math_blind3_rows, math_blind4_rows, math_blind5_rows,
                   math_blind6_rows):
        seen |= {(row[1], row[2]) for row in module.ROWS}
    assert [row for row in ROWS if (row[1], row[2]) in seen] == []


def scoreboard() -> list[str]:
    """Per kind: rows, rows paid and refused against the label, and the disagreeing rows."""
    tally: Counter = Counter()
    lines = []
    for index, (family, reference, completion, expected, _) in enumerate(ROWS):
        kind = FAMILY_KIND[family]
        verdict = _math(completion, reference)
        tally[kind, "rows"] += 1
        if _agrees(verdict, expected):
            continue
        tally[kind, "paid" if verdict.reward else "refused"] += 1
        reasons = [k for k in verdict.info if k.startswith("refused/")]
        lines.append(f"  {IDS[index]} [{kind}] ref={reference!r} got={verdict.reward:g}/{verdict.status} "
                     f"{reasons} {completion!r}")
    summary = [f"{kind}: {tally[kind, 'rows']} rows, {tally[kind, 'paid']} paid, {tally[kind, 'refused']} refused"
               for kind in KINDS]
    return summary + lines


if __name__ == "__main__":
    print("\n".join(scoreboard()))
