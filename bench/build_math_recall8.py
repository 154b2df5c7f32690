"""Build the eighth split recall corpus ``tests/data/math_recall8/``: real, graded math outputs
from three repositories none of the earlier corpora used: GPT-4's zero-shot answers to MGSM written in
German, Spanish, French, Russian, Swahili and Bengali and to BIG-Bench Hard's multi-step arithmetic under
seven prompting methods (meta-prompting among them: a conductor consulting "expert" instances of the
model), GPT-4o's and Claude 3.5 Sonnet's AIME solutions with and without a cheatsheet of earlier
insights, and the long chain-of-thought (o1-style) outputs of the Sky-T1 models and the outputs of two
base models on AIME, AMC, MATH-500 and Minerva Math, each graded by its repository's own evaluation;
each source split into a tuning half and a held-out half.

The split is the one of ``bench/build_math_recall2.py`` and is made before any row is looked
at: a row goes to the held-out half when the first byte of ``sha256(row id)`` is odd
(``split_of``), the row id naming the source's own stable key (prompting method, task file and
line; benchmark, run file and line; model, benchmark and question index). The halves are written to
separate files, ``<source>.tune.jsonl.gz`` and ``<source>.heldout.jsonl.gz``. A verifier may be tuned
on the tuning halves only; the held-out halves measure it.

Each source is read from a git snapshot of its repository at a fixed commit (``git show
COMMIT:PATH``; nothing is downloaded or executed). Rows have the fields of
``bench/build_math_recall6.py``. ``grade`` is the repository's own grade: the stored ``score`` of the
Qwen2.5-Math evaluation SkyThought runs (checked against each run's metrics file), and where the outputs
store none (meta-prompting, Dynamic Cheatsheet) the rule of the repository's evaluation script rerun
(``meta_grade``, ``dc_grade``). ``mv`` is plain Math-Verify's verdict at build time, ``label`` the grade
except the rows of ``LABEL_OVERRIDES`` (read by hand, each with its reason and when it was read).

A fixed number of correct and of incorrect rows is kept per source, the first by
``sha256(row id + "/pick")`` (``pick``): the choice reads only the ids and the source's grade.
Rows are left out on their form only (where the grade would not read the answer the output
states, and for the base models an output's length), never on whether the answer is right.

Usage (bare git directories ``OWNER+NAME/repo``, e.g. from ``git clone --mirror``)::

    .venv/bin/python bench/build_math_recall8.py --repos /work/.mirror [--out tests/data/math_recall8] [--check]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from build_math_recall import ROW_KEYS, Repo, last_boxed  # noqa: E402
from build_math_recall2 import pick, split_corpus_main  # noqa: E402

# (repo, commit, licence, licence file in the repo)
META = ("suzgunmirac/meta-prompting", "40422564938d772c3e3e6b9614b1df48b8dd6a08", "MIT", "LICENSE")
DC = ("suzgunmirac/dynamic-cheatsheet", "1cf258c936edc28ef045202621bf9463f70a1988", "MIT", "LICENSE")
# the last commit changing the evaluation outputs
SKY = ("NovaSky-AI/SkyThought", "6840eb7df638ab178d20122099286db08e376851", "Apache-2.0", "LICENSE")

# language code -> (task file stem, language name)
MGSM_LANGS = {"de": ("MGSM_DE", "German"), "es": ("MGSM_ES", "Spanish"), "fr": ("MGSM_FR", "French"),
              "ru": ("MGSM_RU", "Russian"), "sw": ("MGSM_SW", "Swahili"), "bn": ("MGSM_BN", "Bengali")}
_WHAT = ("GPT-4 on the 250 MGSM questions in {}, zero-shot under seven prompting methods (standard, zero-shot "
         "chain of thought, static and dynamic expert, multipersona, meta-prompting with and without a Python "
         "tool), the final answer in a '>> FINAL ANSWER:' block, graded by the repository's evaluate_outputs.py "
         "(soft match of the target)")

# name -> (repo, commit, licence, licence file, what it is)
SOURCES = {
    **{f"mgsm_{code}_gpt4_meta": (*META, _WHAT.format(lang)) for code, (_, lang) in MGSM_LANGS.items()},
    "multistep_arithmetic_gpt4_meta": (*META, "GPT-4 on BIG-Bench Hard's multi-step arithmetic (two), zero-shot "
                                              "under the same seven prompting methods, graded by the "
                                              "repository's evaluate_outputs.py (exact match, punctuation "
                                              "removed)"),
    "aime_gpt4o_dc": (*DC, "GPT-4o on AIME 2024, AIME 2025 and AIME 2020-2024, zero-shot step-by-step solutions "
                           "with and without a (dynamic) cheatsheet of earlier insights, the answer in "
                           "<answer></answer>, graded by the repository's EvaluatingResults notebook (exact match)"),
    "aime_claude35_dc": (*DC, "Claude 3.5 Sonnet on AIME 2024, AIME 2025 and AIME 2020-2024, as above"),
    "aime_amc_skyt1_longcot": (*SKY, "long chain-of-thought (o1-style, thought then solution) outputs of Sky-T1 "
                                     "models (14B, 27B and 32B models fine-tuned on 5K long reasoning traces, "
                                     "with correct, wrong, corrupted or reflection-stripped traces, and training "
                                     "checkpoints) on AIME 2024 and AMC 2023, graded by the "
                                     "repository's copy of the Qwen2.5-Math evaluation (stored score)"),
    "math_skyt1_longcot": (*SKY, "the same long chain-of-thought Sky-T1 models on MATH-500 and Minerva Math "
                                 "(LaTeX answers: fractions, radicals, intervals, expressions with units), graded "
                                 "as above"),
    "math_base_models_cot": (*SKY, "base models Qwen2.5-Math-7B and Llama-3.1-8B, zero-shot with the "
                                   "Qwen2.5-Math chain-of-thought prompt, on AIME 2024, AMC 2023, MATH-500 and "
                                   "Minerva Math, graded as above"),
}

# prompting method (outputs/ folder) -> file name of a task's outputs there
METHODS = {
    "Standard": "{}-zero-shot-cot.jsonl",
    "ZeroShotCoT": "{}-zero-shot-cot.jsonl",
    "ExpertStatic": "{}-zero-shot-cot.jsonl",
    "ExpertDynamic": "{}-zero-shot-cot.jsonl",
    "MultiPersona": "{}-zero-shot-cot.jsonl",
    "MetaPromptingWithPython": "{}.jsonl",
    "MetaPromptingWithoutPython": "{}.jsonl",
}
MARK, CLOSE = '>> final answer:\n"""', '"""'
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def meta_answer(output: str) -> str:
    """The answer the repository's evaluation reads (``extract_answer`` of the lowercased output)."""
    return output.lower().split(MARK)[-1].split(CLOSE)[0].strip()


