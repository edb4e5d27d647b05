"""The answer sentence: its coverage, where it stands, what is near it, a second sentence."""

from __future__ import annotations

import re

SENTENCE_SHARE = 0.8
"""Weight of the sentence's own coverage of the question against its passage's coverage: the
answer is a sentence, but a passage's other sentences (its title, its subject) say what it is
about."""

PROXIMITY_WEIGHT = 0.2
"""Bonus for question words close together in the sentence (matched words over their span)."""

KIND_WEIGHT = 0.25
"""Bonus for a sentence holding a candidate of the kind asked for (a person for "who", a
duration for "how long") that the question does not name."""

PAIR_COST = 0.1
"""What a second sentence must add to the score to join the first: a two-hop chain, linked by
a name both sentences hold, or the next sentence of the passage. 0.1 against 0.15 and 0.05,
with the window, rank and anaphor terms: the best on the documentation sets, squad,
hotpotqa-dev-tune and codes_tune at once."""

PAIRED = 10
"""How many of the best single sentences are tried with a second one: a chain's first sentence
is always among the best (it covers the part of the question the second lacks)."""

WINDOW = 10
"""Words in the stretch of a sentence whose question weight `WINDOW_WEIGHT` counts: about a
clause, so a sentence naming the question's words together beats one scattering them."""

WINDOW_WEIGHT = 0.4
"""Weight of the share of the question's weight the densest `WINDOW` words of a sentence hold."""

RANK_WEIGHT = 0.2
"""Bonus for a passage's place in the searches' rankings, 1 / (1 + passages seen before it):
the search's own ranking (its length normalisation, its fields) knows which passage is about
the question better than word counts alone. Only for hits the search scored."""

ANAPHORS = frozenset("it its they their them this these those he she his her such here".split())
"""Words that, opening a sentence, point back at what the sentence before names ("They never
expire and can be spent in the shop": they are the gift cards; "Here for the first time he
heard folk music": here is the village the sentence before names). "here": squad +1 right and
cited, no other tune set moved ("there" opens existential sentences, "There are 613
inhabitants", and is left out)."""

CONSEQUENCES = frozenset("therefore thus hence consequently accordingly".split())
"""Words that, opening a sentence, draw the conclusion of the one before ("The tools are built
on the standard library. Therefore, no additional libraries are required."): an answer carries
such a next sentence, its conclusion (`answering.concluded`). First for yes/no answers, with
them chained to no other passage (`answering.linked`): markdown right+cited 0.548 -> 0.571 (its
"Can the test tools be used with only the standard library?", answered with "Therefore, no
additional libraries are required." too, and no longer with another passage's "For example, to
run all of Python-Markdown's tests ..."), wrong+conf 0.139 -> 0.111; nothing else moved. Then
for every answer, from the structlog docs set measured out of sample ("... it runs at import
time before you had a chance to configure structlog. Therefore it returns a lazy proxy ..."):
structlog +1, no other set moved. "So" is left out: it opens sentences that draw nothing ("So
far, ...")."""

ANAPHOR_WEIGHT = 0.5
"""Weight of the question's weight the sentence before adds to a sentence opening with one of
`ANAPHORS` ("Its main seminary, ..."): its predecessor's words are half its own. 0.5 and 0.7
against 0.3: one more right answer on the pages set, the rest unchanged (0.8 loses
hotpotqa-dev-tune answers)."""

HOW_RE = re.compile(
    r"\bhow\s+(\w+)\s+(?:is|are|was|were|do|does|did|can|could|should|must|will|would|has|"
    r"have|had|may|might)\b",
    re.I,
)
"""The word after "how" when a verb follows it ("how large were", "how long does", "how old
was") says what kind of answer is asked for, not what the answer is about: it is left out of
the question words a sentence is scored on ("a large campus ministry program" says nothing
about how large the donations were). Without a verb after it, the word is the question's
subject ("Describe how Flask routes requests"), and kept. On squad one more answer holds the
gold (0.707 to 0.710), every other tune set unchanged."""

ORDINALS = frozenset("first second third fourth fifth sixth seventh eighth ninth tenth".split())
"""Words that pick one of a series ("the first convention"), for `ORDINAL_COST`: the ordinals
to tenth, as written in words (past it, series are written in digits). "second" is a unit of
time too ("within a second"): a sentence saying so costs the same when the question names
another ordinal, which no tune set's question and sentence did."""

ORDINAL_COST = 0.1
"""What a sentence loses for naming another of `ORDINALS` than the question does ("a second
convention" when the first is asked about): it is about another member of the series. On squad
two more answers hold the gold (0.710 to 0.717 with `HOW_RE`), every other tune set unchanged;
0.2 gains no more."""

TERM_HEADING_RE = re.compile(
    r"(?:--?[\w-]+(?:,\s*--?[\w-]+)*|[A-Za-z_][\w.]*_[\w.]*|[A-Za-z_]\w*\(\)|[A-Z]+\d+"
    r"|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|\w+\.\w+(?:\.\w+)*)"
)
"""A heading that names a thing of code (`message_after_copy`, `-l, --line-length`, `E203`,
`TrustedHostMiddleware`, `cattrs.BaseConverter`): a reference page's entry, which its first
sentence defines without naming it ("A message to be printed after generating a project."). An
answer opening with such a passage's first sentence shows the heading in front of it
(`answering.Sentence.term`), or the answer would not say what it defines. Only a heading
(a title's part after its file's path), never the file name. On the tune sets: Copier's "Which
setting prints a message once a project has been generated?" and Black's "Which pycodestyle
warning ... clashes with ...?" answered right (+1 each), eleven other answers show their entry's
name, none lost."""
