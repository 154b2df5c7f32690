"""Built-in procedural task for a real chat model: "What is 47 + 38?" with one worked example.

A problem is ``a op b``: addition of two ``digits``-digit numbers, subtraction of a smaller
one from a larger one, or a ``digits``-digit number times a one-digit number (2..9), the
operation drawn uniformly from ``kinds``. The prompt (the user message; the run's chat
template wraps it) shows one solved problem of the same operation and asks the next::

    Example:
    Question: What is 12 + 34?
    Answer: 12 + 34 = 46, so the answer is \\boxed{46}.

    Question: What is 47 + 38?
    Answer:

Why the example: a small instruct model told only "put the answer in \\boxed{}" mostly
ignores it or rambles, so a verifier that wants a marked final answer at the end of the
completion refuses even its correct sums. Shown once, SmolLM2-135M-Instruct copies the
form ("47 + 38 = 75, so the answer is \\boxed{75}.") and stops, so correctness is what
varies. Measured greedily (64 new tokens, math verifier): 0.315 on 200 held-out problems
of ``add`` alone (the ``smollm`` preset's), 0.255 on the default mix ``add,mul`` (add 0.26,
mul 0.25), 0.02 to 0.10 on ``sub`` (docs/data.md).
``reference_completion`` is the same form with the right value.

Splits are disjoint by construction, as in ``arithmetic``: the held-out set is drawn first
from its own stream and the training stream skips its problems; neither holds the
example problems. Problem ``k`` of the training stream is a pure function of (seed, k).

What it does not do: download anything, word problems (the measured base solved none in
the same form), or negative results.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rlvr.tasks.arithmetic import draw_held_out
from rlvr.types import Sample

KINDS = {"add": "+", "sub": "-", "mul": "*"}
# the worked example each operation shows (excluded from both splits)
EXAMPLES = {"add": (12, 34), "sub": (57, 23), "mul": (21, 3)}
EXAMPLE_PROMPT = ("Example:\nQuestion: What is {example}?\nAnswer: {worked}\n\n"
                  "Question: What is {expr}?\nAnswer:")
BARE_PROMPT = "What is {expr}? Put the final answer in \\boxed{{}}."


@dataclass(frozen=True)
class ChatArithmeticSpec:
    kinds: str = "add,mul"  # comma-separated subset of add, sub, mul
    digits: int = 2          # digits of the operands (the multiplier of ``mul`` is one digit)
    example: bool = True     # show one worked problem in the prompt
    worked: str = "direct"   # direct: 21 * 3 = 63; steps: 21 * 3 = 20 * 3 + 1 * 3 = 60 + 3 = 63
    seed: int = 1234

    def __post_init__(self) -> None:
        names = self.kind_list
        bad = [k for k in names if k not in KINDS]
        if not names or bad or len(set(names)) != len(names):
            raise ValueError(f"kinds must be a comma-separated list of distinct operations out of "
                             f"{', '.join(KINDS)}, got {self.kinds!r}")
        if not 1 <= self.digits <= 6:
            raise ValueError(f"digits must be in 1..6, got {self.digits}")
        if not isinstance(self.example, bool):
            raise ValueError(f"example must be true or false, got {self.example!r}")
        if self.worked not in ("direct", "steps"):
            raise ValueError(f"worked must be direct or steps, got {self.worked!r}")

    @property
    def kind_list(self) -> list[str]:
        return [k.strip() for k in str(self.kinds).split(",") if k.strip()]


def value_of(a: int, op: str, b: int) -> int:
    return a + b if op == "+" else a - b if op == "-" else a * b


def expression(a: int, op: str, b: int) -> str:
    return f"{a} {op} {b}"


def worked(a: int, op: str, b: int, style: str = "direct") -> str:
    """The answer in the form the prompt shows: ``47 + 38 = 85, so the answer is \\boxed{85}.``

    With ``style="steps"`` a multiplication of a several-digit number shows its partial
    products: ``47 * 6 = 40 * 6 + 7 * 6 = 240 + 42 = 282, so the answer is \\boxed{282}.``
    """
    v = value_of(a, op, b)
    work = f"{expression(a, op, b)} = {v}"
    if style == "steps" and op == "*" and a >= 10:
        parts = [int(d) * 10 ** i for i, d in enumerate(reversed(str(a))) if d != "0"][::-1]
        if len(parts) > 1:
            work = (f"{expression(a, op, b)} = {' + '.join(f'{p} * {b}' for p in parts)} = "
                    f"{' + '.join(str(p * b) for p in parts)} = {v}")
    return f"{work}, so the answer is \\boxed{{{v}}}."


def draw_problem(rng: random.Random, spec: ChatArithmeticSpec) -> tuple[str, int, int]:
    kind = rng.choice(spec.kind_list)
    lo, hi = (10 ** (spec.digits - 1) if spec.digits > 1 else 1), 10**spec.digits - 1
    a = rng.randint(lo, hi)
    if kind == "mul":
        return kind, a, rng.randint(2, 9)
    b = rng.randint(lo, hi)
    if kind == "sub":
        if a == b:
            b = lo if a != lo else hi
        a, b = max(a, b), min(a, b)
    return kind, a, b


def make_sample(kind: str, a: int, b: int, sid: str, spec: ChatArithmeticSpec) -> Sample:
    op = KINDS[kind]
    expr = expression(a, op, b)
    if spec.example:
        ea, eb = EXAMPLES[kind]
        prompt = EXAMPLE_PROMPT.format(example=expression(ea, op, eb), worked=worked(ea, op, eb, spec.worked),
                                        expr=expr)
    else:
        prompt = BARE_PROMPT.format(expr=expr)
    return Sample(id=sid, prompt=prompt, answer=str(value_of(a, op, b)),
                  fields={"expr": expr, "kind": kind, "question": f"What is {expr}?"})


class ChatArithmeticTask:
    """Held-out set, an indexable training stream, and reference answers."""

    name = "chat_arithmetic"

    def __init__(self, spec: ChatArithmeticSpec, eval_size: int = 200):
        if eval_size < 1:
            raise ValueError(f"eval_size must be >= 1, got {eval_size}")
        self.spec = spec
        self._examples = {expression(a, KINDS[k], b) for k, (a, b) in EXAMPLES.items()}

        def draw(rng):
            while True:
                kind, a, b = draw_problem(rng, spec)
                expr = expression(a, KINDS[kind], b)
                if expr not in self._examples:
                    break
            return expr, lambda sid: make_sample(kind, a, b, sid, spec)

        self.eval_samples, self._eval_exprs = draw_held_out(random.Random(f"chat-eval:{spec.seed}"), draw,
                                                            eval_size, "chat_arithmetic")

    def train_sample(self, k: int) -> Sample:
        """Training problem number ``k`` (never a held-out or an example problem)."""
        if k < 0:
            raise IndexError(f"stream position must be >= 0, got {k}")
        for attempt in range(1000):
            rng = random.Random(f"chat-train:{self.spec.seed}:{k}:{attempt}")
            kind, a, b = draw_problem(rng, self.spec)
            expr = expression(a, KINDS[kind], b)
            if expr not in self._eval_exprs and expr not in self._examples:
                return make_sample(kind, a, b, f"train-{k}", self.spec)
        raise RuntimeError("could not draw a training problem outside the held-out set; the problem space is too small")

    def train_batch(self, start: int, n: int) -> list[Sample]:
        return [self.train_sample(k) for k in range(start, start + n)]

    def reference_completion(self, sample: Sample) -> str:
        """The right answer in the form the example shows."""
        kind = sample.fields["kind"]
        a, b = (int(x) for x in sample.fields["expr"].split(f" {KINDS[kind]} "))
        return worked(a, KINDS[kind], b, self.spec.worked)

    def longest_reference(self) -> str:
        hi = 10**self.spec.digits - 1
        return max((worked(hi, KINDS[k], 9 if k == "mul" else hi - (k == "sub"), self.spec.worked)
                    for k in self.spec.kind_list), key=len)

    def check_rollout(self, cfg, tokenizer) -> None:
        """Refuse a token budget too short for the longest reference answer plus the turn end."""
        from rlvr.errors import ConfigError

        need = len(tokenizer(self.longest_reference(), add_special_tokens=False)["input_ids"]) + 1
        budget = min(cfg.rollout.max_new_tokens,
                     getattr(cfg.eval, "max_new_tokens", None) or cfg.rollout.max_new_tokens)
        if budget < need:
            raise ConfigError(f"task.name=chat_arithmetic with {self.spec.digits}-digit operands needs "
                              f"rollout.max_new_tokens (and eval.max_new_tokens) >= {need}")
