"""`rlvr data check`: eval problems that also occur in the training data.

    rlvr data check --train data/train.jsonl --eval data/test.jsonl --fields question
    rlvr data check --train train.parquet --eval test.parquet --ngram 8 --json

Compares the named columns (joined by a newline; default ``prompt``) of every eval row
against every training row: exact match after normalisation (case, whitespace,
punctuation) and shared runs of ``--ngram`` words (``rlvr.tasks.contamination``).
Prints a table (or ``--json``) and exits 1 when any eval problem is contaminated, 0 when
none is, 2 on bad input (a missing file or column, named with its file and line).
`rlvr train` runs the same check on a dataset task's own train/eval pair.
Nothing here imports torch.
"""

from __future__ import annotations

import argparse
import json

from rlvr.errors import DataError, UserError


def register(sub) -> None:
    data = sub.add_parser("data", help="Dataset tools: contamination check.",
                          description="Dataset tools.")
    dsub = data.add_subparsers(dest="data_command", metavar="SUBCOMMAND")
    p = dsub.add_parser("check", help="Report eval problems that also occur in the training data.",
                        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--train", required=True, help="Training file (JSONL, Parquet or a datasets directory).")
    p.add_argument("--eval", required=True, dest="eval_path", metavar="EVAL", help="Held-out file, same formats.")
    p.add_argument("--fields", default="prompt",
                   help="Comma-separated columns compared, joined by a newline (default: prompt).")
    p.add_argument("--ngram", type=int, default=13, help="Words in a shared run that counts as overlap (default 13).")
    p.add_argument("--json", action="store_true", help="Print the summary as JSON instead of a table.")
    p.add_argument("--show", type=int, default=20, help="Overlaps listed in the table (default 20; JSON lists all).")
    p.set_defaults(handler=run_check)
    data.set_defaults(handler=lambda args: (data.print_help(), 2)[1])


def row_texts(rows, columns: list[str]) -> list[str]:
    """One comparison text per row; a row without a column raises with its file and line."""
    out = []
    for row in rows:
        parts = []
        for col in columns:
            v = row.data.get(col)
            if v is None:
                raise DataError(f"{row.where}: missing column {col!r} (--fields {','.join(columns)}); "
                                f"columns here: {', '.join(sorted(row.data))}")
            parts.append(v if isinstance(v, str) else json.dumps(v, sort_keys=True))
        out.append("\n".join(parts))
    return out


def check_files(train: str, eval_path: str, columns: list[str], ngram: int) -> dict:
    from rlvr.tasks.contamination import find_overlaps
    from rlvr.tasks.dataset import read_rows

    train_rows, eval_rows = read_rows(train), read_rows(eval_path)
    overlaps = find_overlaps(row_texts(train_rows, columns), row_texts(eval_rows, columns), ngram=ngram)
    return {
        "train": str(train), "eval": str(eval_path), "fields": columns, "ngram": ngram,
        "train_rows": len(train_rows), "eval_rows": len(eval_rows),
        "contaminated": len(overlaps),
        "exact": sum(o.kind == "exact" for o in overlaps),
        "ngram_only": sum(o.kind == "ngram" for o in overlaps),
        "overlaps": [{"eval": eval_rows[o.eval_index].where, "train": train_rows[o.train_index].where,
                      "kind": o.kind, "shared": o.shared} for o in overlaps],
    }


def format_table(summary: dict, show: int) -> str:
    n, total = summary["contaminated"], summary["eval_rows"]
    lines = [f"contamination check: {n} of {total} eval problems occur in the training data "
             f"(exact {summary['exact']}, {summary['ngram']}-word overlap {summary['ngram_only']}); "
             f"compared {', '.join(summary['fields'])} against {summary['train_rows']} training rows"]
    if not n:
        return lines[0]
    rows = [(o["eval"], o["kind"], o["train"], o["shared"][:60]) for o in summary["overlaps"][:show]]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(("eval", "kind", "train"))]
    lines.append(f"  {'eval':<{widths[0]}}  {'kind':<{widths[1]}}  {'train':<{widths[2]}}  shared")
    for r in rows:
        lines.append(f"  {r[0]:<{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]:<{widths[2]}}  {r[3]}")
    if n > show:
        lines.append(f"  ... and {n - show} more (--json lists all)")
    return "\n".join(lines)


def run_check(args: argparse.Namespace) -> int:
    columns = [c.strip() for c in args.fields.split(",") if c.strip()]
    if not columns:
        raise UserError("--fields is empty; give comma-separated column names (example: question)")
    if args.ngram < 1:
        raise UserError(f"--ngram must be >= 1, got {args.ngram}")
    summary = check_files(args.train, args.eval_path, columns, args.ngram)
    print(json.dumps(summary, indent=2) if args.json else format_table(summary, args.show))
    return 1 if summary["contaminated"] else 0
