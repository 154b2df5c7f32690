"""Run a verifier over many completions: worker processes, per-item timeouts, a cache.

``VerifierPool(verifier, workers, timeout_s)``:
- ``verifier`` is a name ("math"), a spec dict (``{"composite": {...}}``), an object from
  ``build_reward_fn`` / ``make_composite``, or a picklable module-level callable
  (see ``composite.as_verifier``). Workers rebuild it from its pickle.
- ``map(completions, samples) -> list[Verdict]`` returns results in input order.
- Work goes to workers in chunks (one message per chunk, not per item); each finished
  item comes back at once, so the parent knows when every item started and enforces the
  wall-clock ``timeout_s`` per item: the worker that overran is killed (SIGKILL), its
  item gets status ``timeout``, a fresh worker replaces it and the rest of its chunk is
  re-queued. A worker that dies (segfault, OOM kill, ``os._exit``) gives status ``error``
  for the item it was on; the rest of the batch completes.
- A verifier that raises gives status ``error`` with the exception text in ``detail``.
- Identical calls are computed once: within a batch always, across batches through an
  LRU cache of ok/wrong/no_answer results (timeouts and errors are retried next time).
  The key is the verifier spec + options + completion + the sample fields it reads.
- ``stats()``: counts per status, cache hits, restarts, items computed.
- ``workers=0`` verifies in the calling process: no timeout is enforced (a verifier that
  hangs hangs the caller) and a crash of the interpreter is not contained. It is the
  fast choice for cheap, trusted verifiers (exact/format on the built-in task).

Processes start from the "forkserver" context where it exists (else "spawn"), never
plain fork: a trainer that holds torch threads or CUDA must not be forked. The
forkserver preloads the verifier's modules, so restarting a killed worker costs a fork,
not a fresh interpreter.

What it does not do: share work between machines (``ray_pool.RayVerifierPool`` has the
same interface), or make a hung verifier return early without killing its process.
The pool is not thread-safe: one ``map`` at a time.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import sys
import time
import types
import weakref
from collections import Counter, OrderedDict, deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import Any

from rlvr.types import STATUSES, Sample, Verdict
from rlvr.verifiers.composite import as_verifier
from rlvr.verifiers.registry import check_verdict, get_verifier

CACHEABLE = ("ok", "wrong", "no_answer")
STARTUP_LIMIT_S = 120.0  # a worker that is not ready by then is considered failed


def run_one(verifier: Any, completion: str, sample: Sample) -> tuple[Verdict, float]:
    """Call the verifier once; an exception becomes an ``error`` verdict with its text."""
    start = time.perf_counter()
    try:
        verdict = check_verdict(verifier(completion, sample), "verifier")
    except Exception as exc:  # reported as status "error", counted, never a silent 0
        verdict = Verdict(0.0, "error", f"{type(exc).__name__}: {exc}"[:2000])
    return verdict, time.perf_counter() - start


def _worker_main(conn: Any, verifier: Any, sys_path: Sequence[str] = ()) -> None:
    """Worker loop: take the parent's import path, warm up, say ready, then verify chunks
    and send each result."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's business
    sys.path[:0] = [entry for entry in sys_path if entry not in sys.path]  # the user's modules import here too
    try:
        verifier.warm_up()
    except Exception:  # the same error will surface per item, as status "error"
        pass
    conn.send(("ready", os.getpid()))
    while True:
        try:
            chunk = conn.recv()
        except EOFError:
            return
        if chunk is None:
            return
        for index, completion, sample in chunk:
            verdict, elapsed = run_one(verifier, completion, sample)
            conn.send((index, verdict, elapsed))


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Any
    ready: bool = False
    started: float = field(default_factory=time.monotonic)
    chunk: deque = field(default_factory=deque)  # items sent, not yet answered
    deadline: float = 0.0


