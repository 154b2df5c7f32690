"""An eighth blind table for the math verifier, written blind from the spec: neither the
verifier's source nor the rows of the other tables were read while writing it; only
docs/verifiers.md (the documented contract) and the row format of the seventh table. Labels are
what a careful human grader decides from the completion, the reference and (where a row gives
one) the question, not a guess at what the code does.

Rows may carry the question they answer: ``fam`` takes ``(reference, completion)`` or
``(reference, completion, question)``. ``ROWS`` keeps the five-field rows of the earlier tables
(family, reference, completion, expected math reward, None); ``QUESTIONS[i]`` is row i's
question, ``""`` when it gives none (the test passes it as ``Sample.prompt``).

Families (FAMILY_KIND gives the kind of each):
  * correct answers as real models write them: English answer sentences after a marker for
    questions asked in German, French, Spanish, Russian, Swahili, Bengali, Chinese and Japanese
    (and answer sentences in the question's own language); sentences with rate and operator
    words that do not change the value (``She earns $15 per hour.`` when the hourly rate is
    asked); JSON / YAML answers, ``<answer>`` tags with commentary after them, headings and
    repeated final markers; LaTeX layout, ``\\text{}`` units, percent, money, scientific
    notation, locale numbers and mixed numbers; references with descriptive words or layout
    (``\\$15 \\text{ profit}``, ``12 \\text{ km north}``, ``B\\\\ \\noindent``, ``x \\in [1,2]``);
  * wrong values in the same forms, and operator words that DO change the value: the
    reference's number written as ``15 times as many``, ``$120 per hour`` for a total, ``36
    dozen``, ``6 fewer``, ``24 litres per 100 km`` for 300 km, and a unit or percent sign the question
    names for something else (``120 hours`` for the minutes in 2 hours, ``5%`` for a discount in dollars);
  * misreadings: the value written is not the bare number (lakh, k, million, 万, тыс., Mio.,
    elfu, লক্ষ, a unit of another scale, a percent sign on a count, a percent dropped);
  * covers: one completion payable for more than one reference value (two values, ranges,
    ``either 4 or 5`` in nine languages, lists, JSON with two answers, ± ranges);
  * disowned: the right value stated and taken back (a word of falsity, a false equation, a
    negation in several languages); measured apart;
  * hedged: a single value stated with a hedge, a bound or a negation, in several languages;
    a careful grader would not pay it, but paying it earns nothing an honest answer would not,
    so these rows are measured apart (``test_math_blind8.py`` pins the ones paid).
"""

from __future__ import annotations

from blind_table import FamilyTable


class QuestionTable(FamilyTable):
    """A ``FamilyTable`` whose rows may carry their question: ``(reference, completion[, question])``.
    ``rows`` stays the five-field rows of the earlier tables; ``questions`` runs beside it."""

    def __init__(self, kinds: tuple[str, ...]):
        super().__init__(kinds)
        self.questions: list[str] = []

    def fam(self, name: str, kind: str, rows: list[tuple[str, ...]]) -> None:
        assert all(len(row) in (2, 3) for row in rows), name
        super().fam(name, kind, [(row[0], row[1]) for row in rows])
        self.questions += [row[2] if len(row) == 3 else "" for row in rows]


KINDS = ("correct", "wrong_value", "misreading", "cover", "disowned", "hedged")
_TABLE = QuestionTable(KINDS)
ROWS, FAMILY_KIND, QUESTIONS, fam, row_id = _TABLE.rows, _TABLE.family_kind, _TABLE.questions, _TABLE.fam, _TABLE.row_id


# questions in other languages (answers: 18, 28, 60, 26, 6, 21, 22, 40, 84, 80, 14, 12, 1.5)
Q_DE_MELANIE = ("Melanie ist eine Tür-zu-Tür-Verkäuferin. Sie verkaufte ein Drittel ihrer Staubsauger im "
                "grünen Haus, 2 weitere im roten Haus und die Hälfte des Rests im orangefarbenen Haus. Wenn "
                "Melanie noch 5 Staubsauger übrig hat, mit wie vielen hat sie angefangen?")
Q_FR_JEAN = ("Jean a 3 boîtes de 12 crayons. Il donne 8 crayons à sa sœur. "
             "Combien de crayons lui reste-t-il ?")
Q_ES_MARIA = ("Una tienda vende camisetas a 15 dólares cada una. Si María compra 4 camisetas, "
              "¿cuánto dinero gasta en total?")
Q_RU_MASHA = "У Маши было 45 яблок. Она раздала 19 яблок друзьям. Сколько яблок у неё осталось?"
Q_SW_JUMA = ("Juma ana machungwa 24. Anagawa machungwa hayo kwa watoto 4 sawasawa. "
             "Kila mtoto anapata machungwa mangapi?")
