"""Throughput of the sandboxed code verifier: programs verified per second with a pool of workers.

Each item is a distinct small program (a function plus a few literal and non-literal asserts,
visible and hidden), verified from scratch: one bubblewrap start and one Python start-up per
item, all of its tests inside that one start. The pool is ``rlvr.verifiers.pool.VerifierPool``
(cache off, so nothing is served twice); ``--plain-pool`` uses a bare
``concurrent.futures.ProcessPoolExecutor`` instead, to separate the verifier's cost from the
pool's. Half the items are wrong answers, so both outcomes are timed.

Usage: ``python bench/verify_code.py [--items 200] [--workers 2] [--plain-pool]``.
Not run in CI (it is a measurement, not a test); it refuses when the sandbox is unavailable.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from rlvr.types import Sample
from rlvr import sandbox
from rlvr.verifiers.code import verify_code


def make_items(n: int) -> tuple[list[str], list[Sample]]:
    """n distinct (completion, sample) pairs; odd items are off by one (wrong)."""
    completions, samples = [], []
    for k in range(n):
        offset = k % 2
        completions.append(f"```python\ndef f(x):\n    return x * {k + 2} + {offset}\n```")
        tests = f"assert f(1) == {k + 2}\nassert f(0) == 0\nassert f(3) > f(2)"
        hidden = [f"assert f(10) == {10 * (k + 2)}", f"assert f(-1) == {-(k + 2)}"]
        samples.append(Sample(f"b{k}", "p", fields={"tests": tests, "hidden_tests": hidden}))
    return completions, samples


def _one(item: tuple[str, Sample]) -> tuple[str, float]:
    verdict = verify_code(*item)
    return verdict.status, verdict.reward


def run_pool(completions, samples, workers: int):
    from rlvr.verifiers.pool import VerifierPool

    with VerifierPool("code", workers=workers, timeout_s=30.0, cache_size=0) as pool:
        pool.map(completions[:workers], samples[:workers])  # warm the workers (probe, imports)
        start = time.perf_counter()
        verdicts, latency = pool.map_timed(completions, samples)
        wall = time.perf_counter() - start
    return [(v.status, v.reward) for v in verdicts], wall, latency


def run_plain(completions, samples, workers: int):
    with ProcessPoolExecutor(workers) as ex:
        list(ex.map(_one, list(zip(completions, samples))[:workers]))
        start = time.perf_counter()
        results = list(ex.map(_one, list(zip(completions, samples)), chunksize=4))
        wall = time.perf_counter() - start
    return results, wall, []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--plain-pool", action="store_true", help="concurrent.futures instead of VerifierPool")
    args = parser.parse_args()
    reason = sandbox.probe()
    if reason is not None:
        print(f"sandbox unavailable: {reason}", file=sys.stderr)
        return 2
    completions, samples = make_items(args.items)
    runner = run_plain if args.plain_pool else run_pool
    results, wall, latency = runner(completions, samples, args.workers)
    statuses = [s for s, _ in results]
    expected = ["ok" if k % 2 == 0 else "wrong" for k in range(args.items)]
    report = {
        "pool": "concurrent.futures" if args.plain_pool else "VerifierPool",
        "workers": args.workers,
        "items": args.items,
        "wall_s": round(wall, 3),
        "programs_per_s": round(args.items / wall, 1),
        "median_item_s": round(statistics.median(latency), 4) if latency else None,
        "statuses_as_expected": statuses == expected,
    }
    print(json.dumps(report))
    return 0 if statuses == expected else 1


if __name__ == "__main__":
    raise SystemExit(main())
