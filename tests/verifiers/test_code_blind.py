"""The blind table (``code_blind_rows.py``): attacks earn 0 with their status, controls pass.

Rows the runtime does not yet get right are listed in ``RUNTIME_PENDING`` and run as
``xfail(strict=True)``: the suite stays green while the runtime changes land, and a fix that
makes a listed row agree fails its test until the row is taken off the list. The list only
shrinks; a row that regresses is a plain failure.
"""

from __future__ import annotations

import json
import time

import pytest
from code_blind_rows import ATTACKS, CONTROLS, ROWS, agrees, families, jsonl_rows, row_id
from test_code_attack_table import BASE, needs_sandbox

from rlvr.types import Sample
from rlvr.verifiers import code as cv

# Rows that disagree on the runtime as committed (ids: "family: kind: name"). Shrink it as the
# runtime gets them right; never add a row to it to hide a regression.
RUNTIME_PENDING: frozenset[str] = frozenset()


def _param(row):
    pending = row_id(row) in RUNTIME_PENDING
    marks = [pytest.mark.xfail(strict=True, reason="listed in RUNTIME_PENDING")] if pending else []
    return pytest.param(row, marks=marks, id=row_id(row))


@pytest.mark.sandbox
@needs_sandbox
@pytest.mark.parametrize("row", [_param(r) for r in ROWS])
def test_row_agrees(row):
    opts = dict(BASE, **row.opts)
    start = time.monotonic()
    verdict = cv.verify_code(row.completion(), Sample(row_id(row), "p", fields=dict(row.fields)), **opts)
    elapsed = time.monotonic() - start
    assert agrees(row, verdict), (verdict.reward, verdict.status, verdict.info, verdict.detail)
    if row.status == "timeout":  # a hang ends at its wall, not before and not much after
        assert opts["timeout_s"] - 0.5 < elapsed < opts["timeout_s"] + 6.0, elapsed
    assert elapsed < opts["timeout_s"] + 6.0


def test_families_and_kinds():
    counts = families()
    assert len(counts) >= 14, counts
    for family in ("hang", "tests never run", "builtin names", "crash in bare except", "forbidden mutation",
                   "dataclass equality", "silence required", "late io output"):
        assert counts[family]["attack"] >= 3 and counts[family]["control"] >= 1, (family, counts[family])
    for family in ("python objects", "lazy generators", "required mutation", "process state", "threads and scale"):
        assert counts[family]["control"] >= 3, (family, counts[family])
    assert len(ATTACKS) >= 40 and len(CONTROLS) >= 40
    ids = [row_id(r) for r in ROWS]
    assert len(ids) == len(set(ids))
    assert RUNTIME_PENDING <= set(ids), sorted(RUNTIME_PENDING - set(ids))
    assert all(r.status == "timeout" for r in ROWS if r.family == "hang" and not r.expect)


def test_table_exports_to_audit_jsonl():
    rows = jsonl_rows()
    assert len(rows) == len(ROWS)
    for record, row in zip(rows, ROWS):
        back = json.loads(json.dumps(record))
        assert back["expected"] == row.expect and row.program in back["completion"]
        assert {k: back[k] for k in row.fields} == row.fields
