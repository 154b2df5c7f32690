"""Proof verifier: the completion's last ```coq block must prove the sample's theorem, axiom-free.

Sample fields: ``statement`` (``Theorem NAME : TYPE.``; ``Lemma``/``Fact``/... and binders
before the colon, ``Theorem NAME (n : nat) : TYPE.``, are accepted) and optional ``preamble``
(Coq lines, e.g. ``Require Import Arith List.``, put at the top of both files below).

How it checks, inside the same bubblewrap sandbox as the code verifier (one start):
1. ``Submission.v`` = preamble + the candidate's block, compiled by ``coqc``. Its output goes to
   a separate pipe, used only for the failure detail: nothing it prints can reach the stream
   the verdict is read from.
2. ``Check.v``, a second file the verifier writes and mounts read-only, compiled only if step 1
   succeeded::

       <preamble>
       Definition rlvr_statement := (TYPE).      (* elaborated before the candidate is loaded *)
       Require RlvrSub.Submission.                (* Require, never Import *)
       Set Guard Checking. Set Positivity Checking. Set Universe Checking.
       Theorem rlvr_check_<nonce> : rlvr_statement.
       Proof. exact @RlvrSub.Submission.NAME. Qed.
       Print Assumptions rlvr_check_<nonce>.

   Reward 1 iff it compiles and the output says ``Closed under the global context``.

Why this shape: compiling the candidate as its own file means it cannot end our section or
module, open a comment ``(*`` that swallows our epilogue, or ``Abort`` it. ``Require`` without
``Import`` keeps the candidate's notations, coercions and shadowing definitions (``Definition
nat := bool``) out of the statement, which is elaborated before the candidate is even loaded,
so a failure there is the sample's fault (status error), never the candidate's. ``Global``
options do leak through ``Require`` (``Global Unset Guard Checking`` does), hence the three
``Set`` lines. ``Print Assumptions`` reports ``Admitted`` theorems, ``Axiom``/``Parameter``,
and definitions made with guard, positivity or universe checking off; any of them is a 0.
The named constant must be convertible to the stated type (checked by the kernel at ``Qed``),
i.e. it proves exactly the stated proposition.

Deliberately not done: no allow-list of axioms (classical logic included gets 0: the names
``Print Assumptions`` prints are not qualified enough to tell Coq's ``Classical_Prop.classic``
from a candidate's module of the same name); no defence against soundness bugs of the
installed Coq kernel (``vm_compute`` and ``native_compute`` are part of it: they run as the
installed Coq runs them, inside the sandbox).
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
from dataclasses import dataclass, fields
from typing import Any

from rlvr import sandbox
from rlvr.types import Sample, Verdict

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)```", re.DOTALL)
_STATEMENT = re.compile(
    r"^\s*(?:Theorem|Lemma|Fact|Remark|Corollary|Proposition|Example)\s+"
    r"([A-Za-z_][A-Za-z0-9_']*)(.*?)\.\s*$",
    re.DOTALL,
)
_CHECK_ERROR = re.compile(r'File "/check/Check\.v", line (\d+)')
_CLOSED = "Closed under the global context"
_COQ_FLAGS = "-q"
_OCAMLFIND_CONF = "/etc/ocamlfind.conf"


@dataclass(frozen=True)
class ProofOptions:
    """Options of ``verify_proof`` (passed as keyword arguments)."""

    timeout_s: float = 30.0  # wall limit for both compilations
    memory_mb: int = 3072  # the whole run's memory (cgroup; without one, split over the 3 processes)
    allow_unsandboxed: bool = False  # without bwrap: run with rlimits only (loud warning)
    coqc: str = "/usr/bin/coqc"


def _options(opts: dict[str, Any]) -> ProofOptions:
    valid = {f.name for f in fields(ProofOptions)}
    unknown = sorted(set(opts) - valid)
    if unknown:
        raise TypeError(f"verify_proof: unknown option(s) {unknown}; valid: {sorted(valid)}")
    return ProofOptions(**opts)


def extract_coq(completion: str) -> str | None:
    """The last fenced block tagged ``coq`` (any case), else None."""
    blocks = [body for lang, body in _FENCE.findall(completion) if lang.lower() == "coq"]
    return blocks[-1] if blocks else None


def parse_statement(statement: str) -> tuple[str, str]:
    """``Theorem NAME binders : TYPE.`` -> (NAME, ``forall binders, TYPE`` or TYPE)."""
    match = _STATEMENT.match(statement)
    if match is None:
        raise ValueError(f"statement must look like 'Theorem NAME : TYPE.', got {statement[:80]!r}")
    name, rest = match.group(1), match.group(2)
    colon = _top_level_colon(rest)
    if colon is None:
        raise ValueError(f"statement has no ':' before its type: {statement[:80]!r}")
    binders, typ = rest[:colon].strip(), rest[colon + 1 :].strip()
    if not typ:
        raise ValueError(f"statement has an empty type: {statement[:80]!r}")
    return name, (f"forall {binders}, {typ}" if binders else typ)


def _top_level_colon(text: str) -> int | None:
    """Index of the first ``:`` outside brackets that is not part of ``:=`` / ``::``."""
    depth = 0
    for k, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == ":" and depth == 0 and text[k + 1 : k + 2] not in ("=", ":") and text[k - 1 : k] != ":":
            return k
    return None


def check_file(preamble: str, typ: str, name: str, nonce: str) -> tuple[str, range]:
    """The verifier's own file, and the line numbers (1-based) of the statement's definition."""
    head = f"{preamble.rstrip()}\n" if preamble.strip() else ""
    first = head.count("\n") + 1
    definition = f"Definition rlvr_statement := ({typ}).\n"
    body = (
        "Require RlvrSub.Submission.\n"
        "Set Guard Checking.\nSet Positivity Checking.\nSet Universe Checking.\n"
        f"Theorem rlvr_check_{nonce} : rlvr_statement.\n"
        f"Proof. exact @RlvrSub.Submission.{name}. Qed.\n"
        f"Print Assumptions rlvr_check_{nonce}.\n"
    )
    return head + definition + body, range(first, first + definition.count("\n"))


def _script(coqc: str, nonce: str) -> str:
    """Compile the submission (its output to the side pipe), then, if it compiled, the check."""
    return (
        f"{coqc} {_COQ_FLAGS} -Q {{root}}/work RlvrSub {{root}}/work/Submission.v >&{{fd_out}} 2>&1"
        f" || {{ echo RLVR_SUBMISSION_FAILED_{nonce}; exit 0; }}\n"
        f"echo RLVR_CHECKING_{nonce}\n"
        f"exec {coqc} {_COQ_FLAGS} -Q {{root}}/work RlvrSub -o {{root}}/work/Check.vo {{root}}/check/Check.v\n"
    )


def verify_proof(completion: str, sample: Sample, **opts: Any) -> Verdict:
    """Reward 1 iff the last ```coq block proves the stated theorem with no axioms."""
    options = _options(opts)
    script = extract_coq(completion)
    if script is None:
        return Verdict(0.0, "no_answer", "no fenced ```coq block in the completion")
    try:
        name, typ = parse_statement(str(sample.get("statement", "")))
    except ValueError as exc:
        return Verdict(0.0, "error", f"bad sample {sample.id!r}: {exc}")
    refusal = _refusal(options)
    if refusal is not None:
        return Verdict(0.0, "error", refusal)
    nonce = secrets.token_hex(8)
    preamble = str(sample.get("preamble", "") or "")
    check, statement_lines = check_file(preamble, typ, name, nonce)
    result = _run(options, nonce, f"{preamble.rstrip()}\n{script}", check)
    return _judge(result, nonce, statement_lines, options)


