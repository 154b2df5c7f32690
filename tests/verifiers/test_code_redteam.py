"""Every row of the red-team table agrees: attacks earn 0 and never get status ``ok``, controls pass.

The rows live in ``code_redteam_rows.py`` (also exported as JSONL for ``rlvr audit``).
"""

from __future__ import annotations

import json
import os
import time

import pytest
from code_redteam_rows import ALL_ROWS, CONTROLS, ROWS, RedRow, families, jsonl_rows
from test_code_attack_table import BASE, needs_sandbox

from rlvr import sandbox
from rlvr.types import Sample
from rlvr.verifiers import code as cv


def _verify(row: RedRow):
    opts = dict(BASE, **row.opts)
    held = [os.open("/dev/null", os.O_RDONLY) for _ in range(row.host_fds)]
    try:
        verdict = cv.verify_code(row.completion(), Sample(row.name, "p", fields=dict(row.fields)), **opts)
    finally:
        for fd in held:
            os.close(fd)
    return verdict, opts


@pytest.mark.sandbox
@needs_sandbox
@pytest.mark.parametrize("row", ALL_ROWS, ids=[f"{r.family}: {r.name}" for r in ALL_ROWS])
def test_row_agrees(row: RedRow):
    start = time.monotonic()
    verdict, opts = _verify(row)
    elapsed = time.monotonic() - start
    if row.expect:
        assert (verdict.reward, verdict.status) == (1.0, "ok"), verdict.detail
    else:
        allowed = (row.status,) if row.status else ("wrong", "timeout")
        assert verdict.reward == 0.0 and verdict.status in allowed, (verdict.status, verdict.detail)
    assert verdict.info["sandboxed"] == 1.0
    for key, value in row.info.items():
        assert verdict.info.get(key) == value, (key, verdict.info)
    for secret in row.hide:
        assert secret not in verdict.detail, verdict.detail
    assert elapsed < opts["timeout_s"] + 6.0  # the verifier's own deadline plus start-up


def test_table_has_new_families_and_controls():
    counts = families()
    assert len([f for f in counts if f != "controls"]) >= 15 and len(CONTROLS) >= 30, counts
    names = [(r.family, r.name) for r in ALL_ROWS]
    assert len(names) == len(set(names))
    assert all(not r.expect for r in ROWS) and all(r.expect for r in CONTROLS)


def test_table_exports_to_audit_jsonl():
    rows = jsonl_rows()
    assert len(rows) == len(ALL_ROWS)
    for record, row in zip(rows, ALL_ROWS):
        back = json.loads(json.dumps(record))
        assert back["expected"] == row.expect and row.program in back["completion"]
        assert {k: back[k] for k in row.fields} == row.fields


def test_payload_memfds_are_sealed():
    """A descriptor a sandboxed process kept by accident can read its payload, never rewrite it."""
    fd = sandbox._memfd("probe", b"payload")
    try:
        with pytest.raises(PermissionError):
            os.pwrite(fd, b"X", 0)
        with pytest.raises(PermissionError):
            os.ftruncate(fd, 1)
        assert os.pread(fd, 16, 0) == b"payload"
    finally:
        os.close(fd)
