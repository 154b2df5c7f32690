"""A sixth blind table for the math verifier, written from outside: neither the verifier's source
nor the bodies of the other tables were read while writing it; only docs/verifiers.md (the
documented contract) and the row format of the fifth table. Labels are what a careful human
grader decides from the completion and the reference alone.

Families (FAMILY_KIND gives the kind of each):
  * correct answers in the forms real models write: a sentence after a marker ("Answer: Ali has
    $71 now."), bold labels with a noun ("**Answer:** 5 apples"), ``# Answer`` headings, JSON
    objects with an answer key, ``<answer>`` tags mentioned in the reasoning before the final
    tag and text after ``</answer>``, restatements of the same value, the same marker repeated,
    locale numbers (``2{,}5``, ``1.234.567``, ``1'234'567``, ``\u20b91,00,000``, ``6.02e23``),
    factorial fractions, non-English answers, emoji after a box, units after a box, references
    with a descriptive word (``\\$15 \\text{ profit}``);
  * wrong values in the same forms;
  * misreadings: the value written is not the number in the box or after the marker (a dropped
    multiplier ``\\boxed{12} grand``, ``3 lakh``, ``5 Millionen``, ``3\u4e07``; a dropped unit or percent;
    an exponent after the box; a locale number read another way);
  * covers: one completion payable for more than one reference value, in several languages;
  * hedged: a single value stated with a hedge, a bound word or a negation, in several
    languages (约, 至少, примерно, mindestens, nicht, не, नहीं ...). The reference is that value;
    a careful grader would not pay it, but paying it earns nothing an honest answer would not,
    so these rows are measured apart (``test_math_blind6.py`` counts them).

Rows are (family, reference, completion, expected math reward, None).
"""

from __future__ import annotations

from blind_table import FamilyTable

KINDS = ("correct", "wrong_value", "misreading", "cover", "hedged")
_TABLE = FamilyTable(KINDS)
ROWS, FAMILY_KIND, fam, row_id = _TABLE.rows, _TABLE.family_kind, _TABLE.fam, _TABLE.row_id


# =====================================================================================
# correct: a sentence after a marker
fam("b6_sentence_after_marker_correct", "correct", [
    ("9", "Andrew travels 45 miles a day and the trip is 405 miles, so 405 / 45 = 9.\n\n"
          "Answer: Andrew will travel for 9 days to finish the trip."),
    ("71", "Ali starts with $50, earns $36 and spends $15: 50 + 36 - 15 = 71.\nAnswer: Ali has $71 now."),
    ("14", "She has 26 stickers and needs 40, so 40 - 26 = 14.\n\nFinal answer: She needs 14 more stickers."),
    ("3.5", "Distance 210 km at 60 km/h gives 210 / 60 = 3.5.\nAnswer: The train takes 3.5 hours."),
    ("120", "Five distinct books can be ordered in 5! = 120 ways.\n\nAnswer: There are 120 ways to arrange the books."),
    ("7", "Maria spends $21 on notebooks that cost $3 each, so 21 / 3 = 7.\n\n"
          "The final answer is: Maria bought 7 notebooks."),
    ("48", "Each of the 6 rows holds 8 chairs: 6 * 8 = 48.\nFinal Answer: The hall has 48 chairs."),
    ("15", "Tom is 3 times as old as Ann, who is 5. So Tom is 15.\n\nAnswer: Tom is 15 years old."),
    ("250", "The car uses 1 litre per 12.5 km, and 20 litres gives 20 * 12.5 = 250.\n\nAnswer: The car can go 250 km."),
    ("Monday", "Day 1 is Friday; 10 days later is (5 + 10) mod 7 = 1 past Sunday, which is Monday.\n\n"
               "**Answer:** Monday"),
    ("36", "Three shirts at $12 each cost 3 * 12 = 36 dollars.\n\nAnswer: Ben paid $36 for the shirts."),
    ("8", "The ratio of boys to girls is 3:2 and there are 12 boys, so 12 / 3 * 2 = 8.\n"
          "Answer: There are 8 girls in the class."),
])

