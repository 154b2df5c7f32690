"""One policy update on a fixed global batch, on one rank of a data-parallel group (or alone).

Run by tests/scale/test_data_parallel.py (``ddp``) and tests/scale/test_fsdp2.py (``fsdp2``)
under ``torchrun --nproc-per-node 2``: ``dp_worker.py OUT [STRATEGY]``; each rank saves
the summed gradient the optimizer saw and the global loss (summed over ranks) to
``<out>/rank<r>.pt``. The test compares them with ``run_case`` called in one process on the
whole batch. The batch is built so that ranks do unequal work: in layout ``skewed`` every
group of rank 1 has equal rewards (zero advantage), so rank 1 runs no forward pass at all.

``RLVR_DP_DEVICE=cuda`` runs it on GPUs (nccl; tests/gpu). Under ``fsdp2`` a world of one
still shards, over a process group of one: what a single GPU can check of FSDP2.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import torch

G = 3
LAYOUTS = {"skewed": [[1, 0, 0], [0, 0, 0], [1, 1, 1], [0, 0, 0]],
           "mixed": [[1, 0, 0], [0, 1, 1], [1, 0, 1], [0, 0, 1]]}
CASES = {  # algorithm knobs: the three loss aggregations, gradient clipping; micro-batches of 2 rows
    "dr_grpo": ["algo.name=dr_grpo"],
    "token_mean": ["algo.name=grpo", "algo.kl_coef=0", "algo.loss_agg=token_mean"],
    "seq_mean_token_mean": ["algo.name=grpo", "algo.kl_coef=0", "algo.tis_cap=2.0"],
    "clipped": ["algo.name=dr_grpo", "train.grad_clip=0.005"],  # below the gradient's norm: clipping acts
}


SHARD_ALONE = [False]  # set by main: fully_shard even in a world of one


def device_name() -> str:
    return os.environ.get("RLVR_DP_DEVICE", "cpu")


SHAPES = {"ddp": dict(hidden=32, layers=1, heads=2, intermediate=64),
          "fsdp2": dict(hidden=32, layers=2, heads=2, intermediate=64)}  # 3 FSDP groups: 2 layers and the root


def full(t: torch.Tensor) -> torch.Tensor:
    """The whole tensor: a DTensor's shards gathered (every rank must call), else ``t``."""
    return t.full_tensor() if hasattr(t, "full_tensor") else t


class Recorder:
    """Stands in for the optimizer: keeps the gradient it is stepped with, changes no weight."""

    def __init__(self, params):
        self.params = list(params)
        self.grads = []

    def step(self):  # FSDP2's sharded gradients are gathered (a collective: every rank steps)
        self.grads.append(torch.cat([full(p.grad).reshape(-1).cpu() for p in self.params]))

    def zero_grad(self, set_to_none=True):
        for p in self.params:
            p.grad = None


def config(case: str):
    from rlvr.config import load_config

    return load_config(preset="smoke", overrides=["train.grad_clip=0", "train.micro_batch_size=2",
                                                  f"model.device={device_name()}", "rollout.prompts_per_step=4",
                                                  f"rollout.group_size={G}", *CASES[case]])


def global_batch(tokenizer, layout: str):
    """4 groups x 3 completions of different lengths with fixed rewards and sampler log-probs."""
    from rlvr.train.rollouts import StepData
    from rlvr.types import Completion, Sample, Verdict

    gen = torch.Generator().manual_seed(7)
    comps, samples, rewards = [], [], []
    for g, group in enumerate(LAYOUTS[layout]):
        prompt = tokenizer(f"{g}+{g}=?", add_special_tokens=False)["input_ids"]
        for j, r in enumerate(group):
            n = 3 + (5 * g + 3 * j) % 7
            ids = torch.randint(3, 40, (n,), generator=gen).tolist()
            logp = (-torch.rand(n, generator=gen) * 3).tolist()
            comps.append(Completion(prompt, ids, logp, [True] * n, "length", "x"))
            samples.append(Sample(f"s{g}", "p"))
            rewards.append(float(r))
    r = torch.tensor(rewards)
    verdicts = [Verdict(x, "ok" if x else "wrong") for x in rewards]
    return StepData(samples, comps, verdicts, r, torch.arange(4).repeat_interleave(G), r)


def shard(data, rank: int, world: int):
    """Rank ``rank``'s contiguous share of whole groups (as ShardedTask gives it)."""
    from rlvr.train.rollouts import StepData

    per = len(data.completions) // world
    sl = slice(rank * per, (rank + 1) * per)
    return StepData(data.samples[sl], data.completions[sl], data.verdicts[sl], data.rewards[sl], data.group_ids[sl],
                    data.raw_rewards[sl])


def build(ctx, strategy: str):
    from rlvr.models.tiny import TinyShape, build_char_tokenizer, build_tiny_model
    from rlvr.train.distributed import shard_fsdp2, wrap_model

    tok = build_char_tokenizer()
    model = build_tiny_model(tok, TinyShape(**SHAPES[strategy]), seed=0)
    if device_name() == "cuda":
        model = model.to(f"cuda:{ctx.local_rank}")
    if strategy == "fsdp2" and ctx.world == 1 and SHARD_ALONE[0]:
        return shard_fsdp2(model), tok
    return wrap_model(model, ctx, strategy), tok


