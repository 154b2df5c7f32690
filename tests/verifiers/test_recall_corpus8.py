"""The eighth split recall corpus ``tests/data/math_recall8`` (GPT-4 on MGSM in six languages and on
multi-step arithmetic under seven prompting methods, GPT-4o and Claude 3.5 Sonnet on AIME, the long
chain-of-thought Sky-T1 models and two base models on AIME, AMC, MATH-500 and Minerva Math, built by
``bench/build_math_recall8.py``), checked as data: every file parses and is the half its name says, each
row is in the half its id hashes to, the rows are the documented counts and carry their source, licence,
commit, reference, language, question and format family, and each repository's licence text lies beside
them. No row is scored here.
"""

from __future__ import annotations

import re

from split_corpus import SplitCorpus, SplitCorpusTests

MGSM = ("de", "es", "fr", "ru", "sw", "bn")
LANG = {**{f"mgsm_{code}_gpt4_meta": code for code in MGSM}, "multistep_arithmetic_gpt4_meta": "en",
        "aime_gpt4o_dc": "en", "aime_claude35_dc": "en", "aime_amc_skyt1_longcot": "en", "math_skyt1_longcot": "en",
        "math_base_models_cot": "en"}
CORPUS = SplitCorpus("math_recall8", lang=LANG, question=True, max_bytes=3_000_000)

# (source, half) -> (rows, label 1, label 0), as bench/build_math_recall8.py wrote them
COUNTS = {
    ("mgsm_de_gpt4_meta", "tune"): (66, 29, 37),
    ("mgsm_de_gpt4_meta", "heldout"): (54, 31, 23),
    ("mgsm_es_gpt4_meta", "tune"): (62, 36, 26),
    ("mgsm_es_gpt4_meta", "heldout"): (58, 24, 34),
    ("mgsm_fr_gpt4_meta", "tune"): (64, 36, 28),
    ("mgsm_fr_gpt4_meta", "heldout"): (56, 24, 32),
    ("mgsm_ru_gpt4_meta", "tune"): (70, 36, 34),
    ("mgsm_ru_gpt4_meta", "heldout"): (50, 24, 26),
    ("mgsm_sw_gpt4_meta", "tune"): (59, 28, 31),
    ("mgsm_sw_gpt4_meta", "heldout"): (61, 32, 29),
    ("mgsm_bn_gpt4_meta", "tune"): (57, 32, 25),
    ("mgsm_bn_gpt4_meta", "heldout"): (63, 28, 35),
    ("multistep_arithmetic_gpt4_meta", "tune"): (58, 33, 25),
    ("multistep_arithmetic_gpt4_meta", "heldout"): (62, 27, 35),
    ("aime_gpt4o_dc", "tune"): (56, 28, 28),
    ("aime_gpt4o_dc", "heldout"): (64, 32, 32),
    ("aime_claude35_dc", "tune"): (66, 33, 33),
    ("aime_claude35_dc", "heldout"): (54, 27, 27),
    ("aime_amc_skyt1_longcot", "tune"): (70, 35, 35),
    ("aime_amc_skyt1_longcot", "heldout"): (50, 25, 25),
    ("math_skyt1_longcot", "tune"): (66, 42, 24),
    ("math_skyt1_longcot", "heldout"): (54, 30, 24),
    ("math_base_models_cot", "tune"): (54, 27, 27),
    ("math_base_models_cot", "heldout"): (66, 34, 32),
}
GRADE_FROM = {"meta": "meta_prompting_evaluate_outputs", "dc": "dynamic_cheatsheet_aime_eval"}
MARK = '>> final answer:\n"""'


def _last_box_closed(text: str) -> bool:
    rest = text.split("boxed")[-1]
    if not rest.startswith("{"):
        return False
    depth = 0
    for ch in rest:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth == 0:
            return True
    return False


def test_the_forms_each_source_was_kept_for():
    # the builder keeps a row on its form only: the answer the source's grade reads is the one the output states
    for row in CORPUS.rows:
        text, kind = row["completion"], row["source"].rsplit("_", 1)[-1]
        if kind == "meta":
            low = text.lower()
            assert low.count(MARK) == 1, row["id"]
            answer = low.split(MARK)[1].split('"""')[0]
            assert '"""' in low.split(MARK)[1] and len(re.findall(r"\d+(?:[.,]\d+)*", answer)) == 1, row["id"]
        elif kind == "dc":
            assert text.count("<answer>") == 1 and text.count("</answer>") == 1, row["id"]
            answer = text.split("<answer>")[1].split("</answer>")[0].strip().split("boxed{")[-1].split("}")[0]
            assert re.fullmatch(r"\d+", re.sub(r'[,;:."]', "", answer.strip())), row["id"]
        else:
            assert _last_box_closed(text) and not ("final answer is $" in text and "$. I hope" in text), row["id"]
            assert row["source"] != "math_base_models_cot" or len(text) <= 10_000, row["id"]
        assert row["grade_from"] == GRADE_FROM.get(kind, "qwen25_math_eval_score"), row["id"]


class TestCorpus(SplitCorpusTests):
    corpus, counts = CORPUS, COUNTS
