"""Whether an answer names the thing a question asks for: a checked part of confidence.

A question asking which thing of code ("Which keyword ...?") or what something is called ("What
does X call ...?") is answered by a name the question does not write (`names_thing`); the other
checks of what is asked are `graph.models.asked`'s.
"""

from __future__ import annotations

import re

from graph.models.asked import WORD_EDGES, sentences
from graph.models.background import rarity
from graph.models.support import FUNCTION_WORDS, spelled_out
from tools.bm25_tokens import tokenize
from tools.expand import form

THING_NOUNS = (
    "function|class|package|module|method|exception|error|option|argument|parameter|attribute"
    "|modifier|helper|command|decorator|variable|filter|tag|extension|setting|flag|field|type"
    "|librar(?:y|ies)|loader|encoding|keyword|test|hook|callback|serializer|formatter|renderer"
    "|processor|logger|factor(?:y|ies)|backend|plugin|key|header|format|tool|framework|name"
)
"""The nouns of things of code and other named things a question asks for ("which keyword",
"which faster JSON serializers", "what name"), for `THING_QUESTION_RE`. Not "character": a
character is often a symbol ("+") an answer writes with no word; not "value" or "version",
which numbers answer."""

THING_QUESTION_RE = re.compile(
    r"\b(?:which|what)\s+"
    r"(?:(?!(?:is|are|was|were|does|do|did|can|could|should|must|will|would)\b)[\w-]+\s+){0,2}?"
    rf"(?P<noun>{THING_NOUNS})(?:e?s)?\b",
    re.I,
)
"""A question asking which thing of code ("Which keyword of configure ...?", "Which faster JSON
serializers ...?", "Under which key ...?"): its answer names one (`names_thing`). At most two
words between "which" and the noun, none of them a verb ("What does the tag ... do?" asks what
it does). Read on the question as `graph.models.support.spelled_out` reads it, so "what type of
activity" asks for an activity, not a type.

Added after three wrong structlog answers were confident: "Which keyword of configure sets
where wrapped loggers come from?" answered "We've already talked about wrapped loggers ...",
"Which faster JSON serializers ...?" answered "Configure JSONRenderer to use a faster JSON
serializer ...", and "What does Stripe call ...?" (`CALLED_QUESTION_RE`) answered "Generally
speaking, having as few log entries ...". Over the tune sets, 106 answers are to such questions
(the six documentation folders, squad, hotpotqa-dev-tune, codes_tune): those three lose their
confidence (structlog wrong and confident 20% to 12.5% of its answers) and no other answer's
confidence changes, right or wrong. Without `UNKNOWN_RARITY`, click's right "Click is
internally based on optparse instead of argparse." would lose its."""

CALLED_QUESTION_RE = re.compile(
    r"\bwhat (?:does|do|did) .+ call\b|\bwhat (?:is|was|are|were) .+ called\b"
    r"|\bwhat(?:'s| is| was| are| were)? (?:the )?names?\b",
    re.I,
)
"""A question asking what something is called ("What does Stripe call the practice of ...?",
"What is the entry point called?", "What was the name of ...?"): its answer names it."""

CODE_NAME_RE = re.compile(r"\w\(|_|`|\w\.[A-Za-z_]\w|[a-z][A-Z]|[A-Z]{2}")
"""A word written as code or as an acronym: a call ("secho()"), underscores
("cache_logger_on_first_use"), backticks, a dotted path ("structlog.dev.plain_traceback", not
"e.g."), camelCase ("markdownFromFile"), two capitals ("JSONRenderer", "WSGI")."""

TERSE_ANSWER_WORDS = 2
"""Words up to which an answer's sentence is a bare name ("Flask.", "Use trim."), as a real
model may answer: every word the question lacks may be the name, its first too. Two, not
more: "The ferry was old." names nothing. Not tuned: the offline policy answers with the
documentation's sentences, and no tune answer to a question asking for a name is this short
(nothing moves on the tune sets)."""

UNKNOWN_RARITY = 1.0
"""The rarity in general text (`graph.models.background.rarity`) of a word the background table
lacks: a lowercase word the answer writes past its first that general text never holds
("optparse", "orjson", "colorama") may be the name asked for."""


def names_thing(question: str, answer: str) -> bool:
    """Whether `answer` names a thing, or `question` asks for none.

    A question asks for one when it asks which thing of code (`THING_QUESTION_RE`) or what
    something is called (`CALLED_QUESTION_RE`). The answer names one when it writes a word
    (`name_words`) the question does not.
    """
    read = spelled_out(question)
    asked = THING_QUESTION_RE.search(read)
    if not asked and not CALLED_QUESTION_RE.search(read):
        return True
    return bool(name_words(question, answer, form(asked["noun"]) if asked else None))


def name_words(question: str, answer: str, noun: str | None = None) -> list[str]:
    """The words of `answer` that may name a thing the question asks for and does not write.

    A word the question does not write as it is, holding a meaningful word (not in
    `FUNCTION_WORDS`), that is written as code (`CODE_NAME_RE`: "logger_factory", "secho()"),
    or holds a word the question lacks (by `form`) and is next to the asked `noun` ("the echo
    function"), or is past the first word of its sentence and capitalised ("Canonical Log
    Lines") or unknown to general text (`UNKNOWN_RARITY`: "optparse"). A word the question
    writes in lowercase is a name when the answer capitalises it past its first word ("A
    Method field ..." answers "Which field serializes to ... a method of the schema?"). A
    sentence's first word is capitalised whatever it is ("Generally", "Configure"), but in a
    terse answer (`TERSE_ANSWER_WORDS`: "Flask.", "Use trim.") any word the question lacks is
    one.
    """
    exact = {word.strip(WORD_EDGES).rstrip(".") for word in question.split()}
    written = {word.casefold() for word in exact}
    forms = {form(token) for token in tokenize(spelled_out(question))}
    found = []
    for sentence in sentences(answer):
        words = [word.strip(WORD_EDGES).rstrip(".") for word in sentence.split()]
        terse = len(words) <= TERSE_ANSWER_WORDS
        for at, word in enumerate(words):
            tokens = [t for t in tokenize(word) if t not in FUNCTION_WORDS]
            if not tokens or word in exact:
                continue
            capital = at > 0 and any(c.isupper() for c in word)
            if word.casefold() in written:  # "Method" of "... a method of the schema"
                found += [word] if capital else []
                continue
            new = [t for t in tokens if form(t) not in forms]
            beside = {form(w) for w in words[max(at - 1, 0) : at + 2 : 2] if w}
            if (
                CODE_NAME_RE.search(word)
                or (new and terse)
                or (new and noun in beside)
                or (new and capital)
                or (new and at and any(rarity(t) >= UNKNOWN_RARITY for t in new))
            ):
                found.append(word)
    return found
