"""The run report: panels present, missing keys reported, run text escaped, offline-only."""

from __future__ import annotations

import json
import re

import pytest

from rlvr.cli import main
from rlvr.errors import DataError
from rlvr.report.html import write_report
from rlvr.report.svg import Chart, Series, line_chart

from .fake_run import HOSTILE, write_fake_run

CORE_PANELS = ["reward", "entropy", "kl", "zero_var", "length", "clip", "time", "status", "rates", "grad", "lr",
               "mismatch", "passk", "samples", "alarms"]


def panel_status(page: str) -> dict[str, str]:
    return dict(re.findall(r'<section class="panel[^"]*" id="panel-([a-z_]+)" data-status="([a-z]+)"', page))


def external_references(page: str) -> list[str]:
    """Every URL or src/href in the page other than the SVG namespace and the empty data: icon."""
    urls = [u for u in re.findall(r"(?:https?:)?//[\w.-]+[^\s\"'<>]*", page) if u != "http://www.w3.org/2000/svg"]
    refs = [r for r in re.findall(r'(?:src|href)="([^"]*)"', page) if r != "data:,"]
    return urls + refs


def test_full_run_renders_every_panel(tmp_path):
    path = write_report(write_fake_run(tmp_path / "run"))
    assert path == tmp_path / "run" / "report.html"
    page = path.read_text()
    status = panel_status(page)
    assert {p: status.get(p) for p in CORE_PANELS} == {p: "ok" for p in CORE_PANELS}
    assert status.get("throughput") == "ok"   # optional panel, logged by the fake run
    assert "dyn" not in status                 # optional panel, not logged: not shown
    assert page.count("<svg") >= 12
    assert "not logged" not in page


def test_report_is_offline_and_script_free(tmp_path):
    page = write_report(write_fake_run(tmp_path / "run")).read_text()
    assert external_references(page) == []
    assert "<script" not in page.lower()
    assert "<link rel=\"stylesheet\"" not in page and "@import" not in page


def test_run_text_is_escaped(tmp_path):
    page = write_report(write_fake_run(tmp_path / "run")).read_text()
    assert HOSTILE not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt; &amp; &lt;/td&gt;" in page
    assert "fake&lt;run&gt;" in page and "fake<run>" not in page  # the run name from config.json


def test_header_passk_table_and_alarms(tmp_path):
    page = write_report(write_fake_run(tmp_path / "run")).read_text()
    assert "0.440 → 0.740" in page
    assert "<tr><th>base</th><td>0.440</td><td>0.700</td><td>0.900</td></tr>" in page
    assert re.search(r"<tr><td>30</td><td><code>length_growth</code></td><td>wrong answers grow longer", page)
    # samples from the first (10) and last (60) sampled steps, statuses tagged
    assert page.count('<tr data-status="ok">') == 4 and page.count('<tr data-status="wrong">') == 4
    assert "<th>detail</th>" in page and page.count('<td class="text">expected 6, got 7</td>') == 4


def test_missing_keys_say_not_logged(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    rows = [{"step": s, "kind": "train", "reward/mean": 0.1 * s, "len/wrong": 20} for s in range(1, 5)]
    (run / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    page = write_report(run).read_text()
    status = panel_status(page)
    assert status["reward"] == "ok" and status["length"] == "ok"
    for panel in ("entropy", "kl", "zero_var", "clip", "time", "status", "passk", "samples"):
        assert status[panel] == "missing", panel
    assert "not logged: <code>entropy</code>" in page
    assert "not logged: <code>pass@1</code>" in page  # the reward panel names its absent eval key
    assert '<p class="good">No alarm fired.</p>' in page


def test_empty_run_directory_still_reports(tmp_path):
    page = write_report(tmp_path).read_text()
    assert set(panel_status(page).values()) == {"missing"}
    assert "config.json not found" in page


def test_truncated_last_line_is_skipped_and_noted(tmp_path):
    run = write_fake_run(tmp_path / "run")
    with open(run / "metrics.jsonl", "a") as f:
        f.write('{"step": 61, "kind": "tra')
    page = write_report(run).read_text()
    assert "metrics.jsonl: skipped a truncated last line" in page


def test_malformed_middle_line_is_an_error_naming_the_line(tmp_path):
    run = write_fake_run(tmp_path / "run")
    lines = (run / "metrics.jsonl").read_text().splitlines()
    lines[3] = "{oops"
    (run / "metrics.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError, match=r"metrics.jsonl:4: not valid JSON"):
        write_report(run)


def test_nan_and_missing_values_leave_gaps():
    svg = line_chart([Series("x", [1, 2, 3, 4, 5, 6, 7], [0.1, 0.2, float("nan"), 0.4, 0.5, None, 0.7])],
                     Chart("t", "step", "y"))
    # segments [1, 2] and [4, 5] become lines; the lone point at 7 becomes a dot
    assert svg.count("<polyline") == 3 and svg.count("<circle") == 1
    assert "nan" not in svg.lower()


def test_cli_report(tmp_path, capsys):
    run = write_fake_run(tmp_path / "run")
    assert main(["report", str(run)]) == 0
    assert capsys.readouterr().out.strip() == str(run / "report.html")
    assert main(["report", str(tmp_path / "nope")]) == 2
    assert "is not a run directory" in capsys.readouterr().err


def test_moving_average_skips_missing_values():
    from rlvr.report.html import _moving_average

    # trailing window of 2 over the values that exist
    assert _moving_average([1.0, None, 3.0, 5.0, None, None, None], 2) == [1.0, 1.0, 3.0, 4.0, 5.0, None, None]


def test_long_runs_are_thinned(tmp_path):
    from rlvr.report.html import MAX_POINTS

    page = write_report(write_fake_run(tmp_path / "run", steps=4000, samples=False)).read_text()
    longest = max(len(points.split()) for points in re.findall(r'<polyline points="([^"]*)"', page))
    assert MAX_POINTS // 2 < longest <= MAX_POINTS + 1


def test_hacking_and_refusals_are_shown_beside_the_reward_when_logged(tmp_path):
    run = write_fake_run(tmp_path / "run")
    page = write_report(run).read_text()
    assert "hack/visible_only" not in page and "refused" not in panel_status(page)  # not logged: not shown
    path = run / "metrics.jsonl"
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    for r in rows:
        if r["kind"] == "train":
            r.update({"hack/visible_only": min(1.0, r["step"] / 100), "refused/trailing_text": 0.1})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    page = write_report(run).read_text()
    reward = page[page.index('id="panel-reward"'):page.index('id="panel-entropy"')]
    assert 'data-series="hack/visible_only (raw)"' in reward and "solving the tests, not the problem" in reward
    assert panel_status(page)["refused"] == "ok" and 'data-series="refused/trailing_text (raw)"' in page
