import re

import pytest

from rlvr.tasks.arithmetic import ArithmeticSpec, ArithmeticTask, reference_completion, solve


def test_solve_precedence_and_steps():
    assert solve([3, 5, 7, 1], ["+", "-", "+"]) == (2, ["3+5=8", "8-7=1", "1+1=2"])
    assert solve([2, 3, 4], ["+", "*"]) == (14, ["3*4=12", "2+12=14"])
    assert solve([9, 9], ["-"]) == (0, ["9-9=0"])


def test_eval_and_train_are_disjoint_and_deterministic():
    task = ArithmeticTask(ArithmeticSpec(seed=7), eval_size=300)
    eval_exprs = {s.fields["expr"] for s in task.eval_samples}
    assert len(eval_exprs) == 300
    train = task.train_batch(0, 3000)
    assert not eval_exprs & {s.fields["expr"] for s in train}
    again = ArithmeticTask(ArithmeticSpec(seed=7), eval_size=300)
    assert [s.prompt for s in again.train_batch(1234, 5)] == [s.prompt for s in train[1234:1239]]


def test_prompt_and_reference_format():
    task = ArithmeticTask(ArithmeticSpec(terms_min=3, terms_max=3, digits=2, operators="*"), eval_size=5)
    s = task.train_sample(0)
    assert "<think>" in s.prompt and "<answer>" in s.prompt
    ref = reference_completion(s)
    assert ref.startswith("<think>") and ref.endswith(f"<answer>{s.answer}</answer>")
    nums = [int(x) for x in s.fields["expr"].split("*")]
    assert int(s.answer) == nums[0] * nums[1] * nums[2]
    assert all(0 <= x <= 99 for x in nums)


def test_bad_spec_and_too_small_space():
    with pytest.raises(ValueError, match="operators"):
        ArithmeticSpec(operators="/")
    with pytest.raises(ValueError, match="too small"):
        ArithmeticTask(ArithmeticSpec(terms_min=2, terms_max=2, digits=1, operators="+"), eval_size=200)


@pytest.mark.parametrize("rate,low,high", [(0.0, 0, 0), (0.5, 450, 550), (1.0, 1000, 1000)])
def test_warmstart_references_mix_worked_and_bare_answers(rate, low, high):
    task = ArithmeticTask(ArithmeticSpec(think_rate=rate), eval_size=10)
    samples = task.train_batch(0, 1000)
    worked = sum(task.works_it_out(s) for s in samples)
    assert low <= worked <= high
    for s in samples[:50]:
        ref = task.reference_completion(s)
        if task.works_it_out(s):
            assert ref == reference_completion(s)
        else:
            assert ref == f"<think></think><answer>{s.answer}</answer>"
    # the choice is a function of the problem alone: the same problem, the same style
    again = ArithmeticTask(ArithmeticSpec(think_rate=rate), eval_size=10)
    assert [again.works_it_out(s) for s in samples] == [task.works_it_out(s) for s in samples]


def test_both_reference_styles_pass_the_demo_verifiers():
    from rlvr.verifiers.exact import verify_exact
    from rlvr.verifiers.format import verify_format

    task = ArithmeticTask(ArithmeticSpec(think_rate=0.5), eval_size=10)
    styles = set()
    for s in task.train_batch(0, 40):
        ref = task.reference_completion(s)
        styles.add(ref.startswith("<think></think>"))
        assert verify_exact(ref, s).status == "ok" and verify_format(ref, s).status == "ok"
    assert styles == {True, False}


def test_think_rate_out_of_range_is_an_error():
    with pytest.raises(ValueError, match="think_rate"):
        ArithmeticSpec(think_rate=1.5)


@pytest.mark.parametrize("override,pattern", [
    # a range declared beside the key: refused when the config is read, before any task is built
    ("task.think_rate=1.5", re.escape("config key 'task.think_rate' = 1.5 is out of range; valid: [0, 1]")),
    ("task.operators=/", r"task: .*" + re.escape("operators must be")),
    ("task.terms_min=6", re.escape("task.terms_min=6 exceeds task.terms_max=5")),
])
def test_bad_task_knobs_are_config_errors(override, pattern):
    from rlvr.config import load_config
    from rlvr.errors import ConfigError
    from rlvr.tasks.registry import build_task

    with pytest.raises(ConfigError, match=pattern):
        build_task(load_config(overrides=[override]).task)