Q_BN_RINA = "রিনার কাছে ১২টি কলম আছে। সে আরও ৯টি কলম কিনল। এখন তার কাছে মোট কতগুলি কলম আছে?"
Q_ZH_MING = "小明有15本书，他又买了7本书。他现在一共有多少本书？"
Q_JA_RINGO = "りんごが1箱に8個入っています。5箱では、りんごは全部で何個ですか？"
Q_DE_ANNA = "Anna verdient 12 Euro pro Stunde. Wie viel Euro verdient sie in 7 Stunden?"
Q_FR_TRAIN = "Un train parcourt 240 km en 3 heures. Quelle est sa vitesse moyenne en km/h ?"
Q_ES_PEDRO = ("Pedro tiene el doble de años que su hermana, que tiene 7 años. "
              "¿Cuántos años tiene Pedro?")
Q_RU_CLASS = "В классе 30 учеников, из них 40% — девочки. Сколько девочек в классе?"
Q_ES_JARRA = "Una jarra tiene 3 litros de jugo y se reparte en 2 vasos iguales. ¿Cuántos litros hay en cada vaso?"
Q_DE_KEKSE = "Tom hat 4 Kekse. Lisa hat 3-mal so viele Kekse wie Tom. Wie viele Kekse hat Lisa?"
Q_FR_BILLES = "Léa a 5 billes et Omar en a 3 fois plus. Combien de billes Omar a-t-il ?"
Q_DE_14 = "Ein Bauer hat 20 Hühner und verkauft 6 davon. Wie viele Hühner hat er jetzt noch?"
Q_RU_14 = "У Пети было 20 конфет, он съел 6. Сколько конфет у него осталось?"
Q_FR_14 = "Paul a 20 billes et en perd 6. Combien de billes lui reste-t-il ?"
Q_ES_14 = "Ana tiene 20 lápices y regala 6. ¿Cuántos lápices le quedan?"
Q_ZH_14 = "小红有20颗糖，吃了6颗。她还剩多少颗糖？"
Q_JA_14 = "鉛筆が20本あります。6本使いました。残りは何本ですか？"
Q_SW_14 = "Amina ana maembe 20 na anauza maembe 6. Amebaki na maembe mangapi?"
Q_BN_14 = "রাজুর কাছে ২০টি আম ছিল। সে ৬টি আম খেয়ে ফেলল। তার কাছে কতগুলি আম বাকি আছে?"

# questions in English
Q_WAGE = "Maria works 8 hours and is paid $120 in total. How much does she earn per hour?"
Q_CUPCAKES = "Four friends share 24 cupcakes equally. How many cupcakes does each friend get?"
Q_SPEED = "A car travels 180 miles in 3 hours. What is its average speed in miles per hour?"
Q_PENCIL = "A box of 12 pencils costs $3. What is the price of one pencil in dollars?"
Q_PUMP = "A pump moves 450 litres of water in 5 minutes. How many litres does it pump per minute?"
Q_TICKETS = "Tickets to the fair cost $8 each. How much do 5 tickets cost?"
Q_PAGES = "Sam reads 20 pages a day. How many pages does he read in a week?"
Q_COOKIES = "Three children share 27 cookies equally. How many cookies does each child get?"
Q_TOTAL_PAY = "Maria is paid $15 per hour and works 8 hours. How much does she earn in total?"
Q_STICKERS = "Lena has 5 stickers and Omar has 3 times as many stickers as Lena. How many stickers does Omar have?"
Q_ROLLS = "A baker made 3 dozen rolls. How many rolls did he make?"
Q_APPLES_LEFT = "Jo has 10 apples and gives away 4. How many apples does Jo have left?"
Q_PENS_COST = "A pen costs $2. How much do 7 pens cost?"
Q_WHEELS = "How many wheels do 5 bicycles have in total?"
Q_RUN = "A runner runs 5 km every day for 6 days. How many kilometres does she run in total?"
Q_SAVE = "Ben saves $25 a week for 4 weeks. How many dollars does he save in total?"
Q_FATHER = "Tom is 8 years old and his father is 4 times as old as Tom. How old is his father?"
Q_TOTAL_CUPCAKES = "Four friends each bring 6 cupcakes to a party. How many cupcakes are there in total?"
Q_ABSENT = "A class has 20 students and 3 of them are absent today. How many students are absent?"

