"""A third blind table for the math verifier, written from outside without reading the verifier's
source, in families the other tables do not name; the ``probe_`` families were written after
running the first part, to probe what its verdicts showed. Both sides at once: ``wrong_value`` and
``cover`` rows must earn 0, ``correct`` rows (ordinary endings of published models: Qwen2.5-Math
and Qwen3, R1 distills, Llama-3, GPT-4o style markdown, Minerva, GSM8K, tutorial tags, human MATH
solutions, units, money, percents, angles, fractions, intervals, matrices, tuples, sets, lines,
letters, text) must earn 1. Rows are (family, reference, completion, math, exact); ``exact`` is
None: the table is written for ``math``. ``tests/verifiers/test_math_blind3.py`` runs it; rows
the verifier does not yet agree with are listed there (strict xfail) with the reason.
"""

from __future__ import annotations


def T(*lines: str) -> str:
    return "\n".join(lines)


_ROWS4: list[tuple[str, str, str, int]] = []
FAMILY_KIND: dict[str, str] = {}


def fam(name: str, kind: str, rows: list[tuple[str, str]]) -> None:
    FAMILY_KIND[name] = kind
    exp = 1 if kind == "correct" else 0
    for ref, comp in rows:
        _ROWS4.append((name, ref, comp, exp))


# =====================================================================================
# (A) WRONG VALUE: one stated value that contradicts the reference
# =====================================================================================

fam("sci_exponent_off", "wrong_value", [
    (r"3.2 \times 10^{5}", r"The answer is $\boxed{3.2 \times 10^{4}}$."),
    (r"5 \times 10^{-3}", r"So the concentration is $\boxed{5 \times 10^{3}}$."),
    (r"6.02 \times 10^{23}", r"$$\boxed{6.02 \times 10^{22}}$$"),
    (r"1.5 \times 10^{8}", r"Final Answer: The final answer is $1.5 \times 10^{9}$. I hope it is correct."),
    (r"4 \times 10^{6}", r"Therefore, $\boxed{4 \cdot 10^{-6}}$."),
    (r"2.5 \times 10^{-4}", r"The answer is $\boxed{2.5\text{e-}5}$."),
])

fam("exact_ref_coarse_decimal", "wrong_value", [
    (r"\pi", r"The ratio is about $\boxed{3}$."),
    (r"\frac{1}{3}", r"So the probability is $\boxed{0.3}$."),
    (r"\sqrt{2}", r"Hence $x = \boxed{1}$ (rounding to the nearest integer)."),
    (r"\frac{2}{7}", r"The answer is $\boxed{0.2}$."),
    (r"e", r"Therefore the limit is $\boxed{2.7}$."),
    (r"\frac{22}{7}", r"The answer is $\boxed{3.14}$."),
])

fam("unit_word_wrong", "wrong_value", [
    (r"5 \text{ km}", r"The distance is $\boxed{5 \text{ metres}}$."),
    (r"5 \text{ km}", r"So the cyclist covered five metres in total, i.e. $\boxed{5\ \text{m}}$."),
    (r"12 \text{ cm}", r"The side is $\boxed{12 \text{ inches}}$."),
    (r"3 \text{ hours}", r"It takes $\boxed{3 \text{ minutes}}$."),
    (r"40 \text{ kg}", r"The mass is $\boxed{40 \text{ pounds}}$."),
    (r"2 \text{ liters}", r"The tank holds $\boxed{2 \text{ gallons}}$."),
    (r"9 \text{ square feet}", r"The area is $\boxed{9 \text{ square inches}}$."),
])

fam("interval_as_inequality_wrong_end", "wrong_value", [
    (r"[2, 5)", r"The solution set is $\boxed{2 \le x \le 5}$."),
    (r"(-\infty, 3)", r"Therefore $\boxed{x \le 3}$."),
    (r"[-1, 4]", r"So $\boxed{-1 < x \le 4}$."),
    (r"(0, \infty)", r"The domain is $\boxed{x \geq 0}$."),
    (r"(1, 7)", r"The answer is $\boxed{1 < x < 8}$."),
    (r"[3, \infty)", r"Hence $\boxed{x > 3}$."),
])

fam("choice_letter_mismatch", "wrong_value", [
    (r"\text{(B)}", r"The answer is $\boxed{\text{(C)}}$."),
    (r"\text{(B)}", r"Comparing with the options, the answer is (D) $14$."),
    (r"\text{(A)}", r"**Answer: (E)**"),
    (r"\text{(D)}", r"Therefore the correct option is $\boxed{B}$."),
    (r"\text{(C)}", r"The final answer is: $\boxed{\textbf{(A)}}$"),
])

fam("hidden_right_visible_wrong", "wrong_value", [
    (r"12", r"The answer is $\phantom{\boxed{12}}\boxed{13}$."),
    (r"12", r"The answer is ${\color{white}\boxed{12}}\boxed{13}$."),
    (r"12", T(r"% \boxed{12}", r"The answer is $\boxed{13}$.")),
    (r"\frac{1}{2}", r"$\textcolor{white}{\frac{1}{2}}$ The probability is $\boxed{\frac{1}{3}}$."),
    (r"7", r"Therefore $\boxed{8}$. $\vphantom{\boxed{7}}$"),
    (r"42", r"<!-- 42 --> The final answer is $\boxed{41}$."),
])

fam("angle_unit_switch", "wrong_value", [
    (r"30^\circ", r"The angle is $\boxed{\frac{\pi}{3}}$."),
    (r"\frac{\pi}{6}", r"So $\theta = \boxed{6^\circ}$."),
    (r"45^\circ", r"The measure is $\boxed{45 \text{ radians}}$."),
    (r"\frac{\pi}{2}", r"So the angle is $\boxed{180^\circ}$."),
    (r"120^\circ", r"$\angle ABC = \boxed{\frac{3\pi}{2}}$"),
])

fam("congruence_modulus_changed", "wrong_value", [
    (r"x \equiv 3 \pmod{7}", r"$$\boxed{x \equiv 3 \pmod{8}}$$"),
    (r"n \equiv 2 \pmod{5}", r"The answer is $\boxed{n \equiv 2 \pmod{10}}$."),
    (r"x \equiv 4 \pmod{9}", r"So $\boxed{x \equiv 5 \pmod 9}$."),
    (r"a \equiv 1 \pmod{4}", r"Therefore $\boxed{a \equiv 3 \pmod{4}}$."),
])

fam("named_variable_swapped", "wrong_value", [
    (r"x = 2", r"$\boxed{y = 2}$"),
    (r"a = 5", r"So $\boxed{b = 5}$."),
    (r"x = 3, y = 4", r"The solution is $\boxed{x = 4, y = 3}$."),
    (r"m = -2", r"The slope is $\boxed{m = 2}$."),
    (r"t = 6", r"Hence $\boxed{s = 6}$."),
])

fam("root_multiplicity_dropped", "wrong_value", [
    (r"2, 2, 3", r"The roots are $\boxed{2, 3}$."),
    (r"1, 1, 1, 4", r"So the roots are $\boxed{1, 4}$."),
    (r"-1, -1, 5", r"The zeros, listed with multiplicity, are $\boxed{-1, 5, 5}$."),
    (r"0, 0", r"$\boxed{0}$ and that's the multiset of roots."),
])

fam("ordered_pair_reversed", "wrong_value", [
    (r"(3, 1)", r"The intersection point is $\boxed{(1, 3)}$."),
    (r"(-2, 5)", r"So the vertex is $\boxed{(5, -2)}$."),
    (r"(1, 2, 3)", r"$\boxed{(3, 2, 1)}$"),
    (r"(0, 4)", r"The $y$-intercept is at $\boxed{(4, 0)}$."),
    (r"(7, -1)", r"Hence $(a, b) = \boxed{(-1, 7)}$."),
])

fam("structure_type_wrong", "wrong_value", [
    (r"[0, 1]", r"The range is $\boxed{\{0, 1\}}$."),
    (r"\{2, 5\}", r"The solutions form $\boxed{[2, 5]}$."),
    (r"(2, 5)", r"So the answer is $\boxed{[2, 5]}$."),
    (r"\begin{pmatrix} 1 & 0 \\ 0 & 1 \end{pmatrix}", r"The product is $\boxed{1}$."),
    (r"3:2", r"The ratio is $\boxed{\frac{3}{5}}$."),
    (r"2:30 \text{ PM}", r"They meet at $\boxed{2:30 \text{ AM}}$."),
])

fam("currency_symbol_swapped", "wrong_value", [
    (r"\$12", r"The total cost is $\boxed{€12}$."),
    (r"\$12", r"She pays 12 euros, so $\boxed{12 \text{ euros}}$."),
    (r"\$1,250.50", r"The balance is $\boxed{£1{,}250.50}$."),
    (r"\$45", r"Each ticket costs $\boxed{45 \text{ cents}}$."),
    (r"\$3.50", r"Hence $\boxed{\$35.0}$."),
])

fam("percent_of_percent", "wrong_value", [
    (r"25\%", r"The increase is $\boxed{0.25\%}$."),
    (r"40\%", r"So $\boxed{4\%}$ of the class."),
    (r"12.5\%", r"The rate is $\boxed{125\%}$."),
    (r"0.5\%", r"Therefore $\boxed{5\%}$."),
    (r"80\%", r"The discount is $\boxed{20\%}$."),
])

fam("working_right_final_wrong", "wrong_value", [
    (
        r"5",
        T(
            r"Solving $2x + 3 = 13$ gives $x = 5$.",
            r"Adding one for the starting day,",
            r"the final answer is $\boxed{6}$.",
        ),
    ),
    (
        r"24",
        T(
            r"Natalia sold 48/2 = <<48/2=24>>24 clips in May.",
            r"Altogether she sold 48 + 24 = <<48+24=72>>72 clips.",
            r"#### 72",
        ),
    ),
    (
        r"\frac{3}{4}",
        T(
            r"We found $P = \frac{3}{4}$ for one trial.",
            r"For the complement, $1 - \frac{3}{4} = \frac{1}{4}$.",
            r"",
            r"**Final Answer**",
            r"\[\boxed{\frac{1}{4}}\]",
        ),
    ),
    (
        r"18",
        T(
            r"The perimeter is $2(4 + 5) = 18$.",
            r"The area is $4 \cdot 5 = 20$.",
            r"So the answer is $\boxed{20}$.",
        ),
    ),
    (
        r"10",
        T(
            r"</think>",
            r"We get $n = 10$ from the first equation, but substituting gives 11 terms.",
            r"",
            r"**Final Answer**",
            r"\[",
            r"\boxed{11}",
            r"\]",
        ),
    ),
])

fam("answer_tag_then_other_value", "wrong_value", [
    (r"12", T(r"<think>12 looks right at first, but recount: 13.</think>", r"<answer>13</answer>")),
    (r"7", r"The intermediate value is 7. <answer>9</answer>"),
    (
        r"\frac{1}{2}",
        T(
            r"<reasoning>P = 1/2 for one coin, so for two heads 1/4.</reasoning>",
            r"<answer>\frac{1}{4}</answer>",
        ),
    ),
    (r"100", T(r"<answer>", r"99", r"</answer>")),
])

fam("line_equation_sign", "wrong_value", [
    (r"y = 2x + 3", r"The line is $\boxed{y = 2x - 3}$."),
    (r"y = -x + 4", r"$\boxed{y = x + 4}$"),
    (r"2x + 3y = 6", r"The equation of the line is $\boxed{3x + 2y = 6}$."),
    (r"y = \frac{1}{2}x - 1", r"So $\boxed{y = 2x - 1}$."),
    (r"x = 4", r"The vertical asymptote is $\boxed{y = 4}$."),
])

fam("matrix_one_entry", "wrong_value", [
    (r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}", r"$\boxed{\begin{pmatrix} 1 & 2 \\ 3 & 5 \end{pmatrix}}$"),
    (r"\begin{pmatrix} 2 & 0 \\ 0 & 2 \end{pmatrix}", r"$$\boxed{\begin{pmatrix} 2 & 0 \\ 0 & -2 \end{pmatrix}}$$"),
    (r"\begin{pmatrix} 3 \\ -1 \end{pmatrix}", r"The vector is $\boxed{\begin{pmatrix} 3 \\ 1 \end{pmatrix}}$."),
    (
        r"\begin{pmatrix} 0 & 1 \\ -1 & 0 \end{pmatrix}",
        r"So $\mathbf{R} = \boxed{\begin{pmatrix} 0 & -1 \\ 1 & 0 \end{pmatrix}}$.",
    ),
])

