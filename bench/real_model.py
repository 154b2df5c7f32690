"""rlvr and TRL's GRPOTrainer on a real model, side by side, and against this machine's peak.

The work, identical on every side: SmolLM2-135M-Instruct (``rlvr model fetch smollm2``),
the ``smollm`` preset's task (``chat_arithmetic``: 2-digit additions with one worked example,
rendered with the model's chat template), the strict math verifier as the reward on
both sides (TRL calls rlvr's verifier), 8 prompts x 8 completions, <= 64 new tokens,
temperature 1, lr 1e-5, beta 0, clip 0.2, one update per batch, N threads. Sides:

  rlvr           ``rlvr train --preset smollm model.dtype=float32``
  rlvr-auto      ``rlvr train --preset smollm`` (model.dtype=auto: bf16 autocast on an AMX CPU,
                 rlvr.models.precision)
  trl-nockpt     TRL with gradient checkpointing off (like for like: rlvr does not recompute), fp32
  trl-bf16       the same with ``bf16=True`` (autocast, fp32 master weights)
  trl-default    TRL with its defaults (GRPOConfig turns gradient checkpointing on), bf16=True

Parts (``all`` runs them in this order, in one invocation, and writes one JSON):

  peak   fp32 and bf16 matmul GFLOP/s of this machine at N threads: a large square product,
         and the decode shape (64 rows x hidden) x (hidden x intermediate) of this model.
         Every share of the peak below is given against both (``*_vs_bf16``: the bf16 one).
  precision  rlvr fp32 against rlvr auto, paired: ``--rounds`` rounds alternating the two,
         ``--steps`` steps each, same seed and data; the ratio of median step, training and
         generation time (steps after the first), and auto's mismatch metrics. No TRL needed.
  speed  ``--steps`` steps per side, one side at a time: median step time (steps after the
         first), generation tokens/s, peak RSS (os.wait4 of the side's process), and the
         fraction of the measured peak that generation (2 N FLOPs per generated token) and
         training (6 N per trained token position: on rlvr the positions it logs as
         ``train/positions`` over its training time, on TRL every row's prompt and response,
         estimated) reach, N = parameters.
  pass   each side trains until held-out greedy pass@1 on 200 problems (every
         ``--eval-every`` steps, evaluation time excluded) reaches ``--target`` or its
         training time passes ``--budget-s``: time to target, and the same run's median
         step time, peak RSS and share of the peak (rlvr against TRL without checkpointing).

    bash bench/setup_trl_env.sh
    .venv/bin/python bench/real_model.py all --threads 2 --steps 4 --budget-s 1500
    .venv/bin/python bench/real_model.py precision --threads 2 --steps 3 --rounds 2

Writes bench/out/real_model.json. Needs a quiet machine: with other jobs on the cores, two
OpenMP threads per process slow every side many times over and the ratios mean nothing
(the load average is recorded beside every figure).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from trl_side_by_side import OUT, TRL_PY, child_env, rlvr_cmd, rlvr_rows, run_child  # noqa: E402

BENCH = Path(__file__).resolve().parent
PARAMS = 134_515_008  # SmolLM2-135M-Instruct, tied embeddings counted once
RECIPE = {"prompts": 8, "group": 8, "max_new": 64, "lr": 1e-5, "beta": 0.0}  # the smollm preset's
# TRL trains every row in full: an estimate of its positions per step (30 response + 110 prompt tokens a row)
TRL_TRAINED = RECIPE["prompts"] * RECIPE["group"] * (30 + 110)


def model_dir() -> Path:
    from rlvr.models.gguf import fetch_smollm

    return Path(fetch_smollm(cache_dir=str(OUT / "cache"), log=lambda m: print(m, file=sys.stderr)))


def write_task(n_train: int) -> tuple[Path, Path]:
    """The smollm preset's training stream (positions 0..n_train-1) and its 200 held-out problems."""
    from rlvr.config import load_config
    from rlvr.tasks.registry import build_task

    task = build_task(load_config(preset="smollm").task)
    train, held = OUT / f"chat_train_{n_train}.jsonl", OUT / "chat_eval.jsonl"
    for path, rows in ((train, task.train_batch(0, n_train)), (held, task.eval_samples)):
        path.write_text("".join(json.dumps({"prompt": s.prompt, "answer": s.answer}) + "\n" for s in rows))
    return train, held


