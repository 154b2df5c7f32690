"""Format rows for the math and exact verifiers: the final answer read on the document
structure (docs/verifiers.md, "Where the final answer is").

"correct" families are the endings real models write (reasoning-model labels and headings
before display math, the ``<reasoning>``/``<answer>`` tutorial format, few-shot ``A:``
lines, Minerva's sign-off, GSM8K's ``####`` with calculator annotations, Qwen/DeepSeek
boxes in ``$$`` blocks, Markdown case headings, money in prose, a word of another script
elsewhere, a CJK colon, a box inside its sentence, modal verbs and negations that belong
to the subject): all must be accepted. The other families are what an adaptive attacker
writes around the same formats: "wrong_value" (the format with another value), "cover"
(one completion for several values), "disowned" (the right value, disowned by a synonym
or misspelling of "not", an HTML entity, Markdown that renders "not", a label such as
"Wrong answer:", or a ``####`` / heading after a negation): all must earn 0.

Same row format as ``test_math_adversarial.ROWS``: (family, reference, completion, math,
exact), ``exact`` None where exact match is not meant to decide (no marker: exact does
not read unmarked text).
"""

from __future__ import annotations

R1_LABEL = ("Natalia sold 48 clips in April and half as many in May, so 48 + 24 = 72.\n\n"
            "**Final Answer:**\n\\[\n\\boxed{{{v}}}\n\\]")
R1_HEADING = ("We add the two months: $48 + 24 = 72$.\n\n"
              "### Final Answer\n$$\n\\boxed{{{v}}}\n$$")

