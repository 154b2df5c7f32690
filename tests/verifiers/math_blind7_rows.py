"""A seventh blind table for the math verifier, written blind from the spec: neither the
verifier's source nor the rows of the other tables were read while writing it; only
docs/verifiers.md (the documented contract) and the row format of the sixth table. Labels are
what a careful human grader decides from the completion and the reference alone, not a guess
at what the code does.

Families (FAMILY_KIND gives the kind of each):
  * correct answers in the forms real models write: a sentence after a marker, restatements and
    the same value in two forms (fraction and decimal, words and digits), markdown headings,
    JSON / YAML / XML-ish answer fields, tables, ``<answer>`` named in passing before the real
    tag, chat-template leftovers, LaTeX environments, world numbers (locale separators,
    scientific notation, fractions in words, mixed numbers, percentages, currencies, digits of
    other scripts, Chinese numerals), answers in eleven other languages, long ``<think>``
    transcripts with self-corrections, few-shot outputs that run on into an invented question,
    and references with units, descriptive words, intervals, sets, tuples and expressions;
  * wrong values in the same forms;
  * misreadings: the value written is not the bare number (lakh, crore, 万, 亿, k, M, thousand,
    a unit of another scale, per-mille, basis points);
  * covers: one completion payable for more than one reference value, hidden in those forms;
  * disowned: the right value stated and disowned (a word of falsity, a false equation);
    measured apart;
  * hedged: a single value stated with a hedge, a bound or a negation, in several languages;
    a careful grader would not pay it, but paying it earns nothing an honest answer would not,
    so these rows are measured apart (``test_math_blind7.py`` counts them).

Rows are (family, reference, completion, expected math reward, None).
"""

from __future__ import annotations

from blind_table import FamilyTable

KINDS = ("correct", "wrong_value", "misreading", "cover", "disowned", "hedged")
_TABLE = FamilyTable(KINDS)
ROWS, FAMILY_KIND, fam, row_id = _TABLE.rows, _TABLE.family_kind, _TABLE.fam, _TABLE.row_id


# =====================================================================================
# correct
fam("b7_sentence_after_marker_correct", "correct", [
    ("3", "The train covers 180 km at 60 km/h, so it needs 180 / 60 = 3 hours.\n\n"
          "Answer: The train arrives after 3 hours."),
    ("16", "Each box holds 4 pencils and there are 4 boxes: 4 * 4 = 16.\n\n"
           "Final answer: Priya has 16 pencils in total."),
    ("45", "The rectangle is 9 by 5, so the area is 9 * 5 = 45.\n\nAnswer: The garden covers 45 square metres."),
    ("6", "24 cupcakes shared among 4 friends gives 24 / 4 = 6.\n\nThe answer is: each friend gets 6 cupcakes."),
    ("1998", "She was born 28 years before 2026: 2026 - 28 = 1998.\n\nAnswer: She was born in 1998."),
    ("20", "The shirt costs $25 and is 20% off... no, the discount is $5 on $25, which is 5/25 = 20%.\n\n"
           "Answer: The discount is 20 percent."),
    ("8", "Liam reads 15 pages a day; 120 pages take 120 / 15 = 8 days.\n\n"
          "**Answer:** Liam finishes the book in 8 days."),
    ("72", "Three dozen is 36 and two of those is 72.\n\nFinal Answer: The bakery sold 72 muffins."),
])

fam("b7_two_forms_correct", "correct", [
    ("\\frac{3}{4}", "Three of the four tiles are blue.\n\nThe answer is $\\boxed{\\frac{3}{4}}$ (that is, 0.75)."),
    ("2.5", "Five litres poured into two jugs: 5 / 2.\n\n"
            "Answer: $\\frac{5}{2} = 2.5$ litres per jug, so the answer is $\\boxed{2.5}$."),
    ("12", "Answer: twelve (12)"),
    ("7", "So the answer is seven, i.e. $\\boxed{7}$."),
    ("0.2", "One of five outcomes works: $\\frac{1}{5}$.\n\nFinal answer: $\\boxed{0.2}$, which is $\\frac{1}{5}$."),
    ("150", "Two and a half hours is $2.5 \\times 60 = 150$ minutes.\n\nAnswer: $\\boxed{150}$ minutes (2.5 hours)."),
    ("\\frac{1}{8}", "Three fair coins all heads: $(1/2)^3$.\n\nThe probability is $\\boxed{\\frac{1}{8}} = 0.125$."),
    ("1000000", "Ten to the sixth power.\n\nAnswer: $\\boxed{1000000}$, one million."),
])