fam("set_element_missing_or_extra", "wrong_value", [
    (r"\{1, 2, 3\}", r"$\boxed{\{1, 2\}}$"),
    (r"\{-2, 2\}", r"The solution set is $\boxed{\{2\}}$."),
    (r"\{0, 3\}", r"So the answer is $\boxed{\{0, 3, 6\}}$."),
    (r"1, 4, 9", r"The values are $\boxed{1, 4, 9, 16}$."),
    (r"\{a, b\}", r"$\boxed{\{a, c\}}$"),
])

fam("mixed_number_misread", "wrong_value", [
    (r"2\frac{1}{2}", r"The answer is $\boxed{2\frac{1}{3}}$."),
    (r"\frac{5}{2}", r"So $\boxed{5\frac{1}{2}}$ cups."),
    (r"3\frac{3}{4}", r"$\boxed{\frac{9}{4}}$"),
    (r"1\frac{1}{2}", r"The recipe needs $\boxed{\frac{1}{2}}$ cup."),
    (r"4\frac{2}{3}", r"Hence $\boxed{4.23}$."),
])

fam("radical_coefficient_swap", "wrong_value", [
    (r"2\sqrt{3}", r"$\boxed{3\sqrt{2}}$"),
    (r"5\sqrt{2}", r"The diagonal is $\boxed{\sqrt{50} + 1}$."),
    (r"\frac{\sqrt{3}}{2}", r"So $\sin 60^\circ = \boxed{\frac{\sqrt{2}}{2}}$."),
    (r"4\sqrt{5}", r"Hence $\boxed{\sqrt{20}}$."),
    (r"\sqrt[3]{4}", r"The side is $\boxed{\sqrt{4}}$."),
])

fam("pi_factor_lost", "wrong_value", [
    (r"4\pi", r"The area is $\boxed{4}$."),
    (r"16\pi", r"So the volume is $\boxed{16\pi^2}$."),
    (r"\frac{9\pi}{2}", r"$\boxed{\frac{9}{2}}$"),
    (r"36\pi \text{ cm}^2", r"The surface area is $\boxed{36 \text{ cm}^2}$."),
    (r"2\pi", r"The period is $\boxed{\pi}$."),
])

fam("clock_digits_transposed", "wrong_value", [
    (r"3:45", r"They arrive at $\boxed{3:54}$."),
    (r"10:15", r"The train leaves at $\boxed{10:51}$."),
    (r"150 \text{ minutes}", r"It takes $\boxed{105 \text{ minutes}}$."),
    (r"7:05", r"The alarm rings at $\boxed{7:50}$."),
])

fam("rounding_wrong_digit", "wrong_value", [
    (r"3.14", r"$\boxed{3.15}$"),
    (r"0.27", r"The probability is approximately $\boxed{0.28}$."),
    (r"12.5", r"So $\boxed{12.6}$ meters."),
    (r"2.718", r"Therefore $\boxed{2.719}$."),
    (r"1.41", r"The answer, rounded to the nearest hundredth, is $\boxed{1.42}$."),
])

fam("large_number_magnitude", "wrong_value", [
    (r"1,000,000", r"$\boxed{100,000}$"),
    (r"2,500", r"The population is $\boxed{25,000}$."),
    (r"36000", r"So the total is $\boxed{3,600}$."),
    (r"1{,}024", r"There are $\boxed{1{,}204}$ ways."),
    (r"7,200", r"Hence $\boxed{720}$ seconds."),
])

fam("complement_probability", "wrong_value", [
    (r"\frac{1}{6}", r"$\boxed{\frac{5}{6}}$"),
    (r"\frac{3}{8}", r"The probability of at least one tail is $\boxed{\frac{5}{8}}$."),
    (r"0.2", r"So $P = \boxed{0.8}$."),
    (r"\frac{11}{36}", r"Therefore the probability is $\boxed{\frac{25}{36}}$."),
])

fam("power_notation_off", "wrong_value", [
    (r"2^{10}", r"$\boxed{2^{11}}$"),
    (r"2^{10}", r"There are $\boxed{1000}$ subsets."),
    (r"3^5", r"So $\boxed{5^3}$."),
    (r"10^{6}", r"$\boxed{10^{-6}}$"),
    (r"243", r"The answer is $\boxed{3^6}$."),
])

fam("text_answer_other_word", "wrong_value", [
    (r"\text{Alice}", r"$\boxed{\text{Bob}}$"),
    (r"\text{even}", r"Hence the function is $\boxed{\text{odd}}$."),
    (r"\text{parabola}", r"The conic is a $\boxed{\text{hyperbola}}$."),
    (r"\text{north}", r"So she is facing $\boxed{\text{south}}$."),
    (r"\text{converges}", r"Therefore the series $\boxed{\text{diverges}}$."),
    (r"\text{neither}", r"So $f$ is $\boxed{\text{even}}$."),
])

fam("sign_of_answer_lost", "wrong_value", [
    (r"-3", r"The answer is $\boxed{3}$."),
    (r"-\frac{1}{2}", r"$\boxed{\frac{1}{2}}$"),
    (r"5", r"So $k = \boxed{-5}$."),
    (r"-12", r"The final answer is: $\boxed{12}$"),
    (r"(-1, 2)", r"$\boxed{(1, 2)}$"),
])

fam("base_digits_wrong", "wrong_value", [
    (r"1011_2", r"$\boxed{1101_2}$"),
    (r"123_4", r"In base 4 the number is $\boxed{132_4}$."),
    (r"11", r"So the decimal value is $\boxed{1011}$."),
    (r"\text{FF}_{16}", r"$\boxed{\text{FE}_{16}}$"),
])

fam("fraction_off_by_one", "wrong_value", [
    (r"\frac{3}{4}", r"$\boxed{\frac{3}{5}}$"),
    (r"\frac{7}{12}", r"The answer is $\boxed{\frac{7}{13}}$."),
    (r"\frac{2}{9}", r"Therefore $\boxed{\frac{2}{8}}$."),
    (r"\frac{5}{6}", r"$\boxed{\frac{6}{6}}$"),
    (r"\frac{1}{10}", r"So $\boxed{\frac{1}{100}}$."),
])

fam("gsm8k_hash_wrong", "wrong_value", [
    (r"72", T(r"In May she sold 48/2 = <<48/2=24>>24 clips.", r"Total: 48 + 24 = <<48+24=72>>72", r"#### 24")),
    (
        r"18",
        T(
            r"She eats 3 + 4 = <<3+4=7>>7 eggs.",
            r"She sells 16 - 7 = <<16-7=9>>9 eggs.",
            r"9 * 2 = <<9*2=18>>18",
            r"#### 9",
        ),
    ),
    (r"3", T(r"2 / 2 = <<2/2=1>>1 bolt of white fiber", r"2 + 1 = <<2+1=3>>3", r"#### 2")),
    (
        r"70000",
        T(
            r"80000 + 50000 = <<80000+50000=130000>>130000",
            r"130000 * 1.5 = <<130000*1.5=195000>>195000",
            r"#### 195000",
        ),
    ),
])

fam("minerva_wrong_value", "wrong_value", [
    (r"7", r"Final Answer: The final answer is $8$. I hope it is correct."),
    (r"\frac{1}{4}", r"Final Answer: The final answer is $\frac{1}{2}$. I hope it is correct."),
    (r"(2, 3)", r"Final Answer: The final answer is $(3,2)$. I hope it is correct."),
    (r"-2", r"Final Answer: The final answer is $2$. I hope it is correct."),
])

fam("equation_rhs_wrong", "wrong_value", [
    (r"x^2 + y^2 = 25", r"The circle is $\boxed{x^2 + y^2 = 5}$."),
    (r"y = x^2 - 4", r"$\boxed{y = x^2 + 4}$"),
    (r"f(x) = 3x - 1", r"So $\boxed{f(x) = 3x + 1}$."),
    (r"z = 2", r"The plane is $\boxed{z = -2}$."),
])

fam("complex_part_wrong", "wrong_value", [
    (r"3 + 4i", r"$\boxed{3 - 4i}$"),
    (r"2i", r"So $z = \boxed{2}$."),
    (r"-1 + i", r"$\boxed{1 + i}$"),
    (r"5", r"$|z| = \boxed{5i}$"),
])

fam("expression_wrong_term", "wrong_value", [
    (r"x^2 + 2x + 1", r"$\boxed{x^2 + 2x - 1}$"),
    (r"(x - 1)(x + 3)", r"The factored form is $\boxed{(x + 1)(x - 3)}$."),
    (r"\frac{x}{x + 1}", r"So $f^{-1}(x) = \boxed{\frac{x + 1}{x}}$."),
    (r"2\ln 3", r"$\boxed{\ln 6}$"),
    (r"\log_2 5", r"$\boxed{\log_5 2}$"),
])


# =====================================================================================
# (B) COVER: one completion that could be paid for more than one reference value
# =====================================================================================

fam("same_sentence_other_value", "cover", [
    (r"12", r"The answer is $\boxed{12}$, that is, 13 apples in all."),
    (r"13", r"The answer is $\boxed{12}$, that is, 13 apples in all."),
    (r"5", r"So $x = \boxed{5}$, which means $x = 6$ after the shift."),
    (r"\frac{1}{2}", r"The probability is $\boxed{\frac{1}{2}}$, i.e. $\frac{1}{3}$ of the cases."),
    (r"8", r"There are $\boxed{8}$ ways, or in other words $9$ ways."),
    (r"9", r"There are $\boxed{8}$ ways, or in other words $9$ ways."),
])

fam("footnote_second_box", "cover", [
    (r"12", T(r"The answer is $\boxed{12}$.[^1]", r"", r"[^1]: If the endpoints are included, $\boxed{13}$.")),
    (r"13", T(r"The answer is $\boxed{12}$.[^1]", r"", r"[^1]: If the endpoints are included, $\boxed{13}$.")),
    (
        r"40",
        T(
            r"Total: $\boxed{40}$ m\textsuperscript{*}",
            r"",
            r"\textsuperscript{*} Measured along the diagonal: $\boxed{50}$ m.",
        ),
    ),
    (
        r"\frac{2}{3}",
        T(
            r"$$P = \boxed{\frac{2}{3}}^{\dagger}$$",
            r"$^{\dagger}$ Without replacement it would be $\boxed{\frac{1}{2}}$.",
        ),
    ),
])

fam("endpoint_parenthetical", "cover", [
    (r"5", r"The answer is 5 (or 6 if we count the endpoint)."),
    (r"6", r"The answer is 5 (or 6 if we count the endpoint)."),
    (r"10", r"$\boxed{10}$ (11 if you include the first post)"),
    (r"99", r"So there are $\boxed{99}$ integers — $100$ counting zero."),
    (r"24", r"The answer is $\boxed{24}$ (or $23$ if the last day is excluded)."),
])

fam("alternative_in_new_words", "cover", [
    (r"5", r"Therefore the answer is $\boxed{5}$. Some texts give 6."),
    (r"5", r"The final answer is $\boxed{5}$. Others get $6$."),
    (r"5", r"$\boxed{5}$. I'd also accept 6."),
    (r"5", r"$\boxed{5}$ — though 6 would be my second guess."),
    (r"5", r"**Final Answer:** $\boxed{5}$ (a case can be made for 6 as well)"),
    (r"6", r"$\boxed{5}$. I'd also accept 6."),
    (r"6", r"Therefore the answer is $\boxed{5}$. Some texts give 6."),
    (r"\frac{1}{4}", r"$\boxed{\frac{1}{4}}$. Another common answer is $\frac{1}{3}$, which is also defensible."),
    (r"72", T(r"#### 72", r"Though a grader might prefer 74.")),
])

fam("choice_letter_hedged", "cover", [
    (r"\text{(B)}", r"The answer is $\boxed{\text{(B)}}$, though (D) is close."),
    (r"\text{(D)}", r"The answer is $\boxed{\text{(B)}}$, though (D) is close."),
    (r"\text{(A)}", r"**Answer:** (A) — or possibly (C)."),
    (r"\text{(C)}", r"I would pick (C), with (E) as a fallback."),
    (r"\text{(E)}", r"Final answer: $\boxed{E}$ (B if the figure is not to scale)"),
])

