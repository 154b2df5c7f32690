"""``RayVerifierPool``: the ``VerifierPool`` interface on Ray actors, for verification that
outgrows one machine.

Same contract as ``rlvr.verifiers.pool.VerifierPool``: ``map(completions, samples)`` in
input order, per-item wall-clock timeouts enforced by the caller (the actor that overran
is killed with ``ray.kill`` and replaced; the item gets status ``timeout``), an actor that
dies gives status ``error`` for its item and is replaced, a raising verifier gives
``error`` with the exception text, and the same cache / dedupe / ``stats()``.

Each actor runs one item at a time, so a deadline is exactly "submitted + timeout_s";
items go only to actors that have started (warm-up does not count against an item).
That costs one Ray round trip per item (about a millisecond); verifiers worth a cluster
(sandboxed test suites, proof checkers) take far longer than that.

``ray`` is imported lazily, inside the constructor: importing this module never needs
Ray. If ``ray`` is not initialised the pool calls ``ray.init(**init_kwargs)``
(default: ``num_cpus=workers``, no dashboard); on a cluster, initialise Ray yourself first.
The verifier must be importable on the Ray workers (the ``rlvr`` package installed
there, or shipped with ``runtime_env``).

What it does not do: ``workers=0`` (use ``VerifierPool`` for in-process verification),
or placement, autoscaling and resource shapes (pass an actor-options dict if needed).
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from rlvr.types import Sample, Verdict
from rlvr.verifiers.pool import STARTUP_LIMIT_S, PoolBase, run_one


def _ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise ImportError("RayVerifierPool needs Ray: pip install 'rlvr[ray]' (ray>=2.40)") from exc
    return ray


class _VerifierActor:
    """Holds one verifier; ``run`` verifies one item (exceptions become ``error``)."""

    def __init__(self, verifier: Any) -> None:
        self.verifier = verifier
        try:
            verifier.warm_up()
        except Exception:  # the same error surfaces per item, as status "error"
            pass

    def ready(self) -> bool:
        return True

    def run(self, completion: str, sample: Sample) -> tuple[Verdict, float]:
        return run_one(self.verifier, completion, sample)


class RayVerifierPool(PoolBase):
    """Ray actors with per-item timeouts, restarts and caching (see module docstring)."""

    def __init__(self, verifier: Any, workers: int = 2, timeout_s: float = 3.0, *, cache_size: int = 65536,
                 init_kwargs: dict[str, Any] | None = None, actor_options: dict[str, Any] | None = None) -> None:
        super().__init__(verifier, workers, timeout_s, cache_size)
        if workers < 1:
            raise ValueError("RayVerifierPool needs workers >= 1; use VerifierPool(workers=0) in-process")
        self._raylib = _ray()
        if not self._raylib.is_initialized():
            self._raylib.init(**(init_kwargs or {"num_cpus": workers, "include_dashboard": False}))
        options = {"num_cpus": 1, "max_restarts": 0, **(actor_options or {})}
        self._actor_class = self._raylib.remote(**options)(_VerifierActor)
        self._starting: dict[Any, Any] = {}  # ready() ref -> actor still warming up
        self._actors = [self._spawn() for _ in range(workers)]

    def _spawn(self) -> Any:
        actor = self._actor_class.remote(self.verifier)
        self._starting[actor.ready.remote()] = actor
        return actor

    def _replace(self, slot: int, kill: bool) -> None:
        if kill:
            self._raylib.kill(self._actors[slot], no_restart=True)
        self._actors[slot] = self._spawn()
        self._counts["restarts"] += 1

    def _run_unique(self, items: list[tuple[str, Sample]]) -> list[tuple[Verdict, float]]:
        out: list[tuple[Verdict, float] | None] = [None] * len(items)
        queue = deque(range(len(items)))
        running: dict[Any, tuple[int, int, float]] = {}  # ref -> (actor slot, item, deadline)
        while queue or running:
            busy = {slot for slot, _, _ in running.values()}
            starting = set(self._starting.values())
            for slot, actor in enumerate(self._actors):
                if queue and slot not in busy and actor not in starting:
                    index = queue.popleft()
                    ref = actor.run.remote(*items[index])
                    running[ref] = (slot, index, time.monotonic() + self.timeout_s)
            self._wait(running)
            for ref in self._raylib.wait(list(running), num_returns=len(running), timeout=0)[0]:
                slot, index, _ = running.pop(ref)
                out[index] = self._collect(ref, slot)
            for ref, (slot, index, deadline) in list(running.items()):
                if time.monotonic() > deadline:
                    running.pop(ref)
                    out[index] = (Verdict(0.0, "timeout", f"verifier exceeded {self.timeout_s:g} s (actor killed)"),
                                  self.timeout_s)
                    self._replace(slot, kill=True)
        return out  # type: ignore[return-value]

    def _wait(self, running: dict[Any, tuple[int, int, float]]) -> None:
        """Block until a result, a started actor, or the nearest deadline."""
        deadlines = [d for _, _, d in running.values()]
        refs = list(running) + list(self._starting)
        if not refs:
            return
        timeout = max(0.0, min(deadlines) - time.monotonic()) if deadlines else STARTUP_LIMIT_S
        self._raylib.wait(refs, num_returns=1, timeout=timeout)
        for ref in self._raylib.wait(list(self._starting), num_returns=len(self._starting), timeout=0)[0]:
            self._starting.pop(ref)  # ready (or dead: its first item will report the death)

    def _collect(self, ref: Any, slot: int) -> tuple[Verdict, float]:
        exceptions = self._raylib.exceptions
        try:
            return self._raylib.get(ref)
        except exceptions.RayActorError as exc:
            self._replace(slot, kill=False)
            return Verdict(0.0, "error", f"verifier actor died while verifying this item: {str(exc)[:300]}"), 0.0
        except exceptions.RayError as exc:
            return Verdict(0.0, "error", f"ray error: {str(exc)[:300]}"), 0.0

    def close(self) -> None:
        """Kill the actors (Ray itself stays up: it may be shared)."""
        for actor in self._actors:
            self._raylib.kill(actor, no_restart=True)
        self._actors = []
