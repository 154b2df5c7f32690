"""The trainer: set-up (``run``), the loop (``loop``), the update, checkpoints, ranks.

``rlvr.train(...)`` (this package, called) is :func:`rlvr.train.api.train`: one run from Python,
with a reward function and an in-memory dataset (``docs/api.md``). The package stays a
package (``rlvr.train.loop`` and the rest import as before); calling it starts a run.
"""

from __future__ import annotations

import sys
import types


class _CallablePackage(types.ModuleType):
    def __call__(self, *args, **kwargs):
        from rlvr.train.api import train

        return train(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage
