"""pass@k and maj@k estimators and their curves over a set of problems.

pass@k: the unbiased estimator of Chen et al. (2021, "Evaluating Large Language Models
Trained on Code"): with n samples of which c are correct,
    pass@k = 1 - C(n - c, k) / C(n, k) = 1 - prod_{i = n-c+1}^{n} (1 - k / i),
computed with exact integers and one correctly rounded division up to 10 000 samples,
and in the product form (which never forms a binomial) beyond; both give n = 1000,
c = 1, k = 500 as 0.5.

maj@k: the expected value, over all C(n, k) equally likely k-subsets of the n samples,
of "the majority answer of the subset is correct". Computed exactly (integer counting,
one division at the end) by a generating-function recurrence over answer classes, so
it is the unbiased estimator of maj@k in the same sense as pass@k, not a Monte-Carlo
guess. Conventions, which papers leave open and which we fix here:
  * answers are compared as given (the caller canonicalises them: "1/2" and "0.5" are
    two different answers that split the vote);
  * given per-sample correctness flags, an answer counts as correct when any sample that
    gave it was judged correct (its other samples may have failed on format, not answer);
  * a sample with no extracted answer (None) abstains: it does not vote; a subset in
    which every sample abstains scores 0;
  * a tie between the largest classes is broken uniformly at random, so a correct class
    tied with t others scores 1 / (t + 1).
Cost is polynomial (about classes^2 * k^2 * n per correct class): fine for the n <= a few
hundred samples per problem that evaluation uses.

Deliberately not here: sampling or verifying (``rlvr eval`` does that and calls these), and
drawing the curves (``rlvr.report.passk_plot``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction


# ------------------------------------------------------------------- pass@k
def _check_nck(n: int, c: int, k: int) -> None:
    if n < 1:
        raise ValueError(f"pass@k needs n >= 1 samples, got n={n}")
    if not 0 <= c <= n:
        raise ValueError(f"the number correct must be in [0, n={n}], got c={c}")
    if not 1 <= k <= n:
        raise ValueError(f"k must be in [1, n={n}] (pass@k cannot be estimated from fewer samples than k), got k={k}")


EXACT_UP_TO = 10_000  # above this many samples, the product form (binomials get slow)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k from n samples with c correct.

    Up to ``EXACT_UP_TO`` samples: (C(n,k) - C(n-c,k)) / C(n,k) in exact integers, then
    one correctly rounded division (so n=10, c=3, k=1 gives exactly 0.3). Beyond: the
    product form, which never forms a binomial and stays accurate for any n.
    """
    _check_nck(n, c, k)
    if n - c < k:  # every k-subset contains a correct sample
        return 1.0
    if n <= EXACT_UP_TO:
        total = math.comb(n, k)
        return (total - math.comb(n - c, k)) / total
    return pass_at_k_product(n, c, k)


def pass_at_k_product(n: int, c: int, k: int) -> float:
    """1 - prod_{i=n-c+1}^{n} (1 - k/i): the numerically stable form for very large n."""
    _check_nck(n, c, k)
    if n - c < k:
        return 1.0
    miss = 1.0
    for i in range(n - c + 1, n + 1):
        miss *= 1.0 - k / i
    return 1.0 - miss


def pass_at_k_exact(n: int, c: int, k: int) -> Fraction:
    """The same estimator as an exact fraction, 1 - C(n-c, k)/C(n, k) (for tests and audits)."""
    _check_nck(n, c, k)
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


def passk_curve(correct_matrix: Sequence[Sequence[bool]], ks: Iterable[int]) -> dict[int, float]:
    """Mean pass@k over problems; one row of correctness flags per problem.

    Rows may have different lengths; every row needs at least max(ks) samples.
    """
    ks = sorted(set(int(k) for k in ks))
    if not correct_matrix:
        raise ValueError("passk_curve needs at least one problem")
    if not ks:
        raise ValueError("passk_curve needs at least one k")
    curve = {}
    for k in ks:
        values = [pass_at_k(len(row), sum(bool(x) for x in row), k) for row in correct_matrix]
        curve[k] = sum(values) / len(values)
    return curve