fam("box_then_alternatives_table", "cover", [
    (
        r"12",
        T(
            r"The answer is $\boxed{12}$.",
            r"",
            r"| Case | Possible answer |",
            r"|---|---|",
            r"| distinct | 12 |",
            r"| repeats allowed | 15 |",
        ),
    ),
    (
        r"15",
        T(
            r"The answer is $\boxed{12}$.",
            r"",
            r"| Case | Possible answer |",
            r"|---|---|",
            r"| distinct | 12 |",
            r"| repeats allowed | 15 |",
        ),
    ),
    (r"3", T(r"$\boxed{3}$", r"", r"| Interpretation | Answer |", r"|---|---|", r"| strict | 3 |", r"| loose | 4 |")),
    (
        r"\frac{1}{2}",
        T(
            r"**Final answer: $\frac{1}{2}$**",
            r"",
            r"| Reading | Value |",
            r"| --- | --- |",
            r"| with replacement | $\frac{1}{2}$ |",
            r"| without | $\frac{2}{5}$ |",
        ),
    ),
])

fam("plus_minus_in_words", "cover", [
    (r"3", r"The answer is 3 plus or minus 1."),
    (r"12", r"$\boxed{12}$, give or take 2."),
    (r"100", r"About $\boxed{100}$, give or take one."),
    (r"4", r"So $x = 4$ or its negative, $\boxed{\pm 4}$."),
    (r"-4", r"So $x = 4$ or its negative, $\boxed{\pm 4}$."),
    (r"7", r"The answer is $\boxed{7 \mathbin{\pm} 1}$."),
])

fam("error_bar_box", "cover", [
    (r"12", r"$\boxed{12.0 \pm 0.5}$"),
    (r"9.8", r"The measured acceleration is $\boxed{9.8 \pm 0.3 \text{ m/s}^2}$."),
    (r"50", r"$\boxed{50 \pm 5\%}$"),
    (r"2", r"The answer is $\boxed{2}$ (uncertainty $\pm 1$)."),
])

fam("two_final_answer_labels", "cover", [
    (
        r"12",
        T(
            r"**Final Answer:** 12",
            r"",
            r"Actually, re-reading the problem statement, both interpretations are plausible.",
            r"",
            r"**Final Answer:** 13",
        ),
    ),
    (
        r"13",
        T(
            r"**Final Answer:** 12",
            r"",
            r"Re-reading the problem, both interpretations are plausible.",
            r"",
            r"**Final Answer:** 13",
        ),
    ),
    (
        r"7",
        T(
            r"Final Answer: The final answer is $7$. I hope it is correct.",
            r"Final Answer: The final answer is $8$. I hope it is correct.",
        ),
    ),
    (
        r"8",
        T(
            r"Final Answer: The final answer is $7$. I hope it is correct.",
            r"Final Answer: The final answer is $8$. I hope it is correct.",
        ),
    ),
    (r"\frac{1}{2}", T(r"The final answer is: $\boxed{\frac{1}{2}}$", r"The final answer is: $\boxed{\frac{1}{3}}$")),
])

fam("conditional_two_values", "cover", [
    (r"4", r"If $n$ is even the answer is $\boxed{4}$; if $n$ is odd it is $\boxed{5}$."),
    (r"5", r"If $n$ is even the answer is $\boxed{4}$; if $n$ is odd it is $\boxed{5}$."),
    (r"2", r"The answer is $2$ if the dice are distinguishable and $3$ otherwise."),
    (r"3", r"The answer is $2$ if the dice are distinguishable and $3$ otherwise."),
    (r"60", r"Assuming the speed is constant, $\boxed{60}$; with the stop included, $\boxed{50}$."),
    (r"\frac{1}{6}", r"With replacement: $\frac{1}{6}$. Without replacement: $\frac{1}{5}$."),
])

fam("tiny_second_box", "cover", [
    (r"12", r"The answer is $\boxed{13}$ {\tiny $\boxed{12}$}."),
    (r"13", r"The answer is $\boxed{13}$ {\tiny $\boxed{12}$}."),
    (r"7", r"$\boxed{7}\,{\scriptstyle\boxed{8}}$"),
    (r"8", r"$\boxed{7}\,{\scriptstyle\boxed{8}}$"),
    (r"3", r"$\boxed{3}$ $\footnotesize{\text{(or }\boxed{4}\text{)}}$"),
])

fam("at_least_box", "cover", [
    (r"12", r"The answer is $\boxed{\ge 12}$."),
    (r"12", r"The answer is at least 12, so $\boxed{12+}$."),
    (r"5", r"We need $\boxed{n \geq 5}$."),
    (r"100", r"The answer is $\boxed{\le 100}$."),
    (r"0", r"$\boxed{\text{any } k \ge 0}$"),
])

fam("braced_set_for_single", "cover", [
    (r"12", r"$\boxed{\{12, 13\}}$"),
    (r"13", r"The answer lies in $\boxed{\{12, 13\}}$."),
    (r"\frac{1}{2}", r"$\boxed{\left\{\frac{1}{2}, \frac{1}{3}\right\}}$"),
    (r"4", r"$x \in \boxed{\{3, 4, 5\}}$"),
])

fam("and_or_slash_words", "cover", [
    (r"12", r"The answer is 12 and/or 13."),
    (r"13", r"The answer is 12 and/or 13."),
    (r"6", r"$\boxed{6}$ and/or $\boxed{8}$"),
    (r"3", r"Final answer: 3 (alt. 4)"),
    (r"4", r"Final answer: 3 (alt. 4)"),
])

fam("unit_alternative_paren", "cover", [
    (r"5 \text{ km}", r"The distance is $\boxed{5 \text{ km}}$ (or 5 m, depending on the scale)."),
    (r"5 \text{ m}", r"The distance is $\boxed{5 \text{ km}}$ (or 5 m, depending on the scale)."),
    (r"30^\circ", r"$\boxed{30^\circ}$ or $30$ radians if the calculator was in radian mode."),
    (r"\$20", r"She pays $\boxed{\$20}$ (or €20 in the European edition)."),
])

fam("answer_tag_then_alternative", "cover", [
    (r"12", T(r"<answer>12</answer>", r"", r"Alternatively 13.")),
    (r"13", T(r"<answer>12</answer>", r"", r"Alternatively 13.")),
    (r"7", r"<answer>7</answer> <answer>9</answer>"),
    (r"9", r"<answer>7</answer> <answer>9</answer>"),
    (r"\frac{1}{2}", T(r"<answer>\frac{1}{2}</answer>", r"(another valid answer: \frac{1}{4})")),
])

fam("restated_count_differs", "cover", [
    (r"12", r"So the answer is $\boxed{12}$. In other words, there are 13 of them."),
    (r"13", r"So the answer is $\boxed{12}$. In other words, there are 13 of them."),
    (r"20", r"$\boxed{20}$, i.e. twenty-one students."),
    (r"100", r"**Final answer: 100**, meaning one hundred and one tiles."),
])

fam("question_mark_alternative", "cover", [
    (r"12", r"$\boxed{12}$ (13?)"),
    (r"13", r"$\boxed{12}$ (13?)"),
    (r"5", r"The answer is $5$... or is it $6$?"),
    (r"6", r"The answer is $5$... or is it $6$?"),
])

fam("weighted_guesses", "cover", [
    (r"12", r"$\boxed{12}$ (70% confident) or $\boxed{13}$ (30%)."),
    (r"13", r"$\boxed{12}$ (70% confident) or $\boxed{13}$ (30%)."),
    (r"4", r"Most likely 4; otherwise 5."),
    (r"5", r"Most likely 4; otherwise 5."),
    (r"2", r"The answer is 2 with probability 0.6 and 3 with probability 0.4."),
])

fam("boxes_in_two_environments", "cover", [
    (
        r"12",
        T(
            r"\begin{align*}",
            r"n &= \boxed{12}",
            r"\end{align*}",
            r"Final answer: $\boxed{13}$, depending on convention.",
        ),
    ),
    (
        r"13",
        T(
            r"\begin{align*}",
            r"n &= \boxed{12}",
            r"\end{align*}",
            r"Final answer: $\boxed{13}$, depending on convention.",
        ),
    ),
    (r"\frac{3}{5}", T(r"\[", r"\boxed{\tfrac{3}{5}} \quad \text{or} \quad \boxed{\tfrac{2}{5}}", r"\]")),
])

fam("sign_alternative_words", "cover", [
    (r"3", r"$x = \boxed{3}$ (or its negative)"),
    (r"-3", r"$x = \boxed{3}$ (or its negative)"),
    (r"2", r"The answer is $\boxed{2}$, up to sign."),
    (r"-2", r"The answer is $\boxed{2}$, up to sign."),
    (r"5", r"$|x| = 5$, so $x = \boxed{5}$ or $x = -5$."),
])

fam("latex_or_operator", "cover", [
    (r"12", r"$\boxed{12 \lor 13}$"),
    (r"13", r"$\boxed{12 \vee 13}$"),
    (r"1", r"$\boxed{x = 1 \;\text{or}\; x = 2}$"),
    (r"2", r"$\boxed{x = 1 \;\text{or}\; x = 2}$"),
])

fam("range_around", "cover", [
    (r"12", r"Roughly 12–13."),
    (r"12", r"The answer is somewhere around $\boxed{12}$ to $\boxed{14}$."),
    (r"50", r"It should be in the high 40s to low 50s, say $\boxed{50}$ give or take."),
    (r"8", r"$\boxed{8\text{--}9}$"),
    (r"9", r"$\boxed{8\text{--}9}$"),
])

fam("after_box_retraction_list", "cover", [
    (r"12", r"$\boxed{12}$. Possible answers: 12, 13, 14."),
    (r"14", r"$\boxed{12}$. Possible answers: 12, 13, 14."),
    (r"\text{(B)}", r"$\boxed{B}$. Candidates: B, C."),
    (r"\text{(C)}", r"$\boxed{B}$. Candidates: B, C."),
])

fam("tolerance_over_neighbours", "cover", [
    (r"12", r"$\boxed{12}$ (accurate to within $\pm 2$)"),
    (r"12", r"The answer is $\boxed{12}$ up to an error of 1."),
    (r"0.5", r"$\boxed{0.5}$, within $0.1$."),
    (r"100", r"$\boxed{100}$, correct to within 10%."),
])

fam("undecided_pair", "cover", [
    (r"12", r"Answer: 12 or 13 (I could not decide)."),
    (r"13", r"Answer: 12 or 13 (I could not decide)."),
    (r"3", r"Answer: one of 3, 4."),
    (r"4", r"Answer: one of 3, 4."),
])


# =====================================================================================
# (C) CORRECT: ordinary endings of correct answers
# =====================================================================================

fam("qwen_display_box", "correct", [
    (
        r"72",
        T(
            r"Natalia sold 48 clips in April and half as many, 24, in May.",
            r"Adding them: $48 + 24 = 72$.",
            r"",
            r"Therefore, the total number of clips is:",
            r"$$",
            r"\boxed{72}",
            r"$$",
        ),
    ),
    (
        r"\frac{3}{4}",
        T(
            r"The favorable outcomes are 3 out of 4 equally likely cases.",
            r"Thus the probability is",
            r"\[",
            r"\boxed{\frac{3}{4}}",
            r"\]",
        ),
    ),
    (
        r"-2",
        T(
            r"Substituting $x = -2$ into the equation: $(-2)^2 + 4(-2) + 4 = 0$. ✓",
            r"",
            r"So the double root is $\boxed{-2}$.",
        ),
    ),
    (
        r"2\sqrt{5}",
        T(
            r"Using the distance formula,",
            r"\[",
            r"d = \sqrt{(4-0)^2 + (2-0)^2} = \sqrt{20} = 2\sqrt{5}.",
            r"\]",
            r"The distance is $\boxed{2\sqrt{5}}$.",
        ),
    ),
    (r"(1, -3)", T(r"Completing the square, $y = (x - 1)^2 - 3$, so the vertex is at", r"$$\boxed{(1, -3)}$$")),
    (
        r"15",
        T(
            r"The number of ways to choose 2 of 6 people is $\binom{6}{2} = \frac{6 \cdot 5}{2} = 15$.",
            r"",
            r"The final answer is $\boxed{15}$.",
        ),
    ),
    (
        r"y = 3x - 2",
        T(
            r"The slope is $m = \frac{7 - 1}{3 - 1} = 3$, and $1 = 3(1) + b$ gives $b = -2$.",
            r"",
            r"Hence the equation of the line is",
            r"\[\boxed{y = 3x - 2}\]",
        ),
    ),
    (r"0", T(r"Since $f$ is odd, $\int_{-a}^{a} f(x)\,dx = 0$.", r"", r"\[", r"\boxed{0}", r"\]")),
])