Q_EGGS = "Each box holds 6 eggs. How many eggs are in 4 boxes?"
Q_DISCOUNT = "A shirt costs $20 and is discounted by 25%. What is the discount in dollars?"
Q_DOZEN = "Pencils cost $3 per dozen. How many dollars do 4 dozen pencils cost?"
Q_FUEL = "A car uses 8 litres of fuel per 100 km. How many litres does it use for 300 km?"
Q_PENS_TOGETHER = "Tim has 4 pens and Sara has 3 times as many pens as Tim. How many pens do they have together?"
Q_MINUTES = "How many minutes are in 2 hours?"
Q_FLOUR = "A recipe needs 250 g of flour per cake. How many grams of flour are needed for 4 cakes?"

# =====================================================================================
# correct
fam("b8_foreign_question_english_sentence_correct", "correct", [
    ("18", "Let x be the number she started with. After the green house she has 2x/3, after the red house "
           "2x/3 - 2, and half of that is 5, so 2x/3 - 2 = 10 and x = 18.\n\n"
           "FINAL ANSWER: Melanie had 18 vacuum cleaners at the beginning.", Q_DE_MELANIE),
    ("28", "Jean starts with 3 * 12 = 36 pencils and gives away 8, so 36 - 8 = 28.\n\n"
           "FINAL ANSWER: Jean has 28 pencils left.", Q_FR_JEAN),
    ("60", "Each T-shirt costs $15 and she buys 4: 4 * 15 = 60.\n\nFINAL ANSWER: María spends $60 in total.",
     Q_ES_MARIA),
    ("26", "45 - 19 = 26.\n\nFINAL ANSWER: Masha has 26 apples left.", Q_RU_MASHA),
    ("6", "24 oranges shared equally among 4 children: 24 / 4 = 6.\n\nFINAL ANSWER: Each child gets 6 oranges.",
     Q_SW_JUMA),
    ("21", "Rina had 12 pens and bought 9 more: 12 + 9 = 21.\n\nFINAL ANSWER: Rina now has 21 pens.", Q_BN_RINA),
    ("22", "15 + 7 = 22.\n\nFINAL ANSWER: Xiao Ming has 22 books in total.", Q_ZH_MING),
    ("40", "8 apples per box and 5 boxes: 8 * 5 = 40.\n\nFINAL ANSWER: There are 40 apples in total.", Q_JA_RINGO),
    ("84", "12 euros per hour for 7 hours: 12 * 7 = 84.\n\nFINAL ANSWER: Anna earns 84 euros in 7 hours.",
     Q_DE_ANNA),
    ("80", "240 km / 3 h = 80 km/h.\n\nFINAL ANSWER: The train's average speed is 80 km/h.", Q_FR_TRAIN),
    ("14", "His sister is 7 and he is twice as old: 2 * 7 = 14.\n\nFINAL ANSWER: Pedro is 14 years old.",
     Q_ES_PEDRO),
    ("12", "40% of 30 is 0.4 * 30 = 12.\n\nFINAL ANSWER: There are 12 girls in the class.", Q_RU_CLASS),
    ("18", "Working backwards from the 5 that are left: before the orange house she had 10, before the red "
           "house 12, and 12 is two thirds of 18.\n\n**Final Answer:** Melanie started with $\\boxed{18}$ "
           "vacuum cleaners.", Q_DE_MELANIE),
    ("28", "3 × 12 = 36, 36 − 8 = 28\n\nAnswer: 28 pencils", Q_FR_JEAN),
    ("22", "He had 15 books and bought 7 more.\n\nThe answer is: Xiao Ming now has 22 books.", Q_ZH_MING),
    ("60", "4 × $15 = $60\n\n#### 60", Q_ES_MARIA),
])

fam("b8_foreign_question_native_sentence_correct", "correct", [
    ("18", "Rückwärts gerechnet: 5 · 2 = 10, 10 + 2 = 12, 12 : 2 · 3 = 18.\n\n"
           "Antwort: Melanie hatte am Anfang 18 Staubsauger.", Q_DE_MELANIE),
    ("28", "3 × 12 = 36 crayons, puis 36 − 8 = 28.\n\nRéponse : Jean a 28 crayons.", Q_FR_JEAN),
    ("60", "4 × 15 = 60.\n\nRespuesta: María gasta 60 dólares en total.", Q_ES_MARIA),
    ("26", "45 − 19 = 26.\n\nОтвет: у Маши осталось 26 яблок.", Q_RU_MASHA),
    ("6", "24 ÷ 4 = 6.\n\nJibu: Kila mtoto anapata machungwa 6.", Q_SW_JUMA),
    ("21", "১২ + ৯ = ২১।\n\nউত্তর: রিনার কাছে এখন ২১টি কলম আছে।", Q_BN_RINA),
    ("22", "15 + 7 = 22。\n\n答案：小明一共有22本书。", Q_ZH_MING),
    ("40", "8 × 5 = 40 です。\n\n答え：りんごは全部で40個です。", Q_JA_RINGO),
    ("1.5", "3 litros entre 2 vasos: 3 / 2 = 1,5.\n\nRespuesta: 1,5 litros", Q_ES_JARRA),
    ("84", "12 · 7 = 84\n\nDie Antwort lautet: Anna verdient 84 Euro.", Q_DE_ANNA),
])

