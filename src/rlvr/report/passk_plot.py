"""pass@k / maj@k curves as a figure: rlvr's own SVG writer, or matplotlib for PNG/PDF.

The curves come from ``rlvr.diagnostics.passk``; this module only draws them.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from rlvr.errors import UserError
from rlvr.report.svg import Chart, Series, line_chart


def plot_passk_compare(curves: Mapping[str, Mapping], path: Path | str, title: str = "pass@k") -> Path:
    """Plot several pass@k curves ({label: {k: value}}) on a log2 k axis.

    ``.svg`` is drawn by rlvr's own SVG writer (no dependency); any other suffix (``.png``,
    ``.pdf``) needs matplotlib.
    """
    path = Path(path)
    series = []
    for label, curve in curves.items():
        points = sorted((int(k), float(v)) for k, v in curve.items())
        series.append((str(label), [p[0] for p in points], [p[1] for p in points]))
    if not series or not any(xs for _, xs, _ in series):
        raise ValueError("plot_passk_compare needs at least one non-empty curve")
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() == ".svg":
        svg = line_chart([Series(label, xs, ys, markers=True) for label, xs, ys in series],
                         Chart(title, "k", "pass@k", logx=True, y_range=(0.0, 1.0)))
        path.write_text(svg, encoding="utf-8")
        return path
    _plot_matplotlib(series, path, title)
    return path


def _plot_matplotlib(series: list, path: Path, title: str) -> None:
    try:
        import matplotlib
    except ModuleNotFoundError as exc:
        raise UserError(f"writing {path.suffix} plots needs matplotlib (pip install matplotlib); "
                        "or give a .svg path") from exc
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for label, xs, ys in series:
        ax.plot(xs, ys, marker="o", label=label)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("k")
    ax.set_ylabel("pass@k")
    ax.set_ylim(0.0, 1.02)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