fam("b7_heading_answer_correct", "correct", [
    ("42", "We multiply 6 by 7.\n\n## Final answer\n\n42"),
    ("9", "Solving $x^2 = 81$ with $x > 0$ gives $x = 9$.\n\n### Answer\n\n$\\boxed{9}$"),
    ("\\frac{5}{6}", "The complement of rolling a six is 5/6.\n\n## Final Answer\n\n$$\\frac{5}{6}$$"),
    ("30", "The three angles sum to 180, so 180 - 90 - 60 = 30.\n\n# Final answer\nThe missing angle is 30 degrees."),
    ("11", "Count the primes up to 31: 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31.\n\n**Final Answer**\n\n11"),
    ("256", "$4^4 = 256$.\n\n#### Answer\n$$\n\\boxed{256}\n$$"),
])

fam("b7_structured_output_correct", "correct", [
    ("14", '```json\n{\n  "reasoning": "7 pairs of socks make 7 * 2 = 14 socks.",\n  "final_answer": 14\n}\n```'),
    ("\\frac{2}{3}", '{"answer": "2/3"}'),
    ("35", "```yaml\nreasoning: 5 weeks of 7 days is 35 days\nanswer: 35\n```"),
    ("35", "reasoning: 5 weeks of 7 days is 35 days\nanswer: 35"),
    ("18", "<response>\n  <reasoning>3 bags of 6 oranges is 18.</reasoning>\n  <answer>18</answer>\n</response>"),
    ("64", "| Step | Value |\n|---|---|\n| side | 8 |\n| area = side^2 | 64 |\n\n**Answer:** 64"),
    ("9", "Here is the computation.\n\n| Quantity | Value |\n|---|---|\n"
          "| Total | 27 |\n| Groups | 3 |\n| Per group | 9 |\n\n"
          "The answer is 9."),
    ("5", "We solve $2x + 1 = 11$.\n\\begin{equation*}\n\\boxed{x = 5}\n\\end{equation*}"),
    ("\\frac{7}{2}", "\\begin{align*}\n2y &= 7 \\\\\ny &= \\frac{7}{2}\n\\end{align*}\n"
                     "Therefore the answer is $\\boxed{\\frac{7}{2}}$."),
])

fam("b7_tags_and_templates_correct", "correct", [
    ("21", "The system asks for the final result inside <answer></answer>.\n"
           "3 groups of 7 students: 3 * 7 = 21.\n<answer>21</answer>"),
    ("4", "<think>I should wrap the result in an <answer> tag at the end. 12 / 3 = 4.</think>\n<answer>4</answer>"),
    ("13", "Adding 6 and 7 gives 13.\n\nThe answer is $\\boxed{13}$.<|im_end|>"),
    ("13", "Adding 6 and 7 gives 13.\n\nThe answer is $\\boxed{13}$.<|eot_id|>"),
    ("100", "<|im_start|>assistant\n25 * 4 = 100.\n\nThe answer is \\boxed{100}.<|im_end|>\n<|endoftext|>"),
    ("2", "The remainder of 17 divided by 5 is 2.\n\n**Final Answer:** $\\boxed{2}$</s>"),
])

