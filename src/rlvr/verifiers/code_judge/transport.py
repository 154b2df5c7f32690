"""The transport and its framing: a pipe pair (and, where it is available, shared memory) between
judge and candidate (``Conn``), and the compact frames of the hot calls (``pack_call`` ...)."""

from __future__ import annotations

import os
import select
import struct

from .base import (
    _FUNCTION_TYPE,
    HUGE_INT,
    MAX_MESSAGE,
    ProtocolError,
    _fence,
    _read,
    _ScanContext,
    _write,
    _yield,
    dumps,
)
from .codec import exc_data

# ============================================================================ framed messages


SPIN_READS = 100  # non-blocking reads before a wait sleeps in poll (pipe only)
SPIN_YIELDS = 70  # the last this many of them yield the core first
SHM_CAP = 1 << 16  # bytes of one message in shared memory; longer ones follow in the pipe
SHM_SPIN = 400  # looks at the shared sequence byte before a wait yields the core (~30 us)
SHM_YIELDS = 4  # yields of the core before the wait sleeps in poll
_CHANNEL = 192 + SHM_CAP  # one direction: sequence byte, waiting byte, length, payload (own cache lines)
_BIG = 0xFFFFFFFF  # the length of a message that follows in the pipe
_U32 = struct.Struct("<I")


def shared_channels():
    """Two one-way message slots in anonymous shared memory, mapped before the candidate's fork.
    None where the other core may see stores out of program order (only x86-64 uses them)."""
    import mmap

    if os.uname().machine.lower() not in ("x86_64", "amd64"):  # (importing platform costs ~15 ms)
        return None
    try:
        return mmap.mmap(-1, 2 * _CHANNEL)
    except (OSError, ValueError):
        return None


