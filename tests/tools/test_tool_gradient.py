"""With tool output in the sequence, the loss has exactly zero gradient with respect to the
logits at tool-output positions and a non-zero gradient at generated ones."""

from __future__ import annotations

import pytest
import torch

from rlvr.algo import policy_loss, token_entropy
from rlvr.envs.tools import ToolEnv, calculator_tool
from rlvr.rollout.tools import ToolRollout
from rlvr.train.batch import collate
from rlvr.train.forward import response_logits, token_logp
from rlvr.types import SamplingParams

from .fakes import FakeBackend, after_prompt


def completions(tok):
    def script(ctx):
        resp = after_prompt(ctx)
        if "<output>" not in resp:
            return "<think><tool>48213+90412</tool>"
        return "</think><answer>138625</answer>" if ctx.startswith("4") else "</think><answer>1</answer>"

    ro = ToolRollout(FakeBackend(tok, script), tok, lambda: ToolEnv(calculator_tool), max_calls=1)
    prompts = [tok(p, add_special_tokens=False)["input_ids"] for p in ("48213+90412=?\n", "x=?\n")]
    return ro.generate(prompts, SamplingParams(max_new_tokens=40, n=2))


@pytest.mark.parametrize("knobs", [{"kl_coef": 0.0}, {"kl_coef": 0.1, "entropy_coef": 0.01}])
def test_zero_gradient_on_tool_output_logits(tiny_model, tiny_tokenizer, knobs):
    comps = completions(tiny_tokenizer)
    assert [c.tool_calls for c in comps] == [1, 1, 1, 1]
    batch = collate(comps, tiny_tokenizer.pad_token_id)
    logits = response_logits(tiny_model, batch)  # (B, R, V)
    logits.retain_grad()
    logp = token_logp(logits, batch.response_ids)  # (B, R)
    extra = {}
    if knobs["kl_coef"]:
        extra = {"ref_logp": logp.detach() - 0.3, "entropy": token_entropy(logits)}
    loss, _ = policy_loss(logp, logp.detach(), torch.tensor([1.0, -1.0, 0.5, -0.5]), batch.loss_mask,
                          algorithm="grpo", **extra, **knobs)
    loss.backward()
    norms = logits.grad.abs().sum(-1)  # (B, R)
    tool = torch.zeros_like(batch.loss_mask)
    for i, c in enumerate(comps):
        start = c.token_ids.index(tiny_tokenizer.convert_tokens_to_ids("<output>"))
        tool[i, start:start + 8] = True  # <output>138625</output>
    assert torch.equal(tool, ~batch.loss_mask & (batch.attention_mask[:, batch.prompt_width:] == 1))
    assert torch.all(norms[tool] == 0.0)  # exactly zero, not small
    assert torch.all(norms[batch.loss_mask] > 0.0)
    assert int(tool.sum()) == 4 * 8 and int(batch.loss_mask.sum()) == 2 * 24 + 2 * 19
