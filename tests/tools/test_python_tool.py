"""The python tool runs the call in the bubblewrap sandbox (skipped without bwrap)."""

from __future__ import annotations

import pytest

from rlvr import sandbox
from rlvr.envs.tools import PythonTool, ToolEnv
from rlvr.rollout.tools import ToolRollout
from rlvr.types import SamplingParams

from .fakes import FakeBackend, after_prompt

pytestmark = [pytest.mark.sandbox,
              pytest.mark.skipif(sandbox.probe() is not None, reason=f"sandbox unavailable: {sandbox.probe()}")]


@pytest.fixture(scope="module")
def py():
    return PythonTool(timeout_s=3.0)


@pytest.mark.parametrize("code,text,error", [
    ("print(2**100)", "1267650600228229401496703205376", False),
    ("import math\nprint(math.comb(10, 3))", "120", False),
    ("x = 1", "", False),
    ("print('a')\n1/0", "a\nerror: ZeroDivisionError: division by zero", True),
    ("raise SystemExit(3)", "error: exit status 3", True),
    ("print(open('/etc/passwd').read())",
     "error: FileNotFoundError: [Errno 2] No such file or directory: '/etc/passwd'", True),
    ("import socket\nsocket.create_connection(('1.1.1.1', 80), timeout=1)", None, True),
    ("while True: pass", "error: timeout after 3s", True),
    ("print('x' * 200000)", "error: stdout too long", True),
])
def test_python_tool_table(py, code, text, error):
    got = py(code)
    assert got.error is error, got
    if text is not None:
        assert got.text == text


def test_python_block_through_the_loop(tiny_tokenizer, py):
    tok = tiny_tokenizer

    def script(ctx):
        resp = after_prompt(ctx)
        done = "```python\nprint(6*7)\n```"
        return done[len(resp):] if len(resp) < len(done) else "<answer>42</answer>"

    env = lambda: ToolEnv(py, ("```python\n", "```"))  # noqa: E731
    ro = ToolRollout(FakeBackend(tok, script), tok, env, max_calls=1, workers=2)
    comps = ro.generate([tok("q\n", add_special_tokens=False)["input_ids"]], SamplingParams(max_new_tokens=80, n=2))
    for c in comps:
        assert c.text == "```python\nprint(6*7)\n```<output>42</output><answer>42</answer>"
        assert (c.tool_calls, c.tool_errors) == (1, 0)


def test_python_tool_from_the_config(tiny_tokenizer):
    from rlvr.config import load_config
    from rlvr.rollout.build import with_tools

    cfg = load_config(overrides=["rollout.max_tool_calls=2", "rollout.tool=python",
                                 'rollout.tool_tags=["```python\\n", "```"]'])
    assert cfg.rollout.tool_tags == ["```python\n", "```"]

    def script(ctx):
        resp = after_prompt(ctx)
        done = "```python\nprint(sum(range(10)))\n```"
        return done[len(resp):] if len(resp) < len(done) else "<answer>45</answer>"

    ro = with_tools(cfg, FakeBackend(tiny_tokenizer, script), tiny_tokenizer)
    (c,) = ro.generate([tiny_tokenizer("q\n", add_special_tokens=False)["input_ids"]],
                       SamplingParams(max_new_tokens=80))
    assert c.text == "```python\nprint(sum(range(10)))\n```<output>45</output><answer>45</answer>"
    assert ro.max_calls == 2 and ro.workers == 4
