"""The third split recall corpus ``tests/data/math_recall3`` (built by
``bench/build_math_recall3.py``), checked as data: every file parses and is the half its name
says, each row is in the half its id hashes to, the rows are the documented counts and carry
their source, licence, commit, reference and format family, and each repository's licence text
lies beside them. No row is scored here.
"""

from __future__ import annotations

from split_corpus import SplitCorpus, SplitCorpusTests

LANG = {"mmlu_pro_math_base_fewshot": "en", "mmlu_pro_math_chat": "en", "promptpg_gpt3_tabmwp": "en",
        "theoremqa_base_fewshot": "en", "theoremqa_chat_cot": "en", "theoremqa_chat_pot": "en"}
CORPUS = SplitCorpus("math_recall3", lang=LANG)

# (source, half) -> (rows, label 1, label 0), as bench/build_math_recall3.py wrote them
COUNTS = {
    ("theoremqa_chat_cot", "tune"): (53, 28, 25),
    ("theoremqa_chat_pot", "tune"): (56, 25, 31),
    ("theoremqa_base_fewshot", "tune"): (54, 30, 24),
    ("promptpg_gpt3_tabmwp", "tune"): (58, 31, 27),
    ("mmlu_pro_math_base_fewshot", "tune"): (69, 38, 31),
    ("mmlu_pro_math_chat", "tune"): (57, 27, 30),
    ("theoremqa_chat_cot", "heldout"): (67, 32, 35),
    ("theoremqa_chat_pot", "heldout"): (64, 35, 29),
    ("theoremqa_base_fewshot", "heldout"): (66, 30, 36),
    ("promptpg_gpt3_tabmwp", "heldout"): (62, 29, 33),
    ("mmlu_pro_math_base_fewshot", "heldout"): (51, 22, 29),
    ("mmlu_pro_math_chat", "heldout"): (63, 33, 30),
}


class TestCorpus(SplitCorpusTests):
    corpus, counts = CORPUS, COUNTS
