"""Short answers: reading a yes or a no from the statement that answers a yes/no question.

Chosen on the documentation tune sets' yes/no questions (jinja, click, attrs: 22) and
squad's; hotpotqa-dev-tune holds none, so the comparison words keep its shape (two entities,
"both", "same") from getting a yes/no no sentence states.
"""

from __future__ import annotations

import re

from graph.models.offline.tuning.reading import BARE_REPLY_RE

NEGATIONS = frozenset("not no never cannot neither nor without none nothing nobody nowhere".split())
"""Words that turn a clause's statement around (contractions are read as "not" first, and
"avoids the need to" as "no need to": `NEED_AVOIDED_RE`)."""

NEED_AVOIDED_RE = re.compile(r"\bavoid(?:s|ed|ing)?\s+(?:the\s+)?need\s+(?:to|for)\b", re.I)
"""A need avoided ("This avoids the need to package and install a plugin"): read as "no need
to", so it denies what follows it as any negation does ("Do I have to package and install a
plugin ...?" is "no"; tox-33 had read "yes", no other tune answer moved). "Avoid" alone is no
denial: "caches responses to avoid slow responses" says yes to "Does it cache responses?"."""

LEADING_REPLY_RE = re.compile(rf"^\s*(?:{BARE_REPLY_RE.pattern})\s+", re.I)
"""A FAQ's bare "Yes." or "No." (`reading.BARE_REPLY_RE`) opening an answer unit: it replies to
the question the page's heading asks, which may be the user's turned the other way ("Does it
need a network?" over "Does it work offline?"), so a yes or no is read from the sentence after
it only."""

NEGATING_PREFIX_RE = re.compile(r"\b(un|non-?)(\w+)", re.I)
"""A word that negates another by its prefix ("unused", "non-blocking", "unsupported"): read as
"not" and that word when the word is a question word and the whole is not ("Can I return a
used item?" met by "You can return any unused item": no). Only "un" and "non": "in", "im" and
"dis" open too many words that negate nothing ("input", "import", "display")."""

CASELESS_WORDS = frozenset("possible possibly able ever still also already even".split())
"""Question words that ask how or whether, naming no case of their own ("Is it possible to
...?", "Does X still ...?"): a corpus lacking one does not leave the case unstated
(`yes_no.unstated_case`); nor does a manner adverb ending in "ly" ("currently", "actually")."""

REVERSIBLE_ROOTS = frozenset(
    "install set lock load subscribe pack wrap register mount zip do link pin freeze plug hook "
    "bind mute tag patch publish archive select check comment escape follow watch block "
    "delete share tie".split()
)
"""Stems of actions whose "un" form undoes them rather than denies them: "uninstalled",
"unset", "unloaded" say nothing against "installed", "set", "loaded" (`NEGATING_PREFIX_RE`)."""

NEGATION_EXCEPTIONS = frozenset(["not only", "not just", "no matter"])
"""A negation word opening one of these phrases negates nothing ("not only X but Y")."""

CONTRACTION_RE = re.compile(r"\b(\w+)n['’]t\b", re.I)
"""A contracted negation ("doesn't", "isn’t"): read as its verb and "not"."""

CONDITION_WORDS = frozenset("if unless when whenever whether provided once until".split())
"""Words opening a condition clause: a negation inside one ("if the stream is not a
terminal") is part of the condition, not of the statement."""

COMPARISON_WORDS = frozenset("both same different either than".split())
"""Words of a comparison ("are X and Y both ...", "older than"): a yes/no question holding one
is answered only by a sentence that holds it too (two entities' sentences never say "same")."""

COMPARISON_OPENERS = {"than": frozenset("different other rather".split())}
"""Words opening a comparison the key word closes: a question's "a different key for
serialization than for deserialization" is stated by "a different key for serialization and
deserialization", which has no "than" (marshmallow-36, which gave no yes/no at 6cd032e for that
"than" alone). A degree ("older than") has no opener here, and still needs the "than"."""

RESTRICTION_WORDS = frozenset("only except exclusively solely".split())
"""Words limiting a statement ("for options only"): without a negation the answer may still be
no for what the question asks, so none is given."""

PRONOUN_LEADS = frozenset("it its they their this these he she his her that".split())
"""Words opening a sentence that continues its predecessor: it holds that one's words too."""

CONTRAST_WORDS = ("but", "however", "although", "though", "whereas")
"""Words joining two sides of a contrast ("not allowed, although assistance dogs are
welcome"): a clause break (`CLAUSE_BREAK_RE`), and the sides `CONTRAST_RE` compares. ("yet"
is left out: "not yet" is a negation, not a contrast.)"""

CONTRAST_RE = re.compile(rf"\b(?:{'|'.join(CONTRAST_WORDS)})\b", re.I)
"""Where a statement's sides of a contrast split: when the sides are turned opposite ways and
the one without the main clauses holds a question word, that side decides if it is plainly the
case asked (`SIDE_NEW_WORDS`), else the sentence says both, and no yes or no is read. Chosen
on the documentation tune sets' yes/no questions (a split at every clause break also took
"ever" after "super()" for another side)."""

CLAUSE_BREAK_RE = re.compile(rf"[,;:()\[\]—–]|\s-\s|\b(?:{'|'.join(CONTRAST_WORDS)})\b", re.I)
"""Where a sentence's clauses split, for reading which clause a negation belongs to."""

YES_MISSING_SHARE = 0.34
"""Most of a yes/no question's words the statement may lack (its subject said as "It", a
qualifier such as "file" or "ever"); more, and it may state something else."""

OBJECT_NEGATIONS = frozenset(["without"])
"""Negations heading an object rather than a clause: "without X" denies X, not the clause's
predicate, so it counts only when X is something the question asks about ("X works without
root" to "Does X need root?"), or when the question holds one itself ("... without root?").
Read as any negation, "If strict_slashes is enabled (the default), visiting a branch URL
without a trailing slash will redirect" answered "Is strict_slashes enabled by default?" with
"no" (werkzeug-30, the one wrong yes/no short answer of the 15 tune sets at 6cd032e)."""

OBJECT_WORDS = 4
"""How many words after "without" make its object: a determiner and a noun phrase ("a
trailing slash", "any special formatting by") or a short gerund phrase ("needing to write
Apache"), as the documentation tune sets' "without" phrases run; the clause's own predicate
words lie further on."""

WHOLE_WORD_RE = re.compile(r"\w+")
"""A word with a name of code kept whole ("strict_slashes"), for matching the object of a
negation: "a trailing slash" is not the "strict_slashes" a question asks about, though the
search's tokens ("strict", "slashes") share a stem with it."""

WRITTEN_WORD_RE = re.compile(r"\w+(?:-\w+)*")
"""A question word as written, a hyphenated compound or a name of code kept whole
("Python-Markdown", "strict_slashes"), for counting the words a statement misses
(`YES_MISSING_SHARE`): "This is not a CommonMark implementation" misses one word of "Is
Python-Markdown an implementation of CommonMark?", its subject said as "This", not two of
four (markdown-31, no yes/no at 6cd032e; the gold is no)."""

SIDE_NEW_WORDS = 1
"""Most words of its own (outside the question's) the other side of a contrast may add and still
be read as the case asked: its predicate said another way ("assistance dogs are welcome" for
"allowed") or none ("however it will not do so by default"). Those two, pages-26 and attrs-09,
had no yes or no at 6cd032e (the sentence was read as saying both); with this bar both read
right, and a side with a subject and object of its own ("but the default build does not
include the GUI", three new words) still gives none."""
