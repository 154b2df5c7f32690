"""Run an untrusted program in a bubblewrap sandbox with hard limits, and read what it said.

What it does:
- ``run(argv, ...)`` starts ``bwrap`` with no network, no view of host files (only ``/usr``
  and the ``/lib*``, ``/bin`` links are mounted, read-only), private tmpfs ``/tmp``,
  ``/work`` and ``/dev/shm`` of bounded size, new pid/ipc/uts/user/cgroup namespaces, all
  capabilities dropped, nested user namespaces disabled, and the command as pid 1 of its pid
  namespace (so every process it leaves behind dies with it).
- When the caller is root, bwrap itself is started under a fresh random unprivileged uid
  (2,000,000 and up), so ``RLIMIT_NPROC`` is really enforced (the kernel never enforces it
  for uid 0, not even inside a user namespace) and counts this run's processes only. Inside,
  the program sees uid/gid 65534.
- rlimits (CPU seconds, address space, processes, file size, open files) are set between
  fork and exec of bwrap; the wall timeout kills bwrap's whole process group (the sandbox
  dies with it: ``--die-with-parent`` plus pid-namespace teardown); every output stream is
  read up to a cap and the run is killed when a stream passes it.
- Inputs go in through file descriptors, never through host files: ``files`` become files
  under the sandbox root (read-only by default) and ``channel_in`` is an inherited memfd
  whose number is passed to the command; ``channel_out`` is an inherited pipe the trusted
  in-sandbox runner writes its records to (see ``docs/sandbox.md`` for the protocol).

What it deliberately does not do: no seccomp filter (the kernel's full syscall surface for an
unprivileged user stays reachable), no cgroup (memory is capped per process by
``RLIMIT_AS``, so the total is bounded by processes x address space, and the wall timeout),
no judging of results: callers decide what the bytes mean. ``signal.alarm`` is never used.

Fallback: when bwrap or user namespaces are unavailable, ``run`` raises
``SandboxUnavailable`` unless ``allow_unsandboxed=True``, which runs the command directly with
the same rlimits (and the uid drop when root) in a temporary directory, and logs a loud
warning once per process. ``{root}`` in ``argv`` is replaced by ``""`` in the sandbox and by
that temporary directory when unsandboxed (``files`` keys are always sandbox paths, laid out
under it when unsandboxed).
"""

from __future__ import annotations

import functools
import logging
import os
import resource
import secrets
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from typing import Mapping, Sequence

log = logging.getLogger("rlvr.sandbox")

SANDBOX_UID = 65534  # what the program sees inside (nobody)
HOST_UID_BASE = 2_000_000  # fresh host uids are drawn from [base, base + span)
HOST_UID_SPAN = 1_000_000_000
SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"
_ROOT = "{root}"
_LIB_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


class SandboxUnavailable(RuntimeError):
    """bwrap is missing or cannot create the namespaces it needs on this machine."""


@dataclass(frozen=True)
class Limits:
    """Resource limits of one sandboxed run (each per process unless said otherwise)."""

    wall_s: float = 10.0  # whole run, enforced by the parent: kills the process group
    cpu_s: int | None = None  # RLIMIT_CPU; None -> ceil(wall_s) + 1
    memory_bytes: int = 1 << 30  # RLIMIT_AS
    max_processes: int = 32  # RLIMIT_NPROC (threads count too); per run when root
    max_file_bytes: int = 16 << 20  # RLIMIT_FSIZE
    max_open_files: int = 256  # RLIMIT_NOFILE
    tmpfs_bytes: int = 64 << 20  # size of each of /tmp, /work, /dev/shm
    max_stdout_bytes: int = 1 << 20  # more than this: the run is killed
    max_stderr_bytes: int = 64 << 10
    max_channel_bytes: int = 8 << 20


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


@functools.lru_cache(maxsize=None)
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


@functools.lru_cache(maxsize=None)
def _bwrap() -> str | None:
    return shutil.which("bwrap")