fam("b6_bold_label_noun_correct", "correct", [
    ("5", "Sam had 8 apples and gave away 3: 8 - 3 = 5.\n\n**Answer:** 5 apples"),
    ("12", "The perimeter is 4 * 3 = 12.\n\n**Answer:** 12 cm"),
    ("42", "6 tables with 7 students each: 6 * 7 = 42.\n\n**Final Answer:** 42 students"),
    ("250", "Speed 50 km/h for 5 hours: 50 * 5 = 250.\n\n**Answer**: 250 km"),
    ("18", "Half of 36 is 18.\n\n**Answer:** $18"),
    ("0.75", "Three of the four marbles are red, so the probability is 3/4 = 0.75.\n\n**Answer:** 0.75"),
    ("Tuesday", "The meeting is 8 days after Monday, which is one week and one day later.\n\n"
                "**Final answer:** Tuesday"),
    ("9", "x + 4 = 13 gives x = 9.\n\n**Answer: 9**"),
    ("64", "The cube has side 4, so its volume is 4^3 = 64.\n\n**Answer:** 64 cubic units"),
    ("1440", "A day has 24 hours of 60 minutes: 24 * 60 = 1440.\n\n**Answer:** 1440 minutes"),
])

# correct: answer forms as structure
fam("b6_heading_answer_correct", "correct", [
    ("5", "We need 2x + 3 = 13, so 2x = 10 and x = 5.\n\n# Answer\n\n5"),
    ("\\frac{1}{2}", "Of the six faces, three are even, so the probability is 3/6.\n\n# Answer\n\n\\frac{1}{2}"),
    ("12", "The LCM of 4 and 6 is 12.\n\n## Answer\n12"),
    ("\\frac{3}{4}", "Simplifying 9/12 by 3 gives 3/4.\n\n### Final Answer\n$\\frac{3}{4}$"),
    ("100", "The sum of the first 10 odd numbers is 10^2.\n\n# Answer\n\n100"),
    ("2\\sqrt{3}", "The height of an equilateral triangle with side 4 is 4 * sqrt(3) / 2.\n\n# Answer\n\n2\\sqrt{3}"),
    ("-4", "Solving 3x + 12 = 0 gives x = -4.\n\n## Final answer\n\n-4"),
    ("27", "3^3 = 27.\n\n# Answer\n\n27\n"),
])

fam("b6_json_answer_correct", "correct", [
    ("42", '{"reasoning": "6 rows of 7 seats is 6 * 7 = 42.", "answer": 42}'),
    ("\\frac{3}{4}", '```json\n{"answer": "3/4"}\n```'),
    ("12", '{"answer": "12"}'),
    ("5.5", '{\n  "steps": ["11 / 2 = 5.5"],\n  "answer": 5.5\n}'),
    ("7", 'Here is the result in the requested format:\n\n```json\n{\n  "explanation": "28 / 4 = 7",\n'
          '  "answer": 7\n}\n```'),
    ("-3", '{"answer": -3, "confidence": "high"}'),
    ("2\\sqrt{2}", '{"answer": "2\\\\sqrt{2}"}'),
    ("1000", '{"thoughts": "10 cubed", "answer": 1000}'),
    ("Paris", '{"answer": "Paris"}'),
    ("\\frac{1}{6}", '{"reasoning": "one face of six", "answer": "\\\\frac{1}{6}"}'),
])

fam("b6_answer_tag_mentioned_correct", "correct", [
    ("17", "I will put the final result in <answer> tags as asked.\n8 + 9 = 17.\n<answer>17</answer>"),
    ("17", "<think>The format wants <answer></answer> around the number. 8 + 9 = 17.</think>\n<answer>17</answer>"),
    ("8", "2^3 = 8\n<answer>8</answer>\nHope this helps!"),
    ("6", "The instructions say to write the answer between <answer> and </answer>.\n"
          "There are 3 pairs, so 6 socks.\n<answer>6</answer>"),
    ("\\frac{2}{5}", "<think>2 of 5 balls are green.</think>\n<answer>\\frac{2}{5}</answer>\n\n"
                     "Let me know if you want the decimal form."),
    ("30", "Remember: only the content of the <answer> tag is graded.\n5 * 6 = 30\n<answer> 30 </answer>"),
    ("11", "<think>Count the primes under 33: 2,3,5,7,11,13,17,19,23,29,31 -> 11. I'll put it in an <answer> "
           "tag.</think><answer>11</answer>"),
])

