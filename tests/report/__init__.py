"""Tests of rlvr.report: the run report, the calculator page, both in headless Chromium."""
