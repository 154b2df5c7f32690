"""Build the third recall corpus ``tests/data/math_recall3/``: real, graded math outputs from
public repositories the first two corpora do not draw on (TheoremQA's university-level STEM
questions answered by chat models in prose and as programs, and by base models prompted with
five exemplars; GPT-3 with two worked exemplars on tabular word problems; MMLU-Pro's maths
questions answered by base and chat models with five chain-of-thought exemplars), each source
split into a tuning half and a held-out half.

The split is the one of ``bench/build_math_recall2.py`` (``split_of``: a row is held out when
the first byte of ``sha256(row id)`` is odd), made before any row is looked at; the row id names
the source's own key (model and question id). The halves are written to separate files,
``<source>.tune.jsonl.gz`` and ``<source>.heldout.jsonl.gz``. A verifier may be tuned on the
tuning halves only; the held-out halves measure it.

Each source is read from a git snapshot of its repository at a fixed commit (``git show
COMMIT:PATH``, nothing is downloaded or executed; zip archives are read in memory). Rows have
the fields of ``tests/data/math_recall2`` (``id, source, split, licence, repo, commit, path,
model, reference, completion, grade, grade_from, lang, family, mv, label``). ``grade`` is the
source's own grade (``grade_from`` names it), ``mv`` plain Math-Verify's verdict at build time,
``label`` the grade (no source grade has been overridden).

Only rows whose grade reads what the output states are kept (each builder says how: the rule
reads the output's form and the source's extraction, never whether the answer is right), and
of those a fixed number of correct and of incorrect rows per source, the first by
``sha256(row id + "/pick")`` (``pick``: the choice reads only the ids and the grades).

Usage (bare git directories ``OWNER+NAME/repo``, e.g. from ``git clone --mirror``)::

    .venv/bin/python bench/build_math_recall3.py --repos /work/.mirror [--out tests/data/math_recall3] [--check]
"""

from __future__ import annotations

import ast
import io
import json
import math
import re
import subprocess
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from build_math_recall import ROW_KEYS, Repo  # noqa: E402
from build_math_recall2 import pick, split_corpus_main  # noqa: E402

# (repo, commit, licence, licence file in the repo)
THEOREMQA_V1 = ("wenhuchen/TheoremQA", "7894f0ad7c014395886f781e5347e4fd89924cc9", "MIT", "LICENSE")
THEOREMQA_V2 = ("TIGER-AI-Lab/TheoremQA", "acfc9686aa9b49f3c8f189364a9a9ee9c53da039", "MIT", "LICENSE")
PROMPTPG = ("lupantech/PromptPG", "7cf61b1bec07222fc24b4f5a1410911f77c2d2c9", "MIT", "LICENSE.md")
MMLU_PRO = ("TIGER-AI-Lab/MMLU-Pro", "f418b116db00b065c2aea046518d8fcf74d39872", "Apache-2.0", "LICENSE")

# name -> (repo, commit, licence, licence file, what it is)
SOURCES = {
    "theoremqa_chat_cot": (*THEOREMQA_V1, "TheoremQA's zero-shot outputs of chat and instruction-tuned models (GPT-4, "
                                          "ChatGPT, GPT-3.5, GPT-3, Claude v1, v2 and instant, Alpaca, Vicuna, "
                                          "Pythia) on university-level maths, physics, EE/CS and finance questions "
                                          "with a value answer, told to end \"Therefore, the answer is ...\"; graded "
                                          "by the benchmark's `correct`"),
    "theoremqa_chat_pot": (*THEOREMQA_V1, "TheoremQA's program-of-thought runs (GPT-4, ChatGPT, GPT-3.5, GPT-3, "
                                          "Claude v1, StarChat): the `def solve(): ... return ans` program the model "
                                          "wrote and the value it returned, graded by the benchmark's `correct`"),
    "theoremqa_base_fewshot": (*THEOREMQA_V2, "TheoremQA's five-shot outputs of base models (Mistral-7B v0.1 and "
                                              "v0.2, InternLM2-20B, InternLM2-Math-20B) on the same questions, ending "
                                              "\"The answer is N\"; graded by the repository's rule"),
    "promptpg_gpt3_tabmwp": (*PROMPTPG, "PromptPG's runs of GPT-3 (text-davinci-002) prompted with two worked "
                                        "exemplars (`TQ-SA`: table, question, then solution and answer) on TabMWP's "
                                        "tabular maths word problems with a numeric answer, graded by the run's "
                                        "`true_false`"),
    "mmlu_pro_math_base_fewshot": (*MMLU_PRO, "MMLU-Pro's five-shot chain-of-thought outputs of base models "
                                              "(Llama-2, Llama-3, Llama-3.1, Mistral, Mixtral, Qwen1.5-110B, Yi, "
                                              "Gemma) on its maths questions (ten options), ending \"The answer is "
                                              "(X)\"; the reference is the key's letter"),
    "mmlu_pro_math_chat": (*MMLU_PRO, "MMLU-Pro's five-shot chain-of-thought outputs of chat and instruction-tuned "
                                      "models (Llama-3.1-Instruct, Mistral-Instruct, Mixtral-Instruct, Phi-3-mini, "
                                      "Qwen1.5-Chat, Yi-Chat, Command-R, Gemini-1.5, Jamba-1.5, Mathstral, "
                                      "DeepSeek-Coder-V2) on its maths questions; the reference is the key's letter"),
}

