"""The eleventh split recall corpus ``tests/data/math_recall11`` (chat models' answers to bare multiplication and
linear-function tasks graded by the stored tables of embers-of-autoregression, and GPT-3.5's and GPT-4's boxed
happy-number counts graded by LLMDrift's rule, built by ``bench/build_math_recall11.py``), checked as data: every
file parses and is the half its name says, each row is in the half its id hashes to, the rows are the documented
counts and carry their source, licence, commit, reference, language, question and format family, and each
repository's licence text lies beside them. No row is scored here.
"""

from __future__ import annotations

import re

from split_corpus import SplitCorpus, SplitCorpusTests

EMBERS = {
    "embers_multiplication_chat": ("multiplication_number", "multiplication_word", "multiplication_allcaps",
                                   "multiplication_alternatingcaps"),
    "embers_conversion_actual_chat": ("conversion_actual", "conversion_ood_actual"),
    "embers_conversion_fake_chat": ("conversion_fake", "conversion_ood_fake"),
}
EMBERS_MODELS = ("gpt-3.5-turbo-0613", "gpt-4-0613", "llama-3-70b-chat-hf", "claude-3-opus-20240229",
                 "gemini-1.0-pro-001")
DRIFT_MODELS = ("gpt-3.5-turbo-0301", "gpt-3.5-turbo-0613", "gpt-4-0314", "gpt-4-0613")
LANG = dict.fromkeys((*EMBERS, "drift_happy_numbers_gpt"), "en")
CORPUS = SplitCorpus("math_recall11", lang=LANG, question=True)

# (source, half) -> (rows, label 1, label 0), as bench/build_math_recall11.py wrote them
COUNTS = {
    ("embers_multiplication_chat", "tune"): (59, 32, 27),
    ("embers_multiplication_chat", "heldout"): (61, 28, 33),
    ("embers_conversion_actual_chat", "tune"): (59, 29, 30),
    ("embers_conversion_actual_chat", "heldout"): (61, 31, 30),
    ("embers_conversion_fake_chat", "tune"): (37, 6, 31),
    ("embers_conversion_fake_chat", "heldout"): (47, 18, 29),
    ("drift_happy_numbers_gpt", "tune"): (69, 32, 37),
    ("drift_happy_numbers_gpt", "heldout"): (51, 28, 23),
}


def _numbers(text: str) -> set[str]:
    out = set()
    for word in text.split():
        try:
            float(word)
        except ValueError:
            continue
        out.add(word)
    return out


def test_the_forms_each_source_was_kept_for():
    # embers rows: a product ending the response as numerals, or a response stating one number; LLMDrift rows:
    # exactly one box; every reference a number
    for row in CORPUS.rows:
        assert row["question"].strip() and re.fullmatch(r"-?\d+(\.\d+)?", row["reference"]), row["id"]
        text = row["completion"].strip().strip('"')
        if row["source"] in EMBERS:
            condition, model, index = row["id"].split("/")[1:]
            assert condition in EMBERS[row["source"]] and model in EMBERS_MODELS and index.isdigit(), row["id"]
            assert row["path"] == f"logs/{condition}_{model}_temp=0.0_n=1.json" and row["model"] == model, row["id"]
            if "multiplication" in condition:
                assert row["grade_from"] == "embers_table_multiplication_correct", row["id"]
                assert text.split()[-1].replace(",", "").replace(".", "").isdigit(), row["id"]
            else:
                assert row["grade_from"].startswith("embers_table_conversion_"), row["id"]
                assert len(_numbers(text.rstrip("."))) == 1, row["id"]
        else:
            model, index = row["id"].split("/")[1:]
            assert model in DRIFT_MODELS and index.isdigit() and row["model"] == model, row["id"]
            assert row["grade_from"] == "llmdrift_calculate_boxed_score", row["id"]
            assert len(re.findall(r"boxed{([^}]*)}", row["completion"].lower())) == 1, row["id"]
            assert "\\\\boxed" not in row["completion"] and "happy numbers" in row["question"], row["id"]


class TestCorpus(SplitCorpusTests):
    corpus, counts = CORPUS, COUNTS
