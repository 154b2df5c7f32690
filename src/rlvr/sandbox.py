"""Run an untrusted program in a bubblewrap sandbox with hard limits, and read what it said.

What it does:
- ``run(argv, ...)`` starts ``bwrap`` with no network, no view of host files (only ``/usr``
  and the ``/lib*``, ``/bin`` links are mounted, read-only), private tmpfs ``/tmp``,
  ``/work`` and ``/dev/shm`` of bounded size, new pid/ipc/uts/user/cgroup namespaces, all
  capabilities dropped, nested user namespaces disabled, and the command as pid 1 of its pid
  namespace (so every process it leaves behind dies with it).
- A seccomp filter (``--seccomp``; a BPF program built here, ``seccomp_program``) refuses, with
  ``EPERM``, the system calls a sandboxed program never needs and an attacker would want:
  ``ptrace``, ``process_vm_readv``/``writev``, ``pidfd_open``/``pidfd_getfd``, ``kcmp``,
  ``io_uring_*``, ``bpf``, ``perf_event_open``, ``userfaultfd``, ``keyctl``/``add_key``/
  ``request_key``, the mount family, ``unshare``/``setns``, kernel modules, ``kexec``,
  ``personality`` and the like (``BLOCKED_SYSCALLS``). It checks the architecture first: only
  the native ABI is allowed (on x86_64 the 32-bit ``int 0x80`` entry and the x32 ABI are
  refused whole). On an architecture it has no table for (not x86_64 or aarch64) the run
  goes without the filter and ``RunResult.seccomp`` says so.
- When the caller is root, bwrap itself is started under a fresh random unprivileged uid
  (2,000,000 and up), so ``RLIMIT_NPROC`` is really enforced (the kernel never enforces it
  for uid 0, not even inside a user namespace) and counts this run's processes only. Inside,
  the program sees uid/gid 65534.
- Memory has one bound for the whole run, ``Limits.memory_bytes``: a fresh memory cgroup per
  run (v2 ``memory.max``, or v1 ``memory.limit_in_bytes`` plus ``memsw``) when this process
  may create one below its own cgroup; otherwise ``RLIMIT_AS`` of ``memory_bytes //
  max_processes`` per process, so that processes times address space is at most the total.
  ``RunResult.memory_bound`` says which (``cgroup`` or ``rlimit``).
- rlimits (CPU seconds, address space, processes, file size, open files), the cgroup move and
  the uid drop happen before bwrap starts, in a ``/bin/sh`` launcher (then ``setpriv`` for the
  uid) that execs it (``_launcher``); the wall timeout kills bwrap's whole
  process group (the sandbox dies with it: ``--die-with-parent`` plus pid-namespace
  teardown); every output stream is read up to a cap and the run is killed when a stream
  passes it.
- Inputs go in through file descriptors, never through host files: ``files`` become files
  under the sandbox root (read-only by default) and ``inputs`` are inherited memfds (sealed:
  nothing inside can rewrite them) whose numbers are passed to the command; ``channel_out`` is an inherited
  pipe a trusted in-sandbox runner writes its records to (see ``docs/sandbox.md``).

- ``prestart``: a caller whose command waits for a go byte (the code verifier) gets the next
  run's sandbox launched ahead, up to that wait, while the current run goes on: its own
  cgroup, uid and namespaces, with only the inputs named as the same for every run filled in.

What it deliberately does not do: judge results (callers decide what the bytes mean), lower
the CPU share, or filter system-call arguments. ``signal.alarm`` is never used.

Fallback: when bwrap or user namespaces are unavailable, ``run`` raises
``SandboxUnavailable`` unless ``allow_unsandboxed=True``, which runs the command directly with
the same rlimits, memory bound and uid drop (when root) in a temporary directory, without
namespaces or seccomp, and logs a loud warning once per process. ``{root}`` in ``argv`` is
replaced by ``""`` in the sandbox and by that temporary directory when unsandboxed (``files``
keys are always sandbox paths, laid out under it when unsandboxed).
"""

from __future__ import annotations

import atexit
import fcntl
import functools
import logging
import os
import platform
import resource
import secrets
import selectors
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

log = logging.getLogger("rlvr.sandbox")

SANDBOX_UID = 65534  # what the program sees inside (nobody)
HOST_UID_BASE = 2_000_000  # fresh host uids are drawn from [base, base + span)
HOST_UID_SPAN = 1_000_000_000
SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"
_ROOT = "{root}"
_LIB_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
CGROUP_ENV = "RLVR_SANDBOX_CGROUP"  # "0": never use a memory cgroup (rlimits only)


class SandboxUnavailable(RuntimeError):
    """bwrap is missing or cannot create the namespaces it needs on this machine."""


