"""How a failure reads in a test's record: the repr of a value and the message of an exception,
formatted without asking the candidate."""

from __future__ import annotations

from .proxies import _QUIET


def _safe_repr(value, limit=120):
    _QUIET[0] = True
    try:
        text = repr(value)
    except BaseException as exc:
        text = f"<unprintable {type(value).__name__}: {type(exc).__name__}>"
    finally:
        _QUIET[0] = False
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _why(got, expected):
    """The message of a failed ``assert A == B`` (rewritten by the host to bind both sides)."""
    return f"got {_safe_repr(got)}, expected {_safe_repr(expected)}"


def _fmt(exc):
    name = type(exc).__name__
    _QUIET[0] = True  # a candidate object among the exception's args prints without asking it
    try:
        msg = str(exc)
    except BaseException:
        msg = "<unprintable>"
    finally:
        _QUIET[0] = False
    return (name + (": " + msg if msg else ""))[:1000]
