"""Short answers: spans of the kind asked (an age, a measure, a name, a doer, a title).

Chosen on the squad, jinja, click, attrs and hotpotqa-dev-tune tune sets (short-answer exact
match and F1, with notes and seed_runs kept): precision first. No bar on the answer's own
coverage: with these kinds, a bar from 0.4 to 0.7 lost exact matches and F1 on every set (the
support bar already gates the answer).
"""

from __future__ import annotations

import re

from graph.models.offline.tuning.short_answers import MONTHS
from tools.expand import stem

AGE_RE = re.compile(
    r"(?:\bat\s+(?:the\s+)?age\s+(?:of\s+)?|\baged\s+)(?P<n>\w+)|\b(?P<m>\w+)[- ]years?[- ]old\b",
    re.I,
)
"""An age as written ("at age seven", "at the age of 20", "aged 20", "20-year-old"): what
"how old" asks for, never a year."""

MULTIPLIER_WORDS = frozenset("hundred thousand million billion trillion dozen".split())
"""Spelled multipliers: they join the number before them ("118 million") and count nothing
alone ("several hundred students")."""

NUMBER_MODIFIERS = frozenset("over nearly almost approximately about around roughly".split())
"""One-word modifiers kept with the number after them ("over 1,600"): reading-comprehension
answers keep them more often than not (two-word ones, "more than", they drop)."""

MEASURE_RE = re.compile(
    r"\bhow (much|far|tall|high|deep|big|large|heavy|wide|fast)\b|\b(depth|height|length|width|"
    r"area|capacity|distance|speed|weight|cost|price|magnitude|size|value|amount)\b",
    re.I,
)
"""A question asking for a measure ("how high", "what depth"): its answer may be in metres,
degrees or euros, which a count ("how many") never is."""

CURRENCY_SIGNS = "$€£"
"""Signs before an amount: the amount is its own unit ("$215 million", not "$215 million
development")."""

NOT_UNITS = frozenset("others another more less fewer".split())
"""Words after a number that are no unit ("two others"): the number stays bare."""

NUMBER_CONTEXT = 3
"""Words before a number searched for a question word that types it ("a focal depth of")."""

PERCENT_UNITS = frozenset("percent per cent percentage".split())
"""Units of a percentage ("6.3 percent"): what "what percent" asks for, besides "%"."""

UNREAD_PERIODS = frozenset("century centuries decade decades era".split())
"""Periods a "what century" question asks for that no date candidate gives: no short answer."""

DATE_MODIFIERS = frozenset("late early mid".split())
"""Words kept before a date ("late 2005"): reading-comprehension answers keep them."""

DIRECTION_RE = re.compile(
    r"\b(?:north|south|east|west|north-?east|north-?west|south-?east|south-?west|northward|"
    r"southward|eastward|westward|upstream|downstream|clockwise|counterclockwise)\b",
    re.I,
)
"""A direction ("flows north"): what "which direction" asks for."""

MONTH_RE = re.compile(rf"\b(?:{MONTHS})\b")
"""A month name: what "what month" asks for, out of a full date."""

HEAD_NOUN_RE = re.compile(
    r"\b(?:what|which)\s+(?:single\s+|other\s+|new\s+|two\s+|main\s+)?([a-z][\w-]*)(?:\s+([a-z][\w-]*))?",
    re.I,
)
"""The noun a "what <noun>" question asks for (and the word after it, for a compound such as
"what television station"); a leading "single", "other" or "new" is no noun."""

NAME_OF_RE = re.compile(
    r"\bthe name of (?:the |an? |this |that )?(?:\w+['’]s )?([a-z][\w-]*)", re.I
)
"""The noun of "the name of the <noun>" ("the name of the poet"): the name asked for is
written against it."""

ONE_OF_A_KIND_RE = re.compile(
    r"^\s*(?:what|which)(?:'s|\s+is|\s+was|\s+are|\s+were)\s+the\s+(?:first|last|second|third|"
    r"only|main|primary|largest|biggest|smallest|oldest|newest|highest|lowest|best|most \w+|"
    r"least \w+)\s+(?:[\w-]+\s+)??([a-z][\w-]*)\b"
    r"(?=\s+(?:of|in|to|for|that|which|who|at|on|by)\b|\s*\?)",
    re.I,
)
"""The noun of "what was the first <noun> (of ...)": the name asked for is written against it."""

