"""A small synthetic run directory, shaped like the trainer's, for report tests.

Deterministic numbers (no randomness): reward climbs, entropy decays, wrong answers
grow longer. Includes a sample whose completion holds HTML that must be escaped.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

HOSTILE = '<script>alert("x")</script><b>bold</b> & </td>'


def train_row(step: int) -> dict:
    t = step / 40.0
    wobble = 0.03 * math.sin(step * 1.7)
    acc = min(0.95, 0.4 + 0.45 * (1 - math.exp(-t)) + wobble)
    row = {
        "step": step, "kind": "train",
        "reward/mean": acc + 0.08, "reward/std": 0.4, "reward/acc/mean": acc, "reward/format/mean": 0.8,
        "status/ok": round(64 * acc), "status/wrong": 64 - round(64 * acc) - 2, "status/no_answer": 2,
        "status/timeout": 0, "status/error": 0,
        "acc": acc, "format_rate": 0.8,
        "zero_var/observed": 0.2 + 0.3 * t / 2, "zero_var/predicted": 0.25 + 0.3 * t / 2,
        "entropy": 1.2 * math.exp(-t / 2), "kl_ref": 0.002 * step, "approx_kl_old": 0.001,
        "clip_frac/low": 0.01, "clip_frac/high": 0.02 + wobble / 10,
        "len/mean": 20 + step / 10, "len/max": 32, "len/correct": 18.0, "len/wrong": 22 + step / 5,
        "trunc_rate": 0.05, "grad_norm": 0.5 + wobble, "lr": 1e-4,
        "time/generate": 0.25, "time/verify": 0.02, "time/train": 0.12, "time/step": 0.42,
        "tokens_per_s": 3000.0, "logp_mismatch": 1e-4, "selfcheck_rate": 0.0,
        "mismatch/abs_max": 2e-3, "mismatch/kl_k3": 1e-8, "mismatch/frac_out": 0.0, "mismatch/seq_out": 0.0,
    }
    if step == 30:
        row["alarm/length_growth"] = 1
    return row


def write_fake_run(run_dir: Path, steps: int = 60, samples: bool = True) -> Path:
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.json").write_text(json.dumps({"name": "fake<run>", "algo": {"name": "grpo"}}))
    with open(run_dir / "metrics.jsonl", "w") as f:
        f.write(json.dumps({"step": 0, "kind": "eval", "pass@1": 0.44, "eval/len_mean": 20.0, "eval/acc": 0.44}) + "\n")
        for step in range(1, steps + 1):
            f.write(json.dumps(train_row(step)) + "\n")
            if step % 20 == 0:
                f.write(json.dumps({"step": step, "kind": "eval", "pass@1": 0.44 + step / 200,
                                    "eval/len_mean": 20.0 + step / 20, "eval/acc": 0.44 + step / 200}) + "\n")
    if samples:
        with open(run_dir / "samples.jsonl", "w") as f:
            for step in (10, 60):
                for i in range(4):
                    ok = i % 2 == 0
                    plain = f"<think>3+5=8 8-2=6</think><answer>{6 if ok else 7}</answer>"
                    f.write(json.dumps({
                        "step": step, "group": i // 2, "prompt": "3+5-2=?",
                        "completion": HOSTILE if (step, i) == (60, 3) else plain,
                        "answer": "6", "reward": 1.1 if ok else 0.1, "status": "ok" if ok else "wrong",
                        "detail": "" if ok else "expected 6, got 7",
                        "length": 30, "finish_reason": "stop"}) + "\n")
    (run_dir / "summary.json").write_text(json.dumps({
        "base": {"pass@1": 0.44, "passk": {"1": 0.44, "4": 0.7, "16": 0.9}},
        "final": {"pass@1": 0.74, "passk": {"1": 0.74, "4": 0.88, "16": 0.95}},
        "steps": steps, "wall_s": 30.5,
        "phases": {"warmstart_s": 4.0, "base_eval_s": 1.0, "train_s": 25.0, "final_eval_s": 0.5}}))
    return run_dir
