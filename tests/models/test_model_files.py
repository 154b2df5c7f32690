"""A model directory or GGUF file that cannot be loaded is one line naming the file and the
cause (a cut-short file says "truncated"), from `rlvr eval` and `rlvr train` alike, before
any model is built; each of these was a raw traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rlvr.cli import main
from rlvr.models.base import ModelFileError, check_model_dir


@pytest.fixture()
def model_dir(tiny_model_dir, tmp_path) -> Path:
    d = tmp_path / "model"
    shutil.copytree(tiny_model_dir, d)
    return d


def refused(args, capsys) -> str:
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    return err


def test_an_intact_directory_passes(model_dir):
    check_model_dir(model_dir)


def test_broken_config_json(model_dir, capsys, tmp_path):
    (model_dir / "config.json").write_text('{"model_type": "llama", ')
    err = refused(["eval", "--model", str(model_dir), "--output", str(tmp_path / "ev")], capsys)
    assert err.startswith(f"rlvr eval: error: {model_dir / 'config.json'} is not valid JSON (truncated): ")
    err = refused(["train", "--preset", "smoke", "--output", str(tmp_path / "run"), f"model.path={model_dir}",
                   "model.chat_template=none"], capsys)
    assert err.startswith(f"rlvr train: error: {model_dir / 'config.json'} is not valid JSON (truncated)")
    assert not (tmp_path / "run").exists()


def test_config_json_of_something_else(model_dir):
    (model_dir / "config.json").write_text(json.dumps({"hello": 1}))
    with pytest.raises(ModelFileError, match="has no model_type"):
        check_model_dir(model_dir)


def test_no_weights(model_dir, capsys, tmp_path):
    (model_dir / "model.safetensors").unlink()
    err = refused(["eval", "--model", str(model_dir), "--output", str(tmp_path / "ev")], capsys)
    assert err == (f"rlvr eval: error: model directory {model_dir} holds no weights "
                   f"(model.safetensors or pytorch_model.bin)")


def test_truncated_weights(model_dir, capsys, tmp_path):
    f = model_dir / "model.safetensors"
    size = f.stat().st_size
    f.write_bytes(f.read_bytes()[: size // 2])
    err = refused(["eval", "--model", str(model_dir), "--output", str(tmp_path / "ev")], capsys)
    assert err == f"rlvr eval: error: {f} is truncated ({size // 2} of {size} bytes)"
    f.write_bytes(b"\x05")
    with pytest.raises(ModelFileError, match=r"is truncated \(1 bytes, not even a header\)"):
        check_model_dir(model_dir)


def test_gguf_without_tokenizer_metadata(tmp_path):
    gguf = pytest.importorskip("gguf")
    import numpy as np

    from rlvr.models import gguf as g

    path = tmp_path / "notok.gguf"
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_tensor("token_embd.weight", np.zeros((4, 4), np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    with pytest.raises(g.GGUFError, match="has no tokenizer metadata \\(no tokenizer.ggml.model entry\\)"):
        g.convert_gguf(path, tmp_path / "out", log=lambda s: None)  # was: ValueError from transformers
