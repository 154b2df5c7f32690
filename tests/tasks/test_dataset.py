"""DatasetTask: JSONL/Parquet/datasets-dir loading, the field mapping, bad rows with file
and line, GSM8K/boxed answers, per-row verifiers, and the resumable training stream."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rlvr.config import TaskConfig
from rlvr.errors import ConfigError, DataError
from rlvr.tasks.dataset import DatasetTask, extract_answer, read_rows


def write_jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def gsm_rows(n: int, offset: int = 0) -> list[dict]:
    return [{"question": f"Tom has {i} apples and buys {i + 1} more. How many now?",
             "answer": f"He has {i} + {i + 1} = {2 * i + 1} apples.\n#### {2 * i + 1}"}
            for i in range(offset, offset + n)]


def task_cfg(**kw) -> TaskConfig:
    base = {"name": "dataset", "eval_size": 2}
    base.update(kw)
    return TaskConfig(**base)


def test_jsonl_with_field_mapping_and_gsm8k_answers(tmp_path):
    train = write_jsonl(tmp_path / "train.jsonl", gsm_rows(5))
    test = write_jsonl(tmp_path / "test.jsonl", gsm_rows(2, offset=100) + [
        {"question": "A farm sells 1,200 eggs a day. How many in two days?",
         "answer": "2 * 1,200 = 2,400\n#### 2,400"}])
    cfg = task_cfg(train_path=str(train), eval_path=str(test), answer_extract="gsm8k",
                   fields={"prompt": "question", "answer": "answer"})
    task = DatasetTask.from_config(cfg, verifier="math")
    assert len(task.train) == 5 and len(task.eval_samples) == 3
    s = task.eval_samples[0]
    assert s.prompt == "Tom has 100 apples and buys 101 more. How many now?"
    assert s.answer == "201"
    assert task.eval_samples[2].answer == "2400"  # thousands separators dropped
    assert s.id == "eval-0" and s.verifier is None
    assert s.fields["source"] == f"{test} line 1"
    assert s.fields["question"] == s.prompt


def test_boxed_answers_and_prompt_template(tmp_path):
    rows = [{"problem": "Compute $\\frac{1}{2}+\\frac{1}{2}$.",
             "solution": "We get $\\boxed{1}$. Check: \\boxed{\\frac{2}{2}}"},
            {"problem": "Solve $x^2=4$, $x>0$.", "solution": "So $x = \\boxed{2}$."},
            {"problem": "What is 3!?", "solution": "$3! = \\boxed{6}$"}]
    train = write_jsonl(tmp_path / "math.jsonl", rows)
    cfg = task_cfg(train_path=str(train), eval_size=1, answer_extract="boxed",
                   fields={"prompt": "problem", "answer": "solution"},
                   prompt_template="{prompt}\nPut the final answer in \\boxed{{}}.")
    task = DatasetTask.from_config(cfg, verifier="math")
    answers = sorted(s.answer for s in task.train + task.eval_samples)
    assert answers == ["2", "6", "\\frac{2}{2}"]  # the last box of each solution
    assert all(s.prompt.endswith("Put the final answer in \\boxed{}.") for s in task.train)


@pytest.mark.parametrize("how,text,want", [
    ("none", "  42 ", "42"),
    ("gsm8k", "step 1\n#### 72", "72"),
    ("gsm8k", "a #### 1 #### 1,000", "1000"),
    ("boxed", "x=\\boxed{\\{1,2\\}}", "\\{1,2\\}"),
    ("boxed", "\\boxed{a} then \\boxed{b}", "b"),
])
def test_extract_answer_table(how, text, want):
    assert extract_answer(text, how, "f line 1") == want


BAD_ROWS = [
    # (rows written, mapping, run verifier, expected message)
    ([{"question": "q1", "solution": "1"}, "", {"question": "q2", "solution": "2"}, {"question": "q3"}],
     {"prompt": "question", "answer": "solution"}, "math",
     "train.jsonl line 4: missing field 'answer' (mapped from column 'solution'), needed by verifier 'math'"),
    ([{"prompt": "p", "answer": "1"}, '{"prompt": "p2", "answer": 2,}'], {}, "exact",
     "train.jsonl line 2: invalid JSON: Expecting property name enclosed in double quotes (column 30)"),
    ([["not", "an", "object"]], {}, "exact", "train.jsonl line 1: expected a JSON object, got list"),
    ([{"prompt": ["a", "list"], "answer": "1"}], {}, "exact",
     "train.jsonl line 1: field 'prompt' (column 'prompt') must be a non-empty string, got list [\"a\", \"list\"]"),
    ([{"prompt": "p", "answer": True}], {}, "exact",
     "train.jsonl line 1: field 'answer' (column 'answer') must be a string or a number, got bool true"),
    ([{"body": "p", "answer": "1"}], {"prompt": "text"}, "exact",
     "train.jsonl line 1: missing field 'prompt' (mapped from column 'text')"),
    ([{"prompt": "p", "answer": "1", "verifier": "nope"}], {}, "exact",
     "train.jsonl line 1: bad 'verifier' value: unknown verifier 'nope';"
     " valid: code, exact, format, "),  # the registry's list
    ([{"prompt": "write f", "verifier": "code"}], {}, "math",
     "train.jsonl line 1: missing field 'tests' (column 'tests') (or 'io_tests', 'hidden_tests', 'call_tests'),"
     " needed by verifier 'code'"),
    ([{"prompt": "p", "io_tests": [{"input": "1"}]}], {}, "code",
     "train.jsonl line 1: field 'io_tests' (column 'io_tests') must be a non-empty list of {input, output} objects"),
    ([{"q": "p", "a": "no marker here"}], {"prompt": "q", "answer": "a"}, "math",
     "train.jsonl line 1: answer has no '####' marker (task.answer_extract=gsm8k)"),
    ([{"q": "p", "a": "work shown\n####  "}], {"prompt": "q", "answer": "a"}, "math",
     "train.jsonl line 1: field 'answer' (mapped from column 'a') is empty after task.answer_extract=gsm8k"),
    ([{"prompt": "p", "call_tests": [{"input": [1], "output": 2}]}], {}, "code",
     "train.jsonl line 1: field 'call_tests' (column 'call_tests') needs field 'entry_point' (column 'entry_point')"),
    ([{"prompt": "p", "call_tests": [{"input": 1, "output": 2}], "entry_point": "f"}], {}, "code",
     "train.jsonl line 1: field 'call_tests' (column 'call_tests') must be a non-empty list of "
     "{input: [args...], output}"),
    ([{"prompt": "p", "tests": "assert f(1) == 2", "entry_point": ""}], {}, "code",
     "train.jsonl line 1: field 'entry_point' (column 'entry_point') must be a non-empty string"),
    ([{"prompt": "write g", "verifier": {"name": "code", "options": {"partial_credit": True}}}], {}, "math",
     "train.jsonl line 1: missing field 'tests' (column 'tests') (or 'io_tests', 'hidden_tests', 'call_tests'), "
     "needed by verifier"),
]


@pytest.mark.parametrize("rows,mapping,verifier,message", BAD_ROWS)
def test_bad_rows_name_file_and_line(tmp_path, rows, mapping, verifier, message):
    path = write_jsonl(tmp_path / "train.jsonl", rows)
    extract = "gsm8k" if "gsm8k" in message else "none"
    cfg = task_cfg(train_path=str(path), eval_path=str(path), fields=mapping, answer_extract=extract)
    with pytest.raises(DataError) as err:
        DatasetTask.from_config(cfg, verifier=verifier)
    text = str(err.value)
    assert "\n" not in text
    assert text.startswith(str(tmp_path / message.split(":")[0]))
    assert message in text


def test_unknown_mapping_field_lists_valid_ones(tmp_path):
    path = write_jsonl(tmp_path / "t.jsonl", gsm_rows(4))
    with pytest.raises(ConfigError, match="unknown rlvr field\\(s\\) 'question'; valid: prompt, answer, tests"):
        DatasetTask.from_config(task_cfg(train_path=str(path), fields={"question": "q"}))


@pytest.mark.parametrize("template,message", [
    ("{prompt} {hidden_tests}", "must not show {hidden_tests}: hidden tests never enter the prompt"),
    ("{prompt} {question}",
     "task.prompt_template uses {question}; valid: prompt, answer, tests, io_tests, statement, id"),
    ("{prompt", "task.prompt_template is not a valid format string"),
])
def test_prompt_template_is_checked_up_front(tmp_path, template, message):
    path = write_jsonl(tmp_path / "t.jsonl", gsm_rows(4))
    with pytest.raises(ConfigError) as err:
        DatasetTask.from_config(task_cfg(train_path=str(path), prompt_template=template))
    assert message in str(err.value)


def test_missing_file_and_unknown_format(tmp_path):
    with pytest.raises(DataError, match="not found"):
        read_rows(tmp_path / "nope.jsonl")
    (tmp_path / "data.csv").write_text("a,b\n")
    with pytest.raises(DataError, match="unknown data format \\(suffix .csv\\)"):
        read_rows(tmp_path / "data.csv")
    (tmp_path / "empty.jsonl").write_text("\n\n")
    with pytest.raises(DataError, match="holds no rows"):
        read_rows(tmp_path / "empty.jsonl")


def test_code_rows_with_per_row_verifier_and_tests_in_prompt(tmp_path):
    rows = [
        {"text": "Write add(a, b).", "test_list": ["assert add(1, 2) == 3", "assert add(0, 0) == 0"], "task_id": 11},
        {"text": "Write neg(x).", "test_list": ["assert neg(3) == -3"], "hidden": ["assert neg(0) == 0"],
         "task_id": 12},
        {"text": "What is 6*7?", "answer": "42", "verifier": "math", "task_id": 13},
    ]
    path = write_jsonl(tmp_path / "mbpp.jsonl", rows)
    cfg = task_cfg(train_path=str(path), eval_path=str(path),
                   fields={"prompt": "text", "tests": "test_list", "hidden_tests": "hidden", "id": "task_id"},
                   prompt_template="{prompt}\nYour code should pass:\n{tests}")
    task = DatasetTask.from_config(cfg, verifier="code")
    add, neg, mult = task.eval_samples
    assert add.id == "11" and add.verifier is None
    assert add.prompt == "Write add(a, b).\nYour code should pass:\nassert add(1, 2) == 3\nassert add(0, 0) == 0"
    assert add.fields["tests"] == ["assert add(1, 2) == 3", "assert add(0, 0) == 0"]
    assert neg.fields["hidden_tests"] == ["assert neg(0) == 0"] and "neg(0)" not in neg.prompt
    assert mult.verifier == "math" and mult.answer == "42"
    assert mult.prompt == "What is 6*7?\nYour code should pass:\n"  # a field the row lacks renders empty


def test_entry_point_and_call_tests_reach_the_code_verifier(tmp_path):
    """A HumanEval row (``check(candidate)`` needs ``entry_point``) and a LeetCode row
    (``call_tests`` with ``entry_point``), from mapped columns: both fields are in
    ``Sample.fields``, and the code verifier's plan is built from them."""
    from rlvr.verifiers.code import build_plan

    rows = [
        {"text": "Write inc(x).", "test": "def check(candidate):\n    assert candidate(1) == 2\n", "fn": "inc", "n": 1},
        {"text": "Solve twoSum.", "calls": [{"input": [[2, 7, 11], 9], "output": [0, 1]}], "fn": "Solution().twoSum",
         "n": 2},
    ]
    path = write_jsonl(tmp_path / "code.jsonl", rows)
    cfg = task_cfg(train_path=str(path), eval_path=str(path),
                   fields={"prompt": "text", "tests": "test", "call_tests": "calls", "entry_point": "fn", "id": "n"})
    humaneval, leetcode = DatasetTask.from_config(cfg, verifier="code").eval_samples
    assert humaneval.fields["entry_point"] == "inc" and "call_tests" not in humaneval.fields
    assert leetcode.fields["call_tests"] == rows[1]["calls"] and leetcode.fields["entry_point"] == "Solution().twoSum"
    he_plan, lc_plan = build_plan(humaneval), build_plan(leetcode)
    assert he_plan.entry_point == "inc" and any("check(inc)" in u["src"] for u in he_plan.units)
    assert lc_plan.entry_point == "Solution().twoSum"
    (unit,) = lc_plan.units  # the call test as an assertion (rewritten to bind both sides for its message)
    assert "(Solution().twoSum([2, 7, 11], 9))" in unit["src"] and "== (_rlvr_r := ([0, 1]))" in unit["src"]