N_CORRECT, N_INCORRECT = 60, 60


def _float_type(answer_type: str) -> bool:
    return "float" in answer_type


# ------------------------------------------------------------------ TheoremQA (wenhuchen/TheoremQA)

THEOREMQA_COT = {"GPT4": "GPT4_s0_e-1_05_12_23_31", "ChatGPT": "ChatGPT_s0_e-1_05_13_10_25",
                 "GPT3.5": "GPT3.5_s0_e-1_05_13_11_04", "GPT3": "GPT3_s0_e-1_05_13_11_04",
                 "anthropic_v1": "anthropic_v1_s0_e-1_05_12_23_41", "anthropic_v2": "anthropic_v2_s0_e-1_08_02_00_15",
                 "anthropic_instant-v1": "anthropic_instant-v1_s0_e-1_05_27_09_42",
                 "alpaca": "alpaca_s0_e-1_05_15_02_19", "vicuna": "vicuna_s0_e-1_05_16_19_54",
                 "pythia": "pythia_s0_e-1_05_17_00_17"}
THEOREMQA_POT = {"GPT4_PoT": "GPT4_PoT_s0_e-1_05_13_10_18", "ChatGPT_PoT": "ChatGPT_PoT_s0_e-1_05_13_10_25",
                 "GPT3.5_PoT": "GPT3.5_PoT_s0_e-1_05_20_00_02", "GPT3_PoT": "GPT3_PoT_s0_e-1_05_20_20_02",
                 "anthropic_v1_PoT": "anthropic_v1_PoT_s0_e-1_05_13_23_19",
                 "starchat_PoT": "starchat_PoT_s0_e-1_05_17_22_57"}
VALUE_TYPES = ("integer", "float", "list of integer", "list of float")


def _theoremqa_grade_from(answer_type: str) -> str:
    # predict_accuracy.py: integers by round(pred) == gt, floats within 4 % of the reference
    return "correct_within_4pct" if _float_type(answer_type) else "correct"


def _theoremqa_keys(item: dict) -> dict:
    """An entry with the lower-case keys (some runs write ``Answer`` / ``Answer_type``)."""
    return {**item, "answer": item.get("answer", item.get("Answer")),
            "answer_type": item.get("answer_type", item.get("Answer_type"))}


def _theoremqa_corrected(repo: Repo, stem: str) -> tuple[str, list[dict]]:
    path = f"outputs/{stem}.jsonl.corrected"
    return path, json.loads(repo.show(path))


