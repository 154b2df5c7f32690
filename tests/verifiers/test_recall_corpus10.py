"""The tenth split recall corpus ``tests/data/math_recall10`` (GPT-3.5-turbo's Natural Program reasoning chains
to GSM8K, MATH, AddSub and AQuA questions graded by their stored final-answer correctness, and AutoRace's GSM8K and
multi-step arithmetic chains graded by a human annotator, built by ``bench/build_math_recall10.py``), checked as
data: every file parses and is the half its name says, each row is in the half its id hashes to, the rows are the
documented counts and carry their source, licence, commit, reference, language, question and format family, and
each repository's licence text lies beside them. No row is scored here.
"""

from __future__ import annotations

import re

from split_corpus import SplitCorpus, SplitCorpusTests

VERIFY_COT = {"verifycot_gsm8k_gpt35": "gsm8k", "verifycot_math_gpt35": "MATH", "verifycot_addsub_gpt35": "addsub",
              "verifycot_aqua_gpt35": "aqua_rat"}
AUTORACE = {"autorace_gsm8k_human": "gsm8k", "autorace_arithmetic_human": "multistep_arithmetic"}
LANG = dict.fromkeys((*VERIFY_COT, *AUTORACE), "en")
CORPUS = SplitCorpus("math_recall10", lang=LANG, question=True)

# (source, half) -> (rows, label 1, label 0), as bench/build_math_recall10.py wrote them
COUNTS = {
    ("verifycot_gsm8k_gpt35", "tune"): (44, 31, 13),
    ("verifycot_gsm8k_gpt35", "heldout"): (47, 29, 18),
    ("verifycot_math_gpt35", "tune"): (36, 29, 7),
    ("verifycot_math_gpt35", "heldout"): (42, 31, 11),
    ("verifycot_addsub_gpt35", "tune"): (48, 27, 21),
    ("verifycot_addsub_gpt35", "heldout"): (38, 20, 18),
    ("verifycot_aqua_gpt35", "tune"): (39, 34, 5),
    ("verifycot_aqua_gpt35", "heldout"): (30, 24, 6),
    ("autorace_gsm8k_human", "tune"): (57, 29, 28),
    ("autorace_gsm8k_human", "heldout"): (63, 38, 25),
    ("autorace_arithmetic_human", "tune"): (60, 30, 30),
    ("autorace_arithmetic_human", "heldout"): (60, 31, 29),
}


def test_the_forms_each_source_was_kept_for():
    # verify_cot rows: the stored final-answer correctness of a chain with exactly one Natural Program conclusion;
    # AutoRace rows: the annotator's label of a chain whose last line, alone, says "answer is"
    for row in CORPUS.rows:
        assert row["question"].strip() and row["reference"].strip(), row["id"]
        text = row["completion"].lower()
        if row["source"] in VERIFY_COT:
            task = VERIFY_COT[row["source"]]
            assert row["grade_from"] == "verify_cot_correct" and row["model"] == "gpt-3.5-turbo", row["id"]
            assert row["path"] == f"data/human_annotation/{task}_100.json", row["id"]
            assert re.fullmatch(rf"{row['source']}/{task}_100/\d+", row["id"]), row["id"]
            assert text.count("the answer to this question is") == 1, row["id"]
        else:
            task = AUTORACE[row["source"]]
            assert row["grade_from"] == "autorace_human_label", row["id"]
            assert row["path"] == f"autorace/data/eval_model/{task}.jsonl", row["id"]
            assert re.fullmatch(rf"{row['source']}/{task}/\d+", row["id"]), row["id"]
            assert text.count("answer is") == 1 and "answer is" in text.strip().splitlines()[-1], row["id"]
    aqua = [r for r in CORPUS.rows if r["source"] == "verifycot_aqua_gpt35"]
    assert all(re.fullmatch(r"[A-E]", r["reference"]) and "Answer Choices: A) " in r["question"] for r in aqua)


class TestCorpus(SplitCorpusTests):
    corpus, counts = CORPUS, COUNTS
