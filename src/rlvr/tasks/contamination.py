"""Eval problems that also occur in the training data.

Two checks, on text normalised the same way (Unicode NFKC, case-folded, split into words;
an operator symbol (``+ - * / = < > ^ %``, any Unicode math symbol) stays, glued to the word
after it, so "What is 3-5?" (``what is 3 -5``) and "What is 3+5?" (``what is 3 +5``) differ
while an n-gram still counts words; other punctuation, underscores and whitespace only
separate):
- **exact**: the normalised eval text equals a normalised training text;
- **ngram**: the eval text shares a run of ``ngram`` consecutive words (13 by default, the
  window GPT-3's decontamination used) with some training text.

An index of every training n-gram is kept by hash; a hash hit is confirmed against the
training row's own words, so a hash collision never reports a false overlap.

What it does not do: catch paraphrases, renumbered variants ("3 apples" vs "4 apples"),
or overlaps shorter than ``ngram`` words; an eval text with fewer than ``ngram`` words is
checked for exact equality only. It reads strings, not files: ``rlvr data check``
(``rlvr.commands.data``) and ``rlvr train`` (``DatasetTask.contamination``) feed it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rlvr.errors import DataError

_TOKENS = re.compile(r"[^\W_]+|[^\w\s]", re.UNICODE)  # a run of letters/digits, or one other symbol
OPERATORS = frozenset("+-*/=<>^%")  # kept, with every Unicode math symbol (category Sm: − × ÷ ≤ ...)


def _is_operator(token: str) -> bool:
    return token in OPERATORS or (len(token) == 1 and unicodedata.category(token) == "Sm")


def normalize(text: str) -> str:
    """Case-folded words, single-spaced, each carrying the operators before it:
    ``"What is 2+2?"`` -> ``"what is 2 +2"`` (so an n-gram still counts words)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    out, pending = [], ""
    for t in _TOKENS.findall(text):
        if t[0].isalnum():
            out.append(pending + t)
            pending = ""
        elif _is_operator(t):
            pending += t
    if pending:
        out.append(pending)
    return " ".join(out)


def words(text: str) -> list[str]:
    return normalize(text).split()


def ngrams(ws: Sequence[str], n: int) -> Iterator[tuple[str, ...]]:
    for i in range(len(ws) - n + 1):
        yield tuple(ws[i:i + n])


@dataclass(frozen=True)
class Overlap:
    """One contaminated eval problem: which training row it overlaps and how."""

    eval_index: int
    train_index: int
    kind: str      # "exact" or "ngram"
    shared: str    # the shared normalised text (whole text for exact, the n-gram otherwise)


def _contains(ws: Sequence[str], gram: tuple[str, ...]) -> bool:
    return any(g == gram for g in ngrams(ws, len(gram)))


def find_overlaps(train_texts: Sequence[str], eval_texts: Sequence[str], ngram: int = 13) -> list[Overlap]:
    """At most one Overlap per contaminated eval text (exact preferred), in eval order."""
    if ngram < 1:
        raise ValueError(f"ngram must be >= 1, got {ngram}")
    exact: dict[str, int] = {}
    index: dict[int, int] = {}  # hash of an n-gram -> first training row holding it
    train_words = [words(t) for t in train_texts]
    for i, ws in enumerate(train_words):
        if ws:
            exact.setdefault(" ".join(ws), i)
        for gram in ngrams(ws, ngram):
            index.setdefault(hash(gram), i)
    found = []
    for j, text in enumerate(eval_texts):
        ws = words(text)
        key = " ".join(ws)
        if ws and key in exact:
            found.append(Overlap(j, exact[key], "exact", key))
            continue
        for gram in ngrams(ws, ngram):
            i = index.get(hash(gram))
            if i is not None and _contains(train_words[i], gram):
                found.append(Overlap(j, i, "ngram", " ".join(gram)))
                break
    return found


def check_task(task, task_cfg, log=print) -> None:
    """Refuse a dataset run whose eval problems also occur in its training data, unless
    ``task.allow_contamination`` (then warn). Tasks without a ``contamination`` method
    (the procedural ones, disjoint by construction) pass."""
    if not hasattr(task, "contamination"):
        return
    found = task.contamination(ngram=task_cfg.contamination_ngram)
    if not found:
        return
    first = task.eval_samples[found[0].eval_index]
    what = (f"{len(found)} of {len(task.eval_samples)} eval problems also occur in the training data "
            f"(first: {first.fields.get('source', first.id)}, {found[0].kind} match)")
    if task_cfg.allow_contamination:
        log(f"warning: {what}; training anyway (task.allow_contamination=true)")
        return
    if task_cfg.eval_path:
        column = (task_cfg.fields or {}).get("prompt", "prompt")
        how = (f"list them with `rlvr data check --train {task_cfg.train_path} --eval {task_cfg.eval_path} "
               f"--fields {column}` and remove them")
    else:
        how = f"the held-out rows were split off '{task_cfg.train_path}', so it holds duplicates: deduplicate it"
    raise DataError(f"{what}; {how}, or set task.allow_contamination=true")