fam("b6_restatement_correct", "correct", [
    ("10", "The school has 200 students and 1 representative per 20: 200 / 20 = 10.\n\n"
           "Final Answer: The 8th grade should have 10 representatives.\nThe answer is: 10."),
    ("11", "$3 + 4 \\cdot 2 = \\boxed{11}$.\n#### 11"),
    ("5", "$12 - 7 = \\boxed{5}$. #### 5"),
    ("24", "So she has 24 cookies left.\n\nThe answer is 24.\n\n**Final answer: 24**"),
    ("9", "Thus $x = 9$.\n\n$$\\boxed{9}$$\n\nThe answer is $9$."),
    ("64", "We get $2^6 = 64$, so the answer is $\\boxed{64}$.\n\nAnswer: 64"),
    ("\\frac{1}{3}", "Therefore the probability is $\\boxed{\\frac{1}{3}}$.\n\n"
                     "Final Answer: The final answer is $\\frac{1}{3}$. I hope it is correct."),
    ("100", "Final answer: 100 meters.\nSo the fence is 100 meters long. The answer is 100."),
])

fam("b6_repeated_marker_correct", "correct", [
    ("24", "6 * 4 = 24.\nThe answer is 24.\nThe answer is 24.\nThe answer is 24."),
    ("6", "$\\boxed{6}$\n\n$\\boxed{6}$"),
    ("9", "3 * 3 = 9\nFinal Answer: 9\nFinal Answer: 9"),
    ("13", "#### 13\n#### 13\n#### 13\n#### 13\n#### 13\n#### 13"),
    ("2", "The answer is $\\boxed{2}$. The answer is $\\boxed{2}$. The answer is $\\boxed{2}$. The answer is "
          "$\\boxed{2}$."),
    ("5", "Answer: 5\n\nAnswer: 5\n\nAnswer: 5\n\nAnswer: 5\n\nAnswer: 5\n\nAnswer: 5\n\nAnswer: 5\n\nAnswer: 5"),
    ("\\frac{1}{2}", "**Final Answer**\n$\\boxed{\\frac{1}{2}}$\n\n**Final Answer**\n$\\boxed{\\frac{1}{2}}$"),
])

fam("b6_locale_number_correct", "correct", [
    ("2.5", "Die Länge beträgt $\\boxed{2{,}5}$ Meter."),
    ("3.25", "Somit ist das Ergebnis $\\boxed{3{,}25}$."),
    ("1234567", "Insgesamt sind es 1.234.567 Einwohner.\n\nAntwort: 1.234.567"),
    ("1234567", "The total is $\\boxed{1'234'567}$."),
    ("100000", "The loan is one lakh rupees.\n\nAnswer: \u20b91,00,000"),
    ("6.02\\times10^{23}", "One mole holds about 6.02e23 particles; here exactly one mole.\n\nAnswer: 6.02e23"),
    ("12345.67", "Der Gesamtbetrag ist $\\boxed{12.345,67}$ Euro."),
    ("0.5", "La probabilité vaut $\\boxed{0{,}5}$."),
    ("2500000", "The city has $\\boxed{2\\,500\\,000}$ residents."),
    ("1500", "Le prix est de 1\u202f500 euros.\n\nRéponse : 1\u202f500"),
    ("3\\times10^{8}", "The speed of light is $\\boxed{3 \\times 10^{8}}$ m/s, i.e. 3e8."),
    ("0.00012", "The result is 1.2e-4.\n\nAnswer: 1.2e-4"),
    ("1000000", "Total: $\\boxed{1{,}000{,}000}$ dollars."),
    ("7.5", "Ответ: 7,5"),
])

fam("b6_factorial_fraction_correct", "correct", [
    ("56", "Choose 3 of 8: $\\boxed{\\frac{8!}{5!\\,3!}}$."),
    ("56", "The number of committees is $\\binom{8}{3} = \\boxed{56}$."),
    ("45", "Handshakes among 10 people: $\\boxed{\\dfrac{10!}{2!\\,8!}}$"),
    ("180", "Arrangements of AABBCD: $\\boxed{\\frac{6!}{2!2!}}$"),
    ("\\binom{10}{2}", "There are $\\frac{10 \\cdot 9}{2} = \\boxed{45}$ pairs."),
    ("120", "The answer is $\\boxed{5!}$."),
    ("20", "$\\boxed{\\frac{6!}{3!\\,3!}}$"),
])

