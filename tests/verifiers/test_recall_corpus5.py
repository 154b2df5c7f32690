"""The fifth split recall corpus ``tests/data/math_recall5`` (gaokao answers of reasoning models and
Arabic five-shot multiple choice, built by ``bench/build_math_recall5.py``), checked as data:
every file parses and is the half its name says, each row is in the half its id hashes to, the
rows are the documented counts and carry their source, licence, commit, reference, language,
question and format family, and each repository's licence text lies beside them. No row is
scored here.
"""

from __future__ import annotations

import re

from split_corpus import SplitCorpus, SplitCorpusTests

LANG = {"gaokao2026_zh_reasoning": "zh", "arabic_mmlu_math_fewshot": "ar"}
CORPUS = SplitCorpus("math_recall5", lang=LANG, question=True)

# (source, half) -> (rows, label 1, label 0), as bench/build_math_recall5.py wrote them
COUNTS = {
    ("gaokao2026_zh_reasoning", "tune"): (56, 33, 23),
    ("arabic_mmlu_math_fewshot", "tune"): (50, 23, 27),
    ("gaokao2026_zh_reasoning", "heldout"): (64, 35, 29),
    ("arabic_mmlu_math_fewshot", "heldout"): (70, 37, 33),
}


def test_the_forms_each_source_was_kept_for():
    # the builder keeps a row on its form only; these are the forms it documents
    for row in CORPUS.rows:
        text = row["completion"]
        if row["source"] == "gaokao2026_zh_reasoning":
            assert text.count("\\boxed") == 1 and not re.search(r"[\x00-\x08\x0b-\x1f]", row["reference"]), row["id"]
        if row["source"] == "arabic_mmlu_math_fewshot":
            assert re.fullmatch(r"\(?[ABCD][.)]?", text.split("\n")[0].strip()), row["id"]
            assert row["reference"] in ("A", "B", "C", "D"), row["id"]


class TestCorpus(SplitCorpusTests):
    corpus, counts = CORPUS, COUNTS