fam("b7_world_numbers_correct", "correct", [
    ("1234567", "Adding the three districts gives 1,234,567 voters.\n\nAnswer: 1,234,567"),
    ("3.5", "La distancia es 7 km y se recorre en 2 horas: 7 / 2.\n\nRespuesta: 3,50"),
    ("12345.67", "Die Summe der Rechnungen ergibt:\n\nAntwort: 12.345,67"),
    ("2500", "Der Preis beträgt CHF 2'500.\n\nAntwort: 2'500"),
    ("6.02\\times 10^{23}", "One mole holds Avogadro's number of particles.\n\n"
                            "The answer is $\\boxed{6.02 \\times 10^{23}}$."),
    ("0.00012", "The probability is $1.2 \\times 10^{-4}$.\n\nAnswer: 1.2e-4"),
    ("\\frac{3}{4}", "Three of every four seats are taken.\n\nAnswer: three quarters"),
    ("\\frac{7}{2}", "Seven halves of a pizza is three and a half pizzas.\n\nThe answer is $\\boxed{3\\tfrac{1}{2}}$."),
    ("\\frac{11}{4}", "The board is two and three-quarter metres long.\n\nAnswer: 2 3/4"),
    ("45", "45 of 100 students chose blue, so the percentage is 45%.\n\nAnswer: 45%"),
    ("250", "The ticket costs ₹250.\n\nAnswer: ₹250"),
    ("8.4", "Four sandwiches at £2.10 each cost £8.40.\n\nAnswer: £8.40"),
    ("3000", "The bill is ¥3,000.\n\nThe answer is ¥3000."),
    ("45.9", "O total da compra é R$ 45,90.\n\nResposta: R$ 45,90"),
    ("42", "ناتج ضرب ٦ في ٧ هو ٤٢.\n\nالإجابة: ٤٢"),
    ("42", "6 गुणा 7 बराबर 42 है।\n\nउत्तर: ४२"),
    ("42", "６×７＝４２\n\n答え：４２"),
    ("42", "六乘以七等于四十二。\n\n答案是四十二。"),
    ("100000", "Total amount: ₹1,00,000\n\nAnswer: 1,00,000"),
])

fam("b7_non_english_correct", "correct", [
    ("15", "小明有 20 个苹果，吃了 5 个，还剩 20 - 5 = 15 个。\n\n所以答案是 $\\boxed{15}$。"),
    ("15", "20 - 5 = 15 なので、残りは 15 個です。\n\n答え：15個"),
    ("15", "Juan tenía 20 manzanas y comió 5: 20 - 5 = 15.\n\nLa respuesta es 15."),
    ("15", "Anna hatte 20 Äpfel und aß 5: 20 - 5 = 15.\n\nDie Antwort lautet: 15"),
    ("15", "Marie avait 20 pommes et en a mangé 5 : 20 - 5 = 15.\n\nLa réponse est 15."),
    ("15", "У Маши было 20 яблок, она съела 5: 20 - 5 = 15.\n\nОтвет: 15."),
    ("15", "राम के पास 20 सेब थे, उसने 5 खाए: 20 - 5 = 15.\n\nउत्तर: 15"),
    ("15", "Ayşe'nin 20 elması vardı, 5 tanesini yedi: 20 - 5 = 15.\n\nCevap: 15"),
    ("15", "Ana tinha 20 maçãs e comeu 5: 20 - 5 = 15.\n\nA resposta é 15."),
    ("15", "민수는 사과 20개 중 5개를 먹었습니다: 20 - 5 = 15.\n\n정답은 15입니다."),
    ("15", "كان لدى أحمد 20 تفاحة وأكل 5: 20 - 5 = 15.\n\nالإجابة: 15"),
    ("\\frac{1}{4}", "两枚硬币都是正面的概率是 $\\frac{1}{2} \\times \\frac{1}{2}$。\n\n【答案】$\\frac{1}{4}$"),
    ("8", "Решаем уравнение $x - 3 = 5$, откуда $x = 8$.\n\n**Ответ:** $\\boxed{8}$"),
])