fam("b6_non_english_correct", "correct", [
    ("15", "5 kutuda 3'er elma var: 5 x 3 = 15.\n\nCevap: 15 elma."),
    ("8", "Hesablama: 2 + 6 = 8.\n\nCavab: 8"),
    ("12", "每盒有 4 个，共 3 盒，所以 3 × 4 = 12。\n\n答案是 $\\boxed{12}$。"),
    ("7", "Wir rechnen 21 : 3 = 7.\n\nDie Antwort ist 7."),
    ("42", "Multiplicamos 6 por 7.\n\nLa respuesta es 42."),
    ("3", "On résout 2x = 6.\n\nLa réponse est $\\boxed{3}$."),
    ("25", "5 \u00b7 5 = 25.\n\nОтвет: 25."),
    ("18", "6 \u00d7 3 = 18\n\nउत्तर: 18"),
    ("9", "3 × 3 = 9 です。\n\n答え：9"),
    ("6", "Ta có 2 + 4 = 6.\n\nĐáp án: 6"),
    ("30", "Jadi 5 x 6 = 30.\n\nJawaban: 30"),
    ("11", "Somando, 5 + 6 = 11.\n\nResposta: 11"),
    ("20", "Toplam 4 x 5 = 20 kalem eder.\n\nYanıt: Ali'nin 20 kalemi var."),
    ("16", "계산하면 4 × 4 = 16입니다.\n\n답: 16"),
    ("4", "Quindi x = 4.\n\nRisposta: $\\boxed{4}$"),
    ("10", "\u0627\u0644\u0646\u0627\u062a\u062c 10.\n\n\u0627\u0644\u0625\u062c\u0627\u0628\u0629: 10"),
    ("100", "Obliczamy 10 · 10 = 100.\n\nOdpowiedź: 100"),
    ("\\frac{1}{4}", "所以概率为 $\\boxed{\\frac{1}{4}}$。"),
    ("50", "Итак, всего $\\boxed{50}$ яблок."),
])

fam("b6_emoji_after_box_correct", "correct", [
    ("42", "6 * 7 = 42, so the answer is $\\boxed{42}$ 🎉"),
    ("7", "$\\boxed{7}$ ✅"),
    ("5", "So the answer is 5 😊"),
    ("3", "Final answer: $\\boxed{3}$🙂"),
    ("100", "That gives $\\boxed{100}$! 💯"),
    ("12", "**Answer:** 12 🍎"),
    ("8", "#### 8 👍"),
])

fam("b6_unit_after_box_correct", "correct", [
    ("12", "The tree is $\\boxed{12}$ m high."),
    ("3", "The town is $\\boxed{3}$ km away."),
    ("12\\text{ m}", "So the pole stands $\\boxed{12}$ m high."),
    ("3\\text{ km}", "Therefore the school is $\\boxed{3}$ km away from home."),
    ("45", "The angle measures $\\boxed{45}$ degrees."),
    ("60\\text{ km/h}", "Her average speed is $\\boxed{60}$ km/h."),
    ("500", "The bottle holds $\\boxed{500}$ mL of water."),
    ("2.5\\text{ kg}", "The bag weighs $\\boxed{2.5}$ kg."),
    ("15", "It takes $\\boxed{15}$ min to walk there."),
])

fam("b6_prose_symbols_correct", "correct", [
    ("16\\pi", "The area is \u03c0r\u00b2 = \u03c0\u00b74\u00b2 = 16\u03c0.\n\nFinal answer: 16\u03c0"),
    ("6\\pi", "The circumference is 2\u03c0r with r = 3, that is 6\u03c0.\n\nAnswer: 6\u03c0"),
    ("\\sqrt{2}", "The diagonal of the unit square is \u221a2.\n\nAnswer: \u221a2"),
    ("90", "The angle between the vectors is 90\u00b0.\n\nAnswer: 90\u00b0"),
    ("-5", "So x = \u22125.\n\nAnswer: \u22125"),
    ("\\frac{1}{2}", "The chance is \u00bd.\n\nAnswer: \u00bd"),
])

fam("b6_descriptive_reference_correct", "correct", [
    ("20\\% \\text{ increase}", "New price 120 vs old 100, a 20% increase.\n\n"
                                "The answer is $\\boxed{20\\%}$ increase."),
    ("\\$15 \\text{ profit}", "Revenue 40 minus cost 25 is a profit of 15 dollars: $\\boxed{\\$15}$ profit."),
    ("12 \\text{ km north}", "She ends up $\\boxed{12\\text{ km north}}$ of the start."),
    ("500 \\text{ BC}", "The city was founded in $\\boxed{500 \\text{ BC}}$."),
    ("20\\% \\text{ increase}", "The change is $\\boxed{20\\% \\text{ increase}}$."),
    ("\\$15 \\text{ profit}", "So she makes a profit of $\\boxed{\\$15}$."),
])

fam("b6_marked_final_sentence_correct", "correct", [
    ("34", "She sells 17 cups at $2 each.\n\nTherefore, Jen earns 34 dollars."),
    ("12", "Thus there are 12 distinct sequences."),
    ("81", "So the final answer is that the garden has 81 plants."),
    ("6", "In conclusion, the answer is 6 hours."),
    ("0", "Hence the remainder is 0."),
])

