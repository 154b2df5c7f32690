"""Build the ninth split recall corpus ``tests/data/math_recall9/``: real, graded math outputs from
repositories none of the earlier corpora used: the step-by-step solutions of OpenAI's o1-preview, GPT-4
and GPT-3.5 chat models and DeepSeek-V3 to the 387 MathOdyssey problems (high-school competition,
high-school and university mathematics), each asked for its reasoning and answer in a JSON block and
graded by the repository's GPT-4 Turbo judge; each source split into a tuning half and a held-out half.

The split is the one of ``bench/build_math_recall2.py`` and is made before any row is looked
at: a row goes to the held-out half when the first byte of ``sha256(row id)`` is odd
(``split_of``), the row id naming the source's own stable key (run file and problem key). The halves are
written to separate files, ``<source>.tune.jsonl.gz`` and ``<source>.heldout.jsonl.gz``. A verifier may be
tuned on the tuning halves only; the held-out halves measure it.

Each source is read from a git snapshot of its repository at a fixed commit (``git show
COMMIT:PATH``; nothing is downloaded or executed). Rows have the fields of
``bench/build_math_recall6.py``. ``grade`` is the repository's own grade: the ``is_correct`` its
``evaluate_response.py`` stored for the run (the judge's score of the answer extracted from the
solution). ``mv`` is plain Math-Verify's verdict at build time, ``label`` the grade except the rows
of ``LABEL_OVERRIDES`` (read by hand after scoring, each with its reason).

A fixed number of correct and of incorrect rows is kept per source, the first by
``sha256(row id + "/pick")`` (``pick``): the choice reads only the ids and the source's grade.
Rows are left out on their form only (where the stored grade is not a bare score, or the answer it
graded is not written in the output), never on whether the answer is right.

Usage (bare git directories ``OWNER+NAME/repo``, e.g. from ``git clone --mirror``)::

    .venv/bin/python bench/build_math_recall9.py --repos /work/.mirror [--out tests/data/math_recall9] [--check]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from build_math_recall import ROW_KEYS, Repo  # noqa: E402
from build_math_recall2 import pick, split_corpus_main  # noqa: E402

# (repo, commit, licence, licence file in the repo)
ODYSSEY = ("protagolabs/odyssey-math", "fe9e83df06111728e1b06ddaee0a60837c07d6c9", "MIT", "LICENSE")

_ODY = ("on the 387 MathOdyssey problems, zero-shot as a 'math professor' asked for a step-by-step solution "
        "and a JSON block {{\"reasoning\", \"answer\"}}, graded by the repository's evaluate_response.py (a GPT-4 "
        "Turbo judge scoring the extracted answer 1 or 0 against the key, equivalent forms and two-decimal "
        "approximations accepted)")

# name -> (repo, commit, licence, licence file, what it is)
SOURCES = {
    "odyssey_o1_preview": (*ODYSSEY, "OpenAI o1-preview (a reasoning model) " + _ODY.format()),
    "odyssey_deepseek_v3": (*ODYSSEY, "DeepSeek-V3 (deepseek-v3-Instruct) " + _ODY.format()),
    "odyssey_gpt_chat": (*ODYSSEY, "GPT-4 (0613, 0125-preview, 1106-preview, turbo-2024-04-09) and GPT-3.5 "
                                   "(turbo-0125) chat models, one to three runs each, " + _ODY.format()),
}

# source -> {full-solution file stem under jsonl/: (model, the eval file stem under jsonl/eval/ that grades it)};
# only the runs whose eval file names its solution file (the cleaned-answer file name is the solution file's with
# "-clean", "-clean-new" or "-clean-last"); the Llama-3-70B solution files are over the snapshot's size limit, and
# DBRX and the "output*" runs have no solution file
ODYSSEY_RUNS = {
    "odyssey_o1_preview": {"gpt-4-o1-preview-solution": ("o1-preview", "gpt-4-o1-preview-solution-clean")},
    "odyssey_deepseek_v3": {"deepseek-v3-Instruct-solution": ("deepseek-v3-instruct",
                                                              "deepseek-v3-Instruct-solution-clean")},
    "odyssey_gpt_chat": {
        "gpt-3.5-turbo-0125-solution": ("gpt-3.5-turbo-0125", "gpt-3.5-turbo-0125-solution-clean"),
        "gpt-4-0125-preview-solution": ("gpt-4-0125-preview", "gpt-4-0125-preview-solution-clean"),
        "gpt-4-0125-preview-solution-new": ("gpt-4-0125-preview", "gpt-4-0125-preview-solution-clean-new"),
        "gpt-4-0613-solution": ("gpt-4-0613", "gpt-4-0613-solution-clean"),
        "gpt-4-0613-solution-last": ("gpt-4-0613", "gpt-4-0613-solution-clean-last"),
        "gpt-4-1106-preview-solution": ("gpt-4-1106-preview", "gpt-4-1106-preview-solution-clean"),
        "gpt-4-turbo-2024-04-09-solution": ("gpt-4-turbo-2024-04-09", "gpt-4-turbo-2024-04-09-solution-clean"),
        "gpt-4-turbo-2024-04-09": ("gpt-4-turbo-2024-04-09", "gpt-4-turbo-2024-04-09-clean-new"),
        "gpt-4-turbo-2024-04-09-second": ("gpt-4-turbo-2024-04-09", "gpt-4-turbo-2024-04-09-second-clean-new"),
    },
}
ODYSSEY_DATA = "final-odyssey-math-with-levels.jsonl"


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def odyssey_keyed(repo: Repo, path: str) -> dict[str, object]:
    """A run file's one-key lines as {problem key: value}, in file order."""
    out: dict[str, object] = {}
    for item in repo.jsonl(path):
        (key, value), = item.items()
        out[key] = value
    return out


