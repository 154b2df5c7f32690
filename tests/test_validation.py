"""Every config value is checked before anything runs: each bad value of issue 22 is refused
in one line naming the key, the value and the valid range, before the warm-start and before
config.json is written; `rlvr eval` checks its own numbers the same way."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import typing

import pytest

from rlvr.config import Config, check_values, describe, load_config, validate
from rlvr.errors import ConfigError

RLVR = [sys.executable, "-m", "rlvr.cli"]


@pytest.mark.parametrize("override,expect", [
    ("train.steps=-5", "'train.steps' = -5 is out of range; valid: [1, inf)"),
    ("rollout.temperature=-1", "'rollout.temperature' = -1.0 is out of range; valid: [0, inf)"),
    ("rollout.max_new_tokens=0", "'rollout.max_new_tokens' = 0 is out of range; valid: [1, inf)"),
    ("rollout.top_p=2", "'rollout.top_p' = 2.0 is out of range; valid: (0, 1]"),
    ("rollout.top_p=0", "'rollout.top_p' = 0.0 is out of range; valid: (0, 1]"),
    ("eval.problems=0", "'eval.problems' = 0 is out of range; valid: [1, inf)"),
    ("eval.problems=-3", "'eval.problems' = -3 is out of range; valid: [1, inf)"),
    ("threads=-1", "'threads' = -1 is out of range; valid: [0, inf)"),
    ("model.heads=3", "model.hidden=128 is not divisible by model.heads=3"),
    ("train.lr=nan", "'train.lr' is NaN"),
    ("reward.verifier=nosuch", "unknown verifier 'nosuch'"),
    ("reward.verifier=no_such_module_xyz:score", "cannot import module 'no_such_module_xyz'"),
    ("reward.verifier=json:no_such_function", "module 'json' has no attribute 'no_such_function'"),
    ("reward.verifier=json:__doc__", "is a str, not a function"),
])
def test_bad_values_name_key_value_and_range(override, expect):
    with pytest.raises(ConfigError) as err:
        load_config(preset="demo", overrides=[override])
    assert expect in str(err.value)
    assert "\n" not in str(err.value)


def test_values_set_in_python_are_checked_too():
    cfg = load_config(preset="smoke")
    cfg.rollout.top_p = 0.0
    with pytest.raises(ConfigError, match=r"'rollout.top_p' = 0.0 is out of range; valid: \(0, 1\]"):
        validate(cfg)
    cfg = load_config(preset="smoke")
    cfg.train.steps = "5"
    with pytest.raises(ConfigError, match="'train.steps' expects int, got '5'"):
        check_values(cfg)


def _numeric_keys(cls=Config, prefix=""):
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        tp = hints[f.name]
        if dataclasses.is_dataclass(tp):
            yield from _numeric_keys(tp, f"{prefix}{f.name}.")
        elif set(typing.get_args(tp) or (tp,)) - {type(None)} <= {int, float} and tp is not bool:
            yield prefix + f.name, f


def test_every_numeric_key_declares_its_range_and_list_keys_shows_it():
    missing = [key for key, f in _numeric_keys() if f.metadata.get("range") is None]
    assert not missing, f"numeric keys without a range= beside them: {missing}"
    shown = {key: doc for key, _, doc in describe()}
    assert "Range: (0, 1]." in shown["rollout.top_p"]
    assert all("Range: " in shown[key] for key, _ in _numeric_keys())


def test_every_default_lies_in_its_range():
    for preset in ("demo", "smoke", "smollm"):
        check_values(load_config(preset=preset))


def test_tiny_model_shape_needs_even_head_dim():
    with pytest.raises(ConfigError, match="must be even"):
        load_config(preset="smoke", overrides=["model.hidden=36", "model.heads=4"])  # head dim 9
    load_config(preset="smoke", overrides=["model.path=/somewhere", "model.heads=3"])  # a user's model: its own


def _cli(args, cwd):
    env = dict(os.environ, OMP_NUM_THREADS="1", RLVR_CACHE=str(cwd / "cache"))
    return subprocess.run(RLVR + args, capture_output=True, text=True, env=env, cwd=cwd, timeout=120)


def test_cli_refuses_before_any_work(tmp_path):
    out = tmp_path / "run"
    proc = _cli(["train", "--preset", "smoke", "--output", str(out), "train.steps=-5"], tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("rlvr train: error: config key 'train.steps' = -5 is out of range; "
                                   "valid: [1, inf)")
    assert not out.exists() and not (tmp_path / "cache").exists()  # no config.json, no warm-start


def test_cuda_without_a_gpu_is_refused_before_config_json_and_warmstart(tmp_path, monkeypatch, capsys):
    import torch

    from rlvr.cli import main

    if torch.cuda.is_available():
        pytest.skip("a CUDA GPU is visible")
    monkeypatch.setenv("RLVR_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "run"
    assert main(["train", "--preset", "smoke", "--output", str(out), "model.device=cuda"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "rlvr train: error: model.device=cuda but no CUDA GPU is visible; use model.device=cpu"
    assert not (out / "config.json").exists() and not (tmp_path / "cache").exists()


@pytest.mark.parametrize("args,expect", [
    (["--problems", "-3"], "--problems must be >= 1, got -3 (leave it out for eval.problems)"),
    (["--problems", "0"], "--problems must be >= 1, got 0 (leave it out for eval.problems)"),
    (["--temperature", "-1"], "--temperature must be >= 0 (0 = greedy), got -1.0"),
    (["--n", "0"], "--n must be >= 1, got 0"),
])
def test_eval_numbers_are_refused_before_loading_a_model(args, expect, capsys):
    # before: --problems -3 evaluated 13 of 16 problems, --problems 0 all 16, --temperature -1 ran
    from rlvr.cli import main

    assert main(["eval", "--model", "/nonexistent/model", *args]) == 2  # refused before the model is looked at
    assert capsys.readouterr().err.strip() == f"rlvr eval: error: {expect}"