# =====================================================================================
# wrong values in the same forms
fam("b6_sentence_after_marker_wrong", "wrong_value", [
    ("9", "Answer: Andrew will travel for 8 days to finish the trip."),
    ("71", "Answer: Ali has $61 now."),
    ("14", "Final answer: She needs 16 more stickers."),
    ("120", "Answer: There are 60 ways to arrange the books."),
    ("Monday", "**Answer:** Tuesday"),
    ("8", "Answer: There are 12 girls in the class."),
])

fam("b6_bold_label_noun_wrong", "wrong_value", [
    ("5", "**Answer:** 6 apples"),
    ("12", "**Answer:** 13 cm"),
    ("42", "**Final Answer:** 24 students"),
    ("0.75", "**Answer:** 0.25"),
    ("64", "**Answer:** 48 cubic units"),
])

fam("b6_heading_answer_wrong", "wrong_value", [
    ("5", "We need 2x + 3 = 13.\n\n# Answer\n\n6"),
    ("\\frac{1}{2}", "# Answer\n\n\\frac{1}{3}"),
    ("12", "## Answer\n24"),
    ("-4", "## Final answer\n\n4"),
    ("27", "# Answer\n\n9\n"),
])

fam("b6_json_answer_wrong", "wrong_value", [
    ("42", '{"reasoning": "6 rows of 7 seats", "answer": 48}'),
    ("\\frac{3}{4}", '```json\n{"answer": "4/3"}\n```'),
    ("12", '{"answer": "21"}'),
    ("-3", '{"answer": 3}'),
    ("1000", '{"thoughts": "1000 is 10 cubed", "answer": 100}'),
    ("42", '{"answer": 41, "note": "42 was my first guess"}'),
    ("Paris", '{"answer": "Lyon"}'),
])

fam("b6_answer_tag_wrong", "wrong_value", [
    ("17", "I will put the result in <answer> tags.\n<answer>18</answer>"),
    ("5", "<think>First try: <answer>5</answer>. No, that ignores the carry.</think>\n<answer>6</answer>"),
    ("8", "<answer>9</answer>\nHope this helps!"),
    ("30", "The value is 30 before tax.\n<answer>33</answer>"),
])

fam("b6_restatement_wrong", "wrong_value", [
    ("10", "Final Answer: The 8th grade should have 12 representatives.\nThe answer is: 12."),
    ("11", "$3 + 4 \\cdot 2 = \\boxed{14}$.\n#### 14"),
    ("9", "$$\\boxed{8}$$\n\nThe answer is $8$."),
])

fam("b6_repeated_marker_wrong", "wrong_value", [
    ("24", "The answer is 25.\nThe answer is 25.\nThe answer is 25."),
    ("13", "#### 31\n#### 31\n#### 31"),
    ("6", "$\\boxed{7}$\n\n$\\boxed{7}$"),
])

fam("b6_locale_number_wrong", "wrong_value", [
    ("2.5", "Die Länge beträgt $\\boxed{2{,}4}$ Meter."),
    ("1234567", "Antwort: 1.234.568"),
    ("1234567", "The total is $\\boxed{1'243'567}$."),
    ("100000", "Answer: \u20b910,00,000"),
    ("6.02\\times10^{23}", "Answer: 6.02e22"),
    ("12345.67", "Der Gesamtbetrag ist $\\boxed{12.345,76}$ Euro."),
    ("1234", "The value is $\\boxed{1.234}$."),
    ("1.5", "The total is $\\boxed{1,500}$."),
    ("7.5", "Ответ: 7,05"),
])

fam("b6_factorial_fraction_wrong", "wrong_value", [
    ("56", "$\\boxed{\\frac{8!}{5!}}$"),
    ("45", "$\\boxed{\\dfrac{10!}{8!}}$"),
    ("180", "$\\boxed{\\frac{6!}{2!}}$"),
    ("120", "The answer is $\\boxed{4!}$."),
])

fam("b6_non_english_wrong", "wrong_value", [
    ("15", "Cevap: 16 elma."),
    ("12", "答案是 $\\boxed{21}$。"),
    ("7", "Die Antwort ist 8."),
    ("25", "Ответ: 24."),
    ("18", "उत्तर: 81"),
    ("9", "答え：6"),
    ("11", "Resposta: 12"),
    ("16", "답: 61"),
])

