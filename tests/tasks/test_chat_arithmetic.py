import re

import pytest

from rlvr.tasks.chat_arithmetic import EXAMPLES, KINDS, ChatArithmeticSpec, ChatArithmeticTask, value_of
from rlvr.types import Sample
from rlvr.verifiers.mathv import verify_math


def test_deterministic_in_seed_and_position():
    a = ChatArithmeticTask(ChatArithmeticSpec(seed=3), eval_size=50)
    b = ChatArithmeticTask(ChatArithmeticSpec(seed=3), eval_size=50)
    assert [s.prompt for s in a.eval_samples] == [s.prompt for s in b.eval_samples]
    assert [s.prompt for s in a.train_batch(500, 20)] == [b.train_sample(k).prompt for k in range(500, 520)]
    other = ChatArithmeticTask(ChatArithmeticSpec(seed=4), eval_size=50)
    assert [s.prompt for s in other.eval_samples] != [s.prompt for s in a.eval_samples]


@pytest.mark.parametrize("kinds", ["add,mul", "add,sub,mul", "mul"])
def test_train_and_eval_are_disjoint_and_skip_the_examples(kinds):
    task = ChatArithmeticTask(ChatArithmeticSpec(kinds=kinds), eval_size=200)
    eval_exprs = [s.fields["expr"] for s in task.eval_samples]
    assert len(set(eval_exprs)) == 200
    train = {s.fields["expr"] for s in task.train_batch(0, 3000)}
    examples = {f"{a} {KINDS[k]} {b}" for k, (a, b) in EXAMPLES.items()}
    assert not train & set(eval_exprs) and not (train | set(eval_exprs)) & examples
    assert {s.fields["kind"] for s in task.eval_samples} == set(kinds.split(","))


def test_operands_answers_and_prompt_form():
    task = ChatArithmeticTask(ChatArithmeticSpec(kinds="add,sub,mul", digits=2), eval_size=300)
    for s in task.eval_samples:
        op = KINDS[s.fields["kind"]]
        a, b = (int(x) for x in s.fields["expr"].split(f" {op} "))
        assert 10 <= a <= 99 and (2 <= b <= 9 if op == "*" else 10 <= b <= 99)
        assert op != "-" or a > b
        assert s.answer == str(value_of(a, op, b)) and int(s.answer) >= 0
        ea, eb = EXAMPLES[s.fields["kind"]]
        assert s.prompt.startswith(f"Example:\nQuestion: What is {ea} {op} {eb}?\nAnswer: ")
        assert s.prompt.endswith(f"Question: What is {s.fields['expr']}?\nAnswer:")
    bare = ChatArithmeticTask(ChatArithmeticSpec(example=False), eval_size=5).eval_samples[0]
    assert bare.prompt == f"What is {bare.fields['expr']}? Put the final answer in \\boxed{{}}."


def test_references_and_the_shown_example_are_graded_ok_by_the_math_verifier():
    task = ChatArithmeticTask(ChatArithmeticSpec(kinds="add,sub,mul"), eval_size=60)
    for s in task.eval_samples + task.train_batch(0, 60):
        ref = task.reference_completion(s)
        assert ref.endswith(f"so the answer is \\boxed{{{s.answer}}}.")
        assert verify_math(ref, s).status == "ok", ref
        assert verify_math(ref + "<|im_end|>", s).status == "ok"
        wrong = Sample(id=s.id, prompt=s.prompt, answer=str(int(s.answer) + 1))
        assert verify_math(ref, wrong).status == "wrong"
        shown = re.search(r"Answer: (.*)\n\nQuestion", s.prompt).group(1)  # the worked example is right too
        ea, eb = EXAMPLES[s.fields["kind"]]
        assert verify_math(shown, Sample("x", "", str(value_of(ea, KINDS[s.fields["kind"]], eb)))).status == "ok"


@pytest.mark.parametrize("kw,match", [
    ({"kinds": "add,div"}, "kinds must be a comma-separated list .* out of add, sub, mul, got 'add,div'"),
    ({"kinds": ""}, "kinds must be"),
    ({"kinds": "add,add"}, "distinct"),
    ({"digits": 0}, r"digits must be in 1\.\.6, got 0"),
    ({"digits": 7}, "digits must be in"),
    ({"example": "yes"}, "example must be true or false"),
    ({"worked": "long"}, "worked must be direct or steps"),
])
def test_bad_knobs_are_refused_by_name(kw, match):
    with pytest.raises(ValueError, match=match):
        ChatArithmeticSpec(**kw)


