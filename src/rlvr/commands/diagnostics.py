"""`rlvr passk`, `rlvr report` and `rlvr calculator`.

    rlvr passk --n 10 --c 3 --k 1,5,10      {"1": 0.3, "5": 0.9166666666666666, "10": 1.0}
    rlvr report runs/demo                    writes runs/demo/report.html
    rlvr calculator --output calc.html       writes the group-advantage calculator page

``passk`` prints the unbiased pass@k estimate for one problem with n samples, c correct,
as JSON keyed by k. Nothing here imports torch.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rlvr.errors import UserError


def _parse_ks(text: str) -> list[int]:
    try:
        ks = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise UserError(f"--k must be comma-separated integers (example: 1,4,16); got {text!r}") from None
    if not ks:
        raise UserError("--k is empty; give comma-separated integers (example: 1,4,16)")
    return ks


def run_passk(args: argparse.Namespace) -> int:
    from rlvr.diagnostics.passk import pass_at_k

    ks = _parse_ks(args.k)
    if args.n < 1 or not 0 <= args.c <= args.n:
        raise UserError(f"need n >= 1 and 0 <= c <= n; got n={args.n}, c={args.c}")
    bad = [k for k in ks if not 1 <= k <= args.n]
    if bad:
        raise UserError(f"every k must be in [1, n={args.n}] (pass@k needs at least k samples); got k={bad[0]}")
    print(json.dumps({str(k): pass_at_k(args.n, args.c, k) for k in ks}))
    return 0


def run_report(args: argparse.Namespace) -> int:
    from rlvr.report.html import write_report

    run_dir = Path(args.run_dir)
    if not run_dir.is_dir():
        raise UserError(f"{run_dir} is not a run directory (expected metrics.jsonl, summary.json, ... inside)")
    path = write_report(run_dir, Path(args.output) if args.output else None)
    print(path)
    return 0


def run_calculator(args: argparse.Namespace) -> int:
    from rlvr.report.calculator import write_calculator

    path = write_calculator(Path(args.output), open_browser=args.open)
    print(path)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("passk", help="unbiased pass@k for n samples with c correct",
                       description="Print the unbiased pass@k estimate 1 - C(n-c,k)/C(n,k) as JSON keyed by k.")
    p.add_argument("--n", type=int, required=True, help="samples drawn for the problem")
    p.add_argument("--c", type=int, required=True, help="how many of them are correct")
    p.add_argument("--k", default="1", help="comma-separated k values (default: 1)")
    p.set_defaults(handler=run_passk)

    p = sub.add_parser("report", help="write RUN_DIR/report.html (plots, samples, alarms)",
                       description="Write a self-contained HTML report of a run directory; it opens offline.")
    p.add_argument("run_dir", metavar="RUN_DIR", help="the run directory (runs/<name>)")
    p.add_argument("--output", help="where to write the page (default: RUN_DIR/report.html)")
    p.set_defaults(handler=run_report)

    p = sub.add_parser("calculator", help="write the group-advantage calculator page",
                       description="Write a self-contained HTML page where you flip rollout verdicts and watch "
                                   "GRPO / Dr. GRPO advantages and per-token weights recompute.")
    p.add_argument("--output", default="rlvr-calculator.html", help="file to write (default: rlvr-calculator.html)")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.set_defaults(handler=run_calculator)