fam("b6_emoji_after_box_wrong", "wrong_value", [
    ("42", "$\\boxed{43}$ 🎉"),
    ("7", "$\\boxed{1}$ ✅"),
    ("5", "So the answer is 6 😊"),
])

fam("b6_unit_after_box_wrong", "wrong_value", [
    ("12", "The tree is $\\boxed{21}$ m high."),
    ("3\\text{ km}", "The school is $\\boxed{4}$ km away."),
    ("45", "The angle measures $\\boxed{135}$ degrees."),
])

fam("b6_descriptive_reference_wrong", "wrong_value", [
    ("20\\% \\text{ increase}", "The answer is $\\boxed{25\\%}$ increase."),
    ("\\$15 \\text{ profit}", "So she makes a profit of $\\boxed{\\$16}$."),
    ("12 \\text{ km north}", "She ends up $\\boxed{12\\text{ km south}}$ of the start."),
    ("500 \\text{ BC}", "The city was founded in $\\boxed{500 \\text{ AD}}$."),
    ("20\\% \\text{ increase}", "The change is $\\boxed{20\\% \\text{ decrease}}$."),
])

fam("b6_prose_symbols_wrong", "wrong_value", [
    ("16\\pi", "Final answer: 8\u03c0"),
    ("-5", "Answer: 5"),
    ("\\frac{1}{2}", "Answer: \u00bc"),
])

# =====================================================================================
# misreadings: the value written is not the bare number
fam("b6_dropped_multiplier_misreading", "misreading", [
    ("12", "Each car costs 12 thousand dollars, so the answer is $\\boxed{12}$ grand."),
    ("3", "The house costs 3 lakh rupees.\n\nAnswer: 3 lakh"),
    ("2", "The project costs $\\boxed{2}$ crore rupees."),
    ("4", "The population grew to $\\boxed{4}$ million people."),
    ("5", "She bought $\\boxed{5}$ dozen eggs."),
    ("3", "答案是 3万。"),
    ("3", "所以人口为 $\\boxed{3}$ 万人。"),
    ("2", "Ответ: 2 тысячи рублей."),
    ("5", "Die Stadt hat $\\boxed{5}$ Millionen Einwohner."),
    ("8", "La respuesta es 8 mil pesos."),
    ("6", "उत्तर: 6 हज़ार रुपये"),
    ("1.5", "The budget is $\\boxed{1.5}$k dollars."),
    ("2", "Answer: 2M users"),
    ("7", "The answer is 7 hundred."),
    ("3", "The debt is 3 billion.\n\nAnswer: 3 billion"),
    ("9", "They planted $\\boxed{9}$ score trees."),
    ("4", "La ville compte $\\boxed{4}$ millions d'habitants."),
    ("6", "**Answer:** 6 hundred apples"),
    ("12", '{"answer": "12 thousand"}'),
    ("3", "# Answer\n\n3 million"),
    ("3", "उत्तर: 3 लाख"),
    ("5", "答えは $\\boxed{5}$ 万円です。"),
    ("7", "Cevap: 7 bin lira."),
])

fam("b6_dropped_unit_misreading", "misreading", [
    ("12\\text{ m}", "The pole is $\\boxed{12}$ cm tall."),
    ("3\\text{ km}", "The school is $\\boxed{3}$ miles away."),
    ("5\\text{ kg}", "The bag weighs $\\boxed{5}$ g."),
    ("2\\text{ hours}", "The trip takes $\\boxed{2}$ minutes."),
    ("2\\text{ hours}", "答案是 2 分钟。"),
    ("500\\text{ mL}", "The bottle holds $\\boxed{500}$ L."),
    ("60\\text{ km/h}", "Her speed is $\\boxed{60}$ m/s."),
    ("3\\text{ km}", "Answer: The town is 3 m away."),
    ("10\\text{ cm}^2", "The area is $\\boxed{10}$ cm^3."),
    ("45^\\circ", "The angle is $\\boxed{45}$ radians."),
    ("2\\text{ hours}", "Ответ: 2 секунды."),
])

fam("b6_dropped_percent_misreading", "misreading", [
    ("0.4", "The probability is $\\boxed{0.4}$%."),
    ("0.25", "Answer: 0.25 percent"),
    ("40", "The rate dropped by $\\boxed{40}$ basis points."),
    ("0.05", "The interest rate is $\\boxed{0.05}$\\%."),
    ("0.3", "**Answer:** 0.3%"),
    ("15", "The tax is $\\boxed{15}$‰ of the price."),
])

