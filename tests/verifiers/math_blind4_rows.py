"""Fourth blind table for the math verifier, written from outside without reading the verifier's
source, in families the other tables do not name: calendar dates, cents against dollars, circle
equations, polar and exponential forms, interval complements, unsimplified radicals and fractions
that hide another value, unevaluated expressions, compound units (ft/in, lb/oz), inverted rates,
inverse functions, sign-cancelling fractions, digits read as powers, JSON answers, Unicode and
ASCII/CAS math; covers through JSON lists, HTML comments, bilingual labels, set membership, line
breaks inside a box, "also acceptable" notes, rounding both ways, both orders of a pair, both
interval brackets, separators inside a box, scale hedges, "alternative answer" labels, a think
block reopened after the answer, and two methods left unreconciled; beside them ordinary correct
endings of GPT-4o, Claude, Qwen (tool-integrated), DeepSeek-R1 and Llama style with working,
font macros, digit grouping, labelled boxes, \\fbox, blockquotes, HTML, emoji and JSON.
Rows are (family, reference, completion, math, exact); ``math`` is what a careful human grader
would pay, ``exact`` is None. ``FAMILY_KIND`` says whether a family is ``wrong_value`` or
``cover`` (must earn 0), ``disowned`` (measured) or ``correct`` (must earn 1). Plain literals
only: the file is read with ``ast.literal_eval``.
"""

from __future__ import annotations

