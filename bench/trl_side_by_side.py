"""rlvr and TRL's GRPOTrainer side by side on identical work; figures are ratios from one run.

Two parts, both driven from the project's .venv, each side in its own subprocess (rlvr
through its CLI from .venv, TRL from bench/.venv-trl, see bench/setup_trl_env.sh), so a
process's peak RSS (``os.wait4``) is its own:

``speed``  The same ~4 M-parameter Qwen2 (character tokenizer, fp32, random init, built
           here), the same prompts in the same order (the demo task's training stream),
           8 prompts x 8 completions, at most 8 new tokens, beta 0.04 (k3 KL in the loss),
           lr 1e-4, N threads. Rounds alternate rlvr, TRL, rlvr, TRL, ... Reported per
           side: median step time over the steps after the first two, generation
           tokens/s, peak RSS; and the rlvr/TRL ratios of each round.

``pass``   Time to held-out greedy pass@1 >= target (default 0.9) on the demo task from the
           same base checkpoint: the demo's warm-started base (0.8 M Llama, character
           tokenizer). Both sides: the demo's recipe, read from rlvr's defaults (16 prompts
           x 8, <= 48 new tokens, temperature 1.0, lr 3e-5, beta 0.04, clip 0.2), the same
           reward (rlvr's exact
           match + 0.1 x format), evaluation on the same 200 held-out problems every
           ``--eval-every`` steps. The clock counts training steps only (evaluation
           excluded on both sides). A side stops when it reaches the target or its training
           time passes ``--budget-s``; then its best pass@1 and time are reported.

    bash bench/setup_trl_env.sh
    .venv/bin/python bench/trl_side_by_side.py speed [--rounds 2 --steps 12 --threads 2]
    .venv/bin/python bench/trl_side_by_side.py pass  [--budget-s 600 --eval-every 25 --concurrent]

Writes bench/out/side_by_side_<part>.json and prints a table. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
OUT = BENCH / "out"
MAIN_PY = REPO / ".venv" / "bin" / "python"
TRL_PY = BENCH / ".venv-trl" / "bin" / "python"
SPEED_MODEL = {"arch": "qwen2", "hidden": 256, "layers": 4, "heads": 4, "intermediate": 1024}


# ---------------------------------------------------------------- shared inputs
def build_speed_model(path: Path) -> Path:
    from rlvr.models.tiny import TinyShape, build_char_tokenizer, build_tiny_model, save_pretrained

    if not (path / "config.json").is_file():
        tok = build_char_tokenizer()
        model = build_tiny_model(tok, TinyShape(**SPEED_MODEL), seed=0)
        save_pretrained(model, tok, path)
    return path


def demo_base() -> Path:
    """The demo's warm-started base, through rlvr's own API (cached under bench/out/cache)."""
    from rlvr.config import load_config
    from rlvr.models.base import ensure_base
    from rlvr.tasks.registry import build_task

    cfg = load_config(preset="demo", overrides=[f"model.cache_dir={OUT / 'cache'}"])
    return ensure_base(cfg, build_task(cfg.task), log=lambda m: print(m, file=sys.stderr))


def write_prompts(n_train: int) -> tuple[Path, Path]:
    """The demo task's training stream (positions 0..n_train-1, the order rlvr draws them) and held-out set."""
    from rlvr.config import load_config
    from rlvr.tasks.registry import build_task

    cfg = load_config(preset="demo")
    task = build_task(cfg.task)
    t = cfg.task
    tag = (f"{t.terms_min}-{t.terms_max}x{t.digits}"
           f"{'p' if '+' in t.operators else ''}{'m' if '-' in t.operators else ''}")
    train, held = OUT / f"train_{tag}_{n_train}.jsonl", OUT / "eval.jsonl"
    if not train.is_file():
        rows = task.train_batch(0, n_train)
        train.write_text("".join(json.dumps({"prompt": s.prompt, "answer": s.answer}) + "\n" for s in rows))
    held.write_text("".join(json.dumps({"prompt": s.prompt, "answer": s.answer}) + "\n" for s in task.eval_samples))
    return train, held


# ---------------------------------------------------------------- running a side
def run_child(cmd: list[str], env: dict, log: Path, stop=None) -> dict:
    """Run cmd; ``stop()`` polled every second may end it early (SIGTERM). -> rc, wall_s, peak_rss_mb."""
    t0 = time.time()
    with open(log, "w") as fh:
        proc = subprocess.Popen(cmd, env=env, stdout=fh, stderr=subprocess.STDOUT, cwd=REPO)
        stopped = False
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if stop is not None and not stopped and stop():
                os.kill(proc.pid, signal.SIGTERM)
                stopped = True
            time.sleep(1.0)
    rc = os.waitstatus_to_exitcode(status)
    if rc != 0 and not stopped:
        raise RuntimeError(f"{cmd[0]} ... exited with {rc}; see {log}")
    return {"rc": rc, "wall_s": time.time() - t0, "peak_rss_mb": usage.ru_maxrss / 1024, "stopped_early": stopped}


