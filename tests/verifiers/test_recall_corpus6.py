"""The sixth split recall corpus ``tests/data/math_recall6`` (zero-shot boxed answers of GPT-4o-mini,
gpt-3.5-turbo, text-davinci-003 and gpt-4 to GSM8K and SVAMP, built by ``bench/build_math_recall6.py``),
checked as data:
every file parses and is the half its name says, each row is in the half its id hashes to, the
rows are the documented counts and carry their source, licence, commit, reference, language,
question and format family, and each repository's licence text lies beside them. No row is
scored here.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from collections import Counter
from pathlib import Path

from rlvr.commands.scoreboard import FAMILIES, format_family

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "data" / "math_recall6"
KEYS = ("id", "source", "split", "licence", "repo", "commit", "path", "model", "reference", "completion", "grade",
        "grade_from", "lang", "question", "family", "mv", "label")
LICENCE_TEXT = {"Apache-2.0": "Apache License"}
LANG = {"gsm8k_gpt4o_mini_re2": "en", "svamp_gpt4o_mini_re2": "en", "gsm8k_gpt35_davinci_re2": "en",
        "gsm8k_zero_shot_gpt": "en"}

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


def _files() -> dict[tuple[str, str], list[dict]]:
    out = {}
    for path in sorted(CORPUS.glob("*.jsonl.gz")):
        m = re.fullmatch(r"([a-z0-9_]+)\.(tune|heldout)\.jsonl\.gz", path.name)
        assert m, f"{path.name}: not <source>.<tune|heldout>.jsonl.gz"
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            out[(m.group(1), m.group(2))] = [json.loads(line) for line in fh]
    return out


FILES = _files()
ROWS = [r for rows in FILES.values() for r in rows]


def test_the_files_are_the_documented_halves_and_counts():
    assert set(FILES) == set(COUNTS)
    for key, rows in FILES.items():
        labels = Counter(r["label"] for r in rows)
        assert (len(rows), labels[1], labels[0]) == COUNTS[key], key


def test_each_row_is_in_the_half_its_id_hashes_to():
    for (source, half), rows in FILES.items():
        for row in rows:
            assert row["source"] == source and row["split"] == half, row["id"]
            odd = hashlib.sha256(row["id"].encode("utf-8")).digest()[0] % 2
            assert half == ("heldout" if odd else "tune"), row["id"]
    assert max(Counter(r["id"] for r in ROWS).values()) == 1


def test_every_row_is_complete_and_labelled():
    for row in ROWS:
        assert not [k for k in KEYS if k not in row], row["id"]
        assert row["licence"] in LICENCE_TEXT, row["id"]
        assert re.fullmatch(r"[0-9a-f]{40}", row["commit"]) and "/" in row["repo"], row["id"]
        assert isinstance(row["reference"], str) and row["reference"].strip(), row["id"]
        assert isinstance(row["completion"], str) and row["completion"].strip(), row["id"]
        assert isinstance(row["question"], str) and row["question"].strip(), row["id"]
        assert row["grade"] in (0, 1) and row["mv"] in (0, 1), row["id"]
        assert row["label"] == row["grade"] or row["label"] in (0, 1) and row.get("label_note"), row["id"]
        assert row["family"] in FAMILIES and row["family"] == format_family(row["completion"]), row["id"]
        assert row["id"].startswith(row["source"] + "/") and row["lang"] == LANG[row["source"]], row["id"]


def test_the_forms_each_source_was_kept_for():
    # the builder keeps a row on its form only: one box, holding one number (the one the source's grade reads)
    number = re.compile(r"[\-+]?\d*[\.,/]?\d+")
    for row in ROWS:
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


def test_each_source_has_both_labels_and_one_repository():
    for source in {s for s, _ in FILES}:
        rows = [r for r in ROWS if r["source"] == source]
        assert {r["label"] for r in rows} == {0, 1}, source
        assert len({(r["repo"], r["commit"], r["licence"]) for r in rows}) == 1, source


def test_licence_notices_and_readme():
    readme = (CORPUS / "README.md").read_text(encoding="utf-8")
    for repo, commit, licence in {(r["repo"], r["commit"], r["licence"]) for r in ROWS}:
        text = (CORPUS / "LICENCES" / (repo.replace("/", "+") + ".txt")).read_text(encoding="utf-8")
        assert text.startswith(f"{repo} at {commit}") and LICENCE_TEXT[licence] in text, repo
        assert repo in readme and commit[:7] in readme, repo
    for source in {s for s, _ in FILES}:
        assert f"`{source}`" in readme, source
    assert sum(p.stat().st_size for p in CORPUS.rglob("*") if p.is_file()) < 1_000_000
