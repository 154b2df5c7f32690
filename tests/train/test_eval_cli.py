"""`rlvr eval`: pass@k/maj@k for one model, and base vs trained on the same problems."""

import json
import os
import subprocess
import sys

import pytest


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("evalrun")
    env = dict(os.environ, RLVR_CACHE=str(out / "cache"), OMP_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-m", "rlvr.cli", "train", "--preset", "smoke", "--output", str(out / "run"),
                           "train.steps=2", "log.report=false"], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return out, env, json.loads((out / "run" / "summary.json").read_text())


def test_eval_one_model_prints_passk_and_majk(smoke_run):
    out, env, summary = smoke_run
    proc = subprocess.run([sys.executable, "-m", "rlvr.cli", "eval", "--model", summary["checkpoint"], "--n", "4",
                           "--k", "1,2,4", "--problems", "6"], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    m = res["models"][0]
    assert res["problems"] == 6 and res["n"] == 4 and res["temperature"] == 1.0
    assert set(m["pass@k"]) == {"1", "2", "4"} and set(m["maj@k"]) == {"1", "2", "4"}
    assert m["pass@k"]["1"] <= m["pass@k"]["2"] <= m["pass@k"]["4"] <= 1.0  # pass@k is monotone in k


def test_eval_compare_writes_plot(smoke_run, tmp_path):
    out, env, summary = smoke_run
    proc = subprocess.run([sys.executable, "-m", "rlvr.cli", "eval", "--compare", summary["base_model"],
                           summary["checkpoint"], "--n", "2", "--problems", "4", "--output", str(tmp_path)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    assert [m["model"] for m in res["models"]] == [summary["base_model"], summary["checkpoint"]]
    assert (tmp_path / "passk_compare.svg").read_text().startswith("<svg")
    assert json.loads((tmp_path / "eval.json").read_text())["ks"] == [1, 2]


@pytest.mark.parametrize("args, message", [
    (["--n", "4", "--k", "8"], "--k values must lie in 1..n=4"),
    (["--n", "4", "--temperature", "0"], "greedy decoding"),
])
def test_eval_bad_arguments(smoke_run, args, message):
    out, env, summary = smoke_run
    proc = subprocess.run([sys.executable, "-m", "rlvr.cli", "eval", "--model", summary["checkpoint"], *args],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2 and message in proc.stderr


def test_eval_writes_every_completion_and_takes_overrides_after_options(smoke_run, tmp_path):
    out, env, summary = smoke_run
    # key=value overrides after options (argparse alone stopped at the first option: "unrecognized arguments")
    proc = subprocess.run([sys.executable, "-m", "rlvr.cli", "eval", "--model", summary["checkpoint"],
                           "--problems", "5", "--output", str(tmp_path), "rollout.max_new_tokens=20", "--n", "1"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    rows = [json.loads(x) for x in (tmp_path / "completions.jsonl").read_text().splitlines()]
    assert len(rows) == 5 and res["completions"] == str(tmp_path / "completions.jsonl")
    assert {"model", "problem", "prompt", "reference", "completion", "status", "answer"} <= set(rows[0])
    assert res["examples"] and res["examples"][0]["completion"] == rows[0]["completion"]
    m = res["models"][0]
    assert m["maj@k"]["1"] == m["pass@k"]["1"]  # one greedy sample: the vote is the graded answer
    assert json.loads((tmp_path / "eval.json").read_text())["problems"] == 5


def test_unknown_options_still_fail_and_overrides_need_a_command_that_takes_them(smoke_run):
    _, env, summary = smoke_run
    proc = subprocess.run([sys.executable, "-m", "rlvr.cli", "eval", "--model", summary["checkpoint"], "--nope"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 2 and "unrecognized arguments: --nope" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "rlvr.cli", "passk", "--n", "4", "--c", "1", "--k", "1", "a.b=1"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 2 and "unrecognized arguments: a.b=1" in proc.stderr


def test_passk_by_kind_splits_a_mixed_task():
    from rlvr.commands.eval import passk_by_kind
    from rlvr.types import Sample

    kinds = ["add", "mul", "add"]
    samples = [Sample(id=str(i), prompt="", answer="1", fields={"kind": k}) for i, k in enumerate(kinds)]
    correct = [[True, False], [False, False], [True, True]]
    # add: problem 0 has c=1 of n=2 (pass@1 0.5, pass@2 1), problem 2 c=2 (1, 1); mul: c=0 (0, 0)
    assert passk_by_kind(samples, correct, [1, 2]) == {
        "add": {"problems": 2, "pass@k": {"1": 0.75, "2": 1.0}},
        "mul": {"problems": 1, "pass@k": {"1": 0.0, "2": 0.0}}}
    assert passk_by_kind(samples[:1], correct[:1], [1]) == {}  # one kind: no split


def test_eval_shows_a_progress_bar_over_the_problems_unless_told_not_to(smoke_run, tmp_path):
    out, env, summary = smoke_run
    args = [sys.executable, "-m", "rlvr.cli", "eval", "--model", summary["checkpoint"], "--problems", "12",
            "--output", str(tmp_path / "ev")]
    proc = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    frames = proc.stderr.replace("\r", "\n").splitlines()
    name = os.path.basename(summary["checkpoint"])  # was: nothing until the JSON came out
    assert any(f.startswith(f"eval: {name}:   0%|") and f.endswith("0/12 [00:00<?, ?problem/s]") for f in frames)
    assert any(f.startswith(f"eval: {name}: 100%|") and "| 12/12 [" in f for f in frames)
    assert json.loads(proc.stdout)["problems"] == 12  # stdout is the JSON alone
    quiet = subprocess.run(args + ["--no-progress"], capture_output=True, text=True, env=env, timeout=120)
    assert quiet.returncode == 0 and "problem/s" not in quiet.stderr


def test_training_shows_bars_through_its_base_and_final_evaluations(smoke_run, tmp_path):
    out, env, _ = smoke_run
    proc = subprocess.run([sys.executable, "-m", "rlvr.cli", "train", "--preset", "smoke", "--output",
                           str(tmp_path / "run"), "train.steps=1", "log.report=false", "log.progress=true"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    frames = proc.stderr.replace("\r", "\n").splitlines()
    for label in ("eval: base policy", "eval: step 1"):  # the final evaluation, after step 1
        assert any(f.startswith(f"{label}: 100%|") and "| 16/16 [" in f for f in frames), label


def test_rlvr_evaluate_shows_the_bar_too(smoke_run, tmp_path, capsys):
    import rlvr

    out, env, summary = smoke_run
    result = rlvr.evaluate(summary["checkpoint"], problems=5, output=tmp_path / "ev")
    assert result["problems"] == 5
    frames = capsys.readouterr().err.replace("\r", "\n").splitlines()
    assert any(": 100%|" in f and "| 5/5 [" in f for f in frames)
    rlvr.evaluate(summary["checkpoint"], problems=5, output=tmp_path / "ev2", overrides=["log.progress=false"])
    assert "problem/s" not in capsys.readouterr().err
