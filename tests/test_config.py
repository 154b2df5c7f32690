"""Config: presets, overrides, and one-line errors that name the key and the fix."""

import subprocess
import sys

import pytest

from rlvr.config import ConfigError, describe, load_config, parse_override


def test_overrides_and_algorithm_preset_fill():
    cfg = load_config(preset="smoke", overrides=["algo.name=dapo", "algo.eps_high=0.3", "rollout.group_size=6"])
    assert cfg.rollout.group_size == 6
    assert cfg.algo.eps_high == 0.3          # the user's value wins
    assert cfg.algo.eps_low == 0.2           # the rest comes from the dapo preset
    assert cfg.algo.loss_agg == "token_mean" and cfg.algo.dynamic_sampling is True
    assert load_config(preset="demo").algo.loss_agg == "seq_mean_token_mean"


def test_parse_override_types():
    assert parse_override("algo.kl_coef=0.01") == {"algo": {"kl_coef": 0.01}}
    assert parse_override("log.sinks=[jsonl,tensorboard]") == {"log": {"sinks": ["jsonl", "tensorboard"]}}
    assert parse_override("name=abc") == {"name": "abc"}
    assert load_config(overrides=["train.lr=2e-5"]).train.lr == 2e-5  # YAML 1.1 reads 2e-5 as a string


@pytest.mark.parametrize("override, message", [
    ("algo.nope=1", "unknown config key 'algo.nope'; valid keys in algo:"),
    ("algo.eps_low=abc", "config key 'algo.eps_low' expects float | None, got 'abc'"),
    ("rollout.backend=foo", "config key 'rollout.backend' has invalid value 'foo'; valid choices: hf, vllm, scripted"),
    ("algo.name=ppo2", "valid choices: grpo, dr_grpo, dapo, rloo, reinforce, gspo, cispo, reinforce_pp, ppo"),
    ("train=3", "config key 'train' is a section"),
    ("train.steps=1.5", "config key 'train.steps' expects int"),
    ("rollout.group_size=1", "needs rollout.group_size >= 2"),
    ("nonsense", "is not key=value"),
])
def test_errors_name_key_and_fix(override, message):
    with pytest.raises(ConfigError) as err:
        load_config(overrides=[override])
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_yaml_file_errors(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("algo:\n  kl_coef: [1,\n")
    with pytest.raises(ConfigError, match="bad.yaml' line"):
        load_config(str(bad))
    with pytest.raises(ConfigError, match="not found"):
        load_config(str(tmp_path / "missing.yaml"))
    lst = tmp_path / "list.yaml"
    lst.write_text("- 1\n- 2\n")
    with pytest.raises(ConfigError, match="must hold a mapping"):
        load_config(str(lst))


def test_every_field_is_documented():
    rows = describe()
    assert len(rows) > 60
    undocumented = [key for key, _, doc in rows if not doc.strip()]
    assert undocumented == []


@pytest.mark.parametrize("arg", ["algo.nope=1", "algo.eps_low=abc"])
def test_cli_prints_one_line_without_traceback(arg):
    proc = subprocess.run([sys.executable, "-m", "rlvr.cli", "train", arg], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(("rlvr train: error: config key", "rlvr train: error: unknown config key"))
    assert "Traceback" not in proc.stderr