def generate_unevenly(model, tok, ctx) -> bool:
    """Greedy generation of a different length on each rank, as the hf backend does under FSDP2;
    True when every parameter is sharded again afterwards."""
    from rlvr.train.distributed import full_params

    ids = torch.tensor([tok("1+1=?", add_special_tokens=False)["input_ids"]], device=next(model.parameters()).device)
    with full_params(model), torch.no_grad():
        model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=2 + 5 * ctx.rank, do_sample=False,
                       pad_token_id=tok.pad_token_id)
    return all(hasattr(p, "full_tensor") for p in model.parameters())


def run_case(ctx, case: str, layout: str, strategy: str = "ddp", optimizer=None) -> tuple[torch.Tensor, float]:
    """The summed gradient the optimizer saw and the global loss. ``optimizer(params)``: a real
    optimizer to step instead of the recording one (the gradient is then not returned)."""
    from rlvr import algo
    from rlvr.train.batch import collate
    from rlvr.train.forward import response_logits, token_logp
    from rlvr.train.update import Learner, loss_knobs, update_policy

    cfg = config(case)
    model, tok = build(ctx, strategy)
    sharded = hasattr(next(model.parameters()), "full_tensor")
    if sharded and not generate_unevenly(model, tok, ctx):
        raise AssertionError("a parameter was left unsharded after generation under full_params")
    data = shard(global_batch(tok, layout), ctx.rank, ctx.world)
    opt = Recorder(model.parameters()) if optimizer is None else optimizer(model.parameters())
    update_policy(Learner(model, opt, pad_id=tok.pad_token_id), data, cfg, torch.Generator().manual_seed(0),
                  **ctx.update_kwargs(strategy))
    if optimizer is not None:
        return model, opt
    # the loss itself: this rank's numerator over the global normaliser, summed over ranks
    batch = collate(data.completions, tok.pad_token_id)
    knobs = loss_knobs(cfg)
    with torch.no_grad():
        logp = token_logp(response_logits(model, batch), batch.response_ids)
        adv = algo.group_advantages(data.rewards, data.group_ids, cfg.algo.advantage, std=cfg.algo.std,
                                    eps=cfg.algo.adv_eps)
        norm = ctx.reduce_normalizer(algo.loss_normalizer(batch.loss_mask, cfg.algo.loss_agg, knobs["max_len"]))
        loss, _ = algo.policy_loss(logp, logp, adv, batch.loss_mask, algorithm=cfg.algo.name,
                                   sampler_logp=batch.sampler_logp, normalizer=norm, **knobs)
    return opt.grads[0], ctx.all_reduce_sum([float(loss)])[0]


def sliced_case(ctx, strategy: str) -> tuple[torch.Tensor, torch.Tensor]:
    """Log-probabilities of this rank's rows and the gathered gradient of their sum over ranks,
    through ``response_logp_entropy``'s sliced path where the model allows it (``max_logits=1``:
    what a large vocabulary or bf16 training selects)."""
    from rlvr.train.batch import collate
    from rlvr.train.forward import response_logp_entropy

    model, tok = build(ctx, strategy)
    data = shard(global_batch(tok, "mixed"), ctx.rank, ctx.world)
    batch = collate(data.completions, tok.pad_token_id)
    logp, _ = response_logp_entropy(model, batch, 1.0, max_logits=1)
    logp = logp * batch.loss_mask  # the sliced path scores only the tokens that count
    logp.sum().backward()
    return logp.detach().cpu(), torch.cat([full(p.grad).reshape(-1).cpu() for p in model.parameters()])


def export_case(ctx, strategy: str, out: Path | None = None) -> tuple[dict, dict]:
    """One step of SGD with momentum on the ``mixed`` dr_grpo batch, then what a checkpoint and a
    weight push read: ``trainer_weights`` (the vLLM push) and the full optimizer state, by name;
    rank 0 also writes ``saveable(model)`` to ``out/export`` as a checkpoint does."""
    from rlvr.rollout.vllm import trainer_weights
    from rlvr.train.distributed import optimizer_state, saveable

    model, opt = run_case(ctx, "dr_grpo", "mixed", strategy,
                          optimizer=lambda ps: torch.optim.SGD(ps, lr=0.5, momentum=0.9))
    weights = {name: t.cpu().clone() for name, t in trainer_weights(model)}
    state = optimizer_state(model, opt).get("state", {})  # gathered to rank 0 only (cpu_offload)
    names = [n for n, _ in model.named_parameters()]  # one process: the state is keyed by position
    momentum = {names[k] if isinstance(k, int) else k: v["momentum_buffer"].cpu() for k, v in state.items()}
    target = saveable(model)  # gathers under FSDP2: every rank calls
    if out is not None and ctx.is_main:
        target.save_pretrained(out / "export")
    return weights, momentum


def main(out: Path, strategy: str) -> None:
    from rlvr.train.distributed import setup

    ctx = setup(config("dr_grpo"))
    if strategy == "fsdp2" and ctx.world == 1:  # a group of one to shard over
        import torch.distributed as dist

        SHARD_ALONE[0] = True
        dist.init_process_group("nccl" if device_name() == "cuda" else "gloo")
    extra = {}
    if strategy == "fsdp2":
        extra = {"export": export_case(ctx, strategy, out), "sliced": sliced_case(ctx, strategy)}
    results = {(case, layout): run_case(ctx, case, layout, strategy) for case in CASES for layout in LAYOUTS}
    torch.save({"world": ctx.world, "results": results, **extra}, out / f"rank{ctx.rank}.pt")


if __name__ == "__main__":
    torch.set_num_threads(1)
    main(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "ddp")
