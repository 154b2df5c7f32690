"""Sampler throughput: rlvr's rollout against Hugging Face ``generate`` on the same model and prompts.

One process, one model (a ~4 M-parameter Qwen2 with the character tokenizer, fp32, built
locally, random init), 8 prompts x 8 completions = batch 64, temperature 1.0. Each round
times, back to back, in rotating order:

- ``rlvr``       ``HFRollout.generate`` (the ``rlvr.rollout.fast`` decode loop),
- ``rlvr-dyn``   ``HFRollout.generate`` forced onto the generic ``DynamicCache`` loop,
- ``hf``         ``model.generate(do_sample=True, num_return_sequences=8)``,

for each ``max_new_tokens`` asked for. Tokens are counted the same way for all (each
completion up to and including its EOS), so tokens/s compare directly. The figure of
merit is the ratio rlvr / hf within a round; the median over rounds is reported with the
load average seen, because this machine is shared.

    .venv/bin/python bench/sampler.py [--rounds 5] [--max-new 8,32] [--threads 2]

Not part of the test suite. Writes bench/out/sampler.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import torch

OUT = Path(__file__).resolve().parent / "out"
MODEL_SHAPE = {"arch": "qwen2", "hidden": 256, "layers": 4, "heads": 4, "intermediate": 1024}


def build_model():
    from rlvr.models.tiny import TinyShape, build_char_tokenizer, build_tiny_model

    tok = build_char_tokenizer()
    model = build_tiny_model(tok, TinyShape(**MODEL_SHAPE), seed=0)
    return model.eval(), tok


def demo_prompts(tok, n: int) -> list[list[int]]:
    from rlvr.tasks.arithmetic import ArithmeticSpec, ArithmeticTask

    task = ArithmeticTask(ArithmeticSpec(), eval_size=8)
    return [tok(s.prompt, add_special_tokens=False)["input_ids"] for s in task.train_batch(0, n)]


def count_tokens(rows: torch.Tensor, eos: int, pad: int) -> int:
    """Tokens per completion up to and including the first EOS (pads after it not counted). rows (N, T)"""
    total = 0
    for row in rows.tolist():
        cut = row.index(eos) + 1 if eos in row else len([t for t in row if t != pad])
        total += cut
    return total


def run_rlvr(model, tok, prompts, group: int, max_new: int, fast: bool, seed: int) -> tuple[float, int]:
    from rlvr.rollout.hf import HFRollout
    from rlvr.types import SamplingParams

    rollout = HFRollout(model, tok, seed=seed, fast=fast)
    t0 = time.perf_counter()
    comps = rollout.generate(prompts, SamplingParams(max_new_tokens=max_new, temperature=1.0, n=group))
    return time.perf_counter() - t0, sum(len(c.token_ids) for c in comps)


def run_hf(model, tok, prompts, group: int, max_new: int, seed: int) -> tuple[float, int]:
    from rlvr.rollout.hf import left_pad

    ids, mask = left_pad(prompts, tok.pad_token_id, "cpu")
    torch.manual_seed(seed)
    t0 = time.perf_counter()
    with torch.inference_mode():
        out = model.generate(input_ids=ids, attention_mask=mask, do_sample=True, temperature=1.0, top_k=0,
                             top_p=1.0, max_new_tokens=max_new, num_return_sequences=group,
                             pad_token_id=tok.pad_token_id, eos_token_id=tok.eos_token_id)
    dt = time.perf_counter() - t0
    return dt, count_tokens(out[:, ids.shape[1]:], tok.eos_token_id, tok.pad_token_id)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--max-new", default="8,32")
    ap.add_argument("--prompts", type=int, default=8)
    ap.add_argument("--group", type=int, default=8)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    model, tok = build_model()
    prompts = demo_prompts(tok, args.prompts)
    params = sum(p.numel() for p in model.parameters())
    sides = {
        "rlvr": lambda mn, s: run_rlvr(model, tok, prompts, args.group, mn, True, s),
        "rlvr-dyn": lambda mn, s: run_rlvr(model, tok, prompts, args.group, mn, False, s),
        "hf": lambda mn, s: run_hf(model, tok, prompts, args.group, mn, s),
    }
    results: dict = {"model_params": params, "batch": args.prompts * args.group, "threads": args.threads,
                     "prompt_tokens": [len(p) for p in prompts], "by_max_new": {}}
    loads = [os.getloadavg()[0]]
    for max_new in [int(x) for x in args.max_new.split(",")]:
        for fn in sides.values():  # warm-up, untimed
            fn(max_new, 0)
        runs = {k: [] for k in sides}
        for r in range(args.rounds):
            names = list(sides)[r % len(sides):] + list(sides)[: r % len(sides)]  # rotate who goes first
            for name in names:
                dt, n = sides[name](max_new, r + 1)
                runs[name].append({"s": dt, "tokens": n, "tok_per_s": n / dt})
            loads.append(os.getloadavg()[0])
        ratios = [a["tok_per_s"] / b["tok_per_s"] for a, b in zip(runs["rlvr"], runs["hf"])]
        ratios_dyn = [a["tok_per_s"] / b["tok_per_s"] for a, b in zip(runs["rlvr-dyn"], runs["hf"])]
        summary = {k: statistics.median(x["tok_per_s"] for x in v) for k, v in runs.items()}
        results["by_max_new"][max_new] = {"runs": runs, "median_tok_per_s": summary,
                                          "ratio_rlvr_over_hf": statistics.median(ratios),
                                          "ratio_rlvr_dyn_over_hf": statistics.median(ratios_dyn),
                                          "ratios_per_round": ratios}
        print(f"max_new_tokens={max_new}: tokens/s  rlvr {summary['rlvr']:.0f}  rlvr-dyn {summary['rlvr-dyn']:.0f}  "
              f"hf-generate {summary['hf']:.0f}  ->  rlvr/hf {statistics.median(ratios):.2f}x "
              f"(rounds: {', '.join(f'{x:.2f}' for x in ratios)})")
    results["load_avg_1min"] = {"min": min(loads), "max": max(loads)}
    print(f"model {params / 1e6:.2f} M params, batch {results['batch']}, {args.threads} threads, "
          f"1-min load average {min(loads):.1f}-{max(loads):.1f}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "sampler.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
