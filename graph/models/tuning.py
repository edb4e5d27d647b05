"""Every weight, threshold and word list of the offline policy, each with a name and a reason.

Chosen on the project's own made-up corpora (corpora/data, the tests) and on the
`hotpotqa-dev-tune` split (questions 1-250) only; `hotpotqa-dev-test` and `hotpotqa-hard` are
held out for reporting. Nothing else in graph/models defines a tunable number or word list.
"""

from __future__ import annotations

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

# --- budget: how searching spends the steps --------------------------------------------------

DEEPER_READ_COVERAGE = 1.0
"""Read further down the first ranking while the retrieved text holds less than this share of
the question's idf weight (1.0: until every question word is found or the budget ends)."""

ONE_SEARCH_LEFT = 2
"""Calls left when only one search fits before the answer: then search the whole question,
not a two-hop plan's first half (one search of all the words finds more than half a plan)."""

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
