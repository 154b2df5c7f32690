"""A small inline-SVG chart writer: line charts and stacked areas, as strings.

The run report embeds its figures as inline SVG so that it opens offline, needs no
plotting library, stays a few hundred kilobytes and keeps its text searchable.
Only what the report needs: linear or log2 x axis, linear y axis, gaps where a value is
missing (None or non-finite), a legend under the plot.

The axes are drawn so that a chart does not exaggerate: the y axis includes the values a
panel names (``Chart.y_include``: 0 and 1 for rates and pass@1), never pads below a floor
the data does not cross (``y_floor``: 0 for a count, a length, a norm), and spans at least
``y_min_span`` times the largest magnitude, so a series that moves by 0.003 % is drawn flat.
Tick labels on a very small or large scale carry a shared power of ten in the axis title
(``×10^-5``) instead of long scientific notation; a step axis ticks at integers only. A
series that coincides with one drawn before it is drawn dashed over it and its legend entry
says so (``(= ...)``); one that a later series covers everywhere (a flat train series under an
eval line through two points) is drawn last, dashed, and its entry says ``(under ...)``.

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


def nice_ticks(lo: float, hi: float, target: int = 5, integer: bool = False) -> list[float]:
    """Round tick values (1, 2, 2.5, 5 x 10^n steps) covering [lo, hi]; with ``integer`` only
    whole numbers (steps of 1, 2, 5, 10, 20, 25, ...)."""
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / max(target, 1)
    if integer:
        raw = max(raw, 1.0)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw and (not integer or float(m * mag).is_integer()))
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


def _y_limits(series: Sequence[Series], y_range, include: Sequence[float] = (), floor: float | None = None,
              min_span: float = 0.05) -> tuple[float, float]:
    """The y axis: the data and ``include``, at least ``min_span`` x the largest magnitude tall
    (a flat series stays flat), padded, and not below ``floor`` unless the data is."""
    if y_range is not None:
        return float(y_range[0]), float(y_range[1])
    values = [y for s in series for y in s.ys if _finite(y)]
    if not values:
        return (0.0, 1.0) if floor is None else (floor, floor + 1.0)
    lo, hi = min(values + list(include)), max(values + list(include))
    span = max(hi - lo, min_span * max(abs(lo), abs(hi)))
    if span < 1e-12:  # all zero
        span = 1.0
    if hi - lo < span:  # widen around the middle
        mid = (lo + hi) / 2
        lo, hi = mid - span / 2, mid + span / 2
    lo, hi = lo - span * 0.06, hi + span * 0.06
    if floor is not None and min(values) >= floor:
        lo = max(lo, floor)
    return lo, hi


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


_SUPERSCRIPT = str.maketrans("-0123456789", "\u207b\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")


def shared_exponent(ticks: Sequence[float], step: float) -> int | None:
    """The power of ten that tick labels share on a very small or large scale (labels then
    show ``t / 10^e``), or None when plain decimals read well."""
    if not (step > 0 and (step < 1e-3 or step >= 1e5)):
        return None
    top = max((abs(t) for t in ticks if t), default=0.0)
    return math.floor(math.log10(top)) if top else None


def y_tick_labels(ticks: Sequence[float]) -> tuple[list[str], str]:
    """(the labels, the axis-title suffix such as " (×10⁻⁵)" or "")."""
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    exp = shared_exponent(ticks, step)
    if exp is None:
        return [fmt_tick(t, step) for t in ticks], ""
    scale = 10.0 ** exp
    return [fmt_tick(t / scale, step / scale) for t in ticks], f" (\u00d710{str(exp).translate(_SUPERSCRIPT)})"


def _axes(frame: _Frame, xlabel: str, ylabel: str, title: str, draw_title: bool = True,
          integer_x: bool = False) -> list[str]:
    out = []
    ticks = nice_ticks(*frame.ylim)
    labels, suffix = y_tick_labels(ticks)
    ylabel += suffix
    for t, label in zip(ticks, labels):
        y = frame.py(t)
        out.append(f'<line x1="{frame.x0}" y1="{y:.1f}" x2="{frame.x1}" y2="{y:.1f}" stroke="#e4e4e4"/>')
        out.append(f'<text x="{frame.x0 - 6}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
    if frame.logx:
        lo, hi = frame.xlim
        xt = [2.0**e for e in range(math.ceil(lo - 1e-9), math.floor(hi + 1e-9) + 1)]
        labels = [f"{int(x)}" if x >= 1 else f"{x:g}" for x in xt]
    else:
        xt = nice_ticks(*frame.xlim, target=6, integer=integer_x)
        if integer_x:
            xt = [x for x in xt if float(x).is_integer()] or [float(round(sum(frame.xlim) / 2))]
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


def _series_svg(frame: _Frame, s: Series, color: str, dashed: bool | None = None,
                coincides: int | None = None) -> list[str]:
    same = f' data-coincides="{coincides}"' if coincides is not None else ""
    out = [f'<g data-series="{html.escape(s.label)}"{same}>']
    dash = ' stroke-dasharray="5 3"' if (s.dashed if dashed is None else dashed) else ""
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
    y_include: tuple[float, ...] = ()     # values the y axis always shows (0 and 1 for rates and pass@1)
    y_floor: float | None = None          # the axis does not pad below this unless the data does (0: a count)
    y_min_span: float = 0.05              # least axis height, as a share of the largest magnitude
    integer_x: bool | None = None         # ticks at whole numbers only; None = when xlabel is "step"

    def limits(self, series: Sequence[Series]) -> tuple[float, float]:
        return _y_limits(series, self.y_range, self.y_include, self.y_floor, self.y_min_span)

    @property
    def integer_ticks(self) -> bool:
        return self.xlabel == "step" if self.integer_x is None else self.integer_x


def _points(frame: _Frame, s: Series) -> list[tuple[float, float]]:
    return [pt for seg in _polyline_segments(frame, s) for pt in seg]


def coinciding(frame: _Frame, series: Sequence[Series]) -> dict[int, int]:
    """{i: j}: series i is drawn within a pixel of the earlier series j everywhere."""
    pts = [_points(frame, s) for s in series]
    out = {}
    for i in range(len(series)):
        for j in range(i):
            if j in out or not pts[i] or len(pts[i]) != len(pts[j]) or not series[i].legend:
                continue
            if all(abs(a[0] - b[0]) < 0.75 and abs(a[1] - b[1]) < 0.75 for a, b in zip(pts[i], pts[j])):
                out[i] = j
                break
    return out


def _near_polyline(point: tuple[float, float], segments: list[list[tuple[float, float]]], tol: float = 0.75) -> bool:
    """Whether a pixel point lies within ``tol`` pixels of a drawn polyline (or one of its markers)."""
    px, py = point
    for seg in segments:
        if len(seg) == 1 and math.hypot(px - seg[0][0], py - seg[0][1]) < tol:
            return True
        for (x1, y1), (x2, y2) in zip(seg, seg[1:]):
            dx, dy = x2 - x1, y2 - y1
            t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy)))
            if math.hypot(px - (x1 + t * dx), py - (y1 + t * dy)) < tol:
                return True
    return False


def hidden_under(frame: _Frame, series: Sequence[Series], same: dict[int, int]) -> dict[int, int]:
    """{j: i}: series j, drawn first, lies everywhere under the later series i (an eval line
    through two points over a flat train series): it is redrawn dashed on top and said so."""
    segs = [_polyline_segments(frame, s) for s in series]
    out = {}
    for j in range(len(series)):
        if j in same or not series[j].legend or not segs[j]:
            continue
        points = [pt for seg in segs[j] for pt in seg]
        for i in range(j + 1, len(series)):
            if series[i].legend and same.get(i) != j and all(_near_polyline(pt, segs[i]) for pt in points):
                out[j] = i
                break
    return out


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
    frame = _Frame(width, plot_height, _x_limits(series, logx), chart.limits(series), logx)
    out = [_svg_open(width, height, chart.panel_id, chart.title), '<rect width="100%" height="100%" fill="white"/>']
    out += _axes(frame, chart.xlabel, chart.ylabel, chart.title, chart.draw_title, chart.integer_ticks and not logx)
    same = coinciding(frame, series)  # drawn dashed over the line it hides, and said in the legend
    under = hidden_under(frame, series, same)  # lies under a later line: drawn last, dashed, and said
    labels = [f"{s.label} (= {series[same[i]].label})" if i in same else
              f"{s.label} (under {series[under[i]].label})" if i in under else s.label for i, s in enumerate(series)]
    dashed = [s.dashed or i in same or i in under for i, s in enumerate(series)]
    order = [i for i in range(len(series)) if i not in under] + list(under)
    for i in order:
        out += _series_svg(frame, series[i], colors[i], dashed[i], same.get(i, under.get(i)))
    entries = [(label, c, d) for s, label, c, d in zip(series, labels, colors, dashed) if s.legend]
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
    out += _axes(frame, chart.xlabel, chart.ylabel, chart.title, chart.draw_title, chart.integer_ticks)
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
