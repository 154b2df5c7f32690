"""`rlvr verify` and `rlvr audit` end to end, as subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

RLVR = [sys.executable, "-m", "rlvr.cli"]


def run_rlvr(args: list[str], stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(RLVR + args, input=stdin, capture_output=True, text=True, timeout=timeout)


LINES = [
    json.dumps({"id": "a", "verifier": "math", "completion": "so \\boxed{\\frac12}", "answer": "0.5"}),
    "this is not json",
    json.dumps({"id": "c", "verifier": "nope", "completion": "x"}),
    json.dumps({"id": "d", "verifier": "exact", "completion": "<think>1+2=3</think><answer>3</answer>", "answer": 3}),
    json.dumps({"id": "e", "verifier": {"composite": {"exact": 1.0, "format": 0.1}},
                "completion": "<think>1+2=3</think><answer>3</answer>", "answer": "3"}),
    json.dumps({"id": "f", "verifier": "math", "completion": "\\boxed{1}"}),
    json.dumps({"id": "g", "completion": "<answer>2</answer>", "answer": "2"}),
    "",
    json.dumps([1, 2]),
    json.dumps({"id": "i", "verifier": "math", "answer": "1"}),
    json.dumps({"id": "j", "verifier": "math", "completion": "$9^{9^{9^{9^{9}}}}$", "answer": "1"}),
    json.dumps({"id": "k", "verifier": "math", "completion": "\\boxed{2}", "answer": "1"}),
]


def test_verify_stream_with_bad_lines_keeps_order_and_reports_line_numbers():
    out = run_rlvr(["verify", "--workers", "2", "--timeout", "1.5"], "\n".join(LINES) + "\n")
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["id"] for r in records] == ["a", 2, "c", "d", "e", "f", "g", 9, "i", "j", "k"]
    assert [r["status"] for r in records] == ["ok", "error", "error", "ok", "ok", "error", "error",
                                              "error", "error", "timeout", "wrong"]
    by_id = {r["id"]: r for r in records}
    assert by_id[2]["detail"].startswith("line 2: invalid JSON")
    assert "line 3: unknown verifier 'nope'; valid: code, exact, format, gym, math, proof" in by_id["c"]["detail"]
    assert by_id["e"]["reward"] == pytest.approx(1.1) and by_id["e"]["info"] == {"acc": 1.0, "format": 1.0}
    assert by_id["f"]["detail"] == "line 6: verifier 'math' needs field 'answer'"
    assert by_id["g"]["detail"] == "line 7: no 'verifier' field and no --verifier default"
    assert by_id[9]["detail"] == "line 9: expected a JSON object, got list"
    assert by_id["i"]["detail"] == "line 10: missing field 'completion' (a string)"
    assert set(records[0]) == {"id", "reward", "status", "detail", "answer"}  # the graded answer, canonical
    assert records[0]["answer"] == "1/2" and by_id["k"]["answer"] == "2"
    assert "answer" not in by_id[2] and "answer" not in by_id["j"]  # none extracted: the key is absent
    assert "timeout=1" in out.stderr and "restarts=1" in out.stderr and "bad_lines=6" in out.stderr


def test_verify_default_verifier_in_process():
    lines = [json.dumps({"id": 1, "completion": "<answer>2</answer>", "answer": "2"}),
             json.dumps({"id": 2, "verifier": "format", "completion": "<answer>2</answer>"})]
    out = run_rlvr(["verify", "--workers", "0", "--verifier", "exact"], "\n".join(lines))
    assert out.returncode == 0, out.stderr
    assert [json.loads(line)["status"] for line in out.stdout.splitlines()] == ["ok", "wrong"]


def test_verify_rejects_bad_flags_in_one_line():
    out = run_rlvr(["verify", "--workers", "-1"], "")
    assert out.returncode == 2
    assert out.stderr.strip() == "rlvr verify: error: --workers must be >= 0, --timeout > 0 and --block >= 1"


def test_audit_reports_precision_recall_and_false_positives(tmp_path):
    rows = [
        {"id": "r1", "answer": "2", "completion": "\\boxed{2}", "expected": 1},
        {"id": "r2", "answer": "0.5", "completion": "\\boxed{1/2}", "expected": 1},
        {"id": "r3", "answer": "3", "completion": "\\boxed{4}", "expected": 0},
        {"id": "r4", "answer": "x", "completion": "\\boxed{x}", "expected": 0},  # a mislabelled row
        {"id": "r5", "answer": "7", "completion": "no idea", "expected": 1},
    ]
    cases = tmp_path / "cases.jsonl"
    cases.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = run_rlvr(["audit", "--verifier", "math", "--workers", "0", str(cases)])
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "agreement 3/5  accuracy 0.6000  precision 0.6667  recall 0.6667" in text
    assert "false positives 1  false negatives 1" in text
    assert "false positives (1):\n  - r4:" in text
    assert "false negatives (1):\n  - r5:" in text
    assert "latency p50" in text and "p99" in text


def test_audit_field_mapping_and_errors(tmp_path):
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({"q": "2", "a": "<answer>2</answer>", "expected": True}) + "\n")
    out = run_rlvr(["audit", "--verifier", "exact", "--workers", "0", "--fields", "answer=q,completion=a", str(cases)])
    assert out.returncode == 0, out.stderr
    assert "agreement 1/1" in out.stdout
    out = run_rlvr(["audit", "--verifier", "exact", "--workers", "0", "--fields", "answer=nope", str(cases)])
    assert out.returncode == 2 and "no column 'nope'" in out.stderr


def test_verify_survives_a_line_that_is_not_utf8():
    data = (b'{"id": 1, "verifier": "exact", "completion": "<answer>\xc3\xa9</answer>", "answer": "\xc3\xa9"}\n'
            b"\xff\xfe junk\n"
            b'{"id": 3, "verifier": "exact", "completion": "<answer>2</answer>", "answer": "2"}\n')
    out = subprocess.run(RLVR + ["verify", "--workers", "0"], input=data, capture_output=True, timeout=120)
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.decode("ascii").splitlines()]
    assert [(r["id"], r["status"]) for r in records] == [(1, "ok"), (2, "error"), (3, "ok")]
    assert records[1]["detail"].startswith("line 2: not UTF-8")


def test_verify_turns_a_malformed_spec_into_an_error_row_and_goes_on():
    lines = [json.dumps({"id": 1, "verifier": {"composite": {"exact": "x", "format": 0.1}},
                         "completion": "<answer>3</answer>", "answer": "3"}),
             json.dumps({"id": 2, "verifier": "exact", "completion": "<answer>3</answer>", "answer": "3"}),
             json.dumps({"id": 3, "verifier": {"composite": {}}, "completion": "<answer>3</answer>", "answer": "3"}),
             json.dumps({"id": 4, "verifier": 17, "completion": "<answer>3</answer>", "answer": "3"}),
             '{"id": 5, "verifier": {"composite": {"exact": 1e309}}, "completion": "<answer>3</answer>", '
             '"answer": "3"}',
             '{"id": 6, "verifier": {"composite": {"exact": 1, "format": NaN}}, "completion": "<answer>3</answer>", '
             '"answer": "3"}']
    out = run_rlvr(["verify", "--workers", "0"], "\n".join(lines) + "\n")
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(r["id"], r["status"]) for r in records] == [(1, "error"), (2, "ok"), (3, "error"), (4, "error"),
                                                         (5, "error"), (6, "error")]
    assert all(r["reward"] == 0.0 for r in records if r["status"] == "error")  # never inf or NaN: valid JSON out
    assert records[4]["detail"] == "line 5: composite weight of 'exact' must be a finite number, got inf"
    assert records[5]["detail"] == "line 6: composite weight of 'format' must be a finite number, got nan"
    assert records[0]["detail"].startswith("line 1: bad verifier spec")
    assert "could not convert string to float: 'x'" in records[0]["detail"]
    assert records[2]["detail"] == "line 3: a composite needs at least one part"
    assert records[3]["detail"].startswith("line 4: cannot use int as a verifier")
    assert "bad_lines=5" in out.stderr


def test_audit_reads_labels_by_value_not_truthiness(tmp_path):
    labels = [1, True, "true", "1", 0, False, "0", "False"]  # every row is right: the 0 labels disagree
    cases = tmp_path / "cases.jsonl"
    cases.write_text("".join(json.dumps({"id": str(label), "answer": "2", "completion": "\\boxed{2}",
                                         "expected": label}) + "\n" for label in labels))
    out = run_rlvr(["audit", "--verifier", "exact", "--workers", "0", str(cases)])
    assert out.returncode == 0, out.stderr
    assert "agreement 4/8" in out.stdout and "false positives 4  false negatives 0" in out.stdout


@pytest.mark.parametrize("label", ["no", "yes", 2, 0.5, None, "", [1]])
def test_audit_refuses_any_other_label(label):
    from rlvr.commands.verify import parse_label
    from rlvr.errors import UserError

    with pytest.raises(UserError) as err:
        parse_label(label, "cases.jsonl line 3")
    assert str(err.value) == ("cases.jsonl line 3: label 'expected' must be 0, 1, true or false, "
                              f"got {json.dumps(label)}")


def test_audit_names_the_line_of_a_bad_label(tmp_path):
    cases = tmp_path / "cases.jsonl"
    good = json.dumps({"answer": "2", "completion": "\\boxed{2}", "expected": 1})
    cases.write_text(good + "\n\n" + json.dumps({"answer": "2", "completion": "\\boxed{2}", "expected": "no"}) + "\n")
    out = run_rlvr(["audit", "--verifier", "exact", "--workers", "0", str(cases)])
    assert out.returncode == 2
    assert out.stderr.strip() == (f"rlvr audit: error: {cases} line 3: label 'expected' must be 0, 1, true or false, "
                                  'got "no"')


def test_audit_names_the_line_of_invalid_json(tmp_path):
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({"answer": "2", "completion": "\\boxed{2}", "expected": 1}) + "\n{oops\n")
    out = run_rlvr(["audit", "--verifier", "exact", "--workers", "0", str(cases)])
    assert out.returncode == 2 and out.stderr.startswith(f"rlvr audit: error: {cases} line 2: invalid JSON")


def test_audit_compare_lists_the_rows_where_math_verify_disagrees(tmp_path):
    rows = [{"id": "a", "answer": "18", "completion": "So it is \\boxed{18}."},  # both accept
            {"id": "b", "answer": "10", "completion": "The answer is not 10."},  # Math-Verify reads 10
            {"id": "c", "answer": "5", "completion": "\\boxed{6}", "expected": 0}]  # both refuse
    cases = tmp_path / "cases.jsonl"
    cases.write_text("".join(json.dumps(r) + "\n" for r in rows))
    written = tmp_path / "differ.jsonl"
    out = run_rlvr(["audit", "--verifier", "math", "--workers", "0", "--compare", "math-verify",
                    "--write", str(written), str(cases)])
    assert out.returncode == 0, out.stderr
    assert "3 rows, 1 labelled" in out.stdout  # labels are optional with --compare; the labelled rows are scored
    assert ("math and math-verify disagree on 1 of 3 rows (math accepts, math-verify does not: 0; "
            "math-verify accepts, math does not: 1)") in out.stdout
    assert "  - b: answer='10'" in out.stdout and "math-verify: ok" in out.stdout
    differ = [json.loads(line) for line in written.read_text().splitlines()]
    assert [(d["id"], d["status"], d["mv_status"]) for d in differ] == [("b", "wrong", "ok")]
    out = run_rlvr(["audit", "--verifier", "math", "--workers", "0", str(cases)])
    assert out.returncode == 2 and "line 1: no 'expected' label" in out.stderr  # without --compare labels are needed


def test_a_bad_verifier_flag_is_one_line_before_any_work(tmp_path):
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({"answer": "2", "completion": "\\boxed{2}", "expected": 1}) + "\n")
    out = run_rlvr(["audit", "--verifier", '{"composite": {"exact": "x"}}', "--workers", "0", str(cases)])
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip() == ('rlvr audit: error: --verifier: bad verifier spec {"composite": {"exact": "x"}}: '
                                  "ValueError: could not convert string to float: 'x'")
    out = run_rlvr(["verify", "--verifier", '{"composite": {"exact": 1e999}}'], "{}\n")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip() == ("rlvr verify: error: --verifier: composite weight of 'exact' must be a finite "
                                  "number, got inf")


def test_verify_stops_quietly_when_its_reader_goes_away(tmp_path):
    lines = tmp_path / "lines.jsonl"
    line = json.dumps({"id": 1, "verifier": "exact", "completion": "<answer>3</answer>", "answer": "3"}) + "\n"
    lines.write_text(line * 5000)
    command = " ".join(RLVR) + f" verify --workers 0 --block 10 < {lines} 2> {tmp_path}/err | head -n 1"
    out = subprocess.run(["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True, timeout=120)
    assert json.loads(out.stdout)["status"] == "ok"
    assert out.returncode == 1  # rlvr's own exit code, through pipefail
    assert "Traceback" not in (tmp_path / "err").read_text()


def test_verify_a_deeply_nested_line_is_an_error_row_and_the_stream_goes_on():
    good = json.dumps({"id": "a", "completion": "<answer>3</answer>", "answer": "3"})
    too_deep = '{"id": "b", "completion": "x", "answer": "3", "deep": ' + "[" * 100000 + "]" * 100000 + "}"
    # decodes, but would overflow the stack when pickled to a worker
    deep = '{"id": "c", "completion": "x", "answer": "3", "deep": ' + "[" * 900 + "]" * 900 + "}"
    out = run_rlvr(["verify", "--workers", "2", "--verifier", "exact"], "\n".join([good, too_deep, deep, good]) + "\n")
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(r["id"], r["status"]) for r in records] == [("a", "ok"), (2, "error"), ("c", "error"), ("a", "ok")]
    assert records[1]["detail"] == "line 2: JSON nested too deeply to read; a line may nest at most 100 levels"
    assert records[2]["detail"] == "line 3: JSON nested more than 100 levels deep; a line may nest at most 100 levels"
