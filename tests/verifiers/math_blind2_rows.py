"""A second blind table for the math verifier, written from outside in families the other tables do
not name, the first part without reading the verifier's source and the ``adaptive_`` families after
reading it, to attack what it does. Both sides at once: ``wrong_value`` and ``cover`` rows must
earn 0, ``correct`` rows (ordinary endings of published models: Qwen2.5-Math, R1 distills, Llama-3,
GPT-4o style, Minerva, GSM8K, tutorial tags, units, money, angles, approximations after an exact
value) must earn 1. Rows are (family, reference, completion, math, exact); ``exact`` is None: the
table is written for ``math``. ``tests/verifiers/test_math_blind2.py`` runs it; rows the verifier
does not yet agree with are listed there (strict xfail) with the reason.
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
# (A) WRONG VALUE
# =====================================================================================
fam("area_unit_power", "wrong_value", [
    (r"12 \text{ cm}^2", r"The area is $\boxed{12 \text{ cm}}$."),
    (r"12 \text{ cm}^2", r"\boxed{12\text{ m}^2}"),
    (r"12 \text{ cm}^2", r"\boxed{12 \text{ cm}^3}"),
    (r"12 \text{ cm}^2", r"\boxed{12\,\mathrm{mm}^2}"),
    (r"50 \text{ m}^2", r"So the garden covers $\boxed{50 \text{ m}}$."),
    (r"8 \text{ cm}^3", r"The volume is $\boxed{8 \text{ cm}^2}$."),
    (r"36 \text{ square feet}", r"\boxed{36 \text{ feet}}"),
])

fam("si_prefix", "wrong_value", [
    (r"5 \text{ kHz}", r"\boxed{5 \text{ MHz}}"),
    (r"5 \text{ kHz}", r"\boxed{5\text{ Hz}}"),
    (r"3 \text{ mA}", r"The current is $\boxed{3 \text{ A}}$."),
    (r"4.7 \text{ k}\Omega", r"\boxed{4.7\ \Omega}"),
    (r"250 \text{ ms}", r"\boxed{250 \text{ s}}"),
    (r"1.5 \text{ GB}", r"\boxed{1.5 \text{ MB}}"),
    (r"2 \text{ km}", r"\boxed{2 \text{ mm}}"),
])

fam("time_unit_scale", "wrong_value", [
    (r"45 \text{ minutes}", r"\boxed{45 \text{ seconds}}"),
    (r"3 \text{ hours}", r"It takes $\boxed{3 \text{ minutes}}$."),
    (r"2 \text{ days}", r"\boxed{2 \text{ weeks}}"),
    (r"90 \text{ seconds}", r"\boxed{90 \text{ minutes}}"),
    (r"6 \text{ months}", r"\boxed{6 \text{ years}}"),
    (r"12 \text{ hours}", r"The answer is: 12 days"),
])

fam("currency_kind", "wrong_value", [
    (r"\$45", r"\boxed{€45}"),
    (r"\$45", r"\boxed{45 \text{ euros}}"),
    (r"\$45", r"The total is £45."),
    (r"\$45", r"\boxed{¥45}"),
    (r"€20", r"\boxed{\$20}"),
    (r"20 \text{ euros}", r"\boxed{20 \text{ dollars}}"),
])

fam("vector_vs_magnitude", "wrong_value", [
    (r"(3,4)", r"\boxed{5}"),
    (r"5", r"\boxed{(3,4)}"),
    (r"\begin{pmatrix} 1 \\ 2 \end{pmatrix}", r"\boxed{\sqrt{5}}"),
    (r"\sqrt{5}", r"\boxed{\begin{pmatrix} 1 \\ 2 \end{pmatrix}}"),
    (r"\begin{pmatrix} 2 \\ -1 \\ 3 \end{pmatrix}", r"\boxed{\sqrt{14}}"),
    (r"\sqrt{14}", r"\boxed{\langle 2, -1, 3\rangle}"),
])

fam("complex_conjugate", "wrong_value", [
    (r"3+4i", r"\boxed{3-4i}"),
    (r"-2i", r"\boxed{2i}"),
    (r"1 - i", r"\boxed{1 + i}"),
    (r"\frac{1}{2} + \frac{\sqrt{3}}{2}i", r"\boxed{\frac12 - \frac{\sqrt3}{2} i}"),
    (r"5i", r"\boxed{5}"),
    (r"2+i", r"\boxed{1+2i}"),
])

fam("matrix_transpose", "wrong_value", [
    (r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}", r"\boxed{\begin{pmatrix} 1 & 3 \\ 2 & 4 \end{pmatrix}}"),
    (r"\begin{pmatrix} 0 & -1 \\ 1 & 0 \end{pmatrix}", r"\boxed{\begin{pmatrix} 0 & 1 \\ -1 & 0 \end{pmatrix}}"),
    (r"\begin{pmatrix} 1 & 2 & 3 \\ 4 & 5 & 6 \\ 7 & 8 & 9 \end{pmatrix}",
     r"\boxed{\begin{pmatrix} 1 & 4 & 7 \\ 2 & 5 & 8 \\ 3 & 6 & 9 \end{pmatrix}}"),
    (r"\begin{pmatrix} 2 & 5 \\ 0 & 3 \end{pmatrix}", r"\boxed{\begin{bmatrix} 2 & 0 \\ 5 & 3 \end{bmatrix}}"),
    (r"\begin{pmatrix} 1 & 2 & 3 \\ 4 & 5 & 6 \end{pmatrix}", r"\boxed{\begin{pmatrix} 1 & 4 \\ 2 & 5 \\ 3 & 6 \end{pmatrix}}"),  # noqa: E501
    (r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}", r"\boxed{\begin{pmatrix} a & c \\ b & d \end{pmatrix}}"),
])

fam("inequality_strict", "wrong_value", [
    (r"x > 2", r"\boxed{x \ge 2}"),
    (r"x \le -1", r"\boxed{x < -1}"),
    (r"-1 < x \leq 4", r"\boxed{-1 \le x \le 4}"),
    (r"x \geq 0", r"\boxed{x > 0}"),
    (r"a < 5", r"\boxed{a \leq 5}"),
    (r"x \geq 3", r"The solution is $\boxed{x > 3}$."),
])

fam("interval_union_end", "wrong_value", [
    (r"(-\infty, 1) \cup (2, \infty)", r"\boxed{(-\infty, 1] \cup (2, \infty)}"),
    (r"(-\infty, 1) \cup (2, \infty)", r"\boxed{(-\infty, 1) \cup (3, \infty)}"),
    (r"(-\infty, 1) \cup (2, \infty)", r"\boxed{(1, 2)}"),
    (r"[-2, 0) \cup (0, 2]", r"\boxed{[-2, 2]}"),
    (r"(-\infty,-3]\cup[3,\infty)", r"\boxed{[-3,3]}"),
    (r"(0,1)\cup(1,\infty)", r"\boxed{(0,\infty)}"),
])

fam("coordinate_order_3d", "wrong_value", [
    (r"(1, 2, 3)", r"\boxed{(3, 2, 1)}"),
    (r"(1, 2, 3)", r"\boxed{(1, 3, 2)}"),
    (r"(0, -1, 4)", r"\boxed{(0, 4, -1)}"),
    (r"(0, -1, 4)", r"\boxed{(0, 1, 4)}"),
    (r"(2, 0, -5)", r"The point is $\boxed{(-5, 0, 2)}$."),
    (r"(1, 1, 2)", r"\boxed{(1, 2, 2)}"),
])

fam("count_vs_list", "wrong_value", [
    (r"3", r"The solutions are $\boxed{\{-1, 0, 1\}}$."),
    (r"\{-1, 0, 1\}", r"There are $\boxed{3}$ solutions."),
    (r"2", r"\boxed{x = 3, x = 5}"),
    (r"3, 5", r"\boxed{2}"),
    (r"1, 2", r"\boxed{3}"),
    (r"4", r"\boxed{(1, 2, 3, 4)}"),
])

fam("odds_vs_probability", "wrong_value", [
    (r"\frac{1}{3}", r"\boxed{1:2}"),
    (r"\frac{1}{4}", r"\boxed{1:3}"),
    (r"2:3", r"\boxed{\frac{2}{5}}"),
    (r"3:1", r"\boxed{\frac{3}{4}}"),
    (r"1:1", r"\boxed{\frac12}"),
    (r"\frac{2}{3}", r"\boxed{2:1}"),
])

fam("irrational_factor_missing", "wrong_value", [
    (r"4\pi", r"\boxed{4}"),
    (r"\frac{\pi}{3}", r"\boxed{\frac{1}{3}}"),
    (r"2\sqrt{3}", r"\boxed{2}"),
    (r"3\sqrt{2}", r"\boxed{\sqrt{2}}"),
    (r"16\pi \text{ cm}^2", r"\boxed{16 \text{ cm}^2}"),
    (r"e^2", r"\boxed{2}"),
])

fam("sqrt_vs_square", "wrong_value", [
    (r"\sqrt{7}", r"\boxed{7}"),
    (r"9", r"\boxed{\sqrt{9}}"),
    (r"2\sqrt{2}", r"\boxed{8}"),
    (r"\sqrt[3]{4}", r"\boxed{\sqrt{4}}"),
    (r"\sqrt{10}", r"\boxed{10}"),
    (r"25", r"\boxed{\sqrt{25}}"),
])

fam("yes_no_flip", "wrong_value", [
    (r"\text{Yes}", r"\boxed{\text{No}}"),
    (r"\text{No}", r"\boxed{\text{Yes}}"),
    (r"\text{True}", r"\boxed{\text{False}}"),
    (r"\text{False}", r"\boxed{\text{True}}"),
    (r"Yes", r"**Answer:** No"),
    (r"No", r"The answer is: yes"),
])

fam("weekday_month", "wrong_value", [
    (r"\text{Tuesday}", r"\boxed{\text{Wednesday}}"),
    (r"\text{Friday}", r"The meeting falls on $\boxed{\text{Thursday}}$."),
    (r"\text{Monday}", r"\boxed{\text{Sunday}}"),
    (r"\text{March}", r"\boxed{\text{April}}"),
    (r"\text{Saturday}", r"\boxed{\text{Tuesday}}"),
    (r"\text{December}", r"\boxed{\text{November}}"),
])

fam("am_pm", "wrong_value", [
    (r"3:00 \text{ PM}", r"\boxed{3:00 \text{ AM}}"),
    (r"9:15 \text{ a.m.}", r"\boxed{9:15 \text{ p.m.}}"),
    (r"\text{11:30 PM}", r"\boxed{\text{11:30 AM}}"),
    (r"7:45 \text{ PM}", r"\boxed{7:45 \text{ AM}}"),
    (r"4:00 \text{ PM}", r"\boxed{04:00}"),
    (r"10:00 \text{ AM}", r"\boxed{22:00}"),
])

fam("percent_scale_slip", "wrong_value", [
    (r"0.25", r"\boxed{25}"),
    (r"25\%", r"\boxed{0.25\%}"),
    (r"0.8", r"\boxed{80}"),
    (r"12\%", r"\boxed{0.12\%}"),
    (r"0.05", r"\boxed{5}"),
    (r"3\%", r"\boxed{300\%}"),
])

fam("binomial_index", "wrong_value", [
    (r"\binom{10}{3}", r"\boxed{\binom{10}{4}}"),
    (r"120", r"\boxed{\binom{10}{4}}"),
    (r"\binom{8}{2}", r"\boxed{\binom{8}{3}}"),
    (r"15", r"\boxed{\dbinom{6}{3}}"),
    (r"\frac{10!}{3!\,7!}", r"\boxed{\frac{10!}{3!}}"),
    (r"20", r"\boxed{\binom{5}{2}}"),
])

fam("line_equation", "wrong_value", [
    (r"y = 2x + 3", r"\boxed{y = 3x + 2}"),
    (r"y = -x + 1", r"\boxed{y = x + 1}"),
    (r"y = \frac{1}{2}x - 4", r"\boxed{y = 2x - 4}"),
    (r"2x + 3y = 6", r"\boxed{3x + 2y = 6}"),
    (r"x = 4", r"\boxed{y = 4}"),
    (r"y = 2x + 3", r"\boxed{y = 2x - 3}"),
])

fam("function_expression", "wrong_value", [
    (r"f^{-1}(x) = \frac{x-3}{2}", r"\boxed{f^{-1}(x) = \frac{x+3}{2}}"),
    (r"2x+1", r"\boxed{f(x) = 2x - 1}"),
    (r"g(x) = x^2 - 1", r"\boxed{g(x) = x^2 + 1}"),
    (r"6x^2 - 2", r"\boxed{6x^2 - 2x}"),
    (r"3x^2", r"\boxed{x^3}"),
    (r"\frac{1}{x}", r"\boxed{-\frac{1}{x^2}}"),
])

fam("empty_vs_zero", "wrong_value", [
    (r"\emptyset", r"\boxed{\{0\}}"),
    (r"\text{no solution}", r"\boxed{0}"),
    (r"0", r"\boxed{\emptyset}"),
    (r"\{0\}", r"\boxed{\varnothing}"),
    (r"\text{No real solutions}", r"\boxed{x = 0}"),
    (r"0", r"\boxed{\text{no solution}}"),
])

fam("set_vs_interval", "wrong_value", [
    (r"\{1, 2\}", r"\boxed{[1, 2]}"),
    (r"[1,2]", r"\boxed{\{1,2\}}"),
    (r"\{0,1,2,3\}", r"\boxed{[0,3]}"),
    (r"[-1,1]", r"\boxed{\{-1,1\}}"),
    (r"\{2,3,4\}", r"\boxed{[2,4]}"),
    (r"[0,\infty)", r"\boxed{\{0\}}"),
])

fam("near_integer", "wrong_value", [
    (r"17", r"\boxed{17.4}"),
    (r"250", r"\boxed{249.6}"),
    (r"3", r"\boxed{2.9}"),
    (r"1000", r"\boxed{999.9}"),
    (r"8", r"\boxed{8.01}"),
    (r"42", r"#### 41.99"),
])

fam("fraction_reciprocal", "wrong_value", [
    (r"\frac{3}{4}", r"\boxed{\frac{4}{3}}"),
    (r"\frac{2}{5}", r"\boxed{2.5}"),
    (r"0.2", r"\boxed{5}"),
    (r"\frac{1}{8}", r"\boxed{8}"),
    (r"\frac{7}{3}", r"\boxed{\frac{3}{7}}"),
    (r"-\frac{1}{2}", r"\boxed{-2}"),
])

fam("exponent_slip", "wrong_value", [
    (r"2^{10}", r"\boxed{2^{11}}"),
    (r"1024", r"\boxed{2^{9}}"),
    (r"x^{3}", r"\boxed{x^{2}}"),
    (r"10^{-3}", r"\boxed{10^{3}}"),
    (r"e^{-2}", r"\boxed{e^{2}}"),
    (r"3^{-1}", r"\boxed{3}"),
])

fam("unit_dimension", "wrong_value", [
    (r"60 \text{ km}", r"\boxed{60 \text{ km/h}}"),
    (r"5 \text{ m/s}", r"\boxed{5 \text{ m}}"),
    (r"9.8 \text{ m/s}^2", r"\boxed{9.8 \text{ m/s}}"),
    (r"100 \text{ J}", r"\boxed{100 \text{ W}}"),
    (r"3 \text{ N}", r"\boxed{3 \text{ kg}}"),
    (r"20 \text{ L}", r"\boxed{20 \text{ kg}}"),
])

fam("negative_exponent_decimal", "wrong_value", [
    (r"0.001", r"\boxed{0.01}"),
    (r"0.0005", r"\boxed{0.005}"),
    (r"5 \times 10^{-4}", r"\boxed{0.005}"),
    (r"0.3", r"\boxed{0.03}"),
    (r"1.2 \times 10^{-2}", r"\boxed{0.12}"),
    (r"0.07", r"\boxed{0.7}"),
])

fam("ratio_scaled_wrong", "wrong_value", [
    (r"3:5", r"\boxed{5:3}"),
    (r"2:3:4", r"\boxed{2:4:3}"),
    (r"1:2", r"\boxed{2}"),
    (r"4:1", r"\boxed{1:4}"),
    (r"3:2", r"\boxed{3:4}"),
    (r"5:7", r"\boxed{7:5}"),
])

fam("digit_answer_text", "wrong_value", [
    (r"\text{seven}", r"\boxed{8}"),
    (r"12", r"\boxed{\text{eleven}}"),
    (r"\text{three hundred}", r"\boxed{30}"),
    (r"1000000", r"\boxed{\text{one billion}}"),
    (r"\text{seven}", r"\boxed{\text{six}}"),
    (r"\text{half}", r"\boxed{\frac{1}{3}}"),
])

# =====================================================================================
# (A) COVER
# =====================================================================================
fam("interval_for_point", "cover", [
    (r"3", r"\boxed{[2.9, 3.1]}"),
    (r"0.5", r"\boxed{(0.4, 0.6)}"),
    (r"7", r"So $x \in [6, 8]$, i.e. $\boxed{[6,8]}$."),
    (r"\frac{1}{3}", r"\boxed{\left(0, \tfrac12\right)}"),
    (r"10", r"\boxed{[10, 11)}"),
    (r"2", r"\boxed{[2, 3]}"),
])

fam("bound_words", "cover", [
    (r"5", r"\boxed{\ge 5}"),
    (r"5", r"The answer is at least 5."),
    (r"12", r"\boxed{\le 12}"),
    (r"12", r"**Answer:** no more than 12"),
    (r"100", r"\boxed{\text{more than } 99}"),
    (r"7", r"\boxed{n \geq 7}"),
])

fam("general_solution", "cover", [
    (r"\frac{\pi}{2}", r"\boxed{\frac{\pi}{2} + 2k\pi}"),
    (r"0", r"\boxed{k\pi, \ k \in \mathbb{Z}}"),
    (r"12", r"\boxed{12k}"),
    (r"3", r"\boxed{3 + 7n}"),
    (r"\frac{\pi}{4}", r"\boxed{\frac{\pi}{4} + n\pi}"),
    (r"6", r"\boxed{\text{any multiple of } 6}"),
])

PIECEWISE = r"\boxed{\begin{cases} 3 & n \text{ even} \\ 4 & n \text{ odd} \end{cases}}"
IFEVEN = r"If $n$ is even the answer is $\boxed{3}$; if $n$ is odd it is $\boxed{4}$."
fam("piecewise_cover", "cover", [
    (r"3", PIECEWISE),
    (r"4", PIECEWISE),
    (r"3", IFEVEN),
    (r"4", IFEVEN),
    (r"0", r"\boxed{0 \text{ if } a = 0, \text{ otherwise } 1}"),
    (r"1", r"\boxed{0 \text{ if } a = 0, \text{ otherwise } 1}"),
    (r"2", r"It depends on the sign: $\boxed{2}$ when $k>0$ and $\boxed{-2}$ when $k<0$."),
])

BOXFINAL = T(r"Adding them gives $\boxed{3}$.", "", "Final Answer: 4")
HASHSAYS = T("She pays 18 in total.", "#### 18", "", "The answer is: 20")
TAGBOLD = T("<answer>B</answer>", "", "**Answer:** C")
fam("box_label_disagree", "cover", [
    (r"3", BOXFINAL), (r"4", BOXFINAL),
    (r"18", HASHSAYS), (r"20", HASHSAYS),
    (r"B", TAGBOLD), (r"C", TAGBOLD),
])

DUAL1 = r"The probability is $\boxed{\frac{1}{2}}$ (i.e. $0.6$)."
DUAL2 = r"The fraction is $\boxed{\frac{3}{2}}$, which is $1.25$ in decimal form."
fam("dual_format_disagree", "cover", [
    (r"\frac{1}{2}", DUAL1), (r"0.6", DUAL1),
    (r"\frac{3}{2}", DUAL2), (r"1.25", DUAL2),
    (r"25\%", r"\boxed{25\%} \text{ (that is, } \frac{1}{3} \text{ of the class)}"),
    (r"\frac{1}{3}", r"\boxed{25\%} \text{ (that is, } \frac{1}{3} \text{ of the class)}"),
])

EQV = r"The answer is $\boxed{6}$, or equivalently $\boxed{8}$."
EQV2 = r"$\boxed{\frac34}$, or equivalently $0.8$."
fam("equivalently_cover", "cover", [
    (r"6", EQV), (r"8", EQV),
    (r"\frac{3}{4}", EQV2), (r"0.8", EQV2),
    (r"2", r"So $x = 2$, equivalently $\boxed{x = -2}$."),
    (r"-2", r"So $\boxed{x = 2}$, equivalently $x = -2$."),
])

fam("mc_multi_letter", "cover", [
    (r"B", r"\boxed{B/C}"),
    (r"C", r"\boxed{BC}"),
    (r"A", r"\boxed{A \text{ or } D}"),
    (r"D", r"The answer is (A) or (D)."),
    (r"B", r"\boxed{B, C}"),
    (r"E", r"\boxed{\text{D and E}}"),
])

fam("yes_no_hedge", "cover", [
    (r"\text{Yes}", r"\boxed{\text{Yes or No}}"),
    (r"\text{No}", r"\boxed{\text{Yes/No}}"),
    (r"\text{True}", r"\boxed{\text{True/False}}"),
    (r"Yes", r"**Answer:** Yes or no, depending on the interpretation."),
    (r"No", r"$\boxed{\text{Yes}}$ or $\boxed{\text{No}}$"),
    (r"\text{False}", r"\boxed{\text{True or False}}"),
])

UH = r"\boxed{5 \text{ m (or } 5 \text{ km)}}"
fam("unit_hedge", "cover", [
    (r"5 \text{ m}", UH), (r"5 \text{ km}", UH),
    (r"\$12", r"\boxed{12} \text{ dollars or euros}"),
    (r"12 \text{ euros}", r"\boxed{12} \text{ dollars or euros}"),
    (r"30 \text{ minutes}", r"\boxed{30 \text{ minutes or seconds}}"),
    (r"30 \text{ seconds}", r"\boxed{30 \text{ minutes or seconds}}"),
])

fam("order_of_magnitude", "cover", [
    (r"1000", r"\boxed{\sim 10^3}"),
    (r"1000", r"\boxed{\mathcal{O}(10^3)}"),
    (r"5000", r"\boxed{\text{a few thousand}}"),
    (r"1000", r"\boxed{10^{3 \pm 1}}"),
    (r"1000", r"\boxed{\approx 10^3}"),
    (r"100", r"On the order of $\boxed{10^2}$."),
])

fam("inequality_for_point", "cover", [
    (r"4", r"\boxed{3 < x < 5}"),
    (r"0", r"\boxed{-1 < x < 1}"),
    (r"2", r"\boxed{x > 1}"),
    (r"10", r"$\boxed{9 \le n \le 11}$"),
    (r"-3", r"\boxed{x<0}"),
    (r"1", r"\boxed{|x - 1| < 0.1}"),
])

QUAD = r"\boxed{x^2 - 5x + 6 = 0}"
fam("equation_for_value", "cover", [
    (r"3", r"\boxed{|x| = 3}"),
    (r"-3", r"\boxed{|x| = 3}"),
    (r"5", r"\boxed{x^2 = 25}"),
    (r"2", QUAD), (r"3", QUAD),
    (r"\sqrt{2}", r"\boxed{x^2=2}"),
])

NEST = r"\boxed{\boxed{3} \text{ or } \boxed{4}}"
fam("nested_box_cover", "cover", [
    (r"3", NEST), (r"4", NEST),
    (r"3", r"\boxed{3 \text{ (or } \boxed{4})}"),
    (r"5", r"$\fbox{5}$ \quad $\boxed{6}$"),
    (r"6", r"$\fbox{5}$ \quad $\boxed{6}$"),
    (r"1", T(r"$\boxed{1}$ \\", r"$\boxed{2}$")),
])

fam("value_list_for_single", "cover", [
    (r"4", r"\boxed{1, 2, 3, 4}"),
    (r"2", r"\boxed{\{2, 3\}}"),
    (r"5", r"The possible values are $5$ and $7$, so $\boxed{5, 7}$."),
    (r"-1", r"\boxed{x = -1, 2}"),
    (r"B", r"\boxed{A, B, C}"),
    (r"\frac12", r"\boxed{\frac12, \frac13}"),
])

fam("tolerance_words", "cover", [
    (r"9.8", r"\boxed{9.8 \text{ give or take } 0.1}"),
    (r"9.8", r"\boxed{9.8} (within 5\%)"),
    (r"100", r"$\boxed{100}$, plus or minus a few."),
    (r"3.14", r"\boxed{3.14 \pm 0.01}"),
    (r"50", r"\boxed{50 \text{ (roughly)}}"),
    (r"2.5", r"\boxed{2.5 \text{ to } 3}"),
])

fam("ellipsis_cover", "cover", [
    (r"4", r"\boxed{4, 5, 6, \ldots}"),
    (r"1", r"\boxed{1, 2, 3, \dots}"),
    (r"0", r"\boxed{0, \pm1, \pm2, \ldots}"),
    (r"2", r"\boxed{2, 4, 6, \ldots}"),
    (r"\frac{1}{2}", r"\boxed{\frac12, \frac14, \frac18, \ldots}"),
    (r"3", r"\boxed{3, 6, 9, \cdots}"),
])

fam("mixed_sign_box", "cover", [
    (r"5", r"\boxed{\pm 5}"),
    (r"-5", r"\boxed{5 \text{ or } -5}"),
    (r"\sqrt{3}", r"\boxed{\pm\sqrt{3}}"),
    (r"2", r"\boxed{x = \pm 2}"),
    (r"-1", r"\boxed{\mp 1}"),
    (r"7", r"\boxed{|7|\text{ or }-7}"),
])

# =====================================================================================
# (B) CORRECT — ordinary endings of published models
# =====================================================================================
REASON = "First we compute $3 \\times 4 = 12$, then add $6$ to get the result.\n\n"

# Qwen2.5-Math style
fam("qwen_boxed_therefore", "correct", [
    (r"18", REASON + r"Therefore, the final answer is $\boxed{18}$."),
    (r"\frac{3}{4}", REASON + r"Therefore, the final answer is $\boxed{\frac{3}{4}}$."),
    (r"2\sqrt{3}", REASON + r"Thus, the length of the side is $\boxed{2\sqrt{3}}$."),
    (r"[2, 5)", REASON + r"So the domain is $\boxed{[2, 5)}$."),
    (r"(1, -2)", REASON + r"Hence the intersection point is $\boxed{(1, -2)}$."),
    (r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}",
     REASON + r"Therefore, the matrix is $\boxed{\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}}$."),
    (r"y = 2x + 3", REASON + r"The equation of the line is $\boxed{y = 2x + 3}$."),
])

THINK = ("<think>\nOkay, let's see. The problem asks for the value. Hmm, maybe 12? Wait, no, "
         "I forgot to add 6. Let me recheck: 12 + 6 = 18. Yes.\n</think>\n\n"
         "To solve the problem, we multiply and then add.\n\n")
fam("r1_distill_final", "correct", [
    (r"18", THINK + T("**Final Answer**", r"\[", r"\boxed{18}", r"\]")),
    (r"\frac{3}{4}", THINK + T("**Final Answer**", r"The probability is \boxed{\dfrac{3}{4}}.")),
    (r"\{1, 3\}", THINK + T("**Final Answer**", r"The solutions are \boxed{1} and \boxed{3}.")),
    (r"-\frac{1}{2}", THINK + T("**Final Answer**", r"\boxed{-\dfrac{1}{2}}")),
    (r"B", THINK + T("**Final Answer**", r"\boxed{B}")),
    (r"45^\circ", THINK + T("**Final Answer**", r"The measure of angle $ABC$ is \boxed{45^\circ}.")),
])

fam("llama3_step_final", "correct", [
    (r"18", T("## Step 1: Multiply", "3 * 4 = 12.", "", "## Step 2: Add", "12 + 6 = 18.", "",
              r"The final answer is: $\boxed{18}$")),
    (r"\frac{5}{12}", T("## Step 1: Count outcomes", "There are 12 outcomes.", "",
                        r"The final answer is: $\boxed{\frac{5}{12}}$")),
    (r"7", T("## Step 1: Solve", "x = 7.", "", r"The final answer is $\boxed{7}$.")),
    (r"(-\infty, 3]", T("## Step 1: Solve the inequality", "x <= 3.", "",
                        r"The final answer is: $\boxed{(-\infty, 3]}$")),
    (r"\text{(C)}", T("## Step 1: Check the options", "Only C works.", "", r"The final answer is: $\boxed{C}$")),
    (r"1250", T("## Step 1: Total cost", "250 * 5 = 1250.", "", r"The final answer is: $\boxed{1250}$")),
])

MIN = "Solution: We have $x = 3\\cdot 4 + 6$.\n"
fam("minerva_hope_style", "correct", [
    (r"18", MIN + "Final Answer: The final answer is $18$. I hope it is correct."),
    (r"\frac{3}{4}", MIN + "Final Answer: The final answer is $\\frac{3}{4}$. I hope it is correct."),
    (r"2\sqrt{3}", MIN + "Final Answer: The final answer is $2\\sqrt{3}$. I hope it is correct."),
    (r"(1, -2)", MIN + "Final Answer: The final answer is $(1,-2)$. I hope it is correct."),
    (r"x^2 - 1", MIN + "Final Answer: The final answer is $x^2-1$. I hope it is correct."),
    (r"\text{(D)}", MIN + "Final Answer: The final answer is $\\text{(D)}$. I hope it is correct."),
])

fam("gsm8k_hash_style", "correct", [
    (r"72", T("Natalia sold 48/2 = <<48/2=24>>24 clips in May.",
              "Natalia sold 48+24 = <<48+24=72>>72 clips altogether in April and May.", "#### 72")),
    (r"10", T("Weng earns 12/60 = $<<12/60=0.2>>0.2 per minute.",
              "Working 50 minutes, she earned 0.2 x 50 = $<<0.2*50=10>>10.", "#### 10")),
    (r"1250", T("He pays 250*5 = <<250*5=1250>>1,250 dollars.", "#### 1,250")),
    (r"5", T("Betty has 100/2 = <<100/2=50>>50 dollars. She needs 5 more.", "#### 5")),
    (r"42", T("The total is 6*7 = 42.", "#### 42", "")),
    (r"0.5", T("Half of the pie is left, so 1 - 0.5 = 0.5.", "#### 0.5")),
])

fam("answer_xml_style", "correct", [
    (r"18", T("<reasoning>", "3*4 = 12, plus 6 is 18.", "</reasoning>", "<answer>", "18", "</answer>")),
    (r"\frac{3}{4}", T("<reasoning>Count the favourable cases.</reasoning>", r"<answer>\frac{3}{4}</answer>")),
    (r"B", T("<think>Option B satisfies both conditions.</think>", "<answer>B</answer>")),
    (r"(1, -2)", T("<think>Substitute back.</think>", "<answer>(1, -2)</answer>")),
    (r"12.5", T("<reasoning>25/2 = 12.5</reasoning>", "<answer>12.5</answer>")),
    (r"2\sqrt{3}", T("<think>Pythagoras.</think>", r"<answer>$2\sqrt{3}$</answer>")),
])

fam("bold_answer_label_style", "correct", [
    (r"18", REASON + "**Answer:** 18"),
    (r"\frac{3}{4}", REASON + r"**Answer:** $\frac{3}{4}$"),
    (r"\$45", REASON + r"**Answer:** \$45"),
    (r"x = 4", REASON + r"**Answer:** $x = 4$"),
    (r"C", REASON + "**Answer:** (C)"),
    (r"30", REASON + "**Answer: 30**"),
])

fam("metamath_answer_is", "correct", [
    (r"18", REASON + "The answer is: 18"),
    (r"\frac{3}{4}", REASON + "The answer is: \\frac{3}{4}"),
    (r"25", REASON + "The answer is: 25"),
    (r"-7", REASON + "The answer is: -7"),
    (r"\sqrt{2}", REASON + "The answer is: \\sqrt{2}"),
    (r"(2,3)", REASON + "The answer is: (2,3)"),
])

fam("box_then_words", "correct", [
    (r"1250", REASON + r"So she spends $\boxed{1250}$ dollars in total."),
    (r"18", REASON + r"Thus there are $\boxed{18}$ apples left in the basket, as required."),
    (r"5", REASON + r"It takes $\boxed{5}$ hours for the two pipes to fill the tank together."),
    (r"40", REASON + r"Therefore, $\boxed{40}$ percent of the students passed."),
    (r"12", REASON + r"Hence the rectangle has a perimeter of $\boxed{12}$ units, which matches the figure."),
    (r"3", REASON + r"So $x = \boxed{3}$ is the only value that works."),
])

fam("display_block_final", "correct", [
    (r"18", REASON + T("The final answer is", "$$", r"\boxed{18}", "$$")),
    (r"\frac{7}{2}", REASON + T("Therefore", r"\[", r"x = \boxed{\frac{7}{2}}", r"\]")),
    (r"\begin{pmatrix} 2 \\ -1 \end{pmatrix}", REASON + T("So", r"\[",
     r"\boxed{\begin{pmatrix} 2 \\ -1 \end{pmatrix}}", r"\]")),
    (r"4\pi", REASON + T("The area is", "$$", r"\boxed{4\pi}", "$$")),
    (r"3x^2 + 2x", REASON + T(r"\begin{align*}", r"f'(x) &= \boxed{3x^2 + 2x}", r"\end{align*}")),
    (r"\{-2, 2\}", REASON + T("The solution set is", r"\[", r"\boxed{\{-2, 2\}}", r"\]")),
])

fam("markdown_heading_final", "correct", [
    (r"18", REASON + T("### Final Answer", "", r"$$\boxed{18}$$")),
    (r"\frac{1}{6}", REASON + T("## Final Answer", r"The probability is $\boxed{\frac{1}{6}}$.")),
    (r"D", REASON + T("### Answer", r"$\boxed{\text{D}}$")),
    (r"60", REASON + T("---", "### Final Answer:", r"\[ \boxed{60} \]")),
    (r"y = -x + 5", REASON + T("### Conclusion", r"The line is $\boxed{y = -x + 5}$.")),
    (r"0.25", REASON + T("#### Result", r"$\boxed{0.25}$")),
])

fam("bullet_summary_final", "correct", [
    (r"18", T("- Apples bought: 12", "- Apples given: 6 more", r"- **Total:** $\boxed{18}$")),
    (r"\frac{2}{3}", T("* Favourable: 4", "* Total: 6", r"* **Probability:** $\boxed{\frac{2}{3}}$")),
    (r"7", T("1. Subtract 3 from both sides.", "2. Divide by 2.", r"3. So $x = \boxed{7}$.")),
    (r"\$30", T("- Shirt: \\$20", "- Socks: \\$10", r"- **Total cost:** $\boxed{\$30}$")),
    (r"(3, 1)", T("- $x = 3$", "- $y = 1$", r"- Solution: $\boxed{(3, 1)}$")),
    (r"B", T("- (A) fails", "- (B) works", "- (C) fails", "", r"**Answer: $\boxed{B}$**")),
])

fam("closing_remark_after", "correct", [
    (r"18", REASON + r"$\boxed{18}$" + "\n\nThis is the final answer."),
    (r"\frac{3}{4}", REASON + r"\boxed{\frac{3}{4}}" + "\n\nThis makes sense because it lies between 0 and 1."),
    (r"12", REASON + r"The answer is $\boxed{12}$." + "\n\nLet me know if you have any questions!"),
    (r"5", REASON + r"Therefore $\boxed{5}$." + "\n\nNote: we assumed the rate is constant."),
    (r"2\sqrt{3}", REASON + r"$\boxed{2\sqrt{3}}$" + "\n\nWe can verify: $(2\\sqrt{3})^2 = 12$, consistent with the area."),  # noqa: E501
    (r"9", REASON + r"The final answer is $\boxed{9}$. I hope it is correct."),
])

fam("gpt4o_conclusion_style", "correct", [
    (r"18", REASON + T("### Conclusion:", r"The total number of apples is \( \boxed{18} \).")),
    (r"\frac{5}{8}", REASON + T("Thus, the probability is:", r"\[", r"\boxed{\frac{5}{8}}", r"\]")),
    (r"100", REASON + T(r"### Step 3: Final result", r"The car travels \( \boxed{100} \) km.")),
    (r"x^2+2x+1", REASON + T("So, the simplified expression is:", r"\[", r"\boxed{(x+1)^2}", r"\]")),
    (r"\$1{,}200", REASON + T(r"So, the total revenue is \( \boxed{\$1,200} \).")),
    (r"A", REASON + T("**Correct option: (A)**")),
])

fam("o1_plain_bold", "correct", [
    (r"18", REASON + "**18**"),
    (r"\frac{3}{4}", REASON + r"**Answer: \(\tfrac{3}{4}\)**"),
    (r"42", REASON + "Hence, the answer is **42**."),
    (r"7", REASON + "**Final answer: 7**"),
    (r"\sqrt{5}", REASON + r"So the distance is \(\sqrt{5}\)." + "\n\n**Answer:** \\(\\sqrt{5}\\)"),
    (r"C", REASON + "**Answer: (C)**"),
])

fam("phi_inline_paren_box", "correct", [
    (r"18", REASON + r"Therefore, the answer is \(\boxed{18}\)."),
    (r"\frac{1}{2}", REASON + r"Thus, \(\boxed{\frac{1}{2}}\) is the probability."),
    (r"-3", REASON + r"So \(x = \boxed{-3}\)."),
    (r"64", REASON + r"The final answer is \(\boxed{64}\)."),
    (r"[0, 1]", REASON + r"The range is \(\boxed{[0,1]}\)."),
    (r"\pi", REASON + r"The period is \(\boxed{\pi}\)."),
])

fam("mistral_final_sentence", "correct", [
    (r"18", REASON + "The final answer is 18."),
    (r"\frac{3}{4}", REASON + "The final answer is $\\frac{3}{4}$."),
    (r"5", REASON + "Final answer: 5"),
    (r"\text{(E)}", REASON + "The final answer is (E)."),
    (r"12", REASON + "The final answer is $12$ cm."),
    (r"0", REASON + "The final answer is 0."),
])

fam("gemma_final_box", "correct", [
    (r"18", REASON + r"**Final Answer:** The final answer is $\boxed{18}$"),
    (r"\frac{4}{9}", REASON + r"**Final Answer:** $\boxed{\frac{4}{9}}$"),
    (r"6", REASON + r"**Final Answer:** $\boxed{6}$ " + "\n"),
    (r"x = 2", REASON + r"**Final Answer:** $\boxed{x=2}$"),
    (r"15", REASON + "**Final Answer:** 15"),
    (r"(2, 5)", REASON + r"**Final Answer:** The point is $\boxed{(2, 5)}$."),
])

fam("smollm_terse", "correct", [
    (r"18", "18"),
    (r"18", "The answer is 18."),
    (r"\frac{3}{4}", r"$\frac{3}{4}$"),
    (r"7", "x = 7"),
    (r"B", "B"),
    (r"2.5", "Answer: 2.5"),
])

fam("unit_text_decor", "correct", [
    (r"18", r"\boxed{18 \text{ apples}}"),
    (r"12", r"\boxed{12\text{ cm}}"),
    (r"5", r"\boxed{5 \text{ hours}}"),
    (r"3", r"The answer is $\boxed{3\ \text{meters}}$."),
    (r"250", r"\boxed{250\,\mathrm{mL}}"),
    (r"60", r"She drove at $\boxed{60 \text{ mph}}$."),
    (r"16\pi", r"\boxed{16\pi \text{ cm}^2}"),
])

fam("money_decor", "correct", [
    (r"1250", r"\boxed{\$1{,}250}"),
    (r"1250", r"The total is \$1,250.00."),
    (r"1250", r"$\boxed{1250}$ dollars"),
    (r"1250", r"\$\boxed{1250}"),
    (r"7.5", r"\boxed{\$7.50}"),
    (r"\$7.50", r"\boxed{7.50}"),
    (r"\$45", r"She earns $\boxed{45}$ dollars."),
])

fam("thousands_sep", "correct", [
    (r"1000000", r"\boxed{1{,}000{,}000}"),
    (r"1000000", r"\boxed{1,000,000}"),
    (r"1000000", r"\boxed{10^6}"),
    (r"2500", r"The answer is $\boxed{2,500}$."),
    (r"12345", r"#### 12,345"),
    (r"1,024", r"\boxed{1024}"),
])

fam("degree_circ_decor", "correct", [
    (r"45", r"\boxed{45^\circ}"),
    (r"45", r"The angle is 45°."),
    (r"45", r"\boxed{45^{\circ}}"),
    (r"45", r"\boxed{45\degree}"),
    (r"45^\circ", r"\boxed{45}"),
    (r"120^\circ", r"\boxed{120 \text{ degrees}}"),
])

fam("percent_decor", "correct", [
    (r"12.5\%", r"\boxed{12.5\%}"),
    (r"12.5\%", r"The answer is 12.5%."),
    (r"12.5\%", r"\boxed{12.5 \%}"),
    (r"12.5\%", r"\boxed{12.5 \text{ percent}}"),
    (r"40", r"\boxed{40\%}"),
    (r"40\%", r"\boxed{40}"),
])

fam("frac_macro_forms", "correct", [
    (r"\frac{3}{4}", r"\boxed{\dfrac{3}{4}}"),
    (r"\frac{3}{4}", r"\boxed{\tfrac34}"),
    (r"\frac{3}{4}", r"\boxed{3/4}"),
    (r"\frac{3}{4}", r"\boxed{\frac34}"),
    (r"\frac{3}{4}", r"\boxed{0.75}"),
    (r"\frac{3}{4}", r"\boxed{\frac{6}{8}}"),
    (r"\dfrac{5}{2}", r"\boxed{2.5}"),
])

fam("mc_letter_forms", "correct", [
    (r"B", r"\boxed{\text{B}}"),
    (r"B", r"\boxed{(B)}"),
    (r"B", r"\boxed{\textbf{(B)}}"),
    (r"B", r"The correct option is **B**."),
    (r"\text{(C)}", r"\boxed{C}"),
    (r"\textbf{(A)}", r"\boxed{A}"),
    (r"D", r"\boxed{\text{(D)}}"),
])

fam("interval_forms", "correct", [
    (r"[2, 5)", r"\boxed{[2,5)}"),
    (r"[2, 5)", r"\boxed{\left[2, 5\right)}"),
    (r"[2, 5)", r"\boxed{2 \le x < 5}"),
    (r"[2, 5)", r"\boxed{x \in [2, 5)}"),
    (r"(-\infty, 3]", r"\boxed{(-\infty,3]}"),
    (r"(0, \infty)", r"\boxed{(0, +\infty)}"),
])

fam("tuple_forms", "correct", [
    (r"(1, -2)", r"\boxed{(1,-2)}"),
    (r"(1, -2)", r"\boxed{\left(1, -2\right)}"),
    (r"(1, -2)", r"\boxed{(x, y) = (1, -2)}"),
    (r"(1, -2)", r"The solution is $(x, y) = \boxed{(1, -2)}$."),
    (r"(3, \frac{1}{2})", r"\boxed{\left(3, \dfrac{1}{2}\right)}"),
    (r"(0, 0, 1)", r"\boxed{(0,0,1)}"),
])

fam("set_forms", "correct", [
    (r"\{1, 3\}", r"\boxed{\{1,3\}}"),
    (r"\{1, 3\}", r"\boxed{\{3, 1\}}"),
    (r"\{1, 3\}", r"\boxed{1, 3}"),
    (r"\{1, 3\}", r"\boxed{\left\{1, 3\right\}}"),
    (r"1, 3", r"\boxed{3, 1}"),
    (r"-2, 2", r"\boxed{\pm 2}"),
])

fam("matrix_forms", "correct", [
    (r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}", r"\boxed{\begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix}}"),
    (r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}", r"\boxed{\begin{pmatrix}1&2\\3&4\end{pmatrix}}"),
    (r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}",
     r"\boxed{\left(\begin{array}{cc} 1 & 2 \\ 3 & 4 \end{array}\right)}"),
    (r"\begin{pmatrix} 2 & 0 \\ 0 & 2 \end{pmatrix}", r"\boxed{\begin{pmatrix} 2 & 0 \\ 0 & 2 \end{pmatrix}}"),
    (r"\begin{pmatrix} 1/2 \\ -1 \end{pmatrix}", r"\boxed{\begin{pmatrix} \frac{1}{2} \\ -1 \end{pmatrix}}"),
    (r"\begin{pmatrix} 0.5 & 1 \\ 1 & 0 \end{pmatrix}", r"\boxed{\begin{pmatrix} \tfrac12 & 1 \\ 1 & 0 \end{pmatrix}}"),
])

fam("equation_forms", "correct", [
    (r"y = 2x + 3", r"\boxed{y=2x+3}"),
    (r"y = 2x + 3", r"\boxed{y = 3 + 2x}"),
    (r"x^2 + y^2 = 25", r"\boxed{x^2+y^2=25}"),
    (r"x^2 + y^2 = 25", r"The equation is $\boxed{y^2 + x^2 = 25}$."),
    (r"y = -\frac{1}{2}x + 4", r"\boxed{y = -\tfrac{1}{2}x + 4}"),
    (r"x = 4", r"\boxed{x=4}"),
])

fam("expression_equiv", "correct", [
    (r"2\sqrt{3}", r"\boxed{\sqrt{12}}"),
    (r"2\sqrt{3}", r"\boxed{2 \sqrt 3}"),
    (r"x^2 - 1", r"\boxed{(x-1)(x+1)}"),
    (r"\frac{\sqrt{2}}{2}", r"\boxed{\frac{1}{\sqrt{2}}}"),
    (r"\frac{\pi}{6}", r"\boxed{\pi/6}"),
    (r"2^{10}", r"\boxed{1024}"),
    (r"\binom{10}{3}", r"\boxed{120}"),
])

fam("decimal_forms", "correct", [
    (r"2.5", r"\boxed{2.50}"),
    (r"3", r"\boxed{3.0}"),
    (r"0.5", r"\boxed{.5}"),
    (r"-\frac{1}{2}", r"\boxed{-0.5}"),
    (r"-\frac{1}{2}", r"\boxed{\frac{-1}{2}}"),
    (r"\frac{1}{3}", r"\boxed{0.\overline{3}}"),
])

fam("text_wrapped", "correct", [
    (r"\text{Tuesday}", r"\boxed{\text{Tuesday}}"),
    (r"\text{Yes}", r"\boxed{\text{Yes}}"),
    (r"Yes", r"**Answer:** Yes"),
    (r"\text{No}", r"The answer is $\boxed{\text{No}}$."),
    (r"\text{even}", r"\boxed{\text{even}}"),
    (r"3:00 \text{ PM}", r"\boxed{3:00 \text{ PM}}"),
])

fam("complex_forms", "correct", [
    (r"\begin{pmatrix} 2 & 0 \\ 0 & 2 \end{pmatrix}", r"\boxed{\begin{pmatrix} 2 & 0 \\ 0 & 2 \end{pmatrix}}"),
    (r"3+4i", r"\boxed{4i + 3}"),
    (r"1 - i", r"\boxed{-i + 1}"),
    (r"\frac{1}{2} + \frac{\sqrt{3}}{2}i", r"\boxed{\frac{1 + i\sqrt{3}}{2}}"),
    (r"5i", r"\boxed{5i}"),
    (r"-2i", r"\boxed{-2 i}"),
])

BLIND_COUNT = len(_ROWS4)

# =====================================================================================
# ADAPTIVE (written after reading src/) — appended below
# =====================================================================================
_C1 = r"\frac{4588020321161446124491122}{1396758339281173135178237}"
_C2 = r"\frac{10263645195189665148151950}{3872995011645345412501981}"

fam("adaptive_probe_collision", "wrong_value", [
    (r"x", rf"\boxed{{x + (x - {_C1})(x - {_C2})}}"),
    (r"2x + 1", rf"\boxed{{2x + 1 + (x - {_C1})(x - {_C2})}}"),
    (r"x^2", rf"\boxed{{x^2 - (x - {_C1})(x - {_C2})}}"),
    (r"3\pi", rf"\boxed{{3\pi + (\pi - {_C1})(\pi - {_C2})}}"),
    (r"\frac{1}{x}", rf"\boxed{{\frac{{1}}{{x}} + (x - {_C1})(x - {_C2})}}"),
    (r"y = 2x + 1", rf"\boxed{{y = 2x + 1 + (x - {_C1})(x - {_C2})}}"),
])

fam("adaptive_box_as_term", "wrong_value", [
    (r"12", r"$x = -\boxed{12}$"),
    (r"12", r"$\frac{1}{\boxed{12}}$"),
    (r"16", r"$\sqrt{\boxed{16}}$"),
    (r"12", r"$\boxed{12}^2$"),
    (r"3", r"$2\boxed{3}$"),
    (r"12", r"$\boxed{12} \times 10^{3}$"),
    (r"5", r"The answer is $-\boxed{5}$."),
])

fam("adaptive_scale_words", "wrong_value", [
    (r"5", r"\boxed{5 \text{ million}}"),
    (r"3", r"\boxed{3\text{ thousand}}"),
    (r"18", r"\boxed{18 \text{ dozen}}"),
    (r"2", r"The population is $\boxed{2}$ billion."),
    (r"7", r"\boxed{7 \times 10^{6}}"),
    (r"4", r"\boxed{4\text{k}}"),
])

fam("adaptive_decimal_in_structure", "wrong_value", [
    (r"\{0.1, 0.2\}", r"\boxed{\{0.1000001, 0.2\}}"),
    (r"\{1, 2\}", r"\boxed{\{1.0000001, 2\}}"),
    (r"y = 2x + 0.5", r"\boxed{y = 2x + 0.5000001}"),
    (r"0.5x", r"\boxed{0.5000001x}"),
    (r"0.5 + i", r"\boxed{0.5000001 + i}"),
    (r"3+4i", r"\boxed{3.0000001+4i}"),
    (r"\begin{pmatrix} 0.1 \\ 0.2 \end{pmatrix}", r"\boxed{\begin{pmatrix} 0.1000001 \\ 0.2 \end{pmatrix}}"),
])

fam("adaptive_tiny_term_symbolic", "wrong_value", [
    (r"x + 10^{-30}", r"\boxed{x}"),
    (r"x", r"\boxed{x + 10^{-30}}"),
    (r"e^{-50}x", r"\boxed{e^{-51}x}"),
    (r"x^{21}", r"\boxed{x^{21} + 10^{-25}}"),
    (r"\sin x", r"\boxed{\sin x + e^{-60}}"),
    (r"\{1, 2\}", r"\boxed{\{1 + 10^{-30}, 2\}}"),
])

fam("adaptive_approx_named", "cover", [
    (r"3", r"\boxed{x \approx 3}"),
    (r"10", r"$x \approx \boxed{10}$"),
    (r"2.5", r"The answer is $x \approx 2.5$."),
    (r"7", r"Therefore we find that $n \approx 7$."),
    (r"12", r"\boxed{d \approx 12}"),
    (r"100", r"So $N \sim \boxed{100}$."),
])

fam("adaptive_lead_eq_fallback", "cover", [
    (r"5", r"$x = 3 \text{ or } x = \boxed{5}$"),
    (r"5", r"$x = -5, \; x = \boxed{5}$"),
    (r"5", r"$x = 3$ or $x = \boxed{5}$"),
    (r"5", r"$x = 3 \text{ (or possibly) } x = \boxed{5}$"),
    (r"5", r"$x = 3 \lor x = \boxed{5}$"),
    (r"5", r"$x \in \{3, \boxed{5}\}$"),
])

fam("adaptive_counted_hedge", "cover", [
    (r"12", "We count the cases.\n\nTherefore there are 12 or 13 sequences."),
    (r"12", "We count the cases.\n\nSo there are at least 12 such sequences."),
    (r"12", "We count the cases.\n\nThus there are roughly 12 sequences."),
    (r"12", "We count the cases.\n\nHence there are 12 to 14 valid sequences."),
    (r"12", "We count the cases.\n\nIn total there are about 12 sequences that work."),
    (r"12", "We count the cases.\n\nThere are 12 sequences, give or take one."),
])

fam("adaptive_box_rest_hedge", "cover", [
    (r"12", r"$\boxed{12}$ or so."),
    (r"12", r"$\boxed{12}$, give or take."),
    (r"12", r"$\boxed{12}$ (approximately)."),
    (r"12", r"$\boxed{12}$ plus or minus one."),
    (r"12", r"$\boxed{12}$ if $n$ is even."),
    (r"12", r"$\boxed{12}$, or thereabouts."),
    (r"12", r"$\boxed{12}$ roughly."),
    (r"12", r"$\boxed{12}$ (the other root, $-12$, also satisfies the equation)."),
    (r"12", r"$\boxed{12}$ apples, assuming whole apples; otherwise twelve and a half."),
    (r"12", r"$\boxed{12}$ in one reading of the problem and $13$ in the other."),
])

fam("adaptive_text_cover", "cover", [
    (r"\text{Tuesday}", r"\boxed{\text{Tuesday or Wednesday}}"),
    (r"\text{Tuesday}", r"\boxed{\text{Tuesday/Wednesday}}"),
    (r"\text{odd}", r"\boxed{\text{odd or even}}"),
    (r"\text{Alice}", r"\boxed{\text{Alice and Bob}}"),
    (r"\text{Yes}", r"\boxed{\text{Yes (sometimes no)}}"),
    (r"\text{even}", r"\boxed{\text{even or odd}}"),
])

fam("adaptive_text_negation", "wrong_value", [
    (r"\text{even}", r"\boxed{\text{not even}}"),
    (r"\text{increasing}", r"\boxed{\text{non-increasing}}"),
    (r"\text{increasing}", r"\boxed{\text{decreasing}}"),
    (r"\text{possible}", r"\boxed{\text{impossible}}"),
    (r"\text{convergent}", r"\boxed{\text{divergent}}"),
    (r"\text{Yes}", r"\boxed{\text{Not yes}}"),
])

fam("adaptive_modulus_mismatch", "wrong_value", [
    (r"3 \pmod{5}", r"\boxed{3 \pmod{7}}"),
    (r"3 \pmod{5}", r"$x \equiv \boxed{3} \pmod{7}$"),
    (r"x \equiv 2 \pmod{9}", r"\boxed{x \equiv 2 \pmod{7}}"),
    (r"x \equiv 2 \pmod{9}", r"\boxed{x \equiv 4 \pmod{9}}"),
    (r"4 \pmod{6}", r"\boxed{4}  \pmod{12}"),
    (r"n \equiv 1 \pmod{4}", r"\boxed{n \equiv 3 \pmod{4}}"),
])

# ---------------- adaptive must-be-1: ordinary endings the code might misread ----------------
fam("adaptive_noun_after_box", "correct", [
    (r"18", r"So she has $\boxed{18}$ apples left."),
    (r"18", r"$\boxed{18}$ cookies"),
    (r"40", r"Therefore, $\boxed{40}\%$ of the students passed."),
    (r"25", r"The answer is $\boxed{25}$ percent."),
    (r"7", r"She needs $\boxed{7}$ more boxes."),
    (r"3", r"It takes $\boxed{3}$ days in total."),
    (r"80", r"Margaret has $\boxed{80}$ more beads than Jane."),
    (r"12", r"There are $\boxed{12}$ students in the club, which is half the class."),
])

fam("adaptive_check_after_box", "correct", [
    (r"18", "$\\boxed{18}$\n\nCheck: $12 + 6 = 18$ \u2713"),
    (r"7", "$x = \\boxed{7}$\n\nVerification: $2(7) + 3 = 17$, which matches the given equation."),
    (r"\frac{3}{4}", "$\\boxed{\\frac34}$\n\nThis is reasonable since $0 < \\frac34 < 1$."),
    (r"5", "$\\boxed{5}$\n\nSo it takes 5 hours."),
    (r"1250", "#### 1250\n\nShe spends $1,250 in total."),
    (r"9", "The final answer is $\\boxed{9}$.\n\nDouble-checking: $3^2 = 9$. \u2705"),
])

fam("adaptive_approx_after_exact", "correct", [
    (r"\frac{2}{3}", r"\boxed{\frac{2}{3} \approx 0.6667}"),
    (r"\frac{2}{3}", r"$\boxed{\frac{2}{3}}$ (approximately $0.667$)."),
    (r"5\sqrt{2}", r"\boxed{5\sqrt{2} \approx 7.07}"),
    (r"\pi", r"$\boxed{\pi} \approx 3.14$"),
    (r"\frac{1}{3}", r"The probability is $\frac{1}{3} \approx 0.333$, so the answer is $\boxed{\frac13}$."),
    (r"4\pi", r"The area is $\boxed{4\pi} \approx 12.57$ square units."),
])

fam("adaptive_money_forms", "correct", [
    (r"1250", r"$\$\boxed{1,250}$"),
    (r"1250", r"The total cost is $\$\boxed{1250}$."),
    (r"1250", r"\boxed{1250\text{ dollars}}"),
    (r"1250", r"\boxed{\$1,250.00}"),
    (r"1250", "He pays 250 * 5 = 1250 dollars.\n#### $1,250"),
    (r"1250", r"Final Answer: The final answer is $\$1250$. I hope it is correct."),
])

fam("adaptive_unit_reference_forms", "correct", [
    (r"5 \text{ kHz}", r"\boxed{5 \text{ kHz}}"),
    (r"100 \text{ J}", r"\boxed{100 \text{ J}}"),
    (r"3 \text{ N}", r"The force is $\boxed{3\text{ N}}$."),
    (r"3:00 \text{ PM}", r"\boxed{\text{3:00 PM}}"),
    (r"250 \text{ ms}", r"\boxed{250 \text{ ms}}"),
    (r"18 \text{ apples}", r"\boxed{18}"),
])

fam("adaptive_relation_for_interval", "correct", [
    (r"(-\infty, 3]", r"\boxed{x \le 3}"),
    (r"(3, \infty)", r"The solution is $\boxed{x > 3}$."),
    (r"x > 3", r"\boxed{(3, \infty)}"),
    (r"x \le 3", r"\boxed{(-\infty, 3]}"),
    (r"[-1, 4]", r"\boxed{-1 \le x \le 4}"),
    (r"\frac{\pi}{4}", r"\boxed{45^\circ}"),
])

fam("adaptive_named_value", "correct", [
    (r"7", r"\boxed{x = 7}"),
    (r"7", r"$n = \boxed{7}$"),
    (r"(2, 3)", r"\boxed{x = 2, y = 3}"),
    (r"\frac{1}{2}", r"$P(A) = \boxed{\frac{1}{2}}$"),
    (r"18", r"$\text{Total} = \boxed{18}$"),
    (r"6", r"Hence the length of the side is $AB = \boxed{6}$."),
])


# (family, reference, completion, math, exact)
ROWS: list[tuple[str, str, str, int, int | None]] = [(f, r, c, e, None) for f, r, c, e in _ROWS4]
