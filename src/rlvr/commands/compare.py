"""`rlvr compare`: several algorithm presets on the same task, seeds and budget, side by side.

Each (preset, seed) pair is an ordinary run under ``OUT/<preset>-s<seed>/`` (so each has
its own metrics, checkpoints and report); an interrupted comparison re-uses the runs that
finished. The side-by-side table (``compare.md``, ``compare.json``) and page
(``compare.html``, SVG figures, offline) put the presets next to each other: held-out
pass@1 over steps, mean length of correct vs wrong completions, entropy, and the fraction
of zero-variance groups, each averaged over seeds.
"""

from __future__ import annotations

import html
import json
import statistics
import sys
from pathlib import Path

from rlvr.errors import UserError


def register(sub) -> None:
    c = sub.add_parser("compare", help="Run several algorithm presets on the same task and seeds, side by side.",
                       description="Train each algorithm preset for each seed, then write compare.md/json/html with "
                                   "held-out pass@1, length of correct vs wrong completions, entropy and zero-variance "
                                   "groups side by side.")
    c.add_argument("config", nargs="?", help="YAML config shared by every run (default: the demo preset).")
    c.add_argument("overrides", nargs="*", metavar="key=value", help="Dotted overrides shared by every run.")
    c.add_argument("--presets", default="grpo,dr_grpo,dapo",
                   help="Comma-separated algorithm presets (default grpo,dr_grpo,dapo).")
    c.add_argument("--seeds", type=int, default=3, help="Number of seeds, 0..N-1 (default 3).")
    c.add_argument("--preset", help="Run preset for every run (demo or smoke; default demo with no config).")
    c.add_argument("--output", default="runs/compare",
                   help="Directory for the runs and the comparison (default runs/compare).")
    c.set_defaults(handler=cmd_compare)


def cmd_compare(args) -> int:
    from rlvr.algo.presets import PRESETS
    from rlvr.commands.train import split_config

    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    unknown = [p for p in presets if p not in PRESETS]
    if unknown or not presets:
        raise UserError(f"unknown preset(s) {unknown}; valid: {', '.join(PRESETS)}")
    if args.seeds < 1:
        raise UserError(f"--seeds must be >= 1, got {args.seeds}")
    config, overrides = split_config(args.config, args.overrides)
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    runs = run_all(config, args.preset or (None if config else "demo"), overrides, presets, list(range(args.seeds)),
                   out, log)
    write_outputs(runs, out)
    print((out / "compare.md").read_text())
    print(f"written: {out / 'compare.md'}, {out / 'compare.json'}, {out / 'compare.html'}")
    return 0


CURVES = (("pass@1", "eval", "held-out pass@1"), ("len/correct", "train", "length of correct completions"),
          ("len/wrong", "train", "length of wrong completions"), ("entropy", "train", "entropy (nats/token)"),
          ("zero_var/observed", "train", "zero-variance groups (fraction)"))


def read_rows(run_dir: Path) -> list[dict]:
    path = run_dir / "metrics.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.is_file() else []


def run_all(config: str | None, run_preset: str | None, overrides: list[str], presets: list[str], seeds: list[int],
            out: Path, log=print) -> dict[str, list[Path]]:
    """Train every (preset, seed); knobs set in ``config``/``overrides`` win over every preset."""
    from rlvr.config import load_config
    from rlvr.train.loop import train

    runs: dict[str, list[Path]] = {}
    for preset in presets:
        for seed in seeds:
            run_dir = out / f"{preset}-s{seed}"
            cfg = load_config(config, preset=run_preset, overrides=[*overrides, f"algo.name={preset}", f"seed={seed}",
                                                                    f"output={run_dir}", f"name={run_dir.name}"])
            if (run_dir / "summary.json").is_file() and json.loads((run_dir / "summary.json").read_text()).get("final"):
                log(f"compare: {run_dir.name} already finished; re-using it")
            else:
                log(f"compare: training {run_dir.name}")
                train(cfg, resume=True, log=log)
            runs.setdefault(preset, []).append(run_dir)
    return runs


def _series(rows: list[dict], key: str, kind: str) -> dict[int, float]:
    return {r["step"]: r[key] for r in rows if r.get("kind") == kind and isinstance(r.get(key), (int, float))}


