"""Build the tenth split recall corpus ``tests/data/math_recall10/``: real, graded math outputs from
repositories none of the earlier corpora used: GPT-3.5-turbo's "Natural Program" reasoning chains (the
question's premises numbered ``#1.``, ``#2.``, ..., each step citing the premises it uses, ending in "So the
answer to this question is ...") to GSM8K, MATH, AddSub and AQuA questions, each with the repository's
final-answer correctness, and the GSM8K and multi-step arithmetic reasoning chains of the AutoRace
evaluation set, each with a human annotator's verdict on the chain; each source split into a tuning half
and a held-out half.

The split is the one of ``bench/build_math_recall2.py`` and is made before any row is looked
at: a row goes to the held-out half when the first byte of ``sha256(row id)`` is odd
(``split_of``), the row id naming the source's own stable key (annotation file and index; dataset
file and line). The halves are written to separate files, ``<source>.tune.jsonl.gz`` and
``<source>.heldout.jsonl.gz``. A verifier may be tuned on the tuning halves only; the held-out halves
measure it.

Each source is read from a git snapshot of its repository at a fixed commit (``git show
COMMIT:PATH``; nothing is downloaded or executed). Rows have the fields of
``bench/build_math_recall6.py``. ``grade`` is the repository's own grade: the stored ``correct``
(final-answer correctness) of verify_cot's human-annotation files, and the stored ``human_label`` of
AutoRace's ``data/eval_model`` files (the annotator's verdict on the whole chain: a chain with a flawed
step is graded incorrect). ``mv`` is plain Math-Verify's verdict at build time, ``label`` the grade
except the rows of ``LABEL_OVERRIDES`` (read by hand after scoring, each with its reason).

A fixed number of correct and of incorrect rows is kept per source, the first by
``sha256(row id + "/pick")`` (``pick``): the choice reads only the ids and the source's grade.
Rows are left out on their form only (where the output does not state an answer in the form its
prompt asks for), never on whether the answer is right.

Usage (bare git directories ``OWNER+NAME/repo``, e.g. from ``git clone --mirror``)::

    .venv/bin/python bench/build_math_recall10.py --repos /work/.mirror [--out tests/data/math_recall10] [--check]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from build_math_recall import ROW_KEYS, Repo  # noqa: E402
from build_math_recall2 import pick, split_corpus_main  # noqa: E402

# (repo, commit, licence, licence file in the repo)
VERIFY_COT = ("lz1oceani/verify_cot", "b458aa02880d9be95ab1d702277081c781e880cb", "CC-BY-4.0", "LICENSE")
AUTORACE = ("maitrix-org/llm-reasoners", "f94e5ac2cb9788c3d7d7dbf2173884ed4088e4b2", "Apache-2.0", "LICENSE")

_NP = ("GPT-3.5-turbo's Natural Program reasoning chains (premises numbered #1, #2, ..., each step citing the "
       "premises it uses, ending in 'So the answer to this question is ...') to {}, from the 100 chains per task "
       "the repository's authors sampled for human annotation (50 judged valid, 50 with mistakes), graded by "
       "the stored final-answer correctness ('correct')")
_AR = ("reasoning chains to {} from the AutoRace evaluation set (data/eval_model), each graded by a human "
       "annotator's verdict on the whole chain ('human_label': a chain with a flawed step is incorrect)")

# name -> (repo, commit, licence, licence file, what it is)
SOURCES = {
    "verifycot_gsm8k_gpt35": (*VERIFY_COT, _NP.format("GSM8K questions")),
    "verifycot_math_gpt35": (*VERIFY_COT, _NP.format("MATH questions (LaTeX answers)")),
    "verifycot_addsub_gpt35": (*VERIFY_COT, _NP.format("AddSub questions (one-step addition and subtraction "
                                                       "word problems)")),
    "verifycot_aqua_gpt35": (*VERIFY_COT, _NP.format("AQuA multiple-choice questions (the choices in the prompt; "
                                                     "the reference is the key's letter)")),
    "autorace_gsm8k_human": (*AUTORACE, _AR.format("GSM8K questions (numbered steps, 'Step k - ...', ending "
                                                   "'The answer is N')")),
    "autorace_arithmetic_human": (*AUTORACE, _AR.format("BIG-Bench Hard's multi-step arithmetic (the chains of "
                                                        "BIG-Bench Mistake, few-shot outputs of PaLM 2, ending "
                                                        "'So the answer is N')")),
}

# ------------------------------------------------------------------ verify_cot: Natural Program chains

# source -> the human-annotation file's task stem
VERIFY_COT_TASKS = {"verifycot_gsm8k_gpt35": "gsm8k", "verifycot_math_gpt35": "MATH",
                    "verifycot_addsub_gpt35": "addsub", "verifycot_aqua_gpt35": "aqua_rat"}
NP_MARK = "the answer to this question is"


def np_states_answer(chain: object) -> bool:
    """Whether the chain states its answer as its prompt asks: exactly one "the answer to this question
    is" sentence (any case), with text after it. Reads the form only, never the reference."""
    if not isinstance(chain, str):
        return False
    text = chain.lower()
    return text.count(NP_MARK) == 1 and bool(text.split(NP_MARK)[1].strip(" .\n"))