fam("b7_think_transcript_correct", "correct", [
    ("25", "<think>\nWe want the sum 1 + 3 + 5 + 7 + 9. Let me add: 1 + 3 = 4, 4 + 5 = 9, 9 + 7 = 16, 16 + 9 = 24.\n"
           "Hmm, wait, 16 + 9 is 25, not 24. Let me recheck: 16 + 9 = 25. Yes, 25. Also the sum of the first n odd "
           "numbers is n^2 = 25. Good.\n</think>\n\nThe sum of the first five odd numbers is $\\boxed{25}$."),
    ("12", "<think>\nA dozen eggs, she uses 4 and buys 4 more... Actually no, re-reading: she starts with 12, uses 4, "
           "buys 4. 12 - 4 + 4 = 12. Maybe I misread and she buys 8? No, the problem says 4. So 12.\n</think>\n\n"
           "She still has 12 eggs.\n\n**Final Answer:** $\\boxed{12}$"),
    ("7", "<think>Let me think. 49 is 7 squared, so the square root is 7 (the principal root, not -7).</think>\n\n"
          "The answer is 7."),
    ("60", "<think>\nSpeed = distance / time = 150 / 2.5. 150 / 2.5 = 50? Let me recompute: 2.5 * 60 = 150. So 60.\n"
           "</think>\nThe car's average speed is 60 km/h.\n\nFinal answer: $\\boxed{60}$"),
    ("25", "First I get 1 + 3 + 5 + 7 + 9 = 24. Wait, I mis-added: 16 + 9 = 25, so the total is 25.\n\n"
           "The answer is $\\boxed{25}$."),
    ("9", "<think>\nx + 4 = 13 so x = 9.\n</think>\n\n<answer>9</answer>"),
    ("\\frac{1}{6}", "<think>\nThere are 36 outcomes, 6 of them doubles. 6/36 = 1/6. Could it be 1/36? No, that is one "
                     "specific double. 1/6.\n</think>\n\n"
                     "The probability of rolling doubles is $\\boxed{\\frac{1}{6}}$."),
])

fam("b7_fewshot_runon_correct", "correct", [
    ("12", "She has 5 + 7 = 12 apples. The answer is 12.\n\nQuestion: Tom has 3 pens and buys 4 more. "
           "How many pens does he have?"),
    ("12", "A: She has 5 + 7 = 12 apples. The answer is 12.\n\n"
           "Q: A farmer has 9 cows and sells 2. How many are left?\nA:"),
    ("30", "Each of the 5 boxes holds 6 toys, so 5 * 6 = 30.\n#### 30\n\nQuestion: A baker makes 4 trays"),
    ("18", "Answer: 3 * 6 = 18. The answer is 18.\n\nProblem 2: What is 7 + 8?"),
])

fam("b7_described_reference_correct", "correct", [
    ("5 \\text{ cm}", "The side of the square with area 25 cm^2 is 5 cm.\n\nThe answer is $\\boxed{5}$."),
    ("5 \\text{ cm}", "The radius is half the diameter of 10 cm.\n\nAnswer: 5 cm"),
    ("\\$12", "Three notebooks at $4 each cost $12.\n\nAnswer: $12"),
    ("\\$12", "Three notebooks at four dollars each.\n\nThe answer is $\\boxed{\\$12}$."),
    ("30\\%", "15 of the 50 marbles are red: 15 / 50 = 0.3.\n\nThe answer is $\\boxed{30\\%}$."),
    ("500 \\text{ BC}", "The city was founded 2525 years before 2025 AD, in 500 BC.\n\n"
                         "The city was founded in $\\boxed{500}$ BC."),
    ("3 \\text{ km north}", "She walks 5 km north and then 2 km south, ending 3 km north of the start.\n\n"
                             "Answer: 3 km north"),
    ("[2, 5)", "We need $x - 2 \\ge 0$ and $x < 5$.\n\nThe solution set is $\\boxed{[2, 5)}$."),
    ("[2, 5)", "Combining the two conditions gives $2 \\le x < 5$.\n\nAnswer: $x \\in [2, 5)$"),
    ("\\{1, 2, 3\\}", "The roots of $(x-1)(x-2)(x-3) = 0$ are 3, 1 and 2.\n\nThe answer is $\\boxed{\\{3, 1, 2\\}}$."),
    ("(2, -1)", "Adding the equations gives $x = 2$, then $y = -1$.\n\nThe solution is $(x, y) = \\boxed{(2, -1)}$."),
    ("x^2 + 2x + 1", "Expanding the square we get the polynomial.\n\nThe answer is $\\boxed{(x+1)^2}$."),
    ("90^\\circ", "The angle inscribed in a semicircle is a right angle.\n\nAnswer: $90^\\circ$"),
    ("2 \\text{ hours}", "120 minutes is two hours.\n\nThe answer is $\\boxed{120 \\text{ minutes}}$."),
])