def own_timeout_s(opts: dict[str, Any] | None = None) -> float:
    """The longest one verification takes by its own limits (for callers' backstop timeouts)."""
    return _options(dict(opts or {})).timeout_s + 5.0


def _refusal(options: ProofOptions) -> str | None:
    return sandbox.refusal("proofs", options.coqc, "apt-get install -y coq", options.allow_unsandboxed)


_PROCESSES = 3  # bwrap, bash and coqc: without a cgroup, RLIMIT_AS is memory_mb / 3 each


def _run(options: ProofOptions, nonce: str, submission: str, check: str) -> sandbox.RunResult:
    limits = sandbox.Limits(
        wall_s=options.timeout_s, memory_bytes=options.memory_mb << 20, max_processes=_PROCESSES,
        max_stdout_bytes=1 << 20, max_stderr_bytes=256 << 10, max_channel_bytes=1 << 20,
    )  # fmt: skip
    files = {"/work/Submission.v": submission.encode("utf-8"), "/check/Check.v": check.encode("utf-8")}
    payload = sandbox.Payload(files=files, writable_files=("/work/Submission.v",),
                              ro_binds=[_OCAMLFIND_CONF] if os.path.exists(_OCAMLFIND_CONF) else [])
    return sandbox.run(["/bin/bash", "-c", _script(options.coqc, nonce)], payload, limits=limits, channel_out=True,
                       allow_unsandboxed=options.allow_unsandboxed)


