"""The tool-call loop on a scripted backend: rounds, masks, sampler log-probs, limits.

The masking contract: the response is generated ids as sampled (mask True, the sampler's
logp) + observation ids from tokenising the observation alone (mask False, logp 0.0), never
a re-tokenisation of the whole text.
"""

from __future__ import annotations

import pytest

from rlvr.envs.base import Environment, Step
from rlvr.envs.tools import ToolEnv, calculator_tool
from rlvr.rollout.tools import ToolRollout
from rlvr.types import Sample, SamplingParams

from .fakes import FAKE_LOGP, FakeBackend, after_prompt

PROMPT = "48213+90412=? Use <tool> and <answer>.\n"
OUTPUT = "<output>138625</output>"
FULL = "<think><tool>48213+90412</tool><output>138625</output></think><answer>138625</answer>"


def one_call(ctx: str) -> str:
    resp = after_prompt(ctx)
    if "<output>" not in resp:
        return "<think><tool>48213+90412</tool>never seen: the loop pauses at </tool>"
    return "</think><answer>138625</answer>"


def ids(tok, text: str) -> list[int]:
    return tok(text, add_special_tokens=False)["input_ids"]


def tool_rollout(tok, script, max_calls=1, env=None, **kw):
    backend = FakeBackend(tok, script)
    make_env = env or (lambda: ToolEnv(calculator_tool))
    return backend, ToolRollout(backend, tok, make_env, max_calls, **kw)


def test_call_runs_and_generation_resumes_with_full_context(tiny_tokenizer):
    tok = tiny_tokenizer
    backend, ro = tool_rollout(tok, one_call)
    comps = ro.generate([ids(tok, PROMPT)], SamplingParams(max_new_tokens=64, n=2))
    assert len(comps) == 2
    for c in comps:
        assert c.text == FULL
        assert (c.tool_calls, c.tool_errors, c.finish_reason) == (1, 0, "stop")
        assert c.token_ids[-1] == tok.eos_token_id and c.policy_version == 7
        assert c.prompt_ids == ids(tok, PROMPT)
    # round 1: the prompt with n=2 and </tool> as extra stop; round 2: both contexts with n=1
    (p1, s1), (p2, s2) = backend.calls
    pause = ids(tok, "</tool>")[-1]
    assert p1 == [ids(tok, PROMPT)] and s1.n == 2 and pause in s1.stop_token_ids and s1.max_new_tokens == 64
    first = ids(tok, "<think><tool>48213+90412</tool>") + ids(tok, OUTPUT)
    assert p2 == [ids(tok, PROMPT) + first] * 2 and s2.n == 1
    assert s2.max_new_tokens == 64 - len(first)  # the length limit counts generated and tool tokens


def test_tool_output_ids_are_the_output_tokenised_alone_and_masked(tiny_tokenizer):
    tok = tiny_tokenizer
    _, ro = tool_rollout(tok, one_call)
    (c,) = ro.generate([ids(tok, PROMPT)], SamplingParams(max_new_tokens=64))
    head, obs = ids(tok, "<think><tool>48213+90412</tool>"), ids(tok, OUTPUT)
    tail = ids(tok, "</think><answer>138625</answer>") + [tok.eos_token_id]
    assert c.token_ids == head + obs + tail
    assert len(obs) == 8  # <output>, six digits, </output>: tags are single tokens
    assert c.loss_mask == [True] * len(head) + [False] * len(obs) + [True] * len(tail)
    assert c.sampler_logp == [FAKE_LOGP] * len(head) + [0.0] * len(obs) + [FAKE_LOGP] * len(tail)
    masked = [t for t, m in zip(c.token_ids, c.loss_mask) if not m]
    assert masked == obs


def test_generated_ids_are_kept_as_sampled_not_retokenised(tiny_tokenizer):
    """The backend spells <think> as six character tokens; re-tokenising the text would
    turn them into the single <think> tag token. The loop keeps what was sampled."""
    tok = tiny_tokenizer
    spelled = [tok.convert_tokens_to_ids(ch) for ch in "<think>"]

    def script(ctx):
        if "<output>" in after_prompt(ctx):
            return "</think><answer>138625</answer>"
        return spelled + ids(tok, "<tool>48213+90412</tool>")

    _, ro = tool_rollout(tok, script)
    (c,) = ro.generate([ids(tok, PROMPT)], SamplingParams(max_new_tokens=64))
    assert c.text == FULL
    assert c.token_ids[:7] == spelled and ids(tok, c.text)[:1] == ids(tok, "<think>")
    assert c.token_ids != ids(tok, c.text) + [tok.eos_token_id]


