"""Built-in tool task: add or subtract two 4-5 digit numbers, with a calculator at hand.

A problem is ``a op b`` with operands of ``digits_min``..``digits_max`` digits. Sums of
that size are far beyond what the tiny model does in its head; with the calculator they
are a matter of copying: the reference solution calls the tool and copies its output,

    <think><tool>48213+90412</tool><output>138625</output></think><answer>138625</answer>

where ``<output>…</output>`` is written by the tool-call loop, not by the policy (loss
mask False in RL, label-masked in the warm-start). The think/answer frame keeps the
run's format term meaningful.

Learnable on purpose: the warm-start imitates a *mix*. A fraction ``call_rate`` of its
references call the tool; the rest answer directly (``<think></think><answer>138625</answer>``,
the right answer, which the small model mostly cannot reproduce). The base therefore
calls the tool only sometimes, and RL has to discover that calling pays. Which style a
problem gets is a hash of the problem, so nothing in the prompt predicts it.

Train it with ``reward.format_weight=0``: the direct answer almost always has the format and
a failed call often does not, so with the format term GRPO learned to stop calling
(measured in docs/tools.md).

Splits are disjoint by construction, as in ``arithmetic``: the held-out set is drawn
first from its own stream and the training stream skips its problems; problem ``k`` of the
training stream is a pure function of (seed, k).

What it deliberately does not do: multi-call problems (one call solves every problem)
or multiplication by default (``*`` is accepted but its 8-10 digit results need a longer
``rollout.max_new_tokens``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rlvr.errors import ConfigError
from rlvr.tasks.arithmetic import draw_held_out, expression, in_hashed_share, solve
from rlvr.types import Sample

PROMPT = "{expr}=? Use <tool> and <answer>.\n"


@dataclass(frozen=True)
class ToolArithmeticSpec:
    digits_min: int = 4
    digits_max: int = 5
    operators: str = "+-"
    call_rate: float = 0.5  # fraction of warm-start references that call the tool
    seed: int = 1234

    def __post_init__(self) -> None:
        if not 1 <= self.digits_min <= self.digits_max:
            raise ValueError(f"need 1 <= digits_min <= digits_max, got {self.digits_min}, {self.digits_max}")
        bad = set(self.operators) - set("+-*")
        if not self.operators or bad:
            raise ValueError(f"operators must be a non-empty subset of '+-*', got {self.operators!r}")
        if not 0.0 <= self.call_rate <= 1.0:
            raise ValueError(f"call_rate must be in [0, 1], got {self.call_rate}")


def _operand(rng: random.Random, spec: ToolArithmeticSpec) -> int:
    d = rng.randint(spec.digits_min, spec.digits_max)
    return rng.randint(10 ** (d - 1) if d > 1 else 0, 10**d - 1)


def make_sample(a: int, op: str, b: int, sid: str) -> Sample:
    expr = expression([a, b], [op])
    value, _ = solve([a, b], [op])
    return Sample(id=sid, prompt=PROMPT.format(expr=expr), answer=str(value), fields={"expr": expr})


class ToolArithmeticTask:
    """Held-out set, an indexable training stream, and the warm-start references."""

    name = "tool_arithmetic"
    needs_tools = True

    def __init__(self, spec: ToolArithmeticSpec, eval_size: int = 200):
        self.spec = spec
        def draw(rng):
            a, op, b = self._draw(rng)
            return expression([a, b], [op]), lambda sid: make_sample(a, op, b, sid)

        self.eval_samples, self._eval_exprs = draw_held_out(random.Random(f"tool-eval:{spec.seed}"), draw,
                                                            eval_size, "tool_arithmetic")

    def _draw(self, rng: random.Random) -> tuple[int, str, int]:
        a = _operand(rng, self.spec)
        op = rng.choice(self.spec.operators)
        return a, op, _operand(rng, self.spec)

    def train_sample(self, k: int) -> Sample:
        """Training problem number ``k`` (never one of the held-out problems)."""
        for attempt in range(1000):
            a, op, b = self._draw(random.Random(f"tool-train:{self.spec.seed}:{k}:{attempt}"))
            if expression([a, b], [op]) not in self._eval_exprs:
                return make_sample(a, op, b, f"train-{k}")
        raise RuntimeError("could not draw a training problem outside the held-out set; the problem space is too small")

    def train_batch(self, start: int, n: int) -> list[Sample]:
        return [self.train_sample(k) for k in range(start, start + n)]

    # ------------------------------------------------------------ warm-start references
    def calls_tool(self, sample: Sample) -> bool:
        """Whether the warm-start reference of this problem calls the tool (a hash of the problem)."""
        return in_hashed_share("tool-style", self.spec.seed, sample.fields["expr"], self.spec.call_rate)

    def reference_segments(self, sample: Sample) -> list[tuple[str, bool]]:
        """The reference as (text, trained) segments: the tool's output is not trained on."""
        expr, value = sample.fields["expr"], sample.answer
        if not self.calls_tool(sample):
            return [(f"<think></think><answer>{value}</answer>", True)]
        return [(f"<think><tool>{expr}</tool>", True), (f"<output>{value}</output>", False),
                (f"</think><answer>{value}</answer>", True)]

    def reference_completion(self, sample: Sample) -> str:
        return "".join(text for text, _ in self.reference_segments(sample))

    def check_rollout(self, cfg, tokenizer) -> None:
        """The run must offer the calculator and room for the longest tool-calling reference."""
        r = cfg.rollout
        if r.max_tool_calls < 1:
            raise ConfigError("task.name=tool_arithmetic needs the calculator: set rollout.max_tool_calls=1")
        longest = longest_reference(self.spec.digits_max, self.spec.operators)
        need = len(tokenizer(longest, add_special_tokens=False)["input_ids"]) + 1  # + EOS
        if min(r.max_new_tokens, cfg.eval.max_new_tokens or r.max_new_tokens) < need:
            raise ConfigError(f"task.name=tool_arithmetic with {self.spec.digits_max}-digit operands needs "
                              f"rollout.max_new_tokens (and eval.max_new_tokens) >= {need}")


def longest_reference(digits_max: int, operators: str) -> str:
    """The longest tool-calling reference with operands of at most ``digits_max`` digits
    (to check that ``rollout.max_new_tokens`` leaves room for it)."""
    hi, lo = 10**digits_max - 1, 10 ** (digits_max - 1)
    worst = [make_sample(lo if op == "-" else hi, op, hi, "longest") for op in operators]
    texts = [f"<think><tool>{s.fields['expr']}</tool><output>{s.answer}</output></think><answer>{s.answer}</answer>"
             for s in worst]
    return max(texts, key=len)
