"""Every row of the code verifier's adversarial table agrees: attacks earn 0, controls pass.

The rows live in ``code_attack_rows.py`` (also exported as JSONL for ``rlvr audit``).
"""

from __future__ import annotations

import json
import os
import time

import pytest
from code_attack_rows import ALL_ROWS, CONTROLS, ROWS, Row, jsonl_rows

from rlvr import sandbox
from rlvr.types import Sample
from rlvr.verifiers import code as cv

REASON = sandbox.probe() or (None if os.path.exists("/usr/bin/python3") else "/usr/bin/python3 missing")
needs_sandbox = pytest.mark.skipif(REASON is not None, reason=f"sandbox unavailable: {REASON}")

BASE = {"timeout_s": 4.0, "case_timeout_s": 1.0}


def _verify(row: Row):
    opts = dict(BASE, **row.opts)
    return cv.verify_code(row.completion(), Sample(row.name, "p", fields=dict(row.fields)), **opts), opts


@pytest.mark.sandbox
@needs_sandbox
@pytest.mark.parametrize("row", ALL_ROWS, ids=[f"{r.family}: {r.name}" for r in ALL_ROWS])
def test_row_agrees(row: Row):
    start = time.monotonic()
    verdict, opts = _verify(row)
    elapsed = time.monotonic() - start
    assert (verdict.reward, verdict.status) == (float(row.expect), row.expected_status), verdict.detail
    assert verdict.info["sandboxed"] == 1.0
    assert (verdict.info["pass_rate"] == 1.0) is bool(row.expect)
    assert elapsed < opts["timeout_s"] + 6.0  # the verifier's own deadline plus start-up


def test_table_covers_every_family_with_several_rows():
    families: dict[str, int] = {}
    for row in ROWS:
        families[row.family] = families.get(row.family, 0) + 1
    assert len(families) >= 17 and min(families.values()) >= 4, families
    assert len(CONTROLS) >= 40
    names = [(r.family, r.name) for r in ALL_ROWS]
    assert len(names) == len(set(names))  # no row twice


def test_table_exports_to_audit_jsonl(tmp_path):
    rows = jsonl_rows()
    assert len(rows) == len(ALL_ROWS)
    for record, row in zip(rows, ALL_ROWS):
        back = json.loads(json.dumps(record))
        assert back["expected"] == row.expect and row.program in back["completion"]
        assert {k: back[k] for k in row.fields} == row.fields