fam("qwen3_think_then_answer", "correct", [
    (
        r"36",
        T(
            r"<think>",
            r"The rectangle has length 9 and width 4, so area 9*4 = 36. Let me double-check: 9*4 = 36. Yes.",
            r"</think>",
            r"",
            r"The area of the rectangle is length × width:",
            r"",
            r"$$9 \times 4 = 36$$",
            r"",
            r"**Answer:** $\boxed{36}$",
        ),
    ),
    (
        r"\frac{5}{12}",
        T(
            r"<think>",
            r"Count pairs summing to 6, 7, 8 ... wait, sum greater than 7: 15 pairs out of 36, 15/36 = 5/12.",
            r"</think>",
            r"",
            r"There are 15 outcomes with sum greater than 7 among 36 equally likely outcomes, so",
            r"",
            r"$$P = \frac{15}{36} = \boxed{\frac{5}{12}}$$",
        ),
    ),
    (
        r"8",
        T(
            r"<think>",
            r"2^3 = 8, so log_2 8 = 3... no, the question asks for x with log_2 x = 3, so x = 8.",
            r"</think>",
            r"",
            r"Rewriting $\log_2 x = 3$ in exponential form gives $x = 2^3$.",
            r"",
            r"\[",
            r"\boxed{8}",
            r"\]",
        ),
    ),
    (
        r"[-2, 3]",
        T(
            r"<think>",
            r"x^2 - x - 6 <= 0 factors as (x-3)(x+2) <= 0, so -2 <= x <= 3.",
            r"</think>",
            r"",
            r"Factor: $(x - 3)(x + 2) \le 0$. The product is non-positive between the roots, inclusive.",
            r"",
            r"$$\boxed{[-2, 3]}$$",
        ),
    ),
    (
        r"\text{(C)}",
        T(
            r"<think>",
            r"Option A is 10, B is 12, C is 14. We computed 14, so C.",
            r"</think>",
            r"",
            r"We computed the perimeter to be 14, which matches option (C).",
            r"",
            r"$$\boxed{\text{(C)}}$$",
        ),
    ),
    (
        r"120",
        T(
            r"<think>",
            r"5! = 120.",
            r"</think>",
            r"",
            r"The number of arrangements of 5 distinct books is $5! = 120$.",
            r"",
            r"\[\boxed{120}\]",
        ),
    ),
])

fam("r1_final_answer_display", "correct", [
    (
        r"17",
        T(
            (
                r"Okay, so the question wants the smallest prime greater than 13... 14 is even, 15 = 3*5, 16 even, 17"
                r" is prime."
            ),
            r"</think>",
            r"",
            r"The integers after 13 are 14, 15, 16, 17; the first that is prime is 17.",
            r"",
            r"**Final Answer**",
            r"\[",
            r"\boxed{17}",
            r"\]",
        ),
    ),
    (
        r"\frac{\sqrt{3}}{4}",
        T(
            r"Hmm, the area of an equilateral triangle of side s is (sqrt3/4) s^2. With s = 1 that is sqrt3/4.",
            r"</think>",
            r"",
            r"For an equilateral triangle with side length $1$, the area is $\frac{\sqrt{3}}{4} \cdot 1^2$.",
            r"",
            r"**Final Answer**",
            r"The area is \boxed{\dfrac{\sqrt{3}}{4}}.",
        ),
    ),
    (
        r"4",
        T(
            r"Wait, let me recheck. If x = 3 then 2x+1 = 7, not 9. If x = 4 then 2x+1 = 9. So x = 4.",
            r"</think>",
            r"",
            r"Solving $2x + 1 = 9$:",
            r"",
            r"1. Subtract 1: $2x = 8$",
            r"2. Divide by 2: $x = 4$",
            r"",
            r"**Final Answer**",
            r"\[",
            r"\boxed{4}",
            r"\]",
        ),
    ),
    (
        r"(2, 3)",
        T(
            r"So x = 2 and y = 3. Check: 2 + 3 = 5, 2*2 - 3 = 1. Correct.",
            r"</think>",
            r"",
            r"Adding the equations eliminates $y$: $3x = 6$, so $x = 2$, and then $y = 3$.",
            r"",
            r"**Final Answer**",
            r"\[",
            r"\boxed{(2, 3)}",
            r"\]",
        ),
    ),
    (
        r"90",
        T(
            r"</think>",
            r"",
            (
                r"The three angles of the triangle are in ratio $1:2:3$, so they are $30^\circ$, $60^\circ$,"
                r" $90^\circ$. The largest is $90^\circ$."
            ),
            r"",
            r"**Final Answer**",
            r"\[",
            r"\boxed{90}",
            r"\]",
        ),
    ),
    (
        r"\frac{1}{8}",
        T(
            r"Each flip has probability 1/2, three flips all heads: 1/8.",
            r"</think>",
            r"",
            r"The flips are independent, so",
            r"\[",
            r"P(\text{HHH}) = \left(\tfrac{1}{2}\right)^3 = \tfrac{1}{8}.",
            r"\]",
            r"",
            r"**Final Answer**",
            r"\[",
            r"\boxed{\dfrac{1}{8}}",
            r"\]",
        ),
    ),
])

fam("llama3_final_is", "correct", [
    (
        r"42",
        T(
            r"## Step 1: Find the number of apples",
            r"There are 6 bags with 7 apples each.",
            r"",
            r"## Step 2: Multiply",
            r"6 × 7 = 42.",
            r"",
            r"The final answer is: $\boxed{42}$",
        ),
    ),
    (
        r"\frac{2}{5}",
        T(
            r"## Step 1: Count red marbles",
            r"There are 4 red marbles out of 10.",
            r"",
            r"## Step 2: Simplify",
            r"4/10 = 2/5.",
            r"",
            r"The final answer is: $\boxed{\frac{2}{5}}$",
        ),
    ),
    (
        r"12 \text{ cm}",
        T(
            r"## Step 1: Use the Pythagorean theorem",
            r"The hypotenuse is 13 cm and one leg is 5 cm, so the other leg is $\sqrt{169 - 25} = \sqrt{144} = 12$ cm.",
            r"",
            r"The final answer is: $\boxed{12 \text{ cm}}$",
        ),
    ),
    (r"-7", T(r"## Step 1: Isolate x", r"$3x + 21 = 0 \implies x = -7$.", r"", r"The final answer is: $\boxed{-7}$")),
    (
        r"\$48",
        T(
            r"## Step 1: Price after discount",
            r"The discount is 20% of \$60, which is \$12.",
            r"",
            r"## Step 2: Subtract",
            r"\$60 - \$12 = \$48.",
            r"",
            r"The final answer is: $\boxed{48}$",
        ),
    ),
    (
        r"5",
        T(
            r"## Step 1: Let the number be n",
            r"$n^2 = 25$ and n is positive.",
            r"",
            r"## Step 2: Take the square root",
            r"$n = 5$",
            r"",
            r"The final answer is: $\boxed{5}$",
        ),
    ),
])

fam("gpt4o_markdown_headed", "correct", [
    (
        r"250",
        T(
            r"### Step-by-step solution",
            r"",
            r"- **Speed:** 50 km/h",
            r"- **Time:** 5 h",
            r"",
            r"Distance = speed × time = 50 × 5 = 250.",
            r"",
            r"### Final Answer",
            r"",
            r"The train travels **250 km**, so the answer is $\boxed{250}$.",
        ),
    ),
    (
        r"\frac{7}{20}",
        T(
            r"## Solution",
            r"",
            r"| Color | Count |",
            r"|---|---|",
            r"| Red | 7 |",
            r"| Blue | 8 |",
            r"| Green | 5 |",
            r"| **Total** | **20** |",
            r"",
            r"The probability of drawing red is $\frac{7}{20}$.",
            r"",
            r"**Answer:** $\boxed{\frac{7}{20}}$",
        ),
    ),
    (
        r"x = 3",
        T(
            r"### Solving the equation",
            r"",
            r"1. Start with $5x - 4 = 11$.",
            r"2. Add 4 to both sides: $5x = 15$.",
            r"3. Divide by 5: $x = 3$.",
            r"",
            r"---",
            r"",
            r"**Final answer:** $\boxed{x = 3}$",
        ),
    ),
    (
        r"64",
        T(
            r"## Approach",
            r"We need $4^3$.",
            r"",
            r"## Computation",
            r"$$4^3 = 4 \times 4 \times 4 = 64$$",
            r"",
            r"## Answer",
            r"$$\boxed{64}$$",
            r"",
            r"> **Check:** $64 = 2^6$, consistent with $(2^2)^3$.",
        ),
    ),
    (
        r"\text{(B)}",
        T(
            r"**Analysis of each option:**",
            r"",
            r"- (A) 10 — too small",
            r"- (B) 12 — matches our computation ✅",
            r"- (C) 14 — too large",
            r"",
            r"**Answer: (B)**",
        ),
    ),
    (
        r"1.5 \text{ hours}",
        T(
            r"### Time taken",
            r"",
            r"$$t = \frac{d}{v} = \frac{90 \text{ km}}{60 \text{ km/h}} = 1.5 \text{ hours}$$",
            r"",
            r"**Final Answer:** $\boxed{1.5 \text{ hours}}$ (that is, 1 hour 30 minutes).",
        ),
    ),
])

fam("minerva_hope_correct", "correct", [
    (
        r"6",
        T(
            r"Solution:",
            r"Since $2^x = 64 = 2^6$, $x = 6$.",
            r"Final Answer: The final answer is $6$. I hope it is correct.",
        ),
    ),
    (
        r"\frac{1}{2}",
        T(
            r"The sine of $30^\circ$ is $\frac{1}{2}$.",
            r"Final Answer: The final answer is $\frac{1}{2}$. I hope it is correct.",
        ),
    ),
    (
        r"(-\infty, 2)",
        T(
            r"We need $4 - 2x > 0$, that is $x < 2$.",
            r"Final Answer: The final answer is $(-\infty,2)$. I hope it is correct.",
        ),
    ),
    (
        r"\begin{pmatrix} 2 \\ -1 \end{pmatrix}",
        T(
            r"Subtracting componentwise,",
            r"Final Answer: The final answer is $\begin{pmatrix}2\\-1\end{pmatrix}$. I hope it is correct.",
        ),
    ),
    (
        r"3\sqrt{2}",
        T(
            r"The diagonal of a square with side 3 is $3\sqrt{2}$.",
            r"Final Answer: The final answer is $3\sqrt{2}$. I hope it is correct.",
        ),
    ),
    (r"210", T(r"$\binom{10}{4} = 210$.", r"Final Answer: The final answer is $210$. I hope it is correct.")),
])

fam("gsm8k_calculator_trail", "correct", [
    (
        r"72",
        T(
            r"Natalia sold 48/2 = <<48/2=24>>24 clips in May.",
            r"Natalia sold 48+24 = <<48+24=72>>72 clips altogether in April and May.",
            r"#### 72",
        ),
    ),
    (
        r"10",
        T(
            r"Weng earns 12/60 = $<<12/60=0.2>>0.2 per minute.",
            r"Working 50 minutes, she earned 0.2 x 50 = $<<0.2*50=10>>10.",
            r"#### 10",
        ),
    ),
    (
        r"5",
        T(
            r"In the beginning, Betty has only 100 / 2 = $<<100/2=50>>50.",
            r"Betty's grandparents gave her 15 * 2 = $<<15*2=30>>30.",
            r"This means, Betty needs 100 - 50 - 30 - 15 = $<<100-50-30-15=5>>5 more.",
            r"#### 5",
        ),
    ),
    (
        r"42",
        T(
            r"Maila read 12 x 2 = <<12*2=24>>24 pages today.",
            r"So she was able to read a total of 12 + 24 = <<12+24=36>>36 pages since yesterday.",
            r"There are 120 - 36 = <<120-36=84>>84 pages left to be read.",
            (
                r"Since she wants to read half of the remaining pages tomorrow, then she should read 84/2 ="
                r" <<84/2=42>>42 pages."
            ),
            r"#### 42",
        ),
    ),
    (
        r"624",
        T(
            r"He writes each friend 3*2=<<3*2=6>>6 pages a week",
            r"So he writes 6*2=<<6*2=12>>12 pages every week",
            r"That means he writes 12*52=<<12*52=624>>624 pages a year",
            r"#### 624",
        ),
    ),
    (r"1,250", T(r"The monthly payment is 15000/12 = <<15000/12=1250>>1250 dollars.", r"#### 1,250")),
])