# =====================================================================================
# wrong values in the same forms
fam("b7_sentence_after_marker_wrong", "wrong_value", [
    ("3", "The train covers 180 km at 60 km/h.\n\nAnswer: The train arrives after 4 hours."),
    ("16", "Each box holds 4 pencils and there are 4 boxes.\n\nFinal answer: Priya has 18 pencils in total."),
    ("1998", "2026 - 28.\n\nAnswer: She was born in 1988."),
    ("8", "120 pages at 15 a day.\n\n**Answer:** Liam finishes the book in 9 days."),
])

fam("b7_two_forms_wrong", "wrong_value", [
    ("\\frac{3}{4}", "The answer is $\\boxed{\\frac{2}{3}}$ (that is, 0.67)."),
    ("12", "Answer: eleven (11)"),
    ("0.2", "Final answer: $\\boxed{0.25}$, which is $\\frac{1}{4}$."),
    ("\\frac{1}{8}", "The probability is $\\boxed{\\frac{3}{8}} = 0.375$."),
])

fam("b7_heading_structured_wrong", "wrong_value", [
    ("42", "We multiply 6 by 7.\n\n## Final answer\n\n48"),
    ("\\frac{5}{6}", "## Final Answer\n\n$$\\frac{1}{6}$$"),
    ("14", '```json\n{\n  "reasoning": "7 pairs of socks",\n  "final_answer": 7\n}\n```'),
    ("35", "```yaml\nreasoning: 5 weeks\nanswer: 30\n```"),
    ("18", "<response>\n  <reasoning>3 bags of 6 oranges.</reasoning>\n  <answer>16</answer>\n</response>"),
    ("64", "| Step | Value |\n|---|---|\n| side | 8 |\n| area | 32 |\n\n**Answer:** 32"),
    ("5", "\\begin{equation*}\n\\boxed{x = 6}\n\\end{equation*}"),
    ("21", "I will put the result inside <answer></answer>.\n3 * 7 = 24.\n<answer>24</answer>"),
])

fam("b7_world_numbers_wrong", "wrong_value", [
    ("1234567", "Answer: 1,234,576"),
    ("3.5", "Respuesta: 3,05"),
    ("2500", "Antwort: 2'050"),
    ("6.02\\times 10^{23}", "The answer is $\\boxed{6.02 \\times 10^{22}}$."),
    ("\\frac{3}{4}", "Answer: two thirds"),
    ("\\frac{7}{2}", "The answer is $\\boxed{2\\tfrac{1}{2}}$."),
    ("42", "الإجابة: ٤٨"),
    ("42", "उत्तर: ४७"),
    ("42", "答案是二十四。"),
    ("42", "答え：４３"),
    ("\\$12", "Answer: €12"),
    ("8.4", "Answer: £8.04"),
])

fam("b7_non_english_wrong", "wrong_value", [
    ("15", "所以答案是 $\\boxed{25}$。"),
    ("15", "Ответ: 16."),
    ("15", "La respuesta es 14."),
    ("15", "정답은 51입니다."),
    ("15", "Cevap: 5"),
])

fam("b7_think_transcript_wrong", "wrong_value", [
    ("25", "<think>\n1 + 3 = 4, 4 + 5 = 9, 9 + 7 = 16, 16 + 9 = 25.\n</think>\n\nThe answer is $\\boxed{24}$."),
    ("25", "<think>\nThe sum is 25. Hmm, wait: maybe 24. Let me go with 24.\n</think>\nThe answer is $\\boxed{24}$."),
    ("60", "<think>150 / 2.5 = 60</think>\nFinal answer: $\\boxed{50}$"),
])