def require() -> None:
    """Raise ``SandboxUnavailable`` with the reason when the sandbox cannot run here."""
    reason = probe()
    if reason is not None:
        raise SandboxUnavailable(reason)


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
    ro_binds: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
) -> list[str]:
    """The bwrap prefix: namespaces, mounts, identity, environment (command not included).

    ``file_fds`` are ``(fd, sandbox_path, writable)``: bwrap copies the fd's content there.
    ``ro_binds`` are host paths mounted read-only at the same place (e.g. one config file).
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
        argv += ["--ro-bind", path, path]
    for fd, dest, writable in file_fds:
        argv += ["--perms", "0644" if writable else "0444"]
        argv += ["--file" if writable else "--ro-bind-data", str(fd), dest]
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


def _rlimits(limits: Limits, host_uid: int | None) -> dict[int, int]:
    cpu = limits.cpu_s if limits.cpu_s is not None else int(limits.wall_s) + 1
    nproc = limits.max_processes
    if host_uid is None:  # shared uid: RLIMIT_NPROC counts every process this user owns
        nproc += _processes_of(os.getuid())
    return {
        resource.RLIMIT_CPU: cpu,
        resource.RLIMIT_AS: limits.memory_bytes,
        resource.RLIMIT_NPROC: nproc,
        resource.RLIMIT_FSIZE: limits.max_file_bytes,
        resource.RLIMIT_NOFILE: limits.max_open_files,
        resource.RLIMIT_CORE: 0,
    }


def _preexec(rlimits: dict[int, int]):
    """Runs in the child between fork and exec: only setrlimit calls (no locks, no imports)."""

    def apply() -> None:
        for which, value in rlimits.items():
            resource.setrlimit(which, (value, value))

    return apply


# ----------------------------------------------------------------------------- running


def _memfd(name: str, data: bytes) -> int:
    fd = os.memfd_create(name, 0)  # no MFD_CLOEXEC: inherited through pass_fds
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def run(
    argv: Sequence[str],
    *,
    limits: Limits = Limits(),
    stdin: bytes = b"",
    files: Mapping[str, bytes] | None = None,
    writable_files: Sequence[str] = (),
    channel_in: bytes | None = None,
    channel_out: bool = False,
    ro_binds: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    allow_unsandboxed: bool = False,
    host_uid: int | None = None,
    _probe: bool = False,
) -> RunResult:
    """Run ``argv`` sandboxed; return everything it wrote (capped) and how it ended.

    ``{fd_in}`` / ``{fd_out}`` in ``argv`` are replaced by the channel fd numbers. ``files``
    maps absolute sandbox paths (under ``/work``, ``/tmp`` or a new directory) to contents;
    those in ``writable_files`` are writable copies, the rest read-only.
    """
    if not _probe and not allow_unsandboxed:
        require()
    sandboxed = _probe or probe() is None
    if not sandboxed:
        _warn_unsandboxed()
    host_uid = host_uid if host_uid is not None else _fresh_host_uid()
    fds: list[int] = []
    try:
        return _run(argv, limits, stdin, files or {}, set(writable_files), channel_in,
                    channel_out, ro_binds, env, sandboxed, host_uid, fds)  # fmt: skip
    finally:
        for fd in fds:
            os.close(fd)


@functools.lru_cache(maxsize=None)
def _warn_unsandboxed() -> None:
    log.warning(
        "UNSANDBOXED: bubblewrap is unavailable (%s) and allow_unsandboxed=True, so untrusted "
        "code runs with rlimits only: it can read host files and use the network.",
        probe(),
    )


def _run(argv, limits, stdin, files, writable, channel_in, channel_out, ro_binds, env,
         sandboxed, host_uid, fds) -> RunResult:  # fmt: skip
    tmp = None if sandboxed else tempfile.mkdtemp(prefix="rlvr-unsandboxed-")
    try:
        root = "" if sandboxed else tmp
        file_fds = [(_memfd("file", data), path, path in writable) for path, data in files.items()]
        fds += [fd for fd, _, _ in file_fds]
        fd_in = _memfd("channel", channel_in) if channel_in is not None else -1
        fds += [fd_in] if fd_in >= 0 else []
        read_out, write_out = os.pipe() if channel_out else (-1, -1)
        fds += [read_out, write_out] if channel_out else []
        subst = {"{fd_in}": str(fd_in), "{fd_out}": str(write_out), _ROOT: root}
        command = [_substitute(a, subst) for a in argv]
        if sandboxed:
            command = bwrap_argv(limits, file_fds, ro_binds, env) + command
        else:
            _lay_out_files(tmp, file_fds, host_uid)
        stdin_fd = _memfd("stdin", stdin)
        fds.append(stdin_fd)
        pass_fds = tuple(fd for fd, _, _ in file_fds) + tuple(f for f in (fd_in, write_out) if f >= 0)
        proc = subprocess.Popen(
            command, stdin=stdin_fd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            pass_fds=pass_fds, cwd=(tmp + "/work") if tmp else "/", start_new_session=True,
            env=_env(None, "/tmp") if sandboxed else _env(env, tmp + "/tmp"),
            user=host_uid, group=host_uid, extra_groups=[] if host_uid is not None else None,
            preexec_fn=_preexec(_rlimits(limits, host_uid)),
        )  # fmt: skip
        if write_out >= 0:
            os.close(write_out)
            fds.remove(write_out)
        return _collect(proc, read_out, limits, sandboxed, host_uid)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


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