def _judge(result: sandbox.RunResult, nonce: str, statement_lines: range, options: ProofOptions) -> Verdict:
    out = result.stdout.decode("utf-8", "replace")
    side = _tail(result.channel.decode("utf-8", "replace"))
    prefix = "" if result.sandboxed else "UNSANDBOXED: "
    info = {"sandboxed": float(result.sandboxed)}
    if result.timed_out:
        return Verdict(0.0, "timeout", f"{prefix}coqc ran past {options.timeout_s} s", info)
    if result.overflowed:
        return Verdict(0.0, "wrong", f"{prefix}output passed its cap ({result.overflowed})", info)
    if f"RLVR_SUBMISSION_FAILED_{nonce}" in out:
        return Verdict(0.0, "wrong", f"{prefix}the proof script does not compile: {side}", info)
    if f"RLVR_CHECKING_{nonce}" not in out:
        err = _tail(result.stderr.decode("utf-8", "replace"))
        return Verdict(0.0, "error", f"{prefix}the checker did not run (exit {result.returncode}): {err}", info)
    return _judge_check(result, out, nonce, statement_lines, prefix, info)


def _judge_check(result: sandbox.RunResult, out: str, nonce: str, statement_lines: range, prefix: str,
                 info: dict[str, float]) -> Verdict:  # fmt: skip
    err = result.stderr.decode("utf-8", "replace")
    if result.returncode != 0:
        lines = [int(n) for n in _CHECK_ERROR.findall(err)]
        if lines and lines[0] in statement_lines:
            return Verdict(0.0, "error", f"{prefix}the sample's statement does not elaborate: {_tail(err)}", info)
        return Verdict(0.0, "wrong", f"{prefix}the script does not prove the stated theorem: {_tail(err)}", info)
    checked = out.split(f"RLVR_CHECKING_{nonce}", 1)[1]
    if _CLOSED in checked and "Axioms:" not in checked:
        return Verdict(1.0, "ok", f"{prefix}proved, closed under the global context", info)
    return Verdict(0.0, "wrong", f"{prefix}the proof rests on assumptions: {_tail(checked)}", info)


def _tail(text: str, limit: int = 400) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else "..." + text[-limit:]


def coq_available() -> str | None:
    """None when coqc can run sandboxed here, else why not (for tests and the CLI)."""
    if shutil.which("coqc") is None or not os.path.exists("/usr/bin/coqc"):
        return "coqc not found (apt-get install -y coq)"
    return sandbox.probe()


def warm_up() -> None:
    """Probe the sandbox once per worker process (the result is cached)."""
    sandbox.probe()