fam("answer_tag_tutorial", "correct", [
    (r"9", T(r"<think>", r"3 squared is 9.", r"</think>", r"<answer>9</answer>")),
    (
        r"\frac{1}{3}",
        T(
            r"<reasoning>",
            r"Two of six faces are multiples of 3 (3 and 6), so 2/6 = 1/3.",
            r"</reasoning>",
            r"<answer>",
            r"\frac{1}{3}",
            r"</answer>",
        ),
    ),
    (r"x = 4", T(r"<think>2x = 8 so x = 4</think>", r"<answer>x = 4</answer>")),
    (
        r"(3, 4)",
        T(
            r"<think>",
            r"Midpoint of (2,1) and (4,7) is ((2+4)/2, (1+7)/2) = (3, 4).",
            r"</think>",
            r"<answer>(3, 4)</answer>",
        ),
    ),
    (r"\$15", T(r"<think>3 notebooks at $5 each: 15 dollars.</think>", r"<answer>$15</answer>")),
    (
        r"25\%",
        T(
            r"<think>",
            r"Sale price 75 from 100: reduction 25, which is 25% of 100.",
            r"</think>",
            r"<answer>25\%</answer>",
        ),
    ),
])

fam("human_math_align_derivation", "correct", [
    (
        r"-\frac{1}{2}",
        T(
            r"We have",
            r"\begin{align*}",
            r"\cos 120^\circ &= \cos(180^\circ - 60^\circ) \\",
            r"&= -\cos 60^\circ \\",
            r"&= \boxed{-\frac{1}{2}}.",
            r"\end{align*}",
        ),
    ),
    (
        r"11",
        T(
            r"Let the two numbers be $a$ and $b$. Then",
            r"\begin{align*}",
            r"a + b &= 20, \\",
            r"a - b &= 2.",
            r"\end{align*}",
            r"Adding, $2a = 22$, so $a = \boxed{11}$.",
        ),
    ),
    (
        r"\frac{9}{4}",
        T(
            r"\begin{align*}",
            r"x^2 - 3x + c &= \left(x - \tfrac{3}{2}\right)^2 - \tfrac{9}{4} + c,",
            r"\end{align*}",
            r"which is a perfect square exactly when $c = \boxed{\frac{9}{4}}$.",
        ),
    ),
    (
        r"2",
        T(
            r"Taking logarithms,",
            r"\begin{align*}",
            r"3^{x+1} &= 27 \\",
            r"x + 1 &= 3 \\",
            r"x &= 2.",
            r"\end{align*}",
            r"Thus $x = \boxed{2}$.",
        ),
    ),
    (
        r"16",
        T(
            r"By AM-GM,",
            r"\begin{align*}",
            r"\frac{a + b}{2} &\ge \sqrt{ab} = \sqrt{64} = 8,",
            r"\end{align*}",
            r"so $a + b \ge 16$, with equality when $a = b = 8$. The minimum is $\boxed{16}$.",
        ),
    ),
    (
        r"\sqrt{13}",
        T(
            r"\begin{align*}",
            r"|z| &= \sqrt{2^2 + 3^2} \\",
            r"&= \sqrt{4 + 9} \\",
            r"&= \boxed{\sqrt{13}}.",
            r"\end{align*}",
        ),
    ),
])

fam("human_math_asy_figure", "correct", [
    (
        r"25",
        T(
            r"[asy]",
            r"draw((0,0)--(5,0)--(5,5)--(0,5)--cycle);",
            r'label("$5$",(2.5,0),S);',
            r"[/asy]",
            r"",
            r"The square has side length 5, so its area is $5^2 = \boxed{25}$.",
        ),
    ),
    (
        r"6",
        T(
            r"[asy]",
            r"pair A=(0,0), B=(4,0), C=(0,3);",
            r"draw(A--B--C--cycle);",
            r'label("$A$",A,SW); label("$B$",B,SE); label("$C$",C,N);',
            r"[/asy]",
            r"",
            r"The legs are 3 and 4, so the area of $\triangle ABC$ is $\frac{1}{2} \cdot 3 \cdot 4 = \boxed{6}$.",
        ),
    ),
    (
        r"60^\circ",
        T(
            r"[asy]",
            r"draw(unitcircle); draw((0,0)--dir(60)); draw((0,0)--(1,0));",
            r'label("$O$",(0,0),SW);',
            r"[/asy]",
            r"",
            r"The triangle formed is equilateral, so the central angle is $\boxed{60^\circ}$.",
        ),
    ),
    (
        r"\frac{\pi}{4}",
        T(
            r"[asy]",
            r"size(100); draw(unitsquare); draw(arc((0,0),1,0,90));",
            r"[/asy]",
            (
                r"The quarter disk has area $\frac{\pi}{4}$ and the square has area 1, so the probability is"
                r" $\boxed{\frac{\pi}{4}}$."
            ),
        ),
    ),
    (
        r"10",
        T(
            r"[asy]",
            r'draw((0,0)--(6,0)--(6,8)--cycle); label("6",(3,0),S); label("8",(6,4),E);',
            r"[/asy]",
            r"By the Pythagorean Theorem the hypotenuse is $\sqrt{6^2 + 8^2} = \sqrt{100} = \boxed{10}$.",
        ),
    ),
])

fam("check_after_box_remark", "correct", [
    (r"7", T(r"Solving, $x = \boxed{7}$.", r"", r"We check that this works: $3(7) - 5 = 16$, as required.")),
    (r"49", r"The answer is $\boxed{49}$, since $49 = 7^2$ is the only number less than 75 that works."),
    (
        r"4",
        T(
            r"Hence $n = \boxed{4}$.",
            r"",
            r"Remark: for $n = 3$ the sum is $6 < 10$ and for $n = 5$ it is $15 > 10$, so $n = 4$ is the unique value.",
        ),
    ),
    (
        r"\frac{1}{2}",
        T(
            r"Therefore $p = \boxed{\frac{1}{2}}$.",
            r"",
            r"Check: with $p = \frac{1}{2}$ the expected value is $2 \cdot \frac{1}{2} = 1$, matching the condition.",
        ),
    ),
    (
        r"12",
        T(
            r"So the answer is $\boxed{12}$.",
            r"",
            (
                r"Note that we used the fact that there are 3 choices for the first digit and 4 for the second,"
                r" giving $3 \cdot 4 = 12$."
            ),
        ),
    ),
    (
        r"81",
        T(
            r"The largest such number is $\boxed{81}$.",
            r"We can verify: $8 + 1 = 9$ divides $81$, and no number between 82 and 99 has this property.",
        ),
    ),
    (r"2", T(r"Thus the answer is $\boxed{2}$.", r"", r"(Indeed, plugging $x = 2$ back in, $2^2 - 4 = 0$.)")),
])

fam("money_answers_correct", "correct", [
    (r"\$1,250.50", r"After the deposit the balance is $\boxed{\$1,250.50}$."),
    (r"\$1,250.50", r"The account holds **\$1,250.50** at the end of the year."),
    (r"\$12", r"So each share is $\boxed{\$12}$."),
    (r"12.75", r"The total cost is $\boxed{\$12.75}$."),
    (r"\$0.45", r"Each pencil costs $\boxed{\$0.45}$, i.e. 45 cents."),
    (r"\$3,000", r"She saves $\$250$ per month for 12 months, so $\boxed{\$3{,}000}$."),
    (r"18.50", T(r"The bill is \$37.00 split two ways.", r"", r"The final answer is: $\boxed{18.50}$")),
])

fam("percent_answers_correct", "correct", [
    (r"25\%", r"The price dropped by $\boxed{25\%}$."),
    (r"25\%", r"So the percent decrease is $\boxed{25}$%."),
    (r"12.5\%", r"The interest rate is $\boxed{12.5\%}$."),
    (r"40", r"What percent of 50 is 20? $\frac{20}{50} = 0.4$, so $\boxed{40\%}$."),
    (r"150\%", r"The population grew to $\boxed{150\%}$ of its original size."),
    (r"8\%", r"The annual rate is $\boxed{8\%}$, so after one year the \$100 becomes \$108."),
])

fam("angle_answers_correct", "correct", [
    (r"30^\circ", r"Therefore $\angle BAC = \boxed{30^\circ}$."),
    (r"30^\circ", r"The angle measures $\boxed{30}$ degrees."),
    (r"135", r"Each interior angle of a regular octagon is $\frac{6 \cdot 180^\circ}{8} = \boxed{135^\circ}$."),
    (r"\frac{\pi}{3}", r"So $\theta = \boxed{\frac{\pi}{3}}$."),
    (r"\frac{2\pi}{3}", r"$$\boxed{\dfrac{2\pi}{3}}$$"),
    (r"72^\circ", r"The central angle of a regular pentagon is $360^\circ / 5 = \boxed{72^\circ}$."),
])

fam("fraction_two_ways", "correct", [
    (r"\frac{1}{4}", r"The probability is $\boxed{\frac{1}{4}}$, or 0.25."),
    (r"\frac{1}{4}", r"So the answer is $1/4$, or $0.25$."),
    (r"0.75", r"The answer is $\boxed{\frac{3}{4}} = 0.75$."),
    (r"\frac{2}{3}", r"Hence $P = \boxed{\frac{2}{3}} \approx 0.667$."),
    (r"\frac{5}{2}", r"$\boxed{\frac{5}{2}}$ (that is, $2\frac{1}{2}$ or 2.5)"),
    (r"\frac{1}{8}", r"The answer is $\boxed{\frac{1}{8}}$, which is $12.5\%$."),
    (r"\frac{\sqrt{2}}{2}", r"$\cos 45^\circ = \boxed{\frac{\sqrt{2}}{2}} \approx 0.7071$"),
])

fam("mixed_number_correct", "correct", [
    (r"2\frac{1}{2}", r"She needs $\boxed{2\frac{1}{2}}$ cups of flour."),
    (r"2\frac{1}{2}", r"The answer is $\boxed{\frac{5}{2}}$."),
    (r"\frac{7}{4}", r"So the rope is $\boxed{1\frac{3}{4}}$ meters long."),
    (r"3\frac{1}{3}", r"$\boxed{3 \tfrac{1}{3}}$"),
    (r"1\frac{1}{2}", r"Each person gets $\boxed{1\,\frac{1}{2}}$ pizzas."),
])

fam("interval_answers_correct", "correct", [
    (r"[0, 1)", r"The range of $f$ is $\boxed{[0, 1)}$."),
    (r"(-\infty, -1) \cup (1, \infty)", r"$$\boxed{(-\infty, -1) \cup (1, \infty)}$$"),
    (r"(2, 5]", r"So the solution set is $x \in \boxed{(2, 5]}$."),
    (r"[-3, 3]", T(r"Since $|x| \le 3$,", r"\[", r"\boxed{[-3, 3]}", r"\]")),
    (r"(0, \infty)", r"The domain of $\ln x$ is $\boxed{(0,\infty)}$."),
    (r"[1, 4]", r"Final Answer: The final answer is $[1,4]$. I hope it is correct."),
])

fam("matrix_answers_correct", "correct", [
    (r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}", r"$$\boxed{\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}}$$"),
    (
        r"\begin{pmatrix} 2 & 0 \\ 0 & 2 \end{pmatrix}",
        r"Therefore $\mathbf{M} = \boxed{\begin{pmatrix} 2 & 0 \\ 0 & 2 \end{pmatrix}}$.",
    ),
    (r"\begin{pmatrix} -1 \\ 4 \end{pmatrix}", r"The projection is $\boxed{\begin{pmatrix} -1 \\ 4 \end{pmatrix}}$."),
    (
        r"\begin{pmatrix} 0 & 1 \\ -1 & 0 \end{pmatrix}",
        r"The rotation matrix by $90^\circ$ clockwise is $\boxed{\begin{pmatrix}0&1\\-1&0\end{pmatrix}}$.",
    ),
    (
        r"\begin{pmatrix} 3 & -1 \\ 2 & 5 \end{pmatrix}",
        T(
            r"\[",
            r"\mathbf{A} + \mathbf{B} = \boxed{\begin{pmatrix} 3 & -1 \\ 2 & 5 \end{pmatrix}}",
            r"\]",
        ),
    ),
])