def theoremqa_chat_cot(repo: Repo) -> list[dict]:
    """The ``rationale`` (the model's whole reply) of questions with a value answer (integer,
    float or a list of them; True/False and option questions are left out), graded by the
    ``correct`` that ``predict_accuracy.py`` wrote into the ``.corrected`` file. Kept where the
    reply's last line holds "is"/"be"/"are" or a colon, the stop ``util.extract_answer`` reads the
    answer after, so that the grade reads the stated answer rather than a tail of prose."""
    rows = []
    for model, stem in THEOREMQA_COT.items():
        path, items = _theoremqa_corrected(repo, stem)
        for item in map(_theoremqa_keys, items):
            text = str(item.get("rationale") or "")
            if item["answer_type"] not in VALUE_TYPES or not text.strip() or not theoremqa_states(text):
                continue
            rows.append({"id": f"{model}/{item['id']}", "path": path, "model": model,
                         "reference": json.dumps(item["answer"]), "completion": text,
                         "grade": int(bool(item["correct"])), "grade_from": _theoremqa_grade_from(item["answer_type"]),
                         "lang": "en"})
    return pick(rows, N_CORRECT, N_INCORRECT)


def theoremqa_states(text: str) -> bool:
    """Whether ``util.extract_answer`` reads an answer phrase: the last line has a word "is",
    "be" or "are" or one ending in ":" (else the whole last line is the prediction)."""
    last = text.strip().strip("\n").split("\n")[-1]
    return any(w in ("is", "be", "are") or w.endswith(":") for w in last.split(" "))


def _is_value(value) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    return isinstance(value, list) and bool(value) and all(_is_value(v) and not isinstance(v, list) for v in value)


def _returned(value):
    """The value a run stored for ``solve()``: a number or a list of numbers (some runs store it
    as its text, e.g. ``"0.5"``), else None."""
    if isinstance(value, str):
        try:
            value = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
    return value if _is_value(value) else None


def theoremqa_chat_pot(repo: Repo) -> list[dict]:
    """The program (``rationale``: the code ``util.extract_code`` kept from the reply) and the
    value ``solve()`` returned (``prediction`` of the run's own ``.jsonl``), written as a
    tool-integrated transcript: the program in a ``python`` fence, the value in an ``output``
    fence. Kept for value questions where the program returned a number or a list of numbers
    and the graded prediction (``.corrected``) is that value, so the grade is the grade of it."""
    rows = []
    for model, stem in THEOREMQA_POT.items():
        path, items = _theoremqa_corrected(repo, stem)
        raw = {item["id"]: item for item in repo.jsonl(f"outputs/{stem}.jsonl")}
        for item in map(_theoremqa_keys, items):
            run = raw.get(item["id"])
            code = str(item.get("rationale") or "").strip()
            if item["answer_type"] not in VALUE_TYPES or run is None or not code or "def solve" not in code:
                continue
            value = _returned(run.get("prediction"))
            if value is None or value != item["prediction"]:
                continue
            transcript = f"```python\n{code}\n```\n```output\n{str(run['prediction']).strip()}\n```"
            rows.append({"id": f"{model}/{item['id']}", "path": path, "model": model,
                         "reference": json.dumps(item["answer"]), "completion": transcript,
                         "grade": int(bool(item["correct"])), "grade_from": _theoremqa_grade_from(item["answer_type"]),
                         "lang": "en"})
    return pick(rows, N_CORRECT, N_INCORRECT)


# ------------------------------------------------------------------ TheoremQA five-shot (TIGER-AI-Lab/TheoremQA)

THEOREMQA_BASE = {"Mistral_7B_Base_V0.2": "outputs/Mistral_7B_Base_V0.2_5shots_mistral.jsonl",
                  "Mistral_7B_v0.1": "outputs/Mistral_7B_v0.1_5shots_mistral.jsonl",
                  "internlm2_20b": "outputs/internlm2_20b_5shots_short.jsonl",
                  "internlm2_math_20b": "outputs/internlm2_math_20b_5shots_short.jsonl"}
TRIGGERS = ("The answer is:", "The answer is", "the answer is")
_PLAIN = re.compile(r"-?\d+(?:\.\d+)?")


def theoremqa_base_grade(pred: str, gt_str: str, gt_num) -> int:
    """``utils.compare_answer_with_groundtruth`` for a prediction that is a plain number and a
    numeric reference: the strings equal, else (``number_utils``) ``round(pred) == gt`` for an
    integer reference and within 4 % of it for a float one."""
    if pred.lower() == gt_str.lower():
        return 1
    value = float(pred)
    value = round(value) if value.is_integer() else value
    if isinstance(gt_num, int):
        return int(round(value) == gt_num)
    return int(gt_num - abs(gt_num) * 0.04 <= value <= gt_num + abs(gt_num) * 0.04)


