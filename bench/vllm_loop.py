"""vLLM inside the training loop vs vLLM alone, and step time vs the hf backend (GPU only).

Three measurements on one model (default: the demo's warm-started tiny model; any local
HF causal LM with --model):

1. ``vllm_alone``: a vLLM engine generating ``--prompts`` x ``--group`` completions of up to
   ``--max-new`` tokens, ``--repeats`` times; generated tokens per second.
2. ``vllm_loop``: ``--steps`` steps of the synchronous training loop with rollout.backend=vllm
   (weights pushed after every step); tokens per second of the generate phase, the weight
   push, step time, logprob mismatch (means over the steps after the first).
3. ``hf_loop``: the same with rollout.backend=hf.

    .venv/bin/python bench/vllm_loop.py [--model DIR] [--steps 20] [--prompts 64] [--group 8] \
        [--max-new 32] [--out bench/out/vllm_loop.json] [key=value overrides...]

Not part of the test suite; needs a CUDA GPU and vllm. Nothing here has been run yet
(written without a GPU); the JSON it prints is the record to paste into docs/scaling.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--model", help="HF model directory (default: the demo's warm-started tiny model)")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--prompts", type=int, default=64)
    p.add_argument("--group", type=int, default=8)
    p.add_argument("--max-new", type=int, default=32)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--out", default=str(REPO / "bench" / "out" / "vllm_loop.json"))
    p.add_argument("--phase", choices=("vllm_alone", "vllm_loop", "hf_loop"),
                   help="run one measurement in this process (main runs each in its own, so GPU memory is freed)")
    p.add_argument("overrides", nargs="*", help="extra config overrides, e.g. rollout.vllm_gpu_memory_utilization=0.5")
    return p.parse_args()


def base_config(args, backend: str, run_dir: Path):
    from rlvr.config import load_config

    overrides = [f"rollout.backend={backend}", f"rollout.prompts_per_step={args.prompts}",
                 f"rollout.group_size={args.group}", f"rollout.max_new_tokens={args.max_new}",
                 f"train.steps={args.steps}", "eval.every=0", "eval.problems=16", "log.report=false",
                 "log.progress=false", "model.device=cuda",
                 "algo.tis_cap=2.0", "train.checkpoint_every=0", f"output={run_dir}", *args.overrides]
    if args.model:
        overrides.append(f"model.path={args.model}")
    return load_config(preset="demo", overrides=overrides)


def vllm_alone(args, cfg) -> dict:
    from rlvr.models.base import ensure_base
    from rlvr.models.loading import load_policy
    from rlvr.rollout.prompts import render_prompt
    from rlvr.rollout.vllm import VLLMRollout
    from rlvr.tasks.registry import build_task
    from rlvr.types import SamplingParams

    task = build_task(cfg.task)
    model_dir = ensure_base(cfg, task, print)
    model, tok = load_policy(model_dir, cfg)
    rollout = VLLMRollout(cfg, model, tok)
    prompts = [render_prompt(tok, s, cfg) for s in task.train_batch(0, args.prompts)]
    sp = SamplingParams(max_new_tokens=args.max_new, temperature=1.0, n=args.group)
    rollout.generate(prompts, sp)  # warm-up (graphs, caches)
    t0, tokens = time.perf_counter(), 0
    for _ in range(args.repeats):
        tokens += sum(len(c.token_ids) for c in rollout.generate(prompts, sp))
    seconds = time.perf_counter() - t0
    t1 = time.perf_counter()
    rollout.sync_weights()
    push_s = time.perf_counter() - t1
    return {"tokens_per_s": tokens / seconds, "tokens": tokens, "seconds": seconds, "weight_push_s": push_s,
            "model_dir": str(model_dir)}


def loop_run(args, backend: str, root: Path) -> dict:
    from rlvr.train.loop import train

    run = root / backend
    train(base_config(args, backend, run), log=print)
    rows = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]
    rows = [r for r in rows if r["kind"] == "train"][1:]  # the first step compiles and warms caches

    def mean(key):
        vals = [r[key] for r in rows if key in r]
        return sum(vals) / len(vals) if vals else None

    gen_tokens = [r["tokens_per_s"] for r in rows]
    return {"steps_measured": len(rows), "step_s": mean("time/step"), "generate_s": mean("time/generate"),
            "train_s": mean("time/train"), "generate_tokens_per_s": sum(gen_tokens) / max(len(gen_tokens), 1),
            "logp_mismatch": mean("logp_mismatch"), "tis_frac_capped": mean("tis/frac_capped")}


def run_phase(args, root: Path) -> dict:
    if args.phase == "vllm_alone":
        return vllm_alone(args, base_config(args, "vllm", root / "alone"))
    return loop_run(args, args.phase.split("_")[0], root)


def main() -> int:
    import subprocess

    import torch

    args = parse_args()
    if not torch.cuda.is_available():
        print("bench/vllm_loop.py needs a CUDA GPU", file=sys.stderr)
        return 2
    root = Path(args.out).with_suffix("")
    root.mkdir(parents=True, exist_ok=True)
    if args.phase:
        (root / f"{args.phase}.json").write_text(json.dumps(run_phase(args, root), indent=2) + "\n")
        return 0
    result = {"args": vars(args), "gpu": torch.cuda.get_device_name(0)}
    for phase in ("vllm_alone", "vllm_loop", "hf_loop"):
        subprocess.run([sys.executable, __file__, "--phase", phase, *sys.argv[1:]], check=True)
        result[phase] = json.loads((root / f"{phase}.json").read_text())
    result["loop_vs_alone"] = result["vllm_loop"]["generate_tokens_per_s"] / result["vllm_alone"]["tokens_per_s"]
    result["hf_over_vllm_step_time"] = result["hf_loop"]["step_s"] / result["vllm_loop"]["step_s"]
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
