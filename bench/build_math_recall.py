"""Build the recall corpus ``tests/data/math_recall/``: real, graded math outputs from public
repositories, one gzipped JSONL per source.

Each source is read from a git snapshot of its repository at a fixed commit (``git show
COMMIT:PATH``; nothing is downloaded at run time and nothing is executed: Python files are
read with ``ast``). Every row is::

    {"id", "source", "licence", "repo", "commit", "path", "model", "reference", "completion",
     "grade", "grade_from", "family", "mv", "label"[, "label_note"]}

``grade`` is the source's own grade (1 correct, 0 incorrect): the ``is_correct`` / ``score``
of an evaluation log (ToRA's outputs carry none: its harness's numeric ``math_equal`` is
recomputed, and the totals are checked against the ``.metrics`` files it wrote); 1 for a
dataset's reference solution and for a harness's few-shot exemplar (the harness shows it as
a correct answer). ``grade_from`` says which. ``reference``
is the source's answer field; for few-shot exemplars, which have none, it is the value the
exemplar itself states (its "The (final) answer is X" last line, else its last box, else ``#### X``:
``grade_from = "exemplar"``). ``family`` is the format family of the completion
(``rlvr.commands.scoreboard.format_family``). ``mv`` is plain Math-Verify's verdict (1/0,
``verify(parse(reference), parse(completion))``, default extraction) at build time.
``label`` is the label the scoreboard grades against: the source's grade, unless a hand look
found it wrong (``LABEL_OVERRIDES``, with the reason in ``label_note``).

Usage (the repositories are bare git directories, e.g. from a ``git clone --mirror``)::

    .venv/bin/python bench/build_math_recall.py --repos /work/.mirror [--out tests/data/math_recall] [--check]

``--repos DIR`` holds ``OWNER+NAME/repo`` git directories. The builder prints, per source,
the rows written, the grade counts and where Math-Verify disagrees with the source grade.
"""

from __future__ import annotations

import argparse
import ast
import gzip
import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rlvr.commands.scoreboard import format_family, math_verify_plain  # noqa: E402
from rlvr.types import Sample  # noqa: E402

# (repo, commit, licence, licence file in the repo: None = the MATH dataset's licence below)
GSM8K = ("openai/grade-school-math", "3101c7d5072418e28b9008a6636bde82a006892c", "MIT", "LICENSE")
QWEN = ("QwenLM/Qwen2.5-Math", "a45202bd16f1ec06f433442dc1152d0074773465", "MIT", "evaluation/LICENSE")
LIMO = ("GAIR-NLP/LIMO", "2284c6a0e6653aa8894bd12fdecc1212ba706c3a", "MIT", None)
LM_EVAL = ("EleutherAI/lm-evaluation-harness", "4e7e0d47f33bc71070c1d38394bafbb52b117163", "MIT", "LICENSE.md")
TORA = ("microsoft/ToRA", "213c1c995038c73fab10343814df7a42f990f026", "MIT", "LICENSE")
DEEPSEEK = ("deepseek-ai/DeepSeek-Math", "b8b0f8ce093d80bf8e9a641e44142f06d092c305", "MIT", "LICENSE-CODE")

# name -> (repo, commit, licence, licence file, what it is)
SOURCES = {
    "gsm8k_model_solutions": (*GSM8K, "GPT-3 6B/175B solutions (finetuning and verification) to the GSM8K test set, "
                                      "each graded is_correct by the authors"),
    "gsm8k_reference": (*GSM8K, "GSM8K test-set reference solutions, ending in #### N"),
    "qwen25_math_eval_log": (*QWEN, "an evaluation log of the Qwen2.5-Math harness: 8 sampled chain-of-thought "
                                    "responses per MATH problem, each with its score"),
    "tora_gsm8k_eval_log": (*TORA, "ToRA-70B and ToRA-Code-34B tool-integrated solutions (code, its output, then "
                                   "the answer) to the GSM8K test set, from the repository's evaluation outputs"),
    "math500_reference": (*LIMO, "MATH-500 reference solutions (the MATH dataset, Hendrycks et al., MIT), as "
                                 "vendored in LIMO's evaluation data"),
    "lm_eval_fewshot": (*LM_EVAL, "few-shot exemplars of lm-evaluation-harness math tasks (gsm8k*, minerva_math)"),
    "deepseek_math_fewshot": (*DEEPSEEK, "few-shot exemplars of DeepSeek-Math's evaluation (cot_*_shot.py)"),
    "qwen25_math_fewshot": (*QWEN, "few-shot exemplars of the Qwen2.5-Math harness (examples.py)"),
}