def child_env(threads: int) -> dict:
    env = dict(os.environ)
    env.update({"OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads), "TOKENIZERS_PARALLELISM": "false",
                "RLVR_CACHE": str(OUT / "cache"), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_VERBOSITY": "error"})
    return env


def rlvr_rows(run_dir: Path, kind: str) -> list[dict]:
    path = run_dir / "metrics.jsonl"
    if not path.is_file():
        return []
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [r for r in rows if r.get("kind") == kind]


def rlvr_cmd(run_dir: Path, overrides: list[str]) -> list[str]:
    common = ["log.report=false", "log.progress=false", "log.sinks=[]", "log.samples_every=0",
              "train.checkpoint_every=0"]
    return [str(MAIN_PY), "-m", "rlvr.cli", "train", "--output", str(run_dir), *common, *overrides]


# ---------------------------------------------------------------- speed
def speed_rlvr(model: Path, steps: int, threads: int, tag: str) -> dict:
    run_dir = OUT / f"speed_rlvr_{tag}"
    if run_dir.exists():
        import shutil

        shutil.rmtree(run_dir)
    cmd = rlvr_cmd(run_dir, [f"model.path={model}", "rollout.prompts_per_step=8", "rollout.group_size=8",
                             "rollout.max_new_tokens=8", "algo.name=grpo", "algo.kl_coef=0.04", "train.lr=0.0001",
                             f"threads={threads}", f"train.steps={steps}", "eval.every=0", "eval.problems=8",
                             "eval.max_new_tokens=8"])
    res = run_child(cmd, child_env(threads), OUT / f"speed_rlvr_{tag}.log")
    rows = rlvr_rows(run_dir, "train")
    step_s = [r["time/step"] for r in rows]
    gen_s = sum(r["time/generate"] for r in rows[2:])
    tokens = sum(r["tokens_per_s"] * r["time/generate"] for r in rows[2:])
    return {**res, "step_s": step_s, "median_step_s": statistics.median(step_s[2:]), "gen_tok_per_s": tokens / gen_s}


def speed_trl(model: Path, prompts: Path, steps: int, threads: int, tag: str) -> dict:
    out = OUT / f"speed_trl_{tag}.json"
    cmd = [str(TRL_PY), str(BENCH / "trl_grpo.py"), "--model", str(model), "--prompts", str(prompts), "--out", str(out),
           "--steps", str(steps), "--prompts-per-step", "8", "--group", "8", "--max-new", "8", "--beta", "0.04",
           "--lr", "1e-4", "--threads", str(threads)]
    res = run_child(cmd, child_env(threads), OUT / f"speed_trl_{tag}.log")
    rec = json.loads(out.read_text())
    step_s = rec["step_s"]
    return {**res, "step_s": step_s, "median_step_s": statistics.median(step_s[2:]),
            "gen_tok_per_s": rec["gen_tokens"] / rec["gen_s"], "versions": rec["versions"]}


def part_speed(args) -> dict:
    model = build_speed_model(OUT / "qwen2-4m")
    prompts, _ = write_prompts(8 * (args.steps + 2))
    rounds, loads = [], [os.getloadavg()[0]]
    for r in range(args.rounds):
        order = ["rlvr", "trl"] if r % 2 == 0 else ["trl", "rlvr"]
        got = {}
        for side in order:
            got[side] = (speed_rlvr(model, args.steps, args.threads, str(r)) if side == "rlvr"
                         else speed_trl(model, prompts, args.steps, args.threads, str(r)))
            loads.append(os.getloadavg()[0])
            print(f"round {r} {side}: step {got[side]['median_step_s'] * 1000:.0f} ms, gen "
                  f"{got[side]['gen_tok_per_s']:.0f} tok/s, peak RSS {got[side]['peak_rss_mb']:.0f} MB", flush=True)
        got["ratios"] = {
            "step_time_rlvr_over_trl": got["rlvr"]["median_step_s"] / got["trl"]["median_step_s"],
            "gen_tok_per_s_rlvr_over_trl": got["rlvr"]["gen_tok_per_s"] / got["trl"]["gen_tok_per_s"],
            "peak_rss_rlvr_over_trl": got["rlvr"]["peak_rss_mb"] / got["trl"]["peak_rss_mb"],
        }
        rounds.append(got)
    keys = rounds[0]["ratios"].keys()
    summary = {k: statistics.median(r["ratios"][k] for r in rounds) for k in keys}
    return {"rounds": rounds, "median_ratios": summary, "load_avg_1min": {"min": min(loads), "max": max(loads)},
            "config": {"model": SPEED_MODEL, "prompts": 8, "group": 8, "max_new_tokens": 8, "beta": 0.04,
                       "threads": args.threads, "steps": args.steps}}


# ---------------------------------------------------------------- time to pass@1
def pass_rlvr(base: Path, args) -> dict:
    run_dir = OUT / "pass_rlvr"
    if run_dir.exists():
        import shutil

        shutil.rmtree(run_dir)

    def best():
        evals = rlvr_rows(run_dir, "eval")
        train_s = sum(r["time/step"] for r in rlvr_rows(run_dir, "train"))
        return evals, train_s

    def stop():
        evals, train_s = best()
        return any(e["pass@1"] >= args.target for e in evals if e["step"] > 0) or train_s >= args.budget_s

    cmd = rlvr_cmd(run_dir, [f"model.path={base}", f"threads={args.threads}", "train.steps=100000",
                             f"eval.every={args.eval_every}", "eval.problems=200"])
    res = run_child(cmd, child_env(args.threads), OUT / "pass_rlvr.log", stop=stop)
    train = {r["step"]: r["time/step"] for r in rlvr_rows(run_dir, "train")}
    evals = [{"step": e["step"], "train_s": sum(t for s, t in train.items() if s <= e["step"]), "pass@1": e["pass@1"]}
             for e in rlvr_rows(run_dir, "eval")]
    return {**res, "evals": evals}


def pass_trl(base: Path, args) -> dict:
    from rlvr.config import load_config

    demo = load_config(preset="demo")
    prompts, held = write_prompts(16 * 4000)
    out = OUT / "pass_trl.json"
    cmd = [str(TRL_PY), str(BENCH / "trl_grpo.py"), "--model", str(base), "--prompts", str(prompts),
           "--eval", str(held), "--out", str(out), "--steps", "100000", "--prompts-per-step", "16", "--group", "8",
           "--max-new", str(demo.rollout.max_new_tokens), "--eval-max-new", str(demo.rollout.max_new_tokens),
           "--beta", str(demo.algo.kl_coef), "--lr", str(demo.train.lr), "--threads", str(args.threads),
           "--eval-every", str(args.eval_every), "--target", str(args.target), "--time-limit", str(args.budget_s)]
    res = run_child(cmd, child_env(args.threads), OUT / "pass_trl.log")
    return {**res, "evals": json.loads(out.read_text())["evals"]}


def reached(evals: list[dict], target: float) -> dict:
    hit = next((e for e in evals if e["step"] > 0 and e["pass@1"] >= target), None)
    trained = [e for e in evals if e["step"] > 0]
    top = max(trained, key=lambda e: e["pass@1"]) if trained else None
    return {"reached": hit is not None, "time_s": hit["train_s"] if hit else None, "step": hit["step"] if hit else None,
            "best_pass@1": top["pass@1"] if top else None, "best_at_s": top["train_s"] if top else None,
            "base_pass@1": evals[0]["pass@1"] if evals else None, "evals": len(trained),
            "train_s": trained[-1]["train_s"] if trained else 0.0, "steps": trained[-1]["step"] if trained else 0}


def part_pass(args) -> dict:
    import torch

    torch.set_num_threads(args.threads)  # the warm-start (once; cached) runs in this process
    base = demo_base()
    loads = [os.getloadavg()[0]]
    sides: dict = {}
    runners = {"rlvr": lambda: pass_rlvr(base, args), "trl": lambda: pass_trl(base, args)}
    if args.concurrent:  # both at once: each sees the same (shared, fluctuating) machine
        import threading

        threads = [threading.Thread(target=lambda k=k: sides.__setitem__(k, runners[k]())) for k in runners]
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            time.sleep(5)
            loads.append(os.getloadavg()[0])
    else:
        for side in (["rlvr", "trl"] if not args.trl_first else ["trl", "rlvr"]):
            sides[side] = runners[side]()
            loads.append(os.getloadavg()[0])
    for side in sides:
        sides[side]["summary"] = reached(sides[side]["evals"], args.target)
        print(f"{side}: {sides[side]['summary']}", flush=True)
    return {"sides": sides, "target": args.target, "budget_s": args.budget_s, "base": str(base),
            "load_avg_1min": {"min": min(loads), "max": max(loads)}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("part", choices=["speed", "pass"])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--target", type=float, default=0.9)
    ap.add_argument("--budget-s", type=float, default=600.0)
    ap.add_argument("--eval-every", type=int, default=25)
    ap.add_argument("--trl-first", action="store_true")
    ap.add_argument("--concurrent", action="store_true", help="pass: run both sides at the same time")
    args = ap.parse_args()
    if not TRL_PY.is_file():
        print("bench/.venv-trl is missing: run `bash bench/setup_trl_env.sh` first", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    result = part_speed(args) if args.part == "speed" else part_pass(args)
    (OUT / f"side_by_side_{args.part}.json").write_text(json.dumps(result, indent=2) + "\n")
    if args.part == "speed":
        print("median ratios rlvr/TRL:", json.dumps(result["median_ratios"]), "load", result["load_avg_1min"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
