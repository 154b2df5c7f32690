"""Build the eleventh split recall corpus ``tests/data/math_recall11/``: real, graded math outputs from
repositories none of the earlier corpora used: chat models' answers to bare arithmetic tasks, multi-digit
multiplication (the factors written as numerals, as words, in capitals or in alternating capitals) and a
linear function applied to a number (the Celsius-to-Fahrenheit rule, and a made-up rule of the same shape),
each with the repository's stored per-row grade; and GPT-3.5's and GPT-4's step-by-step counts of happy
numbers in a range from the March and June 2023 snapshots, answered in ``\\boxed{}``, graded by the
repository's rule; each source split into a tuning half and a held-out half.

The split is the one of ``bench/build_math_recall2.py`` and is made before any row is looked
at: a row goes to the held-out half when the first byte of ``sha256(row id)`` is odd
(``split_of``), the row id naming the source's own stable key (task condition, model and index; model and
question id). The halves are written to separate files, ``<source>.tune.jsonl.gz`` and
``<source>.heldout.jsonl.gz``. A verifier may be tuned on the tuning halves only; the held-out halves
measure it.

Each source is read from a git snapshot of its repository at a fixed commit (``git show
COMMIT:PATH``; nothing is downloaded or executed). Rows have the fields of
``bench/build_math_recall6.py``. ``grade`` is the repository's own grade: the ``correct`` column of the
evaluation tables embers-of-autoregression stored for each model (``evaluation/table_*.tsv``), and for
LLMDrift the rule of its ``src/analysis/utils.py`` (``calculate_boxed_score``: the first ``boxed{...}`` of
the lower-cased answer equals the reference's), recomputed because the generation file stores no score.
``mv`` is plain Math-Verify's verdict at build time, ``label`` the grade except the rows of
``LABEL_OVERRIDES`` (none yet).

A fixed number of correct and of incorrect rows is kept per source, the first by
``sha256(row id + "/pick")`` (``pick``): the choice reads only the ids and the source's grade.
Rows are left out on their form only (where the output does not state an answer where the grading rule
reads it), never on whether the answer is right.

Usage (bare git directories ``OWNER+NAME/repo``, e.g. from ``git clone --mirror``)::

    .venv/bin/python bench/build_math_recall11.py --repos /work/.mirror [--out tests/data/math_recall11] [--check]
"""

from __future__ import annotations

import csv
import io
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from build_math_recall import ROW_KEYS, Repo  # noqa: E402
from build_math_recall2 import pick, split_corpus_main  # noqa: E402

# (repo, commit, licence, licence file in the repo)
EMBERS = ("tommccoy1/embers-of-autoregression", "5dd6c91ad57cd2d913402b98e4253fda806fbe93", "MIT", "LICENSE")
DRIFT = ("lchen001/LLMDrift", "4938eb720aed5210dd2153644fa35cf38b9c6d26", "Apache-2.0", "LICENSE")

_EM = ("answers of GPT-3.5-turbo-0613, GPT-4-0613, Claude 3 Opus, Gemini 1.0 Pro and Llama 3 70B chat (temperature "
       "0) from the 'Embers of autoregression' experiments, told that their answer should be a single number; "
       "graded by the stored 'correct' of the repository's evaluation tables; {}")

# name -> (repo, commit, licence, licence file, what it is)
SOURCES = {
    "embers_multiplication_chat": (*EMBERS, _EM.format(
        "the product of two three-digit numbers, the factors given as numerals, as English words, in capitals or "
        "in alternating capitals (the reference is the product as numerals)")),
    "embers_conversion_actual_chat": (*EMBERS, _EM.format(
        "a number multiplied by 9/5 and then 32 added (the Celsius-to-Fahrenheit rule, not named as such), on the "
        "repository's two input sets")),
    "embers_conversion_fake_chat": (*EMBERS, _EM.format(
        "a number multiplied by 7/5 and then 31 added (a made-up rule of the same shape), on the same two input "
        "sets")),
    "drift_happy_numbers_gpt": (*DRIFT, (
        "step-by-step answers of gpt-3.5-turbo-0301 and -0613 and gpt-4-0314 and -0613 (temperature 0.1) to 'How "
        "many happy numbers are there between A and B? Think step by step and then answer within \\boxed', "
        "graded by LLMDrift's rule (the first boxed{...} of the answer equals the reference's), recomputed")),
}

