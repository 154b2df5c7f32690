"""Report plots that tell the truth, read from the SVG itself: a flat series is drawn flat,
rates and pass@1 keep 0 on the axis and never go below it, tick labels stay short, a line
hidden under another is said to be, a step axis ticks at whole numbers."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

from rlvr.report.html import write_report
from rlvr.report.svg import MARGIN_LEFT, Chart, Series, line_chart

NS = {"s": "http://www.w3.org/2000/svg"}
SMOKE_STEPS = [1, 2, 3, 4]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def polyline_ys(root: ET.Element, label: str) -> list[float]:
    group = next(g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-series") == label)
    pts = " ".join(p.get("points") for p in group.iter("{http://www.w3.org/2000/svg}polyline"))
    return [float(xy.split(",")[1]) for xy in pts.split()]


def y_labels(root: ET.Element) -> list[str]:
    return [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("text-anchor") == "end"]


def x_labels(root: ET.Element) -> list[str]:
    return [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")
            if t.get("text-anchor") == "middle" and not t.get("transform") and re.fullmatch(r"-?[\d.]+", t.text or "")]


def test_a_tiny_change_is_drawn_flat():
    # entropy moving by 0.003 %: the auto-zoomed axis drew it as a swing over the whole plot height
    root = parse(line_chart([Series("entropy", SMOKE_STEPS, [4.67300, 4.67314, 4.67302, 4.67311])],
                            Chart("entropy", plot_height=220)))
    ys = polyline_ys(root, "entropy")
    assert max(ys) - min(ys) < 2.0, ys  # pixels, of 220


def test_a_real_change_still_fills_the_axis():
    root = parse(line_chart([Series("entropy", SMOKE_STEPS, [4.6, 3.9, 3.1, 2.5])], Chart("entropy")))
    ys = polyline_ys(root, "entropy")
    assert max(ys) - min(ys) > 150


def test_zero_series_axis_does_not_go_negative():
    # the smoke preset's grad_norm 0, 0, 0, 0: the axis ran from -0.5 to 0.5
    root = parse(line_chart([Series("grad_norm", SMOKE_STEPS, [0.0] * 4)], Chart("grad", y_floor=0.0)))
    labels = y_labels(root)
    assert labels and not any(label.startswith("-") for label in labels), labels
    assert "0" in labels


def test_rates_and_pass1_axis_includes_zero_and_one():
    root = parse(line_chart([Series("pass@1", SMOKE_STEPS, [0.31, 0.35, 0.4, 0.38])],
                            Chart("reward", y_include=(0.0, 1.0), y_floor=0.0)))
    labels = [float(v) for v in y_labels(root)]
    assert min(labels) == 0.0 and max(labels) >= 1.0 and all(v >= 0 for v in labels)


def test_tiny_and_huge_scales_share_a_power_of_ten_in_the_axis_title():
    for values, exp in (([3e-5, 3e-5, 3.1e-5, 3e-5], "\u207b\u2075"), ([2.0e6, 2.2e6, 2.4e6, 2.1e6], "\u2076")):
        root = parse(line_chart([Series("v", SMOKE_STEPS, values)], Chart("t", ylabel="lr")))
        labels = y_labels(root)
        assert all(len(label) <= 5 and "e" not in label for label in labels), labels
        # a label of n characters is about 6.6 n px wide: it must end before the rotated axis title (x=13)
        assert max(len(label) for label in labels) * 6.6 < MARGIN_LEFT - 6 - 20
        title = next(t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("transform"))
        assert title.endswith(f"\u00d710{exp})"), title


def test_a_series_hidden_under_another_is_dashed_and_said_so():
    same = [0.5, 0.25, 0.25, 0.0]
    root = parse(line_chart([Series("zero_var/observed", SMOKE_STEPS, same),
                             Series("zero_var/predicted", SMOKE_STEPS, list(same))], Chart("zv")))
    groups = {g.get("data-series"): g for g in root.iter("{http://www.w3.org/2000/svg}g")}
    second = groups["zero_var/predicted"]
    assert second.get("data-coincides") == "0"
    assert second.find("s:polyline", NS).get("stroke-dasharray")
    legend = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "zero_var/predicted (= zero_var/observed)" in legend
    assert groups["zero_var/observed"].get("data-coincides") is None


def test_step_axis_ticks_at_whole_numbers():
    root = parse(line_chart([Series("reward", SMOKE_STEPS, [0.1, 0.2, 0.3, 0.4])], Chart("r")))
    labels = x_labels(root)
    assert labels and all(float(v).is_integer() for v in labels), labels
    root = parse(line_chart([Series("reward", [1], [0.1])], Chart("r")))  # one step: one tick, at it
    assert x_labels(root) == ["1"]


def test_report_of_a_smoke_like_run(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    rows = [{"step": s, "kind": "train", "reward/mean": 0.0, "acc": 0.0, "grad_norm": 0.0, "entropy": 4.673 + s * 1e-5,
             "zero_var/observed": 1.0, "zero_var/predicted": 1.0, "lr": 3e-5, "len/mean": 22.0} for s in SMOKE_STEPS]
    rows += [{"step": 0, "kind": "eval", "pass@1": 0.0}, {"step": 4, "kind": "eval", "pass@1": 0.0}]
    (run / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    page = write_report(run).read_text()
    svgs = {m.group(1): parse(m.group(0)) for m in re.finditer(r'<svg[^>]*data-panel="([^"]+)".*?</svg>', page, re.S)}
    for panel in ("reward", "grad", "length", "entropy"):
        labels = y_labels(svgs[panel])
        assert not any(v.startswith("-") for v in labels), (panel, labels)
    assert "0" in y_labels(svgs["reward"]) and max(float(v) for v in y_labels(svgs["reward"])) >= 1.0
    ys = polyline_ys(svgs["entropy"], "entropy")
    assert max(ys) - min(ys) < 2.0
    assert all(float(v).is_integer() for v in x_labels(svgs["reward"]))


def legend_texts(root: ET.Element) -> list[str]:
    return [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("text-anchor") is None]


def smoke_report(tmp_path) -> dict[str, ET.Element]:
    """The panels of a report of a smoke run as it logs (6 steps, evals at steps 0 and 6)."""
    run = tmp_path / "run"
    run.mkdir()
    lens = [22.375, 21.0, 22.25, 23.8125, 23.625, 21.0]
    rows = [{"step": 0, "kind": "eval", "pass@1": 0.0, "eval/len_mean": 24.0}]
    rows += [{"step": s, "kind": "train", "reward/mean": 0.0, "reward/acc/mean": 0.0, "kl_ref": 0.0,
              "approx_kl_old": 0.0, "len/max": 24.0, "len/mean": n, "len/wrong": n,
              "refused/no_answer": 0.75 if s % 2 else 0.625, "refused/trailing_text": 0.25 if s % 2 else 0.375}
             for s, n in zip(range(1, 7), lens)]
    rows += [{"step": 6, "kind": "eval", "pass@1": 0.0, "eval/len_mean": 24.0}]
    (run / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    page = write_report(run).read_text()
    return {m.group(1): parse(m.group(0)) for m in re.finditer(r'<svg[^>]*data-panel="([^"]+)".*?</svg>', page, re.S)}


def test_a_train_line_under_an_eval_line_is_drawn_on_top_and_said_so(tmp_path):
    svgs = smoke_report(tmp_path)
    reward = svgs["reward"]
    legend = legend_texts(reward)
    assert "pass@1 (eval)" in legend  # the held-out line has its entry
    assert "reward/mean (under pass@1 (eval))" in legend  # was: hidden under the pass@1 line, unsaid
    groups = [g.get("data-series") for g in reward.iter("{http://www.w3.org/2000/svg}g")]
    assert groups[-1] == "reward/mean"  # drawn last, so it shows
    last = list(reward.iter("{http://www.w3.org/2000/svg}g"))[-1].find("s:polyline", NS)
    assert last.get("stroke-dasharray")
    assert "len/max (under eval/len_mean (eval))" in legend_texts(svgs["length"])  # was: hidden without a note


def test_kl_and_fraction_axes_keep_to_their_ranges(tmp_path):
    svgs = smoke_report(tmp_path)
    kl = y_labels(svgs["kl"])
    assert kl[0] == "0" and not any(v.startswith("-") for v in kl)  # was: -0.50 .. 0.50 for a KL of 0
    refused = [float(v) for v in y_labels(svgs["refused"])]
    assert refused[0] == 0.0 and refused[-1] == 1.0  # was: from 0.2, a fraction axis not starting at 0


def test_a_negative_kl_estimate_still_shows_below_zero():
    root = parse(line_chart([Series("approx_kl_old", SMOKE_STEPS, [0.001, -0.002, 0.0, 0.001])],
                            Chart("kl", y_floor=0.0)))
    assert any(v.startswith("-") for v in y_labels(root))
