"""The run doctor on real smoke-preset runs (1-3 steps each): every detection provoked once.

- a broken reward (raises / NaN / the wrong number of values) stops the run within its first
  step, exit code 2, the exception's text on the terminal, the failing step's rows written
  (metrics.jsonl, every completion in samples.jsonl), summary.json saying why; after the
  fix ``--resume`` trains on;
- no_signal, zero_loss (+ all_truncated), zero_grad stop; entropy_floor, sampler_gap,
  data_repeated alarm; data_exhausted stops at doctor.max_epochs; nonfinite_grad is
  tests/faults/test_training_faults.py's three-NaN-steps test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rlvr.train.loop as loop
import rlvr.train.update as update
from rlvr.cli import main as cli_main
from rlvr.config import load_config
from rlvr.rollout.hf import HFRollout

BASE = ["threads=1", "log.report=false", "eval.problems=4", "train.checkpoint_every=0"]


def rows(out: Path, kind: str = "train") -> list[dict]:
    lines = (out / "metrics.jsonl").read_text().splitlines()
    return [r for r in map(json.loads, lines) if r["kind"] == kind]


def run(tmp_path: Path, cache_dir: Path, extra=()):
    out = tmp_path / "run"
    cfg = load_config(preset="smoke", overrides=[*BASE, f"output={out}", f"model.cache_dir={cache_dir}", *extra])
    lines: list[str] = []
    try:
        loop.train(cfg, log=lines.append)
        error = None
    except loop.RunStopped as exc:
        error = str(exc)
    return out, "\n".join(lines), error


# ---------------------------------------------------------------- a broken reward
@pytest.mark.parametrize("reward,step,text", [
    ("fault_rewards:raises_on_train", 1, "ValueError: cannot parse the answer of train-0"),
    ("fault_rewards:nan_on_train", 1, "fault_rewards:nan_on_train returned nan"),
    ("fault_rewards:wrong_length", 0, "fault_rewards:wrong_length returned list '[1.0, 0.0]'"),
])
def test_a_broken_reward_stops_the_run_in_its_first_step(tmp_path, cache_dir, capsys, reward, step, text):
    out = tmp_path / "run"
    code = cli_main(["train", "--preset", "smoke", f"--output={out}", f"reward.verifier={reward}", "train.steps=3",
                     *BASE])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert "rlvr train: error: run doctor: stopped the run" in err and "reward_errors" in err
    assert text in err  # the exception's own text
    n = 16 if step else 4  # a step's 4 x 4 completions, or the base evaluation's 4 problems
    assert f"{n} of {n} completions" in err and "prompt: " in err and "completion: " in err and "--resume" in err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["stop"]["reason"] == "doctor" and summary["stop"]["name"] == "reward_errors"
    assert summary["stop"]["step"] == step and text in summary["stop"]["evidence"]["first error"]
    assert [r["step"] for r in rows(out, "eval")] == [0]  # the base evaluation's row stays
    assert not (out / "checkpoints").exists()
    if step == 1:  # the failing step's row and all 16 of its completions, no update applied
        (row,) = rows(out)
        assert row["step"] == 1 and row["status/error"] == 16 and row["doctor/reward_errors"] == 1
        assert "grad_norm" not in row
        samples = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
        assert len(samples) == 16 and {s["status"] for s in samples} == {"error"}
        assert text in samples[0]["detail"]


def test_a_run_stopped_by_the_doctor_resumes_after_the_fix(tmp_path, cache_dir, capsys):
    out = tmp_path / "run"
    args = ["train", "--preset", "smoke", f"--output={out}", "train.steps=2", *BASE]
    assert cli_main([*args, "reward.verifier=fault_rewards:raises_on_train"]) == 2
    capsys.readouterr()
    assert cli_main([*args, "reward.verifier=exact"]) == 2  # neither --resume nor --overwrite: refused, named
    assert "already holds a run the run doctor stopped at step 1 (reward_errors)" in capsys.readouterr().err
    assert cli_main([*args, "reward.verifier=exact", "--resume"]) == 0  # the fix: a reward that works
    summary = json.loads((out / "summary.json").read_text())
    assert summary["stop"] == {"reason": "train.steps", "step": 2} and summary["final"] is not None
    assert [r["step"] for r in rows(out)] == [1, 2] and all(r["status/error"] == 0 for r in rows(out))


def test_reward_errors_as_an_alarm_lets_the_run_go_on(tmp_path, cache_dir):
    out, lines, error = run(tmp_path, cache_dir, ["train.steps=1", "reward.verifier=fault_rewards:raises_on_train",
                                                  "doctor.reward_errors=alarm"])
    assert error is None and "run doctor: alarm at step 1: reward_errors" in lines
    assert rows(out)[0]["doctor/reward_errors"] == 1
    assert json.loads((out / "summary.json").read_text())["doctor"][0]["name"] == "reward_errors"


# ---------------------------------------------------------------- the metrics detections
def test_no_signal_for_k_steps_stops_the_run(tmp_path, cache_dir):
    # the smoke preset's 20-step warm-start never answers right: every group's rewards are equal
    out, _, error = run(tmp_path, cache_dir, ["train.steps=3", "doctor.no_signal_steps=2"])
    assert error is not None and "stopped the run at step 2: no_signal" in error
    assert "on 2 steps in a row" in error and "rollout.group_size" in error
    assert [r.get("doctor/no_signal") for r in rows(out)] == [None, 1]
    assert json.loads((out / "summary.json").read_text())["stop"]["name"] == "no_signal"


def test_every_completion_truncated_and_masked_is_all_truncated_and_zero_loss(tmp_path, cache_dir):
    out, lines, error = run(tmp_path, cache_dir, [
        "train.steps=2", "rollout.max_new_tokens=2", "algo.mask_truncated=true", "reward.verifier=fault_rewards:coin",
        "doctor.truncated_steps=1", "doctor.zero_steps=1"])
    (row,) = rows(out)
    assert row["trunc_rate"] == 1.0 and row["zero_var/observed"] < 1.0 and row["loss"] == 0.0
    assert row["grad_norm"] == 0.0
    assert "run doctor: alarm at step 1: all_truncated" in lines
    assert error is not None and "stopped the run at step 1: zero_loss" in error
    assert row["doctor/all_truncated"] == 1 and row["doctor/zero_loss"] == 1


def test_a_loss_that_does_not_reach_the_weights_is_zero_grad(tmp_path, cache_dir, monkeypatch):
    real = update.micro_step

    def detached(learner, *a, **kw):  # as if the loss were cut off from the weights
        n = real(learner, *a, **kw)
        for p in learner.model.parameters():
            if p.grad is not None:
                p.grad.zero_()
        return n

    monkeypatch.setattr(update, "micro_step", detached)
    out, _, error = run(tmp_path, cache_dir, ["train.steps=2", "reward.verifier=fault_rewards:coin",
                                              "algo.loss_agg=token_mean", "doctor.zero_steps=1"])
    (row,) = rows(out)
    assert row["grad_norm"] == 0.0 and row["loss"] != 0.0 and row["zero_var/observed"] < 1.0
    assert error is not None and "stopped the run at step 1: zero_grad" in error


def test_a_near_greedy_policy_trips_the_entropy_floor(tmp_path, cache_dir):
    out, lines, error = run(tmp_path, cache_dir, ["train.steps=1", "rollout.temperature=0.01",
                                                  "doctor.entropy_steps=1"])
    assert error is None
    row = rows(out)[0]
    assert row["entropy"] < 0.05 and row["doctor/entropy_floor"] == 1
    assert "run doctor: alarm at step 1: entropy_floor" in lines and "rollout.temperature" in lines


def test_a_sampler_that_disagrees_with_the_trainer_is_sampler_gap(tmp_path, cache_dir, monkeypatch):
    real = HFRollout.generate

    def off_by_one(self, prompts, sampling):  # the sampler reports log-probs 1 nat above the trainer's
        comps = real(self, prompts, sampling)
        for c in comps:
            c.sampler_logp = [lp - 1.0 for lp in c.sampler_logp]
        return comps

    monkeypatch.setattr(HFRollout, "generate", off_by_one)
    out, _, error = run(tmp_path, cache_dir, ["train.steps=1", "doctor.sampler_gap_steps=1",
                                              "doctor.sampler_gap=stop"])
    row = rows(out)[0]
    assert row["logp_mismatch"] == pytest.approx(1.0, abs=1e-3) and row["doctor/sampler_gap"] == 1
    assert error is not None and "stopped the run at step 1: sampler_gap" in error
    assert "algo.mismatch_correction" in error


def write_rows(path: Path, first: int, n: int) -> Path:
    path.write_text("".join(json.dumps({"prompt": f"{i}+1=", "answer": str(i + 1)}) + "\n"
                            for i in range(first, first + n)))
    return path


def test_a_small_training_set_repeats_then_is_exhausted(tmp_path, cache_dir):
    train, held = write_rows(tmp_path / "train.jsonl", 0, 6), write_rows(tmp_path / "eval.jsonl", 10, 4)
    out, lines, error = run(tmp_path, cache_dir, [
        "task.name=dataset", f"task.train_path={train}", f"task.eval_path={held}", "task.eval_size=4",
        "train.steps=3", "doctor.max_epochs=2", "doctor.no_signal=off"])
    # 4 prompts a step from 6 rows: step 2 draws rows 4-7 (pass 2 begins), step 3 rows 8-11 (2 passes done)
    assert "run doctor: alarm at step 2: data_repeated" in lines and "pass 2" in lines
    assert error is not None and "stopped the run at step 3: data_exhausted" in error
    assert [r.get("doctor/data_repeated") for r in rows(out)] == [None, 1, None]


def test_every_detection_has_a_config_knob_listed(capsys):
    assert cli_main(["train", "--list-keys"]) == 0
    listed = capsys.readouterr().out
    from rlvr.diagnostics.doctor import DETECTIONS

    for name in DETECTIONS:
        key = "doctor.max_epochs" if name == "data_exhausted" else f"doctor.{name}"
        assert f"{key} = " in listed


def test_a_finished_run_records_why_it_stopped(tmp_path, cache_dir):
    out, _, error = run(tmp_path, cache_dir, ["train.steps=1"])
    assert error is None
    summary = json.loads((out / "summary.json").read_text())
    assert summary["stop"] == {"reason": "train.steps", "step": 1} and summary["doctor"] == []

