"""The red-team table of the math and exact verifiers (``math_redteam_rows.py``): every row
agrees. Attacks earn 0 and never get status ``ok``; the true equivalences beside them earn
1. ``LITERAL_ROWS`` show the ``literal=True`` option of ``math`` (an arithmetic task) beside
the default reading of the same completions.

As data for ``rlvr audit``::

    .venv/bin/python tests/verifiers/test_math_redteam.py /tmp/math_redteam.jsonl
    .venv/bin/rlvr audit --verifier math /tmp/math_redteam.jsonl
    .venv/bin/rlvr audit --verifier exact /tmp/math_redteam_exact.jsonl
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest
from math_redteam_rows import LITERAL_ROWS, ROWS
from test_math_adversarial import ROWS as ADVERSARIAL_ROWS
from test_math_adversarial import _sample, audit_table, export

FAMILIES = sorted({row[0] for row in ROWS})


@pytest.mark.parametrize("family, answer, completion, expected, _exact", ROWS)
def test_math(family, answer, completion, expected, _exact):
    from rlvr.verifiers.mathv import verify_math

    verdict = verify_math(completion, _sample(answer))
    assert verdict.reward == float(expected), (verdict.status, verdict.detail)
    assert (verdict.status == "ok") is bool(expected)


@pytest.mark.parametrize("family, answer, completion, _math, expected", [row for row in ROWS if row[4] is not None])
def test_exact(family, answer, completion, _math, expected):
    from rlvr.verifiers.exact import verify_exact

    verdict = verify_exact(completion, _sample(answer))
    assert verdict.reward == float(expected), (verdict.status, verdict.detail)
    assert (verdict.status == "ok") is bool(expected)


@pytest.mark.parametrize("answer, completion, literal_expected, default_expected", LITERAL_ROWS)
def test_literal_option(answer, completion, literal_expected, default_expected):
    from rlvr.verifiers.mathv import verify_math

    strict = verify_math(completion, _sample(answer), literal=True)
    assert strict.reward == float(literal_expected), (strict.status, strict.detail)
    default = verify_math(completion, _sample(answer))
    assert default.reward == float(default_expected), (default.status, default.detail)


def test_literal_option_through_a_spec():
    """The option reaches the verifier from a spec, as a config's ``reward.verifier`` gives it."""
    from rlvr.verifiers.composite import as_verifier

    verifier = as_verifier('{"name": "math", "options": {"literal": true}}')
    assert verifier("\\boxed{47 + 38}", _sample("85")).reward == 0.0
    assert verifier("\\boxed{85}", _sample("85")).reward == 1.0


def test_rows_are_new_and_every_family_has_both_kinds():
    seen = {(answer, completion) for _, answer, completion, _, _ in ADVERSARIAL_ROWS}
    assert [row for row in ROWS if (row[1], row[2]) in seen] == []
    assert len({(row[1], row[2]) for row in ROWS}) == len(ROWS), "a row is listed twice"
    for family in FAMILIES:
        counts = Counter(row[3] for row in ROWS if row[0] == family)
        assert counts[0] >= 6 and counts[1] >= 6, f"{family}: 6 attacks and 6 equivalences at least, got {counts}"


def test_refusals_carry_one_reason():
    from rlvr.verifiers.mathv import verify_math

    reasons = {
        ("10", "N\u043et: \\boxed{10}"): "unparsed",
        ("10", "\\boxed{11}\n<answer>10</answer>"): "several_answers",
        ("10", "It is not <answer>10</answer>"): "relation",
        ("10", "I think the answer is \\boxed{10}."): "several_answers",
        ("10", "11\n10"): "several_answers",
        ("10", "\\boxed{10}<|im_end|>Wait, it's 11"): "trailing_text",
        ("10", "\\boxed{--10}"): "unparsed",
    }
    for (answer, completion), reason in reasons.items():
        verdict = verify_math(completion, _sample(answer))
        assert verdict.info.get(f"refused/{reason}") == 1.0, (completion, verdict.info, verdict.detail)
        assert sum(v for k, v in verdict.info.items() if k.startswith("refused/")) == 1.0


def test_rlvr_audit_precision_is_one(tmp_path):
    audit_table(tmp_path, ROWS)


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "math_redteam.jsonl")
    for written in export(target, ROWS):
        print(f"wrote {written}")
    print("rows per family:", dict(sorted(Counter(row[0] for row in ROWS).items())))