def test_split_off_eval_rows_is_disjoint_and_deterministic(tmp_path):
    path = write_jsonl(tmp_path / "all.jsonl", gsm_rows(10))
    cfg = task_cfg(train_path=str(path), eval_size=3, fields={"prompt": "question"})
    a, b = DatasetTask.from_config(cfg), DatasetTask.from_config(cfg)
    assert len(a.eval_samples) == 3 and len(a.train) == 7
    assert {s.id for s in a.eval_samples}.isdisjoint({s.id for s in a.train})
    assert [s.id for s in a.eval_samples] == [s.id for s in b.eval_samples]
    with pytest.raises(DataError, match="has 10 rows, too few to split off task.eval_size=10"):
        DatasetTask.from_config(task_cfg(train_path=str(path), eval_size=10, fields={"prompt": "question"}))


def test_training_stream_is_epoch_shuffled_and_resumable(tmp_path):
    path = write_jsonl(tmp_path / "t.jsonl", gsm_rows(6))
    cfg = task_cfg(train_path=str(path), eval_path=str(path), seed=5, fields={"prompt": "question"})
    task = DatasetTask.from_config(cfg)
    ids = [s.id for s in task.train_batch(0, 18)]
    for epoch in range(3):  # every epoch visits every row once
        assert sorted(ids[6 * epoch:6 * epoch + 6]) == [f"row-{i}" for i in range(6)]
    assert ids[:6] != ids[6:12]  # and epochs are shuffled differently
    resumed = DatasetTask.from_config(cfg)  # a fresh process resuming at position 13
    assert [s.id for s in resumed.train_batch(13, 5)] == ids[13:18]
    assert resumed.train_sample(2).id == ids[2]  # random access backwards too
    other_seed = DatasetTask.from_config(task_cfg(train_path=str(path), eval_path=str(path), seed=6,
                                                  fields={"prompt": "question"}))
    assert [s.id for s in other_seed.train_batch(0, 18)] != ids


