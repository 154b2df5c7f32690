"""Throughput of the sandboxed code verifier: programs verified per second with a pool of workers.

Each item is a distinct small program (a function plus a few literal and non-literal asserts,
visible and hidden), verified from scratch: one bubblewrap start, one Python start-up, the
candidate process and the judge per item, all of its tests inside that one start. The pool is
``rlvr.verifiers.pool.VerifierPool`` (cache off, so nothing is served twice); ``--plain-pool``
uses a bare ``concurrent.futures.ProcessPoolExecutor`` instead, to separate the verifier's
cost from the pool's. Half the items are wrong answers, so both outcomes are timed. The
report has the load average before and after (the machine may be shared) and the CPU seconds
the pool's workers and their sandboxes used per program (measured from /proc, warm-up
excluded), which depends far less on how busy the machine is than the wall time does.

``--slow-test`` instead times ``assert count(3_000_000) == sum(i % 7 for i in range(3_000_000))``
through the verifier against the same program and test run by plain ``python3 -c``.

Usage: ``python bench/verify_code.py [--items 200] [--workers 2] [--plain-pool | --slow-test]``.
Not run in CI (it is a measurement, not a test); it refuses when the sandbox is unavailable.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from rlvr import sandbox
from rlvr.types import Sample
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
        cpu_before = sum(_process_cpu_s(w.process.pid) for w in pool._pool)
        start = time.perf_counter()
        verdicts, latency = pool.map_timed(completions, samples)
        wall = time.perf_counter() - start
        cpu = sum(_process_cpu_s(w.process.pid) for w in pool._pool) - cpu_before
    return [(v.status, v.reward) for v in verdicts], wall, latency, cpu


def run_plain(completions, samples, workers: int):
    with ProcessPoolExecutor(workers) as ex:
        list(ex.map(_one, list(zip(completions, samples))[:workers]))
        start = time.perf_counter()
        results = list(ex.map(_one, list(zip(completions, samples)), chunksize=4))
        wall = time.perf_counter() - start
    return results, wall, [], None


def _process_cpu_s(pid: int) -> float:
    """CPU seconds of a process and of its reaped descendants (its sandboxes), from /proc."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _loadavg() -> list[float]:
    with open("/proc/loadavg") as fh:
        return [float(x) for x in fh.read().split()[:3]]


def slow_test(repeats: int = 3) -> int:
    """The 3M-iteration test through the verifier vs plain ``python3 -c`` (same program and test)."""
    program = "def count(n):\n    return sum(i % 7 for i in range(n))"
    test = "assert count(3_000_000) == sum(i % 7 for i in range(3_000_000))"
    sample = Sample("slow", "p", fields={"tests": test})
    verify_code("```python\npass\n```", Sample("warm", "p", fields={"tests": "assert True"}))  # runtime compiled
    rows = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(["/usr/bin/python3", "-c", program + "\n" + test], check=True)
        plain = time.perf_counter() - start
        start = time.perf_counter()
        verdict = verify_code(f"```python\n{program}\n```", sample)
        verified = time.perf_counter() - start
        rows.append({"plain_s": round(plain, 3), "verify_s": round(verified, 3), "ratio": round(verified / plain, 2),
                     "status": verdict.status})
    print(json.dumps({"test": test, "runs": rows, "loadavg": _loadavg()}))
    return 0 if all(r["status"] == "ok" for r in rows) else 1


CALL_FORMS = {  # how a test calls the candidate n times
    "loop": "total = 0\nfor i in range({n}):\n    total += inc(i)\nassert total == sum(range(1, {n} + 1))",
    "comprehension": "assert sum(inc(i) for i in range({n})) == sum(range(1, {n} + 1))",
}


def call_cost(counts: tuple[int, ...] = (0, 20_000, 100_000), repeats: int = 3) -> int:
    """The cost of one call into the candidate, for each test form of ``CALL_FORMS`` (a call per
    round trip in a ``for`` loop; a comprehension consumed whole, which the judge batches):
    the test verified for several n (the slope of the best time per n), beside the same test in
    plain ``python3 -c``."""
    program = "def inc(x):\n    return x + 1"
    verify_code("```python\npass\n```", Sample("warm", "p", fields={"tests": "assert True"}))
    out: dict[str, object] = {}
    for form, template in CALL_FORMS.items():
        best: dict[int, float] = {}
        plain: dict[int, float] = {}
        for _ in range(repeats):
            for n in counts:  # alternating, so that the machine's speed changes hit every n alike
                test = template.format(n=n)
                start = time.perf_counter()
                verdict = verify_code(f"```python\n{program}\n```", Sample("calls", "p", fields={"tests": test}),
                                      timeout_s=60.0)  # fmt: skip
                took = time.perf_counter() - start
                if verdict.status != "ok":
                    print(json.dumps({"form": form, "n": n, "status": verdict.status, "detail": verdict.detail}))
                    return 1
                best[n] = min(best.get(n, took), took)
                start = time.perf_counter()
                subprocess.run(["/usr/bin/python3", "-c", program + "\n" + test], check=True)
                plain[n] = min(plain.get(n, 1e9), time.perf_counter() - start)
        lo, hi = min(counts), max(counts)
        out[form] = {"best_verify_s": best, "best_plain_s": plain,
                     "us_per_call": round((best[hi] - best[lo]) / (hi - lo) * 1e6, 2),
                     "us_per_call_plain": round((plain[hi] - plain[lo]) / (hi - lo) * 1e6, 3)}
    out["loadavg"] = _loadavg()
    print(json.dumps(out))
    return 0