# ---------------------------------------------------------------- peak
def part_peak(threads: int) -> dict:
    import torch

    from rlvr.models.precision import has_amx_bf16

    torch.set_num_threads(threads)

    def gflops(m: int, k: int, n: int, reps: int, dtype) -> float:
        a, b = torch.randn(m, k, dtype=dtype), torch.randn(k, n, dtype=dtype)
        for _ in range(3):
            a @ b
        t0 = time.perf_counter()
        for _ in range(reps):
            a @ b
        return 2 * m * k * n * reps / (time.perf_counter() - t0) / 1e9

    out = {"threads": threads, "amx_bf16": has_amx_bf16(), "load_avg_1min": os.getloadavg()[0]}
    for suffix, dtype in (("", torch.float32), ("_bf16", torch.bfloat16)):  # alternating, one run
        out["square_2048" + suffix] = max(gflops(2048, 2048, 2048, 10, dtype) for _ in range(3))
        out["decode_64x576x1536" + suffix] = max(gflops(64, 576, 1536, 200, dtype) for _ in range(3))
    return out


# ---------------------------------------------------------------- one side
def rlvr_side(model: Path, steps: int, threads: int, tag: str, extra: list[str]) -> dict:
    run_dir = OUT / f"real_rlvr_{tag}"
    if run_dir.exists():
        import shutil

        shutil.rmtree(run_dir)
    cmd = rlvr_cmd(run_dir, ["--preset", "smollm", f"model.path={model}", f"threads={threads}",
                             f"train.steps={steps}", *extra])
    res = run_child(cmd, child_env(threads), OUT / f"real_rlvr_{tag}.log")
    rows = rlvr_rows(run_dir, "train")
    gen_s = sum(r["time/generate"] for r in rows[1:])
    tokens = sum(r["tokens_per_s"] * r["time/generate"] for r in rows[1:])
    return {**res, "step_s": [r["time/step"] for r in rows], "gen_s": [r["time/generate"] for r in rows],
            "train_s": [r["time/train"] for r in rows], "gen_tokens": tokens,
            "train_positions": [r.get("train/positions", 0.0) for r in rows],
            "gen_tok_per_s": tokens / max(gen_s, 1e-9),
            "evals": [{"step": e["step"], "pass@1": e["pass@1"],
                       "train_s": sum(r["time/step"] for r in rows if r["step"] <= e["step"])}
                      for e in rlvr_rows(run_dir, "eval")]}


def trl_side(model: Path, prompts: Path, held: Path | None, steps: int, threads: int, tag: str, ckpt: bool,
             args, bf16: bool = False) -> dict:
    out = OUT / f"real_trl_{tag}.json"
    cmd = [str(TRL_PY), str(BENCH / "trl_grpo.py"), "--model", str(model), "--prompts", str(prompts), "--out", str(out),
           "--steps", str(steps), "--prompts-per-step", str(RECIPE["prompts"]), "--group", str(RECIPE["group"]),
           "--max-new", str(RECIPE["max_new"]), "--beta", str(RECIPE["beta"]), "--lr", str(RECIPE["lr"]),
           "--threads", str(threads), "--chat", "--verifier", "math", "--format-weight", "0",
           "--grad-ckpt", "on" if ckpt else "off", "--bf16", "on" if bf16 else "off"]
    if held is not None:
        cmd += ["--eval", str(held), "--eval-every", str(args.eval_every), "--eval-max-new", str(RECIPE["max_new"]),
                "--target", str(args.target), "--time-limit", str(args.budget_s)]
    res = run_child(cmd, child_env(threads), OUT / f"real_trl_{tag}.log")
    rec = json.loads(out.read_text())
    return {**res, "step_s": rec["step_s"], "gen_tokens": rec["gen_tokens"], "gen_s_total": rec["gen_s"],
            "gen_tok_per_s": rec["gen_tokens"] / max(rec["gen_s"], 1e-9), "evals": rec["evals"],
            "prompt_tokens": rec.get("prompt_tokens"), "versions": rec["versions"]}


