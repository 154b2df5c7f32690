"""Prompts from data files: JSONL, Parquet, or a Hugging Face ``datasets`` directory.

``DatasetTask.from_config(task_cfg, verifier=...)`` reads the training file (and the
held-out file, or splits ``eval_size`` rows off the training file), maps columns to rlvr
fields through ``task.fields`` (rlvr field -> column), checks every row, and exposes the
same interface as the built-in arithmetic task: ``eval_samples`` and an indexable,
resumable training stream ``train_sample(k)`` / ``train_batch(start, n)``. Position k is
row ``perm_e[k % N]`` of epoch ``e = k // N``, where ``perm_e`` is a shuffle seeded by
(task seed, e): a pure function of k, so a resumed run continues where it stopped.

Rows are checked before training starts. The first bad row stops the run with a
one-line ``DataError`` naming the file and line (JSONL) or row (Parquet, datasets):
``data/train.jsonl line 17: missing field 'answer' (mapped from column 'solution')``.
What a row needs depends on its verifier (the row's ``verifier`` column, else the run's
``reward.verifier``): math/exact need ``answer``, code needs one of ``tests`` /
``io_tests`` / ``hidden_tests`` / ``call_tests`` (``call_tests`` with ``entry_point``, which
also names HumanEval's ``check`` target), proof needs ``statement``.

Parquet needs pyarrow and a ``datasets`` directory needs ``datasets`` (the optional extra
``rlvr[data]``); both are imported only when such a file is read.

What it does not do: stream files larger than memory (rows are read eagerly, which is
what makes the up-front check and the indexable stream possible), download anything, or
decide correctness (that is the verifier's job). ``answer_extract`` only cuts the
reference out of a worked solution (GSM8K's ``#### 42``, MATH's last ``\\boxed{}``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rlvr.errors import ConfigError, DataError, UserError
from rlvr.types import Sample

RLVR_FIELDS = ("prompt", "answer", "tests", "io_tests", "hidden_tests", "call_tests", "entry_point", "statement",
               "verifier", "id")
EXTRA_FIELDS = ("tests", "io_tests", "hidden_tests", "call_tests", "entry_point", "statement")  # go into Sample.fields
ANSWER_EXTRACT = ("none", "gsm8k", "boxed")
MISSING = object()
GYM_ROWS = ": rows from rlvr.verifiers.gym.gym_samples carry it, or train with task.name=gym task.gym_dataset=NAME"


# ---------------------------------------------------------------- reading files
@dataclass(frozen=True)
class Row:
    """One raw row and where it came from (``data/train.jsonl line 17``)."""

    where: str
    data: dict


def _need(module: str, what: str):
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise DataError(f"reading {what} needs the '{module.split('.')[0]}' package: "
                        f"pip install 'rlvr[data]' (pyarrow and datasets)") from None


def read_jsonl(path: Path) -> Iterator[Row]:
    with open(path, "rb") as f:
        for n, raw in enumerate(f, start=1):
            where = f"{path} line {n}"
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise DataError(f"{where}: not UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1}); "
                                f"re-save the file as UTF-8, e.g. iconv -f latin1 -t utf-8") from None
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(f"{where}: invalid JSON: {exc.msg} (column {exc.colno})") from None
            if not isinstance(data, dict):
                raise DataError(f"{where}: expected a JSON object, got {type(data).__name__}")
            yield Row(where, data)


def read_parquet(path: Path) -> Iterator[Row]:
    pq = _need("pyarrow.parquet", f"Parquet file '{path}'")
    for n, data in enumerate(pq.read_table(path).to_pylist(), start=1):
        yield Row(f"{path} row {n}", data)


def read_datasets_dir(path: Path) -> Iterator[Row]:
    datasets = _need("datasets", f"the datasets directory '{path}'")
    ds = datasets.load_from_disk(str(path))
    if isinstance(ds, datasets.DatasetDict):
        splits = ", ".join(ds.keys())
        first = next(iter(ds.keys()), "train")
        raise DataError(f"'{path}' holds a DatasetDict with splits {splits}; point the path at one split's "
                        f"folder, e.g. {path / first}")
    for n, data in enumerate(ds, start=1):
        yield Row(f"{path} row {n}", dict(data))


def rows_from_memory(data: Any, what: str) -> list[Row]:
    """Rows of an in-memory dataset: a list of dicts or a ``datasets.Dataset`` (``row N``)."""
    if isinstance(data, (str, Path)):
        return read_rows(data)
    if type(data).__name__ == "DatasetDict":
        raise DataError(f"{what} is a DatasetDict with splits {', '.join(data.keys())}; pass one split, "
                        f"e.g. ds[{next(iter(data.keys()), 'train')!r}]")
    try:
        items = list(data)
    except TypeError:
        raise DataError(f"{what} must be a list of dicts, a datasets.Dataset or a file path, "
                        f"got {type(data).__name__}") from None
    rows = []
    for n, item in enumerate(items, start=1):
        if isinstance(item, Sample):
            item = sample_row(item)
        if not isinstance(item, dict):
            raise DataError(f"{what} row {n}: expected a dict or an rlvr Sample, got {type(item).__name__}")
        rows.append(Row(f"{what} row {n}", dict(item)))
    if not rows:
        raise DataError(f"{what} holds no rows")
    return rows


def sample_row(sample: Sample) -> dict:
    """A Sample (``gym_samples`` returns them) as a row: its fields as columns, its prompt as
    the prompt column (the ``question`` field is how rlvr records that, not a column)."""
    row = {k: v for k, v in sample.fields.items() if k not in ("question", "source", "columns")}
    row.update(id=sample.id, prompt=sample.prompt)
    if sample.answer is not None:
        row["answer"] = sample.answer
    if sample.verifier is not None:
        row["verifier"] = sample.verifier
    return row


def write_jsonl(rows: list[Row], path: Path) -> None:
    """Rows to a JSONL file (how a run records an in-memory dataset); a value JSON cannot hold
    is refused naming its row and column."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        for row in rows:
            try:
                f.write(json.dumps(row.data, ensure_ascii=False) + "\n")
            except (TypeError, ValueError) as exc:
                raise DataError(f"{row.where}: cannot be recorded as JSON ({exc})") from None
    tmp.replace(path)