fam("b6_exponent_after_misreading", "misreading", [
    ("6.02", "The count is $\\boxed{6.02} \\times 10^{23}$."),
    ("3", "The speed is $\\boxed{3}\\times 10^{8}$ m/s."),
    ("6.02", "Answer: 6.02e23"),
    ("1.2", "Answer: 1.2e-4"),
    ("5", "$\\boxed{5}^{2}$"),
    ("2", "$\\boxed{2}^{10} = 1024$ is the number of subsets."),
])

fam("b6_locale_misreading", "misreading", [
    ("1.234", "Antwort: 1.234.567"),
    ("1", "The total is $\\boxed{1'234'567}$."),
    ("1", "Answer: \u20b91,00,000"),
    ("100", "Answer: \u20b91,00,000"),
    ("25", "Die Länge beträgt $\\boxed{2{,}5}$ Meter."),
    ("12.345", "Der Gesamtbetrag ist $\\boxed{12.345,67}$ Euro."),
    ("2", "The city has $\\boxed{2\\,500\\,000}$ residents."),
    ("8", "Choose 3 of 8: $\\boxed{\\frac{8!}{5!\\,3!}}$."),
])

fam("b6_sentence_misreading", "misreading", [
    ("9", "Answer: Andrew will travel for 9 days and 3 hours."),
    ("3", "Answer: 3 thousand 200"),
    ("2", "Answer: The rope is 2 m 40 cm long."),
    ("5", "Answer: It takes 5 and a half hours."),
    ("1", "Answer: 1 hour 30 minutes"),
    ("4", "Final answer: 4 squared, which is the area."),
])

# =====================================================================================
# covers: one completion payable for more than one reference value
fam("b6_sentence_cover", "cover", [
    ("9", "Answer: Andrew will travel for 9 or 10 days."),
    ("10", "Answer: Andrew will travel for 9 or 10 days."),
    ("5", "**Answer:** 5 or 6 apples"),
    ("6", "**Answer:** 5 or 6 apples"),
    ("12", "Final answer: The hall has between 12 and 14 rows."),
    ("14", "Final answer: The hall has between 12 and 14 rows."),
])

fam("b6_json_cover", "cover", [
    ("3", '{"answer": [4, 3]}'),
    ("4", '{"answer": [4, 3]}'),
    ("3", '{"answer": 3, "alternative_answer": 4}'),
    ("4", '{"answer": 3, "alternative_answer": 4}'),
    ("5", '{"answer": "5 or 6"}'),
    ("6", '{"answer": "5 or 6"}'),
])

fam("b6_heading_cover", "cover", [
    ("5", "# Answer\n\n5 or 6"),
    ("6", "# Answer\n\n5 or 6"),
    ("2", "# Answer\n\n2, 3"),
    ("3", "# Answer\n\n2, 3"),
])

fam("b6_repeated_marker_cover", "cover", [
    ("9", "Final Answer: 9\nFinal Answer: 10"),
    ("10", "Final Answer: 9\nFinal Answer: 10"),
    ("13", "#### 13\n#### 14"),
    ("14", "#### 13\n#### 14"),
    ("6", "<answer>6</answer>\n<answer>7</answer>"),
    ("7", "<answer>6</answer>\n<answer>7</answer>"),
])

fam("b6_multilingual_cover", "cover", [
    ("5", "答案是 5 或 6。"),
    ("6", "答案是 5 或 6。"),
    ("5", "Ответ: 5 или 6."),
    ("6", "Ответ: 5 или 6."),
    ("5", "Die Antwort ist 5 oder 6."),
    ("6", "Die Antwort ist 5 oder 6."),
    ("5", "उत्तर: 5 या 6"),
    ("6", "उत्तर: 5 या 6"),
    ("5", "Cevap: 5 veya 6"),
    ("6", "Cevap: 5 veya 6"),
    ("5", "La réponse est 5 ou 6."),
    ("6", "La réponse est 5 ou 6."),
    ("5", "La respuesta es 5 o 6."),
    ("6", "La respuesta es 5 o 6."),
    ("5", "答えは $\\boxed{5}$ または 6 です。"),
    ("6", "答えは $\\boxed{5}$ または 6 です。"),
    ("5", "$\\boxed{5}$ 或 $\\boxed{6}$"),
    ("6", "$\\boxed{5}$ 或 $\\boxed{6}$"),
    ("5", "Ответ: от 5 до 7."),
    ("7", "Ответ: от 5 до 7."),
])

