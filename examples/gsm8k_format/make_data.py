"""Write train.jsonl and test.jsonl in GSM8K's layout: a `question` column and an `answer`
column holding a worked solution that ends in "#### <number>".

The problems are generated here (sums and differences of small numbers, worded the way the
smoke preset's tiny model was warm-started on), so the files carry the project's licence
(Apache-2.0) and the example trains in seconds on a CPU. GSM8K itself (github.com/openai/
grade-school-math, MIT licence) has the same two columns and drops in unchanged:
`task.train_path=/data/gsm8k/train.jsonl task.eval_path=/data/gsm8k/test.jsonl`.

    python make_data.py            # writes train.jsonl (250 rows) and test.jsonl (50 rows) here
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path


def rows(seed: int = 0) -> list[dict]:
    triples = random.Random(seed).sample(list(itertools.product(range(10), repeat=3)), 300)
    out = []
    for a, b, c in triples:
        total, result = a + b, a + b - c
        steps = f"First {a} + {b} = <<{a}+{b}={total}>>{total}.\nThen {total} - {c} = <<{total}-{c}={result}>>{result}."
        out.append({"question": f"{a}+{b}-{c}=? Use <think> and <answer>.\n",
                    "answer": f"{steps}\n#### {result}"})
    return out


def main(folder: Path) -> None:
    data = rows()
    for name, part in (("test.jsonl", data[:50]), ("train.jsonl", data[50:])):
        (folder / name).write_text("".join(json.dumps(row) + "\n" for row in part), encoding="utf-8")
    print(f"wrote {folder / 'train.jsonl'} (250 rows) and {folder / 'test.jsonl'} (50 rows)")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent)