def test_call_limit_k_then_no_more_pauses(tiny_tokenizer):
    tok = tiny_tokenizer
    backend, ro = tool_rollout(tok, lambda ctx: "<tool>1+1</tool>" * 4 + "<answer>2</answer>", max_calls=2)
    (c,) = ro.generate([ids(tok, "q\n")], SamplingParams(max_new_tokens=200))
    assert c.tool_calls == 2 and c.finish_reason == "stop"
    assert c.text == "<tool>1+1</tool><output>2</output>" * 2 + "<tool>1+1</tool>" * 4 + "<answer>2</answer>"
    pause = ids(tok, "</tool>")[-1]
    assert [pause in s.stop_token_ids for _, s in backend.calls] == [True, True, False]
    assert sum(not m for m in c.loss_mask) == 2 * len(ids(tok, "<output>2</output>"))


def test_zero_calls_allowed_is_plain_generation(tiny_tokenizer):
    tok = tiny_tokenizer
    backend, ro = tool_rollout(tok, lambda ctx: "<tool>1+1</tool><answer>2</answer>", max_calls=0)
    (c,) = ro.generate([ids(tok, "q\n")], SamplingParams(max_new_tokens=50))
    assert (c.tool_calls, c.text, len(backend.calls)) == (0, "<tool>1+1</tool><answer>2</answer>", 1)
    assert all(c.loss_mask)


def test_sequence_with_calls_used_up_resumes_while_others_still_call(tiny_tokenizer):
    """K=1. Prompt a: a real call, then a second call that is not run. Prompt b: a stray
    </tool> (no call), then a real call. Round 2 still pauses at </tool> for b; a stops there
    too and is resumed without output."""
    tok = tiny_tokenizer

    def script(ctx):
        resp = after_prompt(ctx)
        if ctx.startswith("a"):
            return ["<tool>2+2</tool>", "<tool>3+3</tool>", "<answer>4</answer>"][min(resp.count("<tool>"), 2)]
        return ("x</tool>" if not resp else "<tool>5+5</tool>") if "<output>" not in resp else "<answer>10</answer>"

    backend, ro = tool_rollout(tok, script, max_calls=1)
    a, b = ro.generate([ids(tok, "a\n"), ids(tok, "b\n")], SamplingParams(max_new_tokens=80))
    assert a.text == "<tool>2+2</tool><output>4</output><tool>3+3</tool><answer>4</answer>"
    assert b.text == "x</tool><tool>5+5</tool><output>10</output><answer>10</answer>"
    assert (a.tool_calls, b.tool_calls) == (1, 1)
    assert [len(p) for p, _ in backend.calls] == [2, 2, 2]


def test_multi_token_close_marker_pauses_on_its_last_token(tiny_tokenizer):
    """A fenced block: the close marker ``` is three tokens; the loop stops on every backtick
    and resumes silently until the text ends with a complete call."""
    tok = tiny_tokenizer

    def script(ctx):
        resp = after_prompt(ctx)
        done = "```python\n20*21\n```"
        return done[len(resp):] if len(resp) < len(done) else ("<answer>420</answer>" if "<output>" in resp else "")

    env = lambda: ToolEnv(calculator_tool, ("```python\n", "```"), ("<output>", "</output>"))  # noqa: E731
    backend, ro = tool_rollout(tok, script, env=env)
    (c,) = ro.generate([ids(tok, "q\n")], SamplingParams(max_new_tokens=80))
    assert c.text == "```python\n20*21\n```<output>420</output><answer>420</answer>"
    assert (c.tool_calls, c.tool_errors) == (1, 0)
    assert len(backend.calls) == 7  # six backticks, each a pause, then the rest


def test_budget_cuts_the_tool_output_and_the_finish_is_length(tiny_tokenizer):
    tok = tiny_tokenizer
    head = ids(tok, "<think><tool>48213+90412</tool>")
    _, ro = tool_rollout(tok, one_call)
    (c,) = ro.generate([ids(tok, PROMPT)], SamplingParams(max_new_tokens=len(head) + 3))
    assert c.finish_reason == "length" and len(c.token_ids) == len(head) + 3
    assert c.token_ids[len(head):] == ids(tok, OUTPUT)[:3] and c.loss_mask == [True] * len(head) + [False] * 3
    assert c.text == "<think><tool>48213+90412</tool><output>13"


@pytest.mark.parametrize("budget", [1, 5, 13, 14, 15, 16, 22, 23, 31, 32, 40])
def test_length_limit_counts_generated_and_tool_tokens(tiny_tokenizer, budget):
    tok = tiny_tokenizer
    _, ro = tool_rollout(tok, one_call)
    (c,) = ro.generate([ids(tok, PROMPT)], SamplingParams(max_new_tokens=budget))
    full = ids(tok, FULL) + [tok.eos_token_id]
    assert len(full) == 32  # call 14 (</tool> is token 14), output 8, answer 9, EOS 1
    assert c.token_ids == full[:budget]
    assert c.finish_reason == ("stop" if budget >= 32 else "length")
    assert c.tool_calls == (1 if budget > 14 else 0)  # a call needs room for output after </tool>
    assert c.loss_mask == [not 14 <= j < 22 for j in range(min(budget, 32))]


