"""PPO's learned critic: a copy of the base model's trunk with a scalar value head.

Only the `ppo` preset (advantage estimator ``gae``) builds one. It is the thing GRPO
exists to avoid: a second network as large as the policy, with its own gradients and
optimizer state, roughly doubling the trainer's memory. The value of response
position j is read from the hidden state that scores token j, i.e. the state before the
token is emitted, so ``values`` lines up with ``logp`` as (B, R).
"""

from __future__ import annotations

import torch
from torch import nn

from rlvr.train.batch import Batch


class Critic(nn.Module):
    def __init__(self, trunk: nn.Module, hidden_size: int):
        super().__init__()
        self.trunk = trunk
        self.head = nn.Linear(hidden_size, 1)
        nn.init.zeros_(self.head.weight)
        nn.init.zeros_(self.head.bias)

    @classmethod
    def from_pretrained(cls, path, dtype: torch.dtype, device: torch.device) -> Critic:
        from transformers import AutoModel

        trunk = AutoModel.from_pretrained(path, dtype=dtype)
        return cls(trunk, trunk.config.hidden_size).to(device)

    def forward(self, batch: Batch) -> torch.Tensor:  # (B, R)
        device = next(self.parameters()).device
        out = self.trunk(input_ids=batch.input_ids.to(device), attention_mask=batch.attention_mask.to(device),
                         position_ids=batch.position_ids.to(device), use_cache=False)
        P = batch.prompt_width
        hidden = out.last_hidden_state[:, P - 1:-1, :]
        return self.head(hidden.float()).squeeze(-1)


class CriticTrainer:
    """The critic with its own optimizer (PPO trains value and policy side by side)."""

    def __init__(self, critic: Critic, lr: float, weight_decay: float = 0.0):
        self.critic = critic
        self.optimizer = torch.optim.AdamW(critic.parameters(), lr=lr, weight_decay=weight_decay)

    @torch.no_grad()
    def values(self, batch: Batch, micro: int) -> torch.Tensor:  # (B, R)
        idx = torch.arange(batch.input_ids.shape[0])
        chunks = idx.split(micro) if micro and micro < len(idx) else [idx]
        return torch.cat([self.critic(batch.select(c)).cpu() for c in chunks])

    def state_dict(self) -> dict:
        return {"critic": self.critic.state_dict(), "optimizer": self.optimizer.state_dict()}

    def load_state_dict(self, state: dict) -> None:
        self.critic.load_state_dict(state["critic"])
        self.optimizer.load_state_dict(state["optimizer"])