@dataclass(frozen=True)
class Limits:
    """Resource limits of one sandboxed run."""

    wall_s: float = 10.0  # whole run, enforced by the parent: kills the process group
    cpu_s: int | None = None  # RLIMIT_CPU per process; None -> ceil(wall_s) + 1
    memory_bytes: int = 1 << 30  # the whole run's memory (cgroup), else split over max_processes (RLIMIT_AS)
    max_processes: int = 32  # RLIMIT_NPROC (threads count too; bwrap is one); per run when root
    max_file_bytes: int = 16 << 20  # RLIMIT_FSIZE
    max_open_files: int = 256  # RLIMIT_NOFILE
    tmpfs_bytes: int = 64 << 20  # size of each of /tmp, /work, /dev/shm
    max_stdout_bytes: int = 1 << 20  # more than this: the run is killed
    max_stderr_bytes: int = 64 << 10
    max_channel_bytes: int = 8 << 20
    seccomp: bool = True  # install the system-call filter (sandboxed runs on x86_64 / aarch64)

    def process_memory_bytes(self, cgroup: bool) -> int:
        """RLIMIT_AS per process. Under a cgroup 7/8 of the total, so that one greedy process
        gets a MemoryError before the whole run thrashes at the cgroup's bound; without one,
        total // max_processes, so that processes x address space stays within the total."""
        return self.memory_bytes - self.memory_bytes // 8 if cgroup else self.memory_bytes // max(1, self.max_processes)


@dataclass
class RunResult:
    """What came back from one run. Nothing here is trusted: the program wrote all of it."""

    returncode: int | None  # None when the run was killed by the parent
    stdout: bytes
    stderr: bytes
    channel: bytes  # bytes read from channel_out (b"" when not requested)
    timed_out: bool
    overflowed: str | None  # name of the stream that passed its cap, if any
    wall_s: float
    sandboxed: bool
    host_uid: int | None = None
    memory_bound: str = "rlimit"  # "cgroup" (one bound for the run) or "rlimit" (split per process)
    seccomp: bool = False  # whether the system-call filter was installed


# ----------------------------------------------------------------------------- probing


def refusal(what: str, binary: str, install: str, allow_unsandboxed: bool) -> str | None:
    """Why untrusted ``what`` must not run here (no sandbox and not allowed; ``binary`` missing
    or outside /usr), else None. Shared by the code and proof verifiers."""
    reason = probe()
    if reason is not None and not allow_unsandboxed:
        return (f"sandbox unavailable: {reason}. Refusing to run untrusted {what}; install bubblewrap "
                "(apt-get install -y bubblewrap) and allow user namespaces, or pass allow_unsandboxed=True "
                "to run with rlimits only (unsafe).")
    if not binary.startswith("/usr/") or not os.path.exists(binary):
        return f"{binary!r} must exist under /usr ({install})"
    return None


@functools.cache
def probe() -> str | None:
    """None when bwrap can start a sandbox here, else the reason why not (cached per process)."""
    if _bwrap() is None:
        return "bwrap not found on PATH (apt-get install -y bubblewrap)"
    true = "/usr/bin/true" if os.path.exists("/usr/bin/true") else "/bin/true"
    try:
        res = run([true], limits=Limits(wall_s=10.0), _probe=True)
    except OSError as exc:
        return f"bwrap could not be started: {exc}"
    if res.returncode != 0:
        err = res.stderr.decode(errors="replace").strip() or f"exit status {res.returncode}"
        return f"bwrap could not start a sandbox (user namespaces not allowed?): {err}"
    return None


@functools.cache
def _bwrap() -> str | None:
    return shutil.which("bwrap")


def require() -> None:
    """Raise ``SandboxUnavailable`` with the reason when the sandbox cannot run here."""
    reason = probe()
    if reason is not None:
        raise SandboxUnavailable(reason)


# ----------------------------------------------------------------------------- seccomp

# Refused system calls, by name, with their numbers on each architecture we filter for.
# (x86_64 from asm/unistd_64.h, aarch64 from asm-generic/unistd.h; None: no such call there.)
BLOCKED_SYSCALLS: dict[str, tuple[int | None, int | None]] = {
    # reading or writing other processes' memory and descriptors
    "ptrace": (101, 117), "process_vm_readv": (310, 270), "process_vm_writev": (311, 271),
    "pidfd_open": (434, 434), "pidfd_getfd": (438, 438), "kcmp": (312, 272),
    "process_madvise": (440, 440), "move_pages": (279, 239), "migrate_pages": (256, 238),
    # large kernel attack surfaces no program here needs
    "io_uring_setup": (425, 425), "io_uring_enter": (426, 426), "io_uring_register": (427, 427),
    "bpf": (321, 280), "perf_event_open": (298, 241), "userfaultfd": (323, 282),
    "keyctl": (250, 219), "add_key": (248, 217), "request_key": (249, 218),
    # namespaces, mounts and the file-system view
    "unshare": (272, 97), "setns": (308, 268), "mount": (165, 40), "umount2": (166, 39),
    "pivot_root": (155, 41), "chroot": (161, 51), "open_tree": (428, 428), "move_mount": (429, 429),
    "fsopen": (430, 430), "fsconfig": (431, 431), "fsmount": (432, 432), "fspick": (433, 433),
    "mount_setattr": (442, 442), "name_to_handle_at": (303, 264), "open_by_handle_at": (304, 265),
    "fanotify_init": (300, 262), "quotactl": (179, 60), "quotactl_fd": (443, 443),
    # the machine itself
    "kexec_load": (246, 104), "kexec_file_load": (320, 294), "init_module": (175, 105),
    "finit_module": (313, 273), "delete_module": (176, 106), "reboot": (169, 142),
    "swapon": (167, 224), "swapoff": (168, 225), "acct": (163, 89), "syslog": (103, 116),
    "settimeofday": (164, 170), "clock_settime": (227, 112), "adjtimex": (159, 171),
    "clock_adjtime": (305, 266), "vhangup": (153, 58), "lookup_dcookie": (212, 18),
    "personality": (135, 92), "uselib": (134, None), "iopl": (172, None), "ioperm": (173, None),
}  # fmt: skip

_AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
_X32_BIT = 0x40000000
_BPF_LD_W_ABS, _BPF_JEQ_K, _BPF_JGE_K, _BPF_RET_K = 0x20, 0x15, 0x35, 0x06
_RET_ALLOW, _RET_ERRNO = 0x7FFF0000, 0x00050000
_EPERM = 1


def _bpf(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


@functools.cache
def seccomp_program(machine: str | None = None) -> bytes | None:
    """The classic-BPF filter bwrap installs (``--seccomp``), or None for an unknown architecture.

    Layout: load ``seccomp_data.arch``; anything but the native ABI -> EPERM (on x86_64 the
    i386 ``int 0x80`` entry has another arch value); load ``nr``; on x86_64 a number with the
    x32 bit -> EPERM; each blocked number -> EPERM; otherwise allow.
    """
    machine = machine or platform.machine()
    if machine not in _AUDIT_ARCH:
        return None
    column = 0 if machine == "x86_64" else 1
    numbers = sorted({nums[column] for nums in BLOCKED_SYSCALLS.values() if nums[column] is not None})
    checks = ([(_BPF_JGE_K, _X32_BIT)] if machine == "x86_64" else []) + [(_BPF_JEQ_K, n) for n in numbers]
    # 0: ld arch; 1: jeq native (skip the deny); 2: deny; 3: ld nr; 4..: checks; then allow, deny
    prog = [_bpf(_BPF_LD_W_ABS, 4), _bpf(_BPF_JEQ_K, _AUDIT_ARCH[machine], jt=1, jf=0),
            _bpf(_BPF_RET_K, _RET_ERRNO | _EPERM), _bpf(_BPF_LD_W_ABS, 0)]  # fmt: skip
    deny_at = 4 + len(checks) + 1
    for k, (op, value) in enumerate(checks):
        pc = 4 + k
        prog.append(_bpf(op, value, jt=deny_at - (pc + 1), jf=0))
    prog += [_bpf(_BPF_RET_K, _RET_ALLOW), _bpf(_BPF_RET_K, _RET_ERRNO | _EPERM)]
    if deny_at - 5 > 255:  # jump offsets are one byte
        raise AssertionError("seccomp program too long for one-byte jumps")
    return b"".join(prog)


# ----------------------------------------------------------------------------- memory cgroup


@functools.cache
def _cgroup_base() -> tuple[int, str] | None:
    """(version, directory) below which this process can make memory cgroups, else None."""
    if os.environ.get(CGROUP_ENV, "1") == "0":
        return None
    try:
        with open("/proc/self/cgroup") as fh:
            lines = [line.rstrip("\n").split(":", 2) for line in fh if line.count(":") >= 2]
        with open("/proc/self/mountinfo") as fh:
            mounts = [line.split() for line in fh]
    except OSError:
        return None
    for version, base in _cgroup_candidates(lines, mounts):
        if _can_make_cgroup(version, base):
            _sweep_stale(base)
            return version, base
    return None


def _cgroup_candidates(lines: list[list[str]], mounts: list[list[str]]) -> list[tuple[int, str]]:
    out = []
    for fields in mounts:
        if "-" not in fields:
            continue
        sep = fields.index("-")
        fstype, mountpoint, root = fields[sep + 1], fields[4], fields[3]
        superopts = fields[sep + 3].split(",") if len(fields) > sep + 3 else []
        for hid, controllers, path in lines:
            if fstype == "cgroup2" and hid == "0" and controllers == "":
                version = 2
            elif fstype == "cgroup" and "memory" in controllers.split(",") and "memory" in superopts:
                version = 1
            else:
                continue
            rel = path[len(root):] if root != "/" and path.startswith(root) else path
            out.append((version, os.path.join(mountpoint, rel.lstrip("/"))))
    return sorted(out, key=lambda vb: -vb[0])  # prefer v2 when both are usable


def _can_make_cgroup(version: int, base: str) -> bool:
    if version == 2:
        try:
            with open(os.path.join(base, "cgroup.subtree_control")) as fh:
                if "memory" not in fh.read().split():
                    return False
        except OSError:
            return False
    probe_dir = os.path.join(base, f"rlvr-probe-{os.getpid()}-{secrets.token_hex(3)}")
    try:
        os.mkdir(probe_dir)
    except OSError:
        return False
    ok = os.path.exists(os.path.join(probe_dir, "memory.max" if version == 2 else "memory.limit_in_bytes"))
    _remove_cgroup(probe_dir, wait_s=0.0)
    return ok


def _sweep_stale(base: str) -> None:
    """Remove empty per-run cgroups left by processes that died before cleaning up."""
    try:
        names = os.listdir(base)
    except OSError:
        return
    for name in names:
        parts = name.split("-")
        if len(parts) == 3 and parts[0] == "rlvr" and parts[1].isdigit() and not os.path.exists(f"/proc/{parts[1]}"):
            _remove_cgroup(os.path.join(base, name), wait_s=0.0)


def _make_cgroup(limits: Limits) -> str | None:
    """A fresh memory cgroup bounding this run to ``limits.memory_bytes``, or None."""
    found = _cgroup_base()
    if found is None:
        return None
    version, base = found
    path = os.path.join(base, f"rlvr-{os.getpid()}-{secrets.token_hex(6)}")
    settings = ([("memory.max", limits.memory_bytes), ("memory.swap.max", 0)] if version == 2 else
                [("memory.limit_in_bytes", limits.memory_bytes), ("memory.memsw.limit_in_bytes", limits.memory_bytes)])
    try:
        os.mkdir(path)
        for name, value in settings:
            target = os.path.join(path, name)
            if os.path.exists(target) or name in ("memory.max", "memory.limit_in_bytes"):
                with open(target, "w") as fh:
                    fh.write(str(value))
    except OSError as exc:
        log.warning("could not set up a memory cgroup at %s (%s); falling back to rlimits", path, exc)
        _remove_cgroup(path, wait_s=0.0)
        return None
    return path


def _remove_cgroup(path: str, wait_s: float = 2.0) -> None:
    """rmdir the cgroup once its last process is gone (the kernel refuses while one is left)."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            os.rmdir(path)
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() >= deadline:
                return  # left for _sweep_stale
            time.sleep(0.005)


# ----------------------------------------------------------------------------- argv


def _root_links() -> list[str]:
    """Mount the host's /bin, /lib*, /sbin: as symlinks on merged-/usr systems, else read-only."""
    out: list[str] = []
    for path in _LIB_LINKS:
        if os.path.islink(path):
            out += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            out += ["--ro-bind", path, path]
    return out


def bwrap_argv(
    limits: Limits,
    file_fds: Sequence[tuple[int, str, bool]] = (),
    ro_binds: Sequence[str | tuple[str, str]] = (),
    env: Mapping[str, str] | None = None,
    seccomp_fd: int | None = None,
) -> list[str]:
    """The bwrap prefix: namespaces, mounts, identity, environment (command not included).

    ``file_fds`` are ``(fd, sandbox_path, writable)``: bwrap copies the fd's content there.
    ``ro_binds`` are host paths mounted read-only at the same place (e.g. one config file), or
    ``(host_path, sandbox_path)`` pairs.
    ``seccomp_fd`` holds the BPF program bwrap installs right before running the command.
    """
    size = str(limits.tmpfs_bytes)
    argv = [
        _bwrap() or "bwrap", "--unshare-all", "--unshare-user", "--disable-userns",
        "--die-with-parent", "--new-session", "--as-pid-1", "--cap-drop", "ALL",
        "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID), "--hostname", "sandbox",
        "--ro-bind", "/usr", "/usr", *_root_links(),
        "--proc", "/proc", "--dev", "/dev",
        "--size", size, "--tmpfs", "/dev/shm",
        "--size", size, "--tmpfs", "/tmp",
        "--size", size, "--tmpfs", "/work",
    ]  # fmt: skip
    for path in ro_binds:
        src, dest = (path, path) if isinstance(path, str) else path
        argv += ["--ro-bind", src, dest]
    for fd, dest, writable in file_fds:
        argv += ["--perms", "0644" if writable else "0444"]
        argv += ["--file" if writable else "--ro-bind-data", str(fd), dest]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    argv += ["--chdir", "/work", "--clearenv"]
    for key, value in _env(env, "/tmp").items():
        argv += ["--setenv", key, value]
    return argv + ["--"]


def _env(extra: Mapping[str, str] | None, home: str) -> dict[str, str]:
    env = {"PATH": SANDBOX_PATH, "HOME": home, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    env.update(extra or {})
    return env


# ----------------------------------------------------------------------------- identity and rlimits


def _fresh_host_uid() -> int | None:
    """A fresh unprivileged uid when we are root (so RLIMIT_NPROC bites), else None."""
    if os.geteuid() != 0:
        return None
    return HOST_UID_BASE + secrets.randbelow(HOST_UID_SPAN)


def _processes_of(uid: int) -> int:
    """How many processes the given real uid has now (to size RLIMIT_NPROC when not root)."""
    count = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status", "rb") as fh:
                for line in fh:
                    if line.startswith(b"Uid:"):
                        count += int(line.split()[1]) == uid
                        break
        except OSError:  # the process ended while we looked
            continue
    return count


def _rlimits(limits: Limits, host_uid: int | None, cgroup: bool) -> dict[int, int]:
    cpu = limits.cpu_s if limits.cpu_s is not None else int(limits.wall_s) + 1
    nproc = limits.max_processes
    if host_uid is None:  # shared uid: RLIMIT_NPROC counts every process this user owns
        nproc += _processes_of(os.getuid())
    return {
        resource.RLIMIT_CPU: cpu,
        resource.RLIMIT_AS: limits.process_memory_bytes(cgroup),
        resource.RLIMIT_NPROC: nproc,
        resource.RLIMIT_FSIZE: limits.max_file_bytes,
        resource.RLIMIT_NOFILE: limits.max_open_files,
        resource.RLIMIT_CORE: 0,
    }


# The launcher: /bin/sh joins the run's cgroup, sets the rlimits (ulimit sets soft and hard),
# writes one byte, "L", to stdout to say it got that far, and execs the rest (setpriv, when
# root, drops to the fresh uid; then bwrap). Python then starts it with vfork, not with fork
# plus a preexec_fn: a fork copies the caller's page tables and the Python code of a
# preexec_fn runs in the child on copy-on-write pages (measured with perf over code
# verifications: the verifying process's kernel time fell from 14% to 3% of all CPU, and the
# two small execs cost 6%).
# $1 cgroup.procs ("" for none), $2.. cpu s, AS KiB, processes, file size in 512-byte blocks, files.
_LAUNCH = """set -e
[ -z "$1" ] || echo $$ > "$1"
ulimit -t "$2"; ulimit -v "$3"; ulimit -p "$4"; ulimit -f "$5"; ulimit -n "$6"; ulimit -c 0
shift 6
printf L
exec "$@"
"""
_SH = "/bin/sh"
# The launcher's and bwrap's own environment (bwrap gives the sandbox a fresh one: --clearenv,
# --setenv): no locale, so that sh, setpriv and bwrap load no locale data.
_LAUNCH_ENV = {"PATH": SANDBOX_PATH}


@functools.cache
def _which(name: str) -> str | None:
    return shutil.which(name)


@functools.cache
def _executable(path: str) -> bool:
    return os.access(path, os.X_OK)


def _launcher(rlimits: dict[int, int], host_uid: int | None, cgroup: str | None) -> list[str] | None:
    """The argv prefix that applies ``rlimits``, the cgroup and the uid before the command, or
    None when this machine lacks ``/bin/sh`` (or ``setpriv`` while root): then ``_preexec``."""
    setpriv = _which("setpriv") if host_uid is not None else None
    if not _executable(_SH) or (host_uid is not None and setpriv is None):
        return None
    r = resource
    argv = [_SH, "-c", _LAUNCH, "rlvr-launch", "" if cgroup is None else os.path.join(cgroup, "cgroup.procs"),
            str(rlimits[r.RLIMIT_CPU]), str(rlimits[r.RLIMIT_AS] // 1024), str(rlimits[r.RLIMIT_NPROC]),
            str(rlimits[r.RLIMIT_FSIZE] // 512), str(rlimits[r.RLIMIT_NOFILE])]  # fmt: skip
    if host_uid is not None:
        argv += [setpriv, f"--reuid={host_uid}", f"--regid={host_uid}", "--clear-groups", "--"]
    return argv


def _preexec(rlimits: dict[int, int], host_uid: int | None, cgroup: str | None):
    """Without ``_launcher``: runs in the child between fork and exec of bwrap: join the run's
    cgroup, set the rlimits, drop to the fresh uid (in that order: joining needs root)."""
    procs = None if cgroup is None else os.path.join(cgroup, "cgroup.procs")

    def apply() -> None:
        if procs is not None:
            with open(procs, "w") as fh:
                fh.write(str(os.getpid()))
        for which, value in rlimits.items():
            resource.setrlimit(which, (value, value))
        if host_uid is not None:
            os.setgroups([])
            os.setresgid(host_uid, host_uid, host_uid)
            os.setresuid(host_uid, host_uid, host_uid)

    return apply


def _spawn(command: list[str], rlimits: dict[int, int], host_uid: int | None, cgroup: str | None,
           wait: bool = True, **popen) -> tuple[subprocess.Popen, bool]:  # fmt: skip
    """Start ``command`` (stdout a pipe) under the rlimits, cgroup and uid. Returns the process
    and whether its launcher's byte is still to be read (``wait=False``; see ``_launched``)."""
    prefix = _launcher(rlimits, host_uid, cgroup)
    if prefix is None:
        return subprocess.Popen(command, preexec_fn=_preexec(rlimits, host_uid, cgroup), **popen), False
    proc = subprocess.Popen(prefix + command, **popen)
    if wait:
        _launched(proc, command[0])
    return proc, not wait


def _launched(proc: subprocess.Popen, what: str) -> None:
    """Consume the launcher's byte; raise (after killing it) when the launcher failed."""
    if os.read(proc.stdout.fileno(), 1) == b"L":
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    _, err = proc.communicate(timeout=10)
    raise RuntimeError(f"the sandbox launcher failed (exit {proc.returncode}) before starting {what}: "
                       f"{(err or b'').decode('utf-8', 'replace').strip()[-500:]}")


# ----------------------------------------------------------------------------- running


_SEALS = fcntl.F_SEAL_SEAL | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE


def _memfd(name: str, data: bytes) -> int:
    """A memfd holding ``data``, sealed against any change: whoever inherits it can read it, and
    nobody (a sandboxed process that kept a copy included) can rewrite, grow or shrink it."""
    fd = os.memfd_create(name, os.MFD_ALLOW_SEALING)  # no MFD_CLOEXEC: inherited through pass_fds
    _fill(fd, data)
    return fd


def _fill(fd: int, data: bytes) -> None:
    """Write ``data`` into an empty memfd, rewind it (the offset is shared with every holder) and seal it."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.lseek(fd, 0, os.SEEK_SET)
    fcntl.fcntl(fd, fcntl.F_ADD_SEALS, _SEALS)


@dataclass(frozen=True)
class Payload:
    """What a run is given, all through file descriptors (no host file is written).

    ``files`` maps absolute sandbox paths (under ``/work``, ``/tmp`` or a new directory) to
    contents, read-only unless listed in ``writable_files``; ``inputs`` become one inherited
    memfd each, whose number replaces ``{NAME}`` in argv; ``stdin`` is the program's standard
    input; ``ro_binds`` are host paths mounted read-only (or ``(host, sandbox)`` path pairs: the
    unsandboxed fallback sees the host path); ``env`` is the unsandboxed
    fallback's environment (the sandbox's own is always minimal)."""

    stdin: bytes = b""
    files: Mapping[str, bytes] = field(default_factory=dict)
    writable_files: Sequence[str] = ()
    inputs: Mapping[str, bytes] = field(default_factory=dict)
    ro_binds: Sequence[str | tuple[str, str]] = ()
    env: Mapping[str, str] | None = None


def run(
    argv: Sequence[str],
    payload: Payload = Payload(),
    *,
    limits: Limits = Limits(),
    channel_out: bool = False,
    allow_unsandboxed: bool = False,
    host_uid: int | None = None,
    prestart: Sequence[str] | None = None,
    _probe: bool = False,
) -> RunResult:
    """Run ``argv`` sandboxed with ``payload``; return everything it wrote (capped) and how it ended.

    ``{fd_out}`` in ``argv`` is replaced by the number of the record pipe (``channel_out``), and
    ``{NAME}`` by the fd number of ``payload.inputs[NAME]``.

    ``prestart`` names the inputs that are the same in every run of this ``argv`` (a runtime, say)
    and makes ``argv`` responsible for waiting: it must read one byte from ``{go}`` (the read end
    of a pipe) before it reads any other input or runs anything untrusted, and stop at end of
    file. Each such run then starts the next one with the same argv, limits, input names and
    prestart inputs ahead (``_started``): a fresh sandbox, cgroup and uid of its own, launched up
    to that wait while this one runs, so that the next call only fills its inputs, seals them and
    writes the byte. Nothing is shared between the two runs. Payload ``files`` are not allowed
    with ``prestart`` (bwrap lays them out before the command starts).
    """
    if not _probe and not allow_unsandboxed:
        require()
    sandboxed = _probe or probe() is None
    if not sandboxed:
        _warn_unsandboxed()
    if prestart is not None:
        if payload.files:
            raise ValueError("sandbox.run: prestart runs take inputs, not files")
        missing = sorted(set(prestart) - set(payload.inputs))
        if missing:
            raise ValueError(f"sandbox.run: prestart names inputs the payload lacks: {missing}")
        if sandboxed and host_uid is None:
            return _run_started(argv, payload, limits, channel_out, tuple(sorted(prestart)))
        argv = [a.replace("{go}", "{_go}") for a in argv]
        payload = Payload(payload.stdin, payload.files, payload.writable_files, {**payload.inputs, "_go": b"g"},
                          payload.ro_binds, payload.env)  # unsandboxed or a fixed uid: started here, "go" at once
    host_uid = host_uid if host_uid is not None else _fresh_host_uid()
    fds: list[int] = []
    cgroup = None if _probe else _make_cgroup(limits)
    try:
        return _run(argv, payload, limits, channel_out, sandboxed, host_uid, cgroup, fds)
    finally:
        for fd in fds:
            os.close(fd)
        if cgroup is not None:
            _remove_cgroup(cgroup)


@functools.cache
def _warn_unsandboxed() -> None:
    log.warning(
        "UNSANDBOXED: bubblewrap is unavailable (%s) and allow_unsandboxed=True, so untrusted "
        "code runs with rlimits only: it can read host files and use the network.",
        probe(),
    )


def _run(argv, payload: Payload, limits: Limits, channel_out: bool, sandboxed: bool, host_uid, cgroup,
         fds: list[int]) -> RunResult:  # fmt: skip
    tmp = None if sandboxed else tempfile.mkdtemp(prefix="rlvr-unsandboxed-")
    writable, named, ro_binds, env = set(payload.writable_files), payload.inputs, payload.ro_binds, payload.env
    try:
        root = "" if sandboxed else tmp
        file_fds = [(_memfd("file", data), path, path in writable) for path, data in payload.files.items()]
        fds += [fd for fd, _, _ in file_fds]
        input_fds = {name: _memfd(name, data) for name, data in named.items()}
        fds += list(input_fds.values())
        read_out, write_out = os.pipe() if channel_out else (-1, -1)
        fds += [read_out, write_out] if channel_out else []
        program = seccomp_program() if sandboxed and limits.seccomp else None
        seccomp_fd = _memfd("seccomp", program) if program is not None else None
        fds += [seccomp_fd] if seccomp_fd is not None else []
        subst = {"{fd_out}": str(write_out), _ROOT: root, **{"{" + k + "}": str(v) for k, v in input_fds.items()}}
        command = [_substitute(a, subst) for a in argv]
        if sandboxed:
            command = bwrap_argv(limits, file_fds, ro_binds, env, seccomp_fd) + command
        else:
            _lay_out_files(tmp, file_fds, host_uid)
        stdin_fd = _memfd("stdin", payload.stdin)
        fds.append(stdin_fd)
        pass_fds = (tuple(fd for fd, _, _ in file_fds) + tuple(input_fds.values())
                    + tuple(f for f in (write_out, seccomp_fd) if f is not None and f >= 0))  # fmt: skip
        proc, _ = _spawn(
            command, _rlimits(limits, host_uid, cgroup is not None), host_uid, cgroup, pass_fds=pass_fds,
            stdin=stdin_fd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=(tmp + "/work") if tmp else "/", start_new_session=True,
            env=_LAUNCH_ENV if sandboxed else _env(env, tmp + "/tmp"),
        )  # fmt: skip
        if write_out >= 0:
            os.close(write_out)
            fds.remove(write_out)
        result = _collect(proc, read_out, limits, sandboxed, host_uid)
        result.memory_bound = "cgroup" if cgroup is not None else "rlimit"
        result.seccomp = seccomp_fd is not None
        return result
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


# ----------------------------------------------------------------------------- runs started ahead


@dataclass
class _Started:
    """A sandbox launched ahead of its run and waiting on its go pipe (``run(prestart=...)``)."""

    proc: subprocess.Popen
    cgroup: str | None
    host_uid: int | None
    inputs: dict[str, int]  # input name -> memfd; the prestart ones filled and sealed, the others empty
    stdin_fd: int
    read_out: int  # read end of the record pipe, or -1
    go_w: int  # write end of the go pipe; -1 once the byte is written
    seccomp: bool
    unread_launch: bool  # the launcher's byte is still in stdout

    def close(self) -> None:
        for fd in (*self.inputs.values(), self.stdin_fd, self.read_out, self.go_w):
            if fd >= 0:
                os.close(fd)
        self.inputs, self.stdin_fd, self.read_out, self.go_w = {}, -1, -1, -1
        if self.cgroup is not None:
            _remove_cgroup(self.cgroup)
            self.cgroup = None

    def discard(self) -> None:
        """Kill it before it ran anything of the caller's, and free what it holds."""
        _kill_group(self.proc)
        self.proc.wait()
        self.close()


_started: dict[tuple, _Started] = {}  # key -> the next run's sandbox, at most _MAX_STARTED of them
_started_lock = threading.Lock()
_MAX_STARTED = 4


def _start(argv: Sequence[str], payload: Payload, limits: Limits, channel_out: bool, prestart: tuple) -> _Started:
    """Launch a sandbox for ``argv`` up to its wait on ``{go}``, with the prestart inputs in."""
    host_uid = _fresh_host_uid()
    cgroup = _make_cgroup(limits)
    own: list[int] = []  # descriptors the parent closes once the sandbox holds them
    inputs: dict[str, int] = {}
    stdin_fd = read_out = go_w = -1
    try:
        for name, data in payload.inputs.items():
            inputs[name] = _memfd(name, data) if name in prestart else os.memfd_create(name, os.MFD_ALLOW_SEALING)
        stdin_fd = os.memfd_create("stdin", os.MFD_ALLOW_SEALING)
        if channel_out:
            read_out, write_out = os.pipe()
            own.append(write_out)
        go_r, go_w = os.pipe()
        own.append(go_r)
        program = seccomp_program() if limits.seccomp else None
        seccomp_fd = _memfd("seccomp", program) if program is not None else None
        own += [seccomp_fd] if seccomp_fd is not None else []
        subst = {"{fd_out}": str(write_out if channel_out else -1), "{go}": str(go_r), _ROOT: "",
                 **{"{" + k + "}": str(v) for k, v in inputs.items()}}  # fmt: skip
        command = bwrap_argv(limits, (), payload.ro_binds, None, seccomp_fd) + [_substitute(a, subst) for a in argv]
        proc, unread = _spawn(
            command, _rlimits(limits, host_uid, cgroup is not None), host_uid, cgroup, wait=False,
            pass_fds=(*inputs.values(), *own), stdin=stdin_fd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd="/", start_new_session=True, env=_LAUNCH_ENV,
        )  # fmt: skip
    except BaseException:
        for fd in (*inputs.values(), stdin_fd, read_out, go_w, *own):
            if fd >= 0:
                os.close(fd)
        if cgroup is not None:
            _remove_cgroup(cgroup, wait_s=0.0)
        raise
    for fd in own:
        os.close(fd)
    return _Started(proc, cgroup, host_uid, inputs, stdin_fd, read_out, go_w, seccomp_fd is not None, unread)


def _run_started(argv, payload: Payload, limits: Limits, channel_out: bool, prestart: tuple) -> RunResult:
    key = (tuple(argv), limits, channel_out, tuple(payload.ro_binds), tuple(sorted(payload.inputs)),
           tuple(payload.inputs[name] for name in prestart))  # fmt: skip
    with _started_lock:
        run_ = _started.pop(key, None)
    if run_ is not None and run_.proc.poll() is not None:  # it died while it waited: start afresh
        run_.discard()
        run_ = None
    if run_ is None:
        run_ = _start(argv, payload, limits, channel_out, prestart)
    try:
        for name, fd in run_.inputs.items():
            if name not in prestart:
                _fill(fd, payload.inputs[name])
        _fill(run_.stdin_fd, payload.stdin)
        if run_.unread_launch:
            _launched(run_.proc, argv[0])
            run_.unread_launch = False
        os.write(run_.go_w, b"g")
        os.close(run_.go_w)
        run_.go_w = -1
        _keep(key, _start(argv, payload, limits, channel_out, prestart))
        result = _collect(run_.proc, run_.read_out, limits, True, run_.host_uid)
        result.memory_bound = "cgroup" if run_.cgroup is not None else "rlimit"
        result.seccomp = run_.seccomp
        return result
    except BaseException:
        run_.discard()
        raise
    finally:
        run_.close()


def _keep(key: tuple, run_: _Started) -> None:
    with _started_lock:
        old = [_started.pop(key)] if key in _started else []
        while len(_started) >= _MAX_STARTED:
            old.append(_started.pop(next(iter(_started))))
        _started[key] = run_
    for r in old:
        r.discard()


def discard_started() -> None:
    """Kill every sandbox started ahead (at exit; also useful before measuring a clean state)."""
    with _started_lock:
        runs = list(_started.values())
        _started.clear()
    for r in runs:
        r.discard()


atexit.register(discard_started)
os.register_at_fork(after_in_child=lambda: _started.clear())  # the child owns none of them


def _substitute(arg: str, subst: Mapping[str, str]) -> str:
    for key, value in subst.items():
        arg = arg.replace(key, value)
    return arg


def _lay_out_files(tmp: str, file_fds, host_uid: int | None) -> None:
    """Unsandboxed mode: write the files under the temporary root, owned as the sandbox is."""
    for sub in ("work", "tmp"):
        os.makedirs(os.path.join(tmp, sub))
    for fd, path, is_writable in file_fds:
        dest = tmp + path
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "wb") as fh:
            fh.write(os.pread(fd, os.fstat(fd).st_size, 0))
        os.chmod(dest, 0o644 if is_writable else 0o444)
        if host_uid is not None and is_writable:
            os.chown(dest, host_uid, host_uid)
    if host_uid is not None:
        os.chmod(tmp, 0o755)
        for sub in ("work", "tmp"):
            os.chown(os.path.join(tmp, sub), host_uid, host_uid)


def _collect(proc: subprocess.Popen, read_out: int, limits: Limits, sandboxed: bool,
             host_uid: int | None) -> RunResult:  # fmt: skip
    """Read stdout, stderr and the channel until EOF, a cap, or the wall deadline."""
    start = time.monotonic()
    deadline = start + limits.wall_s
    caps = {"stdout": limits.max_stdout_bytes, "stderr": limits.max_stderr_bytes,
            "channel": limits.max_channel_bytes}  # fmt: skip
    bufs = {name: bytearray() for name in caps}
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ, "stdout")
    sel.register(proc.stderr, selectors.EVENT_READ, "stderr")
    if read_out >= 0:
        sel.register(read_out, selectors.EVENT_READ, "channel")
    timed_out, overflowed, exited_at = False, None, None
    while sel.get_map():
        now = time.monotonic()
        if exited_at is None and _has_exited(proc.pid):
            exited_at = now  # leftovers holding a pipe get a short grace, then are killed
        if now >= deadline or (exited_at is not None and now - exited_at > 1.0):
            timed_out = now >= deadline
            break
        for key, _ in sel.select(timeout=min(deadline - now, 0.05)):
            data = os.read(key.fd, 65536)
            if not data:
                sel.unregister(key.fileobj)
                continue
            bufs[key.data] += data
            if len(bufs[key.data]) > caps[key.data]:
                overflowed = key.data
        if overflowed:
            break
    sel.close()
    _kill_group(proc)
    returncode = proc.wait()
    killed = timed_out or overflowed is not None
    return RunResult(
        returncode=None if killed else returncode,
        stdout=bytes(bufs["stdout"][: caps["stdout"]]),
        stderr=bytes(bufs["stderr"][: caps["stderr"]]),
        channel=bytes(bufs["channel"][: caps["channel"]]),
        timed_out=timed_out, overflowed=overflowed, wall_s=time.monotonic() - start,
        sandboxed=sandboxed, host_uid=host_uid,
    )  # fmt: skip


def _has_exited(pid: int) -> bool:
    """Whether the child has ended, without reaping it (so its group id stays reserved)."""
    return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None


def _kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL bwrap's process group; the sandbox's pid namespace goes down with it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:  # the group is already empty
        pass
    except PermissionError:  # a leftover of another uid reused the id: not ours to kill
        pass
    for stream in (proc.stdout, proc.stderr):
        stream.close()