MATH_LICENCE = """MIT License

Copyright (c) 2021 Dan Hendrycks

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""


class Repo:
    def __init__(self, root: Path, name: str, commit: str) -> None:
        self.git_dir = root / name.replace("/", "+") / "repo"
        self.name, self.commit = name, commit
        if not self.git_dir.is_dir():
            raise SystemExit(f"build_math_recall: no git directory {self.git_dir} for {name}")

    def show(self, path: str) -> str:
        out = subprocess.run(["git", "--git-dir", str(self.git_dir), "show", f"{self.commit}:{path}"],
                             capture_output=True, check=False)
        if out.returncode:
            raise SystemExit(f"build_math_recall: {self.name}@{self.commit[:10]}:{path}: {out.stderr.decode().strip()}")
        return out.stdout.decode("utf-8")

    def ls(self, prefix: str) -> list[str]:
        out = subprocess.run(["git", "--git-dir", str(self.git_dir), "ls-tree", "-r", "--name-only", self.commit,
                              prefix], capture_output=True, text=True, check=True)
        return out.stdout.split()

    def jsonl(self, path: str) -> list[dict]:
        return [json.loads(line) for line in self.show(path).splitlines() if line.strip()]


# ------------------------------------------------------------------ the value an exemplar states


def last_boxed(text: str) -> str | None:
    """The content of the last ``\\boxed{...}`` / ``\\fbox{...}``, braces balanced."""
    start = max(text.rfind("\\boxed{"), text.rfind("\\fbox{"))
    if start < 0:
        return None
    i = text.index("{", start) + 1
    depth, j = 1, i
    while j < len(text) and depth:
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        j += 1
    return text[i:j - 1].strip() if depth == 0 else None


_STATED = re.compile(r"(?:final answer is|answer is)[:\s]*(.+?)(?:\.\s*(?:I hope it is correct\.?)?)?\s*$", re.I | re.S)


def stated_value(text: str) -> str | None:
    """The value an exemplar states by its last marker: "The (final) answer is X" on its last
    line, else its last box, else ``#### X``; ``$…$`` and a trailing period removed."""
    last_line = text.strip().splitlines()[-1] if text.strip() else ""
    m = _STATED.search(last_line)
    if not m:
        boxed = last_boxed(text)
        if boxed is not None:
            return boxed
        m = re.search(r"####\s*(.+?)\s*$", text, re.S) if "####" in text else None
    if not m:
        return None
    value = m.group(1).strip().rstrip(".").strip()
    if value.startswith("$") and value.endswith("$"):
        value = value.strip("$").strip()
    if value.count("{") != value.count("}"):  # a typo in the exemplar's last line: its box states the value
        return last_boxed(text) or value
    return value or None


# ------------------------------------------------------------------ sources


def gsm8k_model_solutions(repo: Repo) -> list[dict]:
    path = "grade_school_math/data/example_model_solutions.jsonl"
    rows = []
    for q, item in enumerate(repo.jsonl(path)):
        reference = item["ground_truth"].strip().splitlines()[-1].removeprefix("A:").strip()
        for model in ("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification"):
            rows.append({"id": f"q{q}-{model}", "path": path, "model": f"gpt3-{model}", "reference": reference,
                         "completion": item[model]["solution"], "grade": int(bool(item[model]["is_correct"])),
                         "grade_from": "is_correct"})
    return rows


def gsm8k_reference(repo: Repo) -> list[dict]:
    path = "grade_school_math/data/test.jsonl"
    return [{"id": f"test{i}", "path": path, "model": None, "reference": item["answer"].split("####")[-1].strip(),
             "completion": item["answer"], "grade": 1, "grade_from": "reference_solution"}
            for i, item in enumerate(repo.jsonl(path))]


def qwen25_math_eval_log(repo: Repo) -> list[dict]:
    path = "evaluation/data/eval_rm_maj_example/math_cot_100.jsonl"
    rows = []
    for item in repo.jsonl(path):
        for k, (response, score) in enumerate(zip(item["code"], item["score"])):
            rows.append({"id": f"idx{item['idx']}-{k}", "path": path, "model": "Qwen2.5-Math (eval_rm_maj_example)",
                         "reference": item["gt"], "completion": response, "grade": int(bool(score)),
                         "grade_from": "score"})
    return rows


def _tora_correct(pred: str, gt: str) -> bool:
    """ToRA's ``math_equal`` for numbers (``src/eval/grader.py``): both parse as floats (commas
    dropped) and the prediction is within 1e-4 (relative) of gt, gt/100 or gt*100."""
    from math import isclose

    try:
        p, g = float(str(pred).replace(",", "")), float(str(gt).replace(",", ""))
    except ValueError:
        return False
    return any(isclose(x, p, rel_tol=1e-4) for x in (g / 100, g, g * 100))


