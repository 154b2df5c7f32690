"""Checkpoints: Hugging Face weights + tokenizer + trainer state, written atomically.

``checkpoints/step_N/`` holds ``config.json`` + ``model.safetensors`` + tokenizer files
(so ``AutoModelForCausalLM.from_pretrained`` loads it) and ``trainer_state.pt``
(optimizer, every RNG state, step, data position, reference weights when they were
re-anchored). A checkpoint is written to ``step_N.tmp-<pid>``, flushed, then renamed;
only after that does ``checkpoints/latest`` (a one-line file, itself replaced
atomically) point at it. A crash mid-write leaves at most a stray ``.tmp`` folder and
the previous ``latest`` intact. A write that fails is an ``OSError`` whatever reported it
(``torch.save`` reports a full disk as a ``RuntimeError``), naming the free space left, so the
trainer's "count it and go on" (``faults/checkpoint_errors``) sees it. Writing a step that
already exists (the final save after a periodic one) moves the old folder aside to
``step_N.replaced-<pid>`` before the new one is renamed in, and ``latest_checkpoint`` falls
back to that copy if a crash lands between the two renames. A failed write (disk full) removes
its temporary files and re-raises.

The last file written into a checkpoint is ``checksums.json`` (every other file's size and
sha256): a folder without it never completed, and a file that no longer matches it (cut
short by a full disk or a copy, bit rot) is found before resuming. ``intact_checkpoint``
reports each damaged checkpoint in one line and returns the newest intact one.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import zipfile
from pathlib import Path

import torch

from rlvr.errors import UserError

LATEST = "latest"
CHECKSUMS = "checksums.json"
REPLACED = ".replaced-"  # step_N.replaced-<pid>: the previous step_N while a re-save of step N is moved in


class CheckpointError(UserError, RuntimeError):
    """A checkpoint folder cannot be used (the CLI prints it as one line)."""


class CheckpointWriteError(OSError):
    """A checkpoint could not be written (disk full, an I/O error); nothing of it is left behind."""


def _free_space(path: Path) -> str:
    try:
        return f"{shutil.disk_usage(path).free / 1e6:.1f} MB free on its disk"
    except OSError:
        return "free space unknown"


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
        listing = json.dumps(manifest(tmp), indent=1) + "\n"
        with open(tmp / CHECKSUMS, "w") as fh:  # last: the folder is complete (the folder's rename is the atomic step)
            fh.write(listing)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)  # never leave a half checkpoint behind
        # torch.save reports a failed write (disk full) as a RuntimeError, safetensors as a SafetensorError
        if isinstance(exc, (OSError, RuntimeError)) or type(exc).__name__ == "SafetensorError":
            raise CheckpointWriteError(f"writing {final.name} failed ({type(exc).__name__}: {exc}); "
                                       f"{_free_space(ckpt_root)}") from exc
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


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def manifest(folder: Path) -> dict:
    """{relative path: {"bytes", "sha256"}} of every file under ``folder`` but the manifest."""
    return {p.relative_to(folder).as_posix(): {"bytes": p.stat().st_size, "sha256": _sha256(p)}
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != CHECKSUMS}


def checkpoint_problem(path: Path) -> str | None:
    """Why the checkpoint folder ``path`` cannot be resumed from, or None when it is intact."""
    if not path.is_dir():
        return "is missing"
    listed = path / CHECKSUMS
    if not listed.is_file():  # written before checksums existed (or never completed): check what can be checked
        state = path / "trainer_state.pt"
        if not state.is_file():
            return "is incomplete (no trainer_state.pt)"
        if not zipfile.is_zipfile(state):
            return "trainer_state.pt is truncated or corrupt (not a readable torch archive)"
        from rlvr.models.base import weights_problem

        return weights_problem(path)
    try:
        entries = json.loads(listed.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError):
        return f"{CHECKSUMS} is corrupt"
    for name, want in entries.items():
        f = path / name
        if not f.is_file():
            return f"{name} is missing"
        size = f.stat().st_size
        if size < want["bytes"]:
            return f"{name} is truncated ({size} of {want['bytes']} bytes)"
        if size != want["bytes"]:
            return f"{name} has {size} bytes, {want['bytes']} were written"
        if _sha256(f) != want["sha256"]:
            return f"{name} is corrupt (its sha256 differs from the one written)"
    return None


def _step_dirs(ckpt_root: Path) -> list[Path]:
    """step_N folders, newest first."""
    found = [(int(p.name[5:]), p) for p in ckpt_root.glob("step_*") if p.name[5:].isdigit() and p.is_dir()]
    return [p for _, p in sorted(found, reverse=True)]


def intact_checkpoint(ckpt_root: Path, log=print) -> Path | None:
    """The newest checkpoint that is whole: the one ``latest`` names, else the newest intact
    step_N folder. Each damaged one is reported in one line; None when there is none at all."""
    try:
        first = latest_checkpoint(ckpt_root)
    except CheckpointError:
        first = None
    candidates = [first] if first is not None else []
    candidates += [p for p in _step_dirs(ckpt_root) if p != first]
    damaged = []
    for path in candidates:
        problem = checkpoint_problem(path)
        if problem is None:
            if damaged:
                log(f"resume: damaged checkpoint {'; '.join(damaged)}; resuming from {path.name}, "
                    f"the newest intact one")
            return path
        damaged.append(f"{path.name} ({problem})")
    if damaged:
        raise CheckpointError(f"no intact checkpoint under {ckpt_root}: {'; '.join(damaged)}; start a new run "
                              f"(--overwrite) or restore the files")
    return None


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
    f = path / "trainer_state.pt"
    try:
        return torch.load(f, map_location="cpu", weights_only=False)
    except (RuntimeError, EOFError, OSError, zipfile.BadZipFile) as exc:
        raise CheckpointError(f"{f} cannot be read, truncated or corrupt ({str(exc).splitlines()[0][:120]}); "
                              f"resume from an earlier checkpoint or start a new run") from None
