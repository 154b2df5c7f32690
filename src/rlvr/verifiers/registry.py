"""Verifier names, and the picklable objects the pool runs.

``VERIFIERS`` maps a name to a callable ``(completion, sample, **options) -> Verdict``.
Every entry is a ``LazyVerifier``: it names its module and function as strings and
imports them on first call, so that importing this registry is cheap (no sympy, no
math-verify) and "code"/"proof"/"gym" resolve only when used.

``Named``, ``FunctionVerifier`` and ``Composite`` (``rlvr.verifiers.composite``, which also
turns specs into these objects: ``as_verifier``) each have ``__call__`` and ``key`` (the
cache key: verifier name + options + completion + the sample fields that verifier reads).
Worker processes receive them by pickling, so they hold only names and plain data.

What this module does not do: run verifiers in parallel or enforce timeouts (that is
``rlvr.verifiers.pool``), or define any verifier's logic.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rlvr.errors import UserError
from rlvr.types import STATUSES, Sample, Verdict

ALL_FIELDS = None  # a verifier that may read any sample field


class UnknownVerifierError(UserError):
    """A verifier name or spec that the registry cannot resolve."""


@dataclass(frozen=True)
class LazyVerifier:
    """A registered verifier, imported by name on first use.

    ``reads``: the sample fields it reads (part of the cache key; None = all fields).
    ``requires``: groups of fields; a row needs at least one field of each group.
    """

    name: str
    module: str
    function: str
    reads: tuple[str, ...] | None
    requires: tuple[tuple[str, ...], ...] = ()
    summary: str = ""

    def load(self) -> Callable[..., Verdict]:
        key = (self.module, self.function)
        if key not in _LOADED:
            module = importlib.import_module(self.module)
            _LOADED[key] = getattr(module, self.function)
        return _LOADED[key]

    def warm_up(self) -> None:
        """Import the module and its heavy dependencies now (called in workers)."""
        self.load()
        module = importlib.import_module(self.module)
        if hasattr(module, "warm_up"):
            module.warm_up()

    def __call__(self, completion: str, sample: Sample, **options: Any) -> Verdict:
        return self.load()(completion, sample, **options)


_LOADED: dict[tuple[str, str], Callable[..., Verdict]] = {}

VERIFIERS: dict[str, LazyVerifier] = {
    v.name: v
    for v in (
        LazyVerifier("exact", "rlvr.verifiers.exact", "verify_exact", ("answer",), (("answer",),),
                     "normalised string match of the <answer> tag (or a final marker) against `answer`"),
        LazyVerifier("math", "rlvr.verifiers.mathv", "verify_math", ("answer",), (("answer",),),
                     "final answer vs `answer` by mathematical equivalence (math-verify, plain-number fast path)"),
        LazyVerifier("format", "rlvr.verifiers.format", "verify_format", (), (),
                     "<think>…</think><answer>…</answer> ending the completion"),
        LazyVerifier("code", "rlvr.verifiers.code", "verify_code", ALL_FIELDS,
                     (("tests", "io_tests", "hidden_tests"),),
                     "run the program against `tests` / `io_tests` / `hidden_tests` in a sandbox"),
        LazyVerifier("proof", "rlvr.verifiers.proof", "verify_proof", ALL_FIELDS, (("statement",),),
                     "check a proof of `statement` with the proof assistant"),
        LazyVerifier("gym", "rlvr.verifiers.gym", "verify_gym", ("gym_dataset", "gym_entry"),
                     (("gym_dataset",), ("gym_entry",)),
                     "reasoning-gym's own scorer for `gym_dataset` (optional extra rlvr[gym])"),
    )
}


def valid_names() -> list[str]:
    return sorted(VERIFIERS)


def get_verifier(name: str) -> LazyVerifier:
    """The registered verifier called ``name``; an unknown name raises an error listing the
    valid names."""
    if name not in VERIFIERS:
        raise UnknownVerifierError(
            f"unknown verifier {name!r}; valid: {', '.join(valid_names())} "
            f"or a composite spec {{\"composite\": {{\"exact\": 1.0, \"format\": 0.1}}}}"
        )
    return VERIFIERS[name]


# ------------------------------------------------------------------ cache keys


def _fields_for_key(sample: Sample, reads: tuple[str, ...] | None) -> dict[str, Any]:
    if reads is None:
        return {"answer": sample.answer, **dict(sample.fields)}
    return {name: sample.get(name) for name in reads}


def make_key(tag: str, completion: str, sample: Sample, reads: tuple[str, ...] | None) -> str:
    """A compact digest of everything a verifier's result depends on."""
    payload = json.dumps([tag, _fields_for_key(sample, reads)], sort_keys=True, default=repr)
    h = hashlib.blake2b(digest_size=20)
    h.update(payload.encode())
    h.update(b"\x00")
    h.update(completion.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


# ------------------------------------------------------------- pool-runnable specs


@dataclass(frozen=True)
class Named:
    """A registered verifier with fixed options, as run by the pool."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def entry(self) -> LazyVerifier:
        return get_verifier(self.name)

    def spec(self) -> Any:
        return {"name": self.name, "options": dict(self.options)} if self.options else self.name

    def describe(self) -> str:
        return json.dumps(self.spec(), sort_keys=True)

    def reads(self, sample: Sample) -> tuple[str, ...] | None:
        return self.entry.reads

    def key(self, completion: str, sample: Sample) -> str:
        return make_key(self.describe(), completion, sample, self.entry.reads)

    def warm_up(self) -> None:
        self.entry.warm_up()

    def __call__(self, completion: str, sample: Sample) -> Verdict:
        return self.entry(completion, sample, **dict(self.options))


@dataclass(frozen=True)
class FunctionVerifier:
    """Any callable (completion, sample) -> Verdict. For worker processes it must be
    picklable, i.e. defined at module level in an importable module."""

    fn: Callable[[str, Sample], Verdict]
    options: Mapping[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        return f"{getattr(self.fn, '__module__', '?')}.{getattr(self.fn, '__qualname__', repr(self.fn))}"

    def key(self, completion: str, sample: Sample) -> str:
        return make_key(self.describe() + json.dumps(dict(self.options), sort_keys=True, default=repr),
                        completion, sample, ALL_FIELDS)

    def warm_up(self) -> None:
        return None

    def __call__(self, completion: str, sample: Sample) -> Verdict:
        return self.fn(completion, sample, **dict(self.options))


def check_verdict(value: Any, where: str) -> Verdict:
    """The verdict itself, or an ``error`` verdict saying what the verifier returned."""
    if not isinstance(value, Verdict):
        return Verdict(0.0, "error", f"{where} returned {type(value).__name__}, not a Verdict")
    if value.status not in STATUSES:
        return Verdict(0.0, "error", f"{where} returned unknown status {value.status!r}; valid: {', '.join(STATUSES)}")
    return value
