"""Data-parallel training: ranks, the cross-rank loss normaliser, model wrapping, rank-0 duties.

Launch: ``torchrun --nproc-per-node N -m rlvr.cli train ...`` (torchrun sets RANK/WORLD_SIZE),
or ``train.ray_ranks=N`` (``launch_with_ray`` starts N Ray actors that set those variables
and call ``train``). Without either, ``setup`` returns a world of one and every helper
here is the identity, so the single-process loop is untouched.

How a step is split. Every rank draws the same global step (``prompts_per_step`` prompts at
the same data position) and keeps its own contiguous share of whole groups
(``ShardedTask``), so group advantages are computed exactly on each rank. Loss exactness:
a rank's loss is ``numerator_r / D`` with ``D = sum_r normaliser_r`` (``reduce_normalizer``,
one all-reduce per minibatch), and gradients are *summed* over ranks (``sync_grads``), so
the result is ``sum_r grad numerator_r / sum_r normaliser_r``: the gradient of the
one-process loss on the global batch, whatever the number of ranks (tested to 1e-6 on CPU
with gloo, micro-batching included). With ``algo.minibatches > 1`` each rank shuffles its
own rows, so minibatches are not the ones a single process would draw.

Rank duties: rank 0 writes the run directory (config, metrics, samples, checkpoints,
summary, report); held-out evaluation is split across ranks and summed. Training metrics
logged by rank 0 describe rank 0's share of the batch (its rewards, lengths, loss stats).

Strategies (``train.dp``):
- ``ddp``: every rank holds the whole model (rank 0's parameters are broadcast at start)
  and gradients are summed with one flat all-reduce per optimizer step (gloo on CPU, nccl
  on GPU). Departure: this is DDP's semantics without torch's ``DistributedDataParallel``
  wrapper, whose per-backward hooks need every rank to run the same number of backward
  passes; here ranks may not (the update skips rows whose advantage is zero).
- ``fsdp2``: rank 0's weights broadcast, then ``fully_shard`` on every decoder layer and the
  root; every FSDP module sums gradients over ranks (divide factor 1, sum-only collectives,
  which gloo needs: it has no PREMUL_SUM or AVG), zero-row skipping off so the update's
  forward all-gathers stay in lockstep. Generation through the trainer's own model (the
  ``hf`` backend) and held-out evaluation run inside ``full_params``: every layer is
  all-gathered once (the same collectives on every rank) and generation itself runs no
  collective, so ranks may run different numbers of forward calls. Checkpoints gather full
  model and optimizer state dicts on every rank; rank 0 writes them. Tested on CPU with
  gloo against one process (tests/scale/test_fsdp2.py); with nccl not yet run (tests/gpu).

Not supported with several ranks (``validate`` says so): DAPO dynamic sampling (ranks would
keep different numbers of groups), batch-scope advantages (they need global statistics),
async mode, resuming with a different number of ranks; with ``fsdp2`` also LoRA and
``algo.ref_update_every``.
"""

from __future__ import annotations

import atexit
import dataclasses
import os
from contextlib import contextmanager
from dataclasses import dataclass

import torch

from rlvr.errors import ConfigError


def _dist():
    import torch.distributed as dist

    return dist


def is_main() -> bool:
    dist = _dist()
    return not (dist.is_available() and dist.is_initialized()) or dist.get_rank() == 0