def _unpunctuated(text: str) -> str:
    for mark in (",", ";", ":", ".", '"'):
        text = text.replace(mark, "")
    return text


def meta_grade(task: str, output: str, target: str) -> int:
    """The repository's grade (``evaluate_outputs.run_eval``): MGSM by ``eval_for_softmatch`` (the
    target within the answer, punctuation removed), multi-step arithmetic by
    ``eval_for_exact_matching_with_no_punctuation``."""
    answer, target = _unpunctuated(meta_answer(output)), target.lower()
    if task.startswith("MGSM"):
        return int(target in answer)
    return int(answer.replace("\n", " ") == target)


def meta_states_answer(output: str) -> bool:
    """Whether the grade reads the answer the output states: exactly one final-answer block,
    closed, holding exactly one number, in ASCII digits. Reads the form only, never the target."""
    text = output.lower()
    if text.count(MARK) != 1 or CLOSE not in text.split(MARK)[1]:
        return False
    numbers = NUMBER.findall(meta_answer(output))
    # a number in a script's own digits (Bengali) never contains the ASCII target: the grade cannot read it
    return len(numbers) == 1 and numbers[0].isascii()


def meta_rows(repo: Repo, task: str, lang: str) -> list[dict]:
    """Every eligible row of a task, over the seven prompting methods (before ``pick``)."""
    rows = []
    for method, pattern in METHODS.items():
        path = f"outputs/{method}/{pattern.format(task)}"
        for line, item in enumerate(repo.jsonl(path)):
            output = item.get("output")
            if not isinstance(output, str) or not meta_states_answer(output):
                continue
            if task.startswith("MGSM") and "," in str(item["target"]):
                continue  # the rule strips the answer's commas and not the target's: "114,200" can be paid by none
            rows.append({"id": f"{method}/{task}/{line}", "path": path, "model": "gpt-4",
                         "reference": str(item["target"]), "completion": output,
                         "grade": meta_grade(task, output, str(item["target"])),
                         "grade_from": "meta_prompting_evaluate_outputs", "lang": lang,
                         "question": str(item["input"])})
    return rows