fam("b8_rate_words_neutral_correct", "correct", [
    ("15", "She is paid $120 for 8 hours: 120 / 8 = 15.\n\nAnswer: She earns $15 per hour.", Q_WAGE),
    ("6", "24 / 4 = 6.\n\nFinal answer: Each friend gets 6 cupcakes.", Q_CUPCAKES),
    ("60", "180 / 3 = 60.\n\nThe answer is: the car travels at 60 miles per hour.", Q_SPEED),
    ("0.25", "3 / 12 = 0.25.\n\nAnswer: Each pencil costs $0.25.", Q_PENCIL),
    ("90", "450 / 5 = 90.\n\nFinal answer: The pump moves 90 litres per minute.", Q_PUMP),
    ("40", "8 * 5 = 40.\n\nAnswer: 5 tickets cost $40.", Q_TICKETS),
    ("140", "A week has 7 days: 20 * 7 = 140.\n\nAnswer: Sam reads 140 pages in a week.", Q_PAGES),
    ("9", "27 / 3 = 9.\n\nFINAL ANSWER: Each of the 3 children gets 9 cookies.", Q_COOKIES),
    ("15", "120 / 8 = 15.\n\nFINAL ANSWER: Maria earns $15 an hour.", Q_WAGE),
    ("15", "Dividing the pay by the hours: 120 / 8 = 15.\n\nAnswer: She earns $15 per hour."),
    ("6", "24 cupcakes for 4 friends: 24 / 4 = 6.\n\nFinal answer: Each friend gets 6 cupcakes."),
    ("60", "The car's speed is 180 / 3 = 60.\n\nAnswer: $\\boxed{60}$ miles per hour", Q_SPEED),
    ("9", "27 / 3 = 9.\n\nSo each child gets $\\boxed{9}$ cookies.", Q_COOKIES),
    ("24", "6 * 4 = 24.\n\nAnswer: There are 24 eggs in 4 boxes.", Q_EGGS),
    ("120", "2 * 60 = 120.\n\nAnswer: There are 120 minutes in 2 hours.", Q_MINUTES),
    ("5", "25% of $20 is $5.\n\nAnswer: The discount is $5.", Q_DISCOUNT),
    ("24", "300 km is 3 times 100 km: 3 * 8 = 24.\n\nAnswer: It uses 24 litres for 300 km.", Q_FUEL),
])

fam("b8_structured_output_correct", "correct", [
    ("18", '{"final_answer": "Melanie had 18 vacuum cleaners at the beginning."}', Q_DE_MELANIE),
    ("42", '```json\n{\n  "answer": 42,\n  "unit": "cm"\n}\n```'),
    ("28", '{"steps": ["3 * 12 = 36", "36 - 8 = 28"], "answer": "28"}'),
    ("\\frac{3}{4}", '{"answer": "\\\\frac{3}{4}"}'),
    ("\\frac{1}{8}", '{"answer": 0.125, "confidence": 0.9}'),
    ("45", "```yaml\nfinal_answer: 45\n```"),
    ("15", '```yaml\nanswer: "$15"\n```'),
    ("26", '```json\n{"reasoning": "45 - 19 = 26", "answer": "Masha has 26 apples left."}\n```', Q_RU_MASHA),
    ("2.5", "answer: 2.5"),
])

fam("b8_answer_tag_commentary_correct", "correct", [
    ("28", "<answer>28</answer>\n\nThis is because 3 * 12 - 8 = 36 - 8 = 28."),
    ("18", "<answer>18</answer>\n\nI hope this helps!"),
    ("42", "<answer>\n42\n</answer>\n\nLet me know if you have any other questions."),
    ("7", "<answer>$\\boxed{7}$</answer>\n\nThe answer is 7."),
    ("3", "<think>180 km at 60 km/h is 3 hours.</think>\n<answer>The train arrives after 3 hours.</answer>\n\n"
          "That is the answer."),
    ("22", "<answer>22</answer>\n\n小明一共有22本书。", Q_ZH_MING),
])

