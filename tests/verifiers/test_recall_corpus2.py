"""The split recall corpus ``tests/data/math_recall2`` (real, graded outputs from public
repositories, each source in a tuning and a held-out half, built by
``bench/build_math_recall2.py``) and ``rlvr scoreboard --split``.

The corpus is data, so it is checked like data: every file parses and is the half its name
says, each row is in the half its id hashes to, the rows are the documented counts, every
row names its source, licence, commit, reference and format family, and each repository's
licence text lies beside it. No recall figure is asserted here.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from rlvr.commands.scoreboard import FAMILIES, format_family

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "math_recall2"
RLVR = [sys.executable, "-m", "rlvr.cli"]
KEYS = ("id", "source", "split", "licence", "repo", "commit", "path", "model", "reference", "completion", "grade",
        "grade_from", "lang", "family", "mv", "label")
LICENCE_TEXT = {"MIT": "Permission is hereby granted", "Apache-2.0": "Apache License",
                "CC-BY-4.0": "Creative Commons Attribution 4.0 International",
                "CC-BY-SA-4.0": "Attribution-ShareAlike 4.0 International"}
LANGS = {"en", "zh", "bn", "de", "es", "fr", "ja", "ru", "sw", "te", "th"}
CORRECT_ONLY = {"mgsm_exemplars_native"}  # human-written exemplars: every row is correct

# (source, half) -> (rows, label 1, label 0), as bench/build_math_recall2.py wrote them
COUNTS = {
    ("gaokao_gpt4_zh_mcq", "heldout"): (159, 74, 85),
    ("gaokao_gpt4_zh_mcq", "tune"): (141, 73, 68),
    ("pot_aqua_gpt4", "heldout"): (110, 76, 34),
    ("pot_aqua_gpt4", "tune"): (109, 74, 35),
    ("mgsm_exemplars_native", "heldout"): (35, 35, 0),
    ("mgsm_exemplars_native", "tune"): (45, 45, 0),
    ("bbh_codex_fewshot", "heldout"): (147, 73, 74),
    ("gaokao_gpt4_zh", "heldout"): (60, 34, 26),
    ("math_vision_outputs", "heldout"): (142, 71, 71),
    ("mr_ben_math_human", "heldout"): (152, 79, 73),
    ("mr_gsm8k_human", "heldout"): (114, 7, 107),
    ("zeroeval_gsm_json", "heldout"): (143, 75, 68),
    ("zeroeval_math_json", "heldout"): (135, 72, 63),
    ("bbh_codex_fewshot", "tune"): (151, 77, 74),
    ("gaokao_gpt4_zh", "tune"): (69, 28, 41),
    ("math_vision_outputs", "tune"): (158, 79, 79),
    ("mr_ben_math_human", "tune"): (148, 71, 77),
    ("mr_gsm8k_human", "tune"): (102, 8, 94),
    ("zeroeval_gsm_json", "tune"): (157, 88, 69),
    ("zeroeval_math_json", "tune"): (165, 88, 77),
    # added after the math verifier's rules were frozen at 13dc0e0
    ("faithful_cot_fewshot", "tune"): (159, 75, 84),
    ("faithful_ltm_fewshot", "tune"): (154, 75, 79),
    ("mathvista_pot_exec", "tune"): (126, 53, 73),
    ("mathvista_chat_freeform", "tune"): (156, 72, 84),
    ("faithful_cot_fewshot", "heldout"): (141, 75, 66),
    ("faithful_ltm_fewshot", "heldout"): (146, 75, 71),
    ("mathvista_pot_exec", "heldout"): (127, 50, 77),
    ("mathvista_chat_freeform", "heldout"): (144, 78, 66),
}


def _files() -> dict[tuple[str, str], list[dict]]:
    out = {}
    for path in sorted(CORPUS.glob("*.jsonl.gz")):
        m = re.fullmatch(r"([a-z0-9_]+)\.(tune|heldout)\.jsonl\.gz", path.name)
        assert m, f"{path.name}: not <source>.<tune|heldout>.jsonl.gz"
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            out[(m.group(1), m.group(2))] = [json.loads(line) for line in fh]
    return out


FILES = _files()
ROWS = [r for rows in FILES.values() for r in rows]


def test_the_files_are_the_documented_halves_and_counts():
    assert set(FILES) == set(COUNTS)
    for key, rows in FILES.items():
        labels = Counter(r["label"] for r in rows)
        assert (len(rows), labels[1], labels[0]) == COUNTS[key], key
    assert len({source for source, _ in FILES}) >= 6


def test_each_row_is_in_the_half_its_id_hashes_to():
    for (source, half), rows in FILES.items():
        for row in rows:
            assert row["source"] == source and row["split"] == half, row["id"]
            odd = hashlib.sha256(row["id"].encode("utf-8")).digest()[0] % 2
            assert half == ("heldout" if odd else "tune"), row["id"]
    ids = Counter(r["id"] for r in ROWS)
    assert max(ids.values()) == 1, ids.most_common(3)


def test_every_row_is_complete_and_labelled():
    for row in ROWS:
        missing = [k for k in KEYS if k not in row]
        assert not missing, (row["id"], missing)
        assert row["licence"] in LICENCE_TEXT, row["id"]
        assert re.fullmatch(r"[0-9a-f]{40}", row["commit"]) and "/" in row["repo"], row["id"]
        assert isinstance(row["reference"], str) and row["reference"].strip(), row["id"]
        assert isinstance(row["completion"], str) and row["completion"].strip(), row["id"]
        assert row["grade"] in (0, 1) and row["label"] in (0, 1) and row["mv"] in (0, 1), row["id"]
        assert row["family"] in FAMILIES and row["family"] == format_family(row["completion"]), row["id"]
        assert row["id"].startswith(row["source"] + "/"), row["id"]
        assert row["label"] == row["grade"] or row.get("label_note"), row["id"]  # an override says why
        assert row["lang"] in LANGS, row["id"]


def test_each_source_has_both_labels_and_one_repository():
    for source in {s for s, _ in FILES}:
        rows = [r for r in ROWS if r["source"] == source]
        assert {r["label"] for r in rows} == ({1} if source in CORRECT_ONLY else {0, 1}), source
        assert len({(r["repo"], r["commit"], r["licence"]) for r in rows}) == 1, source


def test_licence_notices_and_readme():
    readme = (CORPUS / "README.md").read_text(encoding="utf-8")
    for repo, commit, licence in {(r["repo"], r["commit"], r["licence"]) for r in ROWS}:
        notice = CORPUS / "LICENCES" / (repo.replace("/", "+") + ".txt")
        text = notice.read_text(encoding="utf-8")
        assert text.startswith(f"{repo} at {commit}") and LICENCE_TEXT[licence] in text, notice
        assert repo in readme and commit[:7] in readme, repo
    for source in {s for s, _ in FILES}:
        assert f"`{source}`" in readme, source
    assert sum(p.stat().st_size for p in CORPUS.rglob("*") if p.is_file()) < 2_000_000


@pytest.mark.parametrize("text, family", [
    ('```json\n{\n    "reasoning": "4 + 5 = 9",\n    "answer": "9"\n}\n```', "json_answer"),
    ('{"reasoning": "so \\\\boxed{9}", "answer": 9}', "json_answer"),
    ("【解析】3+6=9<eoe>\n【答案】9<eoa>", "answer_line"),
    ("解：3+6=9\n答案：9", "answer_line"),
    ("5 + 6 = 11。答案是 11。", "answer_is"),
    ("5 + 6 = 11. Ответ — 11.", "answer_is"),
    ("5 + 6 = 11. Die Antwort lautet 11.", "answer_is"),
    ("ดังนั้น 5 + 6 = 11 คำตอบคือ 11", "answer_is"),
    ("The answer is 9.", "answer_is"),
])
def test_format_family_of_the_new_forms(text, family):
    assert format_family(text) == family


def test_scoreboard_reads_one_half(tmp_path):
    tables, corpus = tmp_path / "tables", tmp_path / "corpus"
    tables.mkdir()
    corpus.mkdir()
    (tables / "math_value_rows.py").write_text('ROWS = [("unit", "90", "\\\\boxed{91}", 0, 0)]\n'
                                               'FAMILY_KIND = {"unit": "wrong_value"}\n')
    tune = [{"id": "s/1", "source": "s", "licence": "MIT", "reference": "18", "label": 1,
             "completion": '{"reasoning": "9 + 9 = 18", "answer": "18"}'},
            {"id": "s/2", "source": "s", "licence": "MIT", "reference": "18", "label": 1,
             "completion": "9 + 9 = 18\nThe answer is 18."},
            {"id": "s/3", "source": "s", "licence": "MIT", "reference": "18", "label": 0,
             "completion": "9 + 8 = 17\nThe answer is 17."}]
    heldout = [{"id": "s/4", "source": "s", "licence": "MIT", "reference": "5", "label": 1,
                "completion": "The answer is 5."}]
    for name, rows in (("s.tune", tune), ("s.heldout", heldout)):
        with gzip.open(corpus / f"{name}.jsonl.gz", "wt") as fh:
            fh.writelines(json.dumps({**r, "family": format_family(r["completion"])}) + "\n" for r in rows)
    out = subprocess.run(RLVR + ["scoreboard", "--split", "tune", "--tables", str(tables), "--corpus", str(corpus),
                                 "--workers", "0", "--json", str(tmp_path / "fig.json"),
                                 "--disagreements", str(tmp_path / "d.jsonl")],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "3 corpus rows from 1 sources" in out.stdout and "The tune half of the split corpus" in out.stdout
    assert "bar (tune), no incorrect row paid by math: met" in out.stdout  # Math-Verify pays none either
    assert ">= 99 % overall" not in out.stdout  # the own corpus's bar is not applied to a half
    figures = json.loads((tmp_path / "fig.json").read_text())
    assert figures["split"]["half"] == "tune"
    s, total = figures["split"]["by_source"]
    assert s["source"] == "s" and total["source"] == "(all)"
    assert (s["rows"], s["marked_correct"], s["json_correct"], s["incorrect"]) == (3, 2, 1, 1)
    assert (s["mv"], s["json_mv"], s["paid_mv"]) == (2, 1, 0)  # Math-Verify reads both, pays 17 for nothing
    assert s["math_of_mv"][1] == 2 and 0 <= s["math_of_mv"][0] <= 2 and s["math"] >= s["math_of_mv"][0]
    missing = subprocess.run(RLVR + ["scoreboard", "--split", "heldout", "--tables", str(tables), "--corpus",
                                     str(tmp_path), "--workers", "0"],
                             capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert missing.returncode == 2 and "no corpus files (*.heldout.jsonl.gz)" in missing.stderr


# ------------------------------------------------------------------ the builder's reimplemented grades

sys.path.insert(0, str(ROOT / "bench"))
import build_math_recall2 as builder  # noqa: E402


@pytest.mark.parametrize("output, reference, grade", [
    ('```json\n{\n    "reasoning": "9 + 9",\n    "answer": "18"\n}\n```', "# 18", 1),
    ('{"reasoning": "...", "answer": "$1,800"}', "1800", 1),           # $ and commas dropped
    ('{"reasoning": "...", "answer": "3/4"}', "0.75", 1),              # a plain fraction divided out
    ('{"reasoning": "...", "answer": "18 eggs"}', "18", 1),            # first numbers compared
    ('{"reasoning": "...", "answer": "5\\\\sqrt{2}"}', "5", 1),       # ... which is why MATH rows are read
    ('{"reasoning": "a "quoted" word", "answer": "17"}', "17", 1),    # broken JSON: the regex fallback
    ('{"reasoning": "...", "answer": 200 / 1 = 200}', "2400", 0),
    ("no JSON at all, so 18", "18", 0),
])
def test_zeroeval_grade_follows_the_harness(output, reference, grade):
    assert builder.zeroeval_grade(output, reference) == grade


@pytest.mark.parametrize("prediction, answer", [
    ("5 + 6 = 11. So the answer is 11.", "11"),
    ("So the answer is 3. Then 3 + 4 = 7. So the answer is 7.\nQ: next", "7"),
    ("no marker -16128", "no marker -16128"),
])
def test_bbh_answer_reads_the_last_marker(prediction, answer):
    assert builder.bbh_answer(prediction) == answer


def test_split_and_pick_read_only_ids_and_grades():
    ids = [f"s/{k}" for k in range(400)]
    halves = Counter(builder.split_of(i) for i in ids)
    assert set(halves) == {"tune", "heldout"} and 150 < halves["tune"] < 250
    assert builder.split_of("zeroeval_gsm_json/gemma-2-2b-it/gsm8k-main-test-#0") == builder.split_of(
        "zeroeval_gsm_json/gemma-2-2b-it/gsm8k-main-test-#0")
    rows = [{"id": i, "grade": int(k % 3 == 0), "completion": "x"} for k, i in enumerate(ids)]
    picked = builder.pick(rows, 10, 5)
    assert [r["grade"] for r in picked] == [1] * 10 + [0] * 5
    shuffled = builder.pick(list(reversed(rows)), 10, 5)
    assert [r["id"] for r in shuffled] == [r["id"] for r in picked]  # the order of the source does not matter


@pytest.mark.parametrize("text, value", [
    ("18", 18), ("$1,800", 1800), ("-2 seconds", 2),       # the harness drops the sign
    ("2.5 hours", 2), ("1 1/2", 1), ("[invalid]", None), ("no number", None),
])
def test_faithful_number_follows_the_harness(text, value):
    assert builder.faithful_number(text) == value


@pytest.mark.parametrize("completion, answer, reference, kept", [
    ("9 * 2 = 18. The answer is 18.", "18", 18, True),
    ("9 * 2 = 18. The answer is 18 dollars.\n\n", "18 dollars", 18, True),
    ("The answer is 138.00.", "138.00", 138, True),            # a whole number as written
    ("220 - 222 = -2 seconds. The answer is -2.", "-2", 2, False),  # the harness would pass -2 for 2
    ("The answer is 2.5.", "2.5", 2, False),                   # ... and 2.5 for 2
    ("The answer is $129 + $92 = $221.", "$129 + $92 = $221", 221, False),  # graded by 129
    ("So Stan caught 147 Pokemon.", "[invalid]", 147, False),  # no marker
    ("The answer is -10.", "-10", -10, False),                 # a negative reference is never met
    ("The answer is 7.", "5", 7, False),                       # the harness read something else
])
def test_faithful_rows_kept_where_the_grade_reads_the_answer(completion, answer, reference, kept):
    assert builder.faithful_gradable({"completion": completion, "answer": answer}, reference) is kept


@pytest.mark.parametrize("value, answer_type, precision, normalised", [
    ("250.0", "integer", None, "250"), ("1.2247", "float", 1, "1.2"), ("0.214", "float", "2", "0.21"),
    ("n/a", "integer", None, None), ("3", "text", None, None),
])
def test_mathvista_normalise_follows_the_benchmark(value, answer_type, precision, normalised):
    assert builder.mathvista_normalise(value, answer_type, precision) == normalised


@pytest.mark.parametrize("response, extraction, answer_type, kept", [
    ("There are two objects left on the table.", "2", "integer", True),
    ("So the answer is 13.80", "13.8", "float", True),
    ("The total is 1,250 dollars.", 1250, "integer", True),
    ("The text does not provide how many shipments had 56 boxes.", "0", "integer", False),  # made up
    ("The ratio was 1.5.", "1.5", "integer", False),            # the benchmark would truncate it to 1
    ("It is 4 or 5.", "6", "integer", False),
])
def test_mathvista_rows_kept_where_the_response_states_the_extracted_value(response, extraction, answer_type, kept):
    item = {"response": response, "extraction": extraction, "answer_type": answer_type}
    assert builder.mathvista_states(item) is kept