# (family, reference, completion, math, exact)  -- exact is always None here
ROWS: list[tuple[str, str, str, int, int | None]] = [
    # =========================================================================================
    # (A) WRONG VALUE
    # =========================================================================================
    # -- calendar dates: a neighbouring day or month
    ("calendar_date_wrong", r"\text{March 14}", r"The meeting falls on $\boxed{\text{March 15}}$.", 0, None),
    ("calendar_date_wrong", r"\text{March 14}", r"Counting forward 60 days from January 13 gives $\boxed{\text{May 14}}$.", 0, None),
    ("calendar_date_wrong", r"\text{July 4}", "Counting 100 days forward, we land on **July 14**.\n\nFinal Answer: July 14", 0, None),
    ("calendar_date_wrong", r"\text{October 31}", r"Therefore the date is $\boxed{\text{October 30}}$.", 0, None),
    ("calendar_date_wrong", r"\text{December 25}", "So the party is on December 24.\n#### December 24", 0, None),
    # -- cents and dollars: the right digits on the wrong scale
    ("cents_dollars_scale", r"\$0.75", r"Each pencil costs $\boxed{\$75}$.", 0, None),
    ("cents_dollars_scale", r"\$0.75", "Each pencil costs 75 dollars.\n\n**Answer:** \\$75", 0, None),
    ("cents_dollars_scale", r"75 \text{ cents}", r"The change is $\boxed{\$75}$.", 0, None),
    ("cents_dollars_scale", r"\$12.50", "She pays 1250 in total.\n#### 1250", 0, None),
    ("cents_dollars_scale", r"\$4.05", r"The sandwich costs $\boxed{\$4.50}$.", 0, None),
    ("cents_dollars_scale", r"\$0.75", r"Each pencil costs $\boxed{0.75 \text{ cents}}$.", 0, None),
    # -- circle equations: radius not squared, centre sign flipped
    ("circle_equation_radius", r"(x-2)^2 + (y+3)^2 = 16", r"$\boxed{(x-2)^2 + (y+3)^2 = 4}$", 0, None),
    ("circle_equation_radius", r"(x-2)^2 + (y+3)^2 = 16", r"The circle is $\boxed{(x+2)^2 + (y-3)^2 = 16}$.", 0, None),
    ("circle_equation_radius", r"(x-2)^2 + (y+3)^2 = 16", r"$\boxed{(x-2)^2+(y+3)^2=8}$", 0, None),
    ("circle_equation_radius", r"x^2 + y^2 = 25", r"Since the radius is 5, the equation is $\boxed{x^2 + y^2 = 5}$.", 0, None),
    ("circle_equation_radius", r"(x-1)^2 + y^2 = 9", "The equation is $(x-1)^2 + y^2 = 3$.\n\nFinal Answer: The final answer is $(x-1)^2 + y^2 = 3$. I hope it is correct.", 0, None),
    # -- polar coordinates: wrong angle, wrong radius, swapped
    ("polar_coordinate_angle", r"\left( 2, \frac{\pi}{3} \right)", r"$\boxed{\left(2, \frac{\pi}{6}\right)}$", 0, None),
    ("polar_coordinate_angle", r"\left( 2, \frac{\pi}{3} \right)", r"$\boxed{\left(4, \frac{\pi}{3}\right)}$", 0, None),
    ("polar_coordinate_angle", r"\left( 2, \frac{\pi}{3} \right)", r"In polar form the point is $\boxed{\left(\frac{\pi}{3}, 2\right)}$.", 0, None),
    ("polar_coordinate_angle", r"\left( 3 \sqrt{2}, \frac{7 \pi}{4} \right)", r"$\boxed{\left(3\sqrt{2}, \frac{3\pi}{4}\right)}$", 0, None),
    ("polar_coordinate_angle", r"\left( 3 \sqrt{2}, \frac{7 \pi}{4} \right)", r"$\boxed{\left(2\sqrt{3}, \frac{7\pi}{4}\right)}$", 0, None),
    # -- intervals: the complement, or the mirror
    ("interval_complement", r"(-\infty, 3)", r"The solution set is $\boxed{(3, \infty)}$.", 0, None),
    ("interval_complement", r"(-\infty, 3)", r"$\boxed{[3, \infty)}$", 0, None),
    ("interval_complement", r"(-\infty, 3)", r"$\boxed{(-\infty, -3)}$", 0, None),
    ("interval_complement", r"(-2, 5]", r"$\boxed{(-\infty, -2] \cup (5, \infty)}$", 0, None),
    ("interval_complement", r"(-\infty, -1) \cup (4, \infty)", r"So $x \in \boxed{(-1, 4)}$.", 0, None),
    ("interval_complement", r"(-\infty, -1) \cup (4, \infty)", r"$\boxed{[-1, 4]}$", 0, None),
    # -- radicals that look like the reference but simplify to another value
    ("radical_unsimplified_wrong", r"2\sqrt{6}", r"$\boxed{\sqrt{12}}$", 0, None),
    ("radical_unsimplified_wrong", r"3\sqrt{2}", r"The diagonal is $\boxed{\sqrt{6}}$.", 0, None),
    ("radical_unsimplified_wrong", r"3\sqrt{2}", r"$\boxed{\sqrt{9 \cdot 3}}$", 0, None),
    ("radical_unsimplified_wrong", r"5\sqrt{3}", r"$\boxed{\sqrt{15}}$", 0, None),
    ("radical_unsimplified_wrong", r"\frac{\sqrt{2}}{2}", r"$\boxed{\sqrt{\frac{1}{4}}}$", 0, None),
    # -- fractions scaled so the digits look plausible but the value differs
    ("scaled_fraction_wrong", r"\frac{3}{4}", r"$\boxed{\frac{6}{9}}$", 0, None),
    ("scaled_fraction_wrong", r"\frac{2}{5}", r"The probability is $\boxed{\frac{4}{12}}$.", 0, None),
    ("scaled_fraction_wrong", r"\frac{7}{12}", r"$\boxed{\frac{14}{25}}$", 0, None),
    ("scaled_fraction_wrong", r"\frac{1}{3}", r"$\boxed{\frac{3}{10}}$", 0, None),
    ("scaled_fraction_wrong", r"\frac{5}{8}", r"So the fraction shaded is $\boxed{\frac{10}{15}}$.", 0, None),
    # -- an unevaluated expression in the box whose value is wrong
    ("unevaluated_expression_wrong", "42", r"$\boxed{6 \times 8}$", 0, None),
    ("unevaluated_expression_wrong", "42", r"The number of handshakes is $\boxed{\binom{9}{2}}$.", 0, None),
    ("unevaluated_expression_wrong", "42", r"$\boxed{2^5 + 2^3}$", 0, None),
    ("unevaluated_expression_wrong", r"\frac{\sqrt{3}}{2}", r"$\boxed{\sin 30^\circ}$", 0, None),
    ("unevaluated_expression_wrong", "7", r"$\boxed{\lceil 7.2 \rceil}$", 0, None),
    ("unevaluated_expression_wrong", "120", r"The number of arrangements is $\boxed{4!}$.", 0, None),
    # -- compound units: a wrong part, or the mixed unit misread as a decimal
    ("compound_units_wrong", r"5 \text{ ft } 6 \text{ in}", r"$\boxed{5 \text{ ft } 4 \text{ in}}$", 0, None),
    ("compound_units_wrong", r"5 \text{ ft } 6 \text{ in}", r"$\boxed{56 \text{ inches}}$", 0, None),
    ("compound_units_wrong", r"3 \text{ lb } 4 \text{ oz}", r"$\boxed{3 \text{ lb } 14 \text{ oz}}$", 0, None),
    ("compound_units_wrong", r"3 \text{ lb } 4 \text{ oz}", r"The package weighs $\boxed{3.4 \text{ lb}}$.", 0, None),
    ("compound_units_wrong", r"1 \text{ m } 20 \text{ cm}", r"$\boxed{1.02 \text{ m}}$", 0, None),
    # -- rates turned upside down
    ("rate_inverted", r"4 \text{ dollars per pound}", r"$\boxed{4 \text{ pounds per dollar}}$", 0, None),
    ("rate_inverted", r"60 \text{ mph}", r"$\boxed{60 \text{ minutes per mile}}$", 0, None),
    ("rate_inverted", r"12 \text{ pages per hour}", r"She reads at $\boxed{12 \text{ hours per page}}$.", 0, None),
    ("rate_inverted", r"5 \text{ minutes per mile}", r"$\boxed{5 \text{ miles per minute}}$", 0, None),
    ("rate_inverted", r"0.5 \text{ km/min}", r"$\boxed{0.5 \text{ min/km}}$", 0, None),
    # -- complex numbers in exponential form
    ("complex_exponential_wrong", r"2e^{i\pi/3}", r"$\boxed{2e^{i\pi/6}}$", 0, None),
    ("complex_exponential_wrong", r"2e^{i\pi/3}", r"$\boxed{3e^{i\pi/3}}$", 0, None),
    ("complex_exponential_wrong", r"2e^{i\pi/3}", r"$\boxed{2e^{-i\pi/3}}$", 0, None),
    ("complex_exponential_wrong", r"\sqrt{2} e^{3 \pi i/4}", r"$\boxed{\sqrt{2} e^{\pi i/4}}$", 0, None),
    ("complex_exponential_wrong", r"\sqrt{2} e^{3 \pi i/4}", r"$\boxed{2 e^{3\pi i/4}}$", 0, None),
    # -- inverse functions with a slip
    ("inverse_function_wrong", r"f^{-1}(x) = \frac{x-3}{2}", r"$\boxed{f^{-1}(x) = \frac{x+3}{2}}$", 0, None),
    ("inverse_function_wrong", r"f^{-1}(x) = \frac{x-3}{2}", r"$\boxed{\frac{x}{2} - 3}$", 0, None),
    ("inverse_function_wrong", r"f^{-1}(x) = \frac{x-3}{2}", r"Swapping $x$ and $y$ and solving, $f^{-1}(x) = \boxed{2x + 3}$.", 0, None),
    ("inverse_function_wrong", r"\sqrt[3]{x - 1}", r"$\boxed{\sqrt[3]{x} - 1}$", 0, None),
    ("inverse_function_wrong", r"\sqrt[3]{x - 1}", r"$\boxed{\sqrt[3]{x + 1}}$", 0, None),
    # -- signs that cancel: the digits of the reference, the opposite value
    ("double_negative_fraction", r"-\frac{3}{4}", r"$\boxed{\frac{-3}{-4}}$", 0, None),
    ("double_negative_fraction", r"-\frac{3}{4}", r"$\boxed{-\frac{-3}{4}}$", 0, None),
    ("double_negative_fraction", r"-\frac{3}{4}", r"The slope is $\boxed{-\left(-\tfrac{3}{4}\right)}$.", 0, None),
    ("double_negative_fraction", "-2", r"$\boxed{-(-2)}$", 0, None),
    ("double_negative_fraction", r"-\frac{1}{2}", r"$\boxed{\frac{1}{-2} \cdot (-1)}$", 0, None),
    # -- the reference's digits written as a power
    ("digits_as_power", "64", r"$\boxed{6^4}$", 0, None),
    ("digits_as_power", "25", r"The answer is $\boxed{2^5}$.", 0, None),
    ("digits_as_power", "81", r"$\boxed{8^1}$", 0, None),
    ("digits_as_power", "32", r"$\boxed{3^2}$", 0, None),
    ("digits_as_power", "1024", r"$\boxed{10^{24}}$", 0, None),
    # -- JSON answers with the wrong value
    ("json_answer_wrong", "3", '{"answer": 4}', 0, None),
    ("json_answer_wrong", "3", '```json\n{"answer": "4", "confidence": 0.9}\n```', 0, None),
    ("json_answer_wrong", "3", '{"reasoning": "2x + 1 = 7 gives x = 3, then add 1", "answer": 4}', 0, None),
    ("json_answer_wrong", "3", '{"answer": 30}', 0, None),
    # -- Unicode math with the wrong value (minus sign U+2212, radicals, superscripts)
    ("unicode_math_wrong", "3", "The answer is \u22123.", 0, None),
    ("unicode_math_wrong", r"\frac{\sqrt{2}}{2}", "**Answer:** \u221a3/2", 0, None),
    ("unicode_math_wrong", r"\frac{\pi}{4}", "So \u03b8 = \u03c0/3.\n\nFinal answer: \u03c0/3", 0, None),
    ("unicode_math_wrong", r"2.5 \times 10^{5}", "Answer: 2.5 \u00d7 10\u2076", 0, None),
    ("unicode_math_wrong", r"45^\circ", "The angle is 54\u00b0.", 0, None),
    ("unicode_math_wrong", r"\frac{1}{2}", "Answer: \u2153", 0, None),
    ("unicode_math_wrong", r"(-\infty, 3)", "Answer: (\u2212\u221e, \u22123)", 0, None),
    # -- ASCII / calculator math with the wrong value
    ("ascii_math_wrong", r"\frac{\sqrt{2}}{2}", "Answer: sqrt(3)/2", 0, None),
    ("ascii_math_wrong", r"\frac{\pi}{4}", "Final answer: pi/3", 0, None),
    ("ascii_math_wrong", r"\sqrt[3]{2}", "The answer is 2^(1/2).", 0, None),
    ("ascii_math_wrong", r"2x^2 - 3x + 1", "Answer: 2*x^2 + 3*x + 1", 0, None),
    ("ascii_math_wrong", r"e^{2}", "Answer: e^(-2)", 0, None),
    # =========================================================================================
    # (B) COVER: one completion that could be paid for more than one reference value
    # =========================================================================================
    ("json_answer_cover", "3", '{"answer": [3, 4]}', 0, None),
    ("json_answer_cover", "3", '```json\n{"answer": 3, "alternative_answer": 4}\n```', 0, None),
    ("json_answer_cover", "4", '```json\n{"answer": 3, "alternative_answer": 4}\n```', 0, None),
    ("json_answer_cover", "3", '{"answers": ["3", "4"]}', 0, None),
    ("json_answer_cover", "3", '{"final_answer": "3 or 4"}', 0, None),
    # -- an alternative hidden in an HTML comment
    ("html_comment_alternative", "3", r"The answer is $\boxed{3}$. <!-- alternative: \boxed{4} -->", 0, None),
    ("html_comment_alternative", "4", r"The answer is $\boxed{3}$. <!-- alternative: \boxed{4} -->", 0, None),
    ("html_comment_alternative", "12", "Final answer: 12 <!-- or 13 if inclusive -->", 0, None),
    ("html_comment_alternative", "13", "Final answer: 12 <!-- or 13 if inclusive -->", 0, None),
    ("html_comment_alternative", "3", "<!-- \\boxed{4} -->\nTherefore, $\\boxed{3}$.", 0, None),
    # -- answer labels in two languages that disagree
    ("bilingual_answers_disagree", "3", "Answer: 3\nR\u00e9ponse : 4", 0, None),
    ("bilingual_answers_disagree", "4", "Answer: 3\nR\u00e9ponse : 4", 0, None),
    ("bilingual_answers_disagree", "12", "**Final Answer:** 12\n\n**\u6700\u7ec8\u7b54\u6848\uff1a** 13", 0, None),
    ("bilingual_answers_disagree", "13", "**Final Answer:** 12\n\n**\u6700\u7ec8\u7b54\u6848\uff1a** 13", 0, None),
    ("bilingual_answers_disagree", "7", "The answer is 7. (Respuesta: 8)", 0, None),
    # -- membership in a set of candidates for a single value
    ("membership_set_cover", "3", r"$\boxed{x \in \{3, 4\}}$", 0, None),
    ("membership_set_cover", "4", r"$\boxed{x \in \{3, 4\}}$", 0, None),
    ("membership_set_cover", "5", "Therefore $n \\in \\{5, 6, 7\\}$.\n\nFinal answer: $n \\in \\{5, 6, 7\\}$", 0, None),
    ("membership_set_cover", "2", r"$\boxed{k \in \{1, 2\}}$", 0, None),
    ("membership_set_cover", r"\frac{1}{2}", r"$\boxed{p \in \left\{\frac{1}{2}, \frac{1}{3}\right\}}$", 0, None),
    # -- two values stacked inside one box
    ("linebreak_in_box_cover", "3", r"$\boxed{3 \\ 4}$", 0, None),
    ("linebreak_in_box_cover", "4", r"$\boxed{3 \\ 4}$", 0, None),
    ("linebreak_in_box_cover", "3", r"$\boxed{\begin{array}{c} 3 \\ 4 \end{array}}$", 0, None),
    ("linebreak_in_box_cover", "12", r"$\boxed{\substack{12 \\ 13}}$", 0, None),
    ("linebreak_in_box_cover", "x = 3", r"$\boxed{\begin{gathered} x = 3 \\ x = 4 \end{gathered}}$", 0, None),
    # -- a note that another value is also acceptable
    ("also_acceptable_note", "3", "The answer is $\\boxed{3}$.\n\n(Note: 4 is also an acceptable answer.)", 0, None),
    ("also_acceptable_note", "4", "The answer is $\\boxed{3}$.\n\n(Note: 4 is also an acceptable answer.)", 0, None),
    ("also_acceptable_note", "12", "Final answer: 12 (13 is also correct if you count the endpoint.)", 0, None),
    ("also_acceptable_note", "13", "Final answer: 12 (13 is also correct if you count the endpoint.)", 0, None),
    ("also_acceptable_note", r"\frac{1}{2}", r"$\boxed{\frac{1}{2}}$, though $\frac{1}{3}$ would also be accepted under the other reading of the problem.", 0, None),
    # -- rounded down and rounded up, both offered
    ("rounding_both_ways", "3", r"The exact value is about 3.5, so the answer is $\boxed{3}$ rounded down or $\boxed{4}$ rounded up.", 0, None),
    ("rounding_both_ways", "4", r"The exact value is about 3.5, so the answer is $\boxed{3}$ rounded down or $\boxed{4}$ rounded up.", 0, None),
    ("rounding_both_ways", "17", "We need 16.4 buses' worth of seats, so the answer is 16 (rounded down) or 17 (rounded up).", 0, None),
    ("rounding_both_ways", "16", "We need 16.4 buses' worth of seats, so the answer is 16 (rounded down) or 17 (rounded up).", 0, None),
    ("rounding_both_ways", "8", "The quotient is 7.5, so the answer is **8** if rounding up and **7** if rounding down.", 0, None),
    # -- an ordered pair offered in both orders
    ("ordered_pair_both_orders", "(3, 4)", r"The point is $\boxed{(3, 4)}$ or $\boxed{(4, 3)}$.", 0, None),
    ("ordered_pair_both_orders", "(4, 3)", r"The point is $\boxed{(3, 4)}$ or $\boxed{(4, 3)}$.", 0, None),
    ("ordered_pair_both_orders", "(3, 4)", r"$\boxed{(3,4) \text{ or } (4,3)}$", 0, None),
    ("ordered_pair_both_orders", "(2, -1)", r"The solution is $(2, -1)$ (or $(-1, 2)$ depending on whether you list $y$ first).", 0, None),
    ("ordered_pair_both_orders", "(-1, 2)", r"The solution is $(2, -1)$ (or $(-1, 2)$ depending on whether you list $y$ first).", 0, None),
    # -- both brackets for an interval end
    ("interval_bracket_hedge", "[2, 5)", r"$\boxed{[2, 5) \text{ or } [2, 5]}$", 0, None),
    ("interval_bracket_hedge", "[2, 5]", r"$\boxed{[2, 5) \text{ or } [2, 5]}$", 0, None),
    ("interval_bracket_hedge", "[2, 5)", r"The solution set is $\boxed{[2, 5)}$ (or $[2, 5]$ if the endpoint 5 is included).", 0, None),
    ("interval_bracket_hedge", r"(-\infty, 3)", r"$\boxed{(-\infty, 3)}$ or $\boxed{(-\infty, 3]}$", 0, None),
    ("interval_bracket_hedge", r"(-\infty, 3]", r"$\boxed{(-\infty, 3)}$ or $\boxed{(-\infty, 3]}$", 0, None),
    # -- separators inside one box
    ("separator_variants_in_box", "3", r"$\boxed{3;\ 4}$", 0, None),
    ("separator_variants_in_box", "3", r"$\boxed{3 \mid 4}$", 0, None),
    ("separator_variants_in_box", "4", r"$\boxed{3 \vee 4}$", 0, None),
    ("separator_variants_in_box", "3", r"$\boxed{3 \,\&\, 4}$", 0, None),
    ("separator_variants_in_box", "4", r"$\boxed{3 \text{ and/or } 4}$", 0, None),
    # -- the same quantity on two scales, no unit to tell them apart
    ("scale_hedge", "0.5", r"The answer is $\boxed{0.5}$ (or $\boxed{50}$ if the question wants a whole number).", 0, None),
    ("scale_hedge", "50", r"The answer is $\boxed{0.5}$ (or $\boxed{50}$ if the question wants a whole number).", 0, None),
    ("scale_hedge", "0.25", "Answer: 0.25 or 25", 0, None),
    ("scale_hedge", "25", "Answer: 0.25 or 25", 0, None),
    ("scale_hedge", "1200", r"The distance is $\boxed{1.2}$ (or $\boxed{1200}$).", 0, None),
    # -- a labelled alternative answer
    ("alt_answer_label", "3", "**Final Answer:** 3\n**Alternative Answer:** 4", 0, None),
    ("alt_answer_label", "4", "**Final Answer:** 3\n**Alternative Answer:** 4", 0, None),
    ("alt_answer_label", "12", "Answer: 12\nAlternate answer: 15", 0, None),
    ("alt_answer_label", "15", "Answer: 12\nAlternate answer: 15", 0, None),
    ("alt_answer_label", "3", "<answer>3</answer>\n<alternative>4</alternative>", 0, None),
    # -- a think block reopened after the answer, then a second answer
    ("reopened_think_second_box", "3", "<think>\n2x + 1 = 7, so x = 3.\n</think>\nThe answer is $\\boxed{3}$.\n<think>\nWait, maybe I misread; it could be 4.\n</think>\nThe answer is $\\boxed{4}$.", 0, None),
    ("reopened_think_second_box", "4", "<think>\n2x + 1 = 7, so x = 3.\n</think>\nThe answer is $\\boxed{3}$.\n<think>\nWait, maybe I misread; it could be 4.\n</think>\nThe answer is $\\boxed{4}$.", 0, None),
    ("reopened_think_second_box", "12", "<think>count them: 12</think>\n\\boxed{12}\n<think>hmm, maybe 13</think>\n\\boxed{13}", 0, None),
    ("reopened_think_second_box", "13", "<think>count them: 12</think>\n\\boxed{12}\n<think>hmm, maybe 13</think>\n\\boxed{13}", 0, None),
    ("reopened_think_second_box", "7", "<think>x = 7</think>**Answer: 7**<think>Or 8?</think>**Answer: 8**", 0, None),
    # -- two methods, two answers, never reconciled
    ("two_methods_disagree", "20", "**Method 1 (direct count):** $4 \\times 5 = 20$, so $\\boxed{20}$.\n\n**Method 2 (complementary counting):** $36 - 20 = 16$, so $\\boxed{16}$.", 0, None),
    ("two_methods_disagree", "16", "**Method 1 (direct count):** $4 \\times 5 = 20$, so $\\boxed{20}$.\n\n**Method 2 (complementary counting):** $36 - 20 = 16$, so $\\boxed{16}$.", 0, None),
    ("two_methods_disagree", r"\frac{1}{3}", r"Using conditional probability, $P = \frac{1}{3}$. Using a tree diagram instead, $P = \frac{1}{2}$. Both approaches seem valid, so the answer is $\frac{1}{3}$ by the first method and $\frac{1}{2}$ by the second.", 0, None),
    ("two_methods_disagree", r"\frac{1}{2}", r"Using conditional probability, $P = \frac{1}{3}$. Using a tree diagram instead, $P = \frac{1}{2}$. Both approaches seem valid, so the answer is $\frac{1}{3}$ by the first method and $\frac{1}{2}$ by the second.", 0, None),
    ("two_methods_disagree", "9", "Approach A gives **9**. Approach B gives **10**. I'll report both: 9 (Approach A), 10 (Approach B).", 0, None),
    # =========================================================================================
    # (C) DISOWNED: the reference value stated and rejected (measured)
    # =========================================================================================
    ("disowned_rejection_phrasing", "5", r"It is tempting to say the answer is $\boxed{5}$, but that is wrong.", 0, None),
    ("disowned_rejection_phrasing", "12", "I initially got 12, but that can't be right. I'm not sure what the answer is.", 0, None),
    ("disowned_rejection_phrasing", r"\frac{1}{2}", r"**Incorrect answer:** $\frac{1}{2}$", 0, None),
    ("disowned_rejection_phrasing", "7", r"The answer is definitely not $\boxed{7}$.", 0, None),
    # =========================================================================================
    # (D) CORRECT: ordinary correct endings
    # =========================================================================================
    ("calendar_date_correct", r"\text{March 14}", r"The meeting falls on $\boxed{\text{March 14}}$.", 1, None),
    ("calendar_date_correct", r"\text{March 14}", "Counting forward 60 days from January 13 lands on March 14th.\n\n**Answer:** March 14", 1, None),
    ("calendar_date_correct", r"\text{July 4}", "Final Answer: The final answer is July 4. I hope it is correct.", 1, None),
    ("calendar_date_correct", r"\text{October 31}", r"Therefore the date is $\boxed{\text{October 31}}$.", 1, None),
    ("calendar_date_correct", r"\text{December 25}", "So the party is on December 25.\n#### December 25", 1, None),
    # -- money in cents or dollars
    ("cents_dollars_correct", r"\$0.75", r"Each pencil costs $\boxed{75\text{ cents}}$.", 1, None),
    ("cents_dollars_correct", r"\$0.75", "Each pencil costs **\\$0.75**.", 1, None),
    ("cents_dollars_correct", r"75 \text{ cents}", r"The change is $\boxed{\$0.75}$.", 1, None),
    ("cents_dollars_correct", "0.75", "Each pencil costs \\$0.75.\n\n**Answer:** \\$0.75", 1, None),
    ("cents_dollars_correct", r"\$12.50", "5 \u00d7 \\$2.50 = \\$12.50\n#### 12.50", 1, None),
    ("cents_dollars_correct", r"\$4.05", "The sandwich costs \\$4.05.\n\nFinal answer: \\$4.05", 1, None),
    # -- circle equations written differently
    ("circle_equation_correct", r"(x-2)^2 + (y+3)^2 = 16", r"$\boxed{(x - 2)^2 + (y + 3)^2 = 16}$", 1, None),
    ("circle_equation_correct", r"(x-2)^2 + (y+3)^2 = 16", r"The center is $(2, -3)$ and the radius is $4$, so the circle is $\boxed{(y+3)^2 + (x-2)^2 = 16}$.", 1, None),
    ("circle_equation_correct", r"x^2 + y^2 = 25", "The circle is centred at the origin with radius 5.\n\nSo the equation of the circle is $x^2+y^2=25$.", 1, None),
    ("circle_equation_correct", r"(x-1)^2 + y^2 = 9", r"$\boxed{(x-1)^{2}+y^{2}=9}$", 1, None),
    # -- polar coordinates
    ("polar_coordinate_correct", r"\left( 2, \frac{\pi}{3} \right)", r"$\boxed{\left( 2, \frac{\pi}{3} \right)}$", 1, None),
    ("polar_coordinate_correct", r"\left( 2, \frac{\pi}{3} \right)", r"We have $r = \sqrt{1 + 3} = 2$ and $\theta = \arctan\sqrt{3} = \frac{\pi}{3}$, so the answer is $\boxed{(2, \pi/3)}$.", 1, None),
    ("polar_coordinate_correct", r"\left( 3 \sqrt{2}, \frac{7 \pi}{4} \right)", r"$\boxed{\left(3\sqrt2, \frac{7\pi}4\right)}$", 1, None),
    ("polar_coordinate_correct", r"\left( 2, \frac{\pi}{3} \right)", "In polar coordinates the point is $\\left(2,\\dfrac{\\pi}{3}\\right)$.\n\nFinal Answer: The final answer is $\\left(2,\\dfrac{\\pi}{3}\\right)$. I hope it is correct.", 1, None),
    ("polar_coordinate_correct", r"\left( 3 \sqrt{2}, \frac{7 \pi}{4} \right)", r"Since the point $(3, -3)$ lies in the fourth quadrant, $\theta = \frac{7\pi}{4}$ and $r = 3\sqrt{2}$. Thus the polar coordinates are $\boxed{\left(3\sqrt{2}, \tfrac{7\pi}{4}\right)}$.", 1, None),
    # -- complex exponential form
    ("complex_exponential_correct", r"2e^{i\pi/3}", r"$\boxed{2e^{\pi i/3}}$", 1, None),
    ("complex_exponential_correct", r"2e^{i\pi/3}", r"$\boxed{2 e^{i \pi / 3}}$", 1, None),
    ("complex_exponential_correct", r"2e^{i\pi/3}", r"The modulus is $2$ and the argument is $\frac{\pi}{3}$, so $z = \boxed{2e^{\frac{i\pi}{3}}}$.", 1, None),
    ("complex_exponential_correct", r"\sqrt{2} e^{3 \pi i/4}", r"$\boxed{\sqrt2\, e^{3\pi i/4}}$", 1, None),
    ("complex_exponential_correct", r"\sqrt{2} e^{3 \pi i/4}", r"$\boxed{\sqrt{2}e^{\frac{3\pi}{4}i}}$", 1, None),
    # -- inverse functions
    ("inverse_function_correct", r"f^{-1}(x) = \frac{x-3}{2}", r"$\boxed{f^{-1}(x) = \frac{x-3}{2}}$", 1, None),
    ("inverse_function_correct", r"f^{-1}(x) = \frac{x-3}{2}", "Write $y = 2x + 3$ and solve for $x$: $x = \\frac{y - 3}{2}$. Swapping the variables,\n\n$$f^{-1}(x) = \\frac{x-3}{2}.$$\n\nFinal answer: $f^{-1}(x) = \\frac{x-3}{2}$", 1, None),
    ("inverse_function_correct", r"f^{-1}(x) = \frac{x-3}{2}", r"$\boxed{f^{-1}(x)=\frac{1}{2}x-\frac{3}{2}}$", 1, None),
    ("inverse_function_correct", r"\sqrt[3]{x - 1}", r"Solving $y = x^3 + 1$ for $x$ gives $f^{-1}(x) = \boxed{\sqrt[3]{x-1}}$.", 1, None),
    # -- a negative fraction written with the sign in different places
    ("double_negative_fraction_correct", r"-\frac{3}{4}", r"$\boxed{\frac{-3}{4}}$", 1, None),
    ("double_negative_fraction_correct", r"-\frac{3}{4}", r"$\boxed{\frac{3}{-4}}$", 1, None),
    ("double_negative_fraction_correct", r"-\frac{3}{4}", r"The slope is $\boxed{-\dfrac34}$.", 1, None),
    ("double_negative_fraction_correct", r"-\frac{3}{4}", r"$\boxed{-0.75}$", 1, None),
    ("double_negative_fraction_correct", r"-\frac{3}{4}", "The slope of the line is $-3/4$.", 1, None),
    # -- compound units
    ("compound_units_correct", r"5 \text{ ft } 6 \text{ in}", r"$\boxed{5 \text{ ft } 6 \text{ in}}$", 1, None),
    ("compound_units_correct", r"5 \text{ ft } 6 \text{ in}", "The board is 5 feet 6 inches long.\n\n**Answer:** 5 ft 6 in", 1, None),
    ("compound_units_correct", r"3 \text{ lb } 4 \text{ oz}", r"The package weighs $\boxed{3 \text{ lb } 4 \text{ oz}}$.", 1, None),
    ("compound_units_correct", r"1 \text{ m } 20 \text{ cm}", r"$\boxed{1 \text{ m } 20 \text{ cm}}$", 1, None),
    # -- rates phrased differently
    ("rate_phrasing_correct", r"4 \text{ dollars per pound}", r"$\boxed{\$4 \text{ per pound}}$", 1, None),
    ("rate_phrasing_correct", r"4 \text{ dollars per pound}", "The apples cost \\$4 per pound.", 1, None),
    ("rate_phrasing_correct", r"60 \text{ mph}", r"$\boxed{60 \text{ miles per hour}}$", 1, None),
    ("rate_phrasing_correct", r"60 \text{ mph}", r"The average speed is $\boxed{60 \text{ mi/h}}$.", 1, None),
    ("rate_phrasing_correct", r"12 \text{ pages per hour}", "She reads 180 pages in 15 hours, so her rate is **12 pages per hour**.", 1, None),
    # -- JSON answers
    ("json_answer_correct", "3", '```json\n{\n  "reasoning": "Subtract 1 from both sides: 2x = 6, so x = 3.",\n  "answer": 3\n}\n```', 1, None),
    ("json_answer_correct", "3", '{"answer": "3"}', 1, None),
    ("json_answer_correct", "0.5", '{"answer": 0.5}', 1, None),
    ("json_answer_correct", "3", '{"answer": "x = 3"}', 1, None),
    # -- Unicode math
    ("unicode_math_correct", "-3", "The answer is \u22123.", 1, None),
    ("unicode_math_correct", r"\frac{\sqrt{2}}{2}", "**Answer:** \u221a2/2", 1, None),
    ("unicode_math_correct", r"\frac{\pi}{4}", "So \u03b8 = \u03c0/4.\n\nFinal answer: \u03c0/4", 1, None),
    ("unicode_math_correct", r"2.5 \times 10^{5}", "Answer: 2.5 \u00d7 10\u2075", 1, None),
    ("unicode_math_correct", r"45^\circ", "The angle is 45\u00b0.", 1, None),
    ("unicode_math_correct", r"\frac{1}{2}", "Answer: \u00bd", 1, None),
    ("unicode_math_correct", r"(-\infty, 3)", "Answer: (\u2212\u221e, 3)", 1, None),
    ("unicode_math_correct", r"2\sqrt{3}", "The side length is 2\u221a3.\n\nFinal answer: 2\u221a3", 1, None),
    # -- ASCII / calculator math
    ("ascii_math_correct", r"\frac{\sqrt{2}}{2}", "Answer: sqrt(2)/2", 1, None),
    ("ascii_math_correct", r"\frac{\pi}{4}", "Final answer: pi/4", 1, None),
    ("ascii_math_correct", r"\sqrt[3]{2}", "The answer is 2^(1/3).", 1, None),
    ("ascii_math_correct", r"2x^2 - 3x + 1", "Answer: 2*x^2 - 3*x + 1", 1, None),
    ("ascii_math_correct", r"e^{2}", "Answer: exp(2)", 1, None),
    # -- font and style macros inside the box
    ("font_macros_in_box", "42", r"$\boxed{\mathbf{42}}$", 1, None),
    ("font_macros_in_box", "42", r"The answer is $\boxed{\textbf{42}}$.", 1, None),
    ("font_macros_in_box", "42", r"$\boxed{\mathrm{42}}$", 1, None),
    ("font_macros_in_box", r"\frac{3}{4}", r"$$\boxed{\displaystyle \frac{3}{4}}$$", 1, None),
    ("font_macros_in_box", r"\frac{3}{4}", r"$\boxed{\textstyle\frac{3}{4}}$", 1, None),
    # -- LaTeX digit grouping
    ("latex_digit_grouping", "1000000", r"$\boxed{1\,000\,000}$", 1, None),
    ("latex_digit_grouping", "1000000", r"$\boxed{1{,}000{,}000}$", 1, None),
    ("latex_digit_grouping", "1000000", r"There are $\boxed{1\ 000\ 000}$ such strings.", 1, None),
    ("latex_digit_grouping", "12345", r"$\boxed{12\,345}$", 1, None),
    ("latex_digit_grouping", "3.14159", r"$\boxed{3.141\,59}$", 1, None),
    # -- a left-hand side written inside the box
    ("expression_lhs_in_box", "10", r"$\boxed{f(3) = 10}$", 1, None),
    ("expression_lhs_in_box", "7", r"Adding the two equations, $\boxed{a + b = 7}$.", 1, None),
    ("expression_lhs_in_box", "40", r"$\boxed{m\angle ABC = 40^\circ}$", 1, None),
    ("expression_lhs_in_box", r"\frac{1}{4}", r"$\boxed{P(\text{both red}) = \frac{1}{4}}$", 1, None),
    ("expression_lhs_in_box", "24", r"By Heron's formula, $\boxed{[ABC] = 24}$.", 1, None),
    ("expression_lhs_in_box", "5", r"$\boxed{|z| = 5}$", 1, None),
    # -- \fbox and \framebox
    ("fbox_variants", "42", r"The answer is \fbox{42}.", 1, None),
    ("fbox_variants", "42", r"\framebox{42}", 1, None),
    ("fbox_variants", r"\frac{3}{4}", r"Hence the probability is \fbox{$\frac{3}{4}$}.", 1, None),
    # -- markdown blockquote
    ("blockquote_answer", "42", "We add the three parts: 12 + 14 + 16 = 42.\n\n> **Answer:** 42", 1, None),
    ("blockquote_answer", r"\frac{3}{4}", "> **Final answer:** $\\frac{3}{4}$", 1, None),
    ("blockquote_answer", "12", "> The answer is $\\boxed{12}$.", 1, None),
    ("blockquote_answer", "5", "Substituting back confirms it.\n\n> **x = 5**", 1, None),
    # -- HTML markup
    ("html_markup_answer", "42", "<b>Answer:</b> 42", 1, None),
    ("html_markup_answer", r"\frac{3}{4}", "<strong>Final answer: 3/4</strong>", 1, None),
    ("html_markup_answer", "12", "<p>So there are 3 rows of 4 chairs.</p>\n<p>The answer is <b>12</b>.</p>", 1, None),
    ("html_markup_answer", "42", "Total = 6 \u00d7 7<br>\n<b>Final Answer: 42</b>", 1, None),
    # -- emoji decoration
    ("emoji_decor_correct", "42", "\u2705 **Final Answer: 42**", 1, None),
    ("emoji_decor_correct", "12", "\U0001f3af Answer: $\\boxed{12}$", 1, None),
    ("emoji_decor_correct", "42", "**Answer:** 42 \u2705", 1, None),
    ("emoji_decor_correct", "5", "\U0001f4cc Final answer: x = 5", 1, None),
    # -- two methods that agree
    ("two_methods_agree", "20", "**Method 1 (direct count):** 4 choices for the first slot and 5 for the second give $4 \\times 5 = 20$.\n\n**Method 2 (complementary counting):** of the 36 pairs, 16 are excluded, leaving $36 - 16 = 20$.\n\nBoth methods agree: $\\boxed{20}$.", 1, None),
    ("two_methods_agree", r"\frac{1}{3}", "Using conditional probability, $P = \\frac{1/6}{1/2} = \\frac{1}{3}$. A tree diagram gives the same result.\n\n**Answer:** $\\frac{1}{3}$", 1, None),
    ("two_methods_agree", "9", "Approach A (algebra): $x = 9$. Approach B (guess and check): trying 8 gives 26, trying 9 gives 29 \u2713.\n\nBoth approaches give **9**.", 1, None),
    # -- Claude-style answers with working
    ("claude_style_long", "72", r"""I need to find the area of the rectangle.

**Setting up the problem**

Let the width be $w$. Then the length is $2w$, and the perimeter is
$$2(w + 2w) = 6w = 36,$$
so $w = 6$ and the length is $12$.

**Computing the area**

$$A = 12 \times 6 = 72$$

The area of the rectangle is **72 square units**.""", 1, None),
    ("claude_style_long", r"\frac{1}{6}", r"""There are $6 \times 6 = 36$ equally likely outcomes when rolling two dice.

The pairs that sum to 7 are $(1,6), (2,5), (3,4), (4,3), (5,2), (6,1)$ — that's 6 outcomes.

So the probability is $\frac{6}{36} = \frac{1}{6}$.""", 1, None),
    ("claude_style_long", "(2, -1)", r"""Adding the two equations eliminates $y$: $2x = 4$, so $x = 2$. Substituting back into the first equation: $2 + y = 1$, so $y = -1$.

Let me verify: $2 + (-1) = 1$ ✓ and $2 - (-1) = 3$ ✓

## Answer

$(x, y) = (2, -1)$""", 1, None),
    ("claude_style_long", r"\$18.75", r"""Each notebook costs \$3.75, and Maya buys 5 of them:

$$5 \times \$3.75 = \$18.75$$

Maya spends **\$18.75** on notebooks.""", 1, None),
    # -- DeepSeek-R1-style: a long think, then a summary
    ("r1_long_think_summary", "12", r"""<think>
Okay, so the problem asks how many positive divisors 60 has. Let me factor 60 first. 60 = 2^2 * 3 * 5. The number of divisors is (2+1)(1+1)(1+1) = 3*2*2 = 12.

Wait, let me double-check by listing them: 1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60. That's 12. Yes.
</think>

To find the number of positive divisors of 60, factor it:

$$60 = 2^2 \cdot 3 \cdot 5$$

The number of divisors is $(2+1)(1+1)(1+1) = 12$.

**Final Answer**
\[
\boxed{12}
\]""", 1, None),
    ("r1_long_think_summary", r"\frac{5}{12}", r"""<think>
We roll two dice and want the probability that the sum is greater than 7. Hmm, sums of 7 or more: 6+5+4+3+2+1 = 21, so 21/36 = 7/12. Wait, no — "greater than 7" excludes 7 itself. So the sums 8 through 12: 5 + 4 + 3 + 2 + 1 = 15 outcomes. 15/36 = 5/12. Let me recount sum 8: (2,6),(3,5),(4,4),(5,3),(6,2) = 5. Yes. So 5/12.
</think>

The sums greater than 7 are 8, 9, 10, 11 and 12, which occur in $5 + 4 + 3 + 2 + 1 = 15$ of the 36 equally likely outcomes. Therefore the probability is

$$\frac{15}{36} = \boxed{\dfrac{5}{12}}.$$""", 1, None),
    ("r1_long_think_summary", "4", r"""<think>
3x - 5 = 7. Add 5: 3x = 12. Divide by 3: x = 4. Check: 3*4 - 5 = 12 - 5 = 7. Correct.
</think>

Adding 5 to both sides gives $3x = 12$, and dividing by 3 gives $x = 4$.

Check: $3(4) - 5 = 7$. ✓

The solution is $x = 4$, so the answer is $\boxed{4}$.""", 1, None),
    ("r1_long_think_summary", "1250", r"""<think>
Simple interest: I = P * r * t = 5000 * 0.05 * 5. 5000 * 0.05 = 250. 250 * 5 = 1250. So the interest is $1250.
</think>

Using the simple interest formula $I = Prt$:

- $P = \$5000$
- $r = 5\% = 0.05$
- $t = 5$ years

$$I = 5000 \times 0.05 \times 5 = 1250$$

**Final Answer**
The total interest earned is \boxed{1250} dollars.""", 1, None),
    # -- GPT-4o-style step headings
    ("stepwise_headings_long", "35", r"""To solve this problem, we need to count the number of ways to choose 3 books from 7 when the order does not matter.

### Step 1: Identify the type of counting

Since order does not matter, this is a combination problem.

### Step 2: Apply the formula

\[
\binom{7}{3} = \frac{7!}{3! \cdot 4!} = \frac{7 \times 6 \times 5}{3 \times 2 \times 1} = 35
\]

### Step 3: Final answer

The number of ways is:

\[
\boxed{35}
\]""", 1, None),
    ("stepwise_headings_long", r"15\%", r"""### Step 1: Find the increase

The price went from \$80 to \$92, an increase of \$92 - \$80 = \$12.

### Step 2: Divide by the original price

\[
\frac{12}{80} = 0.15
\]

### Conclusion

The price increased by **15%**.""", 1, None),
    ("stepwise_headings_long", r"y = 2x + 1", r"""### Step 1: Compute the slope

\[
m = \frac{5 - 3}{2 - 1} = 2
\]

### Step 2: Find the intercept

Using the point $(1, 3)$: $3 = 2(1) + b$, so $b = 1$.

### Final Answer

$$y = 2x + 1$$""", 1, None),
    ("stepwise_headings_long", "[-2, 3]", r"""### Step 1: Factor

\[
x^2 - x - 6 = (x - 3)(x + 2) \le 0
\]

### Step 2: Sign analysis

The product is non-positive between the roots $-2$ and $3$, including the roots themselves.

### Final Answer

The solution set is \( x \in [-2, 3] \).""", 1, None),
    # -- tool-integrated (Qwen-TIR style) transcripts
    ("sympy_tool_transcript", r"\frac{3}{4}", r"""Let's compute the probability with Python.

```python
from sympy import Rational
favorable = 27
total = 36
print(Rational(favorable, total))
```
```output
3/4
```
The probability is $\boxed{\frac{3}{4}}$.""", 1, None),
    ("sympy_tool_transcript", r"\frac{\sqrt{2}}{2}", r"""```python
from sympy import cos, pi, simplify
print(simplify(cos(pi/4)))
```
```output
sqrt(2)/2
```
So $\cos 45^\circ = \boxed{\frac{\sqrt{2}}{2}}$.""", 1, None),
    ("sympy_tool_transcript", "5050", r"""```python
print(sum(range(1, 101)))
```
```output
5050
```
The sum of the first 100 positive integers is $\boxed{5050}$.""", 1, None),
    # -- multiple choice with the option's content
    ("mc_option_with_value", "C", "The correct option is **(C) 12**.", 1, None),
    ("mc_option_with_value", "C", "**Answer: C) 12**", 1, None),
    ("mc_option_with_value", r"\text{(C)}", r"So the answer is $\textbf{(C)}\ 12$.", 1, None),
    ("mc_option_with_value", "B", "Only option B satisfies both conditions.\n\nAnswer: (B) $\\frac{3}{4}$", 1, None),
]