fam("b8_headings_repeated_markers_correct", "correct", [
    ("28", "## Solution\n\n3 * 12 = 36 and 36 - 8 = 28.\n\n## Answer\n\n**28 pencils**"),
    ("28", "3 * 12 - 8 = 28.\n\n**Answer:** 28\n\n**Final Answer:** 28"),
    ("22", "15 + 7 = 22.\n\nThe answer is $\\boxed{22}$.\n\nFINAL ANSWER: 22"),
    ("60", "4 * 15 = 60.\n\n### Final Answer\n\nThe final answer is $\\boxed{60}$. I hope it is correct."),
    ("26", "45 - 19 = 26.\n\nFINAL ANSWER: 26\nFINAL ANSWER: 26"),
    ("40", "# Answer\n\n40\n\n# Final Answer\n\n$\\boxed{40}$"),
    ("12", "40% of 30 = 12.\n\n### **Final Answer**\n\n**There are 12 girls in the class.**", Q_RU_CLASS),
])

fam("b8_latex_layout_correct", "correct", [
    ("18", "Working backwards gives 18.\n\n$\\boxed{18 \\text{ vacuum cleaners}}$"),
    ("18 \\text{ cm}", "The side is 18 cm.\n\nThe answer is $\\boxed{\\text{18 cm}}$."),
    ("\\frac{5}{12}", "The probability is\n$$\\boxed{\\displaystyle \\frac{5}{12}}$$"),
    ("\\frac{9}{4}", "Adding the fractions:\n\\[\n\\boxed{\n  2\\tfrac{1}{4}\n}\n\\]"),
    ("1250", "The total is $1,250.\n\nThe answer is $\\boxed{\\$1{,}250.00}$."),
    ("35", "7 of 20 is 35 percent.\n\nThe answer is $\\boxed{35\\%}$."),
    ("35\\%", "7 of 20 is 35 percent.\n\nThe answer is $\\boxed{35\\%}$."),
    ("320000", "The population is $3.2 \\times 10^5$.\n\n$\\boxed{3.2 \\times 10^{5}}$"),
    ("0.0045", "The concentration is tiny.\n\nAnswer: $4.5\\times10^{-3}$"),
    ("12 \\text{ km}", "The distance is\n\n$$\\boxed{12\\,\\mathrm{km}}$$"),
    ("90", "The angle is a right angle.\n\nFinal Answer: $\\boxed{90^{\\circ}}$"),
    ("4.5", "Three coffees at $1.50 each.\n\nFinal Answer: $\\$\\,4.50$"),
    ("\\frac{7}{2}", "Half of 7 cups.\n\nAnswer: 3 1/2 cups"),
    ("2.375", "19 eighths.\n\nThe answer is $\\boxed{2\\frac{3}{8}}$."),
    ("1234567", "Summing the three regions.\n\nAnswer: 1 234 567"),
    ("1234567", "Die drei Bezirke zusammen.\n\nAntwort: 1.234.567"),
    ("3.75", "Trois croissants à 1,25 € chacun.\n\nRéponse : 3,75 €"),
    ("125000", "The fee is one and a quarter lakh rupees.\n\nAnswer: ₹1,25,000"),
    ("\\frac{2}{3}", "So the ratio is\n\\begin{equation}\n\\boxed{\\dfrac{2}{3}}\n\\end{equation}"),
])

fam("b8_described_reference_correct", "correct", [
    ("\\$15 \\text{ profit}", "Revenue $40, cost $25.\n\nAnswer: The shop makes a profit of $15."),
    ("\\$15 \\text{ profit}", "Revenue $40, cost $25, so the shop gains $15.\n\nThe answer is $\\boxed{15}$."),
    ("12 \\text{ km north}", "She walks 20 km north and 8 km south.\n\nFinal answer: 12 km north"),
    ("12 \\text{ km north}", "20 - 8 = 12.\n\nAnswer: She ends up 12 km north of the start."),
    ("x \\in [1,2]", "Both endpoints satisfy the inequality.\n\n$\\boxed{[1, 2]}$"),
    ("x \\in [1,2]", "Solving $x^2 - 3x + 2 \\le 0$.\n\nThe answer is $\\boxed{1 \\le x \\le 2}$."),
    ("B\\\\ \\noindent", "Only option B fits the data.\n\nThe answer is (B)."),
    ("B\\\\ \\noindent", "Only option B fits the data.\n\n$\\boxed{B}$"),
    ("18 \\\\", "Working backwards gives 18.\n\n$\\boxed{18}$"),
    ("\\displaystyle \\frac{3}{4}", "Three of the four parts.\n\nAnswer: 3/4"),
    ("20\\% \\text{ increase}", "From $50 to $60.\n\nAnswer: The price rises by 20%."),
    ("\\text{(C)}\\ 24", "4! = 24, which is option C.\n\nThe answer is (C)."),
])

