"""`rlvr calculator`: write the group-advantage calculator, one self-contained HTML page.

The page (``calculator.html`` beside this file, inline CSS and JS, no network request)
lets a person pick G, click rollouts to flip their verdicts, and watch GRPO's
group-relative advantages recompute with std normalisation on or off (Dr. GRPO), under
three loss-aggregation rules (per-sequence 1/|y_i|, constant 1/L_max, token mean), next to
the curve P(no gradient) = p^G + (1-p)^G.

Deliberately not here: importing rlvr.algo (the page re-implements the few formulas in
JavaScript, and the browser test checks its numbers against hand-computed values).
"""

from __future__ import annotations

import webbrowser
from importlib import resources
from pathlib import Path

TEMPLATE = "calculator.html"


def calculator_html() -> str:
    """The page's HTML text."""
    return resources.files("rlvr.report").joinpath(TEMPLATE).read_text(encoding="utf-8")


def write_calculator(path: Path | str, open_browser: bool = False) -> Path:
    """Write the calculator page to ``path`` (parents created); optionally open it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(calculator_html(), encoding="utf-8")
    if open_browser:
        webbrowser.open(path.resolve().as_uri())
    return path