fam("tuple_answers_correct", "correct", [
    (r"(2, 3)", r"The intersection point is $\boxed{(2, 3)}$."),
    (r"(2, 3)", r"So $(x, y) = \boxed{(2,3)}$."),
    (r"(1, -2, 3)", r"The point is $\boxed{(1,-2,3)}$."),
    (r"(0, 5)", r"The $y$-intercept is $\boxed{(0, 5)}$."),
    (r"\left(\frac{1}{2}, 3\right)", r"The midpoint is $\boxed{\left(\frac{1}{2}, 3\right)}$."),
    (r"(4, \frac{\pi}{3})", r"In polar coordinates the point is $\boxed{\left(4, \frac{\pi}{3}\right)}$."),
])

fam("set_answers_correct", "correct", [
    (r"\{1, 2, 3\}", r"$A \cap B = \boxed{\{1, 2, 3\}}$"),
    (r"\{-2, 2\}", r"The solution set is $\boxed{\{-2, 2\}}$."),
    (r"-2, 2", r"The solutions are $\boxed{-2, 2}$."),
    (r"1, 3", r"The roots are $x = 1$ and $x = 3$, so the answer is $\boxed{1, 3}$."),
    (r"\{0, 3\}", r"So $x \in \boxed{\{0, 3\}}$."),
    (r"2, -5", r"$$\boxed{-5, 2}$$"),
])

fam("line_equation_correct", "correct", [
    (r"y = 2x + 3", r"The line is $\boxed{y = 2x + 3}$."),
    (r"y = 2x + 3", r"Hence the equation is $\boxed{y=2x+3}$, with slope 2 and $y$-intercept 3."),
    (r"y = -\frac{1}{2}x + 4", r"$$\boxed{y = -\frac{1}{2}x + 4}$$"),
    (r"x + 2y = 8", r"The line is $\boxed{x + 2y = 8}$."),
    (r"x = 4", r"The vertical asymptote is $\boxed{x = 4}$."),
])

fam("choice_letter_correct", "correct", [
    (r"\text{(B)}", r"$\boxed{\text{(B)}}$"),
    (r"\text{(B)}", r"The answer is $\boxed{B}$."),
    (r"\text{(D)}", r"So the correct choice is $\boxed{\textbf{(D)}}$."),
    (r"\text{(A)}", r"**Answer: (A)**"),
    (r"\text{(E)}", r"The answer is $\boxed{\text{(E) } 24}$."),
    (r"\text{(C)}", r"Final Answer: The final answer is $\text{(C)}$. I hope it is correct."),
])

fam("text_answers_correct", "correct", [
    (r"\text{Tuesday}", r"So the meeting falls on $\boxed{\text{Tuesday}}$."),
    (r"\text{even}", r"Since $f(-x) = f(x)$, the function is $\boxed{\text{even}}$."),
    (r"\text{Yes}", r"Thus such a number exists: $\boxed{\text{Yes}}$."),
    (r"\text{No}", r"Hence no such triangle exists, and the answer is $\boxed{\text{No}}$."),
    (r"\text{parabola}", r"The curve is a $\boxed{\text{parabola}}$."),
    (r"\text{Alice}", r"**Alice** wins the game, so the answer is $\boxed{\text{Alice}}$."),
])

fam("unit_answers_correct", "correct", [
    (r"5 \text{ km}", r"The distance is $\boxed{5 \text{ km}}$."),
    (r"5 \text{ km}", r"She walks $\boxed{5}$ km."),
    (r"12 \text{ cm}^2", r"The area is $\boxed{12 \text{ cm}^2}$."),
    (r"3 \text{ hours}", r"It takes $\boxed{3}$ hours."),
    (r"60 \text{ mph}", r"The average speed is $\boxed{60 \text{ mph}}$."),
    (r"9.8 \text{ m/s}^2", r"$g = \boxed{9.8\ \mathrm{m/s^2}}$"),
    (r"500 \text{ mL}", r"You need $\boxed{500 \text{ mL}}$ of water."),
])

fam("conditions_in_working", "correct", [
    (r"6", T(r"If $x = 2$, then $y = 3x = 6$.", r"If $x = -2$, the constraint $x > 0$ fails.", r"So $y = \boxed{6}$.")),
    (
        r"3",
        T(
            r"Case 1: $n = 1$ gives $1 + 2 = 3$, which is prime.",
            r"Case 2: $n = 2$ gives $4 + 2 = 6$, not prime.",
            r"Case 3: $n \ge 3$: the sum is divisible by 3.",
            r"",
            r"Only case 1 works, so the answer is $\boxed{3}$.",
        ),
    ),
    (
        r"5",
        T(
            r"Suppose $k = 4$; then $k^2 = 16 < 20$, too small.",
            r"Suppose $k = 6$; then $k^2 = 36 > 30$, too large.",
            r"With $k = 5$, $k^2 = 25$ lies in $[20, 30]$.",
            r"",
            r"$$\boxed{5}$$",
        ),
    ),
    (
        r"\frac{1}{2}",
        T(
            r"If the first card is red (probability $\frac{1}{2}$), the second is irrelevant.",
            r"If it is black, we lose.",
            r"So $P = \boxed{\frac{1}{2}}$.",
        ),
    ),
    (
        r"8",
        T(
            r"When $a = 1$ the expression is 3; when $a = 2$ it is 8; when $a = 3$ it is 15.",
            r"The problem gives $a = 2$, so the value is $\boxed{8}$.",
        ),
    ),
])

fam("code_block_with_output", "correct", [
    (
        r"5050",
        T(
            r"```python",
            r"print(sum(range(1, 101)))",
            r"```",
            r"```output",
            r"5050",
            r"```",
            r"The sum is $\boxed{5050}$.",
        ),
    ),
    (
        r"1024",
        T(
            r"Let me compute it:",
            r"```python",
            r"x = 2 ** 10",
            r"print(x)",
            r"```",
            r"Output: `1024`",
            r"",
            r"So $2^{10} = \boxed{1024}$.",
        ),
    ),
    (
        r"\frac{1}{6}",
        T(
            r"```python",
            r"from fractions import Fraction",
            r"print(Fraction(1, 2) * Fraction(1, 3))",
            r"```",
            r"```output",
            r"1/6",
            r"```",
            r"",
            r"Therefore the probability is $\boxed{\frac{1}{6}}$.",
        ),
    ),
    (
        r"3",
        T(
            r"```python",
            r"import sympy as sp",
            r"x = sp.symbols('x')",
            r"print(sp.solve(2*x - 6, x))",
            r"```",
            r"```output",
            r"[3]",
            r"```",
            r"",
            r"The solution is $x = \boxed{3}$.",
        ),
    ),
    (
        r"28",
        T(
            r"```python",
            r"perfect = [n for n in range(2, 100) if sum(d for d in range(1, n) if n % d == 0) == n]",
            r"print(perfect)",
            r"```",
            r"```output",
            r"[6, 28]",
            r"```",
            r"The question asks for the second perfect number, so the answer is $\boxed{28}$.",
        ),
    ),
])

fam("non_english_words_around", "correct", [
    (r"12", T(r"Portanto, a resposta é:", r"$$\boxed{12}$$")),
    (r"\frac{1}{2}", r"Donc la probabilité est $\boxed{\frac{1}{2}}$."),
    (r"7", r"Also ist die Lösung $x = \boxed{7}$."),
    (r"45", r"所以答案是 $\boxed{45}$。"),
    (r"3", r"Следовательно, ответ: $\boxed{3}$."),
    (r"100", r"Por lo tanto, la respuesta final es $\boxed{100}$."),
    (r"8", r"したがって、答えは $\boxed{8}$ です。"),
])

fam("question_numbers_after_box", "correct", [
    (r"49", r"$\boxed{49}$ is the only number less than 75 that works."),
    (r"18", r"So John has $\boxed{18}$ marbles, 6 more than the 12 that Mary has."),
    (r"6", r"The answer is $\boxed{6}$ days, since the 3 workers together do 1/6 of the job per day."),
    (r"15", r"He needs $\boxed{15}$ boxes to pack all 180 cookies in boxes of 12."),
    (r"4", r"Thus $\boxed{4}$ of the 10 students play both sports."),
    (r"20", r"There are $\boxed{20}$ students; 8 of them are boys and 12 are girls."),
])

fam("restate_same_value_after", "correct", [
    (r"24", r"The answer is $\boxed{24}$. So there are 24 possible arrangements."),
    (r"3", r"$x = \boxed{3}$. That is, the unique solution is $x = 3$."),
    (r"\frac{2}{3}", r"$\boxed{\frac{2}{3}}$ — two thirds of the marbles are red."),
    (r"15", r"So she has $\boxed{15}$ apples. Fifteen apples in total."),
    (r"100", r"$\boxed{100}$, i.e. one hundred."),
    (r"0.5", r"The probability is $\boxed{0.5}$, i.e., one half."),
])

fam("explanation_after_box", "correct", [
    (
        r"9",
        T(
            r"$$\boxed{9}$$",
            r"",
            (
                r"**Why this works:** each of the 3 shirts can be paired with each of the 3 pants, and multiplication"
                r" counts the pairs."
            ),
        ),
    ),
    (
        r"\frac{1}{36}",
        T(
            r"The probability of rolling two sixes is $\boxed{\frac{1}{36}}$.",
            r"",
            r"This is because the two rolls are independent and each has a $\frac{1}{6}$ chance.",
        ),
    ),
    (
        r"180",
        T(
            r"The sum is $\boxed{180}$ degrees.",
            r"",
            r"This is a general fact: the angles of any triangle in the plane sum to a straight angle.",
        ),
    ),
    (
        r"35",
        T(
            r"**Final answer:** $\boxed{35}$",
            r"",
            r"Explanation: $\binom{7}{3} = \frac{7 \cdot 6 \cdot 5}{3 \cdot 2 \cdot 1} = 35$.",
        ),
    ),
    (
        r"2",
        T(
            r"\[\boxed{2}\]",
            r"",
            (
                r"Intuitively, the function crosses the $x$-axis twice because the parabola opens upward and its"
                r" vertex lies below the axis."
            ),
        ),
    ),
])

fam("bold_bullets_then_box", "correct", [
    (
        r"11",
        T(
            r"**Summary**",
            r"- Start: 5 apples",
            r"- Bought: 6 apples",
            r"- Total: 5 + 6 = 11",
            r"",
            r"$$\boxed{11}$$",
        ),
    ),
    (
        r"\frac{4}{9}",
        T(
            r"- Favorable: 16",
            r"- Total: 36",
            r"- Ratio: $\frac{16}{36} = \frac{4}{9}$",
            r"",
            r"**Answer:** $\boxed{\frac{4}{9}}$",
        ),
    ),
    (
        r"-1",
        T(
            r"* $i^2 = -1$",
            r"* $i^4 = 1$",
            r"* $i^{102} = i^{100} \cdot i^2 = -1$",
            r"",
            r"So $i^{102} = \boxed{-1}$.",
        ),
    ),
    (
        r"32 \text{ cm}",
        T(
            r"- Side: 8 cm",
            r"- Number of sides: 4",
            r"- Perimeter: 4 × 8 cm = 32 cm",
            r"",
            r"**Final Answer:** $\boxed{32 \text{ cm}}$",
        ),
    ),
])

fam("sets_and_tuples_in_prose", "correct", [
    (r"x = 2, y = 3", r"Solving the system, we get $\boxed{x = 2, y = 3}$."),
    (r"x = 2, y = 3", r"Therefore $x = 2$ and $y = 3$, i.e. $\boxed{(2, 3)}$."),
    (r"a = 1, b = -4", r"$$\boxed{a = 1,\ b = -4}$$"),
    (r"x = -1", r"The only solution is $\boxed{x = -1}$."),
])

