"""`rlvr advantages`: 3 of 8 correct, by hand."""

import json
import subprocess
import sys

import pytest

from rlvr.cli import main


def _run(capsys, *argv):
    rc = main(["advantages", *argv])
    captured = capsys.readouterr()
    return rc, captured.out, captured.err


@pytest.mark.parametrize(
    "estimator, pos, neg",
    [("grpo", 1.291, -0.7746), ("dr_grpo", 0.625, -0.375), ("rloo", 0.7143, -0.4286), ("reinforce", 1.0, 0.0)],
)
def test_three_of_eight(capsys, estimator, pos, neg):
    rc, out, _ = _run(capsys, "--rewards", "1,1,1,0,0,0,0,0", "--estimator", estimator)
    assert rc == 0
    data = json.loads(out)
    assert data["advantages"] == [pos] * 3 + [neg] * 5
    assert data["estimator"] == estimator and data["group_size"] == 8


@pytest.mark.parametrize("estimator", ["grpo", "dr_grpo", "rloo"])
def test_uniform_group_is_all_zeros(capsys, estimator):
    rc, out, _ = _run(capsys, "--rewards", "1,1,1,1", "--estimator", estimator)
    assert rc == 0 and json.loads(out)["advantages"] == [0.0, 0.0, 0.0, 0.0]


def test_unbiased_std_and_groups(capsys):
    rc, out, _ = _run(capsys, "--rewards", "1,1,1,0,0,0,0,0", "--std", "unbiased")
    assert json.loads(out)["advantages"][:4] == [1.2076, 1.2076, 1.2076, -0.7246]
    # two groups of 4: [1,1,1,0] -> mean 0.75, std 0.4330 -> 0.5774 / -1.7320; [0,0,0,0] -> 0
    rc, out, _ = _run(capsys, "--rewards", "1,1,1,0,0,0,0,0", "--group-size", "4")
    assert json.loads(out)["advantages"] == [0.5773, 0.5773, 0.5773, -1.732, 0.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--rewards", "1,x"], "comma-separated numbers"),
        (["--rewards", "1,0,1", "--group-size", "2"], "whole groups"),
        (["--rewards", "1,0", "--group-size", "1", "--estimator", "rloo"], ">= 2 completions"),
    ],
)
def test_user_errors_are_one_line(capsys, argv, message):
    rc, out, err = _run(capsys, *argv)
    assert rc == 2 and out == "" and message in err and err.count("\n") == 1


def test_console_entry_point():
    out = subprocess.run([sys.executable, "-m", "rlvr.cli", "advantages", "--rewards", "1,1,1,0,0,0,0,0",
                          "--estimator", "rloo"], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["advantages"][0] == 0.7143
