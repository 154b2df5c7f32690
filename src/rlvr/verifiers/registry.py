"""Verifier names, and the picklable objects the pool runs.

``VERIFIERS`` maps a name to a callable ``(completion, sample, **options) -> Verdict``.
Every entry is a ``LazyVerifier``: it names its module and function as strings and
imports them on first call, so that importing this registry is cheap (no sympy, no
math-verify) and "code"/"proof"/"gym" resolve only when used.

``Named``, ``FunctionVerifier`` and ``Composite`` (``rlvr.verifiers.composite``, which also
turns specs into these objects: ``as_verifier``) each have ``__call__`` and ``key`` (the
cache key: verifier name + options + completion + the sample fields that verifier reads).
Worker processes receive them by pickling, so they hold only names and plain data.

A user's reward function is named by its import path, ``module:function`` (the convention of
uvicorn and entry points): ``get_verifier("my_rewards:score")`` imports it (from the
working directory too) and adapts it with ``UserReward``, in either of two forms:

- rlvr's own, ``f(completion, sample) -> Verdict`` (or a number);
- TRL's ``reward_funcs``, any function with a ``completions`` parameter:
  ``f(completions=[text], prompts=[prompt], **row_fields) -> [float]``, called once per
  completion with lists of one, the row's columns as keyword arguments.

A number (either form) is the reward as it is; the completion counts as correct (status
``ok``, what pass@1 counts) when it is >= 1. ``None``, NaN or a non-number is status
``error``. Functions handed over in Python (``rlvr.train(reward=fn)``) are registered under
their import path (``register_function``), so a script's own ``__main__`` functions resolve
in this process without being importable.

What this module does not do: run verifiers in parallel or enforce timeouts (that is
``rlvr.verifiers.pool``), or define any verifier's logic.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import math
import os
import sys
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


_LOADED: dict[tuple[str, str], Callable[..., Any]] = {}

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
                     (("tests", "io_tests", "hidden_tests", "call_tests"),),
                     "run the program against `tests` / `io_tests` / `hidden_tests` / `call_tests` in a sandbox"),
        LazyVerifier("proof", "rlvr.verifiers.proof", "verify_proof", ALL_FIELDS, (("statement",),),
                     "check a proof of `statement` with the proof assistant"),
        LazyVerifier("gym", "rlvr.verifiers.gym", "verify_gym", ("gym_dataset", "gym_entry"),
                     (("gym_dataset",), ("gym_entry",)),
                     "reasoning-gym's own scorer for `gym_dataset` (optional extra rlvr[gym])"),
    )
}


def valid_names() -> list[str]:
    return sorted(VERIFIERS)


def get_verifier(name: str) -> LazyVerifier | UserReward:
    """The registered verifier called ``name``, or the user's function ``module:function``;
    an unknown name raises an error listing the valid names."""
    if name in VERIFIERS:
        return VERIFIERS[name]
    if isinstance(name, str) and is_function_spec(name):
        entry = UserReward(name.strip())
        entry.load()  # unimportable: one line naming the module or the attribute
        return entry
    raise UnknownVerifierError(
        f"unknown verifier {name!r}; valid: {', '.join(valid_names())}, a function as module:function, "
        f"or a composite spec {{\"composite\": {{\"exact\": 1.0, \"format\": 0.1}}}}"
    )


# ------------------------------------------------------------------ user functions

_REGISTERED: dict[str, Callable[..., Any]] = {}  # import path -> a function handed over in Python


def is_function_spec(name: str) -> bool:
    """``module:function`` (not a JSON spec, not a registered name)."""
    text = name.strip()
    return ":" in text and not text.startswith("{") and text not in VERIFIERS


def import_path(fn: Callable[..., Any]) -> str:
    """``module:qualname`` of a function (what config.json records for it)."""
    module = getattr(fn, "__module__", None)
    qualname = getattr(fn, "__qualname__", None) or getattr(type(fn), "__qualname__", None)
    if not module or not qualname:
        raise UnknownVerifierError(f"cannot name {fn!r} by an import path; define it at module level")
    return f"{module}:{qualname}"


def register_function(fn: Callable[..., Any]) -> str:
    """Make ``fn`` resolvable by its import path in this process; the path."""
    if not callable(fn):
        raise UnknownVerifierError(f"a reward function must be callable, got {type(fn).__name__}")
    path = import_path(fn)
    reward_form(fn, path)  # a signature that fits neither form is refused now
    _REGISTERED[path] = fn
    _LOADED.pop(("user", path), None)
    return path


def _import_module(module_name: str, spec: str) -> Any:
    """Import the user's module, from the working directory too (as uvicorn does); a module
    that is not found, or that fails while importing, is one line naming which."""
    cwd = os.getcwd()
    for attempt in (0, 1):
        try:
            return importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            ours = exc.name == module_name or module_name.startswith(f"{exc.name}.")
            if ours and attempt == 0 and cwd not in sys.path:
                sys.path.insert(0, cwd)  # modules in the working directory resolve
                continue
            if ours:
                raise UnknownVerifierError(f"verifier {spec!r}: cannot import module {module_name!r}: no module of "
                                           f"that name on the path or in the working directory {cwd}") from None
            raise UnknownVerifierError(f"verifier {spec!r}: importing {module_name!r} failed: it imports "
                                       f"{exc.name!r}, which is not installed ({exc})") from None
        except SyntaxError as exc:
            raise UnknownVerifierError(f"verifier {spec!r}: {exc.filename}, line {exc.lineno}: syntax error: "
                                       f"{exc.msg}") from None
        except Exception as exc:  # the user's module raised while importing
            raise UnknownVerifierError(f"verifier {spec!r}: importing {module_name!r} failed: "
                                       f"{type(exc).__name__}: {exc}") from None
    raise AssertionError("unreachable")


def _import_function(spec: str) -> Callable[..., Any]:
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise UnknownVerifierError(f"verifier {spec!r} is not module:function (example: my_rewards:score)")
    module = _import_module(module_name, spec)
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part) and module_name == "__main__":
            raise UnknownVerifierError(f"{spec!r} is a function of the script that started the run, which this "
                                       f"process cannot import: pass it again from that script (reward=...), or "
                                       f"move it into a module and name it module:function")
        if not hasattr(obj, part):
            raise UnknownVerifierError(f"verifier {spec!r}: module {module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise UnknownVerifierError(f"verifier {spec!r}: {attr!r} is a {type(obj).__name__}, not a function")
    return obj


def reward_form(fn: Callable[..., Any], where: str) -> str:
    """``"trl"`` (a ``completions`` parameter: TRL's reward_funcs) or ``"verdict"``
    (``f(completion, sample)``); anything else is refused naming both forms."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return "verdict"  # a builtin or C callable: called as f(completion, sample)
    if any(p.name == "completions" for p in params):
        return "trl"
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    if len(required) <= 2 <= len(positional) or any(p.kind == p.VAR_POSITIONAL for p in params):
        return "verdict"
    raise UnknownVerifierError(
        f"reward function {where} takes ({', '.join(p.name for p in params)}); rlvr calls f(completion, sample) -> "
        f"Verdict or a number, or TRL-style f(completions, **row_fields) -> list of floats")


def row_fields(sample: Sample) -> dict[str, Any]:
    """The row's fields as TRL passes them to a reward function: every dataset column but the
    prompt (for built-in tasks: ``answer`` and the task's own fields). ``answer`` is the reference
    rlvr grades against (``sample.answer``: after ``task.answer_extract``, whatever column
    ``task.fields.answer`` names); when that differs from the row's own ``answer`` column (GSM8K's
    worked solution ending ``#### 42``), the column's text is passed as ``answer_raw``."""
    columns = sample.fields.get("columns")
    if not isinstance(columns, Mapping):
        out = {k: v for k, v in sample.fields.items() if k not in ("source", "question", "columns")}
        out["answer"] = sample.answer
        return out
    out = {k: v for k, v in columns.items() if k not in ("prompt", "completion", "completions", "prompts")}
    if sample.answer is not None and ("answer" not in out or str(out["answer"]) != sample.answer):
        if "answer" in out and "answer_raw" not in out:
            out["answer_raw"] = out["answer"]
        out["answer"] = sample.answer
    return out


def _as_verdict(value: Any, where: str) -> Verdict:
    """A user's return value as a Verdict: a Verdict as it is, a number as the reward
    (ok when >= 1), anything else an ``error`` verdict saying what came back."""
    if isinstance(value, Verdict):
        return check_verdict(value, where)
    if isinstance(value, bool):
        value = float(value)
    if isinstance(value, (int, float)) or (hasattr(value, "item") and getattr(value, "ndim", 1) == 0):
        reward = float(value.item() if hasattr(value, "item") else value)
        if math.isnan(reward) or math.isinf(reward):
            return Verdict(0.0, "error", f"{where} returned {reward}")
        return Verdict(reward, "ok" if reward >= 1.0 else "wrong", f"reward {reward:g}")
    if value is None:
        return Verdict(0.0, "error", f"{where} returned None (no reward for this completion)")
    return Verdict(0.0, "error", f"{where} returned {type(value).__name__} {str(value)[:60]!r}, not a number "
                                f"or a Verdict")


@dataclass(frozen=True)
class UserReward:
    """A user's reward function named ``module:function``, adapted to ``(completion, sample)
    -> Verdict`` (see the module docstring for the two forms). Holds only the name, so worker
    processes re-import it."""

    name: str
    reads: tuple[str, ...] | None = ALL_FIELDS
    requires: tuple[tuple[str, ...], ...] = ()
    summary: str = "a user's reward function"

    def load(self) -> Callable[..., Any]:
        key = ("user", self.name)
        if key not in _LOADED:
            fn = _REGISTERED.get(self.name) or _import_function(self.name)
            _LOADED[key] = fn
        return _LOADED[key]

    def warm_up(self) -> None:
        self.load()

    def __call__(self, completion: str, sample: Sample, **options: Any) -> Verdict:
        fn = self.load()
        if reward_form(fn, self.name) == "verdict":
            return _as_verdict(fn(completion, sample, **options), self.name)
        kwargs = {k: [v] for k, v in row_fields(sample).items()}
        kwargs.update(prompts=[sample.prompt], completions=[completion], **options)
        params = inspect.signature(fn).parameters.values()
        if not any(p.kind == p.VAR_KEYWORD for p in params):  # pass only what it names
            names = {p.name for p in params}
            kwargs = {k: v for k, v in kwargs.items() if k in names}
        out = fn(**kwargs)
        if not isinstance(out, (list, tuple)) or len(out) != 1:
            return Verdict(0.0, "error", f"{self.name} returned {type(out).__name__} "
                                         f"{str(out)[:60]!r}; a TRL-style reward returns one float per completion")
        return _as_verdict(out[0], self.name)


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