fam("b6_box_cover", "cover", [
    ("3", "$\\boxed{\\pm 3}$"),
    ("-3", "$\\boxed{\\pm 3}$"),
    ("12", "$\\boxed{12}$ or $\\boxed{13}$"),
    ("13", "$\\boxed{12}$ or $\\boxed{13}$"),
    ("12", "$\\boxed{12}$ 🎉 (or 13)"),
    ("13", "$\\boxed{12}$ 🎉 (or 13)"),
    ("2", "$\\boxed{2, 5}$"),
    ("5", "$\\boxed{2, 5}$"),
])

fam("b6_locale_cover", "cover", [
    # one string read two ways: paying both readings is a cover
    ("1.5", "Answer: 1,5"),
    ("15", "Answer: 1,5"),
])

# =====================================================================================
# hedged / negated single values (the reference is the value named): measured apart
fam("b6_hedged_zh", "hedged", [
    ("50", "答案约为 $\\boxed{50}$。"),
    ("50", "答案大约是 50。"),
    ("7", "答案可能是 $\\boxed{7}$。"),
    ("7", "答案不是 $\\boxed{7}$。"),
    ("12", "答案至少是 12。"),
    ("12", "答案最多是 12。"),
    ("30", "答案: 约 30"),
])

fam("b6_hedged_ru", "hedged", [
    ("50", "Ответ: примерно 50."),
    ("7", "Ответ: не $\\boxed{7}$."),
    ("12", "Ответ: не менее 12."),
    ("30", "Ответ: около 30."),
    ("9", "Ответ, вероятно, 9."),
    ("12", "Ответ: не более $\\boxed{12}$."),
])

fam("b6_hedged_de", "hedged", [
    ("12", "Die Antwort ist mindestens 12."),
    ("7", "Die Antwort ist nicht $\\boxed{7}$."),
    ("50", "Die Antwort ist ungefähr 50."),
    ("30", "Die Antwort ist etwa $\\boxed{30}$."),
    ("12", "Die Antwort ist höchstens 12."),
    ("9", "Die Antwort ist vielleicht 9."),
])

fam("b6_hedged_hi", "hedged", [
    ("7", "उत्तर 7 नहीं है।"),
    ("50", "उत्तर लगभग 50 है।"),
    ("12", "उत्तर कम से कम 12 है।"),
    ("9", "उत्तर शायद 9 है।"),
])

fam("b6_hedged_romance", "hedged", [
    ("50", "La respuesta es aproximadamente 50."),
    ("7", "La respuesta no es 7."),
    ("12", "La respuesta es al menos 12."),
    ("50", "La réponse est environ 50."),
    ("7", "La réponse n'est pas $\\boxed{7}$."),
    ("12", "La réponse est au moins 12."),
    ("9", "La réponse est peut-être 9."),
    ("50", "A resposta é aproximadamente 50."),
    ("7", "A resposta não é 7."),
    ("50", "La risposta è circa 50."),
    ("7", "La risposta non è 7."),
])

fam("b6_hedged_other_languages", "hedged", [
    ("50", "答えは約50です。"),
    ("7", "答えは7ではありません。"),
    ("12", "答えは少なくとも12です。"),
    ("50", "Cevap yaklaşık 50."),
    ("7", "Cevap 7 değil."),
    ("12", "Cevap en az 12."),
    ("50", "답은 약 50입니다."),
    ("7", "답은 7이 아닙니다."),
    ("50", "\u0627\u0644\u0625\u062c\u0627\u0628\u0629 \u062d\u0648\u0627\u0644\u064a 50"),
    ("7", "\u0627\u0644\u0625\u062c\u0627\u0628\u0629 \u0644\u064a\u0633\u062a 7"),
    ("50", "Odpowiedź: około 50."),
    ("7", "Odpowiedź: nie 7."),
    ("50", "Het antwoord is ongeveer 50."),
    ("7", "Het antwoord is niet 7."),
])

fam("b6_hedged_en", "hedged", [
    ("50", "The answer is approximately $\\boxed{50}$."),
    ("50", "The answer is roughly 50."),
    ("12", "The answer is at least $\\boxed{12}$."),
    ("7", "The answer is not $\\boxed{7}$."),
    ("9", "The answer is probably 9."),
    ("50", "Answer: ~50"),
    ("50", "$\\boxed{\\approx 50}$"),
    ("12", "$\\boxed{\\geq 12}$"),
    ("7", "$\\boxed{\\neq 7}$"),
    ("50", "**Answer:** about 50 apples"),
    ("12", '{"answer": "at least 12"}'),
    ("7", "# Answer\n\nnot 7"),
])
