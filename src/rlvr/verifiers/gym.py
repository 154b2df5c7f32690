"""reasoning-gym adapter: its generators as prompt sources, its scorers as verifiers.

- ``gym_samples(name, size, seed, **config) -> list[Sample]``: procedurally generated
  problems; each Sample carries the dataset name and the generator's entry (question,
  answer, metadata) in ``fields`` and names the ``gym`` verifier (``rlvr.train(dataset=...)``
  takes such a list as it is).
- ``open_dataset(name, size, seed, config)``: the generator itself, every refusal a one-line
  ``UserError`` (an unknown name lists the close ones, an unknown config key the valid
  ones); ``entry_sample`` turns one of its entries into a Sample. ``task.name=gym``
  (``rlvr.tasks.gym``) draws its prompts through these two.
- ``verify_gym(completion, sample)``: the registered ``gym`` verifier. It takes the answer
  from the single ``<answer>…</answer>`` tag that ends the completion (the same strict rule
  as ``exact``; reasoning-gym's prompts ask for that tag) and returns the dataset's own
  ``score_answer`` as the reward; status ``ok`` only for a full score of 1.0.

Deliberately refused (``UNSAFE``, with the reason per dataset) unless ``allow_unsafe=True``:
scorers that run ``eval`` or sympy's ``parse_expr`` (which uses ``eval``) on the model's
text, so a completion becomes code run by the trainer (read in reasoning-gym 0.1.25's
source), and scorers that reward an empty or arbitrary answer. The check runs both when
generating and when scoring, so a hand-made row cannot slip past it.

``reasoning_gym`` is an optional extra (``pip install 'rlvr[gym]'``), imported lazily.
What it does not do: curricula, or reasoning-gym's own answer extraction.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from rlvr.errors import UserError
from rlvr.types import Sample, Verdict
from rlvr.verifiers import extract

_EVAL = "its score_answer calls eval() on the model's answer (arbitrary code execution)"
_PARSE_EXPR = ("its score_answer calls sympy.parse_expr on the model's answer, which runs eval()"
               " (arbitrary code execution)")

UNSAFE: dict[str, str] = {
    "countdown": _PARSE_EXPR,
    "puzzle24": _PARSE_EXPR,
    "simple_integration": _PARSE_EXPR,
    "intermediate_integration": _PARSE_EXPR,
    "polynomial_multiplication": _PARSE_EXPR,
    "spiral_matrix": _EVAL,
    "string_insertion": _EVAL,
    "binary_matrix": _EVAL,
    "n_queens": _EVAL,
    "game_of_life_halting": "its score_answer gives 1.0 to any non-empty answer (bool(answer) == bool(reference))",
    "polynomial_equations": "its score_answer gives 1.0 to an answer without any number whenever the reference has"
                            " no solutions",
    "composite": "it mixes other datasets; request each by name so that this list can check it",
}


class UnsafeDatasetError(UserError):
    """A reasoning-gym dataset whose scorer is unsafe or gameable."""


def _gym() -> Any:
    try:
        import reasoning_gym
    except ImportError as exc:
        raise ImportError("the reasoning-gym adapter needs reasoning-gym: pip install 'rlvr[gym]'") from exc
    return reasoning_gym


def check_dataset(name: str, allow_unsafe: bool = False) -> None:
    """Raise ``UnsafeDatasetError`` with the reason when ``name`` is on the deny-list."""
    if name in UNSAFE and not allow_unsafe:
        raise UnsafeDatasetError(
            f"reasoning-gym dataset {name!r} is refused: {UNSAFE[name]}. "
            f"Pass allow_unsafe=True only for trusted completions in a sandbox."
        )


def _config_class(rg: Any, name: str) -> Any:
    import difflib

    datasets = rg.factory.DATASETS
    if name not in datasets:
        close = difflib.get_close_matches(name, list(datasets), n=5, cutoff=0.6)
        some = ", ".join(sorted(datasets)[:6])
        hint = f"close names: {', '.join(close)}" if close else f"{len(datasets)} names, e.g. {some}"
        raise UserError(f"reasoning-gym has no dataset {name!r}; {hint} "
                        f"(all: python -c 'import reasoning_gym; print(sorted(reasoning_gym.factory.DATASETS))')")
    return datasets[name][1]


def open_dataset(name: str, size: int, seed: int, config: dict | None = None, *, allow_unsafe: bool = False) -> Any:
    """reasoning-gym's generator ``name`` with ``config`` (its config class's keyword
    arguments); a refused, unknown or badly configured dataset raises one ``UserError``."""
    import dataclasses

    check_dataset(name, allow_unsafe)
    rg = _gym()
    config_cls = _config_class(rg, name)
    config = dict(config or {})
    known = [f.name for f in dataclasses.fields(config_cls)] if dataclasses.is_dataclass(config_cls) else None
    bad = sorted(set(config) - set(known or config) | set(config) & {"seed", "size"})
    if bad:
        valid = ", ".join(k for k in known or () if k not in ("seed", "size"))
        raise UserError(f"reasoning-gym dataset {name!r} has no config key {bad[0]!r}"
                        f"{' (rlvr sets seed and size)' if bad[0] in ('seed', 'size') else ''}; valid: {valid}")
    try:
        return rg.create_dataset(name, size=size, seed=seed, **config)
    except (AssertionError, ValueError, TypeError, KeyError) as exc:
        raise UserError(f"reasoning-gym dataset {name!r} refuses config {config}: "
                        f"{exc or type(exc).__name__}") from None


def entry_sample(name: str, entry: dict, sid: str, prompt: str | None = None, verifier: str | None = "gym") -> Sample:
    """One generator entry as a Sample: ``prompt`` defaults to the entry's question."""
    answer = entry.get("answer")
    return Sample(id=sid, prompt=entry["question"] if prompt is None else prompt,
                  answer=None if answer is None else str(answer),
                  fields={"gym_dataset": name, "gym_entry": entry, "question": entry["question"]},
                  verifier=verifier)


def gym_samples(name: str, size: int, seed: int = 0, *, allow_unsafe: bool = False, **config: Any) -> list[Sample]:
    """``size`` problems of reasoning-gym dataset ``name`` (config passed to its generator)."""
    dataset = open_dataset(name, size, seed, config, allow_unsafe=allow_unsafe)
    verifier = '{"name": "gym", "options": {"allow_unsafe": true}}' if allow_unsafe else "gym"
    return [entry_sample(name, dataset[index], f"{name}/{seed}/{index}", verifier=verifier) for index in range(size)]


@lru_cache(maxsize=64)
def _scorer(name: str) -> Callable[[str | None, dict], float]:
    return _gym().get_score_answer_fn(name)


def verify_gym(completion: str, sample: Sample, *, allow_unsafe: bool = False) -> Verdict:
    """The dataset's own score of the tagged answer (see module docstring)."""
    name, entry = sample.get("gym_dataset"), sample.get("gym_entry")
    if not name or not isinstance(entry, dict):
        raise ValueError("the gym verifier needs fields 'gym_dataset' and 'gym_entry' (see gym_samples)")
    check_dataset(name, allow_unsafe)
    tagged = extract.answer_tag(completion)
    if tagged is None or tagged.text is None:
        return Verdict(0.0, "no_answer", tagged.reason if tagged else "no <answer>…</answer> tag")
    score = float(_scorer(name)(tagged.text, entry))
    status = "ok" if score >= 1.0 else "wrong"
    return Verdict(score, status, f"{name} score {score:g}", {"gym_score": score}, answer=tagged.text.strip())
