"""`rlvr scoreboard`: both sides of the math and exact verifiers in one report.

Precision: every adversarial table of ``tests/verifiers`` (rows ``(family, reference,
completion, math, exact)``), its must-be-0 rows split by kind — ``wrong_value`` (the answer
contradicts the reference), ``misreading`` (the value read is not the value written: a dropped
multiplier, unit or percent), ``cover`` (one completion that could be paid for several values),
``disowned`` (the right value, stated and then disowned) and ``hedged`` (one value stated with a
hedge, a bound or a negation), the last two measured — with the number of rows paid.
A table declares the kind of each family in a module dict ``FAMILY_KIND``; the two tables
written before that convention are classified here (``OLD_FAMILY_KIND``).

Recall: the corpus of real, graded model outputs in ``tests/data/math_recall`` (one gzipped
JSONL per source, built by ``bench/build_math_recall.py``), per source and per format family,
over the rows that carry a final-answer marker and, apart, the unmarked ones; and how often
an output the source grades incorrect is paid.

Math-Verify 0.9.0, used plainly (``verify(parse(reference), parse(completion))``, its default
extraction), is graded on the same rows, and every row where it and ``math`` disagree goes
to a JSONL file (``--disagreements``) with a count on screen.

The tables and the corpus live in the repository's ``tests/``: the command is run from a
checkout (``--tables`` / ``--corpus`` name other places). Verification runs in the verifier
pool (``--workers``).
"""

from __future__ import annotations

import argparse
import ast
import gzip
import importlib.util
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from rlvr.errors import UserError
from rlvr.types import Sample, Verdict

TABLE_FILES = ("test_math_adversarial.py", "math_redteam_rows.py", "math_*_rows.py")  # patterns, in this order
# must be 0: wrong_value, misreading (the value read is not the value written), cover; measured: disowned,
# hedged (one value stated with a hedge, a bound or a negation)
KINDS = ("wrong_value", "misreading", "cover", "disowned", "hedged")

# The kind of each must-be-0 family of the two tables that predate FAMILY_KIND. A family is
# classified by what most of its rows do; "correct" families hold true equivalences only.
OLD_FAMILY_KIND = {
    # tests/verifiers/test_math_adversarial.py
    "factorial": "wrong_value", "prose": "cover", "relation": "disowned", "self_correction": "cover",
    "deleted_text": "wrong_value", "juxtaposed": "wrong_value", "malformed_number": "wrong_value",
    "tiny_decimal": "wrong_value", "unterminated_think": "disowned", "several_answers": "cover",
    "equivalence": "wrong_value", "model_style": "wrong_value", "box_sentence": "cover",
    "lead_in": "disowned", "unmarked_sentence": "disowned",
    # tests/verifiers/math_redteam_rows.py
    "unicode": "disowned", "latex_trick": "wrong_value", "answer_tag": "cover",
    "checked_computation": "disowned", "collection": "cover", "injection": "cover",
    "markdown": "disowned", "number_form": "wrong_value", "sign": "wrong_value",
    "text_answer": "wrong_value", "think_eos": "disowned",
}

# ------------------------------------------------------------------ format families

FAMILIES = ("answer_tag", "final_answer_label", "boxed", "answer_is", "hash", "answer_line", "json_answer", "unmarked")
MARKED = FAMILIES[:-1]

