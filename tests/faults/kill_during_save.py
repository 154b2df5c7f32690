"""Run `rlvr <args>` and SIGKILL the process at a chosen point inside the n-th checkpoint write.

    python kill_during_save.py PHASE N -- train --preset smoke ...

PHASE: ``trainer_state`` (weights and tokenizer written to the temporary folder, trainer
state not yet), ``rename_1`` / ``rename_2`` (at the first / second ``os.replace`` of the
write: moving an existing step aside or the temporary folder in, then the ``latest``
pointer), ``prune`` (after ``latest`` moved, before old checkpoints are pruned). A helper
of tests/faults/test_kill_resume.py, not a test itself.
"""

from __future__ import annotations

import os
import signal
import sys

import torch

import rlvr.train.checkpoint as ckpt
from rlvr.cli import main

PHASES = ("trainer_state", "rename_1", "rename_2", "prune")


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def arm(phase: str, nth: int) -> None:
    state = {"save": 0, "inside": False, "renames": 0}
    real_save, real_replace, real_torch_save, real_prune = ckpt.save_checkpoint, os.replace, torch.save, ckpt.prune

    def save_checkpoint(*a, **kw):
        state["save"] += 1
        state["inside"] = state["save"] == nth
        try:
            return real_save(*a, **kw)
        finally:
            state["inside"] = False

    def replace(src, dst):
        if state["inside"]:
            state["renames"] += 1
            if phase == f"rename_{state['renames']}":
                die()
        return real_replace(src, dst)

    def torch_save(*a, **kw):
        if state["inside"] and phase == "trainer_state":
            die()
        return real_torch_save(*a, **kw)

    def prune(*a, **kw):
        if state["inside"] and phase == "prune":
            die()
        return real_prune(*a, **kw)

    # the loop calls ckpt.save_checkpoint, which looks up os.replace, torch.save and prune at call time
    ckpt.save_checkpoint, ckpt.os.replace, ckpt.torch.save, ckpt.prune = save_checkpoint, replace, torch_save, prune


if __name__ == "__main__":
    phase, nth = sys.argv[1], int(sys.argv[2])
    if phase not in PHASES or sys.argv[3] != "--":
        raise SystemExit(f"usage: kill_during_save.py {{{','.join(PHASES)}}} N -- ARGS")
    arm(phase, nth)
    sys.exit(main(sys.argv[4:]))
