"""``task.name=gym``: a reasoning-gym dataset as the prompt source, its scorer as the reward.

``GymTask.from_config(task_cfg)`` opens generator ``task.gym_dataset`` with
``task.gym_config`` (the keyword arguments of that dataset's config class) twice, under
seeds that give every problem its own per-item seed (reasoning-gym seeds item ``i`` of a
generator seeded ``s`` with ``s + i``):

- training: problems ``0 .. gym_size-1`` of the generator seeded ``task.seed``, the stream
  position ``k`` taking problem ``k mod gym_size`` (a pure function of k, so a resumed run
  continues where it stopped);
- held-out: ``eval_size`` problems of the generator seeded ``task.seed + gym_size``.

A small problem space can still draw one question under two seeds, so a training problem
whose question is held out is replaced by the next one that is not: the splits share no
question. Each prompt is ``task.prompt_template`` with ``{prompt}`` the entry's question;
the default asks for the ``<answer>`` tag the ``gym`` verifier reads. Every sample carries
the dataset name and the entry, which the run's reward (``reward.verifier=gym``, set by
``rlvr.config.validate``) hands to the dataset's own ``score_answer``.

With no ``model.path``, the built-in tiny model is warm-started on the training stream,
imitating ``reference_completion`` (the entry's answer in the tags, no working: reasoning-gym
gives answers, not solutions); RL then has to improve on that base.

Refused, each with a one-line ``ConfigError`` naming the key: an unknown dataset (with the
close names), an unknown or invalid config key, a dataset whose scorer is unsafe
(``rlvr.verifiers.gym.UNSAFE``), reasoning-gym not installed. Entries are generated on
first use and kept, so a long run over a costly generator pays for each problem once.
What it does not do: reasoning-gym's curricula or composite datasets.
"""

from __future__ import annotations

import string

from rlvr.errors import ConfigError, DataError, UserError
from rlvr.types import Sample

GYM_TEMPLATE = "{prompt}\nThink in <think></think>, then give only the final answer in <answer></answer>.\n"
TEMPLATE_FIELDS = ("prompt",)


def check_gym_template(template: str) -> None:
    """``{prompt}`` is the only placeholder (the answer never enters the prompt)."""
    try:
        names = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
    except ValueError as exc:
        raise ConfigError(f"task.prompt_template is not a valid format string ({exc}); "
                          f"write literal braces as {{{{ }}}}") from None
    bad = sorted(names - set(TEMPLATE_FIELDS))
    if bad:
        raise ConfigError(f"task.prompt_template uses {{{bad[0]}}}; with task.name=gym the only field is {{prompt}} "
                          f"(the entry's question)")
    if "prompt" not in names:
        raise ConfigError("task.prompt_template has no {prompt}: the model would never see the question")


class GymTask:
    """Held-out samples plus an indexable training stream over a reasoning-gym generator."""

    name = "gym"

    def __init__(self, dataset_name: str, train_source, eval_source, eval_size: int, template: str):
        self.dataset_name = dataset_name
        self.template = template
        self._train_source = train_source
        self._train: dict[int, Sample] = {}
        self.eval_samples = [self._sample(eval_source[i], f"{dataset_name}/eval/{i}") for i in range(eval_size)]
        self._held = {s.fields["question"] for s in self.eval_samples}

    @classmethod
    def from_config(cls, task_cfg) -> GymTask:
        from rlvr.verifiers.gym import open_dataset

        t = task_cfg
        if not t.gym_dataset:
            raise ConfigError("task.name=gym needs task.gym_dataset=NAME (a reasoning-gym dataset, e.g. chain_sum)")
        template = t.prompt_template or GYM_TEMPLATE
        check_gym_template(template)
        try:
            train = open_dataset(t.gym_dataset, t.gym_size, t.seed, t.gym_config)
            held = open_dataset(t.gym_dataset, t.eval_size, t.seed + t.gym_size, t.gym_config)
        except ImportError as exc:
            raise ConfigError(f"task.name=gym: {exc}") from None
        except UserError as exc:
            raise ConfigError(f"task.gym_dataset / task.gym_config: {exc}") from None
        return cls(t.gym_dataset, train, held, t.eval_size, template)

    def _sample(self, entry: dict, sid: str) -> Sample:
        from rlvr.verifiers.gym import entry_sample

        return entry_sample(self.dataset_name, entry, sid, self.template.format(prompt=entry["question"]),
                            verifier=None)

    def _train_problem(self, i: int) -> Sample:
        if i not in self._train:
            self._train[i] = self._sample(self._train_source[i], f"{self.dataset_name}/train/{i}")
        return self._train[i]

    def train_sample(self, k: int) -> Sample:
        """Training sample at stream position ``k``: problem ``k mod gym_size``, or the next
        one whose question is not held out."""
        if k < 0:
            raise IndexError(f"stream position must be >= 0, got {k}")
        size = len(self._train_source)
        for step in range(size):
            sample = self._train_problem((k + step) % size)
            if sample.fields["question"] not in self._held:
                return sample
        raise DataError(f"every one of the {size} training problems of reasoning-gym dataset "
                        f"{self.dataset_name!r} is also held out; widen task.gym_config or lower task.eval_size")

    def train_batch(self, start: int, n: int) -> list[Sample]:
        return [self.train_sample(k) for k in range(start, start + n)]

    def reference_completion(self, sample: Sample) -> str:
        """The built-in tiny model's warm-start reference: the entry's answer, no working
        (reasoning-gym gives answers, not solutions)."""
        if sample.answer is None:
            raise ConfigError(f"reasoning-gym dataset {self.dataset_name!r} gives no reference answer to warm-start "
                              f"the built-in tiny model on; set model.path to a model of your own")
        return f"<think></think><answer>{sample.answer}</answer>"
