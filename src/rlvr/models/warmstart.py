"""Supervised warm-start of the tiny model, cached by its config.

RL needs a policy that is sometimes right: a random model never samples a correct
answer, every group has zero variance and GRPO has no gradient. A short supervised pass
on reference scratchpads (loss on completion tokens only) gives a base whose held-out
pass@1 sits in the middle. The result is saved in Hugging Face format under
``<cache>/base-<hash>``, the hash covering every input that changes the weights, and
written to a temporary folder first, then renamed, so a crash never leaves a half
cache entry.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import time
from pathlib import Path

import torch

from rlvr.models.tiny import TinyShape, build_char_tokenizer, build_tiny_model, save_pretrained

CACHE_VERSION = 1


def cache_root(configured: str | None) -> Path:
    return Path(configured or os.environ.get("RLVR_CACHE") or Path.home() / ".cache" / "rlvr")


def cache_key(model_cfg: dict, task_cfg: dict, seed: int) -> str:
    blob = json.dumps({"v": CACHE_VERSION, "model": model_cfg, "task": task_cfg, "seed": seed}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def completion_ids(tokenizer, completion) -> tuple[list[int], list[int]]:
    """(ids, labels) of a completion plus EOS. A completion is a string (all trained on) or a
    list of (text, trained) segments, each tokenized alone, as the tool-call loop builds a
    response; untrained segments (tool output) get labels -100."""
    segments = [(completion, True)] if isinstance(completion, str) else completion
    ids: list[int] = []
    labels: list[int] = []
    for text, trained in segments:
        seg = tokenizer(text)["input_ids"]
        ids += seg
        labels += seg if trained else [-100] * len(seg)
    return ids + [tokenizer.eos_token_id], labels + [tokenizer.eos_token_id]


def encode_pairs(tokenizer, prompts: list[str], completions: list):
    """Right-padded (ids, attention, labels) with labels -100 outside the completion
    (and on untrained segments, see ``completion_ids``)."""
    rows = []
    for p, c in zip(prompts, completions):
        pi = tokenizer(p)["input_ids"]
        ci, cl = completion_ids(tokenizer, c)
        rows.append((pi + ci, [-100] * len(pi) + cl))
    width = max(len(r[0]) for r in rows)
    ids = torch.full((len(rows), width), tokenizer.pad_token_id, dtype=torch.long)
    labels = torch.full((len(rows), width), -100, dtype=torch.long)
    attn = torch.zeros((len(rows), width), dtype=torch.long)
    for i, (x, y) in enumerate(rows):
        ids[i, : len(x)] = torch.tensor(x)
        labels[i, : len(y)] = torch.tensor(y)
        attn[i, : len(x)] = 1
    return ids, attn, labels


def supervised_steps(model, tokenizer, make_batch, steps: int, lr: float, log_every: int = 50, progress=None):
    """Plain next-token training on (prompt, completion) pairs from ``make_batch(step)``."""
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 20) * max(0.1, 1 - s / max(steps, 1)))
    model.train()
    loss_val = float("nan")
    for step in range(steps):
        prompts, completions = make_batch(step)
        ids, attn, labels = encode_pairs(tokenizer, prompts, completions)
        loss = model(input_ids=ids, attention_mask=attn, labels=labels).loss
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        loss_val = loss.item()
        if progress is not None:
            progress(step + 1, steps, loss_val)
    return loss_val


def warmstart_tiny(model_cfg: dict, task, task_cfg: dict, seed: int, cache_dir: str | None,
                   reference_fn, log=print, late_reference_fn=None, late_steps: int = 0) -> Path:
    """Return the directory of the warm-started base, training it if not cached.

    With ``late_reference_fn``, the last ``late_steps`` steps imitate its references instead of
    ``reference_fn``'s (the caller keys both in ``task_cfg``)."""
    key = cache_key(model_cfg, task_cfg, seed)
    final = cache_root(cache_dir) / f"base-{key}"
    if (final / "config.json").is_file():
        log(f"warm-start: cached base {final}")
        return final
    t0 = time.time()
    tokenizer = build_char_tokenizer()
    shape = TinyShape(arch=model_cfg["arch"], hidden=model_cfg["hidden"], layers=model_cfg["layers"],
                      heads=model_cfg["heads"], intermediate=model_cfg["intermediate"],
                      tie_embeddings=model_cfg.get("tie_embeddings", True))
    model = build_tiny_model(tokenizer, shape, seed=seed)
    rng = random.Random(f"warmstart:{seed}")
    batch = model_cfg["warmstart_batch"]
    late_from = model_cfg["warmstart_steps"] - late_steps if late_reference_fn is not None else None

    def make_batch(step):
        samples = [task.train_sample(10_000_000 + rng.randrange(10_000_000)) for _ in range(batch)]
        ref = late_reference_fn if late_from is not None and step >= late_from else reference_fn
        return [s.prompt for s in samples], [ref(s) for s in samples]

    def progress(step, total, loss):
        if step % 50 == 0 or step == total:
            log(f"warm-start: step {step}/{total} loss {loss:.3f}")

    supervised_steps(model, tokenizer, make_batch, model_cfg["warmstart_steps"], model_cfg["warmstart_lr"],
                     progress=progress)
    tmp = final.with_name(final.name + f".tmp{os.getpid()}")
    save_pretrained(model, tokenizer, tmp)
    (tmp / "rlvr_warmstart.json").write_text(json.dumps({"model": model_cfg, "task": task_cfg, "seed": seed,
                                                         "seconds": time.time() - t0}, indent=2))
    if final.exists():  # another process won the race; theirs is as good as ours
        shutil.rmtree(tmp)
    else:
        os.replace(tmp, final)
    log(f"warm-start: trained in {time.time() - t0:.1f}s, cached at {final}")
    return final
