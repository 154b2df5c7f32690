"""`rlvr train`: train a policy from a preset, a YAML file and dotted overrides.

torch and transformers are imported inside the handler, so `rlvr --help` stays fast.
"""

from __future__ import annotations

import argparse
import sys

TRAIN_EPILOG = """examples:
  rlvr train                                   # the demo: tiny model learns arithmetic on CPU
  rlvr train --preset smoke --output /tmp/run  # seconds, for a first look
  rlvr train --preset smollm                   # a real model (SmolLM2-135M-Instruct) learns on CPU
  rlvr train algo.name=dapo train.steps=200    # another algorithm preset, one knob changed
  rlvr train my.yaml algo.kl_coef=0.01 rollout.group_size=8
  rlvr train --output runs/demo --resume       # continue after a crash
  rlvr train --output runs/demo --overwrite    # replace the run there (an occupied --output is refused)
  rlvr train reward.verifier=my_rewards:score  # your own reward function (module:function)
  rlvr train --list-keys                       # every config key with its default and meaning
"""


def register(sub) -> None:
    p = sub.add_parser("train", help="Train a policy with RL from verifiable rewards.",
                       description="Train a policy: sample G completions per prompt, verify each, reinforce.",
                       epilog=TRAIN_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("config", nargs="?", help="YAML config file (optional; the demo preset when omitted).")
    p.add_argument("overrides", nargs="*", metavar="key=value", help="Dotted overrides, e.g. algo.kl_coef=0.01.")
    p.add_argument("--preset", help="Run preset: demo (default with no config), smoke (seconds) or smollm "
                                    "(a real pretrained model on CPU).")
    p.add_argument("--output", help="Run directory (default runs/<name>).")
    p.add_argument("--resume", action="store_true", help="Continue from the run directory's newest intact checkpoint.")
    p.add_argument("--overwrite", action="store_true",
                   help="Replace the run already in the output directory (without it an occupied --output is "
                        "refused, and the default runs/<name> moves on to runs/<name>-2, -3, ...).")
    p.add_argument("--list-keys", action="store_true", help="Print every config key, its default and meaning.")
    p.set_defaults(handler=cmd_train)


def split_config(config: str | None, overrides: list[str]) -> tuple[str | None, list[str]]:
    """`rlvr train algo.x=1`: the first override lands in the optional `config` positional."""
    overrides = list(overrides)
    if config and "=" in config and not config.endswith((".yaml", ".yml", ".json")):
        return None, [config, *overrides]
    return config, overrides


def cmd_train(args) -> int:
    from rlvr.config import describe, load_config

    if args.list_keys:
        for key, default, doc in describe():
            print(f"{key} = {default}\n    {doc}")
        return 0
    config, overrides = split_config(args.config, args.overrides)
    preset = args.preset or (None if config else "demo")
    if args.output:
        overrides.append(f"output={args.output}")
    cfg = load_config(config, preset=preset, overrides=overrides)
    from rlvr.train.loop import train

    train(cfg, resume=args.resume, overwrite=args.overwrite, log=lambda s: print(s, file=sys.stderr, flush=True))
    return 0