class Conn:
    """Request/reply messages between the judge and the candidate; requests arriving while
    waiting are served.

    With shared memory (``shared_channels``; ``side`` 0 is the judge, 1 the candidate), each
    direction has a slot: the payload, its length, then a sequence byte the sender bumps last
    (x86 keeps stores in order, so a changed byte means a whole message). The receiver looks at
    the byte for a while (``SHM_SPIN`` looks, then ``SHM_YIELDS`` yields of the core: a round
    trip then needs no system call at all), then sets its waiting byte and sleeps in a blocking
    one-byte ``read`` of the pipe, and a sender that sees the waiting byte writes one wake-up
    byte ``w`` there: two system calls a message. Both sides put a full barrier (``_fence``)
    between their store and their load of the other's byte, so a wake-up is never lost. A
    message longer than ``SHM_CAP`` goes through the pipe as ``m``, an 8-byte length and the
    bytes. The spin adapts: a wait that had to sleep makes the next ones sleep at once (two
    processes on one core would only take turns burning their time slices), and a later wait
    tries the full spin again: the 32nd, then twice as far after each probe that failed (up to
    every 1024th). Nothing in the shared page is trusted: the receiver copies
    a message out once and checks it like one from the pipe.

    Without shared memory, a message is an 8-byte little-endian length and the bytes over the
    pipe; the read end is non-blocking and a wait first retries the read up to ``SPIN_READS``
    times (yielding the core for the last ``SPIN_YIELDS``), then sleeps in ``poll``.

    A message is ASCII JSON (first byte ``[``) or one of the binary fast-path messages
    (``fast_call``)."""

    def __init__(self, rfd, wfd, codec, serve, shm=None, side=0):
        self.rfd, self.wfd, self.codec, self.serve = rfd, wfd, codec, serve
        self.broken = False
        self.buf = bytearray()
        self.spins, self.waits = SPIN_READS, 0  # the current spin budget (see _more), waits so far
        os.set_blocking(rfd, shm is not None)  # with shared memory, the pipe is read only to sleep
        self.poller = select.poll()  # poll, not select: a descriptor number above 1023 is fine
        self.poller.register(rfd, select.POLLIN)
        self.shm, self.seq, self.last = shm, 0, 0
        if shm is not None:
            out, inc = side * _CHANNEL, (1 - side) * _CHANNEL
            self.o_seq, self.o_wait, self.o_len, self.o_data = out, out + 64, out + 128, out + 192
            self.i_seq, self.i_wait, self.i_len, self.i_data = inc, inc + 64, inc + 128, inc + 192
            self.spins, self.probe, self.probed = SHM_SPIN, 32, 0

    def send(self, message):
        self.send_bytes(dumps(message).encode("ascii"))

    def send_bytes(self, data):
        shm = self.shm
        if shm is None:
            self._write_all(len(data).to_bytes(8, "little") + data)
            return
        n = len(data)
        if n <= SHM_CAP:
            shm[self.o_data:self.o_data + n] = data
            _U32.pack_into(shm, self.o_len, n)
            self.seq = seq = (self.seq + 1) & 255
            shm[self.o_seq] = seq
            _fence()  # the sequence byte is seen before the waiting byte is read (see _wait_shm)
            if shm[self.o_wait]:
                _write(self.wfd, b"w")
            return
        _U32.pack_into(shm, self.o_len, _BIG)
        self.seq = seq = (self.seq + 1) & 255
        shm[self.o_seq] = seq
        self._write_all(b"m" + n.to_bytes(8, "little") + data)  # the receiver reads as it comes

    def _write_all(self, data):
        view = memoryview(data)
        while view:
            view = view[_write(self.wfd, view):]

    def _more(self):
        """At least one byte more in the buffer (EOFError when the peer closed the pipe)."""
        rfd = self.rfd
        self.waits += 1
        spins = self.spins if self.waits & 31 else SPIN_READS  # every 32nd wait probes a full spin
        if not spins:
            self.poller.poll()
        while True:
            try:
                chunk = _read(rfd, 1 << 20)
            except BlockingIOError:
                if spins:
                    spins -= 1
                    if spins < SPIN_YIELDS:
                        _yield()  # the peer may be waiting for this core: let it answer
                    continue
                self.spins = 0  # the answer did not come while spinning: sleep at once until a probe succeeds
                self.poller.poll()
                continue
            if not chunk:
                raise EOFError("peer closed the pipe")
            # came while spinning without yielding: keep spinning; after yields (the core was
            # shared, and the yields may have run other processes): sleep from now on
            self.spins = SPIN_READS if spins > SPIN_YIELDS else 0
            self.buf += chunk
            return

    def _wait_shm(self):
        """Until the peer's sequence byte moves (see the class docstring)."""
        shm, i_seq, last = self.shm, self.i_seq, self.last
        self.waits += 1
        spins = self.spins
        if not spins and self.waits >= self.probe:  # a probe: the full spin again
            spins = SHM_SPIN
            self.probe = self.waits + min(2 * (self.probe - self.probed), 1024)  # failed probes: rarer
            self.probed = self.waits
        if spins:
            while spins:
                if shm[i_seq] != last:
                    self.spins = SHM_SPIN
                    self.probe = self.waits + 32
                    return
                spins -= 1
            for _ in range(SHM_YIELDS):
                _yield()  # the peer may be waiting for this core
                if shm[i_seq] != last:
                    self.spins = 0
                    return
        self.spins = 0  # the answer did not come while spinning: sleep at once until a probe succeeds
        shm[self.i_wait] = 1
        try:
            _fence()  # the waiting byte is seen before the sequence byte is read again (see send_bytes)
            while shm[i_seq] == last:
                chunk = _read(self.rfd, 1)  # sleeps until a wake-up byte (or a long message) comes
                if not chunk:
                    raise EOFError("peer closed the pipe")
                if chunk != b"w":
                    self.buf += chunk
        finally:
            shm[self.i_wait] = 0

    def _fill(self, size):
        """The buffer up to ``size`` bytes from the pipe (blocking; never reads past them)."""
        buf = self.buf
        while len(buf) < size:
            chunk = _read(self.rfd, min(size - len(buf), 1 << 20))
            if not chunk:
                raise EOFError("peer closed the pipe")
            buf += chunk

    def recv_bytes(self):
        """The next message's bytes."""
        shm = self.shm
        if shm is not None:
            if shm[self.i_seq] == self.last:
                self._wait_shm()
            self.last = shm[self.i_seq]
            n = _U32.unpack_from(shm, self.i_len)[0]
            if n <= SHM_CAP:
                return shm[self.i_data:self.i_data + n]
            if n != _BIG:
                raise ProtocolError("malformed message length")
            buf = self.buf
            while True:  # wake-up bytes before the message: dropped
                self._fill(1)
                if buf[0] != 0x77:  # "w"
                    break
                del buf[:len(buf) - len(buf.lstrip(b"w"))]
            self._fill(9)
            if buf[0] != 0x6D:  # "m"
                raise ProtocolError("malformed message in the pipe")
            size = int.from_bytes(buf[1:9], "little")
            if size > MAX_MESSAGE:
                raise ProtocolError(f"message of {size} bytes is too large")
            self._fill(9 + size)
            data = bytes(buf[9:9 + size])
            del buf[:9 + size]
            return data
        buf = self.buf
        while len(buf) < 8:
            self._more()
        size = int.from_bytes(buf[:8], "little")
        if size > MAX_MESSAGE:
            raise ProtocolError(f"message of {size} bytes is too large")
        while len(buf) < 8 + size:
            self._more()
        data = bytes(buf[8:8 + size])
        del buf[:8 + size]
        return data

    def decode(self, data):
        """A JSON message: a non-empty list starting with "q", "r" or "x"."""
        try:
            text = data.decode("ascii")
        except UnicodeDecodeError:
            raise ProtocolError("malformed message") from None
        message = self.codec.loads(text)
        if type(message) is not list or not message or message[0] not in ("q", "r", "x"):
            raise ProtocolError("malformed message")
        return message

    def recv(self):
        return self.decode(self.recv_bytes())

    fast = None  # the candidate's handler of binary requests (``CandidateServer.fast``); never the judge's

    def request(self, op, target, payload):
        """Send a request; serve the peer's nested requests until our reply comes."""
        self.send(["q", op, target, payload])
        return self.reply()

    def reply(self):
        """The reply to the request just sent (a binary ``V`` reply as ``["r", value]``),
        serving the peer's nested requests meanwhile."""
        while True:
            data = self.recv_bytes()
            head = data[:1]
            if head == b"V":
                return ["r", unpack_value(data)]
            if head == b"[":
                message = self.decode(data)
                if message[0] != "q":
                    return message
                self.send(self.serve(message))
            elif head == b"F" and self.fast is not None:
                self.send_bytes(self.fast(data))
            else:
                raise ProtocolError("malformed message")


