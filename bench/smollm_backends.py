"""The ``smollm`` preset through each rollout backend, alternating step by step in one run.

For every seed, two training processes run the same config except ``rollout.backend`` (``hf``,
the project's sampler, and ``vllm``, the real engine). They take turns: only one computes at a
time, and each hands the CPU to the other after every logged row (the base evaluation, each
training step, each evaluation). A change in the machine's load during the run therefore falls
on both backends alike, and the step-time ratio is measured side by side, not across runs made
at different times. Which backend starts alternates with the seed.

    .venv/bin/python bench/smollm_backends.py [--seeds 0 1 2] [--backends hf vllm] \\
        [--out bench/out/smollm_backends.json] [--runs /tmp/smollm-backends] [key=value overrides...]

Per seed and backend it records: held-out pass@1 (base, every evaluation, final), mean step
time and generation tokens/s over steps 2.. (step 1 carries one-off warm-up), generate / train
seconds per step, the time to set up (model load, engine start, first push), the base
evaluation's time (200 distinct prompts: the evaluation workload), and for vLLM the push time
and the probe's log-probability gap after every push. Then the ratio hf/vllm per seed.

Not part of the test suite: about 30 minutes a seed on a 2-core CPU. Needs vLLM (``bash
scripts/setup.sh vllm``) and SmolLM2 (``rlvr model fetch smollm2``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
POLL_S = 0.05


# ------------------------------------------------------------------ turns between two processes
class Turns:
    """A baton in a directory: the file ``turn`` names who computes; ``done-<name>`` marks an
    end (the other then never waits for it again)."""

    def __init__(self, folder: Path, me: str, other: str):
        self.folder, self.me, self.other = folder, me, other
        self.waited_s = 0.0

    def _write(self, name: str) -> None:
        tmp = self.folder / f"turn.{self.me}.tmp"
        tmp.write_text(name)
        os.replace(tmp, self.folder / "turn")

    def wait(self) -> None:
        t0 = time.perf_counter()
        while True:
            if (self.folder / f"done-{self.other}").exists():
                break
            try:
                if (self.folder / "turn").read_text() == self.me:
                    break
            except FileNotFoundError:
                pass
            time.sleep(POLL_S)
        self.waited_s += time.perf_counter() - t0

    def hand_over(self) -> None:
        self._write(self.other)
        self.wait()

    def finish(self) -> None:
        (self.folder / f"done-{self.me}").write_text("")
        self._write(self.other)


def worker(args) -> None:
    from rlvr.config import load_config
    from rlvr.train.loop import train

    turns = Turns(Path(args.turns), args.backend, args.other)
    cfg = load_config(preset="smollm", overrides=[
        f"rollout.backend={args.backend}", f"seed={args.seed}", f"output={args.run_dir}",
        "log.progress=false", *args.overrides])
    marks: dict = {}

    def on_row(row: dict) -> None:
        marks.setdefault("first_row", time.perf_counter())
        turns.hand_over()

    turns.wait()
    t0 = time.perf_counter()
    try:
        summary = train(cfg, overwrite=True, callbacks=[on_row])
    finally:
        turns.finish()
    record = {"call_to_first_row_s": marks["first_row"] - t0, "waited_s": turns.waited_s,
              "peak_rss_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20,
              "summary": summary if isinstance(summary, dict) else None}
    (Path(args.run_dir) / "bench_worker.json").write_text(json.dumps(record, indent=1, default=str))


# ------------------------------------------------------------------ the parent
def read_run(run_dir: Path) -> dict:
    rows = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines() if line.strip()]
    train_rows = [r for r in rows if r.get("kind") == "train"]
    evals = {r["step"]: r["pass@1"] for r in rows if r.get("kind") == "eval"}
    later = train_rows[1:] or train_rows
    summary = json.loads((run_dir / "summary.json").read_text())
    extra = json.loads((run_dir / "bench_worker.json").read_text())
    out = {
        "pass@1": evals,
        "final_pass@1": summary["final"]["pass@1"],
        "steps": len(train_rows),
        "step_s_mean": statistics.mean(r["time/step"] for r in later),
        "generate_s_mean": statistics.mean(r["time/generate"] for r in later),
        "train_s_mean": statistics.mean(r["time/train"] for r in later),
        "gen_tokens_per_s_mean": statistics.mean(r["tokens_per_s"] for r in later),
        "base_eval_s": summary["phases"]["base_eval_s"],
        "final_eval_s": summary["phases"]["final_eval_s"],
        "setup_s": extra["call_to_first_row_s"] - summary["phases"]["base_eval_s"],
        "peak_rss_gb": extra["peak_rss_gb"],
    }
    pushes = [r for r in train_rows if "vllm/push_s" in r]
    if pushes:
        out.update({
            "push_s_mean": statistics.mean(r["vllm/push_s"] for r in pushes),
            "push_s_max": max(r["vllm/push_s"] for r in pushes),
            "logp_gap_max_over_pushes": max(r["vllm/logp_gap_max"] for r in pushes),
            "logp_gap_min_over_pushes": min(r["vllm/logp_gap_max"] for r in pushes),
            "pushes": len(pushes),
            "gap_alarms": sum(r.get("vllm/gap_alarms", 0) for r in pushes),
        })
    return out


def run_seed(args, seed: int) -> dict:
    first, second = args.backends if seed % 2 == 0 else args.backends[::-1]
    turns = Path(args.runs) / f"turns-s{seed}"
    turns.mkdir(parents=True, exist_ok=True)
    for f in turns.iterdir():
        f.unlink()
    (turns / "turn").write_text(first)
    procs = {}
    for me, other in ((first, second), (second, first)):
        run_dir = Path(args.runs) / f"{me}-s{seed}"
        cmd = [sys.executable, __file__, "--worker", me, "--other", other, "--seed", str(seed),
               "--turns", str(turns), "--run-dir", str(run_dir), *args.overrides]
        log = open(Path(args.runs) / f"{me}-s{seed}.log", "w")
        procs[me] = (subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT), log, run_dir)
    t0 = time.time()
    codes = {}
    for me, (proc, log, _) in procs.items():
        codes[me] = proc.wait()
        log.close()
    if any(codes.values()):
        raise SystemExit(f"seed {seed}: a worker failed {codes}; see {args.runs}/<backend>-s{seed}.log")
    result = {"seed": seed, "started_first": first, "wall_s": time.time() - t0,
              "backends": {me: read_run(run_dir) for me, (_, _, run_dir) in procs.items()}}
    a, b = args.backends
    ra, rb = result["backends"][a], result["backends"][b]
    result[f"step_s_ratio_{a}_over_{b}"] = ra["step_s_mean"] / rb["step_s_mean"]
    result[f"gen_tokens_per_s_ratio_{b}_over_{a}"] = rb["gen_tokens_per_s_mean"] / ra["gen_tokens_per_s_mean"]
    result[f"base_eval_s_ratio_{a}_over_{b}"] = ra["base_eval_s"] / rb["base_eval_s"]
    return result


def machine() -> dict:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "python": sys.version.split()[0]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    p.add_argument("--backends", nargs=2, default=["hf", "vllm"])
    p.add_argument("--out", default=str(REPO / "bench" / "out" / "smollm_backends.json"))
    p.add_argument("--runs", default="/tmp/smollm-backends", help="folder for the run directories and logs")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    p.add_argument("--other", help=argparse.SUPPRESS)
    p.add_argument("--seed", type=int, help=argparse.SUPPRESS)
    p.add_argument("--turns", help=argparse.SUPPRESS)
    p.add_argument("--run-dir", help=argparse.SUPPRESS)
    p.add_argument("overrides", nargs="*", help="extra config overrides for both backends")
    args = p.parse_args()
    if args.worker:
        args.backend = args.worker
        return worker(args)
    Path(args.runs).mkdir(parents=True, exist_ok=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    record = {"machine": machine(), "overrides": args.overrides, "load_before": os.getloadavg(), "seeds": []}
    for seed in args.seeds:
        t0 = time.time()
        print(f"seed {seed}: {args.backends[0]} and {args.backends[1]} taking turns ...", flush=True)
        record["seeds"].append(run_seed(args, seed))
        record["load_after"] = os.getloadavg()
        Path(args.out).write_text(json.dumps(record, indent=1))  # kept after every seed
        s = record["seeds"][-1]
        print(json.dumps({k: v for k, v in s.items() if k != "backends"}), f"({time.time() - t0:.0f} s)", flush=True)
        for name, r in s["backends"].items():
            print(f"  {name}: pass@1 {r['pass@1']}  step {r['step_s_mean']:.1f} s  "
                  f"gen {r['gen_tokens_per_s_mean']:.0f} tok/s  base eval {r['base_eval_s']:.0f} s", flush=True)
    print(f"written {args.out}")


if __name__ == "__main__":
    main()
