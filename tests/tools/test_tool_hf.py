"""The loop over the real hf backend: after a tool output, the sampler's log-probabilities of
the generated tokens are the model's, conditioned on the whole context (tool output
included), so the trainer's logp matches the sampler's (no silent off-policy drift)."""

from __future__ import annotations

import torch

from rlvr.envs.base import Environment, Step
from rlvr.rollout.hf import HFRollout
from rlvr.rollout.tools import ToolRollout
from rlvr.types import SamplingParams

OBS = "<output>42</output>"


class EveryA(Environment):
    """Pauses at every 'a' the random model writes and answers with OBS."""

    stop_text = "a"

    def step(self, action_text):
        assert action_text.endswith("a")
        self.calls += 1
        return Step(OBS, False, 0.0)


def test_sampler_logp_after_tool_output_is_the_models(tiny_model, tiny_tokenizer):
    tok = tiny_tokenizer
    ro = ToolRollout(HFRollout(tiny_model, tok, seed=3), tok, EveryA, max_calls=2)
    prompts = [tok("1+2=?\n", add_special_tokens=False)["input_ids"], tok("a\n", add_special_tokens=False)["input_ids"]]
    comps = ro.generate(prompts, SamplingParams(max_new_tokens=40, temperature=1.5, n=16))
    obs = tok(OBS, add_special_tokens=False)["input_ids"]
    called = [c for c in comps if c.tool_calls]
    assert len(called) >= 4 and max(c.tool_calls for c in comps) == 2
    a_id = tok.convert_tokens_to_ids("a")
    for c in comps:
        masked = [j for j, m in enumerate(c.loss_mask) if not m]
        for k in range(0, len(masked), len(obs)):  # each observation follows a generated 'a'
            run = masked[k:k + len(obs)]
            assert c.token_ids[run[0] - 1] == a_id and [c.token_ids[j] for j in run] == obs[:len(run)]
        assert len(masked) == len(obs) * c.tool_calls or c.finish_reason == "length"
        P = len(c.prompt_ids)
        with torch.no_grad():  # the sampler's logp is of the temperature-scaled distribution
            logits = tiny_model(torch.tensor([c.prompt_ids + c.token_ids])).logits[0].float() / 1.5
        want = logits.log_softmax(-1)[P - 1:-1].gather(-1, torch.tensor(c.token_ids)[:, None]).squeeze(-1)
        mask = torch.tensor(c.loss_mask)
        assert torch.allclose(torch.tensor(c.sampler_logp)[mask], want[mask], atol=1e-4)
        assert all(c.sampler_logp[j] == 0.0 for j in masked)
