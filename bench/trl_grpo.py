"""The TRL side of the side-by-side benchmark: TRL's ``GRPOTrainer`` on the rlvr demo task.

Runs inside ``bench/.venv-trl`` (``bash bench/setup_trl_env.sh``), started by
``bench/trl_side_by_side.py``, never by the test suite. The reward is rlvr's own reward
function (exact match + 0.1 x format, the answer must end the completion), imported from
``src/`` (it is pure Python, no torch), so both sides score completions identically.

Measures, and writes as JSON to ``--out``: the wall time of every optimizer step
(``on_step_begin`` .. ``on_step_end``: generation, scoring, forward/backward, optimizer),
time and tokens inside ``model.generate``, optional held-out greedy pass@1 every
``--eval-every`` steps (its time excluded from the training clock), and the process's
peak RSS.

Settings chosen to match rlvr's GRPO preset: loss_type "grpo" (token mean per sequence,
then mean over sequences), beta (k3 KL in the loss), clip 0.2, one update per batch,
constant learning rate, no weight decay, gradient clip 1.0, temperature 1.0, no top-k.
``--chat``: prompts are conversations (the user message), rendered by TRL with the model's
chat template, as rlvr renders them; ``--verifier math`` grades with rlvr's strict math
verifier; ``--grad-ckpt on|off`` sets GRPOConfig's gradient checkpointing (TRL's default: on).
One difference TRL does not let us remove: it scales advantages by the unbiased group
std (G-1), rlvr by the population std (G).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))  # rlvr.verifiers / rlvr.types: pure Python, no torch


def load_rows(path: str) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def _text(x) -> str:
    """A completion or prompt as plain text (conversational ones are lists of messages)."""
    return x if isinstance(x, str) else x[-1]["content"]


def make_reward(name: str, format_weight: float):
    from rlvr.types import Sample
    from rlvr.verifiers.composite import build_reward_fn

    verifier = build_reward_fn(name, format_weight, False)

    def reward(prompts, completions, answer, **_):
        return [verifier(_text(c), Sample(id="x", prompt=_text(p), answer=a)).reward
                for p, c, a in zip(prompts, completions, answer)]

    reward.__name__ = f"rlvr_{name}_plus_format"
    return reward, verifier


def greedy_pass_at_1(model, tok, rows: list[dict], verifier, max_new: int, chat: bool = False) -> float:
    import torch

    from rlvr.types import Sample

    tok.padding_side = "left"
    texts = [tok.apply_chat_template([{"role": "user", "content": r["prompt"]}], add_generation_prompt=True,
                                     tokenize=False) if chat else r["prompt"] for r in rows]
    enc = tok(texts, return_tensors="pt", padding=True, add_special_tokens=False)
    was_training = model.training
    model.eval()
    with torch.inference_mode():
        out = model.generate(**enc, do_sample=False, max_new_tokens=max_new, pad_token_id=tok.pad_token_id,
                             eos_token_id=tok.eos_token_id)
    if was_training:
        model.train()
    ok = 0
    for r, row in zip(rows, out[:, enc["input_ids"].shape[1]:].tolist()):
        cut = row.index(tok.eos_token_id) if tok.eos_token_id in row else len(row)
        text = tok.decode([t for t in row[:cut] if t != tok.pad_token_id], skip_special_tokens=False)
        ok += verifier(text, Sample(id="e", prompt=r["prompt"], answer=r["answer"])).status == "ok"
    return ok / len(rows)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--prompts", required=True, help="JSONL of training prompts in stream order (prompt, answer)")
    ap.add_argument("--eval", help="JSONL of held-out problems (prompt, answer)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--prompts-per-step", type=int, default=8)
    ap.add_argument("--group", type=int, default=8)
    ap.add_argument("--max-new", type=int, default=8)
    ap.add_argument("--beta", type=float, default=0.04)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--eval-every", type=int, default=0)
    ap.add_argument("--eval-max-new", type=int, default=32)
    ap.add_argument("--target", type=float, default=0.9, help="stop once held-out pass@1 reaches this")
    ap.add_argument("--time-limit", type=float, default=0.0, help="stop after this much training time (s)")
    ap.add_argument("--format-weight", type=float, default=0.1)
    ap.add_argument("--verifier", default="exact", help="rlvr verifier that grades (exact, math)")
    ap.add_argument("--chat", action="store_true", help="prompts are chat user messages (the model's template)")
    ap.add_argument("--grad-ckpt", choices=["on", "off"], default="on", help="GRPOConfig gradient checkpointing")
    ap.add_argument("--bf16", choices=["on", "off"], default="off", help="GRPOConfig bf16 (CPU autocast, fp32 master)")
    args = ap.parse_args()

    import torch

    torch.set_num_threads(args.threads)
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer, TrainerCallback
    from transformers.utils import logging as hf_logging
    from trl import GRPOConfig, GRPOTrainer

    hf_logging.set_verbosity_error()
    tok = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForCausalLM.from_pretrained(args.model, dtype=torch.float32)
    if tok.pad_token_id is None:
        tok.pad_token = tok.eos_token
    train_rows = load_rows(args.prompts)
    if args.chat:
        train_rows = [{**r, "prompt": [{"role": "user", "content": r["prompt"]}]} for r in train_rows]
    eval_rows = load_rows(args.eval) if args.eval else []
    reward, verifier = make_reward(args.verifier, args.format_weight)
    record = {"step_s": [], "gen_s": 0.0, "gen_tokens": 0, "gen_calls": 0, "evals": [], "train_s": 0.0,
              "prompt_tokens": 0}

    original_generate = model.generate

    def timed_generate(*a, **kw):
        t0 = time.perf_counter()
        out = original_generate(*a, **kw)
        record["gen_s"] += time.perf_counter() - t0
        record["gen_calls"] += 1
        width = kw["input_ids"].shape[1] if "input_ids" in kw else a[0].shape[1]
        record["prompt_tokens"] += int((kw["attention_mask"] if "attention_mask" in kw else a[1]).sum()) \
            if ("attention_mask" in kw or len(a) > 1) else 0
        for row in out[:, width:].tolist():
            record["gen_tokens"] += row.index(tok.eos_token_id) + 1 if tok.eos_token_id in row else \
                sum(t != tok.pad_token_id for t in row)
        return out

    model.generate = timed_generate

    class Clock(TrainerCallback):
        def on_step_begin(self, a, state, control, **kw):
            self.t0 = time.perf_counter()

        def on_step_end(self, a, state, control, **kw):
            dt = time.perf_counter() - self.t0
            record["step_s"].append(dt)
            record["train_s"] += dt
            if args.eval_every and state.global_step % args.eval_every == 0:
                gen_before = (record["gen_s"], record["gen_tokens"], record["gen_calls"])
                p1 = greedy_pass_at_1(model, tok, eval_rows, verifier, args.eval_max_new, args.chat)
                record["gen_s"], record["gen_tokens"], record["gen_calls"] = gen_before  # eval is not training
                record["evals"].append({"step": state.global_step, "train_s": record["train_s"], "pass@1": p1})
                print(f"trl: step {state.global_step} train {record['train_s']:.0f}s pass@1 {p1:.3f}", flush=True)
                if p1 >= args.target:
                    control.should_training_stop = True
            if args.time_limit and record["train_s"] >= args.time_limit:
                control.should_training_stop = True

    config = GRPOConfig(
        output_dir=str(Path(args.out).with_suffix(".trl-out")),
        per_device_train_batch_size=args.prompts_per_step * args.group,
        gradient_accumulation_steps=1, num_generations=args.group, max_completion_length=args.max_new,
        beta=args.beta, learning_rate=args.lr, lr_scheduler_type="constant", warmup_steps=0, weight_decay=0.0,
        max_grad_norm=1.0, max_steps=args.steps, logging_steps=10**9, report_to=[], save_strategy="no",
        use_cpu=True, bf16=args.bf16 == "on", temperature=1.0, top_k=0, top_p=1.0, loss_type="grpo",
        scale_rewards="group", epsilon=0.2, num_iterations=1, shuffle_dataset=False, seed=0, disable_tqdm=True,
        dataloader_num_workers=0,
        log_completions=False, gradient_checkpointing=args.grad_ckpt == "on",
    )
    if eval_rows and args.eval_every:
        p0 = greedy_pass_at_1(model, tok, eval_rows, verifier, args.eval_max_new, args.chat)
        record["evals"].append({"step": 0, "train_s": 0.0, "pass@1": p0})
        print(f"trl: base pass@1 {p0:.3f}", flush=True)
    trainer = GRPOTrainer(model=model, reward_funcs=reward, args=config, processing_class=tok,
                          train_dataset=Dataset.from_list(train_rows), callbacks=[Clock()])
    trainer.train()
    record["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    record["versions"] = {"torch": torch.__version__, "trl": __import__("trl").__version__,
                          "transformers": __import__("transformers").__version__}
    Path(args.out).write_text(json.dumps(record, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
