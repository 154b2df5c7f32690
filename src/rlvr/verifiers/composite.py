"""Verifier specs, weighted sums of verifiers, and the trainer's reward function.

``as_verifier(spec)`` turns what a caller hands the pool (a name, a JSON string, a
``{"name": ..., "options": ...}`` or ``{"composite": {...}}`` dict, a ``Composite``, or any
picklable callable) into a pool-runnable object (``rlvr.verifiers.registry``'s ``Named`` /
``FunctionVerifier``, or a ``Composite``). It lives here, beside the composites it builds, so
the registry of names never imports this module (no import cycle).

A ``Composite`` holds ``(name, weight)`` parts; its first part (or the one named
``primary``) is the accuracy term whose status becomes the composite's status. With
``gated=True`` the other terms count only when the primary reward is above 0, so a
well-formatted wrong answer earns nothing (format shaping cannot be farmed on its own).

``build_reward_fn(accuracy, format_weight, gated)`` is the trainer's entry point:
reward = R_acc + w * R_format, status = the accuracy verifier's status, ``answer`` = the
accuracy verifier's graded answer (what majority voting groups by), and ``info`` holds
the accuracy verifier's own keys (``refused/<reason>``), ``acc`` (1 when the accuracy
verdict is ``ok``) and ``format`` (1 when the format check passes) so accuracy and format
rate are logged separately. A row's own
``Sample.verifier`` overrides the accuracy verifier (``row_override``).

Specs are plain data, e.g. ``{"composite": {"exact": 1.0, "format": 0.1}, "gated": false}``,
so worker processes rebuild a composite from its pickle without importing anything heavy.

What it does not do: catch exceptions of its parts. A part that raises makes the whole
call raise, and the pool reports status ``error`` (never a silent partial reward).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rlvr.types import Sample, Verdict
from rlvr.verifiers.registry import (
    FunctionVerifier,
    LazyVerifier,
    Named,
    UnknownVerifierError,
    check_verdict,
    get_verifier,
    make_key,
    valid_names,
)


@dataclass(frozen=True)
class Composite:
    """reward = sum_i w_i * r_i (non-primary terms only when the primary reward > 0 if gated)."""

    parts: tuple[tuple[str, float], ...]
    gated: bool = False
    row_override: bool = False

    def __post_init__(self) -> None:
        if not self.parts:
            raise UnknownVerifierError("a composite needs at least one part")
        for name, weight in self.parts:
            get_verifier(name)
            if not isinstance(weight, (int, float)):
                raise UnknownVerifierError(f"composite weight of {name!r} must be a number, got {weight!r}")

    def spec(self) -> dict[str, Any]:
        out: dict[str, Any] = {"composite": dict(self.parts), "gated": self.gated}
        if self.row_override:
            out["row_override"] = True
        return out

    def describe(self) -> str:
        return json.dumps(self.spec())

    def _primary_spec(self, sample: Sample) -> Any:
        if self.row_override and sample.verifier:
            return sample.verifier
        return self.parts[0][0]

    def key(self, completion: str, sample: Sample) -> str:
        primary = as_verifier(self._primary_spec(sample))
        reads: set[str] | None = set()
        for part in [primary] + [as_verifier(name) for name, _ in self.parts[1:]]:
            part_reads = part.entry.reads if hasattr(part, "entry") else None
            reads = None if (reads is None or part_reads is None) else reads | set(part_reads)
        tag = json.dumps([self.spec(), primary.describe()])
        return make_key(tag, completion, sample, None if reads is None else tuple(sorted(reads)))

    def warm_up(self) -> None:
        for name, _ in self.parts:
            get_verifier(name).warm_up()

    def __call__(self, completion: str, sample: Sample) -> Verdict:
        primary_spec = self._primary_spec(sample)
        primary = check_verdict(as_verifier(primary_spec)(completion, sample), f"verifier {primary_spec!r}")
        reward = self.parts[0][1] * primary.reward
        info: dict[str, float] = {k: float(v) for k, v in primary.info.items()}
        info["acc"] = 1.0 if primary.status == "ok" else 0.0
        details = [primary.detail] if primary.detail else []
        for name, weight in self.parts[1:]:
            verdict = check_verdict(get_verifier(name)(completion, sample), f"verifier {name!r}")
            if verdict.status == "error":
                return Verdict(0.0, "error", f"{name}: {verdict.detail}", info)
            info[name] = 1.0 if verdict.reward > 0 else 0.0
            details.append(f"{name}={verdict.reward:g}")
            if primary.status in ("error", "timeout"):
                continue  # a failed accuracy check earns nothing, whatever the format
            if not self.gated or primary.reward > 0:
                reward += weight * verdict.reward
        return Verdict(reward, primary.status, "; ".join(details), info, answer=primary.answer)


def make_composite(weights: Mapping[str, float], gated: bool = False, primary: str | None = None,
                   row_override: bool = False) -> Composite:
    """A composite from ``{name: weight}``; the primary (accuracy) term is ``primary`` or
    the first key."""
    parts = [(str(k), float(v)) for k, v in weights.items()]
    if primary is not None:
        if primary not in weights:
            raise UnknownVerifierError(f"primary {primary!r} is not one of the parts {sorted(weights)}")
        parts.sort(key=lambda p: p[0] != primary)
    return Composite(tuple(parts), gated=gated, row_override=row_override)


def composite_from_spec(spec: Mapping[str, Any]) -> Composite:
    """``{"composite": {name: weight}, "gated": bool, "primary": name, "row_override": bool}``."""
    extra = set(spec) - {"composite", "gated", "primary", "row_override"}
    if extra:
        raise UnknownVerifierError(f"composite spec has unknown keys {sorted(extra)}; "
                                   "valid: composite, gated, primary, row_override")
    weights = spec["composite"]
    if not isinstance(weights, Mapping):
        raise UnknownVerifierError("'composite' must map verifier names to weights, "
                                   "e.g. {\"exact\": 1.0, \"format\": 0.1}")
    return make_composite(weights, gated=bool(spec.get("gated", False)), primary=spec.get("primary"),
                          row_override=bool(spec.get("row_override", False)))


def build_reward_fn(accuracy: str, format_weight: float, gated: bool) -> Composite:
    """The trainer's reward: R_acc + format_weight * R_format.

    The format term is always evaluated (weight 0 included) so ``info["format"]`` is
    logged; with ``gated`` it is added only when the accuracy reward is above 0.
    """
    get_verifier(accuracy)
    if accuracy == "format":
        raise UnknownVerifierError("the accuracy verifier cannot be 'format'; pick e.g. exact or math")
    return Composite(((accuracy, 1.0), ("format", float(format_weight))), gated=gated, row_override=True)


# ---------------------------------------------------------------- specs
def _from_dict(spec: Mapping[str, Any]) -> Any:
    if "composite" in spec:
        return composite_from_spec(spec)
    if "name" in spec:
        extra = set(spec) - {"name", "options"}
        if extra:
            raise UnknownVerifierError(f"verifier spec has unknown keys {sorted(extra)}; valid: name, options")
        get_verifier(spec["name"])
        return Named(spec["name"], tuple(sorted(dict(spec.get("options") or {}).items())))
    raise UnknownVerifierError(
        f"verifier spec {json.dumps(spec)[:200]} needs a 'name' or a 'composite' key; "
        f"valid names: {', '.join(valid_names())}"
    )


def as_verifier(spec: Any) -> Any:
    """Normalise a verifier spec into a pool-runnable object (see module docstring)."""
    if hasattr(spec, "key") and callable(spec):
        return spec
    if isinstance(spec, str):
        text = spec.strip()
        if text.startswith("{"):
            try:
                return _from_dict(json.loads(text))
            except json.JSONDecodeError as exc:
                raise UnknownVerifierError(f"verifier spec is not valid JSON: {exc}") from None
        get_verifier(text)
        return Named(text)
    if isinstance(spec, Mapping):
        return _from_dict(spec)
    if isinstance(spec, LazyVerifier):
        return Named(spec.name)
    if callable(spec):
        return FunctionVerifier(spec)
    raise UnknownVerifierError(f"cannot use {type(spec).__name__} as a verifier; give a name, a spec dict or "
                               f"a callable")


@dataclass(frozen=True)
class Router:
    """Per-row dispatch: each sample's own ``verifier`` field, else ``default``.

    ``rlvr verify`` uses this so one pool serves lines that name different verifiers.
    """

    default: str | None = None
    warm: tuple[str, ...] = ()  # verifier names to import in workers before the first item

    def resolve(self, sample: Sample) -> Any:
        spec = sample.verifier or self.default
        if spec is None:
            raise UnknownVerifierError(f"row has no verifier and no default is set; valid: {', '.join(valid_names())}")
        return as_verifier(spec)

    def describe(self) -> str:
        return f"router(default={self.default})"

    def key(self, completion: str, sample: Sample) -> str:
        return self.resolve(sample).key(completion, sample)

    def warm_up(self) -> None:
        for spec in ([self.default] if self.default else []) + list(self.warm):
            as_verifier(spec).warm_up()

    def __call__(self, completion: str, sample: Sample) -> Verdict:
        return self.resolve(sample)(completion, sample)
