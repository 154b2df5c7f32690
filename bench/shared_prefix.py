"""The sampler with and without the shared-prefix prefill, alternating in one process.

On SmolLM2-135M-Instruct (fp32) and the ``smollm`` preset's prompts (chat template, system
prompt and one worked example: 72 of 88 tokens common to every prompt), the ``hf`` backend
generates the same batches with the common prefix prefilled once (``hf.shared_layout``)
and with every prompt prefilled whole (``left_pad``), in turn, for a training step's shape
(8 prompts x 8) and an evaluation's (64 distinct prompts x 1). Reported: generated tokens
per CPU-second of the process (``time.process_time``) and per wall second, medians over the
rounds. With ``--threads 1`` the CPU figure holds on a machine other work is using, where
wall time does not.

    .venv/bin/python bench/shared_prefix.py [--threads 1] [--rounds 3] [--max-new 64]

Not part of the test suite. Needs ``rlvr model fetch smollm2``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--max-new", type=int, default=64)
    args = p.parse_args()

    import torch

    import rlvr.rollout.hf as hf
    from rlvr.config import load_config
    from rlvr.models.gguf import fetch_smollm
    from rlvr.models.loading import load_policy
    from rlvr.rollout.build import build_backend
    from rlvr.rollout.prompts import render_prompt
    from rlvr.tasks.registry import build_task
    from rlvr.types import SamplingParams

    path = fetch_smollm(log=print)
    cfg = load_config(preset="smollm", overrides=[f"model.path={path}", "model.dtype=float32", "model.device=cpu"])
    torch.set_num_threads(args.threads)
    model, tok = load_policy(path, cfg)
    rollout = build_backend(cfg, model, tok)
    task = build_task(cfg.task)
    shared = hf.shared_layout

    def whole(prompts, pad_id, device):
        ids, mask = hf.left_pad(prompts, pad_id, device)
        return ids, mask, 0

    stop = (tok.convert_tokens_to_ids("<|im_end|>"),)
    results: dict = {"threads": args.threads, "loadavg_before": os.getloadavg()}
    for shape, (n_prompts, group) in {"train 8x8": (8, 8), "eval 64x1": (64, 1)}.items():
        prompts = [render_prompt(tok, s, cfg) for s in task.train_batch(0, n_prompts)]
        sp = SamplingParams(max_new_tokens=args.max_new, temperature=1.0, n=group, stop_token_ids=stop)
        runs: dict = {}
        for _ in range(args.rounds):
            for name, layout in (("whole", whole), ("shared", shared)):
                hf.shared_layout = layout
                c0, w0 = time.process_time(), time.perf_counter()
                out = rollout.generate(prompts, sp)
                cpu, wall = time.process_time() - c0, time.perf_counter() - w0
                new = sum(len(c.token_ids) for c in out)
                runs.setdefault(name, {"cpu": [], "wall": []})
                runs[name]["cpu"].append(new / cpu)
                runs[name]["wall"].append(new / wall)
        hf.shared_layout = shared
        med = {name: {k: statistics.median(v) for k, v in r.items()} for name, r in runs.items()}
        results[shape] = {"rounds": runs, "median": med,
                          "shared_over_whole_cpu": med["shared"]["cpu"] / med["whole"]["cpu"]}
        print(f"{shape}: tokens per CPU-second whole {med['whole']['cpu']:.1f}, shared {med['shared']['cpu']:.1f} "
              f"({results[shape]['shared_over_whole_cpu']:.2f}x); per wall second {med['whole']['wall']:.1f} / "
              f"{med['shared']['wall']:.1f}", flush=True)
    results["loadavg_after"] = os.getloadavg()
    print(json.dumps(results))


if __name__ == "__main__":
    main()
