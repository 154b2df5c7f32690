"""What leads into a final answer (docs/verifiers.md, "Where the final answer is", step 3):
the words and math before a marker, read on the answer's own clause, sentence or label,
never on the whole completion.

- ``lead_in_words`` / ``qualifier``: a negation, a condition, a hedge or a word of falsity
  that leads into the marker (in its scope: "It is not hard to see that" negates a
  difficulty, a premise closed by "so" is not the statement); a label's words ("Wrong
  answer:") qualify the value they label.
- ``box_context`` / ``lead_word``: what leads into a final box from outside it (an operand,
  a relation, a word of the closed classes that change what it states).

The texts these functions get are ``Document.prose``: tags are line breaks there, so a tag
is never an operator. What follows the answer is ``follow.py``.
"""

from __future__ import annotations

import bisect
import re

from rlvr.verifiers.answer.parse import FUNCTIONS, Refusal, parse_answer
from rlvr.verifiers.answer.section import Located

_CLAUSE_BREAK_RE = re.compile(r"[.!?;,:](?:\$|\\\))?(?=\s)|\n")
# a line that does not end a clause (blank lines after it aside): it ends in a word, a relation
# or operator sign, an open bracket, or math that ends in one ("$x >$")
_CONTINUED_LINE_RE = re.compile(r"(?:[A-Za-z=<>+\-/^_(\[{]|\\(?:geq?|leq?|neq?|approx|equiv|lt|gt|times|cdot|pm))"
                                r"\s*\$?\s*$")
_MARKDOWN_START_RE = re.compile(r"[ \t]*(?:(?:[>#]+|[-*+](?=\s)|\*\*)[ \t]*)*")
_SENTENCE_BREAK_RE = re.compile(r"[.!?;](?=\s)|\n")
# negations and conditions: read in the clause that leads into the marker ("Since 14 is not
# divisible by 3, the answer is ..." and "If we add them, we get ..." are fine)
_LEAD_WORDS_RE = re.compile(
    r"(?i)\b(?:not|never|neither|nor|cannot|suppose|supposing|assume|assuming|if|unless|whether)\b|n['\u2019]t\b")
# epistemic hedges: read in the whole sentence, so a parenthetical counts ("The answer, I guess, is")
_HEDGE_WORDS_RE = re.compile(
    r"(?i)\b(?:maybe|perhaps|probably|possibly|might|unlikely|presumably|apparently|seemingly|conceivably"
    r"|hopefully|plausibly|supposedly|allegedly|arguably|tentatively|perchance|potentially|hypothetically"
    r"|guessing|(?<!no )(?<!without )(?<!beyond )doubt|doubtful|unsure|uncertain"
    r"|(?:i|we|my|our)\s+(?:think|believe|suspect|reckon|guess))\b")
# modal verbs hedge only the verb that states the value ("It could be", "may well be", "appears
# to be"); elsewhere in the sentence they belong to the question ("the most points that could
# be in the domain is 19")
_PARENTHETICAL_RE = re.compile(r",[^,.;:!?]{1,30},")
_NEAR_HEDGE_RE = re.compile(
    r"(?i)\b(?:(?:could|might)\b(?:\s+(?:well|also|just|actually|then|very|perhaps|possibly))?"
    r"(?:\s+(?:be|equal|equals|give|yield|become|have|leave|make|get|come\s+to|amount\s+to|total))?"
    r"|(?:seems?|seemed|appears?|appeared)\b(?:\s+to\s+(?:be|equal|give|have))?)[^A-Za-z0-9]*$")
_FALSITY_RE = re.compile(r"(?i)\b(?:false|wrong|incorrect|untrue|impossible)\b")


