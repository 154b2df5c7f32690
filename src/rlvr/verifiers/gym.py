"""reasoning-gym adapter: its generators as prompt sources, its scorers as verifiers.

- ``gym_samples(name, size, seed, **config) -> list[Sample]``: procedurally generated
  problems; each Sample carries the dataset name and the generator's entry (question,
  answer, metadata) in ``fields`` and names the ``gym`` verifier.
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


def gym_samples(name: str, size: int, seed: int = 0, *, allow_unsafe: bool = False, **config: Any) -> list[Sample]:
    """``size`` problems of reasoning-gym dataset ``name`` (config passed to its generator)."""
    check_dataset(name, allow_unsafe)
    rg = _gym()
    try:
        dataset = rg.create_dataset(name, size=size, seed=seed, **config)
    except ValueError as exc:
        raise UserError(f"reasoning-gym: {exc}") from None
    verifier = '{"name": "gym", "options": {"allow_unsafe": true}}' if allow_unsafe else "gym"
    samples = []
    for index in range(size):
        entry = dataset[index]
        answer = entry.get("answer")
        samples.append(Sample(
            id=f"{name}/{seed}/{index}",
            prompt=entry["question"],
            answer=None if answer is None else str(answer),
            fields={"gym_dataset": name, "gym_entry": entry},
            verifier=verifier,
        ))
    return samples


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
    return Verdict(score, status, f"{name} score {score:g}", {"gym_score": score})