def _meta(repo: Repo, task: str, lang: str) -> list[dict]:
    return pick(meta_rows(repo, task, lang), 60, 60)


# Tuning-half rows whose grade a hand look found wrong, read while the rules were tuned on the tuning half: the
# final box states the reference's value in another form that the repository's copy of the Qwen2.5-Math grader
# does not match (a product's factors in another order, a sum's terms regrouped, e-notation written out, a unit
# the question asks for, a trigonometric identity).
_EQUAL = "graded 0, but the final box states the reference's value: {}"
LABEL_OVERRIDES: dict[str, tuple[int, str]] = {
    "math_skyt1_longcot/Sky-T1-math-correct-5K-27B/minerva_math/idx122": (
        1, _EQUAL.format("u(t)(1-3e^{-2t}+2e^{-5t})")),
    "math_skyt1_longcot/Sky-T1-math-correct-5K-27B/minerva_math/idx124": (
        1, _EQUAL.format("\\frac{e^{-at}-e^{-bt}}{b-a}")),
    "math_skyt1_longcot/Sky-T1-math-correct-5K-27B/minerva_math/idx171": (1, _EQUAL.format("1870000 for 1.87e6")),
    "math_skyt1_longcot/Sky-T1-math-correct-5K-27B/minerva_math/idx252": (1, _EQUAL.format("100\\sqrt{p}")),
    "math_skyt1_longcot/Sky-T1-math-correct-5K-27B/minerva_math/idx96": (
        1, _EQUAL.format("\\frac{1}{3}e^{t}+ce^{-2t}")),
    "math_skyt1_longcot/Sky-T1-math-wrong-5K-27B/minerva_math/idx175": (
        1, _EQUAL.format("9.00 \\times 10^{11} kJ, the unit the question asks for, for 9e11")),
    "math_skyt1_longcot/Sky-T1-math-wrong-5K-27B/minerva_math/idx184": (
        1, _EQUAL.format("3.61 \\times 10^{-10} meters for 3.61e-10")),
    "math_skyt1_longcot/Sky-T1-math-wrong-5K-27B/minerva_math/idx95": (
        1, _EQUAL.format("\\cosh(at) = \\frac{1}{2}(e^{at}+e^{-at})")),
    "math_skyt1_longcot/Sky-T1-math-wrong-5K-27B/minerva_math/idx83": (
        1, _EQUAL.format("-2\\cos(\\pi t - 2\\pi/3) = 2\\cos(\\pi t + \\pi/3)")),
}

# The same reading of held-out rows, made after the held-out half had been scored once with the rules frozen
# (the four incorrect rows that scoring paid; Math-Verify pays them too).
_AFTER = "; read after the held-out half was scored"
LABEL_OVERRIDES.update({
    "math_base_models_cot/Qwen/Qwen2.5-Math-7B/minerva_math/idx252": (
        1, _EQUAL.format("y^s = 100 p^{\\frac{1}{2}}, the supply function named") + _AFTER),
    "math_skyt1_longcot/Sky-T1-math-correct-5K-27B/minerva_math/idx115": (
        1, _EQUAL.format("W(s) = \\frac{1 - e^{-sT}}{s}") + _AFTER),
    "math_skyt1_longcot/Sky-T1-math-wrong-5K-27B/minerva_math/idx122": (
        1, _EQUAL.format("f(t) = u(t)(1 - 3e^{-2t} + 2e^{-5t})") + _AFTER),
    "math_skyt1_longcot/Sky-T1-math-wrong-5K-27B/minerva_math/idx178": (
        1, _EQUAL.format("5.89 \\times 10^{-7} m for 5.89e-7") + _AFTER),
})


