"""A user's reward named ``module:function``: worker processes import it as the parent does
(the working directory, or a folder on the parent's path), a script without a
``__main__`` guard is not re-run in the workers, a module that cannot be imported is one
line saying why, and a TRL-style reward's ``answer=`` is the extracted reference."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rlvr.config import TaskConfig
from rlvr.tasks.dataset import DatasetTask
from rlvr.types import Sample
from rlvr.verifiers.pool import VerifierPool
from rlvr.verifiers.registry import UnknownVerifierError, get_verifier, register_function

TRL_REWARD = '''import re


def score(completions, answer, **row):
    found = [re.search(r"<answer>(-?\\d+)</answer>", c) for c in completions]
    return [1.0 if m and m.group(1) == a else 0.0 for m, a in zip(found, answer)]
'''
SAMPLES = [Sample("0", "1+2=?", "3"), Sample("1", "2+2=?", "4")]
COMPLETIONS = ["<answer>3</answer>", "<answer>5</answer>"]


@pytest.fixture
def isolated_path(monkeypatch):
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield
    for name in ("wd_rewards", "side_rewards", "broken_syntax", "needs_missing", "raises_on_import"):
        sys.modules.pop(name, None)


def test_workers_import_a_module_from_the_working_directory(tmp_path, monkeypatch, isolated_path):
    (tmp_path / "wd_rewards.py").write_text(TRL_REWARD)
    monkeypatch.chdir(tmp_path)
    with VerifierPool("wd_rewards:score", workers=2, timeout_s=30) as pool:
        verdicts = pool.map(COMPLETIONS, SAMPLES)
    assert [(v.reward, v.status) for v in verdicts] == [(1.0, "ok"), (0.0, "wrong")]


def test_workers_import_a_module_from_a_folder_on_the_parents_path(tmp_path, monkeypatch, isolated_path):
    folder = tmp_path / "lib"
    folder.mkdir()
    (folder / "side_rewards.py").write_text(TRL_REWARD)
    sys.path.insert(0, str(folder))  # as a script's own folder is on its path
    monkeypatch.chdir(tmp_path)  # not the working directory
    with VerifierPool({"composite": {"side_rewards:score": 1.0, "format": 0.0}}, workers=2, timeout_s=30) as pool:
        verdicts = pool.map(COMPLETIONS, SAMPLES)
    assert [v.status for v in verdicts] == ["ok", "wrong"]
    assert pool.stats()["error"] == 0


def test_a_script_without_a_main_guard_is_not_rerun_in_the_workers(tmp_path):
    (tmp_path / "wd_rewards.py").write_text(TRL_REWARD)
    (tmp_path / "script.py").write_text(
        "from rlvr.types import Sample\nfrom rlvr.verifiers.pool import VerifierPool\n"
        "print('script ran', flush=True)\n"
        "pool = VerifierPool('wd_rewards:score', workers=2, timeout_s=30)\n"
        "print([v.status for v in pool.map(['<answer>3</answer>'], [Sample('0', 'p', '3')])])\npool.close()\n")
    proc = subprocess.run([sys.executable, "script.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.splitlines() == ["script ran", "['ok']"]


def test_rlvr_verify_with_workers_and_a_module_function(tmp_path):
    (tmp_path / "wd_rewards.py").write_text(TRL_REWARD)
    lines = [json.dumps({"id": i, "completion": c, "answer": s.answer}) for i, (c, s) in enumerate(zip(COMPLETIONS,
                                                                                                     SAMPLES))]
    proc = subprocess.run([sys.executable, "-m", "rlvr.cli", "verify", "--workers", "2", "--verifier",
                           "wd_rewards:score"], input="\n".join(lines) + "\n", cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert [json.loads(line)["status"] for line in proc.stdout.splitlines()] == ["ok", "wrong"]
    assert "ok=1 wrong=1" in proc.stderr and "error=0" in proc.stderr


@pytest.mark.parametrize("name, source, message", [
    ("broken_syntax", "def score(completions, **row)\n    return [1.0]\n",
     r"verifier 'broken_syntax:score': .*broken_syntax\.py, line 1: syntax error: expected ':'"),
    ("needs_missing", "import a_package_that_is_not_installed\n\ndef score(completions, **row):\n    return [1.0]\n",
     r"verifier 'needs_missing:score': importing 'needs_missing' failed: it imports "
     r"'a_package_that_is_not_installed', which is not installed"),
    ("raises_on_import", "raise RuntimeError('no API key set')\n",
     r"verifier 'raises_on_import:score': importing 'raises_on_import' failed: RuntimeError: no API key set"),
])
def test_a_module_that_cannot_be_imported_is_one_line_saying_why(tmp_path, monkeypatch, isolated_path, name, source,
                                                                  message):
    (tmp_path / f"{name}.py").write_text(source)
    monkeypatch.chdir(tmp_path)  # found through the working directory, imported on a second try
    with pytest.raises(UnknownVerifierError, match=message):
        get_verifier(f"{name}:score")


def test_a_missing_module_names_the_working_directory(tmp_path, monkeypatch, isolated_path):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UnknownVerifierError, match=r"cannot import module 'nowhere_rewards': no module of that name "
                                                   r"on the path or in the working directory"):
        get_verifier("nowhere_rewards:score")


def test_a_trl_reward_gets_the_extracted_answer_and_the_column_as_answer_raw(tmp_path, monkeypatch, isolated_path):
    rows = tmp_path / "gsm8k.jsonl"
    rows.write_text("".join(json.dumps({"question": f"q{i}", "answer": "Half of 74 is <<74/2=37>>37.\n#### 37"})
                            + "\n" for i in range(3)))
    (tmp_path / "wd_rewards.py").write_text(
        "def score(completions, answer, answer_raw, question, **row):\n"
        "    return [1.0 if answer == ['37'] and answer_raw[0].endswith('#### 37') and question[0].startswith('q') "
        "else 0.0]\n")
    monkeypatch.chdir(tmp_path)
    task = DatasetTask.from_config(TaskConfig(name="dataset", train_path=str(rows), eval_size=1,
                                              fields={"prompt": "question"}, answer_extract="gsm8k"),
                                   verifier="wd_rewards:score")
    sample = task.eval_samples[0]
    assert sample.answer == "37"
    with VerifierPool("wd_rewards:score", workers=2, timeout_s=30) as pool:
        assert pool.map(["anything"], [sample])[0].status == "ok"
    plain = Sample("1", "p", "5", fields={"columns": {"prompt": "p", "answer": 5, "id": 1}})
    seen = {}

    def spy(completions, **row):
        seen.update(row)
        return [0.0]

    get_verifier(register_function(spy))("x", plain)
    assert seen == {"answer": [5], "id": [1], "prompts": ["p"]}  # no extraction: the column as it is, no answer_raw


def test_mapped_answer_column_keeps_its_name_and_answer_holds_the_reference():
    from rlvr.verifiers.registry import row_fields

    sample = Sample("0", "p", "12", fields={"columns": {"question": "p", "solution": "so \\boxed{12}"}})
    assert row_fields(sample) == {"question": "p", "solution": "so \\boxed{12}", "answer": "12"}
