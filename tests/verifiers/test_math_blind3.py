"""The third blind table (``math_blind3_rows.py``) through ``math``: wrong-value and cover rows
earn 0 and never get status ``ok``, correct rows earn 1. A reference the verifier refuses to read
is status ``error`` (the pool's verdict), never a pass. Rows the verifier does not yet agree with
are listed in ``FAILING_NOW`` and run as ``xfail(strict=True)``, each group with its reason, so a
change that fixes one must take it off the list."""

from __future__ import annotations

import pytest
from math_blind3_rows import FAMILY_KIND, ROWS
from test_math_blind import blind_params, check_math_row

FAILING_NOW: frozenset[int] = frozenset({
    # correct refused (trailing_text): numbers of the question or a check after the box
    381, 465, 469, 540, 633,
    # correct refused (trailing_text): the same value restated another way after the box
    # ("or 0.25", "= 0.75", "which is 12.5%", "i.e. one half", "(three)", "that is, 10^3", "(1.5 hours)")
    332,
    # correct refused: a rejected alternative after the box ("not 6", "rather than 6", "x = -3 is extraneous")
    541, 658,
    # correct refused (unparsed): words with accented Latin letters, Cyrillic or Greek elsewhere in the text
    645,
    # correct refused: a multiple-choice letter written with its option's value
    686,
    # correct refused (math-verify): 9.8\ \mathrm{m/s^2} against the reference 9.8 \text{ m/s}^2
    445,
})


@pytest.mark.parametrize("index,row", blind_params(ROWS, FAILING_NOW))
def test_math(index, row):
    check_math_row(row)


def test_table_shape():
    kinds = {FAMILY_KIND[row[0]] for row in ROWS}
    assert kinds == {"wrong_value", "cover", "correct"}
    assert len(ROWS) >= 600 and len(FAMILY_KIND) >= 80
    assert all(row[3] == (FAMILY_KIND[row[0]] == "correct") for row in ROWS)
    assert sum(row[3] for row in ROWS) >= 0.45 * len(ROWS)
