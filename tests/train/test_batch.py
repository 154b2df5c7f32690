"""Collation: the loss mask excludes prompt and padding; logits line up with tokens."""

import torch

from rlvr.train.batch import collate
from rlvr.train.forward import response_logits, token_logp
from rlvr.types import Completion


def _c(prompt, resp, mask=None):
    return Completion(prompt_ids=prompt, token_ids=resp, sampler_logp=[0.0] * len(resp),
                      loss_mask=mask or [True] * len(resp), finish_reason="stop", text="")


def test_loss_mask_excludes_prompt_padding_and_tool_tokens():
    b = collate([_c([5, 6, 7], [8, 9]), _c([5], [10, 11, 12, 13], [True, False, False, True])], pad_id=0)
    assert b.input_ids.tolist() == [[5, 6, 7, 8, 9, 0, 0], [0, 0, 5, 10, 11, 12, 13]]
    assert b.attention_mask.tolist() == [[1, 1, 1, 1, 1, 0, 0], [0, 0, 1, 1, 1, 1, 1]]
    assert b.loss_mask.tolist() == [[True, True, False, False], [True, False, False, True]]
    assert b.full_loss_mask.tolist() == [[False] * 3 + [True, True, False, False],
                                         [False] * 3 + [True, False, False, True]]
    assert b.position_ids[1].tolist() == [0, 0, 0, 1, 2, 3, 4]


def test_padded_logprobs_match_unpadded(tiny_model):
    comps = [_c([5, 6, 7], [8, 9]), _c([5], [10, 11, 12, 13])]
    b = collate(comps, pad_id=0)
    with torch.no_grad():
        lp = token_logp(response_logits(tiny_model, b), b.response_ids)
        for i, c in enumerate(comps):
            alone = tiny_model(torch.tensor([c.prompt_ids + c.token_ids])).logits[0].log_softmax(-1)
            P = len(c.prompt_ids)
            want = alone[P - 1:-1].gather(-1, torch.tensor(c.token_ids)[:, None]).squeeze(-1)
            assert torch.allclose(lp[i, :len(c.token_ids)], want, atol=1e-5)
