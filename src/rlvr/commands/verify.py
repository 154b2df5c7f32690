"""`rlvr verify` and `rlvr audit`: verifiers from the command line.

``rlvr verify`` reads JSONL on stdin, one object per line:
``{"id", "verifier": "math|exact|format|code|proof|<composite spec>", "completion", ...}``
plus the fields that verifier needs (``answer``; ``tests``/``io_tests``/``hidden_tests``;
``statement``), and writes one line per input, in input order:
``{"id", "reward", "status", "detail"}`` (and ``info`` when the verifier returns any).
A bad line (invalid JSON, missing field, unknown verifier, malformed spec) never stops the stream: its
output line has status ``error`` and a detail naming the line number.

``rlvr audit --verifier NAME CASES.jsonl`` grades rows labelled ``expected`` (0, 1, true or false) and
prints precision, recall, accuracy, the false positives (the rows a precision-first
verifier must not have), the false negatives, and latency p50/p99. Math-Verify's case
file (``gold``/``pred``) is recognised; other layouts take ``--fields answer=gold,completion=pred``.

Deliberately light: neither command imports torch, and the verifier modules load in the
worker processes, so start-up is that of a small Python program.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, BinaryIO

from rlvr.errors import UserError

RESERVED = ("id", "verifier", "completion", "answer", "prompt")


def register(subparsers: Any) -> None:
    from rlvr.verifiers.registry import VERIFIERS  # light: names and module strings only

    names = "; ".join(f"{name}: {entry.summary}" for name, entry in sorted(VERIFIERS.items()))
    verify = subparsers.add_parser(
        "verify", help="verify completions read as JSONL on stdin",
        description="Read JSONL on stdin ({id, verifier, completion, answer|tests|statement, ...}); "
                    "write {id, reward, status, detail} per line, in order. Verifiers: " + names +
                    '; or a composite spec such as {"composite": {"exact": 1.0, "format": 0.1}, "gated": false}.')
    _pool_arguments(verify)
    verify.add_argument("--verifier", default=None,
                        help="verifier for lines without a 'verifier' field (name or JSON composite spec)")
    verify.add_argument("--block", type=int, default=4096, help="lines verified per batch (default 4096)")
    verify.set_defaults(handler=run_verify)

    audit = subparsers.add_parser(
        "audit", help="measure a verifier against labelled cases",
        description="Grade rows labelled 'expected' (1/0); print precision, recall, accuracy, "
                    "false positives and latency.")
    audit.add_argument("cases", help="JSONL file of labelled rows")
    audit.add_argument("--verifier", required=True, help="verifier name or JSON composite spec")
    audit.add_argument("--fields", default=None,
                       help="map rlvr fields to the file's columns, e.g. answer=gold,completion=pred "
                            "(detected for Math-Verify's gold/pred files)")
    audit.add_argument("--show", type=int, default=50, help="most false positives/negatives listed (default 50)")
    audit.add_argument("--compare", choices=["math-verify"], default=None,
                       help="also grade every row with plain Math-Verify and list the rows where it and the "
                            "verifier disagree, for labelling (rows need no 'expected' label then)")
    audit.add_argument("--write", default=None,
                       help="with --compare: write the disagreeing rows, with both verdicts, to this JSONL file")
    _pool_arguments(audit)
    audit.set_defaults(handler=run_audit)


def _pool_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=int, default=2,
                        help="worker processes; 0 = in-process, no timeout (default 2)")
    parser.add_argument("--timeout", type=float, default=None,
                        help=f"per-item timeout in seconds (default {DEFAULT_TIMEOUT_S:g}, or the verifier's own "
                             "sandbox limit plus start-up when that is longer: code, proof)")


DEFAULT_TIMEOUT_S = 3.0


def default_timeout(specs: Iterable[Any]) -> float:
    """The default per-item timeout for these verifier specs: never below a verifier's own limit."""
    from rlvr.verifiers.pool import own_time_limit

    return max(DEFAULT_TIMEOUT_S, own_time_limit(specs))


def _bad_pool_arguments(args: argparse.Namespace) -> bool:
    return args.workers < 0 or (args.timeout is not None and args.timeout <= 0)


# ------------------------------------------------------------------ line parsing


class LineError(Exception):
    """A line that cannot be verified; the message is the output's detail."""


def _missing_fields(spec: Any, row: dict) -> str:
    from rlvr.verifiers.registry import get_verifier

    names = [spec.name] if hasattr(spec, "name") else [n for n, _ in getattr(spec, "parts", ())]
    for name in names:
        for group in get_verifier(name).requires:
            if not any(row.get(f) is not None for f in group):
                return f"verifier {name!r} needs field {' or '.join(map(repr, group))}"
    return ""


