"""Checkpoints: Hugging Face weights + tokenizer + trainer state, written atomically.

``checkpoints/step_N/`` holds ``config.json`` + ``model.safetensors`` + tokenizer files
(so ``AutoModelForCausalLM.from_pretrained`` loads it) and ``trainer_state.pt``
(optimizer, every RNG state, step, data position, reference weights when they were
re-anchored). A checkpoint is written to ``step_N.tmp-<pid>``, flushed, then renamed;
only after that does ``checkpoints/latest`` (a one-line file, itself replaced
atomically) point at it. A crash mid-write leaves at most a stray ``.tmp`` folder and
the previous ``latest`` intact. Writing a step that already exists (the final save after
a periodic one) moves the old folder aside to ``step_N.replaced-<pid>`` before the new one
is renamed in, and ``latest_checkpoint`` falls back to that copy if a crash lands between
the two renames. A failed write (disk full) removes its temporary files and re-raises.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import torch

from rlvr.errors import UserError

LATEST = "latest"
REPLACED = ".replaced-"  # step_N.replaced-<pid>: the previous step_N while a re-save of step N is moved in


class CheckpointError(UserError, RuntimeError):
    """A checkpoint folder cannot be used (the CLI prints it as one line)."""


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_text_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + f".tmp-{os.getpid()}")
    try:
        with open(tmp, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)  # e.g. disk full: the old file stays as it was
        raise


def rng_state(extra_generators: dict[str, torch.Generator]) -> dict:
    return {
        "python": random.getstate(),
        "torch": torch.get_rng_state(),
        "generators": {k: g.get_state() for k, g in extra_generators.items()},
    }


def set_rng_state(state: dict, extra_generators: dict[str, torch.Generator]) -> None:
    random.setstate(state["python"])
    torch.set_rng_state(state["torch"])
    for k, g in extra_generators.items():
        g.set_state(state["generators"][k])


def save_checkpoint(ckpt_root: Path, step: int, model, tokenizer, trainer_state: dict, keep: int = 2) -> Path:
    """Write ``step_<step>`` atomically, point ``latest`` at it, prune old ones."""
    ckpt_root.mkdir(parents=True, exist_ok=True)
    final = ckpt_root / f"step_{step}"
    tmp = ckpt_root / f"step_{step}.tmp-{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    try:
        model.save_pretrained(tmp, safe_serialization=True)
        tokenizer.save_pretrained(tmp)
        torch.save(trainer_state, tmp / "trainer_state.pt")
        for f in tmp.iterdir():
            with open(f, "rb") as fh:
                os.fsync(fh.fileno())
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)  # never leave a half checkpoint behind
        raise
    aside = None
    if final.exists():  # the same step again (the final save after a periodic one): keep the old copy until the
        aside = ckpt_root / f"{final.name}{REPLACED}{os.getpid()}"  # new one is in place (latest_checkpoint finds it)
        os.replace(final, aside)
    os.replace(tmp, final)
    _fsync_dir(ckpt_root)
    write_text_atomic(ckpt_root / LATEST, final.name + "\n")
    if aside is not None:
        shutil.rmtree(aside, ignore_errors=True)
    prune(ckpt_root, keep)
    return final


def prune(ckpt_root: Path, keep: int) -> None:
    steps = sorted((int(p.name.split("_")[1]), p) for p in ckpt_root.glob("step_*") if p.name.split("_")[1].isdigit())
    latest = latest_checkpoint(ckpt_root)
    for _, p in steps[:-keep] if keep > 0 else []:
        if p != latest:
            shutil.rmtree(p, ignore_errors=True)
    for stray in [*ckpt_root.glob("step_*.tmp-*"), *ckpt_root.glob(f"step_*{REPLACED}*")]:
        shutil.rmtree(stray, ignore_errors=True)
    for stray in ckpt_root.glob(f"{LATEST}.tmp-*"):  # a pointer write killed half-way
        stray.unlink(missing_ok=True)


def latest_checkpoint(ckpt_root: Path) -> Path | None:
    pointer = ckpt_root / LATEST
    if not pointer.is_file():
        return None
    path = ckpt_root / pointer.read_text().strip()
    if not path.exists():  # killed while re-saving this step: the previous copy was set aside, complete
        aside = sorted(p for p in ckpt_root.glob(f"{path.name}{REPLACED}*") if (p / "trainer_state.pt").is_file())
        path = aside[-1] if aside else path
    if not (path / "trainer_state.pt").is_file():
        raise CheckpointError(f"checkpoint pointer {pointer} names {path.name}, which is incomplete; "
                           f"point it at an earlier step_N folder or start a new run")
    return path


def load_trainer_state(path: Path) -> dict:
    return torch.load(path / "trainer_state.pt", map_location="cpu", weights_only=False)
