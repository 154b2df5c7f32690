"""Contamination: normalisation, exact and n-gram overlap, `rlvr data check` exit codes,
and `rlvr train` refusing an overlapping eval set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rlvr.cli import main
from rlvr.config import load_config
from rlvr.errors import DataError
from rlvr.tasks import contamination
from rlvr.tasks.contamination import find_overlaps, normalize

LONG = ("A train leaves the station at noon travelling sixty miles per hour towards a city "
        "that lies one hundred and twenty miles away")  # 23 words


@pytest.mark.parametrize("text,want", [
    ("What is 2+2?", "what is 2 +2"),  # operators stay, glued to the word after them
    ("  Hello,\tWORLD!! ", "hello world"),
    ("x_1 = y-2", "x 1 =y -2"),
    ("3 × 4 ≤ 12", "3 ×4 ≤12"),  # Unicode math symbols too
    ("Ｆｕｌｌｗｉｄｔｈ ＡＢＣ", "fullwidth abc"),  # NFKC
    ("Straße", "strasse"),  # case-folded
    ("...", ""),
])
def test_normalize_table(text, want):
    assert normalize(text) == want


def test_exact_match_after_normalisation():
    found = find_overlaps(["What is 2 + 2?", "Name a prime."], ["what is 2+2", "Name a PRIME!!", "Name a colour."])
    assert [(o.eval_index, o.train_index, o.kind) for o in found] == [(0, 0, "exact"), (1, 1, "exact")]
    assert found[0].shared == "what is 2 +2"


def test_problems_that_differ_only_in_an_operator_are_not_an_exact_match():
    # the operators used to be stripped as punctuation: "What is 3-5?" matched "What is 3+5?"
    assert find_overlaps(["What is 3+5?"], ["What is 3-5?", "What is 3*5?", "what is 3 + 5"]) == [
        contamination.Overlap(2, 0, "exact", "what is 3 +5")]
    train = [f"What is {a}+{b}?" for a in range(10) for b in range(10)]
    assert find_overlaps(train, [f"What is {a}-{b}?" for a in range(10) for b in range(10)]) == []


def test_ngram_overlap_needs_a_run_of_n_words():
    words = LONG.split()
    train = ["Preamble words here. " + LONG + " And more text after it."]
    shares_13 = " ".join(["Unrelated", "start"] + words[:13] + ["then", "different"])
    shares_12 = " ".join(["Unrelated", "start"] + words[:12] + ["then", "different"])
    found = find_overlaps(train, [shares_13, shares_12], ngram=13)
    assert [(o.eval_index, o.kind) for o in found] == [(0, "ngram")]
    assert found[0].shared == normalize(" ".join(words[:13]))
    assert [o.eval_index for o in find_overlaps(train, [shares_12], ngram=12)] == [0]


def test_short_eval_text_is_checked_for_exact_equality_only():
    assert find_overlaps(["what is the capital of france today"], ["capital of france"], ngram=3)[0].kind == "ngram"
    assert find_overlaps(["what is the capital of france today"], ["capital of france"], ngram=13) == []


def test_hash_collisions_never_report_false_overlaps(monkeypatch):
    monkeypatch.setattr(contamination, "hash", lambda gram: 0, raising=False)  # every n-gram collides
    assert find_overlaps(["one two three four five"], ["six seven eight nine ten"], ngram=3) == []
    assert len(find_overlaps(["one two three four five"], ["zero one two three"], ngram=3)) == 1


def test_ngram_must_be_positive():
    with pytest.raises(ValueError, match="ngram must be >= 1"):
        find_overlaps(["a"], ["a"], ngram=0)


# ---------------------------------------------------------------- the CLI
def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture()
def files(tmp_path):
    train = write_jsonl(tmp_path / "train.jsonl", [
        {"question": "What is 17 + 25?", "answer": "42"},
        {"question": LONG + ". How long does it take?", "answer": "2"},
        {"question": "Name the largest planet.", "answer": "Jupiter"},
    ])
    clean = write_jsonl(tmp_path / "clean.jsonl", [{"question": "What is 3 * 7?", "answer": "21"}])
    dirty = write_jsonl(tmp_path / "dirty.jsonl", [
        {"question": "What is 3 * 7?", "answer": "21"},
        {"question": "what is 17+25", "answer": "42"},
        {"question": "Suppose " + LONG + "; when does it arrive?", "answer": "2 pm"},
    ])
    return train, clean, dirty


def test_data_check_exit_codes_and_json(files, capsys):
    train, clean, dirty = files
    assert main(["data", "check", "--train", str(train), "--eval", str(clean), "--fields", "question"]) == 0
    assert "0 of 1 eval problems occur in the training data" in capsys.readouterr().out
    assert main(["data", "check", "--train", str(train), "--eval", str(dirty), "--fields", "question", "--json"]) == 1
    summary = json.loads(capsys.readouterr().out)
    assert (summary["contaminated"], summary["exact"], summary["ngram_only"]) == (2, 1, 1)
    assert (summary["train_rows"], summary["eval_rows"], summary["ngram"]) == (3, 3, 13)
    assert [(o["eval"], o["train"], o["kind"]) for o in summary["overlaps"]] == [
        (f"{dirty} line 2", f"{train} line 1", "exact"),
        (f"{dirty} line 3", f"{train} line 2", "ngram"),
    ]


def test_data_check_table_and_field_choice(files, capsys):
    train, _, dirty = files
    assert main(["data", "check", "--train", str(train), "--eval", str(dirty), "--fields", "question,answer"]) == 1
    out = capsys.readouterr().out
    # with the answer appended, the exact match survives (same answer); the n-gram one too
    assert out.splitlines()[0].startswith("contamination check: 2 of 3 eval problems occur in the training data "
                                          "(exact 1, 13-word overlap 1)")
    assert f"{dirty} line 2" in out and "exact" in out
    assert main(["data", "check", "--train", str(train), "--eval", str(dirty), "--fields", "question",
                 "--ngram", "30"]) == 1
    assert "(exact 1, 30-word overlap 0)" in capsys.readouterr().out


def test_data_check_bad_input_is_one_line_exit_2(files, capsys):
    train, clean, _ = files
    assert main(["data", "check", "--train", str(train), "--eval", str(clean)]) == 2  # default column: prompt
    err = capsys.readouterr().err.strip()
    assert err == (f"rlvr data: error: {train} line 1: missing column 'prompt' (--fields prompt); "
                   f"columns here: answer, question")
    assert main(["data", "check", "--train", str(train) + ".missing", "--eval", str(clean)]) == 2
    assert "not found" in capsys.readouterr().err


# ---------------------------------------------------------------- rlvr train refuses
def dataset_cfg(train: Path, test: Path, *extra: str):
    return load_config(overrides=["task.name=dataset", f"task.train_path={train}", f"task.eval_path={test}",
                                  "task.fields={prompt: question}", "reward.verifier=math", *extra])


def test_train_refuses_contaminated_eval_set(files):
    from rlvr.tasks.contamination import check_task
    from rlvr.tasks.registry import build_task

    train, clean, dirty = files
    cfg = dataset_cfg(train, dirty)
    with pytest.raises(DataError) as err:
        check_task(build_task(cfg.task, cfg.reward.verifier), cfg.task, log=print)
    assert str(err.value) == (
        f"2 of 3 eval problems also occur in the training data (first: {dirty} line 2, exact match); list them with "
        f"`rlvr data check --train {train} --eval {dirty} --fields question` and remove them, or set "
        f"task.allow_contamination=true")
    clean_cfg = dataset_cfg(train, clean)
    check_task(build_task(clean_cfg.task, clean_cfg.reward.verifier), clean_cfg.task, log=print)  # no error
    warnings = []
    allowed = dataset_cfg(train, dirty, "task.allow_contamination=true")
    check_task(build_task(allowed.task, allowed.reward.verifier), allowed.task, log=warnings.append)
    assert warnings and warnings[0].startswith("warning: 2 of 3 eval problems") and "training anyway" in warnings[0]


def test_train_command_stops_before_loading_a_model(files, tmp_path, capsys):
    train, _, dirty = files
    code = main(["train", "task.name=dataset", f"task.train_path={train}", f"task.eval_path={dirty}",
                 "task.fields={prompt: question}", "reward.verifier=math", f"model.path={tmp_path}/no-model",
                 f"output={tmp_path}/run"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert err[0].startswith("rlvr train: error: 2 of 3 eval problems also occur in the training data")


def test_duplicates_inside_one_split_file_are_caught(tmp_path):
    from rlvr.tasks.contamination import check_task
    from rlvr.tasks.registry import build_task

    rows = [{"question": f"Question number {i}?", "answer": str(i)} for i in range(6)] * 2  # every row twice
    path = write_jsonl(tmp_path / "dup.jsonl", rows)
    cfg = load_config(overrides=["task.name=dataset", f"task.train_path={path}", "task.eval_size=3",
                                 "task.fields={prompt: question}", "reward.verifier=math"])
    with pytest.raises(DataError, match="split off .*dup.jsonl', so it holds duplicates: deduplicate it"):
        check_task(build_task(cfg.task, cfg.reward.verifier), cfg.task, log=print)
