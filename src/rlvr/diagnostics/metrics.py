"""Pure per-step metric functions the trainer calls on one batch of rollouts.

Plain Python lists and floats in, plain dicts (or a small named tuple) out: no torch, no
numpy, no I/O, so the trainer, the evaluator and the tests share one definition of
every number. docs/metrics.md defines each key these functions produce.

Deliberately not here: anything that needs model outputs (entropy, KL, clip fractions
are computed by ``rlvr.train`` on tensors) and anything that keeps state across steps
(``rlvr.diagnostics.alarms``).

Departures from common practice: ``zero_var/predicted`` estimates a group's success
probability by its own success rate, so it is the chance that a *fresh* group of the same
size would be all-correct or all-wrong, given what this group showed. It is a plug-in
estimate, biased upward (p^G + (1-p)^G is convex, so by Jensen its mean over noisy
estimates of p exceeds its value at the true p); read it as a trend line beside the
observed fraction, not as an unbiased probability.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from typing import NamedTuple

from rlvr.types import STATUSES


class ZeroVariance(NamedTuple):
    """Fraction of groups with no reward spread, seen and predicted (see module docstring)."""

    observed: float
    predicted: float


def _group_indices(group_ids: Sequence[Hashable]) -> dict[Hashable, list[int]]:
    """Map each group id to the positions of its members, in first-seen order."""
    groups: dict[Hashable, list[int]] = {}
    for i, gid in enumerate(group_ids):
        groups.setdefault(gid, []).append(i)
    return groups


def zero_variance(
    correct: Sequence[bool],
    group_ids: Sequence[Hashable],
    rewards: Sequence[float] | None = None,
    tol: float = 1e-9,
) -> ZeroVariance:
    """(observed, predicted) zero-variance fractions of a batch of groups.

    observed  = fraction of groups whose rewards are all equal (max - min <= tol); when
                ``rewards`` is None the ``correct`` flags stand in for the rewards.
    predicted = mean over groups of p^G + (1 - p)^G, p = the group's fraction of correct
                completions, G = the group's own size.
    A group that gives no reward spread gives GRPO no gradient.
    """
    if len(correct) != len(group_ids):
        raise ValueError(f"correct has {len(correct)} entries but group_ids has {len(group_ids)}")
    if rewards is not None and len(rewards) != len(correct):
        raise ValueError(f"rewards has {len(rewards)} entries but correct has {len(correct)}")
    if not correct:
        raise ValueError("zero_variance needs at least one completion")
    values = [float(r) for r in rewards] if rewards is not None else [float(bool(c)) for c in correct]
    observed, predicted = 0, 0.0
    groups = _group_indices(group_ids)
    for members in groups.values():
        group_values = [values[i] for i in members]
        observed += (max(group_values) - min(group_values)) <= tol
        size = len(members)
        p = sum(bool(correct[i]) for i in members) / size
        predicted += p**size + (1.0 - p) ** size
    return ZeroVariance(observed / len(groups), predicted / len(groups))


def _phrase_pattern(phrases: Sequence[str]) -> re.Pattern[str] | None:
    """One case-insensitive regex matching any phrase as whole words.

    Word boundaries are look-arounds on \\w rather than \\b so that a phrase that starts or
    ends with punctuation still matches; runs of spaces inside a phrase match any whitespace.
    """
    parts = []
    for phrase in phrases:
        words = phrase.strip().split()
        if not words:
            raise ValueError(f"empty self-check phrase in {list(phrases)!r}")
        parts.append(r"\s+".join(re.escape(w) for w in words))
    if not parts:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(parts) + r")(?!\w)", re.IGNORECASE)


def selfcheck_rate(texts: Sequence[str], phrases: Sequence[str]) -> float:
    """Fraction of completions that contain at least one self-check phrase.

    Case-insensitive, whole-word: "Wait," counts for "wait", "awaited" does not.
    """
    if not texts:
        raise ValueError("selfcheck_rate needs at least one completion")
    pattern = _phrase_pattern(phrases)
    if pattern is None:
        return 0.0
    return sum(1 for t in texts if pattern.search(t)) / len(texts)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def length_by_correctness(lengths: Sequence[int], correct: Sequence[bool]) -> dict[str, float]:
    """Response lengths (tokens): ``len/mean``, ``len/max``, ``len/correct``, ``len/wrong``.

    ``len/correct`` (``len/wrong``) is left out when no completion is correct (wrong):
    an absent key, never a made-up 0 or a NaN that breaks strict JSON readers.
    """
    if len(lengths) != len(correct):
        raise ValueError(f"lengths has {len(lengths)} entries but correct has {len(correct)}")
    if not lengths:
        raise ValueError("length_by_correctness needs at least one completion")
    out = {"len/mean": _mean(lengths), "len/max": float(max(lengths))}
    right = [n for n, c in zip(lengths, correct) if c]
    wrong = [n for n, c in zip(lengths, correct) if not c]
    if right:
        out["len/correct"] = _mean(right)
    if wrong:
        out["len/wrong"] = _mean(wrong)
    return out


def status_counts(statuses: Sequence[str]) -> dict[str, int]:
    """Count of each verifier status, every status present: ``{"status/ok": n, ...}``."""
    counts = {s: 0 for s in STATUSES}
    for status in statuses:
        if status not in counts:
            raise ValueError(f"unknown verifier status {status!r}; valid: {', '.join(STATUSES)}")
        counts[status] += 1
    return {f"status/{s}": n for s, n in counts.items()}


def truncation_rate(finish_reasons: Sequence[str]) -> float:
    """``trunc_rate``: fraction of completions cut by the token limit (finish reason "length")."""
    valid = ("stop", "length")
    if not finish_reasons:
        raise ValueError("truncation_rate needs at least one completion")
    for reason in finish_reasons:
        if reason not in valid:
            raise ValueError(f"unknown finish reason {reason!r}; valid: {', '.join(valid)}")
    return sum(1 for r in finish_reasons if r == "length") / len(finish_reasons)


def visible_only_rate(infos: Sequence[Mapping[str, float]], has_hidden: Sequence[bool]) -> float | None:
    """``hack/visible_only``: among the completions whose sample has hidden tests
    (``has_hidden``), the share that pass every visible test and fail a hidden one
    (``visible_pass_rate == 1`` and ``hidden_pass_rate < 1`` in the code verifier's
    ``Verdict.info``; a completion with no program counts as not hacking). None when no
    sample has hidden tests. Rising, it is "solve the tests, not the problem"."""
    judged = [i for i, hidden in zip(infos, has_hidden) if hidden]
    if not judged:
        return None
    hacks = sum(1 for i in judged
                if i.get("visible_pass_rate", 0.0) >= 1.0 and i.get("hidden_pass_rate", 1.0) < 1.0)
    return hacks / len(judged)


def refusal_rates(infos: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """``refused/<reason>``: the share of completions whose answer a verifier refused for that
    reason (``Verdict.info["refused/<reason>"] = 1``: several answers, trailing text, a relation,
    an unparsed remainder, ...), over all completions of the step."""
    n = len(infos)
    reasons = sorted({k for i in infos for k in i if k.startswith("refused/")})
    return {k: sum(float(i.get(k, 0.0)) for i in infos) / n for k in reasons} if n else {}