# ------------------------------------------------------------------ Dynamic Cheatsheet: AIME, long solutions

DC_TASKS = ("AIME_2024", "AIME_2025", "AIME_2020_2024")
DC_METHODS = ("Baseline", "EmptyCheatsheet", "Dynamic_Retrieval", "DynamicCheatsheet_Cumulative",
              "DynamicCheatsheet_RetrievalSynthesis")
# (model, task, method) runs not read: their files are of 4 MiB and more, which the snapshot the corpus was built
# from does not hold
DC_LEFT_OUT = {("gpt-4o", "AIME_2020_2024", m) for m in DC_METHODS[2:]} | {
    ("claude-3-5-sonnet", "AIME_2020_2024", m) for m in ("Dynamic_Retrieval", "DynamicCheatsheet_RetrievalSynthesis")}


def dc_answer(output: str) -> str:
    """The answer the repository's evaluation reads (``EvaluatingResults.ipynb``): the text in the
    first ``<answer>...</answer>`` (else the whole output), then what follows the last ``boxed{``
    up to the next ``}``."""
    output = output.strip()
    if "<answer>" in output:
        output = output.split("<answer>")[1].split("</answer>")[0].strip()
    return output.split("boxed{")[-1].split("}")[0].strip()


def dc_grade(output: str, target: str) -> int:
    """The repository's AIME grade: ``eval_for_exact_matching_with_no_punctuation`` of the
    lowercased answer and target."""
    answer = _unpunctuated(dc_answer(output).lower()).replace("\n", " ")
    return int(answer == target.strip().lower())


def dc_states_answer(output: str) -> bool:
    """Whether the grade reads the answer the output states: exactly one ``<answer>`` block,
    closed, whose answer (as the grade reads it, punctuation removed) is a bare integer. Reads the
    form only, never the target."""
    if output.count("<answer>") != 1 or output.count("</answer>") != 1:
        return False
    if output.index("</answer>") < output.index("<answer>"):
        return False
    return re.fullmatch(r"\d+", _unpunctuated(dc_answer(output))) is not None


def dc_rows(repo: Repo, model: str) -> list[dict]:
    """Every eligible row of a model's AIME runs, over the tasks and methods (before ``pick``)."""
    rows = []
    for task in DC_TASKS:
        for method in DC_METHODS:
            if (model, task, method) in DC_LEFT_OUT:
                continue
            path = f"results/{task}/{model}_{method}.jsonl"
            for line, item in enumerate(repo.jsonl(path)):
                output = item["steps"][-1]["generator_output"]
                if not dc_states_answer(output):
                    continue
                rows.append({"id": f"{task}/{model}_{method}/{line}", "path": path, "model": model,
                             "reference": item["target"].strip(), "completion": output,
                             "grade": dc_grade(output, item["target"]), "grade_from": "dynamic_cheatsheet_aime_eval",
                             "lang": "en", "question": item["raw_input"].strip()})
    return rows


# ------------------------------------------------------------------ SkyThought: the Qwen2.5-Math evaluation's logs

SKY_OUT = "skythought/Qwen2.5-Math/evaluation/outputs/"
_SKY_ICML = "icml_models/Sky-T1-math-"
# source -> {output folder (the model): benchmarks read}; the runs of files of 4 MiB and more, which the snapshot
# the corpus was built from does not hold, are not listed
SKY_RUNS = {
    "aime_amc_skyt1_longcot": {
        **{f"home/ubuntu/skyov1-dl/Sky-T1-math-{m}": ("aime24", "amc23")
           for m in ("correct-5K-14B", "correct-5K-27B", "wrong-5K-14B", "wrong-5K-27B")},
        **{f"{_SKY_ICML}correct-5K-32B-ckpts/checkpoint-{k}": ("aime24",)
           for k in (21, 35, 49, 63, 70, 84, 98, 105, 119, 133, 140)},
        **{f"{_SKY_ICML}{m}-32B": ("aime24", "amc23") for m in ("corrupt-0.2", "corrupt-0.5", "reflection-0.2",
                                                                "reflection-0.5", "reflection-1.0")},
        f"{_SKY_ICML}corrupt-0.7-32B": ("amc23",),
    },
    "math_skyt1_longcot": {"home/ubuntu/skyov1-dl/Sky-T1-math-correct-5K-27B": ("math500", "minerva_math"),
                           "home/ubuntu/skyov1-dl/Sky-T1-math-wrong-5K-27B": ("minerva_math",)},
    "math_base_models_cot": {"Qwen/Qwen2.5-Math-7B": ("aime24", "amc23", "math500", "minerva_math"),
                             "meta-llama/Llama-3.1-8B": ("aime24", "amc23")},
}
# the base models' outputs longer than this are left out (on their length alone): plain Math-Verify's parse, which
# the build runs without a timeout, does not finish on some of them
SKY_BASE_MAX_CHARS = 10_000


