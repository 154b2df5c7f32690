"""maj@k votes on the answer the verifier graded (``Verdict.answer``), so one greedy sample gives
maj@1 = pass@1 whatever the completion's form. Before, votes came from a second extraction that
knew only tags and markers: an unmarked but graded completion ("37 + 45 = 82") voted for nothing
and maj@1 was 0 while pass@1 was 1."""

from __future__ import annotations

from rlvr.config import load_config
from rlvr.diagnostics.passk import majk_curve, passk_curve
from rlvr.rollout.scripted import ScriptedRollout
from rlvr.train.evaluation import evaluate_samples
from rlvr.types import Sample
from rlvr.verifiers.rewarder import Rewarder

COMPLETIONS = {"What is 37 + 45?": "37 + 45 = 82", "What is 12 + 34?": "The answer is \\boxed{46}.",
               "What is 20 + 5?": "<answer>25</answer>", "What is 9 + 9?": "9 + 9 = 17"}


def test_majority_vote_uses_the_graded_answer(tiny_tokenizer):
    cfg = load_config(overrides=["reward.verifier=math", "reward.format_weight=0", "model.chat_template=none"])
    samples = [Sample(id=str(i), prompt=p, answer=str(eval(p[8:-1]))) for i, p in enumerate(COMPLETIONS)]
    rollout = ScriptedRollout(tiny_tokenizer, script=lambda prompt, j: COMPLETIONS[prompt])
    with Rewarder(cfg.reward) as rewarder:
        res = evaluate_samples(rollout, tiny_tokenizer, samples, rewarder, cfg, n=1, temperature=0.0)
    assert res["correct"] == [[True], [True], [True], [False]]
    # the verifier's canonical answers; "9 + 9 = 17" is a false computation, refused: no answer, no vote
    assert res["answers"] == [["82"], ["46"], ["25"], [None]]
    assert majk_curve(res["answers"], res["correct"], [1])[1] == passk_curve(res["correct"], [1])[1] == 0.75