def theoremqa_base_fewshot(repo: Repo) -> list[dict]:
    """The ``solution`` (the model's continuation after the five exemplars) of questions with a
    numeric reference, graded by the repository's rule (``compute_accuracy.py``) on its stored
    ``pred``. Kept where the rule reads the stated answer: one "The answer is" in the output (the
    rule cuts an output with two at its first blank line) and the stored ``pred`` is a plain
    number (the extractor turns any answer holding "no"/"yes"/"true"/"false", e.g. "nodes", into a
    boolean)."""
    ids: dict[str, list[str]] = {}
    for entry in json.loads(repo.show("theoremqa_test.json")):
        ids.setdefault(entry["Question"], []).append(entry["id"])
    rows = []
    for model, path in THEOREMQA_BASE.items():
        for line, item in enumerate(repo.jsonl(path)):
            gt_str, gt_num = (list(item["correct"]) + [None])[:2]
            text, pred = str(item.get("solution") or ""), str(item.get("pred") or "")
            if isinstance(gt_num, bool) or not isinstance(gt_num, (int, float)) or not text.strip():
                continue
            if text.count("he answer is") != 1 or not _PLAIN.fullmatch(pred) or not math.isfinite(float(pred)):
                continue  # (a number too long for a float is no value the rule can compare)
            qid = ids.get(item["question"], [])
            key = qid[0] if len(qid) == 1 else f"line{line}"
            rows.append({"id": f"{model}/{key}", "path": path, "model": model, "reference": str(gt_str),
                         "completion": text, "grade": theoremqa_base_grade(pred, str(gt_str), gt_num),
                         "grade_from": ("compare_answer_with_groundtruth_within_4pct" if isinstance(gt_num, float)
                                        else "compare_answer_with_groundtruth"),
                         "lang": "en"})
    return pick(rows, N_CORRECT, N_INCORRECT)


# ------------------------------------------------------------------ PromptPG (GPT-3 on TabMWP)

PROMPTPG_RUN = "results/gpt3/exp4_test_TQ-SA_2_seed_2.json"
_NUMERIC = re.compile(r"-?\d+(?:\.\d+)?")


def promptpg_gpt3_tabmwp(repo: Repo) -> list[dict]:
    """The run's ``output`` (GPT-3's continuation) of questions whose normalised answer is a
    number, graded by ``true_false``; the builder checks that ``true_false`` is the run's
    comparison of the normalised prediction with the normalised answer, and that the counts
    reproduce the run's reported accuracy. Kept where the extracted prediction occurs in the
    output as written (a choice letter mapped to an option does not)."""
    run = json.loads(repo.show(PROMPTPG_RUN))
    results = run["results"]
    solved = sum(bool(r["true_false"]) for r in results.values())
    if solved != run["correct"] or len(results) != run["count"] or abs(100 * solved / len(results) - run["acc"]) > 1e-9:
        raise SystemExit(f"build_math_recall3: {PROMPTPG_RUN}: recomputed {solved}/{len(results)}, "
                         f"reported {run['correct']}/{run['count']}")
    rows = []
    for pid, item in results.items():
        grade = int(bool(item["true_false"]))
        if grade != int(str(item["answer_norm"]).lower() == str(item["prediction_norm"]).lower()):
            raise SystemExit(f"build_math_recall3: {PROMPTPG_RUN}: {pid}: true_false is not the comparison")
        output, prediction = str(item.get("output") or ""), str(item.get("prediction") or "")
        if not _NUMERIC.fullmatch(str(item["answer_norm"])) or not output.strip() or not prediction.strip():
            continue
        if prediction not in output:
            continue
        rows.append({"id": f"exp4/{pid}", "path": PROMPTPG_RUN, "model": run["args"]["engine"],
                     "reference": str(item["answer"]), "completion": output, "grade": grade,
                     "grade_from": "true_false", "lang": "en"})
    return pick(rows, N_CORRECT, N_INCORRECT)