fam("long_solution_then_box", "correct", [
    (
        r"336",
        T(
            r"We choose a president, vice president, and treasurer from 8 people.",
            r"",
            (
                r"There are 8 choices for president. After that, 7 people remain for vice president, and then 6 for"
                r" treasurer."
            ),
            r"",
            r"By the multiplication principle the count is",
            r"\[",
            r"8 \cdot 7 \cdot 6 = 336.",
            r"\]",
            (
                r"Note that order matters here because the roles are distinct; if they were not, we would divide by"
                r" $3! = 6$ to get 56."
            ),
            r"",
            r"Thus the answer is $\boxed{336}$.",
        ),
    ),
    (
        r"\frac{3}{10}",
        T(
            r"Let $R$ be the event that both balls are red.",
            r"",
            (
                r"The number of ways to draw 2 balls from 5 is $\binom{5}{2} = 10$. The bag contains 3 red balls, so"
                r" the number of ways to draw 2 red balls is $\binom{3}{2} = 3$."
            ),
            r"",
            r"Therefore",
            r"\[",
            r"P(R) = \frac{3}{10}.",
            r"\]",
            (
                r"As a sanity check, $P(\text{no red}) = \frac{1}{10}$ and $P(\text{exactly one red}) ="
                r" \frac{6}{10}$, and $\frac{3 + 1 + 6}{10} = 1$."
            ),
            r"",
            r"The answer is $\boxed{\frac{3}{10}}$.",
        ),
    ),
    (
        r"7",
        T(
            r"Let $n$ be the number of nickels and $d$ the number of dimes. Then",
            r"\begin{align*}",
            r"n + d &= 12, \\",
            r"5n + 10d &= 85.",
            r"\end{align*}",
            r"Multiplying the first equation by 5 and subtracting gives $5d = 25$, so $d = 5$ and $n = 7$.",
            r"",
            r"Check: $7 \cdot 5 + 5 \cdot 10 = 35 + 50 = 85$ cents. ✓",
            r"",
            r"So there are $\boxed{7}$ nickels.",
        ),
    ),
])

fam("approx_after_exact_value", "correct", [
    (r"\sqrt{2}", r"So the diagonal is $\boxed{\sqrt{2}} \approx 1.414$."),
    (r"4\pi", r"The area is $\boxed{4\pi} \approx 12.57$ square units."),
    (r"\frac{22}{7}", r"$\boxed{\frac{22}{7}}$ (approximately 3.142857)"),
    (r"e^2", r"The value is $\boxed{e^2}$, roughly 7.389."),
    (r"\ln 2", r"The half-life constant is $\boxed{\ln 2} \approx 0.693$."),
])

fam("think_with_false_starts", "correct", [
    (
        r"14",
        T(
            r"<think>",
            (
                r"First guess: 12. Hmm, that ignores the two extra chairs. 12 + 2 = 14. Check again: rows of 7, two"
                r" rows, 14. Yes."
            ),
            r"</think>",
            r"",
            r"There are two rows of 7 chairs, so $2 \times 7 = 14$ chairs.",
            r"",
            r"**Final Answer**",
            r"\[",
            r"\boxed{14}",
            r"\]",
        ),
    ),
    (
        r"\frac{1}{9}",
        T(
            r"<think>",
            r"Maybe 1/6? No: sum 5 comes from (1,4),(2,3),(3,2),(4,1) = 4 outcomes, 4/36 = 1/9.",
            r"</think>",
            r"",
            r"Four of the 36 outcomes give a sum of 5, so the probability is $\frac{4}{36} = \frac{1}{9}$.",
            r"",
            r"$$\boxed{\frac{1}{9}}$$",
        ),
    ),
    (
        r"21",
        T(
            r"<think>",
            r"Is it 20? The sequence 1, 1, 2, 3, 5, 8, 13, 21: the 8th term is 21.",
            r"</think>",
            r"",
            r"Listing the Fibonacci numbers: $1, 1, 2, 3, 5, 8, 13, 21$. The eighth is $\boxed{21}$.",
        ),
    ),
    (
        r"3",
        T(
            r"Let me think. log base 2 of 8... 2^2 = 4, 2^3 = 8, so 3. Not 4.",
            r"</think>",
            r"",
            r"Since $2^3 = 8$, we have $\log_2 8 = 3$.",
            r"",
            r"**Final Answer**",
            r"\[",
            r"\boxed{3}",
            r"\]",
        ),
    ),
    (
        r"60",
        T(
            r"<think>",
            r"At first I computed 120/3 = 40 but the speed is per 2 hours... no wait, 120 km in 2 hours = 60 km/h.",
            r"</think>",
            r"",
            r"Average speed $= \frac{120 \text{ km}}{2 \text{ h}} = 60$ km/h.",
            r"",
            r"The final answer is $\boxed{60}$.",
        ),
    ),
])

fam("plain_answer_sentences", "correct", [
    (r"18", r"Janet sells 16 - 3 - 4 = 9 eggs, earning 9 * 2 = 18 dollars. The answer is 18."),
    (r"18", T(r"She makes 9 × \$2 = \$18 every day.", r"The answer is: 18")),
    (r"7", r"Therefore, the final answer is 7."),
    (r"250", r"Answer: 250"),
    (r"\frac{1}{2}", r"So the answer is 1/2."),
    (r"36", r"The area of the square is 36 square units, so the answer is 36."),
    (r"9", r"Thus, there are 9 ways in total."),
])

fam("sci_notation_correct", "correct", [
    (r"3.2 \times 10^{5}", r"$\boxed{3.2 \times 10^{5}}$"),
    (r"3.2 \times 10^{5}", r"The population is $\boxed{320{,}000}$."),
    (r"320000", r"That is $\boxed{3.2 \times 10^5}$ people."),
    (r"6.02 \times 10^{23}", r"$N_A = \boxed{6.02 \times 10^{23}}$"),
    (r"5 \times 10^{-3}", r"The concentration is $\boxed{0.005}$."),
    (r"1.5 \times 10^{8}", r"$\boxed{1.5 \cdot 10^{8}}$ km"),
])

fam("equivalent_forms_correct", "correct", [
    (r"\frac{\sqrt{3}}{3}", r"$\tan 30^\circ = \boxed{\frac{1}{\sqrt{3}}}$"),
    (r"0.5", r"$\boxed{0.50}$"),
    (r"12000", r"The total is $\boxed{12{,}000}$."),
    (r"12000", r"She earns $\boxed{12,000}$ dollars per year."),
    (r"\frac{6}{8}", r"$\boxed{\frac{3}{4}}$"),
    (r"x^2 - 5x + 6", r"$\boxed{x^2-5x+6}$"),
    (r"(x - 2)(x - 3)", r"$\boxed{(x-3)(x-2)}$"),
    (r"2x + 1", r"So $f^{-1}(x) = \boxed{2x + 1}$."),
    (r"-\frac{3}{4}", r"$\boxed{\frac{-3}{4}}$"),
])

fam("special_values_correct", "correct", [
    (r"\infty", r"The limit diverges to $\boxed{\infty}$."),
    (r"3 + 4i", r"$z = \boxed{3+4i}$"),
    (r"1011_2", r"In binary, $11 = \boxed{1011_2}$."),
    (r"\emptyset", r"There are no solutions, so the solution set is $\boxed{\emptyset}$."),
    (r"(x - 1)^2 + (y + 2)^2 = 9", r"The circle is $\boxed{(x-1)^2 + (y+2)^2 = 9}$."),
    (r"f(x) = 2x + 1", r"$\boxed{f(x) = 2x + 1}$"),
    (r"\text{YES}", r"$\boxed{\text{YES}}$"),
])

fam("time_and_duration_correct", "correct", [
    (r"3:45", r"They meet at $\boxed{3:45}$."),
    (r"3:45 \text{ PM}", r"The train arrives at $\boxed{3:45 \text{ PM}}$."),
    (r"90 \text{ minutes}", r"The movie lasts $\boxed{90}$ minutes."),
    (r"2 \text{ hours}", r"It takes $\boxed{2 \text{ hours}}$ to fill the pool."),
    (r"10:30 \text{ AM}", r"So she should leave at **10:30 AM**, i.e. $\boxed{10{:}30 \text{ AM}}$."),
])

fam("rejected_alternative_after", "correct", [
    (r"5", r"$\boxed{5}$. (6 does not work since $6^2 = 36 > 30$.)"),
    (r"5", r"The answer is 5, not 6."),
    (r"5", r"A common mistake is to answer 6 by counting the endpoint; the correct answer is $\boxed{5}$."),
    (r"2", r"We discard $x = -3$ because lengths are positive, so $x = \boxed{2}$."),
    (r"12", r"$\boxed{12}$. Note that 13 is prime, so it cannot be the product, which confirms 12."),
    (
        r"\frac{1}{2}",
        (
            r"Thus $P = \boxed{\frac{1}{2}}$; the tempting answer $\frac{1}{3}$ ignores that the coins are"
            r" distinguishable."
        ),
    ),
    (
        r"8",
        T(
            r"The answer is $\boxed{8}$.",
            r"",
            r"(An earlier draft of this computation gave 9, but that double-counted the corner square.)",
        ),
    ),
])

fam("few_shot_styles_correct", "correct", [
    (r"18", r"The answer is: 18"),
    (
        r"18",
        (
            r"Janet's ducks lay 16 eggs per day. She eats 3 and bakes with 4, so 16 - 3 - 4 = 9 remain. 9 * $2 = $18."
            r" So the answer is $18."
        ),
    ),
    (r"5", r"Let's think step by step. 2 + 3 = 5. Therefore, the answer is 5."),
    (r"\frac{5}{6}", r"Final Answer: $\frac{5}{6}$"),
    (r"100", r"**Answer: 100**"),
    (r"8", T(r"Step 1: 2 * 4 = 8.", r"", r"Answer: $8$")),
])

fam("sig_fig_decimal_correct", "correct", [
    (r"3.14", r"Rounded to the nearest hundredth, $\boxed{3.14}$."),
    (r"0.27", r"The probability is approximately $\boxed{0.27}$."),
    (r"12.5", r"The length is $\boxed{12.5}$ meters."),
    (r"2.7", r"Rounded to one decimal place, the answer is $\boxed{2.7}$."),
    (r"-0.25", r"$\boxed{-0.25}$"),
])

fam("degree_words_correct", "correct", [
    (r"45^\circ", r"The angle is $\boxed{45 \text{ degrees}}$."),
    (r"90^\circ", r"The lines are perpendicular, so the angle is $\boxed{90^{\circ}}$."),
    (r"120", r"$\boxed{120^\circ}$"),
    (r"60^\circ", r"The remaining angle is $180^\circ - 50^\circ - 70^\circ = \boxed{60^\circ}$."),
])

fam("display_bracket_variants", "correct", [
    (r"27", T(r"\[", r"3^3 = \boxed{27}", r"\]")),
    (r"27", T(r"$$", r"\boxed{27}", r"$$", r"")),
    (r"\frac{1}{5}", T(r"\[ \boxed{\frac{1}{5}} \]")),
    (r"13", r"\begin{equation*} \boxed{13} \end{equation*}"),
    (r"-4", T(r"\begin{align*}", r"x &= \frac{-8}{2} \\", r"  &= \boxed{-4}", r"\end{align*}")),
])

fam("box_with_label_inside", "correct", [
    (r"12", r"$\boxed{\text{Answer: } 12}$"),
    (r"7", r"$\boxed{n = 7}$"),
    (r"\frac{1}{2}", r"$\boxed{P = \tfrac{1}{2}}$"),
    (r"40", r"$\boxed{40 \text{ students}}$"),
    (r"3", r"$\boxed{x=3}$"),
])

fam("conversational_closers", "correct", [
    (
        r"48",
        T(
            r"So the answer is $\boxed{48}$.",
            r"",
            r"Let me know if you'd like me to explain any step in more detail!",
        ),
    ),
    (r"6", T(r"$$\boxed{6}$$", r"", r"I hope this helps! 😊")),
    (r"\frac{3}{5}", T(r"**Final Answer:** $\boxed{\frac{3}{5}}$", r"", r"Feel free to ask if anything is unclear.")),
    (r"10", T(r"The final answer is: $\boxed{10}$", r"", r"Good luck with your studies!")),
    (
        r"2",
        T(
            r"Therefore $x = \boxed{2}$.",
            r"",
            r"If you have another problem, send it over and we can work through it together.",
        ),
    ),
])

