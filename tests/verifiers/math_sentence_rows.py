"""Answer forms of issue 33, both sides: a sentence as the answer (read by the model of the
sentence, ``answer/statement.py``), answer forms read as structure (JSON answer fields, tags
mentioned in passing, commentary after ``</answer>``, restatements), numbers as the world
writes them, and references with descriptive words. Rows ``(family, reference, completion,
math, exact)``; ``exact`` is not run on this table (None). Written with the rules, so it pins
them; the blind tables measure them from outside."""

FAMILY_KIND = {
    "sentence_correct": "correct",
    "sentence_cover": "cover",
    "sentence_misreading": "misreading",
    "sentence_hedged": "hedged",
    "structure_correct": "correct",
    "structure_cover": "cover",
    "number_correct": "correct",
    "number_wrong": "wrong_value",
    "described_correct": "correct",
    "described_wrong": "wrong_value",
    "unit_misreading": "misreading",
}

ROWS = [
    # a sentence after a marker states one value; function words, units and counted nouns are neutral
    ("sentence_correct", "9", "Each day covers 20 km.\nAnswer: Andrew will travel for 9 days in total.", 1, None),
    ("sentence_correct", "71", "He had 50 and got 21.\nAnswer: Ali has $71 now.", 1, None),
    ("sentence_correct", "5", "**Answer:** 5 apples", 1, None),
    ("sentence_correct", "Monday", "Two days after Saturday.\n\n**Answer:** Monday", 1, None),
    ("sentence_correct", "7", "The final answer is: Maria bought 7 notebooks.", 1, None),
    ("sentence_correct", "15", "Answer: Tom is 15 years old.", 1, None),
    ("sentence_correct", "250", "Answer: The car can go 250 km.", 1, None),
    ("sentence_correct", "36", "Answer: Ben paid $36 for the shirts.", 1, None),
    ("sentence_correct", "10",
     "Final Answer: The 8th grade should have 10 representatives.\n\nThe answer is: 10.", 1, None),
    ("sentence_correct", "42", "So the answer is 42 apples. \\boxed{42}", 1, None),
    ("sentence_correct", "12", "Answer: There are 12 eggs, and 12 eggs fill the box.", 1, None),
    # two values, an operator or quantity word, or an unclassified word next to the value
    ("sentence_cover", "10", "Answer: Ann has 10 apples or 11 apples.", 0, None),
    ("sentence_cover", "10", "Answer: It is 10 apples or so.", 0, None),
    ("sentence_cover", "10", "Answer: The bag holds 10 to 12 apples.", 0, None),
    ("sentence_cover", "10", "The answer is: 10.\nFinal Answer: The grade should have 11 representatives.", 0, None),
    ("sentence_misreading", "3", "Answer: 3 lakh rupees", 0, None),
    ("sentence_misreading", "3", "Answer: Ali has 3 grand", 0, None),
    ("sentence_misreading", "2", "Answer: 2M users", 0, None),
    ("sentence_misreading", "7", "Cevap: 7 bin lira.", 0, None),
    ("sentence_misreading", "5", "Answer: She needs 5 more apples than Tom.", 0, None),
    ("sentence_misreading", "5", "Answer: Tom has 5 times as many.", 0, None),
    ("sentence_misreading", "12", "The answer is $\\boxed{12}$ grand.", 0, None),
    ("sentence_misreading", "3", "The answer is $\\boxed{3}$ lakh.", 0, None),
    ("sentence_misreading", "5", "Die Stadt hat $\\boxed{5}$ Millionen Einwohner.", 0, None),
    ("sentence_misreading", "15", "The tax is $\\boxed{15}$‰ of the price.", 0, None),
    ("sentence_misreading", "40", "The rate fell by $\\boxed{40}$ basis points.", 0, None),
    ("sentence_hedged", "3", "Answer: about 3", 0, None),
    ("sentence_hedged", "3", "Answer: 約 3", 0, None),
    ("sentence_hedged", "3", "Answer: nicht 3", 0, None),
    ("sentence_hedged", "3", "Answer: Ann has at least 3 apples.", 0, None),
    ("sentence_hedged", "3", "Answer: The total exceeds 3 dollars.", 0, None),
    # structure: JSON answer fields, tags mentioned in passing, commentary lines after </answer>
    ("structure_correct", "42", '{"reasoning": "6*7", "answer": 42}', 1, None),
    ("structure_correct", "42", '```json\n{"reasoning": "6*7", "answer": "42"}\n```', 1, None),
    ("structure_correct", "42", '{"final_answer": "x = 42", "confidence": "high"}', 1, None),
    ("structure_correct", "42", "I will put the answer in <answer> tags. 6*7=42.\n<answer>42</answer>", 1, None),
    ("structure_correct", "42", "Wrap it in <answer> and </answer>.\n<answer>42</answer>", 1, None),
    ("structure_correct", "42", "<answer>42</answer>\nThat is the answer.", 1, None),
    ("structure_correct", "5", "Some work.\n\n# Answer\n\n5", 1, None),
    ("structure_correct", "5", "The answer is 5.\nThe answer is 5.\nThe answer is 5.\nThe answer is 5.", 1, None),
    ("structure_correct", "16", '```json\n{\n  "reasoning": "Step 1: 64 / 16 = 4\nStep 2: 4 * 4 = 16\n",\n'
     '  "answer": "16 liters"\n}\n```', 1, None),
    ("structure_correct", "-1", 'So a + b = -1.\n\nThus, the final answer is:\n```json\n{\n  "reasoning": "Vieta.",\n'
     '  "answer": "-1"\n}\n```', 1, None),
    ("structure_correct", "60", '{\n  "reasoning": "percent covered",\n'
     '  "answer": (50 * 24 * 3) / 6000 * 100\n}', 1, None),
    ("structure_correct", "\\frac{1}{3}", "【解析】概率为3/9=1/3.<eoe>\n【答案】1/3<eoa>", 1, None),
    ("structure_correct", "12", "【解析】对于任何在函数定义域内的x，f(2)=12。<eoe>\n【答案】12<eoa>", 1, None),
    ("structure_cover", "98", '```json\n{\n  "reasoning": "sum",\n  "answer": "44"\n}\n```\n\nTherefore, Janet has 98 '
     'pens. The provided answer 44 is a mistake; the correct total is 98.', 0, None),
    ("structure_cover", "79", '```json\n{"answer": 72 + 25}\n```\n\nTherefore, the final answer is:\n\n'
     '```json\n{"answer": 79}\n```', 0, None),
    ("structure_cover", "\\frac{1}{3}", "【答案】1/4\n【答案】1/3<eoa>", 0, None),
    ("structure_cover", "42", '{"reasoning": "6*7 = \\\\boxed{41}", "answer": 42}', 0, None),
    ("structure_cover", "42", '{"answer": 42, "alternative_answer": 43}', 0, None),
    ("structure_cover", "42", '{"answer": [42, 43]}', 0, None),
    ("structure_cover", "42", "<answer>42</answer>\nThe answer is 43.", 0, None),
    ("structure_cover", "42", "<answer>42</answer>\nWait, actually it is 43.", 0, None),
    ("structure_cover", "42", "<answer>41</answer> then <answer>42</answer>", 0, None),
    ("structure_cover", "42", "<answer>42</answer> or 43", 0, None),
    # numbers as the world writes them, where they have one reading
    ("number_correct", "1234567", "The answer is $\\boxed{1'234'567}$.", 1, None),
    ("number_correct", "100000", "The answer is ₹1,00,000.", 1, None),
    ("number_correct", "12345.67", "Der Gesamtbetrag ist $\\boxed{12.345,67}$.", 1, None),
    ("number_correct", "6.02\\times10^{23}", "Answer: 6.02e23", 1, None),
    ("number_correct", "0.00012", "Answer: 1.2e-4", 1, None),
    ("number_correct", "56", "The answer is $\\boxed{\\frac{8!}{5!\\,3!}}$.", 1, None),
    ("number_correct", "28\\pi", "Alanı πr² ile hesaplanır. Cevap $\\boxed{28\\pi}$", 1, None),
    ("number_wrong", "1234567", "The answer is $\\boxed{1'234'568}$.", 0, None),
    ("number_wrong", "100000", "The answer is ₹1,00,001.", 0, None),
    ("number_wrong", "6.02\\times10^{23}", "Answer: 6.02e22", 0, None),
    ("number_wrong", "56", "The answer is $\\boxed{\\frac{8!}{5!\\,2!}}$.", 0, None),
    # references with descriptive words: the value and what it specifies
    ("described_correct", "\\$15 \\text{ profit}", "So she makes a profit of $\\boxed{\\$15}$.", 1, None),
    ("described_correct", "\\$15 \\text{ profit}", "So she makes $\\boxed{\\$15}$ profit.", 1, None),
    ("described_correct", "12 \\text{ km north}", "She ends up $\\boxed{12\\text{ km north}}$ of the start.", 1, None),
    ("described_correct", "500 \\text{ BC}", "The city was founded in $\\boxed{500 \\text{ BC}}$.", 1, None),
    ("described_correct", "20\\% \\text{ increase}", "The answer is $\\boxed{20\\%}$ increase.", 1, None),
    ("described_wrong", "\\$15 \\text{ profit}", "So she makes $\\boxed{\\$15}$ loss.", 0, None),
    ("described_wrong", "12 \\text{ km north}", "She ends up $\\boxed{12\\text{ km south}}$ of the start.", 0, None),
    ("described_wrong", "500 \\text{ BC}", "The city was founded in $\\boxed{500}$ AD.", 0, None),
    ("described_wrong", "20\\% \\text{ increase}", "The answer is $\\boxed{20\\%}$ decrease.", 0, None),
    ("described_wrong", "5 \\text{ furlongs}", "The answer is $\\boxed{5 \\text{ hours}}$.", 0, None),
    # a unit after the value is the value's: compared with the reference's unit
    ("unit_misreading", "5\\text{ kg}", "The bag weighs $\\boxed{5}$ g.", 0, None),
    ("unit_misreading", "500\\text{ mL}", "The bottle holds $\\boxed{500}$ L.", 0, None),
    ("unit_misreading", "3\\text{ km}", "Answer: The town is 3 m away.", 0, None),
]