def read_rows(path: str | Path) -> list[Row]:
    """Every row of a JSONL file, a Parquet file, or a ``datasets`` directory."""
    p = Path(path)
    if p.is_dir():
        rows = list(read_datasets_dir(p))
    elif not p.is_file():
        raise DataError(f"data file '{p}' not found")
    elif p.suffix == ".parquet":
        rows = list(read_parquet(p))
    elif p.suffix in (".jsonl", ".json", ".ndjson"):
        rows = list(read_jsonl(p))
    else:
        raise DataError(f"'{p}': unknown data format (suffix {p.suffix or 'none'}); use .jsonl, .parquet "
                        f"or a directory written by datasets' save_to_disk")
    if not rows:
        raise DataError(f"'{p}' holds no rows")
    return rows


# ---------------------------------------------------------------- field checks
def _is_str_list(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _is_io_list(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) and {"input", "output"} <= set(x) for x in v)


# rlvr field -> (check, what the check wants), for the message of a wrong type
TYPE_CHECKS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "prompt": (lambda v: isinstance(v, str) and bool(v.strip()), "a non-empty string"),
    "answer": (lambda v: isinstance(v, (str, int, float)) and not isinstance(v, bool), "a string or a number"),
    "tests": (lambda v: isinstance(v, str) or _is_str_list(v) or _is_io_list(v),
              "a string, a list of strings or a list of {input, output} objects"),
    "io_tests": (_is_io_list, "a non-empty list of {input, output} objects"),
    "hidden_tests": (lambda v: isinstance(v, str) or _is_str_list(v) or _is_io_list(v),
                     "a string, a list of strings or a list of {input, output} objects"),
    "call_tests": (lambda v: isinstance(v, list) and bool(v)
                   and all(isinstance(x, dict) and {"input", "output"} <= set(x) and isinstance(x["input"], list)
                           for x in v),
                   "a non-empty list of {input: [args...], output} objects"),
    "entry_point": (lambda v: isinstance(v, str) and bool(v.strip()), "a non-empty string (a name or Class().method)"),
    "statement": (lambda v: isinstance(v, str) and bool(v.strip()), "a non-empty string"),
    "verifier": (lambda v: isinstance(v, (str, dict)), "a verifier name or spec object"),
    "id": (lambda v: isinstance(v, (str, int)) and not isinstance(v, bool), "a string or an integer"),
}


def resolve_mapping(fields: dict | None) -> dict[str, str]:
    """rlvr field -> column, identity for every field not mapped."""
    fields = dict(fields or {})
    bad = sorted(set(fields) - set(RLVR_FIELDS))
    if bad:
        raise ConfigError(f"task.fields has unknown rlvr field(s) {', '.join(map(repr, bad))}; "
                          f"valid: {', '.join(RLVR_FIELDS)}")
    for k, v in fields.items():
        if not isinstance(v, str) or not v:
            raise ConfigError(f"task.fields.{k} must be a column name, got {v!r}")
    return {f: fields.get(f, f) for f in RLVR_FIELDS}


