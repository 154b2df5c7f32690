"""The report's plots measured in headless Chromium (DOM geometry, not screenshots by eye):
tick labels never overlap the axis title or each other, and no y axis of a quantity that
cannot be negative shows a negative tick. Skipped without chromium + chromedriver + selenium."""

from __future__ import annotations

import json

import pytest

from rlvr.report.html import write_report

from .test_browser import driver  # noqa: F401  (the module's Chromium fixture)

pytestmark = pytest.mark.browser

GEOMETRY = """
const out = [];
for (const svg of document.querySelectorAll('svg[data-panel]')) {
  const texts = [...svg.querySelectorAll('text')];
  const box = t => { const r = t.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  out.push({panel: svg.dataset.panel,
            title: texts.filter(t => t.getAttribute('transform')).map(box),
            ticks: texts.filter(t => t.getAttribute('text-anchor') === 'end').map(t => [t.textContent, box(t)])});
}
return out;
"""


def overlap(a, b) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def test_tick_labels_clear_of_axis_titles_and_never_negative(driver, tmp_path):  # noqa: F811
    run = tmp_path / "run"
    run.mkdir()
    rows = [{"step": s, "kind": "train", "reward/mean": 0.0, "acc": 0.0, "grad_norm": 0.0, "lr": 3e-5,
             "entropy": 4.673 + s * 3e-5, "kl_ref": 1e-7 * s, "zero_var/observed": 1.0, "zero_var/predicted": 1.0,
             "len/mean": 22.0 + s, "logp_mismatch": 2.5e-6 * s, "tokens_per_s": 2.0e6 + s}
            for s in range(1, 5)]
    rows += [{"step": 0, "kind": "eval", "pass@1": 0.0}, {"step": 4, "kind": "eval", "pass@1": 0.0}]
    (run / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    driver.get(write_report(run).as_uri())
    panels = driver.execute_script(GEOMETRY)
    assert {p["panel"] for p in panels} >= {"reward", "entropy", "grad", "lr", "kl", "mismatch"}
    for p in panels:
        boxes = [b for _, b in p["ticks"]]
        for title in p["title"]:
            hit = [label for label, b in p["ticks"] if overlap(b, title)]
            assert not hit, (p["panel"], hit)
        for i in range(len(boxes)):
            for j in range(i):
                assert not overlap(boxes[i], boxes[j]), (p["panel"], p["ticks"][i][0], p["ticks"][j][0])
        if p["panel"] in ("reward", "grad", "lr", "length", "entropy", "mismatch", "throughput"):
            negative = [label for label, _ in p["ticks"] if label.startswith(("-", "\u2212"))]
            assert not negative, (p["panel"], negative)