LEAD_PREPOSITION_RE = re.compile(
    r"^\s*(from|to|against|into|at|on|with|by)\s+(?:what|which)\b", re.I
)
"""A question opening with a preposition ("From what airport did ..."): of two names of the
kind, the one the sentence writes after that preposition."""

INTRO_WINDOW = 3
"""Words before a name searched for the question word that introduces it ("a guest of
Prince Antoni": function words skipped, a short phrase)."""

CODE_WORD_RE = re.compile(
    r"(?=\S*[a-z]{2})(?:[A-Za-z_]\w*(?:[._-]\w+)+(?:\(\))?|[a-z_]\w*\(\)|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*)"
)
"""A name as code writes it ("environ-config", "utf-16-le", "secho()", "CliRunner"):
documentation names its functions and packages in lowercase, next to the noun."""

COMPOUND_RE = re.compile(r"[a-z]+(?:-[a-z]+)+")
"""Lowercase words joined by hyphens ("six-part", "best-dressed"): English compounds before a
noun, code names only after it ("the package environ-config")."""

DOER_QUESTION_RE = re.compile(
    r"^\s*(?i:who|(?:what|which)\s+[\w-]+)\s+(?:(?i:has|have|had)\s+)?"
    r"(?:(?i:is|was|are|were)\s+(?P<ing>[a-z]+ing)|(?P<verb>[a-z]+))\b"
)
"""A question asking for the doer of its verb ("Who declared ...", "What company is
developing ..."): the verb is written lowercase (a name after "who is" is no verb), and "was
shut" asks who was acted on, not who acted."""

DOER_WORDS = 5
"""Most words of a doer phrase, and how far into a sentence its subject may run."""

DOER_BOUNDARIES = frozenset(
    "in on at for with from to during since after before which who that as while when where "
    "because".split()
)
"""Words that end a doer phrase ("developed by Tantalus Media for the Wii U")."""

ARTICLES = frozenset("the a an".split())
"""Articles: they open a doer phrase but name nothing ("The film")."""

RELATIVE_WORDS = frozenset("who which that".split())
"""Words joining a doer to its verb after it ("the British who colonized")."""

TOKEN_EDGE = ".,;:!?\"'()[]“”‘’"
"""Punctuation stripped from a token's edges; a token ending in it closes a phrase."""

WORK_HEAD_RE = re.compile(
    r"\b(?:what|which)\s+(?:[\w-]+\s+){0,2}?(?:songs?|single|album|film|movie|book|novel|poem|"
    r"play|show|series|episode|title|game|opera|musical|painting)\b\s*(?P<next>[a-z]*)",
    re.I,
)
"""A question asking for a titled work ("which other song from ..."): answered by the title
the sentence quotes; the noun must end the phrase (its next word a function word)."""

TITLE_RE = re.compile(r"[\"“]([A-Z][^\"“”]{0,80}?)[,.]?[\"”]")
"""A quoted title ("Summertime", “Crazy in Love”)."""

CODE_HEADS = frozenset(
    stem(w)
    for w in "function class package module method exception error option argument parameter "
    "attribute modifier helper command decorator variable filter tag extension setting flag "
    "field type library loader encoding character keyword test hook callback".split()
)
"""Stems of the nouns of code things ("which function"): documentation names one next to the
noun ("the secho() function"); any other capitalised word of the sentence ("ANSI") is not it."""

QUOTED_RE = re.compile(r"[\"“‘']([\w.-]+)[\"”’']")
"""A word in quotes ("scoped"): documentation quotes the literal names it then uses as words."""

POSSESSIVE_RE = re.compile(r"['’]s?$")
"""A possessive ending ("Chopin's"): dropped from a name; a possessor is no person asked for."""

DEMONYM_RE = re.compile(r"[A-Z][a-z]*(?:an|ese|ish|ic|ist|i|ch)$")
"""A word shaped like a people's or a faith's adjective ("Italian", "Chinese", "Polish",
"Buddhist"): a name of such words before a lowercase noun ("Italian television") is an
adjective, no person or thing asked for."""

PLACE_LEADS = frozenset("in at from near".split())
"""Words before a name that make it a place ("in Oslo")."""
