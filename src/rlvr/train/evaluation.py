"""`rlvr eval`: pass@k and maj@k curves of one model, or of a base and a trained model on
the same problems (the sharpening / crossover picture).

pass@k uses the unbiased estimator over n samples per problem; maj@k votes over the
extracted final answers. With ``--compare`` both models see the same problems, the same
sampling settings, and the plot puts their curves on one log-k axis.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from rlvr.config import Config
from rlvr.diagnostics.passk import majk_curve, passk_curve, plot_passk_compare
from rlvr.errors import UserError
from rlvr.train.components import (Rewarder, build_rollout, build_task, evaluate_samples, load_policy,
                                   set_threads)


def default_ks(n: int) -> list[int]:
    ks, k = [], 1
    while k <= n:
        ks.append(k)
        k *= 2
    return ks


def parse_ks(text: str | None, n: int) -> list[int]:
    if not text:
        return default_ks(n)
    try:
        ks = sorted({int(x) for x in text.split(",") if x.strip()})
    except ValueError:
        raise UserError(f"--k must be comma-separated integers, got {text!r}") from None
    bad = [k for k in ks if k < 1 or k > n]
    if bad:
        raise UserError(f"--k values must lie in 1..n={n}; got {bad} (raise --n or drop them)")
    return ks


def eval_model(cfg: Config, model_dir: Path, samples, n: int, temperature: float, ks: list[int]) -> dict:
    t0 = time.time()
    model, tokenizer = load_policy(model_dir, cfg)
    rollout = build_rollout(cfg, model, tokenizer)
    rewarder = Rewarder(cfg)
    try:
        res = evaluate_samples(rollout, tokenizer, samples, rewarder, cfg, n=n, temperature=temperature)
    finally:
        rewarder.close()
    correct, answers = res["correct"], res["answers"]
    return {
        "model": str(model_dir),
        "pass@k": {str(k): v for k, v in passk_curve(correct, ks).items()},
        "maj@k": {str(k): v for k, v in majk_curve(answers, correct, ks).items()},
        "len_mean": res["eval/len_mean"],
        "seconds": time.time() - t0,
    }


def run_eval(cfg: Config, model_dirs: list[Path], n: int, ks: str | None, problems: int | None,
             temperature: float | None, output: Path | None) -> dict:
    set_threads(cfg)
    if n < 1:
        raise UserError(f"--n must be >= 1, got {n}")
    ks_list = parse_ks(ks, n)
    temp = temperature if temperature is not None else (1.0 if n > 1 else 0.0)
    if temp == 0 and n > 1:
        raise UserError("greedy decoding (--temperature 0) gives n identical samples; use a temperature > 0 with --n > 1")
    task = build_task(cfg)
    samples = task.eval_samples[: problems or cfg.eval.problems]
    results = {"problems": len(samples), "n": n, "temperature": temp, "ks": ks_list, "models": []}
    for d in model_dirs:
        results["models"].append(eval_model(cfg, d, samples, n, temp, ks_list))
    if output is not None:
        output.mkdir(parents=True, exist_ok=True)
        (output / "eval.json").write_text(json.dumps(results, indent=2) + "\n")
        if len(model_dirs) > 1:
            labels = ["base", "trained"] if len(model_dirs) == 2 else [str(d) for d in model_dirs]
            curves = {}
            for label, m in zip(labels, results["models"]):
                curves[f"{label} pass@k"] = m["pass@k"]
                curves[f"{label} maj@k"] = m["maj@k"]
            results["plot"] = str(plot_passk_compare(curves, output / "passk_compare.svg",
                                                     title=f"pass@k and maj@k, n={n}, {len(samples)} problems"))
    return results