_MARKERS = {
    "answer_tag": re.compile(r"<(answer|solution)>.*?</\1>", re.S),  # and the tag agent benchmarks ask for
    "boxed": re.compile(r"\\(?:boxed|fbox)\s*\{"),
    "answer_is": re.compile(r"\banswer(?:\s+(?:to|for)\s+(?:this|the|that|our|my)\s+(?:original\s+)?"
                            r"(?:question|problem|exercise|task))?\s+is\b"  # and as MGSM's exemplars in ten languages
                            r"|答案是|答えは|\bОтвет\s*[—–:-]|\bDie\s+Antwort\s+(?:ist|lautet)\b|\bLa\s+respuesta\s+es\b"
                            r"|\bLa\s+réponse\s+est\b|\bJibu\s+ni\b|คำตอบคือ|উত্তর\s+হল|సమాధానం", re.I),
    "hash": re.compile(r"^[ \t]*####[ \t]*(?=[-+$\\\d(.])", re.M),  # a value, not a heading "#### Case 1"
    "answer_line": re.compile(r"^[ \t]*(?:>>[ \t]*)?(?:(?:\*\*)?(?:final\s+)?(?:answer|a)\s*(?:\*\*)?\s*:(?:\*\*)?"
                              r"|【答案】|答案\s*[:：])", re.I | re.M),  # and the Chinese answer label
    "json_answer": re.compile(r'"answer"\s*:'),  # a JSON object's answer key
}
_LABEL = re.compile(r"^[ \t]*(?:#{1,6}[ \t]*|\*\*)?final[ \t]+answer\b", re.I | re.M)


def format_family(completion: str) -> str:
    """The format family of a completion, by its last final-answer marker: an ``<answer>``
    (or ``<solution>``) tag, a "Final Answer" label or heading with the last box at most three lines below it
    (inline, or display math on its own lines), a box, "the answer is" (or as MGSM's
    exemplars translate it: 答案是, Ответ —, La réponse est, ...), ``####``, an ``Answer:`` /
    ``A:`` / ``【答案】`` line (``>> FINAL ANSWER:`` too), a JSON object's ``"answer":`` key; ``unmarked`` when none."""
    last = {}
    for name, pattern in _MARKERS.items():
        hits = list(pattern.finditer(completion))
        if hits:
            last[name] = hits[-1].start()
    if not last:
        return "unmarked"
    family = max(last, key=last.get)
    if family == "boxed":
        label = [m for m in _LABEL.finditer(completion) if m.end() <= last["boxed"]]
        if label:
            if completion[label[-1].end():last["boxed"]].count("\n") <= 3:
                return "final_answer_label"
    return family


# ------------------------------------------------------------------ Math-Verify, plainly


def _mv_gold_text(reference: str) -> str:
    text = reference.strip()
    return text if re.search(r"(?<!\\)\$|\\\(|\\\[", text) else f"${text}$"  # \$ is currency, not math


def math_verify_plain(completion: str, sample: Sample) -> Verdict:
    """Math-Verify as its README uses it: ``verify(parse(gold), parse(completion))`` with its
    default extraction (LaTeX and plain expressions, anywhere in the text). Its own
    signal-based timeouts are off: the pool owns the wall clock."""
    import logging

    import math_verify

    logging.getLogger("math_verify").setLevel(logging.ERROR)
    gold = math_verify.parse(_mv_gold_text(sample.answer or ""), parsing_timeout=None)
    if not gold:
        return Verdict(0.0, "error", f"Math-Verify cannot parse the reference {sample.answer!r}")
    pred = math_verify.parse(completion, parsing_timeout=None)
    if not pred:
        return Verdict(0.0, "no_answer", "Math-Verify extracted nothing")
    ok = bool(math_verify.verify(gold, pred, timeout_seconds=None))
    return Verdict(float(ok), "ok" if ok else "wrong", f"Math-Verify read {str(pred[-1])[:80]!r}")


MATH_VERIFY = "math-verify"
ALL = "(all)"
DEFAULT_CORPUS = Path("tests/data/math_recall")
SPLIT_CORPUS = Path("tests/data/math_recall2")  # each source in a tuning and a held-out half
SPLITS = ("tune", "heldout")


def resolve(name: str) -> Any:
    """A verifier for the pool: a registry name or spec, or ``math-verify`` (plain Math-Verify)."""
    return math_verify_plain if name == MATH_VERIFY else name


