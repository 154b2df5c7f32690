"""The two generation engines side by side on CPU: the project's sampler (rollout.backend=hf)
against a real vLLM engine (rollout.backend=vllm, vLLM's CPU build), in one process, alternating.

On SmolLM2-135M-Instruct with the `smollm` preset's prompts (chat-rendered additions, one worked
example), float32, for each shape: a training step's shape (8 prompts x 8 completions) and an
evaluation's (64 distinct prompts x 1), ``--rounds`` rounds in which each engine generates the
same batch in turn; generated tokens per second (medians). Also: vLLM's import and engine start,
the weight push (median of ``--pushes`` pushes of perturbed weights) and the probe's log-prob gap
after each push.

    .venv/bin/python bench/vllm_cpu.py [--threads 2] [--rounds 3] [--max-new 64] [--out bench/out/vllm_cpu.json]

Needs vLLM (bash scripts/setup.sh vllm). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHAPES = {"train 8x8": (8, 8), "eval 64x1": (64, 1)}


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--pushes", type=int, default=3)
    p.add_argument("--max-new", type=int, default=64)
    p.add_argument("--out", default=str(REPO / "bench" / "out" / "vllm_cpu.json"))
    return p.parse_args()


def cpu_name() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()


def engines(args):
    """(config, model, tokenizer, task, hf rollout, vllm rollout, start-up seconds)."""
    import torch

    from rlvr.config import load_config
    from rlvr.models.gguf import fetch_smollm
    from rlvr.models.loading import load_policy
    from rlvr.rollout.build import build_backend
    from rlvr.tasks.registry import build_task

    path = fetch_smollm(log=print)
    cfg = load_config(preset="smollm", overrides=[f"model.path={path}", "model.dtype=float32", "model.device=cpu",
                                                  "algo.tis_cap=2.0", f"rollout.max_new_tokens={args.max_new}"])
    torch.set_num_threads(args.threads)
    model, tok = load_policy(path, cfg)
    hf = build_backend(cfg, model, tok)
    t0 = time.perf_counter()
    import vllm  # noqa: F401  (timed apart from the engine)

    t_import = time.perf_counter() - t0
    from rlvr.rollout.vllm import VLLMRollout

    t0 = time.perf_counter()
    vl = VLLMRollout(load_config(preset="smollm", overrides=[*cfg_overrides(cfg), "rollout.backend=vllm"]), model, tok)
    t_engine = time.perf_counter() - t0
    torch.set_num_threads(args.threads)
    return cfg, model, tok, build_task(cfg.task), hf, vl, {"import_s": t_import, "engine_and_first_push_s": t_engine}


def cfg_overrides(cfg) -> list[str]:
    return [f"model.path={cfg.model.path}", "model.dtype=float32", "model.device=cpu", "algo.tis_cap=2.0",
            f"rollout.max_new_tokens={cfg.rollout.max_new_tokens}"]


def tokens_per_s(rollout, prompts, sampling) -> float:
    t0 = time.perf_counter()
    out = rollout.generate(prompts, sampling)
    return sum(len(c.token_ids) for c in out) / (time.perf_counter() - t0)


def generation(args, cfg, tok, task, hf, vl) -> dict:
    from rlvr.rollout.prompts import render_prompt
    from rlvr.types import SamplingParams

    results = {}
    for name, (n_prompts, group) in SHAPES.items():
        prompts = [render_prompt(tok, s, cfg) for s in task.train_batch(0, n_prompts)]
        sp = SamplingParams(max_new_tokens=args.max_new, temperature=1.0, n=group,
                            stop_token_ids=(tok.convert_tokens_to_ids("<|im_end|>"),))
        for r in (hf, vl):
            r.generate(prompts[:2], sp)  # warm-up
        runs = {"hf": [], "vllm": []}
        for i in range(args.rounds):  # alternate, so that a noisy neighbour hurts both
            order = (("hf", hf), ("vllm", vl)) if i % 2 == 0 else (("vllm", vl), ("hf", hf))
            for key, r in order:
                runs[key].append(tokens_per_s(r, prompts, sp))
        med = {k: statistics.median(v) for k, v in runs.items()}
        results[name] = {"hf_tokens_per_s": med["hf"], "vllm_tokens_per_s": med["vllm"],
                         "vllm_over_hf": med["vllm"] / med["hf"], "rounds": runs}
        print(name, json.dumps(results[name]), flush=True)
    return results


def pushes(args, model, vl) -> dict:
    import torch

    times, gaps = [], []
    opt = torch.optim.AdamW(model.parameters(), lr=1e-5)  # the preset's order of update
    for _ in range(args.pushes):
        model(torch.tensor([vl.probe_ids])).logits.float().log_softmax(-1)[0, -1, 0].backward()
        opt.step()
        opt.zero_grad()
        gap = vl.sync_weights()
        times.append(vl.last_sync_s)
        gaps.append(gap["vllm/logp_gap_max"])
    return {"push_s_median": statistics.median(times), "push_s": times, "probe_gap_max": max(gaps), "gaps": gaps}


def main() -> int:
    args = parse_args()
    cfg, model, tok, task, hf, vl, start = engines(args)
    result = {"cpu": cpu_name(), "threads": args.threads, "max_new_tokens": args.max_new, **start,
              "generation": generation(args, cfg, tok, task, hf, vl), "push": pushes(args, model, vl)}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "generation"}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