# Binary fast path: a call whose arguments are all atoms, and its atom result, skip JSON.
#   request  F  u32 handle, then the arguments, each an atom
#   reply    V  one atom
#   atom     i int64 | I u32 length, signed little-endian bytes (|int| < HUGE_INT) | f float64
#            | s u32 length, UTF-8 (surrogates passed) | b u32 length, bytes | T | X (False) | N
# Everything else (keywords, other values, exceptions, what a call changed) stays JSON. The
# judge decodes a reply with exact length checks: anything malformed is a ProtocolError.
_I64 = struct.Struct("<Bq")
_F64 = struct.Struct("<Bd")
_TAG_LEN = struct.Struct("<BI")
_HEAD = struct.Struct("<BI")
_U16 = struct.Struct("<H")
_CALL_INT = struct.Struct("<BIBq")  # F, handle, i, one int argument
_VALUE_INT = struct.Struct("<BBq")  # V, i, an int result
_FUSED = frozenset((_FUNCTION_TYPE, type(_ScanContext(None).__init__)))  # Python functions and bound methods
_Q = struct.Struct("<q")
_D = struct.Struct("<d")
_MIN64, _MAX64 = -(1 << 63), 1 << 63
_FAST_FLAGS = {True: b"T", False: b"X", None: b"N"}