def test_parquet_loading(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rows = [{"question": f"What is {i} + 1?", "final": str(i + 1), "tests": None} for i in range(4)]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "train.parquet")
    pq.write_table(pa.Table.from_pylist([{"question": "What is 9 + 1?", "final": None, "tests": None}]),
                   tmp_path / "bad.parquet")
    cfg = task_cfg(train_path=str(tmp_path / "train.parquet"), eval_size=1,
                   fields={"prompt": "question", "answer": "final"})
    task = DatasetTask.from_config(cfg, verifier="exact")
    assert sorted(s.answer for s in task.train + task.eval_samples) == ["1", "2", "3", "4"]
    assert task.train[0].fields["source"].startswith(str(tmp_path / "train.parquet") + " row ")
    bad = task_cfg(train_path=str(tmp_path / "bad.parquet"), eval_path=str(tmp_path / "bad.parquet"),
                   fields={"prompt": "question", "answer": "final"})
    with pytest.raises(DataError, match="bad.parquet row 1: missing field 'answer' \\(mapped from column 'final'\\)"):
        DatasetTask.from_config(bad, verifier="exact")


def test_datasets_directory_loading(tmp_path):
    datasets = pytest.importorskip("datasets")
    rows = {"problem": [f"Compute {i}*2." for i in range(5)], "answer": [str(2 * i) for i in range(5)]}
    ds = datasets.Dataset.from_dict(rows)
    ds.save_to_disk(str(tmp_path / "ds"))
    cfg = task_cfg(train_path=str(tmp_path / "ds"), eval_size=2, fields={"prompt": "problem"})
    task = DatasetTask.from_config(cfg, verifier="math")
    assert len(task.train) == 3 and len(task.eval_samples) == 2
    assert {s.answer for s in task.train + task.eval_samples} == {"0", "2", "4", "6", "8"}
    datasets.DatasetDict({"train": ds, "test": ds}).save_to_disk(str(tmp_path / "dd"))
    with pytest.raises(DataError,
                       match="holds a DatasetDict with splits train, test; point the path at one split's folder"):
        read_rows(tmp_path / "dd")
    assert len(read_rows(tmp_path / "dd" / "train")) == 5


