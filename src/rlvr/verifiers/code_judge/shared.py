"""State the tests and the program share: the tests' lists, dicts and sets passed to a call, and
the program's own the tests fetch by name, kept in step between the two processes. The
candidate's side is ``SharedState`` (a part of ``CandidateServer``); the judge's is
``JudgeCodec.tag`` / ``kept`` / ``unshare``. Each such container crosses with a key ("j<ref>":
a test's object, "c<n>": the program's) and decodes into the one object that side holds for it."""

from __future__ import annotations

import builtins
import sys
from gc import get_referents as _referents  # bound at load: a program patching gc changes nothing here

from .base import _ATOMS, _FUNCTION_TYPE, dumps
from .codec import _sync_into


class SharedState:
    """The candidate's shared containers: ``tracked`` maps a key to [the container, its encoding
    last sent (None: not compared yet), whether what a call returned holds it (``changes``)]."""

    def __init__(self):
        self.tracked, self.tracked_ids, self.dropped, self.next_key = {}, {}, [], 1
        self.anchors = ()  # what the last call returned and the object whose method it was (changes)

    def keep(self, key, fresh):
        """A tagged container decoded: the one object this process holds for that key (brought up
        to date with what the judge sent), else ``fresh``, tracked from now on."""
        entry = self.tracked.get(key)
        if entry is not None and type(entry[0]) is type(fresh):
            _sync_into(entry[0], fresh)
            entry[1] = None
            return entry[0]
        if key[0] == "c":  # a key of ours that we no longer track: a fresh copy
            return fresh
        self.tracked[key] = [fresh, None, False]
        self.tracked_ids[id(fresh)] = key
        self.codec.tagging = True
        return fresh

    def share(self, value):
        """A program's list, dict or set the tests fetched by name: tracked, so that their copy
        follows what the program does to it (``from solution import HISTORY``)."""
        if type(value) in (list, dict, set) and id(value) not in self.tracked_ids and len(self.tracked) < _TRACKED:
            key = f"c{self.next_key}"
            self.next_key += 1
            self.tracked[key] = [value, None, True]
            self.tracked_ids[id(value)] = key
            self.codec.tagging = True

    def changes(self):
        """After a request: the tracked containers it changed, encoded (they decode into the
        judge's objects), and the keys of the tests' containers the program no longer holds."""
        out, anchors, self.anchors = [], self.anchors, ()
        for key in reversed(list(self.tracked)):  # containers before the ones inside them
            entry = self.tracked[key]
            if not entry[2]:  # passed by the last call: shared while what it returned holds it
                if not _reachable(entry[0], anchors, self.env):
                    self._untrack(key, entry)
                    continue
                entry[2] = True
            gone = key[0] == "j" and _refcount(entry[0]) <= 2  # only this table holds it now
            if gone and entry[1] is None:  # held by the program during one request at most
                self._untrack(key, entry)
                continue
            try:
                value = self.codec.enc(entry[0])
                text = dumps(value)
            except BaseException:  # no longer encodes: the judge keeps what it has
                self._untrack(key, entry)
                continue
            if entry[1] is not None and text != entry[1] and len(text) <= _TRACKED_TEXT:
                out.append(value)  # its last change (a generator's finally) counts even when it is let go
            if gone or len(text) > _TRACKED_TEXT or (key[0] == "j" and len(self.tracked) > _TRACKED):
                self._untrack(key, entry)  # too big to compare after every request: a copy from now on
            else:
                entry[1] = text
        entry = None
        dropped, self.dropped = self.dropped, []
        return out, dropped

    def _untrack(self, key, entry):
        del self.tracked[key]
        if self.tracked_ids.get(id(entry[0])) == key:
            del self.tracked_ids[id(entry[0])]
        if key[0] == "j":
            self.dropped.append(key)
        self.codec.tagging = bool(self.tracked)

    def after_request(self, reply, payload):
        """Once a request of the judge's is answered (the outermost one): the shared containers it
        changed go with the reply ("held"), with the keys the program let go ("drop")."""
        if reply[0] == "x":  # containers the failed call was passed: copies, as before
            for key in [k for k, entry in self.tracked.items() if not entry[2]]:
                self._untrack(key, self.tracked[key])
            self.anchors = ()
            return
        if type(payload) is list:
            payload.clear()  # the request's arguments: the program's own references are what count
        changed, dropped = self.changes()
        if changed or dropped:
            if len(reply) < 3:
                reply.append([])
            if len(reply) < 4:
                reply.append({"$": "d", "v": []})
            if type(reply[3]) is dict and type(reply[3].get("v")) is list:
                reply[3]["v"] += [["held", changed], ["drop", dropped]]


def _self_of(fn):
    """The object whose bound method ``fn`` is (None for a function)."""
    try:
        found = fn.__self__
    except BaseException:
        return None
    return None if type(found) is type(sys) else found


def _reachable(target, anchors, env):
    """Whether ``target`` (a container of the tests) is held by one of ``anchors`` (what a call
    returned: a generator's frame, an instance's attributes, a closure's cells; the object whose
    method was called), within four steps; never through a module, a class or the program's
    globals (a module-level list keeping the test's list is not what the call gave the test)."""
    frontier, seen = [a for a in anchors if a is not None and type(a) not in _PLAIN], set()
    for _ in range(5):
        found = []
        for node in frontier:
            if node is target:
                return True
            t = type(node)
            if (id(node) in seen or node is env or node is _BUILTINS or issubclass(t, type) or t is type(sys)
                    or t in _ATOMS):  # fmt: skip
                continue
            seen.add(id(node))
            if t is _FUNCTION_TYPE:  # its cells and defaults, never its globals
                found += list(_FUNCTION_TYPE.__closure__.__get__(node) or ())
                found += list(_FUNCTION_TYPE.__defaults__.__get__(node) or ())
            else:
                found += _referents(node)
        if len(seen) > 4096:
            return False
        frontier = found
    return False


_BUILTINS = builtins.__dict__
_refcount = sys.getrefcount
_PLAIN = frozenset((list, dict, set, tuple, frozenset, int, float, str, bytes, bool, type(None)))
_TRACKED = 64  # containers tracked at most (the rest cross as copies)
_TRACKED_TEXT = 8192  # characters of a tracked container's encoding at most (compared after every request)
