"""Module-level test verifiers for the pool tests (workers import them by name)."""

from __future__ import annotations

import os
import signal
import time

from rlvr.types import Sample, Verdict


def echo_len(completion: str, sample: Sample) -> Verdict:
    """ok when len(completion) equals int(sample.answer); sleeps 'sleep=S' seconds if asked."""
    if completion.startswith("sleep="):
        time.sleep(float(completion.split("=", 1)[1].split()[0]))
    ok = len(completion) == int(sample.answer or -1)
    return Verdict(float(ok), "ok" if ok else "wrong", f"len={len(completion)}", {"n": float(len(completion))})


def kill_self_on_die(completion: str, sample: Sample) -> Verdict:
    """Kills its own worker process with SIGKILL when the completion is 'die'."""
    if completion == "die":
        os.kill(os.getpid(), signal.SIGKILL)
    return Verdict(1.0, "ok", f"pid {os.getpid()}")


def raise_on_boom(completion: str, sample: Sample) -> Verdict:
    if completion == "boom":
        raise RuntimeError("the verifier exploded on purpose")
    return Verdict(1.0, "ok", "")


def hang_on_hang(completion: str, sample: Sample) -> Verdict:
    if completion == "hang":
        while True:
            time.sleep(0.05)
    return Verdict(1.0, "ok", completion)


def returns_junk(completion: str, sample: Sample) -> object:
    return 1.0
