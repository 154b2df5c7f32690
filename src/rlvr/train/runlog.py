"""The run directory's logs: metrics (through the sinks), samples, progress bar, report.

On resume, metric and sample lines written after the checkpoint being resumed are
dropped first, so the files read as one uninterrupted run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rlvr.config import Config


def truncate_jsonl(path: Path, after_step: int) -> None:
    """Keep only lines whose step <= after_step (atomic rewrite)."""
    if not path.is_file():
        return
    kept = []
    for line in path.read_text().splitlines():
        if line.strip() and json.loads(line).get("step", 0) <= after_step:
            kept.append(line)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(line + "\n" for line in kept))
    tmp.replace(path)


class Progress:
    """A tqdm bar with live reward and pass@1, or nothing when disabled."""

    def __init__(self, total: int, initial: int, enabled: bool):
        self.bar = None
        if enabled:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, initial=initial, desc="train", unit="step", dynamic_ncols=True,
                            file=sys.stderr)

    def update(self, metrics: dict, pass1: float | None) -> None:
        if self.bar is None:
            return
        self.bar.set_postfix(reward=f"{metrics['reward/mean']:.3f}", acc=f"{metrics['acc']:.2f}",
                             pass1=f"{pass1:.3f}" if pass1 is not None else "-", refresh=False)
        self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class RunLog:
    def __init__(self, run_dir: Path, cfg: Config, truncate_after: int | None = None):
        from rlvr.diagnostics.alarms import AlarmMonitor
        from rlvr.diagnostics.sinks import build_sink

        self.run_dir, self.cfg = run_dir, cfg
        self.samples_path = run_dir / "samples.jsonl"
        if truncate_after is not None:
            truncate_jsonl(run_dir / "metrics.jsonl", truncate_after)
            truncate_jsonl(self.samples_path, truncate_after)
        sinks = [s for s in cfg.log.sinks if s != "jsonl"]
        if cfg.log.progress:
            sinks = [s for s in sinks if s != "stdout"]  # the progress bar shows the live numbers
        self.sink = build_sink(sinks, run_dir, config=cfg.to_dict(), stdout_every=cfg.log.stdout_every)
        self.alarms = AlarmMonitor()
        self.bar: Progress | None = None

    def progress(self, total: int, initial: int) -> Progress:
        self.bar = Progress(total, initial, self.cfg.log.progress)
        return self.bar

    def log(self, row: dict) -> None:
        if row.get("kind") == "train":
            for alarm in self.alarms.update(row["step"], row):
                row[f"alarm/{alarm.name}"] = 1
                self._print(f"ALARM step {row['step']}: {alarm.message}")
        self.sink.log(row)

    def _print(self, text: str) -> None:
        if self.bar is not None and self.bar.bar is not None:
            self.bar.bar.write(text, file=sys.stderr)
        else:
            print(text, file=sys.stderr)

    def write_samples(self, step: int, data, every_row: bool = False) -> None:
        """The step's first ``log.samples_per_step`` completions on every ``log.samples_every``-th
        step; ``every_row``: all of this step's completions, whatever the settings (a stopped run's
        last step)."""
        every, k = self.cfg.log.samples_every, self.cfg.log.samples_per_step
        if every_row:
            every, k = 1, len(data.completions)
        if not every or step % every:
            return
        G = self.cfg.rollout.group_size
        with open(self.samples_path, "a") as f:
            for i in range(min(k, len(data.completions))):
                c, v, s = data.completions[i], data.verdicts[i], data.samples[i]
                f.write(json.dumps({
                    "step": step, "group": i // G, "prompt": s.prompt, "completion": c.text, "answer": s.answer,
                    "reward": float(data.rewards[i]), "status": v.status, "detail": v.detail, "graded": v.answer,
                    "length": len(c.token_ids), "finish_reason": c.finish_reason,
                }) + "\n")

    def write_report(self) -> Path:
        from rlvr.report.html import write_report

        return write_report(self.run_dir)

    def close(self) -> None:
        self.sink.close()
