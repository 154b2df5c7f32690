"""Presets match AlgoConfig, carry the paper values, and every knob is documented."""

import dataclasses
import re
from pathlib import Path

import pytest
import torch

from rlvr.algo import PRESETS, policy_loss
from rlvr.config import AlgoConfig, load_config

FIELDS = [f.name for f in dataclasses.fields(AlgoConfig)]
DOC = Path(__file__).resolve().parents[2] / "docs" / "algorithms.md"


def test_preset_names_are_the_config_choices():
    choices = next(f for f in dataclasses.fields(AlgoConfig) if f.name == "name").metadata["choices"]
    assert tuple(PRESETS) == choices


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_sets_every_knob(name):
    assert set(PRESETS[name]) == set(FIELDS) - {"name"}


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_resolves_through_the_config(name):
    cfg = load_config(overrides=[f"algo.name={name}"])
    assert all(getattr(cfg.algo, k) == v for k, v in PRESETS[name].items())


@pytest.mark.parametrize(
    "name, values",
    [
        ("grpo", {"advantage": "grpo", "std": "population", "objective": "clip", "eps_low": 0.2, "eps_high": 0.2,
                  "kl_coef": 0.04, "kl_estimator": "k3", "kl_placement": "loss", "loss_agg": "seq_mean_token_mean"}),
        ("dr_grpo", {"advantage": "dr_grpo", "loss_agg": "seq_mean_token_sum_norm", "kl_coef": 0.0}),
        ("dapo", {"advantage": "grpo", "eps_low": 0.2, "eps_high": 0.28, "loss_agg": "token_mean", "kl_coef": 0.0,
                  "dynamic_sampling": True, "overlong_buffer": 4, "overlong_penalty": 1.0}),
        ("rloo", {"advantage": "rloo", "kl_coef": 0.0}),
        ("reinforce", {"advantage": "reinforce", "objective": "pg", "reinforce_baseline": "batch_mean"}),
        ("ppo", {"advantage": "gae", "objective": "clip", "gae_lambda": 1.0, "gamma": 1.0, "vf_coef": 0.5}),
    ],
)
def test_paper_values(name, values):
    assert {k: PRESETS[name][k] for k in values} == values


@pytest.mark.parametrize("name", list(PRESETS))
def test_policy_loss_accepts_a_whole_resolved_algo_config(name):
    cfg = load_config(overrides=[f"algo.name={name}"])
    knobs = dataclasses.asdict(cfg.algo)
    algorithm = knobs.pop("name")
    logp = torch.zeros(2, 3)
    loss, _ = policy_loss(logp, logp, torch.tensor([1.0, -1.0]), torch.ones(2, 3, dtype=torch.bool),
                          algorithm=algorithm, ref_logp=logp, **knobs)
    assert torch.isfinite(loss)


def test_docs_document_every_knob_and_preset():
    text = DOC.read_text()
    missing = [k for k in FIELDS if not re.search(rf"`{k}`", text)]
    assert missing == []
    assert all(f"`{name}`" in text for name in PRESETS)


def _fmt(v):
    return "None" if v is None else v if isinstance(v, str) else repr(v)


def test_docs_defaults_table_matches_the_presets():
    names = list(PRESETS)
    header = "| knob | " + " | ".join(f"`{n}`" for n in names) + " |"
    lines = DOC.read_text().splitlines()
    start = lines.index(header)
    rows = {}
    for line in lines[start + 2:]:
        if not line.startswith("| `"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0].strip("`")] = cells[1:]
    expected = {k: [_fmt(PRESETS[n][k]) for n in names] for k in FIELDS if k != "name"}
    assert rows == expected
