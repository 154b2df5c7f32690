"""The twelfth split recall corpus ``tests/data/math_recall12`` (Russian step-by-step answers of GPT-4o, GPT-4o-mini and
o3-mini to the DeathMath problems graded by the repository's stored scores, and answers of Russian-made and other chat
models to English MGSM and MATH problems graded by the stored ``is_correct`` of simple-evals-ru, split by the language
the answer is written in; built by ``bench/build_math_recall12.py``), checked as data: every file parses and is the
half its name says, each row is in the half its id hashes to, the rows are the documented counts and carry their
source, licence, commit, reference, language, question and format family, and each repository's licence text lies
beside them. No row is scored here.
"""

from __future__ import annotations

import re

from split_corpus import SplitCorpus, SplitCorpusTests

DEATHMATH = {
    "deathmath_gpt4o_ru": ("gpt-4o", "details_20250408_115501"),
    "deathmath_gpt4o_mini_ru": ("gpt-4o-mini", "details_20250408_115501"),
    "deathmath_o3_mini_ru": ("o3-mini-2025-01-31", "details_20250408_121611"),
}
SIMPLERU = {"simpleru_mgsm_en": ("mgsm",), "simpleru_math_en": ("math",), "simpleru_ru": ("mgsm", "math")}
LANG = {**dict.fromkeys(DEATHMATH, "ru"), "simpleru_mgsm_en": "en", "simpleru_math_en": "en", "simpleru_ru": "ru"}
CORPUS = SplitCorpus("math_recall12", lang=LANG, question=True)

# (source, half) -> (rows, label 1, label 0), as bench/build_math_recall12.py wrote them
COUNTS = {
    ("deathmath_gpt4o_ru", "tune"): (57, 34, 23),
    ("deathmath_gpt4o_ru", "heldout"): (63, 27, 36),
    ("deathmath_gpt4o_mini_ru", "tune"): (65, 32, 33),
    ("deathmath_gpt4o_mini_ru", "heldout"): (54, 28, 26),
    ("deathmath_o3_mini_ru", "tune"): (35, 32, 3),
    ("deathmath_o3_mini_ru", "heldout"): (29, 28, 1),
    ("simpleru_mgsm_en", "tune"): (56, 27, 29),
    ("simpleru_mgsm_en", "heldout"): (64, 35, 29),
    ("simpleru_math_en", "tune"): (48, 25, 23),
    ("simpleru_math_en", "heldout"): (72, 39, 33),
    ("simpleru_ru", "tune"): (64, 34, 30),
    ("simpleru_ru", "heldout"): (56, 26, 30),
}

_ANSWER = re.compile(r"(?:Answer|Ответ):\s*(.+)$", re.MULTILINE)
_CYRILLIC = re.compile("[А-Яа-яЁё]")


def test_the_forms_each_source_was_kept_for():
    # DeathMath rows: an answer line where the evaluator reads it; simple-evals-ru rows: the language the source
    # names (10+ Cyrillic letters for Russian, none for English); every row has a question and a reference
    for row in CORPUS.rows:
        assert row["question"].strip() and row["reference"].strip(), row["id"]
        cyrillic = len(_CYRILLIC.findall(row["completion"]))
        if row["source"] in DEATHMATH:
            model, stem = DEATHMATH[row["source"]]
            run, index = row["id"].split("/")[1:]
            assert run == model == row["model"] and index.isdigit(), row["id"]
            assert row["path"] == f"results/details/{model}/{stem}.json", row["id"]
            assert row["grade_from"] == "deathmath_details_score" and "Ответ:" in row["question"], row["id"]
            assert _ANSWER.search(row["completion"]), row["id"]
        else:
            bench, run, index = row["id"].split("/")[1:]
            assert bench in SIMPLERU[row["source"]] and index.isdigit() and row["model"] == run, row["id"]
            assert row["path"] == f"data/results/{bench}/{run}.jsonl", row["id"]
            assert row["grade_from"] == f"simpleru_{bench}_is_correct" and "Answer:" in row["question"], row["id"]
            assert cyrillic >= 10 if row["lang"] == "ru" else cyrillic == 0, row["id"]
            if bench == "mgsm":
                assert re.fullmatch(r"-?\d+", row["reference"]), row["id"]


class TestCorpus(SplitCorpusTests):
    corpus, counts = CORPUS, COUNTS
