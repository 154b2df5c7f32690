"""`rlvr advantages`: the group-advantage calculator on the command line.

    rlvr advantages --rewards 1,1,1,0,0,0,0,0 --estimator grpo
    {"advantages": [1.291, 1.291, 1.291, -0.7746, ...], "estimator": "grpo", ...}

Rewards are split into consecutive groups of ``--group-size`` (default: one group of all of
them). ``reinforce_pp`` (REINFORCE++-baseline) subtracts each group's mean and then
normalises over all the rewards given, the whole batch. Prints one JSON object, values
rounded to 4 decimals. torch is imported only when the command runs, so ``rlvr --help``
stays fast. Not here: ``gae`` (it needs a critic's values).
"""

from __future__ import annotations

import argparse
import json

from rlvr.errors import UserError

ESTIMATORS = ("grpo", "dr_grpo", "rloo", "reinforce", "reinforce_pp")


def _parse_rewards(text: str) -> list[float]:
    try:
        rewards = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise UserError(f"--rewards must be comma-separated numbers (example: 1,1,1,0,0,0,0,0); got {text!r}") from None
    if not rewards:
        raise UserError("--rewards is empty; give comma-separated numbers (example: 1,1,1,0,0,0,0,0)")
    return rewards


def _round(x: float) -> float:
    return round(x, 4) + 0.0  # + 0.0 turns -0.0 into 0.0


def run_advantages(args: argparse.Namespace) -> int:
    import torch

    from rlvr.algo import group_advantages

    rewards = _parse_rewards(args.rewards)
    size = args.group_size or len(rewards)
    if size < 1 or len(rewards) % size:
        raise UserError(f"--group-size {size} does not divide the {len(rewards)} rewards into whole groups")
    group_ids = torch.arange(len(rewards)) // size
    try:
        adv = group_advantages(torch.tensor(rewards, dtype=torch.float64), group_ids, args.estimator,
                               std=args.std, eps=args.eps, scope=args.scope, baseline=args.baseline)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    out = {
        "advantages": [_round(a) for a in adv.tolist()],
        "estimator": args.estimator,
        "rewards": rewards,
        "group_size": size,
        "std": args.std,
        "eps": args.eps,
        "scope": args.scope,
        "baseline": args.baseline,
    }
    print(json.dumps(out))
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "advantages",
        help="compute group advantages for a list of rewards",
        description="Compute per-completion advantages from rewards, as the trainer does.",
    )
    p.add_argument("--rewards", required=True, help="comma-separated rewards, e.g. 1,1,1,0,0,0,0,0")
    p.add_argument("--estimator", default="grpo", choices=ESTIMATORS, help="advantage estimator (default grpo)")
    p.add_argument("--std", default="population", choices=("population", "unbiased"), help="grpo: std divisor G or G-1")
    p.add_argument("--group-size", type=int, default=0, help="completions per prompt; 0 = all rewards form one group")
    p.add_argument("--eps", type=float, default=1e-6, help="grpo, reinforce_pp: epsilon added to the std")
    p.add_argument("--scope", default="group", choices=("group", "batch"), help="grpo: std per group or over the batch")
    p.add_argument("--baseline", default="none", choices=("none", "batch_mean"), help="reinforce: baseline")
    p.set_defaults(handler=run_advantages)
