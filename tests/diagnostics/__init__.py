"""Tests of rlvr.diagnostics: pass@k/maj@k, rollout metrics, alarms, sinks."""
