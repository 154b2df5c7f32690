"""A small inline-SVG chart writer: line charts and stacked areas, as strings.

The run report embeds its figures as inline SVG so that it opens offline, needs no
plotting library, stays a few hundred kilobytes and keeps its text searchable.
Only what the report needs: linear or log2 x axis, linear y axis, gaps where a value is
missing (None or non-finite), a legend under the plot.

Deliberately not here: interactivity, dates, log y axes, anything matplotlib does well
for papers (``rlvr.report.passk_plot.plot_passk_compare`` uses matplotlib for PNG/PDF).
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
FONT = "font-family=\"system-ui, -apple-system, 'Segoe UI', sans-serif\""
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 80, 18, 30, 38
LEGEND_ROW = 18
CHAR_W = 6.6  # rough width of one 11px character, for legend layout


@dataclass
class Series:
    """One line: ``ys[i]`` at ``xs[i]``; None or non-finite y leaves a gap."""

    label: str
    xs: Sequence[float]
    ys: Sequence[float | None]
    markers: bool = False
    dashed: bool = False
    color: str | None = None
    width: float = 1.8
    opacity: float = 1.0
    legend: bool = True


def _finite(v) -> bool:
    return v is not None and isinstance(v, (int, float)) and math.isfinite(v)


def nice_ticks(lo: float, hi: float, target: int = 5) -> list[float]:
    """Round tick values (1, 2, 2.5, 5 x 10^n steps) covering [lo, hi]."""
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / max(target, 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    ticks = []
    v = first
    while v <= hi + step * 1e-9:
        ticks.append(round(v, 12))
        v += step
    return ticks


def fmt_tick(v: float, step: float) -> str:
    """Tick label with as many decimals as the tick step needs (scientific when tiny or huge)."""
    if v == 0:
        return "0"
    if step > 0 and (step < 1e-3 or step >= 1e5):
        digits = max(0, math.floor(math.log10(abs(v))) - math.floor(math.log10(step) + 1e-9))
        return f"{v:.{digits}e}"
    if step <= 0:
        return f"{v:.3g}"
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    if abs(round(step, decimals) - step) > step * 1e-6:  # a 2.5 x 10^n step needs one more digit
        decimals += 1
    return f"{v:.{decimals}f}"


def _y_limits(series: Sequence[Series], y_range) -> tuple[float, float]:
    if y_range is not None:
        return float(y_range[0]), float(y_range[1])
    values = [y for s in series for y in s.ys if _finite(y)]
    if not values:
        return 0.0, 1.0
    lo, hi = min(values), max(values)
    if hi - lo < 1e-12:
        pad = abs(hi) * 0.1 or 0.5
        return lo - pad, hi + pad
    pad = (hi - lo) * 0.06
    return lo - pad, hi + pad


def _x_limits(series: Sequence[Series], logx: bool) -> tuple[float, float]:
    xs = [x for s in series for x, y in zip(s.xs, s.ys) if _finite(x) and _finite(y) and (not logx or x > 0)]
    if not xs:
        return (1.0, 2.0) if logx else (0.0, 1.0)
    lo, hi = min(xs), max(xs)
    if logx:
        lo, hi = math.log2(lo), math.log2(hi)
    if hi - lo < 1e-12:
        return lo - 0.5, hi + 0.5
    return lo, hi


class _Frame:
    """Maps data coordinates to pixels inside the plot area."""

    def __init__(self, width, plot_h, xlim, ylim, logx):
        self.x0, self.x1 = MARGIN_LEFT, width - MARGIN_RIGHT
        self.y0, self.y1 = MARGIN_TOP + plot_h, MARGIN_TOP
        self.xlim, self.ylim, self.logx = xlim, ylim, logx

    def px(self, x: float) -> float:
        xv = math.log2(x) if self.logx else x
        lo, hi = self.xlim
        return self.x0 + (xv - lo) / (hi - lo) * (self.x1 - self.x0)

    def py(self, y: float) -> float:
        lo, hi = self.ylim
        y = min(max(y, lo), hi)
        return self.y0 - (y - lo) / (hi - lo) * (self.y0 - self.y1)


def _legend_rows(labels: Sequence[str], width: int) -> list[list[tuple[int, str]]]:
    rows, row, used = [], [], 0.0
    avail = width - MARGIN_LEFT - MARGIN_RIGHT
    for i, label in enumerate(labels):
        w = 26 + CHAR_W * len(label)
        if row and used + w > avail:
            rows.append(row)
            row, used = [], 0.0
        row.append((i, label))
        used += w
    if row:
        rows.append(row)
    return rows


def _axes(frame: _Frame, xlabel: str, ylabel: str, title: str, draw_title: bool = True) -> list[str]:
    out = []
    ticks = nice_ticks(*frame.ylim)
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    for t in ticks:
        y = frame.py(t)
        out.append(f'<line x1="{frame.x0}" y1="{y:.1f}" x2="{frame.x1}" y2="{y:.1f}" stroke="#e4e4e4"/>')
        out.append(f'<text x="{frame.x0 - 6}" y="{y + 4:.1f}" text-anchor="end">{fmt_tick(t, step)}</text>')
    if frame.logx:
        lo, hi = frame.xlim
        xt = [2.0**e for e in range(math.ceil(lo - 1e-9), math.floor(hi + 1e-9) + 1)]
        labels = [f"{int(x)}" if x >= 1 else f"{x:g}" for x in xt]
    else:
        xt = nice_ticks(*frame.xlim, target=6)
        xstep = xt[1] - xt[0] if len(xt) > 1 else 1.0
        labels = [fmt_tick(x, xstep) for x in xt]
    for x, label in zip(xt, labels):
        px = frame.px(x)
        out.append(f'<line x1="{px:.1f}" y1="{frame.y0}" x2="{px:.1f}" y2="{frame.y0 + 4}" stroke="#888"/>')
        out.append(f'<text x="{px:.1f}" y="{frame.y0 + 16}" text-anchor="middle">{html.escape(label)}</text>')
    out.append(f'<rect x="{frame.x0}" y="{frame.y1}" width="{frame.x1 - frame.x0}" height="{frame.y0 - frame.y1}" '
               'fill="none" stroke="#888"/>')
    mid_y = (frame.y0 + frame.y1) / 2
    out.append(f'<text x="{(frame.x0 + frame.x1) / 2:.1f}" y="{frame.y0 + 32}" text-anchor="middle">'
               f'{html.escape(xlabel)}</text>')
    out.append(f'<text x="13" y="{mid_y:.1f}" text-anchor="middle" transform="rotate(-90 13 {mid_y:.1f})">'
               f'{html.escape(ylabel)}</text>')
    if draw_title:
        out.append(f'<text x="{frame.x0}" y="18" font-size="13" font-weight="600">{html.escape(title)}</text>')
    return out


def _polyline_segments(frame: _Frame, s: Series) -> list[list[tuple[float, float]]]:
    segments, current = [], []
    for x, y in zip(s.xs, s.ys):
        if _finite(x) and _finite(y) and (not frame.logx or x > 0):
            current.append((frame.px(x), frame.py(y)))
        elif current:
            segments.append(current)
            current = []
    if current:
        segments.append(current)
    return segments


def _series_svg(frame: _Frame, s: Series, color: str) -> list[str]:
    out = [f'<g data-series="{html.escape(s.label)}">']
    dash = ' stroke-dasharray="5 3"' if s.dashed else ""
    for seg in _polyline_segments(frame, s):
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in seg)
        out.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="{s.width}" '
                   f'stroke-opacity="{s.opacity}" stroke-linejoin="round"{dash}/>')
        if s.markers or len(seg) == 1:
            out.extend(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{color}" fill-opacity="{s.opacity}"/>'
                       for x, y in seg)
    out.append("</g>")
    return out


def _legend(entries: list[tuple[str, str, bool]], width: int, top: float) -> list[str]:
    out = []
    for r, row in enumerate(_legend_rows([e[0] for e in entries], width)):
        x = MARGIN_LEFT
        y = top + r * LEGEND_ROW
        for i, label in row:
            color, dashed = entries[i][1], entries[i][2]
            dash = ' stroke-dasharray="5 3"' if dashed else ""
            out.append(f'<line x1="{x}" y1="{y - 4}" x2="{x + 18}" y2="{y - 4}" stroke="{color}"'
                       f' stroke-width="2.5"{dash}/>')
            out.append(f'<text x="{x + 22}" y="{y}">{html.escape(label)}</text>')
            x += 26 + CHAR_W * len(label)
    return out


def _svg_open(width: int, height: float, panel_id: str | None, title: str) -> str:
    pid = f' data-panel="{html.escape(panel_id)}"' if panel_id else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height:.0f}" '
            f'viewBox="0 0 {width} {height:.0f}" font-size="11" {FONT} role="img" '
            f'aria-label="{html.escape(title)}"{pid}>')


@dataclass(frozen=True)
class Chart:
    """A figure's frame: titles, size, axis options, and the page panel it belongs to
    (``draw_title=False`` when the page shows the title itself)."""

    title: str
    xlabel: str = "step"
    ylabel: str = ""
    width: int = 640
    plot_height: int = 220
    logx: bool = False
    y_range: tuple[float, float] | None = None
    panel_id: str | None = None
    draw_title: bool = True


def line_chart(series: Sequence[Series], chart: Chart) -> str:
    """An SVG line chart as a string."""
    width, plot_height, logx = chart.width, chart.plot_height, chart.logx
    shown = [s for s in series if s.legend]
    colors, k = [], 0
    for s in series:
        colors.append(s.color or PALETTE[k % len(PALETTE)])
        k += s.color is None
    n_rows = len(_legend_rows([s.label for s in shown], width))
    height = MARGIN_TOP + plot_height + MARGIN_BOTTOM + LEGEND_ROW * n_rows + 4
    frame = _Frame(width, plot_height, _x_limits(series, logx), _y_limits(series, chart.y_range), logx)
    out = [_svg_open(width, height, chart.panel_id, chart.title), '<rect width="100%" height="100%" fill="white"/>']
    out += _axes(frame, chart.xlabel, chart.ylabel, chart.title, chart.draw_title)
    for s, color in zip(series, colors):
        out += _series_svg(frame, s, color)
    entries = [(s.label, c, s.dashed) for s, c in zip(series, colors) if s.legend]
    out += _legend(entries, width, MARGIN_TOP + plot_height + MARGIN_BOTTOM + 12)
    out.append("</svg>")
    return "\n".join(out)


def stacked_area_chart(xs: Sequence[float], layers: Sequence[tuple[str, Sequence[float | None]]], chart: Chart) -> str:
    """An SVG stacked-area chart; a missing value in a layer counts as 0 at that x."""
    width, plot_height = chart.width, chart.plot_height
    cum = [0.0] * len(xs)
    bands = []
    for label, ys in layers:
        lower = list(cum)
        cum = [c + (y if _finite(y) else 0.0) for c, y in zip(cum, ys)]
        bands.append((label, lower, list(cum)))
    top = Series("total", xs, cum)
    frame = _Frame(width, plot_height, _x_limits([top], False),
                   _y_limits([top], (0.0, max(cum or [1.0]) * 1.06 or 1.0)), False)
    n_rows = len(_legend_rows([b[0] for b in bands], width))
    height = MARGIN_TOP + plot_height + MARGIN_BOTTOM + LEGEND_ROW * n_rows + 4
    out = [_svg_open(width, height, chart.panel_id, chart.title), '<rect width="100%" height="100%" fill="white"/>']
    out += _axes(frame, chart.xlabel, chart.ylabel, chart.title, chart.draw_title)
    for i, (label, lower, upper) in enumerate(bands):
        color = PALETTE[i % len(PALETTE)]
        pts = [(frame.px(x), frame.py(u)) for x, u in zip(xs, upper)]
        pts += [(frame.px(x), frame.py(lo)) for x, lo in reversed(list(zip(xs, lower)))]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        out.append(f'<polygon data-series="{html.escape(label)}" points="{path}" fill="{color}" '
                   f'fill-opacity="0.75" stroke="{color}"/>')
    entries = [(b[0], PALETTE[i % len(PALETTE)], False) for i, b in enumerate(bands)]
    out += _legend(entries, width, MARGIN_TOP + plot_height + MARGIN_BOTTOM + 12)
    out.append("</svg>")
    return "\n".join(out)
