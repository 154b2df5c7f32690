"""`rlvr train`, `rlvr eval`, `rlvr compare`: the commands that load models.

torch and transformers are imported inside the handlers, so `rlvr --help` stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rlvr.errors import UserError

TRAIN_EPILOG = """examples:
  rlvr train                                   # the demo: tiny model learns arithmetic on CPU
  rlvr train --preset smoke --output /tmp/run  # seconds, for a first look
  rlvr train algo.name=dapo train.steps=200    # another algorithm preset, one knob changed
  rlvr train my.yaml algo.kl_coef=0.01 rollout.group_size=8
  rlvr train --output runs/demo --resume       # continue after a crash
  rlvr train --list-keys                       # every config key with its default and meaning
"""


def register(sub) -> None:
    p = sub.add_parser("train", help="Train a policy with RL from verifiable rewards.",
                       description="Train a policy: sample G completions per prompt, verify each, reinforce.",
                       epilog=TRAIN_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("config", nargs="?", help="YAML config file (optional; the demo preset when omitted).")
    p.add_argument("overrides", nargs="*", metavar="key=value", help="Dotted overrides, e.g. algo.kl_coef=0.01.")
    p.add_argument("--preset", help="Run preset: demo (default with no config) or smoke (seconds).")
    p.add_argument("--output", help="Run directory (default runs/<name>).")
    p.add_argument("--resume", action="store_true", help="Continue from the run directory's latest checkpoint.")
    p.add_argument("--list-keys", action="store_true", help="Print every config key, its default and meaning.")
    p.set_defaults(handler=cmd_train)

    e = sub.add_parser("eval", help="Evaluate a model on a task's held-out set (pass@k, maj@k).",
                       description="Evaluate a Hugging Face model directory on the held-out split.")
    e.add_argument("--model", help="Model directory (a checkpoint or any local HF causal LM).")
    e.add_argument("--compare", nargs=2, metavar=("BASE_DIR", "TRAINED_DIR"),
                   help="Evaluate two models on the same problems and plot their pass@k curves together.")
    e.add_argument("--config", help="Config (task, reward) to evaluate under; default: the model's run config or the demo.")
    e.add_argument("--task", help="Task name override (e.g. arithmetic).")
    e.add_argument("--n", type=int, default=1, help="Samples per problem (default 1 = greedy pass@1).")
    e.add_argument("--k", default=None, help="Comma-separated k values for pass@k (default: powers of 2 up to n).")
    e.add_argument("--problems", type=int, default=None, help="Number of held-out problems (default eval.problems).")
    e.add_argument("--temperature", type=float, default=None, help="Sampling temperature (default 1.0 when n > 1, else 0).")
    e.add_argument("--output", help="Write the JSON (and plot, with --compare) here (a directory).")
    e.add_argument("overrides", nargs="*", metavar="key=value", help="Dotted config overrides.")
    e.set_defaults(handler=cmd_eval)

    c = sub.add_parser("compare", help="Run several algorithm presets on the same task and seeds, side by side.",
                       description="Train each algorithm preset for each seed, then write compare.md/json/html with "
                                   "held-out pass@1, length of correct vs wrong completions, entropy and zero-variance "
                                   "groups side by side.")
    c.add_argument("config", nargs="?", help="YAML config shared by every run (default: the demo preset).")
    c.add_argument("overrides", nargs="*", metavar="key=value", help="Dotted overrides shared by every run.")
    c.add_argument("--presets", default="grpo,dr_grpo,dapo", help="Comma-separated algorithm presets (default grpo,dr_grpo,dapo).")
    c.add_argument("--seeds", type=int, default=3, help="Number of seeds, 0..N-1 (default 3).")
    c.add_argument("--preset", help="Run preset for every run (demo or smoke; default demo with no config).")
    c.add_argument("--output", default="runs/compare", help="Directory for the runs and the comparison (default runs/compare).")
    c.set_defaults(handler=cmd_compare)


def cmd_train(args) -> int:
    from rlvr.config import describe, load_config

    if args.list_keys:
        for key, default, doc in describe():
            print(f"{key} = {default}\n    {doc}")
        return 0
    config, overrides = args.config, list(args.overrides)
    if config and "=" in config and not config.endswith((".yaml", ".yml", ".json")):
        overrides.insert(0, config)  # `rlvr train algo.x=1`: the first override landed in `config`
        config = None
    preset = args.preset or (None if config else "demo")
    if args.output:
        overrides.append(f"output={args.output}")
    cfg = load_config(config, preset=preset, overrides=overrides)
    from rlvr.train.loop import train

    train(cfg, resume=args.resume, log=lambda s: print(s, file=sys.stderr, flush=True))
    return 0


def _eval_config(args, model_dir: Path | None):
    from rlvr.config import config_from_dict, load_config

    overrides = list(args.overrides)
    if args.task:
        overrides.append(f"task.name={args.task}")
    if args.config:
        return load_config(args.config, overrides=overrides)
    run_cfg = None
    if model_dir is not None:
        for parent in [model_dir, *model_dir.parents][:4]:
            if (parent / "config.json").is_file() and (parent / "metrics.jsonl").is_file():
                run_cfg = json.loads((parent / "config.json").read_text())
                break
    if run_cfg is None:
        return load_config(preset="demo", overrides=overrides)
    cfg = config_from_dict(run_cfg)
    from rlvr.config import _merge, parse_override  # same override rules as `rlvr train`

    data = cfg.to_dict()
    for o in overrides:
        data = _merge(data, parse_override(o))
    return config_from_dict(data)


def cmd_eval(args) -> int:
    if not args.model and not args.compare:
        raise UserError("give --model DIR, or --compare BASE_DIR TRAINED_DIR")
    dirs = [Path(args.model)] if args.model else [Path(d) for d in args.compare]
    for d in dirs:
        if not (d / "config.json").is_file():
            raise UserError(f"'{d}' is not a Hugging Face model directory (no config.json)")
    cfg = _eval_config(args, dirs[-1])
    from rlvr.train.evaluation import run_eval

    result = run_eval(cfg, dirs, n=args.n, ks=args.k, problems=args.problems, temperature=args.temperature,
                      output=Path(args.output) if args.output else None)
    print(json.dumps(result, indent=2))
    return 0


def cmd_compare(args) -> int:
    from rlvr.algo.presets import PRESETS

    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    unknown = [p for p in presets if p not in PRESETS]
    if unknown or not presets:
        raise UserError(f"unknown preset(s) {unknown}; valid: {', '.join(PRESETS)}")
    if args.seeds < 1:
        raise UserError(f"--seeds must be >= 1, got {args.seeds}")
    config, overrides = args.config, list(args.overrides)
    if config and "=" in config and not config.endswith((".yaml", ".yml", ".json")):
        overrides.insert(0, config)
        config = None
    from rlvr.train.compare import run_all, write_outputs

    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    runs = run_all(config, args.preset or (None if config else "demo"), overrides, presets, list(range(args.seeds)), out, log)
    write_outputs(runs, out)
    print((out / "compare.md").read_text())
    print(f"written: {out / 'compare.md'}, {out / 'compare.json'}, {out / 'compare.html'}")
    return 0
