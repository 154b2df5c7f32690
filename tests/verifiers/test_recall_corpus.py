"""The recall corpus ``tests/data/math_recall`` (real, graded outputs from public
repositories, built by ``bench/build_math_recall.py``) and ``rlvr scoreboard``.

The corpus is data, so it is checked like data: every file parses, every row names its
source, licence, reference and format family, each source's licence text lies beside it,
and the corpus is as large and as varied as documented. Then a fixed sample of it measures
the math verifier's recall against a floor (the figure measured when the floor was set; a
change that loses recall on real outputs fails here), and no output its source grades
incorrect may be paid.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from rlvr.commands.scoreboard import FAMILIES, format_family
from rlvr.types import Sample

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "math_recall"
RLVR = [sys.executable, "-m", "rlvr.cli"]
KEYS = ("id", "source", "licence", "repo", "commit", "path", "reference", "completion", "grade", "grade_from",
        "family", "mv", "label")


def _rows() -> list[dict]:
    rows = []
    for path in sorted(CORPUS.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            rows += [json.loads(line) for line in fh]
    return rows


ROWS = _rows()


def test_every_row_is_complete_and_labelled():
    assert ROWS, f"no corpus in {CORPUS}"
    ids = Counter(r["id"] for r in ROWS)
    assert max(ids.values()) == 1, ids.most_common(3)
    for row in ROWS:
        missing = [k for k in KEYS if k not in row]
        assert not missing, (row["id"], missing)
        assert row["source"] and row["licence"] in ("MIT", "Apache-2.0", "CC-BY-4.0"), row["id"]
        assert isinstance(row["reference"], str) and row["reference"].strip(), row["id"]
        assert isinstance(row["completion"], str) and row["completion"].strip(), row["id"]
        assert row["grade"] in (0, 1) and row["label"] in (0, 1) and row["mv"] in (0, 1), row["id"]
        assert row["family"] in FAMILIES and row["family"] == format_family(row["completion"]), row["id"]
        assert row["id"].startswith(row["source"] + "/") and len(row["commit"]) == 40, row["id"]
        assert row["label"] == row["grade"] or row.get("label_note"), row["id"]  # an override says why


def test_corpus_size_sources_and_licence_notices():
    sources = Counter(r["source"] for r in ROWS)
    assert len(ROWS) >= 5000 and len(sources) >= 6, sources
    for repo in {r["repo"] for r in ROWS}:
        notice = CORPUS / "LICENCES" / (repo.replace("/", "+") + ".txt")
        assert notice.exists() and "Permission is hereby granted" in notice.read_text(), notice
    files = sorted(p.name for p in CORPUS.glob("*.jsonl.gz"))
    assert files == sorted(f"{s}.jsonl.gz" for s in sources)  # one file per source
    assert sum(p.stat().st_size for p in CORPUS.rglob("*") if p.is_file()) < 5_000_000
    assert {r["family"] for r in ROWS} >= {"boxed", "answer_is", "hash", "answer_line"}
    assert Counter(r["label"] for r in ROWS)[0] >= 3000  # graded-incorrect outputs: the precision side


@pytest.mark.parametrize("text, family", [
    ("so \\boxed{5}", "boxed"),
    ("**Final Answer**\n\\[\n\\boxed{110}\n\\]", "final_answer_label"),
    ("### Final Answer\n$$\n\\boxed{110}\n$$", "final_answer_label"),
    ("**Final Answer:** \\boxed{12}", "final_answer_label"),
    ("### Final Answer\n\nThe final answer is $\\boxed{5}$.", "final_answer_label"),
    ("Final Answer: The final answer is $5$. I hope it is correct.", "answer_is"),
    ("<reasoning>2+3</reasoning>\n<answer>5</answer>", "answer_tag"),
    ("3 + 2 = 5\n#### 5", "hash"),
    ("3 + 2 = <<3+2=5>>5\nA: 5", "answer_line"),
    ("The sum is 5.", "unmarked"),
    ("#### Case 1: x = 2", "unmarked"),
])
def test_format_family(text, family):
    assert format_family(text) == family


def sample() -> list[dict]:
    """A fixed sample: per source, the first 50 correct and 15 incorrect rows by hash of id."""
    picked = []
    for source in sorted({r["source"] for r in ROWS}):
        rows = sorted((r for r in ROWS if r["source"] == source), key=lambda r: hashlib.sha1(r["id"].encode()).digest())
        picked += [r for r in rows if r["label"] == 1][:50] + [r for r in rows if r["label"] == 0][:15]
    return picked


# Measured on the sample when the floor was set (the math verifier at commit 63d19d3, nothing of it
# changed in the working tree): 294 of 324 correct rows accepted (ToRA's tool-integrated endings:
# 42 of 50, MATH-500 reference solutions: 34 of 50); 45 incorrect rows, none paid. (At 97d80e2,
# before the box-sentence work: 268.) Raise it when recall improves.
RECALL_FLOOR = 294


def test_math_recall_on_a_fixed_sample_stays_above_its_floor():
    from rlvr.verifiers.mathv import verify_math

    rows = sample()
    correct = [r for r in rows if r["label"] == 1]
    incorrect = [r for r in rows if r["label"] == 0]
    assert len(rows) >= 300 and len(incorrect) >= 30
    accepted = paid = 0
    for r in rows:
        ok = verify_math(r["completion"], Sample(id=r["id"], prompt="", answer=r["reference"])).status == "ok"
        if r["label"]:
            accepted += ok
        else:
            paid += ok
            assert not ok, ("an output its source grades incorrect was paid", r["id"])
    assert accepted >= RECALL_FLOOR, f"recall {accepted}/{len(correct)} fell below the floor {RECALL_FLOOR}"
    assert paid == 0


# ------------------------------------------------------------------ the scoreboard on tiny inputs

TABLE = '''
ROWS = [
    ("unit", "90", "\\\\boxed{91}", 0, 0),
    ("hedge", "10", "The answer is not 10.", 0, 0),
    ("hedge", "10", "The answer is 10.", 1, 1),
    ("odd", "5", "\\\\boxed{6}", 0, None),
]
FAMILY_KIND = {"unit": "wrong_value", "hedge": "disowned"}
'''


def test_scoreboard_on_tiny_inputs(tmp_path):
    tables, corpus = tmp_path / "tables", tmp_path / "corpus"
    tables.mkdir()
    corpus.mkdir()
    (tables / "math_value_rows.py").write_text(TABLE)
    rows = [{"id": "s/1", "source": "s", "licence": "MIT", "reference": "18", "family": "boxed", "label": 1,
             "completion": "the scoop is not on the bottom is \\(\\boxed{18}\\)."},
            {"id": "s/2", "source": "s", "licence": "MIT", "reference": "18", "family": "answer_line", "label": 1,
             "completion": "9 + 9 = 18\nA: 18"},
            {"id": "s/3", "source": "s", "licence": "MIT", "reference": "18", "family": "answer_line", "label": 0,
             "completion": "9 + 8 = 17\nA: 17"},
            {"id": "s/4", "source": "s", "licence": "MIT", "reference": "18", "family": "unmarked", "label": 1,
             "completion": "So the total is 18."}]
    with gzip.open(corpus / "s.jsonl.gz", "wt") as fh:
        fh.writelines(json.dumps(r) + "\n" for r in rows)
    out_file = tmp_path / "disagree.jsonl"
    out = subprocess.run(RLVR + ["scoreboard", "--tables", str(tables), "--corpus", str(corpus), "--workers", "0",
                                 "--disagreements", str(out_file), "--json", str(tmp_path / "fig.json")],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "4 table rows in 1 tables, 4 corpus rows from 1 sources" in text
    assert "bar, no wrong value, misreading or cover paid by math: met" in text
    figures = json.loads((tmp_path / "fig.json").read_text())
    by = {(f["table"], f["verifier"]): f for f in figures["precision"]}
    assert by[("math_value_rows", "math")]["paid"] == {"wrong_value": [0, 1], "disowned": [0, 1],
                                                      "unclassified": [0, 1]}
    assert by[("math_value_rows", "math")]["true_accepted"] == [1, 1]
    assert by[("math_value_rows", "exact")]["paid"] == {"wrong_value": [0, 1], "disowned": [0, 1]}
    assert by[("math_value_rows", "math-verify")]["paid"]["disowned"] == [1, 1]  # "not 10" read as 10
    recall = {f["verifier"]: f for f in figures["recall_by_source"] if f["group"] == "s"}
    assert [f["group"] for f in figures["recall_by_source"]] == ["s"] * 3 + ["(all)"] * 3
    assert recall["math-verify"]["marked"] == [2, 2] and recall["math-verify"]["incorrect_paid"] == [0, 1]
    assert recall["math"]["marked"][1] == 2 and recall["math"]["unmarked"][1] == 1
    assert recall["math"]["incorrect_paid"] == [0, 1]
    refused = recall["math"]["marked"][1] - recall["math"]["marked"][0]  # each refusal has its reason
    assert sum(figures["refusals"].get("s", {}).values()) == refused
    lines = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert figures["disagreements"] == len(lines) and f"disagree on {len(lines)} rows" in text
    assert "math_value_rows/hedge-1" in {d["id"] for d in lines}
    assert all({"reference", "completion", "math_status", "mv_status", "label"} <= set(d) for d in lines)


def test_scoreboard_names_a_missing_corpus(tmp_path):
    out = subprocess.run(RLVR + ["scoreboard", "--corpus", str(tmp_path), "--workers", "0"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 2
    assert out.stderr.strip() == f"rlvr scoreboard: error: no corpus files (*.jsonl.gz) in {tmp_path}: run from a " \
                                 "checkout or give --corpus"


def test_a_table_gives_its_rows_questions(tmp_path):
    from rlvr.commands.scoreboard import grade, load_tables

    (tmp_path / "math_q_rows.py").write_text(
        'ROWS = [("rate", "120", "Answer: She earns $120 per hour.", 0, None),\n'
        '        ("rate", "15", "Answer: She earns $15 per hour.", 1, None)]\n'
        'QUESTIONS = ["Maria is paid $15 per hour for 8 hours. How much does she earn in total?",\n'
        '             "Maria is paid $120 for 8 hours. How much does she earn per hour?"]\n'
        'FAMILY_KIND = {"rate": "wrong_value"}\n')
    rows = load_tables(tmp_path)[0]["rows"]
    assert [r["question"] for r in rows][1].endswith("per hour?")
    verdicts = grade("math", rows, workers=0, timeout=60)
    assert [v.status == "ok" for v in verdicts] == [False, True]  # the question decides both rows
    (tmp_path / "math_q_rows.py").write_text('ROWS = [("rate", "1", "1", 1, None)]\nQUESTIONS = ["a", "b"]\n')
    with pytest.raises(Exception, match="QUESTIONS has 2 entries for 1 rows"):
        load_tables(tmp_path)