def tora_gsm8k_eval_log(repo: Repo) -> list[dict]:
    rows = []
    for model in ("tora-70b-v1.0", "tora-code-34b-v1.0"):
        stem = f"src/outputs/llm-agents/{model}/gsm8k/test_tora_-1_seed0_t0.0_s0_e1319"
        items = repo.jsonl(stem + ".jsonl")
        graded = [int(_tora_correct(item["pred"][0], item["gt"])) for item in items]
        reported = float(re.search(r"Mean score: \[([\d.]+)\]", repo.show(stem + ".metrics")).group(1))
        if round(100 * sum(graded) / len(graded), 1) != reported:  # the grade is the harness's own
            raise SystemExit(f"build_math_recall: {stem}: recomputed {sum(graded)}/{len(graded)}, metrics {reported}")
        rows += [{"id": f"{model}/idx{item['idx']}", "path": stem + ".jsonl", "model": model, "reference": item["gt"],
                  "completion": item["code"][0], "grade": grade, "grade_from": "math_equal"}
                 for item, grade in zip(items, graded)]
    return rows


def math500_reference(repo: Repo) -> list[dict]:
    path = "eval/data/math/test.jsonl"
    return [{"id": item.get("unique_id", f"test{i}"), "path": path, "model": None, "reference": item["answer"],
             "completion": item["solution"], "grade": 1, "grade_from": "reference_solution"}
            for i, item in enumerate(repo.jsonl(path))]


def _exemplar_rows(pairs: list[tuple[str, str, str]]) -> list[dict]:
    """(path, tag, solution) -> rows, deduplicated by solution, with the stated value as reference."""
    rows, seen = [], set()
    for path, tag, solution in pairs:
        solution = solution.strip()
        reference = stated_value(solution)
        if reference is None or solution in seen:
            continue
        seen.add(solution)
        rows.append({"id": f"{tag}-{len(rows)}", "path": path, "model": None, "reference": reference,
                     "completion": solution, "grade": 1, "grade_from": "exemplar"})
    return rows


def lm_eval_fewshot(repo: Repo) -> list[dict]:
    import yaml

    pairs = []
    for path in repo.ls("lm_eval/tasks/gsm8k") + repo.ls("lm_eval/tasks/gsm8k_platinum"):
        if not path.endswith(".yaml"):
            continue
        config = yaml.safe_load(repo.show(path)) or {}
        for sample in (config.get("fewshot_config") or {}).get("samples") or []:
            if isinstance(sample, dict) and isinstance(sample.get("target"), str):
                pairs.append((path, Path(path).stem, sample["target"]))
    path = "lm_eval/tasks/minerva_math/utils.py"
    for node in ast.walk(ast.parse(repo.show(path))):
        if isinstance(node, ast.FunctionDef) and node.name == "list_fewshot_samples":
            for sample in ast.literal_eval(node.body[-1].value):
                pairs.append((path, "minerva_math", sample["solution"]))
    return _exemplar_rows(pairs)


def _prompt_string(source: str) -> str:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "few_shot_prompt" for t in node.targets):
            value = node.value  # a string literal, or one with .strip() called on it
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "strip":
                return ast.literal_eval(value.func.value).strip()
            return ast.literal_eval(value)
    return ""


def deepseek_math_fewshot(repo: Repo) -> list[dict]:
    pairs = []
    files = {"cot_gsm_8_shot.py": (r"\nQ: ", r"\nA: "),
             "cot_minerva_math_4_shot.py": (r"Problem:\n", r"\n\nSolution:\n"),
             "cot_math_sat_4_shot.py": (r"Problem:\n", r"\nSolution:\n")}
    for name, (q_mark, a_mark) in files.items():
        path = f"evaluation/few_shot_prompts/{name}"
        prompt = "\n" + _prompt_string(repo.show(path))
        for block in re.split(q_mark, prompt)[1:]:
            parts = re.split(a_mark, block, maxsplit=1)
            if len(parts) == 2:
                pairs.append((path, name.removesuffix(".py"), parts[1]))
    return _exemplar_rows(pairs)


def qwen25_math_fewshot(repo: Repo) -> list[dict]:
    path = "evaluation/examples.py"
    pairs = []
    keep = ("gsm8k", "math", "minerva_math", "sat_math", "carp_en", "aqua", "mmlu_mathematics")
    for node in ast.walk(ast.parse(repo.show(path))):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript):
            key = ast.literal_eval(node.targets[0].slice)
            if key in keep:
                for _question, solution in ast.literal_eval(node.value):
                    pairs.append((path, key, solution))
    return _exemplar_rows(pairs)


BUILDERS = {name: globals()[name] for name in SOURCES}

