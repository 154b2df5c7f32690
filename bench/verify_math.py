"""Throughput of `rlvr verify` with the math verifier, process start included.

Generates a realistic mix of DISTINCT (reference, completion) pairs: 40% integers, 15%
fractions, 15% decimals, 30% LaTeX expressions (roots, polynomials, intervals, pi; half
of the right ones in another form than the reference, which the verifier must prove equal:
since the answer grammar, by exact evaluation at probe points rather than sympy), in three
completion styles (``<answer>`` tag, final ``\\boxed{}``, GSM8K ``####``), 30% wrong (a nearby
value of the same kind), every reference distinct,
pipes them through ``rlvr verify --workers 2`` as a subprocess and prints pairs/second,
the CPU-seconds the run used and the load average (the machine may be shared).
Every pair is distinct, so the cache cannot help.

    .venv/bin/python bench/verify_math.py [--pairs 6000] [--workers 2] [--seed 0] [--cpu]

Not part of the test suite. Target on 2 cores: >= 600 distinct pairs/s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

FILLER = ("First compute the parts carefully. ", "Check each step again. ", "Simplify the expression. ",
          "Combine like terms and reduce. ")


def _integer(i: int, rng: random.Random) -> tuple[str, str, str]:
    value = rng.randint(-10**6, 10**6) * 1000 + i % 1000
    wrong = value + rng.choice([-10, -1, 1, 2, 100])
    fmt = (lambda v: f"{v:,}") if rng.random() < 0.3 else str
    return str(value), fmt(value), fmt(wrong)


def _fraction(i: int, rng: random.Random) -> tuple[str, str, str]:
    f = Fraction(rng.randint(1, 500) + i, rng.randint(2, 97))
    wrong = f + Fraction(1, rng.randint(2, 9))
    k = rng.randint(1, 3)
    style = rng.randrange(3)

    def show(x: Fraction) -> str:
        if style == 0:
            return f"\\frac{{{x.numerator * k}}}{{{x.denominator * k}}}"
        return f"{x.numerator}/{x.denominator}" if style == 1 else f"\\dfrac{{{x.numerator}}}{{{x.denominator}}}"

    return f"\\frac{{{f.numerator}}}{{{f.denominator}}}", show(f), show(wrong)


def _decimal(i: int, rng: random.Random) -> tuple[str, str, str]:
    value = Fraction(i * 4 + rng.randint(1, 3), 4)
    wrong = value + Fraction(rng.choice([-1, 1, 3]), 4)
    style = rng.randrange(3)

    def show(x: Fraction) -> str:
        return [f"{float(x)}", f"{float(x):.3f}", f"{x.numerator}/{x.denominator}"][style]

    return f"{float(value)}", show(value), show(wrong)


def _latex(i: int, rng: random.Random) -> tuple[str, str, str]:
    """(reference, an equivalent form, a wrong form); half the equivalent forms are the
    reference written again, as models often do."""
    a, b = i % 97 + 2, i // 97 + 1
    kind = rng.randrange(5)
    if kind == 0:
        ref, alt, bad = f"{a}\\sqrt{{{b + 1}}}", f"\\sqrt{{{a * a * (b + 1)}}}", f"{a + 1}\\sqrt{{{b + 1}}}"
    elif kind == 1:
        ref, alt, bad = f"x^2 + {2 * a}x + {a * a}", f"(x+{a})^2", f"(x+{a + 1})^2"
    elif kind == 2:
        ref, alt, bad = f"({a}, {a + b}]", f"({a},{a + b}]", f"[{a}, {a + b}]"
    elif kind == 3:
        ref, alt = f"\\frac{{{a}\\pi}}{{{b + 1}}}", f"\\frac{{{a}}}{{{b + 1}}}\\pi"
        bad = f"\\frac{{{a}\\pi}}{{{b + 2}}}"
    else:
        ref, alt, bad = f"{a}x - {b}", f"-{b} + {a}x", f"{a}x + {b}"
    return ref, (ref if rng.random() < 0.5 else alt), bad


def _completion(shown: str, rng: random.Random) -> str:
    reasoning = "".join(rng.choice(FILLER) for _ in range(rng.randint(2, 6)))
    style = rng.randrange(3)
    if style == 0:
        return f"<think>{reasoning}</think><answer>{shown}</answer>"
    if style == 1:
        return f"{reasoning}Therefore the answer is $\\boxed{{{shown}}}$."
    return f"{reasoning}\n#### {shown}"


def make_pairs(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    makers = [(_integer, 0.4), (_fraction, 0.15), (_decimal, 0.15), (_latex, 0.3)]
    rows: list[dict] = []
    seen: set[tuple[str, str]] = set()
    i = 0
    while len(rows) < n:
        maker = rng.choices([m for m, _ in makers], weights=[w for _, w in makers])[0]
        answer, right, wrong = maker(i, rng)
        i += 1
        shown = wrong if rng.random() < 0.3 else right
        completion = _completion(shown, rng)
        if (answer, completion) in seen:
            continue
        seen.add((answer, completion))
        rows.append({"id": len(rows), "verifier": "math", "answer": answer, "completion": completion})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=6000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cpu", action="store_true",
                        help="also run the same pairs with --workers 0 and report the CPU-seconds they take in "
                             "one process, start-up and imports included (a figure other jobs on the machine do "
                             "not change)")
    args = parser.parse_args()
    rows = make_pairs(args.pairs, args.seed)
    payload = "".join(json.dumps(r) + "\n" for r in rows).encode()
    load_before = os.getloadavg()[0]
    rlvr = Path(sys.executable).with_name("rlvr")
    command = [str(rlvr)] if rlvr.exists() else [sys.executable, "-m", "rlvr.cli"]
    usage_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command + ["verify", "--workers", str(args.workers)], input=payload,
                          capture_output=True, check=True)
    elapsed = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (usage.ru_utime - usage_before.ru_utime) + (usage.ru_stime - usage_before.ru_stime)
    results = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(results) == len(rows) and [r["id"] for r in results] == [r["id"] for r in rows]
    statuses = Counter(r["status"] for r in results)
    print(f"{len(rows)} distinct pairs in {elapsed:.2f} s (process start included): "
          f"{len(rows) / elapsed:.0f} pairs/s with {args.workers} workers")
    print(f"statuses: {dict(statuses)}")
    print(f"CPU time of the rlvr verify parent process: {cpu:.2f} s (workers run under the forkserver "
          f"and are not counted; see --cpu)")
    if args.cpu:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command + ["verify", "--workers", "0"], input=payload, capture_output=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        total = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print(f"--workers 0: {total:.2f} CPU-seconds for {len(rows)} pairs, start-up included: "
              f"{len(rows) / total:.0f} pairs per CPU-second")
    print(f"1-minute load average before/after: {load_before:.1f}/{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs "
          f"(other work on the machine lowers the figure)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
