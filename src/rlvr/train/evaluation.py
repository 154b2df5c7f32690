"""Held-out evaluation: sample n completions per problem and verify them with the run's reward.

Used by the training loop (base, periodic and final pass@1) and by ``rlvr eval`` (pass@k,
maj@k). Majority voting groups completions by ``Verdict.answer``, the answer the verifier
itself graded, so votes and grades come from one extraction (with n = 1, maj@1 = pass@1).
"""

from __future__ import annotations

import sys
import time

from rlvr.config import Config
from rlvr.rollout.prompts import render_prompt
from rlvr.types import Sample, SamplingParams


def eval_sampling(cfg: Config, n: int, temperature: float) -> SamplingParams:
    return SamplingParams(max_new_tokens=cfg.eval.max_new_tokens or cfg.rollout.max_new_tokens,
                          temperature=temperature, top_p=1.0 if temperature == 0 else cfg.rollout.top_p, n=n)


def eval_bar(total: int, label: str | None):
    """A tqdm bar over the problems of an evaluation (on standard error), or None without a label."""
    if label is None:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=label, unit="problem", dynamic_ncols=True, file=sys.stderr, leave=False,
                mininterval=0, miniters=1)  # about ten updates: each is shown, the last (all done) too


def evaluate_samples(rollout, tokenizer, samples: list[Sample], rewarder, cfg: Config,
                     n: int | None = None, temperature: float | None = None, chunk: int = 100,
                     progress: str | None = None) -> dict:
    """Sample n completions per held-out problem and verify them; with ``progress`` (the bar's
    label), a progress bar counts the problems done (in chunks of at most a tenth of them).

    Returns ``pass@1`` (mean success over the n samples, averaged over problems),
    ``eval/len_mean``, ``by_kind`` (pass@1 over the problems of each ``fields["kind"]``, for
    tasks that mix kinds such as ``chat_arithmetic``'s operations; empty otherwise), and one row
    per problem of ``correct`` (bools), ``answers`` (the
    graded answers, for maj@k), ``texts``, ``statuses`` and ``details`` (an error verdict's
    detail, else "").
    """
    n = n or cfg.eval.samples
    temp = cfg.eval.temperature if temperature is None else temperature
    sp = eval_sampling(cfg, n, temp)
    out: dict = {"correct": [], "answers": [], "texts": [], "statuses": [], "details": []}
    lengths = []
    bar = eval_bar(len(samples), progress)
    if bar is not None:
        chunk = min(chunk, max(8, -(-len(samples) // 10)))
    for i in range(0, len(samples), chunk):
        part = samples[i:i + chunk]
        comps = rollout.generate([render_prompt(tokenizer, s, cfg) for s in part], sp)
        verdicts = rewarder(comps, [s for s in part for _ in range(n)])
        for j in range(len(part)):
            vs, cs = verdicts[j * n:(j + 1) * n], comps[j * n:(j + 1) * n]
            out["correct"].append([v.status == "ok" for v in vs])
            out["answers"].append([v.answer for v in vs])
            out["texts"].append([c.text for c in cs])
            out["statuses"].append([v.status for v in vs])
            out["details"].append([v.detail if v.status == "error" else "" for v in vs])
        lengths += [len(c.token_ids) for c in comps]
        if bar is not None:
            bar.update(len(part))
    if bar is not None:
        bar.close()
    out["pass@1"] = sum(sum(c) / len(c) for c in out["correct"]) / max(len(out["correct"]), 1)
    out["eval/len_mean"] = sum(lengths) / max(len(lengths), 1)
    out["by_kind"] = pass_at_1_by_kind(samples, out["correct"])
    return out


def pass_at_1_by_kind(samples: list[Sample], correct: list[list[bool]]) -> dict[str, float]:
    """pass@1 per ``fields["kind"]`` when the problems carry more than one kind, else ``{}``."""
    groups: dict[str, list[float]] = {}
    for s, c in zip(samples, correct):
        kind = (s.fields or {}).get("kind")
        if isinstance(kind, str) and kind:
            groups.setdefault(kind, []).append(sum(c) / len(c))
    if len(groups) < 2:
        return {}
    return {k: sum(v) / len(v) for k, v in sorted(groups.items())}


def evaluate(rollout, tokenizer, samples: list[Sample], rewarder, cfg: Config, progress: str | None = None) -> dict:
    """Periodic held-out evaluation with the run's eval settings."""
    return evaluate_samples(rollout, tokenizer, samples, rewarder, cfg, progress=progress)


def run_evaluation(run) -> dict:
    """The run's held-out evaluation with its current policy (summed over ranks); a progress bar
    (``eval: base policy``, ``eval: step N``) when the run shows progress (``log.progress``)."""
    label = "eval: base policy" if run.state.base_eval is None else f"eval: step {run.state.step}"
    shown = label if run.cfg.log.progress and run.dist.is_main else None
    return run.evaluate_fn(run.rollout, run.tokenizer, run.eval_samples, run.rewarder, run.cfg, progress=shown)


def log_eval(run, step: int, ev: dict) -> None:
    by_kind = {f"pass@1/{k}": v for k, v in ev.get("by_kind", {}).items()}
    run.runlog.log({"step": step, "kind": "eval", "pass@1": ev["pass@1"], "eval/len_mean": ev["eval/len_mean"],
                    **by_kind})
    if by_kind:
        run.log(f"eval at step {step}: pass@1 {ev['pass@1']:.3f}{kinds_text(ev)}")


def kinds_text(ev: dict) -> str:
    """`` (add 0.260, mul 0.250)`` for a mixed task's evaluation, else ``""``."""
    parts = [f"{k} {v:.3f}" for k, v in ev.get("by_kind", {}).items()]
    return f" ({', '.join(parts)})" if parts else ""


def base_evaluation(run, check=None) -> float:
    """Evaluate the base policy once per run (a resumed run keeps the first figure); its pass@1.
    ``check(ev)`` sees the evaluation after its row is logged (the run doctor's reward check)."""
    state = run.state
    if state.base_eval is None:
        t0 = time.time()
        base = run_evaluation(run)
        run.phases["base_eval_s"] = time.time() - t0
        state.base_eval = {"pass@1": base["pass@1"], **({"by_kind": base["by_kind"]} if base.get("by_kind") else {})}
        log_eval(run, 0, base)
        if check is not None:
            check(base)
        run.log(f"base: held-out pass@1 {base['pass@1']:.3f}{kinds_text(base)} on {len(run.eval_samples)} problems")
    return state.base_eval["pass@1"]