def _mean_curve(curves: list[dict[int, float]]) -> tuple[list[int], list[float]]:
    steps = sorted(set.intersection(*(set(c) for c in curves))) if curves else []
    return steps, [statistics.fmean(c[s] for c in curves) for s in steps]


def summarize(runs: dict[str, list[Path]]) -> dict:
    table = {}
    for preset, dirs in runs.items():
        finals, bases, lc, lw, ent, zv, gen = [], [], [], [], [], [], []
        for d in dirs:
            s = json.loads((d / "summary.json").read_text())
            finals.append(s["final"]["pass@1"])
            bases.append(s["base"]["pass@1"])
            rows = [r for r in read_rows(d) if r.get("kind") == "train"]
            tail = rows[-max(1, len(rows) // 5):]  # the last fifth of training
            for out, key in ((lc, "len/correct"), (lw, "len/wrong"), (ent, "entropy"), (zv, "zero_var/observed")):
                vals = [r[key] for r in tail if key in r]
                if vals:
                    out.append(statistics.fmean(vals))
            gen.append(sum(r.get("dyn/generated", 0) or 0 for r in rows))
        table[preset] = {
            "seeds": len(dirs), "base_pass@1": statistics.fmean(bases), "final_pass@1": statistics.fmean(finals),
            "final_pass@1_sd": statistics.pstdev(finals) if len(finals) > 1 else 0.0,
            "len_correct": statistics.fmean(lc) if lc else None, "len_wrong": statistics.fmean(lw) if lw else None,
            "entropy": statistics.fmean(ent) if ent else None, "zero_var": statistics.fmean(zv) if zv else None,
        }
    return table


def _fmt(v) -> str:
    return "—" if v is None else f"{v:.3f}"


def write_outputs(runs: dict[str, list[Path]], out: Path) -> dict:
    from rlvr.report.svg import Chart, Series, line_chart

    table = summarize(runs)
    run_dirs = {k: [str(d) for d in v] for k, v in runs.items()}
    (out / "compare.json").write_text(json.dumps({"table": table, "runs": run_dirs}, indent=2) + "\n")
    head = ("| preset | seeds | base pass@1 | final pass@1 (± sd) | len correct | len wrong | entropy | zero-var |\n"
            "|---|---|---|---|---|---|---|---|\n")
    lines = [f"| {p} | {t['seeds']} | {_fmt(t['base_pass@1'])} | {_fmt(t['final_pass@1'])}"
             f" ± {_fmt(t['final_pass@1_sd'])} | "
             f"{_fmt(t['len_correct'])} | {_fmt(t['len_wrong'])} | {_fmt(t['entropy'])} | {_fmt(t['zero_var'])} |"
             for p, t in table.items()]
    md = (head + "\n".join(lines)
          + "\n\n(length, entropy and zero-variance: mean over the last fifth of training steps and over seeds)\n")
    (out / "compare.md").write_text(md)
    figures = []
    for key, kind, title in CURVES:
        series = []
        for preset, dirs in runs.items():
            xs, ys = _mean_curve([_series(read_rows(d), key, kind) for d in dirs])
            if xs:
                series.append(Series(preset, xs, ys, markers=(kind == "eval")))
        if series:
            figures.append(line_chart(series, Chart(f"{title} (mean over seeds)", "step", key)))
    rows_html = "".join(f"<tr><td>{html.escape(p)}</td><td>{t['seeds']}</td><td>{_fmt(t['base_pass@1'])}</td>"
                        f"<td>{_fmt(t['final_pass@1'])} ± {_fmt(t['final_pass@1_sd'])}</td>"
                        f"<td>{_fmt(t['len_correct'])}</td>"
                        f"<td>{_fmt(t['len_wrong'])}</td><td>{_fmt(t['entropy'])}</td><td>{_fmt(t['zero_var'])}</td></tr>"
                        for p, t in table.items())
    page = ("<!doctype html><html><head><meta charset='utf-8'><title>rlvr compare</title>"
            "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
            "padding:4px 8px}</style></head><body><h1>rlvr compare</h1><table><tr><th>preset</th><th>seeds</th>"
            "<th>base pass@1</th><th>final pass@1 ± sd</th><th>len correct</th><th>len wrong</th><th>entropy</th>"
            f"<th>zero-var</th></tr>{rows_html}</table>" + "".join(f"<div>{f}</div>" for f in figures)
            + "</body></html>")
    (out / "compare.html").write_text(page)
    return table
