"""What a question asks for, and whether an answer gives it: a checked part of confidence.

`graph.models.confidence` marks an answer not confident when the question asks for a kind of
thing the answer does not give: a quantity (`QUANTITY_QUESTION_RE`, `states_quantity`), someone
(`PERSON_QUESTION_RE`, `names_someone`), a name of a thing of code or what something is called
(`THING_QUESTION_RE`, `CALLED_QUESTION_RE`, `names_thing`); or when its citations lack a name of
code the question writes (`IDENTIFIER_RE`, `holds_identifiers`). Every check reads the question
and the answer as written, so it holds for any model's answer, not only the offline policy's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graph.models.background import rarity
from graph.models.support import FUNCTION_WORDS, form, held, spelled_out, stems_of
from tools.bm25_tokens import tokenize

QUANTITY_QUESTION_RE = re.compile(
    r"\bhow (many|much|long|far|big|large|tall|old|wide|high|deep|heavy|fast)\b"
    r"|\b(what|which) (\w+ )?versions?\b",
    re.I,
)
"""A question asking for a count, an amount, a measure or a version: its answer states a
quantity (`states_quantity`).

The measures ("how long", "how far", "how old"...) were added after "How long may a line of code
be in a pull request?" was answered, confidently, with a sentence about pull requests holding no
number: on the tune sets every right answer to such a question states one ("within 30 days",
"12,799 feet", "almost two weeks"), and two wrong ones do not (markdown's, now not confident,
and a hotpotqa-dev-tune one that was not). "How often" is not among them: "daily" or "nightly"
answer it with no number."""

QUANTITY_RE = re.compile(
    r"\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen"
    r"|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy"
    r"|eighty|ninety|hundreds?|thousands?|millions?|billions?|dozens?|once|twice|half|single"
    r"|several|multiple|unlimited|infinite|any number|none|free)\b",
    re.I,
)
"""What states a quantity: a digit, a number spelled out, or a word that answers "how many" or
"how much" without one ("an unlimited number", "several", "none", "free"); not "many" or
"few", which most sentences use for something else ("appropriate for many use cases").

