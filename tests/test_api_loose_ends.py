"""The Python API refuses what it cannot use at once and in one line: a mistyped config key,
a callback that is not a function, an unknown metric sink; ``rlvr.verify`` turns a reward's
exception into status ``error``; the rows of ``eval_dataset`` are all evaluated."""

from __future__ import annotations

import json

import pytest

import rlvr
from rlvr.config import METRIC_SINKS, load_config


def test_a_mistyped_config_key_is_refused_naming_the_closest_one():
    cfg = rlvr.load_config(preset="smoke")
    with pytest.raises(rlvr.UserError) as err:
        cfg.train.stepz = 3  # was: set on the object and ignored by the run
    assert str(err.value) == ("config section 'train' has no key 'stepz'; did you mean 'steps'? "
                              "(rlvr train --list-keys lists them)")
    with pytest.raises(rlvr.UserError, match=r"^config has no key 'outptu'; did you mean 'output'\?"):
        cfg.outptu = "runs/x"
    with pytest.raises(rlvr.UserError, match=r"^config section 'log' has no key 'wibble' \(rlvr"):
        cfg.log.wibble = 1
    cfg.train.steps = 3  # a real key still sets
    assert cfg.train.steps == 3


def test_a_callback_that_is_not_a_function_is_refused_before_any_work(tmp_path, monkeypatch):
    import rlvr.train.loop

    monkeypatch.setattr(rlvr.train.loop, "train", lambda *a, **kw: pytest.fail("the run started"))
    with pytest.raises(rlvr.UserError) as err:
        rlvr.train("smoke", callbacks=[print, 5], overrides=[f"output={tmp_path / 'run'}"])
    assert str(err.value) == ("callbacks[1] is a int (5), not a function; pass functions that take one metrics row, "
                              "e.g. callbacks=[rows.append]")
    assert not (tmp_path / "run").exists()  # was: a TypeError after the warm-start and the base evaluation


def test_an_unknown_or_uninstalled_sink_is_refused_when_the_config_loads(monkeypatch):
    with pytest.raises(rlvr.UserError, match=r"log.sinks: unknown metric sink 'tensorbord'; valid: jsonl, stdout, "
                                             r"tensorboard, wandb, null"):
        load_config(preset="smoke", overrides=["log.sinks=[stdout,tensorbord]"])
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "wandb" else real(name, *a))
    with pytest.raises(rlvr.UserError, match=r"log.sinks: the wandb sink needs `pip install wandb`"):
        load_config(preset="smoke", overrides=["log.sinks=[wandb]"])


def test_the_config_knows_every_sink_the_logger_builds():
    from rlvr.diagnostics.sinks import SINK_BUILDERS

    assert tuple(SINK_BUILDERS) == METRIC_SINKS


def crashes(completion, sample):
    raise ValueError("the grader's API is down")


def test_verify_reports_a_rewards_exception_as_error_status():
    verdict = rlvr.verify("x", "1", verifier=crashes)  # was: the ValueError propagated
    assert (verdict.reward, verdict.status, verdict.detail) == (0.0, "error", "ValueError: the grader's API is down")


def test_every_row_of_eval_dataset_is_evaluated(tmp_path):
    rows = [{"prompt": f"{a}+{b}-1=? Use <think> and <answer>.\n", "answer": str(a + b - 1)}
            for a in range(10) for b in range(10)]
    lines: list[str] = []
    summary = rlvr.train("smoke", reward="exact", dataset=rows[30:], eval_dataset=rows[:30], log=lines.append,
                         overrides=[f"output={tmp_path / 'run'}", "train.steps=1", "threads=1", "log.report=false",
                                    f"model.cache_dir={tmp_path / 'cache'}"])
    assert "eval: all 30 rows of eval_dataset (eval.problems 16 -> 30; pass overrides=['eval.problems=N'] to " \
           "evaluate fewer)" in lines
    assert f"base: held-out pass@1 {summary['base']['pass@1']:.3f} on 30 problems" in lines  # was: on 16
    evals = [json.loads(line) for line in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    assert json.loads((tmp_path / "run" / "config.json").read_text())["eval"]["problems"] == 30
    assert [r["step"] for r in evals if r["kind"] == "eval"] == [0, 1]
    fewer = rlvr.train("smoke", reward="exact", dataset=rows[30:], eval_dataset=rows[:30], log=lines.append,
                       overrides=[f"output={tmp_path / 'run2'}", "train.steps=1", "threads=1", "log.report=false",
                                  f"model.cache_dir={tmp_path / 'cache'}", "eval.problems=8"])
    assert fewer["steps"] == 1
    assert json.loads((tmp_path / "run2" / "config.json").read_text())["eval"]["problems"] == 8