# The prototype of the other boundary: tests and candidate in one interpreter, with an audit
# hook refusing every frame, gc, tracing, ctypes and /proc route it is told about.
ONE_INTERPRETER_PROBE = r'''
import sys
import types, enum, signal, collections, functools, re  # the stdlib needs frames at import: loaded first
FRAME_ATTRS = {"gi_frame", "tb_frame", "cr_frame", "ag_frame", "f_back", "f_globals", "f_locals"}
BLOCK = {"sys._getframe", "sys._current_frames", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
         "sys.settrace", "sys.setprofile", "ctypes.dlopen", "ctypes.addressof", "ctypes.string_at"}
def hook(event, args):
    if (event in BLOCK or (event == "object.__getattr__" and args[1] in FRAME_ATTRS)
            or (event == "import" and args[0] in ("ctypes", "_ctypes", "gc"))
            or (event == "open" and "/proc" in str(args[0]))):
        raise RuntimeError("refused: " + event)
sys.addaudithook(hook)
ROUTES = {
 "signal handler frame": """
import signal
def secret(x):
    box = []
    signal.signal(signal.SIGUSR1, lambda n, frame: box.append(frame))
    signal.raise_signal(signal.SIGUSR1)
    code = box[0].f_back.f_code
    return next(c for c in code.co_consts if isinstance(c, str) and c.startswith("zq-"))
""",
 "the tests' module in sys.modules": """
import sys
def secret(x):
    check = vars(sys.modules["__main__"])["check"]
    return next(c for c in check.__code__.co_consts if isinstance(c, str) and c.startswith("zq-"))
""",
}
TESTS = {"signal handler frame": "assert secret(1) == 'zq-51c9e7-hidden'",
         "the tests' module in sys.modules": "def check(f):\n    assert f(1) == 'zq-51c9e7-hidden'\ncheck(secret)"}
for name, cand in ROUTES.items():
    main = type(sys)("__main__"); sys.modules["__main__"] = main
    ns = main.__dict__
    exec(cand, ns)
    try:
        exec(TESTS[name], ns)
        print(f"{name}: the hidden expected value was read, the test passed")
    except BaseException as exc:
        print(f"{name}: refused ({type(exc).__name__}: {exc})")
'''


def one_interpreter(n: int = 600_000) -> int:
    """The prototype of tests and candidate in one sandboxed interpreter: the time of ``n`` cheap
    calls there (beside the verifier on a tenth of them), and whether a candidate still reads a
    hidden expected value under an audit hook that refuses the routes it knows of."""
    program = "def inc(x):\n    return x + 1"
    test = f"assert sum(inc(i) for i in range({n})) == sum(range(1, {n} + 1))"
    limits = sandbox.Limits(wall_s=60.0)
    start = time.perf_counter()
    res = sandbox.run(["/usr/bin/python3", "-I", "-S", "-c", program + "\n" + test], limits=limits)
    one = time.perf_counter() - start
    small = f"assert sum(inc(i) for i in range({n // 10})) == sum(range(1, {n // 10} + 1))"
    start = time.perf_counter()
    verdict = verify_code(f"```python\n{program}\n```", Sample("calls", "p", fields={"tests": small}), timeout_s=60.0)
    split = time.perf_counter() - start
    leak = sandbox.run(["/usr/bin/python3", "-I", "-S", "-c", ONE_INTERPRETER_PROBE], limits=limits)
    print(json.dumps({"calls": n, "one_interpreter_s": round(one, 3), "one_interpreter_rc": res.returncode,
                      "split_s_for_a_tenth": round(split, 3), "split_status": verdict.status,
                      "probe": leak.stdout.decode(errors="replace").strip().splitlines(),
                      "loadavg": _loadavg()}))  # fmt: skip
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--plain-pool", action="store_true", help="concurrent.futures instead of VerifierPool")
    parser.add_argument("--slow-test", action="store_true", help="time the 3M-iteration test vs plain python3 -c")
    parser.add_argument("--call-cost", action="store_true", help="the cost of one call into the candidate")
    parser.add_argument("--one-interpreter", action="store_true",
                        help="prototype: tests and candidate in one sandboxed interpreter (calls, secrecy)")
    args = parser.parse_args()
    reason = sandbox.probe()
    if reason is not None:
        print(f"sandbox unavailable: {reason}", file=sys.stderr)
        return 2
    if args.slow_test:
        return slow_test()
    if args.call_cost:
        return call_cost()
    if args.one_interpreter:
        return one_interpreter()
    completions, samples = make_items(args.items)
    runner = run_plain if args.plain_pool else run_pool
    load_before = _loadavg()
    results, wall, latency, cpu = runner(completions, samples, args.workers)
    load_after = _loadavg()
    statuses = [s for s, _ in results]
    expected = ["ok" if k % 2 == 0 else "wrong" for k in range(args.items)]
    report = {
        "pool": "concurrent.futures" if args.plain_pool else "VerifierPool",
        "workers": args.workers,
        "items": args.items,
        "wall_s": round(wall, 3),
        "programs_per_s": round(args.items / wall, 1),
        "median_item_s": round(statistics.median(latency), 4) if latency else None,
        "cpu_s_per_program": None if cpu is None else round(cpu / args.items, 4),
        "loadavg_before": load_before,
        "loadavg_after": load_after,
        "statuses_as_expected": statuses == expected,
    }
    print(json.dumps(report))
    return 0 if statuses == expected else 1


if __name__ == "__main__":
    raise SystemExit(main())
