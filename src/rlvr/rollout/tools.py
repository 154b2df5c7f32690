"""The tool-call loop: any rollout backend, wrapped so that the policy can call tools mid-completion.

``ToolRollout(inner, tokenizer, make_env, max_calls)`` has the rollout protocol
(``generate(prompts, sampling)``, ``sync_weights``, ``version``, ``gen``) and runs, per call:

1. one batched ``inner.generate`` of every prompt x n, with the environment's stop marker
   (``</tool>``) as an extra stop token;
2. for every sequence that paused at the marker with calls left, ``env.step(text since the
   last observation)``; a non-empty observation (``<output>…</output>``) is appended;
3. one batched ``inner.generate`` (n=1) of every paused sequence with its full context
   (prompt + response so far) as the prompt, and so on until no sequence is paused.
All sequences of a step advance together: a round holds every sequence still running.

How the response is built (the masking contract, see docs/tools.md): by concatenating
ids, never by re-tokenising text. Generated ids are kept as sampled (loss mask True, the
sampler's log-probability); observation ids come from tokenising the observation text
alone (loss mask False, sampler log-probability 0.0). ``Completion.text`` is the decoded
response (tool outputs included, a final EOS dropped), which is what the verifier reads.
The length limit ``sampling.max_new_tokens`` counts generated and observation tokens;
when the budget runs out mid-observation the observation is cut and the finish reason
is ``length``.

The stop marker must end in a token of its own: the loop stops on the last token of
``tokenizer(stop_text)``; when that token ends the text without the whole marker (a
multi-token marker such as a code fence), the sequence is resumed with nothing appended.
After ``max_calls`` calls a sequence no longer pauses at the marker: it generates on
without tool output.

What it deliberately does not do: keep KV caches across rounds (each resume re-reads its
context: simple and backend-agnostic, at the cost of one prefill per round), add an
environment's reward to the training reward (``last_env_rewards`` reports it), or pass
samples to environments unless the caller hands them to ``generate`` (the training loop
passes token ids only; the built-in tools need nothing else).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from rlvr.envs.base import Environment
from rlvr.types import Completion, Sample, SamplingParams


@dataclass
class _Seq:
    """One completion under construction."""

    prompt_ids: list[int]
    env: Environment
    ids: list[int] = field(default_factory=list)      # (R,) response so far
    logp: list[float] = field(default_factory=list)   # (R,)
    mask: list[bool] = field(default_factory=list)    # (R,)
    pending: list[int] = field(default_factory=list)  # generated ids since the last observation
    state: str = "running"  # running | paused | done
    finish: str = "length"
    ends_with_eos: bool = False
    version: int = 0
    env_reward: float = 0.0

    @property
    def context(self) -> list[int]:
        return self.prompt_ids + self.ids


class ToolRollout:
    """A rollout backend whose completions may call tools (see the module docstring)."""

    def __init__(self, inner, tokenizer, make_env: Callable[[], Environment], max_calls: int, workers: int = 1):
        if max_calls < 0:
            raise ValueError(f"max_calls must be >= 0, got {max_calls}")
        self.inner, self.tokenizer, self.make_env = inner, tokenizer, make_env
        self.max_calls, self.workers = max_calls, workers
        self.stop_text = make_env().stop_text
        ids = tokenizer(self.stop_text, add_special_tokens=False)["input_ids"]
        if not ids:
            raise ValueError(f"the environment's stop marker {self.stop_text!r} tokenizes to nothing")
        # The backend pauses at the marker's last token. With a BPE vocabulary that token is
        # often shared ('>' ends "</tool>", "<tool>" and "x > 3"): a pause counts as a call
        # only when the generated text really ends with the whole marker.
        self.pause_id = ids[-1]
        self.last_env_rewards: list[float] = []

    def __getattr__(self, name):  # gen, version, sync_weights, model, ... of the wrapped rollout
        return getattr(self.inner, name)

    def generate(self, prompts: list[list[int]], sampling: SamplingParams,
                 samples: Sequence[Sample] | None = None) -> list[Completion]:
        """``len(prompts) * sampling.n`` completions, grouped prompt by prompt, with tool calls run."""
        n, budget = sampling.n, sampling.max_new_tokens
        if samples is not None and len(samples) != len(prompts):
            raise ValueError(f"got {len(samples)} samples for {len(prompts)} prompts")
        seqs = [self._new_seq(prompts[i // n], samples[i // n] if samples is not None else None)
                for i in range(len(prompts) * n)]
        round_seqs = seqs
        outs = self.inner.generate(prompts, self._round_sampling(sampling, seqs, n, budget))
        while True:
            if len(outs) != len(round_seqs):
                raise RuntimeError(f"the backend returned {len(outs)} completions for {len(round_seqs)} sequences")
            for seq, comp in zip(round_seqs, outs):
                self._absorb(seq, comp, budget)
            self._run_tools([s for s in round_seqs if s.state == "paused"], budget)
            round_seqs = [s for s in round_seqs if s.state == "running"]
            if not round_seqs:
                break
            room = max(budget - len(s.ids) for s in round_seqs)
            outs = self.inner.generate([s.context for s in round_seqs],
                                       self._round_sampling(sampling, round_seqs, 1, room))
        self.last_env_rewards = [s.env_reward for s in seqs]
        return [self._completion(s) for s in seqs]

    # ------------------------------------------------------------ one round
    def _new_seq(self, prompt_ids: list[int], sample: Sample | None) -> _Seq:
        env = self.make_env()
        env.reset(sample)
        return _Seq(prompt_ids=list(prompt_ids), env=env)

    def _round_sampling(self, sampling: SamplingParams, seqs: list[_Seq], n: int, room: int) -> SamplingParams:
        """The round's sampling: pause at the marker only while some sequence has calls left."""
        stops = tuple(sampling.stop_token_ids)
        if any(s.env.calls < self.max_calls for s in seqs) and self.pause_id not in stops:
            stops = stops + (self.pause_id,)
        return dataclasses.replace(sampling, n=n, max_new_tokens=room, stop_token_ids=stops)

    def _absorb(self, seq: _Seq, comp: Completion, budget: int) -> None:
        """Append one round's generated ids (cut to the budget) and decide what happens next."""
        room = budget - len(seq.ids)
        ids = comp.token_ids[:room]
        seq.ids += ids
        seq.logp += comp.sampler_logp[:room]
        seq.mask += [True] * len(ids)
        seq.pending += ids
        seq.version = comp.policy_version
        stopped = comp.finish_reason == "stop" and len(comp.token_ids) <= room and bool(ids)
        if stopped and ids[-1] == self.pause_id and len(seq.ids) < budget:
            # paused at the marker: run the tool, or (no calls left, or only the marker's last token) go on
            at_marker = self.tokenizer.decode(seq.pending, skip_special_tokens=False).endswith(self.stop_text)
            seq.state = "paused" if at_marker and seq.env.calls < self.max_calls else "running"
        elif stopped and ids[-1] != self.pause_id:
            seq.state, seq.finish, seq.ends_with_eos = "done", "stop", True
        else:
            seq.state, seq.finish = "done", "length"  # budget used up (a marker at the very end included)

    def _run_tools(self, paused: list[_Seq], budget: int) -> None:
        texts = [self.tokenizer.decode(s.pending, skip_special_tokens=False) for s in paused]
        if self.workers > 1 and len(paused) > 1:
            with ThreadPoolExecutor(max_workers=self.workers) as pool:
                steps = list(pool.map(lambda pair: pair[0].env.step(pair[1]), zip(paused, texts)))
        else:
            steps = [s.env.step(t) for s, t in zip(paused, texts)]
        for seq, step in zip(paused, steps):
            seq.env_reward += step.reward
            seq.state = "running"
            if step.observation:
                self._append_observation(seq, step.observation, budget)
            if step.done and seq.state == "running":
                seq.state, seq.finish = "done", "stop"

    def _append_observation(self, seq: _Seq, observation: str, budget: int) -> None:
        """Observation ids from tokenising the observation alone; mask False, logp 0.0."""
        obs_ids = self.tokenizer(observation, add_special_tokens=False)["input_ids"]
        room = budget - len(seq.ids)
        kept = obs_ids[:room]
        seq.ids += kept
        seq.logp += [0.0] * len(kept)
        seq.mask += [False] * len(kept)
        seq.pending = []
        if len(seq.ids) >= budget:
            seq.state, seq.finish = "done", "length"

    def _completion(self, seq: _Seq) -> Completion:
        shown = seq.ids[:-1] if seq.ends_with_eos else seq.ids
        return Completion(
            prompt_ids=seq.prompt_ids, token_ids=seq.ids, sampler_logp=seq.logp, loss_mask=seq.mask,
            finish_reason=seq.finish, text=self.tokenizer.decode(shown, skip_special_tokens=False),
            policy_version=seq.version, tool_calls=seq.env.calls, tool_errors=seq.env.errors,
        )
