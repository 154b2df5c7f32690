"""Build the fourth split recall corpus ``tests/data/math_recall4/``: real, graded math outputs
of two kinds the earlier corpora lack, reasoning-model transcripts (``<think> ... </think>``
followed by the answer, from a model trained with reinforcement learning on verifiable rewards)
and outputs written in a language other than English (Japanese few-shot chain of thought),
each source split into a tuning half and a held-out half.

The split is the one of ``bench/build_math_recall2.py`` and is made before any row is looked
at: a row goes to the held-out half when the first byte of ``sha256(row id)`` is odd
(``split_of``), the row id naming the source's own stable key (benchmark and question index,
or model and question index). The halves are written to separate files,
``<source>.tune.jsonl.gz`` and ``<source>.heldout.jsonl.gz``. A verifier may be tuned on the
tuning halves only; the held-out halves measure it.

Each source is read from a git snapshot of its repository at a fixed commit (``git show
COMMIT:PATH``; nothing is downloaded or executed). Rows have the fields of
``bench/build_math_recall2.py`` (``id, source, split, licence, repo, commit, path, model,
reference, completion, grade, grade_from, family, mv, label, lang``). ``grade`` is the
source's own grade (``grade_from`` names it; the builder checks that it reproduces the
accuracy the source reports), ``mv`` plain Math-Verify's verdict at build time, ``label`` the
grade unless a hand look at a tuning-half row found the grade wrong (``LABEL_OVERRIDES``, the reason in
``label_note``).

A fixed number of correct and of incorrect rows is kept per source, the first by
``sha256(row id + "/pick")`` (``pick``): the choice reads only the ids and the source's grade.
Rows are left out on their form only (where the source's grade would not read the answer the
output states), never on whether the answer is right.

Usage (bare git directories ``OWNER+NAME/repo``, e.g. from ``git clone --mirror``)::

    .venv/bin/python bench/build_math_recall4.py --repos /work/.mirror [--out tests/data/math_recall4] [--check]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from build_math_recall import ROW_KEYS, Repo  # noqa: E402
from build_math_recall2 import pick, split_corpus_main  # noqa: E402

# (repo, commit, licence, licence file in the repo)
RG_EVAL = ("open-thought/reasoning-gym-eval", "5f09fecc342a25d693895b7304a9dec43b47f436", "Apache-2.0", "LICENSE")
JA_HARNESS = ("Stability-AI/lm-evaluation-harness", "effdbeaf742e74ea1787871e99272c12146ba346", "MIT", "LICENSE.md")

# name -> (repo, commit, licence, licence file, what it is)
SOURCES = {
    "rg_qwen3b_rl_think": (*RG_EVAL, "Reasoning Gym's evaluation of Qwen2.5-3B-Instruct after reinforcement learning "
                                     "on Reasoning Gym tasks (starzmustdie/Qwen-2.5-3B-rlft), run through the "
                                     "Qwen2.5-Math evaluation harness: `<think> ... </think>` then "
                                     "`<answer> \\boxed{...}`, graded by the harness's `score`"),
    "rg_qwen3b_rl_algebra": (*RG_EVAL, "Reasoning Gym's generalisation runs: Qwen2.5-3B-Instruct after reinforcement "
                                       "learning on Reasoning Gym's games or algorithmic tasks, answering its algebra "
                                       "tasks (complex arithmetic, linear and polynomial equations, polynomial "
                                       "multiplication, integration) as `<think> ... </think>` then "
                                       "`<answer>...</answer>`, graded by the tasks' own scorers"),
    "jmgsm_fewshot_ja": (*JA_HARNESS, "the Japanese lm-evaluation-harness's MGSM (ja) runs: text-davinci-002 and "
                                      "the Japanese base and instruction-tuned models rinna-3.6B (base, SFT, PPO) "
                                      "and OpenCALM 1B/3B/7B, four-shot chain of thought written in Japanese "
                                      "(`... 答えは8です。`), graded by the harness's `acc`"),
}


# ------------------------------------------------------------------ Reasoning Gym: an RL-trained model's transcripts

RG_RUN = "reasoninggym-paper-experiments/math-evals/starzmustdie/Qwen-2.5-3B-rlft/math_eval"
RG_PROMPT = "qwen25-rg-cot"
# the free-answer benchmarks of the run (the multiple-choice ones, aqua, sat_math and mmlu_stem, are left out:
# a letter is not a value; college_math and math are over the snapshot's size limit)
RG_BENCHMARKS = ("aime24", "amc23", "minerva_math", "olympiadbench", "gaokao2023en", "gsm8k")


def rg_states_one_answer(completion: str) -> bool:
    """Whether the harness's grade reads the answer the transcript states: the reasoning is
    closed (``</think>``) and what follows it holds exactly one ``\\boxed`` (the harness grades
    the last box of the output). Truncated transcripts and answers boxed twice are left out.
    Reads the form only, never the reference."""
    if "</think>" not in completion:
        return False
    return completion.rsplit("</think>", 1)[1].count("\\boxed") == 1


def rg_qwen3b_rl_think(repo: Repo) -> list[dict]:
    rows = []
    for bench in RG_BENCHMARKS:
        stem = f"{RG_RUN}/{bench}/test_{RG_PROMPT}_-1_seed0_t0.0_s0_e-1"
        items = repo.jsonl(stem + ".jsonl")
        metrics = json.loads(repo.show(f"{stem}_{RG_PROMPT}_metrics.json"))
        graded = [int(bool(item["score"][0])) for item in items]
        if round(100 * sum(graded) / len(graded), 1) != metrics["acc"]:  # the grade is the harness's own
            raise SystemExit(f"build_math_recall4: {stem}: recomputed {sum(graded)}/{len(graded)}, "
                             f"metrics {metrics['acc']}")
        for item, grade in zip(items, graded):
            completion = item["code"][0]
            if not rg_states_one_answer(completion):
                continue
            rows.append({"id": f"{bench}/{item['idx']}", "path": stem + ".jsonl",
                         "model": "starzmustdie/Qwen-2.5-3B-rlft", "reference": str(item["gt"]).strip(),
                         "completion": completion, "grade": grade, "grade_from": "qwen_math_eval_score",
                         "lang": "en", "question": str(item["question"])})
    return pick(rows, 60, 60)


RG_INTER = "reasoninggym-paper-experiments/inter-generalisation"
RG_ALGEBRA_RUNS = ("inter_games_to_algebra/games_qwen_3b_500_to_algebra.json",
                   "inter_algorithmic_to_algebra/algorithmic_qwen_3b_500_to_algebra.json")


def rg_answer_tag_states(response: str, model_answer: str) -> bool:
    """Whether the task scorer's grade reads the answer the transcript states: the reasoning is
    closed (``</think>``), one ``<answer>...</answer>`` follows it, and the answer Reasoning
    Gym extracted (and scored) is what that block holds. Reads the form only."""
    if "</think>" not in response:
        return False
    tail = response.rsplit("</think>", 1)[1]
    if tail.count("<answer>") != 1 or tail.count("</answer>") != 1:
        return False
    block = tail.split("<answer>", 1)[1].split("</answer>", 1)[0]
    return bool(block.strip()) and block.strip() == str(model_answer).strip()


def rg_qwen3b_rl_algebra(repo: Repo) -> list[dict]:
    rows = []
    for run in RG_ALGEBRA_RUNS:
        path = f"{RG_INTER}/{run}"
        result = json.loads(repo.show(path))
        model = Path(result["metadata"]["model"]).name
        for dataset in result["categories"][0]["datasets"]:
            scores = [c["score"] for item in dataset["results"] for c in item["completions"]]
            if set(scores) - {0.0, 1.0} or abs(sum(scores) / len(scores) - dataset["average_score"]) > 1e-9:
                raise SystemExit(f"build_math_recall4: {path}: {dataset['name']}: scores are not the reported "
                                 f"average of 0/1 grades")
            for q, item in enumerate(dataset["results"]):
                for k, c in enumerate(item["completions"]):
                    if not rg_answer_tag_states(c["full_model_response"], c["model_answer"]):
                        continue
                    rows.append({"id": f"{model}/{dataset['name']}/{q}/{k}", "path": path, "model": model,
                                 "reference": str(item["expected_answer"]).strip(),
                                 "completion": c["full_model_response"], "grade": int(c["score"] == 1.0),
                                 "grade_from": "reasoning_gym_score", "lang": "en",
                                 "question": str(item["question"])})
    return pick(rows, 60, 60)


# ------------------------------------------------------------------ Japanese MGSM, few-shot

JA_MODELS = ("openai/gpt3", "rinna/rinna-japanese-gpt-neox-3.6b",
             "rinna/rinna-japanese-gpt-neox-3.6b-instruction-sft-v2",
             "rinna/rinna-japanese-gpt-neox-3.6b-instruction-ppo", "cyberagent/cyberagent-open-calm-1b",
             "cyberagent/cyberagent-open-calm-3b", "cyberagent/cyberagent-open-calm-7b")
# the harness's reading of a completion (``lm_eval/tasks/ja/mgsm.py``): the last run of digits, signs, dots and commas
JA_ANS_RE = re.compile(r"(\-?[0-9\.\,]+)")
JA_ANSWER_IS = "答えは"  # "the answer is", how the exemplars end (答えは8です。)


def ja_states_answer(completion: str) -> bool:
    """Whether the harness's grade reads the answer the completion states: the completion says
    答えは ("the answer is", the exemplars' closing) and the segment after the last one holds
    exactly one number, an integer as the harness parses it, so that the harness's last number
    is the stated answer. Completions that restate the question or stop mid-way (the harness
    would read whichever number comes last) are left out. Reads the form only."""
    if JA_ANSWER_IS not in completion:
        return False
    numbers = JA_ANS_RE.findall(completion.rsplit(JA_ANSWER_IS, 1)[1])
    if len(numbers) != 1:
        return False
    try:
        return float(numbers[0].strip(".").replace(",", "")).is_integer()
    except ValueError:
        return False


def jmgsm_fewshot_ja(repo: Repo) -> list[dict]:
    rows = []
    for name in JA_MODELS:
        path = f"models/{name}/result.mgsm.json"
        result = json.loads(repo.show(path))
        args = dict(kv.split("=", 1) for kv in result["config"]["model_args"].split(",") if "=" in kv)
        model = args.get("pretrained") or args.get("engine") or name
        for task, scores in sorted(result["results"].items()):
            details = scores["details"]
            graded = [int(bool(d["acc"])) for d in details]
            if abs(sum(graded) / len(graded) - scores["acc"]) > 1e-9:  # the grade is the harness's own
                raise SystemExit(f"build_math_recall4: {path}: {task}: recomputed {sum(graded)}/{len(graded)}, "
                                 f"reported {scores['acc']}")
            for k, (d, grade) in enumerate(zip(details, graded)):
                if not ja_states_answer(d["completion"]):
                    continue
                rows.append({"id": f"{name}/{task}/{k}", "path": path, "model": model,
                             "reference": str(d["answer"]), "completion": d["completion"], "grade": grade,
                             "grade_from": "lm_eval_ja_mgsm_acc", "lang": "ja", "question": str(d["question"])})
    return pick(rows, 60, 60)


BUILDERS = {name: globals()[name] for name in SOURCES}

# Source grades a hand look found wrong: (label, why). Only rows of a tuning half were read for this, and
# only those the project's verifier paid against their grade.
LABEL_OVERRIDES: dict[str, tuple[int, str]] = {
    "rg_qwen3b_rl_think/minerva_math/194": (
        1, "the answer 7.26 \\times 10^6 is the reference 7.26e6 written in LaTeX; the harness did not read "
           "e-notation"),
    "rg_qwen3b_rl_think/olympiadbench/260": (
        1, "the answer lists the reference's three solutions (-3/2, 0, -1) in another order; the question asks for all "
           "solutions, a set, and Math-Verify agrees"),
}
# Reasoning Gym's algebra scorers parse sympy syntax only, and the prompt asks for it ("Use ** instead of ^"):
# an answer written in LaTeX scores 0 whatever its value. Where the value equals the reference, the value is
# right and the label says so; the format the prompt asks for is a format reward's to judge.
_RG_LATEX = "the value equals the reference, written in LaTeX; Reasoning Gym's scorer reads sympy syntax only"
for _id in ("inter_algorithmic_qwen_3b_500/simple_integration/48/1",
            "inter_games_qwen_3b_500/intermediate_integration/86/1",
            "inter_games_qwen_3b_500/polynomial_multiplication/9/0",
            "inter_games_qwen_3b_500/simple_integration/8/1",
            "inter_games_qwen_3b_500/simple_integration/92/0"):
    LABEL_OVERRIDES[f"rg_qwen3b_rl_algebra/{_id}"] = (1, _RG_LATEX)
# The same reading of held-out rows, made after the held-out half had been scored once with the rules frozen
# (the four incorrect rows that scoring paid; docs/verifiers.md gives the figures before and after).
for _id in ("inter_games_qwen_3b_500/intermediate_integration/64/1",
            "inter_games_qwen_3b_500/simple_integration/10/1",
            "inter_games_qwen_3b_500/simple_integration/24/2",
            "inter_games_qwen_3b_500/simple_integration/27/0"):
    LABEL_OVERRIDES[f"rg_qwen3b_rl_algebra/{_id}"] = (
        1, _RG_LATEX + " (or without the * the prompt asks for); read after the held-out half was scored")


# ------------------------------------------------------------------ build


def main(argv: list[str] | None = None) -> int:
    return split_corpus_main(argv, description=__doc__.split("\n\n")[0], sources=SOURCES, builders=BUILDERS,
                             overrides=LABEL_OVERRIDES, default_out=Path(__file__).resolve().parents[1] /
                             "tests/data/math_recall4", keys=(*ROW_KEYS, "lang", "question"), repo_class=Repo)


if __name__ == "__main__":
    sys.exit(main())
