"""The seventh split recall corpus ``tests/data/math_recall7`` (tool-integrated MathCoder solutions to
DeepMind Mathematics, SimulEq and GSM8K, and single-turn MINT answers of chat and instruction models in
``<solution>`` tags to MATH and GSM8K, built by ``bench/build_math_recall7.py``), checked as data: every
file parses and is the half its name says, each row is in the half its id hashes to, the rows are the
documented counts and carry their source, licence, commit, reference, language, question and format
family, and each repository's licence text lies beside them. No row is scored here.
"""

from __future__ import annotations

import re

from split_corpus import SplitCorpus, SplitCorpusTests

MATHCODER = ("mathematics_mathcoder", "simuleq_mathcoder", "gsm8k_mathcoder")
MINT = ("math_mint_single_turn", "gsm8k_mint_single_turn")
LANG = dict.fromkeys((*MATHCODER, *MINT), "en")
CORPUS = SplitCorpus("math_recall7", lang=LANG, question=True)

# (source, half) -> (rows, label 1, label 0), as bench/build_math_recall7.py wrote them
COUNTS = {
    ("mathematics_mathcoder", "tune"): (61, 34, 27),
    ("simuleq_mathcoder", "tune"): (62, 30, 32),
    ("gsm8k_mathcoder", "tune"): (67, 34, 33),
    ("math_mint_single_turn", "tune"): (63, 33, 30),
    ("gsm8k_mint_single_turn", "tune"): (47, 24, 23),
    ("mathematics_mathcoder", "heldout"): (59, 26, 33),
    ("simuleq_mathcoder", "heldout"): (58, 30, 28),
    ("gsm8k_mathcoder", "heldout"): (53, 26, 27),
    ("math_mint_single_turn", "heldout"): (57, 29, 28),
    ("gsm8k_mint_single_turn", "heldout"): (73, 37, 36),
}


def test_the_forms_each_source_was_kept_for():
    # MathCoder: the grade is the file the repository's evaluation sorted the run into, and the output ends
    # with a text block (not code or its output); MINT: one model turn proposing exactly one <solution>
    for row in CORPUS.rows:
        if row["source"] in MATHCODER:
            assert row["grade_from"] == "mathcoder_evaluate_correct_wrong_files", row["id"]
            assert row["path"].endswith("-correct.jsonl" if row["grade"] else "-wrong.jsonl"), row["id"]
            assert not row["completion"].rstrip().endswith("```"), row["id"]
        else:
            assert row["grade_from"] == "mint_reasoning_task_success", row["id"]
            assert "/F=None/max1_p1+tool+cd/reasoning/" in row["path"], row["id"]
            text = row["completion"]
            assert text.count("<solution>") == 1, row["id"]
            assert len(re.findall(r"<solution>(.*?)</solution>", text, re.S)) == 1, row["id"]


class TestCorpus(SplitCorpusTests):
    corpus, counts = CORPUS, COUNTS