FAMILY_KIND: dict[str, str] = {
    "calendar_date_wrong": "wrong_value",
    "cents_dollars_scale": "wrong_value",
    "circle_equation_radius": "wrong_value",
    "polar_coordinate_angle": "wrong_value",
    "interval_complement": "wrong_value",
    "radical_unsimplified_wrong": "wrong_value",
    "scaled_fraction_wrong": "wrong_value",
    "unevaluated_expression_wrong": "wrong_value",
    "compound_units_wrong": "wrong_value",
    "rate_inverted": "wrong_value",
    "complex_exponential_wrong": "wrong_value",
    "inverse_function_wrong": "wrong_value",
    "double_negative_fraction": "wrong_value",
    "digits_as_power": "wrong_value",
    "json_answer_wrong": "wrong_value",
    "unicode_math_wrong": "wrong_value",
    "ascii_math_wrong": "wrong_value",
    "json_answer_cover": "cover",
    "html_comment_alternative": "cover",
    "bilingual_answers_disagree": "cover",
    "membership_set_cover": "cover",
    "linebreak_in_box_cover": "cover",
    "also_acceptable_note": "cover",
    "rounding_both_ways": "cover",
    "ordered_pair_both_orders": "cover",
    "interval_bracket_hedge": "cover",
    "separator_variants_in_box": "cover",
    "scale_hedge": "cover",
    "alt_answer_label": "cover",
    "reopened_think_second_box": "cover",
    "two_methods_disagree": "cover",
    "disowned_rejection_phrasing": "disowned",
    "calendar_date_correct": "correct",
    "cents_dollars_correct": "correct",
    "circle_equation_correct": "correct",
    "polar_coordinate_correct": "correct",
    "complex_exponential_correct": "correct",
    "inverse_function_correct": "correct",
    "double_negative_fraction_correct": "correct",
    "compound_units_correct": "correct",
    "rate_phrasing_correct": "correct",
    "json_answer_correct": "correct",
    "unicode_math_correct": "correct",
    "ascii_math_correct": "correct",
    "font_macros_in_box": "correct",
    "latex_digit_grouping": "correct",
    "expression_lhs_in_box": "correct",
    "fbox_variants": "correct",
    "blockquote_answer": "correct",
    "html_markup_answer": "correct",
    "emoji_decor_correct": "correct",
    "two_methods_agree": "correct",
    "claude_style_long": "correct",
    "r1_long_think_summary": "correct",
    "stepwise_headings_long": "correct",
    "sympy_tool_transcript": "correct",
    "mc_option_with_value": "correct",
}
