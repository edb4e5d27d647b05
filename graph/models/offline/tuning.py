"""Every weight, threshold and word list of the offline policy, each with a name and a reason.

Chosen on the project's own made-up corpora (corpora/data, the tests) and on the
`hotpotqa-dev-tune` split (questions 1-250) only; `hotpotqa-dev-test` and `hotpotqa-hard` are
held out for reporting. Nothing else in graph/models/offline defines a tunable number or word list.
"""

from __future__ import annotations

import re

# --- directives: retrieved sentences that address the reader or give orders ------------------

ADDRESSEE_NOUNS = frozenset(
    "ai ais model models llm llms assistant assistants chatbot chatbots bot bots agent agents "
    "gpt".split()
)
"""Nouns naming a machine reader: a passage speaking to one is instructing, not informing."""

ADDRESSING_WORDS = frozenset("to for dear attention hey hi hello note".split())
"""Words that introduce an addressee ("note to AI models", "attention assistant")."""

OBLIGATION_WORDS = frozenset("must should shall need needs always never".split())
"""Modals of obligation: "models must ...", "you should ..." give orders."""

SECOND_PERSON = frozenset("you your yours yourself".split())
"""The reader addressed directly."""

SPEECH_ACTS = frozenset(
    "answer answers answered answering respond responds responded reply replies replied say "
    "says said state stated tell write output print repeat cite cited quote ignore disregard "
    "forget override obey follow pretend act treat instructions instruction prompt prompts "
    "response responses".split()
)
"""Verbs and nouns of the conversation itself: an order about them targets the answerer."""

IMPERATIVE_LEADS = frozenset("please always never now just simply instead also do don't".split())
"""Words that may precede the bare verb of an imperative ("please answer", "do not cite")."""

IMPERATIVE_OBJECTS = frozenset(
    "the a an all any every this that these those it them me us him her only no previous "
    "prior with by as in to everything anything what above earlier".split()
)
"""Words that follow an imperative verb ("answer the", "ignore all", "respond with")."""

CHAT_ROLES = frozenset("system user assistant developer human tool".split())
"""Conversation role labels ("SYSTEM:"): a passage claiming a role is forging a turn."""

ADDRESSEE_WINDOW = 3
"""Words around a machine-reader noun searched for an addressing or obligation word, and the
latest position a vocative ("Assistant, ...") may take: a short clause, as addresses are."""

# --- budget: how searching spends the steps --------------------------------------------------

DEEPER_READ_COVERAGE = 1.0
"""Read further down the first ranking while the retrieved text holds less than this share of
the question's idf weight (1.0: until every question word is found or the budget ends)."""

ONE_SEARCH_LEFT = 2
"""Calls left when only one search fits before the answer: then search the whole question,
not a two-hop plan's first half (one search of all the words finds more than half a plan)."""

COVERED = 0.8
"""Share of the question's term weight (idf) the retrieved text must hold to stop following up."""

MAX_UNMATCHED_TERMS = 4
"""Most unmatched question words a follow-up query adds (more dilutes BM25's ranking)."""

# --- the bridge entity of a two-hop question ---------------------------------------------------

BRIDGE_PASSAGES = 3
"""Passages of the first search read for a bridge: the k a search returns by default."""

BRIDGE_HEADED = 3.0
"""A name followed by the clause's head noun ("the Austin office") is the strongest cue."""
BRIDGE_TITLED = 2.0
"""A name that titles a passage in the corpus is an entity a second search can find."""
BRIDGE_TOP_RANK = 2.0
"""The first search's best passage is the likeliest to hold the bridge."""
BRIDGE_MULTIWORD = 0.5
"""Several words make a name less likely to be a capitalised common word."""
BRIDGE_OPENING_WORD = 1.0
"""A single capitalised word opening a sentence may just be capitalised there."""

KNOWN_NAME_SHARE = 0.5
"""A name at least this share of whose words the question already holds is not new: it is
what was asked about, never a bridge or an answer."""

# --- the answer sentence ---------------------------------------------------------------------

ANSWER_KIND_FOUND = 2.0
"""A sentence holding the kind of answer asked for (a name, a number) beats plain overlap."""
ANSWER_LAST_HOP = 1.0
"""The last hop's passages were searched with the bridge: they answer the outer question."""
ANSWER_TOP_RANK = 0.5
"""A search's best passage breaks near-ties."""
ANSWER_NAMES_BRIDGE = 1.0
"""A sentence naming the bridge entity connects the two hops."""

