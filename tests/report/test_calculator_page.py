"""The calculator page without a browser: self-contained, stable ids, CLI writes it."""

from __future__ import annotations

import re

from rlvr.cli import main
from rlvr.report.calculator import calculator_html, write_calculator


def test_page_is_self_contained():
    page = calculator_html()
    urls = [u for u in re.findall(r"https?://[^\s\"'<>)]+", page) if u != "http://www.w3.org/2000/svg"]
    assert urls == []
    assert [r for r in re.findall(r'(?:src|href)="([^"]*)"', page) if r != "data:,"] == []
    for api in ("fetch(", "XMLHttpRequest", "WebSocket", "import(", "<iframe"):
        assert api not in page, api


def test_page_carries_the_ids_tests_rely_on():
    page = calculator_html()
    for element_id in ("G", "eps", "std-norm", "std-kind", "max-len", "mean", "std", "p", "p-nograd", "curve",
                       "agg-seq_mean_token_mean", "agg-seq_mean_token_sum_norm", "agg-token_mean",
                       "preset-grpo", "preset-dr_grpo", "preset-dapo", "rollout-rows"):
        assert f'id="{element_id}"' in page, element_id
    # per-rollout elements are built by the script from these templates
    for template in ('data-rollout="${i}"', 'id="adv-${i}"', 'id="len-${i}"', 'id="w-${i}"', 'id="sw-${i}"'):
        assert template in page, template


def test_cli_writes_the_page(tmp_path, capsys):
    out = tmp_path / "sub" / "calc.html"
    assert main(["calculator", "--output", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    assert out.read_text() == calculator_html()
    assert write_calculator(tmp_path / "again.html").read_text().startswith("<!DOCTYPE html>")
