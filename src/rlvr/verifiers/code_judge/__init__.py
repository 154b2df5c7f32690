"""The code verifier's runtime inside the sandbox: io runner, candidate server and judge.

This package is shipped as the sources of its parts (or as their code objects, compiled by the
sandbox's own interpreter) and run by ``python3 -I -S`` as pid 1 of the sandbox: ``BOOT_SOURCE``
makes the package ``rlvr_judge`` of them, in the order of ``PARTS``, and takes it out of
``sys.modules`` again before any program or test runs. It uses the standard library only and
keeps to Python 3.8 syntax. On the host it is imported for its codec (tests).

The parts, in the order a verdict goes through them:
- ``base``: captured os calls, limits, the protocol's exceptions, JSON text;
- ``codec``: values that cross as plain data, exceptions carried as data;
- ``transport``: the pipe pair / shared memory between judge and candidate, and its framing;
- ``process``: pid 1's set-up, the io tests, process helpers;
- ``proxies``: the judge's handles on the program's objects (``Remote``) and its codec;
- ``verdict``: how a failure reads (reprs and messages that never ask the candidate);
- ``candidate``: the process that runs the program and answers requests;
- ``judge``: the judge's side of the protocol (``Judge``);
- ``batching``: many calls of the program sent as one message;
- ``runners``: the test namespace and each test style (asserts, pytest, unittest), one record each;
- ``boot``: pid 1's entry points and the boot program.

One sandbox start per sample, in this order (``BOOT_SOURCE``, ``prepare``, ``boot``):
0. The sandbox may be started ahead of its sample (``sandbox.run``'s ``prestart``): pid 1 loads
   this runtime, turns ``PR_SET_DUMPABLE`` off (no process of the sandbox's uid can then open
   its ``/proc/1/mem``, ``/proc/1/fd`` or ``environ``) and ignores SIGINT, then waits for one
   byte on its go pipe; the host fills and seals the sample's payload before writing it.
1. pid 1 reads the public payload (candidate code, io inputs, limits) and compiles the candidate.
2. io tests: one fresh fork per test, which closes every descriptor but its stdio (by listing
   ``/proc/self/fd``: the host may number them above any fixed range) and runs the candidate as
   ``__main__``; pid 1 forwards its raw stdout to the host, then kills every
   other process in the pid namespace (``kill(-1)``) before the next test.
3. assert tests: pid 1 forks the candidate server, which closes every descriptor but its pipe
   pair (the record pipe and the still unread test payload among them) before any candidate
   code runs, sends stdout/stderr to /dev/null, runs
   the candidate as module ``__candidate__`` and then answers requests on a pipe pair:
   call this, get that attribute, iterate that. Only then does pid 1 read the tests (which
   hold the expected values): it becomes the judge, in its own pristine interpreter.
4. The judge runs every test statement as ordinary Python (compiled with assertions on), in
   a fresh namespace with ``__name__ == "__main__"`` and untouched builtins and modules; the
   candidate's top-level names the tests use are stubs that forward calls. Values cross as
   plain data (``Codec``): exact builtin types, ``Fraction``, ``Decimal``, ``collections``
   containers, enum members, dataclass and namedtuple records; anything else stays in the
   candidate as a handle (``Remote``): calls, attributes, ``len``, ``bool``, iteration and
   indexing are forwarded, while equality, hashing, ordering, arithmetic and membership are
   the judge's own (identity for handles), never the candidate's. Exceptions come back as
   data and are raised again as the matching builtin type. The tests' own objects passed to
   the candidate are served by reference (calls, iteration, public attributes); frames, code
   objects, tracebacks and cells never leave the judge.
5. The judge writes one JSON record per test to the record pipe, which no other process has;
   pid 1 then ends with ``os._exit`` (the interpreter's teardown would cost a fifth of a sample).
"""

from __future__ import annotations

import os

from .base import MAX_MESSAGE, CandidateExit, CandidateGone, CandidateSystemExit, ProtocolError, dumps
from .batching import _batched, _compile_unit
from .boot import BOOT_SOURCE, boot, prepare
from .candidate import CandidateCodec, CandidateServer
from .codec import Codec, build_exception, exc_data
from .judge import Judge, _sync_into
from .proxies import JudgeCodec, Record, Remote, RemoteClass
from .transport import SHM_CAP, Conn, pack_atom, pack_call, shared_channels, unpack_value

# The parts in the order they are loaded in the sandbox: each imports only parts before it.
PARTS = ("base", "codec", "transport", "process", "proxies", "verdict", "shared", "candidate", "judge", "batching",
         "runners", "boot")  # fmt: skip


def part_sources() -> list[tuple[str, str]]:
    """(part, source) of every part, in ``PARTS`` order: what is shipped into the sandbox."""
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    for name in PARTS:
        with open(os.path.join(here, name + ".py"), encoding="utf-8") as fh:
            out.append((name, fh.read()))
    return out


__all__ = ["BOOT_SOURCE", "MAX_MESSAGE", "PARTS", "SHM_CAP", "CandidateCodec", "CandidateExit", "CandidateGone",
           "CandidateSystemExit",
           "CandidateServer", "Codec", "Conn", "Judge", "JudgeCodec", "ProtocolError", "Record", "Remote",
           "RemoteClass", "_batched", "_compile_unit", "_sync_into", "boot", "build_exception", "dumps", "exc_data",
           "pack_atom", "pack_call", "part_sources", "prepare", "shared_channels", "unpack_value"]  # fmt: skip