def test_calculator_errors_are_counted_and_shown(tiny_tokenizer):
    tok = tiny_tokenizer
    script = lambda ctx: "<answer>?</answer>" if "<output>" in ctx else "<tool>1/0</tool>"  # noqa: E731
    _, ro = tool_rollout(tok, script)
    (c,) = ro.generate([ids(tok, "q\n")], SamplingParams(max_new_tokens=80))
    assert c.text == "<tool>1/0</tool><output>error: division by zero</output><answer>?</answer>"
    assert (c.tool_calls, c.tool_errors) == (1, 1)


class EndingEnv(Environment):
    """Answers the first call and ends the episode with reward 1."""

    stop_text = "</tool>"
    seen: list = []

    def reset(self, sample):
        super().reset(sample)
        EndingEnv.seen.append(sample)

    def step(self, action_text):
        self.calls += 1
        return Step(f"<output>{action_text}</output>", True, 1.0)


def test_environment_done_reward_and_samples(tiny_tokenizer):
    tok = tiny_tokenizer
    EndingEnv.seen = []
    backend, ro = tool_rollout(tok, lambda ctx: "<tool>7</tool>more", env=EndingEnv)
    sample = Sample(id="s", prompt="q\n", answer="7")
    comps = ro.generate([ids(tok, "q\n")], SamplingParams(max_new_tokens=80, n=2), samples=[sample])
    for c in comps:
        assert c.text == "<tool>7</tool><output><tool>7</tool></output>" and c.finish_reason == "stop"
        assert c.loss_mask[-1] is False and c.tool_calls == 1
    assert ro.last_env_rewards == [1.0, 1.0] and len(backend.calls) == 1
    assert EndingEnv.seen[-2:] == [sample, sample]
    with pytest.raises(ValueError, match="2 samples for 1 prompts"):
        ro.generate([ids(tok, "q\n")], SamplingParams(), samples=[sample, sample])


def test_protocol_attributes_pass_through(tiny_tokenizer):
    backend, ro = tool_rollout(tiny_tokenizer, one_call)
    assert (ro.version, ro.gen) == (7, "the generator")
    ro.sync_weights()
    assert backend.synced == 1
    with pytest.raises(ValueError, match="max_calls"):
        ToolRollout(backend, tiny_tokenizer, lambda: ToolEnv(calculator_tool), -1)


def test_a_bpe_marker_pauses_only_at_the_whole_marker(tmp_path):
    """With a byte-level BPE vocabulary "</tool>" ends in the token '>', which "<think>", "<tool>" and
    "x > 3" also end in: the loop stops there but calls the tool only at the whole marker."""
    from transformers import AutoTokenizer

    from models.chat_model import build_chat_model

    tok = AutoTokenizer.from_pretrained(build_chat_model(tmp_path / "chat"))
    marker = ids(tok, "</tool>")
    assert len(marker) > 1 and ids(tok, "x > 3")[2] == marker[-1]  # the premise: a shared last token
    first = "<think>x > 3 so <tool>1+2</tool>"
    seen: list[str] = []

    def script(ctx: str) -> str:
        resp = after_prompt(ctx)
        seen.append(resp)
        if "<output>" not in resp:
            assert first.startswith(resp), resp
            return first[len(resp):]  # carry on where the last round stopped
        return "</think><answer>3</answer>"

    actions: list[str] = []

    class Recording(ToolEnv):  # an environment may rely on being stepped only at its marker
        def step(self, action_text):
            actions.append(action_text)
            return super().step(action_text)

    backend, ro = tool_rollout(tok, script, max_calls=1, env=lambda: Recording(calculator_tool))
    prompt = ids(tok, "What is 1+2?\n")
    (comp,) = ro.generate([prompt], SamplingParams(max_new_tokens=200, n=1))
    assert actions == [first]  # stepped once, at the whole marker
    assert comp.tool_calls == 1 and comp.tool_errors == 0
    assert comp.text == "<think>x > 3 so <tool>1+2</tool><output>3</output></think><answer>3</answer>"
    assert len(seen) >= 4  # paused after "<think>", "x >" and "<tool>" without calling the tool
    observation = [t for t, m in zip(comp.token_ids, comp.loss_mask) if not m]
    assert tok.decode(observation) == "<output>3</output>"