fam("b7_fewshot_runon_wrong", "wrong_value", [
    ("7", "She has 5 + 7 = 12 apples. The answer is 12.\n\nQuestion: Tom has 3 pens and buys 4 more. "
          "How many pens does he have?\nAnswer: 3 + 4 = 7. The answer is 7."),
    ("7", "A: She has 5 + 7 = 12 apples. The answer is 12.\n\nQ: A farmer has 9 cows and sells 2. How many are left?\n"
          "A: 9 - 2 = 7. The answer is 7."),
])

fam("b7_described_reference_wrong", "wrong_value", [
    ("5 \\text{ cm}", "Answer: 5 m"),
    ("\\$12", "Answer: 12 cents"),
    ("500 \\text{ BC}", "The city was founded in $\\boxed{500}$ AD."),
    ("3 \\text{ km north}", "Answer: 3 km south"),
    ("[2, 5)", "The solution set is $\\boxed{[2, 5]}$."),
    ("[2, 5)", "Answer: $2 < x < 5$"),
    ("\\{1, 2, 3\\}", "The answer is $\\boxed{\\{1, 2\\}}$."),
    ("(2, -1)", "The solution is $(x, y) = \\boxed{(-1, 2)}$."),
    ("x^2 + 2x + 1", "The answer is $\\boxed{(x-1)^2}$."),
    ("90^\\circ", "Answer: $90$ radians"),
    ("2 \\text{ hours}", "The answer is $\\boxed{120 \\text{ seconds}}$."),
    ("30\\%", "The answer is $\\boxed{3\\%}$."),
])

# =====================================================================================
# misreadings: the value written is not the bare number
fam("b7_multiplier_misreading", "misreading", [
    ("3", "The flat sells for 3 lakh rupees.\n\nAnswer: 3 lakh"),
    ("5", "The project budget is $\\boxed{5}$ crore."),
    ("3", "这个城市的人口增加了。\n\n答案是 3万。"),
    ("2", "该公司的年收入为 $\\boxed{2}$ 亿元。"),
    ("12", "The salary is $\\boxed{12}$k per year."),
    ("4", "The startup raised $4M.\n\nAnswer: $4M"),
    ("7", "The crowd was about the size of a small town.\n\nThe answer is 7 thousand."),
    ("6", "Ali 6 bin lira kazandı.\n\nCevap: 6 bin"),
    ("5", "인구는 5만 명입니다.\n\n정답은 5만입니다."),
    ("2", "O carro custa 2 mil reais.\n\nA resposta é 2 mil."),
    ("3", "La empresa ganó 3 millones de euros.\n\nLa respuesta es 3 millones."),
    ("8", "Der Umsatz betrug 8 Mrd. Euro.\n\nDie Antwort lautet: 8 Mrd."),
    ("12", "Тираж составил 12 тыс. экземпляров.\n\nОтвет: 12 тыс."),
    ("4", "कुल राशि ४ लाख रुपये है।\n\nउत्तर: ४ लाख"),
    ("2", "The eggs come in cartons.\n\nThe answer is $\\boxed{2}$ dozen."),
])

fam("b7_unit_scale_misreading", "misreading", [
    ("5 \\text{ km}", "The trail is $\\boxed{5}$ m long."),
    ("3 \\text{ hours}", "Answer: The movie lasts 3 minutes."),
    ("\\$12", "The answer is $\\boxed{12}$ cents."),
    ("2 \\text{ kg}", "Answer: 2 g"),
    ("1.5", "The rate is $\\boxed{1.5}$‰."),
    ("25\\%", "The rate rose by 25 basis points.\n\nAnswer: 25 basis points"),
    ("60^\\circ", "The angle measures $\\boxed{60}$ radians."),
    ("10 \\text{ L}", "Answer: 10 mL"),
])

fam("b7_percent_exponent_misreading", "misreading", [
    ("0.5", "Half of the students passed.\n\nAnswer: 0.5%"),
    ("1.5", "The growth factor is 1.5.\n\nThe answer is $\\boxed{1.5\\%}$."),
    ("10", "The answer is $\\boxed{10}^2$."),
    ("3", "Answer: $3 \\times 10^3$"),
])