# ------------------------------------------------------------------ MMLU-Pro maths (base and chat models)

MMLU_PRO_BASE = ("Llama-2-7b-hf", "Llama-2-13b-hf", "Llama-2-70b-hf", "Meta-Llama-3-8B", "Meta-Llama-3-70B",
                 "Meta-Llama-3_1-8B", "Meta-Llama-3_1-70B", "Mistral-7B-v0.1", "Mistral-7B-v0.2-hf",
                 "Mixtral-8x7B-v0.1", "Qwen1.5-110B", "Yi-6B", "Yi-34B", "gemma-7b")
MMLU_PRO_CHAT = ("Meta-Llama-3_1-8B-Instruct", "Meta-Llama-3_1-70B-Instruct", "Mistral-7B-Instruct-v0.1",
                 "Mistral-7B-Instruct-v0.2", "Mixtral-8x7B-Instruct-v0.1", "Phi-3-mini-4k-instruct",
                 "Qwen1.5-7B-Chat", "Qwen1.5-72B-Chat", "Yi-6b-Chat", "c4ai-command-r-v01", "gemini-1.5-flash-002",
                 "gemini-1.5-pro-002", "jamba-1.5-large", "mathstral-7B", "DeepSeek-Coder-V2")
_MMLU_PRO_ANSWER = re.compile(r"answer is \(?([A-J])\)?")


def _mmlu_pro(repo: Repo, models: tuple[str, ...]) -> list[dict]:
    """The ``generated_text`` (``model_outputs`` in the API runs) of each maths question, graded
    ``pred == answer`` (the harness's accuracy, ``evaluate_from_local.py`` and
    ``evaluate_from_api.py``). Kept where the harness's first pattern ("answer is (X)") found the
    prediction in the text: a ``None`` prediction is scored by a random draw and the later
    fallbacks read a bare capital letter anywhere in the text."""
    rows = []
    for model in models:
        path = f"eval_results/model_outputs_{model}_5shots.zip"
        archive = zipfile.ZipFile(io.BytesIO(repo.show_bytes(path)))
        (member,) = [n for n in archive.namelist() if n.endswith(".json")]
        for item in json.loads(archive.read(member)):
            if not isinstance(item, dict) or item["category"] != "math":
                continue  # (one API run's list holds a few bare strings between its entries)
            text = str(item.get("generated_text") or item.get("model_outputs") or "")  # local runs / API runs
            pred = item.get("pred")
            m = _MMLU_PRO_ANSWER.search(text)
            if not pred or not m or m.group(1) != pred:
                continue
            rows.append({"id": f"{model}/{item['question_id']}", "path": f"{path}:{member}", "model": model,
                         "reference": item["answer"], "completion": text, "grade": int(pred == item["answer"]),
                         "grade_from": "pred_equals_answer", "lang": "en"})
    return rows


def mmlu_pro_math_base_fewshot(repo: Repo) -> list[dict]:
    return pick(_mmlu_pro(repo, MMLU_PRO_BASE), N_CORRECT, N_INCORRECT)


def mmlu_pro_math_chat(repo: Repo) -> list[dict]:
    return pick(_mmlu_pro(repo, MMLU_PRO_CHAT), N_CORRECT, N_INCORRECT)


BUILDERS = {name: globals()[name] for name in SOURCES}


# ------------------------------------------------------------------ build


class BinaryRepo(Repo):
    def show_bytes(self, path: str) -> bytes:
        out = subprocess.run(["git", "--git-dir", str(self.git_dir), "show", f"{self.commit}:{path}"],
                             capture_output=True, check=False)
        if out.returncode:
            raise SystemExit(f"build_math_recall3: {self.name}@{self.commit[:10]}:{path}: "
                             f"{out.stderr.decode().strip()}")
        return out.stdout


def main(argv: list[str] | None = None) -> int:
    return split_corpus_main(argv, description=__doc__.split("\n\n")[0], sources=SOURCES, builders=BUILDERS,
                             overrides={}, default_out=Path(__file__).resolve().parents[1] /
                             "tests/data/math_recall3", keys=(*ROW_KEYS, "lang"), repo_class=BinaryRepo)


if __name__ == "__main__":
    sys.exit(main())
