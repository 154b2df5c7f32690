"""Build the twelfth split recall corpus ``tests/data/math_recall12/``: real, graded math outputs from
repositories none of the earlier corpora used: Russian step-by-step answers of GPT-4o, GPT-4o-mini and the
reasoning model o3-mini to the Russian olympiad-style problems of the DeathMath benchmark ("DOOM"), each ending in
an ``Ответ: ...`` line and graded by the repository's stored per-row score; and answers of Russian-made and other
chat models (YandexGPT, GigaChat, T-lite, Saiga, Vikhr, ...) to English MGSM and MATH problems from the
simple-evals-ru harness, each ending in an ``Answer: ...`` line and graded by the harness's stored ``is_correct``,
split by the language the answer is written in (English; Russian); each source split into a tuning half and a
held-out half.

The split is the one of ``bench/build_math_recall2.py`` and is made before any row is looked
at: a row goes to the held-out half when the first byte of ``sha256(row id)`` is odd
(``split_of``), the row id naming the source's own stable key (model and index of the details file; benchmark,
run and problem id of the results file). The
halves are written to separate files, ``<source>.tune.jsonl.gz`` and ``<source>.heldout.jsonl.gz``. A
verifier may be tuned on the tuning halves only; the held-out halves measure it.

Each source is read from a git snapshot of its repository at a fixed commit (``git show
COMMIT:PATH``; nothing is downloaded or executed). Rows have the fields of
``bench/build_math_recall6.py``. ``grade`` is the repository's own grade: the ``score`` DeathMath stored for each
example of its details files (``results/details/<model>/details_<time>.json``), written by its evaluator
(``src/mat_boy.py``: the text after the first ``Ответ:``/``Answer:`` of the response, compared with the
reference by the rule-based ``DoomSlayer`` of ``src/equality_checker.py``), and the ``is_correct``
simple-evals-ru stored for each answer of its results files (``data/results/<bench>/<run>.jsonl``: an LLM
extracts the final answer, ``pred``; for MGSM it must equal the target, for MATH an LLM judges it equivalent to
the target). ``mv`` is plain Math-Verify's verdict at build time, ``label`` the grade except the rows of
``LABEL_OVERRIDES`` (read by hand after scoring, each with its reason).

A fixed number of correct and of incorrect rows is kept per source, the first by
``sha256(row id + "/pick")`` (``pick``): the choice reads only the ids and the source's grade.
Rows are left out on their form only (where the output does not state an answer where the grading rule
reads it), never on whether the answer is right.

Usage (bare git directories ``OWNER+NAME/repo``, e.g. from ``git clone --mirror``)::

    .venv/bin/python bench/build_math_recall12.py --repos /work/.mirror [--out tests/data/math_recall12] [--check]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from build_math_recall import ROW_KEYS, Repo  # noqa: E402
from build_math_recall2 import pick, split_corpus_main  # noqa: E402

# (repo, commit, licence, licence file in the repo); the details files were removed from the tree after this
# commit, so the builder reads the commit that still holds them
SIMPLERU = ("kuk/simple-evals-ru", "5fb1507eafd70be92ff3379440c13ee5272963ce", "MIT", "LICENSE")
DEATHMATH = ("VikhrModels/DeathMath", "2cd1473e59ff5b0d980576ef951c554091ff4f3d", "Apache-2.0", "LICENSE")

_DM = ("Russian step-by-step answers of {} to the 190 Russian problems of the DeathMath benchmark (olympiad-style "
       "algebra, geometry, combinatorics and word problems), told to end with a line 'Ответ: $ANSWER' and not to "
       "use \\boxed; graded by the stored per-row score of the repository's details file ({})")

# name -> (repo, commit, licence, licence file, what it is)
SOURCES = {
    "deathmath_gpt4o_ru": (*DEATHMATH, _DM.format("gpt-4o", "results/details/gpt-4o/details_20250408_115501.json")),
    "deathmath_gpt4o_mini_ru": (*DEATHMATH, _DM.format(
        "gpt-4o-mini", "results/details/gpt-4o-mini/details_20250408_115501.json")),
    "deathmath_o3_mini_ru": (*DEATHMATH, _DM.format(
        "the reasoning model o3-mini-2025-01-31 (its final answer; the hidden reasoning is not stored)",
        "results/details/o3-mini-2025-01-31/details_20250408_121611.json")),
}

_SR = ("answers of {} chat models run through the simple-evals-ru harness (OpenAI simple-evals prompts; YandexGPT, "
       "GigaChat, T-lite/T-pro, Saiga, Vikhr, RuAdapt, Cotype and, for comparison, Llama, Qwen, DeepSeek-V3 and "
       "Gemini Flash) to {}, told to end with a line 'Answer: ...'; graded by the stored per-row is_correct of "
       "data/results/{}")
SOURCES["simpleru_mgsm_en"] = (*SIMPLERU, _SR.format(
    "29 runs of", "the English MGSM problems (integer answers), answered in English", "mgsm/<run>.jsonl"))
SOURCES["simpleru_math_en"] = (*SIMPLERU, _SR.format(
    "29 runs of", "up to 200 of the MATH-500 problems, answered in English", "math/<run>.jsonl"))
SOURCES["simpleru_ru"] = (*SIMPLERU, _SR.format(
    "the same", "the same English MGSM and MATH problems, where the model answered in Russian",
    "{mgsm,math}/<run>.jsonl"))

# source -> (model directory and details file stem)
DEATHMATH_FILES = {
    "deathmath_gpt4o_ru": ("gpt-4o", "details_20250408_115501"),
    "deathmath_gpt4o_mini_ru": ("gpt-4o-mini", "details_20250408_115501"),
    "deathmath_o3_mini_ru": ("o3-mini-2025-01-31", "details_20250408_121611"),
}

# DeathMath's ANSWER_PATTERN (src/common.py, used by src/mat_boy.py with re.MULTILINE)
_ANSWER = re.compile(r"(?:Answer|Ответ):\s*(.+)$", re.MULTILINE)


def deathmath_states_answer(response: object) -> bool:
    """Whether the response has a line with ``Ответ:``/``Answer:`` followed by text: where the repository's
    evaluator reads the answer it grades (a response without one is scored 0 with no answer read). Reads the
    form only."""
    return isinstance(response, str) and _ANSWER.search(response) is not None


def deathmath_rows(repo: Repo, name: str) -> list[dict]:
    """Every eligible example of one model's details file (before ``pick``); the file is checked to hold each
    index once with a bare 0 / 1 score, and on every kept row the stored ``extracted_answer`` to be the text the
    repository's pattern reads from the stored response (so the score grades the answer written in it)."""
    model, stem = DEATHMATH_FILES[name]
    path = f"results/details/{model}/{stem}.json"
    details = json.loads(repo.show(path))
    if details["model_name"] != model:
        raise SystemExit(f"build_math_recall12: {path}: model {details['model_name']!r}, not {model!r}")
    rows, seen = [], set()
    for example in details["examples"]:
        index = example["index"]
        if index in seen or example["score"] not in (0.0, 1.0):
            raise SystemExit(f"build_math_recall12: {path}: {index} is not scored once with a bare 0 / 1")
        seen.add(index)
        response = example["model_response"]
        if not deathmath_states_answer(response):
            continue
        if _ANSWER.search(response).group(1).strip() != example["extracted_answer"]:
            raise SystemExit(f"build_math_recall12: {path}: {index}: the stored answer is not the response's")
        rows.append({"id": f"{model}/{index}", "path": path, "model": model,
                     "reference": example["correct_answer"].strip(), "completion": response,
                     "grade": int(example["score"]), "grade_from": "deathmath_details_score",
                     "lang": "ru", "question": example["task"]})
    return rows