def _aqua_question(item: dict) -> str:
    choices = " ".join(f"{chr(ord('A') + k)}) {choice}" for k, choice in enumerate(item["choices"]))
    return f"{item['question'].strip()}\nAnswer Choices: {choices}"


def verify_cot_rows(repo: Repo, name: str) -> list[dict]:
    """Every eligible row of a task's annotation file (before ``pick``); the grade is the stored
    ``correct``, the reference the stored ``final_answer`` (the ground truth's final answer)."""
    task = VERIFY_COT_TASKS[name]
    path = f"data/human_annotation/{task}_100.json"
    rows = []
    for index, item in enumerate(json.loads(repo.show(path))):
        if not isinstance(item["correct"], bool):
            raise SystemExit(f"build_math_recall10: {path}[{index}]: 'correct' is not a bool")
        if not np_states_answer(item["answer"]):
            continue
        question = _aqua_question(item) if task == "aqua_rat" else item["question"].strip()
        rows.append({"id": f"{task}_100/{index}", "path": path, "model": "gpt-3.5-turbo",
                     "reference": str(item["final_answer"]).strip(), "completion": item["answer"],
                     "grade": int(item["correct"]), "grade_from": "verify_cot_correct", "lang": "en",
                     "question": question})
    return rows


# ------------------------------------------------------------------ AutoRace: human-labelled chains

AUTORACE_TASKS = {"autorace_gsm8k_human": "gsm8k", "autorace_arithmetic_human": "multistep_arithmetic"}
AR_MARK = "answer is"


def ar_states_answer(chain: object) -> bool:
    """Whether the chain states an answer: exactly one "answer is" (any case), on the chain's last
    non-empty line, with text after it. Reads the form only, never the reference."""
    if not isinstance(chain, str) or not chain.strip():
        return False
    last = chain.strip().splitlines()[-1].lower()
    return chain.lower().count(AR_MARK) == 1 and AR_MARK in last and bool(last.split(AR_MARK)[1].strip(" .$"))


def _ar_grade(label: object) -> int:
    """The stored ``human_label`` as 1 / 0: a bool (GSM8K) or 1.0 / 0.0 (multi-step arithmetic)."""
    if isinstance(label, bool) or isinstance(label, float) and label in (0.0, 1.0):
        return int(label)
    raise SystemExit(f"build_math_recall10: human_label {label!r} is not a bare verdict")


def autorace_rows(repo: Repo, name: str) -> list[dict]:
    """Every eligible row of a task's labelled chains (before ``pick``); the grade is the stored
    ``human_label``, the reference the stored ``answer``."""
    task = AUTORACE_TASKS[name]
    path = f"autorace/data/eval_model/{task}.jsonl"
    rows = []
    for line, item in enumerate(repo.jsonl(path)):
        grade = _ar_grade(item["human_label"])
        if not ar_states_answer(item["reasoning_chain"]):
            continue
        rows.append({"id": f"{task}/{line}", "path": path, "model": "unknown (AutoRace evaluation set)"
                     if task == "gsm8k" else "PaLM 2 (BIG-Bench Mistake)", "reference": str(item["answer"]).strip(),
                     "completion": item["reasoning_chain"], "grade": grade, "grade_from": "autorace_human_label",
                     "lang": "en", "question": item["question"].strip()})
    return rows


# AutoRace's annotators grade the whole chain: a chain with a flawed step is incorrect even when its last line
# states the key. These rows were read by hand after scoring (three tuning rows while tuning; five held-out rows
# after the held-out half had been scored once with the rules frozen): each ends "The answer is <the key>", an
# answer an answer grader pays; the note names the flawed step found, if any (two chains read as right).
_CHAIN = "AutoRace human_label 0, a grade of the chain ({}); the final answer states the key's value; read {}"
_TUNING, _HELD_OUT = "while tuning", "after the held-out half was scored once with frozen rules"
LABEL_OVERRIDES: dict[str, tuple[int, str]] = {
    "autorace_gsm8k_human/gsm8k/160": (1, _CHAIN.format("step 1 names the €157 scanner a screen", _TUNING)),
    "autorace_gsm8k_human/gsm8k/165": (1, _CHAIN.format("step 2 calls the sum of two costs their average",
                                                        _TUNING)),
    "autorace_gsm8k_human/gsm8k/51": (1, _CHAIN.format("step 3 writes '6*2=12 miles per hour'", _TUNING)),
    "autorace_arithmetic_human/multistep_arithmetic/11": (
        1, _CHAIN.format("'0 * 5 - -1 - -5' rewritten as '0 * 5 - -6'", _HELD_OUT)),
    "autorace_gsm8k_human/gsm8k/27": (1, _CHAIN.format("no flawed step found on reading", _HELD_OUT)),
    "autorace_gsm8k_human/gsm8k/30": (1, _CHAIN.format("step 1 says the sum of the ages is 'in the ratio' 18",
                                                       _HELD_OUT)),
    "autorace_gsm8k_human/gsm8k/76": (1, _CHAIN.format("5.27 bags rounded down to 5", _HELD_OUT)),
    "autorace_gsm8k_human/gsm8k/81": (1, _CHAIN.format("no flawed step found on reading", _HELD_OUT)),
}

BUILDERS = {name: (lambda repo, name=name: pick(verify_cot_rows(repo, name), 60, 60)) for name in VERIFY_COT_TASKS}
BUILDERS.update({name: (lambda repo, name=name: pick(autorace_rows(repo, name), 60, 60)) for name in AUTORACE_TASKS})


def eligible_counts(root: Path) -> dict[str, tuple[int, int]]:
    """(correct, incorrect) rows of each source before ``pick``, for the README."""
    out = {}
    for name in SOURCES:
        repo = Repo(root, *SOURCES[name][:2])
        rows = verify_cot_rows(repo, name) if name in VERIFY_COT_TASKS else autorace_rows(repo, name)
        out[name] = (sum(r["grade"] for r in rows), sum(1 - r["grade"] for r in rows))
    return out


def main(argv: list[str] | None = None) -> int:
    return split_corpus_main(argv, description=__doc__.split("\n\n")[0], sources=SOURCES, builders=BUILDERS,
                             overrides=LABEL_OVERRIDES, default_out=Path(__file__).resolve().parents[1] /
                             "tests/data/math_recall10", keys=(*ROW_KEYS, "lang", "question"), repo_class=Repo)


if __name__ == "__main__":
    sys.exit(main())
