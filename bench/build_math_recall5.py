"""Build the fifth split recall corpus ``tests/data/math_recall5/``: real, graded math outputs
from repositories none of the earlier corpora used, of two kinds they lack: final answers of
2026 reasoning models (Qwen3.5/3.6/3.8, Gemma 4, DeepSeek V4) to a Chinese gaokao mathematics
paper, graded by the repository's LLM judge, and few-shot multiple-choice outputs of Arabic and
multilingual base models on the mathematics subjects of Arabic MMLU; each source split into a
tuning half and a held-out half.

The split is the one of ``bench/build_math_recall2.py`` and is made before any row is looked
at: a row goes to the held-out half when the first byte of ``sha256(row id)`` is odd
(``split_of``), the row id naming the source's own stable key (run file and question id, or
model, setting, subject and question id). The halves are written to separate files,
``<source>.tune.jsonl.gz`` and ``<source>.heldout.jsonl.gz``. A verifier may be tuned on the
tuning halves only; the held-out halves measure it.

Each source is read from a git snapshot of its repository at a fixed commit (``git show
COMMIT:PATH``; nothing is downloaded or executed). Rows have the fields of
``bench/build_math_recall4.py`` (``id, source, split, licence, repo, commit, path, model,
reference, completion, grade, grade_from, family, mv, label, lang, question``). ``grade`` is
the source's own grade (``grade_from`` names it; the builder checks it against the totals the
source stores), ``mv`` plain Math-Verify's verdict at build time, ``label`` the grade (no row
has been read by hand for a label).

A fixed number of correct and of incorrect rows is kept per source, the first by
``sha256(row id + "/pick")`` (``pick``): the choice reads only the ids and the source's grade.
Rows are left out on their form only (where the source's grade would not read the answer the
output states), never on whether the answer is right.

Usage (bare git directories ``OWNER+NAME/repo``, e.g. from ``git clone --mirror``)::

    .venv/bin/python bench/build_math_recall5.py --repos /work/.mirror [--out tests/data/math_recall5] [--check]
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from build_math_recall import ROW_KEYS, Repo, last_boxed  # noqa: E402
from build_math_recall2 import pick, split_corpus_main  # noqa: E402

# (repo, commit, licence, licence file in the repo)
GAOKAO_EVAL = ("iamyb/llm-gaokao-math-eval", "7b58eaf4574046c73e49cd75590dd4e30bfe3adf", "MIT", "LICENSE")
ACEGPT = ("FreedomIntelligence/AceGPT", "061a656497168edd8f01ce6c03d6a4c7fa1d42d5", "Apache-2.0", "LICENSE.txt")

# name -> (repo, commit, licence, licence file, what it is)
SOURCES = {
    "gaokao2026_zh_reasoning": (
        *GAOKAO_EVAL, "the repository's runs of local and API reasoning models (Qwen3.5 4B/9B, Qwen3.6 27B/35B-A3B at "
                      "several quantisations, Qwen3.8 27B, Gemma 4 26B-A4B/31B, DeepSeek V4 Flash, Muse-Glimmer 30B, "
                      "Ternary-Bonsai 27B) on the 14 choice and fill-in questions of the 2026 national gaokao paper I "
                      "in mathematics, prompted in Chinese to reason step by step and box the answer: the final answer "
                      "message (the reasoning, returned separately by the server, is not included), graded by the "
                      "repository's LLM judge"),
    "arabic_mmlu_math_fewshot": (*ACEGPT, "AceGPT's Arabic MMLU runs on the four mathematics subjects (abstract "
                                          "algebra, college, high-school and elementary mathematics): five-shot "
                                          "multiple choice written in Arabic, the continuation of the base models "
                                          "AceGPT 7B/13B, Jais 13B, BLOOMZ 7B1-mt and Llama 2 7B (a letter, then "
                                          "whatever the model went on to write within its short token budget), "
                                          "graded by the harness's accuracy rule"),
}


def ls_files(repo: Repo, prefix: str) -> list[tuple[str, str]]:
    """(path, blob) of the files under ``prefix`` at the repository's commit, paths unquoted
    (``Repo.ls`` splits on white space, and these paths hold spaces and non-ASCII names)."""
    out = subprocess.run(["git", "--git-dir", str(repo.git_dir), "ls-tree", "-r", "-z", repo.commit, prefix],
                         capture_output=True, text=True, check=True).stdout
    files = []
    for entry in filter(None, out.split("\0")):
        meta, path = entry.split("\t", 1)
        files.append((path, meta.split()[2]))
    return sorted(files)


# ------------------------------------------------------------------ gaokao 2026, reasoning models, LLM judge

GAOKAO_RESULTS = ("data/eval_results/", "eval/results/")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f]")


def gaokao_states_answer(case: dict) -> bool:
    """Whether the judge's grade reads the answer the response states: the run finished
    (``status`` ok), the reference holds no control character (some early answer keys carry a
    form feed where ``\\f`` of ``\\frac`` was read as an escape), the response boxes exactly
    one answer, and that box is the answer the harness extracted and graded. Reads the form
    only, never the reference's value."""
    if case["status"] != "ok" or CONTROL.search(str(case["expected"])):
        return False
    response = case["response"]
    if response.count("\\boxed") != 1:
        return False
    boxed = last_boxed(response)
    return boxed is not None and boxed.strip() == str(case["answer"]).strip()