# =====================================================================================
# wrong values
fam("b8_foreign_question_wrong", "wrong_value", [
    ("18", "2x/3 - 2 = 10 gives x = 17.\n\nFINAL ANSWER: Melanie had 17 vacuum cleaners at the beginning.",
     Q_DE_MELANIE),
    ("28", "3 * 12 = 36, 36 - 8 = 29.\n\nFINAL ANSWER: Jean has 29 pencils left.", Q_FR_JEAN),
    ("60", "FINAL ANSWER: María spends $45 in total.", Q_ES_MARIA),
    ("26", "Ответ: у Маши осталось 24 яблока.", Q_RU_MASHA),
    ("6", "Jibu: Kila mtoto anapata machungwa 8.", Q_SW_JUMA),
    ("21", "উত্তর: রিনার কাছে এখন ২০টি কলম আছে।", Q_BN_RINA),
    ("22", "答案：小明一共有23本书。", Q_ZH_MING),
    ("40", "答え：りんごは全部で45個です。", Q_JA_RINGO),
    ("84", "FINAL ANSWER: Anna earns 12 euros in 7 hours.", Q_DE_ANNA),
    ("80", "FINAL ANSWER: The train's average speed is 240 km/h.", Q_FR_TRAIN),
    ("14", "FINAL ANSWER: Pedro is 7 years old.", Q_ES_PEDRO),
    ("12", "FINAL ANSWER: There are 18 girls in the class.", Q_RU_CLASS),
])

# The reference's number written with a rate or multiplier that makes it another quantity than the one
# asked. 'The runner covers 30 km every day.' carries its question: without it, 30 km a day could be
# what was asked, and a grader could not call it wrong.
fam("b8_operator_changes_value_wrong", "wrong_value", [
    ("120", "FINAL ANSWER: She earns $120 per hour for 8 hours.", Q_TOTAL_PAY),
    ("24", "Answer: Each friend gets 24 cupcakes.", Q_TOTAL_CUPCAKES),
    ("15", "Final answer: Omar has 15 times as many stickers.", Q_STICKERS),
    ("36", "Answer: He made 36 dozen rolls.", Q_ROLLS),
    ("6", "Answer: Jo has 6 fewer apples.", Q_APPLES_LEFT),
    ("14", "Answer: The pens cost $14 each.", Q_PENS_COST),
    ("10", "Final answer: 5 bicycles have 10 pairs of wheels.", Q_WHEELS),
    ("30", "Answer: She runs 30 km every day.", Q_RUN),
    ("100", "Answer: Ben saves $100 a week.", Q_SAVE),
    ("32", "Answer: His father is 32 years older than Tom.", Q_FATHER),
    ("12", "FINAL ANSWER: Lisa has 12 times as many cookies as Tom.", Q_DE_KEKSE),
    ("12", "Antwort: Lisa hat 12-mal so viele Kekse wie Tom.", Q_DE_KEKSE),
    ("15", "Réponse : Omar a 15 fois plus de billes que Léa.", Q_FR_BILLES),
    ("15", "Final answer: Omar has 15 times as many stickers as Lena.", Q_STICKERS),
    ("120", "FINAL ANSWER: She earns $120 per hour.", Q_TOTAL_PAY),
    ("120", "FINAL ANSWER: She earns $120 every hour.", Q_TOTAL_PAY),
    ("30", "Answer: The runner covers 30 km every day.", Q_RUN),
    ("15", "Final answer: Omar has 15 more stickers than Lena.", Q_STICKERS),
    ("15", "Final answer: twice 15"),
    ("12", "The answer is 3 times 12."),
    ("15", "Final answer: 15 squared"),
    ("24", "Answer: Each box holds 24 eggs.", Q_EGGS),
    ("5", "Answer: The discount is 5%.", Q_DISCOUNT),
    ("12", "Answer: They cost $12 per dozen.", Q_DOZEN),
    ("24", "Answer: It uses 24 litres per 100 km.", Q_FUEL),
    ("16", "Answer: Sara has 16 times as many pens as Tim.", Q_PENS_TOGETHER),
    ("120", "Answer: 120 hours", Q_MINUTES),
    ("1000", "Answer: 1000 g of flour per cake.", Q_FLOUR),
])

fam("b8_structured_wrong", "wrong_value", [
    ("28", '{"answer": 27}'),
    ("28", '```json\n{"reasoning": "36 - 8", "final_answer": "Jean has 27 pencils left."}\n```', Q_FR_JEAN),
    ("45", "```yaml\nfinal_answer: 54\n```"),
    ("28", "<answer>29</answer>\n\nThis is because 36 - 8 = 28."),
    ("60", "## Answer\n\n**$65**"),
    ("26", "FINAL ANSWER: 62\nFINAL ANSWER: 62"),
])

