"""Train on the GSM8K-format files from Python, with the reward in gsm8k_reward.py run by two
worker processes (each imports the module; a slow call is timed out per completion).

    python make_data.py && python train.py
"""

from gsm8k_reward import correctness

import rlvr

summary = rlvr.train("smoke", reward=correctness, dataset="train.jsonl", eval_dataset="test.jsonl",
                     overrides=["output=runs/gsm8k-format-py", "train.steps=4", "task.fields.prompt=question",
                                "task.answer_extract=gsm8k", "reward.workers=2"], overwrite=True)
print(f"pass@1 {summary['base']['pass@1']:.2f} -> {summary['final']['pass@1']:.2f}")