def _column_note(field: str, mapping: dict[str, str]) -> str:
    col = mapping[field]
    return f"(mapped from column {col!r})" if col != field else f"(column {col!r})"


def _value(row: Row, field: str, mapping: dict[str, str]) -> Any:
    """The row's value of an rlvr field; MISSING when absent or null."""
    v = row.data.get(mapping[field], MISSING)
    return MISSING if v is None else v


def extract_answer(text: str, how: str, where: str) -> str:
    """The reference answer out of a worked solution (``answer_extract``)."""
    if how == "none":
        return text.strip()
    if how == "gsm8k":
        if "####" not in text:
            raise DataError(f"{where}: answer has no '####' marker (task.answer_extract=gsm8k)")
        return text.rsplit("####", 1)[1].strip().replace(",", "")
    if how == "boxed":
        from rlvr.verifiers.extract import boxed_spans

        spans = boxed_spans(text)
        if not spans:
            raise DataError(f"{where}: answer has no \\boxed{{...}} (task.answer_extract=boxed)")
        return spans[-1][2]
    raise ConfigError(f"unknown task.answer_extract {how!r}; valid: {', '.join(ANSWER_EXTRACT)}")


def _required_groups(verifier: Any) -> tuple[tuple[str, ...], ...]:
    """Field groups a verifier needs (a row needs one field of each group); () when unknown."""
    if isinstance(verifier, str) and verifier.strip().startswith("{"):
        try:
            verifier = json.loads(verifier)
        except json.JSONDecodeError:
            return ()
    if isinstance(verifier, dict):
        verifier = verifier.get("name")  # {"name": ..., "options": ...}; composites: unknown
    if not isinstance(verifier, str) or verifier.strip().startswith("{"):
        return ()
    from rlvr.verifiers.registry import get_verifier

    return get_verifier(verifier).requires


def _check_verifier(v: Any, where: str) -> None:
    from rlvr.verifiers.composite import as_verifier

    try:
        as_verifier(v)
    except UserError as exc:  # an unknown name or a malformed spec: one line naming the row
        raise DataError(f"{where}: bad 'verifier' value: {exc}") from None


# ---------------------------------------------------------------- rows -> samples
@dataclass(frozen=True)
class RowSpec:
    """How rows become samples: the field mapping and the per-dataset options."""

    mapping: dict
    verifier: str | None = None       # the run's reward.verifier (a row's own overrides it)
    answer_extract: str = "none"
    prompt_template: str = "{prompt}"


TEMPLATE_FIELDS = ("prompt", "answer", "tests", "io_tests", "statement", "id")  # never hidden_tests


def check_template(template: str) -> None:
    """Refuse unknown placeholders (typos) and hidden tests before any row is read."""
    import string

    try:
        names = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
    except ValueError as exc:
        raise ConfigError(f"task.prompt_template is not a valid format string ({exc}); "
                          f"write literal braces as {{{{ }}}}") from None
    if "hidden_tests" in names:
        raise ConfigError("task.prompt_template must not show {hidden_tests}: hidden tests never enter the prompt")
    bad = sorted(names - set(TEMPLATE_FIELDS))
    if bad:
        raise ConfigError(f"task.prompt_template uses {{{bad[0]}}}; valid: {', '.join(TEMPLATE_FIELDS)}")


def render_template(template: str, values: dict) -> str:
    """The template with each field's value; a list shows one item per line, a field the row
    lacks shows as empty (mixed datasets share one template)."""
    shown = {k: "" for k in TEMPLATE_FIELDS}
    for k, v in values.items():
        if k in shown and v is not MISSING:
            shown[k] = "\n".join(map(str, v)) if isinstance(v, list) else str(v)
    return template.format(**shown)