fam("b8_latex_layout_wrong", "wrong_value", [
    ("18 \\text{ cm}", "The answer is $\\boxed{\\text{18 mm}}$."),
    ("\\frac{5}{12}", "$$\\boxed{\\displaystyle \\frac{5}{13}}$$"),
    ("\\frac{9}{4}", "\\[\n\\boxed{\n  2\\tfrac{1}{3}\n}\n\\]"),
    ("1250", "The answer is $\\boxed{\\$1{,}205.00}$."),
    ("320000", "$\\boxed{3.2 \\times 10^{6}}$"),
    ("0.0045", "Answer: $4.5\\times10^{-4}$"),
    ("\\frac{7}{2}", "Answer: 3 1/3 cups"),
    ("3.75", "Réponse : 3,57 €"),
    ("90^\\circ", "Final Answer: $\\boxed{90 \\text{ radians}}$"),
    ("35\\%", "The answer is $\\boxed{0.35\\%}$."),
])

fam("b8_described_reference_wrong", "wrong_value", [
    ("\\$15 \\text{ profit}", "Answer: The shop makes a loss of $15."),
    ("12 \\text{ km north}", "Final answer: 12 km south"),
    ("12 \\text{ km north}", "Answer: She ends up 12 km east of the start."),
    ("x \\in [1,2]", "$\\boxed{(1, 2)}$"),
    ("x \\in [1,2]", "The answer is $\\boxed{x \\in [1, 2)}$."),
    ("B\\\\ \\noindent", "The answer is (C)."),
    ("B\\\\ \\noindent", "$\\boxed{D}$"),
    ("18 \\\\", "$\\boxed{19}$"),
    ("20\\% \\text{ increase}", "Answer: The price falls by 20%."),
    ("\\text{(C)}\\ 24", "The answer is (D)."),
])

# =====================================================================================
# misreadings
fam("b8_multiplier_misreading", "misreading", [
    ("3", "Answer: 3 lakh"),
    ("12", "Final answer: 12k"),
    ("5", "FINAL ANSWER: The city has 5 million people."),
    ("5", "Answer: $5M"),
    ("2", "答案：2万"),
    ("3", "Ответ: 3 тыс. рублей"),
    ("7", "Antwort: 7 Mio. Euro"),
    ("12", "Answer: 12 crore"),
    ("30", "Jibu: shilingi 30 elfu", Q_SW_JUMA),
    ("3", "উত্তর: ৩ লক্ষ টাকা", Q_BN_RINA),
    ("3", "Respuesta: 3 mil pesos", Q_ES_MARIA),
    ("5", "Réponse : 5 milliards d'euros", Q_FR_JEAN),
    ("3", "答え：3千個", Q_JA_RINGO),
    ("4", "Answer: 4 dozen eggs"),
    ("12", "FINAL ANSWER: Melanie had 12k vacuum cleaners at the beginning.", Q_DE_MELANIE),
])

# 'The fraction of the class is \boxed{40}' for 0.4 is a percent dropped; it was written with '40% of
# them' before the box at first, which a grader might read as 40% and pay, so that lead was removed.
fam("b8_unit_percent_misreading", "misreading", [
    ("250 \\text{ L}", "Answer: 250 mL"),
    ("5 \\text{ kg}", "The answer is $\\boxed{5}$ g."),
    ("60 \\text{ km/h}", "Answer: 60 km/min"),
    ("12 \\text{ cm}", "Answer: 12 mm"),
    ("2 \\text{ hours}", "The answer is $\\boxed{2}$ minutes."),
    ("0.4", "The fraction of the class is $\\boxed{40}$."),
    ("3", "Answer: 3%", Q_ABSENT),
    ("3", "Answer: 3 percent", Q_ABSENT),
    ("35", "Answer: 35‰"),
    ("35", "Final answer: 35 basis points"),
    ("0.35", "FINAL ANSWER: 35"),
])