def odyssey_states_answer(completion: object, graded: object, score: object) -> bool:
    """Whether the stored grade is a bare score of an answer the output writes: the judge's stored
    ``is_correct`` is exactly "0" or "1" (some stored judge replies are explanations), and the answer it
    scored (the run's extracted, "cleaned" answer) is not empty and appears in the output, blanks ignored.
    Reads the form only, never the key."""
    if not isinstance(completion, str) or not isinstance(graded, str) or score not in ("0", "1"):
        return False
    return bool(graded.strip()) and _squeezed(graded) in _squeezed(completion)


def odyssey_rows(repo: Repo, name: str) -> list[dict]:
    """Every eligible row of a source's runs (before ``pick``): the stored judge score of each output,
    each eval file checked to cover the data file's problems in order and to grade its key."""
    data = odyssey_keyed(repo, ODYSSEY_DATA)
    rows = []
    for stem, (model, graded_by) in ODYSSEY_RUNS[name].items():
        path = f"jsonl/{stem}.jsonl"
        solutions = odyssey_keyed(repo, path)
        results = odyssey_keyed(repo, f"jsonl/eval/result-{graded_by}.jsonl")
        if list(results) != list(data) or list(solutions) != list(data):
            raise SystemExit(f"build_math_recall9: {stem}: its problems are not the data file's")
        for key, result in results.items():
            problem = data[key]
            if result["true"] != problem["answer"]:
                raise SystemExit(f"build_math_recall9: {stem}/{key}: the eval file's key is not the data file's")
            if not odyssey_states_answer(solutions[key], result["prediction"], result["is_correct"]):
                continue
            rows.append({"id": f"{stem}/{key}", "path": path, "model": model, "reference": problem["answer"],
                         "completion": solutions[key], "grade": int(result["is_correct"]),
                         "grade_from": "odyssey_evaluate_response_is_correct", "lang": "en",
                         "question": problem["question"]})
    return rows


# Rows whose grade a hand look found wrong, read only after both halves had been scored once with the rules frozen
# (the five incorrect rows that scoring paid): each answer states the key's value, which the GPT-4 judge refused.
_EQUAL = "graded 0 by the judge, but the answer states the key's value: {}; read after both halves were scored"
_LAYOUT = ("graded 0 by the judge, but the answer states the key's value: {}; first scored once keys with page layout "
           "were read, and read after that scoring")
LABEL_OVERRIDES: dict[str, tuple[int, str]] = {
    "odyssey_deepseek_v3/deepseek-v3-Instruct-solution/Problem_330": (1, _EQUAL.format("(pi + 2)/8 = pi/8 + 1/4")),
    "odyssey_deepseek_v3/deepseek-v3-Instruct-solution/Problem_370": (1, _EQUAL.format("0.8 for 0.80")),
    "odyssey_o1_preview/gpt-4-o1-preview-solution/Problem_330": (1, _EQUAL.format("(π + 2)/8 = pi/8 + 1/4")),
    "odyssey_deepseek_v3/deepseek-v3-Instruct-solution/Problem_263": (
        1, _EQUAL.format("2 ln x + 3 ln(y^2 - z) - 1/2 ln(y+1), the key as written")),
    "odyssey_o1_preview/gpt-4-o1-preview-solution/Problem_59": (
        1, _EQUAL.format("\\frac{\\sqrt{2}}{2}, the key as written")),
    # keys with LaTeX page layout ("C \\\\ \\noindent") raised until the verifier read references without it; these
    # two rows were first scored then, and read after that scoring
    "odyssey_deepseek_v3/deepseek-v3-Instruct-solution/Problem_284": (
        1, _LAYOUT.format("the letter C, the key's option")),
    "odyssey_deepseek_v3/deepseek-v3-Instruct-solution/Problem_69": (
        1, _LAYOUT.format("\\frac{\\sqrt{6} - \\sqrt{2}}{2}, the key as written")),
}

BUILDERS = {name: (lambda repo, name=name: pick(odyssey_rows(repo, name), 60, 60)) for name in ODYSSEY_RUNS}


def eligible_counts(root: Path) -> dict[str, tuple[int, int]]:
    """(correct, incorrect) rows of each source before ``pick``, for the README."""
    out = {}
    for name in ODYSSEY_RUNS:
        rows = odyssey_rows(Repo(root, *SOURCES[name][:2]), name)
        out[name] = (sum(r["grade"] for r in rows), sum(1 - r["grade"] for r in rows))
    return out


def main(argv: list[str] | None = None) -> int:
    return split_corpus_main(argv, description=__doc__.split("\n\n")[0], sources=SOURCES, builders=BUILDERS,
                             overrides=LABEL_OVERRIDES, default_out=Path(__file__).resolve().parents[1] /
                             "tests/data/math_recall9", keys=(*ROW_KEYS, "lang", "question"), repo_class=Repo)


if __name__ == "__main__":
    sys.exit(main())