# ------------------------------------------------------------------ simple-evals-ru

_CYRILLIC = re.compile("[А-Яа-яЁё]")


def answer_lang(answer: str) -> str | None:
    """The language an answer is written in, from its letters alone: ``ru`` with 10 or more Cyrillic letters,
    ``en`` with none, ``None`` (mixed, left out) in between. Reads the form only."""
    count = len(_CYRILLIC.findall(answer))
    return "ru" if count >= 10 else "en" if count == 0 else None


def simpleru_states_answer(item: dict) -> bool:
    """Whether the harness's grader read an answer written in the output: its answer extractor (an LLM told to
    answer ``?`` when there is no final answer, and for MATH to copy a substring of the solution) returned a
    value other than ``?`` that occurs verbatim in the non-empty answer. Reads the form only (a value rewritten
    by the MGSM post-processing, e.g. ``1,000`` made ``1.000``, is not in the output and is left out)."""
    pred, answer = item.get("pred"), item.get("answer")
    return (isinstance(pred, str) and isinstance(answer, str) and bool(answer.strip()) and pred.strip() not in ("", "?")
            and pred in answer)


def simpleru_rows(repo: Repo, name: str) -> list[dict]:
    """Every eligible answer of the MGSM and MATH runs that a source takes (before ``pick``): each run is checked
    to answer each problem once with a bare true / false ``is_correct``, and for MGSM that grade to be the
    harness's rule (``simple/benches/mgsm.py``: the extracted value equals the target) on the stored value."""
    benches = ("mgsm",) if name == "simpleru_mgsm_en" else ("math",) if name == "simpleru_math_en" else ("mgsm", "math")
    want = "ru" if name == "simpleru_ru" else "en"
    rows = []
    for bench in benches:
        targets = {}
        for line in repo.show(f"data/benches/{bench}.jsonl").splitlines():
            if line.strip():
                item = json.loads(line)
                targets[item["id"]] = item["target"]
        for path in repo.ls(f"data/results/{bench}/"):
            run = path.rsplit("/", 1)[1].removesuffix(".jsonl")
            seen = set()
            for line in repo.show(path).splitlines():
                if not line.strip():
                    continue
                item = json.loads(line)
                if item["id"] in seen or item["id"] not in targets or not isinstance(item["is_correct"], bool):
                    raise SystemExit(f"build_math_recall12: {path}: {item['id']} is not graded once with a bare bool")
                seen.add(item["id"])
                if bench == "mgsm" and item["is_correct"] != (item["pred"] == targets[item["id"]]):
                    raise SystemExit(f"build_math_recall12: {path}: {item['id']}: the grade is not the rule's")
                if not simpleru_states_answer(item) or answer_lang(item["answer"]) != want:
                    continue
                rows.append({"id": f"{bench}/{run}/{item['id']}", "path": path, "model": run,
                             "reference": targets[item["id"]], "completion": item["answer"],
                             "grade": int(item["is_correct"]), "grade_from": f"simpleru_{bench}_is_correct",
                             "lang": want, "question": item["instruction"]})
    return rows


