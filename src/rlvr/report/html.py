"""`rlvr report RUN_DIR`: one self-contained HTML page that shows how a run went.

Reads ``config.json``, ``metrics.jsonl``, ``samples.jsonl`` and ``summary.json`` from the
run directory (each optional) and writes ``report.html`` beside them: figures as inline
SVG (``rlvr.report.svg``), inline CSS, no script, no external file, font or CDN, so it
opens offline and can be mailed as one file. Every text that comes from the run
(prompts, completions, answers, config values, metric names) is HTML-escaped.

A panel whose metrics were not logged says "not logged" and names the missing keys; the
report never fails because a key is absent. A malformed line in the middle of a JSONL
file is an error naming file and line; a malformed *last* line (a run killed while
writing) is skipped and noted in the report.

Deliberately not here: computing new statistics from raw samples (the trainer logs
them) or comparing several runs (``rlvr compare``).
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.diagnostics.alarms import ALARM_MEANINGS
from rlvr.errors import DataError
from rlvr.report.svg import Chart, Series, line_chart, stacked_area_chart

SAMPLES_PER_END = 24  # sample rows shown from the first and from the last sampled step
SMOOTH_ABOVE = 30  # series longer than this also get a moving-average line
MAX_POINTS = 1500  # longer series are thinned (every n-th step) to keep the page small
STATUS_CLASSES = ("ok", "wrong", "no_answer", "timeout", "error")


@dataclass
class Run:
    """Everything read from one run directory."""

    path: Path
    config: dict = field(default_factory=dict)
    train: list[dict] = field(default_factory=list)
    evals: list[dict] = field(default_factory=list)
    samples: list[dict] = field(default_factory=list)
    summary: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


# ------------------------------------------------------------------ reading
def _read_json(path: Path) -> dict:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: not valid JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise DataError(f"{path}: expected a JSON object, got {type(data).__name__}")
    return data


def _read_jsonl(path: Path, notes: list[str]) -> list[dict]:
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    rows = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            if number == len(lines):
                notes.append(f"{path.name}: skipped a truncated last line ({number})")
                continue
            raise DataError(f"{path}:{number}: not valid JSON ({exc})") from exc
        if not isinstance(row, dict):
            raise DataError(f"{path}:{number}: expected a JSON object")
        rows.append(row)
    return rows


def load_run(run_dir: Path) -> Run:
    """Read a run directory; missing files leave their part empty."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise DataError(f"{run_dir}: no such run directory")
    run = Run(path=run_dir, config=_read_json(run_dir / "config.json"), summary=_read_json(run_dir / "summary.json"))
    for number, row in enumerate(_read_jsonl(run_dir / "metrics.jsonl", run.notes), start=1):
        if "step" not in row or "kind" not in row:
            raise DataError(f"{run_dir / 'metrics.jsonl'}: row {number} lacks 'step' or 'kind'")
        {"train": run.train, "eval": run.evals}.get(row["kind"], []).append(row)
    run.samples = _read_jsonl(run_dir / "samples.jsonl", run.notes)
    return run


# ------------------------------------------------------------------ series helpers
def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def _column(rows: list[dict], key: str) -> tuple[list[float], list[float | None]]:
    """(steps, values) of the rows that carry ``key``."""
    picked = [(r["step"], _num(r[key])) for r in rows if key in r]
    return [p[0] for p in picked], [p[1] for p in picked]


def _moving_average(values: list[float | None], window: int) -> list[float | None]:
    """Trailing mean over the last ``window`` values that exist (None where there are none)."""
    sums, counts = [0.0], [0]  # prefix sums over the values that exist
    for v in values:
        sums.append(sums[-1] + (v if v is not None else 0.0))
        counts.append(counts[-1] + (v is not None))
    out = []
    for i in range(1, len(values) + 1):
        lo = max(0, i - window)
        n = counts[i] - counts[lo]
        out.append((sums[i] - sums[lo]) / n if n else None)
    return out


def _thin(xs: list, ys: list) -> tuple[list, list]:
    """Every n-th point (and the last) so that no line has more than MAX_POINTS points."""
    stride = math.ceil(len(xs) / MAX_POINTS)
    if stride <= 1:
        return xs, ys
    keep = list(range(0, len(xs), stride))
    if keep[-1] != len(xs) - 1:
        keep.append(len(xs) - 1)
    return [xs[i] for i in keep], [ys[i] for i in keep]