def sky_states_answer(output: str) -> bool:
    """Whether the harness's grade reads the answer the output states (``parser.extract_answer``):
    its answer is the last ``boxed{...}``, closed, and the output has no Minerva-style "final answer
    is $...$. I hope" sentence, which the harness would read first. Reads the form only."""
    if "final answer is $" in output and "$. I hope" in output:
        return False
    return "boxed" in output and output.split("boxed")[-1].startswith("{") and last_boxed(output) is not None


def sky_rows(repo: Repo, name: str) -> list[dict]:
    """Every eligible row of a source's runs (before ``pick``): the stored grade of each output,
    each run's stored grades checked against the accuracy its metrics file reports."""
    rows = []
    for folder, benches in SKY_RUNS[name].items():
        for bench in benches:
            prompt = "Sky-T1" if "Sky-T1" in folder else "qwen25-math-cot"
            stem = f"{SKY_OUT}{folder}/{bench}_eval/{bench}/test_{prompt}_-1_seed0_t0.0_s0_e-1"
            items = repo.jsonl(stem + ".jsonl")
            reported = json.loads(repo.show(f"{stem}_{prompt}_metrics.json"))["acc"]
            stored = sum(bool(item["score"][0]) for item in items)
            if round(100 * stored / len(items), 1) != reported or len({i["idx"] for i in items}) != len(items):
                raise SystemExit(f"build_math_recall8: {stem}: stored {stored}/{len(items)}, metrics {reported}")
            for item in items:
                output = item["code"][0]
                if len(item["code"]) != 1 or not sky_states_answer(output):
                    continue
                if name == "math_base_models_cot" and len(output) > SKY_BASE_MAX_CHARS:
                    continue
                model = folder.removeprefix("home/ubuntu/skyov1-dl/").removeprefix("icml_models/")
                rows.append({"id": f"{model}/{bench}/idx{item['idx']}", "path": stem + ".jsonl", "model": model,
                             "reference": str(item["gt"]), "completion": output, "grade": int(bool(item["score"][0])),
                             "grade_from": "qwen25_math_eval_score", "lang": "en", "question": item["question"]})
    return rows


BUILDERS = {f"mgsm_{code}_gpt4_meta": (lambda repo, task=task, code=code: _meta(repo, task, code))
            for code, (task, _) in MGSM_LANGS.items()}
BUILDERS["multistep_arithmetic_gpt4_meta"] = lambda repo: _meta(repo, "multistep_arithmetic_two", "en")
BUILDERS["aime_gpt4o_dc"] = lambda repo: pick(dc_rows(repo, "gpt-4o"), 60, 60)
BUILDERS["aime_claude35_dc"] = lambda repo: pick(dc_rows(repo, "claude-3-5-sonnet"), 60, 60)
for _name in SKY_RUNS:
    BUILDERS[_name] = lambda repo, name=_name: pick(sky_rows(repo, name), 60, 60)


def main(argv: list[str] | None = None) -> int:
    return split_corpus_main(argv, description=__doc__.split("\n\n")[0], sources=SOURCES, builders=BUILDERS,
                             overrides=LABEL_OVERRIDES, default_out=Path(__file__).resolve().parents[1] /
                             "tests/data/math_recall8", keys=(*ROW_KEYS, "lang", "question"), repo_class=Repo)


if __name__ == "__main__":
    sys.exit(main())