def row_to_sample(row: Row, spec: RowSpec, index: int, split: str) -> Sample:
    """Check one row and build its Sample; the first problem raises a one-line DataError."""
    m = spec.mapping
    values = {f: _value(row, f, m) for f in RLVR_FIELDS}
    for f, v in values.items():
        if v is not MISSING and not TYPE_CHECKS[f][0](v):
            raise DataError(f"{row.where}: field '{f}' {_column_note(f, m)} must be {TYPE_CHECKS[f][1]}, "
                            f"got {type(v).__name__} {json.dumps(v, default=str)[:60]}")
    if values["prompt"] is MISSING:
        raise DataError(f"{row.where}: missing field 'prompt' {_column_note('prompt', m)}")
    verifier = values["verifier"] if values["verifier"] is not MISSING else spec.verifier
    if values["verifier"] is not MISSING:
        _check_verifier(verifier, row.where)
    groups = _required_groups(verifier)
    for f in {f for group in groups for f in group} - set(values):  # a verifier's own field (gym_entry): as named
        v = row.data.get(f)
        values[f] = MISSING if v is None else v
    for group in groups:
        if all(values[f] is MISSING for f in group):
            f = group[0]
            alt = f" (or {', '.join(repr(g) for g in group[1:])})" if len(group) > 1 else ""
            note = _column_note(f, m) if f in m else f"(column {f!r}{GYM_ROWS if f.startswith('gym_') else ''})"
            raise DataError(f"{row.where}: missing field '{f}' {note}{alt}, needed by verifier '{verifier}'")
    if values["call_tests"] is not MISSING and values["entry_point"] is MISSING:
        raise DataError(f"{row.where}: field 'call_tests' {_column_note('call_tests', m)} needs field 'entry_point' "
                        f"{_column_note('entry_point', m)}: the function the calls go to")
    answer = None
    if values["answer"] is not MISSING:
        answer = extract_answer(str(values["answer"]), spec.answer_extract, row.where)
        if not answer:
            after = "" if spec.answer_extract == "none" else f" after task.answer_extract={spec.answer_extract}"
            raise DataError(f"{row.where}: field 'answer' {_column_note('answer', m)} is empty{after}")
    prompt = render_template(spec.prompt_template, values)
    fields = {f: v for f, v in values.items() if f not in RLVR_FIELDS and v is not MISSING}
    fields.update({f: values[f] for f in EXTRA_FIELDS if values[f] is not MISSING})
    fields["source"] = row.where
    fields["question"] = values["prompt"]
    fields["columns"] = row.data  # every column as read: a TRL-style reward function receives them by name
    sid = str(values["id"]) if values["id"] is not MISSING else f"{split}-{index}"
    row_verifier = values["verifier"] if values["verifier"] is not MISSING else None
    if isinstance(row_verifier, dict):
        row_verifier = json.dumps(row_verifier, sort_keys=True)
    return Sample(id=sid, prompt=prompt, answer=answer, fields=fields, verifier=row_verifier)


def load_samples(path: str | Path, spec: RowSpec, split: str) -> list[Sample]:
    return [row_to_sample(row, spec, i, split) for i, row in enumerate(read_rows(path))]


# ---------------------------------------------------------------- the task
class DatasetTask:
    """Held-out samples plus an indexable, epoch-shuffled training stream."""

    name = "dataset"

    def __init__(self, train: list[Sample], eval_samples: list[Sample], seed: int = 1234):
        if not train:
            raise DataError("the training set is empty")
        self.train = train
        self.eval_samples = eval_samples
        self.seed = seed
        self._perm_epoch = -1
        self._perm: list[int] = []

    @classmethod
    def from_config(cls, task_cfg, verifier: str | None = None) -> DatasetTask:
        t = task_cfg
        if not t.train_path:
            raise ConfigError("task.name=dataset needs task.train_path=FILE (JSONL, Parquet or a datasets directory)")
        template = t.prompt_template or "{prompt}"
        check_template(template)
        spec = RowSpec(resolve_mapping(t.fields), verifier, t.answer_extract, template)
        train = load_samples(t.train_path, spec, "row")
        if t.eval_path:
            return cls(train, load_samples(t.eval_path, spec, "eval"), seed=t.seed)
        if len(train) <= t.eval_size:
            raise DataError(f"'{t.train_path}' has {len(train)} rows, too few to split off task.eval_size="
                            f"{t.eval_size} for evaluation; lower task.eval_size or set task.eval_path")
        order = list(range(len(train)))
        random.Random(f"split:{t.seed}").shuffle(order)
        held = set(order[: t.eval_size])
        return cls([s for i, s in enumerate(train) if i not in held], [train[i] for i in sorted(held)], seed=t.seed)

    def _row_of(self, k: int) -> int:
        epoch, i = divmod(k, len(self.train))
        if epoch != self._perm_epoch:
            self._perm = list(range(len(self.train)))
            random.Random(f"epoch:{self.seed}:{epoch}").shuffle(self._perm)
            self._perm_epoch = epoch
        return self._perm[i]

    def train_sample(self, k: int) -> Sample:
        """Training sample at stream position ``k`` (a pure function of seed and k)."""
        if k < 0:
            raise IndexError(f"stream position must be >= 0, got {k}")
        return self.train[self._row_of(k)]

    def train_batch(self, start: int, n: int) -> list[Sample]:
        return [self.train_sample(k) for k in range(start, start + n)]

    def contamination(self, ngram: int = 13):
        """Eval problems whose question also occurs in the training data (see contamination.py)."""
        from rlvr.tasks.contamination import find_overlaps

        train = [s.fields["question"] for s in self.train]
        return find_overlaps(train, [s.fields["question"] for s in self.eval_samples], ngram=ngram)