def _series(rows: list[dict], key: str, label: str | None = None, **style) -> list[Series]:
    """One key as a line; long noisy train series get a faint raw line plus a moving average."""
    xs, ys = _column(rows, key)
    label = label or key
    if len(xs) <= SMOOTH_ABOVE or style.get("markers"):
        return [Series(label, *_thin(xs, ys), **style)]
    window = max(3, len(xs) // 25)
    color = style.pop("color", None)
    return [Series(f"{label} (raw)", *_thin(xs, ys), color=color, width=1.0, opacity=0.3, legend=False),
            Series(f"{label} (mean of {window})", *_thin(xs, _moving_average(ys, window)), color=color, **style)]


def _with_colors(groups: list[list[Series]]) -> list[Series]:
    """Give a raw line and its moving average the same colour."""
    from rlvr.report.svg import PALETTE

    out = []
    for i, group in enumerate(groups):
        for s in group:
            s.color = s.color or PALETTE[i % len(PALETTE)]
            out.append(s)
    return out


# ------------------------------------------------------------------ panel html
def _missing(keys: list[str]) -> str:
    names = ", ".join(f"<code>{html.escape(k)}</code>" for k in keys)
    return f'<p class="missing">not logged: {names}</p>'


def _panel(panel_id: str, title: str, body: str, status: str, note: str = "") -> str:
    note_html = f'<p class="note">{note}</p>' if note else ""
    return (f'<section class="panel" id="panel-{panel_id}" data-status="{status}">'
            f"<h2>{html.escape(title)}</h2>{note_html}{body}</section>")


@dataclass
class LinePanel:
    """A line chart of some train keys (and optionally eval keys) over steps."""

    panel_id: str
    title: str
    ylabel: str
    train_keys: list[str]
    eval_keys: list[str] = field(default_factory=list)
    note: str = ""
    y_range: tuple | None = None
    y_include: tuple = ()           # values the axis always shows (0 and 1 for pass@1)
    y_floor: float | None = 0.0     # the axis does not pad below 0 unless a value is negative

    def render(self, run: Run) -> str:
        groups = [_series(run.train, k) for k in self.train_keys if any(k in r for r in run.train)]
        groups += [_series(run.evals, k, f"{k} (eval)", markers=True) for k in self.eval_keys
                   if any(k in r for r in run.evals)]
        absent = [k for k in self.train_keys if not any(k in r for r in run.train)]
        absent += [k for k in self.eval_keys if not any(k in r for r in run.evals)]
        if not groups:
            return _panel(self.panel_id, self.title, _missing(absent), "missing", self.note)
        svg = line_chart(_with_colors(groups), Chart(self.title, "step", self.ylabel, y_range=self.y_range,
                                                     panel_id=self.panel_id, draw_title=False,
                                                     y_include=self.y_include, y_floor=self.y_floor))
        extra = _missing(absent) if absent else ""
        return _panel(self.panel_id, self.title, f'<div class="figure">{svg}</div>{extra}', "ok", self.note)


def _reward_panel(run: Run) -> str:
    components = sorted({k for r in run.train for k in r if k.startswith("reward/") and k.endswith("/mean")
                         and k != "reward/mean"})
    note = "Train reward per step (mean over the batch) and greedy pass@1 on held-out problems."
    if any("hack/visible_only" in r for r in run.train):  # code tasks with hidden tests
        components.append("hack/visible_only")
        note += (" hack/visible_only: share of completions passing every visible test and failing a hidden one;"
                 " rising beside the reward means the policy is solving the tests, not the problem.")
    panel = LinePanel("reward", "Reward and held-out pass@1", "reward / pass@1", ["reward/mean", *components],
                      ["pass@1"], note, y_include=(0.0, 1.0))
    return panel.render(run)


def _refusal_panel(run: Run) -> str | None:
    keys = sorted({k for r in run.train for k in r if k.startswith("refused/")})
    if not keys:
        return None
    return LinePanel("refused", "Why answers were refused", "fraction of completions", keys, [],
                     "Completions whose final answer the verifier refused, by reason (several answers, trailing "
                     "text, a relation, an unparsed remainder): what the policy tries that the grammar does not pay.",
                     y_range=(0.0, 1.0)).render(run)


def _time_panel(run: Run) -> str:
    keys = ["time/generate", "time/verify", "time/train"]
    rows = [r for r in run.train if any(k in r for k in keys + ["time/step"])]
    if not rows:
        return _panel("time", "Step time breakdown", _missing(keys + ["time/step"]), "missing")
    xs = [r["step"] for r in rows]
    layers = [(k.split("/")[1], [_num(r.get(k)) for r in rows]) for k in keys]
    other = []
    for r in rows:
        total, parts = _num(r.get("time/step")), [_num(r.get(k)) or 0.0 for k in keys]
        other.append(max(0.0, total - sum(parts)) if total is not None else None)
    layers.append(("other", other))
    svg = stacked_area_chart(xs, layers, Chart("Step time breakdown", "step", "seconds", panel_id="time",
                                               draw_title=False))
    means = []
    for label, ys in layers:
        vals = [y for y in ys if y is not None]
        means.append(f"{html.escape(label)} {sum(vals) / len(vals):.3f} s" if vals
                     else f"{html.escape(label)} not logged")
    note = "Mean per step: " + "; ".join(means) + ". <em>other</em> = time/step minus the three phases."
    return _panel("time", "Step time breakdown", f'<div class="figure">{svg}</div>', "ok", note)


def _status_panel(run: Run) -> str:
    keys = [f"status/{s}" for s in STATUS_CLASSES]
    rows = [r for r in run.train if any(k in r for k in keys)]
    if not rows:
        return _panel("status", "Verifier statuses", _missing(keys), "missing")
    layers = [(k.split("/")[1], [_num(r.get(k)) for r in rows]) for k in keys]
    svg = stacked_area_chart([r["step"] for r in rows], layers, Chart("Verifier statuses", "step", "completions",
                                                                     panel_id="status", draw_title=False))
    return _panel("status", "Verifier statuses", f'<div class="figure">{svg}</div>', "ok",
                  "Completions per step by verifier status; error and timeout should stay near zero.")


def _passk_points(block: Any) -> dict[int, float]:
    """{k: value} from a summary block: its "passk" dict, else its "pass@1"."""
    if not isinstance(block, dict):
        return {}
    points = {}
    for k, v in (block.get("passk") or {}).items():
        if str(k).isdigit() and _num(v) is not None:
            points[int(k)] = float(v)
    if not points and _num(block.get("pass@1")) is not None:
        points[1] = float(block["pass@1"])
    return points


def _passk_panel(run: Run) -> str:
    curves = {label: _passk_points(run.summary.get(label)) for label in ("base", "final")}
    curves = {label: pts for label, pts in curves.items() if pts}
    if not curves:
        return _panel("passk", "pass@k: base vs final", _missing(["summary.json: base.passk", "final.passk"]),
                      "missing")
    ks = sorted({k for pts in curves.values() for k in pts})
    head = "".join(f"<th>k={k}</th>" for k in ks)
    body = "".join(
        f"<tr><th>{html.escape(label)}</th>"
        + "".join(f"<td>{pts[k]:.3f}</td>" if k in pts else "<td>-</td>" for k in ks)
        + "</tr>" for label, pts in curves.items())
    table = f'<table class="numbers"><tr><th></th>{head}</tr>{body}</table>'
    figure = ""
    if len(ks) > 1:
        series = [Series(label, sorted(pts), [pts[k] for k in sorted(pts)], markers=True)
                  for label, pts in curves.items()]
        svg = line_chart(series, Chart("pass@k: base vs final", "k", "pass@k", logx=True, y_range=(0.0, 1.0),
                                       panel_id="passk", draw_title=False))
        figure = f'<div class="figure">{svg}</div>'
    note = "Unbiased estimator 1 − C(n−c,k)/C(n,k), mean over held-out problems (from summary.json)."
    return _panel("passk", "pass@k: base vs final", figure + table, "ok", note)


def _pick_samples(samples: list[dict]) -> list[dict]:
    """Rows from the first and the last sampled step (so one sees before and after)."""
    steps = sorted({s.get("step") for s in samples if isinstance(s.get("step"), int)})
    if not steps:
        return samples[:SAMPLES_PER_END]
    first = [s for s in samples if s.get("step") == steps[0]][:SAMPLES_PER_END]
    if len(steps) == 1:
        return first
    return first + [s for s in samples if s.get("step") == steps[-1]][:SAMPLES_PER_END]


def _cell(value: Any, cls: str = "") -> str:
    text = "" if value is None else (f"{value:.3g}" if isinstance(value, float) else str(value))
    attr = f' class="{cls}"' if cls else ""
    return f"<td{attr}>{html.escape(text)}</td>"


def _samples_panel(run: Run) -> str:
    if not run.samples:
        return _panel("samples", "Sample completions", _missing(["samples.jsonl"]), "missing")
    cols = ("step", "group", "reward", "status", "length", "finish_reason", "answer")
    texts = ("prompt", "completion") + (("detail",) if any("detail" in s for s in run.samples) else ())
    head = "".join(f"<th>{c}</th>" for c in cols + texts)
    rows = []
    for s in _pick_samples(run.samples):
        status = str(s.get("status", ""))
        cls = f"status-{status}" if status in STATUS_CLASSES else "status-unknown"
        cells = [_cell(s.get(c), cls if c == "status" else "") for c in cols]
        cells += [f'<td class="text">{html.escape(str(s.get(c, "")))}</td>' for c in texts]
        rows.append(f'<tr data-status="{html.escape(status)}">' + "".join(cells) + "</tr>")
    note = (f"{len(run.samples)} completions in samples.jsonl; shown: up to {SAMPLES_PER_END} from the first "
            "and from the last sampled step.")
    table = f'<div class="scroll"><table class="samples"><tr>{head}</tr>{"".join(rows)}</table></div>'
    return _panel("samples", "Sample completions", table, "ok", note)


def _alarms_panel(run: Run) -> str:
    fired = [(r["step"], k.split("/", 1)[1]) for r in run.train for k, v in r.items()
             if k.startswith("alarm/") and _num(v)]
    if not run.train:
        return _panel("alarms", "Alarms", _missing(["metrics.jsonl train rows"]), "missing")
    if not fired:
        return _panel("alarms", "Alarms", '<p class="good">No alarm fired.</p>', "ok")
    rows = "".join(f"<tr><td>{step}</td><td><code>{html.escape(name)}</code></td>"
                   f"<td>{html.escape(ALARM_MEANINGS.get(name, 'see docs/metrics.md'))}</td></tr>"
                   for step, name in fired)
    table = f'<table class="alarms"><tr><th>step</th><th>alarm</th><th>what it means</th></tr>{rows}</table>'
    return _panel("alarms", "Alarms", table, "ok")


# ------------------------------------------------------------------ the page
CORE_PANELS: list[Callable[[Run], str]] = [
    _reward_panel,
    LinePanel("entropy", "Policy entropy", "nats per token", ["entropy"],
              note="Mean over response tokens. A steady fall is normal; a collapse towards 0 ends exploration.").render,
    LinePanel("kl", "KL divergence", "KL", ["kl_ref", "approx_kl_old"],
              note="kl_ref: to the reference policy; approx_kl_old: to the policy that sampled (one update).",
              y_floor=0.0).render,  # KL is not negative; an estimate below 0 still widens the axis
    LinePanel("zero_var", "Zero-variance groups", "fraction of groups", ["zero_var/observed", "zero_var/predicted"],
              note="Groups whose rewards are all equal give no gradient. predicted = mean of p^G + (1−p)^G.",
              y_range=(0.0, 1.0)).render,
    LinePanel("length", "Response length by correctness", "tokens", ["len/correct", "len/wrong", "len/mean", "len/max"],
              ["eval/len_mean"],
              note="Wrong answers growing longer while accuracy is flat is the length pathology.").render,
    LinePanel("clip", "Clip fractions", "fraction of tokens", ["clip_frac/low", "clip_frac/high"], y_include=(0.0,),
              note="Share of loss tokens whose ratio was clipped below 1−ε_low / above 1+ε_high.").render,
    _time_panel,
    _status_panel,
    LinePanel("rates", "Rates", "fraction", ["acc", "format_rate", "trunc_rate", "selfcheck_rate"],
              y_range=(0.0, 1.0)).render,
    LinePanel("grad", "Gradient norm", "norm", ["grad_norm"]).render,
    LinePanel("lr", "Learning rate", "lr", ["lr"]).render,
    LinePanel("mismatch", "Sampler/trainer log-prob mismatch", "mean |Δ log p|", ["logp_mismatch", "mismatch/abs_max",
              "mismatch/kl_k3", "mismatch/frac_out", "mismatch/seq_out"],
              note="Should stay near 0; a rise means the sampler and trainer disagree "
                   "(precision, stale weights).").render,
    _passk_panel,
]

# Shown only when the run logged them (they belong to optional features).
OPTIONAL_PANELS: list[LinePanel] = [
    LinePanel("dyn", "Dynamic sampling", "count",
              ["dyn/rounds", "dyn/groups_seen", "dyn/groups_kept", "dyn/exhausted"]),
    LinePanel("tool", "Tool use", "per completion", ["tool/calls_per_completion", "tool/errors"]),
    LinePanel("staleness", "Staleness (async)", "policy versions", ["staleness/mean", "staleness/max"]),
    LinePanel("throughput", "Throughput", "tokens / s", ["tokens_per_s"]),
]

CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;max-width:1360px;
padding:16px 24px;color:#222}
h1{font-size:22px;margin:4px 0 8px} h2{font-size:16px;margin:0 0 6px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(660px,1fr));gap:14px}
.panel{border:1px solid #ddd;border-radius:6px;padding:10px 12px;background:#fff}
.panel.wide{grid-column:1/-1}
.figure svg{max-width:100%;height:auto}
.missing{color:#a15c00;background:#fff6e5;padding:6px 8px;border-radius:4px}
.note{color:#555;font-size:13px;margin:2px 0 6px} .good{color:#1a7f37}
table{border-collapse:collapse;font-size:13px}
td,th{border:1px solid #ddd;padding:3px 6px;vertical-align:top;text-align:left}
table.numbers td{text-align:right;font-variant-numeric:tabular-nums}
td.text{white-space:pre-wrap;font-family:ui-monospace,Menlo,Consolas,monospace;max-width:420px;word-break:break-word}
.scroll{max-height:560px;overflow:auto}
.status-ok{color:#1a7f37;font-weight:600} .status-wrong{color:#b42318} .status-no_answer{color:#a15c00}
.status-timeout,.status-error,.status-unknown{color:#fff;background:#b42318}
.facts td,.facts th{border:none;padding:1px 10px 1px 0}
"""


def _fmt_value(value: Any) -> str:
    num = _num(value)
    return f"{num:.4g}" if num is not None else html.escape(str(value))


def _header(run: Run) -> str:
    name = run.config.get("name") or run.path.name
    facts = []
    base, final = _passk_points(run.summary.get("base")), _passk_points(run.summary.get("final"))
    if 1 in base or 1 in final:
        shown = [f"{pts[1]:.3f}" if 1 in pts else "-" for pts in (base, final)]
        facts.append(("held-out pass@1 (base → final)", " → ".join(shown)))
    for key in ("steps", "wall_s"):
        if key in run.summary:
            facts.append((key, _fmt_value(run.summary[key])))
    phases = run.summary.get("phases")
    if isinstance(phases, dict):
        facts.append(("phases", ", ".join(f"{html.escape(str(k))} {_fmt_value(v)}" for k, v in phases.items())))
    facts.append(("train rows / eval rows / samples", f"{len(run.train)} / {len(run.evals)} / {len(run.samples)}"))
    rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{v}</td></tr>" for k, v in facts)
    notes = "".join(f'<p class="missing">{html.escape(n)}</p>' for n in run.notes)
    config = html.escape(json.dumps(run.config, indent=2, sort_keys=True)) if run.config else "config.json not found"
    return (f"<h1>rlvr run: {html.escape(str(name))}</h1><table class=\"facts\">{rows}</table>{notes}"
            f"<details><summary>Resolved config</summary><pre>{config}</pre></details>")


def render_report(run: Run) -> str:
    """The report page as one HTML string."""
    panels = [build(run) for build in CORE_PANELS]
    panels += [p.render(run) for p in OPTIONAL_PANELS if any(k in r for r in run.train for k in p.train_keys)]
    refusals = _refusal_panel(run)
    if refusals is not None:
        panels.append(refusals)
    wide = [_alarms_panel(run).replace('class="panel"', 'class="panel wide"', 1),
            _samples_panel(run).replace('class="panel"', 'class="panel wide"', 1)]
    title = html.escape(f"rlvr report: {run.config.get('name') or run.path.name}")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<link rel=\"icon\" href=\"data:,\"><title>{title}</title>"
            f"<style>{CSS}</style></head><body>{_header(run)}"
            f"<div class=\"grid\">{''.join(wide[:1])}{''.join(panels)}{''.join(wide[1:])}</div>"
            "<p class=\"note\">Metric definitions: docs/metrics.md.</p></body></html>\n")


def write_report(run_dir: Path, output: Path | None = None) -> Path:
    """Write ``run_dir/report.html`` (or ``output``) and return its path."""
    run = load_run(Path(run_dir))
    path = Path(output) if output else run.path / "report.html"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(render_report(run), encoding="utf-8")
    tmp.replace(path)
    return path