# ------------------------------------------------------------------ embers-of-autoregression

EMBERS_MODELS = ("gpt-3.5-turbo-0613", "gpt-4-0613", "llama-3-70b-chat-hf", "claude-3-opus-20240229",
                 "gemini-1.0-pro-001")
# source -> {condition (log and stimuli stem): evaluation table stem (per model) that grades it}
EMBERS_CONDITIONS = {
    "embers_multiplication_chat": {c: "table_multiplication" for c in (
        "multiplication_number", "multiplication_word", "multiplication_allcaps", "multiplication_alternatingcaps")},
    "embers_conversion_actual_chat": {"conversion_actual": "table_conversion_fwd",
                                      "conversion_ood_actual": "table_conversion_ood_fwd"},
    "embers_conversion_fake_chat": {"conversion_fake": "table_conversion_fwd",
                                    "conversion_ood_fake": "table_conversion_ood_fwd"},
}


def _unquote(text: str) -> str:
    """A logged response or reference without the one pair of double quotes some are stored in."""
    text = text.strip()
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        return text[1:-1]
    return text


def multiplication_states_answer(response: object) -> bool:
    """Whether the response ends in a product written as numerals: its last word, commas and periods
    removed, is digits only (that word is what the repository's evaluation reads). Reads the form only."""
    if not isinstance(response, str) or not _unquote(response).split():
        return False
    return _unquote(response).split()[-1].replace(",", "").replace(".", "").isdigit()


def _numbers(text: str) -> set[str]:
    """The distinct whitespace-separated words of ``text`` that read as numbers (``float``), as the
    repository's ``eval_conversion.py`` collects them (``find_unique_number``)."""
    out = set()
    for word in text.split():
        try:
            float(word)
        except ValueError:
            continue
        out.add(word)
    return out


def conversion_states_answer(response: object) -> bool:
    """Whether the response states exactly one number (a final period removed): the repository's evaluation
    then grades that number; a response with several numbers (a worked solution) is graded only where one of
    its hand-written reading patterns applies. Reads the form only."""
    return isinstance(response, str) and len(_numbers(_unquote(response).rstrip("."))) == 1


def _rule_multiplication(response: str, reference: str) -> int:
    """``eval_multiplication.py``: correct when the reference is in the last word, commas and periods removed."""
    return int(reference in response.split()[-1].replace(",", "").replace(".", ""))


def _rule_conversion(response: str, reference: str) -> int:
    """``eval_conversion.py`` on a response stating one number: correct when that number equals the reference."""
    (number,) = _numbers(response.rstrip("."))
    return int(float(number) == float(reference))


def embers_table(repo: Repo, stem: str, model: str) -> dict[tuple[str, int], int]:
    """(condition, index) -> the stored ``correct`` of one evaluation table, checked to be a bare 0 / 1 and
    to hold each (condition, index) once."""
    path = f"evaluation/{stem}_{model}.tsv"
    out: dict[tuple[str, int], int] = {}
    for row in csv.DictReader(io.StringIO(repo.show(path)), delimiter="\t"):
        condition = row.get("method") or row.get("task")
        key = (condition, int(row["index"]))
        if row["correct"] not in ("0", "1") or key in out:
            raise SystemExit(f"build_math_recall11: {path}: {key} is not graded once with a bare 0 / 1")
        out[key] = int(row["correct"])
    return out


def embers_rows(repo: Repo, name: str) -> list[dict]:
    """Every eligible row of a source's conditions and models (before ``pick``); each log is checked to
    hold one response per stimulus and to be graded for each of them by its table, and each eligible row's
    stored grade to be the repository's rule applied to it (so the table's rows are the log's rows)."""
    states_answer = multiplication_states_answer if "multiplication" in name else conversion_states_answer
    rows = []
    for condition, stem in EMBERS_CONDITIONS[name].items():
        stimuli = [json.loads(line) for line in repo.show(f"stimuli/{condition}.jsonl").splitlines() if line.strip()]
        for model in EMBERS_MODELS:
            table = embers_table(repo, stem, model)
            path = f"logs/{condition}_{model}_temp=0.0_n=1.json"
            log = json.loads(repo.show(path))
            if not len(log["res"]) == len(log["gts"]) == len(log["prompts"]) == len(stimuli):
                raise SystemExit(f"build_math_recall11: {path}: not one response per stimulus")
            for index, (response, reference, prompt) in enumerate(zip(log["res"], log["gts"], log["prompts"])):
                if (condition, index) not in table:
                    raise SystemExit(f"build_math_recall11: {path}[{index}]: no grade in {stem}_{model}.tsv")
                if not states_answer(response):
                    continue
                grade, stated = table[(condition, index)], _unquote(response)
                if grade != (_rule_multiplication(stated, _unquote(reference)) if "multiplication" in name
                             else _rule_conversion(stated, _unquote(reference))):
                    raise SystemExit(f"build_math_recall11: {path}[{index}]: the table's grade is not the rule's")
                rows.append({"id": f"{condition}/{model}/{index}", "path": path, "model": model,
                             "reference": _unquote(reference), "completion": response,
                             "grade": grade, "grade_from": f"embers_{stem}_correct",
                             "lang": "en", "question": prompt})
    return rows


