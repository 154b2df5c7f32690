"""rlvr: reinforcement learning from verifiable rewards — sample, verify, reinforce.

``import rlvr`` stays light: torch, transformers and optional backends are imported by
the subpackages that need them.
"""

__version__ = "0.1.0"
