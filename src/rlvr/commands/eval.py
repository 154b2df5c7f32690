"""`rlvr eval`: pass@k and maj@k curves of one model, or of a base and a trained model on
the same problems (the sharpening / crossover picture), and every completion on disk.

pass@k uses the unbiased estimator over n samples per problem; maj@k votes over the
answers the verifier graded (``Verdict.answer``), so maj@1 = pass@1 for n = 1. With
``--compare`` both models see the same problems, the same sampling settings, and the plot
puts their curves on one log-k axis. The output directory gets ``eval.json``,
``completions.jsonl`` (one line per completion: model, problem, prompt, completion,
status, answer) and, with ``--compare``, ``passk_compare.svg``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from rlvr.errors import UserError

EVAL_EPILOG = """examples:
  rlvr eval --model runs/demo/checkpoints/step_100              # greedy pass@1 on the held-out set
  rlvr eval --model runs/demo/checkpoints/step_100 --n 64       # pass@k / maj@k, k = 1, 2, 4, ..., 64
  rlvr eval --compare BASE_DIR TRAINED_DIR --n 64 --output out/ # both models, one plot
  rlvr eval --model M --problems 64 rollout.max_new_tokens=96   # key=value overrides anywhere on the line
"""
EXAMPLES_SHOWN = 3  # completions printed in the summary; all of them are in completions.jsonl


def register(sub) -> None:
    e = sub.add_parser("eval", help="Evaluate a model on a task's held-out set (pass@k, maj@k).",
                       description="Evaluate a Hugging Face model directory (or a .gguf file) on the held-out split "
                                   "and write every completion.",
                       epilog=EVAL_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    e.add_argument("--model", help="Model directory (a checkpoint, any local HF causal LM) or a .gguf file.")
    e.add_argument("--compare", nargs=2, metavar=("BASE_DIR", "TRAINED_DIR"),
                   help="Evaluate two models on the same problems and plot their pass@k curves together.")
    e.add_argument("--config",
                   help="Config (task, reward) to evaluate under; default: the model's run config or the demo.")
    e.add_argument("--task", help="Task name override (e.g. arithmetic).")
    e.add_argument("--n", type=int, default=1, help="Samples per problem (default 1 = greedy pass@1).")
    e.add_argument("--k", default=None, help="Comma-separated k values for pass@k (default: powers of 2 up to n).")
    e.add_argument("--problems", type=int, default=None, help="Number of held-out problems (default eval.problems).")
    e.add_argument("--temperature", type=float, default=None,
                   help="Sampling temperature (default 1.0 when n > 1, else 0).")
    e.add_argument("--output", default="runs/eval",
                   help="Directory for eval.json, completions.jsonl and the plot (default runs/eval).")
    e.add_argument("--no-progress", dest="progress", action="store_false",
                   help="No progress bar on standard error (the default shows one per model).")
    e.add_argument("overrides", nargs="*", metavar="key=value", help="Dotted config overrides.")
    e.set_defaults(handler=cmd_eval)


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


def check_eval_args(n: int, problems: int | None, temperature: float | None) -> None:
    """The command's numbers, each against its range, before any model is loaded."""
    if n < 1:
        raise UserError(f"--n must be >= 1, got {n}")
    if problems is not None and problems < 1:
        raise UserError(f"--problems must be >= 1, got {problems} (leave it out for eval.problems)")
    if temperature is not None and not temperature >= 0:
        raise UserError(f"--temperature must be >= 0 (0 = greedy), got {temperature}")


def _eval_config(args, model_dir: Path | None):
    overrides = list(args.overrides)
    if args.task:
        overrides.append(f"task.name={args.task}")
    return eval_config(model_dir, args.config, overrides)


def eval_config(model_dir: Path | None, config: str | None = None, overrides: list[str] | tuple = ()):
    """The config to evaluate under: ``config`` (YAML), else the run config of the run the model
    directory belongs to, else the demo's; ``overrides`` on top."""
    from rlvr.config import apply_overrides, config_from_dict, load_config

    if config:
        return load_config(config, overrides=overrides)
    if model_dir is not None:
        for parent in [model_dir, *model_dir.parents][:4]:
            if (parent / "config.json").is_file() and (parent / "metrics.jsonl").is_file():
                run_cfg = config_from_dict(json.loads((parent / "config.json").read_text()))
                return apply_overrides(run_cfg, overrides)  # same override rules as `rlvr train`
    return load_config(preset="demo", overrides=overrides)


def _model_dirs(args) -> list[Path]:
    """The model directories to evaluate (a .gguf file is converted into the cache first)."""
    from rlvr.models.base import user_model_dir

    if not args.model and not args.compare:
        raise UserError("give --model DIR, or --compare BASE_DIR TRAINED_DIR")
    cache_dir = next((o.split("=", 1)[1] for o in args.overrides if o.startswith("model.cache_dir=")), None)
    log = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731  (stdout carries the JSON)
    return [user_model_dir(p, cache_dir, log) for p in ([args.model] if args.model else list(args.compare))]


def cmd_eval(args) -> int:
    check_eval_args(args.n, args.problems, args.temperature)
    dirs = _model_dirs(args)
    cfg = _eval_config(args, dirs[-1])
    result = run_eval(cfg, dirs, n=args.n, ks=args.k, problems=args.problems, temperature=args.temperature,
                      output=Path(args.output), progress=args.progress)
    print(json.dumps(result, indent=2))
    return 0


def eval_model(cfg, model_dir: Path, samples, n: int, temperature: float, ks: list[int],
               progress: bool = False) -> tuple[dict, dict]:
    """(the model's pass@k / maj@k figures, the raw evaluation with every completion); with
    ``progress``, a bar over the problems labelled with the model's folder name."""
    from rlvr.diagnostics.passk import majk_curve, passk_curve
    from rlvr.models.loading import load_policy
    from rlvr.rollout.build import build_rollout
    from rlvr.train.evaluation import evaluate_samples
    from rlvr.verifiers.rewarder import Rewarder

    t0 = time.time()
    model, tokenizer = load_policy(model_dir, cfg)
    with Rewarder(cfg.reward) as rewarder:
        res = evaluate_samples(build_rollout(cfg, model, tokenizer), tokenizer, samples, rewarder, cfg, n=n,
                               temperature=temperature, progress=f"eval: {model_dir.name}" if progress else None)
    correct, answers = res["correct"], res["answers"]
    metrics = {
        "model": str(model_dir),
        "pass@k": {str(k): v for k, v in passk_curve(correct, ks).items()},
        "maj@k": {str(k): v for k, v in majk_curve(answers, correct, ks).items()},
        "len_mean": res["eval/len_mean"],
        "seconds": time.time() - t0,
    }
    by_kind = passk_by_kind(samples, correct, ks)
    if by_kind:
        metrics["by_kind"] = by_kind
    return metrics, res


def passk_by_kind(samples, correct: list[list[bool]], ks: list[int]) -> dict:
    """pass@k of each kind of problem (``fields["kind"]``: "add", "mul") when the problems
    hold more than one kind, as ``{kind: {"problems": n, "pass@k": {"1": …}}}``; else ``{}``."""
    from rlvr.diagnostics.passk import passk_curve

    rows: dict[str, list[int]] = {}
    for i, s in enumerate(samples):
        kind = (s.fields or {}).get("kind")
        if isinstance(kind, str) and kind:
            rows.setdefault(kind, []).append(i)
    if len(rows) < 2:
        return {}
    return {kind: {"problems": len(idx), "pass@k": {str(k): v for k, v in
                                                     passk_curve([correct[i] for i in idx], ks).items()}}
            for kind, idx in sorted(rows.items())}


def completion_rows(model_dir: Path, samples, res: dict):
    for i, sample in enumerate(samples):
        for j, text in enumerate(res["texts"][i]):
            yield {"model": str(model_dir), "problem": sample.id, "sample": j, "prompt": sample.prompt,
                   "reference": sample.answer, "completion": text, "status": res["statuses"][i][j],
                   "answer": res["answers"][i][j]}


def run_eval(cfg, model_dirs: list[Path], n: int, ks: str | None, problems: int | None,
             temperature: float | None, output: Path, progress: bool = True) -> dict:
    from rlvr.tasks.registry import build_task
    from rlvr.train.run import set_threads

    set_threads(cfg)
    check_eval_args(n, problems, temperature)
    ks_list = parse_ks(ks, n)
    temp = temperature if temperature is not None else (1.0 if n > 1 else 0.0)
    if temp == 0 and n > 1:
        raise UserError("greedy decoding (--temperature 0) gives n identical samples;"
                        " use a temperature > 0 with --n > 1")
    samples = build_task(cfg.task, verifier=cfg.reward.verifier).eval_samples[: problems or cfg.eval.problems]
    if problems is not None and problems > len(samples):
        print(f"--problems {problems}: the held-out set has {len(samples)}; evaluating all of them",
              file=sys.stderr, flush=True)
    results = {"problems": len(samples), "n": n, "temperature": temp, "ks": ks_list, "models": []}
    output.mkdir(parents=True, exist_ok=True)
    examples = []
    with open(output / "completions.jsonl", "w", encoding="utf-8") as fh:
        for d in model_dirs:
            metrics, res = eval_model(cfg, d, samples, n, temp, ks_list, progress)
            results["models"].append(metrics)
            rows = list(completion_rows(d, samples, res))
            fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
            examples += rows[::n][:EXAMPLES_SHOWN]
    results["completions"] = str(output / "completions.jsonl")
    results["examples"] = [{k: r[k] for k in ("model", "prompt", "completion", "status", "answer")} for r in examples]
    if len(model_dirs) > 1:
        results["plot"] = str(_plot(results, output, model_dirs, n, len(samples)))
    (output / "eval.json").write_text(json.dumps(results, indent=2) + "\n")
    return results


def _plot(results: dict, output: Path, model_dirs: list[Path], n: int, problems: int) -> Path:
    from rlvr.report.passk_plot import plot_passk_compare

    labels = ["base", "trained"] if len(model_dirs) == 2 else [str(d) for d in model_dirs]
    curves = {}
    for label, m in zip(labels, results["models"]):
        curves[f"{label} pass@k"] = m["pass@k"]
        curves[f"{label} maj@k"] = m["maj@k"]
        for kind, figures in m.get("by_kind", {}).items():
            curves[f"{label} pass@k ({kind})"] = figures["pass@k"]
    return plot_passk_compare(curves, output / "passk_compare.svg",
                              title=f"pass@k and maj@k, n={n}, {problems} problems")