# ------------------------------------------------------------------ LLMDrift

DRIFT_PATH = "generation/COUNTAHAPPYNUMBER_EVAL.csv"
_BOXED = re.compile(r"boxed{([^}]*)}")  # LLMDrift's find_boxed_substrings


def _undouble(text: str) -> str:
    """The generation file stores every backslash of the model's text doubled (``\\\\boxed``); one is kept."""
    return text.replace("\\\\", "\\")


def drift_states_answer(answer: str) -> bool:
    """Whether the answer boxes exactly one value (the repository's rule reads the first box, so with one
    box it reads the answer the model stated). Reads the form only."""
    return len(_BOXED.findall(answer.lower())) == 1


def drift_rows(repo: Repo, name: str) -> list[dict]:
    """Every eligible answer of the happy-number runs (before ``pick``): the grade is LLMDrift's
    ``calculate_boxed_score`` (first box of the lower-cased answer equals the reference's)."""
    csv.field_size_limit(1 << 30)
    rows, seen = [], set()
    for item in csv.DictReader(io.StringIO(repo.show(DRIFT_PATH))):
        if item["dataset"] != "counthappynumber":
            raise SystemExit(f"build_math_recall11: {DRIFT_PATH}: unexpected dataset {item['dataset']!r}")
        model = item["model"].split("/", 1)[1]
        key = f"{model}/{item['id']}"
        if key in seen:
            raise SystemExit(f"build_math_recall11: {DRIFT_PATH}: {key} answered twice")
        seen.add(key)
        answer, ref = _undouble(item["answer"]), _BOXED.findall(_undouble(item["ref_answer"]).lower())
        if len(ref) != 1:
            raise SystemExit(f"build_math_recall11: {DRIFT_PATH}: {key}: the reference boxes {len(ref)} values")
        if not drift_states_answer(answer):
            continue
        rows.append({"id": key, "path": DRIFT_PATH, "model": model, "reference": ref[0].strip(),
                     "completion": answer, "grade": int(_BOXED.findall(answer.lower())[0] == ref[0]),
                     "grade_from": "llmdrift_calculate_boxed_score", "lang": "en",
                     "question": _undouble(item["query"])})
    return rows


LABEL_OVERRIDES: dict[str, tuple[int, str]] = {}

BUILDERS = {name: (lambda repo, name=name: pick(embers_rows(repo, name), 60, 60)) for name in EMBERS_CONDITIONS}
BUILDERS["drift_happy_numbers_gpt"] = lambda repo: pick(drift_rows(repo, "drift_happy_numbers_gpt"), 60, 60)


def eligible_counts(root: Path) -> dict[str, tuple[int, int]]:
    """(correct, incorrect) rows of each source before ``pick``, for the README."""
    out = {}
    for name in SOURCES:
        repo = Repo(root, *SOURCES[name][:2])
        rows = embers_rows(repo, name) if name in EMBERS_CONDITIONS else drift_rows(repo, name)
        out[name] = (sum(r["grade"] for r in rows), sum(1 - r["grade"] for r in rows))
    return out


def main(argv: list[str] | None = None) -> int:
    return split_corpus_main(argv, description=__doc__.split("\n\n")[0], sources=SOURCES, builders=BUILDERS,
                             overrides=LABEL_OVERRIDES, default_out=Path(__file__).resolve().parents[1] /
                             "tests/data/math_recall11", keys=(*ROW_KEYS, "lang", "question"), repo_class=Repo)


if __name__ == "__main__":
    sys.exit(main())