@dataclass
class DistContext:
    """Where this process stands; a world of one makes every method the identity."""

    rank: int = 0
    world: int = 1
    local_rank: int = 0

    @property
    def is_main(self) -> bool:
        return self.rank == 0

    def _comm_device(self) -> torch.device:
        if _dist().get_backend() == "nccl":
            return torch.device("cuda", torch.cuda.current_device())
        return torch.device("cpu")

    def reduce_normalizer(self, x: torch.Tensor) -> torch.Tensor:
        """Sum over ranks of a minibatch's loss normaliser: the denominator every rank divides by."""
        if self.world == 1:
            return x
        t = torch.as_tensor(x, dtype=torch.float64).detach().clone().to(self._comm_device())
        _dist().all_reduce(t)
        return t.to(torch.float32).cpu()

    def sync_grads(self, model) -> None:
        """Sum the gradients of ``model``'s trainable parameters over ranks (one flat all-reduce)."""
        if self.world == 1:
            return
        params = [p for p in model.parameters() if p.requires_grad]
        for p in params:
            if p.grad is None:  # this rank ran no row of the minibatch
                p.grad = torch.zeros_like(p)
        flat = torch.cat([p.grad.reshape(-1) for p in params])  # (sum of numels,)
        _dist().all_reduce(flat)
        offset = 0
        for p in params:
            p.grad.copy_(flat[offset:offset + p.numel()].view_as(p.grad))
            offset += p.numel()

    def update_kwargs(self, strategy: str) -> dict:
        """What ``update_policy`` needs to be exact across ranks (nothing for a world of one)."""
        if self.world == 1:
            return {}
        if strategy == "fsdp2":  # FSDP reduces gradients itself; forwards must stay in lockstep
            return {"reduce": self.reduce_normalizer, "skip_zero_rows": False}
        return {"reduce": self.reduce_normalizer, "sync_grads": self.sync_grads}

    def all_reduce_sum(self, values: list[float]) -> list[float]:
        if self.world == 1:
            return list(values)
        t = torch.tensor(values, dtype=torch.float64, device=self._comm_device())
        _dist().all_reduce(t)
        return t.cpu().tolist()

    def barrier(self) -> None:
        if self.world > 1:
            _dist().barrier()

    def main_first(self, fn):
        """Run ``fn`` on rank 0 first (e.g. a cached warm-start), then on the others."""
        if self.is_main:
            out = fn()
            self.barrier()
            return out
        self.barrier()
        return fn()

    def wrap_evaluate(self, evaluate, model=None):
        """``evaluate(rollout, tokenizer, samples, rewarder, cfg)`` over this rank's share, summed over
        ranks. ``model``: the trainer's policy; under FSDP2 its weights are gathered for the whole
        evaluation (ranks' shares differ in size, so per-call gathers would not pair up)."""
        if self.world == 1:
            return evaluate

        def sharded(rollout, tokenizer, samples, rewarder, cfg, progress=None) -> dict:
            part = samples[self.rank::self.world]
            with full_params(model):
                ev = (evaluate(rollout, tokenizer, part, rewarder, cfg, progress=progress) if part
                      else {"pass@1": 0.0, "eval/len_mean": 0.0})
            p1, length, n = self.all_reduce_sum([ev["pass@1"] * len(part), ev["eval/len_mean"] * len(part), len(part)])
            return {"pass@1": p1 / max(n, 1), "eval/len_mean": length / max(n, 1)}

        return sharded

    def reseed(self, gen: torch.Generator, seed: int, step: int) -> None:
        """Give each rank its own sampling stream (a world of one keeps the checkpointed one)."""
        if self.world > 1:
            gen.manual_seed(seed * 1_000_003 + step * 1_009 + self.rank)

    def check_resume(self, saved: int) -> None:
        """``saved``: the number of ranks the checkpoint was written with."""
        if saved != self.world:
            raise ConfigError(f"this run was checkpointed with {saved} rank(s) and is resumed with {self.world}; "
                              f"resume with the same number of ranks (the data position is per rank)")


# ---------------------------------------------------------------- set-up
def validate(cfg, world: int) -> None:
    """Configurations that cannot be split across ranks exactly."""
    P = cfg.rollout.prompts_per_step
    if P % world:
        raise ConfigError(f"rollout.prompts_per_step={P} is not divisible by the {world} ranks;"
                          " each rank takes whole groups")
    if cfg.algo.dynamic_sampling:
        raise ConfigError("algo.dynamic_sampling is not supported with several ranks (ranks would keep different "
                          "numbers of groups); set algo.dynamic_sampling=false")
    if cfg.algo.adv_scope == "batch" or (cfg.algo.advantage == "reinforce"
                                         and cfg.algo.reinforce_baseline == "batch_mean"):
        raise ConfigError("batch-scope advantages need global reward statistics;"
                          " with several ranks use adv_scope=group")
    if cfg.train.mode == "async":
        raise ConfigError("train.mode=async runs one trainer rank; launch it without torchrun / train.ray_ranks")
    if cfg.algo.advantage == "gae":
        raise ConfigError("algo.advantage=gae (the PPO critic) is not supported with several ranks")
    if cfg.train.dp == "fsdp2" and cfg.model.lora_r:
        raise ConfigError(f"train.dp=fsdp2 does not shard LoRA adapters (model.lora_r={cfg.model.lora_r}); "
                          f"use train.dp=ddp or model.lora_r=0")
    if cfg.train.dp == "fsdp2" and cfg.algo.ref_update_every:
        raise ConfigError(f"algo.ref_update_every={cfg.algo.ref_update_every} copies the policy's state dict into "
                          f"the reference, which train.dp=fsdp2 shards; use train.dp=ddp or algo.ref_update_every=0")


def _shutdown() -> None:
    dist = _dist()
    if dist.is_initialized():
        dist.destroy_process_group()


