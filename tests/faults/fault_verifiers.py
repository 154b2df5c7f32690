"""Verifiers that misbehave on purpose, for the fault tests. Module-level so the pool's
worker processes can unpickle them. Each scores ``completion == sample.answer`` unless
the completion carries a marker: ``CRASH`` kills the worker process outright (SIGKILL, as
the OOM killer would), ``HANG`` never returns."""

from __future__ import annotations

import os
import signal
import time

from rlvr.types import Sample, Verdict


def _score(completion: str, sample: Sample) -> Verdict:
    ok = completion == sample.answer
    return Verdict(1.0 if ok else 0.0, "ok" if ok else "wrong")


def crash_on_marker(completion: str, sample: Sample) -> Verdict:
    if "CRASH" in completion:
        os.kill(os.getpid(), signal.SIGKILL)
    return _score(completion, sample)


def hang_on_marker(completion: str, sample: Sample) -> Verdict:
    if "HANG" in completion:
        time.sleep(3600)
    return _score(completion, sample)