def grade(verifier: str, rows: list[dict], workers: int, timeout: float) -> list[Verdict]:
    """Verdicts of ``verifier`` on rows with ``reference`` and ``completion``, in order."""
    from rlvr.verifiers.pool import VerifierPool

    # the question, where a row carries it: an answer's sentence may restate its words
    samples = [Sample(id=str(i), prompt=str(r.get("question") or r.get("problem") or r.get("prompt") or ""),
                      answer=str(r["reference"])) for i, r in enumerate(rows)]
    with VerifierPool(resolve(verifier), workers=workers, timeout_s=timeout) as pool:
        return pool.map([r["completion"] for r in rows], samples)


# ------------------------------------------------------------------ inputs


def _module_literals(path: Path) -> dict[str, Any]:
    """The module-level ``ROWS`` and ``FAMILY_KIND`` of a table file, read as literals (the
    file is not imported); a table that builds them with code is imported instead."""
    found: dict[str, Any] = {}
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError) as exc:
        raise UserError(f"cannot read table {path}: {exc}") from None
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        name = getattr(target, "id", None)
        if name in ("ROWS", "FAMILY_KIND", "QUESTIONS") and getattr(node, "value", None) is not None:
            try:
                found[name] = ast.literal_eval(node.value)
            except ValueError:
                found = {}
                break
    if found.get("ROWS"):  # a table that starts from an empty literal and adds rows with code is imported
        return found
    sys.path.insert(0, str(path.parent))
    try:
        spec = importlib.util.spec_from_file_location(f"_scoreboard_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    finally:
        sys.path.remove(str(path.parent))
    return {"ROWS": list(module.ROWS), "FAMILY_KIND": dict(getattr(module, "FAMILY_KIND", {})),
            "QUESTIONS": list(getattr(module, "QUESTIONS", []))}


def load_tables(directory: Path) -> list[dict]:
    """Each adversarial table present: {"name", "rows": [{family, reference, completion, math, exact, kind,
    question}]}; a table that gives its rows' questions does so in a list ``QUESTIONS`` beside ``ROWS``."""
    tables, paths = [], []
    for pattern in TABLE_FILES:
        paths += [p for p in sorted(directory.glob(pattern)) if p not in paths]
    for path in paths:
        found = _module_literals(path)
        kinds = {**OLD_FAMILY_KIND, **found.get("FAMILY_KIND", {})}
        rows = []
        questions = found.get("QUESTIONS") or [""] * len(found["ROWS"])
        if len(questions) != len(found["ROWS"]):
            raise UserError(f"{path}: QUESTIONS has {len(questions)} entries for {len(found['ROWS'])} rows")
        for i, row in enumerate(found["ROWS"]):
            if len(row) != 5:
                raise UserError(f"{path}: row {i} is not (family, reference, completion, math, exact): {row!r:.120}")
            family, reference, completion, math, exact = row
            rows.append({"id": f"{path.stem}/{family}-{i}", "table": path.stem, "family": family,
                         "reference": reference, "completion": completion, "math": math, "exact": exact,
                         "kind": kinds.get(family, "unclassified"), "question": questions[i]})
        tables.append({"name": path.stem, "rows": rows})
    if not tables:
        raise UserError(f"no adversarial table ({', '.join(TABLE_FILES)}) in {directory}: run from a checkout "
                        "or give --tables")
    return tables


def load_corpus(directory: Path, per_source: int | None = None, split: str | None = None) -> list[dict]:
    """The rows of every ``*.jsonl.gz`` / ``*.jsonl`` of the corpus (the first ``per_source`` of each);
    with ``split``, of every ``*.<split>.jsonl.gz`` only (one half of a split corpus)."""
    stem = f"*.{split}" if split else "*"
    files = sorted(directory.glob(f"{stem}.jsonl.gz")) + sorted(directory.glob(f"{stem}.jsonl"))
    if not files:
        raise UserError(f"no corpus files ({stem}.jsonl.gz) in {directory}: run from a checkout or give --corpus")
    rows = []
    for path in files:
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as fh:
            for n, line in enumerate(fh, start=1):
                if per_source is not None and n > per_source:
                    break
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise UserError(f"{path} line {n}: invalid JSON: {exc}") from None
                missing = [k for k in ("id", "source", "licence", "reference", "completion", "family")
                           if row.get(k) is None]
                if missing:
                    raise UserError(f"{path} line {n}: missing {', '.join(missing)}")
                row.setdefault("label", row.get("grade"))
                rows.append(row)
    return rows


# ------------------------------------------------------------------ figures


def _ratio(hits: int, total: int) -> str:
    return f"{hits}/{total}" + (f" ({hits / total:.1%})" if total else "")


def precision_figures(tables: list[dict], verdicts: dict[str, dict[str, Verdict]]) -> list[dict]:
    """Per table and verifier: must-be-0 rows paid, by kind, and true rows accepted."""
    out = []
    for table in tables:
        for verifier, by_id in verdicts.items():
            column = "exact" if verifier == "exact" else "math"
            rows = [r for r in table["rows"] if r[column] is not None]
            paid: dict[str, list[int]] = defaultdict(lambda: [0, 0])
            true = [0, 0]
            for r in rows:
                ok = by_id[r["id"]].status == "ok"
                if r[column]:
                    true[0] += ok
                    true[1] += 1
                else:
                    paid[r["kind"]][0] += ok
                    paid[r["kind"]][1] += 1
            out.append({"table": table["name"], "verifier": verifier, "paid": {k: paid[k] for k in sorted(paid)},
                        "true_accepted": true})
    return out


def recall_figures(rows: list[dict], verdicts: dict[str, dict[str, Verdict]], key: str) -> list[dict]:
    """Per group (``key``: source or family; the last group, ``(all)``, is every row) and
    verifier: correct rows accepted (marked and unmarked apart), marked correct rows that
    Math-Verify accepts accepted, incorrect rows paid."""
    mv = verdicts.get(MATH_VERIFY)
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        groups[r[key]].append(r)
    groups[ALL] = rows
    out = []
    for group in [*sorted(g for g in groups if g != ALL), ALL]:
        for verifier, by_id in verdicts.items():
            fig = {"group": group, "verifier": verifier, "marked": [0, 0], "unmarked": [0, 0], "mv_accepted": [0, 0],
                   "incorrect_paid": [0, 0]}
            for r in groups[group]:
                ok = by_id[r["id"]].status == "ok"
                if r["label"] == 1:
                    cell = fig["unmarked" if r["family"] == "unmarked" else "marked"]
                    cell[0] += ok
                    cell[1] += 1
                    if mv is not None and r["family"] != "unmarked" and mv[r["id"]].status == "ok":
                        fig["mv_accepted"][0] += ok
                        fig["mv_accepted"][1] += 1
                elif r["label"] == 0:
                    fig["incorrect_paid"][0] += ok
                    fig["incorrect_paid"][1] += 1
            out.append(fig)
    return out


def bars(precision: list[dict], by_source: list[dict], recall_bar: bool = True) -> list[str]:
    """Issue 20's bars for ``math``: no wrong value or cover paid on any table; on the marked
    correct rows Math-Verify accepts, recall >= 99 % overall and >= 97 % per source (the
    project's own corpus: left out with ``recall_bar=False``, as for a half of the split one)."""
    paid = [f"{f['table']} {kind} {f['paid'][kind][0]}" for f in precision if f["verifier"] == "math"
            for kind in ("wrong_value", "misreading", "cover") if f["paid"].get(kind, [0, 0])[0]]
    verdict = "met" if not paid else "NOT MET (" + ", ".join(paid) + ")"
    lines = [f"bar, no wrong value, misreading or cover paid by math: {verdict}"]
    if not recall_bar:
        return lines
    figs = {f["group"]: f["mv_accepted"] for f in by_source if f["verifier"] == "math"}
    overall = figs.pop(ALL, [0, 0])
    low = [f"{g} {a / n:.1%}" for g, (a, n) in figs.items() if n and a / n < 0.97]
    rate = overall[0] / overall[1] if overall[1] else 1.0
    lines.append(f"bar, math recall on the marked correct rows Math-Verify accepts >= 99 % overall ({rate:.1%}) and "
                 f">= 97 % per source: " + ("met" if rate >= 0.99 and not low else
                                            "NOT MET" + (f" (below 97 %: {', '.join(low)})" if low else "")))
    return lines


def split_figures(rows: list[dict], verdicts: dict[str, dict[str, Verdict]]) -> list[dict]:
    """Per source of one half of the split corpus (the last group, ``(all)``, is every row):
    rows; marked correct rows, and how many ``math`` and Math-Verify accept; the marked correct
    rows Math-Verify accepts that ``math`` accepts; the correct rows answered in a JSON
    object (family ``json_answer``) and how many each accepts; incorrect rows paid by each."""
    ours, theirs = verdicts["math"], verdicts[MATH_VERIFY]
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        groups[r["source"]].append(r)
    out = []
    for source in [*sorted(groups), ALL]:
        fig = {"source": source, "rows": 0, "marked_correct": 0, "math": 0, "mv": 0, "math_of_mv": [0, 0],
               "json_correct": 0, "json_math": 0, "json_mv": 0, "incorrect": 0, "paid_math": 0, "paid_mv": 0}
        for r in rows if source == ALL else groups[source]:
            a, b = ours[r["id"]].status == "ok", theirs[r["id"]].status == "ok"
            fig["rows"] += 1
            if r["label"] == 0:
                fig["incorrect"] += 1
                fig["paid_math"] += a
                fig["paid_mv"] += b
            elif r["label"] == 1 and r["family"] != "unmarked":
                fig["marked_correct"] += 1
                fig["math"] += a
                fig["mv"] += b
                fig["math_of_mv"] = [fig["math_of_mv"][0] + (a and b), fig["math_of_mv"][1] + b]
                if r["family"] == "json_answer":
                    fig["json_correct"] += 1
                    fig["json_math"] += a
                    fig["json_mv"] += b
        out.append(fig)
    return out


def print_split(half: str, figures: list[dict]) -> None:
    """The split table and issue 33's bars on it: on the marked correct rows Math-Verify
    accepts, ``math`` accepts >= 97 % overall and >= 93 % per source; no incorrect row paid."""
    print(f"\nThe {half} half of the split corpus, by source: marked correct rows accepted by math and by "
          "Math-Verify; math on the rows Math-Verify accepts; JSON-answer correct rows; incorrect rows paid")
    print(f"{'source':24} {'rows':>5} {'marked':>7} {'math':>6} {'MV':>6} {'math of MV':>20} "
          f"{'JSON math/MV/n':>15} {'paid math/MV/n':>15}")
    for f in figures:
        json_cell = "/".join(str(f[k]) for k in ("json_math", "json_mv", "json_correct"))
        paid_cell = "/".join(str(f[k]) for k in ("paid_math", "paid_mv", "incorrect"))
        print(f"{f['source']:24} {f['rows']:>5} {f['marked_correct']:>7} {f['math']:>6} {f['mv']:>6} "
              f"{_cell(f['math_of_mv']):>20} {json_cell:>15} {paid_cell:>15}")
    overall = figures[-1]["math_of_mv"]
    rate = overall[0] / overall[1] if overall[1] else 1.0
    low = [f"{f['source']} {a / n:.1%}" for f in figures[:-1] for a, n in [f["math_of_mv"]] if n and a / n < 0.93]
    print(f"bar ({half}), math on the marked correct rows Math-Verify accepts >= 97 % overall ({rate:.1%}) and "
          ">= 93 % per source: " + ("met" if rate >= 0.97 and not low else
                                   "NOT MET" + (f" (below 93 %: {', '.join(low)})" if low else "")))
    paid = figures[-1]["paid_math"]
    print(f"bar ({half}), no incorrect row paid by math: " + ("met" if not paid else f"NOT MET ({paid} paid)"))


def refusal_reasons(rows: list[dict], verdicts: dict[str, Verdict]) -> dict[str, dict[str, int]]:
    """Per source: why the correct marked rows that were not accepted were refused
    (``refused/<reason>``, else the status)."""
    out: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        v = verdicts[r["id"]]
        if r["label"] == 1 and r["family"] != "unmarked" and v.status != "ok":
            reasons = [k.split("/", 1)[1] for k in v.info if k.startswith("refused/")]
            out[r["source"]][reasons[0] if reasons else v.status] += 1
    return {source: dict(counts.most_common()) for source, counts in sorted(out.items())}


def disagreements(rows: list[dict], verdicts: dict[str, dict[str, Verdict]], verifier: str = "math") -> list[dict]:
    """Every row where ``verifier`` and Math-Verify disagree (one accepts, the other does not)."""
    ours, theirs = verdicts[verifier], verdicts[MATH_VERIFY]
    out = []
    for r in rows:
        a, b = ours[r["id"]], theirs[r["id"]]
        if (a.status == "ok") != (b.status == "ok"):
            out.append({"id": r["id"], "where": r.get("source") or r.get("table"), "family": r["family"],
                        "label": r.get("label", r.get("math")), "reference": r["reference"],
                        "completion": r["completion"], f"{verifier}_status": a.status, f"{verifier}_detail": a.detail,
                        "mv_status": b.status, "mv_detail": b.detail})
    return out


# ------------------------------------------------------------------ the command


def register(subparsers: Any) -> None:
    board = subparsers.add_parser(
        "scoreboard", help="precision on the adversarial tables and recall on the real corpus, beside Math-Verify",
        description="Both sides of the math and exact verifiers: must-be-0 rows paid per adversarial table "
                    "(wrong value / cover / disowned), recall on the corpus of real graded outputs per source "
                    "and format family, Math-Verify's figures on the same rows, and every row where math "
                    "and Math-Verify disagree. Run from a checkout.")
    board.add_argument("--tables", type=Path, default=Path("tests/verifiers"), help="directory of the tables")
    board.add_argument("--corpus", type=Path, default=None,
                       help=f"corpus directory (default {DEFAULT_CORPUS}; with --split, {SPLIT_CORPUS})")
    board.add_argument("--split", choices=SPLITS, default=None,
                       help="score one half of the split corpus (tune: the rules may be tuned on it; heldout: "
                            "measured only after they are frozen), with the per-source split table")
    board.add_argument("--verifiers", default="math,exact", help="verifiers to score (default math,exact)")
    board.add_argument("--per-source", type=int, default=None, help="only the first N rows of each corpus file")
    board.add_argument("--disagreements", type=Path, default=None,
                       help="JSONL of the rows where math and Math-Verify disagree (default: "
                            "rlvr_scoreboard_disagreements.jsonl in the temporary directory)")
    board.add_argument("--json", type=Path, default=None, help="also write the figures as JSON")
    board.add_argument("--workers", type=int, default=2, help="worker processes; 0 = in-process (default 2)")
    board.add_argument("--timeout", type=float, default=5.0, help="per-item timeout in seconds (default 5)")
    board.set_defaults(handler=run_scoreboard)


def _revision() -> str:
    import subprocess

    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain", "src/rlvr/verifiers"], capture_output=True,
                               text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "unknown revision"
    if head.returncode:
        return "unknown revision"
    return head.stdout.strip() + (" + uncommitted changes in src/rlvr/verifiers" if dirty.stdout.strip() else "")


def _cell(pair: list[int]) -> str:
    return _ratio(*pair) if pair[1] else "-"


def run_scoreboard(args: argparse.Namespace) -> int:
    if args.workers < 0 or args.timeout <= 0:
        raise UserError("--workers must be >= 0 and --timeout > 0")
    names = [v.strip() for v in args.verifiers.split(",") if v.strip()]
    bad = [v for v in names if v not in ("math", "exact")]
    if bad or "math" not in names:
        raise UserError(f"--verifiers takes math and optionally exact, got {args.verifiers!r}")
    tables = load_tables(args.tables)
    if args.corpus is None:
        args.corpus = SPLIT_CORPUS if args.split else DEFAULT_CORPUS
    corpus = load_corpus(args.corpus, args.per_source, args.split)
    table_rows = [r for t in tables for r in t["rows"]]
    everything = table_rows + corpus
    verdicts: dict[str, dict[str, Verdict]] = {}
    for verifier in [*names, MATH_VERIFY]:
        graded = grade(verifier, everything, args.workers, args.timeout)
        verdicts[verifier] = {r["id"]: v for r, v in zip(everything, graded)}
    precision = precision_figures(tables, verdicts)
    by_source = recall_figures(corpus, verdicts, "source")
    by_family = recall_figures(corpus, verdicts, "family")
    disagree = disagreements(everything, verdicts)

    print(f"rlvr scoreboard at {_revision()}: {len(table_rows)} table rows in {len(tables)} tables, "
          f"{len(corpus)} corpus rows from {len({r['source'] for r in corpus})} sources")
    for verifier, by_id in verdicts.items():
        statuses = Counter(v.status for v in by_id.values())
        print(f"  {verifier} statuses: " + " ".join(f"{k}={statuses[k]}" for k in sorted(statuses)))
    print("\nPrecision: must-be-0 rows paid, by kind (0 is the target); true rows accepted")
    print(f"{'table':24} {'verifier':12} " + " ".join(f"{k:>18}" for k in (*KINDS, "unclassified"))
          + f" {'true accepted':>20}")
    for fig in precision:
        cells = [_cell(fig["paid"].get(k, [0, 0])) for k in (*KINDS, "unclassified")]
        print(f"{fig['table']:24} {fig['verifier']:12} " + " ".join(f"{c:>18}" for c in cells)
              + f" {_cell(fig['true_accepted']):>20}")
    for title, figures in (("source", by_source), ("format family", by_family)):
        print(f"\nRecall on the real corpus by {title}: correct rows accepted (marked / of those Math-Verify "
              "accepts / unmarked); incorrect rows paid")
        print(f"{title:24} {'verifier':12} {'marked':>20} {'of MV-accepted':>20} {'unmarked':>16} "
              f"{'incorrect paid':>18}")
        for fig in figures:
            mv_cell = "-" if fig["verifier"] == MATH_VERIFY else _cell(fig["mv_accepted"])
            print(f"{fig['group']:24} {fig['verifier']:12} {_cell(fig['marked']):>20} {mv_cell:>20} "
                  f"{_cell(fig['unmarked']):>16} {_cell(fig['incorrect_paid']):>18}")
    print()
    for line in bars(precision, by_source, recall_bar=not args.split):
        print(line)
    halves = split_figures(corpus, verdicts) if args.split else []
    if args.split:
        print_split(args.split, halves)
    reasons = refusal_reasons(corpus, verdicts["math"])
    print("\nWhy math refused correct marked rows, by source:")
    for source, counts in reasons.items():
        print(f"  {source}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    ours_only = sum(1 for d in disagree if d["math_status"] == "ok")
    if args.disagreements is None:
        import tempfile

        args.disagreements = Path(tempfile.gettempdir()) / "rlvr_scoreboard_disagreements.jsonl"
    with open(args.disagreements, "w", encoding="utf-8") as fh:
        for row in disagree:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"\nmath and Math-Verify disagree on {len(disagree)} rows (math accepts, Math-Verify does not: {ours_only}; "
          f"Math-Verify accepts, math does not: {len(disagree) - ours_only}): {args.disagreements}")
    where = Counter(d["where"] for d in disagree)
    print("  by table/source: " + ", ".join(f"{k} {v}" for k, v in sorted(where.items())))
    if args.json:
        args.json.write_text(json.dumps({"revision": _revision(), "precision": precision, "recall_by_source": by_source,
                                         "recall_by_family": by_family, "refusals": reasons,
                                         "split": {"half": args.split, "by_source": halves},
                                         "disagreements": len(disagree)}, indent=1))
    return 0
