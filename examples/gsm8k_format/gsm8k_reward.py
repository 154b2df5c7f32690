"""A reward function in TRL's `reward_funcs` form, for GSM8K-format rows.

rlvr calls it with the row's columns by name. With `task.answer_extract=gsm8k`, `answer` is
the number after "####" (what rlvr grades against), and the worked solution as the file has
it is `answer_raw`.
"""

import re

ANSWER = re.compile(r"<answer>\s*(-?[\d,]*\.?\d+)\s*</answer>")


def correctness(completions, answer, **row):
    """1.0 when the number in the completion's <answer> tag equals the reference, else 0.0."""
    rewards = []
    for completion, reference in zip(completions, answer):
        found = ANSWER.search(completion)
        given = found.group(1).replace(",", "") if found else None
        rewards.append(1.0 if given is not None and float(given) == float(reference) else 0.0)
    return rewards
