"""The fourth split recall corpus ``tests/data/math_recall4`` (reasoning transcripts and Japanese
outputs, built by ``bench/build_math_recall4.py``), checked as data: every file parses and is the
half its name says, each row is in the half its id hashes to, the rows are the documented counts
and carry their source, licence, commit, reference, language and format family, and each
repository's licence text lies beside them. No row is scored here.
"""

from __future__ import annotations

from split_corpus import SplitCorpus, SplitCorpusTests

LANG = {"rg_qwen3b_rl_think": "en", "rg_qwen3b_rl_algebra": "en", "jmgsm_fewshot_ja": "ja"}
CORPUS = SplitCorpus("math_recall4", lang=LANG, question=True)

# (source, half) -> (rows, label 1, label 0), as bench/build_math_recall4.py wrote them
COUNTS = {
    ("rg_qwen3b_rl_think", "tune"): (58, 32, 26),
    ("rg_qwen3b_rl_algebra", "tune"): (66, 43, 23),
    ("jmgsm_fewshot_ja", "tune"): (56, 31, 25),
    ("rg_qwen3b_rl_think", "heldout"): (62, 30, 32),
    ("rg_qwen3b_rl_algebra", "heldout"): (54, 26, 28),
    ("jmgsm_fewshot_ja", "heldout"): (64, 29, 35),
}


def test_the_forms_each_source_was_kept_for():
    # the builder keeps a row on its form only; these are the forms it documents
    for row in CORPUS.rows:
        text = row["completion"]
        if row["source"].startswith("rg_"):
            assert "<think>" in text and "</think>" in text, row["id"]
        if row["source"] == "rg_qwen3b_rl_think":
            assert text.rsplit("</think>", 1)[1].count("\\boxed") == 1, row["id"]
        if row["source"] == "rg_qwen3b_rl_algebra":
            assert text.rsplit("</think>", 1)[1].count("<answer>") == 1, row["id"]
        if row["source"] == "jmgsm_fewshot_ja":
            assert "答えは" in text and "\n" not in text.strip(), row["id"]


class TestCorpus(SplitCorpusTests):
    corpus, counts = CORPUS, COUNTS