def gaokao_run_id(path: str) -> str:
    """A run file's stable key: the experiment (its results folder, or ``data`` for the
    repository's own summary copies), the model folder and the file's stem, leaving out the
    exam folder (always the 2026 national paper I)."""
    parts = PurePosixPath(path).parts
    experiment = "data" if parts[0] == "data" else parts[2]
    return f"{experiment}/{parts[-2]}/{PurePosixPath(path).stem}"


def gaokao2026_zh_reasoning(repo: Repo) -> list[dict]:
    rows, seen = [], set()
    files = [(p, b) for prefix in GAOKAO_RESULTS for p, b in ls_files(repo, prefix)
             if p.endswith(".json") and "smoke" not in p]
    for path, blob in sorted(files):
        if blob in seen:  # a run copied to two folders is read once
            continue
        seen.add(blob)
        result = json.loads(repo.show(path))
        states = result["task_states"]
        cases = states["cases"]
        graded = {key: int(bool(case["correct"])) for key, case in cases.items()}
        if sum(graded.values()) != states["correct"] or len(cases) != states["total"]:
            raise SystemExit(f"build_math_recall5: {path}: recomputed {sum(graded.values())}/{len(cases)}, "
                             f"stored {states['correct']}/{states['total']}")
        run = gaokao_run_id(path)
        for key, case in sorted(cases.items()):
            if not gaokao_states_answer(case):
                continue
            rows.append({"id": f"{run}/{key}", "path": path, "model": result["model_name"],
                         "reference": str(case["expected"]).strip(), "completion": case["response"],
                         "grade": graded[key], "grade_from": "llm_judge_correct", "lang": "zh",
                         "question": str(case["prompt"])})
    return pick(rows, 60, 60)


# ------------------------------------------------------------------ Arabic MMLU mathematics, five-shot letters

ACEGPT_RESULTS = "eval_results/Arabic MMLU/"
ACEGPT_SUBJECTS = ("abstract_algebra", "college_mathematics", "elementary_mathematics", "high_school_mathematics")
ACEGPT_MODELS = {"AceGPT_7B_base": "FreedomIntelligence/AceGPT-7B", "AceGPT_13B_base": "FreedomIntelligence/AceGPT-13B",
                 "jais-13b": "inception/jais-13b", "bloomz-7b1-mt": "bigscience/bloomz-7b1-mt",
                 "llama-2-7b-hf": "meta-llama/Llama-2-7b-hf"}
LETTER_LINE = re.compile(r"\(?[ABCD][.)]?")


def acegpt_letters(response: str) -> str:
    """The harness's reading of a response (``MMLUArabicEvaluation._extract_answer``): the set
    of the letters A-D on its first line, sorted."""
    return "".join(sorted(set(re.findall(r"[ABCD]", response.split("\n")[0]))))


def acegpt_states_letter(response: str) -> bool:
    """Whether the harness's grade reads the answer the response states: the first line is a
    single option letter (``B``, ``B.``, ``(B)``), which is what the harness reads; what follows
    on later lines (a run-on into the next exemplar) it ignores. Reads the form only."""
    return bool(LETTER_LINE.fullmatch(response.split("\n")[0].strip()))


