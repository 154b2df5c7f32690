"""`rlvr <command>`: the command-line entry point.

Each command group lives in ``rlvr.commands.<module>`` and exposes
``register(subparsers)``; commands import their heavy dependencies inside their
handlers so that ``rlvr --help`` and ``rlvr verify`` start fast and never need torch.
A handler returns an exit code. Errors meant for the user (``rlvr.errors.UserError``)
are printed as one line, without a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from rlvr import __version__
from rlvr.errors import UserError

# One module per command group; order is the order in `rlvr --help`.
COMMAND_MODULES = (
    "rlvr.commands.train",        # train
    "rlvr.commands.eval",         # eval
    "rlvr.commands.compare",      # compare
    "rlvr.commands.verify",       # verify, audit
    "rlvr.commands.scoreboard",   # scoreboard
    "rlvr.commands.algo",         # advantages
    "rlvr.commands.diagnostics",  # passk, report, calculator
    "rlvr.commands.data",         # data check
    "rlvr.commands.model",        # model fetch, model convert
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rlvr",
        description="Train language models with reinforcement learning from verifiable rewards.",
    )
    parser.add_argument("--version", action="version", version=f"rlvr {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # command group not present in this build
                continue
            raise
        module.register(sub)
    return parser


def parse(parser: argparse.ArgumentParser, argv: list[str] | None):
    """Parse ``argv``; ``key=value`` overrides may stand anywhere on the line, before or after
    options (argparse alone stops collecting a ``nargs="*"`` positional at the first option)."""
    args, extra = parser.parse_known_args(argv)
    overrides = [a for a in extra if "=" in a and not a.startswith("-")]
    unknown = [a for a in extra if a not in overrides]
    if overrides and not hasattr(args, "overrides"):
        unknown = extra
    if unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if overrides:
        args.overrides = [*(args.overrides or []), *overrides]
    return args


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parse(parser, argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except UserError as exc:
        print(f"rlvr {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"rlvr {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