def setup(cfg) -> DistContext:
    """Join the process group that torchrun (or ``launch_with_ray``) described in the environment."""
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world == 1:
        return DistContext()
    validate(cfg, world)
    rank, local = int(os.environ["RANK"]), int(os.environ.get("LOCAL_RANK", "0"))
    use_cuda = torch.cuda.is_available() and cfg.model.device != "cpu"
    if use_cuda:
        torch.cuda.set_device(local)
    dist = _dist()
    if not dist.is_initialized():
        dist.init_process_group(backend="nccl" if use_cuda else "gloo")
        atexit.register(_shutdown)
    if not use_cuda and not cfg.threads:  # share the cores between the ranks of this node
        per_node = int(os.environ.get("LOCAL_WORLD_SIZE", str(world)))
        torch.set_num_threads(max(1, (os.cpu_count() or 1) // per_node))
    return DistContext(rank=rank, world=world, local_rank=local)


def local_config(cfg, ctx: DistContext):
    """The config a rank collects its share of a step with (prompts_per_step / world)."""
    if ctx.world == 1:
        return cfg
    rollout = dataclasses.replace(cfg.rollout, prompts_per_step=cfg.rollout.prompts_per_step // ctx.world)
    return dataclasses.replace(cfg, rollout=rollout)


class ShardedTask:
    """This rank's contiguous share of every step: local position p maps to global p * world + rank * n."""

    def __init__(self, task, ctx: DistContext):
        self.task, self.ctx = task, ctx

    def __getattr__(self, name):
        return getattr(self.task, name)

    def train_batch(self, start: int, n: int):
        return self.task.train_batch(start * self.ctx.world + self.ctx.rank * n, n)


def shard_task(task, ctx: DistContext):
    return task if ctx.world == 1 else ShardedTask(task, ctx)


# ---------------------------------------------------------------- models
def wrap_model(model, ctx: DistContext, strategy: str = "ddp"):
    """Prepare ``model`` for data-parallel updates (in place; returned for clarity)."""
    if ctx.world == 1:
        return model
    if strategy not in ("ddp", "fsdp2"):
        raise ConfigError(f"unknown train.dp {strategy!r}; valid: ddp, fsdp2")
    with torch.no_grad():
        for t in list(model.parameters()) + list(model.buffers()):
            _dist().broadcast(t, src=0)  # every rank starts from rank 0's weights
    return model if strategy == "ddp" else shard_fsdp2(model)


def shard_fsdp2(model):
    """``fully_shard`` every decoder layer and the root over the default process group, each
    FSDP module summing its gradients over ranks (in place; returned for clarity)."""
    from torch.distributed.fsdp import FSDPModule, fully_shard

    layer_types = set(getattr(model, "_no_split_modules", None) or [])
    for m in model.modules():
        if type(m).__name__ in layer_types:
            fully_shard(m)
    fully_shard(model)
    for m in model.modules():  # each fully_shard'ed module reduces its own gradients
        if isinstance(m, FSDPModule):
            m.set_gradient_divide_factor(1.0)  # sum over ranks; the loss normaliser is already global
            m.set_force_sum_reduction_for_comms(True)  # plain SUM: gloo has no PREMUL_SUM (nor AVG)
    return model


def _fsdp_modules(model) -> list:
    from torch.distributed.fsdp import FSDPModule

    return [m for m in model.modules() if isinstance(m, FSDPModule)] if model is not None else []


@contextmanager
def full_params(model):
    """Hold ``model``'s parameters unsharded (FSDP2) so that forwards run no collective.

    Entering all-gathers every FSDP module once, in module order (the same collectives on
    every rank); inside, ranks may run any number of forwards (hf generation stops when its
    rows finish). Leaving reshards and clears FSDP's per-iteration records of those
    forwards. Nested uses gather once; for any other model this does nothing."""
    mods = _fsdp_modules(model)
    if not mods or getattr(model, "_rlvr_full_params", False):
        yield model
        return
    model._rlvr_full_params = True
    try:
        for m in mods:
            m.set_reshard_after_forward(False, recurse=False)
            m.unshard()
        yield model
    finally:
        for m in mods:
            m.set_reshard_after_forward(True, recurse=False)
        model.reset_iter_state()  # reshard every group, forget the forwards' prefetch order
        model._rlvr_full_params = False


class FullParamsRollout:
    """A rollout backend that generates with the trainer's own model, under ``full_params``."""

    def __init__(self, rollout, model):
        self.rollout, self.model = rollout, model

    def __getattr__(self, name):
        return getattr(self.rollout, name)

    def generate(self, *args, **kwargs):
        with full_params(self.model):
            return self.rollout.generate(*args, **kwargs)


def for_generation(rollout, model, backend: str):
    """``rollout``, made safe under FSDP2 when it forwards through ``model`` (the hf backend)."""
    if backend == "hf" and _fsdp_modules(model):
        return FullParamsRollout(rollout, model)
    return rollout


def unwrap(model):
    return getattr(model, "module", model)


def _is_fsdp2(model) -> bool:
    from torch.distributed.fsdp import FSDPModule

    return isinstance(model, FSDPModule)


class _FullStateModel:
    """``save_pretrained`` with a gathered full state dict (FSDP2)."""

    def __init__(self, model, state_dict):
        self.model, self.state_dict = model, state_dict

    def save_pretrained(self, path, **kwargs):
        self.model.save_pretrained(path, state_dict=self.state_dict, **kwargs)


def saveable(model):
    """What ``save_pretrained`` is called on. Under FSDP2 every rank must call this (it gathers)."""
    if not _is_fsdp2(model):
        return unwrap(model)
    from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict

    sd = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
    return _FullStateModel(model, sd)


def optimizer_state(model, optimizer) -> dict:
    if not _is_fsdp2(model):
        return optimizer.state_dict()
    from torch.distributed.checkpoint.state_dict import StateDictOptions, get_optimizer_state_dict

    return get_optimizer_state_dict(model, optimizer, options=StateDictOptions(full_state_dict=True, cpu_offload=True))


def load_optimizer_state(model, optimizer, state: dict) -> None:
    if not _is_fsdp2(model):
        optimizer.load_state_dict(state)
        return
    from torch.distributed.checkpoint.state_dict import StateDictOptions, set_optimizer_state_dict

    set_optimizer_state_dict(model, optimizer, optim_state_dict=state, options=StateDictOptions(full_state_dict=True))


# ---------------------------------------------------------------- rank 0 writes the run directory
class _NullProgress:
    bar = None

    def update(self, metrics: dict, pass1) -> None:
        pass

    def close(self) -> None:
        pass


class NullRunLog:
    """The run log of ranks other than 0: accepts everything, writes nothing."""

    def progress(self, total: int, initial: int):
        return _NullProgress()

    def log(self, row: dict) -> None:
        pass

    def write_samples(self, step: int, data, every_row: bool = False) -> None:
        pass

    def write_report(self):
        return None

    def close(self) -> None:
        pass


# ---------------------------------------------------------------- launching ranks as Ray actors
class _RankActor:
    """One trainer rank in a Ray actor: sets torchrun's variables, then runs ``module:function``."""

    def node(self) -> tuple[str, str, str]:
        import socket

        import ray

        with socket.socket() as s:
            s.bind(("", 0))
            port = s.getsockname()[1]
        return ray.util.get_node_ip_address(), str(port), ray.get_runtime_context().get_node_id()

    def run(self, target: str, cfg_dict: dict, resume: bool, env: dict):
        import importlib

        os.environ.update(env)
        module, fn = target.split(":")
        from rlvr.config import config_from_dict

        out = getattr(importlib.import_module(module), fn)(config_from_dict(cfg_dict), resume)
        if _dist().is_initialized():
            _dist().destroy_process_group()
        return out


def launch_with_ray(cfg, resume: bool = False, target: str = "rlvr.train.loop:train") -> list:
    """Start ``train.ray_ranks`` rank actors (one GPU each when CUDA is visible) and wait for them."""
    import ray

    world = cfg.train.ray_ranks
    if not ray.is_initialized():
        ray.init(address=cfg.train.ray_address, include_dashboard=False)
    gpus = 1 if torch.cuda.is_available() and cfg.model.device != "cpu" else 0
    actor_cls = ray.remote(_RankActor)
    actors = [actor_cls.options(num_gpus=gpus, num_cpus=0 if not gpus else 1).remote() for _ in range(world)]
    nodes = ray.get([a.node.remote() for a in actors])
    master_ip, master_port = nodes[0][0], nodes[0][1]
    per_node: dict[str, int] = {}
    local_ranks = []
    for _, _, node_id in nodes:
        local_ranks.append(per_node.get(node_id, 0))
        per_node[node_id] = local_ranks[-1] + 1
    refs = []
    for rank, (a, (_, _, node_id)) in enumerate(zip(actors, nodes)):
        env = {"MASTER_ADDR": master_ip, "MASTER_PORT": master_port, "RANK": str(rank), "WORLD_SIZE": str(world),
               "LOCAL_RANK": "0" if gpus else str(local_ranks[rank]), "LOCAL_WORLD_SIZE": str(per_node[node_id])}
        refs.append(a.run.remote(target, cfg.to_dict(), resume, env))
    try:
        return ray.get(refs)
    finally:
        for a in actors:
            ray.kill(a)


def probe(cfg, resume: bool = False) -> dict:
    """A rank's view of the group (for tests of the launchers): rank, world and an all-reduced sum of ranks."""
    ctx = setup(cfg)
    total = ctx.all_reduce_sum([float(ctx.rank)])[0]
    return {"rank": ctx.rank, "world": ctx.world, "rank_sum": total}