# ------------------------------------------------------------------- maj@k
def _ways_others(sizes: Sequence[int], abstain: int, x: int, m: int) -> list[int]:
    """ways[t] = number of m-subsets of the other classes (plus abstainers) in which every
    other class has at most x members and exactly t classes have x members."""
    width = len(sizes) + 1
    table = [[0] * width for _ in range(m + 1)]  # table[items][tied]
    table[0][0] = 1
    for size in sizes:
        new = [[0] * width for _ in range(m + 1)]
        for used in range(m + 1):
            for tied in range(width):
                count = table[used][tied]
                if count == 0:
                    continue
                for take in range(min(size, x, m - used) + 1):
                    new[used + take][tied + (take == x)] += count * math.comb(size, take)
        table = new
    ways = [0] * width
    for used in range(m + 1):  # abstainers fill the rest, any number of them
        for tied in range(width):
            ways[tied] += table[used][tied] * math.comb(abstain, m - used)
    return ways


def _class_wins(size: int, others: Sequence[int], abstain: int, k: int) -> Fraction:
    """Sum over k-subsets of this class's share of the win (ties split), as a count."""
    total = Fraction(0)
    for x in range(1, min(size, k) + 1):
        ways = _ways_others(others, abstain, x, k - x)
        share = sum(Fraction(w, tied + 1) for tied, w in enumerate(ways) if w)
        total += math.comb(size, x) * share
    return total


def maj_at_k(classes: Sequence[tuple[int, bool]], k: int, abstain: int = 0) -> float:
    """Expected majority-vote correctness of a random k-subset.

    ``classes``: one (size, is_correct) pair per distinct answer; ``abstain``: samples with
    no answer. n = sum of sizes + abstain. See the module docstring for the conventions.
    """
    sizes = [int(s) for s, _ in classes]
    if any(s < 1 for s in sizes) or abstain < 0:
        raise ValueError(f"class sizes must be >= 1 and abstain >= 0, got {sizes}, abstain={abstain}")
    n = sum(sizes) + abstain
    _check_nck(n, 0, k)
    wins = Fraction(0)
    for j, (size, is_correct) in enumerate(classes):
        if is_correct:
            others = sizes[:j] + sizes[j + 1 :]
            wins += _class_wins(size, others, abstain, k)
    return float(wins / math.comb(n, k))


def _answer_classes(
    answers: Sequence[Hashable | None], is_correct: Callable[[Hashable], bool]
) -> tuple[list[tuple[int, bool]], int]:
    """Group one problem's answers into (size, correct) classes and count abstentions."""
    counts: dict[Hashable, int] = {}
    abstain = 0
    for answer in answers:
        if answer is None:
            abstain += 1
        else:
            counts[answer] = counts.get(answer, 0) + 1
    return [(size, bool(is_correct(a))) for a, size in counts.items()], abstain


def _correctness_lookup(answers: Sequence, flags: Sequence[bool], row: int) -> Callable[[Hashable], bool]:
    """Turn a row of per-sample correctness flags into an answer -> correct function.

    An answer is correct when any sample that gave it was judged correct: samples with the
    same answer can differ in verdict for reasons that are not the answer (a completion
    that does not end with its answer is judged wrong), and majority voting asks whether
    the voted *answer* is right.
    """
    if len(flags) != len(answers):
        raise ValueError(f"problem {row}: {len(answers)} answers but {len(flags)} correctness flags")
    table: dict[Hashable, bool] = {}
    for answer, flag in zip(answers, flags):
        if answer is not None:
            table[answer] = table.get(answer, False) or bool(flag)
    return table.__getitem__


def majk_curve(
    answers_matrix: Sequence[Sequence[Hashable | None]],
    correctness: Sequence[Sequence[bool]] | Callable[[int, Hashable], bool],
    ks: Iterable[int],
) -> dict[int, float]:
    """Mean maj@k over problems.

    ``answers_matrix``: one row of extracted (canonical) answers per problem, None = no answer.
    ``correctness``: either a matrix of per-sample flags parallel to ``answers_matrix``, or
    a function ``(problem_index, answer) -> bool`` (e.g. comparing with the gold answer).
    """
    ks = sorted(set(int(k) for k in ks))
    if not answers_matrix or not ks:
        raise ValueError("majk_curve needs at least one problem and one k")
    rows = []
    for i, answers in enumerate(answers_matrix):
        if callable(correctness):
            judge = (lambda a, i=i: correctness(i, a))
        else:
            judge = _correctness_lookup(answers, correctness[i], i)
        rows.append(_answer_classes(answers, judge))
    curve = {}
    for k in ks:
        values = [maj_at_k(classes, k, abstain) for classes, abstain in rows]
        curve[k] = sum(values) / len(values)
    return curve