# =====================================================================================
# covers
fam("b7_cover", "cover", [
    ("12", "Answer: 12 or 13"),
    ("13", "Answer: 12 or 13"),
    ("12", "We count the students in the room.\n\n## Final answer\n\n12 (or 13 if we count the teacher)"),
    ("12", '{"answer": "12", "alternative_answer": "13"}'),
    ("12", "```yaml\nanswer: [12, 13]\n```"),
    ("12", "| Case | Answer |\n|---|---|\n| without teacher | 12 |\n| with teacher | 13 |"),
    ("12", "<answer>12</answer>\nor, counting the teacher,\n<answer>13</answer>"),
    ("12", "答案是 12 或 13。"),
    ("12", "La respuesta es 12 o 13."),
    ("12", "Ответ: 12 или 13."),
    ("12", "Die Antwort lautet 12 oder 13."),
    ("12", "The answer is $\\boxed{12 \\text{ or } 13}$."),
    ("12", "The answer is $\\boxed{12}$ or $\\boxed{13}$."),
    ("13", "The answer is somewhere between 12 and 14.\n\nAnswer: 12–14"),
    ("\\frac{1}{3}", "One of three doors hides the prize.\n\nAnswer: 0.3"),
    ("3", "Since $x^2 = 9$, the answer is $\\boxed{\\pm 3}$."),
    ("25", "The answer is $\\boxed{25}$. Wait, I forgot to subtract the first term; it is actually 24."),
    ("24", "The answer is $\\boxed{25}$. Wait, I forgot to subtract the first term; it is actually 24."),
    ("12", "<think>Could be 12 or 13.</think>\nThe answer is 12, or 13 if the teacher counts."),
    ("12", "Final answer: 12\n\nAlternatively, 13 is also a valid answer."),
    ("5", "x = 5\n\nA: 5. The answer is 5.\n\nQuestion: the same question again.\nA: 6. The answer is 6."),
    ("12", "## Final answer\n\n- 12\n- 13"),
    ("7", "答えは 7 または 8 です。"),
    ("7", "A resposta é 7 ou 8."),
    ("7", "정답은 7 또는 8입니다."),
])

# =====================================================================================
# disowned: the right value stated and taken back (measured)
fam("b7_disowned", "disowned", [
    ("10", "The wrong answer would be $\\boxed{10}$."),
    ("8", "We get $\\sqrt{49} = \\boxed{8}$."),
    ("10", "错误的答案是 $\\boxed{10}$。"),
    ("10", "La respuesta incorrecta es $\\boxed{10}$."),
    ("10", "Falsche Antwort: $\\boxed{10}$"),
    ("10", "## Incorrect answer\n\n$$\\boxed{10}$$"),
    ("10", '{"wrong_answer": 10}'),
    ("10", "Неправильный ответ: $\\boxed{10}$"),
])

# =====================================================================================
# hedged single values (measured)
fam("b7_hedged", "hedged", [
    ("50", "所以答案约为 $\\boxed{50}$。"),
    ("12", "所以答案至少是 $\\boxed{12}$。"),
    ("7", "Итак, ответ: не $\\boxed{7}$."),
    ("7", "Also ist die Antwort nicht $\\boxed{7}$."),
    ("20", "La respuesta es no más de $\\boxed{20}$."),
    ("40", "La réponse est environ $\\boxed{40}$."),
    ("30", "उत्तर लगभग $\\boxed{30}$ है।"),
    ("30", "Cevap yaklaşık $\\boxed{30}$."),
    ("30", "A resposta é cerca de $\\boxed{30}$."),
    ("30", "정답은 약 $\\boxed{30}$입니다."),
    ("30", "الإجابة حوالي $\\boxed{30}$."),
    ("30", "答えはおよそ $\\boxed{30}$ です。"),
    ("9", "The answer is at most $\\boxed{9}$."),
    ("9", "Answer: roughly 9"),
    ("100", "Ответ: примерно 100."),
    ("100", "Antwort: mindestens 100"),
    ("100", "答案可能是 100。"),
])