# =====================================================================================
# covers
fam("b8_cover", "cover", [
    ("4", "Answer: either 4 or 5"),
    ("5", "FINAL ANSWER: Each friend gets 4 or 5 cupcakes.", Q_CUPCAKES),
    ("13", "The answer is between 12 and 14."),
    ("12", "Answer: 12–14"),
    ("12", "Final answer: 12, 13"),
    ("4", "Antwort: entweder 4 oder 5", Q_DE_KEKSE),
    ("5", "Réponse : 4 ou 5", Q_FR_BILLES),
    ("4", "Respuesta: 4 o 5", Q_ES_14),
    ("4", "Ответ: 4 или 5", Q_RU_14),
    ("4", "答案：4或5", Q_ZH_14),
    ("5", "答え：4か5", Q_JA_14),
    ("4", "Jibu: 4 au 5", Q_SW_14),
    ("4", "উত্তর: ৪ বা ৫", Q_BN_14),
    ("18", "FINAL ANSWER: Melanie had 18 or 20 vacuum cleaners.", Q_DE_MELANIE),
    ("18", "Answer: 18 (or 17 if she kept one for herself)"),
    ("18", "Answer: 18 ± 1"),
    ("18", "Answer: 17-19 vacuum cleaners"),
    ("19", "Answer: 18\nAnswer: 19"),
    ("4", '{"answer": [4, 5]}'),
    ("4", '{"answer": 4, "alternative_answer": 5}'),
    ("5", '{"answer": "4 or 5"}'),
    ("4", "<answer>4, 5</answer>"),
    ("1", "The answer is $x \\in \\{1, 2\\}$."),
    ("5", "The answer is $\\boxed{4}$ or $\\boxed{5}$."),
    ("6", "Final answer: 6 cupcakes each (7 if they also share the extra one).", Q_CUPCAKES),
    ("4", "<answer>4</answer>\n\n(5 is also acceptable.)"),
    ("12", "<answer>12</answer>\nAlternatively, 13."),
    ("26", "FINAL ANSWER: 26\nFINAL ANSWER: 27"),
    ("27", "## Answer\n\n26\n\n## Alternative answer\n\n27"),
    ("14", "Answer: somewhere from 14 to 16"),
    ("15", "FINAL ANSWER: She earns $15 or $16 per hour.", Q_WAGE),
    ("4", "```yaml\nanswer: 4\nalternative: 5\n```"),
])

# =====================================================================================
# disowned (measured)
fam("b8_disowned", "disowned", [
    ("14", "The answer is not $\\boxed{14}$."),
    ("14", "Final answer: 14 (this is wrong, I could not solve it)."),
    ("14", "Falsche Antwort: 14", Q_DE_14),
    ("14", "Réponse fausse : 14", Q_FR_14),
    ("14", "错误答案：14", Q_ZH_14),
    ("14", "Неправильный ответ: 14", Q_RU_14),
    ("14", "$\\boxed{14}$ is what a careless student would get."),
    ("14", "$2 + 3 = \\boxed{14}$"),
    ("14", "Jibu si 14.", Q_SW_14),
    ("14", "答えは14ではありません。", Q_JA_14),
    ("14", "Incorrect answer:\n\n$\\boxed{14}$"),
    ("14", "FINAL ANSWER: 14 is not the number of chickens he has left.", Q_DE_14),
])

# =====================================================================================
# hedged (measured)
fam("b8_hedged", "hedged", [
    ("14", "Answer: about 14"),
    ("14", "Answer: at least 14"),
    ("14", "Answer: not 14"),
    ("14", "答え：約14", Q_JA_14),
    ("14", "Ответ: примерно 14", Q_RU_14),
    ("14", "Antwort: mindestens 14", Q_DE_14),
    ("14", "Réponse : environ 14", Q_FR_14),
    ("14", "Respuesta: aproximadamente 14", Q_ES_14),
    ("14", "Jibu: takriban 14", Q_SW_14),
    ("14", "উত্তর: প্রায় ১৪", Q_BN_14),
    ("14", "答案：大约14", Q_ZH_14),
    ("14", "Antwort: höchstens 14", Q_DE_14),
    ("14", "Respuesta: no más de 14", Q_ES_14),
    ("14", "FINAL ANSWER: Roughly 14 chickens are left.", Q_DE_14),
    ("18", "FINAL ANSWER: Melanie had about 18 vacuum cleaners at the beginning.", Q_DE_MELANIE),
    ("18", "FINAL ANSWER: Melanie had at least 18 vacuum cleaners at the beginning.", Q_DE_MELANIE),
    ("14", "Ответ: не менее 14", Q_RU_14),
    ("14", "Antwort: nicht 14", Q_DE_14),
    ("14", "Réponse : pas 14", Q_FR_14),
    ("14", "答案：不是14", Q_ZH_14),
    ("14", "Answer: 14 or so"),
    ("14", "Answer: ~14"),
    ("14", "Answer: 14, give or take"),
    ("14", "FINAL ANSWER: I think 14."),
    ("14", "Answer: probably 14"),
    ("14", "FINAL ANSWER: Petya has about 14 sweets left.", Q_RU_14),
    ("14", "FINAL ANSWER: Ana has at most 14 pencils left.", Q_ES_14),
    ("14", "答え：14本くらい", Q_JA_14),
])