def _modules_of(verifier: Any) -> list[str]:
    """Modules the verifier will import, for the forkserver to preload."""
    if hasattr(verifier, "entry"):
        modules = [getattr(verifier.entry, "module", None)]
    elif hasattr(verifier, "parts"):
        modules = [getattr(get_verifier(name), "module", None) for name, _ in verifier.parts]
    elif hasattr(verifier, "warm"):  # a Router
        specs = ([verifier.default] if verifier.default else []) + list(verifier.warm)
        modules = [m for spec in specs for m in _modules_of(as_verifier(spec))]
    else:
        modules = [getattr(getattr(verifier, "fn", None), "__module__", None) or "rlvr.verifiers.registry"]
    # a user's module (module:function) is imported by each worker, not preloaded: the
    # forkserver is shared and outlives a run, and a module that fails to import must
    # fail as that reward's error, not the server's
    modules = [m for m in modules if m and m.startswith("rlvr.")]
    if "rlvr.verifiers.mathv" in modules:
        modules.append("math_verify")
    return ["rlvr.verifiers.registry", "rlvr.verifiers.composite", *modules]


class _Cache:
    """A bounded LRU map key -> Verdict."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.data: OrderedDict[str, Verdict] = OrderedDict()

    def get(self, key: str | None) -> Verdict | None:
        if key is None or key not in self.data:
            return None
        self.data.move_to_end(key)
        return self.data[key]

    def put(self, key: str | None, verdict: Verdict) -> None:
        if key is None or self.size <= 0 or verdict.status not in CACHEABLE:
            return
        self.data[key] = verdict
        self.data.move_to_end(key)
        while len(self.data) > self.size:
            self.data.popitem(last=False)


class PoolBase:
    """Cache, in-batch dedupe, statistics and ordering; subclasses run unique items."""

    def __init__(self, verifier: Any, workers: int, timeout_s: float, cache_size: int = 65536) -> None:
        if workers < 0:
            raise ValueError(f"workers must be >= 0, got {workers}")
        if timeout_s <= 0:
            raise ValueError(f"timeout_s must be > 0, got {timeout_s}")
        self.verifier = as_verifier(verifier)
        self.workers = workers
        self.timeout_s = float(timeout_s)
        self._cache = _Cache(cache_size)
        self._counts: Counter = Counter()

    # subclasses: list of (completion, sample) -> list of (verdict, elapsed)
    def _run_unique(self, items: list[tuple[str, Sample]]) -> list[tuple[Verdict, float]]:
        raise NotImplementedError

    def map(self, completions: Sequence[str], samples: Sequence[Sample]) -> list[Verdict]:
        """Verdicts for ``completions[i]`` against ``samples[i]``, in input order."""
        return self.map_timed(completions, samples)[0]

    def map_timed(self, completions: Sequence[str], samples: Sequence[Sample]) -> tuple[list[Verdict], list[float]]:
        """Like ``map`` and also the seconds each item took (0.0 for cache hits)."""
        if len(completions) != len(samples):
            raise ValueError(f"{len(completions)} completions but {len(samples)} samples")
        results: list[Verdict | None] = [None] * len(completions)
        latency = [0.0] * len(completions)
        pending: dict[str, list[int]] = {}
        order: list[str] = []
        for i, (completion, sample) in enumerate(zip(completions, samples)):
            key = self._key(completion, sample, i)
            hit = self._cache.get(key)
            if hit is not None:
                results[i] = hit
                self._counts["cache_hits"] += 1
            elif key in pending:
                pending[key].append(i)
                self._counts["cache_hits"] += 1
            else:
                pending[key] = [i]
                order.append(key)
        firsts = [pending[k][0] for k in order]
        computed = self._run_unique([(completions[i], samples[i]) for i in firsts]) if firsts else []
        for key, (verdict, elapsed) in zip(order, computed):
            self._cache.put(key, verdict)
            for i in pending[key]:
                results[i], latency[i] = verdict, elapsed
        self._counts["computed"] += len(firsts)
        self._counts["calls"] += len(completions)
        for verdict in results:
            self._counts[verdict.status] += 1  # type: ignore[union-attr]
        return results, latency  # type: ignore[return-value]

    def _key(self, completion: str, sample: Sample, index: int) -> str:
        try:
            return self.verifier.key(completion, sample)
        except Exception as exc:  # an unresolvable spec: let the worker report the error
            return f"uncacheable:{index}:{id(completion)}:{type(exc).__name__}"

    def stats(self) -> dict[str, int]:
        """Counts per status over all returned results, plus cache_hits, restarts,
        computed (items actually verified) and calls (items asked for)."""
        out = {status: int(self._counts[status]) for status in STATUSES}
        for name in ("cache_hits", "restarts", "computed", "calls"):
            out[name] = int(self._counts[name])
        return out

    def close(self) -> None:
        return None

    def __enter__(self) -> PoolBase:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _parent_path() -> list[str]:
    """This process's import path with "" made absolute: a worker imports what the parent
    can (a reward module beside the script or in the working directory)."""
    return [os.path.abspath(entry or os.curdir) for entry in sys.path]


def _needs_main(verifier: Any) -> bool:
    """Whether the verifier names a function of the script being run (``__main__``)."""
    fn = getattr(verifier, "fn", None)
    return getattr(fn, "__module__", None) == "__main__" or "'__main__:" in repr(verifier)


@contextlib.contextmanager
def _main_script_hidden(hide: bool) -> Iterator[None]:
    """Start a worker without re-running the user's script in it. A spawned or forkserver
    child imports the parent's ``__main__`` file first, so a script without an
    ``if __name__ == "__main__":`` guard (the README's) would start a run in every worker.
    The verifier never needs it (``__main__`` rewards with workers are refused by the config)."""
    main = sys.modules.get("__main__")
    if not hide or main is None:
        yield
        return
    sys.modules["__main__"] = types.ModuleType("__main__")  # no __file__, no __spec__: nothing to re-run
    try:
        yield
    finally:
        sys.modules["__main__"] = main


def _default_context() -> str:
    return "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"


def _kill(process: Any) -> None:
    if process.is_alive():
        process.kill()
    process.join(timeout=5)


class VerifierPool(PoolBase):
    """Process pool with per-item timeouts, restarts and caching (see module docstring)."""

    def __init__(self, verifier: Any, workers: int = 2, timeout_s: float = 3.0, *, cache_size: int = 65536,
                 chunk_size: int | None = None, context: str | None = None) -> None:
        super().__init__(verifier, workers, timeout_s, cache_size)
        self.chunk_size = chunk_size
        self._ctx = mp.get_context(context or _default_context())
        if workers and self._ctx.get_start_method() == "forkserver":
            self._ctx.set_forkserver_preload(_modules_of(self.verifier))
        self._pool: list[_Worker] = []
        self._finalizer = weakref.finalize(self, _shutdown, self._pool)
        for _ in range(workers):
            self._pool.append(self._start())

    # ----------------------------------------------------------- worker handling
    def _start(self) -> _Worker:
        parent, child = self._ctx.Pipe(duplex=True)
        process = self._ctx.Process(target=_worker_main, args=(child, self.verifier, _parent_path()), daemon=True)
        with _main_script_hidden(not _needs_main(self.verifier)):
            process.start()
        child.close()
        return _Worker(process, parent)

    def _replace(self, worker: _Worker) -> _Worker:
        _kill(worker.process)
        worker.conn.close()
        self._counts["restarts"] += 1
        fresh = self._start()
        self._pool[self._pool.index(worker)] = fresh
        return fresh

    def _chunks(self, n: int) -> deque:
        size = self.chunk_size or max(1, min(32, -(-n // (4 * max(1, self.workers)))))
        indices = list(range(n))
        return deque(deque(indices[i: i + size]) for i in range(0, n, size))

    # ----------------------------------------------------------------- running
    def _run_unique(self, items: list[tuple[str, Sample]]) -> list[tuple[Verdict, float]]:
        if self.workers == 0:
            return [run_one(self.verifier, c, s) for c, s in items]
        if not self._finalizer.alive:
            raise RuntimeError("this VerifierPool is closed")
        out: list[tuple[Verdict, float] | None] = [None] * len(items)
        queue = self._chunks(len(items))
        while queue or any(w.chunk for w in self._pool):
            for worker in self._pool:
                if worker.ready and not worker.chunk and queue:
                    self._send(worker, queue.popleft(), items)
            self._wait_and_collect(items, out, queue)
        return out  # type: ignore[return-value]

    def _send(self, worker: _Worker, chunk: deque, items: list[tuple[str, Sample]]) -> None:
        worker.chunk = chunk
        worker.deadline = time.monotonic() + self.timeout_s
        worker.conn.send([(i, items[i][0], items[i][1]) for i in chunk])

    def _wait_and_collect(self, items: list, out: list, queue: deque) -> None:
        deadlines = [w.deadline for w in self._pool if w.chunk]
        deadlines += [w.started + STARTUP_LIMIT_S for w in self._pool if not w.ready]
        handles = [w.conn for w in self._pool] + [w.process.sentinel for w in self._pool]
        wait(handles, timeout=max(0.0, min(deadlines) - time.monotonic()) if deadlines else None)
        for worker in list(self._pool):
            alive = self._drain(worker, out)
            if not alive:
                self._on_death(worker, out, queue)
            elif worker.chunk and time.monotonic() > worker.deadline:
                self._on_timeout(worker, out, queue)
            elif not worker.ready and time.monotonic() > worker.started + STARTUP_LIMIT_S:
                raise RuntimeError(f"a verifier worker did not start within {STARTUP_LIMIT_S:.0f} s")

    def _drain(self, worker: _Worker, out: list) -> bool:
        """Read every message waiting from a worker; False when its process is gone."""
        try:
            while worker.conn.poll():
                message = worker.conn.recv()
                if message[0] == "ready":
                    worker.ready = True
                    continue
                index, verdict, elapsed = message
                out[index] = (verdict, elapsed)
                worker.chunk.popleft()
                worker.deadline = time.monotonic() + self.timeout_s
        except (EOFError, OSError):
            return False
        return worker.process.is_alive()

    def _on_timeout(self, worker: _Worker, out: list, queue: deque) -> None:
        index = worker.chunk.popleft()
        out[index] = (Verdict(0.0, "timeout", f"verifier exceeded {self.timeout_s:g} s (worker killed)"),
                      self.timeout_s)
        if worker.chunk:
            queue.appendleft(worker.chunk)
        self._replace(worker)

    def _on_death(self, worker: _Worker, out: list, queue: deque) -> None:
        worker.process.join(timeout=5)
        code = worker.process.exitcode
        if not worker.ready:
            self._counts["start_failures"] += 1
            if self._counts["start_failures"] > 3 * max(1, self.workers):
                raise RuntimeError(f"verifier workers keep dying before they start (exit code {code})")
        if worker.chunk:
            index = worker.chunk.popleft()
            out[index] = (Verdict(0.0, "error", f"verifier worker died (exit code {code}) while verifying this item"),
                          0.0)
            if worker.chunk:
                queue.appendleft(worker.chunk)
        self._replace(worker)

    def close(self) -> None:
        """Stop the workers (politely, then by force)."""
        self._finalizer()


def _shutdown(pool: list[_Worker]) -> None:
    for worker in pool:
        try:
            worker.conn.send(None)
        except (OSError, ValueError):
            pass
    for worker in pool:
        worker.process.join(timeout=2)
        _kill(worker.process)
        worker.conn.close()
    pool.clear()


# Verifiers that enforce a limit of their own (a sandbox's wall time): the pool's backstop
# must not fire first, or a slow but honest run is reported as a pool timeout.
_OWN_LIMITS = {"code": ("rlvr.verifiers.code", "own_timeout_s"), "proof": ("rlvr.verifiers.proof", "own_timeout_s")}


def own_time_limit(specs) -> float:
    """The longest one verification takes by the verifiers' own limits (0 when none has one):
    the floor for a pool's per-item timeout."""
    import importlib

    from rlvr.verifiers.composite import as_verifier

    limits = [0.0]
    for spec in specs:
        if spec is None:
            continue
        verifier = as_verifier(spec)
        if hasattr(verifier, "name") and hasattr(verifier, "options"):
            parts = [(verifier.name, dict(verifier.options))]
        else:
            parts = [(name, {}) for name, _ in getattr(verifier, "parts", ())]
        for name, options in parts:
            if name in _OWN_LIMITS:
                module, function = _OWN_LIMITS[name]
                limits.append(float(getattr(importlib.import_module(module), function)(options)))
    return max(limits)
