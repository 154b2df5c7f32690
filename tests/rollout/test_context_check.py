"""Prompts that, with the completion budget, do not fit the model's context are refused
before training, naming the first such row, the lengths, and how many do not fit."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from rlvr.cli import main
from rlvr.config import TaskConfig, load_config
from rlvr.errors import ConfigError
from rlvr.models.tiny import build_char_tokenizer
from rlvr.rollout.prompts import check_context, context_length
from rlvr.tasks.dataset import DatasetTask


def rows_file(tmp_path, lengths):
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps({"prompt": "x" * n + f" {i}\n", "answer": "1"}) + "\n"
                            for i, n in enumerate(lengths)))
    return path


def test_context_length_reads_the_config_key_the_model_has():
    assert context_length(SimpleNamespace(config=SimpleNamespace(max_position_embeddings=256))) == (
        256, "max_position_embeddings")
    assert context_length(SimpleNamespace(config=SimpleNamespace(n_positions=1024))) == (1024, "n_positions")
    assert context_length(SimpleNamespace(config=SimpleNamespace())) is None


def test_a_prompt_that_does_not_fit_is_refused_naming_its_line(tmp_path):
    cfg = load_config(preset="smoke")  # rollout.max_new_tokens 24
    path = rows_file(tmp_path, [10, 10, 300, 10, 229, 10, 10, 10])
    task = DatasetTask.from_config(TaskConfig(name="dataset", train_path=str(path), eval_size=2))
    model = SimpleNamespace(config=SimpleNamespace(max_position_embeddings=256))
    tokenizer = build_char_tokenizer()
    with pytest.raises(ConfigError) as err:
        check_context(task, tokenizer, model, cfg)
    assert str(err.value) == (
        f"{path} line 3: the prompt is 303 tokens, and with a completion budget of 24 (rollout.max_new_tokens / "
        f"eval.max_new_tokens) that is 327 > the model's context of 256 tokens (max_position_embeddings); 1 of 8 "
        f"prompts do not fit: shorten or drop them, or lower the completion budget")
    fits = DatasetTask.from_config(TaskConfig(name="dataset", train_path=str(rows_file(tmp_path, [10, 229, 10, 10])),
                                              eval_size=1))
    check_context(fits, tokenizer, model, cfg)  # 232 + 24 = 256: fits exactly


def test_training_on_prompts_longer_than_the_context_stops_before_the_first_step(tmp_path, capsys):
    path = rows_file(tmp_path, [1500] * 30)  # was: trained on 6x the context without a word
    code = main(["train", "--preset", "smoke", "--output", str(tmp_path / "run"), "task.name=dataset",
                 f"task.train_path={path}", "task.allow_contamination=true", "threads=1", "log.report=false",
                 f"model.cache_dir={tmp_path / 'cache'}"])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert code == 2
    assert err.startswith(f"rlvr train: error: {path} line ") and "> the model's context of 256 tokens" in err
    assert "30 of 30 prompts do not fit" in err
    assert not (tmp_path / "run" / "metrics.jsonl").exists()