# ---------------------------------------------------------------- speed
def flops_fraction(side: dict, peak: dict, trained_tokens_per_step: float | None = None) -> dict:
    """Generation: 2 N FLOPs per generated token over the generation time. Training: 6 N per
    token position trained, over the training time: rlvr logs its positions per step
    (``train/positions``: each micro-batch's shared prompt once plus the response columns of the
    rows it ran) and its training time; TRL trains every row, counted with
    ``trained_tokens_per_step`` over (step - generation) time."""
    gen_s = side.get("gen_s_total") or sum(side.get("gen_s", [])[1:]) or 1e-9
    gen_flops = 2 * PARAMS * side["gen_tokens"]
    if any(side.get("train_positions", [])[1:]):  # rlvr: measured, steps after the first
        train_flops = 6 * PARAMS * sum(side["train_positions"][1:])
        train_s = max(sum(side["train_s"][1:]), 1e-9)
    else:
        step = statistics.median(side["step_s"][1:])
        train_flops = 6 * PARAMS * trained_tokens_per_step
        train_s = max(step - gen_s / max(len(side["step_s"]) - 1, 1), 1e-9)
    gen, train = gen_flops / gen_s / 1e9, train_flops / train_s / 1e9
    out = {"generation": gen / peak["square_2048"], "generation_vs_decode_shape": gen / peak["decode_64x576x1536"],
           "training": train / peak["square_2048"], "gen_gflops": gen, "train_gflops": train}
    if "square_2048_bf16" in peak:
        out.update(generation_vs_bf16=gen / peak["square_2048_bf16"],
                   generation_vs_bf16_decode_shape=gen / peak["decode_64x576x1536_bf16"],
                   training_vs_bf16=train / peak["square_2048_bf16"])
    return out


def part_speed(model: Path, args, peak: dict) -> dict:
    prompts, _ = write_task(RECIPE["prompts"] * (args.steps + 1))
    quick = ["eval.every=0", "eval.problems=8", "train.checkpoint_every=0"]
    sides, loads = {}, {}
    for tag, dtype in (("rlvr", "float32"), ("rlvr-auto", "auto")):
        sides[tag] = rlvr_side(model, args.steps, args.threads, "speed" if tag == "rlvr" else "speed_auto",
                               [*quick, f"model.dtype={dtype}"])
        loads[tag] = os.getloadavg()[0]
    for tag, ckpt, bf16 in (("trl-nockpt", False, False), ("trl-bf16", False, True), ("trl-default", True, True)):
        sides[tag] = trl_side(model, prompts, None, args.steps, args.threads, tag, ckpt, args, bf16=bf16)
        loads[tag] = os.getloadavg()[0]
    for tag, side in sides.items():
        side["median_step_s"] = statistics.median(side["step_s"][1:])
        print(f"{tag}: step {side['median_step_s']:.1f} s, gen {side['gen_tok_per_s']:.0f} tok/s, "
              f"peak RSS {side['peak_rss_mb']:.0f} MB (load {loads[tag]:.1f})", flush=True)
    ratios = {f"{r}_vs_{t}": {"step_time": sides[r]["median_step_s"] / sides[t]["median_step_s"],
                              "gen_tok_per_s": sides[r]["gen_tok_per_s"] / sides[t]["gen_tok_per_s"],
                              "peak_rss": sides[r]["peak_rss_mb"] / sides[t]["peak_rss_mb"]}
              for r, t in (("rlvr", "trl-nockpt"), ("rlvr", "trl-default"), ("rlvr-auto", "trl-bf16"),
                           ("rlvr-auto", "trl-default"), ("rlvr-auto", "rlvr"))}
    return {"sides": sides, "ratios": ratios, "load_avg_1min": loads}


def part_pass(model: Path, args, peak: dict) -> dict:
    prompts, held = write_task(RECIPE["prompts"] * 400)
    rlvr = rlvr_side(model, 400, args.threads, "pass", [f"eval.every={args.eval_every}", "eval.problems=200",
                                                       "train.checkpoint_every=0",
                                                       f"train.time_limit_s={args.budget_s}",
                                                       f"eval.stop_at={args.target}"])
    trl = trl_side(model, prompts, held, 400, args.threads, "pass", False, args)
    out = {}
    for tag, side in (("rlvr", rlvr), ("trl-nockpt", trl)):
        hit = next((e for e in side["evals"] if e["step"] > 0 and e["pass@1"] >= args.target), None)
        out[tag] = {"evals": side["evals"], "reached": hit is not None, "time_s": hit["train_s"] if hit else None,
                    "step": hit["step"] if hit else None, "base": side["evals"][0]["pass@1"] if side["evals"] else None}
        print(f"{tag}: {out[tag]}", flush=True)
    if out["rlvr"]["reached"] and out["trl-nockpt"]["reached"]:
        out["time_to_target_ratio"] = out["rlvr"]["time_s"] / out["trl-nockpt"]["time_s"]
    # the same run's step time, memory and share of the peak (steps after the first)
    for tag, side, est in (("rlvr", rlvr, None), ("trl-nockpt", trl, TRL_TRAINED)):
        out[tag].update(median_step_s=statistics.median(side["step_s"][1:]), peak_rss_mb=side["peak_rss_mb"],
                        gen_tok_per_s=side["gen_tok_per_s"], flops_fraction=flops_fraction(side, peak, est))
    keys = ("median_step_s", "peak_rss_mb", "gen_tok_per_s")
    out["ratios"] = {k: out["rlvr"][k] / out["trl-nockpt"][k] for k in keys}
    print("pass ratios:", json.dumps(out["ratios"]), flush=True)
    return out


