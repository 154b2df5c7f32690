"""Built-in procedural task: integer arithmetic with a short scratchpad.

A problem is ``a op b op c ...`` with ``digits``-digit operands drawn from ``operators``.
The prompt asks for reasoning in ``<think>…</think>`` and the result in
``<answer>…</answer>``; the reference solution (used by the supervised warm-start only)
reduces multiplications first, then adds/subtracts left to right, one step per
space-separated ``x op y=z`` item. With ``think_rate < 1`` a hash-chosen share of the
warm-start references skips the scratchpad (``<think></think><answer>v</answer>``), so the
base learns two habits and RL can find the one that pays. ``late_think_rate`` is the share
used instead in the warm-start's last steps (the demo: most problems worked out, then most
answered at once, so the base can work problems out but has the habit of not doing it).

Splits are disjoint by construction: the held-out set is drawn first from its own
stream, and the training stream skips any problem whose expression is in it. Problem
``k`` of the training stream is a pure function of (seed, k), so a resumed run continues
at the exact data position it stopped at.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rlvr.types import Sample

PROMPT = "{expr}=? Use <think> and <answer>.\n"


@dataclass(frozen=True)
class ArithmeticSpec:
    terms_min: int = 3
    terms_max: int = 4
    digits: int = 1
    operators: str = "+-"
    seed: int = 1234
    think_rate: float = 1.0
    late_think_rate: float | None = None

    def __post_init__(self) -> None:
        if not 2 <= self.terms_min <= self.terms_max:
            raise ValueError(f"need 2 <= terms_min <= terms_max, got {self.terms_min}, {self.terms_max}")
        if self.digits < 1:
            raise ValueError(f"digits must be >= 1, got {self.digits}")
        bad = set(self.operators) - set("+-*")
        if not self.operators or bad:
            raise ValueError(f"operators must be a non-empty subset of '+-*', got {self.operators!r}")
        if not 0.0 <= self.think_rate <= 1.0:
            raise ValueError(f"think_rate must be in [0, 1], got {self.think_rate}")
        if self.late_think_rate is not None and not 0.0 <= self.late_think_rate <= 1.0:
            raise ValueError(f"late_think_rate must be in [0, 1] or None, got {self.late_think_rate}")


def _draw(rng: random.Random, spec: ArithmeticSpec) -> tuple[list[int], list[str]]:
    n = rng.randint(spec.terms_min, spec.terms_max)
    hi = 10**spec.digits - 1
    nums = [rng.randint(0, hi) for _ in range(n)]
    ops = [rng.choice(spec.operators) for _ in range(n - 1)]
    return nums, ops


def expression(nums: list[int], ops: list[str]) -> str:
    out = str(nums[0])
    for op, x in zip(ops, nums[1:]):
        out += f"{op}{x}"
    return out


def solve(nums: list[int], ops: list[str]) -> tuple[int, list[str]]:
    """Value of the expression (usual precedence) and the scratchpad steps."""
    nums, ops, steps = list(nums), list(ops), []
    while "*" in ops:
        i = ops.index("*")
        r = nums[i] * nums[i + 1]
        steps.append(f"{nums[i]}*{nums[i + 1]}={r}")
        nums[i : i + 2], ops[i : i + 1] = [r], []
    acc = nums[0]
    for op, x in zip(ops, nums[1:]):
        r = acc + x if op == "+" else acc - x
        steps.append(f"{acc}{op}{x}={r}")
        acc = r
    return acc, steps


def make_sample(nums: list[int], ops: list[str], sid: str) -> Sample:
    expr = expression(nums, ops)
    value, _ = solve(nums, ops)
    return Sample(id=sid, prompt=PROMPT.format(expr=expr), answer=str(value), fields={"expr": expr})


def reference_completion(sample: Sample) -> str:
    """The scratchpad solution the warm-start imitates (without the EOS token)."""
    expr = sample.fields["expr"]
    nums, ops = parse_expression(expr)
    value, steps = solve(nums, ops)
    return f"<think>{' '.join(steps)}</think><answer>{value}</answer>"


def parse_expression(expr: str) -> tuple[list[int], list[str]]:
    nums, ops, cur = [], [], ""
    for ch in expr:
        if ch.isdigit():
            cur += ch
        else:
            nums.append(int(cur))
            ops.append(ch)
            cur = ""
    nums.append(int(cur))
    return nums, ops


def in_hashed_share(tag: str, seed: int, expr: str, rate: float) -> bool:
    """Whether problem ``expr`` falls in a ``rate`` share chosen by a hash of the problem: the
    choice looks random to a model but never changes (used for warm-start reference styles)."""
    return random.Random(f"{tag}:{seed}:{expr}").random() < rate


def draw_held_out(rng: random.Random, draw, eval_size: int, what: str) -> tuple[list[Sample], set[str]]:
    """``eval_size`` distinct held-out samples and their expressions (the training stream skips them).

    ``draw(rng)`` returns ``(expression, build)`` with ``build(sample_id) -> Sample``.
    """
    samples: list[Sample] = []
    seen: set[str] = set()
    budget = eval_size * 50
    while len(samples) < eval_size and budget:
        budget -= 1
        expr, build = draw(rng)
        if expr not in seen:
            seen.add(expr)
            samples.append(build(f"eval-{len(samples)}"))
    if len(samples) < eval_size:
        raise ValueError(f"the {what} problem space is too small for eval_size={eval_size}; raise terms or digits")
    return samples, seen


class ArithmeticTask:
    """Held-out set plus an indexable, resumable training stream."""

    name = "arithmetic"

    def __init__(self, spec: ArithmeticSpec, eval_size: int = 200):
        self.spec = spec
        def draw(rng):
            nums, ops = _draw(rng, spec)
            return expression(nums, ops), lambda sid: make_sample(nums, ops, sid)

        self.eval_samples, self._eval_exprs = draw_held_out(random.Random(f"eval:{spec.seed}"), draw, eval_size,
                                                            "arithmetic")

    def train_sample(self, k: int) -> Sample:
        """Training problem number ``k`` (never one of the held-out problems)."""
        for attempt in range(1000):
            rng = random.Random(f"train:{self.spec.seed}:{k}:{attempt}")
            nums, ops = _draw(rng, self.spec)
            if expression(nums, ops) not in self._eval_exprs:
                return make_sample(nums, ops, f"train-{k}")
        raise RuntimeError("could not draw a training problem outside the held-out set; the problem space is too small")

    def train_batch(self, start: int, n: int) -> list[Sample]:
        return [self.train_sample(k) for k in range(start, start + n)]

    # ------------------------------------------------------------ warm-start references
    def works_it_out(self, sample: Sample, late: bool = False) -> bool:
        """Whether the warm-start reference of this problem shows the scratchpad (a hash of
        the problem, so the choice looks random to the model but never changes). ``late``:
        with ``late_think_rate``'s share (the warm-start's last steps)."""
        rate = self.spec.think_rate
        if late and self.spec.late_think_rate is not None:
            rate = self.spec.late_think_rate
        return in_hashed_share("think-style", self.spec.seed, sample.fields["expr"], rate)

    def reference_completion(self, sample: Sample, late: bool = False) -> str:
        """The warm-start reference: the worked scratchpad, or (for a ``1 - think_rate``
        share of problems, ``1 - late_think_rate`` when ``late``) the bare answer after an
        empty ``<think></think>``."""
        if self.works_it_out(sample, late):
            return reference_completion(sample)
        return f"<think></think><answer>{sample.answer}</answer>"

    def late_reference_completion(self, sample: Sample) -> str:
        """The reference of the warm-start's last steps (``late_think_rate``'s share)."""
        return self.reference_completion(sample, late=True)
