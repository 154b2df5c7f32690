"""The `hf` rollout backend: batched sampling from a transformers model with a KV cache.

The CPU default. It shares the policy module with the trainer (no weight copy: after an
optimizer step the next call samples from the new weights; ``sync_weights`` only bumps the
version counter). Each prompt is prefilled once and its KV cache repeated for the
``n`` completions of its group; the tokens all prompts of a call start with (system prompt,
template, worked example) are prefilled once for all of them. Llama and Qwen2 models decode through
``rlvr.rollout.fast`` (a preallocated KV cache and the weights called directly, several
times faster per step than the model's forward); any other model, or one wrapped with
adapters, goes through its own forward with a ``DynamicCache``. The fast decoder samples in
the model's generation precision (``rlvr.models.precision``: bf16 autocast on an AMX CPU for
a large enough model, else float32); the generic path always in the weights' dtype.

Returned per completion: response token ids (ending in EOS when it stopped), the
sampler's log-probability of each token under the temperature-scaled distribution
(before top-p truncation, the convention vLLM follows), a loss mask (all True: there are
no tool tokens here) and the finish reason.
"""

from __future__ import annotations

import torch

from rlvr.models.precision import precision_of
from rlvr.rollout.fast import FastDecoder, supports
from rlvr.types import Completion, SamplingParams


def sample_next(logits: torch.Tensor, temperature: float, top_p: float, gen: torch.Generator | None):
    """Pick one token per row. logits (N, V) -> (tokens (N,), logp (N,))."""
    if temperature <= 0:
        logp_all = torch.log_softmax(logits, dim=-1)
        tok = logits.argmax(dim=-1)
        return tok, logp_all.gather(-1, tok[:, None]).squeeze(-1)
    logp_all = torch.log_softmax(logits / temperature, dim=-1)  # (N, V)
    probs = logp_all.exp()
    if top_p < 1.0:
        sorted_p, idx = probs.sort(dim=-1, descending=True)
        keep = sorted_p.cumsum(-1) - sorted_p < top_p  # always keeps the top token
        sorted_p = sorted_p * keep
        probs = torch.zeros_like(probs).scatter(-1, idx, sorted_p)
    tok = torch.multinomial(probs, 1, generator=gen).squeeze(-1)
    return tok, logp_all.gather(-1, tok[:, None]).squeeze(-1)


def left_pad(prompts: list[list[int]], pad_id: int, device) -> tuple[torch.Tensor, torch.Tensor]:
    width = max(len(p) for p in prompts)
    ids = torch.full((len(prompts), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(prompts), width), dtype=torch.long)
    for i, p in enumerate(prompts):
        ids[i, width - len(p):] = torch.tensor(p, dtype=torch.long)
        mask[i, width - len(p):] = 1
    return ids.to(device), mask.to(device)


def shared_layout(prompts: list[list[int]], pad_id: int, device) -> tuple[torch.Tensor, torch.Tensor, int]:
    """``left_pad`` with the tokens every prompt starts with moved in front of the padding:
    ``[common prefix][padding][rest of the prompt]``, and the prefix's width C (0 when the
    prompts share nothing or there is one prompt). Each prompt keeps at least one token after
    the prefix (its last position's logits start its completion). The positions follow the
    mask (its cumulative sum), so the gap of padding changes nothing a token sees."""
    shortest = min(len(p) for p in prompts)
    c = 0
    if len(prompts) > 1:
        first = prompts[0]
        while c < shortest - 1 and all(p[c] == first[c] for p in prompts):
            c += 1
    if c == 0:
        ids, mask = left_pad(prompts, pad_id, device)
        return ids, mask, 0
    ids, mask = left_pad([p[c:] for p in prompts], pad_id, device)
    head = torch.tensor(prompts[0][:c], dtype=torch.long, device=device).expand(len(prompts), c)
    ones = torch.ones((len(prompts), c), dtype=mask.dtype, device=device)
    return torch.cat([head, ids], dim=1), torch.cat([ones, mask], dim=1), c


def cache_kwarg(model) -> str:
    """Name of the KV-cache argument: ``cache`` in newer transformers, ``past_key_values`` before.

    A peft wrapper's ``forward`` takes ``**kwargs`` and hands them to the wrapped model, so
    the name is read from the base model's signature."""
    import inspect

    target = model.get_base_model() if hasattr(model, "get_base_model") else model
    return "cache" if "cache" in inspect.signature(target.forward).parameters else "past_key_values"