# Rows whose source grade was checked by hand and found wrong: id -> (label, why). Every row
# keeps the source's ``grade``; ``label`` is the grade unless listed here.
LABEL_OVERRIDES = {
    "qwen25_math_eval_log/idx72-7": (1, "the log's grader refused \\boxed{10000} for the reference 10{,}000; "
                                        "the value is right"),
    **{f"qwen25_math_eval_log/{row}": (0, "after its box the response degenerates into thousands of characters "
                                          "of unrelated multilingual tokens: paying it rewards the degenerate "
                                          "text")
       for row in ("idx25-1", "idx45-5", "idx48-3")},
    "tora_gsm8k_eval_log/tora-code-34b-v1.0/idx191": (0, "0.05 pounds for 5 pounds: graded correct only by the "
                                                         "harness's percentage tolerance (gt/100)"),
}


# ------------------------------------------------------------------ build


ROW_KEYS = ("path", "model", "reference", "completion", "grade", "grade_from")


def finish(name: str, rows: list[dict], sources: dict = SOURCES, overrides: dict = LABEL_OVERRIDES,
           split: Callable[[str], str] | None = None, keys: tuple[str, ...] = ROW_KEYS) -> list[dict]:
    """The corpus rows of source ``name``: its fields, the format family, Math-Verify's verdict
    and the label (``overrides`` by id); with ``split``, the half each row id falls in."""
    repo, commit, licence, _, _ = sources[name]
    out = []
    for row in rows:
        mv = math_verify_plain(row["completion"], Sample(id=row["id"], prompt="", answer=row["reference"]))
        row_id = f"{name}/{row['id']}"
        half = {"split": split(row_id)} if split else {}
        out.append({"id": row_id, "source": name, **half, "licence": licence, "repo": repo, "commit": commit,
                    **{k: row[k] for k in keys}, "family": format_family(row["completion"]),
                    "mv": int(mv.status == "ok")})
        label, why = overrides.get(out[-1]["id"], (row["grade"], None))
        out[-1]["label"] = label
        if why:
            out[-1]["label_note"] = why
    return out


def write_licences(root: Path, out: Path) -> None:
    notices = out / "LICENCES"
    notices.mkdir(parents=True, exist_ok=True)
    done = set()
    for repo_name, commit, _, licence_path, _ in SOURCES.values():
        target = notices / (repo_name.replace("/", "+") + ".txt")
        if target.name in done:
            continue
        done.add(target.name)
        text = MATH_LICENCE if licence_path is None else Repo(root, repo_name, commit).show(licence_path)
        header = (f"{repo_name} at {commit}" + (f", {licence_path}" if licence_path else
                                                ": the MATH dataset's licence (github.com/hendrycks/math)"))
        target.write_text(header + "\n\n" + text)


def write_or_check(target: Path, rows: list[dict], check: bool) -> bool:
    """Write ``rows`` as gzipped JSONL to ``target``, or with ``check`` write nothing and say
    whether the file there differs from them (True when it does)."""
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    if check:
        return not target.exists() or gzip.decompress(target.read_bytes()).decode("utf-8") != text
    with gzip.open(target, "wt", encoding="utf-8", compresslevel=9) as fh:
        fh.write(text)
    return False


def conclude(args: argparse.Namespace, differ: list[str], write_licences: Callable[[Path, Path], None]) -> int:
    """The end of a build: with ``--check``, report the files that differ from a rebuild (exit
    1 when any does); else write the licence notices."""
    if args.check:
        print("the vendored files match a rebuild" if not differ else f"differ from a rebuild: {', '.join(differ)}")
        return 1 if differ else 0
    write_licences(args.repos, args.out)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repos", required=True, type=Path, help="directory of OWNER+NAME/repo git directories")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "tests/data/math_recall")
    parser.add_argument("--only", nargs="*", default=None, choices=sorted(SOURCES), help="build only these sources")
    parser.add_argument("--check", action="store_true",
                        help="write nothing: rebuild and compare with the files in --out (exit 1 when they differ)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    differ = []
    for name in args.only or SOURCES:
        repo_name, commit, *_ = SOURCES[name]
        rows = finish(name, BUILDERS[name](Repo(args.repos, repo_name, commit)))
        if write_or_check(args.out / f"{name}.jsonl.gz", rows, args.check):
            differ.append(name)
        grades = Counter(r["grade"] for r in rows)
        disagree = Counter((r["grade"], r["mv"]) for r in rows if r["grade"] != r["mv"])
        print(f"{name}: {len(rows)} rows, grade 1/0 {grades[1]}/{grades[0]}, "
              f"Math-Verify disagrees {sum(disagree.values())} (grade 1 -> mv 0: {disagree[(1, 0)]}, "
              f"grade 0 -> mv 1: {disagree[(0, 1)]}), families {dict(Counter(r['family'] for r in rows))}")
    return conclude(args, differ, write_licences)


if __name__ == "__main__":
    sys.exit(main())
