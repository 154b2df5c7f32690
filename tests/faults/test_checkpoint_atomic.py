"""Checkpoint writes are atomic: re-saving a step keeps the old copy until the new one is in
place, ``latest`` falls back to that copy when a crash lands between the two renames, and a
pointer to a missing checkpoint is a one-line error, not a traceback."""

from __future__ import annotations

import pytest

from rlvr.errors import UserError
from rlvr.train import checkpoint as ckpt


class TinyModel:
    """Just what save_checkpoint calls: save_pretrained(path)."""

    def __init__(self, tag: str):
        self.tag = tag

    def save_pretrained(self, path, **_):
        path.mkdir(parents=True, exist_ok=True)
        (path / "config.json").write_text(self.tag)


class TinyTokenizer:
    def save_pretrained(self, path):
        (path / "tokenizer.json").write_text("{}")


def save(root, step, tag):
    return ckpt.save_checkpoint(root, step, TinyModel(tag), TinyTokenizer(), {"state": {"step": step}}, keep=2)


def test_resaving_a_step_replaces_it_and_leaves_nothing_behind(tmp_path):
    save(tmp_path, 2, "first")
    save(tmp_path, 4, "first")
    save(tmp_path, 4, "second")
    assert ckpt.latest_checkpoint(tmp_path) == tmp_path / "step_4"
    assert (tmp_path / "step_4" / "config.json").read_text() == "second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest", "step_2", "step_4"]
    save(tmp_path, 6, "first")  # keep=2: step_2 goes
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest", "step_4", "step_6"]


def test_a_crash_between_the_two_renames_of_a_resave_falls_back_to_the_old_copy(tmp_path):
    save(tmp_path, 4, "old")
    aside = tmp_path / f"step_4{ckpt.REPLACED}12345"
    (tmp_path / "step_4").rename(aside)  # what the re-save did before it was killed
    (tmp_path / "step_4.tmp-12345").mkdir()  # and its new copy, never renamed in
    assert ckpt.latest_checkpoint(tmp_path) == aside
    assert ckpt.load_trainer_state(aside)["state"]["step"] == 4
    save(tmp_path, 6, "next")  # the next successful save clears the strays
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest", "step_6"]


def test_a_pointer_to_a_missing_checkpoint_is_a_user_error(tmp_path):
    (tmp_path / "latest").write_text("step_8\n")
    with pytest.raises(UserError, match="names step_8, which is incomplete"):
        ckpt.latest_checkpoint(tmp_path)


def test_a_failed_write_removes_its_temporary_folder(tmp_path, monkeypatch):
    save(tmp_path, 2, "good")

    def full(*a, **kw):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(ckpt.torch, "save", full)
    with pytest.raises(OSError):
        save(tmp_path, 4, "never")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest", "step_2"]
    assert ckpt.latest_checkpoint(tmp_path) == tmp_path / "step_2"
