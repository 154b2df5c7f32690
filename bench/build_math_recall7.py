"""Build the seventh split recall corpus ``tests/data/math_recall7/``: real, graded math outputs
from repositories none of the earlier corpora used, of kinds they lack: tool-integrated solutions,
where the model interleaves prose, Python code and the code's execution output before stating its
answer (MathCoder's models on DeepMind Mathematics, SimulEq and GSM8K, with answers that are
expressions, equation systems' solutions and numbers), and single-turn answers of chat and
instruction models that state their solution in ``<solution>`` tags (MINT, on MATH and GSM8K), each
graded by its repository's own evaluation; each source split into a tuning half and a held-out half.

The split is the one of ``bench/build_math_recall2.py`` and is made before any row is looked
at: a row goes to the held-out half when the first byte of ``sha256(row id)`` is odd
(``split_of``), the row id naming the source's own stable key (model, data set, run and the
question's index in the repository's data file). The halves are written to separate files,
``<source>.tune.jsonl.gz`` and ``<source>.heldout.jsonl.gz``. A verifier may be tuned on the
tuning halves only; the held-out halves measure it.

Each source is read from a git snapshot of its repository at a fixed commit (``git show
COMMIT:PATH``; nothing is downloaded or executed). Rows have the fields of
``bench/build_math_recall6.py`` (``id, source, split, licence, repo, commit, path, model,
reference, completion, grade, grade_from, family, mv, label, lang, question``). ``grade`` is
the source's own grade (``grade_from`` names it; the builder checks it against what the source
stores), ``mv`` plain Math-Verify's verdict at build time, ``label`` the grade except
the rows of ``LABEL_OVERRIDES`` (read by hand, each with its reason and when it was read).

A fixed number of correct and of incorrect rows is kept per source, the first by
``sha256(row id + "/pick")`` (``pick``): the choice reads only the ids and the source's grade.
Rows are left out on their form only (where the source's grade would not read an answer the
output states), never on whether the answer is right.

Usage (bare git directories ``OWNER+NAME/repo``, e.g. from ``git clone --mirror``)::

    .venv/bin/python bench/build_math_recall7.py --repos /work/.mirror [--out tests/data/math_recall7] [--check]
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from build_math_recall import ROW_KEYS, Repo  # noqa: E402
from build_math_recall2 import pick, split_corpus_main  # noqa: E402

# (repo, commit, licence, licence file in the repo)
MATHCODER = ("mathllm/MathCoder", "d6c91fbd8c02ad9f9669423f4ff331dc1605d126", "Apache-2.0", "LICENSE.txt")
MINT = ("xingyaoww/mint-bench", "3f7f12c10bf763be1e6dbdeb42feb57624121f61", "Apache-2.0", "LICENSE")

_MC = ("MathCoder-{} ({}), tool-integrated: the model writes prose and Python code, the harness runs each code block "
       "in a Jupyter kernel and feeds its output back, and the model ends with a text block stating the answer; "
       "graded by the repository's evaluation (src/evaluate.py)")
_MINT = ("chat and instruction models (GPT-3.5, Claude 2 / Instant, PaLM chat-bison, Llama-2/3 chat and instruct, "
         "Mixtral, Qwen1.5, DeepSeek, CodeLlama instruct, Eurus, AgentLM and others) on {}, in MINT's single-turn "
         "setting (one step, one proposal, no feedback): a prose or <thought> answer that states the solution in "
         "<solution> ... </solution>, graded by the repository's ReasoningTask")
# name -> (repo, commit, licence, licence file, what it is)
SOURCES = {
    "mathematics_mathcoder": (*MATHCODER, _MC.format("L-7B/13B/70B and CL-7B/13B", "Llama-2 and Code Llama "
                                                     "fine-tunes") + ", on 1000 DeepMind Mathematics questions "
                                                     "(answers are numbers, fractions, polynomials, booleans)"),
    "simuleq_mathcoder": (*MATHCODER, _MC.format("L-7B/13B/70B and CL-7B/13B/34B", "Llama-2 and Code Llama "
                                                 "fine-tunes") + ", on the 514 SimulEq word problems (systems of "
                                                 "linear equations; answers are one or more numbers)"),
    "gsm8k_mathcoder": (*MATHCODER, _MC.format("L-7B/13B/70B and CL-34B", "Llama-2 and Code Llama fine-tunes")
                        + ", on the 1319 GSM8K test questions (several runs of CL-34B and L-70B)"),
    "math_mint_single_turn": (*MINT, _MINT.format("the 100 MATH problems of MINT (references stored as numbers)")),
    "gsm8k_mint_single_turn": (*MINT, _MINT.format("the 48 GSM8K questions of MINT")),
}

# ------------------------------------------------------------------ MathCoder: tool-integrated solutions

# source -> (data set folder, run files: model folder -> run stamps); the runs the repository sorted into a
# ``-correct`` and a ``-wrong`` file (``evaluate.py --save_wrong``), leaving out the 20-question debug run
MC_RUNS = {
    "mathematics_mathcoder": ("mathematics", {
        "MathCoder-CL-13b": ("20230917-2308",), "MathCoder-CL-7b": ("20230917-2303",),
        "MathCoder-L-13b": ("20230917-2337",), "MathCoder-L-70b": ("20230918-2031",),
        "MathCoder-L-7b": ("20230917-2314",)}),
    "simuleq_mathcoder": ("simuleq", {
        "MathCoder-CL-13b": ("20230918-0021",), "MathCoder-CL-34b": ("20230915-1724",),
        "MathCoder-CL-7b": ("20230918-0002",), "MathCoder-L-13b": ("20230918-0033",),
        "MathCoder-L-70b": ("20230918-1804",), "MathCoder-L-7b": ("20230918-0012",)}),
    "gsm8k_mathcoder": ("GSM8K", {
        "MathCoder-CL-34b": ("20230913-1304", "20230916-1443", "20230916-1730"),
        "MathCoder-L-13b": ("20230916-1348",),
        "MathCoder-L-70b": ("20230918-2042", "20230919-0018", "20230919-0351"),
        "MathCoder-L-7b": ("20230916-1751",)}),
}
# the fences a code block and its execution output are written in (the model's own block tokens,
# ``<|code|>`` and ``<|execution|>``, are not kept by the repository)
MC_FENCE = {"code": "```python\n{}\n```", "execution": "```output\n{}\n```"}


def mc_question(item: dict) -> str:
    return item["messages"][1]["content"][0]["content"]


def mc_completion(item: dict) -> str | None:
    """The model's whole output: the blocks after the system and user turns, prose as it is, code
    and execution output fenced. None where the last block is not a non-empty text block: the
    repository grades the last block (``completion``), which is then code or its output (the run
    stopped at its block or length limit) rather than an answer the model stated."""
    blocks = item["debug_result"][2:]
    last = blocks[-1] if blocks else {}
    if last.get("role") != "text" or not last["content"].strip() or last["content"] != item["completion"]:
        return None
    return "\n\n".join(MC_FENCE[b["role"]].format(b["content"].strip("\n")) if b["role"] in MC_FENCE
                       else b["content"] for b in blocks)


def _mathcoder(name: str, repo: Repo) -> list[dict]:
    folder, runs = MC_RUNS[name]
    data = repo.jsonl(f"data/{folder}_test_post.jsonl")
    index = {mc_question(item): i for i, item in enumerate(data)}
    if len(index) != len(data):
        raise SystemExit(f"build_math_recall7: {folder}: repeated questions in the data file")
    rows = []
    for model, stamps in runs.items():
        for stamp in stamps:
            stem = f"outs/{model}/{folder}/{folder}_test_result-{stamp}"
            graded = [(item, grade, f"{stem}-{half}.jsonl") for grade, half in ((1, "correct"), (0, "wrong"))
                      for item in repo.jsonl(f"{stem}-{half}.jsonl")]
            seen = Counter(index.get(mc_question(item)) for item, _, _ in graded)
            # each run answers every question of the data file once, sorted into one of the two files
            if len(graded) != len(data) or set(seen) != set(range(len(data))) or max(seen.values()) != 1:
                raise SystemExit(f"build_math_recall7: {stem}: the correct and wrong files do not cover "
                                 f"the {len(data)} questions once each")
            for item, grade, path in graded:
                text = mc_completion(item)
                if text is None:
                    continue
                qid = index[mc_question(item)]
                rows.append({"id": f"{model}/{folder}/{stamp}/{qid}", "path": path, "model": model,
                             "reference": str(item["ground_truth"]["answer"]), "completion": text,
                             "grade": grade, "grade_from": "mathcoder_evaluate_correct_wrong_files",
                             "lang": "en", "question": mc_question(item)})
    return pick(rows, 60, 60)


def mathematics_mathcoder(repo: Repo) -> list[dict]:
    return _mathcoder("mathematics_mathcoder", repo)


def simuleq_mathcoder(repo: Repo) -> list[dict]:
    return _mathcoder("simuleq_mathcoder", repo)


def gsm8k_mathcoder(repo: Repo) -> list[dict]:
    return _mathcoder("gsm8k_mathcoder", repo)


# ------------------------------------------------------------------ MINT: single-turn answers in <solution> tags

MINT_RUN = "F=None/max1_p1+tool+cd"
# pretrained (not chat or instruction-tuned) models, prompted with the same few-shot transcript: left out
MINT_BASE = {"CodeLlama-7b-hf", "CodeLlama-13b-hf", "CodeLlama-34b-hf", "Llama-2-7b-hf", "Llama-2-13b-hf",
             "Llama-2-70b-hf", "Mistral-7B-v0.1", "lemur-70b-v1"}
MINT_SOLUTION = re.compile(r"<solution>(.*?)</solution>", re.S)


def mint_success(reference: object, solution: str) -> bool:
    """The repository's grade (``mint/tasks/reasoning.py``, ``ReasoningTask.success``): both
    lower-cased and stripped; when both read as floats, within 5% of the reference; otherwise
    the reference is a substring of the answer."""
    ref, answer = str(reference).strip().lower(), solution.lower().strip()
    try:
        return abs(float(ref) - float(answer)) <= 0.05 * abs(float(ref))
    except ValueError:
        return ref in answer


def mint_answer(item: dict) -> str | None:
    """The one solution the episode proposed, as the environment parses it (``<solution>(.*?)</solution>``,
    stripped), or None where the episode has other than one model turn, the turn opens other than one
    solution tag, or the environment counted other than one proposal. Reads the form only."""
    turns = [m["content"] for m in item["state"]["history"] if m["role"] == "assistant"]
    proposals = item["state"]["agent_action_count"]["propose_solution"]
    if len(turns) != 1 or turns[0].count("<solution>") != 1 or proposals != 1:
        return None
    blocks = MINT_SOLUTION.findall("\n" + turns[0] + "\n")
    return blocks[0].strip() if len(blocks) == 1 and blocks[0].strip() else None


def _mint(folder: str, repo: Repo) -> list[dict]:
    rows = []
    for path in repo.ls("data/outputs/"):
        parts = path.split("/")
        if not path.endswith(f"/{MINT_RUN}/reasoning/{folder}/results.jsonl") or parts[2] in MINT_BASE:
            continue
        model, items = parts[2], repo.jsonl(path)
        if len({item["task"]["task_id"] for item in items}) != len(items):
            raise SystemExit(f"build_math_recall7: {path}: repeated task ids")
        for item in items:
            answer = mint_answer(item)
            # the stored grade is the repository's rule: rows where a rerun of it disagrees are left out
            if answer is None or mint_success(item["task"]["reference"], answer) != item["state"]["success"]:
                continue
            turn = next(m["content"] for m in item["state"]["history"] if m["role"] == "assistant")
            rows.append({"id": f"{model}/max1_p1/{item['task']['task_id']}", "path": path, "model": model,
                         "reference": str(item["task"]["reference"]), "completion": turn,
                         "grade": int(item["state"]["success"]), "grade_from": "mint_reasoning_task_success",
                         "lang": "en", "question": item["task"]["prompt"]})
    return pick(rows, 60, 60)


def math_mint_single_turn(repo: Repo) -> list[dict]:
    return _mint("math", repo)


def gsm8k_mint_single_turn(repo: Repo) -> list[dict]:
    return _mint("gsm8k", repo)


BUILDERS = {name: globals()[name] for name in SOURCES}


# ------------------------------------------------------------------ build


# A tuning-half row whose grade a hand look found wrong, read while the rules were tuned on the tuning half: the
# solution is an arithmetic expression whose value is the reference, which MINT's rule (a number within 5 %, or
# the key as a substring) does not evaluate.
LABEL_OVERRIDES: dict[str, tuple[int, str]] = {
    "gsm8k_mint_single_turn/openchat-3.5-1210/max1_p1/35": (
        1, "graded 0, but the solution 26 * 5 * 1000 is the reference's value, 130000, unevaluated"),
}

# The same reading of held-out rows, made after the held-out half had been scored once with the rules frozen
# (the two incorrect rows that scoring paid; Math-Verify pays them too).
_AFTER = "; read after the held-out half was scored"
LABEL_OVERRIDES.update({
    "math_mint_single_turn/Meta-Llama-3-70B-Instruct/max1_p1/31": (
        1, "graded 0, but the solution y = (49 - 19) / 3 = 10 states the reference's value, 10.0" + _AFTER),
    "math_mint_single_turn/claude-2/max1_p1/23": (
        1, "graded 0, but the solution a = -2 states the reference's value, -2.0" + _AFTER),
})


def main(argv: list[str] | None = None) -> int:
    return split_corpus_main(argv, description=__doc__.split("\n\n")[0], sources=SOURCES, builders=BUILDERS,
                             overrides=LABEL_OVERRIDES, default_out=Path(__file__).resolve().parents[1] /
                             "tests/data/math_recall7", keys=(*ROW_KEYS, "lang", "question"), repo_class=Repo)


if __name__ == "__main__":
    sys.exit(main())
