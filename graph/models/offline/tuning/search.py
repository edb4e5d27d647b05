"""The search budget and the rules' thresholds: when to follow up, read deeper or answer."""

from __future__ import annotations

import re

COVERED = 0.8
"""Share of the question's idf weight the retrieved text must hold to stop following up.
A follow-up below it helps on squad, hotpotqa-dev-tune (a second entity) and codes_tune."""

DEEPER_READ_COVERAGE = 1.0
"""Read further down the first ranking while the retrieved text holds less than this share of
the question's weight (1.0: until every question word is found, or the budget ends). Helps
hotpotqa-dev-tune (+0.110 recall) and squad; no lower bar keeps those gains (they come at
coverage 0.81 to 0.96)."""

LEAD_SENTENCE_SHARE = 0.8
"""A follow-up's lead name must come from a sentence holding at least this share of what the
retrieved text covers of the question: the found part of the question is about that name, and
the missing words are its other hop. Names of other sentences were incidental (a table row's
"Replaces", a changelog line's "Python-Markdown API"): the doc sets' 33 follow-ups found no
supporting passage, and cost markdown-09 and retrieval recall (markdown -0.109); on
hotpotqa-dev-tune 31 of 89 found one. At 0.8: markdown right+cited 18 -> 19 of 42,
hotpotqa-dev-tune 101 and squad 221 kept; 0.9 also costs a right squad answer its confidence.
Without a lead at all: hotpotqa-dev-tune -6, squad -3."""

MAX_UNMATCHED_TERMS = 4
"""Most unmatched question words a follow-up query adds (more dilutes BM25's ranking)."""

ONE_SEARCH_LEFT = 2
"""Calls left when only one search fits before the answer: then search the whole question,
not a two-hop plan's first half (one search of all the words finds more than half a plan)."""

BRIDGE_PASSAGES = 3
"""Passages of the first hop read for the bridge entity: the k a search returns by default."""

ASKING_CLAUSE_RE = re.compile(r"[\w-]+\s+(?:do|does|did)\b", re.I)
"""A clause a preposition's "which" opens that is the question itself, not a relative clause:
a noun, then "do" ("of which processor does X look at?": do-support inverts a question, a
relative clause "in which X died" has none). Read only when a function word heads the clause
(`turn.asks_itself`). Vetoing every clause a function word heads won structlog-11 but traded
hotpotqa-dev-tune 2 for 2 ("the city in which ..." is a real bridge)."""

DO_VERB_RE = re.compile(
    r"\b(?P<aux>[Dd]oes|[Dd]id)\s+(?:[\w.'-]+\s+){1,4}?(?P<verb>[a-z]+)"
    r"(?:\s+(?:for|from|on|at|to|in|with|about|of|up|out|into|by))*\s*\?\s*$"
)
"""A question ending with the verb its "does" or "did" carries ("Which Python versions does
Werkzeug support?", "How many arguments does each processor receive?"): the statement
answering it writes the verb finite ("Werkzeug supports Python 3.9", "Each processor
receives three arguments"), a form BM25 does not match. The verb is the lowercase last word
(before particles): "Does attrs support PyPy?" ends with a name, not its verb."""

FINITE_ENDINGS = {"does": ("s", "es", "ies"), "did": ("ed", "d", "ied")}
"""The endings a verb takes after "does" (third person) and "did" (past) are dropped from: a
"y" before "ies"/"ied" ("apply" -> "applies"). Irregular forms ("stood") are not guessed."""

FORMS_MIN_WORDS = 4
"""Question words a first search needs before it also searches the verb's finite form: in a
shorter query the added form outweighs the rest. At 4: structlog-10 and werkzeug-01 won, no
answer lost on any set; at 3 squad loses "Where does the state's name mean?" ("means"), and
with no floor also "What does ELF stand for?" ("stands" finds other passages). Adding every
indexed form of every question word instead lost squad 8, hotpotqa-dev-tune 6 (won 1 each)."""
