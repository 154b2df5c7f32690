"""The second outside-style code table (``code_blind2_rows.py``): attacks earn 0 with status
``wrong`` or ``timeout``, honest programs pass with status ``ok``. Labels are plain Python's
(``python bench/code_plain_labels.py`` runs every row without the verifier).

Rows the verifier does not yet get right are listed in ``RUNTIME_PENDING`` (id: reason) and run
as ``xfail(strict=True)``: the suite stays green while the verifier changes, and a fix that
makes a listed row agree fails its test until the row is taken off the list.
"""

from __future__ import annotations

import importlib.util

import pytest
from code_blind2_rows import ATTACKS, CONTROLS, ROWS, families, row_id
from code_blind_rows import agrees
from test_code_attack_table import needs_sandbox

from rlvr.types import Sample
from rlvr.verifiers import code as cv

HAS_NUMPY = importlib.util.find_spec("numpy") is not None

# 45 rows at bfa4c22; 30 agreed after the judge's first fixes of issue 34 (real classes, values, exits), 14 more
# since (shared state, test subclasses and exceptions, records as dataclasses, numpy); one refused by design
RUNTIME_PENDING: dict[str, str] = {
    'lying containers: control: dict subclass whose items() the test reads through json.dumps':
        "refused by design: json.dumps reads a dict subclass through its own items(); the judge's copy of a "
        "builtin subclass keeps the base type's methods for every name the base type defines (a lying items(), "
        "keys() or startswith() never decides a test: the earlier tables' rule, stricter than plain Python)",
}


def _param(row):
    marks = []
    if row_id(row) in RUNTIME_PENDING:
        marks.append(pytest.mark.xfail(strict=True, reason=RUNTIME_PENDING[row_id(row)]))
    if row.family == "numpy" and not HAS_NUMPY:
        marks.append(pytest.mark.skip(reason="numpy is not installed: the label assumes it"))
    return pytest.param(row, marks=marks, id=row_id(row))


@pytest.mark.sandbox
@needs_sandbox
@pytest.mark.parametrize("row", [_param(r) for r in ROWS])
def test_row_agrees(row):
    verdict = cv.verify_code(row.completion(), Sample(row_id(row), "p", fields=dict(row.fields)), **row.opts)
    assert agrees(row, verdict), (verdict.reward, verdict.status, verdict.info, verdict.detail)


def test_families_and_kinds():
    counts = families()
    for family in ("decorated tests", "builtin names", "lying containers", "faked stdlib types", "identity and type",
                   "state", "exceptions and exits", "pytest fixtures"):
        assert counts[family]["attack"] >= 4 and counts[family]["control"] >= 2, (family, counts[family])
    assert len(ATTACKS) >= 60 and len(CONTROLS) >= 55
    ids = [row_id(r) for r in ROWS]
    assert len(ids) == len(set(ids))
    assert set(RUNTIME_PENDING) <= set(ids), sorted(set(RUNTIME_PENDING) - set(ids))