def test_too_small_a_problem_space_and_bad_positions():
    with pytest.raises(ValueError, match="too small for eval_size=500"):
        ChatArithmeticTask(ChatArithmeticSpec(kinds="mul", digits=1), eval_size=500)
    with pytest.raises(ValueError, match="eval_size must be >= 1"):
        ChatArithmeticTask(ChatArithmeticSpec(), eval_size=0)
    with pytest.raises(IndexError):
        ChatArithmeticTask(ChatArithmeticSpec(), eval_size=5).train_sample(-1)


def test_check_rollout_wants_room_for_the_longest_reference(tiny_tokenizer):
    from types import SimpleNamespace

    from rlvr.errors import ConfigError

    task = ChatArithmeticTask(ChatArithmeticSpec(digits=3), eval_size=5)
    need = len(tiny_tokenizer(task.longest_reference(), add_special_tokens=False)["input_ids"]) + 1

    def cfg(rollout, ev=None):
        return SimpleNamespace(rollout=SimpleNamespace(max_new_tokens=rollout), eval=SimpleNamespace(max_new_tokens=ev))

    task.check_rollout(cfg(need), tiny_tokenizer)
    with pytest.raises(ConfigError, match=f">= {need}"):
        task.check_rollout(cfg(need - 1), tiny_tokenizer)
    with pytest.raises(ConfigError, match="eval.max_new_tokens"):
        task.check_rollout(cfg(need, ev=need - 1), tiny_tokenizer)


@pytest.mark.slow
def test_the_real_model_answers_in_the_shown_form_and_is_graded_on_its_boxed_value():
    """SmolLM2-135M-Instruct, greedy, on held-out problems: it copies the example's form and
    ends its turn, and the math verifier grades exactly the boxed number it wrote."""
    from models.smollm import greedy_chat, smollm_or_skip

    task = ChatArithmeticTask(ChatArithmeticSpec(), eval_size=8)
    form = re.compile(r"(\d+) ([+*]) (\d+) = (\d+), so the answer is \\boxed\{(\d+)\}\.")
    outputs = greedy_chat(smollm_or_skip(), [s.prompt for s in task.eval_samples])
    in_form = 0
    for s, (text, stopped) in zip(task.eval_samples, outputs):
        m = form.fullmatch(text.strip())
        if not (stopped and m):
            continue
        in_form += 1
        verdict = verify_math(text, s)
        assert verdict.status == ("ok" if m.group(5) == s.answer else "wrong"), (text, verdict)
        assert verdict.answer == m.group(5)
    assert in_form >= 6, outputs


def test_worked_steps_shows_partial_products_of_a_multiplication():
    from rlvr.tasks.chat_arithmetic import worked

    assert worked(47, "*", 6, "steps") == "47 * 6 = 40 * 6 + 7 * 6 = 240 + 42 = 282, so the answer is \\boxed{282}."
    assert worked(105, "*", 3, "steps") == "105 * 3 = 100 * 3 + 5 * 3 = 300 + 15 = 315, so the answer is \\boxed{315}."
    assert worked(40, "*", 3, "steps") == worked(40, "*", 3) == "40 * 3 = 120, so the answer is \\boxed{120}."
    assert worked(47, "+", 38, "steps") == worked(47, "+", 38)  # additions stay direct
    task = ChatArithmeticTask(ChatArithmeticSpec(kinds="mul", worked="steps"), eval_size=5)
    sample = task.eval_samples[0]
    assert "Answer: 21 * 3 = 20 * 3 + 1 * 3 = 60 + 3 = 63, so the answer is \\boxed{63}." in sample.prompt
    assert verify_math(task.reference_completion(sample), sample).status == "ok"
    assert task.longest_reference().startswith("99 * 9 = 90 * 9 + 9 * 9 = 810 + 81 = 891")


def test_pass_at_1_by_kind_splits_a_mixed_evaluation():
    from rlvr.train.evaluation import kinds_text, pass_at_1_by_kind

    samples = [Sample(id=str(i), prompt="", answer="1", fields={"kind": k}) for i, k in enumerate("aabb")]
    by_kind = pass_at_1_by_kind(samples, [[True, False], [True, True], [False, False], [False, True]])
    assert by_kind == {"a": 0.75, "b": 0.25}
    assert kinds_text({"by_kind": by_kind}) == " (a 0.750, b 0.250)"
    assert pass_at_1_by_kind(samples[:2], [[True], [False]]) == {}  # one kind: nothing to split
    assert kinds_text({}) == ""