An answer to "How many times can the cycle helper take strings?" holding none of these
("it is possible to cycle among a list of strings") answers something else, and so does one
to "Which Python versions are supported?" holding no version number. On the sweep it marks
not confident one wrong answer of jinja (wrong and confident 13% to 10% of its answers) and
two of werkzeug ("How many workers ... by default?" answered "The default sync worker is
appropriate for many use cases", and a "Which Python versions" answer naming none: 15% to 9%),
and changes no right answer's confidence on any tune set: their answers hold a number
("thirteen different states" among them, hence the teens). A version named without a number
("the demo version") is a right answer this leaves not confident; no tune question has one."""

PERSON_QUESTION_RE = re.compile(r"^\s*(who|whom|whose)\b|\b(by|of|to|with|for|from) whom\b", re.I)
"""A question asking who: its answer names someone (`names_someone`), as the offline policy's
"person" kind reads it (`graph.models.offline.tuning.short_answers.KIND_PATTERNS`).

Added after "Who currently maintains Python-Markdown?" was answered, confidently, with "For
consistency, Python-Markdown maintains the same behavior ...": over the tune sets' answers to
who-questions, it is the only one naming no one (every other, right or wrong, holds a capitalised
word the question lacks: "Mira Okafor", "Reuters", "The State Council")."""

IDENTIFIER_RE = re.compile(r"\b[A-Za-z][A-Za-z0-9]*_\w*[A-Za-z0-9]\b")
"""A name of code a question writes: words joined by "_" (`output_format`, `tab_length`); its
answer cites a passage holding it as written (`holds_identifiers`).

The search and support read it as its parts ("output", "format"), which passages about anything
else hold: "If I don't set output_format, what markup does markdown.markdown produce?" was
answered, confidently, from two CodeHilite sentences holding "format", "set" and "output". On
the tune sets every answer to a question writing such a name (jinja, attrs, werkzeug, markdown)
that cites a passage holding it is unchanged, and that one alone loses its confidence. Not
camelCase: "iPod" and "thanKing" are names of products, written many ways (a right
hotpotqa-dev-tune answer would lose its confidence); not dotted paths ("attrs.frozen"): the docs
write them shorter ("@frozen") or longer ("attrs.exceptions.FrozenInstanceError"), and a right
attrs answer cites no passage holding the path as the question writes it."""

CODE_WORD_RE = re.compile(r"\w+")
"""A word as code writes it, its underscores kept, for `holds_identifiers`."""

WRITTEN_WORD_RE = re.compile(r"\w[\w'’-]*")
"""A word as written, with its apostrophes and hyphens ("Python-Markdown", "Destiny's"), for
`names_someone` to see its capitals."""
SENTENCE_END_RE = re.compile(r"(?<=[.!?:])\s+|\n\s*")
"""Where a passage's sentences end, for `rivals` and `answer_coverage`: after ., !, ?
or : followed by space, and at a line break (a heading, a list item)."""

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

VERSION_OF_RE = re.compile(
    r"\b(?i:what|which)\s+(?P<name>[\w.+-]*[A-Z][\w.+-]*)\s+versions?\b"
    r"|\b(?i:(?:what|which)\s+(?:[a-z]+\s+)?versions?\s+of\s+(?:the\s+)?)"
    r"(?P<of>[\w.+-]*[A-Z][\w.+-]*)"
)
"""A question asking which version of a thing it names ("Which Python versions does structlog
support?", "What minimum version of iTunes ...?"; not "on older versions of Windows"): the
name, written with a capital, is what the version is of. A cited passage never naming it
states the version of something else (`holds_version_subjects`), and an answer stating no
number after it ("New in version 2.9. Jinja supports the Python async syntax.") states no
version of it (`states_versions`).

Added after "Which Python versions does structlog support?" (not in its documentation) was
answered, confidently, from "Deprecated since version 26.1.0. Support for better-exceptions
..." (support 0.74: "versions", "structlog" and "support" held, "Python" not). Over the tune
sets, every other answer to such a question cites a passage naming the thing (Python, Bash,
Click, Werkzeug, iTunes), but werkzeug's "Which Python versions does Werkzeug support?",
answered wrong and not confident from a passage naming neither. `states_versions` then made
jinja's "Which Python versions does Jinja support?", answered from "New in version 2.9. Jinja
supports the Python async and await syntax.", not confident (jinja wrong and confident 3 of 30
answers to 2); every right answer to such a question writes the version after the name
("Python 3.7", "Click 2.0", "Werkzeug 3.2", "iTunes 7") and keeps its confidence."""

RELEASE_RE = re.compile(
    r"\b(?P<name>[A-Z][\w.+-]*)(?:\s+v?(?P<version>\d+(?:\.\d+)+)|/(?P<slashed>\d+(?:\.\d+)*))\b"
)
"""A release a question names: a capitalised name and its dotted version ("Python-Markdown
3.11", "Python 2.7"), or a version written after a slash ("HTTP/2"). Its citations must
state that version of that name
(`unstated_releases`): the support reads "3.11" as the numbers "3" and "11", which any
passage holding "PyPy 3.11" or "3.14" holds.

Added after "Which Python version stopped being supported in Python-Markdown 3.11?" was
answered, confidently, from the changelog entry of release 3.10.0 ("... drop support for
Python 3.9 and PyPy 3.9", with "PyPy 3.11" in it). Over the tune sets four questions name a
release: that answer loses its confidence (markdown wrong and confident 4 of 35 answers to 3),
the three others ("Python 3.7", "Python 2.7" as "Python versions 2.6, 2.7", and a declined
one) are unchanged. The slashed form was added after werkzeug's off-corpus "How do I enable
HTTP/2 in the Werkzeug development server?" was answered, confidently, from a sentence on
Colorama holding "enable" and "development server" (the passage holds "HTTP" and a "2"
elsewhere): it loses its confidence (werkzeug wrong and confident 3 of 34 answers to 2), and
no other tune question writes such a name."""

SLASHED_RE = re.compile(r"(?<=[A-Za-z])/(?=\d)")
"""The slash between a name and its version ("HTTP/2"), read as a space by `states_release`."""

RELEASE_WINDOW = 4
"""Words after a name within which a passage states its version ("Python versions 2.6, 2.7",
"Python-Markdown Changelog > [3.11.0]")."""

DEFAULT_QUESTION_RE = re.compile(
    r"^\s*(?:what|which)\s+(?:is|are|was|were)\s+(?:the\s+)?defaults?\b"
    r"|^\s*what\b[^?]*\bdefaults?\s+to\b",
    re.I,
)
"""A question asking what a default is ("What is the default of max_form_parts?", "What does
the encoding default to?"): its answer states a default (`states_default`), as documentation
does ("The default is 1000.", "Defaults to toclink.", "If no encoding is given, ...").

Added after werkzeug's "What is the default of max_form_memory_size?" was answered,
confidently, with a sentence naming the option and no default ("... use .FormDataParser to
apply max_form_memory_size and max_form_parts."). Over the tune sets six questions ask so; the
five right answers say "default" ("The default stat backend ...", "Defaults to Permanent
link.") and keep their confidence; that one loses it (werkzeug wrong and confident 2 of 34
answers to 1). Not "by default" questions: "where is lazy opening the default?" is answered
right by "If a file is opened lazily: ... raising an FileError."."""

CODE_NAME_RE = re.compile(r"\w\(|_|`|\w\.[A-Za-z_]\w|[a-z][A-Z]|[A-Z]{2}")
"""A word written as code or as an acronym: a call ("secho()"), underscores
("cache_logger_on_first_use"), backticks, a dotted path ("structlog.dev.plain_traceback", not
"e.g."), camelCase ("markdownFromFile"), two capitals ("JSONRenderer", "WSGI")."""

WORD_EDGES = ",;:!?\"'“”‘’()[]{}<>*"
"""What is stripped from a written word's ends before it is read as a name (and a final ".")."""

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


def states_quantity(question: str, answer: str) -> bool:
    """Whether `answer` states a quantity (`QUANTITY_RE`), or `question` asks for none.

    A question asks for one when it asks how many, how much, how long (far, old...) or which
    version (`QUANTITY_QUESTION_RE`).
    """
    return not QUANTITY_QUESTION_RE.search(question) or bool(QUANTITY_RE.search(answer))


def names_someone(question: str, answer: str) -> bool:
    """Whether `answer` names someone, or `question` asks no one (`PERSON_QUESTION_RE`).

    It names someone when it writes a word with a capital letter holding a meaningful word
    (not in `FUNCTION_WORDS`, so not "For" or "The") that the question does not hold.
    """
    if not PERSON_QUESTION_RE.search(question):
        return True
    asked = set(tokenize(spelled_out(question)))
    return any(
        token not in FUNCTION_WORDS and token not in asked
        for word in WRITTEN_WORD_RE.findall(answer)
        if any(c.isupper() for c in word)
        for token in tokenize(word)
    )


def holds_identifiers(question: str, cited: Sequence[str]) -> bool:
    """Whether the `cited` passages hold each name of code `question` writes (`IDENTIFIER_RE`).

    Held as written, ignoring case, as a whole word ("output_format", not "output format").
    """
    held = {word.casefold() for text in cited for word in CODE_WORD_RE.findall(text)}
    return all(name.casefold() in held for name in IDENTIFIER_RE.findall(question))


def sentences(text: str) -> list[str]:
    """The sentences of `text` (`SENTENCE_END_RE`), stripped, blank ones dropped."""
    return [part.strip() for part in SENTENCE_END_RE.split(text) if part.strip()]


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


def version_subjects(question: str) -> list[str]:
    """The names whose version `question` asks (`VERSION_OF_RE`).

    "Python" of "Which Python versions ...?", "iTunes" of "the minimum version of iTunes".
    """
    return [m["name"] or m["of"] for m in VERSION_OF_RE.finditer(question)]


def unnamed_versions(question: str, cited: Sequence[str]) -> list[str]:
    """The things whose version `question` asks that no `cited` passage names.

    Named when the passages hold each word of the name in the same `form` ("Python" by
    "python").
    """
    held = stems_of(cited)
    return [
        name
        for name in version_subjects(question)
        if any(form(token) not in held for token in tokenize(name))
    ]


def holds_version_subjects(question: str, cited: Sequence[str]) -> bool:
    """Whether the `cited` passages name each thing whose version `question` asks."""
    return not unnamed_versions(question, cited)


def unstated_releases(question: str, cited: Sequence[str]) -> list[str]:
    """The releases `question` names (`RELEASE_RE`) no `cited` passage states.

    Stated as `states_release` reads it: "Python-Markdown 3.11" by "Python-Markdown 3.11.0".
    """
    return [
        m.group(0)
        for m in RELEASE_RE.finditer(question)
        if not any(states_release(text, m["name"], *release_version(m)) for text in cited)
    ]


def release_version(release: re.Match[str]) -> tuple[str, int]:
    """A `RELEASE_RE` match's version and the words after the name it may be stated within.

    `RELEASE_WINDOW` for a dotted one ("Python versions 2.6, 2.7"); the next word for a
    slashed one, which is written with its name ("HTTP/2", not "HTTP ... 2").
    """
    if release["version"]:
        return release["version"], RELEASE_WINDOW
    return release["slashed"], 1


def states_release(text: str, name: str, version: str = "", window: int = RELEASE_WINDOW) -> bool:
    """Whether `text` writes `name` and then `version` within `window` words.

    The name ignoring case; the version as written or a longer one it starts ("3.11" by
    "3.11.0", not by "3.110"); with no `version`, any number ("Python 3.7", "iTunes 7"). A
    slash before a version is a space (`SLASHED_RE`: "HTTP/2").
    """
    words = [
        word.strip(WORD_EDGES).rstrip(".").casefold() for word in SLASHED_RE.sub(" ", text).split()
    ]
    return any(
        word == name.casefold()
        and any(
            later == version or later.startswith(version + ".") if version else later[:1].isdigit()
            for later in words[at + 1 : at + 1 + window]
        )
        for at, word in enumerate(words)
    )


def states_versions(question: str, answer: str) -> bool:
    """Whether `answer` states a version of each thing whose version `question` asks.

    "Which Python versions does Jinja support?" wants "Python 3.7" (`version_subjects`,
    `states_release`), not "New in version 2.9. Jinja supports the Python async syntax."
    """
    return all(states_release(answer, name) for name in version_subjects(question))


def states_default(question: str, answer: str) -> bool:
    """Whether `answer` states a default, or `question` asks for none (`DEFAULT_QUESTION_RE`).

    It states one when it holds "default" as support reads it (`graph.models.support.held`:
    "defaults", or "if no X is given").
    """
    return not DEFAULT_QUESTION_RE.search(question) or bool(held({"default": 1.0}, [answer]))