def test_missing_optional_extra_names_it(tmp_path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_pyarrow(name, *args, **kwargs):
        if name.startswith("pyarrow"):
            raise ImportError("no pyarrow here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    monkeypatch.delitem(__import__("sys").modules, "pyarrow.parquet", raising=False)
    monkeypatch.delitem(__import__("sys").modules, "pyarrow", raising=False)
    (tmp_path / "x.parquet").write_bytes(b"PAR1")
    with pytest.raises(DataError, match="needs the 'pyarrow' package: pip install 'rlvr\\[data\\]'"):
        read_rows(tmp_path / "x.parquet")


def test_train_command_stops_on_a_bad_row_with_one_line(tmp_path, capsys):
    from rlvr.cli import main

    path = write_jsonl(tmp_path / "train.jsonl", gsm_rows(3) + [{"question": "no answer here"}])
    code = main(["train", "task.name=dataset", f"task.train_path={path}", "task.eval_size=1",
                 "task.fields={prompt: question}", "reward.verifier=math", f"model.path={tmp_path}/none",
                 f"output={tmp_path}/run"])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err == (f"rlvr train: error: {path} line 4: missing field 'answer' (column 'answer'), "
                   f"needed by verifier 'math'")
    assert not (tmp_path / "run" / "metrics.jsonl").exists()


def test_a_byte_that_is_not_utf8_names_file_line_and_byte(tmp_path):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"prompt": "1+1=?", "answer": "2"}\n\n{"prompt": "caf\xe9", "answer": "2"}\n')
    with pytest.raises(DataError) as err:
        read_rows(path)
    assert str(err.value) == (f"{path} line 3: not UTF-8 (byte 0xe9 at column 16); re-save the file as UTF-8, "
                              f"e.g. iconv -f latin1 -t utf-8")
    path.write_bytes(b'{"prompt": "caf\xc3\xa9", "answer": "2"}\r\n')  # UTF-8, Windows line ends: read as is
    assert read_rows(path)[0].data == {"prompt": "café", "answer": "2"}
