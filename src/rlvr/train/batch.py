"""Completions -> padded tensors (the policy's forward over them is ``rlvr.train.forward``).

Layout: prompts are left-padded to a common width P and responses right-padded to R, so
the logits that score response token j of every row sit in one slice, columns
``P-1+j``. All per-token tensors handed to ``rlvr.algo`` are (B, R) over the response;
``loss_mask`` is False on padding and on tool-output tokens, and the prompt is outside
the slice by construction. ``full_loss_mask`` (B, P+R) exists for checking that.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from rlvr.types import Completion


@dataclass
class Batch:
    input_ids: torch.Tensor       # (B, P+R)
    attention_mask: torch.Tensor  # (B, P+R)
    position_ids: torch.Tensor    # (B, P+R)
    response_ids: torch.Tensor    # (B, R)
    loss_mask: torch.Tensor       # (B, R) bool
    sampler_logp: torch.Tensor    # (B, R)
    prompt_width: int             # P

    @property
    def full_loss_mask(self) -> torch.Tensor:  # (B, P+R)
        B, P = self.input_ids.shape[0], self.prompt_width
        return torch.cat([torch.zeros((B, P), dtype=torch.bool), self.loss_mask], dim=1)

    def select(self, idx: torch.Tensor) -> Batch:
        return Batch(self.input_ids[idx], self.attention_mask[idx], self.position_ids[idx],
                     self.response_ids[idx], self.loss_mask[idx], self.sampler_logp[idx], self.prompt_width)

    def trimmed(self) -> Batch:
        """The batch without the response columns that are padding in every one of its rows:
        a forward's cost follows the longest response of these rows, not of the whole step (the
        rows without a gradient, often the long truncated ones, are no longer in it). Exact: the
        columns cut hold no token and no loss."""
        P, R = self.prompt_width, self.response_ids.shape[1]
        r = max(int(self.attention_mask[:, P:].sum(dim=1).max()), 1) if len(self.input_ids) else R
        if r >= R:
            return self
        return Batch(self.input_ids[:, :P + r], self.attention_mask[:, :P + r], self.position_ids[:, :P + r],
                     self.response_ids[:, :r], self.loss_mask[:, :r], self.sampler_logp[:, :r], P)


def collate(completions: list[Completion], pad_id: int) -> Batch:
    B = len(completions)
    P = max(len(c.prompt_ids) for c in completions)
    R = max(max(len(c.token_ids) for c in completions), 1)
    ids = torch.full((B, P + R), pad_id, dtype=torch.long)
    attn = torch.zeros((B, P + R), dtype=torch.long)
    mask = torch.zeros((B, R), dtype=torch.bool)
    slogp = torch.zeros((B, R), dtype=torch.float32)
    for i, c in enumerate(completions):
        p, r = len(c.prompt_ids), len(c.token_ids)
        ids[i, P - p:P] = torch.tensor(c.prompt_ids, dtype=torch.long)
        attn[i, P - p:P + r] = 1
        if r:
            ids[i, P:P + r] = torch.tensor(c.token_ids, dtype=torch.long)
            mask[i, :r] = torch.tensor(c.loss_mask, dtype=torch.bool)
            slogp[i, :r] = torch.tensor(c.sampler_logp, dtype=torch.float32)
    pos = (attn.cumsum(-1) - 1).clamp(min=0)
    return Batch(ids, attn, pos, ids[:, P:].clone(), mask, slogp, P)