def _last_match(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    last = None
    for last in pattern.finditer(text):  # noqa: B007 - the last one is wanted
        pass
    return last


def _clause(body: str, start: int, breaks: re.Pattern[str] = _CLAUSE_BREAK_RE) -> str:
    """The clause that leads into ``start``: back to the previous sentence or clause break
    (``. ! ? ; ,`` before a space, or a newline; ``breaks=_SENTENCE_BREAK_RE``: the
    sentence, without the comma), at most 200 characters; Markdown list, quote and heading
    marks at a line start are not part of it."""
    window = body[max(0, start - 200): start]
    cut, at_line_start = 0, start <= 200
    for m in reversed(list(breaks.finditer(window))):
        if m.group(0) == "\n" and _runs_on(window, m.start()):
            continue  # "more than\n\boxed{10}": the line runs on into the box
        cut, at_line_start = m.end(), m.group(0) == "\n"
        break
    window = window[cut:]
    if at_line_start:
        window = window[_MARKDOWN_START_RE.match(window).end():]  # type: ignore[union-attr]
    return window


_NUMBER_WORD_RE = re.compile(r"(?i)\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty"
                             r"|thirty|forty|fifty|hundred|thousand|million)\b")


def _runs_on(window: str, end: int) -> bool:
    """Whether the line that ends at ``end`` runs on into the next: it ends in a relation or
    operator sign or an open bracket, or in a word when its last clause names no number
    ("It is not the case that", "more than"); a line that states a number ("... = 14
    people", "Nine eggs, not ten") is a statement of its own, as GSM8K's lines before
    ``####`` are; a tag between the two lines ends the clause."""
    m = _CONTINUED_LINE_RE.search(window, 0, end)
    if m is None or "\x0c" in window[m.start():end]:
        return False  # a tag between them ("...she sells</reasoning>" then "<answer>") ends the clause
    if not m.group(0)[:1].isalpha():
        return True
    line = window[window.rfind("\n", 0, m.start()) + 1: end]
    clause = line[max(line.rfind(", "), line.rfind(". "), line.rfind("; ")) + 1:]
    return not any(ch.isdigit() for ch in clause) and not _NUMBER_WORD_RE.search(clause)


def lead_in_words(body: str, start: int) -> Located | None:
    """A negation, a hedge or a word of falsity that leads into the final marker refuses
    it ("The answer is not \\boxed{5}", "Maybe the answer is 5", "It is false that the
    answer is 5", "Suppose the answer is 5", "It could be \\boxed{5}"). Negations,
    conditions and words of falsity are read in the clause (back to the previous break, see
    ``_clause``), so "Since 14 is not divisible by 3, the answer is \\boxed{12}" is fine; a
    word of falsity before a colon judges what came before ("Wait, that is wrong:
    \\boxed{10}"); epistemic hedges in the whole sentence ("The answer, I guess, is 5")."""
    sentence = _clause(body, start, _SENTENCE_BREAK_RE)
    word = qualifier(_clause(body, start), hedges=False) or near_hedge(sentence)
    if not word:
        found = _HEDGE_WORDS_RE.search(sentence)
        word = found.group(0).lower() if found else ""
    if not word:
        return None
    return Located(None, qualifier_reason(word), f"{word!r} leads into the final answer")


def qualifier(text: str, hedges: bool = True, label: bool = False) -> str:
    """The first negation, condition, hedge (unless ``hedges=False``) or word of falsity in
    ``text`` ("" when none); a word of falsity counts only after the last colon, unless
    ``text`` is a label (its words qualify the value it labels: "Wrong answer:"). A
    negation inside a relative clause of the subject ("the integers that are not divisible
    by 3 is") qualifies a noun, not the statement, and is passed over."""
    found = next((m for m in _LEAD_WORDS_RE.finditer(text)
                  if not _relative(text, m) and not _discharged(text, m) and not _premise(text, m)
                  and not (label and m.group(0).lower() == "whether")), None)
    found = (found or (_HEDGE_WORDS_RE.search(text) if hedges else None)
             or _FALSITY_RE.search(text if label else text[text.rfind(":") + 1:]))
    return found.group(0).lower() if found else ""


_RELATIVE_RE = re.compile(r"(?i)(?:\b[a-z]{3,}\s+(?:that|which|who)\s+(?:are|is|were|was|do|does|did|can|could|had|have"
                          r"|has|will|would|should)?\s*$"
                          r"|(?:\$[^$]{1,20}\$|\b[a-z]{3,})\s+(?:that|which|who)\s+(?:are|is|were|was)?\s*$"
                          r"|\b(?:such\s+that|where|in\s+which|for\s+which|whose|since|because|while|whilst|when"
                          r"|without|until|unless)\b[^,;:]*$)")
_COPULA_AFTER_RE = re.compile(r"(?i)\b(?:is|are|was|were|equals)\b")


_THEN_RE = re.compile(r"(?i)\bthen\b")
# a negation of difficulty ("It is not hard to see that"), and a premise that a consequence
# follows ("We can't have $n = 0$, so the answer is"): the negation is not the statement's
_DIFFICULTY_RE = re.compile(r"(?i)\s+(?:(?:very|too|so|that|at\s+all)\s+)?(?:hard|difficult|tough|surprising"
                            r"|a\s+coincidence|an\s+accident)\b")
_CONSEQUENCE_RE = re.compile(r"(?i)\s*\S+\s+\S+.*?\b(?:so|thus|hence|therefore|consequently)\s+\S")


def _premise(text: str, m: re.Match[str]) -> bool:
    """Whether the negation ``m`` negates a difficulty ("not hard to see") or sits in a
    premise that a consequence connective closes before the marker ("We can't have
    $n = 0$ so the answer is"; the premise has at least two words after the negation, so
    "is not, therefore," stays a negation of the statement)."""
    if m.group(0).lower() not in ("not", "n't", "n\u2019t", "never", "cannot"):
        return False
    return bool(_DIFFICULTY_RE.match(text, m.end()) or _CONSEQUENCE_RE.match(text, m.end()))



def _discharged(text: str, m: re.Match[str]) -> bool:
    """Whether the condition ``m`` ("if", "suppose", "assume") is followed by its "then"
    before the marker ("If $10^x = 10000$, then $x = \\boxed{4}$"): the condition is a step of
    the derivation and the value is stated, not supposed."""
    return m.group(0).lower() in ("if", "suppose", "supposing", "assume", "assuming") and \
        _THEN_RE.search(text, m.end()) is not None


def _relative(text: str, m: re.Match[str]) -> bool:
    """Whether the negation ``m`` sits in a relative clause ("integers that are not ...",
    "orders ... such that the scoop is not on the bottom") that the statement's own copula
    follows ("... is")."""
    if m.group(0).lower() not in ("not", "n't", "n\u2019t"):
        return False
    before = text[max(0, m.start() - 60): m.start()]
    return _RELATIVE_RE.search(before.rstrip()) is not None and _COPULA_AFTER_RE.search(text, m.end()) is not None


def near_hedge(lead: str) -> str:
    """A modal verb among the last words before the value (``It could be``, ``may well be``,
    ``appears to be``): the word, or ""."""
    found = _NEAR_HEDGE_RE.search(_PARENTHETICAL_RE.sub(" ", lead[-160:]))  # "could, in fact, be"
    return found.group(0).split()[0].lower() if found else ""


def qualifier_reason(word: str) -> str:
    """``relation`` for a negation or a word of falsity, ``several_answers`` for a hedge."""
    word = word.replace("\u2019", "'")
    hedge = word not in ("not", "never", "neither", "nor", "cannot", "n't") and not _FALSITY_RE.fullmatch(word)
    return "several_answers" if hedge else "relation"


_SPACING_TOKENS = ("\\,", "\\;", "\\:", "\\!", "\\ ", "\\quad", "\\qquad", "\\displaystyle")
_WRAPPER_OPEN_RE = re.compile(r"(?:\\(?:textbf|mathbf|boldsymbol|bm|fbox)|\\(?:text)?color\s*\{[^{}]*\})\s*$")
_LEAD_OP_RE = re.compile(
    r"(?P<op><=|>=|(?<![\w)}\]!])!=|=|<|>|≤|≥|≠|≈|∈|\\not\s*(?:=|<|>|\\[A-Za-z]+)|\\(?:approx|equiv|in|notin|leq?|geq?|neq?|lt|gt|leqslant"
    r"|geqslant|sim|simeq|subset|subseteq|supset|supseteq|propto|mid|to)(?![A-Za-z]))$")
_NEUTRAL_END_RE = re.compile(r"(?:&|\\\\|\\Rightarrow|\\implies|\\Longrightarrow|\\therefore|\\iff|:"
                             r"|\\begin\s*\{(?:equation|align|gather|displaymath|math)\*?\})$")
_SIDE_BREAK_RE = re.compile(r"<=|>=|(?<![\w)}\]!])!=|=|<|>|&|\\\\"
                            r"|\\(?:approx|equiv|leq?|geq?|neq?|lt|gt|Rightarrow|implies)"
                            r"(?![A-Za-z])")
def _without_brackets(text: str) -> str:
    """``text`` with what sits inside () and [] removed (a function's or a tuple's commas)."""
    out, depth = [], 0
    for ch in text:
        depth += ch in "(["
        if depth == 0:
            out.append(ch)
        depth -= ch in ")]" and depth > 0
    return "".join(out)


def _same_name_before(prose: str, lead: str) -> bool:
    """Whether the math span before "or"/"and" assigns the name the final box's equation
    assigns ("$x = 3$ or $x = \\boxed{5}$": two values of x)."""
    name = lead.rstrip(" =").strip()
    spans = re.findall(r"\$([^$]*)\$|\\\((.*?)\\\)", prose)
    if not name or not spans:
        return False
    last = "".join(spans[-1])
    m = re.fullmatch(r"\s*(.+?)\s*=\s*[^=]+", last)
    return m is not None and m.group(1).replace(" ", "") == name.replace(" ", "")


_JOINS_CLAUSES_RE = re.compile(r"(?i)\b(?:or|and)\s*$")
MAX_LEAD_CHARS = 1000  # of the math span before a box that is read


def box_context(body: str, start: int, spans: list[tuple[int, int]], after: str) -> str | Located:
    """What leads into a final box from outside it (docs/verifiers.md): the relation it
    completes (returned: ``"x >"``, ``"37 + 45 ="``, for the caller to read with the box),
    ``""`` when the box stands alone, or a refusal: a box that is an operand (``$-\\boxed{10}$``,
    ``$\\sqrt{\\boxed{100}}$``, ``$2\\boxed{5}$``), a value before it (``$10, \\boxed{11}$``), a
    congruence without ``\\pmod``, or a word before it that is not an introducing word
    (``more than \\boxed{10}``, ``a multiple of \\boxed{10}``)."""
    k = bisect.bisect_right(spans, (start, len(body) + 1)) - 1
    in_math = k >= 0 and spans[k][0] <= start <= spans[k][1]
    head = body[max(spans[k][0], start - MAX_LEAD_CHARS): start] if in_math else _clause(body, start)
    head = _without_wrapper_openers(head[:-1] if head.endswith("\\") else head)  # "\\boxed" written doubled
    if head is None:
        return Located(None, "unparsed", "the final box is inside a bracket or a group of an expression")
    if not in_math and _APPROX_SIGN_RE.search(head):
        return Located(None, "relation", f"{head.strip()[-12:]!r} leads into the final box: an approximation")
    head = _strip_spacing_end(head)
    if not in_math:
        return _lead_of(head, after, False)
    opener_at = spans[k][0] - (2 if body[spans[k][0] - 2: spans[k][0]] in ("$$", "\\(", "\\[") else 1)
    if not head:
        return box_context(body, opener_at, [], after)  # the prose before the span leads into the box
    lead = _lead_of(head, after, True)
    prose = _clause(body, opener_at).rstrip()
    if isinstance(lead, str) and re.search(r"[A-Za-z]$", prose):
        refused = lead_word(prose, None if lead else after)
        if refused is not None and lead and refused.reason == "several_answers" and _JOINS_CLAUSES_RE.search(prose) \
                and not _same_name_before(prose, lead):
            return lead  # ", or $x = \boxed{120}$": the conjunction joins the equation, not a value to the box
        return refused or lead  # "It is at least $x = \boxed{10}$"
    return lead


def _strip_spacing_end(head: str) -> str:
    """``head`` without the spaces, spacing commands and ``*`` it ends with (linear)."""
    while True:
        end = len(head)
        while end and (head[end - 1].isspace() or head[end - 1] in "*~"):  # any space, NBSP too
            end -= 1
        head = head[:end]
        for token in _SPACING_TOKENS:
            if head.endswith(token) and not head.endswith("\\" + token):
                head = head[: -len(token)]
                break
        else:
            return head


def _without_wrapper_openers(head: str) -> str | None:
    """``head`` without the openers of wrappers still open at its end (``\\textbf{``,
    ``\\color{red}{``, ``{\\color{red}``); None when another bracket is still open there."""
    stack: list[int] = []
    i = 0
    while i < len(head):
        ch = head[i]
        if ch == "\\":
            i += 2
            continue
        if ch in "{([":
            stack.append(i)
        elif ch in "})]" and stack:
            stack.pop()
        i += 1
    for pos in reversed(stack):
        cmd = _WRAPPER_OPEN_RE.search(head, 0, pos)
        if head[pos] == "{" and cmd is not None:
            head = head[: cmd.start()] + head[pos + 1:]
        elif head[pos] == "{" and head[pos + 1:].lstrip().startswith("\\color"):
            head = head[:pos] + head[pos + 1:]
        else:
            return None
    return re.sub(r"\\color\s*\{[^{}]*\}", "", head)


# negations, approximations, bounds and hedges of other languages, right before a final box (optionally
# with the copula or colon that follows them): a single value stated with one of them earns nothing an
# honest answer would not, and is refused where it is read this reliably (docs/verifiers.md, "hedged")
_OTHER_HEDGE_RE = re.compile(
    r"(?:不是|不会是|不|约为|约等于|约|大约|大概|可能是|可能|或许|也许|至少|至多|最多为|不超过|不少于"
    r"|約|およそ|たぶん|少なくとも|ではない|약|아마|최소|아니"  # words without spaces around them
    r"|(?:^|(?<=[\s(（,，:：]))(?:не\s+более|не\s+менее|не|около|примерно|приблизительно|более|менее|может\s+быть"
    r"|nicht|kein|keine|etwa|ungefähr|ca\.|mindestens|höchstens|vielleicht|pas|environ|peut-être|au\s+moins|au\s+plus"
    r"|aproximadamente|quizás|quizá|tal\s+vez|al\s+menos|não|cerca\s+de|talvez|pelo\s+menos|circa|forse|almeno"
    r"|nie|około|może|niet|ongeveer|misschien|minstens|değil|yaklaşık|belki|en\s+az"
    r"|नहीं|लगभग|शायद|कम\s+से\s+कम|ليس|حوالي|تقريبا|ربما))"
    r"[\s*_]*(?:是|为|為|:|：|равно|равен|ist|est|es|é|è)?[\s*_$]*$", re.I)


def other_hedge(head: str) -> Located | None:
    """The refusal when a negation, approximation, bound or hedge of another language stands
    right before a final box (``答案约为 \\boxed{50}``, ``Ответ: не \\boxed{7}``, ``ist nicht
    \\boxed{7}``); None otherwise."""
    m = _OTHER_HEDGE_RE.search(head[-40:])
    if m is None:
        return None
    return Located(None, "relation", f"{m.group(0).strip()!r} right before the final box: a hedge, bound or "
                                     "negation, not the value")


def _lead_of(head: str, after: str, in_math: bool) -> str | Located:
    if not in_math:
        hedged = other_hedge(head)
        if hedged is not None:
            return hedged
    if head.endswith("\\$") and not head.endswith("\\\\$"):
        head = _strip_spacing_end(head[:-2])  # "\\$\\boxed{1250}": a currency sign, not an operand
    if not head:
        return ""
    op = _LEAD_OP_RE.search(head)
    if op is not None:
        return _relation_lead(head[: op.start()], op.group("op"), after, in_math)
    if _NEUTRAL_END_RE.search(head):
        return ""
    text = re.search(r"\\text[a-z]*\s*\{([^{}]*)\}$", head) if in_math else None
    if text is not None:
        return lead_word(text.group(1)) or ""
    if not in_math and head[-1:].isalpha() and not head[-1:].isascii():
        return lead_word(head, after) or ""  # "所以答案是 \boxed{5}": a script the word rules do not read
    if not in_math and re.search(r"[A-Za-z]$", head) and not re.search(r"\\[A-Za-z]+$", head):
        return lead_word(head, after) or ""
    if not in_math and head.endswith("$"):
        return Located(None, "unparsed", f"math right before the final box: {head[-30:]!r}")
    if head.endswith((",", ";")):
        return Located(None, "several_answers", f"a value before the final box: {head[-30:]!r}")
    return Located(None, "unparsed", f"the final box is an operand: {head[-30:]!r} comes right before it")


def _relation_lead(before: str, op: str, after: str, in_math: bool) -> str | Located:
    """The side of the relation that ends right before a final box, with its operator."""
    op = _UNICODE_RELATIONS.get(op, " ".join(op.split()))
    if op == "\\approx":
        return "\\approx"  # the box is the stated approximation: graded by the decimal rule, never for an exact decimal
    if op == "\\equiv" and not after.lstrip(" }$").startswith("\\pmod"):
        return Located(None, "relation", "a congruence with no \\pmod{N} after the final box")
    cut = _last_match(_SIDE_BREAK_RE, before)
    side = before[cut.end():] if cut else before
    if cut is not None:  # "\\Rightarrow\\qquad \\frac{j_1}{j_2} = \\boxed{…}": spacing after the break opens the side
        side = re.sub(r"^(?:\s|\\(?:quad|qquad|[,;: !])(?![A-Za-z]))+", "", side)
    if not in_math:
        words = side.split()
        n = 0
        while n < len(words) and re.fullmatch(r"[A-Za-z']{2,}[,:]?", words[n]) and words[n].lower() not in FUNCTIONS:
            n += 1  # prose before the side: "So 2 + 3 = \boxed{5}"
        prose, side = " ".join(words[:n]), " ".join(words[n:])
        if prose and cut is None:
            refused = lead_word(prose)
            if refused is not None:
                return refused
    side = side.strip()
    listed = _without_brackets(side.rsplit("\n", 1)[-1].rsplit("\\end", 1)[-1].rsplit("$", 1)[-1])
    if cut is not None and _SIDE_LIST_RE.search(listed) and _SPACING_ONLY_RE.sub("", listed).strip(" ,;&"):
        # "x = 3 \text{ or } x = \boxed{5}", "x = -5, \; x = \boxed{5}": another value of the name before it
        return Located(None, "several_answers", f"another value before the final box: {before[-40:]!r}")
    parsed = parse_answer(side) if side else None
    if parsed is None or isinstance(parsed, Refusal) or parsed.latex.startswith("\\text"):
        # "\text{Area} = \boxed{5}", "A \equiv \boxed{5} \pmod{7}": the box; "> \boxed{10}": refused with the box
        return "" if op in ("=", "\\equiv") else op
    return f"{side} {op}"


_SPACING_ONLY_RE = re.compile(r"\\(?:quad|qquad|[,;: !]|Rightarrow|implies|Longrightarrow|iff)(?![A-Za-z])")
_SIDE_LIST_RE = re.compile(r"(?i),|;|\\(?:lor|vee|quad|qquad|text\s*\{[^{}]*\b(?:or|and)\b[^{}]*\})(?![A-Za-z])"
                           r"|\b(?:or|and)\b")
_UNICODE_RELATIONS = {"≤": "\\leq", "≥": "\\geq", "≠": "\\neq", "≈": "\\approx", "∈": "\\in"}


# "NOUN of \boxed{v}" is a function of v for these nouns ("a multiple of 10")
_OF_FUNCTIONS = frozenset("""
multiple multiples factor factors divisor divisors half third thirds quarter quarters fraction fractions percent
percentage square cube root roots power powers reciprocal inverse negative opposite complement double twice triple
sum product difference ratio log logarithm exponent part portion share most least instead outside out because
ahead short none any some each all one two three four five six seven eight nine ten hundred thousand million dozen
several many few order magnitude range vicinity neighbourhood neighborhood excess upwards upward north south shy
""".split())
_RELATION_LEADS = frozenset("""
than least most over under above below exceeds exceed exceeding beyond within between except besides near less more
greater fewer smaller larger bigger higher lower nearly almost hardly barely scarcely circa ca some
""".split())


_ADVERBS = frozenset("""
then so thus therefore hence finally namely here now simply just exactly precisely indeed clearly also still
approximately about roughly around overall altogether
""".split())
_WORD_RE = re.compile(r"[A-Za-z0-9]+(?:'[a-z]+)?")
# "~$\\boxed{3}$", "≈ \\boxed{3}": about 3 (a "~" tied to a word, "is~$5$", is LaTeX's space)
_APPROX_SIGN_RE = re.compile(r"(?:(?:^|\s)~|≈|∼|\\sim|\\approx)[\s$*]*$")


def lead_word(prose: str, after: str | None = None) -> Located | None:
    """The word right before a final box (or the math that holds it), read for the closed
    classes that change what the box states (``_introducing``). Adverbs right before the box
    are read through, to the word before them ("is exactly" passes, "more than exactly"
    does not), unless they open the clause ("So", "$x$, so", "and so", "\\]so")."""
    window = prose[-80:].replace("\u2019", "'")  # it’s, isn’t
    found = list(_WORD_RE.finditer(window))
    if not found or prose.rstrip(" *\"").endswith(":"):
        return None
    k = len(found)
    while k > 0 and found[k - 1].group(0).lower() in _ADVERBS:
        k -= 1
    if k == len(found):
        return _introducing(found)
    if k == 0 or window[found[k - 1].end():found[k].start()].strip(" *_") or not found[k - 1].group(0).isalpha() \
            or found[k - 1].group(0).lower() in ("and", "but"):
        return None  # "So \boxed{5}", "Answer: exactly \boxed{5}", "and so \boxed{5}"
    return _introducing(found[:k])


def _introducing(found: list[re.Match[str]]) -> Located | None:
    """Whether the words right before a final box make it something else than the stated
    value: a relation or bound ("more than", "at least", "nearly", "up to"), a function of
    it ("a multiple of", "divisible by", "twice"), an alternative or another value before
    it ("5 or", "either", "10"), a negation or a hedge right before it ("not", "maybe").
    These classes are closed: every other word is the sentence's own wording ("Jake's
    family will save", "the oven to", "remained with") and leads into the value."""
    words = [m.group(0) for m in found]
    last = words[-1].lower().replace("\u2019", "'")
    before = words[-2].lower() if len(words) > 1 else ""
    shown = f"{' '.join(words[-2:])!r} leads into the final box"
    if len(last) > MAX_WORD_CHARS:
        return Located(None, "unparsed", f"{last[:30]!r}... leads into the final box: no word")
    if last in _RELATION_LEADS or (last == "good" and before == "a") or (before in _RELATION_LEADS | {"many", "much"}
                                   and last in ("than", "then", "as", "to", "of")):
        return Located(None, "relation", f"{shown}: a relation or bound, not the value")
    third = words[-3].lower() if len(words) > 2 else ""
    if last == "to" and (before in _TO_BOUNDS or before[:1].isdigit()) and not (before == "up" and third in _SUMS):
        return Located(None, "relation", f"{shown}: a bound or a range, not the value")
    if (last == "of" and before in _OF_FUNCTIONS) or (last == "by" and before in _BY_FUNCTIONS) \
            or last in _FUNCTION_WORDS:
        return Located(None, "unparsed", f"{shown}: the box is an operand of what leads into it")
    if last in ("or", "either", "nor") or (last in ("and", "to") and before[:1].isdigit()) or last[:1].isdigit():
        return Located(None, "several_answers", f"{shown}: another value before it")
    if last in ("not", "never", "no", "cannot", "nor") or last.endswith("n't") or _NT_RE.fullmatch(last) \
            or before in ("not", "no", "never"):
        return Located(None, "relation", f"{shown}: a negation")
    if last in ("but", "except", "besides", "instead"):
        return Located(None, "relation", f"{shown}: a contrast")
    if last in ("maybe", "perhaps", "probably", "possibly", "likely"):
        return Located(None, "several_answers", f"{shown}: a hedge")
    return None


_NT_RE = re.compile(r"(?:is|are|was|were|does|do|did|ca|wo|could|would|should|has|have|had|ai|need|must)nt")
MAX_WORD_CHARS = 30  # longer than any word of a language
_SUMS = frozenset("add adds added adding sum sums summed summing total totals totaled totalled come comes came".split())
_TO_BOUNDS = frozenset("up close closer near nearer next".split())
_BY_FUNCTIONS = frozenset("divisible divided multiplied scaled times".split())
_FUNCTION_WORDS = frozenset("""
twice thrice double triple quadruple half squared cubed plus minus times negative sqrt root reciprocal inverse
""".split())
