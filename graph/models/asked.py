"""What a question asks for, and whether an answer gives it: a checked part of confidence.

`graph.models.confidence` marks an answer not confident when the question asks for a kind of
thing the answer does not give: a quantity (`QUANTITY_QUESTION_RE`, `states_quantity`), someone
(`PERSON_QUESTION_RE`, `names_someone`), a default (`DEFAULT_QUESTION_RE`, `states_default`), a
name (`graph.models.asked_names`) or a version (`graph.models.asked_versions`); or when its
citations lack a name of code the question writes (`IDENTIFIER_RE`, `holds_identifiers`). Every
check reads the question and the answer as written, so it holds for any model's answer, not
only the offline policy's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graph.models.support import FUNCTION_WORDS, held, spelled_out
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

OPENING_THING_RE = re.compile(
    r"^\s*(?:(?:in|at|on|for|from|by|with|of|to|under|into)\s+)?(?:which|what)\s+"
    r"(?!(?:is|are|was|were|do|does|did|can|could|should|would|will|has|have|had|kind|type|"
    r"sort)\b)[\w-]+",
    re.I,
)
"""A question opening with "which <noun>" or "what <noun>": that phrase says the thing asked
for, so a "how many", "how long" or "what version" later in it belongs to a clause of its own
("Which object lets me limit how many threads run?" asks for an object, "Which response header
tells a client what version of Black did the formatting?" a header). Read by the offline
policy's kind (`graph.models.offline.short_answers.question_kind`) and by `asks_quantity`; the
quantity check had declined Black's question for an answer naming the header but no version.
A quantity the opening phrase itself asks ("Which Python versions ...", "In which version
...") starts inside it, so it stays asked."""

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

COMPARISON_QUESTION_RE = re.compile(
    r"\bhow (?:much|many times) (?:faster|slower|quicker|bigger|smaller|larger|cheaper|better|"
    r"worse|more|less|fewer|higher|lower|longer|shorter|heavier|lighter)\b",
    re.I,
)
"""A question asking how much one thing differs from another ("How much faster is X than Y?"):
its answer states by how much (`RATIO_RE`), not just that it differs.

Four docs sets' off-corpus questions have this shape (markdown, structlog, marshmallow, Trio: "How
much faster is X than Y?"), and no answerable question of any tune set: a passage saying "X
is much faster" or "3 workers" had been quoted for it (and, at support above the bar, answered)."""

RATIO_RE = re.compile(
    r"\d[\d.,]*\s*(?:x|×|times|%|percent|per cent|-?fold)(?!\w)"
    r"|\b(?:twice|thrice|half|double|triple|quadruple|orders? of magnitude|\w+-fold"
    r"|(?:one|two|three|four|five|six|seven|eight|nine|ten|a hundred|a thousand) times)\b",
    re.I,
)
"""What states by how much one thing differs from another: a ratio or a share ("3x", "40%",
"twice", "an order of magnitude", "ten times")."""

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

WORD_EDGES = ",;:!?\"'“”‘’()[]{}<>*"
"""What is stripped from a written word's ends before it is read as a name (and a final ".")."""


def states_quantity(question: str, answer: str) -> bool:
    """Whether `answer` states a quantity (`QUANTITY_RE`), or `question` asks for none.

    A question asks for one when it asks how many, how much, how long (far, old...) or which
    version (`asks_quantity`). A question asking how much one thing differs from another
    (`COMPARISON_QUESTION_RE`) needs a ratio or a share (`RATIO_RE`): "In marshmallow 3, ..."
    does not say how much faster marshmallow 4 is.
    """
    if COMPARISON_QUESTION_RE.search(question):
        return bool(RATIO_RE.search(answer))
    return not asks_quantity(question) or bool(QUANTITY_RE.search(answer))


def asks_quantity(question: str) -> bool:
    """Whether `question` asks for a quantity (`QUANTITY_QUESTION_RE`).

    Not when the quantity is asked in a clause after the thing the question opens by asking for
    (`OPENING_THING_RE`: "Which header tells what version ...?").
    """
    asked = QUANTITY_QUESTION_RE.search(question)
    if asked is None:
        return False
    opening = OPENING_THING_RE.match(question)
    return opening is None or asked.start() < opening.end()


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


def states_default(question: str, answer: str) -> bool:
    """Whether `answer` states a default, or `question` asks for none (`DEFAULT_QUESTION_RE`).

    It states one when it holds "default" as support reads it (`graph.models.support.held`:
    "defaults", or "if no X is given").
    """
    return not DEFAULT_QUESTION_RE.search(question) or bool(held({"default": 1.0}, [answer]))
