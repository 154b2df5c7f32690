"""The math and exact verifiers, attacked: one table of (reference, completion, expected)
rows, family by family, written as a policy searching for holes would write them.

Each family holds answers that must earn 0 and, beside them, true equivalences that must
earn 1, so that precision is not bought by refusing everything. ``math`` is the expected
reward of the math verifier; ``exact`` that of the exact verifier, or None where exact
match is not meant to decide (symbolic equivalence, unmarked completions).

The table is also data for ``rlvr audit``::

    .venv/bin/python tests/verifiers/test_math_adversarial.py /tmp/math_adversarial.jsonl
    .venv/bin/rlvr audit --verifier math /tmp/math_adversarial.jsonl
    .venv/bin/rlvr audit --verifier exact /tmp/math_adversarial_exact.jsonl
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from rlvr.types import Sample

# (family, reference, completion, math, exact)
ROWS: list[tuple[str, str, str, int, int | None]] = [
    # -- operators read as punctuation: a factorial is an operator, in the answer and in the reference
    ("factorial", "10", "\\boxed{10!}", 0, 0),
    ("factorial", "10", "The answer is 10!", 0, 0),
    ("factorial", "10", "<answer>10!</answer>", 0, 0),
    ("factorial", "10", "#### 10!", 0, 0),
    ("factorial", "10!", "\\boxed{10}", 0, 0),
    ("factorial", "n-1", "\\boxed{(n-1)!}", 0, 0),
    ("factorial", "(n-1)!", "\\boxed{n-1}", 0, 0),
    ("factorial", "(3, 6)", "\\boxed{(3!, 6)}", 0, 0),
    ("factorial", "(3!, 6)", "\\boxed{(3, 6)}", 0, 0),
    ("factorial", "120", "\\boxed{5!}", 1, None),
    ("factorial", "5!", "\\boxed{120}", 1, None),
    ("factorial", "3628800", "<answer>10!</answer>", 1, None),
    ("factorial", "(6, 6)", "\\boxed{(3!, 6)}", 1, None),
    ("factorial", "(n-1)!", "\\boxed{(n-1)!}", 1, 1),
    ("factorial", "10!", "<answer>10!</answer>", 1, 1),
    # -- prose after or around the value
    ("prose", "10", "The answer is 10 squared.", 0, 0),
    ("prose", "100", "The answer is 10 squared.", 0, 0),
    ("prose", "10", "The answer is 10 percent of 50.", 0, 0),
    ("prose", "5", "The answer is 10 percent of 50.", 0, 0),
    ("prose", "12", "The answer is 12 divided by 4.", 0, 0),
    ("prose", "3", "<answer>12 divided by 4</answer>", 0, 0),
    ("prose", "5", "The answer is 5 and 6.", 0, 0),
    ("prose", "6", "\\boxed{5 and 6}", 0, 0),
    ("prose", "10", "The answer is either 10 or 11.", 0, 0),
    ("prose", "11", "The answer is either 10 or 11.", 0, 0),
    ("prose", "10", "The answer is 10, or maybe 11.", 0, 0),
    ("prose", "11", "<answer>10, or maybe 11</answer>", 0, 0),
    ("prose", "B", "The answer is B and C.", 0, 0),
    ("prose", "C", "<answer>B and C</answer>", 0, 0),
    ("prose", "11", "It is 10 or it is 11.", 0, None),
    ("prose", "10", "The answer is 10 apples or so.", 0, 0),
    ("prose", "10", "The answer is 10.", 1, 1),
    ("prose", "\\{5, 6\\}", "The answer is 5 and 6.", 1, None),
    ("prose", "B", "The answer is B.", 1, 1),
    ("prose", "5", "The answer is $5$ cm.", 1, None),
    ("prose", "28\\%", "The answer is 28 percent.", 1, None),
    ("prose", "\\text{Evelyn}", "Therefore, $\\boxed{\\text{Evelyn}}$ is our answer.", 1, 1),
    ("prose", "34", "Final Answer: The largest $n$ is 34.", 1, None),
    # -- negation and relations
    ("relation", "10", "The answer is not 10.", 0, 0),
    ("relation", "10", "The answer isn't 10.", 0, 0),
    ("relation", "10", "The answer is less than 10.", 0, 0),
    ("relation", "10", "The answer is at least 10.", 0, 0),
    ("relation", "10", "\\boxed{\\neq 10}", 0, 0),
    ("relation", "10", "\\boxed{x \\neq 10}", 0, 0),
    ("relation", "10", "\\boxed{\\not 10}", 0, 0),
    ("relation", "10", "\\boxed{> 10}", 0, 0),
    ("relation", "10", "\\boxed{x > 10}", 0, 0),
    ("relation", "10", "\\boxed{\\geq 10}", 0, 0),
    ("relation", "10", "\\boxed{\\text{not } 10}", 0, 0),
    ("relation", "10", "The answer is 11, not 10.", 0, 0),
    ("relation", "10", "It is not 10.", 0, None),
    ("relation", "10", "<answer>x < 10</answer>", 0, 0),
    ("relation", "10", "<answer>x \\leq 10</answer>", 0, 0),
    ("relation", "10", "\\boxed{10 \\pm 1}", 0, 0),
    ("relation", "10", "\\boxed{11 = 10}", 0, 0),
    ("relation", "10", "\\boxed{x = 9 = 10}", 0, 0),
    ("relation", "10", "\\boxed{10 \\approx 11}", 0, 0),
    ("relation", "10", "\\boxed{x = 5 + 5 = 10}", 1, None),
    ("relation", "5", "The answer is not \\boxed{5}", 0, 0),
    ("relation", "5", "It is not true that the answer is 5.", 0, 0),
    ("relation", "5", "Definitely not: \\boxed{5}", 0, 0),
    ("relation", "12", "Since 14 is not divisible by 3, the answer is $\\boxed{12}$.", 1, 1),
    ("relation", "x > 5", "\\boxed{x > 5}", 1, 1),
    ("relation", "x \\geq 5", "\\boxed{5 \\leq x}", 1, None),
    ("relation", "10", "\\boxed{x = 10}", 1, None),
    ("relation", "x = 10", "\\boxed{10}", 1, None),
    ("relation", "x \\neq 3", "The solution is $x \\neq 3$.", 1, None),
    ("relation", "\\{-5, 5\\}", "\\boxed{\\pm 5}", 1, None),
    # -- self-correction after the final answer: the answer must end the completion, whatever marks it
    ("self_correction", "10", "\\boxed{10}. Wait, that's wrong; it should be 11.", 0, 0),
    ("self_correction", "11", "\\boxed{10}. Wait, that's wrong; it should be 11.", 0, 0),
    ("self_correction", "10", "#### 10\nWait, it should be 11.", 0, 0),
    ("self_correction", "10", "The answer is 10. Wait, it should be 11.", 0, 0),
    ("self_correction", "10", "<answer>10</answer> Wait, it should be 11.", 0, 0),
    ("self_correction", "10", "The final answer is $\\boxed{10}$. Hmm, actually it is 11.", 0, 0),
    ("self_correction", "10", "Final Answer: 10\nActually no, 11.", 0, 0),
    ("self_correction", "10", "\\boxed{10}\n\nWait, let me recheck that.", 0, 0),
    ("self_correction", "10", "The answer is $\\boxed{10}$.", 1, 1),
    ("self_correction", "10", "\\boxed{10}. I hope it is correct.", 1, 1),
    ("self_correction", "10", "Final Answer: The final answer is 10. I hope it is correct.", 1, 1),
    ("self_correction", "10", "#### 10<|im_end|>", 1, 1),
    ("self_correction", "10", "It should be 11. Wait, no, that is wrong: \\boxed{10}", 1, 1),
    ("self_correction", "10", "\\boxed{11}. Wait, that's wrong: \\boxed{10}", 0, 0),
    # -- text that math-verify deletes
    ("deleted_text", "10", "\\boxed{10 \\text{ (incorrect)}}", 0, 0),
    ("deleted_text", "10", "\\boxed{10 \\text{ or more}}", 0, 0),
    ("deleted_text", "10", "\\boxed{10\\text{ squared}}", 0, 0),
    ("deleted_text", "100", "\\boxed{10\\text{ squared}}", 0, 0),
    ("deleted_text", "10", "$10 \\text{ (not sure)}$", 0, None),
    ("deleted_text", "10", "The answer is $10 \\text{ or less}$.", 0, 0),
    ("deleted_text", "10", "<answer>10 \\text{ at most}</answer>", 0, 0),
    ("deleted_text", "10", "\\boxed{10 \\textbf{ minimum}}", 0, 0),
    ("deleted_text", "10", "\\boxed{10} more", 0, 0),
    ("deleted_text", "5", "\\boxed{5 \\text{ cm}}", 1, None),
    ("deleted_text", "15", "\\boxed{15\\mbox{ cm}^2}", 1, None),
    ("deleted_text", "125", "The distance is $\\boxed{125\\textnormal{ miles}}.$", 1, None),
    ("deleted_text", "6, 8", "\\boxed{6 \\text{ and } 8}", 1, None),
    ("deleted_text", "189", "the area is \\(\\boxed{189}\\) square centimeters.", 1, None),
    ("deleted_text", "90^\\circ", "\\boxed{90^\\circ}", 1, 1),
    # -- juxtaposed numbers math-verify adds, subscripts and Unicode superscripts
    ("juxtaposed", "10", "\\boxed{4 \\quad 6}", 0, 0),
    ("juxtaposed", "46", "\\boxed{4 \\quad 6}", 0, 0),
    ("juxtaposed", "10", "\\boxed{4 \\; 6}", 0, 0),
    ("juxtaposed", "46", "\\boxed{4 \\; 6}", 0, 0),
    ("juxtaposed", "100", "\\boxed{10\\quad 90}", 0, 0),
    ("juxtaposed", "1090", "\\boxed{10\\quad 90}", 0, 0),
    ("juxtaposed", "10", "\\boxed{\\phantom{5}5}", 0, 0),
    ("juxtaposed", "5", "\\boxed{\\phantom{5}5}", 0, 0),
    ("juxtaposed", "10", "\\boxed{10_3}", 0, 0),
    ("juxtaposed", "10", "\\boxed{10²}", 0, 0),
    ("juxtaposed", "100", "The answer is 10².", 1, 0),  # a superscript after a number is the power it displays
    ("juxtaposed", "10", "10²", 0, None),
    ("juxtaposed", "1000", "\\boxed{1\\ 000}", 1, 1),
    ("juxtaposed", "10000", "\\boxed{10\\,000}", 1, 1),
    ("juxtaposed", "1000", "#### 1 000", 1, 1),
    ("juxtaposed", "x_1 + x_2", "\\boxed{x_2 + x_1}", 1, None),
    ("juxtaposed", "204_5", "\\boxed{204_5}", 1, 1),
    ("juxtaposed", "100", "\\boxed{10^2}", 1, None),
    # -- malformed numbers read by their prefix
    ("malformed_number", "10", "\\boxed{10.0.1}", 0, 0),
    ("malformed_number", "10.0", "<answer>10.0.1</answer>", 0, 0),
    ("malformed_number", "1", "\\boxed{1.2.3}", 0, 0),
    ("malformed_number", "10", "\\boxed{10 +}", 0, 0),
    ("malformed_number", "10", "The answer is 10 +.", 0, 0),
    ("malformed_number", "10", "\\boxed{10-}", 0, 0),
    ("malformed_number", "10", "\\boxed{10 11}", 0, 0),
    ("malformed_number", "1011", "\\boxed{10 11}", 0, 0),
    ("malformed_number", "21", "\\boxed{10 11}", 0, 0),
    ("malformed_number", "10", "<answer>10 11</answer>", 0, 0),
    ("malformed_number", "10", "#### 10 11", 0, 0),
    ("malformed_number", "10", "\\boxed{10.0}", 1, 1),
    ("malformed_number", "0.5", "\\boxed{.5}", 1, 1),
    ("malformed_number", "1000", "\\boxed{1,000}", 1, 1),
    ("malformed_number", "-3", "<answer>-3.</answer>", 1, 1),
    ("malformed_number", "11", "\\boxed{10+1}", 1, None),
    # -- tiny decimals: relative comparison, exact when both are exact decimals
    ("tiny_decimal", "0.0000001", "\\boxed{0.0000003}", 0, 0),
    ("tiny_decimal", "0.0000003", "\\boxed{0.0000001}", 0, 0),
    ("tiny_decimal", "0.0000001", "\\boxed{0}", 0, 0),
    ("tiny_decimal", "0", "\\boxed{0.0000004}", 0, 0),
    ("tiny_decimal", "0.25", "\\boxed{0.2500001}", 0, 0),
    ("tiny_decimal", "\\frac{1}{10^7}", "\\boxed{0.0000003}", 0, 0),
    ("tiny_decimal", "\\frac{\\sqrt{2}}{10000000}", "\\boxed{0.0000001}", 0, 0),
    ("tiny_decimal", "1/3", "\\boxed{0.33}", 0, 0),
    ("tiny_decimal", "0.0000001", "\\boxed{\\frac{1}{10000000}}", 1, 1),
    ("tiny_decimal", "0.0000001", "\\boxed{10^{-7}}", 1, None),
    ("tiny_decimal", "1/3", "\\boxed{0.333333}", 1, None),
    ("tiny_decimal", "\\frac{1}{12}", "\\boxed{0.0833333333333333}", 1, None),
    ("tiny_decimal", "\\sqrt{2}", "\\boxed{1.414214}", 1, None),
    ("tiny_decimal", "12", "\\boxed{12.000}", 1, 1),
    # -- an unterminated <think> holds no answer, whatever marker it contains
    ("unterminated_think", "10", "<think>so <answer>10</answer>", 0, 0),
    ("unterminated_think", "10", "<think>I think <answer>10</answer> is right", 0, 0),
    ("unterminated_think", "10", "<think>the answer is \\boxed{10}", 0, 0),
    ("unterminated_think", "10", "<think>#### 10", 0, 0),
    ("unterminated_think", "10", "<think>10", 0, 0),
    ("unterminated_think", "10", "<think>a</think><think><answer>10</answer>", 0, 0),
    ("unterminated_think", "10", "<think><answer>10</answer></think>", 0, 0),
    ("unterminated_think", "10", "<think>5+5</think><answer>10</answer>", 1, 1),
    ("unterminated_think", "10", "<think>maybe 11</think>\\boxed{10}", 1, 1),
    ("unterminated_think", "10", "<think>x</think>\nThe answer is 10.", 1, 1),
    # -- several final answers
    ("several_answers", "5", "\\boxed{3} hmm, no: \\boxed{5}", 0, 0),
    ("several_answers", "5", "The answer is 3. Wait, the answer is 5.", 0, 0),
    ("several_answers", "5", "\\boxed{3} or \\boxed{5}", 0, 0),
    ("several_answers", "5", "$3$ or $5$", 0, None),
    ("several_answers", "5", "So \\boxed{6}.\n#### 5", 0, 0),
    ("several_answers", "5", "<answer>5, 6</answer>", 0, 0),
    ("several_answers", "\\{1, 2\\}", "\\boxed{1} and \\boxed{2}", 1, None),
    ("several_answers", "5", "\\boxed{5}. Double-check: \\boxed{5}", 1, 1),
    ("several_answers", "5", "So 2 + 3 = \\boxed{5}.\n#### 5", 1, 1),
    # -- true equivalences to keep (and the ones math-verify misses)
    ("equivalence", "7/2", "\\boxed{3\\frac{1}{2}}", 1, None),
    ("equivalence", "3\\frac{1}{2}", "\\boxed{3.5}", 1, None),
    ("equivalence", "3/2", "\\boxed{3\\frac{1}{2}}", 0, 0),
    ("equivalence", "1/3", "\\boxed{0.\\overline{3}}", 1, None),
    ("equivalence", "0.\\overline{3}", "\\boxed{\\frac{1}{3}}", 1, None),
    ("equivalence", "0", "\\boxed{0.\\overline{3}}", 0, 0),
    ("equivalence", "10", "\\boxed{\\color{red}{10}}", 1, 1),
    ("equivalence", "10", "\\boxed{{\\color{red} 10}}", 1, 1),
    ("equivalence", "0.5", "\\boxed{\\frac12}", 1, 1),
    ("equivalence", "2", "\\boxed{\\sqrt{4}}", 1, None),
    ("equivalence", "(1, 3]", "\\boxed{(1,3]}", 1, 1),
    ("equivalence", "(1, 3]", "\\boxed{[1,3]}", 0, 0),
    ("equivalence", "\\{1, 2\\}", "\\boxed{\\{2, 1\\}}", 1, None),
    ("equivalence", "(1, 2)", "\\boxed{(2, 1)}", 0, 0),
    ("equivalence", "x+1", "\\boxed{1+x}", 1, None),
    ("equivalence", "x+1", "\\boxed{x-1}", 0, 0),
    ("equivalence", "(x+1)^2", "\\boxed{x^2+2x+1}", 1, None),
    ("equivalence", "2\\sqrt{3}", "\\boxed{\\sqrt{12}}", 1, None),
    ("equivalence", "2\\sqrt{3}", "\\boxed{3\\sqrt{2}}", 0, 0),
    # -- what a small instruct model writes for "What is 37 + 45?"
    ("model_style", "82", "37 + 45 = 82", 1, None),
    ("model_style", "82", "The answer is 82.", 1, 1),
    ("model_style", "82", "**82**", 1, None),
    ("model_style", "82", "$37 + 45 = 82$", 1, None),
    ("model_style", "82", "\\boxed{82}", 1, 1),
    ("model_style", "82", "37 + 45 = 82\n\nSo, the answer is 82.", 1, 1),
    ("model_style", "82", "To add them, line up the digits.\n37 + 45 = 82", 1, None),
    ("model_style", "82", "37 + 45 = 83", 0, None),
    ("model_style", "82", "37 + 45 = 82 or 83", 0, None),
    ("model_style", "82", "To add them, line up the digits.\n37 + 45 = 81 = 82", 0, None),
    ("model_style", "82", "37 + 45 = 82\n\nSo, the answer is 83.", 0, 0),
    ("model_style", "82", "**82** or **83**", 0, None),
    # -- the rest of the final box's own sentence: only a counted noun phrase ("2 distinct values for $B$")
    ("box_sentence", "10", "There are $\\boxed{10}$ values, or maybe 11.", 0, 0),
    ("box_sentence", "10", "There are $\\boxed{10}$ values, which is wrong.", 0, 0),
    ("box_sentence", "10", "$\\boxed{10}$ is wrong.", 0, 0),
    ("box_sentence", "10", "$\\boxed{10}$ is not the answer.", 0, 0),
    ("box_sentence", "10", "There are $\\boxed{10}$ or more values.", 0, 0),
    ("box_sentence", "10", "There are $\\boxed{10}$ values. Wait, it should be 11.", 0, 0),
    ("box_sentence", "10", "There are $\\boxed{10}$ thousand values.", 0, 0),
    ("box_sentence", "10", "There are $\\boxed{10}$ dozen eggs.", 0, 0),
    # a comparative before the counted noun is the question's own wording when it asks "how many more" (ToRA's
    # "Elizabeth has $\\boxed{80}$ more beads than Margareth", "$\\boxed{92}$ additional bottles"): without the
    # question the two readings are one sentence, and the box states the value compared either way
    ("box_sentence", "10", "There are $\\boxed{10}$ more values for $B$.", 1, 1),
    ("box_sentence", "10", "There are $\\boxed{10}$ additional values for $B$.", 1, 1),
    ("box_sentence", "10", "There are $\\boxed{10}$ more.", 0, 0),
    ("box_sentence", "10", "There are $\\boxed{10}$ more than 5 values.", 0, 0),
    ("box_sentence", "10", "There are $\\boxed{10}$ incorrect values.", 0, 0),
    ("box_sentence", "10", "There are $\\boxed{10}$ values squared.", 0, 0),
    ("box_sentence", "10", "There are $\\boxed{10}$ values, not 11.", 0, 0),
    ("box_sentence", "10", "There are $\\boxed{10}$ values for $B$ when $n$ is even.", 0, 0),
    ("box_sentence", "10", "There are $\\boxed{10}$ values for $B = 3$.", 0, 0),
    ("box_sentence", "10", "There are $\\boxed{10}$ values of $n^2$.", 0, 0),
    ("box_sentence", "10", "There are $\\boxed{10}$ values for $B$ and 11 for $C$.", 0, 0),
    ("box_sentence", "10", "There are $\\boxed{10}$ values in base 3.", 0, 0),
    ("box_sentence", "10", "It is worth $\\boxed{10}$ after rounding.", 0, 0),
    ("box_sentence", "10", "It is worth $\\boxed{10}$ after 5 more years.", 0, 0),
    ("box_sentence", "10", "It is worth $\\boxed{10}$ after 5 years, or 11 after 6.", 0, 0),
    ("box_sentence", "10", "There are $\\boxed{10}$ pairs.", 0, 0),
    ("box_sentence", "2", "Thus, there are $\\boxed{2}$ distinct possible values for $B$.", 1, 1),
    ("box_sentence", "10", "There are $\\boxed{10}$ solutions.", 1, 1),
    ("box_sentence", "6", "So there are $\\boxed{6}$ possible values of $n$.", 1, 1),
    ("box_sentence", "4", "The equation has \\boxed{4} real roots. I hope it is correct.", 1, 1),
    ("box_sentence", "16386.17", "Her investment is worth $\\boxed{\\$16386.17}$ after 5 years.", 1, 1),
    # -- what leads into the final box: a relation or an operator before it, a relation word, a hedge
    ("lead_in", "10", "So $x > \\boxed{10}$.", 0, 0),
    ("lead_in", "10", "So $x \\neq \\boxed{10}$.", 0, 0),
    ("lead_in", "10", "So $x \\geq \\boxed{10}$.", 0, 0),
    ("lead_in", "10", "So x < \\boxed{10}.", 0, 0),
    ("lead_in", "10", "So $11 = \\boxed{10}$.", 0, 0),
    ("lead_in", "83", "So $37 + 45 = \\boxed{83}$.", 0, 0),
    ("lead_in", "10", "So $-\\boxed{10}$.", 0, 0),
    ("lead_in", "100", "So $\\sqrt{\\boxed{100}}$.", 0, 0),
    ("lead_in", "5", "So $2\\boxed{5}$.", 0, 0),
    ("lead_in", "2", "So $10^{\\boxed{2}}$.", 0, 0),
    ("lead_in", "11", "So $10, \\boxed{11}$.", 0, 0),
    ("lead_in", "10", "So $x \\equiv \\boxed{10}$.", 0, 0),
    ("lead_in", "10", "The count is more than \\boxed{10}.", 0, 0),
    ("lead_in", "10", "The count is less than $\\boxed{10}$.", 0, 0),
    ("lead_in", "10", "It is at least $\\boxed{10}$.", 0, 0),
    ("lead_in", "10", "There are at most $\\boxed{10}$.", 0, 0),
    ("lead_in", "10", "The sum exceeds $\\boxed{10}$.", 0, 0),
    ("lead_in", "10", "The sum is divisible by $\\boxed{10}$.", 0, 0),
    ("lead_in", "10", "The sum is a multiple of $\\boxed{10}$.", 0, 0),
    ("lead_in", "10", "The sum is twice $\\boxed{10}$.", 0, 0),
    ("lead_in", "10", "The sum is either $\\boxed{10}$.", 0, 0),
    ("lead_in", "10", "The sum is 5 or $\\boxed{10}$.", 0, 0),
    ("lead_in", "20", "The answer is 10 less than $\\boxed{20}$.", 0, 0),
    ("lead_in", "10", "Maybe the answer is $\\boxed{10}$.", 0, 0),
    ("lead_in", "10", "It is false that the answer is $\\boxed{10}$.", 0, 0),
    ("lead_in", "10", "I doubt the answer is \\boxed{10}.", 0, 0),
    ("lead_in", "10", "Suppose the answer is \\boxed{10}.", 0, 0),
    ("lead_in", "10", "It is wrong to say the answer is 10.", 0, 0),
    ("lead_in", "10", "The answer is 3 of $\\boxed{10}$.", 0, 0),
    ("lead_in", "10", "The answer is less then $\\boxed{10}$.", 0, 0),
    ("lead_in", "10", "The answer is as much as $\\boxed{10}$.", 0, 0),
    ("lead_in", "10", "It is at least $x = \\boxed{10}$.", 0, 0),
    ("lead_in", "10", "So $11 \\equiv \\boxed{10} \\pmod{11}$.", 0, 0),
    ("lead_in", "5", "Then $129^{34}+96^{38} \\equiv \\boxed{5} \\pmod{11}$.", 0, 0),
    ("lead_in", "10", "So x ≥ \\boxed{10}.", 0, 0),
    ("lead_in", "10", "So $\\pm \\boxed{10}$.", 0, 0),
    ("lead_in", "10", "The count is more than\n\n\\boxed{10}", 0, 0),
    ("lead_in", "5", "It is not\n\\boxed{5}", 0, 0),
    ("lead_in", "10", "11 =\n\\boxed{10}", 0, 0),
    ("lead_in", "10", "So $x >$\n$\\boxed{10}$", 0, 0),
    ("lead_in", "82", "37 + 45 = 82\n\n\\boxed{82}", 1, 1),
    ("lead_in", "5", "### Final Answer\n\\boxed{5}", 1, 1),
    ("lead_in", "10", "So x = \\boxed{10}.", 1, 1),
    ("lead_in", "82", "So $37 + 45 = \\boxed{82}$.", 1, 1),
    ("lead_in", "9", "Then $129^{34}+96^{38} \\equiv \\boxed{9} \\pmod{11}$.", 1, 1),
    ("lead_in", "x > 5", "So $x > \\boxed{5}$.", 1, None),
    ("lead_in", "10", "So $\\sqrt{x} = \\boxed{10}$.", 1, 1),
    ("lead_in", "10", "The sum is approximately $\\boxed{10}$.", 1, 1),
    ("lead_in", "10", "This gives a total of $\\boxed{10}$.", 1, 1),
    ("lead_in", "10", "The area is given by $\\boxed{10}$.", 1, 1),
    ("lead_in", "10", "Since 9 is less than 11, the answer is $\\boxed{10}$.", 1, 1),
    ("lead_in", "10", "Hence, $\\boxed{10}$.", 1, 1),
    ("lead_in", "10", "It can be written as $\\boxed{10}$.", 1, 1),
    ("lead_in", "10", "So $21 \\equiv \\boxed{10} \\pmod{11}$.", 1, 1),
    ("lead_in", "10", "The answer is ${\\color{red}\\boxed{10}}$.", 1, 1),
    ("lead_in", "10", "**Final Answer:** $\\boxed{10}$", 1, 1),
    # -- an unmarked last sentence "we find that $…$": a closed form, not "any sentence ending in math"
    ("unmarked_sentence", "10", "We find that $x \\neq 10$.", 0, None),
    ("unmarked_sentence", "10", "We find that $x < 10$.", 0, None),
    ("unmarked_sentence", "10", "We cannot find that $x = 10$.", 0, None),
    ("unmarked_sentence", "10", "We do not find that $x = 10$.", 0, None),
    ("unmarked_sentence", "10", "We might find that $x = 10$.", 0, None),
    ("unmarked_sentence", "10", "Maybe we find that $x = 10$.", 0, None),
    ("unmarked_sentence", "10", "It is not true that $x = 10$.", 0, None),
    ("unmarked_sentence", "10", "It is false that $x = 10$.", 0, None),
    ("unmarked_sentence", "10", "I doubt that $x = 10$.", 0, None),
    ("unmarked_sentence", "10", "The sum is divisible by $10$.", 0, None),
    ("unmarked_sentence", "10", "The sum is a multiple of $10$.", 0, None),
    ("unmarked_sentence", "10", "The sum exceeds $10$.", 0, None),
    ("unmarked_sentence", "10", "The sum is close to $10$.", 0, None),
    ("unmarked_sentence", "10", "We find that $x = 10$ or $x = 11$.", 0, None),
    ("unmarked_sentence", "10", "We find that $x = 10$, not 11.", 0, None),
    ("unmarked_sentence", "11", "We find that $x = 10 = 11$.", 0, None),
    ("unmarked_sentence", "10", "We find that $x = 10$ is impossible.", 0, None),
    ("unmarked_sentence", "x > 10", "We find that $x \\geq 10$.", 0, None),
    ("unmarked_sentence", "10", "It is not true that the sum is 10.", 0, None),
    ("unmarked_sentence", "10", "It is false that the sum is 10.", 0, None),
    ("unmarked_sentence", "10", "Perhaps the sum is 10.", 0, None),
    ("unmarked_sentence", "x < 3", "We find that $x \\lt 3$.", 1, None),
    ("unmarked_sentence", "x \\neq 3", "We find that $x \\neq 3$.", 1, None),
    ("unmarked_sentence", "10", "We find that $x = 10$.", 1, None),
    ("unmarked_sentence", "10", "Therefore, we get $x = 10$.", 1, None),
    ("unmarked_sentence", "x \\geq 5", "Thus we find $x \\geq 5$.", 1, None),
    ("unmarked_sentence", "10", "So the sum is 10.", 1, None),
]

FAMILIES = sorted({row[0] for row in ROWS})


def _sample(answer: str) -> Sample:
    return Sample(id="t", prompt="", answer=answer)


@pytest.mark.parametrize("family, answer, completion, expected, _exact", ROWS)
def test_math(family, answer, completion, expected, _exact):
    from rlvr.verifiers.mathv import verify_math

    verdict = verify_math(completion, _sample(answer))
    assert verdict.reward == float(expected), (verdict.status, verdict.detail)
    assert (verdict.status == "ok") is bool(expected)


@pytest.mark.parametrize("family, answer, completion, _math, expected",
                         [row for row in ROWS if row[4] is not None])
def test_exact(family, answer, completion, _math, expected):
    from rlvr.verifiers.exact import verify_exact

    verdict = verify_exact(completion, _sample(answer))
    assert verdict.reward == float(expected), (verdict.status, verdict.detail)


def test_every_family_has_six_rows_and_both_kinds():
    counts = Counter(row[0] for row in ROWS)
    assert all(n >= 6 for n in counts.values()), counts
    for family in FAMILIES:
        rewards = {row[3] for row in ROWS if row[0] == family}
        assert rewards == {0, 1}, f"{family}: needs wrong answers and true equivalences"


def test_several_family_rows_are_refused_with_a_reason():
    from rlvr.verifiers.mathv import verify_math

    reasons = {
        ("5", "The answer is either 10 or 11."): "several_answers",
        ("10", "\\boxed{10 \\text{ (incorrect)}}"): "unparsed",
        ("10", "\\boxed{10}. Wait, that's wrong; it should be 11."): "trailing_text",
        ("10", "\\boxed{x \\neq 10}"): "relation",
        ("5", "\\boxed{3} hmm, no: \\boxed{5}"): "several_answers",
        ("10", "<think>so <answer>10</answer>"): "no_answer",
        ("10", "So $x > \\boxed{10}$."): "relation",
        ("10", "So $11 = \\boxed{10}$."): "relation",
        ("10", "The count is more than \\boxed{10}."): "relation",
        ("10", "The sum is divisible by $\\boxed{10}$."): "unparsed",
        ("100", "So $\\sqrt{\\boxed{100}}$."): "unparsed",
        ("10", "Maybe the answer is $\\boxed{10}$."): "several_answers",
        ("10", "There are $\\boxed{10}$ thousand values."): "trailing_text",
        ("10", "It is not true that the sum is 10."): "relation",
        ("10", "Perhaps the sum is 10."): "several_answers",
    }
    for (answer, completion), reason in reasons.items():
        verdict = verify_math(completion, _sample(answer))
        assert verdict.info.get(f"refused/{reason}") == 1.0, (completion, verdict.info, verdict.detail)
        assert sum(v for k, v in verdict.info.items() if k.startswith("refused/")) == 1.0


def export(path: Path, rows: list[tuple[str, str, str, int, int | None]] = ROWS) -> tuple[Path, Path]:
    """A table (``ROWS`` unless told) as two `rlvr audit` files: every row for math, the
    exact rows for exact."""
    exact_path = path.with_name(path.stem + "_exact" + path.suffix)
    with path.open("w") as out, exact_path.open("w") as out_exact:
        for i, (family, answer, completion, math_expected, exact_expected) in enumerate(rows):
            row = {"id": f"{family}-{i}", "answer": answer, "completion": completion}
            out.write(json.dumps({**row, "expected": math_expected}) + "\n")
            if exact_expected is not None:
                out_exact.write(json.dumps({**row, "expected": exact_expected}) + "\n")
    return path, exact_path


def audit_table(tmp_path: Path, rows: list[tuple[str, str, str, int, int | None]] = ROWS) -> None:
    """``rlvr audit`` on a table, for math and exact: every row agrees (precision and recall 1)."""
    math_file, exact_file = export(tmp_path / "adversarial.jsonl", rows)
    for verifier, cases in (("math", math_file), ("exact", exact_file)):
        out = subprocess.run([sys.executable, "-m", "rlvr.cli", "audit", "--verifier", verifier, "--workers", "0",
                              str(cases)], capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        assert "precision 1.0000  recall 1.0000" in out.stdout, out.stdout


def test_rlvr_audit_precision_is_one(tmp_path):
    audit_table(tmp_path)


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "math_adversarial.jsonl")
    for written in export(target):
        print(f"wrote {written}")
    print("rows per family:", dict(sorted(Counter(row[0] for row in ROWS).items())))