def arabic_mmlu_math_fewshot(repo: Repo) -> list[dict]:
    rows = []
    for path, _ in ls_files(repo, ACEGPT_RESULTS):
        rel = PurePosixPath(path).relative_to(ACEGPT_RESULTS.rstrip("/"))
        if rel.stem not in ACEGPT_SUBJECTS:
            continue
        model_dir, setting = rel.parts[0], "/".join(rel.parts[1:-1]) or "run"
        for item in repo.jsonl(path):
            if acegpt_letters(item["response"]) != item["response_answer"]:  # the stored reading is the harness's
                raise SystemExit(f"build_math_recall5: {path}: {item['query_id']}: stored answer "
                                 f"{item['response_answer']!r} is not the harness's reading")
            if not acegpt_states_letter(item["response"]):
                continue
            rows.append({"id": f"{model_dir}/{setting}/{rel.stem}/{item['query_id']}", "path": path,
                         "model": ACEGPT_MODELS[model_dir], "reference": item["answer"],
                         "completion": item["response"], "grade": int(item["response_answer"] == item["answer"]),
                         "grade_from": "acegpt_mmlu_arabic_acc", "lang": "ar", "question": str(item["query"])})
    return pick(rows, 60, 60)


BUILDERS = {name: globals()[name] for name in SOURCES}

# Source grades a hand look found wrong: (label, why). Only rows of a tuning half were read for this: the incorrect
# rows the project's verifier paid, each an answer equal to the key in another closed form, which the LLM judge
# graded 0 (Math-Verify pays them too).
_G = "gaokao2026_zh_reasoning/2026_gaokao_math_ng1_"
_EQUAL = "the boxed answer equals the key in another closed form ({}); the LLM judge graded it 0"
LABEL_OVERRIDES: dict[str, tuple[int, str]] = {
    _G + "qwen_36_27b_quant_lower/Qwen3.6-27b-UD-IQ3_XXS-MTP/2026_gaokao_math_quanguo1_1/gaokao_000_013": (
        1, _EQUAL.format("\\frac{\\sqrt[3]{12}}{2} = \\sqrt[3]{3/2}")),
    _G + "qwen_vs_gemma/gemma-4-26B-A4B-it-UD-Q6_K_XL/2026_gaokao_math_quanguo1_2/gaokao_000_011": (
        1, _EQUAL.format("\\sqrt{11/6} = \\sqrt{66}/6")),
    _G + "qwen_vs_gemma/gemma-4-31B-it-UD-Q6_K_XL/2026_gaokao_math_quanguo1_2/gaokao_000_013": (
        1, _EQUAL.format("\\sqrt[3]{1.5} = \\sqrt[3]{3/2}")),
    _G + "type_qwen_vs_gemma/gemma-4-26B-A4B-it-UD-Q6_K_XL/2026_gaokao_math_quanguo1/gaokao_000_011": (
        1, _EQUAL.format("\\sqrt{11/6} = \\sqrt{66}/6")),
}
# The same reading of held-out rows, made after the held-out half had been scored once with the rules frozen
# (the four incorrect rows that scoring paid; Math-Verify pays the same four).
_AFTER = "; read after the held-out half was scored"
LABEL_OVERRIDES.update({
    _G + "qwen_36_27b_quant_lower/Qwen3.6-27b-UD-Q2_K_XL-MTP/2026_gaokao_math_quanguo1_2/gaokao_000_012": (
        1, _EQUAL.format("\\theta = \\frac{3\\pi}{2}, f(\\frac{2\\pi}{3}) = 1: the key's two values, named") + _AFTER),
    _G + "qwen_36_27b_quant_lower/Ternary-Bonsai-27B-Q2_g64/2026_gaokao_math_quanguo1/gaokao_000_012": (
        1, "the boxed answer is the key as written (\\frac{3\\pi}{2}, 1); the LLM judge graded it 0" + _AFTER),
    _G + "qwen_vs_gemma/gemma-4-26B-A4B-it-UD-Q6_K_XL/2026_gaokao_math_quanguo1_1/gaokao_000_011": (
        1, _EQUAL.format("\\sqrt{11/6} = \\sqrt{66}/6") + _AFTER),
    _G + "type_qwen_36_27b_quant/Qwen3.6-27b-UD-Q8_K_XL-MTP/2026_gaokao_math_quanguo1/gaokao_000_013": (
        1, _EQUAL.format("\\frac{\\sqrt[3]{12}}{2} = \\sqrt[3]{3/2}") + _AFTER),
})


# ------------------------------------------------------------------ build


def main(argv: list[str] | None = None) -> int:
    return split_corpus_main(argv, description=__doc__.split("\n\n")[0], sources=SOURCES, builders=BUILDERS,
                             overrides=LABEL_OVERRIDES, default_out=Path(__file__).resolve().parents[1] /
                             "tests/data/math_recall5", keys=(*ROW_KEYS, "lang", "question"), repo_class=Repo)


if __name__ == "__main__":
    sys.exit(main())
