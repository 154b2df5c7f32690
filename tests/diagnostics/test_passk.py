"""pass@k and maj@k against numbers worked out by hand, and against brute force."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from rlvr.cli import main
from rlvr.diagnostics.passk import (
    maj_at_k,
    majk_curve,
    pass_at_k,
    pass_at_k_exact,
    pass_at_k_product,
    passk_curve,
)
from rlvr.report.passk_plot import plot_passk_compare

# n, c, k, expected as a fraction worked out by hand: 1 - C(n-c, k) / C(n, k)
PASSK_TABLE = [
    (10, 3, 1, Fraction(3, 10)),        # 1 - 7/10
    (10, 3, 5, Fraction(11, 12)),       # 1 - C(7,5)/C(10,5) = 1 - 21/252
    (10, 3, 10, Fraction(1)),           # n - c < k: every subset holds a correct sample
    (10, 0, 5, Fraction(0)),            # nothing correct
    (4, 1, 2, Fraction(1, 2)),          # 1 - C(3,2)/C(4,2) = 1 - 3/6
    (8, 8, 1, Fraction(1)),
    (1000, 1, 500, Fraction(1, 2)),     # 1 - C(999,500)/C(1000,500) = 1 - 500/1000
]


@pytest.mark.parametrize("n,c,k,expected", PASSK_TABLE)
def test_pass_at_k_matches_hand_values(n, c, k, expected):
    assert pass_at_k_exact(n, c, k) == expected
    assert pass_at_k(n, c, k) == pytest.approx(float(expected), abs=1e-15)
    assert pass_at_k_product(n, c, k) == pytest.approx(float(expected), abs=1e-12)


def test_pass_at_k_is_exactly_representable_where_possible():
    assert pass_at_k(10, 3, 1) == 0.3  # not 0.30000000000000004
    assert pass_at_k(1000, 1, 500) == 0.5


def test_product_form_is_stable_for_huge_n():
    # n far beyond the exact path; 1 - prod (1 - k/i) for i = n-1, n with k = n/2
    n = 2_000_000
    expected = 1 - (1 - (n // 2) / (n - 1)) * (1 - (n // 2) / n)
    assert pass_at_k(n, 2, n // 2) == pytest.approx(expected, rel=1e-12)
    assert 0.75 < pass_at_k(n, 2, n // 2) < 0.7501


@pytest.mark.parametrize("n,c,k", [(10, 3, 11), (10, 3, 0), (10, 11, 1), (10, -1, 1), (0, 0, 1)])
def test_pass_at_k_rejects_impossible_arguments(n, c, k):
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)


def test_passk_curve_averages_over_problems():
    rows = [[True, False, False, False], [False, False, False, False]]
    # problem 1: n=4, c=1 -> k=1: 1/4, k=2: 1/2, k=4: 1; problem 2: always 0
    assert passk_curve(rows, [4, 1, 2]) == {1: 0.125, 2: 0.25, 4: 0.5}


def test_passk_curve_needs_k_samples_per_problem():
    with pytest.raises(ValueError, match="k must be in"):
        passk_curve([[True, False]], [4])


# ------------------------------------------------------------------ maj@k
def _brute_maj(answers, correct_answers, k):
    """Enumerate every k-subset: majority over non-None answers, ties split evenly."""
    total = Fraction(0)
    subsets = list(itertools.combinations(range(len(answers)), k))
    for subset in subsets:
        votes = {}
        for i in subset:
            if answers[i] is not None:
                votes[answers[i]] = votes.get(answers[i], 0) + 1
        if not votes:
            continue
        top = max(votes.values())
        leaders = [a for a, v in votes.items() if v == top]
        total += Fraction(sum(a in correct_answers for a in leaders), len(leaders))
    return total / len(subsets)


MAJ_TABLE = [
    # classes (size, correct), abstain, k, expected worked out by hand
    ([(3, True), (2, False)], 0, 1, 0.6),       # maj@1 = pass@1 = 3/5
    ([(3, True), (2, False)], 0, 5, 1.0),       # 3 votes beat 2
    ([(2, True), (2, False)], 0, 4, 0.5),       # 2-2 tie split evenly
    ([(2, True), (2, False)], 0, 2, 0.5),       # TT:1, FF:0, 4 x TF tie 1/2 -> 3/6
    ([(2, True), (1, False), (1, False)], 0, 3, 2 / 3),  # 2 subsets TT+F win; 2 three-way ties 1/3
    ([(1, True)], 3, 2, 0.5),                   # 3 of 6 pairs hold the answer; others all abstain -> 0
    ([(1, False), (1, False)], 0, 2, 0.0),
]


@pytest.mark.parametrize("classes,abstain,k,expected", MAJ_TABLE)
def test_maj_at_k_hand_values(classes, abstain, k, expected):
    assert maj_at_k(classes, k, abstain) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("answers,correct", [
    (["a", "a", "b", "b", "b", "c", None], {"a"}),
    (["a", "b", "c", "d", "a", None, None, "b"], {"a", "b"}),  # two spellings of a right answer
    (["x", "x", "x", "y", "y", "z", "z", "z"], {"y"}),
])
def test_maj_at_k_equals_brute_force(answers, correct):
    counts = {}
    for a in answers:
        if a is not None:
            counts[a] = counts.get(a, 0) + 1
    classes = [(n, a in correct) for a, n in counts.items()]
    abstain = answers.count(None)
    for k in range(1, len(answers) + 1):
        assert maj_at_k(classes, k, abstain) == pytest.approx(float(_brute_maj(answers, correct, k)), abs=1e-12), k


def test_majk_curve_with_flags_and_with_a_function():
    answers = [["4", "4", "5", None], ["7", "8", "8", "9"]]
    flags = [[True, True, False, False], [True, False, False, False]]
    gold = ["4", "7"]
    by_flags = majk_curve(answers, flags, [1, 4])
    by_fn = majk_curve(answers, lambda i, a: a == gold[i], [1, 4])
    assert by_flags == by_fn
    # k=1: problem 1: 2/4, problem 2: 1/4 -> 0.375; k=4: "4" wins 2-1; "8" wins -> (1 + 0) / 2
    assert by_flags == {1: pytest.approx(0.375), 4: pytest.approx(0.5)}


def test_majk_curve_answer_is_correct_when_any_sample_giving_it_is():
    # "4" judged correct once and wrong once (e.g. the second did not end with its answer):
    # the voted answer "4" is right, so maj@k counts it; pass@1 would be 1/3 here
    answers = [["4", "4", "5"]]
    assert majk_curve(answers, [[True, False, False]], [1, 3]) == {1: pytest.approx(2 / 3), 3: 1.0}
    with pytest.raises(ValueError, match="3 answers but 2 correctness flags"):
        majk_curve(answers, [[True, False]], [1])


# ------------------------------------------------------------------ plot and CLI
def test_plot_passk_compare_writes_svg(tmp_path):
    path = plot_passk_compare({"base": {1: 0.4, 4: 0.7, 16: 0.9}, "final": {"1": 0.7, "4": 0.85, "16": 0.93}},
                              tmp_path / "passk.svg")
    text = path.read_text()
    assert text.startswith("<svg") and 'data-series="base"' in text and 'data-series="final"' in text


def test_plot_passk_compare_writes_png_with_matplotlib(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib not installed (PNG plots need it)")
    path = plot_passk_compare({"base": {1: 0.4, 4: 0.7}}, tmp_path / "passk.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_passk_prints_json_keyed_by_k(capsys):
    assert main(["passk", "--n", "10", "--c", "3", "--k", "1,5,10"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"1": 0.3, "5": pytest.approx(11 / 12, abs=1e-15), "10": 1.0}
    assert main(["passk", "--n", "1000", "--c", "1", "--k", "500"]) == 0
    assert json.loads(capsys.readouterr().out) == {"500": 0.5}


@pytest.mark.parametrize("argv", [["--n", "5", "--c", "1", "--k", "6"], ["--n", "5", "--c", "6"],
                                  ["--n", "5", "--c", "1", "--k", "a,b"]])
def test_cli_passk_rejects_bad_input_in_one_line(argv, capsys):
    assert main(["passk", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rlvr passk: error:") and err.count("\n") == 1