# --- short answers: what the question asks for -----------------------------------------------

AUXILIARIES = frozenset("are is was were do does did can could has have had will would".split())
"""A question opening with one of these (and offering no "X or Y" choice) is a yes/no one."""

EARLIER_WORDS = frozenset("older oldest earlier earliest first before elder".split())
"""Comparatives answered by the option with the earlier date ("who is older, X or Y?")."""

LATER_WORDS = frozenset("younger youngest later latest newer newest recent last after".split())
"""Comparatives answered by the option with the later date."""

PROPERTY_SHARE = 0.5
"""Share of a yes/no question's property words ("American", "director") an entity's passage
must hold for the property to count as stated for it."""

NAME_QUESTION_NOUN_LIMIT = 3
"""Words allowed between "what/which" and the verb for the question to ask for a named thing
("what New York city", "which British bomber"): beyond that it asks for an explanation."""

UNIT_WORDS = 2
"""Words after a quantity kept as its unit ("5 business days"), up to the first function word."""

# --- reading: the vocabulary of questions and passages -------------------------------------

NUMBER_WORDS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty "
    "hundred thousand million billion once twice half dozen".split()
)
"""Words that are numbers: a "how many" answer may be spelled out ("three times")."""

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom whose why will with would you your yours yourself
    yourselves s t whats what's much many also one""".split()
)
"""Function words: they carry no meaning a search or a match should count."""

QUESTION_WORDS = frozenset("what which who whom whose when where why how".split())
"""Question words: asked, never answered, so never search or match terms."""

CONNECTORS = frozenset("of and the de du von van la le del da di der den y &".split())
"""Lowercase words that may join the capitalised words of one name ("Bank of Ireland")."""

LEADING_FUNCTION_WORDS = frozenset(
    "The A An It Its This That These Those In On At For From By With As Each Every All Some "
    "He She They We I His Her Their Our After Before When While If Since During Then "
    "There Here Also But And Or".split()
)
"""Capitalised at a sentence start without being part of a name ("The", "After")."""


# --- arithmetic ------------------------------------------------------------------------------

MATH_WORDS = frozenset("calculate compute evaluate equal equals result sum".split())
"""Words that ask for a computation: with only these beside an expression, it is arithmetic."""

SIGNIFICANT_DIGITS = 12
"""Digits an answer keeps: float noise (87.50000000000001) is rounded away."""

# --- the kind of answer a question asks for --------------------------------------------------

ANSWER_TYPES = (
    (
        re.compile(
            r"\b(how (many|much|long|old|far|often|tall|big|large)|(what|which) (year|date|"
            r"percentage|number|age|decade|century))\b|^\s*when\b|\bsince when\b",
            re.I,
        ),
        "number",
    ),
    (re.compile(r"^\s*(who|whom|whose)\b|\b(by|of|to) whom\b", re.I), "name"),
    (
        re.compile(
            r"^\s*(where|which|what) ?(\w+ ){0,2}(company|office|city|country|team|person|"
            r"organi[sz]ation|firm|band|state|town|university|school)\b",
            re.I,
        ),
        "name",
    ),
    (re.compile(r"^\s*where\b", re.I), "name"),
)
"""Patterns of the question that ask for a number (a quantity, a date) or a name, in order;
the first that matches decides (`reading.answer_type`), and "any" when none does."""


# --- tools with structured arguments (graph.models.offline.structured) ----------------------

ID_WORDS = frozenset(
    {"id", "ids", "no", "nr", "num", "number", "code", "sku", "ref", "key", "serial", "variant"}
)
"""Name parts that mark an argument or a field as an identifier."""

MAX_RECORDS_CITED = 3
"""Most supporting records cited for the leading finding (more dilutes the citation)."""

# --- quoting: how much of a value a thought or an answer repeats -----------------------------

QUOTED_ARG_CHARS = 40
"""Longest argument value a Thought quotes ("member_code MB-4412 from the request")."""
QUOTED_RESULT_CHARS = 160
"""Longest text of a non-record result an answer quotes."""
QUOTED_RECORD_CHARS = 80
"""Longest rendering of a record with no id or title."""
ERROR_CHARS = 200
"""Longest error text an answer reports for a failed call."""