ROWS: list[tuple[str, str, str, int, int | None]] = [
    # -- reasoning-model endings: a label or heading, then display math on its own lines
    ("final_answer_label", "72", R1_LABEL.format(v="72"), 1, 1),
    ("final_answer_label", "110", "<think>\nOkay, 10 * 11 = 110.\n</think>\n\nThe product is 110.\n\n"
     "**Final Answer:**\n\\[\n\\boxed{110}\n\\]", 1, 1),
    ("final_answer_label", "110", "The product is $10 \\times 11 = 110$.\n\n**Final Answer**\n\\[\n\\boxed{110}\n\\]",
     1, 1),
    ("final_answer_label", "\\frac{3}{4}", "So the probability is $\\frac{3}{4}$.\n\n**Final Answer:**\n"
     "$$\n\\boxed{\\dfrac{3}{4}}\n$$", 1, 1),
    ("final_answer_label", "12", "**Final Answer:** \\boxed{12}", 1, 1),
    ("final_answer_label", "12", "Adding the cases gives 12.\n\n**Final Answer:**\n\n\\[\n\\boxed{12}\n\\]\n", 1, 1),
    ("final_answer_heading", "72", R1_HEADING.format(v="72"), 1, 1),
    ("final_answer_heading", "5", "## Step 1: Set up\n$2x + 3 = 13$\n\n## Step 2: Solve\n$x = 5$\n\n"
     "## Final Answer\n\\[\n\\boxed{5}\n\\]", 1, 1),
    ("final_answer_heading", "5", "### Final Answer\n\nThe final answer is $\\boxed{5}$.", 1, 1),
    ("final_answer_heading", "5", "#### Final Answer\n\\boxed{5}", 1, 1),
    # -- the <reasoning>/<answer> tutorial format: a tag is never an operator
    ("reasoning_tags", "30", "<reasoning>\n15 * 2 = 30, and 30 > 20.\n</reasoning>\n<answer>\n30\n</answer>", 1, 1),
    ("reasoning_tags", "18", "<reasoning>\nJanet's ducks lay 16 eggs; she eats 3 and bakes with 4, so 9 are "
     "left and 9 * 2 = 18.\n</reasoning>\n<answer>18</answer>", 1, 1),
    ("reasoning_tags", "4", "<reasoning>x > 3 and x < 5, so x = 4</reasoning>\n<answer>4</answer>", 1, 1),
    # a lead-in never runs across a tag: the reasoning is closed before the answer opens
    ("reasoning_tags", "9", "<reasoning>Half of them are not sold</reasoning>\n<answer>9</answer>", 1, 1),
    ("reasoning_tags", "7", "<think>3 + 4</think>\n<reasoning>\n3 + 4 = 7\n</reasoning>\n<answer>\n7\n</answer>\n",
     1, 1),
    # -- few-shot harnesses: "A:" lines
    ("few_shot", "30", "There are 15 pairs, so 15 * 2 = 30.\nA: 30", 1, 1),
    ("few_shot", "72", "A: Natalia sold 48 / 2 = 24 clips in May. 48 + 24 = 72. The answer is 72.", 1, 1),
    ("few_shot", "6", "A: There are 15 trees originally. Then there were 21 trees after some more were planted. "
     "So there must have been 21 - 15 = 6. The answer is 6.", 1, 1),
    ("few_shot", "5", "A: 5", 1, 1),
    # -- Minerva's sign-off
    ("minerva", "72", "She sold 48 + 24 = 72.\nFinal Answer: The final answer is $72$. I hope it is correct.", 1, 1),
    ("minerva", "\\frac{1}{2}", "Final Answer: The final answer is $\\frac{1}{2}$. I hope it is correct.", 1, 1),
    ("minerva", "-3", "Solving gives $x = -3$.\n\nFinal Answer: The final answer is $-3$. I hope it is correct.\n",
     1, 1),
    # -- GSM8K reference solutions and "####" endings
    ("gsm8k", "72", "Natalia sold 48/2 = <<48/2=24>>24 clips in May.\nNatalia sold 48+24 = <<48+24=72>>72 clips "
     "altogether in April and May.\n#### 72", 1, 1),
    ("gsm8k", "10", "Weng earns 12/60 = $<<12/60=0.2>>0.2 per minute.\nWorking 50 minutes, she earned 0.2 x 50 = "
     "$<<0.2*50=10>>10.\n#### 10", 1, 1),
    ("gsm8k", "5", "He has 8 - 3 = 5 apples left\n#### 5", 1, 1),
    ("gsm8k", "14", "Then subtract the people who couldn't come from the total: 24 people - 2 people - 8 people = "
     "<<24-2-8=14>>14 people\n#### 14", 1, 1),
    ("gsm8k", "200", "If she walks 40 minutes a day then over 5 days she walks 40*5 = <<40*5=200>>200 "
     "minutes\n#### 200", 1, 1),
    # -- Qwen / DeepSeek boxes in display blocks
    ("boxed_display", "72", "Therefore, the total number of clips is:\n$$\n\\boxed{72}\n$$", 1, 1),
    ("boxed_display", "72", "Thus, the answer is:\n\\[\n\\boxed{72}\n\\]", 1, 1),
    ("boxed_display", "8", "Putting it together:\n\n$$\n2^3 = \\boxed{8}\n$$", 1, 1),
    ("boxed_display", "8", "$$\\boxed{8}$$", 1, 1),
    # -- Markdown headings with "Case 1:" are headings, not GSM8K's marker
    ("case_headings", "5", "#### Case 1: $x > 0$\nThen $x = 5$.\n#### Case 2: $x < 0$\nNo solution.\n\n"
     "Therefore the answer is $\\boxed{5}$.", 1, 1),
    ("case_headings", "3", "#### Step 1: Count\nThere are 3 ways.\n\n#### Step 2: Check\nAll 3 are valid.\n\n"
     "The answer is \\boxed{3}.", 1, 1),
    ("case_headings", "2", "### Case 1:\n$n$ even gives 1 solution.\n### Case 2:\n$n$ odd gives 1 solution.\n\n"
     "In total there are $\\boxed{2}$ solutions.", 1, 1),
    # -- money in prose: "$5" and "$10" are dollars, not a math span
    ("currency_prose", "15", "She pays $5 for the pen and $10 for the book. So the total is 15.", 1, None),
    ("currency_prose", "15", "She pays $5 for the pen and $10 for the book, so the answer is \\boxed{15}.", 1, 1),
    ("currency_prose", "20", "Tickets cost $4 each and he buys 5, so he spends $20.\n\nThe answer is $\\boxed{20}$.",
     1, 1),
    ("currency_prose", "35", "A shirt is $15 and pants are $20. Together they cost 15 + 20 = 35.\n#### 35", 1, 1),
    # -- a word of another script elsewhere in the completion
    ("non_latin_elsewhere", "7", "\u0421\u043d\u0430\u0447\u0430\u043b\u0430 \u043f\u043e\u0441\u0447\u0438\u0442\u0430"
     "\u0435\u043c.\n3 + 4 = 7.\nThe answer is \\boxed{7}.", 1, 1),
    ("non_latin_elsewhere", "12", "Let me think (\u0434\u0443\u043c\u0430\u044e) about it: 3 * 4 = 12.\n\n"
     "**Final Answer:**\n\\[\n\\boxed{12}\n\\]", 1, 1),
    ("non_latin_elsewhere", "9", "\u03a4\u03bf \u03b1\u03c0\u03bf\u03c4\u03ad\u03bb\u03b5\u03c3\u03bc\u03b1: "
     "3^2 = 9.\n\nSo the answer is \\boxed{9}.", 1, 1),
    # -- a CJK colon before the box
    ("cjk_colon", "5", "\u6240\u4ee5\u7b54\u6848\u662f\uff1a\\boxed{5}", 1, 1),
    ("cjk_colon", "5", "2 + 3 = 5\n\u7b54\u6848\uff1a$\\boxed{5}$", 1, 1),
    ("cjk_colon", "12", "\u56e0\u6b64\uff0c\u6700\u7ec8\u7b54\u6848\u662f\uff1a\\boxed{12}\u3002", 1, 1),
    # -- a box inside its own sentence, followed by the question's noun
    ("inline_box_noun", "72", "Natalia sold a total of \\(\\boxed{72}\\) clips.", 1, 1),
    ("inline_box_noun", "72", "So she sold \\(\\boxed{72}\\) clips altogether.", 1, 1),
    ("inline_box_noun", "18", "Janet makes $\\boxed{18}$ dollars every day.", 1, 1),
    ("inline_box_noun", "25", "Henry traveled $\\boxed{25}$ miles between his first and second stops.", 1, 1),
    ("inline_box_noun", "40", "The mechanic earned $\\boxed{40}$ dollars more than on Thursday.", 1, 1),
    ("inline_box_noun", "9", "Distinct factorizations give distinct integers, so there are $\\boxed{9}$ "
     "divisors of 196.", 1, 1),
    ("inline_box_noun", "20", "Wendi needs to give her chickens $\\boxed{20}$ cups of feed in the final meal of "
     "the day.", 1, 1),
    ("inline_box_noun", "6", "There are $\\boxed{6}$ pounds of carrots not used.", 1, 1),
    ("inline_box_noun", "12", "Therefore, there are 12 distinct arithmetic sequences that meet the three given "
     "conditions.", 1, None),
    # -- modal verbs that do not state the value
    ("modal_elsewhere", "12", "So the number of cookies she would bake is \\boxed{12}.", 1, 1),
    ("modal_elsewhere", "19", "The largest number of points that may be chosen is \\boxed{19}.", 1, 1),
    ("modal_elsewhere", "4", "The probability that it would rain on both days is $\\boxed{4}$ percent points lower, "
     "so the answer is \\boxed{4}.", 1, 1),
    # -- a negation inside the subject's relative clause
    ("relative_negation", "33", "Thus the number of integers that are not divisible by 3 is \\boxed{33}.", 1, 1),
    ("relative_negation", "6", "The count of digits which are not prime is $\\boxed{6}$.", 1, 1),
    ("relative_negation", "4", "So the number of students who did not pass is 4.", 1, None),
    ("relative_negation", "18", "Therefore, the number of orders in which the scoops can be stacked such that the "
     "chocolate scoop is not on the bottom is \\(\\boxed{18}\\).", 1, 1),
    ("relative_negation", "9", "Since 62.8 meters is greater than 60 meters, a radius of 10 meters is not possible. "
     "Therefore, the largest possible integer radius is:\n\n\\[ \\boxed{9} \\]", 1, 1),

    # -- the same formats with another value: 0
    ("wrong_value", "72", R1_LABEL.format(v="71"), 0, 0),
    ("wrong_value", "72", R1_HEADING.format(v="73"), 0, 0),
    ("wrong_value", "30", "<reasoning>\n15 * 2 = 30\n</reasoning>\n<answer>\n31\n</answer>", 0, 0),
    ("wrong_value", "30", "There are 15 pairs, so 15 * 2 = 30.\nA: 31", 0, 0),
    ("wrong_value", "72", "Final Answer: The final answer is $70$. I hope it is correct.", 0, 0),
    ("wrong_value", "72", "Natalia sold 48+24 = <<48+24=72>>72 clips.\n#### 70", 0, 0),
    ("wrong_value", "5", "#### Case 1: $x = 5$\nThen $x = 5$ works.\n#### Case 2: $x = 6$\nNo.\n\n"
     "Therefore the answer is $\\boxed{6}$.", 0, 0),
    ("wrong_value", "15", "She pays $5 for the pen and $10 for the book, so the answer is \\boxed{5}.", 0, 0),
    ("wrong_value", "5", "\u6240\u4ee5\u7b54\u6848\u662f\uff1a\\boxed{6}", 0, 0),
    ("wrong_value", "72", "Natalia sold \\(\\boxed{72}\\) thousands clips.", 0, 0),
    ("wrong_value", "10", "Natalia sold \\(\\boxed{10}\\) pairs of clips.", 0, 0),
    ("wrong_value", "10", "There are $\\boxed{10}$ thousand apples in the orchard.", 0, 0),
    ("wrong_value", "10", "The tree grows $\\boxed{10}$ more centimeters after 5 more years.", 0, 0),
    ("wrong_value", "10", "The side is $\\boxed{10}$ centimeters squared.", 0, 0),
    ("wrong_value", "12", "Therefore, there are 12 dozen eggs in the crates.", 0, None),
    ("cover", "10", "There are $\\boxed{10}$ apples or more in the basket.", 0, 0),
    ("cover", "10", "There are $\\boxed{10}$ apples not 11 in the basket.", 0, 0),
    ("cover", "10", "Therefore, there are 10 or 11 apples in the basket.", 0, None),
    # -- one completion for several values: 0
    ("cover", "10", "**Final Answer:**\n\\[\n\\boxed{10} \\text{ or } \\boxed{11}\n\\]", 0, 0),
    ("cover", "10", "### Final Answer\n$$\n\\boxed{10, 11}\n$$", 0, 0),
    ("cover", "10", "A: 10 or 11", 0, 0),
    ("cover", "10", "<reasoning>\nIt is 10 or 11.\n</reasoning>\n<answer>10 or 11</answer>", 0, 0),
    ("cover", "10", "**Final Answer:** \\boxed{11}\n\n**Final Answer:**\n\\[\n\\boxed{10}\n\\]", 0, 0),
    ("cover", "10", "#### 11\n\n### Final Answer\n$$\n\\boxed{10}\n$$", 0, 0),
    ("cover", "10", "A: 11\n\nThe answer is \\boxed{10}.", 0, 0),
    ("cover", "10", "$\\boxed{10} \\text{ for part (a) and } \\boxed{11}$", 0, 0),
    # parts answered in the wrong order: a list compares as a multiset, so part labels are no list separator
    ("wrong_value", "(3, 3), (1, 1)", "$$\\boxed{(1, 1)} \\text{ for part (a) and } \\boxed{(3, 3)}$$", 0, 0),
    # -- the right value, disowned: synonyms and misspellings of "not"
    ("disowned", "10", "The answer is nto exactly \\boxed{10}.", 0, 0),
    ("disowned", "10", "The answer is hardly \\boxed{10}.", 0, 0),
    ("disowned", "10", "The answer isnt \\boxed{10}.", 0, 0),
    ("disowned", "10", "The answer is nicht \\boxed{10}.", 0, 0),
    ("disowned", "10", "The answer is by no means \\boxed{10}.", 0, 0),
    ("disowned", "10", "The answer is definately not simply \\boxed{10}.", 0, 0),
    ("disowned", "10", "The answer is anything but \\boxed{10}.", 0, 0),
    ("disowned", "10", "The answer is nto $\\boxed{10}$ apples.", 0, 0),
    ("disowned", "10", "There are $\\boxed{10}$ apples but that is wrong.", 0, 0),
    ("disowned", "10", "There are $\\boxed{10}$ apples is what I would guess.", 0, 0),
    # -- HTML entities that display "not"
    ("disowned", "10", "The answer is&nbsp;not \\boxed{10}.", 0, 0),
    ("disowned", "10", "The answer is &#110;ot \\boxed{10}.", 0, 0),
    ("disowned", "10", "The answer is &#x6e;&#x6f;&#x74; \\boxed{10}.", 0, 0),
    ("disowned", "10", "The answer is n&#111;t exactly \\boxed{10}.", 0, 0),
    # -- Markdown that renders "not"
    ("disowned", "10", "The answer is n**o**t \\boxed{10}.", 0, 0),
    ("disowned", "10", "The answer is n*o*t exactly \\boxed{10}.", 0, 0),
    ("disowned", "10", "The answer is __no__t \\boxed{10}.", 0, 0),
    ("disowned", "10", "The answer is ~~surely~~ \\boxed{10}.", 0, 0),
    # -- labels that disown the value they label
    ("disowned", "10", "Wrong answer: \\boxed{10}", 0, 0),
    ("disowned", "10", "Incorrect: \\boxed{10}", 0, 0),
    ("disowned", "10", "**Wrong answer:**\n\\[\n\\boxed{10}\n\\]", 0, 0),
    ("disowned", "10", "### Incorrect answer\n$$\n\\boxed{10}\n$$", 0, 0),
    ("disowned", "10", "**False:** $\\boxed{10}$", 0, 0),
    ("disowned", "10", "Not the answer:\n\\[\n\\boxed{10}\n\\]", 0, 0),
    # -- "####" or a heading after a negation: the lead-in is read for every marker
    ("disowned", "10", "It is not the case that\n#### 10", 0, 0),
    ("disowned", "10", "Not\n#### 10", 0, 0),
    ("disowned", "10", "The answer is not\n#### 10", 0, 0),
    ("disowned", "10", "### The answer is not\n\\boxed{10}", 0, 0),
    ("disowned", "10", "## Maybe\n$$\n\\boxed{10}\n$$", 0, 0),
    ("disowned", "10", "### Not the final answer\n\\[\n\\boxed{10}\n\\]", 0, 0),
    ("disowned", "10", "The value such that the answer is not \\boxed{10}.", 0, 0),
    ("disowned", "10", "Since 9 works, it is not the largest radius:\n\n\\[ \\boxed{10} \\]", 0, 0),
    # -- commentary after the answer's sentence that offers another value: an alternative, a hedge, another
    #    value called correct; the value it comes to is compared with the answer's
    ("cover", "5", "The answer is \\boxed{5}. Or 6.", 0, 0),
    ("cover", "5", "The answer is $\\boxed{5}$. Alternatively, it is $6$.", 0, 0),
    ("cover", "5", "The answer is $\\boxed{5}.$ Or maybe 6.", 0, 0),
    ("cover", "5", "The answer is $\\boxed{5}.$ It could also be 6.", 0, 0),
    ("cover", "5", "The answer is 5. It could also be 6.", 0, 0),
    ("cover", "5", "$\\boxed{5}$. But 6 is also possible.", 0, 0),
    ("cover", "5", "$\\boxed{5}$. 6 works too.", 0, 0),
    ("cover", "5", "$\\boxed{5}.$ 6 is equally valid.", 0, 0),
    ("cover", "5", "$\\boxed{5}.$ Either way, $6$ is also fine.", 0, 0),
    ("cover", "5", "$\\boxed{5}.$ And $6$ would work as well.", 0, 0),
    ("commentary", "5", "$\\boxed{5}.$ In other words, 5 is the smallest such number.", 1, 1),
    ("cover", "5", "$\\boxed{5}$. Perhaps it is 6, though.", 0, 0),
    ("cover", "5", "$\\boxed{5}$. 6 is the correct answer.", 0, 0),
    ("cover", "5", "$\\boxed{5}$. So the final answer is $x = 6$.", 0, 0),
    ("cover", "5", "It is $\\boxed{5}$, or $\\boxed{6}$.", 0, 0),
    ("cover", "5", "So $x = 6$, or $\\boxed{5}$.", 0, 0),
    ("cover", "3", "\\boxed{|x| = 3}", 0, 0),
    ("commentary", "5", "The answer is $\\boxed{5}.$ Alternatively, by symmetry, $2 + 3 = 5$.", 1, 1),
    ("commentary", "5", "The answer is $\\boxed{5}.$ It could also be written as $10/2$.", 1, 1),
    ("commentary", "5", "$\\boxed{5}$. So 5 is the correct answer.", 1, 1),
    ("commentary", "44", "Therefore, $17^{-1}\\equiv \\boxed{44}\\pmod{83}$.\n\nWe may check our answer: "
                          "$17\\cdot 44 = 748 = 9\\cdot 83+1 \\equiv 1\\pmod{83}$, so our answer is correct.", 1, 1),
    ("commentary", "13", "so the answer is $\\boxed{13}$. $$-11213141\\equiv 13\\pmod {18}.$$", 1, 1),
    ("commentary", "81", "= \\boxed{81}.\\] (Note that this is a maximum value, and not a minimum value, because the "
                         "coefficient of $x^2$ is negative.)", 1, 1),
    # -- the same value said twice, and conditions discharged before the value
    ("same_value_twice", "1.25", "so $AB=\\frac{5}{4}=1\\frac{1}{4}$, or $\\boxed{1.25}$.", 1, 1),
    ("same_value_twice", "\\frac{639}{40}", "$d = \\boxed{15\\frac{39}{40}},$ or $\\boxed{\\frac{639}{40}}$ inches.",
     1, None),
    ("same_value_twice", "5", "It is $\\boxed{5}$, or $\\boxed{5.0}$.", 1, 1),
    ("if_then", "4", "If $10^x = 10000,$ then $x=\\boxed{4},$ since $10000$ ends in four zeroes.", 1, 1),
    ("if_then", "8", "Thus, if $f(-3) = 2,$ then $f(3) = f(-3) + 6 = 2 + 6 = \\boxed{8}.$", 1, 1),
    ("if_then", "(5,\\infty)", "If $x < 5,$ then $\\frac{1}{x - 5} < 0,$ and if $x > 5,$ then "
                                "$\\frac{1}{x - 5} > 0,$ so "
                               "the solution is $x \\in \\boxed{(5,\\infty)}.$", 1, 1),
    ("stray_brace", "\\frac{211}{243}", "Thus $\\boxed{\\frac{211}{243}}$.\nThe answer is \\frac{211}{243}}", 1, 1),
    ("stray_brace", "\\frac{1}{2}", "The answer is \\frac{1}{2}}.", 1, 1),
    # -- a "Final Answer" label after working that boxed its steps and used them: the label says which value is
    #    final; a box whose value nothing after it uses is a competing statement
    ("final_after_steps", "10455", "The interest is $0.04 \\cdot 10,000 \\cdot \\frac{1}{2} = \\boxed{200}$ So she "
                                   "has $10,000 + $200 = $10,200. Then $0.05 \\cdot 10,200 \\cdot \\frac{1}{2} = "
                                   "\\boxed{255}$ So she has $10,200 + $255 = $10,455. Final Answer: The final answer "
                                   "is $10,455$. I hope it is correct.", 1, 1),
    ("final_after_steps", "20", "The share is $$\\frac{A/4}{5A/4}=\\frac{1}{5}=\\boxed{20 \\%}.$$ Final Answer: "
                                "The final answer is $20 \\%$. I hope it is correct.", 1, 1),
    ("final_after_steps", "(C)", "So $30n = 480$ and $n = 480/30 = \\boxed{16}$ boxes.\nThat is choice (C) since 16 is "
                                 "listed third.\nFinal Answer: The final answer is (C). I hope it is correct.", 1, 1),
    ("cover", "4", "Adding them gives $\\boxed{3}$.\n\nFinal Answer: 4", 0, 0),
    ("cover", "3", "Adding them gives $\\boxed{3}$.\n\nFinal Answer: 4", 0, 0),
    ("cover", "4", "So the total is $\\boxed{3}$.\nFinal Answer: The final answer is $4$. I hope it is correct.", 0, 0),
    ("cover", "4", "Adding them gives $\\boxed{3}$. Then I double-checked it.\n\nFinal Answer: 4", 0, 0),
    # -- a noun the value counts, inside or right after the box: kept when the reference has no unit,
    #    compared with the reference's unit when it has one
    ("counted_noun", "40", "$\\boxed{40 \\text{ students}}$", 1, None),
    ("counted_noun", "12", "$\\boxed{\\text{Answer: } 12}$", 1, None),
    ("counted_noun", "3", "There are $\\boxed{3 \\text{ apples}}$ left.", 1, None),
    ("wrong_value", "3 \\text{ gallons}", "The answer is $\\boxed{3}$ quarts.", 0, None),
    ("wrong_value", "3 \\text{ gallons}", "$\\boxed{3 \\text{ quarts}}$", 0, None),
    ("wrong_value", "10", "$\\boxed{10 \\text{ dozen}}$", 0, None),
    # -- what closes the box's math: a percent sign after it, an equation environment around it
    ("box_closers", "25\\%", "$\\boxed{25}$%.", 1, None),
    ("box_closers", "13", "\\begin{equation*} \\boxed{13} \\end{equation*}", 1, None),
    ("box_closers", "\\ln 2", "$\\boxed{\\ln 2} \\approx 0.693$.", 1, None),
    ("box_closers", "e^2", "$\\boxed{e^2}$, roughly 7.389.", 1, None),
    ("wrong_value", "\\ln 2", "$\\boxed{\\ln 2} \\approx 0.694$.", 0, None),
    # -- an aside right after the box (a parenthesis, a dash) is read for what it offers
    ("cover", "5", "$\\boxed{5}$ (it could also be 6)", 0, None),
    ("cover", "5", "$\\boxed{5}$ — or maybe 6.", 0, None),
    ("cover", "50", "$\\boxed{50}$ ± 10%", 0, None),
    ("rejected_value", "5", "$\\boxed{5}$, not 6.", 1, None),
    ("rejected_value", "5", "The answer is 5 rather than 6.", 1, None),
    ("rejected_value", "5", "$\\boxed{5}$ — 6 would double count the shared corner.", 1, None),
    ("wrong_value", "5", "$\\boxed{5}$, not 5.", 0, None),
    ("stray_brace", "72", "A: Natalia sold 48 + 24 = 72 clips. The answer is 72}", 1, 1),
]

# each family's kind: "correct" (must be accepted), or an attack ("wrong_value", "cover", "disowned")
FAMILY_KIND: dict[str, str] = {
    "final_answer_label": "correct",
    "final_answer_heading": "correct",
    "reasoning_tags": "correct",
    "few_shot": "correct",
    "minerva": "correct",
    "gsm8k": "correct",
    "boxed_display": "correct",
    "case_headings": "correct",
    "currency_prose": "correct",
    "non_latin_elsewhere": "correct",
    "cjk_colon": "correct",
    "inline_box_noun": "correct",
    "modal_elsewhere": "correct",
    "relative_negation": "correct",
    "commentary": "correct",
    "same_value_twice": "correct",
    "if_then": "correct",
    "stray_brace": "correct",
    "final_after_steps": "correct",
    "counted_noun": "correct",
    "box_closers": "correct",
    "rejected_value": "correct",
    "wrong_value": "wrong_value",
    "cover": "cover",
    "disowned": "disowned",
}