def pack_atom(v, parts):
    """Append ``v``'s binary form to ``parts``; False when it is no atom of the fast path."""
    t = type(v)
    if t is int:
        if _MIN64 <= v < _MAX64:
            parts.append(_I64.pack(105, v))
        elif -HUGE_INT < v < HUGE_INT:
            raw = v.to_bytes((v.bit_length() + 8) // 8, "little", signed=True)
            parts.append(_TAG_LEN.pack(73, len(raw)))
            parts.append(raw)
        else:
            return False
    elif t is str:
        try:
            raw = v.encode("utf-8", "surrogatepass")
        except UnicodeError:
            return False
        parts.append(_TAG_LEN.pack(115, len(raw)))
        parts.append(raw)
    elif t is float:
        parts.append(_F64.pack(102, v))
    elif t is bool or v is None:
        parts.append(_FAST_FLAGS[v])
    elif t is bytes:
        parts.append(_TAG_LEN.pack(98, len(v)))
        parts.append(v)
    else:
        return False
    return True


def pack_call(hid, args):
    """The ``F`` request for ``fn(*args)``, or None when an argument is no fast-path atom."""
    if len(args) == 1 and type(args[0]) is int and _MIN64 <= args[0] < _MAX64:  # the commonest: f(i)
        return _CALL_INT.pack(70, hid, 105, args[0])
    parts = [_HEAD.pack(70, hid)]
    for a in args:
        if not pack_atom(a, parts):
            return None
    return b"".join(parts)


def pack_method(hid, name, args):
    """The ``M`` request for ``obj.name(*args)`` (``op_callattr``), or None (see ``pack_call``)."""
    try:
        raw = name.encode("utf-8", "surrogatepass")
    except UnicodeError:
        return None
    if len(raw) > 0xFFFF:
        return None
    parts = [_HEAD.pack(77, hid), _U16.pack(len(raw)), raw]
    for a in args:
        if not pack_atom(a, parts):
            return None
    return b"".join(parts)


def unpack_atoms(data, pos):
    """The atoms of ``data`` from ``pos`` to its end (ProtocolError on anything malformed)."""
    out, n = [], len(data)
    try:
        while pos < n:
            tag = data[pos]
            if tag == 105:  # i
                if pos + 9 > n:
                    raise ProtocolError("truncated atom")
                out.append(_Q.unpack_from(data, pos + 1)[0])
                pos += 9
            elif tag == 102:  # f
                if pos + 9 > n:
                    raise ProtocolError("truncated atom")
                out.append(_D.unpack_from(data, pos + 1)[0])
                pos += 9
            elif tag in (115, 98, 73):  # s, b, I
                if pos + 5 > n:
                    raise ProtocolError("truncated atom")
                size = _TAG_LEN.unpack_from(data, pos)[1]
                end = pos + 5 + size
                if end > n:
                    raise ProtocolError("truncated atom")
                raw = data[pos + 5:end]
                if tag == 115:
                    out.append(str(raw, "utf-8", "surrogatepass"))
                elif tag == 98:
                    out.append(bytes(raw))
                else:
                    if size > HUGE_INT.bit_length() // 8 + 1:
                        raise ProtocolError("int too large")
                    out.append(int.from_bytes(raw, "little", signed=True))
                pos = end
            elif tag == 84:  # T
                out.append(True)
                pos += 1
            elif tag == 88:  # X
                out.append(False)
                pos += 1
            elif tag == 78:  # N
                out.append(None)
                pos += 1
            else:
                raise ProtocolError("unknown atom tag")
    except UnicodeDecodeError:
        raise ProtocolError("malformed string") from None
    return out


def unpack_value(data):
    """The one atom of a ``V`` reply."""
    if len(data) == 10 and data[1] == 105:  # an int
        return _Q.unpack_from(data, 2)[0]
    out = unpack_atoms(data, 1)
    if len(out) != 1:
        raise ProtocolError("malformed value reply")
    return out[0]


def serve_call(fn, obj, payload, enc):
    """[r, value] or [x, exception data] for one operation ``fn(obj, payload)``."""
    try:
        return ["r", fn(obj, payload)]
    except BaseException as exc:  # the exception travels as data
        return ["x", exc_data(exc, enc)]