# Rows whose grade a hand look found wrong: the six tuning rows the rules paid, read while tuning, and the two held-out
# rows the first look paid, read only after the held-out halves had been scored once with the rules frozen. Each
# output's last answer line states the key's value.
_STATES_KEY = "graded 0 by the source, but the last answer line states the key's value: {}; read after the first look"
_TUNING = "graded 0 by the source, but the last answer line states the key's value: {}; read while tuning"
LABEL_OVERRIDES: dict[str, tuple[int, str]] = {
    "deathmath_gpt4o_ru/gpt-4o/34": (1, _TUNING.format("'Ответ: \\(\\frac{1}{2019}\\)', the key as written")),
    "simpleru_math_en/math/06_qwen_2_5_7b/4349": (1, _TUNING.format("'-2,1' for the solutions 1, -2")),
    "simpleru_math_en/math/19_t_lite/1049": (1, _TUNING.format("'30' for 30^\\circ")),
    "simpleru_math_en/math/23_saiga/2146": (1, _TUNING.format("'\\dfrac{65}{169}' for 5/13")),
    "simpleru_math_en/math/24_ruadapt/1064": (1, _TUNING.format("'10%' for 10 (a percentage decrease)")),
    "simpleru_mgsm_en/mgsm/01_gemini_flash_1_5/187": (1, _TUNING.format("'Answer: 106' for 106 (the stored "
                                                                         "extracted value is not the line's)")),
    "deathmath_gpt4o_mini_ru/gpt-4o-mini/149": (1, _STATES_KEY.format("'Ответ: \\( \\frac{1}{10} \\)' for 0.1")),
    "simpleru_mgsm_en/mgsm/23_saiga/78": (1, _STATES_KEY.format("'Answer: 6' for 6 (the stored extracted value is "
                                                                 "not the line's)")),
}

BUILDERS = {name: (lambda repo, name=name: pick(deathmath_rows(repo, name), 60, 60)) for name in DEATHMATH_FILES}
BUILDERS.update({name: (lambda repo, name=name: pick(simpleru_rows(repo, name), 60, 60))
                 for name in ("simpleru_mgsm_en", "simpleru_math_en", "simpleru_ru")})


def eligible_counts(root: Path) -> dict[str, tuple[int, int]]:
    """(correct, incorrect) rows of each source before ``pick``, for the README."""
    out = {}
    for name in SOURCES:
        repo = Repo(root, *SOURCES[name][:2])
        rows = deathmath_rows(repo, name) if name in DEATHMATH_FILES else simpleru_rows(repo, name)
        out[name] = (sum(r["grade"] for r in rows), sum(1 - r["grade"] for r in rows))
    return out


def main(argv: list[str] | None = None) -> int:
    return split_corpus_main(argv, description=__doc__.split("\n\n")[0], sources=SOURCES, builders=BUILDERS,
                             overrides=LABEL_OVERRIDES, default_out=Path(__file__).resolve().parents[1] /
                             "tests/data/math_recall12", keys=(*ROW_KEYS, "lang", "question"), repo_class=Repo)


if __name__ == "__main__":
    sys.exit(main())