def build_verifier(spec: Any) -> Any:
    """The verifier a spec names, or LineError saying what is wrong with the spec: an unknown
    name, a malformed spec (a weight that is no number, a bad option), a weight that is not
    finite (a reward of inf or NaN is no reward, and no JSON either)."""
    from rlvr.verifiers.composite import as_verifier
    from rlvr.verifiers.registry import UnknownVerifierError

    spec_text = spec if isinstance(spec, str) else json.dumps(spec)
    try:
        verifier = as_verifier(spec)
    except UnknownVerifierError as exc:
        raise LineError(str(exc)) from None
    except Exception as exc:
        raise LineError(f"bad verifier spec {spec_text[:200]}: {type(exc).__name__}: {exc}") from None
    for name, weight in getattr(verifier, "parts", ()):
        if not math.isfinite(weight):
            raise LineError(f"composite weight of {name!r} must be a finite number, got {weight}")
    return verifier


def _default_verifier(spec: str | None) -> None:
    """A --verifier flag is checked before any line is read: its error names the flag."""
    if spec is not None:
        try:
            build_verifier(spec)
        except LineError as exc:
            raise UserError(f"--verifier: {exc}") from None


def row_to_sample(row: Any, lineno: int, default_verifier: str | None) -> tuple[Any, str, Any]:
    """(id, completion, Sample) from one decoded line, or raise LineError."""
    from rlvr.types import Sample

    if not isinstance(row, dict):
        raise LineError(f"line {lineno}: expected a JSON object, got {type(row).__name__}")
    spec = row.get("verifier") if row.get("verifier") is not None else default_verifier
    if spec is None:
        raise LineError(f"line {lineno}: no 'verifier' field and no --verifier default")
    spec_text = spec if isinstance(spec, str) else json.dumps(spec)
    try:
        verifier = build_verifier(spec)
    except LineError as exc:
        raise LineError(f"line {lineno}: {exc}") from None
    completion = row.get("completion")
    if not isinstance(completion, str):
        raise LineError(f"line {lineno}: missing field 'completion' (a string)")
    missing = _missing_fields(verifier, row)
    if missing:
        raise LineError(f"line {lineno}: {missing}")
    answer = row.get("answer")
    fields = {k: v for k, v in row.items() if k not in RESERVED}
    sample = Sample(id=str(row.get("id", lineno)), prompt=str(row.get("prompt") or ""),
                    answer=None if answer is None else str(answer), fields=fields, verifier=spec_text)
    return row.get("id", lineno), completion, sample


def _decode(line: str, lineno: int, default_verifier: str | None) -> tuple[Any, str, Any]:
    if line.startswith("\x00not UTF-8"):
        raise LineError(f"line {lineno}: {line[1:]}")
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        raise LineError(f"line {lineno}: invalid JSON: {exc}") from None
    except RecursionError:
        raise LineError(f"line {lineno}: JSON nested too deeply to read; a line may nest at most "
                        f"{MAX_DEPTH} levels") from None
    if _depth(row) > MAX_DEPTH:  # pickling it to a worker or hashing it would overflow the stack
        raise LineError(f"line {lineno}: JSON nested more than {MAX_DEPTH} levels deep; a line may nest at most "
                        f"{MAX_DEPTH} levels")
    return row_to_sample(row, lineno, default_verifier)


MAX_DEPTH = 100


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in a decoded JSON value (counted without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, level)
        if level > MAX_DEPTH:
            break
        stack.extend((child, level + 1) for child in children)
    return deepest


# ---------------------------------------------------------------------- verify


