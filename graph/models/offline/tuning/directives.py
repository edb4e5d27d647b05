"""Directives: retrieved sentences that address the reader or give orders."""

from __future__ import annotations

import re

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

REPLY_WORDS = frozenset(
    "answer answers answered answering respond responds responded reply replies replied cite "
    "cited instructions instruction obey pretend disregard ignore forget say says".split()
)
"""The speech acts about the reply itself: with "you" they order the answerer ("you must cite
k42"). Documentation tells its reader to write, print, output and quote all the time ("you can
print to standard error"), so those need an imperative or a passive order (on the tune sets the
whole of `SPEECH_ACTS` beside "you" hid answers on click and attrs and caught nothing)."""

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

MARKUP_TAG_RE = re.compile(r"</?([A-Za-z][\w:-]*)(?:\s[^<>]*)?/?>")
"""An XML/HTML-like tag (its name the group): plain prose has none; a passage closing
`</document>` forges one."""

HTML_ELEMENTS = frozenset(
    "a abbr b blockquote body br caption code dd del details div dl dt em figure footer h1 h2 "
    "h3 h4 h5 h6 head header hr html i img ins kbd li link meta ol p pre q s script section "
    "small span strong style sub summary sup table tbody td tfoot th thead title tr u ul".split()
)
"""The HTML elements documentation names as it explains markup ("the wrapper <div> tag", "a
<pre> block"): an element of a web page forges no conversation turn. Markdown's docs name
them in nearly every option ("toc_class: CSS class(es) used for the <div> ...", "css_class:
... Set CSS class name for the wrapper <div> tag."), which had dropped those sentences. With
`reading.DEFINITION_RE`'s whole description: markdown right+cited 0.452 to 0.476, every other
tune set unchanged; a tag of any other name ("</document>", "<system>") still forges one."""

CLAUSE_RE = re.compile(r"[:;]|\s[-–—]\s|^|(?<=[,])\s*(?=please\b)", re.I)
"""Where a sentence's clauses split, for the imperative check."""
PASSIVE_ORDER_RE = re.compile(r"\b(must|should|shall|is to|are to)\s+(?:only\s+)?be\s+(\w+)", re.I)
"""A passive order ("must be answered with ..."): an order when its verb is a speech act."""
VOCATIVE_RE = re.compile(r"([^\W_]+)\s*[,:!]")
"""A word followed by a comma, colon or bang: a vocative when it names a machine reader."""
CONTRACTED_WORD_RE = re.compile(r"[\w']+")
"""A word with its apostrophe kept ("don't"), for the imperative check."""
ROLE_LABEL_RE = re.compile(r"\W*\[?(\w+)\]?\s*:")
"""A leading role label ("SYSTEM:", "[assistant]:")."""
