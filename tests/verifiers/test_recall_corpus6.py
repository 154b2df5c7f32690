"""The sixth split recall corpus ``tests/data/math_recall6`` (zero-shot boxed answers of GPT-4o-mini,
gpt-3.5-turbo, text-davinci-003 and gpt-4 to GSM8K and SVAMP, built by ``bench/build_math_recall6.py``),
checked as data:
every file parses and is the half its name says, each row is in the half its id hashes to, the
rows are the documented counts and carry their source, licence, commit, reference, language,
question and format family, and each repository's licence text lies beside them. No row is
scored here.
"""

from __future__ import annotations

import re

from split_corpus import SplitCorpus, SplitCorpusTests

LANG = {"gsm8k_gpt4o_mini_re2": "en", "svamp_gpt4o_mini_re2": "en", "gsm8k_gpt35_davinci_re2": "en",
        "gsm8k_zero_shot_gpt": "en"}
CORPUS = SplitCorpus("math_recall6", lang=LANG, question=True)

# (source, half) -> (rows, label 1, label 0), as bench/build_math_recall6.py wrote them
COUNTS = {
    ("gsm8k_gpt4o_mini_re2", "tune"): (59, 31, 28),
    ("svamp_gpt4o_mini_re2", "tune"): (55, 25, 30),
    ("gsm8k_gpt35_davinci_re2", "tune"): (63, 29, 34),
    ("gsm8k_zero_shot_gpt", "tune"): (55, 33, 22),
    ("gsm8k_gpt4o_mini_re2", "heldout"): (61, 29, 32),
    ("svamp_gpt4o_mini_re2", "heldout"): (65, 35, 30),
    ("gsm8k_gpt35_davinci_re2", "heldout"): (57, 31, 26),
    ("gsm8k_zero_shot_gpt", "heldout"): (65, 40, 25),
}


def test_the_forms_each_source_was_kept_for():
    # the builder keeps a row on its form only: one box, holding one number (the one the source's grade reads)
    number = re.compile(r"[\-+]?\d*[\.,/]?\d+")
    for row in CORPUS.rows:
        text = row["completion"]
        assert text.count("\\boxed") == 1 and text.count("boxed") == 1, row["id"]
        box = text[text.index("\\boxed{") + len("\\boxed{"):]
        depth, end = 1, 0
        while depth:
            depth += {"{": 1, "}": -1}.get(box[end], 0)
            end += 1
        assert len(number.findall(box[:end - 1])) == 1, row["id"]
        assert row["grade_from"] == ("zero_shot_replication_gsm8k_reward" if row["source"] == "gsm8k_zero_shot_gpt"
                                     else "re2_scorer_number"), row["id"]


class TestCorpus(SplitCorpusTests):
    corpus, counts = CORPUS, COUNTS