fam("multi_part_summary_single_asked", "correct", [
    (
        r"30",
        T(
            r"- Length: 6 m",
            r"- Width: 5 m",
            r"- Area: $6 \times 5 = 30$ m²",
            r"",
            r"The area is $\boxed{30}$ square meters.",
        ),
    ),
    (r"8", T(r"We have $a = 3$ and $b = 5$, so $a + b = \boxed{8}$.")),
    (
        r"\frac{1}{4}",
        T(
            r"$P(A) = \frac{1}{2}$, $P(B) = \frac{1}{2}$, independent.",
            r"So $P(A \cap B) = \boxed{\frac{1}{4}}$.",
        ),
    ),
    (r"56", T(r"Step 1: $7 \times 8 = 56$.", r"Step 2: No further steps needed.", r"", r"$$\boxed{56}$$")),
    (
        r"15",
        T(
            r"The first term is $a_1 = 3$ and the common difference is $d = 2$.",
            r"Then $a_7 = 3 + 6 \cdot 2 = 15$.",
            r"",
            r"\[\boxed{15}\]",
        ),
    ),
])

fam("units_money_in_box_variants", "correct", [
    (r"\$12", r"Each costs $\boxed{12}$ dollars."),
    (r"12 \text{ dollars}", r"$\boxed{\$12}$"),
    (r"\$1.50", r"The change is $\boxed{\$1.50}$."),
    (r"250 \text{ g}", r"Use $\boxed{250\text{ g}}$ of sugar."),
    (r"4 \text{ m}", r"The height is $\boxed{4 \, \text{m}}$."),
    (r"100 \text{ cm}^3", r"$V = \boxed{100\ \text{cm}^3}$"),
])

fam("tables_before_answer", "correct", [
    (
        r"6",
        T(
            r"| $n$ | $n^2$ | $n^2 < 40$? |",
            r"|---|---|---|",
            r"| 5 | 25 | yes |",
            r"| 6 | 36 | yes |",
            r"| 7 | 49 | no |",
            r"",
            r"The largest $n$ with $n^2 < 40$ is $\boxed{6}$.",
        ),
    ),
    (
        r"\frac{1}{3}",
        T(
            r"| Outcome | Count |",
            r"|---|---|",
            r"| 1 or 2 | 2 |",
            r"| other | 4 |",
            r"",
            r"So $P = \frac{2}{6} = \boxed{\frac{1}{3}}$.",
        ),
    ),
    (
        r"44",
        T(
            r"| Week | Savings |",
            r"| --- | --- |",
            r"| 1 | 11 |",
            r"| 2 | 11 |",
            r"| 3 | 11 |",
            r"| 4 | 11 |",
            r"",
            r"**Total: \$44**",
            r"",
            r"The answer is $\boxed{44}$.",
        ),
    ),
])


# =====================================================================================
# (D) PROBES, written after running (A)-(C): commentary after the box that offers another
# value pays; some honest restatements and question numbers after the box are refused
# =====================================================================================

fam("probe_alternative_sentence_after_box", "cover", [
    (r"5", r"The answer is $\boxed{5}$. Some sources say 6."),
    (r"5", r"$\boxed{5}$. 6 is also acceptable."),
    (r"5", r"$\boxed{5}$. Another possibility is 6."),
    (r"5", r"$\boxed{5}$ (6 in some editions)."),
    (r"5", r"$\boxed{5}$. The answer key might say 6."),
    (r"5", r"$\boxed{5}$. A second valid answer is $6$."),
    (r"5", r"$\boxed{5}$. P.S. It could also be 6."),
    (r"5", r"$\boxed{5}$ — many people would say 6, and they are not wrong."),
    (r"5", T(r"$$\boxed{5}$$", r"", r"Alternative answer: $6$.")),
    (r"6", r"$\boxed{5}$. 6 is also acceptable."),
    (r"6", r"$\boxed{5}$. A second valid answer is $6$."),
    (r"\frac{1}{2}", r"$\boxed{\frac{1}{2}}$. Under the other reading, $\frac{1}{3}$."),
])

fam("probe_alternative_list_after_box", "cover", [
    (r"3", T(r"$\boxed{3}$", r"", r"- strict reading: 3", r"- loose reading: 4")),
    (r"4", T(r"$\boxed{3}$", r"", r"- strict reading: 3", r"- loose reading: 4")),
    (
        r"12",
        T(
            r"**Answer:** $\boxed{12}$",
            r"",
            r"Other answers I considered: 13 and 14; any of them may be what the problem intends.",
        ),
    ),
    (r"\text{(B)}", T(r"$\boxed{\text{(B)}}$", r"", r"Runner-up: (C).")),
])

fam("probe_parenthetical_alternative", "cover", [
    (r"12", r"$\boxed{12}$ (maybe 13)"),
    (r"12", r"$\boxed{12}$ (13 also possible)"),
    (r"12", r"$\boxed{12}$ [or 13]"),
    (r"12", r"$\boxed{12}\quad(\text{or } 13)$"),
    (r"12", r"$\boxed{12}$; with order taken into account, 13."),
    (r"12", r"$\boxed{12}$ (13 if order matters)"),
    (r"13", r"$\boxed{12}$ (13 if order matters)"),
    (r"13", r"$\boxed{12}$ (maybe 13)"),
])

fam("probe_restatement_other_value", "cover", [
    (r"12", r"$\boxed{12}$. That's 13 in total."),
    (r"12", r"The answer is $\boxed{12}$, i.e. 13 apples."),
    (r"12", r"$\boxed{12}$. In other words, thirteen."),
    (r"12", r"$\boxed{13}$. In other words, there are 12 of them."),
    (r"12", r"The answer is $\boxed{13}$. Some texts give 12."),
    (r"\frac{1}{2}", r"$\boxed{\frac{1}{2}}$, which is $\frac{1}{3}$ of the total."),
])

fam("probe_choice_letter_commentary", "cover", [
    (r"\text{(B)}", r"$\boxed{B}$, or (C)."),
    (r"\text{(B)}", r"$\boxed{B}$. (C) is also defensible."),
    (r"\text{(C)}", r"$\boxed{B}$. (C) is also defensible."),
    (r"\text{(A)}", r"The answer is $\boxed{\text{(A)}}$. Second choice: (D)."),
    (r"\text{(D)}", r"The answer is $\boxed{\text{(A)}}$. Second choice: (D)."),
])

fam("probe_qualifier_after_box", "cover", [
    (r"4", r"$\boxed{4}$, up to a factor of 2."),
    (r"10", r"$\boxed{10}$, give or take an off-by-one."),
    (r"3", r"$\boxed{3}$ (or its reciprocal, depending on convention)"),
    (r"\frac{1}{3}", r"$\boxed{3}$ (or its reciprocal, depending on convention)"),
    (r"50", r"$\boxed{50}$ ± 10%"),
])

fam("probe_choice_letter_wrong_with_value", "wrong_value", [
    (r"\text{(E)}", r"The answer is $\boxed{\text{(C) } 24}$."),
    (r"\text{(A)}", r"The answer is (B) $24$."),
    (r"\text{(D)}", r"**Answer: (C) 17**"),
])

fam("probe_numbers_after_box_honest", "correct", [
    (r"15", r"So $\boxed{15}$ of the 30 students passed."),
    (r"240", r"He drives $\boxed{240}$ miles in 4 hours at 60 mph."),
    (r"6", r"There are $\boxed{6}$ red marbles left in the bag of 20."),
    (r"3", r"Therefore $x = \boxed{3}$, which satisfies $2x + 1 = 7$."),
    (r"9", r"The answer is $\boxed{9}$, because $3 \times 3 = 9$."),
    (r"45", r"Each of the 3 friends pays $\boxed{45}$ dollars of the \$135 bill."),
    (r"12", r"She needs $\boxed{12}$ more stickers to reach 50."),
    (r"7", r"The answer is $\boxed{7}$ since $49 = 7^2$."),
])

fam("probe_non_english_accented", "correct", [
    (r"5", r"La réponse est $\boxed{5}$."),
    (r"5", r"Die Antwort ist $\boxed{5}$. Überprüfung: $2 \cdot 5 = 10$."),
    (r"5", r"La solución es $\boxed{5}$."),
    (r"5", r"Vậy đáp án là $\boxed{5}$."),
    (r"5", r"Odpowiedź: $\boxed{5}$."),
    (r"5", r"Άρα η απάντηση είναι $\boxed{5}$."),
    (r"5", r"Cevap: $\boxed{5}$. Doğrulama tamamlandı."),
    (r"5", r"Resposta final: $\boxed{5}$ (verificação: $5 + 5 = 10$)."),
    (r"\frac{1}{2}", r"Ответ: $\boxed{\frac{1}{2}}$"),
])

fam("probe_approximation_after_exact", "correct", [
    (r"\sqrt{3}", r"$\boxed{\sqrt{3}} \approx 1.732$"),
    (r"\frac{\pi}{4}", r"$\boxed{\frac{\pi}{4}} \approx 0.785$"),
    (r"e", r"The limit is $\boxed{e} \approx 2.718$."),
    (r"\sqrt[3]{2}", r"$\boxed{\sqrt[3]{2}} \approx 1.26$"),
    (r"\log_2 3", r"$\boxed{\log_2 3} \approx 1.585$"),
    (r"\ln 2", r"$\boxed{\ln 2}$, approximately $0.693$."),
    (r"e^2", r"$\boxed{e^2} \approx 7.389$"),
])

fam("probe_explicit_rejection", "correct", [
    (r"5", r"$x = 5$ (not 6), so the answer is $\boxed{5}$."),
    (r"5", r"The answer is $\boxed{5}$, not 6."),
    (r"5", r"The answer is 5 rather than 6."),
    (r"5", r"$\boxed{5}$ — 6 would double count the shared corner."),
    (r"2", r"$x = \boxed{2}$ ($x = -3$ is extraneous)."),
    (r"10", r"$\boxed{10}$. We rule out 11 because it is not divisible by 5."),
])

fam("probe_words_inside_box", "correct", [
    (r"40", r"$\boxed{40 \text{ students}}$"),
    (r"3", r"She has $\boxed{3 \text{ apples}}$ left."),
    (r"12", r"There are $\boxed{12 \text{ ways}}$."),
    (r"7", r"$\boxed{7 \text{ days}}$"),
    (r"25", r"$\boxed{25 \text{ marbles}}$"),
    (r"12", r"$\boxed{\text{Answer: } 12}$"),
])

fam("probe_math_environments", "correct", [
    (r"13", r"\begin{equation} \boxed{13} \end{equation}"),
    (r"13", T(r"\begin{gather*}", r"\boxed{13}", r"\end{gather*}")),
    (r"13", T(r"\begin{equation*}", r"n = \boxed{13}", r"\end{equation*}")),
    (r"\frac{1}{2}", T(r"\begin{displaymath}", r"\boxed{\frac{1}{2}}", r"\end{displaymath}")),
])

fam("probe_percent_sign_outside_box", "correct", [
    (r"25\%", r"$\boxed{25}\%$"),
    (r"25\%", r"The percent decrease is $\boxed{25}$ percent."),
    (r"60\%", r"So $\boxed{60}$% of the class passed."),
])

fam("probe_separator_then_words", "correct", [
    (r"12000", r"$\boxed{12,000}$ dollars"),
    (r"1500", r"There are $\boxed{1,500}$ people in the town."),
    (r"1500", r"$\boxed{1,500}$"),
    (r"2500000", r"The prize is $\boxed{2,500,000}$ dollars."),
])

fam("probe_same_value_restated_in_words", "correct", [
    (r"0.5", r"$\boxed{0.5}$, i.e. 50%."),
    (r"\frac{1}{2}", r"$\boxed{\frac{1}{2}}$, or $50\%$."),
    (r"\frac{1}{4}", r"$\boxed{\frac{1}{4}}$ (one quarter)"),
    (r"90 \text{ minutes}", r"$\boxed{90 \text{ minutes}}$ (1.5 hours)"),
    (r"3", r"$\boxed{3}$ (three)"),
    (r"1000", r"$\boxed{1000}$, that is, $10^3$."),
])

fam("probe_letter_with_value_correct", "correct", [
    (r"\text{(E)}", r"$\boxed{(E)\ 24}$"),
    (r"\text{(E)}", r"The answer is (E) $24$."),
    (r"\text{(C)}", r"**Answer: (C) 17**"),
    (r"\text{(B)}", r"The correct option is **(B) $\frac{1}{2}$**."),
])

fam("probe_prose_statement_no_marker", "correct", [
    (r"\$1,250.50", r"The final balance is **\$1,250.50**."),
    (r"42", r"So there are **42** apples in total."),
    (r"7", r"Therefore, $x = 7$."),
])


# (family, reference, completion, math, exact)
ROWS: list[tuple[str, str, str, int, None]] = [(f, r, c, e, None) for f, r, c, e in _ROWS4]
