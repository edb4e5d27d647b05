"""Whether citations and answer are about the version a question asks: part of confidence.

The citations name the thing whose version is asked (`unnamed_versions`) and state a release
the question names (`unstated_releases`); the answer states a version of that thing
(`states_versions`). The other checks of what is asked are `graph.models.asked`'s.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graph.models.asked import WORD_EDGES
from graph.models.support import stems_of
from tools.bm25_tokens import tokenize
from tools.expand import form

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