class HFRollout:
    """Sampling with a transformers causal LM (shared with the trainer)."""

    def __init__(self, model, tokenizer, seed: int = 0, fast: bool = True, drop_finished: bool = False):
        self.model = model
        self.fast = fast  # use rlvr.rollout.fast for Llama/Qwen2 models (same numbers, less overhead)
        self.drop_finished = drop_finished  # stopped rows leave the fast decoder's batch (rollout.drop_finished)
        self.tokenizer = tokenizer
        self.pad_id = tokenizer.pad_token_id
        self.eos_id = tokenizer.eos_token_id
        self.version = 0
        self._cache_arg = cache_kwarg(model)
        self.gen = torch.Generator(device="cpu").manual_seed(seed)

    def sync_weights(self, state=None) -> None:
        """Colocated (``state`` None): the model object is the trainer's, only the version moves.
        Otherwise load the given state dict (a rollout worker in another process)."""
        if state is not None:
            self.model.load_state_dict(state)
        self.version += 1

    @torch.inference_mode()
    def generate(self, prompts: list[list[int]], sampling: SamplingParams) -> list[Completion]:
        """``len(prompts) * sampling.n`` completions, grouped prompt by prompt."""
        device = next(self.model.parameters()).device
        stop_ids = torch.tensor([self.eos_id, *sampling.stop_token_ids], dtype=torch.long, device=device)
        if self.fast and supports(self.model):
            ids, mask, shared = shared_layout(prompts, self.pad_id, device)
            decoder = FastDecoder(self.model, bf16=precision_of(self.model).generate_bf16)
            tokens, logps, steps = decoder.generate(
                ids, mask, sampling.n, sampling.max_new_tokens, self._picker(sampling), stop_ids, self.pad_id,
                drop_finished=self.drop_finished, shared=shared)
        else:
            tokens, logps, steps = self._generate_dynamic(prompts, sampling, stop_ids)
        return self._completions(prompts, sampling.n, tokens[:, :steps].cpu(), logps[:, :steps].cpu(),
                                 set(stop_ids.tolist()))

    def _picker(self, sampling: SamplingParams):
        temperature, top_p, gen = sampling.temperature, sampling.top_p, self.gen
        return lambda logits: sample_next(logits, temperature, top_p, gen)

    def _generate_dynamic(self, prompts: list[list[int]], sampling: SamplingParams, stop_ids: torch.Tensor):
        """The generic path: any transformers causal LM, through its own forward and a DynamicCache."""
        model, n, max_new = self.model, sampling.n, sampling.max_new_tokens
        device = stop_ids.device
        was_training = model.training
        model.eval()
        ids, mask = left_pad(prompts, self.pad_id, device)
        B, P = ids.shape
        attn = torch.zeros((B * n, P + max_new), dtype=torch.long, device=device)
        attn[:, :P] = mask.repeat_interleave(n, dim=0)
        pos = (mask.cumsum(-1) - 1).clamp(min=0)
        from transformers import DynamicCache

        cache = DynamicCache()
        out = model(input_ids=ids, attention_mask=mask, position_ids=pos, use_cache=True, logits_to_keep=1,
                    **{self._cache_arg: cache})
        if n > 1:
            cache.batch_repeat_interleave(n)
        logits = out.logits[:, -1, :].float().repeat_interleave(n, dim=0)  # (N, V)
        next_pos = pos[:, -1:].repeat_interleave(n, dim=0) + 1  # (N, 1)
        tokens = torch.full((B * n, max_new), self.pad_id, dtype=torch.long, device=device)
        logps = torch.zeros((B * n, max_new), dtype=torch.float32, device=device)
        finished = torch.zeros(B * n, dtype=torch.bool, device=device)
        steps = 0
        for t in range(max_new):
            tok, lp = sample_next(logits, sampling.temperature, sampling.top_p, self.gen)
            tok = torch.where(finished, self.pad_id, tok)
            tokens[:, t] = tok
            logps[:, t] = torch.where(finished, 0.0, lp)
            finished |= torch.isin(tok, stop_ids)
            steps = t + 1
            if bool(finished.all()) or t == max_new - 1:
                break
            attn[:, P + t] = 1
            out = model(input_ids=tok[:, None], attention_mask=attn[:, : P + t + 1], position_ids=next_pos,
                        use_cache=True, **{self._cache_arg: cache})
            logits = out.logits[:, -1, :].float()
            next_pos = next_pos + 1
        if was_training:
            model.train()
        return tokens, logps, steps

    def _completions(self, prompts, n, tokens, logps, stop_ids: set[int]) -> list[Completion]:
        out = []
        for i in range(tokens.shape[0]):
            row = tokens[i].tolist()
            hit = next((j for j, t in enumerate(row) if t in stop_ids), None)
            cut, reason = (hit + 1, "stop") if hit is not None else (len(row), "length")
            resp = row[:cut]
            text_ids = resp[:-1] if resp and resp[-1] == self.eos_id else resp
            out.append(Completion(
                prompt_ids=list(prompts[i // n]), token_ids=resp, sampler_logp=logps[i, :cut].tolist(),
                loss_mask=[True] * cut, finish_reason=reason,
                text=self.tokenizer.decode(text_ids, skip_special_tokens=False), policy_version=self.version,
            ))
        return out