def _blocks(stream: BinaryIO, size: int) -> Iterable[list[tuple[int, str]]]:
    """Non-blank lines in blocks of ``size``, as (line number, text); a line that is not
    UTF-8 becomes text that fails JSON decoding with a message naming the problem."""
    block: list[tuple[int, str]] = []
    for lineno, raw in enumerate(stream, start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = f"\x00not UTF-8: {exc}"
        if not line.strip():
            continue
        block.append((lineno, line))
        if len(block) >= size:
            yield block
            block = []
    if block:
        yield block


def _row_id(line: str, lineno: int) -> Any:
    try:
        row = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        return lineno
    return row.get("id", lineno) if isinstance(row, dict) else lineno


def _verify_block(pool_box: list, block: list[tuple[int, str]], args: argparse.Namespace) -> list[dict]:
    from rlvr.verifiers.composite import Router
    from rlvr.verifiers.pool import VerifierPool

    out: list[dict | None] = [None] * len(block)
    todo: list[tuple[int, Any, str, Any]] = []
    for j, (lineno, line) in enumerate(block):
        try:
            row_id, completion, sample = _decode(line, lineno, args.verifier)
            todo.append((j, row_id, completion, sample))
        except Exception as exc:  # any bad line becomes its own error row; the stream goes on
            detail = str(exc) if isinstance(exc, LineError) else f"line {lineno}: {type(exc).__name__}: {exc}"
            out[j] = {"id": _row_id(line, lineno), "reward": 0.0, "status": "error", "detail": detail}
            args.bad_lines = getattr(args, "bad_lines", 0) + 1
    specs = {s.verifier for _, _, _, s in todo if s.verifier}
    timeout = args.timeout if args.timeout is not None else default_timeout(specs)
    if todo and not pool_box:
        warm = tuple(sorted(specs))[:8]
        pool_box.append(VerifierPool(Router(default=None, warm=warm), workers=args.workers, timeout_s=timeout))
    elif pool_box and timeout > pool_box[0].timeout_s:  # a later block names a slower verifier
        pool_box[0].timeout_s = timeout
    verdicts = pool_box[0].map([t[2] for t in todo], [t[3] for t in todo]) if todo else []
    for (j, row_id, _, _), verdict in zip(todo, verdicts):
        out[j] = {"id": row_id, **verdict.to_json()}
    return out  # type: ignore[return-value]


def run_verify(args: argparse.Namespace) -> int:
    if _bad_pool_arguments(args) or args.block < 1:
        raise UserError("--workers must be >= 0, --timeout > 0 and --block >= 1")
    _default_verifier(args.verifier)
    pool_box: list = []
    try:
        for block in _blocks(sys.stdin.buffer, args.block):
            for record in _verify_block(pool_box, block, args):
                sys.stdout.write(json.dumps(record) + "\n")
            sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    finally:
        stats = pool_box[0].stats() if pool_box else {}
        if pool_box:
            pool_box[0].close()
        stats["bad_lines"] = getattr(args, "bad_lines", 0)
        print("rlvr verify: " + " ".join(f"{k}={v}" for k, v in stats.items()), file=sys.stderr)
    return 0


# ----------------------------------------------------------------------- audit


def parse_field_map(text: str | None, first_row: dict) -> dict[str, str]:
    """rlvr field -> column; detects Math-Verify's gold/pred layout when not given."""
    if text:
        mapping = {}
        for item in text.split(","):
            if "=" not in item:
                raise UserError(f"--fields item {item!r} is not NAME=COLUMN (e.g. answer=gold,completion=pred)")
            key, column = (part.strip() for part in item.split("=", 1))
            mapping[key] = column
        return mapping
    if "completion" not in first_row and {"gold", "pred"} <= set(first_row):
        return {"answer": "gold", "completion": "pred"}
    return {}


def _load_cases(path: str, fields: str | None, need_labels: bool = True) -> list[dict]:
    from rlvr.tasks.dataset import read_jsonl

    try:
        read = list(read_jsonl(Path(path)))
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8: {exc}") from None
    rows, wheres = [r.data for r in read], [r.where for r in read]
    if not rows:
        raise UserError(f"{path} has no rows")
    mapping = parse_field_map(fields, rows[0])
    for where, row in zip(wheres, rows):
        for key, column in mapping.items():
            if column not in row:
                raise UserError(f"{where}: no column {column!r} (mapped to {key!r})")
            row[key] = row[column]
        if "expected" in row:
            row["expected"] = parse_label(row["expected"], where)
        elif need_labels:
            raise UserError(f"{where}: no 'expected' label (1 = correct, 0 = incorrect)")
    return rows


_LABELS = {"0": 0, "1": 1, "false": 0, "true": 1}


def parse_label(value: Any, where: str) -> int:
    """1 or 0 from a label written 0, 1, true or false (JSON or a string of one); anything else
    ("no", 2, 0.5, null) is a UserError naming ``where``: a label is never read by truthiness."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)) and value in (0, 1):
        return int(value)
    if isinstance(value, str) and value.strip().lower() in _LABELS:
        return _LABELS[value.strip().lower()]
    raise UserError(f"{where}: label 'expected' must be 0, 1, true or false, got {json.dumps(value)[:60]}")


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def audit_rows(rows: list[dict], verifier: str, workers: int, timeout: float) -> list[dict]:
    """Each row with ``got`` (1 when status ok), ``status``, ``detail`` and ``latency_s``."""
    from rlvr.verifiers.pool import VerifierPool

    samples, completions = [], []
    for i, row in enumerate(rows, start=1):
        row = {k: v for k, v in row.items() if k != "verifier"}
        try:
            _, completion, sample = row_to_sample(row, i, verifier)
        except LineError as exc:
            raise UserError(str(exc)) from None
        completions.append(completion)
        samples.append(sample)
    with VerifierPool(verifier, workers=workers, timeout_s=timeout) as pool:
        verdicts, latency = pool.map_timed(completions, samples)
    return [{**row, "got": int(v.status == "ok"), "status": v.status, "detail": v.detail, "latency_s": t}
            for row, v, t in zip(rows, verdicts, latency)]


def _print_rows(title: str, rows: list[dict], limit: int) -> None:
    print(f"\n{title} ({len(rows)}):")
    for row in rows[:limit]:
        print(f"  - {row.get('id', '?')}: answer={str(row.get('answer'))[:80]!r} "
              f"completion={str(row.get('completion'))[-120:]!r} -> {row['status']}: {row['detail'][:160]}")
    if len(rows) > limit:
        print(f"  ... {len(rows) - limit} more")


def run_audit(args: argparse.Namespace) -> int:
    if _bad_pool_arguments(args):
        raise UserError("--workers must be >= 0 and --timeout > 0")
    if args.write and not args.compare:
        raise UserError("--write goes with --compare math-verify")
    _default_verifier(args.verifier)
    timeout = args.timeout if args.timeout is not None else default_timeout([args.verifier])
    graded = audit_rows(_load_cases(args.cases, args.fields, need_labels=not args.compare), args.verifier,
                        args.workers, timeout)
    labelled = [r for r in graded if "expected" in r]
    print(f"verifier {args.verifier} on {args.cases}: {len(graded)} rows" +
          (f", {len(labelled)} labelled" if len(labelled) < len(graded) else ""))
    if labelled:
        _print_figures(labelled, args.show)
    if args.compare:
        _print_comparison(graded, args, timeout)
    return 0


def _print_figures(graded: list[dict], show: int) -> None:
    tp = sum(1 for r in graded if r["got"] and r["expected"])
    fp_rows = [r for r in graded if r["got"] and not r["expected"]]
    fn_rows = [r for r in graded if not r["got"] and r["expected"]]
    n = len(graded)
    agree = n - len(fp_rows) - len(fn_rows)
    precision = tp / (tp + len(fp_rows)) if tp + len(fp_rows) else 1.0
    recall = tp / (tp + len(fn_rows)) if tp + len(fn_rows) else 1.0
    timed = [r["latency_s"] * 1000 for r in graded if r["latency_s"] > 0]
    statuses: dict[str, int] = {}
    for r in graded:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    print(f"agreement {agree}/{n}  accuracy {agree / n:.4f}  precision {precision:.4f}  recall {recall:.4f}")
    print(f"false positives {len(fp_rows)}  false negatives {len(fn_rows)}  statuses {statuses}")
    print(f"latency p50 {_percentile(timed, 0.5):.2f} ms  p99 {_percentile(timed, 0.99):.2f} ms"
          f"  (over {len(timed)} verified rows)")
    _print_rows("false positives", fp_rows, show)
    _print_rows("false negatives", fn_rows, show)


def _print_comparison(graded: list[dict], args: argparse.Namespace, timeout: float) -> None:
    """The rows where the verifier and plain Math-Verify disagree, for labelling."""
    from rlvr.commands.scoreboard import MATH_VERIFY, grade

    rows = [{"reference": "" if r.get("answer") is None else str(r["answer"]), "completion": r["completion"]}
            for r in graded]
    theirs = grade(MATH_VERIFY, rows, args.workers, timeout)
    differ = []
    for i, (row, mv) in enumerate(zip(graded, theirs), start=1):
        if bool(row["got"]) != (mv.status == "ok"):
            differ.append({**{k: v for k, v in row.items() if k not in ("got", "latency_s")}, "id": row.get("id", i),
                           "mv_status": mv.status, "mv_detail": mv.detail})
    ours_only = sum(1 for d in differ if d["status"] == "ok")
    print(f"\n{args.verifier} and math-verify disagree on {len(differ)} of {len(graded)} rows "
          f"({args.verifier} accepts, math-verify does not: {ours_only}; "
          f"math-verify accepts, {args.verifier} does not: {len(differ) - ours_only})")
    for d in differ[:args.show]:
        label = f" expected={d['expected']}" if "expected" in d else ""
        print(f"  - {d['id']}:{label} answer={str(d.get('answer'))[:60]!r} completion={str(d['completion'])[-100:]!r}"
              f"\n      {args.verifier}: {d['status']}: {d['detail'][:140]}\n      math-verify: {d['mv_status']}: "
              f"{d['mv_detail'][:140]}")
    if len(differ) > args.show:
        print(f"  ... {len(differ) - args.show} more")
    if args.write:
        with open(args.write, "w", encoding="utf-8") as fh:
            for d in differ:
                fh.write(json.dumps(d, ensure_ascii=False) + "\n")
        print(f"wrote {len(differ)} rows to {args.write}")
