"""Environments a policy acts in during a rollout: the interface (``base``) and the built-in
tool environment with its tools, a calculator and Python in the code sandbox (``tools``).

Torch-free, like ``rlvr.verifiers``: an environment turns text into text. The loop that
drives environments from inside generation lives in ``rlvr.rollout.tools``.
"""
