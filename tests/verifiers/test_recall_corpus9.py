"""The ninth split recall corpus ``tests/data/math_recall9`` (step-by-step solutions of o1-preview,
DeepSeek-V3 and GPT-4 / GPT-3.5 chat models to the MathOdyssey problems, each ending in a JSON answer
block and graded by the repository's GPT-4 Turbo judge, built by ``bench/build_math_recall9.py``), checked
as data: every file parses and is the half its name says, each row is in the half its id hashes to, the
rows are the documented counts and carry their source, licence, commit, reference, language, question and
format family, and each repository's licence text lies beside them. No row is scored here.
"""

from __future__ import annotations

import re

from split_corpus import SplitCorpus, SplitCorpusTests

ODYSSEY = ("odyssey_o1_preview", "odyssey_deepseek_v3", "odyssey_gpt_chat")
LANG = dict.fromkeys(ODYSSEY, "en")
CORPUS = SplitCorpus("math_recall9", lang=LANG, question=True)

# (source, half) -> (rows, label 1, label 0), as bench/build_math_recall9.py wrote them
COUNTS = {
    ("odyssey_o1_preview", "tune"): (70, 35, 35),
    ("odyssey_deepseek_v3", "tune"): (57, 31, 26),
    ("odyssey_gpt_chat", "tune"): (54, 29, 25),
    ("odyssey_o1_preview", "heldout"): (50, 27, 23),
    ("odyssey_deepseek_v3", "heldout"): (63, 34, 29),
    ("odyssey_gpt_chat", "heldout"): (66, 31, 35),
}


def test_the_forms_each_source_was_kept_for():
    # the grade is the judge's stored bare score of the run's extracted answer, read from the eval file that
    # names the run's solution file; the row id names that solution file and the problem key
    for row in CORPUS.rows:
        assert row["grade_from"] == "odyssey_evaluate_response_is_correct", row["id"]
        assert re.fullmatch(r"jsonl/[A-Za-z0-9.-]+\.jsonl", row["path"]), row["id"]
        stem = row["path"].removeprefix("jsonl/").removesuffix(".jsonl")
        assert re.fullmatch(rf"{row['source']}/{re.escape(stem)}/Problem_\d+", row["id"]), row["id"]
        assert row["completion"].strip() and row["question"].strip(), row["id"]


class TestCorpus(SplitCorpusTests):
    corpus, counts = CORPUS, COUNTS