MISMATCH_KEYS = ("logp_mismatch", "mismatch/abs_max", "mismatch/kl_k3", "mismatch/frac_out", "mismatch/seq_out")


def part_precision(model: Path, args, peak: dict) -> dict:
    """rlvr fp32 and rlvr auto alternating, ``args.rounds`` rounds of ``args.steps`` steps each,
    same seed and data: per side the median over its rounds of the median step (steps after
    the first), training and generation times, and the ratios auto / fp32."""
    quick = ["eval.every=0", "eval.problems=4", "train.checkpoint_every=0", "eval.max_new_tokens=25"]
    runs: dict[str, list[dict]] = {"float32": [], "auto": []}
    for r in range(args.rounds):
        for dtype in ("float32", "auto"):
            side = rlvr_side(model, args.steps, args.threads, f"prec_{dtype}_{r}", [*quick, f"model.dtype={dtype}"])
            rows = rlvr_rows(OUT / f"real_rlvr_prec_{dtype}_{r}", "train")
            side["mismatch"] = {k: [row.get(k) for row in rows] for k in MISMATCH_KEYS}
            side["load_avg_1min"] = os.getloadavg()[0]
            side["flops_fraction"] = flops_fraction(side, peak)
            runs[dtype].append(side)
            print(f"round {r} {dtype}: steps {[round(x, 1) for x in side['step_s']]} s, train "
                  f"{[round(x, 1) for x in side['train_s']]} s, gen {[round(x, 1) for x in side['gen_s']]} s, "
                  f"logp_mismatch {side['mismatch']['logp_mismatch']} (load {side['load_avg_1min']:.1f})", flush=True)

    def med(dtype: str, key: str) -> float:
        return statistics.median(statistics.median(s[key][1:]) for s in runs[dtype])

    out = {"runs": runs, "median": {d: {k: med(d, k) for k in ("step_s", "train_s", "gen_s")} for d in runs}}
    out["ratio_auto_vs_fp32"] = {k: out["median"]["auto"][k] / out["median"]["float32"][k]
                                 for k in ("step_s", "train_s", "gen_s")}
    print("auto / fp32:", json.dumps(out["ratio_auto_vs_fp32"]), flush=True)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("part", choices=["peak", "speed", "pass", "precision", "all"])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--steps", type=int, default=4, help="speed: steps per side")
    ap.add_argument("--target", type=float, default=0.5)
    ap.add_argument("--budget-s", type=float, default=1500.0, help="pass: training seconds per side at most")
    ap.add_argument("--eval-every", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=2, help="precision: rounds alternating fp32 and auto")
    args = ap.parse_args()
    if args.part not in ("peak", "precision") and not TRL_PY.is_file():
        print("bench/.venv-trl is missing: run `bash bench/setup_trl_env.sh` first", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    result: dict = {"recipe": RECIPE, "threads": args.threads, "params": PARAMS}
    result["peak_gflops"] = peak = part_peak(args.threads)
    print("peak GFLOP/s:", json.dumps(peak), flush=True)
    if args.part in ("speed", "pass", "precision", "all"):
        model = model_dir()
    if args.part == "precision":
        result["precision"] = part_precision(model, args, peak)
        (OUT / "real_model_precision.json").write_text(json.dumps(result, indent=2) + "\n")
        return 0
    if args.part in ("speed", "all"):
        result["speed"] = part_speed(model, args, peak)
        rec = result["speed"]["sides"]
        result["speed"]["flops_fraction"] = {
            **{t: flops_fraction(rec[t], peak) for t in ("rlvr", "rlvr-auto")},
            **{t: flops_fraction(rec[t], peak, TRL_TRAINED) for t in ("trl-nockpt", "trl-bf16", "trl-default")}}
        print("ratios:", json.dumps(result["speed"]["ratios"]), flush=True)
    if args.part in ("pass", "all"):
        result["pass"] = part_pass(model, args, peak)
    (OUT / "real_model.json").write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