def test_late_think_rate_switches_the_reference_mix_and_keeps_each_problem_consistent():
    task = ArithmeticTask(ArithmeticSpec(think_rate=0.8, late_think_rate=0.3), eval_size=10)
    samples = task.train_batch(0, 1000)
    early = [task.works_it_out(s) for s in samples]
    late = [task.works_it_out(s, late=True) for s in samples]
    assert 750 <= sum(early) <= 850 and 250 <= sum(late) <= 350
    # one hash per problem: worked out late => worked out early
    assert all(e for e, is_late in zip(early, late) if is_late)
    for s, is_late in zip(samples[:50], late):
        ref = task.late_reference_completion(s)
        assert ref == (reference_completion(s) if is_late else f"<think></think><answer>{s.answer}</answer>")
    plain = ArithmeticTask(ArithmeticSpec(think_rate=0.8), eval_size=10)  # None: think_rate throughout
    assert [plain.works_it_out(s, late=True) for s in samples] == early


def test_late_think_rate_out_of_range_and_too_many_late_steps_are_config_errors():
    from rlvr.config import load_config
    from rlvr.errors import ConfigError
    from rlvr.tasks.registry import build_task

    late_rate = re.escape("config key 'task.late_think_rate' = 1.5 is out of range; valid: [0, 1]")
    with pytest.raises(ConfigError, match=late_rate):
        build_task(load_config(overrides=["task.late_think_rate=1.5"]).task)
    with pytest.raises(ConfigError, match="task.late_think_steps must be in"):
        load_config(overrides=["model.warmstart_steps=100", "task.late_think_steps=150"])
    load_config(overrides=["model.warmstart_steps=100", "task.late_think_rate=null"])  # no late phase: fine


def test_warmstart_key_and_late_phase_follow_the_late_knobs(monkeypatch, tmp_path):
    """The cache key covers late_think_rate and late_think_steps, and only the last
    late_think_steps warm-start steps imitate the late references."""
    from rlvr.config import load_config
    from rlvr.models import warmstart
    from rlvr.models.base import ensure_base
    from rlvr.tasks.registry import build_task

    seen = []

    def fake_warmstart(model_cfg, task, task_cfg, seed, cache_dir, reference_fn, log=print,
                       late_reference_fn=None, late_steps=0):
        seen.append((warmstart.cache_key(model_cfg, task_cfg, seed), late_reference_fn is not None, late_steps))
        return tmp_path

    monkeypatch.setattr(warmstart, "warmstart_tiny", fake_warmstart)
    for over in ([], ["task.late_think_rate=0.2"], ["task.late_think_steps=100"], ["task.late_think_rate=null"]):
        cfg = load_config(overrides=over)
        ensure_base(cfg, build_task(cfg.task), log=lambda *_: None)
    keys = [k for k, _, _ in seen]
    assert len(set(keys)) == 4
    assert [(on, n) for _, on, n in seen[:3]] == [(True, 150), (True, 150), (True, 100)] and not seen[3][1]


def test_warmstart_uses_the_late_references_in_its_last_steps(tmp_path):
    from rlvr.models.warmstart import warmstart_tiny

    task = ArithmeticTask(ArithmeticSpec(terms_min=3, terms_max=3), eval_size=10)
    calls = []

    def early(s):
        calls.append("early")
        return reference_completion(s)

    def late(s):
        calls.append("late")
        return f"<think></think><answer>{s.answer}</answer>"

    model_cfg = {"arch": "llama", "hidden": 16, "layers": 1, "heads": 2, "intermediate": 32, "tie_embeddings": True,
                 "warmstart_steps": 5, "warmstart_batch": 2, "warmstart_lr": 1e-3}
    out = warmstart_tiny(model_cfg, task, {"name": "t"}, 0, str(tmp_path), early, log=lambda *_: None,
                         late_reference_fn=late, late_steps=2)
    assert (out / "config.json").is_file()
    assert calls == ["early"] * 6 + ["late"] * 4
